/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: files brought back out of the guest (--fetch GUEST:HOST).
 *
 * After the last run, /init prints each file on the serial console between
 * markers, base64-encoded (busybox base64, whole 4-character groups per
 * line), with its size and CRC-32 (busybox crc32, zlib's polynomial):
 *
 *   @@PPU-FETCH-BEGIN <n> <size> <crc32 hex>
 *   <base64 lines>
 *   @@PPU-FETCH-END <n>
 *
 * or, instead, @@PPU-FETCH-MISSING <n> (no such regular file) or
 * @@PPU-FETCH-TOOBIG <n> <size> (larger than FETCH_MAX_BYTES, not sent).
 * The console hands those lines here; a file is good only when its decoded
 * length is the announced size and its CRC matches, so a kernel message
 * breaking into the data is caught.
 */
#ifndef COSIM_FETCH_H
#define COSIM_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Files larger than this stay in the guest (the console is not a disk). */
#define FETCH_MAX_BYTES (64u << 20)

enum fetch_state {
	FETCH_NOT_SEEN,		/* no marker for it (the guest stopped early?) */
	FETCH_RECEIVING,
	FETCH_OK,
	FETCH_MISSING,
	FETCH_TOOBIG,
	FETCH_BAD,		/* see why */
};

struct fetch {
	char *guest, *host;
	enum fetch_state state;
	size_t size;		/* announced */
	uint32_t crc;		/* announced */
	unsigned char *data;
	size_t len, cap;
	char why[160];
};

struct fetches {
	struct fetch *v;
	size_t n;
};

/* Adds "GUEST:HOST"; false for a malformed spec (GUEST must be absolute). */
bool fetch_add(struct fetches *f, const char *spec);
/*
 * A console line while a file is being received, or a FETCH marker (the
 * text after "@@PPU-").  Returns true when the line was the fetch's and must
 * not be relayed.
 */
bool fetch_console_line(struct fetches *f, const char *line, const char *marker);
/* Whether a file is being received (its data lines are not relayed). */
bool fetch_receiving(const struct fetches *f);
/*
 * Writes each good file to its host path and says so on @err; says on
 * @out what failed.  Returns the number of files not brought back.
 */
size_t fetch_finish(struct fetches *f, FILE *out, FILE *err);
void fetch_free(struct fetches *f);

/* zlib's CRC-32 (what busybox crc32 prints), continued from @crc (0 to start). */
uint32_t fetch_crc32(uint32_t crc, const unsigned char *p, size_t n);
/*
 * Decodes one line of base64 (whole groups of four, '=' padding only at
 * the end) onto @out; -1 if it is not that.  Returns the bytes added.
 */
long fetch_base64_line(const char *s, size_t len, unsigned char *out);
/* The /init shell lines that print every file (after the runs). */
void fetch_init_script(FILE *f, const struct fetches *fs);

#endif /* COSIM_FETCH_H */
