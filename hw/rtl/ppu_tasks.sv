// SPDX-License-Identifier: MIT
// Priority task table (docs/compute-design.md §3) with preemption and
// eviction; children (device launches) are not built yet, their state is
// here so that they fit.
//
// State:
//  * Directory, one entry per hardware task id: state, channel, priority,
//    depth, pending-list link, TMD VA, active slot, and the parent/children
//    fields of device launches (held at 0 for now).  Free ids are a mask
//    with a find-first; each channel has a live count (ids it holds).
//  * Pending lists: per priority a singly linked FIFO through the
//    directory's `next`, with head, tail and a non-empty mask.
//  * Active slots (TASK_SLOTS): the TMD fields a CTA needs, NEXT_CTA,
//    CTAS_EXITED, and per save slot j (k of them, at most 32) its state
//    (FREE, RUN, KILLING, SAVING, SAVED, EXITED_KIDS), children count, CTA
//    id and CU.  The activation order of the slots is an "older than"
//    matrix: exact, where the design's 16-bit stamp wraps.
//
// One FSM owns the MMU client, the memory read client and the semaphore
// port, and does one of these at a time, in this order of precedence when
// idle: drop the pending tasks of killed channels (a walk of the lists),
// free a killed channel's slot once none of its CTAs is on a CU, complete
// a task whose CTAs have all exited, write the state of the task being
// evicted once none of its CTAs is on a CU, start an eviction, activate the
// head of the highest non-empty pending priority into a free slot, accept
// a host launch.
//
//  * Launch: a free id (else RETRY), read and check the 64-byte TMD (faults:
//    TMD_INVALID, unit TASKS, ADDR = TMD VA, DATA = offset of the first bad
//    word; translation and bus errors as they are), clamp PRIO to the
//    channel's bounds, depth 1, append to the priority's list, OK.
//  * Activation: pop the head, read the TMD again (unless it is the one the
//    last launch read: the buffer still holds it), check it again, fill the
//    slot.  Its CTAs can be dispatched from the next cycle.  A task that
//    was evicted reads its HW state back first (NEXT_CTA, CTAS_EXITED, slot
//    states, MAGIC; checked: TMD_INVALID at block + 0x40 otherwise) and the
//    header (CTA id) of each saved slot.
//  * Eviction (rule 2): every slot taken and a pending priority above the
//    lowest active task (ties: the youngest): that task stops dispatching,
//    its running CTAs are preempted (one request at a time), then its HW
//    state and saved slots' headers are written to its task block through
//    the semaphore port (32-bit releases), its slot freed, and it goes back
//    to the head of its priority's list.  One eviction at a time.
//  * Completion: read TMD 0x20..0x2f, release SEM_ADDR with SEM_PAYLOAD
//    (RELEASE_TIMESTAMP with FLAGS.SEM_TIMESTAMP) if FLAGS.SEM_RELEASE, pulse
//    nonstall[chid] if FLAGS.INTERRUPT, free the slot and the id.
//
// Dispatch (ppu_tasks_pick): the highest-priority active task with a saved
// CTA (resumed first, lowest j) or a CTA left and a free save slot j (the
// lowest); the CU with the most free contexts that fit (a CTA of more
// threads than CU_CONTEXTS: a whole CU, it runs in waves).  One CTA is held
// in the dispatch register at a time; free_ctx must already count a CTA
// accepted in an earlier cycle.  When the candidate fits no CU, rule 6
// preempts lower-priority CTAs ("Preemption" below).
//
// CTA events come back as {kind, tslot, cta_id}: the save slot is found by
// the CTA id among the slot's resident CTAs.  EXITED counts towards
// completion, KILLED does not, SAVED keeps the save slot (SAVED).
//
// Kill: while chan_kill[c] is high its tasks are not dispatched, completed
// or activated; its pending tasks are dropped; each of its resident CTAs is
// sent a kill (one at a time, to the CU it runs on) and its slots and ids
// are freed once every CTA has come back (EXITED or KILLED).  chan_clear[c]
// = c holds no task id.
//
// Trace: one record per cycle at most.  The FSM's event goes first; a CTA
// event is accepted only in a cycle without one, and a dispatch decided
// only in a cycle without either.
module ppu_tasks #(
  parameter int unsigned NUM_TASKS   = 64,
  parameter int unsigned TASK_SLOTS  = 8,
  parameter int unsigned NUM_CU      = 4,
  parameter int unsigned CU_CONTEXTS = 8,
  parameter int unsigned NC          = 16   // channels
) (
  input  logic                         clk,
  input  logic                         rst_n,
  // ---- host: launch ----
  input  logic                         cl_valid,
  output logic                         cl_ready,
  input  ppu_types_pkg::task_launch_t  cl_req,
  output logic                         cl_rsp_valid,      // pulse
  output ppu_types_pkg::task_status_e  cl_rsp_status,
  output logic [7:0]                   cl_rsp_tid,        // the task id with OK
  output logic                         can_accept,        // a task id is free
  // ---- host: channels ----
  input  logic [NC-1:0]                chan_kill,         // level, held until chan_clear
  output logic [NC-1:0]                chan_live,         // the channel holds task ids
  output logic [NC-1:0]                chan_clear,        // ... it holds none (and no CTA is on a CU)
  output logic [NC*8-1:0]              chan_tasks,        // task ids each channel holds
  output logic                         drain_valid,       // pulse: channel drain_ch's last id was freed
  output logic [$clog2(NC)-1:0]        drain_ch,
  output logic [NC-1:0]                nonstall,          // pulse: completion with FLAGS.INTERRUPT
  // ---- faults (unit TASKS, or SEM for the completion release) ----
  output logic                         xf_valid,
  input  logic                         xf_ready,
  output ppu_types_pkg::cu_fault_t     xf,
  // ---- MMU client ----
  output logic                         x_req_valid,
  input  logic                         x_req_ready,
  output ppu_types_pkg::xlate_req_t    x_req,
  input  logic                         x_rsp_valid,
  input  ppu_types_pkg::xlate_rsp_t    x_rsp,
  // ---- memory read client (8-byte beats) ----
  output logic                         rd_valid,
  input  logic                         rd_ready,
  output ppu_types_pkg::paddr_t        rd_pa,
  input  logic                         rd_rsp_valid,
  input  ppu_types_pkg::mem_rd_rsp_t   rd_rsp,
  // ---- semaphore unit (its task-completion port) ----
  output logic                         sem_valid,
  input  logic                         sem_ready,
  output ppu_types_pkg::sem_req_t      sem_req,
  input  logic                         sem_rsp_valid,
  input  ppu_types_pkg::sem_rsp_t      sem_rsp,
  // ---- compute units ----
  input  logic [NUM_CU*$clog2(CU_CONTEXTS+1)-1:0] free_ctx,   // free contexts per CU
  output logic [NUM_CU-1:0]            disp_valid,        // one per CU, shared payload
  input  logic [NUM_CU-1:0]            disp_ready,
  output ppu_types_pkg::cu_disp_t      disp,
  input  logic                         ev_valid,
  output logic                         ev_ready,
  input  ppu_types_pkg::cu_ev_t        ev,
  input  logic [((NUM_CU > 1) ? $clog2(NUM_CU) : 1)-1:0] ev_cu,  // for the trace only
  output logic [NUM_CU-1:0]            kill_valid,        // one per CU, shared payload
  input  logic [NUM_CU-1:0]            kill_ready,
  output ppu_types_pkg::cu_kill_t      kill,
  // device-runtime ecalls of running threads (LAUNCH, WAIT_CHILDREN), the
  // answers, and wakes of CTAs whose children are all done
  input  logic                         dreq_valid,
  output logic                         dreq_ready,
  input  ppu_types_pkg::cu_dreq_t      dreq,
  output logic                         drsp_valid,
  output ppu_types_pkg::cu_drsp_t      drsp,
  output logic                         kw_valid,
  output ppu_types_pkg::cu_wake_t      kw,
  output logic                         icache_inv,        // pulse: activation with ICACHE_INVALIDATE
  // ---- trace, perf, debug ----
  output ppu_types_pkg::trace_t        trace,
  output logic                         perf_launch,       // host launch accepted (OK)
  output logic                         perf_dispatch,     // CTA accepted by a CU
  output logic                         perf_complete,     // task completed
  output logic                         perf_preempt,      // CTA preemption requested
  output logic                         perf_resume,       // preempted CTA accepted back by a CU
  output logic                         perf_evict,        // task evicted
  output logic                         perf_dlaunch,      // device launch accepted
  output logic                         perf_ddepth,       // device launch past the depth limit
  output logic                         perf_derr,         // device launch failed otherwise
  output logic                         perf_wsave,        // CTA saved while waiting for children
  input  logic                         no_preempt,        // policy: never preempt
  input  logic                         no_evict,          // policy: never evict
  input  logic [7:0]                   dbg_tid,
  output ppu_types_pkg::task_dbg_t     dbg,
  // nothing in progress: no task id taken, the memory FSM idle
  output logic                         idle,
  // the next clock edge would change nothing here (ppu_compute stops this
  // block's clock then)
  output logic                         quiet,
  // invalidate handshake (ppu_inv_drain): mmu_inv (the engine's view of an
  // MMU invalidate) finds a read sequence that may use a translation from
  // before it; inv_hold until its last answer
  input  logic                         mmu_inv,
  output logic                         inv_hold
);

  // ---------------------------------------------------------------------
  // Sizes
  // ---------------------------------------------------------------------
  localparam int unsigned S      = TASK_SLOTS;
  localparam int unsigned TID_W  = $clog2(NUM_TASKS);
  localparam int unsigned TS_W   = (S > 1) ? $clog2(S) : 1;
  localparam int unsigned CU_W   = (NUM_CU > 1) ? $clog2(NUM_CU) : 1;
  localparam int unsigned CH_W   = $clog2(NC);
  localparam int unsigned CHID_W = ppu_types_pkg::CHID_W;
  localparam int unsigned LIVE_W = $clog2(NUM_TASKS + 1);
  localparam int unsigned KMAX   = ppu_hw_pkg::PPU_TASK_BLOCK_MAX_SLOTS;   // 32 save slots
  localparam int unsigned J_W    = $clog2(KMAX);
  // Threads per CTA: a CTA of more threads than CU_CONTEXTS holds a whole
  // unit and runs in waves (ppu_cu_sched).
  localparam int unsigned TMAX   = ppu_hw_pkg::PPU_MAX_CTA_THREADS;
  localparam int unsigned TSW    = ppu_types_pkg::CU_TSLOT_W;

  if (NUM_TASKS < 2 || NUM_TASKS > 256 || (NUM_TASKS & (NUM_TASKS - 1)) != 0) begin : g_bad_tasks
    $error("ppu_tasks: NUM_TASKS must be a power of two, 2..256");
  end
  if (S < 1 || S > (1 << TSW)) begin : g_bad_slots
    $error("ppu_tasks: TASK_SLOTS must be 1..2^CU_TSLOT_W");
  end
  if (NC < 2 || NC > 256 || (NC & (NC - 1)) != 0) begin : g_bad_nc
    $error("ppu_tasks: NC must be a power of two, 2..256");
  end
  if (NUM_CU < 1 || NUM_CU > 256 || CU_CONTEXTS < 1) begin : g_bad_cu
    $error("ppu_tasks: NUM_CU must be 1..256 and CU_CONTEXTS >= 1");
  end

  // ---------------------------------------------------------------------
  // Encodings from ppu_hw_pkg, sized
  // ---------------------------------------------------------------------
  localparam logic [7:0] K_BUS_ERROR   = 8'(ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR);
  localparam logic [7:0] K_TMD_INVALID = 8'(ppu_hw_pkg::PPU_FAULT_KIND_TMD_INVALID);
  localparam logic [3:0] U_TASKS       = 4'(ppu_hw_pkg::PPU_FAULT_UNIT_TASKS);
  localparam logic [3:0] U_SEM         = 4'(ppu_hw_pkg::PPU_FAULT_UNIT_SEM);

  localparam logic [7:0] TR_LAUNCH   = 8'(ppu_hw_pkg::PPU_TRACE_TASK_LAUNCH);
  localparam logic [7:0] TR_ACTIVATE = 8'(ppu_hw_pkg::PPU_TRACE_TASK_ACTIVATE);
  localparam logic [7:0] TR_DISPATCH = 8'(ppu_hw_pkg::PPU_TRACE_CTA_DISPATCH);
  localparam logic [7:0] TR_EXIT     = 8'(ppu_hw_pkg::PPU_TRACE_CTA_EXIT);
  localparam logic [7:0] TR_PREEMPT  = 8'(ppu_hw_pkg::PPU_TRACE_CTA_PREEMPT);
  localparam logic [7:0] TR_SAVED    = 8'(ppu_hw_pkg::PPU_TRACE_CTA_SAVED);
  localparam logic [7:0] TR_RESUME   = 8'(ppu_hw_pkg::PPU_TRACE_CTA_RESUME);
  localparam logic [7:0] TR_EVICT    = 8'(ppu_hw_pkg::PPU_TRACE_TASK_EVICT);
  localparam logic [7:0] TR_COMPLETE = 8'(ppu_hw_pkg::PPU_TRACE_TASK_COMPLETE);
  localparam logic [7:0] TR_FAIL     = 8'(ppu_hw_pkg::PPU_TRACE_LAUNCH_FAIL);

  localparam logic [31:0] ES_OK      = 32'(ppu_hw_pkg::PPU_ECALL_STATUS_OK);
  localparam logic [31:0] ES_EDEPTH  = 32'(ppu_hw_pkg::PPU_ECALL_STATUS_EDEPTH);
  localparam logic [31:0] ES_EINVAL  = 32'(ppu_hw_pkg::PPU_ECALL_STATUS_EINVAL);
  localparam logic [31:0] ES_ENOTASK = 32'(ppu_hw_pkg::PPU_ECALL_STATUS_ENOTASK);
  localparam logic [31:0] ES_EPRIO   = 32'(ppu_hw_pkg::PPU_ECALL_STATUS_EPRIO);

  localparam int unsigned F_SEM_RELEASE = ppu_hw_pkg::PPU_TMD_FLAGS_SEM_RELEASE__LSB;
  localparam int unsigned F_SEM_TS      = ppu_hw_pkg::PPU_TMD_FLAGS_SEM_TIMESTAMP__LSB;
  localparam int unsigned F_INTERRUPT   = ppu_hw_pkg::PPU_TMD_FLAGS_INTERRUPT__LSB;
  localparam int unsigned F_ICACHE_INV  = ppu_hw_pkg::PPU_TMD_FLAGS_ICACHE_INVALIDATE__LSB;
  localparam int unsigned F_LAST        = ppu_hw_pkg::PPU_TMD_FLAGS_ICACHE_INVALIDATE__MSB;
  localparam int unsigned PRIO_LSB      = ppu_hw_pkg::PPU_TMD_PRIORITY_PRIO__LSB;

  localparam int unsigned OP_W = ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__MSB
                                 - ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__LSB + 1;

  localparam logic [31:0] HDR_BYTES = 32'(ppu_hw_pkg::PPU_TASK_BLOCK_HEADER_BYTES);
  localparam int unsigned REC_SHIFT = $clog2(ppu_hw_pkg::PPU_THREAD_RECORD_BYTES);
  localparam logic [31:0] HW_OFF    = 32'(ppu_hw_pkg::PPU_TASK_BLOCK_HW_STATE);
  localparam logic [31:0] HDR_OFF   = 32'(ppu_hw_pkg::PPU_TASK_BLOCK_SLOT_HDR);
  localparam logic [31:0] MAGIC     = 32'(ppu_hw_pkg::PPU_TASK_HW_MAGIC_BASE);
  localparam logic [2:0]  SS_FREE   = 3'(ppu_hw_pkg::PPU_TASK_SLOT_FREE);
  localparam logic [2:0]  SS_SAVED  = 3'(ppu_hw_pkg::PPU_TASK_SLOT_SAVED);


  typedef enum logic [4:0] {
    S_IDLE,
    S_XREQ,      // translate the first beat's VA
    S_XWAIT,
    S_RD,        // read beats f_b0 .. f_b0 + f_nb - 1 of the TMD into buf
    S_L_CHECK,   // launch: check, clamp, append
    S_A_FILL,    // activation: check, fill the slot
    S_C_SEM,     // completion: release?
    S_C_SEMREQ,
    S_C_SEMWAIT,
    S_C_DONE,
    S_FAULT,     // report f_fault, then drop the task
    S_P_SCAN,    // kill: find the next non-empty priority (pw_p downwards)
    S_P_WALK,    // kill: walk its list, dropping killed channels' tasks
    S_E_SEMREQ,  // eviction: write word ew_idx of the HW state (or a slot header)
    S_E_SEMWAIT,
    S_E_DONE,    // eviction: free the slot, back to the head of the pending list
    S_A_HW,      // re-activation: check the HW state read back
    S_A_HDR,     // re-activation: a saved slot's header read back
    S_A_NEXT     // re-activation: read the next header, or done
  } fstate_e;

  typedef enum logic [2:0] {
    OP_LAUNCH,
    OP_ACT,
    OP_COMP,
    OP_EVICT,
    OP_HW,       // reading the HW state of a task with progress
    OP_HDR,      // reading one slot header
    OP_DLAUNCH   // device launch: the child's TMD
  } op_e;

  // ---------------------------------------------------------------------
  // State
  // ---------------------------------------------------------------------
  // directory
  ppu_types_pkg::task_state_e d_state [NUM_TASKS];
  logic [CH_W-1:0]  d_chid     [NUM_TASKS];
  logic [5:0]       d_prio     [NUM_TASKS];
  logic [6:0]       d_depth    [NUM_TASKS];
  logic [TID_W-1:0] d_next     [NUM_TASKS];
  logic [25:0]      d_tmd      [NUM_TASKS];   // TMD VA [31:6]
  logic [TS_W-1:0]  d_slot     [NUM_TASKS];
  // device launches (issue 13): always 0 for now
  logic             d_has_par  [NUM_TASKS];
  logic [TID_W-1:0] d_parent   [NUM_TASKS];
  logic [J_W-1:0]   d_par_j    [NUM_TASKS];
  logic [6:0]       d_children [NUM_TASKS];
  logic [NUM_TASKS-1:0] d_prog;             // evicted: its progress is in its task block
  // Evicted with children out: its CTAs' own counts (js_kids) were left
  // behind with the slot, so from then on its WAIT_CHILDREN waits for all
  // of the task's children (never too early; children never wait for a
  // parent, so never a deadlock).
  logic [NUM_TASKS-1:0] d_coarse;
  logic [NUM_TASKS-1:0] id_free;

  // pending lists
  logic [TID_W-1:0] p_head [64];
  logic [TID_W-1:0] p_tail [64];
  logic [63:0]      p_nonempty;

  // per channel
  logic [NC*LIVE_W-1:0] ch_live;           // per channel at c*LIVE_W (one vector: reset)
  logic [22:0]       ch_root     [NC];    // pt_root_t
  logic [6:0]        ch_maxdepth [NC];

  // active slots
  logic [S-1:0]     sl_used;              // reserved (activation on) or active
  logic [S-1:0]     sl_ready;             // filled: active
  // (* mem2reg *): the per-slot arrays are flops read through many ports;
  // as memories, Yosys 0.23's memory_share fails on them.
  (* mem2reg *) logic [TID_W-1:0] sl_tid    [S];
  (* mem2reg *) logic [CH_W-1:0]  sl_chid   [S];
  (* mem2reg *) logic [5:0]       sl_prio   [S];
  (* mem2reg *) logic [6:0]       sl_depth  [S];
  (* mem2reg *) logic [31:0]      sl_entry  [S];
  (* mem2reg *) logic [31:0]      sl_param  [S];
  (* mem2reg *) logic [31:0]      sl_gx     [S];
  (* mem2reg *) logic [15:0]      sl_gy     [S];
  (* mem2reg *) logic [15:0]      sl_gz     [S];
  (* mem2reg *) logic [10:0]      sl_cx     [S];
  (* mem2reg *) logic [10:0]      sl_cy     [S];
  (* mem2reg *) logic [10:0]      sl_cz     [S];
  (* mem2reg *) logic [10:0]      sl_t      [S];        // threads per CTA
  (* mem2reg *) logic [31:0]      sl_ncta   [S];
  (* mem2reg *) logic [4:0]       sl_slog2  [S];        // log2 STACK_BYTES, 0 = no stack
  (* mem2reg *) logic [KMAX-1:0]  sl_kmask  [S];        // save slots 0..k-1
  (* mem2reg *) logic [31:0]      sl_stack0 [S];        // stack of thread 0 of save slot 0
  (* mem2reg *) logic [31:0]      sl_rec0   [S];        // record of thread 0 of save slot 0
  (* mem2reg *) logic [31:0]      sl_block  [S];        // task block VA
  (* mem2reg *) logic [31:0]      sl_next   [S];        // NEXT_CTA
  (* mem2reg *) logic [31:0]      sl_exited [S];        // CTAS_EXITED
  logic [S*S-1:0]   older;                // bit a*S+b: slot a activated before slot b
  // Per save slot j of each active slot.  The HW-state slot states (FREE,
  // RUN, SAVED, SAVED_WAIT, EXITED_KIDS) are kept as one bit-plane per
  // state (FREE = no bit set), plus the table's own KILLING (kill sent,
  // event not yet back); so every test and update is a word operation.
  // Rows are per slot, element j at j*width (Yosys: no arrays of arrays).
  logic [S*KMAX-1:0]      jp_run;         // RUN: on a CU (slot s at s*KMAX)
  logic [S*KMAX-1:0]      jp_kill;        // KILLING: on a CU, kill sent
  logic [S*KMAX-1:0]      jp_kids;        // EXITED_KIDS: exited, its children not all done
  logic [S*KMAX-1:0]      jp_save;        // SAVING: on a CU, preemption requested
  logic [S*KMAX-1:0]      jp_saved;       // SAVED: its thread records in the task block
  logic [S*KMAX-1:0]      jp_savew;       // SAVED_WAIT: saved, its children not all done
  (* mem2reg *) logic [KMAX*8-1:0]      js_kids [S];    // children outstanding per j (issue 13)
  (* mem2reg *) logic [KMAX*32-1:0]     js_cta  [S];    // CTA id while RUN/KILLING
  (* mem2reg *) logic [KMAX*CU_W-1:0]   js_cu   [S];    // its CU
  // A slot's words of these as the logic below picks them by a variable
  // slot index: read once, outside the loops over j (a read inside such a
  // loop is a read of the whole word per j, which Yosys's proc turns into
  // a copy of the word per j: minutes on the task table alone).
  logic [KMAX*32-1:0]   ew_cta_w, dr_cta_w, ev_cta_w, d_cta_w, kp_cta_w, ep_cta_w, pd_cta_w;
  logic [KMAX*8-1:0]    dr_kids_w, pd_kids_w, ev_kids_w;
  logic [KMAX*CU_W-1:0] kp_cu_w, ep_cu_w;

  // FSM
  fstate_e          st;
  op_e              f_op;
  logic [TID_W-1:0] f_tid;
  logic [TS_W-1:0]  f_slot;
  logic [CH_W-1:0]  f_chid;
  logic [22:0]      f_root;
  logic [31:0]      f_va;                 // TMD VA
  logic [5:0]       f_pmin, f_pmax;
  logic [2:0]       f_b0;                 // first beat
  logic [3:0]       f_nb, f_iss, f_rcv;   // beats: count, issued, received
  ppu_types_pkg::paddr_t f_pa;            // PA of the first beat
  logic             f_err;
  logic [31:0]      f_err_va;
  ppu_types_pkg::cu_fault_t f_fault;
  logic [63:0]      buf_q [8];            // TMD beats
  logic             buf_v;                // buf_q holds the whole TMD of buf_tid
  logic [TID_W-1:0] buf_tid;
  logic [31:0]      f_rva;                // VA of the first beat read
  logic [1:0]       f_dst;                // where beats go: 0 TMD buffer, 1 hw_q, 2 hdr_q
  logic [63:0]      hw_q [3];             // HW state read back (0x40..0x57)
  logic [63:0]      hdr_q;                // a slot header read back
  logic [KMAX-1:0]  hr_mask;              // saved slots whose header is still to read
  // eviction (one at a time)
  logic             evc_busy;
  logic [TS_W-1:0]  evc_slot;
  logic [2:0]       ew_idx;               // HW-state word 0..5, then 6: slot headers
  logic [KMAX-1:0]  ew_mask;              // saved slots whose header is still to write
  logic [5:0]       pw_p;                 // purge walk
  logic [TID_W-1:0] pw_cur, pw_prev;
  logic             pw_hasprev;

  // the device launch under way: who asked
  logic [2:0]       f_dcu;
  logic [3:0]       f_dctx;

  // outputs registered
  logic             drsp_v_q, kw_v_q;
  logic             pf_dl_q, pf_dd_q, pf_de_q;
  ppu_types_pkg::cu_drsp_t drsp_q;
  ppu_types_pkg::cu_wake_t kw_q;
  logic             rsp_v_q;
  ppu_types_pkg::task_status_e rsp_st_q;
  logic [TID_W-1:0] rsp_tid_q;
  logic [NC-1:0]    nonstall_q;
  logic             drain_q;            // a_free took a channel's last id (one per cycle)
  logic [CH_W-1:0]  drain_ch_q;
  logic             icache_inv_q;
  ppu_types_pkg::trace_t trace_q;

  // dispatch register
  logic             dq_valid;
  logic [CU_W-1:0]  dq_cu;
  logic [TS_W-1:0]  dq_slot;
  // (not a state machine: Yosys 0.23's fsm_extract fails on it)
  (* fsm_encoding = "none" *)
  logic [J_W-1:0]   dq_j;
  ppu_types_pkg::cu_disp_t dq;

  // kill register
  logic             kq_valid;
  logic [CU_W-1:0]  kq_cu;
  logic             kq_save;              // a preemption, not a kill
  logic [TS_W-1:0]  kq_slot;
  logic [J_W-1:0]   kq_j;
  logic [31:0]      kq_cta;

  // ---------------------------------------------------------------------
  // Small helpers
  // ---------------------------------------------------------------------
  logic [NC-1:0] killed;
  assign killed = chan_kill;

  // Index of the lowest set bit of a NUM_TASKS-bit mask (0 if none), by
  // halving: log2 steps rather than one per bit.
  function automatic logic [TID_W-1:0] ffs_id(input logic [NUM_TASKS-1:0] m);
    logic [NUM_TASKS-1:0] x;
    logic [TID_W-1:0]     r;
    x = m;
    r = '0;
    for (int l = TID_W - 1; l >= 0; l--) begin
      // the lower half of the current window is empty: go to the upper half
      if ((x & ((NUM_TASKS'(1) << (1 << l)) - NUM_TASKS'(1))) == '0) begin
        r[l] = 1'b1;
        x    = x >> (1 << l);
      end
    end
    ffs_id = r;
  endfunction

  function automatic logic [J_W:0] ffs32(input logic [KMAX-1:0] m);   // MSB set: none
    logic [J_W:0] r;
    r = '1;
    for (int j = KMAX - 1; j >= 0; j--)
      if (m[j]) r = {1'b0, J_W'(j)};
    ffs32 = r;
  endfunction

  // ---------------------------------------------------------------------
  // TMD words and their check (combinational on buf_q)
  // ---------------------------------------------------------------------
  logic [31:0] w [16];
  always_comb
    for (int i = 0; i < 16; i++) w[i] = buf_q[i/2][(i%2)*32 +: 32];

  logic [47:0] v_gxy, v_gxyz;
  logic [21:0] v_cxy, v_cxyz;
  logic        v_pow2;
  logic [35:0] v_need;
  logic [15:0] v_bad;
  logic        v_any;
  logic [5:0]  v_off;       // byte offset of the first bad word
  logic [10:0] v_t;
  logic [4:0]  v_slog2;
  logic [KMAX-1:0] v_kmask;
  logic [31:0] v_stack0;
  logic [32:0] v_kmask33;
  logic [31:0] v_rec0;
  logic v_on;   // the check is only looked at in these states (saves simulation time)
  assign v_on = st == S_L_CHECK || st == S_A_FILL;
  always_comb begin
    v_gxy   = '0;
    v_gxyz  = '0;
    v_cxy   = '0;
    v_cxyz  = '0;
    v_pow2  = 1'b0;
    v_need  = '0;
    v_bad   = '0;
    v_t     = '0;
    v_slog2 = '0;
    v_kmask33 = '0;
    v_stack0  = '0;
    v_rec0    = '0;
    v_any     = 1'b0;
    v_off     = '0;
    if (v_on) begin
      v_gxy   = 48'(w[1]) * 48'(w[2][15:0]);
      v_gxyz  = 48'(v_gxy[31:0]) * 48'(w[3][15:0]);
      v_cxy   = 22'(w[4][10:0]) * 22'(w[5][10:0]);
      v_cxyz  = 22'(v_cxy[10:0]) * 22'(w[6][10:0]);
      v_pow2  = (w[12] & (w[12] - 32'd1)) == 32'd0;
      v_need  = 36'(HDR_BYTES) + ((36'(w[13][5:0]) * 36'(v_cxyz[10:0])) * (36'(w[12][16:0]) + 36'd128));
      v_bad[0]     = w[0][1:0] != 2'b0;
      v_bad[1]     = w[1] == 32'd0;
      v_bad[2]     = w[2] == 32'd0 || w[2] > 32'd65535 || v_gxy[47:32] != 16'd0;
      v_bad[3]     = w[3] == 32'd0 || w[3] > 32'd65535 || v_gxyz[47:32] != 16'd0;
      v_bad[4]     = w[4] == 32'd0 || w[4] > 32'(TMAX);
      v_bad[5]     = w[5] == 32'd0 || w[5] > 32'(TMAX) || 32'(v_cxy) > 32'(TMAX);
      v_bad[6]     = w[6] == 32'd0 || w[6] > 32'(TMAX) || 32'(v_cxyz) > 32'(TMAX);
      v_bad[9]     = w[9][31:F_LAST+1] != '0;
      v_bad[10]    = w[9][F_SEM_RELEASE] &&
                     (w[10][1:0] != 2'b0 || (w[9][F_SEM_TS] && w[10][3:2] != 2'b0));
      v_bad[12]    = !(w[12] == 32'd0 || (v_pow2 && w[12] >= 32'd64 && w[12] <= 32'd65536));
      v_bad[13]    = w[13] == 32'd0 || w[13] > 32'(KMAX);
      v_bad[14]    = 36'(w[14]) < v_need;
      v_bad[15]    = w[15][5:0] != 6'b0;
      v_any = v_bad != '0;
      for (int i = 15; i >= 0; i--)
        if (v_bad[i]) v_off = 6'(i * 4);
      v_t     = v_cxyz[10:0];
      for (int b = 6; b <= 16; b++)
        if (w[12][b]) v_slog2 = 5'(b);
      v_kmask33 = (33'd1 << w[13][5:0]) - 33'd1;
      v_stack0  = w[15] + HDR_BYTES + ((32'(w[13][5:0]) * 32'(v_t)) << REC_SHIFT);
      v_rec0    = w[15] + HDR_BYTES;
    end
    v_kmask = v_kmask33[KMAX-1:0];
  end

  // PRIO clamped to the launching channel's bounds
  logic [5:0] c_prio;
  always_comb begin
    c_prio = w[8][PRIO_LSB +: 6];
    if (c_prio > f_pmax) c_prio = f_pmax;
    if (c_prio < f_pmin) c_prio = f_pmin;
  end

  // VA of the first beat of the read under way
  logic [31:0] rd_va0;
  assign rd_va0 = (f_dst == 2'd0) ? f_va + 32'({f_b0, 3'b0}) : f_rva;

  // ---------------------------------------------------------------------
  // HW state of an evicted task (docs/formats.md "Task block"): written
  // at eviction, read back and checked at its re-activation
  // ---------------------------------------------------------------------
  logic [31:0]     hw_next, hw_exited, hw_magic;
  logic [95:0]     hw_ss;
  logic [KMAX-1:0] hw_saved;
  logic [5:0]      hw_bad;
  logic [5:0]      hw_bad_off;
  logic [J_W:0]    hr_ff;
  logic [J_W-1:0]  hr_cur;
  always_comb begin
    logic [6:0] nsaved;
    logic       badst;
    hw_next   = hw_q[0][31:0];
    hw_exited = hw_q[0][63:32];
    hw_ss     = {hw_q[2][31:0], hw_q[1]};
    hw_magic  = hw_q[2][63:32];
    nsaved    = '0;
    badst     = 1'b0;
    for (int j = 0; j < KMAX; j++) begin
      hw_saved[j] = hw_ss[3*j +: 3] == SS_SAVED;
      nsaved      = nsaved + 7'(hw_saved[j]);
      if (hw_ss[3*j +: 3] != SS_FREE && !hw_saved[j]) badst = 1'b1;
    end
    hw_bad[0] = hw_magic != (MAGIC | 32'(f_tid));
    hw_bad[1] = badst || (hw_saved & ~sl_kmask[f_slot]) != '0;
    hw_bad[2] = hw_next > sl_ncta[f_slot];
    hw_bad[3] = hw_exited > hw_next;
    hw_bad[4] = hw_next - hw_exited != 32'(nsaved);
    hw_bad[5] = 1'b0;
    hw_bad_off = hw_bad[0] ? 6'h14 : hw_bad[1] ? 6'h08 : hw_bad[2] ? 6'h00 :
                 hw_bad[3] ? 6'h04 : 6'h08;
    hr_ff    = ffs32(hr_mask);
    hr_cur   = hr_ff[J_W-1:0];
  end

  // The word eviction writes next (ew_idx): NEXT_CTA, CTAS_EXITED, the
  // three slot-state words, MAGIC, then each saved slot's header (CTA id).
  logic [31:0]    ew_va, ew_data;
  logic [95:0]    ew_ss;
  logic [J_W:0]   ew_ff;
  logic [J_W-1:0] ew_j;
  always_comb begin
    ew_cta_w = js_cta[f_slot];
    ew_ss = '0;
    for (int j = 0; j < KMAX; j++)
      if (jp_saved[32'(f_slot)*KMAX + j] || jp_savew[32'(f_slot)*KMAX + j])
        ew_ss[3*j +: 3] = SS_SAVED;
    ew_ff = ffs32(ew_mask);
    ew_j  = ew_ff[J_W-1:0];
    ew_va   = sl_block[f_slot] + HW_OFF + 32'({ew_idx, 2'b00});
    unique case (ew_idx)
      3'd0:    ew_data = sl_next[f_slot];
      3'd1:    ew_data = sl_exited[f_slot];
      3'd2:    ew_data = ew_ss[31:0];
      3'd3:    ew_data = ew_ss[63:32];
      3'd4:    ew_data = ew_ss[95:64];
      3'd5:    ew_data = MAGIC | 32'(f_tid);
      default: begin
        ew_va   = sl_block[f_slot] + HDR_OFF + 32'({ew_j, 4'b0});
        ew_data = '0;
        for (int j = 0; j < KMAX; j++)
          if (ew_j == J_W'(j)) ew_data = ew_cta_w[j*32 +: 32];
      end
    endcase
  end

  // ---------------------------------------------------------------------
  // Per save slot masks
  // ---------------------------------------------------------------------
  logic [KMAX-1:0] m_free  [S];   // FREE and below k
  logic [KMAX-1:0] m_run   [S];   // RUN
  logic [KMAX-1:0] m_live  [S];   // RUN, KILLING or SAVING: on a CU
  logic [KMAX-1:0] m_saved [S];   // SAVED
  always_comb begin
    for (int s = 0; s < S; s++) begin
      m_free[s]  = ~(jp_run[s*KMAX +: KMAX] | jp_kill[s*KMAX +: KMAX] | jp_kids[s*KMAX +: KMAX] |
                     jp_save[s*KMAX +: KMAX] | jp_saved[s*KMAX +: KMAX] |
                     jp_savew[s*KMAX +: KMAX]) & sl_kmask[s];
      m_run[s]   = jp_run[s*KMAX +: KMAX];
      m_live[s]  = jp_run[s*KMAX +: KMAX] | jp_kill[s*KMAX +: KMAX] | jp_save[s*KMAX +: KMAX];
      m_saved[s] = jp_saved[s*KMAX +: KMAX];
    end
  end

  // ---------------------------------------------------------------------
  // Policy
  // ---------------------------------------------------------------------
  logic [S-1:0]    slot_disp;
  logic [S*6-1:0]  slot_prio_f;
  logic [S*11-1:0] slot_need_f;
  always_comb begin
    for (int s = 0; s < S; s++) begin
      slot_disp[s] = sl_ready[s] && !killed[sl_chid[s]] && !(evc_busy && evc_slot == TS_W'(s)) &&
                     ((sl_next[s] < sl_ncta[s] && m_free[s] != '0) || m_saved[s] != '0);
      slot_prio_f[s*6 +: 6]   = sl_prio[s];
      slot_need_f[s*11 +: 11] = (32'(sl_t[s]) > CU_CONTEXTS) ? 11'(CU_CONTEXTS) : sl_t[s];
    end
  end

  logic            act_valid;
  logic [5:0]      act_prio;
  logic [TS_W-1:0] act_slot;
  logic            cand_valid, place_valid;
  logic [TS_W-1:0] cand_slot;
  logic [CU_W-1:0] place_cu;

  ppu_tasks_pick #(.TASK_SLOTS(S), .NUM_CU(NUM_CU), .CU_CONTEXTS(CU_CONTEXTS)) u_pick (
    .pend_nonempty(p_nonempty), .slot_used(sl_used),
    .act_valid, .act_prio, .act_slot,
    .slot_disp, .slot_prio(slot_prio_f), .slot_need(slot_need_f), .older, .free_ctx,
    .cand_valid, .cand_slot, .place_valid, .place_cu
  );

  // ---------------------------------------------------------------------
  // What the idle FSM may do
  // ---------------------------------------------------------------------
  logic            purge_need;      // a pending task of a killed channel
  logic            clean_need;      // a killed channel's slot with nothing on a CU
  logic [TS_W-1:0] clean_slot;
  logic            comp_need;       // every CTA of an active task exited
  logic [TS_W-1:0] comp_slot;
  logic [TID_W:0]  free_id;         // MSB set: none
  always_comb begin
    purge_need = 1'b0;
    if (killed != '0)
      for (int t = 0; t < NUM_TASKS; t++)
        if (!id_free[t] && d_state[t] == ppu_types_pkg::TASK_ST_PENDING && killed[d_chid[t]])
          purge_need = 1'b1;
    clean_need = 1'b0;
    clean_slot = '0;
    comp_need  = 1'b0;
    comp_slot  = '0;
    for (int s = S - 1; s >= 0; s--) begin
      if (sl_ready[s] && killed[sl_chid[s]] && m_live[s] == '0 &&
          !(kq_valid && kq_slot == TS_W'(s)) && !(dq_valid && dq_slot == TS_W'(s))) begin
        clean_need = 1'b1;
        clean_slot = TS_W'(s);
      end
      if (sl_ready[s] && !killed[sl_chid[s]] && sl_exited[s] == sl_ncta[s] &&
          d_children[sl_tid[s]] == 7'd0) begin
        comp_need = 1'b1;
        comp_slot = TS_W'(s);
      end
    end
    free_id = {id_free == '0, ffs_id(id_free)};
  end

  // Eviction (rule 2): every slot taken and the highest pending priority
  // above the lowest active task (ties: the youngest activation), which is
  // then evicted: its running CTAs preempted, its HW state and the headers
  // of its saved slots written to its task block (ewr_need), its slot freed.
  logic            evict_start, ewr_need;
  logic            evv;
  logic [TS_W-1:0] evs;
  always_comb begin
    evv = 1'b0;
    evs = '0;
    for (int s = 0; s < S; s++)
      if (sl_ready[s] && !killed[sl_chid[s]] &&
          d_state[sl_tid[s]] == ppu_types_pkg::TASK_ST_ACTIVE &&
          (!evv || sl_prio[s] < sl_prio[evs] ||
           (sl_prio[s] == sl_prio[evs] && older[32'(evs)*S + s]))) begin
        evv = 1'b1;
        evs = TS_W'(s);
      end
    evict_start = !no_evict && !evc_busy && (&sl_used) && evv && p_nonempty != '0 && act_prio > sl_prio[evs];
    ewr_need    = evc_busy && sl_ready[evc_slot] && !killed[sl_chid[evc_slot]] &&
                  m_live[evc_slot] == '0 && !(dq_valid && dq_slot == evc_slot) &&
                  !(kq_valid && kq_slot == evc_slot);
  end

  // ---------------------------------------------------------------------
  // Device-runtime requests: the asking CTA's save slot (by its CTA id
  // among the slot's resident CTAs) and the checks of a LAUNCH
  // ---------------------------------------------------------------------
  logic [TS_W-1:0]  dr_slot;
  logic [KMAX-1:0]  dr_match;
  logic [J_W:0]     dr_ff;
  logic             dr_hit;
  logic [J_W-1:0]   dr_j;
  logic [7:0]       dr_kids;             // the CTA's children outstanding
  logic [31:0]      dr_fail;             // LAUNCH refused at once: the status (0: go on)
  always_comb begin
    // (the slot's words are read only with a request: simulation time)
    dr_slot   = dreq.tslot[TS_W-1:0];
    dr_cta_w  = '0;
    dr_kids_w = '0;
    dr_match  = '0;
    dr_ff     = '1;
    dr_kids   = '0;
    if (dreq_valid) begin
      dr_cta_w  = js_cta[dr_slot];
      dr_kids_w = js_kids[dr_slot];
      for (int j = 0; j < KMAX; j++)
        dr_match[j] = m_live[dr_slot][j] && dr_cta_w[j*32 +: 32] == dreq.cta_id;
      dr_ff = ffs32(dr_match);
      for (int j = 0; j < KMAX; j++)
        if (dr_ff[J_W-1:0] == J_W'(j)) dr_kids = dr_kids_w[j*8 +: 8];
    end
    dr_hit  = !dr_ff[J_W] && sl_ready[dr_slot];
    dr_j    = dr_ff[J_W-1:0];
    // in the order of docs/compute-design.md §5
    if (!dr_hit || killed[sl_chid[dr_slot]])
      dr_fail = ES_EINVAL;
    else if (32'(sl_depth[dr_slot]) + 32'd1 > 32'(ch_maxdepth[sl_chid[dr_slot]]))
      dr_fail = ES_EDEPTH;
    else if (sl_prio[dr_slot] == 6'd63)
      dr_fail = ES_EPRIO;
    else if (dreq.arg[5:0] != 6'd0)
      dr_fail = ES_EINVAL;
    else if (free_id[TID_W] || dr_kids == 8'hff || d_children[sl_tid[dr_slot]] == 7'h7f)
      dr_fail = ES_ENOTASK;
    else
      dr_fail = ES_OK;
  end

  // ---------------------------------------------------------------------
  // FSM decisions (combinational), applied below
  // ---------------------------------------------------------------------
  fstate_e          st_n;
  logic             a_take;                // take free_id for the launch in cl_req
  logic             a_free;                // free a task id (and its slot if it has one)
  logic [TID_W-1:0] a_free_tid;
  logic             a_slot_free;
  logic [TS_W-1:0]  a_slot_idx;
  logic             a_rsp;
  ppu_types_pkg::task_status_e a_rsp_st;
  logic             a_start;               // start a TMD read
  logic [2:0]       a_b0;
  logic [3:0]       a_nb;
  logic             a_append;              // f_tid to the tail of c_prio
  logic             a_pop;                 // head of act_prio into act_slot
  logic             a_fill;                // fill f_slot from buf
  logic             a_fault;               // load f_fault with a_fault_rec
  ppu_types_pkg::cu_fault_t a_fault_rec;
  logic             a_nonstall;
  logic             a_walk_keep;           // purge walk: keep pw_cur
  logic             tr_fsm_v;
  ppu_types_pkg::trace_t tr_fsm;
  logic             a_comp;                // start a completion of comp_slot
  logic             a_fail_tmd;            // fault: misaligned TMD VA at accept
  logic             a_evict_start;         // evict the lowest active task (evs)
  logic             a_ewr;                 // start writing the evicted task's state
  logic             a_evict_done;          // evicted: to the head of its pending list
  logic             a_hw_ok;               // re-activation: HW state checked, taken
  logic             a_hdr;                 // re-activation: a header taken
  logic             a_act_done;            // re-activation complete: the slot is ready
  logic             a_dtake;               // take free_id for the device launch in dreq
  logic             a_dfail;               // answer dreq at once with dr_fail
  logic             a_drsp;                // answer the device launch under way ...
  logic [31:0]      a_drsp_a0;             // ... with this status
  logic             a_rd;                  // start a read of f_nb beats at a_rva into a_dst
  logic [31:0]      a_rva;
  logic [1:0]       a_dst;

  logic [TID_W-1:0] head_act;
  logic             w_last, w_dead;        // purge walk at pw_cur
  assign head_act = p_head[act_prio];
  assign w_last   = pw_cur == p_tail[pw_p];
  assign w_dead   = killed[d_chid[pw_cur]];

  always_comb begin
    st_n        = st;
    a_take      = 1'b0;
    a_free      = 1'b0;
    a_free_tid  = f_tid;
    a_slot_free = 1'b0;
    a_slot_idx  = f_slot;
    a_rsp       = 1'b0;
    a_rsp_st    = ppu_types_pkg::TASK_LAUNCH_OK;
    a_start     = 1'b0;
    a_b0        = 3'd0;
    a_nb        = 4'd8;
    a_append    = 1'b0;
    a_pop       = 1'b0;
    a_fill      = 1'b0;
    a_fault     = 1'b0;
    a_fault_rec = '0;
    a_fault_rec.chid = CHID_W'(f_chid);
    a_fault_rec.unit = U_TASKS;
    a_fault_rec.access = ppu_types_pkg::ACC_READ;
    a_nonstall  = 1'b0;
    a_walk_keep = 1'b0;
    a_comp      = 1'b0;
    a_fail_tmd  = 1'b0;
    a_ewr       = 1'b0;
    a_evict_start = 1'b0;
    a_evict_done = 1'b0;
    a_hw_ok     = 1'b0;
    a_hdr       = 1'b0;
    a_act_done  = 1'b0;
    a_dtake     = 1'b0;
    a_dfail     = 1'b0;
    a_drsp      = 1'b0;
    a_drsp_a0   = ES_OK;
    a_rd        = 1'b0;
    a_rva       = '0;
    a_dst       = 2'd0;
    tr_fsm_v    = 1'b0;
    tr_fsm      = '0;
    cl_ready    = 1'b0;

    unique case (st)
      S_IDLE: begin
        if (purge_need) begin
          st_n = S_P_SCAN;
        end else if (clean_need) begin
          a_free      = 1'b1;
          a_free_tid  = sl_tid[clean_slot];
          a_slot_free = 1'b1;
          a_slot_idx  = clean_slot;
        end else if (comp_need) begin
          a_comp  = 1'b1;
          a_start = 1'b1;
          a_b0    = 3'd4;           // TMD 0x20..0x2f
          a_nb    = 4'd2;
          st_n    = S_XREQ;
        end else if (ewr_need) begin
          a_ewr = 1'b1;
          st_n  = S_E_SEMREQ;
        end else if (evict_start) begin
          a_evict_start = 1'b1;     // its CTAs are preempted from the next cycle
        end else if (act_valid) begin
          a_pop = 1'b1;
          if (buf_v && buf_tid == head_act) begin
            st_n = S_A_FILL;
          end else begin
            a_start = 1'b1;
            st_n    = S_XREQ;
          end
        end else if (dreq_valid && dreq.launch) begin
          // device launch: refused at once, or a child id and its TMD read
          if (dr_fail != ES_OK) begin
            a_dfail     = 1'b1;
            tr_fsm_v    = 1'b1;
            tr_fsm.kind = TR_FAIL;
            tr_fsm.chid = CHID_W'(sl_chid[dr_slot]);
            tr_fsm.a    = 32'h10 | dr_fail;
            tr_fsm.b    = dreq.arg;
          end else begin
            a_dtake = 1'b1;
            a_start = 1'b1;
            st_n    = S_XREQ;
          end
        end else begin
          cl_ready = 1'b1;
          if (cl_valid) begin
            if (killed[cl_req.chid[CH_W-1:0]] || free_id[TID_W]) begin
              a_rsp    = 1'b1;
              a_rsp_st = free_id[TID_W] && !killed[cl_req.chid[CH_W-1:0]] ?
                         ppu_types_pkg::TASK_LAUNCH_RETRY : ppu_types_pkg::TASK_LAUNCH_FAULTED;
              tr_fsm_v = 1'b1;
              tr_fsm.kind = TR_FAIL;
              tr_fsm.chid = cl_req.chid;
              tr_fsm.a    = 32'(a_rsp_st);
              tr_fsm.b    = cl_req.tmd_va;
            end else begin
              a_take = 1'b1;
              if (cl_req.tmd_va[5:0] != 6'd0) begin
                a_fail_tmd = 1'b1;
                st_n       = S_FAULT;
              end else begin
                a_start = 1'b1;
                st_n    = S_XREQ;
              end
            end
          end
        end
      end

      S_XREQ: if (x_req_ready) st_n = S_XWAIT;

      S_XWAIT: begin
        if (x_rsp_valid) begin
          if (x_rsp.fault) begin
            a_fault          = 1'b1;
            a_fault_rec.kind = x_rsp.kind;
            a_fault_rec.addr = rd_va0;
            st_n             = S_FAULT;
          end else begin
            st_n = S_RD;
          end
        end
      end

      S_RD: begin
        // decided with the last answer, which lands in the same edge
        if (rd_rsp_valid && f_rcv + 4'd1 == f_nb) begin
          if (f_err || rd_rsp.err) begin
            a_fault          = 1'b1;
            a_fault_rec.kind = K_BUS_ERROR;
            a_fault_rec.addr = f_err ? f_err_va : rd_va0 + 32'({f_rcv, 3'b0});
            st_n             = S_FAULT;
          end else begin
            unique case (f_op)
              OP_LAUNCH, OP_DLAUNCH: st_n = S_L_CHECK;
              OP_ACT:    st_n = S_A_FILL;
              OP_HW:     st_n = S_A_HW;
              OP_HDR:    st_n = S_A_HDR;
              default:   st_n = S_C_SEM;
            endcase
          end
        end
      end

      S_L_CHECK: begin
        if (f_op == OP_DLAUNCH) begin
          // a child: bad TMD words are the thread's error, not a fault
          a_drsp = 1'b1;
          tr_fsm_v    = 1'b1;
          tr_fsm.chid = CHID_W'(f_chid);
          if (v_any || killed[f_chid]) begin
            a_free      = 1'b1;
            a_drsp_a0   = ES_EINVAL;
            tr_fsm.kind = TR_FAIL;
            tr_fsm.a    = 32'h10 | ES_EINVAL;
            tr_fsm.b    = f_va;
          end else begin
            a_append    = 1'b1;
            tr_fsm.kind = TR_LAUNCH;
            tr_fsm.a    = {9'b0, d_depth[f_tid], 2'b0, d_prio[f_tid], 8'(f_tid)};
            tr_fsm.b    = 32'(d_parent[f_tid]);
          end
          st_n = S_IDLE;
        end else if (v_any) begin
          a_fault          = 1'b1;
          a_fault_rec.kind = K_TMD_INVALID;
          a_fault_rec.addr = f_va;
          a_fault_rec.data = 32'(v_off);
          st_n             = S_FAULT;
        end else if (killed[f_chid]) begin
          a_free   = 1'b1;
          a_rsp    = 1'b1;
          a_rsp_st = ppu_types_pkg::TASK_LAUNCH_FAULTED;
          tr_fsm_v = 1'b1;
          tr_fsm.kind = TR_FAIL;
          tr_fsm.chid = CHID_W'(f_chid);
          tr_fsm.a    = 32'(ppu_types_pkg::TASK_LAUNCH_FAULTED);
          tr_fsm.b    = f_va;
          st_n     = S_IDLE;
        end else begin
          a_append = 1'b1;
          a_rsp    = 1'b1;
          tr_fsm_v = 1'b1;
          tr_fsm.kind = TR_LAUNCH;
          tr_fsm.chid = CHID_W'(f_chid);
          tr_fsm.a    = {9'b0, 7'd1, 2'b0, c_prio, 8'(f_tid)};
          tr_fsm.b    = 32'hff;
          st_n     = S_IDLE;
        end
      end

      S_A_FILL: begin
        if (v_any) begin
          a_fault          = 1'b1;
          a_fault_rec.kind = K_TMD_INVALID;
          a_fault_rec.addr = f_va;
          a_fault_rec.data = 32'(v_off);
          st_n             = S_FAULT;
        end else begin
          a_fill   = 1'b1;
          tr_fsm_v = 1'b1;
          tr_fsm.kind = TR_ACTIVATE;
          tr_fsm.chid = CHID_W'(f_chid);
          tr_fsm.a    = {10'b0, d_prio[f_tid], 8'(f_slot), 8'(f_tid)};
          tr_fsm.b    = f_va;
          if (d_prog[f_tid]) begin
            // evicted before: NEXT_CTA, CTAS_EXITED, slot states, MAGIC
            a_rd   = 1'b1;
            a_rva  = w[15] + HW_OFF;
            a_nb   = 4'd3;
            a_dst  = 2'd1;
            st_n   = S_XREQ;
          end else begin
            st_n   = S_IDLE;
          end
        end
      end

      S_A_HW: begin
        if (hw_bad != '0) begin
          a_fault          = 1'b1;
          a_fault_rec.kind = K_TMD_INVALID;
          a_fault_rec.addr = sl_block[f_slot] + HW_OFF;
          a_fault_rec.data = 32'(hw_bad_off);
          st_n             = S_FAULT;
        end else begin
          a_hw_ok = 1'b1;           // hr_mask: the saved slots
          st_n    = S_A_NEXT;
        end
      end

      S_A_HDR: begin
        a_hdr = 1'b1;               // its slot leaves hr_mask
        st_n  = S_A_NEXT;
      end

      // the next saved slot's header, or the slot is ready
      S_A_NEXT: begin
        if (hr_mask != '0) begin
          a_rd  = 1'b1;
          a_rva = sl_block[f_slot] + HDR_OFF + 32'({hr_cur, 4'b0});
          a_nb  = 4'd1;
          a_dst = 2'd2;
          st_n  = S_XREQ;
        end else begin
          a_act_done = 1'b1;
          st_n       = S_IDLE;
        end
      end

      S_E_SEMREQ: if (sem_ready) st_n = S_E_SEMWAIT;

      S_E_SEMWAIT: begin
        if (sem_rsp_valid) begin
          if (sem_rsp.fault) begin
            a_fault            = 1'b1;
            a_fault_rec.kind   = sem_rsp.kind;
            a_fault_rec.access = ppu_types_pkg::ACC_WRITE;
            a_fault_rec.addr   = ew_va;
            a_fault_rec.data   = f_va;
            st_n               = S_FAULT;
          end else if (ew_idx < 3'd5 || (ew_idx == 3'd5 && ew_mask != '0) ||
                       (ew_idx == 3'd6 && (ew_mask & (ew_mask - KMAX'(1))) != '0)) begin
            st_n = S_E_SEMREQ;
          end else begin
            st_n = S_E_DONE;
          end
        end
      end

      S_E_DONE: begin
        a_evict_done = 1'b1;
        a_slot_free  = 1'b1;
        tr_fsm_v     = 1'b1;
        tr_fsm.kind  = TR_EVICT;
        tr_fsm.chid  = CHID_W'(f_chid);
        tr_fsm.a     = {10'b0, d_prio[f_tid], 8'(f_slot), 8'(f_tid)};
        tr_fsm.b     = f_va;
        st_n         = S_IDLE;
      end

      S_C_SEM: st_n = w[9][F_SEM_RELEASE] ? S_C_SEMREQ : S_C_DONE;

      S_C_SEMREQ: if (sem_ready) st_n = S_C_SEMWAIT;

      S_C_SEMWAIT: begin
        if (sem_rsp_valid) begin
          if (sem_rsp.fault) begin
            a_fault            = 1'b1;
            a_fault_rec.kind   = sem_rsp.kind;
            a_fault_rec.unit   = U_SEM;
            a_fault_rec.access = sem_rsp.access;
            a_fault_rec.addr   = w[10];
            a_fault_rec.data   = f_va;
            st_n               = S_FAULT;
          end else begin
            st_n = S_C_DONE;
          end
        end
      end

      S_C_DONE: begin
        a_free      = 1'b1;
        a_slot_free = 1'b1;
        a_nonstall  = w[9][F_INTERRUPT];
        tr_fsm_v    = 1'b1;
        tr_fsm.kind = TR_COMPLETE;
        tr_fsm.chid = CHID_W'(f_chid);
        tr_fsm.a    = {8'b0, w[9][7:0], 8'(f_slot), 8'(f_tid)};
        tr_fsm.b    = f_va;
        st_n        = S_IDLE;
      end

      S_FAULT: begin
        if (xf_ready) begin
          a_free      = 1'b1;
          a_slot_free = f_op != OP_LAUNCH && f_op != OP_DLAUNCH;
          // a child's TMD unreadable: the channel faults, the thread gets EINVAL
          a_drsp      = f_op == OP_DLAUNCH;
          a_drsp_a0   = ES_EINVAL;
          if (f_op == OP_LAUNCH) begin
            a_rsp    = 1'b1;
            a_rsp_st = ppu_types_pkg::TASK_LAUNCH_FAULTED;
            tr_fsm_v = 1'b1;
            tr_fsm.kind = TR_FAIL;
            tr_fsm.chid = CHID_W'(f_chid);
            tr_fsm.a    = 32'(ppu_types_pkg::TASK_LAUNCH_FAULTED);
            tr_fsm.b    = f_va;
          end
          st_n = S_IDLE;
        end
      end

      S_P_SCAN: begin
        if (p_nonempty[pw_p]) st_n = S_P_WALK;
        else if (pw_p == 6'd0) st_n = S_IDLE;
      end

      S_P_WALK: begin
        if (w_dead) begin
          a_free     = 1'b1;
          a_free_tid = pw_cur;
        end else begin
          a_walk_keep = 1'b1;
        end
        if (w_last) st_n = (pw_p == 6'd0) ? S_IDLE : S_P_SCAN;
      end

      default: st_n = S_IDLE;
    endcase
    tr_fsm.valid = tr_fsm_v;
  end

  // ---------------------------------------------------------------------
  // CTA events, dispatch, kill and preemption decisions
  // ---------------------------------------------------------------------
  logic [TS_W-1:0]  ev_slot;
  logic [KMAX-1:0]  ev_match;
  logic [J_W:0]     ev_ff;
  logic             ev_hit, ev_fire;
  logic [J_W-1:0]   ev_j;
  logic             ev_exit, ev_saved, ev_savedw;
  always_comb begin
    // (the slot's words are read only with an event: simulation time)
    ev_slot  = ev.tslot[TS_W-1:0];
    ev_cta_w = '0;
    ev_match = '0;
    ev_ff    = '1;
    if (ev_valid) begin
      ev_cta_w = js_cta[ev_slot];
      for (int j = 0; j < KMAX; j++)
        ev_match[j] = m_live[ev_slot][j] && ev_cta_w[j*32 +: 32] == ev.cta_id;
      ev_ff = ffs32(ev_match);
    end
    ev_hit  = !ev_ff[J_W] && sl_ready[ev_slot];
    ev_j    = ev_ff[J_W-1:0];
    ev_exit = ev.kind == ppu_types_pkg::CU_EV_EXITED;
    // saved, and no kill was sent meanwhile (else the CTA is dropped)
    ev_saved = ev.kind == ppu_types_pkg::CU_EV_SAVED &&
               !jp_kill[32'(ev_slot)*KMAX + 32'(ev_j)];
    ev_savedw = ev.kind == ppu_types_pkg::CU_EV_SAVED_WAIT &&
                !jp_kill[32'(ev_slot)*KMAX + 32'(ev_j)];
  end
  assign ev_ready = !tr_fsm_v;
  assign ev_fire  = ev_valid && ev_ready;

  // dispatch decision: the candidate, its lowest saved slot (a resume) or
  // else its lowest free save slot (a new CTA), its CU
  logic             disp_go, disp_fire;
  logic [J_W:0]     d_ff, d_sff;
  logic             d_resume;
  logic [J_W-1:0]   d_j;
  logic [31:0]      d_stack, d_save, d_hdr, d_cta;
  always_comb begin
    d_cta_w  = js_cta[cand_slot];
    d_sff    = ffs32(m_saved[cand_slot]);
    d_ff     = ffs32(m_free[cand_slot]);
    d_resume = !d_sff[J_W];
    d_j      = d_resume ? d_sff[J_W-1:0] : d_ff[J_W-1:0];
    d_stack  = sl_stack0[cand_slot];
    if (sl_slog2[cand_slot] != 5'd0)
      d_stack = d_stack + ((32'(d_j) * 32'(sl_t[cand_slot])) << sl_slog2[cand_slot]);
    d_save  = sl_rec0[cand_slot] + ((32'(d_j) * 32'(sl_t[cand_slot])) << REC_SHIFT);
    d_hdr   = sl_rec0[cand_slot] - HDR_BYTES + HDR_OFF +
              (32'(d_j) << $clog2(ppu_hw_pkg::PPU_TASK_BLOCK_SLOT_HDR_BYTES));
    d_cta   = sl_next[cand_slot];
    if (d_resume)
      for (int j = 0; j < KMAX; j++)
        if (d_j == J_W'(j)) d_cta = d_cta_w[j*32 +: 32];
  end
  assign disp_go   = place_valid && !dq_valid && !tr_fsm_v && !ev_fire;

  assign disp_fire = dq_valid && disp_ready[dq_cu];

  // the CTA in the dispatch register: not on its CU yet, so neither killed
  // nor preempted
  logic [KMAX-1:0] dq_mask [S];
  always_comb
    for (int s = 0; s < S; s++)
      dq_mask[s] = (dq_valid && dq_slot == TS_W'(s)) ? (KMAX'(1) << dq_j) : '0;

  // kill: the first resident CTA of a killed channel not yet sent a kill
  logic            kpick_v;
  logic [TS_W-1:0] kpick_s;
  logic [J_W-1:0]  kpick_j;
  logic [CU_W-1:0] kpick_cu;
  logic [31:0]     kpick_cta;
  logic            kill_fire;
  logic [KMAX-1:0]      kp_mask;
  logic [J_W:0]         kp_ff;
  always_comb begin
    kpick_v   = 1'b0;
    kpick_s   = '0;
    kp_mask   = '0;
    if (killed != '0) begin
      for (int s = S - 1; s >= 0; s--) begin
        if (sl_ready[s] && killed[sl_chid[s]] &&
            ((m_run[s] | jp_save[s*KMAX +: KMAX]) & ~dq_mask[s]) != '0) begin
          kpick_v = 1'b1;
          kpick_s = TS_W'(s);
          kp_mask = (m_run[s] | jp_save[s*KMAX +: KMAX]) & ~dq_mask[s];
        end
      end
    end
    kp_ff     = ffs32(kp_mask);
    kpick_j   = kp_ff[J_W-1:0];
    kpick_cta = '0;
    kpick_cu  = '0;
    kp_cta_w  = js_cta[kpick_s];
    kp_cu_w   = js_cu[kpick_s];
    if (kpick_v)
      for (int j = 0; j < KMAX; j++)
        if (kpick_j == J_W'(j)) begin
          kpick_cta = kp_cta_w[j*32 +: 32];
          kpick_cu  = kp_cu_w[j*CU_W +: CU_W];
        end
  end
  assign kill_fire = kq_valid && kill_ready[kq_cu];

  // eviction: the evicted task's running CTAs are preempted, one at a time
  logic            epick_v;
  logic [J_W-1:0]  epick_j;
  logic [CU_W-1:0] epick_cu;
  logic [31:0]     epick_cta;
  logic [J_W:0]    ep_ff;
  always_comb begin
    ep_ff     = ffs32(m_run[evc_slot] & ~dq_mask[evc_slot]);
    epick_v   = evc_busy && sl_ready[evc_slot] && !killed[sl_chid[evc_slot]] && !ep_ff[J_W];
    epick_j   = ep_ff[J_W-1:0];
    epick_cta = '0;
    epick_cu  = '0;
    ep_cta_w  = js_cta[evc_slot];
    ep_cu_w   = js_cu[evc_slot];
    for (int j = 0; j < KMAX; j++)
      if (epick_j == J_W'(j)) begin
        epick_cta = ep_cta_w[j*32 +: 32];
        epick_cu  = ep_cu_w[j*CU_W +: CU_W];
      end
  end

  // Preemption (rule 6): the candidate cannot be placed.  Per CU: have =
  // free contexts + contexts being freed (CTAs saving or being killed),
  // fits = how many of the candidate's CTAs have would hold, victims = the
  // running CTAs of lower-priority tasks.  While the fits of all CUs fall
  // short of the candidate's CTAs left, preempt one victim (one decision
  // at a time): on a CU where the victims complete one more fit, the one
  // with the lowest victim priority (ties: lowest index); there the victim
  // of the lowest priority (ties: the youngest task, its highest save slot).
  // Equal priorities never preempt each other; what is being freed counts,
  // so no more is preempted than needed.
  localparam int unsigned CTXC_W = $clog2(CU_CONTEXTS + 1);
  localparam int unsigned HAVE_W = $clog2(2 * CU_CONTEXTS + 1);
  logic [5:0]      c_prio_d;            // the candidate's priority
  assign c_prio_d = sl_prio[cand_slot];

  // per slot: contexts one of its CTAs holds, and whether its running CTAs
  // are victims of the candidate (lower priority)
  logic [S*HAVE_W-1:0] s_need;
  logic [S-1:0]        s_victim;
  always_comb
    for (int s = 0; s < S; s++) begin
      s_need[s*HAVE_W +: HAVE_W] = (32'(sl_t[s]) > CU_CONTEXTS) ? HAVE_W'(CU_CONTEXTS)
                                                               : HAVE_W'(sl_t[s]);
      s_victim[s] = sl_ready[s] && !killed[sl_chid[s]] && sl_prio[s] < c_prio_d;
    end

  logic            pre_on, ppick_v;
  logic [10:0]     c_need;
  logic [6:0]      c_rem, c_fits;       // CTAs left to place, fits of all CUs
  logic [HAVE_W-1:0] u_have  [NUM_CU];
  logic [HAVE_W-1:0] u_vctx  [NUM_CU];
  logic [6:0]        u_vprio [NUM_CU];  // lowest victim priority, 64 = none
  logic [NUM_CU-1:0] u_useful;
  logic [CU_W-1:0] ppick_cu;
  logic [TS_W-1:0] ppick_s;
  logic [J_W-1:0]  ppick_j;
  logic [31:0]     ppick_cta;
  always_comb begin
    logic [HAVE_W-1:0] fit;
    logic [6:0]        n_free, n_saved;
    logic              best;
    logic [11:0]       acc, nxt;
    fit      = '0;
    acc      = '0;
    nxt      = '0;
    n_free   = '0;
    n_saved  = '0;
    best     = 1'b0;
    pre_on   = !no_preempt && cand_valid && !place_valid && !kq_valid && !kpick_v && !epick_v &&
               !dq_valid &&
               !tr_fsm_v && !ev_fire;
    c_need   = (32'(sl_t[cand_slot]) > CU_CONTEXTS) ? 11'(CU_CONTEXTS) : sl_t[cand_slot];
    c_rem    = '0;
    c_fits   = '0;
    ppick_v  = 1'b0;
    ppick_cu = '0;
    ppick_s  = '0;
    ppick_j  = '0;
    ppick_cta = '0;
    u_useful = '0;
    for (int u = 0; u < NUM_CU; u++) begin
      u_have[u]  = '0;
      u_vctx[u]  = '0;
      u_vprio[u] = 7'd64;
    end
    if (pre_on) begin
      n_free  = '0;
      n_saved = '0;
      for (int j = 0; j < KMAX; j++) begin
        n_free  = n_free + 7'(m_free[cand_slot][j]);
        n_saved = n_saved + 7'(m_saved[cand_slot][j]);
      end
      c_rem = n_saved + ((32'(sl_ncta[cand_slot] - sl_next[cand_slot]) < 32'(n_free)) ?
                         7'(sl_ncta[cand_slot] - sl_next[cand_slot]) : n_free);
      // (every index below is a constant of the unrolled loops: no
      // decoders of u_have/u_vctx for the synthesis to share)
      for (int u = 0; u < NUM_CU; u++) begin
        u_have[u] = HAVE_W'(free_ctx[u*CTXC_W +: CTXC_W]);
        for (int s = 0; s < S; s++)
          for (int j = 0; j < KMAX; j++)
            if (js_cu[s][j*CU_W +: CU_W] == CU_W'(u)) begin
              if (jp_save[s*KMAX + j] || jp_kill[s*KMAX + j])
                u_have[u] = u_have[u] + s_need[s*HAVE_W +: HAVE_W];
              if (s_victim[s] && m_run[s][j] && !dq_mask[s][j]) begin
                u_vctx[u] = u_vctx[u] + s_need[s*HAVE_W +: HAVE_W];
                if (7'(sl_prio[s]) < u_vprio[u]) u_vprio[u] = 7'(sl_prio[s]);
              end
            end
        // fits of the candidate's CTAs, and the contexts one more would need
        fit = '0;
        acc = 12'(c_need);
        nxt = 12'(c_need);
        for (int m = 1; m <= 2 * CU_CONTEXTS; m++) begin
          if (acc <= 12'(u_have[u])) begin
            fit = HAVE_W'(m);
            nxt = acc + 12'(c_need);
          end
          acc = acc + 12'(c_need);
        end
        c_fits = c_fits + 7'(fit);
        u_useful[u] = u_vprio[u] != 7'd64 && 12'(u_have[u]) + 12'(u_vctx[u]) >= nxt;
      end
      // the CU
      best = 1'b0;
      for (int u = 0; u < NUM_CU; u++)
        if (u_useful[u] && (!best || u_vprio[u] < u_vprio[ppick_cu])) begin
          best     = 1'b1;
          ppick_cu = CU_W'(u);
        end
      ppick_v = best && c_fits < c_rem;
      // the victim on it
      best = 1'b0;
      for (int s = 0; s < S; s++)
        for (int j = 0; j < KMAX; j++)
          if (s_victim[s] && m_run[s][j] &&
              !dq_mask[s][j] && js_cu[s][j*CU_W +: CU_W] == ppick_cu &&
              (!best || sl_prio[s] < sl_prio[ppick_s] ||
               (sl_prio[s] == sl_prio[ppick_s] && (TS_W'(s) == ppick_s || older[32'(ppick_s)*S + s])))) begin
            best      = 1'b1;
            ppick_s   = TS_W'(s);
            ppick_j   = J_W'(j);
            ppick_cta = js_cta[s][j*32 +: 32];
          end
    end
  end

  // Next save-slot planes: a fill frees them all; a kill accepted by the
  // CU marks its CTA (unless its event came first); a preemption decided
  // marks it SAVING; a CTA event frees its save slot (EXITED_KIDS if it has
  // children outstanding) or, SAVED, keeps it as SAVED; a dispatch takes a
  // free or a saved one.  Distinct save slots but for a kill and an event
  // of the same CTA.
  logic [S*KMAX-1:0] jp_run_n, jp_kill_n, jp_kids_n, jp_save_n, jp_saved_n, jp_savew_n;
  logic              ev_kids_out;       // the CTA of a SAVED_WAIT still has children out
  logic            ev_has_kids;
  logic            pre_go, evp_go;
  assign pre_go = ppick_v;
  // A task with a parent is gone (completed, or dropped): the parent has
  // one child less, and so has the save slot of the CTA that launched it
  // while the parent holds its slot (a count of 0 is a parent re-activated
  // after an eviction with every CTA exited: nothing counts there).  The
  // last child of a CTA makes its save slot free again if the CTA has
  // exited (EXITED_KIDS), and wakes the CTA's waiting threads.
  logic             pd_go, pd_inslot, pd_zero;
  logic [TID_W-1:0] pd_par;
  logic [TS_W-1:0]  pd_slot;
  logic [J_W-1:0]   pd_j;
  logic [7:0]       pd_cnt;
  logic [31:0]      pd_cta;
  always_comb begin
    pd_par    = d_parent[a_free_tid];
    pd_slot   = d_slot[pd_par];
    pd_j      = d_par_j[a_free_tid];
    pd_go     = a_free && d_has_par[a_free_tid] && !id_free[pd_par];
    pd_inslot = pd_go && sl_used[pd_slot] && sl_tid[pd_slot] == pd_par &&
                (d_state[pd_par] == ppu_types_pkg::TASK_ST_ACTIVE ||
                 d_state[pd_par] == ppu_types_pkg::TASK_ST_EVICTING ||
                 d_state[pd_par] == ppu_types_pkg::TASK_ST_COMPLETING);
    // the launching CTA's children count and id (read only for a child)
    pd_cnt    = '0;
    pd_cta    = '0;
    pd_kids_w = '0;
    pd_cta_w  = '0;
    if (pd_go) begin
      pd_kids_w = js_kids[pd_slot];
      pd_cta_w  = js_cta[pd_slot];
      for (int j = 0; j < KMAX; j++)
        if (pd_j == J_W'(j)) begin
          pd_cnt = pd_kids_w[j*8 +: 8];
          pd_cta = pd_cta_w[j*32 +: 32];
        end
    end
    pd_zero = pd_inslot && pd_cnt == 8'd1;
  end
  // the last child of a task waiting coarsely: wake all of its CTAs
  logic pd_coarse0;
  assign pd_coarse0 = pd_go && d_coarse[pd_par] && d_children[pd_par] == 7'd1 &&
                      sl_used[pd_slot] && sl_tid[pd_slot] == pd_par;

  // WAIT_CHILDREN is answered at once (from the CTA's count), in a cycle
  // without another answer.
  logic w_take;
  assign w_take     = dreq_valid && !dreq.launch && !a_drsp && !a_dfail;
  assign dreq_ready = a_dfail || a_dtake || w_take;
  assign drsp_valid = drsp_v_q;
  assign drsp       = drsp_q;
  assign kw_valid   = kw_v_q;
  assign kw         = kw_q;
  assign perf_dlaunch = pf_dl_q;
  assign perf_ddepth  = pf_dd_q;
  assign perf_derr    = pf_de_q;

  assign evp_go = !kq_valid && !kpick_v && epick_v && !tr_fsm_v && !ev_fire && !disp_go;
  always_comb begin
    ev_has_kids = 1'b0;
    ev_kids_w   = '0;
    if (ev_valid) begin
      ev_kids_w = js_kids[ev_slot];
      for (int j = 0; j < KMAX; j++)
        if (ev_j == J_W'(j) && ev_kids_w[j*8 +: 8] != 8'd0) ev_has_kids = 1'b1;
    end
    jp_run_n   = jp_run;
    jp_kill_n  = jp_kill;
    jp_kids_n  = jp_kids;
    jp_save_n  = jp_save;
    jp_saved_n = jp_saved;
    jp_savew_n = jp_savew;
    ev_kids_out = d_coarse[sl_tid[ev_slot]] ? d_children[sl_tid[ev_slot]] != 7'd0 : ev_has_kids;
    if (a_fill) begin
      jp_run_n[32'(f_slot)*KMAX +: KMAX]   = '0;
      jp_kill_n[32'(f_slot)*KMAX +: KMAX]  = '0;
      jp_kids_n[32'(f_slot)*KMAX +: KMAX]  = '0;
      jp_save_n[32'(f_slot)*KMAX +: KMAX]  = '0;
      jp_saved_n[32'(f_slot)*KMAX +: KMAX] = '0;
      jp_savew_n[32'(f_slot)*KMAX +: KMAX] = '0;
    end
    if (kill_fire && !kq_save &&
        (jp_run[32'(kq_slot)*KMAX + 32'(kq_j)] || jp_save[32'(kq_slot)*KMAX + 32'(kq_j)])) begin
      jp_run_n[32'(kq_slot)*KMAX + 32'(kq_j)]  = 1'b0;
      jp_save_n[32'(kq_slot)*KMAX + 32'(kq_j)] = 1'b0;
      jp_kill_n[32'(kq_slot)*KMAX + 32'(kq_j)] = 1'b1;
    end
    if (pre_go) begin
      jp_run_n[32'(ppick_s)*KMAX + 32'(ppick_j)]  = 1'b0;
      jp_save_n[32'(ppick_s)*KMAX + 32'(ppick_j)] = 1'b1;
    end
    if (evp_go) begin
      jp_run_n[32'(evc_slot)*KMAX + 32'(epick_j)]  = 1'b0;
      jp_save_n[32'(evc_slot)*KMAX + 32'(epick_j)] = 1'b1;
    end
    if (ev_fire && ev_hit) begin
      jp_run_n[32'(ev_slot)*KMAX + 32'(ev_j)]   = 1'b0;
      jp_kill_n[32'(ev_slot)*KMAX + 32'(ev_j)]  = 1'b0;
      jp_save_n[32'(ev_slot)*KMAX + 32'(ev_j)]  = 1'b0;
      // (a SAVED_WAIT whose children are all done already is plain SAVED)
      jp_saved_n[32'(ev_slot)*KMAX + 32'(ev_j)] = ev_saved || (ev_savedw && !ev_kids_out);
      jp_savew_n[32'(ev_slot)*KMAX + 32'(ev_j)] = ev_savedw && ev_kids_out;
      jp_kids_n[32'(ev_slot)*KMAX + 32'(ev_j)]  = ev_has_kids && !ev_saved && !ev_savedw;
    end
    // the last child of a CTA: exited, its save slot is free; saved while
    // waiting, it may resume (all CTAs of a coarsely waiting task at once)
    if (pd_zero) begin
      jp_kids_n[32'(pd_slot)*KMAX + 32'(pd_j)]  = 1'b0;
      jp_saved_n[32'(pd_slot)*KMAX + 32'(pd_j)] = jp_saved_n[32'(pd_slot)*KMAX + 32'(pd_j)] |
                                                  jp_savew_n[32'(pd_slot)*KMAX + 32'(pd_j)];
      jp_savew_n[32'(pd_slot)*KMAX + 32'(pd_j)] = 1'b0;
    end
    if (pd_coarse0) begin
      jp_saved_n[32'(pd_slot)*KMAX +: KMAX] = jp_saved_n[32'(pd_slot)*KMAX +: KMAX] |
                                              jp_savew_n[32'(pd_slot)*KMAX +: KMAX];
      jp_savew_n[32'(pd_slot)*KMAX +: KMAX] = '0;
    end
    if (a_hw_ok) jp_saved_n[32'(f_slot)*KMAX +: KMAX] = hw_saved;
    if (disp_go) begin
      jp_run_n[32'(cand_slot)*KMAX + 32'(d_j)]   = 1'b1;
      jp_saved_n[32'(cand_slot)*KMAX + 32'(d_j)] = 1'b0;
    end
  end

  // ---------------------------------------------------------------------
  // Sequential: directory, lists, channels
  // ---------------------------------------------------------------------
  logic [TID_W-1:0] tid_take;
  assign tid_take = free_id[TID_W-1:0];

  // A host launch's priority is clamped from its TMD; a child's is set.
  logic [5:0] ap_prio;
  assign ap_prio = (f_op == OP_DLAUNCH) ? d_prio[f_tid] : c_prio;


  always_ff @(posedge clk) begin
    if (!rst_n) begin
      // Control state only: an id's directory entry means something while
      // its id_free bit is clear (d_state is written when it is taken), list
      // heads and tails while the list is non-empty, a channel's root and
      // max depth from its first launch on.
      id_free    <= '1;
      p_nonempty <= '0;
      d_prog     <= '0;
      d_coarse   <= '0;
      ch_live    <= '0;
      drain_q    <= 1'b0;
      pw_p       <= '0;
      pw_cur     <= '0;
      pw_prev    <= '0;
      pw_hasprev <= 1'b0;
    end else begin
      // a launch takes an id
      if (a_take) begin
        id_free[tid_take]   <= 1'b0;
        d_state[tid_take]   <= ppu_types_pkg::TASK_ST_LAUNCHING;
        d_chid[tid_take]    <= cl_req.chid[CH_W-1:0];
        d_tmd[tid_take]     <= cl_req.tmd_va[31:6];
        d_prio[tid_take]    <= '0;
        d_depth[tid_take]   <= 7'd1;
        d_has_par[tid_take] <= 1'b0;
        d_parent[tid_take]  <= '0;
        d_par_j[tid_take]   <= '0;
        d_children[tid_take] <= '0;
        d_prog[tid_take]     <= 1'b0;
        d_coarse[tid_take]   <= 1'b0;
        ch_live[32'(cl_req.chid[CH_W-1:0])*LIVE_W +: LIVE_W] <=
          ch_live[32'(cl_req.chid[CH_W-1:0])*LIVE_W +: LIVE_W] + LIVE_W'(1);
        ch_root[cl_req.chid[CH_W-1:0]]     <= cl_req.root;
        ch_maxdepth[cl_req.chid[CH_W-1:0]] <= (cl_req.max_depth == 7'd0) ? 7'd1 : cl_req.max_depth;
      end
      // (the host's WFI waits for this instead of watching every
      // channel's count: no id of the channel is taken in the same cycle)
      drain_q    <= a_free && ch_live[32'(d_chid[a_free_tid])*LIVE_W +: LIVE_W] == LIVE_W'(1) &&
                    !(a_take && cl_req.chid[CH_W-1:0] == d_chid[a_free_tid]) &&
                    !(a_dtake && sl_chid[dr_slot] == d_chid[a_free_tid]);
      drain_ch_q <= d_chid[a_free_tid];
      if (a_free) begin
        id_free[a_free_tid] <= 1'b1;
        d_state[a_free_tid] <= ppu_types_pkg::TASK_ST_FREE;
        ch_live[32'(d_chid[a_free_tid])*LIVE_W +: LIVE_W] <=
          ch_live[32'(d_chid[a_free_tid])*LIVE_W +: LIVE_W] - LIVE_W'(1);
      end
      if (a_append) begin
        d_prio[f_tid]  <= ap_prio;
        d_state[f_tid] <= ppu_types_pkg::TASK_ST_PENDING;
        if (p_nonempty[ap_prio]) d_next[p_tail[ap_prio]] <= f_tid;
        else p_head[ap_prio] <= f_tid;
        p_tail[ap_prio]     <= f_tid;
        p_nonempty[ap_prio] <= 1'b1;
      end
      // a device launch takes an id: the child of the asking CTA's task,
      // one priority and one level deeper, in the parent's channel
      if (a_dtake) begin
        id_free[tid_take]    <= 1'b0;
        d_state[tid_take]    <= ppu_types_pkg::TASK_ST_LAUNCHING;
        d_chid[tid_take]     <= sl_chid[dr_slot];
        d_tmd[tid_take]      <= dreq.arg[31:6];
        d_prio[tid_take]     <= sl_prio[dr_slot] + 6'd1;
        d_depth[tid_take]    <= sl_depth[dr_slot] + 7'd1;
        d_has_par[tid_take]  <= 1'b1;
        d_parent[tid_take]   <= sl_tid[dr_slot];
        d_par_j[tid_take]    <= dr_j;
        d_children[tid_take] <= '0;
        d_prog[tid_take]     <= 1'b0;
        d_coarse[tid_take]   <= 1'b0;
        ch_live[32'(sl_chid[dr_slot])*LIVE_W +: LIVE_W] <=
          ch_live[32'(sl_chid[dr_slot])*LIVE_W +: LIVE_W] + LIVE_W'(1);
        d_children[sl_tid[dr_slot]] <= d_children[sl_tid[dr_slot]] + 7'd1;
      end
      if (pd_go && d_children[pd_par] != 7'd0)
        d_children[pd_par] <= d_children[pd_par] - 7'd1;
      if (a_pop) begin
        d_state[head_act] <= ppu_types_pkg::TASK_ST_ACTIVE;
        d_slot[head_act]  <= act_slot;
        if (head_act == p_tail[act_prio]) p_nonempty[act_prio] <= 1'b0;
        else p_head[act_prio] <= d_next[head_act];
      end
      if (a_comp) d_state[sl_tid[comp_slot]] <= ppu_types_pkg::TASK_ST_COMPLETING;
      if (a_evict_start) d_state[sl_tid[evs]] <= ppu_types_pkg::TASK_ST_EVICTING;
      // evicted: back to the head of its priority's list, with progress
      if (a_evict_done) begin
        d_state[f_tid] <= ppu_types_pkg::TASK_ST_PENDING;
        d_prog[f_tid]  <= 1'b1;
        if (d_children[f_tid] != 7'd0) d_coarse[f_tid] <= 1'b1;
        d_next[f_tid]  <= p_head[d_prio[f_tid]];
        p_head[d_prio[f_tid]] <= f_tid;
        if (!p_nonempty[d_prio[f_tid]]) p_tail[d_prio[f_tid]] <= f_tid;
        p_nonempty[d_prio[f_tid]] <= 1'b1;
      end
      if (a_act_done) d_prog[f_tid] <= 1'b0;
      // purge walk
      if (st == S_IDLE && st_n == S_P_SCAN) pw_p <= 6'd63;
      if (st == S_P_SCAN && p_nonempty[pw_p]) begin
        pw_cur     <= p_head[pw_p];
        pw_hasprev <= 1'b0;
      end else if (st == S_P_SCAN) begin
        pw_p <= pw_p - 6'd1;
      end
      if (st == S_P_WALK) begin
        if (a_walk_keep) begin
          if (pw_hasprev) d_next[pw_prev] <= pw_cur;
          else p_head[pw_p] <= pw_cur;
          pw_prev    <= pw_cur;
          pw_hasprev <= 1'b1;
        end
        if (w_last) begin
          if (w_dead) begin
            if (pw_hasprev) p_tail[pw_p] <= pw_prev;
            else p_nonempty[pw_p] <= 1'b0;
          end
          pw_p <= pw_p - 6'd1;
        end else begin
          pw_cur <= d_next[pw_cur];
        end
      end
    end
  end

  // ---------------------------------------------------------------------
  // Sequential: FSM registers, buffer, memory and MMU requests
  // ---------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      st         <= S_IDLE;
      f_op       <= OP_LAUNCH;
      f_tid      <= '0;
      f_slot     <= '0;
      f_chid     <= '0;
      f_root     <= '0;
      f_va       <= '0;
      f_pmin     <= '0;
      f_pmax     <= '0;
      f_b0       <= '0;
      f_nb       <= '0;
      f_iss      <= '0;
      f_rcv      <= '0;
      f_pa       <= '0;
      f_err      <= 1'b0;
      f_err_va   <= '0;
      f_fault    <= '0;
      f_rva      <= '0;
      f_dst      <= 2'd0;
      hr_mask    <= '0;
      evc_busy    <= 1'b0;
      evc_slot    <= '0;
      ew_idx     <= '0;
      ew_mask    <= '0;
      buf_v      <= 1'b0;
      buf_tid    <= '0;
      f_dcu      <= '0;
      f_dctx     <= '0;
      drsp_v_q   <= 1'b0;
      drsp_q     <= '0;
      kw_v_q     <= 1'b0;
      kw_q       <= '0;
      pf_dl_q    <= 1'b0;
      pf_dd_q    <= 1'b0;
      pf_de_q    <= 1'b0;
      rsp_v_q    <= 1'b0;
      rsp_st_q   <= ppu_types_pkg::TASK_LAUNCH_OK;
      rsp_tid_q  <= '0;
      nonstall_q <= '0;
      icache_inv_q <= 1'b0;
    end else begin
      st           <= st_n;
      // device-runtime answers: the launch under way, a refused launch, or
      // a WAIT_CHILDREN (one per cycle; dreq_ready says which was taken)
      drsp_v_q     <= a_drsp || a_dfail || w_take;
      if (a_drsp) begin
        drsp_q.cu    <= f_dcu;
        drsp_q.ctx   <= f_dctx;
        drsp_q.sleep <= 1'b0;
        drsp_q.a0    <= a_drsp_a0;
      end else begin
        drsp_q.cu    <= dreq.cu;
        drsp_q.ctx   <= dreq.ctx;
        drsp_q.sleep <= w_take && dr_hit &&
                        (d_coarse[sl_tid[dr_slot]] ? d_children[sl_tid[dr_slot]] != 7'd0
                                                   : dr_kids != 8'd0);
        drsp_q.a0    <= a_dfail ? dr_fail : ES_OK;
      end
      kw_v_q       <= pd_zero || pd_coarse0;
      kw_q.all     <= pd_coarse0;
      kw_q.tslot   <= TSW'(pd_slot);
      kw_q.cta_id  <= pd_cta;
      pf_dl_q      <= a_drsp && a_drsp_a0 == ES_OK;
      pf_dd_q      <= a_dfail && dr_fail == ES_EDEPTH;
      pf_de_q      <= (a_dfail && dr_fail != ES_EDEPTH) || (a_drsp && a_drsp_a0 != ES_OK);
      rsp_v_q      <= a_rsp;
      rsp_st_q     <= a_rsp_st;
      rsp_tid_q    <= f_tid;
      nonstall_q   <= '0;
      icache_inv_q <= 1'b0;
      if (a_nonstall) nonstall_q[f_chid] <= 1'b1;
      if (a_fill) icache_inv_q <= w[9][F_ICACHE_INV];

      // operation set-up
      if (a_take) begin
        f_tid  <= tid_take;
        f_chid <= cl_req.chid[CH_W-1:0];
        f_root <= cl_req.root;
        f_va   <= cl_req.tmd_va;
        f_pmin <= cl_req.prio_min;
        f_pmax <= cl_req.prio_max;
        f_op   <= OP_LAUNCH;
      end
      if (a_dtake) begin
        f_tid  <= tid_take;
        f_chid <= sl_chid[dr_slot];
        f_root <= ch_root[sl_chid[dr_slot]];
        f_va   <= dreq.arg;
        f_op   <= OP_DLAUNCH;
        f_dcu  <= dreq.cu;
        f_dctx <= dreq.ctx;
      end
      if (a_pop) begin
        f_tid  <= head_act;
        f_slot <= act_slot;
        f_chid <= d_chid[head_act];
        f_root <= ch_root[d_chid[head_act]];
        f_va   <= {d_tmd[head_act], 6'b0};
        f_op   <= OP_ACT;
      end
      if (a_comp) begin
        f_tid  <= sl_tid[comp_slot];
        f_slot <= comp_slot;
        f_chid <= sl_chid[comp_slot];
        f_root <= ch_root[sl_chid[comp_slot]];
        f_va   <= {d_tmd[sl_tid[comp_slot]], 6'b0};
        f_op   <= OP_COMP;
      end
      if (a_start) begin
        f_b0  <= a_b0;
        f_nb  <= a_nb;
        f_dst <= 2'd0;
        buf_v <= 1'b0;
      end
      if (a_rd) begin
        f_b0  <= '0;
        f_nb  <= a_nb;
        f_rva <= a_rva;
        f_dst <= a_dst;
        f_op  <= (a_dst == 2'd1) ? OP_HW : OP_HDR;
      end
      if (a_hw_ok) hr_mask <= hw_saved;
      if (a_hdr) hr_mask <= hr_mask & (hr_mask - KMAX'(1));
      // eviction
      if (a_evict_start) begin
        evc_busy <= 1'b1;
        evc_slot <= evs;
      end
      if (a_slot_free && a_slot_idx == evc_slot) evc_busy <= 1'b0;
      if (a_ewr) begin
        f_tid   <= sl_tid[evc_slot];
        f_slot  <= evc_slot;
        f_chid  <= sl_chid[evc_slot];
        f_root  <= ch_root[sl_chid[evc_slot]];
        f_va    <= {d_tmd[sl_tid[evc_slot]], 6'b0};
        f_op    <= OP_EVICT;
        ew_idx  <= '0;
        ew_mask <= m_saved[evc_slot] | jp_savew[32'(evc_slot)*KMAX +: KMAX];
      end
      if (st == S_E_SEMWAIT && sem_rsp_valid && !sem_rsp.fault) begin
        if (ew_idx != 3'd6) ew_idx <= ew_idx + 3'd1;
        else ew_mask <= ew_mask & (ew_mask - KMAX'(1));
      end
      if (a_fail_tmd) begin
        f_fault      <= '0;
        f_fault.chid <= cl_req.chid;
        f_fault.kind <= K_TMD_INVALID;
        f_fault.unit <= U_TASKS;
        f_fault.access <= ppu_types_pkg::ACC_READ;
        f_fault.addr <= cl_req.tmd_va;
        f_fault.data <= '0;
      end
      if (a_fault) f_fault <= a_fault_rec;
      if (a_append) begin
        buf_v   <= 1'b1;
        buf_tid <= f_tid;
      end

      // translation answer: PA of the first beat (whose read may go out
      // with it)
      if (st == S_XWAIT && x_rsp_valid) begin
        f_pa     <= x_rsp.pa;
        f_iss    <= (rd_valid && rd_ready) ? 4'd1 : 4'd0;
        f_rcv    <= '0;
        f_err    <= 1'b0;
        f_err_va <= '0;
      end

      // reads: issue f_nb beats, take the answers in order
      if (st == S_RD && rd_valid && rd_ready)
        f_iss <= f_iss + 4'd1;
      if (rd_rsp_valid) begin
        unique case (f_dst)
          2'd0:    buf_q[f_b0 + f_rcv[2:0]] <= rd_rsp.data;
          2'd1:    hw_q[f_rcv[1:0]] <= rd_rsp.data;
          default: hdr_q <= rd_rsp.data;
        endcase
        f_rcv <= f_rcv + 4'd1;
        if (rd_rsp.err && !f_err) begin
          f_err    <= 1'b1;
          f_err_va <= rd_va0 + 32'({f_rcv, 3'b0});
        end
      end
    end
  end

  // A read sequence ends (S_RD left) with its last answer.
  logic inv_old_q;
  wire  inv_rd = st == S_XWAIT || st == S_RD;
  always_ff @(posedge clk) begin
    if (!rst_n || !inv_rd) inv_old_q <= 1'b0;
    else if (mmu_inv) inv_old_q <= 1'b1;
  end
  assign inv_hold = inv_old_q || (mmu_inv && inv_rd);

  assign x_req_valid = st == S_XREQ;
  always_comb begin
    x_req.va     = rd_va0;
    x_req.root   = f_root;
    x_req.access = ppu_types_pkg::ACC_READ;
  end
  // Reads go straight to the port's skid buffer (registered on the other
  // side): the first beat with the translation's answer, the rest in S_RD.
  wire rd_first = (st == S_XWAIT) && x_rsp_valid && !x_rsp.fault;
  assign rd_valid = rd_first || ((st == S_RD) && f_iss != f_nb);
  always_comb begin
    rd_pa = rd_first ? x_rsp.pa : f_pa;
    if (!rd_first) rd_pa.addr = f_pa.addr + ppu_types_pkg::PA_W'({f_iss, 3'b0});
  end

  assign xf_valid = st == S_FAULT;
  assign xf       = f_fault;

  assign sem_valid = st == S_C_SEMREQ || st == S_E_SEMREQ;
  always_comb begin
    sem_req         = '0;
    sem_req.rid     = '0;
    sem_req.chid    = CHID_W'(f_chid);
    sem_req.root    = f_root;
    sem_req.va      = (st == S_E_SEMREQ) ? ew_va : w[10];
    sem_req.payload = {32'b0, (st == S_E_SEMREQ) ? ew_data : w[11]};
    sem_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__MSB:ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__LSB]
      = OP_W'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_RELEASE);
    sem_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_PAYLOAD_SIZE__LSB]
      = 1'(ppu_hw_pkg::PPU_SEM_EXECUTE_PAYLOAD_SIZE_32BIT);
    sem_req.exec[ppu_hw_pkg::PPU_SEM_EXECUTE_RELEASE_TIMESTAMP__LSB] =
      w[9][F_SEM_TS] && st != S_E_SEMREQ;
  end

  assign cl_rsp_valid  = rsp_v_q;
  assign cl_rsp_status = rsp_st_q;
  assign cl_rsp_tid    = 8'(rsp_tid_q);
  assign can_accept    = id_free != '0;
  assign nonstall      = nonstall_q;
  assign drain_valid   = drain_q;
  assign drain_ch      = drain_ch_q;
  assign idle          = (st == S_IDLE) && (&id_free);
  // Every flop above changes only through an FSM step, an arriving
  // launch, request, event or response, a dispatch or kill decision, or a
  // one-cycle output falling (the data words drsp_q, kw_q, rsp_st_q and
  // rsp_tid_q are read only with their valids), so with none of them the
  // edge is a no-op.  In S_IDLE the FSM acts by leaving it (purge, eviction
  // write, a read) or by a_free (clean), a_comp, a_evict_start or a_pop;
  // a launch or device request is in cl_valid / dreq_valid.  Combinational
  // on the inputs, so what arrives wakes the clock for the edge that takes
  // it.  An eviction and the dispatch and kill registers keep it running
  // (they are short).
  assign quiet = st == S_IDLE && st_n == S_IDLE && !evc_busy &&
                 !a_free && !a_pop && !a_comp && !a_evict_start &&
                 !cl_valid && !dreq_valid && !ev_valid &&
                 !dq_valid && !kq_valid && !kpick_v && !pre_go && !evp_go && !disp_go &&
                 !rd_rsp_valid && !x_rsp_valid && !sem_rsp_valid && !inv_old_q &&
                 !rsp_v_q && !drsp_v_q && !kw_v_q && !pf_dl_q && !pf_dd_q && !pf_de_q &&
                 nonstall_q == '0 && !drain_q && !icache_inv_q && !trace_q.valid;
  assign icache_inv    = icache_inv_q;
  assign perf_launch   = rsp_v_q && rsp_st_q == ppu_types_pkg::TASK_LAUNCH_OK;
  assign perf_dispatch = disp_fire && !dq.resume;
  assign perf_resume   = disp_fire && dq.resume;
  assign perf_preempt  = pre_go || evp_go;
  assign perf_evict    = trace_q.valid && trace_q.kind == TR_EVICT;
  assign perf_complete = trace_q.valid && trace_q.kind == TR_COMPLETE;
  assign perf_wsave    = trace_q.valid && trace_q.kind == TR_SAVED && trace_q.a[24];

  always_comb
    for (int c = 0; c < NC; c++) begin
      chan_live[c]  = ch_live[c*LIVE_W +: LIVE_W] != '0;
      chan_clear[c] = ch_live[c*LIVE_W +: LIVE_W] == '0;
      chan_tasks[c*8 +: 8] = 8'(ch_live[c*LIVE_W +: LIVE_W]);
    end

  // ---------------------------------------------------------------------
  // Sequential: slots, save slots, dispatch and kill registers, trace
  // ---------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      sl_used  <= '0;
      sl_ready <= '0;
      // Control state only: a slot's fields are written when it is
      // filled, before sl_ready lets anything read them.
      older    <= '0;
      jp_run   <= '0;
      jp_kill  <= '0;
      jp_kids  <= '0;
      jp_save  <= '0;
      jp_saved <= '0;
      jp_savew <= '0;
      dq_valid <= 1'b0;
      dq_cu    <= '0;
      dq_slot  <= '0;
      dq_j     <= '0;
      dq       <= '0;
      kq_valid <= 1'b0;
      kq_cu    <= '0;
      kq_save  <= 1'b0;
      kq_slot  <= '0;
      kq_j     <= '0;
      kq_cta   <= '0;
      trace_q  <= '0;
    end else begin
      // activation: reserve at the pick, fill after the TMD check
      if (a_pop) begin
        sl_used[act_slot]  <= 1'b1;
        sl_ready[act_slot] <= 1'b0;
        sl_tid[act_slot]   <= head_act;
        sl_chid[act_slot]  <= d_chid[head_act];
        sl_prio[act_slot]  <= d_prio[head_act];
        sl_depth[act_slot] <= d_depth[head_act];
      end
      if (a_fill) begin
        sl_ready[f_slot]  <= !d_prog[f_tid];
        sl_block[f_slot]  <= w[15];
        sl_entry[f_slot]  <= w[0];
        sl_gx[f_slot]     <= w[1];
        sl_gy[f_slot]     <= w[2][15:0];
        sl_gz[f_slot]     <= w[3][15:0];
        sl_cx[f_slot]     <= w[4][10:0];
        sl_cy[f_slot]     <= w[5][10:0];
        sl_cz[f_slot]     <= w[6][10:0];
        sl_param[f_slot]  <= w[7];
        sl_t[f_slot]      <= v_t;
        sl_ncta[f_slot]   <= v_gxyz[31:0];
        sl_slog2[f_slot]  <= v_slog2;
        sl_kmask[f_slot]  <= v_kmask;
        sl_stack0[f_slot] <= v_stack0;
        sl_rec0[f_slot]   <= v_rec0;
        sl_next[f_slot]   <= '0;
        sl_exited[f_slot] <= '0;
        // the new slot is younger than every other (older[] and the save
        // slots are updated in the decoded loops below)
      end
      if (a_slot_free) begin
        sl_used[a_slot_idx]  <= 1'b0;
        sl_ready[a_slot_idx] <= 1'b0;
      end
      // re-activation of an evicted task: its progress, then the slot is ready
      if (a_hw_ok) begin
        sl_next[f_slot]   <= hw_next;
        sl_exited[f_slot] <= hw_exited;
      end
      if (a_act_done) sl_ready[f_slot] <= 1'b1;

      // kill register
      if (kill_fire) begin
        kq_valid <= 1'b0;
      end else if (!kq_valid && kpick_v) begin
        kq_valid <= 1'b1;
        kq_save  <= 1'b0;
        kq_slot  <= kpick_s;
        kq_j     <= kpick_j;
        kq_cu    <= kpick_cu;
        kq_cta   <= kpick_cta;
      end else if (evp_go) begin
        kq_valid <= 1'b1;
        kq_save  <= 1'b1;
        kq_slot  <= evc_slot;
        kq_j     <= epick_j;
        kq_cu    <= epick_cu;
        kq_cta   <= epick_cta;
      end else if (pre_go) begin
        kq_valid <= 1'b1;
        kq_save  <= 1'b1;
        kq_slot  <= ppick_s;
        kq_j     <= ppick_j;
        kq_cu    <= ppick_cu;
        kq_cta   <= ppick_cta;
      end

      // CTA event: the save slot is free again (children are 0 for now)
      if (ev_fire && ev_hit) begin
        if (ev_exit) sl_exited[ev_slot] <= sl_exited[ev_slot] + 32'd1;
      end

      // dispatch decision and hand-off
      if (disp_fire) dq_valid <= 1'b0;
      if (disp_go) begin
        dq_valid <= 1'b1;
        dq_cu    <= place_cu;
        dq_slot  <= cand_slot;
        dq_j     <= d_j;
        dq.resume     <= d_resume;
        dq.save_va    <= d_save;
        dq.hdr_va     <= d_hdr;
        dq.tslot      <= TSW'(cand_slot);
        dq.tid        <= 8'(sl_tid[cand_slot]);
        dq.chid       <= CHID_W'(sl_chid[cand_slot]);
        dq.root       <= ch_root[sl_chid[cand_slot]];
        dq.cta_id     <= d_cta;
        dq.nthreads   <= sl_t[cand_slot];
        dq.entry_pc   <= sl_entry[cand_slot];
        dq.param      <= sl_param[cand_slot];
        dq.stack_va   <= d_stack;
        dq.stack_log2 <= sl_slog2[cand_slot];
        dq.cta_x      <= sl_cx[cand_slot];
        dq.cta_y      <= sl_cy[cand_slot];
        dq.cta_z      <= sl_cz[cand_slot];
        dq.grid_x     <= sl_gx[cand_slot];
        dq.grid_y     <= sl_gy[cand_slot];
        dq.grid_z     <= sl_gz[cand_slot];
        dq.ncta       <= sl_ncta[cand_slot];
        dq.prio       <= sl_prio[cand_slot];
        dq.depth      <= sl_depth[cand_slot];
        dq.maxdepth   <= ch_maxdepth[sl_chid[cand_slot]];
        if (!d_resume) sl_next[cand_slot] <= sl_next[cand_slot] + 32'd1;
      end

      // Activation order and save slots, every index constant (decoded):
      // a fill makes the slot the youngest and frees its save slots; a
      // kill accepted by the CU marks its CTA (unless its event came
      // first); a CTA event frees its save slot (children are 0 for now);
      // a dispatch takes one.
      if (a_fill)
        for (int a = 0; a < S; a++)
          for (int b = 0; b < S; b++) begin
            if (f_slot == TS_W'(b)) older[a*S + b] <= a != b;
            if (f_slot == TS_W'(a)) older[a*S + b] <= 1'b0;
          end
      jp_run  <= jp_run_n;
      jp_kill <= jp_kill_n;
      jp_kids <= jp_kids_n;
      jp_save <= jp_save_n;
      jp_saved <= jp_saved_n;
      jp_savew <= jp_savew_n;
      // trace: the FSM's record, else the CTA event's, else the dispatch's
      trace_q <= '0;
      if (tr_fsm_v) begin
        trace_q <= tr_fsm;
      end else if (ev_fire && ev_hit) begin
        trace_q.valid <= 1'b1;
        // (A bit 24: KILLED for CTA_EXIT, SAVED_WAIT for CTA_SAVED)
        trace_q.kind  <= (ev.kind == ppu_types_pkg::CU_EV_SAVED ||
                          ev.kind == ppu_types_pkg::CU_EV_SAVED_WAIT) ? TR_SAVED : TR_EXIT;
        trace_q.chid  <= CHID_W'(sl_chid[ev_slot]);
        trace_q.a     <= {7'b0, !ev_exit && ev.kind != ppu_types_pkg::CU_EV_SAVED, 8'(ev_cu), 3'b0,
                          ev_j, 8'(sl_tid[ev_slot])};
        trace_q.b     <= ev.cta_id;
      end else if (disp_go) begin
        trace_q.valid <= 1'b1;
        trace_q.kind  <= d_resume ? TR_RESUME : TR_DISPATCH;
        trace_q.chid  <= CHID_W'(sl_chid[cand_slot]);
        trace_q.a     <= {8'b0, 8'(place_cu), 3'b0, d_j, 8'(sl_tid[cand_slot])};
        trace_q.b     <= d_cta;
      end else if (evp_go) begin
        trace_q.valid <= 1'b1;
        trace_q.kind  <= TR_PREEMPT;
        trace_q.chid  <= CHID_W'(sl_chid[evc_slot]);
        trace_q.a     <= {8'b0, 8'(epick_cu), 3'b0, epick_j, 8'(sl_tid[evc_slot])};
        trace_q.b     <= epick_cta;
      end else if (pre_go) begin
        trace_q.valid <= 1'b1;
        trace_q.kind  <= TR_PREEMPT;
        trace_q.chid  <= CHID_W'(sl_chid[ppick_s]);
        trace_q.a     <= {8'b0, 8'(ppick_cu), 3'b0, ppick_j, 8'(sl_tid[ppick_s])};
        trace_q.b     <= ppick_cta;
      end
    end
  end

  // The save-slot fields, one block per slot with the save slot decoded:
  // a write through a variable slot index inside a loop over j is, to
  // Yosys's proc, a copy of the slot's whole word per j (minutes on the
  // task table alone).  Written in the order the cases had in one block:
  // a fill clears the counts, then a launch's and a parent's updates.
  for (genvar g = 0; g < S; g++) begin : g_js
    always_ff @(posedge clk)
      if (rst_n) begin
        if (a_fill && f_slot == TS_W'(g)) js_kids[g] <= '0;
        // (the test around the loop only saves simulation time)
        if ((a_dtake && dr_slot == TS_W'(g)) || (pd_inslot && pd_slot == TS_W'(g)) ||
            (a_hdr && f_slot == TS_W'(g)) || (disp_go && cand_slot == TS_W'(g))) begin
          for (int j = 0; j < KMAX; j++) begin
            if (a_dtake && dr_slot == TS_W'(g) && dr_j == J_W'(j))
              js_kids[g][j*8 +: 8] <= js_kids[g][j*8 +: 8] + 8'd1;
            if (pd_inslot && pd_cnt != 8'd0 && pd_slot == TS_W'(g) && pd_j == J_W'(j))
              js_kids[g][j*8 +: 8] <= pd_cnt - 8'd1;
            if (a_hdr && f_slot == TS_W'(g) && hr_cur == J_W'(j))
              js_cta[g][j*32 +: 32] <= hdr_q[31:0];
            if (disp_go && cand_slot == TS_W'(g) && d_j == J_W'(j)) begin
              js_cta[g][j*32 +: 32]    <= d_cta;
              js_cu[g][j*CU_W +: CU_W] <= place_cu;
            end
          end
        end
      end
  end

  always_comb begin
    for (int i = 0; i < NUM_CU; i++) begin
      disp_valid[i] = dq_valid && dq_cu == CU_W'(i);
      kill_valid[i] = kq_valid && kq_cu == CU_W'(i);
    end
  end
  assign disp = dq;
  always_comb begin
    kill.save   = kq_save;
    kill.tslot  = TSW'(kq_slot);
    kill.cta_id = kq_cta;
  end
  assign trace = trace_q;

  // ---------------------------------------------------------------------
  // Debug read
  // ---------------------------------------------------------------------
  logic [TID_W-1:0] g_tid;
  logic [TS_W-1:0]  g_slot;
  logic             g_in;
  always_comb begin
    g_tid  = dbg_tid[TID_W-1:0];
    g_in   = 32'(dbg_tid) < NUM_TASKS;
    g_slot = d_slot[g_tid];
    dbg            = '0;
    dbg.state      = (g_in && !id_free[g_tid]) ? d_state[g_tid] : ppu_types_pkg::TASK_ST_FREE;
    if (g_in && !id_free[g_tid]) begin
      dbg.chid       = CHID_W'(d_chid[g_tid]);
      dbg.prio       = d_prio[g_tid];
      dbg.depth      = d_depth[g_tid];
      dbg.has_parent = d_has_par[g_tid];
      dbg.parent     = 8'(d_parent[g_tid]);
      dbg.parent_j   = d_par_j[g_tid];
      dbg.children   = d_children[g_tid];
      dbg.tmd_va     = {d_tmd[g_tid], 6'b0};
      if (d_state[g_tid] == ppu_types_pkg::TASK_ST_ACTIVE ||
          d_state[g_tid] == ppu_types_pkg::TASK_ST_EVICTING ||
          d_state[g_tid] == ppu_types_pkg::TASK_ST_COMPLETING) begin
        dbg.slot_valid = 1'b1;
        dbg.tslot      = TSW'(g_slot);
        if (sl_ready[g_slot]) begin
          dbg.next_cta = sl_next[g_slot];
          dbg.exited   = sl_exited[g_slot];
        end
      end
    end
  end

  // Not used: cl_req.chid above the channel count, the semaphore response's
  // value and acq_fail (a release), the policy's cand_valid (place_valid
  // implies it), the "none" bits of find-firsts whose mask is not empty and
  // the carry of the save-slot mask.
  logic unused;
  assign unused = ^{cl_req.chid, sem_rsp.value, sem_rsp.acq_fail, d_ff[J_W], kp_ff[J_W],
                    hdr_q[63:32], hr_ff[J_W], ew_ff[J_W],
                    v_kmask33[32]};

endmodule

// Linting this block on its own flags the package constants that only other
// blocks use.
`ifdef VERILATOR
`verilator_config
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_TAG_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'XLATE_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_WR_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'SEM_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'CU_DISP_W'*"
`endif
