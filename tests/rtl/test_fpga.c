// SPDX-License-Identifier: MIT
/*
 * The PPU in its PCIe FPGA shell (hw/fpga/ppu_fpga_top, docs/fpga.md),
 * through the harness's AXI responders: BAR0 over AXI4-Lite, copies
 * gathered into bursts on both AXI masters with several bursts in flight,
 * data exact under heavy READY/VALID backpressure and latency jitter,
 * SLVERR and DECERR on reads and on writes becoming BUS_ERROR faults of
 * the channel that made the access (and of no other), the MSI request
 * line, and the AXI checkers' self-test.  Only in the FPGA model's test
 * binary (build/tests/rtl_tests-fpga), which also runs the other suites
 * of tests/rtl/rtl_suites.h through the shell.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_suites.h"

#define PAGE 4096u
#define WAIT_CYCLES 4000000
#define RND_SHIFT 13
#define VICTIM 2u
#define OTHER 6u

static uint32_t finfo(uint32_t kind, uint32_t unit, uint32_t access)
{
	return PPU_FSET(PPU_FAULT_INFO_KIND, kind) | PPU_FSET(PPU_FAULT_INFO_UNIT, unit) |
	       PPU_FSET(PPU_FAULT_INFO_ACCESS, access);
}

/* Copies @len bytes from @src + @so to @dst + @do_ and checks every byte of @dst. */
static void copy_and_check(struct rtl_env *env, struct rtl_chan *ch, const struct rtl_buf *src,
			   uint32_t so, const struct rtl_buf *dst, uint32_t do_, uint32_t len)
{
	uint8_t *simg = rtl_buf_randomize(env, src), *dimg = rtl_buf_randomize(env, dst);
	uint32_t dw[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src->va + so, dst->va + do_, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_IDLE);
	memcpy(dimg + do_, simg + so, len);
	rtl_expect_buf(env, dst, 0, dimg, dst->size);
	free(simg);
	free(dimg);
}

/* ------------------------------------------------------------------------ */

START_TEST(bar0_is_the_register_file_through_axi_lite)
{
	struct rtl_env *env = rtl_env_create(NULL);

	ck_assert(ppu_sim_is_fpga());
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_ID), PPU_ID_VALUE);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_LOCAL_MEM_MIB), env->mem_bytes[0] >> 20);
	rtl_reg_write(env, PPU_REG_SCHED_TIMESLICE, 0x12345);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_SCHED_TIMESLICE), 0x12345);
	rtl_reg_write(env, PPU_REG_SCHED_TIMESLICE, 777);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_SCHED_TIMESLICE), 777);
	rtl_expect_no_protocol_errors(env);
	rtl_env_destroy(env);
}
END_TEST

/*
 * A copy streams one beat per cycle: the shell gathers the beats into
 * bursts of up to 16 on both masters and keeps several in flight.
 * Loop index 0: local -> sys, 1: sys -> local.
 */
