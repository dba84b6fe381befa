// SPDX-License-Identifier: MIT
/*
 * host_trace: libppu's host events (PPU_TRACE) in the co-simulated guest.
 *
 * Runs a small mix through the API with PPU_TRACE set: two streams of
 * different priorities, a chunked low-priority copy with a high-priority
 * copy issued behind it, events recorded and synchronised, a kernel
 * (saxpy) launched and checked against the CPU.  Then it reads the trace
 * back and checks that every call it made is there, with the stream's
 * mapping and the hardware channel ids the runtime used, and that the
 * sync points pair a host time with a PPU cycle.  A child process with an
 * unwritable PPU_TRACE checks that tracing is then off with a message and
 * the context still works.
 *
 * Usage: host_trace [--trace FILE] (default /tmp/ppu-host.trace; the file
 * is made empty first).  `make host-trace-check` fetches the file out of
 * the guest and merges it with the device's trace (docs/timeline.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ppu_runtime.h"
#include "../../runtime/device/samples/samples.h"

#define LOW_BYTES (96u << 10)	/* four chunks of the default 24 KiB */
#define HIGH_BYTES (8u << 10)
#define N 64u

static int failures;

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "host_trace: FAIL: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	failures++;
}

#define RT(call)                                                                       \
	do {                                                                           \
		ppu_status st_ = (call);                                               \
		if (st_) {                                                             \
			fprintf(stderr, "host_trace: %s: %s: %s\n", #call,               \
				ppu_status_name(st_), ppu_last_error());               \
			exit(1);                                                       \
		}                                                                      \
	} while (0)

/* What the program did, to be found in the trace. */
struct expect {
	unsigned int low_dev, high_dev;
	int low_prio, high_prio;
};

static void run(struct expect *e)
{
	struct saxpy_params p = { .n = N, .a = 3 };
	ppu_stream *low, *high;
	ppu_event *ev_low, *ev_high;
	ppu_devptr hsrc, hdst, lbuf, xd, yd;
	uint8_t *src, *dst;
	int32_t *x, *y;
	ppu_function *fn;
	ppu_module *m;
	ppu_ctx *ctx;
	int lo, hi;
	uint64_t c0, c1;
	unsigned int i;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_get_stream_priority_range(ctx, &lo, &hi));
	RT(ppu_stream_create_with_priority(ctx, lo, &low));
	RT(ppu_stream_create_with_priority(ctx, hi, &high));
	RT(ppu_stream_get_priority(low, &e->low_prio));
	RT(ppu_stream_get_priority(high, &e->high_prio));
	RT(ppu_stream_get_device_priority(low, &e->low_dev));
	RT(ppu_stream_get_device_priority(high, &e->high_dev));
	RT(ppu_event_create(ctx, &ev_low));
	RT(ppu_event_create(ctx, &ev_high));

	RT(ppu_mem_alloc_host(ctx, LOW_BYTES, (void **)&src, &hsrc));
	RT(ppu_mem_alloc_host(ctx, LOW_BYTES, (void **)&dst, &hdst));
	RT(ppu_mem_alloc(ctx, LOW_BYTES, &lbuf));
	for (i = 0; i < LOW_BYTES; i++)
		src[i] = (uint8_t)(i * 7 + 1);

	/* A chunked low copy to local memory, a high copy issued behind it. */
	RT(ppu_memcpy_async(lbuf, hsrc, LOW_BYTES, low));
	RT(ppu_event_record(ev_low, low));
	RT(ppu_memcpy_async(hdst, hsrc, HIGH_BYTES, high));
	RT(ppu_event_record(ev_high, high));
	RT(ppu_event_synchronize(ev_high));
	RT(ppu_event_synchronize(ev_low));
	RT(ppu_event_elapsed_cycles(ev_low, ev_high, &(int64_t){ 0 }));
	RT(ppu_memcpy_async(hdst, lbuf, LOW_BYTES, low));
	RT(ppu_stream_synchronize(low));
	if (memcmp(src, dst, LOW_BYTES))
		fail("the copies did not arrive intact");

	/* A kernel in the high stream. */
	RT(ppu_module_load(ctx, "/lib/ppu/saxpy.elf", &m));
	RT(ppu_module_get_function(m, "saxpy", &fn));
	RT(ppu_mem_alloc_host(ctx, N * 4, (void **)&x, &xd));
	RT(ppu_mem_alloc_host(ctx, N * 4, (void **)&y, &yd));
	for (i = 0; i < N; i++) {
		x[i] = (int32_t)i;
		y[i] = 100 - (int32_t)i;
	}
	p.x = (uint32_t)xd;
	p.y = (uint32_t)yd;
	RT(ppu_event_record(ev_low, high));
	RT(ppu_launch_kernel(fn, (ppu_dim3){ N / 8, 1, 1 }, (ppu_dim3){ 8, 1, 1 }, &p, sizeof(p),
			     high));
	RT(ppu_event_record(ev_high, high));
	RT(ppu_event_synchronize(ev_high));
	RT(ppu_event_timestamp(ev_low, &c0));
	RT(ppu_event_timestamp(ev_high, &c1));
	for (i = 0; i < N; i++)
		if (y[i] != 3 * (int32_t)i + 100 - (int32_t)i) {
			fail("saxpy: y[%u] = %d", i, y[i]);
			break;
		}
	printf("host_trace: kernel took %llu PPU cycles between its events\n",
	       (unsigned long long)(c1 - c0));
	RT(ppu_stream_synchronize(high));
	RT(ppu_stream_destroy(high));
	RT(ppu_stream_destroy(low));
	RT(ppu_event_destroy(ev_low));
	RT(ppu_event_destroy(ev_high));
	RT(ppu_ctx_destroy(ctx));
}

