/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: the guest's initramfs.  busybox, the modules (modules.h),
 * every --file with the shared libraries its ELF files need (ldd), one
 * script per --run (/etc/ppu-cosim/run<n>) and an /init that mounts
 * proc/sys/dev/debugfs, loads the modules, runs the scripts in order
 * printing the console markers of console.h, dumps the kernel log and
 * powers off.
 */
#ifndef COSIM_INITRAMFS_H
#define COSIM_INITRAMFS_H

#include "modules.h"
#include "options.h"

/* Writes the archive to @out; extra files go to @workdir (decompressed modules, kept /init). */
void initramfs_build(const char *out, const struct opts *o, const char *workdir);
/* The /init script for these modules, runs and files to fetch (may be NULL; malloc'ed). */
char *initramfs_init_script(const struct modlist *l, const struct strv *runs,
			    const struct fetches *fetch);
/* @s single-quoted for sh (malloc'ed). */
char *shell_quote(const char *s);

#endif /* COSIM_INITRAMFS_H */
