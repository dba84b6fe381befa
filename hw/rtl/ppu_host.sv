// SPDX-License-Identifier: MIT
// Host interface for one engine: channel binding, GPFIFO/pushbuffer
// execution, host methods, and the engine's scheduler.
//
// Scheduling (the prior-art policy of US 9483423, see docs/hw-architecture.md):
// one channel at a time is *resident*; it keeps the host until it blocks,
// runs out of work, or its time slice has expired at a switch point while
// another channel is waiting.  The next resident is the next waiting
// channel in ring order after the last service (ppu_sched).  While the
// resident's copy is on the engine the host serves other channels as
// *guests*: their host methods (semaphore
// increments in particular) run at once, and a guest that reaches an engine
// launch waits for the engine.  A channel does not execute the method after
// a LAUNCH_DMA until its copy has completed, so a blocking acquire that
// follows a copy is evaluated only once the engine is free.
//
// A compute channel launches copies too, on subchannel COPY: they take the
// copy engine exactly like a copy channel's (resident, guests, hold), and
// its kernel launches stay asynchronous (docs/compute-design.md §6.4).
module ppu_host #(
    parameter int unsigned NUM_CHANNELS = 16,
    parameter int unsigned PB_PREFETCH_BEATS = 16,
    parameter bit          COMPUTE = 1'b0,    // a compute engine is attached
    // Channels whose context is on chip (the channel cache); NUM_CHANNELS:
    // every channel has its own slot and the save areas are never used
    parameter int unsigned CACHE_SLOTS = NUM_CHANNELS,
    // Decide over sets in RAM by runlist position (ppu_sched_rr) instead
    // of a vector per channel state (ppu_sched): docs/channels-at-scale.md
    parameter bit          SCHED_SETS = 1'b1,
    // The state machine's clock stops while it waits with nothing to do
    // (ppu_clk_gate; 0: never, e.g. for an FPGA flow without clock gates)
    parameter bit          CLOCK_GATE = 1'b1
) (
    input  logic                        clk,
    input  logic                        rst_n,
    input  logic [31:0]                 now,          // cycle counter, low half
    // from the register block
    input  logic                        doorbell,
    input  logic [ppu_types_pkg::CHID_W-1:0] doorbell_chid,
    input  logic                        doorbell_put_valid,  // GP_PUT carried (doorbell page)
    input  logic [31:0]                 doorbell_put,
    input  logic                        unbind,
    input  logic [ppu_types_pkg::CHID_W-1:0] unbind_chid,
    input  ppu_types_pkg::paddr_t       chan_table,
    input  logic [31:0]                 cfg_timeslice,
    input  logic [31:0]                 cfg_acq_retry,
    input  logic [31:0]                 cfg_acq_timeout,
    input  logic                        cfg_runlist,  // SCHED_CTRL.RUNLIST
    // runlist: submitted lists, and the state RUNLIST_STATUS reports
    input  logic                        rl_submit,
    input  ppu_types_pkg::paddr_t       rl_base,
    input  logic [15:0]                 rl_count,
    output logic                        rl_pending,
    output logic                        rl_error,
    output logic [15:0]                 rl_active,
    input  logic [31:0]                 cfg_release_hold,  // debug, see DEBUG_RELEASE_HOLD
    // per-channel status window, combinational read (formed only while
    // stat_rd: a simulator then skips it in the cycles without a read)
    input  logic                        stat_rd,
    input  logic [ppu_types_pkg::CHID_W-1:0] stat_chid,
    input  logic [4:0]                  stat_off,      // dword index in the window
    output logic [31:0]                 stat_data,
    // events to the register block
    output logic [NUM_CHANNELS-1:0]     fault_set,
    output logic [NUM_CHANNELS-1:0]     nonstall_set,
    output logic                        perf_doorbell,
    output logic                        perf_gp_entry,
    output logic                        perf_method,
    output logic                        perf_switch,
    output logic                        perf_copy_done,
    output logic [31:0]                 perf_copy_len,
    // MMU client (pushbuffer fetch)
    output logic                        x_req_valid,
    input  logic                        x_req_ready,
    output ppu_types_pkg::xlate_req_t   x_req,
    input  logic                        x_rsp_valid,
    input  ppu_types_pkg::xlate_rsp_t   x_rsp,
    // memory: physical reads (channel table, instance, USERD), fetch reads
    output logic                        prd_valid,
    input  logic                        prd_ready,
    output ppu_types_pkg::paddr_t       prd_pa,
    input  logic                        prd_rsp_valid,
    input  ppu_types_pkg::mem_rd_rsp_t  prd_rsp,
    output logic                        frd_valid,
    input  logic                        frd_ready,
    output ppu_types_pkg::paddr_t       frd_pa,
    input  logic                        frd_rsp_valid,
    input  ppu_types_pkg::mem_rd_rsp_t  frd_rsp,
    // memory write: GP_GET to USERD
    output logic                        wr_valid,
    input  logic                        wr_ready,
    output ppu_types_pkg::mem_wr_req_t  wr_req,
    input  logic                        wr_rsp_valid,
    input  logic                        wr_rsp_err,
    // semaphore unit, port 0
    output logic                        sem_valid,
    input  logic                        sem_ready,
    output ppu_types_pkg::sem_req_t     sem_req,
    input  logic                        sem_rsp_valid,
    input  ppu_types_pkg::sem_rsp_t     sem_rsp,
    input  logic                        sem_written,
    // copy engine
    output logic                        copy_valid,
    input  logic                        copy_ready,
    output ppu_types_pkg::copy_cmd_t    copy_cmd,
    input  logic                        copy_done_valid,
    /* verilator lint_off UNUSEDSIGNAL */  // ids are CHID_W bits on every interface
    input  logic [ppu_types_pkg::CHID_W-1:0] copy_done_chid,
    /* verilator lint_on UNUSEDSIGNAL */
    input  ppu_types_pkg::copy_done_t   copy_done,
    // compute engine: launches, channel kill/live/clear, its faults
    output logic                        cl_valid,
    input  logic                        cl_ready,
    output ppu_types_pkg::task_launch_t cl_req,
    input  logic                        cl_rsp_valid,
    input  ppu_types_pkg::task_status_e cl_rsp_status,
    input  logic                        can_accept,
    output logic [NUM_CHANNELS-1:0]     chan_kill,
    input  logic [NUM_CHANNELS-1:0]     chan_live,
    input  logic [NUM_CHANNELS-1:0]     chan_clear,
    input  logic [NUM_CHANNELS*8-1:0]   chan_tasks,   // task ids held, per channel
    input  logic                        drain_valid,  // pulse: channel drain_ch holds no task id now
    input  logic [$clog2(NUM_CHANNELS)-1:0] drain_ch,
    input  logic                        xf_valid,
    output logic                        xf_ready,
    input  ppu_types_pkg::cu_fault_t    xf,
    // trace
    output ppu_types_pkg::trace_t       trace,
    output ppu_types_pkg::trace_t       trace_fault,
    output logic                        idle,
    // invalidate handshake: the fetch still holds a page translation from
    // before the last MMU invalidate
    input  logic                        mmu_invalidate,
    output logic                        fetch_inv_hold
);

  localparam int unsigned NC = NUM_CHANNELS;
  localparam int unsigned CHW = $clog2(NC);
  localparam int unsigned CHID_W = ppu_types_pkg::CHID_W;
  localparam int unsigned CC = CACHE_SLOTS;
  localparam bit          DIRECT = CC >= NC;   // slot = channel id, never a miss
  localparam int unsigned SLW = (CC > 1) ? $clog2(CC) : 1;
  // (a miss needs a slot that is neither the resident's, nor the copy
  // engine's, nor that of a fault being recorded)
  if (!DIRECT && CC < 4) begin : g_cache_too_small
    $error("ppu_host: CACHE_SLOTS must be at least 4 (or NUM_CHANNELS)");
  end

  // Channel states (the values software reads in CHAN_STATUS.STATE).
  localparam logic [3:0] ST_UNBOUND = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_UNBOUND);
  localparam logic [3:0] ST_IDLE    = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_IDLE);
  localparam logic [3:0] ST_READY   = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_READY);
  localparam logic [3:0] ST_ACQ     = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_ACQ_BLOCKED);
  localparam logic [3:0] ST_EWAIT   = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_ENGINE_WAIT);
  localparam logic [3:0] ST_EBUSY   = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_ENGINE_BUSY);
  localparam logic [3:0] ST_FAULTED = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_FAULTED);
  localparam logic [3:0] ST_LOADING = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_LOADING);
  localparam logic [3:0] ST_WFI     = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_WFI_WAIT);

  localparam logic [1:0] PEND_NONE = 2'd0;
  localparam logic [1:0] PEND_ACQ = 2'd1;
  localparam logic [1:0] PEND_LAUNCH = 2'd2;

  // ---------------------------------------------------------------------
  // Per-channel state
  // ---------------------------------------------------------------------
  // What every channel needs in every cycle (the scheduler's inputs, the
  // events that arrive for any channel) is kept in packed vectors: reset
  // and swept as whole vectors, with no loop over the channels.  The rest
  // is a channel's context, read and written one channel at a time and
  // set when the channel is bound; it has no reset (docs/channels-at-scale.md).
  // The state (CHAN_STATUS.STATE) as one vector per value: the
  // scheduler's masks are these vectors themselves, and the code is built
  // only for the one channel the status window shows.  Exactly one vector
  // holds a channel.  A cycle changes them through a few ports only (the
  // copy engine's completion, a fault, the state machine: `PPU_HOST_SET_*
  // record the change; the WFI and dead sweeps), applied in that order as
  // whole-vector operations at the end of the cycle (`PPU_HOST_APPLY): a
  // write per branch of the state machine would cost a multiplexer per
  // channel per branch in hardware.
  logic [NC-1:0]      s_unbound, s_idle, s_ready, s_acq, s_ewait, s_ebusy, s_faulted,
                      s_loading, s_wfi;
  logic [NC-1:0]      c_stale;   // doorbell seen: GP_PUT must be re-read
  logic [NC-1:0]      c_dbput_v; // ... and the doorbell carried it: no USERD read
  logic [NC-1:0]      c_unbind;
  logic [NC-1:0]      c_wake;    // blocked acquire may be re-checked
  logic [NC-1:0]      c_comp;    // engine type COMPUTE
  logic [NC-1:0]      c_ecopy;   // the pending launch is a copy (compute channels copy too)
  logic [NC-1:0]      c_dead;    // a compute fault was recorded: FAULTED until unbound
  // c_dead set in the previous cycle (by a compute fault, by a launch the
  // task table answered FAULTED): the channel becomes FAULTED now if it
  // is still dead
  logic               dn_x_v, dn_f_v;
  logic [CHW-1:0]     dn_x_ch, dn_f_ch;
  logic [NC-1:0]      c_acq_on;  // c_acq_t0 is valid (a timeout is running)
  logic [NC-1:0]      rt_arm;    // blocked across a retry tick: re-checked at the next one
