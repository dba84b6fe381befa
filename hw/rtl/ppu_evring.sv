// SPDX-License-Identifier: MIT
// Event ring writer (include/ppu/ppu_regs.def "Event ring"): channel
// faults and non-stall interrupts become 8-byte records in a ring in
// memory, so that events can name any channel, not only the 32 a pending
// register has bits for.
//
// Events wait in two bits per channel (fault, non-stall): a later event of
// the same channel and kind while one waits is merged into it, so the
// ring never overflows and nothing is lost while software is slow.  One
// record is in flight at a time; PUT advances when its write is
// acknowledged, so a record is in memory before software can see PUT
// pass it.  Faults go first, then the lowest channel.
module ppu_evring #(
    parameter int unsigned NUM_CHANNELS = 16
) (
    input  logic                          clk,
    input  logic                          rst_n,
    // registers (ppu_regs)
    input  logic [4:0]                    log2,      // 0 = off
    input  ppu_types_pkg::paddr_t         base,
    input  logic                          restart,   // EVENT_RING_SIZE written
    input  logic [31:0]                   get,
    output logic [31:0]                   put,
    output logic                          error,
    output logic                          fault_unread, // a FAULT record past GET
    output logic                          idle,      // nothing to write, or no room
    input  logic [31:0]                   cycle,
    // CHAN_CTRL UNBIND: the channel's waiting events go, and a record of it
    // in flight does not count
    input  logic                          unbind,
    input  logic [ppu_types_pkg::CHID_W-1:0] unbind_chid,
    // events
    input  logic [NUM_CHANNELS-1:0]       fault_set,
    input  logic [NUM_CHANNELS-1:0]       nonstall_set,
    // memory write client (physical)
    output logic                          wr_valid,
    input  logic                          wr_ready,
    output ppu_types_pkg::mem_wr_req_t    wr_req,
    input  logic                          wr_rsp_valid,
    input  logic                          wr_rsp_err
);
  localparam int unsigned NC  = NUM_CHANNELS;
  localparam int unsigned CHW = NC > 1 ? $clog2(NC) : 1;

  logic [NC-1:0] fpend, npend;
  logic          busy;          // a record is in flight
  logic          issued;        // ... and its write was accepted
  logic          stale;         // ... for a ring set up anew since
  logic          dropped;       // ... of a channel unbound since
  logic          rec_fault;
  logic [CHW-1:0] rec_ch;
  logic          lf_v;          // a fault record was written since the restart
  logic [31:0]   lf_idx;        // ... the last one, at this index

  wire        on    = log2 != '0;
  // Events the ring takes: all while it is on; while it is off, those of
  // the channels beyond the 32 the pending registers have bits for, which
  // wait here until it is set up (ppu_regs keeps the others).
  logic [NC-1:0] take;
  always_comb
    for (int i = 0; i < NC; i++) take[i] = on || i >= ppu_hw_pkg::PPU_PENDING_CHANNELS;
  wire [31:0] used  = put - get;
  wire        full  = used >= (32'd1 << log2);

  // Next record: the lowest channel with a fault waiting, else the lowest
  // with a non-stall interrupt waiting.
  logic          pick_v, pick_fault;
  logic [CHW-1:0] pick_ch;
  always_comb begin
    pick_v     = 1'b0;
    pick_fault = 1'b0;
    pick_ch    = '0;
    // (the searches run only when something waits: a simulation of
    // thousands of channels need not pay for them in every cycle)
    if (|npend)
      for (int i = NC - 1; i >= 0; i--) begin
        if (npend[i]) begin
          pick_v  = 1'b1;
          pick_ch = CHW'(i);
        end
      end
    if (|fpend)
      for (int i = NC - 1; i >= 0; i--) begin
        if (fpend[i]) begin
          pick_v     = 1'b1;
          pick_fault = 1'b1;
          pick_ch    = CHW'(i);
        end
      end
  end

  // (GET past the record: its distance from GET exceeds what is unread)
  assign fault_unread = lf_v && (lf_idx - get) < used;

  wire start = on && !error && !busy && !full && pick_v && !restart;
  // (a full ring waits for a GET write, which is a register access)
  assign idle = !busy && !(on && !error && !full && pick_v);

  // (the entry's offset wraps inside the ring: the index modulo its size)
  wire [31:0] slot = put & ((32'd1 << log2) - 32'd1);
  always_comb begin
    wr_req.pa.sys  = base.sys;
    wr_req.pa.addr = base.addr + ppu_types_pkg::PA_W'(slot) * ppu_types_pkg::PA_W'(ppu_hw_pkg::PPU_EVENT_BYTES);
    wr_req.data    = {cycle,
                      12'd0,
                      12'(rec_ch),
                      rec_fault ? 8'(ppu_hw_pkg::PPU_EVENT_KIND_FAULT) : 8'(ppu_hw_pkg::PPU_EVENT_KIND_NONSTALL)};
    wr_req.strb    = '1;
  end
  assign wr_valid = busy && !issued;

  // The record in flight is put back to wait (its write failed, or the
  // ring was set up anew under it and it belongs in the new one), or
  // dropped (its channel was unbound meanwhile).
  wire           ub_hit  = unbind && 32'(unbind_chid) < NC;
  wire [NC-1:0]  ub_v    = ub_hit ? (NC'(1) << unbind_chid[CHW-1:0]) : '0;
  wire           ub_rec  = busy && ub_hit && unbind_chid[CHW-1:0] == rec_ch;
  wire           rsp     = busy && wr_rsp_valid;
  wire           back    = rsp && !dropped && !ub_rec && (wr_rsp_err || stale || restart);
  wire [NC-1:0]  back_v  = back ? (NC'(1) << rec_ch) : '0;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      fpend     <= '0;
      npend     <= '0;
      busy      <= 1'b0;
      issued    <= 1'b0;
      stale     <= 1'b0;
      dropped   <= 1'b0;
      rec_fault <= 1'b0;
      rec_ch    <= '0;
      put       <= '0;
      error     <= 1'b0;
      lf_v      <= 1'b0;
      lf_idx    <= '0;
    end else begin
      logic [NC-1:0] fclr, nclr;
      fclr = '0;
      nclr = '0;
      if (start) begin
        busy      <= 1'b1;
        issued    <= 1'b0;
        stale     <= 1'b0;
        dropped   <= 1'b0;
        rec_fault <= pick_fault;
        rec_ch    <= pick_ch;
        if (pick_fault) fclr[pick_ch] = 1'b1;
        else            nclr[pick_ch] = 1'b1;
      end
      if (busy && wr_valid && wr_ready) issued <= 1'b1;
      if (rsp) begin
        busy <= 1'b0;
        if (wr_rsp_err && !stale && !restart && !dropped && !ub_rec) error <= 1'b1;
        if (!back && !dropped && !ub_rec && !wr_rsp_err) begin
          put <= put + 32'd1;
          if (rec_fault) begin
            lf_v   <= 1'b1;
            lf_idx <= put;
          end
        end
      end
      fpend <= ((fpend & ~fclr) | (fault_set & take) | (rec_fault ? back_v : '0)) & ~ub_v;
      npend <= ((npend & ~nclr) | (nonstall_set & take) | (rec_fault ? '0 : back_v)) & ~ub_v;
      if (ub_rec && !rsp) dropped <= 1'b1;
      if (restart) begin
        put   <= '0;
        error <= 1'b0;
        lf_v  <= 1'b0;
        if (busy && !rsp) stale <= 1'b1;
      end
    end
  end
endmodule
