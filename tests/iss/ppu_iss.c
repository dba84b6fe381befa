// SPDX-License-Identifier: MIT
/*
 * Instruction-set reference model of the PPU's compute units; the contract
 * is in ppu_iss.h, the architecture in docs/compute-design.md §4 and §5.
 * Also valid C++, so that Verilator testbenches can compile it as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "ppu/ppu_hw.h"
#include "ppu_iss.h"

/* ABI register numbers the ecalls and the thread start state use. */
enum { REG_SP = 2, REG_TP = 4, REG_A0 = 10, REG_A1 = 11, REG_A7 = 17 };

/* ---- decoder ---- */

static int32_t sext(uint32_t v, unsigned int bits)
{
	uint32_t m = 1u << (bits - 1);

	return (int32_t)((v ^ m) - m);
}

static int32_t imm_i(uint32_t w) { return (int32_t)w >> 20; }

static int32_t imm_s(uint32_t w)
{
	return sext((w >> 25) << 5 | ((w >> 7) & 0x1f), 12);
}

static int32_t imm_b(uint32_t w)
{
	uint32_t v = ((w >> 31) & 1) << 12 | ((w >> 7) & 1) << 11 | ((w >> 25) & 0x3f) << 5 |
		     ((w >> 8) & 0xf) << 1;

	return sext(v, 13);
}

static int32_t imm_j(uint32_t w)
{
	uint32_t v = ((w >> 31) & 1) << 20 | ((w >> 12) & 0xff) << 12 | ((w >> 20) & 1) << 11 |
		     ((w >> 21) & 0x3ff) << 1;

	return sext(v, 21);
}

int ppu_iss_csr_valid(unsigned int csr)
{
	switch (csr) {
	case PPU_CSR_CYCLE:
	case PPU_CSR_TIME:
	case PPU_CSR_INSTRET:
	case PPU_CSR_CYCLEH:
	case PPU_CSR_TIMEH:
	case PPU_CSR_INSTRETH:
		return 1;
	default:
		return csr >= PPU_CSR_TID && csr <= PPU_CSR_NUM_CU;
	}
}

/* funct3 → op tables; 0 (PPU_ISS_ILLEGAL) marks a reserved funct3. */
static const uint8_t op_branch[8] = {
	PPU_ISS_BEQ, PPU_ISS_BNE, 0, 0, PPU_ISS_BLT, PPU_ISS_BGE, PPU_ISS_BLTU, PPU_ISS_BGEU,
};
static const uint8_t op_load[8] = {
	PPU_ISS_LB, PPU_ISS_LH, PPU_ISS_LW, 0, PPU_ISS_LBU, PPU_ISS_LHU, 0, 0,
};
static const uint8_t op_store[8] = { PPU_ISS_SB, PPU_ISS_SH, PPU_ISS_SW };
static const uint8_t op_imm[8] = {
	PPU_ISS_ADDI, PPU_ISS_SLLI, PPU_ISS_SLTI, PPU_ISS_SLTIU,
	PPU_ISS_XORI, PPU_ISS_SRLI, PPU_ISS_ORI, PPU_ISS_ANDI,
};
static const uint8_t op_reg[8] = {
	PPU_ISS_ADD, PPU_ISS_SLL, PPU_ISS_SLT, PPU_ISS_SLTU,
	PPU_ISS_XOR, PPU_ISS_SRL, PPU_ISS_OR, PPU_ISS_AND,
};
static const uint8_t op_muldiv[8] = {
	PPU_ISS_MUL, PPU_ISS_MULH, PPU_ISS_MULHSU, PPU_ISS_MULHU,
	PPU_ISS_DIV, PPU_ISS_DIVU, PPU_ISS_REM, PPU_ISS_REMU,
};
/* AMO funct5 → op. */
static uint8_t op_amo(uint32_t f5)
{
	switch (f5) {
	case 0x00: return PPU_ISS_AMOADD;
	case 0x01: return PPU_ISS_AMOSWAP;
	case 0x02: return PPU_ISS_LR;
	case 0x03: return PPU_ISS_SC;
	case 0x04: return PPU_ISS_AMOXOR;
	case 0x08: return PPU_ISS_AMOOR;
	case 0x0c: return PPU_ISS_AMOAND;
	case 0x10: return PPU_ISS_AMOMIN;
	case 0x14: return PPU_ISS_AMOMAX;
	case 0x18: return PPU_ISS_AMOMINU;
	case 0x1c: return PPU_ISS_AMOMAXU;
	default: return PPU_ISS_ILLEGAL;
	}
}

