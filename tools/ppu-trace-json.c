// SPDX-License-Identifier: MIT
#include "ppu-trace-json.h"

#include <stdlib.h>
#include <string.h>

/* Process ids: fixed per unit so that two traces of one setup line up. */
enum { PID_HOST = 1, PID_COPY = 2, PID_TASKS = 3, PID_CU = 16, PID_CHAN = 256, PID_API = 1024 };
/* Host processes beyond this many share the last pid. */
#define MAX_API_PROCS 256
#define MAX_PID (PID_API + MAX_API_PROCS)

struct ppu_tl_json {
	FILE *f;
	double mhz;
	int first;
	unsigned char named_pid[MAX_PID];
};

int ppu_tl_json_pid(enum ppu_tl_group g, unsigned int unit)
{
	switch (g) {
	case PPU_TL_HOST: return PID_HOST;
	case PPU_TL_COPY: return PID_COPY;
	case PPU_TL_TASKS: return PID_TASKS;
	case PPU_TL_CU: return PID_CU + (int)unit;
	case PPU_TL_CHAN: return PID_CHAN + (int)unit;
	case PPU_TL_API: return PID_API + (int)(unit < MAX_API_PROCS ? unit : MAX_API_PROCS - 1);
	}
	return 0;
}

int ppu_tl_json_tid(const struct ppu_tl_lane *l)
{
	return (int)l->row + 1;
}

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_time(const struct ppu_tl_json *j, uint64_t cycles)
{
	if (j->mhz == 1.0)
		fprintf(j->f, "%llu", (unsigned long long)cycles);
	else
		fprintf(j->f, "%.4f", (double)cycles / j->mhz);
}

static void begin_event(struct ppu_tl_json *j)
{
	fputs(j->first ? "\n" : ",\n", j->f);
	j->first = 0;
}

static void put_args(FILE *f, const struct ppu_tl_arg *a, int n, const char *extra)
{
	int i;

	fputs(",\"args\":{", f);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		put_str(f, a[i].key);
		fputc(':', f);
		if (a[i].quoted)
			put_str(f, a[i].val);
		else
			fputs(a[i].val, f);
	}
	if (extra)
		fprintf(f, "%s%s", n ? "," : "", extra);
	fputc('}', f);
}

static void on_lane(void *ctx, const struct ppu_tl_lane *l)
{
	struct ppu_tl_json *j = ctx;
	int pid = ppu_tl_json_pid(l->group, l->unit), tid = ppu_tl_json_tid(l);
	/* the host's calls first, above the device they drive */
	int order = l->group == PPU_TL_API ? -1000 + (int)l->unit :
		    l->group == PPU_TL_CHAN ? 1000 + (int)l->unit : pid;

	if (pid < (int)MAX_PID && !j->named_pid[pid]) {
		j->named_pid[pid] = 1;
		begin_event(j);
		fprintf(j->f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":", pid);
		put_str(j->f, l->group_name);
		fputs("}}", j->f);
		begin_event(j);
		fprintf(j->f, "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%d,"
			"\"args\":{\"sort_index\":%d}}", pid, order);
	}
	begin_event(j);
	fprintf(j->f, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
		pid, tid);
	put_str(j->f, l->name);
	fputs("}}", j->f);
	begin_event(j);
	fprintf(j->f, "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"sort_index\":%d}}", pid, tid, tid);
}

static void on_slice(void *ctx, const struct ppu_tl_slice *s)
{
	struct ppu_tl_json *j = ctx;
	int pid, tid;

	pid = ppu_tl_json_pid(s->where.group, s->where.unit);
	tid = (int)s->where.row + 1;
	begin_event(j);
	fputs("{\"ph\":\"X\",\"name\":", j->f);
	put_str(j->f, s->name);
	fprintf(j->f, ",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", s->cat, pid, tid);
	put_time(j, s->t0);
	fputs(",\"dur\":", j->f);
	put_time(j, s->t1 - s->t0);
	put_args(j->f, s->args, s->nargs, NULL);
	fputc('}', j->f);
}

