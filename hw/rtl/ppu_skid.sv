// SPDX-License-Identifier: MIT
// Two-entry elastic buffer with registered ready and registered outputs:
// in_ready and out_valid/out_data depend on this block's flops only, so
// neither side's combinational logic reaches through it.  Full throughput
// (a beat per cycle) when the output is taken every cycle.
//
// ppu_compute puts one on every request port between its gated clock
// domain and the always-running rest of the PPU (docs/hw-internals.md
// "Compute engine clock").
module ppu_skid #(
  parameter int unsigned W = 32
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         in_valid,
  output logic         in_ready,
  input  logic [W-1:0] in_data,
  output logic         out_valid,
  input  logic         out_ready,
  output logic [W-1:0] out_data,
  output logic         idle          // holds nothing
);
  logic [W-1:0] d0, d1;              // d0 is the head
  logic         v0, v1;

  assign in_ready  = !v1;
  assign out_valid = v0;
  assign out_data  = d0;
  assign idle      = !v0;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      v0 <= 1'b0;
      v1 <= 1'b0;
      d0 <= '0;
      d1 <= '0;
    end else if (!v0) begin
      if (in_valid) begin
        d0 <= in_data;
        v0 <= 1'b1;
      end
    end else if (!v1) begin
      if (out_ready && in_valid) begin
        d0 <= in_data;
      end else if (out_ready) begin
        v0 <= 1'b0;
      end else if (in_valid) begin
        d1 <= in_data;
        v1 <= 1'b1;
      end
    end else if (out_ready) begin
      d0 <= d1;
      v1 <= 1'b0;
    end
  end
endmodule
