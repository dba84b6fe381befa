// SPDX-License-Identifier: MIT
// Synchronous FIFO with a first-word-fall-through head: the shell keeps
// per-beat bookkeeping (ROB slot, lane, write data) in these between the
// PPU's port and the AXI channels.  DEPTH must be a power of two.
module ppu_fpga_fifo #(
  parameter int unsigned W = 8,
  parameter int unsigned DEPTH = 16
) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         push,
  input  logic [W-1:0] push_data,
  input  logic         pop,
  output logic [W-1:0] head,
  output logic         empty,
  output logic         full
);
  localparam int unsigned AW = $clog2(DEPTH);

  logic [W-1:0] mem [DEPTH];
  logic [AW:0]  rd_q, wr_q;

  assign head  = mem[rd_q[AW-1:0]];
  assign empty = rd_q == wr_q;
  assign full  = rd_q == {~wr_q[AW], wr_q[AW-1:0]};

  always_ff @(posedge clk) begin
    if (push) mem[wr_q[AW-1:0]] <= push_data;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      rd_q <= '0;
      wr_q <= '0;
    end else begin
      if (push) wr_q <= wr_q + 1'b1;
      if (pop) rd_q <= rd_q + 1'b1;
    end
  end
endmodule
