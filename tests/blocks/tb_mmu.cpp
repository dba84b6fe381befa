// SPDX-License-Identifier: MIT
/*
 * ppu_mmu on its own (module defaults: TLB_ENTRIES = 16, NCLIENT = 4).
 * Page tables live in a two-aperture memory model with configurable
 * latency, back-pressure and read errors; PTEs and VAs are built from the
 * ppu_mmu.def fields in ppu_hw.h.  Every response is compared with a
 * reference Sv32 walker evaluated when the request is accepted; the walk's
 * PTE reads, the TLB's hit/miss behaviour (tlb_miss pulses, latencies,
 * replacement, invalidation) and the client arbitration are checked
 * exactly.  Port contracts (one PTE read outstanding, read request held
 * until ready, one response pulse to the requesting client) are checked
 * every cycle.
 */
#include "Vppu_mmu.h"
#include "tb_common.h"

#include <algorithm>
#include <vector>

namespace {

const unsigned NCLIENT = 4, TLB_ENTRIES = 16; // module defaults

// PTE and VA formats (ppu_mmu.def).
const uint32_t V = PPU_FMASK(PPU_PTE_V), R = PPU_FMASK(PPU_PTE_R), W = PPU_FMASK(PPU_PTE_W),
	       X = PPU_FMASK(PPU_PTE_X), U = PPU_FMASK(PPU_PTE_U), G = PPU_FMASK(PPU_PTE_G),
	       A = PPU_FMASK(PPU_PTE_A), D = PPU_FMASK(PPU_PTE_D), SYS = PPU_FMASK(PPU_PTE_SYS);
const uint32_t URWAD = U | R | W | A | D;

uint32_t pte(uint32_t ppn, uint32_t flags) { return PPU_FSET(PPU_PTE_PPN, ppn) | flags; }
uint32_t pte_super(uint32_t ppn1, uint32_t flags) { return PPU_FSET(PPU_PTE_PPN1, ppn1) | flags; }
uint32_t va_of(uint32_t vpn1, uint32_t vpn0, uint32_t off)
{
	return PPU_FSET(PPU_VA_VPN1, vpn1) | PPU_FSET(PPU_VA_VPN0, vpn0) | PPU_FSET(PPU_VA_OFFSET, off);
}
// Address of the PTE for index idx in the table at page ppn.
uint64_t pte_addr(uint64_t table_ppn, uint32_t idx) { return (table_ppn << tp::PAGE_SHIFT) + idx * PPU_PTE_BYTES; }
const uint32_t SUPER_BYTES = 1u << PPU_VA_VPN1__LSB;

struct Req {
	uint32_t va;
	int rsys;
	uint32_t rppn;
	unsigned acc;
};

struct Rsp {
	bool fault;
	unsigned kind;
	int sys;
	uint64_t addr;
};

// The access table of docs/hw-internals.md (U and A always needed).
bool access_ok(uint32_t p, unsigned acc)
{
	bool r = p & R, w = p & W, x = p & X, ua = (p & U) && (p & A), d = p & D;
	switch (acc) {
	case tp::ACC_READ:
		return r && ua;
	case tp::ACC_WRITE:
		return w && ua && d;
	case tp::ACC_RMW:
		return r && w && ua && d;
	default:
		return x && ua;
	}
}

// Reference Sv32 walk.
Rsp walk(Mem &m, const Req &q)
{
	const Rsp np{true, PPU_FAULT_KIND_PTE_NOT_PRESENT, 0, 0};
	uint32_t vpn[2] = {PPU_FGET(PPU_VA_VPN0, q.va), PPU_FGET(PPU_VA_VPN1, q.va)};
	int sys = q.rsys;
	uint64_t a = pte_addr(q.rppn, vpn[1]);
	for (int lvl = 1; lvl >= 0; lvl--) {
		if (m.rd_error(sys, a))
			return Rsp{true, PPU_FAULT_KIND_BUS_ERROR, 0, 0};
		uint32_t p = m.r32(sys, a);
		if (!(p & V) || ((p & W) && !(p & R)))
			return np;
		if (p & (R | X)) {
			if (lvl == 1 && PPU_FGET(PPU_PTE_PPN0, p))
				return np; // misaligned superpage
			if (!access_ok(p, q.acc))
				return Rsp{true, PPU_FAULT_KIND_PERMISSION, 0, 0};
			uint64_t pa = lvl ? (uint64_t(PPU_FGET(PPU_PTE_PPN1, p)) << PPU_VA_VPN1__LSB) |
						    (q.va & (SUPER_BYTES - 1))
					  : (uint64_t(PPU_FGET(PPU_PTE_PPN, p)) << tp::PAGE_SHIFT) |
						    PPU_FGET(PPU_VA_OFFSET, q.va);
			return Rsp{false, PPU_FAULT_KIND_NONE, (p & SYS) ? 1 : 0, pa};
		}
		if (lvl == 0)
			return np; // pointer at level 0
		sys = (p & SYS) ? 1 : 0;
		a = pte_addr(PPU_FGET(PPU_PTE_PPN, p), vpn[0]);
	}
	return np;
}

struct Client {
	bool active = false;  // req_valid
	bool waiting = false; // accepted, response pending
	bool done = false;
	Req q{};
	Rsp exp{}, got{};
	uint64_t accept_cyc = 0, rsp_cyc = 0;
};

struct PteRead {
	uint64_t cyc;
	int sys;
	uint64_t addr;
};

class MmuEnv {
public:
	Dut<Vppu_mmu> d;
	Rng rng{1};
	Mem mem{5};
	unsigned rd_ready_pct = 100, lat_min = 1, lat_max = 1;
	bool invalidate = false;
	Client cl[NCLIENT];
	unsigned misses = 0;
	std::vector<PteRead> reads;
	std::vector<unsigned> grants;
	std::vector<uint64_t> grant_cyc;
	uint64_t last_pte_cyc = 0;

