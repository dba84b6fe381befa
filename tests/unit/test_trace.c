// SPDX-License-Identifier: MIT
/*
 * The trace converter (tools/ppu-trace*): the record parser against the
 * names of ppu_trace.def, the timeline model on recorded traces of the
 * SEEDS §B worked example (the patent's copy order on the copy engine lane,
 * the low channel's semaphore wait, no overlap on any lane, every copy
 * matched) and on small written traces (unmatched copies, faults, the task
 * table and compute units), the tool's JSON and SVG read back by real
 * parsers (python3's json and xml.etree), and a 2-million-record trace
 * converted within a time and memory bound.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ppu/ppu_hw.h"
#include "ppu-trace-model.h"
#include "ppu-trace-parse.h"

#define DATA "tests/data/"

/* ---- a sink that keeps everything, for structure checks ---- */

struct rec {
	struct ppu_tl_slice *s;
	int ns, caps;
	struct ppu_tl_instant *in;
	int ni, capi;
	struct ppu_tl_lane lanes[256];
	int nl;
	struct {
		enum ppu_tl_counter c;
		uint64_t t;
		int64_t v;
	} cnt[4096];
	int nc;
};

static void r_slice(void *ctx, const struct ppu_tl_slice *s)
{
	struct rec *r = ctx;

	if (r->ns == r->caps) {
		r->caps = r->caps ? 2 * r->caps : 64;
		r->s = realloc(r->s, (size_t)r->caps * sizeof(*r->s));
		ck_assert_ptr_nonnull(r->s);
	}
	r->s[r->ns++] = *s;
}

static void r_instant(void *ctx, const struct ppu_tl_instant *in)
{
	struct rec *r = ctx;

	if (r->ni == r->capi) {
		r->capi = r->capi ? 2 * r->capi : 64;
		r->in = realloc(r->in, (size_t)r->capi * sizeof(*r->in));
		ck_assert_ptr_nonnull(r->in);
	}
	r->in[r->ni++] = *in;
}

static void r_lane(void *ctx, const struct ppu_tl_lane *l)
{
	struct rec *r = ctx;

	ck_assert_int_lt(r->nl, 256);
	r->lanes[r->nl++] = *l;
}

static void r_counter(void *ctx, enum ppu_tl_counter c, uint64_t t, int64_t v)
{
	struct rec *r = ctx;

	ck_assert_int_lt(r->nc, 4096);
	r->cnt[r->nc].c = c;
	r->cnt[r->nc].t = t;
	r->cnt[r->nc++].v = v;
}

static void rec_free(struct rec *r)
{
	free(r->s);
	free(r->in);
	free(r);
}

/* Parses and models @f (stdio) into a new recording; stats copied out. */
static struct rec *model_file(FILE *f, const char *prio_args, struct ppu_tl_stats *st)
{
	struct rec *r = calloc(1, sizeof(*r));
	struct ppu_tl_sink sink = { r, r_lane, r_slice, r_instant, r_counter, NULL };
	struct ppu_tl_model *m;
	struct ppu_trace_chan_note note;
	struct ppu_trace_rec tr;
	char line[512], err[96];

	ck_assert_ptr_nonnull(r);
	m = ppu_tl_model_new(&sink);
	if (prio_args) {
		/* "CH=P,CH=P": what --chan-prio gives the tool */
		const char *p = prio_args;

		while (*p) {
			unsigned int ch, pr;
			int n;

			ck_assert_int_eq(sscanf(p, "%u=%u%n", &ch, &pr, &n), 2);
			ppu_tl_set_chan(m, ch, (int)pr, NULL);
			p += n;
			if (*p == ',')
				p++;
		}
	}
	while (fgets(line, sizeof(line), f)) {
		enum ppu_trace_line k = ppu_trace_parse_line(line, &tr, &note, err, sizeof(err));

		ck_assert_msg(k != PPU_TRACE_LINE_BAD, "bad line '%s': %s", line, err);
		if (k == PPU_TRACE_LINE_CHAN_NOTE)
			ppu_tl_set_chan(m, note.chid, note.prio, note.label);
		if (k == PPU_TRACE_LINE_RECORD)
			ck_assert_int_eq(ppu_tl_feed(m, &tr), 0);
	}
	ppu_tl_finish(m);
	*st = *ppu_tl_get_stats(m);
	ppu_tl_model_free(m);
	return r;
}

static struct rec *model_path(const char *path, const char *prio, struct ppu_tl_stats *st)
{
	FILE *f = fopen(path, "r");
	struct rec *r;

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	r = model_file(f, prio, st);
	fclose(f);
	return r;
}

static struct rec *model_text(const char *text, struct ppu_tl_stats *st)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct rec *r;

	ck_assert_ptr_nonnull(f);
	r = model_file(f, NULL, st);
	fclose(f);
	return r;
}

static const struct ppu_tl_lane *lane_at(const struct rec *r, enum ppu_tl_group g,
					 unsigned int unit, unsigned int row)
{
	int i;

	for (i = 0; i < r->nl; i++)
		if (r->lanes[i].group == g && r->lanes[i].unit == unit && r->lanes[i].row == row)
			return &r->lanes[i];
	return NULL;
}

static const char *arg(const struct ppu_tl_arg *a, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(a[i].key, key))
			return a[i].val;
	return NULL;
}

