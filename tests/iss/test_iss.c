// SPDX-License-Identifier: MIT
/*
 * The instruction-set reference model (tests/iss/ppu_iss.c): hand-encoded
 * programs per instruction class with hand-worked results, the PPU's CSRs,
 * ecalls, faults, barrier and scheduling rules, and the sample kernels of
 * runtime/device/samples (built by clang) against plain C on the host.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module_elf.h"
#include "ppu/ppu_hw.h"
#include "ppu_iss.h"
#include "samples.h"

#ifndef PPU_DEVICE_DIR
#define PPU_DEVICE_DIR "build/device"
#endif

/* ---- instruction encoders (checked against llvm-mc in encoders_match_assembler) ---- */

static uint32_t r_type(uint32_t f7, unsigned int rs2, unsigned int rs1, uint32_t f3,
		       unsigned int rd, uint32_t opc)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static uint32_t i_type(int32_t imm, unsigned int rs1, uint32_t f3, unsigned int rd, uint32_t opc)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static uint32_t s_type(int32_t imm, unsigned int rs2, unsigned int rs1, uint32_t f3)
{
	uint32_t u = (uint32_t)imm;

	return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1f) << 7 | 0x23;
}

static uint32_t b_type(int32_t imm, unsigned int rs2, unsigned int rs1, uint32_t f3)
{
	uint32_t u = (uint32_t)imm;

	return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | 0x63;
}

