// SPDX-License-Identifier: MIT
/*
 * The channel watchdog of ppu.ko (module parameter watchdog_ms, set low
 * here): a channel that has work but makes no progress is taken off the
 * PPU, its waiters get -EIO instead of hanging, its owner reads FAULTED
 * with kind WATCHDOG (unit DRIVER) from CHAN_STATUS, doorbells are refused,
 * and everybody else keeps running; channels that wait their turn behind a
 * long copy, or have nothing to do, are left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_work.h"

#define WD_MS 400

static void wd_setup(void)
{
	ppu_guest_setup();
	ppu_module_params_reset();
	ppu_module_param_set("watchdog_ms", WD_MS);
}

static void wd_teardown(void)
{
	/* (a failed engine test must not leave the copy engine halted) */
	ppu_debugfs_write("copy_halt", "0");
	ppu_module_params_reset();
	ppu_guest_teardown();
}

/* A copy of @len pattern bytes on @ch, waited for through the pool. */
static void copy_ok(struct ppu_tchan *ch, struct ppu_tbo *pb, struct ppu_tpool *p, uint32_t len,
		    uint32_t seq)
{
	struct ppu_tbo src, dst;
	struct ppu_pb b;
	uint32_t i;

	ppu_tbo_new(ch->fd, &src, len);
	ppu_tbo_new(ch->fd, &dst, len);
	for (i = 0; i < len; i++)
		src.map[i] = (uint8_t)(i * 3 + seq);
	ppu_pb_init(&b, (uint32_t *)pb->map, 64);
	ppu_pb_copy(&b, src.va, dst.va, len, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    ppu_tpool_va(p, 0), seq, 0);
	ppu_tchan_submit(ch, pb->va, b.len);
	ppu_tchan_wait_sem(ch, ppu_tpool_sem(p, 0), seq, 30.0);
	ck_assert_int_eq(memcmp(src.map, dst.map, len), 0);
}

/*
 * An acquire nobody will release: the channel is stopped after about
 * watchdog_ms, a SEM_WAIT tied to it ends with -EIO, CHAN_STATUS tells why,
 * the doorbell is refused; another file's copies run meanwhile and after;
 * the owner destroys the channel and gets a working one.
 */
START_TEST(a_stuck_acquire_is_stopped_and_reported)
{
	struct ppu_tchan stuck, other, again;
	struct ppu_tbo pb, pb_b, pb_c;
	struct drm_ppu_chan_status st;
	struct ppu_tpool p, pool_b;
	struct ppu_pb b;
	int fb = ppu_client_open();
	double t0, waited;
	int ret, i;

	ppu_tpool_new(ppu_fd, &p, 4);
	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &stuck, 3);
	ppu_pb_init(&b, (uint32_t *)pb.map, 64);
	ppu_pb_sem_acquire(&b, ppu_tpool_va(&p, 0), 1);
	ppu_pb_sem_release(&b, ppu_tpool_va(&p, 1), 1);
	ppu_tchan_submit(&stuck, pb.va, b.len);

	ppu_tpool_new(fb, &pool_b, 1);
	ppu_tbo_new(fb, &pb_b, PPU_TPAGE);
	ppu_tchan_new(fb, &other, 3);

	t0 = ppu_now_s();
	ret = ppu_sem_wait(ppu_fd, p.id, 1, 1, DRM_PPU_SEM_WAIT_GEQ, ppu_deadline_ns(60),
			   DRM_PPU_SEM_WAIT_CHAN, stuck.chid);
	waited = ppu_now_s() - t0;
	ck_assert_int_eq(ret, -EIO);
	printf("watchdog: a stuck acquire stopped after %.2f s (watchdog_ms %u)\n", waited, WD_MS);
	ck_assert(waited >= WD_MS / 1000.0);
	ck_assert(waited < 30.0);

	ck_assert_int_eq(ppu_chan_status(ppu_fd, stuck.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	ck_assert_uint_eq(DRM_PPU_FAULT_INFO_KIND(st.fault_info), DRM_PPU_FAULT_WATCHDOG);
	ck_assert_uint_eq(DRM_PPU_FAULT_INFO_UNIT(st.fault_info), DRM_PPU_FAULT_UNIT_DRIVER);
	ck_assert_uint_eq(st.fault_data, DRM_PPU_CHAN_STATE_ACQ_BLOCKED);
	ck_assert_uint_eq(st.fault_addr, 0);
	ck_assert_int_eq(ppu_doorbell(ppu_fd, stuck.chid, 0), -EIO);
	ck_assert_uint_eq(*ppu_tpool_sem(&p, 1), 0);

	/* the other file is served, now as before */
	for (i = 1; i <= 3; i++)
		copy_ok(&other, &pb_b, &pool_b, 64 << 10, i);
	/* destroyed and made again, the owner's channel works */
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, stuck.chid, 0), 0);
	ppu_tbo_new(ppu_fd, &pb_c, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &again, 3);
	copy_ok(&again, &pb_c, &p, 4096, 7);
	close(fb);
}
END_TEST

