// SPDX-License-Identifier: MIT
/*
 * The PPU with many channels (RTL_NUM_CHANNELS, hw/sim/wide.mk: 4096,
 * every 12-bit id; 64 of them have their host context on chip, the others
 * are loaded from their save areas), built without a compute engine:
 * every channel binds and runs a copy whose data is checked, and a
 * channel of a higher runlist level is served before all the lower ones
 * that were rung before it.
 * Its own model and program: a model of that many channels is slower in
 * every cycle, which the other suites need not pay for.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"

#ifndef RTL_NUM_CHANNELS
#error "RTL_NUM_CHANNELS: the channel count of the model this is linked with"
#endif

#define NCH RTL_NUM_CHANNELS
#define SLOT 64u
/* Binds, fetches and copies of every channel: about 150 cycles a channel
 * (a bind alone is 142), so this is more than six times that. */
#define WAIT_CYCLES (NCH * 1000ull)

struct wide {
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch[NCH];
	struct rtl_buf src, dst;
};

static void wide_create(struct wide *w)
{
	uint32_t i;
	uint8_t *img;

	w->env = rtl_env_create(NULL);
	ck_assert_uint_eq(rtl_reg_read(w->env, PPU_REG_CAP_NUM_CHANNELS), NCH);
	w->ctx = rtl_ctx_create(w->env);
	w->src = rtl_buf_alloc(w->ctx, 0, NCH * SLOT);
	w->dst = rtl_buf_alloc(w->ctx, 0, NCH * SLOT);
	img = malloc(NCH * SLOT);
	ck_assert_ptr_nonnull(img);
	srand(0x4096);
	for (i = 0; i < NCH * SLOT; i++)
		img[i] = (uint8_t)rand();
	rtl_buf_write(w->env, &w->src, 0, img, NCH * SLOT);
	free(img);
	for (i = 0; i < NCH; i++)
		w->ch[i] = rtl_chan_create_small(w->env, w->ctx, i, 2);
}

static void wide_destroy(struct wide *w)
{
	uint32_t i;

	for (i = 0; i < NCH; i++)
		rtl_chan_destroy(w->ch[i]);
	rtl_ctx_destroy(w->ctx);
	rtl_env_destroy(w->env);
}

/* Channel @i copies slot @i of the source to slot @i of the destination. */
static void submit_copy(struct wide *w, uint32_t i)
{
	uint32_t dw[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, w->src.va + i * SLOT, w->dst.va + i * SLOT, SLOT,
		    PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(w->ch[i], &pb);
}

static void check_copies(struct wide *w)
{
	uint8_t *a = malloc(NCH * SLOT), *b = malloc(NCH * SLOT);
	uint32_t i;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	rtl_buf_read(w->env, &w->src, 0, a, NCH * SLOT);
	rtl_buf_read(w->env, &w->dst, 0, b, NCH * SLOT);
	for (i = 0; i < NCH; i++)
		ck_assert_msg(!memcmp(a + i * SLOT, b + i * SLOT, SLOT),
			      "channel %u: destination differs from the source", i);
	free(a);
	free(b);
}

START_TEST(every_channel_binds_and_copies_with_its_data_checked)
{
	struct wide w;
	uint64_t copies0;
	uint32_t i, slots;

	wide_create(&w);
	copies0 = rtl_perf_read(w.env, PPU_PERF_COPIES);
	/* doorbells in id order: the first channels run while the last are rung */
	for (i = 0; i < NCH; i++)
		submit_copy(&w, i);
	ck_assert_int_eq(rtl_wait_all(w.ch, NCH, WAIT_CYCLES), 0);
	check_copies(&w);
	ck_assert_uint_eq(rtl_perf_read(w.env, PPU_PERF_COPIES) - copies0, NCH);
	ck_assert_uint_eq(rtl_log_count(w.env, PPU_TRACE_BIND, -1), NCH);
	ck_assert_uint_eq(rtl_log_count(w.env, PPU_TRACE_FAULT, -1), 0);
	/* with fewer slots than channels, each bind beyond them took a slot */
	slots = rtl_reg_read(w.env, PPU_REG_CAP_CHAN_CACHE);
	if (slots < NCH)
		ck_assert_uint_ge(rtl_log_count(w.env, PPU_TRACE_CHAN_LOAD, -1), NCH);
	else
		ck_assert_uint_eq(rtl_log_count(w.env, PPU_TRACE_CHAN_LOAD, -1), 0);
	wide_destroy(&w);
}
END_TEST

/*
 * Runlist: every channel at level 0 but the last, at level 63.  The last
 * is rung after all the others, so most of them wait at level 0 when its
 * first doorbell binds it; from then on no other channel may be switched
 * in before it.  Then every copy completes, data checked.
 */
START_TEST(a_higher_level_overtakes_every_waiting_channel)
{
	const uint32_t hi = NCH - 1;
	static struct rtl_rl_ent rl[NCH];
	struct wide w;
	uint32_t i, st = 0;
	long db, sw, j;
	size_t before;

	wide_create(&w);
	for (i = 0; i < NCH; i++)
		rl[i] = (struct rtl_rl_ent){ i, i == hi ? 63 : 0 };
	rtl_reg_write(w.env, PPU_REG_SCHED_CTRL, PPU_FSET(PPU_SCHED_CTRL_RUNLIST, 1));
	rtl_runlist_submit(w.env, rl, NCH);
	st = rtl_reg_read(w.env, PPU_REG_RUNLIST_STATUS);
	ck_assert_uint_eq(PPU_FGET(PPU_RUNLIST_STATUS_COUNT, st), NCH);

	for (i = 0; i < NCH; i++)
		submit_copy(&w, i);
	ck_assert_int_eq(rtl_wait_all(w.ch, NCH, WAIT_CYCLES), 0);
	check_copies(&w);

	db = rtl_log_find(w.env, PPU_TRACE_BIND, hi, 0);
	sw = rtl_log_find(w.env, PPU_TRACE_CHAN_SWITCH, hi, 0);
	ck_assert_int_ge(db, 0);
	ck_assert_int_gt(sw, db);
	/* it did overtake: most channels had not been served yet */
	before = 0;
	for (j = 0; j < db; j++)
		if (w.env->ev[j].kind == PPU_TRACE_CHAN_SWITCH)
			before++;
	ck_assert_msg(before < NCH / 2, "%zu switches before the bind: nothing to overtake",
		      before);
	for (j = db + 1; j < sw; j++)
		ck_assert_msg(w.env->ev[j].kind != PPU_TRACE_CHAN_SWITCH,
			      "channel %u switched in between the bind of level 63 and its service",
			      w.env->ev[j].chid);
	wide_destroy(&w);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("wide");
	TCase *tc = tcase_create("channels");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 1200);
	tcase_add_test(tc, every_channel_binds_and_copies_with_its_data_checked);
	tcase_add_test(tc, a_higher_level_overtakes_every_waiting_channel);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