static uint32_t j_type(int32_t imm, unsigned int rd)
{
	uint32_t u = (uint32_t)imm;

	return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 |
	       (u >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

#define LUI(rd, v) (((uint32_t)(v) & 0xfffff000u) | (rd) << 7 | 0x37)
#define AUIPC(rd, v) (((uint32_t)(v) & 0xfffff000u) | (rd) << 7 | 0x17)
#define JAL(rd, off) j_type(off, rd)
#define JALR(rd, rs1, off) i_type(off, rs1, 0, rd, 0x67)
#define BR(f3, a, b, off) b_type(off, b, a, f3)
#define BEQ(a, b, off) BR(0, a, b, off)
#define BNE(a, b, off) BR(1, a, b, off)
#define LOAD(f3, rd, rs1, off) i_type(off, rs1, f3, rd, 0x03)
#define LB(rd, rs1, off) LOAD(0, rd, rs1, off)
#define LH(rd, rs1, off) LOAD(1, rd, rs1, off)
#define LW(rd, rs1, off) LOAD(2, rd, rs1, off)
#define LBU(rd, rs1, off) LOAD(4, rd, rs1, off)
#define LHU(rd, rs1, off) LOAD(5, rd, rs1, off)
#define SB(rs2, rs1, off) s_type(off, rs2, rs1, 0)
#define SH(rs2, rs1, off) s_type(off, rs2, rs1, 1)
#define SW(rs2, rs1, off) s_type(off, rs2, rs1, 2)
#define OPI(f3, rd, rs1, imm) i_type(imm, rs1, f3, rd, 0x13)
#define ADDI(rd, rs1, imm) OPI(0, rd, rs1, imm)
#define SLTI(rd, rs1, imm) OPI(2, rd, rs1, imm)
#define SLTIU(rd, rs1, imm) OPI(3, rd, rs1, imm)
#define XORI(rd, rs1, imm) OPI(4, rd, rs1, imm)
#define ORI(rd, rs1, imm) OPI(6, rd, rs1, imm)
#define ANDI(rd, rs1, imm) OPI(7, rd, rs1, imm)
#define SLLI(rd, rs1, sh) OPI(1, rd, rs1, sh)
#define SRLI(rd, rs1, sh) OPI(5, rd, rs1, sh)
#define SRAI(rd, rs1, sh) OPI(5, rd, rs1, 0x400 | (sh))
#define OP(f7, f3, rd, a, b) r_type(f7, b, a, f3, rd, 0x33)
#define ADD(rd, a, b) OP(0, 0, rd, a, b)
#define SUB(rd, a, b) OP(0x20, 0, rd, a, b)
#define SLL(rd, a, b) OP(0, 1, rd, a, b)
#define SLT(rd, a, b) OP(0, 2, rd, a, b)
#define SLTU(rd, a, b) OP(0, 3, rd, a, b)
#define XOR(rd, a, b) OP(0, 4, rd, a, b)
#define SRL(rd, a, b) OP(0, 5, rd, a, b)
#define SRA(rd, a, b) OP(0x20, 5, rd, a, b)
#define OR(rd, a, b) OP(0, 6, rd, a, b)
#define AND(rd, a, b) OP(0, 7, rd, a, b)
#define MULDIV(f3, rd, a, b) OP(1, f3, rd, a, b)
#define AMO(f5, rd, rs1, rs2) r_type((f5) << 2, rs2, rs1, 2, rd, 0x2f)
#define LR(rd, rs1) AMO(0x02, rd, rs1, 0)
#define SC(rd, rs1, rs2) AMO(0x03, rd, rs1, rs2)
#define AMOADD(rd, rs1, rs2) AMO(0x00, rd, rs1, rs2)
#define CSRRS(rd, csr, rs1) i_type(csr, rs1, 2, rd, 0x73)
#define CSRR(rd, csr) CSRRS(rd, csr, 0)
#define ECALL 0x00000073u
#define EBREAK 0x00100073u
#define NOP ADDI(0, 0, 0)
/* Two words: any 32-bit constant. */
#define LI_HI(v) (((uint32_t)(v) + 0x800u) & 0xfffff000u)
#define LI(rd, v) LUI(rd, LI_HI(v)), ADDI(rd, rd, (int32_t)((uint32_t)(v) - LI_HI(v)))
/* Two words: ecall op. */
#define CALL_OP(op) ADDI(17, 0, op), ECALL
#define EXIT CALL_OP(PPU_ECALL_OP_EXIT)
#define BARRIER CALL_OP(PPU_ECALL_OP_BARRIER)

enum { ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5, A6, A7 };

/* ---- the test machine: 1 MiB of memory with a missing page and a read-only one ---- */

#define MEM_BASE 0x00100000u
#define MEM_SIZE 0x00100000u
#define CODE MEM_BASE
#define RO_PAGE (MEM_BASE + 0x3e000u)	/* writes: PERMISSION */
#define HOLE (MEM_BASE + 0x3f000u)	/* every access: PTE_NOT_PRESENT */
#define DATA (MEM_BASE + 0x40000u)
#define STACKS (MEM_BASE + 0x80000u)
#define STACK_BYTES 1024u
#define MAX_STEPS 50000000ull

static uint8_t *mem;
static struct ppu_iss_flat flat;
static unsigned int exits;

static int in_page(uint32_t va, uint32_t page) { return va >= page && va - page < 0x1000; }

static int t_read(void *user, uint32_t va, unsigned int size, unsigned int access, uint32_t *val)
{
	if (in_page(va, HOLE))
		return PPU_FAULT_KIND_PTE_NOT_PRESENT;
	return ppu_iss_flat_read(user, va, size, access, val);
}

static int t_write(void *user, uint32_t va, unsigned int size, unsigned int access, uint32_t val)
{
	if (in_page(va, HOLE))
		return PPU_FAULT_KIND_PTE_NOT_PRESENT;
	if (in_page(va, RO_PAGE))
		return PPU_FAULT_KIND_PERMISSION;
	return ppu_iss_flat_write(user, va, size, access, val);
}

static const struct ppu_iss_mem test_mem = { t_read, t_write, &flat };

static void setup(void)
{
	mem = calloc(1, MEM_SIZE);
	ck_assert_ptr_nonnull(mem);
	flat.buf = mem;
	flat.base = MEM_BASE;
	flat.size = MEM_SIZE;
	exits = 0;
}

static void teardown(void)
{
	free(mem);
}

static uint32_t rd32(uint32_t va)
{
	uint32_t v;

	ck_assert_int_eq(ppu_iss_flat_read(&flat, va, 4, PPU_FAULT_ACCESS_READ, &v), 0);
	return v;
}

static void wr32(uint32_t va, uint32_t v)
{
	ck_assert_int_eq(ppu_iss_flat_write(&flat, va, 4, PPU_FAULT_ACCESS_WRITE, v), 0);
}

static void load_code(const uint32_t *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		wr32(CODE + 4 * i, w[i]);
}

static void count_exit(void *user, const struct ppu_iss *m, unsigned int slot, unsigned int tid)
{
	exits++;
}

/* One CTA of @threads threads at CODE, param = DATA. */
static void launch_init(struct ppu_iss_launch *l, unsigned int threads)
{
	memset(l, 0, sizeof(*l));
	l->entry_pc = CODE;
	l->grid_x = l->grid_y = l->grid_z = 1;
	l->cta_x = threads;
	l->cta_y = l->cta_z = 1;
	l->param = DATA;
	l->prio = 5;
	l->depth = 1;
	l->maxdepth = 4;
	l->cu_contexts = 8;
	l->num_cu = 4;
	l->stack_va = STACKS;
	l->stack_bytes = STACK_BYTES;
	l->slots = 1;
	l->thread_exit = count_exit;
}

static int run_code(struct ppu_iss *m, const uint32_t *code, size_t n, unsigned int threads)
{
	struct ppu_iss_launch l;

	load_code(code, n);
	launch_init(&l, threads);
	ck_assert_int_eq(ppu_iss_init(m, &l, &test_mem), 0);
	return ppu_iss_run(m, MAX_STEPS);
}

#define RUN(m, code, threads) run_code(m, code, sizeof(code) / sizeof(code[0]), threads)

/* Runs @code in one thread and expects it to exit normally. */
#define RUN_OK(m, code)                                                            \
	do {                                                                       \
		int st_ = RUN(m, code, 1);                                         \
		ck_assert_msg(st_ == PPU_ISS_DONE, "status %d, fault kind %u at %#x", st_, \
			      (m)->fault.kind, (m)->fault.pc);                     \
	} while (0)

static void expect_fault(const struct ppu_iss *m, unsigned int kind, unsigned int access,
			 uint32_t addr, uint32_t data, uint32_t pc)
{
	const struct ppu_iss_fault *f = ppu_iss_get_fault(m);

	ck_assert_int_eq(m->status, PPU_ISS_FAULT);
	ck_assert_uint_eq(f->kind, kind);
	ck_assert_uint_eq(f->access, access);
	ck_assert_uint_eq(f->addr, addr);
	ck_assert_uint_eq(f->data, data);
	ck_assert_uint_eq(f->pc, pc);
}

/* ---- encoding and decoding ---- */

START_TEST(encoders_match_assembler)
{
	/* Words from llvm-mc --triple=riscv32 -mattr=+m,+a --show-encoding. */
	static const struct {
		uint32_t word;
		const char *op;
	} ref[] = {
		{ 0x00c58533, "add" },     { 0x407302b3, "sub" },   { 0x413954b3, "sra" },
		{ 0x41f5d513, "srai" },    { 0x00759513, "slli" },  { 0x80058513, "addi" },
		{ 0xfff5b513, "sltiu" },   { 0xfffff537, "lui" },   { 0x12345517, "auipc" },
		{ 0x7fc000ef, "jal" },     { 0xff9ff06f, "jal" },   { 0xffc780e7, "jalr" },
		{ 0x80b50063, "beq" },     { 0x7ed67fe3, "bgeu" },  { 0xfff10503, "lb" },
		{ 0x7ff15503, "lhu" },     { 0x80a12023, "sw" },    { 0x01fd9323, "sh" },
		{ 0x02c5a533, "mulhsu" },  { 0x027372b3, "remu" },  { 0x08b6252f, "amoswap.w" },
		{ 0xe4b6252f, "amomaxu.w" }, { 0x1005a52f, "lr.w" }, { 0x1ab6252f, "sc.w" },
		{ 0x80b6252f, "amomin.w" }, { 0xcc002573, "csrr" }, { 0xccf07573, "csrr" },
		{ 0x0330000f, "fence" },   { 0x0000100f, "fence.i" }, { 0x00000073, "ecall" },
		{ 0x00100073, "ebreak" },
	};
	const uint32_t mine[] = {
		ADD(A0, A1, A2), SUB(T0, T1, T2), SRA(9, 18, 19), SRAI(A0, A1, 31),
		SLLI(A0, A1, 7), ADDI(A0, A1, -2048), SLTIU(A0, A1, -1), LUI(A0, 0xfffff000u),
		AUIPC(A0, 0x12345000u), JAL(RA, 2044), JAL(ZERO, -8), JALR(RA, A5, -4),
		BEQ(A0, A1, -4096), BR(7, A2, A3, 4094), LB(A0, SP, -1), LHU(A0, SP, 2047),
		SW(A0, SP, -2048), SH(31, 27, 6), MULDIV(2, A0, A1, A2), MULDIV(7, T0, T1, T2),
		AMO(0x01, A0, A2, A1), AMO(0x1c, A0, A2, A1) | 1u << 26, LR(A0, A1),
		SC(A0, A2, A1) | 1u << 25, AMO(0x10, A0, A2, A1), CSRR(A0, PPU_CSR_TID),
		i_type(PPU_CSR_HWID, 0, 7, A0, 0x73), 0x0330000f, 0x0000100f, ECALL, EBREAK,
	};
	struct ppu_iss_insn d;
	unsigned int i;

	ck_assert_uint_eq(sizeof(mine) / sizeof(mine[0]), sizeof(ref) / sizeof(ref[0]));
	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++) {
		ck_assert_msg(mine[i] == ref[i].word, "%u: %#x != %#x", i, mine[i], ref[i].word);
		ck_assert_int_eq(ppu_iss_decode(ref[i].word, &d), 0);
		ck_assert_str_eq(ppu_iss_op_name(d.op), ref[i].op);
	}
}
END_TEST

START_TEST(decoder_fields)
{
	struct ppu_iss_insn d;

	ck_assert_int_eq(ppu_iss_decode(0x7ed67fe3, &d), 0);	/* bgeu a2, a3, 4094 */
	ck_assert_uint_eq(d.op, PPU_ISS_BGEU);
	ck_assert_uint_eq(d.rs1, A2);
	ck_assert_uint_eq(d.rs2, A3);
	ck_assert_uint_eq(d.rd, 0);
	ck_assert_int_eq(d.imm, 4094);
	ck_assert_int_eq(ppu_iss_decode(0xff9ff06f, &d), 0);	/* jal zero, -8 */
	ck_assert_int_eq(d.imm, -8);
	ck_assert_int_eq(ppu_iss_decode(0x80a12023, &d), 0);	/* sw a0, -2048(sp) */
	ck_assert_int_eq(d.imm, -2048);
	ck_assert_uint_eq(d.rs1, SP);
	ck_assert_uint_eq(d.rs2, A0);
	ck_assert_int_eq(ppu_iss_decode(0xfffff537, &d), 0);	/* lui a0, 0xfffff */
	ck_assert_uint_eq((uint32_t)d.imm, 0xfffff000u);
	ck_assert_int_eq(ppu_iss_decode(0x41f5d513, &d), 0);	/* srai a0, a1, 31 */
	ck_assert_int_eq(d.imm, 31);
	ck_assert_int_eq(ppu_iss_decode(0xccf07573, &d), 0);	/* csrrci a0, 0xccf, 0 */
	ck_assert_uint_eq(d.csr, PPU_CSR_HWID);
	ck_assert_uint_eq(d.rd, A0);
	ck_assert_int_eq(ppu_iss_decode(0x1005a52f, &d), 0);	/* lr.w a0, (a1) */
	ck_assert_uint_eq(d.rs1, A1);
	ck_assert_uint_eq(d.rs2, 0);
	/* An illegal word leaves a zeroed decode. */
	ck_assert_int_eq(ppu_iss_decode(0xffffffff, &d), -1);
	ck_assert_uint_eq(d.op, PPU_ISS_ILLEGAL);
	ck_assert_uint_eq(d.rd | d.rs1 | d.rs2 | d.csr, 0);
	ck_assert_int_eq(d.imm, 0);
}
END_TEST

/* Every 32-bit word with a compressed-format low half is illegal; a sweep of those bits. */
START_TEST(decoder_rejects_every_16_bit_encoding)
{
	struct ppu_iss_insn d;
	uint32_t hi, lo, legal = 0, first = 0;

	/* Counted, not asserted per word: each passing assertion costs Check a message. */
	for (hi = 0; hi < 0x10000; hi += 0x101) {
		for (lo = 0; lo < 0x10000; lo++) {
			if ((lo & 3) != 3 && ppu_iss_decode(hi << 16 | lo, &d) == 0 && !legal++)
				first = hi << 16 | lo;
		}
	}
	ck_assert_msg(legal == 0, "%u legal, the first %#x", legal, first);
}
END_TEST

/* ---- thread start state ---- */

START_TEST(thread_start_state)
{
	struct ppu_iss m;
	const uint32_t code[] = { ECALL };	/* a7 is 0 at start: EXIT */
	unsigned int tid, r;

	ck_assert_int_eq(RUN(&m, code, 3), PPU_ISS_DONE);
	for (tid = 0; tid < 3; tid++) {
		for (r = 0; r < 32; r++) {
			uint32_t want = 0;

			if (r == SP)
				want = STACKS + (tid + 1) * STACK_BYTES;
			else if (r == TP)
				want = STACKS + tid * STACK_BYTES;
			else if (r == A0)
				want = DATA;
			else if (r == A1)
				want = tid;
			ck_assert_msg(ppu_iss_reg(&m, 0, tid, r) == want, "thread %u x%u = %#x",
				      tid, r, ppu_iss_reg(&m, 0, tid, r));
		}
		/* An exited thread's PC stays at its EXIT. */
		ck_assert_uint_eq(ppu_iss_pc(&m, 0, tid), CODE);
		ck_assert_uint_eq(ppu_iss_thread(&m, 0, tid)->state, PPU_ISS_T_EXIT);
	}
	ck_assert_uint_eq(exits, 3);
	ck_assert_uint_eq(m.steps, 3);
	ppu_iss_fini(&m);
}
END_TEST

/* ---- integer ALU ---- */

struct alu_case {
	uint32_t insn;		/* rd = T2, rs1 = T0, rs2 = T1 */
	uint32_t a, b, want;
};

static const char *insn_name(uint32_t word)
{
	struct ppu_iss_insn d;

	ppu_iss_decode(word, &d);
	return ppu_iss_op_name(d.op);
}

/* Loads a and b, executes the instruction and stores T2 for every case. */
static void run_alu_cases(const struct alu_case *c, unsigned int n)
{
	uint32_t *code = calloc(n * 6 + 4, sizeof(uint32_t));
	struct ppu_iss m;
	unsigned int k, w = 0;

	code[w++] = LUI(S0, DATA);
	for (k = 0; k < n; k++) {
		uint32_t li[] = { LI(T0, c[k].a), LI(T1, c[k].b) };

		memcpy(code + w, li, sizeof(li));
		w += 4;
		code[w++] = c[k].insn;
		code[w++] = SW(T2, S0, 4 * k);
	}
	code[w++] = ADDI(A7, 0, PPU_ECALL_OP_EXIT);
	code[w++] = ECALL;
	ck_assert_int_eq(run_code(&m, code, w, 1), PPU_ISS_DONE);
	for (k = 0; k < n; k++)
		ck_assert_msg(rd32(DATA + 4 * k) == c[k].want,
			      "case %u (%s %#x, %#x): %#x, want %#x", k, insn_name(c[k].insn),
			      c[k].a, c[k].b, rd32(DATA + 4 * k), c[k].want);
	ppu_iss_fini(&m);
	free(code);
}

START_TEST(alu_register)
{
	const struct alu_case c[] = {
		{ ADD(T2, T0, T1), 0x7fffffff, 1, 0x80000000 },
		{ ADD(T2, T0, T1), 0xffffffff, 2, 1 },
		{ SUB(T2, T0, T1), 0, 1, 0xffffffff },
		{ SUB(T2, T0, T1), 0x80000000, 1, 0x7fffffff },
		{ SLT(T2, T0, T1), 0xffffffff, 0, 1 },
		{ SLT(T2, T0, T1), 0, 0xffffffff, 0 },
		{ SLT(T2, T0, T1), 5, 5, 0 },
		{ SLTU(T2, T0, T1), 0xffffffff, 0, 0 },
		{ SLTU(T2, T0, T1), 0, 0xffffffff, 1 },
		{ XOR(T2, T0, T1), 0xf0f0f0f0, 0xff00ff00, 0x0ff00ff0 },
		{ OR(T2, T0, T1), 0xf0f0f0f0, 0x0f000001, 0xfff0f0f1 },
		{ AND(T2, T0, T1), 0xf0f0f0f0, 0xff00ff00, 0xf000f000 },
		/*
		 * Writes to x0 are dropped: T2, which the case stores, keeps the
		 * previous case's result.
		 */
		{ ADD(ZERO, T0, T1), 1, 2, 0xf000f000 },
	};

	run_alu_cases(c, sizeof(c) / sizeof(c[0]));
}
END_TEST

START_TEST(alu_immediate)
{
	const struct alu_case c[] = {
		{ ADDI(T2, T0, -1), 0, 0, 0xffffffff },
		{ ADDI(T2, T0, 2047), 1, 0, 2048 },
		{ ADDI(T2, T0, -2048), 0, 0, 0xfffff800 },
		{ SLTI(T2, T0, -1), 0xfffffffe, 0, 1 },
		{ SLTI(T2, T0, -1), 0, 0, 0 },
		/* sltiu compares with the sign-extended immediate as unsigned. */
		{ SLTIU(T2, T0, -1), 0xfffffffe, 0, 1 },
		{ SLTIU(T2, T0, -1), 0xffffffff, 0, 0 },
		{ SLTIU(T2, T0, 1), 0, 0, 1 },
		{ XORI(T2, T0, -1), 0x12345678, 0, 0xedcba987 },
		{ ORI(T2, T0, 0x7f0), 0x0000000f, 0, 0x7ff },
		{ ANDI(T2, T0, -16), 0x12345678, 0, 0x12345670 },
		{ ANDI(T2, T0, 0x0ff), 0x12345678, 0, 0x78 },
		{ LUI(T2, 0x80000000u), 0, 0, 0x80000000 },
	};

	run_alu_cases(c, sizeof(c) / sizeof(c[0]));
}
END_TEST

START_TEST(alu_shifts)
{
	const struct alu_case c[] = {
		{ SLLI(T2, T0, 0), 0x80000001, 0, 0x80000001 },
		{ SLLI(T2, T0, 31), 3, 0, 0x80000000 },
		{ SRLI(T2, T0, 31), 0x80000000, 0, 1 },
		{ SRLI(T2, T0, 4), 0xf0000000, 0, 0x0f000000 },
		{ SRAI(T2, T0, 4), 0xf0000000, 0, 0xff000000 },
		{ SRAI(T2, T0, 31), 0x80000000, 0, 0xffffffff },
		{ SRAI(T2, T0, 0), 0x80000000, 0, 0x80000000 },
		/* Register shifts use the low five bits of rs2. */
		{ SLL(T2, T0, T1), 1, 33, 2 },
		{ SLL(T2, T0, T1), 1, 0xffffffff, 0x80000000 },
		{ SRL(T2, T0, T1), 0x80000000, 32, 0x80000000 },
		{ SRL(T2, T0, T1), 0x80000000, 63, 1 },
		{ SRA(T2, T0, T1), 0x80000000, 63, 0xffffffff },
		{ SRA(T2, T0, T1), 0x40000000, 30, 1 },
	};

	run_alu_cases(c, sizeof(c) / sizeof(c[0]));
}
END_TEST

/* ---- M extension ---- */

#define MUL(rd, a, b) MULDIV(0, rd, a, b)
#define MULH(rd, a, b) MULDIV(1, rd, a, b)
#define MULHSU(rd, a, b) MULDIV(2, rd, a, b)
#define MULHU(rd, a, b) MULDIV(3, rd, a, b)
#define DIV(rd, a, b) MULDIV(4, rd, a, b)
#define DIVU(rd, a, b) MULDIV(5, rd, a, b)
#define REM(rd, a, b) MULDIV(6, rd, a, b)
#define REMU(rd, a, b) MULDIV(7, rd, a, b)

START_TEST(m_extension)
{
	const struct alu_case c[] = {
		{ MUL(T2, T0, T1), 0x12345678, 0x9abcdef0, 0x242d2080 },
		{ MUL(T2, T0, T1), 0xffffffff, 0xffffffff, 1 },
		{ MULH(T2, T0, T1), 0xffffffff, 0xffffffff, 0 },
		{ MULH(T2, T0, T1), 0x80000000, 0x80000000, 0x40000000 },
		{ MULH(T2, T0, T1), 0x80000000, 0x7fffffff, 0xc0000000 },
		{ MULH(T2, T0, T1), 0xffffffff, 1, 0xffffffff },
		{ MULHSU(T2, T0, T1), 0xffffffff, 0xffffffff, 0xffffffff },
		{ MULHSU(T2, T0, T1), 0x80000000, 0xffffffff, 0x80000000 },
		{ MULHSU(T2, T0, T1), 0x7fffffff, 0xffffffff, 0x7ffffffe },
		{ MULHSU(T2, T0, T1), 0xffffffff, 0, 0 },
		{ MULHU(T2, T0, T1), 0xffffffff, 0xffffffff, 0xfffffffe },
		{ MULHU(T2, T0, T1), 0x80000000, 2, 1 },
		{ DIV(T2, T0, T1), 0xfffffff9, 2, 0xfffffffd },		/* -7 / 2 = -3 */
		{ DIV(T2, T0, T1), 7, 0xfffffffe, 0xfffffffd },		/* 7 / -2 = -3 */
		{ DIV(T2, T0, T1), 0x80000000, 0xffffffff, 0x80000000 },	/* overflow */
		{ DIV(T2, T0, T1), 5, 0, 0xffffffff },
		{ DIV(T2, T0, T1), 0x80000000, 0, 0xffffffff },
		{ DIVU(T2, T0, T1), 0xfffffff9, 2, 0x7ffffffc },
		{ DIVU(T2, T0, T1), 5, 0, 0xffffffff },
		{ DIVU(T2, T0, T1), 0, 0, 0xffffffff },
		{ REM(T2, T0, T1), 0xfffffff9, 2, 0xffffffff },		/* -7 % 2 = -1 */
		{ REM(T2, T0, T1), 7, 0xfffffffe, 1 },
		{ REM(T2, T0, T1), 0x80000000, 0xffffffff, 0 },		/* overflow */
		{ REM(T2, T0, T1), 0xfffffff9, 0, 0xfffffff9 },		/* x % 0 = x */
		{ REMU(T2, T0, T1), 0xfffffff9, 2, 1 },
		{ REMU(T2, T0, T1), 0x12345678, 0, 0x12345678 },
		{ REMU(T2, T0, T1), 10, 3, 1 },
	};

	run_alu_cases(c, sizeof(c) / sizeof(c[0]));
}
END_TEST

/* ---- branches and jumps ---- */

START_TEST(branches)
{
	static const struct {
		unsigned int f3;
		uint32_t a, b;
		int taken;
	} c[] = {
		{ 0, 5, 5, 1 }, { 0, 5, 6, 0 },			/* beq */
		{ 1, 5, 5, 0 }, { 1, 5, 6, 1 },			/* bne */
		{ 4, 0xffffffff, 0, 1 }, { 4, 0, 0xffffffff, 0 }, { 4, 3, 3, 0 },	/* blt */
		{ 5, 0xffffffff, 0, 0 }, { 5, 0, 0xffffffff, 1 }, { 5, 3, 3, 1 },	/* bge */
		{ 6, 0xffffffff, 0, 0 }, { 6, 0, 0xffffffff, 1 }, { 6, 3, 3, 0 },	/* bltu */
		{ 7, 0xffffffff, 0, 1 }, { 7, 0, 0xffffffff, 0 }, { 7, 3, 3, 1 },	/* bgeu */
	};
	/* Each case is "T2 = 1; branch +8 over T2 = 0", so T2 says whether it was taken. */
	uint32_t code[1 + 16 * 8 + 2], w = 0;
	struct ppu_iss m;
	unsigned int k;

	code[w++] = LUI(S0, DATA);
	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		uint32_t seq[] = { LI(T0, c[k].a), LI(T1, c[k].b), ADDI(T2, 0, 1),
				   BR(c[k].f3, T0, T1, 8), ADDI(T2, 0, 0), SW(T2, S0, 4 * k) };

		memcpy(code + w, seq, sizeof(seq));
		w += 8;
	}
	code[w++] = ADDI(A7, 0, 0);
	code[w++] = ECALL;
	ck_assert_int_eq(run_code(&m, code, w, 1), PPU_ISS_DONE);
	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++)
		ck_assert_msg(rd32(DATA + 4 * k) == (uint32_t)c[k].taken, "case %u", k);
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(backward_branch_loop)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		ADDI(T0, 0, 10),
		ADDI(T1, T1, 3),	/* loop: */
		ADDI(T0, T0, -1),
		BNE(T0, 0, -8),
		EXIT,
	};

	RUN_OK(&m, code);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T1), 30);
	ck_assert_uint_eq(m.steps, 1 + 30 + 2);
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(jumps)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		JAL(RA, 12),		/* 0x00: to 0x0c, ra = 0x04 */
		ADDI(S1, 0, 1),		/* 0x04: skipped */
		ADDI(S1, 0, 2),		/* 0x08: skipped */
		AUIPC(T0, 0),		/* 0x0c: t0 = 0x0c */
		JALR(T1, T0, 13),	/* 0x10: to (0x0c + 13) & ~1 = 0x18, t1 = 0x14 */
		ADDI(S1, 0, 3),		/* 0x14: skipped */
		AUIPC(T2, 0),		/* 0x18: t2 = 0x18 */
		JALR(T2, T2, 12),	/* 0x1c: rd = rs1: to 0x24, t2 = 0x20 */
		ADDI(S1, 0, 4),		/* 0x20: skipped */
		JAL(A2, 8),		/* 0x24: forward over one */
		ADDI(S1, 0, 5),		/* 0x28: skipped */
		JAL(0, 8),		/* 0x2c: rd = x0: to 0x34 */
		JAL(0, -4),		/* 0x30: not reached */
		EXIT,			/* 0x34 */
	};

	RUN_OK(&m, code);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, S1), 0);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, RA), CODE + 0x04);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T0), CODE + 0x0c);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T1), CODE + 0x14);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T2), CODE + 0x20);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A2), CODE + 0x28);
	ck_assert_uint_eq(ppu_iss_pc(&m, 0, 0), CODE + 0x38);
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(lui_auipc)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		LUI(T0, 0xabcde000u),
		AUIPC(T1, 0x00001000u),	/* at CODE + 4 */
		AUIPC(T2, 0xfffff000u),	/* at CODE + 8: wraps down */
		LI(S1, 0xdeadbeef),
		LI(A2, 0x00000800),	/* the rounding case of the pair */
		EXIT,
	};

	RUN_OK(&m, code);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T0), 0xabcde000u);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T1), CODE + 4 + 0x1000);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T2), CODE + 8 - 0x1000);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, S1), 0xdeadbeef);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A2), 0x800);
	ppu_iss_fini(&m);
}
END_TEST

