// SPDX-License-Identifier: MIT
// The PPU's memory port (one read and one write channel, single 8-byte
// beats, answers in request order) spread over four AXI directions: reads
// and writes of local memory and of system memory, each a burst queue
// (ppu_fpga_rd_port, ppu_fpga_wr_port).  This block keeps the port's
// contract that the harness's memory model gives the PPU
// (docs/harness.md):
//  - answers in request order per channel: a reorder buffer per direction;
//  - a read sees every write accepted before it and none accepted after
//    it: AXI orders neither reads against writes nor one master against
//    another, so a request waits while a burst of the other direction that
//    covers its beat is live (from the beat that opened it until its last
//    R or its B), and a write waits for a read of the same beat accepted
//    in the same cycle (the harness's order within a cycle: read first).
//    Writes among themselves stay in order: one AWID per aperture.
// Ready depends on the request (its aperture and address); ppu_mem_arb
// holds a request that is not taken, and its grant does not look at ready.
module ppu_fpga_mem #(
  parameter int unsigned RD_SLOTS = 256,   // reads in flight (ROB depth)
  parameter int unsigned WR_SLOTS = 64,    // writes in flight
  parameter int unsigned PA_W = 34,
  parameter int unsigned TAG_W = 3
) (
  input  logic                        clk,
  input  logic                        rst_n,
  // the PPU's memory port (ppu_top mem_*)
  input  logic                        rd_valid,
  output logic                        rd_ready,
  input  logic                        rd_sys,
  input  logic [PA_W-1:0]             rd_addr,
  input  logic [TAG_W-1:0]            rd_tag,
  output logic                        rd_rsp_valid,
  output logic [63:0]                 rd_rsp_data,
  output logic                        rd_rsp_err,
  output logic [TAG_W-1:0]            rd_rsp_tag,
  input  logic                        wr_valid,
  output logic                        wr_ready,
  input  logic                        wr_sys,
  input  logic [PA_W-1:0]             wr_addr,
  input  logic [TAG_W-1:0]            wr_tag,
  input  logic [63:0]                 wr_data,
  input  logic [7:0]                  wr_strb,
  output logic                        wr_rsp_valid,
  output logic                        wr_rsp_err,
  output logic [TAG_W-1:0]            wr_rsp_tag,
  // read ports, [0] local memory, [1] system memory
  output logic [1:0]                  prd_valid,
  output logic [PA_W-1:0]             prd_pa,
  output logic [$clog2(RD_SLOTS)-1:0] prd_slot,
  input  logic [1:0]                  prd_ready,
  input  logic [1:0]                  prd_fill_req,
  output logic [1:0]                  prd_fill_grant,
  input  logic [2*$clog2(RD_SLOTS)-1:0] prd_fill_slot,  // [1] system, [0] local
  input  logic [2*64-1:0]             prd_fill_data,
  input  logic [1:0]                  prd_fill_err,
  input  logic [1:0]                  prd_hz_hit,    // a live read covers wr_addr
  input  logic [1:0]                  prd_empty,
  // write ports
  output logic [1:0]                  pwr_valid,
  output logic [PA_W-1:0]             pwr_pa,
  output logic [63:0]                 pwr_data,
  output logic [7:0]                  pwr_strb,
  output logic [$clog2(WR_SLOTS)-1:0] pwr_slot,
  input  logic [1:0]                  pwr_ready,
  input  logic [1:0]                  pwr_fill_req,
  output logic [1:0]                  pwr_fill_grant,
  input  logic [2*$clog2(WR_SLOTS)-1:0] pwr_fill_slot,
  input  logic [1:0]                  pwr_fill_err,
  input  logic [1:0]                  pwr_hz_hit,    // a live write covers rd_addr
  input  logic [1:0]                  pwr_empty,
  output logic                        wr_fire,       // a write beat taken from the PPU
  output logic                        empty          // nothing accepted and unanswered
);
  localparam int unsigned RSW = $clog2(RD_SLOTS);
  localparam int unsigned WSW = $clog2(WR_SLOTS);

  logic rd_full, wr_full, rd_fire, rd_empty, wr_empty, same_beat;
  logic rd_rr_q, wr_rr_q;
  logic [$clog2(RD_SLOTS)-1:0] rd_slot;
  logic [$clog2(WR_SLOTS)-1:0] wr_slot;

  // ---- reads ----
  assign rd_ready  = !rd_full && prd_ready[rd_sys] && !pwr_hz_hit[rd_sys];
  assign rd_fire   = rd_valid && rd_ready;
  assign prd_valid = {rd_fire && rd_sys, rd_fire && !rd_sys};
  assign prd_pa    = rd_addr;
  assign prd_slot  = rd_slot;

  // Round robin between the apertures for the one fill port.
  assign prd_fill_grant[0] = prd_fill_req[0] && (!prd_fill_req[1] || !rd_rr_q);
  assign prd_fill_grant[1] = prd_fill_req[1] && (!prd_fill_req[0] || rd_rr_q);

  ppu_fpga_rob #(.DEPTH(RD_SLOTS), .DW(64), .TAG_W(TAG_W)) u_rd_rob (
      .clk, .rst_n, .alloc(rd_fire), .alloc_tag(rd_tag), .alloc_slot(rd_slot), .full(rd_full),
      .fill(|prd_fill_grant), .fill_slot(prd_fill_slot[prd_fill_grant[1]*RSW +: RSW]),
      .fill_data(prd_fill_data[prd_fill_grant[1]*64 +: 64]), .fill_err(prd_fill_err[prd_fill_grant[1]]),
      .rsp_valid(rd_rsp_valid), .rsp_tag(rd_rsp_tag), .rsp_data(rd_rsp_data),
      .rsp_err(rd_rsp_err), .empty(rd_empty));

  // ---- writes ----
  assign same_beat = rd_fire && rd_sys == wr_sys && rd_addr[PA_W-1:3] == wr_addr[PA_W-1:3];
  assign wr_ready  = !wr_full && pwr_ready[wr_sys] && !prd_hz_hit[wr_sys] && !same_beat;
  assign wr_fire   = wr_valid && wr_ready;
  assign pwr_valid = {wr_fire && wr_sys, wr_fire && !wr_sys};
  assign pwr_pa    = wr_addr;
  assign pwr_data  = wr_data;
  assign pwr_strb  = wr_strb;
  assign pwr_slot  = wr_slot;

  assign pwr_fill_grant[0] = pwr_fill_req[0] && (!pwr_fill_req[1] || !wr_rr_q);
  assign pwr_fill_grant[1] = pwr_fill_req[1] && (!pwr_fill_req[0] || wr_rr_q);

  /* verilator lint_off UNUSEDSIGNAL */
  logic wr_rsp_data;   // writes answer with no data
  /* verilator lint_on UNUSEDSIGNAL */
  ppu_fpga_rob #(.DEPTH(WR_SLOTS), .DW(1), .TAG_W(TAG_W)) u_wr_rob (
      .clk, .rst_n, .alloc(wr_fire), .alloc_tag(wr_tag), .alloc_slot(wr_slot), .full(wr_full),
      .fill(|pwr_fill_grant), .fill_slot(pwr_fill_slot[pwr_fill_grant[1]*WSW +: WSW]),
      .fill_data(1'b0), .fill_err(pwr_fill_err[pwr_fill_grant[1]]),
      .rsp_valid(wr_rsp_valid), .rsp_tag(wr_rsp_tag), .rsp_data(wr_rsp_data),
      .rsp_err(wr_rsp_err), .empty(wr_empty));

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      rd_rr_q <= 1'b0;
      wr_rr_q <= 1'b0;
    end else begin
      if (&prd_fill_req) rd_rr_q <= !rd_rr_q;
      if (&pwr_fill_req) wr_rr_q <= !wr_rr_q;
    end
  end

  assign empty = rd_empty && wr_empty && &prd_empty && &pwr_empty;
endmodule