	MmuEnv()
	{
		d->invalidate = 0;
		d->req_valid = 0;
		clear(d->req);
		d->mem_rd_ready = 0;
		d->mem_rd_rsp_valid = 0;
		clear(d->mem_rd_rsp);
		d.reset();
		TB_CTX("mmu");
	}

	void cycle()
	{
		unsigned rv = 0;
		for (unsigned i = 0; i < NCLIENT; i++) {
			Field base = elem(first(tp::xreq::W), tp::xreq::W, i);
			if (!cl[i].active) {
				set(d->req, base, rng.u64());
				continue;
			}
			rv |= 1u << i;
			set(d->req, elem(tp::xreq::va, tp::xreq::W, i), cl[i].q.va);
			set(d->req, elem(tp::xreq::root_sys, tp::xreq::W, i), cl[i].q.rsys);
			set(d->req, elem(tp::xreq::root_ppn, tp::xreq::W, i), cl[i].q.rppn);
			set(d->req, elem(tp::xreq::access, tp::xreq::W, i), cl[i].q.acc);
		}
		d->req_valid = rv;
		d->invalidate = invalidate;
		d->mem_rd_ready = rng.pct(rd_ready_pct);
		d->mem_rd_rsp_valid = 0;
		randomize(d->mem_rd_rsp, rng.u64());
		if (pend_.due(d.cyc)) {
			Pend p = pend_.pop();
			d->mem_rd_rsp_valid = 1;
			set(d->mem_rd_rsp, tp::rdrsp::data, p.err ? rng.u64() : p.data);
			set(d->mem_rd_rsp, tp::rdrsp::err, p.err);
			last_pte_cyc = d.cyc;
		}
		d.eval();
		sample(rv);
		d.tick();
	}

	void idle(int n)
	{
		for (int i = 0; i < n; i++)
			cycle();
	}

	void invalidate_pulse()
	{
		invalidate = true;
		cycle();
		invalidate = false;
	}

	void start(unsigned c, const Req &q)
	{
		cl[c].q = q;
		cl[c].active = true;
		cl[c].done = false;
	}

	// One request on client c, run to its response.
	struct Result {
		Rsp rsp;
		uint64_t lat;      // handshake cycle to response cycle
		unsigned misses;   // tlb_miss pulses
		std::vector<PteRead> reads;
	};
	Result xlate(unsigned c, const Req &q)
	{
		unsigned m0 = misses;
		std::size_t r0 = reads.size();
		start(c, q);
		for (int i = 0; !cl[c].done; i++) {
			if (i > 500)
				TB_FAIL("%s: no response to client %u", tb_ctx_buf(), c);
			cycle();
		}
		cycle(); // a tlb_miss pulse follows the accept by one cycle
		Result r;
		r.rsp = cl[c].got;
		r.lat = cl[c].rsp_cyc - cl[c].accept_cyc;
		r.misses = misses - m0;
		r.reads.assign(reads.begin() + r0, reads.end());
		return r;
	}

private:
	struct Pend {
		uint64_t data;
		bool err;
	};
	Pipe<Pend> pend_;
	HoldCheck<uint64_t> rd_hold_;

	void sample(unsigned rv)
	{
		uint64_t c = d.cyc;
		unsigned rdy = d->req_ready;
		TB_EQ(rdy & ~rv, 0);
		TB_TRUE(__builtin_popcount(rdy) <= 1);
		for (unsigned i = 0; i < NCLIENT; i++) {
			if (!(rdy >> i & 1))
				continue;
			cl[i].active = false;
			cl[i].waiting = true;
			cl[i].accept_cyc = c;
			cl[i].exp = walk(mem, cl[i].q);
			grants.push_back(i);
			grant_cyc.push_back(c);
		}
		unsigned rs = d->rsp_valid;
		TB_TRUE(__builtin_popcount(rs) <= 1);
		for (unsigned i = 0; i < NCLIENT; i++) {
			if (!(rs >> i & 1))
				continue;
			Client &k = cl[i];
			TB_TRUE(k.waiting);
			uint64_t r = d->rsp;
			k.got = Rsp{get(r, tp::xrsp::fault) != 0, unsigned(get(r, tp::xrsp::kind)),
				    int(get(r, tp::xrsp::sys)), get(r, tp::xrsp::addr)};
			k.waiting = false;
			k.done = true;
			k.rsp_cyc = c;
			if (k.got.fault != k.exp.fault || k.got.kind != k.exp.kind ||
			    (!k.exp.fault && (k.got.sys != k.exp.sys || k.got.addr != k.exp.addr)))
				TB_FAIL("%s: client %u va %08x root %d:%06x access %u: got fault %d kind %u pa %d:%09llx, "
					"expected fault %d kind %u pa %d:%09llx",
					tb_ctx_buf(), i, k.q.va, k.q.rsys, k.q.rppn, k.q.acc, k.got.fault, k.got.kind,
					k.got.sys, (unsigned long long)k.got.addr, k.exp.fault, k.exp.kind, k.exp.sys,
					(unsigned long long)k.exp.addr);
		}
		if (d->tlb_miss)
			misses++;
		rd_hold_.sample("mem_rd", d->mem_rd_valid, d->mem_rd_ready, d->mem_rd_pa);
		if (d->mem_rd_valid && d->mem_rd_ready) {
			int sys = int(get(d->mem_rd_pa, tp::paddr::sys));
			uint64_t a = get(d->mem_rd_pa, tp::paddr::addr);
			TB_EQ(a % tp::BEAT, 0);
			TB_TRUE(pend_.empty()); // one PTE read outstanding
			reads.push_back(PteRead{c, sys, a});
			unsigned lat = lat_min + rng.below(lat_max - lat_min + 1);
			pend_.push(c, lat, Pend{mem.rd_beat(sys, a), mem.rd_error(sys, a)});
		}
	}
};

// Tables used by several tests: root page ROOT (local aperture); VPN1 1
// points to an L0 table in the system aperture.
const uint32_t ROOT = 0x100, L0 = 0x200;

void base_tables(Mem &m)
{
	m.w32(0, pte_addr(ROOT, 1), pte(L0, V | SYS));
	m.w32(1, pte_addr(L0, 5), pte(0x3ffff5, URWAD | V | SYS));
	m.w32(1, pte_addr(L0, 6), pte(0x000123, URWAD | X | V));
	m.w32(0, pte_addr(ROOT, 2), pte_super(0xabc, URWAD | V | SYS));
}

Req rq(uint32_t va, unsigned acc, uint32_t rppn = ROOT, int rsys = 0) { return Req{va, rsys, rppn, acc}; }

} // namespace

