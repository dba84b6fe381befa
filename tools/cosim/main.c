// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: boots a Linux guest under QEMU (TCG) with the co-simulated PPU
 * attached as a PCI function, runs a batch of commands in it and brings
 * back their results.
 *
 *   ppu-cosim [options] --run 'cmd' [--run 'cmd' ...]
 *
 * One invocation is one boot:
 *   1. builds the initramfs (initramfs.c, cpio.c, modules.c);
 *   2. makes a socketpair per PPU (--devices), starts ppu-cosim-dev on one
 *      end of each (device.c) and qemu-system-x86_64 with
 *      -device x-pci-proxy-dev,fd=<other end> for each (qemu.c); with two
 *      PPUs it shares QEMU's one qtest socket between them (qtest_mux.c);
 *   3. relays the serial console and follows its markers (console.c),
 *      says on stderr which run is going while it takes long, enforces the
 *      timeout;
 *   4. gives the verdict (results.c).
 *
 * Exit status: 0 every run exited 0 and the kernel log is clean; 1 a run
 * failed or was skipped, or the RTL's invariant checkers fired; 2 the kernel log shows an oops, BUG, WARNING,
 * lockup, stall or panic; 3 timeout; 4 infrastructure failure (QEMU or the
 * device process failed, the guest never finished).  When several apply
 * the highest is returned.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "console.h"
#include "device.h"
#include "guest_kernel.h"
#include "initramfs.h"
#include "options.h"
#include "qemu.h"
#include "qtest_mux.h"
#include "results.h"

static struct opts o;
static char workdir[PATH_MAX];
static volatile sig_atomic_t got_signal;
static pid_t qemu_pid = -1, dev_pid[COSIM_MAX_DEVICES] = { -1, -1 };
static struct qtest_mux mux;
static bool mux_on;

/* Stops the children and removes the work directory (also from die()). */
static void cleanup(void)
{
	if (qemu_pid > 0)
		kill(qemu_pid, SIGKILL);
	for (int i = 0; i < COSIM_MAX_DEVICES; i++)
		if (dev_pid[i] > 0)
			kill(dev_pid[i], SIGKILL);
	if (qemu_pid > 0)
		waitpid(qemu_pid, NULL, 0);
	for (int i = 0; i < COSIM_MAX_DEVICES; i++) {
		if (dev_pid[i] > 0)
			waitpid(dev_pid[i], NULL, 0);
		dev_pid[i] = -1;
	}
	qemu_pid = -1;
	if (mux_on)
		qtest_mux_close(&mux);
	mux_on = false;
	if (workdir[0] && !o.keep)
		rm_rf(workdir);
}

static void on_signal(int sig)
{
	got_signal = sig;
}