/* The value of " key=" on @line as a number, or -1. */
static long long field(const char *line, const char *key)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	return p ? strtoll(p + strlen(pat), NULL, 0) : -1;
}

static int kind_is(const char *line, const char *kind)
{
	const char *p = line;
	int i;

	/* after the time, the pid and the tid */
	for (i = 0; i < 3 && p; i++)
		p = strchr(p + (i > 0), ' ');
	return p && !strncmp(p + 1, kind, strlen(kind)) && p[1 + strlen(kind)] == ' ';
}

static void check_trace(const char *path, const struct expect *e)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned int streams = 0, copies = 0, chunks = 0, launches = 0, records = 0,
		     esyncs = 0, ssyncs = 0, syncs_ctr = 0, syncs_rel = 0, ctx = 0;
	/* The hardware channel of each stream (the API does not show it): from the trace. */
	long long low_ch = -1, high_ch = -1;

	if (!f) {
		fail("%s: %s", path, strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (kind_is(line, "CTX_CREATE"))
			ctx++;
		if (kind_is(line, "STREAM_CREATE") && field(line, "default") != 1) {
			long long prio = field(line, "prio");

			streams++;
			if (prio == e->low_prio && field(line, "dev_prio") == e->low_dev)
				low_ch = field(line, "ch");
			else if (prio == e->high_prio && field(line, "dev_prio") == e->high_dev)
				high_ch = field(line, "ch");
			else
				fail("stream line does not match the streams: %s", line);
		}
		if (kind_is(line, "COPY") && field(line, "bytes") == LOW_BYTES) {
			copies++;
			if (field(line, "ch") != low_ch || field(line, "chunks") != 4 ||
			    field(line, "inc") != 0 || field(line, "acquires") != 1)
				fail("low copy: %s", line);
		}
		if (kind_is(line, "COPY") && field(line, "bytes") == HIGH_BYTES) {
			copies++;
			if (field(line, "ch") != high_ch || field(line, "chunks") != 1 ||
			    field(line, "inc") != 1 || field(line, "acquires") != 0 ||
			    field(line, "dur") < 0)
				fail("high copy: %s", line);
		}
		if (kind_is(line, "CHUNK"))
			chunks++;
		if (kind_is(line, "LAUNCH")) {
			launches++;
			if (!strstr(line, " fn=saxpy module=saxpy.elf grid=8,1,1 cta=8,1,1 ") ||
			    field(line, "dev_prio") != e->high_dev)
				fail("launch: %s", line);
		}
		if (kind_is(line, "EVENT_RECORD"))
			records++;
		if (kind_is(line, "EVENT_SYNC"))
			esyncs++;
		if (kind_is(line, "STREAM_SYNC"))
			ssyncs++;
		if (kind_is(line, "SYNC")) {
			if (field(line, "cycle") <= 0)
				fail("sync without a cycle: %s", line);
			if (strstr(line, " src=counter "))
				syncs_ctr++;
			else if (strstr(line, " src=release "))
				syncs_rel++;
		}
	}
	fclose(f);
	if (low_ch < 0 || high_ch < 0 || low_ch == high_ch)
		fail("streams on channels %lld and %lld", low_ch, high_ch);
	/* Two low copies of 4 chunks each (the module's image goes in one piece). */
	if (ctx != 1 || streams != 2 || copies != 3 || chunks != 8 || launches != 1 ||
	    records != 4 || esyncs != 3 || ssyncs < 2 || syncs_ctr < 3 || syncs_rel < 4)
		fail("trace: %u contexts, %u streams, %u copies, %u chunks, %u launches, %u records, "
		     "%u event syncs, %u stream syncs, %u counter and %u release sync points",
		     ctx, streams, copies, chunks, launches, records, esyncs, ssyncs, syncs_ctr,
		     syncs_rel);
	printf("host_trace: %s: %u copies, %u chunks, %u launch, %u records, %u+%u sync points\n",
	       path, copies, chunks, launches, records, syncs_ctr, syncs_rel);
}

/* An unwritable PPU_TRACE: a message, no trace, a working context. */
static void check_unwritable(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		ppu_ctx *ctx;
		ppu_status st;

		setenv("PPU_TRACE", "/proc/no-such-dir/host.trace", 1);
		st = ppu_ctx_create(&ctx, 0, 0);
		if (st) {
			fprintf(stderr, "host_trace: unwritable PPU_TRACE: %s\n", ppu_status_name(st));
			_exit(1);
		}
		if (!strstr(ppu_last_error(), "PPU_TRACE=/proc/no-such-dir/host.trace") ||
		    !strstr(ppu_last_error(), "host tracing is off")) {
			fprintf(stderr, "host_trace: message '%s'\n", ppu_last_error());
			_exit(1);
		}
		_exit(ppu_ctx_destroy(ctx) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("unwritable PPU_TRACE: the context did not work without tracing");
}

int main(int argc, char **argv)
{
	const char *path = "/tmp/ppu-host.trace";
	struct expect e = { 0 };
	FILE *f;

	if (argc == 3 && !strcmp(argv[1], "--trace")) {
		path = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: host_trace [--trace FILE]\n");
		return 2;
	}
	check_unwritable();
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "host_trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fclose(f);
	setenv("PPU_TRACE", path, 1);
	run(&e);
	check_trace(path, &e);
	if (failures) {
		fprintf(stderr, "host_trace: %d failures\n", failures);
		return 1;
	}
	printf("host_trace: ok\n");
	return 0;
}
