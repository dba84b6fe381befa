// SPDX-License-Identifier: MIT
// Round-robin arbiter of N sub-clients onto one client port of a block that
// answers in request order (a memory read or write client of ppu_mem_arb,
// a semaphore unit port).  The payload of a response is shared, so only its
// valid pulse is routed: to the sub-client at the head of a FIFO of grant
// indices, pushed when a request is accepted upstream.
//
// The grant is combinational, so one sub-client streaming alone gets a
// handshake every cycle.  Once the upstream has seen valid without ready
// the grant is held until the handshake: the payload must stay stable while
// valid is up, even when a sub-client of higher round-robin priority asks in
// the meantime.  No request is granted while the FIFO is full (DEPTH bounds
// the requests in flight), which is never a deadlock: the upstream answers
// what is in flight without waiting for anything else.
module ppu_ord_arb #(
  parameter int unsigned N     = 4,
  parameter int unsigned W     = 32,    // request payload bits
  parameter int unsigned DEPTH = 16     // requests in flight, a power of two
) (
  input  logic           clk,
  input  logic           rst_n,
  input  logic [N-1:0]   s_valid,
  output logic [N-1:0]   s_ready,
  input  logic [N*W-1:0] s_req,
  output logic [N-1:0]   s_rsp_valid,
  output logic           m_valid,
  input  logic           m_ready,
  output logic [W-1:0]   m_req,
  input  logic           m_rsp_valid,
  output logic           idle          // nothing requested, nothing in flight
);

  localparam int unsigned IW = (N > 1) ? $clog2(N) : 1;
  localparam int unsigned DW = $clog2(DEPTH);

  if (N < 1 || DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0) begin : g_bad
    $error("ppu_ord_arb: N >= 1 and DEPTH a power of two >= 2");
  end

  logic [IW-1:0] fifo [DEPTH];
  logic [DW:0]   wp, rp;
  wire           full = (wp - rp) == (DW + 1)'(DEPTH);

  logic [IW-1:0] rr;          // sub-client with the highest priority next
  logic          held;        // the upstream saw valid without ready
  logic [IW-1:0] held_idx;
  logic [IW-1:0] gnt;
  logic          gnt_v;

  always_comb begin
    logic [IW:0] c;
    gnt   = '0;
    gnt_v = 1'b0;
    c     = '0;
    if (held) begin
      gnt   = held_idx;
      gnt_v = 1'b1;
    end else if (!full) begin
      for (int k = N - 1; k >= 0; k--) begin
        c = (IW + 1)'(rr) + (IW + 1)'(k);
        if (c >= (IW + 1)'(N)) c = c - (IW + 1)'(N);
        if (s_valid[c[IW-1:0]]) begin
          gnt   = c[IW-1:0];
          gnt_v = 1'b1;
        end
      end
    end
  end

  assign m_valid = gnt_v;
  assign idle    = (wp == rp) && !held && !(|s_valid);
  assign m_req   = s_req[gnt*W +: W];
  always_comb begin
    s_ready = '0;
    s_ready[gnt] = gnt_v && m_ready;
    s_rsp_valid = '0;
    s_rsp_valid[fifo[rp[DW-1:0]]] = m_rsp_valid;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      wp       <= '0;
      rp       <= '0;
      rr       <= '0;
      held     <= 1'b0;
      held_idx <= '0;
      for (int i = 0; i < DEPTH; i++) fifo[i] <= '0;
    end else begin
      if (gnt_v && m_ready) begin
        fifo[wp[DW-1:0]] <= gnt;
        wp   <= wp + 1'b1;
        held <= 1'b0;
        rr   <= (32'(gnt) == N - 1) ? '0 : gnt + 1'b1;
      end else if (gnt_v) begin
        held     <= 1'b1;
        held_idx <= gnt;
      end
      if (m_rsp_valid) rp <= rp + 1'b1;
    end
  end

endmodule
