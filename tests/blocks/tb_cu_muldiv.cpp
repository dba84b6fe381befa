// SPDX-License-Identifier: MIT
/*
 * ppu_cu_muldiv on its own.  The multiplier (combinational) and the
 * iterative divider are checked against a reference written here from the
 * RISC-V M extension: MULH/MULHSU/MULHU signedness, x / 0 (quotient all
 * ones, remainder the dividend), INT_MIN / -1 (INT_MIN, remainder 0).
 *
 * The divider's contract is checked every cycle: a start is taken only when
 * div_ready (idle), busy is exactly !div_ready, the result appears 33
 * cycles after acceptance with the request's tag and stays (with the tag)
 * until div_done_ready, and only one division is ever in flight.  Between
 * requests the testbench drives random a, b and op, as the CU does while
 * other contexts issue: the divider must have latched its operands.  Every
 * cycle in which a MUL* op is on the inputs also checks mul_result.
 */
#include "Vppu_cu_muldiv.h"
#include "tb_common.h"

#include <vector>

namespace {

// ---- ppu_types_pkg cu_md_e (funct3 of the M extension) ----
enum Md : unsigned { MD_MUL, MD_MULH, MD_MULHSU, MD_MULHU, MD_DIV, MD_DIVU, MD_REM, MD_REMU };
const char *const MD_NAME[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};

const unsigned LATENCY = 33; // acceptance to div_done_valid
const unsigned TAG_W = 8;    // module default

// ---- Reference ----
// Signed values widened by hand, so no step leans on implementation-defined
// conversions.
int64_t s32(uint32_t x) { return (x & 0x80000000u) ? int64_t(x) - 0x100000000ll : int64_t(x); }

uint32_t ref_md(unsigned op, uint32_t a, uint32_t b)
{
	const uint32_t INT_MIN32 = 0x80000000u, MINUS1 = 0xffffffffu;
	switch (op) {
	case MD_MUL: return a * b;
	case MD_MULH: return uint32_t(uint64_t(s32(a) * s32(b)) >> 32);
	case MD_MULHSU: return uint32_t(uint64_t(s32(a) * int64_t(b)) >> 32);
	case MD_MULHU: return uint32_t((uint64_t(a) * b) >> 32);
	case MD_DIV:
		if (b == 0)
			return MINUS1;
		if (a == INT_MIN32 && b == MINUS1)
			return INT_MIN32;
		return uint32_t(s32(a) / s32(b)); // C++ truncates toward zero, as RISC-V
	case MD_DIVU: return b == 0 ? MINUS1 : a / b;
	case MD_REM:
		if (b == 0)
			return a;
		if (a == INT_MIN32 && b == MINUS1)
			return 0;
		return uint32_t(s32(a) % s32(b)); // sign of the dividend
	case MD_REMU: return b == 0 ? a : a % b;
	}
	TB_FAIL("ref_md: op %u", op);
	return 0;
}

const uint32_t CORNERS[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 2, 0xfffffffeu};

struct Job {
	uint32_t a = 0, b = 0;
	unsigned op = MD_DIV, tag = 0;
};

struct Taken {
	Job j;
	uint64_t accepted, first_valid, taken;
};

class MdEnv {
public:
	Dut<Vppu_cu_muldiv> d;
	Rng rng;
	std::deque<Job> todo;
	unsigned ready_pct = 100; // div_done_ready per cycle
	unsigned gap_pct = 0;     // chance of not presenting a queued job in a cycle
	// Present the next job while a division is in flight (held until the
	// divider is idle again); otherwise wait, as a CU that sees busy would,
	// and drive other instructions' operands meanwhile.
	bool eager = false;
	std::vector<Taken> log;
	uint64_t mul_checked = 0;

	explicit MdEnv(uint64_t seed = 1) : d(int(seed)), rng(seed)
	{
		idle_inputs();
		d.reset();
	}

	// Drives, evaluates and checks one cycle, then clocks it.
	void cycle()
	{
		if (!presenting_ && !todo.empty() && (eager || !inflight_) && !rng.pct(gap_pct)) {
			cur_ = todo.front();
			todo.pop_front();
			presenting_ = true;
		}
		d->div_valid = presenting_;
		if (presenting_) {
			d->a = cur_.a;
			d->b = cur_.b;
			d->op = cur_.op;
			d->div_tag = cur_.tag;
		} else {
			d->a = rng.u32();
			d->b = rng.u32();
			d->op = rng.below(8);
			d->div_tag = rng.below(1u << TAG_W);
		}
		d->div_done_ready = rng.pct(ready_pct);
		d.eval();
		sample();
		d.tick();
	}

