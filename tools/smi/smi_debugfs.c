// SPDX-License-Identifier: MIT
/*
 * ppu-smi: parsers of the driver's debugfs files (see smi_debugfs.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smi_debugfs.h"

/* The next line of *p into @line (without its newline); false at the end. */
static bool next_line(const char **p, char *line, size_t len)
{
	const char *nl;
	size_t n;

	if (!**p)
		return false;
	nl = strchr(*p, '\n');
	n = nl ? (size_t)(nl - *p) : strlen(*p);
	if (n >= len)
		n = len - 1;
	memcpy(line, *p, n);
	line[n] = 0;
	*p = nl ? nl + 1 : *p + strlen(*p);
	return true;
}

int smi_parse_channels(const char *text, struct smi_chan *c, int max)
{
	char line[256], owner[32], dead[8], tasks[16], fault[64];
	const char *p = text;
	int n = 0;

	if (!next_line(&p, line, sizeof(line)) || strncmp(line, "chid owner", 10))
		return -1;
	while (n < max && next_line(&p, line, sizeof(line))) {
		struct smi_chan *ch = &c[n];
		int k;

		memset(ch, 0, sizeof(*ch));
		fault[0] = 0;
		/* the fault column is the newest; older drivers end at tasks */
		k = sscanf(line, "%u %31s %u %15s %" SCNu32 " %" SCNu32 " %7s %11s %15s %63s",
			   &ch->chid, owner, &ch->priority, ch->state, &ch->gp_get, &ch->gp_put,
			   dead, ch->engine, tasks, fault);
		if (k < 9)
			continue;
		ch->pid = strcmp(owner, "kernel") ? atoi(owner) : -1;
		ch->dead = !strcmp(dead, "yes");
		ch->tasks = strcmp(tasks, "-") ? atoi(tasks) : -1;
		if (k == 10 && strcmp(fault, "-"))
			snprintf(ch->fault, sizeof(ch->fault), "%s", fault);
		n++;
	}
	return n;
}

int smi_parse_faults(const char *text, uint64_t *total, struct smi_fault *f, int max)
{
	char line[256];
	const char *p = text;
	int n = 0;

	if (!next_line(&p, line, sizeof(line)) || sscanf(line, "FAULTS %" SCNu64, total) != 1)
		return -1;
	next_line(&p, line, sizeof(line));	/* the header */
	while (n < max && next_line(&p, line, sizeof(line))) {
		struct smi_fault *r = &f[n];

		memset(r, 0, sizeof(*r));
		if (sscanf(line, "%" SCNu64 " %u %d %u %u %u %15s %31s %" SCNx32 " %" SCNx32,
			   &r->time_ns, &r->chid, &r->pid, &r->kind, &r->access, &r->unit,
			   r->unit_name, r->kind_name, &r->addr, &r->data) == 10)
			n++;
	}
	return n;
}

int smi_parse_values(const char *text, struct smi_counter *c, int max)
{
	char line[256], name[32], value[32], rest[2];
	const char *p = text;
	int n = 0;

	while (n < max && next_line(&p, line, sizeof(line))) {
		char *end;

		if (sscanf(line, "%31s %31s %1s", name, value, rest) != 2)
			continue;
		c[n].value = strtoull(value, &end, 0);
		if (end == value || *end)
			continue;
		snprintf(c[n].name, sizeof(c[n].name), "%s", name);
		n++;
	}
	return n;
}

int smi_parse_lmem(const char *text, struct smi_lmem *l)
{
	struct smi_counter v[16];
	int n = smi_parse_values(text, v, 16), i;
	bool managed = false, used = false, bos = false;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n; i++) {
		if (!strcmp(v[i].name, "MANAGED_BYTES")) {
			l->managed_bytes = v[i].value;
			managed = true;
		} else if (!strcmp(v[i].name, "USED_BYTES")) {
			l->used_bytes = v[i].value;
			used = true;
		} else if (!strcmp(v[i].name, "BOS")) {
			l->bos = v[i].value;
			bos = true;
		}
	}
	/* without local memory there is nothing to use: 0 is known */
	l->used_known = (used && bos) || (managed && !l->managed_bytes);
	return managed ? 0 : -1;
}
