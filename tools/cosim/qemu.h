/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: the QEMU side.  The guest runs under TCG with one vCPU (the
 * proxy device drops concurrent BAR accesses of a second one), RAM in a
 * shared memfd the device process maps for DMA, the serial console on
 * stdio, the PPU as -device x-pci-proxy-dev on one end of a socketpair,
 * and a qtest socket through which the device process raises MSIs.
 */
#ifndef COSIM_QEMU_H
#define COSIM_QEMU_H

#include "options.h"

/* Ends the run unless o->qemu exists and lists x-pci-proxy-dev. */
void qemu_check(const struct opts *o);
/* The QEMU command line into @argv (strings are allocated, never freed). */
void qemu_argv(struct strv *argv, const struct opts *o, const char *initrd,
	       const char *qtest_sock, int proxy_fd);

#endif /* COSIM_QEMU_H */
