// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: one qtest connection shared by several device processes
 * (see qtest_mux.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "qtest_mux.h"
#include "util.h"

static void buf_add(struct qmux_buf *b, const char *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *np;

		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np)
			die("out of memory");
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void buf_drop(struct qmux_buf *b, size_t n)
{
	memmove(b->p, b->p + n, b->len - n);
	b->len -= n;
}

static void buf_free(struct qmux_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static int unix_addr(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	strcpy(sa->sun_path, path);
	return 0;
}

int qtest_mux_init(struct qtest_mux *m, unsigned int n, char *const *paths,
		   const char *qemu_path)
{
	memset(m, 0, sizeof(*m));
	m->qemu_fd = -1;
	m->qemu_path = qemu_path;
	if (!n || n > QTEST_MUX_MAX)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++) {
		struct qmux_client *c = &m->c[i];
		struct sockaddr_un sa;
		int err = unix_addr(&sa, paths[i]);

		c->fd = -1;
		c->listen_fd = -1;
		m->n = i + 1;
		if (err)
			goto fail;
		c->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c->listen_fd < 0 ||
		    bind(c->listen_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
		    listen(c->listen_fd, 1) < 0) {
			err = -errno;
			goto fail;
		}
		set_nonblock(c->listen_fd);
		continue;
fail:
		qtest_mux_close(m);
		return err;
	}
	return 0;
}

void qtest_mux_set_qemu_fd(struct qtest_mux *m, int fd)
{
	set_nonblock(fd);
	m->qemu_fd = fd;
}

int qtest_mux_connect(struct qtest_mux *m)
{
	struct sockaddr_un sa;
	int fd, err;

	if (m->qemu_fd >= 0)
		return 0;
	if (m->qemu_closed || !m->qemu_path)
		return -ENOTCONN;
	err = unix_addr(&sa, m->qemu_path);
	if (err)
		return err;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	qtest_mux_set_qemu_fd(m, fd);
	return 0;
}

unsigned int qtest_mux_pollfds(const struct qtest_mux *m, struct pollfd *p)
{
	p[0].fd = m->qemu_fd;
	p[0].events = (short)(POLLIN | (m->to_qemu.len ? POLLOUT : 0));
	p[0].revents = 0;
	for (unsigned int i = 0; i < m->n; i++) {
		const struct qmux_client *c = &m->c[i];

		p[1 + 2 * i].fd = c->fd < 0 ? c->listen_fd : -1;
		p[1 + 2 * i].events = POLLIN;
		p[1 + 2 * i].revents = 0;
		p[2 + 2 * i].fd = c->fd;
		p[2 + 2 * i].events = (short)(POLLIN | (c->out.len ? POLLOUT : 0));
		p[2 + 2 * i].revents = 0;
	}
	return 1 + 2 * m->n;
}

/* Writes what @fd takes; -1 when the peer is gone. */
static int flush(int fd, struct qmux_buf *b)
{
	while (b->len) {
		ssize_t w = send(fd, b->p, b->len, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return -1;
		}
		buf_drop(b, (size_t)w);
	}
	return 0;
}

/* Reads what @fd has into @b; -1 on end of file or error. */
static int fill(int fd, struct qmux_buf *b)
{
	char tmp[4096];

	for (;;) {
		ssize_t r = read(fd, tmp, sizeof(tmp));

		if (r == 0)
			return -1;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
		}
		buf_add(b, tmp, (size_t)r);
	}
}

static void client_close(struct qmux_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->in.len = 0;
	c->out.len = 0;
}

static void fifo_push(struct qtest_mux *m, unsigned char who)
{
	if (m->fifo_len == m->fifo_cap) {
		size_t cap = m->fifo_cap ? 2 * m->fifo_cap : 64;
		unsigned char *f = malloc(cap);

		if (!f)
			die("out of memory");
		for (size_t i = 0; i < m->fifo_len; i++)
			f[i] = m->fifo[(m->fifo_head + i) % m->fifo_cap];
		free(m->fifo);
		m->fifo = f;
		m->fifo_cap = cap;
		m->fifo_head = 0;
	}
	m->fifo[(m->fifo_head + m->fifo_len) % m->fifo_cap] = who;
	m->fifo_len++;
}

