// SPDX-License-Identifier: MIT
/*
 * The timeline-recycled ring (runtime/tl_ring.c): ranges are handed out in
 * order, aligned and never across the end of the buffer, given back oldest
 * first however their work completes, and never overlap a range in use
 * (checked against a byte map on random traffic).
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tl_ring.h"

#define BYTES 1024u
#define ALIGN 64u

static struct ppu_tl_ring_tag tags[BYTES / ALIGN];
static const char chan_a, chan_b;

/* The "timelines" of two channels: values up to these have completed. */
static uint32_t done_a, done_b;

static int done(const void *owner, uint32_t seq)
{
	uint32_t upto = owner == &chan_a ? done_a : done_b;

	return (int32_t)(upto - seq) >= 0;
}

static uint64_t take(struct ppu_tl_ring *r, uint64_t len, const void *owner, uint32_t seq)
{
	uint64_t off = ~0ull;

	ck_assert_int_eq(ppu_tl_ring_alloc(r, len, owner, seq, &off), 0);
	ck_assert_uint_eq(off % ALIGN, 0);
	ck_assert_uint_le(off + ppu_tl_ring_round(r, len), BYTES);
	return off;
}

START_TEST(ranges_are_aligned_and_in_order)
{
	struct ppu_tl_ring r;

	ck_assert_uint_eq(ppu_tl_ring_tags_needed(BYTES, ALIGN), 16);
	ppu_tl_ring_init(&r, BYTES, ALIGN, tags);
	ck_assert_ptr_null(ppu_tl_ring_oldest(&r));
	ck_assert_uint_eq(take(&r, 1, &chan_a, 1), 0);
	ck_assert_uint_eq(take(&r, 64, &chan_a, 2), 64);
	ck_assert_uint_eq(take(&r, 65, &chan_b, 1), 128);
	ck_assert_uint_eq(take(&r, 100, &chan_a, 3), 256);
	ck_assert_uint_eq(ppu_tl_ring_used(&r), 384);
	ck_assert_ptr_eq(ppu_tl_ring_oldest(&r)->owner, &chan_a);
	ck_assert_uint_eq(ppu_tl_ring_oldest(&r)->seq, 1);
	ck_assert_uint_eq(ppu_tl_ring_round(&r, 0), 0);
	ck_assert_uint_eq(ppu_tl_ring_round(&r, 129), 192);
}
END_TEST

START_TEST(zero_and_oversized_ranges_are_refused)
{
	struct ppu_tl_ring r;
	uint64_t off;

	ppu_tl_ring_init(&r, BYTES, ALIGN, tags);
	ck_assert_int_eq(ppu_tl_ring_alloc(&r, 0, &chan_a, 1, &off), -EINVAL);
	ck_assert_int_eq(ppu_tl_ring_alloc(&r, BYTES + 1, &chan_a, 1, &off), -EINVAL);
	ck_assert_uint_eq(take(&r, BYTES, &chan_a, 1), 0);
	ck_assert_int_eq(ppu_tl_ring_alloc(&r, 1, &chan_a, 2, &off), -ENOSPC);
}
END_TEST

/* A full ring gives room only as the oldest ranges are given back. */
START_TEST(full_ring_waits_for_the_oldest)
{
	struct ppu_tl_ring r;
	uint64_t off;
	uint32_t i;

	ppu_tl_ring_init(&r, BYTES, ALIGN, tags);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(take(&r, 256, &chan_a, i + 1), 256 * i);
	ck_assert_int_eq(ppu_tl_ring_alloc(&r, 64, &chan_a, 5, &off), -ENOSPC);
	done_a = 0;
	ck_assert_uint_eq(ppu_tl_ring_reclaim(&r, done), 0);
	done_a = 2;
	ck_assert_uint_eq(ppu_tl_ring_reclaim(&r, done), 2);
	ck_assert_uint_eq(ppu_tl_ring_used(&r), 512);
	/* The freed space is at the start: the next range wraps there. */
	ck_assert_uint_eq(take(&r, 512, &chan_a, 5), 0);
	ck_assert_int_eq(ppu_tl_ring_alloc(&r, 64, &chan_a, 6, &off), -ENOSPC);
}
END_TEST

/*
 * Ranges are given back in order: a young range whose channel is done
 * stays taken behind an older one of a slower channel.
 */
START_TEST(reclaim_is_first_in_first_out)
{
	struct ppu_tl_ring r;

	ppu_tl_ring_init(&r, BYTES, ALIGN, tags);
	take(&r, 64, &chan_a, 10);
	take(&r, 64, &chan_b, 1);
	take(&r, 64, &chan_a, 11);
	done_a = 11;
	done_b = 0;
	ck_assert_uint_eq(ppu_tl_ring_reclaim(&r, done), 1);
	ck_assert_ptr_eq(ppu_tl_ring_oldest(&r)->owner, &chan_b);
	ck_assert_uint_eq(ppu_tl_ring_used(&r), 128);
	done_b = 1;
	ck_assert_uint_eq(ppu_tl_ring_reclaim(&r, done), 2);
	ck_assert_ptr_null(ppu_tl_ring_oldest(&r));
	/* Timeline values wrap like the semaphores: 0x7fffffff passes 0xfffffff0. */
	take(&r, 64, &chan_a, 0xfffffff0u);
	done_a = 0x10;
	ck_assert_uint_eq(ppu_tl_ring_reclaim(&r, done), 1);
}
END_TEST

