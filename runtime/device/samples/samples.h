/* SPDX-License-Identifier: MIT */
/*
 * Parameter blocks of the sample kernels in this directory.  Shared by the
 * kernels (riscv32) and the host programs that launch them or check their
 * results, so addresses are 32-bit device VAs, never pointers.
 */
#ifndef PPU_SAMPLES_H
#define PPU_SAMPLES_H

#include <stdint.h>

#include "ppu/ppu_encode.h"

/* y[i] = a * x[i] + y[i] for i < n, in wrapping int32 (no FPU on the PPU). */
struct saxpy_params {
	uint32_t n;
	int32_t a;
	uint32_t x;		/* int32_t[n] */
	uint32_t y;		/* int32_t[n] */
};

/*
 * Over in[0..n): out[0] += the sum (mod 2^32), one amoadd per thread;
 * out[1] = max(out[1], the largest element) with amomaxu; out[2] counts
 * the threads with a compare-and-swap loop (lr.w/sc.w).
 */
struct reduce_params {
	uint32_t n;
	uint32_t in;		/* uint32_t[n] */
	uint32_t out;		/* uint32_t[3] */
};

/* bins[in[i] % nbins] += 1 for i < n, with atomic increments. */
struct histogram_params {
	uint32_t n;
	uint32_t nbins;
	uint32_t in;		/* uint32_t[n] */
	uint32_t bins;		/* uint32_t[nbins] */
};

/* out[global id] = checksum_run(ring, seed, global id, iters) below. */
struct checksum_params {
	uint32_t iters;
	uint32_t seed;
	uint32_t out;		/* uint32_t[threads] */
};

/*
 * Threads tid >= active exit at once.  The others exchange values through
 * buf (2 * ntid words, double-buffered) across 1 + rounds barriers: in
 * round r each live thread combines its value with its neighbours' from the
 * previous round.  Odd threads exit after exit_round rounds, so the
 * barriers after that count only the even ones.  Every thread that did not
 * exit at once stores its last value in out[tid].  Each CTA of a grid uses
 * its own buf and out, at ctaid * 2 * ntid and ctaid * ntid.
 */
struct barrier_params {
	uint32_t rounds;
	uint32_t active;	/* 1..ntid */
	uint32_t exit_round;
	uint32_t seed;
	uint32_t buf;		/* uint32_t[nctaid * 2 * ntid] */
	uint32_t out;		/* uint32_t[nctaid * ntid] */
};

/*
 * For every i < n, one thread per i: the M-extension results of the pair
 * (a, b) = in[2i], in[2i + 1] and a data-dependent branchy value, stored
 * at out[DIVERGENT_OUT_WORDS * i].
 */
#define DIVERGENT_OUT_WORDS 10
struct divergent_params {
	uint32_t n;
	uint32_t in;		/* uint32_t[2 * n] */
	uint32_t out;		/* uint32_t[DIVERGENT_OUT_WORDS * n] */
};

/*
 * Every id and dim the device header derives, IDS_OUT_WORDS per thread at
 * out[IDS_OUT_WORDS * global id], in the order of the kernel.  The thread
 * whose global id is trap_id calls ppu_trap(IDS_TRAP_CODE) instead.
 */
#define IDS_OUT_WORDS 20
#define IDS_TRAP_CODE 0xc0de
struct ids_params {
	uint32_t trap_id;	/* 0xffffffff: none */
	uint32_t out;		/* uint32_t[IDS_OUT_WORDS * threads] */
};

/*
 * out[i] = lookup_tables[which][i % LOOKUP_ENTRIES] for i < n, through a
 * global table of pointers into the image (relocated when the module is
 * loaded); every thread adds 1 to the global lookup_calls.
 */
#define LOOKUP_ENTRIES 8
struct lookup_params {
	uint32_t n;
	uint32_t which;		/* 0 squares, 1 cubes */
	uint32_t out;		/* uint32_t[n] */
};

/*
 * A register-only loop of iters rounds per thread (no memory access until
 * the end): out[global id] = spin_run(seed ^ global id, iters).  Used to
 * fill the compute units for issue-rate and priority measurements.
 */
struct spin_params {
	uint32_t iters;
	uint32_t seed;
	uint32_t out;		/* uint32_t[threads] */
};

static inline uint32_t spin_run(uint32_t x, uint32_t iters)
{
	uint32_t h = 0x811c9dc5u;

	for (uint32_t i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		h = (h ^ x) * 0x01000193u;
	}
	return h;
}

