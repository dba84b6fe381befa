// SPDX-License-Identifier: MIT
/*
 * ppu_cu_alu on its own (combinational): result for every ALU op and taken
 * for every branch condition, against a reference written here from the
 * RISC-V spec.  Operands: every pair of corner values (0, 1, -1, INT_MIN,
 * INT_MAX, 2, -2, the shift-amount edges 31/32/33/63 and bit patterns),
 * every shift amount 0..31 with random upper bits in b (RV32 uses b[4:0]
 * only), equal and off-by-one operands for the compares, and random pairs.
 */
#include "Vppu_cu_alu.h"
#include "tb_common.h"

#include <vector>

namespace {

// ---- ppu_types_pkg encodings (internal to the RTL, mirrored here) ----
enum Alu : unsigned { A_ADD, A_SUB, A_SLL, A_SLT, A_SLTU, A_XOR, A_SRL, A_SRA, A_OR, A_AND, A_PASS_B };
const unsigned NALU = A_PASS_B + 1;
const char *const ALU_NAME[NALU] = {"add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and", "pass_b"};
enum Br : unsigned { BR_EQ = 0, BR_NE = 1, BR_LT = 4, BR_GE = 5, BR_LTU = 6, BR_GEU = 7 };
const unsigned BRS[] = {BR_EQ, BR_NE, BR_LT, BR_GE, BR_LTU, BR_GEU};
const char *br_name(unsigned br)
{
	switch (br) {
	case BR_EQ: return "beq";
	case BR_NE: return "bne";
	case BR_LT: return "blt";
	case BR_GE: return "bge";
	case BR_LTU: return "bltu";
	case BR_GEU: return "bgeu";
	}
	return "?";
}

// ---- Reference ----
// Signed compare by flipping the sign bits into unsigned order, and the
// arithmetic shift built from the logical one, so nothing here leans on
// implementation-defined C++ behaviour.
bool slt(uint32_t a, uint32_t b) { return (a ^ 0x80000000u) < (b ^ 0x80000000u); }

uint32_t ref_alu(unsigned op, uint32_t a, uint32_t b)
{
	unsigned sh = b & 31;
	switch (op) {
	case A_ADD: return a + b;
	case A_SUB: return a - b;
	case A_SLL: return a << sh;
	case A_SLT: return slt(a, b);
	case A_SLTU: return a < b;
	case A_XOR: return a ^ b;
	case A_SRL: return a >> sh;
	case A_SRA: return (a >> sh) | ((a >> 31) && sh ? ~0u << (32 - sh) : 0u);
	case A_OR: return a | b;
	case A_AND: return a & b;
	case A_PASS_B: return b;
	}
	TB_FAIL("ref_alu: op %u", op);
	return 0;
}

bool ref_taken(unsigned br, uint32_t a, uint32_t b)
{
	switch (br) {
	case BR_EQ: return a == b;
	case BR_NE: return a != b;
	case BR_LT: return slt(a, b);
	case BR_GE: return !slt(a, b);
	case BR_LTU: return a < b;
	case BR_GEU: return a >= b;
	}
	TB_FAIL("ref_taken: br %u", br);
	return false;
}

const uint32_t CORNERS[] = {
	0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 2, 0xfffffffeu,
	31, 32, 33, 63, 0x80000001u, 0x55555555u, 0xaaaaaaaau, 0x0000ffffu, 0xffff0000u,
};

struct AluDut {
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vppu_cu_alu> m;
	uint64_t checked = 0;

	AluDut() : ctx(new VerilatedContext) { m.reset(new Vppu_cu_alu(ctx.get(), "dut")); }
	~AluDut() { m->final(); }

	// One evaluation checks an ALU op and a branch condition at once: the
	// two outputs share the operands but not the select.
	void check(unsigned op, unsigned br, uint32_t a, uint32_t b)
	{
		m->a = a;
		m->b = b;
		m->op = op;
		m->br = br;
		m->eval();
		checked++;
		uint32_t er = ref_alu(op, a, b);
		bool et = ref_taken(br, a, b);
		if (m->result == er && m->taken == et)
			return;
		TB_CTX("%s / %s a %08x b %08x", ALU_NAME[op], br_name(br), a, b);
		TB_EQ(m->result, er);
		TB_EQ(m->taken, et);
	}
};

} // namespace