	void run(unsigned n)
	{
		for (unsigned i = 0; i < n; i++)
			cycle();
	}

	// Queued jobs all issued and answered.
	void drain(unsigned limit = 1000000)
	{
		for (unsigned i = 0; i < limit; i++) {
			if (todo.empty() && !presenting_ && !inflight_)
				return;
			cycle();
		}
		TB_FAIL("%s: divider did not drain (%zu queued)", tb_ctx_buf(), todo.size());
	}

	// A synchronous reset of `cycles` clocks in the middle of whatever runs:
	// the division in flight (or offered) is gone, a presented start too.
	void reset_now(unsigned cycles)
	{
		d->div_valid = 0;
		d->div_done_ready = 0;
		d->rst_n = 0;
		for (unsigned i = 0; i < cycles; i++) {
			d.eval();
			d.tick();
		}
		d->rst_n = 1;
		d.eval();
		presenting_ = inflight_ = seen_valid_ = false;
		hold_ = HoldCheck<uint64_t>();
		TB_EQ(d->busy, 0);
		TB_EQ(d->div_ready, 1);
		TB_EQ(d->div_done_valid, 0);
	}

	bool inflight() const { return inflight_; }

private:
	bool presenting_ = false, inflight_ = false, seen_valid_ = false;
	Job cur_, fl_;
	uint64_t acc_cyc_ = 0, valid_cyc_ = 0;
	HoldCheck<uint64_t> hold_;

	void idle_inputs()
	{
		d->a = 0;
		d->b = 0;
		d->op = 0;
		d->div_valid = 0;
		d->div_tag = 0;
		d->div_done_ready = 0;
	}

	void sample()
	{
		unsigned op = d->op;
		if (op <= MD_MULHU) {
			mul_checked++;
			uint32_t e = ref_md(op, d->a, d->b);
			if (d->mul_result != e) {
				TB_CTX("%s a %08x b %08x (cycle %llu)", MD_NAME[op], d->a, d->b,
				       (unsigned long long)d.cyc);
				TB_EQ(d->mul_result, e);
			}
		}
		TB_CTX("divider cycle %llu", (unsigned long long)d.cyc);
		TB_EQ(d->busy, !d->div_ready);
		hold_.sample("div_done", d->div_done_valid, d->div_done_ready,
			     uint64_t(d->div_result) << 32 | d->div_done_tag);
		if (d->div_done_valid) {
			if (!inflight_)
				TB_FAIL("%s: div_done_valid with no division accepted", tb_ctx_buf());
			if (!seen_valid_) {
				seen_valid_ = true;
				valid_cyc_ = d.cyc;
				TB_EQ(d.cyc - acc_cyc_, LATENCY);
			}
			uint32_t e = ref_md(fl_.op, fl_.a, fl_.b);
			if (d->div_result != e || d->div_done_tag != fl_.tag) {
				TB_CTX("%s a %08x b %08x tag %u accepted at cycle %llu", MD_NAME[fl_.op], fl_.a,
				       fl_.b, fl_.tag, (unsigned long long)acc_cyc_);
				TB_EQ(d->div_result, e);
				TB_EQ(d->div_done_tag, fl_.tag);
			}
			if (d->div_done_ready) {
				log.push_back(Taken{fl_, acc_cyc_, valid_cyc_, d.cyc});
				inflight_ = seen_valid_ = false;
			}
		} else if (inflight_) {
			TB_TRUE(d->busy); // still dividing
		}
		if (d->div_valid && d->div_ready) {
			if (inflight_)
				TB_FAIL("%s: a second division accepted while one is in flight", tb_ctx_buf());
			fl_ = cur_;
			inflight_ = true;
			acc_cyc_ = d.cyc;
			presenting_ = false;
		}
	}
};

Job job(unsigned op, uint32_t a, uint32_t b, unsigned tag)
{
	Job j;
	j.op = op;
	j.a = a;
	j.b = b;
	j.tag = tag & ((1u << TAG_W) - 1);
	return j;
}

const unsigned DIV_OPS[] = {MD_DIV, MD_DIVU, MD_REM, MD_REMU};

} // namespace

// ---- Multiplier ----

