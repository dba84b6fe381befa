// SPDX-License-Identifier: MIT
/*
 * libppu's host events on the device timeline (tools/ppu-trace-host.c):
 * the line parser, the alignment of host nanoseconds to cycles (exact on
 * synthetic sync points, for the line and the piecewise map, with one
 * point and with none), and a small written device trace with a host file
 * whose events must land on known cycles: the counter-to-trace offset found
 * from the releases despite a decoy, the copies' flows matched in order to
 * the COPY_STARTs of the right binding of the channel, the stream's track
 * named after its mapping.  The tool itself: JSON with host tracks and
 * flows read back by python3's json module, and the refusal without sync
 * points.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ppu/ppu_hw.h"
#include "ppu-trace-host.h"
#include "ppu-trace-parse.h"

START_TEST(host_parse_reads_libppu_lines)
{
	struct ppu_host_ev ev;
	char err[96], buf[32];

	ck_assert_int_eq(ppu_host_parse_line("3306893606 93 94 COPY dur=6479794 ctx=1 stream=1 ch=0 "
					     "bytes=98304 src=host dst=local sem_va=0x305000\n",
					     &ev, err, sizeof(err)), PPU_HOST_LINE_EVENT);
	ck_assert_int_eq(ev.t, 3306893606ll);
	ck_assert_int_eq(ev.pid, 93);
	ck_assert_int_eq(ev.tid, 94);
	ck_assert_int_eq(ev.kind, PPU_HOST_COPY);
	ck_assert_int_eq(ev.dur, 6479794);
	ck_assert_int_eq(ppu_host_num(&ev, "bytes", -1), 98304);
	ck_assert_int_eq(ppu_host_num(&ev, "sem_va", -1), 0x305000);
	ck_assert_int_eq(ppu_host_num(&ev, "ch", -1), 0);
	ck_assert_int_eq(ppu_host_num(&ev, "chunks", -7), -7);
	ck_assert_int_eq(ppu_host_num(&ev, "src", -7), -7);	/* not a number */
	ck_assert_int_eq(ppu_host_field(&ev, "dst", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "local");
	/* a key is matched whole, not as the end of another */
	ck_assert_int_eq(ppu_host_field(&ev, "va", buf, sizeof(buf)), -1);
	free(ev.fields);

	ck_assert_int_eq(ppu_host_parse_line("5 1 1 SYNC ctx=1 src=counter cycle=243 err=9", &ev, err,
					     sizeof(err)), PPU_HOST_LINE_EVENT);
	ck_assert_int_eq(ev.kind, PPU_HOST_SYNC);
	ck_assert_int_eq(ev.dur, -1);
	free(ev.fields);
	/* a newer kind is kept under its own name */
	ck_assert_int_eq(ppu_host_parse_line("5 1 1 FUTURE_THING x=1", &ev, err, sizeof(err)),
			 PPU_HOST_LINE_EVENT);
	ck_assert_int_eq(ev.kind, PPU_HOST_OTHER);
	ck_assert_str_eq(ev.kind_name, "FUTURE_THING");
	free(ev.fields);

	ck_assert_int_eq(ppu_host_parse_line("# ppu host trace 1 pid 93\n", &ev, err, sizeof(err)),
			 PPU_HOST_LINE_SKIP);
	ck_assert_int_eq(ppu_host_parse_line("\n", &ev, err, sizeof(err)), PPU_HOST_LINE_SKIP);
	ck_assert_int_eq(ppu_host_parse_line("COPY dur=1", &ev, err, sizeof(err)), PPU_HOST_LINE_BAD);
	ck_assert_int_eq(ppu_host_parse_line("12 93 COPY dur=1", &ev, err, sizeof(err)),
			 PPU_HOST_LINE_BAD);
	ck_assert_str_eq(err, "expected a thread id after the pid");
	ck_assert_int_eq(ppu_host_parse_line("12 93 94 ", &ev, err, sizeof(err)), PPU_HOST_LINE_BAD);
}
END_TEST

