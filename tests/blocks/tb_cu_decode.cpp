// SPDX-License-Identifier: MIT
/*
 * ppu_cu_decode on its own (combinational): every field of the decoded
 * instruction is compared with a reference decoder written here from the
 * RISC-V unprivileged spec (RV32I, M, A, Zifencei, Zicsr reads only).
 *
 * The reference is a table of instructions, each a mask/match pair over
 * the word plus what the CU needs to know about it, in the style of the
 * spec's opcode listings; a word is legal when exactly one entry matches
 * (and, for a CSR read, its number is in ppu_compute.def).  That is a
 * different construction from the RTL's nested case on opcode and funct
 * fields, so the two do not share mistakes.  The CSR numbers are taken
 * from ppu_compute.def itself, not from the package the RTL uses.
 *
 * Words come from: every table entry with random free bits; every
 * opcode x funct3 x funct7 combination; every CSR number with every
 * funct3 and with zero and nonzero rs1/uimm; every funct12 of SYSTEM;
 * named words (MRET, WFI, compressed, RV64, ...); and over a million
 * random words, fully random and with a listed opcode forced.
 */
#include "Vppu_cu_decode.h"
#include "tb_common.h"

#include <cstring>
#include <string>
#include <vector>

namespace {

// ---- ppu_types_pkg encodings (internal to the RTL, mirrored here) ----
enum Unit : unsigned {
	U_ALU, U_BRANCH, U_JAL, U_JALR, U_LOAD, U_STORE, U_MULDIV, U_AMO,
	U_LR, U_SC, U_CSR, U_ECALL, U_EBREAK, U_FENCE, U_FENCE_I,
};
enum Alu : unsigned { A_ADD, A_SUB, A_SLL, A_SLT, A_SLTU, A_XOR, A_SRL, A_SRA, A_OR, A_AND, A_PASS_B };
enum Br : unsigned { BR_EQ = 0, BR_NE = 1, BR_LT = 4, BR_GE = 5, BR_LTU = 6, BR_GEU = 7 };
enum Md : unsigned { MD_MUL, MD_MULH, MD_MULHSU, MD_MULHU, MD_DIV, MD_DIVU, MD_REM, MD_REMU };
enum Amo : unsigned {
	AMO_ADD, AMO_SWAP, AMO_XOR, AMO_AND, AMO_OR, AMO_MIN, AMO_MAX, AMO_MINU, AMO_MAXU,
};
enum Size : unsigned { SZ_B, SZ_H, SZ_W };

// cu_dec_t, packed: the last member is at bit 0, so this reads bottom-up.
namespace dl {
constexpr Field csr = first(12), md = after(csr, 3), amo = after(md, 4),
		ls_unsigned = after(amo, 1), ls_size = after(ls_unsigned, 2),
		imm = after(ls_size, 32), rd_write = after(imm, 1), rs2_read = after(rd_write, 1),
		rs1_read = after(rs2_read, 1), rd = after(rs1_read, 5), rs2 = after(rd, 5),
		rs1 = after(rs2, 5), br = after(rs1, 3), b_imm = after(br, 1), a_pc = after(b_imm, 1),
		alu = after(a_pc, 4), unit = after(alu, 4), illegal = after(unit, 1);
constexpr unsigned W = end_of(illegal);
static_assert(W == 86, "cu_dec_t width");
} // namespace dl

// ---- CSR numbers, straight from the .def ----
struct DefValue {
	const char *group;
	unsigned value;
};
const DefValue COMPUTE_VALUES[] = {
#define PPU_OFFSET(g, n, v)
#define PPU_FIELD(g, n, hi, lo)
#define PPU_VALUE(g, n, v) {#g, (v)},
#define PPU_CONST(n, v)
#include "ppu/ppu_compute.def"
#undef PPU_OFFSET
#undef PPU_FIELD
#undef PPU_VALUE
#undef PPU_CONST
};

std::vector<unsigned> csr_list()
{
	std::vector<unsigned> v;
	for (const DefValue &d : COMPUTE_VALUES)
		if (!strcmp(d.group, "CSR"))
			v.push_back(d.value);
	return v;
}

bool csr_known(unsigned n)
{
	static const std::vector<unsigned> list = csr_list();
	for (unsigned c : list)
		if (c == n)
			return true;
	return false;
}

// ---- Reference decoder ----
uint32_t bits(uint32_t w, unsigned hi, unsigned lo) { return (w >> lo) & uint32_t(mask64(hi - lo + 1)); }
uint32_t sext(uint32_t v, unsigned width) { return (v ^ (1u << (width - 1))) - (1u << (width - 1)); }

enum Fmt { F_NONE, F_I, F_S, F_B, F_U, F_J, F_SH };

uint32_t imm_of(Fmt f, uint32_t w)
{
	switch (f) {
	case F_NONE:
		return 0;
	case F_I:
		return sext(bits(w, 31, 20), 12);
	case F_S:
		return sext(bits(w, 31, 25) << 5 | bits(w, 11, 7), 12);
	case F_B:
		return sext(bits(w, 31, 31) << 12 | bits(w, 7, 7) << 11 | bits(w, 30, 25) << 5 |
				    bits(w, 11, 8) << 1,
			    13);
	case F_U:
		return bits(w, 31, 12) << 12;
	case F_J:
		return sext(bits(w, 31, 31) << 20 | bits(w, 19, 12) << 12 | bits(w, 20, 20) << 11 |
				    bits(w, 30, 21) << 1,
			    21);
	case F_SH:
		return bits(w, 24, 20);
	}
	return 0;
}

struct Insn {
	const char *name;
	uint32_t mask, match;
	Fmt fmt;
	unsigned unit, alu;
	bool a_pc, b_imm;
	bool rs1r, rs2r, rdw;
	unsigned br, size;
	bool uns;
	unsigned amo, md;
};

// Major opcodes.
const uint32_t LOAD = 0x03, MISC_MEM = 0x0f, OP_IMM = 0x13, AUIPC = 0x17, STORE = 0x23, AMO = 0x2f,
	       OP = 0x33, LUI = 0x37, BRANCH = 0x63, JALR = 0x67, JAL = 0x6f, SYSTEM = 0x73;
const uint32_t M_OPC = 0x7f, M_F3 = 0x7000, M_F7 = 0xfe000000u, M_F5 = 0xf8000000u, M_RS1 = 0xf8000,
	       M_RS2 = 0x1f00000;

uint32_t f3(unsigned v) { return v << 12; }
uint32_t f7(unsigned v) { return v << 25; }
uint32_t f5(unsigned v) { return v << 27; }

std::vector<Insn> build_table()
{
	std::vector<Insn> t;
	auto add = [&](const char *n, uint32_t mask, uint32_t match, Fmt fmt, unsigned unit, unsigned alu,
		       bool a_pc, bool b_imm, bool rs1r, bool rs2r, bool rdw) {
		Insn i{};
		i.name = n;
		i.mask = mask;
		i.match = match;
		i.fmt = fmt;
		i.unit = unit;
		i.alu = alu;
		i.a_pc = a_pc;
		i.b_imm = b_imm;
		i.rs1r = rs1r;
		i.rs2r = rs2r;
		i.rdw = rdw;
		t.push_back(i);
		return &t.back();
	};
	const uint32_t MI = M_OPC | M_F3, MR = M_OPC | M_F3 | M_F7;

	add("lui", M_OPC, LUI, F_U, U_ALU, A_PASS_B, false, true, false, false, true);
	add("auipc", M_OPC, AUIPC, F_U, U_ALU, A_ADD, true, true, false, false, true);
	add("jal", M_OPC, JAL, F_J, U_JAL, A_ADD, true, true, false, false, true);
	add("jalr", MI, JALR | f3(0), F_I, U_JALR, A_ADD, false, true, true, false, true);

	const struct {
		const char *n;
		unsigned f3, br;
	} brs[] = {{"beq", 0, BR_EQ}, {"bne", 1, BR_NE}, {"blt", 4, BR_LT},
		   {"bge", 5, BR_GE}, {"bltu", 6, BR_LTU}, {"bgeu", 7, BR_GEU}};
	for (const auto &b : brs)
		add(b.n, MI, BRANCH | f3(b.f3), F_B, U_BRANCH, A_ADD, false, false, true, true, false)->br = b.br;

	const struct {
		const char *n;
		unsigned f3, size;
		bool uns;
	} lds[] = {{"lb", 0, SZ_B, false}, {"lh", 1, SZ_H, false}, {"lw", 2, SZ_W, false},
		   {"lbu", 4, SZ_B, true}, {"lhu", 5, SZ_H, true}};
	for (const auto &l : lds) {
		Insn *i = add(l.n, MI, LOAD | f3(l.f3), F_I, U_LOAD, A_ADD, false, true, true, false, true);
		i->size = l.size;
		i->uns = l.uns;
	}
	const struct {
		const char *n;
		unsigned f3, size;
	} sts[] = {{"sb", 0, SZ_B}, {"sh", 1, SZ_H}, {"sw", 2, SZ_W}};
	for (const auto &s : sts)
		add(s.n, MI, STORE | f3(s.f3), F_S, U_STORE, A_ADD, false, true, true, true, false)->size = s.size;

	const struct {
		const char *n;
		unsigned f3, alu;
	} ois[] = {{"addi", 0, A_ADD}, {"slti", 2, A_SLT}, {"sltiu", 3, A_SLTU},
		   {"xori", 4, A_XOR}, {"ori", 6, A_OR},    {"andi", 7, A_AND}};
	for (const auto &o : ois)
		add(o.n, MI, OP_IMM | f3(o.f3), F_I, U_ALU, o.alu, false, true, true, false, true);
	// RV32 shift immediates: imm[11:5] is funct7, shamt[5] must be 0.
	add("slli", MR, OP_IMM | f3(1) | f7(0x00), F_SH, U_ALU, A_SLL, false, true, true, false, true);
	add("srli", MR, OP_IMM | f3(5) | f7(0x00), F_SH, U_ALU, A_SRL, false, true, true, false, true);
	add("srai", MR, OP_IMM | f3(5) | f7(0x20), F_SH, U_ALU, A_SRA, false, true, true, false, true);

	const struct {
		const char *n;
		unsigned f7, f3, alu;
	} ops[] = {{"add", 0x00, 0, A_ADD},  {"sub", 0x20, 0, A_SUB}, {"sll", 0x00, 1, A_SLL},
		   {"slt", 0x00, 2, A_SLT},  {"sltu", 0x00, 3, A_SLTU}, {"xor", 0x00, 4, A_XOR},
		   {"srl", 0x00, 5, A_SRL},  {"sra", 0x20, 5, A_SRA},  {"or", 0x00, 6, A_OR},
		   {"and", 0x00, 7, A_AND}};
	for (const auto &o : ops)
		add(o.n, MR, OP | f3(o.f3) | f7(o.f7), F_NONE, U_ALU, o.alu, false, false, true, true, true);

	const char *mds[] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
	for (unsigned m = 0; m < 8; m++)
		add(mds[m], MR, OP | f3(m) | f7(0x01), F_NONE, U_MULDIV, A_ADD, false, false, true, true, true)->md = m;

	// A: .W only (funct3 010); aq/rl (bits 26:25) are free.
	const uint32_t MA = M_OPC | M_F3 | M_F5;
	Insn *lr = add("lr.w", MA | M_RS2, AMO | f3(2) | f5(0x02), F_NONE, U_LR, A_ADD, false, true, true, false, true);
	lr->size = SZ_W;
	add("sc.w", MA, AMO | f3(2) | f5(0x03), F_NONE, U_SC, A_ADD, false, true, true, true, true)->size = SZ_W;
	const struct {
		const char *n;
		unsigned f5, amo;
	} amos[] = {{"amoadd.w", 0x00, AMO_ADD},   {"amoswap.w", 0x01, AMO_SWAP}, {"amoxor.w", 0x04, AMO_XOR},
		    {"amoand.w", 0x0c, AMO_AND},   {"amoor.w", 0x08, AMO_OR},     {"amomin.w", 0x10, AMO_MIN},
		    {"amomax.w", 0x14, AMO_MAX},   {"amominu.w", 0x18, AMO_MINU}, {"amomaxu.w", 0x1c, AMO_MAXU}};
	for (const auto &a : amos) {
		Insn *i = add(a.n, MA, AMO | f3(2) | f5(a.f5), F_NONE, U_AMO, A_ADD, false, true, true, true, true);
		i->size = SZ_W;
		i->amo = a.amo;
	}

	// Reserved fields of FENCE and FENCE.I are ignored (spec: base
	// implementations shall ignore them / treat them as a normal fence).
	add("fence", MI, MISC_MEM | f3(0), F_NONE, U_FENCE, A_ADD, false, false, false, false, false);
	add("fence.i", MI, MISC_MEM | f3(1), F_NONE, U_FENCE_I, A_ADD, false, false, false, false, false);
	add("ecall", 0xffffffffu, 0x00000073, F_NONE, U_ECALL, A_ADD, false, false, false, false, false);
	add("ebreak", 0xffffffffu, 0x00100073, F_NONE, U_EBREAK, A_ADD, false, false, false, false, false);

	// Zicsr: only the forms that do not write (rs1 / uimm field = 0).
	const struct {
		const char *n;
		unsigned f3;
	} csrs[] = {{"csrrs-read", 2}, {"csrrc-read", 3}, {"csrrsi-read", 6}, {"csrrci-read", 7}};
	for (const auto &c : csrs)
		add(c.n, M_OPC | M_F3 | M_RS1, SYSTEM | f3(c.f3), F_NONE, U_CSR, A_ADD, false, false, false, false,
		    true);
	return t;
}

const std::vector<Insn> &table()
{
	static const std::vector<Insn> t = build_table();
	return t;
}

bool is_csr_entry(const Insn &i) { return i.unit == U_CSR; }

struct Dec {
	bool illegal = false;
	unsigned unit = 0, alu = 0;
	bool a_pc = false, b_imm = false;
	unsigned br = 0, rs1 = 0, rs2 = 0, rd = 0;
	bool rs1_read = false, rs2_read = false, rd_write = false;
	uint32_t imm = 0;
	unsigned ls_size = 0;
	bool ls_unsigned = false;
	unsigned amo = 0, md = 0, csr = 0;
	const char *name = "illegal";
};

// The entry a word matches, or null when none does (or, a table bug, more
// than one: the table's own test catches that).
const Insn *lookup(uint32_t w, unsigned *nmatch = nullptr)
{
	const Insn *hit = nullptr;
	unsigned n = 0;
	for (const Insn &i : table())
		if ((w & i.mask) == i.match) {
			hit = &i;
			n++;
		}
	if (nmatch)
		*nmatch = n;
	return hit;
}

Dec ref_decode(uint32_t w)
{
	Dec d;
	d.rs1 = bits(w, 19, 15);
	d.rs2 = bits(w, 24, 20);
	d.rd = bits(w, 11, 7);
	const Insn *i = lookup(w);
	if (!i || (is_csr_entry(*i) && !csr_known(bits(w, 31, 20)))) {
		d.illegal = true;
		return d;
	}
	d.name = i->name;
	d.unit = i->unit;
	d.alu = i->alu;
	d.a_pc = i->a_pc;
	d.b_imm = i->b_imm;
	d.br = i->br;
	d.rs1_read = i->rs1r;
	d.rs2_read = i->rs2r;
	d.rd_write = i->rdw && d.rd != 0;
	d.imm = imm_of(i->fmt, w);
	d.ls_size = i->size;
	d.ls_unsigned = i->uns;
	d.amo = i->amo;
	d.md = i->md;
	d.csr = is_csr_entry(*i) ? bits(w, 31, 20) : 0;
	return d;
}

// ---- The DUT ----
struct DecodeDut {
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vppu_cu_decode> m;
	uint64_t checked = 0, legal = 0;

