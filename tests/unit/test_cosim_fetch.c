// SPDX-License-Identifier: MIT
/*
 * Files out of the guest (ppu-cosim --fetch, tools/cosim/fetch.c): the
 * shell the generated /init uses is run by the same busybox the guest
 * boots, its console output fed to the console split at several sizes,
 * and the files written back compared byte for byte (binary data, an empty
 * file, a missing one).  Corruption a kernel message or a lost line would
 * cause is caught by the size and CRC checks; the decoder and CRC against
 * known values; the verdict fails when a file did not come back.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "fetch.h"
#include "results.h"

static struct strv runs;
static struct console con;
static struct fetches fetches;
static char *out_buf, *err_buf;
static size_t out_len, err_len;
static FILE *out, *err;
static char tmpdir[64];

static void setup(void)
{
	memset(&runs, 0, sizeof(runs));
	memset(&fetches, 0, sizeof(fetches));
	strv_push(&runs, "/bin/prog");
	out = open_memstream(&out_buf, &out_len);
	err = open_memstream(&err_buf, &err_len);
	console_init(&con, out, NULL, &runs);
	con.fetch = &fetches;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ppu-fetch-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);

	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
	fclose(out);
	fclose(err);
	free(out_buf);
	free(err_buf);
	free(con.res);
	free(runs.v);
	fetch_free(&fetches);
}

static void feed(const char *text, size_t len, size_t step)
{
	for (size_t i = 0; i < len; i += step)
		console_feed(&con, text + i, len - i < step ? len - i : step);
}

static char *tmp_path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void write_bytes(const char *path, const unsigned char *p, size_t n)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	fclose(f);
}

/* What the guest prints for the fetches: the /init's lines, run by busybox sh. */
static char *guest_output(void)
{
	char *script = NULL, *path = tmp_path("init"), *text = NULL;
	char *argv[] = { "busybox", "sh", path, NULL };
	size_t len = 0;
	FILE *f = open_memstream(&script, &len);

	/* the marker function of the real /init; dmesg is the guest's business */
	fputs("m() { printf '\\n@@PPU-%s\\n' \"$*\"; }\ndmesg() { :; }\nm BOOTED 1\n"
	      "m RUN-BEGIN 1\necho hello\nm RESULT 1 0\n", f);
	fetch_init_script(f, &fetches);
	fputs("m DMESG-BEGIN\nm DMESG-END\nm DONE\n", f);
	fclose(f);
	f = fopen(path, "w");
	fputs(script, f);
	fclose(f);
	ck_assert_int_eq(run_cmd(argv, &text, NULL), 0);
	free(script);
	free(path);
	return text;
}

