// SPDX-License-Identifier: MIT
// One AXI4 read master (an aperture: system memory through the PCIe DMA
// bridge, or local memory through the DDR controller).  Beats of the
// PPU's read port become INCR bursts of 8-byte narrow transfers
// (ARSIZE = 3) on a DW-bit bus, all with one ARID, so the slave answers
// them in order; each R beat goes back to the ROB slot its request took,
// its 64-bit lane picked by the request's address.
// RRESP SLVERR or DECERR makes the beat's answer an error, which the PPU's
// requesting unit turns into a BUS_ERROR fault of its channel.
module ppu_fpga_rd_port #(
  parameter int unsigned AXI_AW = 64,
  parameter int unsigned DW = 128,
  parameter int unsigned ID_W = 4,
  parameter logic [ID_W-1:0] ID = '0,
  parameter logic [AXI_AW-1:0] BASE = '0,
  parameter logic [3:0]  CACHE = 4'b0011,
  parameter int unsigned NB = 16,
  parameter int unsigned MAX_BURST = 16,
  parameter int unsigned SLOTS = 64,
  parameter int unsigned PA_W = 34
) (
  input  logic                     clk,
  input  logic                     rst_n,
  input  logic                     req_valid,
  input  logic [PA_W-1:0]          req_pa,
  input  logic [$clog2(SLOTS)-1:0] req_slot,
  output logic                     req_ready,
  // AXI4 read address
  output logic                     arvalid,
  input  logic                     arready,
  output logic [AXI_AW-1:0]        araddr,
  output logic [7:0]               arlen,
  output logic [2:0]               arsize,
  output logic [1:0]               arburst,
  output logic [ID_W-1:0]          arid,
  output logic [3:0]               arcache,
  output logic [2:0]               arprot,
  output logic                     arlock,
  // AXI4 read data
  input  logic                     rvalid,
  output logic                     rready,
  input  logic [DW-1:0]            rdata,
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [1:0]               rresp,   // bit 0 alone is EXOKAY: never asked for
  input  logic                     rlast,   // the burst's own count decides; hw/fpga/chk checks RLAST
  input  logic [ID_W-1:0]          rid,     // one ID: the checker verifies it
  /* verilator lint_on UNUSEDSIGNAL */
  // the ROB's fill port, shared with the other aperture
  output logic                     fill_req,
  input  logic                     fill_grant,
  output logic [$clog2(SLOTS)-1:0] fill_slot,
  output logic [63:0]              fill_data,
  output logic                     fill_err,
  // hazard query and state
  input  logic [PA_W-1:0]          hz_pa,
  output logic                     hz_hit,
  output logic                     empty
);
  localparam int unsigned LANES = DW / 64;
  localparam int unsigned LW = LANES > 1 ? $clog2(LANES) : 1;
  localparam int unsigned SW = $clog2(SLOTS);

  logic          iss_valid, dat_valid, dat_done, bq_empty, fifo_empty;
  logic [PA_W-4:0] iss_beat;
  logic [7:0]    iss_len, dat_len, head_len, cnt_q;
  logic [LW-1:0] req_lane, beat_lane;
  logic          r_fire;

  assign req_lane = LANES > 1 ? LW'(req_pa >> 3) : '0;

  ppu_fpga_bq #(.NB(NB), .MAX_BURST(MAX_BURST), .PA_W(PA_W)) u_bq (
      .clk, .rst_n, .beat_valid(req_valid), .beat_pa(req_pa), .beat_ready(req_ready),
      .iss_valid, .iss_beat, .iss_len, .iss_take(arvalid && arready),
      .dat_valid, .dat_len, .dat_done, .head_len, .head_done(dat_done),
      .hz_pa, .hz_hit, .empty(bq_empty));

  // Slots of the beats in flight, in request order.  As deep as the ROB:
  // never full while the ROB has room.
  /* verilator lint_off UNUSEDSIGNAL */
  logic fifo_full;
  /* verilator lint_on UNUSEDSIGNAL */
  ppu_fpga_fifo #(.W(SW + LW), .DEPTH(SLOTS)) u_slots (
      .clk, .rst_n, .push(req_valid && req_ready), .push_data({req_slot, req_lane}),
      .pop(r_fire), .head({fill_slot, beat_lane}), .empty(fifo_empty), .full(fifo_full));

  assign arvalid = iss_valid;
  assign araddr  = BASE + AXI_AW'({iss_beat, 3'b000});
  assign arlen   = iss_len;
  assign arsize  = 3'd3;
  assign arburst = 2'b01;          // INCR
  assign arid    = ID;
  assign arcache = CACHE;
  assign arprot  = 3'b000;         // unprivileged, secure, data
  assign arlock  = 1'b0;

  // The slave answers only what was issued, so a beat always has its slot;
  // the guard keeps a misbehaving slave from popping an empty FIFO.
  assign fill_req  = rvalid && dat_valid && !fifo_empty;
  assign rready    = fill_req && fill_grant;
  assign r_fire    = rvalid && rready;
  assign fill_data = rdata[64*beat_lane +: 64];
  assign fill_err  = rresp[1];     // SLVERR, DECERR
  assign dat_done  = r_fire && cnt_q == dat_len;
  assign empty     = bq_empty;

  always_ff @(posedge clk) begin
    if (!rst_n) cnt_q <= '0;
    else if (r_fire) cnt_q <= dat_done ? '0 : cnt_q + 1'b1;
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic [7:0] unused_head_len;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_head_len = head_len;   // reads complete with their data
endmodule