START_TEST(miss_walks_level1_then_level0_and_answers_one_cycle_after_the_last_pte)
{
	for (unsigned lat : {1u, 7u}) {
		MmuEnv e;
		base_tables(e.mem);
		e.lat_min = e.lat_max = lat;
		TB_CTX("4 KiB walk, memory latency %u", lat);
		MmuEnv::Result r = e.xlate(0, rq(va_of(1, 5, 0xabc), tp::ACC_READ));
		TB_EQ(r.rsp.fault, 0);
		TB_EQ(r.rsp.sys, 1);
		TB_EQ(r.rsp.addr, (0x3ffff5ull << tp::PAGE_SHIFT) | 0xabc);
		TB_EQ(r.misses, 1);
		TB_EQ(r.reads.size(), 2);
		// level 1 from the root's aperture, level 0 from the pointer's SYS bit
		TB_EQ(r.reads[0].sys, 0);
		TB_EQ(r.reads[0].addr, pte_addr(ROOT, 1) & ~7ull);
		TB_EQ(r.reads[1].sys, 1);
		TB_EQ(r.reads[1].addr, pte_addr(L0, 5) & ~7ull);
		TB_EQ(e.cl[0].rsp_cyc, e.last_pte_cyc + 1);
	}
}
END_TEST

START_TEST(tlb_hit_answers_one_cycle_after_the_handshake_without_memory_reads)
{
	MmuEnv e;
	base_tables(e.mem);
	TB_CTX("fill");
	e.xlate(0, rq(va_of(1, 5, 0), tp::ACC_READ));
	for (unsigned c = 0; c < NCLIENT; c++) {
		for (unsigned acc : {tp::ACC_READ, tp::ACC_WRITE, tp::ACC_RMW}) {
			TB_CTX("hit from client %u access %u", c, acc);
			MmuEnv::Result r = e.xlate(c, rq(va_of(1, 5, 0x123 + c), acc));
			TB_EQ(r.rsp.fault, 0);
			TB_EQ(r.rsp.sys, 1);
			TB_EQ(r.rsp.addr, (0x3ffff5ull << tp::PAGE_SHIFT) | (0x123 + c));
			TB_EQ(r.lat, 1);
			TB_EQ(r.misses, 0);
			TB_EQ(r.reads.size(), 0);
		}
	}
}
END_TEST

START_TEST(pte_is_taken_from_the_addressed_half_of_its_beat)
{
	MmuEnv e;
	// VPN1 2/3 share a beat of the root table (low/high word); so do VPN0 4/5
	// of each L0 table.
	const uint32_t T[2] = {0x210, 0x211};
	for (unsigned h = 0; h < 2; h++) {
		e.mem.w32(0, pte_addr(ROOT, 2 + h), pte(T[h], V));
		for (unsigned l = 0; l < 2; l++)
			e.mem.w32(0, pte_addr(T[h], 4 + l), pte(0x1000 + 16 * h + l, URWAD | V | (l ? SYS : 0)));
	}
	for (unsigned h = 0; h < 2; h++) {
		for (unsigned l = 0; l < 2; l++) {
			TB_CTX("VPN1 %u, VPN0 %u", 2 + h, 4 + l);
			MmuEnv::Result r = e.xlate(h, rq(va_of(2 + h, 4 + l, 0x77), tp::ACC_READ));
			TB_EQ(r.rsp.fault, 0);
			TB_EQ(r.rsp.sys, l);
			TB_EQ(r.rsp.addr, (uint64_t(0x1000 + 16 * h + l) << tp::PAGE_SHIFT) | 0x77);
			// the second page of a region walks from the cached pointer
			TB_EQ(r.reads.size(), l ? 1 : 2);
			if (!l)
				TB_EQ(r.reads[0].addr, pte_addr(ROOT, 2) & ~7ull);
			TB_EQ(r.reads.back().addr, pte_addr(T[h], 4) & ~7ull);
		}
	}
}
END_TEST

/*
 * The walk cache keeps each client's last level-1 pointer: a miss in the
 * same 4 MiB region reads only its level-0 PTE, other clients and regions
 * walk both levels, an invalidate drops it, and pointers that fault (not
 * present) or were read across an invalidate are not kept.
 */
