// SPDX-License-Identifier: MIT
// Scheduling policy of one engine: which channel the host serves next.
// The decision is combinational; ppu_host owns the channels' state and
// carries the decision out.  The policy is the prior art of US 9483423
// (time-sliced, priority-unaware) with ranks added for comparison:
//
//  - Pending unbinds first, then doorbells (binding, GP_PUT re-reads).
//  - While the resident's copy is on the engine, other ready channels are
//    served as guests (their host methods run; their launches wait).
//  - The resident keeps the host while it can run, unless its time slice
//    has expired (then blocked acquires are re-checked too) or it yielded,
//    and another channel is waiting.
//  - A new resident is the next waiting channel of the highest waiting
//    level in ring order after the channel of that level whose service
//    ended last (a round robin per level, NVIDIA's runlist order): among
//    channels that keep work this is the one that received work least
//    recently, which is the prior art's rule.  A channel that was idle is
//    taken in its ring position, not ahead of the others.
//  - A compute channel waiting to launch (ENGINE_WAIT) becomes eligible
//    when the task table has a free task id; it never holds the copy engine.
//
// Levels: the runlist's LEVEL with SCHED_CTRL.RUNLIST (only its channels
// admitted: member), else 0 for every channel; ppu_host passes them in
// level.  (Ranking by instance priority is a runlist ppu.ko writes.)  Higher levels are
// strict priorities: a higher-level channel takes the host from the
// resident at the next method boundary or copy completion, and time
// slices only rotate channels of the resident's own level.  Copies
// already on the engine are never preempted.
//
// The cost of a decision does not depend on comparing channels with one
// another: the highest level with a waiting channel is found bit by bit
// over the levels' bit planes (LEVEL_W steps of whole-mask operations),
// and the pick in a level is a masked find-first-set after the level's
// round-robin pointer (no time stamps per channel).
module ppu_sched #(
    parameter int unsigned NUM_CHANNELS = 16,
    parameter int unsigned LEVEL_W = 6             // 2^LEVEL_W levels
) (
    input  logic                        clk,
    input  logic                        rst_n,
    // channels in CHAN_STATUS.STATE READY, ACQ_BLOCKED, ENGINE_WAIT and
    // ENGINE_BUSY (ppu_host keeps its state as one vector per value)
    input  logic [NUM_CHANNELS-1:0]     ready,
    input  logic [NUM_CHANNELS-1:0]     acq,
    input  logic [NUM_CHANNELS-1:0]     ewait,
    input  logic [NUM_CHANNELS-1:0]     ebusy,
    input  logic [NUM_CHANNELS-1:0]     wake,        // blocked acquire may be re-checked
    input  logic [NUM_CHANNELS-1:0]     stale,       // doorbell pending
    input  logic [NUM_CHANNELS-1:0]     unbind,      // unbind pending
    // the channels' levels (all 0 without ranks) as LEVEL_W bit planes:
    // bit b of channel i's level is level[b*NUM_CHANNELS + i]
    input  logic [NUM_CHANNELS*LEVEL_W-1:0] level,
    input  logic [NUM_CHANNELS-1:0]     member,      // may run (the runlist; all without one)
    input  logic [NUM_CHANNELS-1:0]     comp,        // compute channel (launches go to the task table)
    input  logic                        can_accept,  // the task table has a free task id
    input  logic                        copy_ready,  // engine idle
    input  logic                        res_v,
    input  logic [$clog2(NUM_CHANNELS)-1:0] res,
    input  logic                        expired,     // resident's slice is over
    input  logic                        yielded,     // resident executed YIELD
    input  logic [3:0]                  res_reason,  // why the resident stopped
    input  logic                        guest,       // current service is a guest
    // a service ended (the resident switched away or dropped, a guest
    // finished): its level's round robin continues after it
    input  logic                        served,
    input  logic [$clog2(NUM_CHANNELS)-1:0] served_ch,
    output logic                        engine_free,
    output logic                        preempt,     // end the current service at a method boundary
    output ppu_types_pkg::sched_dec_e   dec,
    output logic [$clog2(NUM_CHANNELS)-1:0] dec_ch,
    output logic [3:0]                  dec_reason,  // PPU_SWITCH_REASON_* for SWITCH
    output logic                        dec_renew    // RESUME with a fresh time slice
);
  localparam int unsigned NC  = NUM_CHANNELS;
  localparam int unsigned CHW = $clog2(NC);
  localparam int unsigned NL  = 1 << LEVEL_W;

  // Lowest set channel of a mask; MSB set = none.  Two levels of at most
  // 64: the first word of 64 channels with one set (an OR per word), then
  // the first set in that word, so that neither level is wider than 64
  // at 4096 channels.
  localparam int unsigned WB  = (CHW < 6) ? CHW : 6;   // bits of the index in a word
  localparam int unsigned WW  = 1 << WB;               // channels per word
  localparam int unsigned NW  = (NC + WW - 1) / WW;    // words
  localparam int unsigned NWB = (CHW > WB) ? CHW - WB : 1;
  function automatic logic [CHW:0] first_set(input logic [NC-1:0] mask);
    logic [NW*WW-1:0] m;   // (padded: NUM_CHANNELS need not be a power of two)
    logic [NW-1:0]  any;
    logic [NWB-1:0] w;
    logic [WW-1:0]  word;
    logic [WB-1:0]  b;
    m = (NW*WW)'(mask);
    any = '0;
    w = '0;
    b = '0;
    // (the same result without the search for an empty mask, which is most
    // of them in most cycles: the simulation skips the loops)
    if (mask != '0) begin
      for (int i = 0; i < NW; i++) any[i] = |m[i*WW+:WW];
      for (int i = NW - 1; i >= 0; i--) if (any[i]) w = NWB'(i);
      word = m[32'(w)*WW+:WW];
      for (int i = WW - 1; i >= 0; i--) if (word[i]) b = WB'(i);
    end
    first_set = {(any == '0), CHW'({w, b})};
  endfunction

  // Round robin in a mask of one level: the first channel at or after
  // the level's pointer, else the first one.
  function automatic logic [CHW:0] rr(input logic [NC-1:0] mask, input logic [CHW-1:0] from);
    logic [CHW:0] hi;
    hi = first_set(mask & ~((NC'(1) << from) - NC'(1)));
    rr = hi[CHW] ? first_set(mask) : hi;
  endfunction



  // Round-robin pointer per level: the channel after the one of that
  // level whose service ended last.
  logic [NL*CHW-1:0] ptr;
  logic [LEVEL_W-1:0] served_lv, res_lv;   // (the resident's level)
  always_comb
    for (int b = 0; b < LEVEL_W; b++) begin
      // (the plane first: an index into all of them is a mux LEVEL_W times wider)
      logic [NC-1:0] plane;
      plane = level[b*NC +: NC];
      served_lv[b] = plane[served_ch];
      res_lv[b]    = plane[res];
    end
  always_ff @(posedge clk) begin
    if (!rst_n)
      ptr <= '0;
    else if (served)
      ptr[32'(served_lv)*CHW+:CHW] <= (32'(served_ch) == NC - 1) ? '0 : served_ch + CHW'(1);
  end

  logic [NC-1:0] m_ready, m_acq, m_ewait, m_ebusy, m_elig, m_unbind, m_stale, res_bit;
  always_comb begin
    m_ready = ready;
    m_acq   = acq;
    m_ewait = ewait;
    m_ebusy = ebusy;
    res_bit = '0;
    res_bit[res] = res_v;
  end

  assign engine_free = copy_ready && !(|m_ebusy);

  always_comb begin
    // a copy launch waits for the copy engine, a compute launch for a task id
    m_elig   = (m_ready | (m_acq & wake) | (engine_free ? (m_ewait & ~comp) : '0) |
                (can_accept ? (m_ewait & comp) : '0)) & member;
    m_unbind = unbind & ~m_ebusy;     // a channel's copy finishes first
    m_stale  = stale & ~unbind;
  end

  wire res_busy = |(res_bit & m_ebusy);
  wire res_elig = |(res_bit & m_elig);

  // The channels at the resident's level.
  logic [NC-1:0] same;
  always_comb begin
    same = '1;
    for (int b = 0; b < LEVEL_W; b++)
      same = same & (res_lv[b] ? level[b*NC+:NC] : ~level[b*NC+:NC]);
  end

  // At the resident's switch point its own copy may still count as on the
  // engine (it ends in this cycle, the engine is ready a cycle later):
  // copies waiting for the engine are waiting for the slice the resident
  // gives up all the same, or a resident with back-to-back copies would
  // renew its slice for ever while they wait.
  wire engine_free_but_res = !(|(m_ebusy & ~res_bit));

  // A decision that ends the resident's service (a switch, a drop) goes
  // on after the resident in its level; a guest is chosen while the
  // resident keeps its service, after the last service that ended.
  logic [NL*CHW-1:0] ptr_end;
  always_comb begin
    ptr_end = ptr;
    if (res_v)
      ptr_end[32'(res_lv)*CHW+:CHW] = (32'(res) == NC - 1) ? '0 : res + CHW'(1);
  end

  // The highest level with a waiting channel, and the waiting channels at
  // it: of all of them (any), and of those other than the resident (guest,
  // yield); each found once.  A search over the level's bits from the top,
  // each step keeping the channels that have the bit if any does: LEVEL_W
  // steps of whole-mask ANDs and OR-reduces, nothing per channel.
  logic [LEVEL_W-1:0] top_any, top_oth;
  logic [NC-1:0]      m_any, m_oth;
  always_comb begin
    m_any = m_elig;
    m_oth = m_elig & ~res_bit;
    for (int b = LEVEL_W - 1; b >= 0; b--) begin
      top_any[b] = |(m_any & level[b*NC+:NC]);
      top_oth[b] = |(m_oth & level[b*NC+:NC]);
      m_any = m_any & (top_any[b] ? level[b*NC+:NC] : ~level[b*NC+:NC]);
      m_oth = m_oth & (top_oth[b] ? level[b*NC+:NC] : ~level[b*NC+:NC]);
    end
  end

  logic [NC-1:0] others;
  logic [CHW:0] p_unbind, p_stale, p_guest, p_yield, p_other, p_any, p_higher;
  always_comb begin
    // time-slice rotation: waiting channels of the resident's level,
    // and blocked acquires get re-checked
    others = (m_elig | (engine_free_but_res ? (m_ewait & ~comp & member) : '0)) & ~res_bit & same;
    if (expired) others = others | (m_acq & member & ~res_bit & same);
    p_unbind = first_set(m_unbind);
    p_stale  = first_set(m_stale);
    p_guest  = rr(m_oth, ptr[32'(top_oth)*CHW+:CHW]);
    p_yield  = rr(m_oth, ptr_end[32'(top_oth)*CHW+:CHW]);
    p_other  = rr(others, ptr_end[32'(res_lv)*CHW+:CHW]);
    p_any    = rr(m_any, ptr_end[32'(top_any)*CHW+:CHW]);
    p_higher = (|m_elig && top_any > res_lv) ? p_any : {1'b1, CHW'(0)};
  end

  assign preempt = (|m_stale) || (|m_unbind) || (guest && !res_busy) ||
                   (!guest && expired && !p_other[CHW]) ||
                   (!guest && res_v && !p_higher[CHW]) ||
                   (res_v && !(|(res_bit & member)));  // taken off the runlist

  always_comb begin
    dec        = ppu_types_pkg::SCHED_WAIT;
    dec_ch     = res;
    dec_reason = res_reason;
    dec_renew  = 1'b0;
    if (!p_unbind[CHW]) begin
      dec    = ppu_types_pkg::SCHED_UNBIND;
      dec_ch = p_unbind[CHW-1:0];
    end else if (!p_stale[CHW]) begin
      dec    = ppu_types_pkg::SCHED_DOORBELL;
      dec_ch = p_stale[CHW-1:0];
    end else if (res_v && res_busy) begin
      if (!p_guest[CHW]) begin
        dec        = ppu_types_pkg::SCHED_GUEST;
        dec_ch     = p_guest[CHW-1:0];
        dec_reason = 4'(ppu_hw_pkg::PPU_SWITCH_REASON_GUEST);
      end
    end else if (res_v && res_elig) begin
      if (!p_higher[CHW]) begin
        dec        = ppu_types_pkg::SCHED_SWITCH;
        dec_ch     = p_higher[CHW-1:0];
        dec_reason = 4'(ppu_hw_pkg::PPU_SWITCH_REASON_PRIORITY);
      end else if (expired && !p_other[CHW]) begin
        dec        = ppu_types_pkg::SCHED_SWITCH;
        dec_ch     = p_other[CHW-1:0];
        dec_reason = 4'(ppu_hw_pkg::PPU_SWITCH_REASON_TIMESLICE);
      end else if (yielded && !p_yield[CHW]) begin
        dec        = ppu_types_pkg::SCHED_SWITCH;
        dec_ch     = p_yield[CHW-1:0];
        dec_reason = 4'(ppu_hw_pkg::PPU_SWITCH_REASON_YIELD);
      end else begin
        dec       = ppu_types_pkg::SCHED_RESUME;
        dec_renew = expired || yielded;
      end
    end else if (!p_any[CHW]) begin
      dec    = ppu_types_pkg::SCHED_SWITCH;
      dec_ch = p_any[CHW-1:0];
    end else if (res_v) begin
      dec = ppu_types_pkg::SCHED_DROP;
    end
  end

endmodule
