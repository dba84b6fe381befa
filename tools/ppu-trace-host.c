// SPDX-License-Identifier: MIT
#include "ppu-trace-host.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/ppu_hw.h"

/* Releases and copies matched within this many cycles count as one offset. */
#define OFFSET_WINDOW 16
/* Candidate device records kept per release sync point (a value may recur). */
#define MAX_CAND 32

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "ppu-trace: out of memory\n");
		exit(1);
	}
	return p;
}

/* ---- alignment ---- */

static int point_cmp(const void *a, const void *b)
{
	const struct ppu_align_point *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Between points i and i + 1 (or the line's slope beyond the ends). */
static double interp(const struct ppu_align *al, size_t i, double t)
{
	const struct ppu_align_point *p = al->p;

	if (p[i + 1].t <= p[i].t)
		return p[i].c;
	return p[i].c + (p[i + 1].c - p[i].c) * (t - p[i].t) / (p[i + 1].t - p[i].t);
}

double ppu_align_map(const struct ppu_align *al, double t)
{
	size_t lo = 0, hi;

	if (al->method == PPU_ALIGN_LINE || al->n < 2)
		return al->n == 1 ? al->p[0].c + al->b * (t - al->p[0].t) :
				    al->a + al->b * (t - al->t_mean);
	/* Outside the points: the slope of the whole run from the nearest one. */
	if (t <= al->p[0].t)
		return al->p[0].c + al->b * (t - al->p[0].t);
	if (t >= al->p[al->n - 1].t)
		return al->p[al->n - 1].c + al->b * (t - al->p[al->n - 1].t);
	hi = al->n - 1;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (al->p[mid].t <= t)
			lo = mid;
		else
			hi = mid;
	}
	return interp(al, lo, t);
}

int ppu_align_fit(struct ppu_align *al, const struct ppu_align_point *pts, size_t n,
		  enum ppu_align_method method, double rate, char *err, size_t errlen)
{
	double st = 0, sc = 0, stt = 0, stc = 0, *loo;
	size_t i;

	memset(al, 0, sizeof(*al));
	if (!n) {
		snprintf(err, errlen, "no sync points: the host file has no SYNC line (was it "
			 "written by a libppu that traces them, and did the program open a context?)");
		return -1;
	}
	al->method = method;
	al->n = n;
	al->p = xrealloc(NULL, n * sizeof(*al->p));
	memcpy(al->p, pts, n * sizeof(*al->p));
	qsort(al->p, n, sizeof(*al->p), point_cmp);
	/* The counter never runs backwards: a later point below an earlier one is noise. */
	for (i = 1; i < n; i++)
		if (al->p[i].c < al->p[i - 1].c)
			al->p[i].c = al->p[i - 1].c;
	al->b = rate;
	if (n == 1)
		return 0;
	for (i = 0; i < n; i++)
		st += al->p[i].t;
	al->t_mean = st / (double)n;
	st = 0;
	/* Centred on the mean time: host ns are ~1e10, their squares lose the fit. */
	for (i = 0; i < n; i++) {
		double t = al->p[i].t - al->t_mean;

		st += t;
		sc += al->p[i].c;
		stt += t * t;
		stc += t * al->p[i].c;
	}
	if (stt > 0) {
		al->b = (stc - st * sc / (double)n) / (stt - st * st / (double)n);
		if (!(al->b >= 0))
			al->b = 0;
	}
	al->a = sc / (double)n - al->b * st / (double)n;
	for (i = 0; i < n; i++) {
		double r = fabs(al->a + al->b * (al->p[i].t - al->t_mean) - al->p[i].c);

		al->line_rms += r * r;
		if (r > al->line_max)
			al->line_max = r;
	}
	al->line_rms = sqrt(al->line_rms / (double)n);
	/* Leave-one-out: each inner point from its neighbours alone. */
	if (n >= 3) {
		loo = xrealloc(NULL, (n - 2) * sizeof(*loo));
		for (i = 1; i + 1 < n; i++) {
			const struct ppu_align_point *a = &al->p[i - 1], *b = &al->p[i + 1];
			double c = b->t > a->t ? a->c + (b->c - a->c) * (al->p[i].t - a->t) /
							 (b->t - a->t) : a->c;

			loo[i - 1] = fabs(c - al->p[i].c);
		}
		qsort(loo, n - 2, sizeof(*loo), dbl_cmp);
		al->loo_n = n - 2;
		al->loo_median = loo[(n - 2) / 2];
		al->loo_max = loo[n - 3];
		free(loo);
	}
	return 0;
}

void ppu_align_free(struct ppu_align *al)
{
	free(al->p);
	al->p = NULL;
	al->n = 0;
}

/* ---- parsing ---- */

static const char *const kind_names[] = {
	[PPU_HOST_CTX_CREATE] = "CTX_CREATE", [PPU_HOST_CTX_SYNC] = "CTX_SYNC",
	[PPU_HOST_CTX_DESTROY] = "CTX_DESTROY", [PPU_HOST_STREAM_CREATE] = "STREAM_CREATE",
	[PPU_HOST_STREAM_ATTACH] = "STREAM_ATTACH", [PPU_HOST_STREAM_DESTROY] = "STREAM_DESTROY",
	[PPU_HOST_STREAM_SYNC] = "STREAM_SYNC", [PPU_HOST_COPY] = "COPY",
	[PPU_HOST_CHUNK] = "CHUNK", [PPU_HOST_LAUNCH] = "LAUNCH",
	[PPU_HOST_EVENT_RECORD] = "EVENT_RECORD", [PPU_HOST_EVENT_SYNC] = "EVENT_SYNC",
	[PPU_HOST_MODULE_LOAD] = "MODULE_LOAD", [PPU_HOST_WORKQ_CREATE] = "WORKQ_CREATE",
	[PPU_HOST_SYNC] = "SYNC",
};

enum ppu_host_line ppu_host_parse_line(const char *line, struct ppu_host_ev *ev, char *err,
				       size_t errlen)
{
	const char *p = line, *k;
	char *end;
	size_t len, i;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n' || *p == '#')
		return PPU_HOST_LINE_SKIP;
	memset(ev, 0, sizeof(*ev));
	errno = 0;
	ev->t = strtoll(p, &end, 10);
	if (end == p || *end != ' ' || errno) {
		snprintf(err, errlen, "expected '<host ns> <pid> <tid> <KIND> ...'");
		return PPU_HOST_LINE_BAD;
	}
	p = end;
	ev->pid = strtol(p, &end, 10);
	if (end == p || *end != ' ') {
		snprintf(err, errlen, "expected a pid after the time");
		return PPU_HOST_LINE_BAD;
	}
	p = end;
	ev->tid = strtol(p, &end, 10);
	if (end == p || *end != ' ') {
		snprintf(err, errlen, "expected a thread id after the pid");
		return PPU_HOST_LINE_BAD;
	}
	p = end + 1;
	k = p;
	while (*p && *p != ' ' && *p != '\n')
		p++;
	len = (size_t)(p - k);
	if (!len || len >= sizeof(ev->kind_name)) {
		snprintf(err, errlen, "expected an event kind");
		return PPU_HOST_LINE_BAD;
	}
	memcpy(ev->kind_name, k, len);
	ev->kind = PPU_HOST_OTHER;
	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (kind_names[i] && !strcmp(kind_names[i], ev->kind_name))
			ev->kind = (enum ppu_host_kind)i;
	while (*p == ' ')
		p++;
	len = strcspn(p, "\r\n");
	ev->fields = xrealloc(NULL, len + 1);
	memcpy(ev->fields, p, len);
	ev->fields[len] = 0;
	ev->dur = ppu_host_num(ev, "dur", -1);
	return PPU_HOST_LINE_EVENT;
}

int ppu_host_field(const struct ppu_host_ev *ev, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	const char *p = ev->fields;

	while (p && *p) {
		const char *e = strchr(p, ' ');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			n -= kl + 1;
			if (len) {
				if (n >= len)
					n = len - 1;
				memcpy(buf, p + kl + 1, n);
				buf[n] = 0;
			}
			return 0;
		}
		p = e ? e + 1 : NULL;
	}
	return -1;
}

