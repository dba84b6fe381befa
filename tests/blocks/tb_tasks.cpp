// SPDX-License-Identifier: MIT
/*
 * ppu_tasks (the priority task table, without eviction and preemption) on
 * its own, in two configurations: the defaults (64 task ids, 8 slots,
 * 4 CUs of 8 contexts, 16 channels; model Vppu_tasks) and a small one
 * (8 ids, 2 slots, 1 CU of 4 contexts, 2 channels; model Vppu_tasks_min).
 *
 * The testbench plays the host (launches, RETRY handling, channel kills),
 * the MMU (a fixed non-identity mapping from tb_common's PageMap, with
 * injectable per-page faults), the memory (TMDs, read errors), the
 * semaphore unit (records every release), the fault sink and NUM_CU
 * behavioural compute units: each accepts a CTA only into free contexts
 * (checked), holds it a random number of cycles, reports EXITED (one event
 * port, as ppu_compute's arbiter will), honours kills (KILLED), and drives
 * free_ctx.
 *
 * A C++ reference of docs/compute-design.md §3.2 (rules 1, 4, 5, 7) replays
 * the trace records, one per cycle, and checks every decision when it is
 * made: each activation is the head of the highest non-empty pending
 * priority into the lowest free slot; each dispatch is the highest-priority
 * active task with a CTA left and a free save slot (ties: oldest
 * activation), its next CTA, its lowest free save slot, on the CU with the
 * most free contexts that fit (ties: lowest index), and the CU's payload
 * matches the TMD (stack of the save slot per the block layout).  A task
 * completes exactly once, after its last CTA exit, with its release (VA,
 * payload, timestamp flag) and nonstall exactly as its FLAGS say.  Requests
 * are checked to hold while stalled, and the table must not sit idle while
 * the reference can dispatch.
 */
#include "Vppu_tasks.h"
#include "Vppu_tasks_min.h"
#include "tb_common.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace {

// ---------------------------------------------------------------------------
// Port layouts of the ppu_types_pkg structs this block uses (bottom-up).
// ---------------------------------------------------------------------------
namespace lay {
namespace launch { // task_launch_t {chid, root, tmd_va, prio_min, prio_max, max_depth}
constexpr Field max_depth = first(7), prio_max = after(max_depth, 6), prio_min = after(prio_max, 6),
		tmd_va = after(prio_min, 32), root_ppn = after(tmd_va, tp::ROOT_PPN_W),
		root_sys = after(root_ppn, 1), chid = after(root_sys, tp::CHID_W);
} // namespace launch
namespace disp { // cu_disp_t
constexpr Field maxdepth = first(7), depth = after(maxdepth, 7), prio = after(depth, 6),
		ncta = after(prio, 32), grid_z = after(ncta, 16), grid_y = after(grid_z, 16),
		grid_x = after(grid_y, 32), cta_z = after(grid_x, 11), cta_y = after(cta_z, 11),
		cta_x = after(cta_y, 11), stack_log2 = after(cta_x, 5), stack_va = after(stack_log2, 32),
		param = after(stack_va, 32), entry_pc = after(param, 32), nthreads = after(entry_pc, 11),
		cta_id = after(nthreads, 32), root_ppn = after(cta_id, tp::ROOT_PPN_W),
		root_sys = after(root_ppn, 1), chid = after(root_sys, tp::CHID_W), tid = after(chid, 8),
		tslot = after(tid, 4), hdr_va = after(tslot, 32), save_va = after(hdr_va, 32),
		resume = after(save_va, 1);
constexpr unsigned W = end_of(resume);
} // namespace disp
namespace ev { // cu_ev_t {kind, tslot, cta_id}
constexpr Field cta_id = first(32), tslot = after(cta_id, 4), kind = after(tslot, 2);
constexpr unsigned EXITED = 0, KILLED = 1, SAVED = 2;
} // namespace ev
namespace kill { // cu_kill_t {save, tslot, cta_id}
constexpr Field cta_id = first(32), tslot = after(cta_id, 4), save = after(tslot, 1);
} // namespace kill
namespace fault { // cu_fault_t {chid, kind, unit, access, addr, data}
constexpr Field data = first(32), addr = after(data, 32), access = after(addr, 2), unit = after(access, 4),
		kind = after(unit, 8), chid = after(kind, tp::CHID_W);
constexpr unsigned W = end_of(chid);
} // namespace fault
namespace dbg { // task_dbg_t
constexpr Field tmd_va = first(32), exited = after(tmd_va, 32), next_cta = after(exited, 32),
		children = after(next_cta, 7), parent_j = after(children, 5), parent = after(parent_j, 8),
		has_parent = after(parent, 1), tslot = after(has_parent, 4), slot_valid = after(tslot, 1),
		depth = after(slot_valid, 7), prio = after(depth, 6), chid = after(prio, tp::CHID_W),
		state = after(chid, 3);
} // namespace dbg
} // namespace lay

enum { ST_OK = 0, ST_RETRY = 1, ST_FAULTED = 2 };
enum { DS_FREE = 0, DS_PENDING = 1, DS_ACTIVE = 2, DS_LAUNCHING = 5, DS_COMPLETING = 6 };

// Sizes of the two models (their verilator -G flags in blocks.mk).
struct CfgBig {
	static constexpr unsigned NT = 64, S = 8, NCU = 4, CTX = 8, NC = 16;
};
struct CfgMin {
	static constexpr unsigned NT = 8, S = 2, NCU = 1, CTX = 4, NC = 2;
};
constexpr unsigned clog2(unsigned v)
{
	unsigned r = 0;
	while ((1u << r) < v)
		r++;
	return r;
}

const uint32_t F_SEM = 1u << PPU_TMD_FLAGS_SEM_RELEASE__LSB;
const uint32_t F_WORK = 1u << PPU_TMD_FLAGS_WORK_CREATION__LSB;
const uint32_t F_TS = 1u << PPU_TMD_FLAGS_SEM_TIMESTAMP__LSB;
const uint32_t F_INTR = 1u << PPU_TMD_FLAGS_INTERRUPT__LSB;
const uint32_t F_ICINV = 1u << PPU_TMD_FLAGS_ICACHE_INVALIDATE__LSB;

// A TMD, word by word (offset / 4).
struct Tmd {
	uint32_t w[16] = {};
	uint32_t &operator[](unsigned off) { return w[off / 4]; }
	uint32_t operator[](unsigned off) const { return w[off / 4]; }
	unsigned t() const { return w[4] * w[5] * w[6]; }
	uint32_t ncta() const { return w[1] * w[2] * w[3]; }
	uint32_t min_block() const
	{
		return 0x280 + (*this)[PPU_TMD_SAVE_CTAS] * t() * (128 + (*this)[PPU_TMD_STACK_BYTES]);
	}
};

// A valid TMD; `seq` makes its semaphore and block unique.
Tmd valid_tmd(unsigned seq, uint32_t gx = 3, unsigned cx = 4, unsigned k = 2, uint32_t stack = 256,
	      uint32_t flags = F_SEM, unsigned prio = 0)
{
	Tmd m;
	m[PPU_TMD_ENTRY_PC] = 0x10000 + 4 * seq;
	m[PPU_TMD_GRID_X] = gx;
	m[PPU_TMD_GRID_Y] = 1;
	m[PPU_TMD_GRID_Z] = 1;
	m[PPU_TMD_CTA_X] = cx;
	m[PPU_TMD_CTA_Y] = 1;
	m[PPU_TMD_CTA_Z] = 1;
	m[PPU_TMD_PARAM_PTR] = 0xa0000000u + seq;
	m[PPU_TMD_PRIORITY] = prio;
	m[PPU_TMD_FLAGS] = flags;
	m[PPU_TMD_SEM_ADDR] = 0x00400000u + 16 * seq;
	m[PPU_TMD_SEM_PAYLOAD] = 0x5e000000u + seq;
	m[PPU_TMD_STACK_BYTES] = stack;
	m[PPU_TMD_SAVE_CTAS] = k;
	m[PPU_TMD_BLOCK_VA] = 0x10000000u + (seq << 16);
	m[PPU_TMD_BLOCK_BYTES] = m.min_block();
	return m;
}

unsigned log2u(uint32_t v)
{
	unsigned r = 0;
	while (v > 1) {
		v >>= 1;
		r++;
	}
	return r;
}

struct Launch {
	unsigned chid = 0;
	uint32_t tmd_va = 0;
	unsigned pmin = 0, pmax = 63, maxd = 1;
	uint32_t root_ppn = 0x1234;
	unsigned root_sys = 0;
	Tmd tmd;
	// results
	int status = -1; // last response
	unsigned tid = 0;
	unsigned retries = 0;
	uint64_t rsp_cyc = 0;
};

// Reference state of one launched task.
struct Task {
	enum State { NONE, PENDING, ACTIVE, DONE, DROPPED, FAILED } st = NONE;
	unsigned prio = 0, slot = 0, tid = 0;
	uint64_t stamp = 0; // activation order
	uint32_t next = 0, exited = 0;
	uint32_t jocc = 0;  // save slots in use (running, being saved or saved)
	uint32_t jsaving = 0, jsaved = 0;  // ... preempted: being saved, saved
	uint32_t jcta[32] = {};             // CTA id of each save slot in use
	unsigned running = 0;               // on a CU (including being saved)
	unsigned preempted = 0, resumed = 0;
	bool evicting = false;              // its eviction has begun (a CTA preempted for it, or a write)
	unsigned evictions = 0;
	uint64_t react_cyc = 0;             // re-activated after an eviction (reads its progress back)
	unsigned releases = 0;
	uint64_t release_cyc = 0, last_exit_cyc = 0, done_cyc = 0;
	unsigned dispatches = 0, kills_seen = 0;
	bool killed_ctas = false;
};

struct Trace {
	uint64_t cyc;
	unsigned kind, chid;
	uint32_t a, b;
};

struct Fault {
	uint64_t cyc;
	unsigned chid, kind, unit, access;
	uint32_t addr, data;
};

struct Release {
	uint64_t cyc;
	uint32_t va, payload;
	unsigned chid, ts, op, size;
	int task;
};

// One CTA on a behavioural CU.
struct Cta {
	unsigned tslot;
	uint32_t cta;
	unsigned n;
	uint64_t done_at;
	bool killed = false, queued = false, saving = false;
	int task;
	unsigned j;
};

struct Knobs {
	unsigned x_lat = 4, rd_lat = 8, sem_lat = 5;
	unsigned x_ready = 100, rd_ready = 100, sem_ready = 100, xf_ready = 100;
	unsigned disp_ready = 100, kill_ready = 100, ev_pct = 100;
	unsigned hold_min = 5, hold_max = 40;
	unsigned kill_delay = 6;
};

