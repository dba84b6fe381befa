// SPDX-License-Identifier: MIT
/*
 * ppu-cosim with two PPUs, without QEMU: the command lines (two proxy
 * functions ppu0 and ppu1, per-device names and trace files) and the qtest
 * multiplexer (tools/cosim/qtest_mux.c) between two device sockets and a
 * QEMU end played by the test: every reply goes back to the device whose
 * line it answers, lines split across writes are forwarded whole and never
 * interleaved, asynchronous lines are dropped, a device that leaves does
 * not shift the others' replies, and QEMU closing closes the devices.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "device.h"
#include "qemu.h"
#include "qtest_mux.h"

static char dir[64];
static char *paths[2];
static struct qtest_mux mux;
static int qemu_end;		/* the test's side of "QEMU" */
static int dev[2];		/* the devices' connections */

static int unix_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* Runs the mux for @ms milliseconds, as the runner's loop would. */
static void pump(int ms)
{
	for (int i = 0; i < ms; i++) {
		struct pollfd p[1 + 2 * QTEST_MUX_MAX];
		unsigned int np = qtest_mux_pollfds(&mux, p);

		if (poll(p, np, 1) > 0)
			qtest_mux_service(&mux, p, np);
	}
}

/* What is readable on @fd now, NUL-terminated ("" when nothing). */
static char *drain(int fd)
{
	static char buf[8192];
	size_t len = 0;

	for (;;) {
		ssize_t r = recv(fd, buf + len, sizeof(buf) - 1 - len, MSG_DONTWAIT);

		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = 0;
	return buf;
}

static void send_str(int fd, const char *s)
{
	ck_assert_int_eq(send(fd, s, strlen(s), MSG_NOSIGNAL), (ssize_t)strlen(s));
}

static void setup(void)
{
	int sv[2];

	snprintf(dir, sizeof(dir), "/tmp/ppu-qmux.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int i = 0; i < 2; i++)
		ck_assert_int_ge(asprintf(&paths[i], "%s/qtest-ppu%d.sock", dir, i), 0);
	ck_assert_int_eq(qtest_mux_init(&mux, 2, paths, NULL), 0);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	qtest_mux_set_qemu_fd(&mux, sv[0]);
	qemu_end = sv[1];
	for (int i = 0; i < 2; i++) {
		dev[i] = unix_connect(paths[i]);
		ck_assert_int_ge(dev[i], 0);
	}
	pump(5);
}

static void teardown(void)
{
	qtest_mux_close(&mux);
	close(qemu_end);
	for (int i = 0; i < 2; i++) {
		if (dev[i] >= 0)
			close(dev[i]);
		unlink(paths[i]);
		free(paths[i]);
	}
	rmdir(dir);
}

/* "QEMU": answers every line it has read with "OK <line>", in order. */
static int answer_all(const char *extra_first)
{
	char *in = drain(qemu_end), *line, *save = NULL;
	char out[8192] = "";
	int n = 0;

	if (extra_first)
		strcat(out, extra_first);
	for (line = strtok_r(in, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		strcat(out, "OK ");
		strcat(out, line);
		strcat(out, "\n");
		n++;
	}
	if (*out)
		send_str(qemu_end, out);
	return n;
}

START_TEST(replies_go_back_to_the_device_that_asked)
{
	char *got;

	/* Interleaved and split: each device's lines must reach QEMU whole. */
	send_str(dev[0], "writel 0xfee01004 0x2");
	pump(3);
	send_str(dev[1], "writel 0xfee02004 0x31\nwritel 0xfee02004 0x32\n");
	pump(3);
	send_str(dev[0], "6\nwritel 0xfee01004 0x27\n");
	pump(5);
	got = drain(qemu_end);
	ck_assert_str_eq(got, "writel 0xfee02004 0x31\nwritel 0xfee02004 0x32\n"
			 "writel 0xfee01004 0x26\nwritel 0xfee01004 0x27\n");
	/* Replies, with an asynchronous line among them, which answers nothing. */
	send_str(qemu_end, "OK a\nIRQ raise 3\nOK b\nFAIL c\nOK d\n");
	pump(5);
	ck_assert_str_eq(drain(dev[1]), "OK a\nOK b\n");
	ck_assert_str_eq(drain(dev[0]), "FAIL c\nOK d\n");
	ck_assert_uint_eq(mux.async, 1);
	ck_assert_uint_eq(mux.unrouted, 0);
	ck_assert_uint_eq(mux.c[0].lines, 2);
	ck_assert_uint_eq(mux.c[1].replies, 2);
}
END_TEST

START_TEST(many_lines_from_both_devices_keep_their_order)
{
	char want[2][8192] = { "", "" }, line[64];
	int answered = 0;

	for (int k = 0; k < 200; k++) {
		int d = (k * 7 + k / 3) & 1;

		snprintf(line, sizeof(line), "writel 0x%x 0x%x\n", 0xfee00000 + d, k);
		send_str(dev[d], line);
		snprintf(line, sizeof(line), "OK writel 0x%x 0x%x\n", 0xfee00000 + d, k);
		strcat(want[d], line);
		if (k % 17 == 0) {
			pump(2);
			answered += answer_all(NULL);
		}
	}
	pump(5);
	answered += answer_all(NULL);
	ck_assert_int_eq(answered, 200);
	pump(5);
	ck_assert_str_eq(drain(dev[0]), want[0]);
	ck_assert_str_eq(drain(dev[1]), want[1]);
}
END_TEST

START_TEST(a_device_that_leaves_does_not_shift_the_other_replies)
{
	send_str(dev[0], "writel 0x1 0x1\n");
	pump(3);
	send_str(dev[1], "writel 0x2 0x2\n");
	pump(3);
	close(dev[0]);
	dev[0] = -1;
	pump(3);
	ck_assert_int_eq(answer_all(NULL), 2);
	pump(5);
	ck_assert_str_eq(drain(dev[1]), "OK writel 0x2 0x2\n");
	ck_assert_uint_eq(mux.unrouted, 0);
}
END_TEST

START_TEST(qemu_closing_closes_the_devices)
{
	char c;

	close(qemu_end);
	qemu_end = -1;
	pump(5);
	ck_assert(mux.qemu_closed);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(recv(dev[i], &c, 1, 0), 0);	/* end of file */
	/* And they cannot come back. */
	ck_assert_int_lt(unix_connect(paths[0]), 0);
}
END_TEST

START_TEST(lines_wait_until_qemu_is_there)
{
	struct qtest_mux m;
	char *qpath, *p[1];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd, q, d;

	ck_assert_int_ge(asprintf(&qpath, "%s/qemu.sock", dir), 0);
	ck_assert_int_ge(asprintf(&p[0], "%s/one.sock", dir), 0);
	ck_assert_int_eq(qtest_mux_init(&m, 1, p, qpath), 0);
	ck_assert_int_eq(qtest_mux_connect(&m), -ENOENT);
	d = unix_connect(p[0]);
	ck_assert_int_ge(d, 0);
	for (int i = 0; i < 5; i++) {
		struct pollfd pf[3];
		unsigned int np = qtest_mux_pollfds(&m, pf);

		if (poll(pf, np, 1) > 0)
			qtest_mux_service(&m, pf, np);
	}
	send_str(d, "writel 0x9 0x9\n");
	for (int i = 0; i < 5; i++) {
		struct pollfd pf[3];
		unsigned int np = qtest_mux_pollfds(&m, pf);

		if (poll(pf, np, 1) > 0)
			qtest_mux_service(&m, pf, np);
	}
	/* QEMU's socket appears; the queued line goes out once connected. */
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", qpath);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(lfd, 1), 0);
	ck_assert_int_eq(qtest_mux_connect(&m), 0);
	q = accept(lfd, NULL, NULL);
	ck_assert_int_ge(q, 0);
	for (int i = 0; i < 5; i++) {
		struct pollfd pf[3];
		unsigned int np = qtest_mux_pollfds(&m, pf);

		if (poll(pf, np, 1) > 0)
			qtest_mux_service(&m, pf, np);
	}
	ck_assert_str_eq(drain(q), "writel 0x9 0x9\n");
	qtest_mux_close(&m);
	close(q);
	close(lfd);
	close(d);
	unlink(qpath);
	unlink(p[0]);
	free(qpath);
	free(p[0]);
}
END_TEST

static int argv_has(const struct strv *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->v[i], s))
			return 1;
	return 0;
}

START_TEST(command_lines_name_each_ppu)
{
	struct opts o;
	struct strv q = { 0 }, d0 = { 0 }, d1 = { 0 }, one = { 0 };
	int fds[2] = { 7, 9 };

	opts_init(&o);
	o.kernel = "/boot/vmlinuz";
	o.devices = 2;
	o.trace = "/tmp/run.trace";
	o.fst = "wave";
	qemu_argv(&q, &o, "/tmp/initrd", "/tmp/q.sock", fds);
	ck_assert(argv_has(&q, "x-pci-proxy-dev,id=ppu0,fd=7"));
	ck_assert(argv_has(&q, "x-pci-proxy-dev,id=ppu1,fd=9"));
	ck_assert(argv_has(&q, "unix:/tmp/q.sock,server=on,wait=off"));
	device_argv(&d0, "dev", &o, 0, 7, "/tmp/a.sock");
	device_argv(&d1, "dev", &o, 1, 9, "/tmp/b.sock");
	ck_assert(argv_has(&d0, "--name=ppu0") && argv_has(&d1, "--name=ppu1"));
	ck_assert(argv_has(&d0, "--trace=/tmp/run-ppu0.trace"));
	ck_assert(argv_has(&d1, "--trace=/tmp/run-ppu1.trace"));
	ck_assert(argv_has(&d1, "--fst=wave-ppu1"));
	ck_assert(argv_has(&d1, "--qtest=/tmp/b.sock"));
	/* One PPU: the files and messages of before. */
	o.devices = 1;
	device_argv(&one, "dev", &o, 0, 7, "/tmp/q.sock");
	ck_assert(argv_has(&one, "--trace=/tmp/run.trace"));
	ck_assert(!argv_has(&one, "--name=ppu0"));

	ck_assert_str_eq(device_file("a/b.c/trace", 1, 2), "a/b.c/trace-ppu1");
	ck_assert_str_eq(device_file("/x/.trace", 0, 2), "/x/.trace-ppu0");
	ck_assert_str_eq(device_file("t.fst", 1, 2), "t-ppu1.fst");
	ck_assert_str_eq(device_file("t.fst", 0, 1), "t.fst");
}
END_TEST

Suite *suite_cosim_multi(void)
{
	Suite *s = suite_create("cosim_multi");
	TCase *tc = tcase_create("qtest_mux");
	TCase *tl = tcase_create("argv");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, replies_go_back_to_the_device_that_asked);
	tcase_add_test(tc, many_lines_from_both_devices_keep_their_order);
	tcase_add_test(tc, a_device_that_leaves_does_not_shift_the_other_replies);
	tcase_add_test(tc, qemu_closing_closes_the_devices);
	tcase_add_test(tc, lines_wait_until_qemu_is_there);
	suite_add_tcase(s, tc);
	tcase_add_test(tl, command_lines_name_each_ppu);
	suite_add_tcase(s, tl);
	return s;
}