/* out[global id] = the low half of the PPU cycle counter at the thread's start. */
struct stamp_params {
	uint32_t out;		/* uint32_t[threads] */
};

/* out[0] = the counter before launching the TMD at tmd, out[1] = the status. */
struct stamp_launch_params {
	uint32_t tmd;
	uint32_t out;		/* uint32_t[2] */
};

/* Round r of the barrier kernel: thread tid's new value. */
static inline uint32_t barrier_mix(const uint32_t *src, uint32_t tid, uint32_t active, uint32_t r)
{
	uint32_t right = src[(tid + 1) % active], left = src[(tid + active - 1) % active];

	return (src[tid] * 3u + right) ^ (left >> 3) ^ (r * 0x01000193u);
}

/* The per-step mix of the checksum kernel, shared with the host's reference. */
static inline uint32_t checksum_step(uint32_t h, uint32_t x, uint32_t k)
{
	h ^= x + 0x9e3779b9u + (h << 6) + (h >> 2);
	h = (h << 13 | h >> 19) * 5u + 0xe6546b64u;
	return h ^ k;
}

/*
 * The checksum kernel's whole computation, for the kernel (@ring on its
 * stack, volatile so that it stays in memory) and the host's reference.
 */
static inline uint32_t checksum_run(volatile uint32_t *ring, uint32_t seed, uint32_t id,
				    uint32_t iters)
{
	uint32_t x = seed ^ (id * 0x85ebca6bu), h = id;

	for (uint32_t i = 0; i < 8; i++)
		ring[i] = x + i;
	for (uint32_t i = 0; i < iters; i++) {
		uint32_t k = ring[i & 7];

		x = x * 1664525u + 1013904223u;
		ring[i & 7] = x ^ h;
		h = checksum_step(h, x, k);
		h += (uint32_t)(((uint64_t)x * h) >> 32);
		if ((x & 0x70) == 0)
			h ^= x / ((h & 0xf) + 1);
	}
	return h;
}

/*
 * A chain of device launches (dynamic parallelism): the task at chain
 * position `level` records its priority and depth, launches the TMD of
 * position level + 1 if there is one (tmds[level + 1], a device VA), and
 * records the launch's status; with `wait` it waits for its children and
 * records what the child wrote.  out[NEST_OUT_WORDS * level + ...].
 */
enum { NEST_PRIO, NEST_DEPTH, NEST_STATUS, NEST_CHILD_PRIO, NEST_WAIT_RET, NEST_SPIN, NEST_OUT_WORDS };
#define NEST_NO_LAUNCH 0xffffffffu	/* NEST_STATUS of the last position */
struct nest_params {
	uint32_t level;
	uint32_t levels;	/* positions in tmds[] */
	uint32_t tmds;		/* uint32_t[levels]: TMD VAs (tmds[0] is the host's) */
	uint32_t out;		/* uint32_t[NEST_OUT_WORDS * levels] */
	uint32_t wait;
	uint32_t spin;		/* rounds of spin_run (into NEST_SPIN) before the thread ends */
};

/*
 * Fan-out (fanout.c): thread 0 of each CTA launches tmds[CTA id], a child
 * (fanout_child) that writes `value` to `slot`; every thread of the CTA
 * then waits for the CTA's children and copies its CTA's slot to
 * res[global id].  With the parents on every context of the PPU, their
 * children can only run if the waiting parents give up their contexts.
 */
struct fanout_params {
	uint32_t tmds;		/* uint32_t[CTAs]: TMD VAs */
	uint32_t slots;		/* uint32_t[CTAs]: written by the children */
	uint32_t res;		/* uint32_t[threads] */
	uint32_t status;	/* uint32_t[CTAs]: the launches' statuses */
};
struct fanout_child_params {
	uint32_t slot;		/* uint32_t *: where the value goes */
	uint32_t value;
	uint32_t spin;		/* rounds of spin_run first */
};

/*
 * Dynamic-parallelism sum (dp_sum.c): parent thread i (i < n) launches a
 * child grid of counts[i] CTAs of DP_SUM_CHILD_T threads with ppu_launch,
 * its TMD, block and parameters in pool + i * stride; every child thread
 * g adds i * 1000 + g to out[i] atomically; the parent waits for its CTA's
 * children and copies out[i] to res[i] (the children's writes are visible
 * after the wait).  status[i] = the launch's status.
 */
