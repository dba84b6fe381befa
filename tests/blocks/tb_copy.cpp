// SPDX-License-Identifier: MIT
/*
 * ppu_copy on its own, in two configurations: the module defaults
 * (CHUNK_BYTES = 4096, MAX_READS = 16; model Vppu_copy) and the smallest
 * legal one (CHUNK_BYTES = 8, MAX_READS = 2; model Vppu_copy_min).
 *
 * Around the engine: two translation models (a fixed VA -> PA mapping that
 * moves pages to other physical pages and alternates apertures, with
 * injectable per-page faults), a memory with read and write latencies,
 * back-pressure and injectable read / write-ack errors, and a semaphore
 * port.  Every cycle the testbench checks each request against the command:
 * the k-th translation is of the k-th page (READ for the source, WRITE for
 * the destination) and the one after the last page is the prefetch of the
 * page after the range, the k-th read is of the k-th source beat, and the k-th
 * write is of the k-th destination beat with exactly the strobes of the
 * bytes inside the destination and the source bytes in them.  Every copy
 * then checks the whole destination byte for byte, that each destination
 * byte was written once and nothing else, the completion record, the
 * COPY_START / COPY_END trace records, perf_beat, and that nothing is left
 * in flight.
 */
#include "Vppu_copy.h"
#include "Vppu_copy_min.h"
#include "tb_common.h"

#include <map>
#include <vector>