START_TEST(walk_cache_skips_the_level1_read_within_a_clients_region)
{
	MmuEnv e;
	const uint32_t T = 0x300, U = 0x310;
	e.mem.w32(0, pte_addr(ROOT, 4), pte(T, V));
	e.mem.w32(0, pte_addr(ROOT, 5), pte(U, V));
	for (unsigned l = 0; l < 8; l++) {
		e.mem.w32(0, pte_addr(T, l), pte(0x2000 + l, URWAD | V));
		e.mem.w32(0, pte_addr(U, l), pte(0x3000 + l, URWAD | V));
	}
	TB_CTX("first miss of the region");
	MmuEnv::Result r = e.xlate(0, rq(va_of(4, 0, 0), tp::ACC_READ));
	TB_EQ(r.reads.size(), 2);
	TB_CTX("next page, same client");
	r = e.xlate(0, rq(va_of(4, 1, 8), tp::ACC_READ));
	TB_EQ(r.rsp.addr, (0x2001ull << tp::PAGE_SHIFT) | 8);
	TB_EQ(r.reads.size(), 1);
	TB_EQ(r.reads[0].addr, pte_addr(T, 1) & ~7ull);
	TB_CTX("same region, another client");
	r = e.xlate(1, rq(va_of(4, 2, 0), tp::ACC_READ));
	TB_EQ(r.reads.size(), 2);
	TB_CTX("client 1 in another region leaves client 0's pointer");
	r = e.xlate(1, rq(va_of(5, 2, 0), tp::ACC_READ));
	TB_EQ(r.reads.size(), 2);
	r = e.xlate(0, rq(va_of(4, 3, 0), tp::ACC_READ));
	TB_EQ(r.reads.size(), 1);
	TB_CTX("the same region of another root");
	e.mem.w32(0, pte_addr(0x7f0, 4), pte(U, V));
	r = e.xlate(0, rq(va_of(4, 4, 0), tp::ACC_READ, 0x7f0));
	TB_EQ(r.rsp.addr, 0x3004ull << tp::PAGE_SHIFT);
	TB_EQ(r.reads.size(), 2);
	r = e.xlate(0, rq(va_of(4, 4, 0), tp::ACC_READ));
	TB_EQ(r.rsp.addr, 0x2004ull << tp::PAGE_SHIFT);
	TB_EQ(r.reads.size(), 2);
	TB_CTX("after an invalidate");
	e.invalidate_pulse();
	r = e.xlate(0, rq(va_of(4, 5, 0), tp::ACC_READ));
	TB_EQ(r.reads.size(), 2);
	TB_CTX("a pointer moved under an invalidate is followed");
	e.mem.w32(0, pte_addr(ROOT, 4), pte(U, V));
	e.invalidate_pulse();
	r = e.xlate(0, rq(va_of(4, 6, 0), tp::ACC_READ));
	TB_EQ(r.rsp.addr, 0x3006ull << tp::PAGE_SHIFT);
	TB_EQ(r.reads.size(), 2);
	TB_CTX("a region whose level-1 entry is not present is not kept");
	r = e.xlate(2, rq(va_of(9, 0, 0), tp::ACC_READ));
	TB_EQ(r.rsp.kind, PPU_FAULT_KIND_PTE_NOT_PRESENT);
	e.mem.w32(0, pte_addr(ROOT, 9), pte(T, V));
	r = e.xlate(2, rq(va_of(9, 7, 0), tp::ACC_READ));
	TB_EQ(r.rsp.addr, 0x2007ull << tp::PAGE_SHIFT);
	TB_EQ(r.reads.size(), 2);
}
END_TEST

START_TEST(superpage_maps_4mib_and_hits_for_every_vpn0)
{
	MmuEnv e;
	base_tables(e.mem);
	const uint64_t base = uint64_t(0xabc) << PPU_VA_VPN1__LSB;
	TB_CTX("superpage miss");
	MmuEnv::Result r = e.xlate(0, rq(va_of(2, 0x12, 0x345), tp::ACC_RMW));
	TB_EQ(r.rsp.fault, 0);
	TB_EQ(r.rsp.sys, 1);
	TB_EQ(r.rsp.addr, base | (va_of(2, 0x12, 0x345) & (SUPER_BYTES - 1)));
	TB_EQ(r.misses, 1);
	TB_EQ(r.reads.size(), 1);
	for (uint32_t vpn0 : {0u, 1u, 0x12u, 0x200u, PPU_FMAX(PPU_VA_VPN0)}) {
		for (uint32_t off : {0u, 0x800u, PPU_FMAX(PPU_VA_OFFSET)}) {
			uint32_t va = va_of(2, vpn0, off);
			TB_CTX("superpage hit va %08x", va);
			r = e.xlate(1 + vpn0 % 3, rq(va, tp::ACC_READ));
			TB_EQ(r.rsp.fault, 0);
			TB_EQ(r.rsp.addr, base | (va & (SUPER_BYTES - 1)));
			TB_EQ(r.lat, 1);
			TB_EQ(r.misses, 0);
		}
	}
}
END_TEST

START_TEST(tlb_entries_are_tagged_by_root_ppn_and_aperture)
{
	MmuEnv e;
	base_tables(e.mem);
	const uint32_t ROOT2 = 0x300;
	const uint32_t va = va_of(2, 0x12, 0x345);
	e.mem.w32(1, pte_addr(ROOT2, 2), pte_super(0x111, URWAD | V));
	e.mem.w32(0, pte_addr(ROOT2, 2), pte_super(0x222, 0)); // V = 0
	TB_CTX("fill through ROOT");
	e.xlate(0, rq(va, tp::ACC_READ));
	TB_CTX("same VA, root %x in the system aperture", ROOT2);
	MmuEnv::Result r = e.xlate(0, rq(va, tp::ACC_READ, ROOT2, 1));
	TB_EQ(r.misses, 1);
	TB_EQ(r.rsp.fault, 0);
	TB_EQ(r.rsp.sys, 0);
	TB_EQ(r.rsp.addr, (uint64_t(0x111) << PPU_VA_VPN1__LSB) | (va & (SUPER_BYTES - 1)));
	TB_CTX("same VA, root %x in the local aperture", ROOT2);
	r = e.xlate(0, rq(va, tp::ACC_READ, ROOT2, 0));
	TB_EQ(r.misses, 1);
	TB_EQ(r.rsp.fault, 1);
	TB_EQ(r.rsp.kind, PPU_FAULT_KIND_PTE_NOT_PRESENT);
	TB_CTX("both earlier roots still cached");
	r = e.xlate(0, rq(va, tp::ACC_READ));
	TB_EQ(r.misses, 0);
	TB_EQ(r.rsp.addr, (uint64_t(0xabc) << PPU_VA_VPN1__LSB) | (va & (SUPER_BYTES - 1)));
	r = e.xlate(0, rq(va, tp::ACC_READ, ROOT2, 1));
	TB_EQ(r.misses, 0);
	TB_EQ(r.rsp.addr, (uint64_t(0x111) << PPU_VA_VPN1__LSB) | (va & (SUPER_BYTES - 1)));
}
END_TEST

