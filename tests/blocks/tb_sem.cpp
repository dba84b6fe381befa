// SPDX-License-Identifier: MIT
/*
 * ppu_sem on its own (NPORT = 4, NRES = 32: the module defaults): the four
 * request ports, a translation model (fixed VA -> PA mapping with injectable
 * faults), and a memory with latency, back-pressure and injectable read /
 * write-ack errors.  Every operation of SEM_EXECUTE, and the compute units'
 * AMO / LR / SC (port 3), is checked against a reference model: the response
 * (value, acq_fail, fault kind and access), the memory image, the exact
 * memory traffic (translation, beat reads, strobed beat writes), the trace
 * record, the perf pulses and sem_written.  Port contracts (valid/ready
 * hold, one request in the unit at a time, one-cycle response pulse on the
 * requesting port) are checked every cycle.
 *
 * The testbench plays the memory arbiter too: it reports every write the
 * "port" accepts on the snoop input (the unit's own, writes of other clients
 * injected by the tests, and noise to beats no test uses), and answers the
 * RMW lock with lock_clear, which stays 0 for a random while after the lock
 * rises (a write of another client still at the port) and then 1 until the
 * lock drops.  Every cycle: a read or write issued under the lock follows a
 * cycle of lock_clear, and lock_pa is the beat and stable.
 */
#include "Vppu_sem.h"
#include "tb_common.h"

#include <algorithm>
#include <map>
#include <vector>

namespace {

// SEM_EXECUTE words from ppu_hw.h fields.
uint32_t exec_word(unsigned op, bool s64 = false, bool ts = false, unsigned red = 0, bool uns = false)
{
	return PPU_FSET(PPU_SEM_EXECUTE_OPERATION, op) |
	       PPU_FSET(PPU_SEM_EXECUTE_PAYLOAD_SIZE, s64 ? PPU_SEM_EXECUTE_PAYLOAD_SIZE_64BIT
							 : PPU_SEM_EXECUTE_PAYLOAD_SIZE_32BIT) |
	       PPU_FSET(PPU_SEM_EXECUTE_RELEASE_TIMESTAMP, ts) |
	       PPU_FSET(PPU_SEM_EXECUTE_REDUCTION, red) |
	       PPU_FSET(PPU_SEM_EXECUTE_REDUCTION_FORMAT, uns ? PPU_SEM_EXECUTE_REDUCTION_FORMAT_UNSIGNED
							    : PPU_SEM_EXECUTE_REDUCTION_FORMAT_SIGNED);
}

bool acquire_ok(unsigned op, bool s64, uint64_t v, uint64_t p)
{
	if (!s64) {
		v &= 0xffffffffu;
		p &= 0xffffffffu;
	}
	switch (op) {
	case PPU_SEM_EXECUTE_OPERATION_ACQUIRE:
		return v == p;
	case PPU_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ:
		return v >= p;
	case PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ:
		return s64 ? int64_t(v - p) >= 0 : int32_t(uint32_t(v - p)) >= 0;
	case PPU_SEM_EXECUTE_OPERATION_ACQ_AND:
		return (v & p) != 0;
	}
	TB_FAIL("acquire_ok: op %u is no acquire", op);
	return false;
}

uint32_t reduce(unsigned red, bool uns, uint32_t v, uint32_t p)
{
	switch (red) {
	case PPU_SEM_EXECUTE_REDUCTION_IMIN:
		return uns ? (v < p ? v : p) : (int32_t(v) < int32_t(p) ? v : p);
	case PPU_SEM_EXECUTE_REDUCTION_IMAX:
		return uns ? (v > p ? v : p) : (int32_t(v) > int32_t(p) ? v : p);
	case PPU_SEM_EXECUTE_REDUCTION_IXOR:
		return v ^ p;
	case PPU_SEM_EXECUTE_REDUCTION_IAND:
		return v & p;
	case PPU_SEM_EXECUTE_REDUCTION_IOR:
		return v | p;
	case PPU_SEM_EXECUTE_REDUCTION_IADD:
		return v + p;
	case PPU_SEM_EXECUTE_REDUCTION_INC:
		return v + 1;
	case PPU_SEM_EXECUTE_REDUCTION_DEC:
		return v - 1;
	}
	TB_FAIL("reduce: code %u unassigned", red);
	return 0;
}

const uint64_t INTERESTING[] = {
	0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull, 0xffffffff00000000ull,
	0x8000000000000000ull, 0x7fffffffffffffffull, 0xffffffffffffffffull, 0x123456789abcdef0ull,
};
const unsigned NINTERESTING = sizeof(INTERESTING) / sizeof(INTERESTING[0]);

const unsigned NPORT = 4, NRES = 32; // module defaults
const unsigned AMO_PORT = 3;

// SEM_EXECUTE of a compute-unit atomic: OPERATION AMO, sub-op in REDUCTION.
uint32_t amo_word(unsigned sub) { return exec_word(PPU_SEM_EXECUTE_OPERATION_AMO, false, false, sub); }

// RISC-V AMO*.W: the new memory word.
uint32_t amo_new(unsigned sub, uint32_t v, uint32_t p)
{
	switch (sub) {
	case PPU_SEM_AMO_ADD: return v + p;
	case PPU_SEM_AMO_SWAP: return p;
	case PPU_SEM_AMO_XOR: return v ^ p;
	case PPU_SEM_AMO_AND: return v & p;
	case PPU_SEM_AMO_OR: return v | p;
	case PPU_SEM_AMO_MIN: return int32_t(v) < int32_t(p) ? v : p;
	case PPU_SEM_AMO_MAX: return int32_t(v) > int32_t(p) ? v : p;
	case PPU_SEM_AMO_MINU: return v < p ? v : p;
	case PPU_SEM_AMO_MAXU: return v > p ? v : p;
	}
	TB_FAIL("amo_new: sub-operation %u is no read-modify-write", sub);
	return 0;
}

const uint64_t TS_BASE = 0x1234567800000000ull;
uint64_t timestamp_at(uint64_t cyc) { return TS_BASE + cyc * 3; }

struct Req {
	uint32_t va = 0, exec = 0;
	uint64_t payload = 0;
	unsigned chid = 0, root_ppn = 0, root_sys = 0, rid = 0;
};

// A request from port p; each port has its own page-table root.
Req make_req(unsigned p, uint32_t va, uint32_t exec, uint64_t payload, unsigned chid, unsigned rid = 0)
{
	Req r;
	r.va = va;
	r.exec = exec;
	r.payload = payload;
	r.chid = chid;
	r.root_ppn = 0x2a5a5a + p;
	r.root_sys = p & 1;
	r.rid = rid;
	return r;
}

struct Beat {
	uint64_t cyc;
	int sys;
	uint64_t pa;
	uint64_t data;
	unsigned strb;
};

struct Trace {
	uint64_t cyc;
	unsigned kind, chid;
	uint32_t a, b;
};

// Everything the unit did between two clears of the log.
struct Obs {
	std::vector<std::pair<uint64_t, unsigned>> accepts;   // cycle, port
	std::vector<std::pair<uint64_t, unsigned>> responses; // cycle, port
	uint64_t rsp = 0;                                      // last response
	std::vector<std::pair<uint64_t, uint64_t>> xlates;     // cycle, x_req
	std::vector<Beat> reads, writes;
	std::vector<uint64_t> acks, written;
	std::vector<Trace> traces;
	std::vector<uint64_t> perf[5]; // acq_ok, acq_fail, release, reduction, amo
	std::vector<uint64_t> lock_cycles; // cycles with lock_valid
	uint64_t lock_pa = 0;              // lock_pa then (checked stable)
};

enum { PERF_ACQ_OK, PERF_ACQ_FAIL, PERF_RELEASE, PERF_REDUCTION, PERF_AMO, NPERF };

struct Port {
	bool valid = false;
	bool repeat = false; // keep requesting the same op after acceptance
	unsigned pct = 0;    // with repeat = false: chance of a new request when idle
	Req r;
};

// A write of another memory client, accepted by the port: applied to memory
// and reported on the snoop input.
struct Foreign {
	int sys;
	uint64_t pa;
	uint64_t data;
	unsigned strb;
};

class SemEnv {
public:
	Dut<Vppu_sem> d;
	Rng rng{7};
	Mem mem{7};
	unsigned rd_lat = 5, wr_lat = 4, x_lat = 3, ready_pct = 100;
	std::map<uint32_t, unsigned> xfault; // VA page -> fault kind
	Port port[NPORT];
	Obs o;
	unsigned lock_clear_pct = 100; // chance per cycle that a fresh lock clears
	unsigned noise_pct = 15;       // snooped writes to beats no test uses
	std::deque<Foreign> foreign;   // other clients' writes, one per free cycle
	bool foreign_with_lr_read = false; // a write to the beat accepted with the LR's read
	uint64_t snoops = 0;           // writes reported on the snoop input

	SemEnv()
	{
		d->timestamp = 0;
		d->req_valid = 0;
		clear(d->req);
		d->lock_clear = 0;
		d->snoop_valid = 0;
		d->snoop_pa = 0;
		d->x_req_ready = 0;
		d->x_rsp_valid = 0;
		d->x_rsp = 0;
		d->rd_ready = 0;
		d->rd_rsp_valid = 0;
		clear(d->rd_rsp);
		d->wr_ready = 0;
		d->wr_rsp_valid = 0;
		d->wr_rsp_err = 0;
		d.reset();
		TB_CTX("sem");
	}

