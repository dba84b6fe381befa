// SPDX-License-Identifier: MIT
/*
 * ppu-trace: turn the PPU's text event trace (the RTL harness's trace file,
 * `ppu-cosim --trace`) into a timeline people can look at: a Chrome JSON
 * trace for Perfetto / chrome://tracing, and a self-contained SVG.
 *
 * The input streams through the model once; memory depends on the number of
 * channels, tasks and compute units, not on the length of the trace
 * (docs/timeline.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu-trace-host.h"
#include "ppu-trace-json.h"
#include "ppu-trace-model.h"
#include "ppu-trace-parse.h"
#include "ppu-trace-svg.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

#define MAX_INPUTS 16
#define MAX_CHAN_OPTS 256

struct chan_opt {
	unsigned int chid;
	int prio;
	const char *label;
};

struct opts {
	const char *host[MAX_INPUTS];
	int nhost;
	struct ppu_host_opts host_opts;
	const char *json, *svg, *title;
	const char *group_title[MAX_INPUTS];
	int ngroup_titles;
	struct chan_opt chan[MAX_CHAN_OPTS];
	int nchan;
	double mhz;
	int width, quiet, strict;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ppu-trace [OPTIONS] [TRACE...]\n"
		"\n"
		"Converts the PPU's text event trace (the RTL harness's trace file, ppu-cosim\n"
		"--trace) into a timeline: a Chrome JSON trace for Perfetto (ui.perfetto.dev) or\n"
		"chrome://tracing, and/or an SVG any browser shows.  TRACE is a file, or - for\n"
		"standard input (the default).  With several TRACEs the SVG shows one group per\n"
		"trace on a shared time axis (the JSON takes one trace).\n"
		"\n"
		"  -j, --json FILE        write the Chrome JSON trace to FILE (- : stdout)\n"
		"  -s, --svg FILE         write the SVG timeline to FILE (- : stdout)\n"
		"  -t, --title TEXT       title of the SVG\n"
		"  -g, --group TEXT       SVG group title of the next TRACE (once per TRACE,\n"
		"                         in order; default: the file name)\n"
		"  -p, --chan-prio CH=P   channel CH has priority P (colours, slice args);\n"
		"                         the trace may say so itself: # chan CH prio P label TEXT\n"
		"  -l, --chan-label CH=TEXT  a name for channel CH\n"
		"  -c, --clock-mhz F      device clock for the JSON's microseconds: ts = cycles / F\n"
		"                         (default 1: one cycle shows as 1 us)\n"
		"  -w, --width PX         width of the SVG's time axis in pixels (default 1200)\n"
		"      --strict           fail (exit 1) when a COPY_START or COPY_END is unmatched\n"
"  -H, --host FILE        libppu's host events (PPU_TRACE=FILE) on the same\n"
"                         timeline: tracks per stream and thread, flows from\n"
"                         each copy to the device's COPY_START (repeatable;\n"
"                         one TRACE)\n"
"      --align METHOD     host time -> cycles: piecewise (default; between\n"
"                         neighbouring sync points) or line (least squares)\n"
"      --host-offset N    the trace's cycle = the PPU counter + N (default:\n"
"                         from the releases the host saw, matched in the trace)\n"
		"  -q, --quiet            no summary on stderr\n"
		"  -h, --help             this text\n"
		"\n"
		"Exit status: 0 done; 1 unreadable or malformed input, a cycle going backwards,\n"
		"an output that could not be written, or (--strict) unmatched copies; 2 usage.\n"
		"Records of kinds not in ppu_trace.def are skipped and counted.  See\n"
		"docs/timeline.md for what becomes which slice, instant and counter.\n");
}

static int parse_chan(const char *arg, unsigned int *ch, const char **rest)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 0);

	if (end == arg || *end != '=' || v > PPU_TRACE_MAX_CHID)
		return -1;
	*ch = (unsigned int)v;
	*rest = end + 1;
	return 0;
}

static struct chan_opt *chan_opt(struct opts *o, unsigned int ch)
{
	int i;

	for (i = 0; i < o->nchan; i++)
		if (o->chan[i].chid == ch)
			return &o->chan[i];
	if (o->nchan == MAX_CHAN_OPTS)
		return NULL;
	o->chan[o->nchan].chid = ch;
	o->chan[o->nchan].prio = -1;
	o->chan[o->nchan].label = NULL;
	return &o->chan[o->nchan++];
}

static FILE *open_out(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f)
		fprintf(stderr, "ppu-trace: %s: %s\n", path, strerror(errno));
	return f;
}

struct tee {
	struct ppu_tl_sink a, b;
};

static void tee_lane(void *ctx, const struct ppu_tl_lane *l)
{
	struct tee *t = ctx;

	if (t->a.lane)
		t->a.lane(t->a.ctx, l);
	if (t->b.lane)
		t->b.lane(t->b.ctx, l);
}

static void tee_slice(void *ctx, const struct ppu_tl_slice *s)
{
	struct tee *t = ctx;

	if (t->a.slice)
		t->a.slice(t->a.ctx, s);
	if (t->b.slice)
		t->b.slice(t->b.ctx, s);
}

static void tee_instant(void *ctx, const struct ppu_tl_instant *in)
{
	struct tee *t = ctx;

	if (t->a.instant)
		t->a.instant(t->a.ctx, in);
	if (t->b.instant)
		t->b.instant(t->b.ctx, in);
}

static void tee_flow(void *ctx, const struct ppu_tl_flow *f)
{
	struct tee *t = ctx;

	if (t->a.flow)
		t->a.flow(t->a.ctx, f);
	if (t->b.flow)
		t->b.flow(t->b.ctx, f);
}

static void tee_counter(void *ctx, enum ppu_tl_counter c, uint64_t ts, int64_t v)
{
	struct tee *t = ctx;

	if (t->a.counter)
		t->a.counter(t->a.ctx, c, ts, v);
	if (t->b.counter)
		t->b.counter(t->b.ctx, c, ts, v);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The host files' lanes after the device's, and what the alignment is worth. */
