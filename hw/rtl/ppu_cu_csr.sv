// SPDX-License-Identifier: MIT
// CSR read mux of a compute unit (docs/compute-design.md §4.4), purely
// combinational, in S3.  Only reads exist: the decoder already made every
// write and every unknown number an illegal instruction, so csr is always
// one of ppu_compute.def's numbers here.
//
// cycle/time are the PPU's timestamp (the semaphore timestamp clock);
// instret counts the instructions this CU retired; the task's fields come
// from the context's CTA dispatch record.  CHILD_BLOCK and CHILD_STACK are
// 0 (device launches are not built yet).
module ppu_cu_csr #(
  parameter int unsigned CU_INDEX = 0,
  parameter int unsigned CTX      = 8,
  parameter int unsigned NUM_CU   = 4
) (
  input  logic [11:0]                csr,
  input  logic [63:0]                cycle,
  input  logic [63:0]                instret,
  input  logic [$clog2(CTX)-1:0]     ctx,
  input  logic [10:0]                tid,       // thread index in the CTA
  input  ppu_types_pkg::cu_disp_t    cta,
  output logic [31:0]                value
);

  always_comb begin
    unique case (32'(csr))
      ppu_hw_pkg::PPU_CSR_CYCLE, ppu_hw_pkg::PPU_CSR_TIME: value = cycle[31:0];
      ppu_hw_pkg::PPU_CSR_CYCLEH, ppu_hw_pkg::PPU_CSR_TIMEH: value = cycle[63:32];
      ppu_hw_pkg::PPU_CSR_INSTRET:     value = instret[31:0];
      ppu_hw_pkg::PPU_CSR_INSTRETH:    value = instret[63:32];
      ppu_hw_pkg::PPU_CSR_TID:         value = 32'(tid);
      ppu_hw_pkg::PPU_CSR_NTID:        value = 32'(cta.nthreads);
      ppu_hw_pkg::PPU_CSR_CTAID:       value = cta.cta_id;
      ppu_hw_pkg::PPU_CSR_NCTAID:      value = cta.ncta;
      ppu_hw_pkg::PPU_CSR_CTADIM_X:    value = 32'(cta.cta_x);
      ppu_hw_pkg::PPU_CSR_CTADIM_Y:    value = 32'(cta.cta_y);
      ppu_hw_pkg::PPU_CSR_CTADIM_Z:    value = 32'(cta.cta_z);
      ppu_hw_pkg::PPU_CSR_GRID_X:      value = cta.grid_x;
      ppu_hw_pkg::PPU_CSR_GRID_Y:      value = 32'(cta.grid_y);
      ppu_hw_pkg::PPU_CSR_GRID_Z:      value = 32'(cta.grid_z);
      ppu_hw_pkg::PPU_CSR_PARAM:       value = cta.param;
      ppu_hw_pkg::PPU_CSR_PRIO:        value = 32'(cta.prio);
      ppu_hw_pkg::PPU_CSR_DEPTH:       value = 32'(cta.depth);
      ppu_hw_pkg::PPU_CSR_MAXDEPTH:    value = 32'(cta.maxdepth);
      ppu_hw_pkg::PPU_CSR_TASKID:      value = 32'(cta.tid);
      ppu_hw_pkg::PPU_CSR_HWID:        value = 32'(CU_INDEX << 8) | 32'(ctx);
      ppu_hw_pkg::PPU_CSR_CU_CONTEXTS: value = 32'(CTX);
      ppu_hw_pkg::PPU_CSR_NUM_CU:      value = 32'(NUM_CU);
      default:                         value = 32'd0;   // CHILD_BLOCK, CHILD_STACK
    endcase
  end

  // Fields of the record that no CSR reports.
  logic unused;
  assign unused = ^{cta.tslot, cta.chid, cta.root, cta.entry_pc, cta.stack_va, cta.stack_log2, cta.resume, cta.save_va,
                    cta.hdr_va};

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