/* Slices of lane @id in start order (they are handed over in end order). */
static int lane_slices(const struct rec *r, int id, const struct ppu_tl_slice **out, int max)
{
	int i, j, n = 0;

	for (i = 0; i < r->ns; i++)
		if (r->s[i].lane == id && n < max)
			out[n++] = &r->s[i];
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && out[j - 1]->t0 > out[j]->t0; j--) {
			const struct ppu_tl_slice *t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

static void assert_no_overlap(const struct rec *r)
{
	const struct ppu_tl_slice *v[4096];
	int l, i, n;

	for (l = 0; l < r->nl; l++) {
		n = lane_slices(r, r->lanes[l].id, v, 4096);
		ck_assert_int_lt(n, 4096);
		for (i = 0; i < n; i++) {
			ck_assert_uint_le(v[i]->t0, v[i]->t1);
			if (i)
				ck_assert_msg(v[i - 1]->t1 <= v[i]->t0,
					      "lane %s: [%llu,%llu) overlaps [%llu,%llu)", r->lanes[l].name,
					      (unsigned long long)v[i - 1]->t0,
					      (unsigned long long)v[i - 1]->t1,
					      (unsigned long long)v[i]->t0, (unsigned long long)v[i]->t1);
		}
	}
}

/* ---- parser ---- */

START_TEST(parse_reads_the_harness_format)
{
	struct ppu_trace_rec r;
	struct ppu_trace_chan_note n;
	char err[96];

	ck_assert_int_eq(ppu_trace_parse_line("2313 COPY_START ch=1 a=0x001a6000 b=0x00004000\n",
					      &r, &n, err, sizeof(err)), PPU_TRACE_LINE_RECORD);
	ck_assert_uint_eq(r.cycle, 2313);
	ck_assert_uint_eq(r.kind, PPU_TRACE_COPY_START);
	ck_assert_uint_eq(r.chid, 1);
	ck_assert_uint_eq(r.a, 0x1a6000);
	ck_assert_uint_eq(r.b, 0x4000);
	ck_assert_int_eq(ppu_trace_parse_line("18446744073709551615 LAUNCH_FAIL ch=4095 a=0xffffffff "
					      "b=0x0", &r, &n, err, sizeof(err)),
			 PPU_TRACE_LINE_RECORD);
	ck_assert_uint_eq(r.cycle, UINT64_MAX);
	ck_assert_uint_eq(r.chid, (1u << PPU_CHID_BITS) - 1);
	ck_assert_uint_eq(r.kind, PPU_TRACE_LAUNCH_FAIL);
	ck_assert_uint_eq(r.a, 0xffffffffu);
}
END_TEST

START_TEST(parse_skips_unknown_kinds_and_comments)
{
	struct ppu_trace_rec r;
	struct ppu_trace_chan_note n;
	char err[96];

	ck_assert_int_eq(ppu_trace_parse_line("9 UNKNOWN_77 ch=0 a=0x0 b=0x0", &r, &n, err, sizeof(err)),
			 PPU_TRACE_LINE_UNKNOWN_KIND);
	ck_assert_int_eq(ppu_trace_parse_line("9 WARP_DRIVE ch=0 a=0x0 b=0x0", &r, &n, err, sizeof(err)),
			 PPU_TRACE_LINE_UNKNOWN_KIND);
	ck_assert_int_eq(ppu_trace_parse_line("# recorded on tuesday", &r, &n, err, sizeof(err)),
			 PPU_TRACE_LINE_SKIP);
	ck_assert_int_eq(ppu_trace_parse_line("   \n", &r, &n, err, sizeof(err)), PPU_TRACE_LINE_SKIP);
	ck_assert_int_eq(ppu_trace_parse_line("# chan 3 prio 7 label big copies\n", &r, &n, err,
					      sizeof(err)), PPU_TRACE_LINE_CHAN_NOTE);
	ck_assert_uint_eq(n.chid, 3);
	ck_assert_int_eq(n.prio, 7);
	ck_assert_str_eq(n.label, "big copies");
	ck_assert_int_eq(ppu_trace_parse_line("# chan 4 prio 0", &r, &n, err, sizeof(err)),
			 PPU_TRACE_LINE_CHAN_NOTE);
	ck_assert_str_eq(n.label, "");
}
END_TEST

START_TEST(parse_rejects_malformed_lines)
{
	static const char *const bad[] = {
		"COPY_START ch=1 a=0x1 b=0x2",		/* no cycle */
		"12 COPY_START a=0x1 b=0x2",		/* no ch */
		"12 COPY_START ch=4096 a=0x1 b=0x2",	/* ch wider than CHID_BITS */
		"12 COPY_START ch=1 a=0x1ffffffff b=0x2",	/* a wider than 32 bits */
		"12 COPY_START ch=1 a=zz b=0x2",
		"12 COPY_START ch=1 a=0x1 b=0x2 extra",
		"12",
		"12x COPY_START ch=1 a=0x1 b=0x2",
	};
	struct ppu_trace_rec r;
	struct ppu_trace_chan_note n;
	char err[96];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(ppu_trace_parse_line(bad[i], &r, &n, err, sizeof(err)) ==
			      PPU_TRACE_LINE_BAD, "accepted '%s'", bad[i]);
		ck_assert_msg(err[0], "no reason for '%s'", bad[i]);
	}
}
END_TEST

START_TEST(kind_names_come_from_the_def)
{
	unsigned int k, named = 0;

	for (k = 0; k < 256; k++) {
		const char *n = ppu_trace_kind_name(k);

		if (!n)
			continue;
		named++;
		ck_assert_int_eq(ppu_trace_kind_of(n, strlen(n)), (int)k);
	}
	/* every record kind of ppu_trace.def, DOORBELL .. CHAN_LOAD */
	ck_assert_uint_eq(named, PPU_TRACE_CHAN_LOAD - PPU_TRACE_DOORBELL + 1);
	ck_assert_str_eq(ppu_trace_kind_name(PPU_TRACE_SEM_ACQ_FAIL), "SEM_ACQ_FAIL");
	/* SWITCH_REASON values share numbers with kinds but are not kinds */
	ck_assert_int_eq(ppu_trace_kind_of("TIMESLICE", 9), -1);
}
END_TEST

/* ---- the model on recorded traces ---- */

/* The channels, in order, of the copies on the copy engine lane. */
static void copy_order(const struct rec *r, unsigned int *ch, int max, int *n)
{
	const struct ppu_tl_lane *ce = lane_at(r, PPU_TL_COPY, 0, 0);
	const struct ppu_tl_slice *v[64];
	int i;

	ck_assert_ptr_nonnull(ce);
	*n = lane_slices(r, ce->id, v, 64);
	ck_assert_int_le(*n, max);
	for (i = 0; i < *n; i++) {
		ck_assert_str_eq(v[i]->cat, "copy");
		ck_assert_str_eq(arg(v[i]->args, v[i]->nargs, "bytes"), "16384");
		ch[i] = (unsigned int)atoi(arg(v[i]->args, v[i]->nargs, "channel"));
	}
}

