/* SPDX-License-Identifier: MIT */
/*
 * Semaphore pools and waits of ppu.ko (DRM_IOCTL_PPU_SEM_POOL_CREATE,
 * SEM_POOL_DESTROY, SEM_WAIT), run inside the co-simulation guest: pools
 * are zeroed, bound and CPU-mapped; a wait returns when a channel's release
 * (followed by a non-stall interrupt) reaches the value, times out with
 * -ETIME, and fails with -EIO when the channel it is tied to faults, before
 * or during the wait; dead channels refuse doorbells; fences in syncobjs
 * (DRM_IOCTL_PPU_SEM_FENCE) signal the same way, with -EIO for a faulting
 * channel; every bad input is rejected.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_claims.h"
#include "ppu_guest_work.h"

#define WAIT_S 10.0

_Static_assert(sizeof(struct drm_ppu_sem_pool_create) == 32, "pool_create size");
_Static_assert(offsetof(struct drm_ppu_sem_pool_create, va) == 8, "va offset");
_Static_assert(offsetof(struct drm_ppu_sem_pool_create, pool) == 24, "pool offset");
_Static_assert(sizeof(struct drm_ppu_sem_pool_destroy) == 8, "pool_destroy size");
_Static_assert(sizeof(struct drm_ppu_sem_wait) == 32, "sem_wait size");
_Static_assert(offsetof(struct drm_ppu_sem_wait, timeout_ns) == 16, "timeout offset");
_Static_assert(DRM_IOCTL_PPU_SEM_POOL_CREATE ==
	       _IOWR('d', 0x49, struct drm_ppu_sem_pool_create), "ioctl number");
_Static_assert(DRM_IOCTL_PPU_SEM_POOL_DESTROY ==
	       _IOW('d', 0x4a, struct drm_ppu_sem_pool_destroy), "ioctl number");
_Static_assert(DRM_IOCTL_PPU_SEM_WAIT == _IOW('d', 0x4b, struct drm_ppu_sem_wait),
	       "ioctl number");
_Static_assert(sizeof(struct drm_ppu_sem_fence) == 32, "sem_fence size");
_Static_assert(DRM_IOCTL_PPU_SEM_FENCE == _IOW('d', 0x4c, struct drm_ppu_sem_fence),
	       "ioctl number");

static int pool_create_raw(int fd, struct drm_ppu_sem_pool_create *c)
{
	return ppu_ioctl(fd, DRM_IOCTL_PPU_SEM_POOL_CREATE, c);
}

START_TEST(sem_pool_is_zeroed_mapped_and_bound)
{
	struct ppu_tpool a, b;
	uint32_t i;

	ppu_tpool_new(ppu_fd, &a, 3);
	ppu_tpool_new(ppu_fd, &b, 1000);
	ck_assert_uint_ne(a.id, b.id);
	/* Separate GPU ranges. */
	ck_assert(a.va + 3 * DRM_PPU_SEM_BYTES <= b.va ||
		  b.va + 1000 * DRM_PPU_SEM_BYTES <= a.va);
	for (i = 0; i < 1000 * DRM_PPU_SEM_BYTES / 4; i++)
		ck_assert_uint_eq(b.map[i], 0);
	for (i = 0; i < 3 * DRM_PPU_SEM_BYTES / 4; i++)
		ck_assert_uint_eq(a.map[i], 0);
	/* The CPU may write values; a wait sees them at once. */
	*ppu_tpool_sem(&b, 999) = 7;
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, b.id, 999, 7, DRM_PPU_SEM_WAIT_EQ, 0, 0, 0), 0);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, b.id, 999, 6, DRM_PPU_SEM_WAIT_GEQ, 0, 0, 0), 0);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, b.id, 999, 8, DRM_PPU_SEM_WAIT_GEQ, 0, 0, 0),
			 -ETIME);
	ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, a.id, 0), 0);
	ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, a.id, 0), -ENOENT);
	/* The CPU mapping outlives the pool. */
	ck_assert_uint_eq(*ppu_tpool_sem(&b, 999), 7);
	ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, b.id, 0), 0);
	ck_assert_uint_eq(*ppu_tpool_sem(&b, 999), 7);
}
END_TEST

