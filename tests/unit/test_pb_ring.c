// SPDX-License-Identifier: MIT
/*
 * Pushbuffer ring bookkeeping (runtime/pb_ring.c): a segment is handed out
 * only where no entry between GP_GET and GP_PUT has its methods, whatever
 * the entries' semaphores say.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pb_ring.h"

#define DW 1024u
#define ENTRIES 16u

static uint32_t start[ENTRIES];

/* Submits a segment of @len dwords the way the runtime does; returns its offset. */
static uint32_t submit(struct ppu_pb_ring *r, uint32_t *put, uint32_t get, uint32_t len)
{
	uint32_t at, avail;

	ck_assert(ppu_pb_ring_find(r, *put, get, len, &at, &avail));
	ck_assert_uint_ge(avail, len);
	ppu_pb_ring_push(r, *put, at, len);
	*put = (*put + 1) % ENTRIES;
	return at;
}

START_TEST(empty_ring_starts_at_zero)
{
	struct ppu_pb_ring r;
	uint32_t at = 99, avail = 0;

	ppu_pb_ring_init(&r, DW, ENTRIES, start);
	ck_assert(ppu_pb_ring_find(&r, 0, 0, DW, &at, &avail));
	ck_assert_uint_eq(at, 0);
	ck_assert_uint_eq(avail, DW);
	ck_assert(!ppu_pb_ring_find(&r, 0, 0, DW + 1, &at, &avail));
}
END_TEST

/*
 * The defect this module fixes: the entry's completion release is visible
 * but GP_GET has not moved (its trailing methods are not fetched yet), so
 * its dwords must not be handed out again.
 */
START_TEST(released_but_unconsumed_entry_keeps_its_dwords)
{
	struct ppu_pb_ring r;
	uint32_t put = 0, at, avail;

	ppu_pb_ring_init(&r, DW, ENTRIES, start);
	ck_assert_uint_eq(submit(&r, &put, 0, 100), 0);
	/* GP_GET still 0: the next segment goes after it, not to 0. */
	ck_assert(ppu_pb_ring_find(&r, put, 0, 100, &at, &avail));
	ck_assert_uint_eq(at, 100);
	ck_assert_uint_eq(avail, DW - 100);
	/* Once GP_GET has moved past it, the ring is empty again. */
	ck_assert(ppu_pb_ring_find(&r, put, 1, 100, &at, &avail));
	ck_assert_uint_eq(at, 0);
	ck_assert_uint_eq(avail, DW);
}
END_TEST

/*
 * Wrapping to the start of the ring stops strictly below the oldest
 * unconsumed segment, also when that segment is the one whose release was
 * last seen.
 */
START_TEST(wrap_stops_below_oldest_unconsumed)
{
	struct ppu_pb_ring r;
	uint32_t put = 0, get = 0, at, avail;

	ppu_pb_ring_init(&r, DW, ENTRIES, start);
	ck_assert_uint_eq(submit(&r, &put, get, 300), 0);
	ck_assert_uint_eq(submit(&r, &put, get, 300), 300);
	ck_assert_uint_eq(submit(&r, &put, get, 300), 600);
	get = 1;				/* [0, 300) consumed */
	/* 124 left at the end: 200 wraps and must end below 300. */
	ck_assert(ppu_pb_ring_find(&r, put, get, 200, &at, &avail));
	ck_assert_uint_eq(at, 0);
	ck_assert_uint_eq(avail, 299);
	ck_assert(!ppu_pb_ring_find(&r, put, get, 300, &at, &avail));
	ppu_pb_ring_push(&r, put, at, 200);
	put++;
	/* Between the wrapped head and the oldest unconsumed segment. */
	ck_assert(ppu_pb_ring_find(&r, put, get, 99, &at, &avail));
	ck_assert_uint_eq(at, 200);
	ck_assert_uint_eq(avail, 99);
	ck_assert(!ppu_pb_ring_find(&r, put, get, 100, &at, &avail));
	/* GP_GET moves on: the end of the ring is free again after 900. */
	get = 2;
	ck_assert(!ppu_pb_ring_find(&r, put, get, 400, &at, &avail));
	ck_assert(ppu_pb_ring_find(&r, put, get, 399, &at, &avail));
	ck_assert_uint_eq(at, 200);
	ck_assert_uint_eq(avail, 399);
}
END_TEST

