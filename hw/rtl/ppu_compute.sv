// SPDX-License-Identifier: MIT
// The compute engine (docs/compute-design.md §1): the priority task table,
// NUM_CU compute units, and what puts them on the PPU's shared ports.
//
//  * MMU: every unit and the task table are clients of their own
//    (NUM_CU + 1 ports, unit i at i, the task table last).
//  * Memory: the task table's reads and the units' reads (I-cache refills,
//    loads) share one read client, the units' writes one write client, and
//    the units' atomics one semaphore-unit port, each through ppu_ord_arb,
//    which routes the in-order responses back by a FIFO of grant indices.
//  * Faults: the task table's and the units' go to the host one at a time
//    (the task table first; faults are rare and each is final for its
//    channel, so no fairness is needed).
//  * CTA events: the units' EXITED/KILLED events go to the task table round
//    robin.
//  * Clock: the engine runs on a gated clock that stops while it is quiet:
//    no task id taken, no context allocated, nothing requested or in flight
//    on any port, no event, fault, trace record or counter pulse pending,
//    and nothing arriving (a launch, a changed channel kill, an MMU
//    invalidation).  Every output is then constant, so no handshake or
//    pulse is lost or repeated, and the frozen state resumes exactly.
//  * Engine reset (ENGINE_CTRL.COMPUTE_RESET): everything behind the
//    boundary (task table, units, arbiters) is held in reset while the
//    accesses already handed out are answered (their responses dropped),
//    then every channel that held tasks gets an ENGINE_RESET fault and the
//    engine starts empty.  The boundary keeps what it holds: a launch not
//    yet taken by the table is served after the reset; one taken and not
//    answered is answered FAULTED.  COMPUTE_HALT (debug) stops every
//    request at the boundary, as a wedged memory port would.
module ppu_compute #(
  parameter int unsigned NUM_CU       = 4,
  parameter int unsigned CU_CONTEXTS  = 8,
  parameter int unsigned TASK_SLOTS   = 8,
  parameter int unsigned NUM_TASKS    = 64,
  parameter int unsigned ICACHE_BYTES = 1024,
  parameter int unsigned NC           = 16,
  parameter bit          CLOCK_GATE   = 1'b1
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic [63:0]                   timestamp,
  input  logic                          mmu_invalidate,   // pulse: page tables changed
  output logic                          inv_hold,         // old translations in use (ppu_inv_drain)
  input  logic                          reset_req,        // pulse: ENGINE_CTRL.COMPUTE_RESET
  input  logic                          halt,             // ENGINE_CTRL.COMPUTE_HALT (debug)
  output logic                          resetting,        // from reset_req until the engine is empty
  // ---- host ----
  input  logic                          cl_valid,
  output logic                          cl_ready,
  input  ppu_types_pkg::task_launch_t   cl_req,
  output logic                          cl_rsp_valid,
  output ppu_types_pkg::task_status_e   cl_rsp_status,
  output logic                          can_accept,
  input  logic [NC-1:0]                 chan_kill,
  output logic [NC-1:0]                 chan_live,
  output logic [NC-1:0]                 chan_clear,
  output logic [NC*8-1:0]               chan_tasks,
  output logic                          drain_valid,   // pulse: the channel's last task id was freed
  output logic [$clog2(NC)-1:0]         drain_ch,
  output logic [NC-1:0]                 nonstall,
  output logic                          xf_valid,
  input  logic                          xf_ready,
  output ppu_types_pkg::cu_fault_t      xf,
  // ---- MMU clients: units 0..NUM_CU-1, then the task table ----
  output logic [NUM_CU:0]               x_req_valid,
  input  logic [NUM_CU:0]               x_req_ready,
  output logic [(NUM_CU+1)*ppu_types_pkg::XLATE_REQ_W-1:0] x_req,
  input  logic [NUM_CU:0]               x_rsp_valid,
  input  ppu_types_pkg::xlate_rsp_t     x_rsp,
  // ---- one memory read client, one write client ----
  output logic                          rd_valid,
  input  logic                          rd_ready,
  output ppu_types_pkg::paddr_t         rd_pa,
  input  logic                          rd_rsp_valid,
  input  ppu_types_pkg::mem_rd_rsp_t    rd_rsp,
  output logic                          wr_valid,
  input  logic                          wr_ready,
  output ppu_types_pkg::mem_wr_req_t    wr_req,
  input  logic                          wr_rsp_valid,
  input  logic                          wr_rsp_err,
  // ---- semaphore unit: task completions, and the units' atomics ----
  output logic                          tsem_valid,
  input  logic                          tsem_ready,
  output ppu_types_pkg::sem_req_t       tsem_req,
  input  logic                          tsem_rsp_valid,
  output logic                          asem_valid,
  input  logic                          asem_ready,
  output ppu_types_pkg::sem_req_t       asem_req,
  input  logic                          asem_rsp_valid,
  input  ppu_types_pkg::sem_rsp_t       sem_rsp,
  // ---- trace, performance, debug ----
  output ppu_types_pkg::trace_t         trace,
  output logic                          perf_launch,
  output logic                          perf_dispatch,
  output logic                          perf_complete,
  output logic [2:0]                    perf_retire,      // instructions retired this cycle
  output logic [2:0]                    perf_issue,       // units that issued this cycle
  output logic [2:0]                    perf_icache_miss,
  output logic                          perf_preempt,     // CTA preemption requested
  output logic                          perf_resume,      // preempted CTA resumed
  output logic                          perf_evict,       // task evicted
  output logic                          perf_dlaunch,     // device launch accepted
  output logic                          perf_ddepth,      // device launch past the depth limit
  output logic                          perf_derr,        // device launch failed otherwise
  output logic                          perf_wsave,       // CTA saved while waiting for children
  output logic [2:0]                    perf_ctxsw,       // units saving or restoring this cycle
  output logic [2:0]                    perf_wave,        // waves brought in this cycle
  input  logic [7:0]                    dbg_tid,
  input  logic [1:0]                    task_ctrl,        // TASK_CTRL {NO_EVICT, NO_PREEMPT}
  output ppu_types_pkg::task_dbg_t      dbg_task,
  input  logic [7:0]                    dbg_cu,
  input  logic [7:0]                    dbg_ctx,
  output logic [3:0]                    dbg_state,
  output logic [31:0]                   dbg_pc,
  output logic [31:0]                   dbg_thread,
  output logic [ppu_types_pkg::CU_TSLOT_W-1:0] dbg_tslot,
  output logic [31:0]                   dbg_cta_id
);

  localparam int unsigned FC_W  = $clog2(CU_CONTEXTS + 1);
  localparam int unsigned CU_W  = (NUM_CU > 1) ? $clog2(NUM_CU) : 1;
  localparam int unsigned CW    = $clog2(CU_CONTEXTS);
  localparam int unsigned XW    = ppu_types_pkg::XLATE_REQ_W;
  localparam int unsigned PW    = ppu_types_pkg::PADDR_W;
  localparam int unsigned WW    = ppu_types_pkg::MEM_WR_REQ_W;
  localparam int unsigned SW    = ppu_types_pkg::SEM_REQ_W;
  localparam int unsigned EV_W  = ppu_types_pkg::CU_EV_W;
  localparam int unsigned FL_W  = ppu_types_pkg::CU_FAULT_W;