namespace {

const uint32_t PAGE = tp::PAGE_BYTES;
const uint32_t BEAT = tp::BEAT;

unsigned nbeats(uint32_t a, uint32_t len) { return len ? unsigned(((a % BEAT) + uint64_t(len) + BEAT - 1) / BEAT) : 0; }
unsigned npages(uint32_t a, uint32_t len) { return len ? ((a + len - 1) / PAGE) - (a / PAGE) + 1 : 0; }
bool sem_wanted(unsigned mode)
{
	return mode == PPU_LAUNCH_DMA_SEMAPHORE_RELEASE || mode == PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP;
}

struct Cmd {
	uint32_t src, dst, len;
	unsigned sem_mode;
	uint32_t sem_va, sem_payload;
	unsigned chid;
	uint32_t root_ppn;
	unsigned root_sys;
};

Cmd mk(uint32_t src, uint32_t dst, uint32_t len, unsigned sem_mode = PPU_LAUNCH_DMA_SEMAPHORE_NONE)
{
	return Cmd{src, dst, len, sem_mode, 0x7000 + 4 * (len & 0xff), 0xabc00000u | len, 5, 0x12345, 1};
}

struct Trace {
	uint64_t cyc;
	unsigned kind, chid;
	uint32_t a, b;
};

// What the engine did for one command.
struct Run {
	uint64_t accept_cyc = 0, done_cyc = 0;
	bool done_seen = false;
	uint64_t done = 0; // copy_done_t
	unsigned done_chid = 0;
	unsigned n_rd = 0, n_wr = 0, n_xs = 0, n_xd = 0, n_perf = 0, n_wr_ack = 0;
	std::vector<uint64_t> wr_cyc;
	unsigned n_sem = 0;
	uint64_t sem_cyc = 0, sem_rsp_cyc = 0;
	uint64_t sem_exec = 0, sem_va = 0, sem_payload = 0, sem_chid = 0, sem_root_ppn = 0, sem_root_sys = 0;
	std::vector<Trace> traces;
	std::vector<uint8_t> wcount; // writes per destination byte
	// error responses delivered to the engine: count, first cycle and VA
	unsigned n_rd_err = 0, n_wr_err = 0;
	uint64_t rd_err_cyc = 0, wr_err_cyc = 0;
	uint32_t rd_err_va = 0, wr_err_va = 0;
};

struct Cfg {
	unsigned rd_lat = 20, wr_lat = 10, x_lat = 5, sem_lat = 3;
	unsigned rd_ready = 100, wr_ready = 100, x_ready = 100, sem_ready = 100;
};

template <class M> class CopyEnv {
public:
	Dut<M> d;
	Rng rng{1};
	Mem mem{3};
	Cfg cfg;
	std::map<uint32_t, unsigned> src_fault, dst_fault; // VA page -> kind
	unsigned sem_fault_kind = PPU_FAULT_KIND_NONE;
	// Engine recovery: drop_req pulsed this many cycles after the accept
	// (-1: never); halt held for halt_len cycles from halt_from after it.
	int64_t drop_at = -1;
	uint64_t halt_from = 0, halt_len = 0;
	unsigned halted_rd = 0, halted_wr = 0; // handshakes begun while halted

	CopyEnv()
	{
		d->invalidate = 0;
		d->drop_req = 0;
		d->halt = 0;
		d->cmd_valid = 0;
		clear(d->cmd);
		d->xs_req_ready = 0;
		d->xs_rsp_valid = 0;
		d->xs_rsp = 0;
		d->xd_req_ready = 0;
		d->xd_rsp_valid = 0;
		d->xd_rsp = 0;
		d->rd_ready = 0;
		d->rd_rsp_valid = 0;
		clear(d->rd_rsp);
		d->wr_ready = 0;
		d->wr_rsp_valid = 0;
		d->wr_rsp_err = 0;
		d->sem_ready = 0;
		d->sem_rsp_valid = 0;
		d->sem_rsp = 0;
		d.reset();
		TB_CTX("copy");
	}

	// Source and destination bytes through the mapping.
	uint8_t byte(uint32_t va) { return mem.byte(PageMap::sys_of(va), PageMap::pa(va)); }
	void rd_error(uint32_t va) { mem.rd_err.insert({PageMap::sys_of(va), PageMap::pa(va) & ~7ull}); }
	void wr_error(uint32_t va) { mem.wr_err.insert({PageMap::sys_of(va), PageMap::pa(va) & ~7ull}); }

	// Runs commands back to back: each is presented the cycle after the one
	// before it is accepted, so it waits through that whole copy.  Returns
	// after the last done_valid and one idle cycle more.
	std::vector<Run> run_chain(const std::vector<Cmd> &cmds)
	{
		std::vector<Run> out;
		uint64_t limit = d.cyc + 2000;
		for (const Cmd &c : cmds)
			limit += 60ull * (nbeats(c.src, c.len) + nbeats(c.dst, c.len));
		std::size_t presented = 0;
		next_ = cmds[presented++];
		have_next_ = true;
		while (out.size() < cmds.size()) {
			if (d.cyc > limit)
				TB_FAIL("%s: no done_valid", tb_ctx_buf());
			cycle();
			if (just_accepted_ && presented < cmds.size()) {
				next_ = cmds[presented++];
				have_next_ = true;
			}
			if (r_.done_seen && !collected_) {
				out.push_back(r_);
				collected_ = true;
			}
		}
		cycle(); // idle again, nothing left anywhere (checked in sample)
		for (std::size_t i = 0; i < cmds.size(); i++)
			check_run(cmds[i], out[i]);
		return out;
	}

	Run run(const Cmd &c) { return run_chain(std::vector<Cmd>{c}).at(0); }

	// Checks every command gets: completion id, perf, trace records.
	void check_run(const Cmd &c, const Run &r)
	{
		TB_EQ(r.done_chid, c.chid);
		TB_EQ(r.n_perf, r.n_wr);
		TB_EQ(r.traces.size(), 2);
		const Trace &s = r.traces[0], &e = r.traces[1];
		TB_EQ(s.cyc, r.accept_cyc + 1);
		TB_EQ(s.kind, PPU_TRACE_COPY_START);
		TB_EQ(s.chid, c.chid);
		TB_EQ(s.a, c.src);
		TB_EQ(s.b, c.len);
		TB_EQ(e.cyc, r.done_cyc);
		TB_EQ(e.kind, PPU_TRACE_COPY_END);
		TB_EQ(e.chid, c.chid);
		TB_EQ(e.a, c.dst);
		TB_EQ(e.b, c.len);
	}

	// A copy that must succeed: exact destination, exact traffic, and the
	// completion semaphore (if any) after the last write ack.
	Run copy_ok(const Cmd &c)
	{
		TB_CTX("copy src %08x dst %08x len %u sem mode %u", c.src, c.dst, c.len, c.sem_mode);
		return check_ok(c, run(c));
	}

	Run check_ok(const Cmd &c, const Run &r)
	{
		TB_EQ(get(r.done, tp::done::fault), 0);
		for (uint32_t i = 0; i < c.len; i++) {
			if (byte(c.dst + i) != byte(c.src + i))
				TB_FAIL("%s: destination byte %u (va %08x) = %02x, expected %02x", tb_ctx_buf(), i,
					c.dst + i, byte(c.dst + i), byte(c.src + i));
			if (r.wcount[i] != 1)
				TB_FAIL("%s: destination byte %u written %u times", tb_ctx_buf(), i, r.wcount[i]);
		}
		TB_EQ(r.n_rd, nbeats(c.src, c.len));
		TB_EQ(r.n_wr, nbeats(c.dst, c.len));
		TB_EQ(r.n_wr_ack, r.n_wr);
		TB_EQ(r.n_xs, npages(c.src, c.len));
		TB_EQ(r.n_xd, npages(c.dst, c.len));
		if (sem_wanted(c.sem_mode)) {
			TB_EQ(r.n_sem, 1);
			TB_EQ(r.sem_va, c.sem_va);
			TB_EQ(r.sem_payload, c.sem_payload); // upper 32 bits zero
			TB_EQ(r.sem_chid, c.chid);
			TB_EQ(r.sem_root_ppn, c.root_ppn);
			TB_EQ(r.sem_root_sys, c.root_sys);
			TB_EQ(PPU_FGET(PPU_SEM_EXECUTE_OPERATION, r.sem_exec), PPU_SEM_EXECUTE_OPERATION_RELEASE);
			TB_EQ(PPU_FGET(PPU_SEM_EXECUTE_PAYLOAD_SIZE, r.sem_exec), PPU_SEM_EXECUTE_PAYLOAD_SIZE_32BIT);
			TB_EQ(PPU_FGET(PPU_SEM_EXECUTE_RELEASE_TIMESTAMP, r.sem_exec),
			      c.sem_mode == PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP);
			TB_EQ(r.done_cyc, r.sem_rsp_cyc + 1);
		} else {
			TB_EQ(r.n_sem, 0);
		}
		return r;
	}

	// A copy that must fault with this record and not release its semaphore.
	Run copy_fault(const Cmd &c, unsigned kind, unsigned unit, unsigned access, uint32_t addr)
	{
		Run r = run(c);
		TB_EQ(get(r.done, tp::done::fault), 1);
		TB_EQ(get(r.done, tp::done::kind), kind);
		TB_EQ(get(r.done, tp::done::unit), unit);
		TB_EQ(get(r.done, tp::done::access), access);
		TB_EQ(get(r.done, tp::done::addr), addr);
		if (unit != PPU_FAULT_UNIT_SEM)
			TB_EQ(r.n_sem, 0);
		return r;
	}

	// Prefetches accepted so far on one side.
	unsigned prefetches(bool src) const { return src ? pf_s_.count : pf_d_.count; }

	void cycle()
	{
		drive();
		d.eval();
		sample();
		d.tick();
	}

private:
	Cmd cur_{}, next_{}; // command being copied, command presented
	Run r_;              // record of cur_
	bool have_next_ = false, accepted_ = false, just_accepted_ = false, collected_ = true;
	struct XPend {
		uint32_t va;
		bool src;
	};
	// The prefetch each side makes after requesting the last page of a
	// range: the very next request on that side, of the page after it.
	struct Prefetch {
		bool expect = false;
		uint32_t va = 0;
		unsigned pending = 0; // accepted, answer not yet delivered
		unsigned count = 0;   // accepted, over the whole test
	};
	Prefetch pf_s_, pf_d_;
	struct RPend {
		int sys;
		uint64_t pa;
		uint32_t va;
	};
	struct WPend {
		bool err;
		uint32_t va;
	};
	Pipe<XPend> xs_q_, xd_q_;
	Pipe<RPend> rd_q_;
	Pipe<WPend> wr_q_;
	Pipe<int> sem_q_;
	HoldCheck<uint64_t> xs_hold_, xd_hold_, rd_hold_;
	HoldCheck<VlWide<4>> wr_hold_;
	HoldCheck<VlWide<(tp::sreq::W + 31) / 32>> sem_hold_;

	uint64_t xrsp(const XPend &p, Prefetch &pf)
	{
		if (pf.pending)
			pf.pending--;
		const std::map<uint32_t, unsigned> &f = p.src ? src_fault : dst_fault;
		auto it = f.find(p.va / PAGE);
		uint64_t r = 0;
		if (it != f.end()) {
			set(r, tp::xrsp::fault, 1);
			set(r, tp::xrsp::kind, it->second);
			set(r, tp::xrsp::addr, rng.u64()); // meaningless with a fault
			set(r, tp::xrsp::sys, rng.u64());
		} else {
			set(r, tp::xrsp::addr, PageMap::pa(p.va));
			set(r, tp::xrsp::sys, PageMap::sys_of(p.va));
		}
		return r;
	}

	bool halted_now() const
	{
		return halt_len && accepted_ && d.cyc >= r_.accept_cyc + halt_from &&
		       d.cyc < r_.accept_cyc + halt_from + halt_len;
	}

	void drive()
	{
		d->drop_req = drop_at >= 0 && accepted_ && !r_.done_seen &&
			      d.cyc == r_.accept_cyc + uint64_t(drop_at);
		d->halt = halted_now();
		d->cmd_valid = have_next_;
		if (have_next_) {
			const Cmd &n = next_;
			clear(d->cmd);
			set(d->cmd, tp::cmd::chid, n.chid);
			set(d->cmd, tp::cmd::root_ppn, n.root_ppn);
			set(d->cmd, tp::cmd::root_sys, n.root_sys);
			set(d->cmd, tp::cmd::src, n.src);
			set(d->cmd, tp::cmd::dst, n.dst);
			set(d->cmd, tp::cmd::len, n.len);
			set(d->cmd, tp::cmd::sem_mode, n.sem_mode);
			set(d->cmd, tp::cmd::sem_va, n.sem_va);
			set(d->cmd, tp::cmd::sem_payload, n.sem_payload);
		} else {
			randomize(d->cmd, rng.u64()); // must not matter once accepted
		}
		d->xs_req_ready = rng.pct(cfg.x_ready);
		d->xd_req_ready = rng.pct(cfg.x_ready);
		d->rd_ready = rng.pct(cfg.rd_ready);
		d->wr_ready = rng.pct(cfg.wr_ready);
		d->sem_ready = rng.pct(cfg.sem_ready);

		// (one translation in flight per side: a prefetch is the only one)
		d->xs_rsp_valid = xs_q_.due(d.cyc);
		d->xs_rsp = d->xs_rsp_valid ? xrsp(xs_q_.pop(), pf_s_) : rng.u64();
		d->xd_rsp_valid = xd_q_.due(d.cyc);
		d->xd_rsp = d->xd_rsp_valid ? xrsp(xd_q_.pop(), pf_d_) : rng.u64();

		d->rd_rsp_valid = 0;
		randomize(d->rd_rsp, rng.u64());
		if (rd_q_.due(d.cyc)) {
			RPend p = rd_q_.pop();
			bool err = mem.rd_error(p.sys, p.pa);
			d->rd_rsp_valid = 1;
			set(d->rd_rsp, tp::rdrsp::data, err ? 0xdeadbeefdeadbeefull : mem.rd_beat(p.sys, p.pa));
			set(d->rd_rsp, tp::rdrsp::err, err);
			if (err && !r_.n_rd_err++) {
				r_.rd_err_cyc = d.cyc;
				r_.rd_err_va = p.va;
			}
		}
		d->wr_rsp_valid = 0;
		d->wr_rsp_err = rng.below(2);
		if (wr_q_.due(d.cyc)) {
			WPend w = wr_q_.pop();
			d->wr_rsp_valid = 1;
			d->wr_rsp_err = w.err;
			if (w.err && !r_.n_wr_err++) {
				r_.wr_err_cyc = d.cyc;
				r_.wr_err_va = w.va;
			}
		}

		d->sem_rsp_valid = 0;
		d->sem_rsp = rng.u64();
		if (sem_q_.due(d.cyc)) {
			unsigned kind = unsigned(sem_q_.pop());
			uint64_t r = rng.u64(); // acq_fail and value mean nothing here
			set(r, tp::srsp::fault, kind != PPU_FAULT_KIND_NONE);
			set(r, tp::srsp::kind, kind);
			set(r, tp::srsp::access, tp::ACC_WRITE);
			d->sem_rsp_valid = 1;
			d->sem_rsp = r;
			r_.sem_rsp_cyc = d.cyc;
		}
	}

	void check_xlate(const char *side, uint64_t req, unsigned k, uint32_t start, unsigned acc)
	{
		TB_EQ(get(req, tp::xreq::va), k ? (start / PAGE + k) * PAGE : start);
		TB_EQ(get(req, tp::xreq::access), acc);
		TB_EQ(get(req, tp::xreq::root_ppn), cur_.root_ppn);
		TB_EQ(get(req, tp::xreq::root_sys), cur_.root_sys);
		if (k >= npages(start, cur_.len))
			TB_FAIL("%s: %s translation %u of a %u-page range", tb_ctx_buf(), side, k,
				npages(start, cur_.len));
	}

	// A translation request on one side: the expected prefetch, or the
	// next page of the current range (which arms the prefetch if it is
	// the last one).  The prefetch has the access and root of its range.
	void xlate_req(const char *side, uint64_t req, Prefetch &pf, unsigned &n, uint32_t start,
		       unsigned acc)
	{
		if (pf.expect) {
			TB_EQ(get(req, tp::xreq::va), pf.va);
			TB_EQ(get(req, tp::xreq::access), acc);
			pf.expect = false;
			pf.pending++;
			pf.count++;
			return;
		}
		check_xlate(side, req, n, start, acc);
		if (++n == npages(start, cur_.len)) {
			pf.expect = true;
			pf.va = (start / PAGE + n) * PAGE; // wraps past 4 GiB like the VA
		}
	}

	void sample()
	{
		uint64_t c = d.cyc;
		bool running = accepted_ && !r_.done_seen;
		bool accept = d->cmd_valid && d->cmd_ready;
		just_accepted_ = accept;
		if (running) {
			TB_TRUE(d->busy && !d->cmd_ready);
		} else {
			// idle: ready for a command, nothing requested, nothing owed
			// but a prefetch
			TB_TRUE(!d->busy && d->cmd_ready);
			TB_TRUE((!d->xs_req_valid || pf_s_.expect) && (!d->xd_req_valid || pf_d_.expect) &&
				!d->rd_valid && !d->wr_valid && !d->sem_valid && !d->done_valid);
			TB_TRUE(xs_q_.size() == pf_s_.pending && xd_q_.size() == pf_d_.pending &&
				rd_q_.empty() && wr_q_.empty() && sem_q_.empty());
		}
		if (accept) {
			cur_ = next_;
			have_next_ = false;
			accepted_ = true;
			collected_ = false;
			r_ = Run();
			r_.wcount.assign(cur_.len, 0);
			r_.accept_cyc = c;
		}

		// translations, one in flight per side
		xs_hold_.sample("xs_req", d->xs_req_valid, d->xs_req_ready, d->xs_req);
		if (d->xs_req_valid && d->xs_req_ready) {
			TB_TRUE(xs_q_.empty());
			xlate_req("source", d->xs_req, pf_s_, r_.n_xs, cur_.src, tp::ACC_READ);
			xs_q_.push(c, cfg.x_lat, XPend{uint32_t(get(d->xs_req, tp::xreq::va)), true});
		}
		xd_hold_.sample("xd_req", d->xd_req_valid, d->xd_req_ready, d->xd_req);
		if (d->xd_req_valid && d->xd_req_ready) {
			TB_TRUE(xd_q_.empty());
			xlate_req("destination", d->xd_req, pf_d_, r_.n_xd, cur_.dst, tp::ACC_WRITE);
			xd_q_.push(c, cfg.x_lat, XPend{uint32_t(get(d->xd_req, tp::xreq::va)), false});
		}

		// halted (after a cycle for the issue register): only requests
		// presented before may still be taken
		if (halted_now() && d.cyc > r_.accept_cyc + halt_from + 1) {
			halted_rd += d->rd_valid && d->rd_ready && !rd_hold_.stalled;
			halted_wr += d->wr_valid && d->wr_ready && !wr_hold_.stalled;
		}

		// reads: the k-th source beat
		rd_hold_.sample("rd", d->rd_valid, d->rd_ready, d->rd_pa);
		if (d->rd_valid && d->rd_ready) {
			unsigned k = r_.n_rd++;
			if (k >= nbeats(cur_.src, cur_.len))
				TB_FAIL("%s: read %u of %u source beats", tb_ctx_buf(), k, nbeats(cur_.src, cur_.len));
			uint32_t va = (cur_.src & ~(BEAT - 1)) + k * BEAT;
			int sys = int(get(d->rd_pa, tp::paddr::sys));
			uint64_t pa = get(d->rd_pa, tp::paddr::addr);
			TB_EQ(sys, PageMap::sys_of(va));
			TB_EQ(pa, PageMap::pa(va));
			rd_q_.push(c, cfg.rd_lat, RPend{sys, pa, va});
		}

		// writes: the k-th destination beat, strobes exactly the bytes of
		// the destination, each carrying its source byte
		wr_hold_.sample("wr", d->wr_valid, d->wr_ready, d->wr_req);
		if (d->wr_valid && d->wr_ready) {
			unsigned k = r_.n_wr++;
			if (k >= nbeats(cur_.dst, cur_.len))
				TB_FAIL("%s: write %u of %u destination beats", tb_ctx_buf(), k,
					nbeats(cur_.dst, cur_.len));
			uint32_t va = (cur_.dst & ~(BEAT - 1)) + k * BEAT;
			int sys = int(get(d->wr_req, tp::wreq::sys));
			uint64_t pa = get(d->wr_req, tp::wreq::addr);
			uint64_t data = get(d->wr_req, tp::wreq::data);
			unsigned strb = unsigned(get(d->wr_req, tp::wreq::strb));
			TB_EQ(sys, PageMap::sys_of(va));
			TB_EQ(pa, PageMap::pa(va));
			unsigned exp_strb = 0;
			for (unsigned j = 0; j < BEAT; j++) {
				uint32_t b = va + j;
				if (b - cur_.dst >= cur_.len)
					continue;
				exp_strb |= 1u << j;
				uint8_t want = byte(cur_.src + (b - cur_.dst));
				if (uint8_t(data >> 8 * j) != want)
					TB_FAIL("%s: write %u lane %u (dst+%u) = %02x, expected %02x", tb_ctx_buf(), k, j,
						b - cur_.dst, unsigned(uint8_t(data >> 8 * j)), want);
				r_.wcount[b - cur_.dst]++;
			}
			TB_EQ(strb, exp_strb);
			bool err = mem.wr_error(sys, pa);
			if (!err)
				mem.wr_beat(sys, pa, data, strb);
			wr_q_.push(c, cfg.wr_lat, WPend{err, va});
			r_.wr_cyc.push_back(c);
		}
		if (d->wr_rsp_valid)
			r_.n_wr_ack++;
		if (d->perf_beat)
			r_.n_perf++;

		// completion semaphore: only after every write is acked
		sem_hold_.sample("sem", d->sem_valid, d->sem_ready, d->sem_req);
		if (d->sem_valid && d->sem_ready) {
			r_.n_sem++;
			r_.sem_cyc = c;
			TB_TRUE(wr_q_.empty() && !d->wr_valid);
			TB_EQ(r_.n_wr_ack, r_.n_wr);
			TB_EQ(r_.n_wr, nbeats(cur_.dst, cur_.len));
			r_.sem_exec = get(d->sem_req, tp::sreq::exec);
			r_.sem_va = get(d->sem_req, tp::sreq::va);
			r_.sem_payload = get(d->sem_req, tp::sreq::payload);
			r_.sem_chid = get(d->sem_req, tp::sreq::chid);
			r_.sem_root_ppn = get(d->sem_req, tp::sreq::root_ppn);
			r_.sem_root_sys = get(d->sem_req, tp::sreq::root_sys);
			sem_q_.push(c, cfg.sem_lat, int(sem_fault_kind));
		}

		if (get(d->trace, tp::trace::valid))
			r_.traces.push_back(Trace{c, unsigned(get(d->trace, tp::trace::kind)),
						  unsigned(get(d->trace, tp::trace::chid)),
						  uint32_t(get(d->trace, tp::trace::a)),
						  uint32_t(get(d->trace, tp::trace::b))});
		if (d->done_valid) {
			TB_TRUE(running);
			// everything drained: no response still owed to the engine
			// but a prefetch's
			TB_TRUE(xs_q_.size() == pf_s_.pending && xd_q_.size() == pf_d_.pending &&
				rd_q_.empty() && wr_q_.empty() && sem_q_.empty());
			r_.done_seen = true;
			r_.done_cyc = c;
			r_.done = d->done;
			r_.done_chid = d->done_chid;
		}
	}
};

// Sizes around beats, chunks and pages.
const uint32_t SIZES[] = {0,   1,   2,   3,   4,    5,    6,    7,    8,    9,    15,   16,
			  17,  23,  24,  25,  31,   32,   33,   63,   64,   65,   127,  128,
			  129, 255, 511, 1000, 4095, 4096, 4097, 8191, 8192, 8193, 3 * 4096 + 13};

// Every size x every source and destination byte alignment, placed near
// page ends so copies cross pages; all three semaphore modes in turn.
template <class M> void size_alignment_grid(CopyEnv<M> &e, const unsigned *lats, unsigned nlat, unsigned big_every)
{
	unsigned n = 0;
	for (unsigned li = 0; li < nlat; li++) {
		e.cfg.rd_lat = lats[li];
		e.cfg.wr_lat = lats[li] / 2 + 1;
		for (uint32_t len : SIZES) {
			for (uint32_t sa = 0; sa < BEAT; sa++) {
				for (uint32_t da = 0; da < BEAT; da++) {
					if (len > PAGE && li != 0 && (sa + da) % big_every)
						continue; // thin out the large ones at the other latencies
					uint32_t src = 0x100000 + PAGE * (n % 7) + 0xff8 - (len > 64 ? 0x400 : 0) + sa;
					uint32_t dst = 0x400000 + PAGE * (n % 5) + 0x7f0 + da;
					e.copy_ok(mk(src, dst, len, n % 3));
					n++;
				}
			}
		}
	}
}

} // namespace

