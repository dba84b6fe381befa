// SPDX-License-Identifier: MIT
// Contracts of the semaphore unit (ppu_sem), bound into it by
// ppu_chk_bind.sv; see hw/chk/README.md.
// A checker watches whole buses and uses the fields its rules need.
/* verilator lint_off UNUSEDSIGNAL */
module ppu_sem_chk #(
  parameter int unsigned NPORT = 4
) (
  input logic                       clk,
  input logic                       rst_n,
  input logic [NPORT-1:0]           req_valid,
  input logic [NPORT-1:0]           req_ready,
  input logic [NPORT*ppu_types_pkg::SEM_REQ_W-1:0] req,
  input logic [NPORT-1:0]           rsp_valid,
  input logic                       x_req_valid,
  input logic                       x_req_ready,
  input ppu_types_pkg::xlate_req_t  x_req,
  input logic                       x_rsp_valid,
  input logic                       rd_valid,
  input logic                       rd_ready,
  input ppu_types_pkg::paddr_t      rd_pa,
  input logic                       rd_rsp_valid,
  input logic                       wr_valid,
  input logic                       wr_ready,
  input ppu_types_pkg::mem_wr_req_t wr_req,
  input logic                       wr_rsp_valid,
  input logic                       lock_valid,
  input ppu_types_pkg::paddr_t      lock_pa
);
  localparam int unsigned RW = ppu_types_pkg::SEM_REQ_W;

  // Clocked while a port is active or was in the cycle before (ppu_chk_clk).
  logic cclk;
  ppu_chk_clk u_cclk (
      .clk, .rst_n, .cclk,
      .act(|req_valid || |rsp_valid || x_req_valid || x_rsp_valid || rd_valid || rd_rsp_valid ||
           wr_valid || wr_rsp_valid || lock_valid));

  // Each client holds its request until taken; so does the unit on the
  // MMU and memory ports.
  logic [NPORT*16-1:0] pend;
  for (genvar p = 0; p < NPORT; p++) begin : g_port
    ppu_chk_hs #(.W(RW), .NAME("semaphore request")) u_hs (
        .clk(cclk), .rst_n, .valid(req_valid[p]), .ready(req_ready[p]), .payload(req[p*RW +: RW]));
    // one response per request, one request at a time per port
    ppu_chk_rsp #(.MAX(1), .NAME("semaphore port")) u_rsp (
        .clk(cclk), .rst_n, .fire(req_valid[p] && req_ready[p]), .rsp(rsp_valid[p]),
        .pending(pend[p*16 +: 16]));
  end
  ppu_chk_hs #(.W($bits(x_req)), .NAME("semaphore xlate")) u_hs_x (
      .clk(cclk), .rst_n, .valid(x_req_valid), .ready(x_req_ready), .payload(x_req));
  ppu_chk_hs #(.W($bits(rd_pa)), .NAME("semaphore read")) u_hs_rd (
      .clk(cclk), .rst_n, .valid(rd_valid), .ready(rd_ready), .payload(rd_pa));
  ppu_chk_hs #(.W($bits(wr_req)), .NAME("semaphore write")) u_hs_wr (
      .clk(cclk), .rst_n, .valid(wr_valid), .ready(wr_ready), .payload(wr_req));
  logic [15:0] x_pend, rd_pend, wr_pend;
  ppu_chk_rsp #(.MAX(1), .NAME("semaphore xlate")) u_rsp_x (
      .clk(cclk), .rst_n, .fire(x_req_valid && x_req_ready), .rsp(x_rsp_valid), .pending(x_pend));
  ppu_chk_rsp #(.MAX(1), .NAME("semaphore read")) u_rsp_rd (
      .clk(cclk), .rst_n, .fire(rd_valid && rd_ready), .rsp(rd_rsp_valid), .pending(rd_pend));
  // (a timestamped release writes two beats)
  ppu_chk_rsp #(.MAX(2), .NAME("semaphore write")) u_rsp_wr (
      .clk(cclk), .rst_n, .fire(wr_valid && wr_ready), .rsp(wr_rsp_valid), .pending(wr_pend));

  // One operation at a time, start to finish: a single request in the unit,
  // and no translation or memory access of the unit outside one.
  logic [NPORT-1:0] busy;
  logic             selftest;
  always_comb begin
    for (int p = 0; p < NPORT; p++) busy[p] = pend[p*16 +: 16] != '0;
  end

  always_ff @(posedge cclk) begin
    if (rst_n) begin
      if ($countones(req_valid & req_ready) > 1)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "two requests accepted in one cycle");
      if (|(req_valid & req_ready) && (|busy || selftest) && !(|rsp_valid))
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "request accepted with another under way");
      if ($countones(rsp_valid) > 1)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "two responses in one cycle");
      if (!(|busy) && ((x_req_valid && x_req_ready) || (rd_valid && rd_ready) || (wr_valid && wr_ready)))
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "access with no request under way");
      if (|rsp_valid && (x_pend != '0 || rd_pend != '0 || wr_pend != '0))
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "response with its accesses in flight");
      // Under the RMW lock the unit writes only the locked beat, and the
      // lock is gone before the answer (other writers wait on it).
      if (lock_valid && wr_valid && wr_ready &&
          {wr_req.pa.sys, wr_req.pa.addr[ppu_types_pkg::PA_W-1:3]} != {lock_pa.sys, lock_pa.addr[ppu_types_pkg::PA_W-1:3]})
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "write outside the locked beat");
      if (lock_valid && |rsp_valid)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "answer with the RMW lock held");
    end
  end
  // Sampled every cycle: an import with no arguments would otherwise be
  // evaluated once, as a constant.
  always_ff @(posedge clk) selftest <= (ppu_chk_pkg::ppu_chk_selftest() & ppu_chk_pkg::SELFTEST_SEM) != 0;
endmodule