START_TEST(copies_stream_as_bursts_with_several_in_flight)
{
	struct ppu_sim_config cfg;
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	struct rtl_buf src, dst;
	struct ppu_sim_stats st;
	int s = _i, d = !_i;

	ppu_sim_config_default(&cfg);
	cfg.sys_latency = 200;		/* a PCIe round trip at 250 MHz */
	env = rtl_env_create(&cfg);
	ctx = rtl_ctx_create(env);
	ch = rtl_chan_create(env, ctx, 1, 4, 0);
	src = rtl_buf_alloc(ctx, s, 64 * 1024);
	dst = rtl_buf_alloc(ctx, d, 64 * 1024);
	rtl_rnd_seed(0xb0057 + _i, RND_SHIFT);
	ppu_sim_reset_stats(env->sim);
	copy_and_check(env, ch, &src, 8, &dst, 0, 60000);
	ppu_sim_get_stats(env->sim, &st);
	ck_assert_uint_gt(st.axi_bursts[0][s], 0);
	ck_assert_uint_gt(st.axi_bursts[1][d], 0);
	/* bursts, not single beats: the source's 7500 beats in far fewer bursts */
	ck_assert_uint_eq(st.axi_max_len[0][s], 16);
	ck_assert_uint_eq(st.axi_max_len[1][d], 16);
	ck_assert_uint_lt(st.axi_bursts[0][s] * 4, st.rd_beats[s]);
	ck_assert_uint_lt(st.axi_bursts[1][d] * 4, st.wr_beats[d]);
	/* the read side keeps more than one burst in flight */
	ck_assert_uint_ge(st.axi_max_outstanding[0][s], 4);
	ck_assert_uint_eq(st.axi_slverr[0][s] + st.axi_decerr[0][s], 0);
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * Responders that take and give rarely, late and out of step: every
 * aperture pair still copies exactly.  Loop index: responder behaviour.
 */
static const struct {
	uint32_t ready_pct, jitter, max_bursts, local_latency, sys_latency;
} harsh[] = {
	{ 10, 0, 1, 8, 32 },		/* one burst at a time, READY 1 cycle in 10 */
	{ 50, 300, 2, 40, 300 },	/* long and uneven latency, two bursts */
	{ 100, 0, 16, 1, 1 },		/* fastest possible */
	{ 30, 40, 16, 120, 5 },		/* slow DDR, fast PCIe, sparse handshakes */
};

START_TEST(copies_are_exact_under_backpressure_and_jitter)
{
	static const int ap[4][2] = { { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 } };
	struct ppu_sim_config cfg;
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	unsigned int i;

	ppu_sim_config_default(&cfg);
	cfg.axi_ready_pct = harsh[_i].ready_pct;
	cfg.axi_jitter = harsh[_i].jitter;
	cfg.axi_max_bursts = harsh[_i].max_bursts;
	cfg.local_latency = harsh[_i].local_latency;
	cfg.sys_latency = harsh[_i].sys_latency;
	cfg.axi_seed = 77 + _i;
	env = rtl_env_create(&cfg);
	ctx = rtl_ctx_create(env);
	ch = rtl_chan_create(env, ctx, 3, 4, 0);
	rtl_rnd_seed(0x5eed + _i, RND_SHIFT);
	for (i = 0; i < 4; i++) {
		struct rtl_buf src = rtl_buf_alloc(ctx, ap[i][0], 5 * PAGE);
		struct rtl_buf dst = rtl_buf_alloc(ctx, ap[i][1], 5 * PAGE);

		copy_and_check(env, ch, &src, 3 + i, &dst, 7 - i, 4 * PAGE + 17);
		copy_and_check(env, ch, &src, 1, &dst, 1, 9);
	}
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * SLVERR from a responder (an injected error on one page), on a copy's
 * reads or on its writes: the copying channel faults with BUS_ERROR on
 * the right side, another channel's copies go on, intact.
 * Loop index 0: reads of local memory, 1: writes of system memory.
 */
struct err_page {
	int sys, write;
	uint64_t pa;
};

static int inject_on_page(void *ctx, int sys, int write, uint64_t addr)
{
	const struct err_page *e = ctx;

	return sys == e->sys && write == e->write && addr >> 12 == e->pa >> 12;
}

static void expect_bus_error(struct rtl_env *env, struct rtl_chan *ch, uint32_t unit,
			     uint32_t access)
{
	rtl_expect_state(ch, PPU_CHAN_STATUS_STATE_FAULTED, 64, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO),
			  finfo(PPU_FAULT_KIND_BUS_ERROR, unit, access));
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << ch->chid);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), PPU_FSET(PPU_INTR_FAULT, 1));
	ck_assert_int_eq(ppu_sim_irq(env->sim), 1);
}

START_TEST(slverr_on_reads_or_writes_is_a_bus_error_of_that_channel)
{
	struct err_page e = { .sys = _i, .write = _i };
	struct ppu_sim_config cfg;
	struct ppu_sim_stats st;
	struct rtl_env *env;
	struct rtl_busy other;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	struct rtl_buf src, dst;
	uint32_t dw[32];
	struct ppu_pb pb;

	ppu_sim_config_default(&cfg);
	cfg.mem_err = inject_on_page;
	cfg.mem_err_ctx = &e;
	e.pa = ~0ull;
	env = rtl_env_create(&cfg);
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_FAULT, 1));
	rtl_rnd_seed(0x51e + _i, RND_SHIFT);
	rtl_busy_start(env, &other, OTHER, 16 * 1024 + 5, 16 * 1024, 7);
	ctx = rtl_ctx_create(env);
	ch = rtl_chan_create(env, ctx, VICTIM, 4, 0);
	src = rtl_buf_alloc(ctx, 0, 3 * PAGE);
	dst = rtl_buf_alloc(ctx, 1, 3 * PAGE);
	e.pa = (_i ? dst.pa : src.pa) + PAGE;	/* the middle page */
	ppu_sim_reset_stats(env->sim);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src.va, dst.va, 3 * PAGE, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(ch, &pb);
	expect_bus_error(env, ch, _i ? PPU_FAULT_UNIT_COPY_DST : PPU_FAULT_UNIT_COPY_SRC,
			 _i ? PPU_FAULT_ACCESS_WRITE : PPU_FAULT_ACCESS_READ);
	ppu_sim_get_stats(env->sim, &st);
	ck_assert_uint_gt(st.axi_slverr[_i][_i], 0);
	ck_assert_uint_eq(st.axi_decerr[_i][_i], 0);
	rtl_busy_finish(env, &other, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << VICTIM);
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * DECERR (an address beyond the responder's memory, as a DDR controller or
 * a bridge answers an unmapped address) is a bus error the same way.
 * Loop index 0: a read of local memory, 1: a write of system memory.
 */
