// SPDX-License-Identifier: MIT
// Semaphore unit: acquires, releases and reductions on semaphores in
// memory, and the compute units' atomics (AMO, LR, SC), for NPORT request
// ports: 0 host, 1 copy engine, 2 task-completion releases, 3 compute-unit
// atomics (the only port whose OPERATION AMO is accepted).
//
// Exactly one request is in the unit at a time, from acceptance through
// translation, read, compute, write(s) and write ack(s) to the response.
// That serialises the unit's own operations.  Against the other memory
// writers (copy engine, host, compute stores) every read-modify-write
// (reduction, AMO, SC) holds the RMW lock of ppu_mem_arb on its beat: the
// lock is raised first, the read is issued only once the arbiter reports
// lock_clear (no write of another client to the beat presented at the
// port), and it is kept until the unit's own write is accepted.  See
// ppu_mem_arb for why that makes the read and the write adjacent in the
// memory's order of writes to the beat.  Acquires, releases and LR need no
// lock: they are single accesses.
//
// LR/SC: NRES reservations, indexed by the request's rid, each {valid, beat}
// (aperture bit and 8-byte beat address).  LR sets rid's reservation in the
// cycle its read is accepted by the memory port (when the read samples
// memory), unless a write to the beat is accepted in that same cycle.  Any
// write to a reserved beat accepted by the port, from any client including
// this unit (the snoop input), clears every reservation of that beat.  SC,
// under the lock, succeeds if rid's reservation is valid and on the beat,
// writes its word and returns 0; otherwise it writes nothing and returns 1.
// Either way rid's reservation is cleared.  rid >= NRES has no reservation:
// its LR sets nothing and its SC always fails.  Clearing on a write to the
// other half of the beat, or in the LR's own cycle, can fail an SC that
// could have succeeded; RISC-V allows spurious SC failures.
//
// Field encodings (SEM_EXECUTE, SEM_AMO, SEM16, fault kinds, trace kinds)
// come from the generated ppu_hw_pkg.
module ppu_sem #(
  parameter int unsigned NPORT = 4,   // request ports; AMO only from port 3
  parameter int unsigned NRES  = 32,  // LR/SC reservations, indexed by rid
  // Its clock stops while no request is waiting or under way and no
  // reservation can be hit by a write (ppu_clk_gate; 0: never)
  parameter bit          CLOCK_GATE = 1'b1
) (
  input  logic                       clk,
  input  logic                       rst_n,
  input  logic [63:0]                timestamp,        // free-running cycle counter
  input  logic [NPORT-1:0]           req_valid,        // 0 host, 1 copy, 2 tasks, 3 CU atomics
  output logic [NPORT-1:0]           req_ready,
  // sem_req_t [NPORT-1:0] as a flat vector (Yosys 0.23 drops the packed dimension
  // of an array of structs in a port); port p is bits [p*SEM_REQ_W +: SEM_REQ_W].
  input  logic [NPORT*ppu_types_pkg::SEM_REQ_W-1:0] req,
  output logic [NPORT-1:0]           rsp_valid,
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
  // RMW lock in ppu_mem_arb: lock_pa is the beat (low bits 0)
  output logic                       lock_valid,
  output ppu_types_pkg::paddr_t      lock_pa,
  input  logic                       lock_clear,
  // Write beat accepted by the memory port this cycle (any client): clears
  // the reservations of its beat.
  input  logic                       snoop_valid,
  input  ppu_types_pkg::paddr_t      snoop_pa,
  output logic                       sem_written,      // pulse: release/reduction/AMO/SC writes acked
  output ppu_types_pkg::trace_t      trace,            // one record per completed op (not AMOs)
  output logic                       perf_acq_ok,
  output logic                       perf_acq_fail,
  output logic                       perf_release,
  output logic                       perf_reduction,
  output logic                       perf_amo,         // per completed AMO, LR or SC
  // invalidate handshake (ppu_inv_drain): the operation under way may use
  // a translation made before the last MMU invalidate
  input  logic                       invalidate,
  output logic                       inv_hold
);
  localparam int unsigned SEM_REQ_W = ppu_types_pkg::SEM_REQ_W;
  localparam int unsigned PA_W      = ppu_types_pkg::PA_W;
  // Index registers stay at least one bit wide so one port / one
  // reservation still elaborates.
  localparam int unsigned PORT_W = (NPORT > 1) ? $clog2(NPORT) : 1;
  localparam int unsigned RES_W  = (NRES > 1) ? $clog2(NRES) : 1;
  localparam int unsigned AMO_PORT = 3;   // compute-unit atomics

  if (NPORT == 0 || NRES == 0 || NRES > 256) begin : g_bad_params
    $error("ppu_sem: NPORT must be >= 1 and NRES 1..256 (rid is 8 bits)");
  end

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
  localparam logic [OP_W-1:0] OP_AMO       = OP_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_AMO);

  localparam logic [RED_W-1:0] RED_IMIN = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IMIN);
  localparam logic [RED_W-1:0] RED_IMAX = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IMAX);
  localparam logic [RED_W-1:0] RED_IXOR = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IXOR);
  localparam logic [RED_W-1:0] RED_IAND = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IAND);
  localparam logic [RED_W-1:0] RED_IOR  = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IOR);
  localparam logic [RED_W-1:0] RED_IADD = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_IADD);
  localparam logic [RED_W-1:0] RED_INC  = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_INC);
  localparam logic [RED_W-1:0] RED_DEC  = RED_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_REDUCTION_DEC);

  // AMO sub-operations, in the REDUCTION field (numbered as cu_amo_e).
  localparam logic [RED_W-1:0] AMO_ADD  = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_ADD);
  localparam logic [RED_W-1:0] AMO_SWAP = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_SWAP);
  localparam logic [RED_W-1:0] AMO_XOR  = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_XOR);
  localparam logic [RED_W-1:0] AMO_AND  = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_AND);
  localparam logic [RED_W-1:0] AMO_OR   = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_OR);
  localparam logic [RED_W-1:0] AMO_MIN  = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_MIN);
  localparam logic [RED_W-1:0] AMO_MAX  = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_MAX);
  localparam logic [RED_W-1:0] AMO_MINU = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_MINU);
  localparam logic [RED_W-1:0] AMO_LR   = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_LR);
  localparam logic [RED_W-1:0] AMO_SC   = RED_W'(ppu_hw_pkg::PPU_SEM_AMO_SC);

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
  // A beat as reservations and the lock compare it: {sys, addr[PA_W-1:3]}.
  localparam int unsigned BEAT_W      = 1 + PA_W - BEAT_OFF_W;

  typedef enum logic [3:0] {
    S_IDLE,     // waiting for a request
    S_CHECK,    // decode: illegal / unaligned -> fault without touching memory
    S_XREQ,     // translation request held until accepted
    S_XWAIT,    // translation response
    S_LOCK,     // RMW lock raised, waiting for lock_clear; SC decides here
    S_RD,       // read request held until accepted
    S_RWAIT,    // read response: acquire resolves here, reduction/AMO computes
    S_WR,       // write beat(s) held until accepted
    S_DONE      // response / trace / perf pulse, one cycle
  } state_e;

  state_e                  state_q;
  logic                    gclk, en;     // the unit's clock (see "Clock" below)
  ppu_types_pkg::sem_req_t r_req;        // request being executed

  // An operation that has (or may be getting) its translation when an MMU
  // invalidate arrives finishes with it: its accesses are acknowledged by
  // S_DONE, so the hold ends there.
  logic inv_old_q;
  wire  inv_xlated = state_q != S_IDLE && state_q != S_CHECK && state_q != S_XREQ &&
                     state_q != S_DONE;
  assign inv_hold = inv_old_q || (invalidate && inv_xlated);
  always_ff @(posedge gclk) begin
    if (!rst_n || state_q == S_DONE) inv_old_q <= 1'b0;
    else if (invalidate && inv_xlated) inv_old_q <= 1'b1;
  end
  logic [PORT_W-1:0]       r_port;       // port it came from
  logic [PORT_W-1:0]       rr_last;      // port granted last, for round-robin
  ppu_types_pkg::paddr_t   r_pa;         // translated address of the semaphore
  logic [31:0]             r_value;      // value reported (read, written, or SC status)
  logic [63:0]             r_wdata32;    // 32-bit reduction/AMO result in both halves
  logic [63:0]             r_ts;         // timestamp of a timestamped release
  logic                    r_beat;       // SEM16 beat being offered
  logic                    r_wr_issued;  // every write beat accepted
  logic [1:0]              r_acks_left;  // write acks still expected
  logic                    r_acq_fail;
  logic                    r_fault;
  logic [7:0]              r_kind;

  // ---- Decode of the latched request ----
  logic [OP_W-1:0]  op;
  logic [RED_W-1:0] red_op;       // reduction code, or AMO sub-operation
  logic             size64, ts_rel, fmt_unsigned;
  logic             is_acq, is_rel, is_red;
  logic             is_amo, is_lr, is_sc;
  logic             is_rmw;       // read, compute, write: reductions and AMOs but LR/SC
  logic             locks;        // holds the RMW lock: is_rmw or SC
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
    // AMO is an operation only on the compute units' port; from any other
    // port it is an unassigned OPERATION like 5.
    is_amo = (op == OP_AMO) && (32'(r_port) == AMO_PORT);
    is_lr  = is_amo && (red_op == AMO_LR);
    is_sc  = is_amo && (red_op == AMO_SC);
    is_rmw = is_red || (is_amo && !is_lr && !is_sc);
    locks  = is_rmw || is_sc;
    ts_rel = is_rel && r_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_RELEASE_TIMESTAMP__LSB];
    // Reductions and AMOs are defined on 32 bits only; reduction codes past
    // DEC and AMO codes past SC are unassigned.  The host and the compute
    // units never send them, so reaching here is a requester bug reported
    // as the method being illegal.
    illegal = !(is_acq || is_rel || is_red || is_amo)
              || (is_red && (size64 || red_op > RED_DEC))
              || (is_amo && (size64 || red_op > AMO_SC));
    if (ts_rel)      unaligned = r_req.va[$clog2(ppu_hw_pkg::PPU_SEM16_BYTES)-1:0] != '0;
    else if (size64) unaligned = r_req.va[BEAT_OFF_W-1:0] != '0;
    else             unaligned = r_req.va[HALF_BIT-1:0] != '0;
    half      = r_req.va[HALF_BIT];
    half_strb = half ? {{(ppu_types_pkg::MEM_BYTES/2){1'b1}}, {(ppu_types_pkg::MEM_BYTES/2){1'b0}}}
                     : {{(ppu_types_pkg::MEM_BYTES/2){1'b0}}, {(ppu_types_pkg::MEM_BYTES/2){1'b1}}};
    // Ops without a defined access (illegal OPERATION, AMO from a port
    // other than 3) report READ: the fault kind, not the access, is what
    // the host acts on.  LR only reads, SC only writes.
    if (is_rel || is_sc)      acc = ppu_types_pkg::ACC_WRITE;
    else if (is_rmw)          acc = ppu_types_pkg::ACC_RMW;
    else                      acc = ppu_types_pkg::ACC_READ;
  end

  // ---- Read-side compute: acquire condition, reduction and AMO results ----
  logic [63:0] rdata;
  logic [31:0] val32;
  logic [63:0] cmp_v, cmp_p, diff;
  logic        acq_ok;
  logic [31:0] p32, red_new, amo_new;

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

    // RISC-V AMO*.W: the new memory word (the response carries the old one).
    unique case (red_op)
      AMO_ADD:  amo_new = val32 + p32;
      AMO_SWAP: amo_new = p32;
      AMO_XOR:  amo_new = val32 ^ p32;
      AMO_AND:  amo_new = val32 & p32;
      AMO_OR:   amo_new = val32 | p32;
      AMO_MIN:  amo_new = ($signed(val32) < $signed(p32)) ? val32 : p32;
      AMO_MAX:  amo_new = ($signed(val32) > $signed(p32)) ? val32 : p32;
      AMO_MINU: amo_new = (val32 < p32) ? val32 : p32;
      default:  amo_new = (val32 > p32) ? val32 : p32;   // AMO_MAXU (LR/SC do not write it)
    endcase
  end

  // ---- Round-robin grant: the first requesting port after the one served
  // last (cyclically), so a waiting port is passed over at most NPORT-1
  // times; with two ports, the port not served last wins a tie.
  logic [PORT_W-1:0]       grant;
  logic [NPORT-1:0]        upper;
  ppu_types_pkg::sem_req_t req_sel;
  always_comb begin
    for (int unsigned i = 0; i < NPORT; i++) begin
      upper[i] = req_valid[i] && (i > 32'(rr_last));
    end
    grant = '0;
    for (int i = NPORT - 1; i >= 0; i--) begin
      if (req_valid[i]) grant = PORT_W'(i);
    end
    for (int i = NPORT - 1; i >= 0; i--) begin
      if (upper[i]) grant = PORT_W'(i);
    end
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

  // SC writes its payload word like a 32-bit release.
  always_comb begin
    wr_req = '0;
    wr_req.pa.sys  = r_pa.sys;
    wr_req.pa.addr = {r_pa.addr[PA_W-1:BEAT_OFF_W], {BEAT_OFF_W{1'b0}}};
    if (is_rmw) begin
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
  assign rd_pa.addr  = {r_pa.addr[PA_W-1:BEAT_OFF_W], {BEAT_OFF_W{1'b0}}};

  // A timestamped release offers its two beats back to back.  The op ends
  // on the last ack, not the last issue.
  assign wr_valid = (state_q == S_WR) && !r_wr_issued;

  // ---- RMW lock: from S_LOCK (before the read) until the write is
  // accepted.  The write ack is not waited for: the write has taken effect
  // at acceptance.  A read error or an SC that fails ends it early.
  assign lock_valid = locks && ((state_q == S_LOCK) || (state_q == S_RD) || (state_q == S_RWAIT) ||
                                ((state_q == S_WR) && !r_wr_issued));
  assign lock_pa    = rd_pa;

  // ---- Reservations (LR/SC) ----
  logic [NRES-1:0]        res_valid;
  logic [NRES*BEAT_W-1:0] res_beat;
  logic [BEAT_W-1:0]      cur_beat, snoop_beat;
  logic                   rid_ok;       // rid has a reservation
  logic [RES_W-1:0]       rid_idx;
  logic                   snoop_cur;    // a write to this op's beat accepted now
  logic                   sc_ok;

  // ---- Clock: every flop changes only with a request waiting, an
  // operation under way (S_IDLE is left only on a request), or a write
  // accepted by the port while a reservation exists.  A streaming copy
  // writes every cycle; the unit is skipped in all of them.
  assign en = !rst_n || state_q != S_IDLE || req_valid != '0 || (snoop_valid && res_valid != '0);
  ppu_clk_gate #(.GATE(CLOCK_GATE)) u_gate (.clk, .en, .gclk);

  assign cur_beat   = {r_pa.sys, r_pa.addr[PA_W-1:BEAT_OFF_W]};
  assign snoop_beat = {snoop_pa.sys, snoop_pa.addr[PA_W-1:BEAT_OFF_W]};
  assign rid_ok     = 32'(r_req.rid) < NRES;
  assign rid_idx    = RES_W'(r_req.rid);
  assign snoop_cur  = snoop_valid && (snoop_beat == cur_beat);
  // Decided in S_LOCK once lock_clear is seen.  From that cycle until the
  // SC's write is accepted no other client's write to the beat can be
  // accepted (the lock), so the reservation checked here is still intact
  // when the store takes effect.  snoop_cur cannot be set in that cycle; it
  // is kept so the rule reads "no write since the LR" without the argument.
  assign sc_ok = rid_ok && res_valid[rid_idx] &&
                 (res_beat[rid_idx * BEAT_W +: BEAT_W] == cur_beat) && !snoop_cur;

  always_ff @(posedge gclk) begin
    if (!rst_n) begin
      res_valid <= '0;
      res_beat  <= '0;
    end else begin
      // Any accepted write clears every reservation of its beat.  (Only
      // looked at while there is one: a streaming copy writes every cycle.)
      if (snoop_valid && res_valid != '0) begin
        for (int unsigned i = 0; i < NRES; i++) begin
          if (res_beat[i * BEAT_W +: BEAT_W] == snoop_beat) res_valid[i] <= 1'b0;
        end
      end
      // LR: reserve when the read is accepted, i.e. when it samples memory;
      // a write to the beat accepted in the same cycle may be ordered either
      // way, so it leaves no reservation.  Last: wins over the loop above
      // for this entry, whose old beat may differ.
      if (state_q == S_RD && rd_ready && is_lr && rid_ok) begin
        res_valid[rid_idx] <= !snoop_cur;
        res_beat[rid_idx * BEAT_W +: BEAT_W] <= cur_beat;
      end
      // SC: the requester's reservation is gone whatever the outcome
      // (success, failure or fault).
      if (state_q == S_DONE && is_sc && rid_ok) res_valid[rid_idx] <= 1'b0;
    end
  end

  // ---- Control ----
  always_ff @(posedge gclk) begin
    if (!rst_n) begin
      state_q     <= S_IDLE;
      r_req       <= '0;
      r_port      <= '0;
      rr_last     <= PORT_W'(NPORT - 1);   // port 0 first
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
            end else if (locks) begin
              state_q <= S_LOCK;
            end else begin
              state_q <= S_RD;                  // acquire, LR
            end
          end
        end
        S_LOCK: begin
          if (lock_clear) begin
            if (!is_sc) begin
              state_q <= S_RD;
            end else if (sc_ok) begin
              r_value     <= 32'd0;
              r_acks_left <= 2'd1;
              state_q     <= S_WR;
            end else begin
              r_value <= 32'd1;                 // failed: no write
              state_q <= S_DONE;
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
            end else if (is_lr) begin
              r_value <= val32;
              state_q <= S_DONE;
            end else begin
              // reductions report the new value, AMOs the old one (rd)
              r_value     <= is_amo ? val32 : red_new;
              r_wdata32   <= is_amo ? {2{amo_new}} : {2{red_new}};
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

    // AMOs have no trace kind of their own: the compute units' trace
    // port will report them; perf_amo counts them.
    trace.valid = done_ok && !is_amo;
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
    perf_amo       = done_ok && is_amo;
  end

  // Pulsed even when a write ack carried an error: some beat may still have
  // landed, and a spurious re-check of blocked acquires is harmless while a
  // missed one is not.  A translation/alignment fault never reaches S_WR, so
  // it never pulses; neither do LR and a failed SC, which write nothing.
  logic wrote_q;
  always_ff @(posedge gclk) begin
    if (!rst_n)                  wrote_q <= 1'b0;
    else if (state_q == S_WR)    wrote_q <= 1'b1;
    else if (state_q == S_IDLE)  wrote_q <= 1'b0;
  end
  assign sem_written = done && wrote_q;

  // Bits this unit has no use for: the low PA bits (beat addressing),
  // RELEASE_WFI and other host-only SEM_EXECUTE bits, all but the sign bits
  // of the circular compare.
  logic unused;
  assign unused = ^{r_pa.addr[BEAT_OFF_W-1:0], snoop_pa.addr[BEAT_OFF_W-1:0], r_req.exec, diff};

endmodule

// Linting this block on its own flags the package constants that only other
// blocks use (memory tags, flat-port widths of other structs).
`ifdef VERILATOR
`verilator_config
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_TAG_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'XLATE_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_WR_REQ_W'*"
`endif
