// SPDX-License-Identifier: MIT
// Invalidate handshake (MMU_STATUS.INV_PENDING): after an MMU invalidate,
// tells software when no memory access can still use a translation made
// before it, so that the pages the old translations pointed at may be
// reused (docs/hw-internals.md "Invalidate handshake").
//
// The MMU answers nothing stale after the invalidate cycle (ppu_mmu).  What
// remains is what the engines already hold:
//  - translations kept inside an engine (the copy engine's page slots, the
//    pushbuffer fetch's page, a semaphore operation under way, the compute
//    units' and task table's accesses): each engine raises hold[h] from the
//    invalidate cycle until it holds none and has handed every access made
//    with one to its memory port;
//  - accesses at the memory ports: per counted client port, once its hold
//    is down, the requests accepted and not yet answered plus one presented
//    and not yet accepted are the old ones (the memory answers each port in
//    request order), and the port's next that many responses end them.
// INV_PENDING falls when every counted port has seen its old responses and
// no hold is up.  A new invalidate while pending starts the count again.
// Ports whose engine counts for itself (hold covers them) or that never
// translate (physical host accesses, page walks) are left out by the masks.
module ppu_inv_drain #(
    parameter int unsigned NRD = 6,
    parameter int unsigned NWR = 4,
    parameter int unsigned NHOLD = 1,
    parameter logic [NRD-1:0] RD_COUNT = '1,   // read ports to count
    parameter logic [NWR-1:0] WR_COUNT = '1,   // write ports to count
    // hold input that guards each read / write port (the port is counted
    // from the first cycle its hold is down); an index >= NHOLD: none
    parameter logic [NRD*8-1:0] RD_HOLD = '1,
    parameter logic [NWR*8-1:0] WR_HOLD = '1
) (
    input  logic             clk,
    input  logic             rst_n,
    input  logic             invalidate,
    input  logic [NHOLD-1:0] hold,
    input  logic [NRD-1:0]   rd_valid,
    input  logic [NRD-1:0]   rd_ready,
    input  logic [NRD-1:0]   rd_rsp_valid,
    input  logic [NWR-1:0]   wr_valid,
    input  logic [NWR-1:0]   wr_ready,
    input  logic [NWR-1:0]   wr_rsp_valid,
    output logic             pending
);
  localparam int unsigned NP = NRD + NWR;
  localparam int unsigned CW = 16;

  logic [NP-1:0] p_valid, p_ready, p_rsp, p_count, p_held;
  always_comb begin
    for (int i = 0; i < NRD; i++) begin
      p_valid[i] = rd_valid[i];
      p_ready[i] = rd_ready[i];
      p_rsp[i]   = rd_rsp_valid[i];
      p_count[i] = RD_COUNT[i];
      p_held[i]  = 1'b0;
      for (int h = 0; h < NHOLD; h++)
        if (32'(RD_HOLD[i*8 +: 8]) == h) p_held[i] = hold[h];
    end
    for (int i = 0; i < NWR; i++) begin
      p_valid[NRD+i] = wr_valid[i];
      p_ready[NRD+i] = wr_ready[i];
      p_rsp[NRD+i]   = wr_rsp_valid[i];
      p_count[NRD+i] = WR_COUNT[i];
      p_held[NRD+i]  = 1'b0;
      for (int h = 0; h < NHOLD; h++)
        if (32'(WR_HOLD[i*8 +: 8]) == h) p_held[NRD+i] = hold[h];
    end
  end

  logic [CW-1:0] out_q [NP];     // accepted, not yet answered
  logic [CW-1:0] left_q [NP];    // old responses still to come
  logic [NP-1:0] taken_q;        // the port's old accesses are counted
  logic          pend_q;

  logic [CW-1:0] out_next [NP];
  always_comb
    for (int i = 0; i < NP; i++)
      out_next[i] = out_q[i] + CW'(p_valid[i] && p_ready[i]) - CW'(p_rsp[i]);

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      pend_q  <= 1'b0;
      taken_q <= '0;
      for (int i = 0; i < NP; i++) begin
        out_q[i]  <= '0;
        left_q[i] <= '0;
      end
    end else begin
      for (int i = 0; i < NP; i++) out_q[i] <= out_next[i];
      if (invalidate) begin
        pend_q  <= 1'b1;
        taken_q <= ~p_count;
      end else if (pend_q) begin
        for (int i = 0; i < NP; i++) begin
          if (!taken_q[i] && !p_held[i]) begin
            taken_q[i] <= 1'b1;
            left_q[i]  <= out_next[i] + CW'(p_valid[i] && !p_ready[i]);
          end else if (taken_q[i] && p_count[i] && left_q[i] != '0 && p_rsp[i]) begin
            left_q[i] <= left_q[i] - CW'(1);
          end
        end
        if (&taken_q && !(|hold)) begin
          logic none;
          none = 1'b1;
          for (int i = 0; i < NP; i++)
            if (p_count[i] && left_q[i] != '0) none = 1'b0;
          if (none) pend_q <= 1'b0;
        end
      end
    end
  end

  assign pending = pend_q || invalidate;

endmodule
