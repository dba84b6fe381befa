// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: the QEMU command line (see qemu.h).
 */
#include <stdlib.h>
#include <string.h>

#include "qemu.h"

void qemu_check(const struct opts *o)
{
	char *argv[] = { (char *)o->qemu, "-device", "help", NULL };
	char *out = NULL;
	int rc = run_cmd(argv, &out, NULL);

	if (rc == 127)
		die("%s not found (install qemu-system-x86)", o->qemu);
	if (!strstr(out, "\"x-pci-proxy-dev\""))
		die("%s does not list the device x-pci-proxy-dev (QEMU built "
		    "without multi-process support?); the co-simulation needs "
		    "it", o->qemu);
	free(out);
}

void qemu_argv(struct strv *argv, const struct opts *o, const char *initrd,
	       const char *qtest_sock, const int *proxy_fds)
{
	char *mem = xasprintf("memory-backend-memfd,id=mem,size=%dM,share=on",
			      o->mem_mib);
	char *append = xasprintf("console=ttyS0 panic=-1 loglevel=%d%s%s",
				 o->boot_log ? 7 : 5, o->append ? " " : "",
				 o->append ? o->append : "");
	char *a[] = {
		(char *)o->qemu, "-accel", "tcg", "-smp", "1",
		"-m", xasprintf("%dM", o->mem_mib), "-object", mem,
		"-machine", "pc,memory-backend=mem",
		"-nographic", "-no-reboot", "-nodefaults",
		"-serial", "stdio", "-vga", "none",
		"-kernel", (char *)o->kernel, "-initrd", (char *)initrd,
		"-append", append,
		"-qtest", xasprintf("unix:%s,server=on,wait=off", qtest_sock),
		"-qtest-log", "none", NULL,
	};

	for (char **p = a; *p; p++)
		strv_push(argv, *p);
	/* QEMU gives each the next free slot: ppu0 is first on the bus. */
	for (int i = 0; i < o->devices; i++) {
		strv_push(argv, "-device");
		strv_push(argv, xasprintf("x-pci-proxy-dev,id=ppu%d,fd=%d",
					  i, proxy_fds[i]));
	}
}