namespace {

// Tables for one case at VPN1 7: the L1 entry itself, or a pointer to an
// L0 table (page 0x400) whose VPN0 9 entry is l0.  Two requests: neither
// may be served from the TLB if the first faults.
void fault_case(MmuEnv &e, const char *name, bool use_l0, uint32_t l1, uint32_t l0, unsigned acc, unsigned kind)
{
	const uint32_t T = 0x400;
	e.mem.w32(0, pte_addr(ROOT, 7), use_l0 ? pte(T, V) : l1);
	if (use_l0)
		e.mem.w32(0, pte_addr(T, 9), l0);
	e.invalidate_pulse();
	const uint32_t va = va_of(7, 9, 0x10);
	for (unsigned n = 0; n < 2; n++) {
		TB_CTX("%s (request %u)", name, n);
		MmuEnv::Result r = e.xlate(1 + n, rq(va, acc));
		TB_EQ(r.rsp.fault, 1);
		TB_EQ(r.rsp.kind, kind);
		TB_EQ(r.misses, 1);
		TB_EQ(r.reads.size(), use_l0 ? 2u : 1u);
	}
}

} // namespace

START_TEST(not_present_faults_follow_sv32_rules_and_are_not_cached)
{
	MmuEnv e;
	const unsigned NP = PPU_FAULT_KIND_PTE_NOT_PRESENT;
	const uint32_t ppn1_only = PPU_FSET(PPU_PTE_PPN1, 5);
	fault_case(e, "L1 V = 0", false, ppn1_only | URWAD | X, 0, tp::ACC_READ, NP);
	fault_case(e, "L1 W without R", false, ppn1_only | V | W | U | A | D, 0, tp::ACC_WRITE, NP);
	fault_case(e, "L1 W|X without R", false, ppn1_only | V | W | X | U | A | D, 0, tp::ACC_EXEC, NP);
	fault_case(e, "misaligned superpage (PPN0 != 0)", false, ppn1_only | PPU_FSET(PPU_PTE_PPN0, 1) | V | URWAD,
		   0, tp::ACC_READ, NP);
	fault_case(e, "misaligned superpage without the permission", false,
		   ppn1_only | PPU_FSET(PPU_PTE_PPN0, 0x200) | V | R, 0, tp::ACC_WRITE, NP);
	fault_case(e, "L0 V = 0", true, 0, pte(0x77, URWAD | X), tp::ACC_READ, NP);
	fault_case(e, "L0 W without R", true, 0, pte(0x77, V | W | U | A | D), tp::ACC_WRITE, NP);
	fault_case(e, "pointer at level 0", true, 0, pte(0x77, V), tp::ACC_READ, NP);
	fault_case(e, "pointer at level 0 with U A D G", true, 0, pte(0x77, V | U | A | D | G), tp::ACC_READ, NP);
}
END_TEST

START_TEST(permission_faults_follow_the_access_table_for_every_leaf_flag_combination)
{
	MmuEnv e;
	const uint32_t T = 0x500;
	const uint32_t bits[6] = {R, W, X, U, A, D};
	unsigned n_ok = 0, n_perm = 0, n_np = 0;
	for (unsigned lvl = 0; lvl < 2; lvl++) {
		for (uint32_t combo = 0; combo < 64; combo++) {
			uint32_t f = V;
			for (unsigned b = 0; b < 6; b++)
				if (combo >> b & 1)
					f |= bits[b];
			if (!(f & (R | X)))
				continue; // a pointer, not a leaf
			// distinct pages so no combination sees another's TLB entry
			uint32_t va, ppn;
			if (lvl == 0) {
				e.mem.w32(0, pte_addr(ROOT, 3), pte(T, V));
				e.mem.w32(0, pte_addr(T, combo), pte(0x3000 + combo, f));
				va = va_of(3, combo, 0x5a4);
				ppn = 0x3000 + combo;
			} else {
				e.mem.w32(0, pte_addr(ROOT, 64 + combo), pte_super(0x40 + combo, f));
				va = va_of(64 + combo, 0x155, 0x5a4);
				ppn = 0;
			}
			for (unsigned acc : {tp::ACC_READ, tp::ACC_WRITE, tp::ACC_RMW, tp::ACC_EXEC}) {
				TB_CTX("%s leaf flags %03x, access %u", lvl ? "superpage" : "4 KiB", f, acc);
				MmuEnv::Result r = e.xlate(acc, rq(va, acc));
				unsigned kind = ((f & W) && !(f & R)) ? PPU_FAULT_KIND_PTE_NOT_PRESENT
					      : access_ok(f, acc)     ? PPU_FAULT_KIND_NONE
								      : PPU_FAULT_KIND_PERMISSION;
				TB_EQ(r.rsp.kind, kind);
				TB_EQ(r.rsp.fault, kind != PPU_FAULT_KIND_NONE);
				if (kind == PPU_FAULT_KIND_NONE) {
					uint64_t pa = lvl ? (uint64_t(0x40 + combo) << PPU_VA_VPN1__LSB) |
								    (va & (SUPER_BYTES - 1))
							  : (uint64_t(ppn) << tp::PAGE_SHIFT) | 0x5a4;
					TB_EQ(r.rsp.addr, pa);
					n_ok++;
				} else if (kind == PPU_FAULT_KIND_PERMISSION) {
					n_perm++;
				} else {
					n_np++;
				}
			}
		}
	}
	TB_CTX("sweep");
	// 2 levels x 48 leaf flag sets x 4 accesses
	TB_EQ(n_ok + n_perm + n_np, 2 * 48 * 4);
	TB_TRUE(n_ok >= 30 && n_np >= 60);
}
END_TEST

