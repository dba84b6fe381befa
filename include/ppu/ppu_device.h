/* SPDX-License-Identifier: MIT */
/*
 * The device side of a PPU kernel (docs/compute-design.md §4, §5, §8.2).
 *
 * Freestanding: compiled only by clang for the compute units
 * (--target=riscv32 -march=rv32ima, see runtime/device/device.mk).  Every
 * number comes from ppu_compute.def through ppu_hw.h.
 *
 * A kernel is a C function defined with PPU_KERNEL():
 *
 *	struct saxpy_params { uint32_t n; int32_t a; uint32_t x, y; };
 *
 *	PPU_KERNEL(saxpy, struct saxpy_params)
 *	{
 *		uint32_t i = ppu_global_id();
 *		...
 *	}
 *
 * Thread start state (§4.1): every register is 0 except sp (stack top),
 * tp (stack base), a0 (PARAM_PTR) and a1 (thread index); PC = entry.
 *
 * Threads of a CTA larger than the CU's thread contexts run in waves (§3.3):
 * they may communicate only across ppu_barrier(); a spin-wait on another
 * thread of the same CTA may never finish.  Exited threads leave the barrier
 * count.
 */
#ifndef PPU_DEVICE_H
#define PPU_DEVICE_H

#if !defined(__riscv)
#error "ppu_device.h is for kernels built for the PPU's compute units (clang --target=riscv32)"
#else

#include <stdint.h>
#include "ppu_hw.h"
#include "ppu_encode.h"	/* ppu_tmd_fill(): the one TMD encoder */
#include "ppu_workq.h"	/* the PPU-owned work queue's format */

#define PPU_DEV_INLINE static inline __attribute__((always_inline))

/*
 * CSR reads.  The ids and dims never change while a thread lives (a saved
 * thread resumes with the same values), so these are not volatile and the
 * compiler may reuse a value it already read.  The counters are volatile.
 */
#define ppu_csr_read(csr)                                                 \
	({                                                                \
		uint32_t __ppu_v;                                         \
		__asm__("csrr %0, %1" : "=r"(__ppu_v) : "i"(csr));        \
		__ppu_v;                                                  \
	})
#define ppu_csr_read_volatile(csr)                                          \
	({                                                                  \
		uint32_t __ppu_v;                                           \
		__asm__ volatile("csrr %0, %1" : "=r"(__ppu_v) : "i"(csr)); \
		__ppu_v;                                                    \
	})

/* Linear ids and dims. */
PPU_DEV_INLINE uint32_t ppu_tid(void) { return ppu_csr_read(PPU_CSR_TID); }
PPU_DEV_INLINE uint32_t ppu_ntid(void) { return ppu_csr_read(PPU_CSR_NTID); }
PPU_DEV_INLINE uint32_t ppu_ctaid(void) { return ppu_csr_read(PPU_CSR_CTAID); }
PPU_DEV_INLINE uint32_t ppu_nctaid(void) { return ppu_csr_read(PPU_CSR_NCTAID); }
PPU_DEV_INLINE uint32_t ppu_cta_dim_x(void) { return ppu_csr_read(PPU_CSR_CTADIM_X); }
PPU_DEV_INLINE uint32_t ppu_cta_dim_y(void) { return ppu_csr_read(PPU_CSR_CTADIM_Y); }
PPU_DEV_INLINE uint32_t ppu_cta_dim_z(void) { return ppu_csr_read(PPU_CSR_CTADIM_Z); }
PPU_DEV_INLINE uint32_t ppu_grid_dim_x(void) { return ppu_csr_read(PPU_CSR_GRID_X); }
PPU_DEV_INLINE uint32_t ppu_grid_dim_y(void) { return ppu_csr_read(PPU_CSR_GRID_Y); }
PPU_DEV_INLINE uint32_t ppu_grid_dim_z(void) { return ppu_csr_read(PPU_CSR_GRID_Z); }

/* The kernel's parameter block (also in a0 at entry). */
PPU_DEV_INLINE void *ppu_param(void)
{
	return (void *)(uintptr_t)ppu_csr_read(PPU_CSR_PARAM);
}