/* ---- loads and stores ---- */

START_TEST(loads_every_size_and_sign)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		LUI(S0, DATA),
		LB(A0, S0, 0), LB(A1, S0, 1), LB(A2, S0, 2), LB(A3, S0, 3),
		LBU(A4, S0, 3), LH(A5, S0, 0), LH(A6, S0, 2), LHU(T0, S0, 2),
		LW(T1, S0, 0),
		ADDI(S1, S0, 0x20), LW(T2, S1, -0x20),	/* negative offset */
		LBU(S1, S0, 7),
		EXIT,
	};

	wr32(DATA, 0x80ff7f01);
	wr32(DATA + 4, 0xfe000000);
	RUN_OK(&m, code);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A0), 0x01);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A1), 0x7f);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A2), 0xffffffff);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A3), 0xffffff80);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A4), 0x80);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A5), 0x7f01);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A6), 0xffff80ff);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T0), 0x80ff);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T1), 0x80ff7f01);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T2), 0x80ff7f01);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, S1), 0xfe);
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(stores_every_size)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		LUI(S0, DATA),
		LI(T0, 0x123456ab),
		SB(T0, S0, 1),		/* only the low byte */
		LI(T1, 0x1234beef),
		SH(T1, S0, 6),		/* only the low half */
		LI(T2, 0xcafef00d),
		SW(T2, S0, 8),
		ADDI(S1, S0, 0x40),
		SW(T2, S1, -0x30),	/* DATA + 0x10 */
		SB(0, S0, 9),		/* x0 reads 0 */
		EXIT,
	};

	wr32(DATA, 0x11111111);
	wr32(DATA + 4, 0x22222222);
	wr32(DATA + 12, 0x33333333);
	RUN_OK(&m, code);
	ck_assert_uint_eq(rd32(DATA), 0x1111ab11);
	ck_assert_uint_eq(rd32(DATA + 4), 0xbeef2222);
	ck_assert_uint_eq(rd32(DATA + 8), 0xcafe000d);
	ck_assert_uint_eq(rd32(DATA + 12), 0x33333333);
	ck_assert_uint_eq(rd32(DATA + 16), 0xcafef00d);
	ppu_iss_fini(&m);
}
END_TEST