enum { DP_SUM_CHILD_T = 4, DP_SUM_STACK = 256 };
struct dp_sum_params {
	uint32_t n;
	uint32_t counts;	/* uint32_t[n] */
	uint32_t pool;		/* n * stride bytes, 64-byte aligned */
	uint32_t stride;
	uint32_t out;		/* uint32_t[n], zero */
	uint32_t res;		/* uint32_t[n] */
	uint32_t status;	/* uint32_t[n] */
};
struct dp_sum_child_params {
	uint32_t out;		/* uint32_t *: the parent's sum */
	uint32_t base;		/* i * 1000 */
};

/*
 * The divergent-phase example of the dynamic-parallelism chapter (SEEDS
 * §D; diverge.c): CTAs of spacing * m threads; the threads whose index is
 * a multiple of `spacing` go on, the others return.  Without dynamic
 * parallelism (dp = 0) each of them calls entry(), which adds 1 to foo n
 * times; with it (dp = 1) thread 0 instead launches entry as a child
 * kernel of m threads.  Thread 0 then sets its CTA's shared value x to 5
 * and ends; after a barrier the other m - 1 threads add x to foo.  foo =
 * K * (n * m + 5 * (m - 1)) for K CTAs, in both styles.
 */
struct diverge_params {
	uint32_t foo;		/* uint32_t *, zero */
	uint32_t x;		/* uint32_t[K]: the CTAs' "shared" x */
	uint32_t n, m, spacing, dp;
	uint32_t pool;		/* dp: K * DIVERGE_POOL_STRIDE bytes, 64-byte aligned */
};
enum { DIVERGE_POOL_STRIDE = 16384 };
struct diverge_entry_params {
	uint32_t foo;
	uint32_t n;
};

/*
 * A chain of device launches built on the device (dp_chain.c): the task at
 * position `level` records its priority, depth and the status of
 * launching itself again at position level + 1 with ppu_launch (its TMD,
 * block and parameters in pool + (level + 1) * DP_CHAIN_STRIDE), until a
 * launch fails; out[NEST_OUT_WORDS * level + NEST_*].
 */
enum { DP_CHAIN_STRIDE = 4096 };
struct dp_chain_params {
	uint32_t level;
	uint32_t levels;	/* pool slots: positions that may exist */
	uint32_t pool;		/* levels * DP_CHAIN_STRIDE, 64-byte aligned */
	uint32_t out;		/* uint32_t[NEST_OUT_WORDS * levels] */
};

/*
 * Adaptive Bezier tessellation with dynamic parallelism (bezier.c, after
 * the CUDA sample): one parent thread per quadratic curve (control points
 * p0, p1, p2 in Q16.16) picks the number of points from the curve's
 * curvature and launches a child grid with a thread per point.  No FPU on
 * the PPU: fixed point, the same arithmetic as bezier_point() below, which
 * the host uses as its reference.  Curvature: the Manhattan distance of p1
 * from the chord's midpoint, in whole units.
 */
enum { BEZIER_MIN_POINTS = 4, BEZIER_MAX_POINTS = 64, BEZIER_CHILD_T = 8, BEZIER_STRIDE = 16384 };
struct bezier_line {
	int32_t p[3][2];	/* control points, Q16.16 */
	uint32_t npoints;	/* set by the parent */
	uint32_t points;	/* int32_t[BEZIER_MAX_POINTS][2], written by the child */
	uint32_t status;	/* the launch's status */
	uint32_t pad;
};
struct bezier_params {
	uint32_t n;		/* curves */
	uint32_t lines;		/* struct bezier_line[n] */
	uint32_t pool;		/* n * BEZIER_STRIDE bytes, 64-byte aligned */
	uint32_t flat;		/* 1: the parent computes the points itself (no children) */
};
struct bezier_child_params {
	uint32_t line;		/* struct bezier_line * */
	uint32_t pad[3];
};

static inline int32_t bezier_abs(int32_t v)
{
	return v < 0 ? -v : v;
}

static inline uint32_t bezier_npoints(const int32_t p[3][2])
{
	int32_t mx = (p[0][0] + p[2][0]) / 2, my = (p[0][1] + p[2][1]) / 2;
	uint32_t curv = (uint32_t)(bezier_abs(p[1][0] - mx) + bezier_abs(p[1][1] - my)) >> 16;
	uint32_t n = BEZIER_MIN_POINTS + curv;

	return n > BEZIER_MAX_POINTS ? (uint32_t)BEZIER_MAX_POINTS : n;
}