START_TEST(bus_error_on_either_pte_read_faults_bus_error)
{
	MmuEnv e;
	e.mem.rd_err.insert({0, pte_addr(ROOT, 7) & ~7ull});
	fault_case(e, "bus error on the level 1 PTE", false, 0, 0, tp::ACC_READ, PPU_FAULT_KIND_BUS_ERROR);
	e.mem.rd_err.clear();
	e.mem.rd_err.insert({0, pte_addr(0x400, 9) & ~7ull});
	fault_case(e, "bus error on the level 0 PTE", true, 0, pte(0x77, URWAD | V), tp::ACC_READ,
		   PPU_FAULT_KIND_BUS_ERROR);
}
END_TEST

START_TEST(fixed_page_table_takes_effect_without_invalidate_after_a_fault)
{
	MmuEnv e;
	const uint32_t T = 0x400;
	const uint32_t va = va_of(7, 9, 0x10);
	e.mem.w32(0, pte_addr(ROOT, 7), pte(T, V));
	e.mem.w32(0, pte_addr(T, 9), pte(0x77, V | R | U)); // A clear
	TB_CTX("A clear");
	MmuEnv::Result r = e.xlate(0, rq(va, tp::ACC_READ));
	TB_EQ(r.rsp.kind, PPU_FAULT_KIND_PERMISSION);
	e.mem.w32(0, pte_addr(T, 9), pte(0x77, V | R | U | A)); // software sets A
	TB_CTX("A set, no invalidate");
	r = e.xlate(1, rq(va, tp::ACC_READ));
	TB_EQ(r.rsp.fault, 0);
	TB_EQ(r.misses, 1);
	TB_EQ(r.rsp.addr, (0x77ull << tp::PAGE_SHIFT) | 0x10);
	TB_CTX("cached now");
	r = e.xlate(2, rq(va, tp::ACC_READ));
	TB_EQ(r.misses, 0);
	TB_EQ(r.lat, 1);
}
END_TEST

START_TEST(refused_tlb_hit_rewalks_and_a_widened_entry_replaces_the_old_one_in_place)
{
	MmuEnv e;
	const uint32_t T = 0x400;
	const uint32_t va = va_of(7, 9, 0x10);
	e.mem.w32(0, pte_addr(ROOT, 7), pte(T, V));
	e.mem.w32(0, pte_addr(T, 9), pte(0x78, V | R | U | A)); // read-only, clean
	e.invalidate_pulse();
	TB_CTX("read of a read-only page");
	MmuEnv::Result r = e.xlate(0, rq(va, tp::ACC_READ));
	TB_EQ(r.rsp.fault, 0);
	TB_EQ(r.misses, 1);
	TB_CTX("write of the cached read-only page");
	r = e.xlate(0, rq(va, tp::ACC_WRITE));
	TB_EQ(r.rsp.kind, PPU_FAULT_KIND_PERMISSION);
	TB_EQ(r.misses, 1);
	TB_EQ(r.reads.size(), 1);	/* the level-0 PTE again; the pointer is cached */
	TB_CTX("read after the refused write");
	r = e.xlate(0, rq(va, tp::ACC_READ));
	TB_EQ(r.misses, 0);
	e.mem.w32(0, pte_addr(T, 9), pte(0x78, V | R | W | U | A | D)); // widened, no invalidate
	TB_CTX("write after widening");
	r = e.xlate(0, rq(va, tp::ACC_WRITE));
	TB_EQ(r.rsp.fault, 0);
	TB_EQ(r.misses, 1);
	r = e.xlate(0, rq(va, tp::ACC_WRITE));
	TB_EQ(r.misses, 0);
	// 15 more pages fill the other 15 entries; if the widened translation
	// had taken a second entry, one of these 16 would have been evicted.
	for (uint32_t i = 1; i < TLB_ENTRIES; i++)
		e.mem.w32(0, pte_addr(T, 9 + i), pte(0x80 + i, URWAD | V));
	for (uint32_t i = 1; i < TLB_ENTRIES; i++) {
		TB_CTX("fill page %u", i);
		TB_EQ(e.xlate(i % NCLIENT, rq(va_of(7, 9 + i, 0), tp::ACC_READ)).misses, 1);
	}
	for (uint32_t i = 0; i < TLB_ENTRIES; i++) {
		TB_CTX("page %u after 16 fills", i);
		TB_EQ(e.xlate(i % NCLIENT, rq(va_of(7, 9 + i, 0), i ? tp::ACC_READ : tp::ACC_WRITE)).misses, 0);
	}
}
END_TEST

START_TEST(invalidate_drops_every_entry)
{
	MmuEnv e;
	base_tables(e.mem);
	const uint32_t vas[3] = {va_of(1, 5, 0), va_of(1, 6, 0), va_of(2, 0, 0)};
	for (uint32_t va : vas)
		e.xlate(0, rq(va, tp::ACC_READ));
	for (uint32_t va : vas) {
		TB_CTX("va %08x before invalidate", va);
		TB_EQ(e.xlate(1, rq(va, tp::ACC_READ)).misses, 0);
	}
	e.invalidate_pulse();
	for (uint32_t va : vas) {
		TB_CTX("va %08x after invalidate", va);
		MmuEnv::Result r = e.xlate(2, rq(va, tp::ACC_READ));
		TB_EQ(r.misses, 1);
		TB_EQ(r.rsp.fault, 0);
	}
}
END_TEST

