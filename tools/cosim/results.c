// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: the verdict (see results.h).
 */
#include <string.h>
#include <sys/wait.h>

#include "results.h"

const char *results_run_state(const struct result *r)
{
	if (r->done && !r->skipped && r->status == 0)
		return "ok";
	if (r->done && r->skipped)
		return "SKIPPED";
	if (r->done)
		return "FAILED";
	return r->begun ? "UNFINISHED" : "NOT RUN";
}

static void run_times(FILE *err, const struct console *c, double now)
{
	const struct strv *runs = c->runs;

	fprintf(err, PROG ": wall time per run:\n");
	for (size_t i = 0; i < runs->n; i++) {
		const struct result *r = &c->res[i];

		char cyc[32] = "-";

		if (r->has_cycles && r->done)
			console_fmt_cycles(cyc, sizeof(cyc), r->cyc_end - r->cyc_begin);
		if (r->begun)
			fprintf(err, PROG ": %4zu/%zu %8.2f s %9s  %-10s %s\n", i + 1, runs->n,
				(r->done ? r->t_end : now) - r->t_begin, cyc,
				results_run_state(r), runs->v[i]);
		else
			fprintf(err, PROG ": %4zu/%zu %8s   %9s  %-10s %s\n", i + 1, runs->n, "-",
				"-", results_run_state(r), runs->v[i]);
	}
	fflush(err);
}

int results_report(FILE *out, FILE *err, const struct console *c, const struct outcome *v,
		   double now)
{
	const struct strv *runs = c->runs;
	int exit_code = v->exit_code;

	if (v->timed_out) {
		fprintf(out, PROG ": TIMEOUT after %d s", v->timeout_s);
		if (c->running)
			fprintf(out, " in run [%d] %s", c->running,
				runs->v[c->running - 1]);
		else if (!c->booted)
			fprintf(out, " before /init started");
		fprintf(out, "\n");
		exit_code = EXIT_TIMEOUT > exit_code ? EXIT_TIMEOUT : exit_code;
	} else if (!c->done) {
		fprintf(out, PROG ": the guest stopped before finishing "
			"(QEMU status 0x%x)%s\n", v->qemu_status,
			c->problems.n ? ": kernel problem" : "");
		if (!c->problems.n)
			exit_code = EXIT_INFRA;
	} else if (!WIFEXITED(v->qemu_status) || WEXITSTATUS(v->qemu_status)) {
		fprintf(out, PROG ": QEMU exited with status 0x%x\n",
			v->qemu_status);
		exit_code = EXIT_INFRA;
	}
	if (c->problems.n) {
		fprintf(out, PROG ": KERNEL PROBLEM (%zu line%s):\n",
			c->problems.n, c->problems.n > 1 ? "s" : "");
		for (size_t i = 0; i < c->problems.n && i < 20; i++)
			fprintf(out, "    %s\n", c->problems.v[i]);
		if (exit_code < EXIT_KERNEL)
			exit_code = EXIT_KERNEL;
	}
	if ((c->problems.n || v->show_dmesg) && c->dmesg.n) {
		fprintf(out, PROG ": guest kernel log:\n");
		for (size_t i = 0; i < c->dmesg.n; i++)
			fprintf(out, "%s\n", c->dmesg.v[i]);
	}
	fflush(out);
	run_times(err, c, now);
	for (size_t i = 0; i < runs->n; i++) {
		const struct result *r = &c->res[i];
		const char *what = results_run_state(r);

		if (strcmp(what, "ok") && exit_code < EXIT_RUN_FAILED)
			exit_code = EXIT_RUN_FAILED;
		if (r->done && !r->skipped && r->status)
			fprintf(out, PROG ": [%zu] %s (status %d): %s\n",
				i + 1, what, r->status, runs->v[i]);
		else
			fprintf(out, PROG ": [%zu] %s: %s\n", i + 1, what,
				runs->v[i]);
	}
	if (v->checks_failed)
		fprintf(out, PROG ": RTL invariant checks failed (the device "
			"log above says which)\n");
	if ((c->module_fail || v->fetch_failed || v->checks_failed) &&
	    exit_code < EXIT_RUN_FAILED)
		exit_code = EXIT_RUN_FAILED;
	fprintf(out, PROG ": %s; boot %.1f s, runs %.1f s, total %.1f s\n",
		exit_code == EXIT_PASS ? "PASS" : "FAIL",
		c->booted ? c->t_boot - c->t_start : 0.0,
		c->done && c->booted ? c->t_done - c->t_boot : 0.0,
		now - c->t_start);
	fflush(out);
	return exit_code;
}
