/* SPDX-License-Identifier: MIT */
/*
 * bench_ioctl: round-trip time of DRM_IOCTL_PPU_GET_PARAM, run inside the
 * co-simulation guest (or on a machine with a PPU).  Plain C, no Check,
 * linked statically for the busybox initramfs.
 *
 *   bench_ioctl [N [N_MMIO]]
 *
 * Times N calls of GET_PARAM(NUM_CHANNELS), a capability the driver cached
 * at probe (no register access), and N_MMIO calls of
 * GET_PARAM(CYCLE_COUNTER), which reads the cycle counter registers live
 * (HI, LO, HI: three MMIO reads, four if the low word wrapped).  Each loop
 * is preceded by a few untimed calls.  Prints the mean per call:
 *
 *   bench: ioctl_get_param_roundtrip <us> us
 *   bench: ioctl_get_param_mmio_roundtrip <us> us
 *
 * Exits 1 (with a message on stderr) if there is no ppu render node or a
 * call fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "drm/ppu_drm.h"
#include "ppu_node.h"

#define DEFAULT_N 200000
#define DEFAULT_N_MMIO 10000
#define WARMUP 16

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_ppu_get_param gp;

	memset(&gp, 0, sizeof(gp));
	gp.param = param;
	if (ioctl(fd, DRM_IOCTL_PPU_GET_PARAM, &gp))
		return -errno;
	*value = gp.value;
	return 0;
}

/* Mean microseconds per call of GET_PARAM(param) over n calls; <0 on error. */
static double time_param(int fd, uint32_t param, long n)
{
	uint64_t v;
	double t0, t1;
	long i;
	int ret;

	for (i = 0; i < WARMUP; i++) {
		ret = get_param(fd, param, &v);
		if (ret) {
			fprintf(stderr, "bench_ioctl: GET_PARAM %u: %s\n", param, strerror(-ret));
			return -1;
		}
	}
	t0 = now_us();
	for (i = 0; i < n; i++) {
		ret = get_param(fd, param, &v);
		if (ret) {
			fprintf(stderr, "bench_ioctl: GET_PARAM %u (call %ld): %s\n", param, i,
				strerror(-ret));
			return -1;
		}
	}
	t1 = now_us();
	return (t1 - t0) / (double)n;
}

static long arg_count(const char *s, const char *what)
{
	char *end;
	long n = strtol(s, &end, 0);

	if (*end || n < 1) {
		fprintf(stderr, "bench_ioctl: %s must be a positive number, not \"%s\"\n", what, s);
		exit(2);
	}
	return n;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_N, n_mmio = DEFAULT_N_MMIO;
	double cached, mmio;
	int fd;

	if (argc > 3) {
		fprintf(stderr, "usage: bench_ioctl [N [N_MMIO]]\n");
		return 2;
	}
	if (argc > 1)
		n = arg_count(argv[1], "N");
	if (argc > 2)
		n_mmio = arg_count(argv[2], "N_MMIO");

	fd = ppu_open_render_node(NULL, 0);
	if (fd < 0) {
		fprintf(stderr, "bench_ioctl: no render node of driver \"ppu\" in /dev/dri "
			"(is ppu.ko loaded and bound to the PPU?)\n");
		return 1;
	}
	cached = time_param(fd, DRM_PPU_PARAM_NUM_CHANNELS, n);
	if (cached < 0)
		return 1;
	mmio = time_param(fd, DRM_PPU_PARAM_CYCLE_COUNTER, n_mmio);
	if (mmio < 0)
		return 1;
	close(fd);

	printf("bench_ioctl: %ld calls of GET_PARAM(NUM_CHANNELS), %ld of "
	       "GET_PARAM(CYCLE_COUNTER)\n", n, n_mmio);
	printf("bench: ioctl_get_param_roundtrip %.2f us\n", cached);
	printf("bench: ioctl_get_param_mmio_roundtrip %.2f us\n", mmio);
	return 0;
}