START_TEST(model_worked_example_semaphores_keeps_the_patent_order)
{
	static const unsigned int patent[5] = { 0, 1, 1, 0, 0 };	/* Mlow1 Mhigh1 Mhigh2 Mlow2 Mlow3 */
	struct ppu_tl_stats st;
	struct rec *r = model_path(DATA "seeds-b-semaphores.trace", "0=0,1=1", &st);
	const struct ppu_tl_slice *w[16];
	unsigned int ch[8];
	int n, i, waits = 0;

	/* host, copy engine, and scheduling + work of the two channels */
	ck_assert_int_eq(r->nl, 6);
	ck_assert_ptr_nonnull(lane_at(r, PPU_TL_HOST, 0, 0));
	ck_assert_str_eq(lane_at(r, PPU_TL_COPY, 0, 0)->name, "copy engine");
	ck_assert_str_eq(lane_at(r, PPU_TL_CHAN, 1, PPU_TL_CHAN_WORK)->name,
			 "channel 1 (copy), prio 1 work");
	copy_order(r, ch, 8, &n);
	ck_assert_int_eq(n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(ch[i], patent[i]);
	ck_assert_uint_eq(st.copy_start_unmatched, 0);
	ck_assert_uint_eq(st.copy_end_unmatched, 0);
	ck_assert_uint_eq(st.records, 149);

	/* C_low's failed acquire waits on S_high until C_high's last dec */
	n = lane_slices(r, lane_at(r, PPU_TL_CHAN, 0, PPU_TL_CHAN_WORK)->id, w, 16);
	for (i = 0; i < n; i++) {
		if (strcmp(w[i]->cat, "sem_wait"))
			continue;
		waits++;
		ck_assert_int_eq(w[i]->wait, 1);
		ck_assert_str_eq(arg(w[i]->args, w[i]->nargs, "semaphore"), "0x00186000");
		ck_assert_uint_eq(w[i]->t0, 2439);
		ck_assert_uint_eq(w[i]->t1, 6795);
		ck_assert_int_eq(w[i]->prio, 0);
		ck_assert_str_eq(arg(w[i]->args, w[i]->nargs, "retries"), "17");
	}
	ck_assert_int_eq(waits, 1);
	assert_no_overlap(r);
	/* nothing faulted */
	for (i = 0; i < r->ni; i++)
		ck_assert_str_ne(r->in[i].cat, "fault");
	rec_free(r);
}
END_TEST

START_TEST(model_worked_example_prior_art_interleaves)
{
	static const unsigned int prior[5] = { 0, 1, 0, 1, 0 };
	struct ppu_tl_stats st;
	struct rec *r = model_path(DATA "seeds-b-prior-art.trace", NULL, &st);
	unsigned int ch[8];
	int n, i;

	copy_order(r, ch, 8, &n);
	ck_assert_int_eq(n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(ch[i], prior[i]);
	/* no semaphores: no waits anywhere; priority unknown without notes */
	for (i = 0; i < r->ns; i++) {
		ck_assert_str_ne(r->s[i].cat, "sem_wait");
		ck_assert_int_eq(r->s[i].prio, -1);
	}
	assert_no_overlap(r);
	rec_free(r);
}
END_TEST

START_TEST(model_chunked_copies_all_matched)
{
	struct ppu_tl_stats st;
	struct rec *r = model_path(DATA "copy-latency-chunked.trace", NULL, &st);
	const struct ppu_tl_slice *v[512];
	int n, i, high = 0, max_copies = 0;

	n = lane_slices(r, lane_at(r, PPU_TL_COPY, 0, 0)->id, v, 512);
	/* 1 high copy alone, 8 x 16 chunks of low copies, the high copy again */
	ck_assert_int_eq(n, 1 + 8 * 16 + 1);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(v[i]->unfinished, 0);
		if (!strcmp(arg(v[i]->args, v[i]->nargs, "channel"), "1")) {
			high++;
			ck_assert_str_eq(arg(v[i]->args, v[i]->nargs, "bytes"), "65536");
		}
	}
	ck_assert_int_eq(high, 2);
	ck_assert_uint_eq(st.copy_start_unmatched, 0);
	ck_assert_uint_eq(st.copy_end_unmatched, 0);
	/* one copy engine: never more than one copy in flight, back to 0 */
	for (i = 0; i < r->nc; i++)
		if (r->cnt[i].c == PPU_TL_CNT_COPIES && r->cnt[i].v > max_copies)
			max_copies = (int)r->cnt[i].v;
	ck_assert_int_eq(max_copies, 1);
	assert_no_overlap(r);
	rec_free(r);
}
END_TEST

/* ---- the model on small written traces ---- */

START_TEST(model_reports_unmatched_copies)
{
	static const char text[] =
		"10 BIND ch=2 a=0x1 b=0x1\n"
		"11 CHAN_SWITCH ch=2 a=0xffffffff b=0x0\n"
		"20 COPY_END ch=2 a=0x5000 b=0x100\n"	/* no start */
		"30 COPY_START ch=2 a=0x4000 b=0x100\n"
		"40 GP_FETCH ch=2 a=0x1 b=0x0\n";	/* trace ends mid-copy */
	struct ppu_tl_stats st;
	struct rec *r = model_text(text, &st);
	const struct ppu_tl_slice *v[4];

	ck_assert_uint_eq(st.copy_end_unmatched, 1);
	ck_assert_uint_eq(st.copy_start_unmatched, 1);
	ck_assert_int_eq(lane_slices(r, lane_at(r, PPU_TL_COPY, 0, 0)->id, v, 4), 1);
	ck_assert_int_eq(v[0]->unfinished, 1);
	ck_assert_uint_eq(v[0]->t0, 30);
	ck_assert_uint_eq(v[0]->t1, 40);
	ck_assert_str_eq(lane_at(r, PPU_TL_CHAN, 2, 0)->group_name, "channel 2 (copy)");
	rec_free(r);
}
END_TEST

/* Ids are 12 bits: 0xff is channel 255, "none" is TRACE_CHID_NONE. */
START_TEST(model_takes_12_bit_channel_ids)
{
	static const char text[] =
		"# chan 4095 prio 1 label top\n"
		"10 BIND ch=255 a=0x1 b=0x1\n"
		"11 CHAN_SWITCH ch=255 a=0xffffffff b=0x7\n"
		"20 BIND ch=4095 a=0x1 b=0x1\n"
		"21 CHAN_SWITCH ch=4095 a=0x000000ff b=0x7\n"
		"30 CHAN_IDLE ch=4095 a=0x0 b=0x0\n";
	struct ppu_tl_stats st;
	struct rec *r = model_text(text, &st);
	int i, n = 0;

	ck_assert_uint_gt(PPU_TRACE_CHID_NONE, PPU_TRACE_MAX_CHID);
	for (i = 0; i < r->ni; i++) {
		const char *prev;

		if (strcmp(r->in[i].cat, "priority"))
			continue;
		prev = arg(r->in[i].args, r->in[i].nargs, "previous");
		if (r->in[i].t == 11) {
			ck_assert_ptr_null(prev);
			ck_assert_str_eq(arg(r->in[i].args, r->in[i].nargs, "channel"), "255");
		} else {
			ck_assert_uint_eq(r->in[i].t, 21);
			ck_assert_str_eq(prev, "255");
			ck_assert_str_eq(arg(r->in[i].args, r->in[i].nargs, "channel"), "4095");
		}
		n++;
	}
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(lane_at(r, PPU_TL_CHAN, 4095, 0)->group_name, "channel 4095 (copy) top, prio 1");
	assert_no_overlap(r);
	rec_free(r);
}
END_TEST

START_TEST(model_fault_is_a_global_instant_and_ends_the_channel)
{
	static const char text[] =
		"# chan 3 prio 2 label victim\n"
		"5 BIND ch=3 a=0x1 b=0x3\n"
		"6 CHAN_SWITCH ch=3 a=0xffffffff b=0x0\n"
		"9 COPY_START ch=3 a=0x4000 b=0x1000\n"
		"50 FAULT ch=3 a=0x00010203 b=0xdead0000\n"
		"51 NONSTALL ch=4 a=0x0 b=0x0\n"
		"60 CHAN_SWITCH ch=4 a=0xffffffff b=0x0\n"
		"70 CHAN_IDLE ch=4 a=0x1 b=0x0\n";
	struct ppu_tl_stats st;
	struct rec *r = model_text(text, &st);
	int i, faults = 0, nonstall = 0, copies = 0;

	for (i = 0; i < r->ni; i++) {
		if (!strcmp(r->in[i].cat, "fault")) {
			faults++;
			ck_assert_int_eq(r->in[i].scope, PPU_TL_SCOPE_GLOBAL);
			ck_assert_uint_eq(r->in[i].t, 50);
			ck_assert_str_eq(arg(r->in[i].args, r->in[i].nargs, "address"), "0xdead0000");
		}
		if (!strcmp(r->in[i].cat, "nonstall")) {
			nonstall++;
			ck_assert_int_eq(r->in[i].scope, PPU_TL_SCOPE_LANE);
		}
	}
	ck_assert_int_eq(faults, 1);
	ck_assert_int_eq(nonstall, 1);
	for (i = 0; i < r->ns; i++) {
		if (r->s[i].where.group == PPU_TL_COPY) {
			copies++;
			ck_assert_uint_eq(r->s[i].t1, 50);	/* ended by the fault */
			ck_assert_str_eq(arg(r->s[i].args, r->s[i].nargs, "ended"), "fault");
			ck_assert_int_eq(r->s[i].prio, 2);
			ck_assert_str_eq(r->s[i].name, "channel 3 victim: copy 4 KiB");
		}
		if (r->s[i].where.group == PPU_TL_CHAN && r->s[i].where.unit == 3 &&
		    !strcmp(r->s[i].cat, "resident"))
			ck_assert_uint_eq(r->s[i].t1, 50);
	}
	ck_assert_int_eq(copies, 1);
	ck_assert_uint_eq(st.copy_start_unmatched, 0);
	ck_assert_str_eq(lane_at(r, PPU_TL_CHAN, 3, 0)->group_name, "channel 3 (copy) victim, prio 2");
	assert_no_overlap(r);
	rec_free(r);
}
END_TEST

START_TEST(model_tasks_and_ctas)
{
	/* task 1 (prio 0) fills CU 0 with two CTAs; task 2 (prio 5) arrives,
	 * evicts it from slot 0 and preempts one CTA, runs, completes; task 1
	 * resumes and completes */
	static const char text[] =
		"100 TASK_LAUNCH ch=4 a=0x00000001 b=0xff\n"
		"110 TASK_ACTIVATE ch=4 a=0x00000001 b=0x10000\n"
		"120 CTA_DISPATCH ch=4 a=0x00000001 b=0x0\n"
		"121 CTA_DISPATCH ch=4 a=0x00000101 b=0x1\n"
		"200 TASK_LAUNCH ch=5 a=0x00000502 b=0xff\n"
		"205 TASK_EVICT ch=4 a=0x00000001 b=0x10000\n"
		"206 TASK_ACTIVATE ch=5 a=0x00050002 b=0x20000\n"
		"210 CTA_PREEMPT ch=4 a=0x00000101 b=0x1\n"
		"230 CTA_SAVED ch=4 a=0x00000101 b=0x1\n"
		"231 CTA_DISPATCH ch=5 a=0x00000002 b=0x0\n"
		"300 CTA_EXIT ch=5 a=0x00000002 b=0x0\n"
		"301 TASK_COMPLETE ch=5 a=0x00000002 b=0x20000\n"
		"310 TASK_ACTIVATE ch=4 a=0x00000001 b=0x10000\n"
		"311 CTA_RESUME ch=4 a=0x00000101 b=0x1\n"
		"350 CTA_EXIT ch=4 a=0x00000001 b=0x0\n"
		"400 CTA_EXIT ch=4 a=0x00000101 b=0x1\n"
		"401 TASK_COMPLETE ch=4 a=0x00000001 b=0x10000\n";
	static const int64_t active[] = { 1, 0, 1, 0, 1, 0 };
	static const int64_t pending[] = { 1, 0, 1, 2, 1, 0 };
	struct ppu_tl_stats st;
	struct rec *r = model_text(text, &st);
	const struct ppu_tl_slice *v[8];
	int i, na = 0, np = 0, preempts = 0, evicts = 0;

	ck_assert_ptr_nonnull(lane_at(r, PPU_TL_TASKS, 0, 0));
	ck_assert_str_eq(lane_at(r, PPU_TL_TASKS, 0, 0)->name, "task table slot 0");
	/* two CTAs at once on CU 0: two rows */
	ck_assert_str_eq(lane_at(r, PPU_TL_CU, 0, 0)->name, "CU 0");
	ck_assert_str_eq(lane_at(r, PPU_TL_CU, 0, 1)->name, "CU 0 row 1");
	ck_assert_ptr_null(lane_at(r, PPU_TL_CU, 0, 2));
	ck_assert_str_eq(lane_at(r, PPU_TL_CHAN, 5, 0)->group_name, "channel 5 (compute)");

	/* slot 0: task 1, task 2, task 1 again */
	ck_assert_int_eq(lane_slices(r, lane_at(r, PPU_TL_TASKS, 0, 0)->id, v, 8), 3);
	ck_assert_str_eq(v[0]->name, "task 1 (ch 4, prio 0)");
	ck_assert_str_eq(arg(v[0]->args, v[0]->nargs, "ended"), "evicted");
	ck_assert_str_eq(v[1]->name, "task 2 (ch 5, prio 5)");
	ck_assert_int_eq(v[1]->prio, 5);
	ck_assert_uint_eq(v[1]->t0, 206);
	ck_assert_uint_eq(v[1]->t1, 301);
	ck_assert_str_eq(arg(v[2]->args, v[2]->nargs, "ended"), "complete");

	/* CU 0 row 1: CTA 1 until saved, task 2's CTA in its place, CTA 1 back */
	ck_assert_int_eq(lane_slices(r, lane_at(r, PPU_TL_CU, 0, 1)->id, v, 8), 3);
	ck_assert_uint_eq(v[0]->t1, 230);
	ck_assert_str_eq(arg(v[0]->args, v[0]->nargs, "ended"), "saved: preempted");
	ck_assert_str_eq(v[1]->name, "task 2 CTA 0");
	ck_assert_int_eq(v[1]->prio, 5);
	ck_assert_str_eq(v[2]->name, "task 1 CTA 1 (resumed)");
	ck_assert_str_eq(arg(v[2]->args, v[2]->nargs, "ended"), "exit");

	for (i = 0; i < r->nc; i++) {
		if (r->cnt[i].c == PPU_TL_CNT_ACTIVE_TASKS) {
			ck_assert_int_lt(na, 6);
			ck_assert_int_eq(r->cnt[i].v, active[na++]);
		}
		if (r->cnt[i].c == PPU_TL_CNT_PENDING_TASKS) {
			ck_assert_int_lt(np, 6);
			ck_assert_int_eq(r->cnt[i].v, pending[np++]);
		}
	}
	ck_assert_int_eq(na, 6);
	ck_assert_int_eq(np, 6);
	for (i = 0; i < r->ni; i++) {
		preempts += !strncmp(r->in[i].name, "preempt task 1 CTA 1", 20);
		evicts += !strcmp(r->in[i].name, "evict task 1 (prio 0)");
	}
	ck_assert_int_eq(preempts, 1);
	ck_assert_int_eq(evicts, 1);
	ck_assert_uint_eq(st.out_of_range, 0);
	assert_no_overlap(r);
	rec_free(r);
}
END_TEST

START_TEST(model_kernels_row_shows_waits_for_a_unit)
{
	/* task 1 (ch 0, prio 0) runs CTAs on CU 0 back to back; task 2 (ch 1,
	 * prio 40) is launched, waits for the unit until CTA 1 of task 1 is
	 * saved, runs; CTA 1 resumes; both complete */
	static const char text[] =
		"100 TASK_LAUNCH ch=0 a=0x00010001 b=0xff\n"
		"102 TASK_ACTIVATE ch=0 a=0x00000001 b=0x10000\n"
		"104 CTA_DISPATCH ch=0 a=0x00000001 b=0x0\n"
		"150 CTA_EXIT ch=0 a=0x00000001 b=0x0\n"
		"152 CTA_DISPATCH ch=0 a=0x00000001 b=0x1\n"
		"200 TASK_LAUNCH ch=1 a=0x00012802 b=0xff\n"
		"202 TASK_ACTIVATE ch=1 a=0x00280102 b=0x20000\n"
		"203 CTA_PREEMPT ch=0 a=0x00000001 b=0x1\n"
		"250 CTA_SAVED ch=0 a=0x00000001 b=0x1\n"
		"251 CTA_DISPATCH ch=1 a=0x00000002 b=0x0\n"
		"300 CTA_EXIT ch=1 a=0x00000002 b=0x0\n"
		"301 CTA_RESUME ch=0 a=0x00000001 b=0x1\n"
		"305 TASK_COMPLETE ch=1 a=0x00000102 b=0x20000\n"
		"400 CTA_EXIT ch=0 a=0x00000001 b=0x1\n"
		"401 TASK_COMPLETE ch=0 a=0x00000001 b=0x10000\n";
	/* [t0, t1), waiting; the gap 150..152 between two CTAs of a started
	 * task and 300..305 after the last one are not waits */
	static const uint64_t fill[][3] = {
		{ 100, 104, 1 }, { 104, 150, 0 }, { 152, 250, 0 }, { 250, 301, 1 }, { 301, 400, 0 },
	};
	static const uint64_t small[][3] = { { 200, 251, 1 }, { 251, 300, 0 } };
	struct ppu_tl_stats st;
	struct rec *r = model_text(text, &st);
	const struct ppu_tl_slice *v[8];
	int i;

	ck_assert_str_eq(lane_at(r, PPU_TL_CHAN, 1, PPU_TL_CHAN_KERNELS)->name,
			 "channel 1 (compute) kernels");
	ck_assert_int_eq(lane_slices(r, lane_at(r, PPU_TL_CHAN, 0, PPU_TL_CHAN_KERNELS)->id, v, 8),
			 5);
	for (i = 0; i < 5; i++) {
		ck_assert_uint_eq(v[i]->t0, fill[i][0]);
		ck_assert_uint_eq(v[i]->t1, fill[i][1]);
		ck_assert_int_eq(v[i]->wait, (int)fill[i][2]);
		ck_assert_str_eq(v[i]->name, fill[i][2] ? "waits for a compute unit" :
			"CTAs on compute units");
		ck_assert_str_eq(v[i]->cat, fill[i][2] ? "unit_wait" : "kernels");
	}
	ck_assert_int_eq(lane_slices(r, lane_at(r, PPU_TL_CHAN, 1, PPU_TL_CHAN_KERNELS)->id, v, 8),
			 2);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(v[i]->t0, small[i][0]);
		ck_assert_uint_eq(v[i]->t1, small[i][1]);
		ck_assert_int_eq(v[i]->wait, (int)small[i][2]);
		ck_assert_int_eq(v[i]->prio, 40);
	}
	assert_no_overlap(r);
	rec_free(r);
}
END_TEST