/*
 * Fields an op does not use stay 0 in *d, so that a block testbench can
 * compare whole structures with the RTL decoder's outputs.
 */
int ppu_iss_decode(uint32_t w, struct ppu_iss_insn *d)
{
	uint32_t f3 = (w >> 12) & 7, f7 = w >> 25;
	uint8_t rd = (w >> 7) & 31, rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31;
	uint8_t op = PPU_ISS_ILLEGAL;

	memset(d, 0, sizeof(*d));
	/* No C extension: the low two bits of every instruction are 11 (checked by the opcodes). */
	switch (w & 0x7f) {
	case 0x37:
	case 0x17:
		op = (w & 0x7f) == 0x37 ? PPU_ISS_LUI : PPU_ISS_AUIPC;
		d->rd = rd;
		d->imm = (int32_t)(w & 0xfffff000u);
		break;
	case 0x6f:
		op = PPU_ISS_JAL;
		d->rd = rd;
		d->imm = imm_j(w);
		break;
	case 0x67:
		if (f3 != 0)
			break;
		op = PPU_ISS_JALR;
		d->rd = rd;
		d->rs1 = rs1;
		d->imm = imm_i(w);
		break;
	case 0x63:
		op = op_branch[f3];
		d->rs1 = rs1;
		d->rs2 = rs2;
		d->imm = imm_b(w);
		break;
	case 0x03:
		op = op_load[f3];
		d->rd = rd;
		d->rs1 = rs1;
		d->imm = imm_i(w);
		break;
	case 0x23:
		op = f3 < 3 ? op_store[f3] : (uint8_t)PPU_ISS_ILLEGAL;
		d->rs1 = rs1;
		d->rs2 = rs2;
		d->imm = imm_s(w);
		break;
	case 0x13:
		op = op_imm[f3];
		d->rd = rd;
		d->rs1 = rs1;
		d->imm = imm_i(w);
		if (f3 == 1 || f3 == 5) {
			/* RV32: shamt[5] (bit 25) set is reserved, like any other funct7. */
			if (f7 == 0x20 && f3 == 5)
				op = PPU_ISS_SRAI;
			else if (f7 != 0)
				op = PPU_ISS_ILLEGAL;
			d->imm = rs2;
		}
		break;
	case 0x33:
		if (f7 == 0x00)
			op = op_reg[f3];
		else if (f7 == 0x01)
			op = op_muldiv[f3];
		else if (f7 == 0x20 && f3 == 0)
			op = PPU_ISS_SUB;
		else if (f7 == 0x20 && f3 == 5)
			op = PPU_ISS_SRA;
		d->rd = rd;
		d->rs1 = rs1;
		d->rs2 = rs2;
		break;
	case 0x2f:
		/* Only the .w forms exist on RV32; aq/rl (bits 26:25) are ignored. */
		if (f3 != 2)
			break;
		op = op_amo(w >> 27);
		if (op == PPU_ISS_LR && rs2 != 0)
			op = PPU_ISS_ILLEGAL;
		d->rd = rd;
		d->rs1 = rs1;
		d->rs2 = op == PPU_ISS_LR ? 0 : rs2;
		break;
	case 0x0f:
		/* fm/pred/succ and the reserved fields are ignored, as RISC-V asks. */
		if (f3 == 0)
			op = PPU_ISS_FENCE;
		else if (f3 == 1)
			op = PPU_ISS_FENCE_I;
		break;
	case 0x73:
		if (f3 == 0) {
			if (w == 0x00000073u)
				op = PPU_ISS_ECALL;
			else if (w == 0x00100073u)
				op = PPU_ISS_EBREAK;
			break;
		}
		/*
		 * Zicsr, reads only: csrrs/csrrc with rs1 = x0 and csrrsi/csrrci
		 * with uimm = 0 are the forms that do not write the CSR.
		 */
		if ((f3 == 2 || f3 == 3 || f3 == 6 || f3 == 7) && rs1 == 0 &&
		    ppu_iss_csr_valid(w >> 20)) {
			op = PPU_ISS_CSRR;
			d->rd = rd;
			d->csr = w >> 20;
		}
		break;
	default:
		break;
	}
	if (op == PPU_ISS_ILLEGAL) {
		memset(d, 0, sizeof(*d));
		return -1;
	}
	d->op = op;
	return 0;
}

