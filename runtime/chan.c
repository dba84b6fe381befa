// SPDX-License-Identifier: MIT
/*
 * Channels: a GPFIFO ring and a pushbuffer ring per channel, both buffer
 * objects of the context; USERD mapped from the driver.  Every GPFIFO
 * entry ends by releasing the channel's timeline semaphore with the
 * entry's sequence number and raising a non-stall interrupt, which is how
 * waits wake up.  Pushbuffer space is reclaimed by GP_GET, not by the
 * timeline: see pb_ring.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "drm/ppu_drm.h"
#include "ppu_internal.h"

/* SEM_RELEASE of the timeline (6 dwords) and NON_STALL_INTR (1). */
#define TAIL_DWORDS 7u

/*
 * Doorbells are stores to the channel's doorbell page where the driver
 * offers one; PPU_DOORBELL=ioctl keeps them on DRM_IOCTL_PPU_DOORBELL (to
 * compare the two, or to have a dead channel reported by the submission
 * that finds it).
 */
static int want_doorbell_page(void)
{
	const char *v = getenv("PPU_DOORBELL");

	return !v || strcmp(v, "ioctl") != 0;
}

/*
 * @cc holds the compute fields (flags COMPUTE, prio_min, max_depth) or
 * nothing, and log2_entries (0: the runtime's ring size).
 */
static ppu_status chan_new(ppu_ctx *ctx, unsigned int level, struct drm_ppu_chan_create *cc,
			   struct ppu_chan **out)
{
	struct drm_ppu_chan_destroy cd = { 0 };
	struct ppu_chan *ch;
	ppu_status st;
	void *userd;
	int ret;

	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "out of host memory");
	ch->ctx = ctx;
	ch->level = level;
	ch->compute = !!(cc->flags & DRM_PPU_CHAN_CREATE_COMPUTE);
	ch->dev_prio = ppu_prio_map_device(&ctx->map, (int)level);
	if (!cc->log2_entries)
		cc->log2_entries = PPU_RT_GP_LOG2;
	ch->entries = 1u << cc->log2_entries;
	ch->entry_start = calloc(ch->entries, sizeof(*ch->entry_start));
	if (!ch->entry_start) {
		st = ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "out of host memory");
		goto err_free;
	}
	ppu_pb_ring_init(&ch->pbr, PPU_RT_PB_BYTES / 4, ch->entries, ch->entry_start);
	st = ppu_bo_new(ctx, &ch->ring, (uint64_t)ch->entries * PPU_GP_ENTRY_BYTES, 0, 1);
	if (st)
		goto err_free;
	/* (a work queue's entries point at blocks the PPU writes: no pushbuffer ring) */
	st = cc->flags & DRM_PPU_CHAN_CREATE_AUTO_PUT ? PPU_SUCCESS :
	     ppu_bo_new(ctx, &ch->pb, PPU_RT_PB_BYTES, 0, 1);
	if (st)
		goto err_ring;
	st = ppu_sem_alloc(ctx, &ch->timeline);
	if (st)
		goto err_pb;
	/* S_level of the copy priorities; kernels take no part in them. */
	if (level > 0 && !ch->compute) {
		st = PPU_ERROR_NOT_SUPPORTED;
		if (ctx->info.local_mem_bytes) {
			/* cleared by the driver: S_level starts at 0 */
			st = ppu_bo_new(ctx, &ch->prio_mem, 1u << PPU_PAGE_SHIFT, 1, 0);
			if (!st)
				ch->prio_va = (uint32_t)ch->prio_mem.va;
			else if (st != PPU_ERROR_OUT_OF_DEVICE_MEMORY)
				goto err_timeline;
		}
		/* No local memory, or the application holds all of it: a host slot. */
		if (st) {
			ppu_clear_error();
			st = ppu_sem_alloc(ctx, &ch->prio_sem);
			if (st)
				goto err_timeline;
			ch->prio_va = ch->prio_sem.va;
		}
	}

	cc->flags |= DRM_PPU_CHAN_CREATE_PRIORITY;
	cc->priority = ch->dev_prio;
	cc->gpfifo_va = ch->ring.va;
	ret = ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_CHAN_CREATE, cc);
	if (ret == -EPERM && ch->compute) {
		/* Children climb from the channel's priority: the chain's top counts. */
		st = ppu_fail_errno(EPERM, "CHAN_CREATE: compute channel at device priority %u "
				    "with nesting depth %u reaches %u, above normal (%u), which "
				    "needs CAP_SYS_NICE", ch->dev_prio, cc->max_depth,
				    ch->dev_prio + cc->max_depth - 1, DRM_PPU_CHAN_PRIORITY_NORMAL);
		goto err_sem;
	}
	if (ret == -EPERM) {
		st = ppu_fail_errno(EPERM, "CHAN_CREATE: device priority %u is above normal (%u) "
				    "and needs CAP_SYS_NICE", ch->dev_prio,
				    DRM_PPU_CHAN_PRIORITY_NORMAL);
		goto err_sem;
	}
	if (ret) {
		st = ppu_fail_errno(-ret, "CHAN_CREATE%s at device priority %u",
				    ch->compute ? " (compute)" : "", ch->dev_prio);
		goto err_sem;
	}
	userd = mmap(NULL, DRM_PPU_USERD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd,
		     (off_t)cc->userd_offset);
	if (userd == MAP_FAILED) {
		st = ppu_fail_errno(errno, "mmap of USERD");
		cd.chid = cc->chid;
		ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_CHAN_DESTROY, &cd);
		goto err_sem;
	}
	ch->userd = userd;
	ch->chid = cc->chid;
	if (cc->doorbell_offset && want_doorbell_page()) {
		void *db = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
				ctx->fd, (off_t)cc->doorbell_offset);

		/* (the page only saves a system call: without it, the ioctl) */
		ch->doorbell = db == MAP_FAILED ? NULL : db;
	}
	*out = ch;
	return PPU_SUCCESS;

