// SPDX-License-Identifier: MIT
/*
 * Contexts: one open render node, one GPU address space, the stream
 * priority mapping and one copy channel per priority level in use (plus a
 * compute channel per level that launched a kernel, kernel_launch.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drm/ppu_drm.h"
#include "ppu_internal.h"

/* The public values are the copy_prio module's modes. */
_Static_assert(PPU_COPY_PRIORITIES_OFF == (int)PPU_COPY_PRIO_OFF &&
	       PPU_COPY_PRIORITIES_ON == (int)PPU_COPY_PRIO_STRICT &&
	       PPU_COPY_PRIORITIES_PATENT_ORDER == (int)PPU_COPY_PRIO_PATENT,
	       "PPU_LIMIT_COPY_PRIORITIES values");

/* Default copy command: this many device chunks (docs/runtime.md). */
#define DEFAULT_CHUNK_FACTOR 6u

/*
 * The live contexts of the process, so that an object or address of one
 * context given to another is named as such (owner.h), and the lock that
 * their allocation lists change under.
 */
static pthread_mutex_t owners_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ppu_owner *owners;
static unsigned int owners_made;

void ppu_owners_lock(void)
{
	pthread_mutex_lock(&owners_lock);
}

void ppu_owners_unlock(void)
{
	pthread_mutex_unlock(&owners_lock);
}

ppu_status ppu_ctx_mismatch(const char *fn, const char *what, const ppu_ctx *obj,
			    const char *other, const ppu_ctx *ctx)
{
	char msg[400];

	ppu_owner_mismatch(msg, sizeof(msg), fn, what, &obj->owner, other, &ctx->owner);
	return ppu_fail(PPU_ERROR_CONTEXT_MISMATCH, "%s", msg);
}

ppu_status ppu_ctx_foreign(ppu_ctx *ctx, uint64_t va, uint64_t len, const void *host,
			   const char *fn, const char *what)
{
	const struct ppu_owner *o;
	char msg[400] = "";

	ppu_owners_lock();
	o = ppu_owner_find(owners, &ctx->owner, va, len, host);
	if (o)
		ppu_owner_mismatch(msg, sizeof(msg), fn, what, o, NULL, &ctx->owner);
	ppu_owners_unlock();
	return o ? ppu_fail(PPU_ERROR_CONTEXT_MISMATCH, "%s", msg) : PPU_SUCCESS;
}

static ppu_status map_init(ppu_ctx *ctx, unsigned int depth)
{
	unsigned int levels = ctx->num_prios / depth;

	if (ppu_prio_map_init(&ctx->map, ctx->num_prios, depth, 0, (int)levels - 1,
			      PPU_PRIO_SHARE_HIGHEST))
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "max nesting depth %u outside 1..%u",
				depth, ctx->num_prios);
	ctx->max_depth = depth;
	return PPU_SUCCESS;
}

/*
 * The level nearest to @level that has a channel, the lower one first (a
 * stream is never given more priority than it asked for while a lower
 * level can take it); -1 when the context has no channel.
 */
static int level_with_chan(ppu_ctx *ctx, unsigned int level)
{
	int d;

	for (d = 1; d < (int)PPU_COPY_PRIO_LEVELS; d++) {
		if ((int)level - d >= 0 && ctx->chan[level - d])
			return (int)level - d;
		if (level + d < PPU_COPY_PRIO_LEVELS && ctx->chan[level + d])
			return (int)(level + d);
	}
	return -1;
}

/*
 * Gives the stream the channel of its level, creating it on first use.
 * When the device or the driver's per-file or per-user limit has no
 * channel left, the stream shares the nearest level that has one and
 * reports that level as its priority: creating a stream then fails only
 * when memory does.
 */