START_TEST(fetch_brings_files_back_through_the_guest_script)
{
	static const size_t steps[] = { 1, 5, 77, 4096 };
	enum { N = 70001 };
	unsigned char *data = malloc(N), *back;
	char *bin = tmp_path("data.bin"), *empty = tmp_path("empty"), *spec, *text;
	size_t n;

	for (size_t i = 0; i < N; i++)
		data[i] = (unsigned char)(i * 131 + (i >> 8));
	write_bytes(bin, data, N);
	write_bytes(empty, data, 0);
	spec = xasprintf("%s:%s/bin.back", bin, tmpdir);
	ck_assert(fetch_add(&fetches, spec));
	free(spec);
	spec = xasprintf("%s:%s/empty.back", empty, tmpdir);
	ck_assert(fetch_add(&fetches, spec));
	free(spec);
	ck_assert(fetch_add(&fetches, "/no/such/file:/tmp/never-written"));
	text = guest_output();
	ck_assert_ptr_nonnull(strstr(text, "@@PPU-FETCH-BEGIN 1 70001 "));
	ck_assert_ptr_nonnull(strstr(text, "@@PPU-FETCH-MISSING 3"));

	for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		struct outcome v = { .timeout_s = 60 };
		char *path = tmp_path("bin.back");

		for (size_t i = 0; i < fetches.n; i++) {
			free(fetches.v[i].data);
			fetches.v[i].data = NULL;
			fetches.v[i].state = FETCH_NOT_SEEN;
		}
		unlink(path);
		feed(text, strlen(text), steps[s]);
		ck_assert(con.done);
		ck_assert_int_eq(fetches.v[0].state, FETCH_OK);
		ck_assert_int_eq(fetches.v[1].state, FETCH_OK);
		ck_assert_int_eq(fetches.v[2].state, FETCH_MISSING);
		v.fetch_failed = fetch_finish(&fetches, out, err);
		ck_assert_uint_eq(v.fetch_failed, 1);
		back = (unsigned char *)read_file(path, &n);
		ck_assert_ptr_nonnull(back);
		ck_assert_uint_eq(n, N);
		ck_assert(!memcmp(back, data, N));
		free(back);
		free(path);
		path = tmp_path("empty.back");
		back = (unsigned char *)read_file(path, &n);
		ck_assert_ptr_nonnull(back);
		ck_assert_uint_eq(n, 0);
		free(back);
		free(path);
		/* a file asked for and not brought back fails the batch */
		ck_assert_int_eq(results_report(out, err, &con, &v, now_s()), EXIT_RUN_FAILED);
		con.done = false;
	}
	fflush(out);
	fflush(err);
	/* the data is not relayed; the program's output is */
	ck_assert_ptr_null(strstr(out_buf, "@@PPU"));
	ck_assert_ptr_nonnull(strstr(out_buf, "hello\n"));
	ck_assert_uint_lt(out_len, 8000);
	ck_assert_ptr_nonnull(strstr(out_buf, "ppu-cosim: FETCH FAILED: /no/such/file: no such file "
				     "in the guest\n"));
	ck_assert_ptr_nonnull(strstr(err_buf, "(70001 bytes) -> "));
	free(text);
	free(data);
	free(bin);
	free(empty);
}
END_TEST

/* A one-file fetch whose console text is @text: the state and reason it ends in. */
static enum fetch_state fetch_text(const char *text, char *why, size_t len)
{
	ck_assert(fetch_add(&fetches, "/g:/dev/null"));
	feed(text, strlen(text), 3);
	console_flush(&con);
	snprintf(why, len, "%s", fetches.v[fetches.n - 1].why);
	return fetches.v[fetches.n - 1].state;
}

START_TEST(fetch_catches_what_the_console_can_do_to_the_data)
{
	char why[160];

	/* "hello\n" is aGVsbG8K, CRC-32 363a3020 */
	ck_assert_int_eq(fetch_text("\n@@PPU-FETCH-BEGIN 1 6 363a3020\naGVsbG8K\n\n@@PPU-FETCH-END 1\n",
				    why, sizeof(why)), FETCH_OK);
	teardown();
	setup();
	ck_assert_int_eq(fetch_text("\n@@PPU-FETCH-BEGIN 1 6 363a3020\naGVsbG9K\n\n@@PPU-FETCH-END 1\n",
				    why, sizeof(why)), FETCH_BAD);
	ck_assert_ptr_nonnull(strstr(why, "CRC-32"));
	teardown();
	setup();
	ck_assert_int_eq(fetch_text("\n@@PPU-FETCH-BEGIN 1 6 363a3020\naGVs\n[    9.1] ppu: x\n"
				    "bG8K\n\n@@PPU-FETCH-END 1\n", why, sizeof(why)), FETCH_BAD);
	ck_assert_ptr_nonnull(strstr(why, "not base64"));
	teardown();
	setup();
	ck_assert_int_eq(fetch_text("\n@@PPU-FETCH-BEGIN 1 9 363a3020\naGVsbG8K\n\n@@PPU-FETCH-END 1\n",
				    why, sizeof(why)), FETCH_BAD);
	ck_assert_str_eq(why, "6 bytes arrived of 9");
	teardown();
	setup();
	ck_assert_int_eq(fetch_text("\n@@PPU-FETCH-BEGIN 1 3 363a3020\naGVsbG8K\n", why,
				    sizeof(why)), FETCH_BAD);
	ck_assert_str_eq(why, "more data than the announced size");
	teardown();
	setup();
	/* the guest stopped in the middle */
	ck_assert_int_eq(fetch_text("\n@@PPU-FETCH-BEGIN 1 6 363a3020\naGVs\n", why, sizeof(why)),
			 FETCH_RECEIVING);
	teardown();
	setup();
	ck_assert_int_eq(fetch_text("\n@@PPU-FETCH-TOOBIG 1 99999999999\n", why, sizeof(why)),
			 FETCH_TOOBIG);
	teardown();
	setup();
	ck_assert_int_eq(fetch_text("\n@@PPU-FETCH-BEGIN 1 99999999999 0\n", why, sizeof(why)),
			 FETCH_BAD);
	ck_assert_str_eq(why, "announced size beyond the bound");
	teardown();
	setup();
	/* markers of a file nobody asked for are ignored */
	ck_assert_int_eq(fetch_text("\n@@PPU-FETCH-MISSING 2\n", why, sizeof(why)), FETCH_NOT_SEEN);
}
END_TEST