START_TEST(copies_are_byte_exact_for_every_size_and_8x8_src_dst_alignment)
{
	CopyEnv<Vppu_copy> e;
	const unsigned lats[] = {7, 1, 40};
	size_alignment_grid(e, lats, 3, 3);
}
END_TEST

START_TEST(zero_length_copy_touches_nothing_and_still_releases_its_semaphore)
{
	CopyEnv<Vppu_copy> e;
	for (unsigned mode : {PPU_LAUNCH_DMA_SEMAPHORE_NONE, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
			      PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP}) {
		Run r = e.copy_ok(mk(0x100003, 0x400005, 0, mode));
		TB_EQ(r.n_xs + r.n_xd + r.n_rd + r.n_wr, 0);
	}
}
END_TEST

START_TEST(completion_semaphore_is_released_after_the_last_write_ack)
{
	CopyEnv<Vppu_copy> e;
	e.cfg.sem_ready = 30; // the request is held until accepted
	unsigned k = 0;
	for (unsigned mode : {PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP,
			      PPU_LAUNCH_DMA_SEMAPHORE_NONE}) {
		for (unsigned wr_lat : {1u, 30u}) {
			e.cfg.wr_lat = wr_lat;
			Cmd c = mk(0x100000 + 0x35 * k, 0x400000 + 0x1003 * k, 100 + 900 * k, mode);
			c.chid = 0x80 + k;
			c.sem_va = 0x9000 + 0x10 * k;
			c.sem_payload = 0xfeed0000 + k;
			c.root_ppn = 0x3fffff - k;
			c.root_sys = k & 1;
			Run r = e.copy_ok(c);
			if (sem_wanted(mode))
				TB_TRUE(r.sem_cyc > r.wr_cyc.back() + wr_lat - 1);
			k++;
		}
	}
}
END_TEST

