// SPDX-License-Identifier: MIT
/*
 * ppu_sem and ppu_mem_arb together (tests/blocks/tb_sem_arb_top.sv, wired as
 * in ppu_top: the RMW lock and the snoop of accepted writes), against one
 * other memory client that writes and reads through the same arbiter, like
 * the copy engine or a compute unit's stores.  The external memory applies
 * every access when the port accepts it (docs/harness.md) with random
 * back-pressure and latency.
 *
 * The semaphore unit updates one counter word with INC (port 0), IADD
 * (port 1), AMOADD and LR/SC increments (port 3), thousands of them, while
 * the other client writes the other half of the counter's beat and random
 * other beats, and in some phases the counter word itself ("marks": a plain
 * store or a copy landing on it).  The testbench follows the memory in
 * acceptance order and checks:
 *
 *   - every increment the unit writes is the counter's value at that moment
 *     plus the increment (no write of the other client landed between the
 *     unit's read and its write: no lost update), and the AMO's response is
 *     the value it replaced;
 *   - a successful SC writes over exactly the value its LR read, with no
 *     write to the beat accepted since that read (the reservation);
 *   - at the end the counter is exactly the last mark (or its start value)
 *     plus every increment accepted after it, and the other half holds the
 *     other client's last value.
 *
 * The same scenario runs on a second model with the lock cut (LOCK_EN = 0)
 * as a control: there the marks are lost and SCs succeed over writes, which
 * shows that the checks above see what the lock prevents.  Writes to the
 * other half alone cannot lose anything even without the lock: both sides
 * write with byte strobes, so their bytes are disjoint.
 */
#include "Vsem_arb.h"
#include "Vsem_arb_nolock.h"
#include "tb_common.h"

#include <string>

