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

  // Widths of the structs below, for flat vector ports: Yosys 0.23 drops
  // the packed dimension of an array of a typedef in a port, and it cannot
  // take $bits() of a package type.  ppu_top checks these under Verilator.
  localparam int unsigned PADDR_W = 1 + PA_W;                  // paddr_t
  localparam int unsigned XLATE_REQ_W = 32 + 23 + 2;           // xlate_req_t
  localparam int unsigned MEM_WR_REQ_W = PADDR_W + 64 + 8;     // mem_wr_req_t
  localparam int unsigned SEM_REQ_W = 8 + 23 + 32 + 32 + 64;   // sem_req_t

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

  // ---- Semaphore unit request (from host methods and copy completion) ----
  typedef struct packed {
    logic [7:0]  chid;
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
    logic [7:0]  chid;
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
    logic [7:0]  chid;
    logic [31:0] a;
    logic [31:0] b;
  } trace_t;

endpackage