START_TEST(base64_crc32_and_specs)
{
	unsigned char b[16];

	ck_assert_uint_eq(fetch_crc32(0, (const unsigned char *)"abc", 3), 0x352441c2);
	ck_assert_uint_eq(fetch_crc32(0, (const unsigned char *)"123456789", 9), 0xcbf43926);
	/* in pieces, continued */
	ck_assert_uint_eq(fetch_crc32(fetch_crc32(0, (const unsigned char *)"1234", 4),
				      (const unsigned char *)"56789", 5), 0xcbf43926);
	ck_assert_int_eq(fetch_base64_line("YWJj", 4, b), 3);
	ck_assert(!memcmp(b, "abc", 3));
	ck_assert_int_eq(fetch_base64_line("YWI=", 4, b), 2);
	ck_assert(!memcmp(b, "ab", 2));
	ck_assert_int_eq(fetch_base64_line("YQ==", 4, b), 1);
	ck_assert_int_eq(b[0], 'a');
	ck_assert_int_eq(fetch_base64_line("+/+/", 4, b), 3);
	ck_assert_int_eq(b[0], 0xfb);
	ck_assert_int_eq(fetch_base64_line("", 0, b), 0);
	ck_assert_int_eq(fetch_base64_line("YWJ", 3, b), -1);
	ck_assert_int_eq(fetch_base64_line("Y===", 4, b), -1);
	ck_assert_int_eq(fetch_base64_line("YW=j", 4, b), -1);
	ck_assert_int_eq(fetch_base64_line("YQ==YWJj", 8, b), -1);
	ck_assert_int_eq(fetch_base64_line("YW J", 4, b), -1);

	ck_assert(!fetch_add(&fetches, "relative:x"));
	ck_assert(!fetch_add(&fetches, "/a b:x"));
	ck_assert(!fetch_add(&fetches, "/a;rm:x"));
	ck_assert(!fetch_add(&fetches, "/a:"));
	ck_assert(!fetch_add(&fetches, "/a"));
	ck_assert(fetch_add(&fetches, "/tmp/ppu-host.trace:out/h.trace"));
	ck_assert_str_eq(fetches.v[0].guest, "/tmp/ppu-host.trace");
	ck_assert_str_eq(fetches.v[0].host, "out/h.trace");
}
END_TEST

Suite *suite_cosim_fetch(void)
{
	Suite *s = suite_create("cosim_fetch");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fetch_brings_files_back_through_the_guest_script);
	tcase_add_test(tc, fetch_catches_what_the_console_can_do_to_the_data);
	tcase_add_test(tc, base64_crc32_and_specs);
	suite_add_tcase(s, tc);
	return s;
}
