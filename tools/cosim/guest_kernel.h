/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: which kernel the guest boots.  --kernel as given (its version
 * from the file name unless --kver says it); else the running kernel when
 * /boot and /lib/modules have it; else the newest /boot/vmlinuz-* whose
 * modules are installed (the one --kver names, if given).
 */
#ifndef COSIM_GUEST_KERNEL_H
#define COSIM_GUEST_KERNEL_H

#include "options.h"

/* Sets o->kernel and o->kver, or ends the run saying what is missing. */
void guest_kernel_pick(struct opts *o);

#endif /* COSIM_GUEST_KERNEL_H */
