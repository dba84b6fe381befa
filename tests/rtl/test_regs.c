// SPDX-License-Identifier: MIT
#include <check.h>

#include "rtl_check.h"
#include "rtl_suites.h"

/* The model's NUM_CHANNELS: 16 by default (the FPGA-top model's is set by its build). */
#ifndef RTL_NUM_CHANNELS
#define RTL_NUM_CHANNELS 16
#endif

START_TEST(id_version_and_capabilities)
{
	struct rtl_env *env = rtl_env_create(NULL);

	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_ID), PPU_ID_VALUE);
	ck_assert_uint_eq(PPU_FGET(PPU_VERSION_MAJOR, rtl_reg_read(env, PPU_REG_VERSION)),
			  PPU_VERSION_MAJOR);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_NUM_CHANNELS), RTL_NUM_CHANNELS);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_COPY_CHUNK_BYTES), 4096);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_MEM_DATA_BYTES), 8);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_TLB_ENTRIES), 16);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_COPY_MAX_READS), 256);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_PB_PREFETCH_BEATS), 16);
	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) &
		  PPU_FSET(PPU_CAP_FEATURES_COPY_ENGINE, 1));
	/* rtl_env's default: 64 MiB of local memory */
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_LOCAL_MEM_MIB), 64);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_LOCAL_MEM_MIB), env->mem_bytes[0] >> 20);
	rtl_env_destroy(env);
}
END_TEST

/* The local_mem_mib strap follows the harness configuration, across resets. */
START_TEST(local_mem_size_is_the_configured_one)
{
	struct ppu_sim_config c;
	struct rtl_env *env;
	struct ppu_sim *sim;
	uint32_t v = 1;

	ppu_sim_config_default(&c);
	c.local_mem_bytes = 32u << 20;
	env = rtl_env_create(&c);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_LOCAL_MEM_MIB), 32);
	ppu_sim_reset(env->sim);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_LOCAL_MEM_MIB), 32);
	rtl_env_destroy(env);

	/* the harness default, and no local memory at all */
	sim = ppu_sim_create(NULL);
	ck_assert_ptr_nonnull(sim);
	ck_assert_int_eq(ppu_sim_reg_read(sim, PPU_REG_CAP_LOCAL_MEM_MIB, &v), 0);
	ck_assert_uint_eq(v, 16);
	ppu_sim_destroy(sim);
	ppu_sim_config_default(&c);
	c.local_mem_bytes = 0;
	sim = ppu_sim_create(&c);
	ck_assert_ptr_nonnull(sim);
	ck_assert_int_eq(ppu_sim_reg_read(sim, PPU_REG_CAP_LOCAL_MEM_MIB, &v), 0);
	ck_assert_uint_eq(v, 0);
	ppu_sim_destroy(sim);
}
END_TEST

START_TEST(writable_registers_hold_values_and_commands_read_zero)
{
	struct rtl_env *env = rtl_env_create(NULL);

	rtl_reg_write(env, PPU_REG_SCHED_TIMESLICE, 777);
	rtl_reg_write(env, PPU_REG_SCHED_ACQ_RETRY, 55);
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_SCHED_TIMESLICE), 777);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_SCHED_ACQ_RETRY), 55);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_ENABLE), 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_DOORBELL), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CHAN_CTRL), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_MMU_CTRL), 0);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(cycle_counter_runs)
{
	struct rtl_env *env = rtl_env_create(NULL);
	uint32_t a = rtl_reg_read(env, PPU_REG_CYCLE_LO), b;

	ppu_sim_clock(env->sim, 1000);
	b = rtl_reg_read(env, PPU_REG_CYCLE_LO);
	ck_assert_uint_ge(b - a, 1000);
	ck_assert_uint_lt(b - a, 1100);
	rtl_env_destroy(env);
}
END_TEST

#define WAIT_CYCLES 200000

static uint32_t sel_read(struct rtl_env *env, uint32_t chid, uint32_t off)
{
	rtl_reg_write(env, PPU_REG_CHAN_SEL, chid);
	return rtl_reg_read(env, PPU_CHAN_SEL_BASE + off);
}

/*
 * CHAN_SEL shows any channel's status registers at CHAN_SEL_BASE: the same
 * values as the channel's own window, and 0 for an id the PPU lacks.
 */