/* Device priority, nesting depth (1 = host launch) and the channel's max depth. */
PPU_DEV_INLINE uint32_t ppu_prio(void) { return ppu_csr_read(PPU_CSR_PRIO); }
PPU_DEV_INLINE uint32_t ppu_depth(void) { return ppu_csr_read(PPU_CSR_DEPTH); }
PPU_DEV_INLINE uint32_t ppu_maxdepth(void) { return ppu_csr_read(PPU_CSR_MAXDEPTH); }

/* Debugging aids: the hardware task id and where the thread runs (cu << 8 | context). */
PPU_DEV_INLINE uint32_t ppu_taskid(void) { return ppu_csr_read(PPU_CSR_TASKID); }
PPU_DEV_INLINE uint32_t ppu_hwid(void) { return ppu_csr_read_volatile(PPU_CSR_HWID); }

/* Shape of the machine, for sizing work. */
PPU_DEV_INLINE uint32_t ppu_cu_contexts(void) { return ppu_csr_read(PPU_CSR_CU_CONTEXTS); }
PPU_DEV_INLINE uint32_t ppu_num_cu(void) { return ppu_csr_read(PPU_CSR_NUM_CU); }

/* Coordinates: the hardware keeps only linear indices (§4.4). */
PPU_DEV_INLINE uint32_t ppu_tid_x(void) { return ppu_tid() % ppu_cta_dim_x(); }
PPU_DEV_INLINE uint32_t ppu_tid_y(void) { return ppu_tid() / ppu_cta_dim_x() % ppu_cta_dim_y(); }
PPU_DEV_INLINE uint32_t ppu_tid_z(void)
{
	return ppu_tid() / (ppu_cta_dim_x() * ppu_cta_dim_y());
}
PPU_DEV_INLINE uint32_t ppu_ctaid_x(void) { return ppu_ctaid() % ppu_grid_dim_x(); }
PPU_DEV_INLINE uint32_t ppu_ctaid_y(void)
{
	return ppu_ctaid() / ppu_grid_dim_x() % ppu_grid_dim_y();
}
PPU_DEV_INLINE uint32_t ppu_ctaid_z(void)
{
	return ppu_ctaid() / (ppu_grid_dim_x() * ppu_grid_dim_y());
}

/* Linear index of the thread in the grid and the number of threads in it. */
PPU_DEV_INLINE uint32_t ppu_global_id(void) { return ppu_ctaid() * ppu_ntid() + ppu_tid(); }
PPU_DEV_INLINE uint32_t ppu_global_threads(void) { return ppu_nctaid() * ppu_ntid(); }

/*
 * The PPU cycle counter (the semaphore timestamp clock), 64 bits from two
 * CSR reads: re-read when the high half moved between them.
 */
PPU_DEV_INLINE uint64_t ppu_cycles(void)
{
	uint32_t hi, lo, hi2;

	do {
		hi = ppu_csr_read_volatile(PPU_CSR_CYCLEH);
		lo = ppu_csr_read_volatile(PPU_CSR_CYCLE);
		hi2 = ppu_csr_read_volatile(PPU_CSR_CYCLEH);
	} while (hi != hi2);
	return (uint64_t)hi << 32 | lo;
}

/*
 * ecalls (§5): a7 = operation, a0..a5 arguments, a0/a1 results; everything
 * else is preserved.  a1 is declared clobbered by every call so that the
 * compiler does not rely on the hardware leaving it alone.  The "memory"
 * clobber keeps stores before the call and loads after it in place: a
 * barrier is how threads of a CTA exchange data.
 */

/* Wait until every live thread of the CTA has arrived; exited threads do not count. */
PPU_DEV_INLINE void ppu_barrier(void)
{
	register uint32_t a0 __asm__("a0");
	register uint32_t a7 __asm__("a7") = PPU_ECALL_OP_BARRIER;

	__asm__ volatile("ecall" : "=r"(a0) : "r"(a7) : "a1", "memory");
	(void)a0;
}

/* End this thread.  The CTA ends when all its threads have exited. */
PPU_DEV_INLINE __attribute__((noreturn)) void ppu_exit(void)
{
	register uint32_t a7 __asm__("a7") = PPU_ECALL_OP_EXIT;

	__asm__ volatile("ecall" : : "r"(a7) : "memory");
	__builtin_unreachable();
}

/*
 * Fault the channel with KERNEL_TRAP, FAULT_DATA = @code (an assert for
 * kernels; ebreak does the same with code 0).
 */
