// SPDX-License-Identifier: MIT
// Load/store unit of a compute unit (docs/compute-design.md §4.3).
//
// The pipeline pushes every load, store, AMO, LR and SC (in S3) into one
// in-order queue of QDEPTH entries; push_ready says there is room.  The
// head is served one at a time:
//  - LOAD/STORE: translated through the micro-TLB (READ or WRITE).  A
//    load becomes one beat read; its byte selection and sign extension are
//    done on the response, which goes to the context as a result.  A store
//    becomes one beat write with byte strobes (the data replicated across
//    the lanes) and is then done for the pipeline: stores are posted.  Its
//    write acknowledge (in order) is reported on sack for the context's
//    outstanding-store counter.
//  - AMO/LR/SC: a SEM_EXECUTE AMO request (OPERATION 7, the sub-operation
//    in the REDUCTION field, the rs2 value as a 32-bit payload, rid = the
//    context's global id CU_INDEX * CTX + ctx) to the semaphore unit, which
//    translates and executes it; one at a time.  The response (old value,
//    or SC's 0/1) goes to the context as a result.
// Results are {ctx, data, err, kind}: a translation fault of a load, a
// read error (BUS_ERROR) or a faulting atomic is a result with err set, and
// the pipeline raises the fault when the context takes the result, since it
// still has the instruction's PC and operands.  A store's faults cannot go
// back to its context (it has moved on): a translation fault or a write
// error is reported on sflt with the store's VA and PC, and a faulting
// store is still acknowledged on sack.
//
// The memory read port is shared with the I-cache refill (which goes
// first): a request is latched into an output register that holds it until
// the port takes it, and every latched read pushes a record into an
// in-order FIFO of RD_OUT entries that routes the response.  Writes keep up
// to WR_OUT acknowledges outstanding, with the store's context, VA and PC.
module ppu_cu_lsu #(
  parameter int unsigned CTX      = 8,
  parameter int unsigned CU_INDEX = 0,
  parameter int unsigned QDEPTH   = 4,
  parameter int unsigned RD_OUT   = 8,
  parameter int unsigned WR_OUT   = 16
) (
  input  logic                              clk,
  input  logic                              rst_n,
  // from the pipeline
  output logic                              push_ready,
  input  logic                              push_valid,
  input  logic [$clog2(CTX)-1:0]            push_ctx,
  input  logic [2:0]                        push_op,     // LSU_* below
  input  logic [1:0]                        push_size,   // cu_size_e
  input  logic                              push_uns,
  input  logic [3:0]                        push_amo,    // cu_amo_e = SEM_AMO_*
  input  logic [31:0]                       push_va,
  input  logic [63:0]                       push_wdata,  // [63:32] for size D only
  input  logic [31:0]                       push_pc,
  input  ppu_types_pkg::pt_root_t           push_root,
  input  logic [ppu_types_pkg::CHID_W-1:0]  push_chid,
  // micro-TLB port
  output logic                              lk_valid,
  output logic [31:0]                       lk_va,
  output ppu_types_pkg::pt_root_t           lk_root,
  output logic [1:0]                        lk_acc,
  input  logic                              lk_hit,
  input  ppu_types_pkg::paddr_t             lk_pa,
  input  logic                              lk_fault,
  input  logic [7:0]                        lk_fault_kind,
  // I-cache refill reads
  input  logic                              ic_rd_valid,
  output logic                              ic_rd_ready,
  input  ppu_types_pkg::paddr_t             ic_rd_pa,
  output logic                              ic_rsp_valid,
  output ppu_types_pkg::mem_rd_rsp_t        ic_rsp,
  // memory read client
  output logic                              rd_valid,
  input  logic                              rd_ready,
  output ppu_types_pkg::paddr_t             rd_pa,
  input  logic                              rd_rsp_valid,
  input  ppu_types_pkg::mem_rd_rsp_t        rd_rsp,
  // memory write client
  output logic                              wr_valid,
  input  logic                              wr_ready,
  output ppu_types_pkg::mem_wr_req_t        wr_req,
  input  logic                              wr_rsp_valid,
  input  logic                              wr_rsp_err,
  // semaphore unit (AMO, LR, SC)
  output logic                              sem_valid,
  input  logic                              sem_ready,
  output ppu_types_pkg::sem_req_t           sem_req,
  input  logic                              sem_rsp_valid,
  input  ppu_types_pkg::sem_rsp_t           sem_rsp,
  // load results
  output logic                              ld_res_valid,
  output logic [$clog2(CTX)-1:0]            ld_res_ctx,
  output logic [31:0]                       ld_res_data,
  output logic                              ld_res_err,
  output logic [7:0]                        ld_res_kind,
  // atomic results
  output logic                              amo_res_valid,
  output logic [$clog2(CTX)-1:0]            amo_res_ctx,
  output logic [31:0]                       amo_res_data,
  output logic                              amo_res_err,
  output logic [7:0]                        amo_res_kind,
  // store acknowledged (or dropped by a fault)
  output logic                              sack_valid,
  output logic [$clog2(CTX)-1:0]            sack_ctx,
  // store fault (access WRITE)
  output logic                              sflt_valid,
  output logic [$clog2(CTX)-1:0]            sflt_ctx,
  output logic [7:0]                        sflt_kind,
  output logic [31:0]                       sflt_va,
  output logic [31:0]                       sflt_pc,
  output logic                              busy,      // anything queued or in flight
  // invalidate handshake (ppu_inv_drain): tlb_inv drops the micro-TLB;
  // reads and writes latched until then may use old translations, and the
  // I-cache may issue more of an old refill while inv_defer
  input  logic                              tlb_inv,
  input  logic                              inv_defer,
  output logic                              inv_hold
);

  localparam int unsigned CW    = $clog2(CTX);
  localparam int unsigned QP_W  = $clog2(QDEPTH);
  localparam int unsigned QC_W  = $clog2(QDEPTH + 1);
  localparam int unsigned RP_W  = $clog2(RD_OUT);
  localparam int unsigned RC_W  = $clog2(RD_OUT + 1);
  localparam int unsigned WP_W  = $clog2(WR_OUT);
  localparam int unsigned WC_W  = $clog2(WR_OUT + 1);

  localparam logic [2:0] LSU_LOAD  = 3'd0;
  localparam logic [2:0] LSU_STORE = 3'd1;
  localparam logic [2:0] LSU_AMO   = 3'd2;
  localparam logic [2:0] LSU_LR    = 3'd3;
  localparam logic [2:0] LSU_SC    = 3'd4;

  localparam logic [1:0] SZ_B = 2'(ppu_types_pkg::CU_SIZE_B);
  localparam logic [1:0] SZ_H = 2'(ppu_types_pkg::CU_SIZE_H);
  localparam logic [1:0] SZ_W = 2'(ppu_types_pkg::CU_SIZE_W);

  localparam logic [7:0] K_BUS_ERROR = 8'(ppu_hw_pkg::PPU_FAULT_KIND_BUS_ERROR);
  localparam logic [3:0] AMO_LR = 4'(ppu_hw_pkg::PPU_SEM_AMO_LR);
  localparam logic [3:0] AMO_SC = 4'(ppu_hw_pkg::PPU_SEM_AMO_SC);
  localparam logic [2:0] OP_AMO = 3'(ppu_hw_pkg::PPU_SEM_EXECUTE_OPERATION_AMO);

  if ((QDEPTH & (QDEPTH - 1)) != 0 || (RD_OUT & (RD_OUT - 1)) != 0 ||
      (WR_OUT & (WR_OUT - 1)) != 0 || QDEPTH < 2 || RD_OUT < 2 || WR_OUT < 2) begin : g_bad_depth
    $error("ppu_cu_lsu: QDEPTH, RD_OUT and WR_OUT must be powers of two, at least 2");
  end

  // ---- Request queue ----
  logic [CW-1:0]  q_ctx   [QDEPTH];
  logic [2:0]     q_op    [QDEPTH];
  logic [1:0]     q_size  [QDEPTH];
  logic           q_uns   [QDEPTH];
  logic [3:0]     q_amo   [QDEPTH];
  logic [31:0]    q_va    [QDEPTH];
  logic [63:0]    q_wdata [QDEPTH];
  logic [31:0]    q_pc    [QDEPTH];
  logic [22:0]    q_root  [QDEPTH];
  logic [ppu_types_pkg::CHID_W-1:0] q_chid [QDEPTH];
  logic [QP_W-1:0] q_wp, q_rp;
  logic [QC_W-1:0] q_cnt;
  logic            pop;

  assign push_ready = q_cnt < QC_W'(QDEPTH);

  always_ff @(posedge clk) begin
    if (push_valid && push_ready) begin
      q_ctx[q_wp]   <= push_ctx;
      q_op[q_wp]    <= push_op;
      q_size[q_wp]  <= push_size;
      q_uns[q_wp]   <= push_uns;
      q_amo[q_wp]   <= push_amo;
      q_va[q_wp]    <= push_va;
      q_wdata[q_wp] <= push_wdata;
      q_pc[q_wp]    <= push_pc;
      q_root[q_wp]  <= push_root;
      q_chid[q_wp]  <= push_chid;
    end
  end

  logic           h_valid;
  logic [CW-1:0]  h_ctx;
  logic [2:0]     h_op;
  logic [1:0]     h_size;
  logic           h_uns;
  logic [3:0]     h_amo;
  logic [31:0]    h_va, h_pc;
  logic [63:0]    h_wdata;
  logic [22:0]    h_root;
  logic [ppu_types_pkg::CHID_W-1:0] h_chid;
  logic           h_load, h_store, h_atomic;

  assign h_valid  = q_cnt != '0;
  assign h_ctx    = q_ctx[q_rp];
  assign h_op     = q_op[q_rp];
  assign h_size   = q_size[q_rp];
  assign h_uns    = q_uns[q_rp];
  assign h_amo    = q_amo[q_rp];
  assign h_va     = q_va[q_rp];
  assign h_wdata  = q_wdata[q_rp];
  assign h_pc     = q_pc[q_rp];
  assign h_root   = q_root[q_rp];
  assign h_chid   = q_chid[q_rp];
  assign h_load   = h_valid && h_op == LSU_LOAD;
  assign h_store  = h_valid && h_op == LSU_STORE;
  assign h_atomic = h_valid && (h_op == LSU_AMO || h_op == LSU_LR || h_op == LSU_SC);

  // A translation fault of the head, held until its report goes out.
  logic       hflt_q;
  logic [7:0] hkind_q;

  assign lk_valid = (h_load || h_store) && !hflt_q;
  assign lk_va    = h_va;
  assign lk_root  = h_root;
  assign lk_acc   = h_store ? 2'(ppu_types_pkg::ACC_WRITE) : 2'(ppu_types_pkg::ACC_READ);

  // ---- Read port: request register and response routing FIFO ----
  logic                  rq_valid_q;
  ppu_types_pkg::paddr_t rq_pa_q;
  logic                  of_src   [RD_OUT];   // 1: LSU load, 0: I-cache
  logic [CW-1:0]         of_ctx   [RD_OUT];
  logic [2:0]            of_boff  [RD_OUT];
  logic [1:0]            of_size  [RD_OUT];
  logic                  of_uns   [RD_OUT];
  logic [RP_W-1:0]       of_wp, of_rp;
  logic [RC_W-1:0]       of_cnt;
  logic                  rq_free, rq_ic, rq_ld;

  assign rq_free     = (!rq_valid_q || rd_ready) && of_cnt < RC_W'(RD_OUT);
  assign rq_ic       = rq_free && ic_rd_valid;
  assign rq_ld       = rq_free && !ic_rd_valid && h_load && lk_hit && !hflt_q;
  assign ic_rd_ready = rq_ic;
  assign rd_valid    = rq_valid_q;
  assign rd_pa       = rq_pa_q;

  always_ff @(posedge clk) begin
    if (rq_ic || rq_ld) begin
      of_src[of_wp]  <= rq_ld;
      of_ctx[of_wp]  <= h_ctx;
      of_boff[of_wp] <= h_va[2:0];
      of_size[of_wp] <= h_size;
      of_uns[of_wp]  <= h_uns;
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      rq_valid_q <= 1'b0;
      rq_pa_q    <= '0;
      of_wp      <= '0;
      of_rp      <= '0;
      of_cnt     <= '0;
    end else begin
      if (rq_ic || rq_ld) begin
        rq_valid_q <= 1'b1;
        rq_pa_q    <= rq_ic ? ic_rd_pa : {lk_pa.sys, lk_pa.addr[ppu_types_pkg::PA_W-1:3], 3'b0};
        of_wp      <= of_wp + RP_W'(1);
      end else if (rd_ready) begin
        rq_valid_q <= 1'b0;
      end
      if (rd_rsp_valid) of_rp <= of_rp + RP_W'(1);
      of_cnt <= of_cnt + RC_W'(rq_ic || rq_ld) - RC_W'(rd_rsp_valid);
    end
  end

  // Response: byte selection and extension for loads.
  logic [31:0] ld_sh;
  logic [31:0] ld_val;
  logic        r_src;
  assign r_src = of_src[of_rp];
  assign ld_sh = 32'(rd_rsp.data >> {of_boff[of_rp], 3'b0});

  always_comb begin
    unique case (of_size[of_rp])
      SZ_B:    ld_val = of_uns[of_rp] ? {24'b0, ld_sh[7:0]} : {{24{ld_sh[7]}}, ld_sh[7:0]};
      SZ_H:    ld_val = of_uns[of_rp] ? {16'b0, ld_sh[15:0]} : {{16{ld_sh[15]}}, ld_sh[15:0]};
      default: ld_val = ld_sh[31:0];
    endcase
  end

  assign ic_rsp_valid = rd_rsp_valid && !r_src;
  assign ic_rsp       = rd_rsp;

  // ---- Write port: request register and acknowledge FIFO ----
  logic                        wq_valid_q;
  ppu_types_pkg::mem_wr_req_t  wq_q;
  logic [CW-1:0]               af_ctx [WR_OUT];
  logic [31:0]                 af_va  [WR_OUT];
  logic [31:0]                 af_pc  [WR_OUT];
  logic [WP_W-1:0]             af_wp, af_rp;
  logic [WC_W-1:0]             af_cnt;
  logic                        wq_go;
  logic [7:0]                  st_strb;
  logic [63:0]                 st_data;

  assign wq_go    = h_store && lk_hit && !hflt_q && (!wq_valid_q || wr_ready) &&
                    af_cnt < WC_W'(WR_OUT);
  assign wr_valid = wq_valid_q;
  assign wr_req   = wq_q;

  always_comb begin
    unique case (h_size)
      SZ_B: begin
        st_strb = 8'b0000_0001 << h_va[2:0];
        st_data = {8{h_wdata[7:0]}};
      end
      SZ_H: begin
        st_strb = 8'b0000_0011 << h_va[2:0];
        st_data = {4{h_wdata[15:0]}};
      end
      SZ_W: begin
        st_strb = 8'b0000_1111 << h_va[2:0];
        st_data = {2{h_wdata[31:0]}};
      end
      default: begin
        st_strb = 8'hff;
        st_data = h_wdata;
      end
    endcase
  end

  always_ff @(posedge clk) begin
    if (wq_go) begin
      af_ctx[af_wp] <= h_ctx;
      af_va[af_wp]  <= h_va;
      af_pc[af_wp]  <= h_pc;
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      wq_valid_q <= 1'b0;
      wq_q       <= '0;
      af_wp      <= '0;
      af_rp      <= '0;
      af_cnt     <= '0;
    end else begin
      if (wq_go) begin
        wq_valid_q <= 1'b1;
        wq_q       <= {lk_pa.sys, lk_pa.addr[ppu_types_pkg::PA_W-1:3], 3'b0, st_data, st_strb};
        af_wp      <= af_wp + WP_W'(1);
      end else if (wr_ready) begin
        wq_valid_q <= 1'b0;
      end
      if (wr_rsp_valid) af_rp <= af_rp + WP_W'(1);
      af_cnt <= af_cnt + WC_W'(wq_go) - WC_W'(wr_rsp_valid);
    end
  end

  // ---- Invalidate handshake ----
  // Reads and writes are answered in order, so the ones latched when the
  // count is taken (after the micro-TLB has dropped its entries and the
  // I-cache has issued its old refill) are the next of_cnt / af_cnt
  // answers.
  logic            inv_arm_q;
  logic [RC_W-1:0] inv_rd_q;
  logic [WC_W-1:0] inv_wr_q;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      inv_arm_q <= 1'b0;
      inv_rd_q  <= '0;
      inv_wr_q  <= '0;
    end else if (tlb_inv) begin
      inv_arm_q <= 1'b1;
    end else if (inv_arm_q && !inv_defer) begin
      inv_arm_q <= 1'b0;
      inv_rd_q  <= of_cnt + RC_W'(rq_ic || rq_ld) - RC_W'(rd_rsp_valid);
      inv_wr_q  <= af_cnt + WC_W'(wq_go) - WC_W'(wr_rsp_valid);
    end else begin
      if (rd_rsp_valid && inv_rd_q != '0) inv_rd_q <= inv_rd_q - RC_W'(1);
      if (wr_rsp_valid && inv_wr_q != '0) inv_wr_q <= inv_wr_q - WC_W'(1);
    end
  end
  assign inv_hold = tlb_inv || inv_arm_q || inv_rd_q != '0 || inv_wr_q != '0;

  // ---- Semaphore port: one atomic at a time, request through response ----
  logic                     amo_busy_q;    // request or response outstanding
  logic                     sq_valid_q;    // request not yet taken
  ppu_types_pkg::sem_req_t  sq_q;
  logic [CW-1:0]            amo_ctx_q;
  logic                     amo_go;
  logic [3:0]               h_sub;
  logic [31:0]              h_exec;

  assign amo_go    = h_atomic && !amo_busy_q;
  assign sem_valid = sq_valid_q;
  assign sem_req   = sq_q;
  assign h_sub     = (h_op == LSU_LR) ? AMO_LR : (h_op == LSU_SC) ? AMO_SC : h_amo;
  assign h_exec    = {1'b0, h_sub, 24'b0, OP_AMO};

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      amo_busy_q <= 1'b0;
      sq_valid_q <= 1'b0;
      sq_q       <= '0;
      amo_ctx_q  <= '0;
    end else begin
      if (amo_go) begin
        amo_busy_q <= 1'b1;
        sq_valid_q <= 1'b1;
        amo_ctx_q  <= h_ctx;
        // {rid, chid, root, va, exec, payload}
        sq_q <= {8'(CU_INDEX * CTX) + 8'(h_ctx), h_chid, h_root, h_va, h_exec,
                 32'b0, h_wdata[31:0]};
      end else begin
        if (sq_valid_q && sem_ready) sq_valid_q <= 1'b0;
        if (sem_rsp_valid) amo_busy_q <= 1'b0;
      end
    end
  end

  assign amo_res_valid = sem_rsp_valid && amo_busy_q;
  assign amo_res_ctx   = amo_ctx_q;
  assign amo_res_data  = sem_rsp.value;
  assign amo_res_err   = sem_rsp.fault;
  assign amo_res_kind  = sem_rsp.kind;

  // ---- Head translation faults ----
  // A faulting load's result and a faulting store's report wait for a
  // cycle in which the response path they share is free.
  logic hf_load_go, hf_store_go;
  assign hf_load_go  = hflt_q && h_load && !(rd_rsp_valid && r_src);
  assign hf_store_go = hflt_q && h_store && !wr_rsp_valid;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      hflt_q  <= 1'b0;
      hkind_q <= '0;
    end else if (lk_fault && !hflt_q) begin
      hflt_q  <= 1'b1;
      hkind_q <= lk_fault_kind;
    end else if (hf_load_go || hf_store_go) begin
      hflt_q  <= 1'b0;
    end
  end

  assign pop = rq_ld || wq_go || amo_go || hf_load_go || hf_store_go;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      q_wp  <= '0;
      q_rp  <= '0;
      q_cnt <= '0;
    end else begin
      if (push_valid && push_ready) q_wp <= q_wp + QP_W'(1);
      if (pop) q_rp <= q_rp + QP_W'(1);
      q_cnt <= q_cnt + QC_W'(push_valid && push_ready) - QC_W'(pop);
    end
  end

  // ---- Results ----
  always_comb begin
    ld_res_valid = 1'b0;
    ld_res_ctx   = of_ctx[of_rp];
    ld_res_data  = ld_val;
    ld_res_err   = rd_rsp.err;
    ld_res_kind  = K_BUS_ERROR;
    if (rd_rsp_valid && r_src) begin
      ld_res_valid = 1'b1;
    end else if (hf_load_go) begin
      ld_res_valid = 1'b1;
      ld_res_ctx   = h_ctx;
      ld_res_err   = 1'b1;
      ld_res_kind  = hkind_q;
    end
  end

  always_comb begin
    sack_valid = 1'b0;
    sack_ctx   = af_ctx[af_rp];
    sflt_valid = 1'b0;
    sflt_ctx   = af_ctx[af_rp];
    sflt_kind  = K_BUS_ERROR;
    sflt_va    = af_va[af_rp];
    sflt_pc    = af_pc[af_rp];
    if (wr_rsp_valid) begin
      sack_valid = 1'b1;
      sflt_valid = wr_rsp_err;
    end else if (hf_store_go) begin
      sack_valid = 1'b1;
      sack_ctx   = h_ctx;
      sflt_valid = 1'b1;
      sflt_ctx   = h_ctx;
      sflt_kind  = hkind_q;
      sflt_va    = h_va;
      sflt_pc    = h_pc;
    end
  end

  assign busy = h_valid || rq_valid_q || of_cnt != '0 || wq_valid_q || af_cnt != '0 ||
                amo_busy_q;

  // acq_fail and access of a semaphore response have no meaning for an
  // atomic: the pipeline knows the access from the instruction.
  logic unused;
  assign unused = ^{sem_rsp.acq_fail, sem_rsp.access, lk_pa.addr[2:0]};

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
