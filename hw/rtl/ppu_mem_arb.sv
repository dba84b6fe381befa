// SPDX-License-Identifier: MIT
// Round-robin arbiter of NRD read clients and NWR write clients onto the one
// external memory port (docs/hw-internals.md).
//
// The grant is combinational so a client streaming alone gets a handshake
// every cycle on each channel.  Once the port has seen valid without ready,
// the grant is held until the handshake: the external port must see the
// payload stable while valid is high, even if a client with higher round-robin
// priority raises its request in the meantime.  Responses carry the client
// index as tag and are routed back combinationally, adding no latency.
//
// RMW lock.  While lock_valid, a write of any client but LOCK_WR_CLIENT (the
// semaphore unit) to the 8-byte beat lock_pa is not granted: it stays pending
// at its client, and the round robin serves the others.  Reads and writes to
// other beats are unaffected.  A write already presented to the port and
// stalled (the held grant) is never withdrawn: it keeps the port until it is
// accepted, and lock_clear is 0 while a write of another client to the
// locked beat is presented.
//
// Why a read-modify-write of LOCK_WR_CLIENT that raises the lock, waits for
// lock_clear before issuing its read, and keeps the lock until its write is
// accepted is atomic, given that the memory applies an access when the port
// accepts it (docs/harness.md):
//   - In a cycle with lock_valid, another client's write to the beat can be
//     accepted only if it is the held grant, i.e. it was presented in an
//     earlier cycle; an unheld one is masked, so it can neither be accepted
//     nor become held.  A held write to the beat makes lock_clear 0.
//   - So in the first cycle the RMW sees lock_valid && lock_clear, no write
//     of another client to the beat is presented or held, and none can be
//     granted, held or accepted while lock_valid stays up.
//   - The RMW's read is accepted after that cycle and its write accepted
//     while the lock is still up: between the read sampling memory and the
//     write applying its strobes, the memory accepts no other write to the
//     beat.  The two are adjacent in the beat's order of writes, which is
//     what atomic means for every observer (and for LR/SC reservations,
//     which are cleared by the accepted writes the port reports).
// The lock delays other writers by at most one read round trip plus a
// write; it cannot deadlock, because the held write it waits for is only
// waiting for the port, and read responses do not depend on writes.
//
// Yosys 0.23 silently drops the packed dimension of an array of a typedef
// (`T [N-1:0] x` is read as one T), so the request arrays are copied into
// flat vectors and sliced with +: rather than indexed; only the port
// declarations themselves depend on the tool handling that.
module ppu_mem_arb #(
  parameter int unsigned NRD = 4,
  parameter int unsigned NWR = 3,
  parameter int unsigned LOCK_WR_CLIENT = 1   // the lock owner's write client (semaphore unit)
) (
  input  logic clk,
  input  logic rst_n,
  input  logic [NRD-1:0] rd_valid,
  output logic [NRD-1:0] rd_ready,
  input  logic [NRD*ppu_types_pkg::PADDR_W-1:0] rd_pa,          // NRD paddr_t
  output logic [NRD-1:0] rd_rsp_valid,
  output ppu_types_pkg::mem_rd_rsp_t rd_rsp,
  input  logic [NWR-1:0] wr_valid,
  output logic [NWR-1:0] wr_ready,
  input  logic [NWR*ppu_types_pkg::MEM_WR_REQ_W-1:0] wr_req,    // NWR mem_wr_req_t
  output logic [NWR-1:0] wr_rsp_valid,
  output logic wr_rsp_err,
  // RMW lock (see above); lock_pa is compared by beat, its low bits ignored
  input  logic lock_valid,
  input  ppu_types_pkg::paddr_t lock_pa,
  output logic lock_clear,
  output logic m_rd_valid,
  input  logic m_rd_ready,
  output ppu_types_pkg::paddr_t m_rd_pa,
  output logic [ppu_types_pkg::MEM_TAG_W-1:0] m_rd_tag,
  input  logic m_rd_rsp_valid,
  input  ppu_types_pkg::mem_rd_rsp_t m_rd_rsp,
  input  logic [ppu_types_pkg::MEM_TAG_W-1:0] m_rd_rsp_tag,
  output logic m_wr_valid,
  input  logic m_wr_ready,
  output ppu_types_pkg::mem_wr_req_t m_wr_req,
  output logic [ppu_types_pkg::MEM_TAG_W-1:0] m_wr_tag,
  input  logic m_wr_rsp_valid,
  input  logic m_wr_rsp_err,
  input  logic [ppu_types_pkg::MEM_TAG_W-1:0] m_wr_rsp_tag
);
  localparam int unsigned TAG_W = ppu_types_pkg::MEM_TAG_W;
  // Index registers stay at least one bit wide so a single client still
  // elaborates.
  localparam int unsigned RD_IDX_W = (NRD > 1) ? $clog2(NRD) : 1;
  localparam int unsigned WR_IDX_W = (NWR > 1) ? $clog2(NWR) : 1;

  // The client index travels as the memory tag.
  if (NRD > (1 << TAG_W) || NWR > (1 << TAG_W) || NRD == 0 || NWR == 0 ||
      LOCK_WR_CLIENT >= NWR) begin : g_bad_params
    $error("ppu_mem_arb: NRD and NWR must be 1..2**MEM_TAG_W, LOCK_WR_CLIENT < NWR");
  end

  // ---------------------------------------------------------------------
  // Read channel.
  // ---------------------------------------------------------------------
  logic [RD_IDX_W-1:0] rd_ptr_q;       // client with round-robin priority
  logic                rd_hold_q;      // port stalled: keep the grant
  logic [RD_IDX_W-1:0] rd_hold_idx_q;
  logic [NRD-1:0]      rd_upper;
  logic [RD_IDX_W-1:0] rd_pick;
  logic [RD_IDX_W-1:0] rd_gnt;
  logic                rd_fire;
  localparam int unsigned PA_BITS = $bits(m_rd_pa);
  logic [NRD*PA_BITS-1:0] rd_pa_flat;

  // First requester at or after the pointer, else the first requester.
  always_comb begin
    for (int unsigned i = 0; i < NRD; i++) begin
      rd_upper[i] = rd_valid[i] && (i >= 32'(rd_ptr_q));
    end
    rd_pick = '0;
    for (int i = NRD - 1; i >= 0; i--) begin
      if (rd_valid[i]) rd_pick = RD_IDX_W'(i);
    end
    for (int i = NRD - 1; i >= 0; i--) begin
      if (rd_upper[i]) rd_pick = RD_IDX_W'(i);
    end
  end

  assign rd_gnt     = rd_hold_q ? rd_hold_idx_q : rd_pick;
  assign m_rd_valid = |rd_valid;
  assign rd_pa_flat = rd_pa;
  assign m_rd_pa    = rd_pa_flat[rd_gnt*PA_BITS +: PA_BITS];
  assign m_rd_tag   = TAG_W'(rd_gnt);
  assign rd_fire    = m_rd_valid && m_rd_ready;

  always_comb begin
    rd_ready = '0;
    if (rd_fire) rd_ready[rd_gnt] = 1'b1;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      rd_ptr_q      <= '0;
      rd_hold_q     <= 1'b0;
      rd_hold_idx_q <= '0;
    end else begin
      rd_hold_q     <= m_rd_valid && !m_rd_ready;
      rd_hold_idx_q <= rd_gnt;
      if (rd_fire) begin
        rd_ptr_q <= (32'(rd_gnt) == NRD - 1) ? '0 : rd_gnt + 1'b1;
      end
    end
  end

  always_comb begin
    for (int unsigned i = 0; i < NRD; i++) begin
      rd_rsp_valid[i] = m_rd_rsp_valid && (32'(m_rd_rsp_tag) == i);
    end
  end

  assign rd_rsp = m_rd_rsp;

  // ---------------------------------------------------------------------
  // Write channel: same scheme, independent pointer, plus the RMW lock.
  // ---------------------------------------------------------------------
  localparam int unsigned PA_W       = ppu_types_pkg::PA_W;
  localparam int unsigned BEAT_OFF_W = $clog2(ppu_types_pkg::MEM_BYTES);
  localparam int unsigned BEAT_W     = 1 + PA_W - BEAT_OFF_W;   // {sys, addr[PA_W-1:3]}
  // mem_wr_req_t is {pa, data, strb}: a request's beat starts at this bit.
  localparam int unsigned WR_BEAT_LSB = ppu_types_pkg::MEM_DW + ppu_types_pkg::MEM_BYTES + BEAT_OFF_W;

  logic [WR_IDX_W-1:0] wr_ptr_q;
  logic                wr_hold_q;
  logic [WR_IDX_W-1:0] wr_hold_idx_q;
  logic [NWR-1:0]      wr_blocked;     // held back by the lock
  logic [NWR-1:0]      wr_elig;        // requesting and not held back
  logic [NWR-1:0]      wr_upper;
  logic [WR_IDX_W-1:0] wr_pick;
  logic [WR_IDX_W-1:0] wr_gnt;
  logic                wr_fire;
  localparam int unsigned WR_BITS = $bits(m_wr_req);
  logic [NWR*WR_BITS-1:0] wr_req_flat;
  logic [BEAT_W-1:0]   lock_beat, m_wr_beat;

  assign wr_req_flat = wr_req;
  assign lock_beat   = {lock_pa.sys, lock_pa.addr[PA_W-1:BEAT_OFF_W]};
  assign m_wr_beat   = {m_wr_req.pa.sys, m_wr_req.pa.addr[PA_W-1:BEAT_OFF_W]};

  // The held grant is never blocked: its payload is already at the port.
  always_comb begin
    for (int unsigned i = 0; i < NWR; i++) begin
      wr_blocked[i] = lock_valid && (i != LOCK_WR_CLIENT) &&
                      (wr_req_flat[i*WR_BITS + WR_BEAT_LSB +: BEAT_W] == lock_beat) &&
                      !(wr_hold_q && (32'(wr_hold_idx_q) == i));
    end
    wr_elig = wr_valid & ~wr_blocked;
  end

  always_comb begin
    for (int unsigned i = 0; i < NWR; i++) begin
      wr_upper[i] = wr_elig[i] && (i >= 32'(wr_ptr_q));
    end
    wr_pick = '0;
    for (int i = NWR - 1; i >= 0; i--) begin
      if (wr_elig[i]) wr_pick = WR_IDX_W'(i);
    end
    for (int i = NWR - 1; i >= 0; i--) begin
      if (wr_upper[i]) wr_pick = WR_IDX_W'(i);
    end
  end

  assign wr_gnt     = wr_hold_q ? wr_hold_idx_q : wr_pick;
  assign m_wr_valid = |wr_elig;
  assign m_wr_req    = wr_req_flat[wr_gnt*WR_BITS +: WR_BITS];
  assign m_wr_tag   = TAG_W'(wr_gnt);
  assign wr_fire    = m_wr_valid && m_wr_ready;

  // No write of another client to the locked beat at the port (with the
  // lock up, such a write can only be the held grant).
  assign lock_clear = !(m_wr_valid && (32'(wr_gnt) != LOCK_WR_CLIENT) && (m_wr_beat == lock_beat));

  always_comb begin
    wr_ready = '0;
    if (wr_fire) wr_ready[wr_gnt] = 1'b1;
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      wr_ptr_q      <= '0;
      wr_hold_q     <= 1'b0;
      wr_hold_idx_q <= '0;
    end else begin
      wr_hold_q     <= m_wr_valid && !m_wr_ready;
      wr_hold_idx_q <= wr_gnt;
      if (wr_fire) begin
        wr_ptr_q <= (32'(wr_gnt) == NWR - 1) ? '0 : wr_gnt + 1'b1;
      end
    end
  end

  always_comb begin
    for (int unsigned i = 0; i < NWR; i++) begin
      wr_rsp_valid[i] = m_wr_rsp_valid && (32'(m_wr_rsp_tag) == i);
    end
  end

  assign wr_rsp_err = m_wr_rsp_err;

  // lock_pa names a beat: its byte offset is not looked at.
  logic unused;
  assign unused = ^lock_pa.addr[BEAT_OFF_W-1:0];

endmodule