START_TEST(sem_pool_create_rejects_bad_input)
{
	struct drm_ppu_sem_pool_create c;
	struct ppu_tpool p;

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(pool_create_raw(ppu_fd, &c), -EINVAL);		/* count 0 */
	c.count = DRM_PPU_SEM_POOL_MAX_COUNT + 1;
	ck_assert_int_eq(pool_create_raw(ppu_fd, &c), -EINVAL);
	c.count = 0xffffffffu;
	ck_assert_int_eq(pool_create_raw(ppu_fd, &c), -EINVAL);
	memset(&c, 0, sizeof(c));
	c.count = 1;
	c.flags = 1;
	ck_assert_int_eq(pool_create_raw(ppu_fd, &c), -EINVAL);
	c.flags = 0;
	c.pad = 1;
	ck_assert_int_eq(pool_create_raw(ppu_fd, &c), -EINVAL);
	c.pad = 0;
	c.va = DRM_PPU_VA_START;
	ck_assert_int_eq(pool_create_raw(ppu_fd, &c), -EINVAL);
	c.va = 0;
	c.pool = 5;
	ck_assert_int_eq(pool_create_raw(ppu_fd, &c), -EINVAL);
	/* The largest pool works. */
	memset(&c, 0, sizeof(c));
	c.count = DRM_PPU_SEM_POOL_MAX_COUNT;
	ck_assert_int_eq(pool_create_raw(ppu_fd, &c), 0);
	ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, c.pool, 0), 0);

	ppu_tpool_new(ppu_fd, &p, 1);
	ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, p.id, 1), -EINVAL);
	ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, 0, 0), -ENOENT);
	ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, 0xffffffffu, 0), -ENOENT);
}
END_TEST

START_TEST(sem_wait_rejects_bad_input)
{
	struct ppu_tchan ch;
	struct ppu_tpool p;
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_CHANNELS);

	ppu_tpool_new(ppu_fd, &p, 4);
	ppu_tchan_new(ppu_fd, &ch, 2);
	/* Good calls that are already satisfied. */
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 3, 0, DRM_PPU_SEM_WAIT_EQ, 0, 0, 0), 0);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 0, DRM_PPU_SEM_WAIT_GEQ, 0,
				       DRM_PPU_SEM_WAIT_CHAN, ch.chid), 0);

	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 4, 0, DRM_PPU_SEM_WAIT_EQ, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0xffffffffu, 0, 0, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 0, 2, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 0, 0xffffffffu, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 0, 0, 0, 2, 0), -EINVAL);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 0, 0, 0, 0x80000000u, 0), -EINVAL);
	/* A channel id needs the CHAN flag. */
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 0, 0, 0, 0, ch.chid ? ch.chid : 1),
			 -EINVAL);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id + 100, 0, 0, 0, 0, 0, 0), -ENOENT);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, 0, 0, 0, 0, 0, 0, 0), -ENOENT);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 0, 0, 0, DRM_PPU_SEM_WAIT_CHAN, n),
			 -ENOENT);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 0, 0, 0, DRM_PPU_SEM_WAIT_CHAN,
				       0xffffffffu), -ENOENT);
	/* The driver's own channel (the highest id) is nobody's. */
	if (ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS) < n)
		ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 0, 0, 0,
					       DRM_PPU_SEM_WAIT_CHAN, n - 1), -ENOENT);
}
END_TEST

START_TEST(sem_wait_times_out_with_etime)
{
	struct ppu_tpool p;
	double t0, dt;

	ppu_tpool_new(ppu_fd, &p, 1);
	/* A deadline in the past checks once. */
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_GEQ,
				       ppu_deadline_ns(-1.0), 0, 0), -ETIME);
	t0 = ppu_now_s();
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_EQ,
				       ppu_deadline_ns(0.3), 0, 0), -ETIME);
	dt = ppu_now_s() - t0;
	ck_assert_msg(dt >= 0.29 && dt < 5.0, "waited %.3f s for a 0.3 s deadline", dt);
}
END_TEST