	// Semaphore memory through the same mapping the translation model uses.
	uint32_t r32(uint32_t va) { return mem.r32(PageMap::sys_of(va), PageMap::pa(va)); }
	uint64_t r64(uint32_t va) { return mem.r64(PageMap::sys_of(va), PageMap::pa(va)); }
	void w32(uint32_t va, uint32_t v) { mem.w32(PageMap::sys_of(va), PageMap::pa(va), v); }
	void w64(uint32_t va, uint64_t v) { mem.w64(PageMap::sys_of(va), PageMap::pa(va), v); }
	// paddr_t value of va's beat
	static uint64_t beat_pa(uint32_t va)
	{
		return (PageMap::pa(va) & ~uint64_t(tp::BEAT - 1)) | uint64_t(PageMap::sys_of(va)) << tp::paddr::sys.lsb;
	}
	// Another client writes va's beat (the unit idle); returns when accepted.
	void foreign_write(uint32_t va, uint64_t data, unsigned strb)
	{
		foreign.push_back(Foreign{PageMap::sys_of(va), PageMap::pa(va) & ~uint64_t(tp::BEAT - 1), data, strb});
		while (!foreign.empty())
			cycle();
	}
	// Same, given the beat as {sys, pa}.
	void foreign_write_pa(int sys, uint64_t pa, uint64_t data, unsigned strb)
	{
		foreign.push_back(Foreign{sys, pa & ~uint64_t(tp::BEAT - 1), data, strb});
		while (!foreign.empty())
			cycle();
	}
	void rd_error(uint32_t va) { mem.rd_err.insert({PageMap::sys_of(va), PageMap::pa(va) & ~7ull}); }
	void wr_error(uint32_t va) { mem.wr_err.insert({PageMap::sys_of(va), PageMap::pa(va) & ~7ull}); }

	void cycle()
	{
		drive();
		d.eval();
		sample();
		d.tick();
	}

	// One op on port p (the other port idle, showing garbage); returns the
	// log from acceptance to 12 cycles after the response.
	Obs op(unsigned p, const Req &r)
	{
		o = Obs();
		port[p].valid = true;
		port[p].repeat = false;
		port[p].r = r;
		for (int w = 0; o.responses.empty(); w++) {
			if (w > 2000)
				TB_FAIL("%s: no response", tb_ctx_buf());
			cycle();
		}
		for (int i = 0; i < 12; i++)
			cycle();
		TB_EQ(o.accepts.size(), 1);
		TB_EQ(o.accepts[0].second, p);
		TB_EQ(o.responses.size(), 1);
		TB_EQ(o.responses[0].second, p);
		TB_TRUE(xq_.empty() && rq_.empty() && wq_.empty());
		return o;
	}

	Obs op(unsigned p, uint32_t va, uint32_t exec, uint64_t payload, unsigned chid = 0x21)
	{
		return op(p, make_req(p, va, exec, payload, chid));
	}

private:
	struct XPend {
		uint32_t va;
	};
	struct RPend {
		int sys;
		uint64_t pa;
	};
	Pipe<XPend> xq_;
	Pipe<RPend> rq_;
	Pipe<bool> wq_;
	HoldCheck<uint64_t> x_hold_, rd_hold_;
	HoldCheck<VlWide<4>> wr_hold_;
	bool busy_ = false;         // an op was accepted and not yet answered
	bool lock_cleared_ = false; // lock_clear seen since the lock rose
	bool lock_prev_ = false;
	uint64_t lock_prev_pa_ = 0;

	void drive()
	{
		d->timestamp = timestamp_at(d.cyc);
		// lock_valid is a registered output: it is already this cycle's.
		if (d->lock_valid)
			d->lock_clear = lock_cleared_ || rng.pct(lock_clear_pct);
		else
			d->lock_clear = rng.below(2); // meaningless without the lock
		unsigned rv = 0;
		for (unsigned p = 0; p < NPORT; p++) {
			Port &pt = port[p];
			if (!pt.valid && pt.pct && rng.pct(pt.pct))
				pt.valid = true;
			Field base = elem(first(tp::sreq::W), tp::sreq::W, p);
			if (!pt.valid) {
				// garbage on an idle port must not matter
				for (unsigned b = 0; b < tp::sreq::W; b += 64)
					set(d->req, Field{base.lsb + b, std::min(64u, tp::sreq::W - b)}, rng.u64());
				continue;
			}
			rv |= 1u << p;
			set(d->req, elem(tp::sreq::rid, tp::sreq::W, p), pt.r.rid);
			set(d->req, elem(tp::sreq::chid, tp::sreq::W, p), pt.r.chid);
			set(d->req, elem(tp::sreq::root_ppn, tp::sreq::W, p), pt.r.root_ppn);
			set(d->req, elem(tp::sreq::root_sys, tp::sreq::W, p), pt.r.root_sys);
			set(d->req, elem(tp::sreq::va, tp::sreq::W, p), pt.r.va);
			set(d->req, elem(tp::sreq::exec, tp::sreq::W, p), pt.r.exec);
			set(d->req, elem(tp::sreq::payload, tp::sreq::W, p), pt.r.payload);
		}
		d->req_valid = rv;
		d->x_req_ready = rng.pct(ready_pct);
		d->rd_ready = rng.pct(ready_pct);
		d->wr_ready = rng.pct(ready_pct);

		d->x_rsp_valid = 0;
		d->x_rsp = rng.u64(); // garbage unless valid
		if (xq_.due(d.cyc)) {
			uint32_t va = xq_.pop().va;
			uint64_t r = 0;
			auto f = xfault.find(va >> tp::PAGE_SHIFT);
			if (f != xfault.end()) {
				set(r, tp::xrsp::fault, 1);
				set(r, tp::xrsp::kind, f->second);
				set(r, tp::xrsp::addr, rng.u64()); // meaningless with a fault
			} else {
				set(r, tp::xrsp::addr, PageMap::pa(va));
				set(r, tp::xrsp::sys, PageMap::sys_of(va));
			}
			d->x_rsp_valid = 1;
			d->x_rsp = r;
		}
		d->rd_rsp_valid = 0;
		randomize(d->rd_rsp, rng.u64());
		if (rq_.due(d.cyc)) {
			RPend r = rq_.pop();
			bool err = mem.rd_error(r.sys, r.pa);
			d->rd_rsp_valid = 1;
			set(d->rd_rsp, tp::rdrsp::data, err ? 0x5555aaaa5555aaaaull : mem.rd_beat(r.sys, r.pa));
			set(d->rd_rsp, tp::rdrsp::err, err);
		}
		d->wr_rsp_valid = 0;
		d->wr_rsp_err = rng.below(2);
		if (wq_.due(d.cyc)) {
			d->wr_rsp_valid = 1;
			d->wr_rsp_err = wq_.pop();
		}
	}

