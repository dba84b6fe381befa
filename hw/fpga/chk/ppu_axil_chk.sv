// SPDX-License-Identifier: MIT
// AXI4-Lite protocol checker for the BAR0 slave, simulation only: VALID
// held until READY with a stable payload on all five channels, a write
// response only for an address and data both taken, a read response only
// for an address taken, never EXOKAY.
/* verilator lint_off UNUSEDSIGNAL */
module ppu_axil_chk #(
  parameter int unsigned AW = 16,
  parameter string       NAME = "axil"
) (
  input logic          clk,
  input logic          rst_n,
  input logic          awvalid,
  input logic          awready,
  input logic [AW-1:0] awaddr,
  input logic [2:0]    awprot,
  input logic          wvalid,
  input logic          wready,
  input logic [31:0]   wdata,
  input logic [3:0]    wstrb,
  input logic          bvalid,
  input logic          bready,
  input logic [1:0]    bresp,
  input logic          arvalid,
  input logic          arready,
  input logic [AW-1:0] araddr,
  input logic [2:0]    arprot,
  input logic          rvalid,
  input logic          rready,
  input logic [31:0]   rdata,
  input logic [1:0]    rresp
);
  ppu_chk_hs #(.W(AW + 3), .NAME({NAME, " AW"})) u_hs_aw (
      .clk, .rst_n, .valid(awvalid), .ready(awready), .payload({awaddr, awprot}));
  ppu_chk_hs #(.W(36), .NAME({NAME, " W"})) u_hs_w (
      .clk, .rst_n, .valid(wvalid), .ready(wready), .payload({wdata, wstrb}));
  ppu_chk_hs #(.W(2), .NAME({NAME, " B"})) u_hs_b (
      .clk, .rst_n, .valid(bvalid), .ready(bready), .payload(bresp));
  ppu_chk_hs #(.W(AW + 3), .NAME({NAME, " AR"})) u_hs_ar (
      .clk, .rst_n, .valid(arvalid), .ready(arready), .payload({araddr, arprot}));
  ppu_chk_hs #(.W(34), .NAME({NAME, " R"})) u_hs_r (
      .clk, .rst_n, .valid(rvalid), .ready(rready), .payload({rdata, rresp}));

  int unsigned aw_n, w_n, ar_n;            // taken, not yet answered

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      aw_n <= 0;
      w_n  <= 0;
      ar_n <= 0;
    end else begin
      automatic logic b = bvalid && bready;
      automatic logic r = rvalid && rready;
      if (b && (aw_n == 0 || w_n == 0))
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, " B: no write address and data taken"});
      if (r && ar_n == 0)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, " R: no read address taken"});
      if ((b && bresp == 2'b01) || (r && rresp == 2'b01))
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, ": EXOKAY on AXI4-Lite"});
      aw_n <= aw_n + 32'(awvalid && awready) - 32'(b && aw_n != 0);
      w_n  <= w_n + 32'(wvalid && wready) - 32'(b && w_n != 0);
      ar_n <= ar_n + 32'(arvalid && arready) - 32'(r && ar_n != 0);
    end
  end
endmodule