/* A range that does not fit before the end starts at 0; the tail is padding. */
START_TEST(no_range_crosses_the_end)
{
	struct ppu_tl_ring r;
	uint64_t off;

	ppu_tl_ring_init(&r, BYTES, ALIGN, tags);
	take(&r, 640, &chan_a, 1);
	take(&r, 256, &chan_a, 2);
	ppu_tl_ring_free_oldest(&r);
	/* 128 bytes left at the end, 640 free at the start. */
	ck_assert_uint_eq(take(&r, 192, &chan_a, 3), 0);
	ck_assert_uint_eq(ppu_tl_ring_used(&r), 256 + 128 + 192);
	/* Free now: [192, 640) only; [640, 896) is in use, the end is padding. */
	ck_assert_int_eq(ppu_tl_ring_alloc(&r, 512, &chan_a, 4, &off), -ENOSPC);
	ck_assert_uint_eq(take(&r, 448, &chan_a, 4), 192);
	ck_assert_int_eq(ppu_tl_ring_alloc(&r, 64, &chan_a, 5, &off), -ENOSPC);
	/* The padding belongs to the range after it, so it stays taken. */
	ppu_tl_ring_free_oldest(&r);
	ck_assert_uint_eq(ppu_tl_ring_used(&r), 128 + 192 + 448);
	ck_assert_uint_eq(take(&r, 256, &chan_a, 5), 640);
	ck_assert_int_eq(ppu_tl_ring_alloc(&r, 64, &chan_a, 6, &off), -ENOSPC);
	/* With it the padding goes, and the end is used again. */
	ppu_tl_ring_free_oldest(&r);
	ck_assert_uint_eq(take(&r, 128, &chan_a, 6), 896);
}
END_TEST

/* An empty ring starts again at 0, so a whole-ring range needs no padding. */
START_TEST(empty_ring_starts_again_at_zero)
{
	struct ppu_tl_ring r;

	ppu_tl_ring_init(&r, BYTES, ALIGN, tags);
	take(&r, 320, &chan_a, 1);
	ppu_tl_ring_free_oldest(&r);
	ppu_tl_ring_free_oldest(&r);	/* nothing in use: no effect */
	ck_assert_uint_eq(take(&r, BYTES, &chan_a, 2), 0);
}
END_TEST

/* Random traffic against a map of the bytes in use. */
START_TEST(random_ranges_never_overlap)
{
	static uint16_t owner_of[BYTES];	/* 0 free, else the range's number */
	struct { uint64_t off, len; } live[BYTES / ALIGN];
	unsigned int first = 0, count = 0, n = 0, i;
	struct ppu_tl_ring r;

	srand(12345);
	memset(owner_of, 0, sizeof(owner_of));
	ppu_tl_ring_init(&r, BYTES, ALIGN, tags);
	for (i = 0; i < 20000; i++) {
		uint64_t len = 1 + (uint64_t)rand() % (BYTES / 3), off, b;
		int ret = ppu_tl_ring_alloc(&r, len, &chan_a, i, &off);

		if (ret == -ENOSPC || (count && rand() % 3 == 0)) {
			/* Give the oldest back. */
			ck_assert_uint_gt(count, 0);
			for (b = 0; b < live[first].len; b++)
				owner_of[live[first].off + b] = 0;
			ppu_tl_ring_free_oldest(&r);
			first = (first + 1) % (BYTES / ALIGN);
			count--;
			if (ret)
				continue;
		}
		ck_assert_int_eq(ret, 0);
		len = ppu_tl_ring_round(&r, len);
		ck_assert_uint_le(off + len, BYTES);
		n = n % 65535 + 1;
		/* (a check per byte would send Check a message per byte) */
		for (b = 0; b < len; b++) {
			if (owner_of[off + b])
				ck_abort_msg("byte %llu of range %u is also in range %u",
					     (unsigned long long)(off + b), n, owner_of[off + b]);
			owner_of[off + b] = (uint16_t)n;
		}
		live[(first + count) % (BYTES / ALIGN)].off = off;
		live[(first + count) % (BYTES / ALIGN)].len = len;
		count++;
		ck_assert_uint_le(ppu_tl_ring_used(&r), BYTES);
	}
}
END_TEST

Suite *suite_tl_ring(void)
{
	Suite *s = suite_create("tl_ring");
	TCase *tc = tcase_create("tl_ring");

	tcase_add_test(tc, ranges_are_aligned_and_in_order);
	tcase_add_test(tc, zero_and_oversized_ranges_are_refused);
	tcase_add_test(tc, full_ring_waits_for_the_oldest);
	tcase_add_test(tc, reclaim_is_first_in_first_out);
	tcase_add_test(tc, no_range_crosses_the_end);
	tcase_add_test(tc, empty_ring_starts_again_at_zero);
	tcase_add_test(tc, random_ranges_never_overlap);
	suite_add_tcase(s, tc);
	return s;
}
