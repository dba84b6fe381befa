// SPDX-License-Identifier: MIT
/*
 * One compute unit (hw/rtl/ppu_cu.sv, built with CU_INDEX = 2) against the
 * instruction-set reference model (tests/iss/ppu_iss.c).
 *
 * The testbench plays everything around the CU:
 *   - the task table: CTAs of launches are dispatched in order as the CU
 *     accepts them; each CTA c gets the stack of ISS slot c (the ISS runs
 *     every CTA of a launch resident, so stacks agree); EXITED/KILLED
 *     events are collected, and at EXITED the registers of the CTA's
 *     threads are read through the debug port;
 *   - the MMU: page tables per root, each page with its own R/W/X, the
 *     physical page scrambled from the virtual one (both apertures);
 *   - memory: tb_common's byte memory, answering reads and write acks in
 *     order with a latency; ready drops at random;
 *   - the semaphore unit: AMO/LR/SC executed on the same memory, with one
 *     reservation per requester id, cleared by any write to the beat.
 * The ISS runs the same launch on its own copy of the memory (same initial
 * contents, same page tables and faults).  Compared: every thread's x1..x31
 * and PC at its exit, and every mapped page.  Results that depend on the
 * interleaving are avoided by construction (atomics on shared words with
 * the result discarded, per-thread windows, barriers).
 *
 * Tests: instruction classes by hand, CSRs, ecalls, the sample kernels of
 * runtime/device/samples, seeded random programs, faults (with other CTAs
 * running on), kill, barriers with exits, several CTAs and tasks resident,
 * back-to-back dispatch, the I-cache (conflicts, root tags, invalidate),
 * and the issue rate with every context on ALU code.
 */
#include "Vppu_cu.h"
#include "tb_common.h"

#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "../iss/ppu_iss.h"
extern "C" {
#include "../../runtime/module_elf.h"
}
#include "../../runtime/device/samples/samples.h"

#ifndef PPU_DEVICE_DIR
#define PPU_DEVICE_DIR "build/device"
#endif