	DecodeDut() : ctx(new VerilatedContext) { m.reset(new Vppu_cu_decode(ctx.get(), "dut")); }
	~DecodeDut() { m->final(); }

	// Compares every field; the whole struct first, which is the fast path.
	void check(uint32_t w, const char *what)
	{
		m->instr = w;
		m->eval();
		Dec e = ref_decode(w);
		VlWide<3> exp;
		clear(exp);
		set(exp, dl::illegal, e.illegal);
		set(exp, dl::unit, e.unit);
		set(exp, dl::alu, e.alu);
		set(exp, dl::a_pc, e.a_pc);
		set(exp, dl::b_imm, e.b_imm);
		set(exp, dl::br, e.br);
		set(exp, dl::rs1, e.rs1);
		set(exp, dl::rs2, e.rs2);
		set(exp, dl::rd, e.rd);
		set(exp, dl::rs1_read, e.rs1_read);
		set(exp, dl::rs2_read, e.rs2_read);
		set(exp, dl::rd_write, e.rd_write);
		set(exp, dl::imm, e.imm);
		set(exp, dl::ls_size, e.ls_size);
		set(exp, dl::ls_unsigned, e.ls_unsigned);
		set(exp, dl::amo, e.amo);
		set(exp, dl::md, e.md);
		set(exp, dl::csr, e.csr);
		checked++;
		legal += !e.illegal;
		if (same(m->dec, exp) && get(m->dec, Field{dl::W, 96 - dl::W}) == 0)
			return;
		TB_CTX("%s: word %08x (%s)", what, w, e.name);
		const auto &g = m->dec;
		TB_EQ(get(g, dl::illegal), e.illegal);
		TB_EQ(get(g, dl::unit), e.unit);
		TB_EQ(get(g, dl::alu), e.alu);
		TB_EQ(get(g, dl::a_pc), e.a_pc);
		TB_EQ(get(g, dl::b_imm), e.b_imm);
		TB_EQ(get(g, dl::br), e.br);
		TB_EQ(get(g, dl::rs1), e.rs1);
		TB_EQ(get(g, dl::rs2), e.rs2);
		TB_EQ(get(g, dl::rd), e.rd);
		TB_EQ(get(g, dl::rs1_read), e.rs1_read);
		TB_EQ(get(g, dl::rs2_read), e.rs2_read);
		TB_EQ(get(g, dl::rd_write), e.rd_write);
		TB_EQ(get(g, dl::imm), e.imm);
		TB_EQ(get(g, dl::ls_size), e.ls_size);
		TB_EQ(get(g, dl::ls_unsigned), e.ls_unsigned);
		TB_EQ(get(g, dl::amo), e.amo);
		TB_EQ(get(g, dl::md), e.md);
		TB_EQ(get(g, dl::csr), e.csr);
		TB_FAIL("%s: word %08x: output differs from the reference outside the fields", what, w);
	}

