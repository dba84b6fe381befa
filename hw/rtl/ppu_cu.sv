// SPDX-License-Identifier: MIT
// One compute unit (docs/compute-design.md §4; as built: docs/hw-internals.md
// "Compute unit"): CU_CONTEXTS hardware threads in a barrel pipeline.
//
//   S0  ppu_cu_sched picks a READY context round robin; the I-cache reads
//       the line at its PC.
//   S1  tag compare; on a miss the context goes to FWAIT (or straight back
//       to READY if no refill can take it now) and the refill starts.  The
//       register file is read with rs1/rs2 (x17/x10 for an ecall).
//   S2  decode; operands (registers never written read their start value).
//   S3  execute: ALU/branch, multiplier, CSR, ecall decode, address and
//       alignment checks, pushes to the LSU, starts the divider; the
//       outcome goes to ppu_cu_sched (cu_act_e).
//   S4  register write.
// A context has at most one instruction in S1..S3, so there are no hazards;
// it can be picked again in the cycle after its S3, and its S4 write lands
// before that instruction reads registers in S1.  With four or more ready
// contexts the unit issues one instruction per cycle.
//
// Loads, atomics and divisions leave the pipeline (MWAIT); their result
// comes back into the context's result register and a second pass of the
// same instruction (pick_done) writes it and retires it, so the pipeline's
// S4 is the register file's only write port.  The same pass writes a0 = 0
// after a barrier, and raises the fault of a load or atomic that failed.
//
// Stores are posted (the LSU acknowledges them later); a context keeps at
// most SMAX unacknowledged, and loads, atomics, ecalls, fence and fence.i
// wait (SWAIT) until it has none.
//
// Context save and restore (preemption) are micro-ops of the same
// pipeline: a context in SAVE or RSTR issues one record word per pass
// without the I-cache.  A save step reads x_k in S1 (start values
// substituted in S2 like any operand) and stores it, or word 0 = PC |
// state, at record + 4k; a restore step loads the word and its
// completion pass writes x_k, or the PC and state.  Both go through the
// micro-TLB and the LSU, so a bad save area faults the channel like any
// other access.
module ppu_cu #(
  parameter int unsigned CU_CONTEXTS  = 8,
  parameter int unsigned CU_INDEX     = 0,
  parameter int unsigned NUM_CU       = 4,      // for the NUM_CU CSR
  parameter int unsigned ICACHE_BYTES = 1024
) (
  input  logic                                  clk,
  input  logic                                  rst_n,
  input  logic [63:0]                           timestamp,     // cycle/time CSRs
  input  logic                                  icache_inv,    // pulse: drop every line
  input  logic                                  tlb_inv,       // pulse: drop every micro-TLB entry
  output logic                                  inv_hold,      // old translations still in use (ppu_inv_drain)
  output logic                                  quiet,         // a clock edge would change nothing here
  // CTA dispatch
  input  logic                                  disp_valid,
  output logic                                  disp_ready,
  input  ppu_types_pkg::cu_disp_t               disp,
  output logic [$clog2(CU_CONTEXTS+1)-1:0]      free_ctx,
  // CTA events (EXITED / KILLED)
  output logic                                  ev_valid,
  input  logic                                  ev_ready,
  output ppu_types_pkg::cu_ev_t                 ev,
  // kill a CTA
  input  logic                                  kill_valid,
  output logic                                  kill_ready,
  input  ppu_types_pkg::cu_kill_t               kill,
  // channel faults (unit COMPUTE)
  output logic                                  flt_valid,
  input  logic                                  flt_ready,
  output ppu_types_pkg::cu_fault_t              flt,
  // MMU client
  output logic                                  x_req_valid,
  input  logic                                  x_req_ready,
  output ppu_types_pkg::xlate_req_t             x_req,
  input  logic                                  x_rsp_valid,
  input  ppu_types_pkg::xlate_rsp_t             x_rsp,
  // memory read client
  output logic                                  rd_valid,
  input  logic                                  rd_ready,
  output ppu_types_pkg::paddr_t                 rd_pa,
  input  logic                                  rd_rsp_valid,
  input  ppu_types_pkg::mem_rd_rsp_t            rd_rsp,
  // memory write client
  output logic                                  wr_valid,
  input  logic                                  wr_ready,
  output ppu_types_pkg::mem_wr_req_t            wr_req,
  input  logic                                  wr_rsp_valid,
  input  logic                                  wr_rsp_err,
  // device-runtime ecalls (LAUNCH, WAIT_CHILDREN) to the task table, its
  // answers (for the unit named in them) and wakes of waiting CTAs
  output logic                                  dreq_valid,
  input  logic                                  dreq_ready,
  output ppu_types_pkg::cu_dreq_t               dreq,
  input  logic                                  drsp_valid,
  input  ppu_types_pkg::cu_drsp_t               drsp,
  input  logic                                  kw_valid,
  input  ppu_types_pkg::cu_wake_t               kw,
  // semaphore unit (AMO, LR, SC)
  output logic                                  sem_valid,
  input  logic                                  sem_ready,
  output ppu_types_pkg::sem_req_t               sem_req,
  input  logic                                  sem_rsp_valid,
  input  ppu_types_pkg::sem_rsp_t               sem_rsp,
  // performance pulses
  output logic                                  perf_issue,    // an instruction entered S1
  output logic                                  perf_retire,   // an instruction retired
  output logic                                  perf_icache_miss,
  output logic                                  perf_ctxsw,    // a context saving or restoring
  output logic                                  perf_wave,     // a wave brought in
  // debug: one context (CU_DBG) and one of its registers
  input  logic [$clog2(CU_CONTEXTS)-1:0]        dbg_ctx,
  input  logic [4:0]                            dbg_reg,
  output logic [3:0]                            dbg_state,     // cu_ctx_e
  output logic [31:0]                           dbg_pc,
  output logic [31:0]                           dbg_tid,
  output logic [ppu_types_pkg::CU_TSLOT_W-1:0]  dbg_tslot,
  output logic [31:0]                           dbg_cta_id,
  output logic [31:0]                           dbg_rdata
);

  localparam int unsigned CTX  = CU_CONTEXTS;

  if (CU_CONTEXTS > 16 || CU_INDEX > 7) begin : g_bad_dreq
    $error("ppu_cu: the task-table requests carry 4-bit contexts and 3-bit units");
  end
  localparam int unsigned CW   = $clog2(CTX);
  localparam int unsigned SMAX = 4;

  localparam logic [4:0] R_TP = 5'd4;
  localparam logic [4:0] R_SP = 5'd2;
  localparam logic [4:0] R_A0 = 5'd10;
  localparam logic [4:0] R_A1 = 5'd11;
  localparam logic [4:0] R_A7 = 5'd17;
  localparam logic [31:0] ECALL_WORD = 32'h0000_0073;

  localparam logic [7:0] K_ILLEGAL    = 8'(ppu_hw_pkg::PPU_FAULT_KIND_ILLEGAL_INSTR);
  localparam logic [7:0] K_MISALIGNED = 8'(ppu_hw_pkg::PPU_FAULT_KIND_MISALIGNED);
  localparam logic [7:0] K_TRAP       = 8'(ppu_hw_pkg::PPU_FAULT_KIND_KERNEL_TRAP);

  localparam logic [2:0] LSU_LOAD  = 3'd0;
  localparam logic [2:0] LSU_STORE = 3'd1;
  localparam logic [2:0] LSU_AMO   = 3'd2;
  localparam logic [2:0] LSU_LR    = 3'd3;
  localparam logic [2:0] LSU_SC    = 3'd4;

  // ---- Scheduler ----
  logic                    pick_valid, pick_done;
  logic [CW-1:0]           pick_ctx;
  logic [31:0]             pick_pc;
  logic                    s1_back, s1_fwait;
  ppu_types_pkg::pt_root_t l1_root;
  logic                    l1_ferr, l1_frozen;
  logic [31:0]             l2_sp, l2_tp, l2_param, l2_tid;
  logic                    l3_frozen, l3_snone, l3_sfull, l3_rerr;
  logic [31:0]             l3_res;
  logic [7:0]              l3_rkind, l3_fkind;
  logic [10:0]             l3_tid;
  ppu_types_pkg::cu_disp_t l3_cta;
  logic                    l1_uop, uop_any;
  logic [4:0]              l1_k, l3_k;
  logic [1:0]              l3_um, l3_tst, cm_tst;
  logic                    l3_lrv, cm_lr, cm_sc;
  logic [31:0]             l3_rec;
  logic                    l3_ust;
  logic [63:0]             l3_hwd;
  logic                    cm_valid;
  ppu_types_pkg::cu_act_e  cm_act;
  logic [31:0]             cm_pc, cm_addr, cm_data;
  logic [7:0]              cm_kind;
  ppu_types_pkg::access_e  cm_access;
  logic [CTX-1:0]          ctx_start, ctx_frozen;
  logic [CTX*4-1:0]        ctx_state;
  logic [31:0]             dbg_sp, dbg_tp, dbg_param;

  // LSU results, divider, refill
  logic          ld_res_valid, ld_res_err, amo_res_valid, amo_res_err;
  logic [CW-1:0] ld_res_ctx, amo_res_ctx;
  logic [31:0]   ld_res_data, amo_res_data;
  logic [7:0]    ld_res_kind, amo_res_kind;
  logic          sack_valid, sflt_valid;
  logic [CW-1:0] sack_ctx, sflt_ctx;
  logic [7:0]    sflt_kind;
  logic [31:0]   sflt_va, sflt_pc;
  logic          div_done_valid;
  logic [CW-1:0] div_done_tag;
  logic [31:0]   div_result;
  logic          rf_idle, rf_busy, rf_done, rf_fault, hold_release;
  logic [7:0]    rf_fault_kind;
  logic [CW-1:0] rf_ctx;

  // pipeline registers
  logic          s1_valid_q, s1_done_q;
  logic [CW-1:0] s1_ctx_q;
  logic [31:0]   s1_pc_q;

  logic          s2_valid_q, s2_done_q, s2_ffault_q;
  logic [CW-1:0] s2_ctx_q;
  logic [31:0]   s2_pc_q, s2_instr_q;
  logic [4:0]    s2_rs1_q, s2_rs2_q;

  logic          s3_valid_q, s3_done_q, s3_ffault_q;
  logic [CW-1:0] s3_ctx_q;
  logic [31:0]   s3_pc_q, s3_instr_q, s3_v1_q, s3_v2_q;
  ppu_types_pkg::cu_dec_t s3_dec_q;

  logic          s4_we_q;
  logic [CW-1:0] s4_ctx_q;
  logic [4:0]    s4_rd_q;
  logic [31:0]   s4_val_q;

  ppu_cu_sched #(.CTX(CTX), .SMAX(SMAX)) u_sched (
    .clk, .rst_n,
    .disp_valid, .disp_ready, .disp, .free_ctx, .ctx_start,
    .ev_valid, .ev_ready, .ev,
    .kill_valid, .kill_ready, .kill,
    .flt_valid, .flt_ready, .flt,
    .pick_valid, .pick_ctx, .pick_pc, .pick_done,
    .s1_back, .s1_ctx(s1_ctx_q), .s1_fwait, .l1_root, .l1_ferr, .l1_frozen,
    .l2_ctx(s2_ctx_q), .l2_sp, .l2_tp, .l2_param, .l2_tid,
    .l3_ctx(s3_ctx_q), .l3_frozen, .l3_snone, .l3_sfull, .l3_res, .l3_rerr, .l3_rkind,
    .l3_fkind, .l3_tid, .l3_cta, .l1_uop, .l1_k, .l3_um, .l3_k, .l3_tst, .l3_rec, .l3_ust, .l3_hwd,
    .cm_valid, .cm_ctx(s3_ctx_q), .cm_act, .cm_pc, .cm_kind, .cm_access, .cm_addr, .cm_data,
    .cm_tst, .uop_any, .wave_sw(perf_wave), .l3_lrv, .cm_lr, .cm_sc,
    .ld_valid(ld_res_valid), .ld_ctx(ld_res_ctx), .ld_data(ld_res_data), .ld_err(ld_res_err),
    .ld_kind(ld_res_kind),
    .amo_valid(amo_res_valid), .amo_ctx(amo_res_ctx), .amo_data(amo_res_data),
    .amo_err(amo_res_err), .amo_kind(amo_res_kind),
    .dv_valid(div_done_valid), .dv_ctx(div_done_tag), .dv_data(div_result),
    .tp_valid(drsp_valid && drsp.cu == 3'(CU_INDEX)), .tp_ctx(CW'(drsp.ctx)), .tp_sleep(drsp.sleep),
    .tp_data(drsp.a0), .kw_valid, .kw,
    .sack_valid, .sack_ctx, .sflt_valid, .sflt_ctx, .sflt_kind, .sflt_va, .sflt_pc,
    .rf_done, .rf_fault, .rf_kind(rf_fault_kind), .rf_ctx,
    .ctx_state, .ctx_frozen,
    .dbg_ctx, .dbg_state, .dbg_pc, .dbg_tid, .dbg_tslot, .dbg_cta_id, .dbg_sp, .dbg_tp,
    .dbg_param
  );

  // ---- Micro-TLB: port 0 I-cache, port 1 LSU ----
  logic                    ic_lk_valid, ls_lk_valid;
  logic [31:0]             ic_lk_va, ls_lk_va;
  ppu_types_pkg::pt_root_t ic_lk_root, ls_lk_root;
  logic [1:0]              ls_lk_acc;
  logic [1:0]              lk_hit, lk_fault;
  logic [2*ppu_types_pkg::PADDR_W-1:0] lk_pa;
  logic [7:0]              lk_fault_kind;
  ppu_types_pkg::paddr_t   ic_lk_pa, ls_lk_pa;

  ppu_cu_utlb u_utlb (
    .clk, .rst_n, .inv(tlb_inv),
    .lk_valid({ls_lk_valid, ic_lk_valid}),
    .lk_va({ls_lk_va, ic_lk_va}),
    .lk_root({ls_lk_root, ic_lk_root}),
    .lk_acc({ls_lk_acc, 2'(ppu_types_pkg::ACC_EXEC)}),
    .lk_hit, .lk_pa, .lk_fault, .lk_fault_kind,
    .x_req_valid, .x_req_ready, .x_req, .x_rsp_valid, .x_rsp, .busy(utlb_busy)
  );

  assign ic_lk_pa = lk_pa[0 +: ppu_types_pkg::PADDR_W];
  assign ls_lk_pa = lk_pa[ppu_types_pkg::PADDR_W +: ppu_types_pkg::PADDR_W];

  logic utlb_busy;

  // ---- I-cache ----
  logic                       s1_hit, miss_start, ic_inv, fence_i;
  logic [31:0]                s1_instr;
  logic                       ic_rd_valid, ic_rd_ready, ic_rsp_valid, ic_inv_busy;
  ppu_types_pkg::paddr_t      ic_rd_pa;
  ppu_types_pkg::mem_rd_rsp_t ic_rsp;

  assign ic_inv = icache_inv || fence_i;

  ppu_cu_icache #(.ICACHE_BYTES(ICACHE_BYTES), .CTX(CTX)) u_icache (
    .clk, .rst_n, .inv(ic_inv),
    .s0_pc(pick_pc),
    .s1_pc(s1_pc_q), .s1_root(l1_root), .s1_hit, .s1_instr,
    .miss_start, .miss_ctx(s1_ctx_q), .rf_idle, .rf_busy, .rf_done, .rf_fault, .rf_fault_kind,
    .rf_ctx, .hold_release,
    .lk_valid(ic_lk_valid), .lk_va(ic_lk_va), .lk_root(ic_lk_root), .lk_hit(lk_hit[0]),
    .lk_pa(ic_lk_pa), .lk_fault(lk_fault[0]), .lk_fault_kind,
    .rd_valid(ic_rd_valid), .rd_ready(ic_rd_ready), .rd_pa(ic_rd_pa),
    .rsp_valid(ic_rsp_valid), .rsp(ic_rsp), .inv_busy(ic_inv_busy)
  );

  // The refill's requester fetched again, or cannot any more.
  always_comb begin
    logic [3:0] s;
    s = ctx_state[32'(rf_ctx)*4 +: 4];
    hold_release = (s1_valid_q && s1_ctx_q == rf_ctx) || ctx_frozen[rf_ctx] ||
                   (s != 4'(ppu_types_pkg::CU_CTX_READY) && s != 4'(ppu_types_pkg::CU_CTX_PIPE));
  end

  // ---- S0 -> S1 ----
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      s1_valid_q <= 1'b0;
      s1_done_q  <= 1'b0;
      s1_ctx_q   <= '0;
      s1_pc_q    <= '0;
    end else begin
      s1_valid_q <= pick_valid;
      s1_done_q  <= pick_done;
      s1_ctx_q   <= pick_ctx;
      s1_pc_q    <= pick_pc;
    end
  end

  // ---- S1: tag check, register read ----
  logic       s1_go;
  logic [4:0] s1_rs1, s1_rs2;

  always_comb begin
    s1_back    = 1'b0;
    s1_fwait   = 1'b0;
    miss_start = 1'b0;
    s1_go      = 1'b0;
    if (s1_valid_q) begin
      if (l1_frozen) begin
        s1_back = 1'b1;
      end else if (l1_uop || l1_ferr || s1_hit) begin
        s1_go = 1'b1;
      end else begin
        // A miss waits only for a refill whose end is still to come.
        s1_back    = 1'b1;
        miss_start = rf_idle;
        s1_fwait   = rf_idle || (rf_busy && !rf_done);
      end
    end
  end

  assign s1_rs1 = l1_uop ? l1_k : (s1_instr == ECALL_WORD) ? R_A7 : s1_instr[19:15];
  // (a save step reads x_k and x_k+1: k = 0 pairs word 0, PC | state, with x1)
  assign s1_rs2 = l1_uop ? l1_k + 5'd1 : (s1_instr == ECALL_WORD) ? R_A0 : s1_instr[24:20];

  logic [31:0] rf_data1, rf_data2;
  logic        rf_written1, rf_written2;
  logic [31:0] dbg_raw;
  logic        dbg_written;

  ppu_cu_regfile #(.CTX(CTX)) u_regfile (
    .clk, .rst_n,
    .rd_ctx(s1_ctx_q), .rd_rs1(s1_rs1), .rd_rs2(s1_rs2),
    .rd_data1(rf_data1), .rd_data2(rf_data2), .rd_written1(rf_written1),
    .rd_written2(rf_written2),
    .wr_en(s4_we_q), .wr_ctx(s4_ctx_q), .wr_rd(s4_rd_q), .wr_data(s4_val_q),
    .start(ctx_start),
    .dbg_ctx, .dbg_reg, .dbg_data(dbg_raw), .dbg_written
  );

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      s2_valid_q  <= 1'b0;
      s2_done_q   <= 1'b0;
      s2_ffault_q <= 1'b0;
      s2_ctx_q    <= '0;
      s2_pc_q     <= '0;
      s2_instr_q  <= '0;
      s2_rs1_q    <= '0;
      s2_rs2_q    <= '0;
    end else begin
      s2_valid_q  <= s1_go;
      s2_done_q   <= s1_done_q;
      s2_ffault_q <= l1_ferr && !l1_uop;
      s2_ctx_q    <= s1_ctx_q;
      s2_pc_q     <= s1_pc_q;
      s2_instr_q  <= s1_instr;
      s2_rs1_q    <= s1_rs1;
      s2_rs2_q    <= s1_rs2;
    end
  end

  // ---- S2: decode, operands ----
  ppu_types_pkg::cu_dec_t s2_dec;

  ppu_cu_decode u_decode (.instr(s2_instr_q), .dec(s2_dec));

  // A register never written since the thread started reads its start value.
  function automatic logic [31:0] f_start(input logic [4:0] r, input logic [31:0] sp,
                                          input logic [31:0] tp, input logic [31:0] a0,
                                          input logic [31:0] a1);
    unique case (r)
      R_SP:    f_start = sp;
      R_TP:    f_start = tp;
      R_A0:    f_start = a0;
      R_A1:    f_start = a1;
      default: f_start = '0;
    endcase
  endfunction

  logic [31:0] s2_v1, s2_v2;
  assign s2_v1 = (s2_rs1_q == '0) ? '0 : rf_written1 ? rf_data1
               : f_start(s2_rs1_q, l2_sp, l2_tp, l2_param, l2_tid);
  assign s2_v2 = (s2_rs2_q == '0) ? '0 : rf_written2 ? rf_data2
               : f_start(s2_rs2_q, l2_sp, l2_tp, l2_param, l2_tid);

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      s3_valid_q  <= 1'b0;
      s3_done_q   <= 1'b0;
      s3_ffault_q <= 1'b0;
      s3_ctx_q    <= '0;
      s3_pc_q     <= '0;
      s3_instr_q  <= '0;
      s3_v1_q     <= '0;
      s3_v2_q     <= '0;
      s3_dec_q    <= '0;
    end else begin
      s3_valid_q  <= s2_valid_q;
      s3_done_q   <= s2_done_q;
      s3_ffault_q <= s2_ffault_q;
      s3_ctx_q    <= s2_ctx_q;
      s3_pc_q     <= s2_pc_q;
      s3_instr_q  <= s2_instr_q;
      s3_v1_q     <= s2_v1;
      s3_v2_q     <= s2_v2;
      s3_dec_q    <= s2_dec;
    end
  end

  // ---- S3: execute ----
  ppu_types_pkg::cu_dec_t d;
  assign d = s3_dec_q;

  logic [31:0] alu_a, alu_b, alu_res, mul_res, csr_val, pc4, br_tgt, j_tgt;
  logic        taken;

  assign alu_a  = d.a_pc ? s3_pc_q : s3_v1_q;
  assign alu_b  = d.b_imm ? d.imm : s3_v2_q;
  assign pc4    = s3_pc_q + 32'd4;
  assign br_tgt = s3_pc_q + d.imm;
  assign j_tgt  = (d.unit == ppu_types_pkg::CU_UNIT_JALR) ? {alu_res[31:1], 1'b0} : alu_res;

  ppu_cu_alu u_alu (.a(alu_a), .b(alu_b), .op(d.alu), .br(d.br), .result(alu_res), .taken);

  logic div_valid, div_ready, div_busy;

  ppu_cu_muldiv #(.TAG_W(CW)) u_muldiv (
    .clk, .rst_n, .a(s3_v1_q), .b(s3_v2_q), .op(d.md), .mul_result(mul_res),
    .div_valid, .div_ready, .div_tag(s3_ctx_q),
    .div_done_valid, .div_done_ready(1'b1), .div_result, .div_done_tag, .busy(div_busy)
  );

  logic [63:0] instret_q;

  ppu_cu_csr #(.CU_INDEX(CU_INDEX), .CTX(CTX), .NUM_CU(NUM_CU)) u_csr (
    .csr(d.csr), .cycle(timestamp), .instret(instret_q), .ctx(s3_ctx_q), .tid(l3_tid),
    .cta(l3_cta), .value(csr_val)
  );

  logic        ec_exit, ec_barrier, ec_trap, ec_dev, ec_launch;
  logic [31:0] ec_code, ec_ret;

  ppu_cu_ecall u_ecall (
    .a7(s3_v1_q), .a0(s3_v2_q), .is_exit(ec_exit), .is_barrier(ec_barrier), .is_trap(ec_trap),
    .is_dev(ec_dev), .is_launch(ec_launch), .trap_code(ec_code), .ret_a0(ec_ret)
  );

  // One device-runtime request at a time per unit: a context finding the
  // register taken replays its ecall.
  logic                    dreq_push;
  logic                    dreq_v_q;
  ppu_types_pkg::cu_dreq_t dreq_q;
  assign dreq_valid = dreq_v_q;
  assign dreq       = dreq_q;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      dreq_v_q <= 1'b0;
      dreq_q   <= '0;
    end else begin
      if (dreq_valid && dreq_ready) dreq_v_q <= 1'b0;
      if (dreq_push) begin
        dreq_v_q      <= 1'b1;
        dreq_q.launch <= ec_launch;
        dreq_q.cu     <= 3'(CU_INDEX);
        dreq_q.ctx    <= 4'(s3_ctx_q);
        dreq_q.tslot  <= l3_cta.tslot;
        dreq_q.cta_id <= l3_cta.cta_id;
        dreq_q.arg    <= s3_v2_q;
      end
    end
  end

  // LSU push
  logic        push_ready, push_valid, lsu_busy;
  logic [2:0]  push_op;
  logic        push_uop;       // a save/restore word: W at uop_va
  logic [31:0] uop_va;
  logic [63:0] uop_wdata;

  // save: words k and k + 1 in one 8-byte store; restore: word k (the
  // header of a CTA in waves: its two words from the scheduler)
  assign uop_va    = l3_rec + {25'b0, l3_k, 2'b00};
  assign uop_wdata = (l3_um == 2'd3) ? l3_hwd
                   : {s3_v2_q, (l3_k == 5'd0) ? {s3_pc_q[31:2], l3_tst} : s3_v1_q};

  logic        we, we_uop;
  logic [4:0]  wrd;
  logic [31:0] wval;
  logic        misal;          // data address not aligned to its size
  logic        retire;

  always_comb begin
    unique case (d.ls_size)
      ppu_types_pkg::CU_SIZE_B: misal = 1'b0;
      ppu_types_pkg::CU_SIZE_H: misal = alu_res[0];
      default:                  misal = alu_res[1:0] != 2'b00;
    endcase
  end

  // Access of a data fault, from the instruction.
  ppu_types_pkg::access_e d_access;
  always_comb begin
    unique case (d.unit)
      ppu_types_pkg::CU_UNIT_STORE, ppu_types_pkg::CU_UNIT_SC: d_access = ppu_types_pkg::ACC_WRITE;
      ppu_types_pkg::CU_UNIT_AMO:                            d_access = ppu_types_pkg::ACC_RMW;
      default:                                               d_access = ppu_types_pkg::ACC_READ;
    endcase
  end

  always_comb begin
    cm_valid  = s3_valid_q;
    cm_act    = ppu_types_pkg::CU_A_NEXT;
    cm_pc     = pc4;
    cm_kind   = '0;
    cm_access = ppu_types_pkg::ACC_EXEC;
    cm_addr   = s3_pc_q;
    cm_data   = s3_pc_q;
    we        = 1'b0;
    we_uop    = 1'b0;
    cm_tst    = '0;
    cm_lr     = 1'b0;
    cm_sc     = 1'b0;
    push_uop  = 1'b0;
    wrd       = d.rd;
    wval      = alu_res;
    push_valid = 1'b0;
    push_op   = LSU_LOAD;
    div_valid = 1'b0;
    fence_i   = 1'b0;
    dreq_push = 1'b0;

    if (l3_frozen) begin
      cm_act = ppu_types_pkg::CU_A_REPLAY;
    end else if (l3_ust) begin
      // save step: store record words k, k + 1 (or the header)
      if (l3_sfull || !push_ready) begin
        cm_act = ppu_types_pkg::CU_A_REPLAY;
      end else begin
        push_valid = 1'b1;
        push_uop   = 1'b1;
        push_op    = LSU_STORE;
        cm_act     = ppu_types_pkg::CU_A_UOP;
      end
    end else if (l3_um != 2'd0 && !s3_done_q) begin
      // restore step: load record word k
      if (!push_ready) begin
        cm_act = ppu_types_pkg::CU_A_REPLAY;
      end else begin
        push_valid = 1'b1;
        push_uop   = 1'b1;
        push_op    = LSU_LOAD;
        cm_act     = ppu_types_pkg::CU_A_MWAIT;
      end
    end else if (l3_um != 2'd0) begin
      // restore step, completion pass: the word arrived
      if (l3_rerr) begin
        cm_act    = ppu_types_pkg::CU_A_FAULT;
        cm_kind   = l3_rkind;
        cm_access = ppu_types_pkg::ACC_READ;
        cm_addr   = uop_va;
      end else if (l3_k == 5'd0) begin
        cm_act = ppu_types_pkg::CU_A_UOP;
        cm_pc  = {l3_res[31:2], 2'b00};
        cm_tst = l3_res[1:0];
      end else begin
        we_uop = 1'b1;
        wrd    = l3_k;
        wval   = l3_res;
        cm_pc  = s3_pc_q;
        if (l3_k != 5'd31)
          cm_act = ppu_types_pkg::CU_A_UOP;
        else if (l3_tst == 2'(ppu_hw_pkg::PPU_THREAD_STATE_RUN))
          cm_act = ppu_types_pkg::CU_A_NEXT;
        else if (l3_tst == 2'(ppu_hw_pkg::PPU_THREAD_STATE_EXIT))
          cm_act = ppu_types_pkg::CU_A_EXIT;
        else
          cm_act = ppu_types_pkg::CU_A_BAR;
      end
    end else if (s3_ffault_q) begin
      // The I-cache refill for this PC failed: EXEC fault at the PC.
      cm_act  = ppu_types_pkg::CU_A_FAULT;
      cm_kind = l3_fkind;
    end else if (s3_done_q) begin
      // Completion pass: the result of a load, atomic, division or barrier.
      if (l3_rerr) begin
        cm_act    = ppu_types_pkg::CU_A_FAULT;
        cm_kind   = l3_rkind;
        cm_access = d_access;
        cm_addr   = alu_res;
      end else begin
        we   = (d.unit == ppu_types_pkg::CU_UNIT_ECALL) || d.rd_write;
        wrd  = (d.unit == ppu_types_pkg::CU_UNIT_ECALL) ? R_A0 : d.rd;
        wval = l3_res;
      end
    end else if (d.illegal) begin
      cm_act  = ppu_types_pkg::CU_A_FAULT;
      cm_kind = K_ILLEGAL;
      cm_data = s3_instr_q;
    end else begin
      unique case (d.unit)
        ppu_types_pkg::CU_UNIT_ALU: begin
          we = d.rd_write;
        end
        ppu_types_pkg::CU_UNIT_BRANCH: begin
          if (taken) begin
            if (br_tgt[1:0] != 2'b00) begin
              cm_act  = ppu_types_pkg::CU_A_FAULT;
              cm_kind = K_MISALIGNED;
              cm_addr = br_tgt;
            end else begin
              cm_pc = br_tgt;
            end
          end
        end
        ppu_types_pkg::CU_UNIT_JAL, ppu_types_pkg::CU_UNIT_JALR: begin
          if (j_tgt[1:0] != 2'b00) begin
            cm_act  = ppu_types_pkg::CU_A_FAULT;
            cm_kind = K_MISALIGNED;
            cm_addr = j_tgt;
          end else begin
            cm_pc = j_tgt;
            we    = d.rd_write;
            wval  = pc4;
          end
        end
        ppu_types_pkg::CU_UNIT_LOAD, ppu_types_pkg::CU_UNIT_STORE, ppu_types_pkg::CU_UNIT_AMO,
        ppu_types_pkg::CU_UNIT_LR, ppu_types_pkg::CU_UNIT_SC: begin
          unique case (d.unit)
            ppu_types_pkg::CU_UNIT_LOAD:  push_op = LSU_LOAD;
            ppu_types_pkg::CU_UNIT_STORE: push_op = LSU_STORE;
            ppu_types_pkg::CU_UNIT_AMO:   push_op = LSU_AMO;
            ppu_types_pkg::CU_UNIT_LR:    push_op = LSU_LR;
            default:                      push_op = LSU_SC;
          endcase
          if (misal) begin
            cm_act    = ppu_types_pkg::CU_A_FAULT;
            cm_kind   = K_MISALIGNED;
            cm_access = d_access;
            cm_addr   = alu_res;
          end else if (d.unit == ppu_types_pkg::CU_UNIT_SC && !l3_lrv) begin
            // No LR of this thread since its start (or resume) or its last
            // SC: the SC fails here, whatever reservation a previous thread
            // of this context left in the semaphore unit.
            we     = d.rd_write;
            wval   = 32'd1;
          end else if (d.unit == ppu_types_pkg::CU_UNIT_STORE ? l3_sfull : !l3_snone) begin
            cm_act = ppu_types_pkg::CU_A_SWAIT;
          end else if (!push_ready) begin
            cm_act = ppu_types_pkg::CU_A_REPLAY;
          end else begin
            push_valid = 1'b1;
            cm_lr      = d.unit == ppu_types_pkg::CU_UNIT_LR;
            cm_sc      = d.unit == ppu_types_pkg::CU_UNIT_SC;
            cm_act     = (d.unit == ppu_types_pkg::CU_UNIT_STORE) ? ppu_types_pkg::CU_A_STORE
                                                                  : ppu_types_pkg::CU_A_MWAIT;
          end
        end
        ppu_types_pkg::CU_UNIT_MULDIV: begin
          if (!d.md[2]) begin
            we   = d.rd_write;
            wval = mul_res;
          end else begin
            div_valid = 1'b1;
            cm_act    = div_ready ? ppu_types_pkg::CU_A_MWAIT : ppu_types_pkg::CU_A_REPLAY;
          end
        end
        ppu_types_pkg::CU_UNIT_CSR: begin
          we   = d.rd_write;
          wval = csr_val;
        end
        ppu_types_pkg::CU_UNIT_ECALL: begin
          if (!l3_snone) begin
            cm_act = ppu_types_pkg::CU_A_SWAIT;
          end else if (ec_exit) begin
            cm_act = ppu_types_pkg::CU_A_EXIT;
          end else if (ec_barrier) begin
            cm_act = ppu_types_pkg::CU_A_BAR;
          end else if (ec_dev) begin
            // to the task table; its answer comes back as the result
            if (dreq_v_q) begin
              cm_act = ppu_types_pkg::CU_A_REPLAY;
            end else begin
              dreq_push = 1'b1;
              cm_act    = ppu_types_pkg::CU_A_MWAIT;
            end
          end else if (ec_trap) begin
            cm_act  = ppu_types_pkg::CU_A_FAULT;
            cm_kind = K_TRAP;
            cm_data = ec_code;
          end else begin
            we   = 1'b1;
            wrd  = R_A0;
            wval = ec_ret;
          end
        end
        ppu_types_pkg::CU_UNIT_EBREAK: begin
          cm_act  = ppu_types_pkg::CU_A_FAULT;
          cm_kind = K_TRAP;
          cm_data = '0;
        end
        ppu_types_pkg::CU_UNIT_FENCE, ppu_types_pkg::CU_UNIT_FENCE_I: begin
          if (!l3_snone) begin
            cm_act = ppu_types_pkg::CU_A_SWAIT;
          end else begin
            fence_i = d.unit == ppu_types_pkg::CU_UNIT_FENCE_I;
          end
        end
        default: begin
          cm_act  = ppu_types_pkg::CU_A_FAULT;   // not produced by the decoder
          cm_kind = K_ILLEGAL;
          cm_data = s3_instr_q;
        end
      endcase
    end
    if (!s3_valid_q) begin
      cm_valid   = 1'b0;
      we         = 1'b0;
      we_uop     = 1'b0;
      dreq_push  = 1'b0;
      push_valid = 1'b0;
      div_valid  = 1'b0;
      fence_i    = 1'b0;
    end
  end

  // Retired: everything that completes, counted once (a barrier when it
  // arrives, not in the pass that writes its a0).
  assign retire = cm_valid && (cm_act == ppu_types_pkg::CU_A_NEXT ||
                               cm_act == ppu_types_pkg::CU_A_STORE ||
                               cm_act == ppu_types_pkg::CU_A_EXIT ||
                               cm_act == ppu_types_pkg::CU_A_BAR) &&
                  !(s3_done_q && d.unit == ppu_types_pkg::CU_UNIT_ECALL) && l3_um == 2'd0;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      s4_we_q   <= 1'b0;
      s4_ctx_q  <= '0;
      s4_rd_q   <= '0;
      s4_val_q  <= '0;
      instret_q <= '0;
    end else begin
      s4_we_q   <= (we && cm_act == ppu_types_pkg::CU_A_NEXT) || we_uop;
      s4_ctx_q  <= s3_ctx_q;
      s4_rd_q   <= wrd;
      s4_val_q  <= wval;
      instret_q <= instret_q + 64'(retire);
    end
  end

  // ---- LSU ----
  ppu_cu_lsu #(.CTX(CTX), .CU_INDEX(CU_INDEX)) u_lsu (
    .clk, .rst_n,
    .push_ready, .push_valid, .push_ctx(s3_ctx_q), .push_op,
    .push_size(!push_uop ? d.ls_size : (push_op == LSU_STORE) ? 2'(ppu_types_pkg::CU_SIZE_D)
                                                              : 2'(ppu_types_pkg::CU_SIZE_W)),
    .push_uns(d.ls_unsigned && !push_uop), .push_amo(d.amo),
    .push_va(push_uop ? uop_va : alu_res), .push_wdata(push_uop ? uop_wdata : {32'b0, s3_v2_q}),
    .push_pc(s3_pc_q), .push_root(l3_cta.root), .push_chid(l3_cta.chid),
    .lk_valid(ls_lk_valid), .lk_va(ls_lk_va), .lk_root(ls_lk_root), .lk_acc(ls_lk_acc),
    .lk_hit(lk_hit[1]), .lk_pa(ls_lk_pa), .lk_fault(lk_fault[1]), .lk_fault_kind,
    .ic_rd_valid, .ic_rd_ready, .ic_rd_pa, .ic_rsp_valid, .ic_rsp,
    .rd_valid, .rd_ready, .rd_pa, .rd_rsp_valid, .rd_rsp,
    .wr_valid, .wr_ready, .wr_req, .wr_rsp_valid, .wr_rsp_err,
    .sem_valid, .sem_ready, .sem_req, .sem_rsp_valid, .sem_rsp,
    .ld_res_valid, .ld_res_ctx, .ld_res_data, .ld_res_err, .ld_res_kind,
    .amo_res_valid, .amo_res_ctx, .amo_res_data, .amo_res_err, .amo_res_kind,
    .sack_valid, .sack_ctx, .sflt_valid, .sflt_ctx, .sflt_kind, .sflt_va, .sflt_pc,
    .busy(lsu_busy), .tlb_inv, .inv_defer(ic_inv_busy), .inv_hold
  );

  // ---- Performance and debug ----
  assign perf_issue       = s1_valid_q;
  assign perf_retire      = retire;
  assign perf_icache_miss = miss_start;
  assign perf_ctxsw        = uop_any;

  assign dbg_rdata = (dbg_reg == '0) ? '0 : dbg_written ? dbg_raw
                   : f_start(dbg_reg, dbg_sp, dbg_tp, dbg_param, dbg_tid);

  // Quiet: no context in use, nothing in the pipeline, no refill, fill,
  // access, division or device-runtime request outstanding, no event or
  // fault waiting to be taken.  Only a dispatch, a kill or an invalidate
  // (inputs) can then change this unit's state, so ppu_compute stops its
  // clock until one comes.
  assign quiet = free_ctx == ($bits(free_ctx))'(CTX) && !ev_valid && !flt_valid &&
                 !s1_valid_q && !s2_valid_q && !s3_valid_q && !s4_we_q && rf_idle && !ic_inv_busy &&
                 !lsu_busy && !div_busy && !utlb_busy && !inv_hold && !dreq_v_q && !dreq_valid;

  // Decoder fields S3 does not use.
  logic unused;
  assign unused = ^{d.rs1, d.rs2, d.rs1_read, d.rs2_read};

endmodule

// Linting this block on its own flags the package constants that only other
// blocks use (memory tags, flat-port widths of structs passed in arrays).
`ifdef VERILATOR
`verilator_config
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_TAG_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'XLATE_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_WR_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'SEM_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'CU_TSLOT_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'CU_DISP_W'*"
`endif
