/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: a writer of cpio archives in the "newc" format (ASCII hex
 * headers, magic 070701, 4-byte alignment), the format the kernel unpacks
 * as an initramfs.  Names are stored without leading slashes; missing
 * parent directories are added first, and a name added twice keeps its
 * first entry, so callers may add a library every program needs once per
 * program.  Every entry belongs to root.
 */
#ifndef COSIM_CPIO_H
#define COSIM_CPIO_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"

struct cpio {
	FILE *f;
	const char *path;	/* for messages */
	uint32_t ino;
	struct strv names;	/* everything added, to skip duplicates */
};

/* Starts an archive in @path (the run dies if it cannot). */
void cpio_open(struct cpio *c, const char *path);
void cpio_dir(struct cpio *c, const char *name);
void cpio_data(struct cpio *c, const char *name, uint32_t mode, const void *data, size_t len);
/* A host file's contents; @mode < 0 keeps the host file's mode. */
void cpio_copy(struct cpio *c, const char *name, const char *host, int mode);
void cpio_symlink(struct cpio *c, const char *name, const char *target);
void cpio_chardev(struct cpio *c, const char *name, uint32_t mode, uint32_t maj, uint32_t min);
/* Writes the trailer and closes the file. */
void cpio_finish(struct cpio *c);

#endif /* COSIM_CPIO_H */
