// SPDX-License-Identifier: MIT
// The PPU's interrupt as the shell's MSI request line, held back until
// every write the PPU issued before it has been answered.  On PCIe an MSI
// is itself a posted write; a DMA bridge sends it on its own path, so an
// interrupt raised while a semaphore release still waits in this shell or
// in the bridge could reach the host before the data it announces.  When
// the PPU's irq rises, the number of writes accepted and not yet answered
// is the fence; the request line follows irq once that many write
// answers (which come in order) have passed.
// The line is a level, held while INTR_STATUS & INTR_ENABLE is nonzero:
// the shape of XDMA's usr_irq_req and of a LitePCIe/Corundum MSI request.
module ppu_fpga_irq #(
  parameter int unsigned CW = 8            // counts WR_SLOTS + 1 writes
) (
  input  logic clk,
  input  logic rst_n,
  input  logic irq,                        // ppu_top irq (a level)
  input  logic wr_accept,                  // a write beat taken from the PPU
  input  logic wr_answer,                  // a write response given to the PPU
  output logic irq_req
);
  logic [CW-1:0] open_q, fence_q;          // writes unanswered; the fence
  logic          irq_q;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      open_q  <= '0;
      fence_q <= '0;
      irq_q   <= 1'b0;
    end else begin
      open_q <= open_q + CW'(wr_accept) - CW'(wr_answer);
      irq_q  <= irq;
      if (irq && !irq_q)
        fence_q <= open_q + CW'(wr_accept) - CW'(wr_answer);
      else if (fence_q != 0 && wr_answer)
        fence_q <= fence_q - 1'b1;
    end
  end

  assign irq_req = irq && irq_q && fence_q == 0;
endmodule