START_TEST(full_gpfifo_waits)
{
	struct ppu_pb_ring r;
	uint32_t put = 0, at, avail, i;

	ppu_pb_ring_init(&r, DW, ENTRIES, start);
	for (i = 0; i < ENTRIES - 1; i++)
		submit(&r, &put, 0, 8);
	/* GP_PUT == GP_GET - 1: one more entry would read as empty. */
	ck_assert(!ppu_pb_ring_find(&r, put, 0, 8, &at, &avail));
	ck_assert(ppu_pb_ring_find(&r, put, 1, 8, &at, &avail));
	ck_assert_uint_eq(ppu_pb_ring_busy(&r, put, 1), ENTRIES - 2);
}
END_TEST

/*
 * Random submissions against a PPU that consumes entries at random times:
 * no segment handed out overlaps a segment between GP_GET and GP_PUT, and
 * the ring never refuses space that a model of the free dwords says is
 * there in one piece below the oldest unconsumed segment.
 */
START_TEST(random_never_overlaps_unconsumed)
{
	static uint8_t owner[DW];	/* 1 + GPFIFO index of the unconsumed owner, 0 free */
	uint32_t seg_at[ENTRIES], seg_len[ENTRIES];
	struct ppu_pb_ring r;
	uint32_t put = 0, get = 0, i, k, refused = 0, granted = 0;
	unsigned int seed = 12345;

	memset(owner, 0, sizeof(owner));
	ppu_pb_ring_init(&r, DW, ENTRIES, start);
	for (i = 0; i < 100000; i++) {
		uint32_t need = 1 + (uint32_t)rand_r(&seed) % 200, at, avail;

		if (rand_r(&seed) % 2 && get != put) {
			/* The PPU consumes the oldest entry: GP_GET moves. */
			for (k = 0; k < seg_len[get]; k++)
				owner[seg_at[get] + k] = 0;
			get = (get + 1) % ENTRIES;
			continue;
		}
		if (!ppu_pb_ring_find(&r, put, get, need, &at, &avail)) {
			refused++;
			/* Refused only with entries in flight. */
			ck_assert_uint_ne(put, get);
			continue;
		}
		granted++;
		ck_assert_uint_ge(avail, need);
		ck_assert_uint_le(at + avail, DW);
		for (k = 0; k < avail && !owner[at + k]; k++)
			;
		ck_assert_msg(k == avail, "step %u: dword %u of entry %u handed out", i, at + k,
			      owner[at + k] - 1);
		/* The runtime may use all of avail; it uses need here. */
		ppu_pb_ring_push(&r, put, at, need);
		seg_at[put] = at;
		seg_len[put] = need;
		for (k = 0; k < need; k++)
			owner[at + k] = (uint8_t)(put + 1);
		put = (put + 1) % ENTRIES;
	}
	ck_assert_uint_gt(granted, 25000);
	ck_assert_uint_gt(refused, 100);
}
END_TEST

Suite *suite_pb_ring(void)
{
	Suite *s = suite_create("pb_ring");
	TCase *tc = tcase_create("reclaim");

	tcase_add_test(tc, empty_ring_starts_at_zero);
	tcase_add_test(tc, released_but_unconsumed_entry_keeps_its_dwords);
	tcase_add_test(tc, wrap_stops_below_oldest_unconsumed);
	tcase_add_test(tc, full_gpfifo_waits);
	tcase_add_test(tc, random_never_overlaps_unconsumed);
	suite_add_tcase(s, tc);
	return s;
}