/*
 * The RTL demo's recorded traces (4 units, a filling kernel of 32 CTAs on
 * channel 0, a small one of 4 CTAs on channel 1): the small kernel waits
 * for units until the filling kernel's CTAs have all run in the prior art
 * and only while four CTAs are saved with preemption, and then the filling
 * kernel waits for it.
 */
START_TEST(model_kernel_priority_recorded_traces)
{
	struct ppu_tl_stats st;
	struct rec *r = model_path(DATA "kernel-priority-prior-art.trace", NULL, &st);
	const struct ppu_tl_slice *v[64];
	int n, i, fill_waits = 0;

	n = lane_slices(r, lane_at(r, PPU_TL_CHAN, 1, PPU_TL_CHAN_KERNELS)->id, v, 64);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(v[0]->wait, 1);
	ck_assert_int_eq(v[1]->wait, 0);
	/* every CTA of the filling kernel got a unit before the small one's */
	for (i = 0; i < r->ns; i++)
		if (r->s[i].where.group == PPU_TL_CU && !strncmp(r->s[i].name, "task 0 ", 7))
			ck_assert_uint_lt(r->s[i].t0, v[1]->t0);
	ck_assert_uint_gt(v[0]->t1 - v[0]->t0, 20 * (v[1]->t1 - v[1]->t0));
	rec_free(r);

	r = model_path(DATA "kernel-priority-preemption.trace", NULL, &st);
	n = lane_slices(r, lane_at(r, PPU_TL_CHAN, 1, PPU_TL_CHAN_KERNELS)->id, v, 64);
	ck_assert_int_eq(n, 2);
	ck_assert_int_eq(v[0]->wait, 1);
	ck_assert_uint_lt(v[0]->t1 - v[0]->t0, 2000);	/* the saves */
	ck_assert_int_eq(v[1]->prio, 40);
	{
		uint64_t s0 = v[1]->t0, s1 = v[1]->t1;

		n = lane_slices(r, lane_at(r, PPU_TL_CHAN, 0, PPU_TL_CHAN_KERNELS)->id, v, 64);
		/* (the first wait: from its launch to its first CTA, 3 cycles) */
		for (i = 0; i < n; i++)
			if (v[i]->wait && v[i]->t1 > s0) {
				fill_waits++;
				/* its last CTA saved once the small kernel runs,
				 * resumed as it ends */
				ck_assert_uint_ge(v[i]->t0, s0);
				ck_assert_uint_lt(v[i]->t0, s1);
				ck_assert_uint_ge(v[i]->t1, s1);
			}
	}
	ck_assert_int_eq(fill_waits, 1);
	assert_no_overlap(r);
	rec_free(r);
}
END_TEST

