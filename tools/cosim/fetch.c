// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: files brought back out of the guest (see fetch.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"
#include "fetch.h"
#include "util.h"

bool fetch_add(struct fetches *f, const char *spec)
{
	const char *colon = strchr(spec, ':');
	struct fetch *x;

	if (!colon || spec[0] != '/' || !colon[1])
		return false;
	/* The path goes into /init unquoted: plain characters only. */
	for (const char *p = spec; p < colon; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+",
			    *p))
			return false;
	f->v = realloc(f->v, (f->n + 1) * sizeof(*f->v));
	if (!f->v)
		die("out of memory");
	x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->guest = xasprintf("%.*s", (int)(colon - spec), spec);
	x->host = xstrdup(colon + 1);
	return true;
}

uint32_t fetch_crc32(uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

long fetch_base64_line(const char *s, size_t len, unsigned char *out)
{
	long n = 0;

	if (len % 4)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;

		for (int k = 0; k < 4; k++) {
			if (s[i + k] == '=' && k >= 2) {
				pad++;
				v[k] = 0;
				continue;
			}
			v[k] = b64_value(s[i + k]);
			if (v[k] < 0 || pad)
				return -1;
		}
		if (pad && i + 4 != len)
			return -1;
		out[n++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		if (pad < 2)
			out[n++] = (unsigned char)(v[1] << 4 | v[2] >> 2);
		if (pad < 1)
			out[n++] = (unsigned char)(v[2] << 6 | v[3]);
	}
	return n;
}

static struct fetch *receiving(const struct fetches *f)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].state == FETCH_RECEIVING)
			return &f->v[i];
	return NULL;
}

bool fetch_receiving(const struct fetches *f)
{
	return receiving(f) != NULL;
}

static void bad(struct fetch *x, const char *why)
{
	x->state = FETCH_BAD;
	snprintf(x->why, sizeof(x->why), "%s", why);
	free(x->data);
	x->data = NULL;
	x->len = x->cap = 0;
}

/* One data line of the file being received. */
static void data_line(struct fetch *x, const char *line)
{
	/* a line is at most the console's line buffer */
	unsigned char buf[sizeof(((struct console *)0)->line) / 4 * 3 + 3];
	size_t len = strlen(line);
	long n;

	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	if (len / 4 * 3 > sizeof(buf) ||
	    (n = fetch_base64_line(line, len, buf)) < 0) {
		bad(x, "a line that is not base64 (a kernel message in the data?)");
		return;
	}
	if (x->len + (size_t)n > x->size) {
		bad(x, "more data than the announced size");
		return;
	}
	if (!x->data) {
		x->cap = x->size ? x->size : 1;
		x->data = xmalloc(x->cap);
	}
	memcpy(x->data + x->len, buf, (size_t)n);
	x->len += (size_t)n;
}

static struct fetch *numbered(struct fetches *f, const char *args, const char **rest)
{
	char *end;
	unsigned long n = strtoul(args, &end, 10);

	if (end == args || n < 1 || n > f->n)
		return NULL;
	*rest = end;
	return &f->v[n - 1];
}