long long ppu_host_num(const struct ppu_host_ev *ev, const char *key, long long def)
{
	char buf[40], *end;
	long long v;

	if (ppu_host_field(ev, key, buf, sizeof(buf)))
		return def;
	errno = 0;
	v = strtoll(buf, &end, 0);
	return end == buf || *end || errno ? def : v;
}

/* ---- merging ---- */

struct rel {
	unsigned int ch;
	uint32_t va, value;
	double counter;
	int64_t cand[MAX_CAND];
	int ncand;
};

/* Device records of one channel that the flows need: BINDs and COPY_STARTs. */
struct chan_log {
	int wanted;
	uint64_t *cycle;
	unsigned char *bind;	/* 1: BIND, 0: COPY_START */
	size_t n, cap;
};

struct track {
	long pid, tid;		/* tid: a thread track */
	unsigned int ctx, stream;
	int is_stream;
	int prio, dev_prio, ch;	/* a stream's, from its latest STREAM_CREATE/ATTACH */
	int lane, unit, row;
};

struct ppu_host {
	struct ppu_host_opts o;
	char *path;
	struct ppu_host_ev *ev;
	size_t nev;
	struct rel *rel;
	size_t nrel;
	struct chan_log chan[PPU_TRACE_MAX_CHID + 1];
	struct track *tr;
	size_t ntr;
	long *procs;
	size_t nprocs;
	struct ppu_align al;
	int fitted;
	struct ppu_host_stats st;
};