START_TEST(model_rejects_time_going_backwards)
{
	struct ppu_tl_model *m = ppu_tl_model_new(NULL);
	struct ppu_trace_rec a = { 100, PPU_TRACE_DOORBELL, 0, 1, 0 };
	struct ppu_trace_rec b = { 99, PPU_TRACE_DOORBELL, 0, 2, 0 };

	ck_assert_int_eq(ppu_tl_feed(m, &a), 0);
	ck_assert_int_eq(ppu_tl_feed(m, &a), 0);	/* same cycle: several ports */
	ck_assert_int_eq(ppu_tl_feed(m, &b), -1);
	ppu_tl_model_free(m);
}
END_TEST

/* ---- the tool, its outputs read by real parsers ---- */

static int run(const char *cmd)
{
	int st = system(cmd);

	ck_assert_msg(st != -1 && WIFEXITED(st), "could not run: %s", cmd);
	return WEXITSTATUS(st);
}

static char tmpdir[64];

static void make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ppu-trace-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_tmpdir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(run(cmd), 0);
}

/*
 * json.load it, then: 130 copies on the copy engine thread, a name for every
 * thread used, no overlap of X events on any thread, counters present.
 */
static const char json_check[] =
	"import json, sys, collections\n"
	"d = json.load(open(sys.argv[1]))\n"
	"ev = d['traceEvents']\n"
	"names = {(e['pid'], e['tid']): e['args']['name'] for e in ev\n"
	"         if e['ph'] == 'M' and e['name'] == 'thread_name'}\n"
	"procs = {e['pid']: e['args']['name'] for e in ev\n"
	"         if e['ph'] == 'M' and e['name'] == 'process_name'}\n"
	"x = [e for e in ev if e['ph'] == 'X']\n"
	"assert all((e['pid'], e['tid']) in names for e in x), 'unnamed thread'\n"
	"ce = [e for e in x if names[(e['pid'], e['tid'])] == 'copy engine']\n"
	"assert len(ce) == 130, len(ce)\n"
	"assert all(e['cat'] == 'copy' and 'bytes' in e['args'] for e in ce)\n"
	"by = collections.defaultdict(list)\n"
	"for e in x: by[(e['pid'], e['tid'])].append((e['ts'], e['ts'] + e['dur']))\n"
	"for k, v in by.items():\n"
	"    v.sort()\n"
	"    for a, b in zip(v, v[1:]): assert a[1] <= b[0], (names[k], a, b)\n"
	"assert sorted(procs.values()) == ['channel 0 (copy) C_low, prio 0',\n"
	"    'channel 1 (copy) C_high, prio 1', 'copy engine', 'host interface'], procs\n"
	"c = {e['name'] for e in ev if e['ph'] == 'C'}\n"
	"assert 'copies in flight' in c and 'channels waiting on a semaphore' in c, c\n"
	"w = [e for e in x if e['cat'] == 'sem_wait']\n"
	"assert w and all(e['args']['semaphore'].startswith('0x') for e in w)\n"
	"print('json ok', len(ev))\n";