namespace {

const unsigned OTHER = 0, SEM = 1; // client indices (read and write)
const uint32_t CVA = 0x5008;        // counter: lower half of its beat
const uint32_t HVA = CVA + 4;       // the other half

uint32_t exec_word(unsigned op, unsigned red)
{
	return PPU_FSET(PPU_SEM_EXECUTE_OPERATION, op) | PPU_FSET(PPU_SEM_EXECUTE_REDUCTION, red);
}

enum Kind { K_NONE, K_INC, K_IADD, K_AMOADD, K_LR, K_SC };

struct Op {
	Kind kind = K_NONE;
	uint32_t payload = 0;
};

template <class M> class Env {
public:
	Dut<M> d;
	Rng rng;
	Mem mem;
	const char *name;
	// knobs
	unsigned ready_pct = 80, lat_max = 6;
	unsigned o_wr_pct = 40, o_rd_pct = 30; // the other client
	unsigned beat_pct = 40;                // its writes that go to the counter's beat
	unsigned mark_pct = 0;                 // of those, the ones covering counter bytes
	unsigned inc_pct = 50, iadd_pct = 30, amo_pct = 80, lrsc_pct = 30;
	bool issue = true;                     // new requests at all
	// what happened
	uint64_t count_violations = 0, res_violations = 0;
	uint64_t p1_count_violations = 0, p1_res_violations = 0; // in the phase without marks
	std::string first_violation;
	uint64_t n_inc = 0, n_iadd = 0, n_amoadd = 0, n_sc_ok = 0, n_sc_fail = 0, n_lr = 0;
	uint64_t n_marks = 0, n_half = 0, n_other_beats = 0, n_locked_cycles = 0;
	// reference
	uint32_t ref = 0;       // the counter, following accepted writes
	uint32_t base = 0;      // the last mark (or the start value)
	uint64_t since = 0;     // increments written after it
	uint32_t half = 0;      // the other client's last value of the other half

	Env(const char *n, uint64_t seed) : d(int(seed)), rng(seed), mem(seed), name(n)
	{
		d->req_valid = 0;
		clear(d->req);
		d->x_req_ready = 0;
		d->x_rsp_valid = 0;
		d->x_rsp = 0;
		d->o_rd_valid = 0;
		d->o_rd_pa = 0;
		d->o_wr_valid = 0;
		clear(d->o_wr_req);
		d->m_rd_ready = 0;
		d->m_rd_rsp_valid = 0;
		clear(d->m_rd_rsp);
		d->m_rd_rsp_tag = 0;
		d->m_wr_ready = 0;
		d->m_wr_rsp_valid = 0;
		d->m_wr_rsp_err = 0;
		d->m_wr_rsp_tag = 0;
		d.reset();
		ref = base = rng.u32();
		mem.w32(PageMap::sys_of(CVA), PageMap::pa(CVA), ref);
		half = mem.r32(PageMap::sys_of(HVA), PageMap::pa(HVA));
	}

	uint32_t counter() { return mem.r32(PageMap::sys_of(CVA), PageMap::pa(CVA)); }
	uint32_t other_half() { return mem.r32(PageMap::sys_of(HVA), PageMap::pa(HVA)); }
	uint64_t sem_ops() const { return n_inc + n_iadd + n_amoadd + n_sc_ok; }

	void run(uint64_t cycles)
	{
		for (uint64_t i = 0; i < cycles; i++)
			cycle();
	}

	// Stop issuing; let everything finish.
	void drain()
	{
		issue = false;
		o_wr_pct = o_rd_pct = 0;
		for (int i = 0; i < 2000 && (busy_ || port_[0].valid || port_[1].valid || port_[3].valid ||
					     o_wr_.valid || o_rd_.valid || !rq_.empty() || !wq_.empty() || !xq_.empty());
		     i++)
			cycle();
		TB_CTX("%s: drain", name);
		TB_TRUE(!busy_ && rq_.empty() && wq_.empty() && xq_.empty() && !o_wr_.valid && !o_rd_.valid);
	}

private:
	struct Port {
		bool valid = false;
		Op op;
	};
	struct OClient {
		bool valid = false;
		int sys = 0;
		uint64_t pa = 0, data = 0;
		unsigned strb = 0;
	};
	struct RPend {
		unsigned tag;
		uint64_t data;
		bool err;
	};
	Port port_[4];
	OClient o_rd_, o_wr_;
	Pipe<uint32_t> xq_;
	Pipe<RPend> rq_;
	Pipe<unsigned> wq_;
	std::deque<uint64_t> o_rd_exp_;
	// the op in the unit
	bool busy_ = false;
	unsigned cur_port_ = 0;
	Op cur_;
	bool cur_wrote_ = false;
	uint32_t cur_read_ = 0, cur_new_ = 0; // the counter its read sampled, the value it wrote
	// LR/SC on port 3, which (like a compute-unit context) waits for each
	// result before its next request
	bool p3_out_ = false;     // a port-3 op accepted and not answered
	bool lr_done_ = false;    // the next port-3 op is the SC
	uint32_t lr_value_ = 0;
	uint64_t lr_seq_ = 0;     // writes to the counter's beat before the LR's read
	uint64_t beat_seq_ = 0;   // writes to the counter's beat accepted so far

	static uint64_t beat_key(int sys, uint64_t pa) { return uint64_t(sys) << 40 | pa >> 3; }
	uint64_t counter_beat() const { return beat_key(PageMap::sys_of(CVA), PageMap::pa(CVA)); }

	void violation(uint64_t *n, const std::string &what)
	{
		if (!(*n)++ && first_violation.empty())
			first_violation = what;
	}

	Op next_op(unsigned p)
	{
		Op o;
		if (p == 0) {
			o.kind = K_INC;
		} else if (p == 1) {
			o.kind = K_IADD;
			o.payload = 1 + rng.below(7);
		} else if (lr_done_) {
			o.kind = K_SC;
			o.payload = lr_value_ + 1;
		} else if (rng.pct(lrsc_pct)) {
			o.kind = K_LR;
		} else {
			o.kind = K_AMOADD;
			o.payload = 1 + rng.below(5);
		}
		return o;
	}

	void drive_port(unsigned p, unsigned pct)
	{
		Port &pt = port_[p];
		if (!pt.valid && issue && !(p == 3 && p3_out_) && (rng.pct(pct) || (p == 3 && lr_done_))) {
			pt.valid = true;
			pt.op = next_op(p);
		}
		Field f = elem(first(tp::sreq::W), tp::sreq::W, p);
		for (unsigned b = 0; b < tp::sreq::W; b += 64)
			set(d->req, Field{f.lsb + b, std::min(64u, tp::sreq::W - b)}, rng.u64());
		if (!pt.valid)
			return;
		uint32_t exec = 0;
		switch (pt.op.kind) {
		case K_INC: exec = exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, PPU_SEM_EXECUTE_REDUCTION_INC); break;
		case K_IADD: exec = exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, PPU_SEM_EXECUTE_REDUCTION_IADD); break;
		case K_AMOADD: exec = exec_word(PPU_SEM_EXECUTE_OPERATION_AMO, PPU_SEM_AMO_ADD); break;
		case K_LR: exec = exec_word(PPU_SEM_EXECUTE_OPERATION_AMO, PPU_SEM_AMO_LR); break;
		case K_SC: exec = exec_word(PPU_SEM_EXECUTE_OPERATION_AMO, PPU_SEM_AMO_SC); break;
		default: break;
		}
		set(d->req, elem(tp::sreq::rid, tp::sreq::W, p), 7);
		set(d->req, elem(tp::sreq::chid, tp::sreq::W, p), p);
		set(d->req, elem(tp::sreq::root_ppn, tp::sreq::W, p), 0x1234);
		set(d->req, elem(tp::sreq::root_sys, tp::sreq::W, p), 0);
		set(d->req, elem(tp::sreq::va, tp::sreq::W, p), CVA);
		set(d->req, elem(tp::sreq::exec, tp::sreq::W, p), exec);
		set(d->req, elem(tp::sreq::payload, tp::sreq::W, p), pt.op.payload);
	}

	// A random beat near the counter (same page: the counter's beat among them).
	void random_beat(int *sys, uint64_t *pa)
	{
		uint32_t va = 0x5000 + 8 * rng.below(64);
		*sys = PageMap::sys_of(va);
		*pa = PageMap::pa(va);
	}

	void drive_other()
	{
		if (!o_wr_.valid && rng.pct(o_wr_pct)) {
			o_wr_.valid = true;
			o_wr_.data = rng.u64();
			if (rng.pct(beat_pct)) {
				o_wr_.sys = PageMap::sys_of(CVA);
				o_wr_.pa = PageMap::pa(CVA) & ~7ull;
				if (rng.pct(mark_pct))
					o_wr_.strb = rng.pct(50) ? 0xff : 0x0f; // the counter word (and the half)
				else
					o_wr_.strb = 0xf0 & (rng.below(15) + 1) << 4; // other-half bytes only
			} else {
				do {
					random_beat(&o_wr_.sys, &o_wr_.pa);
				} while (beat_key(o_wr_.sys, o_wr_.pa) == counter_beat());
				o_wr_.strb = rng.below(256);
			}
		}
		if (!o_rd_.valid && rng.pct(o_rd_pct)) {
			o_rd_.valid = true;
			random_beat(&o_rd_.sys, &o_rd_.pa);
		}
		uint64_t g = rng.u64();
		d->o_wr_valid = o_wr_.valid;
		set(d->o_wr_req, tp::wreq::addr, o_wr_.valid ? o_wr_.pa : g);
		set(d->o_wr_req, tp::wreq::sys, o_wr_.valid ? o_wr_.sys : g >> 63);
		set(d->o_wr_req, tp::wreq::data, o_wr_.valid ? o_wr_.data : ~g);
		set(d->o_wr_req, tp::wreq::strb, o_wr_.valid ? o_wr_.strb : g >> 5);
		d->o_rd_valid = o_rd_.valid;
		d->o_rd_pa = o_rd_.valid ? (o_rd_.pa | uint64_t(o_rd_.sys) << tp::paddr::sys.lsb)
					 : rng.u64() & mask64(tp::paddr::W);
	}

	void cycle()
	{
		unsigned rv = 0;
		unsigned pct[4] = {inc_pct, iadd_pct, 0, amo_pct};
		for (unsigned p = 0; p < 4; p++) {
			drive_port(p, pct[p]);
			rv |= unsigned(port_[p].valid) << p;
		}
		d->req_valid = rv;
		drive_other();
		d->x_req_ready = rng.pct(ready_pct);
		d->m_rd_ready = rng.pct(ready_pct);
		d->m_wr_ready = rng.pct(ready_pct);
		d->x_rsp_valid = 0;
		d->x_rsp = rng.u64();
		if (xq_.due(d.cyc)) {
			uint32_t va = xq_.pop();
			uint64_t r = 0;
			set(r, tp::xrsp::addr, PageMap::pa(va));
			set(r, tp::xrsp::sys, PageMap::sys_of(va));
			d->x_rsp_valid = 1;
			d->x_rsp = r;
		}
		d->m_rd_rsp_valid = 0;
		d->m_rd_rsp_tag = rng.below(8);
		randomize(d->m_rd_rsp, rng.u64());
		if (rq_.due(d.cyc)) {
			RPend r = rq_.pop();
			d->m_rd_rsp_valid = 1;
			d->m_rd_rsp_tag = r.tag;
			set(d->m_rd_rsp, tp::rdrsp::data, r.data);
			set(d->m_rd_rsp, tp::rdrsp::err, r.err);
		}
		d->m_wr_rsp_valid = 0;
		d->m_wr_rsp_tag = rng.below(8);
		d->m_wr_rsp_err = rng.below(2);
		if (wq_.due(d.cyc)) {
			d->m_wr_rsp_valid = 1;
			d->m_wr_rsp_tag = wq_.pop();
			d->m_wr_rsp_err = 0;
		}
		d.eval();
		sample();
		d.tick();
	}

	void sample()
	{
		uint64_t c = d.cyc;
		n_locked_cycles += d->lock_valid;
		// requests accepted by the unit
		unsigned ready = d->req_ready;
		for (unsigned p = 0; p < 4; p++) {
			if (!(ready >> p & 1))
				continue;
			TB_TRUE(!busy_);
			busy_ = true;
			cur_port_ = p;
			cur_ = port_[p].op;
			cur_wrote_ = false;
			port_[p].valid = false;
			if (p == 3)
				p3_out_ = true;
		}
		if (d->x_req_valid && d->x_req_ready)
			xq_.push(c, 1 + rng.below(lat_max), uint32_t(get(d->x_req, tp::xreq::va)));
		// reads: sampled when accepted
		if (d->m_rd_valid && d->m_rd_ready) {
			unsigned tag = d->m_rd_tag;
			int sys = int(get(d->m_rd_pa, tp::paddr::sys));
			uint64_t pa = get(d->m_rd_pa, tp::paddr::addr);
			TB_EQ(pa % 8, 0);
			uint64_t data = mem.rd_beat(sys, pa);
			rq_.push(c, 1 + rng.below(lat_max), RPend{tag, data, false});
			if (tag == OTHER) {
				o_rd_exp_.push_back(data);
				o_rd_.valid = false;
			} else {
				TB_EQ(beat_key(sys, pa), counter_beat());
				cur_read_ = uint32_t(data);
				if (cur_.kind == K_LR)
					lr_seq_ = beat_seq_; // a write accepted in this cycle counts as after
			}
		}
		// writes: applied when accepted
		if (d->m_wr_valid && d->m_wr_ready) {
			unsigned tag = d->m_wr_tag;
			int sys = int(get(d->m_wr_req, tp::wreq::sys));
			uint64_t pa = get(d->m_wr_req, tp::wreq::addr);
			uint64_t data = get(d->m_wr_req, tp::wreq::data);
			unsigned strb = unsigned(get(d->m_wr_req, tp::wreq::strb));
			TB_EQ(pa % 8, 0);
			bool at_counter = beat_key(sys, pa) == counter_beat();
			uint32_t before = counter();
			mem.wr_beat(sys, pa, data, strb);
			wq_.push(c, 1 + rng.below(lat_max), tag);
			if (tag == OTHER) {
				o_wr_.valid = false;
				if (at_counter) {
					if (strb & 0x0f) {
						n_marks++;
						ref = base = counter();
						since = 0;
					}
					if (strb & 0xf0)
						n_half++;
					half = other_half();
				} else {
					n_other_beats++;
				}
			} else {
				TB_TRUE(at_counter);
				TB_EQ(strb, 0x0f);
				sem_write(c, before);
			}
			if (at_counter)
				beat_seq_++;
		}
		// read responses of the other client (routing)
		if (d->o_rd_rsp_valid) {
			TB_TRUE(!o_rd_exp_.empty());
			TB_EQ(get(d->rd_rsp, tp::rdrsp::data), o_rd_exp_.front());
			o_rd_exp_.pop_front();
		}
		// the unit's responses
		unsigned rsp = d->rsp_valid;
		if (rsp) {
			TB_TRUE(busy_);
			TB_EQ(rsp, 1u << cur_port_);
			sem_response(get(d->rsp, tp::srsp::value), get(d->rsp, tp::srsp::fault));
			busy_ = false;
			if (cur_port_ == 3)
				p3_out_ = false;
		}
	}

	// The unit's write to the counter accepted now; `before` is the counter
	// (what every earlier accepted write left) just before it.
	void sem_write(uint64_t c, uint32_t before)
	{
		uint32_t now = counter();
		char buf[200];
		TB_TRUE(!cur_wrote_);
		cur_wrote_ = true;
		cur_new_ = now;
		if (cur_.kind == K_SC) {
			if (before != lr_value_) {
				snprintf(buf, sizeof buf, "cycle %llu: SC stored over %08x, its LR read %08x (lost update)",
					 (unsigned long long)c, before, lr_value_);
				violation(&count_violations, buf);
			}
			// beat_seq_ not yet counting this write
			if (beat_seq_ != lr_seq_) {
				snprintf(buf, sizeof buf, "cycle %llu: SC succeeded after %llu write(s) to its beat since the LR",
					 (unsigned long long)c, (unsigned long long)(beat_seq_ - lr_seq_));
				violation(&res_violations, buf);
			}
			TB_EQ(now, lr_value_ + 1);
			since += 1;
		} else {
			uint32_t delta = cur_.kind == K_INC ? 1 : cur_.payload;
			if (now != before + delta) {
				snprintf(buf, sizeof buf,
					 "cycle %llu: op %d wrote %08x over %08x, expected +%u (a write landed inside its RMW)",
					 (unsigned long long)c, int(cur_.kind), now, before, delta);
				violation(&count_violations, buf);
			}
			since += delta;
		}
		ref = now;
	}

	void sem_response(uint32_t value, bool fault)
	{
		TB_CTX("%s: response to op %d on port %u", name, int(cur_.kind), cur_port_);
		TB_TRUE(!fault);
		switch (cur_.kind) {
		case K_INC:
		case K_IADD:
			TB_TRUE(cur_wrote_);
			TB_EQ(value, cur_new_);
			TB_EQ(cur_new_, cur_read_ + (cur_.kind == K_INC ? 1 : cur_.payload));
			(cur_.kind == K_INC ? n_inc : n_iadd)++;
			break;
		case K_AMOADD:
			// the word it replaced (with the lock, the counter just before
			// its write: checked there)
			TB_TRUE(cur_wrote_);
			TB_EQ(value, cur_read_);
			TB_EQ(cur_new_, cur_read_ + cur_.payload);
			n_amoadd++;
			break;
		case K_LR:
			TB_TRUE(!cur_wrote_);
			TB_EQ(value, cur_read_);
			lr_value_ = value;
			lr_done_ = true;
			n_lr++;
			break;
		case K_SC:
			TB_EQ(value, cur_wrote_ ? 0u : 1u);
			(cur_wrote_ ? n_sc_ok : n_sc_fail)++;
			lr_done_ = false;
			break;
		default:
			TB_FAIL("%s: response without a request", name);
		}
	}
};