START_TEST(the_selected_window_shows_any_channels_status)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	uint32_t nc = rtl_reg_read(env, PPU_REG_CAP_NUM_CHANNELS), off, i;
	struct rtl_chan *a = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_chan *b = rtl_chan_create(env, ctx, 5, 4, 0);
	const uint32_t ids[] = { 0, 3, 5 };
	uint32_t buf[4];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 4);
	ppu_pb_method(&pb, PPU_HOST_NOP, 0);
	rtl_submit_and_wait(a, &pb, WAIT_CYCLES);
	rtl_chan_fault_by_doorbell_page(b, WAIT_CYCLES);
	ck_assert_uint_eq(PPU_FGET(PPU_CHAN_STATUS_STATE, sel_read(env, 5, PPU_CHAN_STATUS)),
			  PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, sel_read(env, 5, PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_KIND_GP_PUT_RANGE);
	ck_assert_uint_eq(sel_read(env, 3, PPU_CHAN_GP_GET), a->put);
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		for (off = 0; off < PPU_CHAN_STRIDE; off += 4)
			ck_assert_uint_eq(sel_read(env, ids[i], off),
					  rtl_reg_read(env, PPU_CHAN_REG(ids[i], off)));
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CHAN_SEL), 5);
	/* 12 bits of id; none the PPU lacks reads anything */
	rtl_reg_write(env, PPU_REG_CHAN_SEL, 0xffffffff);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CHAN_SEL), PPU_FMASK(PPU_CHAN_SEL_CHID));
	for (off = 0; off < PPU_CHAN_STRIDE; off += 4)
		ck_assert_uint_eq(rtl_reg_read(env, PPU_CHAN_SEL_BASE + off), 0);
	/* (id nc + 5 names no channel, though its low bits may name channel 5) */
	for (off = 0; off < PPU_CHAN_STRIDE; off += 4) {
		ck_assert_uint_eq(sel_read(env, nc, off), 0);
		ck_assert_uint_eq(sel_read(env, nc + 5, off), 0);
	}

	rtl_chan_destroy(a);
	rtl_chan_destroy(b);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * The highest channel runs, reports its events in the event ring and its
 * status in the selected window; a PPU of more than 32 channels (the
 * FPGA-top model) has no pending bit or window of its own for it, and
 * its events wait while the ring is off.
 */
START_TEST(the_highest_channel_runs_and_reports_its_events_and_status)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	uint32_t nc = rtl_reg_read(env, PPU_REG_CAP_NUM_CHANNELS);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, nc - 1, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint64_t ring = rtl_alloc_pa(env, 1, 16 * PPU_EVENT_BYTES, 8);
	uint32_t buf[16], t;
	struct ppu_pb pb;

	/* ring off: a channel beyond the pending registers' 32 sets no bit */
	ppu_pb_init(&pb, buf, 16);
	ppu_pb_sem_release(&pb, sem.va, 7);
	ppu_pb_nonstall(&pb);
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_mem_rd32(env, sem.sys, sem.pa), 7);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), ch->put);
	ck_assert_uint_eq(PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_reg(ch, PPU_CHAN_STATUS)),
			  PPU_CHAN_STATUS_STATE_IDLE);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING),
			  nc - 1 < 32 ? 1u << (nc - 1) : 0);
	rtl_reg_write(env, PPU_REG_NONSTALL_PENDING, 0xffffffff);

	rtl_reg_write(env, PPU_REG_EVENT_RING_LO, (uint32_t)ring);
	rtl_reg_write(env, PPU_REG_EVENT_RING_HI,
		      PPU_FSET(PPU_ADDR_HI_SYS, 1) | PPU_FSET(PPU_ADDR_HI_ADDR, ring >> 32));
	rtl_reg_write(env, PPU_REG_EVENT_RING_SIZE, 4);
	/* (beyond 32, the event waited for the ring: it comes first) */
	if (nc - 1 >= 32) {
		for (t = 0; t < WAIT_CYCLES && rtl_reg_read(env, PPU_REG_EVENT_RING_PUT) == 0; t += 64)
			ppu_sim_clock(env->sim, 64);
		ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_PUT), 1);
		ck_assert_uint_eq(rtl_mem_rd32(env, 1, ring),
				  PPU_FSET(PPU_EVENT_KIND, PPU_EVENT_KIND_NONSTALL) |
				  PPU_FSET(PPU_EVENT_CHID, nc - 1));
		rtl_reg_write(env, PPU_REG_EVENT_RING_GET, 1);
	}
	rtl_chan_fault_by_doorbell_page(ch, WAIT_CYCLES);
	for (t = 0; t < WAIT_CYCLES && (rtl_reg_read(env, PPU_REG_INTR_STATUS) &
					 PPU_FSET(PPU_INTR_EVENT_FAULT, 1)) == 0; t += 64)
		ppu_sim_clock(env->sim, 64);
	ck_assert_uint_eq(rtl_mem_rd32(env, 1, ring + (uint64_t)(rtl_reg_read(env, PPU_REG_EVENT_RING_PUT) - 1) * PPU_EVENT_BYTES),
			  PPU_FSET(PPU_EVENT_KIND, PPU_EVENT_KIND_FAULT) | PPU_FSET(PPU_EVENT_CHID, nc - 1));
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_KIND_GP_PUT_RANGE);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);
	rtl_reg_write(env, PPU_REG_EVENT_RING_SIZE, 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

Suite *suite_regs(void)
{
	Suite *s = suite_create("regs");
	TCase *tc = tcase_create("regs");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, id_version_and_capabilities);
	tcase_add_test(tc, local_mem_size_is_the_configured_one);
	tcase_add_test(tc, writable_registers_hold_values_and_commands_read_zero);
	tcase_add_test(tc, cycle_counter_runs);
	tcase_add_test(tc, the_selected_window_shows_any_channels_status);
	tcase_add_test(tc, the_highest_channel_runs_and_reports_its_events_and_status);
	suite_add_tcase(s, tc);
	return s;
}