static const char *const op_names[PPU_ISS_NUM_OPS] = {
	"illegal", "lui", "auipc", "jal", "jalr",
	"beq", "bne", "blt", "bge", "bltu", "bgeu",
	"lb", "lh", "lw", "lbu", "lhu", "sb", "sh", "sw",
	"addi", "slti", "sltiu", "xori", "ori", "andi", "slli", "srli", "srai",
	"add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
	"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
	"lr.w", "sc.w", "amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w",
	"amomin.w", "amomax.w", "amominu.w", "amomaxu.w",
	"fence", "fence.i", "ecall", "ebreak", "csrr",
};

const char *ppu_iss_op_name(unsigned int op)
{
	return op < PPU_ISS_NUM_OPS ? op_names[op] : "?";
}

/* ---- M extension, exactly as RISC-V specifies it ---- */

static uint32_t muldiv(unsigned int op, uint32_t a, uint32_t b)
{
	int32_t sa = (int32_t)a, sb = (int32_t)b;

	switch (op) {
	case PPU_ISS_MUL:
		return a * b;
	case PPU_ISS_MULH:
		return (uint32_t)((uint64_t)((int64_t)sa * sb) >> 32);
	case PPU_ISS_MULHSU:
		/* Signed × unsigned fits in int64; its bits are those of the mod-2^64 product. */
		return (uint32_t)(((uint64_t)(int64_t)sa * (uint64_t)b) >> 32);
	case PPU_ISS_MULHU:
		return (uint32_t)(((uint64_t)a * b) >> 32);
	case PPU_ISS_DIV:
		if (b == 0)
			return UINT32_MAX;
		if (sa == INT32_MIN && sb == -1)
			return a;
		return (uint32_t)(sa / sb);
	case PPU_ISS_DIVU:
		return b ? a / b : UINT32_MAX;
	case PPU_ISS_REM:
		if (b == 0)
			return a;
		if (sa == INT32_MIN && sb == -1)
			return 0;
		return (uint32_t)(sa % sb);
	default: /* PPU_ISS_REMU */
		return b ? a % b : a;
	}
}

static uint32_t alu(unsigned int op, uint32_t a, uint32_t b)
{
	switch (op) {
	case PPU_ISS_ADD: case PPU_ISS_ADDI: return a + b;
	case PPU_ISS_SUB: return a - b;
	case PPU_ISS_SLL: case PPU_ISS_SLLI: return a << (b & 31);
	case PPU_ISS_SLT: case PPU_ISS_SLTI: return (int32_t)a < (int32_t)b;
	case PPU_ISS_SLTU: case PPU_ISS_SLTIU: return a < b;
	case PPU_ISS_XOR: case PPU_ISS_XORI: return a ^ b;
	case PPU_ISS_SRL: case PPU_ISS_SRLI: return a >> (b & 31);
	case PPU_ISS_SRA: case PPU_ISS_SRAI: return (uint32_t)((int32_t)a >> (b & 31));
	case PPU_ISS_OR: case PPU_ISS_ORI: return a | b;
	case PPU_ISS_AND: case PPU_ISS_ANDI: return a & b;
	default: return muldiv(op, a, b);
	}
}

static int branch_taken(unsigned int op, uint32_t a, uint32_t b)
{
	switch (op) {
	case PPU_ISS_BEQ: return a == b;
	case PPU_ISS_BNE: return a != b;
	case PPU_ISS_BLT: return (int32_t)a < (int32_t)b;
	case PPU_ISS_BGE: return (int32_t)a >= (int32_t)b;
	case PPU_ISS_BLTU: return a < b;
	default: return a >= b;
	}
}

/* The new memory value of an AMO; the old value goes to rd. */
static uint32_t amo(unsigned int op, uint32_t old, uint32_t v)
{
	switch (op) {
	case PPU_ISS_AMOSWAP: return v;
	case PPU_ISS_AMOADD: return old + v;
	case PPU_ISS_AMOXOR: return old ^ v;
	case PPU_ISS_AMOAND: return old & v;
	case PPU_ISS_AMOOR: return old | v;
	case PPU_ISS_AMOMIN: return (int32_t)old < (int32_t)v ? old : v;
	case PPU_ISS_AMOMAX: return (int32_t)old > (int32_t)v ? old : v;
	case PPU_ISS_AMOMINU: return old < v ? old : v;
	default: return old > v ? old : v;
	}
}