START_TEST(multiply_every_corner_pair_and_random_operands)
{
	MdEnv e(1);
	for (unsigned op = MD_MUL; op <= MD_MULHU; op++) {
		auto check = [&](uint32_t a, uint32_t b) {
			e.d->a = a;
			e.d->b = b;
			e.d->op = op;
			e.d.eval();
			uint32_t exp = ref_md(op, a, b);
			if (e.d->mul_result != exp) {
				TB_CTX("%s a %08x b %08x", MD_NAME[op], a, b);
				TB_EQ(e.d->mul_result, exp);
			}
		};
		for (uint32_t a : CORNERS)
			for (uint32_t b : CORNERS)
				check(a, b);
		for (unsigned k = 0; k < 100000; k++) {
			uint32_t a = e.rng.u32(), b = e.rng.u32();
			if (k % 3 == 1)
				a >>= e.rng.below(32);
			if (k % 3 == 2)
				b = uint32_t(-int64_t(b >> e.rng.below(32)));
			check(a, b);
		}
	}
	TB_CTX("named products");
	e.d->a = 0x80000000u;
	e.d->b = 0x80000000u;
	e.d->op = MD_MULH; // (-2^31)^2 = 2^62
	e.d.eval();
	TB_EQ(e.d->mul_result, 0x40000000u);
	e.d->op = MD_MULHSU; // -2^31 * 2^31 = -2^62
	e.d.eval();
	TB_EQ(e.d->mul_result, 0xc0000000u);
	e.d->op = MD_MULHU; // 2^31 * 2^31 = 2^62
	e.d.eval();
	TB_EQ(e.d->mul_result, 0x40000000u);
	e.d->a = 0xffffffffu;
	e.d->b = 0xffffffffu;
	e.d->op = MD_MULHSU; // -1 * (2^32 - 1)
	e.d.eval();
	TB_EQ(e.d->mul_result, 0xffffffffu);
}
END_TEST

START_TEST(multiplier_is_right_while_a_division_runs)
{
	MdEnv e(2);
	for (unsigned k = 0; k < 300; k++)
		e.todo.push_back(job(DIV_OPS[k % 4], e.rng.u32(), e.rng.u32() >> (k % 32), k));
	e.gap_pct = 50;
	e.ready_pct = 50;
	e.drain();
	TB_CTX("products checked between divisions");
	TB_EQ(e.log.size(), 300);
	TB_TRUE(e.mul_checked > 1000);
}
END_TEST

// ---- Divider ----

START_TEST(divide_every_corner_pair)
{
	MdEnv e(3);
	unsigned n = 0;
	for (unsigned op : DIV_OPS)
		for (uint32_t a : CORNERS)
			for (uint32_t b : CORNERS)
				e.todo.push_back(job(op, a, b, n++));
	e.ready_pct = 70;
	e.gap_pct = 30;
	e.drain();
	TB_CTX("corner divisions");
	TB_EQ(e.log.size(), n);
	TB_EQ(n, 4u * 7 * 7);
	// The spec's named cases, as answered (the reference already agrees).
	for (const Taken &t : e.log) {
		if (t.j.b == 0 && (t.j.op == MD_DIV || t.j.op == MD_DIVU))
			TB_EQ(ref_md(t.j.op, t.j.a, t.j.b), 0xffffffffu);
		if (t.j.b == 0 && (t.j.op == MD_REM || t.j.op == MD_REMU))
			TB_EQ(ref_md(t.j.op, t.j.a, t.j.b), t.j.a);
	}
	TB_EQ(ref_md(MD_DIV, 0x80000000u, 0xffffffffu), 0x80000000u);
	TB_EQ(ref_md(MD_REM, 0x80000000u, 0xffffffffu), 0u);
	TB_EQ(ref_md(MD_DIV, 0xfffffff9u, 2), 0xfffffffdu); // -7 / 2 = -3
	TB_EQ(ref_md(MD_REM, 0xfffffff9u, 2), 0xffffffffu); // remainder -1
}
END_TEST

START_TEST(divide_random_operands_of_every_size)
{
	MdEnv e(4);
	Rng &r = e.rng;
	for (unsigned k = 0; k < 4000; k++) {
		uint32_t a = r.u32(), b = r.u32();
		// Operand widths from 1 to 32 bits, either sign, so quotients range
		// from 0 to full width.
		a >>= r.below(32);
		b >>= r.below(32);
		if (r.below(2))
			a = 0u - a;
		if (r.below(2))
			b = 0u - b;
		if (k % 50 == 0)
			b = 0;
		e.todo.push_back(job(DIV_OPS[r.below(4)], a, b, r.u32()));
	}
	e.ready_pct = 60;
	e.gap_pct = 20;
	e.drain();
	TB_CTX("random divisions");
	TB_EQ(e.log.size(), 4000);
}
END_TEST