template <class M, class C> class Env {
public:
	static constexpr unsigned NT = C::NT, S = C::S, NCU = C::NCU, CTX = C::CTX, NC = C::NC;
	static constexpr unsigned CTXC_W = clog2(CTX + 1);

	Dut<M> d;
	Rng rng;
	Mem mem{7};
	Knobs k;
	std::set<uint32_t> x_fault_pages; // VA >> PAGE_SHIFT
	std::set<uint32_t> sem_fault_va;
	bool cu_paused = false;           // CUs accept no dispatch
	bool cu_hold = false;             // CTAs never finish while set
	bool kill_window = false;         // relax the activation check around kills
	// Gate the clock by the table's quiet output, as ppu_compute does:
	// an edge it calls a no-op is skipped.  The run must give the same
	// results (a wrong quiet loses a handshake or a decision).
	bool gate = false;
	uint64_t gated_edges = 0;

	std::vector<Launch> launches;
	std::vector<Task> tasks;
	std::vector<Trace> traces;
	std::vector<Fault> faults;
	std::vector<Release> releases;
	std::vector<unsigned> activations; // launch indices in activation order
	unsigned nonstall_cnt[NC] = {};
	unsigned perf_launch = 0, perf_dispatch = 0, perf_complete = 0, icache_inv = 0;
	unsigned perf_preempt = 0, perf_resume = 0, perf_evict = 0;
	uint32_t kill_mask = 0;
	unsigned max_resident[S] = {}; // per slot, checked against k

	explicit Env(uint64_t seed = 1) : d(int(seed)), rng(seed)
	{
		clear(d->cl_req);
		d->cl_valid = 0;
		d->chan_kill = 0;
		d->xf_ready = 0;
		d->x_req_ready = 0;
		d->x_rsp_valid = 0;
		clear(d->x_rsp);
		d->rd_ready = 0;
		d->rd_rsp_valid = 0;
		clear(d->rd_rsp);
		d->sem_ready = 0;
		d->sem_rsp_valid = 0;
		clear(d->sem_rsp);
		clear(d->free_ctx);
		d->disp_ready = 0;
		d->ev_valid = 0;
		clear(d->ev);
		d->ev_cu = 0;
		d->kill_ready = 0;
		d->dreq_valid = 0;	// device launches: tests/rtl/test_children.c
		clear(d->dreq);
		d->dbg_tid = 0;
		d->no_preempt = 0;
		d->no_evict = 0;
		d.reset();
		for (unsigned i = 0; i < 64; i++)
			fc_hist_[i].fill(CTX);
		tid_task_.assign(NT, -1);
		slot_task_.assign(S, -1);
		pend_.assign(64, std::deque<int>());
		cu_.assign(NCU, std::vector<Cta>());
		TB_CTX("tasks");
	}

	// ---- host side ----
	// Queues a launch; returns its index (= its task index).
	int launch(unsigned chid, const Tmd &tmd, unsigned pmin = 0, unsigned pmax = 63, unsigned maxd = 4,
		   uint32_t tmd_va = 0)
	{
		Launch l;
		l.chid = chid;
		l.tmd_va = tmd_va ? tmd_va : next_tmd_va();
		l.pmin = pmin;
		l.pmax = pmax;
		l.maxd = maxd;
		l.root_ppn = 0x1000 + chid * 0x111;
		l.root_sys = chid & 1;
		l.tmd = tmd;
		write_tmd(l.tmd_va, tmd);
		launches.push_back(l);
		tasks.push_back(Task());
		host_q_.push_back(int(launches.size() - 1));
		return int(launches.size() - 1);
	}
	uint32_t next_tmd_va() { return 0x00800000u + 64u * uint32_t(launches.size()) + 0x1000u * uint32_t(launches.size() / 32); }
	void write_tmd(uint32_t va, const Tmd &t)
	{
		for (unsigned i = 0; i < 16; i++)
			mem.w32(PageMap::sys_of(va + 4 * i), PageMap::pa(va + 4 * i), t.w[i]);
	}
	bool host_idle() const { return host_q_.empty() && host_cur_ < 0; }
	bool prev_live_[NC] = {};

	void set_kill(unsigned chid, bool on)
	{
		uint32_t m = on ? (kill_mask | (1u << chid)) : (kill_mask & ~(1u << chid));
		if (m != kill_mask) {
			kill_mask = m;
			kill_hist_.push_back({d.cyc, m});
		}
	}

	// ---- running ----
	void cycle()
	{
		drive();
		d.eval();
		sample();
		if (gate && d->quiet) {
			d.cyc++;
			gated_edges++;
		} else {
			d.tick();
		}
	}
	void run(uint64_t n)
	{
		for (uint64_t i = 0; i < n; i++)
			cycle();
	}
	template <class F> void run_until(F done, uint64_t limit, const char *what)
	{
		uint64_t end = d.cyc + limit;
		while (!done()) {
			if (d.cyc > end)
				TB_FAIL("%s: timeout waiting for %s (cycle %llu)", tb_ctx_buf(), what,
					(unsigned long long)d.cyc);
			cycle();
		}
	}
	// Everything launched has been answered and every accepted task is done.
	bool all_done()
	{
		if (!host_idle())
			return false;
		for (std::size_t i = 0; i < tasks.size(); i++)
			if (tasks[i].st == Task::PENDING || tasks[i].st == Task::ACTIVE)
				return false;
		return true;
	}
	void drain(uint64_t limit = 400000)
	{
		run_until([this] { return all_done(); }, limit, "every task to complete");
		run(20);
		check_quiet();
	}
	// Nothing left anywhere: ids all free, no slot, no CTA, no request.
	void check_quiet()
	{
		TB_TRUE(d->can_accept);
		for (unsigned c = 0; c < NC; c++) {
			TB_CTX("tasks: quiet, channel %u", c);
			TB_TRUE(get(d->chan_clear, Field{c, 1}) == 1);
			TB_TRUE(get(d->chan_live, Field{c, 1}) == 0);
		}
		for (unsigned t = 0; t < NT; t++) {
			TB_CTX("tasks: quiet, task id %u", t);
			d->dbg_tid = t;
			d.eval();
			TB_EQ(get(d->dbg, lay::dbg::state), DS_FREE);
		}
		TB_CTX("tasks: quiet");
		for (unsigned i = 0; i < NCU; i++)
			TB_TRUE(cu_[i].empty());
		TB_TRUE(!d->x_req_valid && !d->rd_valid && !d->sem_valid && !d->xf_valid);
		TB_TRUE(d->disp_valid == 0 && d->kill_valid == 0);
	}
	// Checks of every finished task against its TMD.
	void check_tasks()
	{
		for (std::size_t i = 0; i < tasks.size(); i++) {
			const Task &t = tasks[i];
			const Launch &l = launches[i];
			TB_CTX("tasks: launch %zu (chid %u, tmd %08x) final state %d", i, l.chid, l.tmd_va, t.st);
			if (t.st == Task::DONE) {
				TB_EQ(t.exited, l.tmd.ncta());
				TB_EQ(t.dispatches, l.tmd.ncta());
				TB_EQ(t.releases, (l.tmd[PPU_TMD_FLAGS] & F_SEM) ? 1u : 0u);
				if (t.releases)
					TB_TRUE(t.release_cyc > t.last_exit_cyc && t.release_cyc < t.done_cyc);
			} else if (t.st == Task::FAILED) {
				TB_TRUE(t.releases <= 1); // a release that faulted
			} else {
				TB_EQ(t.releases, 0u);
			}
		}
	}

	unsigned free_of(unsigned cu) const
	{
		unsigned used = 0;
		for (const Cta &c : cu_[cu])
			used += c.n;
		return CTX - used;
	}
	unsigned resident() const
	{
		unsigned n = 0;
		for (unsigned i = 0; i < NCU; i++)
			n += unsigned(cu_[i].size());
		return n;
	}
	uint64_t dbg_read(unsigned tid, Field f)
	{
		d->dbg_tid = tid;
		d.eval();
		return get(d->dbg, f);
	}

private:
	// host
	std::deque<int> host_q_;
	int host_cur_ = -1;        // launch presented or in flight
	bool host_accepted_ = false;
	bool host_wait_accept_ = false;
	// memory, MMU, sem
	struct XP {
		uint32_t va;
	};
	struct RP {
		int sys;
		uint64_t pa;
	};
	struct SP {
		unsigned kind;
	};
	Pipe<XP> x_q_;
	Pipe<RP> rd_q_;
	Pipe<SP> sem_q_;
	int x_out_ = 0, sem_out_ = 0;
	HoldCheck<uint64_t> x_hold_;
	HoldCheck<uint64_t> rd_hold_;
	HoldCheck<VlWide<(tp::sreq::W + 31) / 32>> sem_hold_;
	HoldCheck<VlWide<(lay::fault::W + 31) / 32>> xf_hold_;
	HoldCheck<VlWide<(lay::disp::W + 31) / 32>> disp_hold_;
	HoldCheck<uint64_t> kill_hold_;
	uint32_t last_disp_valid_ = 0, last_kill_valid_ = 0;
	// CUs
	std::vector<std::vector<Cta>> cu_;
	bool ev_pres_ = false;
	unsigned ev_cu_ = 0;
	Cta ev_cta_{};
	std::deque<std::pair<unsigned, Cta>> ev_q_; // reported in order
	std::deque<std::pair<unsigned, Cta>> exit_expect_;
	// reference
	std::vector<int> tid_task_;
	std::vector<int> slot_task_;
	std::vector<std::deque<int>> pend_;
	uint64_t stamp_ = 0;
	std::array<std::array<unsigned, 8>, 64> fc_hist_{};
	std::vector<std::pair<uint64_t, uint32_t>> kill_hist_{{0, 0}};
	unsigned idle_disp_ = 0;
	int launch_in_fsm_ = -1; // the launch whose TMD the FSM reads

	uint32_t kill_at(uint64_t cyc) const
	{
		uint32_t m = 0;
		for (const auto &h : kill_hist_)
			if (h.first <= cyc)
				m = h.second;
		return m;
	}

	void drive()
	{
		// host: one launch at a time; after RETRY wait for can_accept
		if (host_cur_ < 0 && !host_q_.empty()) {
			host_cur_ = host_q_.front();
			host_q_.pop_front();
			host_accepted_ = false;
		}
		bool present = host_cur_ >= 0 && !host_accepted_ && !(host_wait_accept_ && !d->can_accept);
		d->cl_valid = present;
		if (present) {
			const Launch &l = launches[host_cur_];
			clear(d->cl_req);
			set(d->cl_req, lay::launch::chid, l.chid);
			set(d->cl_req, lay::launch::root_ppn, l.root_ppn);
			set(d->cl_req, lay::launch::root_sys, l.root_sys);
			set(d->cl_req, lay::launch::tmd_va, l.tmd_va);
			set(d->cl_req, lay::launch::prio_min, l.pmin);
			set(d->cl_req, lay::launch::prio_max, l.pmax);
			set(d->cl_req, lay::launch::max_depth, l.maxd);
		} else {
			randomize(d->cl_req, rng.u64());
		}
		set(d->chan_kill, Field{0, NC}, kill_mask);

		d->x_req_ready = rng.pct(k.x_ready);
		d->rd_ready = rng.pct(k.rd_ready);
		d->sem_ready = rng.pct(k.sem_ready);
		d->xf_ready = rng.pct(k.xf_ready);

		d->x_rsp_valid = 0;
		d->x_rsp = rng.u64();
		if (x_q_.due(d.cyc)) {
			XP p = x_q_.pop();
			uint64_t r = 0;
			if (x_fault_pages.count(p.va >> tp::PAGE_SHIFT)) {
				set(r, tp::xrsp::fault, 1);
				set(r, tp::xrsp::kind, PPU_FAULT_KIND_PTE_NOT_PRESENT);
				set(r, tp::xrsp::addr, rng.u64());
			} else {
				set(r, tp::xrsp::addr, PageMap::pa(p.va));
				set(r, tp::xrsp::sys, PageMap::sys_of(p.va));
			}
			d->x_rsp_valid = 1;
			d->x_rsp = r;
			x_out_--;
		}
		d->rd_rsp_valid = 0;
		randomize(d->rd_rsp, rng.u64());
		if (rd_q_.due(d.cyc)) {
			RP p = rd_q_.pop();
			bool err = mem.rd_error(p.sys, p.pa);
			d->rd_rsp_valid = 1;
			set(d->rd_rsp, tp::rdrsp::data, err ? 0xbadbadbadbadull : mem.rd_beat(p.sys, p.pa));
			set(d->rd_rsp, tp::rdrsp::err, err);
		}
		d->sem_rsp_valid = 0;
		d->sem_rsp = rng.u64();
		if (sem_q_.due(d.cyc)) {
			SP p = sem_q_.pop();
			uint64_t r = rng.u64();
			set(r, tp::srsp::fault, p.kind != 0);
			set(r, tp::srsp::kind, p.kind);
			set(r, tp::srsp::access, tp::ACC_WRITE);
			d->sem_rsp_valid = 1;
			d->sem_rsp = r;
			sem_out_--;
		}

		// CUs: free contexts, dispatch ready, events, kills
		std::array<unsigned, 8> fc{};
		for (unsigned i = 0; i < NCU; i++) {
			fc[i] = free_of(i);
			set(d->free_ctx, Field{i * CTXC_W, CTXC_W}, fc[i]);
		}
		fc_hist_[d.cyc % 64] = fc;
		uint32_t dr = 0, kr = 0;
		for (unsigned i = 0; i < NCU; i++) {
			if (!cu_paused && rng.pct(k.disp_ready))
				dr |= 1u << i;
			if (rng.pct(k.kill_ready))
				kr |= 1u << i;
		}
		d->disp_ready = dr;
		d->kill_ready = kr;
		// finished CTAs queue up for the event port
		for (unsigned i = 0; i < NCU; i++)
			for (Cta &c : cu_[i])
				if (!c.queued && ((!cu_hold && c.done_at <= d.cyc) ||
						  ((c.killed || c.saving) && c.done_at <= d.cyc))) {
					c.queued = true;
					ev_q_.push_back({i, c});
				}
		if (!ev_pres_ && !ev_q_.empty() && rng.pct(k.ev_pct)) {
			ev_pres_ = true;
			ev_cu_ = ev_q_.front().first;
			ev_cta_ = ev_q_.front().second;
			ev_q_.pop_front();
		}
		d->ev_valid = ev_pres_;
		if (ev_pres_) {
			uint64_t e = 0;
			set(e, lay::ev::cta_id, ev_cta_.cta);
			set(e, lay::ev::tslot, ev_cta_.tslot);
			set(e, lay::ev::kind, ev_cta_.killed   ? lay::ev::KILLED
					      : ev_cta_.saving ? lay::ev::SAVED
							       : lay::ev::EXITED);
			d->ev = e;
			d->ev_cu = ev_cu_;
		} else {
			d->ev = rng.u64();
			d->ev_cu = rng.below(NCU);
		}
		d->dbg_tid = rng.below(256);
	}

	int task_of_tid(unsigned tid)
	{
		TB_TRUE(tid < NT);
		int t = tid_task_[tid];
		if (t < 0)
			TB_FAIL("%s: trace names task id %u, which holds no task", tb_ctx_buf(), tid);
		return t;
	}

	// The reference's activation pick with the channels of `kill` ignored.
	int ref_pick(uint32_t kill) const
	{
		for (int p = 63; p >= 0; p--)
			for (int t : pend_[p])
				if (!(kill >> launches[t].chid & 1))
					return t;
		return -1;
	}

	// Reference eviction victim: every slot taken, the highest pending
	// priority above the lowest active task (ties: the youngest), or -1.
	// loose = true: the victim whether or not a higher priority is pending
	// (the table carries on with an eviction it has begun)
	int ref_evict(uint32_t kill, bool loose = false) const
	{
		int hi = -1, v = -1;
		// (loose: a slot the reference sees free may be taken by an activation
		// still reading its TMD)
		for (unsigned s = 0; s < S && !loose; s++)
			if (slot_task_[s] < 0)
				return -1;
		for (int p = 63; p >= 0 && hi < 0; p--)
			for (int t : pend_[p])
				if (!(kill >> launches[t].chid & 1)) {
					hi = p;
					break;
				}
		for (unsigned s = 0; s < S; s++) {
			int t = slot_task_[s];
			if (t < 0 || tasks[t].st != Task::ACTIVE || (kill >> launches[t].chid & 1) ||
			    tasks[t].exited == launches[t].tmd.ncta())
				continue;
			if (v < 0 || tasks[t].prio < tasks[v].prio ||
			    (tasks[t].prio == tasks[v].prio && tasks[t].stamp > tasks[v].stamp))
				v = t;
		}
		if (v < 0 || (!loose && (hi < 0 || unsigned(hi) <= tasks[v].prio)))
			return -1;
		return v;
	}

	// Reference dispatch: candidate task (or -1) and its CU (or -1).
	std::pair<int, int> ref_disp(uint32_t kill, const std::array<unsigned, 8> &fc) const
	{
		int best = -1;
		for (unsigned s = 0; s < S; s++) {
			int t = slot_task_[s];
			if (t < 0 || tasks[t].st != Task::ACTIVE)
				continue;
			const Task &r = tasks[t];
			const Launch &l = launches[t];
			if ((kill >> l.chid & 1) || r.evicting)
				continue;
			if (!r.jsaved &&
			    (r.next >= l.tmd.ncta() || unsigned(__builtin_popcount(r.jocc)) >= l.tmd[PPU_TMD_SAVE_CTAS]))
				continue;
			if (best < 0 || r.prio > tasks[best].prio ||
			    (r.prio == tasks[best].prio && r.stamp < tasks[best].stamp))
				best = t;
		}
		if (best < 0)
			return {-1, -1};
		unsigned need = std::min(launches[best].tmd.t(), CTX); // a CTA in waves: a whole unit
		int cu = -1;
		for (unsigned i = 0; i < NCU; i++)
			if (fc[i] >= need && (cu < 0 || fc[i] > fc[unsigned(cu)]))
				cu = int(i);
		return {best, cu};
	}

public:
	// Coverage of the decisions (printed with TB_TASKS_STATS=1).
	struct Cover {
		unsigned prio_ties = 0, cu_ties = 0, multi_cand = 0, k_full = 0, retries = 0, killed_ctas = 0,
			 activations = 0, dispatches = 0, exits = 0, completes = 0, faults = 0, preemptions = 0,
			 resumes = 0, evictions = 0, evict_preempts = 0;
	} cov;
	void stats(const char *name)
	{
		if (!getenv("TB_TASKS_STATS"))
			return;
		for (const Launch &l : launches)
			cov.retries += l.retries;
		unsigned ks = 0;
		for (const Task &t : tasks)
			ks += t.kills_seen;
		fprintf(stderr, "%s: %u kills accepted by CUs\n", name, ks);
		fprintf(stderr,
			"%s: %llu cycles, %zu launches (%u retries), %u activations, %u dispatches, %u exits "
			"(%u killed), %u completions, %zu faults; decisions with several candidates %u, priority "
			"ties %u, CU ties %u, tasks at k %u, %u preemptions, %u resumes, %u evictions\n",
			name, (unsigned long long)d.cyc, launches.size(), cov.retries, cov.activations, cov.dispatches,
			cov.exits, cov.killed_ctas, cov.completes, faults.size(), cov.multi_cand, cov.prio_ties,
			cov.cu_ties, cov.k_full, cov.preemptions, cov.resumes, cov.evictions);
	}

private:
	void cover_disp(uint32_t kill, const std::array<unsigned, 8> &fc, int best)
	{
		unsigned cands = 0, ties = 0;
		for (unsigned s = 0; s < S; s++) {
			int t = slot_task_[s];
			if (t < 0 || tasks[t].st != Task::ACTIVE || (kill >> launches[t].chid & 1))
				continue;
			const Launch &l = launches[t];
			if (tasks[t].next >= l.tmd.ncta())
				continue;
			if (unsigned(__builtin_popcount(tasks[t].jocc)) >= l.tmd[PPU_TMD_SAVE_CTAS]) {
				cov.k_full++;
				continue;
			}
			cands++;
			if (best >= 0 && t != best && tasks[t].prio == tasks[best].prio)
				ties++;
		}
		cov.multi_cand += cands > 1;
		cov.prio_ties += ties > 0;
		if (best >= 0) {
			unsigned need = std::min(launches[best].tmd.t(), CTX), top = 0, n = 0;
			for (unsigned i = 0; i < NCU; i++)
				if (fc[i] >= need && fc[i] > top)
					top = fc[i];
			for (unsigned i = 0; i < NCU; i++)
				n += fc[i] == top && top >= need;
			cov.cu_ties += n > 1;
		}
	}

	void on_trace(const Trace &tr)
	{
		if (getenv("TB_TASKS_TRACE"))
			fprintf(stderr, "%llu trace kind %u chid %u a %08x b %08x\n", (unsigned long long)tr.cyc,
				tr.kind, tr.chid, tr.a, tr.b);
		switch (tr.kind) {
		case PPU_TRACE_TASK_ACTIVATE: cov.activations++; break;
		case PPU_TRACE_CTA_DISPATCH: cov.dispatches++; break;
		case PPU_TRACE_CTA_PREEMPT: cov.preemptions++; break;
		case PPU_TRACE_CTA_RESUME: cov.resumes++; break;
		case PPU_TRACE_CTA_EXIT: cov.exits++; cov.killed_ctas += (tr.a >> 24) & 1; break;
		case PPU_TRACE_TASK_COMPLETE: cov.completes++; break;
		default: break;
		}
		on_trace_ref(tr);
	}

	void on_trace_ref(const Trace &tr)
	{
		uint64_t ev_cyc = tr.cyc - 1; // the record is registered
		unsigned tid = tr.a & 0xff;
		switch (tr.kind) {
		case PPU_TRACE_TASK_LAUNCH: {
			TB_CTX("tasks: TASK_LAUNCH at %llu", (unsigned long long)tr.cyc);
			TB_TRUE(host_cur_ >= 0 && host_accepted_);
			int t = host_cur_;
			const Launch &l = launches[t];
			unsigned prio = std::max(l.pmin, std::min(l.pmax, unsigned(l.tmd[PPU_TMD_PRIORITY] & 63)));
			TB_EQ(tr.chid, l.chid);
			TB_EQ((tr.a >> 8) & 0xff, prio);
			TB_EQ(tr.a >> 16, 1u);
			TB_EQ(tr.b, 0xffu);
			TB_TRUE(tid < NT);
			if (tid_task_[tid] >= 0) {
				// freed by a kill (untraced) and taken again
				int o = tid_task_[tid];
				TB_TRUE(kill_mask >> launches[o].chid & 1);
				TB_EQ(tasks[o].running, 0u);
				drop(o);
			}
			tid_task_[tid] = t;
			tasks[t].tid = tid;
			tasks[t].prio = prio;
			tasks[t].st = Task::PENDING;
			pend_[prio].push_back(t);
			break;
		}
		case PPU_TRACE_TASK_ACTIVATE: {
			TB_CTX("tasks: TASK_ACTIVATE at %llu, tid %u", (unsigned long long)tr.cyc, tid);
			int t = task_of_tid(tid);
			unsigned slot = (tr.a >> 8) & 0xff;
			TB_EQ(tasks[t].st, Task::PENDING);
			TB_EQ((tr.a >> 16) & 0xff, tasks[t].prio);
			TB_EQ(tr.b, launches[t].tmd_va);
			TB_EQ(tr.chid, launches[t].chid);
			// the head of the highest non-empty priority
			bool ok = ref_pick(kill_at(ev_cyc)) == t;
			if (!ok && kill_window) { // the pick may predate a kill
				uint64_t from = ev_cyc > 400 ? ev_cyc - 400 : 0;
				ok = ref_pick(kill_at(from)) == t;
				for (const auto &h : kill_hist_)
					if (h.first >= from && h.first <= ev_cyc && ref_pick(h.second) == t)
						ok = true;
			}
			if (!ok) {
				int w = ref_pick(kill_at(ev_cyc));
				TB_FAIL("%s: activated launch %d (chid %u prio %u), expected launch %d (chid %u prio %u), "
					"kill mask %x", tb_ctx_buf(), t, launches[t].chid, tasks[t].prio, w,
					w >= 0 ? launches[w].chid : 0, w >= 0 ? tasks[w].prio : 0, kill_at(ev_cyc));
			}
			// into the lowest free slot
			TB_TRUE(slot < S);
			if (!kill_window) {
				unsigned want = S;
				for (unsigned s = S; s-- > 0;)
					if (slot_task_[s] < 0)
						want = s;
				TB_EQ(slot, want);
			} else if (slot_task_[slot] >= 0) {
				int o = slot_task_[slot]; // freed by a kill: untraced
				TB_TRUE(kill_mask >> launches[o].chid & 1);
				TB_EQ(tasks[o].running, 0u);
				drop(o);
			}
			TB_TRUE(slot_task_[slot] < 0);
			auto &q = pend_[tasks[t].prio];
			q.erase(std::find(q.begin(), q.end(), t));
			slot_task_[slot] = t;
			tasks[t].slot = slot;
			tasks[t].st = Task::ACTIVE;
			tasks[t].stamp = stamp_++;
			if (tasks[t].evictions)
				tasks[t].react_cyc = ev_cyc;
			activations.push_back(unsigned(t));
			break;
		}
		case PPU_TRACE_CTA_DISPATCH: {
			TB_CTX("tasks: CTA_DISPATCH at %llu, tid %u", (unsigned long long)tr.cyc, tid);
			int t = task_of_tid(tid);
			unsigned j = (tr.a >> 8) & 0xff, cu = (tr.a >> 16) & 0xff;
			auto want = ref_disp(kill_at(ev_cyc), fc_hist_[ev_cyc % 64]);
			cover_disp(kill_at(ev_cyc), fc_hist_[ev_cyc % 64], want.first);
			if (want.first != t)
				TB_FAIL("%s: dispatched launch %d, expected launch %d", tb_ctx_buf(), t, want.first);
			TB_EQ(cu, unsigned(want.second));
			Task &r = tasks[t];
			TB_EQ(tr.b, r.next);
			TB_EQ(tr.chid, launches[t].chid);
			TB_EQ(r.jsaved, 0u); // resumes go first
			unsigned want_j = unsigned(__builtin_ctz(~r.jocc));
			TB_EQ(j, want_j);
			r.jocc |= 1u << j;
			r.jcta[j] = tr.b;
			r.next++;
			r.dispatches++;
			r.running++;
			unsigned n = unsigned(__builtin_popcount(r.jocc));
			if (n > max_resident[r.slot])
				max_resident[r.slot] = n;
			TB_TRUE(n <= launches[t].tmd[PPU_TMD_SAVE_CTAS]);
			disp_expect_.push_back({cu, t, j, tr.b, false});
			break;
		}
		case PPU_TRACE_CTA_RESUME: {
			TB_CTX("tasks: CTA_RESUME at %llu, tid %u", (unsigned long long)tr.cyc, tid);
			int t = task_of_tid(tid);
			unsigned j = (tr.a >> 8) & 0xff, cu = (tr.a >> 16) & 0xff;
			auto want = ref_disp(kill_at(ev_cyc), fc_hist_[ev_cyc % 64]);
			if (want.first != t)
				TB_FAIL("%s: resumed launch %d, expected launch %d", tb_ctx_buf(), t, want.first);
			TB_EQ(cu, unsigned(want.second));
			Task &r = tasks[t];
			TB_EQ(tr.chid, launches[t].chid);
			TB_TRUE(r.jsaved != 0);
			TB_EQ(j, unsigned(__builtin_ctz(r.jsaved))); // the lowest saved slot
			TB_EQ(tr.b, r.jcta[j]);
			r.jsaved &= ~(1u << j);
			r.running++;
			r.resumed++;
			disp_expect_.push_back({cu, t, j, tr.b, true});
			break;
		}
		case PPU_TRACE_CTA_PREEMPT: {
			TB_CTX("tasks: CTA_PREEMPT at %llu, tid %u", (unsigned long long)tr.cyc, tid);
			int t = task_of_tid(tid);
			unsigned j = (tr.a >> 8) & 0xff, cu = (tr.a >> 16) & 0xff;
			Task &r = tasks[t];
			TB_TRUE(j < 32 && (r.jocc >> j & 1) && !(r.jsaving >> j & 1) && !(r.jsaved >> j & 1));
			TB_EQ(tr.b, r.jcta[j]);
			TB_EQ(tr.chid, launches[t].chid);
			// for an eviction of its task (all of its CTAs go) ...
			auto want = ref_disp(kill_at(ev_cyc), fc_hist_[ev_cyc % 64]);
			bool rule6 = want.first >= 0 && want.second < 0 && r.prio < tasks[want.first].prio;
			if (!r.evicting && (ref_evict(kill_at(ev_cyc)) == t ||
					    (!rule6 && ref_evict(kill_at(ev_cyc), true) == t)))
				r.evicting = true;
			if (r.evicting)
				cov.evict_preempts++;
			// ... or for a candidate of higher priority that no CU fits
			if (!r.evicting) {
				TB_TRUE(want.first >= 0 && want.second < 0);
				if (r.prio >= tasks[want.first].prio)
					TB_FAIL("%s: preempted launch %d (prio %u) for launch %d (prio %u)", tb_ctx_buf(),
						t, r.prio, want.first, tasks[want.first].prio);
			}
			// the lowest priority running on its CU
			for (const Cta &x : cu_[cu])
				if (!r.evicting)
				if (!x.queued && !x.killed && !x.saving && tasks[x.task].prio < r.prio &&
				    !(kill_at(ev_cyc) >> launches[x.task].chid & 1))
					TB_FAIL("%s: preempted launch %d (prio %u) on CU %u, launch %d (prio %u) runs there",
						tb_ctx_buf(), t, r.prio, cu, x.task, tasks[x.task].prio);
			r.jsaving |= 1u << j;
			r.preempted++;
			preempt_expect_.insert(std::make_tuple(cu, t, tr.b));
			break;
		}
		case PPU_TRACE_TASK_EVICT: {
			TB_CTX("tasks: TASK_EVICT at %llu, tid %u", (unsigned long long)tr.cyc, tid);
			int t = task_of_tid(tid);
			Task &r = tasks[t];
			const Launch &l = launches[t];
			TB_EQ(r.st, Task::ACTIVE);
			TB_TRUE(r.evicting || ref_evict(kill_at(ev_cyc)) == t);
			TB_EQ((tr.a >> 8) & 0xff, r.slot);
			TB_EQ((tr.a >> 16) & 0x3f, r.prio);
			TB_EQ(tr.b, l.tmd_va);
			TB_EQ(tr.chid, l.chid);
			TB_EQ(r.running, 0u);
			// its progress, as written to the task block
			uint32_t hw = l.tmd[PPU_TMD_BLOCK_VA] + PPU_TASK_BLOCK_HW_STATE;
			TB_EQ(vr32(hw + PPU_TASK_HW_NEXT_CTA), r.next);
			TB_EQ(vr32(hw + PPU_TASK_HW_CTAS_EXITED), r.exited);
			TB_EQ(vr32(hw + PPU_TASK_HW_MAGIC), PPU_TASK_HW_MAGIC_BASE | r.tid);
			for (unsigned j = 0; j < 32; j++) {
				uint32_t wv = vr32(hw + PPU_TASK_HW_SLOT_STATE + 4 * (3 * j / 32));
				uint64_t w2 = wv | (uint64_t)vr32(hw + PPU_TASK_HW_SLOT_STATE + 4 * (3 * j / 32 + 1)) << 32;
				unsigned stv = unsigned(w2 >> (3 * j % 32)) & 7;
				TB_EQ(stv, (r.jsaved >> j & 1) ? unsigned(PPU_TASK_SLOT_SAVED) : unsigned(PPU_TASK_SLOT_FREE));
				if (r.jsaved >> j & 1)
					TB_EQ(vr32(l.tmd[PPU_TMD_BLOCK_VA] + PPU_TASK_BLOCK_SLOT_HDR + 16 * j), r.jcta[j]);
			}
			TB_EQ(r.jocc, r.jsaved);
			slot_task_[r.slot] = -1;
			r.st = Task::PENDING;
			r.evicting = false;
			r.evictions++;
			pend_[r.prio].push_front(t);
			cov.evictions++;
			break;
		}
		case PPU_TRACE_CTA_SAVED: {
			TB_CTX("tasks: CTA_SAVED at %llu, tid %u", (unsigned long long)tr.cyc, tid);
			TB_TRUE(!exit_expect_.empty());
			auto e = exit_expect_.front();
			exit_expect_.pop_front();
			int t = task_of_tid(tid);
			TB_EQ(t, e.second.task);
			TB_TRUE(e.second.saving && !e.second.killed);
			TB_EQ((tr.a >> 8) & 0xff, e.second.j);
			TB_EQ((tr.a >> 16) & 0xff, e.first);
			TB_EQ(tr.b, e.second.cta);
			Task &r = tasks[t];
			TB_TRUE(r.jsaving >> e.second.j & 1);
			r.jsaving &= ~(1u << e.second.j);
			r.jsaved |= 1u << e.second.j;
			r.running--;
			break;
		}
		case PPU_TRACE_CTA_EXIT: {
			TB_CTX("tasks: CTA_EXIT at %llu, tid %u", (unsigned long long)tr.cyc, tid);
			TB_TRUE(!exit_expect_.empty());
			auto e = exit_expect_.front();
			exit_expect_.pop_front();
			int t = task_of_tid(tid);
			TB_EQ(t, e.second.task);
			TB_EQ((tr.a >> 8) & 0xff, e.second.j);
			TB_EQ((tr.a >> 16) & 0xff, e.first);
			TB_EQ((tr.a >> 24) & 1, e.second.killed ? 1u : 0u);
			TB_EQ(tr.b, e.second.cta);
			Task &r = tasks[t];
			TB_TRUE(!e.second.saving || e.second.killed);
			TB_TRUE(r.jocc >> e.second.j & 1);
			r.jocc &= ~(1u << e.second.j);
			r.jsaving &= ~(1u << e.second.j);
			r.running--;
			if (!e.second.killed) {
				r.exited++;
				r.last_exit_cyc = ev_cyc;
			} else {
				r.killed_ctas = true;
			}
			break;
		}
		case PPU_TRACE_TASK_COMPLETE: {
			TB_CTX("tasks: TASK_COMPLETE at %llu, tid %u", (unsigned long long)tr.cyc, tid);
			int t = task_of_tid(tid);
			Task &r = tasks[t];
			const Launch &l = launches[t];
			TB_EQ(r.st, Task::ACTIVE);
			TB_EQ(r.exited, l.tmd.ncta());
			TB_EQ(r.running, 0u);
			TB_EQ(r.jsaved, 0u);
			TB_TRUE(!r.killed_ctas);
			TB_EQ((tr.a >> 8) & 0xff, r.slot);
			TB_EQ((tr.a >> 16) & 0xff, l.tmd[PPU_TMD_FLAGS] & 0xff);
			TB_EQ(tr.b, l.tmd_va);
			TB_EQ(r.releases, (l.tmd[PPU_TMD_FLAGS] & F_SEM) ? 1u : 0u);
			r.st = Task::DONE;
			r.done_cyc = ev_cyc;
			slot_task_[r.slot] = -1;
			tid_task_[tid] = -1;
			if (l.tmd[PPU_TMD_FLAGS] & F_INTR)
				nonstall_expect_[l.chid]++;
			break;
		}
		case PPU_TRACE_LAUNCH_FAIL: {
			TB_CTX("tasks: LAUNCH_FAIL at %llu", (unsigned long long)tr.cyc);
			TB_TRUE(host_cur_ >= 0);
			TB_TRUE(tr.a == ST_RETRY || tr.a == ST_FAULTED);
			TB_EQ(tr.b, launches[host_cur_].tmd_va);
			TB_EQ(tr.chid, launches[host_cur_].chid);
			fail_expect_ = int(tr.a);
			break;
		}
		default:
			TB_FAIL("%s: unexpected trace kind %u", tb_ctx_buf(), tr.kind);
		}
	}

	uint32_t vr32(uint32_t va) { return mem.r32(PageMap::sys_of(va), PageMap::pa(va)); }

	void drop(int t)
	{
		Task &r = tasks[t];
		if (r.st == Task::ACTIVE)
			slot_task_[r.slot] = -1;
		if (r.st == Task::PENDING) {
			auto &q = pend_[r.prio];
			q.erase(std::find(q.begin(), q.end(), t));
		}
		if (r.st == Task::PENDING || r.st == Task::ACTIVE)
			tid_task_[r.tid] = -1;
		r.st = Task::DROPPED;
	}

public:
	// A killed channel is clear: drop what the reference still holds of it.
	void drop_channel(unsigned chid)
	{
		for (std::size_t t = 0; t < tasks.size(); t++)
			if (launches[t].chid == chid && (tasks[t].st == Task::PENDING || tasks[t].st == Task::ACTIVE)) {
				TB_EQ(tasks[t].running, 0u);
				drop(int(t));
			}
	}
	unsigned nonstall_expected(unsigned c) const { return nonstall_expect_[c]; }

private:
	struct DispExp {
		unsigned cu;
		int task;
		unsigned j;
		uint32_t cta;
		bool resume;
	};
	std::deque<DispExp> disp_expect_;
	std::set<std::tuple<unsigned, int, uint32_t>> preempt_expect_; // (CU, launch, CTA) traced, not yet sent
	std::set<std::tuple<unsigned, int, uint32_t>> accepted_; // (CU, launch, CTA)
	int fail_expect_ = -1;
	unsigned nonstall_expect_[NC] = {};

	void check_disp(unsigned cu)
	{
		TB_TRUE(!disp_expect_.empty());
		DispExp e = disp_expect_.front();
		disp_expect_.pop_front();
		TB_CTX("tasks: dispatch of launch %d CTA %u to CU %u at %llu", e.task, e.cta, cu,
		       (unsigned long long)d.cyc);
		TB_EQ(cu, e.cu);
		const Launch &l = launches[e.task];
		const Task &r = tasks[e.task];
		const Tmd &m = l.tmd;
		const auto &p = d->disp;
		TB_EQ(get(p, lay::disp::tslot), r.slot);
		TB_EQ(get(p, lay::disp::tid), r.tid);
		TB_EQ(get(p, lay::disp::chid), l.chid);
		TB_EQ(get(p, lay::disp::root_ppn), l.root_ppn);
		TB_EQ(get(p, lay::disp::root_sys), l.root_sys);
		TB_EQ(get(p, lay::disp::cta_id), e.cta);
		TB_EQ(get(p, lay::disp::nthreads), m.t());
		TB_EQ(get(p, lay::disp::entry_pc), m[PPU_TMD_ENTRY_PC]);
		TB_EQ(get(p, lay::disp::param), m[PPU_TMD_PARAM_PTR]);
		uint32_t stack = m[PPU_TMD_STACK_BYTES];
		uint32_t kk = m[PPU_TMD_SAVE_CTAS];
		uint32_t sva = m[PPU_TMD_BLOCK_VA] + 0x280 + kk * m.t() * 128 + e.j * m.t() * stack;
		TB_EQ(get(p, lay::disp::stack_va), sva);
		TB_EQ(get(p, lay::disp::stack_log2), stack ? log2u(stack) : 0);
		TB_EQ(get(p, lay::disp::cta_x), m[PPU_TMD_CTA_X]);
		TB_EQ(get(p, lay::disp::cta_y), m[PPU_TMD_CTA_Y]);
		TB_EQ(get(p, lay::disp::cta_z), m[PPU_TMD_CTA_Z]);
		TB_EQ(get(p, lay::disp::grid_x), m[PPU_TMD_GRID_X]);
		TB_EQ(get(p, lay::disp::grid_y), m[PPU_TMD_GRID_Y]);
		TB_EQ(get(p, lay::disp::grid_z), m[PPU_TMD_GRID_Z]);
		TB_EQ(get(p, lay::disp::ncta), m.ncta());
		TB_EQ(get(p, lay::disp::prio), r.prio);
		TB_EQ(get(p, lay::disp::depth), 1);
		TB_EQ(get(p, lay::disp::maxdepth), l.maxd ? l.maxd : 1);
		TB_EQ(get(p, lay::disp::resume), e.resume ? 1u : 0u);
		TB_EQ(get(p, lay::disp::save_va), m[PPU_TMD_BLOCK_VA] + 0x280 + e.j * m.t() * 128);
		// the CU has room (never over-subscribed)
		TB_TRUE(free_of(cu) >= std::min(m.t(), CTX));
		accepted_.insert(std::make_tuple(cu, e.task, e.cta));
		Cta c;
		c.tslot = r.slot;
		c.cta = e.cta;
		c.n = std::min(m.t(), CTX);
		c.done_at = d.cyc + k.hold_min + rng.below(k.hold_max - k.hold_min + 1);
		c.task = e.task;
		c.j = e.j;
		cu_[cu].push_back(c);
	}

	void sample()
	{
		uint64_t c = d.cyc;
		TB_CTX("tasks: cycle %llu", (unsigned long long)c);

		// 0. drain_valid names the one channel whose last id was freed at
		// the last edge (chan_live fell), and comes for no other change
		{
			int fell = -1;
			for (unsigned ch = 0; ch < NC; ch++) {
				bool live = get(d->chan_live, Field{ch, 1});
				if (prev_live_[ch] && !live) {
					TB_TRUE(fell < 0);
					fell = int(ch);
				}
				prev_live_[ch] = live;
			}
			TB_EQ(d->drain_valid, fell >= 0);
			if (fell >= 0)
				TB_EQ(d->drain_ch, unsigned(fell));
		}

		// 1. the trace record (an event of the previous cycle)
		if (get(d->trace, tp::trace::valid)) {
			Trace tr{c, unsigned(get(d->trace, tp::trace::kind)), unsigned(get(d->trace, tp::trace::chid)),
				 uint32_t(get(d->trace, tp::trace::a)), uint32_t(get(d->trace, tp::trace::b))};
			traces.push_back(tr);
			on_trace(tr);
			if (tr.kind == PPU_TRACE_TASK_COMPLETE)
				perf_complete_expect_++;
		}
		TB_CTX("tasks: cycle %llu", (unsigned long long)c);

		// 2. host launch port
		if (d->cl_valid && d->cl_ready) {
			TB_TRUE(!host_accepted_);
			host_accepted_ = true;
			host_wait_accept_ = false;
			fail_expect_ = -1;
		}
		if (d->cl_rsp_valid) {
			TB_TRUE(host_cur_ >= 0 && host_accepted_);
			Launch &l = launches[host_cur_];
			l.status = int(d->cl_rsp_status);
			l.rsp_cyc = c;
			if (l.status == ST_OK) {
				l.tid = d->cl_rsp_tid;
				TB_EQ(tasks[host_cur_].st, Task::PENDING);
				TB_EQ(tasks[host_cur_].tid, l.tid);
				host_cur_ = -1;
			} else {
				TB_EQ(fail_expect_, l.status);
				if (l.status == ST_RETRY) {
					l.retries++;
					host_accepted_ = false;
					host_wait_accept_ = true;
				} else {
					tasks[host_cur_].st = Task::FAILED;
					host_cur_ = -1;
				}
			}
		}

		// 3. MMU, memory, semaphore unit, faults
		x_hold_.sample("x_req", d->x_req_valid, d->x_req_ready, d->x_req);
		if (d->x_req_valid && d->x_req_ready) {
			TB_EQ(x_out_, 0);
			uint32_t va = uint32_t(get(d->x_req, tp::xreq::va));
			TB_EQ(get(d->x_req, tp::xreq::access), tp::ACC_READ);
			// TMD (whole, or 0x20..0x2f), HW state (block + 0x40), slot headers (16 B)
			TB_TRUE((va & 15) == 0);
			x_q_.push(c, k.x_lat, XP{va});
			x_out_++;
		}
		rd_hold_.sample("rd", d->rd_valid, d->rd_ready, d->rd_pa);
		if (d->rd_valid && d->rd_ready) {
			int sys = int(get(d->rd_pa, tp::paddr::sys));
			uint64_t pa = get(d->rd_pa, tp::paddr::addr);
			uint32_t va;
			TB_TRUE((pa & 7) == 0);
			TB_TRUE(PageMap::va_of(sys, pa, &va));
			rd_q_.push(c, k.rd_lat, RP{sys, pa});
		}
		sem_hold_.sample("sem", d->sem_valid, d->sem_ready, d->sem_req);
		if (d->sem_valid && d->sem_ready) {
			TB_EQ(sem_out_, 0);
			Release r;
			r.cyc = c;
			r.va = uint32_t(get(d->sem_req, tp::sreq::va));
			r.payload = uint32_t(get(d->sem_req, tp::sreq::payload));
			TB_EQ(get(d->sem_req, tp::sreq::payload) >> 32, 0);
			r.chid = unsigned(get(d->sem_req, tp::sreq::chid));
			uint32_t ex = uint32_t(get(d->sem_req, tp::sreq::exec));
			r.op = PPU_FGET(PPU_SEM_EXECUTE_OPERATION, ex);
			r.size = PPU_FGET(PPU_SEM_EXECUTE_PAYLOAD_SIZE, ex);
			r.ts = PPU_FGET(PPU_SEM_EXECUTE_RELEASE_TIMESTAMP, ex);
			TB_EQ(get(d->sem_req, tp::sreq::rid), 0);
			// an eviction writing an active task's progress to its block?
			int evt = -1;
			for (unsigned s = 0; s < S; s++) {
				int t = slot_task_[s];
				if (t < 0)
					continue;
				uint32_t b = launches[t].tmd[PPU_TMD_BLOCK_VA];
				if ((r.va >= b + PPU_TASK_BLOCK_HW_STATE && r.va < b + PPU_TASK_BLOCK_HW_STATE + 0x18) ||
				    (r.va >= b + PPU_TASK_BLOCK_SLOT_HDR && r.va < b + PPU_TASK_BLOCK_RECORDS &&
				     (r.va & 15) == 0))
					evt = t;
			}
			if (evt >= 0) {
				TB_CTX("tasks: eviction write of launch %d at %08x", evt, r.va);
				TB_EQ(r.op, PPU_SEM_EXECUTE_OPERATION_RELEASE);
				TB_EQ(r.size, PPU_SEM_EXECUTE_PAYLOAD_SIZE_32BIT);
				TB_EQ(r.ts, 0u);
				TB_EQ(r.chid, launches[evt].chid);
				TB_EQ(tasks[evt].running, 0u);
				// the victim: the lowest-priority active task, the youngest of them
				if (!tasks[evt].evicting)
					TB_EQ(ref_evict(kill_at(c), true), evt);
				tasks[evt].evicting = true;
				mem.w32(PageMap::sys_of(r.va), PageMap::pa(r.va), r.payload);
				sem_q_.push(c, k.sem_lat, SP{0});
				sem_out_++;
				goto sem_done;
			}
			// whose release: the active task with this semaphore
			r.task = -1;
			for (unsigned s = 0; s < S; s++) {
				int t = slot_task_[s];
				if (t >= 0 && launches[t].tmd[PPU_TMD_SEM_ADDR] == r.va)
					r.task = t;
			}
			if (r.task < 0)
				TB_FAIL("%s: release of %08x by no active task", tb_ctx_buf(), r.va);
			const Launch &l = launches[r.task];
			Task &t = tasks[r.task];
			TB_EQ(r.op, PPU_SEM_EXECUTE_OPERATION_RELEASE);
			TB_EQ(r.size, PPU_SEM_EXECUTE_PAYLOAD_SIZE_32BIT);
			TB_EQ(r.ts, (l.tmd[PPU_TMD_FLAGS] & F_TS) ? 1u : 0u);
			TB_EQ(r.payload, l.tmd[PPU_TMD_SEM_PAYLOAD]);
			TB_EQ(r.chid, l.chid);
			TB_EQ(get(d->sem_req, tp::sreq::root_ppn), l.root_ppn);
			TB_EQ(get(d->sem_req, tp::sreq::root_sys), l.root_sys);
			TB_TRUE(l.tmd[PPU_TMD_FLAGS] & F_SEM);
			TB_EQ(t.exited, l.tmd.ncta());
			TB_EQ(t.running, 0u);
			t.releases++;
			t.release_cyc = c;
			releases.push_back(r);
			sem_q_.push(c, k.sem_lat, SP{sem_fault_va.count(r.va) ? unsigned(PPU_FAULT_KIND_SEM_UNALIGNED) : 0u});
			sem_out_++;
		}
	sem_done:
		xf_hold_.sample("xf", d->xf_valid, d->xf_ready, d->xf);
		if (d->xf_valid && d->xf_ready) {
			Fault f{c,
				unsigned(get(d->xf, lay::fault::chid)),
				unsigned(get(d->xf, lay::fault::kind)),
				unsigned(get(d->xf, lay::fault::unit)),
				unsigned(get(d->xf, lay::fault::access)),
				uint32_t(get(d->xf, lay::fault::addr)),
				uint32_t(get(d->xf, lay::fault::data))};
			faults.push_back(f);
			// an active or pending task that faults is dropped
			for (std::size_t t = 0; t < tasks.size(); t++) {
				const Launch &l = launches[t];
				bool mine = f.chid == l.chid &&
					    ((f.addr - l.tmd_va < 64) || (f.unit == PPU_FAULT_UNIT_SEM && f.data == l.tmd_va));
				if (mine && (tasks[t].st == Task::ACTIVE || tasks[t].st == Task::PENDING)) {
					TB_EQ(tasks[t].running, 0u);
					drop(int(t));
					tasks[t].st = Task::FAILED;
				}
			}
		}

		// 4. dispatch hand-off, one CU at a time
		uint32_t dv = uint32_t(get(d->disp_valid, Field{0, NCU}));
		TB_TRUE((dv & (dv - 1)) == 0);
		disp_hold_.sample("disp", dv != 0, (dv & d->disp_ready) != 0, d->disp);
		if (last_disp_valid_ && !(last_disp_accepted_))
			TB_EQ(dv, last_disp_valid_);
		last_disp_valid_ = dv;
		last_disp_accepted_ = false;
		for (unsigned i = 0; i < NCU; i++)
			if ((dv >> i & 1) && (d->disp_ready >> i & 1)) {
				bool resume = !disp_expect_.empty() && disp_expect_.front().resume;
				check_disp(i);
				last_disp_accepted_ = true;
				if (resume)
					perf_resume_expect_++;
				else
					perf_dispatch_expect_++;
			}
		if (d->perf_dispatch)
			perf_dispatch++;
		if (d->perf_resume)
			perf_resume++;
		if (d->perf_preempt)
			perf_preempt++;
		if (d->perf_evict)
			perf_evict++;

		// 5. CTA events
		if (d->ev_valid && d->ev_ready) {
			auto &v = cu_[ev_cu_];
			auto it = std::find_if(v.begin(), v.end(), [&](const Cta &x) {
				return x.tslot == ev_cta_.tslot && x.cta == ev_cta_.cta;
			});
			TB_TRUE(it != v.end());
			exit_expect_.push_back({ev_cu_, *it});
			v.erase(it);
			ev_pres_ = false;
		}

		// 6. kills
		uint32_t kv = uint32_t(get(d->kill_valid, Field{0, NCU}));
		TB_TRUE((kv & (kv - 1)) == 0);
		kill_hold_.sample("kill", kv != 0, (kv & d->kill_ready) != 0, d->kill);
		for (unsigned i = 0; i < NCU; i++)
			if ((kv >> i & 1) && (d->kill_ready >> i & 1)) {
				unsigned ts = unsigned(get(d->kill, lay::kill::tslot));
				uint32_t cta = uint32_t(get(d->kill, lay::kill::cta_id));
				bool save = get(d->kill, lay::kill::save) != 0;
				TB_TRUE(ts < S && slot_task_[ts] >= 0);
				// only for a CTA this CU has accepted (it may have exited since)
				if (!accepted_.count(std::make_tuple(i, slot_task_[ts], cta)))
					TB_FAIL("%s: %s of CTA %u of launch %d on CU %u, which never got it", tb_ctx_buf(),
						save ? "preemption" : "kill", cta, slot_task_[ts], i);
				if (save) {
					// the one traced before
					auto key = std::make_tuple(i, slot_task_[ts], cta);
					TB_TRUE(preempt_expect_.count(key) == 1);
					preempt_expect_.erase(key);
					for (Cta &x : cu_[i])
						if (x.tslot == ts && x.cta == cta && !x.queued && !x.killed && !x.saving) {
							x.saving = true;
							x.done_at = c + 1 + rng.below(k.kill_delay * 4);
						}
					continue;
				}
				TB_TRUE(kill_mask >> launches[slot_task_[ts]].chid & 1);
				tasks[slot_task_[ts]].kills_seen++;
				for (Cta &x : cu_[i])
					if (x.tslot == ts && x.cta == cta && !x.queued && !x.killed) {
						x.killed = true;
						x.done_at = c + 1 + rng.below(k.kill_delay);
					}
			}

		// 7. pulses
		for (unsigned ch = 0; ch < NC; ch++)
			if (get(d->nonstall, Field{ch, 1}))
				nonstall_cnt[ch]++;
		if (d->perf_launch)
			perf_launch++;
		if (d->perf_complete)
			perf_complete++;
		if (d->icache_inv)
			icache_inv++;

		// 8. the table must not sit on a dispatch the reference can make
		std::array<unsigned, 8> fc = fc_hist_[c % 64];
		auto want = ref_disp(kill_mask, fc);
		// (an eviction the table has decided takes the task out of dispatch
		// before the reference sees it)
		// (nor can a re-activated task dispatch before its progress is read back:
		// 3 beats and a beat per saved slot, each read translated)
		bool reading = want.first >= 0 && tasks[want.first].evictions &&
			       c < tasks[want.first].react_cyc +
				       (k.x_lat + k.rd_lat + 8) * 4 * (2 + __builtin_popcount(tasks[want.first].jsaved));
		if (want.first >= 0 && want.second >= 0 && dv == 0 && !reading &&
		    ref_evict(kill_mask) != want.first && ref_evict(kill_mask, true) != want.first) {
			if (++idle_disp_ > 64)
				TB_FAIL("%s: launch %d can be dispatched to CU %d but nothing happens", tb_ctx_buf(),
					want.first, want.second);
		} else {
			idle_disp_ = 0;
		}
	}
	bool last_disp_accepted_ = false;
	unsigned perf_dispatch_expect_ = 0, perf_complete_expect_ = 0, perf_resume_expect_ = 0;

public:
	unsigned perf_resume_expected() const { return perf_resume_expect_; }
	unsigned preemptions_traced() const { return cov.preemptions; }
	unsigned perf_dispatch_expected() const { return perf_dispatch_expect_; }
	unsigned perf_complete_expected() const { return perf_complete_expect_; }
};

