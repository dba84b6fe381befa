// SPDX-License-Identifier: MIT
// Sv32 MMU shared by the PPU engines: round-robin client arbitration, a fully
// associative TLB and a two-level hardware page walker (docs/hw-internals.md).
//
// Timing: the TLB lookup runs in the cycle a request is accepted and the
// response is registered, so a hit is answered one cycle after the
// handshake and a new request can be accepted every cycle.  A miss walks the
// page tables with one 8-byte read outstanding; the response follows one
// cycle after the last PTE arrives.  No request is accepted during a walk.
//
// Walk cache: per client, the last level-1 pointer PTE its walks went
// through (tagged by root and VPN1) is kept, so a miss in the same 4 MiB
// region reads only its level-0 PTE.  Per client, because the copy engine's
// source and destination walk by turns in different regions.  A copy streaming through pages misses once per page, and
// its walk reads queue behind the copy's own reads in flight (the memory
// port answers in order): one read per walk instead of two keeps the next
// page's translation ahead of the copy at system-memory latency.  Only
// valid pointers are cached; an invalidate drops it like the TLB.
//
// A hit whose cached permissions refuse the access is walked again rather
// than faulted from the TLB: faults then always reflect the page tables in
// memory (software that sets A/D or widens permissions after a fault needs
// no invalidate), and a successful re-walk overwrites the stale entry in
// place so a translation never occupies two entries.
//
// Invalidate: no answer given after the cycle of an invalidate comes from
// the page tables as they were before it.  A hit in that cycle is walked
// instead, and a walk that was under way then (or finishes then) starts
// again from the root when it would answer, so clients can count on every
// translation answered later being current (ppu_inv_drain).
module ppu_mmu #(
  parameter int unsigned TLB_ENTRIES = 16,
  parameter int unsigned NCLIENT = 4,
  // Its clock stops while no request, walk or invalidate is under way
  // (ppu_clk_gate; 0: never)
  parameter bit          CLOCK_GATE = 1'b1
) (
  input  logic clk,
  input  logic rst_n,
  input  logic invalidate,
  input  logic [NCLIENT-1:0] req_valid,
  output logic [NCLIENT-1:0] req_ready,
  input  logic [NCLIENT*ppu_types_pkg::XLATE_REQ_W-1:0] req,   // NCLIENT xlate_req_t
  output logic [NCLIENT-1:0] rsp_valid,
  output ppu_types_pkg::xlate_rsp_t rsp,
  output logic mem_rd_valid,
  input  logic mem_rd_ready,
  output ppu_types_pkg::paddr_t mem_rd_pa,
  input  logic mem_rd_rsp_valid,
  input  ppu_types_pkg::mem_rd_rsp_t mem_rd_rsp,
  output logic tlb_miss
);
  // Yosys 0.23 has no package import, so the generated field positions get
  // short local names here instead.
  localparam int unsigned PTE_V    = ppu_hw_pkg::PPU_PTE_V__LSB;
  localparam int unsigned PTE_R    = ppu_hw_pkg::PPU_PTE_R__LSB;
  localparam int unsigned PTE_W    = ppu_hw_pkg::PPU_PTE_W__LSB;
  localparam int unsigned PTE_X    = ppu_hw_pkg::PPU_PTE_X__LSB;
  localparam int unsigned PTE_U    = ppu_hw_pkg::PPU_PTE_U__LSB;
  localparam int unsigned PTE_G    = ppu_hw_pkg::PPU_PTE_G__LSB;
  localparam int unsigned PTE_A    = ppu_hw_pkg::PPU_PTE_A__LSB;
  localparam int unsigned PTE_D    = ppu_hw_pkg::PPU_PTE_D__LSB;
  localparam int unsigned PTE_SYS  = ppu_hw_pkg::PPU_PTE_SYS__LSB;
  localparam int unsigned PTE_RSW1 = ppu_hw_pkg::PPU_PTE_RSW1__LSB;
  localparam int unsigned PPN_MSB  = ppu_hw_pkg::PPU_PTE_PPN__MSB;
  localparam int unsigned PPN_LSB  = ppu_hw_pkg::PPU_PTE_PPN__LSB;
  localparam int unsigned PPN0_MSB = ppu_hw_pkg::PPU_PTE_PPN0__MSB;
  localparam int unsigned PPN0_LSB = ppu_hw_pkg::PPU_PTE_PPN0__LSB;
  localparam int unsigned PPN1_MSB = ppu_hw_pkg::PPU_PTE_PPN1__MSB;
  localparam int unsigned PPN1_LSB = ppu_hw_pkg::PPU_PTE_PPN1__LSB;
  localparam int unsigned VPN1_MSB = ppu_hw_pkg::PPU_VA_VPN1__MSB;
  localparam int unsigned VPN1_LSB = ppu_hw_pkg::PPU_VA_VPN1__LSB;
  localparam int unsigned VPN0_MSB = ppu_hw_pkg::PPU_VA_VPN0__MSB;
  localparam int unsigned VPN0_LSB = ppu_hw_pkg::PPU_VA_VPN0__LSB;
  localparam int unsigned OFF_MSB  = ppu_hw_pkg::PPU_VA_OFFSET__MSB;

  localparam logic [7:0] KIND_NONE   = 8'(ppu_hw_pkg::PPU_FAULT_KIND_NONE);
  localparam logic [7:0] KIND_NP     = 8'(ppu_hw_pkg::PPU_FAULT_KIND_PTE_NOT_PRESENT);
  localparam logic [7:0] KIND_PERM   = 8'(ppu_hw_pkg::PPU_FAULT_KIND_PERMISSION);
  localparam logic [7:0] KIND_BUSERR = 8'(ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR);

  localparam int unsigned PA_W       = ppu_types_pkg::PA_W;
  localparam int unsigned VPN_W      = VPN1_MSB - VPN1_LSB + 1;
  localparam int unsigned PPN_W      = PPN_MSB - PPN_LSB + 1;
  localparam int unsigned PPN0_W     = PPN0_MSB - PPN0_LSB + 1;
  localparam int unsigned PTE_BITS   = ppu_hw_pkg::PPU_PTE_BYTES * 8;
  localparam int unsigned PTE_OFF_W  = $clog2(ppu_hw_pkg::PPU_PTE_BYTES);
  localparam int unsigned BEAT_OFF_W = $clog2(ppu_types_pkg::MEM_BYTES);

  // Index registers stay at least one bit wide so NCLIENT = 1 or
  // TLB_ENTRIES = 1 still elaborates.
  localparam int unsigned CIDX_W = (NCLIENT > 1) ? $clog2(NCLIENT) : 1;
  localparam int unsigned TIDX_W = (TLB_ENTRIES > 1) ? $clog2(TLB_ENTRIES) : 1;

  // U and A are not stored: an entry is only filled after a successful
  // access check, and every access needs both.
  typedef struct packed {
    logic r;
    logic w;
    logic x;
    logic d;
  } tlb_perm_t;

  // Tag and data are kept apart so the match logic and the hit mux each see
  // only the bits they use.  The root is spelled out field by field because
  // Yosys 0.23 rejects package types inside a struct.
  //
  // Yosys 0.23 also silently drops the packed dimension of an array of a
  // typedef (`T [N-1:0] x` is read as one T).  The TLB arrays are therefore
  // flat vectors sliced with +:, and req is sliced through a flat copy, so
  // only the port declaration itself depends on the tool handling that.
  typedef struct packed {
    logic             root_sys;
    logic [PPN_W-1:0] root_ppn;
    logic [VPN_W-1:0] vpn1;
    logic [VPN_W-1:0] vpn0;    // don't care for a superpage
  } tlb_tag_t;

  typedef struct packed {
    logic [PPN_W-1:0] ppn;     // PPN0 = 0 for a superpage (walk checks)
    logic             sys;
    tlb_perm_t        perm;
  } tlb_data_t;

  typedef enum logic [1:0] {
    S_IDLE,
    S_RD_REQ,
    S_RD_WAIT
  } state_e;

  function automatic logic access_ok(input logic r, input logic w, input logic x,
                                     input logic u, input logic a, input logic d,
                                     input ppu_types_pkg::access_e acc);
    logic ok;
    case (acc)
      ppu_types_pkg::ACC_READ:  ok = r & u & a;
      ppu_types_pkg::ACC_WRITE: ok = w & u & a & d;
      ppu_types_pkg::ACC_RMW:   ok = r & w & u & a & d;
      ppu_types_pkg::ACC_EXEC:  ok = x & u & a;
      default:                  ok = 1'b0;
    endcase
    access_ok = ok;
  endfunction

  state_e                     state_q;
  logic [CIDX_W-1:0]          rr_ptr_q;
  logic [NCLIENT-1:0]         rsp_valid_q;
  ppu_types_pkg::xlate_rsp_t  rsp_q;
  logic                       tlb_miss_q;

  // Walk context.
  ppu_types_pkg::xlate_req_t  cur_q;
  logic [CIDX_W-1:0]          cur_client_q;
  logic                       level1_q;      // PTE being fetched is level 1
  ppu_types_pkg::paddr_t      rd_pa_q;
  logic                       rd_hi_q;       // PTE is the upper half of the beat
  logic                       stale_q;       // invalidate seen: must not fill
  logic                       repl_valid_q;  // walk re-checks an existing entry
  logic [TIDX_W-1:0]          repl_idx_q;
  // Walk cache (see above).
  logic [NCLIENT-1:0]         wc_valid_q;
  logic                       wc_root_sys_q [NCLIENT];
  logic [21:0]                wc_root_ppn_q [NCLIENT];
  logic [VPN_W-1:0]           wc_vpn1_q [NCLIENT];
  logic [PPN_W-1:0]           wc_ppn_q [NCLIENT];  // the level-0 table
  logic                       wc_sys_q [NCLIENT];

  // TLB.  Only the valid bits need a reset value.  A superpage entry (4 MiB)
  // matches on root and VPN1 only.
  tlb_tag_t                      fill_tag;
  tlb_data_t                     fill_data;
  localparam int unsigned TAG_W  = $bits(fill_tag);
  localparam int unsigned DATA_W = $bits(fill_data);
  logic [TLB_ENTRIES*TAG_W-1:0]  tlb_tag_q;
  logic [TLB_ENTRIES*DATA_W-1:0] tlb_data_q;
  logic [TLB_ENTRIES-1:0]        tlb_spage_q;
  logic [TLB_ENTRIES-1:0]        tlb_valid_q;
  // Least-recently-used order: each entry's age is its rank (0 = used
  // last), always a permutation of 0..TLB_ENTRIES-1.  LRU rather than
  // round robin so the pages touched on every copy command (pushbuffer,
  // semaphores) outlive the stream of pages a large copy walks through.
  logic [TLB_ENTRIES*TIDX_W-1:0] tlb_age_q;

  // ---------------------------------------------------------------------
  // Clock: every flop below changes only on a request, during a walk, on
  // an invalidate, or to drop a one-cycle response or miss pulse.  A copy
  // streaming through a page asks for one translation per page, so the
  // simulation skips the MMU almost every cycle.
  // ---------------------------------------------------------------------
  logic gclk, en;
  assign en = !rst_n || invalidate || (|req_valid) || state_q != S_IDLE || (|rsp_valid_q) ||
              tlb_miss_q;
  ppu_clk_gate #(.GATE(CLOCK_GATE)) u_gate (.clk, .en, .gclk);

  // ---------------------------------------------------------------------
  // Client arbitration: first requester at or after rr_ptr_q, else the
  // first requester overall.
  // ---------------------------------------------------------------------
  logic [NCLIENT-1:0]        req_upper;
  logic [CIDX_W-1:0]         grant_idx;
  logic [CIDX_W-1:0]         grant_next;
  logic                      accept;
  ppu_types_pkg::xlate_req_t sel_req;
  localparam int unsigned REQ_W = $bits(sel_req);
  logic [NCLIENT*REQ_W-1:0]  req_flat;

  always_comb begin
    for (int unsigned i = 0; i < NCLIENT; i++) begin
      req_upper[i] = req_valid[i] && (i >= 32'(rr_ptr_q));
    end
    grant_idx = '0;
    for (int i = NCLIENT - 1; i >= 0; i--) begin
      if (req_valid[i]) grant_idx = CIDX_W'(i);
    end
    for (int i = NCLIENT - 1; i >= 0; i--) begin
      if (req_upper[i]) grant_idx = CIDX_W'(i);
    end
    grant_next = (32'(grant_idx) == NCLIENT - 1) ? '0 : grant_idx + 1'b1;
  end

  assign accept   = (state_q == S_IDLE) && (|req_valid);
  assign req_flat = req;
  assign sel_req  = req_flat[grant_idx*REQ_W +: REQ_W];

  always_comb begin
    req_ready = '0;
    if (accept) req_ready[grant_idx] = 1'b1;
  end

  // ---------------------------------------------------------------------
  // TLB lookup on the request being accepted.
  // ---------------------------------------------------------------------
  logic [VPN_W-1:0]       sel_vpn1;
  logic [VPN_W-1:0]       sel_vpn0;
  tlb_tag_t               match_tag;
  logic [TLB_ENTRIES-1:0] hit_vec;
  logic                   hit_any;
  logic [TIDX_W-1:0]      hit_idx;
  tlb_data_t              hit_e;
  logic                   hit_ok;
  ppu_types_pkg::paddr_t  hit_pa;

  assign sel_vpn1 = sel_req.va[VPN1_MSB:VPN1_LSB];
  assign sel_vpn0 = sel_req.va[VPN0_MSB:VPN0_LSB];

  // (Compared only with a request: nothing reads a hit without one, and
  // the simulation then skips the comparators on the cycles no client asks,
  // which are most of them.)
  always_comb begin
    hit_vec   = '0;
    match_tag = '0;
    if (|req_valid)
      for (int unsigned i = 0; i < TLB_ENTRIES; i++) begin
        match_tag  = tlb_tag_q[i*TAG_W +: TAG_W];
        hit_vec[i] = tlb_valid_q[i] && (match_tag.root_sys == sel_req.root.sys)
                     && (match_tag.root_ppn == sel_req.root.ppn) && (match_tag.vpn1 == sel_vpn1)
                     && (tlb_spage_q[i] || (match_tag.vpn0 == sel_vpn0));
      end
  end

  // Lowest index wins so a double match (page tables changed without an
  // invalidate) still yields one well-formed entry.
  always_comb begin
    hit_idx = '0;
    for (int i = TLB_ENTRIES - 1; i >= 0; i--) begin
      if (hit_vec[i]) hit_idx = TIDX_W'(i);
    end
  end

  assign hit_any = |hit_vec;
  assign hit_e   = tlb_data_q[hit_idx*DATA_W +: DATA_W];
  assign hit_ok  = access_ok(hit_e.perm.r, hit_e.perm.w, hit_e.perm.x, 1'b1, 1'b1,
                             hit_e.perm.d, sel_req.access);

  always_comb begin
    hit_pa.sys = hit_e.sys;
    if (tlb_spage_q[hit_idx]) begin
      hit_pa.addr = {hit_e.ppn[PPN_W-1:PPN0_W], sel_req.va[VPN0_MSB:0]};
    end else begin
      hit_pa.addr = {hit_e.ppn, sel_req.va[OFF_MSB:0]};
    end
  end

  // Level-1 PTE: (root.ppn << 12) + VPN1 * 4.
  logic [PA_W-1:0] l1_pte_addr, cur_l1_pte_addr;
  assign l1_pte_addr = {sel_req.root.ppn, sel_vpn1, {PTE_OFF_W{1'b0}}};
  // the same for the walk under way, when it starts again
  assign cur_l1_pte_addr = {cur_q.root.ppn, cur_q.va[VPN1_MSB:VPN1_LSB], {PTE_OFF_W{1'b0}}};

  // A miss whose level-1 pointer is in the walk cache starts at level 0.
  logic            wc_hit;
  logic [PA_W-1:0] wc_l0_pte_addr;
  assign wc_hit = wc_valid_q[grant_idx] && wc_root_sys_q[grant_idx] == sel_req.root.sys &&
                  wc_root_ppn_q[grant_idx] == sel_req.root.ppn && wc_vpn1_q[grant_idx] == sel_vpn1;
  assign wc_l0_pte_addr = {wc_ppn_q[grant_idx], sel_req.va[VPN0_MSB:VPN0_LSB], {PTE_OFF_W{1'b0}}};

  // ---------------------------------------------------------------------
  // Walk step on the returned beat.
  // ---------------------------------------------------------------------
  logic [PTE_BITS-1:0]   pte;
  logic                  pte_leaf;
  logic                  walk_next;    // pointer at level 1: fetch level 0
  logic                  walk_fault;
  logic [7:0]            walk_kind;
  logic [PA_W-1:0]       l0_pte_addr;
  ppu_types_pkg::paddr_t leaf_pa;

  // Little-endian beat: the PTE at address bit 2 = 1 is the upper word.
  assign pte = rd_hi_q ? mem_rd_rsp.data[2*PTE_BITS-1:PTE_BITS] : mem_rd_rsp.data[PTE_BITS-1:0];
  assign pte_leaf = pte[PTE_R] || pte[PTE_X];

  always_comb begin
    walk_next  = 1'b0;
    walk_fault = 1'b1;
    walk_kind  = KIND_NONE;
    if (mem_rd_rsp.err) begin
      walk_kind = KIND_BUSERR;
    end else if (!pte[PTE_V] || (pte[PTE_W] && !pte[PTE_R])) begin
      walk_kind = KIND_NP;
    end else if (!pte_leaf) begin
      if (level1_q) begin
        walk_next  = 1'b1;
        walk_fault = 1'b0;
      end else begin
        walk_kind = KIND_NP;                       // pointer at level 0
      end
    end else if (level1_q && (pte[PPN0_MSB:PPN0_LSB] != '0)) begin
      // A malformed leaf is not present whatever the access wants.
      walk_kind = KIND_NP;
    end else if (!access_ok(pte[PTE_R], pte[PTE_W], pte[PTE_X], pte[PTE_U], pte[PTE_A],
                            pte[PTE_D], cur_q.access)) begin
      walk_kind = KIND_PERM;
    end else begin
      walk_fault = 1'b0;
    end
  end

  // Level-0 PTE: (pte.PPN << 12) + VPN0 * 4.
  assign l0_pte_addr = {pte[PPN_MSB:PPN_LSB], cur_q.va[VPN0_MSB:VPN0_LSB], {PTE_OFF_W{1'b0}}};

  always_comb begin
    leaf_pa.sys = pte[PTE_SYS];
    if (level1_q) begin
      leaf_pa.addr = {pte[PPN1_MSB:PPN1_LSB], cur_q.va[VPN0_MSB:0]};
    end else begin
      leaf_pa.addr = {pte[PPN_MSB:PPN_LSB], cur_q.va[OFF_MSB:0]};
    end
  end

  always_comb begin
    fill_tag.root_sys = cur_q.root.sys;
    fill_tag.root_ppn = cur_q.root.ppn;
    fill_tag.vpn1     = cur_q.va[VPN1_MSB:VPN1_LSB];
    fill_tag.vpn0     = cur_q.va[VPN0_MSB:VPN0_LSB];
    fill_data.ppn     = pte[PPN_MSB:PPN_LSB];
    fill_data.sys     = pte[PTE_SYS];
    fill_data.perm.r  = pte[PTE_R];
    fill_data.perm.w  = pte[PTE_W];
    fill_data.perm.x  = pte[PTE_X];
    fill_data.perm.d  = pte[PTE_D];
  end

  // G means nothing to a TLB tagged by root; RSW1 belongs to software.
  logic unused_pte_bits;
  assign unused_pte_bits = ^{pte[PTE_G], pte[PTE_RSW1]};

  logic walk_done;
  assign walk_done = (state_q == S_RD_WAIT) && mem_rd_rsp_valid && !walk_next;

  // ---------------------------------------------------------------------
  // Fill: the entry being re-checked, else the first free entry, else the
  // least recently used one.  invalidate wins over a same-cycle fill.
  // ---------------------------------------------------------------------
  logic              fill;
  logic              free_any;
  logic [TIDX_W-1:0] free_idx;
  logic [TIDX_W-1:0] lru_idx;
  logic [TIDX_W-1:0] fill_idx;

  assign fill = walk_done && !walk_fault && !stale_q && !invalidate;

  always_comb begin
    free_idx = '0;
    for (int i = TLB_ENTRIES - 1; i >= 0; i--) begin
      if (!tlb_valid_q[i]) free_idx = TIDX_W'(i);
    end
    lru_idx = '0;
    for (int i = 0; i < TLB_ENTRIES; i++) begin
      if (32'(tlb_age_q[i*TIDX_W +: TIDX_W]) == TLB_ENTRIES - 1) lru_idx = TIDX_W'(i);
    end
  end

  assign free_any = !(&tlb_valid_q);
  assign fill_idx = repl_valid_q ? repl_idx_q : (free_any ? free_idx : lru_idx);

  // A hit and a fill are the uses that count; they never fall in one cycle
  // (hits are answered only while no walk is running).
  logic              touch;
  logic [TIDX_W-1:0] touch_idx;
  logic [TIDX_W-1:0] touch_age;
  assign touch     = fill || (accept && hit_any && hit_ok);
  assign touch_idx = fill ? fill_idx : hit_idx;
  assign touch_age = tlb_age_q[touch_idx*TIDX_W +: TIDX_W];

  always_ff @(posedge gclk) begin
    if (!rst_n) begin
      tlb_valid_q <= '0;
      for (int i = 0; i < TLB_ENTRIES; i++) tlb_age_q[i*TIDX_W +: TIDX_W] <= TIDX_W'(i);
    end else begin
      if (invalidate) begin
        tlb_valid_q <= '0;
      end else if (fill) begin
        tlb_valid_q[fill_idx] <= 1'b1;
      end
      if (touch) begin
        for (int i = 0; i < TLB_ENTRIES; i++) begin
          if (TIDX_W'(i) == touch_idx)
            tlb_age_q[i*TIDX_W +: TIDX_W] <= '0;
          else if (tlb_age_q[i*TIDX_W +: TIDX_W] < touch_age)
            tlb_age_q[i*TIDX_W +: TIDX_W] <= tlb_age_q[i*TIDX_W +: TIDX_W] + 1'b1;
        end
      end
    end
  end

  always_ff @(posedge gclk) begin
    for (int unsigned i = 0; i < TLB_ENTRIES; i++) begin
      if (fill && (32'(fill_idx) == i)) begin
        tlb_tag_q[i*TAG_W +: TAG_W]    <= fill_tag;
        tlb_data_q[i*DATA_W +: DATA_W] <= fill_data;
        tlb_spage_q[i]                 <= level1_q;
      end
    end
  end

  // ---------------------------------------------------------------------
  // Control.
  // ---------------------------------------------------------------------
  always_ff @(posedge gclk) begin
    if (!rst_n) begin
      state_q      <= S_IDLE;
      rr_ptr_q     <= '0;
      rsp_valid_q  <= '0;
      rsp_q        <= '0;
      tlb_miss_q   <= 1'b0;
      cur_client_q <= '0;
      level1_q     <= 1'b0;
      rd_pa_q      <= '0;
      rd_hi_q      <= 1'b0;
      stale_q      <= 1'b0;
      repl_valid_q <= 1'b0;
      repl_idx_q   <= '0;
    end else begin
      rsp_valid_q <= '0;
      tlb_miss_q  <= 1'b0;
      if (invalidate) stale_q <= 1'b1;

      case (state_q)
        S_IDLE: begin
          if (accept) begin
            rr_ptr_q <= grant_next;
            if (hit_any && hit_ok && !invalidate) begin
              rsp_valid_q[grant_idx] <= 1'b1;
              rsp_q.fault <= 1'b0;
              rsp_q.kind  <= KIND_NONE;
              rsp_q.pa    <= hit_pa;
            end else begin
              state_q      <= S_RD_REQ;
              tlb_miss_q   <= 1'b1;
              cur_client_q <= grant_idx;
              if (wc_hit && !invalidate) begin
                level1_q     <= 1'b0;
                rd_pa_q.sys  <= wc_sys_q[grant_idx];
                rd_pa_q.addr <= {wc_l0_pte_addr[PA_W-1:BEAT_OFF_W], {BEAT_OFF_W{1'b0}}};
                rd_hi_q      <= wc_l0_pte_addr[BEAT_OFF_W-1];
              end else begin
                level1_q     <= 1'b1;
                rd_pa_q.sys  <= sel_req.root.sys;
                rd_pa_q.addr <= {l1_pte_addr[PA_W-1:BEAT_OFF_W], {BEAT_OFF_W{1'b0}}};
                rd_hi_q      <= l1_pte_addr[BEAT_OFF_W-1];
              end
              stale_q      <= invalidate;
              repl_valid_q <= hit_any && !invalidate;
              repl_idx_q   <= hit_idx;
            end
          end
        end
        S_RD_REQ: begin
          if (mem_rd_ready) state_q <= S_RD_WAIT;
        end
        S_RD_WAIT: begin
          if (mem_rd_rsp_valid) begin
            if (walk_next) begin
              state_q      <= S_RD_REQ;
              level1_q     <= 1'b0;
              rd_pa_q.sys  <= pte[PTE_SYS];
              rd_pa_q.addr <= {l0_pte_addr[PA_W-1:BEAT_OFF_W], {BEAT_OFF_W{1'b0}}};
              rd_hi_q      <= l0_pte_addr[BEAT_OFF_W-1];
            end else if (stale_q || invalidate) begin
              // read (partly) before an invalidate: walk again
              state_q      <= S_RD_REQ;
              level1_q     <= 1'b1;
              rd_pa_q.sys  <= cur_q.root.sys;
              rd_pa_q.addr <= {cur_l1_pte_addr[PA_W-1:BEAT_OFF_W], {BEAT_OFF_W{1'b0}}};
              rd_hi_q      <= cur_l1_pte_addr[BEAT_OFF_W-1];
              stale_q      <= 1'b0;
              repl_valid_q <= 1'b0;
            end else begin
              state_q                   <= S_IDLE;
              rsp_valid_q[cur_client_q] <= 1'b1;
              rsp_q.fault               <= walk_fault;
              rsp_q.kind                <= walk_kind;
              rsp_q.pa                  <= walk_fault ? '0 : leaf_pa;
            end
          end
        end
        default: state_q <= S_IDLE;
      endcase
    end
  end

  // Only read while walking, so it needs no reset.
  always_ff @(posedge gclk) begin
    if (accept) cur_q <= sel_req;
  end

  // Walk cache: filled from a level-1 pointer read wholly after the last
  // invalidate (the same rule as a TLB fill), dropped by an invalidate.
  always_ff @(posedge gclk) begin
    if (!rst_n || invalidate) begin
      wc_valid_q <= '0;
    end else if (state_q == S_RD_WAIT && mem_rd_rsp_valid && walk_next && !stale_q) begin
      wc_valid_q[cur_client_q] <= 1'b1;
    end
  end
  always_ff @(posedge gclk) begin
    if (state_q == S_RD_WAIT && mem_rd_rsp_valid && walk_next) begin
      wc_root_sys_q[cur_client_q] <= cur_q.root.sys;
      wc_root_ppn_q[cur_client_q] <= cur_q.root.ppn;
      wc_vpn1_q[cur_client_q]     <= cur_q.va[VPN1_MSB:VPN1_LSB];
      wc_ppn_q[cur_client_q]      <= pte[PPN_MSB:PPN_LSB];
      wc_sys_q[cur_client_q]      <= pte[PTE_SYS];
    end
  end

  assign rsp_valid    = rsp_valid_q;
  assign rsp          = rsp_q;
  assign mem_rd_valid = (state_q == S_RD_REQ);
  assign mem_rd_pa    = rd_pa_q;
  assign tlb_miss     = tlb_miss_q;

endmodule

// ppu_types_pkg::MEM_TAG_W only matters to the memory arbiter; linting this
// block on its own would otherwise flag the package constant as unused.
`ifdef VERILATOR
`verilator_config
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_TAG_W'*"
`endif