	// What the RTL says, for directed expectations.
	bool illegal(uint32_t w)
	{
		m->instr = w;
		m->eval();
		return get(m->dec, dl::illegal);
	}
	unsigned unit(uint32_t w)
	{
		m->instr = w;
		m->eval();
		return unsigned(get(m->dec, dl::unit));
	}
};

} // namespace

// ---- The reference itself ----

START_TEST(reference_table_entries_do_not_overlap)
{
	Rng r(1);
	for (const Insn &i : table()) {
		for (unsigned k = 0; k < 256; k++) {
			uint32_t w = i.match | (r.u32() & ~i.mask);
			unsigned n = 0;
			lookup(w, &n);
			TB_CTX("table entry %s, word %08x", i.name, w);
			TB_EQ(n, 1);
		}
	}
	TB_CTX("CSR numbers in ppu_compute.def");
	TB_EQ(csr_list().size(), 26);
	TB_TRUE(csr_known(PPU_CSR_CYCLE) && csr_known(PPU_CSR_NUM_CU) && !csr_known(0x300));
}
END_TEST

// ---- Legal instructions ----

START_TEST(every_listed_instruction_decodes_every_field_with_random_operands)
{
	DecodeDut d;
	Rng r(2);
	for (const Insn &i : table()) {
		for (unsigned k = 0; k < 4000; k++) {
			uint32_t w = i.match | (r.u32() & ~i.mask);
			if (is_csr_entry(i) && k % 2 == 0) // a listed number half of the time
				w = (w & 0xfffff) | csr_list()[r.below(unsigned(csr_list().size()))] << 20;
			d.check(w, i.name);
		}
		// Register fields at the extremes: x0 (not written) and x31.
		for (unsigned reg : {0u, 31u}) {
			uint32_t w = i.match | (r.u32() & ~i.mask);
			if (is_csr_entry(i))
				w = (w & 0xfffff) | PPU_CSR_TID << 20;
			const uint32_t fields = 0x1fu << 7 | 0x1fu << 15 | 0x1fu << 20;
			uint32_t regs = reg << 7 | reg << 15 | reg << 20;
			w = (w & ~(fields & ~i.mask)) | (regs & ~i.mask); // fixed bits stay
			d.check(w, i.name);
		}
	}
	TB_CTX("legal words seen");
	TB_TRUE(d.legal > d.checked / 2);
}
END_TEST

