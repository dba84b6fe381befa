// SPDX-License-Identifier: MIT
/*
 * `make demo-rtl`: kernel priorities on the RTL model.  A small kernel is
 * launched while a low-priority kernel fills every compute unit; its
 * latency is compared with the same kernel on an idle PPU under the prior
 * art (every kernel at the lowest device priority, SEEDS A), with device
 * priorities but no preemption, and with preemption.  The figures of
 * docs/benchmarks.md "Compute" come from the same scenario with twice
 * the filling kernel's CTAs (`--fill-ctas-per-cu 16`).
 *
 * --check: also fail (exit 1) unless priorities beat the prior art,
 * preemption beats waiting for free units, and the small kernel behind the
 * filling one with preemption takes at most twice its time alone; `make
 * check` runs it this way.
 * --trace-dir DIR: write the harness's text trace of every scenario there,
 * kernel-priority-<scenario>.trace, for tools/ppu-trace (`make demo-rtl`
 * draws them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kprio.h"

static const char *const trace_names[KPRIO_NSCENARIOS] = {
	[KPRIO_ALONE] = "kernel-priority-alone",
	[KPRIO_PRIOR_ART] = "kernel-priority-prior-art",
	[KPRIO_NO_PREEMPTION] = "kernel-priority-no-preemption",
	[KPRIO_PREEMPTION] = "kernel-priority-preemption",
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct kprio_result r[KPRIO_NSCENARIOS];
	const char *dir = NULL;
	struct ppu_sim_config c;
	struct kprio_opts o;
	double ratio[KPRIO_NSCENARIOS], t0 = now();
	uint64_t cycles = 0;
	uint32_t ncu, nctx;
	unsigned long per_cu = 8;
	int check = 0, bad = 0, i;
	char *end;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check")) {
			check = 1;
		} else if (!strcmp(argv[i], "--trace-dir") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(argv[i], "--fill-ctas-per-cu") && i + 1 < argc) {
			per_cu = strtoul(argv[++i], &end, 0);
			if (*end || per_cu < 2 || per_cu > 64)
				goto usage;
		} else {
			goto usage;
		}
	}

	/* the benchmarks' memory model (docs/benchmarks.md "Conditions") */
	ppu_sim_config_default(&c);
	c.local_mem_bytes = 64u << 20;
	c.sys_mem_bytes = 64u << 20;
	c.local_latency = 40;
	c.sys_latency = 200;
	memset(&o, 0, sizeof(o));
	o.fill_ctas_per_cu = (uint32_t)per_cu;
	o.fill_rounds = 400;
	o.small_rounds = 100;
	o.cfg = &c;

	for (i = 0; i < KPRIO_NSCENARIOS; i++) {
		o.scenario = (enum kprio_scenario)i;
		o.trace_path = rtl_trace_file(dir, trace_names[i]);
		if (kprio_run(&o, &r[i])) {
			printf("  %s: FAILED (fault or timeout)\n", kprio_names[i]);
			return 1;
		}
		cycles += r[i].total;
		bad |= !r[i].data_ok;
	}
	ncu = r[KPRIO_ALONE].num_cu;
	nctx = r[KPRIO_ALONE].cu_contexts;
	printf("PPU kernel-priority demo (US 9575760, SEEDS A) on the RTL model\n");
	printf("%u compute units x %u thread contexts; a CTA of %u threads takes a whole unit\n",
	       ncu, nctx, nctx);
	printf("filling kernel: %u CTAs x %u threads, %u spin rounds, device priority 0\n",
	       o.fill_ctas_per_cu * ncu, nctx, o.fill_rounds);
	printf("small kernel:   %u CTAs x %u threads, %u spin rounds, launched as the filling\n"
	       "                kernel's first wave ends\n", ncu, nctx, o.small_rounds);
	printf("latency: the small kernel's doorbell -> its TASK_COMPLETE, PPU cycles\n\n");

	for (i = 0; i < KPRIO_NSCENARIOS; i++)
		ratio[i] = (double)r[i].latency / (double)r[KPRIO_ALONE].latency;

	printf("  alone:                            %8llu cycles\n",
	       (unsigned long long)r[KPRIO_ALONE].latency);
	printf("  prior art (both at priority 0):   %8llu cycles  ratio %6.2fx\n"
	       "      %u CTAs of the filling kernel got a unit before the small kernel's last\n",
	       (unsigned long long)r[KPRIO_PRIOR_ART].latency, ratio[KPRIO_PRIOR_ART],
	       r[KPRIO_PRIOR_ART].fill_ctas_ahead);
	printf("  priorities (40 over 0), no preemption (TASK_CTRL.NO_PREEMPT):\n"
	       "                                    %8llu cycles  ratio %6.2fx\n"
	       "      waited %llu cycles for running CTAs to exit\n",
	       (unsigned long long)r[KPRIO_NO_PREEMPTION].latency, ratio[KPRIO_NO_PREEMPTION],
	       (unsigned long long)r[KPRIO_NO_PREEMPTION].wait);
	printf("  priorities with preemption:       %8llu cycles  ratio %6.2fx\n"
	       "      %llu CTAs of the filling kernel preempted (save %.0f cycles each), its first\n"
	       "      CTA on a unit %llu cycles after the doorbell\n",
	       (unsigned long long)r[KPRIO_PREEMPTION].latency, ratio[KPRIO_PREEMPTION],
	       (unsigned long long)r[KPRIO_PREEMPTION].preemptions, r[KPRIO_PREEMPTION].save_cycles,
	       (unsigned long long)r[KPRIO_PREEMPTION].wait);
	printf("  every thread's result checked against the host: %s\n", bad ? "WRONG" : "yes");
	printf("  (a real H200 shows 2246x for this situation: it waits for the running wave)\n");
	printf("  simulated %llu cycles in %.1f s\n", (unsigned long long)cycles, now() - t0);

	bad |= !(ratio[KPRIO_PRIOR_ART] > ratio[KPRIO_NO_PREEMPTION]);
	bad |= !(ratio[KPRIO_NO_PREEMPTION] > ratio[KPRIO_PREEMPTION]);
	bad |= ratio[KPRIO_PREEMPTION] > 2.0;
	/* the mechanism, not only the figure: nothing preempted without a
	 * priority to preempt for, or when it is switched off */
	bad |= r[KPRIO_PREEMPTION].preemptions == 0;
	bad |= r[KPRIO_PRIOR_ART].preemptions || r[KPRIO_NO_PREEMPTION].preemptions;

	if (bad)
		printf("\nRESULT: FAIL\n");
	else
		printf("\nRESULT: priorities beat the prior art; preemption within 2x of alone\n");
	return check && bad ? 1 : 0;

usage:
	fprintf(stderr, "usage: %s [--check] [--trace-dir DIR] [--fill-ctas-per-cu N]\n", argv[0]);
	return 2;
}
