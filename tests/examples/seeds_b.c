// SPDX-License-Identifier: MIT
#include "seeds_b.h"

#include <stdlib.h>
#include <string.h>

const char *const seeds_b_names[SB_NCOPIES] = {
	"Mlow1", "Mlow2", "Mlow3", "Mhigh1", "Mhigh2",
};

struct sb_copy {
	struct rtl_buf src, dst;
};

static int copy_of_dst(const struct sb_copy *c, uint32_t dst_va)
{
	int i;

	for (i = 0; i < SB_NCOPIES; i++)
		if (c[i].dst.va == dst_va)
			return i;
	return -1;
}

static void flush_refails(FILE *f, int *n)
{
	if (*n)
		fprintf(f, "             C_low   (re-checked %d more time%s on the retry timer, still blocked)\n",
			*n, *n > 1 ? "s" : "");
	*n = 0;
}

/* Clock until copy @id has started (its COPY_START is in the log). */
static int wait_copy_start(struct rtl_env *env, const struct sb_copy *c, int id,
			   uint64_t max)
{
	uint64_t t0 = ppu_sim_cycles(env->sim);

	for (;;) {
		size_t i;

		for (i = 0; i < env->nev; i++)
			if (env->ev[i].kind == PPU_TRACE_COPY_START && env->ev[i].a == c[id].src.va)
				return 0;
		if (ppu_sim_cycles(env->sim) - t0 > max)
			return -1;
		ppu_sim_clock(env->sim, 16);
	}
}

/* The commands the driver inserts for one copy in a stream (SEEDS §B). */
static void emit_copy(struct ppu_pb *pb, const struct sb_copy *c, int high, int sems,
		      uint32_t s_high)
{
	if (sems && !high)
		ppu_pb_sem_acquire(pb, s_high, 0);
	if (sems && high)
		ppu_pb_sem_inc(pb, s_high);
	ppu_pb_copy(pb, c->src.va, c->dst.va, c->src.size, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	if (sems && high)
		ppu_pb_sem_dec(pb, s_high);
}

/*
 * A low copy as the runtime's chunking writes it (runtime/copy_prio.h): one
 * command per chunk, each behind its own acquire, so that a high copy issued
 * mid-copy waits for one chunk rather than the whole copy.
 */
static void emit_chunked(struct ppu_pb *pb, const struct sb_copy *c, uint32_t chunk, int sems,
			 uint32_t s_high)
{
	uint32_t off, n;

	for (off = 0; off < c->src.size; off += n) {
		n = c->src.size - off < chunk ? c->src.size - off : chunk;
		if (sems)
			ppu_pb_sem_acquire(pb, s_high, 0);
		ppu_pb_copy(pb, c->src.va + off, c->dst.va + off, n, PPU_LAUNCH_DMA_SEMAPHORE_NONE,
			    0, 0, 0);
	}
}

static void submit(struct rtl_chan *ch, const struct sb_copy *c, int high, int sems,
		   uint32_t s_high)
{
	uint32_t buf[64];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 64);
	emit_copy(&pb, c, high, sems, s_high);
	rtl_chan_submit(ch, &pb);
}

