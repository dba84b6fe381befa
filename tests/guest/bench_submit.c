/* SPDX-License-Identifier: MIT */
/*
 * bench_submit: doorbell -> completion latency through ppu.ko, run inside
 * the co-simulation guest (or on a machine with a PPU).  Plain C, no Check,
 * linked statically for the busybox initramfs.
 *
 *   bench_submit [N]
 *
 * N times (default 200, after a few untimed rounds): write one GPFIFO entry
 * whose pushbuffer is a semaphore release with timestamp followed by
 * NON_STALL_INTERRUPT, store GP_PUT, read the PPU cycle counter
 * (GET_PARAM), ring the doorbell, and sleep in SEM_WAIT until the release.
 * First with the DOORBELL ioctl, then (when the driver offers it) with a
 * store to the channel's doorbell page.  Prints
 *
 *   bench: guest_submit_to_wait_return <us> us       mean wall time, doorbell
 *                                                    ioctl -> SEM_WAIT return
 *   bench: guest_submit_to_wait_return_min <us> us
 *   bench: guest_doorbell_to_release_cycles <c> cycles  mean of (release
 *          timestamp - cycle counter read just before the doorbell): an
 *          upper bound, it includes the doorbell's own register write
 *   bench: guest_page_submit_to_wait_return <us> us     the same three with
 *   bench: guest_page_submit_to_wait_return_min <us> us the doorbell page
 *   bench: guest_page_doorbell_to_release_cycles <c> cycles
 *   bench: guest_page_vs_ioctl_submit_ratio <r> x    page / ioctl mean time
 *
 * Exits 1 with a message on stderr when something fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_node.h"

#define DEFAULT_N 200
#define WARMUP 4
#define LOG2_ENTRIES 4

static void die(const char *what, int err)
{
	fprintf(stderr, "bench_submit: %s: %s\n", what, strerror(err));
	exit(1);
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? errno : 0;
}

static void call(int fd, unsigned long req, void *arg, const char *what)
{
	int err = xioctl(fd, req, arg);

	if (err)
		die(what, err);
}

/* A one-page system BO, CPU-mapped and bound. */
static void *bo_page(int fd, uint32_t *va)
{
	struct drm_ppu_gem_create c = { .size = 4096 };
	struct drm_ppu_gem_mmap_offset o = { 0 };
	struct drm_ppu_vm_bind b = { 0 };
	void *map;

	call(fd, DRM_IOCTL_PPU_GEM_CREATE, &c, "GEM_CREATE");
	o.handle = c.handle;
	call(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &o, "GEM_MMAP_OFFSET");
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, o.offset);
	if (map == MAP_FAILED)
		die("mmap", errno);
	b.handle = c.handle;
	b.flags = DRM_PPU_VM_BIND_VA_ALLOC;
	b.size = 4096;
	call(fd, DRM_IOCTL_PPU_VM_BIND, &b, "VM_BIND");
	*va = (uint32_t)b.va;
	return map;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int64_t deadline_ns(double s)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + (int64_t)(s * 1e9);
}

struct bench {
	int fd;
	uint32_t chid, pb_va, put;
	uint32_t *ring, *pbm;
	volatile uint32_t *userd, *sem, *doorbell;
	struct drm_ppu_sem_pool_create pc;
	uint32_t value;
};

