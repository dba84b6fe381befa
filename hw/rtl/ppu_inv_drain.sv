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

  localparam logic [NP-1:0] COUNT = {WR_COUNT, RD_COUNT};
  logic [NP-1:0] p_valid, p_ready, p_rsp, p_held;
  assign p_valid = {wr_valid, rd_valid};
  assign p_ready = {wr_ready, rd_ready};
  assign p_rsp   = {wr_rsp_valid, rd_rsp_valid};
  // (Which hold guards a port is fixed: wired per port, not searched for
  // on every cycle.)
  localparam logic [NP*8-1:0] HOLD_OF = {WR_HOLD, RD_HOLD};
  for (genvar i = 0; i < NP; i++) begin : g_held
    localparam int unsigned H = 32'(HOLD_OF[i*8 +: 8]);
    if (H < NHOLD) begin : g_on
      assign p_held[i] = hold[H];
    end else begin : g_off
      assign p_held[i] = 1'b0;
    end
  end

  logic [CW-1:0] out_q [NP];     // accepted, not yet answered
  logic [CW-1:0] left_q [NP];    // old responses still to come
  logic [NP-1:0] taken_q;        // the port's old accesses are counted
  logic          pend_q;

  // An access is issued when the arbiter says ready to its client: what
  // the port issues is counted, whatever the client shows.  (A pushbuffer
  // fetch that withdrew a read under a stalled grant once had it issued and
  // answered uncounted; the count went below zero at the answer, and
  // INV_PENDING stayed up for good at the next invalidate.  The fetch no
  // longer withdraws; ppu_inv_drain_chk watches for the count.)
  // Only counted ports keep counts (the masks are constants, so the loops
  // below leave the others out), and the next count is formed inside the
  // clocked block: as a combinational signal of the memory ports it would
  // be settled again on every input change of the simulation.
  function automatic logic [CW-1:0] out_next(input logic [CW-1:0] out, input logic fire,
                                             input logic rsp);
    out_next = out + CW'(fire) - CW'(rsp);
  endfunction

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      pend_q  <= 1'b0;
      taken_q <= '0;
      for (int i = 0; i < NP; i++) begin
        out_q[i]  <= '0;
        left_q[i] <= '0;
      end
    end else begin
      for (int i = 0; i < NP; i++)
        if (COUNT[i]) out_q[i] <= out_next(out_q[i], p_ready[i], p_rsp[i]);
      if (invalidate) begin
        pend_q  <= 1'b1;
        taken_q <= ~COUNT;
      end else if (pend_q) begin
        for (int i = 0; i < NP; i++) begin
          if (COUNT[i] && !taken_q[i] && !p_held[i]) begin
            taken_q[i] <= 1'b1;
            left_q[i]  <= out_next(out_q[i], p_ready[i], p_rsp[i]) +
                          CW'(p_valid[i] && !p_ready[i]);
          end else if (taken_q[i] && COUNT[i] && left_q[i] != '0 && p_rsp[i]) begin
            left_q[i] <= left_q[i] - CW'(1);
          end
        end
        if (&taken_q && !(|hold)) begin
          logic none;
          none = 1'b1;
          for (int i = 0; i < NP; i++)
            if (COUNT[i] && left_q[i] != '0) none = 1'b0;
          if (none) pend_q <= 1'b0;
        end
      end
    end
  end

  assign pending = pend_q || invalidate;

endmodule