START_TEST(copies_are_byte_exact_under_random_backpressure_and_latencies)
{
	CopyEnv<Vppu_copy> e;
	Rng r(12345);
	e.cfg.rd_ready = 60;
	e.cfg.wr_ready = 50;
	e.cfg.x_ready = 40;
	e.cfg.sem_ready = 50;
	for (int i = 0; i < 1000; i++) {
		e.cfg.rd_lat = 1 + r.below(60);
		e.cfg.wr_lat = 1 + r.below(30);
		e.cfg.x_lat = 1 + r.below(40);
		e.cfg.sem_lat = 1 + r.below(10);
		uint32_t len = r.below(4) == 0 ? r.below(20000) : r.below(300);
		uint32_t src = 0x080000 + r.below(0x180000);
		uint32_t dst = 0x300000 + r.below(0x180000);
		e.copy_ok(mk(src, dst, len, r.below(4)));
	}
}
END_TEST

START_TEST(copies_reaching_the_top_of_the_va_space_are_byte_exact)
{
	CopyEnv<Vppu_copy> e;
	for (uint32_t len : {1u, 7u, 8u, 9u, 100u, 4096u, 4097u, 9000u}) {
		const uint32_t top = 0u - len; // [top, 0xffffffff]
		const uint32_t cases[3][2] = {
			{top, 0x400005},        // source ends at 0xffffffff
			{0x100003, top},        // destination ends at 0xffffffff
			{top - 0x10003, top},   // both in the top pages
		};
		for (const auto &c : cases)
			e.copy_ok(mk(c[0], c[1], len, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE));
	}
}
END_TEST

