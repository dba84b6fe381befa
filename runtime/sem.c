// SPDX-License-Identifier: MIT
/*
 * Semaphores: 16-byte slots handed out from the driver's semaphore pools
 * (zeroed, CPU-mapped, bound in the context's address space), and waits on
 * them through DRM_IOCTL_PPU_SEM_WAIT, which sleeps until an interrupt.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "drm/ppu_drm.h"
#include "ppu_internal.h"

/* Waits are re-armed this often, so a channel's fault is seen promptly. */
#define WAIT_SLICE_NS 1000000000ll

static ppu_status pool_new(ppu_ctx *ctx, struct ppu_pool **out)
{
	struct drm_ppu_sem_pool_create pc = { .count = PPU_RT_POOL_SEMS };
	struct drm_ppu_sem_pool_destroy pd = { 0 };
	struct ppu_pool *p;
	void *map;
	int ret;

	if (ctx->npools == PPU_RT_MAX_POOLS)
		return ppu_fail(PPU_ERROR_OUT_OF_RESOURCES, "more than %u semaphores",
				PPU_RT_MAX_POOLS * PPU_RT_POOL_SEMS);
	p = calloc(1, sizeof(*p));
	if (!p)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "out of host memory");
	ret = ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_SEM_POOL_CREATE, &pc);
	if (ret) {
		free(p);
		return ppu_fail_errno(-ret, "SEM_POOL_CREATE");
	}
	p->map_bytes = (uint64_t)PPU_RT_POOL_SEMS * DRM_PPU_SEM_BYTES;
	map = mmap(NULL, p->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd,
		   (off_t)pc.mmap_offset);
	if (map == MAP_FAILED) {
		ppu_status st = ppu_fail_errno(errno, "mmap of a semaphore pool");

		pd.pool = pc.pool;
		ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_SEM_POOL_DESTROY, &pd);
		free(p);
		return st;
	}
	p->id = pc.pool;
	p->va = (uint32_t)pc.va;
	p->map = map;
	ctx->pools[ctx->npools++] = p;
	*out = p;
	return PPU_SUCCESS;
}

ppu_status ppu_sem_alloc(ppu_ctx *ctx, struct ppu_sem *s)
{
	struct ppu_pool *p = NULL;
	unsigned int i, j;
	ppu_status st;

	for (i = 0; i < ctx->npools && !p; i++)
		for (j = 0; j < PPU_RT_POOL_SEMS; j++)
			if (!ctx->pools[i]->used[j]) {
				p = ctx->pools[i];
				break;
			}
	if (!p) {
		st = pool_new(ctx, &p);
		if (st)
			return st;
		j = 0;
	}
	p->used[j] = 1;
	s->pool = p;
	s->index = j;
	s->va = p->va + j * DRM_PPU_SEM_BYTES;
	s->cpu = (volatile uint32_t *)(p->map + j * DRM_PPU_SEM_BYTES);
	/* A recycled slot starts from 0 like a fresh one. */
	s->cpu[0] = 0;
	s->cpu[1] = 0;
	s->cpu[2] = 0;
	s->cpu[3] = 0;
	return PPU_SUCCESS;
}

void ppu_sem_free(ppu_ctx *ctx, struct ppu_sem *s)
{
	(void)ctx;
	if (s->pool)
		s->pool->used[s->index] = 0;
	memset(s, 0, sizeof(*s));
}

void ppu_pools_free(ppu_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->npools; i++) {
		struct drm_ppu_sem_pool_destroy pd = { .pool = ctx->pools[i]->id };

		munmap((void *)ctx->pools[i]->map, ctx->pools[i]->map_bytes);
		ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_SEM_POOL_DESTROY, &pd);
		free(ctx->pools[i]);
	}
	ctx->npools = 0;
}

int ppu_sem_passed(const struct ppu_sem *s, uint32_t value)
{
	return (int32_t)(s->cpu[0] - value) >= 0;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

ppu_status ppu_sem_wait(ppu_ctx *ctx, const struct ppu_sem *s, uint32_t value,
			struct ppu_chan *chan)
{
	for (;;) {
		struct drm_ppu_sem_wait w = {
			.pool = s->pool->id,
			.index = s->index,
			.value = value,
			.cond = DRM_PPU_SEM_WAIT_GEQ,
			.timeout_ns = now_ns() + WAIT_SLICE_NS,
		};
		int ret;

		if (chan) {
			if (chan->dead)
				return ppu_chan_fault_status(chan);
			w.flags = DRM_PPU_SEM_WAIT_CHAN;
			w.chid = chan->chid;
		}
		ret = ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_SEM_WAIT, &w);
		if (!ret || ppu_sem_passed(s, value))
			return PPU_SUCCESS;
		/*
		 * SEM_WAIT reports its deadline as -ETIME: re-arm, after asking
		 * whether another channel's fault holds this one up (fault.c).
		 */
		if (ret == -ETIME) {
			ppu_ctx_poll_faults(ctx);
			continue;
		}
		if (ret == -EIO && chan) {
			ppu_chan_faulted(chan, chan);
			return ppu_chan_fault_status(chan);
		}
		return ppu_fail_errno(-ret, "SEM_WAIT");
	}
}
