// SPDX-License-Identifier: MIT
// Test wrapper for tests/blocks/tb_sem_arb.cpp (not part of the PPU): the
// semaphore unit and the memory arbiter wired as in ppu_top (RMW lock, the
// snoop of accepted writes), with one other memory client (a reader and a
// writer, client 0 of each channel) standing for the copy engine or a
// compute unit's stores.  The unit's MMU port and the arbiter's external
// port are the testbench's.
//
// LOCK_EN = 0 builds the same thing with the lock cut (the arbiter never
// sees lock_valid, the unit always sees lock_clear): the control that shows
// the testbench detects what the lock prevents.
module tb_sem_arb_top #(
  parameter bit LOCK_EN = 1'b1
) (
  input  logic clk,
  input  logic rst_n,
  // semaphore unit, 4 ports (0 host, 1 copy, 2 tasks, 3 CU atomics)
  input  logic [3:0]                           req_valid,
  output logic [3:0]                           req_ready,
  input  logic [4*ppu_types_pkg::SEM_REQ_W-1:0] req,
  output logic [3:0]                           rsp_valid,
  output ppu_types_pkg::sem_rsp_t              rsp,
  output logic                                 sem_written,
  output logic                                 lock_valid,   // the unit's, for observation
  output logic                                 perf_amo,
  // the unit's MMU client
  output logic                                 x_req_valid,
  input  logic                                 x_req_ready,
  output ppu_types_pkg::xlate_req_t            x_req,
  input  logic                                 x_rsp_valid,
  input  ppu_types_pkg::xlate_rsp_t            x_rsp,
  // the other client
  input  logic                                 o_rd_valid,
  output logic                                 o_rd_ready,
  input  ppu_types_pkg::paddr_t                o_rd_pa,
  output logic                                 o_rd_rsp_valid,
  input  logic                                 o_wr_valid,
  output logic                                 o_wr_ready,
  input  ppu_types_pkg::mem_wr_req_t           o_wr_req,
  output logic                                 o_wr_rsp_valid,
  output ppu_types_pkg::mem_rd_rsp_t           rd_rsp,       // shared by both readers
  output logic                                 wr_rsp_err,
  // external memory port
  output logic                                 m_rd_valid,
  input  logic                                 m_rd_ready,
  output ppu_types_pkg::paddr_t                m_rd_pa,
  output logic [ppu_types_pkg::MEM_TAG_W-1:0]  m_rd_tag,
  input  logic                                 m_rd_rsp_valid,
  input  ppu_types_pkg::mem_rd_rsp_t           m_rd_rsp,
  input  logic [ppu_types_pkg::MEM_TAG_W-1:0]  m_rd_rsp_tag,
  output logic                                 m_wr_valid,
  input  logic                                 m_wr_ready,
  output ppu_types_pkg::mem_wr_req_t           m_wr_req,
  output logic [ppu_types_pkg::MEM_TAG_W-1:0]  m_wr_tag,
  input  logic                                 m_wr_rsp_valid,
  input  logic                                 m_wr_rsp_err,
  input  logic [ppu_types_pkg::MEM_TAG_W-1:0]  m_wr_rsp_tag
);
  // read clients: 0 other, 1 semaphore unit; write clients the same
  logic [1:0] rd_valid, rd_ready, rd_rsp_valid;
  logic [1:0] wr_valid, wr_ready, wr_rsp_valid;
  ppu_types_pkg::paddr_t      s_rd_pa;
  ppu_types_pkg::mem_wr_req_t s_wr_req;
  logic                       s_lock_valid, a_lock_clear;
  ppu_types_pkg::paddr_t      s_lock_pa;
  ppu_types_pkg::trace_t      trace;
  logic                       perf_acq_ok, perf_acq_fail, perf_release, perf_reduction;

  logic s_rd_valid, s_wr_valid;
  assign rd_valid       = {s_rd_valid, o_rd_valid};
  assign wr_valid       = {s_wr_valid, o_wr_valid};
  assign o_rd_ready     = rd_ready[0];
  assign o_wr_ready     = wr_ready[0];
  assign o_rd_rsp_valid = rd_rsp_valid[0];
  assign o_wr_rsp_valid = wr_rsp_valid[0];
  assign lock_valid     = s_lock_valid;

  logic inv_hold_unused;
  wire  unused_inv = inv_hold_unused;

  // (ungated: the testbench drives inputs after the falling edge)
  ppu_sem #(.NPORT(4), .CLOCK_GATE(1'b0)) u_sem (
      .clk, .rst_n, .timestamp(64'd0),
      .req_valid, .req_ready, .req, .rsp_valid, .rsp,
      .x_req_valid, .x_req_ready, .x_req, .x_rsp_valid, .x_rsp,
      .rd_valid(s_rd_valid), .rd_ready(rd_ready[1]), .rd_pa(s_rd_pa),
      .rd_rsp_valid(rd_rsp_valid[1]), .rd_rsp,
      .wr_valid(s_wr_valid), .wr_ready(wr_ready[1]), .wr_req(s_wr_req),
      .wr_rsp_valid(wr_rsp_valid[1]), .wr_rsp_err,
      .lock_valid(s_lock_valid), .lock_pa(s_lock_pa), .lock_clear(LOCK_EN ? a_lock_clear : 1'b1),
      .snoop_valid(m_wr_valid && m_wr_ready), .snoop_pa(m_wr_req.pa),
      .sem_written, .trace,
      .perf_acq_ok, .perf_acq_fail, .perf_release, .perf_reduction, .perf_amo,
      .invalidate(1'b0), .inv_hold(inv_hold_unused)
  );

  ppu_mem_arb #(.NRD(2), .NWR(2), .LOCK_WR_CLIENT(1)) u_arb (
      .clk, .rst_n,
      .rd_valid, .rd_ready, .rd_pa({s_rd_pa, o_rd_pa}), .rd_rsp_valid, .rd_rsp,
      .wr_valid, .wr_ready, .wr_req({s_wr_req, o_wr_req}), .wr_rsp_valid, .wr_rsp_err,
      .lock_valid(LOCK_EN && s_lock_valid), .lock_pa(s_lock_pa), .lock_clear(a_lock_clear),
      .m_rd_valid, .m_rd_ready, .m_rd_pa, .m_rd_tag, .m_rd_rsp_valid, .m_rd_rsp, .m_rd_rsp_tag,
      .m_wr_valid, .m_wr_ready, .m_wr_req, .m_wr_tag, .m_wr_rsp_valid, .m_wr_rsp_err, .m_wr_rsp_tag
  );

  logic unused;
  assign unused = ^{trace, perf_acq_ok, perf_acq_fail, perf_release, perf_reduction};
endmodule
