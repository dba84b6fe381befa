// SPDX-License-Identifier: MIT
// Internal interfaces between PPU blocks.  Hardware formats visible to
// software live in ppu_hw_pkg (generated from include/ppu/*.def); this
// package only holds the shapes of the wires between modules.
//
// Yosys 0.23 notes: arrays of structs are flat vectors (*_W below) sliced
// with +:, never arr[i].field; port types are always package-qualified.
package ppu_types_pkg;

  localparam int unsigned PA_W = 34;          // Sv32 physical address width
  localparam int unsigned MEM_BYTES = 8;      // memory beat (fixed: 64-bit port)
  localparam int unsigned MEM_DW = MEM_BYTES * 8;
  localparam int unsigned MEM_TAG_W = 3;      // memory client id echoed back
  // A channel id between blocks: the software width, so that an id no
  // channel has stays distinct from every channel's (NUM_CHANNELS <= 2^CHID_W).
  // PPU_CHID_BITS, which ppu_regs checks: Yosys 0.23 cannot read one
  // package's parameter in another.
  localparam int unsigned CHID_W = 12;

  // Widths of the structs below, for flat vector ports: Yosys 0.23 drops
  // the packed dimension of an array of a typedef in a port, and it cannot
  // take $bits() of a package type.  ppu_top checks these under Verilator.
  localparam int unsigned PADDR_W = 1 + PA_W;                  // paddr_t
  localparam int unsigned XLATE_REQ_W = 32 + 23 + 2;           // xlate_req_t
  localparam int unsigned MEM_WR_REQ_W = PADDR_W + 64 + 8;     // mem_wr_req_t
  localparam int unsigned SEM_REQ_W = 8 + CHID_W + 23 + 32 + 32 + 64;   // sem_req_t

  // A physical address with its aperture: sys = 1 for system memory.
  typedef struct packed {
    logic            sys;
    logic [PA_W-1:0] addr;
  } paddr_t;

  // Context of the page tables a request is translated with.
  typedef struct packed {
    logic        sys;
    logic [21:0] ppn;
  } pt_root_t;

  typedef enum logic [1:0] {
    ACC_READ  = 2'd0,
    ACC_WRITE = 2'd1,
    ACC_RMW   = 2'd2,
    ACC_EXEC  = 2'd3
  } access_e;

  // ---- MMU client port: req valid/ready, rsp is a one-cycle pulse. ----
  typedef struct packed {
    logic [31:0] va;
    pt_root_t    root;
    access_e     access;
  } xlate_req_t;

  typedef struct packed {
    logic        fault;
    logic [7:0]  kind;     // PPU_FAULT_KIND_*
    paddr_t      pa;       // valid when !fault; page offset copied from va
  } xlate_rsp_t;

  // ---- Memory client ports ----
  // Read: one beat, address beat-aligned.  Responses come back in request
  // order, one-cycle pulse, no back-pressure: a client issues a read only
  // when it can take the data.
  typedef struct packed {
    logic [MEM_DW-1:0] data;
    logic              err;   // address not backed by memory
  } mem_rd_rsp_t;

  typedef struct packed {
    paddr_t               pa;     // beat-aligned
    logic [MEM_DW-1:0]    data;
    logic [MEM_BYTES-1:0] strb;
  } mem_wr_req_t;

  // ---- Semaphore unit request (host methods, copy completion, compute) ----
  typedef struct packed {
    logic [7:0]  rid;        // requester of an AMO: its LR/SC reservation (0 otherwise)
    logic [CHID_W-1:0] chid;
    pt_root_t    root;
    logic [31:0] va;
    logic [31:0] exec;       // SEM_EXECUTE word (ppu_hw_pkg fields)
    logic [63:0] payload;
  } sem_req_t;

  typedef struct packed {
    logic        acq_fail;   // acquire condition not met (no fault)
    logic        fault;
    logic [7:0]  kind;
    access_e     access;
    logic [31:0] value;      // value read (acquire) or written
  } sem_rsp_t;

  // ---- Copy engine command (LAUNCH_DMA) ----
  typedef struct packed {
    logic [CHID_W-1:0] chid;
    pt_root_t    root;
    logic [31:0] src;
    logic [31:0] dst;
    logic [31:0] len;
    logic [1:0]  sem_mode;   // PPU_LAUNCH_DMA_SEMAPHORE_*
    logic [31:0] sem_va;
    logic [31:0] sem_payload;
  } copy_cmd_t;

  typedef struct packed {
    logic        fault;
    logic [7:0]  kind;
    logic [3:0]  unit;       // PPU_FAULT_UNIT_*
    access_e     access;
    logic [31:0] addr;
  } copy_done_t;

  // ---- Scheduler decision (ppu_sched -> ppu_host) ----
  typedef enum logic [2:0] {
    SCHED_WAIT,       // nothing can run
    SCHED_UNBIND,     // drop the channel's state (CHAN_CTRL UNBIND)
    SCHED_DOORBELL,   // bind the channel or re-read its GP_PUT
    SCHED_GUEST,      // serve the channel while the resident's copy runs
    SCHED_RESUME,     // serve the resident again
    SCHED_SWITCH,     // the channel becomes resident
    SCHED_DROP        // the resident blocked and nobody else can run
  } sched_dec_e;

  // ---- Event trace record ----
  typedef struct packed {
    logic        valid;
    logic [7:0]  kind;       // PPU_TRACE_*
    logic [CHID_W-1:0] chid;
    logic [31:0] a;
    logic [31:0] b;
  } trace_t;

  // ---- Compute unit: decoded instruction (ppu_cu_decode -> CU pipeline) ----
  // Encodings below are internal to the compute unit; only the CSR numbers
  // and ecall operations are software-visible (ppu_hw_pkg).

  // Which block of the CU executes the instruction.
  typedef enum logic [3:0] {
    CU_UNIT_ALU     = 4'd0,   // OP, OP-IMM, LUI, AUIPC
    CU_UNIT_BRANCH  = 4'd1,
    CU_UNIT_JAL     = 4'd2,
    CU_UNIT_JALR    = 4'd3,
    CU_UNIT_LOAD    = 4'd4,
    CU_UNIT_STORE   = 4'd5,
    CU_UNIT_MULDIV  = 4'd6,
    CU_UNIT_AMO     = 4'd7,   // AMO*.W; the op is in cu_dec_t.amo
    CU_UNIT_LR      = 4'd8,
    CU_UNIT_SC      = 4'd9,
    CU_UNIT_CSR     = 4'd10,  // a read: writes are illegal
    CU_UNIT_ECALL   = 4'd11,
    CU_UNIT_EBREAK  = 4'd12,
    CU_UNIT_FENCE   = 4'd13,  // ordering only: waits for the context's stores
    CU_UNIT_FENCE_I = 4'd14
  } cu_unit_e;

  typedef enum logic [3:0] {
    CU_ALU_ADD    = 4'd0,
    CU_ALU_SUB    = 4'd1,
    CU_ALU_SLL    = 4'd2,
    CU_ALU_SLT    = 4'd3,
    CU_ALU_SLTU   = 4'd4,
    CU_ALU_XOR    = 4'd5,
    CU_ALU_SRL    = 4'd6,
    CU_ALU_SRA    = 4'd7,
    CU_ALU_OR     = 4'd8,
    CU_ALU_AND    = 4'd9,
    CU_ALU_PASS_B = 4'd10     // LUI: the immediate itself
  } cu_alu_e;

  // Branch conditions, numbered as the branches' funct3.
  typedef enum logic [2:0] {
    CU_BR_EQ  = 3'd0,
    CU_BR_NE  = 3'd1,
    CU_BR_LT  = 3'd4,
    CU_BR_GE  = 3'd5,
    CU_BR_LTU = 3'd6,
    CU_BR_GEU = 3'd7
  } cu_br_e;

  // M extension, numbered as its funct3.
  typedef enum logic [2:0] {
    CU_MD_MUL    = 3'd0,
    CU_MD_MULH   = 3'd1,
    CU_MD_MULHSU = 3'd2,
    CU_MD_MULHU  = 3'd3,
    CU_MD_DIV    = 3'd4,
    CU_MD_DIVU   = 3'd5,
    CU_MD_REM    = 3'd6,
    CU_MD_REMU   = 3'd7
  } cu_md_e;

  typedef enum logic [3:0] {
    CU_AMO_ADD  = 4'd0,
    CU_AMO_SWAP = 4'd1,
    CU_AMO_XOR  = 4'd2,
    CU_AMO_AND  = 4'd3,
    CU_AMO_OR   = 4'd4,
    CU_AMO_MIN  = 4'd5,
    CU_AMO_MAX  = 4'd6,
    CU_AMO_MINU = 4'd7,
    CU_AMO_MAXU = 4'd8
  } cu_amo_e;

  // Access size, numbered as funct3[1:0] of loads and stores.
  typedef enum logic [1:0] {
    CU_SIZE_B = 2'd0,
    CU_SIZE_H = 2'd1,
    CU_SIZE_W = 2'd2,
    CU_SIZE_D = 2'd3           // 8 bytes, 8-aligned: thread-record saves only
  } cu_size_e;

  // One decoded instruction.  rs1/rs2/rd are always the raw instruction
  // fields, so the register file can be read in parallel with the decode;
  // rs1_read/rs2_read/rd_write say whether they are used (rd_write is 0 for
  // rd = x0).  Every other field is 0 unless the instruction uses it; an
  // illegal word has illegal = 1 and all fields but the raw indices 0.
  //
  // The ALU computes alu(a_pc ? pc : rs1, b_imm ? imm : rs2) for every unit
  // that needs an address or value: ALU, JAL/JALR (target; the link pc + 4
  // is the CU's), LOAD/STORE/AMO/LR/SC (address, imm = 0 for the atomics).
  // BRANCH compares rs1 with rs2 (br) and its target is pc + imm.
  typedef struct packed {
    logic        illegal;
    cu_unit_e    unit;
    cu_alu_e     alu;
    logic        a_pc;
    logic        b_imm;
    cu_br_e      br;
    logic [4:0]  rs1;
    logic [4:0]  rs2;
    logic [4:0]  rd;
    logic        rs1_read;
    logic        rs2_read;
    logic        rd_write;
    logic [31:0] imm;         // sign-extended I/S/B/U/J immediate, shamt for shifts
    cu_size_e    ls_size;     // LOAD/STORE, and W for AMO/LR/SC
    logic        ls_unsigned; // LBU/LHU
    cu_amo_e     amo;
    cu_md_e      md;
    logic [11:0] csr;         // CSR: a number listed in ppu_compute.def
  } cu_dec_t;

  // ---- Compute unit: CTA dispatch, events, faults (ppu_cu) ----
  // One CTA placed on a CU's free contexts (docs/compute-design.md §4.2).
  // Thread i of the CTA starts with PC = entry_pc, a0 = param, a1 = i,
  // tp = stack_va + i * 2^stack_log2 and sp = tp + 2^stack_log2 (stack_log2
  // = 0: no stack, sp = tp = stack_va); every other register reads 0.
  localparam int unsigned CU_TSLOT_W = 4;     // task-table slot index
  // Flat width of cu_disp_t (per-CTA tables store records as vectors).
  localparam int unsigned CU_DISP_W = 1 + 32 + 32 + CU_TSLOT_W + 8 + CHID_W + 23 + 32 + 11 + 32 + 32 + 32 + 5
                                      + 3 * 11 + 32 + 16 + 16 + 32 + 6 + 7 + 7;

  // resume = 1: the CTA was preempted; thread i's registers, PC and state
  // are read back from its thread record at save_va + i * 128 (entry_pc is
  // then unused).  save_va is the record of thread 0 of the CTA's save slot,
  // hdr_va its slot header (a CTA in waves keeps its wave state there while
  // it is off the unit).
  typedef struct packed {
    logic        resume;
    logic [31:0] save_va;
    logic [31:0] hdr_va;
    logic [CU_TSLOT_W-1:0] tslot;
    logic [7:0]  tid;          // hardware task id (PPU_TASKID)
    logic [CHID_W-1:0] chid;
    pt_root_t    root;
    logic [31:0] cta_id;       // linear CTA index (PPU_CTAID)
    logic [10:0] nthreads;     // t, 1..1024 (more than the unit's contexts: waves)
    logic [31:0] entry_pc;
    logic [31:0] param;
    logic [31:0] stack_va;     // stack of thread 0 of this CTA
    logic [4:0]  stack_log2;   // bytes per thread = 2^stack_log2; 0: none
    logic [10:0] cta_x;
    logic [10:0] cta_y;
    logic [10:0] cta_z;
    logic [31:0] grid_x;
    logic [15:0] grid_y;
    logic [15:0] grid_z;
    logic [31:0] ncta;         // grid_x * grid_y * grid_z (PPU_NCTAID)
    logic [5:0]  prio;
    logic [6:0]  depth;
    logic [6:0]  maxdepth;
  } cu_disp_t;

  // What became of a dispatched CTA; exactly one event per CTA.
  typedef enum logic [1:0] {
    CU_EV_EXITED = 2'd0,       // every thread exited, every store acknowledged
    CU_EV_KILLED = 2'd1,       // dropped by a kill, after quiescing
    CU_EV_SAVED  = 2'd2,       // preempted: every thread record written and acknowledged
    CU_EV_SAVED_WAIT = 2'd3    // saved the same way because its threads wait for children
  } cu_ev_e;

  localparam int unsigned CU_EV_W = 2 + CU_TSLOT_W + 32;     // cu_ev_t

  typedef struct packed {
    cu_ev_e                kind;
    logic [CU_TSLOT_W-1:0] tslot;
    logic [31:0]           cta_id;
  } cu_ev_t;

  // A CTA to drop (save = 0) or to preempt (save = 1): the resident CTA
  // with this {tslot, cta_id}.
  typedef struct packed {
    logic                  save;
    logic [CU_TSLOT_W-1:0] tslot;
    logic [31:0]           cta_id;
  } cu_kill_t;

  localparam int unsigned CU_FAULT_W = CHID_W + 8 + 4 + 2 + 32 + 32;   // cu_fault_t

  // Device-runtime ecalls a unit hands to the task table (LAUNCH,
  // WAIT_CHILDREN): the asking context, its CTA and a0.
  localparam int unsigned CU_DREQ_W = 1 + 3 + 4 + CU_TSLOT_W + 32 + 32;   // cu_dreq_t

  typedef struct packed {
    logic                  launch;     // 1 LAUNCH (arg = TMD VA), 0 WAIT_CHILDREN
    logic [2:0]            cu;
    logic [3:0]            ctx;
    logic [CU_TSLOT_W-1:0] tslot;
    logic [31:0]           cta_id;
    logic [31:0]           arg;
  } cu_dreq_t;

  // The table's answer (to every unit; the one named takes it): a0 for the
  // context, or sleep = 1 for a WAIT_CHILDREN that must wait (the context
  // sleeps until a wake of its CTA and then runs the ecall again).
  typedef struct packed {
    logic [2:0]  cu;
    logic [3:0]  ctx;
    logic        sleep;
    logic [31:0] a0;
  } cu_drsp_t;

  // Wake: every child a CTA launched has completed (all = 1: every child of
  // the slot's task, so every CTA of the slot).
  typedef struct packed {
    logic                  all;
    logic [CU_TSLOT_W-1:0] tslot;
    logic [31:0]           cta_id;
  } cu_wake_t;

  // A channel fault raised by a compute unit (unit = COMPUTE): addr is the
  // data VA, or the PC for EXEC, ILLEGAL_INSTR and KERNEL_TRAP; data is the
  // PC, or the instruction (ILLEGAL_INSTR), or the trap code (KERNEL_TRAP).
  typedef struct packed {
    logic [CHID_W-1:0] chid;
    logic [7:0]  kind;         // PPU_FAULT_KIND_*
    logic [3:0]  unit;         // PPU_FAULT_UNIT_*
    access_e     access;
    logic [31:0] addr;
    logic [31:0] data;
  } cu_fault_t;

  // Context states of a compute unit (ppu_cu_sched), on the debug port.
  typedef enum logic [3:0] {
    CU_CTX_FREE  = 4'd0,
    CU_CTX_READY = 4'd1,       // may issue
    CU_CTX_PIPE  = 4'd2,       // an instruction in S1..S3
    CU_CTX_FWAIT = 4'd3,       // I-cache refill
    CU_CTX_MWAIT = 4'd4,       // load, AMO/LR/SC or division outstanding
    CU_CTX_SWAIT = 4'd5,       // its stores must be acknowledged first
    CU_CTX_BAR   = 4'd6,       // arrived at the CTA barrier
    CU_CTX_EXIT  = 4'd7,
    CU_CTX_FAULT = 4'd8,       // faulted; its CTA is frozen
    CU_CTX_SAVE  = 4'd9,       // preempted: storing its thread record
    CU_CTX_RSTR  = 4'd10,      // resumed: loading its thread record
    CU_CTX_SAVED = 4'd11,      // record issued, waiting for the acknowledgements
    CU_CTX_KWAIT = 4'd12       // WAIT_CHILDREN: asleep until its CTA's children are done
  } cu_ctx_e;

  // What S3 does with a context (ppu_cu -> ppu_cu_sched).
  typedef enum logic [3:0] {
    CU_A_NEXT   = 4'd0,        // retired: PC = next, ready again
    CU_A_REPLAY = 4'd1,        // not executed: ready again at the same PC
    CU_A_SWAIT  = 4'd2,        // not executed: wait for the stores, then again
    CU_A_MWAIT  = 4'd3,        // sent to the LSU or divider: wait for the result
    CU_A_STORE  = 4'd4,        // store queued: one more outstanding, PC = next
    CU_A_EXIT   = 4'd5,
    CU_A_BAR    = 4'd6,        // arrived at the barrier (PC stays at the ecall)
    CU_A_FAULT  = 4'd7,
    CU_A_UOP    = 4'd8         // a save/restore step done: next word of the record
  } cu_act_e;

  // ---- Task table ----
  // ppu_tasks: host launches, the task directory, pending lists, active
  // slots, CTA dispatch (cu_disp_t above), CTA events (cu_ev_t above) and
  // kills (cu_kill_t above).  See docs/hw-internals.md "Task table".

  // Host -> task table: launch of the TMD at tmd_va for channel chid, with
  // the channel's configuration (latched per channel at every launch).
  localparam int unsigned TASK_LAUNCH_W = CHID_W + 23 + 32 + 6 + 6 + 7;   // task_launch_t

  typedef struct packed {
    logic [CHID_W-1:0] chid;
    pt_root_t    root;
    logic [31:0] tmd_va;       // 64-byte aligned (TMD_INVALID otherwise)
    logic [5:0]  prio_min;     // PRIO is clamped to [prio_min, prio_max]
    logic [5:0]  prio_max;
    logic [6:0]  max_depth;    // the channel's N, 1..64; 0 is taken as 1
  } task_launch_t;

  typedef enum logic [1:0] {
    TASK_LAUNCH_OK      = 2'd0,  // accepted (queued or activated)
    TASK_LAUNCH_RETRY   = 2'd1,  // no free task id: retry on can_accept
    TASK_LAUNCH_FAULTED = 2'd2   // TMD unreadable or invalid (fault reported), or the channel is killed
  } task_status_e;

  // Directory state of a task id (debug port).
  typedef enum logic [2:0] {
    TASK_ST_FREE       = 3'd0,
    TASK_ST_PENDING    = 3'd1,   // on its priority's pending list
    TASK_ST_ACTIVE     = 3'd2,   // holds an active slot (from the activation pick on)
    TASK_ST_EVICTING   = 3'd3,   // (eviction: not built yet)
    TASK_ST_DRAINING   = 3'd4,   // (children outstanding: not built yet)
    TASK_ST_LAUNCHING  = 3'd5,   // id taken, TMD being read and checked
    TASK_ST_COMPLETING = 3'd6    // every CTA exited: completion release in progress
  } task_state_e;

  // Debug read of one task id (combinational, no side effects).
  typedef struct packed {
    task_state_e state;
    logic [CHID_W-1:0] chid;
    logic [5:0]  prio;
    logic [6:0]  depth;
    logic        slot_valid;   // tslot is meaningful (ACTIVE, COMPLETING)
    logic [CU_TSLOT_W-1:0] tslot;
    logic        has_parent;
    logic [7:0]  parent;
    logic [4:0]  parent_j;
    logic [6:0]  children;
    logic [31:0] next_cta;     // 0 unless the task holds a slot
    logic [31:0] exited;
    logic [31:0] tmd_va;
  } task_dbg_t;

endpackage
