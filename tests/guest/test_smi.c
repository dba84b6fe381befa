// SPDX-License-Identifier: MIT
/*
 * ppu-smi against channels of known state: a copy channel of priority 40,
 * a compute channel of priority 20 and a copy channel faulted by an
 * illegal method must appear in `ppu-smi --json` with their owner,
 * engine, priority, state and fault reason, the fault in the recent
 * faults, a local BO in the local-memory use; `-l` with `-c N` prints N
 * samples, each a JSON object of its own; without debugfs ppu-smi says so
 * and still lists the device and the driver's parameters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_work.h"

#define SMI "/bin/ppu-smi"
#define FAULT_WAIT_S 10.0

/* ---- a strict JSON checker: the whole text must be values, one per line ---- */

static const char *json_value(const char *p);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *json_number(const char *p)
{
	const char *s;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		s = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == s)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		s = p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == s)
			return NULL;
	}
	return p;
}

static const char *json_list(const char *p, char close, bool keys)
{
	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keys) {
			p = json_string(json_ws(p));
			if (!p)
				return NULL;
			p = json_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = json_value(p);
		if (!p)
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p)
{
	p = json_ws(p);
	switch (*p) {
	case '{':
		return json_list(p, '}', true);
	case '[':
		return json_list(p, ']', false);
	case '"':
		return json_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return json_number(p);
	}
}

/* How many lines of @text there are; each must be exactly one JSON object. */
static int json_lines(const char *text)
{
	const char *p = text;
	int n = 0;

	while (*p) {
		const char *end;

		ck_assert_msg(*json_ws(p) == '{', "line %d is not an object:\n%s", n + 1, text);
		end = json_value(p);
		ck_assert_msg(end, "line %d is not valid JSON:\n%s", n + 1, text);
		end = json_ws(end);
		ck_assert_msg(*end == '\n', "line %d has more than one value:\n%s", n + 1, text);
		p = end + 1;
		n++;
	}
	return n;
}

START_TEST(json_checker_rejects_what_is_not_json)
{
	ck_assert_int_eq(json_lines("{\"a\":[1,-2.5e3,\"x\\u0041\",true,null,{}]}\n"), 1);
	ck_assert_ptr_null(json_value("{\"a\":1,}"));
	ck_assert_ptr_null(json_value("{\"a\" 1}"));
	ck_assert_ptr_null(json_value("[01]"));
	ck_assert_ptr_null(json_value("\"tab\there\""));
	ck_assert_ptr_null(json_value("{\"a\":nul}"));
}
END_TEST

/* ---- running ppu-smi ---- */

/*
 * Runs ppu-smi with @args (after the device's -s) in a child; with
 * @no_debugfs the child first detaches debugfs in a mount namespace of its
 * own.  Returns its exit status; stdout in @out, stderr in @err.
 */
static int run_smi(const char *args, bool no_debugfs, char *out, size_t out_len, char *err,
		   size_t err_len)
{
	char bdf[64], cmd[512];
	int po[2], pe[2], status;
	size_t no = 0, ne = 0;
	pid_t pid;

	ppu_render_node_bdf(bdf, sizeof(bdf));
	snprintf(cmd, sizeof(cmd), SMI " -s %s %s", bdf, args);
	ck_assert_int_eq(pipe(po), 0);
	ck_assert_int_eq(pipe(pe), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		if (no_debugfs && (unshare(CLONE_NEWNS) ||
				   mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
				   umount2("/sys/kernel/debug", MNT_DETACH))) {
			fprintf(stderr, "cannot detach debugfs: %s\n", strerror(errno));
			_exit(99);
		}
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(98);
	}
	close(po[1]);
	close(pe[1]);
	/* the outputs are small: read stdout, then stderr */
	for (;;) {
		ssize_t r = read(po[0], out + no, out_len - 1 - no);

		if (r <= 0)
			break;
		no += (size_t)r;
		ck_assert_msg(no < out_len - 1, "ppu-smi printed more than %zu bytes", out_len);
	}
	for (;;) {
		ssize_t r = read(pe[0], err + ne, err_len - 1 - ne);

		if (r <= 0)
			break;
		ne += (size_t)r;
		ck_assert_uint_lt(ne, err_len - 1);
	}
	out[no] = 0;
	err[ne] = 0;
	close(po[0]);
	close(pe[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status), "%s died", cmd);
	return WEXITSTATUS(status);
}