err_sem:
	ppu_bo_free(ctx, &ch->prio_mem);
	ppu_sem_free(ctx, &ch->prio_sem);
err_timeline:
	ppu_sem_free(ctx, &ch->timeline);
err_pb:
	ppu_bo_free(ctx, &ch->pb);
err_ring:
	ppu_bo_free(ctx, &ch->ring);
err_free:
	free(ch->entry_start);
	free(ch);
	return st;
}

ppu_status ppu_chan_new(ppu_ctx *ctx, unsigned int level, struct ppu_chan **out)
{
	struct drm_ppu_chan_create cc = { 0 };

	return chan_new(ctx, level, &cc, out);
}

ppu_status ppu_chan_new_compute(ppu_ctx *ctx, unsigned int level, unsigned int prio_min,
				unsigned int max_depth, struct ppu_chan **out)
{
	struct drm_ppu_chan_create cc = {
		.flags = DRM_PPU_CHAN_CREATE_COMPUTE,
		.prio_min = prio_min,
		.max_depth = max_depth,
	};

	return chan_new(ctx, level, &cc, out);
}

ppu_status ppu_chan_new_queue(ppu_ctx *ctx, unsigned int level, unsigned int log2_entries,
			      struct ppu_chan **out)
{
	struct drm_ppu_chan_create cc = {
		.flags = DRM_PPU_CHAN_CREATE_COMPUTE | DRM_PPU_CHAN_CREATE_AUTO_PUT,
		.log2_entries = log2_entries,
		.prio_min = ppu_prio_map_device(&ctx->map, (int)level),
		.max_depth = 1,
	};

	return chan_new(ctx, level, &cc, out);
}

void ppu_chan_free(struct ppu_chan *ch)
{
	struct drm_ppu_chan_destroy cd = { .chid = ch->chid };
	ppu_ctx *ctx = ch->ctx;

	if (!ch->dead)
		ppu_chan_wait(ch, ch->seq);
	ppu_chan_forget(ch);
	if (!ch->released)
		ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_CHAN_DESTROY, &cd);
	munmap((void *)ch->userd, DRM_PPU_USERD_SIZE);
	if (ch->doorbell)
		munmap((void *)ch->doorbell, DRM_PPU_DOORBELL_SIZE);
	ppu_bo_free(ctx, &ch->prio_mem);
	ppu_sem_free(ctx, &ch->prio_sem);
	ppu_sem_free(ctx, &ch->timeline);
	ppu_bo_free(ctx, &ch->pb);
	ppu_bo_free(ctx, &ch->ring);
	free(ch->deps);
	free(ch->entry_start);
	free(ch);
}

int ppu_chan_done(const struct ppu_chan *ch, uint32_t seq)
{
	return ppu_sem_passed(&ch->timeline, seq);
}

ppu_status ppu_chan_wait(struct ppu_chan *ch, uint32_t seq)
{
	if (ppu_chan_done(ch, seq))
		return PPU_SUCCESS;
	return ppu_sem_wait(ch->ctx, &ch->timeline, seq, ch);
}

/* Asks the driver whether @ch itself has faulted. */
static void chan_poll(struct ppu_chan *ch)
{
	/*
	 * A wait whose deadline has passed, for a value the timeline cannot
	 * have reached (a work queue's channel has none): the driver answers
	 * from the dead flag its fault interrupt set, with no register access.
	 */
	struct drm_ppu_sem_wait w = {
		.pool = ch->timeline.pool->id,
		.index = ch->timeline.index,
		.value = ch->seq + 1,
		.cond = DRM_PPU_SEM_WAIT_GEQ,
		.flags = DRM_PPU_SEM_WAIT_CHAN,
		.chid = ch->chid,
	};

	if (!ch->dead && ppu_ioctl(ch->ctx->fd, DRM_IOCTL_PPU_SEM_WAIT, &w) == -EIO)
		ppu_chan_faulted(ch, ch);
}