/*
 * An invalidate while a walk is under way (or in its answer's cycle) makes
 * the walk start again from the root when it would answer: the answer is
 * then the current tables', so it is cached like any other (a later
 * lookup hits), and the walk took longer.  An invalidate after the answer
 * only drops the entry.
 */
START_TEST(invalidate_during_a_walk_walks_again_and_answers_from_the_current_tables)
{
	MmuEnv e;
	base_tables(e.mem);
	e.lat_min = e.lat_max = 3;
	const uint32_t va = va_of(1, 5, 0);
	e.invalidate_pulse();
	e.start(1, rq(va, tp::ACC_READ));
	while (!e.cl[1].done)
		e.cycle();
	const uint64_t base = e.cl[1].rsp_cyc - e.cl[1].accept_cyc;
	e.idle(3);
	unsigned again = 0, after = 0;
	for (uint64_t when = 0; when < 14; when++) {
		e.invalidate_pulse();
		e.start(1, rq(va, tp::ACC_READ));
		unsigned m0 = e.misses;
		for (uint64_t i = 0; !e.cl[1].done; i++) {
			TB_TRUE(i < 100);
			e.invalidate = i == when; // i = 0 is the handshake cycle
			e.cycle();
		}
		e.invalidate = false;
		e.idle(3);
		uint64_t walk = e.cl[1].rsp_cyc - e.cl[1].accept_cyc;
		TB_CTX("invalidate %llu cycles after the handshake of a %llu-cycle walk (%llu alone)",
		       (unsigned long long)when, (unsigned long long)walk, (unsigned long long)base);
		TB_EQ(e.misses - m0, 1);
		TB_EQ(e.cl[1].got.fault, 0);
		TB_EQ(e.cl[1].got.addr >> tp::PAGE_SHIFT, 0x3ffff5u);
		TB_TRUE(walk == base || walk > base + base / 2);
		if (walk > base) {
			again++;
			// walked again after the invalidate: cached
			TB_EQ(e.xlate(1, rq(va, tp::ACC_READ)).misses, 0u);
		} else {
			after++;
		}
	}
	TB_CTX("sweep");
	TB_TRUE(again >= 5 && after >= 3);
}
END_TEST

START_TEST(full_tlb_fills_free_entries_first_then_replaces_the_least_recently_used)
{
	MmuEnv e;
	const uint32_t T = 0x600, NPAGES = 24;
	e.mem.w32(0, pte_addr(ROOT, 5), pte(T, V));
	for (uint32_t i = 0; i < NPAGES; i++)
		e.mem.w32(0, pte_addr(T, i), pte(0x900 + i, URWAD | V));
	// Model: a miss fills the first free entry, else the least recently
	// used one; every hit and fill is a use.
	int tlb[TLB_ENTRIES];
	uint64_t used[TLB_ENTRIES] = {};
	std::fill(tlb, tlb + TLB_ENTRIES, -1);
	Rng r(5);
	unsigned nmiss = 0;
	for (unsigned k = 0; k < 400; k++) {
		// a hot set of four pages used every few accesses, the rest at random
		uint32_t page = k < NPAGES ? k : (k % 3 == 0 ? k / 3 % 4 : r.below(NPAGES));
		int *at = std::find(tlb, tlb + TLB_ENTRIES, int(page));
		bool hit = at != tlb + TLB_ENTRIES;
		if (!hit) {
			at = std::find(tlb, tlb + TLB_ENTRIES, -1);
			if (at == tlb + TLB_ENTRIES)
				at = tlb + (std::min_element(used, used + TLB_ENTRIES) - used);
			*at = int(page);
			nmiss++;
		}
		used[at - tlb] = k + 1;
		TB_CTX("access %u: page %u (model: %s)", k, page, hit ? "hit" : "miss");
		MmuEnv::Result x = e.xlate(k % NCLIENT, rq(va_of(5, page, 0x8), tp::ACC_READ));
		TB_EQ(x.misses, hit ? 0u : 1u);
		TB_EQ(x.rsp.addr, (uint64_t(0x900 + page) << tp::PAGE_SHIFT) | 0x8);
	}
	TB_CTX("sweep");
	TB_TRUE(nmiss > 60);
}
END_TEST

START_TEST(clients_are_granted_round_robin_and_hits_are_accepted_every_cycle)
{
	MmuEnv e;
	base_tables(e.mem);
	TB_CTX("fill");
	e.xlate(0, rq(va_of(1, 5, 0), tp::ACC_READ)); // pointer moves past client 0
	e.grants.clear();
	e.grant_cyc.clear();
	for (unsigned rep = 0; rep < 3; rep++) {
		for (unsigned c = 0; c < NCLIENT; c++)
			e.start(c, rq(va_of(1, 5, 8 * c), tp::ACC_READ));
		for (int i = 0; i < 10; i++)
			e.cycle();
	}
	for (std::size_t k = 0; k < e.grants.size(); k++) {
		TB_CTX("simultaneous hits, grant %zu", k);
		TB_EQ(e.grants[k], (k + 1) % NCLIENT);
		if (k % NCLIENT)
			TB_EQ(e.grant_cyc[k], e.grant_cyc[k - 1] + 1);
	}
	TB_CTX("simultaneous hits");
	TB_EQ(e.grants.size(), 3 * NCLIENT);
	// Continuous load: every client re-requests as soon as it is answered.
	e.grants.clear();
	e.grant_cyc.clear();
	for (int i = 0; i < 400; i++) {
		for (unsigned c = 0; c < NCLIENT; c++)
			if (!e.cl[c].active && !e.cl[c].waiting)
				e.start(c, rq(va_of(1, 5, 8 * c), tp::ACC_READ));
		e.cycle();
	}
	unsigned n[NCLIENT] = {0, 0, 0, 0};
	for (unsigned g : e.grants)
		n[g]++;
	TB_CTX("continuous hits, 400 cycles");
	TB_EQ(e.grants.size(), 400);
	for (unsigned c = 0; c < NCLIENT; c++)
		TB_EQ(n[c], 100);
	for (unsigned c = 0; c < NCLIENT; c++)
		e.cl[c].active = false;
	e.idle(5);
}
END_TEST

