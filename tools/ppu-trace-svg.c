// SPDX-License-Identifier: MIT
#include "ppu-trace-svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * NBUCKET is about twice the default plot width, so a bucket stays narrower
 * than a pixel column and edges land on the right pixel.
 */
#define NBUCKET 4096
#define CLS_UNKNOWN 0		/* priority not known */
#define CLS_WAIT 1		/* waiting on a semaphore or for a compute unit */
#define CLS_PRIO 2		/* first of the priority colours */
#define NPRIO 10
#define NCLASS (CLS_PRIO + NPRIO)
#define NLABELS 160
#define NFAULTS 256
#define DEFAULT_WIDTH 1200
#define ROW_H 14
#define ROW_GAP 3

/* Low to high priority; spread over the priorities a picture uses. */
static const char *const ramp[NPRIO] = {
	"#3b6fb6", "#4aa3c8", "#3fa37a", "#7cb342", "#c0ca33",
	"#f2c12e", "#f29d35", "#ec6f2d", "#d94a3d", "#a8324a",
};
#define COLOR_UNKNOWN "#7f8c9a"
#define COLOR_WAIT "#c3c9d2"
#define COLOR_FAULT "#d0021b"

struct lane {
	int used;
	struct ppu_tl_lane l;
	float *cov;		/* NBUCKET x NCLASS cycles covered */
	uint16_t *starts;	/* slices starting in each bucket (saturating) */
};

struct label {
	int lane;
	uint64_t t0, t1;
	int cls;
	char name[112];
};

struct fault {
	int lane;
	uint64_t t;
};

struct group {
	char title[160];
	uint64_t origin, end;
	unsigned int shift;	/* bucket width is 1 << shift cycles */
	struct lane *lanes;
	int nlanes;
	struct label labels[NLABELS];	/* min-heap on duration */
	int nlabels;
	struct fault faults[NFAULTS];
	int nfaults;
	uint64_t faults_total;
	int any;
};

struct ppu_tl_svg {
	char title[200];
	int width;
	struct group *groups;
	int ngroups;
	int prio[NPRIO];	/* priority of each colour slot, in order of first use */
	int nprio;
	int folded[NPRIO];	/* another priority shares the slot */
	int used[NCLASS];
	int unit_waits;		/* some waits are for a compute unit (legend) */
	int used_sem_wait;	/* and some on a semaphore */
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "ppu-trace: out of memory\n");
		exit(1);
	}
	return p;
}

static int class_of(struct ppu_tl_svg *v, int prio, int wait)
{
	int i, best = 0;

	if (wait)
		return CLS_WAIT;
	if (prio < 0)
		return CLS_UNKNOWN;
	for (i = 0; i < v->nprio; i++)
		if (v->prio[i] == prio)
			return CLS_PRIO + i;
	if (v->nprio < NPRIO) {
		v->prio[v->nprio] = prio;
		return CLS_PRIO + v->nprio++;
	}
	/* more priorities than colours: share the nearest one's */
	for (i = 1; i < NPRIO; i++)
		if (abs(v->prio[i] - prio) < abs(v->prio[best] - prio))
			best = i;
	v->folded[best] = 1;
	return CLS_PRIO + best;
}

static struct lane *get_lane(struct group *g, int id)
{
	if (id >= g->nlanes) {
		g->lanes = xrealloc(g->lanes, (size_t)(id + 1) * sizeof(*g->lanes));
		memset(g->lanes + g->nlanes, 0, (size_t)(id + 1 - g->nlanes) * sizeof(*g->lanes));
		g->nlanes = id + 1;
	}
	return &g->lanes[id];
}