/* @n timed rounds after WARMUP; @page: ring through the doorbell page. */
static double run(struct bench *bn, long n, int page, const char *prefix)
{
	double sum_us = 0, min_us = 1e30, sum_cyc = 0;
	long i;

	for (i = -WARMUP; i < n; i++) {
		uint32_t value = ++bn->value;
		struct drm_ppu_get_param gp = { .param = DRM_PPU_PARAM_CYCLE_COUNTER };
		struct drm_ppu_doorbell db = { .chid = bn->chid };
		struct drm_ppu_sem_wait w = {
			.pool = bn->pc.pool, .value = value, .cond = DRM_PPU_SEM_WAIT_GEQ,
			.flags = DRM_PPU_SEM_WAIT_CHAN, .chid = bn->chid,
		};
		uint64_t ts;
		struct ppu_pb b;
		double t0, t1;
		int err;

		/* One pushbuffer slot per ring entry: never rewritten while queued. */
		ppu_pb_init(&b, bn->pbm + bn->put * 64, 64);
		ppu_pb_sem(&b, (uint32_t)bn->pc.va, value, ppu_sem_release_op(0, 1, 0));
		ppu_pb_nonstall(&b);
		ppu_gp_entry(bn->ring + 2 * bn->put, bn->pb_va + bn->put * 256, b.len, 0);
		bn->put = (bn->put + 1) % (1u << LOG2_ENTRIES);
		__sync_synchronize();
		bn->userd[DRM_PPU_USERD_GP_PUT / 4] = bn->put;
		__sync_synchronize();

		call(bn->fd, DRM_IOCTL_PPU_GET_PARAM, &gp, "GET_PARAM(CYCLE_COUNTER)");
		w.timeout_ns = deadline_ns(10.0);
		t0 = now_us();
		if (page)
			bn->doorbell[DRM_PPU_DOORBELL_GP_PUT / 4] = bn->put;
		else
			call(bn->fd, DRM_IOCTL_PPU_DOORBELL, &db, "DOORBELL");
		err = xioctl(bn->fd, DRM_IOCTL_PPU_SEM_WAIT, &w);
		t1 = now_us();
		if (err)
			die("SEM_WAIT", err);
		ts = bn->sem[2] | (uint64_t)bn->sem[3] << 32;
		if (i < 0)
			continue;
		sum_us += t1 - t0;
		if (t1 - t0 < min_us)
			min_us = t1 - t0;
		sum_cyc += (double)(ts - gp.value);
	}
	printf("bench: guest_%ssubmit_to_wait_return %.1f us\n", prefix, sum_us / n);
	printf("bench: guest_%ssubmit_to_wait_return_min %.1f us\n", prefix, min_us);
	printf("bench: guest_%sdoorbell_to_release_cycles %.0f cycles\n", prefix, sum_cyc / n);
	return sum_us / n;
}

int main(int argc, char **argv)
{
	struct drm_ppu_chan_create cc = { 0 };
	struct bench bn = { .pc = { .count = 1 } };
	uint32_t ring_va;
	double t_ioctl, t_page;
	long n = DEFAULT_N;
	int fd;

	if (argc > 2 || (argc == 2 && (n = strtol(argv[1], NULL, 0)) < 1)) {
		fprintf(stderr, "usage: bench_submit [N]\n");
		return 2;
	}
	fd = ppu_open_render_node(NULL, 0);
	if (fd < 0) {
		fprintf(stderr, "bench_submit: no render node of driver \"ppu\"\n");
		return 1;
	}
	bn.fd = fd;
	bn.ring = bo_page(fd, &ring_va);
	bn.pbm = bo_page(fd, &bn.pb_va);
	call(fd, DRM_IOCTL_PPU_SEM_POOL_CREATE, &bn.pc, "SEM_POOL_CREATE");
	bn.sem = mmap(NULL, DRM_PPU_SEM_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      bn.pc.mmap_offset);
	if (bn.sem == MAP_FAILED)
		die("mmap pool", errno);
	cc.log2_entries = LOG2_ENTRIES;
	cc.gpfifo_va = ring_va;
	call(fd, DRM_IOCTL_PPU_CHAN_CREATE, &cc, "CHAN_CREATE");
	bn.chid = cc.chid;
	bn.userd = mmap(NULL, DRM_PPU_USERD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			cc.userd_offset);
	if (bn.userd == MAP_FAILED)
		die("mmap USERD", errno);

	printf("bench_submit: %ld submissions of one timestamped release + non-stall interrupt\n", n);
	t_ioctl = run(&bn, n, 0, "");
	if (!cc.doorbell_offset) {
		fprintf(stderr, "bench_submit: the driver offers no doorbell page\n");
		return 1;
	}
	bn.doorbell = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			   cc.doorbell_offset);
	if (bn.doorbell == MAP_FAILED)
		die("mmap doorbell page", errno);
	t_page = run(&bn, n, 1, "page_");
	printf("bench: guest_page_vs_ioctl_submit_ratio %.3f x\n", t_page / t_ioctl);
	close(fd);
	return 0;
}