	void sample()
	{
		uint64_t c = d.cyc;
		// request ports
		unsigned ready = d->req_ready;
		TB_EQ(ready & ~unsigned(d->req_valid), 0);
		TB_TRUE((ready & (ready - 1)) == 0);
		if (busy_)
			TB_EQ(ready, 0);
		for (unsigned p = 0; p < NPORT; p++) {
			if (ready >> p & 1) {
				o.accepts.push_back({c, p});
				busy_ = true;
				if (!port[p].repeat)
					port[p].valid = false;
			}
		}
		// MMU client: one translation in flight
		x_hold_.sample("x_req", d->x_req_valid, d->x_req_ready, d->x_req);
		if (d->x_req_valid && d->x_req_ready) {
			TB_TRUE(xq_.empty());
			o.xlates.push_back({c, d->x_req});
			xq_.push(c, x_lat, XPend{uint32_t(get(d->x_req, tp::xreq::va))});
		}
		// RMW lock: a stable beat; reads and writes under it only after a
		// cycle of lock_clear
		bool lv = d->lock_valid;
		if (lv) {
			uint64_t lpa = d->lock_pa;
			TB_EQ(lpa % tp::BEAT, 0);
			if (lock_prev_)
				TB_EQ(lpa, lock_prev_pa_);
			if (o.lock_cycles.empty())
				o.lock_pa = lpa;
			o.lock_cycles.push_back(c);
			if (d->rd_valid) {
				TB_TRUE(lock_cleared_);
				TB_EQ(uint64_t(d->rd_pa), lpa);
			}
			if (d->wr_valid) {
				TB_TRUE(lock_cleared_);
				TB_EQ(get(d->wr_req, tp::wreq::addr) | get(d->wr_req, tp::wreq::sys) << tp::paddr::sys.lsb, lpa);
			}
			lock_prev_pa_ = lpa;
			if (d->lock_clear)
				lock_cleared_ = true;
		} else {
			lock_cleared_ = false;
		}
		lock_prev_ = lv;
		bool rd_fire = d->rd_valid && d->rd_ready;
		// memory read: one beat in flight
		rd_hold_.sample("rd", d->rd_valid, d->rd_ready, d->rd_pa);
		if (d->rd_valid && d->rd_ready) {
			TB_TRUE(rq_.empty());
			int sys = int(get(d->rd_pa, tp::paddr::sys));
			uint64_t pa = get(d->rd_pa, tp::paddr::addr);
			TB_EQ(pa % tp::BEAT, 0);
			o.reads.push_back(Beat{c, sys, pa, 0, 0});
			rq_.push(c, rd_lat, RPend{sys, pa});
		}
		// memory write
		wr_hold_.sample("wr", d->wr_valid, d->wr_ready, d->wr_req);
		if (d->wr_valid && d->wr_ready) {
			int sys = int(get(d->wr_req, tp::wreq::sys));
			uint64_t pa = get(d->wr_req, tp::wreq::addr);
			uint64_t data = get(d->wr_req, tp::wreq::data);
			unsigned strb = unsigned(get(d->wr_req, tp::wreq::strb));
			TB_EQ(pa % tp::BEAT, 0);
			bool err = mem.wr_error(sys, pa);
			if (!err)
				mem.wr_beat(sys, pa, data, strb);
			o.writes.push_back(Beat{c, sys, pa, data, strb});
			wq_.push(c, wr_lat, err);
		}
		// snoop: the write the port accepts this cycle, if any (one per cycle)
		d->snoop_valid = 0;
		d->snoop_pa = rng.u64() & mask64(tp::paddr::W); // garbage unless valid
		if (d->wr_valid && d->wr_ready) {
			d->snoop_valid = 1;
			d->snoop_pa = get(d->wr_req, tp::wreq::addr) | get(d->wr_req, tp::wreq::sys) << tp::paddr::sys.lsb;
		} else if (foreign_with_lr_read && rd_fire) {
			// another client's write to the beat the LR reads, accepted with it
			foreign_with_lr_read = false;
			d->snoop_valid = 1;
			d->snoop_pa = d->rd_pa | rng.below(8);
		} else if (!foreign.empty()) {
			Foreign f = foreign.front();
			foreign.pop_front();
			mem.wr_beat(f.sys, f.pa, f.data, f.strb);
			d->snoop_valid = 1;
			d->snoop_pa = f.pa | uint64_t(f.sys) << tp::paddr::sys.lsb;
		} else if (rng.pct(noise_pct)) {
			// PA bit 33: never a beat the page mapping reaches
			d->snoop_valid = 1;
			d->snoop_pa = 0x200000000ull | (rng.u64() & 0xfffffff8ull) |
				      uint64_t(rng.below(2)) << tp::paddr::sys.lsb;
		}
		snoops += d->snoop_valid;
		if (d->wr_rsp_valid)
			o.acks.push_back(c);
		// completion
		unsigned rsp = d->rsp_valid;
		TB_TRUE((rsp & (rsp - 1)) == 0);
		for (unsigned p = 0; p < NPORT; p++) {
			if (rsp >> p & 1) {
				TB_TRUE(busy_);
				busy_ = false;
				o.responses.push_back({c, p});
				o.rsp = d->rsp;
			}
		}
		if (d->sem_written)
			o.written.push_back(c);
		if (get(d->trace, tp::trace::valid))
			o.traces.push_back(Trace{c, unsigned(get(d->trace, tp::trace::kind)),
						 unsigned(get(d->trace, tp::trace::chid)),
						 uint32_t(get(d->trace, tp::trace::a)),
						 uint32_t(get(d->trace, tp::trace::b))});
		if (d->perf_acq_ok)
			o.perf[PERF_ACQ_OK].push_back(c);
		if (d->perf_acq_fail)
			o.perf[PERF_ACQ_FAIL].push_back(c);
		if (d->perf_release)
			o.perf[PERF_RELEASE].push_back(c);
		if (d->perf_reduction)
			o.perf[PERF_REDUCTION].push_back(c);
		if (d->perf_amo)
			o.perf[PERF_AMO].push_back(c);
	}
};

// ---- expectations shared by the tests ----

void expect_rsp(const Obs &o, bool acq_fail, unsigned kind, unsigned access, uint32_t value)
{
	TB_EQ(get(o.rsp, tp::srsp::fault), kind != PPU_FAULT_KIND_NONE);
	TB_EQ(get(o.rsp, tp::srsp::kind), kind);
	TB_EQ(get(o.rsp, tp::srsp::access), access);
	if (kind == PPU_FAULT_KIND_NONE) {
		TB_EQ(get(o.rsp, tp::srsp::acq_fail), acq_fail);
		TB_EQ(get(o.rsp, tp::srsp::value), value);
	}
}

// One translation of va with the request's root for access acc.
void expect_xlate(const Obs &o, const Req &r, unsigned acc)
{
	TB_EQ(o.xlates.size(), 1);
	uint64_t x = o.xlates[0].second;
	TB_EQ(get(x, tp::xreq::va), r.va);
	TB_EQ(get(x, tp::xreq::root_ppn), r.root_ppn);
	TB_EQ(get(x, tp::xreq::root_sys), r.root_sys);
	TB_EQ(get(x, tp::xreq::access), acc);
}

// Beat address of va through the mapping, and the read of it.
void expect_beat(const Beat &b, uint32_t va)
{
	TB_EQ(b.sys, PageMap::sys_of(va));
	TB_EQ(b.pa, PageMap::pa(va) & ~uint64_t(tp::BEAT - 1));
}

// Successful op: trace, one perf pulse and (for writes) sem_written, all in
// the response cycle.
void expect_done(const Obs &o, const Req &r, unsigned trace_kind, uint32_t b, int perf, bool written)
{
	uint64_t rc = o.responses.at(0).first;
	TB_EQ(o.traces.size(), 1);
	TB_EQ(o.traces[0].cyc, rc);
	TB_EQ(o.traces[0].kind, trace_kind);
	TB_EQ(o.traces[0].chid, r.chid);
	TB_EQ(o.traces[0].a, r.va);
	TB_EQ(o.traces[0].b, b);
	for (int i = 0; i < NPERF; i++) {
		TB_EQ(o.perf[i].size(), i == perf ? 1u : 0u);
		if (i == perf)
			TB_EQ(o.perf[i][0], rc);
	}
	TB_EQ(o.written.size(), written);
	if (written)
		TB_EQ(o.written[0], rc);
}

// Faulted op: no trace, no perf pulse.
void expect_fault(const Obs &o, unsigned kind, unsigned access, bool written)
{
	expect_rsp(o, false, kind, access, 0);
	TB_EQ(o.traces.size(), 0);
	for (int i = 0; i < NPERF; i++)
		TB_EQ(o.perf[i].size(), 0);
	TB_EQ(o.written.size(), written);
	if (written)
		TB_EQ(o.written[0], o.responses.at(0).first);
}

// The RMW lock of a reduction, AMO or SC: up without a gap on va's beat,
// from before the read (if the op reads) until its write is accepted (or
// until it ends without a write).
void expect_lock(const Obs &o, uint32_t va, bool reads)
{
	TB_TRUE(!o.lock_cycles.empty());
	for (std::size_t i = 1; i < o.lock_cycles.size(); i++)
		TB_EQ(o.lock_cycles[i], o.lock_cycles[i - 1] + 1);
	TB_EQ(o.lock_pa, SemEnv::beat_pa(va));
	if (reads) {
		TB_EQ(o.reads.size(), 1);
		TB_TRUE(o.lock_cycles.front() < o.reads[0].cyc);
	}
	if (!o.writes.empty())
		TB_EQ(o.lock_cycles.back(), o.writes.back().cyc);
	else
		TB_TRUE(o.lock_cycles.back() < o.responses.at(0).first);
}

void expect_no_lock(const Obs &o) { TB_EQ(o.lock_cycles.size(), 0); }

// Completed AMO / LR / SC: no trace record, one perf_amo pulse and (for a
// write) sem_written in the response cycle.
void expect_amo_done(const Obs &o, bool written)
{
	uint64_t rc = o.responses.at(0).first;
	TB_EQ(o.traces.size(), 0);
	for (int i = 0; i < NPERF; i++) {
		TB_EQ(o.perf[i].size(), i == PERF_AMO ? 1u : 0u);
		if (i == PERF_AMO)
			TB_EQ(o.perf[i][0], rc);
	}
	TB_EQ(o.written.size(), written);
	if (written)
		TB_EQ(o.written[0], rc);
}

// ---- acquires ----

void check_acquire(SemEnv &e, unsigned op, bool s64, uint64_t v, uint64_t p, uint32_t va, unsigned port,
		   unsigned chid)
{
	TB_CTX("acquire op %u %s va %08x value %016llx payload %016llx port %u", op, s64 ? "64-bit" : "32-bit",
	       va, (unsigned long long)v, (unsigned long long)p, port);
	if (s64)
		e.w64(va, v);
	else
		e.w32(va, uint32_t(v));
	Req r = make_req(port, va, exec_word(op, s64), p, chid);
	Obs o = e.op(port, r);
	bool ok = acquire_ok(op, s64, v, p);
	expect_rsp(o, !ok, PPU_FAULT_KIND_NONE, tp::ACC_READ, uint32_t(v));
	expect_xlate(o, r, tp::ACC_READ);
	TB_EQ(o.reads.size(), 1);
	expect_beat(o.reads[0], va);
	TB_EQ(o.writes.size(), 0);
	expect_no_lock(o);
	expect_done(o, r, ok ? PPU_TRACE_SEM_ACQ_OK : PPU_TRACE_SEM_ACQ_FAIL, uint32_t(v),
		    ok ? PERF_ACQ_OK : PERF_ACQ_FAIL, false);
}

// Interesting values and payloads (equal, one off either way, random), 32
// bits in both halves of a beat and 64 bits, on both ports.
void acquire_sweep(unsigned op)
{
	SemEnv e;
	Rng r(op + 1);
	unsigned n_ok = 0, n_fail = 0;
	for (int s64 = 0; s64 < 2; s64++) {
		for (unsigned k = 0; k < 96; k++) {
			uint32_t va = 0x10000 + 0x40 * (k % 50) + (s64 ? 0 : 4 * (k & 1));
			uint64_t v = k < 48 ? INTERESTING[k % NINTERESTING] : r.u64();
			uint64_t p = k < 48 ? INTERESTING[(k / 4) % NINTERESTING] : r.u64();
			switch (k % 6) {
			case 0: p = v; break;
			case 1: p = v + 1; break;
			case 2: p = v - 1; break;
			case 3: p = v ^ (1ull << r.below(64)); break;
			default: break;
			}
			if (!s64)
				p |= uint64_t(r.u32()) << 32; // upper payload bits are ignored
			check_acquire(e, op, s64, v, p, va, k & 1, 0x30 + k);
			(acquire_ok(op, s64, v, p) ? n_ok : n_fail)++;
		}
	}
	TB_CTX("acquire op %u sweep", op);
	TB_TRUE(n_ok > 20 && n_fail > 20);
}

} // namespace