`ifdef VERILATOR
  initial begin
    assert ($bits(ppu_types_pkg::cu_ev_t) == EV_W && $bits(ppu_types_pkg::cu_fault_t) == FL_W &&
            $bits(ppu_types_pkg::task_launch_t) == ppu_types_pkg::TASK_LAUNCH_W)
    else $fatal(1, "ppu_types_pkg widths disagree with the struct definitions");
  end
`endif

  if (NUM_CU < 1 || NUM_CU > 7) begin : g_bad_cu
    $error("ppu_compute: NUM_CU must be 1..7 (3-bit per-cycle perf sums)");
  end

  // ---- task table <-> units ----
  logic [NUM_CU*FC_W-1:0]      free_ctx;
  logic [NUM_CU-1:0]           disp_valid, disp_ready, kill_valid, kill_ready;
  ppu_types_pkg::cu_disp_t     disp;
  ppu_types_pkg::cu_kill_t     kill;
  logic                        ev_valid, ev_ready;
  ppu_types_pkg::cu_ev_t       ev;
  logic [CU_W-1:0]             ev_cu;
  logic                        icache_inv_tasks;

  // ---- per-unit ports, flat ----
  logic [NUM_CU-1:0]           u_ev_valid, u_ev_ready, u_flt_valid, u_flt_ready;
  logic [NUM_CU*EV_W-1:0]      u_ev;
  logic [NUM_CU*FL_W-1:0]      u_flt;
  logic [NUM_CU-1:0]           u_rd_valid, u_rd_ready, u_rd_rsp_valid;
  logic [NUM_CU*PW-1:0]        u_rd_pa;
  logic [NUM_CU-1:0]           u_wr_valid, u_wr_ready, u_wr_rsp_valid;
  logic [NUM_CU*WW-1:0]        u_wr_req;
  logic [NUM_CU-1:0]           u_sem_valid, u_sem_ready, u_sem_rsp_valid;
  logic [NUM_CU*SW-1:0]        u_sem_req;
  logic [NUM_CU-1:0]           u_issue, u_retire, u_imiss, u_ctxsw, u_wave;
  logic [NUM_CU*4-1:0]         u_dbg_state;
  logic [NUM_CU*32-1:0]        u_dbg_pc, u_dbg_tid, u_dbg_cta;
  logic [NUM_CU*ppu_types_pkg::CU_TSLOT_W-1:0] u_dbg_tslot;

  // task table's memory read, merged with the units' below
  localparam int unsigned DQ_W = ppu_types_pkg::CU_DREQ_W;
  logic [NUM_CU-1:0]           u_dreq_valid, u_dreq_ready;
  logic [NUM_CU*DQ_W-1:0]      u_dreq;
  logic                        t_dreq_valid, t_dreq_ready;
  ppu_types_pkg::cu_dreq_t     t_dreq;
  logic                        t_drsp_valid, t_kw_valid;
  ppu_types_pkg::cu_drsp_t     t_drsp;
  ppu_types_pkg::cu_wake_t     t_kw;

  logic                        t_rd_valid, t_rd_ready, t_rd_rsp_valid;
  ppu_types_pkg::paddr_t       t_rd_pa;
  logic                        t_xf_valid, t_xf_ready;
  ppu_types_pkg::cu_fault_t    t_xf;
  ppu_types_pkg::xlate_req_t   t_x_req;
  logic [7:0]                  rsp_tid_unused;        // the host does not need the id
  logic [NUM_CU*32-1:0]        dbg_rdata_unused;      // register reads: not on the debug window yet
  wire unused_ok = &{1'b0, rsp_tid_unused, dbg_rdata_unused};

  // ---- clock domain boundary (docs/hw-internals.md "Compute engine clock") ----
  // Everything inside runs on gclk and sees the always-running PPU only
  // through flops of its own: requests leave through skid buffers (their
  // ready is a flop), responses and levels are registered on the way in.
  // So no logic of the engine is evaluated because of the rest of the PPU,
  // and a quiet engine is really still.  The cost is one cycle on every
  // response and on each launch.
  logic            gclk, en, quiet;
  logic            tasks_idle, rd_idle, wr_idle, sem_idle;
  logic [NC-1:0]   kill_q;             // chan_kill as the engine sees it
  logic            inv_q;              // mmu_invalidate, one cycle later
  logic [63:0]     ts_q;               // = timestamp whenever gclk runs (see below)
  logic [7:0]      x_out;              // translations requested, not answered
  logic [7:0]      dbg_tid_q, dbg_cu_q, dbg_ctx_q;   // debug selections, registered
  logic [1:0]      task_ctrl_q;
  // inside views of the ports
  logic                        g_cl_valid, g_cl_ready;
  ppu_types_pkg::task_launch_t g_cl_req;
  logic                        g_xf_valid, g_xf_ready;
  ppu_types_pkg::cu_fault_t    g_xf;
  logic [NUM_CU:0]             g_x_req_valid, g_x_req_ready, g_x_rsp_valid;
  logic [(NUM_CU+1)*XW-1:0]    g_x_req;
  ppu_types_pkg::xlate_rsp_t   g_x_rsp;
  logic                        g_rd_valid, g_rd_ready, g_rd_rsp_valid;
  ppu_types_pkg::paddr_t       g_rd_pa;
  ppu_types_pkg::mem_rd_rsp_t  g_rd_rsp;
  logic                        g_wr_valid, g_wr_ready, g_wr_rsp_valid, g_wr_rsp_err;
  ppu_types_pkg::mem_wr_req_t  g_wr_req;
  logic                        g_tsem_valid, g_tsem_ready, g_tsem_rsp_valid;
  logic                        g_asem_valid, g_asem_ready, g_asem_rsp_valid;
  ppu_types_pkg::sem_req_t     g_tsem_req, g_asem_req;
  ppu_types_pkg::sem_rsp_t     g_sem_rsp;
  logic [NUM_CU+6:0]           sk_idle;
  logic                        t_inv_hold;
  logic [NUM_CU-1:0]           u_inv_hold;

  always_ff @(posedge gclk) begin
    if (!rst_n) begin
      inv_q            <= 1'b0;
      dbg_tid_q        <= '0;
      task_ctrl_q      <= '0;
      dbg_cu_q         <= '0;
      dbg_ctx_q        <= '0;
      x_out            <= '0;
      g_x_rsp_valid    <= '0;
      g_rd_rsp_valid   <= 1'b0;
      g_wr_rsp_valid   <= 1'b0;
      g_tsem_rsp_valid <= 1'b0;
      g_asem_rsp_valid <= 1'b0;
    end else begin
      logic [3:0] req_n, rsp_n;
      req_n = '0;
      rsp_n = '0;
      for (int i = 0; i <= NUM_CU; i++) begin
        req_n = req_n + 4'(x_req_valid[i] && x_req_ready[i]);
        rsp_n = rsp_n + 4'(x_rsp_valid[i]);
      end
      inv_q            <= mmu_invalidate;
      dbg_tid_q        <= dbg_tid;
      task_ctrl_q      <= task_ctrl;
      dbg_cu_q         <= dbg_cu;
      dbg_ctx_q        <= dbg_ctx;
      x_out            <= x_out + 8'(req_n) - 8'(rsp_n);
      g_x_rsp_valid    <= x_rsp_valid;
      g_rd_rsp_valid   <= rd_rsp_valid;
      g_wr_rsp_valid   <= wr_rsp_valid;
      g_tsem_rsp_valid <= tsem_rsp_valid;
      g_asem_rsp_valid <= asem_rsp_valid;
    end
    // Sampled on every gclk edge: the value timestamp has in the next
    // cycle.  Stale only in the first cycle after the clock restarts, when
    // no context can be running (the engine was quiet).
    ts_q      <= timestamp + 64'd1;
    g_x_rsp   <= x_rsp;
    g_rd_rsp  <= rd_rsp;
    g_wr_rsp_err <= wr_rsp_err;
    g_sem_rsp <= sem_rsp;
  end

  // ---- engine reset (ENGINE_CTRL.COMPUTE_RESET) ----
  // R_ENTER: one cycle in which the inside still shows its state (the
  // channels holding tasks, a launch taken and not answered); the inside is
  // in reset from the end of it.  R_DRAIN: until every access handed out
  // has been answered (the responses go nowhere).  R_REPORT: an
  // ENGINE_RESET fault for each channel that held tasks, then R_RUN.
  typedef enum logic [1:0] {R_RUN, R_ENTER, R_DRAIN, R_REPORT} rst_state_e;
  rst_state_e      rs;
  logic            irst_n;             // the inside's reset
  logic [7:0]      rd_out, wr_out;     // accepted by the PPU, not answered
  logic [3:0]      ts_out, as_out;
  logic            cl_fly;             // a launch taken by the table, not answered
  logic [ppu_types_pkg::CHID_W-1:0] cl_fly_chid;
  logic            r_rsp_v;            // the reset's answer (FAULTED) to it
  logic [NC-1:0]   rs_live;            // channels that held tasks: live until the reset ends
  logic [NC-1:0]   rs_hit;             // ... still to be told (R_REPORT)
  logic            drained;
  logic            sk_cl_valid, sk_cl_ready, sk_xf_valid, sk_xf_ready;
  ppu_types_pkg::cu_fault_t    sk_xf, rs_xf;
  logic            g_rd_ready_sk, g_wr_ready_sk, g_tsem_ready_sk, g_asem_ready_sk;
  logic [NUM_CU:0] g_x_req_ready_sk;
  logic                        t_cl_rsp_valid;
  ppu_types_pkg::task_status_e t_cl_rsp_status;
  logic [NC-1:0]   t_chan_live, t_chan_clear;
  logic [NC*8-1:0] t_chan_tasks;
  logic            t_drain_valid;
  logic [$clog2(NC)-1:0] rs_pick;

  assign irst_n    = rst_n && rs == R_RUN;
  assign resetting = rs != R_RUN;

  always_ff @(posedge gclk) begin
    if (!rst_n) begin
      rs      <= R_RUN;
      rd_out  <= '0;
      wr_out  <= '0;
      ts_out  <= '0;
      as_out  <= '0;
      cl_fly  <= 1'b0;
      r_rsp_v <= 1'b0;
      rs_live <= '0;
      rs_hit  <= '0;
    end else begin
      rd_out  <= rd_out + 8'(rd_valid && rd_ready) - 8'(rd_rsp_valid);
      wr_out  <= wr_out + 8'(wr_valid && wr_ready) - 8'(wr_rsp_valid);
      ts_out  <= ts_out + 4'(tsem_valid && tsem_ready) - 4'(tsem_rsp_valid);
      as_out  <= as_out + 4'(asem_valid && asem_ready) - 4'(asem_rsp_valid);
      r_rsp_v <= 1'b0;
      if (g_cl_valid && g_cl_ready) begin
        cl_fly      <= 1'b1;
        cl_fly_chid <= g_cl_req.chid;
      end else if (t_cl_rsp_valid) begin
        cl_fly      <= 1'b0;
      end
      case (rs)
        R_RUN:
          if (reset_req) rs <= R_ENTER;
        R_ENTER: begin
          rs      <= R_DRAIN;
          rs_live <= t_chan_live;
          rs_hit  <= t_chan_live;
          // (an answer given in this cycle was the table's own)
          if (cl_fly && !t_cl_rsp_valid) begin
            r_rsp_v <= 1'b1;
            if (32'(cl_fly_chid) < NC) rs_hit[cl_fly_chid[$clog2(NC)-1:0]] <= 1'b1;
          end
          cl_fly <= 1'b0;
        end
        R_DRAIN:
          if (drained) rs <= R_REPORT;
        default: begin
          if (sk_xf_valid && sk_xf_ready) rs_hit[rs_pick] <= 1'b0;
          if (rs_hit == '0) begin
            rs      <= R_RUN;
            rs_live <= '0;
          end
        end
      endcase
    end
  end

  // every request has left the boundary and been answered, and no answer
  // is still on its way in
  always_comb begin
    drained = rd_out == '0 && wr_out == '0 && ts_out == '0 && as_out == '0 && x_out == '0 &&
              (&sk_idle[NUM_CU+6:2]) && !g_rd_rsp_valid && !g_wr_rsp_valid &&
              !g_tsem_rsp_valid && !g_asem_rsp_valid && !(|g_x_rsp_valid);
    rs_pick = '0;
    for (int c = NC - 1; c >= 0; c--)
      if (rs_hit[c]) rs_pick = $clog2(NC)'(c);
    rs_xf        = '0;
    rs_xf.chid   = ppu_types_pkg::CHID_W'(rs_pick);
    rs_xf.kind   = 8'(ppu_hw_pkg::PPU_FAULT_KIND_ENGINE_RESET);
    rs_xf.unit   = 4'(ppu_hw_pkg::PPU_FAULT_UNIT_COMPUTE);
    rs_xf.access = ppu_types_pkg::ACC_READ;
  end

  // the boundary while the inside is in reset: no launch taken, the faults
  // are the reset's, the host sees the channels that held tasks as live
  assign g_cl_valid    = sk_cl_valid && rs == R_RUN;
  assign sk_cl_ready   = g_cl_ready && rs == R_RUN;
  assign sk_xf_valid   = rs == R_RUN ? g_xf_valid : (rs == R_REPORT && rs_hit != '0);
  assign sk_xf         = rs == R_RUN ? g_xf : rs_xf;
  assign g_xf_ready    = sk_xf_ready && rs == R_RUN;
  assign cl_rsp_valid  = t_cl_rsp_valid || r_rsp_v;
  assign cl_rsp_status = r_rsp_v ? ppu_types_pkg::TASK_LAUNCH_FAULTED : t_cl_rsp_status;
  always_comb
    for (int c = 0; c < NC; c++) begin
      chan_live[c]  = rs == R_RUN || rs == R_ENTER ? t_chan_live[c] : rs_live[c];
      chan_clear[c] = rs == R_RUN || rs == R_ENTER ? t_chan_clear[c] : !rs_live[c];
      chan_tasks[c*8 +: 8] = rs == R_RUN || rs == R_ENTER ? t_chan_tasks[c*8 +: 8] : 8'(rs_live[c]);
    end
  // (while the engine resets, the channels that held tasks are reported
  // faulted instead: the host marks them dead, WFI or not)
  assign drain_valid = (rs == R_RUN || rs == R_ENTER) && t_drain_valid;
  // COMPUTE_HALT: nothing leaves the engine
  assign g_rd_ready    = g_rd_ready_sk && !halt;
  assign g_wr_ready    = g_wr_ready_sk && !halt;
  assign g_tsem_ready  = g_tsem_ready_sk && !halt;
  assign g_asem_ready  = g_asem_ready_sk && !halt;
  assign g_x_req_ready = g_x_req_ready_sk & {(NUM_CU + 1){!halt}};

  ppu_skid #(.W(ppu_types_pkg::TASK_LAUNCH_W)) u_sk_cl (
    .clk(gclk), .rst_n, .in_valid(cl_valid), .in_ready(cl_ready), .in_data(cl_req),
    .out_valid(sk_cl_valid), .out_ready(sk_cl_ready), .out_data(g_cl_req), .idle(sk_idle[0]));
  ppu_skid #(.W(FL_W)) u_sk_xf (
    .clk(gclk), .rst_n, .in_valid(sk_xf_valid), .in_ready(sk_xf_ready), .in_data(sk_xf),
    .out_valid(xf_valid), .out_ready(xf_ready), .out_data(xf), .idle(sk_idle[1]));
  ppu_skid #(.W(PW)) u_sk_rd (
    .clk(gclk), .rst_n, .in_valid(g_rd_valid && !halt), .in_ready(g_rd_ready_sk), .in_data(g_rd_pa),
    .out_valid(rd_valid), .out_ready(rd_ready), .out_data(rd_pa), .idle(sk_idle[2]));
  ppu_skid #(.W(WW)) u_sk_wr (
    .clk(gclk), .rst_n, .in_valid(g_wr_valid && !halt), .in_ready(g_wr_ready_sk), .in_data(g_wr_req),
    .out_valid(wr_valid), .out_ready(wr_ready), .out_data(wr_req), .idle(sk_idle[3]));
  ppu_skid #(.W(SW)) u_sk_tsem (
    .clk(gclk), .rst_n, .in_valid(g_tsem_valid && !halt), .in_ready(g_tsem_ready_sk), .in_data(g_tsem_req),
    .out_valid(tsem_valid), .out_ready(tsem_ready), .out_data(tsem_req), .idle(sk_idle[4]));
  ppu_skid #(.W(SW)) u_sk_asem (
    .clk(gclk), .rst_n, .in_valid(g_asem_valid && !halt), .in_ready(g_asem_ready_sk), .in_data(g_asem_req),
    .out_valid(asem_valid), .out_ready(asem_ready), .out_data(asem_req), .idle(sk_idle[5]));
  for (genvar i = 0; i <= NUM_CU; i++) begin : g_sk_x
    ppu_skid #(.W(XW)) u_sk_x (
      .clk(gclk), .rst_n, .in_valid(g_x_req_valid[i] && !halt), .in_ready(g_x_req_ready_sk[i]),
      .in_data(g_x_req[i*XW +: XW]),
      .out_valid(x_req_valid[i]), .out_ready(x_req_ready[i]), .out_data(x_req[i*XW +: XW]),
      .idle(sk_idle[6 + i]));
  end

  // Quiet: nothing held, requested, in flight or pending inside.  en is
  // sampled at the falling edge (ppu_clk_gate), from flops of this domain
  // and the requests arriving from outside.
  always_comb begin
    quiet = tasks_idle && rd_idle && wr_idle && sem_idle && (&sk_idle) && x_out == '0 &&
            !(|g_x_req_valid) && !g_tsem_valid && !g_xf_valid && !g_cl_valid &&
            !(|u_ev_valid) && !(|u_flt_valid) && !(|g_x_rsp_valid) && !g_rd_rsp_valid &&
            !g_wr_rsp_valid && !g_tsem_rsp_valid && !g_asem_rsp_valid && !inv_q && !inv_hold &&
            !cl_rsp_valid && !(|nonstall) && !trace.valid && !icache_inv_tasks &&
            !perf_launch && !perf_dispatch && !perf_complete && !perf_preempt && !perf_resume && !perf_evict &&
            !perf_dlaunch && !perf_ddepth && !perf_derr && !perf_wsave &&
            perf_ctxsw == '0 && perf_wave == '0 && perf_retire == '0 && perf_issue == '0 && perf_icache_miss == '0;
    for (int i = 0; i < NUM_CU; i++)
      if (free_ctx[i*FC_W +: FC_W] != FC_W'(CU_CONTEXTS)) quiet = 1'b0;
  end
  // (a new debug selection is taken in the cycle after it is written, so
  // the debug windows show it from the second cycle after the write)
  assign en = !rst_n || !quiet || cl_valid || mmu_invalidate || chan_kill != kill_q ||
              reset_req || rs != R_RUN || r_rsp_v ||
              dbg_tid != dbg_tid_q || task_ctrl != task_ctrl_q || dbg_cu != dbg_cu_q || dbg_ctx != dbg_ctx_q;

  ppu_clk_gate #(.GATE(CLOCK_GATE)) u_gate (.clk, .en, .gclk);


  // From the invalidate on (inv_q is its first cycle here) until the units
  // and the task table have retired what they translated before it.
  assign inv_hold = inv_q || t_inv_hold || (|u_inv_hold) || rs != R_RUN;

  // The task table's clock stops too while an edge would change nothing
  // in it: with every unit busy and nothing launched or finishing, the
  // table is not evaluated at all (it holds the engine's widest logic).
  // chan_kill is registered on this clock (it runs for a change), so the
  // table's sweeps over its slots read only flops of its own domain.
  logic t_quiet, t_en, t_clk;
  assign t_en = en && (!irst_n || !t_quiet || chan_kill != kill_q);
  ppu_clk_gate #(.GATE(CLOCK_GATE)) u_tasks_gate (.clk, .en(t_en), .gclk(t_clk));

  always_ff @(posedge t_clk)
    if (!rst_n) kill_q <= '0;
    else        kill_q <= chan_kill;

  ppu_tasks #(
    .NUM_TASKS(NUM_TASKS), .TASK_SLOTS(TASK_SLOTS), .NUM_CU(NUM_CU),
    .CU_CONTEXTS(CU_CONTEXTS), .NC(NC)
  ) u_tasks (
    .clk(t_clk), .rst_n(irst_n),
    .cl_valid(g_cl_valid), .cl_ready(g_cl_ready), .cl_req(g_cl_req), .cl_rsp_valid(t_cl_rsp_valid),
    .cl_rsp_status(t_cl_rsp_status), .cl_rsp_tid(rsp_tid_unused), .can_accept,
    .chan_kill(kill_q), .chan_live(t_chan_live), .chan_clear(t_chan_clear), .chan_tasks(t_chan_tasks),
    .drain_valid(t_drain_valid), .drain_ch,
    .nonstall,
    .xf_valid(t_xf_valid), .xf_ready(t_xf_ready), .xf(t_xf),
    .x_req_valid(g_x_req_valid[NUM_CU]), .x_req_ready(g_x_req_ready[NUM_CU]), .x_req(t_x_req),
    .x_rsp_valid(g_x_rsp_valid[NUM_CU]), .x_rsp(g_x_rsp),
    .rd_valid(t_rd_valid), .rd_ready(t_rd_ready), .rd_pa(t_rd_pa),
    .rd_rsp_valid(t_rd_rsp_valid), .rd_rsp(g_rd_rsp),
    .sem_valid(g_tsem_valid), .sem_ready(g_tsem_ready), .sem_req(g_tsem_req),
    .sem_rsp_valid(g_tsem_rsp_valid), .sem_rsp(g_sem_rsp),
    .free_ctx, .disp_valid, .disp_ready, .disp,
    .dreq_valid(t_dreq_valid), .dreq_ready(t_dreq_ready), .dreq(t_dreq),
    .drsp_valid(t_drsp_valid), .drsp(t_drsp), .kw_valid(t_kw_valid), .kw(t_kw),
    .ev_valid, .ev_ready, .ev, .ev_cu,
    .kill_valid, .kill_ready, .kill,
    .icache_inv(icache_inv_tasks),
    .trace, .perf_launch, .perf_dispatch, .perf_complete, .perf_preempt, .perf_resume, .perf_evict,
    .perf_dlaunch, .perf_ddepth, .perf_derr, .perf_wsave,
    .no_preempt(task_ctrl_q[0]), .no_evict(task_ctrl_q[1]), .dbg_tid(dbg_tid_q), .dbg(dbg_task), .idle(tasks_idle),
    .quiet(t_quiet),
    .mmu_inv(inv_q), .inv_hold(t_inv_hold)
  );
  assign g_x_req[NUM_CU*XW +: XW] = t_x_req;

  // The I-caches are tagged by page-table root, not by what the pages hold:
  // a page-table change drops their lines as it drops the TLBs'.
  wire icache_inv = icache_inv_tasks || inv_q;

  // Each unit's clock stops too while the unit is quiet and nothing is
  // sent to it, so that an engine with one busy unit does not pay for the
  // others (in power, and in simulation time: a stopped unit is not
  // evaluated).  Sampled at the same falling edge as en: a unit's clock
  // only runs in cycles where gclk does.
  logic [NUM_CU-1:0] u_quiet, cu_en, cu_clk;
  for (genvar i = 0; i < NUM_CU; i++) begin : g_cu_gate
    assign cu_en[i] = en && (!irst_n || !u_quiet[i] || disp_valid[i] || kill_valid[i] || icache_inv || inv_q);
    ppu_clk_gate #(.GATE(CLOCK_GATE)) u_cu_gate (.clk, .en(cu_en[i]), .gclk(cu_clk[i]));
  end

  for (genvar i = 0; i < NUM_CU; i++) begin : g_cu
    ppu_types_pkg::cu_ev_t       ev_i;
    ppu_types_pkg::cu_fault_t    flt_i;
    ppu_types_pkg::xlate_req_t   x_req_i;
    ppu_types_pkg::paddr_t       rd_pa_i;
    ppu_types_pkg::mem_wr_req_t  wr_req_i;
    ppu_types_pkg::sem_req_t     sem_req_i;
    logic [3:0]                  st_i;
    logic [31:0]                 pc_i, tid_i, cta_i;
    ppu_types_pkg::cu_dreq_t     dreq_i;
    logic [ppu_types_pkg::CU_TSLOT_W-1:0] tslot_i;

    ppu_cu #(
      .CU_CONTEXTS(CU_CONTEXTS), .CU_INDEX(i), .NUM_CU(NUM_CU), .ICACHE_BYTES(ICACHE_BYTES)
    ) u_cu (
      .clk(cu_clk[i]), .rst_n(irst_n), .timestamp(ts_q), .icache_inv, .tlb_inv(inv_q), .inv_hold(u_inv_hold[i]),
      .quiet(u_quiet[i]),
      .disp_valid(disp_valid[i]), .disp_ready(disp_ready[i]), .disp,
      .free_ctx(free_ctx[i*FC_W +: FC_W]),
      .ev_valid(u_ev_valid[i]), .ev_ready(u_ev_ready[i]), .ev(ev_i),
      .kill_valid(kill_valid[i]), .kill_ready(kill_ready[i]), .kill,
      .flt_valid(u_flt_valid[i]), .flt_ready(u_flt_ready[i]), .flt(flt_i),
      .x_req_valid(g_x_req_valid[i]), .x_req_ready(g_x_req_ready[i]), .x_req(x_req_i),
      .x_rsp_valid(g_x_rsp_valid[i]), .x_rsp(g_x_rsp),
      .rd_valid(u_rd_valid[i]), .rd_ready(u_rd_ready[i]), .rd_pa(rd_pa_i),
      .rd_rsp_valid(u_rd_rsp_valid[i]), .rd_rsp(g_rd_rsp),
      .wr_valid(u_wr_valid[i]), .wr_ready(u_wr_ready[i]), .wr_req(wr_req_i),
      .wr_rsp_valid(u_wr_rsp_valid[i]), .wr_rsp_err(g_wr_rsp_err),
      .sem_valid(u_sem_valid[i]), .sem_ready(u_sem_ready[i]), .sem_req(sem_req_i),
      .sem_rsp_valid(u_sem_rsp_valid[i]), .sem_rsp(g_sem_rsp),
      .dreq_valid(u_dreq_valid[i]), .dreq_ready(u_dreq_ready[i]), .dreq(dreq_i),
      .drsp_valid(t_drsp_valid), .drsp(t_drsp), .kw_valid(t_kw_valid), .kw(t_kw),
      .perf_issue(u_issue[i]), .perf_retire(u_retire[i]), .perf_icache_miss(u_imiss[i]),
      .perf_ctxsw(u_ctxsw[i]), .perf_wave(u_wave[i]),
      .dbg_ctx(dbg_ctx_q[CW-1:0]), .dbg_reg(5'd0),
      .dbg_state(st_i), .dbg_pc(pc_i), .dbg_tid(tid_i), .dbg_tslot(tslot_i),
      .dbg_cta_id(cta_i), .dbg_rdata(dbg_rdata_unused[i*32 +: 32])
    );
    assign u_ev[i*EV_W +: EV_W]    = ev_i;
    assign u_flt[i*FL_W +: FL_W]   = flt_i;
    assign g_x_req[i*XW +: XW]     = x_req_i;
    assign u_rd_pa[i*PW +: PW]     = rd_pa_i;
    assign u_wr_req[i*WW +: WW]    = wr_req_i;
    assign u_sem_req[i*SW +: SW]   = sem_req_i;
    assign u_dreq[i*DQ_W +: DQ_W]  = dreq_i;
    assign u_dbg_state[i*4 +: 4]   = st_i;
    assign u_dbg_pc[i*32 +: 32]    = pc_i;
    assign u_dbg_tid[i*32 +: 32]   = tid_i;
    assign u_dbg_cta[i*32 +: 32]   = cta_i;
    assign u_dbg_tslot[i*ppu_types_pkg::CU_TSLOT_W +: ppu_types_pkg::CU_TSLOT_W] = tslot_i;
  end

  // ---- memory reads: the units, then the task table ----
  logic [NUM_CU:0] m_rd_valid, m_rd_ready, m_rd_rsp_valid;
  assign m_rd_valid = {t_rd_valid, u_rd_valid};
  assign {t_rd_ready, u_rd_ready} = m_rd_ready;
  assign {t_rd_rsp_valid, u_rd_rsp_valid} = m_rd_rsp_valid;
  ppu_ord_arb #(.N(NUM_CU + 1), .W(PW), .DEPTH(64)) u_rd_arb (
    .clk(gclk), .rst_n(irst_n),
    .s_valid(m_rd_valid), .s_ready(m_rd_ready), .s_req({t_rd_pa, u_rd_pa}),
    .s_rsp_valid(m_rd_rsp_valid),
    .m_valid(g_rd_valid), .m_ready(g_rd_ready), .m_req(g_rd_pa), .m_rsp_valid(g_rd_rsp_valid),
    .idle(rd_idle)
  );

  ppu_ord_arb #(.N(NUM_CU), .W(WW), .DEPTH(64)) u_wr_arb (
    .clk(gclk), .rst_n(irst_n),
    .s_valid(u_wr_valid), .s_ready(u_wr_ready), .s_req(u_wr_req),
    .s_rsp_valid(u_wr_rsp_valid),
    .m_valid(g_wr_valid), .m_ready(g_wr_ready), .m_req(g_wr_req), .m_rsp_valid(g_wr_rsp_valid),
    .idle(wr_idle)
  );

  // One atomic per unit is outstanding at a time.
  ppu_ord_arb #(.N(NUM_CU), .W(SW), .DEPTH(8)) u_sem_arb (
    .clk(gclk), .rst_n(irst_n),
    .s_valid(u_sem_valid), .s_ready(u_sem_ready), .s_req(u_sem_req),
    .s_rsp_valid(u_sem_rsp_valid),
    .m_valid(g_asem_valid), .m_ready(g_asem_ready), .m_req(g_asem_req),
    .m_rsp_valid(g_asem_rsp_valid),
    .idle(sem_idle)
  );

  // ---- CTA events and device-runtime requests: round robin over the units ----
  ppu_rr_pick #(.N(NUM_CU)) u_ev_rr (
    .clk(gclk), .rst_n(irst_n), .req(u_ev_valid), .take(ev_valid && ev_ready), .valid(ev_valid),
    .pick(ev_cu)
  );
  always_comb begin
    ev = u_ev[ev_cu*EV_W +: EV_W];
    u_ev_ready = '0;
    u_ev_ready[ev_cu] = ev_valid && ev_ready;
  end

  logic [CU_W-1:0] dq_cu;
  ppu_rr_pick #(.N(NUM_CU)) u_dq_rr (
    .clk(gclk), .rst_n(irst_n), .req(u_dreq_valid), .take(t_dreq_valid && t_dreq_ready),
    .valid(t_dreq_valid), .pick(dq_cu)
  );
  // (the table's ready depends on its valid: apart from the choice)
  always_comb begin
    t_dreq = u_dreq[dq_cu*DQ_W +: DQ_W];
    u_dreq_ready = '0;
    u_dreq_ready[dq_cu] = t_dreq_valid && t_dreq_ready;
  end

  // ---- faults: the task table first, then the units by index ----
  always_comb begin
    logic found;
    g_xf_valid  = t_xf_valid;
    g_xf        = t_xf;
    t_xf_ready  = g_xf_ready;
    u_flt_ready = '0;
    found       = t_xf_valid;
    for (int i = 0; i < NUM_CU; i++) begin
      if (!found && u_flt_valid[i]) begin
        found          = 1'b1;
        g_xf_valid     = 1'b1;
        g_xf           = u_flt[i*FL_W +: FL_W];
        u_flt_ready[i] = g_xf_ready;
      end
    end
  end

  // ---- performance: per-cycle sums over the units ----
  always_comb begin
    perf_retire      = '0;
    perf_issue       = '0;
    perf_icache_miss = '0;
    perf_ctxsw       = '0;
    perf_wave        = '0;
    for (int i = 0; i < NUM_CU; i++) begin
      perf_retire      = perf_retire + 3'(u_retire[i]);
      perf_issue       = perf_issue + 3'(u_issue[i]);
      perf_icache_miss = perf_icache_miss + 3'(u_imiss[i]);
      perf_ctxsw       = perf_ctxsw + 3'(u_ctxsw[i]);
      perf_wave        = perf_wave + 3'(u_wave[i]);
    end
  end

  // ---- debug window of one context ----
  always_comb begin
    logic [CU_W-1:0] c;
    c = CU_W'(dbg_cu_q);
    dbg_state  = '0;
    dbg_pc     = '0;
    dbg_thread = '0;
    dbg_tslot  = '0;
    dbg_cta_id = '0;
    if (32'(dbg_cu_q) < NUM_CU && 32'(dbg_ctx_q) < CU_CONTEXTS) begin
      dbg_state  = u_dbg_state[c*4 +: 4];
      dbg_pc     = u_dbg_pc[c*32 +: 32];
      dbg_thread = u_dbg_tid[c*32 +: 32];
      dbg_tslot  = u_dbg_tslot[c*ppu_types_pkg::CU_TSLOT_W +: ppu_types_pkg::CU_TSLOT_W];
      dbg_cta_id = u_dbg_cta[c*32 +: 32];
    end
  end

endmodule