static ppu_status stream_attach(ppu_ctx *ctx, ppu_stream *s)
{
	unsigned int level = ppu_prio_map_level(&ctx->map, s->req_prio);
	struct ppu_chan *ch = ctx->chan[level];
	ppu_status st;

	if (!ch) {
		st = ppu_chan_new(ctx, level, &ch);
		if (st == PPU_ERROR_OUT_OF_RESOURCES) {
			int alt = level_with_chan(ctx, level);

			if (alt >= 0) {
				ppu_clear_error();
				level = (unsigned int)alt;
				ch = ctx->chan[level];
				goto attach;
			}
		}
		if (st)
			return st;
		if (ppu_copy_prio_add_level(&ctx->cp, level, ch->prio_va)) {
			ppu_chan_free(ch);
			return ppu_fail(PPU_ERROR_INVALID_VALUE, "internal: copy level %u", level);
		}
		ctx->chan[level] = ch;
	}
attach:
	s->prio = (int)level;
	s->level = level;
	s->chan = ch;
	return PPU_SUCCESS;
}

struct ppu_chan *ppu_ctx_chan(ppu_ctx *ctx, unsigned int i)
{
	if (i < PPU_COPY_PRIO_LEVELS)
		return ctx->chan[i];
	return i < PPU_RT_CHANS ? ctx->kchan[i - PPU_COPY_PRIO_LEVELS] : NULL;
}

static void chans_free(ppu_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < PPU_COPY_PRIO_LEVELS; i++) {
		if (ctx->kchan[i])
			ppu_chan_free(ctx->kchan[i]);
		ctx->kchan[i] = NULL;
	}
	for (i = 0; i < PPU_COPY_PRIO_LEVELS; i++) {
		if (ctx->chan[i])
			ppu_chan_free(ctx->chan[i]);
		ctx->chan[i] = NULL;
	}
	ppu_copy_prio_init(&ctx->cp, (enum ppu_copy_prio_mode)ctx->copy_sems);
}

/*
 * Before the first launch the mapping may change: the channels hold no
 * work yet, so they are simply made again at the new device priorities.
 */
static ppu_status chans_rebuild(ppu_ctx *ctx)
{
	ppu_stream *s;
	ppu_status st, first;

	chans_free(ctx);
	/* A stream whose channel cannot be made is left without one, never dangling. */
	ctx->default_stream.chan = NULL;
	for (s = ctx->streams; s; s = s->next)
		s->chan = NULL;
	first = stream_attach(ctx, &ctx->default_stream);
	for (s = ctx->streams; s; s = s->next) {
		st = stream_attach(ctx, s);
		if (st && !first)
			first = st;
	}
	if (PPU_TRACING()) {
		int64_t now = ppu_trace_now();

		ppu_trace_stream("STREAM_ATTACH", now, &ctx->default_stream);
		for (s = ctx->streams; s; s = s->next)
			ppu_trace_stream("STREAM_ATTACH", now, s);
	}
	return first;
}

/* Host events of the new context: what it is, its default stream, a first sync point. */
static void trace_ctx_created(ppu_ctx *ctx, int64_t t0)
{
	static unsigned int ids;

	ctx->trace_id = __atomic_add_fetch(&ids, 1, __ATOMIC_RELAXED);
	ppu_trace_line(t0, ppu_trace_now() - t0, "CTX_CREATE", "ctx=%u node=%s pid=%ld prios=%u "
		       "depth=%llu chunk=%llu", ctx->trace_id, ctx->info.node, (long)getpid(),
		       ctx->num_prios, (unsigned long long)ctx->max_depth,
		       (unsigned long long)ctx->chunk_bytes);
	ppu_trace_stream("STREAM_CREATE", t0, &ctx->default_stream);
	ppu_trace_sync_counter(ctx);
}