ppu_status ppu_chan_check(struct ppu_chan *ch)
{
	unsigned int i;

	chan_poll(ch);
	/* The channels this one waits on: their fault is this one's (fault.c). */
	for (i = 0; i < ch->ndeps && !ch->dead; i++)
		chan_poll(ch->deps[i].on);
	if (ch->dead)
		return ppu_chan_fault_status(ch);
	return PPU_SUCCESS;
}

/* GP_GET as the PPU last wrote it back to USERD. */
static uint32_t chan_gp_get(const struct ppu_chan *ch)
{
	/* Read before the pushbuffer words it frees are written. */
	return __atomic_load_n(&ch->userd[DRM_PPU_USERD_GP_GET / 4], __ATOMIC_ACQUIRE) &
	       (ch->entries - 1);
}

/*
 * Waits until GP_GET has moved past at least the oldest unconsumed entry.
 * The release of the entry after it proves that (the host fetches an entry
 * only after writing back GP_GET for the one before), and it comes with an
 * interrupt to sleep on.  The newest entry has no successor: the few
 * methods after its release are a short poll away.
 */
static ppu_status chan_wait_consumed(struct ppu_chan *ch, uint32_t get)
{
	uint32_t busy = ppu_pb_ring_busy(&ch->pbr, ch->put, get);
	uint32_t next = ch->seq - busy + 2;	/* the timeline value after the oldest */
	struct timespec ts = { 0, 50000 };
	unsigned int i;
	ppu_status st;

	if (busy > 1 && !ppu_sem_passed(&ch->timeline, next))
		return ppu_sem_wait(ch->ctx, &ch->timeline, next, ch);
	st = ppu_chan_wait(ch, ch->seq - busy + 1);
	for (i = 0; !st && chan_gp_get(ch) == get; i++) {
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 1000000)
			ts.tv_nsec *= 2;
		if (i % 16 == 15)
			st = ppu_chan_check(ch);
	}
	return st;
}

ppu_status ppu_chan_begin(struct ppu_chan *ch, uint32_t min, struct ppu_pb *pb)
{
	uint32_t need = min + TAIL_DWORDS, at, avail, get;
	ppu_status st;

	if (ch->dead)
		return ppu_chan_fault_status(ch);
	if (need >= ch->pbr.dwords || need > PPU_RT_SEGMENT_DWORDS)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "a command of %u dwords does not fit a "
				"pushbuffer segment", min);
	for (;;) {
		get = chan_gp_get(ch);
		if (ppu_pb_ring_find(&ch->pbr, ch->put, get, need, &at, &avail))
			break;
		st = chan_wait_consumed(ch, get);
		if (st)
			return st;
	}
	if (avail > PPU_RT_SEGMENT_DWORDS)
		avail = PPU_RT_SEGMENT_DWORDS;
	ppu_pb_init(pb, (uint32_t *)ch->pb.map + at, avail - TAIL_DWORDS);
	return PPU_SUCCESS;
}

ppu_status ppu_chan_submit(struct ppu_chan *ch, struct ppu_pb *pb, uint32_t *seq)
{
	struct drm_ppu_doorbell db = { .chid = ch->chid };
	uint32_t start = (uint32_t)(pb->dw - (uint32_t *)ch->pb.map);
	uint32_t *gp = (uint32_t *)ch->ring.map + 2 * ch->put;
	uint32_t next = ch->seq + 1;
	int ret;

	if (pb->overflow)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "internal: pushbuffer segment overflow");
	/* (the page's store cannot report a dead channel: the last wait's word stands) */
	if (ch->doorbell && ch->dead)
		return ppu_chan_fault_status(ch);
	pb->cap += TAIL_DWORDS;
	ppu_pb_sem_release(pb, ch->timeline.va, next);
	ppu_pb_nonstall(pb);

	ppu_gp_entry(gp, (uint32_t)ch->pb.va + 4 * start, pb->len, 0);
	ppu_pb_ring_push(&ch->pbr, ch->put, start, pb->len);
	ch->seq = next;
	ch->stamp = ++ch->ctx->submits;
	ch->put = (ch->put + 1) & (ch->entries - 1);
	/* The PPU must see the pushbuffer and the entry before GP_PUT. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	ch->userd[DRM_PPU_USERD_GP_PUT / 4] = ch->put;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (seq)
		*seq = next;
	if (ch->doorbell) {
		ch->doorbell[DRM_PPU_DOORBELL_GP_PUT / 4] = ch->put;
		ret = 0;
	} else {
		ret = ppu_ioctl(ch->ctx->fd, DRM_IOCTL_PPU_DOORBELL, &db);
	}
	if (ret == -EIO) {
		ppu_chan_faulted(ch, ch);
		return ppu_chan_fault_status(ch);
	}
	if (ret)
		return ppu_fail_errno(-ret, "DOORBELL");
	/*
	 * Where host calls meet the device the timeline needs its sync points
	 * most: the device's clock need not run at a steady rate between two
	 * far-apart ones (the co-simulated PPU is not clocked while idle).
	 */
	if (PPU_TRACING())
		ppu_trace_sync_counter(ch->ctx);
	return PPU_SUCCESS;
}