/* Point i of n on the curve: (1-u)^2 p0 + 2 (1-u) u p1 + u^2 p2, u = i / (n - 1), Q16.16. */
static inline void bezier_point(const int32_t p[3][2], uint32_t i, uint32_t n, int32_t out[2])
{
	int64_t u = (int64_t)((i << 16) / (n - 1)), v = 65536 - u;
	int64_t a = (v * v) >> 16, b = (2 * v * u) >> 16, c = (u * u) >> 16;

	for (int k = 0; k < 2; k++)
		out[k] = (int32_t)((a * p[0][k] + b * p[1][k] + c * p[2][k]) >> 16);
}

/*
 * Recursive quicksort with dynamic parallelism (qsort_dp.c, after the CUDA
 * sample): a task of one thread sorts data[left..right]: short ranges, or
 * at the channel's max nesting depth, with a selection sort; otherwise it
 * partitions around the middle element and launches a child for each
 * side (sorting that side itself when the launch is refused, e.g. no task
 * id free).  Child memory comes from a pool by an atomic bump allocator.
 * flat = 1 does the same work in one thread (a call instead of a launch,
 * the depth counted the same way), for the overhead benchmark.
 */
enum { QSORT_SELECTION = 16, QSORT_SLOT = 2048 };
struct qsort_params {
	uint32_t data;		/* uint32_t[] */
	int32_t left, right;	/* inclusive */
	uint32_t pool;		/* QSORT_SLOT-byte slots, 64-byte aligned */
	uint32_t pool_slots;
	uint32_t next;		/* uint32_t *: the next free slot (atomic) */
	uint32_t refused;	/* uint32_t *: launches refused (sorted in place instead) */
	uint32_t flat;		/* 1: recurse in the thread instead of launching (same cut-offs) */
};

/*
 * A random tree of device launches (dp_rand.c), for stress tests: every
 * thread counts itself in counters[0]; a thread may (by a hash of the seed,
 * its task's depth and its global id) launch a child of 1..3 CTAs of 1..8
 * threads from the pool (bump allocator counters[2]; an OK launch adds its
 * threads to counters[1]) and may wait for its CTA's children, barriers
 * included.  At the end counters[0] = the root's threads + counters[1].
 */
enum { DP_RAND_SLOT = 16384 };
struct dp_rand_params {
	uint32_t seed;
	uint32_t counters;	/* uint32_t[4]: ran, launched threads, next slot, refused */
	uint32_t pool;
	uint32_t pool_slots;
};

/*
 * Device-side work creation (workq_fill.c): every thread makes `subs`
 * submissions to the PPU-owned work queue at `queue`, each of
 * workq_fill_blocks() blocks (1..3).  Block j of thread i acquires
 * tickets[i] == j, increments it and increments *total, so a block that
 * ran twice or before an earlier one of its thread would hang the queue.
 * The blocks are built in the thread's WORKQ_FILL_ARENA bytes of `arena`
 * (WORKQ_FILL_BLOCK bytes each); status[i] = the OR of its submit results.
 */
enum { WORKQ_FILL_BLOCK = 128, WORKQ_FILL_ARENA = 64 * WORKQ_FILL_BLOCK };
struct workq_fill_params {
	uint32_t queue;		/* struct ppu_workq */
	uint32_t subs;		/* submissions per thread, at most 21 (the arena) */
	uint32_t seed;
	uint32_t arena;
	uint32_t tickets;	/* uint32_t[threads] */
	uint32_t total;		/* uint32_t */
	uint32_t status;	/* uint32_t[threads] */
};

/*
 * Block j of a producer's sequence: wait for its ticket to be j, then
 * advance it, so a block run twice or before an earlier one hangs its queue
 * (also the AUTO_PUT ring tests' blocks).
 */
static inline void workq_ticket_block(struct ppu_pb *pb, uint32_t ticket_va, uint32_t j)
{
	ppu_pb_sem(pb, ticket_va, j, ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0));
	ppu_pb_sem_inc(pb, ticket_va);
}

static inline uint32_t workq_fill_blocks(uint32_t seed, uint32_t id, uint32_t sub)
{
	uint32_t x = seed ^ (id * 0x9e3779b9u) ^ (sub * 0x85ebca6bu);

	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;
	return 1 + x % 3;
}

/*
 * Work-queue benchmarks (workq_bench.c).  workq_stamp: one thread, `reps`
 * times: reads the cycle counter into t0[r], submits one block that
 * releases slot r of `sems` (16 bytes each) with the value r + 1 and a
 * timestamp, and waits for it, so each submission meets an idle queue.
 * workq_flood: every thread submits `reps` one-block submissions of the
 * shared block at `blk` (which counts them) as fast as the queue takes them.
 */
