// SPDX-License-Identifier: MIT
// valid/ready request port (docs/hw-internals.md, Conventions): once
// valid is up without ready, valid and the payload stay as they are until
// the cycle ready comes.  A request that changes or vanishes under a
// stalled handshake is a request the receiver may take half of.
module ppu_chk_hs #(
  parameter int unsigned W = 1,
  parameter string       NAME = "port",
  // The requester may take back a request not yet taken (valid falls
  // before ready); while valid stays, the payload must still hold.
  parameter bit          WITHDRAW = 1'b0
) (
  input logic         clk,
  input logic         rst_n,
  input logic         valid,
  input logic         ready,
  input logic [W-1:0] payload
);
  logic         held_q;     // last cycle: valid && !ready
  logic [W-1:0] pay_q;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      held_q <= 1'b0;
      pay_q  <= '0;
    end else begin
      if (held_q && !valid && !WITHDRAW)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, ": valid dropped before ready"});
      else if (held_q && valid && payload != pay_q)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, ": payload changed before ready"});
      held_q <= valid && !ready;
      pay_q  <= payload;
    end
  end
endmodule
