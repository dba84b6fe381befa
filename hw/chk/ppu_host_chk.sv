// SPDX-License-Identifier: MIT
// Contracts of the host interface (ppu_host), bound into it by
// ppu_chk_bind.sv; see hw/chk/README.md.  Besides the ports it reads the
// per-channel GP_GET, GP_PUT, ring size, state and AUTO_PUT flag, the
// registers CHAN_STATUS and the GP_GET/GP_PUT windows report.
// A checker watches whole buses and uses the fields its rules need.
/* verilator lint_off UNUSEDSIGNAL */
module ppu_host_chk #(
  parameter int unsigned NUM_CHANNELS = 16
) (
  input logic                        clk,
  input logic                        hclk,      // the host's gated clock
  input logic                        rst_n,
  input logic [NUM_CHANNELS-1:0]     fault_set,
  input ppu_types_pkg::trace_t       trace,
  input logic                        x_req_valid,
  input logic                        x_req_ready,
  input ppu_types_pkg::xlate_req_t   x_req,
  input logic                        prd_valid,
  input logic                        prd_ready,
  input ppu_types_pkg::paddr_t       prd_pa,
  input logic                        prd_rsp_valid,
  input logic                        frd_valid,
  input logic                        frd_ready,
  input ppu_types_pkg::paddr_t       frd_pa,
  input logic                        frd_rsp_valid,
  input logic                        wr_valid,
  input logic                        wr_ready,
  input ppu_types_pkg::mem_wr_req_t  wr_req,
  input logic                        wr_rsp_valid,
  input logic                        sem_valid,
  input logic                        sem_ready,
  input ppu_types_pkg::sem_req_t     sem_req,
  input logic                        copy_valid,
  input logic                        copy_ready,
  input ppu_types_pkg::copy_cmd_t    copy_cmd,
  input logic                        cl_valid,
  input logic                        cl_ready,
  input ppu_types_pkg::task_launch_t cl_req,
  input logic                        xf_valid,
  input logic                        xf_ready,
  input ppu_types_pkg::cu_fault_t    xf,
  input logic [19:0]                 c_get [NUM_CHANNELS],
  input logic [19:0]                 c_put [NUM_CHANNELS],
  input logic [4:0]                  c_log2 [NUM_CHANNELS],
  input logic [NUM_CHANNELS-1:0]     s_unbound,
  input logic [NUM_CHANNELS-1:0]     s_loading,
  input logic                        c_auto [NUM_CHANNELS]
);
  localparam int unsigned NC = NUM_CHANNELS;

  // The port checks are clocked while a port is active or was in the
  // cycle before, or a fault or trace record arrives (ppu_chk_clk).
  logic cclk;
  ppu_chk_clk u_cclk (
      .clk, .rst_n, .cclk,
      .act(x_req_valid || prd_valid || prd_rsp_valid || frd_valid || frd_ready || frd_rsp_valid ||
           wr_valid || wr_rsp_valid || sem_valid || copy_valid || cl_valid || xf_valid ||
           |fault_set || trace.valid));

  // The pushbuffer prefetcher withdraws its translation requests when its
  // stream is flushed (ppu_pb_fetch): allowed there, and only there.  Its
  // memory reads it holds until taken, like every other client.
  ppu_chk_hs #(.W($bits(x_req)), .NAME("host xlate"), .WITHDRAW(1'b1)) u_hs_x (
      .clk(cclk), .rst_n, .valid(x_req_valid), .ready(x_req_ready), .payload(x_req));
  ppu_chk_hs #(.W($bits(prd_pa)), .NAME("host physical read")) u_hs_prd (
      .clk(cclk), .rst_n, .valid(prd_valid), .ready(prd_ready), .payload(prd_pa));
  ppu_chk_hs #(.W($bits(frd_pa)), .NAME("host fetch read")) u_hs_frd (
      .clk(cclk), .rst_n, .valid(frd_valid), .ready(frd_ready), .payload(frd_pa));
  // Answers against requests on the host's memory ports: physical reads
  // and writes (up to a channel-cache burst in flight), and the fetch's
  // reads.
  logic [15:0] prd_pend, frd_pend, wr_pend;
  ppu_chk_rsp #(.MAX(16), .NAME("host physical read")) u_rsp_prd (
      .clk(cclk), .rst_n, .fire(prd_valid && prd_ready), .rsp(prd_rsp_valid), .pending(prd_pend));
  ppu_chk_rsp #(.MAX(256), .NAME("host fetch read")) u_rsp_frd (
      .clk(cclk), .rst_n, .fire(frd_valid && frd_ready), .rsp(frd_rsp_valid), .pending(frd_pend));
  ppu_chk_rsp #(.MAX(16), .NAME("host write")) u_rsp_wr (
      .clk(cclk), .rst_n, .fire(wr_valid && wr_ready), .rsp(wr_rsp_valid), .pending(wr_pend));
  ppu_chk_hs #(.W($bits(wr_req)), .NAME("host write")) u_hs_wr (
      .clk(cclk), .rst_n, .valid(wr_valid), .ready(wr_ready), .payload(wr_req));
  ppu_chk_hs #(.W($bits(sem_req)), .NAME("host semaphore")) u_hs_sem (
      .clk(cclk), .rst_n, .valid(sem_valid), .ready(sem_ready), .payload(sem_req));
  ppu_chk_hs #(.W($bits(copy_cmd)), .NAME("host copy launch")) u_hs_copy (
      .clk(cclk), .rst_n, .valid(copy_valid), .ready(copy_ready), .payload(copy_cmd));
  ppu_chk_hs #(.W($bits(cl_req)), .NAME("host compute launch")) u_hs_cl (
      .clk(cclk), .rst_n, .valid(cl_valid), .ready(cl_ready), .payload(cl_req));
  ppu_chk_hs #(.W($bits(xf)), .NAME("compute fault")) u_hs_xf (
      .clk(cclk), .rst_n, .valid(xf_valid), .ready(xf_ready), .payload(xf));

  // Fault reported (fault_set, registered like the host's own state) and
  // the channel not bound again since.  Work the host decided in the cycle
  // before it saw the fault shows one cycle after fault_set, when this is
  // not yet up.
  logic [NC-1:0] faulted;
  logic          sem_held, copy_held, cl_held;
  logic          selftest;
  // Bound (neither UNBOUND nor LOADING) now and in the last cycle; a BIND
  // record of this cycle, per channel.
  logic [NC-1:0] bound, bound_q, bind_now;
  always_comb begin
    bound    = ~(s_unbound | s_loading);
    bind_now = (trace.valid && trace.kind == 8'(ppu_hw_pkg::PPU_TRACE_BIND) && 32'(trace.chid) < NC)
               ? (NC'(1) << trace.chid[$clog2(NC)-1:0]) : '0;
  end

  // GP_GET and GP_PUT of the last cycle, per channel.  (Updated with
  // blocking assignments after each channel's check: a delayed assignment
  // to an unpacked array element in a loop is beyond Verilator at
  // thousands of channels, and a packed vector of them costs a call per
  // slice.  Read only while bound_q is set, which a bind passes through
  // bind_now first, so they need no reset.)  Checked on the host's own
  // clock: every one of these values is a flop of that clock, so a cycle
  // it skips changes none of them, and the loop over all channels stays
  // out of the cycles where the host has nothing to do.
  logic [19:0] get_q [NC];
  logic [19:0] put_q [NC];
  // Whether GP_GET differed from GP_PUT in some cycle since GP_GET last
  // moved (or the bind): the host may start an entry only then.  GP_PUT
  // written back over the entry in flight lets GP_GET pass it when the
  // entry ends (docs/formats.md), which is not the host's doing.
  logic        work_seen [NC];
  // The GPFIFO entry a channel fetched last (GP_FETCH record), whether it
  // is still the one at GP_GET (no GP_GET move, unbind or bind since), and
  // whether methods of it ran: a segment is run once; fetching that entry
  // again would run its methods twice.
  logic [19:0] seg_get [NC];
  logic        seg_v   [NC];
  logic        seg_ran [NC];
  /* verilator lint_off BLKSEQ */
  always @(posedge hclk) begin
    if (rst_n) begin
      for (int i = 0; i < NC; i++) begin
        logic [19:0] mask;
        mask = (20'd1 << c_log2[i]) - 20'd1;
        // GP_GET and GP_PUT of a bound channel index its ring.
        if (bound[i] && ((c_get[i] & ~mask) != '0 || (c_put[i] & ~mask) != '0))
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("channel %0d: GP_GET %0d or GP_PUT %0d outside its ring of %0d",
                                                               i, c_get[i], c_put[i], mask + 20'd1));
        // GP_GET moves one entry at a time, and only over an entry that
        // was before GP_PUT at some point (an AUTO_PUT ring has no GP_PUT).
        if (bound[i] && !bind_now[i] && bound_q[i] && c_get[i] != get_q[i] &&
            (selftest || c_get[i] != ((get_q[i] + 20'd1) & mask) || (!c_auto[i] && !work_seen[i])))
          ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("channel %0d: GP_GET %0d -> %0d with GP_PUT %0d",
                                                               i, get_q[i], c_get[i], put_q[i]));
        work_seen[i] = (c_get[i] != c_put[i]) ||
                       (work_seen[i] && bound_q[i] && !bind_now[i] && c_get[i] == get_q[i]);
        seg_v[i] = seg_v[i] && bound[i] && bound_q[i] && !bind_now[i] && c_get[i] == get_q[i];
        get_q[i] = c_get[i];
        put_q[i] = c_put[i];
      end
      if (trace.valid && 32'(trace.chid) < NC) begin
        logic [$clog2(NC)-1:0] c;
        c = trace.chid[$clog2(NC)-1:0];
        if (trace.kind == 8'(ppu_hw_pkg::PPU_TRACE_GP_FETCH)) begin
          if (seg_v[c] && seg_ran[c] && seg_get[c] == trace.a[19:0])
            ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("channel %0d: GPFIFO entry %0d fetched again after its methods ran",
                                                                 c, trace.a[19:0]));
          seg_v[c]   = 1'b1;
          seg_get[c] = trace.a[19:0];
          seg_ran[c] = 1'b0;
        end
        if (trace.kind == 8'(ppu_hw_pkg::PPU_TRACE_METHOD)) seg_ran[c] = 1'b1;
        if (trace.kind == 8'(ppu_hw_pkg::PPU_TRACE_UNBIND)) seg_v[c] = 1'b0;
      end
    end
  end
  /* verilator lint_on BLKSEQ */

  always_ff @(posedge hclk) begin
    if (!rst_n) bound_q <= '0;
    else        bound_q <= bound;
  end

  always_ff @(posedge cclk) begin
    if (!rst_n) begin
      faulted   <= '0;
      sem_held  <= 1'b0;
      copy_held <= 1'b0;
      cl_held   <= 1'b0;
    end else begin
      faulted   <= fault_set | (faulted & ~bind_now);
      sem_held  <= sem_valid && !sem_ready;
      copy_held <= copy_valid && !copy_ready;
      cl_held   <= cl_valid && !cl_ready;
      // A faulted channel runs nothing more: no method, no new semaphore
      // operation, copy or launch on its behalf.
      if (trace.valid && trace.kind == 8'(ppu_hw_pkg::PPU_TRACE_METHOD) && 32'(trace.chid) < NC &&
          faulted[trace.chid[$clog2(NC)-1:0]])
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("channel %0d ran method %08x after its fault",
                                                             trace.chid, trace.a));
      if (sem_valid && !sem_held && 32'(sem_req.chid) < NC && faulted[sem_req.chid[$clog2(NC)-1:0]])
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("channel %0d: semaphore operation after its fault",
                                                             sem_req.chid));
      if (copy_valid && !copy_held && 32'(copy_cmd.chid) < NC && faulted[copy_cmd.chid[$clog2(NC)-1:0]])
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("channel %0d: copy launched after its fault",
                                                             copy_cmd.chid));
      if (cl_valid && !cl_held && 32'(cl_req.chid) < NC && faulted[cl_req.chid[$clog2(NC)-1:0]])
        ppu_chk_pkg::ppu_chk_fail($sformatf("%m"), $sformatf("channel %0d: kernel launched after its fault",
                                                             cl_req.chid));
    end
  end
  // Sampled every cycle: an import with no arguments would otherwise be
  // evaluated once, as a constant.
  always_ff @(posedge clk) selftest <= (ppu_chk_pkg::ppu_chk_selftest() & ppu_chk_pkg::SELFTEST_HOST) != 0;
endmodule