START_TEST(back_to_back_divisions_start_the_cycle_after_the_result_is_taken)
{
	MdEnv e(5);
	for (unsigned k = 0; k < 60; k++)
		e.todo.push_back(job(DIV_OPS[k % 4], e.rng.u32(), e.rng.u32() >> (k % 31), k));
	e.eager = true;
	e.drain();
	TB_CTX("back to back, result always taken at once");
	TB_EQ(e.log.size(), 60);
	for (std::size_t i = 0; i < e.log.size(); i++) {
		TB_EQ(e.log[i].taken, e.log[i].first_valid);
		if (i + 1 < e.log.size()) {
			TB_EQ(e.log[i + 1].accepted, e.log[i].taken + 1);
			TB_EQ(e.log[i + 1].accepted - e.log[i].accepted, LATENCY + 1);
		}
	}
	// Now with the result left waiting: nothing new starts meanwhile.
	for (unsigned k = 0; k < 60; k++)
		e.todo.push_back(job(DIV_OPS[k % 4], e.rng.u32(), e.rng.u32() >> (k % 31), 100 + k));
	e.ready_pct = 10;
	std::size_t base = e.log.size();
	e.drain();
	TB_CTX("back to back, result taken late");
	TB_EQ(e.log.size(), base + 60);
	bool waited = false;
	for (std::size_t i = base; i + 1 < e.log.size(); i++) {
		TB_EQ(e.log[i + 1].accepted, e.log[i].taken + 1);
		waited |= e.log[i].taken > e.log[i].first_valid;
	}
	TB_TRUE(waited);
}
END_TEST

START_TEST(a_reset_in_the_middle_of_a_division_drops_it)
{
	MdEnv e(6);
	for (unsigned at = 0; at <= LATENCY + 3; at++) {
		for (unsigned len : {1u, 3u}) {
			// Start one division and stop the clock-cycle count at `at`:
			// from just after acceptance, through every step, to while the
			// result is offered and not taken.
			e.ready_pct = 0;
			e.todo.push_back(job(MD_DIV, 0x80000000u + at, 7 + at, at));
			for (unsigned i = 0; i < 1000 && !e.inflight(); i++)
				e.cycle();
			TB_CTX("reset %u cycles after acceptance", at);
			TB_TRUE(e.inflight());
			e.run(at);
			e.reset_now(len);
			// Nothing of the dropped division comes out later.
			e.run(LATENCY + 10);
			// And the next one is right.
			e.ready_pct = 100;
			std::size_t base = e.log.size();
			e.todo.push_back(job(MD_REM, 0xfedcba98u, 0x1234u + at, 200 + at));
			e.todo.push_back(job(MD_DIVU, 0xfedcba98u, 3, 201 + at));
			e.drain();
			TB_CTX("after reset at %u", at);
			TB_EQ(e.log.size(), base + 2);
		}
	}
	// A reset while a start is being presented, before it is accepted.
	e.ready_pct = 0;
	e.eager = true;
	e.todo.push_back(job(MD_DIV, 100, 7, 1));
	e.todo.push_back(job(MD_DIV, 200, 7, 2));
	for (unsigned i = 0; i < 1000 && !e.inflight(); i++)
		e.cycle();
	e.cycle(); // the second job is now presented and held
	e.reset_now(1);
	e.ready_pct = 100;
	e.todo.push_back(job(MD_REMU, 200, 7, 3));
	std::size_t base = e.log.size();
	e.drain();
	TB_CTX("reset while a start was presented");
	TB_EQ(e.log.size(), base + 1);
	TB_EQ(e.log.back().j.tag, 3u);
}
END_TEST

int main()
{
	return tb_run_suite("cu_muldiv", {
		multiply_every_corner_pair_and_random_operands,
		multiplier_is_right_while_a_division_runs,
		divide_every_corner_pair,
		divide_random_operands_of_every_size,
		back_to_back_divisions_start_the_cycle_after_the_result_is_taken,
		a_reset_in_the_middle_of_a_division_drops_it,
	});
}
