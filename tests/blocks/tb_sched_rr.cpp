// SPDX-License-Identifier: MIT
/*
 * ppu_sched_rr (the scheduler on sets by runlist position) against
 * ppu_sched (the scheduler on a vector per channel state), side by side in
 * tests/blocks/tb_sched_rr_top.sv, at 16, 200 and 4096 channels.
 *
 * The testbench keeps the channels: a state each (idle, ready, a blocked
 * acquire to re-check, blocked since the last retry tick or across it,
 * waiting for an engine, its copy on the engine), doorbell and unbind
 * flags, a level and runlist membership.  It drives ppu_sched with the
 * vectors and ppu_sched_rr with the set updates the same changes make (one
 * per kind per cycle, as a caller must), then waits for a round of
 * ppu_sched_rr that started after the last update and compares: the
 * decision, its channel, reason, renew and preempt must be ppu_sched's.
 * Round-robin pointers are compared through their effect: services end
 * (served) on both sides alike, and the next decisions must still agree.
 * Semaphore wakes and retry ticks are pulses to ppu_sched_rr and a change
 * of the vectors for ppu_sched.
 */
#include "Vsched_rr.h"
#include "Vsched_rr_4096.h"
#include "Vsched_rr_odd.h"
#include "tb_common.h"

#include <algorithm>
#include <vector>

