/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: the verdict of a boot.  From what the console saw and how
 * QEMU ended: the lines the Makefile and the benchmark scripts read
 * ("ppu-cosim: [n] ok: cmd", "ppu-cosim: PASS; boot ... s, runs ... s,
 * total ... s", the kernel problems and log) and the exit status.
 */
#ifndef COSIM_RESULTS_H
#define COSIM_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

#include "console.h"

struct outcome {
	bool timed_out;
	int timeout_s;
	int qemu_status;	/* waitpid() status */
	bool show_dmesg;	/* print the kernel log even when clean */
	int exit_code;		/* what went wrong before (device process) */
	size_t fetch_failed;	/* --fetch files not brought back */
	bool checks_failed;	/* a device's RTL invariant checkers fired */
};

/*
 * Prints the verdict and one line per run to @out, and the wall time of
 * every run to @err (a table for people; nothing parses it); @now ends the
 * total.  Returns the exit status (EXIT_*).
 */
int results_report(FILE *out, FILE *err, const struct console *c, const struct outcome *v,
		   double now);
/* "ok", "FAILED", "SKIPPED", "UNFINISHED" or "NOT RUN". */
const char *results_run_state(const struct result *r);

#endif /* COSIM_RESULTS_H */