START_TEST(command_presented_while_busy_is_accepted_the_cycle_after_done)
{
	CopyEnv<Vppu_copy> e;
	std::vector<Cmd> cmds;
	for (unsigned k = 0; k < 6; k++) {
		cmds.push_back(mk(0x100000 + 0x2111 * k, 0x400000 + 0x1077 * k, 50 + 300 * k, k % 3));
		cmds.back().chid = 0x10 + k;
	}
	TB_CTX("chain of %zu commands, each presented while the one before it copies", cmds.size());
	std::vector<Run> runs = e.run_chain(cmds);
	for (unsigned k = 0; k < cmds.size(); k++) {
		TB_CTX("command %u of a back-to-back chain", k);
		e.check_ok(cmds[k], runs[k]);
		if (k)
			TB_EQ(runs[k].accept_cyc, runs[k - 1].done_cyc + 1);
	}
}
END_TEST

// ---- faults ----

namespace {

const unsigned SRC = PPU_FAULT_UNIT_COPY_SRC, DST = PPU_FAULT_UNIT_COPY_DST;

// After any fault the engine must copy correctly again.
template <class M> void then_copy_ok(CopyEnv<M> &e)
{
	e.src_fault.clear();
	e.dst_fault.clear();
	e.mem.rd_err.clear();
	e.mem.wr_err.clear();
	e.sem_fault_kind = PPU_FAULT_KIND_NONE;
	e.cfg = Cfg();
	e.copy_ok(mk(0x100001, 0x400006, 5000, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE));
}

} // namespace

START_TEST(each_side_prefetches_the_page_after_its_range_and_ignores_its_fault)
{
	CopyEnv<Vppu_copy> e;
	// The pages right after both ranges are not present: the copies still
	// succeed, and each side asked for that page once per copy, after its
	// last page and before the next copy's first (checked in sample()).
	e.src_fault[0x102] = PPU_FAULT_KIND_PTE_NOT_PRESENT;
	e.dst_fault[0x402] = PPU_FAULT_KIND_PERMISSION;
	TB_CTX("two 8 KiB chunks of one stream, then a copy ending in the faulting pages' neighbours");
	std::vector<Cmd> chain = {mk(0x100000, 0x400000, 4096), mk(0x101000, 0x401000, 4096),
				  mk(0x0ff800, 0x3ff800, 0x2800)};
	std::vector<Run> runs = e.run_chain(chain);
	for (std::size_t i = 0; i < chain.size(); i++)
		e.check_ok(chain[i], runs[i]);
	for (int i = 0; i < 50; i++)
		e.cycle();
	TB_EQ(e.prefetches(true), 3);
	TB_EQ(e.prefetches(false), 3);
}
END_TEST