/* ---- launch state ---- */

static struct ppu_iss_thread *thr(const struct ppu_iss *m, unsigned int slot, unsigned int tid)
{
	return &m->cta[slot].t[tid];
}

static void start_cta(struct ppu_iss *m, unsigned int slot, uint32_t cta_id)
{
	struct ppu_iss_cta *c = &m->cta[slot];
	unsigned int i;

	for (i = 0; i < m->nthreads; i++) {
		struct ppu_iss_thread *t = &c->t[i];
		uint32_t base = m->l.stack_va + (slot * m->nthreads + i) * m->l.stack_bytes;

		if (t->resv_valid)
			m->nresv--;
		memset(t, 0, sizeof(*t));
		t->x[REG_SP] = base + m->l.stack_bytes;
		t->x[REG_TP] = base;
		t->x[REG_A0] = m->l.param;
		t->x[REG_A1] = i;
		t->pc = m->l.entry_pc;
		t->state = PPU_ISS_T_RUN;
	}
	c->busy = 1;
	c->cta_id = cta_id;
	c->live = m->nthreads;
	c->arrived = 0;
	c->phase = 0;
}

int ppu_iss_init(struct ppu_iss *m, const struct ppu_iss_launch *l, const struct ppu_iss_mem *mem)
{
	uint64_t t, ncta;
	unsigned int j;

	memset(m, 0, sizeof(*m));
	/* Each dim bounded first, so that the products cannot wrap. */
	if (l->cta_x > PPU_MAX_CTA_THREADS || l->cta_y > PPU_MAX_CTA_THREADS ||
	    l->cta_z > PPU_MAX_CTA_THREADS || l->grid_y > 0xffff || l->grid_z > 0xffff)
		return -1;
	t = (uint64_t)l->cta_x * l->cta_y * l->cta_z;
	ncta = (uint64_t)l->grid_x * l->grid_y * l->grid_z;
	if ((l->entry_pc & 3) || !t || t > PPU_MAX_CTA_THREADS || !ncta || ncta > UINT32_MAX ||
	    l->cta_first >= ncta || (uint64_t)l->cta_first + l->cta_count > ncta)
		return -1;
	m->l = *l;
	m->mem = *mem;
	m->nthreads = (unsigned int)t;
	m->ncta = (uint32_t)ncta;
	m->next_cta = l->cta_first;
	m->end_cta = l->cta_count ? l->cta_first + l->cta_count : m->ncta;
	m->nslots = l->slots ? l->slots : 1;
	m->cta = (struct ppu_iss_cta *)calloc(m->nslots, sizeof(*m->cta));
	if (!m->cta)
		return -1;
	for (j = 0; j < m->nslots; j++) {
		m->cta[j].t = (struct ppu_iss_thread *)calloc(m->nthreads,
							    sizeof(struct ppu_iss_thread));
		if (!m->cta[j].t) {
			ppu_iss_fini(m);
			return -1;
		}
		if (m->next_cta < m->end_cta)
			start_cta(m, j, m->next_cta++);
	}
	/* The first step goes to slot 0, thread 0. */
	m->cur_slot = m->nslots - 1;
	m->cur_tid = m->nthreads - 1;
	m->status = PPU_ISS_RUNNING;
	return 0;
}

void ppu_iss_fini(struct ppu_iss *m)
{
	unsigned int j;

	if (m->cta)
		for (j = 0; j < m->nslots; j++)
			free(m->cta[j].t);
	free(m->cta);
	m->cta = NULL;
}

const struct ppu_iss_fault *ppu_iss_get_fault(const struct ppu_iss *m)
{
	return &m->fault;
}

struct ppu_iss_thread *ppu_iss_thread(struct ppu_iss *m, unsigned int slot, unsigned int tid)
{
	return thr(m, slot, tid);
}

uint32_t ppu_iss_reg(const struct ppu_iss *m, unsigned int slot, unsigned int tid,
		     unsigned int reg)
{
	return thr(m, slot, tid)->x[reg & 31];
}

