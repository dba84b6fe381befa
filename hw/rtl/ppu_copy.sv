// SPDX-License-Identifier: MIT
// DMA copy engine: copies LEN bytes from virtual SRC to virtual DST (any
// byte alignment of either, non-overlapping), then optionally releases a
// completion semaphore through the semaphore unit.
//
// Datapath, one command at a time:
//
//   src xlate --> read issue --> memory --> data FIFO --> funnel --> write
//   (per page)    (beat-aligned,           (MAX_READS    shifter     issue
//                  credit-gated)            beats)                   (strobes)
//                                                                      ^
//                                                      dst xlate ------'
//
// * Read responses come back in order with no back-pressure, so a read is
//   issued only against a free FIFO slot (a credit).  A slot comes back
//   three cycles after the read it served was issued plus the memory
//   latency L (issue register, FIFO write, pop), so MAX_READS credits
//   sustain min(1, MAX_READS / (L + 3)) beats per cycle: MAX_READS is the
//   latency-hiding depth and must be about L + 3 for one beat per cycle.
// * Source and destination each keep their current page translation plus
//   one translated ahead, so a page crossing finds its translation ready.
// * The funnel shifter builds each destination beat from two consecutive
//   source beats; see "Aligner" below for the beat bookkeeping.
// * Chunks: the read issuer walks the source in chunks that end at
//   CHUNK_BYTES-aligned source addresses (the first chunk may be short, the
//   last one too).  It loads a chunk's beat count, issues it, and loads the
//   next chunk's count in the same cycle as the last beat of the previous
//   one, so chunking costs no bandwidth; it only bounds the per-step beat
//   counter, and with CHUNK_BYTES <= 4 KiB no chunk spans a source page.
//   Nothing about chunks is visible outside the engine.
// * A fault (translation, read error, write error) stops all issue at once,
//   drains every read, write and translation already in flight (their
//   responses must be taken so they cannot leak into the next command),
//   and reports the first fault; the semaphore is then not released.
// * A drop request (engine reset) is such a fault, of kind ENGINE_RESET, raised
//   from outside; halt (debug) stops issue without ending the copy.
module ppu_copy #(
  parameter int unsigned CHUNK_BYTES = 4096,
  parameter int unsigned MAX_READS   = 16
) (
  input  logic                       clk,
  input  logic                       rst_n,
  input  logic                       cmd_valid,
  output logic                       cmd_ready,
  input  ppu_types_pkg::copy_cmd_t   cmd,
  output logic                       done_valid,
  output logic [ppu_types_pkg::CHID_W-1:0] done_chid,
  output ppu_types_pkg::copy_done_t  done,
  output logic                       busy,
  // MMU client ports: source (READ) and destination (WRITE)
  output logic                       xs_req_valid,
  input  logic                       xs_req_ready,
  output ppu_types_pkg::xlate_req_t  xs_req,
  input  logic                       xs_rsp_valid,
  input  ppu_types_pkg::xlate_rsp_t  xs_rsp,
  output logic                       xd_req_valid,
  input  logic                       xd_req_ready,
  output ppu_types_pkg::xlate_req_t  xd_req,
  input  logic                       xd_rsp_valid,
  input  ppu_types_pkg::xlate_rsp_t  xd_rsp,
  // memory read and write clients (8-byte beats)
  output logic                       rd_valid,
  input  logic                       rd_ready,
  output ppu_types_pkg::paddr_t      rd_pa,
  input  logic                       rd_rsp_valid,
  input  ppu_types_pkg::mem_rd_rsp_t rd_rsp,
  output logic                       wr_valid,
  input  logic                       wr_ready,
  output ppu_types_pkg::mem_wr_req_t wr_req,
  input  logic                       wr_rsp_valid,
  input  logic                       wr_rsp_err,
  // completion semaphore through the semaphore unit (its port 1)
  output logic                       sem_valid,
  input  logic                       sem_ready,
  output ppu_types_pkg::sem_req_t    sem_req,
  input  logic                       sem_rsp_valid,
  input  ppu_types_pkg::sem_rsp_t    sem_rsp,
  output ppu_types_pkg::trace_t      trace,       // COPY_START at accept, COPY_END at done
  output logic                       perf_beat,   // pulse per destination beat issued
  // invalidate handshake (ppu_inv_drain): a page translation made before
  // the last MMU invalidate is still held by the running copy
  input  logic                       invalidate,
  output logic                       inv_hold_src,
  output logic                       inv_hold_dst,
  // engine recovery (ENGINE_CTRL): drop the running copy; halt issue
  input  logic                       drop_req,
  input  logic                       halt,
  output logic                       dropping     // until idle after a drop request
);

  // ---- Geometry ----
  localparam int unsigned BEAT_BYTES  = ppu_types_pkg::MEM_BYTES;
  localparam int unsigned BEAT_DW     = ppu_types_pkg::MEM_DW;
  localparam int unsigned BOFF_W      = $clog2(BEAT_BYTES);          // byte-in-beat bits
  localparam int unsigned PAGE_SHIFT  = ppu_hw_pkg::PPU_PAGE_SHIFT;
  localparam int unsigned PA_W        = ppu_types_pkg::PA_W;
  localparam int unsigned PPN_W       = PA_W - PAGE_SHIFT;
  // A 32-bit length plus a misaligned start spans at most 2^29 + 1 beats.
  localparam int unsigned BEATS_W     = 32 + 1 - BOFF_W;
  localparam int unsigned PAGES_W     = 32 - PAGE_SHIFT + 1;
  localparam int unsigned CHUNK_BEATS = CHUNK_BYTES / BEAT_BYTES;
  localparam int unsigned CHUNK_W     = $clog2(CHUNK_BEATS + 1);
  localparam int unsigned RCNT_W      = $clog2(MAX_READS + 1);
  localparam int unsigned PTR_W       = $clog2(MAX_READS);
  // Outstanding write acks; issue pauses near the top so it cannot wrap.
  localparam int unsigned WCNT_W      = 16;

  if (CHUNK_BYTES < BEAT_BYTES || (CHUNK_BYTES & (CHUNK_BYTES - 1)) != 0) begin : g_bad_chunk
    $error("ppu_copy: CHUNK_BYTES must be a power of two of at least one beat");
  end
  if (MAX_READS < 2) begin : g_bad_reads
    $error("ppu_copy: MAX_READS must be at least 2");
  end

  localparam logic [7:0] K_BUS_ERROR = 8'(ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR);
  localparam logic [7:0] K_RESET     = 8'(ppu_hw_pkg::PPU_FAULT_KIND_ENGINE_RESET);
  localparam logic [3:0] U_SEM       = 4'(ppu_hw_pkg::PPU_FAULT_UNIT_SEM);
  localparam logic [3:0] U_COPY_SRC  = 4'(ppu_hw_pkg::PPU_FAULT_UNIT_COPY_SRC);
  localparam logic [3:0] U_COPY_DST  = 4'(ppu_hw_pkg::PPU_FAULT_UNIT_COPY_DST);

  localparam int unsigned SEMF_W = ppu_hw_pkg::PPU_LAUNCH_DMA_SEMAPHORE__MSB
                                   - ppu_hw_pkg::PPU_LAUNCH_DMA_SEMAPHORE__LSB + 1;
  localparam logic [SEMF_W-1:0] SEM_RELEASE    = SEMF_W'(ppu_hw_pkg::PPU_LAUNCH_DMA_SEMAPHORE_RELEASE);
  localparam logic [SEMF_W-1:0] SEM_RELEASE_TS = SEMF_W'(ppu_hw_pkg::PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP);

  localparam int unsigned OP_W = ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__MSB
                                 - ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__LSB + 1;

  typedef enum logic [2:0] {
    C_IDLE,      // cmd_ready
    C_RUN,       // copying, or draining after a fault
    C_SEM_REQ,   // completion semaphore request held until accepted
    C_SEM_WAIT,  // semaphore response
    C_DONE       // done_valid pulse
  } cstate_e;

  cstate_e                  state_q;
  ppu_types_pkg::copy_cmd_t r_cmd;
  ppu_types_pkg::copy_done_t r_done;   // fault record; fault = 0 while none
  ppu_types_pkg::trace_t    trace_q;

  // ---- Command decode (combinational on the incoming command) ----
  logic               accept;
  logic [32:0]        src_span, dst_span;
  logic [BEATS_W-1:0] c_nr, c_nw;          // read / write beats
  logic [31:0]        c_src_last, c_dst_last;
  logic [PAGES_W-1:0] c_src_pages, c_dst_pages;
  logic [31:0]        c_chunk_off, c_chunk_room;
  logic [CHUNK_W-1:0] c_chunk;
  logic [BOFF_W-1:0]  c_sh_m1;

  assign accept = cmd_valid && cmd_ready;

  always_comb begin
    src_span    = {1'b0, cmd.len} + 33'(cmd.src[BOFF_W-1:0]) + 33'(BEAT_BYTES - 1);
    dst_span    = {1'b0, cmd.len} + 33'(cmd.dst[BOFF_W-1:0]) + 33'(BEAT_BYTES - 1);
    c_nr        = src_span[32:BOFF_W];
    c_nw        = dst_span[32:BOFF_W];
    c_src_last  = cmd.src + cmd.len - 32'd1;
    c_dst_last  = cmd.dst + cmd.len - 32'd1;
    c_src_pages = {1'b0, c_src_last[31:PAGE_SHIFT] - cmd.src[31:PAGE_SHIFT]} + PAGES_W'(1);
    c_dst_pages = {1'b0, c_dst_last[31:PAGE_SHIFT] - cmd.dst[31:PAGE_SHIFT]} + PAGES_W'(1);
    // First chunk runs from the first source beat to the next
    // CHUNK_BYTES-aligned source address, or to the end if that is sooner.
    c_chunk_off  = (cmd.src >> BOFF_W) & (CHUNK_BEATS - 1);
    c_chunk_room = CHUNK_BEATS - c_chunk_off;
    c_chunk      = (32'(c_nr) < c_chunk_room) ? CHUNK_W'(c_nr) : CHUNK_W'(c_chunk_room);
    // Funnel shift in bytes, 1..8 (see Aligner), stored minus one.
    c_sh_m1     = cmd.src[BOFF_W-1:0] - cmd.dst[BOFF_W-1:0] - BOFF_W'(1);
  end

  // Per-command constants
  logic [BOFF_W-1:0] r_sh_m1;     // funnel shift - 1
  logic [BOFF_W-1:0] r_d0;        // first destination byte lane
  logic [BOFF_W-1:0] r_dlast;     // last destination byte lane

  // ---- Fault capture ----
  logic fault_q;
  assign fault_q = r_done.fault;
  logic run;                      // the copy goes on (translations held)
  assign run = (state_q == C_RUN) && !fault_q;
  // Halted, a copy keeps its translations but issues nothing.
  logic issue_ok;
  assign issue_ok = run && !halt;

  // ---- Page translation, one helper per side ----
  logic              xs_start, xd_start;
  logic              xs_pop, xd_pop;
  logic              xs_hv, xs_hf, xs_hsys, xs_busy, xs_old;
  logic [7:0]        xs_hkind;
  logic [PPN_W-1:0]  xs_hppn;
  logic [31:0]       xs_hva;
  logic              xd_hv, xd_hf, xd_hsys, xd_busy, xd_old;
  logic [7:0]        xd_hkind;
  logic [PPN_W-1:0]  xd_hppn;
  logic [31:0]       xd_hva;

  assign xs_start = accept && cmd.len != '0;
  assign xd_start = xs_start;

  ppu_copy_xlate #(.PAGES_W(PAGES_W)) u_xs (
    .clk, .rst_n,
    .start(xs_start), .start_va(cmd.src), .npages(c_src_pages),
    .root(r_cmd.root), .access(ppu_types_pkg::ACC_READ), .stop(fault_q), .pop(xs_pop),
    .head_valid(xs_hv), .head_fault(xs_hf), .head_kind(xs_hkind), .head_sys(xs_hsys),
    .head_ppn(xs_hppn), .head_va(xs_hva), .busy(xs_busy), .invalidate, .old(xs_old),
    .x_req_valid(xs_req_valid), .x_req_ready(xs_req_ready), .x_req(xs_req),
    .x_rsp_valid(xs_rsp_valid), .x_rsp(xs_rsp)
  );

  ppu_copy_xlate #(.PAGES_W(PAGES_W)) u_xd (
    .clk, .rst_n,
    .start(xd_start), .start_va(cmd.dst), .npages(c_dst_pages),
    .root(r_cmd.root), .access(ppu_types_pkg::ACC_WRITE), .stop(fault_q), .pop(xd_pop),
    .head_valid(xd_hv), .head_fault(xd_hf), .head_kind(xd_hkind), .head_sys(xd_hsys),
    .head_ppn(xd_hppn), .head_va(xd_hva), .busy(xd_busy), .invalidate, .old(xd_old),
    .x_req_valid(xd_req_valid), .x_req_ready(xd_req_ready), .x_req(xd_req),
    .x_rsp_valid(xd_rsp_valid), .x_rsp(xd_rsp)
  );

  // Old slots matter only while the copy still issues from them.
  assign inv_hold_src = xs_old && run;
  assign inv_hold_dst = xd_old && run;

  // ---- Read issue ----
  logic [31:0]        rd_va;          // VA of the next source beat
  logic [CHUNK_W-1:0] rd_chunk_left;  // beats left in the current chunk
  logic [BEATS_W-1:0] rd_rest;        // beats after the current chunk
  logic [RCNT_W-1:0]  rd_credit;      // FIFO slots not yet promised to a read
  logic [RCNT_W-1:0]  rd_inflight;    // accepted reads not yet answered
  logic               rd_valid_q;
  ppu_types_pkg::paddr_t rd_pa_q;
  logic               rd_want, rd_issue, rd_src_fault;
  logic               fifo_pop;

  assign rd_want      = issue_ok && rd_chunk_left != '0;
  assign rd_issue     = rd_want && rd_credit != '0 && xs_hv && !xs_hf && (!rd_valid_q || rd_ready);
  assign rd_src_fault = rd_want && xs_hv && xs_hf;
  // The last beat of a page retires that page's translation.
  assign xs_pop       = rd_issue && (&rd_va[PAGE_SHIFT-1:BOFF_W]);

  assign rd_valid = rd_valid_q;
  assign rd_pa    = rd_pa_q;

  logic [CHUNK_W-1:0] rd_next_chunk;
  assign rd_next_chunk = (rd_rest < BEATS_W'(CHUNK_BEATS)) ? CHUNK_W'(rd_rest) : CHUNK_W'(CHUNK_BEATS);

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      rd_va         <= '0;
      rd_chunk_left <= '0;
      rd_rest       <= '0;
      rd_credit     <= RCNT_W'(MAX_READS);
      rd_inflight   <= '0;
      rd_valid_q    <= 1'b0;
      rd_pa_q       <= '0;
    end else begin
      if (accept) begin
        rd_va         <= {cmd.src[31:BOFF_W], {BOFF_W{1'b0}}};
        rd_chunk_left <= (cmd.len != '0) ? c_chunk : '0;
        rd_rest       <= (cmd.len != '0) ? c_nr - BEATS_W'(c_chunk) : '0;
        rd_credit     <= RCNT_W'(MAX_READS);
      end else begin
        rd_credit <= rd_credit - RCNT_W'(rd_issue) + RCNT_W'(fifo_pop);
        if (rd_issue) begin
          rd_va <= rd_va + 32'(BEAT_BYTES);
          if (rd_chunk_left == CHUNK_W'(1)) begin
            rd_chunk_left <= rd_next_chunk;
            rd_rest       <= rd_rest - BEATS_W'(rd_next_chunk);
          end else begin
            rd_chunk_left <= rd_chunk_left - CHUNK_W'(1);
          end
        end
      end
      if (rd_issue) begin
        rd_valid_q   <= 1'b1;
        rd_pa_q.sys  <= xs_hsys;
        rd_pa_q.addr <= {xs_hppn, rd_va[PAGE_SHIFT-1:BOFF_W], {BOFF_W{1'b0}}};
      end else if (rd_ready) begin
        rd_valid_q <= 1'b0;
      end
      rd_inflight <= rd_inflight + RCNT_W'(rd_valid_q && rd_ready) - RCNT_W'(rd_rsp_valid);
    end
  end

  // ---- Read data FIFO (slots reserved by credits, so it never overflows) ----
  logic [BEAT_DW-1:0] fifo_mem [MAX_READS];
  logic [PTR_W-1:0]   fifo_wp, fifo_rp;
  logic [RCNT_W-1:0]  fifo_cnt;
  logic [BEAT_DW-1:0] fifo_head;
  logic [31:0]        rsp_va;         // VA reported for a read error

  assign fifo_head = fifo_mem[fifo_rp];

  always_ff @(posedge clk) begin
    if (rd_rsp_valid) fifo_mem[fifo_wp] <= rd_rsp.data;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      fifo_wp  <= '0;
      fifo_rp  <= '0;
      fifo_cnt <= '0;
      rsp_va   <= '0;
    end else if (accept) begin
      // Nothing is in flight between commands, so the FIFO restarts empty
      // (a fault may have left unconsumed beats behind).
      fifo_wp  <= '0;
      fifo_rp  <= '0;
      fifo_cnt <= '0;
      rsp_va   <= cmd.src;
    end else begin
      if (rd_rsp_valid) begin
        fifo_wp <= (fifo_wp == PTR_W'(MAX_READS - 1)) ? '0 : fifo_wp + PTR_W'(1);
        rsp_va  <= {rsp_va[31:BOFF_W], {BOFF_W{1'b0}}} + 32'(BEAT_BYTES);
      end
      if (fifo_pop) fifo_rp <= (fifo_rp == PTR_W'(MAX_READS - 1)) ? '0 : fifo_rp + PTR_W'(1);
      fifo_cnt <= fifo_cnt + RCNT_W'(rd_rsp_valid) - RCNT_W'(fifo_pop);
    end
  end

  // ---- Aligner ----
  // With delta = src[2:0] - dst[2:0] and sh = ((delta - 1) mod 8) + 1 in
  // 1..8, destination beat m is bytes sh..sh+7 of {R[i+1], R[i]} where R
  // are the source beats read and i = m if delta > 0, else m - 1.  So the
  // shifter keeps the previous source beat and combines it with the one at
  // the FIFO head:
  //   delta > 0 : the first source beat only primes `prev` (al_primed);
  //   delta <= 0: the first destination beat has prev = don't care (those
  //               lanes lie before dst and are not strobed).
  // Destination beats outnumber the remaining source beats by at most one;
  // that last beat is a flush whose "head" lanes lie past the end and are
  // not strobed.
  logic [BEATS_W-1:0] al_pops_left;   // source beats not yet consumed
  logic               al_primed;
  logic [BEATS_W-1:0] wr_left;        // destination beats not yet issued
  logic               wr_first;
  logic [31:0]        wr_va;          // VA of the next destination beat
  logic [BEAT_DW-1:0] al_prev;
  logic               wr_valid_q;
  ppu_types_pkg::mem_wr_req_t wr_req_q;
  logic [WCNT_W-1:0]  wr_inflight;    // accepted writes not yet acked
  logic [31:0]        ack_va;         // VA reported for a write error

  logic               fifo_has, al_prime, wr_want, wr_issue, wr_dst_fault, wr_room;
  logic [2*BEAT_DW-1:0] al_cat;
  logic [BEAT_DW-1:0] al_out;
  logic [BEAT_BYTES-1:0] al_strb;
  logic [BOFF_W:0]    al_sh;

  assign fifo_has     = fifo_cnt != '0;
  assign al_prime     = issue_ok && !al_primed && fifo_has;
  assign wr_want      = issue_ok && al_primed && wr_left != '0 && (fifo_has || al_pops_left == '0);
  assign wr_room      = !(&wr_inflight[WCNT_W-1:1]);
  assign wr_issue     = wr_want && xd_hv && !xd_hf && wr_room && (!wr_valid_q || wr_ready);
  assign wr_dst_fault = wr_want && xd_hv && xd_hf;
  assign fifo_pop     = al_prime || (wr_issue && al_pops_left != '0);
  assign xd_pop       = wr_issue && (&wr_va[PAGE_SHIFT-1:BOFF_W]);

  always_comb begin
    al_sh   = {1'b0, r_sh_m1} + (BOFF_W+1)'(1);
    al_cat  = {fifo_head, al_prev};
    al_out  = al_cat[al_sh * 8 +: BEAT_DW];
    al_strb = '1;
    if (wr_first)              al_strb = al_strb & ({BEAT_BYTES{1'b1}} << r_d0);
    if (wr_left == BEATS_W'(1)) al_strb = al_strb & ({BEAT_BYTES{1'b1}} >> (BOFF_W'(BEAT_BYTES - 1) - r_dlast));
  end

  assign wr_valid  = wr_valid_q;
  assign wr_req    = wr_req_q;
  assign perf_beat = wr_valid_q && wr_ready;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      al_pops_left <= '0;
      al_primed    <= 1'b0;
      wr_left      <= '0;
      wr_first     <= 1'b0;
      wr_va        <= '0;
      al_prev      <= '0;
      wr_valid_q   <= 1'b0;
      wr_req_q     <= '0;
      wr_inflight  <= '0;
      ack_va       <= '0;
    end else begin
      if (accept) begin
        al_pops_left <= (cmd.len != '0) ? c_nr : '0;
        al_primed    <= !(cmd.src[BOFF_W-1:0] > cmd.dst[BOFF_W-1:0]);
        wr_left      <= (cmd.len != '0) ? c_nw : '0;
        wr_first     <= 1'b1;
        wr_va        <= {cmd.dst[31:BOFF_W], {BOFF_W{1'b0}}};
        ack_va       <= cmd.dst;
      end else begin
        if (fifo_pop) begin
          al_prev      <= fifo_head;
          al_pops_left <= al_pops_left - BEATS_W'(1);
        end
        if (al_prime) al_primed <= 1'b1;
        if (wr_issue) begin
          wr_left  <= wr_left - BEATS_W'(1);
          wr_first <= 1'b0;
          wr_va    <= wr_va + 32'(BEAT_BYTES);
        end
        if (wr_rsp_valid) ack_va <= {ack_va[31:BOFF_W], {BOFF_W{1'b0}}} + 32'(BEAT_BYTES);
      end
      if (wr_issue) begin
        wr_valid_q       <= 1'b1;
        wr_req_q.pa.sys  <= xd_hsys;
        wr_req_q.pa.addr <= {xd_hppn, wr_va[PAGE_SHIFT-1:BOFF_W], {BOFF_W{1'b0}}};
        wr_req_q.data    <= al_out;
        wr_req_q.strb    <= al_strb;
      end else if (wr_ready) begin
        wr_valid_q <= 1'b0;
      end
      wr_inflight <= wr_inflight + WCNT_W'(wr_valid_q && wr_ready) - WCNT_W'(wr_rsp_valid);
    end
  end

  // ---- Completion semaphore ----
  always_comb begin
    sem_req         = '0;
    sem_req.rid     = '0;
    sem_req.chid    = r_cmd.chid;
    sem_req.root    = r_cmd.root;
    sem_req.va      = r_cmd.sem_va;
    sem_req.payload = {32'b0, r_cmd.sem_payload};
    sem_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__MSB:ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__LSB]
      = OP_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_RELEASE);
    sem_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_PAYLOAD_SIZE__LSB]
      = 1'(ppu_hw_pkg::PPU_SEM_EXECUTE_PAYLOAD_SIZE_32BIT);
    sem_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_RELEASE_TIMESTAMP__LSB]
      = (r_cmd.sem_mode == SEM_RELEASE_TS);
  end
  assign sem_valid = (state_q == C_SEM_REQ);

  // ---- Control ----
  logic quiet;   // nothing of this command is in flight anywhere
  assign quiet = !rd_valid_q && rd_inflight == '0 && !wr_valid_q && wr_inflight == '0
                 && !xs_busy && !xd_busy;

  logic want_sem, run_end, to_done;
  assign want_sem = (r_cmd.sem_mode == SEM_RELEASE) || (r_cmd.sem_mode == SEM_RELEASE_TS);
  // Every beat written and acked, or a fault fully drained.
  assign run_end  = (state_q == C_RUN) && quiet && (fault_q || wr_left == '0);
  assign to_done  = (run_end && (fault_q || !want_sem)) || (state_q == C_SEM_WAIT && sem_rsp_valid);

  // First fault of the copy itself; later ones in the drain are consequences.
  logic                      new_fault;
  ppu_types_pkg::copy_done_t fault_rec;
  always_comb begin
    new_fault        = 1'b1;
    fault_rec.fault  = 1'b1;
    fault_rec.kind   = K_BUS_ERROR;
    fault_rec.unit   = U_COPY_SRC;
    fault_rec.access = ppu_types_pkg::ACC_READ;
    fault_rec.addr   = rsp_va;
    if (rd_src_fault) begin
      fault_rec.kind = xs_hkind;
      fault_rec.addr = xs_hva;
    end else if (rd_rsp_valid && rd_rsp.err) begin
      // defaults
    end else if (wr_dst_fault) begin
      fault_rec.kind   = xd_hkind;
      fault_rec.unit   = U_COPY_DST;
      fault_rec.access = ppu_types_pkg::ACC_WRITE;
      fault_rec.addr   = xd_hva;
    end else if (wr_rsp_valid && wr_rsp_err) begin
      fault_rec.unit   = U_COPY_DST;
      fault_rec.access = ppu_types_pkg::ACC_WRITE;
      fault_rec.addr   = ack_va;
    end else if (drop_req || dropping) begin
      // ADDR: how far the destination got (acknowledged writes)
      fault_rec.kind   = K_RESET;
      fault_rec.unit   = U_COPY_DST;
      fault_rec.access = ppu_types_pkg::ACC_WRITE;
      fault_rec.addr   = ack_va;
    end else begin
      new_fault = 1'b0;
    end
  end

  ppu_types_pkg::copy_done_t sem_fault_rec;
  always_comb begin
    sem_fault_rec.fault  = 1'b1;
    sem_fault_rec.kind   = sem_rsp.kind;
    sem_fault_rec.unit   = U_SEM;
    sem_fault_rec.access = sem_rsp.access;
    sem_fault_rec.addr   = r_cmd.sem_va;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state_q <= C_IDLE;
      r_cmd   <= '0;
      r_done  <= '0;
      r_sh_m1 <= '0;
      r_d0    <= '0;
      r_dlast <= '0;
      trace_q <= '0;
    end else begin
      trace_q <= '0;
      unique case (state_q)
        C_IDLE: begin
          if (accept) begin
            r_cmd         <= cmd;
            r_done        <= '0;
            r_sh_m1       <= c_sh_m1;
            r_d0          <= cmd.dst[BOFF_W-1:0];
            r_dlast       <= c_dst_last[BOFF_W-1:0];
            trace_q.valid <= 1'b1;
            trace_q.kind  <= 8'(ppu_hw_pkg::PPU_TRACE_COPY_START);
            trace_q.chid  <= cmd.chid;
            trace_q.a     <= cmd.src;
            trace_q.b     <= cmd.len;
            state_q       <= C_RUN;
          end
        end
        C_RUN: begin
          if (!fault_q && new_fault) r_done <= fault_rec;
          if (run_end) state_q <= (!fault_q && want_sem) ? C_SEM_REQ : C_DONE;
        end
        C_SEM_REQ: if (sem_ready) state_q <= C_SEM_WAIT;
        C_SEM_WAIT: begin
          if (sem_rsp_valid) begin
            if (sem_rsp.fault) r_done <= sem_fault_rec;
            state_q <= C_DONE;
          end
        end
        C_DONE: state_q <= C_IDLE;
        default: state_q <= C_IDLE;
      endcase
      // COPY_END is registered with the move to C_DONE, so it appears in
      // the cycle of done_valid.
      if (to_done) begin
        trace_q.valid <= 1'b1;
        trace_q.kind  <= 8'(ppu_hw_pkg::PPU_TRACE_COPY_END);
        trace_q.chid  <= r_cmd.chid;
        trace_q.a     <= r_cmd.dst;
        trace_q.b     <= r_cmd.len;
      end
    end
  end

  assign cmd_ready  = (state_q == C_IDLE);
  assign busy       = (state_q != C_IDLE);

  // A drop request holds until the engine is idle: one that comes as a command is
  // accepted still ends that command.
  always_ff @(posedge clk) begin
    if (!rst_n)                              dropping <= 1'b0;
    else if (drop_req && (state_q != C_IDLE || accept)) dropping <= 1'b1;
    else if (state_q == C_IDLE)              dropping <= 1'b0;
  end
  assign done_valid = (state_q == C_DONE);
  assign done_chid  = r_cmd.chid;
  assign done       = r_done;
  assign trace      = trace_q;

  // The sem response value and acq_fail mean nothing for a release; the
  // source VA is only needed at accept; the span/last-byte sums are only
  // used for their beat/page bits.
  logic unused;
  assign unused = ^{sem_rsp.value, sem_rsp.acq_fail, r_cmd.src, src_span[BOFF_W-1:0],
                    dst_span[BOFF_W-1:0], c_src_last[PAGE_SHIFT-1:0],
                    c_dst_last[PAGE_SHIFT-1:BOFF_W]};

endmodule

// Page translation for one side of the copy engine: translates the pages of
// [start_va, +npages) in order, keeping the page in use (head) and one more
// translated ahead.  A faulting translation is kept like any other and only
// acted on when the engine reaches that page, so everything before the
// faulting page is still issued.
//
// Once the last page of the range has been requested, the page after it is
// requested too and its answer dropped (a prefetch): the MMU keeps it in its
// TLB, so a following command that continues the stream -- a large copy
// split into chunks -- starts without a page walk.  The prefetch never
// faults anything and never holds the engine: `busy` leaves it out, it may
// still be in flight when the next command starts, and it always comes
// before that command's first request, whose answer it cannot be confused
// with.
// Kept in this file because it is private to the copy engine.
/* verilator lint_off DECLFILENAME */
module ppu_copy_xlate #(
  parameter int unsigned PAGES_W = 21
) (
/* verilator lint_on DECLFILENAME */
  input  logic                      clk,
  input  logic                      rst_n,
  input  logic                      start,       // new command; helper is idle
  input  logic [31:0]               start_va,
  input  logic [PAGES_W-1:0]        npages,
  input  ppu_types_pkg::pt_root_t   root,
  input  ppu_types_pkg::access_e    access,
  input  logic                      stop,        // fault: request nothing more
  input  logic                      pop,         // engine is done with the head page
  output logic                      head_valid,
  output logic                      head_fault,
  output logic [7:0]                head_kind,
  output logic                      head_sys,
  output logic [ppu_types_pkg::PA_W-ppu_hw_pkg::PPU_PAGE_SHIFT-1:0] head_ppn,
  output logic [31:0]               head_va,     // first VA the engine touches in the page
  output logic                      busy,        // a translation is in flight
  input  logic                      invalidate,  // MMU invalidate (this cycle)
  output logic                      old,         // a slot holds a translation from before it
  output logic                      x_req_valid,
  input  logic                      x_req_ready,
  output ppu_types_pkg::xlate_req_t x_req,
  input  logic                      x_rsp_valid,
  input  ppu_types_pkg::xlate_rsp_t x_rsp
);
  localparam int unsigned PAGE_SHIFT = ppu_hw_pkg::PPU_PAGE_SHIFT;
  localparam int unsigned PPN_W      = ppu_types_pkg::PA_W - PAGE_SHIFT;

  // Two slots, head (h_*) and the page after it (n_*).
  logic [1:0]       cnt;
  logic [1:0]       old_q;       // the first old_q slots predate the last invalidate
  logic             h_fault, n_fault;
  logic [7:0]       h_kind,  n_kind;
  logic             h_sys,   n_sys;
  logic [PPN_W-1:0] h_ppn,   n_ppn;
  logic [31:0]      h_va,    n_va;

  logic               req_q, wait_q;
  logic [31:0]        req_va;      // VA of the request in flight
  logic [31:0]        next_va;
  logic [PAGES_W-1:0] left;        // pages still to request
  logic               issue, push, push_head;
  logic               pf_arm;      // last page requested: prefetch next_va
  logic               pf_req_q;    // prefetch request held until accepted
  logic               pf_wait;     // prefetch accepted, answer not yet seen
  logic               pf_issue;
  logic [31:0]        pf_va;
  ppu_types_pkg::pt_root_t pf_root;  // the next command may have another root

  // One translation in flight (the prefetch included), and never more than
  // two pages held or coming: the head and one ahead.
  assign issue     = !stop && left != '0 && !req_q && !wait_q && cnt < 2'd2 &&
                     !pf_arm && !pf_req_q && !pf_wait;
  assign pf_issue  = pf_arm && !req_q && !wait_q;
  assign push      = x_rsp_valid && wait_q;
  assign push_head = push && (cnt == 2'd0 || (cnt == 2'd1 && pop));

  assign x_req_valid  = req_q || pf_req_q;
  assign x_req.va     = pf_req_q ? pf_va : req_va;
  assign x_req.root   = pf_req_q ? pf_root : root;
  assign x_req.access = access;
  assign busy         = req_q || wait_q;

  assign head_valid = cnt != 2'd0;
  assign old        = old_q != 2'd0;

  // Slots are consumed in order and answers after an invalidate are
  // current (ppu_mmu), so the slots held after the invalidate cycle are
  // the old ones, and each pop retires one.
  always_ff @(posedge clk) begin
    if (!rst_n || start)
      old_q <= '0;
    else if (invalidate)
      old_q <= cnt + 2'(push) - 2'(pop);
    else if (pop && old_q != 2'd0)
      old_q <= old_q - 2'd1;
  end
  assign head_fault = h_fault;
  assign head_kind  = h_kind;
  assign head_sys   = h_sys;
  assign head_ppn   = h_ppn;
  assign head_va    = h_va;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      cnt     <= '0;
      req_q   <= 1'b0;
      wait_q  <= 1'b0;
      req_va  <= '0;
      next_va <= '0;
      left    <= '0;
      h_fault <= 1'b0;
      h_kind  <= '0;
      h_sys   <= 1'b0;
      h_ppn   <= '0;
      h_va    <= '0;
      n_fault <= 1'b0;
      n_kind  <= '0;
      n_sys   <= 1'b0;
      n_ppn   <= '0;
      n_va    <= '0;
    end else if (start) begin
      cnt     <= '0;
      next_va <= start_va;
      left    <= npages;
    end else begin
      if (issue) begin
        req_q   <= 1'b1;
        req_va  <= next_va;
        next_va <= {next_va[31:PAGE_SHIFT] + 1'b1, {PAGE_SHIFT{1'b0}}};
        left    <= left - PAGES_W'(1);
      end else if (x_req_ready) begin
        req_q <= 1'b0;
      end
      wait_q <= (wait_q || (req_q && x_req_ready)) && !x_rsp_valid;

      // A pop moves the next page up; a response fills the first slot that
      // is free after the pop.
      if (push_head) begin
        h_fault <= x_rsp.fault;
        h_kind  <= x_rsp.kind;
        h_sys   <= x_rsp.pa.sys;
        h_ppn   <= x_rsp.pa.addr[ppu_types_pkg::PA_W-1:PAGE_SHIFT];
        h_va    <= req_va;
      end else if (pop) begin
        h_fault <= n_fault;
        h_kind  <= n_kind;
        h_sys   <= n_sys;
        h_ppn   <= n_ppn;
        h_va    <= n_va;
      end
      if (push && !push_head) begin
        n_fault <= x_rsp.fault;
        n_kind  <= x_rsp.kind;
        n_sys   <= x_rsp.pa.sys;
        n_ppn   <= x_rsp.pa.addr[ppu_types_pkg::PA_W-1:PAGE_SHIFT];
        n_va    <= req_va;
      end
      cnt <= cnt + 2'(push) - 2'(pop);
    end
  end

  // The prefetch lives across commands, so `start` does not touch it.
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      pf_arm    <= 1'b0;
      pf_req_q  <= 1'b0;
      pf_wait   <= 1'b0;
      pf_va     <= '0;
      pf_root   <= '0;
    end else begin
      if (issue && !start && left == PAGES_W'(1)) pf_arm <= 1'b1;
      else if (pf_issue) pf_arm <= 1'b0;
      if (pf_issue) begin
        pf_req_q  <= 1'b1;
        pf_va     <= next_va;
        pf_root   <= root;
      end else if (x_req_ready) begin
        pf_req_q <= 1'b0;
      end
      pf_wait <= (pf_wait || (pf_req_q && x_req_ready)) && !x_rsp_valid;
    end
  end

  // The page offset of the translated address is the request's own.
  logic unused;
  assign unused = ^x_rsp.pa.addr[PAGE_SHIFT-1:0];

endmodule

// Linting this block on its own flags the package constants that only other
// blocks use (memory tags, flat-port widths of structs passed in arrays).
`ifdef VERILATOR
`verilator_config
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_TAG_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'XLATE_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_WR_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'SEM_REQ_W'*"
`endif
