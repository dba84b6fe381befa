/* SPDX-License-Identifier: MIT */
/*
 * Instruction-set reference model of the PPU's compute units
 * (docs/compute-design.md §4, §5, §9): RV32IMA with read-only Zicsr, the
 * PPU CSRs and ecalls, run for the CTAs of one launch with the barrel
 * scheduler's round robin.
 *
 * What it models exactly (the RTL is compared against it):
 *  - instruction semantics, including the M-extension corner cases
 *    (x/0, INT_MIN/-1) and the illegal encodings of ppu_iss_decode();
 *  - thread start state: registers 0 except sp = stack top, tp = stack
 *    base, a0 = PARAM_PTR, a1 = thread index; PC = entry;
 *  - EXIT, BARRIER (every live thread of the CTA; exits leave the count),
 *    TRAP and ebreak; LAUNCH answers ENOSYS (no child pool) and
 *    WAIT_CHILDREN returns at once (no children); other ops ENOSYS;
 *  - faults: ILLEGAL_INSTR, MISALIGNED (data, jump and branch targets),
 *    KERNEL_TRAP, and whatever the memory callbacks report;
 *  - LR/SC: one reservation per thread on an 8-byte beat, cleared by any
 *    store, AMO or successful SC to that beat from any thread and by the
 *    thread's own SC.
 * What it does not model: timing.  Its interleaving is one legal order of
 * the hardware's, so results compared with the RTL must not depend on the
 * order (use atomics or barriers), except where the order is the point of
 * a test here.
 *
 * Order: each step executes one instruction of the next runnable thread
 * after the one that ran last, in the cyclic order (slot 0: thread 0..t-1,
 * slot 1: ...), i.e. a barrel over every resident thread.
 */
#ifndef PPU_ISS_H
#define PPU_ISS_H

#include <stddef.h>
#include <stdint.h>