ppu_status ppu_ctx_create(ppu_ctx **out, int index, unsigned int flags)
{
	const char *trace_err = ppu_trace_init();
	int64_t t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	ppu_ctx *ctx;
	ppu_status st;
	int fd;

	ppu_clear_error();
	if (!out || index < 0 || flags)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_create: bad argument");
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "ppu_ctx_create: out of host memory");
	fd = ppu_dev_open(index, ctx->info.node, sizeof(ctx->info.node), ctx->info.pci_bus_id,
			  sizeof(ctx->info.pci_bus_id));
	if (fd < 0) {
		free(ctx);
		if (fd == -ENODEV)
			return ppu_fail(PPU_ERROR_NO_DEVICE, "ppu_ctx_create: no PPU %d", index);
		return ppu_fail_errno(-fd, "ppu_ctx_create: opening PPU %d", index);
	}
	ctx->fd = fd;
	st = ppu_dev_query(fd, &ctx->info);
	if (st)
		goto err;
	if (!(ctx->info.features & DRM_PPU_FEATURE_COPY_ENGINE)) {
		st = ppu_fail(PPU_ERROR_NOT_SUPPORTED, "ppu_ctx_create: the PPU has no copy engine");
		goto err;
	}
	ctx->num_prios = ctx->info.num_device_priorities;
	ctx->chunk_bytes = (uint64_t)ctx->info.copy_chunk_bytes * DEFAULT_CHUNK_FACTOR;
	ctx->copy_sems = PPU_COPY_PRIORITIES_ON;
	ctx->stack_bytes = PPU_RT_DEFAULT_STACK_BYTES;
	ctx->kernel_prios = PPU_KERNEL_PRIORITIES_ON;
	ppu_copy_prio_init(&ctx->cp, PPU_COPY_PRIO_STRICT);
	st = map_init(ctx, PPU_RT_DEFAULT_MAX_DEPTH < ctx->num_prios ?
			   PPU_RT_DEFAULT_MAX_DEPTH : ctx->num_prios);
	if (st)
		goto err;
	ctx->default_stream.ctx = ctx;
	ctx->default_stream.is_default = 1;
	st = stream_attach(ctx, &ctx->default_stream);
	if (st)
		goto err;
	ctx->owner.device = index;
	ctx->owner.node = ctx->info.node;
	ctx->owner.allocs = &ctx->allocs;
	ppu_owners_lock();
	ctx->owner.id = ++owners_made;
	ppu_owner_add(&owners, &ctx->owner);
	ppu_owners_unlock();
	if (PPU_TRACING())
		trace_ctx_created(ctx, t0);
	*out = ctx;
	/*
	 * Tracing is an aid: the context works without it.  Nobody reads the
	 * message of a call that succeeded, so it goes to stderr as well.
	 */
	if (trace_err) {
		fprintf(stderr, "libppu: %s\n", trace_err);
		ppu_fail(PPU_SUCCESS, "ppu_ctx_create: %s", trace_err);
	}
	return PPU_SUCCESS;

err:
	chans_free(ctx);
	ppu_pools_free(ctx);
	close(fd);
	free(ctx);
	return st;
}

ppu_status ppu_ctx_synchronize(ppu_ctx *ctx)
{
	ppu_status first = PPU_SUCCESS, st;
	int64_t t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	unsigned int i;

	ppu_clear_error();
	if (!ctx)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_synchronize: NULL context");
	for (i = 0; i < PPU_RT_CHANS; i++) {
		struct ppu_chan *ch = ppu_ctx_chan(ctx, i);

		if (!ch)
			continue;
		st = ch->dead ? ppu_chan_check(ch) : ppu_chan_wait(ch, ch->seq);
		if (st && !first)
			first = st;
	}
	if (PPU_TRACING()) {
		ppu_trace_line(t0, ppu_trace_now() - t0, "CTX_SYNC", "ctx=%u status=%s",
			       ctx->trace_id, ppu_status_name(first));
		ppu_trace_sync_counter(ctx);
	}
	return first;
}

ppu_status ppu_ctx_destroy(ppu_ctx *ctx)
{
	ppu_status st;
	int64_t t0;

	if (!ctx)
		return PPU_SUCCESS;
	t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	st = ppu_ctx_synchronize(ctx);
	/* Its allocations go: other contexts stop looking at them first. */
	ppu_owners_lock();
	ppu_owner_remove(&owners, &ctx->owner);
	ppu_owners_unlock();
	while (ctx->streams) {
		ppu_stream *s = ctx->streams;

		ctx->streams = s->next;
		free(s);
	}
	while (ctx->events) {
		ppu_event *e = ctx->events;

		ctx->events = e->next;
		free(e);
	}
	ppu_modules_free(ctx);
	ppu_kernels_free(ctx);
	chans_free(ctx);
	/* after the channels: one may still wait in hardware on a dead queue's Y */
	ppu_work_queues_free(ctx);
	while (ctx->allocs) {
		struct ppu_alloc *a = ctx->allocs;

		ctx->allocs = a->next;
		ppu_bo_free(ctx, a);
		free(a);
	}
	ppu_pools_free(ctx);
	if (PPU_TRACING())
		ppu_trace_line(t0, ppu_trace_now() - t0, "CTX_DESTROY", "ctx=%u status=%s",
			       ctx->trace_id, ppu_status_name(st));
	close(ctx->fd);
	free(ctx);
	return st;
}

