// SPDX-License-Identifier: MIT
// Test wrapper for tests/blocks/tb_sched_rr.cpp (not part of the PPU):
// ppu_sched, deciding from a vector per channel state, beside
// ppu_sched_rr, deciding from sets by runlist position.  The testbench
// drives both with the same channels (vectors for one, set updates for the
// other) and compares the decisions.
module tb_sched_rr_top #(
    parameter int unsigned NC = 16,
    parameter int unsigned PW = $clog2(NC)
) (
    input  logic              clk,
    input  logic              rst_n,
    // ---- ppu_sched ----
    input  logic [NC-1:0]     ready,
    input  logic [NC-1:0]     acq,
    input  logic [NC-1:0]     ewait,
    input  logic [NC-1:0]     ebusy,
    input  logic [NC-1:0]     wake,
    input  logic [NC-1:0]     stale,
    input  logic [NC-1:0]     unbind,
    input  logic [NC*6-1:0]   level,
    input  logic [NC-1:0]     member,
    input  logic [NC-1:0]     comp,
    input  logic              can_accept,
    input  logic              copy_ready,
    input  logic              res_v,
    input  logic [PW-1:0]     res,
    input  logic              expired,
    input  logic              yielded,
    input  logic [3:0]        res_reason,
    input  logic              guest,
    input  logic              served,
    input  logic [PW-1:0]     served_ch,
    output logic              v_engine_free,
    output logic              v_preempt,
    output logic [2:0]        v_dec,
    output logic [PW-1:0]     v_dec_ch,
    output logic [3:0]        v_dec_reason,
    output logic              v_dec_renew,
    // ---- ppu_sched_rr (res_v, expired, yielded, res_reason, guest,
    // can_accept and served shared) ----
    input  logic [4:0]        p_upd_valid,
    input  logic [4:0]        p_upd_set,
    input  logic [5*PW-1:0]   p_upd_pos,
    input  logic [1:0]        c_upd_valid,
    input  logic [1:0]        c_upd_set,
    input  logic [2*PW-1:0]   c_upd_chid,
    input  logic              wake_all,
    input  logic              retry_tick,
    input  logic [64*PW-1:0]  lv_lo,
    input  logic [64*PW-1:0]  lv_hi,
    input  logic [63:0]       lv_ne,
    input  logic [PW-1:0]     res_pos,
    input  logic [5:0]        res_lv,
    input  logic              res_member,
    input  logic              res_busy,
    input  logic              res_elig,
    input  logic              engine_free,
    input  logic              engine_free_but_res,
    input  logic [PW-1:0]     served_pos,
    input  logic [5:0]        served_lv,
    output logic              s_dec_valid,
    output logic [2:0]        s_dec,
    output logic              s_dec_by_id,
    output logic [PW-1:0]     s_dec_ch,
    output logic [3:0]        s_dec_reason,
    output logic              s_dec_renew,
    output logic              s_preempt
);
  ppu_types_pkg::sched_dec_e vd, sd;

  ppu_sched #(.NUM_CHANNELS(NC)) u_vec (
      .clk, .rst_n, .ready, .acq, .ewait, .ebusy, .wake, .stale, .unbind, .level, .member, .comp,
      .can_accept, .copy_ready, .res_v, .res, .expired, .yielded, .res_reason, .guest, .served,
      .served_ch, .engine_free(v_engine_free), .preempt(v_preempt), .dec(vd), .dec_ch(v_dec_ch),
      .dec_reason(v_dec_reason), .dec_renew(v_dec_renew));

  ppu_sched_rr #(.NUM_CHANNELS(NC)) u_sets (
      .clk, .rst_n, .p_upd_valid, .p_upd_set, .p_upd_pos, .c_upd_valid, .c_upd_set, .c_upd_chid,
      .wake_all, .retry_tick, .go(1'b1), .round_start(), .busy(), .lv_lo, .lv_hi, .lv_ne, .res_v, .res_pos, .res_lv, .res_member,
      .res_busy, .res_elig, .expired, .yielded, .res_reason, .guest, .can_accept, .engine_free,
      .engine_free_but_res, .served, .served_pos, .served_lv, .dec_valid(s_dec_valid), .dec(sd),
      .dec_by_id(s_dec_by_id), .dec_ch(s_dec_ch), .dec_reason(s_dec_reason),
      .dec_renew(s_dec_renew), .preempt(s_preempt));

  assign v_dec = 3'(vd);
  assign s_dec = 3'(sd);
endmodule
