// SPDX-License-Identifier: MIT
/*
 * Stream -> device priority mapping (US 9575760) against tables worked out by hand from the
 * worked examples in the brief, not from the formulas under test.
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "priority_map.h"

static struct ppu_prio_map map(unsigned int m, unsigned int n, int lo, int hi,
			       enum ppu_prio_embodiment e)
{
	struct ppu_prio_map pm;

	ck_assert_int_eq(ppu_prio_map_init(&pm, m, n, lo, hi, e), 0);
	return pm;
}

START_TEST(example1_m12_n4_three_levels)
{
	struct ppu_prio_map pm = map(12, 4, 0, 2, PPU_PRIO_SHARE_HIGHEST);

	ck_assert_uint_eq(ppu_prio_map_levels(&pm), 3);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 0), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 1), 4);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 2), 8);
	ck_assert_uint_eq(ppu_prio_map_level(&pm, 0), 0);
	ck_assert_uint_eq(ppu_prio_map_level(&pm, 1), 1);
	ck_assert_uint_eq(ppu_prio_map_level(&pm, 2), 2);
}
END_TEST

START_TEST(example2_m12_n2_six_levels)
{
	static const unsigned int want[6] = { 0, 2, 4, 6, 8, 10 };
	struct ppu_prio_map pm = map(12, 2, 0, 5, PPU_PRIO_SHARE_HIGHEST);
	int p;

	ck_assert_uint_eq(ppu_prio_map_levels(&pm), 6);
	for (p = 0; p <= 5; p++) {
		ck_assert_uint_eq(ppu_prio_map_device(&pm, p), want[p]);
		ck_assert_uint_eq(ppu_prio_map_level(&pm, p), (unsigned int)p);
	}
}
END_TEST

START_TEST(example3_m12_n4_child_chain)
{
	struct ppu_prio_map pm = map(12, 4, 0, 2, PPU_PRIO_SHARE_HIGHEST);
	unsigned int prio = 99, depth = 99;

	ck_assert_int_eq(ppu_prio_map_child(&pm, 4, 1, &prio, &depth), 0);
	ck_assert_uint_eq(prio, 5);
	ck_assert_uint_eq(depth, 2);
	ck_assert_int_eq(ppu_prio_map_child(&pm, 5, 2, &prio, &depth), 0);
	ck_assert_uint_eq(prio, 6);
	ck_assert_uint_eq(depth, 3);
	ck_assert_int_eq(ppu_prio_map_child(&pm, 6, 3, &prio, &depth), 0);
	ck_assert_uint_eq(prio, 7);
	ck_assert_uint_eq(depth, 4);
	/* depth 4 = N: a fifth level would be too deep; the outputs stay untouched */
	ck_assert_int_eq(ppu_prio_map_child(&pm, 7, 4, &prio, &depth), -E2BIG);
	ck_assert_uint_eq(prio, 7);
	ck_assert_uint_eq(depth, 4);
}
END_TEST

START_TEST(example4_m10_n4_main_shares_highest)
{
	struct ppu_prio_map pm = map(10, 4, 100, 199, PPU_PRIO_SHARE_HIGHEST);
	int p;

	ck_assert_uint_eq(ppu_prio_map_levels(&pm), 2);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 100), 0);
	ck_assert_uint_eq(ppu_prio_map_level(&pm, 100), 0);
	for (p = 101; p <= 199; p++) {
		ck_assert_uint_eq(ppu_prio_map_device(&pm, p), 4);
		ck_assert_uint_eq(ppu_prio_map_level(&pm, p), 1);
	}
}
END_TEST

START_TEST(example4_m10_n4_alternative_shares_lowest)
{
	struct ppu_prio_map pm = map(10, 4, 100, 199, PPU_PRIO_SHARE_LOWEST);
	int p;

	ck_assert_uint_eq(ppu_prio_map_levels(&pm), 2);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 199), 6);
	ck_assert_uint_eq(ppu_prio_map_level(&pm, 199), 1);
	for (p = 100; p <= 198; p++) {
		ck_assert_uint_eq(ppu_prio_map_device(&pm, p), 2);
		ck_assert_uint_eq(ppu_prio_map_level(&pm, p), 0);
	}
}
END_TEST

/* M = 64, stream range [0, 63] (more priorities than any L below, so every level is used) */
static const struct {
	unsigned int n, levels;
	unsigned int main_top;		/* main: the shared top level, (L-1)*N */
	unsigned int alt_bottom;	/* alternative: the shared bottom level, 64 - L*N */
	unsigned int alt_top;		/* alternative: stream 63, 64 - N */
} m64[] = {
	{ 1, 64, 63, 0, 63 },
	{ 2, 32, 62, 0, 62 },
	{ 3, 21, 60, 1, 61 },
	{ 4, 16, 60, 0, 60 },
	{ 24, 2, 24, 16, 40 },
	{ 64, 1, 0, 0, 0 },
};