/* Doubles the bucket width of every lane of @g: pairs merge. */
static void widen(struct group *g)
{
	int i, b, c;

	for (i = 0; i < g->nlanes; i++) {
		struct lane *l = &g->lanes[i];

		if (!l->cov)
			continue;
		for (b = 0; b < NBUCKET / 2; b++) {
			unsigned int s = (unsigned int)l->starts[2 * b] + l->starts[2 * b + 1];

			for (c = 0; c < NCLASS; c++)
				l->cov[b * NCLASS + c] = l->cov[2 * b * NCLASS + c] +
							 l->cov[(2 * b + 1) * NCLASS + c];
			l->starts[b] = s > 0xffff ? 0xffff : (uint16_t)s;
		}
		memset(l->cov + NBUCKET / 2 * NCLASS, 0, NBUCKET / 2 * NCLASS * sizeof(float));
		memset(l->starts + NBUCKET / 2, 0, NBUCKET / 2 * sizeof(uint16_t));
	}
	g->shift++;
}

static void keep_label(struct group *g, const struct ppu_tl_slice *s, int cls)
{
	uint64_t d = s->t1 - s->t0;
	struct label *h = g->labels, tmp;
	int i;

	if (g->nlabels == NLABELS) {
		if (d <= h[0].t1 - h[0].t0)
			return;
		i = 0;	/* replace the shortest, then sift it down */
	} else {
		i = g->nlabels++;
	}
	h[i].lane = s->lane;
	h[i].t0 = s->t0;
	h[i].t1 = s->t1;
	h[i].cls = cls;
	snprintf(h[i].name, sizeof(h[i].name), "%s", s->name);
	if (i) {
		/* sift up */
		while (i > 0 && h[(i - 1) / 2].t1 - h[(i - 1) / 2].t0 > h[i].t1 - h[i].t0) {
			tmp = h[i];
			h[i] = h[(i - 1) / 2];
			h[(i - 1) / 2] = tmp;
			i = (i - 1) / 2;
		}
		return;
	}
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < g->nlabels && h[l].t1 - h[l].t0 < h[m].t1 - h[m].t0)
			m = l;
		if (r < g->nlabels && h[r].t1 - h[r].t0 < h[m].t1 - h[m].t0)
			m = r;
		if (m == i)
			break;
		tmp = h[i];
		h[i] = h[m];
		h[m] = tmp;
		i = m;
	}
}

static void on_slice(void *ctx, const struct ppu_tl_slice *s)
{
	struct ppu_tl_svg *v = ctx;
	struct group *g = &v->groups[v->ngroups - 1];
	struct lane *l = get_lane(g, s->lane);
	uint64_t r0, r1, b, w;
	int cls = class_of(v, s->prio, s->wait);

	l->used = 1;
	if (!l->cov) {
		l->cov = calloc((size_t)NBUCKET * NCLASS, sizeof(float));
		l->starts = calloc(NBUCKET, sizeof(uint16_t));
		if (!l->cov || !l->starts) {
			fprintf(stderr, "ppu-trace: out of memory\n");
			exit(1);
		}
	}
	v->used[cls] = 1;
	if (s->wait && !strcmp(s->cat, "unit_wait"))
		v->unit_waits = 1;
	else if (s->wait)
		v->used_sem_wait = 1;
	g->any = 1;
	r0 = s->t0 > g->origin ? s->t0 - g->origin : 0;
	r1 = s->t1 > g->origin ? s->t1 - g->origin : 0;
	if (r1 <= r0)
		r1 = r0 + 1;	/* an empty slice still shows as a cycle */
	if (s->t1 > g->end)
		g->end = s->t1;
	while (r1 > ((uint64_t)NBUCKET << g->shift))
		widen(g);
	w = 1ull << g->shift;
	if (l->starts[r0 >> g->shift] < 0xffff)
		l->starts[r0 >> g->shift]++;
	for (b = r0 >> g->shift; b <= (r1 - 1) >> g->shift; b++) {
		uint64_t lo = b * w > r0 ? b * w : r0, hi = (b + 1) * w < r1 ? (b + 1) * w : r1;

		l->cov[b * NCLASS + cls] += (float)(hi - lo);
	}
	keep_label(g, s, cls);
}

static void on_instant(void *ctx, const struct ppu_tl_instant *in)
{
	struct ppu_tl_svg *v = ctx;
	struct group *g = &v->groups[v->ngroups - 1];

	get_lane(g, in->lane)->used = 1;
	if (in->t > g->end)
		g->end = in->t;
	if (strcmp(in->cat, "fault"))
		return;
	g->faults_total++;
	if (g->nfaults < NFAULTS) {
		g->faults[g->nfaults].lane = in->lane;
		g->faults[g->nfaults++].t = in->t;
	}
}