uint32_t ppu_iss_pc(const struct ppu_iss *m, unsigned int slot, unsigned int tid)
{
	return thr(m, slot, tid)->pc;
}

/* ---- execution ---- */

/* The launch faults: the thread freezes at the instruction, nothing else runs. */
static int fault(struct ppu_iss *m, unsigned int slot, unsigned int tid, unsigned int kind,
		 unsigned int access, uint32_t addr, uint32_t data)
{
	struct ppu_iss_thread *t = thr(m, slot, tid);

	m->fault.kind = kind;
	m->fault.access = access;
	m->fault.addr = addr;
	m->fault.data = data;
	m->fault.pc = t->pc;
	m->fault.slot = slot;
	m->fault.tid = tid;
	m->fault.cta_id = m->cta[slot].cta_id;
	t->state = PPU_ISS_T_FAULT;
	m->status = PPU_ISS_FAULT;
	return m->status;
}

/* Any write to an 8-byte beat, by any thread, ends every reservation on it. */
static void clear_reservations(struct ppu_iss *m, uint32_t va)
{
	uint32_t beat = va & ~7u;
	unsigned int j, i;

	for (j = 0; j < m->nslots && m->nresv; j++) {
		for (i = 0; i < m->nthreads; i++) {
			struct ppu_iss_thread *t = thr(m, j, i);

			if (t->resv_valid && t->resv_beat == beat) {
				t->resv_valid = 0;
				m->nresv--;
			}
		}
	}
}

static void drop_reservation(struct ppu_iss *m, struct ppu_iss_thread *t)
{
	if (t->resv_valid) {
		t->resv_valid = 0;
		m->nresv--;
	}
}

static uint32_t csr_value(const struct ppu_iss *m, unsigned int slot, unsigned int tid,
			  unsigned int csr)
{
	const struct ppu_iss_launch *l = &m->l;
	uint32_t v;

	if (l->csr && l->csr(l->user, m, slot, tid, csr, &v))
		return v;
	switch (csr) {
	case PPU_CSR_CYCLE: case PPU_CSR_TIME: case PPU_CSR_INSTRET:
		return (uint32_t)m->steps;
	case PPU_CSR_CYCLEH: case PPU_CSR_TIMEH: case PPU_CSR_INSTRETH:
		return (uint32_t)(m->steps >> 32);
	case PPU_CSR_TID: return tid;
	case PPU_CSR_NTID: return m->nthreads;
	case PPU_CSR_CTAID: return m->cta[slot].cta_id;
	case PPU_CSR_NCTAID: return m->ncta;
	case PPU_CSR_CTADIM_X: return l->cta_x;
	case PPU_CSR_CTADIM_Y: return l->cta_y;
	case PPU_CSR_CTADIM_Z: return l->cta_z;
	case PPU_CSR_GRID_X: return l->grid_x;
	case PPU_CSR_GRID_Y: return l->grid_y;
	case PPU_CSR_GRID_Z: return l->grid_z;
	case PPU_CSR_PARAM: return l->param;
	case PPU_CSR_PRIO: return l->prio;
	case PPU_CSR_DEPTH: return l->depth;
	case PPU_CSR_MAXDEPTH: return l->maxdepth;
	case PPU_CSR_TASKID: return l->taskid;
	case PPU_CSR_HWID: return slot << 8 | tid;
	case PPU_CSR_CHILD_BLOCK: return l->child_block;
	case PPU_CSR_CHILD_STACK: return l->child_stack;
	case PPU_CSR_CU_CONTEXTS: return l->cu_contexts;
	default: return l->num_cu; /* PPU_CSR_NUM_CU; the decoder rejected the rest */
	}
}

/* Every BAR thread continues with a0 = 0, and the barrier starts its next phase. */
static void release_barrier(struct ppu_iss *m, unsigned int slot)
{
	struct ppu_iss_cta *c = &m->cta[slot];
	unsigned int i;

	for (i = 0; i < m->nthreads; i++) {
		if (c->t[i].state == PPU_ISS_T_BAR) {
			c->t[i].state = PPU_ISS_T_RUN;
			c->t[i].x[REG_A0] = 0;
		}
	}
	c->arrived = 0;
	c->phase ^= 1;
}