int seeds_b_run(const struct seeds_b_opts *o, struct seeds_b_result *r)
{
	struct rtl_env *env = rtl_env_create_traced(NULL, o->trace_path);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *lo = rtl_chan_create(env, ctx, 0, 6, o->low_timeslice);
	struct rtl_chan *hi = rtl_chan_create(env, ctx, 1, 6, o->high_timeslice);
	struct rtl_chan *both[2] = { lo, hi };
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	struct sb_copy c[SB_NCOPIES];
	uint8_t *pat = malloc(o->copy_bytes), *got = malloc(o->copy_bytes);
	int i, n = 0, wait;
	size_t k;
	long mh1_end = -1;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < SB_NCOPIES; i++) {
		uint32_t j;

		c[i].src = rtl_buf_alloc(ctx, 0, o->copy_bytes);
		c[i].dst = rtl_buf_alloc(ctx, 0, o->copy_bytes);
		for (j = 0; j < o->copy_bytes; j++)
			pat[j] = (uint8_t)(j * 7 + i * 31 + (j >> 8));
		rtl_buf_write(env, &c[i].src, 0, pat, o->copy_bytes);
	}

	/* cudaMemcpy Mlow1: runs at once */
	submit(lo, &c[SB_MLOW1], 0, o->semaphores, sem.va);
	if (wait_copy_start(env, c, SB_MLOW1, 100000))
		goto out;
	/* while Mlow1 is being copied: Mlow2, Mlow3, Mhigh1, Mhigh2 */
	submit(lo, &c[SB_MLOW2], 0, o->semaphores, sem.va);
	submit(lo, &c[SB_MLOW3], 0, o->semaphores, sem.va);
	submit(hi, &c[SB_MHIGH1], 1, o->semaphores, sem.va);
	submit(hi, &c[SB_MHIGH2], 1, o->semaphores, sem.va);
	wait = rtl_wait_all(both, 2, 100ull * o->copy_bytes + 1000000);
	if (wait != 0)
		goto out;
	r->ok = rtl_buf_rd32(env, &sem, 0) == 0;

	for (k = 0; k < env->nev; k++) {
		const struct ppu_sim_event *e = &env->ev[k];

		if (e->kind == PPU_TRACE_COPY_END) {
			int id = copy_of_dst(c, e->a);

			if (id >= 0 && n < SB_NCOPIES) {
				r->order[n++] = id;
				r->end[id] = e->cycle;
				if (id == SB_MHIGH1)
					mh1_end = (long)k;
			}
		} else if (e->kind == PPU_TRACE_COPY_START) {
			for (i = 0; i < SB_NCOPIES; i++)
				if (c[i].src.va == e->a)
					r->start[i] = e->cycle;
		}
	}
	if (n != SB_NCOPIES)
		r->ok = 0;

	/* After Mhigh1: switch to C_low for its expired slice, acquire fails,
	 * back to C_high -- all before Mhigh2 starts. */
	if (mh1_end >= 0) {
		r->high_slice_expired_in_mhigh1 =
			(r->end[SB_MHIGH1] - r->start[SB_MHIGH1]) >= o->high_timeslice;
		for (k = (size_t)mh1_end; k < env->nev; k++) {
			const struct ppu_sim_event *e = &env->ev[k];

			if (e->kind == PPU_TRACE_COPY_START)
				break;
			if (e->kind == PPU_TRACE_SEM_ACQ_FAIL && e->chid == lo->chid) {
				r->low_rechecked_after_mhigh1 = 1;
				break;
			}
		}
	}

	r->data_ok = 1;
	for (i = 0; i < SB_NCOPIES; i++) {
		rtl_buf_read(env, &c[i].src, 0, pat, o->copy_bytes);
		rtl_buf_read(env, &c[i].dst, 0, got, o->copy_bytes);
		if (memcmp(pat, got, o->copy_bytes))
			r->data_ok = 0;
	}

	if (o->timeline) {
		int last_fail_chid = -1, refails = 0;

		for (k = 0; k < env->nev; k++) {
			const struct ppu_sim_event *e = &env->ev[k];
			const char *who = e->chid == lo->chid ? "C_low " : "C_high";
			int id;

			if (e->kind == PPU_TRACE_COPY_START || e->kind == PPU_TRACE_COPY_END ||
			    e->kind == PPU_TRACE_SEM_REDUCTION ||
			    (e->kind == PPU_TRACE_CHAN_SWITCH && e->b == PPU_SWITCH_REASON_TIMESLICE)) {
				flush_refails(o->timeline, &refails);
				last_fail_chid = -1;
			}
			switch (e->kind) {
			case PPU_TRACE_COPY_START:
				for (i = 0; i < SB_NCOPIES; i++)
					if (c[i].src.va == e->a)
						fprintf(o->timeline, "  %9llu  %s  copy %s starts\n",
							(unsigned long long)e->cycle, who, seeds_b_names[i]);
				break;
			case PPU_TRACE_COPY_END:
				id = copy_of_dst(c, e->a);
				if (id >= 0)
					fprintf(o->timeline, "  %9llu  %s  copy %s done\n",
						(unsigned long long)e->cycle, who, seeds_b_names[id]);
				break;
			case PPU_TRACE_SEM_ACQ_FAIL:
				/* timed re-checks while nothing changed: say how many */
				if (k > 0 && last_fail_chid == (int)e->chid) {
					refails++;
					break;
				}
				flush_refails(o->timeline, &refails);
				fprintf(o->timeline, "  %9llu  %s  sem acq S_high==0 fails (S_high=%u): switch away\n",
					(unsigned long long)e->cycle, who, e->b);
				last_fail_chid = (int)e->chid;
				break;
			case PPU_TRACE_SEM_REDUCTION:
				fprintf(o->timeline, "  %9llu  %s  sem %s S_high -> %u\n",
					(unsigned long long)e->cycle, who,
					e->b ? "inc" : "dec", e->b);
				break;
			case PPU_TRACE_CHAN_SWITCH:
				if (e->b == PPU_SWITCH_REASON_TIMESLICE)
					fprintf(o->timeline, "  %9llu  %s  scheduled: previous channel's time slice expired\n",
						(unsigned long long)e->cycle, who);
				break;
			default:
				break;
			}
		}
		flush_refails(o->timeline, &refails);
	}
out:
	free(pat);
	free(got);
	rtl_chan_destroy(lo);
	rtl_chan_destroy(hi);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	return r->ok ? 0 : -1;
}

static int64_t find_copy_end(struct rtl_env *env, uint32_t dst_va, size_t from)
{
	size_t k;

	for (k = from; k < env->nev; k++)
		if (env->ev[k].kind == PPU_TRACE_COPY_END && env->ev[k].a == dst_va)
			return (int64_t)env->ev[k].cycle;
	return -1;
}

