// SPDX-License-Identifier: MIT
/*
 * The result side of ppu-cosim (tools/cosim/console.c, results.c) on
 * canned console output: markers are found wherever the chunks split
 * them, terminal escapes are dropped, program output is relayed without
 * the markers' blank lines, kernel problems are caught on the console and
 * in the final dmesg, and the verdict lines and exit status are the ones
 * the Makefile and tools/cosim-bench.sh read.  Progress lines come only
 * while a run goes on, once per interval.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "console.h"
#include "results.h"

static struct strv runs;
static struct console con;
static char *out_buf, *err_buf;
static size_t out_len, err_len;
static FILE *out, *err;

static void setup(void)
{
	memset(&runs, 0, sizeof(runs));
	strv_push(&runs, "/bin/test_a");
	strv_push(&runs, "/bin/test_b --check");
	strv_push(&runs, "/bin/ppu-smi");
	out = open_memstream(&out_buf, &out_len);
	err = open_memstream(&err_buf, &err_len);
	console_init(&con, out, NULL, &runs);
}

static void teardown(void)
{
	fclose(out);
	fclose(err);
	free(out_buf);
	free(err_buf);
	free(con.res);
	free(runs.v);
}

/* Feeds @text in chunks of @step bytes, as the pipe from QEMU may. */
static void feed(const char *text, size_t step)
{
	size_t len = strlen(text);

	for (size_t i = 0; i < len; i += step)
		console_feed(&con, text + i, len - i < step ? len - i : step);
}

static const char boot_ok[] =
	"\033c\033[2J\033[0;1mSeaBIOS\033[0m\r\n"
	"[    0.000000] Linux version 6.1.0\r\n"
	"\r\n@@PPU-BOOTED 3.21\r\n"
	"\n@@PPU-RUN-BEGIN 1\n"
	"hello from a\n"
	"\n@@PPU-RESULT 1 0\n"
	"\n@@PPU-RUN-BEGIN 2\n"
	"100%: Checks: 4, Failures: 0, Errors: 0\n"
	"\n@@PPU-RESULT 2 3\n"
	"\n@@PPU-RUN-BEGIN 3\n"
	"ppu0  0000:00:04.0\n"
	"\n@@PPU-RESULT 3 0\n"
	"\n@@PPU-DMESG-BEGIN\n"
	"[    1.000000] ppu 0000:00:04.0: PPU 1.0\n"
	"\n@@PPU-DMESG-END\n"
	"\n@@PPU-DONE\n";

START_TEST(markers_are_found_however_the_console_is_split)
{
	static const size_t steps[] = { 1, 3, 7, 64, 4096 };

	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		teardown();
		setup();
		feed(boot_ok, steps[s]);
		ck_assert(con.booted);
		ck_assert(con.done);
		ck_assert_int_eq(con.running, 0);
		ck_assert(con.res[0].done && !con.res[0].skipped);
		ck_assert_int_eq(con.res[0].status, 0);
		ck_assert_int_eq(con.res[1].status, 3);
		ck_assert(con.res[2].begun && con.res[2].done);
		ck_assert_uint_eq(con.problems.n, 0);
		/* the log, and the empty line the end marker's newline makes */
		ck_assert_uint_eq(con.dmesg.n, 2);
		ck_assert_str_eq(con.dmesg.v[0], "[    1.000000] ppu 0000:00:04.0: PPU 1.0");
		ck_assert_str_eq(con.dmesg.v[1], "");
	}
}
END_TEST

START_TEST(program_output_is_relayed_without_markers_or_escapes)
{
	feed(boot_ok, 5);
	fflush(out);
	ck_assert_ptr_nonnull(strstr(out_buf, "SeaBIOS\n[    0.000000] Linux version 6.1.0\n"));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: [1] /bin/test_a\nhello from a\n"
				     "ppu-cosim: [1] exit status 0 ("));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: [2] /bin/test_b --check\n"
				     "100%: Checks: 4, Failures: 0, Errors: 0\n"));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: [2] exit status 3 ("));
	ck_assert_ptr_null(strstr(out_buf, "@@PPU"));
	ck_assert_ptr_null(strstr(out_buf, "\033"));
	ck_assert_ptr_null(strstr(out_buf, "\n\n"));
	/* the kernel log is held for the verdict */
	ck_assert_ptr_null(strstr(out_buf, "PPU 1.0"));
}
END_TEST

