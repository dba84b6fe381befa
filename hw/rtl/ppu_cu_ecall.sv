// SPDX-License-Identifier: MIT
// ecall decode of a compute unit (docs/compute-design.md §5), purely
// combinational, in S3.  a7 is the operation, a0 the first argument (the
// pipeline reads x17 and x10 for an ecall).  EXIT and BARRIER go to the
// CTA bookkeeping of ppu_cu_sched; LAUNCH and WAIT_CHILDREN to the task
// table (is_dev, with a0); TRAP is a KERNEL_TRAP fault with the code a0.
// Unknown operations return at once with a0 = ENOSYS; a1 and every other
// register are left as they were.  This is the reference model's
// behaviour (tests/iss) for everything but LAUNCH and WAIT_CHILDREN.
module ppu_cu_ecall (
  input  logic [31:0] a7,
  input  logic [31:0] a0,
  output logic        is_exit,
  output logic        is_barrier,
  output logic        is_trap,
  output logic        is_dev,
  output logic        is_launch,
  output logic [31:0] trap_code,
  output logic [31:0] ret_a0
);

  assign is_exit    = a7 == 32'(ppu_hw_pkg::PPU_ECALL_OP_EXIT);
  assign is_barrier = a7 == 32'(ppu_hw_pkg::PPU_ECALL_OP_BARRIER);
  assign is_trap    = a7 == 32'(ppu_hw_pkg::PPU_ECALL_OP_TRAP);
  assign is_launch  = a7 == 32'(ppu_hw_pkg::PPU_ECALL_OP_LAUNCH);
  assign is_dev     = is_launch || a7 == 32'(ppu_hw_pkg::PPU_ECALL_OP_WAIT_CHILDREN);
  assign trap_code  = a0;
  assign ret_a0     = 32'(ppu_hw_pkg::PPU_ECALL_STATUS_ENOSYS);

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