static void check_m64_spacing(const struct ppu_prio_map *pm, unsigned int n, unsigned int levels)
{
	unsigned int prev = 0, distinct = 0, dev, prio, depth, d, child, cdepth;
	int p;

	for (p = 0; p <= 63; p++) {
		dev = ppu_prio_map_device(pm, p);
		ck_assert_uint_le(dev + n - 1, 63);
		if (p && dev == prev)
			continue;
		if (p)
			ck_assert_uint_ge(dev, prev + n);
		distinct++;
		/* a full-depth chain from this level stays below the next level */
		prio = dev;
		depth = 1;
		for (d = 1; d < n; d++) {
			ck_assert_int_eq(ppu_prio_map_child(pm, prio, depth, &child, &cdepth), 0);
			prio = child;
			depth = cdepth;
		}
		ck_assert_uint_eq(prio, dev + n - 1);
		ck_assert_uint_eq(depth, n);
		ck_assert_int_eq(ppu_prio_map_child(pm, prio, depth, &child, &cdepth), -E2BIG);
		prev = dev;
	}
	ck_assert_uint_eq(distinct, levels);
}

START_TEST(m64_levels_and_spacing)
{
	struct ppu_prio_map pm = map(64, m64[_i].n, 0, 63, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map alt = map(64, m64[_i].n, 0, 63, PPU_PRIO_SHARE_LOWEST);

	ck_assert_uint_eq(ppu_prio_map_levels(&pm), m64[_i].levels);
	ck_assert_uint_eq(ppu_prio_map_levels(&alt), m64[_i].levels);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 0), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 63), m64[_i].main_top);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 0), m64[_i].alt_bottom);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 63), m64[_i].alt_top);
	ck_assert_uint_eq(ppu_prio_map_level(&pm, 63), m64[_i].levels - 1);
	ck_assert_uint_eq(ppu_prio_map_level(&alt, 0), 0);
	check_m64_spacing(&pm, m64[_i].n, m64[_i].levels);
	check_m64_spacing(&alt, m64[_i].n, m64[_i].levels);
}
END_TEST

START_TEST(m64_n3_table)
{
	struct ppu_prio_map pm = map(64, 3, 0, 63, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map alt = map(64, 3, 0, 63, PPU_PRIO_SHARE_LOWEST);

	ck_assert_uint_eq(ppu_prio_map_device(&pm, 1), 3);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 19), 57);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 20), 60);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 21), 60);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 62), 58);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 44), 4);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 43), 1);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 42), 1);
}
END_TEST

START_TEST(range_smaller_than_levels)
{
	/* M = 64, N = 4: 16 levels, only 3 used */
	struct ppu_prio_map pm = map(64, 4, 0, 2, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map alt = map(64, 4, 0, 2, PPU_PRIO_SHARE_LOWEST);

	ck_assert_uint_eq(ppu_prio_map_device(&pm, 0), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 1), 4);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 2), 8);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 2), 60);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 1), 56);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 0), 52);
	ck_assert_uint_eq(ppu_prio_map_level(&alt, 0), 0);
	ck_assert_uint_eq(ppu_prio_map_level(&alt, 1), 1);
	ck_assert_uint_eq(ppu_prio_map_level(&alt, 2), 2);
}
END_TEST

START_TEST(single_stream_priority)
{
	struct ppu_prio_map pm = map(12, 4, 7, 7, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map alt = map(12, 4, 7, 7, PPU_PRIO_SHARE_LOWEST);

	ck_assert_uint_eq(ppu_prio_map_device(&pm, 7), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 7), 8);
	ck_assert_uint_eq(ppu_prio_map_level(&alt, 7), 0);
}
END_TEST

START_TEST(full_int_range)
{
	struct ppu_prio_map pm = map(12, 4, INT_MIN, INT_MAX, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map alt = map(12, 4, INT_MIN, INT_MAX, PPU_PRIO_SHARE_LOWEST);

	ck_assert_uint_eq(ppu_prio_map_device(&pm, INT_MIN), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, INT_MIN + 1), 4);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, INT_MIN + 2), 8);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 0), 8);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, INT_MAX), 8);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, INT_MAX), 8);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, INT_MAX - 1), 4);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, INT_MAX - 2), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 0), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, INT_MIN), 0);
}
END_TEST