START_TEST(rd_x0_is_never_written_but_the_instruction_stays_legal)
{
	DecodeDut d;
	Rng r(3);
	for (const Insn &i : table()) {
		for (unsigned k = 0; k < 64; k++) {
			uint32_t w = (i.match | (r.u32() & ~i.mask)) & ~(0x1fu << 7);
			if (is_csr_entry(i))
				w = (w & 0xfffff) | PPU_CSR_CYCLE << 20;
			if ((w & i.mask) != i.match) // every entry leaves rd free or 0
				TB_FAIL("%s: rd is a fixed nonzero field", i.name);
			d.check(w, i.name);
			TB_CTX("%s with rd = x0: %08x", i.name, w);
			TB_TRUE(!d.illegal(w));
		}
	}
}
END_TEST

START_TEST(immediates_of_every_format_at_their_extremes)
{
	DecodeDut d;
	// All-ones and all-zeros outside the fixed bits: every immediate bit at
	// both values, with the sign bit both ways.
	for (const Insn &i : table())
		for (uint32_t fill : {0u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0xaaaaaaaau, 0x55555555u}) {
			uint32_t w = i.match | (fill & ~i.mask);
			if (is_csr_entry(i))
				w = (w & 0xfffff) | PPU_CSR_PARAM << 20;
			d.check(w, i.name);
		}
	// Each immediate bit alone (one-hot over bits 7..31).
	for (const Insn &i : table())
		for (unsigned b = 7; b < 32; b++)
			d.check(i.match | ((1u << b) & ~i.mask), i.name);
}
END_TEST