/* Pushbuffer: acquire(acq_va == acq_value) unless acq_va is 0, release, non-stall. */
static uint32_t pb_release(struct ppu_tbo *pb, uint32_t dw_off, uint32_t acq_va,
			   uint32_t acq_value, uint32_t rel_va, uint32_t value, int nonstall)
{
	struct ppu_pb b;

	ppu_pb_init(&b, (uint32_t *)pb->map + dw_off, (uint32_t)(pb->size / 4) - dw_off);
	if (acq_va)
		ppu_pb_sem_acquire(&b, acq_va, acq_value);
	ppu_pb_sem_release(&b, rel_va, value);
	if (nonstall)
		ppu_pb_nonstall(&b);
	ck_assert(!b.overflow);
	return b.len;
}

struct cpu_release {
	volatile uint32_t *sem;
	uint32_t value;
	unsigned int delay_us;
};

static void *cpu_release_thread(void *arg)
{
	struct cpu_release *r = arg;

	usleep(r->delay_us);
	__sync_synchronize();
	*r->sem = r->value;
	__sync_synchronize();
	return NULL;
}

START_TEST(sem_wait_wakes_on_a_channel_release)
{
	struct cpu_release rel;
	struct ppu_tchan ch;
	struct ppu_tbo pb;
	struct ppu_tpool p;
	pthread_t th;
	uint32_t n;
	int ret;

	ppu_tpool_new(ppu_fd, &p, 4);
	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &ch, 3);

	/* Already released by the time we wait, or not: both return 0. */
	n = pb_release(&pb, 0, 0, 0, ppu_tpool_va(&p, 1), 0x11, 1);
	ppu_tchan_submit(&ch, pb.va, n);
	ret = ppu_sem_wait(ppu_fd, p.id, 1, 0x11, DRM_PPU_SEM_WAIT_EQ, ppu_deadline_ns(WAIT_S),
			    DRM_PPU_SEM_WAIT_CHAN, ch.chid);
	ck_assert_msg(ret == 0, "SEM_WAIT %s, value %#x", strerror(-ret), *ppu_tpool_sem(&p, 1));

	/*
	 * Release held back by an acquire of a semaphore the CPU writes later
	 * from another thread: the wait must sleep and be woken by the
	 * release's non-stall interrupt.
	 */
	n = pb_release(&pb, 64, ppu_tpool_va(&p, 0), 1, ppu_tpool_va(&p, 2), 0x22, 1);
	ppu_tchan_submit(&ch, pb.va + 256, n);
	rel.sem = ppu_tpool_sem(&p, 0);
	rel.value = 1;
	rel.delay_us = 200000;
	ck_assert_int_eq(pthread_create(&th, NULL, cpu_release_thread, &rel), 0);
	ret = ppu_sem_wait(ppu_fd, p.id, 2, 0x20, DRM_PPU_SEM_WAIT_GEQ, ppu_deadline_ns(WAIT_S),
			    DRM_PPU_SEM_WAIT_CHAN, ch.chid);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_msg(ret == 0, "SEM_WAIT %s, value %#x", strerror(-ret), *ppu_tpool_sem(&p, 2));
	ck_assert_uint_eq(*ppu_tpool_sem(&p, 2), 0x22);

	/* GEQ compares as wrapping counters: 0x00000002 is after 0xfffffff0. */
	*ppu_tpool_sem(&p, 3) = 0xfffffff0u;
	n = pb_release(&pb, 128, 0, 0, ppu_tpool_va(&p, 3), 2, 1);
	ppu_tchan_submit(&ch, pb.va + 512, n);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 3, 0xfffffff8u, DRM_PPU_SEM_WAIT_GEQ,
				       ppu_deadline_ns(WAIT_S), 0, 0), 0);
	ck_assert_uint_eq(*ppu_tpool_sem(&p, 3), 2);
}
END_TEST

