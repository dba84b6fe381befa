// SPDX-License-Identifier: MIT
#include "rtl_check.h"

#include <check.h>
#include <stdlib.h>

static uint32_t rnd_state = 0x12345678;
static unsigned int rnd_shift;

void rtl_rnd_seed(uint32_t seed, unsigned int shift)
{
	rnd_state = seed ? seed : 0x12345678;
	rnd_shift = shift;
}

uint32_t rtl_rnd(void)
{
	uint32_t x = rnd_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rnd_state = x;
	return x;
}

void rtl_rnd_fill(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(rtl_rnd() >> rnd_shift);
}

void *rtl_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(p);
	return p;
}

uint8_t *rtl_buf_randomize(struct rtl_env *env, const struct rtl_buf *b)
{
	uint8_t *img = rtl_xmalloc(b->size);

	rtl_rnd_fill(img, b->size);
	rtl_buf_write(env, b, 0, img, b->size);
	return img;
}

void rtl_expect_buf(struct rtl_env *env, const struct rtl_buf *b, uint32_t off,
		    const void *want, uint32_t len)
{
	uint8_t *got = rtl_xmalloc(len);

	rtl_buf_read(env, b, off, got, len);
	ck_assert_mem_eq(got, want, len);
	free(got);
}

uint32_t rtl_mem_rd32(struct rtl_env *env, int sys, uint64_t pa)
{
	uint32_t v = 0;

	ck_assert_int_eq(ppu_sim_mem_read(env->sim, sys, pa, &v, 4), 0);
	return v;
}

void rtl_mem_wr32(struct rtl_env *env, int sys, uint64_t pa, uint32_t v)
{
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, sys, pa, &v, 4), 0);
}

uint32_t rtl_userd_rd32(struct rtl_chan *ch, uint32_t off)
{
	return rtl_mem_rd32(ch->env, 0, ch->userd_pa + off);
}

void rtl_userd_wr32(struct rtl_chan *ch, uint32_t off, uint32_t v)
{
	rtl_mem_wr32(ch->env, 0, ch->userd_pa + off, v);
}

void rtl_expect_no_protocol_errors(struct rtl_env *env)
{
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	ck_assert_msg(rtl_check_errors(env) == 0, "%llu RTL invariant check failures",
		      (unsigned long long)rtl_check_errors(env));
}

/*
 * The FPGA top holds its MSI request until the writes the PPU issued
 * before the interrupt are answered (docs/fpga.md): there the line may
 * follow the PPU's irq that much later; the bare PPU's irq is immediate.
 */
static int irq_is_up(struct ppu_sim *sim, void *ctx)
{
	(void)ctx;
	return ppu_sim_irq(sim);
}

void rtl_expect_irq_up(struct ppu_sim *sim)
{
	ck_assert_int_ge(ppu_sim_run_until(sim, irq_is_up, NULL,
					   ppu_sim_is_fpga() ? RTL_IRQ_FENCE_CYCLES : 0), 0);
}

void rtl_env_finish(struct rtl_env *env)
{
	rtl_expect_no_protocol_errors(env);
	rtl_env_destroy(env);
}

long rtl_expect_event(struct rtl_env *env, uint32_t kind, int chid, uint64_t step,
		      uint64_t max_cycles)
{
	long i = rtl_wait_event(env, kind, chid, step, max_cycles);

	ck_assert_msg(i >= 0, "no %s record (channel %d) within %llu cycles",
		      ppu_sim_kind_name(kind) ? ppu_sim_kind_name(kind) : "?", chid,
		      (unsigned long long)max_cycles);
	return i;
}

void rtl_expect_state(struct rtl_chan *ch, uint32_t state, uint64_t step, uint64_t max_cycles)
{
	int rc = rtl_chan_wait_state(ch, state, step, max_cycles);

	ck_assert_msg(rc == 0, "channel %u: state %u, waiting for %u", ch->chid,
		      rtl_chan_state(ch), state);
}

