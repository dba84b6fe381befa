// SPDX-License-Identifier: MIT
/*
 * Shared pieces of the per-block testbenches in tests/blocks/ (one Verilated
 * RTL module per testbench, driven cycle by cycle from C++):
 *
 *   - bit access to Verilator port values, narrow or VlWide;
 *   - the bit layouts of the ppu_types_pkg structs (internal to the RTL, so
 *     described here once; every software-visible number comes from
 *     include/ppu/ppu_hw.h);
 *   - a clocked DUT wrapper, a two-aperture byte memory, an in-order
 *     response pipe, a page mapping for translation models, a PRNG;
 *   - failure macros that cost nothing when they pass, and the Check runner.
 *
 * Each testbench is one Check suite; every behaviour is its own test case
 * (CK_RUN_CASE=<name> runs one, CK_VERBOSITY=verbose lists them all).
 */
#ifndef PPU_TB_COMMON_H
#define PPU_TB_COMMON_H

#include <check.h>
#include <verilated.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <initializer_list>
#include <memory>
#include <set>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "ppu/ppu_hw.h"

// ---------------------------------------------------------------------------
// Failure reporting.  Check's ck_assert_* record a checkpoint on every pass
// (a write to the parent process); these only act on failure.  TB_CTX sets a
// line of context (which copy, which op, ...) printed with any failure.
// ---------------------------------------------------------------------------
static inline char *tb_ctx_buf()
{
	static char buf[512];
	return buf;
}
#define TB_CTX(...) snprintf(tb_ctx_buf(), 512, __VA_ARGS__)
#define TB_EQ(got, exp)                                                                   \
	do {                                                                              \
		unsigned long long tb_g_ = (unsigned long long)(got);                     \
		unsigned long long tb_e_ = (unsigned long long)(exp);                     \
		if (tb_g_ != tb_e_)                                                       \
			ck_abort_msg("%s: %s = 0x%llx (%llu), expected %s = 0x%llx (%llu)", \
				     tb_ctx_buf(), #got, tb_g_, tb_g_, #exp, tb_e_, tb_e_);  \
	} while (0)
#define TB_TRUE(cond)                                                        \
	do {                                                                 \
		if (!(cond))                                                 \
			ck_abort_msg("%s: expected %s", tb_ctx_buf(), #cond); \
	} while (0)
#define TB_FAIL(...) ck_abort_msg(__VA_ARGS__)

// ---------------------------------------------------------------------------
// Bit fields of port values.
// ---------------------------------------------------------------------------
struct Field {
	unsigned lsb, width;
};
constexpr Field first(unsigned w) { return Field{0, w}; }
constexpr Field after(Field f, unsigned w) { return Field{f.lsb + f.width, w}; }
constexpr unsigned end_of(Field f) { return f.lsb + f.width; }
// Field f of element i of a flat array of structs of w bits.
constexpr Field elem(Field f, unsigned w, unsigned i) { return Field{f.lsb + i * w, f.width}; }

constexpr uint64_t mask64(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static inline uint64_t get(const T &v, Field f)
{
	return (uint64_t(v) >> f.lsb) & mask64(f.width);
}
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static inline void set(T &v, Field f, uint64_t x)
{
	uint64_t m = mask64(f.width) << f.lsb;
	v = T((uint64_t(v) & ~m) | ((x << f.lsb) & m));
}
template <std::size_t N> static inline uint64_t get(const VlWide<N> &v, Field f)
{
	uint64_t r = 0;
	for (unsigned got = 0; got < f.width;) {
		unsigned b = f.lsb + got, o = b % 32, take = 32 - o;
		if (take > f.width - got)
			take = f.width - got;
		r |= (uint64_t(v[b / 32] >> o) & mask64(take)) << got;
		got += take;
	}
	return r;
}
template <std::size_t N> static inline void set(VlWide<N> &v, Field f, uint64_t x)
{
	for (unsigned put = 0; put < f.width;) {
		unsigned b = f.lsb + put, o = b % 32, take = 32 - o;
		if (take > f.width - put)
			take = f.width - put;
		uint32_t m = uint32_t(mask64(take) << o);
		v[b / 32] = (v[b / 32] & ~m) | (uint32_t((x >> put) << o) & m);
		put += take;
	}
}
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static inline void clear(T &v)
{
	v = 0;
}
template <std::size_t N> static inline void clear(VlWide<N> &v)
{
	for (std::size_t i = 0; i < N; i++)
		v[i] = 0;
}
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static inline bool same(const T &a, const T &b)
{
	return a == b;
}
template <std::size_t N> static inline bool same(const VlWide<N> &a, const VlWide<N> &b)
{
	for (std::size_t i = 0; i < N; i++)
		if (a[i] != b[i])
			return false;
	return true;
}
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static inline void randomize(T &v, uint64_t r)
{
	v = T(r);
}
template <std::size_t N> static inline void randomize(VlWide<N> &v, uint64_t r)
{
	for (std::size_t i = 0; i < N; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		v[i] = uint32_t(r >> 32);
	}
}

// ---------------------------------------------------------------------------
// ppu_types_pkg struct layouts (packed: the last member is at bit 0, so each
// list below reads bottom-up).  Widths that mirror a software format are
// taken from ppu_hw.h.
// ---------------------------------------------------------------------------
namespace tp {
constexpr unsigned PAGE_SHIFT = PPU_PAGE_SHIFT;
constexpr uint32_t PAGE_BYTES = 1u << PAGE_SHIFT;
constexpr unsigned PA_W = 32 + PPU_FWIDTH(PPU_ADDR_HI_ADDR); // Sv32 physical address
constexpr unsigned BEAT = 8;                                 // MEM_BYTES
constexpr unsigned KIND_W = PPU_FWIDTH(PPU_FAULT_INFO_KIND);
constexpr unsigned UNIT_W = PPU_FWIDTH(PPU_FAULT_INFO_UNIT);
constexpr unsigned CHID_W = PPU_CHID_BITS; // ppu_types_pkg::CHID_W
constexpr unsigned ROOT_PPN_W = PPU_FWIDTH(PPU_INST_PT_ROOT_PPN);
constexpr unsigned ACC_W = 2; // access_e

// access_e; the host copies it into FAULT_INFO.ACCESS unchanged.
enum Access : unsigned {
	ACC_READ = PPU_FAULT_ACCESS_READ,
	ACC_WRITE = PPU_FAULT_ACCESS_WRITE,
	ACC_RMW = PPU_FAULT_ACCESS_RMW,
	ACC_EXEC = PPU_FAULT_ACCESS_EXEC,
};

namespace paddr { // {sys, addr}
constexpr Field addr = first(PA_W), sys = after(addr, 1);
constexpr unsigned W = end_of(sys);
} // namespace paddr

namespace xreq { // xlate_req_t {va, root {sys, ppn}, access}
constexpr Field access = first(ACC_W), root_ppn = after(access, ROOT_PPN_W),
		root_sys = after(root_ppn, 1), va = after(root_sys, 32);
constexpr unsigned W = end_of(va);
} // namespace xreq

namespace xrsp { // xlate_rsp_t {fault, kind, pa {sys, addr}}
constexpr Field addr = first(PA_W), sys = after(addr, 1), kind = after(sys, KIND_W),
		fault = after(kind, 1);
constexpr unsigned W = end_of(fault);
} // namespace xrsp

namespace rdrsp { // mem_rd_rsp_t {data, err}
constexpr Field err = first(1), data = after(err, 64);
constexpr unsigned W = end_of(data);
} // namespace rdrsp

namespace wreq { // mem_wr_req_t {pa {sys, addr}, data, strb}
constexpr Field strb = first(BEAT), data = after(strb, 64), addr = after(data, PA_W),
		sys = after(addr, 1);
constexpr unsigned W = end_of(sys);
} // namespace wreq

namespace sreq { // sem_req_t {rid, chid, root {sys, ppn}, va, exec, payload}
constexpr Field payload = first(64), exec = after(payload, 32), va = after(exec, 32),
		root_ppn = after(va, ROOT_PPN_W), root_sys = after(root_ppn, 1),
		chid = after(root_sys, CHID_W), rid = after(chid, 8);
constexpr unsigned W = end_of(rid);
} // namespace sreq

namespace srsp { // sem_rsp_t {acq_fail, fault, kind, access, value}
constexpr Field value = first(32), access = after(value, ACC_W), kind = after(access, KIND_W),
		fault = after(kind, 1), acq_fail = after(fault, 1);
constexpr unsigned W = end_of(acq_fail);
} // namespace srsp

namespace cmd { // copy_cmd_t {chid, root, src, dst, len, sem_mode, sem_va, sem_payload}
constexpr Field sem_payload = first(32), sem_va = after(sem_payload, 32),
		sem_mode = after(sem_va, PPU_FWIDTH(PPU_LAUNCH_DMA_SEMAPHORE)),
		len = after(sem_mode, 32), dst = after(len, 32), src = after(dst, 32),
		root_ppn = after(src, ROOT_PPN_W), root_sys = after(root_ppn, 1),
		chid = after(root_sys, CHID_W);
constexpr unsigned W = end_of(chid);
} // namespace cmd

namespace done { // copy_done_t {fault, kind, unit, access, addr}
constexpr Field addr = first(32), access = after(addr, ACC_W), unit = after(access, UNIT_W),
		kind = after(unit, KIND_W), fault = after(kind, 1);
constexpr unsigned W = end_of(fault);
} // namespace done

namespace trace { // trace_t {valid, kind, chid, a, b}
constexpr Field b = first(32), a = after(b, 32), chid = after(a, CHID_W), kind = after(chid, 8),
		valid = after(kind, 1);
constexpr unsigned W = end_of(valid);
} // namespace trace

// The flat-port widths ppu_types_pkg declares for arrays of these structs.
static_assert(paddr::W == 1 + PA_W, "PADDR_W");
static_assert(xreq::W == 32 + 23 + 2, "XLATE_REQ_W");
static_assert(wreq::W == paddr::W + 64 + 8, "MEM_WR_REQ_W");
static_assert(sreq::W == 8 + CHID_W + 23 + 32 + 32 + 64, "SEM_REQ_W");
} // namespace tp

// ---------------------------------------------------------------------------
// Clocked DUT: every Verilated block has clk and an active-low synchronous
// rst_n.  Variables without a reset start random (the models are built with
// --x-initial unique), from a fixed seed so every run is the same.
// ---------------------------------------------------------------------------
template <class M> struct Dut {
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<M> m;
	uint64_t cyc = 0;

	explicit Dut(int seed = 1) : ctx(new VerilatedContext)
	{
		ctx->randReset(2);
		ctx->randSeed(seed);
		m.reset(new M(ctx.get(), "dut"));
		m->clk = 0;
		m->rst_n = 0;
	}
	~Dut() { m->final(); }
	M *operator->() { return m.get(); }
	void eval() { m->eval(); }
	// Rising then falling edge; inputs for the next cycle are driven after.
	void tick()
	{
		m->clk = 1;
		m->eval();
		m->clk = 0;
		m->eval();
		cyc++;
	}
	// Call with every input already at its idle value.
	void reset(int cycles = 4)
	{
		m->rst_n = 0;
		for (int i = 0; i < cycles; i++) {
			m->eval();
			tick();
		}
		m->rst_n = 1;
		m->eval();
	}
};

// ---------------------------------------------------------------------------
// PRNG (xorshift64*), deterministic per seed.
// ---------------------------------------------------------------------------
struct Rng {
	uint64_t s;
	explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 1) {}
	uint64_t u64()
	{
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		return s * 0x2545f4914f6cdd1dull;
	}
	uint32_t u32() { return uint32_t(u64() >> 32); }
	uint32_t below(uint32_t n) { return n ? uint32_t((u64() >> 32) % n) : 0; }
	bool pct(unsigned p) { return p >= 100 || below(100) < p; }
};

// ---------------------------------------------------------------------------
// Byte memory with two apertures (sys = 0 local, 1 system), allocated by
// page.  Bytes never written read as a fixed pseudo-random pattern, so a
// source needs no filling and a stale read shows.  rd_err / wr_err hold beat
// addresses whose read data / write ack carry an error (an erroring write
// changes nothing).
// ---------------------------------------------------------------------------
class Mem {
public:
	std::set<std::pair<int, uint64_t>> rd_err, wr_err;

	explicit Mem(uint64_t seed = 1) : seed_(seed) {}
	uint8_t byte(int sys, uint64_t a) { return page(sys, a)[a % tp::PAGE_BYTES]; }
	void set_byte(int sys, uint64_t a, uint8_t v) { page(sys, a)[a % tp::PAGE_BYTES] = v; }
	uint64_t rd_beat(int sys, uint64_t a)
	{
		uint64_t v = 0;
		std::memcpy(&v, &page(sys, a)[(a % tp::PAGE_BYTES) & ~uint64_t(tp::BEAT - 1)], 8);
		return v;
	}
	void wr_beat(int sys, uint64_t a, uint64_t data, unsigned strb)
	{
		uint8_t *p = &page(sys, a)[(a % tp::PAGE_BYTES) & ~uint64_t(tp::BEAT - 1)];
		for (unsigned i = 0; i < tp::BEAT; i++)
			if (strb >> i & 1)
				p[i] = uint8_t(data >> (8 * i));
	}
	uint32_t r32(int sys, uint64_t a)
	{
		uint32_t v;
		std::memcpy(&v, &page(sys, a)[a % tp::PAGE_BYTES], 4);
		return v;
	}
	void w32(int sys, uint64_t a, uint32_t v) { std::memcpy(&page(sys, a)[a % tp::PAGE_BYTES], &v, 4); }
	uint64_t r64(int sys, uint64_t a)
	{
		uint64_t v;
		std::memcpy(&v, &page(sys, a)[a % tp::PAGE_BYTES], 8);
		return v;
	}
	void w64(int sys, uint64_t a, uint64_t v) { std::memcpy(&page(sys, a)[a % tp::PAGE_BYTES], &v, 8); }
	bool rd_error(int sys, uint64_t a) const { return rd_err.count({sys, a & ~uint64_t(7)}) != 0; }
	bool wr_error(int sys, uint64_t a) const { return wr_err.count({sys, a & ~uint64_t(7)}) != 0; }

private:
	typedef std::array<uint8_t, tp::PAGE_BYTES> Page;
	uint64_t seed_;
	std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;

	uint8_t *page(int sys, uint64_t a)
	{
		uint64_t key = (uint64_t(sys) << 40) | (a >> tp::PAGE_SHIFT);
		std::unique_ptr<Page> &p = pages_[key];
		if (!p) {
			p.reset(new Page);
			Rng r(key ^ (seed_ << 44));
			for (unsigned i = 0; i < tp::PAGE_BYTES; i += 8) {
				uint64_t x = r.u64();
				std::memcpy(&(*p)[i], &x, 8);
			}
		}
		return p->data();
	}
};

// ---------------------------------------------------------------------------
// A fixed VA -> PA mapping for translation models: the physical page is the
// virtual page with high bits flipped (so PA bits 33:32 are exercised and VA
// and PA never coincide) and the aperture alternates every two pages.
// ---------------------------------------------------------------------------
struct PageMap {
	static constexpr uint64_t FLIP = 0x3c5a5;
	static uint64_t ppn(uint32_t vpn) { return vpn ^ FLIP; }
	static int sys(uint32_t vpn) { return (vpn >> 1) & 1; }
	static uint64_t pa(uint32_t va)
	{
		return (ppn(va >> tp::PAGE_SHIFT) << tp::PAGE_SHIFT) | (va & (tp::PAGE_BYTES - 1));
	}
	static int sys_of(uint32_t va) { return sys(va >> tp::PAGE_SHIFT); }
	// Inverse of pa(); checks the aperture matches.
	static bool va_of(int sys_, uint64_t pa_, uint32_t *va)
	{
		uint64_t vpn = (pa_ >> tp::PAGE_SHIFT) ^ FLIP;
		if (vpn >> (32 - tp::PAGE_SHIFT) || sys(uint32_t(vpn)) != sys_)
			return false;
		*va = uint32_t(vpn << tp::PAGE_SHIFT) | uint32_t(pa_ & (tp::PAGE_BYTES - 1));
		return true;
	}
};

// ---------------------------------------------------------------------------
// In-order responses with a latency: an item pushed at cycle t with latency
// L is due at t + L, and never in the same cycle as the one before it.
// ---------------------------------------------------------------------------
template <class T> class Pipe {
public:
	void push(uint64_t now, unsigned lat, const T &v)
	{
		uint64_t due = now + lat;
		if (!q_.empty() && due <= q_.back().first)
			due = q_.back().first + 1;
		q_.emplace_back(due, v);
	}
	bool due(uint64_t now) const { return !q_.empty() && q_.front().first <= now; }
	T pop()
	{
		T v = q_.front().second;
		q_.pop_front();
		return v;
	}
	const T &front() const { return q_.front().second; }
	bool empty() const { return q_.empty(); }
	std::size_t size() const { return q_.size(); }
	void clear() { q_.clear(); }

private:
	std::deque<std::pair<uint64_t, T>> q_;
};

// ---------------------------------------------------------------------------
// valid/ready checker: once valid is seen without ready, valid and the
// payload must hold until the handshake (docs/hw-internals.md).
// ---------------------------------------------------------------------------
template <class T> struct HoldCheck {
	bool stalled = false;
	T last{};
	// Call once per cycle, after eval and before the clock edge.
	void sample(const char *what, bool valid, bool ready, const T &payload)
	{
		if (stalled) {
			if (!valid)
				TB_FAIL("%s: %s valid dropped before ready", tb_ctx_buf(), what);
			if (!same(payload, last))
				TB_FAIL("%s: %s payload changed while stalled", tb_ctx_buf(), what);
		}
		stalled = valid && !ready;
		last = payload;
	}
};

// ---------------------------------------------------------------------------
// Runner: one Check test case per test, named after it.
// ---------------------------------------------------------------------------
static inline int tb_run_suite(const char *name, std::initializer_list<const TTest *> tests,
			       double timeout = 120)
{
	Suite *s = suite_create(name);
	for (const TTest *t : tests) {
		TCase *tc = tcase_create(t->name);
		tcase_set_timeout(tc, timeout);
		tcase_add_test(tc, t);
		suite_add_tcase(s, tc);
	}
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

#endif