ppu_status ppu_ctx_get_info(ppu_ctx *ctx, struct ppu_device_info *info)
{
	ppu_clear_error();
	if (!ctx || !info)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_get_info: NULL argument");
	*info = ctx->info;
	return PPU_SUCCESS;
}

void ppu_ctx_launch(ppu_ctx *ctx)
{
	ctx->launched = 1;
}

ppu_status ppu_ctx_set_limit(ppu_ctx *ctx, enum ppu_limit limit, uint64_t value)
{
	unsigned int old;
	ppu_status st;

	ppu_clear_error();
	if (!ctx)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_set_limit: NULL context");
	switch (limit) {
	case PPU_LIMIT_MAX_NESTING_DEPTH:
		if (ctx->launched)
			return ppu_fail(PPU_ERROR_CONTEXT_ACTIVE, "ppu_ctx_set_limit: the max nesting "
					"depth is fixed at the context's first launch");
		if (value < 1 || value > ctx->num_prios)
			return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_set_limit: max nesting "
					"depth %llu outside 1..%u", (unsigned long long)value,
					ctx->num_prios);
		if (value == ctx->max_depth)
			return PPU_SUCCESS;
		old = (unsigned int)ctx->max_depth;
		map_init(ctx, (unsigned int)value);
		st = chans_rebuild(ctx);
		if (st) {
			/* Back to the mapping that worked; keep the first error's message. */
			char msg[512];

			snprintf(msg, sizeof(msg), "%s", ppu_last_error());
			map_init(ctx, old);
			chans_rebuild(ctx);
			return ppu_fail(st, "ppu_ctx_set_limit: %s", msg);
		}
		return PPU_SUCCESS;
	case PPU_LIMIT_COPY_CHUNK_BYTES:
		if (value > PPU_COPY_PRIO_MAX_COMMAND ||
		    (ctx->info.copy_chunk_bytes && value % ctx->info.copy_chunk_bytes))
			return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_set_limit: copy chunk %llu "
					"is not a multiple of %u up to %u",
					(unsigned long long)value, ctx->info.copy_chunk_bytes,
					PPU_COPY_PRIO_MAX_COMMAND);
		ctx->chunk_bytes = value;
		return PPU_SUCCESS;
	case PPU_LIMIT_COPY_PRIORITIES:
		if (ctx->launched)
			return ppu_fail(PPU_ERROR_CONTEXT_ACTIVE, "ppu_ctx_set_limit: copy priorities "
					"are fixed at the context's first launch");
		if (value > PPU_COPY_PRIORITIES_PATENT_ORDER)
			return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_set_limit: copy priorities "
					"is 0 (off), 1 (on) or 2 (patent order)");
		ctx->copy_sems = (int)value;
		ppu_copy_prio_set_mode(&ctx->cp, (enum ppu_copy_prio_mode)value);
		return PPU_SUCCESS;
	case PPU_LIMIT_STACK_SIZE:
		if (value > PPU_MAX_STACK_SIZE)
			return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_set_limit: stack size %llu "
					"is more than %u", (unsigned long long)value,
					PPU_MAX_STACK_SIZE);
		ctx->stack_bytes = value;
		return PPU_SUCCESS;
	case PPU_LIMIT_KERNEL_PRIORITIES:
		if (ctx->launched)
			return ppu_fail(PPU_ERROR_CONTEXT_ACTIVE, "ppu_ctx_set_limit: kernel "
					"priorities are fixed at the context's first launch");
		if (value > PPU_KERNEL_PRIORITIES_ON)
			return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_set_limit: kernel "
					"priorities is 0 (off) or 1 (on)");
		ctx->kernel_prios = (int)value;
		return PPU_SUCCESS;
	}
	return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_set_limit: unknown limit %d", (int)limit);
}

