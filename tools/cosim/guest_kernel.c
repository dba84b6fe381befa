// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: choosing the guest kernel (see guest_kernel.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "guest_kernel.h"

static bool moddir_ok(const char *ver)
{
	char *p = xasprintf("/lib/modules/%s/modules.dep", ver);
	bool ok = access(p, R_OK) == 0;

	free(p);
	return ok;
}

void guest_kernel_pick(struct opts *o)
{
	static char kbuf[PATH_MAX], vbuf[256];
	struct utsname u;
	DIR *d;
	struct dirent *de;

	if (o->kernel) {
		const char *base = strrchr(o->kernel, '/');

		base = base ? base + 1 : o->kernel;
		if (!o->kver && !strncmp(base, "vmlinuz-", 8))
			o->kver = base + 8;
		if (!o->kver)
			die("--kernel %s: cannot tell its version; give --kver",
			    o->kernel);
		return;
	}
	if (!uname(&u) && !o->kver) {
		snprintf(kbuf, sizeof(kbuf), "/boot/vmlinuz-%s", u.release);
		if (!access(kbuf, R_OK) && moddir_ok(u.release)) {
			o->kernel = kbuf;
			o->kver = xstrdup(u.release);
			return;
		}
	}
	/* The newest /boot/vmlinuz-* whose modules are installed. */
	d = opendir("/boot");
	if (!d)
		die("/boot: %s", strerror(errno));
	vbuf[0] = 0;
	while ((de = readdir(d))) {
		const char *v = de->d_name + 8;

		if (strncmp(de->d_name, "vmlinuz-", 8) || !moddir_ok(v))
			continue;
		if (o->kver && strcmp(v, o->kver))
			continue;
		if (!vbuf[0] || strverscmp(v, vbuf) > 0)
			snprintf(vbuf, sizeof(vbuf), "%s", v);
	}
	closedir(d);
	if (!vbuf[0])
		die("no /boot/vmlinuz-* with modules in /lib/modules "
		    "(install linux-image-amd64, or give --kernel/--kver)");
	snprintf(kbuf, sizeof(kbuf), "/boot/vmlinuz-%s", vbuf);
	o->kernel = kbuf;
	o->kver = vbuf;
}
