/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: one qtest connection shared by several device processes.
 *
 * Each device process raises its MSIs by writing "writel <addr> <data>"
 * lines to QEMU's qtest socket (hw/sim/cosim/cosim_qtest.h).  QEMU has a
 * single -qtest (a second one replaces the first) and its socket chardev
 * serves one client at a time: a second client connects but is read only
 * once the first has gone.  With two PPUs the runner therefore holds the
 * one connection to QEMU and listens on a socket of its own per device
 * (the path each device is given as --qtest); it forwards whole lines from
 * the devices to QEMU and hands each reply back to the device whose line
 * it answers (qtest answers every command with exactly one line, in
 * order; the asynchronous "IRQ ..." lines, which only irq_intercept
 * produces, answer nothing and are dropped).
 *
 * Nothing blocks: QEMU writes its replies with a blocking write and may be
 * waiting for a device (a config access) at the same time, so the mux
 * reads whatever is readable and queues what cannot be written yet.  When
 * QEMU closes the qtest socket every device connection is closed too, so
 * that each device process sees the end as it would without the mux.
 */
#ifndef COSIM_QTEST_MUX_H
#define COSIM_QTEST_MUX_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QTEST_MUX_MAX 8

/* A byte queue that grows. */
struct qmux_buf {
	char *p;
	size_t len, cap;
};

struct qmux_client {
	int listen_fd;		/* the socket its device connects to */
	int fd;			/* the accepted connection, -1 before */
	bool gone;		/* it closed: not accepted again */
	struct qmux_buf in;	/* a line not yet complete */
	struct qmux_buf out;	/* replies not yet written */
	uint64_t lines;		/* lines forwarded to QEMU */
	uint64_t replies;	/* replies handed back */
};

struct qtest_mux {
	unsigned int n;
	struct qmux_client c[QTEST_MUX_MAX];
	const char *qemu_path;	/* QEMU's qtest socket */
	int qemu_fd;		/* -1 until connected */
	bool qemu_closed;	/* QEMU closed it: everything is over */
	struct qmux_buf to_qemu;	/* lines not yet written to QEMU */
	struct qmux_buf from_qemu;	/* a reply not yet complete */
	/* Which client each line in flight came from, oldest first. */
	unsigned char *fifo;
	size_t fifo_head, fifo_len, fifo_cap;
	uint64_t unrouted;	/* replies with no line in flight */
	uint64_t async;		/* "IRQ ..." lines dropped */
};

/*
 * Listens on @paths[i] for client i (n of them, at most QTEST_MUX_MAX) and
 * remembers QEMU's socket path.  Returns 0 or -errno (nothing left open).
 */
int qtest_mux_init(struct qtest_mux *m, unsigned int n, char *const *paths,
		   const char *qemu_path);
/*
 * Tries once to connect to QEMU's socket (it exists only once QEMU has
 * started); 0 when connected, now or before, else -errno.
 */
int qtest_mux_connect(struct qtest_mux *m);
/* Adopts an already connected fd as QEMU's end (for tests). */
void qtest_mux_set_qemu_fd(struct qtest_mux *m, int fd);
/*
 * The pollfds the mux wants into @p (room for 2 * n + 1); returns how
 * many.  qtest_mux_service() takes the same array back after poll().
 */
unsigned int qtest_mux_pollfds(const struct qtest_mux *m, struct pollfd *p);
/* Accepts, reads, routes and writes whatever the poll reported. */
void qtest_mux_service(struct qtest_mux *m, const struct pollfd *p,
		       unsigned int np);
/* Closes every socket and frees the queues. */
void qtest_mux_close(struct qtest_mux *m);

#endif /* COSIM_QTEST_MUX_H */
