// SPDX-License-Identifier: MIT
// PPU top level: register block, host interface + scheduler, semaphore
// unit, copy engine, compute engine (task table and compute units), MMU, and
// the memory arbiter that puts every agent on one memory port.  See
// docs/hw-architecture.md.
module ppu_top #(
    parameter int unsigned NUM_CHANNELS = 16,
    parameter int unsigned COPY_CHUNK_BYTES = 4096,
    // Copy reads in flight: one beat per cycle needs latency + 3 of them,
    // so 256 covers system memory up to 253 cycles away (a PCIe round trip
    // at the PPU's clock); each is one FIFO beat (2 KiB of buffer in all).
    parameter int unsigned COPY_MAX_READS = 256,
    parameter int unsigned TLB_ENTRIES = 16,
    parameter int unsigned PB_PREFETCH_BEATS = 16,
    // Channels whose host state is on chip at a time (docs/channels-at-scale.md);
    // 0 or NUM_CHANNELS and above: every channel (no save areas are used)
    parameter int unsigned CHAN_CACHE = 0,
    // The host decides over sets in RAM by runlist position instead of a
    // vector per channel state (docs/channels-at-scale.md)
    parameter int unsigned SCHED_SETS = 1,
    // compute engine; NUM_CU = 0 builds a PPU without one
    parameter int unsigned NUM_CU = 4,
    parameter int unsigned CU_CONTEXTS = 8,
    parameter int unsigned TASK_SLOTS = 8,
    parameter int unsigned NUM_TASKS = 64,
    parameter int unsigned ICACHE_BYTES = 1024,
    // Clock gates of the compute engine, the host state machine and the MMU
    // (ppu_clk_gate): 0 passes the clock through everywhere
    parameter bit          CLOCK_GATE = 1'b1
) (
    input  logic         clk,
    input  logic         rst_n,
    // Strap: size of the local-memory aperture in MiB (0 = none), reported in
    // CAP_LOCAL_MEM_MIB.  Tied off by the board (or set by the harness) and
    // static: it must not change after rst_n is released.
    input  logic [15:0]  local_mem_mib,
    // register bus
    input  logic         reg_req_valid,
    output logic         reg_req_ready,
    input  logic         reg_req_write,
    input  logic [31:0]  reg_req_addr,   // BAR0 byte offset
    input  logic [31:0]  reg_req_wdata,
    output logic         reg_rsp_valid,
    output logic [31:0]  reg_rsp_rdata,
    output logic         irq,
    output logic         idle,          // nothing to do until a register write
    // memory read channel
    output logic         mem_rd_valid,
    input  logic         mem_rd_ready,
    output logic         mem_rd_sys,
    output logic [33:0]  mem_rd_addr,
    output logic [2:0]   mem_rd_tag,
    input  logic         mem_rd_rsp_valid,
    input  logic [63:0]  mem_rd_rsp_data,
    input  logic         mem_rd_rsp_err,
    input  logic [2:0]   mem_rd_rsp_tag,
    // memory write channel
    output logic         mem_wr_valid,
    input  logic         mem_wr_ready,
    output logic         mem_wr_sys,
    output logic [33:0]  mem_wr_addr,
    output logic [2:0]   mem_wr_tag,
    output logic [63:0]  mem_wr_data,
    output logic [7:0]   mem_wr_strb,
    input  logic         mem_wr_rsp_valid,
    input  logic         mem_wr_rsp_err,
    input  logic [2:0]   mem_wr_rsp_tag,
    // event trace: port 0 host, 1 copy, 2 semaphore, 3 faults, 4 compute
    output logic [4:0]   trace_valid,
    output logic [39:0]  trace_kind,
    output logic [5*ppu_types_pkg::CHID_W-1:0] trace_chid,
    output logic [159:0] trace_a,
    output logic [159:0] trace_b
);

  // Threads of one CTA: at most one per context until CTAs run in waves.
  localparam int unsigned MAX_CTA_THREADS = ppu_hw_pkg::PPU_MAX_CTA_THREADS;   // waves beyond CU_CONTEXTS
  localparam bit HAS_CU = NUM_CU > 0;
  localparam int unsigned CACHE_SLOTS =
      (CHAN_CACHE == 0 || CHAN_CACHE >= NUM_CHANNELS) ? NUM_CHANNELS : CHAN_CACHE;

  // ---- register block ----
  logic [63:0] cycle;
  logic        doorbell, unbind, mmu_invalidate;
  logic        doorbell_put_valid;
  logic [31:0] doorbell_put;
  logic        copy_reset, copy_halt, copy_resetting;
  logic        compute_reset, compute_halt, compute_resetting;
  logic [ppu_types_pkg::CHID_W-1:0] doorbell_chid, unbind_chid, stat_chid;
  logic [4:0]  stat_off;
  logic        stat_rd;
  logic [31:0] stat_data, cfg_timeslice, cfg_acq_retry, cfg_acq_timeout, cfg_release_hold;
  logic        cfg_runlist;
  logic        rl_submit, rl_pending, rl_error;
  logic [15:0] rl_count, rl_active;
  ppu_types_pkg::paddr_t rl_base;
  ppu_types_pkg::paddr_t      chan_table;
  logic [NUM_CHANNELS-1:0] fault_set, nonstall_set;
  logic [ppu_hw_pkg::PPU_PERF_COUNT*3-1:0] perf_inc;
  logic        perf_copy_done;
  logic [31:0] perf_copy_len;

  logic [4:0]  ev_log2;
  ppu_types_pkg::paddr_t ev_base;
  logic        ev_restart, ev_error, ev_idle, ev_fault;
  logic [31:0] ev_get, ev_put;

  logic [7:0]  task_dbg_sel;
  logic [1:0]  task_ctrl;
  logic [15:0] cu_dbg_sel;
  logic [31:0] task_dbg0, task_dbg1, task_dbg_next_cta, task_dbg_exited, task_dbg_tmd_va;
  logic [31:0] cu_dbg0, cu_dbg_pc, cu_dbg_cta_id;

  ppu_regs #(
      .NUM_CHANNELS(NUM_CHANNELS), .COPY_CHUNK_BYTES(COPY_CHUNK_BYTES),
      .COPY_MAX_READS(COPY_MAX_READS), .TLB_ENTRIES(TLB_ENTRIES),
      .PB_PREFETCH_BEATS(PB_PREFETCH_BEATS), .CHAN_CACHE(CACHE_SLOTS),
      .NUM_CU(NUM_CU), .CU_CONTEXTS(CU_CONTEXTS), .TASK_SLOTS(TASK_SLOTS),
      .NUM_TASKS(NUM_TASKS), .MAX_CTA_THREADS(MAX_CTA_THREADS), .ICACHE_BYTES(ICACHE_BYTES)
  ) u_regs (
      .clk, .rst_n, .local_mem_mib,
      .req_valid(reg_req_valid), .req_ready(reg_req_ready), .req_write(reg_req_write),
      .req_addr(reg_req_addr), .req_wdata(reg_req_wdata),
      .rsp_valid(reg_rsp_valid), .rsp_rdata(reg_rsp_rdata), .irq,
      .cycle, .doorbell, .doorbell_chid, .doorbell_put_valid, .doorbell_put, .unbind, .unbind_chid, .chan_table,
      .cfg_timeslice, .cfg_acq_retry, .cfg_acq_timeout, .cfg_release_hold, .mmu_invalidate,
      .cfg_runlist, .rl_submit, .rl_base, .rl_count, .rl_pending, .rl_error, .rl_active,
      .mmu_inv_pending, .copy_reset, .copy_halt, .copy_resetting,
      .compute_reset, .compute_halt, .compute_resetting,
      .stat_rd, .stat_chid, .stat_off, .stat_data,
      .fault_set, .nonstall_set(nonstall_set | comp_nonstall), .perf_inc,
      .ev_log2, .ev_base, .ev_restart, .ev_get, .ev_put, .ev_error, .ev_fault,
      .perf_add_valid(perf_copy_done), .perf_add(perf_copy_len),
      .task_dbg_sel, .task_ctrl, .task_dbg0, .task_dbg1, .task_dbg_next_cta, .task_dbg_exited,
      .task_dbg_tmd_va, .cu_dbg_sel, .cu_dbg0, .cu_dbg_pc, .cu_dbg_cta_id
  );

  // ---- MMU clients: 0 host fetch, 1 semaphore, 2 copy source, 3 copy
  // destination, then the compute units and the task table ----
  localparam int unsigned NXC = HAS_CU ? NUM_CU + 1 : 0;
  localparam int unsigned NX = 4 + NXC;
  logic [NX-1:0] x_req_valid, x_req_ready, x_rsp_valid;
  logic [NX*ppu_types_pkg::XLATE_REQ_W-1:0] x_req;
  ppu_types_pkg::xlate_rsp_t x_rsp;

  // ---- memory read clients: 0 host phys, 1 host fetch, 2 semaphore, 3 copy,
  // 4 MMU, 5 compute ----
  localparam int unsigned NRD = 6;
  logic [NRD-1:0] rd_valid, rd_ready, rd_rsp_valid;
  logic [NRD*ppu_types_pkg::PADDR_W-1:0] rd_pa;
  ppu_types_pkg::mem_rd_rsp_t rd_rsp;
  // ---- memory write clients: 0 host, 1 semaphore, 2 copy, 3 compute,
  // 4 event ring ----
  localparam int unsigned NWR = 5;
  logic [NWR-1:0] wr_valid, wr_ready, wr_rsp_valid;
  logic [NWR*ppu_types_pkg::MEM_WR_REQ_W-1:0] wr_req;
  logic wr_rsp_err;

  // ---- semaphore unit ports: 0 host, 1 copy, 2 task completions, 3 CU
  // atomics ----
  localparam int unsigned NSEM = 4;
  logic [NSEM-1:0] sem_valid, sem_ready, sem_rsp_valid;
  logic [NSEM*ppu_types_pkg::SEM_REQ_W-1:0] sem_req;
  ppu_types_pkg::sem_rsp_t sem_rsp;
  logic sem_written;
  // RMW lock (semaphore unit -> arbiter) and the accepted-write snoop
  logic                  sem_lock_valid, sem_lock_clear;
  ppu_types_pkg::paddr_t sem_lock_pa;
  logic                  mem_wr_fire;       // a write beat accepted by the port
  ppu_types_pkg::paddr_t mem_wr_pa;

  // ---- arbiter side of the external memory port ----
  ppu_types_pkg::paddr_t      m_rd_pa;
  ppu_types_pkg::mem_rd_rsp_t m_rd_rsp;
  ppu_types_pkg::mem_wr_req_t m_wr_req;
  logic        m_rd_valid, m_wr_valid;

  // ---- copy engine ----
  logic       copy_valid, copy_ready, copy_done_valid, copy_busy;
  ppu_types_pkg::copy_cmd_t  copy_cmd;
  ppu_types_pkg::copy_done_t copy_done;
  logic [ppu_types_pkg::CHID_W-1:0] copy_done_chid;

  ppu_types_pkg::trace_t tr_host, tr_copy, tr_sem, tr_fault, tr_comp;

  // ---- compute engine ----
  logic                         cl_valid, cl_ready, cl_rsp_valid, can_accept;
  ppu_types_pkg::task_launch_t  cl_req;
  ppu_types_pkg::task_status_e  cl_rsp_status;
  logic [NUM_CHANNELS-1:0]      chan_kill, chan_live, chan_clear, comp_nonstall;
  logic [NUM_CHANNELS*8-1:0]    chan_tasks;
  logic                         drain_valid;
  logic [$clog2(NUM_CHANNELS)-1:0] drain_ch;
  logic                         xf_valid, xf_ready;
  ppu_types_pkg::cu_fault_t     xf;
  logic                         perf_launch, perf_dispatch, perf_complete;
  logic [2:0]                   perf_retire, perf_issue, perf_icache_miss, perf_ctxsw, perf_wave;
  logic                         perf_preempt, perf_resume, perf_evict;
  logic                         perf_dlaunch, perf_ddepth, perf_derr, perf_wsave;
  logic perf_doorbell, perf_gp_entry, perf_method, perf_switch;
  logic perf_acq_ok, perf_acq_fail, perf_release, perf_reduction, perf_amo, perf_beat, tlb_miss;

  // Struct-typed element views, packed into flat vectors for the ports.
