// SPDX-License-Identifier: MIT
/* SEEDS §B worked example, exactly. */
#include <check.h>

#include "rtl_suites.h"
#include "seeds_b.h"

/* Runs the example with @o: it completes, the data is right, the copies end in order @want. */
static void run_expect_order(const struct seeds_b_opts *o, struct seeds_b_result *r,
			     const int *want)
{
	int i;

	ck_assert_int_eq(seeds_b_run(o, r), 0);
	ck_assert(r->data_ok);
	for (i = 0; i < SB_NCOPIES; i++)
		ck_assert_msg(r->order[i] == want[i], "completion %d: got %s, want %s", i,
			      seeds_b_names[r->order[i]], seeds_b_names[want[i]]);
}

static const int patent_order[SB_NCOPIES] = {
	SB_MLOW1, SB_MHIGH1, SB_MHIGH2, SB_MLOW2, SB_MLOW3,
};

START_TEST(seeds_b_high_copies_overtake_queued_low_copies)
{
	struct seeds_b_opts o = {
		.semaphores = 1, .copy_bytes = 16384,
		.low_timeslice = 1u << 20, .high_timeslice = 1u << 20,
	};
	struct seeds_b_result r;

	run_expect_order(&o, &r, patent_order);
}
END_TEST

START_TEST(seeds_b_order_holds_when_high_slice_expires_during_mhigh1)
{
	/* 16 KiB is ~2048 cycles on the engine: a 500-cycle slice expires
	 * in the middle of Mhigh1. */
	struct seeds_b_opts o = {
		.semaphores = 1, .copy_bytes = 16384,
		.low_timeslice = 500, .high_timeslice = 500,
	};
	struct seeds_b_result r;

	run_expect_order(&o, &r, patent_order);
	ck_assert(r.high_slice_expired_in_mhigh1);
	ck_assert(r.low_rechecked_after_mhigh1);
}
END_TEST

START_TEST(seeds_b_prior_art_interleaves_time_slices)
{
	static const int interleaved[SB_NCOPIES] = {
		SB_MLOW1, SB_MHIGH1, SB_MLOW2, SB_MHIGH2, SB_MLOW3,
	};
	struct seeds_b_opts o = {
		.semaphores = 0, .copy_bytes = 16384,
		.low_timeslice = 500, .high_timeslice = 500,
	};
	struct seeds_b_result r;

	run_expect_order(&o, &r, interleaved);
}
END_TEST

Suite *suite_seeds_b(void)
{
	Suite *s = suite_create("seeds_b");
	TCase *tc = tcase_create("worked_example");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, seeds_b_high_copies_overtake_queued_low_copies);
	tcase_add_test(tc, seeds_b_order_holds_when_high_slice_expires_during_mhigh1);
	tcase_add_test(tc, seeds_b_prior_art_interleaves_time_slices);
	suite_add_tcase(s, tc);
	return s;
}