/* ---- atomics ---- */

START_TEST(every_amo)
{
	static const struct {
		unsigned int f5;
		uint32_t mem, v, want_mem;
	} c[] = {
		{ 0x01, 0x11111111, 0x22222222, 0x22222222 },	/* swap */
		{ 0x00, 0xfffffffe, 3, 1 },			/* add */
		{ 0x04, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0 },	/* xor */
		{ 0x0c, 0xff00ff00, 0x0ff00ff0, 0x0f000f00 },	/* and */
		{ 0x08, 0xff00ff00, 0x0ff00ff0, 0xfff0fff0 },	/* or */
		{ 0x10, 0xffffffff, 1, 0xffffffff },		/* min: signed */
		{ 0x10, 5, 0x80000000, 0x80000000 },
		{ 0x14, 0xffffffff, 1, 1 },			/* max: signed */
		{ 0x14, 0x80000000, 0x7fffffff, 0x7fffffff },
		{ 0x18, 0xffffffff, 1, 1 },			/* minu */
		{ 0x18, 0, 0xffffffff, 0 },
		{ 0x1c, 0xffffffff, 1, 0xffffffff },		/* maxu */
		{ 0x1c, 7, 0x80000000, 0x80000000 },
	};
	uint32_t code[1 + 13 * 6 + 2], w = 0;
	struct ppu_iss m;
	unsigned int k, n = sizeof(c) / sizeof(c[0]);

	code[w++] = LUI(S0, DATA);
	for (k = 0; k < n; k++) {
		uint32_t seq[] = { ADDI(T0, S0, 8 * k), LI(T1, c[k].v),
				   /* aq/rl set on every other one: no effect */
				   AMO(c[k].f5, T2, T0, T1) | (k & 1) << 25 | (k & 2) << 25,
				   SW(T2, S0, 0x400 + 4 * k) };

		memcpy(code + w, seq, sizeof(seq));
		w += 5;
		wr32(DATA + 8 * k, c[k].mem);
	}
	code[w++] = ADDI(A7, 0, 0);
	code[w++] = ECALL;
	ck_assert_int_eq(run_code(&m, code, w, 1), PPU_ISS_DONE);
	for (k = 0; k < n; k++) {
		ck_assert_msg(rd32(DATA + 8 * k) == c[k].want_mem, "case %u: mem %#x", k,
			      rd32(DATA + 8 * k));
		ck_assert_msg(rd32(DATA + 0x400 + 4 * k) == c[k].mem, "case %u: old %#x", k,
			      rd32(DATA + 0x400 + 4 * k));
	}
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(lr_sc_single_thread)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		LUI(S0, DATA),
		ADDI(A2, 0, 0x55),
		/* A plain SC without a reservation fails and writes nothing. */
		SC(A0, S0, A2),
		/* LR then SC succeeds; the SC ends the reservation, so a second fails. */
		LR(T0, S0), SC(A1, S0, A2), ADDI(A2, A2, 1), SC(A3, S0, A2),
		/* The thread's own store to the same beat (other word) breaks it. */
		LR(T1, S0), SW(0, S0, 4), SC(A4, S0, A2),
		/* A store to another beat does not. */
		LR(T2, S0), SW(0, S0, 8), SC(A5, S0, A2),
		/* An SC to the other word of the reserved beat succeeds (8-byte granule). */
		LR(T2, S0), ADDI(A2, A2, 1), ADDI(S1, S0, 4), SC(A6, S1, A2),
		EXIT,
	};

	wr32(DATA, 7);
	RUN_OK(&m, code);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A0), 1);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T0), 7);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A1), 0);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A3), 1);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T1), 0x55);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A4), 1);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A5), 0);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A6), 0);
	ck_assert_uint_eq(rd32(DATA), 0x56);
	ck_assert_uint_eq(rd32(DATA + 4), 0x57);
	ck_assert_uint_eq(m.nresv, 0);
	ppu_iss_fini(&m);
}
END_TEST

/* Two threads in lockstep: both reserve, the first SC wins and kills the other's reservation. */
START_TEST(lr_sc_between_threads)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		LUI(S0, DATA),
		LR(T0, S0),
		ADDI(T1, A1, 100),
		SC(A2, S0, T1),
		/* Now thread 1 reserves and thread 0's amoadd to the beat ends it. */
		LR(T0, S0),
		BNE(A1, 0, 12),
		AMOADD(0, S0, A1),	/* thread 0 only (adds 0) */
		JAL(0, 8),
		NOP,			/* thread 1: one step behind thread 0's amoadd */
		SC(A3, S0, T1),
		EXIT,
	};

	ck_assert_int_eq(RUN(&m, code, 2), PPU_ISS_DONE);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A2), 0);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 1, A2), 1);
	/* Thread 0's amoadd (thread 0 reaches it first) cleared both reservations. */
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A3), 1);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 1, A3), 1);
	ck_assert_uint_eq(rd32(DATA), 100);
	ppu_iss_fini(&m);
}
END_TEST

/* The usual retry loop under contention from 6 threads: no increment is lost. */
START_TEST(lr_sc_counter)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		LUI(S0, DATA),
		ADDI(S1, 0, 25),
		LR(T0, S0),		/* retry: */
		ADDI(T0, T0, 1),
		SC(T1, S0, T0),
		BNE(T1, 0, -12),
		ADDI(S1, S1, -1),
		BNE(S1, 0, -20),
		EXIT,
	};

	ck_assert_int_eq(RUN(&m, code, 6), PPU_ISS_DONE);
	ck_assert_uint_eq(rd32(DATA), 150);
	ppu_iss_fini(&m);
}
END_TEST

/* ---- CSRs ---- */

static const unsigned int all_csrs[] = {
	PPU_CSR_CYCLE, PPU_CSR_TIME, PPU_CSR_INSTRET, PPU_CSR_CYCLEH, PPU_CSR_TIMEH,
	PPU_CSR_INSTRETH, PPU_CSR_TID, PPU_CSR_NTID, PPU_CSR_CTAID, PPU_CSR_NCTAID,
	PPU_CSR_CTADIM_X, PPU_CSR_CTADIM_Y, PPU_CSR_CTADIM_Z, PPU_CSR_GRID_X, PPU_CSR_GRID_Y,
	PPU_CSR_GRID_Z, PPU_CSR_PARAM, PPU_CSR_PRIO, PPU_CSR_DEPTH, PPU_CSR_MAXDEPTH,
	PPU_CSR_TASKID, PPU_CSR_HWID, PPU_CSR_CHILD_BLOCK, PPU_CSR_CHILD_STACK,
	PPU_CSR_CU_CONTEXTS, PPU_CSR_NUM_CU,
};
#define NCSR (sizeof(all_csrs) / sizeof(all_csrs[0]))

static int csr_hook(void *user, const struct ppu_iss *m, unsigned int slot, unsigned int tid,
		    unsigned int csr, uint32_t *val)
{
	switch (csr) {
	case PPU_CSR_CYCLE: *val = 0x89abcdef; return 1;
	case PPU_CSR_CYCLEH: *val = 0x01234567; return 1;
	case PPU_CSR_HWID: *val = 3 << 8 | (tid + 4); return 1;
	default: return 0;
	}
}

/*
 * Every CSR from every thread of CTA 17 of a 2x3x4 grid of 2x2x2 CTAs, once
 * with the defaults and once with a hook for the counters and HWID.  The
 * four ways to read (csrrs/csrrc x0, csrrsi/csrrci 0) all work.
 */
static void check_csrs(int hook)
{
	uint32_t code[NCSR * 2 + 4], w = 0;
	struct ppu_iss_launch l;
	struct ppu_iss m;
	unsigned int k, tid;

	/* s0 = DATA + 0x100 * tid */
	code[w++] = SLLI(S0, A1, 8);
	code[w++] = ADD(S0, S0, A0);
	for (k = 0; k < NCSR; k++) {
		static const uint32_t f3[4] = { 2, 3, 6, 7 };

		code[w++] = i_type(all_csrs[k], 0, f3[k % 4], T0, 0x73);
		code[w++] = SW(T0, S0, 4 * k);
	}
	code[w++] = ADDI(A7, 0, 0);
	code[w++] = ECALL;
	load_code(code, w);
	launch_init(&l, 2);
	l.cta_y = l.cta_z = 2;
	l.grid_x = 2;
	l.grid_y = 3;
	l.grid_z = 4;
	l.cta_first = 17;
	l.cta_count = 1;
	l.param = DATA;
	l.prio = 40;
	l.depth = 3;
	l.maxdepth = 6;
	l.taskid = 61;
	l.child_block = 32768;
	l.child_stack = 512;
	l.cu_contexts = 8;
	l.num_cu = 4;
	if (hook)
		l.csr = csr_hook;
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), 0);
	ck_assert_int_eq(ppu_iss_run(&m, MAX_STEPS), PPU_ISS_DONE);
	for (tid = 0; tid < 8; tid++) {
		const uint32_t want[NCSR] = {
			/* counters: checked below */
			0, 0, 0, 0, 0, 0,
			tid, 8, 17, 24, 2, 2, 2, 2, 3, 4, DATA, 40, 3, 6, 61,
			hook ? 3 << 8 | (tid + 4) : tid, 32768, 512, 8, 4,
		};
		uint32_t *got = (uint32_t *)(mem + (DATA - MEM_BASE) + 0x100 * tid);

		for (k = 6; k < NCSR; k++)
			ck_assert_msg(got[k] == want[k], "thread %u csr %#x: %#x, want %#x", tid,
				      all_csrs[k], got[k], want[k]);
		if (hook) {
			ck_assert_uint_eq(got[0], 0x89abcdef);
			ck_assert_uint_eq(got[3], 0x01234567);
		} else {
			/*
			 * Default counters: the steps before the read.  Eight threads in
			 * lockstep: the k-th read of thread tid comes after 2 + 2k
			 * instructions of all eight threads plus tid.
			 */
			ck_assert_uint_eq(got[0], (2 + 2 * 0) * 8 + tid);
			ck_assert_uint_eq(got[1], (2 + 2 * 1) * 8 + tid);
			ck_assert_uint_eq(got[3], 0);
		}
		ck_assert_uint_eq(got[2], (2 + 2 * 2) * 8 + tid);	/* instret */
		ck_assert_uint_eq(got[4], 0);
		ck_assert_uint_eq(got[5], 0);
	}
	ppu_iss_fini(&m);
}

START_TEST(csr_reads_every_csr)
{
	check_csrs(0);
}
END_TEST