START_TEST(acquire_succeeds_only_on_equal_value)
{
	acquire_sweep(PPU_SEM_EXECUTE_OPERATION_ACQUIRE);
}
END_TEST

START_TEST(acquire_strict_geq_compares_unsigned)
{
	acquire_sweep(PPU_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ);
}
END_TEST

START_TEST(acquire_circ_geq_compares_the_wrapped_difference)
{
	acquire_sweep(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ);
}
END_TEST

START_TEST(acquire_and_succeeds_on_any_common_bit)
{
	acquire_sweep(PPU_SEM_EXECUTE_OPERATION_ACQ_AND);
}
END_TEST

// ---- releases ----

START_TEST(release_32bit_writes_payload_into_its_half_of_the_beat)
{
	SemEnv e;
	Rng r(11);
	for (unsigned k = 0; k < 64; k++) {
		uint32_t va = 0x20000 + 0x40 * k + 4 * (k & 3);
		uint64_t p = r.u64();
		uint32_t beat_va = va & ~7u;
		uint64_t before = e.r64(beat_va);
		TB_CTX("32-bit release va %08x payload %016llx", va, (unsigned long long)p);
		// RELEASE_WFI is for the host; the unit ignores it
		uint32_t exec = exec_word(PPU_SEM_EXECUTE_OPERATION_RELEASE) | PPU_FSET(PPU_SEM_EXECUTE_RELEASE_WFI, k >> 1);
		Req q = make_req(k & 1, va, exec, p, 0x40 + k);
		Obs o = e.op(k & 1, q);
		expect_rsp(o, false, PPU_FAULT_KIND_NONE, tp::ACC_WRITE, uint32_t(p));
		expect_xlate(o, q, tp::ACC_WRITE);
		TB_EQ(o.reads.size(), 0);
		TB_EQ(o.writes.size(), 1);
		expect_beat(o.writes[0], va);
		bool hi = va & 4;
		TB_EQ(o.writes[0].strb, hi ? 0xf0 : 0x0f);
		uint64_t exp = hi ? (before & 0xffffffffull) | (p << 32) : (before & ~0xffffffffull) | uint32_t(p);
		TB_EQ(e.r64(beat_va), exp);
		expect_no_lock(o);
		TB_EQ(o.acks.size(), 1);
		TB_EQ(o.responses[0].first, o.acks[0] + 1); // the op ends on the ack
		expect_done(o, q, PPU_TRACE_SEM_RELEASE, uint32_t(p), PERF_RELEASE, true);
	}
}
END_TEST

START_TEST(release_64bit_writes_the_whole_beat)
{
	SemEnv e;
	Rng r(12);
	for (unsigned k = 0; k < 64; k++) {
		uint32_t va = 0x21000 + 0x40 * k + 8 * (k & 1);
		uint64_t p = r.u64();
		TB_CTX("64-bit release va %08x payload %016llx", va, (unsigned long long)p);
		Req q = make_req(k & 1, va, exec_word(PPU_SEM_EXECUTE_OPERATION_RELEASE, true), p, 0x40 + k);
		Obs o = e.op(k & 1, q);
		expect_rsp(o, false, PPU_FAULT_KIND_NONE, tp::ACC_WRITE, uint32_t(p));
		expect_xlate(o, q, tp::ACC_WRITE);
		TB_EQ(o.reads.size(), 0);
		TB_EQ(o.writes.size(), 1);
		expect_beat(o.writes[0], va);
		TB_EQ(o.writes[0].strb, 0xff);
		TB_EQ(e.r64(va), p);
		expect_done(o, q, PPU_TRACE_SEM_RELEASE, uint32_t(p), PERF_RELEASE, true);
	}
}
END_TEST

START_TEST(timestamped_release_writes_sem16_with_the_cycle_its_payload_beat_is_accepted)
{
	SemEnv e;
	Rng r(13);
	for (unsigned k = 0; k < 64; k++) {
		bool s64 = k & 1;
		uint32_t va = 0x22000 + PPU_SEM16_BYTES * (3 * k);
		uint64_t p = r.u64();
		e.ready_pct = k < 32 ? 100 : 60;
		e.wr_lat = 1 + k % 7;
		TB_CTX("timestamped %s release va %08x payload %016llx", s64 ? "64-bit" : "32-bit", va,
		       (unsigned long long)p);
		Req q = make_req(k & 1, va,
				 exec_word(PPU_SEM_EXECUTE_OPERATION_RELEASE, s64, true), p, 0x50);
		Obs o = e.op(k & 1, q);
		expect_rsp(o, false, PPU_FAULT_KIND_NONE, tp::ACC_WRITE, uint32_t(p));
		expect_xlate(o, q, tp::ACC_WRITE);
		TB_EQ(o.reads.size(), 0);
		TB_EQ(o.writes.size(), PPU_SEM16_BYTES / tp::BEAT);
		expect_beat(o.writes[0], va);
		expect_beat(o.writes[1], va + tp::BEAT);
		TB_EQ(o.writes[0].strb, 0xff);
		TB_EQ(o.writes[1].strb, 0xff);
		uint64_t ts = timestamp_at(o.writes[0].cyc);
		TB_EQ(e.r32(va + PPU_SEM16_PAYLOAD_LO), uint32_t(p));
		TB_EQ(e.r32(va + PPU_SEM16_PAYLOAD_HI), s64 ? uint32_t(p >> 32) : 0u);
		TB_EQ(e.r32(va + PPU_SEM16_TIMESTAMP_LO), uint32_t(ts));
		TB_EQ(e.r32(va + PPU_SEM16_TIMESTAMP_HI), uint32_t(ts >> 32));
		TB_EQ(o.acks.size(), 2);
		TB_EQ(o.responses[0].first, o.acks[1] + 1); // ends on the last ack
		expect_done(o, q, PPU_TRACE_SEM_RELEASE, uint32_t(p), PERF_RELEASE, true);
	}
}
END_TEST

// ---- reductions ----

namespace {

void reduction_sweep(unsigned red)
{
	SemEnv e;
	Rng r(100 + red);
	for (int uns = 0; uns < 2; uns++) {
		for (unsigned k = 0; k < 48; k++) {
			uint32_t va = 0x30000 + 0x10 * k + 4 * (k & 1);
			uint32_t v = k < 24 ? uint32_t(INTERESTING[k % NINTERESTING]) : r.u32();
			uint32_t p = k < 24 ? uint32_t(INTERESTING[(k * 5 + 3) % NINTERESTING]) : r.u32();
			if (k % 5 == 0)
				p = v;
			e.w32(va, v);
			uint32_t other_va = va ^ 4;
			uint32_t other = e.r32(other_va);
			uint32_t nv = reduce(red, uns, v, p);
			TB_CTX("reduction %u %s va %08x value %08x payload %08x (expect %08x)", red,
			       uns ? "unsigned" : "signed", va, v, p, nv);
			Req q = make_req(k & 1, va,
					 exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false, red, uns),
					 uint64_t(r.u32()) << 32 | p, 0x60 + k);
			Obs o = e.op(k & 1, q);
			expect_rsp(o, false, PPU_FAULT_KIND_NONE, tp::ACC_RMW, nv);
			expect_xlate(o, q, tp::ACC_RMW);
			TB_EQ(o.reads.size(), 1);
			expect_beat(o.reads[0], va);
			TB_EQ(o.writes.size(), 1);
			expect_beat(o.writes[0], va);
			TB_EQ(o.writes[0].strb, (va & 4) ? 0xf0 : 0x0f);
			TB_TRUE(o.writes[0].cyc > o.reads[0].cyc);
			TB_EQ(e.r32(va), nv);
			TB_EQ(e.r32(other_va), other);
			TB_EQ(o.responses[0].first, o.acks.at(0) + 1);
			expect_lock(o, va, true);
			expect_done(o, q, PPU_TRACE_SEM_REDUCTION, nv, PERF_REDUCTION, true);
		}
	}
}

} // namespace

START_TEST(reduction_imin_keeps_the_smaller_signed_or_unsigned)
{
	reduction_sweep(PPU_SEM_EXECUTE_REDUCTION_IMIN);
}
END_TEST

START_TEST(reduction_imax_keeps_the_larger_signed_or_unsigned)
{
	reduction_sweep(PPU_SEM_EXECUTE_REDUCTION_IMAX);
}
END_TEST

START_TEST(reduction_ixor_xors_payload)
{
	reduction_sweep(PPU_SEM_EXECUTE_REDUCTION_IXOR);
}
END_TEST

START_TEST(reduction_iand_ands_payload)
{
	reduction_sweep(PPU_SEM_EXECUTE_REDUCTION_IAND);
}
END_TEST

START_TEST(reduction_ior_ors_payload)
{
	reduction_sweep(PPU_SEM_EXECUTE_REDUCTION_IOR);
}
END_TEST

START_TEST(reduction_iadd_adds_payload_with_wraparound)
{
	reduction_sweep(PPU_SEM_EXECUTE_REDUCTION_IADD);
}
END_TEST

START_TEST(reduction_inc_adds_one_ignoring_payload)
{
	reduction_sweep(PPU_SEM_EXECUTE_REDUCTION_INC);
}
END_TEST

START_TEST(reduction_dec_subtracts_one_ignoring_payload)
{
	reduction_sweep(PPU_SEM_EXECUTE_REDUCTION_DEC);
}
END_TEST