static int host_emit(const struct opts *o, struct ppu_host **host, struct ppu_tl_model *m,
		     const struct ppu_tl_sink *sink)
{
	int i, lanes;

	ppu_tl_lanes(m, &lanes);
	for (i = 0; i < o->nhost; i++) {
		const struct ppu_host_stats *hs;
		const struct ppu_align *al;
		char why[256];

		if (ppu_host_emit(host[i], sink, lanes, why, sizeof(why))) {
			fprintf(stderr, "ppu-trace: %s: %s\n", o->host[i], why);
			return -1;
		}
		hs = ppu_host_get_stats(host[i]);
		al = hs->align;
		lanes += (int)hs->tracks;
		if (o->quiet)
			continue;
		fprintf(stderr, "ppu-trace: %s: %zu host events on %zu tracks; %zu flows to "
			"COPY_START (%zu chunks unmatched)\n", o->host[i], hs->events, hs->tracks,
			hs->flows, hs->chunks_unmatched);
		fprintf(stderr, "ppu-trace: %s: %zu sync points (%zu counter reads, %zu releases); "
			"%s map over %zu of them; line fit residual rms %.0f max %.0f cycles",
			o->host[i], hs->syncs_counter + hs->syncs_release, hs->syncs_counter,
			hs->syncs_release, al->method == PPU_ALIGN_LINE ? "line" : "piecewise",
			al->n, al->line_rms, al->line_max);
		if (al->loo_n)
			fprintf(stderr, "; piecewise leave-one-out error median %.0f max %.0f cycles",
				al->loo_median, al->loo_max);
		fputc('\n', stderr);
		if (hs->offset_found)
			fprintf(stderr, "ppu-trace: %s: trace cycle = PPU counter + %lld (%zu of %zu "
				"releases matched)\n", o->host[i], (long long)hs->offset,
				hs->releases_matched, hs->syncs_release);
		else if (!o->host_opts.have_offset)
			fprintf(stderr, "ppu-trace: %s: no release the host saw is in the trace: "
				"assuming trace cycle = PPU counter (--host-offset)\n", o->host[i]);
	}
	return 0;
}

/*
 * One input through the model into the JSON writer and/or the SVG.  Returns
 * 0 or EXIT_INPUT (after saying why).
 */