START_TEST(csr_hook_overrides)
{
	check_csrs(1);
}
END_TEST

/* ---- illegal instructions ---- */

START_TEST(illegal_encodings)
{
	static const uint32_t words[] = {
		0x00000000,		/* all zero (a compressed illegal) */
		0xffffffff,		/* longer-than-32-bit encoding space */
		0x00000001,		/* c.nop */
		0x00004502,		/* c.lwsp-like halfword */
		0x0000001f,		/* 48-bit encoding prefix */
		0x00002007,		/* flw: no F */
		0x00000053,		/* fadd.s */
		0x0000003b,		/* addw: RV64 */
		0x0000301b,		/* OP-IMM-32 */
		0x02059513,		/* slli with shamt[5] */
		0x0205d513,		/* srli with shamt[5] */
		0x6005d513,		/* srai with a wrong funct7 */
		0x40b51533,		/* sll with funct7 0x20 */
		0x40b56533,		/* or with funct7 0x20 */
		0x08b50533,		/* funct7 4 */
		0x0005b503,		/* ld */
		0x0005e503,		/* lwu */
		0x0005f503,		/* funct3 7 load */
		0x00b53023,		/* sd */
		0x00b54023,		/* store funct3 4 */
		0x00b52063,		/* branch funct3 2 */
		0x00b53063,		/* branch funct3 3 */
		0x000510e7,		/* jalr funct3 1 */
		0x00b5352f,		/* amoadd.d */
		0x28b5252f,		/* AMO funct5 0x0a */
		0x1005a52f | 1u << 20,	/* lr.w with rs2 != 0 */
		0x0000200f,		/* MISC-MEM funct3 2 */
		0x30200073,		/* mret */
		0x10500073,		/* wfi */
		0x12000073,		/* sfence.vma */
		0x00200073,		/* uret-like ecall space */
		0x00000873,		/* ecall with rd != 0 */
		0x00008073,		/* ecall with rs1 != 0 */
		0xcc0015f3,		/* csrrw a1, tid, zero: a write */
		0xcc0595f3,		/* csrrw a1, tid, a1 */
		0xcc05a5f3,		/* csrrs a1, tid, a1: a write */
		0xcc05b5f3,		/* csrrc a1, tid, a1 */
		0xcc00d5f3,		/* csrrwi a1, tid, 1 */
		0xcc0055f3,		/* csrrwi a1, tid, 0: csrrwi always writes */
		0xcc00e5f3,		/* csrrsi a1, tid, 1 */
		0xcc00f5f3,		/* csrrci a1, tid, 1 */
		0x300025f3,		/* csrr mstatus */
		0xf14025f3,		/* csrr mhartid */
		0xc03025f3,		/* csrr hpmcounter3 */
		0xcd4025f3,		/* one past the last PPU CSR */
		0xcbf025f3,		/* one before the first */
		0xc83025f3,		/* hpmcounter3h */
		0x001025f3,		/* fflags */
		0x000045f3,		/* SYSTEM funct3 4 */
	};
	unsigned int k;

	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		uint32_t code[] = { NOP, ADDI(A1, 0, 9), words[k], EXIT };
		struct ppu_iss m;

		memset(mem, 0, 0x100);
		ck_assert_msg(RUN(&m, code, 1) == PPU_ISS_FAULT, "word %#x executed", words[k]);
		expect_fault(&m, PPU_FAULT_KIND_ILLEGAL_INSTR, PPU_FAULT_ACCESS_EXEC, CODE + 8,
			     words[k], CODE + 8);
		/* Nothing of the instruction happened, and the thread stopped at it. */
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A1), 9);
		ck_assert_uint_eq(ppu_iss_pc(&m, 0, 0), CODE + 8);
		ck_assert_uint_eq(ppu_iss_thread(&m, 0, 0)->state, PPU_ISS_T_FAULT);
		ck_assert_uint_eq(m.steps, 2);
		ppu_iss_fini(&m);
	}
}
END_TEST

/* Encodings near the illegal ones that RISC-V says to accept. */
START_TEST(legal_neighbours)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		0x8330000f,		/* fence.tso */
		0x0ff0000f,		/* fence iorw, iorw */
		0xfff0100f,		/* fence.i with the reserved fields set: ignored */
		0xcc1035f3,		/* csrrc a1, ntid, zero: no write */
		0xcc106673,		/* csrrsi a2, ntid, 0 */
		0xcc1076f3,		/* csrrci a3, ntid, 0 */
		0xcc102073,		/* csrr x0, ntid */
		EXIT,
	};

	ck_assert_int_eq(RUN(&m, code, 4), PPU_ISS_DONE);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 3, A1), 4);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 3, A2), 4);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 3, A3), 4);
	ppu_iss_fini(&m);
}
END_TEST

/* ---- misaligned accesses and jump targets ---- */

struct misaligned_case {
	uint32_t insn;		/* with base register S0 = DATA (or CODE for jumps) */
	unsigned int access;
	uint32_t addr;
};

START_TEST(misaligned)
{
	const struct misaligned_case c[] = {
		{ LW(A0, S0, 2), PPU_FAULT_ACCESS_READ, DATA + 2 },
		{ LW(A0, S0, 1), PPU_FAULT_ACCESS_READ, DATA + 1 },
		{ LH(A0, S0, 1), PPU_FAULT_ACCESS_READ, DATA + 1 },
		{ LHU(A0, S0, 3), PPU_FAULT_ACCESS_READ, DATA + 3 },
		{ SW(A0, S0, 3), PPU_FAULT_ACCESS_WRITE, DATA + 3 },
		{ SH(A0, S0, 5), PPU_FAULT_ACCESS_WRITE, DATA + 5 },
		{ AMOADD(A0, S1, A0), PPU_FAULT_ACCESS_RMW, DATA + 2 },
		{ AMO(0x01, A0, S1, A0), PPU_FAULT_ACCESS_RMW, DATA + 2 },
		{ LR(A0, S1), PPU_FAULT_ACCESS_READ, DATA + 2 },
		/* An SC checks alignment even without a reservation. */
		{ SC(A0, S1, A0), PPU_FAULT_ACCESS_WRITE, DATA + 2 },
		/* Jump targets: the jump at CODE + 12 faults, not the target. */
		{ JAL(A0, 6), PPU_FAULT_ACCESS_EXEC, CODE + 12 + 6 },
		{ JAL(A0, -2), PPU_FAULT_ACCESS_EXEC, CODE + 12 - 2 },
		{ JALR(A0, S1, 0), PPU_FAULT_ACCESS_EXEC, DATA + 2 },
		{ JALR(A0, S1, 1), PPU_FAULT_ACCESS_EXEC, DATA + 2 },	/* bit 0 cleared first */
		{ BEQ(0, 0, 6), PPU_FAULT_ACCESS_EXEC, CODE + 12 + 6 },
		{ BNE(S0, 0, -10), PPU_FAULT_ACCESS_EXEC, CODE + 12 - 10 },
	};
	unsigned int k;

	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		uint32_t code[] = { LUI(S0, DATA), ADDI(S1, S0, 2), ADDI(A0, 0, 77), c[k].insn,
				    EXIT };
		struct ppu_iss m;

		wr32(DATA, 0x12345678);
		wr32(DATA + 4, 0x9abcdef0);
		ck_assert_msg(RUN(&m, code, 1) == PPU_ISS_FAULT, "case %u ran", k);
		expect_fault(&m, PPU_FAULT_KIND_MISALIGNED, c[k].access, c[k].addr, CODE + 12,
			     CODE + 12);
		/* rd is not written and memory is untouched. */
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A0), 77);
		ck_assert_uint_eq(rd32(DATA), 0x12345678);
		ck_assert_uint_eq(rd32(DATA + 4), 0x9abcdef0);
		ppu_iss_fini(&m);
	}
}
END_TEST

/* A branch to a misaligned target that is not taken is no fault. */
START_TEST(misaligned_branch_not_taken)
{
	struct ppu_iss m;
	const uint32_t code[] = { ADDI(T0, 0, 1), BEQ(T0, 0, 6), EXIT };

	RUN_OK(&m, code);
	ppu_iss_fini(&m);
}
END_TEST

/* ---- memory faults reported by the callbacks ---- */

START_TEST(memory_faults)
{
	const struct {
		uint32_t insn;			/* S0 = HOLE, S1 = RO_PAGE */
		unsigned int kind, access;
		uint32_t addr;
	} c[] = {
		{ LW(A0, S0, 8), PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_ACCESS_READ, HOLE + 8 },
		{ LBU(A0, S0, 3), PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_ACCESS_READ, HOLE + 3 },
		{ SW(A0, S0, 4), PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_ACCESS_WRITE, HOLE + 4 },
		{ SB(A0, S1, 1), PPU_FAULT_KIND_PERMISSION, PPU_FAULT_ACCESS_WRITE, RO_PAGE + 1 },
		{ AMOADD(A0, S0, A0), PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_ACCESS_RMW, HOLE },
		{ AMOADD(A0, S1, A0), PPU_FAULT_KIND_PERMISSION, PPU_FAULT_ACCESS_RMW, RO_PAGE },
		{ LR(A0, S0), PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_ACCESS_READ, HOLE },
	};
	unsigned int k;

	for (k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		uint32_t code[] = { LUI(S0, HOLE), LUI(S1, RO_PAGE), ADDI(A0, 0, 77), c[k].insn,
				    EXIT };
		struct ppu_iss m;

		ck_assert_msg(RUN(&m, code, 1) == PPU_ISS_FAULT, "case %u ran", k);
		expect_fault(&m, c[k].kind, c[k].access, c[k].addr, CODE + 12, CODE + 12);
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A0), 77);
		ck_assert_uint_eq(rd32(RO_PAGE), 0);
		ppu_iss_fini(&m);
	}
}
END_TEST

START_TEST(fetch_fault)
{
	struct ppu_iss m;
	const uint32_t code[] = { LUI(S0, HOLE), JALR(RA, S0, 0x10), EXIT };

	ck_assert_int_eq(RUN(&m, code, 1), PPU_ISS_FAULT);
	expect_fault(&m, PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_ACCESS_EXEC, HOLE + 0x10,
		     HOLE + 0x10, HOLE + 0x10);
	/* The jump completed (ra written); the fetch at the target faulted. */
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, RA), CODE + 8);
	ppu_iss_fini(&m);
}
END_TEST

/* An SC can fault only when it writes: with a reservation on a read-only page. */
START_TEST(sc_faults_only_when_it_writes)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		LUI(S1, RO_PAGE), ADDI(A2, 0, 5),
		SC(A0, S1, A2),		/* no reservation: fails quietly */
		LR(T0, S1),		/* reading is allowed */
		SC(A1, S1, A2),		/* writes: PERMISSION */
		EXIT,
	};

	ck_assert_int_eq(RUN(&m, code, 1), PPU_ISS_FAULT);
	expect_fault(&m, PPU_FAULT_KIND_PERMISSION, PPU_FAULT_ACCESS_WRITE, RO_PAGE, CODE + 16,
		     CODE + 16);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A0), 1);
	ppu_iss_fini(&m);
}
END_TEST