PPU_DEV_INLINE __attribute__((noreturn)) void ppu_trap(uint32_t code)
{
	register uint32_t a0 __asm__("a0") = code;
	register uint32_t a7 __asm__("a7") = PPU_ECALL_OP_TRAP;

	__asm__ volatile("ecall" : : "r"(a0), "r"(a7) : "memory");
	__builtin_unreachable();
}

/*
 * Device-side launch (dynamic parallelism, §5 as built): launch the child
 * task whose 64-byte TMD (the host's format, ppu_hw.h) is at @tmd, 64-byte
 * aligned.  The child runs at this task's priority + 1 and depth + 1, in
 * this task's channel; the hardware ignores the TMD's PRIORITY.  The TMD,
 * its task block and its parameters must stay unchanged until the child
 * has completed (its completion semaphore, if it asks for one, is released
 * then).  Stores of this thread before the call are visible to the child;
 * other threads of the CTA need a barrier first.  Returns
 * PPU_ECALL_STATUS_OK or an error (EDEPTH past the channel's max nesting
 * depth, EPRIO past the highest priority, EINVAL for a bad TMD, ENOTASK
 * when no task id is free); an error never traps, and nothing runs.
 */
PPU_DEV_INLINE uint32_t ppu_launch_tmd(const void *tmd)
{
	register uint32_t a0 __asm__("a0") = (uint32_t)(uintptr_t)tmd;
	register uint32_t a7 __asm__("a7") = PPU_ECALL_OP_LAUNCH;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "a1", "memory");
	return a0;
}

/* Grid and CTA shapes of a device launch. */
typedef struct {
	uint32_t x, y, z;
} ppu_dev_dim3;

/*
 * Bytes of child memory a launch needs (ppu_launch): the 64-byte TMD and
 * the child's task block, with save room for as many of its CTAs as can be
 * resident at once (the host's rule, runtime/launch_plan.c).  0 for a
 * shape the PPU cannot run (a CTA of more than PPU_MAX_CTA_THREADS).
 */
PPU_DEV_INLINE uint32_t ppu_child_bytes(ppu_dev_dim3 grid, ppu_dev_dim3 cta, uint32_t stack_bytes)
{
	uint32_t t = cta.x * cta.y * cta.z, ctas = grid.x * grid.y * grid.z;
	uint32_t k;

	if (!t || t > PPU_MAX_CTA_THREADS || !ctas)
		return 0;
	k = ppu_task_save_slots(ctas, t, ppu_csr_read(PPU_CSR_NUM_CU),
				ppu_csr_read(PPU_CSR_CU_CONTEXTS));
	return 64 + PPU_TASK_BLOCK_HEADER_BYTES + k * t * (PPU_THREAD_RECORD_BYTES + stack_bytes);
}

/*
 * Fill @mem (64-byte aligned, at least ppu_child_bytes() of it) with a TMD
 * for the kernel @fn (a PPU_KERNEL) on @grid CTAs of @cta threads with the
 * parameter pointer @params and @stack_bytes of stack per thread (0, or a
 * power of two 64..65536), and its task block after it: the TMD of a
 * device launch (ppu_launch_tmd()) or of a launch a work-queue block makes
 * (TMD_ADDR and LAUNCH methods).  Returns PPU_ECALL_STATUS_OK, ENOMEM when
 * @mem_bytes is too small, EINVAL for a misaligned @mem or a shape the PPU
 * cannot run.
 */
PPU_DEV_INLINE uint32_t ppu_tmd_prepare(void *mem, uint32_t mem_bytes, void (*fn)(void),
					ppu_dev_dim3 grid, ppu_dev_dim3 cta, const void *params,
					uint32_t stack_bytes)
{
	uint32_t need = ppu_child_bytes(grid, cta, stack_bytes), t = cta.x * cta.y * cta.z;
	uint32_t va = (uint32_t)(uintptr_t)mem;
	struct ppu_tmd_desc d = {
		.entry_pc = (uint32_t)(uintptr_t)fn,
		.grid = { grid.x, grid.y, grid.z },
		.cta = { cta.x, cta.y, cta.z },
		.param = (uint32_t)(uintptr_t)params,
		.stack_bytes = stack_bytes,
		.block_va = va + 64,
	};

	if (!need || (va & 63))
		return PPU_ECALL_STATUS_EINVAL;
	if (mem_bytes < need)
		return PPU_ECALL_STATUS_ENOMEM;
	/* the same k and block size ppu_child_bytes() counted */
	d.save_ctas = (need - 64 - PPU_TASK_BLOCK_HEADER_BYTES) /
		      (t * (PPU_THREAD_RECORD_BYTES + stack_bytes));
	d.block_bytes = need - 64;
	ppu_tmd_fill((uint32_t *)mem, &d);
	return PPU_ECALL_STATUS_OK;
}

