// SPDX-License-Identifier: MIT
/*
 * The initramfs pieces of ppu-cosim (tools/cosim/cpio.c, initramfs.c,
 * modules.c): an archive written with the cpio writer reads back entry by
 * entry, with a parser of the newc format here and with GNU cpio; parents
 * come before their children and duplicates keep the first entry; the
 * generated /init is valid sh and prints the markers in order for every
 * run; shell quoting survives sh; module names are normalised as modprobe
 * does.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "initramfs.h"
#include "modules.h"

struct entry {
	char name[256];
	uint32_t mode, size, rmaj, rmin, ino, nlink;
	char data[256];
};

static uint32_t hex8(const char *p)
{
	char buf[9];

	memcpy(buf, p, 8);
	buf[8] = 0;
	return (uint32_t)strtoul(buf, NULL, 16);
}

/* Reads a newc archive, checking magic, alignment and the trailer; returns the entry count. */
static size_t parse_newc(const char *buf, size_t len, struct entry *e, size_t max)
{
	size_t off = 0, n = 0;

	for (;;) {
		const char *h = buf + off;
		uint32_t namesize, size;

		ck_assert_uint_le(off + 110, len);
		ck_assert_msg(!memcmp(h, "070701", 6), "bad magic at %zu", off);
		namesize = hex8(h + 94);
		size = hex8(h + 54);
		ck_assert_uint_le(off + 110 + namesize, len);
		ck_assert_int_eq(h[110 + namesize - 1], 0);
		if (!strcmp(h + 110, "TRAILER!!!"))
			return n;
		ck_assert_uint_lt(n, max);
		snprintf(e[n].name, sizeof(e[n].name), "%s", h + 110);
		e[n].ino = hex8(h + 6);
		e[n].mode = hex8(h + 14);
		e[n].nlink = hex8(h + 38);
		e[n].size = size;
		e[n].rmaj = hex8(h + 78);
		e[n].rmin = hex8(h + 86);
		off = (off + 110 + namesize + 3) & ~(size_t)3;
		ck_assert_uint_le(off + size, len);
		ck_assert_uint_lt(size, sizeof(e[n].data));
		memcpy(e[n].data, buf + off, size);
		e[n].data[size] = 0;
		off = (off + size + 3) & ~(size_t)3;
		n++;
	}
}

static const struct entry *find(const struct entry *e, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return &e[i];
	return NULL;
}

static size_t index_of(const struct entry *e, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return i;
	ck_abort_msg("%s is not in the archive", name);
	return 0;
}

static char tmpdir[64];