/* The JSON object of channel @chid (channel objects hold no nested objects). */
static void chan_object(const char *json, uint32_t chid, char *obj, size_t len)
{
	char needle[32];
	const char *p, *end;

	snprintf(needle, sizeof(needle), "{\"chid\":%u,", chid);
	p = strstr(json, needle);
	ck_assert_msg(p, "channel %u is not listed:\n%s", chid, json);
	end = strchr(p, '}');
	ck_assert_ptr_nonnull(end);
	ck_assert_uint_lt((size_t)(end - p), len);
	memcpy(obj, p, (size_t)(end - p + 1));
	obj[end - p + 1] = 0;
}

static void expect_in(const char *obj, const char *what)
{
	ck_assert_msg(strstr(obj, what), "%s not in %s", what, obj);
}

/* Submits an illegal method on @ch and waits until the channel reads FAULTED. */
static void make_faulted(struct ppu_tchan *ch)
{
	struct drm_ppu_chan_status st;
	struct ppu_tbo pb;
	struct ppu_pb b;
	double end;

	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_pb_init(&b, (uint32_t *)pb.map, 64);
	ppu_pb_method(&b, 0x0fc, 0xbad);
	ck_assert(!b.overflow);
	ppu_tchan_submit(ch, pb.va, b.len);
	end = ppu_now_s() + FAULT_WAIT_S;
	do {
		ck_assert_int_eq(ppu_chan_status(ppu_fd, ch->chid, 0, &st), 0);
		if (st.state == DRM_PPU_CHAN_STATE_FAULTED)
			break;
		usleep(10000);
	} while (ppu_now_s() < end);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	ck_assert_uint_eq(DRM_PPU_FAULT_INFO_KIND(st.fault_info), DRM_PPU_FAULT_ILLEGAL_METHOD);
	/* the interrupt marks it dead; wait for it, as debugfs reads that */
	while (ppu_doorbell(ppu_fd, ch->chid, 0) != -EIO && ppu_now_s() < end)
		usleep(10000);
	ck_assert_int_eq(ppu_doorbell(ppu_fd, ch->chid, 0), -EIO);
}

START_TEST(json_lists_channels_with_engine_priority_state_and_fault)
{
	static char out[65536], err[4096];
	char obj[512], want[128];
	struct ppu_tchan copy, comp, bad;
	struct ppu_tbo local;
	const char *p;
	int pid = getpid(), ret;

	ck_assert_int_eq(ppu_tchan_new_prio(ppu_fd, &copy, 2, DRM_PPU_CHAN_CREATE_PRIORITY, 40), 0);
	ret = ppu_tchan_new_prio(ppu_fd, &comp, 4, DRM_PPU_CHAN_CREATE_COMPUTE |
				 DRM_PPU_CHAN_CREATE_PRIORITY, 20);
	ck_assert_msg(ret == 0, "compute CHAN_CREATE: %s", strerror(-ret));
	ppu_tchan_new(ppu_fd, &bad, 2);
	make_faulted(&bad);
	ppu_tbo_new_flags(ppu_fd, &local, 1u << 20, DRM_PPU_GEM_CREATE_LOCAL);

	ck_assert_int_eq(run_smi("--json", false, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_int_eq(json_lines(out), 1);
	ck_assert_msg(strstr(out, "\"errors\":null"), "ppu-smi reported a problem:\n%s", out);
	expect_in(out, "\"sample\":0,");
	expect_in(out, "\"driver\":\"ppu\"");

	chan_object(out, copy.chid, obj, sizeof(obj));
	snprintf(want, sizeof(want), "\"owner\":\"process\",\"pid\":%d,\"engine\":\"copy\","
		 "\"priority\":40,", pid);
	expect_in(obj, want);
	expect_in(obj, "\"dead\":false,\"tasks\":null,\"fault\":null}");

	chan_object(out, comp.chid, obj, sizeof(obj));
	snprintf(want, sizeof(want), "\"pid\":%d,\"engine\":\"compute\",\"priority\":20,", pid);
	expect_in(obj, want);
	expect_in(obj, "\"dead\":false,\"tasks\":0,\"fault\":null}");

	chan_object(out, bad.chid, obj, sizeof(obj));
	snprintf(want, sizeof(want), "\"pid\":%d,\"engine\":\"copy\",\"priority\":32,"
		 "\"state\":\"faulted\",", pid);
	expect_in(obj, want);
	expect_in(obj, "\"dead\":true,\"tasks\":null,\"fault\":\"host/illegal_method\"}");

	/* the driver's own channel is there too, as the kernel's */
	expect_in(out, "\"owner\":\"kernel\",\"pid\":null");

	/* the fault is among the recent ones, with its data word */
	snprintf(want, sizeof(want), "\"chid\":%u,\"pid\":%d,\"unit\":\"host\","
		 "\"kind\":\"illegal_method\",", bad.chid, pid);
	p = strstr(out, "\"faults\":{\"total\":");
	ck_assert_ptr_nonnull(p);
	ck_assert_msg(strstr(p, want), "%s not among the faults:\n%s", want, out);
	expect_in(p, "\"data\":2989}");

	/* counters by name; local memory holds at least our BO */
	expect_in(out, "\"counters\":{\"DOORBELLS\":");
	expect_in(out, "\"FAULTS\":");
	p = strstr(out, "\"local_mem\":{\"total_bytes\":67108864,\"used_bytes\":");
	ck_assert_msg(p, "no local memory use in:\n%s", out);
	ck_assert_uint_ge(strtoull(p + strlen("\"local_mem\":{\"total_bytes\":67108864,"
					       "\"used_bytes\":"), NULL, 10), 1u << 20);

	/* the text view says the same */
	ck_assert_int_eq(run_smi("-n", false, out, sizeof(out), err, sizeof(err)), 0);
	expect_in(out, "host/illegal_method");
	expect_in(out, "    local memory: ");
	ck_assert_ptr_null(strstr(out, "live view incomplete"));

	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, bad.chid, 0), 0);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, comp.chid, 0), 0);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, copy.chid, 0), 0);
	/* once destroyed they are gone from the list */
	ck_assert_int_eq(run_smi("--json", false, out, sizeof(out), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "\"pid\":%d,", pid);
	p = strstr(out, "\"channels\":[");
	ck_assert_ptr_nonnull(p);
	ck_assert_msg(!strstr(p, want) || strstr(p, want) > strstr(p, "\"faults\":"),
		      "a destroyed channel is still listed:\n%s", out);
}
END_TEST