/*
 * Not stuck: a channel waiting for the copy engine behind another
 * channel's long copy, the long copy itself (it moves bytes), and an idle
 * channel, all for several watchdog periods.
 */
START_TEST(waiting_behind_a_long_copy_or_idling_is_not_stuck)
{
	enum { LONG = 16 << 20 };
	struct ppu_tchan big, small, idle;
	struct ppu_tbo src, dst, pb, pb2, s2, d2;
	struct drm_ppu_chan_status st;
	struct ppu_tpool p;
	struct ppu_pb b;
	double t0;

	ppu_tpool_new(ppu_fd, &p, 2);
	ppu_tbo_new(ppu_fd, &src, LONG);
	ppu_tbo_new(ppu_fd, &dst, LONG);
	ppu_tbo_new(ppu_fd, &s2, 4096);
	ppu_tbo_new(ppu_fd, &d2, 4096);
	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_tbo_new(ppu_fd, &pb2, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &big, 3);
	ppu_tchan_new(ppu_fd, &small, 3);
	ppu_tchan_new(ppu_fd, &idle, 3);
	memset(src.map, 0x5a, LONG);
	memset(s2.map, 0xa5, 4096);

	ppu_pb_init(&b, (uint32_t *)pb.map, 64);
	ppu_pb_copy(&b, src.va, dst.va, LONG, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    ppu_tpool_va(&p, 0), 1, 0);
	ppu_tchan_submit(&big, pb.va, b.len);
	ppu_pb_init(&b, (uint32_t *)pb2.map, 64);
	ppu_pb_copy(&b, s2.va, d2.va, 4096, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    ppu_tpool_va(&p, 1), 1, 0);
	ppu_tchan_submit(&small, pb2.va, b.len);

	t0 = ppu_now_s();
	ppu_tchan_wait_sem(&big, ppu_tpool_sem(&p, 0), 1, 120.0);
	ppu_tchan_wait_sem(&small, ppu_tpool_sem(&p, 1), 1, 30.0);
	printf("watchdog: an %u MiB copy took %.2f s with watchdog_ms %u\n", LONG >> 20,
	       ppu_now_s() - t0, WD_MS);
	ck_assert_msg(ppu_now_s() - t0 > 3 * WD_MS / 1000.0,
		      "the copy was too short to show anything");
	ck_assert_uint_eq(dst.map[LONG - 1], 0x5a);
	ck_assert_uint_eq(d2.map[4095], 0xa5);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, big.chid, 0, &st), 0);
	ck_assert_uint_eq(st.fault_info, 0);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, small.chid, 0, &st), 0);
	ck_assert_uint_eq(st.fault_info, 0);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, idle.chid, 0, &st), 0);
	ck_assert_uint_eq(st.fault_info, 0);
	ck_assert_uint_ne(st.state, DRM_PPU_CHAN_STATE_FAULTED);
}
END_TEST

static uint64_t copy_resets(void)
{
	static char text[1024];

	ppu_debugfs_read("engine", text, sizeof(text));
	return ppu_debugfs_value(text, "COPY_RESETS");
}

struct destroyer {
	int fd;
	uint32_t chid;
	int ret;
	double took;
};

static void *destroy_thread(void *arg)
{
	struct destroyer *d = arg;
	double t0 = ppu_now_s();

	d->ret = ppu_chan_destroy(d->fd, d->chid, 0);
	d->took = ppu_now_s() - t0;
	return NULL;
}

/*
 * While one file's destroy waits seconds for the PPU to let its channel
 * go, another file's channel ioctls must not wait with it: status,
 * doorbells, creating and destroying channels.  Returns the slowest call.
 */
static double other_file_calls_during(struct destroyer *d, int fb, struct ppu_tchan *other)
{
	struct drm_ppu_chan_status st;
	double worst = 0, t;
	pthread_t th;
	int n = 0;

	ck_assert_int_eq(pthread_create(&th, NULL, destroy_thread, d), 0);
	usleep(200000);
	do {
		struct ppu_tchan tmp;

		t = ppu_now_s();
		ck_assert_int_eq(ppu_chan_status(fb, other->chid, 0, &st), 0);
		ck_assert_int_eq(ppu_doorbell(fb, other->chid, 0), 0);
		ppu_tchan_new(fb, &tmp, 2);
		ck_assert_int_eq(ppu_chan_destroy(fb, tmp.chid, 0), 0);
		t = ppu_now_s() - t;
		if (t > worst)
			worst = t;
		n++;
		usleep(100000);
	} while (d->took == 0 && n < 200);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	return worst;
}

/*
 * A wedged copy engine (debugfs copy_halt: it issues nothing, as if stuck):
 * the channel whose copy holds it is stopped by the watchdog (_i = 0) or
 * destroyed by its owner (_i = 1); either way it cannot leave the PPU
 * until the driver resets the copy engine.  The reset drops only that
 * copy: another file's copy, waiting for the engine all along, then runs
 * byte for byte, and the engine copies again afterwards.
 */
