// SPDX-License-Identifier: MIT
// Semaphore unit: acquires, releases and reductions on semaphores in
// memory, for the host (port 0) and the copy engine (port 1).
//
// Exactly one request is in the unit at a time, from acceptance through
// translation, read, compute, write(s) and write ack(s) to the response.
// Nothing else in the PPU writes semaphores behind the unit's back, so that
// serialisation is what makes every read-modify-write atomic against every
// PPU agent; it costs nothing that matters because semaphore ops are rare
// next to the copies and kernels they order.
//
// Field encodings (SEM_EXECUTE, SEM16, fault kinds, trace kinds) come from
// the generated ppu_hw_pkg.
module ppu_sem (
  input  logic                       clk,
  input  logic                       rst_n,
  input  logic [63:0]                timestamp,        // free-running cycle counter
  input  logic [1:0]                 req_valid,        // port 0 host, port 1 copy engine
  output logic [1:0]                 req_ready,
  // sem_req_t [1:0] as a flat vector (Yosys 0.23 drops the packed dimension
  // of an array of structs in a port); port p is bits [p*SEM_REQ_W +: SEM_REQ_W].
  input  logic [2*ppu_types_pkg::SEM_REQ_W-1:0] req,
  output logic [1:0]                 rsp_valid,
  output ppu_types_pkg::sem_rsp_t    rsp,
  // MMU client
  output logic                       x_req_valid,
  input  logic                       x_req_ready,
  output ppu_types_pkg::xlate_req_t  x_req,
  input  logic                       x_rsp_valid,
  input  ppu_types_pkg::xlate_rsp_t  x_rsp,
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
  output logic                       sem_written,      // pulse: release/reduction writes acked
  output ppu_types_pkg::trace_t      trace,            // one record per completed op
  output logic                       perf_acq_ok,
  output logic                       perf_acq_fail,
  output logic                       perf_release,
  output logic                       perf_reduction
);
  localparam int unsigned SEM_REQ_W = ppu_types_pkg::SEM_REQ_W;

  // ---- SEM_EXECUTE field widths and the values this unit decodes, sized to
  // their fields so comparisons are width-clean.
  localparam int unsigned OP_W  = ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__MSB - ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__LSB + 1;
  localparam int unsigned RED_W = ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION__MSB - ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION__LSB + 1;

  localparam logic [OP_W-1:0] OP_ACQUIRE   = OP_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_ACQUIRE);
  localparam logic [OP_W-1:0] OP_RELEASE   = OP_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_RELEASE);
  localparam logic [OP_W-1:0] OP_STRICT    = OP_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ);
  localparam logic [OP_W-1:0] OP_CIRC      = OP_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ);
  localparam logic [OP_W-1:0] OP_AND       = OP_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_ACQ_AND);
  localparam logic [OP_W-1:0] OP_REDUCTION = OP_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_REDUCTION);

  localparam logic [RED_W-1:0] RED_IMIN = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IMIN);
  localparam logic [RED_W-1:0] RED_IMAX = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IMAX);
  localparam logic [RED_W-1:0] RED_IXOR = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IXOR);
  localparam logic [RED_W-1:0] RED_IAND = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IAND);
  localparam logic [RED_W-1:0] RED_IOR  = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IOR);
  localparam logic [RED_W-1:0] RED_IADD = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IADD);
  localparam logic [RED_W-1:0] RED_INC  = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_INC);
  localparam logic [RED_W-1:0] RED_DEC  = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_DEC);

  localparam logic SIZE_64BIT = 1'(ppu_hw_pkg::PPU_SEM_EXECUTE_PAYLOAD_SIZE_64BIT);
  localparam logic FMT_UNSIGNED = 1'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_FORMAT_UNSIGNED);

  localparam logic [7:0] K_BUS_ERROR      = 8'(ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR);
  localparam logic [7:0] K_ILLEGAL_METHOD = 8'(ppu_hw_pkg::PPU_FAULT_KIND_ILLEGAL_METHOD);
  localparam logic [7:0] K_SEM_UNALIGNED  = 8'(ppu_hw_pkg::PPU_FAULT_KIND_SEM_UNALIGNED);

  // Timestamped releases write the whole SEM16 record: two beats.
  localparam int unsigned SEM16_W     = ppu_hw_pkg::PPU_SEM16_BYTES * 8;
  localparam int unsigned SEM16_BEATS = ppu_hw_pkg::PPU_SEM16_BYTES / ppu_types_pkg::MEM_BYTES;
  localparam int unsigned BEAT_OFF_W  = $clog2(ppu_types_pkg::MEM_BYTES);
  // A 32-bit semaphore is half a beat; this VA bit picks the half (LE).
  localparam int unsigned HALF_BIT    = BEAT_OFF_W - 1;

  typedef enum logic [2:0] {
    S_IDLE,     // waiting for a request
    S_CHECK,    // decode: illegal / unaligned -> fault without touching memory
    S_XREQ,     // translation request held until accepted
    S_XWAIT,    // translation response
    S_RD,       // read request held until accepted
    S_RWAIT,    // read response: acquire resolves here, reduction computes
    S_WR,       // write beat(s) held until accepted
    S_DONE      // response / trace / perf pulse, one cycle
  } state_e;

  state_e                  state_q;
  ppu_types_pkg::sem_req_t r_req;        // request being executed
  logic                    r_port;       // port it came from
  logic                    rr_last;      // port granted last, for round-robin
  ppu_types_pkg::paddr_t   r_pa;         // translated address of the semaphore
  logic [31:0]             r_value;      // value reported (read or written)
  logic [63:0]             r_wdata32;    // 32-bit reduction result in both halves
  logic [63:0]             r_ts;         // timestamp of a timestamped release
  logic                    r_beat;       // SEM16 beat being offered
  logic                    r_wr_issued;  // every write beat accepted
  logic [1:0]              r_acks_left;  // write acks still expected
  logic                    r_acq_fail;
  logic                    r_fault;
  logic [7:0]              r_kind;

  // ---- Decode of the latched request ----
  logic [OP_W-1:0]  op;
  logic [RED_W-1:0] red_op;
  logic             size64, ts_rel, fmt_unsigned;
  logic             is_acq, is_rel, is_red;
  logic             illegal, unaligned;
  logic             half;         // 32-bit semaphore in the upper half of its beat
  logic [ppu_types_pkg::MEM_BYTES-1:0] half_strb;
  ppu_types_pkg::access_e acc;

  always_comb begin
    op           = r_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__MSB:ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__LSB];
    red_op       = r_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION__MSB:ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION__LSB];
    size64       = r_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_PAYLOAD_SIZE__LSB] == SIZE_64BIT;
    fmt_unsigned = r_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_FORMAT__LSB] == FMT_UNSIGNED;
    is_acq = (op == OP_ACQUIRE) || (op == OP_STRICT) || (op == OP_CIRC) || (op == OP_AND);
    is_rel = (op == OP_RELEASE);
    is_red = (op == OP_REDUCTION);
    ts_rel = is_rel && r_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_RELEASE_TIMESTAMP__LSB];
    // Reductions are defined on 32 bits only; reduction codes past DEC are
    // unassigned.  The host filters both, so reaching here is a host bug
    // reported as the method being illegal.
    illegal = !(is_acq || is_rel || is_red)
              || (is_red && (size64 || red_op > RED_DEC));
    if (ts_rel)      unaligned = r_req.va[$clog2(ppu_hw_pkg::PPU_SEM16_BYTES)-1:0] != '0;
    else if (size64) unaligned = r_req.va[BEAT_OFF_W-1:0] != '0;
    else             unaligned = r_req.va[HALF_BIT-1:0] != '0;
    half      = r_req.va[HALF_BIT];
    half_strb = half ? {{(ppu_types_pkg::MEM_BYTES/2){1'b1}}, {(ppu_types_pkg::MEM_BYTES/2){1'b0}}}
                     : {{(ppu_types_pkg::MEM_BYTES/2){1'b0}}, {(ppu_types_pkg::MEM_BYTES/2){1'b1}}};
    // Ops without a defined access (illegal OPERATION) report READ: the
    // fault kind, not the access, is what the host acts on.
    if (is_rel)      acc = ppu_types_pkg::ACC_WRITE;
    else if (is_red) acc = ppu_types_pkg::ACC_RMW;
    else             acc = ppu_types_pkg::ACC_READ;
  end

  // ---- Read-side compute: acquire condition and reduction result ----
  logic [63:0] rdata;
  logic [31:0] val32;
  logic [63:0] cmp_v, cmp_p, diff;
  logic        acq_ok;
  logic [31:0] p32, red_new;

  always_comb begin
    rdata = rd_rsp.data;
    val32 = half ? rdata[63:32] : rdata[31:0];
    cmp_v = size64 ? rdata : {32'b0, val32};
    cmp_p = size64 ? r_req.payload : {32'b0, r_req.payload[31:0]};
    diff  = cmp_v - cmp_p;
    unique case (op)
      OP_ACQUIRE: acq_ok = cmp_v == cmp_p;
      OP_STRICT:  acq_ok = cmp_v >= cmp_p;
      OP_CIRC:    acq_ok = size64 ? !diff[63] : !diff[31];
      default:    acq_ok = (cmp_v & cmp_p) != '0;   // OP_AND
    endcase

    p32 = r_req.payload[31:0];
    unique case (red_op)
      RED_IMIN: red_new = (fmt_unsigned ? (val32 < p32) : ($signed(val32) < $signed(p32))) ? val32 : p32;
      RED_IMAX: red_new = (fmt_unsigned ? (val32 > p32) : ($signed(val32) > $signed(p32))) ? val32 : p32;
      RED_IXOR: red_new = val32 ^ p32;
      RED_IAND: red_new = val32 & p32;
      RED_IOR:  red_new = val32 | p32;
      RED_IADD: red_new = val32 + p32;
      RED_INC:  red_new = val32 + 32'd1;
      default:  red_new = val32 - 32'd1;             // RED_DEC
    endcase
  end

  // ---- Round-robin grant: the port not served last wins a tie ----
  logic                    grant;
  ppu_types_pkg::sem_req_t req_sel;
  always_comb begin
    if (req_valid == 2'b11) grant = !rr_last;
    else                    grant = req_valid[1];
    req_ready = '0;
    if (state_q == S_IDLE && req_valid != '0) req_ready[grant] = 1'b1;
    req_sel = req[grant * SEM_REQ_W +: SEM_REQ_W];
  end

  // ---- Write beat for the current state ----
  localparam int unsigned SEM16_PL_LO = ppu_hw_pkg::PPU_SEM16_PAYLOAD_LO * 8;
  localparam int unsigned SEM16_PL_HI = ppu_hw_pkg::PPU_SEM16_PAYLOAD_HI * 8;
  localparam int unsigned SEM16_TS_LO = ppu_hw_pkg::PPU_SEM16_TIMESTAMP_LO * 8;
  localparam int unsigned SEM16_TS_HI = ppu_hw_pkg::PPU_SEM16_TIMESTAMP_HI * 8;

  // SEM16 image of a timestamped release.  The timestamp is the cycle the
  // payload beat is accepted (the write is issued), so it is taken from the
  // live counter then and lands in the second beat.
  logic [SEM16_W-1:0] sem16;
  always_comb begin
    sem16 = '0;
    sem16[SEM16_PL_LO +: 32] = r_req.payload[31:0];
    sem16[SEM16_PL_HI +: 32] = size64 ? r_req.payload[63:32] : 32'b0;
    sem16[SEM16_TS_LO +: 32] = r_ts[31:0];
    sem16[SEM16_TS_HI +: 32] = r_ts[63:32];
  end

  always_comb begin
    wr_req = '0;
    wr_req.pa.sys  = r_pa.sys;
    wr_req.pa.addr = {r_pa.addr[ppu_types_pkg::PA_W-1:BEAT_OFF_W], {BEAT_OFF_W{1'b0}}};
    if (is_red) begin
      wr_req.data = r_wdata32;
      wr_req.strb = half_strb;
    end else if (ts_rel) begin
      wr_req.pa.addr[BEAT_OFF_W] = r_beat;
      wr_req.data = sem16[r_beat * ppu_types_pkg::MEM_DW +: ppu_types_pkg::MEM_DW];
      wr_req.strb = '1;
    end else if (size64) begin
      wr_req.data = r_req.payload;
      wr_req.strb = '1;
    end else begin
      wr_req.data = {2{r_req.payload[31:0]}};
      wr_req.strb = half_strb;
    end
  end

  assign x_req_valid = (state_q == S_XREQ);
  assign x_req.va     = r_req.va;
  assign x_req.root   = r_req.root;
  assign x_req.access = acc;

  assign rd_valid    = (state_q == S_RD);
  assign rd_pa.sys   = r_pa.sys;
  assign rd_pa.addr  = {r_pa.addr[ppu_types_pkg::PA_W-1:BEAT_OFF_W], {BEAT_OFF_W{1'b0}}};

  // A timestamped release offers its two beats back to back.  The op ends
  // on the last ack, not the last issue.
  assign wr_valid = (state_q == S_WR) && !r_wr_issued;

  // ---- Control ----
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state_q     <= S_IDLE;
      r_req       <= '0;
      r_port      <= 1'b0;
      rr_last     <= 1'b1;
      r_pa        <= '0;
      r_value     <= '0;
      r_wdata32   <= '0;
      r_ts        <= '0;
      r_beat      <= 1'b0;
      r_wr_issued <= 1'b0;
      r_acks_left <= '0;
      r_acq_fail  <= 1'b0;
      r_fault     <= 1'b0;
      r_kind      <= '0;
    end else begin
      unique case (state_q)
        S_IDLE: begin
          if (req_valid != '0) begin
            r_req       <= req_sel;
            r_port      <= grant;
            rr_last     <= grant;
            r_fault     <= 1'b0;
            r_kind      <= '0;
            r_acq_fail  <= 1'b0;
            r_value     <= '0;
            r_beat      <= 1'b0;
            r_wr_issued <= 1'b0;
            state_q     <= S_CHECK;
          end
        end
        S_CHECK: begin
          if (illegal) begin
            r_fault <= 1'b1;
            r_kind  <= K_ILLEGAL_METHOD;
            state_q <= S_DONE;
          end else if (unaligned) begin
            r_fault <= 1'b1;
            r_kind  <= K_SEM_UNALIGNED;
            state_q <= S_DONE;
          end else begin
            state_q <= S_XREQ;
          end
        end
        S_XREQ: if (x_req_ready) state_q <= S_XWAIT;
        S_XWAIT: begin
          if (x_rsp_valid) begin
            r_pa <= x_rsp.pa;
            if (x_rsp.fault) begin
              r_fault <= 1'b1;
              r_kind  <= x_rsp.kind;
              state_q <= S_DONE;
            end else if (is_rel) begin
              r_value     <= r_req.payload[31:0];
              r_acks_left <= ts_rel ? 2'(SEM16_BEATS) : 2'd1;
              state_q     <= S_WR;
            end else begin
              state_q <= S_RD;
            end
          end
        end
        S_RD: if (rd_ready) state_q <= S_RWAIT;
        S_RWAIT: begin
          if (rd_rsp_valid) begin
            if (rd_rsp.err) begin
              r_fault <= 1'b1;
              r_kind  <= K_BUS_ERROR;
              state_q <= S_DONE;
            end else if (is_acq) begin
              r_value    <= size64 ? rdata[31:0] : val32;
              r_acq_fail <= !acq_ok;
              state_q    <= S_DONE;
            end else begin
              r_value     <= red_new;
              r_wdata32   <= {2{red_new}};
              r_acks_left <= 2'd1;
              state_q     <= S_WR;
            end
          end
        end
        S_WR: begin
          if (wr_valid && wr_ready) begin
            if (ts_rel && !r_beat) begin
              r_beat <= 1'b1;
              r_ts   <= timestamp;
            end else begin
              r_wr_issued <= 1'b1;
            end
          end
          // An ack only follows an accepted beat, so the last ack means
          // every beat has been issued and answered.
          if (wr_rsp_valid) begin
            r_acks_left <= r_acks_left - 2'd1;
            if (wr_rsp_err) begin
              r_fault <= 1'b1;
              r_kind  <= K_BUS_ERROR;
            end
            if (r_acks_left == 2'd1) state_q <= S_DONE;
          end
        end
        S_DONE: state_q <= S_IDLE;
        default: state_q <= S_IDLE;
      endcase
    end
  end

  // ---- Outputs of the completed op (Moore, from S_DONE) ----
  logic done, done_ok;
  assign done    = (state_q == S_DONE);
  assign done_ok = done && !r_fault;

  always_comb begin
    rsp_valid = '0;
    if (done) rsp_valid[r_port] = 1'b1;
    rsp.acq_fail = r_acq_fail;
    rsp.fault    = r_fault;
    rsp.kind     = r_kind;
    rsp.access   = acc;
    rsp.value    = r_value;

    trace.valid = done_ok;
    trace.chid  = r_req.chid;
    trace.a     = r_req.va;
    trace.b     = r_value;
    if (is_rel)          trace.kind = 8'(ppu_hw_pkg::PPU_TRACE_SEM_RELEASE);
    else if (is_red)     trace.kind = 8'(ppu_hw_pkg::PPU_TRACE_SEM_REDUCTION);
    else if (r_acq_fail) trace.kind = 8'(ppu_hw_pkg::PPU_TRACE_SEM_ACQ_FAIL);
    else                 trace.kind = 8'(ppu_hw_pkg::PPU_TRACE_SEM_ACQ_OK);

    perf_acq_ok    = done_ok && is_acq && !r_acq_fail;
    perf_acq_fail  = done_ok && is_acq && r_acq_fail;
    perf_release   = done_ok && is_rel;
    perf_reduction = done_ok && is_red;
  end

  // Pulsed even when a write ack carried an error: some beat may still have
  // landed, and a spurious re-check of blocked acquires is harmless while a
  // missed one is not.  A translation/alignment fault never reaches S_WR, so
  // it never pulses.
  logic wrote_q;
  always_ff @(posedge clk) begin
    if (!rst_n)                  wrote_q <= 1'b0;
    else if (state_q == S_WR)    wrote_q <= 1'b1;
    else if (state_q == S_IDLE)  wrote_q <= 1'b0;
  end
  assign sem_written = done && wrote_q;

  // Bits this unit has no use for: the low PA bits (beat addressing),
  // RELEASE_WFI and other host-only SEM_EXECUTE bits, all but the sign bits
  // of the circular compare.
  logic unused;
  assign unused = ^{r_pa.addr[BEAT_OFF_W-1:0], r_req.exec, r_req.rid, diff};

endmodule

// Linting this block on its own flags the package constants that only other
// blocks use (memory tags, flat-port widths of other structs).
`ifdef VERILATOR
`verilator_config
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_TAG_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'XLATE_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_WR_REQ_W'*"
`endif
