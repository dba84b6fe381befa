// SPDX-License-Identifier: MIT
/*
 * soak_copy_prio: long randomised mixes of prioritised copies through
 * libppu, in the co-simulated guest (Check).
 *
 *   soak_copy_prio [--mixes N] [--seed S] [--hold] [--mix-seconds T]
 *
 * A context lives for a random number of mixes, so that its channels'
 * GPFIFO rings and pushbuffers wrap many times; it has 2 to 4 copy
 * priority levels (through the max nesting depth) and one of the three
 * copy-priority modes.  A mix issues 4 to 20 copies over 2 to 6 streams
 * (several on one level, so they alias onto one channel; sometimes the
 * default stream): 1 B to 2 MiB at odd offsets, host to host or through one
 * or two local-memory hops whose hops may run on different streams joined
 * by events, overwriting earlier destinations in a dependent order, with
 * chunk-size changes, extra cross-stream event waits and streams destroyed
 * and recreated in the middle.  With --hold every mix sets a random
 * DEBUG_RELEASE_HOLD, which widens the window between a release and the
 * PPU's fetch of the methods after it.
 *
 * After each mix every destination buffer is compared, guard bytes
 * included, with the image the CPU computed by applying the copies in
 * their dependency order.  Channel faults are counted from libppu's return
 * codes and from the driver's fault log; a mix that does not drain within
 * --mix-seconds counts as a deadlock.  The last line is
 *
 *   soak: mixes N contexts N copies N bytes N checked N faults F bad_bytes B deadlocks D
 *
 * and the test fails unless F, B and D are 0.  The seed is printed first:
 * the same seed replays the same run.
 */
#include <check.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ppu_guest.h"
#include "rt_guest.h"

#define SOAK_MAX_BYTES (2u << 20)
#define SOAK_SRC_SLACK 64u	/* odd source offsets */
#define SOAK_GUARD 16u		/* bytes around every destination */
#define SOAK_MAX_COPIES 20
#define SOAK_MAX_STREAMS 6
#define SOAK_MAX_EVENTS (SOAK_MAX_COPIES * 4 + 8)

static struct {
	unsigned long mixes;
	uint64_t seed;
	int hold;
	unsigned int mix_seconds;
} opt = { .mixes = 100, .mix_seconds = 300 };

static struct {
	unsigned long mixes, contexts, copies, faults, bad_bytes, deadlocks;
	uint64_t bytes, checked;
} stats;

/* ---- a deterministic generator (the same seed, the same run) ---- */

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static unsigned int rng_below(unsigned int n)
{
	return (unsigned int)(rng() % n);
}

/* Percent chance. */
static int rng_pct(unsigned int pct)
{
	return rng_below(100) < pct;
}

/* 1 B .. 2 MiB, about as many copies in every power of two. */
static uint64_t rng_size(void)
{
	if (rng_pct(4))
		return SOAK_MAX_BYTES;
	return 1 + rng() % (1ull << rng_below(22));
}

/* ---- the watchdog: a call that never returns is a deadlock ---- */

static char mix_desc[256];

static void watchdog(int sig)
{
	static const char msg[] = "soak: DEADLOCK: a libppu call did not return; ";

	(void)sig;
	/* Only async-signal-safe calls here. */
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0 ||
	    write(STDERR_FILENO, mix_desc, strlen(mix_desc)) < 0 ||
	    write(STDERR_FILENO, "\n", 1) < 0)
		_exit(3);
	_exit(3);
}

/* ---- the context of several mixes ---- */

struct soak_ctx {
	ppu_ctx *ctx;
	int levels;
	int mode;
	unsigned int mixes_left;
	uint64_t hw_chunk;
	uint8_t *src;		/* host source, SOAK_MAX_BYTES + SOAK_SRC_SLACK */
	ppu_devptr src_d;
};

static const char *const mode_name[] = { "off", "strict", "patent" };

