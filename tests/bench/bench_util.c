// SPDX-License-Identifier: MIT
/*
 * What every benchmark program shares: the memory model of all figures
 * (local memory 40 cycles latency, system memory 200 cycles, 8 bytes a
 * cycle per direction each) and the `bench: <name> <value> <unit>` lines.
 */
#include <stdio.h>
#include <time.h>

#include "bench.h"

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
