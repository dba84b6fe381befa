/* SPDX-License-Identifier: MIT */
/*
 * Non-blocking client of QEMU's qtest socket (-qtest unix:PATH,server=on,
 * wait=off), the device process's only way to raise interrupts under TCG:
 * MSI as "writel <address> <data>" into system memory (the APIC's MSI
 * window), INTx as "set_irq_in <ioapic> unnamed-gpio-in <gsi> <level>".
 *
 * Commands are queued and written without blocking; replies ("OK", or
 * "FAIL ...", "ERR ...") are read and counted by the main loop whenever the
 * socket is readable.  Nothing here ever waits for QEMU: QEMU may itself be
 * waiting for the device process (a config access, DEVICE_RESET) while it
 * owes us a reply, and waiting then deadlocks.  QEMU writes its replies
 * with a blocking write, so they must be drained or QEMU's main loop stalls.
 */
#ifndef PPU_COSIM_QTEST_H
#define PPU_COSIM_QTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COSIM_QTEST_OUTBUF 8192
#define COSIM_QTEST_INBUF 512

struct cosim_qtest {
	const char *path;	/* NULL: no qtest socket configured */
	int fd;			/* -1 until connected */
	bool closed;		/* QEMU closed it: do not reconnect */
	int verbose;

	char out[COSIM_QTEST_OUTBUF];
	size_t out_len;
	char in[COSIM_QTEST_INBUF];
	size_t in_len;

	uint64_t sent;		/* commands queued */
	uint64_t ok;		/* "OK" replies */
	uint64_t failed;	/* any other reply */
	uint64_t dropped;	/* commands lost: not connected, queue full */
};

void cosim_qtest_init(struct cosim_qtest *q, const char *path, int verbose);

/* Tries to connect once; 0 when connected (now or before), else -errno. */
int cosim_qtest_connect(struct cosim_qtest *q);

static inline bool cosim_qtest_connected(const struct cosim_qtest *q)
{
	return q->fd >= 0;
}

/*
 * Queues one command line (without the newline) and writes what the socket
 * takes.  Returns 0, -ENOTCONN, -ENOSPC (queue full) or a write error.
 */
int cosim_qtest_cmd(struct cosim_qtest *q, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* poll() events wanted: POLLIN, plus POLLOUT while output is queued. */
short cosim_qtest_events(const struct cosim_qtest *q);

/*
 * Services the socket after poll() reported @revents: drains replies,
 * writes queued output.  Returns 0, or -1 when QEMU closed the socket
 * (the client is then disconnected for good).
 */
int cosim_qtest_service(struct cosim_qtest *q, short revents);

void cosim_qtest_close(struct cosim_qtest *q);

#endif /* PPU_COSIM_QTEST_H */
