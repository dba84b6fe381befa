/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: the QEMU side.  The guest runs under TCG with one vCPU (the
 * proxy device drops concurrent BAR accesses of a second one), RAM in a
 * shared memfd the device process maps for DMA, the serial console on
 * stdio, each PPU as -device x-pci-proxy-dev (ids ppu0, ppu1) on one end
 * of a socketpair, and the one qtest socket through which the device
 * processes raise MSIs (shared through qtest_mux.h when there are two).
 */
#ifndef COSIM_QEMU_H
#define COSIM_QEMU_H

#include "options.h"

/* Ends the run unless o->qemu exists and lists x-pci-proxy-dev. */
void qemu_check(const struct opts *o);
/*
 * The QEMU command line into @argv (strings are allocated, never freed);
 * @proxy_fds holds QEMU's end of each PPU's socket, o->devices of them.
 */
void qemu_argv(struct strv *argv, const struct opts *o, const char *initrd,
	       const char *qtest_sock, const int *proxy_fds);

#endif /* COSIM_QEMU_H */