START_TEST(source_translation_fault_on_the_first_page_reads_nothing)
{
	CopyEnv<Vppu_copy> e;
	e.src_fault[0x123] = PPU_FAULT_KIND_PTE_NOT_PRESENT;
	TB_CTX("source page 0x123000 not present, copy starts in it");
	Run r = e.copy_fault(mk(0x123003, 0x500005, 100, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE),
			     PPU_FAULT_KIND_PTE_NOT_PRESENT, SRC, tp::ACC_READ, 0x123003);
	TB_EQ(r.n_rd, 0);
	TB_EQ(r.n_wr, 0);
	then_copy_ok(e);
}
END_TEST

START_TEST(source_translation_fault_on_a_later_page_reads_every_earlier_beat)
{
	CopyEnv<Vppu_copy> e;
	e.src_fault[0x123] = PPU_FAULT_KIND_PTE_NOT_PRESENT;
	TB_CTX("source page 0x123000 not present, copy starts at 0x122f03");
	Run r = e.copy_fault(mk(0x122f03, 0x500005, 9000, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE),
			     PPU_FAULT_KIND_PTE_NOT_PRESENT, SRC, tp::ACC_READ, 0x123000);
	TB_EQ(r.n_rd, (0x123000 - 0x122f00) / BEAT);
	then_copy_ok(e);
}
END_TEST

START_TEST(mmu_bus_error_on_the_source_is_reported_as_bus_error)
{
	CopyEnv<Vppu_copy> e;
	e.src_fault[0x130] = PPU_FAULT_KIND_BUS_ERROR;
	TB_CTX("page-table bus error for source page 0x130000");
	Run r = e.copy_fault(mk(0x12ff00, 0x500000, 1000), PPU_FAULT_KIND_BUS_ERROR, SRC, tp::ACC_READ, 0x130000);
	TB_EQ(r.n_rd, 0x100 / BEAT);
	then_copy_ok(e);
}
END_TEST

START_TEST(destination_translation_fault_on_the_first_page_writes_nothing)
{
	CopyEnv<Vppu_copy> e;
	e.dst_fault[0x502] = PPU_FAULT_KIND_PERMISSION;
	TB_CTX("destination page 0x502000 read-only, copy starts in it");
	Run r = e.copy_fault(mk(0x122f03, 0x502ff5, 90, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP),
			     PPU_FAULT_KIND_PERMISSION, DST, tp::ACC_WRITE, 0x502ff5);
	TB_EQ(r.n_wr, 0);
	then_copy_ok(e);
}
END_TEST

START_TEST(destination_translation_fault_on_a_later_page_writes_every_earlier_beat)
{
	CopyEnv<Vppu_copy> e;
	e.dst_fault[0x502] = PPU_FAULT_KIND_PERMISSION;
	const Cmd c = mk(0x122f03, 0x500ff5, 9000, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP);
	TB_CTX("destination page 0x502000 read-only, copy starts at 0x500ff5");
	Run r = e.copy_fault(c, PPU_FAULT_KIND_PERMISSION, DST, tp::ACC_WRITE, 0x502000);
	TB_EQ(r.n_wr, (0x502000 - 0x500ff0) / BEAT);
	for (uint32_t i = 0; i < 0x502000 - c.dst; i++) // all of it correct
		TB_EQ(r.wcount[i], 1);
	then_copy_ok(e);
}
END_TEST

START_TEST(read_error_reports_the_va_of_the_failing_beat)
{
	CopyEnv<Vppu_copy> e;
	e.rd_error(0x140808);
	TB_CTX("read error on source beat 0x140808");
	e.copy_fault(mk(0x140003, 0x500001, 5000, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE), PPU_FAULT_KIND_BUS_ERROR, SRC,
		     tp::ACC_READ, 0x140808);
	then_copy_ok(e);
	e.rd_error(0x140000);
	TB_CTX("read error on the first source beat");
	Run r = e.copy_fault(mk(0x140003, 0x500001, 50, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE), PPU_FAULT_KIND_BUS_ERROR,
			     SRC, tp::ACC_READ, 0x140003);
	TB_EQ(r.n_wr, 0);
	then_copy_ok(e);
}
END_TEST

START_TEST(write_ack_error_reports_the_va_of_the_failing_beat)
{
	CopyEnv<Vppu_copy> e;
	e.wr_error(0x500a08);
	TB_CTX("write error on destination beat 0x500a08");
	e.copy_fault(mk(0x140003, 0x500001, 5000, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE), PPU_FAULT_KIND_BUS_ERROR, DST,
		     tp::ACC_WRITE, 0x500a08);
	then_copy_ok(e);
	e.wr_error(0x500000);
	TB_CTX("write error on the first destination beat");
	e.copy_fault(mk(0x140003, 0x500001, 50, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE), PPU_FAULT_KIND_BUS_ERROR, DST,
		     tp::ACC_WRITE, 0x500001);
	then_copy_ok(e);
}
END_TEST

START_TEST(only_the_first_of_several_errors_is_reported)
{
	CopyEnv<Vppu_copy> e;
	const Cmd c = mk(0x140003, 0x500001, 5000, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE);
	// Two erroring source beats in flight together.
	e.rd_error(0x140808);
	e.rd_error(0x140810);
	TB_CTX("read errors on source beats 0x140808 and 0x140810");
	Run r = e.copy_fault(c, PPU_FAULT_KIND_BUS_ERROR, SRC, tp::ACC_READ, 0x140808);
	TB_EQ(r.n_rd_err, 2);
	then_copy_ok(e);
	// Two erroring write acks in flight together.
	e.cfg.wr_lat = 30;
	e.wr_error(0x500a08);
	e.wr_error(0x500a10);
	TB_CTX("write errors on destination beats 0x500a08 and 0x500a10");
	r = e.copy_fault(c, PPU_FAULT_KIND_BUS_ERROR, DST, tp::ACC_WRITE, 0x500a08);
	TB_EQ(r.n_wr_err, 2);
	then_copy_ok(e);
	// A read error, then the error ack of a write issued before it.
	e.cfg.wr_lat = 40;
	e.rd_error(0x140808);
	e.wr_error(0x5007f0);
	TB_CTX("read error on 0x140808, then write error on 0x5007f0");
	r = e.copy_fault(c, PPU_FAULT_KIND_BUS_ERROR, SRC, tp::ACC_READ, 0x140808);
	TB_EQ(r.n_rd_err, 1);
	TB_EQ(r.n_wr_err, 1);
	TB_EQ(r.rd_err_va, 0x140808);
	TB_EQ(r.wr_err_va, 0x5007f0);
	TB_TRUE(r.rd_err_cyc < r.wr_err_cyc);
	then_copy_ok(e);
	// A write error, then the error response of a read issued before it.
	e.cfg.wr_lat = 1;
	e.wr_error(0x500400);
	e.rd_error(0x140428);
	TB_CTX("write error on 0x500400, then read error on 0x140428");
	r = e.copy_fault(c, PPU_FAULT_KIND_BUS_ERROR, DST, tp::ACC_WRITE, 0x500400);
	TB_EQ(r.n_rd_err, 1);
	TB_EQ(r.n_wr_err, 1);
	TB_EQ(r.rd_err_va, 0x140428);
	TB_EQ(r.wr_err_va, 0x500400);
	TB_TRUE(r.wr_err_cyc < r.rd_err_cyc);
	then_copy_ok(e);
}
END_TEST