START_TEST(init_rejects_invalid)
{
	struct ppu_prio_map pm;

	ck_assert_int_eq(ppu_prio_map_init(&pm, 0, 1, 0, 2, PPU_PRIO_SHARE_HIGHEST), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_init(&pm, 12, 0, 0, 2, PPU_PRIO_SHARE_HIGHEST), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_init(&pm, 12, 13, 0, 2, PPU_PRIO_SHARE_HIGHEST), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_init(&pm, 12, 4, 3, 2, PPU_PRIO_SHARE_HIGHEST), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_init(&pm, 12, 4, 0, -1, PPU_PRIO_SHARE_LOWEST), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_init(NULL, 12, 4, 0, 2, PPU_PRIO_SHARE_HIGHEST), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_init(&pm, 12, 4, 0, 2, (enum ppu_prio_embodiment)2), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_init(&pm, 12, 4, 0, 2, (enum ppu_prio_embodiment)-1),
			 -EINVAL);
	/* the edges that are valid: N == M (one level), lo == hi */
	ck_assert_int_eq(ppu_prio_map_init(&pm, 12, 12, 5, 5, PPU_PRIO_SHARE_HIGHEST), 0);
	ck_assert_uint_eq(ppu_prio_map_levels(&pm), 1);
}
END_TEST

START_TEST(out_of_range_priorities_clamp)
{
	struct ppu_prio_map pm = map(12, 4, 0, 2, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map neg = map(12, 2, -3, 2, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map alt = map(10, 4, 100, 199, PPU_PRIO_SHARE_LOWEST);

	ck_assert_uint_eq(ppu_prio_map_device(&pm, -1), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, INT_MIN), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, 3), 8);
	ck_assert_uint_eq(ppu_prio_map_device(&pm, INT_MAX), 8);
	ck_assert_uint_eq(ppu_prio_map_level(&pm, 1000), 2);

	ck_assert_uint_eq(ppu_prio_map_device(&neg, -3), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&neg, -1), 4);
	ck_assert_uint_eq(ppu_prio_map_device(&neg, 2), 10);
	ck_assert_uint_eq(ppu_prio_map_device(&neg, -100), 0);
	ck_assert_uint_eq(ppu_prio_map_device(&neg, 100), 10);

	ck_assert_uint_eq(ppu_prio_map_device(&alt, 99), 2);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, 200), 6);
	ck_assert_uint_eq(ppu_prio_map_device(&alt, INT_MAX), 6);
}
END_TEST

