// SPDX-License-Identifier: MIT
// Round-robin choice among N requesters whose payloads a parent module
// multiplexes: `pick` is the first requester at or after the one behind
// the last taken (combinational, so a requester alone is served every
// cycle); `take` (a handshake with the requester picked) moves the start
// behind it.  ppu_compute uses it for the units' CTA events and their
// device-runtime requests.
module ppu_rr_pick #(
  parameter int unsigned N = 4
) (
  input  logic                                  clk,
  input  logic                                  rst_n,
  input  logic [N-1:0]                          req,
  input  logic                                  take,
  output logic                                  valid,
  output logic [((N > 1) ? $clog2(N) : 1)-1:0]  pick
);
  localparam int unsigned W = (N > 1) ? $clog2(N) : 1;

  logic [W-1:0] start;

  always_comb begin
    logic [W:0] c;
    valid = 1'b0;
    pick  = '0;
    c     = '0;
    for (int k = N - 1; k >= 0; k--) begin
      c = (W + 1)'(start) + (W + 1)'(k);
      if (c >= (W + 1)'(N)) c = c - (W + 1)'(N);
      if (req[c[W-1:0]]) begin
        valid = 1'b1;
        pick  = c[W-1:0];
      end
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) start <= '0;
    else if (take) start <= (32'(pick) == N - 1) ? '0 : pick + 1'b1;
  end
endmodule
