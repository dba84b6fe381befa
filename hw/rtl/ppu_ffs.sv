// SPDX-License-Identifier: MIT
// The lowest set bit of a vector, in two levels of at most 64: the first
// 64-bit word with a bit set (an OR per word), then the first bit in that
// word, so that no level is wider than 64 at 4096 bits.
module ppu_ffs #(
    parameter int unsigned N  = 16,
    parameter int unsigned IW = (N > 1) ? $clog2(N) : 1
) (
    input  logic [N-1:0]  in,
    output logic          found,
    output logic [IW-1:0] idx
);
  localparam int unsigned WB  = (IW < 6) ? IW : 6;     // bits of the index in a word
  localparam int unsigned WW  = 1 << WB;               // bits per word
  localparam int unsigned NW  = (N + WW - 1) / WW;     // words
  localparam int unsigned NWB = (IW > WB) ? IW - WB : 1;

  always_comb begin
    logic [NW*WW-1:0] m;   // (padded: N need not be a power of two)
    logic [NW-1:0]    any;
    logic [NWB-1:0]   w;
    logic [WW-1:0]    word;
    logic [WB-1:0]    b;
    m    = (NW*WW)'(in);
    any  = '0;
    w    = '0;
    b    = '0;
    word = '0;
    // (an empty vector, most of them in most cycles, skips the loops)
    if (in != '0) begin
      for (int i = 0; i < NW; i++) any[i] = |m[i*WW +: WW];
      for (int i = NW - 1; i >= 0; i--) if (any[i]) w = NWB'(i);
      word = m[32'(w)*WW +: WW];
      for (int i = WW - 1; i >= 0; i--) if (word[i]) b = WB'(i);
    end
    found = (any != '0);
    idx   = IW'({w, b});
  end
endmodule
