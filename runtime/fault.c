// SPDX-License-Identifier: MIT
/*
 * What a channel fault does to the rest of the context.
 *
 * The PPU stops only the faulting channel, but the context's other
 * channels can depend on it in two ways:
 *
 * - Copy priorities: only the level-n channel increments S_n, and a fault
 *   between its SEM_INC and SEM_DEC leaves S_n above 0 for ever, so every
 *   lower level would block on its acquire.  That work does not depend on
 *   the lost copy, so S_n is set back to 0 (no copy of level n is in
 *   flight any more) and the lower levels go on.
 * - Event waits: a channel waiting for an event whose record was lost
 *   would block for ever, and its work must not run on data that was never
 *   produced.  It is marked dead as well (its later work fails with
 *   PPU_ERROR_CHANNEL_FAULT naming the cause), and so on down the chain.
 *   The waits that keep a level's order between its copy and its compute
 *   channel (stream.c) are the same kind of dependency: a faulted kernel
 *   takes the copies issued after it down, and the other way round.
 *
 * Nothing interrupts the application, so a fault is noticed when a call
 * asks: every wait also asks about the context's other channels once per
 * wait slice, and queries ask about the channels their stream waits on.
 */
#include <stdlib.h>

#include "drm/ppu_drm.h"
#include "ppu_internal.h"

/*
 * S_n := 0.  A host slot is written by the CPU (the PPU re-checks blocked
 * acquires every SCHED_ACQ_RETRY cycles); local memory only the PPU can
 * write, through a channel of its own for this one release.  With every
 * hardware channel taken, the dead channel's own id is given back first:
 * it will never run again.
 */
static void prio_sem_clear(struct ppu_chan *dead)
{
	struct drm_ppu_chan_destroy cd = { .chid = dead->chid };
	struct ppu_chan *h;
	struct ppu_pb pb;
	ppu_status st;
	uint32_t seq;

	if (!dead->prio_va)
		return;
	if (dead->prio_sem.cpu) {
		__atomic_store_n(&dead->prio_sem.cpu[0], 0, __ATOMIC_RELEASE);
		return;
	}
	st = ppu_chan_new(dead->ctx, 0, &h);
	if (st == PPU_ERROR_OUT_OF_RESOURCES && !dead->released) {
		ppu_ioctl(dead->ctx->fd, DRM_IOCTL_PPU_CHAN_DESTROY, &cd);
		dead->released = 1;
		st = ppu_chan_new(dead->ctx, 0, &h);
	}
	/* Errors leave the lower levels blocked; the caller reports the fault. */
	if (st)
		return;
	if (!ppu_chan_begin(h, 6, &pb)) {
		ppu_pb_sem_release(&pb, dead->prio_va, 0);
		if (!ppu_chan_submit(h, &pb, &seq))
			ppu_chan_wait(h, seq);
	}
	ppu_chan_free(h);
}

/* Whether @ch still has an event wait for lost work of @dead. */
static int waits_on(const struct ppu_chan *ch, const struct ppu_chan *dead)
{
	unsigned int i;

	for (i = 0; i < ch->ndeps; i++) {
		const struct ppu_chan_dep *d = &ch->deps[i];

		if (d->on == dead && !ppu_chan_done(ch, d->seq) && !ppu_chan_done(dead, d->on_seq))
			return 1;
	}
	return 0;
}

void ppu_chan_faulted(struct ppu_chan *ch, struct ppu_chan *cause)
{
	ppu_ctx *ctx = ch->ctx;
	unsigned int i;

	if (ch->dead)
		return;
	ch->dead = 1;
	ch->dead_cause = cause->chid;
	prio_sem_clear(ch);
	for (i = 0; i < PPU_RT_CHANS; i++) {
		struct ppu_chan *c = ppu_ctx_chan(ctx, i);

		if (c && !c->dead && waits_on(c, ch))
			ppu_chan_faulted(c, cause);
	}
}