START_TEST(semaphore_fault_is_reported_with_unit_sem_after_the_whole_copy)
{
	CopyEnv<Vppu_copy> e;
	e.sem_fault_kind = PPU_FAULT_KIND_SEM_UNALIGNED;
	const Cmd c = mk(0x140003, 0x500001, 100, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP);
	TB_CTX("semaphore release faults");
	Run r = e.copy_fault(c, PPU_FAULT_KIND_SEM_UNALIGNED, PPU_FAULT_UNIT_SEM, tp::ACC_WRITE, c.sem_va);
	TB_EQ(r.n_sem, 1);
	TB_EQ(r.done_cyc, r.sem_rsp_cyc + 1);
	for (uint32_t i = 0; i < c.len; i++)
		TB_EQ(r.wcount[i], 1);
	then_copy_ok(e);
}
END_TEST

START_TEST(fault_under_backpressure_drains_everything_in_flight)
{
	CopyEnv<Vppu_copy> e;
	Rng r(77);
	for (unsigned k = 0; k < 24; k++) {
		e.cfg.rd_lat = 20 + r.below(80);
		e.cfg.wr_lat = 1 + r.below(40);
		e.cfg.x_lat = 1 + r.below(30);
		e.cfg.rd_ready = e.cfg.wr_ready = 70;
		e.cfg.x_ready = 60;
		const Cmd c = mk(0x120000 + r.below(PAGE), 0x500000 + r.below(PAGE), 0x8000 + r.below(PAGE), 1);
		uint32_t fpage;
		switch (k % 4) {
		case 0:
			fpage = c.dst / PAGE + 1 + r.below(6);
			e.dst_fault[fpage] = PPU_FAULT_KIND_PTE_NOT_PRESENT;
			TB_CTX("case %u: destination page %x not present", k, fpage);
			e.copy_fault(c, PPU_FAULT_KIND_PTE_NOT_PRESENT, DST, tp::ACC_WRITE, fpage * PAGE);
			break;
		case 1:
			fpage = c.src / PAGE + 1 + r.below(6);
			e.src_fault[fpage] = PPU_FAULT_KIND_PERMISSION;
			TB_CTX("case %u: source page %x refused", k, fpage);
			e.copy_fault(c, PPU_FAULT_KIND_PERMISSION, SRC, tp::ACC_READ, fpage * PAGE);
			break;
		case 2: {
			uint32_t va = (c.src & ~(BEAT - 1)) + BEAT * (1 + r.below(0x1000));
			e.rd_error(va);
			TB_CTX("case %u: read error at %08x", k, va);
			e.copy_fault(c, PPU_FAULT_KIND_BUS_ERROR, SRC, tp::ACC_READ, va);
			break;
		}
		default: {
			uint32_t va = (c.dst & ~(BEAT - 1)) + BEAT * (1 + r.below(0x1000));
			e.wr_error(va);
			TB_CTX("case %u: write error at %08x", k, va);
			e.copy_fault(c, PPU_FAULT_KIND_BUS_ERROR, DST, tp::ACC_WRITE, va);
			break;
		}
		}
		then_copy_ok(e);
	}
}
END_TEST

// ---- engine recovery: drop_req (ENGINE_CTRL.COPY_RESET) and halt ----

// A drop at a random point of a copy under random backpressure: the copy
// ends with ENGINE_RESET (unit COPY_DST, write) and no semaphore release,
// or, dropped while its release was under way, completes; either way
// nothing is left in flight (checked every cycle once idle) and the next
// copy is exact.
START_TEST(a_drop_at_any_point_ends_the_copy_cleanly)
{
	CopyEnv<Vppu_copy> e;
	Rng r(4242);
	unsigned dropped = 0, completed = 0;

	e.cfg.rd_ready = 70;
	e.cfg.wr_ready = 60;
	e.cfg.x_ready = 50;
	e.cfg.sem_ready = 40;
	for (unsigned k = 0; k < 200; k++) {
		e.cfg.rd_lat = 1 + r.below(100);
		e.cfg.wr_lat = 1 + r.below(40);
		e.cfg.x_lat = 1 + r.below(30);
		uint32_t len = 1 + r.below(k % 3 ? 3000 : 40000);
		const Cmd c = mk(0x100000 + r.below(0x100000), 0x400000 + r.below(0x100000), len,
				 r.below(4));
		e.drop_at = r.below(2 * (nbeats(c.src, len) + 100));
		TB_CTX("case %u: len %u, drop %lld cycles after the accept", k, len,
		       (long long)e.drop_at);
		Run res = e.run(c);
		if (get(res.done, tp::done::fault)) {
			TB_EQ(get(res.done, tp::done::kind), PPU_FAULT_KIND_ENGINE_RESET);
			TB_EQ(get(res.done, tp::done::unit), DST);
			TB_EQ(get(res.done, tp::done::access), tp::ACC_WRITE);
			TB_EQ(res.n_sem, 0);
			TB_TRUE(res.n_wr_ack <= nbeats(c.dst, len));
			dropped++;
		} else {
			e.check_ok(c, res);
			completed++;
		}
		e.drop_at = -1;
		then_copy_ok(e);
	}
	TB_TRUE(dropped > 100 && completed > 10);
}
END_TEST

// Halted mid-copy the engine starts no read or write (the ones presented
// before it are taken), keeps going when the halt ends, and the copy is
// exact.
START_TEST(a_halt_stops_issue_and_the_copy_resumes_exact)
{
	CopyEnv<Vppu_copy> e;
	Rng r(99);

	e.cfg.rd_ready = 80;
	e.cfg.wr_ready = 80;
	for (unsigned k = 0; k < 40; k++) {
		e.cfg.rd_lat = 1 + r.below(60);
		uint32_t len = 4096 + r.below(30000);
		const Cmd c = mk(0x100000 + r.below(0x100000), 0x400000 + r.below(0x100000), len,
				 r.below(4));
		e.halt_from = r.below(nbeats(c.src, len));
		e.halt_len = 1 + r.below(2000);
		e.halted_rd = e.halted_wr = 0;
		TB_CTX("case %u: len %u, halted for %llu cycles from %llu", k, len,
		       (unsigned long long)e.halt_len, (unsigned long long)e.halt_from);
		e.copy_ok(c);
		TB_EQ(e.halted_rd, 0);
		TB_EQ(e.halted_wr, 0);
	}
	e.halt_len = 0;
}
END_TEST