static void ctx_open(struct soak_ctx *c)
{
	struct ppu_device_info info;
	int least, greatest;
	unsigned int r;

	c->levels = 2 + (int)rng_below(3);
	r = rng_below(100);
	c->mode = r < 80 ? PPU_COPY_PRIORITIES_ON : r < 92 ? PPU_COPY_PRIORITIES_PATENT_ORDER :
		  PPU_COPY_PRIORITIES_OFF;
	c->mixes_left = 1 + rng_below(40);

	RT(ppu_ctx_create(&c->ctx, 0, 0));
	RT(ppu_ctx_get_info(c->ctx, &info));
	c->hw_chunk = info.copy_chunk_bytes;
	ck_assert_uint_gt(c->hw_chunk, 0);
	/* floor(M / N) stream priorities: N = M / levels gives exactly levels. */
	RT(ppu_ctx_set_limit(c->ctx, PPU_LIMIT_MAX_NESTING_DEPTH,
			     info.num_device_priorities / (unsigned int)c->levels));
	RT(ppu_ctx_set_limit(c->ctx, PPU_LIMIT_COPY_PRIORITIES, (uint64_t)c->mode));
	RT(ppu_ctx_get_stream_priority_range(c->ctx, &least, &greatest));
	ck_assert_int_eq(least, 0);
	ck_assert_int_eq(greatest, c->levels - 1);
	RT(ppu_mem_alloc_host(c->ctx, SOAK_MAX_BYTES + SOAK_SRC_SLACK, (void **)&c->src,
			      &c->src_d));
	stats.contexts++;
}

static void ctx_close(struct soak_ctx *c)
{
	/* After a fault the final wait reports it; the context is freed anyway. */
	ppu_ctx_destroy(c->ctx);
	c->ctx = NULL;
}

/* ---- one mix ---- */

struct soak_stream {
	ppu_stream *s;
	int prio;
	unsigned int gen;	/* bumped when the slot's stream is replaced */
	int is_default;
};

struct soak_dst {
	uint8_t *p;		/* the PPU's view, host memory */
	ppu_devptr d;
	uint8_t *expect;	/* what it must hold at the end */
	uint64_t size;
	int writer;		/* slot of the stream of the last write, -1 none */
	unsigned int writer_gen;
};

struct mix {
	struct soak_ctx *c;
	struct soak_stream st[SOAK_MAX_STREAMS];
	unsigned int nstreams;
	struct soak_dst dst[SOAK_MAX_COPIES];
	unsigned int ndst;
	ppu_devptr local[SOAK_MAX_COPIES * 2];
	unsigned int nlocal;
	ppu_event *ev[SOAK_MAX_EVENTS];
	unsigned int nev;
	int faulted;
};

/* A libppu call in a mix: a channel fault is counted, anything else fails. */
static int mix_call(struct mix *m, ppu_status st, const char *what)
{
	if (st == PPU_SUCCESS)
		return 0;
	if (st == PPU_ERROR_CHANNEL_FAULT) {
		fprintf(stderr, "soak: FAULT in %s: %s; %s\n", what, ppu_last_error(), mix_desc);
		m->faulted = 1;
		return -1;
	}
	ck_abort_msg("%s: %s: %s; %s", what, ppu_status_name(st), ppu_last_error(), mix_desc);
	return -1;
}

#define MIX(m, call) mix_call((m), (call), #call)

static void stream_open(struct mix *m, unsigned int slot)
{
	struct soak_stream *s = &m->st[slot];

	s->gen++;
	s->is_default = slot == 0 && rng_pct(25);
	if (s->is_default) {
		s->s = ppu_ctx_default_stream(m->c->ctx);
		s->prio = 0;
		return;
	}
	/* Now and then out of range: libppu clamps it. */
	s->prio = rng_pct(5) ? m->c->levels + 2 : (int)rng_below((unsigned int)m->c->levels);
	RT(ppu_stream_create_with_priority(m->c->ctx, s->prio, &s->s));
	RT(ppu_stream_get_priority(s->s, &s->prio));
}

static ppu_event *new_event(struct mix *m)
{
	ppu_event *e;

	ck_assert_uint_lt(m->nev, SOAK_MAX_EVENTS);
	RT(ppu_event_create(m->c->ctx, &e));
	m->ev[m->nev++] = e;
	return e;
}

/* Work issued to slot @to afterwards waits for slot @from's work so far. */
static int join(struct mix *m, unsigned int from, unsigned int to)
{
	ppu_event *e;

	if (from == to)
		return 0;
	e = new_event(m);
	if (MIX(m, ppu_event_record(e, m->st[from].s)))
		return -1;
	return MIX(m, ppu_stream_wait_event(m->st[to].s, e));
}