ppu_status ppu_ctx_get_limit(ppu_ctx *ctx, enum ppu_limit limit, uint64_t *value)
{
	ppu_clear_error();
	if (!ctx || !value)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_get_limit: NULL argument");
	switch (limit) {
	case PPU_LIMIT_MAX_NESTING_DEPTH:
		*value = ctx->max_depth;
		return PPU_SUCCESS;
	case PPU_LIMIT_COPY_CHUNK_BYTES:
		*value = ctx->chunk_bytes;
		return PPU_SUCCESS;
	case PPU_LIMIT_COPY_PRIORITIES:
		*value = (uint64_t)ctx->copy_sems;
		return PPU_SUCCESS;
	case PPU_LIMIT_STACK_SIZE:
		*value = ctx->stack_bytes;
		return PPU_SUCCESS;
	case PPU_LIMIT_KERNEL_PRIORITIES:
		*value = (uint64_t)ctx->kernel_prios;
		return PPU_SUCCESS;
	}
	return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_get_limit: unknown limit %d", (int)limit);
}

ppu_status ppu_ctx_get_stream_priority_range(ppu_ctx *ctx, int *least, int *greatest)
{
	ppu_clear_error();
	if (!ctx || (!least && !greatest))
		return ppu_fail(PPU_ERROR_INVALID_VALUE,
				"ppu_ctx_get_stream_priority_range: NULL argument");
	if (least)
		*least = ctx->map.stream_lo;
	if (greatest)
		*greatest = ctx->map.stream_hi;
	return PPU_SUCCESS;
}

ppu_status ppu_ctx_get_device_priority(ppu_ctx *ctx, int prio, unsigned int *device_prio)
{
	ppu_clear_error();
	if (!ctx || !device_prio)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_ctx_get_device_priority: NULL argument");
	*device_prio = ppu_prio_map_device(&ctx->map, prio);
	return PPU_SUCCESS;
}

ppu_stream *ppu_ctx_default_stream(ppu_ctx *ctx)
{
	return ctx ? &ctx->default_stream : NULL;
}

/* ---- streams ---- */

ppu_status ppu_stream_create_with_priority(ppu_ctx *ctx, int prio, ppu_stream **out)
{
	ppu_stream *s;
	ppu_status st;

	ppu_clear_error();
	if (!ctx || !out)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_stream_create: NULL argument");
	s = calloc(1, sizeof(*s));
	if (!s)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "ppu_stream_create: out of host memory");
	s->ctx = ctx;
	s->req_prio = prio;
	st = stream_attach(ctx, s);
	if (st) {
		free(s);
		return st;
	}
	s->next = ctx->streams;
	ctx->streams = s;
	s->trace_id = ++ctx->trace_streams;
	if (PPU_TRACING())
		ppu_trace_stream("STREAM_CREATE", ppu_trace_now(), s);
	*out = s;
	return PPU_SUCCESS;
}

ppu_status ppu_stream_create(ppu_ctx *ctx, ppu_stream **out)
{
	return ppu_stream_create_with_priority(ctx, ctx ? ctx->map.stream_lo : 0, out);
}

ppu_status ppu_stream_destroy(ppu_stream *s)
{
	ppu_stream **pp;
	ppu_status st;
	int64_t t0;

	if (!s || s->is_default)
		return ppu_fail(PPU_ERROR_INVALID_VALUE,
				"ppu_stream_destroy: NULL or the default stream");
	t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	st = ppu_stream_synchronize(s);
	for (pp = &s->ctx->streams; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	if (PPU_TRACING())
		ppu_trace_line(t0, ppu_trace_now() - t0, "STREAM_DESTROY", "ctx=%u stream=%u "
			       "status=%s", s->ctx->trace_id, s->trace_id, ppu_status_name(st));
	free(s);
	return st;
}