/* The first fault stops the whole launch; other threads do not run on. */
START_TEST(fault_stops_launch)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		BNE(A1, 0, 8),
		EBREAK,			/* thread 0 */
		ADDI(S1, S1, 1),	/* the others */
		JAL(0, -4),
	};

	ck_assert_int_eq(RUN(&m, code, 3), PPU_ISS_FAULT);
	expect_fault(&m, PPU_FAULT_KIND_KERNEL_TRAP, PPU_FAULT_ACCESS_EXEC, CODE + 4, 0, CODE + 4);
	ck_assert_uint_eq(m.fault.tid, 0);
	ck_assert_uint_eq(m.fault.slot, 0);
	/* Threads 1 and 2 each ran bne and nothing after thread 0's ebreak. */
	ck_assert_uint_eq(m.steps, 3);
	ck_assert_int_eq(ppu_iss_step(&m), PPU_ISS_FAULT);
	ck_assert_int_eq(ppu_iss_run(&m, 100), PPU_ISS_FAULT);
	ck_assert_uint_eq(m.steps, 3);
	ck_assert_uint_eq(ppu_iss_thread(&m, 0, 1)->state, PPU_ISS_T_RUN);
	ppu_iss_fini(&m);
}
END_TEST

/* ---- ecalls ---- */

START_TEST(ecall_trap)
{
	struct ppu_iss m;
	const uint32_t code[] = { LI(A0, 0xdead0001), ADDI(A7, 0, PPU_ECALL_OP_TRAP), ECALL, EXIT };

	ck_assert_int_eq(RUN(&m, code, 1), PPU_ISS_FAULT);
	expect_fault(&m, PPU_FAULT_KIND_KERNEL_TRAP, PPU_FAULT_ACCESS_EXEC, CODE + 12, 0xdead0001,
		     CODE + 12);
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(ecall_unknown_and_unmodelled_ops)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		ADDI(A0, 0, 55), ADDI(A1, 0, 66), ADDI(A2, 0, 77), ADDI(T0, 0, 88),
		ADDI(A7, 0, 99), ECALL,			/* unknown: ENOSYS */
		ADDI(S0, A0, 0),
		ADDI(A0, 0, 55),
		ADDI(A7, 0, PPU_ECALL_OP_LAUNCH), ECALL,	/* no child pool: ENOSYS */
		ADDI(S1, A0, 0),
		ADDI(A0, 0, 55),
		ADDI(A7, 0, PPU_ECALL_OP_WAIT_CHILDREN), ECALL,	/* no children: 0 */
		ADDI(A3, A0, 0),
		EXIT,
	};

	RUN_OK(&m, code);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, S0), PPU_ECALL_STATUS_ENOSYS);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, S1), PPU_ECALL_STATUS_ENOSYS);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A3), PPU_ECALL_STATUS_OK);
	/* Everything else is preserved. */
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A1), 66);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A2), 77);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, T0), 88);
	ppu_iss_fini(&m);
}
END_TEST

/* ---- barrier ---- */

/* Each thread publishes a value, waits, then reads its neighbour's. */
START_TEST(barrier_exchanges_values)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		LUI(S0, DATA),
		SLLI(T0, A1, 2), ADD(T0, T0, S0),
		ADDI(T1, A1, 100), SW(T1, T0, 0),	/* data[tid] = tid + 100 */
		/* Thread 0 dawdles, so the others really wait for it. */
		BNE(A1, 0, 16), NOP, NOP, NOP,
		ADDI(A0, 0, 0x55),
		BARRIER,
		ADDI(S1, A0, 0),			/* 0 from the barrier */
		CSRR(T2, PPU_CSR_NTID),
		ADDI(T1, A1, 1), REMU(T1, T1, T2),
		SLLI(T1, T1, 2), ADD(T1, T1, S0),
		LW(A2, T1, 0),				/* data[(tid + 1) % n] */
		EXIT,
	};
	unsigned int tid;

	ck_assert_int_eq(RUN(&m, code, 5), PPU_ISS_DONE);
	for (tid = 0; tid < 5; tid++) {
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, tid, A2), (tid + 1) % 5 + 100);
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, tid, S1), 0);
	}
	ck_assert_uint_eq(m.cta[0].phase, 1);
	ppu_iss_fini(&m);
}
END_TEST

/*
 * Exited threads leave the count: threads 2 and 3 exit at once, and 0 and 1
 * pass two barriers between themselves.
 */
START_TEST(barrier_counts_only_live_threads)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		ADDI(T0, 0, 2),
		BR(7, A1, T0, 40),	/* tid >= 2: to the EXIT at 11 */
		ADDI(A0, 0, 0x55),
		BARRIER,
		ADDI(S0, A0, 0),
		BARRIER,
		ADDI(S1, S1, 1),
		EXIT,
		EXIT,			/* 11 */
	};
	unsigned int tid;

	ck_assert_int_eq(RUN(&m, code, 4), PPU_ISS_DONE);
	for (tid = 0; tid < 2; tid++) {
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, tid, S0), 0);
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, tid, S1), 1);
	}
	for (tid = 2; tid < 4; tid++)
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, tid, S0), 0);
	ck_assert_uint_eq(m.cta[0].phase, 0);	/* two phases passed */
	ck_assert_uint_eq(exits, 4);
	ppu_iss_fini(&m);
}
END_TEST

/* Three threads wait at the barrier; the fourth's late exit is what releases them. */
START_TEST(barrier_released_by_exit)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		ADDI(T0, 0, 3),
		BEQ(A1, T0, 28),	/* thread 3: to 8 */
		ADDI(A0, 0, 0x55),
		BARRIER,
		ADDI(S0, A0, 0),
		CSRR(S1, PPU_CSR_CYCLE),
		JAL(0, 24),		/* to the EXIT at 13 */
		ADDI(T1, 0, 20),	/* 8: thread 3 spins, then exits */
		ADDI(T1, T1, -1),
		BNE(T1, 0, -4),
		CSRR(S1, PPU_CSR_CYCLE),
		NOP,
		EXIT,			/* 13 */
	};
	unsigned int tid;
	uint32_t late;

	ck_assert_int_eq(RUN(&m, code, 4), PPU_ISS_DONE);
	late = ppu_iss_reg(&m, 0, 3, S1);
	for (tid = 0; tid < 3; tid++) {
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, tid, S0), 0);
		ck_assert_uint_eq(ppu_iss_thread(&m, 0, tid)->bar_phase, 0);
		ck_assert_uint_gt(ppu_iss_reg(&m, 0, tid, S1), late + 2);
	}
	ppu_iss_fini(&m);
}
END_TEST

/* ---- scheduling ---- */

/* One instruction per thread in turn: the k-th instruction of thread i runs at step k*n + i. */
START_TEST(round_robin_order)
{
	struct ppu_iss m;
	const uint32_t code[] = { CSRR(S0, PPU_CSR_CYCLE), CSRR(S1, PPU_CSR_CYCLE), EXIT };
	unsigned int tid;

	ck_assert_int_eq(RUN(&m, code, 3), PPU_ISS_DONE);
	for (tid = 0; tid < 3; tid++) {
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, tid, S0), tid);
		ck_assert_uint_eq(ppu_iss_reg(&m, 0, tid, S1), 3 + tid);
		ck_assert_uint_eq(ppu_iss_thread(&m, 0, tid)->retired, 4);
	}
	ppu_iss_fini(&m);
}
END_TEST

/* Resident CTAs share the barrel: slot 0's threads, then slot 1's. */
START_TEST(round_robin_across_slots)
{
	struct ppu_iss_launch l;
	struct ppu_iss m;
	const uint32_t code[] = { CSRR(S0, PPU_CSR_CYCLE), EXIT };
	unsigned int j, tid;

	load_code(code, sizeof(code) / sizeof(code[0]));
	launch_init(&l, 2);
	l.grid_x = 2;
	l.slots = 2;
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), 0);
	ck_assert_int_eq(ppu_iss_run(&m, MAX_STEPS), PPU_ISS_DONE);
	for (j = 0; j < 2; j++)
		for (tid = 0; tid < 2; tid++)
			ck_assert_uint_eq(ppu_iss_reg(&m, j, tid, S0), j * 2 + tid);
	ppu_iss_fini(&m);
}
END_TEST

/* A thread waiting at the barrier is skipped; the release resumes after the releaser. */
START_TEST(round_robin_skips_waiting_threads)
{
	struct ppu_iss m;
	const uint32_t code[] = {
		CSRR(S0, PPU_CSR_CYCLE),
		BEQ(A1, 0, 12),		/* thread 0: to the barrier at 4 */
		CSRR(S1, PPU_CSR_CYCLE),
		CSRR(A3, PPU_CSR_CYCLE),
		BARRIER,
		CSRR(A2, PPU_CSR_CYCLE),
		EXIT,
	};

	ck_assert_int_eq(RUN(&m, code, 2), PPU_ISS_DONE);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, S0), 0);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 1, S0), 1);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 1, S1), 5);
	/* Step 6 was thread 0's ecall; from then on thread 1 runs alone. */
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 1, A3), 7);
	/* Thread 1's ecall at step 9 released the barrier: thread 0 is next. */
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, A2), 10);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 1, A2), 11);
	ppu_iss_fini(&m);
}
END_TEST

/*
 * A grid of 5 CTAs through 2 resident slots: each CTA runs once, in the
 * slot that became free, with that slot's stacks and HWID.
 */
START_TEST(grid_through_slots)
{
	struct ppu_iss_launch l;
	struct ppu_iss m;
	const uint32_t code[] = {
		CSRR(T0, PPU_CSR_CTAID), CSRR(T1, PPU_CSR_NTID),
		MUL(T2, T0, T1), ADD(T2, T2, A1), SLLI(T2, T2, 2), ADD(T2, T2, A0),
		SLLI(T0, T0, 8), OR(T0, T0, A1), SW(T0, T2, 0),
		SW(SP, T2, 0x100),
		CSRR(T1, PPU_CSR_HWID), SW(T1, T2, 0x200),
		EXIT,
	};
	unsigned int c, i;

	load_code(code, sizeof(code) / sizeof(code[0]));
	launch_init(&l, 3);
	l.grid_x = 5;
	l.slots = 2;
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), 0);
	ck_assert_int_eq(ppu_iss_run(&m, MAX_STEPS), PPU_ISS_DONE);
	for (c = 0; c < 5; c++) {
		for (i = 0; i < 3; i++) {
			uint32_t at = DATA + 4 * (c * 3 + i);

			ck_assert_uint_eq(rd32(at), c << 8 | i);
			ck_assert_uint_eq(rd32(at + 0x100),
					  STACKS + ((c % 2) * 3 + i + 1) * STACK_BYTES);
			ck_assert_uint_eq(rd32(at + 0x200), (c % 2) << 8 | i);
		}
	}
	ck_assert_uint_eq(exits, 15);
	/* The slots keep the last CTA that ran in them. */
	ck_assert_uint_eq(m.cta[0].cta_id, 4);
	ck_assert_uint_eq(m.cta[1].cta_id, 3);
	ppu_iss_fini(&m);
}
END_TEST

