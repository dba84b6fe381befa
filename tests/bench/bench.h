/* SPDX-License-Identifier: MIT */
/* Shared by the benchmark files of `make bench` (tests/bench/). */
#ifndef PPU_BENCH_H
#define PPU_BENCH_H

#include "ppu_sim.h"

/* The memory model every figure is measured with. */
struct ppu_sim_config bench_cfg(void);
/* Prints `bench: <name> <value> <unit>`. */
void bench_emit(const char *name, double v, const char *unit);

void bench_compute(void);
void bench_compute_speed(void);
void bench_workq(void);

#endif /* PPU_BENCH_H */