void rtl_chan_unbind(struct rtl_chan *ch)
{
	rtl_reg_write(ch->env, PPU_REG_CHAN_CTRL,
		      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) |
		      PPU_FSET(PPU_CHAN_CTRL_CHID, ch->chid));
}

void rtl_chan_ring_empty(struct rtl_chan *ch)
{
	rtl_userd_wr32(ch, PPU_USERD_GP_PUT, 0);
	rtl_userd_wr32(ch, PPU_USERD_GP_GET, 0);
	ch->put = 0;
}

void rtl_chan_unbind_empty(struct rtl_chan *ch, uint64_t max_cycles)
{
	rtl_chan_unbind(ch);
	rtl_expect_state(ch, PPU_CHAN_STATUS_STATE_UNBOUND, 10, max_cycles);
	rtl_chan_ring_empty(ch);
}

void rtl_chan_fault_by_doorbell_page(struct rtl_chan *ch, uint64_t max_cycles)
{
	uint32_t buf[4];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 4);
	ppu_pb_method(&pb, PPU_HOST_NOP, 0);
	rtl_submit_and_wait(ch, &pb, max_cycles);
	rtl_chan_doorbell_page(ch, 1u << ch->log2_entries);
	rtl_expect_event(ch->env, PPU_TRACE_FAULT, (int)ch->chid, 16, max_cycles);
}

uint64_t rtl_engine_reset(struct rtl_env *env, uint32_t reset, uint64_t max_cycles)
{
	uint64_t t0 = ppu_sim_cycles(env->sim);

	rtl_reg_write(env, PPU_REG_ENGINE_CTRL, reset);
	while (rtl_reg_read(env, PPU_REG_ENGINE_CTRL) & reset) {
		ck_assert_msg(ppu_sim_cycles(env->sim) - t0 < max_cycles,
			      "ENGINE_CTRL %#x still set after %llu cycles", reset,
			      (unsigned long long)max_cycles);
		ppu_sim_clock(env->sim, 5);
	}
	return ppu_sim_cycles(env->sim) - t0;
}

void rtl_engine_halt(struct rtl_env *env, uint32_t halt)
{
	rtl_reg_write(env, PPU_REG_ENGINE_CTRL, halt);
}

size_t rtl_log_records(struct rtl_env *env, uint32_t kind, int chid, struct ppu_sim_event *out,
		       size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < env->nev; i++)
		if (env->ev[i].kind == kind && (chid < 0 || env->ev[i].chid == (uint32_t)chid)) {
			ck_assert_uint_lt(n, max);
			out[n++] = env->ev[i];
		}
	return n;
}

uint32_t rtl_queue_pb(struct rtl_chan *ch, const struct ppu_pb *pb)
{
	uint32_t va;

	ck_assert(!pb->overflow);
	va = rtl_chan_pb_put(ch, pb->dw, pb->len);
	rtl_chan_push_entry(ch, va, pb->len);
	return va;
}