// ---- Every funct combination ----

START_TEST(every_opcode_funct3_funct7_combination_matches_the_reference)
{
	DecodeDut d;
	Rng r(5);
	for (uint32_t opc = 0; opc < 128; opc++)
		for (uint32_t fn3 = 0; fn3 < 8; fn3++)
			for (uint32_t fn7 = 0; fn7 < 128; fn7++)
				for (unsigned k = 0; k < 3; k++) {
					// rd/rs1/rs2 random, x0 in some of them
					uint32_t regs = r.u32() & (0x1fu << 7 | 0x1fu << 15 | 0x1fu << 20);
					if (k == 0)
						regs = 0;
					d.check(opc | fn3 << 12 | fn7 << 25 | regs, "opcode/funct3/funct7 sweep");
				}
	TB_CTX("sweep");
	TB_EQ(d.checked, 128u * 8 * 128 * 3);
}
END_TEST

START_TEST(amo_funct5_sweep_with_aq_rl_and_lr_rs2)
{
	DecodeDut d;
	Rng r(6);
	for (uint32_t fn3 = 0; fn3 < 8; fn3++)
		for (uint32_t fn5 = 0; fn5 < 32; fn5++)
			for (uint32_t aqrl = 0; aqrl < 4; aqrl++)
				for (uint32_t rs2 = 0; rs2 < 32; rs2++) {
					uint32_t w = AMO | fn3 << 12 | fn5 << 27 | aqrl << 25 | rs2 << 20 |
						     (r.u32() & (0x1fu << 7 | 0x1fu << 15));
					d.check(w, "AMO sweep");
				}
	TB_CTX("lr.w needs rs2 = 0");
	TB_TRUE(!d.illegal(0x1000202f | 1u << 15 | 5u << 7));
	TB_TRUE(d.illegal(0x1000202f | 1u << 20));
	TB_CTX("aq/rl are ignored");
	for (uint32_t aqrl = 0; aqrl < 4; aqrl++) {
		TB_EQ(d.unit(0x0800202f | aqrl << 25), U_AMO);
		TB_EQ(d.unit(0x1800202f | aqrl << 25), U_SC);
		TB_EQ(d.unit(0x1000202f | aqrl << 25), U_LR);
	}
	TB_CTX("amo*.d (funct3 011) is RV64");
	TB_TRUE(d.illegal(0x0800302f));
}
END_TEST

