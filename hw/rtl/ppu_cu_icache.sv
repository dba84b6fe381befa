// SPDX-License-Identifier: MIT
// Instruction cache of a compute unit (docs/compute-design.md §4.1):
// direct mapped, 32-byte lines, tag = {page-table root, VA above the
// index}, so contexts of different address spaces never share a line.
//
// Lookup: S0 presents the picked context's PC; data, tag and valid bit are
// read at the clock edge (synchronous, all three from the same edge, so a
// line being refilled is never seen half written), and S1 compares the tag
// with {root, PC} of the context and selects the word.
//
// Refill, one line at a time: a miss in S1 starts it when the engine is
// idle (miss_start, with the context in miss_ctx).  The line's valid bit
// is cleared, the line's VA is translated through the micro-TLB (EXEC),
// four beats are read through the LSU's read port, written as they return,
// and the tag is set after the last one.  Then rf_done pulses for one
// cycle (with rf_fault and the kind if the translation faulted or a beat
// came back with an error; the line stays invalid then), which wakes every
// context that waits for a refill.  rf_busy says that such a pulse is still
// to come, so a context that misses meanwhile may wait for it.
//
// After a successful refill the engine holds (no new refill) until
// hold_release: the CU releases it once the requesting context has fetched
// again.  Without the hold, two contexts whose PCs map to the same line
// could evict each other's line before either fetched from it.
//
// inv drops every line; a refill in flight then completes without setting
// its valid bit.
module ppu_cu_icache #(
  parameter int unsigned ICACHE_BYTES = 1024,
  parameter int unsigned CTX          = 8
) (
  input  logic                              clk,
  input  logic                              rst_n,
  input  logic                              inv,
  // S0: the PC to read
  input  logic [31:0]                       s0_pc,
  // S1: the same PC and its context's root; hit and instruction
  input  logic [31:0]                       s1_pc,
  input  ppu_types_pkg::pt_root_t           s1_root,
  output logic                              s1_hit,
  output logic [31:0]                       s1_instr,
  // refill control
  input  logic                              miss_start,  // only while rf_idle
  input  logic [$clog2(CTX)-1:0]            miss_ctx,
  output logic                              rf_idle,
  output logic                              rf_busy,
  output logic                              rf_done,
  output logic                              rf_fault,
  output logic [7:0]                        rf_fault_kind,
  output logic [$clog2(CTX)-1:0]            rf_ctx,
  input  logic                              hold_release,
  // micro-TLB port
  output logic                              lk_valid,
  output logic [31:0]                       lk_va,
  output ppu_types_pkg::pt_root_t           lk_root,
  input  logic                              lk_hit,
  input  ppu_types_pkg::paddr_t             lk_pa,
  input  logic                              lk_fault,
  input  logic [7:0]                        lk_fault_kind,
  // beat reads (through the LSU's read port); responses in order
  output logic                              rd_valid,
  input  logic                              rd_ready,
  output ppu_types_pkg::paddr_t             rd_pa,
  input  logic                              rsp_valid,
  input  ppu_types_pkg::mem_rd_rsp_t        rsp,
  // a refill translated before the last invalidate is still under way
  output logic                              inv_busy
);

  localparam int unsigned LINE_BYTES = 32;
  localparam int unsigned LINES      = ICACHE_BYTES / LINE_BYTES;
  localparam int unsigned BEATS      = ICACHE_BYTES / 8;
  localparam int unsigned OFF_W      = $clog2(ICACHE_BYTES);   // index + line offset bits
  localparam int unsigned IDX_W      = $clog2(LINES);
  localparam int unsigned TAG_W      = 23 + 32 - OFF_W;
  localparam int unsigned CW         = $clog2(CTX);

  if (ICACHE_BYTES < 2 * LINE_BYTES || (ICACHE_BYTES & (ICACHE_BYTES - 1)) != 0) begin : g_bad_size
    $error("ppu_cu_icache: ICACHE_BYTES must be a power of two, at least two lines");
  end

  localparam logic [7:0] K_BUS_ERROR = 8'(ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR);

  logic [63:0]      data_mem [BEATS];
  logic [TAG_W-1:0] tag_mem [LINES];
  logic [LINES-1:0] valid_q;

  // ---- Lookup ----
  logic [63:0]      data_r;
  logic [TAG_W-1:0] tag_r;
  logic             valid_r;
  logic [IDX_W-1:0] s0_idx;

  assign s0_idx = s0_pc[OFF_W-1:5];

  always_ff @(posedge clk) begin
    data_r <= data_mem[s0_pc[OFF_W-1:3]];
    tag_r  <= tag_mem[s0_idx];
  end

  always_ff @(posedge clk) begin
    if (!rst_n) valid_r <= 1'b0;
    else        valid_r <= valid_q[s0_idx];
  end

  assign s1_hit   = valid_r && tag_r == {s1_root, s1_pc[31:OFF_W]};
  assign s1_instr = s1_pc[2] ? data_r[63:32] : data_r[31:0];

  // ---- Refill ----
  typedef enum logic [2:0] {
    R_IDLE,
    R_XLATE,   // micro-TLB lookup (and fill)
    R_READ,    // four beats
    R_DONE,    // rf_done pulse
    R_HOLD     // until the requester fetched again
  } rstate_e;

  rstate_e                 state_q;
  logic [31:0]             va_q;        // line-aligned VA
  ppu_types_pkg::pt_root_t root_q;
  logic [CW-1:0]           ctx_q;
  ppu_types_pkg::paddr_t   pa_q;        // next beat to read
  logic [2:0]              issued_q;    // beats requested
  logic [1:0]              got_q;       // beats returned
  logic                    stale_q;     // invalidated meanwhile
  logic                    fault_q;
  logic [7:0]              kind_q;

  logic [IDX_W-1:0] rf_idx;
  assign rf_idx = va_q[OFF_W-1:5];

  assign rf_idle       = state_q == R_IDLE;
  assign rf_busy       = state_q == R_XLATE || state_q == R_READ;
  assign rf_done       = state_q == R_DONE;
  assign rf_fault      = state_q == R_DONE && fault_q;
  assign rf_fault_kind = kind_q;
  assign rf_ctx        = ctx_q;

  assign inv_busy = rf_busy && (stale_q || inv);
  assign lk_valid = state_q == R_XLATE;
  assign lk_va    = va_q;
  assign lk_root  = root_q;

  assign rd_valid = state_q == R_READ && !issued_q[2];
  assign rd_pa    = pa_q;

  always_ff @(posedge clk) begin
    if (rsp_valid && state_q == R_READ) data_mem[{rf_idx, got_q}] <= rsp.data;
  end

  always_ff @(posedge clk) begin
    if (state_q == R_READ && rsp_valid && got_q == 2'd3 && !rsp.err && !fault_q &&
        !stale_q && !inv)
      tag_mem[rf_idx] <= {root_q, va_q[31:OFF_W]};
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state_q  <= R_IDLE;
      va_q     <= '0;
      root_q   <= '0;
      ctx_q    <= '0;
      pa_q     <= '0;
      issued_q <= '0;
      got_q    <= '0;
      stale_q  <= 1'b0;
      fault_q  <= 1'b0;
      kind_q   <= '0;
      valid_q  <= '0;
    end else begin
      unique case (state_q)
        R_IDLE: begin
          if (miss_start) begin
            state_q <= R_XLATE;
            va_q    <= {s1_pc[31:5], 5'b0};
            root_q  <= s1_root;
            ctx_q   <= miss_ctx;
            stale_q <= 1'b0;
            fault_q <= 1'b0;
            valid_q[s1_pc[OFF_W-1:5]] <= 1'b0;
          end
        end
        R_XLATE: begin
          if (lk_hit) begin
            state_q  <= R_READ;
            pa_q     <= lk_pa;      // line-aligned, like the VA
            issued_q <= '0;
            got_q    <= '0;
          end else if (lk_fault) begin
            state_q <= R_DONE;
            fault_q <= 1'b1;
            kind_q  <= lk_fault_kind;
          end
        end
        R_READ: begin
          if (rd_valid && rd_ready) begin
            issued_q     <= issued_q + 3'd1;
            pa_q.addr    <= pa_q.addr + ppu_types_pkg::PA_W'(8);
          end
          if (rsp_valid) begin
            got_q <= got_q + 2'd1;
            if (rsp.err && !fault_q) begin
              fault_q <= 1'b1;
              kind_q  <= K_BUS_ERROR;
            end
            if (got_q == 2'd3) begin
              state_q <= R_DONE;
              if (!rsp.err && !fault_q && !stale_q && !inv) valid_q[rf_idx] <= 1'b1;
            end
          end
        end
        R_DONE: state_q <= fault_q ? R_IDLE : R_HOLD;
        R_HOLD: if (hold_release) state_q <= R_IDLE;
        default: state_q <= R_IDLE;
      endcase
      if (inv) begin
        valid_q <= '0;
        if (rf_busy) stale_q <= 1'b1;
      end
    end
  end

  // PCs are 4-aligned; only the index and word bits of the S0 PC matter.
  logic unused;
  assign unused = ^{s0_pc[31:OFF_W], s0_pc[2:0], s1_pc[4:3], s1_pc[1:0]};

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