/* Block testbenches (C++) link the decoder from here. */
#ifdef __cplusplus
extern "C" {
#endif

/*
 * Memory: both return 0 or a PPU_FAULT_KIND_* (e.g. PTE_NOT_PRESENT,
 * PERMISSION, BUS_ERROR).  @size is 1, 2 or 4 and @va is aligned to it;
 * @access is a PPU_FAULT_ACCESS_* (EXEC for fetches, RMW for both halves of
 * an AMO).  Reads return the value zero-extended in *@val.
 */
struct ppu_iss_mem {
	int (*read)(void *user, uint32_t va, unsigned int size, unsigned int access,
		    uint32_t *val);
	int (*write)(void *user, uint32_t va, unsigned int size, unsigned int access,
		     uint32_t val);
	void *user;
};

struct ppu_iss;

/* What a launch looks like to its threads: the TMD and the channel, as the CSRs report them. */
struct ppu_iss_launch {
	uint32_t entry_pc;
	uint32_t grid_x, grid_y, grid_z;
	uint32_t cta_x, cta_y, cta_z;
	uint32_t param;
	uint32_t prio, depth, maxdepth, taskid;
	uint32_t child_block, child_stack, cu_contexts, num_cu;
	/*
	 * Stacks as in the task block: the thread i of the CTA in resident slot
	 * j gets [stack_va + (j * t + i) * stack_bytes, + stack_bytes).
	 */
	uint32_t stack_va, stack_bytes;
	uint32_t slots;			/* CTAs resident at once (0 = 1) */
	uint32_t cta_first, cta_count;	/* the CTAs to run (count 0 = to the end of the grid) */
	/*
	 * Optional: overrides any CSR's value (return 1 to use *val).  Without
	 * it, cycle/time = steps executed, instret = instructions retired,
	 * HWID = slot << 8 | thread, CHILD_*, CU_CONTEXTS, NUM_CU from above.
	 */
	int (*csr)(void *user, const struct ppu_iss *m, unsigned int slot, unsigned int tid,
		   unsigned int csr, uint32_t *val);
	/* Optional: a thread executed EXIT; its registers are as at the ecall. */
	void (*thread_exit)(void *user, const struct ppu_iss *m, unsigned int slot,
			    unsigned int tid);
	void *user;
};

enum ppu_iss_thread_state {
	PPU_ISS_T_IDLE,		/* slot not in use */
	PPU_ISS_T_RUN,
	PPU_ISS_T_BAR,		/* arrived at the CTA's barrier */
	PPU_ISS_T_EXIT,
	PPU_ISS_T_FAULT,	/* the thread that faulted */
};

struct ppu_iss_thread {
	uint32_t x[32];		/* x[0] stays 0 */
	uint32_t pc;
	uint8_t state;		/* enum ppu_iss_thread_state */
	uint8_t bar_phase;	/* the CTA phase it arrived in (thread record BAR0/BAR1) */
	uint8_t resv_valid;
	uint32_t resv_beat;	/* VA & ~7 of the reservation */
	uint64_t retired;
};

struct ppu_iss_cta {
	int busy;
	uint32_t cta_id;
	unsigned int live, arrived, phase;
	struct ppu_iss_thread *t;	/* [nthreads] */
};

/* How the launch ended (or did not yet). */
enum ppu_iss_status {
	PPU_ISS_RUNNING,
	PPU_ISS_DONE,		/* every CTA ran and every thread exited */
	PPU_ISS_FAULT,		/* the launch faulted: see fault */
	PPU_ISS_LIMIT,		/* ppu_iss_run()'s step budget is used up */
	/*
	 * CTAs remain but none of their threads can run.  Impossible with the
	 * ecalls modelled now (the last arrival or exit releases a barrier);
	 * reported rather than taken for DONE, should a model change allow it.
	 */
	PPU_ISS_STUCK,
};

struct ppu_iss_fault {
	unsigned int kind;	/* PPU_FAULT_KIND_* */
	unsigned int access;	/* PPU_FAULT_ACCESS_* */
	uint32_t addr;		/* data VA or jump target; the PC for EXEC, ILLEGAL_INSTR, TRAP */
	uint32_t data;		/* the PC; the instruction for ILLEGAL_INSTR; the code for TRAP */
	uint32_t pc;
	unsigned int slot, tid;
	uint32_t cta_id;
};

struct ppu_iss {
	struct ppu_iss_launch l;
	struct ppu_iss_mem mem;
	unsigned int nthreads;		/* t */
	uint32_t ncta;			/* CTAs in the grid */
	uint32_t next_cta, end_cta;	/* the next CTA to start, one past the last */
	unsigned int nslots;
	struct ppu_iss_cta *cta;	/* [nslots] */
	unsigned int cur_slot, cur_tid;	/* the thread that ran last */
	unsigned int nresv;		/* valid reservations (none: stores skip the search) */
	uint64_t steps;			/* instructions executed (faulting ones not counted) */
	int status;			/* enum ppu_iss_status */
	struct ppu_iss_fault fault;
};

/* ---- decoder (shared with block testbenches) ---- */

enum ppu_iss_op {
	PPU_ISS_ILLEGAL,
	PPU_ISS_LUI, PPU_ISS_AUIPC, PPU_ISS_JAL, PPU_ISS_JALR,
	PPU_ISS_BEQ, PPU_ISS_BNE, PPU_ISS_BLT, PPU_ISS_BGE, PPU_ISS_BLTU, PPU_ISS_BGEU,
	PPU_ISS_LB, PPU_ISS_LH, PPU_ISS_LW, PPU_ISS_LBU, PPU_ISS_LHU,
	PPU_ISS_SB, PPU_ISS_SH, PPU_ISS_SW,
	PPU_ISS_ADDI, PPU_ISS_SLTI, PPU_ISS_SLTIU, PPU_ISS_XORI, PPU_ISS_ORI, PPU_ISS_ANDI,
	PPU_ISS_SLLI, PPU_ISS_SRLI, PPU_ISS_SRAI,
	PPU_ISS_ADD, PPU_ISS_SUB, PPU_ISS_SLL, PPU_ISS_SLT, PPU_ISS_SLTU, PPU_ISS_XOR,
	PPU_ISS_SRL, PPU_ISS_SRA, PPU_ISS_OR, PPU_ISS_AND,
	PPU_ISS_MUL, PPU_ISS_MULH, PPU_ISS_MULHSU, PPU_ISS_MULHU,
	PPU_ISS_DIV, PPU_ISS_DIVU, PPU_ISS_REM, PPU_ISS_REMU,
	PPU_ISS_LR, PPU_ISS_SC,
	PPU_ISS_AMOSWAP, PPU_ISS_AMOADD, PPU_ISS_AMOXOR, PPU_ISS_AMOAND, PPU_ISS_AMOOR,
	PPU_ISS_AMOMIN, PPU_ISS_AMOMAX, PPU_ISS_AMOMINU, PPU_ISS_AMOMAXU,
	PPU_ISS_FENCE, PPU_ISS_FENCE_I, PPU_ISS_ECALL, PPU_ISS_EBREAK,
	PPU_ISS_CSRR,		/* csrrs/csrrc rd, csr, x0 and csrrsi/csrrci rd, csr, 0 */
	PPU_ISS_NUM_OPS
};

struct ppu_iss_insn {
	uint8_t op;		/* enum ppu_iss_op */
	uint8_t rd, rs1, rs2;
	int32_t imm;		/* sign-extended immediate; for LUI/AUIPC already << 12 */
	uint16_t csr;
};

/*
 * Decodes @word.  Returns 0, or -1 for an illegal instruction (op =
 * PPU_ISS_ILLEGAL): a 16-bit (compressed) or longer encoding, an unknown
 * opcode or funct field, a reserved shift encoding, LR with rs2 != 0, a
 * SYSTEM instruction other than ecall/ebreak/read-only CSR access, a CSR
 * write (csrrw/csrrwi always, csrrs/csrrc with rs1 != x0, csrrsi/csrrci
 * with a non-zero immediate) or a CSR number not in ppu_compute.def.
 * The aq/rl bits of AMOs and the fence fields are ignored.
 */
int ppu_iss_decode(uint32_t word, struct ppu_iss_insn *d);
const char *ppu_iss_op_name(unsigned int op);
/* Whether the compute units implement CSR @csr (read-only). */
int ppu_iss_csr_valid(unsigned int csr);

/* ---- running a launch ---- */

/*
 * Prepares the launch: the first min(slots, CTAs) CTAs become resident.
 * Returns 0, or -1 for what the TMD rules reject (an entry that is not
 * 4-aligned, zero dims, more than PPU_MAX_CTA_THREADS threads per CTA) and
 * for a CTA range outside the grid.
 */
int ppu_iss_init(struct ppu_iss *m, const struct ppu_iss_launch *l, const struct ppu_iss_mem *mem);
void ppu_iss_fini(struct ppu_iss *m);
/* One instruction of the next runnable thread; returns the status after it. */
int ppu_iss_step(struct ppu_iss *m);
/*
 * Steps until the launch is done, faults or is stuck (the status), or until
 * @max_steps more instructions ran (PPU_ISS_LIMIT; it can be called again).
 */
int ppu_iss_run(struct ppu_iss *m, uint64_t max_steps);

const struct ppu_iss_fault *ppu_iss_get_fault(const struct ppu_iss *m);
/* The thread @tid of the CTA in resident slot @slot (the last CTA that ran there). */
struct ppu_iss_thread *ppu_iss_thread(struct ppu_iss *m, unsigned int slot, unsigned int tid);
uint32_t ppu_iss_reg(const struct ppu_iss *m, unsigned int slot, unsigned int tid,
		     unsigned int reg);
uint32_t ppu_iss_pc(const struct ppu_iss *m, unsigned int slot, unsigned int tid);

/* ---- a flat memory for tests: [base, base + size) readable, writable, executable ---- */

struct ppu_iss_flat {
	uint8_t *buf;
	uint32_t base, size;
};

int ppu_iss_flat_read(void *user, uint32_t va, unsigned int size, unsigned int access,
		      uint32_t *val);
int ppu_iss_flat_write(void *user, uint32_t va, unsigned int size, unsigned int access,
		       uint32_t val);

#ifdef __cplusplus
}
#endif

#endif /* PPU_ISS_H */
