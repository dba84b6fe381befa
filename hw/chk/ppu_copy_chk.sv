// SPDX-License-Identifier: MIT
// Contracts of the copy engine (ppu_copy), bound into it by ppu_chk_bind.sv.
// See hw/chk/README.md.  Only the ports and the fault flag are observed:
// the checker keeps its own view of the command and of the destination
// translations instead of trusting the engine's counters.
// A checker watches whole buses and uses the fields its rules need.
/* verilator lint_off UNUSEDSIGNAL */
module ppu_copy_chk #(
  parameter int unsigned MAX_READS = 16
) (
  input logic                       clk,
  input logic                       rst_n,
  input logic                       cmd_valid,
  input logic                       cmd_ready,
  input ppu_types_pkg::copy_cmd_t   cmd,
  input logic                       done_valid,
  input logic [ppu_types_pkg::CHID_W-1:0] done_chid,
  input ppu_types_pkg::copy_done_t  done,
  input logic                       xs_req_valid,
  input logic                       xs_req_ready,
  input ppu_types_pkg::xlate_req_t  xs_req,
  input logic                       xs_rsp_valid,
  input logic                       xd_req_valid,
  input logic                       xd_req_ready,
  input ppu_types_pkg::xlate_req_t  xd_req,
  input logic                       xd_rsp_valid,
  input ppu_types_pkg::xlate_rsp_t  xd_rsp,
  input logic                       rd_valid,
  input logic                       rd_ready,
  input ppu_types_pkg::paddr_t      rd_pa,
  input logic                       rd_rsp_valid,
  input logic                       wr_valid,
  input logic                       wr_ready,
  input ppu_types_pkg::mem_wr_req_t wr_req,
  input logic                       wr_rsp_valid,
  input logic                       sem_valid,
  input logic                       sem_ready,
  input ppu_types_pkg::sem_req_t    sem_req,
  input logic                       sem_rsp_valid,
  input logic                       fault_q        // the engine has recorded a fault
);
  localparam int unsigned NT = 8;          // destination translations remembered
  localparam int unsigned PS = ppu_hw_pkg::PPU_PAGE_SHIFT;
  localparam int unsigned PA_W = ppu_types_pkg::PA_W;

  // Clocked while a port is active or was in the cycle before, or while
  // the fault flag moves (ppu_chk_clk).
  logic cclk, fault_d;
  ppu_chk_clk u_cclk (
      .clk, .rst_n, .cclk,
      .act(cmd_valid || done_valid || xs_req_valid || xs_rsp_valid || xd_req_valid || xd_rsp_valid ||
           rd_valid || rd_rsp_valid || wr_valid || wr_rsp_valid || sem_valid || sem_rsp_valid ||
           fault_q != fault_d));

  // ---- every request port holds its request until ready ----
  ppu_chk_hs #(.W($bits(cmd)), .NAME("copy cmd")) u_hs_cmd (
      .clk(cclk), .rst_n, .valid(cmd_valid), .ready(cmd_ready), .payload(cmd));
  ppu_chk_hs #(.W($bits(xs_req)), .NAME("copy src xlate")) u_hs_xs (
      .clk(cclk), .rst_n, .valid(xs_req_valid), .ready(xs_req_ready), .payload(xs_req));
  ppu_chk_hs #(.W($bits(xd_req)), .NAME("copy dst xlate")) u_hs_xd (
      .clk(cclk), .rst_n, .valid(xd_req_valid), .ready(xd_req_ready), .payload(xd_req));
  ppu_chk_hs #(.W($bits(rd_pa)), .NAME("copy read")) u_hs_rd (
      .clk(cclk), .rst_n, .valid(rd_valid), .ready(rd_ready), .payload(rd_pa));
  ppu_chk_hs #(.W($bits(wr_req)), .NAME("copy write")) u_hs_wr (
      .clk(cclk), .rst_n, .valid(wr_valid), .ready(wr_ready), .payload(wr_req));
  ppu_chk_hs #(.W($bits(sem_req)), .NAME("copy semaphore")) u_hs_sem (
      .clk(cclk), .rst_n, .valid(sem_valid), .ready(sem_ready), .payload(sem_req));

  // ---- one response per request on every port, within the engine's bounds ----
  logic [15:0] rd_pend, wr_pend, xs_pend, xd_pend, sem_pend;
  ppu_chk_rsp #(.MAX(MAX_READS), .NAME("copy read")) u_rsp_rd (
      .clk(cclk), .rst_n, .fire(rd_valid && rd_ready), .rsp(rd_rsp_valid), .pending(rd_pend));
  ppu_chk_rsp #(.MAX(65535), .NAME("copy write")) u_rsp_wr (
      .clk(cclk), .rst_n, .fire(wr_valid && wr_ready), .rsp(wr_rsp_valid), .pending(wr_pend));
  ppu_chk_rsp #(.MAX(1), .NAME("copy src xlate")) u_rsp_xs (
      .clk(cclk), .rst_n, .fire(xs_req_valid && xs_req_ready), .rsp(xs_rsp_valid), .pending(xs_pend));
  ppu_chk_rsp #(.MAX(1), .NAME("copy dst xlate")) u_rsp_xd (
      .clk(cclk), .rst_n, .fire(xd_req_valid && xd_req_ready), .rsp(xd_rsp_valid), .pending(xd_pend));
  ppu_chk_rsp #(.MAX(1), .NAME("copy semaphore")) u_rsp_sem (
      .clk(cclk), .rst_n, .fire(sem_valid && sem_ready), .rsp(sem_rsp_valid), .pending(sem_pend));

  // ---- the command under way and the destination pages it translated ----
  logic                     active;
  ppu_types_pkg::copy_cmd_t c;
  logic [31:0]              xd_va_q;                 // VA of the dst translation in flight
  logic [NT-1:0]            t_valid;
  logic [NT*20-1:0]         t_vpn;
  logic [NT*(PA_W-PS+1)-1:0] t_ppn;                  // {sys, ppn}
  logic [$clog2(NT)-1:0]    t_next;
  // (fault_d: fault_q one cycle ago, declared above)
  logic                     rd_held, wr_held;        // last cycle: valid && !ready

  // The bytes a write beat stores, as VAs through each translation of its page.
  logic        selftest;              // SELFTEST_COPY: the window ends a byte early
  logic        wr_fire, wr_in, wr_match;
  logic [32:0] win_end;
  logic [2:0]  b_lo, b_hi;
  always_comb begin
    b_lo = 3'd0;
    b_hi = 3'd7;
    for (int i = 7; i >= 0; i--) if (wr_req.strb[i]) b_lo = 3'(i);
    for (int i = 0; i < 8; i++) if (wr_req.strb[i]) b_hi = 3'(i);
    win_end = {1'b0, c.dst} + {1'b0, c.len};
    if (selftest)
      win_end = win_end - 33'd1;               // the last byte is out of bounds
    wr_fire  = wr_valid && wr_ready;
    wr_match = 1'b0;
    wr_in    = 1'b0;
    for (int i = 0; i < NT; i++) begin
      logic [32:0] va;
      va = {1'b0, t_vpn[i*20 +: 20], wr_req.pa.addr[PS-1:0]};
      if (t_valid[i] && t_ppn[i*(PA_W-PS+1) +: (PA_W-PS+1)] == {wr_req.pa.sys, wr_req.pa.addr[PA_W-1:PS]}) begin
        wr_match = 1'b1;
        if (va + 33'(b_lo) >= {1'b0, c.dst} && va + 33'(b_hi) < win_end) wr_in = 1'b1;
      end
    end
  end

  always_ff @(posedge cclk) begin
    if (!rst_n) begin
      active  <= 1'b0;
      c       <= '0;
      xd_va_q <= '0;
      t_valid <= '0;
      t_vpn   <= '0;
      t_ppn   <= '0;
      t_next  <= '0;
      fault_d <= 1'b0;
      rd_held <= 1'b0;
      wr_held <= 1'b0;
    end else begin
      fault_d <= fault_q;
      rd_held <= rd_valid && !rd_ready;
      wr_held <= wr_valid && !wr_ready;
      if (cmd_valid && cmd_ready) begin
        if (active) ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "command accepted before the last one was done");
        // (a translation may be: the page after a range is looked up
        // ahead and its answer dropped)
        if (rd_pend != '0 || wr_pend != '0)
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "command accepted with accesses of the last one in flight");
        active  <= 1'b1;
        c       <= cmd;
        t_valid <= '0;
      end
      if (done_valid) begin
        if (!active) ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "done without a command");
        if (done_chid != c.chid)
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("done for channel %0d, command of %0d",
                                                               done_chid, c.chid));
        if (rd_pend != '0 || wr_pend != '0 || sem_pend != '0)
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "done with accesses still in flight");
        active <= 1'b0;
      end
      if (xd_req_valid && xd_req_ready) xd_va_q <= xd_req.va;
      if (xd_rsp_valid && !xd_rsp.fault) begin
        t_valid[t_next] <= 1'b1;
        t_vpn[32'(t_next)*20 +: 20] <= xd_va_q[31:PS];
        t_ppn[32'(t_next)*(PA_W-PS+1) +: (PA_W-PS+1)] <= {xd_rsp.pa.sys, xd_rsp.pa.addr[PA_W-1:PS]};
        t_next <= t_next + 1'b1;
      end
      // Only bytes of [dst, dst + len) are written, through a page the
      // engine translated for this command's destination.
      if (wr_fire && !active)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "write with no command under way");
      else if (wr_fire && !wr_match)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("write to PA %0d:%09x, a page not translated for dst",
                                                             wr_req.pa.sys, wr_req.pa.addr));
      else if (wr_fire && !wr_in)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("write to PA %0d:%09x strb %02x outside dst %08x + %0d",
                                                             wr_req.pa.sys, wr_req.pa.addr, wr_req.strb,
                                                             c.dst, c.len));
      // After a fault nothing new goes out: what was presented may finish.
      if (fault_d && rd_valid && !rd_held)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "new read after the copy faulted");
      if (fault_d && wr_valid && !wr_held)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "new write after the copy faulted");
      if (sem_valid && fault_q)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "completion semaphore of a faulted copy");
      if (sem_valid && c.sem_mode == 2'(ppu_hw_pkg::PPU_LAUNCH_DMA_SEMAPHORE_NONE))
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "completion semaphore not asked for");
    end
  end

  // Sampled every cycle: an import with no arguments would otherwise be
  // evaluated once, as a constant.
  always_ff @(posedge clk) selftest <= (ppu_chk_pkg::ppu_chk_selftest() & ppu_chk_pkg::SELFTEST_COPY) != 0;
endmodule