START_TEST(sem_wait_on_a_channel_that_faults_fails_with_eio)
{
	struct cpu_release rel;
	struct drm_ppu_chan_status st;
	struct ppu_tchan bad, good;
	struct ppu_tbo pb;
	struct ppu_pb b;
	struct ppu_tpool p;
	static char text[8192];
	char needle[64];
	pthread_t th;
	double t0;
	uint32_t n;
	int ret;

	ppu_tpool_new(ppu_fd, &p, 4);
	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &bad, 2);
	ppu_tchan_new(ppu_fd, &good, 2);

	/* bad: wait for semaphore 0, then an illegal method; never releases 1. */
	ppu_pb_init(&b, (uint32_t *)pb.map, 64);
	ppu_pb_sem_acquire(&b, ppu_tpool_va(&p, 0), 1);
	ppu_pb_method(&b, 0x0fc, 0xbad);
	ppu_pb_sem_release(&b, ppu_tpool_va(&p, 1), 1);
	ck_assert(!b.overflow);
	ppu_tchan_submit(&bad, pb.va, b.len);

	rel.sem = ppu_tpool_sem(&p, 0);
	rel.value = 1;
	rel.delay_us = 200000;
	ck_assert_int_eq(pthread_create(&th, NULL, cpu_release_thread, &rel), 0);
	t0 = ppu_now_s();
	ret = ppu_sem_wait(ppu_fd, p.id, 1, 1, DRM_PPU_SEM_WAIT_EQ, ppu_deadline_ns(WAIT_S),
			    DRM_PPU_SEM_WAIT_CHAN, bad.chid);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_msg(ret == -EIO, "SEM_WAIT returned %s after %.2f s", strerror(-ret),
		      ppu_now_s() - t0);
	ck_assert_msg(ppu_now_s() - t0 < WAIT_S / 2, "the fault did not end the wait early");

	/* Dead: later waits fail at once, doorbells too; the status says why. */
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 1, 1, DRM_PPU_SEM_WAIT_EQ,
				       ppu_deadline_ns(WAIT_S), DRM_PPU_SEM_WAIT_CHAN, bad.chid), -EIO);
	ck_assert_int_eq(ppu_doorbell(ppu_fd, bad.chid, 0), -EIO);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, bad.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	ck_assert_uint_eq(DRM_PPU_FAULT_INFO_KIND(st.fault_info), DRM_PPU_FAULT_ILLEGAL_METHOD);
	ck_assert_uint_eq(st.fault_data, 0xbad);
	/* A wait not tied to the channel just times out. */
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 1, 1, DRM_PPU_SEM_WAIT_EQ,
				       ppu_deadline_ns(0.05), 0, 0), -ETIME);

	/* The fault log names the channel; debugfs lists it dead. */
	ppu_debugfs_read("faults", text, sizeof(text));
	ck_assert_uint_ge(ppu_debugfs_value(text, "FAULTS"), 1);
	snprintf(needle, sizeof(needle), " 0x%08x\n", 0xbad);
	ck_assert_msg(strstr(text, needle), "no fault with data 0xbad in:\n%s", text);
	ppu_debugfs_read("channels", text, sizeof(text));
	ck_assert_msg(strstr(text, "faulted") && strstr(text, "yes"), "channels:\n%s", text);

	/* The other channel of the same file goes on. */
	n = pb_release(&pb, 128, 0, 0, ppu_tpool_va(&p, 2), 0x33, 1);
	ppu_tchan_submit(&good, pb.va + 512, n);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 2, 0x33, DRM_PPU_SEM_WAIT_EQ,
				       ppu_deadline_ns(WAIT_S), DRM_PPU_SEM_WAIT_CHAN, good.chid), 0);

	/* Destroying the dead channel frees its id for reuse. */
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, bad.chid, 0), 0);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 1, 1, DRM_PPU_SEM_WAIT_EQ, 0,
				       DRM_PPU_SEM_WAIT_CHAN, bad.chid), -ENOENT);
}
END_TEST

struct waiter {
	int fd;
	uint32_t pool, chid;
	int ret;
};

static void *waiter_thread(void *arg)
{
	struct waiter *w = arg;

	w->ret = ppu_sem_wait(w->fd, w->pool, 0, 1, DRM_PPU_SEM_WAIT_EQ, ppu_deadline_ns(WAIT_S),
			       DRM_PPU_SEM_WAIT_CHAN, w->chid);
	return NULL;
}

