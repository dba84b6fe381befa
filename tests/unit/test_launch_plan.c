// SPDX-License-Identifier: MIT
/*
 * launch_plan against numbers worked by hand from docs/compute-design.md
 * §2.2, and every shape rule; ppu_tmd_fill and ppu_pb_launch word by word.
 */
#include <check.h>
#include <string.h>

#include "launch_plan.h"
#include "ppu/ppu_encode.h"

static const struct ppu_launch_limits lim = { .num_cu = 4, .cu_contexts = 8,
					      .max_cta_threads = 1024 };

static struct ppu_launch_plan plan_of(uint32_t gx, uint32_t gy, uint32_t gz, uint32_t cx,
				      uint32_t cy, uint32_t cz, uint32_t stack)
{
	struct ppu_launch_shape s = { { gx, gy, gz }, { cx, cy, cz }, stack };
	struct ppu_launch_plan p;
	char err[128];

	ck_assert_msg(ppu_launch_plan(&lim, &s, &p, err, sizeof(err)) == 0, "%s", err);
	return p;
}

START_TEST(design_examples)
{
	struct ppu_launch_plan p;

	/* t = 8, 1 KiB stacks, 4 CTAs: k = 4, 0x280 + 4 * 8 * 1152 = 37.5 KiB. */
	p = plan_of(4, 1, 1, 8, 1, 1, 1024);
	ck_assert_uint_eq(p.threads, 8);
	ck_assert_uint_eq(p.ctas, 4);
	ck_assert_uint_eq(p.save_ctas, 4);
	ck_assert_uint_eq(p.stack_bytes, 1024);
	ck_assert_uint_eq(p.block_bytes, 0x280 + 4 * 8 * 1152);
	/* 1024-thread CTAs, 256 B stacks, a grid of 2: one per unit, k = 2. */
	p = plan_of(2, 1, 1, 32, 32, 1, 256);
	ck_assert_uint_eq(p.threads, 1024);
	ck_assert_uint_eq(p.save_ctas, 2);
	ck_assert_uint_eq(p.block_bytes, 0x280 + 2 * 1024 * 384);
}
END_TEST

START_TEST(save_slots_follow_what_can_be_resident)
{
	/* 2-thread CTAs: 4 per unit, 16 resident. */
	ck_assert_uint_eq(plan_of(100, 1, 1, 2, 1, 1, 0).save_ctas, 16);
	/* 1-thread CTAs: 32 resident, and never more than 32 slots. */
	ck_assert_uint_eq(plan_of(1000, 1, 1, 1, 1, 1, 0).save_ctas, 32);
	/* 3 threads: 2 per unit (8 / 3), 8 resident. */
	ck_assert_uint_eq(plan_of(9, 1, 1, 3, 1, 1, 0).save_ctas, 8);
	/* 9 threads (> 8 contexts): one per unit. */
	ck_assert_uint_eq(plan_of(9, 1, 1, 9, 1, 1, 0).save_ctas, 4);
	/* Never more than the grid. */
	ck_assert_uint_eq(plan_of(3, 1, 1, 1, 1, 1, 0).save_ctas, 3);
	ck_assert_uint_eq(plan_of(1, 1, 1, 1, 1, 1, 0).block_bytes, 0x280 + 128);
}
END_TEST

START_TEST(stacks_round_up_to_a_power_of_two)
{
	ck_assert_uint_eq(plan_of(1, 1, 1, 1, 1, 1, 0).stack_bytes, 0);
	ck_assert_uint_eq(plan_of(1, 1, 1, 1, 1, 1, 1).stack_bytes, 64);
	ck_assert_uint_eq(plan_of(1, 1, 1, 1, 1, 1, 64).stack_bytes, 64);
	ck_assert_uint_eq(plan_of(1, 1, 1, 1, 1, 1, 65).stack_bytes, 128);
	ck_assert_uint_eq(plan_of(1, 1, 1, 1, 1, 1, 65536).stack_bytes, 65536);
}
END_TEST

static void expect_fail(struct ppu_launch_limits l, struct ppu_launch_shape s, const char *msg)
{
	struct ppu_launch_plan p;
	char err[128] = "";

	ck_assert_int_eq(ppu_launch_plan(&l, &s, &p, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, msg), "\"%s\" lacks \"%s\"", err, msg);
}