START_TEST(loop_with_count_prints_that_many_samples)
{
	static char out[262144], err[4096];
	char want[32];
	const char *p = out;
	int i;

	ck_assert_int_eq(run_smi("--json -l 100 -c 3", false, out, sizeof(out), err,
				 sizeof(err)), 0);
	ck_assert_int_eq(json_lines(out), 3);
	for (i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "{\"sample\":%d,", i);
		ck_assert_msg(!strncmp(p, want, strlen(want)), "sample %d is not next:\n%s", i, out);
		p = strchr(p, '\n') + 1;
	}
	ck_assert_int_eq(run_smi("-n -l 50 --count 2", false, out, sizeof(out), err,
				 sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(out, "==== sample 0,"));
	ck_assert_ptr_nonnull(strstr(out, "==== sample 1,"));
	ck_assert_ptr_null(strstr(out, "==== sample 2,"));
	/* a count without a loop is a usage error */
	ck_assert_int_eq(run_smi("-c 2", false, out, sizeof(out), err, sizeof(err)), 2);
	ck_assert_ptr_nonnull(strstr(err, "-c/--count needs -l/--loop"));
}
END_TEST

START_TEST(without_debugfs_it_says_so_and_shows_the_rest)
{
	static char out[65536], err[4096];

	ck_assert_int_eq(run_smi("--json", true, out, sizeof(out), err, sizeof(err)), 0);
	ck_assert_int_eq(json_lines(out), 1);
	expect_in(out, "\"errors\":\"debugfs is not mounted at /sys/kernel/debug");
	expect_in(out, "\"channels\":null");
	expect_in(out, "\"params\":{\"VERSION\":");
	ck_assert_int_eq(run_smi("-n", true, out, sizeof(out), err, sizeof(err)), 0);
	expect_in(out, "live view incomplete: debugfs is not mounted");
	expect_in(out, "driver parameters (DRM_IOCTL_PPU_GET_PARAM");
}
END_TEST

static Suite *smi_suite(void)
{
	Suite *s = suite_create("ppu-smi");
	TCase *tc = tcase_create("smi");

	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	tcase_add_test(tc, json_checker_rejects_what_is_not_json);
	tcase_add_test(tc, json_lists_channels_with_engine_priority_state_and_fault);
	tcase_add_test(tc, loop_with_count_prints_that_many_samples);
	tcase_add_test(tc, without_debugfs_it_says_so_and_shows_the_rest);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(smi_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