static void thread_exit(struct ppu_iss *m, unsigned int slot, unsigned int tid)
{
	struct ppu_iss_cta *c = &m->cta[slot];

	c->t[tid].state = PPU_ISS_T_EXIT;
	drop_reservation(m, &c->t[tid]);
	c->live--;
	if (m->l.thread_exit)
		m->l.thread_exit(m->l.user, m, slot, tid);
	if (c->live == 0) {
		/* The slot is free: the next CTA of the range starts in it. */
		c->busy = 0;
		if (m->next_cta < m->end_cta)
			start_cta(m, slot, m->next_cta++);
	} else if (c->arrived && c->arrived == c->live) {
		/* The last thread the barrier waited for has gone. */
		release_barrier(m, slot);
	}
}

/*
 * The ecall ABI (§5).  Returns nonzero if the thread left the pipeline
 * (exit or barrier) with its PC already set.
 */
static int ecall(struct ppu_iss *m, unsigned int slot, unsigned int tid)
{
	struct ppu_iss_cta *c = &m->cta[slot];
	struct ppu_iss_thread *t = &c->t[tid];

	switch (t->x[REG_A7]) {
	case PPU_ECALL_OP_EXIT:
		/* The PC stays at the ecall: an exited thread has no next instruction. */
		thread_exit(m, slot, tid);
		return 1;
	case PPU_ECALL_OP_BARRIER:
		t->pc += 4;
		t->state = PPU_ISS_T_BAR;
		t->bar_phase = c->phase;
		if (++c->arrived == c->live)
			release_barrier(m, slot);
		return 1;
	case PPU_ECALL_OP_WAIT_CHILDREN:
		/* This model launches no children, so there is never anything to wait for. */
		t->x[REG_A0] = PPU_ECALL_STATUS_OK;
		return 0;
	default:
		/*
		 * LAUNCH as with device launches disabled (no child pool): ENOSYS,
		 * like any unknown operation.  a1 is left as it was.
		 */
		t->x[REG_A0] = PPU_ECALL_STATUS_ENOSYS;
		return 0;
	}
}

