// SPDX-License-Identifier: MIT
#include "ppu-trace-parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kind_def {
	const char *group, *name;
	unsigned int value;
};

/* The def also lists SWITCH_REASON values; only TRACE entries are kinds. */
static const struct kind_def defs[] = {
#define PPU_OFFSET(g, n, v)
#define PPU_FIELD(g, n, hi, lo)
#define PPU_CONST(n, v)
#define PPU_VALUE(g, n, v) { #g, #n, (v) },
#include "ppu/ppu_trace.def"
#undef PPU_OFFSET
#undef PPU_FIELD
#undef PPU_CONST
#undef PPU_VALUE
};

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

const char *ppu_trace_kind_name(unsigned int kind)
{
	size_t i;

	for (i = 0; i < NDEFS; i++)
		if (defs[i].value == kind && !strcmp(defs[i].group, "TRACE"))
			return defs[i].name;
	return NULL;
}

int ppu_trace_kind_of(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NDEFS; i++)
		if (defs[i].name[0] == name[0] && strlen(defs[i].name) == len &&
		    !memcmp(defs[i].name, name, len) && !strcmp(defs[i].group, "TRACE"))
			return (int)defs[i].value;
	return -1;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int at_end(const char *p)
{
	p = skip_blank(p);
	return *p == '\0' || *p == '\n' || *p == '\r';
}

/* "key=<number>" with strtoull's base rules; returns the end or NULL. */
static const char *field(const char *p, const char *key, int base, uint64_t max,
			 uint64_t *out)
{
	size_t n = strlen(key);
	char *end;

	p = skip_blank(p);
	if (strncmp(p, key, n) || p[n] != '=')
		return NULL;
	p += n + 1;
	if (*p < '0' || *p > '9')
		return NULL;
	*out = strtoull(p, &end, base);
	if (end == p || *out > max)
		return NULL;
	return end;
}

static enum ppu_trace_line bad(char *err, size_t errlen, const char *why)
{
	snprintf(err, errlen, "%s", why);
	return PPU_TRACE_LINE_BAD;
}

static enum ppu_trace_line comment(const char *p, struct ppu_trace_chan_note *note)
{
	unsigned long ch;
	long prio;
	char *end;

	p = skip_blank(p + 1);
	if (strncmp(p, "chan", 4) || (p[4] != ' ' && p[4] != '\t'))
		return PPU_TRACE_LINE_SKIP;
	p = skip_blank(p + 4);
	ch = strtoul(p, &end, 0);
	if (end == p || ch > PPU_TRACE_MAX_CHID)
		return PPU_TRACE_LINE_SKIP;
	p = skip_blank(end);
	if (strncmp(p, "prio", 4))
		return PPU_TRACE_LINE_SKIP;
	p = skip_blank(p + 4);
	prio = strtol(p, &end, 0);
	if (end == p || prio < 0 || prio > 255)
		return PPU_TRACE_LINE_SKIP;
	note->chid = (unsigned int)ch;
	note->prio = (int)prio;
	note->label[0] = '\0';
	p = skip_blank(end);
	if (!strncmp(p, "label", 5) && (p[5] == ' ' || p[5] == '\t')) {
		size_t n;

		p = skip_blank(p + 5);
		n = strcspn(p, "\r\n");
		if (n >= sizeof(note->label))
			n = sizeof(note->label) - 1;
		memcpy(note->label, p, n);
		note->label[n] = '\0';
	}
	return PPU_TRACE_LINE_CHAN_NOTE;
}

enum ppu_trace_line ppu_trace_parse_line(const char *line, struct ppu_trace_rec *rec,
					 struct ppu_trace_chan_note *note, char *err,
					 size_t errlen)
{
	const char *p = skip_blank(line), *name;
	uint64_t v;
	char *end;
	size_t len;
	int kind;

	if (*p == '#')
		return comment(p, note);
	if (at_end(p))
		return PPU_TRACE_LINE_SKIP;
	if (*p < '0' || *p > '9')
		return bad(err, errlen, "expected a cycle number at the start of the line");
	rec->cycle = strtoull(p, &end, 10);
	if (*end != ' ' && *end != '\t')
		return bad(err, errlen, "expected a space after the cycle number");
	name = skip_blank(end);
	len = strcspn(name, " \t\r\n");
	if (!len)
		return bad(err, errlen, "expected a record kind after the cycle number");
	p = name + len;
	if (!(p = field(p, "ch", 10, PPU_TRACE_MAX_CHID, &v)))
		return bad(err, errlen, "expected ch=<channel 0..4095>");
	rec->chid = (unsigned int)v;
	if (!(p = field(p, "a", 16, UINT32_MAX, &v)))
		return bad(err, errlen, "expected a=0x<32-bit hex>");
	rec->a = (uint32_t)v;
	if (!(p = field(p, "b", 16, UINT32_MAX, &v)))
		return bad(err, errlen, "expected b=0x<32-bit hex>");
	rec->b = (uint32_t)v;
	if (!at_end(p))
		return bad(err, errlen, "unexpected text after b=");
	kind = ppu_trace_kind_of(name, len);
	if (kind < 0)
		return PPU_TRACE_LINE_UNKNOWN_KIND;
	rec->kind = (unsigned int)kind;
	return PPU_TRACE_LINE_RECORD;
}