START_TEST(default_priority_is_lowest)
{
	struct ppu_prio_map pm = map(10, 4, 100, 199, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map alt = map(10, 4, 100, 199, PPU_PRIO_SHARE_LOWEST);
	struct ppu_prio_map neg = map(64, 4, -5, 0, PPU_PRIO_SHARE_LOWEST);

	ck_assert_int_eq(ppu_prio_map_default_stream(&pm), 100);
	ck_assert_uint_eq(ppu_prio_map_default_device(&pm), 0);
	ck_assert_int_eq(ppu_prio_map_default_stream(&alt), 100);
	ck_assert_uint_eq(ppu_prio_map_default_device(&alt), 2);
	/* 6 priorities on 16 levels, anchored at the top: -5 -> 64 - 6 * 4 */
	ck_assert_int_eq(ppu_prio_map_default_stream(&neg), -5);
	ck_assert_uint_eq(ppu_prio_map_default_device(&neg), 40);
}
END_TEST

START_TEST(child_rejects_invalid)
{
	struct ppu_prio_map pm = map(12, 4, 0, 2, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map flat = map(12, 1, 0, 11, PPU_PRIO_SHARE_HIGHEST);
	unsigned int prio = 99, depth = 99;

	ck_assert_int_eq(ppu_prio_map_child(&pm, 4, 0, &prio, &depth), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_child(&pm, 12, 1, &prio, &depth), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_child(&pm, 100, 1, &prio, &depth), -EINVAL);
	/* the child would run at 12 = M */
	ck_assert_int_eq(ppu_prio_map_child(&pm, 11, 1, &prio, &depth), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_child(NULL, 4, 1, &prio, &depth), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_child(&pm, 4, 1, NULL, &depth), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_child(&pm, 4, 1, &prio, NULL), -EINVAL);
	ck_assert_int_eq(ppu_prio_map_child(&pm, 4, 5, &prio, &depth), -E2BIG);
	/* N = 1: no nesting at all */
	ck_assert_int_eq(ppu_prio_map_child(&flat, 0, 1, &prio, &depth), -E2BIG);
	ck_assert_uint_eq(prio, 99);
	ck_assert_uint_eq(depth, 99);
	/* the last valid launch: a child at M - 1 */
	ck_assert_int_eq(ppu_prio_map_child(&pm, 10, 3, &prio, &depth), 0);
	ck_assert_uint_eq(prio, 11);
	ck_assert_uint_eq(depth, 4);
}
END_TEST

START_TEST(null_map_queries)
{
	char buf[8];

	ck_assert_uint_eq(ppu_prio_map_levels(NULL), 0);
	ck_assert_uint_eq(ppu_prio_map_level(NULL, 5), 0);
	ck_assert_uint_eq(ppu_prio_map_device(NULL, 5), 0);
	ck_assert_int_eq(ppu_prio_map_default_stream(NULL), 0);
	ck_assert_uint_eq(ppu_prio_map_default_device(NULL), 0);
	ck_assert_int_eq(ppu_prio_map_format(NULL, buf, sizeof(buf)), -EINVAL);
}
END_TEST

static void check_format(const struct ppu_prio_map *pm, const char *want)
{
	char buf[256];

	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(ppu_prio_map_format(pm, buf, sizeof(buf)), (int)strlen(want));
	ck_assert_str_eq(buf, want);
}

START_TEST(format_tables)
{
	struct ppu_prio_map ex1 = map(12, 4, 0, 2, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map ex4 = map(10, 4, 100, 199, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map ex4alt = map(10, 4, 100, 199, PPU_PRIO_SHARE_LOWEST);
	struct ppu_prio_map flat = map(3, 1, 0, 5, PPU_PRIO_SHARE_HIGHEST);
	struct ppu_prio_map wide = map(12, 4, INT_MIN, INT_MAX, PPU_PRIO_SHARE_HIGHEST);

	check_format(&ex1, "0 -> 0 (children up to 3)\n"
			   "1 -> 4 (children up to 7)\n"
			   "2 -> 8 (children up to 11)\n");
	check_format(&ex4, "100 -> 0 (children up to 3)\n"
			   "101..199 -> 4 (children up to 7)\n");
	check_format(&ex4alt, "100..198 -> 2 (children up to 5)\n"
			      "199 -> 6 (children up to 9)\n");
	check_format(&flat, "0 -> 0 (no children)\n"
			    "1 -> 1 (no children)\n"
			    "2..5 -> 2 (no children)\n");
	check_format(&wide, "-2147483648 -> 0 (children up to 3)\n"
			    "-2147483647 -> 4 (children up to 7)\n"
			    "-2147483646..2147483647 -> 8 (children up to 11)\n");
}
END_TEST

START_TEST(format_truncates_like_snprintf)
{
	struct ppu_prio_map pm = map(10, 4, 100, 199, PPU_PRIO_SHARE_HIGHEST);
	/* "100 -> 0 (children up to 3)\n" is 28, "101..199 -> 4 (children up to 7)\n" 33 */
	const int full = 61;
	char buf[40];

	ck_assert_int_eq(ppu_prio_map_format(&pm, NULL, 0), full);

	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(ppu_prio_map_format(&pm, buf, 10), full);
	ck_assert_str_eq(buf, "100 -> 0 ");
	ck_assert_int_eq(buf[10], 'x');

	/* cut inside the second line */
	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(ppu_prio_map_format(&pm, buf, 32), full);
	ck_assert_str_eq(buf, "100 -> 0 (children up to 3)\n101");
	ck_assert_int_eq(buf[32], 'x');

	memset(buf, 'x', sizeof(buf));
	ck_assert_int_eq(ppu_prio_map_format(&pm, buf, 1), full);
	ck_assert_int_eq(buf[0], '\0');
	ck_assert_int_eq(buf[1], 'x');

	ck_assert_int_eq(ppu_prio_map_format(&pm, NULL, 1), -EINVAL);
}
END_TEST

Suite *suite_priority_map(void)
{
	Suite *s = suite_create("priority_map");
	TCase *tc = tcase_create("mapping");
	TCase *tl = tcase_create("launch");
	TCase *tf = tcase_create("format");

	tcase_add_test(tc, example1_m12_n4_three_levels);
	tcase_add_test(tc, example2_m12_n2_six_levels);
	tcase_add_test(tc, example4_m10_n4_main_shares_highest);
	tcase_add_test(tc, example4_m10_n4_alternative_shares_lowest);
	tcase_add_loop_test(tc, m64_levels_and_spacing, 0, sizeof(m64) / sizeof(m64[0]));
	tcase_add_test(tc, m64_n3_table);
	tcase_add_test(tc, range_smaller_than_levels);
	tcase_add_test(tc, single_stream_priority);
	tcase_add_test(tc, full_int_range);
	tcase_add_test(tc, init_rejects_invalid);
	tcase_add_test(tc, out_of_range_priorities_clamp);
	tcase_add_test(tc, default_priority_is_lowest);
	tcase_add_test(tc, null_map_queries);
	suite_add_tcase(s, tc);

	tcase_add_test(tl, example3_m12_n4_child_chain);
	tcase_add_test(tl, child_rejects_invalid);
	suite_add_tcase(s, tl);

	tcase_add_test(tf, format_tables);
	tcase_add_test(tf, format_truncates_like_snprintf);
	suite_add_tcase(s, tf);
	return s;
}