static int exec(struct ppu_iss *m, unsigned int slot, unsigned int tid)
{
	struct ppu_iss_thread *t = thr(m, slot, tid);
	const struct ppu_iss_mem *mem = &m->mem;
	struct ppu_iss_insn d;
	uint32_t pc = t->pc, next = pc + 4, word, a, b, v = 0, addr, target;
	unsigned int size;
	int rc, wr = 1;

	rc = mem->read(mem->user, pc, 4, PPU_FAULT_ACCESS_EXEC, &word);
	if (rc)
		return fault(m, slot, tid, rc, PPU_FAULT_ACCESS_EXEC, pc, pc);
	if (ppu_iss_decode(word, &d))
		return fault(m, slot, tid, PPU_FAULT_KIND_ILLEGAL_INSTR, PPU_FAULT_ACCESS_EXEC, pc,
			     word);
	a = t->x[d.rs1];
	b = t->x[d.rs2];
	switch (d.op) {
	case PPU_ISS_LUI:
		v = (uint32_t)d.imm;
		break;
	case PPU_ISS_AUIPC:
		v = pc + (uint32_t)d.imm;
		break;
	case PPU_ISS_JAL:
	case PPU_ISS_JALR:
		target = d.op == PPU_ISS_JAL ? pc + (uint32_t)d.imm : (a + (uint32_t)d.imm) & ~1u;
		/* Without the C extension a target must be 4-aligned; rd is not written then. */
		if (target & 3)
			return fault(m, slot, tid, PPU_FAULT_KIND_MISALIGNED, PPU_FAULT_ACCESS_EXEC,
				     target, pc);
		v = next;
		next = target;
		break;
	case PPU_ISS_BEQ: case PPU_ISS_BNE: case PPU_ISS_BLT:
	case PPU_ISS_BGE: case PPU_ISS_BLTU: case PPU_ISS_BGEU:
		wr = 0;
		if (branch_taken(d.op, a, b)) {
			target = pc + (uint32_t)d.imm;
			if (target & 3)
				return fault(m, slot, tid, PPU_FAULT_KIND_MISALIGNED,
					     PPU_FAULT_ACCESS_EXEC, target, pc);
			next = target;
		}
		break;
	case PPU_ISS_LB: case PPU_ISS_LH: case PPU_ISS_LW: case PPU_ISS_LBU: case PPU_ISS_LHU:
		addr = a + (uint32_t)d.imm;
		size = d.op == PPU_ISS_LW ? 4 : (d.op == PPU_ISS_LH || d.op == PPU_ISS_LHU) ? 2 : 1;
		if (addr & (size - 1))
			return fault(m, slot, tid, PPU_FAULT_KIND_MISALIGNED, PPU_FAULT_ACCESS_READ,
				     addr, pc);
		rc = mem->read(mem->user, addr, size, PPU_FAULT_ACCESS_READ, &v);
		if (rc)
			return fault(m, slot, tid, rc, PPU_FAULT_ACCESS_READ, addr, pc);
		if (d.op == PPU_ISS_LB)
			v = (uint32_t)sext(v & 0xff, 8);
		else if (d.op == PPU_ISS_LH)
			v = (uint32_t)sext(v & 0xffff, 16);
		break;
	case PPU_ISS_SB: case PPU_ISS_SH: case PPU_ISS_SW:
		wr = 0;
		addr = a + (uint32_t)d.imm;
		size = d.op == PPU_ISS_SW ? 4 : d.op == PPU_ISS_SH ? 2 : 1;
		if (addr & (size - 1))
			return fault(m, slot, tid, PPU_FAULT_KIND_MISALIGNED,
				     PPU_FAULT_ACCESS_WRITE, addr, pc);
		if (size < 4)
			b &= (1u << (8 * size)) - 1;
		rc = mem->write(mem->user, addr, size, PPU_FAULT_ACCESS_WRITE, b);
		if (rc)
			return fault(m, slot, tid, rc, PPU_FAULT_ACCESS_WRITE, addr, pc);
		if (m->nresv)
			clear_reservations(m, addr);
		break;
	case PPU_ISS_LR:
		if (a & 3)
			return fault(m, slot, tid, PPU_FAULT_KIND_MISALIGNED, PPU_FAULT_ACCESS_READ,
				     a, pc);
		rc = mem->read(mem->user, a, 4, PPU_FAULT_ACCESS_READ, &v);
		if (rc)
			return fault(m, slot, tid, rc, PPU_FAULT_ACCESS_READ, a, pc);
		if (!t->resv_valid)
			m->nresv++;
		t->resv_valid = 1;
		t->resv_beat = a & ~7u;
		break;
	case PPU_ISS_SC:
		if (a & 3)
			return fault(m, slot, tid, PPU_FAULT_KIND_MISALIGNED,
				     PPU_FAULT_ACCESS_WRITE, a, pc);
		/* A failing SC does not access memory at all, so it cannot fault. */
		if (t->resv_valid && t->resv_beat == (a & ~7u)) {
			rc = mem->write(mem->user, a, 4, PPU_FAULT_ACCESS_WRITE, b);
			if (rc)
				return fault(m, slot, tid, rc, PPU_FAULT_ACCESS_WRITE, a, pc);
			clear_reservations(m, a);
			v = 0;
		} else {
			v = 1;
		}
		drop_reservation(m, t);
		break;
	case PPU_ISS_AMOSWAP: case PPU_ISS_AMOADD: case PPU_ISS_AMOXOR: case PPU_ISS_AMOAND:
	case PPU_ISS_AMOOR: case PPU_ISS_AMOMIN: case PPU_ISS_AMOMAX: case PPU_ISS_AMOMINU:
	case PPU_ISS_AMOMAXU:
		if (a & 3)
			return fault(m, slot, tid, PPU_FAULT_KIND_MISALIGNED, PPU_FAULT_ACCESS_RMW,
				     a, pc);
		rc = mem->read(mem->user, a, 4, PPU_FAULT_ACCESS_RMW, &v);
		if (!rc)
			rc = mem->write(mem->user, a, 4, PPU_FAULT_ACCESS_RMW, amo(d.op, v, b));
		if (rc)
			return fault(m, slot, tid, rc, PPU_FAULT_ACCESS_RMW, a, pc);
		if (m->nresv)
			clear_reservations(m, a);
		break;
	case PPU_ISS_FENCE:
	case PPU_ISS_FENCE_I:
		/* Stores are in order and there are no data caches (nor an I-cache here). */
		wr = 0;
		break;
	case PPU_ISS_ECALL:
		wr = 0;
		if (t->x[REG_A7] == PPU_ECALL_OP_TRAP)
			return fault(m, slot, tid, PPU_FAULT_KIND_KERNEL_TRAP,
				     PPU_FAULT_ACCESS_EXEC, pc, t->x[REG_A0]);
		/*
		 * Counted first: an exit can end the CTA and start the next one in
		 * this slot, which resets *t.
		 */
		t->retired++;
		m->steps++;
		if (ecall(m, slot, tid))
			return m->status;
		t->pc = next;
		return m->status;
	case PPU_ISS_EBREAK:
		return fault(m, slot, tid, PPU_FAULT_KIND_KERNEL_TRAP, PPU_FAULT_ACCESS_EXEC, pc,
			     0);
	case PPU_ISS_CSRR:
		v = csr_value(m, slot, tid, d.csr);
		break;
	case PPU_ISS_ADDI: case PPU_ISS_SLTI: case PPU_ISS_SLTIU: case PPU_ISS_XORI:
	case PPU_ISS_ORI: case PPU_ISS_ANDI: case PPU_ISS_SLLI: case PPU_ISS_SRLI:
	case PPU_ISS_SRAI:
		v = alu(d.op, a, (uint32_t)d.imm);
		break;
	default:
		v = alu(d.op, a, b);
		break;
	}
	if (wr && d.rd)
		t->x[d.rd] = v;
	t->pc = next;
	t->retired++;
	m->steps++;
	return m->status;
}