// ---- CSRs ----

START_TEST(csr_reads_are_legal_only_for_listed_numbers_and_writes_are_illegal)
{
	DecodeDut d;
	Rng r(7);
	unsigned reads = 0;
	for (uint32_t csr = 0; csr < 4096; csr++)
		for (uint32_t fn3 = 0; fn3 < 8; fn3++)
			for (uint32_t src : {0u, 1u + r.below(31), 31u}) {
				uint32_t rd = r.below(32);
				uint32_t w = SYSTEM | rd << 7 | fn3 << 12 | src << 15 | csr << 20;
				d.check(w, "CSR sweep");
				bool read_form = (fn3 == 2 || fn3 == 3 || fn3 == 6 || fn3 == 7) && src == 0;
				if (fn3 != 0 && fn3 != 4) { // 0 is ecall/ebreak, 4 unassigned
					reads += !d.illegal(w);
					TB_CTX("csr %03x funct3 %u rs1/uimm %u", csr, fn3, src);
					TB_EQ(d.illegal(w), !(read_form && csr_known(csr)));
				}
			}
	TB_CTX("reads accepted");
	TB_EQ(reads, 26u * 4);
	TB_CTX("named cases");
	TB_TRUE(!d.illegal(0xc0002073 | 10u << 7));             // csrr a0, cycle (csrrs a0, cycle, x0)
	TB_TRUE(!d.illegal(0xcc003073 | 10u << 7));             // csrrc a0, tid, x0
	TB_TRUE(!d.illegal(0xcd306073 | 10u << 7));             // csrrsi a0, num_cu, 0
	TB_TRUE(!d.illegal(0xc0002073));                        // csrr x0, cycle: a read into x0
	TB_TRUE(d.illegal(0xc0001073));                         // csrrw x0, cycle, x0: a write
	TB_TRUE(d.illegal(0xc0005073 | 10u << 7));              // csrrwi a0, cycle, 0: a write
	TB_TRUE(d.illegal(0xc0002073 | 10u << 7 | 5u << 15));   // csrrs a0, cycle, t0: sets bits
	TB_TRUE(d.illegal(0xc0007073 | 10u << 7 | 1u << 15));   // csrrci a0, cycle, 1: clears bits
	TB_TRUE(d.illegal(0xc0302073 | 10u << 7));              // csrr a0, hpmcounter3: not listed
	TB_TRUE(d.illegal(0x30002073 | 10u << 7));              // csrr a0, mstatus: not listed
	TB_TRUE(d.illegal(0xcd402073 | 10u << 7));              // 0xcd4: one past the list
	TB_TRUE(d.illegal(0xcbf02073 | 10u << 7));              // 0xcbf: one before it
}
END_TEST