static void on_instant(void *ctx, const struct ppu_tl_instant *in)
{
	struct ppu_tl_json *j = ctx;
	int pid, tid;

	pid = ppu_tl_json_pid(in->where.group, in->where.unit);
	tid = (int)in->where.row + 1;
	begin_event(j);
	fputs("{\"ph\":\"i\",\"name\":", j->f);
	put_str(j->f, in->name);
	fprintf(j->f, ",\"cat\":\"%s\",\"s\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":", in->cat,
		in->scope == PPU_TL_SCOPE_GLOBAL ? "g" : "t", pid, tid);
	put_time(j, in->t);
	put_args(j->f, in->args, in->nargs, NULL);
	fputc('}', j->f);
}

static void on_counter(void *ctx, enum ppu_tl_counter c, uint64_t t, int64_t v)
{
	struct ppu_tl_json *j = ctx;

	begin_event(j);
	fputs("{\"ph\":\"C\",\"name\":", j->f);
	put_str(j->f, ppu_tl_counter_names[c]);
	fprintf(j->f, ",\"pid\":%d,\"ts\":", ppu_tl_json_pid(ppu_tl_counter_group[c], 0));
	put_time(j, t);
	fprintf(j->f, ",\"args\":{\"value\":%lld}}", (long long)v);
}

static void on_flow(void *ctx, const struct ppu_tl_flow *fl)
{
	struct ppu_tl_json *j = ctx;

	/* "s" binds to the slice around it on its thread; "f" with bp "e" to the slice there */
	begin_event(j);
	fputs("{\"ph\":\"s\",\"name\":", j->f);
	put_str(j->f, fl->name);
	fprintf(j->f, ",\"cat\":\"flow\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":",
		(unsigned long long)fl->id, ppu_tl_json_pid(fl->from.group, fl->from.unit),
		(int)fl->from.row + 1);
	put_time(j, fl->t_from);
	fputc('}', j->f);
	begin_event(j);
	fputs("{\"ph\":\"f\",\"bp\":\"e\",\"name\":", j->f);
	put_str(j->f, fl->name);
	fprintf(j->f, ",\"cat\":\"flow\",\"id\":%llu,\"pid\":%d,\"tid\":%d,\"ts\":",
		(unsigned long long)fl->id, ppu_tl_json_pid(fl->to.group, fl->to.unit),
		(int)fl->to.row + 1);
	put_time(j, fl->t_to);
	fputc('}', j->f);
}

struct ppu_tl_json *ppu_tl_json_new(FILE *f, double clock_mhz, const char *source)
{
	struct ppu_tl_json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->f = f;
	j->mhz = clock_mhz > 0 ? clock_mhz : 1.0;
	j->first = 1;
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"ppu-trace\",", f);
	fprintf(f, "\"clock_mhz\":%g,\"time\":", j->mhz);
	put_str(f, j->mhz == 1.0 ? "1 device cycle = 1 us" : "us = device cycles / clock_mhz");
	if (source) {
		fputs(",\"source\":", f);
		put_str(f, source);
	}
	fputs("},\"traceEvents\":[", f);
	return j;
}

void ppu_tl_json_sink(struct ppu_tl_json *j, struct ppu_tl_sink *sink)
{
	memset(sink, 0, sizeof(*sink));
	sink->ctx = j;
	sink->lane = on_lane;
	sink->slice = on_slice;
	sink->instant = on_instant;
	sink->counter = on_counter;
	sink->flow = on_flow;
}

int ppu_tl_json_finish(struct ppu_tl_json *j)
{
	int err;

	fputs("\n]}\n", j->f);
	err = fflush(j->f) || ferror(j->f);
	free(j);
	return err ? -1 : 0;
}
