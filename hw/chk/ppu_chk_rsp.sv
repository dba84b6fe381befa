// SPDX-License-Identifier: MIT
// Requests accepted against responses on a port whose responses are
// one-cycle pulses in request order: a response nobody asked for would be
// taken by whatever the client does next (a counter that wraps, data
// that lands in the wrong command), and more than MAX in flight means the
// client issued without room for the answer.
module ppu_chk_rsp #(
  parameter int unsigned MAX = 1,
  parameter int unsigned CW = 16,
  parameter string       NAME = "port"
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          fire,      // request accepted (valid && ready)
  input  logic          rsp,       // response pulse
  output logic [CW-1:0] pending    // accepted, not yet answered
);
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      pending <= '0;
    end else begin
      if (rsp && pending == '0 && !fire)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, ": response without a request"});
      if (32'(pending) + 32'(fire) - 32'(rsp) > MAX)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("%s: more than %0d requests in flight",
                                                             NAME, MAX));
      pending <= pending + CW'(fire) - CW'(rsp && (pending != '0 || fire));
    end
  end
endmodule
