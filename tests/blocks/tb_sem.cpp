// SPDX-License-Identifier: MIT
/*
 * ppu_sem on its own: the two request ports, a translation model (fixed
 * VA -> PA mapping with injectable faults), and a memory with latency,
 * back-pressure and injectable read / write-ack errors.  Every operation of
 * SEM_EXECUTE is checked against a reference model: the response (value,
 * acq_fail, fault kind and access), the memory image, the exact memory
 * traffic (translation, beat reads, strobed beat writes), the trace record,
 * the perf pulses and sem_written.  Port contracts (valid/ready hold, one
 * request in the unit at a time, one-cycle response pulse on the requesting
 * port) are checked every cycle.
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

const uint64_t TS_BASE = 0x1234567800000000ull;
uint64_t timestamp_at(uint64_t cyc) { return TS_BASE + cyc * 3; }

struct Req {
	uint32_t va = 0, exec = 0;
	uint64_t payload = 0;
	unsigned chid = 0, root_ppn = 0, root_sys = 0;
};

// A request from port p; each port has its own page-table root.
Req make_req(unsigned p, uint32_t va, uint32_t exec, uint64_t payload, unsigned chid)
{
	Req r;
	r.va = va;
	r.exec = exec;
	r.payload = payload;
	r.chid = chid;
	r.root_ppn = 0x2a5a5a + p;
	r.root_sys = p;
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
	std::vector<uint64_t> perf[4]; // acq_ok, acq_fail, release, reduction
};

enum { PERF_ACQ_OK, PERF_ACQ_FAIL, PERF_RELEASE, PERF_REDUCTION };

struct Port {
	bool valid = false;
	bool repeat = false; // keep requesting the same op after acceptance
	Req r;
};

class SemEnv {
public:
	Dut<Vppu_sem> d;
	Rng rng{7};
	Mem mem{7};
	unsigned rd_lat = 5, wr_lat = 4, x_lat = 3, ready_pct = 100;
	std::map<uint32_t, unsigned> xfault; // VA page -> fault kind
	Port port[2];
	Obs o;

	SemEnv()
	{
		d->timestamp = 0;
		d->req_valid = 0;
		clear(d->req);
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
	bool busy_ = false; // an op was accepted and not yet answered

	void drive()
	{
		d->timestamp = timestamp_at(d.cyc);
		unsigned rv = 0;
		for (unsigned p = 0; p < 2; p++) {
			const Port &pt = port[p];
			Field base = elem(first(tp::sreq::W), tp::sreq::W, p);
			if (!pt.valid) {
				// garbage on an idle port must not matter
				for (unsigned b = 0; b < tp::sreq::W; b += 64)
					set(d->req, Field{base.lsb + b, std::min(64u, tp::sreq::W - b)}, rng.u64());
				continue;
			}
			rv |= 1u << p;
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
		TB_TRUE(ready != 3);
		if (busy_)
			TB_EQ(ready, 0);
		for (unsigned p = 0; p < 2; p++) {
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
		if (d->wr_rsp_valid)
			o.acks.push_back(c);
		// completion
		unsigned rsp = d->rsp_valid;
		TB_TRUE(rsp != 3);
		for (unsigned p = 0; p < 2; p++) {
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
	for (int i = 0; i < 4; i++) {
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
	for (int i = 0; i < 4; i++)
		TB_EQ(o.perf[i].size(), 0);
	TB_EQ(o.written.size(), written);
	if (written)
		TB_EQ(o.written[0], o.responses.at(0).first);
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
void check_early_fault(SemEnv &e, uint32_t va, uint32_t exec, unsigned kind, unsigned access, const char *what)
{
	TB_CTX("%s (va %08x exec %08x)", what, va, exec);
	Obs o = e.op(0, va, exec, 0x1111111122222222ull);
	expect_fault(o, kind, access, false);
	TB_EQ(o.xlates.size(), 0);
	TB_EQ(o.reads.size() + o.writes.size(), 0);
}

} // namespace

START_TEST(misaligned_semaphores_fault_sem_unaligned_before_translation)
{
	SemEnv e;
	const unsigned K = PPU_FAULT_KIND_SEM_UNALIGNED;
	const unsigned REL = PPU_SEM_EXECUTE_OPERATION_RELEASE, RED = PPU_SEM_EXECUTE_OPERATION_REDUCTION;
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
	});
}
