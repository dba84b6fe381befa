// SPDX-License-Identifier: MIT
/*
 * Non-blocking qtest client; see cosim_qtest.h for why nothing waits.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cosim_qtest.h"

void cosim_qtest_init(struct cosim_qtest *q, const char *path, int verbose)
{
	memset(q, 0, sizeof(*q));
	q->path = path;
	q->fd = -1;
	q->verbose = verbose;
}

int cosim_qtest_connect(struct cosim_qtest *q)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (q->fd >= 0)
		return 0;
	if (!q->path || q->closed)
		return -ENOTCONN;
	if (strlen(q->path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, q->path);

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* A UNIX socket connect completes or fails at once. */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	q->fd = fd;
	if (q->verbose)
		fprintf(stderr, "ppu-cosim-dev: qtest connected (%s)\n",
			q->path);
	return 0;
}

void cosim_qtest_close(struct cosim_qtest *q)
{
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
	q->out_len = 0;
	q->in_len = 0;
}

static int flush_out(struct cosim_qtest *q)
{
	while (q->out_len) {
		ssize_t n = send(q->fd, q->out, q->out_len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -errno;
		}
		memmove(q->out, q->out + n, q->out_len - (size_t)n);
		q->out_len -= (size_t)n;
	}
	return 0;
}

int cosim_qtest_cmd(struct cosim_qtest *q, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	if (q->fd < 0) {
		q->dropped++;
		return -ENOTCONN;
	}
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(line) - 1)
		return -EINVAL;
	line[n++] = '\n';
	if (q->out_len + (size_t)n > sizeof(q->out)) {
		q->dropped++;
		return -ENOSPC;
	}
	memcpy(q->out + q->out_len, line, (size_t)n);
	q->out_len += (size_t)n;
	q->sent++;
	if (q->verbose > 1)
		fprintf(stderr, "ppu-cosim-dev: qtest > %.*s", n, line);
	return flush_out(q);
}

short cosim_qtest_events(const struct cosim_qtest *q)
{
	return (short)(POLLIN | (q->out_len ? POLLOUT : 0));
}

static void reply(struct cosim_qtest *q, const char *line)
{
	if (!strncmp(line, "OK", 2)) {
		q->ok++;
		return;
	}
	/* Asynchronous "IRQ raise/lower" only come with irq_intercept. */
	if (!strncmp(line, "IRQ ", 4))
		return;
	q->failed++;
	fprintf(stderr, "ppu-cosim-dev: qtest replied: %s\n", line);
}

static int drain_in(struct cosim_qtest *q)
{
	for (;;) {
		ssize_t n = read(q->fd, q->in + q->in_len,
				 sizeof(q->in) - 1 - q->in_len);
		char *start, *nl;

		if (n == 0)
			return -1;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		q->in_len += (size_t)n;
		q->in[q->in_len] = 0;
		start = q->in;
		while ((nl = strchr(start, '\n'))) {
			*nl = 0;
			reply(q, start);
			start = nl + 1;
		}
		q->in_len -= (size_t)(start - q->in);
		memmove(q->in, start, q->in_len);
		/* A line longer than the buffer is dropped, not looped on. */
		if (q->in_len == sizeof(q->in) - 1)
			q->in_len = 0;
	}
}

int cosim_qtest_service(struct cosim_qtest *q, short revents)
{
	if (q->fd < 0)
		return 0;
	if ((revents & (POLLIN | POLLHUP | POLLERR)) && drain_in(q) < 0)
		goto closed;
	if (q->out_len && flush_out(q) < 0)
		goto closed;
	return 0;
closed:
	if (q->verbose)
		fprintf(stderr, "ppu-cosim-dev: qtest socket closed\n");
	cosim_qtest_close(q);
	q->closed = true;
	return -1;
}