`ifdef VERILATOR
  initial begin
    assert ($bits(ppu_types_pkg::paddr_t) == ppu_types_pkg::PADDR_W && $bits(ppu_types_pkg::xlate_req_t) == ppu_types_pkg::XLATE_REQ_W &&
            $bits(ppu_types_pkg::mem_wr_req_t) == ppu_types_pkg::MEM_WR_REQ_W && $bits(ppu_types_pkg::sem_req_t) == ppu_types_pkg::SEM_REQ_W)
    else $fatal(1, "ppu_types_pkg widths disagree with the struct definitions");
  end
`endif
  ppu_types_pkg::xlate_req_t  x_req_host, x_req_sem, x_req_src, x_req_dst;
  ppu_types_pkg::paddr_t      rd_pa_phys, rd_pa_fetch, rd_pa_sem, rd_pa_copy, rd_pa_mmu, rd_pa_comp;
  ppu_types_pkg::mem_wr_req_t wr_req_host, wr_req_sem, wr_req_copy, wr_req_comp, wr_req_ev;
  ppu_types_pkg::sem_req_t    sem_req_host, sem_req_copy, sem_req_tasks, sem_req_cu;
  logic [(NXC > 0 ? NXC : 1)*ppu_types_pkg::XLATE_REQ_W-1:0] x_req_comp;
  if (HAS_CU) begin : g_xreq_comp
    assign x_req = {x_req_comp, x_req_dst, x_req_src, x_req_sem, x_req_host};
  end else begin : g_xreq_nocomp
    assign x_req = {x_req_dst, x_req_src, x_req_sem, x_req_host};
  end
  assign rd_pa  = {rd_pa_comp, rd_pa_mmu, rd_pa_copy, rd_pa_sem, rd_pa_fetch, rd_pa_phys};
  assign wr_req = {wr_req_ev, wr_req_comp, wr_req_copy, wr_req_sem, wr_req_host};
  assign sem_req = {sem_req_cu, sem_req_tasks, sem_req_copy, sem_req_host};

  logic host_idle;
  logic fetch_inv_hold, sem_inv_hold, copy_inv_hold_src, copy_inv_hold_dst, comp_inv_hold;
  logic mmu_inv_pending;

  ppu_host #(
      .NUM_CHANNELS(NUM_CHANNELS), .PB_PREFETCH_BEATS(PB_PREFETCH_BEATS), .COMPUTE(HAS_CU),
      .CACHE_SLOTS(CACHE_SLOTS), .SCHED_SETS(SCHED_SETS != 0), .CLOCK_GATE(CLOCK_GATE)
  ) u_host (
      .clk, .rst_n, .now(cycle[31:0]),
      .doorbell, .doorbell_chid, .doorbell_put_valid, .doorbell_put,
      .unbind, .unbind_chid, .chan_table,
      .cfg_timeslice, .cfg_acq_retry, .cfg_acq_timeout, .cfg_release_hold,
      .cfg_runlist, .rl_submit, .rl_base, .rl_count, .rl_pending, .rl_error, .rl_active,
      .stat_rd, .stat_chid, .stat_off, .stat_data,
      .fault_set, .nonstall_set,
      .perf_doorbell, .perf_gp_entry, .perf_method, .perf_switch,
      .perf_copy_done, .perf_copy_len,
      .x_req_valid(x_req_valid[0]), .x_req_ready(x_req_ready[0]), .x_req(x_req_host),
      .x_rsp_valid(x_rsp_valid[0]), .x_rsp,
      .prd_valid(rd_valid[0]), .prd_ready(rd_ready[0]), .prd_pa(rd_pa_phys),
      .prd_rsp_valid(rd_rsp_valid[0]), .prd_rsp(rd_rsp),
      .frd_valid(rd_valid[1]), .frd_ready(rd_ready[1]), .frd_pa(rd_pa_fetch),
      .frd_rsp_valid(rd_rsp_valid[1]), .frd_rsp(rd_rsp),
      .wr_valid(wr_valid[0]), .wr_ready(wr_ready[0]), .wr_req(wr_req_host),
      .wr_rsp_valid(wr_rsp_valid[0]), .wr_rsp_err,
      .sem_valid(sem_valid[0]), .sem_ready(sem_ready[0]), .sem_req(sem_req_host),
      .sem_rsp_valid(sem_rsp_valid[0]), .sem_rsp, .sem_written,
      .copy_valid, .copy_ready, .copy_cmd,
      .copy_done_valid, .copy_done_chid, .copy_done,
      .cl_valid, .cl_ready, .cl_req, .cl_rsp_valid, .cl_rsp_status, .can_accept,
      .chan_kill, .chan_live, .chan_clear, .chan_tasks, .drain_valid, .drain_ch,
      .xf_valid, .xf_ready, .xf,
      .trace(tr_host), .trace_fault(tr_fault), .idle(host_idle),
      .mmu_invalidate, .fetch_inv_hold
  );

  // Idle: the host has nothing to do and no task is alive (a channel's
  // tasks keep their ids until they complete or are dropped).
  assign idle = host_idle && !(|chan_live) && !xf_valid && !(|comp_nonstall) && ev_idle;

  // debug window views (Yosys 0.23: struct-typed signals at module scope)
  ppu_types_pkg::task_dbg_t td;
  logic [3:0]  cst;
  logic [31:0] cthread;
  logic [ppu_types_pkg::CU_TSLOT_W-1:0] ctslot;
  wire unused_thread = &{1'b0, cthread[31:11]};

  if (HAS_CU) begin : g_compute

    ppu_compute #(
        .NUM_CU(NUM_CU), .CU_CONTEXTS(CU_CONTEXTS), .TASK_SLOTS(TASK_SLOTS),
        .NUM_TASKS(NUM_TASKS), .ICACHE_BYTES(ICACHE_BYTES), .NC(NUM_CHANNELS),
        .CLOCK_GATE(CLOCK_GATE)
    ) u_compute (
        .clk, .rst_n, .timestamp(cycle), .mmu_invalidate, .inv_hold(comp_inv_hold),
        .reset_req(compute_reset), .halt(compute_halt), .resetting(compute_resetting),
        .cl_valid, .cl_ready, .cl_req, .cl_rsp_valid, .cl_rsp_status, .can_accept,
        .chan_kill, .chan_live, .chan_clear, .chan_tasks, .drain_valid, .drain_ch,
        .nonstall(comp_nonstall),
        .xf_valid, .xf_ready, .xf,
        .x_req_valid(x_req_valid[NX-1:4]), .x_req_ready(x_req_ready[NX-1:4]), .x_req(x_req_comp),
        .x_rsp_valid(x_rsp_valid[NX-1:4]), .x_rsp,
        .rd_valid(rd_valid[5]), .rd_ready(rd_ready[5]), .rd_pa(rd_pa_comp),
        .rd_rsp_valid(rd_rsp_valid[5]), .rd_rsp,
        .wr_valid(wr_valid[3]), .wr_ready(wr_ready[3]), .wr_req(wr_req_comp),
        .wr_rsp_valid(wr_rsp_valid[3]), .wr_rsp_err,
        .tsem_valid(sem_valid[2]), .tsem_ready(sem_ready[2]), .tsem_req(sem_req_tasks),
        .tsem_rsp_valid(sem_rsp_valid[2]),
        .asem_valid(sem_valid[3]), .asem_ready(sem_ready[3]), .asem_req(sem_req_cu),
        .asem_rsp_valid(sem_rsp_valid[3]), .sem_rsp,
        .trace(tr_comp), .perf_launch, .perf_dispatch, .perf_complete,
        .perf_retire, .perf_issue, .perf_icache_miss, .perf_preempt, .perf_resume, .perf_evict, .perf_ctxsw, .perf_wave,
        .perf_dlaunch, .perf_ddepth, .perf_derr, .perf_wsave,
        .dbg_tid(task_dbg_sel), .task_ctrl, .dbg_task(td),
        .dbg_cu(cu_dbg_sel[15:8]), .dbg_ctx(cu_dbg_sel[7:0]),
        .dbg_state(cst), .dbg_pc(cu_dbg_pc), .dbg_thread(cthread), .dbg_tslot(ctslot),
        .dbg_cta_id(cu_dbg_cta_id)
    );

    always_comb begin
      task_dbg0 = '0;
      task_dbg0[ppu_hw_pkg::PPU_TASK_DBG0_STATE__MSB:ppu_hw_pkg::PPU_TASK_DBG0_STATE__LSB] = td.state;
      task_dbg0[ppu_hw_pkg::PPU_TASK_DBG0_SLOT_VALID__LSB] = td.slot_valid;
      task_dbg0[ppu_hw_pkg::PPU_TASK_DBG0_TSLOT__MSB:ppu_hw_pkg::PPU_TASK_DBG0_TSLOT__LSB] = 4'(td.tslot);
      task_dbg0[ppu_hw_pkg::PPU_TASK_DBG0_CHID__MSB:ppu_hw_pkg::PPU_TASK_DBG0_CHID__LSB] = td.chid;
      task_dbg0[ppu_hw_pkg::PPU_TASK_DBG0_DEPTH__MSB:ppu_hw_pkg::PPU_TASK_DBG0_DEPTH__LSB] = td.depth;
      task_dbg1 = '0;
      task_dbg1[ppu_hw_pkg::PPU_TASK_DBG1_PARENT__MSB:ppu_hw_pkg::PPU_TASK_DBG1_PARENT__LSB] = td.parent;
      task_dbg1[ppu_hw_pkg::PPU_TASK_DBG1_PARENT_J__MSB:ppu_hw_pkg::PPU_TASK_DBG1_PARENT_J__LSB] = td.parent_j;
      task_dbg1[ppu_hw_pkg::PPU_TASK_DBG1_HAS_PARENT__LSB] = td.has_parent;
      task_dbg1[ppu_hw_pkg::PPU_TASK_DBG1_CHILDREN__MSB:ppu_hw_pkg::PPU_TASK_DBG1_CHILDREN__LSB] = td.children;
      task_dbg1[ppu_hw_pkg::PPU_TASK_DBG1_PRIO__MSB:ppu_hw_pkg::PPU_TASK_DBG1_PRIO__LSB] = td.prio;
      task_dbg_next_cta = td.next_cta;
      task_dbg_exited   = td.exited;
      task_dbg_tmd_va   = td.tmd_va;
      cu_dbg0 = '0;
      cu_dbg0[ppu_hw_pkg::PPU_CU_DBG0_STATE__MSB:ppu_hw_pkg::PPU_CU_DBG0_STATE__LSB] = cst;
      cu_dbg0[ppu_hw_pkg::PPU_CU_DBG0_TSLOT__MSB:ppu_hw_pkg::PPU_CU_DBG0_TSLOT__LSB] = 4'(ctslot);
      cu_dbg0[ppu_hw_pkg::PPU_CU_DBG0_THREAD__MSB:ppu_hw_pkg::PPU_CU_DBG0_THREAD__LSB] = cthread[10:0];
    end
  end else begin : g_no_compute
    wire unused_nc = &{1'b0, task_dbg_sel, task_ctrl, cu_dbg_sel, x_req_comp, td, cst, cthread, ctslot,
                        compute_reset, compute_halt};
    assign td = '0;
    assign {cst, cthread, ctslot} = '0;
    assign cl_ready = 1'b0;
    assign cl_rsp_valid = 1'b0;
    assign cl_rsp_status = ppu_types_pkg::TASK_LAUNCH_FAULTED;
    assign can_accept = 1'b0;
    assign chan_live = '0;
    assign chan_clear = '1;
    assign drain_valid = 1'b0;
    assign drain_ch = '0;
    /* verilator lint_off WIDTHCONCAT */  // (4096 channels: 32 kbit)
    assign chan_tasks = '0;
    /* verilator lint_on WIDTHCONCAT */
    assign comp_nonstall = '0;
    assign comp_inv_hold = 1'b0;
    assign compute_resetting = 1'b0;
    assign xf_valid = 1'b0;
    assign xf = '0;
    assign x_req_comp = '0;
    assign rd_valid[5] = 1'b0;
    assign rd_pa_comp = '0;
    assign wr_valid[3] = 1'b0;
    assign wr_req_comp = '0;
    assign sem_valid[3:2] = 2'b00;
    assign sem_req_tasks = '0;
    assign sem_req_cu = '0;
    assign tr_comp = '0;
    assign {perf_launch, perf_dispatch, perf_complete} = 3'b000;
    assign {perf_retire, perf_issue, perf_icache_miss, perf_ctxsw, perf_wave} = '0;
    assign {perf_preempt, perf_resume, perf_evict} = 3'b000;
    assign {perf_dlaunch, perf_ddepth, perf_derr, perf_wsave} = 4'b0000;
    assign {task_dbg0, task_dbg1, task_dbg_next_cta, task_dbg_exited, task_dbg_tmd_va} = '0;
    assign {cu_dbg0, cu_dbg_pc, cu_dbg_cta_id} = '0;
  end

  ppu_sem #(.NPORT(NSEM), .CLOCK_GATE(CLOCK_GATE)) u_sem (
      .clk, .rst_n, .timestamp(cycle),
      .req_valid(sem_valid), .req_ready(sem_ready), .req(sem_req),
      .rsp_valid(sem_rsp_valid), .rsp(sem_rsp),
      .x_req_valid(x_req_valid[1]), .x_req_ready(x_req_ready[1]), .x_req(x_req_sem),
      .x_rsp_valid(x_rsp_valid[1]), .x_rsp,
      .rd_valid(rd_valid[2]), .rd_ready(rd_ready[2]), .rd_pa(rd_pa_sem),
      .rd_rsp_valid(rd_rsp_valid[2]), .rd_rsp,
      .wr_valid(wr_valid[1]), .wr_ready(wr_ready[1]), .wr_req(wr_req_sem),
      .wr_rsp_valid(wr_rsp_valid[1]), .wr_rsp_err,
      .lock_valid(sem_lock_valid), .lock_pa(sem_lock_pa), .lock_clear(sem_lock_clear),
      .snoop_valid(mem_wr_fire), .snoop_pa(mem_wr_pa),
      .sem_written, .trace(tr_sem),
      .perf_acq_ok, .perf_acq_fail, .perf_release, .perf_reduction, .perf_amo,
      .invalidate(mmu_invalidate), .inv_hold(sem_inv_hold)
  );

  ppu_copy #(
      .CHUNK_BYTES(COPY_CHUNK_BYTES), .MAX_READS(COPY_MAX_READS)
  ) u_copy (
      .clk, .rst_n,
      .cmd_valid(copy_valid), .cmd_ready(copy_ready), .cmd(copy_cmd),
      .done_valid(copy_done_valid), .done_chid(copy_done_chid), .done(copy_done),
      .busy(copy_busy),
      .xs_req_valid(x_req_valid[2]), .xs_req_ready(x_req_ready[2]), .xs_req(x_req_src),
      .xs_rsp_valid(x_rsp_valid[2]), .xs_rsp(x_rsp),
      .xd_req_valid(x_req_valid[3]), .xd_req_ready(x_req_ready[3]), .xd_req(x_req_dst),
      .xd_rsp_valid(x_rsp_valid[3]), .xd_rsp(x_rsp),
      .rd_valid(rd_valid[3]), .rd_ready(rd_ready[3]), .rd_pa(rd_pa_copy),
      .rd_rsp_valid(rd_rsp_valid[3]), .rd_rsp,
      .wr_valid(wr_valid[2]), .wr_ready(wr_ready[2]), .wr_req(wr_req_copy),
      .wr_rsp_valid(wr_rsp_valid[2]), .wr_rsp_err,
      .sem_valid(sem_valid[1]), .sem_ready(sem_ready[1]), .sem_req(sem_req_copy),
      .sem_rsp_valid(sem_rsp_valid[1]), .sem_rsp,
      .trace(tr_copy), .perf_beat,
      .invalidate(mmu_invalidate), .inv_hold_src(copy_inv_hold_src), .inv_hold_dst(copy_inv_hold_dst),
      .drop_req(copy_reset), .halt(copy_halt), .dropping(copy_resetting)
  );

  // ---- event ring: faults and non-stall interrupts as records in memory ----
  ppu_evring #(.NUM_CHANNELS(NUM_CHANNELS)) u_evring (
      .clk, .rst_n, .log2(ev_log2), .base(ev_base), .restart(ev_restart), .get(ev_get),
      .put(ev_put), .error(ev_error), .fault_unread(ev_fault), .idle(ev_idle), .cycle(cycle[31:0]), .unbind, .unbind_chid,
      .fault_set, .nonstall_set(nonstall_set | comp_nonstall),
      .wr_valid(wr_valid[4]), .wr_ready(wr_ready[4]), .wr_req(wr_req_ev),
      .wr_rsp_valid(wr_rsp_valid[4]), .wr_rsp_err
  );

  // ---- invalidate handshake (MMU_STATUS.INV_PENDING) ----
  // holds: 0 fetch, 1 semaphore unit, 2 copy source, 3 copy destination,
  // 4 compute (which counts its own accesses).  Counted ports: reads of
  // the fetch, the semaphore unit and the copy engine; writes of the
  // semaphore unit and the copy engine (the host's physical accesses and
  // the page walks translate nothing).
  ppu_inv_drain #(
      .NRD(NRD), .NWR(NWR), .NHOLD(5),
      .RD_COUNT(6'b001110), .WR_COUNT(5'b00110),
      .RD_HOLD({8'hff, 8'hff, 8'd2, 8'd1, 8'd0, 8'hff}),
      .WR_HOLD({8'hff, 8'hff, 8'd3, 8'd1, 8'hff})
  ) u_inv_drain (
      .clk, .rst_n, .invalidate(mmu_invalidate),
      .hold({comp_inv_hold, copy_inv_hold_dst, copy_inv_hold_src, sem_inv_hold, fetch_inv_hold}),
      .rd_valid, .rd_ready, .rd_rsp_valid, .wr_valid, .wr_ready, .wr_rsp_valid,
      .pending(mmu_inv_pending)
  );

  ppu_mmu #(.TLB_ENTRIES(TLB_ENTRIES), .NCLIENT(NX), .CLOCK_GATE(CLOCK_GATE)) u_mmu (
      .clk, .rst_n, .invalidate(mmu_invalidate),
      .req_valid(x_req_valid), .req_ready(x_req_ready), .req(x_req),
      .rsp_valid(x_rsp_valid), .rsp(x_rsp),
      .mem_rd_valid(rd_valid[4]), .mem_rd_ready(rd_ready[4]), .mem_rd_pa(rd_pa_mmu),
      .mem_rd_rsp_valid(rd_rsp_valid[4]), .mem_rd_rsp(rd_rsp),
      .tlb_miss
  );

  // ---- memory arbiter and the external port ----
  // Responses are registered where they enter: nothing inside depends
  // combinationally on them, so a response costs its holder one cycle of
  // latency and the logic that routes it runs once per clock edge (a
  // simulator settles combinational inputs at every evaluation).  The RTL
  // harness hands each response over one cycle before it is due, so the
  // cycles its tests measure include no extra one.
  logic        rsp_rd_valid_q, rsp_rd_err_q, rsp_wr_valid_q, rsp_wr_err_q;
  logic [63:0] rsp_rd_data_q;
  logic [2:0]  rsp_rd_tag_q, rsp_wr_tag_q;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      rsp_rd_valid_q <= 1'b0;
      rsp_wr_valid_q <= 1'b0;
    end else begin
      rsp_rd_valid_q <= mem_rd_rsp_valid;
      rsp_wr_valid_q <= mem_wr_rsp_valid;
    end
    rsp_rd_data_q <= mem_rd_rsp_data;
    rsp_rd_err_q  <= mem_rd_rsp_err;
    rsp_rd_tag_q  <= mem_rd_rsp_tag;
    rsp_wr_err_q  <= mem_wr_rsp_err;
    rsp_wr_tag_q  <= mem_wr_rsp_tag;
  end
  always_comb begin
    m_rd_rsp.data = rsp_rd_data_q;
    m_rd_rsp.err  = rsp_rd_err_q;
  end

  // The semaphore unit is write client 1: its RMW lock holds back the
  // other clients' writes to the beat it is updating.
  ppu_mem_arb #(.NRD(NRD), .NWR(NWR), .LOCK_WR_CLIENT(1)) u_arb (
      .clk, .rst_n,
      .rd_valid, .rd_ready, .rd_pa, .rd_rsp_valid, .rd_rsp,
      .wr_valid, .wr_ready, .wr_req, .wr_rsp_valid, .wr_rsp_err,
      .lock_valid(sem_lock_valid), .lock_pa(sem_lock_pa), .lock_clear(sem_lock_clear),
      .m_rd_valid, .m_rd_ready(mem_rd_ready), .m_rd_pa, .m_rd_tag(mem_rd_tag),
      .m_rd_rsp_valid(rsp_rd_valid_q), .m_rd_rsp, .m_rd_rsp_tag(rsp_rd_tag_q),
      .m_wr_valid, .m_wr_ready(mem_wr_ready), .m_wr_req, .m_wr_tag(mem_wr_tag),
      .m_wr_rsp_valid(rsp_wr_valid_q), .m_wr_rsp_err(rsp_wr_err_q),
      .m_wr_rsp_tag(rsp_wr_tag_q)
  );
  assign mem_rd_valid = m_rd_valid;
  assign mem_rd_sys   = m_rd_pa.sys;
  assign mem_rd_addr  = m_rd_pa.addr;
  assign mem_wr_valid = m_wr_valid;
  assign mem_wr_fire  = m_wr_valid && mem_wr_ready;   // the write takes effect now
  assign mem_wr_pa    = m_wr_req.pa;
  assign mem_wr_sys   = m_wr_req.pa.sys;
  assign mem_wr_addr  = m_wr_req.pa.addr;
  assign mem_wr_data  = m_wr_req.data;
  assign mem_wr_strb  = m_wr_req.strb;

  // ---- performance counter events ----
  function automatic int unsigned pi(input int unsigned idx);
    pi = idx * 3;
  endfunction
  always_comb begin
    perf_inc = '0;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_DOORBELLS)]        = perf_doorbell;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_GP_ENTRIES)]       = perf_gp_entry;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_METHODS)]          = perf_method;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_SEM_ACQ_OK)]       = perf_acq_ok;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_SEM_ACQ_FAIL)]     = perf_acq_fail;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_SEM_RELEASES)]     = perf_release;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_SEM_REDUCTIONS)]   = perf_reduction;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_COPIES)]           = perf_copy_done;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_COPY_BUSY_CYCLES)] = copy_busy;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_COPY_BEATS)]       = perf_beat;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_CHAN_SWITCHES)]    = perf_switch;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_FAULTS)]           = |fault_set;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_MEM_RD_BEATS)]     = m_rd_valid && mem_rd_ready;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_MEM_WR_BEATS)]     = m_wr_valid && mem_wr_ready;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_TLB_MISSES)]       = tlb_miss;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_NONSTALL_INTRS)]   = |(nonstall_set | comp_nonstall);
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_COPY_BYTES)]       = 1'b0;   // added by length below
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_HOST_LAUNCHES)]    = perf_launch;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_TASKS_COMPLETED)]  = perf_complete;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_CTA_DISPATCHES)]   = perf_dispatch;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_CTA_RESUMES)]      = perf_resume;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_PREEMPTIONS)]      = perf_preempt;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_EVICTIONS)]        = perf_evict;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_DEV_LAUNCHES)]     = perf_dlaunch;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_DEV_LAUNCH_DEPTH_ERRORS)] = perf_ddepth;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_DEV_LAUNCH_ERRORS)] = perf_derr;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_WAIT_SAVES)]       = perf_wsave;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_CTXSW_CYCLES) +: 3]    = perf_ctxsw;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_WAVE_SWITCHES) +: 3]   = perf_wave;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_CU_INSTRET) +: 3]      = perf_retire;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_CU_ISSUE_CYCLES) +: 3] = perf_issue;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_ICACHE_MISSES) +: 3]   = perf_icache_miss;
    perf_inc[pi(ppu_hw_pkg::PPU_PERF_AMOS)]             = perf_amo;
  end

  // ---- trace ports ----
  assign trace_valid = {tr_comp.valid, tr_fault.valid, tr_sem.valid, tr_copy.valid, tr_host.valid};
  assign trace_kind  = {tr_comp.kind, tr_fault.kind, tr_sem.kind, tr_copy.kind, tr_host.kind};
  assign trace_chid  = {tr_comp.chid, tr_fault.chid, tr_sem.chid, tr_copy.chid, tr_host.chid};
  assign trace_a     = {tr_comp.a, tr_fault.a, tr_sem.a, tr_copy.a, tr_host.a};
  assign trace_b     = {tr_comp.b, tr_fault.b, tr_sem.b, tr_copy.b, tr_host.b};

  // (COPY_BYTES comes from completed copy lengths, which count partial
  // beats exactly; COPY_BEATS is the live progress of the copy under way.)
  wire unused_ok = &{1'b0, sem_rsp_valid[3:2], sem_ready[3:2], rd_ready[5],
                     rd_rsp_valid[5], wr_ready[3], wr_rsp_valid[3], cl_valid, cl_req,
                     chan_kill, xf_ready};

endmodule