// One run: a phase of other-half and other-beat writes only (the lost
// update cannot come from those: disjoint strobes), then a phase with marks
// on the counter word.  Returns the environment for the caller's checks.
// Random knobs for one stretch.  Odd k: only port 3 (AMOADD and LR/SC) and
// few writes to the counter's beat, so that SCs get through; even k: every
// port and many writes to the beat.
template <class M> void knobs(Env<M> &e, int k)
{
	e.ready_pct = 50 + e.rng.below(51);
	e.lat_max = 1 + e.rng.below(10);
	e.o_wr_pct = 20 + e.rng.below(60);
	e.o_rd_pct = 30;
	if (k & 1) {
		e.inc_pct = e.iadd_pct = 0;
		e.amo_pct = 100;
		e.lrsc_pct = 50 + e.rng.below(50);
		e.beat_pct = e.rng.below(8);
	} else {
		e.inc_pct = 50;
		e.iadd_pct = 30;
		e.amo_pct = 80;
		e.lrsc_pct = e.rng.below(40);
		e.beat_pct = 20 + e.rng.below(60);
	}
}

template <class M> void scenario(Env<M> &e, uint64_t cycles, bool marks)
{
	// phase 1: the other half and other beats
	e.mark_pct = 0;
	for (int k = 0; k < 8; k++) {
		knobs(e, k);
		e.run(cycles / 16);
	}
	e.drain();
	TB_CTX("%s: after the other-half phase", e.name);
	TB_EQ(e.counter(), uint32_t(e.base + e.since));
	TB_EQ(e.other_half(), e.half);
	e.p1_count_violations = e.count_violations;
	e.p1_res_violations = e.res_violations;
	e.issue = true;
	if (!marks)
		return;
	// phase 2: marks on the counter word too
	e.mark_pct = 10;
	for (int k = 0; k < 8; k++) {
		knobs(e, k);
		if (k & 1)
			e.mark_pct = 50; // the few writes to the beat: half of them marks
		else
			e.mark_pct = 10;
		e.run(cycles / 16);
	}
	e.drain();
}

} // namespace

