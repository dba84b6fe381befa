// SPDX-License-Identifier: MIT
// Micro-TLB of a compute unit (docs/compute-design.md §4.3): ENTRIES fully
// associative 4 KiB translations in front of the CU's one MMU client port.
//
// Two lookup ports, each combinational: port 0 is the I-cache refill
// (EXEC), port 1 the LSU (READ for loads, WRITE for stores; atomics are
// translated by the semaphore unit).  An entry is tagged {root, VPN,
// access}: the MMU checks permissions per access type and does not return
// the PTE bits, so a translation checked for READ is not reused for WRITE
// or EXEC.  Pages that are read and written take two entries.
//
// A port that raises lk_valid and misses starts a fill when the fill engine
// is idle (ports alternate when both miss).  The engine sends the request
// to the MMU and on the response either fills the entry at the round-robin
// pointer (the port's lookup then hits) or, for a faulting translation,
// pulses lk_fault for the port with the kind; faults are not cached.  The
// port must keep the same lookup until it hits or sees lk_fault.
//
// inv drops every entry; a fill in flight when it arrives is discarded
// (the port misses again and starts a new fill), like ppu_mmu's TLB.
module ppu_cu_utlb #(
  parameter int unsigned ENTRIES = 8
) (
  input  logic                              clk,
  input  logic                              rst_n,
  input  logic                              inv,
  // lookup ports (0 fetch, 1 LSU)
  input  logic [1:0]                        lk_valid,
  input  logic [2*32-1:0]                   lk_va,
  input  logic [2*23-1:0]                   lk_root,     // pt_root_t per port
  input  logic [2*2-1:0]                    lk_acc,      // access_e per port
  output logic [1:0]                        lk_hit,
  output logic [2*ppu_types_pkg::PADDR_W-1:0] lk_pa,     // paddr_t per port, page offset from va
  output logic [1:0]                        lk_fault,    // pulse: the port's fill faulted
  output logic [7:0]                        lk_fault_kind,
  // MMU client
  output logic                              x_req_valid,
  input  logic                              x_req_ready,
  output ppu_types_pkg::xlate_req_t         x_req,
  input  logic                              x_rsp_valid,
  input  ppu_types_pkg::xlate_rsp_t         x_rsp,
  output logic                              busy         // a fill requested or awaited
);

  localparam int unsigned PAGE_SHIFT = ppu_hw_pkg::PPU_PAGE_SHIFT;
  localparam int unsigned VPN_W      = 32 - PAGE_SHIFT;
  localparam int unsigned PPN_W      = ppu_types_pkg::PA_W - PAGE_SHIFT;
  localparam int unsigned TAG_W      = 23 + VPN_W + 2;   // {root, vpn, access}
  localparam int unsigned DATA_W     = 1 + PPN_W;        // {sys, ppn}
  localparam int unsigned IDX_W      = $clog2(ENTRIES);

  if (ENTRIES < 2 || (ENTRIES & (ENTRIES - 1)) != 0) begin : g_bad_entries
    $error("ppu_cu_utlb: ENTRIES must be a power of two, at least 2");
  end

  logic [ENTRIES-1:0]        valid_q;
  logic [ENTRIES*TAG_W-1:0]  tag_q;
  logic [ENTRIES*DATA_W-1:0] data_q;
  logic [IDX_W-1:0]          rr_q;        // next entry to fill

  // ---- Lookups ----
  logic [2*TAG_W-1:0] lk_tag;

  always_comb begin
    lk_hit = '0;
    lk_pa  = '0;
    for (int p = 0; p < 2; p++) begin
      lk_tag[p*TAG_W +: TAG_W] = {lk_root[p*23 +: 23], lk_va[p*32 + PAGE_SHIFT +: VPN_W],
                                  lk_acc[p*2 +: 2]};
      // (compared only for a lookup: every use of a hit is one)
      if (lk_valid[p]) for (int e = 0; e < ENTRIES; e++) begin
        if (valid_q[e] && tag_q[e*TAG_W +: TAG_W] == lk_tag[p*TAG_W +: TAG_W]) begin
          lk_hit[p] = 1'b1;
          lk_pa[p*ppu_types_pkg::PADDR_W +: ppu_types_pkg::PADDR_W] =
            {data_q[e*DATA_W +: DATA_W], lk_va[p*32 +: PAGE_SHIFT]};
        end
      end
    end
  end

  // ---- Fill engine ----
  typedef enum logic [1:0] {
    F_IDLE,
    F_REQ,    // request held until the MMU takes it
    F_WAIT    // response
  } fstate_e;

  fstate_e          state_q;
  logic             port_q;      // port being served
  logic             last_q;      // port served last (alternation)
  logic             stale_q;     // invalidated while in flight
  logic [TAG_W-1:0] ftag_q;
  logic [31:0]      fva_q;

  logic [1:0] miss;
  logic       start, start_port;

  assign miss       = lk_valid & ~lk_hit;
  assign start      = state_q == F_IDLE && miss != 2'b00;
  // Both missing: the port not served last.
  assign start_port = (miss == 2'b11) ? !last_q : miss[1];

  assign x_req_valid = state_q == F_REQ;
  assign busy        = state_q != F_IDLE;
  // {va, root, access}; a concatenation, because Yosys 0.23 has no enum casts.
  assign x_req       = {fva_q, ftag_q[TAG_W-1 -: 23], ftag_q[1:0]};

  always_comb begin
    lk_fault      = '0;
    lk_fault_kind = x_rsp.kind;
    if (state_q == F_WAIT && x_rsp_valid && x_rsp.fault && !stale_q && !inv)
      lk_fault[port_q] = 1'b1;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state_q <= F_IDLE;
      port_q  <= 1'b0;
      last_q  <= 1'b0;
      stale_q <= 1'b0;
      ftag_q  <= '0;
      fva_q   <= '0;
      valid_q <= '0;
      rr_q    <= '0;
    end else begin
      unique case (state_q)
        F_IDLE: begin
          if (start) begin
            state_q <= F_REQ;
            port_q  <= start_port;
            last_q  <= start_port;
            stale_q <= 1'b0;
            ftag_q  <= lk_tag[32'(start_port)*TAG_W +: TAG_W];
            fva_q   <= lk_va[32'(start_port)*32 +: 32];
          end
        end
        F_REQ: if (x_req_ready) state_q <= F_WAIT;
        F_WAIT: begin
          if (x_rsp_valid) begin
            state_q <= F_IDLE;
            if (!x_rsp.fault && !stale_q && !inv) begin
              valid_q[rr_q]                <= 1'b1;
              tag_q[32'(rr_q)*TAG_W +: TAG_W] <= ftag_q;
              data_q[32'(rr_q)*DATA_W +: DATA_W] <=
                {x_rsp.pa.sys, x_rsp.pa.addr[ppu_types_pkg::PA_W-1:PAGE_SHIFT]};
              rr_q <= rr_q + IDX_W'(1);
            end
          end
        end
        default: state_q <= F_IDLE;
      endcase
      if (inv) begin
        valid_q <= '0;
        if (state_q != F_IDLE) stale_q <= 1'b1;
      end
    end
  end

  // The page offset of the response repeats the request's.
  logic unused;
  assign unused = ^x_rsp.pa.addr[PAGE_SHIFT-1:0];

endmodule

// Linting this block on its own flags the package constants that only other
// blocks use (memory tags, flat-port widths of structs passed in arrays).
`ifdef VERILATOR
`verilator_config
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_TAG_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'XLATE_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_WR_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'SEM_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'CU_TSLOT_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'CU_DISP_W'*"
`endif