// ---- faults ----

namespace {

// A fault found before translation: nothing reaches the MMU or memory.
void check_early_fault(SemEnv &e, uint32_t va, uint32_t exec, unsigned kind, unsigned access, const char *what,
		       unsigned port = 0)
{
	TB_CTX("%s (va %08x exec %08x port %u)", what, va, exec, port);
	Obs o = e.op(port, make_req(port, va, exec, 0x1111111122222222ull, 0x21, 5));
	expect_fault(o, kind, access, false);
	TB_EQ(o.xlates.size(), 0);
	TB_EQ(o.reads.size() + o.writes.size(), 0);
	expect_no_lock(o);
}

} // namespace

START_TEST(misaligned_semaphores_fault_sem_unaligned_before_translation)
{
	SemEnv e;
	const unsigned K = PPU_FAULT_KIND_SEM_UNALIGNED;
	const unsigned REL = PPU_SEM_EXECUTE_OPERATION_RELEASE, RED = PPU_SEM_EXECUTE_OPERATION_REDUCTION;
	e.lock_clear_pct = 30;
	for (uint32_t off = 1; off < 4; off++)
		check_early_fault(e, 0x40000 + off, exec_word(PPU_SEM_EXECUTE_OPERATION_ACQUIRE), K,
				  tp::ACC_READ, "32-bit acquire not 4-aligned");
	for (uint32_t off = 1; off < 8; off++)
		check_early_fault(e, 0x40000 + off, exec_word(PPU_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ, true), K,
				  tp::ACC_READ, "64-bit acquire not 8-aligned");
	check_early_fault(e, 0x40002, exec_word(REL), K, tp::ACC_WRITE, "32-bit release not 4-aligned");
	check_early_fault(e, 0x40004, exec_word(REL, true), K, tp::ACC_WRITE, "64-bit release not 8-aligned");
	for (uint32_t off = 4; off < PPU_SEM16_BYTES; off += 4) {
		check_early_fault(e, 0x40000 + off, exec_word(REL, false, true), K, tp::ACC_WRITE,
				  "32-bit timestamped release not 16-aligned");
		check_early_fault(e, 0x40000 + off, exec_word(REL, true, true), K, tp::ACC_WRITE,
				  "64-bit timestamped release not 16-aligned");
	}
	check_early_fault(e, 0x40001, exec_word(RED, false, false, PPU_SEM_EXECUTE_REDUCTION_IADD), K,
			  tp::ACC_RMW, "reduction not 4-aligned");
}
END_TEST

START_TEST(undefined_operations_fault_illegal_method_before_translation)
{
	SemEnv e;
	const unsigned K = PPU_FAULT_KIND_ILLEGAL_METHOD;
	const unsigned RED = PPU_SEM_EXECUTE_OPERATION_REDUCTION;
	for (unsigned op = 0; op <= PPU_FMAX(PPU_SEM_EXECUTE_OPERATION); op++) {
		if (op == PPU_SEM_EXECUTE_OPERATION_ACQUIRE || op == PPU_SEM_EXECUTE_OPERATION_RELEASE ||
		    op == PPU_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ ||
		    op == PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ || op == PPU_SEM_EXECUTE_OPERATION_ACQ_AND ||
		    op == RED)
			continue;
		check_early_fault(e, 0x40000, exec_word(op), K, tp::ACC_READ, "unassigned OPERATION");
	}
	check_early_fault(e, 0x40000, exec_word(RED, true, false, PPU_SEM_EXECUTE_REDUCTION_IADD), K, tp::ACC_RMW,
			  "64-bit reduction");
	for (unsigned red = PPU_SEM_EXECUTE_REDUCTION_DEC + 1; red <= PPU_FMAX(PPU_SEM_EXECUTE_REDUCTION); red++)
		check_early_fault(e, 0x40000, exec_word(RED, false, false, red), K, tp::ACC_RMW,
				  "unassigned REDUCTION");
}
END_TEST

START_TEST(translation_fault_kind_is_reported_without_memory_access)
{
	SemEnv e;
	const unsigned kinds[] = {PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_KIND_PERMISSION,
				  PPU_FAULT_KIND_BUS_ERROR};
	struct {
		uint32_t exec;
		unsigned access;
		const char *what;
	} ops[] = {
		{exec_word(PPU_SEM_EXECUTE_OPERATION_ACQ_AND), tp::ACC_READ, "acquire"},
		{exec_word(PPU_SEM_EXECUTE_OPERATION_RELEASE, true), tp::ACC_WRITE, "64-bit release"},
		{exec_word(PPU_SEM_EXECUTE_OPERATION_RELEASE, false, true), tp::ACC_WRITE, "timestamped release"},
		{exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false, PPU_SEM_EXECUTE_REDUCTION_INC),
		 tp::ACC_RMW, "reduction"},
	};
	for (unsigned kind : kinds) {
		e.xfault[0x41000 >> tp::PAGE_SHIFT] = kind;
		for (const auto &op : ops) {
			TB_CTX("%s, translation fault kind %u", op.what, kind);
			Req q = make_req(1, 0x41010, op.exec, 0x77, 0x12);
			Obs o = e.op(1, q);
			expect_fault(o, kind, op.access, false);
			expect_xlate(o, q, op.access);
			TB_EQ(o.reads.size() + o.writes.size(), 0);
		}
	}
}
END_TEST

START_TEST(read_error_faults_bus_error_and_writes_nothing)
{
	SemEnv e;
	e.rd_error(0x42000);
	TB_CTX("acquire of an erroring beat");
	Obs o = e.op(0, 0x42004, exec_word(PPU_SEM_EXECUTE_OPERATION_ACQ_AND), 1);
	expect_fault(o, PPU_FAULT_KIND_BUS_ERROR, tp::ACC_READ, false);
	TB_EQ(o.reads.size(), 1);
	TB_EQ(o.writes.size(), 0);
	TB_CTX("reduction of an erroring beat");
	o = e.op(1, 0x42000, exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false,
				      PPU_SEM_EXECUTE_REDUCTION_IOR), 1);
	expect_fault(o, PPU_FAULT_KIND_BUS_ERROR, tp::ACC_RMW, false);
	TB_EQ(o.reads.size(), 1);
	TB_EQ(o.writes.size(), 0);
}
END_TEST

START_TEST(write_ack_error_faults_bus_error_and_still_pulses_sem_written)
{
	SemEnv e;
	e.wr_error(0x43008);
	TB_CTX("timestamped release, second SEM16 beat acked with error");
	Obs o = e.op(0, 0x43000, exec_word(PPU_SEM_EXECUTE_OPERATION_RELEASE, true, true), 5);
	expect_fault(o, PPU_FAULT_KIND_BUS_ERROR, tp::ACC_WRITE, true);
	TB_EQ(o.writes.size(), 2);
	TB_EQ(o.acks.size(), 2);
	TB_EQ(o.responses[0].first, o.acks[1] + 1);
	TB_CTX("reduction, write acked with error");
	o = e.op(1, 0x4300c, exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false,
				      PPU_SEM_EXECUTE_REDUCTION_DEC), 5);
	expect_fault(o, PPU_FAULT_KIND_BUS_ERROR, tp::ACC_RMW, true);
	TB_EQ(o.reads.size(), 1);
	TB_EQ(o.writes.size(), 1);
	TB_CTX("32-bit release, write acked with error");
	o = e.op(0, 0x43008, exec_word(PPU_SEM_EXECUTE_OPERATION_RELEASE), 5);
	expect_fault(o, PPU_FAULT_KIND_BUS_ERROR, tp::ACC_WRITE, true);
}
END_TEST

// ---- arbitration, atomicity, stress ----

START_TEST(both_ports_requesting_are_served_alternately_starting_with_port_0)
{
	SemEnv e;
	const uint32_t va[2] = {0x60000, 0x60004};
	e.w32(va[0], 0);
	e.w32(va[1], 0);
	for (unsigned p = 0; p < 2; p++) {
		e.port[p].valid = true;
		e.port[p].repeat = true;
		e.port[p].r = make_req(p, va[p],
				       exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false,
						 PPU_SEM_EXECUTE_REDUCTION_INC),
				       0, p);
	}
	for (int i = 0; i < 600; i++)
		e.cycle();
	e.port[0].valid = e.port[1].valid = false;
	for (int i = 0; i < 50; i++)
		e.cycle();
	TB_CTX("both ports always requesting");
	TB_TRUE(e.o.accepts.size() >= 20);
	TB_EQ(e.o.responses.size(), e.o.accepts.size());
	unsigned n[2] = {0, 0};
	for (std::size_t i = 0; i < e.o.accepts.size(); i++) {
		TB_CTX("grant %zu", i);
		TB_EQ(e.o.accepts[i].second, i % 2);
		TB_EQ(e.o.responses[i].second, i % 2);
		TB_TRUE(e.o.responses[i].first > e.o.accepts[i].first);
		if (i + 1 < e.o.accepts.size())
			TB_TRUE(e.o.accepts[i + 1].first > e.o.responses[i].first);
		n[i % 2]++;
	}
	TB_CTX("both ports always requesting");
	TB_EQ(e.r32(va[0]), n[0]);
	TB_EQ(e.r32(va[1]), n[1]);
}
END_TEST