static int convert(const struct opts *o, const char *path, const char *group,
		   struct ppu_tl_json *json, struct ppu_tl_svg *svg)
{
	FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct ppu_tl_model *m = NULL;
	struct tee tee;
	struct ppu_tl_sink sink = { &tee, tee_lane, tee_slice, tee_instant, tee_counter, tee_flow };
	struct ppu_host *host[MAX_INPUTS] = { NULL };
	struct ppu_trace_chan_note note;
	struct ppu_trace_rec rec;
	const struct ppu_tl_stats *st;
	unsigned long long lineno = 0, unknown = 0, first_unknown = 0;
	char *line = NULL, err[96];
	size_t cap = 0;
	int rc = 0, i, started = 0;

	if (!in) {
		fprintf(stderr, "ppu-trace: %s: %s\n", path, strerror(errno));
		return EXIT_INPUT;
	}
	setvbuf(in, NULL, _IOFBF, 1 << 20);
	memset(&tee, 0, sizeof(tee));
	if (json)
		ppu_tl_json_sink(json, &tee.a);

	for (i = 0; i < o->nhost; i++) {
		char why[256];

		host[i] = ppu_host_load(o->host[i], &o->host_opts, why, sizeof(why));
		if (!host[i]) {
			fprintf(stderr, "ppu-trace: %s\n", why);
			rc = EXIT_INPUT;
			goto out;
		}
	}
	m = ppu_tl_model_new(&sink);
	/* The host knows the device priority of the channels it made. */
	for (i = 0; i < o->nhost; i++) {
		unsigned int ch;

		for (ch = 0; ch <= PPU_TRACE_MAX_CHID; ch++) {
			int prio = ppu_host_chan_prio(host[i], ch);

			if (prio >= 0)
				ppu_tl_set_chan(m, ch, prio, NULL);
		}
	}
	for (i = 0; i < o->nchan; i++)
		ppu_tl_set_chan(m, o->chan[i].chid, o->chan[i].prio, o->chan[i].label);