static void on_lane(void *ctx, const struct ppu_tl_lane *pl)
{
	struct ppu_tl_svg *v = ctx;
	struct lane *l = get_lane(&v->groups[v->ngroups - 1], pl->id);

	l->used = 1;
	l->l = *pl;
}

struct ppu_tl_svg *ppu_tl_svg_new(const char *title, int plot_width)
{
	struct ppu_tl_svg *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	snprintf(v->title, sizeof(v->title), "%s", title ? title : "PPU timeline");
	v->width = plot_width > 0 ? plot_width : DEFAULT_WIDTH;
	return v;
}

void ppu_tl_svg_group(struct ppu_tl_svg *v, const char *title, uint64_t first_cycle,
		      struct ppu_tl_sink *sink)
{
	struct group *g;

	v->groups = xrealloc(v->groups, (size_t)(v->ngroups + 1) * sizeof(*v->groups));
	g = &v->groups[v->ngroups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->title, sizeof(g->title), "%s", title ? title : "");
	g->origin = first_cycle;
	g->end = first_cycle;
	memset(sink, 0, sizeof(*sink));
	sink->ctx = v;
	sink->lane = on_lane;
	sink->slice = on_slice;
	sink->instant = on_instant;
}

/* ---- drawing ---- */

static void put_xml(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

static const char *class_color(const struct ppu_tl_svg *v, int cls)
{
	int rank = 0, i;

	if (cls == CLS_WAIT)
		return COLOR_WAIT;
	if (cls == CLS_UNKNOWN)
		return COLOR_UNKNOWN;
	for (i = 0; i < v->nprio; i++)
		if (v->prio[i] < v->prio[cls - CLS_PRIO])
			rank++;
	if (v->nprio == 1)
		return ramp[0];
	return ramp[(rank * (NPRIO - 1) + (v->nprio - 1) / 2) / (v->nprio - 1)];
}

static void cycles_label(char *buf, size_t n, uint64_t c)
{
	if (c >= 10000000 && c % 1000000 == 0)
		snprintf(buf, n, "%lluM", (unsigned long long)(c / 1000000));
	else if (c >= 1000000 && c % 100000 == 0)
		snprintf(buf, n, "%.1fM", c / 1e6);
	else if (c >= 10000 && c % 1000 == 0)
		snprintf(buf, n, "%lluk", (unsigned long long)(c / 1000));
	else
		snprintf(buf, n, "%llu", (unsigned long long)c);
}

static uint64_t nice_step(double raw)
{
	double p = pow(10, floor(log10(raw > 1 ? raw : 1)));
	double m = raw / p;

	return (uint64_t)(p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10));
}

static int lane_cmp(const void *a, const void *b)
{
	const struct lane *x = *(const struct lane *const *)a, *y = *(const struct lane *const *)b;

	/* the host's calls on top, above the device they drive */
	if (x->l.group != y->l.group)
		return x->l.group == PPU_TL_API ? -1 : y->l.group == PPU_TL_API ? 1 :
		       (int)x->l.group - (int)y->l.group;
	if (x->l.unit != y->l.unit)
		return x->l.unit < y->l.unit ? -1 : 1;
	return x->l.row < y->l.row ? -1 : x->l.row > y->l.row;
}

struct layout {
	int x0, pw;		/* plot area */
	uint64_t t0;		/* time at x0 */
	double cpp;		/* cycles per pixel */
};

static int xpos(const struct layout *L, uint64_t t)
{
	double x = t > L->t0 ? (double)(t - L->t0) / L->cpp : 0;

	return L->x0 + (int)(x < L->pw ? x : L->pw);
}