START_TEST(sem_wait_ends_with_eio_when_its_channel_is_destroyed)
{
	struct ppu_tchan ch;
	struct waiter w;
	struct ppu_tpool p;
	pthread_t th;
	double t0;

	ppu_tpool_new(ppu_fd, &p, 1);
	ppu_tchan_new(ppu_fd, &ch, 2);
	w.fd = ppu_fd;
	w.pool = p.id;
	w.chid = ch.chid;
	w.ret = 1;
	t0 = ppu_now_s();
	ck_assert_int_eq(pthread_create(&th, NULL, waiter_thread, &w), 0);
	usleep(200000);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_eq(w.ret, -EIO);
	ck_assert_msg(ppu_now_s() - t0 < WAIT_S / 2, "destroy did not end the wait");
}
END_TEST

START_TEST(sem_pools_go_with_the_file)
{
	static char before[4096], after[4096];
	int i, j;

	/* Many pools in files that are closed: nothing accumulates. */
	ppu_debugfs_read("regs", before, sizeof(before));
	for (i = 0; i < 50; i++) {
		int fd = open(ppu_node, O_RDWR | O_CLOEXEC);
		struct ppu_tpool p;

		ck_assert_int_ge(fd, 0);
		for (j = 0; j < 4; j++)
			ppu_tpool_new(fd, &p, 256);
		/* Keep the last mapping across the close: it stays valid. */
		ck_assert_int_eq(close(fd), 0);
		*ppu_tpool_sem(&p, 255) = 5;
		ck_assert_uint_eq(*ppu_tpool_sem(&p, 255), 5);
		ck_assert_int_eq(munmap((void *)p.map, 256 * DRM_PPU_SEM_BYTES), 0);
	}
	ppu_debugfs_read("regs", after, sizeof(after));
	ck_assert_uint_eq(ppu_debugfs_value(after, "INTR_ENABLE"),
			  ppu_debugfs_value(before, "INTR_ENABLE"));
}
END_TEST

/* ---- fences in syncobjs ---- */

/* The fence of a syncobj as a sync_file: its status (1 ok, <0 error). */
static int syncobj_status(int fd, uint32_t handle)
{
	struct drm_syncobj_handle h = {
		.handle = handle, .flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
	};
	struct sync_file_info info;
	struct pollfd pfd;

	ck_assert_int_eq(ppu_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h), 0);
	pfd.fd = h.fd;
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 0), 1);
	memset(&info, 0, sizeof(info));
	ck_assert_int_eq(ioctl(h.fd, SYNC_IOC_FILE_INFO, &info), 0);
	close(h.fd);
	return info.status;
}

START_TEST(sem_fence_signals_through_a_syncobj)
{
	struct ppu_tchan ch;
	struct ppu_tbo pb;
	struct ppu_tpool p;
	uint32_t so, n;

	ppu_tpool_new(ppu_fd, &p, 2);
	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &ch, 3);
	so = ppu_syncobj_new(ppu_fd);

	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 1, 5, DRM_PPU_SEM_WAIT_CHAN, ch.chid, so), 0);
	ck_assert_int_eq(ppu_syncobj_wait(ppu_fd, so, 0.1), -ETIME);
	n = pb_release(&pb, 0, 0, 0, ppu_tpool_va(&p, 1), 5, 1);
	ppu_tchan_submit(&ch, pb.va, n);
	ck_assert_int_eq(ppu_syncobj_wait(ppu_fd, so, WAIT_S), 0);
	ck_assert_int_eq(syncobj_status(ppu_fd, so), 1);

	/* Already satisfied: signals at once.  A CPU write is seen too. */
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 1, 4, 0, 0, so), 0);
	ck_assert_int_eq(ppu_syncobj_wait(ppu_fd, so, WAIT_S), 0);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 0, 9, 0, 0, so), 0);
	*ppu_tpool_sem(&p, 0) = 9;
	ck_assert_int_eq(ppu_syncobj_wait(ppu_fd, so, WAIT_S), 0);
	ck_assert_int_eq(syncobj_status(ppu_fd, so), 1);
}
END_TEST

/* The syncobj's fence as a sync_file fd. */
static int syncobj_sync_file(int fd, uint32_t handle)
{
	struct drm_syncobj_handle h = {
		.handle = handle, .flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
	};

	ck_assert_int_eq(ppu_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h), 0);
	return h.fd;
}