START_TEST(verdict_names_the_failed_run_and_keeps_the_timing_line)
{
	struct outcome v = { .timeout_s = 600 };
	int rc;

	feed(boot_ok, 4096);
	rc = results_report(out, err, &con, &v, con.t_start + 9.0);
	fflush(out);
	fflush(err);
	ck_assert_int_eq(rc, EXIT_RUN_FAILED);
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: [1] ok: /bin/test_a\n"
				     "ppu-cosim: [2] FAILED (status 3): /bin/test_b --check\n"
				     "ppu-cosim: [3] ok: /bin/ppu-smi\n"
				     "ppu-cosim: FAIL; boot "));
	ck_assert_ptr_nonnull(strstr(out_buf, " s, total 9.0 s\n"));
	/* the per-run times go to stderr, one line per run */
	ck_assert_ptr_nonnull(strstr(err_buf, "wall time per run:\n"));
	ck_assert_ptr_nonnull(strstr(err_buf, "1/3 "));
	ck_assert_ptr_nonnull(strstr(err_buf, "FAILED     /bin/test_b --check\n"));
	ck_assert_ptr_null(strstr(out_buf, "wall time per run"));
}
END_TEST

START_TEST(clean_batch_passes_with_the_line_the_benchmarks_parse)
{
	struct outcome v = { .timeout_s = 600 };
	char *ok = strdup(boot_ok), *p = strstr(ok, "RESULT 2 3");
	double boot, runs_s, total;

	p[9] = '0';
	feed(ok, 4096);
	free(ok);
	ck_assert_int_eq(results_report(out, err, &con, &v, con.t_start + 12.5), EXIT_PASS);
	fflush(out);
	p = strstr(out_buf, "ppu-cosim: PASS; boot ");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p, "ppu-cosim: PASS; boot %lf s, runs %lf s, total %lf s",
				&boot, &runs_s, &total), 3);
	ck_assert_double_eq_tol(total, 12.5, 0.01);
}
END_TEST

START_TEST(rtl_check_failures_fail_a_batch_whose_runs_passed)
{
	struct outcome v = { .timeout_s = 600, .checks_failed = true };
	char *ok = strdup(boot_ok), *p = strstr(ok, "RESULT 2 3");

	p[9] = '0';
	feed(ok, 4096);
	free(ok);
	ck_assert_int_eq(results_report(out, err, &con, &v, con.t_start + 3.0), EXIT_RUN_FAILED);
	fflush(out);
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: [2] ok: /bin/test_b --check\n"));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: RTL invariant checks failed"));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: FAIL; boot "));
}
END_TEST

START_TEST(kernel_problems_fail_the_batch)
{
	struct outcome v = { .timeout_s = 600 };
	static const char text[] =
		"\n@@PPU-BOOTED 1\n"
		"[    2.500000] WARNING: CPU: 0 PID: 1 at drivers/x.c:1\n"
		"user says WARNING: not a kernel line\n"
		"\n@@PPU-RUN-BEGIN 1\n\n@@PPU-RESULT 1 0\n"
		"\n@@PPU-RUN-BEGIN 2\n\n@@PPU-RESULT 2 0\n"
		"\n@@PPU-RUN-BEGIN 3\n\n@@PPU-RESULT 3 0\n"
		"\n@@PPU-DMESG-BEGIN\n"
		"[    2.500000] WARNING: CPU: 0 PID: 1 at drivers/x.c:1\n"
		"[    3.000000] BUG: unable to handle page fault\n"
		"\n@@PPU-DMESG-END\n\n@@PPU-DONE\n";

	feed(text, 9);
	/* the same line from the console and the dmesg counts once */
	ck_assert_uint_eq(con.problems.n, 2);
	ck_assert_int_eq(results_report(out, err, &con, &v, now_s()), EXIT_KERNEL);
	fflush(out);
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: KERNEL PROBLEM (2 lines):\n"));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: guest kernel log:\n"));
}
END_TEST