/* A sub-range of the grid's CTAs (how an RTL test runs one CTA of a bigger grid). */
START_TEST(cta_range)
{
	struct ppu_iss_launch l;
	struct ppu_iss m;
	const uint32_t code[] = {
		CSRR(T0, PPU_CSR_CTAID), SLLI(T1, T0, 2), ADD(T1, T1, A0),
		ADDI(T0, T0, 1), AMOADD(0, T1, T0),
		EXIT,
	};
	unsigned int c;

	load_code(code, sizeof(code) / sizeof(code[0]));
	launch_init(&l, 3);
	l.grid_x = 5;
	l.grid_y = 2;
	l.cta_first = 7;
	l.cta_count = 2;
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), 0);
	ck_assert_int_eq(ppu_iss_run(&m, MAX_STEPS), PPU_ISS_DONE);
	for (c = 0; c < 10; c++)
		ck_assert_uint_eq(rd32(DATA + 4 * c), c == 7 || c == 8 ? 3 * (c + 1) : 0);
	ck_assert_uint_eq(exits, 6);
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(init_rejects_bad_launches)
{
	struct ppu_iss_launch l;
	struct ppu_iss m;

	launch_init(&l, 0);
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	launch_init(&l, 1);
	l.entry_pc = CODE + 2;
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	launch_init(&l, PPU_MAX_CTA_THREADS + 1);
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	launch_init(&l, 32);
	l.cta_y = 32;
	l.cta_z = 2;			/* 2048 threads */
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	launch_init(&l, 0x80000000u);
	l.cta_y = l.cta_z = 0x80000000u;	/* wraps to 0 in 64 bits */
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	launch_init(&l, 1);
	l.grid_x = l.grid_y = l.grid_z = 0xffff;	/* 2^48 CTAs */
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	launch_init(&l, 1);
	l.grid_z = 0;
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	launch_init(&l, 1);
	l.grid_y = 0x10000;
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	launch_init(&l, 1);
	l.grid_x = 4;
	l.cta_first = 4;
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	l.cta_first = 2;
	l.cta_count = 3;
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), -1);
	/* The largest CTA is fine. */
	launch_init(&l, PPU_MAX_CTA_THREADS);
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), 0);
	ck_assert_uint_eq(m.nthreads, PPU_MAX_CTA_THREADS);
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(step_limit)
{
	struct ppu_iss m;
	const uint32_t code[] = { ADDI(S0, S0, 1), JAL(0, -4) };

	load_code(code, 2);
	{
		struct ppu_iss_launch l;

		launch_init(&l, 1);
		ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), 0);
	}
	ck_assert_int_eq(ppu_iss_run(&m, 1001), PPU_ISS_LIMIT);
	ck_assert_uint_eq(m.steps, 1001);
	ck_assert_int_eq(m.status, PPU_ISS_RUNNING);
	ck_assert_int_eq(ppu_iss_run(&m, 999), PPU_ISS_LIMIT);
	ck_assert_uint_eq(ppu_iss_reg(&m, 0, 0, S0), 1000);
	ck_assert_int_eq(ppu_iss_step(&m), PPU_ISS_RUNNING);
	ppu_iss_fini(&m);
}
END_TEST

/* ---- the sample kernels, built by clang and loaded with module_elf ---- */

static uint32_t *host_ptr(uint32_t va)
{
	return (uint32_t *)(mem + (va - MEM_BASE));
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s ^ (*s >> 16);
}

static uint32_t image_bytes;

/* Loads build/device/<name>.elf at CODE and returns the entry of the kernel @name. */
static uint32_t load_kernel(const char *name)
{
	char path[256], err[256];
	struct ppu_elf e;
	unsigned char *file;
	uint32_t off;
	long len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.elf", PPU_DEVICE_DIR, name);
	f = fopen(path, "rb");
	ck_assert_msg(f, "cannot open %s (make device-kernels)", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	file = malloc(len);
	ck_assert_int_eq(fread(file, 1, len, f), len);
	fclose(f);
	ck_assert_msg(ppu_elf_open(&e, file, len, err, sizeof(err)) == 0, "%s: %s", path, err);
	ck_assert_uint_le(e.image_bytes, RO_PAGE - CODE);
	ck_assert_msg(ppu_elf_load(&e, CODE, host_ptr(CODE), err, sizeof(err)) == 0, "%s: %s",
		      path, err);
	ck_assert_msg(ppu_elf_symbol(&e, name, &off) == 0, "%s: no symbol %s", path, name);
	image_bytes = e.image_bytes;
	free(file);
	return CODE + off;
}

/* Runs kernel @name with @params at DATA: grid_x CTAs of cta_x threads, @slots resident. */
static void run_kernel(struct ppu_iss *m, const char *name, uint32_t grid_x, uint32_t cta_x,
		       uint32_t slots, const void *params, size_t plen)
{
	struct ppu_iss_launch l;
	unsigned int j, i;
	int st;

	launch_init(&l, cta_x);
	l.entry_pc = load_kernel(name);
	l.grid_x = grid_x;
	l.slots = slots;
	memcpy(host_ptr(DATA), params, plen);
	ck_assert_int_eq(ppu_iss_init(m, &l, &test_mem), 0);
	st = ppu_iss_run(m, MAX_STEPS);
	ck_assert_msg(st == PPU_ISS_DONE, "%s: status %d, fault kind %u addr %#x data %#x pc %#x",
		      name, st, m->fault.kind, m->fault.addr, m->fault.data, m->fault.pc);
	ck_assert_uint_eq(exits, grid_x * cta_x);
	/* PPU_KERNEL's entry set gp, PC-relative, inside the image's reach. */
	for (j = 0; j < m->nslots; j++) {
		for (i = 0; i < cta_x; i++) {
			uint32_t gp = ppu_iss_reg(m, j, i, GP);

			ck_assert_uint_gt(gp, CODE);
			ck_assert_uint_le(gp, CODE + image_bytes + 0x800);
			ck_assert_uint_eq(gp, ppu_iss_reg(m, 0, 0, GP));
		}
	}
}

#define A_PARAMS (DATA + 0x100)

START_TEST(kernel_saxpy)
{
	enum { N = 500, GUARD = 12 };
	struct saxpy_params p = { N, -3, A_PARAMS, A_PARAMS + 4 * (N + GUARD) };
	uint32_t *x = host_ptr(p.x), *y = host_ptr(p.y), want[N + GUARD], s = 1;
	struct ppu_iss m;
	unsigned int i;

	for (i = 0; i < N + GUARD; i++) {
		x[i] = lcg(&s);
		y[i] = lcg(&s);
		want[i] = i < N ? (uint32_t)p.a * x[i] + y[i] : y[i];
	}
	run_kernel(&m, "saxpy", 8, 64, 2, &p, sizeof(p));
	for (i = 0; i < N + GUARD; i++)
		ck_assert_msg(y[i] == want[i], "y[%u] = %#x, want %#x", i, y[i], want[i]);
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(kernel_reduce_atomic)
{
	enum { N = 5000 };
	struct reduce_params p = { N, A_PARAMS + 16, A_PARAMS };
	uint32_t *in = host_ptr(p.in), *out = host_ptr(p.out), s = 2, sum = 0, max = 0;
	struct ppu_iss m;
	unsigned int i;

	for (i = 0; i < N; i++) {
		in[i] = lcg(&s) >> 4;
		sum += in[i];
		max = in[i] > max ? in[i] : max;
	}
	run_kernel(&m, "reduce_atomic", 3, 32, 3, &p, sizeof(p));
	ck_assert_uint_eq(out[0], sum);
	ck_assert_uint_eq(out[1], max);
	ck_assert_uint_eq(out[2], 3 * 32);
	ck_assert_uint_eq(out[3], 0);
	ppu_iss_fini(&m);
}
END_TEST

START_TEST(kernel_histogram)
{
	enum { N = 4000, BINS = 17 };
	struct histogram_params p = { N, BINS, A_PARAMS + 4 * (BINS + 1), A_PARAMS };
	uint32_t *in = host_ptr(p.in), *bins = host_ptr(p.bins), want[BINS + 1] = { 0 }, s = 3;
	struct ppu_iss m;
	unsigned int i;

	for (i = 0; i < N; i++) {
		in[i] = lcg(&s) % 1000;
		want[in[i] % BINS]++;
	}
	run_kernel(&m, "histogram", 2, 48, 1, &p, sizeof(p));
	for (i = 0; i <= BINS; i++)
		ck_assert_msg(bins[i] == want[i], "bin %u: %u, want %u", i, bins[i], want[i]);
	ppu_iss_fini(&m);
}
END_TEST

/* The checksum kernel's loop in plain C. */
static uint32_t checksum_ref(uint32_t seed, uint32_t id, uint32_t iters)
{
	uint32_t ring[8];

	return checksum_run(ring, seed, id, iters);
}

START_TEST(kernel_checksum)
{
	enum { GRID = 2, CTA = 16, ITERS = 2000 };
	struct checksum_params p = { ITERS, 0x1234abcd, A_PARAMS };
	uint32_t *out = host_ptr(p.out);
	struct ppu_iss m;
	unsigned int i;

	run_kernel(&m, "checksum", GRID, CTA, 2, &p, sizeof(p));
	for (i = 0; i < GRID * CTA; i++)
		ck_assert_msg(out[i] == checksum_ref(p.seed, i, ITERS), "thread %u: %#x, want %#x",
			      i, out[i], checksum_ref(p.seed, i, ITERS));
	ck_assert_uint_eq(out[GRID * CTA], 0);
	ck_assert_uint_gt(m.steps, (uint64_t)GRID * CTA * ITERS * 10);
	ppu_iss_fini(&m);
}
END_TEST

/* The barrier kernel's exchange with the barriers as rounds of a loop. */
static void barrier_ref(const struct barrier_params *p, uint32_t nt, uint32_t *out)
{
	uint32_t buf[2 * 64] = { 0 }, tid, r;

	ck_assert_uint_le(nt, 64);
	for (tid = 0; tid < p->active; tid++)
		buf[tid] = p->seed + tid * 7u;
	for (r = 0; r < p->rounds; r++) {
		const uint32_t *src = buf + (r & 1) * nt;
		uint32_t *dst = buf + ((r + 1) & 1) * nt;

		for (tid = 0; tid < p->active; tid++)
			if (!(tid & 1) || r < p->exit_round)
				dst[tid] = barrier_mix(src, tid, p->active, r);
	}
	for (tid = 0; tid < p->active; tid++) {
		r = (tid & 1) && p->exit_round < p->rounds ? p->exit_round : p->rounds;
		out[tid] = buf[(r & 1) * nt + tid];
	}
}

START_TEST(kernel_barrier_phases)
{
	enum { GRID = 2, CTA = 24, GUARD = 0xeeeeeeee };
	struct barrier_params p = { 9, 20, 4, 77, A_PARAMS, A_PARAMS + 4 * GRID * 2 * CTA };
	uint32_t *out = host_ptr(p.out), want[CTA];
	struct ppu_iss m;
	unsigned int c, i;

	for (i = 0; i < GRID * CTA; i++)
		out[i] = GUARD;
	barrier_ref(&p, CTA, want);
	run_kernel(&m, "barrier_phases", GRID, CTA, 2, &p, sizeof(p));
	for (c = 0; c < GRID; c++)
		for (i = 0; i < CTA; i++)
			ck_assert_msg(out[c * CTA + i] == (i < p.active ? want[i] : GUARD),
				      "cta %u thread %u: %#x, want %#x", c, i, out[c * CTA + i],
				      i < p.active ? want[i] : GUARD);
	/* 1 + 9 barriers for the even threads; the phase bit says an even count passed. */
	ck_assert_uint_eq(m.cta[0].phase, 0);
	ppu_iss_fini(&m);
}
END_TEST

/* The divergent kernel in plain C, with RISC-V's M-extension rules spelled out. */
static void divergent_ref(uint32_t a, uint32_t b, uint32_t *o)
{
	int32_t sa = (int32_t)a, sb = (int32_t)b;
	int64_t wide = (int64_t)sa * (int64_t)b;	/* signed x unsigned */
	uint32_t v = a | 1, steps = 0, f;

	o[0] = a * b;
	o[1] = (uint32_t)(((int64_t)sa * sb) >> 32);
	o[2] = (uint32_t)(wide >> 32);
	o[3] = (uint32_t)(((uint64_t)a * b) >> 32);
	o[4] = b == 0 ? 0xffffffff : (sa == INT32_MIN && sb == -1) ? a : (uint32_t)(sa / sb);
	o[5] = b == 0 ? 0xffffffff : a / b;
	o[6] = b == 0 ? a : (sa == INT32_MIN && sb == -1) ? 0 : (uint32_t)(sa % sb);
	o[7] = b == 0 ? a : a % b;
	while (v != 1 && steps < 100) {
		v = (v & 1) ? 3 * v + 1 : v >> 1;
		steps++;
	}
	switch (b % 6) {
	case 0: f = (uint32_t)(sa >> (b & 31)); break;
	case 1: f = a << (b & 31); break;
	case 2: f = sa < sb ? a - b : b - a; break;
	case 3: f = a < b ? ~a : a ^ b; break;
	case 4: f = a >> (b & 31); break;
	default: f = (a & 0xffff) * (b >> 16); break;
	}
	o[8] = f ^ (steps << 24) ^ v;
	o[9] = (uint32_t)(sa < 0) + (a < b) * 2 + (b == 0) * 4;
}

START_TEST(kernel_divergent)
{
	enum { N = 40, GRID = 3, CTA = 16, W = DIVERGENT_OUT_WORDS };
	static const uint32_t corner[][2] = {
		{ 0x80000000, 0xffffffff }, { 5, 0 }, { 0, 0 }, { 0xfffffff9, 2 },
		{ 7, 0xfffffffe }, { 0xffffffff, 0xffffffff }, { 0x80000000, 0x80000000 },
		{ 0x80000000, 0 }, { 0x7fffffff, 0xffffffff }, { 27, 3 }, { 1, 31 }, { 6, 32 },
	};
	struct divergent_params p = { N, A_PARAMS, A_PARAMS + 8 * N };
	uint32_t *in = host_ptr(p.in), *out = host_ptr(p.out), want[W], s = 4;
	struct ppu_iss m;
	unsigned int i, k;

	for (i = 0; i < N; i++) {
		in[2 * i] = i < 12 ? corner[i][0] : lcg(&s);
		in[2 * i + 1] = i < 12 ? corner[i][1] : (i & 1) ? lcg(&s) % 97 : lcg(&s);
	}
	for (i = 0; i < GRID * CTA * W; i++)
		out[i] = 0xdddddddd;
	run_kernel(&m, "divergent", GRID, CTA, 2, &p, sizeof(p));
	for (i = 0; i < GRID * CTA; i++) {
		if (i < N)
			divergent_ref(in[2 * i], in[2 * i + 1], want);
		for (k = 0; k < W; k++) {
			uint32_t w = i < N ? want[k] : 0xdddddddd;

			ck_assert_msg(out[i * W + k] == w,
				      "pair %u word %u (%#x, %#x): %#x, want %#x", i, k, in[2 * i],
				      in[2 * i + 1], out[i * W + k], w);
		}
	}
	ppu_iss_fini(&m);
}
END_TEST

/* The device header's ids and coordinates on a 3-D grid of 3-D CTAs. */
START_TEST(kernel_ids)
{
	enum { GX = 2, GY = 3, GZ = 2, CX = 4, CY = 2, CZ = 3 };
	enum { T = CX * CY * CZ, W = IDS_OUT_WORDS };
	struct ids_params p = { 0xffffffff, A_PARAMS };
	struct ppu_iss_launch l;
	struct ppu_iss m;
	uint32_t *out = host_ptr(p.out), c, i;

	launch_init(&l, CX);
	l.entry_pc = load_kernel("ids");
	l.cta_y = CY;
	l.cta_z = CZ;
	l.grid_x = GX;
	l.grid_y = GY;
	l.grid_z = GZ;
	l.slots = 3;
	l.prio = 40;
	l.depth = 2;
	l.maxdepth = 7;
	l.taskid = 9;
	memcpy(host_ptr(DATA), &p, sizeof(p));
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), 0);
	ck_assert_int_eq(ppu_iss_run(&m, MAX_STEPS), PPU_ISS_DONE);
	ck_assert_uint_eq(exits, GX * GY * GZ * T);
	for (c = 0; c < GX * GY * GZ; c++) {
		for (i = 0; i < T; i++) {
			const uint32_t want[W] = {
				i, T, c, GX * GY * GZ,
				i % CX, i / CX % CY, i / (CX * CY),
				c % GX, c / GX % GY, c / (GX * GY),
				CX << 16 | CY << 8 | CZ, GX << 16 | GY << 8 | GZ,
				GX * GY * GZ * T, 0, 40 << 16 | 2 << 8 | 7, 9,
				/* CTAs of equal length: CTA c ran in slot c % 3 */
				(c % 3) << 8 | i, 8 << 8 | 4, 1, 0x600d,
			};
			const uint32_t *o = out + W * (c * T + i);
			unsigned int k;

			for (k = 0; k < W; k++)
				ck_assert_msg(o[k] == want[k],
					      "cta %u thread %u word %u: %#x, want %#x", c, i, k,
					      o[k], want[k]);
		}
	}
	ppu_iss_fini(&m);
}
END_TEST

