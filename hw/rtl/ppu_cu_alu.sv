// SPDX-License-Identifier: MIT
// ALU and branch compare of a compute unit (docs/compute-design.md §4.1),
// purely combinational, in S3.
//
// The CU feeds a and b after its operand muxes (cu_dec_t.a_pc / b_imm), so
// one ALU serves OP, OP-IMM, LUI, AUIPC and the address and jump-target
// additions.  taken compares the same a and b: for a branch the decoder
// leaves both muxes on rs1 and rs2, and the target pc + imm is the CU's.
// taken is meaningful only for BRANCH and result only for the units that
// use the ALU; both are always driven.
module ppu_cu_alu (
  input  logic [31:0]            a,
  input  logic [31:0]            b,
  input  ppu_types_pkg::cu_alu_e op,
  input  ppu_types_pkg::cu_br_e  br,
  output logic [31:0]            result,
  output logic                   taken
);

  // One subtractor answers SUB, SLT, SLTU and every branch: bit 32 of the
  // zero-extended difference is the borrow, i.e. a < b unsigned.  Signed
  // order differs from unsigned order only when the signs differ, and then
  // the negative operand is the smaller.
  logic [32:0] diff;
  logic        lt_u, lt_s, eq;
  logic [4:0]  shamt;

  assign diff  = {1'b0, a} - {1'b0, b};
  assign lt_u  = diff[32];
  assign lt_s  = (a[31] != b[31]) ? a[31] : lt_u;
  assign eq    = a == b;
  assign shamt = b[4:0];   // RV32 shifts use the low five bits only

  always_comb begin
    unique case (op)
      ppu_types_pkg::CU_ALU_ADD:    result = a + b;
      ppu_types_pkg::CU_ALU_SUB:    result = diff[31:0];
      ppu_types_pkg::CU_ALU_SLL:    result = a << shamt;
      ppu_types_pkg::CU_ALU_SLT:    result = {31'b0, lt_s};
      ppu_types_pkg::CU_ALU_SLTU:   result = {31'b0, lt_u};
      ppu_types_pkg::CU_ALU_XOR:    result = a ^ b;
      ppu_types_pkg::CU_ALU_SRL:    result = a >> shamt;
      ppu_types_pkg::CU_ALU_SRA:    result = $unsigned($signed(a) >>> shamt);
      ppu_types_pkg::CU_ALU_OR:     result = a | b;
      ppu_types_pkg::CU_ALU_AND:    result = a & b;
      ppu_types_pkg::CU_ALU_PASS_B: result = b;
      default:                      result = a + b;   // unassigned codes: the decoder never emits them
    endcase

    unique case (br)
      ppu_types_pkg::CU_BR_EQ:  taken = eq;
      ppu_types_pkg::CU_BR_NE:  taken = !eq;
      ppu_types_pkg::CU_BR_LT:  taken = lt_s;
      ppu_types_pkg::CU_BR_GE:  taken = !lt_s;
      ppu_types_pkg::CU_BR_LTU: taken = lt_u;
      ppu_types_pkg::CU_BR_GEU: taken = !lt_u;
      default:                  taken = 1'b0;     // funct3 010/011 are illegal
    endcase
  end

endmodule

// Linting this block on its own flags the package constants that only other
// blocks use (memory tags, flat-port widths of structs passed in arrays).
`ifdef VERILATOR
`verilator_config
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_TAG_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'XLATE_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_WR_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'SEM_REQ_W'*"
`endif