START_TEST(random_page_tables_match_the_reference_walker)
{
	MmuEnv e;
	Rng rg(7);
	// VPN1 16..31: random mixes of pointers to L0 tables (either aperture),
	// superpages, invalid and junk entries; L0 entries random.
	auto rebuild = [&]() {
		e.mem.rd_err.clear();
		for (uint32_t v1 = 16; v1 < 32; v1++) {
			uint64_t a = pte_addr(ROOT, v1);
			switch (rg.below(8)) {
			case 0:
				e.mem.w32(0, a, rg.u32() & ~V);
				break;
			case 1:
				e.mem.w32(0, a, pte_super(rg.below(0x1000), rg.u32() & 0x1fe));
				break;
			case 2:
				e.mem.w32(0, a, (rg.u32() & ~0x3ffu) | (rg.u32() & 0x3ff) | V);
				break;
			case 7:
				e.mem.w32(0, a, pte_super(rg.below(0x1000), URWAD | X | V | (rg.below(2) ? SYS : 0)));
				break;
			default: {
				uint32_t tsys = rg.below(2), tppn = 0x1000 + v1;
				e.mem.w32(0, a, pte(tppn, V | (tsys ? SYS : 0) | (rg.below(4) ? 0 : U | A | D)));
				for (uint32_t v0 = 0; v0 < 8; v0++) {
					uint32_t f = rg.below(8) ? (URWAD | X | V) & (rg.u32() | rg.u32() | ~(W | X | D))
								  : rg.u32() & 0x3ff;
					e.mem.w32(tsys, pte_addr(tppn, v0), pte(rg.below(1u << 22), f));
				}
			}
			}
		}
		for (int i = 0; i < 2; i++)
			e.mem.rd_err.insert({int(rg.below(2)), (0x1000ull + 16 + rg.below(16)) << tp::PAGE_SHIFT});
	};
	rebuild();
	e.invalidate_pulse();
	e.lat_min = 1;
	e.lat_max = 5;
	e.rd_ready_pct = 60;
	unsigned nreq = 0, nfault = 0, nok = 0;
	for (int it = 0; it < 150000; it++) {
		for (unsigned c = 0; c < NCLIENT; c++) {
			if (e.cl[c].active || e.cl[c].waiting || rg.below(3))
				continue;
			bool narrow = (it / 20000) % 2; // few pages: mostly hits
			uint32_t va = va_of(16 + rg.below(narrow ? 5 : 16), rg.below(narrow ? 4 : 8), rg.below(0x1000));
			unsigned acc = rg.below(8) < 5 ? unsigned(tp::ACC_READ) : rg.below(4);
			e.start(c, rq(va, acc));
			nreq++;
		}
		TB_CTX("random tables, cycle %d", it);
		e.cycle();
		for (unsigned c = 0; c < NCLIENT; c++) {
			if (e.cl[c].done) {
				e.cl[c].done = false;
				(e.cl[c].got.fault ? nfault : nok)++;
			}
		}
		// page tables change only when nothing is in flight, then invalidate
		if (it % 5000 == 4999) {
			for (unsigned c = 0; c < NCLIENT; c++)
				e.cl[c].active = false;
			e.idle(50);
			for (unsigned c = 0; c < NCLIENT; c++) {
				TB_TRUE(!e.cl[c].waiting);
				e.cl[c].done = false;
			}
			rebuild();
			e.invalidate_pulse();
		}
		if (rg.below(5000) == 0)
			e.invalidate_pulse(); // always safe
	}
	TB_CTX("random tables");
	TB_TRUE(nreq > 28000 && nok > 5000 && nfault > 5000);
	TB_TRUE(e.misses > 10000 && e.misses < nreq / 2 + nreq / 4);
}
END_TEST

int main()
{
	return tb_run_suite("mmu", {
		miss_walks_level1_then_level0_and_answers_one_cycle_after_the_last_pte,
		tlb_hit_answers_one_cycle_after_the_handshake_without_memory_reads,
		pte_is_taken_from_the_addressed_half_of_its_beat,
		walk_cache_skips_the_level1_read_within_a_clients_region,
		superpage_maps_4mib_and_hits_for_every_vpn0,
		tlb_entries_are_tagged_by_root_ppn_and_aperture,
		not_present_faults_follow_sv32_rules_and_are_not_cached,
		permission_faults_follow_the_access_table_for_every_leaf_flag_combination,
		bus_error_on_either_pte_read_faults_bus_error,
		fixed_page_table_takes_effect_without_invalidate_after_a_fault,
		refused_tlb_hit_rewalks_and_a_widened_entry_replaces_the_old_one_in_place,
		invalidate_drops_every_entry,
		invalidate_during_a_walk_walks_again_and_answers_from_the_current_tables,
		full_tlb_fills_free_entries_first_then_replaces_the_least_recently_used,
		clients_are_granted_round_robin_and_hits_are_accepted_every_cycle,
		random_page_tables_match_the_reference_walker,
	});
}