`define PPU_HOST_SET_D(ch, v) begin st_d_v = 1'b1; st_d_ch = (ch); st_d = (v); end
`define PPU_HOST_SET_SM(ch, v) begin st_sm_v = 1'b1; st_sm_ch = (ch); st_sm = (v); end
`define PPU_HOST_APPLY(m, v) begin \
    n_unbound = (n_unbound & ~(m)) | (((v) == ST_UNBOUND) ? (m) : '0); \
    n_idle    = (n_idle    & ~(m)) | (((v) == ST_IDLE)    ? (m) : '0); \
    n_ready   = (n_ready   & ~(m)) | (((v) == ST_READY)   ? (m) : '0); \
    n_acq     = (n_acq     & ~(m)) | (((v) == ST_ACQ)     ? (m) : '0); \
    n_ewait   = (n_ewait   & ~(m)) | (((v) == ST_EWAIT)   ? (m) : '0); \
    n_ebusy   = (n_ebusy   & ~(m)) | (((v) == ST_EBUSY)   ? (m) : '0); \
    n_faulted = (n_faulted & ~(m)) | (((v) == ST_FAULTED) ? (m) : '0); \
    n_loading = (n_loading & ~(m)) | (((v) == ST_LOADING) ? (m) : '0); \
    n_wfi     = (n_wfi     & ~(m)) | (((v) == ST_WFI)     ? (m) : '0); \
  end
  // A channel's context, in two parts.  What the status window shows and
  // what events of any channel write (GP_GET/GP_PUT, the fault registers,
  // the doorbell's GP_PUT, USERD and the ring size, the acquire's start) is
  // kept per channel, one channel at a time.  The rest, which only a
  // service of the channel reads or writes, is in the channel cache: CC
  // slots; a channel not in it has that part in its channel-table save
  // area (CHAN_ENTRY.SAVE, CHAN_SAVE_* fields), loaded when the scheduler
  // picks it (docs/channels-at-scale.md).
  logic [4:0]  c_log2    [NC];
  logic [ppu_types_pkg::PADDR_W-1:0] c_userd [NC];  // paddr_t (Yosys: no arrays of structs)
  logic [19:0] c_get     [NC];
  logic [19:0] c_put     [NC];
  logic [31:0] c_dbput   [NC];
  logic        c_auto    [NC];   // AUTO_PUT: GP_PUT = GP_GET - 1, USERD.GP_PUT unused
  logic [31:0] c_acq_t0  [NC];   // first failure of the current acquire
  logic [31:0] c_finfo   [NC];
  logic [31:0] c_faddr   [NC];
  logic [31:0] c_fdata   [NC];
  // The cached part, by slot.
  logic [31:0] c_gpva    [CC];
  logic [22:0] c_root    [CC];   // pt_root_t
  logic [31:0] c_slice   [CC];
  logic        c_seg     [CC];   // inside a pushbuffer segment
  logic [31:0] c_pbva    [CC];   // next pushbuffer dword
  logic [20:0] c_left    [CC];   // dwords left in the segment
  logic [11:0] c_maddr   [CC];   // current method (dword address)
  logic [12:0] c_mcnt    [CC];   // data dwords left for the current header
  logic [2:0]  c_mop     [CC];
  logic        c_msub    [CC];   // current header is on the copy subchannel (compute channels)
  logic [12:0] c_imm     [CC];   // data of an immediate header
  logic [31:0] c_sem_va  [CC];
  logic [31:0] c_pay_lo  [CC];
  logic [31:0] c_pay_hi  [CC];
  logic [31:0] c_src     [CC];
  logic [31:0] c_tmd     [CC];   // compute: TMD_ADDR (same method offset as a copy's source)
  logic [31:0] c_dst     [CC];
  logic [31:0] c_len     [CC];
  logic [31:0] c_csem    [CC];
  logic [31:0] c_cpay    [CC];
  logic [1:0]  c_pend    [CC];   // operation to retry when serviced again
  logic [31:0] c_pexec   [CC];   // its SEM_EXECUTE / LAUNCH_DMA word
  logic [5:0]  c_pmin    [CC];   // compute: launch priority bounds (INST PRIORITY)
  logic [5:0]  c_pmax    [CC];
  logic [6:0]  c_maxd    [CC];   // compute: max nesting depth

  // ---- The channel cache: which channel each slot holds.  With DIRECT
  // (a slot per channel) slot = channel id and nothing below is used.
  logic [CC*CHW-1:0] sl_ch;       // (flat: Yosys 0.23)
  logic [CC-1:0]     sl_v;
  logic [SLW-1:0]    cur_sl, ph_sl, eng_sl;
  logic              eng_v;       // a copy of channel eng_ch is on the engine
  logic [CHW-1:0]    eng_ch;
  logic [SLW-1:0]    k_vic;       // the next slot to give to a miss
  // A miss being served: the slot (k_sl) is written back for channel
  // k_wch if it held one, then loaded for k_ch (unless a bind: k_fill), beat by beat
  // through k_buf.
  localparam int unsigned SAVE_BEATS = ppu_hw_pkg::PPU_CHAN_SAVE_BYTES / 8;
  localparam int unsigned SAVE_W = SAVE_BEATS * 64;
  logic [SLW-1:0]    k_sl;
  logic [CHW-1:0]    k_ch, k_wch;
  logic              k_fill;
  logic [3:0]        k_beat;      // beats answered
  logic [3:0]        k_sent;      // beats issued (all may be in flight: answers come in order)
  logic              k_err;       // an answer was an error
  logic [SAVE_W-1:0] k_buf;

  // Lookup: {hit, slot}.
  function automatic logic [SLW:0] sl_find(input logic [CHW-1:0] ch, input logic [CC*CHW-1:0] tags,
                                           input logic [CC-1:0] v);
    sl_find = '0;
    if (DIRECT)
      sl_find = {1'b1, SLW'(ch)};
    else
      for (int k = 0; k < CC; k++)
        if (v[k] && tags[k*CHW +: CHW] == ch) sl_find = {1'b1, SLW'(k)};
  endfunction

  // Runlist in force (rl_in, rl_level) and the one being read (rl_n*).
  logic [NC-1:0] rl_in, rl_nin;
  // (levels as 6 bit planes, bit b of channel i at b*NC + i: the
  // scheduler's layout)
  logic [NC*6-1:0] rl_level, rl_nlevel;
  logic          rl_req;          // a submitted list waits to be read
  logic          rl_busy;         // ... is being read
  ppu_types_pkg::paddr_t rl_req_base;
  logic [15:0]   rl_req_count;
  logic [15:0]   rl_left;         // entries still to read
  logic [15:0]   rl_fcount;       // entries of the list being read
  logic [5:0]    rl_last;         // ... the level of its last entry read
  assign rl_pending = rl_req || rl_busy;
  // With SCHED_SETS: the runlist as positions, two banks (the one in force,
  // rl_bank, and the one being read): position <-> channel and each
  // level's range of positions (a list gives its levels from the highest
  // down, so a level is one run of entries).
  localparam int unsigned NLV = 64;
  /* verilator lint_off UNUSEDSIGNAL */  // (read with SCHED_SETS only)
  logic [CHW-1:0] rl_c2p [2*NC];
  logic [CHW-1:0] rl_p2c [2*NC];
  logic [CHW-1:0] rl_lo  [2*NLV];
  logic [CHW-1:0] rl_hi  [2*NLV];
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NLV-1:0] rl_ne  [2];
  logic           rl_bank;
  logic [15:0]    rl_npos;        // entries of the list being read, so far


  // ---------------------------------------------------------------------
  // Scheduler inputs
  // ---------------------------------------------------------------------
  logic           res_v;          // a resident exists
  logic [CHW-1:0] res;
  logic [31:0]    slice_t0;
  logic [3:0]     res_reason;     // why the last service ended (trace)
  logic           yielded;        // the resident executed YIELD
  logic           guest;          // current service is a guest
  logic [CHW-1:0] cur;            // channel being serviced

  logic [31:0] res_slice;
  always_comb res_slice = (c_slice[res_sl] != 0) ? c_slice[res_sl] : cfg_timeslice;
  wire expired = res_v && ((now - slice_t0) >= res_slice);

  // Timed re-checks of blocked acquires without a timer per channel: one
  // retry tick for all of them (a channel blocked across a tick, rt_arm,
  // is re-checked at the next: after SCHED_ACQ_RETRY to twice that), and,
  // while SCHED_ACQ_TIMEOUT is set, a tick every eighth of it that
  // re-checks the channels whose timeout runs; the timeout itself is
  // compared with the channel's c_acq_t0 when its acquire fails again.
  logic [31:0] rt_t0, to_t0;
  wire [31:0] to_period = (cfg_acq_timeout[31:3] != 0) ? {3'b000, cfg_acq_timeout[31:3]} : 32'd1;
  wire rt_tick = (now - rt_t0) >= cfg_acq_retry;
  wire to_tick = cfg_acq_timeout != 0 && (now - to_t0) >= to_period;

  // Fault capture from the state machine (one per cycle).
  // A fault raised by the state machine is registered in fx and recorded
  // one cycle later: {valid, channel, kind, unit, access, address, data}.
  localparam int unsigned FX_W = 1 + CHW + 8 + 4 + 4 + 32 + 32;
  logic [FX_W-1:0] fx;
  logic           fx_valid;
  logic [CHW-1:0] fx_ch;
  logic [7:0]     fx_kind;
  logic [3:0]     fx_unit;
  logic [3:0]     fx_acc;
  logic [31:0]    fx_addr, fx_data;
  assign {fx_valid, fx_ch, fx_kind, fx_unit, fx_acc, fx_addr, fx_data} = fx;

  // Scheduling policy: whole vectors, no loop over the channels.
  // A compute channel being unbound runs nothing more; its unbind is
  // carried out once the task table holds nothing of it.  A copy it has
  // on the engine finishes first, as on copy channels.  A fault raised by
  // the state machine takes effect a cycle later (fx): the channel is not
  // picked in that cycle, or its service would run after the fault and
  // could leave it IDLE over it.  Such channels count as FAULTED (in
  // none of the scheduler's masks).
  logic [NC-1:0]    fx_oh, off_busy;
  logic [NC-1:0]    unbind_v, comp_v;
  always_comb begin
    fx_oh    = fx_valid ? (NC'(1) << fx_ch) : '0;
    off_busy = fx_oh;
    // (a compute channel's copy waits for the copy engine like any copy)
    comp_v   = c_comp & ~c_ecopy;
    unbind_v = c_unbind & (~c_comp | chan_clear);
  end

  logic                      engine_free, yield_now, sd_preempt, sd_renew;
  ppu_types_pkg::sched_dec_e sd_dec;
  logic [CHW-1:0]            sd_ch;
  logic [3:0]                sd_reason;

  // A service ends (below): the scheduler's round robin goes on after it.
  logic           served;
  logic [CHW-1:0] served_ch;

  // (SCHED_SETS: the sets' upkeep and rounds are under way, the clock
  // must run; ... the sets do not hold the channels' kinds yet)
  logic ss_busy, ss_upkeep;
  if (!SCHED_SETS) begin : g_sched_vec
    logic [NC-1:0]   off;
    logic [NC*6-1:0] level_flat;
    always_comb begin
      off = (c_comp & c_unbind & ~s_ebusy) | fx_oh;
      /* verilator lint_off WIDTHCONCAT */  // (4096 channels: 24 kbit)
      level_flat = cfg_runlist ? rl_level : '0;
      /* verilator lint_on WIDTHCONCAT */
    end
    ppu_sched #(.NUM_CHANNELS(NC)) u_sched (
        .clk, .rst_n,
        .ready(s_ready & ~off), .acq(s_acq & ~off), .ewait(s_ewait & ~off),
        .ebusy(s_ebusy & ~off_busy),
        .wake(c_wake), .stale(c_stale), .unbind(unbind_v), .level(level_flat),
        .member(cfg_runlist ? rl_in : '1),
        .comp(comp_v), .can_accept,
        .copy_ready, .res_v, .res, .expired, .yielded, .res_reason, .guest,
        .served, .served_ch,
        .engine_free, .preempt(sd_preempt),
        .dec(sd_dec), .dec_ch(sd_ch), .dec_reason(sd_reason), .dec_renew(sd_renew)
    );
    assign ss_busy   = 1'b0;
    assign ss_upkeep = 1'b0;
  end

  // A submitted runlist is read at the next decision: end the service.
  assign yield_now = sd_preempt || rl_req;

  // ---------------------------------------------------------------------
  // Pushbuffer fetch
  // ---------------------------------------------------------------------
  logic        f_start, f_flush, f_idle;
  logic [31:0] f_va;
  logic [20:0] f_ndw;
  logic        dw_valid, dw_ready, dw_fault;
  logic [31:0] dw, dw_fault_va;
  logic [7:0]  dw_fault_kind;

  ppu_pb_fetch #(.DEPTH(PB_PREFETCH_BEATS)) u_fetch (
      .clk, .rst_n,
      .start(f_start), .start_va(f_va), .start_ndw(f_ndw), .start_root(c_root[cur_sl]),
      .flush(f_flush), .idle(f_idle),
      .dw_valid, .dw_ready, .dw, .dw_fault, .dw_fault_kind, .dw_fault_va,
      .x_req_valid, .x_req_ready, .x_req, .x_rsp_valid, .x_rsp,
      .rd_valid(frd_valid), .rd_ready(frd_ready), .rd_pa(frd_pa),
      .rd_rsp_valid(frd_rsp_valid), .rd_rsp(frd_rsp),
      .invalidate(mmu_invalidate), .inv_hold(fetch_inv_hold)
  );

  // ---------------------------------------------------------------------
  // Method decode helpers
  // ---------------------------------------------------------------------
  wire [2:0]  h_op    = dw[ppu_hw_pkg::PPU_MTHD_OP__MSB:ppu_hw_pkg::PPU_MTHD_OP__LSB];
  wire [12:0] h_cnt   = dw[ppu_hw_pkg::PPU_MTHD_COUNT__MSB:ppu_hw_pkg::PPU_MTHD_COUNT__LSB];
  wire [2:0]  h_subch = dw[ppu_hw_pkg::PPU_MTHD_SUBCH__MSB:ppu_hw_pkg::PPU_MTHD_SUBCH__LSB];
  wire        h_rsvd  = dw[ppu_hw_pkg::PPU_MTHD_RSVD__LSB];
  wire [11:0] h_addr  = dw[ppu_hw_pkg::PPU_MTHD_ADDR__MSB:ppu_hw_pkg::PPU_MTHD_ADDR__LSB];

  // Execute one method (byte offset m, data d) of the current channel.
  typedef enum logic [3:0] {
    MX_CONT,        // done, continue decoding
    MX_SEM,         // issue a semaphore operation
    MX_LAUNCH,      // copy engine launch
    MX_CLAUNCH,     // compute launch (TMD to the task table)
    MX_WFI,         // compute: wait until the channel's tasks complete
    MX_NONSTALL,    // raise the non-stall interrupt, continue
    MX_YIELD,
    MX_ILLEGAL,
    MX_VA_RANGE
  } mx_e;

  // Host methods (below 0x100), the same on every channel.
  function automatic mx_e classify_host(input logic [13:0] m, input logic [31:0] d);
    logic [2:0] op;
    op = d[ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__MSB:ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__LSB];
    classify_host = MX_ILLEGAL;
    case (32'(m))
      ppu_hw_pkg::PPU_HOST_NOP, ppu_hw_pkg::PPU_HOST_WFI,
      ppu_hw_pkg::PPU_HOST_SEM_ADDR_LO, ppu_hw_pkg::PPU_HOST_SEM_PAYLOAD_LO,
      ppu_hw_pkg::PPU_HOST_SEM_PAYLOAD_HI:
        classify_host = MX_CONT;
      ppu_hw_pkg::PPU_HOST_SEM_ADDR_HI:
        classify_host = (d != 0) ? MX_VA_RANGE : MX_CONT;
      ppu_hw_pkg::PPU_HOST_SEM_EXECUTE: begin
        if (32'(op) == ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_REDUCTION)
          classify_host = d[ppu_hw_pkg::PPU_SEM_EXECUTE_PAYLOAD_SIZE__LSB] ? MX_ILLEGAL : MX_SEM;
        else if (op == 3'd5 || op == 3'd7)
          classify_host = MX_ILLEGAL;
        else
          classify_host = MX_SEM;
      end
      ppu_hw_pkg::PPU_HOST_NON_STALL_INTR: classify_host = MX_NONSTALL;
      ppu_hw_pkg::PPU_HOST_YIELD: classify_host = MX_YIELD;
      default: classify_host = MX_ILLEGAL;
    endcase
  endfunction

  // Copy class (engine type COPY).
  function automatic mx_e classify_copy(input logic [13:0] m, input logic [31:0] d);
    classify_copy = MX_ILLEGAL;
    case (32'(m))
      ppu_hw_pkg::PPU_COPY_SRC_ADDR_LO, ppu_hw_pkg::PPU_COPY_DST_ADDR_LO,
      ppu_hw_pkg::PPU_COPY_LENGTH, ppu_hw_pkg::PPU_COPY_SEM_ADDR_LO,
      ppu_hw_pkg::PPU_COPY_SEM_PAYLOAD:
        classify_copy = MX_CONT;
      ppu_hw_pkg::PPU_COPY_SRC_ADDR_HI,
      ppu_hw_pkg::PPU_COPY_DST_ADDR_HI, ppu_hw_pkg::PPU_COPY_SEM_ADDR_HI:
        classify_copy = (d != 0) ? MX_VA_RANGE : MX_CONT;
      ppu_hw_pkg::PPU_COPY_LAUNCH_DMA: begin
        if (d[31:ppu_hw_pkg::PPU_LAUNCH_DMA_INTERRUPT__MSB+1] != 0)
          classify_copy = MX_ILLEGAL;
        else if (d[ppu_hw_pkg::PPU_LAUNCH_DMA_SEMAPHORE__MSB:ppu_hw_pkg::PPU_LAUNCH_DMA_SEMAPHORE__LSB] == 2'd3)
          classify_copy = MX_ILLEGAL;
        else
          classify_copy = MX_LAUNCH;
      end
      default: classify_copy = MX_ILLEGAL;
    endcase
  endfunction

  // Compute class (engine type COMPUTE).  WFI is a host method, but on a
  // compute channel it waits for the channel's tasks (on copy channels a
  // method never starts before the previous copy has completed anyway).
  function automatic mx_e classify_compute(input logic [13:0] m, input logic [31:0] d);
    classify_compute = MX_ILLEGAL;
    case (32'(m))
      ppu_hw_pkg::PPU_COMPUTE_TMD_ADDR_LO: classify_compute = MX_CONT;
      ppu_hw_pkg::PPU_COMPUTE_TMD_ADDR_HI: classify_compute = (d != 0) ? MX_VA_RANGE : MX_CONT;
      ppu_hw_pkg::PPU_COMPUTE_LAUNCH:      classify_compute = (d != 0) ? MX_ILLEGAL : MX_CLAUNCH;
      default:                             classify_compute = MX_ILLEGAL;
    endcase
  endfunction

  // Host methods do not depend on the subchannel; on a compute channel the
  // class methods are the copy class on subchannel COPY (copy_cls).
  function automatic mx_e classify(input logic [13:0] m, input logic [31:0] d, input logic comp,
                                   input logic copy_cls);
    if (comp && 32'(m) == ppu_hw_pkg::PPU_HOST_WFI)
      classify = MX_WFI;
    else if (32'(m) < 32'h100)
      classify = classify_host(m, d);
    else if (comp && !copy_cls)
      classify = classify_compute(m, d);
    else
      classify = classify_copy(m, d);
  endfunction

  // ---------------------------------------------------------------------
  // Main state machine
  // ---------------------------------------------------------------------
  typedef enum logic [4:0] {
    H_RESET_WAIT,
    H_PICK,
    H_SVC_START,
    H_PRD,            // physical read in flight (purpose in ph_what)
    H_NEXT_ENTRY,
    H_FSTART,         // start the fetch once it is idle
    H_GP_ENTRY,
    H_RUN,
    H_SEM_SEND,
    H_SEM_WAIT,
    H_LAUNCH,
    H_HOLD,           // resident's copy on the engine, fetch stream kept
    H_WB_GET,
    H_WB_WAIT,
    H_DBG_HOLD,       // DEBUG_RELEASE_HOLD after a release: fetch dropped
    H_PUT,            // take a new GP_PUT (ph_put), from USERD or a doorbell page
    H_RL_DONE,        // the runlist read: it is in force from here
    H_CLAUNCH,        // compute launch: TMD to the task table, fetch stream kept
    H_END,
    H_CWB,            // channel cache miss: write the slot's channel to its save area
    H_CFILL,          // ... read the picked channel's save area
    H_CDONE           // ... the slot holds the picked channel
  } hstate_e;
  hstate_e hs;

  typedef enum logic [2:0] {
    PH_CT,            // channel table entry
    PH_INST,          // instance block beats
    PH_USERD_BIND,    // GP_PUT and GP_GET at bind
    PH_USERD_PUT,     // GP_PUT after a doorbell
    PH_RL             // runlist entries, two per beat
  } ph_e;
  ph_e            ph_what;
  logic           ph_issued;
  ppu_types_pkg::paddr_t         ph_pa;
  logic [CHW-1:0] ph_ch;
  logic [1:0]     ph_beat;
  logic           ph_back;        // return to H_NEXT_ENTRY after a GP_PUT read
  logic [31:0]    ph_put;         // H_PUT's value
  logic [31:0]    inst_dw [8];
  logic [31:0]    inst_pa;        // for fault reports

  logic [31:0]    gp_dw0;
  logic           gp_have0;
  logic           f_next_is_pb;   // fetch start target: 0 GPFIFO entry, 1 pushbuffer
  logic [31:0]    sem_exec;
  logic [31:0]    dbg_left;       // H_DBG_HOLD cycles to go

  // Where servicing a channel starts: a channel with nothing pending and no
  // pushbuffer segment under way goes straight to its next GPFIFO entry
  // (a pending state only ever changes to PEND_NONE outside the state
  // machine, so H_SVC_START would decide the same one cycle later).
  function automatic hstate_e svc_first(input logic [1:0] pend, input logic seg);
    svc_first = (pend == PEND_NONE && !seg) ? H_NEXT_ENTRY : H_SVC_START;
  endfunction

  // A SEM_EXECUTE operation that writes memory: software may be watching.
  // (Assigned to the function name: Yosys 0.23 has no `return`.)
  function automatic logic sem_writes(input logic [2:0] op);
    sem_writes = 32'(op) == ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_RELEASE ||
                 32'(op) == ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_REDUCTION;
  endfunction
  logic           no_stream;      // this launch was retried from c_pend: no fetch stream

  // The save-area beat a miss reads or writes next: the written-back
  // channel's in H_CWB, the loaded one's in H_CFILL (k_sent beats on).
  logic [31:0]           k_off;
  ppu_types_pkg::paddr_t k_pa, k_save;
  always_comb begin
    k_off       = ((hs == H_CWB) ? 32'(k_wch) : 32'(k_ch)) * ppu_hw_pkg::PPU_CHAN_ENTRY_BYTES +
                  ppu_hw_pkg::PPU_CHAN_ENTRY_SAVE;
    k_save      = chan_table;
    k_save.addr = chan_table.addr + ppu_types_pkg::PA_W'(k_off);
    k_pa        = k_save;
    k_pa.addr   = k_save.addr + ppu_types_pkg::PA_W'({k_sent, 3'b000});
  end

  // Slots of the channels the decision, the resident, a fault and the
  // compute engine's fault report refer to.
  logic [CHW-1:0] xf_ch;
  logic           sd_hit, fx_hit, xf_hit;
  /* verilator lint_off UNUSEDSIGNAL */
  logic           res_hit;   // (always: the resident's slot is never taken)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [SLW-1:0] sd_sl, res_sl, fx_sl, xf_sl;
  assign xf_ch = xf.chid[CHW-1:0];
  always_comb begin
    {sd_hit, sd_sl}   = sl_find(sd_ch, sl_ch, sl_v);
    {res_hit, res_sl} = sl_find(res, sl_ch, sl_v);
    {fx_hit, fx_sl}   = sl_find(fx_ch, sl_ch, sl_v);
    {xf_hit, xf_sl}   = sl_find(xf_ch, sl_ch, sl_v);
  end

  // The slot a miss takes: a free one, else one whose channel is none of
  // the resident, the copy engine's owner and a fault being recorded,
  // searched from k_vic on (which moves past each slot taken).
  logic [SLW-1:0] vic;
  always_comb begin
    logic found;
    vic   = k_vic;
    found = DIRECT;   // (no misses: nothing to search)
    for (int j = 0; j < CC; j++) begin
      int unsigned k;
      k = 32'(k_vic) + 32'(j);
      if (k >= CC) k = k - CC;
      if (!found && !sl_v[k]) begin
        vic   = SLW'(k);
        found = 1'b1;
      end
    end
    for (int j = 0; j < CC; j++) begin
      int unsigned k;
      logic [CHW-1:0] t;
      k = 32'(k_vic) + 32'(j);
      if (k >= CC) k = k - CC;
      t = sl_ch[k*CHW +: CHW];
      if (!found && !(res_v && t == res) && !(eng_v && t == eng_ch) && !(fx_valid && t == fx_ch)) begin
        vic   = SLW'(k);
        found = 1'b1;
      end
    end
  end

  // The victim's context as its save area lays it out.
  logic [SAVE_W-1:0] vic_save;
  always_comb begin
    vic_save = '0;
    if (!DIRECT) begin
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_GPFIFO_VA*8 +: 32] = c_gpva[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_PB_VA*8 +: 32]     = c_pbva[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_LEFT__LSB +: 21] = c_left[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_SEG__LSB]         = c_seg[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_SUBCH_COPY__LSB]  = c_msub[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_OP__LSB +: 3]     = c_mop[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_PEND__LSB +: 2]   = c_pend[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_METHOD*8 + ppu_hw_pkg::PPU_CHAN_SAVE_METHOD_ADDR__LSB +: 12]  = c_maddr[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_METHOD*8 + ppu_hw_pkg::PPU_CHAN_SAVE_METHOD_COUNT__LSB +: 13] = c_mcnt[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS*8 + ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS_IMMD__LSB +: 13]      = c_imm[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS*8 + ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS_PRIO_MIN__LSB +: 6]   = c_pmin[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS*8 + ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS_PRIO_MAX__LSB +: 6]   = c_pmax[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS*8 + ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS_MAX_DEPTH__LSB +: 7]  = c_maxd[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_PT_ROOT*8 + ppu_hw_pkg::PPU_INST_PT_ROOT_PPN__LSB +: 22]          = c_root[vic][21:0];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_PT_ROOT*8 + ppu_hw_pkg::PPU_INST_PT_ROOT_SYS__LSB]                = c_root[vic][22];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_TIMESLICE*8 +: 32]        = c_slice[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_SEM_ADDR*8 +: 32]         = c_sem_va[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_SEM_PAYLOAD_LO*8 +: 32]   = c_pay_lo[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_SEM_PAYLOAD_HI*8 +: 32]   = c_pay_hi[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_SRC*8 +: 32]         = c_src[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_TMD_ADDR*8 +: 32]         = c_tmd[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_DST*8 +: 32]         = c_dst[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_LENGTH*8 +: 32]      = c_len[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_SEM_ADDR*8 +: 32]    = c_csem[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_SEM_PAYLOAD*8 +: 32] = c_cpay[vic];
    vic_save[ppu_hw_pkg::PPU_CHAN_SAVE_PEND_EXEC*8 +: 32]        = c_pexec[vic];
    end
  end

  wire k_more = 32'(k_sent) < SAVE_BEATS;
  assign prd_valid = ((hs == H_PRD) && !ph_issued) || ((hs == H_CFILL) && k_more);
  assign prd_pa    = (hs == H_CFILL) ? k_pa : ph_pa;

  // Fetch stream: the decoder pops in H_GP_ENTRY and H_RUN.
  logic run_pop;
  assign dw_ready = ((hs == H_GP_ENTRY) && !dw_fault) || run_pop;


  // Kind, unit and access arrive as the 32-bit package constants; only
  // their FAULT_INFO widths are kept.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [FX_W-1:0] fault(input logic [CHW-1:0] ch, input logic [31:0] kind,
                                            input logic [31:0] unit, input logic [31:0] acc,
                                            input logic [31:0] addr, input logic [31:0] data);
    fault = {1'b1, ch, kind[7:0], unit[3:0], acc[3:0], addr, data};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // Another channel needs the host while the resident holds it in H_HOLD:
  // a guest to serve, or a doorbell or unbind of another channel (the
  // resident's own doorbell is taken at its next entry, as usual).
  logic hold_break;
  always_comb begin
    hold_break = (sd_dec == ppu_types_pkg::SCHED_GUEST) || rl_req ||
                 (|((c_stale | c_unbind) & ~(NC'(1) << cur)));
  end

  // Method currently at the decoder
  wire [13:0] cur_m = {c_maddr[cur_sl], 2'b00};
  // A method executes when its data is at the head of the stream, or at
  // once for an immediate (its data came with the header).
  wire        ex_imm = (32'(c_mop[cur_sl]) == ppu_hw_pkg::PPU_MTHD_OP_IMMD);
  wire [31:0] ex_d   = ex_imm ? 32'(c_imm[cur_sl]) : dw;
  wire        ex_go  = (c_mcnt[cur_sl] != 0) && (ex_imm || (dw_valid && !dw_fault));
  mx_e mx;
  // On a compute channel a header on the copy subchannel addresses the copy class.
  wire        cls_copy = !c_comp[cur] || c_msub[cur_sl];
  always_comb mx = classify(cur_m, ex_d, c_comp[cur], cls_copy);

  // run_pop: the decoder consumes the dword at the head of the stream
  always_comb begin
    run_pop = 1'b0;
    if (hs == H_RUN && dw_valid && !dw_fault) begin
      if (c_mcnt[cur_sl] != 0) run_pop = (32'(c_mop[cur_sl]) != ppu_hw_pkg::PPU_MTHD_OP_IMMD);
      else if (c_left[cur_sl] != 0 && !yield_now) run_pop = 1'b1;
    end
  end

  // Semaphore request (host port)
  always_comb begin
    sem_valid       = (hs == H_SEM_SEND);
    sem_req.rid     = '0;
    sem_req.chid    = CHID_W'(cur);
    sem_req.root    = c_root[cur_sl];
    sem_req.va      = c_sem_va[cur_sl];
    sem_req.exec    = sem_exec;
    sem_req.payload = {c_pay_hi[cur_sl], c_pay_lo[cur_sl]};
  end

  // Copy launch
  always_comb begin
    copy_valid           = (hs == H_LAUNCH) && engine_free;
    copy_cmd.chid        = CHID_W'(cur);
    copy_cmd.root        = c_root[cur_sl];
    copy_cmd.src         = c_src[cur_sl];
    copy_cmd.dst         = c_dst[cur_sl];
    copy_cmd.len         = c_len[cur_sl];
    copy_cmd.sem_mode    = c_pexec[cur_sl][ppu_hw_pkg::PPU_LAUNCH_DMA_SEMAPHORE__MSB:ppu_hw_pkg::PPU_LAUNCH_DMA_SEMAPHORE__LSB];
    copy_cmd.sem_va      = c_csem[cur_sl];
    copy_cmd.sem_payload = c_cpay[cur_sl];
  end

  // Compute launch
  logic cl_sent;
  always_comb begin
    cl_valid         = (hs == H_CLAUNCH) && !cl_sent;
    cl_req.chid      = CHID_W'(cur);
    cl_req.root      = c_root[cur_sl];
    cl_req.tmd_va    = c_tmd[cur_sl];
    cl_req.prio_min  = c_pmin[cur_sl];
    cl_req.prio_max  = c_pmax[cur_sl];
    cl_req.max_depth = c_maxd[cur_sl];
  end

  // The task table is told to drop everything of a compute channel that
  // faulted or is being unbound.
  assign chan_kill = c_comp & (c_dead | s_faulted | c_unbind);

  // Compute faults are recorded in a cycle without another fault report.
  assign xf_ready = !fx_valid && !(copy_done_valid && copy_done.fault) && !cf_hold.valid;

  // The unbind the state machine carries out in this cycle, if any.
  wire unbind_now = (hs == H_PICK) && f_idle && !rl_req && (sd_dec == ppu_types_pkg::SCHED_UNBIND);

  // The decision in H_PICK needs a channel the cache does not hold: a
  // service (guest, switch) or a bind.
  wire miss_now = !DIRECT && (hs == H_PICK) && f_idle && !rl_req && !sd_hit &&
                  (sd_dec == ppu_types_pkg::SCHED_GUEST || sd_dec == ppu_types_pkg::SCHED_SWITCH ||
                   (sd_dec == ppu_types_pkg::SCHED_DOORBELL && s_unbound[sd_ch]));

  // The bind the state machine starts in this cycle, if any.
  wire bind_now = (hs == H_PICK) && f_idle && !rl_req && !miss_now &&
                  (sd_dec == ppu_types_pkg::SCHED_DOORBELL) && s_unbound[sd_ch];

  // A service ends: the resident switches away or is dropped, a guest
  // becomes resident or finishes (the cases of the state machine below).
  always_comb begin
    served    = 1'b0;
    served_ch = res;
    if (hs == H_PICK && f_idle && !rl_req && !miss_now &&
        ((sd_dec == ppu_types_pkg::SCHED_SWITCH && res_v) || sd_dec == ppu_types_pkg::SCHED_DROP))
      served = 1'b1;
    if (hs == H_LAUNCH && engine_free && guest && res_v) served = 1'b1;
    if (hs == H_END && guest) begin
      served    = 1'b1;
      served_ch = cur;
    end
  end

  ppu_types_pkg::paddr_t cur_userd;
  always_comb cur_userd = c_userd[cur];

  // GP_GET write-back
  logic [19:0] get_next;
  always_comb get_next = (c_get[cur] + 20'd1) & ((20'd1 << c_log2[cur]) - 20'd1);
  always_comb begin
    wr_valid         = (hs == H_WB_GET) || ((hs == H_CWB) && k_more);
    wr_req.pa        = cur_userd;
    wr_req.pa.addr   = {cur_userd.addr[ppu_types_pkg::PA_W-1:3], 3'b000};
    wr_req.data      = {12'd0, get_next, 32'd0};
    wr_req.strb      = 8'hf0;
    if (hs == H_CWB) begin
      wr_req.pa   = k_pa;
      wr_req.data = k_buf[32'(k_sent)*64 +: 64];
      wr_req.strb = 8'hff;
    end
  end

  // A channel's state code (CHAN_STATUS.STATE) from the state vectors.
  function automatic logic [3:0] st_code(input logic [CHW-1:0] ch);
    st_code = ST_UNBOUND;
    if (s_idle[ch])    st_code = ST_IDLE;
    if (s_ready[ch])   st_code = ST_READY;
    if (s_acq[ch])     st_code = ST_ACQ;
    if (s_ewait[ch])   st_code = ST_EWAIT;
    if (s_ebusy[ch])   st_code = ST_EBUSY;
    if (s_faulted[ch]) st_code = ST_FAULTED;
    if (s_loading[ch]) st_code = ST_LOADING;
    if (s_wfi[ch])     st_code = ST_WFI;
  endfunction

  // Status window
  always_comb begin
    logic [CHW-1:0] s;
    logic           bound;
    s = stat_chid[CHW-1:0];
    bound = '0;
    stat_data = '0;
    if (stat_rd && 32'(stat_chid) < NC) begin
      // (an unbound channel has no context: it reads as zero)
      bound = !s_unbound[s];
      case (stat_off)
        5'(ppu_hw_pkg::PPU_CHAN_STATUS / 4): begin
          stat_data[ppu_hw_pkg::PPU_CHAN_STATUS_STATE__MSB:ppu_hw_pkg::PPU_CHAN_STATUS_STATE__LSB] = st_code(s);
          stat_data[ppu_hw_pkg::PPU_CHAN_STATUS_RESIDENT__LSB] = res_v && (res == s);
        end
        5'(ppu_hw_pkg::PPU_CHAN_GP_GET / 4): stat_data = bound ? 32'(c_get[s]) : '0;
        5'(ppu_hw_pkg::PPU_CHAN_GP_PUT / 4): stat_data = bound ? 32'(c_put[s]) : '0;
        5'(ppu_hw_pkg::PPU_CHAN_FAULT_INFO / 4): stat_data = bound ? c_finfo[s] : '0;
        5'(ppu_hw_pkg::PPU_CHAN_FAULT_ADDR / 4): stat_data = bound ? c_faddr[s] : '0;
        5'(ppu_hw_pkg::PPU_CHAN_FAULT_DATA / 4): stat_data = bound ? c_fdata[s] : '0;
        5'(ppu_hw_pkg::PPU_CHAN_TASKS / 4): stat_data = 32'(chan_tasks[s*8 +: 8]);
        default: stat_data = '0;
      endcase
    end
  end

  // Trace records of the state machine
  ppu_types_pkg::trace_t tr;
  ppu_types_pkg::trace_t cf_hold;   // copy fault waiting for the fault trace port
  assign trace = tr;

  function automatic logic [31:0] finfo(input logic [7:0] kind, input logic [3:0] acc,
                                        input logic [3:0] unit);
    logic [31:0] r;
    r = '0;
    r[ppu_hw_pkg::PPU_FAULT_INFO_KIND__MSB:ppu_hw_pkg::PPU_FAULT_INFO_KIND__LSB] = kind;
    r[ppu_hw_pkg::PPU_FAULT_INFO_ACCESS__MSB:ppu_hw_pkg::PPU_FAULT_INFO_ACCESS__LSB] = acc;
    r[ppu_hw_pkg::PPU_FAULT_INFO_UNIT__MSB:ppu_hw_pkg::PPU_FAULT_INFO_UNIT__LSB] = unit;
    finfo = r;
  endfunction

  // Instance block validation (used at the end of a load)
  wire [4:0]  ld_log2 = inst_dw[ppu_hw_pkg::PPU_INST_GPFIFO_CFG/4][ppu_hw_pkg::PPU_INST_GPFIFO_CFG_LOG2_ENTRIES__MSB:ppu_hw_pkg::PPU_INST_GPFIFO_CFG_LOG2_ENTRIES__LSB];
  wire        ld_auto = inst_dw[ppu_hw_pkg::PPU_INST_GPFIFO_CFG/4][ppu_hw_pkg::PPU_INST_GPFIFO_CFG_AUTO_PUT__LSB];
  wire [3:0]  ld_eng  = inst_dw[ppu_hw_pkg::PPU_INST_ENGINE/4][ppu_hw_pkg::PPU_INST_ENGINE_TYPE__MSB:ppu_hw_pkg::PPU_INST_ENGINE_TYPE__LSB];
  wire        ld_comp = 32'(ld_eng) == ppu_hw_pkg::PPU_ENGINE_TYPE_COMPUTE;
  wire [7:0]  ld_pmin = inst_dw[ppu_hw_pkg::PPU_INST_PRIORITY/4][ppu_hw_pkg::PPU_INST_PRIORITY_MIN__MSB:ppu_hw_pkg::PPU_INST_PRIORITY_MIN__LSB];
  wire [7:0]  ld_pmax = inst_dw[ppu_hw_pkg::PPU_INST_PRIORITY/4][ppu_hw_pkg::PPU_INST_PRIORITY_MAX__MSB:ppu_hw_pkg::PPU_INST_PRIORITY_MAX__LSB];
  wire [7:0]  ld_maxd = inst_dw[ppu_hw_pkg::PPU_INST_PRIORITY/4][ppu_hw_pkg::PPU_INST_PRIORITY_MAX_DEPTH__MSB:ppu_hw_pkg::PPU_INST_PRIORITY_MAX_DEPTH__LSB];
  // A compute channel's launch priorities lie in the device's 64 and its
  // children (MAX + depth - 1) cannot pass the highest.
  wire        ld_prio_ok = !ld_comp ||
                           (ld_pmin <= ld_pmax && 32'(ld_pmax) < ppu_hw_pkg::PPU_NUM_PRIORITIES &&
                            32'(ld_maxd) <= ppu_hw_pkg::PPU_NUM_PRIORITIES &&
                            32'(ld_pmax) + ((ld_maxd == 8'd0) ? 32'd0 : 32'(ld_maxd) - 32'd1) <
                            ppu_hw_pkg::PPU_NUM_PRIORITIES);
  wire        ld_ok   = (ld_log2 != 0) && (32'(ld_log2) <= ppu_hw_pkg::PPU_GP_LOG2_ENTRIES_MAX) &&
                        (inst_dw[ppu_hw_pkg::PPU_INST_GPFIFO_VA/4][2:0] == 3'd0) &&
                        (inst_dw[ppu_hw_pkg::PPU_INST_USERD_LO/4][5:0] == 6'd0) &&
                        (ld_comp || 32'(ld_eng) == ppu_hw_pkg::PPU_ENGINE_TYPE_COPY) && ld_prio_ok;

  // ---- clock of the state machine ----
  // It stops in the cycles where the block below would change nothing:
  // waiting in H_PICK with nothing to decide (SCHED_WAIT) or in H_HOLD for
  // the copy with nothing breaking the hold, no event arriving, no timer
  // tick due, and no one-cycle output still up (those clear on the next
  // edge).  While a copy streams that is almost every cycle, and the
  // simulation skips the host's largest block (docs/benchmarks.md
  // "Simulator speed").
  logic hclk, h_en;
  always_comb begin
    h_en = !rst_n || (hs != H_PICK && hs != H_HOLD) || miss_now ||
           (hs == H_PICK && f_idle && (rl_req || sd_dec != ppu_types_pkg::SCHED_WAIT)) ||
           (hs == H_HOLD && hold_break) ||
           copy_done_valid || cf_hold.valid || fx_valid || rt_tick || to_tick || xf_valid ||
           sem_written || doorbell || unbind || rl_submit || drain_valid || dn_x_v || dn_f_v ||
           ss_busy;
    if (tr.valid || f_start || f_flush || (|fault_set) || (|nonstall_set) || perf_doorbell ||
        perf_gp_entry || perf_method || perf_switch || perf_copy_done || perf_copy_len != '0 ||
        trace_fault.valid)
      h_en = 1'b1;
  end
  ppu_clk_gate #(.GATE(CLOCK_GATE)) u_hgate (.clk, .en(h_en), .gclk(hclk));

  always_ff @(posedge hclk) begin
    fx       <= '0;
    tr       <= '0;
    f_start  <= 1'b0;
    f_flush  <= 1'b0;
    fault_set    <= '0;
    nonstall_set <= '0;
    dn_x_v       <= 1'b0;
    dn_f_v       <= 1'b0;
    perf_doorbell  <= 1'b0;
    perf_gp_entry  <= 1'b0;
    perf_method    <= 1'b0;
    perf_switch    <= 1'b0;
    perf_copy_done <= 1'b0;
    perf_copy_len  <= '0;
    trace_fault    <= '0;
    if (!rst_n) begin
      hs         <= H_RESET_WAIT;
      res_v      <= 1'b0;
      res        <= '0;
      slice_t0   <= '0;
      res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_IDLE);
      yielded    <= 1'b0;
      guest      <= 1'b0;
      cur        <= '0;
      ph_what    <= PH_CT;
      ph_issued  <= 1'b0;
      ph_pa      <= '0;
      ph_ch      <= '0;
      ph_beat    <= '0;
      ph_back    <= 1'b0;
      ph_put     <= '0;
      rl_in      <= '0;
      rl_nin     <= '0;
      rl_req     <= 1'b0;
      rl_busy    <= 1'b0;
      rl_error   <= 1'b0;
      rl_req_base <= '0;
      rl_req_count <= '0;
      rl_left    <= '0;
      rl_fcount  <= '0;
      rl_last    <= '0;
      rl_active  <= '0;
      rl_bank    <= 1'b0;
      rl_npos    <= '0;
      rl_ne[0]   <= '0;
      rl_ne[1]   <= '0;
      gp_dw0     <= '0;
      gp_have0   <= 1'b0;
      f_next_is_pb <= 1'b0;
      f_va       <= '0;
      f_ndw      <= '0;
      sem_exec   <= '0;
      dbg_left   <= '0;
      no_stream  <= 1'b0;
      cl_sent    <= 1'b0;
      for (int i = 0; i < 8; i++) inst_dw[i] <= '0;
      inst_pa    <= '0;
      cf_hold    <= '0;
      // (the context of a channel is set when it is bound)
      /* verilator lint_off WIDTHCONCAT */  // (4096 channels: 16 kbit)
      s_unbound <= '1;
      {s_idle, s_ready, s_acq, s_ewait, s_ebusy, s_faulted, s_loading, s_wfi} <= '0;
      rl_level  <= '0;
      rl_nlevel <= '0;
      /* verilator lint_on WIDTHCONCAT */
      c_stale   <= '0;
      c_dbput_v <= '0;
      sl_v      <= '0;
      sl_ch     <= '0;
      cur_sl    <= '0;
      ph_sl     <= '0;
      eng_sl    <= '0;
      eng_v     <= 1'b0;
      eng_ch    <= '0;
      k_vic     <= '0;
      k_sl      <= '0;
      k_ch      <= '0;
      k_wch     <= '0;
      k_fill    <= 1'b0;
      k_beat    <= '0;
      k_sent    <= '0;
      k_err     <= 1'b0;
      k_buf     <= '0;
      c_unbind  <= '0;
      c_wake    <= '0;
      c_comp    <= '0;
      c_ecopy   <= '0;
      c_dead    <= '0;
      c_acq_on  <= '0;
      rt_arm    <= '0;
      rt_t0     <= '0;
      to_t0     <= '0;
    end else begin
      // State changes of this cycle (see `PPU_HOST_APPLY).
      logic           st_d_v, st_sm_v;
      logic [CHW-1:0] st_d_ch, st_sm_ch;
      logic [3:0]     st_d, st_sm;
      logic [NC-1:0]  n_unbound, n_idle, n_ready, n_acq, n_ewait, n_ebusy, n_faulted,
                      n_loading, n_wfi, st_m;
      // ... and of the per-channel flags: the state machine's branches
      // touch one channel each (fl_ch), applied after it like the states.
      logic [CHW-1:0] fl_ch;
      logic           fl_stale_w, fl_stale_v, fl_dbput_v_w, fl_dbput_v_v, fl_wake_w, fl_wake_v,
                      fl_acq_on_w, fl_acq_on_v, fl_dead_w, fl_dead_v, fl_comp_w, fl_comp_v,
                      fl_ecopy_w, fl_ecopy_v, fl_unbind_w, fl_unbind_v, fl_rt_arm_w, fl_rt_arm_v;
      st_d_v   = 1'b0;
      st_d_ch  = '0;
      st_d     = ST_IDLE;
      st_sm_v  = 1'b0;
      st_sm_ch = '0;
      st_sm    = ST_IDLE;
      fl_ch    = '0;
      {fl_stale_w, fl_dbput_v_w, fl_wake_w, fl_acq_on_w, fl_dead_w, fl_comp_w, fl_ecopy_w,
       fl_unbind_w, fl_rt_arm_w} = '0;
      {fl_stale_v, fl_dbput_v_v, fl_wake_v, fl_acq_on_v, fl_dead_v, fl_comp_v, fl_ecopy_v,
       fl_unbind_v, fl_rt_arm_v} = '0;
      // ---- copy completion (the engine owner is never the serviced channel)
      if (copy_done_valid) begin
        logic [CHW-1:0] d;
        d = copy_done_chid[CHW-1:0];
        perf_copy_done <= !copy_done.fault;
        perf_copy_len  <= c_len[eng_sl];
        eng_v          <= 1'b0;
        if (copy_done.fault) begin
          `PPU_HOST_SET_D(d, ST_FAULTED)
          // (a compute channel's kernel may have faulted first: it wins)
          if (c_finfo[d] == 32'd0) begin
            c_finfo[d] <= finfo(copy_done.kind, {2'b00, copy_done.access}, copy_done.unit);
            c_faddr[d] <= copy_done.addr;
            c_fdata[d] <= c_pexec[eng_sl];
            fault_set[d] <= 1'b1;
          end
        end else begin
          // (a channel that faulted while its copy ran, e.g. a doorbell page
          // store of a GP_PUT beyond its ring, stays faulted)
          if (!s_faulted[d]) `PPU_HOST_SET_D(d, ST_READY)
          if (c_pexec[eng_sl][ppu_hw_pkg::PPU_LAUNCH_DMA_INTERRUPT__LSB]) nonstall_set[d] <= 1'b1;
        end
        c_pend[eng_sl] <= PEND_NONE;
      end

      // Copy faults are traced here; one that meets a state-machine fault in
      // the same cycle waits a cycle (the state machine cannot fault twice
      // in a row: a fault always passes through H_END).
      if (cf_hold.valid) begin
        trace_fault <= cf_hold;
        cf_hold     <= '0;
      end
      if (copy_done_valid && copy_done.fault) begin
        if (fx_valid || cf_hold.valid)
          cf_hold <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_FAULT), copy_done_chid,
                      finfo(copy_done.kind, {2'b00, copy_done.access}, copy_done.unit), copy_done.addr};
        else
          trace_fault <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_FAULT), copy_done_chid,
                          finfo(copy_done.kind, {2'b00, copy_done.access}, copy_done.unit), copy_done.addr};
      end

      // ---- faults raised by the state machine (registered one cycle later)
      if (fx_valid) begin
        c_finfo[fx_ch] <= finfo(fx_kind, fx_acc, fx_unit);
        c_faddr[fx_ch] <= fx_addr;
        c_fdata[fx_ch] <= fx_data;
        fault_set[fx_ch] <= 1'b1;
        if (fx_hit) c_pend[fx_sl] <= PEND_NONE;
        trace_fault <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_FAULT), CHID_W'(fx_ch), finfo(fx_kind, fx_acc, fx_unit), fx_addr};
      end

      // Timed re-check of blocked acquires: the ticks above (nothing before
      // this in the cycle sets c_wake; a failure in this cycle re-arms
      // below and wins).
      if (rt_tick) begin
        rt_t0  <= now;
        rt_arm <= s_acq;
      end
      if (to_tick) to_t0 <= now;
      if (rt_tick || to_tick)
        c_wake <= c_wake | (s_acq & ((rt_tick ? rt_arm : '0) |
                                     (to_tick ? (SCHED_SETS ? '1 : c_acq_on) : '0)));

      // ---- compute faults (first fault of a channel wins, as for copies)
      if (xf_valid && xf_ready) begin
        logic [CHW-1:0] d;
        d = xf.chid[CHW-1:0];
        // (a launch answered FAULTED may have marked the channel dead
        // before its TMD fault arrives here: FAULT_INFO decides)
        if (32'(xf.chid) < NC && !s_unbound[d] && c_finfo[d] == 32'd0) begin
          c_dead[d]    <= 1'b1;
          dn_x_v       <= 1'b1;
          dn_x_ch      <= d;
          c_finfo[d]   <= finfo(xf.kind, {2'b00, xf.access}, xf.unit);
          c_faddr[d]   <= xf.addr;
          c_fdata[d]   <= xf.data;
          // (a channel that is not cached is dead: what it had pending
          // in its save area is never looked at again)
          if (xf_hit) c_pend[xf_sl] <= PEND_NONE;
          fault_set[d] <= 1'b1;
          trace_fault  <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_FAULT), xf.chid,
                           finfo(xf.kind, {2'b00, xf.access}, xf.unit), xf.addr};
        end
      end

      // (WFI: a compute channel runs again once its tasks are gone: below)

      case (hs)
        H_RESET_WAIT: hs <= H_PICK;

        // -----------------------------------------------------------------
        H_PICK: begin
          // wait for the fetch unit to drain before acting on a decision
          if (f_idle && rl_req) begin
            // a submitted runlist first: read it, then decide under it
            rl_req    <= 1'b0;
            rl_busy   <= 1'b1;
            rl_nin    <= '0;
            rl_last   <= 6'd63;
            rl_npos   <= '0;
            rl_ne[~rl_bank] <= '0;
            rl_left   <= rl_req_count;
            rl_fcount <= rl_req_count;
            ph_what   <= PH_RL;
            ph_pa     <= rl_req_base;
            ph_back   <= 1'b0;
            ph_issued <= 1'b0;
            hs        <= (rl_req_count == 0) ? H_RL_DONE : H_PRD;
          end else if (miss_now) begin
            // The picked channel is not in the channel cache: take a slot,
            // write back the channel it holds, read the picked one's save
            // area (not for a bind: binding sets the context), then decide
            // again.
            k_sl      <= vic;
            k_ch      <= sd_ch;
            k_wch     <= sl_ch[32'(vic)*CHW +: CHW];
            k_fill    <= !s_unbound[sd_ch];
            k_buf     <= vic_save;
            k_beat    <= '0;
            k_sent    <= '0;
            k_err     <= 1'b0;
            sl_v[vic] <= 1'b0;
            k_vic     <= (32'(vic) == CC - 1) ? '0 : vic + SLW'(1);
            tr <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_CHAN_LOAD), CHID_W'(sd_ch),
                   32'(vic) | (s_unbound[sd_ch] ? 32'h10000 : 32'd0),
                   sl_v[vic] ? 32'(sl_ch[32'(vic)*CHW +: CHW]) : ppu_hw_pkg::PPU_TRACE_CHID_NONE};
            hs        <= sl_v[vic] ? H_CWB : !s_unbound[sd_ch] ? H_CFILL : H_CDONE;
          end else if (f_idle) begin
            case (sd_dec)
              ppu_types_pkg::SCHED_UNBIND: begin
                `PPU_HOST_SET_SM(sd_ch, ST_UNBOUND)
                // (binding sets the cached context again)
                // (a channel out of the cache has no slot: sd_sl is then
                // another channel's, which must keep its context)
                if (sd_hit) begin
                  if (!DIRECT) sl_v[sd_sl] <= 1'b0;
                  c_seg[sd_sl]  <= 1'b0;
                  c_mcnt[sd_sl] <= '0;
                  c_pend[sd_sl] <= PEND_NONE;
                end
                begin fl_ch = sd_ch; fl_unbind_w = 1'b1; fl_unbind_v = 1'b0; end
                begin fl_ch = sd_ch; fl_stale_w = 1'b1; fl_stale_v = 1'b0; end
                begin fl_ch = sd_ch; fl_dbput_v_w = 1'b1; fl_dbput_v_v = 1'b0; end
                begin fl_ch = sd_ch; fl_wake_w = 1'b1; fl_wake_v = 1'b0; end
                begin fl_ch = sd_ch; fl_acq_on_w = 1'b1; fl_acq_on_v = 1'b0; end
                c_finfo[sd_ch]  <= '0;
                c_faddr[sd_ch]  <= '0;
                c_fdata[sd_ch]  <= '0;
                begin fl_ch = sd_ch; fl_dead_w = 1'b1; fl_dead_v = 1'b0; end
                if (res_v && res == sd_ch) res_v <= 1'b0;
                tr <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_UNBIND), CHID_W'(sd_ch), 32'd0, 32'd0};
              end
              ppu_types_pkg::SCHED_DOORBELL: begin
                begin fl_ch = sd_ch; fl_stale_w = 1'b1; fl_stale_v = 1'b0; end
                begin fl_ch = sd_ch; fl_dbput_v_w = 1'b1; fl_dbput_v_v = 1'b0; end
                ph_ch          <= sd_ch;
                ph_sl          <= sd_sl;
                ph_back        <= 1'b0;
                ph_issued      <= 1'b0;
                ph_put         <= c_dbput[sd_ch];
                if (s_unbound[sd_ch]) begin
                  // (binding reads USERD.GP_PUT, written before any doorbell)
                  `PPU_HOST_SET_SM(sd_ch, ST_LOADING)
                  // (what the status window shows until the bind, or of a
                  // load that faults)
                  c_get[sd_ch]   <= '0;
                  c_put[sd_ch]   <= '0;
                  c_finfo[sd_ch] <= '0;
                  c_faddr[sd_ch] <= '0;
                  c_fdata[sd_ch] <= '0;
                  ph_what     <= PH_CT;
                  ph_pa       <= chan_table;
                  ph_pa.addr  <= chan_table.addr +
                                 ppu_types_pkg::PA_W'(32'(sd_ch) * ppu_hw_pkg::PPU_CHAN_ENTRY_BYTES);
                  hs          <= H_PRD;
                end else if (!s_faulted[sd_ch] && !s_loading[sd_ch]) begin
                  // (a dead channel ignores doorbells until it is unbound)
                  ph_what <= PH_USERD_PUT;
                  ph_pa   <= c_userd[sd_ch];
                  hs      <= c_dbput_v[sd_ch] ? H_PUT : H_PRD;
                end
              end
              ppu_types_pkg::SCHED_GUEST: begin
                cur   <= sd_ch;
                cur_sl <= sd_sl;
                guest <= 1'b1;
                hs    <= svc_first(c_pend[sd_sl], c_seg[sd_sl]);
                tr <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_CHAN_SWITCH), CHID_W'(sd_ch), 32'(res), 32'(sd_reason)};
              end
              ppu_types_pkg::SCHED_RESUME: begin
                cur     <= res;
                cur_sl  <= res_sl;
                guest   <= 1'b0;
                yielded <= 1'b0;
                if (sd_renew) slice_t0 <= now;
                hs      <= svc_first(c_pend[res_sl], c_seg[res_sl]);
              end
              ppu_types_pkg::SCHED_SWITCH: begin
                res_v    <= 1'b1;
                res      <= sd_ch;
                cur      <= sd_ch;
                cur_sl   <= sd_sl;
                guest    <= 1'b0;
                yielded  <= 1'b0;
                slice_t0 <= now;
                hs       <= svc_first(c_pend[sd_sl], c_seg[sd_sl]);
                if (!res_v || res != sd_ch) begin
                  perf_switch <= 1'b1;
                  tr <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_CHAN_SWITCH), CHID_W'(sd_ch),
                         res_v ? 32'(res) : ppu_hw_pkg::PPU_TRACE_CHID_NONE, 32'(sd_reason)};
                end
              end
              ppu_types_pkg::SCHED_DROP: begin
                res_v <= 1'b0;
              end
              default: ;
            endcase
          end
        end

        // -----------------------------------------------------------------
        // Physical reads: channel table, instance block, USERD.
        H_PRD: begin
          if (prd_valid && prd_ready) ph_issued <= 1'b1;
          if (prd_rsp_valid) begin
            ph_issued <= 1'b0;
            if (prd_rsp.err && ph_what == PH_RL) begin
              // (not a channel's fault: the list in force stays)
              rl_busy  <= 1'b0;
              rl_error <= 1'b1;
              hs       <= H_PICK;
            end else if (prd_rsp.err) begin
              fx <= fault(ph_ch, ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR,
                          ppu_hw_pkg::PPU_FAULT_UNIT_INST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                          ph_pa.addr[31:0], '0);
              hs       <= ph_back ? H_END : H_PICK;
              if (ph_back) res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
            end else begin
              case (ph_what)
                PH_CT: begin
                  logic [31:0] lo, hi;
                  lo = prd_rsp.data[31:0];
                  hi = prd_rsp.data[63:32];
                  if (!lo[ppu_hw_pkg::PPU_CHAN_ENTRY_LO_VALID__LSB]) begin
                    fx <= fault(ph_ch, ppu_hw_pkg::PPU_FAULT_KIND_INST_INVALID,
                                ppu_hw_pkg::PPU_FAULT_UNIT_INST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                                ph_pa.addr[31:0], lo);
                    hs       <= H_PICK;
                  end else begin
                    ph_what    <= PH_INST;
                    ph_beat    <= '0;
                    ph_pa.sys  <= hi[ppu_hw_pkg::PPU_ADDR_HI_SYS__LSB];
                    ph_pa.addr <= {hi[1:0], lo[31:6], 6'd0};
                    inst_pa    <= {lo[31:6], 6'd0};
                  end
                end
                PH_INST: begin
                  inst_dw[{ph_beat, 1'b0}] <= prd_rsp.data[31:0];
                  inst_dw[{ph_beat, 1'b1}] <= prd_rsp.data[63:32];
                  ph_beat    <= ph_beat + 2'd1;
                  ph_pa.addr <= ph_pa.addr + ppu_types_pkg::PA_W'(8);
                  if (ph_beat == 2'd3) begin
                    // USERD (dwords 2 and 3) arrived with beat 1
                    ph_what    <= PH_USERD_BIND;
                    ph_pa.sys  <= inst_dw[ppu_hw_pkg::PPU_INST_USERD_HI/4][ppu_hw_pkg::PPU_ADDR_HI_SYS__LSB];
                    ph_pa.addr <= {inst_dw[ppu_hw_pkg::PPU_INST_USERD_HI/4][1:0],
                                   inst_dw[ppu_hw_pkg::PPU_INST_USERD_LO/4][31:3], 3'b000};
                  end
                end
                PH_USERD_BIND: begin
                  // instance block fully read: validate and bind
                  logic [19:0] mask;
                  mask = (20'd1 << ld_log2) - 20'd1;
                  if (!ld_ok || (ld_comp && !COMPUTE)) begin
                    fx <= fault(ph_ch, (ld_comp && ld_ok) ? (ppu_hw_pkg::PPU_FAULT_KIND_ENGINE_MISSING) : (ppu_hw_pkg::PPU_FAULT_KIND_INST_INVALID),
                                ppu_hw_pkg::PPU_FAULT_UNIT_INST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                                inst_pa, inst_dw[ppu_hw_pkg::PPU_INST_ENGINE/4]);
                    hs       <= H_PICK;
                  end else if (((prd_rsp.data[31:0] & ~{12'd0, mask}) != 0 && !ld_auto) ||
                               (prd_rsp.data[63:32] & ~{12'd0, mask}) != 0) begin
                    fx <= fault(ph_ch, ppu_hw_pkg::PPU_FAULT_KIND_GP_PUT_RANGE,
                                ppu_hw_pkg::PPU_FAULT_UNIT_HOST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                                prd_rsp.data[31:0], prd_rsp.data[63:32]);
                    hs       <= H_PICK;
                  end else begin
                    c_gpva[ph_sl]  <= inst_dw[ppu_hw_pkg::PPU_INST_GPFIFO_VA/4];
                    c_log2[ph_ch]  <= ld_log2;
                    c_userd[ph_ch] <= {inst_dw[ppu_hw_pkg::PPU_INST_USERD_HI/4][ppu_hw_pkg::PPU_ADDR_HI_SYS__LSB], {inst_dw[ppu_hw_pkg::PPU_INST_USERD_HI/4][1:0],
                                              inst_dw[ppu_hw_pkg::PPU_INST_USERD_LO/4]}};
                    c_root[ph_sl]  <= {inst_dw[ppu_hw_pkg::PPU_INST_PT_ROOT/4][ppu_hw_pkg::PPU_INST_PT_ROOT_SYS__LSB], inst_dw[ppu_hw_pkg::PPU_INST_PT_ROOT/4][ppu_hw_pkg::PPU_INST_PT_ROOT_PPN__MSB:ppu_hw_pkg::PPU_INST_PT_ROOT_PPN__LSB]};
                    c_slice[ph_sl] <= inst_dw[ppu_hw_pkg::PPU_INST_TIMESLICE/4];
                    begin fl_ch = ph_ch; fl_acq_on_w = 1'b1; fl_acq_on_v = 1'b0; end
                    begin fl_ch = ph_ch; fl_comp_w = 1'b1; fl_comp_v = ld_comp; end
                    c_pmin[ph_sl]  <= ld_pmin[5:0];
                    c_pmax[ph_sl]  <= ld_pmax[5:0];
                    c_maxd[ph_sl]  <= (ld_maxd == 8'd0) ? 7'd1 : ld_maxd[6:0];
                    begin fl_ch = ph_ch; fl_dead_w = 1'b1; fl_dead_v = 1'b0; end
                    c_auto[ph_ch]  <= ld_auto;
                    c_put[ph_ch]   <= ld_auto ? (prd_rsp.data[51:32] - 20'd1) & mask : prd_rsp.data[19:0];
                    c_get[ph_ch]   <= prd_rsp.data[51:32];
                    c_seg[ph_sl]   <= 1'b0;
                    c_mcnt[ph_sl]  <= '0;
                    c_pend[ph_sl]  <= PEND_NONE;
                    `PPU_HOST_SET_SM(ph_ch, (prd_rsp.data[19:0] != prd_rsp.data[51:32] || ld_auto) ? ST_READY : ST_IDLE)
                    tr <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_BIND), CHID_W'(ph_ch), 32'(ld_eng), prd_rsp.data[31:0]};
                    hs <= H_PICK;
                  end
                end
                PH_USERD_PUT: begin
                  ph_put <= prd_rsp.data[31:0];
                  hs     <= H_PUT;
                end
                PH_RL: begin
                  // Two entries per beat, written through a one-hot mask
                  // per plane: an index into all six planes at once would
                  // be a shifter six planes wide.  A list must give its
                  // levels from the highest down and each channel once (a
                  // level is then one run of entries: what the scheduler
                  // at thousands of channels takes as its ranges); one
                  // that does not is refused like an unreadable one.
                  logic [NC-1:0]   nin, oh;
                  logic [NC*6-1:0] nlv;
                  logic [5:0]      last, lv;
                  logic            bad;
                  logic [15:0]     np;
                  logic [NLV-1:0]  ne;
                  nin  = rl_nin;
                  nlv  = rl_nlevel;
                  last = rl_last;
                  bad  = 1'b0;
                  np   = rl_npos;
                  ne   = rl_ne[~rl_bank];
                  // (an entry's other bits are reserved: not looked at)
                  for (int k = 0; k < 2; k++) begin
                    logic [11:0] id;
                    id = prd_rsp.data[k*32 + ppu_hw_pkg::PPU_RUNLIST_ENTRY_CHID__LSB +: 12];
                    lv = prd_rsp.data[k*32 + ppu_hw_pkg::PPU_RUNLIST_ENTRY_LEVEL__LSB +: 6];
                    if (16'(k) < rl_left && 32'(id) < NC) begin
                      oh  = NC'(1) << id[CHW-1:0];
                      if (lv > last || nin[id[CHW-1:0]]) bad = 1'b1;
                      if (SCHED_SETS && !bad) begin
                        // (the other bank: the list in force stays until the flip)
                        rl_c2p[32'(!rl_bank)*NC + 32'(id)] <= CHW'(np);
                        rl_p2c[32'(!rl_bank)*NC + 32'(np)] <= id[CHW-1:0];
                        if (!ne[lv]) rl_lo[32'(!rl_bank)*NLV + 32'(lv)] <= CHW'(np);
                        rl_hi[32'(!rl_bank)*NLV + 32'(lv)] <= CHW'(np);
                        ne[lv] = 1'b1;
                      end
                      np   = np + 16'd1;
                      last = lv;
                      nin = nin | oh;
                      for (int b = 0; b < 6; b++)
                        nlv[b*NC +: NC] = (nlv[b*NC +: NC] & ~oh) | (lv[b] ? oh : '0);
                    end
                  end
                  if (bad) begin
                    // (the list in force stays, as for a read error)
                    rl_busy  <= 1'b0;
                    rl_error <= 1'b1;
                    hs       <= H_PICK;
                  end else begin
                    rl_nin     <= nin;
                    rl_nlevel  <= nlv;
                    rl_last    <= last;
                    rl_npos    <= np;
                    rl_ne[~rl_bank] <= ne;
                    ph_pa.addr <= ph_pa.addr + ppu_types_pkg::PA_W'(8);
                    rl_left    <= (rl_left > 16'd2) ? rl_left - 16'd2 : 16'd0;
                    if (rl_left <= 16'd2) hs <= H_RL_DONE;
                  end
                end
                default: hs <= H_PICK;
              endcase
            end
          end
        end

        // -----------------------------------------------------------------
        H_RL_DONE: begin
          rl_in     <= rl_nin;
          rl_level  <= rl_nlevel;
          rl_bank   <= !rl_bank;
          rl_active <= rl_fcount;
          rl_busy   <= 1'b0;
          rl_error  <= 1'b0;
          hs        <= H_PICK;
        end

        // -----------------------------------------------------------------
        H_PUT: begin
          logic [19:0] mask;
          mask = (20'd1 << c_log2[ph_ch]) - 20'd1;
          tr <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_DOORBELL), CHID_W'(ph_ch), ph_put, 32'(c_get[ph_ch])};
          if (c_auto[ph_ch]) begin
            // (an AUTO_PUT ring ignores a new GP_PUT)
            hs <= ph_back ? H_NEXT_ENTRY : H_PICK;
          end else if ((ph_put & ~{12'd0, mask}) != 0) begin
            fx <= fault(ph_ch, ppu_hw_pkg::PPU_FAULT_KIND_GP_PUT_RANGE,
                        ppu_hw_pkg::PPU_FAULT_UNIT_HOST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                        ph_put, 32'(c_get[ph_ch]));
            hs       <= ph_back ? H_END : H_PICK;
            if (ph_back) res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
          end else begin
            c_put[ph_ch] <= ph_put[19:0];
            if (s_idle[ph_ch] && ph_put[19:0] != c_get[ph_ch])
              `PPU_HOST_SET_SM(ph_ch, ST_READY)
            hs <= ph_back ? H_NEXT_ENTRY : H_PICK;
          end
        end

        // -----------------------------------------------------------------
        H_SVC_START: begin
          if (c_pend[cur_sl] == PEND_ACQ) begin
            sem_exec <= c_pexec[cur_sl];
            begin fl_ch = cur; fl_wake_w = 1'b1; fl_wake_v = 1'b0; end
            hs <= H_SEM_SEND;
          end else if (c_pend[cur_sl] == PEND_LAUNCH) begin
            no_stream <= 1'b1;
            hs <= (c_comp[cur] && !c_ecopy[cur]) ? H_CLAUNCH : H_LAUNCH;
          end else if (c_seg[cur_sl]) begin
            f_va  <= c_pbva[cur_sl];
            f_ndw <= c_left[cur_sl];
            f_next_is_pb <= 1'b1;
            hs <= H_FSTART;
          end else begin
            hs <= H_NEXT_ENTRY;
          end
        end

        H_NEXT_ENTRY: begin
          if (c_stale[cur] && !c_unbind[cur]) begin
            begin fl_ch = cur; fl_stale_w = 1'b1; fl_stale_v = 1'b0; end
            begin fl_ch = cur; fl_dbput_v_w = 1'b1; fl_dbput_v_v = 1'b0; end
            ph_ch     <= cur;
            ph_sl     <= cur_sl;
            ph_back   <= 1'b1;
            ph_issued <= 1'b0;
            ph_what   <= PH_USERD_PUT;
            ph_pa     <= c_userd[cur];
            ph_put    <= c_dbput[cur];
            hs        <= c_dbput_v[cur] ? H_PUT : H_PRD;
          end else if (c_get[cur] == c_put[cur]) begin
            `PPU_HOST_SET_SM(cur, ST_IDLE)
            res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_IDLE);
            tr <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_CHAN_IDLE), CHID_W'(cur), 32'(c_get[cur]), 32'd0};
            hs <= H_END;
          end else if (yield_now) begin
            hs <= H_END;
            res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_TIMESLICE);
          end else begin
            f_va  <= c_gpva[cur_sl] + {9'd0, c_get[cur], 3'b000};
            f_ndw <= 21'd2;
            f_next_is_pb <= 1'b0;
            gp_have0 <= 1'b0;
            if (f_idle && !f_start) begin
              f_start <= 1'b1;
              hs <= H_GP_ENTRY;
            end else begin
              hs <= H_FSTART;
            end
          end
        end

        H_FSTART: begin
          if (f_idle && !f_start) begin
            f_start <= 1'b1;
            hs <= f_next_is_pb ? H_RUN : H_GP_ENTRY;
          end
        end

        // Two dwords of a GPFIFO entry.
        H_GP_ENTRY: begin
          if (dw_valid && !f_start) begin
            if (dw_fault) begin
              fx <= fault(cur, 32'(dw_fault_kind),
                          ppu_hw_pkg::PPU_FAULT_UNIT_HOST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                          dw_fault_va, 32'(c_get[cur]));
              res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
              f_flush <= 1'b1;
              hs <= H_END;
            end else if (!gp_have0) begin
              gp_dw0   <= dw;
              gp_have0 <= 1'b1;
            end else begin
              logic [20:0] len;
              len = dw[ppu_hw_pkg::PPU_GP_ENTRY1_LENGTH__MSB:ppu_hw_pkg::PPU_GP_ENTRY1_LENGTH__LSB];
              perf_gp_entry <= 1'b1;
              tr <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_GP_FETCH), CHID_W'(cur), 32'(c_get[cur]), dw};
              if (gp_dw0[ppu_hw_pkg::PPU_GP_ENTRY0_RSVD__MSB:ppu_hw_pkg::PPU_GP_ENTRY0_RSVD__LSB] != 0 ||
                  dw[ppu_hw_pkg::PPU_GP_ENTRY1_ADDR_HI__MSB:ppu_hw_pkg::PPU_GP_ENTRY1_ADDR_HI__LSB] != 0) begin
                fx <= fault(cur, (dw[ppu_hw_pkg::PPU_GP_ENTRY1_ADDR_HI__MSB:ppu_hw_pkg::PPU_GP_ENTRY1_ADDR_HI__LSB] != 0) ? (ppu_hw_pkg::PPU_FAULT_KIND_VA_RANGE) : (ppu_hw_pkg::PPU_FAULT_KIND_PB_UNALIGNED),
                            ppu_hw_pkg::PPU_FAULT_UNIT_HOST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                            gp_dw0, dw);
                res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
                f_flush <= 1'b1;
                hs <= H_END;
              end else if (len == 0) begin
                f_flush <= 1'b1;
                hs <= H_WB_GET;       // control entry: nothing to execute
              end else begin
                // Both dwords taken: nothing of the entry's range is left
                // in flight, so the pushbuffer stream starts at once.
                c_seg[cur_sl]  <= 1'b1;
                c_pbva[cur_sl] <= gp_dw0;
                c_left[cur_sl] <= len;
                c_mcnt[cur_sl] <= '0;
                f_va  <= gp_dw0;
                f_ndw <= len;
                f_next_is_pb <= 1'b1;
                f_start <= 1'b1;
                hs <= H_RUN;
              end
            end
          end
        end

        // -----------------------------------------------------------------
        // Method decode and execution
        H_RUN: begin
          if (f_start) begin
            // fetch starts this cycle
          end else if (c_dead[cur]) begin
            // a kernel of this channel faulted: nothing more runs
            res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
            f_flush <= 1'b1;
            hs <= H_END;
          end else if (c_mcnt[cur_sl] == 0 && c_left[cur_sl] == 0) begin
            // segment executed: advance GP_GET
            c_seg[cur_sl] <= 1'b0;
            f_flush <= 1'b1;
            hs <= H_WB_GET;
          end else if (c_mcnt[cur_sl] == 0 && yield_now) begin
            f_flush <= 1'b1;
            res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_TIMESLICE);
            hs <= H_END;
          end else if (ex_go) begin
            perf_method <= 1'b1;
            tr <= {1'b1, 8'(ppu_hw_pkg::PPU_TRACE_METHOD), CHID_W'(cur), 32'(cur_m), ex_d};
            if (!ex_imm) begin
              c_pbva[cur_sl] <= c_pbva[cur_sl] + 32'd4;
              c_left[cur_sl] <= c_left[cur_sl] - 21'd1;
            end
            // advance to the next method of this header
            c_mcnt[cur_sl] <= c_mcnt[cur_sl] - 13'd1;
            if (32'(c_mop[cur_sl]) == ppu_hw_pkg::PPU_MTHD_OP_INC) c_maddr[cur_sl] <= c_maddr[cur_sl] + 12'd1;
            if (32'(c_mop[cur_sl]) == ppu_hw_pkg::PPU_MTHD_OP_ONEINC) begin
              c_maddr[cur_sl] <= c_maddr[cur_sl] + 12'd1;
              c_mop[cur_sl]   <= 3'(ppu_hw_pkg::PPU_MTHD_OP_NONINC);
            end
            case (32'(cur_m))
              ppu_hw_pkg::PPU_HOST_SEM_ADDR_LO:    c_sem_va[cur_sl] <= ex_d;
              ppu_hw_pkg::PPU_HOST_SEM_PAYLOAD_LO: c_pay_lo[cur_sl] <= ex_d;
              ppu_hw_pkg::PPU_HOST_SEM_PAYLOAD_HI: c_pay_hi[cur_sl] <= ex_d;
              default: ;
            endcase
            if (cls_copy) begin
              case (32'(cur_m))
                ppu_hw_pkg::PPU_COPY_SRC_ADDR_LO: c_src[cur_sl]  <= ex_d;
                ppu_hw_pkg::PPU_COPY_DST_ADDR_LO: c_dst[cur_sl]  <= ex_d;
                ppu_hw_pkg::PPU_COPY_LENGTH:      c_len[cur_sl]  <= ex_d;
                ppu_hw_pkg::PPU_COPY_SEM_ADDR_LO: c_csem[cur_sl] <= ex_d;
                ppu_hw_pkg::PPU_COPY_SEM_PAYLOAD: c_cpay[cur_sl] <= ex_d;
                default: ;
              endcase
            end else if (32'(cur_m) == ppu_hw_pkg::PPU_COMPUTE_TMD_ADDR_LO) begin
              c_tmd[cur_sl] <= ex_d;
            end
            case (mx)
              MX_CONT: ;
              MX_SEM: begin
                if (c_comp[cur] && chan_live[cur] &&
                    ex_d[ppu_hw_pkg::PPU_SEM_EXECUTE_RELEASE_WFI__LSB]) begin
                  // RELEASE_WFI: the release waits for the channel's tasks,
                  // then runs like a retried acquire
                  `PPU_HOST_SET_SM(cur, ST_WFI)
                  c_pend[cur_sl]  <= PEND_ACQ;
                  c_pexec[cur_sl] <= ex_d;
                  res_reason   <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_WFI);
                  f_flush      <= 1'b1;
                  hs           <= H_END;
                end else begin
                  sem_exec <= ex_d;
                  hs <= H_SEM_SEND;
                end
              end
              MX_LAUNCH: begin
                c_pexec[cur_sl] <= ex_d;
                begin fl_ch = cur; fl_ecopy_w = 1'b1; fl_ecopy_v = 1'b1; end
                no_stream <= 1'b0;
                hs <= H_LAUNCH;
              end
              MX_CLAUNCH: begin
                begin fl_ch = cur; fl_ecopy_w = 1'b1; fl_ecopy_v = 1'b0; end
                no_stream <= 1'b0;
                hs <= H_CLAUNCH;
              end
              MX_WFI: begin
                if (chan_live[cur]) begin
                  `PPU_HOST_SET_SM(cur, ST_WFI)
                  res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_WFI);
                  f_flush    <= 1'b1;
                  hs         <= H_END;
                end
              end
              MX_NONSTALL: nonstall_set[cur] <= 1'b1;
              MX_YIELD: begin
                f_flush <= 1'b1;
                res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_YIELD);
                if (!guest) yielded <= 1'b1;
                hs <= H_END;
              end
              default: begin
                fx <= fault(cur, (mx == MX_VA_RANGE) ? (ppu_hw_pkg::PPU_FAULT_KIND_VA_RANGE) : (ppu_hw_pkg::PPU_FAULT_KIND_ILLEGAL_METHOD),
                            ppu_hw_pkg::PPU_FAULT_UNIT_HOST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                            32'(cur_m), ex_d);
                res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
                f_flush <= 1'b1;
                hs <= H_END;
              end
            endcase
          end else if (dw_valid && dw_fault) begin
            fx <= fault(cur, 32'(dw_fault_kind),
                        ppu_hw_pkg::PPU_FAULT_UNIT_HOST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                        dw_fault_va, 32'(c_get[cur]));
            res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
            f_flush <= 1'b1;
            hs <= H_END;
          end else if (run_pop) begin
            // method header
            c_pbva[cur_sl] <= c_pbva[cur_sl] + 32'd4;
            c_left[cur_sl] <= c_left[cur_sl] - 21'd1;
            if (h_rsvd || !(h_subch == 3'(ppu_hw_pkg::PPU_MTHD_SUBCH_ENGINE) ||
                            (c_comp[cur] && h_subch == 3'(ppu_hw_pkg::PPU_MTHD_SUBCH_COPY))) ||
                !(32'(h_op) == ppu_hw_pkg::PPU_MTHD_OP_INC || 32'(h_op) == ppu_hw_pkg::PPU_MTHD_OP_NONINC ||
                  32'(h_op) == ppu_hw_pkg::PPU_MTHD_OP_ONEINC || 32'(h_op) == ppu_hw_pkg::PPU_MTHD_OP_IMMD)) begin
              fx <= fault(cur, ppu_hw_pkg::PPU_FAULT_KIND_ILLEGAL_OPCODE,
                          ppu_hw_pkg::PPU_FAULT_UNIT_HOST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                          c_pbva[cur_sl], dw);
              res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
              f_flush <= 1'b1;
              hs <= H_END;
            end else if (32'(h_op) == ppu_hw_pkg::PPU_MTHD_OP_IMMD) begin
              // one method, its data in the header
              c_maddr[cur_sl] <= h_addr;
              c_mcnt[cur_sl]  <= 13'd1;
              c_mop[cur_sl]   <= 3'(ppu_hw_pkg::PPU_MTHD_OP_IMMD);
              c_msub[cur_sl]  <= (h_subch == 3'(ppu_hw_pkg::PPU_MTHD_SUBCH_COPY));
              c_imm[cur_sl]   <= dw[ppu_hw_pkg::PPU_MTHD_IMMD__MSB:ppu_hw_pkg::PPU_MTHD_IMMD__LSB];
            end else if (21'(h_cnt) > c_left[cur_sl] - 21'd1) begin
              fx <= fault(cur, ppu_hw_pkg::PPU_FAULT_KIND_PB_RUNAWAY,
                          ppu_hw_pkg::PPU_FAULT_UNIT_HOST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                          c_pbva[cur_sl], dw);
              res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
              f_flush <= 1'b1;
              hs <= H_END;
            end else begin
              c_maddr[cur_sl] <= h_addr;
              c_mcnt[cur_sl]  <= h_cnt;
              c_mop[cur_sl]   <= h_op;
              c_msub[cur_sl]  <= (h_subch == 3'(ppu_hw_pkg::PPU_MTHD_SUBCH_COPY));
            end
          end
        end

        H_SEM_SEND: if (sem_ready) hs <= H_SEM_WAIT;

        H_SEM_WAIT: begin
          if (sem_rsp_valid) begin
            if (sem_rsp.fault) begin
              fx <= fault(cur, 32'(sem_rsp.kind),
                          ppu_hw_pkg::PPU_FAULT_UNIT_SEM, 32'(sem_rsp.access),
                          c_sem_va[cur_sl], sem_exec);
              res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
              f_flush <= 1'b1;
              hs <= H_END;
            end else if (sem_rsp.acq_fail) begin
              if (c_acq_on[cur] && cfg_acq_timeout != 0 &&
                  (now - c_acq_t0[cur]) >= cfg_acq_timeout) begin
                fx <= fault(cur, ppu_hw_pkg::PPU_FAULT_KIND_ACQ_TIMEOUT,
                            ppu_hw_pkg::PPU_FAULT_UNIT_SEM, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                            c_sem_va[cur_sl], sem_rsp.value);
                res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
              end else begin
                if (!c_acq_on[cur]) begin
                  begin fl_ch = cur; fl_acq_on_w = 1'b1; fl_acq_on_v = 1'b1; end
                  c_acq_t0[cur] <= now;
                end
                `PPU_HOST_SET_SM(cur, ST_ACQ)
                c_pend[cur_sl]  <= PEND_ACQ;
                c_pexec[cur_sl] <= sem_exec;
                begin fl_ch = cur; fl_wake_w = 1'b1; fl_wake_v = 1'b0; end
                begin fl_ch = cur; fl_rt_arm_w = 1'b1; fl_rt_arm_v = 1'b0; end
                res_reason   <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_ACQ_FAIL);
              end
              f_flush <= 1'b1;
              hs <= H_END;
            end else begin
              c_pend[cur_sl]   <= PEND_NONE;
              begin fl_ch = cur; fl_acq_on_w = 1'b1; fl_acq_on_v = 1'b0; end
              `PPU_HOST_SET_SM(cur, ST_READY)
              if (cfg_release_hold != 0 &&
                  sem_writes(sem_exec[ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__MSB:
                                      ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION__LSB])) begin
                // re-fetch the rest of the segment after the hold
                f_flush  <= 1'b1;
                dbg_left <= cfg_release_hold;
                hs <= H_DBG_HOLD;
              end else begin
                // a resumed service has no fetch stream yet
                hs <= (c_pend[cur_sl] == PEND_ACQ) ? H_SVC_START : H_RUN;
              end
            end
          end
        end

        H_LAUNCH: begin
          if (engine_free) begin
            // copy_valid is high: the engine takes the command this cycle
            `PPU_HOST_SET_SM(cur, ST_EBUSY)
            eng_v  <= 1'b1;     // (its slot stays until the copy is done)
            eng_ch <= cur;
            eng_sl <= cur_sl;
            c_pend[cur_sl] <= PEND_LAUNCH;
            res_reason  <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_ENGINE_BUSY);
            if (guest) begin
              // the engine was free after all: this channel becomes resident
              res_v    <= 1'b1;
              res      <= cur;
              slice_t0 <= now;
              guest    <= 1'b0;
            end
            hs <= H_HOLD;
          end else begin
            `PPU_HOST_SET_SM(cur, ST_EWAIT)
            c_pend[cur_sl] <= PEND_LAUNCH;
            res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_ENGINE_BUSY);
            f_flush <= 1'b1;
            hs <= H_END;
          end
        end

        // The resident waits for its copy with its pushbuffer stream still
        // prefetched, so the methods after the launch run the cycle the
        // copy completes instead of after a fetch restart (translation and
        // read latency).  Anything else that needs the host ends the hold
        // and the service, exactly as a launch did before.
        H_HOLD: begin
          if (copy_done_valid && copy_done_chid[CHW-1:0] == cur) begin
            if (copy_done.fault) begin
              res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
              f_flush <= 1'b1;
              hs <= H_END;
            end else if (yield_now) begin
              f_flush <= 1'b1;
              hs <= H_END;
            end else begin
              // what SCHED_RESUME would do: a fresh slice if this one ran out
              if (expired) slice_t0 <= now;
              // a launch retried from the saved state has no stream to keep
              hs <= no_stream ? H_SVC_START : H_RUN;
            end
          end else if (hold_break) begin
            f_flush <= 1'b1;
            hs <= H_END;
          end
        end

        // The task table answers OK (queued or activated: the launch is
        // asynchronous), RETRY (no free task id) or FAULTED (the TMD was
        // unreadable or invalid and the fault is on its way, or the channel
        // is being killed).
        H_CLAUNCH: begin
          if (cl_valid && cl_ready) cl_sent <= 1'b1;
          if (cl_rsp_valid) begin
            cl_sent <= 1'b0;
            case (cl_rsp_status)
              ppu_types_pkg::TASK_LAUNCH_OK: begin
                c_pend[cur_sl] <= PEND_NONE;
                if (no_stream) begin
                  `PPU_HOST_SET_SM(cur, ST_READY)
                  hs <= H_SVC_START;
                end else begin
                  hs <= H_RUN;
                end
              end
              ppu_types_pkg::TASK_LAUNCH_RETRY: begin
                `PPU_HOST_SET_SM(cur, ST_EWAIT)
                c_pend[cur_sl] <= PEND_LAUNCH;
                res_reason  <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_ENGINE_BUSY);
                f_flush     <= 1'b1;
                hs          <= H_END;
              end
              default: begin
                c_pend[cur_sl] <= PEND_NONE;
                begin fl_ch = cur; fl_dead_w = 1'b1; fl_dead_v = 1'b1; end
                res_reason  <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
                f_flush     <= 1'b1;
                hs          <= H_END;
              end
            endcase
          end
        end

        H_WB_GET: begin
          if (wr_ready) hs <= H_WB_WAIT;
        end
        H_WB_WAIT: begin
          if (wr_rsp_valid) begin
            if (wr_rsp_err) begin
              fx <= fault(cur, ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR,
                          ppu_hw_pkg::PPU_FAULT_UNIT_INST, ppu_hw_pkg::PPU_FAULT_ACCESS_WRITE,
                          cur_userd.addr[31:0], '0);
              res_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_FAULT);
              hs <= H_END;
            end else begin
              c_get[cur] <= get_next;
              // (AUTO_PUT: the ring stays full, GP_PUT = the new GP_GET - 1)
              if (c_auto[cur]) c_put[cur] <= c_get[cur];
              hs <= H_NEXT_ENTRY;
            end
          end
        end

        H_DBG_HOLD: begin
          if (dbg_left <= 32'd1) hs <= H_SVC_START;
          dbg_left <= dbg_left - 32'd1;
        end

        // ---- channel cache miss (started in H_PICK)
        H_CWB: begin
          if (wr_valid && wr_ready) k_sent <= k_sent + 4'd1;
          if (wr_rsp_valid) begin
            k_beat <= k_beat + 4'd1;
            // (the written-back channel's context is lost: it faults, once)
            if (wr_rsp_err && !k_err) begin
              k_err <= 1'b1;
              fx    <= fault(k_wch, ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR,
                             ppu_hw_pkg::PPU_FAULT_UNIT_INST, ppu_hw_pkg::PPU_FAULT_ACCESS_WRITE,
                             k_save.addr[31:0], '0);
            end
            if (32'(k_beat) == SAVE_BEATS - 1) begin
              k_beat <= '0;
              k_sent <= '0;
              k_err  <= 1'b0;
              hs     <= k_fill ? H_CFILL : H_CDONE;
            end
          end
        end
        H_CFILL: begin
          if (prd_valid && prd_ready) k_sent <= k_sent + 4'd1;
          if (prd_rsp_valid) begin
            k_beat <= k_beat + 4'd1;
            k_buf[32'(k_beat)*64 +: 64] <= prd_rsp.data;
            if (prd_rsp.err && !k_err) begin
              // (the channel cannot run without its context: it faults and
              // its slot stays free)
              k_err <= 1'b1;
              fx    <= fault(k_ch, ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR,
                             ppu_hw_pkg::PPU_FAULT_UNIT_INST, ppu_hw_pkg::PPU_FAULT_ACCESS_READ,
                             k_save.addr[31:0], '0);
            end
            if (32'(k_beat) == SAVE_BEATS - 1)
              hs <= (k_err || prd_rsp.err) ? H_PICK : H_CDONE;
          end
        end
        H_CDONE: begin
          if (k_fill) begin
            c_gpva[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_GPFIFO_VA*8 +: 32];
            c_pbva[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_PB_VA*8 +: 32];
            c_left[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_LEFT__LSB +: 21];
            c_seg[k_sl]   <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_SEG__LSB];
            c_msub[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_SUBCH_COPY__LSB];
            c_mop[k_sl]   <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_OP__LSB +: 3];
            c_pend[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_DECODE*8 + ppu_hw_pkg::PPU_CHAN_SAVE_DECODE_PEND__LSB +: 2];
            c_maddr[k_sl] <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_METHOD*8 + ppu_hw_pkg::PPU_CHAN_SAVE_METHOD_ADDR__LSB +: 12];
            c_mcnt[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_METHOD*8 + ppu_hw_pkg::PPU_CHAN_SAVE_METHOD_COUNT__LSB +: 13];
            c_imm[k_sl]   <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS*8 + ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS_IMMD__LSB +: 13];
            c_pmin[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS*8 + ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS_PRIO_MIN__LSB +: 6];
            c_pmax[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS*8 + ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS_PRIO_MAX__LSB +: 6];
            c_maxd[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS*8 + ppu_hw_pkg::PPU_CHAN_SAVE_LIMITS_MAX_DEPTH__LSB +: 7];
            c_root[k_sl]  <= {k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_PT_ROOT*8 + ppu_hw_pkg::PPU_INST_PT_ROOT_SYS__LSB],
                              k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_PT_ROOT*8 + ppu_hw_pkg::PPU_INST_PT_ROOT_PPN__LSB +: 22]};
            c_slice[k_sl] <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_TIMESLICE*8 +: 32];
            c_sem_va[k_sl] <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_SEM_ADDR*8 +: 32];
            c_pay_lo[k_sl] <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_SEM_PAYLOAD_LO*8 +: 32];
            c_pay_hi[k_sl] <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_SEM_PAYLOAD_HI*8 +: 32];
            c_src[k_sl]   <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_SRC*8 +: 32];
            c_tmd[k_sl]   <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_TMD_ADDR*8 +: 32];
            c_dst[k_sl]   <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_DST*8 +: 32];
            c_len[k_sl]   <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_LENGTH*8 +: 32];
            c_csem[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_SEM_ADDR*8 +: 32];
            c_cpay[k_sl]  <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_COPY_SEM_PAYLOAD*8 +: 32];
            c_pexec[k_sl] <= k_buf[ppu_hw_pkg::PPU_CHAN_SAVE_PEND_EXEC*8 +: 32];
          end
          sl_v[k_sl] <= 1'b1;
          sl_ch[32'(k_sl)*CHW +: CHW] <= k_ch;
          hs <= H_PICK;
        end

        H_END: begin
          // service over: the channel's state is already saved in c_*
          guest <= 1'b0;
          hs <= H_PICK;
        end

        default: hs <= H_PICK;
      endcase
      // the state machine's flag changes (in place of its branches' writes)
      if (fl_stale_w) c_stale[fl_ch] <= fl_stale_v;
      if (fl_dbput_v_w) c_dbput_v[fl_ch] <= fl_dbput_v_v;
      if (fl_wake_w) c_wake[fl_ch] <= fl_wake_v;
      if (fl_acq_on_w) c_acq_on[fl_ch] <= fl_acq_on_v;
      if (fl_dead_w) c_dead[fl_ch] <= fl_dead_v;
      if (fl_dead_w && fl_dead_v) begin
        dn_f_v  <= 1'b1;
        dn_f_ch <= fl_ch;
      end
      if (fl_comp_w) c_comp[fl_ch] <= fl_comp_v;
      if (fl_ecopy_w) c_ecopy[fl_ch] <= fl_ecopy_v;
      if (fl_unbind_w) c_unbind[fl_ch] <= fl_unbind_v;
      if (fl_rt_arm_w) rt_arm[fl_ch] <= fl_rt_arm_v;

      // Applied after the state machine so that an event arriving in the
      // cycle the state machine clears the same flag is not lost.
      // ---- wake-ups of blocked acquires: any semaphore write, or the retry timer
      if (sem_written)
        for (int i = 0; i < NC; i++)
          if (s_acq[i]) c_wake[i] <= 1'b1;

      // ---- doorbells and unbind requests (recorded, acted on in H_PICK)
      if (doorbell && 32'(doorbell_chid) < NC) begin
        c_stale[doorbell_chid[CHW-1:0]] <= 1'b1;
        // the last doorbell wins: a DOORBELL register write re-reads USERD
        c_dbput_v[doorbell_chid[CHW-1:0]] <= doorbell_put_valid;
        c_dbput[doorbell_chid[CHW-1:0]]   <= doorbell_put;
        perf_doorbell <= 1'b1;
      end
      // An unbind of a channel that is UNBOUND (and not being bound in this
      // cycle) is done at once: only a doorbell it has not acted on may be
      // left, and that belongs to the binding being destroyed.  Recorded
      // for H_PICK instead, the request would leave CHAN_STATUS reading
      // UNBOUND while it waits, and a doorbell of the next binding that
      // came before the host acted would be dropped with it.
      if (unbind && 32'(unbind_chid) < NC) begin
        if (s_unbound[unbind_chid[CHW-1:0]] && !(bind_now && sd_ch == unbind_chid[CHW-1:0])) begin
          c_stale[unbind_chid[CHW-1:0]]   <= 1'b0;
          c_dbput_v[unbind_chid[CHW-1:0]] <= 1'b0;
        end else begin
          c_unbind[unbind_chid[CHW-1:0]] <= 1'b1;
        end
      end
      // ---- a submitted runlist (the last submit wins; read in H_PICK)
      if (rl_submit) begin
        rl_req       <= 1'b1;
        rl_req_base  <= rl_base;
        rl_req_count <= rl_count;
        rl_error     <= 1'b0;
      end

      // ---- the state changes of this cycle, in order: the copy engine's
      // completion, a fault of the state machine, WFI channels whose tasks
      // are gone (READY), the state machine, and last the channels with a
      // compute fault, which stay FAULTED whatever their service was doing
      // when it arrived, until they are unbound: FAULTED in the cycle
      // after the fault is recorded, and again whenever the state machine
      // changes a dead channel's state (a service under way when the fault
      // came may still end in it; no other change reaches a dead channel:
      // it runs no method, WFI included, and a copy completion leaves a
      // FAULTED channel FAULTED).
      // (only in cycles with a change: a model of thousands of channels
      // pays for the whole-vector operations only then)
      if (st_d_v || fx_valid || st_sm_v || drain_valid || dn_x_v || dn_f_v) begin
        {n_unbound, n_idle, n_ready, n_acq, n_ewait, n_ebusy, n_faulted, n_loading, n_wfi} =
            {s_unbound, s_idle, s_ready, s_acq, s_ewait, s_ebusy, s_faulted, s_loading, s_wfi};
        if (st_d_v) begin
          st_m = NC'(1) << st_d_ch;
          `PPU_HOST_APPLY(st_m, st_d)
        end
        if (fx_valid) `PPU_HOST_APPLY(fx_oh, ST_FAULTED)
        // (the task table says when a channel's last task id is freed,
        // one channel a cycle: no compare with every channel's count)
        st_m = (drain_valid && s_wfi[drain_ch]) ? NC'(1) << drain_ch : '0;
        `PPU_HOST_APPLY(st_m, ST_READY)
        if (st_sm_v) begin
          st_m = NC'(1) << st_sm_ch;
          `PPU_HOST_APPLY(st_m, st_sm)
        end
        // (only a channel still dead: an unbind or a bind that ended in
        // the cycle its fault arrived cleared the flag again and left it
        // UNBOUND or bound afresh; the copy engine's completion needs no
        // look, it leaves a FAULTED channel as it is)
        st_m = (((dn_x_v && c_dead[dn_x_ch]) ? NC'(1) << dn_x_ch : '0) |
                ((dn_f_v && c_dead[dn_f_ch]) ? NC'(1) << dn_f_ch : '0) |
                ((st_sm_v && c_dead[st_sm_ch]) ? NC'(1) << st_sm_ch : '0)) &
               ~(unbind_now ? NC'(1) << sd_ch : '0);
        `PPU_HOST_APPLY(st_m, ST_FAULTED)
        {s_unbound, s_idle, s_ready, s_acq, s_ewait, s_ebusy, s_faulted, s_loading, s_wfi} <=
            {n_unbound, n_idle, n_ready, n_acq, n_ewait, n_ebusy, n_faulted, n_loading, n_wfi};
      end

    end
  end

  // ---------------------------------------------------------------------
  // SCHED_SETS: the decision over sets by runlist position (ppu_sched_rr)
  // ---------------------------------------------------------------------
  // The sets follow the channels' state: each kind below is ppu_sched's
  // mask for it, and a channel whose kinds changed is written into the
  // sets again (one a cycle; docs/channels-at-scale.md step (d)).  A
  // semaphore write and the retry tick change many channels at once: the
  // sets follow them by a move, not channel by channel.  A decision is
  // carried out only from a round that began after the host came to wait
  // for it, and only when it still holds for the channel's state now.
  if (SCHED_SETS) begin : g_sched_sets
    localparam int unsigned PW = CHW;
    logic [NC-1:0] mem_v, off_k, k_r, k_b0, k_b1, k_ec, k_ek, k_u, k_d;
    logic [NC-1:0] q_r, q_b0, q_b1, q_ec, q_ek, q_u, q_d, sw_q, chg, dirty, res_bit;
    always_comb begin
      mem_v = cfg_runlist ? rl_in : '1;
      off_k = c_comp & c_unbind & ~s_ebusy;
      k_r   = (s_ready | (s_acq & c_wake)) & ~off_k & mem_v;
      k_b0  = s_acq & ~c_wake & ~rt_arm & ~off_k & mem_v;
      k_b1  = s_acq & ~c_wake & rt_arm & ~off_k & mem_v;
      k_ec  = s_ewait & ~comp_v & ~off_k & mem_v;
      k_ek  = s_ewait & comp_v & ~off_k & mem_v;
      k_u   = unbind_v & ~s_ebusy;
      k_d   = c_stale & ~unbind_v;
      // (a wake or tick's changes of blocked channels are the move's)
      chg   = (((k_r ^ q_r) | (k_b0 ^ q_b0) | (k_b1 ^ q_b1)) & ~(sw_q & (k_r | k_b0 | k_b1))) |
              (k_ec ^ q_ec) | (k_ek ^ q_ek) | (k_u ^ q_u) | (k_d ^ q_d);
      res_bit = res_v ? NC'(1) << res : '0;
    end

    // A channel's position and level (the list in force; without one the
    // position is the channel id, all in level 0).
    function automatic logic [PW-1:0] pos_of(input logic [CHW-1:0] c);
      pos_of = cfg_runlist ? rl_c2p[32'(rl_bank)*NC + 32'(c)] : PW'(c);
    endfunction
    function automatic logic [5:0] lvl_of(input logic [CHW-1:0] c);
      for (int b = 0; b < 6; b++) lvl_of[b] = cfg_runlist && rl_level[b*NC + 32'(c)];
    endfunction
    logic [NLV*PW-1:0] lv_lo, lv_hi;
    logic [NLV-1:0]    lv_ne;
    always_comb
      for (int l = 0; l < NLV; l++) begin
        lv_lo[l*PW +: PW] = cfg_runlist ? rl_lo[32'(rl_bank)*NLV + l] : '0;
        lv_hi[l*PW +: PW] = cfg_runlist ? rl_hi[32'(rl_bank)*NLV + l] : PW'(NC - 1);
        lv_ne[l]          = cfg_runlist ? rl_ne[rl_bank][l] : (l == 0);
      end

    // ---- the sets' upkeep: a rebuild after the list changed (every
    // position cleared, then every channel written), else a refresh of
    // one channel whose kinds changed
    logic           rb_busy, rl_mode_q;
    logic [CHW-1:0] rb_i;
    wire            rb_go = (hs == H_RL_DONE) || (cfg_runlist != rl_mode_q);
    logic           rf_found;
    logic [CHW-1:0] rf_ch;
    // (a change is written in the cycle it is seen, not a cycle later)
    ppu_ffs #(.N(NC)) u_rf (.in(dirty | chg), .found(rf_found), .idx(rf_ch));
    wire            rf_v = rf_found && !rb_busy;
    logic [PW-1:0]  rf_pos;
    always_comb rf_pos = pos_of(rf_ch);

    logic [4:0]      p_upd_valid, p_upd_set;
    logic [5*PW-1:0] p_upd_pos;
    logic [1:0]      c_upd_valid, c_upd_set;
    logic [2*PW-1:0] c_upd_chid;
    always_comb begin
      p_upd_valid = '0;
      p_upd_set   = '0;
      p_upd_pos   = {5{rf_pos}};
      c_upd_valid = '0;
      c_upd_set   = {k_d[rf_ch], k_u[rf_ch]};
      c_upd_chid  = {2{rf_ch}};
      if (rb_busy) begin
        p_upd_valid = '1;
        p_upd_pos   = {5{rb_i}};
      end else if (rf_v) begin
        if (mem_v[rf_ch]) begin
          p_upd_valid = '1;
          p_upd_set   = {k_ek[rf_ch], k_ec[rf_ch], k_b1[rf_ch], k_b0[rf_ch], k_r[rf_ch]};
        end
        c_upd_valid = '1;
      end
    end

    // ---- what a round samples
    wire fx_res   = fx_valid && fx_ch == res;
    wire e_free   = copy_ready && !(|(s_ebusy & ~off_busy));
    wire e_free_r = !(|(s_ebusy & ~off_busy & ~res_bit));
    wire r_busy   = res_v && s_ebusy[res] && !fx_res;
    wire r_elig   = res_v && !fx_res &&
                    (k_r[res] || (k_ec[res] && e_free) || (k_ek[res] && can_accept));
    wire r_mem    = mem_v[res];
    logic [PW-1:0] r_pos, sv_pos;
    logic [5:0]    r_lv, sv_lv;
    always_comb begin
      r_pos  = pos_of(res);
      r_lv   = lvl_of(res);
      sv_pos = pos_of(served_ch);
      sv_lv  = lvl_of(served_ch);
    end
    wire sv_v = served && mem_v[served_ch];

    logic                      go, round_start, rr_busy, dec_valid, dec_by_id, dec_renew, preempt;
    ppu_types_pkg::sched_dec_e dec;
    logic [PW-1:0]             dec_ch;
    logic [3:0]                dec_reason;
    ppu_sched_rr #(.NUM_CHANNELS(NC)) u_sched (
        .clk(hclk), .rst_n,
        .p_upd_valid, .p_upd_set, .p_upd_pos, .c_upd_valid, .c_upd_set, .c_upd_chid,
        .wake_all(sem_written || to_tick), .retry_tick(rt_tick), .go,
        .lv_lo, .lv_hi, .lv_ne,
        .res_v, .res_pos(r_pos), .res_lv(r_lv), .res_member(r_mem), .res_busy(r_busy),
        .res_elig(r_elig), .expired, .yielded, .res_reason, .guest, .can_accept,
        .engine_free(e_free), .engine_free_but_res(e_free_r),
        .served(sv_v), .served_pos(sv_pos), .served_lv(sv_lv),
        .round_start, .busy(rr_busy),
        .dec_valid, .dec, .dec_by_id, .dec_ch, .dec_reason, .dec_renew, .preempt
    );

    // ---- the decision, mapped to a channel and checked against its state now
    logic [CHW-1:0] dch, vf_ch;
    logic           ok, fr_arm, fr_ok, pre_arm, pre_ok, upd_since;
    always_comb begin
      logic fx_c, elig_c, oth_c;
      dch = (dec_by_id || !cfg_runlist) ? dec_ch : rl_p2c[32'(rl_bank)*NC + 32'(dec_ch)];
      fx_c   = fx_valid && fx_ch == dch;
      elig_c = !fx_c && (k_r[dch] || (k_ec[dch] && e_free) || (k_ek[dch] && can_accept));
      oth_c  = !fx_c && (k_r[dch] || k_b0[dch] || k_b1[dch] || (k_ec[dch] && e_free_r) ||
                         (k_ek[dch] && can_accept));
      vf_ch = dch;
      case (dec)
        ppu_types_pkg::SCHED_UNBIND:   ok = k_u[dch];
        ppu_types_pkg::SCHED_DOORBELL: ok = k_d[dch];
        ppu_types_pkg::SCHED_GUEST:    ok = r_busy && dch != res && elig_c;
        ppu_types_pkg::SCHED_SWITCH:
          ok = !r_busy && (elig_c || (32'(dec_reason) == ppu_hw_pkg::PPU_SWITCH_REASON_TIMESLICE &&
                                      res_v && dch != res && oth_c));
        ppu_types_pkg::SCHED_RESUME: begin
          ok    = r_elig && !r_busy;
          vf_ch = res;
        end
        ppu_types_pkg::SCHED_DROP: begin
          ok    = res_v && !r_busy && !r_elig;
          vf_ch = res;
        end
        default: ok = 1'b1;
      endcase
    end
    // (an unbind or a doorbell is carried out whenever it still holds: it
    // depends on nothing else, and carrying it out ends it)
    wire by_id = dec == ppu_types_pkg::SCHED_UNBIND || dec == ppu_types_pkg::SCHED_DOORBELL;
    logic spent;   // the decision held was carried out: the next round's comes
    // A doorbell rung while none is held here is taken at once, without a
    // round (others pending wait for the rounds' search of D); so is a
    // bind whose channel the cache had to load first, or another miss
    // could take its slot again.
    logic           db_v;
    logic [CHW-1:0] db_ch;
    wire use_db = db_v && k_d[db_ch];
    wire use_id = !use_db && by_id && !spent && ok;
    assign sd_dec      = use_id ? dec : use_db ? ppu_types_pkg::SCHED_DOORBELL :
                         (fr_ok && ok) ? dec : ppu_types_pkg::SCHED_WAIT;
    assign sd_ch       = use_db ? db_ch : dch;
    assign sd_reason   = dec_reason;
    assign sd_renew    = dec_renew;
    assign sd_preempt  = pre_ok && preempt;
    assign engine_free = e_free;

    // A decision spent (carried out, or the state machine moved on) needs a
    // round that began after it; one that no longer holds, too, and the
    // channel it named is written into the sets again.
    logic [$bits(hs)-1:0] hs_q;
    wire act    = (hs == H_PICK) && f_idle && (rl_req || sd_dec != ppu_types_pkg::SCHED_WAIT);
    wire waits  = (hs == H_PICK && f_idle) || hs == H_HOLD;
    wire vf_bad = waits && (fr_ok || by_id) && !spent && !ok && !use_db;
    // Between H_PICK and a service (a doorbell's GP_PUT, a bind, a list,
    // a cache miss) no round is wanted: one begun there would only delay
    // the next decision.  In a service rounds run for preempt.
    wire orbit  = ((hs == H_PRD || hs == H_PUT) && !ph_back) || hs == H_RL_DONE ||
                  hs == H_CWB || hs == H_CFILL || hs == H_CDONE;
    wire fr_clr = act || 32'(hs) != 32'(hs_q) || rb_busy || rb_go;
    // What a round samples, to know whether a new one could decide otherwise.
    localparam int unsigned SNAP_W = 10 + CHW + 4;
    logic [SNAP_W-1:0] snap, snap_q;
    always_comb snap = {res_v, res, r_busy, r_elig, r_mem, expired, yielded, guest, can_accept,
                        e_free, e_free_r, res_reason};
    // (a round begun as the host changes state or acts would be spent)
    // (a round begun as the host changes state or acts would be spent)
    assign go = !rb_busy && !rb_go && !orbit && !fr_clr &&
                (!waits || !fr_ok || upd_since || snap != snap_q);
    // (hs_q must catch up with a change of state: no round starts until it has)
    assign ss_busy = rr_busy || go || dec_valid || rb_busy || (|dirty) || (|chg) ||
                     32'(hs) != 32'(hs_q);
    // (with every channel unbound, idle or faulted and the sets holding
    // just that, a round could only find WAIT, or DROP of an idle
    // resident: the PPU is idle without it)
    assign ss_upkeep = rb_busy || (|dirty) || (|chg);

    always_ff @(posedge hclk) begin
      if (!rst_n) begin
        q_r   <= '0;
        q_b0  <= '0;
        q_b1  <= '0;
        q_ec  <= '0;
        q_ek  <= '0;
        q_u   <= '0;
        q_d   <= '0;
        sw_q  <= '0;
        dirty <= '0;
        rb_busy   <= 1'b0;
        rb_i      <= '0;
        rl_mode_q <= 1'b0;
        hs_q      <= '0;
        fr_arm    <= 1'b0;
        fr_ok     <= 1'b0;
        pre_arm   <= 1'b0;
        pre_ok    <= 1'b0;
        spent     <= 1'b0;
        db_v      <= 1'b0;
        db_ch     <= '0;
        upd_since <= 1'b0;
        snap_q    <= '0;
      end else begin
        q_r  <= k_r;
        q_b0 <= k_b0;
        q_b1 <= k_b1;
        q_ec <= k_ec;
        q_ek <= k_ek;
        q_u  <= k_u;
        q_d  <= k_d;
        sw_q <= (sem_written || rt_tick || to_tick) ? s_acq : '0;
        dirty <= ((dirty | chg) & ~(rf_v ? NC'(1) << rf_ch : '0)) |
                 (vf_bad ? NC'(1) << vf_ch : '0);
        rl_mode_q <= cfg_runlist;
        if (rb_go) begin
          rb_busy <= 1'b1;
          rb_i    <= '0;
        end else if (rb_busy) begin
          rb_i <= rb_i + CHW'(1);
          if (32'(rb_i) == NC - 1) begin
            rb_busy <= 1'b0;
            dirty   <= '1;
          end
        end
        hs_q <= $bits(hs)'(hs);
        if (fr_clr) begin
          fr_arm <= 1'b0;
          fr_ok  <= 1'b0;
        end else begin
          if (round_start) fr_arm <= 1'b1;
          if (dec_valid) fr_ok <= fr_arm;
          else if (vf_bad) fr_ok <= 1'b0;
        end
        if (act && sd_dec == ppu_types_pkg::SCHED_DOORBELL) begin
          if (miss_now) begin
            db_v  <= 1'b1;
            db_ch <= sd_ch;
          end else if (sd_ch == db_ch) begin
            db_v <= 1'b0;
          end
        end else if (doorbell && 32'(doorbell_chid) < NC && !use_db) begin
          db_v  <= 1'b1;
          db_ch <= doorbell_chid[CHW-1:0];
        end
        if ((act && !use_db) || vf_bad) spent <= 1'b1;
        else if (dec_valid) spent <= 1'b0;
        if (act) begin
          pre_arm <= 1'b0;
          pre_ok  <= 1'b0;
        end else begin
          if (round_start) pre_arm <= 1'b1;
          if (dec_valid) pre_ok <= pre_arm;
        end
        if (round_start) snap_q <= snap;
        if (rf_v || rb_busy || sem_written || to_tick || rt_tick || served)
          upd_since <= 1'b1;
        else if (round_start)
          upd_since <= 1'b0;
      end
    end
  end

  // Nothing to do until a doorbell or unbind arrives.
  always_comb begin
    // (not while a fault or non-stall report is still on its way to the
    // register block: the interrupt it raises must not wait for a clock)
    idle = (hs == H_PICK) && f_idle && !fx_valid && !cf_hold.valid &&
           !(|fault_set) && !(|nonstall_set);
    if (|(~(s_unbound | s_idle | s_faulted) | c_stale | c_unbind) || ss_upkeep) idle = 1'b0;
  end

`undef PPU_HOST_SET_D
`undef PPU_HOST_SET_SM
`undef PPU_HOST_APPLY

endmodule