START_TEST(increments_from_both_ports_on_one_semaphore_are_atomic)
{
	SemEnv e;
	const uint32_t va = 0x61008;
	e.w32(va, 1000);
	e.ready_pct = 50;
	for (unsigned p = 0; p < 2; p++) {
		e.port[p].valid = true;
		e.port[p].repeat = true;
		e.port[p].r = make_req(p, va,
				       exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false,
						 PPU_SEM_EXECUTE_REDUCTION_INC),
				       0, p);
	}
	for (int i = 0; i < 6000; i++) {
		if (i % 500 == 0) {
			e.rd_lat = 1 + e.rng.below(20);
			e.wr_lat = 1 + e.rng.below(20);
			e.x_lat = 1 + e.rng.below(10);
		}
		e.cycle();
	}
	e.port[0].valid = e.port[1].valid = false;
	for (int i = 0; i < 200; i++)
		e.cycle();
	TB_CTX("INC from both ports, random latencies and back-pressure");
	TB_TRUE(e.o.responses.size() > 50);
	TB_EQ(e.o.responses.size(), e.o.accepts.size());
	TB_EQ(e.r32(va), 1000 + e.o.responses.size());
	// each op's read comes after its acceptance and its write before its response
	TB_EQ(e.o.reads.size(), e.o.accepts.size());
	TB_EQ(e.o.writes.size(), e.o.accepts.size());
	for (std::size_t i = 0; i < e.o.accepts.size(); i++) {
		TB_TRUE(e.o.reads[i].cyc > e.o.accepts[i].first);
		TB_TRUE(e.o.acks[i] < e.o.responses[i].first);
	}
}
END_TEST

START_TEST(random_ops_under_backpressure_match_the_reference)
{
	SemEnv e;
	Rng r(99);
	e.ready_pct = 50;
	for (unsigned k = 0; k < 400; k++) {
		e.rd_lat = 1 + r.below(30);
		e.wr_lat = 1 + r.below(30);
		e.x_lat = 1 + r.below(20);
		uint32_t va = 0x50000 + PPU_SEM16_BYTES * r.below(1000);
		uint32_t v = r.u32();
		e.w32(va, v);
		unsigned red = r.below(PPU_SEM_EXECUTE_REDUCTION_DEC + 1);
		bool uns = r.below(2);
		uint32_t p = r.u32();
		TB_CTX("random op %u: reduction %u on %08x", k, red, va);
		Obs o = e.op(r.below(2), va,
			     exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false, red, uns), p);
		expect_rsp(o, false, PPU_FAULT_KIND_NONE, tp::ACC_RMW, reduce(red, uns, v, p));
		TB_EQ(e.r32(va), reduce(red, uns, v, p));
		uint64_t q = r.u64();
		TB_CTX("random op %u: timestamped release on %08x", k, va);
		o = e.op(r.below(2), va, exec_word(PPU_SEM_EXECUTE_OPERATION_RELEASE, true, true), q);
		expect_rsp(o, false, PPU_FAULT_KIND_NONE, tp::ACC_WRITE, uint32_t(q));
		TB_EQ(e.r64(va), q);
		TB_EQ(e.r64(va + PPU_SEM16_TIMESTAMP_LO), timestamp_at(o.writes.at(0).cyc));
		unsigned op = PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ;
		uint64_t ap = q + (r.below(2) ? 1 : 0);
		TB_CTX("random op %u: 64-bit acquire on %08x", k, va);
		o = e.op(r.below(2), va, exec_word(op, true), ap);
		expect_rsp(o, !acquire_ok(op, true, q, ap), PPU_FAULT_KIND_NONE, tp::ACC_READ, uint32_t(q));
	}
}
END_TEST

// ---- compute-unit atomics (port 3) ----

namespace {

const uint32_t AMO_CORNERS[] = {0, 1, 2, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff,
				0x00010000, 0x55555555, 0xaaaaaaaa};
const unsigned NAMO_CORNERS = sizeof(AMO_CORNERS) / sizeof(AMO_CORNERS[0]);

// One AMO*.W on port 3: old word returned, new word in its half, the other
// half untouched, one RMW translation, one read and one strobed write under
// the lock, no trace, perf_amo and sem_written.
void check_amo(SemEnv &e, unsigned sub, uint32_t va, uint32_t v, uint32_t p, unsigned rid)
{
	e.w32(va, v);
	uint32_t other = e.r32(va ^ 4);
	uint32_t nv = amo_new(sub, v, p);
	TB_CTX("AMO %u va %08x old %08x operand %08x (expect %08x) rid %u", sub, va, v, p, nv, rid);
	Req q = make_req(AMO_PORT, va, amo_word(sub), uint64_t(e.rng.u32()) << 32 | p, 0x70, rid);
	Obs o = e.op(AMO_PORT, q);
	expect_rsp(o, false, PPU_FAULT_KIND_NONE, tp::ACC_RMW, v);
	expect_xlate(o, q, tp::ACC_RMW);
	TB_EQ(o.reads.size(), 1);
	expect_beat(o.reads[0], va);
	TB_EQ(o.writes.size(), 1);
	expect_beat(o.writes[0], va);
	TB_EQ(o.writes[0].strb, (va & 4) ? 0xf0 : 0x0f);
	TB_TRUE(o.writes[0].cyc > o.reads[0].cyc);
	TB_EQ(e.r32(va), nv);
	TB_EQ(e.r32(va ^ 4), other);
	TB_EQ(o.responses[0].first, o.acks.at(0) + 1);
	expect_lock(o, va, true);
	expect_amo_done(o, true);
}

void amo_sweep(unsigned sub)
{
	SemEnv e;
	Rng r(200 + sub);
	const unsigned NC2 = NAMO_CORNERS * NAMO_CORNERS;
	for (unsigned k = 0; k < NC2 + 96; k++) {
		// both halves of the beat (the 0x18 stride alternates them too)
		uint32_t va = 0x70000 + 0x18 * (k % 97) + 4 * ((k / 97) & 1);
		uint32_t v, p;
		if (k < NC2) {
			// every pair of corner values
			v = AMO_CORNERS[k / NAMO_CORNERS];
			p = AMO_CORNERS[k % NAMO_CORNERS];
		} else {
			v = r.u32();
			p = k % 5 == 0 ? v : k % 7 == 0 ? ~v : r.u32();
			if (k % 3 == 0)
				p ^= 0x80000000; // opposite signs
		}
		e.lock_clear_pct = k % 4 == 0 ? 100 : 25;
		e.ready_pct = k % 3 == 0 ? 60 : 100;
		check_amo(e, sub, va, v, p, k % 40);
	}
}

// LR on port 3: the word, no write, no lock, perf_amo, no sem_written.
uint32_t do_lr(SemEnv &e, uint32_t va, unsigned rid)
{
	TB_CTX("LR va %08x rid %u", va, rid);
	Req q = make_req(AMO_PORT, va, amo_word(PPU_SEM_AMO_LR), e.rng.u64(), 0x71, rid);
	uint32_t v = e.r32(va);
	Obs o = e.op(AMO_PORT, q);
	expect_rsp(o, false, PPU_FAULT_KIND_NONE, tp::ACC_READ, v);
	expect_xlate(o, q, tp::ACC_READ);
	TB_EQ(o.reads.size(), 1);
	expect_beat(o.reads[0], va);
	TB_EQ(o.writes.size(), 0);
	expect_no_lock(o);
	expect_amo_done(o, false);
	return v;
}

// SC on port 3; checks the outcome against `expect_ok`.
void do_sc(SemEnv &e, uint32_t va, unsigned rid, uint32_t val, bool expect_ok, const char *why)
{
	TB_CTX("SC va %08x rid %u value %08x: %s", va, rid, val, why);
	uint32_t before = e.r32(va), other = e.r32(va ^ 4);
	Req q = make_req(AMO_PORT, va, amo_word(PPU_SEM_AMO_SC), uint64_t(e.rng.u32()) << 32 | val, 0x72, rid);
	Obs o = e.op(AMO_PORT, q);
	expect_rsp(o, false, PPU_FAULT_KIND_NONE, tp::ACC_WRITE, expect_ok ? 0 : 1);
	expect_xlate(o, q, tp::ACC_WRITE);
	TB_EQ(o.reads.size(), 0);
	TB_EQ(o.writes.size(), expect_ok);
	if (expect_ok) {
		expect_beat(o.writes[0], va);
		TB_EQ(o.writes[0].strb, (va & 4) ? 0xf0 : 0x0f);
		TB_EQ(e.r32(va), val);
		TB_EQ(o.responses[0].first, o.acks.at(0) + 1);
	} else {
		TB_EQ(e.r32(va), before);
	}
	TB_EQ(e.r32(va ^ 4), other);
	expect_lock(o, va, false);
	expect_amo_done(o, expect_ok);
}

} // namespace

START_TEST(amo_add_returns_the_old_word_and_adds_with_wraparound)
{
	amo_sweep(PPU_SEM_AMO_ADD);
}
END_TEST

START_TEST(amo_swap_returns_the_old_word_and_stores_the_operand)
{
	amo_sweep(PPU_SEM_AMO_SWAP);
}
END_TEST

START_TEST(amo_xor_and_or_combine_bitwise)
{
	amo_sweep(PPU_SEM_AMO_XOR);
	amo_sweep(PPU_SEM_AMO_AND);
	amo_sweep(PPU_SEM_AMO_OR);
}
END_TEST

START_TEST(amo_min_max_compare_signed)
{
	amo_sweep(PPU_SEM_AMO_MIN);
	amo_sweep(PPU_SEM_AMO_MAX);
}
END_TEST

START_TEST(amo_minu_maxu_compare_unsigned)
{
	amo_sweep(PPU_SEM_AMO_MINU);
	amo_sweep(PPU_SEM_AMO_MAXU);
}
END_TEST