/*
 * Semaphores reach their values in any order, so the fences are not of
 * one ordered timeline: a sync_file merged from two keeps both and signals
 * only when both have (with one shared context the merge kept only the
 * later seqno and signalled with it alone).
 */
START_TEST(sem_fences_merged_wait_for_each_other)
{
	struct sync_merge_data m = { .name = "both" };
	struct sync_file_info info;
	struct pollfd pfd;
	struct ppu_tpool p;
	uint32_t a, b;
	int fa, fb;

	ppu_tpool_new(ppu_fd, &p, 2);
	a = ppu_syncobj_new(ppu_fd);
	b = ppu_syncobj_new(ppu_fd);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 0, 1, 0, 0, a), 0);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 1, 1, 0, 0, b), 0);
	fa = syncobj_sync_file(ppu_fd, a);
	fb = syncobj_sync_file(ppu_fd, b);
	m.fd2 = fb;
	ck_assert_int_eq(ioctl(fa, SYNC_IOC_MERGE, &m), 0);
	memset(&info, 0, sizeof(info));
	ck_assert_int_eq(ioctl(m.fence, SYNC_IOC_FILE_INFO, &info), 0);
	ck_assert_uint_eq(info.num_fences, 2);
	/* the second semaphore first: the merged file is not ready */
	*ppu_tpool_sem(&p, 1) = 1;
	ck_assert_int_eq(ppu_syncobj_wait(ppu_fd, b, WAIT_S), 0);
	pfd.fd = m.fence;
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 100), 0);
	*ppu_tpool_sem(&p, 0) = 1;
	ck_assert_int_eq(poll(&pfd, 1, (int)(WAIT_S * 1000)), 1);
	close(m.fence);
	close(fa);
	close(fb);
}
END_TEST

/* Pending fences per file are bounded (max_fences_per_file, -EDQUOT). */
START_TEST(sem_fences_pending_per_file_are_bounded)
{
	ppu_module_param_set("max_fences_per_file", PPU_CLAIM_MAX_FENCES);
	ppu_claim_fences_per_file_bounded(ppu_fd);
	ppu_module_param_set("max_fences_per_file", 1024);
}
END_TEST

/*
 * Found by the fuzzer: a deadline far in the past returns -ETIME at once
 * (the remaining time overflowed and the wait slept for ever); pool id 0
 * names no pool (destroying it freed the id, and the next pool got 0);
 * destroying a pool whose mapping its owner unbound leaves what the owner
 * bound there since alone.
 */
START_TEST(sem_fuzzer_findings_stay_fixed)
{
	struct drm_ppu_sem_pool_create c = { .count = 1 };
	struct ppu_tpool p;
	struct ppu_tbo bo;
	uint32_t ids[3], i;
	double t0;

	ppu_tpool_new(ppu_fd, &p, 1);
	t0 = ppu_now_s();
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_GEQ, INT64_MIN, 0, 0),
			 -ETIME);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_GEQ, INT64_MIN + 1, 0, 0),
			 -ETIME);
	ck_assert(ppu_now_s() - t0 < 5.0);

	ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, 0, 0), -ENOENT);
	for (i = 0; i < 3; i++) {
		memset(&c, 0, sizeof(c));
		c.count = 1;
		ck_assert_int_eq(ppu_ioctl(ppu_fd, DRM_IOCTL_PPU_SEM_POOL_CREATE, &c), 0);
		ck_assert_uint_ne(c.pool, 0);
		ids[i] = c.pool;
	}
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, ids[i], 0), 0);

	/* the owner unbinds pool p and binds a BO of its own at the address */
	ck_assert_int_eq(ppu_vm_unbind(ppu_fd, p.va, 4096), 0);
	ppu_tbo_new_at(ppu_fd, &bo, 4096, 0, p.va);
	ck_assert_int_eq(ppu_sem_pool_destroy(ppu_fd, p.id, 0), 0);
	/* the BO's mapping is still there: only its own unbind removes it */
	ck_assert_int_eq(ppu_vm_unbind(ppu_fd, p.va, 4096), 0);
}
END_TEST

