/* SPDX-License-Identifier: MIT */
/* Shared by the benchmark files of `make bench` (tests/bench/). */
#ifndef PPU_BENCH_H
#define PPU_BENCH_H

#include <stdint.h>

#include "ppu_sim.h"

/* The memory model every figure is measured with. */
struct ppu_sim_config bench_cfg(void);
/* Prints `bench: <name> <value> <unit>`. */
void bench_emit(const char *name, double v, const char *unit);
/*
 * Says on stderr which group of figures comes next and how long the run
 * has taken so far: the groups take minutes on the simulator, and stdout
 * (the bench: lines) is what build/bench.txt keeps.
 */
void bench_measuring(const char *what);

struct rtl_chan;
/* One GPFIFO entry on @ch (no doorbell): a @len-byte copy, no semaphore. */
void bench_push_copy(struct rtl_chan *ch, uint32_t src, uint32_t dst, uint32_t len);
/* One GPFIFO entry on @ch (no doorbell): a NOP method. */
void bench_push_nop(struct rtl_chan *ch);

void bench_compute(void);
void bench_compute_speed(void);
void bench_workq(void);
void bench_sched(void);

#endif /* PPU_BENCH_H */