START_TEST(amo_from_ports_0_to_2_is_an_illegal_method)
{
	SemEnv e;
	const unsigned subs[] = {PPU_SEM_AMO_ADD, PPU_SEM_AMO_SWAP, PPU_SEM_AMO_MAXU, PPU_SEM_AMO_LR, PPU_SEM_AMO_SC};
	for (unsigned port = 0; port < AMO_PORT; port++)
		for (unsigned sub : subs)
			check_early_fault(e, 0x71000 + 8 * sub, amo_word(sub), PPU_FAULT_KIND_ILLEGAL_METHOD,
					  tp::ACC_READ, "AMO from a port other than 3", port);
	// and nothing was reserved or written: an LR-less SC from port 3 fails
	e.w32(0x71000 + 8 * PPU_SEM_AMO_SC, 0x1234);
	do_sc(e, 0x71000 + 8 * PPU_SEM_AMO_LR, 5, 77, false, "after LRs refused on ports 0..2");
}
END_TEST

START_TEST(amo_64bit_or_unassigned_sub_operation_is_an_illegal_method)
{
	SemEnv e;
	const unsigned K = PPU_FAULT_KIND_ILLEGAL_METHOD;
	check_early_fault(e, 0x72000, amo_word(PPU_SEM_AMO_ADD) | PPU_FSET(PPU_SEM_EXECUTE_PAYLOAD_SIZE, 1), K,
			  tp::ACC_RMW, "64-bit AMO", AMO_PORT);
	check_early_fault(e, 0x72000, amo_word(PPU_SEM_AMO_LR) | PPU_FSET(PPU_SEM_EXECUTE_PAYLOAD_SIZE, 1), K,
			  tp::ACC_READ, "64-bit LR", AMO_PORT);
	check_early_fault(e, 0x72000, amo_word(PPU_SEM_AMO_SC) | PPU_FSET(PPU_SEM_EXECUTE_PAYLOAD_SIZE, 1), K,
			  tp::ACC_WRITE, "64-bit SC", AMO_PORT);
	for (unsigned sub = PPU_SEM_AMO_SC + 1; sub <= PPU_FMAX(PPU_SEM_EXECUTE_REDUCTION); sub++)
		check_early_fault(e, 0x72000, amo_word(sub), K, tp::ACC_RMW, "unassigned AMO sub-operation", AMO_PORT);
}
END_TEST

START_TEST(misaligned_amo_lr_sc_fault_sem_unaligned_before_translation)
{
	SemEnv e;
	const unsigned K = PPU_FAULT_KIND_SEM_UNALIGNED;
	for (uint32_t off = 1; off < 4; off++) {
		for (unsigned sub = PPU_SEM_AMO_ADD; sub <= PPU_SEM_AMO_MAXU; sub++)
			check_early_fault(e, 0x73000 + 4 * (sub & 1) + off, amo_word(sub), K, tp::ACC_RMW,
					  "AMO not 4-aligned", AMO_PORT);
		check_early_fault(e, 0x73000 + off, amo_word(PPU_SEM_AMO_LR), K, tp::ACC_READ, "LR not 4-aligned",
				  AMO_PORT);
		check_early_fault(e, 0x73000 + off, amo_word(PPU_SEM_AMO_SC), K, tp::ACC_WRITE, "SC not 4-aligned",
				  AMO_PORT);
	}
}
END_TEST

START_TEST(amo_translation_and_bus_faults_report_their_access)
{
	SemEnv e;
	e.xfault[0x74000 >> tp::PAGE_SHIFT] = PPU_FAULT_KIND_PERMISSION;
	struct {
		unsigned sub, access;
	} ops[] = {{PPU_SEM_AMO_ADD, tp::ACC_RMW}, {PPU_SEM_AMO_LR, tp::ACC_READ}, {PPU_SEM_AMO_SC, tp::ACC_WRITE}};
	for (const auto &op : ops) {
		TB_CTX("AMO %u, translation fault", op.sub);
		Req q = make_req(AMO_PORT, 0x74010, amo_word(op.sub), 1, 0x12, 3);
		Obs o = e.op(AMO_PORT, q);
		expect_fault(o, PPU_FAULT_KIND_PERMISSION, op.access, false);
		expect_xlate(o, q, op.access);
		TB_EQ(o.reads.size() + o.writes.size(), 0);
		expect_no_lock(o);
	}
	e.rd_error(0x75008);
	TB_CTX("AMO of an erroring beat");
	Obs o = e.op(AMO_PORT, make_req(AMO_PORT, 0x7500c, amo_word(PPU_SEM_AMO_OR), 1, 0x12, 3));
	expect_fault(o, PPU_FAULT_KIND_BUS_ERROR, tp::ACC_RMW, false);
	TB_EQ(o.reads.size(), 1);
	TB_EQ(o.writes.size(), 0);
	expect_lock(o, 0x7500c, true); // dropped when the read fails
	TB_CTX("LR of an erroring beat reserves nothing useful");
	o = e.op(AMO_PORT, make_req(AMO_PORT, 0x75008, amo_word(PPU_SEM_AMO_LR), 1, 0x12, 3));
	expect_fault(o, PPU_FAULT_KIND_BUS_ERROR, tp::ACC_READ, false);
	e.wr_error(0x76000);
	TB_CTX("AMO whose write is acked with an error");
	o = e.op(AMO_PORT, make_req(AMO_PORT, 0x76004, amo_word(PPU_SEM_AMO_SWAP), 1, 0x12, 3));
	expect_fault(o, PPU_FAULT_KIND_BUS_ERROR, tp::ACC_RMW, true);
	expect_lock(o, 0x76004, true);
}
END_TEST

START_TEST(lr_then_sc_stores_and_returns_0_once)
{
	SemEnv e;
	Rng r(300);
	for (unsigned k = 0; k < 64; k++) {
		uint32_t va = 0x77000 + 0x28 * k + 4 * (k & 1);
		unsigned rid = (k * 7) % NRES;
		e.w32(va, r.u32());
		e.lock_clear_pct = k % 2 ? 20 : 100;
		e.ready_pct = k % 3 ? 100 : 50;
		uint32_t v = do_lr(e, va, rid);
		// unrelated traffic in between: other rids, other beats
		if (k % 4 == 1) {
			check_amo(e, PPU_SEM_AMO_ADD, va + 0x1000, r.u32(), r.u32(), rid);
			do_lr(e, va + 8, (rid + 1) % NRES);
		}
		do_sc(e, va, rid, v + 1, true, "right after its LR");
		do_sc(e, va, rid, v + 2, false, "second SC: the first one used the reservation");
	}
}
END_TEST

START_TEST(sc_without_lr_fails_and_writes_nothing)
{
	SemEnv e;
	for (unsigned rid = 0; rid < NRES; rid++)
		do_sc(e, 0x78000 + 12 * rid, rid, 0xdead0000 + rid, false, "no LR since reset");
	// a failed SC also clears: LR, failed SC elsewhere, SC here fails
	e.w32(0x78400, 5);
	do_lr(e, 0x78400, 9);
	do_sc(e, 0x78408, 9, 1, false, "SC to another beat than the LR's");
	do_sc(e, 0x78400, 9, 1, false, "after the failed SC cleared the reservation");
}
END_TEST

START_TEST(sc_fails_after_another_rids_sc_or_amo_on_the_beat)
{
	SemEnv e;
	const uint32_t va = 0x79000;
	for (int half = 0; half < 2; half++) {
		uint32_t a = va + 4 * half, b = va + 4 * !half;
		// B's successful SC to the other half of the beat clears A's
		do_lr(e, a, 3);
		do_lr(e, b, 4);
		do_sc(e, b, 4, 0x44, true, "rid 4 first");
		do_sc(e, a, 3, 0x33, false, "rid 3 after rid 4's SC to the same beat");
		// same word
		do_lr(e, a, 3);
		do_lr(e, a, 4);
		do_sc(e, a, 4, 0x45, true, "rid 4 first, same word");
		do_sc(e, a, 3, 0x34, false, "rid 3 after rid 4's SC to the same word");
		// an AMO of any rid clears it
		do_lr(e, a, 3);
		check_amo(e, PPU_SEM_AMO_ADD, b, 1, 1, 6);
		do_sc(e, a, 3, 0x35, false, "after an AMO to the beat");
		// and so do a reduction and a release from the host port
		do_lr(e, a, 3);
		e.op(0, b, exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false, PPU_SEM_EXECUTE_REDUCTION_INC), 0);
		do_sc(e, a, 3, 0x36, false, "after a reduction to the beat");
		do_lr(e, a, 3);
		e.op(1, a, exec_word(PPU_SEM_EXECUTE_OPERATION_RELEASE), 0x99);
		do_sc(e, a, 3, 0x37, false, "after a release to the word");
		// an acquire (a read) does not
		do_lr(e, a, 3);
		e.op(0, a, exec_word(PPU_SEM_EXECUTE_OPERATION_ACQUIRE), 0);
		do_sc(e, a, 3, 0x38, true, "after an acquire of the word");
	}
}
END_TEST

START_TEST(snooped_writes_to_the_beat_clear_the_reservation_others_do_not)
{
	SemEnv e;
	const uint32_t va = 0x7a008, vb = va + 4; // vb: the other half of va's beat
	int sys = PageMap::sys_of(va);
	uint64_t pa = PageMap::pa(va);
	// a write to the word itself, then to the other half only (its strobes)
	do_lr(e, va, 8);
	e.foreign_write(va, 0x1111111122222222ull, 0x0f);
	do_sc(e, va, 8, 1, false, "after another client wrote the word");
	do_lr(e, va, 8);
	e.foreign_write(vb, 0x3333333344444444ull, 0xf0);
	do_sc(e, va, 8, 2, false, "after another client wrote the other half of the beat");
	do_lr(e, vb, 8);
	e.foreign_write(va, 0x5555555566666666ull, 0x01);
	do_sc(e, vb, 8, 3, false, "upper half, after a one-byte write to the lower half");
	// writes elsewhere do not: the next beat, the previous one, the same
	// address in the other aperture, a far beat
	do_lr(e, va, 8);
	e.foreign_write(va + 8, ~0ull, 0xff);
	e.foreign_write(va - 8, ~0ull, 0xff);
	e.foreign_write_pa(!sys, pa, ~0ull, 0xff);
	e.foreign_write_pa(sys, pa ^ 0x100000, ~0ull, 0xff);
	for (int i = 0; i < 200; i++)
		e.cycle(); // noise snoops
	do_sc(e, va, 8, 4, true, "after writes to other beats only");
	TB_CTX("snoops");
	TB_TRUE(e.snoops > 20);
}
END_TEST