namespace {

constexpr unsigned CTX = 8;       // CU_CONTEXTS of the model
constexpr unsigned CU_INDEX = 2;  // -GCU_INDEX=2
constexpr unsigned NUM_CU = 4;

// ---------------------------------------------------------------------------
// Port layouts of the compute-unit structs (ppu_types_pkg, packed: the last
// member at bit 0).
// ---------------------------------------------------------------------------
namespace disp { // cu_disp_t
constexpr Field maxdepth = first(7), depth = after(maxdepth, 7), prio = after(depth, 6),
		ncta = after(prio, 32), grid_z = after(ncta, 16), grid_y = after(grid_z, 16),
		grid_x = after(grid_y, 32), cta_z = after(grid_x, 11), cta_y = after(cta_z, 11),
		cta_x = after(cta_y, 11), stack_log2 = after(cta_x, 5),
		stack_va = after(stack_log2, 32), param = after(stack_va, 32),
		entry_pc = after(param, 32), nthreads = after(entry_pc, 11),
		cta_id = after(nthreads, 32), root_ppn = after(cta_id, tp::ROOT_PPN_W),
		root_sys = after(root_ppn, 1), chid = after(root_sys, tp::CHID_W), tid = after(chid, 8),
		tslot = after(tid, 4), hdr_va = after(tslot, 32), save_va = after(hdr_va, 32),
		resume = after(save_va, 1);
constexpr unsigned W = end_of(resume);
static_assert(W == 393 + tp::CHID_W, "CU_DISP_W");
} // namespace disp
namespace ev { // cu_ev_t {kind, tslot, cta_id}
constexpr Field cta_id = first(32), tslot = after(cta_id, 4), kind = after(tslot, 2);
}
namespace kill { // cu_kill_t {save, tslot, cta_id}
constexpr Field cta_id = first(32), tslot = after(cta_id, 4), save = after(tslot, 1);
}
namespace flt { // cu_fault_t {chid, kind, unit, access, addr, data}
constexpr Field data = first(32), addr = after(data, 32), access = after(addr, 2),
		unit = after(access, 4), kind = after(unit, 8), chid = after(kind, tp::CHID_W);
}

namespace dreq { // cu_dreq_t {launch, cu, ctx, tslot, cta_id, arg}
constexpr Field arg = first(32), cta_id = after(arg, 32), tslot = after(cta_id, 4), ctx = after(tslot, 4),
		cu = after(ctx, 3), launch = after(cu, 1);
}
namespace drsp { // cu_drsp_t {cu, ctx, sleep, a0}
constexpr Field a0 = first(32), sleep = after(a0, 1), ctx = after(sleep, 4), cu = after(ctx, 3);
}

enum { EV_EXITED = 0, EV_KILLED = 1, EV_SAVED = 2, EV_SAVED_WAIT = 3 };
// cu_ctx_e
enum { S_FREE, S_READY, S_PIPE, S_FWAIT, S_MWAIT, S_SWAIT, S_BAR, S_EXIT, S_FAULT, S_SAVE, S_RSTR, S_SAVED };

// ---------------------------------------------------------------------------
// Instruction encoders (RV32IMA), checked against the reference decoder.
// ---------------------------------------------------------------------------
enum Reg : unsigned {
	ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5, A6, A7,
	S2, S3, S4, S5, S6, S7, S8, S9, S10, S11, T3, T4, T5, T6
};

uint32_t r_type(uint32_t f7, unsigned rs2, unsigned rs1, uint32_t f3, unsigned rd, uint32_t opc)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
uint32_t i_type(int32_t imm, unsigned rs1, uint32_t f3, unsigned rd, uint32_t opc)
{
	return (uint32_t(imm) & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
uint32_t s_type(int32_t imm, unsigned rs2, unsigned rs1, uint32_t f3)
{
	uint32_t u = uint32_t(imm);
	return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1f) << 7 | 0x23;
}
uint32_t b_type(int32_t imm, unsigned rs2, unsigned rs1, uint32_t f3)
{
	uint32_t u = uint32_t(imm);
	return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | 0x63;
}
uint32_t j_type(int32_t imm, unsigned rd)
{
	uint32_t u = uint32_t(imm);
	return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 |
	       (u >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

uint32_t LUI(unsigned rd, uint32_t v) { return (v & 0xfffff000u) | rd << 7 | 0x37; }
uint32_t AUIPC(unsigned rd, uint32_t v) { return (v & 0xfffff000u) | rd << 7 | 0x17; }
uint32_t JAL(unsigned rd, int32_t off) { return j_type(off, rd); }
uint32_t JALR(unsigned rd, unsigned rs1, int32_t off) { return i_type(off, rs1, 0, rd, 0x67); }
uint32_t BR(uint32_t f3, unsigned a, unsigned b, int32_t off) { return b_type(off, b, a, f3); }
uint32_t BEQ(unsigned a, unsigned b, int32_t off) { return BR(0, a, b, off); }
uint32_t BNE(unsigned a, unsigned b, int32_t off) { return BR(1, a, b, off); }
uint32_t LOAD(uint32_t f3, unsigned rd, unsigned rs1, int32_t off) { return i_type(off, rs1, f3, rd, 0x03); }
uint32_t LB(unsigned rd, unsigned rs1, int32_t off) { return LOAD(0, rd, rs1, off); }
uint32_t LH(unsigned rd, unsigned rs1, int32_t off) { return LOAD(1, rd, rs1, off); }
uint32_t LW(unsigned rd, unsigned rs1, int32_t off) { return LOAD(2, rd, rs1, off); }
uint32_t LBU(unsigned rd, unsigned rs1, int32_t off) { return LOAD(4, rd, rs1, off); }
uint32_t LHU(unsigned rd, unsigned rs1, int32_t off) { return LOAD(5, rd, rs1, off); }
uint32_t STORE(uint32_t f3, unsigned rs2, unsigned rs1, int32_t off) { return s_type(off, rs2, rs1, f3); }
uint32_t SB(unsigned rs2, unsigned rs1, int32_t off) { return STORE(0, rs2, rs1, off); }
uint32_t SH(unsigned rs2, unsigned rs1, int32_t off) { return STORE(1, rs2, rs1, off); }
uint32_t SW(unsigned rs2, unsigned rs1, int32_t off) { return STORE(2, rs2, rs1, off); }
uint32_t OPI(uint32_t f3, unsigned rd, unsigned rs1, int32_t imm) { return i_type(imm, rs1, f3, rd, 0x13); }
uint32_t ADDI(unsigned rd, unsigned rs1, int32_t imm) { return OPI(0, rd, rs1, imm); }
uint32_t XORI(unsigned rd, unsigned rs1, int32_t imm) { return OPI(4, rd, rs1, imm); }
uint32_t SLLI(unsigned rd, unsigned rs1, unsigned sh) { return OPI(1, rd, rs1, int32_t(sh)); }
uint32_t SRLI(unsigned rd, unsigned rs1, unsigned sh) { return OPI(5, rd, rs1, int32_t(sh)); }
uint32_t SRAI(unsigned rd, unsigned rs1, unsigned sh) { return OPI(5, rd, rs1, int32_t(0x400 | sh)); }
uint32_t OP(uint32_t f7, uint32_t f3, unsigned rd, unsigned a, unsigned b) { return r_type(f7, b, a, f3, rd, 0x33); }
uint32_t ADD(unsigned rd, unsigned a, unsigned b) { return OP(0, 0, rd, a, b); }
uint32_t SUB(unsigned rd, unsigned a, unsigned b) { return OP(0x20, 0, rd, a, b); }
uint32_t MUL(unsigned rd, unsigned a, unsigned b) { return OP(1, 0, rd, a, b); }
uint32_t MULDIV(uint32_t f3, unsigned rd, unsigned a, unsigned b) { return OP(1, f3, rd, a, b); }
uint32_t AMO(uint32_t f5, unsigned rd, unsigned rs1, unsigned rs2) { return r_type(f5 << 2, rs2, rs1, 2, rd, 0x2f); }
uint32_t LR(unsigned rd, unsigned rs1) { return AMO(0x02, rd, rs1, 0); }
uint32_t SC(unsigned rd, unsigned rs1, unsigned rs2) { return AMO(0x03, rd, rs1, rs2); }
uint32_t CSRR(unsigned rd, uint32_t csr) { return i_type(int32_t(csr), 0, 2, rd, 0x73); }
uint32_t NOP() { return ADDI(ZERO, ZERO, 0); }
uint32_t ANDI_(unsigned rd, unsigned rs1, int32_t imm) { return OPI(7, rd, rs1, imm); }
uint32_t XOR_(unsigned rd, unsigned a, unsigned b) { return OP(0, 4, rd, a, b); }
uint32_t BLT_(unsigned a, unsigned b, int32_t off) { return BR(4, a, b, off); }
constexpr uint32_t ECALL = 0x00000073u, EBREAK = 0x00100073u, FENCE = 0x0ff0000fu,
		   FENCE_I = 0x0000100fu;
// AMO funct5 codes
enum : uint32_t {
	F5_ADD = 0x00, F5_SWAP = 0x01, F5_XOR = 0x04, F5_OR = 0x08, F5_AND = 0x0c,
	F5_MIN = 0x10, F5_MAX = 0x14, F5_MINU = 0x18, F5_MAXU = 0x1c
};

// A program under construction.
struct Prog {
	std::vector<uint32_t> w;
	Prog &operator<<(uint32_t x)
	{
		w.push_back(x);
		return *this;
	}
	uint32_t here() const { return uint32_t(w.size()); }
	void li(unsigned rd, uint32_t v)
	{
		uint32_t hi = (v + 0x800u) & 0xfffff000u;
		w.push_back(LUI(rd, hi));
		w.push_back(ADDI(rd, rd, int32_t(v - hi)));
	}
	void call(uint32_t op)
	{
		w.push_back(ADDI(A7, ZERO, int32_t(op)));
		w.push_back(ECALL);
	}
	void exit() { call(PPU_ECALL_OP_EXIT); }
	void barrier() { call(PPU_ECALL_OP_BARRIER); }
};

// ---------------------------------------------------------------------------
// The address space: pages per root, each with R/W/X (V, U, A, D implied).
// ---------------------------------------------------------------------------
constexpr uint32_t ROOT_A = 0x01234, ROOT_B = 0x02345;
constexpr uint32_t CODE = 0x00100000u;      // code: R X (images: R W X)
constexpr uint32_t RO_PAGE = 0x0013e000u;   // R only
constexpr uint32_t HOLE = 0x0013f000u;      // not present
constexpr uint32_t DATA = 0x00140000u;      // R W, 256 KiB
constexpr uint32_t DATA_BYTES = 0x40000u;
constexpr uint32_t STACKS = 0x00180000u;    // R W, 256 KiB
constexpr uint32_t STACK_BYTES = 0x40000u;
constexpr uint32_t XO_PAGE = 0x001c0000u;   // X only
constexpr uint32_t WO_PAGE = 0x001c1000u;   // W only
constexpr uint32_t SAVE = 0x00200000u;      // R W, 1 MiB: thread records (not compared)
constexpr uint32_t SAVE_BYTES = 0x100000u;
constexpr uint32_t HDRS = 0x00300000u;      // R W, 4 KiB: slot headers (not compared)
constexpr uint32_t TS_CONST = 0x9abcdef0u;  // timestamp low word in compared runs
constexpr uint32_t TS_CONST_HI = 0x12u;

struct Page {
	uint64_t ppn;
	int sys;
	bool r, w, x;
};

// Translation rules of docs/hw-internals.md (user accesses, RMW = R and W).
struct Space {
	std::map<std::pair<uint32_t, uint32_t>, Page> pages; // (root, vpn)

	void map(uint32_t root, uint32_t va, uint32_t bytes, bool r, bool w, bool x)
	{
		for (uint32_t v = va >> 12; v < (va + bytes + 0xfff) >> 12; v++) {
			Page p;
			p.ppn = (v ^ 0x2a5a5u ^ (root << 5)) & 0x3fffff;
			p.sys = (v >> 3) & 1;
			p.r = r;
			p.w = w;
			p.x = x;
			pages[{root, v}] = p;
		}
	}
	void unmap(uint32_t root, uint32_t va) { pages.erase({root, va >> 12}); }
	// 0 or a PPU_FAULT_KIND_*
	int xlate(uint32_t root, uint32_t va, unsigned access, int *sys, uint64_t *pa) const
	{
		auto it = pages.find({root, va >> 12});
		if (it == pages.end())
			return PPU_FAULT_KIND_PTE_NOT_PRESENT;
		const Page &p = it->second;
		bool ok = access == tp::ACC_READ ? p.r
			: access == tp::ACC_WRITE ? p.w
			: access == tp::ACC_RMW ? (p.r && p.w)
			: p.x;
		if (!ok)
			return PPU_FAULT_KIND_PERMISSION;
		*sys = p.sys;
		*pa = p.ppn << 12 | (va & 0xfff);
		return 0;
	}
};

struct Thread {
	uint32_t x[32];
	uint32_t pc;
	uint32_t hwid;
};
typedef std::tuple<unsigned, uint32_t, uint32_t> TKey; // (tslot, cta, tid)

// One launch as the task table and the ISS see it.
struct Launch {
	unsigned tslot = 0;
	uint32_t taskid = 9, chid = 3, root = ROOT_A;
	uint32_t entry = CODE, param = DATA;
	uint32_t grid[3] = {1, 1, 1}, cta[3] = {1, 1, 1};
	uint32_t stack_va = STACKS, stack_log2 = 9;
	uint32_t prio = 17, depth = 2, maxdepth = 5;
	uint32_t t() const { return cta[0] * cta[1] * cta[2]; }
	uint32_t ncta() const { return grid[0] * grid[1] * grid[2]; }
	uint32_t stack_bytes() const { return stack_log2 ? 1u << stack_log2 : 0; }
};

struct Event {
	unsigned kind, tslot;
	uint32_t cta_id;
	uint64_t cyc;
};
struct FaultRec {
	unsigned chid, kind, unit, access;
	uint32_t addr, data;
	uint64_t cyc;
};

// Semaphore-model reservation.
struct Resv {
	bool valid = false;
	int sys = 0;
	uint64_t beat = 0;
};

// ---------------------------------------------------------------------------
// The environment of one CU.
// ---------------------------------------------------------------------------
class Tb {
public:
	Dut<Vppu_cu> dut;
	Mem mem, imem;            // RTL memory, ISS memory (same initial contents)
	Space space;
	Rng rng;
	// knobs
	unsigned x_lat = 5, rd_lat = 8, wr_lat = 8, sem_lat = 10;
	unsigned ready_pct = 85;  // chance per cycle that each request port is ready
	bool ts_const = true;     // timestamp = TS_CONST (compared runs), else the cycle
	bool hold_events = false; // do not take EXITED/KILLED events
	bool hold_faults = false; // do not take faults
	bool verbose = getenv("TB_CU_VERBOSE") != nullptr;
	// results
	std::vector<Event> events;
	std::vector<FaultRec> faults;
	std::map<TKey, Thread> exits;
	uint64_t retired = 0, issued = 0, misses = 0, waves = 0;
	uint64_t xlates = 0, reads = 0, writes = 0, amos = 0;
	// stimulus
	struct DispReq {
		const Launch *l;
		uint32_t cta;
		bool resume;
		DispReq(const Launch *l_, uint32_t c, bool r = false) : l(l_), cta(c), resume(r) {}
	};
	struct KillReq {
		unsigned tslot;
		uint32_t cta;
		bool save;
		KillReq(unsigned t, uint32_t c, bool s = false) : tslot(t), cta(c), save(s) {}
	};
	std::deque<DispReq> disp_q;
	std::deque<KillReq> kill_q;
	// preemption: the chance that a CTA of these launches, once dispatched
	// (or resumed), is preempted 1..preempt_max cycles later; a saved CTA is
	// dispatched again to resume
	unsigned preempt_pct = 0, preempt_max = 1500;
	std::vector<const Launch *> preemptible;
	unsigned preemptions = 0, saves = 0;
	// The table's children, when kids_after > 0: each CTA has children out
	// until kids_after cycles after its first WAIT_CHILDREN; WAIT answers
	// sleep meanwhile, then a wake goes out; a CTA saved while waiting
	// (SAVED_WAIT) is dispatched again (resume) once they are done.
	uint64_t kids_after = 0;
	const Launch *wait_launch = nullptr;
	std::map<std::pair<unsigned, uint32_t>, uint64_t> kids_done_at;	// {tslot, cta} -> cycle
	std::vector<std::pair<unsigned, uint32_t>> wait_saved;
	unsigned wait_sleeps = 0, wait_saves = 0, wakes = 0;
	bool icache_inv = false, tlb_inv = false;

	explicit Tb(uint64_t seed = 1) : dut(int(seed)), mem(7), imem(7), rng(seed)
	{
		space.map(ROOT_A, CODE, RO_PAGE - CODE, true, true, true);
		space.map(ROOT_A, RO_PAGE, 0x1000, true, false, false);
		space.map(ROOT_A, DATA, DATA_BYTES, true, true, false);
		space.map(ROOT_A, STACKS, STACK_BYTES, true, true, false);
		space.map(ROOT_A, XO_PAGE, 0x1000, false, false, true);
		space.map(ROOT_A, WO_PAGE, 0x1000, false, true, false);
		space.map(ROOT_A, SAVE, SAVE_BYTES, true, true, false);
		space.map(ROOT_A, HDRS, 0x1000, true, true, false);
		idle_inputs();
		dut.reset();
	}

	// ---- memory helpers (both copies) ----
	void poke8(uint32_t root, uint32_t va, uint8_t v)
	{
		int sys;
		uint64_t pa;
		int k = space.xlate(root, va, tp::ACC_READ, &sys, &pa);
		if (k)
			k = space.xlate(root, va, tp::ACC_EXEC, &sys, &pa);
		if (k)
			k = space.xlate(root, va, tp::ACC_WRITE, &sys, &pa);
		if (k)
			TB_FAIL("poke: va %#x not mapped", va);
		mem.set_byte(sys, pa, v);
		imem.set_byte(sys, pa, v);
	}
	void poke32(uint32_t va, uint32_t v, uint32_t root = ROOT_A)
	{
		for (unsigned i = 0; i < 4; i++)
			poke8(root, va + i, uint8_t(v >> (8 * i)));
	}
	void poke(uint32_t va, const void *p, size_t n, uint32_t root = ROOT_A)
	{
		for (size_t i = 0; i < n; i++)
			poke8(root, va + uint32_t(i), static_cast<const uint8_t *>(p)[i]);
	}
	void load_prog(const Prog &p, uint32_t va = CODE, uint32_t root = ROOT_A)
	{
		for (size_t i = 0; i < p.w.size(); i++)
			poke32(va + 4 * uint32_t(i), p.w[i], root);
	}
	uint32_t peek32(Mem &m, uint32_t va, uint32_t root = ROOT_A)
	{
		int sys;
		uint64_t pa;
		if (space.xlate(root, va, tp::ACC_READ, &sys, &pa))
			TB_FAIL("peek: va %#x not readable", va);
		return m.r32(sys, pa);
	}
	uint32_t rd32(uint32_t va, uint32_t root = ROOT_A) { return peek32(mem, va, root); }
	// Copies RTL memory to the ISS memory (what a launch the ISS does not rerun wrote).
	void sync_to_iss(uint32_t va, uint32_t bytes, uint32_t root = ROOT_A)
	{
		for (uint32_t a = va; a < va + bytes; a++) {
			int sys;
			uint64_t pa;
			if (space.xlate(root, a, tp::ACC_READ, &sys, &pa))
				TB_FAIL("sync: va %#x not readable", a);
			imem.set_byte(sys, pa, mem.byte(sys, pa));
		}
	}
	uint32_t ird32(uint32_t va, uint32_t root = ROOT_A) { return peek32(imem, va, root); }

	// Every mapped page of @root, RTL memory against ISS memory.
	void compare_memory(uint32_t root = ROOT_A)
	{
		for (auto &kv : space.pages) {
			if (kv.first.first != root)
				continue;
			const Page &p = kv.second;
			uint64_t base = p.ppn << 12;
			if ((kv.first.second << 12 >= SAVE && kv.first.second << 12 < SAVE + SAVE_BYTES) ||
			    kv.first.second << 12 == HDRS)
				continue;
			for (uint32_t o = 0; o < 0x1000; o += 8) {
				uint64_t a = mem.r64(p.sys, base + o), b = imem.r64(p.sys, base + o);
				if (a != b)
					TB_FAIL("%s: memory at va %#x: rtl %#llx, iss %#llx", tb_ctx_buf(),
						kv.first.second << 12 | o, (unsigned long long)a,
						(unsigned long long)b);
			}
		}
	}

	// ---- stimulus ----
	void dispatch(const Launch &l, uint32_t first = 0, uint32_t count = 0)
	{
		uint32_t end = count ? first + count : l.ncta();
		for (uint32_t c = first; c < end; c++)
			disp_q.emplace_back(&l, c);
	}

	void idle_inputs()
	{
		auto *m = dut.m.get();
		m->timestamp = 0;
		m->icache_inv = 0;
		m->tlb_inv = 0;
		m->disp_valid = 0;
		clear(m->disp);
		m->ev_ready = 0;
		m->kill_valid = 0;
		m->kill = 0;
		m->flt_ready = 0;
		m->x_req_ready = 0;
		m->x_rsp_valid = 0;
		m->x_rsp = 0;
		m->rd_ready = 0;
		m->rd_rsp_valid = 0;
		clear(m->rd_rsp);
		m->wr_ready = 0;
		m->wr_rsp_valid = 0;
		m->wr_rsp_err = 0;
		m->sem_ready = 0;
		m->sem_rsp_valid = 0;
		m->sem_rsp = 0;
		m->dreq_ready = 0;
		m->drsp_valid = 0;
		m->drsp = 0;
		m->kw_valid = 0;
		m->kw = 0;
		m->dbg_ctx = 0;
		m->dbg_reg = 0;
	}

	// ---- the debug port ----
	unsigned ctx_state(unsigned c)
	{
		dut->dbg_ctx = c;
		dut.eval();
		return dut->dbg_state;
	}
	void read_thread(unsigned c, Thread *t)
	{
		dut->dbg_ctx = c;
		t->x[0] = 0;
		for (unsigned r = 1; r < 32; r++) {
			dut->dbg_reg = r;
			dut.eval();
			t->x[r] = dut->dbg_rdata;
		}
		t->pc = dut->dbg_pc;
		t->hwid = CU_INDEX << 8 | c;
	}

	unsigned free_ctx()
	{
		dut.eval();
		return dut->free_ctx;
	}

	// ---- one clock cycle ----
	void cycle();
	// Cycles until pred() holds; fails after max cycles.
	void run_until(const std::function<bool()> &pred, uint64_t max, const char *what)
	{
		for (uint64_t n = 0; !pred(); n++) {
			if (n >= max) {
				for (unsigned c = 0; c < CTX; c++) {
					dut->dbg_ctx = c;
					dut.eval();
					fprintf(stderr, "ctx %u: state %u pc %#x cta %u tid %u\n", c,
						unsigned(dut->dbg_state), unsigned(dut->dbg_pc),
						unsigned(dut->dbg_cta_id), unsigned(dut->dbg_tid));
				}
				for (const FaultRec &f : faults)
					fprintf(stderr, "fault kind %u access %u addr %#x data %#x\n",
						f.kind, f.access, f.addr, f.data);
				TB_FAIL("%s: timeout after %llu cycles waiting for %s", tb_ctx_buf(),
					(unsigned long long)max, what);
			}
			cycle();
		}
	}
	void run(uint64_t n)
	{
		for (uint64_t i = 0; i < n; i++)
			cycle();
	}
	unsigned count_events(unsigned kind) const
	{
		unsigned n = 0;
		for (const Event &e : events)
			n += e.kind == kind;
		return n;
	}
	// Every queued CTA dispatched and @n events seen, then the CU idle.
	void run_to_events(size_t n, uint64_t max = 5000000)
	{
		run_until([&] { return disp_q.empty() && events.size() >= n; }, max, "CTA events");
		TB_EQ(events.size(), n);
	}

private:
	struct XRsp {
		uint64_t v;
	};
	struct RdRsp {
		uint64_t data;
		bool err;
	};
	Pipe<XRsp> xq_;
	Pipe<RdRsp> rq_;
	Pipe<bool> wq_;
	Pipe<uint64_t> sq_;
	Pipe<uint64_t> dq_;	// answers of the task table
	std::map<unsigned, Resv> resv_;
	HoldCheck<uint64_t> hx_;
	HoldCheck<uint64_t> hr_;
	HoldCheck<VlWide<4>> hw_;
	HoldCheck<VlWide<6>> hs_;
	HoldCheck<uint64_t> he_;
	HoldCheck<VlWide<3>> hf_;
	HoldCheck<VlWide<3>> hd_;

	void clear_resv(int sys, uint64_t beat)
	{
		for (auto &kv : resv_)
			if (kv.second.valid && kv.second.sys == sys && kv.second.beat == beat)
				kv.second.valid = false;
	}
	uint64_t sem_exec(const VlWide<6> &req);
	void pack_disp(const Launch &l, uint32_t cta, bool resume);
	void preempt_some();
	std::map<std::pair<unsigned, uint32_t>, uint64_t> pre_at_; // (tslot, cta) -> preemption cycle
	void take_event();
};

void Tb::pack_disp(const Launch &l, uint32_t c, bool resume)
{
	auto &d = dut->disp;
	clear(d);
	set(d, disp::tslot, l.tslot);
	set(d, disp::tid, l.taskid);
	set(d, disp::chid, l.chid);
	set(d, disp::root_ppn, l.root);
	set(d, disp::root_sys, 0);
	set(d, disp::cta_id, c);
	set(d, disp::nthreads, l.t());
	set(d, disp::entry_pc, l.entry);
	set(d, disp::param, l.param);
	set(d, disp::stack_va, l.stack_va + c * l.t() * l.stack_bytes());
	set(d, disp::stack_log2, l.stack_log2);
	set(d, disp::cta_x, l.cta[0]);
	set(d, disp::cta_y, l.cta[1]);
	set(d, disp::cta_z, l.cta[2]);
	set(d, disp::grid_x, l.grid[0]);
	set(d, disp::grid_y, l.grid[1]);
	set(d, disp::grid_z, l.grid[2]);
	set(d, disp::ncta, l.ncta());
	set(d, disp::prio, l.prio);
	set(d, disp::depth, l.depth);
	set(d, disp::maxdepth, l.maxdepth);
	// thread records: 128 KiB (1024 threads) per task slot and CTA
	set(d, disp::save_va, SAVE + (l.tslot * 4 + c) * 0x20000);
	set(d, disp::hdr_va, HDRS + (l.tslot * 4 + c) * 16);
	set(d, disp::resume, resume);
}

// Preempts a random running CTA of the preemptible launches, now and then.
void Tb::preempt_some()
{
	if (!kill_q.empty())
		return;
	for (auto it = pre_at_.begin(); it != pre_at_.end(); ++it) {
		if (it->second <= dut.cyc) {
			kill_q.emplace_back(it->first.first, it->first.second, true);
			pre_at_.erase(it);
			preemptions++;
			return;
		}
	}
}

// The semaphore unit: one AMO, LR or SC; returns the sem_rsp_t bits.
uint64_t Tb::sem_exec(const VlWide<6> &req)
{
	unsigned rid = unsigned(get(req, tp::sreq::rid));
	uint32_t root = uint32_t(get(req, tp::sreq::root_ppn));
	uint32_t va = uint32_t(get(req, tp::sreq::va));
	uint32_t exec = uint32_t(get(req, tp::sreq::exec));
	uint32_t src = uint32_t(get(req, tp::sreq::payload));
	unsigned op = exec & 7, sub = exec >> 27 & 15;
	uint64_t rsp = 0;
	int sys = 0;
	uint64_t pa = 0;

	TB_EQ(op, PPU_SEM_EXECUTE_OPERATION_AMO);
	TB_EQ(exec & ~(0xfu << 27 | 7u), 0);
	TB_EQ(get(req, tp::sreq::root_sys), 0);
	TB_EQ(get(req, tp::sreq::payload) >> 32, 0);
	TB_TRUE(rid >= CU_INDEX * CTX && rid < (CU_INDEX + 1) * CTX);
	TB_TRUE(sub <= PPU_SEM_AMO_SC);
	TB_EQ(va & 3, 0);
	unsigned access = sub == PPU_SEM_AMO_LR ? tp::ACC_READ
			: sub == PPU_SEM_AMO_SC ? tp::ACC_WRITE : tp::ACC_RMW;
	Resv &r = resv_[rid];
	if (verbose)
		printf("%llu sem rid %u sub %u va %#x src %#x resv %d\n", (unsigned long long)dut.cyc,
		       rid, sub, va, src, int(r.valid));
	if (sub == PPU_SEM_AMO_SC && !r.valid) {
		set(rsp, tp::srsp::value, 1);
		return rsp;
	}
	int k = space.xlate(root, va, access, &sys, &pa);
	if (k) {
		if (sub == PPU_SEM_AMO_SC)
			r.valid = false;
		set(rsp, tp::srsp::fault, 1);
		set(rsp, tp::srsp::kind, unsigned(k));
		set(rsp, tp::srsp::access, access);
		return rsp;
	}
	uint64_t beat = pa & ~uint64_t(7);
	uint32_t old = mem.r32(sys, pa), v = 0;
	switch (sub) {
	case PPU_SEM_AMO_LR:
		r.valid = true;
		r.sys = sys;
		r.beat = beat;
		set(rsp, tp::srsp::value, old);
		return rsp;
	case PPU_SEM_AMO_SC: {
		bool ok = r.sys == sys && r.beat == beat;
		r.valid = false;
		if (ok) {
			mem.w32(sys, pa, src);
			clear_resv(sys, beat);
		}
		set(rsp, tp::srsp::value, ok ? 0 : 1);
		return rsp;
	}
	case PPU_SEM_AMO_ADD: v = old + src; break;
	case PPU_SEM_AMO_SWAP: v = src; break;
	case PPU_SEM_AMO_XOR: v = old ^ src; break;
	case PPU_SEM_AMO_AND: v = old & src; break;
	case PPU_SEM_AMO_OR: v = old | src; break;
	case PPU_SEM_AMO_MIN: v = int32_t(old) < int32_t(src) ? old : src; break;
	case PPU_SEM_AMO_MAX: v = int32_t(old) > int32_t(src) ? old : src; break;
	case PPU_SEM_AMO_MINU: v = old < src ? old : src; break;
	default: v = old > src ? old : src; break;
	}
	mem.w32(sys, pa, v);
	clear_resv(sys, beat);
	set(rsp, tp::srsp::value, old);
	return rsp;
}

// An event is offered: read the exited threads' registers, take it.
void Tb::take_event()
{
	uint64_t e = dut->ev;
	Event ev{unsigned(get(e, ev::kind)), unsigned(get(e, ev::tslot)),
		 uint32_t(get(e, ev::cta_id)), dut.cyc};
	unsigned saved_ctx = dut->dbg_ctx, saved_reg = dut->dbg_reg;
	if (ev.kind == EV_EXITED) {
		unsigned n = 0;
		for (unsigned c = 0; c < CTX; c++) {
			dut->dbg_ctx = c;
			dut.eval();
			if (dut->dbg_state == S_FREE || dut->dbg_tslot != ev.tslot ||
			    dut->dbg_cta_id != ev.cta_id)
				continue;
			if (dut->dbg_state != S_EXIT)
				TB_FAIL("%s: CTA %u of slot %u exited with context %u in state %u",
					tb_ctx_buf(), ev.cta_id, ev.tslot, c, unsigned(dut->dbg_state));
			Thread t;
			read_thread(c, &t);
			dut->dbg_ctx = c;
			dut.eval();
			TKey key{ev.tslot, ev.cta_id, dut->dbg_tid};
			if (exits.count(key))
				TB_FAIL("%s: thread %u of CTA %u exited twice", tb_ctx_buf(),
					unsigned(dut->dbg_tid), ev.cta_id);
			exits[key] = t;
			n++;
		}
		if (n == 0)
			TB_FAIL("%s: EXITED for CTA %u with no exited context", tb_ctx_buf(), ev.cta_id);
		// Alone on the CU, the CTA's stores must all be acknowledged by now.
		bool alone = true;
		for (unsigned c = 0; c < CTX; c++) {
			dut->dbg_ctx = c;
			dut.eval();
			if (dut->dbg_state != S_FREE && !(dut->dbg_state == S_EXIT &&
			    dut->dbg_tslot == ev.tslot && dut->dbg_cta_id == ev.cta_id))
				alone = false;
		}
		if (alone && (!wq_.empty() || dut->wr_valid))
			TB_FAIL("%s: CTA %u exited with stores not acknowledged", tb_ctx_buf(), ev.cta_id);
	}
	dut->dbg_ctx = saved_ctx;
	dut->dbg_reg = saved_reg;
	pre_at_.erase({ev.tslot, ev.cta_id});
	if (ev.kind == EV_SAVED_WAIT) {
		TB_TRUE(wait_launch != nullptr);
		wait_saves++;
		wait_saved.emplace_back(ev.tslot, ev.cta_id);
		dut->ev_ready = 1;
		dut.eval();
		return;
	}
	if (ev.kind == EV_SAVED) {
		// every context of the CTA is free again; resume it (to the back of the queue)
		saves++;
		const Launch *l = nullptr;
		for (const Launch *pl : preemptible)
			if (pl->tslot == ev.tslot)
				l = pl;
		TB_TRUE(l != nullptr);
		disp_q.emplace_back(l, ev.cta_id, true);
		dut->ev_ready = 1;
		dut.eval();
		return;
	}
	events.push_back(ev);
	dut->ev_ready = 1;
	dut.eval();
}

void Tb::cycle()
{
	auto *m = dut.m.get();
	uint64_t now = dut.cyc;

	// responses due now
	m->x_rsp_valid = 0;
	if (xq_.due(now)) {
		m->x_rsp_valid = 1;
		m->x_rsp = xq_.pop().v;
	}
	m->rd_rsp_valid = 0;
	if (rq_.due(now)) {
		RdRsp r = rq_.pop();
		m->rd_rsp_valid = 1;
		clear(m->rd_rsp);
		set(m->rd_rsp, tp::rdrsp::data, r.data);
		set(m->rd_rsp, tp::rdrsp::err, r.err);
	}
	m->wr_rsp_valid = 0;
	m->wr_rsp_err = 0;
	if (wq_.due(now)) {
		m->wr_rsp_valid = 1;
		m->wr_rsp_err = wq_.pop();
	}
	m->sem_rsp_valid = 0;
	if (sq_.due(now)) {
		m->sem_rsp_valid = 1;
		m->sem_rsp = sq_.pop();
	}
	m->drsp_valid = 0;
	if (dq_.due(now)) {
		m->drsp_valid = 1;
		m->drsp = dq_.pop();
	}
	// children done: a wake, and saved waiting CTAs go back
	m->kw_valid = 0;
	for (auto &kd : kids_done_at)
		if (kd.second == now) {
			m->kw_valid = 1;
			m->kw = uint64_t(kd.first.first) << 32 | kd.first.second;
			wakes++;
		}
	for (auto it = wait_saved.begin(); it != wait_saved.end();)
		if (kids_done_at.count(*it) && kids_done_at[*it] <= now) {
			disp_q.emplace_back(wait_launch, it->second, true);
			it = wait_saved.erase(it);
		} else {
			++it;
		}

	// readies, independent of valid
	m->x_req_ready = rng.pct(ready_pct);
	m->rd_ready = rng.pct(ready_pct);
	m->wr_ready = rng.pct(ready_pct);
	m->sem_ready = rng.pct(ready_pct);
	m->dreq_ready = rng.pct(ready_pct);
	m->flt_ready = !hold_faults;
	m->ev_ready = 0;

	// requests to the CU
	preempt_some();
	m->disp_valid = !disp_q.empty();
	if (m->disp_valid)
		pack_disp(*disp_q.front().l, disp_q.front().cta, disp_q.front().resume);
	m->kill_valid = !kill_q.empty();
	m->kill = 0;
	if (m->kill_valid) {
		set(m->kill, kill::tslot, kill_q.front().tslot);
		set(m->kill, kill::cta_id, kill_q.front().cta);
		set(m->kill, kill::save, kill_q.front().save);
	}
	m->icache_inv = icache_inv;
	m->tlb_inv = tlb_inv;
	icache_inv = tlb_inv = false;
	m->timestamp = ts_const ? (uint64_t(TS_CONST_HI) << 32 | TS_CONST) : now;
	m->eval();

	// protocol
	hx_.sample("x_req", m->x_req_valid, m->x_req_ready, m->x_req);
	hr_.sample("rd", m->rd_valid, m->rd_ready, m->rd_pa);
	hw_.sample("wr", m->wr_valid, m->wr_ready, m->wr_req);
	hs_.sample("sem", m->sem_valid, m->sem_ready, m->sem_req);
	hf_.sample("flt", m->flt_valid, m->flt_ready, m->flt);

	// the MMU
	if (m->x_req_valid && m->x_req_ready) {
		uint64_t q = m->x_req, r = 0;
		int sys = 0;
		uint64_t pa = 0;
		TB_EQ(get(q, tp::xreq::root_sys), 0);
		int k = space.xlate(uint32_t(get(q, tp::xreq::root_ppn)), uint32_t(get(q, tp::xreq::va)),
				    unsigned(get(q, tp::xreq::access)), &sys, &pa);
		if (k) {
			set(r, tp::xrsp::fault, 1);
			set(r, tp::xrsp::kind, unsigned(k));
		} else {
			set(r, tp::xrsp::addr, pa);
			set(r, tp::xrsp::sys, unsigned(sys));
		}
		xq_.push(now, x_lat, XRsp{r});
		xlates++;
	}
	// memory reads
	if (m->rd_valid && m->rd_ready) {
		uint64_t a = get(m->rd_pa, tp::paddr::addr);
		int sys = int(get(m->rd_pa, tp::paddr::sys));
		TB_EQ(a & 7, 0);
		rq_.push(now, rd_lat, RdRsp{mem.rd_beat(sys, a), mem.rd_error(sys, a)});
		reads++;
	}
	// memory writes: take effect at acceptance
	if (m->wr_valid && m->wr_ready) {
		uint64_t a = get(m->wr_req, tp::wreq::addr);
		int sys = int(get(m->wr_req, tp::wreq::sys));
		unsigned strb = unsigned(get(m->wr_req, tp::wreq::strb));
		TB_EQ(a & 7, 0);
		// one naturally aligned byte, half or word, or a whole beat (thread records)
		unsigned n = unsigned(__builtin_popcount(strb)), lo = strb ? unsigned(__builtin_ctz(strb)) : 0;
		TB_TRUE((n == 1 || n == 2 || n == 4 || n == 8) && strb == ((1u << n) - 1) << lo && lo % n == 0);
		bool err = mem.wr_error(sys, a);
		if (!err) {
			mem.wr_beat(sys, a, get(m->wr_req, tp::wreq::data), strb);
			clear_resv(sys, a);
		}
		wq_.push(now, wr_lat, err);
		writes++;
	}
	// the task table, as the reference model has it (no device launches:
	// LAUNCH answers ENOSYS, WAIT_CHILDREN 0)
	hd_.sample("dreq", m->dreq_valid, m->dreq_ready, m->dreq);
	if (m->dreq_valid && m->dreq_ready) {
		uint64_t r = 0;
		set(r, drsp::cu, get(m->dreq, dreq::cu));
		set(r, drsp::ctx, get(m->dreq, dreq::ctx));
		set(r, drsp::a0, get(m->dreq, dreq::launch) ? PPU_ECALL_STATUS_ENOSYS : PPU_ECALL_STATUS_OK);
		if (kids_after && !get(m->dreq, dreq::launch)) {
			auto key = std::make_pair(unsigned(get(m->dreq, dreq::tslot)),
						  uint32_t(get(m->dreq, dreq::cta_id)));
			if (!kids_done_at.count(key))
				kids_done_at[key] = now + kids_after;
			if (now < kids_done_at[key]) {
				set(r, drsp::sleep, 1);
				wait_sleeps++;
			}
		}
		dq_.push(now, 2, r);
	}
	// the semaphore unit
	if (m->sem_valid && m->sem_ready) {
		sq_.push(now, sem_lat, sem_exec(m->sem_req));
		amos++;
	}
	// dispatch, kill, faults, events
	if (m->disp_valid && m->disp_ready) {
		for (const Launch *pl : preemptible)
			if (pl == disp_q.front().l && rng.pct(preempt_pct))
				pre_at_[{pl->tslot, disp_q.front().cta}] = now + 1 + rng.below(preempt_max);
		disp_q.pop_front();
	}
	if (m->kill_valid && m->kill_ready)
		kill_q.pop_front();
	if (m->flt_valid && m->flt_ready) {
		const auto &f = m->flt;
		faults.push_back(FaultRec{unsigned(get(f, flt::chid)), unsigned(get(f, flt::kind)),
					  unsigned(get(f, flt::unit)), unsigned(get(f, flt::access)),
					  uint32_t(get(f, flt::addr)), uint32_t(get(f, flt::data)), now});
	}
	if (m->ev_valid && !hold_events)
		take_event();
	he_.sample("ev", m->ev_valid, m->ev_ready, m->ev);

	retired += m->perf_retire;
	waves += m->perf_wave;
	issued += m->perf_issue;
	misses += m->perf_icache_miss;
	dut.tick();
}

// ---------------------------------------------------------------------------
// The reference model on the ISS memory.
// ---------------------------------------------------------------------------
struct IssCtx {
	Tb *tb;
	uint32_t root;
	const std::map<TKey, Thread> *rtl; // HWID as the RTL placed the thread
	unsigned tslot;
	std::map<std::pair<uint32_t, uint32_t>, Thread> exits; // (cta, tid)
	ppu_iss m;
};

int iss_read(void *user, uint32_t va, unsigned int size, unsigned int access, uint32_t *val)
{
	IssCtx *c = static_cast<IssCtx *>(user);
	int sys;
	uint64_t pa;
	int k = c->tb->space.xlate(c->root, va, access, &sys, &pa);
	if (k)
		return k;
	if (c->tb->mem.rd_error(sys, pa))
		return PPU_FAULT_KIND_BUS_ERROR;
	*val = 0;
	for (unsigned i = 0; i < size; i++)
		*val |= uint32_t(c->tb->imem.byte(sys, pa + i)) << (8 * i);
	return 0;
}

int iss_write(void *user, uint32_t va, unsigned int size, unsigned int access, uint32_t val)
{
	IssCtx *c = static_cast<IssCtx *>(user);
	int sys;
	uint64_t pa;
	int k = c->tb->space.xlate(c->root, va, access, &sys, &pa);
	if (k)
		return k;
	if (c->tb->mem.wr_error(sys, pa))
		return PPU_FAULT_KIND_BUS_ERROR;
	if (c->tb->verbose && va >= DATA && va < DATA + 32)
		printf("iss write va %#x val %#x access %u\n", va, val, access);
	for (unsigned i = 0; i < size; i++)
		c->tb->imem.set_byte(sys, pa + i, uint8_t(val >> (8 * i)));
	return 0;
}

int iss_csr(void *user, const ppu_iss *m, unsigned int slot, unsigned int tid, unsigned int csr,
	    uint32_t *val)
{
	IssCtx *c = static_cast<IssCtx *>(user);
	switch (csr) {
	case PPU_CSR_CYCLE:
	case PPU_CSR_TIME:
		*val = TS_CONST;
		return 1;
	case PPU_CSR_CYCLEH:
	case PPU_CSR_TIMEH:
		*val = TS_CONST_HI;
		return 1;
	case PPU_CSR_HWID: {
		auto it = c->rtl->find(TKey{c->tslot, m->cta[slot].cta_id, tid});
		*val = it == c->rtl->end() ? 0xdead : it->second.hwid;
		return 1;
	}
	default:
		return 0;
	}
}

void iss_exit(void *user, const ppu_iss *m, unsigned int slot, unsigned int tid)
{
	IssCtx *c = static_cast<IssCtx *>(user);
	const struct ppu_iss_thread *t = &m->cta[slot].t[tid];
	Thread th;
	memcpy(th.x, t->x, sizeof(th.x));
	th.pc = t->pc;
	th.hwid = 0;
	c->exits[{m->cta[slot].cta_id, tid}] = th;
}

// Runs @l on the ISS memory, every CTA resident (slot = CTA id, as the RTL's stacks).
int iss_run(Tb &tb, const Launch &l, IssCtx *c, uint64_t max = 200000000ull)
{
	ppu_iss_launch il;
	memset(&il, 0, sizeof(il));
	il.entry_pc = l.entry;
	il.grid_x = l.grid[0];
	il.grid_y = l.grid[1];
	il.grid_z = l.grid[2];
	il.cta_x = l.cta[0];
	il.cta_y = l.cta[1];
	il.cta_z = l.cta[2];
	il.param = l.param;
	il.prio = l.prio;
	il.depth = l.depth;
	il.maxdepth = l.maxdepth;
	il.taskid = l.taskid;
	il.child_block = 0;
	il.child_stack = 0;
	il.cu_contexts = CTX;
	il.num_cu = NUM_CU;
	il.stack_va = l.stack_va;
	il.stack_bytes = l.stack_bytes();
	il.slots = l.ncta();
	il.csr = iss_csr;
	il.thread_exit = iss_exit;
	il.user = c;
	c->tb = &tb;
	c->root = l.root;
	c->rtl = &tb.exits;
	c->tslot = l.tslot;
	ppu_iss_mem im = {iss_read, iss_write, c};
	if (ppu_iss_init(&c->m, &il, &im))
		TB_FAIL("ppu_iss_init failed");
	int st = ppu_iss_run(&c->m, max);
	return st;
}

// RTL threads of launch @l against the ISS's: registers and PC at exit.
void compare_threads(Tb &tb, const Launch &l, IssCtx &c)
{
	unsigned n = 0;
	for (auto &kv : c.exits) {
		TKey key{l.tslot, kv.first.first, kv.first.second};
		auto it = tb.exits.find(key);
		if (it == tb.exits.end())
			TB_FAIL("%s: CTA %u thread %u exited on the ISS but not on the RTL", tb_ctx_buf(),
				kv.first.first, kv.first.second);
		for (unsigned r = 0; r < 32; r++)
			if (it->second.x[r] != kv.second.x[r])
				TB_FAIL("%s: CTA %u thread %u x%u: rtl %#x, iss %#x", tb_ctx_buf(),
					kv.first.first, kv.first.second, r, it->second.x[r],
					kv.second.x[r]);
		if (it->second.pc != kv.second.pc)
			TB_FAIL("%s: CTA %u thread %u pc: rtl %#x, iss %#x", tb_ctx_buf(), kv.first.first,
				kv.first.second, it->second.pc, kv.second.pc);
		n++;
	}
	unsigned rtl_n = 0;
	for (auto &kv : tb.exits)
		rtl_n += std::get<0>(kv.first) == l.tslot;
	TB_EQ(rtl_n, n);
}

// The whole comparison of one launch that is expected to complete.
void run_compare(Tb &tb, const Launch &l, uint64_t max_cycles = 20000000, bool cmp_regs = true)
{
	tb.dispatch(l);
	tb.run_to_events(l.ncta(), max_cycles);
	TB_EQ(tb.count_events(EV_EXITED), l.ncta());
	TB_EQ(tb.faults.size(), 0);
	TB_EQ(tb.free_ctx(), CTX);
	IssCtx c;
	int st = iss_run(tb, l, &c);
	if (st != PPU_ISS_DONE)
		TB_FAIL("%s: ISS status %d (fault kind %u addr %#x data %#x)", tb_ctx_buf(), st,
			c.m.fault.kind, c.m.fault.addr, c.m.fault.data);
	if (cmp_regs)
		compare_threads(tb, l, c);
	else
		TB_EQ(c.exits.size(), tb.exits.size());
	tb.compare_memory(l.root);
	ppu_iss_fini(&c.m);
}

// The ISS's run of @l against what the RTL did: threads, and memory unless
// another launch still has to run on the ISS.
void iss_check(Tb &tb, const Launch &l, bool memory = true)
{
	IssCtx c;
	int st = iss_run(tb, l, &c);
	if (st != PPU_ISS_DONE)
		TB_FAIL("%s: ISS status %d", tb_ctx_buf(), st);
	compare_threads(tb, l, c);
	if (memory)
		tb.compare_memory(l.root);
	ppu_iss_fini(&c.m);
}

} // namespace

namespace {

// A launch of @threads threads per CTA, @grid CTAs, code at CODE.
Launch simple_launch(uint32_t threads, uint32_t grid = 1)
{
	Launch l;
	l.cta[0] = threads;
	l.grid[0] = grid;
	return l;
}

// Loads @p at CODE and runs it against the ISS.
void run_prog(Tb &tb, const Prog &p, const Launch &l)
{
	tb.load_prog(p);
	run_compare(tb, l);
}

// The encoders against the reference decoder.
START_TEST(encoders_decode)
{
	struct {
		uint32_t w;
		unsigned op;
	} cases[] = {
		{LUI(T0, 0x12345000), PPU_ISS_LUI}, {AUIPC(T0, 0x1000), PPU_ISS_AUIPC},
		{JAL(RA, -8), PPU_ISS_JAL}, {JALR(RA, T0, 12), PPU_ISS_JALR},
		{BEQ(T0, T1, -16), PPU_ISS_BEQ}, {BNE(T0, T1, 2048), PPU_ISS_BNE},
		{LB(T0, A0, -1), PPU_ISS_LB}, {LHU(T0, A0, 6), PPU_ISS_LHU},
		{SW(T0, A0, -2048), PPU_ISS_SW}, {SRAI(T0, T1, 31), PPU_ISS_SRAI},
		{SUB(T0, T1, T2), PPU_ISS_SUB}, {MULDIV(7, T0, T1, T2), PPU_ISS_REMU},
		{AMO(F5_MAXU, T0, A0, T1), PPU_ISS_AMOMAXU}, {LR(T0, A0), PPU_ISS_LR},
		{SC(T0, A0, T1), PPU_ISS_SC}, {CSRR(T0, PPU_CSR_HWID), PPU_ISS_CSRR},
		{ECALL, PPU_ISS_ECALL}, {EBREAK, PPU_ISS_EBREAK}, {FENCE, PPU_ISS_FENCE},
		{FENCE_I, PPU_ISS_FENCE_I},
	};
	for (auto &c : cases) {
		ppu_iss_insn d;
		TB_CTX("word %#x", c.w);
		TB_EQ(ppu_iss_decode(c.w, &d), 0);
		TB_EQ(d.op, c.op);
	}
	ppu_iss_insn d;
	ppu_iss_decode(BEQ(T0, T1, -16), &d);
	TB_EQ(d.imm, -16);
	ppu_iss_decode(SW(T0, A0, -2048), &d);
	TB_EQ(d.imm, -2048);
	ppu_iss_decode(JAL(RA, -8), &d);
	TB_EQ(d.imm, -8);
}
END_TEST

// Every register's start value, read at exit: sp, tp, a0, a1 from the CTA, 0 elsewhere.
START_TEST(thread_start_state)
{
	Tb tb(11);
	Prog p;
	p.exit();
	Launch l = simple_launch(5, 3);
	l.stack_log2 = 8;
	TB_CTX("start state");
	run_prog(tb, p, l);
	for (uint32_t c = 0; c < 3; c++) {
		for (uint32_t i = 0; i < 5; i++) {
			const Thread &t = tb.exits[TKey{0, c, i}];
			uint32_t base = STACKS + (c * 5 + i) * 256;
			TB_EQ(t.x[SP], base + 256);
			TB_EQ(t.x[TP], base);
			TB_EQ(t.x[A0], DATA);
			TB_EQ(t.x[A1], i);
			TB_EQ(t.x[A7], 0);
			TB_EQ(t.x[RA], 0);
			TB_EQ(t.pc, CODE + 4);
		}
	}
	// No stack: sp = tp = the CTA's stack VA.
	Tb tb2(12);
	Launch l2 = simple_launch(2);
	l2.stack_log2 = 0;
	TB_CTX("no stack");
	run_prog(tb2, p, l2);
	TB_EQ((tb2.exits[TKey{0, 0, 1}].x[SP]), STACKS);
	TB_EQ((tb2.exits[TKey{0, 0, 1}].x[TP]), STACKS);
}
END_TEST

START_TEST(alu_and_branches)
{
	Tb tb(13);
	Prog p;
	p.li(T0, 0x80000001);
	p.li(T1, 0x7ffffff3);
	p << ADD(S2, T0, T1) << SUB(S3, T0, T1) << OP(0, 1, S4, T0, T1) /* sll */
	  << OP(0, 2, S5, T0, T1) /* slt */ << OP(0, 3, S6, T0, T1) /* sltu */
	  << OP(0, 4, S7, T0, T1) << OP(0, 5, S8, T0, T1) << OP(0x20, 5, S9, T0, T1)
	  << OP(0, 6, S10, T0, T1) << OP(0, 7, S11, T0, T1)
	  << ADDI(T3, T0, -5) << OPI(2, T4, T0, 3) << OPI(3, T5, T0, -1) << XORI(T6, T1, -1)
	  << OPI(6, A2, T1, 0x55) << OPI(7, A3, T1, 0x7f0) << SLLI(A4, T1, 7) << SRLI(A5, T0, 31)
	  << SRAI(A6, T0, 4) << AUIPC(RA, 0x5000) << LUI(GP, 0xfffff000);
	// branches: count taken ones in s0 with every condition, both ways
	p << ADDI(S0, ZERO, 0);
	for (uint32_t f3 : {0u, 1u, 4u, 5u, 6u, 7u}) {
		p << BR(f3, T0, T1, 8) << ADDI(S0, S0, 1);
		p << BR(f3, T1, T0, 8) << ADDI(S0, S0, 16);
		p << BR(f3, T0, T0, 8) << ADDI(S0, S0, 256);
	}
	// a backward loop and jumps
	p << ADDI(S1, ZERO, 10) << ADDI(A1, A1, 3) << ADDI(S1, S1, -1) << BNE(S1, ZERO, -8);
	p << JAL(T2, 8) << ADDI(A1, ZERO, 99);
	p << AUIPC(T2, 0) << JALR(T2, T2, 13) /* bit 0 cleared */ << ADDI(A1, ZERO, 77);
	p.exit();
	TB_CTX("alu");
	run_prog(tb, p, simple_launch(3, 2));
}
END_TEST

START_TEST(m_extension)
{
	Tb tb(14);
	static const uint32_t pairs[][2] = {
		{0x80000000, 0xffffffff}, {5, 0}, {0, 0}, {0xfffffff9, 2}, {7, 0xfffffffe},
		{0xffffffff, 0xffffffff}, {0x80000000, 0x80000000}, {0x12345678, 0x9abcdef1},
	};
	Prog p;
	// a1 = thread index selects a pair from a table at DATA; results at DATA + 0x100 + 32 * tid
	p << SLLI(T0, A1, 3) << ADD(T0, T0, A0) << LW(T1, T0, 0) << LW(T2, T0, 4);
	p << SLLI(T3, A1, 5) << ADD(T3, T3, A0) << ADDI(T3, T3, 0x100);
	for (uint32_t f3 = 0; f3 < 8; f3++)
		p << MULDIV(f3, unsigned(S2 + f3), T1, T2) << SW(S2 + f3, T3, int32_t(4 * f3));
	// back-to-back divisions of one thread, and a division whose rd is x0
	p << MULDIV(4, ZERO, T1, T2) << MULDIV(5, A2, T2, T1) << MULDIV(6, A2, A2, T1);
	p.exit();
	for (uint32_t i = 0; i < 8; i++) {
		tb.poke32(DATA + 8 * i, pairs[i][0]);
		tb.poke32(DATA + 8 * i + 4, pairs[i][1]);
	}
	TB_CTX("muldiv");
	run_prog(tb, p, simple_launch(8));
}
END_TEST

START_TEST(loads_stores_every_size)
{
	Tb tb(15);
	Prog p;
	// own 64-byte window at DATA + 0x400 + 64 * tid; a source table at DATA
	p << SLLI(S0, A1, 6) << ADD(S0, S0, A0) << ADDI(S0, S0, 0x400);
	p << LB(S2, A0, 1) << LBU(S3, A0, 3) << LH(S4, A0, 2) << LHU(S5, A0, 6) << LW(S6, A0, 4)
	  << LB(S7, A0, 7) << LH(S8, A0, 0) << LBU(S9, A0, 5);
	p << SB(S2, S0, 0) << SB(S3, S0, 3) << SH(S4, S0, 6) << SH(S5, S0, 10) << SW(S6, S0, 12)
	  << SB(S7, S0, 21) << SH(S8, S0, 30) << SW(S9, S0, 60);
	// back-to-back stores then loads of the same bytes (the store must land first)
	p << ADDI(T0, A1, 0x123) << SW(T0, S0, 16) << SH(T0, S0, 18) << SB(T0, S0, 19)
	  << LW(T1, S0, 16) << LHU(T2, S0, 18) << LB(T3, S0, 19) << LW(T4, S0, 60)
	  << ADDI(T4, T4, 1) << SW(T4, S0, 60) << LW(T5, S0, 60);
	// more stores than the per-context limit in a row
	for (int i = 0; i < 10; i++)
		p << SW(A1, S0, 32 + 4 * (i % 6));
	p << LW(T6, S0, 40);
	p.exit();
	tb.poke32(DATA, 0x80ff7f01);
	tb.poke32(DATA + 4, 0x8001fe80);
	TB_CTX("ld/st");
	run_prog(tb, p, simple_launch(8, 2));
}
END_TEST

START_TEST(atomics_every_op)
{
	Tb tb(16);
	Prog p;
	// own words at DATA + 0x100 + 64 * global id (AMOs with results); shared words at DATA
	p << CSRR(T0, PPU_CSR_CTAID) << SLLI(T0, T0, 3) << ADD(T0, T0, A1);
	p << SLLI(S0, T0, 6) << ADD(S0, S0, A0) << ADDI(S0, S0, 0x100);
	p.li(T1, 0x80000005);
	p << ADD(T1, T1, A1);
	uint32_t f5s[] = {F5_ADD, F5_SWAP, F5_XOR, F5_OR, F5_AND, F5_MIN, F5_MAX, F5_MINU, F5_MAXU};
	for (unsigned i = 0; i < 9; i++) {
		p << ADDI(T0, S0, int32_t(4 * i)) << AMO(f5s[i], unsigned(S2 + i), T0, T1);
		p << LW(unsigned(T3 + (i % 4)), T0, 0);
	}
	// LR/SC: success, a failing SC without reservation, SC after another store
	p << ADDI(T0, S0, 40) << LR(A2, T0) << ADDI(A2, A2, 1) << SC(A3, T0, A2);
	p << SC(A4, T0, A2);
	p << LR(A5, T0) << SW(A1, T0, 0) << SC(A6, T0, A2) << LW(RA, T0, 0);
	// shared counters: commutative ops with the result discarded
	p << AMO(F5_ADD, ZERO, A0, A1) << ADDI(T0, A0, 4) << AMO(F5_XOR, ZERO, T0, T1)
	  << ADDI(T0, A0, 8) << AMO(F5_MAX, ZERO, T0, T1) << ADDI(T0, A0, 12)
	  << AMO(F5_MINU, ZERO, T0, T1);
	// an AMO right after a store to the same word
	p << SW(A1, S0, 48) << ADDI(T0, S0, 48) << AMO(F5_ADD, GP, T0, T1) << LW(TP, S0, 48);
	p.exit();
	for (unsigned i = 0; i < 24 * 16; i++)
		tb.poke32(DATA + 0x100 + 4 * i, 0x40000000u + i * 0x01010101u);
	TB_CTX("amo");
	run_prog(tb, p, simple_launch(8, 3));
}
END_TEST

// A CAS loop under contention from every context (lr/sc retried).
START_TEST(lr_sc_counter)
{
	Tb tb(17);
	Prog p;
	p << ADDI(S1, ZERO, 20);                     // 20 increments per thread
	uint32_t loop = p.here();
	p << LR(T0, A0) << ADDI(T1, T0, 1) << SC(T2, A0, T1) << BNE(T2, ZERO, -12);
	p << ADDI(S1, S1, -1);
	p << BNE(S1, ZERO, -4 * int32_t(p.here() - loop));
	// the register state at exit is the same on every interleaving: t0 random, so clear it
	p << ADDI(T0, ZERO, 0) << ADDI(T1, ZERO, 0);
	p.exit();
	tb.poke32(DATA, 0);
	tb.load_prog(p);
	Launch l = simple_launch(8, 4);
	tb.dispatch(l);
	TB_CTX("lr/sc counter");
	tb.run_to_events(4);
	TB_EQ(tb.rd32(DATA), 8 * 4 * 20);
	TB_EQ(tb.faults.size(), 0);
}
END_TEST

// Every CSR: stored by each thread, against the values of the CTA record.
// An SC without an LR of its own thread fails, even though the semaphore
// unit still holds the reservation a previous thread on the same context
// took; the memory word keeps its value.  The ISS agrees.
START_TEST(sc_needs_the_threads_own_lr)
{
	Tb tb(19);
	Prog p;
	p << CSRR(T0, PPU_CSR_CTAID) << ADDI(T1, A0, 64);
	p << BNE(T0, ZERO, 16);                      // CTA 1: to the SC
	p << LR(T2, T1);                             // CTA 0: the reservation, then exit
	p.exit();
	p << ADDI(T3, ZERO, 77) << SC(T4, T1, T3);
	p.exit();
	TB_EQ(p.here(), 10u);                        // (the branch offset above)
	tb.poke32(DATA + 64, 0x1234);
	tb.load_prog(p);
	Launch l = simple_launch(1, 2);
	TB_CTX("sc without own lr");
	tb.dispatch(l, 0, 1);
	tb.run_to_events(1);
	tb.dispatch(l, 1, 1);                        // on the same context
	tb.run_to_events(2);
	TB_EQ(tb.faults.size(), 0);
	TB_EQ((tb.exits[TKey{0, 1, 0}].x[T4]), 1u);
	TB_EQ(tb.rd32(DATA + 64), 0x1234u);
	iss_check(tb, l);
}
END_TEST

// WAIT_CHILDREN with children out (the testbench's table): each thread
// sleeps; a CTA whose threads all wait (some at the barrier in CTA 1) is
// saved (SAVED_WAIT) and, once its children are done, resumed: its
// threads run the ecall again and get 0.  Registers and memory match the
// reference model, where the wait returns at once.  With a long wait both
// CTAs are saved; with a short one the wake may come first.
START_TEST(wait_children_sleeps_saves_and_resumes)
{
	for (uint64_t after : { 3000u, 5u }) {
		Tb tb(23);
		Prog p;
		p << CSRR(T0, PPU_CSR_TID) << CSRR(T1, PPU_CSR_CTAID) << ADDI(S3, A1, 100);
		p << OP(0, 7, T2, T0, T1) << BNE(T2, ZERO, 24);  // and: CTA 1, odd threads to the barrier
		p << ADDI(A7, ZERO, int32_t(PPU_ECALL_OP_WAIT_CHILDREN)) << ECALL << ADD(S2, A0, ZERO);
		p.exit();
		p.barrier();
		p << ADDI(A7, ZERO, int32_t(PPU_ECALL_OP_WAIT_CHILDREN)) << ECALL << ADD(S2, A0, ZERO);
		p.exit();
		tb.load_prog(p);
		Launch l = simple_launch(4, 2);
		tb.kids_after = after;
		tb.wait_launch = &l;
		TB_CTX("wait children, children done %llu cycles after", (unsigned long long)after);
		tb.dispatch(l, 0, 2);
		tb.run_to_events(2);
		TB_EQ(tb.faults.size(), 0);
		for (uint32_t c = 0; c < 2; c++)
			for (uint32_t t = 0; t < 4; t++) {
				TB_EQ((tb.exits[TKey{0, c, t}].x[S2]), 0u);
				TB_EQ((tb.exits[TKey{0, c, t}].x[S3]), 100u + t);
			}
		TB_TRUE(tb.wait_sleeps >= 2);
		TB_EQ(tb.wakes, 2u);
		if (after > 100)
			TB_EQ(tb.wait_saves, 2u);
		iss_check(tb, l);
	}
}
END_TEST

START_TEST(csrs_every_csr)
{
	Tb tb(18);
	static const uint32_t csrs[] = {
		PPU_CSR_TID, PPU_CSR_NTID, PPU_CSR_CTAID, PPU_CSR_NCTAID, PPU_CSR_CTADIM_X,
		PPU_CSR_CTADIM_Y, PPU_CSR_CTADIM_Z, PPU_CSR_GRID_X, PPU_CSR_GRID_Y, PPU_CSR_GRID_Z,
		PPU_CSR_PARAM, PPU_CSR_PRIO, PPU_CSR_DEPTH, PPU_CSR_MAXDEPTH, PPU_CSR_TASKID,
		PPU_CSR_HWID, PPU_CSR_CHILD_BLOCK, PPU_CSR_CHILD_STACK, PPU_CSR_CU_CONTEXTS,
		PPU_CSR_NUM_CU, PPU_CSR_CYCLE, PPU_CSR_CYCLEH, PPU_CSR_TIME, PPU_CSR_TIMEH,
	};
	const unsigned n = sizeof(csrs) / sizeof(csrs[0]);
	Prog p;
	p << CSRR(T0, PPU_CSR_CTAID) << CSRR(T1, PPU_CSR_NTID) << MUL(T0, T0, T1) << ADD(T0, T0, A1)
	  << ADDI(T1, ZERO, 4 * 32) << MUL(T0, T0, T1) << ADD(S0, T0, A0);
	for (unsigned i = 0; i < n; i++)
		p << CSRR(T2, csrs[i]) << SW(T2, S0, int32_t(4 * i));
	// csrrsi/csrrci/csrrc with x0 forms read as well
	p << i_type(int32_t(PPU_CSR_TID), 0, 6, T3, 0x73) << i_type(int32_t(PPU_CSR_NTID), 0, 7, T4, 0x73)
	  << i_type(int32_t(PPU_CSR_PARAM), 0, 3, T5, 0x73);
	p.exit();
	Launch l;
	l.cta[0] = 2;
	l.cta[1] = 3;
	l.cta[2] = 1;
	l.grid[0] = 3;
	l.grid[1] = 2;
	l.grid[2] = 1;
	l.prio = 41;
	l.depth = 3;
	l.maxdepth = 7;
	l.taskid = 55;
	TB_CTX("csrs");
	run_prog(tb, p, l);
	for (uint32_t c = 0; c < l.ncta(); c++) {
		for (uint32_t i = 0; i < l.t(); i++) {
			uint32_t base = DATA + (c * l.t() + i) * 128;
			const Thread &t = tb.exits[TKey{0, c, i}];
			uint32_t want[] = {
				i, 6, c, 6, 2, 3, 1, 3, 2, 1, DATA, 41, 3, 7, 55, t.hwid, 0, 0, CTX, NUM_CU,
				TS_CONST, TS_CONST_HI, TS_CONST, TS_CONST_HI,
			};
			TB_EQ(t.hwid >> 8, CU_INDEX);
			for (unsigned k = 0; k < n; k++) {
				TB_CTX("cta %u thread %u csr %#x", c, i, csrs[k]);
				TB_EQ(tb.rd32(base + 4 * k), want[k]);
			}
		}
	}
}
END_TEST

// instret counts retired instructions of the CU; cycle follows the timestamp.
START_TEST(csr_instret_cycle)
{
	Tb tb(19);
	tb.ts_const = false;
	Prog p;
	p << CSRR(T0, PPU_CSR_INSTRET) << CSRR(T1, PPU_CSR_CYCLE);
	for (int i = 0; i < 20; i++)
		p << ADDI(T2, T2, 1);
	p << CSRR(T3, PPU_CSR_INSTRET) << CSRR(T4, PPU_CSR_CYCLE) << CSRR(T5, PPU_CSR_INSTRETH)
	  << SUB(S2, T3, T0) << SUB(S3, T4, T1) << SW(S2, A0, 0) << SW(S3, A0, 4) << SW(T5, A0, 8);
	p.exit();
	tb.load_prog(p);
	Launch l = simple_launch(1);
	tb.dispatch(l);
	tb.run_to_events(1);
	TB_EQ(tb.rd32(DATA), 22);                 // one thread: both csrr and the 20 addi
	TB_TRUE(tb.rd32(DATA + 4) >= 21 * 4);     // a lone context issues every 4 cycles at best
	TB_TRUE(tb.rd32(DATA + 4) < 1000);
	TB_EQ(tb.rd32(DATA + 8), 0);
	TB_EQ(tb.retired, p.w.size());            // every instruction once (the exit included)
}
END_TEST

START_TEST(ecall_ops)
{
	Tb tb(20);
	Prog p;
	p.li(A1, 0x5555);
	p.li(A0, 0x1234);
	p << ADDI(A7, ZERO, int32_t(PPU_ECALL_OP_LAUNCH)) << ECALL << ADD(S2, A0, ZERO)
	  << ADD(S3, A1, ZERO);
	p.li(A0, 0x777);
	p << ADDI(A7, ZERO, int32_t(PPU_ECALL_OP_WAIT_CHILDREN)) << ECALL << ADD(S4, A0, ZERO);
	p.li(A0, 0x999);
	p << ADDI(A7, ZERO, 99) << ECALL << ADD(S5, A0, ZERO);
	p.li(A7, 0x80000001);
	p << ECALL << ADD(S6, A0, ZERO);
	p << ADDI(A7, ZERO, int32_t(PPU_ECALL_OP_BARRIER)) << ECALL << ADD(S7, A0, ZERO);
	p.li(S8, DATA);
	p << FENCE << FENCE_I << SW(S2, S8, 0) << FENCE << FENCE_I;
	p.exit();
	Launch l = simple_launch(3);
	l.param = DATA;
	TB_CTX("ecalls");
	run_prog(tb, p, l);
	const Thread &t = tb.exits[TKey{0, 0, 1}];
	TB_EQ(t.x[S2], PPU_ECALL_STATUS_ENOSYS);
	TB_EQ(t.x[S3], 0x5555);
	TB_EQ(t.x[S4], PPU_ECALL_STATUS_OK);
	TB_EQ(t.x[S5], PPU_ECALL_STATUS_ENOSYS);
	TB_EQ(t.x[S6], PPU_ECALL_STATUS_ENOSYS);
	TB_EQ(t.x[S7], 0);
}
END_TEST

} // namespace

// ---------------------------------------------------------------------------
// The sample kernels (build/device/*.elf), RTL against the ISS.
// ---------------------------------------------------------------------------
namespace {

constexpr uint32_t A_PARAMS = DATA + 0x100;

uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s ^ (*s >> 16);
}

// Loads build/device/<name>.elf at CODE (both memories); returns the entry.
uint32_t load_kernel(Tb &tb, const char *name)
{
	const char *dir = getenv("PPU_DEVICE_DIR");
	std::string path = std::string(dir ? dir : PPU_DEVICE_DIR) + "/" + name + ".elf";
	FILE *f = fopen(path.c_str(), "rb");
	if (!f)
		TB_FAIL("cannot open %s (make device-kernels)", path.c_str());
	std::vector<unsigned char> file;
	unsigned char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		file.insert(file.end(), buf, buf + n);
	fclose(f);
	ppu_elf e;
	char err[256];
	if (ppu_elf_open(&e, file.data(), file.size(), err, sizeof(err)))
		TB_FAIL("%s: %s", path.c_str(), err);
	TB_TRUE(e.image_bytes <= RO_PAGE - CODE);
	std::vector<unsigned char> img(e.image_bytes);
	if (ppu_elf_load(&e, CODE, img.data(), err, sizeof(err)))
		TB_FAIL("%s: %s", path.c_str(), err);
	uint32_t off;
	if (ppu_elf_symbol(&e, name, &off))
		TB_FAIL("%s: no symbol %s", path.c_str(), name);
	tb.poke(CODE, img.data(), img.size());
	return CODE + off;
}

Launch kernel_launch(Tb &tb, const char *name, uint32_t grid, uint32_t cta, const void *params,
		     size_t plen)
{
	Launch l;
	l.entry = load_kernel(tb, name);
	l.grid[0] = grid;
	l.cta[0] = cta;
	l.param = DATA;
	l.stack_log2 = 10;
	tb.poke(DATA, params, plen);
	return l;
}

START_TEST(kernel_saxpy)
{
	enum { N = 500, GUARD = 12 };
	Tb tb(31);
	saxpy_params p = {N, -3, A_PARAMS, A_PARAMS + 4 * (N + GUARD)};
	uint32_t s = 1, want[N + GUARD];
	for (uint32_t i = 0; i < N + GUARD; i++) {
		uint32_t x = lcg(&s), y = lcg(&s);
		tb.poke32(p.x + 4 * i, x);
		tb.poke32(p.y + 4 * i, y);
		want[i] = i < N ? uint32_t(p.a) * x + y : y;
	}
	Launch l = kernel_launch(tb, "saxpy", (N + 7) / 8, 8, &p, sizeof(p));
	TB_CTX("saxpy");
	run_compare(tb, l);
	for (uint32_t i = 0; i < N + GUARD; i++) {
		TB_CTX("saxpy y[%u]", i);
		TB_EQ(tb.rd32(p.y + 4 * i), want[i]);
	}
}
END_TEST

START_TEST(kernel_reduce_atomic)
{
	enum { N = 5000, GRID = 6, CTA = 8 };
	Tb tb(32);
	reduce_params p = {N, A_PARAMS + 16, A_PARAMS};
	uint32_t s = 2, sum = 0, max = 0;
	for (uint32_t i = 0; i < N; i++) {
		uint32_t v = lcg(&s) >> 4;
		tb.poke32(p.in + 4 * i, v);
		sum += v;
		max = v > max ? v : max;
	}
	for (int i = 0; i < 4; i++)
		tb.poke32(p.out + 4 * i, 0);
	Launch l = kernel_launch(tb, "reduce_atomic", GRID, CTA, &p, sizeof(p));
	TB_CTX("reduce_atomic");
	// The registers hold values the CAS loop saw, which depend on the order.
	run_compare(tb, l, 20000000, false);
	TB_EQ(tb.rd32(p.out), sum);
	TB_EQ(tb.rd32(p.out + 4), max);
	TB_EQ(tb.rd32(p.out + 8), GRID * CTA);
	TB_EQ(tb.rd32(p.out + 12), 0);
	TB_TRUE(tb.amos >= 3 * GRID * CTA);
}
END_TEST

START_TEST(kernel_histogram)
{
	enum { N = 4000, BINS = 17 };
	Tb tb(33);
	histogram_params p = {N, BINS, A_PARAMS + 4 * (BINS + 1), A_PARAMS};
	uint32_t s = 3, want[BINS + 1] = {0};
	for (uint32_t i = 0; i < N; i++) {
		uint32_t v = lcg(&s) % 1000;
		tb.poke32(p.in + 4 * i, v);
		want[v % BINS]++;
	}
	for (uint32_t i = 0; i <= BINS; i++)
		tb.poke32(p.bins + 4 * i, 0);
	Launch l = kernel_launch(tb, "histogram", 4, 8, &p, sizeof(p));
	TB_CTX("histogram");
	run_compare(tb, l);
	for (uint32_t i = 0; i <= BINS; i++) {
		TB_CTX("bin %u", i);
		TB_EQ(tb.rd32(p.bins + 4 * i), want[i]);
	}
}
END_TEST

// A launch whose CTAs run in waves: the threads of earlier waves are gone
// from the unit when the CTA exits, so memory is compared, not registers.
void run_compare_waves(Tb &tb, const Launch &l, uint64_t max_cycles = 20000000)
{
	tb.dispatch(l);
	tb.run_to_events(l.ncta(), max_cycles);
	TB_EQ(tb.count_events(EV_EXITED), l.ncta());
	TB_EQ(tb.faults.size(), 0);
	TB_EQ(tb.free_ctx(), CTX);
	IssCtx c;
	int st = iss_run(tb, l, &c);
	if (st != PPU_ISS_DONE)
		TB_FAIL("%s: ISS status %d", tb_ctx_buf(), st);
	tb.compare_memory(l.root);
	ppu_iss_fini(&c.m);
}

// CTAs of more threads than contexts run in waves on the whole unit: the
// resident wave runs until each of its threads waits at the barrier or has
// exited, is saved to its thread records and the next wave brought in (or
// started); a barrier completes across all waves, and a thread loaded back
// after its barrier was released carries on past it.  20 threads = waves of
// 8, 8 and 4 (four contexts parked); 32 = 4 full waves; 9 threads, one of
// which (and then half) exit; 1024, the most (128 waves).  Memory against
// the ISS.
START_TEST(kernel_barrier_phases_waves)
{
	static const unsigned ctas[] = {20, 32, 9, 1024};
	for (unsigned n : ctas) {
		enum { GRID = 2 };
		Tb tb(36 + n);
		barrier_params p = {7, n - 1, 3, 55 + n, A_PARAMS, A_PARAMS + 4 * GRID * 2 * n};
		for (uint32_t i = 0; i < GRID * n; i++)
			tb.poke32(p.out + 4 * i, 0xeeeeeeee);
		Launch l = kernel_launch(tb, "barrier_phases", GRID, n, &p, sizeof(p));
		l.stack_log2 = 6;   // (2048 threads' stacks in the stack region)
		TB_CTX("barrier_phases in waves, %u threads per CTA", n);
		run_compare_waves(tb, l);
		TB_TRUE(tb.waves >= GRID * ((n + CTX - 1) / CTX - 1));
		TB_EQ(tb.rd32(p.out + 4 * (n - 1)), 0xeeeeeeee);   // exits at once
		TB_TRUE(tb.rd32(p.out) != 0xeeeeeeee);
		TB_TRUE(tb.rd32(p.out + 4 * (2 * n - 2)) != 0xeeeeeeee);
	}
}
END_TEST

// CTAs in waves preempted at random points (also while a wave is being
// switched or the CTA resumed): each is saved between wave switches with
// its LIVE/ARRIVED/PHASE and wave counts in its slot header, resumed with
// them, and the memory still equals the ISS's.
START_TEST(kernel_waves_preempted)
{
	static const unsigned ctas[] = {20, 9, 64};
	for (unsigned n : ctas) {
		enum { GRID = 2 };
		Tb tb(90 + n);
		barrier_params p = {9, n - 2, 4, 11 + n, A_PARAMS, A_PARAMS + 4 * GRID * 2 * n};
		Launch l = kernel_launch(tb, "barrier_phases", GRID, n, &p, sizeof(p));
		l.stack_log2 = 6;
		tb.preempt_pct = 100;
		tb.preempt_max = 2500;
		tb.preemptible.push_back(&l);
		TB_CTX("barrier_phases in waves, %u threads per CTA, preempted", n);
		run_compare_waves(tb, l, 40000000);
		TB_TRUE(tb.saves >= 4);
		uint32_t w3 = tb.rd32(HDRS + (l.tslot * 4) * 16 + PPU_SLOT_HDR_WAVE);
		TB_TRUE(PPU_FGET(PPU_SLOT_HDR_WAVE_STARTED, w3) >= 1);
	}
}
END_TEST

// Waves without barriers: each wave runs to its threads' exits.
START_TEST(kernel_checksum_waves)
{
	Tb tb(37);
	checksum_params p = {60, 0x5eed, A_PARAMS};
	Launch l = kernel_launch(tb, "checksum", 2, 27, &p, sizeof(p));
	TB_CTX("checksum in waves");
	run_compare_waves(tb, l);
	TB_EQ(tb.waves, 2u * 3u);   // 8 + 8 + 8 + 3 threads: 3 switches per CTA
}
END_TEST

START_TEST(kernel_checksum)
{
	Tb tb(34);
	checksum_params p = {300, 0x1234abcd, A_PARAMS};
	Launch l = kernel_launch(tb, "checksum", 3, 8, &p, sizeof(p));
	tb.rd_lat = 20;
	TB_CTX("checksum");
	run_compare(tb, l);
}
END_TEST

START_TEST(kernel_barrier_phases)
{
	enum { GRID = 3, CTA = 8 };
	Tb tb(35);
	barrier_params p = {9, 7, 4, 77, A_PARAMS, A_PARAMS + 4 * GRID * 2 * CTA};
	for (uint32_t i = 0; i < GRID * CTA; i++)
		tb.poke32(p.out + 4 * i, 0xeeeeeeee);
	Launch l = kernel_launch(tb, "barrier_phases", GRID, CTA, &p, sizeof(p));
	TB_CTX("barrier_phases");
	run_compare(tb, l);
	// thread 7 exits at once, so its output stays
	TB_EQ(tb.rd32(p.out + 4 * 7), 0xeeeeeeee);
	TB_TRUE(tb.rd32(p.out) != 0xeeeeeeee);
}
END_TEST

START_TEST(kernel_divergent)
{
	enum { N = 40, GRID = 6, CTA = 8, W = DIVERGENT_OUT_WORDS };
	static const uint32_t corner[][2] = {
		{0x80000000, 0xffffffff}, {5, 0}, {0, 0}, {0xfffffff9, 2},
		{7, 0xfffffffe}, {0xffffffff, 0xffffffff}, {0x80000000, 0x80000000},
		{0x80000000, 0}, {0x7fffffff, 0xffffffff}, {27, 3}, {1, 31}, {6, 32},
	};
	Tb tb(36);
	divergent_params p = {N, A_PARAMS, A_PARAMS + 8 * N};
	uint32_t s = 4;
	for (uint32_t i = 0; i < N; i++) {
		uint32_t a = i < 12 ? corner[i][0] : lcg(&s);
		uint32_t b = i < 12 ? corner[i][1] : (i & 1) ? lcg(&s) % 97 : lcg(&s);
		tb.poke32(p.in + 8 * i, a);
		tb.poke32(p.in + 8 * i + 4, b);
	}
	for (uint32_t i = 0; i < GRID * CTA * W; i++)
		tb.poke32(p.out + 4 * i, 0xdddddddd);
	Launch l = kernel_launch(tb, "divergent", GRID, CTA, &p, sizeof(p));
	TB_CTX("divergent");
	run_compare(tb, l);
}
END_TEST

START_TEST(kernel_ids)
{
	Tb tb(37);
	ids_params p = {0xffffffff, A_PARAMS};
	Launch l = kernel_launch(tb, "ids", 1, 2, &p, sizeof(p));
	l.cta[1] = 2;
	l.cta[2] = 2;
	l.grid[0] = 2;
	l.grid[1] = 3;
	l.grid[2] = 2;
	l.prio = 40;
	l.depth = 2;
	l.maxdepth = 7;
	l.taskid = 9;
	TB_CTX("ids");
	run_compare(tb, l);
	for (uint32_t c = 0; c < l.ncta(); c++) {
		for (uint32_t i = 0; i < 8; i++) {
			uint32_t o = p.out + 4 * IDS_OUT_WORDS * (c * 8 + i);
			TB_CTX("ids cta %u thread %u", c, i);
			TB_EQ(tb.rd32(o + 4 * 16), (tb.exits[TKey{0, c, i}].hwid));
			TB_EQ(tb.rd32(o + 4 * 17), CTX << 8 | NUM_CU);
			TB_EQ(tb.rd32(o + 4 * 18), 1);
			TB_EQ(tb.rd32(o + 4 * 19), 0x600d);
		}
	}
}
END_TEST

// ppu_trap() from C: KERNEL_TRAP with the code, as the ISS reports it.
START_TEST(kernel_trap)
{
	Tb tb(38);
	ids_params p = {5, A_PARAMS};
	Launch l = kernel_launch(tb, "ids", 2, 4, &p, sizeof(p));
	l.chid = 21;
	tb.dispatch(l);
	TB_CTX("kernel trap");
	tb.run_until([&] { return !tb.faults.empty() && tb.events.size() == 1; }, 2000000,
		     "trap and the other CTA's exit");
	tb.run(2000);
	TB_EQ(tb.faults.size(), 1);
	IssCtx c;
	TB_EQ(iss_run(tb, l, &c), PPU_ISS_FAULT);
	const FaultRec &f = tb.faults[0];
	TB_EQ(f.kind, PPU_FAULT_KIND_KERNEL_TRAP);
	TB_EQ(f.unit, PPU_FAULT_UNIT_COMPUTE);
	TB_EQ(f.chid, 21);
	TB_EQ(f.data, IDS_TRAP_CODE);
	TB_EQ(f.kind, c.m.fault.kind);
	TB_EQ(f.access, c.m.fault.access);
	TB_EQ(f.addr, c.m.fault.addr);
	TB_EQ(f.data, c.m.fault.data);
	// CTA 1 (threads 4..7) holds the trapping thread 5 and never exits; CTA 0 did.
	TB_EQ(tb.events[0].cta_id, 0);
	tb.kill_q.emplace_back(0, 1);
	tb.run_to_events(2);
	TB_EQ(tb.events[1].kind, EV_KILLED);
	TB_EQ(tb.free_ctx(), CTX);
	ppu_iss_fini(&c.m);
}
END_TEST

} // namespace

// ---------------------------------------------------------------------------
// Random programs (seeded): ALU, M, branches, bounded loops, jumps, loads and
// stores in the thread's own window, AMOs and LR/SC on own words (results
// kept), AMOs on shared words (one commutative operation per word, results
// discarded), CSRs, barriers and returning ecalls.  Every thread of every
// CTA runs the same program on its own data.
// ---------------------------------------------------------------------------
namespace {

constexpr uint32_t WIN = 256;                  // bytes per thread
constexpr uint32_t WIN_BASE = DATA + 0x1000;   // windows by global thread id
constexpr unsigned NSHARED = 8;                // shared words at DATA
const uint32_t shared_f5[NSHARED] = {F5_ADD, F5_XOR, F5_OR, F5_AND, F5_MIN, F5_MAX, F5_MINU, F5_MAXU};

class RandProg {
public:
	// lrsc = false: no LR/SC pairs (a CTA preempted between them fails its SC,
	// which RISC-V allows and the ISS does not model)
	RandProg(uint64_t seed, unsigned items, bool lrsc = true) : r_(seed), lrsc_(lrsc)
	{
		for (unsigned x = 1; x < 32; x++)
			if (x != S0 && x != S1 && x != T4 && x != T5 && x != T6)
				wregs_.push_back(x);
		prologue();
		for (unsigned i = 0; i < items; i++)
			item(0);
		p.exit();
	}
	Prog p;

private:
	Rng r_;
	bool lrsc_;
	std::vector<unsigned> wregs_;    // registers random instructions may write

	unsigned wr() { return wregs_[r_.below(uint32_t(wregs_.size()))]; }
	unsigned rs() { return r_.below(32); }
	int32_t imm12() { return int32_t(r_.below(4096)) - 2048; }

	void prologue()
	{
		// s0 = own window, s1 = shared words (a0 = DATA)
		p << CSRR(T4, PPU_CSR_CTAID) << CSRR(T5, PPU_CSR_NTID) << MUL(T4, T4, T5)
		  << ADD(T4, T4, A1) << SLLI(T4, T4, 8) << ADD(S0, A0, T4);
		p.li(T4, WIN_BASE - DATA);
		p << ADD(S0, S0, T4) << ADD(S1, A0, ZERO);
		// registers: random, then mixed with the thread index so threads diverge
		for (unsigned x : wregs_) {
			if (x == A0 || x == A1 || x == SP || x == TP || r_.pct(30))
				continue;
			p.li(x, r_.u32());
			if (r_.pct(50))
				p << MUL(T4, A1, x) << XOR(x, x, T4);
		}
	}

	uint32_t XOR(unsigned rd, unsigned a, unsigned b) { return OP(0, 4, rd, a, b); }

	// One instruction that does not change control flow.
	void simple()
	{
		unsigned k = r_.below(100);
		if (k < 25) {
			static const uint32_t f3s[] = {0, 0, 1, 2, 3, 4, 5, 5, 6, 7};
			uint32_t f3 = f3s[r_.below(10)];
			uint32_t f7 = (f3 == 0 || f3 == 5) && r_.pct(50) ? 0x20 : 0;
			p << OP(f7, f3, wr(), rs(), rs());
		} else if (k < 45) {
			uint32_t f3 = r_.below(8);
			if (f3 == 1)
				p << SLLI(wr(), rs(), r_.below(32));
			else if (f3 == 5)
				p << (r_.pct(50) ? SRLI(wr(), rs(), r_.below(32)) : SRAI(wr(), rs(), r_.below(32)));
			else
				p << OPI(f3, wr(), rs(), imm12());
		} else if (k < 50) {
			p << (r_.pct(50) ? LUI(wr(), r_.u32()) : AUIPC(wr(), r_.u32()));
		} else if (k < 60) {
			p << MULDIV(r_.below(8), wr(), rs(), rs());
		} else if (k < 72) {
			static const uint32_t f3s[] = {0, 1, 2, 4, 5};
			uint32_t f3 = f3s[r_.below(5)];
			uint32_t size = 1u << (f3 & 3);
			p << LOAD(f3, wr(), S0, int32_t(r_.below(WIN / size) * size));
		} else if (k < 82) {
			uint32_t f3 = r_.below(3), size = 1u << f3;
			p << STORE(f3, rs(), S0, int32_t(r_.below(WIN / size) * size));
		} else if (k < 86) {
			static const uint32_t f5s[] = {F5_ADD, F5_SWAP, F5_XOR, F5_OR, F5_AND,
						       F5_MIN, F5_MAX, F5_MINU, F5_MAXU};
			p << ADDI(T4, S0, int32_t(4 * r_.below(WIN / 4))) << AMO(f5s[r_.below(9)], wr(), T4, rs());
		} else if (k < 90) {
			unsigned w = r_.below(NSHARED);
			p << ADDI(T4, S1, int32_t(4 * w)) << AMO(shared_f5[w], ZERO, T4, rs());
		} else if (k < 92 && lrsc_) {
			p << ADDI(T4, S0, int32_t(4 * r_.below(WIN / 4))) << LR(wr(), T4) << SC(wr(), T4, rs());
		} else if (k < 92) {
			p << ADDI(T4, S0, int32_t(4 * r_.below(WIN / 4))) << LOAD(2, wr(), T4, 0);
		} else if (k < 95) {
			static const uint32_t csrs[] = {
				PPU_CSR_TID, PPU_CSR_NTID, PPU_CSR_CTAID, PPU_CSR_NCTAID, PPU_CSR_CTADIM_X,
				PPU_CSR_GRID_X, PPU_CSR_PARAM, PPU_CSR_PRIO, PPU_CSR_DEPTH, PPU_CSR_MAXDEPTH,
				PPU_CSR_TASKID, PPU_CSR_CHILD_BLOCK, PPU_CSR_CU_CONTEXTS, PPU_CSR_NUM_CU,
			};
			p << CSRR(wr(), csrs[r_.below(sizeof(csrs) / sizeof(csrs[0]))]);
		} else if (k < 97) {
			// a returning ecall: WAIT_CHILDREN, LAUNCH or an unknown op
			static const int32_t ops[] = {PPU_ECALL_OP_WAIT_CHILDREN, PPU_ECALL_OP_LAUNCH, 9};
			p << ADDI(A7, ZERO, ops[r_.below(3)]) << ECALL;
		} else if (k < 98) {
			p << ADDI(A7, ZERO, PPU_ECALL_OP_BARRIER) << ECALL;
		} else {
			p << (r_.pct(50) ? FENCE : FENCE_I);
		}
	}

	// Straight-line code with forward branches and jumps inside.
	void item(unsigned depth)
	{
		unsigned k = r_.below(100);
		if (k < 75) {
			simple();
		} else if (k < 85) {
			// forward branch over 1..4 instructions
			static const uint32_t f3s[] = {0, 1, 4, 5, 6, 7};
			unsigned n0 = p.here();
			p << 0;   // patched
			unsigned n = 1 + r_.below(4);
			for (unsigned i = 0; i < n; i++)
				simple();
			int32_t off = int32_t(4 * (p.here() - n0));
			p.w[n0] = BR(f3s[r_.below(6)], rs(), rs(), off);
		} else if (k < 89) {
			// jal over one simple instruction (which may be a sequence)
			unsigned n0 = p.here();
			p << 0;   // patched
			simple();
			p.w[n0] = JAL(wr(), int32_t(4 * (p.here() - n0)));
		} else if (k < 92) {
			// auipc t4, 0; jalr rd, 12(t4); <skipped>
			p << AUIPC(T4, 0) << JALR(wr(), T4, 12) << ADDI(wr(), rs(), imm12());
		} else if (depth < 2) {
			// a bounded loop: t6 (outer) or t5 (inner) counts down
			unsigned cnt = depth == 0 ? T6 : T5;
			p << ADDI(cnt, ZERO, int32_t(1 + r_.below(4)));
			unsigned top = p.here();
			unsigned n = 2 + r_.below(8);
			for (unsigned i = 0; i < n; i++)
				item(depth + 1);
			p << ADDI(cnt, cnt, -1);
			p << BNE(cnt, ZERO, -4 * int32_t(p.here() - top));
		} else {
			simple();
		}
	}
};

uint64_t rand_retired, rand_cycles, rand_threads;

uint64_t rand_preemptions, rand_saves;

// One random launch: program, CTA shape, memory timing from the seed; with
// @preempt_pct, its CTAs are preempted at random and resumed.
void random_case(uint64_t seed, unsigned items, unsigned preempt_pct = 0)
{
	Tb tb(seed);
	Rng r(seed * 7919 + 1);
	RandProg rp(seed, items, preempt_pct == 0);
	Launch l;
	l.cta[0] = 1 + r.below(CTX);
	l.grid[0] = 1 + r.below(4);
	l.stack_log2 = 6 + r.below(4);
	tb.rd_lat = 1 + r.below(30);
	tb.wr_lat = 1 + r.below(30);
	tb.x_lat = 1 + r.below(10);
	tb.sem_lat = 1 + r.below(20);
	tb.ready_pct = 40 + r.below(61);
	for (unsigned w = 0; w < NSHARED; w++)
		tb.poke32(DATA + 4 * w, w == 3 ? 0xffffffffu : r.u32());
	tb.load_prog(rp.p);
	if (preempt_pct) {
		tb.preempt_pct = preempt_pct;
		tb.preemptible.push_back(&l);
	}
	TB_CTX("seed %llu (%u x %u threads, %zu words, lat %u/%u, ready %u%%, preemption %u%%)",
	       (unsigned long long)seed, l.grid[0], l.cta[0], rp.p.w.size(), tb.rd_lat, tb.wr_lat,
	       tb.ready_pct, preempt_pct);
	run_compare(tb, l, 3000000);
	rand_preemptions += tb.preemptions;
	rand_saves += tb.saves;
	rand_retired += tb.retired;
	rand_cycles += tb.dut.cyc;
	rand_threads += l.t() * l.ncta();
}

void random_report(const char *what, unsigned n)
{
	printf("tb_cu: %u random programs (%s): %llu threads, %llu instructions retired in %llu cycles\n",
	       n, what, (unsigned long long)rand_threads, (unsigned long long)rand_retired,
	       (unsigned long long)rand_cycles);
}

START_TEST(random_programs_short)
{
	for (uint64_t seed = 1; seed <= 120; seed++)
		random_case(seed, 60);
	random_report("60 items", 120);
}
END_TEST

// Random programs whose CTAs are preempted (saved to their thread records)
// and resumed at random points: loads, divisions and atomics under way,
// stores not yet acknowledged, barriers, exited threads; the registers at
// exit and memory must still equal the ISS's.
START_TEST(random_programs_preempted)
{
	rand_retired = rand_cycles = rand_threads = rand_preemptions = rand_saves = 0;
	for (uint64_t seed = 3001; seed <= 3080; seed++)
		random_case(seed, 120, 50 + 10 * unsigned(seed % 5));
	random_report("120 items, preempted", 80);
	printf("tb_cu: %llu preemptions requested, %llu CTAs saved and resumed\n",
	       (unsigned long long)rand_preemptions, (unsigned long long)rand_saves);
	ck_assert_uint_gt(rand_saves, 200);
}
END_TEST

START_TEST(random_programs_long)
{
	for (uint64_t seed = 1001; seed <= 1080; seed++)
		random_case(seed, 400);
	random_report("400 items", 80);
}
END_TEST

// Two tasks in two address spaces, each a random program at the same VA,
// their CTAs dispatched in turn.
START_TEST(random_two_tasks)
{
	for (uint64_t seed = 2001; seed <= 2030; seed++) {
		Tb tb(seed);
		tb.space.map(ROOT_B, CODE, RO_PAGE - CODE, true, true, true);
		tb.space.map(ROOT_B, DATA, DATA_BYTES, true, true, false);
		tb.space.map(ROOT_B, STACKS, STACK_BYTES, true, true, false);
		Rng r(seed * 31 + 7);
		RandProg pa(seed, 150), pb(seed + 50000, 150);
		Launch a, b;
		a.cta[0] = 1 + r.below(CTX / 2);
		a.grid[0] = 1 + r.below(4);
		b.cta[0] = 1 + r.below(CTX / 2);
		b.grid[0] = 1 + r.below(4);
		b.tslot = 3;
		b.root = ROOT_B;
		b.taskid = 44;
		tb.rd_lat = 1 + r.below(30);
		tb.ready_pct = 50 + r.below(51);
		for (unsigned w = 0; w < NSHARED; w++) {
			tb.poke32(DATA + 4 * w, r.u32(), ROOT_A);
			tb.poke32(DATA + 4 * w, r.u32(), ROOT_B);
		}
		tb.load_prog(pa.p, CODE, ROOT_A);
		tb.load_prog(pb.p, CODE, ROOT_B);
		for (uint32_t c = 0; c < 4; c++) {
			if (c < a.ncta())
				tb.dispatch(a, c, 1);
			if (c < b.ncta())
				tb.dispatch(b, c, 1);
		}
		TB_CTX("two tasks, seed %llu", (unsigned long long)seed);
		tb.run_to_events(a.ncta() + b.ncta(), 20000000);
		TB_EQ(tb.faults.size(), 0);
		iss_check(tb, a, false);
		iss_check(tb, b, false);
		tb.compare_memory(ROOT_A);
		tb.compare_memory(ROOT_B);
	}
}
END_TEST

} // namespace

// ---------------------------------------------------------------------------
// Faults: the record, the frozen CTA, other CTAs running on, kill.
// ---------------------------------------------------------------------------
namespace {

constexpr uint32_t HEALTHY_CODE = CODE + 0x8000;

// Launch in task slot 1: 2 CTAs of 3 threads sum a table into their words.
Launch healthy_launch(Tb &tb)
{
	Prog p;
	p << CSRR(T0, PPU_CSR_CTAID) << SLLI(T0, T0, 2) << ADD(T0, T0, A1) << SLLI(T0, T0, 2)
	  << ADD(S0, A0, T0) << ADDI(S1, ZERO, 40) << ADDI(S2, ZERO, 0);
	uint32_t top = p.here();
	p << LW(T1, A0, 0) << ADD(S2, S2, T1) << MUL(S2, S2, S1) << ADD(S2, S2, A1) << SW(S2, S0, 16)
	  << ADDI(S1, S1, -1);
	p << BNE(S1, ZERO, -4 * int32_t(p.here() - top));
	p << MULDIV(4, S3, S2, A1) << SW(S3, S0, 64);
	p.exit();
	tb.load_prog(p, HEALTHY_CODE);
	tb.poke32(DATA + 0x2000, 0x1234567);
	Launch l;
	l.tslot = 1;
	l.taskid = 12;
	l.chid = 4;
	l.entry = HEALTHY_CODE;
	l.param = DATA + 0x2000;
	l.cta[0] = 3;
	l.grid[0] = 2;
	l.stack_va = STACKS + 0x20000;
	return l;
}

struct Want {
	unsigned kind, access;
	uint32_t addr, data;
};

// @p runs as one thread (task slot 0, channel 7) next to the healthy
// launch and must fault with @w, as the ISS's fault; then the kill.
void fault_case(const char *name, Tb &tb, Prog &p, Want w, bool posted = false)
{
	TB_CTX("%s", name);
	p.exit();
	tb.load_prog(p);
	Launch f = simple_launch(1);
	f.chid = 7;
	Launch h = healthy_launch(tb);
	tb.dispatch(f);
	tb.dispatch(h);
	tb.run_until([&] { return !tb.faults.empty() && tb.count_events(EV_EXITED) == 2; }, 500000,
		     "the fault and the healthy CTAs");
	tb.run(500);
	TB_EQ(tb.faults.size(), 1);
	TB_EQ(tb.events.size(), 2);
	const FaultRec &r = tb.faults[0];
	TB_EQ(r.chid, 7);
	TB_EQ(r.unit, PPU_FAULT_UNIT_COMPUTE);
	TB_EQ(r.kind, w.kind);
	TB_EQ(r.access, w.access);
	TB_EQ(r.addr, w.addr);
	TB_EQ(r.data, w.data);
	// the reference model faults the same way
	IssCtx c;
	TB_EQ(iss_run(tb, f, &c), PPU_ISS_FAULT);
	TB_EQ(c.m.fault.kind, w.kind);
	TB_EQ(c.m.fault.access, w.access);
	TB_EQ(c.m.fault.addr, w.addr);
	TB_EQ(c.m.fault.data, w.data);
	ppu_iss_fini(&c.m);
	// the faulting context is frozen at the instruction (a posted store's
	// context has gone on: the CTA is frozen wherever it is)
	bool seen = false;
	for (unsigned k = 0; k < CTX; k++) {
		if (tb.ctx_state(k) == S_FAULT) {
			seen = true;
			TB_EQ(tb.dut->dbg_pc, c.m.fault.pc);
			TB_EQ(tb.dut->dbg_cta_id, 0);
		}
	}
	TB_TRUE(seen || posted);
	// the other task's CTAs finished as the ISS says
	iss_check(tb, h);
	// kill: the contexts come back
	TB_TRUE(tb.free_ctx() == CTX - 1);
	tb.kill_q.emplace_back(0, 0);
	tb.run_to_events(3);
	TB_EQ(tb.events[2].kind, EV_KILLED);
	TB_EQ(tb.events[2].tslot, 0);
	TB_EQ(tb.free_ctx(), CTX);
	TB_EQ(tb.faults.size(), 1);
}

START_TEST(fault_illegal_instruction)
{
	{
		Tb tb(41);
		Prog p;
		p << ADDI(T0, ZERO, 5) << 0xffffffffu;
		fault_case("illegal", tb, p, {PPU_FAULT_KIND_ILLEGAL_INSTR, tp::ACC_EXEC, CODE + 4, 0xffffffff});
	}
	{
		Tb tb(42);
		Prog p;
		uint32_t w = i_type(int32_t(PPU_CSR_TID), T0, 1, T1, 0x73);   // csrrw: a write
		p << ADDI(T0, ZERO, 5) << NOP() << w;
		fault_case("csr write", tb, p, {PPU_FAULT_KIND_ILLEGAL_INSTR, tp::ACC_EXEC, CODE + 8, w});
	}
	{
		Tb tb(43);
		Prog p;
		p << 0x00000000u;
		fault_case("zero word", tb, p, {PPU_FAULT_KIND_ILLEGAL_INSTR, tp::ACC_EXEC, CODE, 0});
	}
}
END_TEST

START_TEST(fault_misaligned)
{
	struct Case {
		const char *name;
		std::function<void(Prog &)> code;
		unsigned access;
		uint32_t addr;
		uint32_t pc_index;
	};
	std::vector<Case> cases = {
		{"lw", [](Prog &p) { p.li(T0, DATA + 2); p << LW(T1, T0, 0); }, tp::ACC_READ, DATA + 2, 2},
		{"lh", [](Prog &p) { p.li(T0, DATA + 1); p << LH(T1, T0, 2); }, tp::ACC_READ, DATA + 3, 2},
		{"sw", [](Prog &p) { p.li(T0, DATA); p << SW(T1, T0, 6); }, tp::ACC_WRITE, DATA + 6, 2},
		{"sh", [](Prog &p) { p.li(T0, DATA + 1); p << SH(T1, T0, 0); }, tp::ACC_WRITE, DATA + 1, 2},
		{"amo", [](Prog &p) { p.li(T0, DATA + 2); p << AMO(F5_ADD, T1, T0, T1); }, tp::ACC_RMW, DATA + 2, 2},
		{"lr", [](Prog &p) { p.li(T0, DATA + 1); p << LR(T1, T0); }, tp::ACC_READ, DATA + 1, 2},
		{"sc", [](Prog &p) { p.li(T0, DATA + 3); p << SC(T1, T0, T1); }, tp::ACC_WRITE, DATA + 3, 2},
		{"jalr", [](Prog &p) { p.li(T0, CODE + 0x102); p << JALR(RA, T0, 0); }, tp::ACC_EXEC, CODE + 0x102, 2},
		{"jal", [](Prog &p) { p << NOP() << JAL(RA, 6); }, tp::ACC_EXEC, CODE + 4 + 6, 1},
		{"branch", [](Prog &p) { p << NOP() << NOP() << BEQ(ZERO, ZERO, 10); }, tp::ACC_EXEC, CODE + 8 + 10, 2},
	};
	uint64_t seed = 50;
	for (const Case &c : cases) {
		Tb tb(seed++);
		Prog p;
		c.code(p);
		fault_case(c.name, tb, p, {PPU_FAULT_KIND_MISALIGNED, c.access, c.addr, CODE + 4 * c.pc_index});
	}
	// a branch not taken to a misaligned target is no fault
	Tb tb(seed);
	Prog p;
	p << BNE(ZERO, ZERO, 6) << ADDI(T0, ZERO, 1);
	p.exit();
	TB_CTX("branch not taken");
	run_prog(tb, p, simple_launch(1));
}
END_TEST

START_TEST(fault_translation)
{
	struct Case {
		const char *name;
		std::function<void(Prog &)> code;
		unsigned kind, access;
		uint32_t addr;
		uint32_t pc_index;   // ~0u: the fetch itself (data = addr)
	};
	const uint32_t NP = PPU_FAULT_KIND_PTE_NOT_PRESENT, PM = PPU_FAULT_KIND_PERMISSION;
	std::vector<Case> cases = {
		{"load hole", [](Prog &p) { p.li(T0, HOLE); p << LW(T1, T0, 0x10); }, NP, tp::ACC_READ, HOLE + 0x10, 2},
		{"load byte hole", [](Prog &p) { p.li(T0, HOLE); p << LBU(T1, T0, 0x7ff); }, NP, tp::ACC_READ, HOLE + 0x7ff, 2},
		{"store read-only", [](Prog &p) { p.li(T0, RO_PAGE); p << SB(T1, T0, 3) << ADDI(T2, ZERO, 1); }, PM, tp::ACC_WRITE, RO_PAGE + 3, 2},
		// the load's READ translation must not serve the store
		{"store after load, read-only", [](Prog &p) { p.li(T0, RO_PAGE); p << LW(T1, T0, 0) << SW(T1, T0, 4) << ADDI(T2, ZERO, 1); }, PM, tp::ACC_WRITE, RO_PAGE + 4, 3},
		{"load write-only", [](Prog &p) { p.li(T0, WO_PAGE); p << LW(T1, T0, 8); }, PM, tp::ACC_READ, WO_PAGE + 8, 2},
		{"load exec-only", [](Prog &p) { p.li(T0, XO_PAGE); p << LH(T1, T0, 2); }, PM, tp::ACC_READ, XO_PAGE + 2, 2},
		{"amo read-only", [](Prog &p) { p.li(T0, RO_PAGE + 8); p << AMO(F5_OR, T1, T0, T1); }, PM, tp::ACC_RMW, RO_PAGE + 8, 2},
		{"amo hole", [](Prog &p) { p.li(T0, HOLE); p << AMO(F5_SWAP, T1, T0, T1); }, NP, tp::ACC_RMW, HOLE, 2},
		{"lr hole", [](Prog &p) { p.li(T0, HOLE + 4); p << LR(T1, T0); }, NP, tp::ACC_READ, HOLE + 4, 2},
		{"sc after lr, read-only", [](Prog &p) { p.li(T0, RO_PAGE); p << LR(T1, T0) << SC(T2, T0, T1); }, PM, tp::ACC_WRITE, RO_PAGE, 3},
		{"fetch hole", [](Prog &p) { p.li(T0, HOLE + 0x40); p << JALR(RA, T0, 0); }, NP, tp::ACC_EXEC, HOLE + 0x40, ~0u},
		{"fetch data page", [](Prog &p) { p.li(T0, DATA + 0x80); p << JALR(RA, T0, 0); }, PM, tp::ACC_EXEC, DATA + 0x80, ~0u},
		{"fetch next page", [](Prog &p) { p.li(T0, RO_PAGE - 4); p << JALR(RA, T0, 0); }, PM, tp::ACC_EXEC, RO_PAGE, ~0u},
	};
	uint64_t seed = 70;
	for (const Case &c : cases) {
		Tb tb(seed++);
		Prog p;
		c.code(p);
		if (std::string(c.name) == "fetch next page")
			tb.poke32(RO_PAGE - 4, NOP());
		uint32_t data = c.pc_index == ~0u ? c.addr : CODE + 4 * c.pc_index;
		fault_case(c.name, tb, p, {c.kind, c.access, c.addr, data},
			   std::string(c.name).find("store") == 0);
	}
	// A failing SC (no reservation) does not access memory: no fault.
	Tb tb(seed);
	Prog p;
	p.li(T0, HOLE);
	p << SC(T1, T0, T1);
	p.exit();
	TB_CTX("sc without reservation");
	run_prog(tb, p, simple_launch(1));
	TB_EQ((tb.exits[TKey{0, 0, 0}].x[T1]), 1);
}
END_TEST

START_TEST(fault_bus_error)
{
	auto mark = [](Tb &tb, uint32_t va, bool read) {
		int sys;
		uint64_t pa;
		TB_EQ(tb.space.xlate(ROOT_A, va, tp::ACC_READ, &sys, &pa), 0);
		(read ? tb.mem.rd_err : tb.mem.wr_err).insert({sys, pa & ~uint64_t(7)});
	};
	{
		Tb tb(81);
		mark(tb, DATA + 0x800, true);
		Prog p;
		p.li(T0, DATA + 0x800);
		p << LW(T1, T0, 4);
		fault_case("load", tb, p, {PPU_FAULT_KIND_BUS_ERROR, tp::ACC_READ, DATA + 0x804, CODE + 8});
	}
	{
		Tb tb(82);
		mark(tb, DATA + 0x800, false);
		Prog p;
		p.li(T0, DATA + 0x800);
		p << SH(T1, T0, 6) << ADDI(T2, ZERO, 1);
		fault_case("store", tb, p, {PPU_FAULT_KIND_BUS_ERROR, tp::ACC_WRITE, DATA + 0x806, CODE + 8},
			   true);
	}
	{
		Tb tb(83);
		mark(tb, CODE + 0x200, true);
		Prog p;
		p.li(T0, CODE + 0x200);
		p << JALR(RA, T0, 0);
		fault_case("fetch", tb, p, {PPU_FAULT_KIND_BUS_ERROR, tp::ACC_EXEC, CODE + 0x200, CODE + 0x200});
	}
}
END_TEST

START_TEST(fault_trap)
{
	{
		Tb tb(91);
		Prog p;
		p << ADDI(A0, ZERO, 0x77) << ADDI(A7, ZERO, int32_t(PPU_ECALL_OP_TRAP)) << ECALL;
		fault_case("ecall trap", tb, p, {PPU_FAULT_KIND_KERNEL_TRAP, tp::ACC_EXEC, CODE + 8, 0x77});
	}
	{
		Tb tb(92);
		Prog p;
		p << ADDI(A0, ZERO, 0x77) << EBREAK;
		fault_case("ebreak", tb, p, {PPU_FAULT_KIND_KERNEL_TRAP, tp::ACC_EXEC, CODE + 4, 0});
	}
}
END_TEST

// The other threads of a faulting CTA stop issuing; the CTA stays until the kill.
START_TEST(fault_freezes_cta)
{
	Tb tb(93);
	Prog p;
	// thread 0 loops 200 times, then traps; the others count forever in their word
	p << SLLI(S0, A1, 2) << ADD(S0, S0, A0) << ADDI(S1, ZERO, 200);
	p << BNE(A1, ZERO, 24);
	p << ADDI(S1, S1, -1) << BNE(S1, ZERO, -4) << ADDI(A0, ZERO, 9)
	  << ADDI(A7, ZERO, int32_t(PPU_ECALL_OP_TRAP)) << ECALL;
	p << LW(T0, S0, 0) << ADDI(T0, T0, 1) << SW(T0, S0, 0) << JAL(ZERO, -12);
	tb.load_prog(p);
	for (int i = 0; i < 8; i++)
		tb.poke32(DATA + 4 * i, 0);
	Launch l = simple_launch(6);
	tb.dispatch(l);
	TB_CTX("freeze");
	// the fault is held until taken
	tb.hold_faults = true;
	tb.run_until([&] { tb.dut.eval(); return bool(tb.dut->flt_valid); }, 100000, "flt_valid");
	tb.run(300);
	TB_TRUE(tb.dut->flt_valid);
	TB_EQ(tb.faults.size(), 0);
	tb.hold_faults = false;
	tb.run_until([&] { return !tb.faults.empty(); }, 100000, "the trap");
	TB_EQ(tb.faults[0].kind, PPU_FAULT_KIND_KERNEL_TRAP);
	TB_EQ(tb.faults[0].data, 9);
	tb.run(200);
	uint32_t snap[6];
	for (int i = 1; i < 6; i++) {
		snap[i] = tb.rd32(DATA + 4 * i);
		TB_TRUE(snap[i] > 0);
	}
	uint64_t r0 = tb.retired;
	tb.run(3000);
	TB_EQ(tb.retired, r0);
	for (int i = 1; i < 6; i++)
		TB_EQ(tb.rd32(DATA + 4 * i), snap[i]);
	TB_EQ(tb.events.size(), 0);
	TB_EQ(tb.free_ctx(), CTX - 6);
	// a kill that matches nothing is ignored
	tb.kill_q.emplace_back(0, 5);
	tb.kill_q.emplace_back(3, 0);
	tb.run(100);
	TB_EQ(tb.events.size(), 0);
	tb.kill_q.emplace_back(0, 0);
	tb.run_to_events(1);
	TB_EQ(tb.events[0].kind, EV_KILLED);
	TB_EQ(tb.free_ctx(), CTX);
	TB_EQ(tb.faults.size(), 1);
}
END_TEST

// Kill of running CTAs with loads, stores, divisions and AMOs in flight.
START_TEST(kill_running)
{
	Tb tb(94);
	tb.rd_lat = 30;
	tb.wr_lat = 30;
	tb.sem_lat = 25;
	Prog p;
	p << SLLI(S0, A1, 6) << ADD(S0, S0, A0) << ADDI(S1, ZERO, 1);
	uint32_t top = p.here();
	p << LW(T0, S0, 0) << SW(T0, S0, 4) << SW(S1, S0, 8) << MULDIV(5, T1, T0, S1)
	  << AMO(F5_ADD, T2, A0, S1) << ADDI(S1, S1, 1);
	p << JAL(ZERO, -4 * int32_t(p.here() - top));
	tb.load_prog(p);
	Launch a = simple_launch(2, 2);
	Launch b = healthy_launch(tb);
	tb.dispatch(a);
	tb.dispatch(b);
	TB_CTX("kill");
	tb.run_until([&] { return tb.count_events(EV_EXITED) == 2; }, 100000, "the healthy task");
	tb.kill_q.emplace_back(0, 1);
	tb.run_until([&] { return tb.events.size() == 3; }, 10000, "KILLED");
	TB_EQ(tb.events[2].kind, EV_KILLED);
	TB_EQ(tb.events[2].cta_id, 1);
	TB_EQ(tb.free_ctx(), CTX - 2);
	uint64_t r0 = tb.retired;
	tb.run(300);
	TB_TRUE(tb.retired > r0);               // CTA 0 still runs
	tb.kill_q.emplace_back(0, 0);
	tb.run_until([&] { return tb.events.size() == 4; }, 10000, "KILLED");
	TB_EQ(tb.free_ctx(), CTX);
	TB_EQ(tb.faults.size(), 0);
	tb.sync_to_iss(DATA, 0x1000);
	iss_check(tb, b);
	// the contexts start fresh threads
	Prog q;
	q << ADD(S2, SP, TP) << ADD(S3, A0, A1) << ADD(S4, S0, S1);
	q.exit();
	tb.load_prog(q, CODE + 0x4000);
	Launch c = simple_launch(8, 2);
	c.tslot = 2;
	c.entry = CODE + 0x4000;
	tb.dispatch(c);
	tb.run_to_events(6);
	for (uint32_t i = 0; i < 8; i++) {
		const Thread &t = tb.exits[TKey{2, 1, i}];
		TB_EQ(t.x[S4], 0);
		TB_EQ(t.x[S3], DATA + i);
		TB_EQ(t.x[S2], 2 * (STACKS + (8 + i) * 512) + 512);
	}
}
END_TEST

} // namespace

// ---------------------------------------------------------------------------
// Barriers, several CTAs and tasks, dispatch, I-cache, micro-TLB, issue rate.
// ---------------------------------------------------------------------------
namespace {

// Two barriers per round: between them every thread must see the whole
// round's increments; odd threads leave part-way (exits shrink the count).
START_TEST(barrier_rounds_with_exits)
{
	Prog p;
	// s0 = own result words, s1 = the CTA's counter, s2 = rounds done,
	// s3 = mismatches, s4 = expected count, s6 = ntid
	p << CSRR(T0, PPU_CSR_CTAID) << SLLI(T1, T0, 2) << ADD(S1, A0, T1)
	  << SLLI(T0, T0, 3) << ADD(T0, T0, A1) << SLLI(T0, T0, 3) << ADD(S0, A0, T0)
	  << ADDI(S0, S0, 0x100) << ADDI(S2, ZERO, 0) << ADDI(S3, ZERO, 0) << ADDI(S4, ZERO, 0)
	  << ADDI(S5, ZERO, 1) << CSRR(S6, PPU_CSR_NTID);
	uint32_t top = p.here();
	// odd threads exit before round 5
	p << ANDI_(T0, A1, 1) << BEQ(T0, ZERO, 20) << ADDI(T1, ZERO, 5) << BNE(S2, T1, 12);
	p.exit();   // 2 words: the branches above skip them when not leaving
	p << AMO(F5_ADD, ZERO, S1, S5);
	p.barrier();
	// expected += threads alive this round: ntid, then the even ones
	p << ADDI(T1, ZERO, 5) << BLT_(S2, T1, 16) << ADDI(T2, S6, 1) << SRLI(T2, T2, 1)
	  << JAL(ZERO, 8) << ADDI(T2, S6, 0)
	  << ADD(S4, S4, T2) << LW(T0, S1, 0) << BEQ(T0, S4, 8) << ADDI(S3, S3, 1);
	p.barrier();
	p << ADDI(S2, S2, 1) << ADDI(T0, ZERO, 12);
	p << BNE(S2, T0, -4 * int32_t(p.here() - top));
	p << SW(S3, S0, 0) << SW(S2, S0, 4);
	p.exit();
	for (uint32_t t = 1; t <= CTX; t++) {
		Tb tb(100 + t);
		tb.load_prog(p);
		for (int i = 0; i < 4; i++)
			tb.poke32(DATA + 4 * i, 0);
		for (int i = 0; i < 2 * 24; i++)
			tb.poke32(DATA + 0x100 + 4 * i, 0xbbbbbbbb);
		Launch l = simple_launch(t, 3);
		TB_CTX("barrier rounds, %u threads", t);
		run_compare(tb, l);
		for (uint32_t c = 0; c < 3; c++) {
			TB_EQ(tb.rd32(DATA + 4 * c), 5 * t + 7 * ((t + 1) / 2));
			for (uint32_t i = 0; i < t; i++) {
				TB_CTX("barrier rounds, %u threads: cta %u thread %u", t, c, i);
				uint32_t o = DATA + 0x100 + 8 * (8 * c + i);
				TB_EQ(tb.rd32(o), (i & 1) ? 0xbbbbbbbb : 0);      // mismatches seen
				TB_EQ(tb.rd32(o + 4), (i & 1) ? 0xbbbbbbbb : 12); // rounds
			}
		}
	}
}
END_TEST

// A thread waits at a barrier that the others never reach: their exits release it.
START_TEST(barrier_released_by_exits)
{
	Tb tb(102);
	Prog p;
	p << BNE(A1, ZERO, 24);
	p.li(A0, 0x55);
	p.barrier();
	p << SW(A0, SP, -4) << LW(S2, SP, -4);
	p.exit();
	// the others: spin a while, then exit
	p << ADDI(T0, ZERO, 100) << ADDI(T0, T0, -1) << BNE(T0, ZERO, -4);
	p.exit();
	Launch l = simple_launch(5, 2);
	TB_CTX("barrier and exits");
	run_prog(tb, p, l);
	TB_EQ((tb.exits[TKey{0, 1, 0}].x[S2]), 0);
}
END_TEST

// Two tasks in different address spaces at the same code VA, CTAs interleaved.
START_TEST(several_tasks_resident)
{
	Tb tb(103);
	tb.space.map(ROOT_B, CODE, RO_PAGE - CODE, true, true, true);
	tb.space.map(ROOT_B, DATA, DATA_BYTES, true, true, false);
	tb.space.map(ROOT_B, STACKS, STACK_BYTES, true, true, false);
	Prog pa, pb;
	pa << SLLI(T0, A1, 2) << ADD(T0, T0, A0) << CSRR(T1, PPU_CSR_CTAID) << SLLI(T1, T1, 5)
	   << ADD(T0, T0, T1) << ADDI(S2, ZERO, 30);
	uint32_t top = pa.here();
	pa << MUL(S3, S2, A1) << ADD(S4, S4, S3) << ADDI(S2, S2, -1);
	pa << BNE(S2, ZERO, -4 * int32_t(pa.here() - top));
	pa << SW(S4, T0, 0) << CSRR(S5, PPU_CSR_TASKID);
	pa.exit();
	pb << SLLI(T0, A1, 2) << ADD(T0, T0, A0) << CSRR(T1, PPU_CSR_CTAID) << SLLI(T1, T1, 5)
	   << ADD(T0, T0, T1) << ADDI(S2, ZERO, 20);
	top = pb.here();
	pb << XOR_(S4, S4, S2) << SLLI(S4, S4, 1) << ADDI(S2, S2, -1);
	pb << BNE(S2, ZERO, -4 * int32_t(pb.here() - top));
	pb << MULDIV(4, S4, S4, A1) << SW(S4, T0, 0) << CSRR(S5, PPU_CSR_TASKID) << CSRR(S6, PPU_CSR_PRIO);
	pb.exit();
	tb.load_prog(pa, CODE, ROOT_A);
	tb.load_prog(pb, CODE, ROOT_B);
	Launch a = simple_launch(3, 4);
	Launch b = simple_launch(2, 3);
	b.tslot = 5;
	b.root = ROOT_B;
	b.taskid = 33;
	b.prio = 2;
	for (uint32_t c = 0; c < 4; c++) {
		tb.dispatch(a, c, 1);
		if (c < 3)
			tb.dispatch(b, c, 1);
	}
	TB_CTX("two tasks");
	// both resident at once
	bool both = false;
	tb.run_until([&] {
		unsigned na = 0, nb = 0;
		for (unsigned k = 0; k < CTX; k++) {
			unsigned st = tb.ctx_state(k);
			if (st != S_FREE && st != S_EXIT)
				(tb.dut->dbg_tslot == 5 ? nb : na)++;
		}
		both = both || (na >= 4 && nb >= 2);
		return tb.events.size() == 7;
	}, 200000, "both tasks");
	TB_TRUE(both);
	iss_check(tb, a, false);
	iss_check(tb, b, false);
	tb.compare_memory(ROOT_A);
	tb.compare_memory(ROOT_B);
	TB_EQ((tb.exits[TKey{5, 2, 1}].x[S5]), 33);
	TB_EQ((tb.exits[TKey{0, 3, 2}].x[S5]), 9);
}
END_TEST

// The dispatch queue never empties: CTAs of 1..3 threads, events held a while.
START_TEST(back_to_back_dispatch)
{
	Tb tb(104);
	Prog p;
	p << CSRR(T0, PPU_CSR_CTAID) << SLLI(T0, T0, 4) << ADD(T0, T0, A0) << SLLI(T1, A1, 2)
	  << ADD(T0, T0, T1) << MUL(S2, A1, A1) << SW(S2, T0, 0);
	p.exit();
	tb.load_prog(p);
	std::vector<Launch> ls(3);
	for (unsigned k = 0; k < 3; k++) {
		ls[k] = simple_launch(k + 1, 20);
		ls[k].tslot = k;
		ls[k].param = DATA + 0x1000 * k;
		ls[k].stack_va = STACKS + 0x10000 * k;
	}
	for (uint32_t c = 0; c < 20; c++)
		for (unsigned k = 0; k < 3; k++)
			tb.dispatch(ls[k], c, 1);
	TB_CTX("back to back");
	// events not taken for a while: the CU fills up and waits
	tb.hold_events = true;
	tb.run(400);
	TB_EQ(tb.events.size(), 0);
	TB_TRUE(tb.free_ctx() < 3);
	TB_TRUE(tb.dut->ev_valid);
	tb.hold_events = false;
	tb.run_to_events(60, 200000);
	for (unsigned k = 0; k < 3; k++)
		iss_check(tb, ls[k], k == 2);
	// a CTA needs all its contexts at once: 6 + 4 > 8 waits for the first
	Launch big = simple_launch(6), mid = simple_launch(4);
	big.tslot = 7;
	mid.tslot = 8;
	Prog q;
	q << ADDI(T0, ZERO, 300) << ADDI(T0, T0, -1) << BNE(T0, ZERO, -4);
	q.exit();
	tb.load_prog(q, CODE + 0x3000);
	big.entry = mid.entry = CODE + 0x3000;
	tb.dispatch(big);
	tb.dispatch(mid);
	tb.run(50);
	TB_EQ(tb.free_ctx(), 2);
	TB_EQ(tb.disp_q.size(), 1);
	tb.run_to_events(62);
	TB_EQ(tb.events[60].tslot, 7);
}
END_TEST

// auipc t0 + jalr ra: a call from the end of @p (loaded at @base) to @target.
void call(Prog &p, uint32_t base, uint32_t target)
{
	uint32_t off = target - (base + 4 * p.here()), hi = (off + 0x800u) & 0xfffff000u;
	p << AUIPC(T0, hi) << JALR(RA, T0, int32_t(off - hi));
}

// Two routines one I-cache size apart (the same lines), called in turn.
START_TEST(icache_conflicts)
{
	Tb tb(105);
	const uint32_t F1 = CODE + 0x1000, F2 = CODE + 0x1000 + 1024;
	Prog main_, f1, f2;
	main_ << ADDI(S2, ZERO, 25);
	uint32_t top = main_.here();
	call(main_, CODE, F1);
	call(main_, CODE, F2);
	main_ << ADDI(S2, S2, -1);
	main_ << BNE(S2, ZERO, -4 * int32_t(main_.here() - top));
	main_.exit();
	for (int i = 0; i < 12; i++)
		f1 << ADDI(S3, S3, i + 1) << SLLI(S4, S3, 3);
	f1 << JALR(ZERO, RA, 0);
	for (int i = 0; i < 12; i++)
		f2 << XOR_(S5, S5, S3) << ADD(S5, S5, A1);
	f2 << JALR(ZERO, RA, 0);
	tb.load_prog(main_);
	tb.load_prog(f1, F1);
	tb.load_prog(f2, F2);
	TB_CTX("icache conflicts");
	run_prog(tb, main_, simple_launch(8));
	TB_TRUE(tb.misses >= 50);
}
END_TEST

// New code at the same VA: stale without an invalidate, new after one, and fence.i.
START_TEST(icache_invalidate)
{
	Tb tb(106);
	auto prog = [](uint32_t v) {
		Prog p;
		p << ADDI(T0, ZERO, int32_t(v)) << SW(T0, A0, 0);
		p.exit();
		return p;
	};
	Launch l = simple_launch(1);
	TB_CTX("invalidate");
	tb.load_prog(prog(1));
	tb.dispatch(l);
	tb.run_to_events(1);
	TB_EQ(tb.rd32(DATA), 1);
	tb.load_prog(prog(2));   // in memory, not in the cache
	tb.exits.clear();
	tb.dispatch(l);
	tb.run_to_events(2);
	TB_EQ(tb.rd32(DATA), 1);
	tb.icache_inv = true;
	tb.exits.clear();
	tb.dispatch(l);
	tb.run_to_events(3);
	TB_EQ(tb.rd32(DATA), 2);
	// fence.i: the thread rewrites an instruction it already ran
	Tb t2(107);
	Prog p;
	const uint32_t PATCH = CODE + 0x100;
	p << ADDI(S2, ZERO, 2);
	uint32_t top = p.here();
	call(p, CODE, PATCH);
	p << ADD(S3, S3, T1);
	p.li(T2, ADDI(T1, ZERO, 42));
	p.li(T3, PATCH);
	p << SW(T2, T3, 0) << FENCE_I << ADDI(S2, S2, -1);
	p << BNE(S2, ZERO, -4 * int32_t(p.here() - top));
	p.exit();
	Prog f;
	f << ADDI(T1, ZERO, 1) << JALR(ZERO, RA, 0);
	t2.load_prog(p);
	t2.load_prog(f, PATCH);
	TB_CTX("fence.i");
	run_prog(t2, p, simple_launch(1));
	TB_EQ((t2.exits[TKey{0, 0, 0}].x[S3]), 43);
}
END_TEST

// A page moved: the micro-TLB keeps the old translation until tlb_inv.
START_TEST(utlb_invalidate)
{
	Tb tb(108);
	const uint32_t PG = DATA + 0x3000;
	Prog p;
	p.li(T0, PG);
	p << LW(T1, T0, 0) << SW(T1, A0, 0);
	p.exit();
	tb.load_prog(p);
	tb.poke32(PG, 0xaaaa);
	Launch l = simple_launch(1);
	TB_CTX("utlb");
	tb.dispatch(l);
	tb.run_to_events(1);
	TB_EQ(tb.rd32(DATA), 0xaaaa);
	// move the page: new physical page with other contents
	Page &pg = tb.space.pages[{ROOT_A, PG >> 12}];
	pg.ppn ^= 0x100;
	tb.poke32(PG, 0xbbbb);
	tb.exits.clear();
	tb.dispatch(l);
	tb.run_to_events(2);
	TB_EQ(tb.rd32(DATA), 0xaaaa);
	tb.tlb_inv = true;
	tb.exits.clear();
	tb.dispatch(l);
	tb.run_to_events(3);
	TB_EQ(tb.rd32(DATA), 0xbbbb);
	// an unmapped page after the invalidate faults
	tb.space.unmap(ROOT_A, PG);
	tb.tlb_inv = true;
	tb.exits.clear();
	tb.dispatch(l);
	tb.run_until([&] { return !tb.faults.empty(); }, 10000, "fault");
	TB_EQ(tb.faults[0].kind, PPU_FAULT_KIND_PTE_NOT_PRESENT);
	TB_EQ(tb.faults[0].addr, PG);
}
END_TEST

// Every context busy on ALU code: one instruction per cycle.
START_TEST(issue_rate)
{
	Tb tb(109);
	Prog p;
	p << ADDI(S2, ZERO, 200);
	uint32_t top = p.here();
	for (int i = 0; i < 30; i++)
		p << (i % 3 == 0 ? ADD(S3, S3, A1) : i % 3 == 1 ? XOR_(S4, S4, S3) : MUL(S5, S4, S3));
	p << ADDI(S2, S2, -1);
	p << BNE(S2, ZERO, -4 * int32_t(p.here() - top));
	p.exit();
	tb.load_prog(p);
	Launch l = simple_launch(CTX);
	tb.dispatch(l);
	TB_CTX("issue rate");
	tb.run_until([&] { return tb.retired >= 2000; }, 100000, "warm-up");
	uint64_t c0 = tb.dut.cyc, r0 = tb.retired;
	tb.run(20000);
	double ipc = double(tb.retired - r0) / double(tb.dut.cyc - c0);
	printf("tb_cu: issue rate with %u contexts on ALU code: %.3f instructions/cycle\n", CTX, ipc);
	TB_TRUE(ipc >= 0.9);
	tb.run_to_events(1);
	iss_check(tb, l);
}
END_TEST

// Cycles per instruction of one lone context, per class (second pass of a
// loop: I-cache and micro-TLB warm), with latency 10 everywhere.
START_TEST(single_context_timing)
{
	Tb tb(111);
	tb.ts_const = false;
	tb.ready_pct = 100;
	tb.rd_lat = tb.wr_lat = tb.sem_lat = 10;
	struct Cls {
		const char *name;
		uint32_t w;
		double lo, hi;
	} cls[] = {
		{"alu", ADDI(T2, T2, 1), 4, 4},
		{"mul", MUL(T2, T2, T2), 4, 4},
		{"load", LW(T2, S0, 0), 20, 20},         // L + 10
		{"store", SW(T2, S0, 0), 4, 4},          // posted
		{"amo", AMO(F5_ADD, T2, S0, T2), 20, 20}, // L + 10
		{"div", MULDIV(4, T2, T2, S0), 41, 41},  // 33 + 8
		{"csr", CSRR(T2, PPU_CSR_TID), 4, 4},
		{"ecall", 0, 4, 6},
	};
	const unsigned N = 20;
	Prog p;
	p << ADDI(S0, A0, 0x40) << ADDI(S3, A0, 0x100);
	for (const Cls &c : cls) {
		p << ADDI(S2, ZERO, 2);
		uint32_t top = p.here();
		p << CSRR(T0, PPU_CSR_CYCLE);
		for (unsigned i = 0; i < N; i++) {
			if (c.w)
				p << c.w;
			else
				p << ECALL;   // a7 = 0x10: ENOSYS
		}
		p << CSRR(T1, PPU_CSR_CYCLE) << ADDI(S2, S2, -1);
		p << BNE(S2, ZERO, -4 * int32_t(p.here() - top));
		p << SUB(T1, T1, T0) << SW(T1, S3, 0) << ADDI(S3, S3, 4) << ADDI(A7, ZERO, 0x10);
	}
	p.exit();
	tb.load_prog(p);
	Launch l = simple_launch(1);
	TB_CTX("timing");
	tb.dispatch(l);
	tb.run_to_events(1);
	// between the two csrr: the N instructions and the second csrr (4 cycles)
	const unsigned K = sizeof(cls) / sizeof(cls[0]);
	double cpi[K];
	printf("tb_cu: one context, latency 10, cycles per instruction:");
	for (unsigned k = 0; k < K; k++) {
		cpi[k] = (double(tb.rd32(DATA + 0x100 + 4 * k)) - 4) / N;
		printf(" %s %.2f", cls[k].name, cpi[k]);
	}
	printf("\n");
	fflush(stdout);
	for (unsigned k = 0; k < K; k++) {
		TB_CTX("timing %s: %.2f", cls[k].name, cpi[k]);
		TB_TRUE(cpi[k] >= cls[k].lo - 0.01 && cpi[k] <= cls[k].hi + 0.01);
	}
}
END_TEST

// A kernel with slow, stingy memory: ready 20 %, latency 60.
START_TEST(slow_memory_kernel)
{
	enum { N = 600, BINS = 7 };
	Tb tb(110);
	tb.ready_pct = 20;
	tb.rd_lat = tb.wr_lat = 60;
	tb.sem_lat = 45;
	tb.x_lat = 30;
	histogram_params p = {N, BINS, A_PARAMS + 4 * (BINS + 1), A_PARAMS};
	uint32_t s = 9;
	for (uint32_t i = 0; i < N; i++)
		tb.poke32(p.in + 4 * i, lcg(&s) % 100);
	for (uint32_t i = 0; i <= BINS; i++)
		tb.poke32(p.bins + 4 * i, 0);
	Launch l = kernel_launch(tb, "histogram", 3, 8, &p, sizeof(p));
	TB_CTX("slow memory");
	run_compare(tb, l);
}
END_TEST

} // namespace

int main()
{
	return tb_run_suite(
		"cu",
		{encoders_decode, thread_start_state, alu_and_branches, m_extension,
		 loads_stores_every_size, atomics_every_op, lr_sc_counter, sc_needs_the_threads_own_lr,
		 wait_children_sleeps_saves_and_resumes, csrs_every_csr,
		 csr_instret_cycle, ecall_ops, kernel_saxpy, kernel_reduce_atomic, kernel_histogram,
		 kernel_checksum, kernel_barrier_phases, kernel_barrier_phases_waves, kernel_waves_preempted, kernel_checksum_waves, kernel_divergent, kernel_ids, kernel_trap,
		 random_programs_short, random_programs_long, random_programs_preempted, random_two_tasks, fault_illegal_instruction,
		 fault_misaligned, fault_translation, fault_bus_error, fault_trap, fault_freezes_cta,
		 kill_running, barrier_rounds_with_exits, barrier_released_by_exits,
		 several_tasks_resident, back_to_back_dispatch, icache_conflicts, icache_invalidate,
		 utlb_invalidate, issue_rate, single_context_timing, slow_memory_kernel},
		300);
}
