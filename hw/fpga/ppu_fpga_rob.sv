// SPDX-License-Identifier: MIT
// Reorder buffer for one direction of the PPU's memory port.  The PPU
// wants every response in request order (docs/hw-architecture.md "Memory
// port"), but the shell sends local-memory and system-memory requests to
// two AXI masters that answer independently: each accepted request takes
// the next slot here, its answer fills the slot whenever it comes, and
// slots leave in order, one per cycle, as the PPU's response pulses
// (registered, so the PPU sees them a cycle after the head filled).
module ppu_fpga_rob #(
  parameter int unsigned DEPTH = 64,   // requests in flight; power of two
  parameter int unsigned DW = 64,      // response data bits (1 for writes)
  parameter int unsigned TAG_W = 3
) (
  input  logic                     clk,
  input  logic                     rst_n,
  // allocation, in request order
  input  logic                     alloc,
  input  logic [TAG_W-1:0]         alloc_tag,
  output logic [$clog2(DEPTH)-1:0] alloc_slot,
  output logic                     full,
  // an answer, in any order
  input  logic                     fill,
  input  logic [$clog2(DEPTH)-1:0] fill_slot,
  input  logic [DW-1:0]            fill_data,
  input  logic                     fill_err,
  // in-order responses to the PPU
  output logic                     rsp_valid,
  output logic [TAG_W-1:0]         rsp_tag,
  output logic [DW-1:0]            rsp_data,
  output logic                     rsp_err,
  output logic                     empty        // nothing allocated or owed
);
  localparam int unsigned SW = $clog2(DEPTH);

  logic [TAG_W-1:0] tag_m  [DEPTH];
  logic [DW-1:0]    data_m [DEPTH];
  logic [DEPTH-1:0] err_q, done_q;
  logic [SW:0]      head_q, tail_q;
  logic             retire;

  assign alloc_slot = tail_q[SW-1:0];
  assign full       = head_q == {~tail_q[SW], tail_q[SW-1:0]};
  assign retire     = head_q != tail_q && done_q[head_q[SW-1:0]];
  assign empty      = head_q == tail_q && !rsp_valid;

  always_ff @(posedge clk) begin
    if (alloc) tag_m[tail_q[SW-1:0]] <= alloc_tag;
    if (fill) data_m[fill_slot] <= fill_data;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      head_q    <= '0;
      tail_q    <= '0;
      done_q    <= '0;
      err_q     <= '0;
      rsp_valid <= 1'b0;
      rsp_tag   <= '0;
      rsp_data  <= '0;
      rsp_err   <= 1'b0;
    end else begin
      if (alloc) tail_q <= tail_q + 1'b1;
      if (fill) begin
        done_q[fill_slot] <= 1'b1;
        err_q[fill_slot]  <= fill_err;
      end
      rsp_valid <= retire;
      if (retire) begin
        head_q <= head_q + 1'b1;
        // A slot is allocated again only after it retired: no fill races this.
        done_q[head_q[SW-1:0]] <= 1'b0;
        rsp_tag  <= tag_m[head_q[SW-1:0]];
        rsp_data <= data_m[head_q[SW-1:0]];
        rsp_err  <= err_q[head_q[SW-1:0]];
      end
    end
  end
endmodule