static int ev_cmp(const void *a, const void *b)
{
	const struct ppu_host_ev *x = a, *y = b;

	/* by time; a call before what it contains (longer first) */
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

static int rel_cmp(const void *a, const void *b)
{
	const struct rel *x = a, *y = b;

	if (x->ch != y->ch)
		return x->ch < y->ch ? -1 : 1;
	if (x->va != y->va)
		return x->va < y->va ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

struct ppu_host *ppu_host_load(const char *path, const struct ppu_host_opts *o, char *err,
			       size_t errlen)
{
	FILE *f = fopen(path, "r");
	struct ppu_host *h;
	char *line = NULL, why[96];
	size_t cap = 0, evcap = 0, i;
	unsigned long long lineno = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	h = xrealloc(NULL, sizeof(*h));
	memset(h, 0, sizeof(*h));
	h->o = *o;
	h->path = strdup(path);
	while (getline(&line, &cap, f) >= 0) {
		struct ppu_host_ev ev;

		lineno++;
		switch (ppu_host_parse_line(line, &ev, why, sizeof(why))) {
		case PPU_HOST_LINE_SKIP:
			continue;
		case PPU_HOST_LINE_BAD:
			snprintf(err, errlen, "%s:%llu: %s", path, lineno, why);
			free(line);
			fclose(f);
			ppu_host_free(h);
			return NULL;
		case PPU_HOST_LINE_EVENT:
			break;
		}
		if (h->nev == evcap) {
			evcap = evcap ? 2 * evcap : 256;
			h->ev = xrealloc(h->ev, evcap * sizeof(*h->ev));
		}
		h->ev[h->nev++] = ev;
	}
	free(line);
	fclose(f);
	qsort(h->ev, h->nev, sizeof(*h->ev), ev_cmp);
	h->st.events = h->nev;
	for (i = 0; i < h->nev; i++) {
		const struct ppu_host_ev *e = &h->ev[i];
		long long ch = ppu_host_num(e, "ch", -1);
		char src[16];

		if (e->kind == PPU_HOST_COPY && ch >= 0 && ch <= (long long)PPU_TRACE_MAX_CHID)
			h->chan[ch].wanted = 1;
		if (e->kind != PPU_HOST_SYNC || ppu_host_field(e, "src", src, sizeof(src)))
			continue;
		if (!strcmp(src, "counter")) {
			h->st.syncs_counter++;
		} else if (!strcmp(src, "release") && ch >= 0) {
			h->rel = xrealloc(h->rel, (h->nrel + 1) * sizeof(*h->rel));
			memset(&h->rel[h->nrel], 0, sizeof(*h->rel));
			h->rel[h->nrel].ch = (unsigned int)ch;
			h->rel[h->nrel].va = (uint32_t)ppu_host_num(e, "va", 0);
			h->rel[h->nrel].value = (uint32_t)ppu_host_num(e, "value", 0);
			h->rel[h->nrel].counter = (double)ppu_host_num(e, "cycle", 0);
			h->nrel++;
		}
	}
	h->st.syncs_release = h->nrel;
	qsort(h->rel, h->nrel, sizeof(*h->rel), rel_cmp);
	return h;
}

void ppu_host_free(struct ppu_host *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nev; i++)
		free(h->ev[i].fields);
	for (i = 0; i <= PPU_TRACE_MAX_CHID; i++) {
		free(h->chan[i].cycle);
		free(h->chan[i].bind);
	}
	free(h->ev);
	free(h->rel);
	free(h->tr);
	free(h->procs);
	free(h->path);
	ppu_align_free(&h->al);
	free(h);
}

int ppu_host_chan_prio(const struct ppu_host *h, unsigned int ch)
{
	int prio = -1;
	size_t i;

	for (i = 0; i < h->nev; i++) {
		const struct ppu_host_ev *e = &h->ev[i];
		long long dp;

		if (e->kind != PPU_HOST_STREAM_CREATE && e->kind != PPU_HOST_STREAM_ATTACH &&
		    e->kind != PPU_HOST_LAUNCH)
			continue;
		if (ppu_host_num(e, "ch", -1) != (long long)ch)
			continue;
		dp = ppu_host_num(e, "dev_prio", -1);
		if (dp < 0)
			continue;
		if (prio >= 0 && prio != dp)
			return -1;
		prio = (int)dp;
	}
	return prio;
}

static void chan_push(struct chan_log *c, uint64_t cycle, int bind)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->cycle = xrealloc(c->cycle, c->cap * sizeof(*c->cycle));
		c->bind = xrealloc(c->bind, c->cap);
	}
	c->cycle[c->n] = cycle;
	c->bind[c->n++] = (unsigned char)bind;
}

