// SPDX-License-Identifier: MIT
// AXI4-Lite slave for BAR0 (the PCIe shell's BAR-to-AXI-Lite bridge) onto
// the PPU's register bus: one access at a time, as the bus takes them.
// Registers are 32 bits with no read side effects (docs/registers.md), so
// a write must carry all four strobes: a partial write, or an address the
// register bus cannot carry (ADDR_W > REG_AW), is answered SLVERR without
// touching the PPU, and such a read returns 0 with SLVERR.  A write's
// address and data may come in either order; a read waits while half a
// write is held, so the two cannot deadlock a master that sends AW and W
// in separate cycles.
module ppu_fpga_axil #(
  parameter int unsigned ADDR_W = 16,    // the shell's BAR0 window, bits
  parameter int unsigned REG_AW = 16     // ppu_top reg_req_addr width
) (
  input  logic              clk,
  input  logic              rst_n,
  input  logic              awvalid,
  output logic              awready,
  input  logic [ADDR_W-1:0] awaddr,
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [2:0]        awprot,      // every access is the same to the PPU
  input  logic [2:0]        arprot,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic              wvalid,
  output logic              wready,
  input  logic [31:0]       wdata,
  input  logic [3:0]        wstrb,
  output logic              bvalid,
  input  logic              bready,
  output logic [1:0]        bresp,
  input  logic              arvalid,
  output logic              arready,
  input  logic [ADDR_W-1:0] araddr,
  output logic              rvalid,
  input  logic              rready,
  output logic [31:0]       rdata,
  output logic [1:0]        rresp,
  // the PPU's register bus
  output logic              reg_req_valid,
  input  logic              reg_req_ready,
  output logic              reg_req_write,
  output logic [REG_AW-1:0] reg_req_addr,
  output logic [31:0]       reg_req_wdata,
  input  logic              reg_rsp_valid,
  input  logic [31:0]       reg_rsp_rdata
);
  localparam logic [1:0] OKAY = 2'b00, SLVERR = 2'b10;

  typedef enum logic [2:0] { IDLE, REQ, WAIT, BRESP, RRESP } state_e;
  state_e state_q;
  logic              aw_q, w_q;
  logic [ADDR_W-1:0] addr_q;
  logic [31:0]       wdata_q;
  logic [3:0]        wstrb_q;
  logic              ok, fits;

  // Bits above the register bus's must be zero (32-bit compare: the shift
  // is legal whatever the widths).
  assign fits = (32'(addr_q) >> REG_AW) == 0;

  assign awready = state_q == IDLE && !aw_q;
  assign wready  = state_q == IDLE && !w_q;
  assign arready = state_q == IDLE && !aw_q && !w_q;
  assign ok      = fits && (!reg_req_write || wstrb_q == 4'hf);

  assign reg_req_valid = state_q == REQ && ok;
  assign reg_req_addr  = REG_AW'(addr_q);
  assign reg_req_wdata = wdata_q;
  assign bvalid = state_q == BRESP;
  assign rvalid = state_q == RRESP;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state_q       <= IDLE;
      aw_q          <= 1'b0;
      w_q           <= 1'b0;
      addr_q        <= '0;
      wdata_q       <= '0;
      wstrb_q       <= '0;
      reg_req_write <= 1'b0;
      bresp         <= OKAY;
      rresp         <= OKAY;
      rdata         <= '0;
    end else begin
      case (state_q)
        IDLE: begin
          if (awvalid && awready) begin
            aw_q   <= 1'b1;
            addr_q <= awaddr;
          end
          if (wvalid && wready) begin
            w_q     <= 1'b1;
            wdata_q <= wdata;
            wstrb_q <= wstrb;
          end
          if (aw_q && w_q) begin
            aw_q          <= 1'b0;
            w_q           <= 1'b0;
            reg_req_write <= 1'b1;
            state_q       <= REQ;
          end else if (arvalid && arready) begin
            addr_q        <= araddr;
            reg_req_write <= 1'b0;
            state_q       <= REQ;
          end
        end
        REQ: begin
          if (!ok) begin
            bresp   <= SLVERR;
            rresp   <= SLVERR;
            rdata   <= '0;
            state_q <= reg_req_write ? BRESP : RRESP;
          end else if (reg_req_ready) begin
            state_q <= WAIT;
            if (reg_rsp_valid) begin
              bresp   <= OKAY;
              rresp   <= OKAY;
              rdata   <= reg_rsp_rdata;
              state_q <= reg_req_write ? BRESP : RRESP;
            end
          end
        end
        WAIT: begin
          if (reg_rsp_valid) begin
            bresp   <= OKAY;
            rresp   <= OKAY;
            rdata   <= reg_rsp_rdata;
            state_q <= reg_req_write ? BRESP : RRESP;
          end
        end
        BRESP: if (bready) state_q <= IDLE;
        RRESP: if (rready) state_q <= IDLE;
        default: state_q <= IDLE;
      endcase
    end
  end
endmodule
