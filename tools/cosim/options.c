// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: the command line (see options.h).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

void opts_init(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->qemu = "qemu-system-x86_64";
	o->timeout = 300;
	o->devices = 1;
	o->mem_mib = 512;
	o->progress_s = 30;
}

void opts_usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [options] --run 'cmd' [--run 'cmd' ...]\n"
"Boots the guest kernel under QEMU (TCG, 1 vCPU) with the co-simulated PPU\n"
"as a PCI device, runs each command in order in one boot, reports results.\n"
"\n"
"  --run CMD            shell command to run in the guest (repeatable)\n"
"  --file HOST:GUEST    copy a file or directory into the guest (GUEST\n"
"                       ending in / keeps the name); ELF files bring the\n"
"                       shared libraries they need\n"
"  --module 'X.ko [ARGS]'  insmod X.ko (after drm, drm_shmem_helper and\n"
"                       its dependencies); runs are skipped if it fails\n"
"  --kernel PATH        guest kernel (default: newest /boot/vmlinuz-* with\n"
"                       modules installed)\n"
"  --kver VER           module directory /lib/modules/VER\n"
"  --timeout S          wall-clock limit for the whole boot (default 300)\n"
"  --progress S         every S seconds of a run, say on stderr which run\n"
"                       is going and for how long (default 30, 0: never)\n"
"  --devices N          attach N PPUs, ppu0 and ppu1 (1 or 2, default 1);\n"
"                       one device process each\n"
"  --trace FILE         PPU event trace from the device process; with\n"
"                       --devices 2 one file per PPU, FILE with -ppu0 and\n"
"                       -ppu1 before its extension\n"
"  --fst FILE           FST waveform from the device process (slow; named\n"
"                       per PPU like --trace)\n"
"  --fetch GUEST:HOST   after the runs, copy the guest's file GUEST back to\n"
"                       HOST over the console (repeatable; at most 64 MiB;\n"
"                       a file not brought back fails the batch)\n"
"  --dev-arg ARG        extra option for ppu-cosim-dev (repeatable; every\n"
"                       device process gets it), e.g.\n"
"                       --dev-arg=--local-mem-mib=128 --dev-arg=-v\n"
"  --log FILE           console to FILE (stdout gets only the summary)\n"
"  --dmesg              print the guest kernel log even when clean\n"
"  --boot-log           full kernel log on the console (loglevel 7)\n"
"  --append ARGS        extra kernel command line\n"
"  --mem MIB            guest RAM (default 512)\n"
"  --qemu PATH          QEMU binary (default qemu-system-x86_64)\n"
"  --dev PATH           device binary (default: next to this tool)\n"
"  --fpga               serve the PPU inside its PCIe FPGA shell (hw/fpga:\n"
"                       AXI4-Lite BAR0, AXI4 DMA and DDR masters behind\n"
"                       responders with PCIe and DDR latency), the device\n"
"                       binary ppu-cosim-dev-fpga\n"
"  --keep               keep the work directory (initramfs, init)\n"
"  -v, --verbose        show commands, modules and libraries\n"
"\n"
"exit: 0 pass, 1 a run failed, 2 kernel problem, 3 timeout, 4 setup failure\n");
}

enum {
	OPT_RUN = 256, OPT_FILE, OPT_MODULE, OPT_KERNEL, OPT_KVER, OPT_TIMEOUT,
	OPT_TRACE, OPT_FST, OPT_DEVARG, OPT_LOG, OPT_DMESG, OPT_BOOTLOG,
	OPT_APPEND, OPT_MEM, OPT_QEMU, OPT_DEV, OPT_KEEP, OPT_PROGRESS, OPT_FETCH, OPT_FPGA,
	OPT_DEVICES,
};

void opts_parse(struct opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, OPT_RUN },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "module", required_argument, NULL, OPT_MODULE },
		{ "kernel", required_argument, NULL, OPT_KERNEL },
		{ "kver", required_argument, NULL, OPT_KVER },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "progress", required_argument, NULL, OPT_PROGRESS },
		{ "devices", required_argument, NULL, OPT_DEVICES },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "fst", required_argument, NULL, OPT_FST },
		{ "fetch", required_argument, NULL, OPT_FETCH },
		{ "dev-arg", required_argument, NULL, OPT_DEVARG },
		{ "log", required_argument, NULL, OPT_LOG },
		{ "dmesg", no_argument, NULL, OPT_DMESG },
		{ "boot-log", no_argument, NULL, OPT_BOOTLOG },
		{ "append", required_argument, NULL, OPT_APPEND },
		{ "mem", required_argument, NULL, OPT_MEM },
		{ "qemu", required_argument, NULL, OPT_QEMU },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "keep", no_argument, NULL, OPT_KEEP },
		{ "fpga", no_argument, NULL, OPT_FPGA },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end;
	int opt;

	while ((opt = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (opt) {
		case OPT_RUN:
			strv_push(&o->runs, optarg);
			break;
		case OPT_FILE:
			strv_push(&o->files, optarg);
			break;
		case OPT_MODULE:
			strv_push(&o->modules, optarg);
			break;
		case OPT_KERNEL:
			o->kernel = optarg;
			break;
		case OPT_KVER:
			o->kver = optarg;
			break;
		case OPT_TIMEOUT:
			o->timeout = atoi(optarg);
			if (o->timeout <= 0)
				die("--timeout: expected seconds > 0");
			break;
		case OPT_PROGRESS:
			o->progress_s = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || o->progress_s < 0)
				die("--progress: expected seconds >= 0");
			break;
		case OPT_DEVICES:
			o->devices = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || o->devices < 1 ||
			    o->devices > COSIM_MAX_DEVICES)
				die("--devices: expected 1..%d", COSIM_MAX_DEVICES);
			break;
		case OPT_TRACE:
			o->trace = optarg;
			break;
		case OPT_FST:
			o->fst = optarg;
			break;
		case OPT_FETCH:
			if (!fetch_add(&o->fetch, optarg))
				die("--fetch %s: expected /guest/path:host-path (the guest path "
				    "of letters, digits and /._-+)", optarg);
			break;
		case OPT_DEVARG:
			strv_push(&o->dev_args, optarg);
			break;
		case OPT_LOG:
			o->log = optarg;
			break;
		case OPT_DMESG:
			o->show_dmesg = true;
			break;
		case OPT_BOOTLOG:
			o->boot_log = true;
			break;
		case OPT_APPEND:
			o->append = optarg;
			break;
		case OPT_MEM:
			o->mem_mib = atoi(optarg);
			/* The memfd must stay below the 3 GiB PCI hole. */
			if (o->mem_mib < 128 || o->mem_mib > 3072)
				die("--mem: 128..3072 MiB");
			break;
		case OPT_QEMU:
			o->qemu = optarg;
			break;
		case OPT_DEV:
			o->dev = optarg;
			break;
		case OPT_FPGA:
			o->fpga = true;
			break;
		case OPT_KEEP:
			o->keep = true;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'h':
			opts_usage(stdout);
			exit(0);
		default:
			opts_usage(stderr);
			exit(EXIT_INFRA);
		}
	}
	if (optind != argc) {
		opts_usage(stderr);
		exit(EXIT_INFRA);
	}
	if (!o->runs.n)
		die("nothing to run: give at least one --run");
}
