// SPDX-License-Identifier: MIT
// Clock gate: gclk follows clk in the cycles where en was high at the
// preceding falling edge.  The enable is sampled while clk is low, so
// gclk never glitches (the usual integrated clock-gating cell, built from
// a negative-edge flop instead of a latch).
//
// ppu_compute stops the compute engine's clock while it has nothing to do:
// its logic then neither changes nor costs power (nor simulation time).
// With GATE = 0 the clock is passed through, e.g. for an FPGA flow that
// wants no logic in its clock tree.
module ppu_clk_gate #(
  parameter bit GATE = 1'b1
) (
  input  logic clk,
  input  logic en,
  output logic gclk
);
  if (GATE) begin : g_gate
    logic en_q;
    always_ff @(negedge clk) en_q <= en;
    assign gclk = clk & en_q;
  end else begin : g_pass
    assign gclk = clk;
    wire unused_en = en;
  end
endmodule