/* Where the next runnable thread after the last one is; 0 if there is none. */
static int pick(struct ppu_iss *m, unsigned int *slot, unsigned int *tid)
{
	unsigned int j = m->cur_slot, i = m->cur_tid, n;

	for (n = 0; n < m->nslots * m->nthreads; n++) {
		if (++i == m->nthreads) {
			i = 0;
			if (++j == m->nslots)
				j = 0;
		}
		if (m->cta[j].busy && m->cta[j].t[i].state == PPU_ISS_T_RUN) {
			*slot = j;
			*tid = i;
			return 1;
		}
	}
	return 0;
}

static int any_busy(const struct ppu_iss *m)
{
	unsigned int j;

	for (j = 0; j < m->nslots; j++)
		if (m->cta[j].busy)
			return 1;
	return 0;
}

int ppu_iss_step(struct ppu_iss *m)
{
	unsigned int slot, tid;

	if (m->status != PPU_ISS_RUNNING)
		return m->status;
	if (!pick(m, &slot, &tid)) {
		m->status = any_busy(m) ? PPU_ISS_STUCK : PPU_ISS_DONE;
		return m->status;
	}
	m->cur_slot = slot;
	m->cur_tid = tid;
	exec(m, slot, tid);
	if (m->status == PPU_ISS_RUNNING && !any_busy(m))
		m->status = PPU_ISS_DONE;
	return m->status;
}

int ppu_iss_run(struct ppu_iss *m, uint64_t max_steps)
{
	uint64_t n;

	for (n = 0; n < max_steps && m->status == PPU_ISS_RUNNING; n++)
		ppu_iss_step(m);
	if (m->status == PPU_ISS_RUNNING)
		return PPU_ISS_LIMIT;
	return m->status;
}

/* ---- flat test memory ---- */

static int flat_range(const struct ppu_iss_flat *f, uint32_t va, unsigned int size)
{
	return va >= f->base && (uint64_t)va - f->base + size <= f->size;
}

int ppu_iss_flat_read(void *user, uint32_t va, unsigned int size, unsigned int access,
		      uint32_t *val)
{
	const struct ppu_iss_flat *f = (const struct ppu_iss_flat *)user;
	const uint8_t *p;
	unsigned int k;

	if (!flat_range(f, va, size))
		return PPU_FAULT_KIND_PTE_NOT_PRESENT;
	p = f->buf + (va - f->base);
	*val = 0;
	for (k = 0; k < size; k++)
		*val |= (uint32_t)p[k] << (8 * k);
	return 0;
}

int ppu_iss_flat_write(void *user, uint32_t va, unsigned int size, unsigned int access,
		       uint32_t val)
{
	const struct ppu_iss_flat *f = (const struct ppu_iss_flat *)user;
	uint8_t *p;
	unsigned int k;

	if (!flat_range(f, va, size))
		return PPU_FAULT_KIND_PTE_NOT_PRESENT;
	p = f->buf + (va - f->base);
	for (k = 0; k < size; k++)
		p[k] = (uint8_t)(val >> (8 * k));
	return 0;
}