// ---- SYSTEM funct3 000 and MISC-MEM ----

START_TEST(system_funct3_0_is_only_the_exact_ecall_and_ebreak_words)
{
	DecodeDut d;
	for (uint32_t f12 = 0; f12 < 4096; f12++)
		for (uint32_t rs1 : {0u, 1u, 31u})
			for (uint32_t rd : {0u, 1u, 31u})
				d.check(SYSTEM | rd << 7 | rs1 << 15 | f12 << 20, "SYSTEM funct3 0 sweep");
	TB_CTX("named SYSTEM words");
	TB_EQ(d.unit(0x00000073), U_ECALL);
	TB_EQ(d.unit(0x00100073), U_EBREAK);
	const uint32_t illegal_words[] = {
		0x30200073, // mret
		0x10200073, // sret
		0x00200073, // uret
		0x10500073, // wfi
		0x12000073, // sfence.vma x0, x0
		0x7b200073, // dret
		0x00000873, // ecall with rd = x16
		0x00008073, // ecall with rs1 = x1
		0x00104073, // SYSTEM funct3 100 (hypervisor loads on RV64H)
	};
	for (uint32_t w : illegal_words) {
		TB_CTX("SYSTEM word %08x", w);
		TB_TRUE(d.illegal(w));
		d.check(w, "named SYSTEM word");
	}
}
END_TEST

START_TEST(every_fence_form_is_a_fence_and_fence_i_ignores_its_fields)
{
	DecodeDut d;
	Rng r(8);
	for (unsigned k = 0; k < 20000; k++) {
		uint32_t w = (r.u32() & ~0x707fu) | MISC_MEM | f3(k % 2);
		d.check(w, "MISC-MEM funct3 000/001");
		TB_CTX("fence word %08x", w);
		TB_EQ(d.unit(w), (k % 2) ? U_FENCE_I : U_FENCE);
	}
	const uint32_t fences[] = {
		0x0ff0000f, // fence iorw, iorw
		0x8330000f, // fence.tso
		0x0100000f, // pause
		0xf330000f, // reserved fm = 1111
		0x0000000f, // fence with empty sets
		0x0ff5850f, // fence iorw, iorw with rs1 = a1, rd = a0 (reserved, ignored)
	};
	for (uint32_t w : fences) {
		TB_CTX("fence word %08x", w);
		TB_EQ(d.unit(w), U_FENCE);
		TB_TRUE(!d.illegal(w));
		d.check(w, "named fence");
	}
	for (uint32_t fn3 = 2; fn3 < 8; fn3++) { // cbo.*, lq and the unassigned rest
		uint32_t w = MISC_MEM | f3(fn3);
		TB_CTX("MISC-MEM funct3 %u", fn3);
		TB_TRUE(d.illegal(w));
	}
}
END_TEST

// ---- Illegal words ----

