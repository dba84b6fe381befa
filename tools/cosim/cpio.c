// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: the cpio newc writer (see cpio.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpio.h"

void cpio_open(struct cpio *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->f = fopen(path, "wb");
	if (!c->f)
		die("%s: %s", path, strerror(errno));
}

static void cpio_pad(struct cpio *c)
{
	static const char zero[4];
	long pos = ftell(c->f);

	if (pos & 3)
		fwrite(zero, 1, 4 - (size_t)(pos & 3), c->f);
}

static void cpio_hdr(struct cpio *c, const char *name, uint32_t mode,
		     uint32_t size, uint32_t rmaj, uint32_t rmin)
{
	fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X"
		"%08X%08X", ++c->ino, mode, 0u, 0u,
		S_ISDIR(mode) ? 2u : 1u, 0u, size, 0u, 0u, rmaj, rmin,
		(uint32_t)strlen(name) + 1, 0u);
	fwrite(name, 1, strlen(name) + 1, c->f);
	cpio_pad(c);
}

/* Strips leading slashes; returns false when @name is already there. */
static bool cpio_claim(struct cpio *c, const char **name)
{
	while (**name == '/')
		(*name)++;
	if (!**name || strv_has(&c->names, *name))
		return false;
	strv_push(&c->names, xstrdup(*name));
	return true;
}

static void cpio_parents(struct cpio *c, const char *name)
{
	char *dup = xstrdup(name), *slash;

	for (slash = strchr(dup, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		cpio_dir(c, dup);
		*slash = '/';
	}
	free(dup);
}

void cpio_dir(struct cpio *c, const char *name)
{
	if (!cpio_claim(c, &name))
		return;
	cpio_parents(c, name);
	cpio_hdr(c, name, S_IFDIR | 0755, 0, 0, 0);
}

void cpio_data(struct cpio *c, const char *name, uint32_t mode,
	       const void *data, size_t len)
{
	if (!cpio_claim(c, &name))
		return;
	cpio_parents(c, name);
	cpio_hdr(c, name, S_IFREG | (mode & 07777), (uint32_t)len, 0, 0);
	fwrite(data, 1, len, c->f);
	cpio_pad(c);
}

void cpio_copy(struct cpio *c, const char *name, const char *host, int mode)
{
	struct stat st;
	size_t len;
	char *data;

	if (stat(host, &st) < 0)
		die("%s: %s", host, strerror(errno));
	if (st.st_size > UINT32_MAX)
		die("%s: too large for an initramfs", host);
	data = read_file(host, &len);
	if (!data)
		die("%s: %s", host, strerror(errno));
	cpio_data(c, name, mode >= 0 ? (uint32_t)mode : st.st_mode, data, len);
	free(data);
}

void cpio_symlink(struct cpio *c, const char *name, const char *target)
{
	if (!cpio_claim(c, &name))
		return;
	cpio_parents(c, name);
	cpio_hdr(c, name, S_IFLNK | 0777, (uint32_t)strlen(target), 0, 0);
	fwrite(target, 1, strlen(target), c->f);
	cpio_pad(c);
}

void cpio_chardev(struct cpio *c, const char *name, uint32_t mode,
		  uint32_t maj, uint32_t min)
{
	if (!cpio_claim(c, &name))
		return;
	cpio_parents(c, name);
	cpio_hdr(c, name, S_IFCHR | mode, 0, maj, min);
}

void cpio_finish(struct cpio *c)
{
	cpio_hdr(c, "TRAILER!!!", 0, 0, 0, 0);
	if (fclose(c->f) != 0)
		die("%s: %s", c->path, strerror(errno));
	c->f = NULL;
	for (size_t i = 0; i < c->names.n; i++)
		free(c->names.v[i]);
	free(c->names.v);
	c->names.v = NULL;
	c->names.n = 0;
}