static void mk_tmp(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/cosim-unit.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_tmp(void)
{
	rm_rf(tmpdir);
}

/* A small archive of every entry kind the runner writes. */
static char *write_sample(size_t *len)
{
	struct cpio c;
	char *path = xasprintf("%s/a.cpio", tmpdir), *host = xasprintf("%s/host", tmpdir);
	FILE *f = fopen(host, "w");
	char *data;

	ck_assert_ptr_nonnull(f);
	fputs("from the host\n", f);
	fclose(f);
	chmod(host, 0751);
	cpio_open(&c, path);
	cpio_dir(&c, "bin");
	cpio_data(&c, "/etc/ppu-cosim/run1", 0644, "echo one\n", 9);
	cpio_data(&c, "etc/ppu-cosim/run1", 0644, "echo two\n", 9);
	cpio_symlink(&c, "bin/sh", "busybox");
	cpio_chardev(&c, "dev/console", 0600, 5, 1);
	cpio_copy(&c, "lib/x/y/host", host, -1);
	cpio_data(&c, "odd", 0600, "abc", 3);
	cpio_finish(&c);
	data = read_file(path, len);
	ck_assert_ptr_nonnull(data);
	free(path);
	free(host);
	return data;
}

START_TEST(cpio_archive_reads_back_entry_by_entry)
{
	struct entry e[32];
	size_t len, n;
	char *buf;
	const struct entry *x;

	buf = write_sample(&len);
	ck_assert_uint_eq(len % 4, 0);
	n = parse_newc(buf, len, e, 32);
	/* bin, etc, etc/ppu-cosim, run1, bin/sh, dev, dev/console, lib, lib/x, lib/x/y, host, odd */
	ck_assert_uint_eq(n, 12);

	x = find(e, n, "etc/ppu-cosim/run1");
	ck_assert_ptr_nonnull(x);
	ck_assert_uint_eq(x->mode, S_IFREG | 0644);
	ck_assert_str_eq(x->data, "echo one\n");	/* the first of the two */
	x = find(e, n, "bin/sh");
	ck_assert_uint_eq(x->mode, S_IFLNK | 0777);
	ck_assert_str_eq(x->data, "busybox");
	x = find(e, n, "dev/console");
	ck_assert_uint_eq(x->mode, S_IFCHR | 0600);
	ck_assert_uint_eq(x->rmaj, 5);
	ck_assert_uint_eq(x->rmin, 1);
	ck_assert_uint_eq(x->size, 0);
	x = find(e, n, "lib/x/y/host");
	ck_assert_uint_eq(x->mode, S_IFREG | 0751);
	ck_assert_str_eq(x->data, "from the host\n");
	x = find(e, n, "lib/x");
	ck_assert_uint_eq(x->mode, S_IFDIR | 0755);
	ck_assert_uint_eq(x->nlink, 2);
	ck_assert_str_eq(find(e, n, "odd")->data, "abc");

	/* Parents before children; every inode distinct. */
	ck_assert_uint_lt(index_of(e, n, "etc"), index_of(e, n, "etc/ppu-cosim"));
	ck_assert_uint_lt(index_of(e, n, "etc/ppu-cosim"), index_of(e, n, "etc/ppu-cosim/run1"));
	ck_assert_uint_lt(index_of(e, n, "lib/x/y"), index_of(e, n, "lib/x/y/host"));
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			ck_assert_uint_ne(e[i].ino, e[j].ino);
	free(buf);
}
END_TEST

/* GNU cpio, an independent reader, lists the same names and extracts the same bytes. */
START_TEST(cpio_archive_is_read_by_gnu_cpio)
{
	char *cmd, *out = NULL, *text;
	size_t len;
	char *argv[] = { "sh", "-c", NULL, NULL };

	free(write_sample(&len));
	cmd = xasprintf("cd %s && cpio -it --quiet < a.cpio && mkdir x && cd x && "
			"cpio -id --quiet < ../a.cpio", tmpdir);
	argv[2] = cmd;
	ck_assert_int_eq(run_cmd(argv, &out, NULL), 0);
	ck_assert_str_eq(out, "bin\netc\netc/ppu-cosim\netc/ppu-cosim/run1\nbin/sh\ndev\n"
			 "dev/console\nlib\nlib/x\nlib/x/y\nlib/x/y/host\nodd\n");
	free(out);
	free(cmd);
	cmd = xasprintf("%s/x/lib/x/y/host", tmpdir);
	text = read_file(cmd, NULL);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, "from the host\n");
	free(text);
	free(cmd);
}
END_TEST