START_TEST(decerr_beyond_memory_is_a_bus_error_of_that_channel)
{
	struct ppu_sim_stats st;
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, VICTIM, 4, 0);
	struct rtl_buf ok = rtl_buf_alloc(ctx, !_i, PAGE);
	uint32_t far = rtl_va_reserve(ctx, PAGE), dw[32];
	struct ppu_pb pb;

	rtl_reg_write(env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_FAULT, 1));
	rtl_map(ctx, far, 64ull << 20, _i, PAGE, PPU_PTE_PERM_R | PPU_PTE_PERM_W);
	ppu_pb_init(&pb, dw, 32);
	if (_i)
		ppu_pb_copy(&pb, ok.va, far, 256, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	else
		ppu_pb_copy(&pb, far, ok.va, 256, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(ch, &pb);
	expect_bus_error(env, ch, _i ? PPU_FAULT_UNIT_COPY_DST : PPU_FAULT_UNIT_COPY_SRC,
			 _i ? PPU_FAULT_ACCESS_WRITE : PPU_FAULT_ACCESS_READ);
	ppu_sim_get_stats(env->sim, &st);
	ck_assert_uint_gt(st.axi_decerr[_i][_i], 0);
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

static int irq_up(struct ppu_sim *sim, void *ctx)
{
	(void)ctx;
	return ppu_sim_irq(sim);
}

/*
 * The MSI request line: up when a copy's completion interrupt is pending
 * and enabled, with the copy's data already in host memory (the shell
 * holds the line until the writes before it are answered), down when
 * software clears the status.
 */
START_TEST(msi_request_follows_the_interrupt_after_the_data_landed)
{
	struct ppu_sim_config cfg;
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	struct rtl_buf src, dst;
	uint8_t *simg, *dimg;
	uint32_t dw[32];
	struct ppu_pb pb;

	ppu_sim_config_default(&cfg);
	cfg.sys_latency = 300;
	cfg.axi_jitter = 100;
	env = rtl_env_create(&cfg);
	ctx = rtl_ctx_create(env);
	ch = rtl_chan_create(env, ctx, 4, 4, 0);
	src = rtl_buf_alloc(ctx, 0, 2 * PAGE);
	dst = rtl_buf_alloc(ctx, 1, 2 * PAGE);
	rtl_rnd_seed(0x1c, RND_SHIFT);
	simg = rtl_buf_randomize(env, &src);
	dimg = rtl_buf_randomize(env, &dst);
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_NONSTALL, 1));
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src.va, dst.va, 2 * PAGE, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 1);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_ge(ppu_sim_run_until(env->sim, irq_up, NULL, WAIT_CYCLES), 0);
	memcpy(dimg, simg, 2 * PAGE);
	rtl_expect_buf(env, &dst, 0, dimg, dst.size);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 1u << 4);
	rtl_reg_write(env, PPU_REG_NONSTALL_PENDING, 1u << 4);
	ppu_sim_clock(env->sim, 4);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	free(simg);
	free(dimg);
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * The AXI checkers run and their reports fail a test: told to allow only
 * single-beat bursts, they report a copy's bursts; without that, nothing.
 */
static uint64_t selftest_copy(uint32_t mask)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 5, 3, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 1, 8192), dst = rtl_buf_alloc(ctx, 0, 8192);
	uint32_t dw[32];
	struct ppu_pb pb;
	uint64_t n;

	ppu_sim_set_check_selftest(env->sim, mask);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src.va, dst.va, 8000, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_submit_and_wait(ch, &pb, 400000);
	n = rtl_check_errors(env);
	env->check_errors_ok = 1;
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	return n;
}

START_TEST(axi_checkers_fire_on_a_wrong_rule)
{
	ck_assert_uint_eq(selftest_copy(0), 0);
	ck_assert_uint_gt(selftest_copy(16), 0);	/* SELFTEST_AXI */
}
END_TEST

Suite *suite_fpga(void)
{
	Suite *s = suite_create("fpga");
	TCase *tc = tcase_create("fpga");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, bar0_is_the_register_file_through_axi_lite);
	tcase_add_loop_test(tc, copies_stream_as_bursts_with_several_in_flight, 0, 2);
	tcase_add_loop_test(tc, copies_are_exact_under_backpressure_and_jitter, 0,
			    sizeof(harsh) / sizeof(harsh[0]));
	tcase_add_loop_test(tc, slverr_on_reads_or_writes_is_a_bus_error_of_that_channel, 0, 2);
	tcase_add_loop_test(tc, decerr_beyond_memory_is_a_bus_error_of_that_channel, 0, 2);
	tcase_add_test(tc, msi_request_follows_the_interrupt_after_the_data_landed);
	tcase_add_test(tc, axi_checkers_fire_on_a_wrong_rule);
	suite_add_tcase(s, tc);
	return s;
}