START_TEST(tool_json_loads_in_a_json_parser)
{
	char cmd[1024], py[128];
	FILE *f;

	make_tmpdir();
	snprintf(py, sizeof(py), "%s/check.py", tmpdir);
	f = fopen(py, "w");
	ck_assert_ptr_nonnull(f);
	fputs(json_check, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), PPU_TRACE_BIN " -q -l 0=C_low -p 0=0 -l 1=C_high -p 1=1 "
		 "-j %s/t.json " DATA "copy-latency-chunked.trace && python3 %s %s/t.json",
		 tmpdir, py, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	/* the check itself fails on a wrong count */
	snprintf(cmd, sizeof(cmd), PPU_TRACE_BIN " -q -j %s/t.json " DATA "seeds-b-semaphores.trace"
		 " && ! python3 %s %s/t.json 2>/dev/null", tmpdir, py, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	rm_tmpdir();
}
END_TEST

static const char svg_check[] =
	"import sys, xml.etree.ElementTree as ET\n"
	"ns = '{http://www.w3.org/2000/svg}'\n"
	"root = ET.parse(sys.argv[1]).getroot()\n"
	"assert root.tag == ns + 'svg', root.tag\n"
	"assert not list(root.iter(ns + 'script')) and not list(root.iter(ns + 'image'))\n"
	"text = [t.text or '' for t in root.iter(ns + 'text')]\n"
	"for want in sys.argv[2].split(','):\n"
	"    assert any(want in t for t in text), want\n"
	"rects = len(list(root.iter(ns + 'rect')))\n"
	"assert rects <= int(sys.argv[3]), rects\n"
	"paths = len(list(root.iter(ns + 'path')))\n"
	"assert paths == int(sys.argv[4]), paths\n"
	"print('svg ok', rects)\n";

START_TEST(tool_svg_parses_as_xml)
{
	char cmd[2048], py[128];
	FILE *f;

	make_tmpdir();
	snprintf(py, sizeof(py), "%s/check.py", tmpdir);
	f = fopen(py, "w");
	ck_assert_ptr_nonnull(f);
	fputs(svg_check, f);
	fclose(f);
	/* two groups, lane names, group titles, legend; 1 path: the legend's
	 * fault marker (no faults in these traces) */
	snprintf(cmd, sizeof(cmd), PPU_TRACE_BIN " -q -p 0=0 -p 1=1 -t 'T<&>' -g first -g second "
		 "-s %s/t.svg " DATA "seeds-b-prior-art.trace " DATA "seeds-b-semaphores.trace && "
		 "python3 %s %s/t.svg 'T<&>,first,second,copy engine,host scheduler,priority 0,"
		 "priority 1,waiting on a semaphore,cycles' 200 1", tmpdir, py, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	/* compute: the kernels rows and their waits in the legend */
	snprintf(cmd, sizeof(cmd), PPU_TRACE_BIN " -q -l 0=filling -l 1=small -s %s/k.svg "
		 DATA "kernel-priority-prior-art.trace && python3 %s %s/k.svg 'channel 1 (compute) "
		 "small kernels,waits for a compute unit,waiting for a compute unit,CU 3,"
		 "task table slot 1,priority 0' 200 1", tmpdir, py, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	/* a fault adds its marker */
	snprintf(cmd, sizeof(cmd), "printf '1 CHAN_SWITCH ch=0 a=0xffffffff b=0x0\\n5 FAULT ch=0 a=0x1 "
		 "b=0x2\\n9 CHAN_IDLE ch=1 a=0x0 b=0x0\\n' | " PPU_TRACE_BIN " -q -s %s/f.svg && "
		 "python3 %s %s/f.svg 'fault,host scheduler' 50 2", tmpdir, py, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	rm_tmpdir();
}
END_TEST

START_TEST(tool_exit_codes_and_messages)
{
	char cmd[512];

	make_tmpdir();
	ck_assert_int_eq(run(PPU_TRACE_BIN " --help > /dev/null"), 0);
	ck_assert_int_eq(run(PPU_TRACE_BIN " " DATA "seeds-b-prior-art.trace 2>/dev/null"), 2);
	ck_assert_int_eq(run(PPU_TRACE_BIN " --bogus 2>/dev/null"), 2);
	ck_assert_int_eq(run(PPU_TRACE_BIN " -s /dev/null --chan-prio 3 2>/dev/null"), 2);
	ck_assert_int_eq(run(PPU_TRACE_BIN " -j /dev/null a b 2>/dev/null"), 2);
	ck_assert_int_eq(run(PPU_TRACE_BIN " -s /dev/null /nonexistent.trace 2>/dev/null"), 1);
	/* a malformed line: exit 1 naming the line */
	snprintf(cmd, sizeof(cmd), "printf '1 DOORBELL ch=0 a=0x1 b=0x0\\n2 DOORBELL ch=zero\\n' | "
		 PPU_TRACE_BIN " -s /dev/null 2> %s/err; test $? = 1 && grep -q '<stdin>:2: expected "
		 "ch=' %s/err", tmpdir, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	/* unknown kinds are counted, not fatal */
	snprintf(cmd, sizeof(cmd), "printf '1 DOORBELL ch=0 a=0x1 b=0x0\\n2 UNKNOWN_99 ch=0 a=0x0 "
		 "b=0x0\\n3 HYPER ch=0 a=0x0 b=0x0\\n' | " PPU_TRACE_BIN " -j /dev/null 2> %s/err && "
		 "grep -q 'skipped 2 records of kinds not in ppu_trace.def (first on line 2)' %s/err",
		 tmpdir, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	/* time going backwards */
	snprintf(cmd, sizeof(cmd), "printf '5 DOORBELL ch=0 a=0x1 b=0x0\\n4 DOORBELL ch=0 a=0x1 "
		 "b=0x0\\n' | " PPU_TRACE_BIN " -j /dev/null 2>/dev/null; test $? = 1");
	ck_assert_int_eq(run(cmd), 0);
	/* --strict fails on an unmatched copy, and the summary says so */
	snprintf(cmd, sizeof(cmd), "printf '1 COPY_START ch=0 a=0x1 b=0x10\\n' | " PPU_TRACE_BIN
		 " --strict -j /dev/null 2> %s/err; test $? = 1 && grep -q '1 COPY_START without a "
		 "COPY_END' %s/err", tmpdir, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	rm_tmpdir();
}
END_TEST

/* ---- a large trace: time and memory bound ---- */

#define BIG_RECORDS 2000000u
#define BIG_RSS_KIB (64u * 1024)
#define BIG_SECONDS 30.0

/* Eight copy channels and four compute units, busy; records in cycle order. */
static void write_big(FILE *f)
{
	uint64_t cyc = 1000;
	unsigned int n = 0, i = 0;

	fprintf(f, "# chan 0 prio 0 label bulk\n# chan 7 prio 3 label urgent\n");
	while (n < BIG_RECORDS) {
		unsigned int ch = i % 8, tid = i % 200, cu = i % 4, slot = i % 16;

		fprintf(f, "%llu DOORBELL ch=%u a=0x%08x b=0x00000000\n", (unsigned long long)cyc, ch,
			i & 0xff);
		fprintf(f, "%llu CHAN_SWITCH ch=%u a=0x%08x b=0x00000001\n",
			(unsigned long long)cyc + 1, ch, (ch + 7) % 8);
		fprintf(f, "%llu METHOD ch=%u a=0x00000120 b=0x00000000\n", (unsigned long long)cyc + 2,
			ch);
		fprintf(f, "%llu SEM_ACQ_FAIL ch=%u a=0x00186000 b=0x00000001\n",
			(unsigned long long)cyc + 3, ch);
		fprintf(f, "%llu SEM_ACQ_OK ch=%u a=0x00186000 b=0x00000000\n",
			(unsigned long long)cyc + 9, ch);
		fprintf(f, "%llu COPY_START ch=%u a=0x00400000 b=0x00010000\n",
			(unsigned long long)cyc + 10, ch);
		fprintf(f, "%llu TASK_LAUNCH ch=9 a=0x%08x b=0x000000ff\n", (unsigned long long)cyc + 11,
			tid | (i % 7) << 8);
		fprintf(f, "%llu TASK_ACTIVATE ch=9 a=0x%08x b=0x00010000\n",
			(unsigned long long)cyc + 12, tid | slot << 8 | (i % 7) << 16);
		fprintf(f, "%llu CTA_DISPATCH ch=9 a=0x%08x b=0x%08x\n", (unsigned long long)cyc + 13,
			tid | cu << 16, i);
		fprintf(f, "%llu CTA_EXIT ch=9 a=0x%08x b=0x%08x\n", (unsigned long long)cyc + 40,
			tid | cu << 16, i);
		fprintf(f, "%llu TASK_COMPLETE ch=9 a=0x%08x b=0x00010000\n",
			(unsigned long long)cyc + 41, tid | slot << 8);
		fprintf(f, "%llu COPY_END ch=%u a=0x00800000 b=0x00010000\n",
			(unsigned long long)cyc + 50, ch);
		fprintf(f, "%llu CHAN_IDLE ch=%u a=0x00000001 b=0x00000000\n",
			(unsigned long long)cyc + 51, ch);
		if (i % 100000 == 99999)
			fprintf(f, "%llu FAULT ch=%u a=0x00000001 b=0x00000000\n",
				(unsigned long long)cyc + 52, ch);
		n += 13 + (i % 100000 == 99999);
		cyc += 60;
		i++;
	}
}

START_TEST(tool_converts_two_million_records_in_bounded_time_and_memory)
{
	char out[160], err[160];
	int to_tool[2], status, fd;
	struct timespec t0, t1;
	struct rusage ru;
	double secs;
	pid_t pid;
	FILE *f;
	char line[512];
	unsigned long long recs = 0;

	make_tmpdir();
	snprintf(out, sizeof(out), "%s/big.svg", tmpdir);
	snprintf(err, sizeof(err), "%s/err", tmpdir);
	ck_assert_int_eq(pipe(to_tool), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		dup2(to_tool[0], 0);
		close(to_tool[0]);
		close(to_tool[1]);
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		execl(PPU_TRACE_BIN, "ppu-trace", "-j", "/dev/null", "-s", out, (char *)NULL);
		_exit(127);
	}
	close(to_tool[0]);
	f = fdopen(to_tool[1], "w");
	ck_assert_ptr_nonnull(f);
	write_big(f);
	fclose(f);
	ck_assert_int_eq(wait4(pid, &status, 0, &ru), pid);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	f = fopen(err, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ppu-trace: <stdin>: %llu records", &recs) == 1)
			break;
	fclose(f);
	ck_assert_uint_ge(recs, BIG_RECORDS);
	printf("bench: ppu_trace_2M_records %.2f s (generation included), max RSS %ld KiB\n", secs,
	       ru.ru_maxrss);
	ck_assert_msg(ru.ru_maxrss < (long)BIG_RSS_KIB, "max RSS %ld KiB", ru.ru_maxrss);
	ck_assert_msg(secs < BIG_SECONDS, "%.1f s", secs);
	/* and the picture stays small */
	snprintf(line, sizeof(line), "test $(stat -c %%s %s) -lt 4000000", out);
	ck_assert_int_eq(run(line), 0);
	rm_tmpdir();
}
END_TEST

Suite *suite_trace(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, parse_reads_the_harness_format);
	tcase_add_test(tc, parse_skips_unknown_kinds_and_comments);
	tcase_add_test(tc, parse_rejects_malformed_lines);
	tcase_add_test(tc, kind_names_come_from_the_def);
	tcase_add_test(tc, model_worked_example_semaphores_keeps_the_patent_order);
	tcase_add_test(tc, model_worked_example_prior_art_interleaves);
	tcase_add_test(tc, model_chunked_copies_all_matched);
	tcase_add_test(tc, model_reports_unmatched_copies);
	tcase_add_test(tc, model_takes_12_bit_channel_ids);
	tcase_add_test(tc, model_fault_is_a_global_instant_and_ends_the_channel);
	tcase_add_test(tc, model_tasks_and_ctas);
	tcase_add_test(tc, model_kernels_row_shows_waits_for_a_unit);
	tcase_add_test(tc, model_kernel_priority_recorded_traces);
	tcase_add_test(tc, model_rejects_time_going_backwards);
	tcase_add_test(tc, tool_json_loads_in_a_json_parser);
	tcase_add_test(tc, tool_svg_parses_as_xml);
	tcase_add_test(tc, tool_exit_codes_and_messages);
	tcase_add_test(tc, tool_converts_two_million_records_in_bounded_time_and_memory);
	suite_add_tcase(s, tc);
	return s;
}
