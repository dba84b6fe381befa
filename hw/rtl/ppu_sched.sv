// SPDX-License-Identifier: MIT
// Scheduling policy of one engine: which channel the host serves next.
// Purely combinational; ppu_host owns the state and carries out the
// decision.  The policy is the prior art of US 9483423 (a time-sliced,
// priority-unaware round robin): keeping it in one module leaves room for a
// priority-aware policy to be compared against it.
//
//  - Pending unbinds first, then doorbells (binding, GP_PUT re-reads).
//  - While the resident's copy is on the engine, other ready channels are
//    served as guests (their host methods run; their launches wait).
//  - The resident keeps the host while it can run, unless its time slice
//    has expired (then blocked acquires are re-checked too) or it yielded,
//    and another channel is waiting.
//  - A new resident is the waiting channel serviced least recently.
//  - A compute channel waiting to launch (ENGINE_WAIT) becomes eligible
//    when the task table has a free task id; it never holds the copy engine.
//
// The runlist (SCHED_CTRL.RUNLIST) is PRIO_MODE with the ranks the runlist
// gives (its LEVEL) and only its channels admitted (member): ppu_host
// passes them in prio and member.
//
// PRIO_MODE (off by default, for comparison with the semaphore technique):
// channels are ranked by their instance PRIORITY.MAX; the waiting channel of
// highest priority is chosen (least recently serviced among equals), a
// higher-priority channel takes the host from the resident at the next
// method boundary or copy completion, and time slices only rotate channels
// of the resident's own priority.  Copies already on the engine are never
// preempted.
module ppu_sched #(
    parameter int unsigned NUM_CHANNELS = 16
) (
    input  logic [NUM_CHANNELS*4-1:0]   st,          // CHAN_STATUS.STATE per channel
    input  logic [NUM_CHANNELS-1:0]     wake,        // blocked acquire may be re-checked
    input  logic [NUM_CHANNELS-1:0]     stale,       // doorbell pending
    input  logic [NUM_CHANNELS-1:0]     unbind,      // unbind pending
    input  logic [NUM_CHANNELS*32-1:0]  last,        // cycle of last service
    input  logic [NUM_CHANNELS*8-1:0]   prio,        // channel priority (PRIO_MODE)
    input  logic                        prio_mode,
    input  logic [NUM_CHANNELS-1:0]     member,      // may run (the runlist; all without one)
    input  logic [NUM_CHANNELS-1:0]     comp,        // compute channel (launches go to the task table)
    input  logic                        can_accept,  // the task table has a free task id
    input  logic [31:0]                 now,
    input  logic                        copy_ready,  // engine idle
    input  logic                        res_v,
    input  logic [$clog2(NUM_CHANNELS)-1:0] res,
    input  logic                        expired,     // resident's slice is over
    input  logic                        yielded,     // resident executed YIELD
    input  logic [3:0]                  res_reason,  // why the resident stopped
    input  logic                        guest,       // current service is a guest
    output logic                        engine_free,
    output logic                        preempt,     // end the current service at a method boundary
    output ppu_types_pkg::sched_dec_e   dec,
    output logic [$clog2(NUM_CHANNELS)-1:0] dec_ch,
    output logic [3:0]                  dec_reason,  // PPU_SWITCH_REASON_* for SWITCH
    output logic                        dec_renew    // RESUME with a fresh time slice
);
  localparam int unsigned NC = NUM_CHANNELS;
  localparam int unsigned CHW = $clog2(NC);

  localparam logic [3:0] ST_READY = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_READY);
  localparam logic [3:0] ST_ACQ   = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_ACQ_BLOCKED);
  localparam logic [3:0] ST_EWAIT = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_ENGINE_WAIT);
  localparam logic [3:0] ST_EBUSY = 4'(ppu_hw_pkg::PPU_CHAN_STATUS_STATE_ENGINE_BUSY);

  // Least recently serviced channel of a mask; MSB set = none.
  function automatic logic [CHW:0] lrs(input logic [NC-1:0] mask, input logic [31:0] t,
                                       input logic [NC*32-1:0] l);
    logic [31:0] best_age, age;
    logic [CHW:0] best;
    best = '1;
    best_age = '0;
    for (int i = 0; i < NC; i++) begin
      age = t - l[i*32+:32];
      if (mask[i] && (best[CHW] || age > best_age)) begin
        best = {1'b0, CHW'(i)};
        best_age = age;
      end
    end
    lrs = best;
  endfunction

  function automatic logic [CHW:0] first_set(input logic [NC-1:0] mask);
    logic [CHW:0] r;
    r = '1;
    for (int i = NC - 1; i >= 0; i--)
      if (mask[i]) r = {1'b0, CHW'(i)};
    first_set = r;
  endfunction

  // Channels of the highest priority in a mask (all of the mask when
  // priorities are off).
  function automatic logic [NC-1:0] top_prio(input logic [NC-1:0] mask, input logic [NC*8-1:0] p,
                                             input logic on);
    logic [7:0] best;
    logic [NC-1:0] r;
    best = '0;
    for (int i = 0; i < NC; i++)
      if (mask[i] && p[i*8+:8] > best) best = p[i*8+:8];
    for (int i = 0; i < NC; i++)
      r[i] = mask[i] && (!on || p[i*8+:8] == best);
    top_prio = r;
  endfunction

  logic [NC-1:0] m_ready, m_acq, m_ewait, m_ebusy, m_elig, m_unbind, m_stale, res_bit;
  always_comb begin
    for (int i = 0; i < NC; i++) begin
      m_ready[i] = (st[i*4+:4] == ST_READY);
      m_acq[i]   = (st[i*4+:4] == ST_ACQ);
      m_ewait[i] = (st[i*4+:4] == ST_EWAIT);
      m_ebusy[i] = (st[i*4+:4] == ST_EBUSY);
    end
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

  // Priority of the resident, and who outranks it (PRIO_MODE only).
  logic [7:0]    res_prio;
  logic [NC-1:0] higher, same;
  always_comb begin
    res_prio = prio[res*8+:8];
    for (int i = 0; i < NC; i++) begin
      higher[i] = prio_mode && (prio[i*8+:8] > res_prio);
      same[i]   = !prio_mode || (prio[i*8+:8] == res_prio);
    end
  end

  // At the resident's switch point its own copy may still count as on the
  // engine (it ends in this cycle, the engine is ready a cycle later):
  // copies waiting for the engine are waiting for the slice the resident
  // gives up all the same, or a resident with back-to-back copies would
  // renew its slice for ever while they wait.
  wire engine_free_but_res = !(|(m_ebusy & ~res_bit));

  logic [NC-1:0] others;
  logic [CHW:0] p_unbind, p_stale, p_guest, p_other, p_any, p_higher;
  always_comb begin
    // time-slice rotation: waiting channels of the resident's priority,
    // and blocked acquires get re-checked
    others = (m_elig | (engine_free_but_res ? (m_ewait & ~comp & member) : '0)) & ~res_bit & same;
    if (expired) others = others | (m_acq & member & ~res_bit & same);
    p_unbind = first_set(m_unbind);
    p_stale  = first_set(m_stale);
    p_guest  = lrs(top_prio(m_elig & ~res_bit, prio, prio_mode), now, last);
    p_other  = lrs(others, now, last);
    p_any    = lrs(top_prio(m_elig, prio, prio_mode), now, last);
    p_higher = lrs(top_prio(m_elig & higher, prio, prio_mode), now, last);
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
      end else if (yielded && !p_guest[CHW]) begin
        dec        = ppu_types_pkg::SCHED_SWITCH;
        dec_ch     = p_guest[CHW-1:0];
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
