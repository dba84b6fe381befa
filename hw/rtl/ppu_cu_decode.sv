// SPDX-License-Identifier: MIT
// Instruction decoder of a compute unit (docs/compute-design.md §4):
// RV32I, M, A (word AMOs, LR/SC; aq/rl are accepted and ignored, since a
// context has one access in flight and the semaphore unit serialises
// atomics anyway), FENCE, FENCE.I, ECALL, EBREAK and Zicsr reads.
// Purely combinational; the CU decodes in S2 while the register file is
// read with the raw rs1/rs2 fields.
//
// "illegal" is the one thing the pipeline has to check before it uses the
// rest: everything that is not listed below is illegal, which covers
// compressed encodings (low bits != 2'b11), the all-zero and all-ones
// words, longer encodings, MRET/SRET/WFI/SFENCE.VMA, 64-bit and reserved
// funct encodings, and every CSR instruction that writes or names a CSR
// not in ppu_compute.def (the CUs have no writable CSRs, so reporting all
// of that here keeps ppu_cu_csr a plain read mux).
//
// Reserved fields that the spec says implementations shall ignore are
// ignored: FENCE's fm, pred, succ, rs1 and rd (every FENCE, including
// FENCE.TSO, PAUSE and reserved fm values, is a normal fence: the CU only
// orders a context's own accesses), and FENCE.I's imm, rs1 and rd.  Fields
// the spec fixes are checked: ECALL and EBREAK are exactly their words,
// LR.W needs rs2 = 0, RV32 shift immediates need imm[11:5] = 0 (0100000
// for SRAI).
module ppu_cu_decode (
  input  logic [31:0]             instr,
  output ppu_types_pkg::cu_dec_t  dec
);

  // Major opcodes, instr[6:0] (the low two bits 2'b11 are part of them).
  localparam logic [6:0] OPC_LOAD     = 7'b0000011;
  localparam logic [6:0] OPC_MISC_MEM = 7'b0001111;
  localparam logic [6:0] OPC_OP_IMM   = 7'b0010011;
  localparam logic [6:0] OPC_AUIPC    = 7'b0010111;
  localparam logic [6:0] OPC_STORE    = 7'b0100011;
  localparam logic [6:0] OPC_AMO      = 7'b0101111;
  localparam logic [6:0] OPC_OP       = 7'b0110011;
  localparam logic [6:0] OPC_LUI      = 7'b0110111;
  localparam logic [6:0] OPC_BRANCH   = 7'b1100011;
  localparam logic [6:0] OPC_JALR     = 7'b1100111;
  localparam logic [6:0] OPC_JAL      = 7'b1101111;
  localparam logic [6:0] OPC_SYSTEM   = 7'b1110011;

  localparam logic [6:0] F7_BASE = 7'b0000000;
  localparam logic [6:0] F7_ALT  = 7'b0100000;   // SUB, SRA, SRAI
  localparam logic [6:0] F7_MD   = 7'b0000001;   // M extension

  // instr[31:7] of the two SYSTEM instructions that take no operands.
  localparam logic [24:0] ECALL_HI  = 25'h0000000;
  localparam logic [24:0] EBREAK_HI = 25'h0002000;

  logic [6:0]  opcode, f7;
  logic [2:0]  f3;
  logic [4:0]  f5;
  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j, imm_sh;

  assign opcode = instr[6:0];
  assign f3     = instr[14:12];
  assign f7     = instr[31:25];
  assign f5     = instr[31:27];

  assign imm_i  = {{20{instr[31]}}, instr[31:20]};
  assign imm_s  = {{20{instr[31]}}, instr[31:25], instr[11:7]};
  assign imm_b  = {{19{instr[31]}}, instr[31], instr[7], instr[30:25], instr[11:8], 1'b0};
  assign imm_u  = {instr[31:12], 12'b0};
  assign imm_j  = {{11{instr[31]}}, instr[31], instr[19:12], instr[20], instr[30:21], 1'b0};
  assign imm_sh = {27'b0, instr[24:20]};

  // The CSRs a compute unit has: exactly the numbers in ppu_compute.def.
  logic csr_known;
  always_comb begin
    unique case (32'(instr[31:20]))
      ppu_hw_pkg::PPU_CSR_CYCLE, ppu_hw_pkg::PPU_CSR_TIME, ppu_hw_pkg::PPU_CSR_INSTRET,
      ppu_hw_pkg::PPU_CSR_CYCLEH, ppu_hw_pkg::PPU_CSR_TIMEH, ppu_hw_pkg::PPU_CSR_INSTRETH,
      ppu_hw_pkg::PPU_CSR_TID, ppu_hw_pkg::PPU_CSR_NTID,
      ppu_hw_pkg::PPU_CSR_CTAID, ppu_hw_pkg::PPU_CSR_NCTAID,
      ppu_hw_pkg::PPU_CSR_CTADIM_X, ppu_hw_pkg::PPU_CSR_CTADIM_Y, ppu_hw_pkg::PPU_CSR_CTADIM_Z,
      ppu_hw_pkg::PPU_CSR_GRID_X, ppu_hw_pkg::PPU_CSR_GRID_Y, ppu_hw_pkg::PPU_CSR_GRID_Z,
      ppu_hw_pkg::PPU_CSR_PARAM, ppu_hw_pkg::PPU_CSR_PRIO, ppu_hw_pkg::PPU_CSR_DEPTH,
      ppu_hw_pkg::PPU_CSR_MAXDEPTH, ppu_hw_pkg::PPU_CSR_TASKID, ppu_hw_pkg::PPU_CSR_HWID,
      ppu_hw_pkg::PPU_CSR_CHILD_BLOCK, ppu_hw_pkg::PPU_CSR_CHILD_STACK,
      ppu_hw_pkg::PPU_CSR_CU_CONTEXTS, ppu_hw_pkg::PPU_CSR_NUM_CU:
        csr_known = 1'b1;
      default: csr_known = 1'b0;
    endcase
  end

  logic legal, rd_used;

  always_comb begin
    dec      = '0;
    legal    = 1'b1;
    rd_used  = 1'b0;

    unique case (opcode)
      OPC_LUI: begin
        dec.unit  = ppu_types_pkg::CU_UNIT_ALU;
        dec.alu   = ppu_types_pkg::CU_ALU_PASS_B;
        dec.b_imm = 1'b1;
        dec.imm   = imm_u;
        rd_used   = 1'b1;
      end
      OPC_AUIPC: begin
        dec.unit  = ppu_types_pkg::CU_UNIT_ALU;
        dec.alu   = ppu_types_pkg::CU_ALU_ADD;
        dec.a_pc  = 1'b1;
        dec.b_imm = 1'b1;
        dec.imm   = imm_u;
        rd_used   = 1'b1;
      end
      OPC_JAL: begin
        dec.unit  = ppu_types_pkg::CU_UNIT_JAL;
        dec.a_pc  = 1'b1;
        dec.b_imm = 1'b1;
        dec.imm   = imm_j;
        rd_used   = 1'b1;
      end
      OPC_JALR: begin
        legal        = f3 == 3'b000;
        dec.unit     = ppu_types_pkg::CU_UNIT_JALR;
        dec.b_imm    = 1'b1;
        dec.imm      = imm_i;
        dec.rs1_read = 1'b1;
        rd_used      = 1'b1;
      end
      OPC_BRANCH: begin
        dec.unit     = ppu_types_pkg::CU_UNIT_BRANCH;
        dec.imm      = imm_b;
        dec.rs1_read = 1'b1;
        dec.rs2_read = 1'b1;
        unique case (f3)
          3'b000:  dec.br = ppu_types_pkg::CU_BR_EQ;
          3'b001:  dec.br = ppu_types_pkg::CU_BR_NE;
          3'b100:  dec.br = ppu_types_pkg::CU_BR_LT;
          3'b101:  dec.br = ppu_types_pkg::CU_BR_GE;
          3'b110:  dec.br = ppu_types_pkg::CU_BR_LTU;
          3'b111:  dec.br = ppu_types_pkg::CU_BR_GEU;
          default: legal = 1'b0;
        endcase
      end
      OPC_LOAD: begin
        dec.unit        = ppu_types_pkg::CU_UNIT_LOAD;
        dec.b_imm       = 1'b1;
        dec.imm         = imm_i;
        dec.rs1_read    = 1'b1;
        dec.ls_unsigned = f3[2];
        rd_used         = 1'b1;
        unique case (f3)
          3'b000, 3'b100: dec.ls_size = ppu_types_pkg::CU_SIZE_B;
          3'b001, 3'b101: dec.ls_size = ppu_types_pkg::CU_SIZE_H;
          3'b010:         dec.ls_size = ppu_types_pkg::CU_SIZE_W;
          default:        legal = 1'b0;
        endcase
      end
      OPC_STORE: begin
        dec.unit     = ppu_types_pkg::CU_UNIT_STORE;
        dec.b_imm    = 1'b1;
        dec.imm      = imm_s;
        dec.rs1_read = 1'b1;
        dec.rs2_read = 1'b1;
        unique case (f3)
          3'b000:  dec.ls_size = ppu_types_pkg::CU_SIZE_B;
          3'b001:  dec.ls_size = ppu_types_pkg::CU_SIZE_H;
          3'b010:  dec.ls_size = ppu_types_pkg::CU_SIZE_W;
          default: legal = 1'b0;
        endcase
      end
      OPC_OP_IMM: begin
        dec.unit     = ppu_types_pkg::CU_UNIT_ALU;
        dec.b_imm    = 1'b1;
        dec.imm      = imm_i;
        dec.rs1_read = 1'b1;
        rd_used      = 1'b1;
        unique case (f3)
          3'b000: dec.alu = ppu_types_pkg::CU_ALU_ADD;
          3'b010: dec.alu = ppu_types_pkg::CU_ALU_SLT;
          3'b011: dec.alu = ppu_types_pkg::CU_ALU_SLTU;
          3'b100: dec.alu = ppu_types_pkg::CU_ALU_XOR;
          3'b110: dec.alu = ppu_types_pkg::CU_ALU_OR;
          3'b111: dec.alu = ppu_types_pkg::CU_ALU_AND;
          3'b001: begin
            dec.alu = ppu_types_pkg::CU_ALU_SLL;
            dec.imm = imm_sh;
            legal   = f7 == F7_BASE;
          end
          default: begin   // 3'b101
            dec.alu = (f7 == F7_ALT) ? ppu_types_pkg::CU_ALU_SRA : ppu_types_pkg::CU_ALU_SRL;
            dec.imm = imm_sh;
            legal   = f7 == F7_BASE || f7 == F7_ALT;
          end
        endcase
      end
      OPC_OP: begin
        dec.rs1_read = 1'b1;
        dec.rs2_read = 1'b1;
        rd_used      = 1'b1;
        if (f7 == F7_MD) begin
          dec.unit = ppu_types_pkg::CU_UNIT_MULDIV;
          unique case (f3)
            3'b000:  dec.md = ppu_types_pkg::CU_MD_MUL;
            3'b001:  dec.md = ppu_types_pkg::CU_MD_MULH;
            3'b010:  dec.md = ppu_types_pkg::CU_MD_MULHSU;
            3'b011:  dec.md = ppu_types_pkg::CU_MD_MULHU;
            3'b100:  dec.md = ppu_types_pkg::CU_MD_DIV;
            3'b101:  dec.md = ppu_types_pkg::CU_MD_DIVU;
            3'b110:  dec.md = ppu_types_pkg::CU_MD_REM;
            default: dec.md = ppu_types_pkg::CU_MD_REMU;
          endcase
        end else begin
          dec.unit = ppu_types_pkg::CU_UNIT_ALU;
          unique case (f3)
            3'b000:  dec.alu = (f7 == F7_ALT) ? ppu_types_pkg::CU_ALU_SUB : ppu_types_pkg::CU_ALU_ADD;
            3'b001:  dec.alu = ppu_types_pkg::CU_ALU_SLL;
            3'b010:  dec.alu = ppu_types_pkg::CU_ALU_SLT;
            3'b011:  dec.alu = ppu_types_pkg::CU_ALU_SLTU;
            3'b100:  dec.alu = ppu_types_pkg::CU_ALU_XOR;
            3'b101:  dec.alu = (f7 == F7_ALT) ? ppu_types_pkg::CU_ALU_SRA : ppu_types_pkg::CU_ALU_SRL;
            3'b110:  dec.alu = ppu_types_pkg::CU_ALU_OR;
            default: dec.alu = ppu_types_pkg::CU_ALU_AND;
          endcase
          // Only ADD/SUB and SRL/SRA have an alternate form.
          legal = f7 == F7_BASE || (f7 == F7_ALT && (f3 == 3'b000 || f3 == 3'b101));
        end
      end
      OPC_AMO: begin
        // Address = rs1 + 0 through the ALU, like any other access.
        dec.b_imm    = 1'b1;
        dec.ls_size  = ppu_types_pkg::CU_SIZE_W;
        dec.rs1_read = 1'b1;
        dec.rs2_read = 1'b1;
        rd_used      = 1'b1;
        dec.unit     = ppu_types_pkg::CU_UNIT_AMO;
        unique case (f5)
          5'b00010: begin
            dec.unit     = ppu_types_pkg::CU_UNIT_LR;
            dec.rs2_read = 1'b0;
            legal        = instr[24:20] == 5'd0;
          end
          5'b00011: dec.unit = ppu_types_pkg::CU_UNIT_SC;
          5'b00000: dec.amo  = ppu_types_pkg::CU_AMO_ADD;
          5'b00001: dec.amo  = ppu_types_pkg::CU_AMO_SWAP;
          5'b00100: dec.amo  = ppu_types_pkg::CU_AMO_XOR;
          5'b01100: dec.amo  = ppu_types_pkg::CU_AMO_AND;
          5'b01000: dec.amo  = ppu_types_pkg::CU_AMO_OR;
          5'b10000: dec.amo  = ppu_types_pkg::CU_AMO_MIN;
          5'b10100: dec.amo  = ppu_types_pkg::CU_AMO_MAX;
          5'b11000: dec.amo  = ppu_types_pkg::CU_AMO_MINU;
          5'b11100: dec.amo  = ppu_types_pkg::CU_AMO_MAXU;
          default:  legal    = 1'b0;
        endcase
        if (f3 != 3'b010) legal = 1'b0;   // .W only: there is no RV64 .D
      end
      OPC_MISC_MEM: begin
        unique case (f3)
          3'b000:  dec.unit = ppu_types_pkg::CU_UNIT_FENCE;
          3'b001:  dec.unit = ppu_types_pkg::CU_UNIT_FENCE_I;
          default: legal = 1'b0;
        endcase
      end
      OPC_SYSTEM: begin
        unique case (f3)
          3'b000: begin
            if (instr[31:7] == ECALL_HI)       dec.unit = ppu_types_pkg::CU_UNIT_ECALL;
            else if (instr[31:7] == EBREAK_HI) dec.unit = ppu_types_pkg::CU_UNIT_EBREAK;
            else                               legal = 1'b0;
          end
          // CSRRS/CSRRC with rs1 = x0 and CSRRSI/CSRRCI with uimm = 0 only
          // read; the same field nonzero would write.
          3'b010, 3'b011, 3'b110, 3'b111: begin
            dec.unit = ppu_types_pkg::CU_UNIT_CSR;
            dec.csr  = instr[31:20];
            rd_used  = 1'b1;
            legal    = csr_known && instr[19:15] == 5'd0;
          end
          default: legal = 1'b0;   // CSRRW/CSRRWI always write; 3'b100 is unassigned
        endcase
      end
      default: legal = 1'b0;
    endcase

    if (!legal) begin
      dec         = '0;
      dec.illegal = 1'b1;
      rd_used     = 1'b0;
    end
    dec.rs1      = instr[19:15];
    dec.rs2      = instr[24:20];
    dec.rd       = instr[11:7];
    dec.rd_write = rd_used && instr[11:7] != 5'd0;
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
