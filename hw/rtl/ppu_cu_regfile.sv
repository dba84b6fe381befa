// SPDX-License-Identifier: MIT
// Register file of a compute unit (docs/compute-design.md §4.1): x1..x31
// for each of CTX contexts, two synchronous read ports for the pipeline
// (address in S1, data in S2), one write port (S4) and a combinational
// debug read port.
//
// A written-mask bit per register says whether the register was written
// since its context started: start[c] clears context c's mask in one
// cycle, so a new thread needs no register writes.  Each read returns the
// raw word and its mask bit; the CU substitutes the start value (0, or sp,
// tp, a0, a1 from the CTA) for a register that was not written.  x0 is
// never written (the decoder's rd_write is 0 for it) and the CU reads it
// as 0 itself, so its row is never used.
module ppu_cu_regfile #(
  parameter int unsigned CTX = 8
) (
  input  logic                   clk,
  input  logic                   rst_n,
  // read ports: address in one cycle, data in the next
  input  logic [$clog2(CTX)-1:0] rd_ctx,
  input  logic [4:0]             rd_rs1,
  input  logic [4:0]             rd_rs2,
  output logic [31:0]            rd_data1,
  output logic [31:0]            rd_data2,
  output logic                   rd_written1,
  output logic                   rd_written2,
  // write port
  input  logic                   wr_en,
  input  logic [$clog2(CTX)-1:0] wr_ctx,
  input  logic [4:0]             wr_rd,
  input  logic [31:0]            wr_data,
  // contexts starting a thread: their registers read as start values
  input  logic [CTX-1:0]         start,
  // debug read (combinational)
  input  logic [$clog2(CTX)-1:0] dbg_ctx,
  input  logic [4:0]             dbg_reg,
  output logic [31:0]            dbg_data,
  output logic                   dbg_written
);

  localparam int unsigned CW = $clog2(CTX);
  localparam int unsigned AW = CW + 5;

  logic [31:0]     mem [CTX*32];
  logic [CTX*32-1:0] mask_q;

  logic [AW-1:0] ra1, ra2, wa, da;
  assign ra1 = {rd_ctx, rd_rs1};
  assign ra2 = {rd_ctx, rd_rs2};
  assign wa  = {wr_ctx, wr_rd};
  assign da  = {dbg_ctx, dbg_reg};

  always_ff @(posedge clk) begin
    if (wr_en) mem[wa] <= wr_data;
    rd_data1 <= mem[ra1];
    rd_data2 <= mem[ra2];
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      mask_q      <= '0;
      rd_written1 <= 1'b0;
      rd_written2 <= 1'b0;
    end else begin
      // A start never meets a write of the same context: a context starts
      // only when nothing of its previous thread is in the pipeline.
      for (int c = 0; c < CTX; c++)
        if (start[c]) mask_q[c*32 +: 32] <= '0;
      if (wr_en) mask_q[wa] <= 1'b1;
      rd_written1 <= mask_q[ra1];
      rd_written2 <= mask_q[ra2];
    end
  end

  assign dbg_data    = mem[da];
  assign dbg_written = mask_q[da];

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