START_TEST(align_line_is_exact_on_points_of_one_line)
{
	struct ppu_align_point p[5];
	struct ppu_align al;
	char err[128];
	int i;

	/* 250 MHz: 0.25 cycles per ns, from 5 s of host time on */
	for (i = 0; i < 5; i++) {
		p[i].t = 5e9 + 1e6 * i * i;
		p[i].c = 1000 + 0.25 * (p[i].t - 5e9);
	}
	ck_assert_int_eq(ppu_align_fit(&al, p, 5, PPU_ALIGN_LINE, 0.001, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(al.b, 0.25, 1e-12);
	ck_assert_double_eq_tol(al.line_max, 0, 1e-6);
	ck_assert_double_eq_tol(ppu_align_map(&al, 5e9 + 123456), 1000 + 0.25 * 123456, 1e-6);
	ck_assert_double_eq_tol(ppu_align_map(&al, 5e9 - 4000), 0, 1e-6);
	/* leave-one-out on a line is exact too */
	ck_assert_uint_eq(al.loo_n, 3);
	ck_assert_double_eq_tol(al.loo_max, 0, 1e-6);
	ppu_align_free(&al);

	/* a point off the line by 40 cycles shows in the residual */
	p[2].c += 40;
	ck_assert_int_eq(ppu_align_fit(&al, p, 5, PPU_ALIGN_LINE, 0.001, err, sizeof(err)), 0);
	ck_assert(al.line_max > 20 && al.line_max <= 40);
	ck_assert(al.line_rms > 5);
	ppu_align_free(&al);
}
END_TEST

START_TEST(align_piecewise_follows_a_clock_that_stops)
{
	/* 1 cycle per us, then idle (the co-simulated PPU is not clocked), then 3 per us */
	struct ppu_align_point p[] = {
		{ 1e9, 1000 }, { 1.001e9, 2000 }, { 1.002e9, 2000 }, { 1.003e9, 5000 },
		{ 1.0005e9, 1400 },	/* out of order, and below the point before it */
	};
	struct ppu_align al, line;
	char err[128];

	ck_assert_int_eq(ppu_align_fit(&al, p, 5, PPU_ALIGN_PIECEWISE, 0.001, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(ppu_align_map(&al, 1.00075e9), 1700, 1e-6);
	ck_assert_double_eq_tol(ppu_align_map(&al, 1.0015e9), 2000, 1e-6);
	ck_assert_double_eq_tol(ppu_align_map(&al, 1.0025e9), 3500, 1e-6);
	ck_assert_double_eq_tol(ppu_align_map(&al, 1.003e9), 5000, 1e-6);
	/* the map never runs backwards */
	for (double t = 0.999e9; t < 1.004e9; t += 1e4)
		ck_assert(ppu_align_map(&al, t + 1e4) >= ppu_align_map(&al, t));
	/* beyond the ends: the whole run's slope */
	ck_assert_double_eq_tol(ppu_align_map(&al, 1.004e9), 5000 + al.b * 1e6, 1e-6);
	ck_assert(al.b > 0);
	ck_assert_uint_eq(al.loo_n, 3);
	ck_assert(al.loo_max > 0);
	/* the line cannot follow the stop: its residual says so */
	ck_assert_int_eq(ppu_align_fit(&line, p, 5, PPU_ALIGN_LINE, 0.001, err, sizeof(err)), 0);
	ck_assert(line.line_max > 300);
	ppu_align_free(&al);
	ppu_align_free(&line);
}
END_TEST

START_TEST(align_one_point_uses_the_clock_and_none_fails)
{
	struct ppu_align_point p = { 2e9, 777 };
	struct ppu_align al;
	char err[256];

	ck_assert_int_eq(ppu_align_fit(&al, &p, 1, PPU_ALIGN_PIECEWISE, 0.1, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(ppu_align_map(&al, 2e9 + 1000), 877, 1e-9);
	ck_assert_double_eq_tol(ppu_align_map(&al, 2e9 - 1000), 677, 1e-9);
	ppu_align_free(&al);
	ck_assert_int_eq(ppu_align_fit(&al, NULL, 0, PPU_ALIGN_LINE, 0.1, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "no sync points"));
}
END_TEST

/* ---- a written device trace and host file ---- */

/*
 * Channel 3 is bound three times: by an older process (one copy), by ours
 * (three chunks), by a later one.  Our releases are at counter 1500 and
 * 1700, 68 cycles before the trace's records; a decoy release with the
 * same address and value sits in the older binding.
 */
static const char dev_trace[] =
	"100 BIND ch=3 a=0x1 b=0x1\n"
	"150 COPY_START ch=3 a=0x0 b=0x100\n"
	"160 COPY_END ch=3 a=0x0 b=0x100\n"
	"400 SEM_RELEASE ch=3 a=0x00002000 b=0x00000001\n"
	"1470 BIND ch=3 a=0x1 b=0x1\n"
	"1500 COPY_START ch=3 a=0x1000 b=0x6000\n"
	"1560 COPY_END ch=3 a=0x1000 b=0x6000\n"
	"1568 SEM_RELEASE ch=3 a=0x00002000 b=0x00000001\n"
	"1600 COPY_START ch=3 a=0x7000 b=0x6000\n"
	"1660 COPY_END ch=3 a=0x7000 b=0x6000\n"
	"1700 COPY_START ch=3 a=0x9000 b=0x2000\n"
	"1720 COPY_END ch=3 a=0x9000 b=0x2000\n"
	"1768 SEM_RELEASE ch=3 a=0x00002010 b=0x00000001\n"
	"3000 BIND ch=3 a=0x1 b=0x1\n"
	"3100 COPY_START ch=3 a=0x0 b=0x100\n"
	"3110 COPY_END ch=3 a=0x0 b=0x100\n";

static const char host_file[] =
	"# ppu host trace 1 pid 7\n"
	"1000000000 7 7 SYNC ctx=1 src=counter cycle=1000 err=100\n"
	"1000000000 7 7 STREAM_CREATE ctx=1 stream=1 prio=1 req=1 level=1 dev_prio=2 ch=3 depth=2\n"
	"1000400000 7 7 COPY dur=100000 ctx=1 stream=1 ch=3 bytes=49152 src=host dst=local "
	"chunks=2 chunk_bytes=24576\n"
	"1000400000 7 7 CHUNK ctx=1 stream=1 ch=3 index=0 offset=0 bytes=24576 seq=1\n"
	"1001000000 7 7 SYNC ctx=1 src=counter cycle=2000 err=100\n"
	"1000600000 7 7 COPY dur=50000 ctx=1 stream=1 ch=3 bytes=8192 src=host dst=host chunks=1 "
	"chunk_bytes=24576\n"
	"1000510000 7 7 SYNC ctx=1 src=release cycle=1500 ch=3 va=0x2000 value=1 event=1\n"
	"1000710000 7 7 SYNC ctx=1 src=release cycle=1700 ch=3 va=0x2010 value=1 event=2\n"
	"1000800000 7 8 EVENT_SYNC dur=200000 ctx=1 event=2 ch=3 seq=3 value=1\n"
	"1002000000 7 7 SYNC ctx=1 src=counter cycle=2000 err=100\n"
	"1003000000 7 7 SYNC ctx=1 src=counter cycle=5000 err=100\n";

struct got {
	struct ppu_tl_lane lanes[16];
	int nl;
	struct ppu_tl_slice s[32];
	int ns;
	struct ppu_tl_instant in[32];
	int ni;
	struct ppu_tl_flow fl[16];
	int nf;
};

static void g_lane(void *ctx, const struct ppu_tl_lane *l)
{
	struct got *g = ctx;

	ck_assert_int_lt(g->nl, 16);
	g->lanes[g->nl++] = *l;
}

static void g_slice(void *ctx, const struct ppu_tl_slice *s)
{
	struct got *g = ctx;

	ck_assert_int_lt(g->ns, 32);
	g->s[g->ns++] = *s;
}

static void g_instant(void *ctx, const struct ppu_tl_instant *in)
{
	struct got *g = ctx;

	ck_assert_int_lt(g->ni, 32);
	g->in[g->ni++] = *in;
}

static void g_flow(void *ctx, const struct ppu_tl_flow *f)
{
	struct got *g = ctx;

	ck_assert_int_lt(g->nf, 16);
	g->fl[g->nf++] = *f;
}

static char tmpdir[64];

static void write_file(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static int run(const char *cmd)
{
	int st = system(cmd);

	ck_assert_msg(st != -1 && WIFEXITED(st), "could not run: %s", cmd);
	return WEXITSTATUS(st);
}

static void setup_tmp(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ppu-host-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(run(cmd), 0);
}

START_TEST(host_events_land_on_their_cycles_and_copies_flow_to_their_chunks)
{
	struct ppu_host_opts o = { .method = PPU_ALIGN_PIECEWISE, .rate = 0.001 };
	struct got *g = calloc(1, sizeof(*g));
	struct ppu_tl_sink sink = { g, g_lane, g_slice, g_instant, NULL, g_flow };
	const struct ppu_host_stats *st;
	struct ppu_trace_rec rec;
	struct ppu_trace_chan_note note;
	const struct ppu_tl_slice *copy = NULL, *wait = NULL;
	struct ppu_host *h;
	char path[128], err[256], line[128];
	const char *p;
	int i, stream_lane = -1, thread_lane = -1;

	setup_tmp();
	write_file("h.trace", host_file, path, sizeof(path));
	h = ppu_host_load(path, &o, err, sizeof(err));
	ck_assert_msg(h != NULL, "%s", err);
	for (p = dev_trace; *p; p = strchr(p, '\n') + 1) {
		snprintf(line, sizeof(line), "%.*s", (int)(strchr(p, '\n') - p), p);
		ck_assert_int_eq(ppu_trace_parse_line(line, &rec, &note, err, sizeof(err)),
				 PPU_TRACE_LINE_RECORD);
		ppu_host_observe(h, &rec);
	}
	ck_assert_int_eq(ppu_host_emit(h, &sink, 10, err, sizeof(err)), 0);
	st = ppu_host_get_stats(h);
	ck_assert(st->offset_found);
	ck_assert_int_eq(st->offset, 68);
	ck_assert_uint_eq(st->releases_matched, 2);
	ck_assert_uint_eq(st->syncs_counter, 4);
	ck_assert_uint_eq(st->syncs_release, 2);
	/* counter 1400 at 1.0004 s, on the trace's axis 1468 */
	ck_assert_int_eq(ppu_host_cycle(h, 1000400000.0), 1468);

	/* a track for the stream, named by its mapping, one per thread */
	ck_assert_int_eq(g->nl, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(g->lanes[i].id, 10 + i);
		ck_assert_int_eq(g->lanes[i].group, PPU_TL_API);
		ck_assert_int_eq(g->lanes[i].row, i);
		ck_assert_str_eq(g->lanes[i].group_name, "host process 7 (libppu)");
		if (!strcmp(g->lanes[i].name, "host: stream 1 (prio 1 \u2192 dev 2, ch 3)"))
			stream_lane = g->lanes[i].id;
		if (!strcmp(g->lanes[i].name, "host: thread 8"))
			thread_lane = g->lanes[i].id;
	}
	ck_assert_int_ge(stream_lane, 10);
	ck_assert_int_ge(thread_lane, 10);

	for (i = 0; i < g->ns; i++) {
		if (!strncmp(g->s[i].name, "copy 48 KiB", 11))
			copy = &g->s[i];
		if (!strcmp(g->s[i].name, "event 2 synchronize"))
			wait = &g->s[i];
	}
	ck_assert_ptr_nonnull(copy);
	ck_assert_str_eq(copy->name, "copy 48 KiB host \u2192 local (2 chunks)");
	ck_assert_int_eq(copy->t0, 1468);
	ck_assert_int_eq(copy->t1, 1568);
	ck_assert_int_eq(copy->prio, 2);
	ck_assert_int_eq(copy->lane, stream_lane);
	ck_assert_ptr_nonnull(wait);
	ck_assert(wait->wait);
	ck_assert_int_eq(wait->lane, thread_lane);
	ck_assert_int_eq(wait->t0, 1868);
	/* 1.0008 s + 200 us: 2000 at 1.001 s, flat since */
	ck_assert_int_eq(wait->t1, 2068);

	/* three chunks, to the three COPY_STARTs of our binding, in order */
	ck_assert_int_eq(g->nf, 3);
	ck_assert_uint_eq(st->flows, 3);
	ck_assert_uint_eq(st->chunks_unmatched, 0);
	ck_assert_int_eq(g->fl[0].t_to, 1500);
	ck_assert_int_eq(g->fl[1].t_to, 1600);
	ck_assert_int_eq(g->fl[2].t_to, 1700);
	ck_assert_int_eq(g->fl[0].t_from, 1468);
	ck_assert_int_eq(g->fl[2].t_from, 1668);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(g->fl[i].from.group, PPU_TL_API);
		ck_assert_int_eq(g->fl[i].to.group, PPU_TL_CHAN);
		ck_assert_int_eq(g->fl[i].to.unit, 3);
		ck_assert_int_eq(g->fl[i].to.row, PPU_TL_CHAN_WORK);
	}
	/* sync points are instants */
	ck_assert_int_ge(g->ni, 6);
	ppu_host_free(h);
	free(g);
	rm_tmp();
}
END_TEST

START_TEST(host_offset_given_wins_and_line_fit_is_used_when_asked)
{
	struct ppu_host_opts o = { .method = PPU_ALIGN_LINE, .rate = 0.001, .have_offset = 1,
				   .offset = 1000 };
	struct got *g = calloc(1, sizeof(*g));
	struct ppu_tl_sink sink = { g, g_lane, g_slice, g_instant, NULL, NULL };
	struct ppu_host *h;
	char path[128], err[256];

	setup_tmp();
	write_file("h.trace", host_file, path, sizeof(path));
	h = ppu_host_load(path, &o, err, sizeof(err));
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(ppu_host_emit(h, &sink, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(ppu_host_get_stats(h)->offset, 1000);
	ck_assert(!ppu_host_get_stats(h)->offset_found);
	/* no device records observed: every chunk is unmatched, and no flow is made */
	ck_assert_uint_eq(ppu_host_get_stats(h)->chunks_unmatched, 3);
	ck_assert_int_eq(ppu_host_get_stats(h)->align->method, PPU_ALIGN_LINE);
	/* the channel's priority, from the stream that made it */
	ck_assert_int_eq(ppu_host_chan_prio(h, 3), 2);
	ck_assert_int_eq(ppu_host_chan_prio(h, 4), -1);
	ppu_host_free(h);
	/* a channel id used again at another priority: no priority */
	write_file("h2.trace", "1 7 7 SYNC ctx=1 src=counter cycle=5 err=1\n"
		   "2 7 7 STREAM_CREATE ctx=1 stream=1 prio=1 dev_prio=2 ch=3\n"
		   "3 9 9 LAUNCH dur=1 ctx=1 stream=0 ch=3 dev_prio=0 fn=f grid=1,1,1 cta=1,1,1\n",
		   path, sizeof(path));
	h = ppu_host_load(path, &o, err, sizeof(err));
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(ppu_host_chan_prio(h, 3), -1);
	ppu_host_free(h);
	free(g);
	rm_tmp();
}
END_TEST

static const char json_host_check[] =
	"import json, sys\n"
	"d = json.load(open(sys.argv[1]))\n"
	"ev = d['traceEvents']\n"
	"names = {(e['pid'], e['tid']): e['args']['name'] for e in ev\n"
	"         if e['ph'] == 'M' and e['name'] == 'thread_name'}\n"
	"host = [n for n in names.values() if n.startswith('host: ')]\n"
	"assert 'host: stream 1 (prio 1 \\u2192 dev 2, ch 3)' in host, host\n"
	"x = [e for e in ev if e['ph'] == 'X' and e['cat'] == 'host']\n"
	"assert any(e['name'].startswith('copy 48 KiB') and e['ts'] == 1468 for e in x), x\n"
	"s = [e for e in ev if e['ph'] == 's']\n"
	"f = [e for e in ev if e['ph'] == 'f']\n"
	"assert len(s) == 3 and len(f) == 3, (s, f)\n"
	"assert sorted(e['ts'] for e in f) == [1500, 1600, 1700]\n"
	"assert all(names[(e['pid'], e['tid'])] == 'channel 3 (copy), prio 2 work' or\n"
	"           names[(e['pid'], e['tid'])].startswith('channel 3') for e in f)\n"
	"assert {e['id'] for e in s} == {e['id'] for e in f}\n"
	"print('host json ok')\n";

START_TEST(tool_merges_host_events_into_json_and_svg)
{
	char dev[128], host[128], py[128], cmd[1024];

	setup_tmp();
	write_file("d.trace", dev_trace, dev, sizeof(dev));
	write_file("h.trace", host_file, host, sizeof(host));
	write_file("check.py", json_host_check, py, sizeof(py));
	snprintf(cmd, sizeof(cmd), PPU_TRACE_BIN " -q -H %s -j %s/t.json -s %s/t.svg %s && "
		 "python3 %s %s/t.json >/dev/null && grep -q 'host: thread 8' %s/t.svg", host,
		 tmpdir, tmpdir, dev, py, tmpdir, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	/* the summary says what the alignment is worth */
	snprintf(cmd, sizeof(cmd), PPU_TRACE_BIN " -H %s -j /dev/null %s 2>&1 | "
		 "grep -q 'trace cycle = PPU counter + 68 (2 of 2 releases matched)'", host, dev);
	ck_assert_int_eq(run(cmd), 0);
	/* no sync points: refused with a reason */
	snprintf(cmd, sizeof(cmd), "grep -v SYNC %s > %s/nosync && " PPU_TRACE_BIN
		 " -q -H %s/nosync -j /dev/null %s 2>%s/err; test $? = 1 && "
		 "grep -q 'no sync points' %s/err", host, tmpdir, tmpdir, dev, tmpdir, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	/* a malformed host line names its place */
	snprintf(cmd, sizeof(cmd), "printf '1 2\\n' > %s/bad && " PPU_TRACE_BIN
		 " -q -H %s/bad -j /dev/null %s 2>%s/err; test $? = 1 && grep -q 'bad:1: ' %s/err",
		 tmpdir, tmpdir, dev, tmpdir, tmpdir);
	ck_assert_int_eq(run(cmd), 0);
	/* one device trace only */
	snprintf(cmd, sizeof(cmd), PPU_TRACE_BIN " -q -H %s -s /dev/null %s %s 2>/dev/null; "
		 "test $? = 2", host, dev, dev);
	ck_assert_int_eq(run(cmd), 0);
	rm_tmp();
}
END_TEST

Suite *suite_trace_host(void)
{
	Suite *s = suite_create("trace_host");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, host_parse_reads_libppu_lines);
	tcase_add_test(tc, align_line_is_exact_on_points_of_one_line);
	tcase_add_test(tc, align_piecewise_follows_a_clock_that_stops);
	tcase_add_test(tc, align_one_point_uses_the_clock_and_none_fails);
	tcase_add_test(tc, host_events_land_on_their_cycles_and_copies_flow_to_their_chunks);
	tcase_add_test(tc, host_offset_given_wins_and_line_fit_is_used_when_asked);
	tcase_add_test(tc, tool_merges_host_events_into_json_and_svg);
	suite_add_tcase(s, tc);
	return s;
}