static int copy(struct mix *m, ppu_devptr dst, ppu_devptr src, uint64_t bytes, unsigned int slot)
{
	stats.copies++;
	stats.bytes += bytes;
	return MIX(m, ppu_memcpy_async(dst, src, bytes, m->st[slot].s));
}

static int set_chunk(struct mix *m)
{
	static const unsigned int mult[] = { 0, 1, 1, 2, 3, 4, 8, 64 };

	return MIX(m, ppu_ctx_set_limit(m->c->ctx, PPU_LIMIT_COPY_CHUNK_BYTES,
					m->c->hw_chunk * mult[rng_below(8)]));
}

static struct soak_dst *pick_dst(struct mix *m, uint64_t need)
{
	struct soak_dst *d;

	/* Overwrite an earlier destination that is large enough, now and then. */
	if (m->ndst && rng_pct(20)) {
		d = &m->dst[rng_below(m->ndst)];
		if (d->size >= need + 2 * SOAK_GUARD)
			return d;
	}
	ck_assert_uint_lt(m->ndst, SOAK_MAX_COPIES);
	d = &m->dst[m->ndst++];
	d->size = need + 2 * SOAK_GUARD + rng_below(64);
	RT(ppu_mem_alloc_host(m->c->ctx, d->size, (void **)&d->p, &d->d));
	d->expect = malloc(d->size);
	ck_assert_ptr_nonnull(d->expect);
	for (uint64_t i = 0; i < d->size; i++)
		d->expect[i] = (uint8_t)rng();
	memcpy(d->p, d->expect, d->size);
	d->writer = -1;
	return d;
}

static ppu_devptr new_local(struct mix *m, uint64_t bytes)
{
	ppu_devptr l;

	ck_assert_uint_lt(m->nlocal, SOAK_MAX_COPIES * 2);
	RT(ppu_mem_alloc(m->c->ctx, bytes, &l));
	m->local[m->nlocal++] = l;
	return l;
}

/*
 * One copy from the host source to a destination: directly, or through one
 * or two local buffers, each hop on a random stream joined to the previous
 * hop's by an event.
 */