START_TEST(failed_insmod_skips_every_run)
{
	struct outcome v = { .timeout_s = 600 };
	static const char text[] =
		"\n@@PPU-BOOTED 1\n"
		"\n@@PPU-MODULE-FAIL /lib/modules/extra/ppu.ko 1\n"
		"\n@@PPU-RESULT 1 skipped\n\n@@PPU-RESULT 2 skipped\n\n@@PPU-RESULT 3 skipped\n"
		"\n@@PPU-DMESG-BEGIN\n\n@@PPU-DMESG-END\n\n@@PPU-DONE\n";

	feed(text, 2);
	ck_assert_int_eq(con.module_fail, 1);
	ck_assert(con.res[0].skipped && con.res[2].skipped);
	ck_assert_int_eq(results_report(out, err, &con, &v, now_s()), EXIT_RUN_FAILED);
	fflush(out);
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: insmod failed: /lib/modules/extra/ppu.ko 1\n"));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: [3] SKIPPED: /bin/ppu-smi\n"));
}
END_TEST

START_TEST(timeout_names_the_run_in_progress)
{
	struct outcome v = { .timeout_s = 60, .timed_out = true };

	feed("\n@@PPU-BOOTED 1\n\n@@PPU-RUN-BEGIN 1\n\n@@PPU-RESULT 1 0\n\n@@PPU-RUN-BEGIN 2\nwor", 6);
	console_flush(&con);
	ck_assert_int_eq(con.running, 2);
	ck_assert_int_eq(results_report(out, err, &con, &v, now_s()), EXIT_TIMEOUT);
	fflush(out);
	ck_assert_ptr_nonnull(strstr(out_buf, "\nwor\n"));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: TIMEOUT after 60 s in run [2] "
				     "/bin/test_b --check\n"));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: [2] UNFINISHED: /bin/test_b --check\n"));
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: [3] NOT RUN: /bin/ppu-smi\n"));
}
END_TEST

START_TEST(guest_that_stops_early_is_a_setup_failure)
{
	struct outcome v = { .timeout_s = 60, .qemu_status = 1 << 8 };

	feed("\n@@PPU-BOOTED 1\n\n@@PPU-RUN-BEGIN 1\n", 3);
	ck_assert_int_eq(results_report(out, err, &con, &v, now_s()), EXIT_INFRA);
	fflush(out);
	ck_assert_ptr_nonnull(strstr(out_buf, "the guest stopped before finishing (QEMU status 0x100)\n"));
}
END_TEST

START_TEST(progress_is_printed_only_while_a_run_goes_on)
{
	double t;

	ck_assert(!console_progress(&con, err, now_s() + 100, 30));
	feed("\n@@PPU-BOOTED 1\n\n@@PPU-RUN-BEGIN 2\n", 4096);
	t = con.res[1].t_begin;
	ck_assert(!console_progress(&con, err, t + 10, 30));
	ck_assert(console_progress(&con, err, t + 31, 30));
	ck_assert(!console_progress(&con, err, t + 40, 30));
	ck_assert(console_progress(&con, err, t + 62, 30));
	ck_assert(!console_progress(&con, err, t + 500, 0));
	fflush(err);
	ck_assert_ptr_nonnull(strstr(err_buf, "ppu-cosim: [2/3] running for 31 s: /bin/test_b --check\n"
				     "ppu-cosim: [2/3] running for 62 s: /bin/test_b --check\n"));
	feed("\n@@PPU-RESULT 2 0\n", 4096);
	ck_assert(!console_progress(&con, err, t + 1000, 30));
}
END_TEST