/* The /init script: sh accepts it, and it prints the markers for each run in order. */
START_TEST(init_script_runs_every_command_between_markers)
{
	struct modlist l = { 0 };
	struct mod m = { .path = "x", .guest = "lib/modules/extra/it's.ko", .params = "a=1 b=2" };
	struct strv runs = { 0 };
	char *script, *path, *cmd, *out = NULL;
	char *argv[] = { "sh", "-n", NULL, NULL };
	FILE *f;
	const char *p;

	l.m = &m;
	l.n = 1;
	strv_push(&runs, "/bin/a");
	strv_push(&runs, "/bin/b --x");
	script = initramfs_init_script(&l, &runs, NULL);
	path = xasprintf("%s/init", tmpdir);
	f = fopen(path, "w");
	fputs(script, f);
	fclose(f);
	argv[2] = path;
	ck_assert_int_eq(run_cmd(argv, &out, NULL), 0);
	free(out);

	ck_assert_ptr_nonnull(strstr(script, "load '/lib/modules/extra/it'\\''s.ko' a=1 b=2\n"));
	/* each run between markers that carry its status and the cycle counter */
	p = strstr(script, "m RUN-BEGIN 1 $(cyc)\n");
	ck_assert_ptr_nonnull(p);
	p = strstr(p, "sh /etc/ppu-cosim/run1 </dev/null\n\trc=$?\n\tm RESULT 1 $rc $(cyc)\n");
	ck_assert_ptr_nonnull(p);
	p = strstr(p, "m RUN-BEGIN 2 $(cyc)\n");
	ck_assert_ptr_nonnull(p);
	p = strstr(p, "m RESULT 2 $rc $(cyc)\n");
	ck_assert_ptr_nonnull(p);
	p = strstr(p, "m DMESG-BEGIN\ndmesg\nm DMESG-END\nm DONE\npoweroff -f\n");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_null(strstr(script, "RUN-BEGIN 3"));

	/* The marker function puts each marker on a line of its own. */
	cmd = xasprintf("printf partial; %.*s; m RESULT 7 0",
			(int)(strstr(script, "}\n") - strstr(script, "m() {") + 1),
			strstr(script, "m() {"));
	argv[1] = "-c";
	argv[2] = cmd;
	ck_assert_int_eq(run_cmd(argv, &out, NULL), 0);
	ck_assert_str_eq(out, "partial\n@@PPU-RESULT 7 0\n");
	free(out);
	free(cmd);
	free(path);
	free(script);
	free(runs.v);
}
END_TEST

START_TEST(shell_quote_survives_sh)
{
	static const char *const words[] = { "plain", "it's", "'", "a b\tc", "$HOME `x` \"q\"", "" };
	char *argv[] = { "sh", "-c", NULL, NULL };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char *q = shell_quote(words[i]), *cmd = xasprintf("printf %%s %s", q), *out = NULL;

		argv[2] = cmd;
		ck_assert_int_eq(run_cmd(argv, &out, NULL), 0);
		ck_assert_str_eq(out, words[i]);
		free(out);
		free(cmd);
		free(q);
	}
}
END_TEST

START_TEST(module_names_are_normalised)
{
	static const char *const cases[][2] = {
		{ "kernel/drivers/gpu/drm/drm_shmem_helper.ko.xz", "drm_shmem_helper" },
		{ "build/kernel/ppu.ko", "ppu" },
		{ "i2c-algo-bit.ko.zst", "i2c_algo_bit" },
		{ "drm", "drm" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *n = mod_name(cases[i][0]);

		ck_assert_str_eq(n, cases[i][1]);
		free(n);
	}
}
END_TEST

START_TEST(modinfo_is_not_found_in_garbage)
{
	char junk[256];
	size_t start, size;

	memset(junk, 0x7f, sizeof(junk));
	ck_assert(!modinfo_section(junk, sizeof(junk), &start, &size));
	memcpy(junk, "\177ELF", 4);
	ck_assert(!modinfo_section(junk, 16, &start, &size));
}
END_TEST

Suite *suite_cosim_cpio(void)
{
	Suite *s = suite_create("cosim_cpio");
	TCase *tc = tcase_create("cosim_cpio");

	tcase_add_checked_fixture(tc, mk_tmp, rm_tmp);
	tcase_add_test(tc, cpio_archive_reads_back_entry_by_entry);
	tcase_add_test(tc, cpio_archive_is_read_by_gnu_cpio);
	tcase_add_test(tc, init_script_runs_every_command_between_markers);
	tcase_add_test(tc, shell_quote_survives_sh);
	tcase_add_test(tc, module_names_are_normalised);
	tcase_add_test(tc, modinfo_is_not_found_in_garbage);
	suite_add_tcase(s, tc);
	return s;
}
