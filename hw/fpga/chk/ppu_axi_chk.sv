// SPDX-License-Identifier: MIT
// AXI4 protocol checker for one master/slave pair, simulation only
// (hw/fpga/chk/README.md).  It watches both sides: the shell's master
// (hw/fpga) and the C responders of the harness that play the PCIe DMA
// bridge and the DDR controller.  A violation calls ppu_chk_fail, which
// the harness counts and every test fails on.
// A checker watches whole buses and uses the fields its rules need.
/* verilator lint_off UNUSEDSIGNAL */
module ppu_axi_chk #(
  parameter int unsigned AW = 64,
  parameter int unsigned DW = 128,
  parameter int unsigned IDW = 4,
  parameter string       NAME = "axi",
  parameter int unsigned QD = 256          // bursts outstanding per ID, at most
) (
  input logic           clk,
  input logic           rst_n,
  input logic           awvalid,
  input logic           awready,
  input logic [AW-1:0]  awaddr,
  input logic [7:0]     awlen,
  input logic [2:0]     awsize,
  input logic [1:0]     awburst,
  input logic [IDW-1:0] awid,
  input logic [3:0]     awcache,
  input logic [2:0]     awprot,
  input logic           awlock,
  input logic           wvalid,
  input logic           wready,
  input logic [DW-1:0]  wdata,
  input logic [DW/8-1:0] wstrb,
  input logic           wlast,
  input logic           bvalid,
  input logic           bready,
  input logic [1:0]     bresp,
  input logic [IDW-1:0] bid,
  input logic           arvalid,
  input logic           arready,
  input logic [AW-1:0]  araddr,
  input logic [7:0]     arlen,
  input logic [2:0]     arsize,
  input logic [1:0]     arburst,
  input logic [IDW-1:0] arid,
  input logic [3:0]     arcache,
  input logic [2:0]     arprot,
  input logic           arlock,
  input logic           rvalid,
  input logic           rready,
  input logic [DW-1:0]  rdata,
  input logic [1:0]     rresp,
  input logic           rlast,
  input logic [IDW-1:0] rid
);
  localparam int unsigned NID = 1 << IDW;
  localparam int unsigned SB = DW / 8;     // bytes per bus beat
  localparam logic [1:0] FIXED = 2'b00, INCR = 2'b01, WRAP = 2'b10;

  // ---- VALID held until READY, payload stable meanwhile ----
  ppu_chk_hs #(.W(AW + 8 + 3 + 2 + IDW + 4 + 3 + 1), .NAME({NAME, " AW"})) u_hs_aw (
      .clk, .rst_n, .valid(awvalid), .ready(awready),
      .payload({awaddr, awlen, awsize, awburst, awid, awcache, awprot, awlock}));
  ppu_chk_hs #(.W(DW + SB + 1), .NAME({NAME, " W"})) u_hs_w (
      .clk, .rst_n, .valid(wvalid), .ready(wready), .payload({wdata, wstrb, wlast}));
  ppu_chk_hs #(.W(2 + IDW), .NAME({NAME, " B"})) u_hs_b (
      .clk, .rst_n, .valid(bvalid), .ready(bready), .payload({bresp, bid}));
  ppu_chk_hs #(.W(AW + 8 + 3 + 2 + IDW + 4 + 3 + 1), .NAME({NAME, " AR"})) u_hs_ar (
      .clk, .rst_n, .valid(arvalid), .ready(arready),
      .payload({araddr, arlen, arsize, arburst, arid, arcache, arprot, arlock}));
  ppu_chk_hs #(.W(DW + 2 + 1 + IDW), .NAME({NAME, " R"})) u_hs_r (
      .clk, .rst_n, .valid(rvalid), .ready(rready), .payload({rdata, rresp, rlast, rid}));

  // A legal address phase: size within the bus, a defined burst type, a
  // length the type allows, and an INCR burst inside one 4 KiB page.
  function automatic string addr_error(input logic [AW-1:0] a, input logic [7:0] len,
                                       input logic [2:0] size, input logic [1:0] burst);
    int unsigned bytes = 1 << size;
    int unsigned first = 32'(a[11:0]) & ~(bytes - 1);
    if (bytes > SB) return $sformatf("size %0d bytes on a %0d-byte bus", bytes, SB);
    if (burst == 2'b11) return "reserved burst type";
    if (burst == FIXED && len > 15) return "FIXED burst longer than 16 beats";
    if (burst == WRAP && !(len == 1 || len == 3 || len == 7 || len == 15))
      return "WRAP burst length not 2, 4, 8 or 16";
    if (burst == WRAP && (32'(a) & (bytes - 1)) != 0) return "unaligned WRAP burst";
    if (burst == INCR && first + (32'(len) + 1) * bytes > 4096)
      return $sformatf("burst at 0x%0h of %0d x %0d bytes crosses 4 KiB", a, 32'(len) + 1, bytes);
    if ((ppu_chk_pkg::ppu_chk_selftest() & ppu_chk_pkg::SELFTEST_AXI) != 0 && len != 0)
      return "selftest: a burst of more than one beat";
    return "";
  endfunction

  // ---- write bursts: address phases waiting for data, in order ----
  logic [AW-1:0]  wq_addr [QD];
  logic [7:0]     wq_len  [QD];
  logic [2:0]     wq_size [QD];
  logic [1:0]     wq_burst [QD];
  logic [IDW-1:0] wq_id   [QD];
  int unsigned    wq_head, wq_tail, wcnt;
  int unsigned    bpend [NID];             // bursts whose data is done, per ID
  // ---- read bursts per ID, in order ----
  logic [7:0]     rq_len [NID][QD];
  int unsigned    rq_head [NID], rq_tail [NID], rcnt [NID];

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      wq_head <= 0;
      wq_tail <= 0;
      wcnt    <= 0;
      for (int i = 0; i < NID; i++) begin
        bpend[i]   <= 0;
        rq_head[i] <= 0;
        rq_tail[i] <= 0;
        rcnt[i]    <= 0;
      end
    end else begin
      automatic int unsigned wq_n = wq_tail - wq_head;
      automatic int unsigned bdone = 0;
      if (awvalid && awready) begin
        automatic string e = addr_error(awaddr, awlen, awsize, awburst);
        if (e != "") ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, " AW: ", e});
        if (wq_n >= QD) ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, ": too many writes in flight"});
        wq_addr[wq_tail % QD]  <= awaddr;
        wq_len[wq_tail % QD]   <= awlen;
        wq_size[wq_tail % QD]  <= awsize;
        wq_burst[wq_tail % QD] <= awburst;
        wq_id[wq_tail % QD]    <= awid;
        wq_tail <= wq_tail + 1;
      end
      if (wvalid && wready) begin
        if (wq_n == 0) begin
          // Legal AXI, but the shell promises never to do it (docs/fpga.md):
          // its WLAST could not be checked either.
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, " W: data before its address"});
        end else begin
          automatic int unsigned h = wq_head % QD;
          automatic longint unsigned bytes = 64'(1) << wq_size[h];
          automatic longint unsigned sb = 64'(SB);
          // Beat n of an INCR burst: the start address for the first,
          // the aligned start + n * size after; its bytes run to the end
          // of its size-aligned container.
          automatic longint unsigned a0 = 64'(wq_addr[h]);
          automatic longint unsigned an = wcnt == 0 ? a0 : (a0 & ~(bytes - 1)) + 64'(wcnt) * bytes;
          automatic int unsigned lo = 32'(an % sb);
          automatic int unsigned hi = 32'((an & ~(bytes - 1)) % sb + bytes - 1);
          automatic logic [SB-1:0] allowed = '0;
          for (int unsigned b = 0; b < SB; b++)
            if (b >= lo && b <= hi) allowed[b] = 1'b1;
          if (wq_burst[h] == INCR && (wstrb & ~allowed) != '0)
            ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("%s W: strobes 0x%0h outside beat %0d's bytes 0x%0h",
                                                                 NAME, wstrb, wcnt, allowed));
          if (wlast != (wcnt == 32'(wq_len[h])))
            ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("%s W: WLAST %0d on beat %0d of %0d",
                                                                 NAME, wlast, wcnt + 1, 32'(wq_len[h]) + 1));
          if (wcnt == 32'(wq_len[h])) begin
            wcnt <= 0;
            wq_head <= wq_head + 1;
            bdone = 1;
          end else begin
            wcnt <= wcnt + 1;
          end
        end
      end
      if (bvalid && bready) begin
        if (bpend[bid] == 0)   // B may not come with its burst's last W
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("%s B: ID %0d has no write burst awaiting a response",
                                                               NAME, bid));
        if (bresp == 2'b01)
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, " B: EXOKAY to a normal access"});
      end
      for (int i = 0; i < NID; i++) begin
        automatic int unsigned n = bpend[i];
        if (bdone != 0 && 32'(wq_id[wq_head % QD]) == i) n = n + 1;
        if (bvalid && bready && 32'(bid) == i && n > 0) n = n - 1;
        bpend[i] <= n;
      end

      if (arvalid && arready) begin
        automatic string e = addr_error(araddr, arlen, arsize, arburst);
        if (e != "") ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, " AR: ", e});
        if (rq_tail[arid] - rq_head[arid] >= QD)
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, ": too many reads in flight"});
        rq_len[arid][rq_tail[arid] % QD] <= arlen;
        rq_tail[arid] <= rq_tail[arid] + 1;
      end
      if (rvalid && rready) begin
        if (rq_tail[rid] == rq_head[rid]) begin
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("%s R: ID %0d has no read outstanding", NAME, rid));
        end else begin
          automatic int unsigned len = 32'(rq_len[rid][rq_head[rid] % QD]);
          if (rlast != (rcnt[rid] == len))
            ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("%s R: RLAST %0d on beat %0d of %0d",
                                                                 NAME, rlast, rcnt[rid] + 1, len + 1));
          if (rcnt[rid] == len) begin
            rcnt[rid] <= 0;
            rq_head[rid] <= rq_head[rid] + 1;
          end else begin
            rcnt[rid] <= rcnt[rid] + 1;
          end
        end
        if (rresp == 2'b01)
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), {NAME, " R: EXOKAY to a normal access"});
      end
    end
  end
endmodule