void rtl_queue_copy(struct rtl_chan *ch, uint32_t src, uint32_t dst, uint32_t len)
{
	uint32_t buf[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 32);
	ppu_pb_copy(&pb, src, dst, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_queue_pb(ch, &pb);
}

uint32_t rtl_submit_pb(struct rtl_chan *ch, const struct ppu_pb *pb)
{
	uint32_t va = rtl_queue_pb(ch, pb);

	rtl_chan_doorbell(ch);
	return va;
}

void rtl_submit_and_wait(struct rtl_chan *ch, const struct ppu_pb *pb, uint64_t max_cycles)
{
	rtl_submit_pb(ch, pb);
	ck_assert_int_eq(rtl_chan_wait(ch, max_cycles), 0);
}

void rtl_ring_all(struct rtl_chan **ch, int n, uint64_t max_cycles)
{
	int i;

	for (i = 0; i < n; i++)
		rtl_chan_doorbell(ch[i]);
	ck_assert_int_eq(rtl_wait_all(ch, n, max_cycles), 0);
}

void rtl_semt_init(struct rtl_semt *t, uint32_t timeslice)
{
	t->env = rtl_env_create(NULL);
	t->ctx = rtl_ctx_create(t->env);
	t->a = rtl_chan_create(t->env, t->ctx, 0, 4, timeslice);
	t->b = rtl_chan_create(t->env, t->ctx, 1, 4, timeslice);
	t->both[0] = t->a;
	t->both[1] = t->b;
	t->sem = rtl_buf_alloc(t->ctx, 0, 4096);
}

void rtl_semt_fini(struct rtl_semt *t)
{
	rtl_chan_destroy(t->a);
	rtl_chan_destroy(t->b);
	rtl_ctx_destroy(t->ctx);
	rtl_env_finish(t->env);
}

void rtl_busy_start(struct rtl_env *env, struct rtl_busy *b, unsigned int chid, uint32_t size,
		    uint32_t len, uint32_t dst_mask)
{
	uint32_t dw[64];
	struct ppu_pb pb;
	int i;

	b->len = len;
	b->dst_mask = dst_mask;
	b->ctx = rtl_ctx_create(env);
	b->ch = rtl_chan_create(env, b->ctx, chid, 4, 0);
	ppu_pb_init(&pb, dw, 64);
	for (i = 0; i < RTL_BUSY_N; i++) {
		b->src[i] = rtl_buf_alloc(b->ctx, i & 1, size);
		b->dst[i] = rtl_buf_alloc(b->ctx, !(i & 1), size);
		b->img[i] = rtl_buf_randomize(env, &b->src[i]);
		ppu_pb_copy(&pb, b->src[i].va, b->dst[i].va + (i & dst_mask), len,
			    PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	}
	rtl_chan_submit(b->ch, &pb);
	rtl_expect_event(env, PPU_TRACE_COPY_START, (int)chid, 16, 200000);
}

void rtl_busy_finish(struct rtl_env *env, struct rtl_busy *b, uint64_t max_cycles)
{
	int i;

	ck_assert_msg(rtl_chan_wait(b->ch, max_cycles) == 0,
		      "the busy channel of the other context did not finish: state %u, "
		      "GP_GET %u of %u, %zu copies started", rtl_chan_state(b->ch),
		      rtl_chan_reg(b->ch, PPU_CHAN_GP_GET), b->ch->put,
		      rtl_log_count(env, PPU_TRACE_COPY_START, (int)b->ch->chid));
	ck_assert_uint_eq(rtl_chan_reg(b->ch, PPU_CHAN_FAULT_INFO), 0);
	for (i = 0; i < RTL_BUSY_N; i++) {
		rtl_expect_buf(env, &b->dst[i], i & b->dst_mask, b->img[i], b->len);
		free(b->img[i]);
	}
	rtl_chan_destroy(b->ch);
	rtl_ctx_destroy(b->ctx);
}

uint32_t rtl_runlist_submit_raw(struct rtl_env *env, const struct rtl_rl_ent *e, uint32_t n)
{
	uint32_t st = rtl_runlist_write(env, e, n);

	ck_assert_msg(!PPU_FGET(PPU_RUNLIST_STATUS_PENDING, st), "runlist still pending");
	return st;
}

void rtl_runlist_submit(struct rtl_env *env, const struct rtl_rl_ent *e, uint32_t n)
{
	struct rtl_rl_ent *s = malloc(sizeof(*s) * (n ? n : 1));
	uint32_t i, k = 0;
	int lv;

	ck_assert_ptr_nonnull(s);
	/* in LEVEL order, highest first, each level's entries as given */
	for (lv = 63; lv >= 0; lv--)
		for (i = 0; i < n; i++)
			if (e[i].level == (uint32_t)lv)
				s[k++] = e[i];
	ck_assert_uint_eq(k, n);
	ck_assert_uint_eq(PPU_FGET(PPU_RUNLIST_STATUS_ERROR, rtl_runlist_submit_raw(env, s, n)), 0);
	free(s);
}
