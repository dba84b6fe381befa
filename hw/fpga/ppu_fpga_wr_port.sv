// SPDX-License-Identifier: MIT
// One AXI4 write master (an aperture).  Write beats of the PPU become INCR
// bursts of 8-byte narrow transfers (AWSIZE = 3) with one AWID; the data
// waits here until its burst's address has been accepted (W never leads
// AW: some interconnects deadlock on write data without an address), then
// streams with its strobes in the lane of its address and WLAST on the
// burst's last beat.  One B answers the whole burst: its response is the
// answer of every beat of it (SLVERR or DECERR: err, a BUS_ERROR fault of
// the channel that wrote), handed to the ROB one slot per cycle.
module ppu_fpga_wr_port #(
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
  input  logic [63:0]              req_data,
  input  logic [7:0]               req_strb,
  input  logic [$clog2(SLOTS)-1:0] req_slot,
  output logic                     req_ready,
  // AXI4 write address
  output logic                     awvalid,
  input  logic                     awready,
  output logic [AXI_AW-1:0]        awaddr,
  output logic [7:0]               awlen,
  output logic [2:0]               awsize,
  output logic [1:0]               awburst,
  output logic [ID_W-1:0]          awid,
  output logic [3:0]               awcache,
  output logic [2:0]               awprot,
  output logic                     awlock,
  // AXI4 write data
  output logic                     wvalid,
  input  logic                     wready,
  output logic [DW-1:0]            wdata,
  output logic [DW/8-1:0]          wstrb,
  output logic                     wlast,
  // AXI4 write response
  input  logic                     bvalid,
  output logic                     bready,
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [1:0]               bresp,   // bit 0 alone is EXOKAY: never asked for
  input  logic [ID_W-1:0]          bid,     // one ID: the checker verifies it
  /* verilator lint_on UNUSEDSIGNAL */
  // the write ROB's fill port, shared with the other aperture
  output logic                     fill_req,
  input  logic                     fill_grant,
  output logic [$clog2(SLOTS)-1:0] fill_slot,
  output logic                     fill_err,
  input  logic [PA_W-1:0]          hz_pa,
  output logic                     hz_hit,
  output logic                     empty
);
  localparam int unsigned LANES = DW / 64;
  localparam int unsigned LW = LANES > 1 ? $clog2(LANES) : 1;
  localparam int unsigned SW = $clog2(SLOTS);

  logic            iss_valid, dat_valid, dat_done, bq_empty, head_done;
  logic [PA_W-4:0] iss_beat;
  logic [7:0]      iss_len, dat_len, head_len, wcnt_q, left_q;
  logic [LW-1:0]   req_lane, w_lane;
  logic [63:0]     w_data;
  logic [7:0]      w_strb;
  logic            w_empty, s_empty, w_fire, cmp_q, err_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic            w_full, s_full;     // as deep as the ROB: never full while it has room
  /* verilator lint_on UNUSEDSIGNAL */

  assign req_lane = LANES > 1 ? LW'(req_pa >> 3) : '0;

  ppu_fpga_bq #(.NB(NB), .MAX_BURST(MAX_BURST), .PA_W(PA_W)) u_bq (
      .clk, .rst_n, .beat_valid(req_valid), .beat_pa(req_pa), .beat_ready(req_ready),
      .iss_valid, .iss_beat, .iss_len, .iss_take(awvalid && awready),
      .dat_valid, .dat_len, .dat_done, .head_len, .head_done,
      .hz_pa, .hz_hit, .empty(bq_empty));

  ppu_fpga_fifo #(.W(64 + 8 + LW), .DEPTH(SLOTS)) u_wdata (
      .clk, .rst_n, .push(req_valid && req_ready), .push_data({req_data, req_strb, req_lane}),
      .pop(w_fire), .head({w_data, w_strb, w_lane}), .empty(w_empty), .full(w_full));

  ppu_fpga_fifo #(.W(SW), .DEPTH(SLOTS)) u_slots (
      .clk, .rst_n, .push(req_valid && req_ready), .push_data(req_slot),
      .pop(fill_req && fill_grant), .head(fill_slot), .empty(s_empty), .full(s_full));

  assign awvalid = iss_valid;
  assign awaddr  = BASE + AXI_AW'({iss_beat, 3'b000});
  assign awlen   = iss_len;
  assign awsize  = 3'd3;
  assign awburst = 2'b01;          // INCR
  assign awid    = ID;
  assign awcache = CACHE;
  assign awprot  = 3'b000;
  assign awlock  = 1'b0;

  // A closed burst's beats are all in the FIFO, so !w_empty only guards.
  assign wvalid   = dat_valid && !w_empty;
  assign wdata    = {LANES{w_data}};
  assign wstrb    = (DW/8)'(w_strb) << (8 * w_lane);
  assign wlast    = wcnt_q == dat_len;
  assign w_fire   = wvalid && wready;
  assign dat_done = w_fire && wlast;

  // B of the oldest burst, then its beats' slots one per cycle.
  assign bready    = !cmp_q;
  assign fill_req  = cmp_q && !s_empty;
  assign fill_err  = err_q;
  assign head_done = fill_req && fill_grant && left_q == 0;
  assign empty     = bq_empty && !cmp_q;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      wcnt_q <= '0;
      cmp_q  <= 1'b0;
      err_q  <= 1'b0;
      left_q <= '0;
    end else begin
      if (w_fire) wcnt_q <= wlast ? '0 : wcnt_q + 1'b1;
      if (bvalid && bready) begin
        cmp_q  <= 1'b1;
        err_q  <= bresp[1];
        left_q <= head_len;
      end else if (fill_req && fill_grant) begin
        if (left_q == 0) cmp_q <= 1'b0;
        else left_q <= left_q - 1'b1;
      end
    end
  end
endmodule