/*
 * Launch the kernel @fn (a PPU_KERNEL) as a child: @grid CTAs of @cta
 * threads with the parameter pointer @params and @stack_bytes of stack per
 * thread.  @mem receives the child's TMD and task block (ppu_tmd_prepare());
 * it, and what @params points to, must stay untouched until the child has
 * completed (after ppu_wait_children(), or once this task is done).
 * Returns PPU_ECALL_STATUS_OK or an error as ppu_tmd_prepare() and
 * ppu_launch_tmd().
 */
PPU_DEV_INLINE uint32_t ppu_launch(void *mem, uint32_t mem_bytes, void (*fn)(void), ppu_dev_dim3 grid,
				   ppu_dev_dim3 cta, const void *params, uint32_t stack_bytes)
{
	uint32_t st = ppu_tmd_prepare(mem, mem_bytes, fn, grid, cta, params, stack_bytes);

	return st ? st : ppu_launch_tmd(mem);
}

/*
 * Wait until every child this CTA has launched has completed; their
 * writes are visible afterwards.  Returns 0.  A task completes only after
 * its children anyway: waiting is needed only to use their results.
 */
PPU_DEV_INLINE uint32_t ppu_wait_children(void)
{
	register uint32_t a0 __asm__("a0");
	register uint32_t a7 __asm__("a7") = PPU_ECALL_OP_WAIT_CHILDREN;

	__asm__ volatile("ecall" : "=r"(a0) : "r"(a7) : "a1", "memory");
	return a0;
}

/*
 * Atomics on 32-bit words in any memory the kernel can write, executed in
 * the semaphore unit (§4.3).  Each returns the old value.  clang lowers the
 * read-modify-writes to amo*.w and the compare-and-swap to lr.w/sc.w.
 * Sequentially consistent: the hardware orders them after all earlier
 * stores of the thread anyway.
 */
#define PPU_ATOMIC_ORDER __ATOMIC_SEQ_CST

