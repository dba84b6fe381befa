// SPDX-License-Identifier: MIT
// Contract of the invalidate handshake (ppu_inv_drain), bound into it by
// ppu_chk_bind.sv; see hw/chk/README.md.  It reads the drain's own count
// of accesses outstanding per counted port: an answer that finds it at
// zero means an issued access was not counted, and the count, wrapped
// below zero, would keep MMU_STATUS.INV_PENDING up after the next
// invalidate for good.
/* verilator lint_off UNUSEDSIGNAL */
module ppu_inv_drain_chk #(
  parameter int unsigned NP = 10,
  parameter int unsigned CW = 16,
  parameter logic [NP-1:0] COUNT = '1
) (
  input logic          clk,
  input logic          rst_n,
  input logic [NP-1:0] p_ready,
  input logic [NP-1:0] p_rsp,
  input logic [CW-1:0] out_q [NP]
);
  always_ff @(posedge clk)
    if (rst_n)
      for (int i = 0; i < NP; i++)
        if (COUNT[i] && p_rsp[i] && out_q[i] == '0 && !p_ready[i])
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("port %0d: an answer with no access counted outstanding",
                                                               i));
endmodule
/* verilator lint_on UNUSEDSIGNAL */