START_TEST(write_accepted_with_the_lr_read_leaves_no_reservation)
{
	SemEnv e;
	const uint32_t va = 0x7b004;
	for (int k = 0; k < 8; k++) {
		e.rd_lat = 1 + k;
		e.ready_pct = k % 2 ? 40 : 100;
		e.foreign_with_lr_read = true;
		do_lr(e, va, 11);
		TB_TRUE(!e.foreign_with_lr_read);
		do_sc(e, va, 11, k, false, "a write was accepted in the LR read's cycle");
		do_lr(e, va, 11);
		do_sc(e, va, 11, k, true, "control: the same without the write");
	}
}
END_TEST

START_TEST(reservations_of_different_rids_are_independent)
{
	SemEnv e;
	Rng r(301);
	// every rid reserves its own beat; SCs in a shuffled order all succeed
	std::vector<unsigned> rids;
	for (unsigned rid = 0; rid < NRES; rid++) {
		do_lr(e, 0x7c000 + 0x40 * rid + 4 * (rid & 1), rid);
		rids.push_back(rid);
	}
	for (unsigned i = NRES - 1; i > 0; i--)
		std::swap(rids[i], rids[r.below(i + 1)]);
	for (unsigned rid : rids)
		do_sc(e, 0x7c000 + 0x40 * rid + 4 * (rid & 1), rid, rid, true, "own beat, shuffled order");
	// a later LR moves the reservation: SC to the first beat fails
	do_lr(e, 0x7d000, 2);
	do_lr(e, 0x7d100, 2);
	do_sc(e, 0x7d000, 2, 1, false, "LR elsewhere replaced the reservation");
	do_lr(e, 0x7d000, 2);
	do_lr(e, 0x7d100, 2);
	do_sc(e, 0x7d100, 2, 1, true, "the newer reservation");
	// rid 5's SC is not satisfied by rid 6's LR of the beat
	do_lr(e, 0x7d200, 6);
	do_sc(e, 0x7d200, 5, 1, false, "another rid's reservation");
	do_sc(e, 0x7d200, 6, 2, true, "rid 6's reservation survives rid 5's failed SC");
}
END_TEST

START_TEST(rids_past_nres_never_reserve)
{
	SemEnv e;
	const unsigned rids[] = {NRES, NRES + 1, 2 * NRES, 0x80, 0xff};
	for (unsigned rid : rids) {
		do_lr(e, 0x7e000, rid);
		do_sc(e, 0x7e000, rid, 1, false, "rid >= NRES");
		// and its index bits do not alias a real reservation
		do_lr(e, 0x7e000, rid % NRES);
		do_sc(e, 0x7e000, rid, 1, false, "rid >= NRES, aliasing rid holds a reservation");
		do_sc(e, 0x7e000, rid % NRES, 2, true, "the aliasing rid keeps it");
	}
}
END_TEST

START_TEST(four_ports_requesting_are_served_in_rotation)
{
	SemEnv e;
	const uint32_t base = 0x7f000;
	for (unsigned p = 0; p < NPORT; p++) {
		e.w32(base + 8 * p, 0);
		e.port[p].valid = true;
		e.port[p].repeat = true;
		uint32_t exec = p == AMO_PORT ? amo_word(PPU_SEM_AMO_ADD)
					      : exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false,
							  PPU_SEM_EXECUTE_REDUCTION_INC);
		e.port[p].r = make_req(p, base + 8 * p, exec, 1, p, 1);
	}
	e.ready_pct = 70;
	for (int i = 0; i < 3000; i++)
		e.cycle();
	for (unsigned p = 0; p < NPORT; p++)
		e.port[p].valid = false;
	for (int i = 0; i < 100; i++)
		e.cycle();
	TB_CTX("four ports always requesting");
	TB_TRUE(e.o.accepts.size() >= 40);
	TB_EQ(e.o.responses.size(), e.o.accepts.size());
	unsigned n[NPORT] = {};
	for (std::size_t i = 0; i < e.o.accepts.size(); i++) {
		TB_CTX("grant %zu", i);
		TB_EQ(e.o.accepts[i].second, i % NPORT);
		TB_EQ(e.o.responses[i].second, i % NPORT);
		n[i % NPORT]++;
	}
	for (unsigned p = 0; p < NPORT; p++) {
		TB_CTX("port %u", p);
		TB_EQ(e.r32(base + 8 * p), n[p]);
	}
}
END_TEST

START_TEST(a_waiting_port_is_passed_over_at_most_three_times)
{
	SemEnv e;
	Rng r(302);
	const uint32_t va = 0x7f800;
	e.w32(va, 0);
	for (unsigned p = 0; p < NPORT; p++) {
		uint32_t exec = p == AMO_PORT ? amo_word(PPU_SEM_AMO_ADD)
					      : exec_word(PPU_SEM_EXECUTE_OPERATION_REDUCTION, false, false,
							  PPU_SEM_EXECUTE_REDUCTION_INC);
		e.port[p].r = make_req(p, va, exec, 1, p, 2);
	}
	unsigned waited[NPORT] = {}, max_waited = 0;
	uint64_t served[NPORT] = {};
	for (int phase = 0; phase < 40; phase++) {
		for (unsigned p = 0; p < NPORT; p++)
			e.port[p].pct = r.below(101);
		e.ready_pct = 40 + r.below(61);
		e.lock_clear_pct = 10 + r.below(91);
		std::size_t seen = e.o.accepts.size();
		for (int i = 0; i < 1000; i++) {
			e.cycle();
			for (; seen < e.o.accepts.size(); seen++) {
				unsigned g = e.o.accepts[seen].second;
				served[g]++;
				for (unsigned p = 0; p < NPORT; p++) {
					// a port still valid after another's grant waited through it
					if (p == g || !e.port[p].valid) {
						waited[p] = 0;
					} else if (++waited[p] > max_waited) {
						max_waited = waited[p];
					}
				}
			}
		}
	}
	for (unsigned p = 0; p < NPORT; p++)
		e.port[p].pct = 0;
	for (int i = 0; i < 200; i++)
		e.cycle();
	TB_CTX("random requests on four ports, one semaphore");
	TB_TRUE(max_waited <= NPORT - 1);
	TB_EQ(e.o.responses.size(), e.o.accepts.size());
	TB_EQ(e.r32(va), e.o.accepts.size()); // every INC and AMOADD counted once
	for (unsigned p = 0; p < NPORT; p++)
		TB_TRUE(served[p] > 100);
}
END_TEST

int main()
{
	return tb_run_suite("sem", {
		acquire_succeeds_only_on_equal_value,
		acquire_strict_geq_compares_unsigned,
		acquire_circ_geq_compares_the_wrapped_difference,
		acquire_and_succeeds_on_any_common_bit,
		release_32bit_writes_payload_into_its_half_of_the_beat,
		release_64bit_writes_the_whole_beat,
		timestamped_release_writes_sem16_with_the_cycle_its_payload_beat_is_accepted,
		reduction_imin_keeps_the_smaller_signed_or_unsigned,
		reduction_imax_keeps_the_larger_signed_or_unsigned,
		reduction_ixor_xors_payload,
		reduction_iand_ands_payload,
		reduction_ior_ors_payload,
		reduction_iadd_adds_payload_with_wraparound,
		reduction_inc_adds_one_ignoring_payload,
		reduction_dec_subtracts_one_ignoring_payload,
		misaligned_semaphores_fault_sem_unaligned_before_translation,
		undefined_operations_fault_illegal_method_before_translation,
		translation_fault_kind_is_reported_without_memory_access,
		read_error_faults_bus_error_and_writes_nothing,
		write_ack_error_faults_bus_error_and_still_pulses_sem_written,
		both_ports_requesting_are_served_alternately_starting_with_port_0,
		increments_from_both_ports_on_one_semaphore_are_atomic,
		random_ops_under_backpressure_match_the_reference,
		amo_add_returns_the_old_word_and_adds_with_wraparound,
		amo_swap_returns_the_old_word_and_stores_the_operand,
		amo_xor_and_or_combine_bitwise,
		amo_min_max_compare_signed,
		amo_minu_maxu_compare_unsigned,
		amo_from_ports_0_to_2_is_an_illegal_method,
		amo_64bit_or_unassigned_sub_operation_is_an_illegal_method,
		misaligned_amo_lr_sc_fault_sem_unaligned_before_translation,
		amo_translation_and_bus_faults_report_their_access,
		lr_then_sc_stores_and_returns_0_once,
		sc_without_lr_fails_and_writes_nothing,
		sc_fails_after_another_rids_sc_or_amo_on_the_beat,
		snooped_writes_to_the_beat_clear_the_reservation_others_do_not,
		write_accepted_with_the_lr_read_leaves_no_reservation,
		reservations_of_different_rids_are_independent,
		rids_past_nres_never_reserve,
		four_ports_requesting_are_served_in_rotation,
		a_waiting_port_is_passed_over_at_most_three_times,
	});
}
