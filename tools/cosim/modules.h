/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: the kernel modules a guest loads, in load order: drm.ko and
 * drm_shmem_helper.ko with their dependencies (from the guest kernel's
 * modules.dep), then each --module with the in-tree modules its .modinfo
 * "depends=" names.
 */
#ifndef COSIM_MODULES_H
#define COSIM_MODULES_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct mod {
	char *path;		/* host path (decompressed copy if needed) */
	char *guest;		/* path inside the initramfs */
	char *params;		/* insmod parameters, may be empty */
};

struct modlist {
	struct mod *m;
	size_t n;
	struct strv names;
};

/*
 * Fills @l from /lib/modules/@kver (@moddir) and the "path.ko [params]"
 * specs of @extra; compressed modules are decompressed into @workdir.
 * Any problem ends the run (die()).
 */
void modules_resolve(struct modlist *l, const char *moddir, const char *kver,
		     const struct strv *extra, const char *workdir);
/* A module's name from its path: basename without ".ko*", '-' as '_'. */
char *mod_name(const char *path);
/*
 * The .modinfo section of an ELF64 object in memory: true and its
 * [*start, *start + *size) when there is one that lies inside @len.
 */
bool modinfo_section(const char *data, size_t len, size_t *start, size_t *size);

#endif /* COSIM_MODULES_H */