	while (getline(&line, &cap, in) >= 0) {
		lineno++;
		switch (ppu_trace_parse_line(line, &rec, &note, err, sizeof(err))) {
		case PPU_TRACE_LINE_RECORD:
			break;
		case PPU_TRACE_LINE_CHAN_NOTE:
			/* the command line wins over the trace's own notes */
			for (i = 0; i < o->nchan && o->chan[i].chid != note.chid; i++)
				;
			if (i == o->nchan)
				ppu_tl_set_chan(m, note.chid, note.prio, note.label);
			continue;
		case PPU_TRACE_LINE_SKIP:
			continue;
		case PPU_TRACE_LINE_UNKNOWN_KIND:
			if (!unknown++)
				first_unknown = lineno;
			continue;
		case PPU_TRACE_LINE_BAD:
			fprintf(stderr, "ppu-trace: %s:%llu: %s\n", name, lineno, err);
			rc = EXIT_INPUT;
			goto out;
		}
		/* the SVG places slices relative to the first record */
		if (!started && svg)
			ppu_tl_svg_group(svg, group, rec.cycle, &tee.b);
		started = 1;
		for (i = 0; i < o->nhost; i++)
			ppu_host_observe(host[i], &rec);
		if (ppu_tl_feed(m, &rec)) {
			fprintf(stderr, "ppu-trace: %s:%llu: cycle %llu is before the previous "
				"record's\n", name, lineno, (unsigned long long)rec.cycle);
			rc = EXIT_INPUT;
			goto out;
		}
	}
	if (ferror(in)) {
		fprintf(stderr, "ppu-trace: %s: read error: %s\n", name, strerror(errno));
		rc = EXIT_INPUT;
		goto out;
	}
	if (!started && svg)
		ppu_tl_svg_group(svg, group, 0, &tee.b);
	ppu_tl_finish(m);
	if (o->nhost && host_emit(o, host, m, &sink)) {
		rc = EXIT_INPUT;
		goto out;
	}
	st = ppu_tl_get_stats(m);
	if (!o->quiet)
		fprintf(stderr, "ppu-trace: %s: %llu records, cycles %llu..%llu, %llu slices, "
			"%llu instants\n", name, (unsigned long long)st->records,
			(unsigned long long)st->first_cycle, (unsigned long long)st->last_cycle,
			(unsigned long long)st->slices, (unsigned long long)st->instants);
	if (unknown)
		fprintf(stderr, "ppu-trace: %s: skipped %llu records of kinds not in ppu_trace.def "
			"(first on line %llu)\n", name, unknown, first_unknown);
	if (st->copy_start_unmatched)
		fprintf(stderr, "ppu-trace: %s: %llu COPY_START without a COPY_END (drawn to the "
			"end, marked unfinished)\n", name,
			(unsigned long long)st->copy_start_unmatched);
	if (st->copy_end_unmatched)
		fprintf(stderr, "ppu-trace: %s: %llu COPY_END without a COPY_START (ignored)\n", name,
			(unsigned long long)st->copy_end_unmatched);
	if (st->sem_wait_unfinished)
		fprintf(stderr, "ppu-trace: %s: %llu semaphore waits still open at the end\n", name,
			(unsigned long long)st->sem_wait_unfinished);
	if (st->out_of_range)
		fprintf(stderr, "ppu-trace: %s: %llu compute records beyond %u CUs x %u CTAs at once "
			"(not drawn)\n", name, (unsigned long long)st->out_of_range, PPU_TL_MAX_CU,
			PPU_TL_MAX_CU_ROWS);
	if (o->strict && (st->copy_start_unmatched || st->copy_end_unmatched))
		rc = EXIT_INPUT;
out:
	for (i = 0; i < o->nhost; i++)
		ppu_host_free(host[i]);
	ppu_tl_model_free(m);
	free(line);
	if (in != stdin)
		fclose(in);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "svg", required_argument, NULL, 's' },
		{ "title", required_argument, NULL, 't' },
		{ "group", required_argument, NULL, 'g' },
		{ "chan-prio", required_argument, NULL, 'p' },
		{ "chan-label", required_argument, NULL, 'l' },
		{ "clock-mhz", required_argument, NULL, 'c' },
		{ "width", required_argument, NULL, 'w' },
		{ "strict", no_argument, NULL, 'S' },
		{ "host", required_argument, NULL, 'H' },
		{ "align", required_argument, NULL, 'A' },
		{ "host-offset", required_argument, NULL, 'O' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const stdin_only[] = { "-" };
	struct opts o;
	const char *const *inputs;
	struct ppu_tl_json *json = NULL;
	struct ppu_tl_svg *svg = NULL;
	FILE *jf = NULL, *sf = NULL;
	struct chan_opt *co;
	const char *rest;
	unsigned int ch;
	int c, i, n, rc = 0;
	char *end;

	memset(&o, 0, sizeof(o));
	o.mhz = 1.0;
	o.host_opts.method = PPU_ALIGN_PIECEWISE;
	while ((c = getopt_long(argc, argv, "j:s:t:g:p:l:c:w:qhH:", longopts, NULL)) != -1) {
		switch (c) {
		case 'H':
			if (o.nhost == MAX_INPUTS) {
				fprintf(stderr, "ppu-trace: at most %d host files\n", MAX_INPUTS);
				return EXIT_USAGE;
			}
			o.host[o.nhost++] = optarg;
			break;
		case 'A':
			if (!strcmp(optarg, "piecewise")) {
				o.host_opts.method = PPU_ALIGN_PIECEWISE;
			} else if (!strcmp(optarg, "line")) {
				o.host_opts.method = PPU_ALIGN_LINE;
			} else {
				fprintf(stderr, "ppu-trace: --align is piecewise or line, got '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'O':
			o.host_opts.offset = strtoll(optarg, &end, 0);
			if (end == optarg || *end) {
				fprintf(stderr, "ppu-trace: --host-offset wants cycles, got '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			o.host_opts.have_offset = 1;
			break;
		case 'j':
			o.json = optarg;
			break;
		case 's':
			o.svg = optarg;
			break;
		case 't':
			o.title = optarg;
			break;
		case 'g':
			if (o.ngroup_titles == MAX_INPUTS) {
				fprintf(stderr, "ppu-trace: at most %d groups\n", MAX_INPUTS);
				return EXIT_USAGE;
			}
			o.group_title[o.ngroup_titles++] = optarg;
			break;
		case 'p':
			if (parse_chan(optarg, &ch, &rest) || !(co = chan_opt(&o, ch))) {
				fprintf(stderr, "ppu-trace: --chan-prio wants CH=P, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			co->prio = (int)strtol(rest, &end, 0);
			if (end == rest || *end || co->prio < 0 || co->prio > 255) {
				fprintf(stderr, "ppu-trace: --chan-prio: priority 0..255 wanted, got '%s'\n",
					rest);
				return EXIT_USAGE;
			}
			break;
		case 'l':
			if (parse_chan(optarg, &ch, &rest) || !(co = chan_opt(&o, ch))) {
				fprintf(stderr, "ppu-trace: --chan-label wants CH=TEXT, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			co->label = rest;
			break;
		case 'c':
			o.mhz = strtod(optarg, &end);
			if (end == optarg || *end || !(o.mhz > 0) || o.mhz > 1e6) {
				fprintf(stderr, "ppu-trace: --clock-mhz wants a frequency in MHz, got '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'w':
			o.width = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || o.width < 100 || o.width > 20000) {
				fprintf(stderr, "ppu-trace: --width wants 100..20000 pixels, got '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'S':
			o.strict = 1;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	n = argc - optind;
	inputs = (const char *const *)argv + optind;
	if (!n) {
		inputs = stdin_only;
		n = 1;
	}
	if (!o.json && !o.svg) {
		fprintf(stderr, "ppu-trace: nothing to write: give --json FILE and/or --svg FILE "
			"(--help)\n");
		return EXIT_USAGE;
	}
	/* a single sync point maps at the device clock */
	o.host_opts.rate = o.mhz / 1000.0;
	if (o.nhost && n > 1) {
		fprintf(stderr, "ppu-trace: --host takes one TRACE (%d given)\n", n);
		return EXIT_USAGE;
	}
	if (o.json && n > 1) {
		fprintf(stderr, "ppu-trace: --json takes one trace (%d given)\n", n);
		return EXIT_USAGE;
	}
	if (n > MAX_INPUTS || o.ngroup_titles > n) {
		fprintf(stderr, "ppu-trace: %d traces and %d group titles (at most %d traces, one "
			"title each)\n", n, o.ngroup_titles, MAX_INPUTS);
		return EXIT_USAGE;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(inputs[i], "-") && n > 1) {
			fprintf(stderr, "ppu-trace: standard input cannot be one of several traces\n");
			return EXIT_USAGE;
		}
	if (o.json && o.svg && !strcmp(o.json, "-") && !strcmp(o.svg, "-")) {
		fprintf(stderr, "ppu-trace: --json and --svg cannot both go to stdout\n");
		return EXIT_USAGE;
	}

	if (o.json) {
		if (!(jf = open_out(o.json)))
			return EXIT_INPUT;
		setvbuf(jf, NULL, _IOFBF, 1 << 20);
		json = ppu_tl_json_new(jf, o.mhz, strcmp(inputs[0], "-") ? base_name(inputs[0]) : NULL);
	}
	if (o.svg)
		svg = ppu_tl_svg_new(o.title, o.width);
	if ((o.json && !json) || (o.svg && !svg)) {
		fprintf(stderr, "ppu-trace: out of memory\n");
		return EXIT_INPUT;
	}
	for (i = 0; i < n && !rc; i++) {
		const char *g = i < o.ngroup_titles ? o.group_title[i] :
				strcmp(inputs[i], "-") ? base_name(inputs[i]) : "stdin";

		rc = convert(&o, inputs[i], g, json, svg);
	}
	if (json && ppu_tl_json_finish(json)) {
		fprintf(stderr, "ppu-trace: %s: write failed: %s\n", o.json, strerror(errno));
		rc = EXIT_INPUT;
	}
	if (jf && jf != stdout && fclose(jf) && !rc) {
		fprintf(stderr, "ppu-trace: %s: %s\n", o.json, strerror(errno));
		rc = EXIT_INPUT;
	}
	if (svg && !rc) {
		if (!(sf = open_out(o.svg))) {
			rc = EXIT_INPUT;
		} else if (ppu_tl_svg_finish(svg, sf) || (sf != stdout && fclose(sf))) {
			fprintf(stderr, "ppu-trace: %s: write failed: %s\n", o.svg, strerror(errno));
			rc = EXIT_INPUT;
		}
		svg = NULL;
	}
	if (svg)
		ppu_tl_svg_finish(svg, NULL);	/* frees it */
	return rc;
}
