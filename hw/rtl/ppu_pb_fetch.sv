// SPDX-License-Identifier: MIT
// Pushbuffer fetch: streams the dwords of one virtually addressed range
// (a GPFIFO entry or a pushbuffer segment) to the host decoder, in order.
//
// Reads run ahead of the decoder by at most DEPTH beats, and only inside the
// range the host asked for: the host never lets it read past the segment it
// is executing, because SEEDS §C fills GPFIFO entries just ahead of GP_GET.
// A translation fault or bus error becomes a fault marker in the stream at
// the position of the first dword it affects, so the decoder sees the fault
// exactly when it reaches the bad dword and not before.
module ppu_pb_fetch #(
    parameter int unsigned DEPTH = 4
) (
    input  logic                          clk,
    input  logic                          rst_n,
    // stream control: start only while idle, or in the cycle after the
    // last dword of the range was taken (then nothing of it is in flight);
    // flush abandons the stream
    input  logic                          start,
    input  logic [31:0]                   start_va,     // 4-byte aligned
    input  logic [20:0]                   start_ndw,    // >= 1
    input  ppu_types_pkg::pt_root_t       start_root,
    input  logic                          flush,
    output logic                          idle,
    // dword stream
    output logic                          dw_valid,
    input  logic                          dw_ready,
    output logic [31:0]                   dw,
    output logic                          dw_fault,
    output logic [7:0]                    dw_fault_kind,
    output logic [31:0]                   dw_fault_va,
    // MMU client
    output logic                          x_req_valid,
    input  logic                          x_req_ready,
    output ppu_types_pkg::xlate_req_t     x_req,
    input  logic                          x_rsp_valid,
    input  ppu_types_pkg::xlate_rsp_t     x_rsp,
    // memory read client
    output logic                          rd_valid,
    input  logic                          rd_ready,
    output ppu_types_pkg::paddr_t         rd_pa,
    input  logic                          rd_rsp_valid,
    input  ppu_types_pkg::mem_rd_rsp_t    rd_rsp,
    // invalidate handshake (ppu_inv_drain): the held page translation is
    // dropped after an MMU invalidate, once no read made with it is
    // presented and not yet taken; inv_hold until then
    input  logic                          invalidate,
    output logic                          inv_hold
);

  localparam int unsigned PW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam int unsigned CW = $clog2(DEPTH + 1);

  // Slot storage: one beat each.
  logic [63:0] s_data  [DEPTH];
  logic [1:0]  s_keep  [DEPTH];   // which halves belong to the stream
  logic        s_full  [DEPTH];   // data (or fault) present
  logic        s_fault [DEPTH];
  logic [7:0]  s_kind  [DEPTH];
  logic [31:0] s_va    [DEPTH];   // VA of the beat

  logic [PW-1:0] head, fill, tail;
  logic [CW-1:0] used;            // allocated slots
  logic [CW-1:0] rd_out;          // reads issued, response not yet seen
  logic          head_hi;         // low half of the head beat already taken

  logic          active;          // still issuing
  logic          stopped;         // fault queued: issue no more
  logic [32:0]   iss_va;          // next beat to read (beat aligned)
  logic [32:0]   end_va;          // one past the last byte of the range
  logic [31:0]   first_va;
  ppu_types_pkg::pt_root_t      root;

  logic          pg_valid;
  logic [19:0]   pg_vpn;
  ppu_types_pkg::paddr_t        pg_pa;
  logic          x_wait;          // translation request accepted, waiting for rsp
  logic          dropping;        // flushed: swallow responses still in flight
  // A read presented and not yet taken when a flush came: it stays
  // presented, with its address, until the port takes it (valid is never
  // withdrawn), and its answer is swallowed with the others.
  logic          rq_hold;
  ppu_types_pkg::paddr_t        rq_pa;
  logic          pg_kill_q;       // invalidated: drop the page when allowed

  function automatic logic [PW-1:0] inc(input logic [PW-1:0] p);
    inc = (p == PW'(DEPTH - 1)) ? '0 : p + 1'b1;
  endfunction

  wire page_hit = pg_valid && (pg_vpn == iss_va[31:12]);
  wire more     = active && !stopped && (iss_va < end_va);
  wire va_wrap  = iss_va[32];
  // Refill in bursts: from half empty until full.  The memory port answers
  // in request order, so a pushbuffer read issued just before a method's
  // semaphore or copy read would add its (system memory) latency to it;
  // bursts keep the fetch's reads away from the few methods that follow a
  // refill.
  logic filling;
  wire room     = filling && (used < CW'(DEPTH));

  // Issue a read when the page is translated and a slot is free; the first
  // read of a page goes out with the translation's answer, not a cycle later.
  wire x_ok = x_rsp_valid && x_wait && !x_rsp.fault;
  wire rd_new = more && !va_wrap && (page_hit || x_ok) && room && !dropping;
  assign rd_valid = rq_hold || rd_new;
  always_comb begin
    rd_pa      = page_hit ? pg_pa : x_rsp.pa;
    rd_pa.addr = {rd_pa.addr[ppu_types_pkg::PA_W-1:12], iss_va[11:3], 3'b000};
    if (rq_hold) rd_pa = rq_pa;
  end

  // Translate when the next beat sits on a page we do not hold; a new
  // stream asks in its start cycle (if not taken, the same request follows
  // from the registered state in the next cycle).
  wire x_at_start = start && !flush;
  assign x_req_valid = x_at_start ||
                       (more && !va_wrap && !page_hit && room && !x_wait && !dropping);
  always_comb begin
    x_req.va     = x_at_start ? {start_va[31:3], 3'b000} : {iss_va[31:3], 3'b000};
    x_req.root   = x_at_start ? start_root : root;
    x_req.access = ppu_types_pkg::ACC_READ;
  end

  // Head slot to the decoder.
  logic [63:0] h_data;
  logic [1:0]  h_keep;
  logic        h_full, h_fault;
  always_comb begin
    h_data  = s_data[head];
    h_keep  = s_keep[head];
    h_full  = s_full[head] && (used != '0);
    h_fault = s_fault[head];
  end
  logic take_hi;
  always_comb take_hi = head_hi || !h_keep[0];
  assign dw_valid      = h_full && !dropping;
  assign dw            = take_hi ? h_data[63:32] : h_data[31:0];
  assign dw_fault      = h_fault;
  assign dw_fault_kind = s_kind[head];
  assign dw_fault_va   = (s_va[head] < first_va) ? first_va : s_va[head];

  wire pop_dw   = dw_valid && dw_ready && !h_fault;
  wire pop_slot = pop_dw && (take_hi || !h_keep[1]);

  assign idle = !active && (rd_out == '0) && !x_wait && !x_req_valid && !rq_hold;

  // (a held read is flushed: it fills no slot)
  wire rd_fire = rd_new && rd_ready;
  wire pg_kill = invalidate || pg_kill_q;
  // (a read presented and not taken keeps its address until it is taken)
  wire pg_drop = pg_kill && !(rd_valid && !rd_ready);
  assign inv_hold = pg_kill;
  wire x_fire  = x_req_valid && x_req_ready;

  // Which halves of the beat at iss_va are inside [first_va, end_va).
  logic [1:0] keep_now;
  always_comb begin
    keep_now[0] = ({1'b0, iss_va[31:3], 3'b000} >= {1'b0, first_va}) &&
                  ({iss_va[32:3], 3'b000} < end_va);
    keep_now[1] = ({iss_va[32:3], 3'b100} < end_va);
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      head     <= '0;
      fill     <= '0;
      tail     <= '0;
      used     <= '0;
      rd_out   <= '0;
      head_hi  <= 1'b0;
      active   <= 1'b0;
      stopped  <= 1'b0;
      iss_va   <= '0;
      end_va   <= '0;
      first_va <= '0;
      root     <= '0;
      pg_valid <= 1'b0;
      pg_vpn   <= '0;
      pg_pa    <= '0;
      x_wait   <= 1'b0;
      dropping <= 1'b0;
      rq_hold  <= 1'b0;
      rq_pa    <= '0;
      pg_kill_q <= 1'b0;
      filling  <= 1'b1;
      for (int i = 0; i < DEPTH; i++) begin
        s_full[i]  <= 1'b0;
        s_fault[i] <= 1'b0;
        s_keep[i]  <= '0;
        s_kind[i]  <= '0;
        s_va[i]    <= '0;
        s_data[i]  <= '0;
      end
    end else begin
      // ---- read responses (in order) ----
      if (rd_rsp_valid) begin
        if (!dropping) begin
          s_data[fill] <= rd_rsp.data;
          s_full[fill] <= 1'b1;
          if (rd_rsp.err) begin
            s_fault[fill] <= 1'b1;
            s_kind[fill]  <= 8'(ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR);
            stopped       <= 1'b1;
          end
          fill <= inc(fill);
        end
      end
      // ---- translation responses ----
      if (x_rsp_valid && x_wait) begin
        x_wait <= 1'b0;
        if (!dropping) begin
          if (x_rsp.fault) begin
            // Fault marker after everything already issued.
            s_full[tail]  <= 1'b1;
            s_fault[tail] <= 1'b1;
            s_kind[tail]  <= x_rsp.kind;
            s_va[tail]    <= iss_va[31:0];
            s_keep[tail]  <= 2'b01;
            tail          <= inc(tail);
            stopped       <= 1'b1;
          end else begin
            pg_valid <= 1'b1;
            pg_vpn   <= iss_va[31:12];
            pg_pa    <= x_rsp.pa;
          end
        end
      end
      if (x_fire) x_wait <= 1'b1;
      // A range running past 4 GiB ends in a fault marker, never a wrap.
      if (more && va_wrap && room && !dropping) begin
        s_full[tail]  <= 1'b1;
        s_fault[tail] <= 1'b1;
        s_kind[tail]  <= 8'(ppu_hw_pkg::PPU_FAULT_KIND_VA_RANGE);
        s_va[tail]    <= 32'hffff_fffc;
        s_keep[tail]  <= 2'b01;
        tail          <= inc(tail);
        stopped       <= 1'b1;
      end
      // ---- issue ----
      if (rd_fire) begin
        s_full[tail]  <= 1'b0;
        s_fault[tail] <= 1'b0;
        s_keep[tail]  <= keep_now;
        s_va[tail]    <= {iss_va[31:3], 3'b000};
        tail          <= inc(tail);
        iss_va        <= iss_va + 33'd8;
      end
      // ---- consume ----
      if (pop_dw) begin
        if (pop_slot) begin
          s_full[head] <= 1'b0;
          head         <= inc(head);
          head_hi      <= 1'b0;
        end else begin
          head_hi <= 1'b1;
        end
      end
      // Slot and in-flight accounting.
      begin
        logic alloc;
        alloc = rd_fire || (x_rsp_valid && x_wait && !dropping && x_rsp.fault) ||
                (more && va_wrap && room && !dropping);
        used <= used + CW'(alloc) - CW'(pop_slot);
      end
      rd_out <= rd_out + CW'(rd_valid && rd_ready) - CW'(rd_rsp_valid);
      if (flush && rd_valid && !rd_ready) begin
        rq_hold <= 1'b1;
        rq_pa   <= rd_pa;
      end else if (rd_ready) begin
        rq_hold <= 1'b0;
      end
      if (used <= CW'(DEPTH / 2)) filling <= 1'b1;
      else if (used == CW'(DEPTH)) filling <= 1'b0;
      // ---- flush / start ----
      if (flush) begin
        active   <= 1'b0;
        stopped  <= 1'b0;
        dropping <= 1'b1;
        head     <= '0;
        fill     <= '0;
        tail     <= '0;
        used     <= '0;
        head_hi  <= 1'b0;
        pg_valid <= 1'b0;
        for (int i = 0; i < DEPTH; i++) begin
          s_full[i]  <= 1'b0;
          s_fault[i] <= 1'b0;
        end
      end else if (dropping && rd_out == '0 && !x_wait && !rq_hold) begin
        dropping <= 1'b0;
      end
      if (start && !flush) begin
        filling  <= 1'b1;
        active   <= 1'b1;
        stopped  <= 1'b0;
        first_va <= start_va;
        iss_va   <= {1'b0, start_va[31:3], 3'b000};
        end_va   <= {1'b0, start_va} + {10'd0, start_ndw, 2'b00};
        root     <= start_root;
        pg_valid <= 1'b0;
        head     <= '0;
        fill     <= '0;
        tail     <= '0;
        used     <= '0;
        head_hi  <= 1'b0;
      end
      // ---- MMU invalidate: the page translation goes (after a capture) ----
      if (pg_drop) begin
        pg_valid  <= 1'b0;
        pg_kill_q <= 1'b0;
      end else if (invalidate) begin
        pg_kill_q <= 1'b1;
      end
    end
  end

endmodule