/* One lane's bars: buckets -> pixel columns -> runs of equal columns. */
static void draw_lane(FILE *f, const struct ppu_tl_svg *v, const struct group *g,
		      const struct lane *l, const struct layout *L, int y, float *col,
		      uint32_t *starts)
{
	uint64_t w = 1ull << g->shift;
	int b, c, k, run_c = -1, run_cls = -1, run_q = 0, last_start = -10;

	memset(col, 0, (size_t)L->pw * NCLASS * sizeof(float));
	memset(starts, 0, (size_t)L->pw * sizeof(uint32_t));
	for (b = 0; b < NBUCKET; b++) {
		uint64_t bs = g->origin + (uint64_t)b * w;
		double x0 = ((double)bs - (double)L->t0) / L->cpp, x1 = x0 + (double)w / L->cpp;
		float tot = 0;

		for (k = 0; k < NCLASS; k++)
			tot += l->cov[b * NCLASS + k];
		if (tot == 0)
			continue;
		if (l->starts[b] && x0 >= 0 && x0 < L->pw)
			starts[(int)x0] += l->starts[b];
		/* spread the bucket over the columns it overlaps */
		for (c = (int)floor(x0); c < L->pw && c <= (int)floor(x1); c++) {
			double lo = c > x0 ? c : x0, hi = c + 1 < x1 ? c + 1 : x1, part;

			if (c < 0 || hi <= lo)
				continue;
			part = (hi - lo) / (x1 - x0);
			for (k = 0; k < NCLASS; k++)
				col[c * NCLASS + k] += (float)(l->cov[b * NCLASS + k] * part);
		}
	}
	for (c = 0; c <= L->pw; c++) {
		int cls = -1, q = 0, split = 0;

		if (c < L->pw) {
			float tot = 0, best = 0;

			for (k = 0; k < NCLASS; k++) {
				tot += col[c * NCLASS + k];
				if (col[c * NCLASS + k] > best) {
					best = col[c * NCLASS + k];
					cls = k;
				}
			}
			if (tot > 0) {
				double frac = tot / L->cpp;

				/* a column barely touched stays visible but faint */
				q = frac >= 0.5 ? 10 : 3 + (int)(frac * 8);
			} else {
				cls = -1;
			}
			/* show where back-to-back slices meet, where they are
			 * several pixels wide (no other start close before) */
			split = cls >= 0 && cls == run_cls && q == run_q && starts[c] == 1 &&
				c - run_c >= 3 && c - last_start >= 4;
			if (starts[c])
				last_start = c;
		}
		if (run_cls >= 0 && (cls != run_cls || q != run_q || split)) {
			int wdt = c - run_c - (split ? 1 : 0);

			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"",
				L->x0 + run_c, y, wdt > 0 ? wdt : 1, ROW_H, class_color(v, run_cls));
			if (run_q < 10)
				fprintf(f, " fill-opacity=\"0.%d\"", run_q);
			fputs("/>\n", f);
			run_cls = -1;
		}
		if (cls >= 0 && run_cls < 0) {
			run_c = c;
			run_cls = cls;
			run_q = q;
		}
	}
}

static int label_fits(const char *name, int width, char *out, size_t n)
{
	size_t len = strlen(name), fit;

	if (width < 24)
		return 0;
	fit = (size_t)((width - 6) / 6.0);
	if (len <= fit) {
		snprintf(out, n, "%s", name);
		return 1;
	}
	if (fit < 5)
		return 0;
	snprintf(out, n, "%.*s...", (int)(fit - 3), name);
	return 1;
}