START_TEST(a_wedged_copy_engine_is_reset_and_the_others_go_on)
{
	enum { LONG = 4 << 20, SHORT = 256 << 10 };
	struct ppu_tbo src, dst, pb, pb_b, s2, d2, pb_c;
	struct ppu_tchan big, other, again;
	struct drm_ppu_chan_status st;
	struct ppu_tpool p, pool_b;
	int fb = ppu_client_open();
	uint64_t resets0 = copy_resets();
	struct ppu_pb b;
	double t0;
	int ret;

	ppu_tpool_new(ppu_fd, &p, 2);
	ppu_tbo_new(ppu_fd, &src, LONG);
	ppu_tbo_new(ppu_fd, &dst, LONG);
	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &big, 3);
	memset(src.map, 0x3c, LONG);
	ppu_pb_init(&b, (uint32_t *)pb.map, 64);
	ppu_pb_copy(&b, src.va, dst.va, LONG, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    ppu_tpool_va(&p, 0), 1, 0);
	ppu_tchan_submit(&big, pb.va, b.len);

	ppu_tpool_new(fb, &pool_b, 1);
	ppu_tbo_new(fb, &s2, SHORT);
	ppu_tbo_new(fb, &d2, SHORT);
	ppu_tbo_new(fb, &pb_b, PPU_TPAGE);
	ppu_tchan_new(fb, &other, 3);
	memset(s2.map, 0xc3, SHORT);

	/* the big copy is on the engine: halt it there */
	t0 = ppu_now_s();
	do {
		ck_assert_int_eq(ppu_chan_status(ppu_fd, big.chid, 0, &st), 0);
		ck_assert_msg(ppu_now_s() - t0 < 10, "copy not on the engine: state %u", st.state);
	} while (st.state != DRM_PPU_CHAN_STATE_ENGINE_BUSY);
	ck_assert_int_eq(ppu_debugfs_write("copy_halt", "1"), 0);
	ppu_pb_init(&b, (uint32_t *)pb_b.map, 64);
	ppu_pb_copy(&b, s2.va, d2.va, SHORT, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    ppu_tpool_va(&pool_b, 0), 1, 0);
	ppu_tchan_submit(&other, pb_b.va, b.len);

	t0 = ppu_now_s();
	if (_i == 0) {
		ret = ppu_sem_wait(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_GEQ, ppu_deadline_ns(60),
				   DRM_PPU_SEM_WAIT_CHAN, big.chid);
		ck_assert_int_eq(ret, -EIO);
		ck_assert_int_eq(ppu_chan_status(ppu_fd, big.chid, 0, &st), 0);
		ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);
		ck_assert_uint_eq(DRM_PPU_FAULT_INFO_KIND(st.fault_info), DRM_PPU_FAULT_WATCHDOG);
		ck_assert_uint_eq(st.fault_data, DRM_PPU_CHAN_STATE_ENGINE_BUSY);
		t0 = ppu_now_s();	/* stopped: from here the reset's part */
	} else {
		struct destroyer d = { .fd = ppu_fd, .chid = big.chid };
		double worst = other_file_calls_during(&d, fb, &other);

		ck_assert_int_eq(d.ret, 0);
		printf("watchdog: the destroy took %.2f s, another file's slowest status + doorbell + create + destroy meanwhile %.3f s\n",
		       d.took, worst);
		ck_assert(d.took > 1.0);
		ck_assert_msg(worst < 0.5, "another file waited %.3f s for the destroy", worst);
	}
	/* the other file's copy waited for the engine all along, and runs */
	ppu_tchan_wait_sem(&other, ppu_tpool_sem(&pool_b, 0), 1, 30.0);
	printf("watchdog: %s, the copy engine reset and the next copy done %.2f s later\n",
	       _i ? "destroyed" : "stopped", ppu_now_s() - t0);
	ck_assert_int_eq(memcmp(s2.map, d2.map, SHORT), 0);
	ck_assert_uint_eq(copy_resets(), resets0 + 1);
	ck_assert_uint_eq(*ppu_tpool_sem(&p, 0), 0);
	ck_assert_int_eq(ppu_chan_status(fb, other.chid, 0, &st), 0);
	ck_assert_uint_eq(st.fault_info, 0);
	/* the reset ended the halt: the engine copies again, for both files */
	if (_i == 0)
		ck_assert_int_eq(ppu_chan_destroy(ppu_fd, big.chid, 0), 0);
	copy_ok(&other, &pb_b, &pool_b, 64 << 10, 2);
	ppu_tbo_new(ppu_fd, &pb_c, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &again, 3);
	copy_ok(&again, &pb_c, &p, 4096, 7);
	close(fb);
}
END_TEST

static Suite *watchdog_suite(void)
{
	Suite *s = suite_create("watchdog");
	TCase *tc = tcase_create("watchdog");

	tcase_add_checked_fixture(tc, wd_setup, wd_teardown);
	tcase_add_unchecked_fixture(tc, NULL, ppu_module_params_reset);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, a_stuck_acquire_is_stopped_and_reported);
	tcase_add_test(tc, waiting_behind_a_long_copy_or_idling_is_not_stuck);
	tcase_add_loop_test(tc, a_wedged_copy_engine_is_reset_and_the_others_go_on, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(watchdog_suite());
	int failed;

	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
