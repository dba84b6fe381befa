// SPDX-License-Identifier: MIT
/*
 * What every benchmark program shares: the memory model of all figures
 * (local memory 40 cycles latency, system memory 200 cycles, 8 bytes a
 * cycle per direction each), the `bench: <name> <value> <unit>` lines and
 * the submissions several benchmarks make.
 */
#include <stdio.h>
#include <time.h>

#include "bench.h"
#include "ppu/ppu_encode.h"
#include "rtl_env.h"

struct ppu_sim_config bench_cfg(void)
{
	struct ppu_sim_config c;

	ppu_sim_config_default(&c);
	c.local_mem_bytes = 80u << 20;
	c.sys_mem_bytes = 40u << 20;
	c.local_latency = 40;
	c.sys_latency = 200;
	c.local_bytes_per_cycle = 8;
	c.sys_bytes_per_cycle = 8;
	return c;
}

void bench_emit(const char *name, double v, const char *unit)
{
	printf("bench: %s %.4g %s\n", name, v, unit);
	fflush(stdout);
}

static double bench_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void bench_measuring(const char *what)
{
	static double t0;
	double now = bench_now_s();

	if (!t0)
		t0 = now;
	fprintf(stderr, "measuring: %s ... (%.0f s into the run)\n", what, now - t0);
	fflush(stderr);
}

void bench_push_copy(struct rtl_chan *ch, uint32_t src, uint32_t dst, uint32_t len)
{
	uint32_t buf[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 32);
	ppu_pb_copy(&pb, src, dst, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_push_entry(ch, rtl_chan_pb_put(ch, pb.dw, pb.len), pb.len);
}

void bench_push_nop(struct rtl_chan *ch)
{
	uint32_t buf[8];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 8);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_NOP, 0));
	rtl_chan_push_entry(ch, rtl_chan_pb_put(ch, pb.dw, pb.len), pb.len);
}