START_TEST(sem_fence_of_a_faulting_channel_signals_an_error)
{
	struct ppu_tchan ch;
	struct ppu_tbo pb;
	struct ppu_pb b;
	struct ppu_tpool p;
	uint32_t so;

	ppu_tpool_new(ppu_fd, &p, 1);
	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_tchan_new(ppu_fd, &ch, 2);
	so = ppu_syncobj_new(ppu_fd);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_CHAN, ch.chid, so), 0);
	ppu_pb_init(&b, (uint32_t *)pb.map, 16);
	ppu_pb_method(&b, 0x0fc, 0xfe);
	ppu_tchan_submit(&ch, pb.va, b.len);
	/* Signalled (with an error), not left hanging. */
	ck_assert_int_eq(ppu_syncobj_wait(ppu_fd, so, WAIT_S), 0);
	ck_assert_int_eq(syncobj_status(ppu_fd, so), -EIO);
	/* A fence tied to a dead channel fails at once. */
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_CHAN, ch.chid, so), 0);
	ck_assert_int_eq(ppu_syncobj_wait(ppu_fd, so, WAIT_S), 0);
	ck_assert_int_eq(syncobj_status(ppu_fd, so), -EIO);
}
END_TEST

START_TEST(sem_fence_rejects_bad_input)
{
	struct drm_ppu_sem_fence f;
	struct ppu_tchan ch;
	struct ppu_tpool p;
	uint32_t so;

	ppu_tpool_new(ppu_fd, &p, 1);
	ppu_tchan_new(ppu_fd, &ch, 2);
	so = ppu_syncobj_new(ppu_fd);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 1, 0, 0, 0, so), -EINVAL);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 0, 0, 2, 0, so), -EINVAL);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 0, 0, 0, ch.chid ? ch.chid : 1, so), -EINVAL);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id + 50, 0, 0, 0, 0, so), -ENOENT);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 0, 0, 0, 0, so + 50), -ENOENT);
	ck_assert_int_eq(ppu_sem_fence(ppu_fd, p.id, 0, 0, DRM_PPU_SEM_WAIT_CHAN, 31, so), -ENOENT);
	memset(&f, 0, sizeof(f));
	f.pool = p.id;
	f.syncobj = so;
	f.pad = 1;
	ck_assert_int_eq(ppu_ioctl(ppu_fd, DRM_IOCTL_PPU_SEM_FENCE, &f), -EINVAL);
	f.pad = 0;
	f.cond = 7;
	ck_assert_int_eq(ppu_ioctl(ppu_fd, DRM_IOCTL_PPU_SEM_FENCE, &f), -EINVAL);
	f.cond = DRM_PPU_SEM_WAIT_EQ;
	ck_assert_int_eq(ppu_ioctl(ppu_fd, DRM_IOCTL_PPU_SEM_FENCE, &f), 0);
	ck_assert_int_eq(ppu_syncobj_wait(ppu_fd, so, WAIT_S), 0);
}
END_TEST

static Suite *sem_suite(void)
{
	Suite *s = suite_create("sem");
	TCase *tc = tcase_create("sem");

	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	/* (a test that failed half-way leaves its parameters to the others) */
	tcase_add_unchecked_fixture(tc, ppu_module_params_reset, ppu_module_params_reset);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, sem_pool_is_zeroed_mapped_and_bound);
	tcase_add_test(tc, sem_pool_create_rejects_bad_input);
	tcase_add_test(tc, sem_wait_rejects_bad_input);
	tcase_add_test(tc, sem_wait_times_out_with_etime);
	tcase_add_test(tc, sem_wait_wakes_on_a_channel_release);
	tcase_add_test(tc, sem_wait_on_a_channel_that_faults_fails_with_eio);
	tcase_add_test(tc, sem_wait_ends_with_eio_when_its_channel_is_destroyed);
	tcase_add_test(tc, sem_pools_go_with_the_file);
	tcase_add_test(tc, sem_fence_signals_through_a_syncobj);
	tcase_add_test(tc, sem_fence_of_a_faulting_channel_signals_an_error);
	tcase_add_test(tc, sem_fence_rejects_bad_input);
	tcase_add_test(tc, sem_fences_merged_wait_for_each_other);
	tcase_add_test(tc, sem_fences_pending_per_file_are_bounded);
	tcase_add_test(tc, sem_fuzzer_findings_stay_fixed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sem_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
