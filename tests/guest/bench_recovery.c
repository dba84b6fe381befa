/* SPDX-License-Identifier: MIT */
/*
 * bench_recovery: how fast ppu.ko notices a stuck channel and how much an
 * engine reset costs the others, run inside the co-simulation guest (see
 * tools/cosim-bench.sh).  Prints
 *
 *   bench: watchdog_stop_latency_ms <mean> ms (max <m>, watchdog_ms W, N rounds)
 *          submit of an acquire nobody releases -> its SEM_WAIT returns -EIO
 *   bench: engine_reset_cycles <c> cycles   COPY_RESET write -> engine idle,
 *          with a 4 MiB copy halted on the engine (debugfs engine)
 *   bench: engine_reset_us <us> us          the same in wall time
 *   bench: engine_reset_stuck_to_others_ms <ms> ms  stuck copy's watchdog
 *          stop -> the first of the other files' waiting copies completes
 *   bench: engine_reset_work_lost_by_others <n> of <m> copies
 *          copies of three other files, queued behind the stuck one, that
 *          did not complete byte for byte (goal: 0)
 *
 * Exits 1 with a message when something fails.  (A Check test, run without
 * forking, only because the guest helpers it shares assert with Check.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_work.h"

#define WD_MS 400
#define ROUNDS 5
#define OTHERS 3
#define PER_OTHER 4
#define LONG (4u << 20)
#define SHORT (128u << 10)

static void bench_fail(const char *what)
{
	fprintf(stderr, "bench_recovery: %s\n", what);
	ppu_debugfs_write("copy_halt", "0");
	ppu_module_params_reset();
	exit(1);
}

static uint64_t engine_value(const char *name)
{
	static char text[1024];

	ppu_debugfs_read("engine", text, sizeof(text));
	return ppu_debugfs_value(text, name);
}

static double watchdog_latency(double *max)
{
	double sum = 0;
	int r;

	*max = 0;
	for (r = 0; r < ROUNDS; r++) {
		struct ppu_tchan ch;
		struct ppu_tpool p;
		struct ppu_tbo pb;
		struct ppu_pb b;
		double t0, dt;

		ppu_tpool_new(ppu_fd, &p, 1);
		ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
		ppu_tchan_new(ppu_fd, &ch, 3);
		ppu_pb_init(&b, (uint32_t *)pb.map, 64);
		ppu_pb_sem_acquire(&b, ppu_tpool_va(&p, 0), 1);
		t0 = ppu_now_s();
		ppu_tchan_submit(&ch, pb.va, b.len);
		if (ppu_sem_wait(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_GEQ, ppu_deadline_ns(60),
				 DRM_PPU_SEM_WAIT_CHAN, ch.chid) != -EIO)
			bench_fail("a stuck acquire was not stopped");
		dt = ppu_now_s() - t0;
		sum += dt;
		if (dt > *max)
			*max = dt;
		if (ppu_chan_destroy(ppu_fd, ch.chid, 0))
			bench_fail("CHAN_DESTROY after the watchdog");
	}
	return sum / ROUNDS;
}

struct other {
	int fd;
	struct ppu_tchan ch;
	struct ppu_tpool pool;
	struct ppu_tbo pb, src[PER_OTHER], dst[PER_OTHER];
};

START_TEST(recovery_figures)
{
	struct ppu_tbo src, dst, pb;
	static struct other o[OTHERS];
	struct drm_ppu_chan_status st;
	double lat, lat_max, t0, t_first = -1;
	uint64_t resets0;
	struct ppu_tchan big;
	struct ppu_tpool p;
	unsigned int i, k, lost = 0;
	struct ppu_pb b;

	ppu_guest_setup();
	ppu_module_params_reset();
	ppu_module_param_set("watchdog_ms", WD_MS);

	lat = watchdog_latency(&lat_max);
	printf("bench: watchdog_stop_latency_ms %.0f ms (max %.0f, watchdog_ms %u, %u rounds)\n",
	       lat * 1e3, lat_max * 1e3, WD_MS, ROUNDS);

	/* a long copy halted on the engine, three files' copies queued behind it */
	resets0 = engine_value("COPY_RESETS");
	ppu_tpool_new(ppu_fd, &p, 1);
	ppu_tbo_new(ppu_fd, &src, LONG);
	ppu_tbo_new(ppu_fd, &dst, LONG);
	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &big, 3);
	ppu_pb_init(&b, (uint32_t *)pb.map, 64);
	ppu_pb_copy(&b, src.va, dst.va, LONG, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    ppu_tpool_va(&p, 0), 1, 0);
	ppu_tchan_submit(&big, pb.va, b.len);
	t0 = ppu_now_s();
	do {
		if (ppu_chan_status(ppu_fd, big.chid, 0, &st) || ppu_now_s() - t0 > 10)
			bench_fail("the long copy never reached the engine");
	} while (st.state != DRM_PPU_CHAN_STATE_ENGINE_BUSY);
	if (ppu_debugfs_write("copy_halt", "1"))
		bench_fail("debugfs copy_halt");
	for (i = 0; i < OTHERS; i++) {
		o[i].fd = open(ppu_node, O_RDWR | O_CLOEXEC);
		if (o[i].fd < 0)
			bench_fail("open the render node");
		ppu_tpool_new(o[i].fd, &o[i].pool, PER_OTHER);
		ppu_tbo_new(o[i].fd, &o[i].pb, PPU_TPAGE);
		ppu_tchan_new(o[i].fd, &o[i].ch, 3);
		ppu_pb_init(&b, (uint32_t *)o[i].pb.map, 256);
		for (k = 0; k < PER_OTHER; k++) {
			ppu_tbo_new(o[i].fd, &o[i].src[k], SHORT);
			ppu_tbo_new(o[i].fd, &o[i].dst[k], SHORT);
			memset(o[i].src[k].map, (int)(0x10 + 16 * i + k), SHORT);
			ppu_pb_copy(&b, o[i].src[k].va, o[i].dst[k].va, SHORT,
				    PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, ppu_tpool_va(&o[i].pool, k),
				    1, 0);
		}
		ppu_tchan_submit(&o[i].ch, o[i].pb.va, b.len);
	}

	/* the watchdog stops the stuck channel; its unbind resets the engine */
	if (ppu_sem_wait(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_GEQ, ppu_deadline_ns(60),
			 DRM_PPU_SEM_WAIT_CHAN, big.chid) != -EIO)
		bench_fail("the stuck copy was not stopped");
	t0 = ppu_now_s();
	for (i = 0; i < OTHERS; i++) {
		for (k = 0; k < PER_OTHER; k++) {
			volatile uint32_t *sem = ppu_tpool_sem(&o[i].pool, k);

			while (*sem != 1 && ppu_now_s() - t0 < 60)
				usleep(1000);
			if (t_first < 0 && *sem == 1)
				t_first = ppu_now_s() - t0;
			if (*sem != 1 || memcmp(o[i].src[k].map, o[i].dst[k].map, SHORT))
				lost++;
		}
		if (ppu_chan_status(o[i].fd, o[i].ch.chid, 0, &st) || st.fault_info)
			bench_fail("another file's channel faulted");
	}
	if (engine_value("COPY_RESETS") != resets0 + 1)
		bench_fail("no engine reset");
	printf("bench: engine_reset_cycles %llu cycles\n",
	       (unsigned long long)engine_value("COPY_LAST_RESET_CYCLES"));
	printf("bench: engine_reset_us %llu us\n", (unsigned long long)engine_value("COPY_LAST_RESET_US"));
	printf("bench: engine_reset_stuck_to_others_ms %.0f ms\n", t_first * 1e3);
	printf("bench: engine_reset_work_lost_by_others %u of %u copies\n", lost,
	       OTHERS * PER_OTHER);
	for (i = 0; i < OTHERS; i++)
		close(o[i].fd);
	ppu_module_params_reset();
	ppu_guest_teardown();
	ck_assert_uint_eq(lost, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bench_recovery");
	TCase *tc = tcase_create("bench_recovery");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, recovery_figures);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	if (failed)
		srunner_print(sr, CK_NORMAL);
	srunner_free(sr);
	return failed ? 1 : 0;
}