namespace {

enum St { ST_IDLE, ST_READY, ST_WOKEN, ST_B0, ST_B1, ST_EWAIT, ST_EBUSY, ST_N };
enum { K_R, K_B0, K_B1, K_EC, K_EK };
enum { K_U, K_D };
// ppu_types_pkg::sched_dec_e
enum { D_WAIT, D_UNBIND, D_DOORBELL, D_GUEST, D_RESUME, D_SWITCH, D_DROP };

struct Shape {
	unsigned levels;     // distinct levels in use (1: the prior art's single level)
	unsigned member_pct; // channels on the runlist
};

template <class M> class SchedEnv {
public:
	Dut<M> d;
	const unsigned nc, pw;
	Rng rng;
	std::vector<unsigned> st, lvl;
	std::vector<bool> member, stale, unbind, comp, in_u, in_d;
	std::vector<int> pos_of, kind_now; // kind_now: the position kind a channel is in, -1 none
	std::vector<unsigned> chan_at;     // position -> channel
	unsigned lo[64] = {}, hi[64] = {};
	bool ne[64] = {};
	std::deque<std::pair<unsigned, bool>> pq[5], cq[2];
	// the resident and the engines
	bool res_v = false, expired = false, yielded = false, guest = false, can_accept = true,
	     copy_ready = true;
	unsigned res = 0, res_reason = 0;
	uint64_t rounds = 0, max_round = 0, last_dec = 0, compared = 0, by_dec[7] = {};

	SchedEnv(unsigned nc_, int seed, Shape sh)
	    : d(seed), nc(nc_), pw(64 - __builtin_clzll(nc_ - 1)), rng(seed), st(nc_, ST_IDLE),
	      lvl(nc_, 0), member(nc_, false), stale(nc_, false), unbind(nc_, false), comp(nc_, false),
	      in_u(nc_, false), in_d(nc_, false), pos_of(nc_, -1), kind_now(nc_, -1)
	{
		unsigned pick[64];
		for (unsigned i = 0; i < 64; i++)
			pick[i] = i;
		for (unsigned i = 63; i > 0; i--)
			std::swap(pick[i], pick[rng.below(i + 1)]);
		for (unsigned c = 0; c < nc; c++) {
			lvl[c] = sh.levels == 1 ? 0 : pick[rng.below(sh.levels)];
			member[c] = rng.pct(sh.member_pct);
			comp[c] = rng.pct(40);
		}
		// the runlist as ppu.ko writes it: levels from the highest down,
		// channel ids in order within a level
		for (int l = 63; l >= 0; l--)
			for (unsigned c = 0; c < nc; c++)
				if (member[c] && lvl[c] == unsigned(l)) {
					if (!ne[l])
						lo[l] = chan_at.size();
					ne[l] = true;
					hi[l] = chan_at.size();
					pos_of[c] = chan_at.size();
					chan_at.push_back(c);
				}
		// (every input starts random: x-initial unique)
		clear(d->ready);
		clear(d->acq);
		clear(d->ewait);
		clear(d->ebusy);
		clear(d->wake);
		clear(d->stale);
		clear(d->unbind);
		clear(d->level);
		clear(d->p_upd_pos);
		clear(d->c_upd_chid);
		d->p_upd_set = 0;
		d->c_upd_set = 0;
		d->served_ch = 0;
		d->served_pos = 0;
		d->served_lv = 0;
		idle();
		for (unsigned c = 0; c < nc; c++) {
			for (unsigned b = 0; b < 6; b++)
				set(d->level, Field{b * nc + c, 1}, (lvl[c] >> b) & 1);
			set(d->member, Field{c, 1}, member[c]);
			set(d->comp, Field{c, 1}, comp[c]);
		}
		for (unsigned l = 0; l < 64; l++) {
			set(d->lv_lo, Field{l * pw, pw}, lo[l]);
			set(d->lv_hi, Field{l * pw, pw}, hi[l]);
			set(d->lv_ne, Field{l, 1}, ne[l]);
		}
		d.reset();
	}

	void idle()
	{
		d->p_upd_valid = 0;
		d->c_upd_valid = 0;
		d->wake_all = 0;
		d->retry_tick = 0;
		d->served = 0;
		drive_scalars();
	}

	bool elig(unsigned c) const
	{
		if (!member[c])
			return false;
		switch (st[c]) {
		case ST_READY:
		case ST_WOKEN:
			return true;
		case ST_EWAIT:
			return comp[c] ? can_accept : engine_free();
		default:
			return false;
		}
	}
	bool engine_free() const
	{
		if (!copy_ready)
			return false;
		for (unsigned c = 0; c < nc; c++)
			if (st[c] == ST_EBUSY)
				return false;
		return true;
	}
	bool engine_free_but_res() const
	{
		for (unsigned c = 0; c < nc; c++)
			if (st[c] == ST_EBUSY && !(res_v && c == res))
				return false;
		return true;
	}

	void drive_scalars()
	{
		d->res_v = res_v;
		d->res = res;
		d->expired = expired;
		d->yielded = yielded;
		d->res_reason = res_reason;
		d->guest = guest;
		d->can_accept = can_accept;
		d->copy_ready = copy_ready;
		d->res_pos = member[res] ? pos_of[res] : 0;
		d->res_lv = lvl[res];
		d->res_member = member[res];
		d->res_busy = res_v && st[res] == ST_EBUSY;
		d->res_elig = res_v && elig(res);
		d->engine_free = engine_free();
		d->engine_free_but_res = engine_free_but_res();
	}

	int kind_of(unsigned c) const
	{
		if (!member[c])
			return -1;
		switch (st[c]) {
		case ST_READY:
		case ST_WOKEN:
			return K_R;
		case ST_B0:
			return K_B0;
		case ST_B1:
			return K_B1;
		case ST_EWAIT:
			return comp[c] ? K_EK : K_EC;
		default:
			return -1;
		}
	}

	// The vectors of channel c, and the set updates its change makes.
	void refresh(unsigned c)
	{
		unsigned s = st[c];
		set(d->ready, Field{c, 1}, s == ST_READY);
		set(d->acq, Field{c, 1}, s == ST_WOKEN || s == ST_B0 || s == ST_B1);
		set(d->wake, Field{c, 1}, s == ST_WOKEN);
		set(d->ewait, Field{c, 1}, s == ST_EWAIT);
		set(d->ebusy, Field{c, 1}, s == ST_EBUSY);
		set(d->stale, Field{c, 1}, stale[c]);
		set(d->unbind, Field{c, 1}, unbind[c]);
		int k = kind_of(c);
		if (k != kind_now[c]) {
			if (kind_now[c] >= 0)
				pq[kind_now[c]].push_back({unsigned(pos_of[c]), false});
			if (k >= 0)
				pq[k].push_back({unsigned(pos_of[c]), true});
			kind_now[c] = k;
		}
		bool u = unbind[c] && s != ST_EBUSY, dd = stale[c] && !unbind[c];
		if (u != in_u[c])
			cq[K_U].push_back({c, u});
		if (dd != in_d[c])
			cq[K_D].push_back({c, dd});
		in_u[c] = u;
		in_d[c] = dd;
	}

	void tick()
	{
		d.tick();
		if (d->s_dec_valid) {
			if (rounds)
				max_round = std::max<uint64_t>(max_round, d.cyc - last_dec);
			last_dec = d.cyc;
			rounds++;
		}
	}

	// Set updates, one per kind per cycle, until none is left.
	void drain()
	{
		for (;;) {
			uint64_t pv = 0, ps = 0, pp = 0, cv = 0, cs = 0, cp = 0;
			for (unsigned k = 0; k < 5; k++)
				if (!pq[k].empty()) {
					pv |= 1ull << k;
					ps |= uint64_t(pq[k].front().second) << k;
					pp |= uint64_t(pq[k].front().first) << (k * pw);
					pq[k].pop_front();
				}
			for (unsigned k = 0; k < 2; k++)
				if (!cq[k].empty()) {
					cv |= 1ull << k;
					cs |= uint64_t(cq[k].front().second) << k;
					cp |= uint64_t(cq[k].front().first) << (k * pw);
					cq[k].pop_front();
				}
			if (!pv && !cv)
				break;
			d->p_upd_valid = pv;
			d->p_upd_set = ps;
			set_pos(pp);
			d->c_upd_valid = cv;
			d->c_upd_set = cs;
			set_chid(cp);
			tick();
		}
		d->p_upd_valid = 0;
		d->c_upd_valid = 0;
	}
	void set_pos(uint64_t v)
	{
		for (unsigned k = 0; k < 5; k++)
			set(d->p_upd_pos, Field{k * pw, pw}, (v >> (k * pw)) & mask64(pw));
	}
	void set_chid(uint64_t v)
	{
		for (unsigned k = 0; k < 2; k++)
			set(d->c_upd_chid, Field{k * pw, pw}, (v >> (k * pw)) & mask64(pw));
	}

	// A round that started after now has ended.
	void settle()
	{
		drive_scalars();
		for (int seen = 0; seen < 2;) {
			tick();
			if (d->s_dec_valid)
				seen++;
			if (d.cyc - last_dec > 100000)
				TB_FAIL("no decision for 100000 cycles");
		}
	}

	void compare(const char *what)
	{
		unsigned vdec = d->v_dec, sdec = d->s_dec;
		TB_CTX("%s: cycle %llu, %u channels, res_v %d res %u (pos %d lv %u) expired %d yielded %d "
		       "guest %d", what, (unsigned long long)d.cyc, nc, res_v, res, pos_of[res], lvl[res], expired,
		       yielded, guest);
		if (getenv("TB_DEBUG") && (sdec != vdec || d->s_dec_ch != d->v_dec_ch)) {
			for (unsigned c = 0; c < nc; c++)
				if (st[c] || stale[c] || unbind[c])
					fprintf(stderr, "ch %u st %u stale %d unbind %d u %d d %d pos %d\n", c, st[c],
						(int)stale[c], (int)unbind[c], (int)in_u[c], (int)in_d[c], pos_of[c]);
			fprintf(stderr, "s: dec %u ch %u by_id %u; v: dec %u ch %u\n", sdec, (unsigned)d->s_dec_ch,
				(unsigned)d->s_dec_by_id, vdec, (unsigned)d->v_dec_ch);
		}
		TB_EQ(sdec, vdec);
		TB_EQ(d->s_dec_reason, d->v_dec_reason);
		TB_EQ(d->s_dec_renew, d->v_dec_renew);
		TB_EQ(d->s_preempt, d->v_preempt);
		if (vdec == D_UNBIND || vdec == D_DOORBELL) {
			TB_EQ(d->s_dec_by_id, 1);
			TB_EQ(d->s_dec_ch, d->v_dec_ch);
		} else if (vdec == D_GUEST || vdec == D_SWITCH) {
			TB_EQ(d->s_dec_by_id, 0);
			unsigned got = chan_at.at(d->s_dec_ch);
			// A resident off the runlist has no place in its level's
			// round robin (ppu_sched_rr.sv): only the level must agree.
			if (res_v && !member[res] && lvl[d->v_dec_ch] == lvl[res])
				TB_EQ(lvl[got], lvl[d->v_dec_ch]);
			else
				TB_EQ(got, d->v_dec_ch);
		}
		compared++;
		by_dec[vdec]++;
	}

	unsigned random_state()
	{
		static const unsigned w[ST_N] = {25, 20, 8, 12, 8, 17, 10};
		unsigned r = rng.below(100);
		for (unsigned s = 0; s < ST_N; s++) {
			if (r < w[s])
				return s;
			r -= w[s];
		}
		return ST_IDLE;
	}

	// At most one channel's copy on the engine at a time, as in the PPU.
	void change(unsigned c, unsigned s)
	{
		if (s == ST_EBUSY)
			for (unsigned o = 0; o < nc; o++)
				if (st[o] == ST_EBUSY && o != c) {
					st[o] = ST_IDLE;
					refresh(o);
				}
		st[c] = s;
		refresh(c);
	}

	void random_step(unsigned changes, unsigned flag_pct)
	{
		for (unsigned i = 0; i < changes; i++) {
			unsigned c = rng.below(nc);
			change(c, random_state());
			if (rng.pct(flag_pct))
				stale[c] = true;
			if (rng.pct(flag_pct / 4))
				unbind[c] = true;
			refresh(c);
		}
		if (rng.pct(30)) {
			res_v = rng.pct(85);
			// mostly a resident on the runlist
			do
				res = rng.below(nc);
			while (!member[res] && rng.pct(80));
		}
		// (as ppu_host has them: only with a resident)
		expired = res_v && rng.pct(30);
		yielded = res_v && rng.pct(20);
		guest = res_v && rng.pct(20);
		can_accept = rng.pct(70);
		copy_ready = rng.pct(70);
		res_reason = rng.below(16);
	}

	// A service ends on both sides (only channels with a position).
	void serve(unsigned c)
	{
		d->served = 1;
		d->served_ch = c;
		d->served_pos = pos_of[c];
		d->served_lv = lvl[c];
		tick();
		d->served = 0;
	}

	void wake(bool all)
	{
		for (unsigned c = 0; c < nc; c++) {
			if (st[c] == ST_B1 || (all && st[c] == ST_B0))
				st[c] = ST_WOKEN;
			else if (st[c] == ST_B0)
				st[c] = ST_B1;
			else
				continue;
			// the block moves them itself: no updates
			refresh_vectors_only(c);
		}
		(all ? d->wake_all : d->retry_tick) = 1;
		tick();
		d->wake_all = 0;
		d->retry_tick = 0;
	}
	void refresh_vectors_only(unsigned c)
	{
		kind_now[c] = kind_of(c);
		set(d->acq, Field{c, 1}, 1);
		set(d->wake, Field{c, 1}, st[c] == ST_WOKEN);
	}

	// What ppu_host does with the decision, roughly: so that flags do not
	// pile up and every kind of decision comes round.
	void carry_out()
	{
		unsigned c = d->v_dec_ch;
		switch (unsigned(d->v_dec)) {
		case D_UNBIND:
			unbind[c] = stale[c] = false;
			change(c, ST_IDLE);
			if (res == c)
				res_v = false;
			break;
		case D_DOORBELL:
			stale[c] = false;
			change(c, st[c] == ST_IDLE ? unsigned(ST_READY) : st[c]);
			break;
		case D_SWITCH:
			res_v = true;
			res = c;
			break;
		case D_DROP:
			res_v = false;
			break;
		default:
			break;
		}
		expired = res_v && expired;
		yielded = res_v && yielded;
		guest = res_v && guest;
		drain();
	}

	void run(unsigned steps, unsigned changes, unsigned flag_pct = 20)
	{
		for (unsigned i = 0; i < steps; i++) {
			random_step(1 + rng.below(changes), flag_pct);
			drain();
			if (rng.pct(10)) {
				drive_scalars();
				wake(rng.pct(50));
			}
			settle();
			compare("random");
			// (the doorbells and unbinds the changes raised, mostly)
			for (unsigned k = 0; k < 8 && rng.pct(80); k++) {
				carry_out();
				settle();
				compare("after a decision was carried out");
			}
			if (!chan_at.empty() && rng.pct(40)) {
				serve(chan_at[rng.below(chan_at.size())]);
				settle();
				compare("after a service ended");
			}
		}
	}

	void report(const char *name)
	{
		fprintf(stderr,
			"%s: %llu decisions compared (wait %llu unbind %llu doorbell %llu guest %llu "
			"resume %llu switch %llu drop %llu), longest round %llu cycles\n",
			name, (unsigned long long)compared, (unsigned long long)by_dec[0],
			(unsigned long long)by_dec[1], (unsigned long long)by_dec[2],
			(unsigned long long)by_dec[3], (unsigned long long)by_dec[4],
			(unsigned long long)by_dec[5], (unsigned long long)by_dec[6],
			(unsigned long long)max_round);
	}
};

// Random runs of @seeds seeds from @seed0, each a fresh runlist of @sh.
template <class M>
static void random_runs(unsigned nc, int seed0, int seeds, Shape sh, unsigned steps, unsigned changes,
			unsigned flag_pct, const char *name)
{
	for (int seed = seed0; seed < seed0 + seeds; seed++) {
		SchedEnv<M> e(nc, seed, sh);
		e.run(steps, changes, flag_pct);
		e.report(name);
	}
}

START_TEST(decisions_are_ppu_scheds_16_channels_one_level)
{
	random_runs<Vsched_rr>(16, 1, 4, Shape{1, 100}, 700, 4, 20, "16 channels, one level");
}
END_TEST

START_TEST(decisions_are_ppu_scheds_16_channels_four_levels_some_off_the_runlist)
{
	random_runs<Vsched_rr>(16, 11, 6, Shape{4, 80}, 700, 4, 20, "16 channels, 4 levels");
}
END_TEST

START_TEST(decisions_are_ppu_scheds_200_channels)
{
	random_runs<Vsched_rr_odd>(200, 21, 1, Shape{1, 90}, 500, 30, 4, "200 channels, one level");
	random_runs<Vsched_rr_odd>(200, 22, 2, Shape{7, 90}, 500, 30, 4, "200 channels, 7 levels");
}
END_TEST

START_TEST(decisions_are_ppu_scheds_4096_channels)
{
	SchedEnv<Vsched_rr_4096> e(4096, 31, Shape{5, 95});
	// (a few hundred busy channels in every state)
	e.random_step(0, 0);
	for (unsigned i = 0; i < 1500; i++)
		e.change(e.rng.below(4096), e.random_state());
	e.drain();
	e.run(120, 60, 2);
	e.report("4096 channels");
}
END_TEST

// Rounds back to back, every answer in the first word read: the cycles
// from one decision to the next, with no resident (the first search and
// the round robin: 11) and with an expired resident whose own position is
// the first waiting one (the first search, the first other one, the
// time-slice successor: 15), whatever the channel count.
START_TEST(round_lengths_when_the_first_words_hold_the_answers)
{
	for (unsigned nc : {16u, 4096u}) {
		std::unique_ptr<SchedEnv<Vsched_rr>> e16;
		std::unique_ptr<SchedEnv<Vsched_rr_4096>> e4k;
		auto measure = [](auto &e, bool resident) {
			e.res_v = resident;
			e.res = e.chan_at[0];
			e.expired = e.yielded = resident;
			e.guest = false;
			for (unsigned p = 0; p < 4; p++)
				e.change(e.chan_at[p], ST_READY);
			e.drain();
			e.settle();
			uint64_t t0 = e.last_dec;
			e.settle();
			e.compare("latency");
			return (e.last_dec - t0) / 2;
		};
		uint64_t idle_round, busy_round;
		if (nc == 16) {
			e16.reset(new SchedEnv<Vsched_rr>(16, 41, Shape{1, 100}));
			idle_round = measure(*e16, false);
			busy_round = measure(*e16, true);
		} else {
			e4k.reset(new SchedEnv<Vsched_rr_4096>(4096, 42, Shape{1, 100}));
			idle_round = measure(*e4k, false);
			busy_round = measure(*e4k, true);
		}
		fprintf(stderr, "%u channels: a round without a resident %llu cycles, with all searches %llu\n",
			nc, (unsigned long long)idle_round, (unsigned long long)busy_round);
		TB_CTX("%u channels", nc);
		TB_TRUE(idle_round <= 12);
		TB_TRUE(busy_round <= 16);
	}
}
END_TEST

} // namespace

int main()
{
	return tb_run_suite("sched_rr", {
		decisions_are_ppu_scheds_16_channels_one_level,
		decisions_are_ppu_scheds_16_channels_four_levels_some_off_the_runlist,
		decisions_are_ppu_scheds_200_channels,
		decisions_are_ppu_scheds_4096_channels,
		round_lengths_when_the_first_words_hold_the_answers,
	});
}
