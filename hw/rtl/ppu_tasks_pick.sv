// SPDX-License-Identifier: MIT
// Policy of the priority task table (docs/compute-design.md §3.2), purely
// combinational like ppu_sched: ppu_tasks owns the state and carries the
// decisions out: rules 1, 4 and 5 (eviction, rule 2, and preemption, rule
// 6, choose their victims in ppu_tasks from the slot and save-slot state):
//
//  - Activation: P = the highest non-empty pending priority; the slot for
//    it is the lowest free one.  The head of P's list is the task (the
//    lists are FIFOs, so activation is by priority, then launch order).
//  - Dispatch candidate: among the slots that can dispatch (active, channel
//    not killed, a CTA left and a free save slot), the highest priority;
//    ties go to the oldest activation (older[a][b] = slot a was activated
//    before slot b, a strict order over the occupied slots).
//  - Placement: need = the candidate's threads per CTA, at most
//    CU_CONTEXTS (a larger CTA takes a whole unit and runs in waves); the CU with the
//    most free contexts >= need, ties to the lowest index.  When no CU fits,
//    nothing is dispatched (no lower-priority task is placed instead: the
//    candidate keeps its claim on the next contexts to free up).
//
// Not built: rule 3 (idle eviction, for parents waiting on children).
module ppu_tasks_pick #(
  parameter int unsigned TASK_SLOTS  = 8,
  parameter int unsigned NUM_CU      = 4,
  parameter int unsigned CU_CONTEXTS = 8,
  localparam int unsigned TS_W   = (TASK_SLOTS > 1) ? $clog2(TASK_SLOTS) : 1,
  localparam int unsigned CU_W   = (NUM_CU > 1) ? $clog2(NUM_CU) : 1,
  localparam int unsigned CTXC_W = $clog2(CU_CONTEXTS + 1)
) (
  // activation
  input  logic [63:0]                  pend_nonempty,  // per priority
  input  logic [TASK_SLOTS-1:0]        slot_used,
  output logic                         act_valid,      // a slot is free and a task pending
  output logic [5:0]                   act_prio,
  output logic [TS_W-1:0]              act_slot,
  // dispatch
  input  logic [TASK_SLOTS-1:0]        slot_disp,      // slot may dispatch a CTA
  input  logic [TASK_SLOTS*6-1:0]      slot_prio,
  input  logic [TASK_SLOTS*11-1:0]     slot_need,      // contexts per CTA
  input  logic [TASK_SLOTS*TASK_SLOTS-1:0] older,      // bit a*TASK_SLOTS+b: a older than b
  input  logic [NUM_CU*CTXC_W-1:0]     free_ctx,
  output logic                         cand_valid,     // a slot may dispatch
  output logic [TS_W-1:0]              cand_slot,
  output logic                         place_valid,    // ... and a CU fits its CTA
  output logic [CU_W-1:0]              place_cu
);

  // ---- Activation ----
  logic [63:0] act_hi;
  always_comb begin
    // highest set bit, by halving
    act_hi   = pend_nonempty;
    act_prio = '0;
    for (int l = 5; l >= 0; l--) begin
      if ((act_hi >> (1 << l)) != 64'd0) begin
        act_prio[l] = 1'b1;
        act_hi      = act_hi >> (1 << l);
      end
    end
    act_slot = '0;
    for (int s = TASK_SLOTS - 1; s >= 0; s--)
      if (!slot_used[s]) act_slot = TS_W'(s);
    act_valid = (pend_nonempty != '0) && !(&slot_used);
  end

  // ---- Dispatch candidate ----
  // One pass: older[] is a strict order over the occupied slots, so the
  // running best is replaced by a slot of higher priority, or of the same
  // priority activated before it.
  always_comb begin
    cand_valid = 1'b0;
    cand_slot  = '0;
    for (int s = 0; s < TASK_SLOTS; s++) begin
      if (slot_disp[s] &&
          (!cand_valid || slot_prio[s*6 +: 6] > slot_prio[cand_slot*6 +: 6] ||
           (slot_prio[s*6 +: 6] == slot_prio[cand_slot*6 +: 6] && older[s*TASK_SLOTS + 32'(cand_slot)]))) begin
        cand_valid = 1'b1;
        cand_slot  = TS_W'(s);
      end
    end
  end

  // ---- Placement ----
  logic [10:0]       need;
  logic [CTXC_W-1:0] best_free;
  always_comb begin
    need        = slot_need[cand_slot*11 +: 11];
    place_valid = 1'b0;
    place_cu    = '0;
    best_free   = '0;
    for (int i = 0; i < NUM_CU; i++) begin
      if (11'(free_ctx[i*CTXC_W +: CTXC_W]) >= need &&
          (!place_valid || free_ctx[i*CTXC_W +: CTXC_W] > best_free)) begin
        place_valid = 1'b1;
        place_cu    = CU_W'(i);
        best_free   = free_ctx[i*CTXC_W +: CTXC_W];
      end
    end
    place_valid = place_valid && cand_valid;
  end

endmodule

// Linting this block on its own flags the package constants that only other
// blocks use.
`ifdef VERILATOR
`verilator_config
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_TAG_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'XLATE_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'MEM_WR_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'SEM_REQ_W'*"
lint_off -rule UNUSEDPARAM -file "*ppu_types_pkg.sv" -match "*'CU_DISP_W'*"
`endif
