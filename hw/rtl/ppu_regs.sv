// SPDX-License-Identifier: MIT
// Register block (BAR0).  Reads have no side effects: pending bits are
// write-1-to-clear and commands are write-only registers that read as zero,
// so a transport may retry or speculatively read any register.
module ppu_regs #(
    parameter int unsigned NUM_CHANNELS = 16,
    parameter int unsigned COPY_CHUNK_BYTES = 4096,
    parameter int unsigned COPY_MAX_READS = 256,
    parameter int unsigned TLB_ENTRIES = 16,
    parameter int unsigned PB_PREFETCH_BEATS = 16,
    parameter int unsigned CHAN_CACHE = 16,
    // compute engine (NUM_CU = 0: none; the other compute CAPs then read 0)
    parameter int unsigned NUM_CU = 0,
    parameter int unsigned CU_CONTEXTS = 8,
    parameter int unsigned TASK_SLOTS = 8,
    parameter int unsigned NUM_TASKS = 64,
    parameter int unsigned MAX_CTA_THREADS = 8,
    parameter int unsigned ICACHE_BYTES = 1024
) (
    input  logic                      clk,
    input  logic                      rst_n,
    // strap: local memory in MiB, constant after reset (see ppu_top)
    input  logic [15:0]               local_mem_mib,
    // register bus
    input  logic                      req_valid,
    output logic                      req_ready,
    input  logic                      req_write,
    /* verilator lint_off UNUSEDSIGNAL */  // registers are dword aligned
    input  logic [31:0]               req_addr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [31:0]               req_wdata,
    output logic                      rsp_valid,
    output logic [31:0]               rsp_rdata,
    output logic                      irq,
    // to the blocks
    output logic [63:0]               cycle,
    output logic                      doorbell,
    output logic [ppu_types_pkg::CHID_W-1:0] doorbell_chid,
    output logic                      doorbell_put_valid,  // a doorbell page write: GP_PUT carried
    output logic [31:0]               doorbell_put,
    output logic                      unbind,
    output logic [ppu_types_pkg::CHID_W-1:0] unbind_chid,
    output ppu_types_pkg::paddr_t     chan_table,
    output logic [31:0]               cfg_timeslice,
    output logic [31:0]               cfg_acq_retry,
    output logic [31:0]               cfg_acq_timeout,
    output logic                      cfg_runlist,       // SCHED_CTRL.RUNLIST
    output logic                      rl_submit,         // RUNLIST_SUBMIT written
    output ppu_types_pkg::paddr_t     rl_base,
    output logic [15:0]               rl_count,
    input  logic                      rl_pending,
    input  logic                      rl_error,
    input  logic [15:0]               rl_active,
    output logic [31:0]               cfg_release_hold,
    output logic                      mmu_invalidate,
    input  logic                      mmu_inv_pending,   // MMU_STATUS.INV_PENDING
    output logic                      copy_reset,        // ENGINE_CTRL.COPY_RESET written
    output logic                      copy_halt,
    input  logic                      copy_resetting,
    output logic                      compute_reset,     // ENGINE_CTRL.COMPUTE_RESET written
    output logic                      compute_halt,
    input  logic                      compute_resetting,
    // per-channel status window (combinational read from the host)
    output logic                      stat_rd,       // a read of the window: stat_data wanted
    output logic [ppu_types_pkg::CHID_W-1:0] stat_chid,
    output logic [4:0]                stat_off,
    input  logic [31:0]               stat_data,
    // events
    input  logic [NUM_CHANNELS-1:0]   fault_set,
    input  logic [NUM_CHANNELS-1:0]   nonstall_set,
    // event ring (ppu_evring): while it is on, events set no pending bit
    output logic [4:0]                ev_log2,
    output ppu_types_pkg::paddr_t     ev_base,
    output logic                      ev_restart,
    output logic [31:0]               ev_get,
    input  logic [31:0]               ev_put,
    input  logic                      ev_error,
    input  logic                      ev_fault,     // a fault record past GET
    // per ppu_hw_pkg::PPU_PERF_* index, a 3-bit increment (several compute
    // units may add in one cycle)
    input  logic [ppu_hw_pkg::PPU_PERF_COUNT*3-1:0] perf_inc,
    input  logic                      perf_add_valid, // COPY_BYTES += perf_add
    input  logic [31:0]               perf_add,
    // debug windows of the compute engine
    output logic [7:0]                task_dbg_sel,
    output logic [1:0]                task_ctrl,
    input  logic [31:0]               task_dbg0,
    input  logic [31:0]               task_dbg1,
    input  logic [31:0]               task_dbg_next_cta,
    input  logic [31:0]               task_dbg_exited,
    input  logic [31:0]               task_dbg_tmd_va,
    output logic [15:0]               cu_dbg_sel,
    input  logic [31:0]               cu_dbg0,
    input  logic [31:0]               cu_dbg_pc,
    input  logic [31:0]               cu_dbg_cta_id
);
  localparam int unsigned PERF_N = ppu_hw_pkg::PPU_PERF_COUNT;

  localparam int unsigned NC = NUM_CHANNELS;
  localparam int unsigned CHID_W = ppu_types_pkg::CHID_W;
  // Channels with a pending bit (a 32-bit register) and a window of their
  // own; the rest report events by the event ring and status by CHAN_SEL.
  localparam int unsigned PN = NC < ppu_hw_pkg::PPU_PENDING_CHANNELS ?
                               NC : ppu_hw_pkg::PPU_PENDING_CHANNELS;
  localparam int unsigned WN = NC < ppu_hw_pkg::PPU_CHAN_WINDOW_CHANNELS ?
                               NC : ppu_hw_pkg::PPU_CHAN_WINDOW_CHANNELS;

  initial begin
    if (NUM_CHANNELS < 1 || NUM_CHANNELS > (1 << CHID_W))
      $error("NUM_CHANNELS must be 1..%0d (CHID_BITS-bit channel ids)", 1 << CHID_W);
    // The id fields are taken whole: a wider id truncated here could name a
    // live channel.
    if (CHID_W != ppu_hw_pkg::PPU_CHID_BITS)
      $error("ppu_types_pkg::CHID_W must be PPU_CHID_BITS");
    if (ppu_hw_pkg::PPU_DOORBELL_CHID__MSB - ppu_hw_pkg::PPU_DOORBELL_CHID__LSB + 1 != CHID_W ||
        ppu_hw_pkg::PPU_CHAN_CTRL_CHID__MSB - ppu_hw_pkg::PPU_CHAN_CTRL_CHID__LSB + 1 != CHID_W ||
        ppu_hw_pkg::PPU_CHAN_SEL_CHID__MSB - ppu_hw_pkg::PPU_CHAN_SEL_CHID__LSB + 1 != CHID_W)
      $error("DOORBELL.CHID, CHAN_CTRL.CHID and CHAN_SEL.CHID must be CHID_BITS wide");
  end

  logic [31:0] intr_enable;
  logic [PN-1:0] fault_pend, nonstall_pend;
  logic [CHID_W-1:0] r_chan_sel;
  // (events of channels without a pending bit are the event ring's)
  if (NC > PN) begin : g_no_pend
    wire unused_events = ^{fault_set[NC-1:PN], nonstall_set[NC-1:PN]};
  end
  logic [31:0] r_timeslice, r_retry, r_timeout, r_release_hold;
  logic        r_runlist;
  logic [31:0] rl_lo, rl_hi;
  logic [31:0] ct_lo, ct_hi;
  logic [31:0] ev_lo, ev_hi;
  logic [63:0] perf [PERF_N];
  logic [7:0]  r_task_sel;
  logic [15:0] r_cu_sel;
  assign task_dbg_sel = r_task_sel;
  logic [1:0]  r_task_ctrl;
  assign task_ctrl = r_task_ctrl;
  logic        r_copy_halt;
  assign copy_halt = r_copy_halt;
  logic        r_compute_halt;
  assign compute_halt = r_compute_halt;
  assign cu_dbg_sel   = r_cu_sel;

  assign req_ready     = 1'b1;
  assign cfg_timeslice = r_timeslice;
  assign cfg_acq_retry = r_retry;
  assign cfg_acq_timeout = r_timeout;
  assign cfg_runlist   = r_runlist;
  always_comb begin
    rl_base.sys  = rl_hi[ppu_hw_pkg::PPU_ADDR_HI_SYS__LSB];
    rl_base.addr = {rl_hi[1:0], rl_lo[31:3], 3'd0};
  end
  assign cfg_release_hold = r_release_hold;
  always_comb begin
    ev_base.sys  = ev_hi[ppu_hw_pkg::PPU_ADDR_HI_SYS__LSB];
    ev_base.addr = {ev_hi[1:0], ev_lo[31:3], 3'd0};
  end
  wire ev_on = ev_log2 != '0;
  always_comb begin
    chan_table.sys  = ct_hi[ppu_hw_pkg::PPU_ADDR_HI_SYS__LSB];
    chan_table.addr = {ct_hi[1:0], ct_lo[31:6], 6'd0};
  end

  // The register window, and the channels' doorbell pages above it.
  wire in_regs = req_addr < ppu_hw_pkg::PPU_BAR0_SIZE;
  wire in_userdb = (req_addr >= ppu_hw_pkg::PPU_USERDB_BASE) &&
                   (req_addr < ppu_hw_pkg::PPU_USERDB_BASE + NC * ppu_hw_pkg::PPU_USERDB_STRIDE);
  localparam int unsigned DB_SHIFT = $clog2(ppu_hw_pkg::PPU_USERDB_STRIDE);
  wire [31:0] db_rel = req_addr - ppu_hw_pkg::PPU_USERDB_BASE;
  wire        db_put = in_userdb &&
                       db_rel[DB_SHIFT-1:2] == (DB_SHIFT-2)'(ppu_hw_pkg::PPU_USERDB_GP_PUT >> 2);
  wire wr = req_valid && req_write && in_regs;
  wire rd = req_valid && !req_write && in_regs;
  wire [15:0] a = {req_addr[15:2], 2'b00};

  // Channel window decode (also drives the host's status mux).
  wire in_chan = (32'(a) >= ppu_hw_pkg::PPU_CHAN_BASE) &&
                 (32'(a) < ppu_hw_pkg::PPU_CHAN_BASE + WN * ppu_hw_pkg::PPU_CHAN_STRIDE);
  wire in_sel  = (32'(a) >= ppu_hw_pkg::PPU_CHAN_SEL_BASE) &&
                 (32'(a) < ppu_hw_pkg::PPU_CHAN_SEL_BASE + ppu_hw_pkg::PPU_CHAN_STRIDE);
  wire sel_ok  = 32'(r_chan_sel) < NC;
  assign stat_rd = rd && (in_chan || (in_sel && sel_ok));
  always_comb begin
    logic [15:0] rel;
    rel = a - 16'(ppu_hw_pkg::PPU_CHAN_BASE);
    stat_chid = CHID_W'(rel >> $clog2(ppu_hw_pkg::PPU_CHAN_STRIDE));
    // (both windows are CHAN_STRIDE aligned: the offset is the same bits)
    if (in_sel) stat_chid = r_chan_sel;
    stat_off  = 5'(rel[$clog2(ppu_hw_pkg::PPU_CHAN_STRIDE)-1:0] >> 2);
  end
  wire in_perf = (32'(a) >= ppu_hw_pkg::PPU_PERF_BASE) && (32'(a) < ppu_hw_pkg::PPU_PERF_BASE + ppu_hw_pkg::PPU_PERF_COUNT * 8);
  wire [5:0] perf_idx = 6'((a - 16'(ppu_hw_pkg::PPU_PERF_BASE)) >> 3);

  wire [31:0] intr_status = {28'd0, ev_on && !ev_restart && ev_fault,
                             ev_on && !ev_restart && (ev_put != ev_get || ev_error),
                             |nonstall_pend, |fault_pend};
  wire [31:0] features = (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_COPY_ENGINE__LSB) |
                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_SYS_APERTURE__LSB) |
                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_SEM_TIMESTAMP__LSB) |
                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_PRIO_SCHED__LSB) |
                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_AUTO_PUT__LSB) |
                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_INV_DRAIN__LSB) |
                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_ENGINE_RESET__LSB) |
                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_USER_DOORBELL__LSB) |
                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_RUNLIST__LSB) |
                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_EVENT_RING__LSB) |
                         ((NUM_CU > 0) ? (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_COMPUTE_ENGINE__LSB) |
                                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_DEV_LAUNCH__LSB) |
                                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_COMPUTE_COPY__LSB) |
                                         (32'd1 << ppu_hw_pkg::PPU_CAP_FEATURES_COMPUTE_RESET__LSB) : 32'd0);
  localparam bit HAS_CU = NUM_CU > 0;

  logic [31:0] rdata;
  always_comb begin
    logic [63:0] p;
    p = '0;
    rdata = '0;
    // (formed only for a read: a simulator then skips the multiplexer in
    // the cycles without one, where its inputs change all the same)
    if (rd) begin
      p = perf[perf_idx];
      if (stat_rd) begin   // a channel window (the host forms it only then)
        rdata = stat_data;
      end else if (in_sel) begin
        rdata = '0;
      end else if (in_perf) begin
        rdata = a[2] ? p[63:32] : p[31:0];
      end else begin
        case (32'(a))
          ppu_hw_pkg::PPU_REG_ID:                   rdata = ppu_hw_pkg::PPU_ID_VALUE;
          ppu_hw_pkg::PPU_REG_VERSION:              rdata = (ppu_hw_pkg::PPU_VERSION_MAJOR << ppu_hw_pkg::PPU_VERSION_MAJOR__LSB) |
                                                (ppu_hw_pkg::PPU_VERSION_MINOR << ppu_hw_pkg::PPU_VERSION_MINOR__LSB);
          ppu_hw_pkg::PPU_REG_CAP_NUM_CHANNELS:     rdata = NUM_CHANNELS;
          ppu_hw_pkg::PPU_REG_CAP_NUM_CU:           rdata = NUM_CU;
          ppu_hw_pkg::PPU_REG_CAP_NUM_TASK_SLOTS:   rdata = HAS_CU ? TASK_SLOTS : 32'd0;
          ppu_hw_pkg::PPU_REG_CAP_NUM_PRIORITIES:   rdata = HAS_CU ? ppu_hw_pkg::PPU_NUM_PRIORITIES : 32'd0;
          ppu_hw_pkg::PPU_REG_CAP_CU_CONTEXTS:      rdata = HAS_CU ? CU_CONTEXTS : 32'd0;
          ppu_hw_pkg::PPU_REG_CAP_NUM_TASKS:        rdata = HAS_CU ? NUM_TASKS : 32'd0;
          ppu_hw_pkg::PPU_REG_CAP_MAX_CTA_THREADS:  rdata = HAS_CU ? MAX_CTA_THREADS : 32'd0;
          ppu_hw_pkg::PPU_REG_CAP_ICACHE_BYTES:     rdata = HAS_CU ? ICACHE_BYTES : 32'd0;
          ppu_hw_pkg::PPU_REG_TASK_DBG_SEL:         rdata = 32'(r_task_sel);
          ppu_hw_pkg::PPU_REG_TASK_CTRL:            rdata = 32'(r_task_ctrl);
          ppu_hw_pkg::PPU_REG_TASK_DBG0:            rdata = task_dbg0;
          ppu_hw_pkg::PPU_REG_TASK_DBG1:            rdata = task_dbg1;
          ppu_hw_pkg::PPU_REG_TASK_DBG_NEXT_CTA:    rdata = task_dbg_next_cta;
          ppu_hw_pkg::PPU_REG_TASK_DBG_EXITED:      rdata = task_dbg_exited;
          ppu_hw_pkg::PPU_REG_TASK_DBG_TMD_VA:      rdata = task_dbg_tmd_va;
          ppu_hw_pkg::PPU_REG_CU_DBG_SEL:           rdata = 32'(r_cu_sel);
          ppu_hw_pkg::PPU_REG_CHAN_SEL:             rdata = 32'(r_chan_sel);
          ppu_hw_pkg::PPU_REG_CU_DBG0:              rdata = cu_dbg0;
          ppu_hw_pkg::PPU_REG_CU_DBG_PC:            rdata = cu_dbg_pc;
          ppu_hw_pkg::PPU_REG_CU_DBG_CTA_ID:        rdata = cu_dbg_cta_id;
          ppu_hw_pkg::PPU_REG_CAP_COPY_CHUNK_BYTES: rdata = COPY_CHUNK_BYTES;
          ppu_hw_pkg::PPU_REG_CAP_MEM_DATA_BYTES:   rdata = ppu_types_pkg::MEM_BYTES;
          ppu_hw_pkg::PPU_REG_CAP_TLB_ENTRIES:      rdata = TLB_ENTRIES;
          ppu_hw_pkg::PPU_REG_CAP_COPY_MAX_READS:   rdata = COPY_MAX_READS;
          ppu_hw_pkg::PPU_REG_CAP_PB_PREFETCH_BEATS: rdata = PB_PREFETCH_BEATS;
          ppu_hw_pkg::PPU_REG_CAP_FEATURES:         rdata = features;
          ppu_hw_pkg::PPU_REG_CAP_LOCAL_MEM_MIB:    rdata = 32'(local_mem_mib);
          ppu_hw_pkg::PPU_REG_CAP_CHAN_CACHE:       rdata = CHAN_CACHE;
          ppu_hw_pkg::PPU_REG_INTR_STATUS:          rdata = intr_status;
          ppu_hw_pkg::PPU_REG_INTR_ENABLE:          rdata = intr_enable;
          ppu_hw_pkg::PPU_REG_NONSTALL_PENDING:     rdata = 32'(nonstall_pend);
          ppu_hw_pkg::PPU_REG_FAULT_PENDING:        rdata = 32'(fault_pend);
          ppu_hw_pkg::PPU_REG_CHAN_TABLE_LO:        rdata = ct_lo;
          ppu_hw_pkg::PPU_REG_CHAN_TABLE_HI:        rdata = ct_hi;
          ppu_hw_pkg::PPU_REG_SCHED_TIMESLICE:      rdata = r_timeslice;
          ppu_hw_pkg::PPU_REG_SCHED_ACQ_RETRY:      rdata = r_retry;
          ppu_hw_pkg::PPU_REG_SCHED_ACQ_TIMEOUT:    rdata = r_timeout;
          ppu_hw_pkg::PPU_REG_SCHED_CTRL:           rdata = 32'(r_runlist) << ppu_hw_pkg::PPU_SCHED_CTRL_RUNLIST__LSB;
          ppu_hw_pkg::PPU_REG_RUNLIST_LO:           rdata = rl_lo;
          ppu_hw_pkg::PPU_REG_RUNLIST_HI:           rdata = rl_hi;
          ppu_hw_pkg::PPU_REG_RUNLIST_STATUS:
            rdata = (32'(rl_pending || rl_submit) << ppu_hw_pkg::PPU_RUNLIST_STATUS_PENDING__LSB) |
                    (32'(rl_error && !rl_submit) << ppu_hw_pkg::PPU_RUNLIST_STATUS_ERROR__LSB) |
                    (32'(rl_active) << ppu_hw_pkg::PPU_RUNLIST_STATUS_COUNT__LSB);
          ppu_hw_pkg::PPU_REG_EVENT_RING_LO:        rdata = ev_lo;
          ppu_hw_pkg::PPU_REG_EVENT_RING_HI:        rdata = ev_hi;
          ppu_hw_pkg::PPU_REG_EVENT_RING_SIZE:      rdata = 32'(ev_log2);
          ppu_hw_pkg::PPU_REG_EVENT_RING_GET:       rdata = ev_get;
          ppu_hw_pkg::PPU_REG_EVENT_RING_PUT:       rdata = ev_put;
          ppu_hw_pkg::PPU_REG_EVENT_RING_STATUS:
            rdata = 32'(ev_error) << ppu_hw_pkg::PPU_EVENT_RING_STATUS_ERROR__LSB;
          ppu_hw_pkg::PPU_REG_DEBUG_RELEASE_HOLD:   rdata = r_release_hold;
          ppu_hw_pkg::PPU_REG_ENGINE_CTRL:
            // (copy_reset covers the cycle before the engine reports it)
            rdata = (32'(copy_reset || copy_resetting) << ppu_hw_pkg::PPU_ENGINE_CTRL_COPY_RESET__LSB) |
                    (32'(r_copy_halt) << ppu_hw_pkg::PPU_ENGINE_CTRL_COPY_HALT__LSB) |
                    (32'(compute_reset || compute_resetting) << ppu_hw_pkg::PPU_ENGINE_CTRL_COMPUTE_RESET__LSB) |
                    (32'(r_compute_halt) << ppu_hw_pkg::PPU_ENGINE_CTRL_COMPUTE_HALT__LSB);
          ppu_hw_pkg::PPU_REG_MMU_STATUS:
            rdata = 32'(mmu_inv_pending) << ppu_hw_pkg::PPU_MMU_STATUS_INV_PENDING__LSB;
          ppu_hw_pkg::PPU_REG_CYCLE_LO:             rdata = cycle[31:0];
          ppu_hw_pkg::PPU_REG_CYCLE_HI:             rdata = cycle[63:32];
          default:                      rdata = '0;
        endcase
      end
    end
  end

  assign irq = |(intr_status & intr_enable);

  always_ff @(posedge clk) begin
    doorbell       <= 1'b0;
    doorbell_put_valid <= 1'b0;
    unbind         <= 1'b0;
    mmu_invalidate <= 1'b0;
    copy_reset     <= 1'b0;
    compute_reset  <= 1'b0;
    rl_submit      <= 1'b0;
    ev_restart     <= 1'b0;
    rsp_valid      <= req_valid;
    rsp_rdata      <= rd ? rdata : 32'd0;
    if (!rst_n) begin
      cycle         <= '0;
      intr_enable   <= '0;
      fault_pend    <= '0;
      nonstall_pend <= '0;
      r_timeslice   <= 32'd1048576;  // ~1 ms at 1 GHz, the order of real GPU time slices
      r_retry       <= 32'd256;
      r_timeout     <= 32'd0;
      r_release_hold <= 32'd0;
      r_runlist     <= 1'b0;
      rl_lo         <= '0;
      rl_hi         <= '0;
      rl_count      <= '0;
      ct_lo         <= '0;
      ct_hi         <= '0;
      ev_lo         <= '0;
      ev_hi         <= '0;
      ev_log2       <= '0;
      ev_get        <= '0;
      doorbell_chid <= '0;
      doorbell_put  <= '0;
      unbind_chid   <= '0;
      rsp_valid     <= 1'b0;
      for (int i = 0; i < PERF_N; i++) perf[i] <= '0;
      r_task_sel    <= '0;
      r_task_ctrl   <= '0;
      r_cu_sel      <= '0;
      r_chan_sel    <= '0;
      r_copy_halt   <= 1'b0;
      r_compute_halt <= 1'b0;
    end else begin
      cycle <= cycle + 64'd1;
      for (int i = 0; i < PERF_N; i++)
        if (perf_inc[i*3 +: 3] != 3'd0) perf[i] <= perf[i] + 64'(perf_inc[i*3 +: 3]);
      if (perf_add_valid)
        perf[ppu_hw_pkg::PPU_PERF_COPY_BYTES] <= perf[ppu_hw_pkg::PPU_PERF_COPY_BYTES] + 64'(perf_add);

      // W1C first, then new events, so an event in the same cycle is kept.
      if (wr && 32'(a) == ppu_hw_pkg::PPU_REG_FAULT_PENDING) fault_pend <= fault_pend & ~req_wdata[PN-1:0];
      if (wr && 32'(a) == ppu_hw_pkg::PPU_REG_NONSTALL_PENDING)
        nonstall_pend <= nonstall_pend & ~req_wdata[PN-1:0];
      // (with the event ring on, events are the ring's; so are those of
      // channels without a pending bit, which wait in it while it is off)
      if (|fault_set[PN-1:0] && !ev_on)
        fault_pend <= (wr && 32'(a) == ppu_hw_pkg::PPU_REG_FAULT_PENDING ?
                       fault_pend & ~req_wdata[PN-1:0] : fault_pend) | fault_set[PN-1:0];
      if (|nonstall_set[PN-1:0] && !ev_on)
        nonstall_pend <= (wr && 32'(a) == ppu_hw_pkg::PPU_REG_NONSTALL_PENDING ?
                          nonstall_pend & ~req_wdata[PN-1:0] : nonstall_pend) | nonstall_set[PN-1:0];
      if (req_valid && req_write && db_put) begin
        doorbell           <= 1'b1;
        doorbell_put_valid <= 1'b1;
        doorbell_chid      <= CHID_W'(db_rel >> DB_SHIFT);
        doorbell_put       <= req_wdata;
      end
      if (wr) begin
        case (32'(a))
          ppu_hw_pkg::PPU_REG_INTR_ENABLE:       intr_enable <= req_wdata;
          ppu_hw_pkg::PPU_REG_DOORBELL: begin
            doorbell      <= 1'b1;
            doorbell_chid <= req_wdata[ppu_hw_pkg::PPU_DOORBELL_CHID__MSB:ppu_hw_pkg::PPU_DOORBELL_CHID__LSB];
          end
          ppu_hw_pkg::PPU_REG_CHAN_CTRL: begin
            if (32'(req_wdata[ppu_hw_pkg::PPU_CHAN_CTRL_OP__MSB:ppu_hw_pkg::PPU_CHAN_CTRL_OP__LSB]) == ppu_hw_pkg::PPU_CHAN_CTRL_OP_UNBIND) begin
              unbind      <= 1'b1;
              unbind_chid <= req_wdata[ppu_hw_pkg::PPU_CHAN_CTRL_CHID__MSB:ppu_hw_pkg::PPU_CHAN_CTRL_CHID__LSB];
            end
          end
          ppu_hw_pkg::PPU_REG_EVENT_RING_LO:     ev_lo <= {req_wdata[31:3], 3'd0};
          ppu_hw_pkg::PPU_REG_EVENT_RING_HI:     ev_hi <= req_wdata & ((32'd1 << ppu_hw_pkg::PPU_ADDR_HI_SYS__LSB) | 32'd3);
          ppu_hw_pkg::PPU_REG_EVENT_RING_SIZE: begin
            // (beyond LOG2_MAX: the largest ring)
            ev_log2    <= (32'(req_wdata[4:0]) > ppu_hw_pkg::PPU_EVENT_RING_LOG2_MAX) ?
                          5'(ppu_hw_pkg::PPU_EVENT_RING_LOG2_MAX) : req_wdata[4:0];
            ev_restart <= 1'b1;
            ev_get     <= '0;
          end
          ppu_hw_pkg::PPU_REG_EVENT_RING_GET:    ev_get <= req_wdata;
          ppu_hw_pkg::PPU_REG_CHAN_TABLE_LO:     ct_lo <= {req_wdata[31:6], 6'd0};
          ppu_hw_pkg::PPU_REG_CHAN_TABLE_HI:     ct_hi <= req_wdata & ((32'd1 << ppu_hw_pkg::PPU_ADDR_HI_SYS__LSB) | 32'd3);
          ppu_hw_pkg::PPU_REG_SCHED_TIMESLICE:   r_timeslice <= req_wdata;
          ppu_hw_pkg::PPU_REG_SCHED_ACQ_RETRY:   r_retry <= req_wdata;
          ppu_hw_pkg::PPU_REG_SCHED_ACQ_TIMEOUT: r_timeout <= req_wdata;
          ppu_hw_pkg::PPU_REG_DEBUG_RELEASE_HOLD: r_release_hold <= req_wdata;
          ppu_hw_pkg::PPU_REG_TASK_DBG_SEL:      r_task_sel <= req_wdata[7:0];
          ppu_hw_pkg::PPU_REG_TASK_CTRL:         r_task_ctrl <= req_wdata[1:0];
          ppu_hw_pkg::PPU_REG_CU_DBG_SEL:        r_cu_sel <= req_wdata[15:0];
          ppu_hw_pkg::PPU_REG_CHAN_SEL:
            r_chan_sel <= req_wdata[ppu_hw_pkg::PPU_CHAN_SEL_CHID__MSB:ppu_hw_pkg::PPU_CHAN_SEL_CHID__LSB];
          ppu_hw_pkg::PPU_REG_SCHED_CTRL: r_runlist <= req_wdata[ppu_hw_pkg::PPU_SCHED_CTRL_RUNLIST__LSB];
          ppu_hw_pkg::PPU_REG_RUNLIST_LO:        rl_lo <= {req_wdata[31:3], 3'd0};
          ppu_hw_pkg::PPU_REG_RUNLIST_HI:        rl_hi <= req_wdata & ((32'd1 << ppu_hw_pkg::PPU_ADDR_HI_SYS__LSB) | 32'd3);
          ppu_hw_pkg::PPU_REG_RUNLIST_SUBMIT: begin
            rl_submit <= 1'b1;
            rl_count  <= req_wdata[ppu_hw_pkg::PPU_RUNLIST_SUBMIT_COUNT__MSB:ppu_hw_pkg::PPU_RUNLIST_SUBMIT_COUNT__LSB];
          end
          ppu_hw_pkg::PPU_REG_MMU_CTRL:          mmu_invalidate <= req_wdata[ppu_hw_pkg::PPU_MMU_CTRL_INVALIDATE__LSB];
          ppu_hw_pkg::PPU_REG_ENGINE_CTRL: begin
            copy_reset  <= req_wdata[ppu_hw_pkg::PPU_ENGINE_CTRL_COPY_RESET__LSB];
            // a reset brings the engine back: it also ends a halt
            r_copy_halt <= req_wdata[ppu_hw_pkg::PPU_ENGINE_CTRL_COPY_HALT__LSB] &&
                           !req_wdata[ppu_hw_pkg::PPU_ENGINE_CTRL_COPY_RESET__LSB];
            compute_reset  <= req_wdata[ppu_hw_pkg::PPU_ENGINE_CTRL_COMPUTE_RESET__LSB];
            r_compute_halt <= req_wdata[ppu_hw_pkg::PPU_ENGINE_CTRL_COMPUTE_HALT__LSB] &&
                              !req_wdata[ppu_hw_pkg::PPU_ENGINE_CTRL_COMPUTE_RESET__LSB];
          end
          default: ;
        endcase
      end
    end
  end

endmodule