uint64_t seed()
{
	const char *s = getenv("TB_SEED");
	return s ? strtoull(s, nullptr, 0) : 1;
}

START_TEST(counter_updates_are_exact_while_another_client_writes_the_beat)
{
	Env<Vsem_arb> e("lock", seed());
	scenario(e, 400000, true);
	TB_CTX("lock: %llu INC, %llu IADD, %llu AMOADD, %llu SC ok / %llu failed, %llu marks, %llu other-half "
	       "writes, %llu other beats; first violation: %s",
	       (unsigned long long)e.n_inc, (unsigned long long)e.n_iadd, (unsigned long long)e.n_amoadd,
	       (unsigned long long)e.n_sc_ok, (unsigned long long)e.n_sc_fail, (unsigned long long)e.n_marks,
	       (unsigned long long)e.n_half, (unsigned long long)e.n_other_beats, e.first_violation.c_str());
	if (getenv("TB_VERBOSE"))
		printf("%s\n", tb_ctx_buf());
	TB_EQ(e.count_violations, 0);
	TB_EQ(e.res_violations, 0);
	// the final count: the last mark plus every increment after it
	TB_EQ(e.counter(), uint32_t(e.base + e.since));
	TB_EQ(e.counter(), e.ref);
	TB_EQ(e.other_half(), e.half);
	TB_TRUE(e.n_amoadd > 2000 && e.n_inc > 1000 && e.n_iadd > 500 && e.n_sc_ok > 100);
	TB_TRUE(e.n_marks > 100 && e.n_half > 2000 && e.n_other_beats > 5000);
}
END_TEST