START_TEST(runs_report_the_ppu_cycles_they_took)
{
	/*
	 * run 1 reads the counter at both ends; run 2 finds no driver at its
	 * end (an rmmod); run 3 sees the counter go back (a reset).
	 */
	feed("\n@@PPU-BOOTED 1\n"
	     "\n@@PPU-RUN-BEGIN 1 1000000\n\n@@PPU-RESULT 1 0 3500000\n"
	     "\n@@PPU-RUN-BEGIN 2 3600000\n\n@@PPU-RESULT 2 0\n"
	     "\n@@PPU-RUN-BEGIN 3 3700000\n\n@@PPU-RESULT 3 1 1200\n"
	     "\n@@PPU-DONE\n", 5);
	ck_assert(con.res[0].has_cycles);
	ck_assert_uint_eq(con.res[0].cyc_end - con.res[0].cyc_begin, 2500000);
	ck_assert(!con.res[1].has_cycles);
	ck_assert(!con.res[2].has_cycles);
	ck_assert_int_eq(con.res[2].status, 1);
	fflush(out);
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: [1] exit status 0 ("));
	ck_assert_ptr_nonnull(strstr(out_buf, " s, 2.5 M PPU cycles)\n"));
	for (int i = 2; i <= 3; i++) {
		char key[32];
		const char *l, *nl;

		snprintf(key, sizeof(key), "[%d] exit status %d (", i, i - 2);
		l = strstr(out_buf, key);
		ck_assert_ptr_nonnull(l);
		nl = strchr(l, '\n');
		ck_assert_ptr_nonnull(nl);
		ck_assert_msg(nl[-1] == ')' && nl[-2] == 's', "run %d: %.*s", i, (int)(nl - l), l);
	}

	struct outcome v = { .qemu_status = 0 };

	results_report(out, err, &con, &v, 10.0);
	fflush(err);
	ck_assert_ptr_nonnull(strstr(err_buf, "     2.5 M  ok         /bin/test_a\n"));
	ck_assert_ptr_nonnull(strstr(err_buf, "         -  ok         /bin/test_b --check\n"));
}
END_TEST

START_TEST(cycle_counts_are_shown_in_a_readable_unit)
{
	char b[32];

	console_fmt_cycles(b, sizeof(b), 0);
	ck_assert_str_eq(b, "0");
	console_fmt_cycles(b, sizeof(b), 999);
	ck_assert_str_eq(b, "999");
	console_fmt_cycles(b, sizeof(b), 35541);
	ck_assert_str_eq(b, "36 k");
	console_fmt_cycles(b, sizeof(b), 999499);
	ck_assert_str_eq(b, "999 k");
	console_fmt_cycles(b, sizeof(b), 17600000);
	ck_assert_str_eq(b, "17.6 M");
}
END_TEST

START_TEST(kernel_lines_are_recognised)
{
	ck_assert(console_kernel_line("[    1.234567] x"));
	ck_assert(console_kernel_line("[12345.000001] x"));
	ck_assert(!console_kernel_line("[ x] y"));
	ck_assert(!console_kernel_line("1.0 WARNING:"));
	ck_assert(!console_kernel_line("[  12] y"));
}
END_TEST

Suite *suite_cosim_console(void)
{
	Suite *s = suite_create("cosim_console");
	TCase *tc = tcase_create("cosim_console");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, markers_are_found_however_the_console_is_split);
	tcase_add_test(tc, program_output_is_relayed_without_markers_or_escapes);
	tcase_add_test(tc, verdict_names_the_failed_run_and_keeps_the_timing_line);
	tcase_add_test(tc, clean_batch_passes_with_the_line_the_benchmarks_parse);
	tcase_add_test(tc, rtl_check_failures_fail_a_batch_whose_runs_passed);
	tcase_add_test(tc, kernel_problems_fail_the_batch);
	tcase_add_test(tc, failed_insmod_skips_every_run);
	tcase_add_test(tc, timeout_names_the_run_in_progress);
	tcase_add_test(tc, guest_that_stops_early_is_a_setup_failure);
	tcase_add_test(tc, progress_is_printed_only_while_a_run_goes_on);
	tcase_add_test(tc, runs_report_the_ppu_cycles_they_took);
	tcase_add_test(tc, cycle_counts_are_shown_in_a_readable_unit);
	tcase_add_test(tc, kernel_lines_are_recognised);
	suite_add_tcase(s, tc);
	return s;
}