static int issue_copy(struct mix *m)
{
	uint64_t bytes = rng_size();
	uint64_t soff = rng_below(SOAK_SRC_SLACK);
	unsigned int hops = rng_pct(60) ? 0 : 1 + rng_below(2);
	unsigned int slot = rng_below(m->nstreams), prev;
	struct soak_dst *d = pick_dst(m, bytes);
	uint64_t doff = SOAK_GUARD + rng_below((unsigned int)(d->size - bytes - 2 * SOAK_GUARD + 1));
	ppu_devptr from = m->c->src_d + soff;

	for (unsigned int h = 0; h < hops; h++) {
		uint64_t loff = rng_below(61);
		ppu_devptr l = new_local(m, bytes + loff + rng_below(8)) + loff;

		if (copy(m, l, from, bytes, slot))
			return -1;
		from = l;
		prev = slot;
		slot = rng_below(m->nstreams);
		if (join(m, prev, slot))
			return -1;
	}
	/* The last write to the destination must come before this one. */
	if (d->writer >= 0 && m->st[d->writer].gen == d->writer_gen &&
	    join(m, (unsigned int)d->writer, slot))
		return -1;
	if (copy(m, d->d + doff, from, bytes, slot))
		return -1;
	memcpy(d->expect + doff, m->c->src + soff, bytes);
	d->writer = (int)slot;
	d->writer_gen = m->st[slot].gen;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Polls every stream until all are idle: 0, -1 on a fault or a deadlock. */
static int drain(struct mix *m)
{
	double deadline = now_s() + opt.mix_seconds;
	struct timespec pause = { 0, 1000000 };

	for (;;) {
		int busy = 0;

		for (unsigned int i = 0; i < m->nstreams; i++) {
			ppu_status st = ppu_stream_query(m->st[i].s);

			if (st == PPU_ERROR_NOT_READY)
				busy = 1;
			else if (MIX(m, st))
				return -1;
		}
		if (!busy)
			return 0;
		if (now_s() > deadline) {
			char chans[4096];
			size_t n = ppu_debugfs_read("channels", chans, sizeof(chans) - 1);

			chans[n] = 0;
			fprintf(stderr, "soak: DEADLOCK: not idle after %u s; %s\nchannels:\n%s\n",
				opt.mix_seconds, mix_desc, chans);
			stats.deadlocks++;
			return -1;
		}
		nanosleep(&pause, NULL);
	}
}

/* Compares every destination with its image; returns the bad bytes. */
static uint64_t verify(struct mix *m)
{
	uint64_t bad = 0;

	for (unsigned int i = 0; i < m->ndst; i++) {
		struct soak_dst *d = &m->dst[i];
		uint64_t first = UINT64_MAX, nbad = 0;
		uint8_t got = 0;

		for (uint64_t k = 0; k < d->size; k++) {
			if (d->p[k] != d->expect[k]) {
				if (first == UINT64_MAX) {
					first = k;
					got = d->p[k];
				}
				nbad++;
			}
		}
		if (nbad)
			fprintf(stderr, "soak: BAD BYTES: destination %u (%" PRIu64 " bytes): %" PRIu64
				" differ, first at %" PRIu64 " (0x%02x, expected 0x%02x); %s\n",
				i, d->size, nbad, first, got, d->expect[first], mix_desc);
		bad += nbad;
		stats.checked += d->size;
	}
	return bad;
}

/* After a fault the context goes, and everything in it with it. */
static void mix_free(struct mix *m)
{
	for (unsigned int i = 0; i < m->ndst; i++)
		free(m->dst[i].expect);
	if (m->faulted)
		return;
	for (unsigned int i = 0; i < m->nev; i++)
		ppu_event_destroy(m->ev[i]);
	for (unsigned int i = 0; i < m->nstreams; i++)
		if (!m->st[i].is_default)
			ppu_stream_destroy(m->st[i].s);
	for (unsigned int i = 0; i < m->ndst; i++)
		ppu_mem_free(m->c->ctx, m->dst[i].d);
	for (unsigned int i = 0; i < m->nlocal; i++)
		ppu_mem_free(m->c->ctx, m->local[i]);
}

/*
 * Returns 0, or -1 when the context is unusable (a fault).  After a
 * deadlock nothing is freed: that would wait for ever.
 */
static int run_mix(struct soak_ctx *c, unsigned long index)
{
	struct mix m;
	unsigned int ncopies = 4 + rng_below(SOAK_MAX_COPIES - 3);
	unsigned int hold = 0;
	int failed = 0;

	memset(&m, 0, sizeof(m));
	m.c = c;
	m.nstreams = 2 + rng_below(SOAK_MAX_STREAMS - 1);
	if (opt.hold) {
		static const unsigned int holds[] = { 0, 0, 0, 16, 200, 1000, 5000 };
		char text[16];

		hold = holds[rng_below(7)];
		snprintf(text, sizeof(text), "%u", hold);
		ck_assert_int_eq(ppu_debugfs_write("release_hold", text), 0);
	}
	snprintf(mix_desc, sizeof(mix_desc),
		 "mix %lu (seed %#" PRIx64 "): %d levels, %s, %u streams, %u copies, hold %u",
		 index, opt.seed, c->levels, mode_name[c->mode], m.nstreams, ncopies, hold);

	for (uint64_t k = 0; k < SOAK_MAX_BYTES + SOAK_SRC_SLACK; k++)
		c->src[k] = (uint8_t)rng();
	for (unsigned int i = 0; i < m.nstreams; i++)
		stream_open(&m, i);
	failed = set_chunk(&m);

	for (unsigned int i = 0; i < ncopies && !failed; i++) {
		unsigned int r = rng_below(100);

		failed = issue_copy(&m);
		if (failed)
			break;
		if (r < 10) {
			failed = set_chunk(&m);
		} else if (r < 20) {
			failed = join(&m, rng_below(m.nstreams), rng_below(m.nstreams));
		} else if (r < 26) {
			/* Replace a stream: destroying it waits for its work. */
			unsigned int slot = rng_below(m.nstreams);

			/*
			 * The default stream is not destroyed: wait for it instead,
			 * as destroying does, since nothing tracks its work once
			 * the slot holds another stream.
			 */
			if (!m.st[slot].is_default)
				failed = MIX(&m, ppu_stream_destroy(m.st[slot].s));
			else
				failed = MIX(&m, ppu_stream_synchronize(m.st[slot].s));
			if (!failed)
				stream_open(&m, slot);
		} else if (r < 29) {
			failed = MIX(&m, ppu_stream_synchronize(m.st[rng_below(m.nstreams)].s));
		}
	}
	if (!failed)
		failed = drain(&m);
	if (!failed) {
		uint64_t bad = verify(&m);

		stats.bad_bytes += bad;
		failed = bad != 0;
	}
	stats.mixes++;
	if (stats.deadlocks)
		return 0;
	mix_free(&m);
	if (m.faulted) {
		stats.faults++;
		return -1;
	}
	return 0;
}

static uint64_t driver_faults(void)
{
	char text[8192];
	size_t n = ppu_debugfs_read("faults", text, sizeof(text) - 1);

	text[n] = 0;
	return ppu_debugfs_value(text, "FAULTS");
}

START_TEST(random_mixes)
{
	struct soak_ctx c = { 0 };
	uint64_t faults_before, driver;
	double t0 = now_s();

	ppu_guest_setup();
	faults_before = driver_faults();
	signal(SIGALRM, watchdog);
	rng_state = opt.seed ? opt.seed : 1;
	printf("soak: seed %#" PRIx64 ", %lu mixes%s\n", opt.seed, opt.mixes,
	       opt.hold ? ", random release holds" : "");
	fflush(stdout);

	for (unsigned long i = 0; i < opt.mixes && !stats.deadlocks; i++) {
		if (!c.ctx)
			ctx_open(&c);
		/* A blocking call (destroy, synchronize) that never returns. */
		alarm(opt.mix_seconds + 60);
		int st = run_mix(&c, i);

		if (stats.deadlocks)
			break;
		if (st || --c.mixes_left == 0)
			ctx_close(&c);
		alarm(0);
		if ((i + 1) % 100 == 0) {
			printf("soak: %lu mixes, %lu copies, %" PRIu64 " bytes, %.0f s\n", i + 1,
			       stats.copies, stats.bytes, now_s() - t0);
			fflush(stdout);
		}
	}
	if (c.ctx && !stats.deadlocks)
		ctx_close(&c);
	if (opt.hold && !stats.deadlocks)
		ck_assert_int_eq(ppu_debugfs_write("release_hold", "0"), 0);

	/* Faults libppu did not see (a channel no call waited on) are in the log. */
	driver = driver_faults() - faults_before;
	if (driver > stats.faults)
		stats.faults = driver;
	printf("soak: mixes %lu contexts %lu copies %lu bytes %" PRIu64 " checked %" PRIu64
	       " faults %lu bad_bytes %lu deadlocks %lu (%.0f s)\n",
	       stats.mixes, stats.contexts, stats.copies, stats.bytes, stats.checked, stats.faults,
	       stats.bad_bytes, stats.deadlocks, now_s() - t0);
	fflush(stdout);
	ppu_guest_teardown();
	ck_assert_uint_eq(stats.faults, 0);
	ck_assert_uint_eq(stats.bad_bytes, 0);
	ck_assert_uint_eq(stats.deadlocks, 0);
}
END_TEST

static void usage(void)
{
	fprintf(stderr, "usage: soak_copy_prio [--mixes N] [--seed S] [--hold] [--mix-seconds T]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mixes", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "hold", no_argument, NULL, 'h' },
		{ "mix-seconds", required_argument, NULL, 't' },
		{ 0 }
	};
	SRunner *sr;
	Suite *s;
	TCase *tc;
	int c, failed;

	opt.seed = (uint64_t)time(NULL) * 2654435761u;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 'm':
			opt.mixes = strtoul(optarg, &end, 0);
			if (*end || !opt.mixes)
				usage();
			break;
		case 's':
			opt.seed = strtoull(optarg, &end, 0);
			if (*end)
				usage();
			break;
		case 'h':
			opt.hold = 1;
			break;
		case 't':
			opt.mix_seconds = (unsigned int)strtoul(optarg, &end, 0);
			if (*end || !opt.mix_seconds)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	s = suite_create("libppu copy-priority soak");
	tc = tcase_create("soak");
	tcase_add_test(tc, random_mixes);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	/*
	 * In this process: Check's forked mode packs the test's duration in
	 * 32 bits of microseconds, which a run past 35 minutes overflows.  The
	 * mixes carry their own watchdog (the alarm), so no Check timeout is
	 * needed.
	 */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
