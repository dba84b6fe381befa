// SPDX-License-Identifier: MIT
// M extension of a compute unit (docs/compute-design.md §4.1): a
// combinational multiplier used in S3 and one iterative divider per CU.
//
// Multiplier: mul_result follows a, b and op (MUL, MULH, MULHSU, MULHU) in
// the same cycle.  One 33 x 33 signed product covers all four: each operand
// is extended by a sign bit (its own top bit when that operand is signed
// for op, else 0), so the upper word of the 66-bit product is right for
// every signedness mix and the lower word is MUL's.
//
// Divider: a context issues DIV/DIVU/REM/REMU with div_valid and the same
// a, b, op; the divider takes it when idle (div_ready) together with a tag
// the CU chooses (context, rd), and the context sleeps.  It divides the
// magnitudes by restoring division, one quotient bit per cycle for 32
// cycles, and then offers the signed result with div_done_valid until
// div_done_ready: the register file's write port is shared with the
// pipeline, so the CU takes the result when it has a free write slot.  From
// acceptance to div_done_valid is 33 cycles.  busy covers both the
// division and the offered result (for quiesce, §4.2).
//
// RISC-V's defined results need one special case only: dividing by 0
// gives quotient all ones and remainder = dividend by itself (no
// subtraction ever borrows), but for DIV the quotient must not then be
// negated.  INT_MIN / -1 needs none: the magnitude 2^31 over 1 is 2^31,
// negated back to INT_MIN, remainder 0.
module ppu_cu_muldiv #(
  parameter int unsigned TAG_W = 8
) (
  input  logic                   clk,
  input  logic                   rst_n,
  input  logic [31:0]            a,              // rs1
  input  logic [31:0]            b,              // rs2
  input  ppu_types_pkg::cu_md_e  op,
  output logic [31:0]            mul_result,     // MUL*: combinational
  input  logic                   div_valid,      // DIV*/REM*: start with a, b, op
  output logic                   div_ready,
  input  logic [TAG_W-1:0]       div_tag,
  output logic                   div_done_valid, // held with the result until ready
  input  logic                   div_done_ready,
  output logic [31:0]            div_result,
  output logic [TAG_W-1:0]       div_done_tag,
  output logic                   busy
);

  // ---- Multiplier ----
  logic               a_signed, b_signed;
  logic signed [32:0] ma, mb;
  // The low 64 bits of the 66-bit product of the 33-bit operands, all that
  // MUL and MULH* use: a 64-bit multiply, not a wide one in simulation.
  logic signed [63:0] prod;

  always_comb begin
    unique case (op)
      ppu_types_pkg::CU_MD_MULH:   begin a_signed = 1'b1; b_signed = 1'b1; end
      ppu_types_pkg::CU_MD_MULHSU: begin a_signed = 1'b1; b_signed = 1'b0; end
      ppu_types_pkg::CU_MD_DIV,
      ppu_types_pkg::CU_MD_REM:    begin a_signed = 1'b1; b_signed = 1'b1; end
      default:                     begin a_signed = 1'b0; b_signed = 1'b0; end
    endcase
    ma   = {a_signed & a[31], a};
    mb   = {b_signed & b[31], b};
    prod = 64'(ma) * 64'(mb);
    mul_result = (op == ppu_types_pkg::CU_MD_MUL) ? prod[31:0] : prod[63:32];
  end

  // ---- Divider ----
  typedef enum logic [1:0] {
    D_IDLE,
    D_RUN,    // one quotient bit per cycle
    D_DONE    // result offered until taken
  } dstate_e;

  dstate_e           state_q;
  logic [4:0]        cnt_q;      // quotient bits still to produce, minus one
  logic [31:0]       rem_q;      // partial remainder, always < divisor (or the dividend's top bits for /0)
  logic [31:0]       quo_q;      // dividend bits not yet consumed, quotient bits shifted in below
  logic [31:0]       dvs_q;      // divisor magnitude
  logic              is_rem_q;
  logic              neg_quo_q;  // operands of opposite sign, divisor nonzero
  logic              neg_rem_q;  // the remainder takes the dividend's sign
  logic [TAG_W-1:0]  tag_q;

  // Operand magnitudes and signs at acceptance.  Signedness is a_signed,
  // which the op decode above also gives DIV and REM.
  logic [31:0] mag_a, mag_b;
  logic        div_is_rem;
  assign mag_a      = (a_signed && a[31]) ? 32'(-a) : a;
  assign mag_b      = (b_signed && b[31]) ? 32'(-b) : b;
  assign div_is_rem = (op == ppu_types_pkg::CU_MD_REM) || (op == ppu_types_pkg::CU_MD_REMU);

  // One restoring step: shift the next dividend bit into the remainder and
  // subtract the divisor if it fits.  The shifted remainder is < 2 * divisor,
  // so 33 bits hold it, and what is kept is < divisor again.
  logic [32:0] rem_sh;
  logic [33:0] trial;
  assign rem_sh = {rem_q, quo_q[31]};
  assign trial  = {1'b0, rem_sh} - {2'b0, dvs_q};

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state_q   <= D_IDLE;
      cnt_q     <= '0;
      rem_q     <= '0;
      quo_q     <= '0;
      dvs_q     <= '0;
      is_rem_q  <= 1'b0;
      neg_quo_q <= 1'b0;
      neg_rem_q <= 1'b0;
      tag_q     <= '0;
    end else begin
      unique case (state_q)
        D_IDLE: begin
          if (div_valid) begin
            rem_q     <= '0;
            quo_q     <= mag_a;
            dvs_q     <= mag_b;
            is_rem_q  <= div_is_rem;
            neg_quo_q <= a_signed && (a[31] != b[31]) && (b != '0);
            neg_rem_q <= a_signed && a[31];
            tag_q     <= div_tag;
            cnt_q     <= 5'd31;
            state_q   <= D_RUN;
          end
        end
        D_RUN: begin
          if (!trial[33]) begin
            rem_q <= trial[31:0];
            quo_q <= {quo_q[30:0], 1'b1};
          end else begin
            rem_q <= rem_sh[31:0];
            quo_q <= {quo_q[30:0], 1'b0};
          end
          cnt_q <= cnt_q - 5'd1;
          if (cnt_q == '0) state_q <= D_DONE;
        end
        D_DONE: if (div_done_ready) state_q <= D_IDLE;
        default: state_q <= D_IDLE;
      endcase
    end
  end

  assign div_ready      = state_q == D_IDLE;
  assign div_done_valid = state_q == D_DONE;
  assign div_done_tag   = tag_q;
  assign busy           = state_q != D_IDLE;

  always_comb begin
    if (is_rem_q) div_result = neg_rem_q ? 32'(-rem_q) : rem_q;
    else          div_result = neg_quo_q ? 32'(-quo_q) : quo_q;
  end

  // trial[32] is 0 whenever the subtraction does not borrow (the kept
  // remainder is < divisor), and rem_sh[32] is dropped only when it is 0.
  logic unused;
  assign unused = ^{trial[32], rem_sh[32]};

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