bool fetch_console_line(struct fetches *f, const char *line, const char *marker)
{
	struct fetch *x = receiving(f);
	const char *rest;

	if (!marker || strncmp(marker, "FETCH-", 6)) {
		if (!x)
			return false;
		data_line(x, line);
		return true;
	}
	marker += 6;
	if (!strncmp(marker, "BEGIN ", 6)) {
		unsigned long long size;
		unsigned int crc;
		char *end;

		if (x)
			bad(x, "no end marker");
		x = numbered(f, marker + 6, &rest);
		if (!x)
			return true;
		size = strtoull(rest, &end, 10);
		if (end == rest || sscanf(end, "%x", &crc) != 1) {
			bad(x, "a malformed begin marker");
			return true;
		}
		if (size > FETCH_MAX_BYTES) {
			bad(x, "announced size beyond the bound");
			return true;
		}
		x->state = FETCH_RECEIVING;
		x->size = (size_t)size;
		x->crc = crc;
		x->len = 0;
	} else if (!strncmp(marker, "END ", 4)) {
		struct fetch *e = numbered(f, marker + 4, &rest);

		if (!e || e != x)
			return true;
		if (x->len != x->size)
			snprintf(x->why, sizeof(x->why), "%zu bytes arrived of %zu", x->len, x->size);
		else if (fetch_crc32(0, x->data, x->len) != x->crc)
			snprintf(x->why, sizeof(x->why), "CRC-32 %08x, the guest said %08x",
				 fetch_crc32(0, x->data, x->len), x->crc);
		else
			x->state = FETCH_OK;
		if (x->state != FETCH_OK) {
			char why[sizeof(x->why)];

			memcpy(why, x->why, sizeof(why));
			bad(x, why);
		}
	} else if (!strncmp(marker, "MISSING ", 8)) {
		x = numbered(f, marker + 8, &rest);
		if (x)
			x->state = FETCH_MISSING;
	} else if (!strncmp(marker, "TOOBIG ", 7)) {
		x = numbered(f, marker + 7, &rest);
		if (x) {
			x->state = FETCH_TOOBIG;
			x->size = strtoull(rest, NULL, 10);
		}
	}
	return true;
}

size_t fetch_finish(struct fetches *f, FILE *out, FILE *err)
{
	size_t failed = 0;

	for (size_t i = 0; i < f->n; i++) {
		struct fetch *x = &f->v[i];
		FILE *h;

		switch (x->state) {
		case FETCH_OK: {
			bool ok;

			h = fopen(x->host, "w");
			ok = h && (!x->len || fwrite(x->data, x->len, 1, h) == 1);
			if (h && fclose(h))
				ok = false;
			if (!ok) {
				fprintf(out, PROG ": FETCH FAILED: %s -> %s: %s\n", x->guest, x->host,
					strerror(errno));
				failed++;
				break;
			}
			fprintf(err, PROG ": fetched %s (%zu bytes) -> %s\n", x->guest, x->len,
				x->host);
			break;
		}
		case FETCH_MISSING:
			fprintf(out, PROG ": FETCH FAILED: %s: no such file in the guest\n", x->guest);
			failed++;
			break;
		case FETCH_TOOBIG:
			fprintf(out, PROG ": FETCH FAILED: %s: %zu bytes, more than %u\n", x->guest,
				x->size, FETCH_MAX_BYTES);
			failed++;
			break;
		case FETCH_BAD:
			fprintf(out, PROG ": FETCH FAILED: %s: %s\n", x->guest, x->why);
			failed++;
			break;
		case FETCH_RECEIVING:
			fprintf(out, PROG ": FETCH FAILED: %s: the console ended in its data\n",
				x->guest);
			failed++;
			break;
		case FETCH_NOT_SEEN:
			fprintf(out, PROG ": FETCH FAILED: %s: the guest never sent it\n", x->guest);
			failed++;
			break;
		}
	}
	return failed;
}

void fetch_free(struct fetches *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].guest);
		free(f->v[i].host);
		free(f->v[i].data);
	}
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

void fetch_init_script(FILE *f, const struct fetches *fs)
{
	if (!fs || !fs->n)
		return;
	/* Kernel messages would break into the data: quiet the console first. */
	fprintf(f,
		"dmesg -n 1\n"
		"fetch() {\n"
		"\tif [ ! -f \"$2\" ]; then m FETCH-MISSING $1; return; fi\n"
		"\ts=$(wc -c < \"$2\")\n"
		"\tif [ \"$s\" -gt %u ]; then m FETCH-TOOBIG $1 $s; return; fi\n"
		"\tm FETCH-BEGIN $1 $s $(crc32 < \"$2\")\n"
		"\tbase64 \"$2\"\n"
		"\tm FETCH-END $1\n"
		"}\n", FETCH_MAX_BYTES);
	for (size_t i = 0; i < fs->n; i++)
		fprintf(f, "fetch %zu %s\n", i + 1, fs->v[i].guest);
}