void ppu_host_observe(struct ppu_host *h, const struct ppu_trace_rec *r)
{
	if (r->chid > PPU_TRACE_MAX_CHID)
		return;
	if (r->kind == PPU_TRACE_SEM_RELEASE && h->nrel) {
		struct rel key = { .ch = r->chid, .va = r->a, .value = r->b };
		size_t lo = 0, hi = h->nrel;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (rel_cmp(&h->rel[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < h->nrel && !rel_cmp(&h->rel[lo], &key); lo++)
			if (h->rel[lo].ncand < MAX_CAND)
				h->rel[lo].cand[h->rel[lo].ncand++] = (int64_t)r->cycle;
	}
	if (!h->chan[r->chid].wanted)
		return;
	if (r->kind == PPU_TRACE_BIND)
		chan_push(&h->chan[r->chid], r->cycle, 1);
	else if (r->kind == PPU_TRACE_COPY_START)
		chan_push(&h->chan[r->chid], r->cycle, 0);
}

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The trace's cycle minus the PPU's counter: the difference most matched
 * releases agree on (a release value that recurs elsewhere in the trace
 * gives candidates that scatter).
 */
static void find_offset(struct ppu_host *h)
{
	size_t n = 0, i, j, best = 0, best_i = 0;
	int64_t *d;
	int k;

	for (i = 0; i < h->nrel; i++)
		n += (size_t)h->rel[i].ncand;
	if (!n)
		return;
	d = xrealloc(NULL, n * sizeof(*d));
	n = 0;
	for (i = 0; i < h->nrel; i++)
		for (k = 0; k < h->rel[i].ncand; k++)
			d[n++] = h->rel[i].cand[k] - (int64_t)h->rel[i].counter;
	qsort(d, n, sizeof(*d), i64_cmp);
	for (i = 0, j = 0; i < n; i++) {
		while (d[i] - d[j] > OFFSET_WINDOW)
			j++;
		if (i - j + 1 > best) {
			best = i - j + 1;
			best_i = j;
		}
	}
	h->st.offset = d[best_i + best / 2];
	h->st.offset_found = 1;
	h->st.releases_matched = best;
	free(d);
}

int64_t ppu_host_cycle(const struct ppu_host *h, double t_ns)
{
	double c = ppu_align_map(&h->al, t_ns) + (double)h->st.offset;

	return c > 0 ? (int64_t)llround(c) : 0;
}

static int proc_unit(struct ppu_host *h, long pid)
{
	size_t i;

	for (i = 0; i < h->nprocs; i++)
		if (h->procs[i] == pid)
			return (int)i;
	h->procs = xrealloc(h->procs, (h->nprocs + 1) * sizeof(*h->procs));
	h->procs[h->nprocs] = pid;
	return (int)h->nprocs++;
}

static struct track *track_get(struct ppu_host *h, long pid, long tid, unsigned int ctx,
			       unsigned int stream, int is_stream)
{
	struct track *t;
	size_t i;

	for (i = 0; i < h->ntr; i++) {
		t = &h->tr[i];
		if (t->pid != pid || t->is_stream != is_stream)
			continue;
		if (is_stream ? t->ctx == ctx && t->stream == stream : t->tid == tid)
			return t;
	}
	h->tr = xrealloc(h->tr, (h->ntr + 1) * sizeof(*h->tr));
	t = &h->tr[h->ntr++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->ctx = ctx;
	t->stream = stream;
	t->is_stream = is_stream;
	t->prio = t->dev_prio = t->ch = -1;
	t->unit = proc_unit(h, pid);
	return t;
}

/* Stream calls go to the stream's track, the others to the thread's. */
static struct track *track_of(struct ppu_host *h, const struct ppu_host_ev *e)
{
	long long stream = ppu_host_num(e, "stream", -1);

	switch (e->kind) {
	case PPU_HOST_STREAM_CREATE: case PPU_HOST_STREAM_ATTACH: case PPU_HOST_STREAM_DESTROY:
	case PPU_HOST_STREAM_SYNC: case PPU_HOST_COPY: case PPU_HOST_CHUNK: case PPU_HOST_LAUNCH:
	case PPU_HOST_EVENT_RECORD:
		if (stream >= 0)
			return track_get(h, e->pid, e->tid, (unsigned int)ppu_host_num(e, "ctx", 0),
					 (unsigned int)stream, 1);
		break;
	default:
		break;
	}
	return track_get(h, e->pid, e->tid, 0, 0, 0);
}

static void add_arg(struct ppu_tl_arg *args, int *n, const char *key, const char *val,
		    int quoted)
{
	if (*n >= PPU_TL_MAX_ARGS)
		return;
	args[*n].key = key;
	snprintf(args[*n].val, sizeof(args[*n].val), "%s", val);
	args[*n].quoted = quoted;
	(*n)++;
}

static int key_is(const char *p, size_t len, const char *key)
{
	return len == strlen(key) && !strncmp(p, key, len);
}

/* Up to PPU_TL_MAX_ARGS of the event's fields, in order, as arguments. */
static void event_args(const struct ppu_host_ev *e, struct ppu_tl_arg *args, int *n,
		       char keys[][16])
{
	const char *p = e->fields;

	while (p && *p && *n < PPU_TL_MAX_ARGS) {
		const char *eq = strchr(p, '='), *sp = strchr(p, ' ');
		size_t kl, vl;
		char val[40], *end;

		if (!eq || (sp && sp < eq))
			break;
		kl = (size_t)(eq - p);
		vl = sp ? (size_t)(sp - eq - 1) : strlen(eq + 1);
		/* (the track and the slice say those already) */
		if (kl < 16 && !key_is(p, kl, "dur") && !key_is(p, kl, "ctx") &&
		    !key_is(p, kl, "stream")) {
			memcpy(keys[*n], p, kl);
			keys[*n][kl] = 0;
			snprintf(val, sizeof(val), "%.*s", (int)(vl < 39 ? vl : 39), eq + 1);
			strtoll(val, &end, 10);
			add_arg(args, n, keys[*n], val, *end || end == val);
		}
		p = sp ? sp + 1 : NULL;
	}
}

static void human_bytes(char *buf, size_t len, long long b)
{
	if (b >= (1ll << 20) && b % (1ll << 20) == 0)
		snprintf(buf, len, "%lld MiB", b >> 20);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%lld KiB", b >> 10);
	else
		snprintf(buf, len, "%lld B", b);
}

static void event_name(const struct ppu_host_ev *e, char *buf, size_t len)
{
	char a[48], b[48], c[48], d[48];

	switch (e->kind) {
	case PPU_HOST_COPY:
		human_bytes(a, sizeof(a), ppu_host_num(e, "bytes", 0));
		if (ppu_host_field(e, "src", b, sizeof(b)))
			strcpy(b, "?");
		if (ppu_host_field(e, "dst", c, sizeof(c)))
			strcpy(c, "?");
		snprintf(buf, len, "copy %s %s → %s (%lld chunk%s)", a, b, c,
			 ppu_host_num(e, "chunks", 1), ppu_host_num(e, "chunks", 1) == 1 ? "" : "s");
		break;
	case PPU_HOST_CHUNK:
		snprintf(buf, len, "chunk %lld", ppu_host_num(e, "index", 0));
		break;
	case PPU_HOST_LAUNCH:
		if (ppu_host_field(e, "fn", a, sizeof(a)))
			strcpy(a, "?");
		if (ppu_host_field(e, "grid", b, sizeof(b)))
			strcpy(b, "?");
		if (ppu_host_field(e, "cta", c, sizeof(c)))
			strcpy(c, "?");
		snprintf(buf, len, "launch %s grid %s cta %s", a, b, c);
		break;
	case PPU_HOST_EVENT_RECORD:
		snprintf(buf, len, "record event %lld", ppu_host_num(e, "event", 0));
		break;
	case PPU_HOST_EVENT_SYNC:
		snprintf(buf, len, "event %lld synchronize", ppu_host_num(e, "event", 0));
		break;
	case PPU_HOST_STREAM_SYNC:
		snprintf(buf, len, "stream synchronize");
		break;
	case PPU_HOST_STREAM_CREATE:
	case PPU_HOST_STREAM_ATTACH:
		snprintf(buf, len, "stream %lld %s: prio %lld → device %lld, channel %lld",
			 ppu_host_num(e, "stream", 0),
			 e->kind == PPU_HOST_STREAM_CREATE ? "created" : "attached again",
			 ppu_host_num(e, "prio", 0), ppu_host_num(e, "dev_prio", 0),
			 ppu_host_num(e, "ch", 0));
		break;
	case PPU_HOST_STREAM_DESTROY:
		snprintf(buf, len, "stream destroy");
		break;
	case PPU_HOST_CTX_CREATE:
		snprintf(buf, len, "context %lld create", ppu_host_num(e, "ctx", 0));
		break;
	case PPU_HOST_CTX_SYNC:
		snprintf(buf, len, "context %lld synchronize", ppu_host_num(e, "ctx", 0));
		break;
	case PPU_HOST_CTX_DESTROY:
		snprintf(buf, len, "context %lld destroy", ppu_host_num(e, "ctx", 0));
		break;
	case PPU_HOST_MODULE_LOAD:
		if (ppu_host_field(e, "module", a, sizeof(a)))
			strcpy(a, "?");
		snprintf(buf, len, "module load %s", a);
		break;
	case PPU_HOST_WORKQ_CREATE:
		snprintf(buf, len, "work queue on channel %lld", ppu_host_num(e, "ch", 0));
		break;
	case PPU_HOST_SYNC:
		if (ppu_host_field(e, "src", d, sizeof(d)))
			strcpy(d, "?");
		snprintf(buf, len, "sync point: cycle %lld (%s)", ppu_host_num(e, "cycle", 0), d);
		break;
	case PPU_HOST_OTHER:
		snprintf(buf, len, "%s", e->kind_name);
		break;
	}
}

static void name_track(const struct ppu_host *h, const struct track *t, struct ppu_tl_lane *l)
{
	char ctx[24] = "";
	size_t i;

	snprintf(l->group_name, sizeof(l->group_name), "host process %ld (libppu)", t->pid);
	if (!t->is_stream) {
		snprintf(l->name, sizeof(l->name), "host: thread %ld", t->tid);
		return;
	}
	/* The context in the name only when the process has several. */
	for (i = 0; i < h->ntr; i++)
		if (h->tr[i].pid == t->pid && h->tr[i].is_stream && h->tr[i].ctx != t->ctx)
			snprintf(ctx, sizeof(ctx), "ctx %u ", t->ctx);
	if (t->prio >= 0)
		snprintf(l->name, sizeof(l->name), "host: %sstream %u (prio %d → dev %d, ch %d)",
			 ctx, t->stream, t->prio, t->dev_prio, t->ch);
	else
		snprintf(l->name, sizeof(l->name), "host: %sstream %u", ctx, t->stream);
}

/* Flows from the host's copies to the device's COPY_STARTs (see the header). */
static void emit_flows(struct ppu_host *h, const struct ppu_tl_sink *sink)
{
	struct done_key {
		long pid;
		unsigned int ctx;
		long long ch;
	} *done = NULL;
	size_t i, j, ndone = 0;
	uint64_t id = 1;

	for (i = 0; i < h->nev; i++) {
		const struct ppu_host_ev *e = &h->ev[i];
		long long ch = ppu_host_num(e, "ch", -1);
		unsigned int ctx = (unsigned int)ppu_host_num(e, "ctx", 0);
		struct chan_log *c;
		size_t gen = 0, pos, best = (size_t)-1;
		int64_t first, bestd = INT64_MAX;
		int seen = 0;

		if (e->kind != PPU_HOST_COPY || ch < 0 || ch > (long long)PPU_TRACE_MAX_CHID)
			continue;
		/* Only at the first copy of this context to the channel: it does them all. */
		for (j = 0; j < ndone && !seen; j++)
			seen = done[j].pid == e->pid && done[j].ctx == ctx && done[j].ch == ch;
		if (seen)
			continue;
		done = xrealloc(done, (ndone + 1) * sizeof(*done));
		done[ndone++] = (struct done_key){ e->pid, ctx, ch };
		c = &h->chan[ch];
		first = ppu_host_cycle(h, (double)e->t);
		for (j = 0; j < c->n; j++) {
			int64_t d = (int64_t)c->cycle[j] - first;

			if (c->bind[j] && (d < 0 ? -d : d) < bestd) {
				bestd = d < 0 ? -d : d;
				best = j;
			}
		}
		if (best == (size_t)-1)
			gen = 0;	/* no BIND in the trace: from its start */
		else
			gen = best + 1;
		pos = gen;
		for (j = i; j < h->nev; j++) {
			const struct ppu_host_ev *x = &h->ev[j];
			long long k, chunks;
			struct track *t;

			if (x->kind != PPU_HOST_COPY || x->pid != e->pid ||
			    ppu_host_num(x, "ctx", 0) != ctx || ppu_host_num(x, "ch", -1) != ch)
				continue;
			chunks = ppu_host_num(x, "chunks", 1);
			t = track_of(h, x);
			for (k = 0; k < chunks; k++) {
				struct ppu_tl_flow fl = { 0 };

				/* the binding ends at the channel's next BIND */
				if (pos >= c->n || c->bind[pos]) {
					h->st.chunks_unmatched++;
					continue;
				}
				fl.id = id++;
				fl.name = "copy submitted -> started";
				fl.from.group = PPU_TL_API;
				fl.from.unit = (unsigned int)t->unit;
				fl.from.row = (unsigned int)t->row;
				fl.t_from = (uint64_t)ppu_host_cycle(h, (double)x->t);
				fl.to.group = PPU_TL_CHAN;
				fl.to.unit = (unsigned int)ch;
				fl.to.row = PPU_TL_CHAN_WORK;
				fl.t_to = c->cycle[pos++];
				if (sink->flow)
					sink->flow(sink->ctx, &fl);
				h->st.flows++;
			}
		}
	}
	free(done);
}

int ppu_host_emit(struct ppu_host *h, const struct ppu_tl_sink *sink, int first_lane, char *err,
		  size_t errlen)
{
	struct ppu_align_point *pts;
	size_t i, n = 0, nctr = 0;
	int rows[256] = { 0 };

	/* The counter reads where there are two; release sightings are late by the wakeup. */
	pts = xrealloc(NULL, (h->nev ? h->nev : 1) * sizeof(*pts));
	for (i = 0; i < h->nev; i++) {
		char src[16];

		if (h->ev[i].kind == PPU_HOST_SYNC && !ppu_host_field(&h->ev[i], "src", src, sizeof(src))
		    && !strcmp(src, "counter")) {
			pts[n].t = (double)h->ev[i].t;
			pts[n++].c = (double)ppu_host_num(&h->ev[i], "cycle", 0);
		}
	}
	nctr = n;
	if (nctr < 2)
		for (i = 0; i < h->nev; i++) {
			char src[16];

			if (h->ev[i].kind == PPU_HOST_SYNC &&
			    !ppu_host_field(&h->ev[i], "src", src, sizeof(src)) &&
			    !strcmp(src, "release")) {
				pts[n].t = (double)h->ev[i].t;
				pts[n++].c = (double)ppu_host_num(&h->ev[i], "cycle", 0);
			}
		}
	if (ppu_align_fit(&h->al, pts, n, h->o.method, h->o.rate, err, errlen)) {
		free(pts);
		return -1;
	}
	free(pts);
	h->fitted = 1;
	h->st.align = &h->al;
	if (h->o.have_offset) {
		h->st.offset = h->o.offset;
	} else {
		find_offset(h);
	}

	/* Tracks in the order they first appear; a stream is labelled by its latest mapping. */
	for (i = 0; i < h->nev; i++) {
		struct track *t = track_of(h, &h->ev[i]);

		if (h->ev[i].kind == PPU_HOST_STREAM_CREATE || h->ev[i].kind == PPU_HOST_STREAM_ATTACH) {
			t->prio = (int)ppu_host_num(&h->ev[i], "prio", -1);
			t->dev_prio = (int)ppu_host_num(&h->ev[i], "dev_prio", -1);
			t->ch = (int)ppu_host_num(&h->ev[i], "ch", -1);
		}
	}
	for (i = 0; i < h->ntr; i++) {
		struct track *t = &h->tr[i];
		struct ppu_tl_lane l = { 0 };
		int u = t->unit < 256 ? t->unit : 255;

		t->row = rows[u]++;
		t->lane = first_lane + (int)i;
		l.id = t->lane;
		l.group = PPU_TL_API;
		l.unit = (unsigned int)t->unit;
		l.row = (unsigned int)t->row;
		name_track(h, t, &l);
		if (sink->lane)
			sink->lane(sink->ctx, &l);
	}
	h->st.tracks = h->ntr;

	for (i = 0; i < h->nev; i++) {
		const struct ppu_host_ev *e = &h->ev[i];
		struct track *t = track_of(h, e);
		char keys[PPU_TL_MAX_ARGS][16];
		uint64_t t0 = (uint64_t)ppu_host_cycle(h, (double)e->t);

		if (e->dur >= 0) {
			struct ppu_tl_slice s = { 0 };
			uint64_t t1 = (uint64_t)ppu_host_cycle(h, (double)(e->t + e->dur));

			s.lane = t->lane;
			s.where.group = PPU_TL_API;
			s.where.unit = (unsigned int)t->unit;
			s.where.row = (unsigned int)t->row;
			s.t0 = t0;
			s.t1 = t1 > t0 ? t1 : t0;
			s.cat = "host";
			event_name(e, s.name, sizeof(s.name));
			s.prio = t->is_stream ? t->dev_prio : -1;
			s.wait = e->kind == PPU_HOST_STREAM_SYNC || e->kind == PPU_HOST_EVENT_SYNC ||
				 e->kind == PPU_HOST_CTX_SYNC;
			event_args(e, s.args, &s.nargs, keys);
			if (sink->slice)
				sink->slice(sink->ctx, &s);
		} else {
			struct ppu_tl_instant in = { 0 };

			in.lane = t->lane;
			in.where.group = PPU_TL_API;
			in.where.unit = (unsigned int)t->unit;
			in.where.row = (unsigned int)t->row;
			in.t = t0;
			in.cat = e->kind == PPU_HOST_SYNC ? "sync" : "host";
			in.scope = PPU_TL_SCOPE_LANE;
			event_name(e, in.name, sizeof(in.name));
			event_args(e, in.args, &in.nargs, keys);
			if (sink->instant)
				sink->instant(sink->ctx, &in);
		}
	}
	emit_flows(h, sink);
	return 0;
}

const struct ppu_host_stats *ppu_host_get_stats(const struct ppu_host *h)
{
	return &h->st;
}