PPU_DEV_INLINE uint32_t ppu_atomic_add(uint32_t *p, uint32_t v)
{
	return __atomic_fetch_add(p, v, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE uint32_t ppu_atomic_sub(uint32_t *p, uint32_t v)
{
	return __atomic_fetch_sub(p, v, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE uint32_t ppu_atomic_and(uint32_t *p, uint32_t v)
{
	return __atomic_fetch_and(p, v, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE uint32_t ppu_atomic_or(uint32_t *p, uint32_t v)
{
	return __atomic_fetch_or(p, v, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE uint32_t ppu_atomic_xor(uint32_t *p, uint32_t v)
{
	return __atomic_fetch_xor(p, v, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE uint32_t ppu_atomic_xchg(uint32_t *p, uint32_t v)
{
	return __atomic_exchange_n(p, v, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE int32_t ppu_atomic_min(int32_t *p, int32_t v)
{
	return __atomic_fetch_min(p, v, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE int32_t ppu_atomic_max(int32_t *p, int32_t v)
{
	return __atomic_fetch_max(p, v, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE uint32_t ppu_atomic_minu(uint32_t *p, uint32_t v)
{
	return __atomic_fetch_min(p, v, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE uint32_t ppu_atomic_maxu(uint32_t *p, uint32_t v)
{
	return __atomic_fetch_max(p, v, PPU_ATOMIC_ORDER);
}

/* Compare and swap: returns the old value; the swap happened if it equals @expected. */
PPU_DEV_INLINE uint32_t ppu_atomic_cas(uint32_t *p, uint32_t expected, uint32_t desired)
{
	__atomic_compare_exchange_n(p, &expected, desired, 0, PPU_ATOMIC_ORDER, PPU_ATOMIC_ORDER);
	return expected;
}

PPU_DEV_INLINE uint32_t ppu_atomic_load(const uint32_t *p)
{
	return __atomic_load_n(p, PPU_ATOMIC_ORDER);
}

PPU_DEV_INLINE void ppu_atomic_store(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, PPU_ATOMIC_ORDER);
}

/*
 * Release a semaphore the host or another channel waits on.  An amoswap
 * rather than a store: only semaphore-unit writes wake the host's blocked
 * acquires at once (§5, issue 14); a plain store is noticed only at the
 * next acquire retry.
 */
PPU_DEV_INLINE void ppu_sem_release(uint32_t *sem, uint32_t value)
{
	(void)__atomic_exchange_n(sem, value, PPU_ATOMIC_ORDER);
}

/*
 * Device-side work creation (SEEDS §C; ppu_workq.h has the protocol).
 * One command block: a pushbuffer of @ndw dwords at @va, written before it
 * is submitted and left untouched until it has run.
 */
struct ppu_workq_block {
	uint32_t va;
	uint32_t ndw;
};

/* (internal) Reserves entries e .. e + @n of @q and waits until they are free; returns e. */
PPU_DEV_INLINE uint32_t ppu_workq__reserve(struct ppu_workq *q, uint32_t n)
{
	uint32_t e = ppu_atomic_add(&q->soft, n + 1), i, backoff = 8;

	while (!ppu_workq_room(e + n, ppu_atomic_load(&q->shadow))) {
		for (i = 0; i < backoff; i++)
			__asm__ volatile("nop");
		if (backoff < 1024)
			backoff <<= 1;
	}
	return e;
}

/* (internal) The trailing block's slot of entry @k, and its VA. */
PPU_DEV_INLINE uint32_t *ppu_workq__tail(const struct ppu_workq *q, uint32_t k)
{
	return (uint32_t *)(uintptr_t)(q->tails_va +
				       (k & ((1u << q->log2_entries) - 1u)) * PPU_WORKQ_TAIL_BYTES);
}

/* (internal) Points entry @k at @ndw dwords at @va. */
PPU_DEV_INLINE void ppu_workq__entry(const struct ppu_workq *q, uint32_t k, uint32_t va, uint32_t ndw)
{
	ppu_gp_entry((uint32_t *)(uintptr_t)q->ring_va + 2 * (k & ((1u << q->log2_entries) - 1u)),
		     va, ndw, 0);
}

/* (internal) Entries from @e on are written: let the host interface reach them. */
PPU_DEV_INLINE void ppu_workq__publish(const struct ppu_workq *q, uint32_t e)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	ppu_sem_release((uint32_t *)(uintptr_t)ppu_workq_sem_va(q, e - 1),
			ppu_workq_gen(e - 1, q->log2_entries));
}

/*
 * Submit @n command blocks to the PPU-owned work queue @q (libppu sets it
 * up for a launch that creates device work).  They run in this order,
 * exactly once, after everything submitted to @q before this call's
 * reservation; blocks of other threads may come between two calls.  While
 * the ring is full the thread waits with back-off: it never writes an
 * entry the host interface has not consumed.  Returns PPU_ECALL_STATUS_OK,
 * or EINVAL (nothing submitted) for n = 0, more than PPU_WORKQ_MAX_BLOCKS,
 * or a block of 0 or too many dwords.
 */
PPU_DEV_INLINE uint32_t ppu_workq_submit(struct ppu_workq *q, const struct ppu_workq_block *blocks,
					 uint32_t n)
{
	uint32_t e, i, *tail;
	struct ppu_pb pb;

	if (!n || n > PPU_WORKQ_MAX_BLOCKS(q->log2_entries))
		return PPU_ECALL_STATUS_EINVAL;
	for (i = 0; i < n; i++)
		if (!blocks[i].ndw ||
		    blocks[i].ndw > PPU_FMASK(PPU_GP_ENTRY1_LENGTH) >> PPU_GP_ENTRY1_LENGTH__LSB)
			return PPU_ECALL_STATUS_EINVAL;
	e = ppu_workq__reserve(q, n);
	for (i = 0; i < n; i++)
		ppu_workq__entry(q, e + i, blocks[i].va, blocks[i].ndw);
	tail = ppu_workq__tail(q, e + n);
	ppu_pb_init(&pb, tail, PPU_WORKQ_TAIL_DW);
	ppu_workq_tail(&pb, q, (uint32_t)(uintptr_t)q, e + n, n);
	ppu_workq__entry(q, e + n, (uint32_t)(uintptr_t)tail, pb.len);
	ppu_workq__publish(q, e);
	return PPU_ECALL_STATUS_OK;
}

/*
 * A thread whose block launches a work-creating kernel (a PPU_WORKQ_KERNEL
 * of @threads threads, through TMD_ADDR and LAUNCH in a block of this
 * queue) adds those threads to the launch's window with this call, before
 * its own ppu_workq_done(): the window then closes only after they have
 * called ppu_workq_done() too, so what they submit runs before the stream
 * goes on.  Without it their submissions land in a later window.
 */
PPU_DEV_INLINE void ppu_workq_join(struct ppu_workq *q, uint32_t threads)
{
	ppu_atomic_add(&q->live, threads);
}

/*
 * Every thread of a launch that creates device work calls this once, after
 * its last ppu_workq_submit() (PPU_WORKQ_KERNEL does it when the body
 * returns).  The last one submits the closing block: once everything
 * submitted before it has run (and the kernels it launched have completed)
 * the launch's stream goes on, and the queue waits for the next launch.
 * A thread that never calls it (ppu_exit(), a fault) leaves the stream
 * waiting.
 */
PPU_DEV_INLINE void ppu_workq_done(struct ppu_workq *q)
{
	uint32_t e, gen, *tail;
	struct ppu_pb pb;

	if (ppu_atomic_sub(&q->live, 1) != 1)
		return;
	e = ppu_workq__reserve(q, 0);
	gen = ppu_atomic_load(&q->gen);
	tail = ppu_workq__tail(q, e);
	ppu_pb_init(&pb, tail, PPU_WORKQ_TAIL_DW);
	ppu_workq_close_block(&pb, q, (uint32_t)(uintptr_t)q, e, gen);
	ppu_workq__entry(q, e, (uint32_t)(uintptr_t)tail, pb.len);
	ppu_atomic_store(&q->gen, gen + 1);
	ppu_workq__publish(q, e);
}

/*
 * PPU_KERNEL(name, param_type) { body }: defines the entry symbol @name and
 * the body, a function of `param_type *params`.
 *
 * The entry is naked because nothing may run before gp is set and because
 * it never returns: it points gp at __global_pointer$ (defined by
 * runtime/device/ppu_kernel.ld; PC-relative, so it works at any load base),
 * calls the body with a0 = PARAM_PTR as the hardware left it, and ends the
 * thread with ecall EXIT.  The body is a normal function, so it may return.
 * Relaxation is off for the gp load: relaxing it against gp itself would be
 * wrong.
 */
#define PPU_KERNEL(name, param_type)                                             \
	static void name##__body(param_type *params) __attribute__((used));      \
	__attribute__((naked, used, aligned(4))) void name(void)                  \
	{                                                                         \
		__asm__ volatile(".option push\n\t"                               \
				 ".option norelax\n\t"                            \
				 "lla gp, __global_pointer$\n\t"                  \
				 ".option pop\n\t"                                \
				 "call " #name "__body\n\t"                       \
				 "li a7, %0\n\t"                                  \
				 "ecall\n\t"                                      \
				 :                                                \
				 : "i"(PPU_ECALL_OP_EXIT));                       \
	}                                                                         \
	static void name##__body(param_type *params)

/*
 * PPU_WORKQ_KERNEL(name, param_type) { body }: a kernel that creates device
 * work.  param_type's first member is the device address (uint32_t) of the
 * queue's descriptor, and every thread calls ppu_workq_done() on it when
 * the body returns.
 */
#define PPU_WORKQ_KERNEL(name, param_type)                                       \
	static void name##__work(param_type *params);                            \
	PPU_KERNEL(name, param_type)                                              \
	{                                                                         \
		name##__work(params);                                             \
		ppu_workq_done((struct ppu_workq *)(uintptr_t)*(const uint32_t *)params); \
	}                                                                         \
	static void name##__work(param_type *params)

#endif /* __riscv */
#endif /* PPU_DEVICE_H */