/* Names of the fault kinds (drm/ppu_drm.h), for messages. */
static const char *fault_kind_name(unsigned int kind)
{
	static const char *const names[] = {
		[DRM_PPU_FAULT_PTE_NOT_PRESENT] = "page not present",
		[DRM_PPU_FAULT_PERMISSION] = "permission",
		[DRM_PPU_FAULT_BUS_ERROR] = "bus error",
		[DRM_PPU_FAULT_ILLEGAL_METHOD] = "illegal method",
		[DRM_PPU_FAULT_ILLEGAL_OPCODE] = "illegal method header",
		[DRM_PPU_FAULT_PB_UNALIGNED] = "unaligned pushbuffer",
		[DRM_PPU_FAULT_PB_RUNAWAY] = "pushbuffer runaway",
		[DRM_PPU_FAULT_GP_PUT_RANGE] = "GP_PUT out of range",
		[DRM_PPU_FAULT_ACQ_TIMEOUT] = "acquire timeout",
		[DRM_PPU_FAULT_SEM_UNALIGNED] = "unaligned semaphore",
		[DRM_PPU_FAULT_VA_RANGE] = "address out of range",
		[DRM_PPU_FAULT_INST_INVALID] = "invalid instance block",
		[DRM_PPU_FAULT_ENGINE_MISSING] = "engine missing",
		[DRM_PPU_FAULT_ILLEGAL_INSTR] = "illegal instruction",
		[DRM_PPU_FAULT_MISALIGNED] = "misaligned access",
		[DRM_PPU_FAULT_TMD_INVALID] = "invalid TMD",
		[DRM_PPU_FAULT_KERNEL_TRAP] = "kernel trap",
		[DRM_PPU_FAULT_ENGINE_RESET] = "work dropped by an engine reset",
	};

	if (kind == DRM_PPU_FAULT_WATCHDOG)
		return "no progress, stopped by the driver's watchdog";
	return kind < sizeof(names) / sizeof(names[0]) && names[kind] ? names[kind] : "fault";
}

ppu_status ppu_chan_fault_status(const struct ppu_chan *ch)
{
	struct drm_ppu_chan_status st = { .chid = ch->chid };

	if (ch->dead_cause == ch->chid &&
	    !ppu_ioctl(ch->ctx->fd, DRM_IOCTL_PPU_CHAN_STATUS, &st) && st.fault_info)
		return ppu_fail(PPU_ERROR_CHANNEL_FAULT,
				"channel %u faulted: %s (kind %u, unit %u, address %#x, data %#x)",
				ch->chid, fault_kind_name(DRM_PPU_FAULT_INFO_KIND(st.fault_info)),
				DRM_PPU_FAULT_INFO_KIND(st.fault_info),
				DRM_PPU_FAULT_INFO_UNIT(st.fault_info), st.fault_addr, st.fault_data);
	if (ch->dead_cause == ch->chid)
		return ppu_fail(PPU_ERROR_CHANNEL_FAULT, "channel %u faulted", ch->chid);
	return ppu_fail(PPU_ERROR_CHANNEL_FAULT, "channel %u waited for an event whose work "
			"faulted channel %u lost", ch->chid, ch->dead_cause);
}

ppu_status ppu_chan_dep_reserve(struct ppu_chan *ch)
{
	unsigned int i, n = 0;
	struct ppu_chan_dep *d;

	/* Forget the waits that have passed. */
	for (i = 0; i < ch->ndeps; i++) {
		d = &ch->deps[i];
		if (!ppu_chan_done(ch, d->seq) && !ppu_chan_done(d->on, d->on_seq))
			ch->deps[n++] = *d;
	}
	ch->ndeps = n;
	/* (two: a work-creating launch adds its queue besides the stream's order) */
	if (n + 2 <= ch->deps_cap)
		return PPU_SUCCESS;
	d = realloc(ch->deps, (ch->deps_cap * 2 + 8) * sizeof(*d));
	if (!d)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "out of host memory");
	ch->deps = d;
	ch->deps_cap = ch->deps_cap * 2 + 8;
	return PPU_SUCCESS;
}

void ppu_chan_dep_add(struct ppu_chan *ch, struct ppu_chan *on, uint32_t on_seq, uint32_t seq)
{
	ch->deps[ch->ndeps++] = (struct ppu_chan_dep){ .on = on, .on_seq = on_seq, .seq = seq };
}

void ppu_ctx_poll_faults(ppu_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < PPU_RT_CHANS; i++) {
		struct ppu_chan *c = ppu_ctx_chan(ctx, i);

		if (c && !c->dead)
			ppu_chan_check(c);
	}
}

void ppu_chan_forget(struct ppu_chan *ch)
{
	unsigned int i, j, n;

	for (i = 0; i < PPU_RT_CHANS; i++) {
		struct ppu_chan *c = ppu_ctx_chan(ch->ctx, i);

		if (!c || c == ch)
			continue;
		for (j = n = 0; j < c->ndeps; j++)
			if (c->deps[j].on != ch)
				c->deps[n++] = c->deps[j];
		c->ndeps = n;
	}
}
