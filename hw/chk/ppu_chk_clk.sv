// SPDX-License-Identifier: MIT
// A checker's clock.  A checker's flops change only in a cycle where a
// port it watches is active (a request, response or event up) or in the
// cycle after one (a request held without ready must still be up), so it
// is clocked only in those cycles: a simulator then skips the checker in
// the cycles between, which are most of them for an idle block.  act must
// cover every input the checker's clocked logic reacts to.
module ppu_chk_clk (
  input  logic clk,
  input  logic rst_n,
  input  logic act,     // something the checker watches is up this cycle
  output logic cclk
);
  logic act_q;
  always_ff @(posedge clk) act_q <= act;
  ppu_clk_gate #(.GATE(1'b1)) u_gate (.clk, .en(act || act_q || !rst_n), .gclk(cclk));
endmodule