START_TEST(control_without_the_lock_updates_are_lost_and_scs_pass_over_writes)
{
	Env<Vsem_arb_nolock> e("no lock", seed());
	scenario(e, 400000, true);
	TB_CTX("no lock: %llu lost updates, %llu SCs over a write (without marks: %llu, %llu), first: %s; "
	       "final counter %08x, last mark + increments %08x",
	       (unsigned long long)e.count_violations, (unsigned long long)e.res_violations,
	       (unsigned long long)e.p1_count_violations, (unsigned long long)e.p1_res_violations,
	       e.first_violation.c_str(), e.counter(), uint32_t(e.base + e.since));
	if (getenv("TB_VERBOSE"))
		printf("%s\n", tb_ctx_buf());
	TB_EQ(e.n_locked_cycles > 0, 1); // the unit still asks; the arbiter ignores it
	// disjoint strobes: no lost update without marks, even without the lock
	TB_EQ(e.p1_count_violations, 0);
	TB_TRUE(e.count_violations > 10);
	TB_TRUE(e.res_violations > 0);
}
END_TEST

int main()
{
	return tb_run_suite("sem_arb", {
		counter_updates_are_exact_while_another_client_writes_the_beat,
		control_without_the_lock_updates_are_lost_and_scs_pass_over_writes,
	}, 300);
}
