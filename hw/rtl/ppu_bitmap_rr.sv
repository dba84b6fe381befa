// SPDX-License-Identifier: MIT
// KINDS sets of positions 0..N-1 kept in RAM words of 64 bits, each word
// with a summary bit, and a round-robin search over a union of them: the
// first member at or after a start position inside a range, wrapping to
// the range's start.  This is the scheduler's ready tracking at thousands
// of channels (docs/channels-at-scale.md "Ready tracking without
// scanning"): the positions are runlist positions, a level is a range of
// them, and a search costs one or two RAM reads whatever N is, with no
// logic per position.
//
// Storage per kind: NW = N/64 words (a RAM of one write and one read port,
// bit-enabled writes: LUT RAM or block RAM) and NW summary flip-flops (one
// per 64 positions, at most 64 for 4096 positions).  Invariant: a word
// whose summary bit is 0 holds no member whatever the RAM holds, so no
// reset sweep is needed; the first member set in such a word writes the
// whole word.  Clearing a member writes its bit only; the summary bit is
// cleared lazily, when a search reads the word and finds it empty (and no
// update of that word raced the read), so a summary bit may be a stale 1
// and costs at most one extra read.
//
// Updates: one per kind per cycle (set or clear one position), applied at
// the clock edge, always accepted.  A set of a position already a member,
// or a clear of one that is not, is harmless.
//
// Moves: all members of one kind become members of another (mv_from ->
// mv_to), a word per two cycles over the words the summary marks: a
// semaphore release waking every blocked channel at once.  The moved
// kind's words are emptied by clearing their summary bits alone.  A move
// and a search do not run at once (q_ready is low during a move); an
// update of either kind's word while it is being moved makes the move
// read that word again, so an update is never lost and a move never
// stalls the updates.
//
// Searches: one at a time (q_ready), over the kinds in q_kinds.  The
// range is lo..hi (inclusive), the start from (lo <= from <= hi); the
// member at excl is skipped when excl_v.  The answer (r_valid for one
// cycle, r_found, r_pos) is seen 3 cycles after the query's cycle when the
// first word read holds it, 2 cycles more per further word read (a word
// the summary marks that holds no member of the range, the wrap to lo),
// and 2 cycles after it when there is no word to read.  A word is read
// as it was before the updates of the cycle that reads it: the caller
// checks the position it gets against the channel's own state (a channel
// may have left the set since), as it would any decision.
//
// A move's moved words are read the same way; "an update of either
// kind's word" above means an update of the moved kind in the word, or
// any update of the target kind (its one write port).
module ppu_bitmap_rr #(
    parameter int unsigned N     = 4096,
    parameter int unsigned KINDS = 4,
    parameter int unsigned PW    = (N > 1) ? $clog2(N) : 1,
    parameter int unsigned KW    = (KINDS > 1) ? $clog2(KINDS) : 1
) (
    input  logic                clk,
    input  logic                rst_n,
    // updates, per kind k at [k] / [k*PW +: PW]
    input  logic [KINDS-1:0]    upd_valid,
    input  logic [KINDS-1:0]    upd_set,     // 1: set, 0: clear
    input  logic [KINDS*PW-1:0] upd_pos,
    // move (when q_ready)
    input  logic                mv_valid,
    input  logic [KW-1:0]       mv_from,
    input  logic [KW-1:0]       mv_to,
    // search
    input  logic                q_valid,
    output logic                q_ready,
    input  logic [KINDS-1:0]    q_kinds,
    input  logic [PW-1:0]       q_lo,
    input  logic [PW-1:0]       q_hi,
    input  logic [PW-1:0]       q_from,
    input  logic                q_excl_v,
    input  logic [PW-1:0]       q_excl,
    output logic                r_valid,
    output logic                r_found,
    output logic [PW-1:0]       r_pos
);
  localparam int unsigned WB = 6;                      // bits of a bit index in a word
  localparam int unsigned NW = (N + 63) / 64;          // words per kind
  localparam int unsigned AW = (NW > 1) ? $clog2(NW) : 1;
  localparam int unsigned XW = AW + WB + 1;            // a position with room to step past N

  function automatic logic [AW-1:0] word_of(input logic [XW-1:0] p);
    word_of = AW'(p >> WB);
  endfunction

  // ---- summaries ----
  logic [KINDS*NW-1:0] sum_q;   // bit k*NW + w: word w of kind k may hold a member

  // ---- search state ----
  typedef enum logic [2:0] {S_IDLE, S_SCAN, S_READ, S_MSCAN, S_MREAD} st_e;
  st_e               st_q;
  logic [KW-1:0]     mv_from_q, mv_to_q;
  logic [KINDS-1:0]  kinds_q;
  logic [XW-1:0]     lo_q, hi_q, from_q;
  logic              excl_v_q;
  logic [XW-1:0]     excl_q;
  logic              wrap_q;    // in the second part: lo .. from-1
  logic [XW-1:0]     cur_q;     // first position not yet looked at in this part
  logic [AW-1:0]     rd_w_q;    // word being read (S_READ)

  assign q_ready = (st_q == S_IDLE);
  wire   reading = (st_q == S_SCAN) || (st_q == S_MSCAN);

  // End of the part being searched.
  wire [XW-1:0] part_end = wrap_q ? from_q - XW'(1) : hi_q;

  // Union of the searched kinds' summaries, and the first word at or
  // after the cursor's word, up to the part's last word.
  logic [NW-1:0] sum_u;
  always_comb begin
    sum_u = '0;
    for (int k = 0; k < KINDS; k++)
      if (kinds_q[k]) sum_u = sum_u | sum_q[k*NW +: NW];
  end
  logic          cand_v;
  logic [AW-1:0] cand_w;
  logic [NW-1:0] sum_r;   // ... of the words from the cursor's to the part's last
  always_comb begin
    sum_r  = sum_u & ~((NW'(1) << word_of(cur_q)) - NW'(1)) &
             ((NW'(2) << word_of(part_end)) - NW'(1));
    cand_v = (st_q != S_IDLE) && cur_q <= part_end && sum_r != '0;
    cand_w = '0;
    for (int w = NW - 1; w >= 0; w--) if (sum_r[w]) cand_w = AW'(w);
  end

  // ---- RAM: per kind, NW words; one read port (the search, in S_SCAN),
  // one write port (the update), bit-enabled ----
  logic [KINDS*64-1:0] rd_data;   // word rd_w_q of each kind, as read
  logic [KINDS-1:0]    rd_sum;    // ... and its summary bit when it was read

  // Evaluation of a word read (S_READ): the members of the searched kinds
  // between the cursor and the end of the part, without the excluded one.
  logic [63:0]   word_u, word_m;
  logic          hit;
  logic [WB-1:0] hit_b;
  always_comb begin
    word_u = '0;
    for (int k = 0; k < KINDS; k++)
      if (kinds_q[k] && rd_sum[k]) word_u = word_u | rd_data[k*64 +: 64];
    // (masks from the bit offsets, no comparison per bit: the candidate
    // word lies between the cursor's and the part's last)
    word_m = word_u;
    if (word_of(cur_q) == rd_w_q) word_m = word_m & ~((64'd1 << cur_q[WB-1:0]) - 64'd1);
    if (word_of(part_end) == rd_w_q) word_m = word_m & ((64'd2 << part_end[WB-1:0]) - 64'd1);
    if (excl_v_q && word_of(excl_q) == rd_w_q) word_m = word_m & ~(64'd1 << excl_q[WB-1:0]);
    hit   = (st_q == S_READ) && (word_m != '0);
    hit_b = '0;
    for (int b = 63; b >= 0; b--) if (word_m[b]) hit_b = WB'(b);
  end

  // Per-kind update decode (flat: Yosys 0.23).
  logic [KINDS*AW-1:0] up_w;
  logic [KINDS*64-1:0] up_oh;
  logic [KINDS-1:0]    up_sum;    // the word's summary bit before the update
  always_comb
    for (int k = 0; k < KINDS; k++) begin
      logic [XW-1:0] p;
      p = XW'(upd_pos[k*PW +: PW]);
      up_w[k*AW +: AW]   = word_of(p);
      up_oh[k*64 +: 64]  = 64'd1 << p[WB-1:0];
      up_sum[k]          = sum_q[k*NW + 32'(word_of(p))];
    end

  // Updates of the previous cycle (a word read then does not show them):
  // a word they touched keeps its summary bit.
  logic [KINDS-1:0]    up_v_q;
  logic [KINDS*AW-1:0] up_w_q;
  logic [KINDS-1:0]    raced;     // ... word rd_w_q of kind k
  always_comb
    for (int k = 0; k < KINDS; k++) raced[k] = up_v_q[k] && up_w_q[k*AW +: AW] == rd_w_q;

  // A move's word (S_MREAD): the moved kind's members in it, and whether
  // the move may write them now: not if an update of the moved kind's
  // word raced the read (it is not in the data) or comes now (its
  // summary bit must stay), nor while the target kind's write port takes
  // an update (the update goes first); then the word is read again.
  logic [63:0] mv_data;
  logic        mv_ok, mv_wr;
  always_comb begin
    mv_data = rd_sum[mv_from_q] ? rd_data[32'(mv_from_q)*64 +: 64] : '0;
    mv_ok   = (st_q == S_MREAD) && !raced[mv_from_q] &&
              !(upd_valid[mv_from_q] && up_w[32'(mv_from_q)*AW +: AW] == rd_w_q) &&
              !upd_valid[mv_to_q];
    mv_wr   = mv_ok && mv_data != '0;
  end

  // After a word that found nothing: step past it.
  wire [XW-1:0] next_cur = {1'b0, rd_w_q, WB'(0)} + XW'(64);

  always_ff @(posedge clk) begin
    r_valid <= 1'b0;
    if (!rst_n) begin
      st_q    <= S_IDLE;
      sum_q   <= '0;
      up_v_q  <= '0;
      r_found <= 1'b0;
      r_pos   <= '0;
    end else begin
      // Summaries: a set marks its word, and so does a move's write; a
      // search that read a kind's word as empty clears that kind's bit
      // unless an update of the previous cycle (not in the data read)
      // touched the word; a move clears the moved kind's bit.  A set in
      // this cycle wins over a clear.  (As a clear mask and a set mask per
      // kind: two decoders, not a write per summary bit.)
      for (int k = 0; k < KINDS; k++) begin
        logic [NW-1:0] clr, set;
        clr = '0;
        set = '0;
        if (st_q == S_READ && rd_sum[k] && rd_data[k*64 +: 64] == '0 && !raced[k])
          clr = NW'(1) << rd_w_q;
        if (mv_ok && 32'(mv_from_q) == k) clr = NW'(1) << rd_w_q;
        if (mv_wr && 32'(mv_to_q) == k) set = NW'(1) << rd_w_q;
        if (upd_valid[k] && upd_set[k]) set = set | (NW'(1) << up_w[k*AW +: AW]);
        sum_q[k*NW +: NW] <= (sum_q[k*NW +: NW] & ~clr) | set;
      end
      up_v_q <= upd_valid;
      up_w_q <= up_w;

      case (st_q)
        S_IDLE:
          if (mv_valid) begin
            // (the search's cursor over the whole range, one kind)
            st_q      <= S_MSCAN;
            mv_from_q <= mv_from;
            mv_to_q   <= mv_to;
            kinds_q   <= KINDS'(1) << mv_from;
            lo_q      <= '0;
            hi_q      <= XW'(N - 1);
            from_q    <= '0;
            wrap_q    <= 1'b0;
            cur_q     <= '0;
          end else if (q_valid) begin
            st_q     <= S_SCAN;
            kinds_q  <= q_kinds;
            lo_q     <= XW'(q_lo);
            hi_q     <= XW'(q_hi);
            from_q   <= XW'(q_from);
            excl_v_q <= q_excl_v;
            excl_q   <= XW'(q_excl);
            wrap_q   <= 1'b0;
            cur_q    <= XW'(q_from);
          end
        S_SCAN:
          if (cand_v) begin
            st_q   <= S_READ;
            rd_w_q <= cand_w;
          end else if (!wrap_q && from_q != lo_q) begin
            wrap_q <= 1'b1;
            cur_q  <= lo_q;
          end else begin
            st_q    <= S_IDLE;
            r_valid <= 1'b1;
            r_found <= 1'b0;
          end
        S_READ:
          if (hit) begin
            st_q    <= S_IDLE;
            r_valid <= 1'b1;
            r_found <= 1'b1;
            r_pos   <= PW'({rd_w_q, hit_b});
          end else begin
            st_q  <= S_SCAN;
            cur_q <= next_cur;
          end
        S_MSCAN:
          if (cand_v) begin
            st_q   <= S_MREAD;
            rd_w_q <= cand_w;
          end else
            st_q <= S_IDLE;
        S_MREAD: begin
          st_q <= S_MSCAN;
          if (mv_ok) cur_q <= next_cur;
        end
        default: st_q <= S_IDLE;
      endcase
    end
  end

  for (genvar k = 0; k < KINDS; k++) begin : g_kind
    logic [63:0]   mem [NW];
    logic [63:0]   wen, wdat, rdq;
    logic          rsq, we;
    logic [AW-1:0] wa;
    always_comb begin
      // an update, else a move's word into this kind; the first member of
      // a word known empty writes all of it
      we   = upd_valid[k] && (upd_set[k] || up_sum[k]);
      wa   = up_w[k*AW +: AW];
      wen  = up_sum[k] ? up_oh[k*64 +: 64] : '1;
      wdat = upd_set[k] ? up_oh[k*64 +: 64] : '0;
      if (!upd_valid[k] && mv_wr && 32'(mv_to_q) == k) begin
        we   = 1'b1;
        wa   = rd_w_q;
        wen  = sum_q[k*NW + 32'(rd_w_q)] ? mv_data : '1;
        wdat = mv_data;
      end
    end
    always_ff @(posedge clk) begin
      if (we)
        for (int b = 0; b < 64; b++)
          if (wen[b]) mem[wa][b] <= wdat[b];
      if (reading) begin
        rdq <= mem[cand_w];
        rsq <= sum_q[k*NW + 32'(cand_w)];
      end
    end
    assign rd_data[k*64 +: 64] = rdq;
    assign rd_sum[k] = rsq;
  end

endmodule
