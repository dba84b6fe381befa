/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: the guest's serial console.  Relays it (to stdout, or to the
 * --log file), drops terminal escapes, and follows the markers /init
 * prints, each on a line of its own:
 *
 *   @@PPU-BOOTED <uptime>          /init started
 *   @@PPU-MODULE-FAIL <path> <rc>  insmod failed (runs are then skipped)
 *   @@PPU-RUN-BEGIN <n>
 *   @@PPU-RESULT <n> <status>      exit status of run n, or "skipped"
 *   @@PPU-FETCH-...                a file out of the guest (fetch.h)
 *   @@PPU-DMESG-BEGIN / -END       the kernel log
 *   @@PPU-DONE
 *
 * Kernel log lines that show a problem (oops, BUG, WARNING, lockup, ...)
 * are collected, from the console and from the final dmesg.
 */
#ifndef COSIM_CONSOLE_H
#define COSIM_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fetch.h"
#include "util.h"

struct result {
	bool begun;
	bool done;
	bool skipped;
	int status;
	double t_begin, t_end;
	/*
	 * The first PPU's cycle counter when the run began and ended, as
	 * the guest read it (debugfs regs); has_cycles when both were read
	 * and the counter did not go back (a reset in between).
	 */
	bool has_cycles;
	unsigned long long cyc_begin, cyc_end;
};

struct console {
	FILE *out;		/* relay target and marker lines */
	FILE *log;		/* --log file, or NULL */
	const struct strv *runs;	/* the --run commands */
	char line[8192];
	size_t len;
	bool booted, done, in_dmesg;
	bool blank;		/* an empty line is held back */
	int esc;		/* 1 after ESC, 2 inside ESC [ */
	double t_start, t_boot, t_done;
	double t_progress;	/* last progress line */
	struct result *res;	/* one per run */
	int module_fail;
	int running;		/* run in progress, 0 = none */
	struct strv problems;	/* kernel problem lines */
	struct strv dmesg;	/* buffered kernel log */
	struct fetches *fetch;	/* --fetch files, or NULL */
};

/* A run's PPU cycles for people: "2.5 M", "35 k" or "120". */
void console_fmt_cycles(char *buf, size_t size, unsigned long long n);
/* Ready to follow a boot that starts now, for these runs. */
void console_init(struct console *c, FILE *out, FILE *log, const struct strv *runs);
/* Console bytes as they arrive (any split). */
void console_feed(struct console *c, const char *buf, size_t n);
/* The last line when the console ends without a newline. */
void console_flush(struct console *c);
/*
 * While a run goes on, every @every_s seconds (at time @now), one line to
 * @f: which run of how many, its command and how long it has run.
 * Returns true when it printed.
 */
bool console_progress(struct console *c, FILE *f, double now, double every_s);
/* "[    1.234567] ...": how printk lines look on the console. */
bool console_kernel_line(const char *s);

#endif /* COSIM_CONSOLE_H */
