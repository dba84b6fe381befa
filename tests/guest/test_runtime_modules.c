// SPDX-License-Identifier: MIT
/*
 * libppu modules in the co-simulated guest: a kernel image built by
 * runtime/device/device.mk is loaded into device memory, relocated for the
 * address it got, and its symbols are found by name; bad images are
 * refused with a reason.  The image is read back with the copy engine and
 * compared with the host's own relocation of the same file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "module_elf.h"
#include "ppu_runtime.h"
#include "rt_guest.h"

#define LOOKUP_ELF "/lib/ppu/lookup.elf"

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	ck_assert_msg(f, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_gt(n, 0);
	rewind(f);
	buf = malloc((size_t)n);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Copies @bytes of device memory at @d to a fresh host buffer. */
static uint8_t *read_back(ppu_ctx *ctx, ppu_devptr d, size_t bytes)
{
	ppu_devptr hd;
	uint8_t *h, *out = malloc(bytes);

	ck_assert_ptr_nonnull(out);
	RT(ppu_mem_alloc_host(ctx, bytes, (void **)&h, &hd));
	RT(ppu_memcpy(ctx, hd, d, bytes));
	memcpy(out, h, bytes);
	RT(ppu_mem_free(ctx, hd));
	return out;
}

START_TEST(loads_relocates_and_finds_symbols)
{
	struct ppu_elf_sym tables;
	unsigned char *file, *ref;
	ppu_devptr d, calls, base;
	ppu_function *fn, *again;
	struct ppu_elf e;
	uint32_t words[2];
	ppu_module *m;
	uint8_t *img;
	char err[200];
	size_t len, n;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_module_load(ctx, LOOKUP_ELF, &m));
	RT(ppu_module_get_function(m, "lookup", &fn));
	RT(ppu_module_get_function(m, "lookup", &again));
	ck_assert_ptr_eq(fn, again);
	ck_assert_int_eq(ppu_module_get_function(m, "lookup_tables", &again), PPU_ERROR_NOT_FOUND);
	ck_assert_int_eq(ppu_module_get_function(m, "squares", &again), PPU_ERROR_NOT_FOUND);
	ck_assert_int_eq(ppu_module_get_global(m, "lookup", &d, &n), PPU_ERROR_NOT_FOUND);
	ck_assert_int_eq(ppu_module_get_global(m, "nothing", &d, &n), PPU_ERROR_NOT_FOUND);
	ck_assert_msg(strstr(ppu_last_error(), "nothing"), "%s", ppu_last_error());

	RT(ppu_module_get_global(m, "lookup_tables", &d, &n));
	ck_assert_uint_eq(n, 8);
	RT(ppu_module_get_global(m, "lookup_calls", &calls, &n));
	ck_assert_uint_eq(n, 4);

	/* The host's relocation of the same file for the same base. */
	file = read_file(LOOKUP_ELF, &len);
	ck_assert_int_eq(ppu_elf_open(&e, file, len, err, sizeof(err)), 0);
	ck_assert_int_eq(ppu_elf_symbol_info(&e, "lookup_tables", &tables), 0);
	base = d - tables.offset;
	ck_assert_uint_eq(base % 4096, 0);
	ref = malloc(e.image_bytes);
	ck_assert_int_eq(ppu_elf_load(&e, (uint32_t)base, ref, err, sizeof(err)), 0);
	img = read_back(ctx, base, e.image_bytes);
	ck_assert_mem_eq(img, ref, e.image_bytes);
	/* The relocated words point at the two tables, inside the image. */
	memcpy(words, img + tables.offset, 8);
	ck_assert_uint_gt(words[0], base);
	ck_assert_uint_lt(words[1], base + e.image_bytes);
	ck_assert_uint_ne(words[0], words[1]);
	ck_assert_uint_eq(((uint32_t *)(img + (words[1] - base)))[3], 27);	/* cubes[3] */
	ck_assert_uint_eq(((uint32_t *)(img + (calls - base)))[0], 0);		/* bss */

	RT(ppu_module_unload(m));
	free(img);
	free(ref);
	free(file);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/* A second load of the same image goes elsewhere; a context frees what is left. */
START_TEST(modules_are_independent_and_freed_with_the_context)
{
	ppu_devptr d1, d2;
	ppu_module *m1, *m2;
	ppu_ctx *ctx;
	size_t n;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_module_load(ctx, LOOKUP_ELF, &m1));
	RT(ppu_module_load(ctx, LOOKUP_ELF, &m2));
	RT(ppu_module_get_global(m1, "lookup_calls", &d1, &n));
	RT(ppu_module_get_global(m2, "lookup_calls", &d2, &n));
	ck_assert_uint_ne(d1, d2);
	RT(ppu_module_unload(m1));
	/* m2 is left for ppu_ctx_destroy. */
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

START_TEST(refuses_bad_images)
{
	static const unsigned char not_elf[64] = "this is not an ELF file";
	unsigned char *file, *bad;
	ppu_module *m = NULL;
	ppu_ctx *ctx;
	size_t len;

	RT(ppu_ctx_create(&ctx, 0, 0));
	ck_assert_int_eq(ppu_module_load_data(ctx, not_elf, sizeof(not_elf), &m),
			 PPU_ERROR_INVALID_IMAGE);
	ck_assert_msg(strstr(ppu_last_error(), "not an ELF"), "%s", ppu_last_error());
	ck_assert_ptr_null(m);

	file = read_file(LOOKUP_ELF, &len);
	ck_assert_int_eq(ppu_module_load_data(ctx, file, len / 2, &m), PPU_ERROR_INVALID_IMAGE);
	bad = malloc(len);
	memcpy(bad, file, len);
	bad[18] = 62;	/* e_machine: x86-64 */
	ck_assert_int_eq(ppu_module_load_data(ctx, bad, len, &m), PPU_ERROR_INVALID_IMAGE);
	ck_assert_msg(strstr(ppu_last_error(), "RISC-V"), "%s", ppu_last_error());

	ck_assert_int_ne(ppu_module_load(ctx, "/lib/ppu/no-such.elf", &m), PPU_SUCCESS);
	ck_assert_msg(strstr(ppu_last_error(), "no-such.elf"), "%s", ppu_last_error());
	ck_assert_int_eq(ppu_module_load(ctx, "/lib/ppu", &m), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_module_load(NULL, LOOKUP_ELF, &m), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_module_load(ctx, LOOKUP_ELF, NULL), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_module_unload(NULL), PPU_ERROR_INVALID_VALUE);

	/* The intact image still loads from memory. */
	RT(ppu_module_load_data(ctx, file, len, &m));
	free(bad);
	free(file);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

static Suite *modules_suite(void)
{
	Suite *s = suite_create("libppu modules");
	TCase *tc = tcase_create("modules");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, loads_relocates_and_finds_symbols);
	tcase_add_test(tc, modules_are_independent_and_freed_with_the_context);
	tcase_add_test(tc, refuses_bad_images);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(modules_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
