// SPDX-License-Identifier: MIT
// The scheduling policy of ppu_sched, decided over sets in RAM instead of
// vectors of every channel (docs/channels-at-scale.md "Ready tracking
// without scanning", step (d)): what a decision costs does not depend on
// the channel count.  The policy is ppu_sched's, rule for rule; this
// block only changes how it is found.
//
// Positions: the sets that rank channels are indexed by runlist position
// (the channel id without a runlist).  A runlist lists its levels from
// the highest down, so level l is the range lv_lo[l]..lv_hi[l] and the
// first waiting position from 0 belongs to the highest waiting level; the
// round robin in a level is the list's order.  Levels with no position
// have lv_ne[l] = 0.
//
// Sets (the caller keeps them, one set or clear per kind per cycle):
//   by position   R   ready, or a blocked acquire to re-check
//                 B0  a blocked acquire, not to re-check yet
//                 B1  ... blocked across a retry tick
//                 EC  waiting for the copy engine
//                 EK  waiting for a task id (compute launch)
//   by channel id U   unbind pending (its copy is off the engine, its
//                     task ids are free)
//                 D   doorbell pending (no unbind pending)
// wake_all (a semaphore write) moves B0 and B1 to R; retry_tick moves B1
// to R, then B0 to B1.  Both are requests: held until carried out, between
// decisions.
//
// Decisions: rounds, one after the other while go is up (ppu_host asks for
// one when it waits for a decision or something a decision depends on has
// changed since the last round began).  A round samples the resident's
// inputs at its start, runs its searches (ppu_bitmap_rr: 3 cycles each
// when the first word read holds the answer) and ends with dec_valid for
// one cycle; the outputs hold until the next round ends.  A round takes
// 4 searches at most on the positions, in sequence, and 2 on the channel
// ids alongside:
//   1. the first waiting position from 0: the highest waiting level
//      (top_any) and whether a level above the resident's waits;
//   2. when that is the resident: the first other one (top_oth);
//   3. with the resident's slice over: the round robin in its level after
//      it (the time-slice successor; blocked acquires count);
//   4. the round robin of the level the decision takes (a guest, a
//      higher level, a yield, a new resident), from the level's pointer.
// The caller checks the channel it is given against that channel's own
// state (it may have changed since the search), as with any decision.
//
// One difference from ppu_sched: a resident taken off the runlist has no
// position, so a new resident of its old level is found from that level's
// pointer, not from the resident's place.
module ppu_sched_rr #(
    parameter int unsigned NUM_CHANNELS = 16,
    parameter int unsigned LEVEL_W = 6,
    // (derived: a position or a channel id; the levels)
    parameter int unsigned PW = $clog2(NUM_CHANNELS),
    parameter int unsigned NL = 1 << LEVEL_W
) (
    input  logic                  clk,
    input  logic                  rst_n,
    // sets by position: kind k at [k], [k*PW +: PW] (K_R, K_B0, K_B1, K_EC, K_EK)
    input  logic [4:0]            p_upd_valid,
    input  logic [4:0]            p_upd_set,
    input  logic [5*PW-1:0]       p_upd_pos,
    // sets by channel id (K_U, K_D)
    input  logic [1:0]            c_upd_valid,
    input  logic [1:0]            c_upd_set,
    input  logic [2*PW-1:0]       c_upd_chid,
    input  logic                  wake_all,
    input  logic                  retry_tick,
    // a round may start (the caller wants a decision or its inputs changed)
    input  logic                  go,
    // the runlist's levels
    input  logic [NL*PW-1:0]      lv_lo,
    input  logic [NL*PW-1:0]      lv_hi,
    input  logic [NL-1:0]         lv_ne,
    // the resident and the engines, as ppu_sched takes them
    input  logic                  res_v,
    input  logic [PW-1:0]         res_pos,
    input  logic [LEVEL_W-1:0]    res_lv,
    input  logic                  res_member,  // on the runlist (has a position)
    input  logic                  res_busy,    // its copy is on the engine
    input  logic                  res_elig,    // it could run
    input  logic                  expired,
    input  logic                  yielded,
    input  logic [3:0]            res_reason,
    input  logic                  guest,
    input  logic                  can_accept,
    input  logic                  engine_free,
    input  logic                  engine_free_but_res,
    // a service ended: its level's round robin goes on after it
    input  logic                  served,
    input  logic [PW-1:0]         served_pos,
    input  logic [LEVEL_W-1:0]    served_lv,
    output logic                  round_start, // a round samples its inputs in this cycle
    output logic                  busy,        // a round or a move is under way or due
    // the last round's decision
    output logic                  dec_valid,
    output ppu_types_pkg::sched_dec_e dec,
    output logic                  dec_by_id,   // dec_ch is a channel id (UNBIND, DOORBELL), else a position
    output logic [PW-1:0]         dec_ch,
    output logic [3:0]            dec_reason,
    output logic                  dec_renew,
    output logic                  preempt
);
  localparam int unsigned NC = NUM_CHANNELS;
  localparam int unsigned K_R = 0, K_B0 = 1, K_B1 = 2, K_EC = 3, K_EK = 4;
  localparam int unsigned K_U = 0, K_D = 1;

  // ---- the two set blocks ----
  logic          pq_valid, pq_ready, pr_valid, pr_found, pmv_valid, pq_excl_v;
  logic [4:0]    pq_kinds;
  logic [PW-1:0] pq_lo, pq_hi, pq_from, pr_pos;
  logic [2:0]    pmv_from, pmv_to;
  ppu_bitmap_rr #(.N(NC), .KINDS(5), .PW(PW)) u_pos (
      .clk, .rst_n,
      .upd_valid(p_upd_valid), .upd_set(p_upd_set), .upd_pos(p_upd_pos),
      .mv_valid(pmv_valid), .mv_from(pmv_from), .mv_to(pmv_to),
      .q_valid(pq_valid), .q_ready(pq_ready), .q_kinds(pq_kinds), .q_lo(pq_lo), .q_hi(pq_hi),
      .q_from(pq_from), .q_excl_v(pq_excl_v), .q_excl(res_pos_q),
      .r_valid(pr_valid), .r_found(pr_found), .r_pos(pr_pos));

  // (U and D in a set block each: both searched at once)
  logic [1:0]      cq_valid, cq_ready, cr_valid, cr_found;
  logic [2*PW-1:0] cr_pos;
  for (genvar k = 0; k < 2; k++) begin : g_chan
    ppu_bitmap_rr #(.N(NC), .KINDS(1), .PW(PW)) u_chan (
        .clk, .rst_n,
        .upd_valid(c_upd_valid[k]), .upd_set(c_upd_set[k]), .upd_pos(c_upd_chid[k*PW +: PW]),
        .mv_valid(1'b0), .mv_from(1'b0), .mv_to(1'b0),
        .q_valid(cq_valid[k]), .q_ready(cq_ready[k]), .q_kinds(1'b1), .q_lo('0),
        .q_hi(PW'(NC - 1)), .q_from('0), .q_excl_v(1'b0), .q_excl('0),
        .r_valid(cr_valid[k]), .r_found(cr_found[k]), .r_pos(cr_pos[k*PW +: PW]));
  end

  // ---- levels ----
  // The level of a member position: levels run from the highest down, so
  // it is the lowest non-empty level whose range starts at or before it.
  function automatic logic [LEVEL_W-1:0] level_of(input logic [PW-1:0] p);
    level_of = '0;
    for (int l = NL - 1; l >= 0; l--)
      if (lv_ne[l] && lv_lo[l*PW +: PW] <= p) level_of = LEVEL_W'(l);
  endfunction
  function automatic logic [PW-1:0] lo_of(input logic [LEVEL_W-1:0] l);
    lo_of = lv_lo[32'(l)*PW +: PW];
  endfunction
  function automatic logic [PW-1:0] hi_of(input logic [LEVEL_W-1:0] l);
    hi_of = lv_hi[32'(l)*PW +: PW];
  endfunction
  // A start inside the range lo..hi: outside it (a pointer from an older
  // runlist, one past the level's end) is the range's first position.
  function automatic logic [PW-1:0] start_in(input logic [PW-1:0] lo, input logic [PW-1:0] hi,
                                             input logic [PW:0] s);
    start_in = (s < (PW+1)'(lo) || s > (PW+1)'(hi)) ? lo : PW'(s);
  endfunction

  // Round-robin pointer per level: one past the position whose service
  // ended last.
  logic [NL*(PW+1)-1:0] ptr;
  always_ff @(posedge clk) begin
    if (!rst_n)
      ptr <= '0;
    else if (served)
      ptr[32'(served_lv)*(PW+1) +: PW+1] <= (PW+1)'(served_pos) + (PW+1)'(1);
  end

  // ---- a round's inputs, sampled at its start ----
  logic               res_v_q, res_mem_q, res_busy_q, res_elig_q, expired_q, yielded_q, guest_q;
  logic               can_accept_q, efree_q, efree_but_res_q;
  logic [PW-1:0]      res_pos_q;
  logic [LEVEL_W-1:0] res_lv_q;
  logic [3:0]         res_reason_q;
  // ... and the resident's level: its range, where its round robin goes on
  // after it, whether the time-slice successor is looked for
  logic [PW-1:0]      res_lo_q, res_hi_q, res_next_q;
  logic               other_need_q;
  wire                res_here = res_v_q && res_mem_q;   // the resident has a position

  // ---- a round's answers ----
  logic               f_found, oth_found, other_found, rr_found, u_found, d_found;
  logic [PW-1:0]      other_pos, rr_pos, u_ch, d_ch;
  logic [PW-1:0]      f_pos, oth_pos;                // the first waiting, the first other
  logic [LEVEL_W-1:0] top_any, top_oth;
  logic [PW-1:0]      rr_lo_q, rr_hi_q, rr_from_q;   // the last search's range and start
  wire  [LEVEL_W-1:0] r_level = level_of(pr_pos);    // of a position found

  // The kinds that may run now (ppu_sched's eligible mask), and those of
  // the time-slice successor (blocked acquires too: the slice is over).
  wire [4:0] k_elig  = (5'(1) << K_R) | (efree_q ? 5'(1) << K_EC : '0) |
                       (can_accept_q ? 5'(1) << K_EK : '0);
  wire [4:0] k_other = (5'(1) << K_R) | (5'(1) << K_B0) | (5'(1) << K_B1) |
                       (efree_but_res_q ? 5'(1) << K_EC : '0) | (can_accept_q ? 5'(1) << K_EK : '0);

  wire higher_found = res_v_q && f_found && top_any > res_lv_q;

  // The level the decision takes and where its round robin starts (past
  // the resident in its own level when the resident's service would end).
  logic               rr_need, rr_excl;
  logic [LEVEL_W-1:0] rr_lv;
  logic [PW:0]        rr_from;
  always_comb begin
    rr_need = 1'b0;
    rr_excl = 1'b0;
    rr_lv   = top_any;
    rr_from = ptr[32'(top_any)*(PW+1) +: PW+1];
    if (res_v_q && res_busy_q) begin
      rr_need = oth_found;                      // a guest, after the last service
      rr_lv   = top_oth;
      rr_from = ptr[32'(top_oth)*(PW+1) +: PW+1];
      rr_excl = res_here;
    end else if (res_v_q && res_elig_q) begin
      if (higher_found)
        rr_need = 1'b1;                         // a higher level takes over
      else if (!(expired_q && other_found) && yielded_q && oth_found) begin
        rr_need = 1'b1;                         // after a YIELD
        rr_lv   = top_oth;
        rr_from = (res_here && top_oth == res_lv_q) ? (PW+1)'(res_pos_q) + (PW+1)'(1) :
                  ptr[32'(top_oth)*(PW+1) +: PW+1];
        rr_excl = res_here;
      end
    end else if (f_found) begin
      rr_need = 1'b1;                           // a new resident
      rr_from = (res_here && top_any == res_lv_q) ? (PW+1)'(res_pos_q) + (PW+1)'(1) :
                ptr[32'(top_any)*(PW+1) +: PW+1];
    end
  end

  // What the first searches already found in the level the round robin
  // takes: its first waiting position (other than the resident's when
  // the resident is excluded).
  wire [PW-1:0] rr_start     = start_in(lo_of(rr_lv), hi_of(rr_lv), rr_from);
  wire [PW-1:0] rr_known_pos = rr_excl ? oth_pos : f_pos;
  wire          rr_known     = rr_excl ? (oth_found && top_oth == rr_lv) :
                                         (f_found && top_any == rr_lv);

  // ---- the round, on the positions ----
  typedef enum logic [3:0] {
    P_IDLE, P_MOVE1, P_MOVE2, P_S1, P_S1B, P_OTHER, P_RR_Q, P_RR, P_DONE
  } pst_e;
  pst_e pst;
  logic wake_pend, tick_pend, mv_wake;   // (mv_wake: the moves under way are a wake's)
  // A state's search is issued once the block is idle and answered later
  // in the same state.
  logic p_issued, c_issued;

  always_comb begin
    pq_valid  = 1'b0;
    pq_kinds  = k_elig;
    pq_lo     = '0;
    pq_hi     = PW'(NC - 1);
    pq_from   = '0;
    pq_excl_v = 1'b0;
    pmv_valid = 1'b0;
    pmv_from  = 3'(K_B1);
    pmv_to    = 3'(K_R);
    case (pst)
      P_MOVE1: pmv_valid = pq_ready;                         // B1 -> R
      P_MOVE2: begin
        pmv_valid = pq_ready;
        pmv_from  = 3'(K_B0);
        pmv_to    = mv_wake ? 3'(K_R) : 3'(K_B1);
      end
      P_S1:  pq_valid = pq_ready && !p_issued;
      P_S1B: begin
        pq_valid  = pq_ready && !p_issued;
        pq_excl_v = 1'b1;
      end
      P_OTHER: begin
        pq_valid  = pq_ready && !p_issued;
        pq_kinds  = k_other;
        pq_lo     = res_lo_q;
        pq_hi     = res_hi_q;
        pq_from   = res_next_q;
        pq_excl_v = 1'b1;
      end
      P_RR: begin
        pq_valid  = pq_ready && !p_issued;
        pq_lo     = rr_lo_q;
        pq_hi     = rr_hi_q;
        pq_from   = rr_from_q;
        pq_excl_v = rr_excl;
      end
      default: ;
    endcase
  end


  // ---- the round, on the channel ids: U and D at once ----
  typedef enum logic [1:0] {C_IDLE, C_Q, C_DONE} cst_e;
  cst_e cst;
  logic [1:0] c_got;   // answers in
  always_comb
    for (int k = 0; k < 2; k++) cq_valid[k] = (cst == C_Q) && !c_issued && (&cq_ready);

  // Moves are carried out between rounds; after a move a round due comes
  // first, so that ticks in quick succession cannot hold decisions off.
  logic mv_last;
  wire  mv_due = (wake_pend || tick_pend) && !(mv_last && go);
  assign round_start = (pst == P_IDLE) && !mv_due && go;
  assign busy = (pst != P_IDLE) || (cst != C_IDLE) || wake_pend || tick_pend;

  always_ff @(posedge clk) begin
    dec_valid <= 1'b0;
    if (!rst_n) begin
      pst       <= P_IDLE;
      cst       <= C_IDLE;
      wake_pend <= 1'b0;
      tick_pend <= 1'b0;
      mv_wake   <= 1'b0;
      mv_last   <= 1'b0;
      p_issued  <= 1'b0;
      c_issued  <= 1'b0;
      c_got     <= '0;
      dec       <= ppu_types_pkg::SCHED_WAIT;
      dec_by_id <= 1'b0;
      dec_ch    <= '0;
      dec_reason <= '0;
      dec_renew <= 1'b0;
      preempt   <= 1'b0;
    end else begin
      if (wake_all) wake_pend <= 1'b1;
      if (retry_tick) tick_pend <= 1'b1;

      // positions: a state's search is issued once, its answer ends the state
      if (pq_valid) p_issued <= 1'b1;
      else if (pr_valid) p_issued <= 1'b0;
      if (|cq_valid) c_issued <= 1'b1;
      else if (cst == C_DONE) c_issued <= 1'b0;
      case (pst)
        P_IDLE:
          if (mv_due) begin
            // a wake empties B0 and B1, which covers a tick's moves
            pst     <= P_MOVE1;
            mv_wake <= wake_pend;
            mv_last <= 1'b1;
            wake_pend <= wake_all;
            tick_pend <= retry_tick;
          end else if (go) begin
            mv_last         <= 1'b0;
            pst             <= P_S1;
            res_v_q         <= res_v;
            res_pos_q       <= res_pos;
            res_lv_q        <= res_lv;
            res_mem_q       <= res_member;
            res_busy_q      <= res_busy;
            res_elig_q      <= res_elig;
            expired_q       <= expired;
            yielded_q       <= yielded;
            res_reason_q    <= res_reason;
            guest_q         <= guest;
            can_accept_q    <= can_accept;
            efree_q         <= engine_free;
            efree_but_res_q <= engine_free_but_res;
            res_lo_q        <= lo_of(res_lv);
            res_hi_q        <= hi_of(res_lv);
            res_next_q      <= start_in(lo_of(res_lv), hi_of(res_lv), (PW+1)'(res_pos) + (PW+1)'(1));
            other_need_q    <= res_v && res_member && expired && lv_ne[res_lv];
          end
        P_MOVE1:
          if (pmv_valid) pst <= P_MOVE2;
        P_MOVE2:
          if (pmv_valid) pst <= P_IDLE;      // (the next search waits for the move: pq_ready)
        P_S1:
          if (pr_valid) begin
            f_found     <= pr_found;
            f_pos       <= pr_pos;
            top_any     <= r_level;
            other_found <= 1'b0;
            if (res_here && pr_found && pr_pos == res_pos_q)
              pst <= P_S1B;
            else begin
              // the first waiting position is not the resident's: it is
              // also the first other one
              oth_found <= pr_found;
              oth_pos   <= pr_pos;
              top_oth   <= r_level;
              pst       <= other_need_q ? P_OTHER : P_RR_Q;
            end
          end
        P_S1B:
          if (pr_valid) begin
            oth_found <= pr_found;
            oth_pos   <= pr_pos;
            top_oth   <= r_level;
            pst       <= other_need_q ? P_OTHER : P_RR_Q;
          end
        P_OTHER:
          if (pr_valid) begin
            other_found <= pr_found;
            other_pos   <= pr_pos;
            pst         <= P_RR_Q;
          end
        P_RR_Q: begin
          rr_found  <= 1'b0;
          rr_lo_q   <= lo_of(rr_lv);
          rr_hi_q   <= hi_of(rr_lv);
          rr_from_q <= rr_start;
          pst <= rr_need ? P_RR : P_DONE;
          // The first (other) waiting position of the whole list at or
          // after the start is the round robin's answer: nothing before it
          // waits.  Only a start past it needs the search (the wrap).
          if (rr_need && rr_known && rr_known_pos >= rr_start) begin
            rr_found <= 1'b1;
            rr_pos   <= rr_known_pos;
            pst      <= P_DONE;
          end
        end
        P_RR:
          if (pr_valid) begin
            rr_found <= pr_found;
            rr_pos   <= pr_pos;
            pst      <= P_DONE;
          end
        P_DONE:
          if (cst == C_DONE) begin
            pst       <= P_IDLE;
            dec_valid <= 1'b1;
            // ppu_sched's decision, from the round's answers
            dec        <= ppu_types_pkg::SCHED_WAIT;
            dec_by_id  <= 1'b0;
            dec_ch     <= res_pos_q;
            dec_reason <= res_reason_q;
            dec_renew  <= 1'b0;
            if (u_found) begin
              dec       <= ppu_types_pkg::SCHED_UNBIND;
              dec_by_id <= 1'b1;
              dec_ch    <= u_ch;
            end else if (d_found) begin
              dec       <= ppu_types_pkg::SCHED_DOORBELL;
              dec_by_id <= 1'b1;
              dec_ch    <= d_ch;
            end else if (res_v_q && res_busy_q) begin
              if (rr_found) begin
                dec        <= ppu_types_pkg::SCHED_GUEST;
                dec_ch     <= rr_pos;
                dec_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_GUEST);
              end
            end else if (res_v_q && res_elig_q) begin
              if (higher_found && rr_found) begin
                dec        <= ppu_types_pkg::SCHED_SWITCH;
                dec_ch     <= rr_pos;
                dec_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_PRIORITY);
              end else if (expired_q && other_found) begin
                dec        <= ppu_types_pkg::SCHED_SWITCH;
                dec_ch     <= other_pos;
                dec_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_TIMESLICE);
              end else if (yielded_q && oth_found && rr_found) begin
                dec        <= ppu_types_pkg::SCHED_SWITCH;
                dec_ch     <= rr_pos;
                dec_reason <= 4'(ppu_hw_pkg::PPU_SWITCH_REASON_YIELD);
              end else begin
                dec       <= ppu_types_pkg::SCHED_RESUME;
                dec_renew <= expired_q || yielded_q;
              end
            end else if (rr_found) begin
              dec    <= ppu_types_pkg::SCHED_SWITCH;
              dec_ch <= rr_pos;
            end else if (res_v_q)
              dec <= ppu_types_pkg::SCHED_DROP;
            preempt <= u_found || d_found || (guest_q && !res_busy_q) ||
                       (!guest_q && expired_q && other_found) ||
                       (!guest_q && higher_found) || (res_v_q && !res_mem_q);
          end
        default: pst <= P_IDLE;
      endcase

      // channel ids, alongside
      case (cst)
        C_IDLE:
          if (round_start) begin
            cst   <= C_Q;
            c_got <= '0;
          end
        C_Q: begin
          if (cr_valid[K_U]) begin
            u_found <= cr_found[K_U];
            u_ch    <= cr_pos[K_U*PW +: PW];
          end
          if (cr_valid[K_D]) begin
            d_found <= cr_found[K_D];
            d_ch    <= cr_pos[K_D*PW +: PW];
          end
          c_got <= c_got | cr_valid;
          if ((c_got | cr_valid) == 2'b11) cst <= C_DONE;
        end
        C_DONE:
          if (pst == P_DONE) cst <= C_IDLE;
        default: cst <= C_IDLE;
      endcase
    end
  end

endmodule