int ppu_tl_svg_finish(struct ppu_tl_svg *v, FILE *f)
{
	struct layout L;
	uint64_t t1 = 0, step, t;
	int gi, i, lw = 160, height, y, err;
	float *col;
	uint32_t *starts;
	char buf[128];

	if (!f) {
		err = 0;
		goto out;
	}
	/* Time range: every group on one axis, from the earliest record. */
	L.t0 = UINT64_MAX;
	for (gi = 0; gi < v->ngroups; gi++) {
		if (v->groups[gi].origin < L.t0)
			L.t0 = v->groups[gi].origin;
		if (v->groups[gi].end > t1)
			t1 = v->groups[gi].end;
	}
	if (!v->ngroups)
		L.t0 = 0;
	/* a trace that starts soon after reset is drawn from cycle 0 */
	if (t1 > L.t0 && L.t0 < (t1 - L.t0) / 10)
		L.t0 = 0;
	if (t1 <= L.t0)
		t1 = L.t0 + 1;
	step = nice_step((double)(t1 - L.t0) / 8);
	L.t0 -= L.t0 % step;
	L.pw = v->width;
	L.cpp = (double)(t1 - L.t0) / L.pw;

	/* Layout: label column sized to the longest lane name. */
	height = 78;
	for (gi = 0; gi < v->ngroups; gi++) {
		struct group *g = &v->groups[gi];

		height += 24;
		for (i = 0; i < g->nlanes; i++) {
			if (!g->lanes[i].used)
				continue;
			height += ROW_H + ROW_GAP;
			if ((int)strlen(g->lanes[i].l.name) * 6 + 16 > lw)
				lw = (int)strlen(g->lanes[i].l.name) * 6 + 16;
		}
		height += 10;
	}
	if (lw > 420)
		lw = 420;
	L.x0 = lw + 10;
	height += 30;

	col = calloc((size_t)L.pw * NCLASS, sizeof(float));
	starts = calloc((size_t)L.pw, sizeof(uint32_t));
	if (!col || !starts) {
		fprintf(stderr, "ppu-trace: out of memory\n");
		exit(1);
	}

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"11\">\n",
		L.x0 + L.pw + 20, height, L.x0 + L.pw + 20, height);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n");
	fputs("<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">", f);
	put_xml(f, v->title);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"10\" y=\"40\" fill=\"#444\">time in device cycles; "
		"slices narrower than a pixel are merged (fainter: the column is partly busy)</text>\n");

	/* Legend: the priorities in use, low to high, then the other marks. */
	{
		int order[NPRIO], n = 0, x = 10, j;

		for (i = 0; i < v->nprio; i++)
			order[n++] = i;
		for (i = 1; i < n; i++)
			for (j = i; j > 0 && v->prio[order[j - 1]] > v->prio[order[j]]; j--) {
				int tmp = order[j];

				order[j] = order[j - 1];
				order[j - 1] = tmp;
			}
		for (i = 0; i < n; i++) {
			snprintf(buf, sizeof(buf), "priority %d%s", v->prio[order[i]],
				 v->folded[order[i]] ? " and near" : "");
			fprintf(f, "<rect x=\"%d\" y=\"50\" width=\"12\" height=\"12\" fill=\"%s\"/>"
				"<text x=\"%d\" y=\"60\">%s</text>\n", x,
				class_color(v, CLS_PRIO + order[i]), x + 16, buf);
			x += 24 + (int)strlen(buf) * 6;
		}
		if (v->used[CLS_UNKNOWN]) {
			fprintf(f, "<rect x=\"%d\" y=\"50\" width=\"12\" height=\"12\" fill=\"%s\"/>"
				"<text x=\"%d\" y=\"60\">priority not known</text>\n", x, COLOR_UNKNOWN,
				x + 16);
			x += 24 + 18 * 6;
		}
		if (v->used[CLS_WAIT]) {
			const char *what = !v->unit_waits ? "waiting on a semaphore" :
					   v->used_sem_wait ? "waiting (semaphore, compute unit)" :
					   "waiting for a compute unit";

			fprintf(f, "<rect x=\"%d\" y=\"50\" width=\"12\" height=\"12\" fill=\"%s\"/>"
				"<text x=\"%d\" y=\"60\">%s</text>\n", x, COLOR_WAIT, x + 16, what);
			x += 24 + (int)strlen(what) * 6;
		}
		fprintf(f, "<path d=\"M%d 50 l6 0 l-3 8 z\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"60\">fault</text>\n", x + 3, COLOR_FAULT, x + 16);
	}

	/* Axis labels above the plot, grid lines through every group. */
	y = 78;
	for (t = L.t0; t <= t1; t += step) {
		int x = xpos(&L, t);

		cycles_label(buf, sizeof(buf), t);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#dde1e6\"/>"
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#444\">%s</text>\n",
			x, y - 4, x, height - 26, x, y - 8, buf);
	}

	for (gi = 0; gi < v->ngroups; gi++) {
		struct group *g = &v->groups[gi];
		struct lane **order = xrealloc(NULL, (size_t)(g->nlanes + 1) * sizeof(*order));
		int n = 0, gy0, *lane_y = xrealloc(NULL, (size_t)(g->nlanes + 1) * sizeof(int));

		for (i = 0; i < g->nlanes; i++) {
			lane_y[i] = -1;
			if (g->lanes[i].used)
				order[n++] = &g->lanes[i];
		}
		qsort(order, (size_t)n, sizeof(*order), lane_cmp);
		y += 18;
		fputs("<text x=\"10\" y=\"", f);
		fprintf(f, "%d\" font-size=\"13\" font-weight=\"bold\">", y);
		put_xml(f, g->title);
		if (!g->any && !g->nfaults)
			fputs(" (no slices)", f);
		fputs("</text>\n", f);
		y += 6;
		gy0 = y;
		for (i = 0; i < n; i++) {
			struct lane *l = order[i];

			lane_y[l->l.id] = y;
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f5f7\"/>\n",
				L.x0, y, L.pw, ROW_H);
			fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", L.x0 - 6,
				y + ROW_H - 3);
			put_xml(f, l->l.name);
			fputs("</text>\n", f);
			if (l->cov)
				draw_lane(f, v, g, l, &L, y, col, starts);
			y += ROW_H + ROW_GAP;
		}
		for (i = 0; i < g->nlabels; i++) {
			const struct label *lb = &g->labels[i];
			int x0, x1;

			if (lb->lane >= g->nlanes || lane_y[lb->lane] < 0)
				continue;
			x0 = xpos(&L, lb->t0);
			x1 = xpos(&L, lb->t1);
			if (!label_fits(lb->name, x1 - x0, buf, sizeof(buf)))
				continue;
			fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"%s\">", x0 + 3,
				lane_y[lb->lane] + ROW_H - 3,
				lb->cls == CLS_WAIT ? "#222" : "#fff");
			put_xml(f, buf);
			fprintf(f, "<title>");
			put_xml(f, lb->name);
			fprintf(f, ": cycles %llu to %llu</title></text>\n",
				(unsigned long long)lb->t0, (unsigned long long)lb->t1);
		}
		for (i = 0; i < g->nfaults; i++) {
			int x = xpos(&L, g->faults[i].t), ly = g->faults[i].lane < g->nlanes ?
				lane_y[g->faults[i].lane] : -1;

			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
				"stroke-opacity=\"0.5\"/>\n", x, gy0, x, y - ROW_GAP, COLOR_FAULT);
			if (ly >= 0)
				fprintf(f, "<path d=\"M%d %d l-4 -7 l8 0 z\" fill=\"%s\"><title>fault at "
					"cycle %llu</title></path>\n", x, ly + 7, COLOR_FAULT,
					(unsigned long long)g->faults[i].t);
		}
		if (g->faults_total > (uint64_t)g->nfaults)
			fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%llu more faults not marked"
				"</text>\n", L.x0, y + 10, COLOR_FAULT,
				(unsigned long long)(g->faults_total - (uint64_t)g->nfaults));
		y += 10;
		free(order);
		free(lane_y);
	}
	for (t = L.t0; t <= t1; t += step) {
		cycles_label(buf, sizeof(buf), t);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#444\">%s</text>\n",
			xpos(&L, t), height - 14, buf);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#444\">cycles</text>\n",
		L.x0 - 6, height - 14);
	fputs("</svg>\n", f);
	err = fflush(f) || ferror(f);

	free(col);
	free(starts);
out:
	for (gi = 0; gi < v->ngroups; gi++) {
		for (i = 0; i < v->groups[gi].nlanes; i++) {
			free(v->groups[gi].lanes[i].cov);
			free(v->groups[gi].lanes[i].starts);
		}
		free(v->groups[gi].lanes);
	}
	free(v->groups);
	free(v);
	return err ? -1 : 0;
}