// ---- throughput: structural rates from the credit scheme of ppu_copy ----

namespace {

// Destination beats and cycles over the middle half of a 64 KiB copy
// (4096 beats: a whole number of credit rounds).
template <class M> void steady_rate(CopyEnv<M> &e, uint32_t src, uint32_t dst, unsigned *beats, uint64_t *cycles)
{
	Run r = e.copy_ok(mk(src, dst, 65536));
	std::size_t a = r.wr_cyc.size() / 4, b = 3 * r.wr_cyc.size() / 4;
	*beats = unsigned(b - a);
	*cycles = r.wr_cyc[b] - r.wr_cyc[a];
}

} // namespace

START_TEST(streams_one_beat_per_cycle_at_latency_10_with_16_reads_in_flight)
{
	// MAX_READS = 16 covers a 10-cycle memory: 16 >= 10 + 3.
	CopyEnv<Vppu_copy> e;
	e.cfg.rd_lat = 10;
	e.cfg.wr_lat = 10;
	e.cfg.x_lat = 20;
	for (int mis = 0; mis < 2; mis++) {
		TB_CTX("64 KiB, %s", mis ? "src+3 dst+6" : "aligned");
		Run r = e.copy_ok(mk(0x100000 + 3 * mis, 0x400000 + 6 * mis, 65536));
		// no bubble from the first destination beat to the last, across
		// all 16 page crossings
		TB_EQ(r.wr_cyc.back() - r.wr_cyc.front(), r.wr_cyc.size() - 1);
	}
}
END_TEST

START_TEST(read_credits_bound_the_rate_to_16_beats_per_latency_plus_3_cycles)
{
	// A credit comes back L + 3 cycles after its read was issued, so 16
	// credits carry exactly 16 beats every L + 3 cycles once L + 3 > 16.
	CopyEnv<Vppu_copy> e;
	for (unsigned lat : {20u, 45u, 100u}) {
		e.cfg.rd_lat = lat;
		e.cfg.wr_lat = 10;
		e.cfg.x_lat = 20;
		unsigned beats;
		uint64_t cycles;
		TB_CTX("memory latency %u", lat);
		steady_rate(e, 0x100003, 0x400006, &beats, &cycles);
		TB_EQ(cycles * 16, uint64_t(beats) * (lat + 3));
	}
}
END_TEST

// ---- smallest configuration ----

START_TEST(min_config_copies_are_byte_exact_for_every_size_and_alignment)
{
	CopyEnv<Vppu_copy_min> e;
	const unsigned lats[] = {1, 6};
	size_alignment_grid(e, lats, 2, 7);
	e.cfg.rd_ready = 50;
	e.cfg.wr_ready = 60;
	e.cfg.x_ready = 50;
	Rng r(9);
	for (int i = 0; i < 100; i++) {
		e.cfg.rd_lat = 1 + r.below(20);
		e.cfg.wr_lat = 1 + r.below(20);
		e.cfg.x_lat = 1 + r.below(20);
		e.copy_ok(mk(0x080000 + r.below(0x180000), 0x300000 + r.below(0x180000), r.below(3000), r.below(4)));
	}
}
END_TEST

START_TEST(min_config_read_credits_bound_the_rate_to_2_beats_per_latency_plus_3_cycles)
{
	CopyEnv<Vppu_copy_min> e;
	for (unsigned lat : {1u, 10u}) {
		e.cfg.rd_lat = lat;
		e.cfg.wr_lat = 5;
		unsigned beats;
		uint64_t cycles;
		TB_CTX("memory latency %u", lat);
		steady_rate(e, 0x100005, 0x400002, &beats, &cycles);
		TB_EQ(cycles * 2, uint64_t(beats) * (lat + 3));
	}
}
END_TEST

START_TEST(min_config_faults_stop_and_drain)
{
	CopyEnv<Vppu_copy_min> e;
	e.dst_fault[0x502] = PPU_FAULT_KIND_PERMISSION;
	TB_CTX("min config, destination page 0x502000 read-only");
	Run r = e.copy_fault(mk(0x122f03, 0x500ff5, 9000, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE),
			     PPU_FAULT_KIND_PERMISSION, DST, tp::ACC_WRITE, 0x502000);
	TB_EQ(r.n_wr, (0x502000 - 0x500ff0) / BEAT);
	e.dst_fault.clear();
	e.rd_error(0x140808);
	TB_CTX("min config, read error on source beat 0x140808");
	e.copy_fault(mk(0x140003, 0x500001, 5000, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE), PPU_FAULT_KIND_BUS_ERROR, SRC,
		     tp::ACC_READ, 0x140808);
	then_copy_ok(e);
}
END_TEST

int main()
{
	return tb_run_suite("copy", {
		copies_are_byte_exact_for_every_size_and_8x8_src_dst_alignment,
		zero_length_copy_touches_nothing_and_still_releases_its_semaphore,
		completion_semaphore_is_released_after_the_last_write_ack,
		copies_are_byte_exact_under_random_backpressure_and_latencies,
		copies_reaching_the_top_of_the_va_space_are_byte_exact,
		command_presented_while_busy_is_accepted_the_cycle_after_done,
		each_side_prefetches_the_page_after_its_range_and_ignores_its_fault,
		source_translation_fault_on_the_first_page_reads_nothing,
		source_translation_fault_on_a_later_page_reads_every_earlier_beat,
		mmu_bus_error_on_the_source_is_reported_as_bus_error,
		destination_translation_fault_on_the_first_page_writes_nothing,
		destination_translation_fault_on_a_later_page_writes_every_earlier_beat,
		read_error_reports_the_va_of_the_failing_beat,
		write_ack_error_reports_the_va_of_the_failing_beat,
		only_the_first_of_several_errors_is_reported,
		semaphore_fault_is_reported_with_unit_sem_after_the_whole_copy,
		fault_under_backpressure_drains_everything_in_flight,
		streams_one_beat_per_cycle_at_latency_10_with_16_reads_in_flight,
		read_credits_bound_the_rate_to_16_beats_per_latency_plus_3_cycles,
		min_config_copies_are_byte_exact_for_every_size_and_alignment,
		min_config_read_credits_bound_the_rate_to_2_beats_per_latency_plus_3_cycles,
		min_config_faults_stop_and_drain,
		a_drop_at_any_point_ends_the_copy_cleanly,
		a_halt_stops_issue_and_the_copy_resumes_exact,
	});
}
