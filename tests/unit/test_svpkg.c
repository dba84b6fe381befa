// SPDX-License-Identifier: MIT
/*
 * The SystemVerilog package the RTL is built with must carry exactly the
 * numbers C sees: parse the generated package and compare every constant
 * and field of every .def file.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/ppu_hw.h"

struct sv_const {
	char name[96];
	unsigned long value;
};

static struct sv_const *consts;
static size_t nconsts;

static void load_pkg(void)
{
	FILE *f = fopen(PPU_SVPKG_PATH, "r");
	char line[256];

	ck_assert_msg(f != NULL, "cannot open %s", PPU_SVPKG_PATH);
	while (fgets(line, sizeof(line), f)) {
		char name[96], val[32];
		unsigned long v;

		if (sscanf(line, " localparam int unsigned %95s = %31[^;];", name, val) == 2) {
			if (!strncmp(val, "32'h", 4))
				v = strtoul(val + 4, NULL, 16);
			else if (!strncmp(val, "32'd", 4))
				v = strtoul(val + 4, NULL, 10);
			else
				v = strtoul(val, NULL, 10);
			consts = realloc(consts, (nconsts + 1) * sizeof(*consts));
			ck_assert_ptr_nonnull(consts);
			strcpy(consts[nconsts].name, name);
			consts[nconsts].value = v;
			nconsts++;
		}
	}
	fclose(f);
}

static void expect(const char *name, unsigned long v, size_t *checked)
{
	size_t i;

	for (i = 0; i < nconsts; i++) {
		if (!strcmp(consts[i].name, name)) {
			ck_assert_msg(consts[i].value == v, "%s: SV 0x%lx, C 0x%lx", name,
				      consts[i].value, v);
			(*checked)++;
			return;
		}
	}
	ck_abort_msg("%s missing from the SV package", name);
}

START_TEST(sv_package_matches_c_headers)
{
	size_t checked = 0;

	load_pkg();
#define PPU_OFFSET(g, n, v) expect("PPU_" #g "_" #n, PPU_##g##_##n, &checked);
#define PPU_FIELD(g, n, hi, lo) \
	expect("PPU_" #g "_" #n "__MSB", PPU_##g##_##n##__MSB, &checked); \
	expect("PPU_" #g "_" #n "__LSB", PPU_##g##_##n##__LSB, &checked);
#define PPU_VALUE(g, n, v) expect("PPU_" #g "_" #n, PPU_##g##_##n, &checked);
#define PPU_CONST(n, v) expect("PPU_" #n, PPU_##n, &checked);
#include "ppu/ppu_regs.def"
#include "ppu/ppu_chan.def"
#include "ppu/ppu_methods.def"
#include "ppu/ppu_mmu.def"
#include "ppu/ppu_trace.def"
#include "ppu/ppu_compute.def"
	ck_assert_uint_eq(checked, nconsts);
	free(consts);
}
END_TEST

Suite *suite_svpkg(void)
{
	Suite *s = suite_create("svpkg");
	TCase *tc = tcase_create("agreement");

	tcase_add_test(tc, sv_package_matches_c_headers);
	suite_add_tcase(s, tc);
	return s;
}