struct workq_bench_params {
	uint32_t queue;		/* struct ppu_workq */
	uint32_t reps;
	uint32_t sems;		/* workq_stamp: 16 * reps bytes */
	uint32_t t0;		/* workq_stamp: uint32_t[reps] */
	uint32_t blks;		/* workq_stamp: 64 * reps bytes of blocks; workq_flood: the block */
	uint32_t blk_dw;	/* workq_flood: its length */
};

/*
 * Device-side submission against the host round trip (bench_workq in the
 * guest).  workq_self (a work-creating launch): one thread stores the cycle
 * counter to t0[0] and submits a block that releases `sems` (value 1, with
 * the PPU's timestamp).  workq_signal (a plain launch): one thread stores
 * the cycle counter to t0[1] and then 1 to t0[0], for the host to see and
 * submit the same release itself.
 */
struct workq_rt_params {
	uint32_t queue;		/* workq_self: struct ppu_workq */
	uint32_t sems;		/* 16 bytes */
	uint32_t t0;		/* uint32_t[2] */
	uint32_t blk;		/* workq_self: 64 bytes for the block */
};

/*
 * Work creation by data (workq_spawn.c, runtime_demo section 5): thread i
 * of workq_spawn (a work-creating launch) looks at items[i] = v and, unless
 * v % 3 == 0, enqueues a follow-up kernel: workq_child on one CTA of
 * v % 4 + 1 threads, each adding v to out[i] (its TMD, task block,
 * parameters and the launching block in the thread's WORKQ_SPAWN_SLOT
 * bytes of `pool`); *spawned counts the follow-ups.
 */
enum { WORKQ_SPAWN_SLOT = 4096, WORKQ_SPAWN_PARAMS = 3072, WORKQ_SPAWN_BLOCK = 3584 };
struct workq_spawn_params {
	uint32_t queue;		/* struct ppu_workq */
	uint32_t items;		/* uint32_t[threads] */
	uint32_t pool;		/* threads * WORKQ_SPAWN_SLOT bytes, 64-byte aligned */
	uint32_t out;		/* uint32_t[threads] */
	uint32_t spawned;	/* uint32_t */
};
struct workq_child_params {
	uint32_t out;
	uint32_t v;
};

/*
 * Work-creating kernels launched from queue blocks (workq_spawn.c):
 * workq_tree is workq_spawn with workq_leaf as the follow-up, a
 * PPU_WORKQ_KERNEL whose threads each submit one more block adding v to
 * out[i] (in the spawning thread's slot at WORKQ_LEAF_BLOCKS + 64 * j);
 * the spawning thread joins them to the window first (ppu_workq_join()),
 * so out[] is final when the stream goes on.
 */
enum { WORKQ_LEAF_BLOCKS = 3648 };
struct workq_leaf_params {
	uint32_t queue;		/* struct ppu_workq */
	uint32_t out;
	uint32_t v;
	uint32_t blocks;
};

static inline uint32_t workq_spawn_threads(uint32_t v)
{
	return v % 3 ? v % 4 + 1 : 0;
}

/*
 * Copies from the PPU-owned work queue (workq_copy.c): thread i of
 * workq_copy (a work-creating launch) submits two blocks at once, both run
 * by the copy engine on the queue's compute channel (subchannel COPY):
 * src → stage, then stage → dst (the second needs the first to be complete)
 * releasing done[i] = i + 1 and adding 1 to *total.  Thread i's bytes are
 * workq_copy_len(i) at offset workq_copy_off(i) of each region; its blocks
 * in the thread's WORKQ_COPY_SLOT bytes of `blocks`.
 */
enum { WORKQ_COPY_SLOT = 256, WORKQ_COPY_SPAN = 4096 };
struct workq_copy_params {
	uint32_t queue;		/* struct ppu_workq */
	uint32_t src, stage, dst;	/* threads * WORKQ_COPY_SPAN bytes each */
	uint32_t blocks;	/* threads * WORKQ_COPY_SLOT bytes */
	uint32_t done;		/* uint32_t[threads] */
	uint32_t total;		/* uint32_t */
	uint32_t status;	/* uint32_t[threads] */
};

/* Lengths 1 .. 3001 and start offsets 0 .. 6 (unaligned copies). */
static inline uint32_t workq_copy_len(uint32_t id)
{
	return 1 + (id * 977u + 333u) % 3001u;
}

static inline uint32_t workq_copy_off(uint32_t id)
{
	return id * WORKQ_COPY_SPAN + id % 7;
}

#endif /* PPU_SAMPLES_H */