/* Moves the complete lines a client sent to QEMU's queue, in order. */
static void client_lines(struct qtest_mux *m, unsigned int i)
{
	struct qmux_client *c = &m->c[i];
	size_t start = 0;
	char *nl;

	while ((nl = memchr(c->in.p + start, '\n', c->in.len - start))) {
		size_t len = (size_t)(nl - (c->in.p + start)) + 1;

		/* An empty line gets no reply from qtest: nothing to route. */
		if (len > 1) {
			buf_add(&m->to_qemu, c->in.p + start, len);
			fifo_push(m, (unsigned char)i);
			c->lines++;
		}
		start += len;
	}
	buf_drop(&c->in, start);
}

/* Hands each complete reply to the client whose line it answers. */
static void qemu_lines(struct qtest_mux *m)
{
	struct qmux_buf *b = &m->from_qemu;
	size_t start = 0;
	char *nl;

	while ((nl = memchr(b->p + start, '\n', b->len - start))) {
		size_t len = (size_t)(nl - (b->p + start)) + 1;
		const char *line = b->p + start;

		if (len > 4 && !memcmp(line, "IRQ ", 4)) {
			m->async++;
		} else if (!m->fifo_len) {
			m->unrouted++;
		} else {
			struct qmux_client *c = &m->c[m->fifo[m->fifo_head]];

			m->fifo_head = (m->fifo_head + 1) % m->fifo_cap;
			m->fifo_len--;
			/* A client that left gets nothing; the order stays. */
			if (c->fd >= 0) {
				buf_add(&c->out, line, len);
				c->replies++;
			}
		}
		start += len;
	}
	buf_drop(b, start);
}

static void qemu_gone(struct qtest_mux *m)
{
	if (m->qemu_fd >= 0)
		close(m->qemu_fd);
	m->qemu_fd = -1;
	m->qemu_closed = true;
	m->to_qemu.len = 0;
	for (unsigned int i = 0; i < m->n; i++) {
		client_close(&m->c[i]);
		if (m->c[i].listen_fd >= 0)
			close(m->c[i].listen_fd);
		m->c[i].listen_fd = -1;
	}
}

void qtest_mux_service(struct qtest_mux *m, const struct pollfd *p,
		       unsigned int np)
{
	if (np < 1 + 2 * m->n)
		return;
	for (unsigned int i = 0; i < m->n; i++) {
		struct qmux_client *c = &m->c[i];
		const struct pollfd *lp = &p[1 + 2 * i], *cp = &p[2 + 2 * i];

		if (lp->fd >= 0 && lp->fd == c->listen_fd && (lp->revents & POLLIN) &&
		    c->fd < 0) {
			int fd = accept4(c->listen_fd, NULL, NULL, SOCK_CLOEXEC);

			if (fd >= 0) {
				set_nonblock(fd);
				c->fd = fd;
			}
		}
		if (cp->fd >= 0 && cp->fd == c->fd && cp->revents) {
			int gone = 0;

			if (cp->revents & (POLLIN | POLLHUP | POLLERR))
				gone = fill(c->fd, &c->in);
			/* Its last complete lines still go to QEMU. */
			client_lines(m, i);
			if (gone)
				client_close(c);
		}
	}
	if (m->qemu_fd >= 0 && p[0].fd == m->qemu_fd &&
	    (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
		int gone = fill(m->qemu_fd, &m->from_qemu);

		qemu_lines(m);
		if (gone) {
			qemu_gone(m);
			return;
		}
	}
	if (m->qemu_fd >= 0 && flush(m->qemu_fd, &m->to_qemu) < 0) {
		qemu_gone(m);
		return;
	}
	for (unsigned int i = 0; i < m->n; i++)
		if (m->c[i].fd >= 0 && flush(m->c[i].fd, &m->c[i].out) < 0)
			client_close(&m->c[i]);
}

void qtest_mux_close(struct qtest_mux *m)
{
	qemu_gone(m);
	for (unsigned int i = 0; i < m->n; i++) {
		buf_free(&m->c[i].in);
		buf_free(&m->c[i].out);
	}
	buf_free(&m->to_qemu);
	buf_free(&m->from_qemu);
	free(m->fifo);
	m->fifo = NULL;
	m->fifo_len = m->fifo_cap = m->fifo_head = 0;
}
