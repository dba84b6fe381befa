// SPDX-License-Identifier: MIT
/*
 * Launch layout (see launch_plan.h).  k bounds how many CTAs of a task may
 * be started and not yet finished, because every one of them may need its
 * thread records for a save (preemption, eviction, a wait for children):
 * with k = what can be resident at once, a save always has room and a task
 * never waits for space it was not given at launch.
 */

#include "errbuf.h"
#include "launch_plan.h"
#include "ppu/ppu_encode.h"

#define STACK_MIN 64u
#define STACK_MAX 65536u
#define DIM_YZ_MAX 65535u

/* The smallest allowed stack that holds @want bytes, or 0 when too large. */
static uint32_t stack_round(uint32_t want)
{
	uint32_t s = STACK_MIN;

	if (!want)
		return 0;
	while (s < want && s < STACK_MAX)
		s <<= 1;
	return s >= want ? s : 0;
}

int ppu_launch_plan(const struct ppu_launch_limits *lim, const struct ppu_launch_shape *shape,
		    struct ppu_launch_plan *plan, char *err, size_t errlen)
{
	uint64_t ctas, threads, block;
	unsigned int i;

	if (!lim->num_cu || !lim->cu_contexts || !lim->max_cta_threads)
		return ppu_errbuf(err, errlen, "the device has no compute units");
	for (i = 0; i < 3; i++) {
		if (!shape->grid[i] || !shape->cta[i])
			return ppu_errbuf(err, errlen, "grid and CTA dimensions must be at least 1");
	}
	if (shape->grid[1] > DIM_YZ_MAX || shape->grid[2] > DIM_YZ_MAX)
		return ppu_errbuf(err, errlen, "grid y and z are at most %u", DIM_YZ_MAX);
	ctas = (uint64_t)shape->grid[0] * shape->grid[1] * shape->grid[2];
	if (ctas > UINT32_MAX)
		return ppu_errbuf(err, errlen, "a grid of %llu CTAs is more than 2^32 - 1",
			    (unsigned long long)ctas);
	threads = (uint64_t)shape->cta[0] * shape->cta[1] * shape->cta[2];
	if (threads > lim->max_cta_threads || threads > PPU_MAX_CTA_THREADS)
		return ppu_errbuf(err, errlen, "a CTA of %llu threads is more than the device's %u",
			    (unsigned long long)threads,
			    lim->max_cta_threads < PPU_MAX_CTA_THREADS ? lim->max_cta_threads :
									 PPU_MAX_CTA_THREADS);
	plan->stack_bytes = stack_round(shape->stack_bytes);
	if (shape->stack_bytes && !plan->stack_bytes)
		return ppu_errbuf(err, errlen, "a stack of %u bytes is more than %u", shape->stack_bytes,
			    STACK_MAX);
	plan->threads = (uint32_t)threads;
	plan->ctas = (uint32_t)ctas;

	plan->save_ctas = ppu_task_save_slots(plan->ctas, plan->threads, lim->num_cu,
					      lim->cu_contexts);

	block = PPU_TASK_BLOCK_HEADER_BYTES + (uint64_t)plan->save_ctas * threads *
		(PPU_THREAD_RECORD_BYTES + plan->stack_bytes);
	if (block > UINT32_MAX / 2)
		return ppu_errbuf(err, errlen, "the task block would take %llu bytes",
			    (unsigned long long)block);
	plan->block_bytes = (uint32_t)block;
	return 0;
}