int main(int argc, char **argv)
{
	struct console con;
	struct outcome v = { 0 };
	struct sigaction sa = { .sa_handler = on_signal };
	char *initrd, *qsock, *dsock[COSIM_MAX_DEVICES];
	const char *devbin;
	int sv[COSIM_MAX_DEVICES][2], qfd[COSIM_MAX_DEVICES], pfd[2], dev_status;
	bool qemu_eof = false;
	struct strv qargv = { 0 }, dargv[COSIM_MAX_DEVICES] = { 0 };
	FILE *log = NULL;
	double deadline;

	util_on_die(cleanup);
	opts_init(&o);
	opts_parse(&o, argc, argv);
	guest_kernel_pick(&o);
	qemu_check(&o);
	devbin = device_binary(&o);

	snprintf(workdir, sizeof(workdir), "%s/ppu-cosim.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(workdir)) {
		workdir[0] = 0;
		die("mkdtemp: %s", strerror(errno));
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	console_init(&con, stdout, NULL, &o.runs);
	con.fetch = &o.fetch;
	initrd = xasprintf("%s/initramfs.cpio", workdir);
	initramfs_build(initrd, &o, workdir);
	if (o.verbose)
		fprintf(stderr, PROG ": kernel %s, initramfs %s built in "
			"%.2f s\n", o.kernel, initrd, now_s() - con.t_start);
	if (o.log) {
		log = fopen(o.log, "w");
		if (!log)
			die("--log %s: %s", o.log, strerror(errno));
		con.log = log;
	}

	if (pipe2(pfd, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	qsock = xasprintf("%s/qtest.sock", workdir);
	/*
	 * QEMU serves one qtest client: one device connects to it directly,
	 * several connect to the runner, which holds the one connection.
	 */
	for (int i = 0; i < o.devices; i++)
		dsock[i] = o.devices > 1 ?
			   xasprintf("%s/qtest-ppu%d.sock", workdir, i) : qsock;
	if (o.devices > 1) {
		int err = qtest_mux_init(&mux, (unsigned int)o.devices, dsock, qsock);

		if (err)
			die("qtest sockets in %s: %s", workdir, strerror(-err));
		mux_on = true;
	}

	/* The devices first: QEMU probes config space while it starts. */
	for (int i = 0; i < o.devices; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv[i]) < 0)
			die("socketpair: %s", strerror(errno));
		device_argv(&dargv[i], devbin, &o, i, sv[i][0], dsock[i]);
		dev_pid[i] = spawn(dargv[i].v, sv[i][0], -1);
		close(sv[i][0]);
		qfd[i] = sv[i][1];
	}

	qemu_argv(&qargv, &o, initrd, qsock, qfd);
	if (o.verbose) {
		for (int d = 0; d < o.devices; d++) {
			fprintf(stderr, PROG ":");
			for (size_t i = 0; i < dargv[d].n; i++)
				fprintf(stderr, " %s", dargv[d].v[i]);
			fprintf(stderr, "\n");
		}
		fprintf(stderr, PROG ":");
		for (size_t i = 0; i < qargv.n; i++)
			fprintf(stderr, " %s", qargv.v[i]);
		fprintf(stderr, "\n");
	}
	qemu_pid = spawn_keep(qargv.v, qfd, (unsigned int)o.devices, pfd[1]);
	for (int i = 0; i < o.devices; i++)
		close(qfd[i]);
	close(pfd[1]);

	deadline = con.t_start + o.timeout;
	while (!qemu_eof) {
		struct pollfd p[2 + 2 * COSIM_MAX_DEVICES] = {
			{ .fd = pfd[0], .events = POLLIN },
		};
		unsigned int np = 1;
		double left = deadline - now_s();
		bool dev_gone = false;
		int n;

		if (got_signal) {
			fprintf(stderr, PROG ": interrupted\n");
			cleanup();
			return 128 + got_signal;
		}
		if (left <= 0) {
			v.timed_out = true;
			break;
		}
		for (int i = 0; i < o.devices; i++) {
			if (dev_pid[i] > 0 &&
			    waitpid(dev_pid[i], &dev_status, WNOHANG) == dev_pid[i]) {
				dev_pid[i] = -1;
				fprintf(stderr, PROG ": the device process of ppu%d "
					"exited while QEMU runs (status 0x%x)\n", i,
					dev_status);
				dev_gone = true;
			}
		}
		if (dev_gone) {
			v.exit_code = EXIT_INFRA;
			break;
		}
		if (mux_on) {
			/* QEMU's socket appears while it starts. */
			qtest_mux_connect(&mux);
			np += qtest_mux_pollfds(&mux, &p[1]);
		}
		n = poll(p, np, left > 0.5 ? 500 : (int)(left * 1000) + 1);
		if (n > 0 && mux_on)
			qtest_mux_service(&mux, &p[1], np - 1);
		if (n > 0 && p[0].revents) {
			char buf[4096];
			ssize_t r = read(pfd[0], buf, sizeof(buf));

			if (r > 0)
				console_feed(&con, buf, (size_t)r);
			else if (r == 0 || (errno != EINTR && errno != EAGAIN))
				qemu_eof = true;
		}
		console_progress(&con, stderr, now_s(), o.progress_s);
	}
	console_flush(&con);
	if (v.timed_out || !qemu_eof) {
		kill(qemu_pid, SIGTERM);
		usleep(300000);
		kill(qemu_pid, SIGKILL);
	}
	waitpid(qemu_pid, &v.qemu_status, 0);
	qemu_pid = -1;
	close(pfd[0]);
	/* QEMU is gone: the devices see their sockets close and end. */
	if (mux_on)
		qtest_mux_close(&mux);
	mux_on = false;
	for (int i = 0; i < o.devices; i++) {
		if (dev_pid[i] <= 0)
			continue;
		dev_status = device_wait(dev_pid[i], 10);
		dev_pid[i] = -1;
		if (dev_status != -1 && WIFEXITED(dev_status) &&
		    WEXITSTATUS(dev_status) == 2) {
			fprintf(stderr, PROG ": the RTL's invariant checkers "
				"failed in ppu%d\n", i);
			v.checks_failed = true;
		} else if (dev_status == -1 || !WIFEXITED(dev_status) ||
		    WEXITSTATUS(dev_status)) {
			fprintf(stderr, PROG ": the device process of ppu%d did "
				"not exit cleanly\n", i);
			v.exit_code = EXIT_INFRA;
		}
	}

	v.fetch_failed = fetch_finish(&o.fetch, stdout, stderr);
	v.timeout_s = o.timeout;
	v.show_dmesg = o.show_dmesg;
	v.exit_code = results_report(stdout, stderr, &con, &v, now_s());
	if (log)
		fclose(log);
	if (o.keep)
		fprintf(stdout, PROG ": work directory kept: %s\n", workdir);
	cleanup();
	return v.exit_code;
}
