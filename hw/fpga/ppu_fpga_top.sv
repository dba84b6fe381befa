// SPDX-License-Identifier: MIT
// The PPU in a PCIe FPGA shell (docs/fpga.md): ppu_top behind
//  - s_axil: an AXI4-Lite slave for BAR0 (the shell's BAR bridge);
//  - m_dma: an AXI4 master for the system aperture, i.e. host memory
//    through the shell's DMA bridge (XDMA/QDMA AXI bridge, Corundum,
//    LitePCIe): address = DMA_BASE + the PPU's physical address;
//  - m_ddr: an AXI4 master for the local aperture, the board's DDR/HBM
//    controller: address = DDR_BASE + the PPU's physical address;
//  - irq_req: the MSI/MSI-X request line of vector 0, the PPU's only
//    interrupt, held back until the writes before it are answered.
// One clock: the shell's AXI clock runs the PPU (docs/fpga.md says why);
// rst_n is the shell's synchronous active-low AXI reset.
module ppu_fpga_top #(
    // the PPU (ppu_top's parameters, reported in CAP_* registers)
    parameter int unsigned NUM_CHANNELS = 16,
    parameter int unsigned COPY_CHUNK_BYTES = 4096,
    parameter int unsigned COPY_MAX_READS = 256,
    parameter int unsigned TLB_ENTRIES = 16,
    parameter int unsigned PB_PREFETCH_BEATS = 16,
    parameter int unsigned CHAN_CACHE = 0,
    parameter int unsigned SCHED_SETS = 0,
    parameter int unsigned NUM_CU = 4,
    parameter int unsigned CU_CONTEXTS = 8,
    parameter int unsigned TASK_SLOTS = 8,
    parameter int unsigned NUM_TASKS = 64,
    parameter int unsigned ICACHE_BYTES = 1024,
    // BAR0 window of the AXI-Lite slave; the register bus carries 16 bits
    parameter int unsigned AXIL_ADDR_W = 24,   // BAR0: registers and doorbell pages
    // system aperture master (PCIe DMA bridge)
    parameter int unsigned DMA_ADDR_W = 64,
    parameter int unsigned DMA_DATA_W = 128,
    parameter int unsigned DMA_ID_W = 4,
    parameter logic [DMA_ID_W-1:0] DMA_ID = '0,
    parameter logic [DMA_ADDR_W-1:0] DMA_BASE = '0,
    parameter logic [3:0] DMA_CACHE = 4'b0010,     // normal, non-cacheable, non-bufferable
    // local aperture master (DDR/HBM controller)
    parameter int unsigned DDR_ADDR_W = 34,
    parameter int unsigned DDR_DATA_W = 512,
    parameter int unsigned DDR_ID_W = 4,
    parameter logic [DDR_ID_W-1:0] DDR_ID = '0,
    parameter logic [DDR_ADDR_W-1:0] DDR_BASE = '0,
    parameter logic [3:0] DDR_CACHE = 4'b0011,     // normal, non-cacheable, bufferable
    // requests in flight: reads (COPY_MAX_READS to hide a PCIe round
    // trip), writes, bursts per AXI direction, beats per burst
    parameter int unsigned RD_SLOTS = 256,
    parameter int unsigned WR_SLOTS = 64,
    parameter int unsigned BURSTS = 16,
    parameter int unsigned MAX_BURST = 16
) (
    input  logic         clk,
    input  logic         rst_n,
    // strap: local memory in MiB (CAP_LOCAL_MEM_MIB), static out of reset
    input  logic [15:0]  local_mem_mib,
    // s_axil: AXI4-Lite slave, BAR0
    input  logic                   s_axil_awvalid,
    output logic                   s_axil_awready,
    input  logic [AXIL_ADDR_W-1:0] s_axil_awaddr,
    input  logic [2:0]             s_axil_awprot,
    input  logic                   s_axil_wvalid,
    output logic                   s_axil_wready,
    input  logic [31:0]            s_axil_wdata,
    input  logic [3:0]             s_axil_wstrb,
    output logic                   s_axil_bvalid,
    input  logic                   s_axil_bready,
    output logic [1:0]             s_axil_bresp,
    input  logic                   s_axil_arvalid,
    output logic                   s_axil_arready,
    input  logic [AXIL_ADDR_W-1:0] s_axil_araddr,
    input  logic [2:0]             s_axil_arprot,
    output logic                   s_axil_rvalid,
    input  logic                   s_axil_rready,
    output logic [31:0]            s_axil_rdata,
    output logic [1:0]             s_axil_rresp,
    // m_dma: AXI4 master
    output logic                m_dma_awvalid,
    input  logic                m_dma_awready,
    output logic [DMA_ADDR_W-1:0]  m_dma_awaddr,
    output logic [7:0]          m_dma_awlen,
    output logic [2:0]          m_dma_awsize,
    output logic [1:0]          m_dma_awburst,
    output logic [DMA_ID_W-1:0]    m_dma_awid,
    output logic [3:0]          m_dma_awcache,
    output logic [2:0]          m_dma_awprot,
    output logic                m_dma_awlock,
    output logic                m_dma_wvalid,
    input  logic                m_dma_wready,
    output logic [DMA_DATA_W-1:0]  m_dma_wdata,
    output logic [DMA_DATA_W/8-1:0] m_dma_wstrb,
    output logic                m_dma_wlast,
    input  logic                m_dma_bvalid,
    output logic                m_dma_bready,
    input  logic [1:0]          m_dma_bresp,
    input  logic [DMA_ID_W-1:0]    m_dma_bid,
    output logic                m_dma_arvalid,
    input  logic                m_dma_arready,
    output logic [DMA_ADDR_W-1:0]  m_dma_araddr,
    output logic [7:0]          m_dma_arlen,
    output logic [2:0]          m_dma_arsize,
    output logic [1:0]          m_dma_arburst,
    output logic [DMA_ID_W-1:0]    m_dma_arid,
    output logic [3:0]          m_dma_arcache,
    output logic [2:0]          m_dma_arprot,
    output logic                m_dma_arlock,
    input  logic                m_dma_rvalid,
    output logic                m_dma_rready,
    input  logic [DMA_DATA_W-1:0]  m_dma_rdata,
    input  logic [1:0]          m_dma_rresp,
    input  logic                m_dma_rlast,
    input  logic [DMA_ID_W-1:0]    m_dma_rid,
    // m_ddr: AXI4 master
    output logic                m_ddr_awvalid,
    input  logic                m_ddr_awready,
    output logic [DDR_ADDR_W-1:0]  m_ddr_awaddr,
    output logic [7:0]          m_ddr_awlen,
    output logic [2:0]          m_ddr_awsize,
    output logic [1:0]          m_ddr_awburst,
    output logic [DDR_ID_W-1:0]    m_ddr_awid,
    output logic [3:0]          m_ddr_awcache,
    output logic [2:0]          m_ddr_awprot,
    output logic                m_ddr_awlock,
    output logic                m_ddr_wvalid,
    input  logic                m_ddr_wready,
    output logic [DDR_DATA_W-1:0]  m_ddr_wdata,
    output logic [DDR_DATA_W/8-1:0] m_ddr_wstrb,
    output logic                m_ddr_wlast,
    input  logic                m_ddr_bvalid,
    output logic                m_ddr_bready,
    input  logic [1:0]          m_ddr_bresp,
    input  logic [DDR_ID_W-1:0]    m_ddr_bid,
    output logic                m_ddr_arvalid,
    input  logic                m_ddr_arready,
    output logic [DDR_ADDR_W-1:0]  m_ddr_araddr,
    output logic [7:0]          m_ddr_arlen,
    output logic [2:0]          m_ddr_arsize,
    output logic [1:0]          m_ddr_arburst,
    output logic [DDR_ID_W-1:0]    m_ddr_arid,
    output logic [3:0]          m_ddr_arcache,
    output logic [2:0]          m_ddr_arprot,
    output logic                m_ddr_arlock,
    input  logic                m_ddr_rvalid,
    output logic                m_ddr_rready,
    input  logic [DDR_DATA_W-1:0]  m_ddr_rdata,
    input  logic [1:0]          m_ddr_rresp,
    input  logic                m_ddr_rlast,
    input  logic [DDR_ID_W-1:0]    m_ddr_rid,
    // MSI/MSI-X vector 0 request (a level)
    output logic         irq_req,
    // nothing to do until a register write, nothing in flight in the shell
    output logic         idle,
    // the PPU's event trace (ppu_top), for an on-chip logic analyser
    output logic [4:0]   trace_valid,
    output logic [39:0]  trace_kind,
    output logic [5*ppu_types_pkg::CHID_W-1:0] trace_chid,
    output logic [159:0] trace_a,
    output logic [159:0] trace_b
);
  localparam int unsigned PA_W = ppu_types_pkg::PA_W;
  localparam int unsigned TAG_W = ppu_types_pkg::MEM_TAG_W;
  localparam int unsigned REG_AW = 32;                // ppu_top reg_req_addr
  localparam int unsigned RSW = $clog2(RD_SLOTS);
  localparam int unsigned WSW = $clog2(WR_SLOTS);

  // ---- the PPU ----
  logic              reg_req_valid, reg_req_ready, reg_req_write, reg_rsp_valid;
  logic [REG_AW-1:0] reg_req_addr;
  logic [31:0]       reg_req_wdata, reg_rsp_rdata;
  logic              irq, ppu_idle;
  logic              mem_rd_valid, mem_rd_ready, mem_rd_sys, mem_rd_rsp_valid, mem_rd_rsp_err;
  logic [PA_W-1:0]   mem_rd_addr, mem_wr_addr;
  logic [TAG_W-1:0]  mem_rd_tag, mem_rd_rsp_tag, mem_wr_tag, mem_wr_rsp_tag;
  logic [63:0]       mem_rd_rsp_data, mem_wr_data;
  logic              mem_wr_valid, mem_wr_ready, mem_wr_sys, mem_wr_rsp_valid, mem_wr_rsp_err;
  logic [7:0]        mem_wr_strb;

  ppu_top #(
      .NUM_CHANNELS(NUM_CHANNELS), .COPY_CHUNK_BYTES(COPY_CHUNK_BYTES),
      .COPY_MAX_READS(COPY_MAX_READS), .TLB_ENTRIES(TLB_ENTRIES),
      .PB_PREFETCH_BEATS(PB_PREFETCH_BEATS), .CHAN_CACHE(CHAN_CACHE), .SCHED_SETS(SCHED_SETS),
      .NUM_CU(NUM_CU), .CU_CONTEXTS(CU_CONTEXTS),
      .TASK_SLOTS(TASK_SLOTS), .NUM_TASKS(NUM_TASKS), .ICACHE_BYTES(ICACHE_BYTES)
  ) u_ppu (
      .clk, .rst_n, .local_mem_mib,
      .reg_req_valid, .reg_req_ready, .reg_req_write, .reg_req_addr, .reg_req_wdata,
      .reg_rsp_valid, .reg_rsp_rdata, .irq, .idle(ppu_idle),
      .mem_rd_valid, .mem_rd_ready, .mem_rd_sys, .mem_rd_addr, .mem_rd_tag,
      .mem_rd_rsp_valid, .mem_rd_rsp_data, .mem_rd_rsp_err, .mem_rd_rsp_tag,
      .mem_wr_valid, .mem_wr_ready, .mem_wr_sys, .mem_wr_addr, .mem_wr_tag, .mem_wr_data,
      .mem_wr_strb, .mem_wr_rsp_valid, .mem_wr_rsp_err, .mem_wr_rsp_tag,
      .trace_valid, .trace_kind, .trace_chid, .trace_a, .trace_b);

  // ---- BAR0 ----
  ppu_fpga_axil #(.ADDR_W(AXIL_ADDR_W), .REG_AW(REG_AW)) u_axil (
      .clk, .rst_n,
      .awvalid(s_axil_awvalid), .awready(s_axil_awready), .awaddr(s_axil_awaddr),
      .awprot(s_axil_awprot), .arprot(s_axil_arprot),
      .wvalid(s_axil_wvalid), .wready(s_axil_wready), .wdata(s_axil_wdata), .wstrb(s_axil_wstrb),
      .bvalid(s_axil_bvalid), .bready(s_axil_bready), .bresp(s_axil_bresp),
      .arvalid(s_axil_arvalid), .arready(s_axil_arready), .araddr(s_axil_araddr),
      .rvalid(s_axil_rvalid), .rready(s_axil_rready), .rdata(s_axil_rdata), .rresp(s_axil_rresp),
      .reg_req_valid, .reg_req_ready, .reg_req_write, .reg_req_addr, .reg_req_wdata,
      .reg_rsp_valid, .reg_rsp_rdata);

  // ---- memory: ordering and the four AXI directions ([0] DDR, [1] DMA) ----
  logic [1:0]          prd_valid, prd_ready, prd_fill_req, prd_fill_grant, prd_fill_err;
  logic [1:0]          prd_hz_hit, prd_empty;
  logic [PA_W-1:0]     prd_pa, pwr_pa;
  logic [RSW-1:0]      prd_slot;
  logic [2*RSW-1:0]    prd_fill_slot;
  logic [2*64-1:0]     prd_fill_data;
  logic [1:0]          pwr_valid, pwr_ready, pwr_fill_req, pwr_fill_grant, pwr_fill_err;
  logic [1:0]          pwr_hz_hit, pwr_empty;
  logic [63:0]         pwr_data;
  logic [7:0]          pwr_strb;
  logic [WSW-1:0]      pwr_slot;
  logic [2*WSW-1:0]    pwr_fill_slot;
  logic                wr_fire, mem_empty;

  ppu_fpga_mem #(.RD_SLOTS(RD_SLOTS), .WR_SLOTS(WR_SLOTS), .PA_W(PA_W), .TAG_W(TAG_W)) u_mem (
      .clk, .rst_n,
      .rd_valid(mem_rd_valid), .rd_ready(mem_rd_ready), .rd_sys(mem_rd_sys),
      .rd_addr(mem_rd_addr), .rd_tag(mem_rd_tag), .rd_rsp_valid(mem_rd_rsp_valid),
      .rd_rsp_data(mem_rd_rsp_data), .rd_rsp_err(mem_rd_rsp_err), .rd_rsp_tag(mem_rd_rsp_tag),
      .wr_valid(mem_wr_valid), .wr_ready(mem_wr_ready), .wr_sys(mem_wr_sys),
      .wr_addr(mem_wr_addr), .wr_tag(mem_wr_tag), .wr_data(mem_wr_data), .wr_strb(mem_wr_strb),
      .wr_rsp_valid(mem_wr_rsp_valid), .wr_rsp_err(mem_wr_rsp_err), .wr_rsp_tag(mem_wr_rsp_tag),
      .prd_valid, .prd_pa, .prd_slot, .prd_ready, .prd_fill_req, .prd_fill_grant,
      .prd_fill_slot, .prd_fill_data, .prd_fill_err, .prd_hz_hit, .prd_empty,
      .pwr_valid, .pwr_pa, .pwr_data, .pwr_strb, .pwr_slot, .pwr_ready, .pwr_fill_req,
      .pwr_fill_grant, .pwr_fill_slot, .pwr_fill_err, .pwr_hz_hit, .pwr_empty,
      .wr_fire, .empty(mem_empty));

  ppu_fpga_rd_port #(
      .AXI_AW(DDR_ADDR_W), .DW(DDR_DATA_W), .ID_W(DDR_ID_W), .ID(DDR_ID), .BASE(DDR_BASE),
      .CACHE(DDR_CACHE), .NB(BURSTS), .MAX_BURST(MAX_BURST), .SLOTS(RD_SLOTS), .PA_W(PA_W)
  ) u_m_ddr_rd (
      .clk, .rst_n, .req_valid(prd_valid[0]), .req_pa(prd_pa), .req_slot(prd_slot),
      .req_ready(prd_ready[0]),
      .arvalid(m_ddr_arvalid), .arready(m_ddr_arready), .araddr(m_ddr_araddr), .arlen(m_ddr_arlen),
      .arsize(m_ddr_arsize), .arburst(m_ddr_arburst), .arid(m_ddr_arid), .arcache(m_ddr_arcache),
      .arprot(m_ddr_arprot), .arlock(m_ddr_arlock),
      .rvalid(m_ddr_rvalid), .rready(m_ddr_rready), .rdata(m_ddr_rdata), .rresp(m_ddr_rresp),
      .rlast(m_ddr_rlast), .rid(m_ddr_rid),
      .fill_req(prd_fill_req[0]), .fill_grant(prd_fill_grant[0]),
      .fill_slot(prd_fill_slot[0*RSW +: RSW]), .fill_data(prd_fill_data[0*64 +: 64]),
      .fill_err(prd_fill_err[0]), .hz_pa(mem_wr_addr), .hz_hit(prd_hz_hit[0]),
      .empty(prd_empty[0]));

  ppu_fpga_wr_port #(
      .AXI_AW(DDR_ADDR_W), .DW(DDR_DATA_W), .ID_W(DDR_ID_W), .ID(DDR_ID), .BASE(DDR_BASE),
      .CACHE(DDR_CACHE), .NB(BURSTS), .MAX_BURST(MAX_BURST), .SLOTS(WR_SLOTS), .PA_W(PA_W)
  ) u_m_ddr_wr (
      .clk, .rst_n, .req_valid(pwr_valid[0]), .req_pa(pwr_pa), .req_data(pwr_data),
      .req_strb(pwr_strb), .req_slot(pwr_slot), .req_ready(pwr_ready[0]),
      .awvalid(m_ddr_awvalid), .awready(m_ddr_awready), .awaddr(m_ddr_awaddr), .awlen(m_ddr_awlen),
      .awsize(m_ddr_awsize), .awburst(m_ddr_awburst), .awid(m_ddr_awid), .awcache(m_ddr_awcache),
      .awprot(m_ddr_awprot), .awlock(m_ddr_awlock),
      .wvalid(m_ddr_wvalid), .wready(m_ddr_wready), .wdata(m_ddr_wdata), .wstrb(m_ddr_wstrb),
      .wlast(m_ddr_wlast), .bvalid(m_ddr_bvalid), .bready(m_ddr_bready), .bresp(m_ddr_bresp),
      .bid(m_ddr_bid),
      .fill_req(pwr_fill_req[0]), .fill_grant(pwr_fill_grant[0]),
      .fill_slot(pwr_fill_slot[0*WSW +: WSW]), .fill_err(pwr_fill_err[0]),
      .hz_pa(mem_rd_addr), .hz_hit(pwr_hz_hit[0]), .empty(pwr_empty[0]));

  ppu_fpga_rd_port #(
      .AXI_AW(DMA_ADDR_W), .DW(DMA_DATA_W), .ID_W(DMA_ID_W), .ID(DMA_ID), .BASE(DMA_BASE),
      .CACHE(DMA_CACHE), .NB(BURSTS), .MAX_BURST(MAX_BURST), .SLOTS(RD_SLOTS), .PA_W(PA_W)
  ) u_m_dma_rd (
      .clk, .rst_n, .req_valid(prd_valid[1]), .req_pa(prd_pa), .req_slot(prd_slot),
      .req_ready(prd_ready[1]),
      .arvalid(m_dma_arvalid), .arready(m_dma_arready), .araddr(m_dma_araddr), .arlen(m_dma_arlen),
      .arsize(m_dma_arsize), .arburst(m_dma_arburst), .arid(m_dma_arid), .arcache(m_dma_arcache),
      .arprot(m_dma_arprot), .arlock(m_dma_arlock),
      .rvalid(m_dma_rvalid), .rready(m_dma_rready), .rdata(m_dma_rdata), .rresp(m_dma_rresp),
      .rlast(m_dma_rlast), .rid(m_dma_rid),
      .fill_req(prd_fill_req[1]), .fill_grant(prd_fill_grant[1]),
      .fill_slot(prd_fill_slot[1*RSW +: RSW]), .fill_data(prd_fill_data[1*64 +: 64]),
      .fill_err(prd_fill_err[1]), .hz_pa(mem_wr_addr), .hz_hit(prd_hz_hit[1]),
      .empty(prd_empty[1]));

  ppu_fpga_wr_port #(
      .AXI_AW(DMA_ADDR_W), .DW(DMA_DATA_W), .ID_W(DMA_ID_W), .ID(DMA_ID), .BASE(DMA_BASE),
      .CACHE(DMA_CACHE), .NB(BURSTS), .MAX_BURST(MAX_BURST), .SLOTS(WR_SLOTS), .PA_W(PA_W)
  ) u_m_dma_wr (
      .clk, .rst_n, .req_valid(pwr_valid[1]), .req_pa(pwr_pa), .req_data(pwr_data),
      .req_strb(pwr_strb), .req_slot(pwr_slot), .req_ready(pwr_ready[1]),
      .awvalid(m_dma_awvalid), .awready(m_dma_awready), .awaddr(m_dma_awaddr), .awlen(m_dma_awlen),
      .awsize(m_dma_awsize), .awburst(m_dma_awburst), .awid(m_dma_awid), .awcache(m_dma_awcache),
      .awprot(m_dma_awprot), .awlock(m_dma_awlock),
      .wvalid(m_dma_wvalid), .wready(m_dma_wready), .wdata(m_dma_wdata), .wstrb(m_dma_wstrb),
      .wlast(m_dma_wlast), .bvalid(m_dma_bvalid), .bready(m_dma_bready), .bresp(m_dma_bresp),
      .bid(m_dma_bid),
      .fill_req(pwr_fill_req[1]), .fill_grant(pwr_fill_grant[1]),
      .fill_slot(pwr_fill_slot[1*WSW +: WSW]), .fill_err(pwr_fill_err[1]),
      .hz_pa(mem_rd_addr), .hz_hit(pwr_hz_hit[1]), .empty(pwr_empty[1]));

  // ---- interrupt ----
  ppu_fpga_irq #(.CW($clog2(WR_SLOTS) + 2)) u_irq (
      .clk, .rst_n, .irq, .wr_accept(wr_fire), .wr_answer(mem_wr_rsp_valid), .irq_req);

  // A co-simulation server stops the clock when idle: the shell's own
  // writes in flight must land first.
  assign idle = ppu_idle && mem_empty;
endmodule
