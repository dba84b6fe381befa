/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: the command line.
 */
#ifndef COSIM_OPTIONS_H
#define COSIM_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "fetch.h"
#include "util.h"

/* PPUs one guest may have: ppu0, ppu1. */
#define COSIM_MAX_DEVICES 2

struct opts {
	const char *kernel;
	const char *kver;
	const char *qemu;
	const char *dev;
	const char *log;
	const char *trace;
	const char *fst;
	const char *append;
	int timeout;
	int devices;		/* PPUs attached, 1..COSIM_MAX_DEVICES */
	int mem_mib;
	int progress_s;		/* seconds between progress lines, 0 = none */
	bool keep;
	bool fpga;		/* --fpga: serve hw/fpga's ppu_fpga_top */
	bool boot_log;
	bool show_dmesg;
	int verbose;
	struct strv runs;
	struct strv files;	/* "host:guest" */
	struct strv modules;	/* "path.ko [params]" */
	struct strv dev_args;
	struct fetches fetch;	/* --fetch GUEST:HOST */
};

/* The defaults (QEMU binary, timeout, memory, progress interval). */
void opts_init(struct opts *o);
/*
 * Fills @o from argv; --help prints the usage and exits 0, a bad option
 * prints it to stderr and exits EXIT_INFRA.
 */
void opts_parse(struct opts *o, int argc, char **argv);
void opts_usage(FILE *f);

#endif /* COSIM_OPTIONS_H */
