// SPDX-License-Identifier: MIT
// Attaches the AXI protocol checkers to the FPGA top's three interfaces.
// Listed only by the FPGA simulation build (hw/fpga/fpga.mk), like
// hw/chk/ppu_chk_bind.sv for the PPU's own checkers.
bind ppu_fpga_top ppu_axil_chk #(.AW(AXIL_ADDR_W), .NAME("BAR0 AXI-Lite")) u_chk_axil (
    .clk, .rst_n,
    .awvalid(s_axil_awvalid), .awready(s_axil_awready), .awaddr(s_axil_awaddr), .awprot(s_axil_awprot),
    .wvalid(s_axil_wvalid), .wready(s_axil_wready), .wdata(s_axil_wdata), .wstrb(s_axil_wstrb),
    .bvalid(s_axil_bvalid), .bready(s_axil_bready), .bresp(s_axil_bresp),
    .arvalid(s_axil_arvalid), .arready(s_axil_arready), .araddr(s_axil_araddr), .arprot(s_axil_arprot),
    .rvalid(s_axil_rvalid), .rready(s_axil_rready), .rdata(s_axil_rdata), .rresp(s_axil_rresp));
bind ppu_fpga_top ppu_axi_chk #(
    .AW(DMA_ADDR_W), .DW(DMA_DATA_W), .IDW(DMA_ID_W), .NAME("DMA (system memory)")
) u_chk_m_dma (
    .clk, .rst_n,
    .awvalid(m_dma_awvalid), .awready(m_dma_awready), .awaddr(m_dma_awaddr),
    .awlen(m_dma_awlen), .awsize(m_dma_awsize), .awburst(m_dma_awburst), .awid(m_dma_awid),
    .awcache(m_dma_awcache), .awprot(m_dma_awprot), .awlock(m_dma_awlock),
    .wvalid(m_dma_wvalid), .wready(m_dma_wready), .wdata(m_dma_wdata), .wstrb(m_dma_wstrb),
    .wlast(m_dma_wlast), .bvalid(m_dma_bvalid), .bready(m_dma_bready), .bresp(m_dma_bresp),
    .bid(m_dma_bid), .arvalid(m_dma_arvalid), .arready(m_dma_arready), .araddr(m_dma_araddr),
    .arlen(m_dma_arlen), .arsize(m_dma_arsize), .arburst(m_dma_arburst), .arid(m_dma_arid),
    .arcache(m_dma_arcache), .arprot(m_dma_arprot), .arlock(m_dma_arlock),
    .rvalid(m_dma_rvalid), .rready(m_dma_rready), .rdata(m_dma_rdata), .rresp(m_dma_rresp),
    .rlast(m_dma_rlast), .rid(m_dma_rid));
bind ppu_fpga_top ppu_axi_chk #(
    .AW(DDR_ADDR_W), .DW(DDR_DATA_W), .IDW(DDR_ID_W), .NAME("DDR (local memory)")
) u_chk_m_ddr (
    .clk, .rst_n,
    .awvalid(m_ddr_awvalid), .awready(m_ddr_awready), .awaddr(m_ddr_awaddr),
    .awlen(m_ddr_awlen), .awsize(m_ddr_awsize), .awburst(m_ddr_awburst), .awid(m_ddr_awid),
    .awcache(m_ddr_awcache), .awprot(m_ddr_awprot), .awlock(m_ddr_awlock),
    .wvalid(m_ddr_wvalid), .wready(m_ddr_wready), .wdata(m_ddr_wdata), .wstrb(m_ddr_wstrb),
    .wlast(m_ddr_wlast), .bvalid(m_ddr_bvalid), .bready(m_ddr_bready), .bresp(m_ddr_bresp),
    .bid(m_ddr_bid), .arvalid(m_ddr_arvalid), .arready(m_ddr_arready), .araddr(m_ddr_araddr),
    .arlen(m_ddr_arlen), .arsize(m_ddr_arsize), .arburst(m_ddr_arburst), .arid(m_ddr_arid),
    .arcache(m_ddr_arcache), .arprot(m_ddr_arprot), .arlock(m_ddr_arlock),
    .rvalid(m_ddr_rvalid), .rready(m_ddr_rready), .rdata(m_ddr_rdata), .rresp(m_ddr_rresp),
    .rlast(m_ddr_rlast), .rid(m_ddr_rid));
