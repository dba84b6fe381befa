// SPDX-License-Identifier: MIT
/*
 * Host events of libppu; the format and its use are described in trace.h
 * and docs/timeline.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "drm/ppu_drm.h"
#include "ppu_internal.h"
#include "trace.h"

/* Longer lines are cut (and still end with a newline). */
#define LINE_MAX_BYTES 512

int ppu_trace_fd = -1;

static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
static char trace_err[400];
static int trace_err_told;

static void trace_open(void)
{
	const char *path = getenv("PPU_TRACE");
	char head[128];
	int fd, n;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(trace_err, sizeof(trace_err), "PPU_TRACE=%s: %s; host tracing is off",
			 path, strerror(errno));
		return;
	}
	/* Several processes may append to one file: each says where it starts. */
	n = snprintf(head, sizeof(head), "# ppu host trace 1 pid %ld\n", (long)getpid());
	if (write(fd, head, (size_t)n) != n) {
		snprintf(trace_err, sizeof(trace_err), "PPU_TRACE=%s: %s; host tracing is off",
			 path, strerror(errno));
		close(fd);
		return;
	}
	ppu_trace_fd = fd;
}

const char *ppu_trace_init(void)
{
	pthread_once(&trace_once, trace_open);
	if (!trace_err[0] || __atomic_exchange_n(&trace_err_told, 1, __ATOMIC_RELAXED))
		return NULL;
	return trace_err;
}

int64_t ppu_trace_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

void ppu_trace_line(int64_t t0, int64_t dur, const char *kind, const char *fmt, ...)
{
	char buf[LINE_MAX_BYTES];
	va_list ap;
	int n, m;

	if (ppu_trace_fd < 0)
		return;
	/* Not cached: a forked child traces under its own ids. */
	n = snprintf(buf, sizeof(buf), "%lld %ld %ld %s", (long long)t0, (long)getpid(),
		     (long)syscall(SYS_gettid), kind);
	if (dur >= 0 && n < (int)sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, " dur=%lld", (long long)dur);
	if (n < (int)sizeof(buf) - 1) {
		buf[n++] = ' ';
		va_start(ap, fmt);
		m = vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
		va_end(ap);
		n = m < 0 ? n - 1 : n + m;
	}
	if (n > (int)sizeof(buf) - 1)
		n = (int)sizeof(buf) - 1;
	buf[n++] = '\n';
	/* A failed write loses one line; the program goes on. */
	if (write(ppu_trace_fd, buf, (size_t)n) < 0)
		return;
}

void ppu_trace_stream(const char *kind, int64_t t0, ppu_stream *s)
{
	ppu_ctx *ctx = s->ctx;

	if (!s->chan)
		return;
	ppu_trace_line(t0, -1, kind, "ctx=%u stream=%u prio=%d req=%d level=%u dev_prio=%u ch=%u "
		       "depth=%llu%s", ctx->trace_id, s->trace_id, s->prio, s->req_prio, s->level,
		       s->chan->dev_prio, s->chan->chid, (unsigned long long)ctx->max_depth,
		       s->is_default ? " default=1" : "");
}

void ppu_trace_sync_counter(ppu_ctx *ctx)
{
	struct drm_ppu_get_param gp = { .param = DRM_PPU_PARAM_CYCLE_COUNTER };
	int64_t t0, t1;

	t0 = ppu_trace_now();
	if (ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_GET_PARAM, &gp))
		return;
	t1 = ppu_trace_now();
	/* The register was read somewhere inside the bracket: its middle is the best guess. */
	ppu_trace_line(t0 + (t1 - t0) / 2, -1, "SYNC", "ctx=%u src=counter cycle=%llu err=%lld",
		       ctx->trace_id, (unsigned long long)gp.value, (long long)((t1 - t0 + 1) / 2));
}

void ppu_trace_sync_release(ppu_ctx *ctx, const struct ppu_chan *ch, const struct ppu_sem *sem,
			    uint32_t value, const char *what, unsigned int id)
{
	int64_t now = ppu_trace_now();
	uint64_t cycle = (uint64_t)sem->cpu[PPU_SEM16_TIMESTAMP_LO / 4] |
			 (uint64_t)sem->cpu[PPU_SEM16_TIMESTAMP_HI / 4] << 32;

	ppu_trace_line(now, -1, "SYNC", "ctx=%u src=release cycle=%llu ch=%u va=%#x value=%u %s=%u",
		       ctx->trace_id, (unsigned long long)cycle, ch->chid, sem->va, value, what, id);
}

const char *ppu_trace_mem_kind(ppu_ctx *ctx, uint64_t va)
{
	struct ppu_alloc *a = ppu_alloc_find(ctx, va, 1);

	return !a ? "?" : a->local ? "local" : "host";
}