/* ppu_trap() from C: the channel fault names the thread and carries the code. */
START_TEST(kernel_trap)
{
	struct ids_params p = { 29, A_PARAMS };
	struct ppu_iss_launch l;
	struct ppu_iss m;
	struct ppu_iss_insn d;
	uint32_t word;

	launch_init(&l, 8);
	l.entry_pc = load_kernel("ids");
	l.grid_x = 5;
	l.slots = 2;
	memcpy(host_ptr(DATA), &p, sizeof(p));
	ck_assert_int_eq(ppu_iss_init(&m, &l, &test_mem), 0);
	ck_assert_int_eq(ppu_iss_run(&m, MAX_STEPS), PPU_ISS_FAULT);
	ck_assert_uint_eq(m.fault.kind, PPU_FAULT_KIND_KERNEL_TRAP);
	ck_assert_uint_eq(m.fault.data, IDS_TRAP_CODE);
	ck_assert_uint_eq(m.fault.cta_id, 3);
	ck_assert_uint_eq(m.fault.tid, 5);
	ck_assert_uint_eq(m.fault.slot, 1);
	ck_assert_uint_eq(m.fault.addr, m.fault.pc);
	/* The PC is the ecall itself. */
	word = rd32(m.fault.pc);
	ck_assert_int_eq(ppu_iss_decode(word, &d), 0);
	ck_assert_uint_eq(d.op, PPU_ISS_ECALL);
	ck_assert_uint_eq(ppu_iss_reg(&m, 1, 5, A7), PPU_ECALL_OP_TRAP);
	ppu_iss_fini(&m);
}
END_TEST

Suite *suite_iss(void)
{
	Suite *s = suite_create("iss");
	TCase *tc;

	tc = tcase_create("decode");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, encoders_match_assembler);
	tcase_add_test(tc, decoder_fields);
	tcase_add_test(tc, decoder_rejects_every_16_bit_encoding);
	tcase_add_test(tc, illegal_encodings);
	tcase_add_test(tc, legal_neighbours);
	suite_add_tcase(s, tc);

	tc = tcase_create("integer");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, thread_start_state);
	tcase_add_test(tc, alu_register);
	tcase_add_test(tc, alu_immediate);
	tcase_add_test(tc, alu_shifts);
	tcase_add_test(tc, m_extension);
	tcase_add_test(tc, branches);
	tcase_add_test(tc, backward_branch_loop);
	tcase_add_test(tc, jumps);
	tcase_add_test(tc, lui_auipc);
	suite_add_tcase(s, tc);

	tc = tcase_create("memory");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, loads_every_size_and_sign);
	tcase_add_test(tc, stores_every_size);
	tcase_add_test(tc, every_amo);
	tcase_add_test(tc, lr_sc_single_thread);
	tcase_add_test(tc, lr_sc_between_threads);
	tcase_add_test(tc, lr_sc_counter);
	tcase_add_test(tc, misaligned);
	tcase_add_test(tc, misaligned_branch_not_taken);
	tcase_add_test(tc, memory_faults);
	tcase_add_test(tc, fetch_fault);
	tcase_add_test(tc, sc_faults_only_when_it_writes);
	suite_add_tcase(s, tc);

	tc = tcase_create("ppu");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, csr_reads_every_csr);
	tcase_add_test(tc, csr_hook_overrides);
	tcase_add_test(tc, ecall_trap);
	tcase_add_test(tc, ecall_unknown_and_unmodelled_ops);
	tcase_add_test(tc, fault_stops_launch);
	tcase_add_test(tc, barrier_exchanges_values);
	tcase_add_test(tc, barrier_counts_only_live_threads);
	tcase_add_test(tc, barrier_released_by_exit);
	tcase_add_test(tc, round_robin_order);
	tcase_add_test(tc, round_robin_across_slots);
	tcase_add_test(tc, round_robin_skips_waiting_threads);
	tcase_add_test(tc, grid_through_slots);
	tcase_add_test(tc, cta_range);
	tcase_add_test(tc, init_rejects_bad_launches);
	tcase_add_test(tc, step_limit);
	suite_add_tcase(s, tc);

	tc = tcase_create("kernels");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, kernel_saxpy);
	tcase_add_test(tc, kernel_reduce_atomic);
	tcase_add_test(tc, kernel_histogram);
	tcase_add_test(tc, kernel_checksum);
	tcase_add_test(tc, kernel_barrier_phases);
	tcase_add_test(tc, kernel_divergent);
	tcase_add_test(tc, kernel_ids);
	tcase_add_test(tc, kernel_trap);
	suite_add_tcase(s, tc);
	return s;
}
