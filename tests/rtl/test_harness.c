// SPDX-License-Identifier: MIT
/* The harness features tests and users rely on: trace file, waveform, memory model. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtl_env.h"
#include "rtl_suites.h"

static void tmp_path(char *buf, size_t n, const char *what)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(buf, n, "%s/ppu-%s-XXXXXX", dir ? dir : "/tmp", what);
	fd = mkstemp(buf);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

/* One semaphore release on a fresh channel, then tear everything down. */
static size_t run_one_release(const struct ppu_sim_config *cfg)
{
	struct rtl_env *env = rtl_env_create(cfg);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[16];
	struct ppu_pb pb;
	size_t nev;

	ppu_pb_init(&pb, buf, 16);
	ppu_pb_sem_release(&pb, sem.va, 0xabcd);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, 100000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0xabcd);
	nev = env->nev;
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	return nev;
}

START_TEST(trace_file_has_one_parseable_line_per_event)
{
	struct ppu_sim_config cfg;
	char path[256], line[256], kind[32];
	size_t nev, lines = 0, releases = 0;
	unsigned long long cyc, last = 0;
	unsigned int chid, a, b;
	FILE *f;

	tmp_path(path, sizeof(path), "trace");
	ppu_sim_config_default(&cfg);
	cfg.trace_path = path;
	nev = run_one_release(&cfg);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		ck_assert_int_eq(sscanf(line, "%llu %31s ch=%u a=0x%x b=0x%x", &cyc, kind, &chid,
					&a, &b), 5);
		ck_assert_uint_ge(cyc, last);
		last = cyc;
		ck_assert_uint_eq(chid, 3);
		if (!strcmp(kind, "SEM_RELEASE")) {
			ck_assert_uint_eq(b, 0xabcd);
			releases++;
		}
		lines++;
	}
	fclose(f);
	unlink(path);
	ck_assert_uint_eq(lines, nev);
	ck_assert_uint_eq(releases, 1);
}
END_TEST

START_TEST(waveform_is_written_on_request)
{
	struct ppu_sim_config cfg;
	char path[256];
	struct stat st;

	tmp_path(path, sizeof(path), "wave");
	ppu_sim_config_default(&cfg);
	cfg.fst_path = path;
	run_one_release(&cfg);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_gt(st.st_size, 1000);
	unlink(path);
}
END_TEST

/* Engine time of a 64 KiB copy under a given local bandwidth. */
static uint64_t copy_time(uint32_t bytes_per_cycle)
{
	struct ppu_sim_config cfg;
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	struct rtl_buf s, d;
	uint32_t buf[32];
	struct ppu_pb pb;
	long k0, k1;
	uint64_t t;

	ppu_sim_config_default(&cfg);
	cfg.local_bytes_per_cycle = bytes_per_cycle;
	env = rtl_env_create(&cfg);
	ctx = rtl_ctx_create(env);
	ch = rtl_chan_create(env, ctx, 0, 4, 0);
	s = rtl_buf_alloc(ctx, 0, 65536);
	d = rtl_buf_alloc(ctx, 0, 65536);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_copy(&pb, s.va, d.va, 65536, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, 1000000), 0);
	k0 = rtl_log_find(env, PPU_TRACE_COPY_START, 0, 0);
	k1 = rtl_log_find(env, PPU_TRACE_COPY_END, 0, 0);
	ck_assert(k0 >= 0 && k1 > k0);
	t = env->ev[k1].cycle - env->ev[k0].cycle;
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	return t;
}

START_TEST(memory_bandwidth_setting_bounds_copy_time)
{
	uint64_t full = copy_time(8), half = copy_time(4), quarter = copy_time(2);

	/* 8192 beats: about one per cycle, then one per 2 and per 4 cycles */
	ck_assert_uint_ge(full, 8192);
	ck_assert_uint_le(full, 8192 + 1000);
	ck_assert_uint_ge(half, 2 * 8192);
	ck_assert_uint_le(half, 2 * 8192 + 1000);
	ck_assert_uint_ge(quarter, 4 * 8192);
	ck_assert_uint_le(quarter, 4 * 8192 + 1000);
}
END_TEST

START_TEST(idle_only_when_nothing_is_pending)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf s = rtl_buf_alloc(ctx, 0, 65536), d = rtl_buf_alloc(ctx, 0, 65536);
	uint32_t buf[32];
	struct ppu_pb pb;
	int busy_seen = 0, i;

	ppu_sim_clock(env->sim, 10);
	ck_assert_int_eq(ppu_sim_idle(env->sim), 1);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_copy(&pb, s.va, d.va, 65536, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(ch, &pb);
	for (i = 0; i < 5000; i++) {
		ppu_sim_clock(env->sim, 1);
		busy_seen |= !ppu_sim_idle(env->sim);
		ck_assert_msg(!ppu_sim_idle(env->sim) || rtl_log_find(env, PPU_TRACE_COPY_START, 0, 0) < 0 ||
			      rtl_log_find(env, PPU_TRACE_COPY_END, 0, 0) >= 0,
			      "idle while the copy runs");
	}
	ck_assert(busy_seen);
	ck_assert_int_eq(rtl_chan_wait(ch, 1000000), 0);
	ppu_sim_clock(env->sim, 4);
	ck_assert_int_eq(ppu_sim_idle(env->sim), 1);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* A server that stops clocking at idle must already see the fault's interrupt. */
START_TEST(fault_interrupt_is_raised_before_idle)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 1, 4, 0);
	uint32_t buf[4];
	struct ppu_pb pb;
	int i, was_busy = 0;

	rtl_reg_write(env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_FAULT, 1));
	ppu_pb_init(&pb, buf, 4);
	ppu_pb_method(&pb, 0x0fc, 0);	/* no such host method */
	rtl_chan_submit(ch, &pb);
	for (i = 0; i < 100000; i++) {
		ppu_sim_clock(env->sim, 1);
		if (!ppu_sim_idle(env->sim)) {
			was_busy = 1;
			continue;
		}
		if (was_busy)
			break;
	}
	ck_assert(was_busy && ppu_sim_idle(env->sim));
	ck_assert_int_eq(ppu_sim_irq(env->sim), 1);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_FAULTED);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

Suite *suite_harness(void)
{
	Suite *s = suite_create("harness");
	TCase *tc = tcase_create("harness");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, trace_file_has_one_parseable_line_per_event);
	tcase_add_test(tc, waveform_is_written_on_request);
	tcase_add_test(tc, memory_bandwidth_setting_bounds_copy_time);
	tcase_add_test(tc, idle_only_when_nothing_is_pending);
	tcase_add_test(tc, fault_interrupt_is_raised_before_idle);
	suite_add_tcase(s, tc);
	return s;
}
