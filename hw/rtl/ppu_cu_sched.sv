// SPDX-License-Identifier: MIT
// Contexts and CTAs of a compute unit (docs/compute-design.md §4.2): the
// per-context state, the barrel issue pick, the per-CU CTA table with its
// barrier and exit bookkeeping, dispatch, kill, the EXITED/KILLED events
// and the fault port.
//
// Context (CTX of them): state (cu_ctx_e), PC, CTA-table entry, thread
// index, outstanding stores (at most SMAX), and a result register: a load,
// atomic or division answers into it (with an error flag and fault kind),
// the context becomes READY, and its next pass through the pipeline (a
// "completion pass", pick_done) re-reads the instruction, writes the result
// to rd (or raises the fault) and retires it.  A fetch fault of the
// context's I-cache refill is kept the same way (ferr) for S3 to report.
//
// Pick (S0): round robin over the READY contexts whose CTA is not frozen,
// starting after the one picked last.  A context has at most one
// instruction in the pipeline, so no hazards exist.
//
// CTA table (CTX entries, one per resident CTA): the dispatch record, LIVE
// (threads not exited), ARRIVED, PHASE, and frozen/killed/fault state.
//  - Dispatch takes the lowest free entry and the nthreads lowest free
//    contexts (thread i on the i-th one); disp_ready needs enough of both.
//  - EXIT: LIVE - 1; at 0 the CTA is done (every thread waited for its own
//    stores before its exit retired).  BARRIER: ARRIVED + 1; when ARRIVED
//    = LIVE, every BAR thread of the CTA is READY with the result 0 (its
//    completion pass writes a0 = 0), ARRIVED = 0, PHASE flips.  An exit
//    that leaves ARRIVED = LIVE > 0 releases the barrier too.
//  - A fault (from S3, or a store fault from the LSU) freezes the CTA: its
//    contexts are not picked any more, and an instruction of it reaching S3
//    is not executed.  The first fault of the CTA is recorded and reported
//    on flt; later ones are not.
//  - kill {tslot, cta_id} (always ready) freezes the matching running
//    CTA; once none of its contexts has an instruction in the pipeline, a
//    refill, a load, atomic or division outstanding or a store not yet
//    acknowledged, it is done (KILLED).  A kill of a CTA that is done or
//    not here is ignored: every CTA has exactly one event.
//  - kill with save = 1 preempts the matching running CTA: its contexts
//    issue nothing new, only the completion passes of results already
//    under way.  Once every context is settled (READY without a result,
//    BAR or EXIT, no store outstanding) each stores its thread record
//    (docs/formats.md "Task block"): word 0 = PC | state, words
//    1..31 = x1..x31, two words per 8-byte store micro-op through the
//    pipeline and the LSU (SAVE, then SAVED).  When every
//    store is acknowledged the CTA is done (SAVED).  A CTA that exits,
//    faults or is killed first is reported as that instead.
//  - A resumed CTA (disp.resume) starts its contexts in RSTR: each loads
//    its record word by word (load micro-ops, the completion pass writes
//    the register, or the PC and state for word 0) and then continues as
//    RUN, BAR (counted as arrived) or EXIT (LIVE - 1).
//  - Waves: a CTA of more threads than CTX (up to 1024) holds every
//    context; thread wv * CTX + rk runs on the context at position rk.
//    When each context of the resident wave waits at the barrier or has
//    exited (stores acknowledged), the wave is saved like a preempted CTA
//    and the next one (wv + 1 mod the number of waves) loaded from its
//    records, or started if it never ran; contexts beyond the last thread
//    of a shorter last wave are parked.  LIVE, ARRIVED and PHASE cover the
//    whole CTA and stay here; a thread loaded back at a barrier of the
//    other phase was released meanwhile and continues (a0 = 0).
//  - A CTA in waves is saved off the unit (preempted, or its resident
//    wave waits for children: every live thread of it waits, one for
//    children) like any CTA, but only between wave switches, and context
//    0 then stores the CTA-wide state (LIVE, ARRIVED, PHASE, the resident
//    wave, the waves started) into the save slot's header (one 8-byte
//    store after its record).  Resumed, context 0 loads the two header
//    words first (checked: a word out of range is a TMD_INVALID fault at
//    its VA), the other contexts parked, and then the saved wave is loaded
//    from its records as at a wave switch.
//  - A done CTA is latched into the event register (ev, held until
//    ev_ready); at the handshake its entry and contexts become free.  The
//    fault register works the same way.
module ppu_cu_sched #(
  parameter int unsigned CTX  = 8,
  parameter int unsigned SMAX = 4
) (
  input  logic                              clk,
  input  logic                              rst_n,
  // CTA dispatch
  input  logic                              disp_valid,
  output logic                              disp_ready,
  input  ppu_types_pkg::cu_disp_t           disp,
  output logic [$clog2(CTX+1)-1:0]          free_ctx,
  output logic [CTX-1:0]                    ctx_start,   // a thread starts: registers read as start values
  // CTA events
  output logic                              ev_valid,
  input  logic                              ev_ready,
  output ppu_types_pkg::cu_ev_t             ev,
  // kill
  input  logic                              kill_valid,
  output logic                              kill_ready,
  input  ppu_types_pkg::cu_kill_t           kill,
  // channel faults
  output logic                              flt_valid,
  input  logic                              flt_ready,
  output ppu_types_pkg::cu_fault_t          flt,
  // S0
  output logic                              pick_valid,
  output logic [$clog2(CTX)-1:0]            pick_ctx,
  output logic [31:0]                       pick_pc,
  output logic                              pick_done,
  // S1: the context goes back (miss or frozen): to FWAIT or READY
  input  logic                              s1_back,
  input  logic [$clog2(CTX)-1:0]            s1_ctx,
  input  logic                              s1_fwait,
  output ppu_types_pkg::pt_root_t           l1_root,
  output logic                              l1_ferr,
  output logic                              l1_frozen,
  // S2: start values of the registers
  input  logic [$clog2(CTX)-1:0]            l2_ctx,
  output logic [31:0]                       l2_sp,
  output logic [31:0]                       l2_tp,
  output logic [31:0]                       l2_param,
  output logic [31:0]                       l2_tid,
  // S3
  input  logic [$clog2(CTX)-1:0]            l3_ctx,
  output logic                              l3_frozen,
  output logic                              l3_snone,    // no store outstanding
  output logic                              l3_sfull,    // SMAX stores outstanding
  output logic [31:0]                       l3_res,
  output logic                              l3_rerr,
  output logic [7:0]                        l3_rkind,
  output logic [7:0]                        l3_fkind,
  output logic [10:0]                       l3_tid,
  output ppu_types_pkg::cu_disp_t           l3_cta,
  // save/restore micro-ops: mode (0 none, 1 save, 2 restore), record word,
  // thread state for word 0, VA of the thread's record
  output logic                              l1_uop,
  output logic [4:0]                        l1_k,
  output logic [1:0]                        l3_um,
  output logic [4:0]                        l3_k,
  output logic [1:0]                        l3_tst,
  output logic [31:0]                       l3_rec,
  output logic                              l3_ust,      // the micro-op stores (else loads)
  output logic [63:0]                       l3_hwd,      // header words of a CTA in waves
  output logic                              uop_any,     // a context saves or restores
  output logic                              wave_sw,     // pulse: a wave brought in
  output logic                              l3_lrv,      // an LR of this thread may be reserved
  input  logic                              cm_lr,       // S3 sent an LR ...
  input  logic                              cm_sc,       // ... or an SC (ends the reservation)
  // S3 commit
  input  logic                              cm_valid,
  input  logic [$clog2(CTX)-1:0]            cm_ctx,
  input  ppu_types_pkg::cu_act_e            cm_act,
  input  logic [31:0]                       cm_pc,
  input  logic [7:0]                        cm_kind,     // CU_A_FAULT
  input  ppu_types_pkg::access_e            cm_access,
  input  logic [31:0]                       cm_addr,
  input  logic [31:0]                       cm_data,
  input  logic [1:0]                        cm_tst,      // CU_A_UOP of restore word 0
  // results for MWAIT contexts
  input  logic                              ld_valid,
  input  logic [$clog2(CTX)-1:0]            ld_ctx,
  input  logic [31:0]                       ld_data,
  input  logic                              ld_err,
  input  logic [7:0]                        ld_kind,
  input  logic                              amo_valid,
  input  logic [$clog2(CTX)-1:0]            amo_ctx,
  input  logic [31:0]                       amo_data,
  input  logic                              amo_err,
  input  logic [7:0]                        amo_kind,
  input  logic                              dv_valid,
  input  logic [$clog2(CTX)-1:0]            dv_ctx,
  input  logic [31:0]                       dv_data,
  // the task table's answer to a LAUNCH or WAIT_CHILDREN of a context
  // (MWAIT): a0, or sleep until a wake of its CTA, then the ecall again
  input  logic                              tp_valid,
  input  logic [$clog2(CTX)-1:0]            tp_ctx,
  input  logic                              tp_sleep,
  input  logic [31:0]                       tp_data,
  input  logic                              kw_valid,
  input  ppu_types_pkg::cu_wake_t           kw,
  // stores
  input  logic                              sack_valid,
  input  logic [$clog2(CTX)-1:0]            sack_ctx,
  input  logic                              sflt_valid,
  input  logic [$clog2(CTX)-1:0]            sflt_ctx,
  input  logic [7:0]                        sflt_kind,
  input  logic [31:0]                       sflt_va,
  input  logic [31:0]                       sflt_pc,
  // I-cache refill
  input  logic                              rf_done,
  input  logic                              rf_fault,
  input  logic [7:0]                        rf_kind,
  input  logic [$clog2(CTX)-1:0]            rf_ctx,
  // per-context state (for the refill hold)
  output logic [CTX*4-1:0]                  ctx_state,
  output logic [CTX-1:0]                    ctx_frozen,
  // debug
  input  logic [$clog2(CTX)-1:0]            dbg_ctx,
  output logic [3:0]                        dbg_state,
  output logic [31:0]                       dbg_pc,
  output logic [31:0]                       dbg_tid,
  output logic [ppu_types_pkg::CU_TSLOT_W-1:0] dbg_tslot,
  output logic [31:0]                       dbg_cta_id,
  output logic [31:0]                       dbg_sp,
  output logic [31:0]                       dbg_tp,
  output logic [31:0]                       dbg_param
);

  localparam int unsigned CW  = $clog2(CTX);
  localparam int unsigned NW  = $clog2(CTX + 1);      // context counts
  localparam int unsigned TW  = 11;                    // thread index and counts in a CTA (<= 1024)
  localparam int unsigned SW  = $clog2(SMAX + 1);
  localparam int unsigned DW  = ppu_types_pkg::CU_DISP_W;
  localparam int unsigned FRW = 8 + 2 + 32 + 32;       // {kind, access, addr, data}

  if (CTX < 2) begin : g_bad_ctx
    $error("ppu_cu_sched: CTX must be at least 2");
  end

  localparam logic [3:0] S_FREE  = 4'(ppu_types_pkg::CU_CTX_FREE);
  localparam logic [3:0] S_READY = 4'(ppu_types_pkg::CU_CTX_READY);
  localparam logic [3:0] S_PIPE  = 4'(ppu_types_pkg::CU_CTX_PIPE);
  localparam logic [3:0] S_FWAIT = 4'(ppu_types_pkg::CU_CTX_FWAIT);
  localparam logic [3:0] S_MWAIT = 4'(ppu_types_pkg::CU_CTX_MWAIT);
  localparam logic [3:0] S_SWAIT = 4'(ppu_types_pkg::CU_CTX_SWAIT);
  localparam logic [3:0] S_BAR   = 4'(ppu_types_pkg::CU_CTX_BAR);
  localparam logic [3:0] S_EXIT  = 4'(ppu_types_pkg::CU_CTX_EXIT);
  localparam logic [3:0] S_FAULT = 4'(ppu_types_pkg::CU_CTX_FAULT);
  localparam logic [3:0] S_SAVE  = 4'(ppu_types_pkg::CU_CTX_SAVE);
  localparam logic [3:0] S_RSTR  = 4'(ppu_types_pkg::CU_CTX_RSTR);
  localparam logic [3:0] S_SAVED = 4'(ppu_types_pkg::CU_CTX_SAVED);
  localparam logic [3:0] S_KWAIT = 4'(ppu_types_pkg::CU_CTX_KWAIT);

  // micro-op modes, thread states of a record's word 0
  localparam logic [1:0] UM_NONE = 2'd0;
  localparam logic [1:0] UM_SAVE = 2'd1;
  localparam logic [1:0] UM_RSTR = 2'd2;
  localparam logic [1:0] UM_HDR  = 2'd3;   // slot header of a CTA in waves (context 0)
  localparam logic [1:0] T_RUN   = 2'(ppu_hw_pkg::PPU_THREAD_STATE_RUN);
  localparam logic [1:0] T_BAR0  = 2'(ppu_hw_pkg::PPU_THREAD_STATE_BAR0);
  localparam logic [1:0] T_BAR1  = 2'(ppu_hw_pkg::PPU_THREAD_STATE_BAR1);
  localparam logic [1:0] T_EXIT  = 2'(ppu_hw_pkg::PPU_THREAD_STATE_EXIT);

  // CTA entry states
  localparam logic [1:0] E_FREE  = 2'd0;
  localparam logic [1:0] E_RUN   = 2'd1;
  localparam logic [1:0] E_DONE  = 2'd2;   // to be reported
  localparam logic [1:0] E_EVENT = 2'd3;   // in the event register

  localparam logic [3:0] UNIT_COMPUTE = 4'(ppu_hw_pkg::PPU_FAULT_UNIT_COMPUTE);
  localparam logic [7:0] K_BAD_HDR    = 8'(ppu_hw_pkg::PPU_FAULT_KIND_TMD_INVALID);

  // ---- State ----
  // contexts
  logic [CTX*4-1:0]   st_q, st_d;
  logic [CTX*32-1:0]  pc_q, pc_d;
  logic [CTX*CW-1:0]  cta_q, cta_d;
  logic [CTX*TW-1:0]  tid_q, tid_d;      // thread index in the CTA
  logic [CTX*CW-1:0]  rk_q, rk_d;        // position in its CTA's contexts (waves)
  logic [CTX-1:0]     pk_q, pk_d;        // parked: no thread (last wave shorter)
  logic [CTX*SW-1:0]  scnt_q, scnt_d;
  logic [CTX*32-1:0]  res_q, res_d;
  logic [CTX-1:0]     resv_q, resv_d;
  logic [CTX-1:0]     rerr_q, rerr_d;
  logic [CTX*8-1:0]   rkind_q, rkind_d;
  logic [CTX-1:0]     ferr_q, ferr_d;
  logic [CTX*8-1:0]   fkind_q, fkind_d;
  logic [CTX*2-1:0]   um_q, um_d;        // micro-op mode
  logic [CTX*5-1:0]   k_q, k_d;          // record word
  logic [CTX*2-1:0]   tst_q, tst_d;      // thread state of the record
  logic [CTX-1:0]     lrv_q, lrv_d;      // the thread has sent an LR since its last SC
  logic [CW-1:0]      rr_q;
  // CTA entries
  logic [CTX*2-1:0]   est_q, est_d;
  // Records are written only when a CTA is dispatched or a fault is latched,
  // so they are arrays updated in place, not part of the next-state copy.
  logic [DW-1:0]      rec_q [CTX];
  logic [CTX*TW-1:0]  live_q, live_d;
  logic [CTX*TW-1:0]  arr_q, arr_d;
  // waves: a CTA of more threads than contexts (nthreads > CTX) holds every
  // context and runs ceil(nthreads / CTX) waves of CTX threads in turn
  logic [CTX-1:0]     mw_q, mw_d;           // runs in waves
  logic [CTX-1:0]     wsw_q, wsw_d;         // wave switch: the resident wave being saved
  logic [CTX*TW-1:0]  wv_q, wv_d;           // resident wave
  logic [CTX*TW-1:0]  nwv_q, nwv_d;         // waves (up to 1024 with one context)
  logic [CTX*TW-1:0]  wst_q, wst_d;         // waves started so far (in order)
  logic [CTX-1:0]     phase_q, phase_d;
  logic [CTX-1:0]     frozen_q, frozen_d;
  logic [CTX-1:0]     killed_q, killed_d;
  logic [CTX-1:0]     pre_q, pre_d;         // preemption requested
  logic [CTX-1:0]     sav_q, sav_d;         // ... and its records being stored
  logic [CTX-1:0]     wsv_q, wsv_d;         // ... because its threads wait for children
  logic [CTX*2-1:0]   evk_q, evk_d;         // done kind (cu_ev_e)
  logic [CTX-1:0]     fpend_q, fpend_d;
  logic [FRW-1:0]     frec_q [CTX];
  logic               frec_sf, frec_cm;     // latch a store's / the pipeline's fault record
  // output registers
  logic               ev_busy_q;
  logic [CW-1:0]      ev_idx_q;
  ppu_types_pkg::cu_ev_t    ev_q;
  logic               flt_busy_q;
  ppu_types_pkg::cu_fault_t flt_q;

  // ---- Helpers ----
  function automatic logic [31:0] f_tp(input logic [31:0] stack_va, input logic [4:0] log2,
                                       input logic [TW-1:0] tid);
    f_tp = (log2 == '0) ? stack_va : stack_va + (32'(tid) << log2);
  endfunction

  function automatic logic [31:0] f_stack_bytes(input logic [4:0] log2);
    f_stack_bytes = (log2 == '0) ? 32'd0 : 32'd1 << log2;
  endfunction


  // ---- Per-entry fields of the records ----
  // Bit offsets of cu_disp_t fields (packed: the last field is at bit 0);
  // Yosys 0.23 has no struct-typed variables in loops or generate blocks.
  localparam int unsigned OFF_CTA_ID = 7 + 7 + 6 + 32 + 16 + 16 + 32 + 3 * 11 + 5 + 32 + 32 + 32 + 11;
  localparam int unsigned CHW        = ppu_types_pkg::CHID_W;
  localparam int unsigned OFF_CHID   = OFF_CTA_ID + 32 + 23;
  localparam int unsigned OFF_TSLOT  = OFF_CHID + CHW + 8;
  localparam int unsigned OFF_NTHR   = OFF_CTA_ID - 11;
  localparam int unsigned OFF_ENTRY  = OFF_NTHR - 32;
  logic [CTX*ppu_types_pkg::CU_TSLOT_W-1:0] e_tslot;
  logic [CTX*32-1:0]                        e_ctaid;
  logic [CTX*CHW-1:0]                       e_chid;

  always_comb begin
    for (int e = 0; e < CTX; e++) begin
      e_tslot[e*ppu_types_pkg::CU_TSLOT_W +: ppu_types_pkg::CU_TSLOT_W] =
        rec_q[e][OFF_TSLOT +: ppu_types_pkg::CU_TSLOT_W];
      e_ctaid[e*32 +: 32] = rec_q[e][OFF_CTA_ID +: 32];
      e_chid[e*CHW +: CHW] = rec_q[e][OFF_CHID +: CHW];
    end
  end

`ifdef VERILATOR
  // The offsets and CU_DISP_W against the struct (Yosys cannot take $bits
  // of a package type).
  if ($bits(ppu_types_pkg::cu_disp_t) != DW || OFF_TSLOT + ppu_types_pkg::CU_TSLOT_W + 1 + 32 + 32 != DW)
  begin : g_bad_layout
    $error("ppu_cu_sched: cu_disp_t layout changed: update CU_DISP_W and the offsets");
  end
`endif

  // ---- Per-context views ----
  logic [CTX-1:0] is_free, ready, cfrozen;
  logic           sw_any;          // a context in SWAIT has no store left

  always_comb begin
    sw_any = 1'b0;
    for (int c = 0; c < CTX; c++) begin
      logic [3:0]    s;
      logic [CW-1:0] e;
      s = st_q[c*4 +: 4];
      e = cta_q[c*CW +: CW];
      is_free[c] = s == S_FREE;
      // (a preempted CTA's contexts release a held I-cache refill too)
      cfrozen[c] = !is_free[c] && (frozen_q[e] || pre_q[e]);
      ready[c]   = !frozen_q[e] &&
                   ((s == S_READY && (!pre_q[e] || resv_q[c])) || s == S_SAVE || s == S_RSTR);
      if (s == S_SWAIT && scnt_q[c*SW +: SW] == '0) sw_any = 1'b1;
    end
  end

  // Where a replayed instruction of a context goes back to (by its
  // micro-op mode, and for a header word whether its CTA is being saved).
  function automatic logic [3:0] f_home(input logic [1:0] um, input logic sav);
    f_home = (um == UM_SAVE) ? S_SAVE :
             (um == UM_RSTR) ? S_RSTR :
             (um == UM_HDR)  ? (sav ? S_SAVE : S_RSTR) : S_READY;
  endfunction

  assign ctx_state  = st_q;
  assign ctx_frozen = cfrozen;

  // ---- Pick ----
  always_comb begin
    logic found;
    found      = 1'b0;
    pick_ctx   = '0;
    for (int i = 1; i <= CTX; i++) begin
      logic [CW-1:0] c;
      c = CW'((32'(rr_q) + 32'(i)) % CTX);
      if (!found && ready[c]) begin
        found    = 1'b1;
        pick_ctx = c;
      end
    end
    pick_valid = found;
  end

  assign pick_pc   = pc_q[32'(pick_ctx)*32 +: 32];
  assign pick_done = resv_q[pick_ctx];

  // ---- Lookups ----
  /* verilator lint_off UNUSEDSIGNAL */   // views of records: some fields only
  ppu_types_pkg::cu_disp_t r1, r2, r3, rd;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [CW-1:0]           e1, e2, e3, ed;

  assign e1 = cta_q[32'(s1_ctx)*CW +: CW];
  assign r1 = rec_q[e1];
  assign l1_root   = r1.root;
  assign l1_uop    = um_q[32'(s1_ctx)*2 +: 2] != UM_NONE;
  always_comb begin
    uop_any = 1'b0;
    for (int c = 0; c < CTX; c++)
      if (!is_free[c] && um_q[c*2 +: 2] != UM_NONE) uop_any = 1'b1;
  end
  assign l1_k      = k_q[32'(s1_ctx)*5 +: 5];
  assign l1_ferr   = ferr_q[s1_ctx];
  assign l1_frozen = frozen_q[e1];

  assign e2 = cta_q[32'(l2_ctx)*CW +: CW];
  assign r2 = rec_q[e2];
  assign l2_tp    = f_tp(r2.stack_va, r2.stack_log2, tid_q[32'(l2_ctx)*TW +: TW]);
  assign l2_sp    = l2_tp + f_stack_bytes(r2.stack_log2);
  assign l2_param = r2.param;
  assign l2_tid   = 32'(tid_q[32'(l2_ctx)*TW +: TW]);

  assign e3 = cta_q[32'(l3_ctx)*CW +: CW];
  assign r3 = rec_q[e3];
  assign l3_frozen = frozen_q[e3];
  assign l3_snone  = scnt_q[32'(l3_ctx)*SW +: SW] == '0;
  assign l3_sfull  = scnt_q[32'(l3_ctx)*SW +: SW] >= SW'(SMAX);
  assign l3_res    = res_q[32'(l3_ctx)*32 +: 32];
  assign l3_rerr   = rerr_q[l3_ctx];
  assign l3_rkind  = rkind_q[32'(l3_ctx)*8 +: 8];
  assign l3_fkind  = fkind_q[32'(l3_ctx)*8 +: 8];
  assign l3_tid    = tid_q[32'(l3_ctx)*TW +: TW];
  assign l3_cta    = r3;
  assign l3_um     = um_q[32'(l3_ctx)*2 +: 2];
  assign l3_lrv    = lrv_q[l3_ctx];
  assign l3_k      = k_q[32'(l3_ctx)*5 +: 5];
  assign l3_tst    = tst_q[32'(l3_ctx)*2 +: 2];
  assign l3_rec    = (l3_um == UM_HDR) ? r3.hdr_va + 32'(ppu_hw_pkg::PPU_SLOT_HDR_BARRIER)
                                         : r3.save_va + (32'(tid_q[32'(l3_ctx)*TW +: TW]) <<
                                                         $clog2(ppu_hw_pkg::PPU_THREAD_RECORD_BYTES));
  assign l3_ust    = l3_um == UM_SAVE || (l3_um == UM_HDR && sav_q[e3]);
  assign l3_hwd    = {5'b0, wst_q[32'(e3)*TW +: TW], 5'b0, wv_q[32'(e3)*TW +: TW],
                      phase_q[e3], 4'b0, arr_q[32'(e3)*TW +: TW], 5'b0, live_q[32'(e3)*TW +: TW]};

  assign ed = cta_q[32'(dbg_ctx)*CW +: CW];
  assign rd = rec_q[ed];
  assign dbg_state  = st_q[32'(dbg_ctx)*4 +: 4];
  assign dbg_pc     = pc_q[32'(dbg_ctx)*32 +: 32];
  assign dbg_tid    = 32'(tid_q[32'(dbg_ctx)*TW +: TW]);
  assign dbg_tslot  = rd.tslot;
  assign dbg_cta_id = rd.cta_id;
  assign dbg_tp     = f_tp(rd.stack_va, rd.stack_log2, tid_q[32'(dbg_ctx)*TW +: TW]);
  assign dbg_sp     = dbg_tp + f_stack_bytes(rd.stack_log2);
  assign dbg_param  = rd.param;

  // ---- Dispatch ----
  logic [NW-1:0]      nfree;
  logic [CTX*NW-1:0]  rank;         // free contexts below c
  logic               efree_any;
  logic [CW-1:0]      efree_idx;    // lowest free entry
  logic               disp_go;
  logic [CTX-1:0]     dstart, wstart;  // threads started by a dispatch, by a wave load

  always_comb begin
    logic [NW-1:0] n;
    n = '0;
    for (int c = 0; c < CTX; c++) begin
      rank[c*NW +: NW] = n;
      if (is_free[c]) n = n + NW'(1);
    end
    nfree = n;
    efree_any = 1'b0;
    efree_idx = '0;
    for (int e = CTX - 1; e >= 0; e--) begin
      if (est_q[e*2 +: 2] == E_FREE) begin
        efree_any = 1'b1;
        efree_idx = CW'(e);
      end
    end
  end

  assign free_ctx   = nfree;
  // (a CTA in waves needs every context)
  assign disp_ready = efree_any && disp.nthreads != '0 &&
                      ((32'(disp.nthreads) > CTX) ? 32'(nfree) == CTX : 32'(disp.nthreads) <= 32'(nfree));
  assign disp_go    = disp_valid && disp_ready;
  assign ctx_start  = dstart | wstart;
  assign kill_ready = 1'b1;

  always_comb begin
    dstart = '0;
    if (disp_go)
      for (int c = 0; c < CTX; c++)
        dstart[c] = is_free[c] && 32'(rank[c*NW +: NW]) < 32'(disp.nthreads);
  end

  // ---- Events and faults: latch one at a time ----
  logic          done_any, fp_any;
  logic [CW-1:0] done_idx, fp_idx;

  always_comb begin
    done_any = 1'b0;
    done_idx = '0;
    fp_any   = 1'b0;
    fp_idx   = '0;
    for (int e = CTX - 1; e >= 0; e--) begin
      if (est_q[e*2 +: 2] == E_DONE) begin
        done_any = 1'b1;
        done_idx = CW'(e);
      end
      if (fpend_q[e]) begin
        fp_any = 1'b1;
        fp_idx = CW'(e);
      end
    end
  end

  logic ev_latch, ev_free, flt_latch;
  assign ev_latch  = !ev_busy_q && done_any;
  assign ev_free   = ev_busy_q && ev_ready;
  assign flt_latch = !flt_busy_q && fp_any;
  assign ev_valid  = ev_busy_q;
  assign ev        = ev_q;
  assign flt_valid = flt_busy_q;
  assign flt       = flt_q;

  // ---- Next state ----
  logic [CW-1:0] cm_e, sf_e;
  assign cm_e = cta_q[32'(cm_ctx)*CW +: CW];
  assign sf_e = cta_q[32'(sflt_ctx)*CW +: CW];

  always_comb begin
    logic [CTX-1:0] release_e;
    logic [CTX-1:0] quiet, allset, allsaved, save_go, allblk, wave_go, wave_ld, allwait, anykw;
    logic [CTX-1:0] wfresh, hdr_ld;
    logic           cm_wr, hw_ok, hw_bad, special;
    logic [CW-1:0]  ld_e;
    logic [17:0]    ti;
    logic [TW-1:0]  lv, ar;
    logic [CW-1:0]  ce;             // a context's entry and state in the sweeps below
    logic [3:0]     cs;

    st_d     = st_q;
    pc_d     = pc_q;
    cta_d    = cta_q;
    tid_d    = tid_q;
    rk_d     = rk_q;
    pk_d     = pk_q;
    mw_d     = mw_q;
    wsw_d    = wsw_q;
    wv_d     = wv_q;
    nwv_d    = nwv_q;
    wst_d    = wst_q;
    scnt_d   = scnt_q;
    res_d    = res_q;
    resv_d   = resv_q;
    rerr_d   = rerr_q;
    rkind_d  = rkind_q;
    ferr_d   = ferr_q;
    fkind_d  = fkind_q;
    um_d     = um_q;
    k_d      = k_q;
    tst_d    = tst_q;
    lrv_d    = lrv_q;
    est_d    = est_q;
    live_d   = live_q;
    arr_d    = arr_q;
    phase_d  = phase_q;
    frozen_d = frozen_q;
    killed_d = killed_q;
    pre_d    = pre_q;
    sav_d    = sav_q;
    wsv_d    = wsv_q;
    evk_d    = evk_q;
    fpend_d  = fpend_q;
    release_e = '0;
    wstart    = '0;
    ti        = '0;
    ce        = '0;
    cs        = '0;
    frec_sf   = 1'b0;
    frec_cm   = 1'b0;

    // -- S3 commit: CTA bookkeeping --
    lv = live_q[32'(cm_e)*TW +: TW];
    ar = arr_q[32'(cm_e)*TW +: TW];
    // (a thread of a wave loaded back was counted when it exited or
    // arrived: the counts of a CTA in waves stay on the unit)
    cm_wr = cm_valid && um_q[32'(cm_ctx)*2 +: 2] == UM_RSTR && mw_q[cm_e];
    if (cm_valid && cm_act == ppu_types_pkg::CU_A_EXIT && !cm_wr) begin
      live_d[32'(cm_e)*TW +: TW] = lv - TW'(1);
      if (lv == TW'(1)) begin
        est_d[32'(cm_e)*2 +: 2] = E_DONE;
        evk_d[32'(cm_e)*2 +: 2] = 2'(ppu_types_pkg::CU_EV_EXITED);
      end else if (ar != '0 && ar == lv - TW'(1)) begin
        release_e[cm_e] = 1'b1;
      end
    end
    if (cm_valid && cm_act == ppu_types_pkg::CU_A_BAR && !cm_wr) begin
      arr_d[32'(cm_e)*TW +: TW] = ar + TW'(1);
      if (ar + TW'(1) == lv) release_e[cm_e] = 1'b1;
    end
    for (int e = 0; e < CTX; e++) begin
      if (release_e[e]) begin
        arr_d[e*TW +: TW] = '0;
        phase_d[e]        = !phase_q[e];
      end
    end

    // -- Faults: S3 first, then a store fault; the first of a CTA only --
    if (sflt_valid && !frozen_q[sf_e] && est_q[32'(sf_e)*2 +: 2] == E_RUN) begin
      frozen_d[sf_e] = 1'b1;
      fpend_d[sf_e]  = 1'b1;
      frec_sf = 1'b1;
    end
    if (cm_valid && cm_act == ppu_types_pkg::CU_A_FAULT && !frozen_q[cm_e]) begin
      frozen_d[cm_e] = 1'b1;
      fpend_d[cm_e]  = 1'b1;
      frec_cm = 1'b1;
    end

    // -- Kill and preemption requests --
    if (kill_valid)
      for (int e = 0; e < CTX; e++) begin
        if (est_q[e*2 +: 2] == E_RUN &&
            e_tslot[e*ppu_types_pkg::CU_TSLOT_W +: ppu_types_pkg::CU_TSLOT_W] == kill.tslot &&
            e_ctaid[e*32 +: 32] == kill.cta_id) begin
          if (!kill.save) begin
            killed_d[e] = 1'b1;
            frozen_d[e] = 1'b1;
          end else if (!frozen_q[e]) begin
            pre_d[e] = 1'b1;
          end
        end
      end

    // Only an entry that is killed, preempted, saving, in waves or with a
    // thread waiting for its children can start or finish a save, switch a
    // wave or end below: without one, the sweeps over the contexts are
    // skipped (the same results; the simulation of a unit running plain
    // threads evaluates them no more).
    special = |(killed_q | pre_q | sav_q | mw_q);
    for (int c = 0; c < CTX; c++)
      if (st_q[c*4 +: 4] == S_KWAIT) special = 1'b1;

    // -- Quiesced killed CTAs are done; preempted ones start or finish
    //    their save --
    quiet    = '1;
    allset   = '1;
    allsaved = '1;
    allwait  = '1;
    anykw    = '0;
    allblk   = '1;
    if (special) for (int c = 0; c < CTX; c++) begin
      if (!is_free[c]) begin
        // a CTA whose live threads all wait (for children or at the
        // barrier), one for children, gives up its contexts (SAVED_WAIT)
        if (st_q[c*4 +: 4] != S_KWAIT && st_q[c*4 +: 4] != S_BAR && st_q[c*4 +: 4] != S_EXIT)
          allwait[cta_q[c*CW +: CW]] = 1'b0;
        if (st_q[c*4 +: 4] == S_KWAIT) anykw[cta_q[c*CW +: CW]] = 1'b1;
        if (st_q[c*4 +: 4] == S_PIPE || st_q[c*4 +: 4] == S_FWAIT || st_q[c*4 +: 4] == S_MWAIT ||
            scnt_q[c*SW +: SW] != '0)
          quiet[cta_q[c*CW +: CW]] = 1'b0;
        // settled: no store left and READY without a result, BAR, EXIT or
        // KWAIT (a sleeping WAIT_CHILDREN is saved as RUN at its ecall,
        // which it runs again when resumed)
        if (!(scnt_q[c*SW +: SW] == '0 &&
              ((st_q[c*4 +: 4] == S_READY && !resv_q[c]) || st_q[c*4 +: 4] == S_BAR ||
               st_q[c*4 +: 4] == S_EXIT || st_q[c*4 +: 4] == S_KWAIT)))
          allset[cta_q[c*CW +: CW]] = 1'b0;
        if (st_q[c*4 +: 4] != S_SAVED || scnt_q[c*SW +: SW] != '0)
          allsaved[cta_q[c*CW +: CW]] = 1'b0;
      end
    end
    // a wave is blocked when each of its threads waits at the barrier or
    // has exited (parked contexts count as exited), its stores acknowledged
    if (special) for (int c = 0; c < CTX; c++)
      if (!is_free[c] && (scnt_q[c*SW +: SW] != '0 ||
                          (st_q[c*4 +: 4] != S_BAR && st_q[c*4 +: 4] != S_EXIT)))
        allblk[cta_q[c*CW +: CW]] = 1'b0;
    // Header words of a resumed CTA in waves (context 0 loads them; a word
    // out of range goes back as a failed load, so the completion pass
    // faults it at its VA): then the saved wave is loaded.
    ld_e   = cta_q[32'(ld_ctx)*CW +: CW];
    hw_ok  = 1'b0;
    hw_bad = 1'b0;
    hdr_ld = '0;
    if (ld_valid && !ld_err && um_q[32'(ld_ctx)*2 +: 2] == UM_HDR && !frozen_q[ld_e]) begin
      if (k_q[32'(ld_ctx)*5 +: 5] == 5'd0) begin
        // LIVE | ARRIVED | PHASE
        if (ld_data[10:0] != '0 && ld_data[10:0] <= rec_q[ld_e][OFF_NTHR +: 11] &&
            ld_data[26:16] < ld_data[10:0] && ld_data[15:11] == '0 && ld_data[30:27] == '0) begin
          hw_ok = 1'b1;
          live_d[32'(ld_e)*TW +: TW] = ld_data[10:0];
          arr_d[32'(ld_e)*TW +: TW]  = ld_data[26:16];
          phase_d[ld_e]              = ld_data[31];
        end else begin
          hw_bad = 1'b1;
        end
      end else begin
        // WAVE | STARTED
        if (ld_data[26:16] <= nwv_q[32'(ld_e)*TW +: TW] && ld_data[10:0] < ld_data[26:16] &&
            ld_data[15:11] == '0 && ld_data[31:27] == '0) begin
          hw_ok = 1'b1;
          hdr_ld[ld_e]              = 1'b1;
          wv_d[32'(ld_e)*TW +: TW]  = ld_data[10:0];
          wst_d[32'(ld_e)*TW +: TW] = ld_data[26:16];
        end else begin
          hw_bad = 1'b1;
        end
      end
    end

    save_go = '0;
    wave_go = '0;
    wave_ld = '0;
    wfresh  = '0;
    wave_sw = 1'b0;
    if (special) for (int e = 0; e < CTX; e++) begin
      if (est_q[e*2 +: 2] == E_RUN && mw_q[e] && !frozen_q[e] && !killed_q[e]) begin
        // the resident wave is blocked: save it ... (not when the CTA is
        // to be saved off the unit)
        if (!wsw_q[e] && allblk[e] && !pre_q[e] && !sav_q[e]) begin
          wave_go[e] = 1'b1;
          wsw_d[e]   = 1'b1;
        end
        // ... and, saved, bring in the next one (fresh if it never ran)
        if (wsw_q[e] && allsaved[e]) begin
          wave_ld[e] = 1'b1;
          wave_sw    = 1'b1;
          wsw_d[e]   = 1'b0;
          wv_d[e*TW +: TW] = (wv_q[e*TW +: TW] + TW'(1) == nwv_q[e*TW +: TW]) ? '0
                                                                             : wv_q[e*TW +: TW] + TW'(1);
          wfresh[e] = wv_d[e*TW +: TW] >= wst_q[e*TW +: TW];
          if (wfresh[e]) wst_d[e*TW +: TW] = wst_q[e*TW +: TW] + TW'(1);
        end
        // resumed: the saved wave comes back from its records
        if (hdr_ld[e]) wave_ld[e] = 1'b1;
      end
      if (est_q[e*2 +: 2] == E_RUN) begin
        if (killed_q[e] && quiet[e]) begin
          est_d[e*2 +: 2] = E_DONE;
          evk_d[e*2 +: 2] = 2'(ppu_types_pkg::CU_EV_KILLED);
        end else if ((pre_q[e] || (allwait[e] && anykw[e])) &&
                     !frozen_q[e] && !sav_q[e] && !wsw_q[e] && allset[e]) begin
          save_go[e] = 1'b1;
          sav_d[e]   = 1'b1;
          wsv_d[e]   = !pre_q[e];
        end else if (sav_q[e] && !frozen_q[e] && allsaved[e]) begin
          est_d[e*2 +: 2] = E_DONE;
          evk_d[e*2 +: 2] = wsv_q[e] ? 2'(ppu_types_pkg::CU_EV_SAVED_WAIT)
                                     : 2'(ppu_types_pkg::CU_EV_SAVED);
        end
      end
    end

    // -- Contexts --
    // An event that names its context is applied to that context alone;
    // only the broadcasts (a refill done, a store drained, a barrier
    // released, a wake, a save or wave switch, an event out, a dispatch)
    // walk the contexts, and only in a cycle that has one.  In the order
    // the updates of one context have always had: a later one overrides.

    // LR reservation of the thread (a new or resumed thread has none)
    if (cm_valid && cm_lr) lrv_d[cm_ctx] = 1'b1;
    if (cm_valid && cm_sc) lrv_d[cm_ctx] = 1'b0;

    // outstanding stores
    if (cm_valid && (cm_act == ppu_types_pkg::CU_A_STORE ||
        (cm_act == ppu_types_pkg::CU_A_UOP &&
         (um_q[32'(cm_ctx)*2 +: 2] == UM_SAVE || um_q[32'(cm_ctx)*2 +: 2] == UM_HDR))))
      scnt_d[32'(cm_ctx)*SW +: SW] = scnt_d[32'(cm_ctx)*SW +: SW] + SW'(1);
    if (sack_valid)
      scnt_d[32'(sack_ctx)*SW +: SW] = scnt_d[32'(sack_ctx)*SW +: SW] - SW'(1);

    if (pick_valid)
      st_d[32'(pick_ctx)*4 +: 4] = S_PIPE;

    if (s1_back)
      st_d[32'(s1_ctx)*4 +: 4] = s1_fwait ? S_FWAIT
                               : f_home(um_q[32'(s1_ctx)*2 +: 2], sav_q[cta_q[32'(s1_ctx)*CW +: CW]]);

    if (rf_done)
      for (int c = 0; c < CTX; c++)
        if (st_q[c*4 +: 4] == S_FWAIT) st_d[c*4 +: 4] = S_READY;
    if (rf_fault) begin
      ferr_d[rf_ctx]              = 1'b1;
      fkind_d[32'(rf_ctx)*8 +: 8] = rf_kind;
    end

    if (sw_any)
      for (int c = 0; c < CTX; c++)
        if (st_q[c*4 +: 4] == S_SWAIT && scnt_q[c*SW +: SW] == '0) st_d[c*4 +: 4] = S_READY;

    if (release_e != '0)
      for (int c = 0; c < CTX; c++)
        if (st_q[c*4 +: 4] == S_BAR && release_e[cta_q[c*CW +: CW]]) begin
          st_d[c*4 +: 4]    = S_READY;
          resv_d[c]         = 1'b1;
          res_d[c*32 +: 32] = '0;
          rerr_d[c]         = 1'b0;
        end

    if (ld_valid && hw_ok) begin
      // a header word taken: the next one (the last starts the wave below)
      st_d[32'(ld_ctx)*4 +: 4] = S_RSTR;
      k_d[32'(ld_ctx)*5 +: 5]  = 5'd1;
    end else if (ld_valid) begin
      st_d[32'(ld_ctx)*4 +: 4]    = f_home(um_q[32'(ld_ctx)*2 +: 2], sav_q[ld_e]);
      resv_d[ld_ctx]              = 1'b1;
      res_d[32'(ld_ctx)*32 +: 32] = ld_data;
      rerr_d[ld_ctx]              = ld_err || hw_bad;
      rkind_d[32'(ld_ctx)*8 +: 8] = hw_bad ? K_BAD_HDR : ld_kind;
    end
    if (amo_valid) begin
      st_d[32'(amo_ctx)*4 +: 4]    = S_READY;
      resv_d[amo_ctx]              = 1'b1;
      res_d[32'(amo_ctx)*32 +: 32] = amo_data;
      rerr_d[amo_ctx]              = amo_err;
      rkind_d[32'(amo_ctx)*8 +: 8] = amo_kind;
    end
    if (dv_valid) begin
      st_d[32'(dv_ctx)*4 +: 4]    = S_READY;
      resv_d[dv_ctx]              = 1'b1;
      res_d[32'(dv_ctx)*32 +: 32] = dv_data;
      rerr_d[dv_ctx]              = 1'b0;
    end
    if (tp_valid) begin
      st_d[32'(tp_ctx)*4 +: 4]    = tp_sleep ? S_KWAIT : S_READY;
      resv_d[tp_ctx]              = !tp_sleep;
      res_d[32'(tp_ctx)*32 +: 32] = tp_data;
      rerr_d[tp_ctx]              = 1'b0;
    end
    // A wake goes after the answer: the table may send both in one cycle
    // (the last child completed as the WAIT was answered).
    if (kw_valid)
      for (int c = 0; c < CTX; c++) begin
        ce = cta_q[c*CW +: CW];
        if ((st_q[c*4 +: 4] == S_KWAIT || (tp_valid && tp_ctx == CW'(c) && tp_sleep)) &&
            e_tslot[32'(ce)*ppu_types_pkg::CU_TSLOT_W +: ppu_types_pkg::CU_TSLOT_W] == kw.tslot &&
            (kw.all || e_ctaid[32'(ce)*32 +: 32] == kw.cta_id))
          st_d[c*4 +: 4] = S_READY;
      end

    // S3 commit of the context's instruction
    if (cm_valid) begin
      unique case (cm_act)
        ppu_types_pkg::CU_A_NEXT, ppu_types_pkg::CU_A_STORE: begin
          st_d[32'(cm_ctx)*4 +: 4]   = S_READY;
          pc_d[32'(cm_ctx)*32 +: 32] = cm_pc;
          resv_d[cm_ctx]             = 1'b0;
        end
        ppu_types_pkg::CU_A_REPLAY:
          st_d[32'(cm_ctx)*4 +: 4] = f_home(um_q[32'(cm_ctx)*2 +: 2], sav_q[cm_e]);
        ppu_types_pkg::CU_A_UOP: begin
          if (um_q[32'(cm_ctx)*2 +: 2] == UM_SAVE) begin
            // two record words stored: the last ones?  (Exited threads are
            // saved whole too, so that a resume is invisible even to the
            // debug port.)
            if (k_q[32'(cm_ctx)*5 +: 5] == 5'd30 &&
                !(mw_q[cm_e] && sav_q[cm_e] && rk_q[32'(cm_ctx)*CW +: CW] == '0))
              st_d[32'(cm_ctx)*4 +: 4] = S_SAVED;
            else if (k_q[32'(cm_ctx)*5 +: 5] == 5'd30)
            begin
              // context 0 of a CTA in waves leaving the unit: the header next
              st_d[32'(cm_ctx)*4 +: 4] = S_SAVE;
              um_d[32'(cm_ctx)*2 +: 2] = UM_HDR;
            end
            else st_d[32'(cm_ctx)*4 +: 4] = S_SAVE;
          end else if (um_q[32'(cm_ctx)*2 +: 2] == UM_HDR) begin
            st_d[32'(cm_ctx)*4 +: 4] = S_SAVED;
          end else begin
            // a record word restored (word 0: the PC and thread state)
            st_d[32'(cm_ctx)*4 +: 4] = S_RSTR;
            resv_d[cm_ctx]           = 1'b0;
            if (k_q[32'(cm_ctx)*5 +: 5] == 5'd0) begin
              pc_d[32'(cm_ctx)*32 +: 32] = cm_pc;
              tst_d[32'(cm_ctx)*2 +: 2]  = cm_tst;
            end
          end
          k_d[32'(cm_ctx)*5 +: 5] = k_q[32'(cm_ctx)*5 +: 5] +
                                    ((um_q[32'(cm_ctx)*2 +: 2] == UM_SAVE) ? 5'd2 : 5'd1);
        end
        ppu_types_pkg::CU_A_SWAIT:  st_d[32'(cm_ctx)*4 +: 4] = S_SWAIT;
        ppu_types_pkg::CU_A_MWAIT:  st_d[32'(cm_ctx)*4 +: 4] = S_MWAIT;
        ppu_types_pkg::CU_A_EXIT:   st_d[32'(cm_ctx)*4 +: 4] = S_EXIT;
        ppu_types_pkg::CU_A_BAR: begin
          if ((cm_wr && (tst_q[32'(cm_ctx)*2 +: 2] == T_BAR1) != phase_q[cm_e]) || release_e[cm_e]) begin
            // loaded back after its barrier was released, or the last to
            // arrive: past it, a0 = 0
            st_d[32'(cm_ctx)*4 +: 4]    = S_READY;
            resv_d[cm_ctx]              = 1'b1;
            res_d[32'(cm_ctx)*32 +: 32] = '0;
            rerr_d[cm_ctx]              = 1'b0;
          end else begin
            st_d[32'(cm_ctx)*4 +: 4] = S_BAR;
          end
        end
        default: st_d[32'(cm_ctx)*4 +: 4] = S_FAULT;   // CU_A_FAULT
      endcase
      // the last step of a restore continues as the thread
      if (um_q[32'(cm_ctx)*2 +: 2] == UM_RSTR && (cm_act == ppu_types_pkg::CU_A_NEXT ||
          cm_act == ppu_types_pkg::CU_A_BAR || cm_act == ppu_types_pkg::CU_A_EXIT))
        um_d[32'(cm_ctx)*2 +: 2] = UM_NONE;
    end

    // A preempted CTA settled, or a blocked wave: every context stores its
    // record (a parked one has none).
    if ((save_go | wave_go) != '0)
      for (int c = 0; c < CTX; c++) begin
        ce = cta_q[c*CW +: CW];
        cs = st_q[c*4 +: 4];
        if ((save_go[ce] || wave_go[ce]) && !is_free[c] && pk_q[c]) begin
          st_d[c*4 +: 4] = S_SAVED;
          um_d[c*2 +: 2] = UM_SAVE;
        end else if ((save_go[ce] || wave_go[ce]) && !is_free[c]) begin
          st_d[c*4 +: 4]  = S_SAVE;
          um_d[c*2 +: 2]  = UM_SAVE;
          k_d[c*5 +: 5]   = 5'd0;
          tst_d[c*2 +: 2] = (cs == S_EXIT) ? T_EXIT : (cs == S_BAR) ? (phase_q[ce] ? T_BAR1 : T_BAR0)
                          : T_RUN;
        end
      end

    // The next wave: thread wv * CTX + rk on each context, loaded from its
    // record, started, or parked (the last wave may be shorter).
    if (wave_ld != '0)
      for (int c = 0; c < CTX; c++) begin
        ce = cta_q[c*CW +: CW];
        ti = 18'(wv_d[32'(ce)*TW +: TW]) * 18'(CTX) + 18'(rk_q[c*CW +: CW]);
        if (wave_ld[ce] && !is_free[c]) begin
          um_d[c*2 +: 2]    = UM_NONE;
          k_d[c*5 +: 5]     = 5'd0;
          tst_d[c*2 +: 2]   = T_RUN;
          lrv_d[c]          = 1'b0;
          resv_d[c]         = 1'b0;
          rerr_d[c]         = 1'b0;
          ferr_d[c]         = 1'b0;
          tid_d[c*TW +: TW] = TW'(ti);
          pk_d[c]           = 1'b0;
          if (ti >= 18'(rec_q[ce][OFF_NTHR +: 11])) begin
            st_d[c*4 +: 4] = S_EXIT;
            pk_d[c]        = 1'b1;
          end else if (wfresh[ce]) begin
            st_d[c*4 +: 4]   = S_READY;
            pc_d[c*32 +: 32] = rec_q[ce][OFF_ENTRY +: 32];
            wstart[c]        = 1'b1;
          end else begin
            st_d[c*4 +: 4]   = S_RSTR;
            um_d[c*2 +: 2]   = UM_RSTR;
            wstart[c]        = 1'b1;
          end
        end
      end

    // The CTA's event went out: its contexts are free.
    if (ev_free)
      for (int c = 0; c < CTX; c++)
        if (!is_free[c] && cta_q[c*CW +: CW] == ev_idx_q) st_d[c*4 +: 4] = S_FREE;

    // New threads.
    if (disp_go)
      for (int c = 0; c < CTX; c++)
        if (dstart[c]) begin
          st_d[c*4 +: 4]    = disp.resume ? S_RSTR : S_READY;
          um_d[c*2 +: 2]    = disp.resume ? UM_RSTR : UM_NONE;
          k_d[c*5 +: 5]     = 5'd0;
          tst_d[c*2 +: 2]   = T_RUN;
          lrv_d[c]          = 1'b0;
          pc_d[c*32 +: 32]  = disp.entry_pc;
          cta_d[c*CW +: CW] = efree_idx;
          tid_d[c*TW +: TW] = TW'(rank[c*NW +: NW]);
          rk_d[c*CW +: CW]  = CW'(rank[c*NW +: NW]);
          pk_d[c]           = 1'b0;
          resv_d[c]         = 1'b0;
          rerr_d[c]         = 1'b0;
          ferr_d[c]         = 1'b0;
          // a CTA in waves resumes with its header (context 0), the others
          // parked until its saved wave is loaded
          if (disp.resume && 32'(disp.nthreads) > CTX) begin
            um_d[c*2 +: 2] = (rank[c*NW +: NW] == '0) ? UM_HDR : UM_NONE;
            if (rank[c*NW +: NW] != '0) begin
              st_d[c*4 +: 4] = S_EXIT;
              pk_d[c]        = 1'b1;
            end
          end
        end

    // -- Entries: latch/free events, latch faults, new CTA --
    if (ev_latch) est_d[32'(done_idx)*2 +: 2] = E_EVENT;
    if (ev_free) begin
      est_d[32'(ev_idx_q)*2 +: 2] = E_FREE;
      fpend_d[ev_idx_q]           = 1'b0;
    end
    if (flt_latch) fpend_d[fp_idx] = 1'b0;
    if (disp_go) begin
      est_d[32'(efree_idx)*2 +: 2]     = E_RUN;
      live_d[32'(efree_idx)*TW +: TW]  = TW'(disp.nthreads);
      arr_d[32'(efree_idx)*TW +: TW]   = '0;
      mw_d[efree_idx]                  = 32'(disp.nthreads) > CTX;
      wsw_d[efree_idx]                 = 1'b0;
      wv_d[32'(efree_idx)*TW +: TW]    = '0;
      nwv_d[32'(efree_idx)*TW +: TW]   = TW'((32'(disp.nthreads) + CTX - 1) / CTX);
      wst_d[32'(efree_idx)*TW +: TW]   = TW'(1);
      phase_d[efree_idx]               = 1'b0;
      frozen_d[efree_idx]              = 1'b0;
      killed_d[efree_idx]              = 1'b0;
      pre_d[efree_idx]                 = 1'b0;
      sav_d[efree_idx]                 = 1'b0;
      wsv_d[efree_idx]                 = 1'b0;
      fpend_d[efree_idx]               = 1'b0;
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      st_q       <= '0;
      pc_q       <= '0;
      cta_q      <= '0;
      tid_q      <= '0;
      rk_q       <= '0;
      pk_q       <= '0;
      mw_q       <= '0;
      wsw_q      <= '0;
      wv_q       <= '0;
      nwv_q      <= '0;
      wst_q      <= '0;
      scnt_q     <= '0;
      res_q      <= '0;
      resv_q     <= '0;
      rerr_q     <= '0;
      rkind_q    <= '0;
      ferr_q     <= '0;
      fkind_q    <= '0;
      um_q       <= '0;
      k_q        <= '0;
      tst_q      <= '0;
      lrv_q      <= '0;
      rr_q       <= CW'(CTX - 1);
      est_q      <= '0;
      for (int e = 0; e < CTX; e++) rec_q[e] <= '0;
      live_q     <= '0;
      arr_q      <= '0;
      phase_q    <= '0;
      frozen_q   <= '0;
      killed_q   <= '0;
      pre_q      <= '0;
      sav_q      <= '0;
      wsv_q      <= '0;
      evk_q      <= '0;
      fpend_q    <= '0;
      for (int e = 0; e < CTX; e++) frec_q[e] <= '0;
      ev_busy_q  <= 1'b0;
      ev_idx_q   <= '0;
      ev_q       <= '0;
      flt_busy_q <= 1'b0;
      flt_q      <= '0;
    end else begin
      st_q     <= st_d;
      pc_q     <= pc_d;
      cta_q    <= cta_d;
      tid_q    <= tid_d;
      rk_q     <= rk_d;
      pk_q     <= pk_d;
      mw_q     <= mw_d;
      wsw_q    <= wsw_d;
      wv_q     <= wv_d;
      nwv_q    <= nwv_d;
      wst_q    <= wst_d;
      scnt_q   <= scnt_d;
      res_q    <= res_d;
      resv_q   <= resv_d;
      rerr_q   <= rerr_d;
      rkind_q  <= rkind_d;
      ferr_q   <= ferr_d;
      fkind_q  <= fkind_d;
      um_q     <= um_d;
      k_q      <= k_d;
      tst_q    <= tst_d;
      lrv_q    <= lrv_d;
      est_q    <= est_d;
      if (disp_go) rec_q[efree_idx] <= disp;
      live_q   <= live_d;
      arr_q    <= arr_d;
      phase_q  <= phase_d;
      frozen_q <= frozen_d;
      killed_q <= killed_d;
      pre_q    <= pre_d;
      sav_q    <= sav_d;
      wsv_q    <= wsv_d;
      evk_q    <= evk_d;
      fpend_q  <= fpend_d;
      // (the pipeline's fault wins over a store's for the same CTA)
      if (frec_sf && !(frec_cm && cm_e == sf_e))
        frec_q[sf_e] <= {sflt_kind, 2'(ppu_types_pkg::ACC_WRITE), sflt_va, sflt_pc};
      if (frec_cm) frec_q[cm_e] <= {cm_kind, cm_access, cm_addr, cm_data};
      if (pick_valid) rr_q <= pick_ctx;

      if (ev_latch) begin
        ev_busy_q <= 1'b1;
        ev_idx_q  <= done_idx;
        ev_q      <= {evk_q[32'(done_idx)*2 +: 2],
                      e_tslot[32'(done_idx)*ppu_types_pkg::CU_TSLOT_W +: ppu_types_pkg::CU_TSLOT_W],
                      e_ctaid[32'(done_idx)*32 +: 32]};
      end else if (ev_free) begin
        ev_busy_q <= 1'b0;
      end

      if (flt_latch) begin
        flt_busy_q <= 1'b1;
        flt_q      <= {e_chid[32'(fp_idx)*CHW +: CHW], frec_q[fp_idx][66 +: 8], UNIT_COMPUTE,
                       frec_q[fp_idx][65:0]};
      end else if (flt_ready) begin
        flt_busy_q <= 1'b0;
      end
    end
  end

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