START_TEST(bad_shapes_are_refused)
{
	struct ppu_launch_limits none = { 0, 8, 8 }, small = { 4, 8, 8 };

	expect_fail(none, (struct ppu_launch_shape){ { 1, 1, 1 }, { 1, 1, 1 }, 0 }, "no compute");
	expect_fail(lim, (struct ppu_launch_shape){ { 0, 1, 1 }, { 1, 1, 1 }, 0 }, "at least 1");
	expect_fail(lim, (struct ppu_launch_shape){ { 1, 1, 1 }, { 1, 0, 1 }, 0 }, "at least 1");
	expect_fail(lim, (struct ppu_launch_shape){ { 1, 65536, 1 }, { 1, 1, 1 }, 0 }, "at most");
	expect_fail(lim, (struct ppu_launch_shape){ { 1, 1, 65536 }, { 1, 1, 1 }, 0 }, "at most");
	expect_fail(lim, (struct ppu_launch_shape){ { 65536, 65535, 2 }, { 1, 1, 1 }, 0 }, "2^32");
	expect_fail(lim, (struct ppu_launch_shape){ { 1, 1, 1 }, { 1025, 1, 1 }, 0 }, "1024");
	expect_fail(lim, (struct ppu_launch_shape){ { 1, 1, 1 }, { 65536, 65536, 2 }, 0 }, "1024");
	expect_fail(small, (struct ppu_launch_shape){ { 1, 1, 1 }, { 3, 3, 1 }, 0 }, "device's 8");
	expect_fail(lim, (struct ppu_launch_shape){ { 1, 1, 1 }, { 1, 1, 1 }, 65537 }, "stack");
}
END_TEST

START_TEST(tmd_and_launch_words)
{
	struct ppu_tmd_desc d = {
		.entry_pc = 0x10000, .grid = { 3, 2, 1 }, .cta = { 8, 1, 1 }, .param = 0x20040,
		.prio = 40, .flags = PPU_FSET(PPU_TMD_FLAGS_SEM_RELEASE, 1) |
				     PPU_FSET(PPU_TMD_FLAGS_SEM_TIMESTAMP, 1),
		.sem_addr = 0x30000, .sem_payload = 7, .stack_bytes = 1024, .save_ctas = 4,
		.block_bytes = 37504, .block_va = 0x40000,
	};
	ppu_u32 tmd[16], buf[8];
	struct ppu_pb pb;

	ppu_tmd_fill(tmd, &d);
	ck_assert_uint_eq(tmd[0], 0x10000);
	ck_assert_uint_eq(tmd[1], 3);
	ck_assert_uint_eq(tmd[2], 2);
	ck_assert_uint_eq(tmd[3], 1);
	ck_assert_uint_eq(tmd[4], 8);
	ck_assert_uint_eq(tmd[7], 0x20040);
	ck_assert_uint_eq(tmd[8], 40);		/* PRIO in 5:0, DEPTH left 0 */
	ck_assert_uint_eq(tmd[9], 0x5);		/* SEM_RELEASE | SEM_TIMESTAMP */
	ck_assert_uint_eq(tmd[10], 0x30000);
	ck_assert_uint_eq(tmd[11], 7);
	ck_assert_uint_eq(tmd[12], 1024);
	ck_assert_uint_eq(tmd[13], 4);
	ck_assert_uint_eq(tmd[14], 37504);
	ck_assert_uint_eq(tmd[15], 0x40000);

	ppu_pb_init(&pb, buf, 8);
	ppu_pb_launch(&pb, 0x50040);
	ck_assert_uint_eq(pb.len, 5);
	/* INC header: op 1 << 29, count 2 << 16, method 0x100 >> 2. */
	ck_assert_uint_eq(buf[0], (1u << 29) | (2u << 16) | (0x100 >> 2));
	ck_assert_uint_eq(buf[1], 0x50040);
	ck_assert_uint_eq(buf[2], 0);
	ck_assert_uint_eq(buf[3], (1u << 29) | (1u << 16) | (0x108 >> 2));
	ck_assert_uint_eq(buf[4], 0);
}
END_TEST

Suite *suite_launch_plan(void)
{
	Suite *s = suite_create("launch_plan");
	TCase *tc = tcase_create("plan");

	tcase_add_test(tc, design_examples);
	tcase_add_test(tc, save_slots_follow_what_can_be_resident);
	tcase_add_test(tc, stacks_round_up_to_a_power_of_two);
	tcase_add_test(tc, bad_shapes_are_refused);
	tcase_add_test(tc, tmd_and_launch_words);
	suite_add_tcase(s, tc);
	return s;
}