START_TEST(named_illegal_words_are_illegal)
{
	DecodeDut d;
	const struct {
		uint32_t w;
		const char *what;
	} words[] = {
		{0x00000000, "all zeros"},
		{0xffffffff, "all ones"},
		{0x00000001, "c.nop (compressed, quadrant 1)"},
		{0x00004501, "c.li a0, 0 (compressed)"},
		{0x00000013 & ~3u, "addi x0,x0,0 with low bits 00"},
		{0x00b50533 & ~1u, "add with low bits 10"},
		{0x00b50533 & ~2u, "add with low bits 01"},
		{0x0000001f, "48-bit encoding prefix"},
		{0x0000003f, "64-bit encoding prefix"},
		{0x0000007f, "80-bit+ encoding prefix"},
		{0x0005051b, "addiw (RV64)"},
		{0x00b5053b, "addw (RV64)"},
		{0x02b5053b, "mulw (RV64)"},
		{0x00053503, "ld (RV64)"},
		{0x00a53023, "sd (RV64)"},
		{0x00056503, "lwu (RV64)"},
		{0x02051513, "slli a0, a0, 32 (shamt[5] set)"},
		{0x40051513, "slli with funct7 0100000"},
		{0x60055513, "srai with funct7 0110000"},
		{0x40b51533, "sll with funct7 0100000"},
		{0x40b56533, "or with funct7 0100000"},
		{0x20b50533, "add with funct7 0010000"},
		{0x00051567, "jalr with funct3 101"},
		{0x00a52063, "branch funct3 010"},
		{0x00a53063, "branch funct3 011"},
		{0x00a53023, "store funct3 011"},
		{0x00a54023, "store funct3 100"},
		{0x00056503, "load funct3 110"},
		{0x00057503, "load funct3 111"},
		{0x00052507, "flw (F extension)"},
		{0x00a52027, "fsw (F extension)"},
		{0x00b50553, "fadd.s (F extension)"},
		{0x0000200f, "MISC-MEM funct3 010"},
		{0x00b5050b, "custom-0"},
	};
	for (const auto &x : words) {
		TB_CTX("%s: %08x", x.what, x.w);
		TB_TRUE(d.illegal(x.w));
		d.check(x.w, x.what);
	}
	// Every compressed quadrant with the upper bits of a legal instruction.
	Rng r(9);
	for (unsigned k = 0; k < 30000; k++) {
		const Insn &i = table()[r.below(unsigned(table().size()))];
		uint32_t w = (i.match | (r.u32() & ~i.mask)) & ~3u;
		w |= r.below(3);
		TB_CTX("%s with low bits %u: %08x", i.name, w & 3, w);
		TB_TRUE(d.illegal(w));
	}
}
END_TEST

// ---- Random words ----

START_TEST(random_words_match_the_reference)
{
	DecodeDut d;
	Rng r(10);
	for (unsigned k = 0; k < 1000000; k++)
		d.check(r.u32(), "random word");
	TB_CTX("fully random words");
	TB_EQ(d.checked, 1000000u);
	// Random words are legal about 1 time in 100; forcing a listed opcode
	// reaches the funct and register-field checks far more often.
	const uint32_t opcodes[] = {LOAD, MISC_MEM, OP_IMM, AUIPC, STORE, AMO, OP, LUI, BRANCH, JALR, JAL, SYSTEM};
	for (uint32_t opc : opcodes)
		for (unsigned k = 0; k < 40000; k++)
			d.check((r.u32() & ~0x7fu) | opc, "random word with a listed opcode");
	TB_CTX("legal words seen");
	TB_TRUE(d.legal > 150000);
}
END_TEST

int main()
{
	return tb_run_suite("cu_decode", {
		reference_table_entries_do_not_overlap,
		every_listed_instruction_decodes_every_field_with_random_operands,
		rd_x0_is_never_written_but_the_instruction_stays_legal,
		immediates_of_every_format_at_their_extremes,
		every_opcode_funct3_funct7_combination_matches_the_reference,
		amo_funct5_sweep_with_aq_rl_and_lr_rs2,
		csr_reads_are_legal_only_for_listed_numbers_and_writes_are_illegal,
		system_funct3_0_is_only_the_exact_ecall_and_ebreak_words,
		every_fence_form_is_a_fence_and_fence_i_ignores_its_fields,
		named_illegal_words_are_illegal,
		random_words_match_the_reference,
	});
}
