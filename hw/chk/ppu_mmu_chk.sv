// SPDX-License-Identifier: MIT
// Contracts of the MMU (ppu_mmu), bound into it by ppu_chk_bind.sv; see
// hw/chk/README.md.  A translation that came from a walk is checked
// against the leaf PTE the walk read from memory, decoded here again from
// the Sv32 rules, so a walker bug that hands out a page the tables do not
// give is caught where it happens rather than as corrupted data later.
// A checker watches whole buses and uses the fields its rules need.
/* verilator lint_off UNUSEDSIGNAL */
module ppu_mmu_chk #(
  parameter int unsigned NCLIENT = 4
) (
  input logic                        clk,
  input logic                        rst_n,
  input logic [NCLIENT-1:0]          req_valid,
  input logic [NCLIENT-1:0]          req_ready,
  input logic [NCLIENT*ppu_types_pkg::XLATE_REQ_W-1:0] req,
  input logic [NCLIENT-1:0]          rsp_valid,
  input ppu_types_pkg::xlate_rsp_t   rsp,
  input logic                        mem_rd_valid,
  input logic                        mem_rd_ready,
  input ppu_types_pkg::paddr_t       mem_rd_pa,
  input logic                        mem_rd_rsp_valid,
  input ppu_types_pkg::mem_rd_rsp_t  mem_rd_rsp
);
  localparam int unsigned RW   = ppu_types_pkg::XLATE_REQ_W;
  localparam int unsigned PA_W = ppu_types_pkg::PA_W;

  // Clocked while a port is active or was in the cycle before (ppu_chk_clk).
  logic cclk;
  ppu_chk_clk u_cclk (
      .clk, .rst_n, .cclk,
      .act(|req_valid || |rsp_valid || mem_rd_valid || mem_rd_rsp_valid));

  logic [NCLIENT*16-1:0] pend;
  logic [15:0]           rd_pend;
  for (genvar i = 0; i < NCLIENT; i++) begin : g_client
    // client 0, the host's pushbuffer fetch, may withdraw (ppu_host_chk)
    ppu_chk_hs #(.W(RW), .NAME("mmu request"), .WITHDRAW(i == 0)) u_hs (
        .clk(cclk), .rst_n, .valid(req_valid[i]), .ready(req_ready[i]), .payload(req[i*RW +: RW]));
    ppu_chk_rsp #(.MAX(1), .NAME("mmu client")) u_rsp (
        .clk(cclk), .rst_n, .fire(req_valid[i] && req_ready[i]), .rsp(rsp_valid[i]),
        .pending(pend[i*16 +: 16]));
  end
  ppu_chk_hs #(.W($bits(mem_rd_pa)), .NAME("mmu walk read")) u_hs_rd (
      .clk(cclk), .rst_n, .valid(mem_rd_valid), .ready(mem_rd_ready), .payload(mem_rd_pa));
  ppu_chk_rsp #(.MAX(1), .NAME("mmu walk read")) u_rsp_rd (
      .clk(cclk), .rst_n, .fire(mem_rd_valid && mem_rd_ready), .rsp(mem_rd_rsp_valid), .pending(rd_pend));

  // Per client: its request, and whether the MMU read page tables for it.
  logic [NCLIENT*RW-1:0] cur;
  logic [NCLIENT-1:0]    walked;
  ppu_types_pkg::paddr_t last_pa_q, rd_pa_q;         // the last PTE beat read, and its address
  logic [63:0]           last_beat;

  // The answer being given, decoded against the last beat read.
  logic                       any_rsp, is_walk, l1_leaf, ok_leaf;
  ppu_types_pkg::xlate_req_t  r;
  logic [31:0]                pte, pte1;
  logic [PA_W-1:0]            l1_addr, want_addr;
  logic                       selftest;
  always_comb begin
    r = '0;
    is_walk = 1'b0;
    for (int i = 0; i < NCLIENT; i++)
      if (rsp_valid[i]) begin
        r = cur[i*RW +: RW];
        is_walk = walked[i];
      end
    any_rsp = |rsp_valid;
    l1_addr = {r.root.ppn, 12'd0} + PA_W'({r.va[31:22], 2'b00});
    pte1 = l1_addr[2] ? last_beat[63:32] : last_beat[31:0];
    // The last read was the level-1 PTE and it is a leaf: a superpage.
    l1_leaf = last_pa_q.sys == r.root.sys && last_pa_q.addr[PA_W-1:3] == l1_addr[PA_W-1:3] &&
              (pte1[ppu_hw_pkg::PPU_PTE_R__LSB] || pte1[ppu_hw_pkg::PPU_PTE_X__LSB]);
    pte = l1_leaf ? pte1 : (r.va[12] ? last_beat[63:32] : last_beat[31:0]);
    want_addr = l1_leaf ? {pte[31:20], r.va[21:0]} : {pte[31:10], r.va[11:0]};
    unique case (r.access)
      ppu_types_pkg::ACC_READ:  ok_leaf = pte[1];
      ppu_types_pkg::ACC_WRITE: ok_leaf = pte[2] && pte[7];
      ppu_types_pkg::ACC_RMW:   ok_leaf = pte[1] && pte[2] && pte[7];
      default:                  ok_leaf = pte[3];
    endcase
    ok_leaf = ok_leaf && pte[ppu_hw_pkg::PPU_PTE_V__LSB] && pte[ppu_hw_pkg::PPU_PTE_U__LSB] &&
              pte[ppu_hw_pkg::PPU_PTE_A__LSB] && (!l1_leaf || pte[19:10] == '0);
  end

  always_ff @(posedge cclk) begin
    if (!rst_n) begin
      cur       <= '0;
      walked    <= '0;
      last_pa_q <= '0;
      rd_pa_q   <= '0;
      last_beat <= '0;
    end else begin
      if ($countones(rsp_valid) > 1)
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), "two answers on the shared response");
      if (any_rsp && !rsp.fault) begin
        // the page offset is the VA's (selftest: pretend it must differ)
        if ((rsp.pa.addr[11:0] == r.va[11:0]) == selftest)
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("VA %08x answered with PA %09x: page offset differs",
                                                               r.va, rsp.pa.addr));
        if (is_walk && !ok_leaf)
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("VA %08x translated through PTE %08x, which refuses access %0d",
                                                               r.va, pte, r.access));
        if (is_walk && (rsp.pa.sys != pte[ppu_hw_pkg::PPU_PTE_SYS__LSB] || rsp.pa.addr != want_addr))
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("VA %08x answered with PA %0d:%09x, its leaf %08x gives %09x",
                                                               r.va, rsp.pa.sys, rsp.pa.addr, pte, want_addr));
      end
      for (int i = 0; i < NCLIENT; i++) begin
        if (req_valid[i] && req_ready[i]) begin
          cur[i*RW +: RW] <= req[i*RW +: RW];
          walked[i] <= 1'b0;
        end else if (mem_rd_rsp_valid && pend[i*16 +: 16] != '0) begin
          walked[i] <= 1'b1;
        end
      end
      if (mem_rd_valid && mem_rd_ready) rd_pa_q <= mem_rd_pa;
      if (mem_rd_rsp_valid) begin
        last_beat <= mem_rd_rsp.data;
        last_pa_q <= rd_pa_q;
      end
    end
  end
  // Sampled every cycle: an import with no arguments would otherwise be
  // evaluated once, as a constant.
  always_ff @(posedge clk) selftest <= (ppu_chk_pkg::ppu_chk_selftest() & ppu_chk_pkg::SELFTEST_MMU) != 0;
endmodule