/* Submits one high copy with a doorbell; returns the cycle of the doorbell. */
static uint64_t submit_timed(struct rtl_chan *ch, const struct sb_copy *c, int high, int sems,
			     uint32_t s_high)
{
	uint64_t t0 = ppu_sim_cycles(ch->env->sim);

	submit(ch, c, high, sems, s_high);
	return t0;
}

/*
 * The hardware's own ranking: a runlist as a driver writes it, the high
 * channel at level 1 above the low one at 0 (highest level first).
 */
static int rank_by_runlist(struct rtl_env *env, uint32_t lo, uint32_t hi)
{
	const struct rtl_rl_ent list[] = { { hi, 1 }, { lo, 0 } };
	uint32_t st = rtl_runlist_write(env, list, 2);

	if (PPU_FGET(PPU_RUNLIST_STATUS_PENDING, st) || PPU_FGET(PPU_RUNLIST_STATUS_ERROR, st)) {
		fprintf(stderr, "seeds_b: the runlist was not taken (status %#x)\n", st);
		return -1;
	}
	rtl_reg_write(env, PPU_REG_SCHED_CTRL, PPU_FSET(PPU_SCHED_CTRL_RUNLIST, 1));
	return 0;
}

int prio_latency_run(const struct prio_latency_opts *o, struct prio_latency_result *r)
{
	struct rtl_env *env = rtl_env_create_traced(o->cfg, o->trace_path);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *lo = rtl_chan_create(env, ctx, 0, 6, o->timeslice);
	struct rtl_chan *hi = rtl_chan_create(env, ctx, 1, 6, o->timeslice);
	struct rtl_chan *both[2] = { lo, hi };
	struct rtl_chan *hch = o->same_channel ? lo : hi;
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	struct sb_copy low, high;
	struct ppu_sim_stats st;
	uint64_t t0;
	int64_t end;
	size_t from, k;
	int i;

	memset(r, 0, sizeof(*r));
	if (o->hw_priority && rank_by_runlist(env, lo->chid, hi->chid))
		goto out;
	low.src = rtl_buf_alloc(ctx, 0, o->low_bytes);
	low.dst = rtl_buf_alloc(ctx, 0, o->low_bytes);
	high.src = rtl_buf_alloc(ctx, 0, o->high_bytes);
	high.dst = rtl_buf_alloc(ctx, 0, o->high_bytes);

	/* alone */
	from = env->nev;
	t0 = submit_timed(hch, &high, !o->same_channel, o->semaphores, sem.va);
	if (rtl_chan_wait(hch, 100ull * o->high_bytes + 100000))
		goto out;
	end = find_copy_end(env, high.dst.va, from);
	if (end < 0)
		goto out;
	r->alone = (uint64_t)end - t0;

	/* loaded: every low copy queued before the first starts */
	ppu_sim_reset_stats(env->sim);
	for (i = 0; i < o->nlow; i++) {
		uint32_t buf[1024];
		struct ppu_pb pb;

		ppu_pb_init(&pb, buf, 1024);
		if (o->chunk_bytes)
			emit_chunked(&pb, &low, o->chunk_bytes, o->semaphores, sem.va);
		else
			emit_copy(&pb, &low, 0, o->semaphores, sem.va);
		rtl_chan_push_entry(lo, rtl_chan_pb_put(lo, pb.dw, pb.len), pb.len);
	}
	from = env->nev;
	rtl_chan_doorbell(lo);
	if (wait_copy_start(env, &low, 0, 1000000))
		goto out;
	t0 = submit_timed(hch, &high, !o->same_channel, o->semaphores, sem.va);
	if (rtl_wait_all(both, o->same_channel ? 1 : 2,
			 (uint64_t)o->nlow * 4 * o->low_bytes + 4000000))
		goto out;
	end = find_copy_end(env, high.dst.va, from);
	if (end < 0)
		goto out;
	r->loaded = (uint64_t)end - t0;
	for (k = from; k < env->nev; k++) {
		const struct ppu_sim_event *e = &env->ev[k];

		if (e->kind == PPU_TRACE_COPY_START && e->a == low.src.va && !r->low_copy) {
			int64_t le = find_copy_end(env, low.dst.va, k);

			if (le > 0)
				r->low_copy = (uint64_t)le - e->cycle;
		}
		if (e->kind == PPU_TRACE_COPY_END && e->a == low.dst.va &&
		    e->cycle < (uint64_t)end)
			r->lows_before_high++;
	}
	ppu_sim_get_stats(env->sim, &st);
	r->sim_cycles_per_sec = st.cycles_per_sec;
	r->ratio = (double)r->loaded / (double)r->alone;
	r->bound = (double)(r->low_copy + r->alone) / (double)r->alone;
	r->ok = rtl_buf_rd32(env, &sem, 0) == 0;
out:
	rtl_chan_destroy(lo);
	rtl_chan_destroy(hi);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	return r->ok ? 0 : -1;
}