START_TEST(every_op_on_every_pair_of_corner_values)
{
	AluDut d;
	unsigned k = 0;
	for (uint32_t a : CORNERS)
		for (uint32_t b : CORNERS)
			for (unsigned op = 0; op < NALU; op++)
				for (unsigned br : BRS)
					d.check(op, br, a, b), k++;
	TB_CTX("corner pairs");
	TB_EQ(d.checked, k);
}
END_TEST

START_TEST(shifts_use_only_the_low_five_bits_of_b)
{
	AluDut d;
	Rng r(1);
	const uint32_t values[] = {0x80000000u, 0xffffffffu, 1, 0x7fffffffu, 0x12345678u, 0x87654321u, 0};
	for (unsigned op : {A_SLL, A_SRL, A_SRA})
		for (uint32_t a : values)
			for (unsigned amt = 0; amt < 32; amt++) {
				d.check(op, BR_EQ, a, amt);
				d.check(op, BR_EQ, a, amt | 32);           // 32..63: masked
				d.check(op, BR_EQ, a, amt | (r.u32() & ~31u)); // any upper bits
			}
	TB_CTX("named shifts");
	d.m->op = A_SRA;
	d.m->a = 0x80000000u;
	d.m->b = 31;
	d.m->eval();
	TB_EQ(d.m->result, 0xffffffffu);
	d.m->b = 32; // shamt 0
	d.m->eval();
	TB_EQ(d.m->result, 0x80000000u);
	d.m->op = A_SLL;
	d.m->a = 1;
	d.m->b = 33; // shamt 1
	d.m->eval();
	TB_EQ(d.m->result, 2u);
}
END_TEST

START_TEST(compares_around_equal_and_across_the_sign_boundary)
{
	AluDut d;
	Rng r(2);
	for (unsigned k = 0; k < 20000; k++) {
		uint32_t a = k < 16 ? CORNERS[k] : r.u32();
		for (int delta : {-1, 0, 1}) {
			uint32_t b = a + uint32_t(delta);
			for (unsigned br : BRS) {
				d.check(A_SLT, br, a, b);
				d.check(A_SLTU, br, b, a);
				d.check(A_SUB, br, a ^ 0x80000000u, b);
			}
		}
	}
	TB_CTX("named compares");
	d.check(A_SLT, BR_LT, 0x80000000u, 0x7fffffffu);  // INT_MIN < INT_MAX signed
	d.check(A_SLTU, BR_LTU, 0x7fffffffu, 0x80000000u); // and unsigned the other way
	d.m->op = A_SLT;
	d.m->br = BR_GE;
	d.m->a = 0xffffffffu; // -1 >= 0 is false
	d.m->b = 0;
	d.m->eval();
	TB_EQ(d.m->result, 1u);
	TB_EQ(d.m->taken, 0u);
}
END_TEST

START_TEST(random_operands_for_every_op_and_branch)
{
	AluDut d;
	Rng r(3);
	for (unsigned k = 0; k < 200000; k++) {
		uint32_t a = r.u32(), b = r.u32();
		// Narrow operands now and then, so small values and sign mixes show up.
		if (k % 4 == 1)
			a = uint32_t(int32_t(a) >> r.below(32));
		if (k % 4 == 2)
			b = uint32_t(int32_t(b) >> r.below(32));
		d.check(k % NALU, BRS[k % 6], a, b);
	}
	for (unsigned op = 0; op < NALU; op++)
		for (unsigned k = 0; k < 5000; k++)
			d.check(op, BRS[k % 6], r.u32(), r.u32());
}
END_TEST

int main()
{
	return tb_run_suite("cu_alu", {
		every_op_on_every_pair_of_corner_values,
		shifts_use_only_the_low_five_bits_of_b,
		compares_around_equal_and_across_the_sign_boundary,
		random_operands_for_every_op_and_branch,
	});
}