typedef Env<Vppu_tasks, CfgBig> Big;
typedef Env<Vppu_tasks_min, CfgMin> Small;

template <class E> void final_checks(E &e)
{
	e.check_tasks();
	TB_CTX("tasks: final counters");
	TB_EQ(e.perf_dispatch, e.perf_dispatch_expected());
	TB_EQ(e.perf_complete, e.perf_complete_expected());
	TB_EQ(e.perf_resume, e.perf_resume_expected());
	TB_EQ(e.perf_preempt, e.preemptions_traced());
	TB_EQ(e.perf_evict, e.cov.evictions);
	unsigned ok = 0;
	for (const Launch &l : e.launches)
		ok += l.status == ST_OK;
	TB_EQ(e.perf_launch, ok);
	for (unsigned c = 0; c < E::NC; c++)
		TB_EQ(e.nonstall_cnt[c], e.nonstall_expected(c));
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

// One task from launch to completion: every output checked, the debug port
// in each state.
START_TEST(launch_one)
{
	Big e(1);
	Tmd m = valid_tmd(1, 5, 3, 2, 256, F_SEM | F_INTR);
	m[PPU_TMD_PRIORITY] = 9;
	int t = e.launch(3, m, 0, 63, 7);
	e.cu_hold = true;
	e.run_until([&] { return e.tasks[t].dispatches == 2; }, 2000, "two CTAs");
	TB_CTX("launch_one");
	TB_EQ(e.launches[t].status, ST_OK);
	unsigned tid = e.launches[t].tid;
	TB_EQ(e.dbg_read(tid, lay::dbg::state), DS_ACTIVE);
	TB_EQ(e.dbg_read(tid, lay::dbg::chid), 3);
	TB_EQ(e.dbg_read(tid, lay::dbg::prio), 9);
	TB_EQ(e.dbg_read(tid, lay::dbg::depth), 1);
	TB_EQ(e.dbg_read(tid, lay::dbg::slot_valid), 1);
	TB_EQ(e.dbg_read(tid, lay::dbg::tslot), 0);
	TB_EQ(e.dbg_read(tid, lay::dbg::next_cta), 2);
	TB_EQ(e.dbg_read(tid, lay::dbg::exited), 0);
	TB_EQ(e.dbg_read(tid, lay::dbg::tmd_va), e.launches[t].tmd_va);
	TB_EQ(e.dbg_read(tid, lay::dbg::has_parent), 0);
	TB_EQ(get(e.d->chan_live, Field{3, 1}), 1);
	TB_EQ(get(e.d->chan_clear, Field{3, 1}), 0);
	e.run(100); // k = 2: no third CTA while two are resident
	TB_EQ(e.tasks[t].dispatches, 2u);
	e.cu_hold = false;
	e.drain();
	final_checks(e);
	TB_CTX("launch_one");
	TB_EQ(e.releases.size(), 1u);
	TB_EQ(e.releases[0].va, m[PPU_TMD_SEM_ADDR]);
	TB_EQ(e.nonstall_cnt[3], 1u);
	TB_EQ(e.tasks[t].dispatches, 5u);
	// trace: launch, activate, 5 dispatches, 5 exits, complete
	unsigned n[32] = {};
	for (const Trace &r : e.traces)
		n[r.kind & 31]++;
	TB_EQ(n[PPU_TRACE_TASK_LAUNCH], 1u);
	TB_EQ(n[PPU_TRACE_TASK_ACTIVATE], 1u);
	TB_EQ(n[PPU_TRACE_CTA_DISPATCH], 5u);
	TB_EQ(n[PPU_TRACE_CTA_EXIT], 5u);
	TB_EQ(n[PPU_TRACE_TASK_COMPLETE], 1u);
	TB_EQ(e.dbg_read(tid, lay::dbg::state), DS_FREE);
	TB_EQ(e.icache_inv, 0u);
}
END_TEST

// FLAGS: no release, timestamped release, interrupt, icache invalidate.
START_TEST(completion_flags)
{
	Big e(2);
	int a = e.launch(0, valid_tmd(1, 2, 1, 1, 0, 0));
	int b = e.launch(1, valid_tmd(2, 2, 1, 1, 0, F_SEM | F_TS));
	int c = e.launch(2, valid_tmd(3, 2, 1, 1, 0, F_INTR | F_ICINV));
	int d = e.launch(2, valid_tmd(4, 1, 8, 1, 64, F_SEM | F_TS | F_INTR | F_WORK));
	e.drain();
	final_checks(e);
	TB_CTX("completion_flags");
	TB_EQ(e.tasks[a].releases, 0u);
	TB_EQ(e.tasks[b].releases, 1u);
	TB_EQ(e.tasks[c].releases, 0u);
	TB_EQ(e.tasks[d].releases, 1u);
	TB_EQ(e.nonstall_cnt[2], 2u);
	TB_EQ(e.nonstall_cnt[0] + e.nonstall_cnt[1], 0u);
	TB_EQ(e.icache_inv, 1u);
	for (const Release &r : e.releases)
		TB_EQ(r.ts, 1u);
}
END_TEST

// PRIO is clamped to the channel's [min, max]; the clamped value is the
// task's priority everywhere (trace, dispatch, debug).
START_TEST(prio_clamp)
{
	Big e(3);
	e.cu_paused = true;
	Tmd lo = valid_tmd(1), hi = valid_tmd(2), in = valid_tmd(3);
	lo[PPU_TMD_PRIORITY] = 2 | (33 << 8);   // depth bits are ignored
	hi[PPU_TMD_PRIORITY] = 60;
	in[PPU_TMD_PRIORITY] = 0xffff0000u | 20; // so are the other bits
	int a = e.launch(4, lo, 10, 30);
	int b = e.launch(4, hi, 10, 30);
	int c = e.launch(4, in, 10, 30);
	e.run_until([&] { return e.host_idle(); }, 2000, "launches");
	TB_CTX("prio_clamp");
	TB_EQ(e.tasks[a].prio, 10u);
	TB_EQ(e.tasks[b].prio, 30u);
	TB_EQ(e.tasks[c].prio, 20u);
	TB_EQ(e.dbg_read(e.launches[a].tid, lay::dbg::prio), 10);
	TB_EQ(e.dbg_read(e.launches[b].tid, lay::dbg::prio), 30);
	TB_EQ(e.dbg_read(e.launches[a].tid, lay::dbg::depth), 1);
	e.cu_paused = false;
	e.drain();
	final_checks(e); // the dispatch payload carries the clamped prio
}
END_TEST

// Activation: with the slots full, tasks queued at many priorities are
// activated highest priority first, in launch order within a priority.
START_TEST(activation_order)
{
	Big e(4);
	e.cu_paused = true;
	e.d->no_evict = 1; // (eviction_order below: with eviction)
	unsigned seq = 1;
	for (unsigned i = 0; i < 8; i++) // fill the slots
		e.launch(i % 16, valid_tmd(seq++, 1, 8, 1, 0));
	e.run_until([&] { return e.activations.size() == 8; }, 5000, "8 activations");
	std::vector<std::pair<unsigned, int>> want; // (prio, launch)
	for (unsigned i = 0; i < 40; i++) {
		Tmd m = valid_tmd(seq++, 1, 8, 1, 0);
		unsigned p = e.rng.below(5) * 7;
		m[PPU_TMD_PRIORITY] = p;
		int t = e.launch(e.rng.below(16), m);
		want.push_back({p, t});
	}
	e.run_until([&] { return e.host_idle(); }, 20000, "launches");
	TB_CTX("activation_order");
	TB_EQ(e.activations.size(), 8u);
	e.cu_paused = false;
	e.drain();
	final_checks(e);
	std::stable_sort(want.begin(), want.end(),
			 [](const std::pair<unsigned, int> &x, const std::pair<unsigned, int> &y) { return x.first > y.first; });
	// each slot frees one at a time (one CU fits one 8-thread CTA each)
	// so the order of activations after the first 8 is the sorted order,
	// except that a task launched later cannot pass one already active
	TB_CTX("activation_order: order");
	TB_EQ(e.activations.size(), 48u);
	for (unsigned i = 0; i < 40; i++)
		TB_EQ(e.activations[8 + i], unsigned(want[i].second));
}
END_TEST

// Eviction order: with every slot taken, each launch above the lowest
// active task evicts it, lowest priority first and the youngest of equal
// ones; evicted tasks keep their place at the head of their list, and
// everything completes.  With NO_EVICT nothing is evicted.
START_TEST(eviction_order)
{
	for (int no_evict = 0; no_evict < 2; no_evict++) {
		Big e(5 + unsigned(no_evict));
		e.cu_paused = true;
		e.d->no_evict = unsigned(no_evict);
		static const unsigned prio[8] = {3, 1, 4, 1, 5, 9, 2, 6};
		unsigned seq = 1;
		for (unsigned i = 0; i < 8; i++) {
			Tmd m = valid_tmd(seq++, 2, 8, 1, 0);
			m[PPU_TMD_PRIORITY] = prio[i];
			e.launch(i, m);
		}
		e.run_until([&] { return e.activations.size() == 8; }, 5000, "8 activations");
		for (unsigned i = 0; i < 3; i++) {
			Tmd m = valid_tmd(seq++, 1, 8, 1, 0);
			m[PPU_TMD_PRIORITY] = 20;
			e.launch(8 + i, m);
		}
		e.run_until([&] { return e.host_idle(); }, 20000, "launches");
		e.run(3000);
		std::vector<unsigned> evicted;
		for (const Trace &tr : e.traces)
			if (tr.kind == PPU_TRACE_TASK_EVICT)
				evicted.push_back(tr.chid);
		TB_CTX("eviction_order, no_evict %d", no_evict);
		if (no_evict) {
			TB_EQ(evicted.size(), 0u);
		} else {
			TB_EQ(evicted.size(), 3u);
			TB_EQ(evicted[0], 3u); // priority 1, the younger
			TB_EQ(evicted[1], 1u); // priority 1
			TB_EQ(evicted[2], 6u); // priority 2
		}
		e.cu_paused = false;
		e.drain();
		final_checks(e);
	}
}
END_TEST

// Dispatch priority: a high-priority task's CTAs go first; low-priority
// CTAs only fill what the high-priority one cannot use.
START_TEST(dispatch_priority)
{
	Big e(5);
	e.cu_paused = true;
	Tmd low = valid_tmd(1, 40, 2, 16, 0);
	low[PPU_TMD_PRIORITY] = 1;
	Tmd mid = valid_tmd(2, 20, 4, 8, 0);
	mid[PPU_TMD_PRIORITY] = 5;
	Tmd high = valid_tmd(3, 12, 8, 4, 0);
	high[PPU_TMD_PRIORITY] = 40;
	int a = e.launch(0, low), b = e.launch(1, mid), c = e.launch(2, high);
	e.run_until([&] { return e.activations.size() == 3; }, 5000, "activations");
	e.cu_paused = false;
	e.k.hold_min = 20;
	e.k.hold_max = 60;
	e.drain();
	final_checks(e);
	TB_CTX("dispatch_priority");
	// the high-priority task's CTAs are all dispatched before any other
	// task's CTA once it is active (one of the low one's may have been
	// decided before: it waits in the dispatch register while paused)
	uint64_t last_high = 0, first_other = ~0ull, act_high = 0;
	for (const Trace &r : e.traces)
		if (r.kind == PPU_TRACE_TASK_ACTIVATE && (r.a & 0xff) == e.launches[c].tid)
			act_high = r.cyc;
	for (const Trace &r : e.traces)
		if (r.kind == PPU_TRACE_CTA_DISPATCH && r.cyc > act_high) {
			unsigned tid = r.a & 0xff;
			if (tid == e.launches[c].tid && r.cyc > last_high)
				last_high = r.cyc;
			else if (tid != e.launches[c].tid && r.cyc < first_other)
				first_other = r.cyc;
		}
	TB_TRUE(last_high < first_other);
	TB_TRUE(e.tasks[a].st == Task::DONE && e.tasks[b].st == Task::DONE);
}
END_TEST

// Placement: CTAs of mixed sizes; the reference checks every choice (most
// free contexts that fit, lowest index) and that no CU is over-subscribed.
START_TEST(placement)
{
	Big e(6);
	e.k.hold_min = 10;
	e.k.hold_max = 200;
	unsigned seq = 1;
	for (unsigned i = 0; i < 30; i++) {
		Tmd m = valid_tmd(seq++, 1 + e.rng.below(12), 1 + e.rng.below(8), 1 + e.rng.below(8), 0);
		m[PPU_TMD_PRIORITY] = e.rng.below(3);
		e.launch(e.rng.below(4), m);
	}
	e.drain();
	final_checks(e);
}
END_TEST

// k limits the CTAs of a task that are started and not finished.
START_TEST(save_slot_limit)
{
	Big e(7);
	e.k.hold_min = 30;
	e.k.hold_max = 80;
	int a = e.launch(0, valid_tmd(1, 30, 1, 1, 1024));
	int b = e.launch(1, valid_tmd(2, 30, 2, 3, 64));
	e.drain();
	final_checks(e);
	TB_CTX("save_slot_limit");
	TB_EQ(e.max_resident[e.tasks[a].slot], 1u);
	TB_EQ(e.max_resident[e.tasks[b].slot], 3u);
}
END_TEST

// RETRY once every id is taken; accepted again after completions.
START_TEST(retry_when_full)
{
	Big e(8);
	e.cu_paused = true;
	unsigned seq = 1;
	for (unsigned i = 0; i < 64; i++)
		e.launch(i % 16, valid_tmd(seq++, 1, 1, 1, 0));
	e.run_until([&] { return e.host_idle(); }, 20000, "64 launches");
	TB_CTX("retry_when_full");
	TB_EQ(e.d->can_accept, 0);
	int x = e.launch(5, valid_tmd(seq++, 1, 1, 1, 0));
	e.run(200);
	TB_TRUE(e.launches[x].retries >= 1);
	TB_EQ(e.launches[x].status, ST_RETRY);
	TB_EQ(e.perf_launch, 64u);
	e.cu_paused = false;
	e.drain();
	final_checks(e);
	TB_CTX("retry_when_full");
	TB_EQ(e.launches[x].status, ST_OK);
	TB_EQ(e.tasks[x].st, Task::DONE);
	unsigned fails = 0;
	for (const Trace &r : e.traces)
		fails += r.kind == PPU_TRACE_LAUNCH_FAIL;
	TB_EQ(fails, e.launches[x].retries);
}
END_TEST

// ---- TMD validation: one bad field each, the fault names its word ----
struct BadCase {
	const char *what;
	unsigned off;
	void (*mod)(Tmd &);
};

template <class E> void expect_tmd_fault(E &e, const Tmd &m, unsigned off, const char *what, uint32_t va = 0)
{
	unsigned nf = unsigned(e.faults.size());
	int t = e.launch(6, m, 0, 63, 1, va);
	e.run_until([&] { return e.host_idle(); }, 5000, "the launch");
	TB_CTX("tmd %s", what);
	TB_EQ(e.launches[t].status, ST_FAULTED);
	TB_EQ(e.faults.size(), nf + 1);
	const Fault &f = e.faults.back();
	TB_EQ(f.chid, 6u);
	TB_EQ(f.kind, PPU_FAULT_KIND_TMD_INVALID);
	TB_EQ(f.unit, PPU_FAULT_UNIT_TASKS);
	TB_EQ(f.access, tp::ACC_READ);
	TB_EQ(f.addr, e.launches[t].tmd_va);
	TB_EQ(f.data, off);
	TB_TRUE(e.d->can_accept);
	TB_EQ(get(e.d->chan_live, Field{6, 1}), 0);
}

#define BAD_TMD_TEST(name, offset, body)                          \
	START_TEST(tmd_bad_##name)                                \
	{                                                         \
		Big e(20);                                        \
		Tmd m = valid_tmd(1, 3, 4, 2, 256);               \
		body;                                             \
		expect_tmd_fault(e, m, offset, #name);            \
		/* a good launch afterwards is unaffected */     \
		e.launch(6, valid_tmd(2));                        \
		e.drain();                                        \
		final_checks(e);                                  \
	}                                                         \
	END_TEST

BAD_TMD_TEST(entry_pc, 0x00, m[0x00] = 0x10002)
BAD_TMD_TEST(grid_x_zero, 0x04, m[0x04] = 0)
BAD_TMD_TEST(grid_y_zero, 0x08, m[0x08] = 0)
BAD_TMD_TEST(grid_y_big, 0x08, m[0x08] = 65536)
BAD_TMD_TEST(grid_xy_overflow, 0x08, { m[0x04] = 0x20000; m[0x08] = 0x8000; })
BAD_TMD_TEST(grid_z_zero, 0x0c, m[0x0c] = 0)
BAD_TMD_TEST(grid_z_big, 0x0c, m[0x0c] = 0x20000)
BAD_TMD_TEST(grid_xyz_overflow, 0x0c, { m[0x04] = 0x10000; m[0x08] = 0x100; m[0x0c] = 0x100; })
BAD_TMD_TEST(cta_x_zero, 0x10, m[0x10] = 0)
BAD_TMD_TEST(cta_x_big, 0x10, m[0x10] = 1025)   // > MAX_CTA_THREADS
BAD_TMD_TEST(cta_y_zero, 0x14, m[0x14] = 0)
BAD_TMD_TEST(cta_xy_big, 0x14, { m[0x10] = 32; m[0x14] = 33; })
BAD_TMD_TEST(cta_z_zero, 0x18, m[0x18] = 0)
BAD_TMD_TEST(cta_xyz_big, 0x18, { m[0x10] = 8; m[0x14] = 8; m[0x18] = 17; })
BAD_TMD_TEST(cta_z_huge, 0x18, m[0x18] = 0x80000001u)
BAD_TMD_TEST(flags, 0x24, m[0x24] = F_SEM | 0x20)
BAD_TMD_TEST(sem_addr, 0x28, m[0x28] = 0x400002)
BAD_TMD_TEST(sem_addr_ts, 0x28, { m[0x24] = F_SEM | F_TS; m[0x28] = 0x400008; })
BAD_TMD_TEST(stack_not_pow2, 0x30, { m[0x30] = 96; m[0x38] = 0x100000; })
BAD_TMD_TEST(stack_small, 0x30, m[0x30] = 32)
BAD_TMD_TEST(stack_big, 0x30, { m[0x30] = 131072; m[0x38] = 0xffffffffu; })
BAD_TMD_TEST(save_ctas_zero, 0x34, m[0x34] = 0)
BAD_TMD_TEST(save_ctas_big, 0x34, { m[0x34] = 33; m[0x38] = 0x1000000; })
BAD_TMD_TEST(block_bytes, 0x38, m[0x38] = m.min_block() - 1)
BAD_TMD_TEST(block_va, 0x3c, m[0x3c] |= 0x20)
// the first bad word wins
BAD_TMD_TEST(first_wins, 0x10, { m[0x10] = 0; m[0x30] = 3; m[0x3c] = 1; })

// Fields with no rule: unaligned SEM_ADDR without SEM_RELEASE, any
// PARAM_PTR and payload, the exact minimum block, the largest stack.
START_TEST(tmd_edges_ok)
{
	Big e(21);
	Tmd a = valid_tmd(1, 1, 8, 32, 65536, 0);
	a[PPU_TMD_SEM_ADDR] = 3;
	a[PPU_TMD_PARAM_PTR] = 0xffffffffu;
	a[PPU_TMD_BLOCK_BYTES] = a.min_block();
	Tmd b = valid_tmd(2, 0xffff, 1, 1, 64, F_SEM);
	b[PPU_TMD_GRID_X] = 0x10000;
	b[PPU_TMD_GRID_Y] = 0xffff; // X*Y = 2^32 - 2^16 < 2^32
	b[PPU_TMD_BLOCK_BYTES] = 0xffffffffu;
	Tmd c = valid_tmd(3, 2, 2, 1, 0, F_SEM | F_TS);
	c[PPU_TMD_CTA_Y] = 2;
	c[PPU_TMD_CTA_Z] = 2;  // 8 threads: the limit
	c[PPU_TMD_BLOCK_BYTES] = c.min_block();
	int ta = e.launch(0, a), tb = e.launch(1, b), tc = e.launch(2, c);
	e.run_until([&] { return e.host_idle(); }, 5000, "launches");
	TB_CTX("tmd_edges_ok");
	TB_EQ(e.launches[ta].status, ST_OK);
	TB_EQ(e.launches[tb].status, ST_OK);
	TB_EQ(e.launches[tc].status, ST_OK);
	TB_EQ(e.faults.size(), 0u);
	e.set_kill(1, true); // b has 2^32 - 2^16 CTAs: kill it
	e.kill_window = true;
	e.run_until([&] { return get(e.d->chan_clear, Field{1, 1}) == 1; }, 20000, "channel 1 clear");
	e.drop_channel(1);
	e.set_kill(1, false);
	e.drain();
	final_checks(e);
}
END_TEST

// A misaligned TMD VA, a translation fault, a bus error.
START_TEST(tmd_unreadable)
{
	Big e(22);
	expect_tmd_fault(e, valid_tmd(1), 0, "misaligned va", 0x00900008u);
	// translation fault: the VA of the first beat, kind from the MMU
	uint32_t va = 0x00a00000u;
	e.x_fault_pages.insert(va >> tp::PAGE_SHIFT);
	int t = e.launch(7, valid_tmd(2), 0, 63, 1, va);
	e.run_until([&] { return e.host_idle(); }, 5000, "the launch");
	TB_CTX("tmd_unreadable: xlate");
	TB_EQ(e.launches[t].status, ST_FAULTED);
	TB_EQ(e.faults.back().kind, PPU_FAULT_KIND_PTE_NOT_PRESENT);
	TB_EQ(e.faults.back().unit, PPU_FAULT_UNIT_TASKS);
	TB_EQ(e.faults.back().addr, va);
	TB_EQ(e.faults.back().chid, 7u);
	// bus error on the third beat: its VA
	uint32_t vb = 0x00b00040u;
	e.mem.rd_err.insert({PageMap::sys_of(vb + 16), PageMap::pa(vb + 16)});
	t = e.launch(8, valid_tmd(3), 0, 63, 1, vb);
	e.run_until([&] { return e.host_idle(); }, 5000, "the launch");
	TB_CTX("tmd_unreadable: bus error");
	TB_EQ(e.launches[t].status, ST_FAULTED);
	TB_EQ(e.faults.back().kind, PPU_FAULT_KIND_BUS_ERROR);
	TB_EQ(e.faults.back().addr, vb + 16);
	TB_EQ(e.faults.size(), 3u);
	e.launch(8, valid_tmd(4));
	e.drain();
	final_checks(e);
}
END_TEST

// The TMD is read again at activation: one made invalid while pending
// faults then (and frees its id); a completion whose TMD became unmapped,
// or whose release faults, reports the fault and releases nothing.
START_TEST(fault_after_launch)
{
	Big e(23);
	e.cu_paused = true;
	for (unsigned i = 0; i < 8; i++)
		e.launch(0, valid_tmd(10 + i, 1, 8, 1, 0));
	e.run_until([&] { return e.activations.size() == 8; }, 5000, "slots full");
	int bad = e.launch(2, valid_tmd(1));
	int good = e.launch(2, valid_tmd(2));
	e.run_until([&] { return e.host_idle(); }, 5000, "launches");
	Tmd m = e.launches[bad].tmd;
	m[PPU_TMD_SAVE_CTAS] = 0;
	e.write_tmd(e.launches[bad].tmd_va, m);
	// a completion release that faults
	Tmd s = valid_tmd(3);
	int sf = e.launch(3, s);
	e.sem_fault_va.insert(s[PPU_TMD_SEM_ADDR]);
	e.run_until([&] { return e.host_idle(); }, 5000, "launches");
	e.cu_paused = false;
	e.drain();
	final_checks(e);
	TB_CTX("fault_after_launch");
	TB_EQ(e.tasks[bad].st, Task::FAILED);
	TB_EQ(e.tasks[good].st, Task::DONE);
	TB_EQ(e.tasks[sf].st, Task::FAILED);
	TB_EQ(e.faults.size(), 2u);
	TB_EQ(e.faults[0].kind, PPU_FAULT_KIND_TMD_INVALID);
	TB_EQ(e.faults[0].data, 0x34u);
	TB_EQ(e.faults[0].addr, e.launches[bad].tmd_va);
	TB_EQ(e.faults[1].unit, PPU_FAULT_UNIT_SEM);
	TB_EQ(e.faults[1].kind, PPU_FAULT_KIND_SEM_UNALIGNED);
	TB_EQ(e.faults[1].addr, s[PPU_TMD_SEM_ADDR]);
	TB_EQ(e.faults[1].data, e.launches[sf].tmd_va);
	TB_EQ(e.faults[1].chid, 3u);
	unsigned completes = 0;
	for (const Trace &r : e.traces)
		completes += r.kind == PPU_TRACE_TASK_COMPLETE && (r.a & 0xff) == e.launches[sf].tid &&
			     r.b == e.launches[sf].tmd_va;
	TB_EQ(completes, 0u);
}
END_TEST

START_TEST(completion_xlate_fault)
{
	Big e(24);
	e.cu_hold = true;
	int t = e.launch(9, valid_tmd(1, 2, 2, 2, 0));
	e.run_until([&] { return e.tasks[t].dispatches == 2; }, 5000, "dispatches");
	e.x_fault_pages.insert(e.launches[t].tmd_va >> tp::PAGE_SHIFT);
	e.cu_hold = false;
	e.drain();
	TB_CTX("completion_xlate_fault");
	TB_EQ(e.tasks[t].st, Task::FAILED);
	TB_EQ(e.faults.size(), 1u);
	TB_EQ(e.faults[0].addr, e.launches[t].tmd_va + 0x20);
	TB_EQ(e.faults[0].unit, PPU_FAULT_UNIT_TASKS);
	TB_EQ(e.releases.size(), 0u);
}
END_TEST

// Random traffic of many channels and priorities, with a kill of one
// channel in the middle: the others complete, the killed one's tasks do
// not (no release after its kill), its ids are freed, chan_clear rises,
// and the channel works again afterwards.
// TB_TASKS_SEED=n re-seeds the random and kill runs (for longer soaks).
uint64_t seed_of(uint64_t s)
{
	const char *v = getenv("TB_TASKS_SEED");
	return v ? s + 1000 * strtoull(v, nullptr, 0) : s;
}

template <class E> void kill_run(uint64_t seed, unsigned ntasks, unsigned victim, bool gate = false)
{
	E e(seed_of(seed));
	e.gate = gate;
	e.kill_window = true;
	e.k.hold_min = 5;
	e.k.hold_max = 300;
	e.k.kill_ready = 50;
	e.k.kill_delay = 30;
	e.k.disp_ready = 40;
	unsigned seq = 1;
	std::vector<int> mine;
	for (unsigned i = 0; i < ntasks; i++) {
		// a third of the launches go to the victim
		unsigned ch = e.rng.pct(33) ? victim : e.rng.below(E::NC);
		Tmd m = valid_tmd(seq++, 1 + e.rng.below(10), 1 + e.rng.below(E::CTX), 1 + e.rng.below(4),
				  e.rng.pct(50) ? 0 : 64u << e.rng.below(4), F_SEM | (e.rng.pct(30) ? F_INTR : 0));
		m[PPU_TMD_PRIORITY] = e.rng.below(8);
		int t = e.launch(ch, m);
		if (ch == victim)
			mine.push_back(t);
	}
	e.run(500 + e.rng.below(2500));
	// kill while the victim has CTAs on the CUs, if that happens soon
	auto victim_on_cu = [&] {
		for (int t : mine)
			if (e.tasks[t].running)
				return true;
		return false;
	};
	for (unsigned i = 0; i < 20000 && !victim_on_cu(); i++)
		e.cycle();
	e.run(e.rng.below(20));
	e.set_kill(victim, true);
	uint64_t kill_cyc = e.d.cyc;
	std::vector<int> at_kill; // the victim's tasks alive at the kill
	for (std::size_t t = 0; t < e.tasks.size(); t++)
		if (e.launches[t].chid == victim &&
		    (e.tasks[t].st == Task::PENDING || e.tasks[t].st == Task::ACTIVE))
			at_kill.push_back(int(t));
	if (getenv("TB_TASKS_STATS")) {
		unsigned act = 0, res = 0;
		for (int t : at_kill)
			act += e.tasks[t].st == Task::ACTIVE, res += e.tasks[t].running;
		fprintf(stderr, "kill at %llu: victim %u has %zu tasks (%u active, %u CTAs on CUs), %u CTAs resident\n",
			(unsigned long long)kill_cyc, victim, at_kill.size(), act, res, e.resident());
	}
	e.run_until([&] { return get(e.d->chan_clear, Field{victim, 1}) == 1; }, 50000, "victim clear");
	uint64_t clear_cyc = e.d.cyc;
	TB_CTX("kill: victim clear at %llu", (unsigned long long)e.d.cyc);
	TB_EQ(get(e.d->chan_live, Field{victim, 1}), 0);
	e.run(50);
	// while killed: nothing of the victim is launched or dispatched; only
	// an activation already under way may still finish
	for (const Trace &r : e.traces)
		if (r.cyc > kill_cyc && r.chid == victim) {
			TB_CTX("kill: victim trace kind %u at %llu (kill at %llu)", r.kind, (unsigned long long)r.cyc,
			       (unsigned long long)kill_cyc);
			TB_TRUE(r.kind != PPU_TRACE_CTA_DISPATCH && r.kind != PPU_TRACE_TASK_LAUNCH);
			if (r.kind == PPU_TRACE_TASK_ACTIVATE)
				TB_TRUE(r.cyc < kill_cyc + 200);
		}
	e.drop_channel(victim);
	e.set_kill(victim, false);
	// the channel works again
	int again = e.launch(victim, valid_tmd(seq++, 3, 2, 2, 0));
	e.drain(2000000);
	final_checks(e);
	TB_CTX("kill: after (kill %llu, clear %llu)", (unsigned long long)kill_cyc, (unsigned long long)clear_cyc);
	TB_EQ(e.tasks[again].st, Task::DONE);
	for (std::size_t t = 0; t < e.tasks.size(); t++) {
		if (e.launches[t].chid != victim)
			TB_EQ(e.tasks[t].st, Task::DONE);
		else
			TB_TRUE(e.tasks[t].st == Task::DONE || e.tasks[t].st == Task::DROPPED ||
				e.tasks[t].st == Task::FAILED);
	}
	unsigned dropped = 0;
	for (int t : at_kill) {
		// completed only if its completion was already under way
		if (e.tasks[t].st == Task::DONE)
			TB_TRUE(e.tasks[t].done_cyc < kill_cyc + 60);
		else {
			TB_EQ(e.tasks[t].st, Task::DROPPED);
			dropped++;
		}
	}
	TB_TRUE(dropped > 0);
	(void)mine;
	e.stats("kill");
}

START_TEST(kill_channel)
{
	kill_run<Big>(31, 120, 5);
}
END_TEST

START_TEST(kill_channel_2)
{
	kill_run<Big>(32, 200, 0);
}
END_TEST

START_TEST(kill_channel_3)
{
	kill_run<Big>(35, 300, 15);
}
END_TEST

// Kill of a channel whose tasks are all pending (nothing on a CU): they
// are unlinked from lists shared with other channels, whose order stays.
START_TEST(kill_pending)
{
	Big e(33);
	e.kill_window = true;
	e.cu_paused = true;
	unsigned seq = 1;
	for (unsigned i = 0; i < 8; i++)
		e.launch(15, valid_tmd(seq++, 1, 8, 1, 0));
	e.run_until([&] { return e.activations.size() == 8; }, 5000, "slots full");
	std::vector<int> victims;
	for (unsigned i = 0; i < 40; i++) {
		Tmd m = valid_tmd(seq++, 2, 4, 1, 0);
		m[PPU_TMD_PRIORITY] = e.rng.below(3) * 2;
		unsigned ch = e.rng.below(3);
		int t = e.launch(ch, m);
		if (ch == 1)
			victims.push_back(t);
	}
	e.run_until([&] { return e.host_idle(); }, 20000, "launches");
	e.set_kill(1, true);
	e.run_until([&] { return get(e.d->chan_clear, Field{1, 1}) == 1; }, 5000, "channel 1 clear");
	e.drop_channel(1);
	e.cu_paused = false;
	e.drain();
	final_checks(e);
	TB_CTX("kill_pending");
	for (int t : victims)
		TB_EQ(e.tasks[t].st, Task::DROPPED);
	for (std::size_t t = 0; t < e.tasks.size(); t++)
		if (e.launches[t].chid != 1)
			TB_EQ(e.tasks[t].st, Task::DONE);
}
END_TEST

// Kill while a killed channel's CTAs are on the CUs and others' too; CUs
// that take a while to accept the kill; exits racing the kill.
START_TEST(kill_resident)
{
	Big e(34);
	e.kill_window = true;
	e.k.kill_ready = 30;
	e.k.kill_delay = 40;
	e.k.disp_ready = 30;
	e.k.hold_min = 100;
	e.k.hold_max = 400;
	unsigned seq = 1;
	for (unsigned i = 0; i < 12; i++) {
		Tmd m = valid_tmd(seq++, 30, 1 + e.rng.below(4), 4, 0);
		m[PPU_TMD_PRIORITY] = (i % 3 == 2) ? 10 : 1; // the victim's CTAs fill the CUs
		e.launch(i % 3, m);
	}
	e.run(600);
	e.set_kill(2, true);
	e.run_until([&] { return get(e.d->chan_clear, Field{2, 1}) == 1; }, 20000, "channel 2 clear");
	e.drop_channel(2);
	e.set_kill(2, false);
	e.drain();
	final_checks(e);
	TB_CTX("kill_resident");
	for (std::size_t t = 0; t < e.tasks.size(); t++)
		if (e.launches[t].chid != 2)
			TB_EQ(e.tasks[t].st, Task::DONE);
	e.stats("kill_resident");
	TB_TRUE(e.cov.killed_ctas >= 4);
}
END_TEST

// Kill while the victim's CTA waits in the dispatch register (the CUs
// accept nothing): no kill may be sent for it before a CU has it; once
// accepted it is killed, and the channel clears.
START_TEST(kill_in_dispatch)
{
	Big e(36);
	e.kill_window = true;
	e.cu_paused = true;
	e.k.hold_min = 500;
	e.k.hold_max = 500;
	int v = e.launch(4, valid_tmd(1, 4, 2, 2, 0));
	e.run_until([&] { return e.tasks[v].dispatches == 1; }, 2000, "a decided dispatch");
	e.set_kill(4, true);
	e.run(100);
	TB_CTX("kill_in_dispatch");
	TB_EQ(e.d->kill_valid, 0);
	TB_EQ(get(e.d->chan_clear, Field{4, 1}), 0);
	e.cu_paused = false;
	e.run_until([&] { return get(e.d->chan_clear, Field{4, 1}) == 1; }, 2000, "channel 4 clear");
	TB_CTX("kill_in_dispatch");
	TB_EQ(e.cov.killed_ctas, 1u);
	TB_EQ(e.tasks[v].dispatches, 1u);
	e.drop_channel(4);
	e.set_kill(4, false);
	e.launch(4, valid_tmd(2, 4, 2, 2, 0));
	e.drain();
	final_checks(e);
}
END_TEST

// Long random runs: many channels and priorities, random CTA lengths,
// latencies and back-pressure everywhere.
template <class E>
void random_run(uint64_t seed, unsigned ntasks, bool stress, bool no_preempt = false, bool gate = false)
{
	E e(seed_of(seed));
	e.d->no_preempt = no_preempt;
	e.gate = gate;
	if (stress) {
		e.k.x_ready = 60;
		e.k.rd_ready = 60;
		e.k.sem_ready = 50;
		e.k.xf_ready = 50;
		e.k.disp_ready = 50;
		e.k.ev_pct = 60;
		e.k.x_lat = 9;
		e.k.rd_lat = 30;
		e.k.sem_lat = 20;
	}
	e.k.hold_min = 1;
	e.k.hold_max = 300;
	unsigned seq = 1;
	for (unsigned i = 0; i < ntasks; i++) {
		unsigned ch = e.rng.below(E::NC);
		unsigned pmin = (ch * 5) % 40, pmax = pmin + e.rng.below(24);
		uint32_t stack = e.rng.pct(30) ? 0 : 64u << e.rng.below(11);
		uint32_t flags = (e.rng.pct(80) ? F_SEM : 0) | (e.rng.pct(40) ? F_TS : 0) | (e.rng.pct(30) ? F_INTR : 0) |
				 (e.rng.pct(10) ? F_ICINV : 0);
		Tmd m = valid_tmd(seq++, 1 + e.rng.below(e.rng.pct(20) ? 60 : 6), 1 + e.rng.below(E::CTX),
				  1 + e.rng.below(e.rng.pct(20) ? 32 : 4), stack, flags);
		if (e.rng.pct(20)) {
			m[PPU_TMD_GRID_Y] = 1 + e.rng.below(3);
			m[PPU_TMD_GRID_Z] = 1 + e.rng.below(2);
		}
		if (e.rng.pct(8)) // a CTA in waves
			m[PPU_TMD_CTA_X] = E::CTX + 1 + e.rng.below(3 * E::CTX);
		m[PPU_TMD_BLOCK_BYTES] = m.min_block();
		if (m.t() <= E::CTX / 2 && e.rng.pct(30)) {
			m[PPU_TMD_CTA_Y] = 2;
			m[PPU_TMD_CTA_X] = std::max(1u, m[PPU_TMD_CTA_X] / 2);
		}
		m[PPU_TMD_BLOCK_BYTES] = m.min_block() + e.rng.below(3) * 64;
		m[PPU_TMD_PRIORITY] = e.rng.below(64);
		e.launch(ch, m, pmin, pmax, 1 + (ch * 7) % 64); // max depth: per channel
		if (e.rng.pct(40))
			e.run(e.rng.below(300));
	}
	e.drain(4000000);
	final_checks(e);
	e.stats("random");
	if (no_preempt)
		TB_EQ(e.cov.preemptions, e.cov.evict_preempts); // for evictions only
	else
		TB_TRUE(e.cov.preemptions > 0);
	if (gate) // the gate did stop the clock, often
		TB_TRUE(e.gated_edges > e.d.cyc / 10);
}

// The same with TASK_CTRL.NO_PREEMPT: higher priorities wait for contexts.
START_TEST(random_no_preempt)
{
	random_run<Big>(77, 200, false, true);
}
END_TEST

START_TEST(random_long)
{
	random_run<Big>(41, 600, false);
}
END_TEST

START_TEST(random_stress)
{
	random_run<Big>(42, 400, true);
}
END_TEST

// The stress mix with the clock stopped whenever the table says quiet.
START_TEST(random_gated)
{
	random_run<Big>(43, 400, true, false, true);
}
END_TEST

// ---- the small configuration: 8 ids, 2 slots, 1 CU of 4 contexts ----
START_TEST(min_launch_retry)
{
	Small e(51);
	e.cu_paused = true;
	for (unsigned i = 0; i < 8; i++)
		e.launch(i % 2, valid_tmd(i + 1, 2, 1 + (i % 4), 1, 0));
	e.run_until([&] { return e.host_idle(); }, 5000, "8 launches");
	int x = e.launch(1, valid_tmd(20, 1, 1, 1, 0));
	e.run(100);
	TB_CTX("min_launch_retry");
	TB_EQ(e.launches[x].status, ST_RETRY);
	e.cu_paused = false;
	e.drain();
	final_checks(e);
	TB_EQ(e.tasks[x].st, Task::DONE);
	// CTA_X 5 > 4 contexts: a CTA in waves, on the whole unit
	Tmd m = valid_tmd(21, 2, 5, 1, 0);
	int b = e.launch(0, m);
	e.drain();
	final_checks(e);
	TB_EQ(e.tasks[b].st, Task::DONE);
	// CTA_X 1025 > MAX_CTA_THREADS
	Tmd m2 = valid_tmd(22, 1, 1, 1, 0);
	m2[PPU_TMD_CTA_X] = 1025;
	int b2 = e.launch(0, m2);
	e.run_until([&] { return e.host_idle(); }, 5000, "launch");
	TB_EQ(e.launches[b2].status, ST_FAULTED);
	TB_EQ(e.faults.back().data, 0x10u);
}
END_TEST

START_TEST(min_random)
{
	random_run<Small>(52, 300, true);
}
END_TEST

START_TEST(min_kill)
{
	kill_run<Small>(53, 60, 1);
}
END_TEST

START_TEST(min_random_gated)
{
	random_run<Small>(54, 300, true, false, true);
}
END_TEST

START_TEST(kill_gated)
{
	kill_run<Big>(55, 200, 3, true);
}
END_TEST

} // namespace

int main()
{
	return tb_run_suite("tasks",
			    {launch_one, completion_flags, prio_clamp, activation_order, dispatch_priority, placement,
			     save_slot_limit, retry_when_full, tmd_bad_entry_pc, tmd_bad_grid_x_zero,
			     tmd_bad_grid_y_zero, tmd_bad_grid_y_big, tmd_bad_grid_xy_overflow, tmd_bad_grid_z_zero,
			     tmd_bad_grid_z_big, tmd_bad_grid_xyz_overflow, tmd_bad_cta_x_zero, tmd_bad_cta_x_big,
			     tmd_bad_cta_y_zero, tmd_bad_cta_xy_big, tmd_bad_cta_z_zero, tmd_bad_cta_xyz_big,
			     tmd_bad_cta_z_huge, tmd_bad_flags, tmd_bad_sem_addr, tmd_bad_sem_addr_ts,
			     tmd_bad_stack_not_pow2, tmd_bad_stack_small, tmd_bad_stack_big, tmd_bad_save_ctas_zero,
			     tmd_bad_save_ctas_big, tmd_bad_block_bytes, tmd_bad_block_va, tmd_bad_first_wins,
			     tmd_edges_ok, tmd_unreadable, fault_after_launch, completion_xlate_fault, kill_channel,
			     kill_channel_2, kill_channel_3, kill_pending, kill_resident, kill_in_dispatch, eviction_order, random_long, random_no_preempt, random_stress, random_gated,
			     min_launch_retry, min_random, min_kill, min_random_gated, kill_gated},
			    600);
}
