// SPDX-License-Identifier: MIT
/*
 * The work queue's command sequences (include/ppu/ppu_workq.h) word by
 * word: the CPU-owned channel's launch (SEEDS §C: thread count, KERNEL
 * LAUNCH, WAIT FOR IDLE, SEM_RELEASE X, SEM_ACQUIRE Y), the park block, a
 * submission's trailing block and the closing block; generations and the
 * room test across the 32-bit wrap.
 */
#include <check.h>
#include <string.h>

#include "ppu/ppu_workq.h"

#define INC(n, m) ((1u << 29) | ((n) << 16) | ((m) >> 2))
#define SEM_HDR INC(5u, 0x10u)		/* SEM_ADDR_LO .. SEM_EXECUTE */

static const struct ppu_workq q = {
	.log2_entries = 4, .sems_va = 0x10000, .tails_va = 0x20000,
	.x_va = 0x30040, .y_va = 0x30048,
};
#define Q_VA 0x30000u

/* One semaphore operation at @at: VA, payload, SEM_EXECUTE. */
static void sem_op(const uint32_t *at, uint32_t va, uint32_t payload, uint32_t exec)
{
	ck_assert_uint_eq(at[0], SEM_HDR);
	ck_assert_uint_eq(at[1], va);
	ck_assert_uint_eq(at[2], 0);
	ck_assert_uint_eq(at[3], payload);
	ck_assert_uint_eq(at[4], 0);
	ck_assert_uint_eq(at[5], exec);
}

#define ACQ_EQ PPU_SEM_EXECUTE_OPERATION_ACQUIRE
#define ACQ_GEQ PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ
#define REL PPU_SEM_EXECUTE_OPERATION_RELEASE
/* IADD, unsigned */
#define IADD (PPU_SEM_EXECUTE_OPERATION_REDUCTION | (5u << 27) | (1u << 31))

START_TEST(launch_of_a_window)
{
	uint32_t buf[64];
	struct ppu_pb pb;

	memset(buf, 0xee, sizeof(buf));
	ppu_pb_init(&pb, buf, 64);
	ppu_workq_launch_cmds(&pb, &q, Q_VA, 0x50040, 96, 3);
	ck_assert(!pb.overflow);
	ck_assert_uint_eq(pb.len, PPU_WORKQ_LAUNCH_CMD_DWORDS);
	sem_op(buf, Q_VA + PPU_WORKQ_LIVE, 96, REL);		/* the window's threads */
	ck_assert_uint_eq(buf[6], INC(2u, 0x100u));		/* TMD_ADDR_LO/HI */
	ck_assert_uint_eq(buf[7], 0x50040);
	ck_assert_uint_eq(buf[8], 0);
	ck_assert_uint_eq(buf[9], INC(1u, 0x108u));		/* KERNEL LAUNCH */
	ck_assert_uint_eq(buf[10], 0);
	ck_assert_uint_eq(buf[11], INC(1u, 0x028u));		/* WAIT FOR IDLE */
	ck_assert_uint_eq(buf[12], 0);
	sem_op(buf + 13, q.x_va, 3, REL);			/* SEM_RELEASE X */
	sem_op(buf + 19, q.y_va, 3, ACQ_GEQ);			/* SEM_ACQUIRE Y */
	ck_assert_uint_eq(buf[25], 0xeeeeeeee);
	ppu_pb_init(&pb, buf, PPU_WORKQ_LAUNCH_CMD_DWORDS - 1);
	ppu_workq_launch_cmds(&pb, &q, Q_VA, 0x50040, 96, 3);
	ck_assert(pb.overflow);
}
END_TEST

START_TEST(park_trailing_and_closing_blocks)
{
	uint32_t buf[PPU_WORKQ_TAIL_DW];
	struct ppu_pb pb;

	/* park at entry 0 for the first window: X == 1, then sem[0] >= gen(0) = 1 */
	ppu_pb_init(&pb, buf, PPU_WORKQ_TAIL_DW);
	ppu_workq_park(&pb, &q, q.x_va, 1, 0);
	ck_assert_uint_eq(pb.len, 12);
	sem_op(buf, q.x_va, 1, ACQ_EQ);
	sem_op(buf + 6, q.sems_va, 1, ACQ_GEQ);

	/* 3 blocks ending at entry 37 (ring index 5, generation 37 / 16 + 1 = 3) */
	ppu_pb_init(&pb, buf, PPU_WORKQ_TAIL_DW);
	ppu_workq_tail(&pb, &q, Q_VA, 37, 3);
	ck_assert_uint_eq(pb.len, 12);
	sem_op(buf, Q_VA + PPU_WORKQ_SHADOW, 4, IADD);
	sem_op(buf + 6, q.sems_va + 4 * 5, 3, ACQ_GEQ);

	/* closing window 2 at entry 50: WFI, Y = 2, shadow + 1, park on X == 3 and sem[2] >= 4 */
	ppu_pb_init(&pb, buf, PPU_WORKQ_TAIL_DW);
	ppu_workq_close_block(&pb, &q, Q_VA, 50, 2);
	ck_assert(!pb.overflow);
	ck_assert_uint_eq(pb.len, 26);
	ck_assert_uint_eq(buf[0], INC(1u, 0x028u));
	ck_assert_uint_eq(buf[1], 0);
	sem_op(buf + 2, q.y_va, 2, REL);
	sem_op(buf + 8, Q_VA + PPU_WORKQ_SHADOW, 1, IADD);
	sem_op(buf + 14, q.x_va, 3, ACQ_EQ);
	sem_op(buf + 20, q.sems_va + 4 * 2, 4, ACQ_GEQ);
	ck_assert_uint_le(4 * pb.len, PPU_WORKQ_TAIL_BYTES);
}
END_TEST

START_TEST(generations_and_room_across_the_wrap)
{
	ck_assert_uint_eq(sizeof(struct ppu_workq), PPU_WORKQ_BYTES);
	ck_assert_uint_eq(ppu_workq_gen(0, 4), 1);
	ck_assert_uint_eq(ppu_workq_gen(15, 4), 1);
	ck_assert_uint_eq(ppu_workq_gen(16, 4), 2);
	ck_assert_uint_eq(ppu_workq_sem_va(&q, 0xfffffff3u), q.sems_va + 4 * 3);
	ck_assert_uint_eq(PPU_WORKQ_MAX_BLOCKS(4), 14);
	/* free-running counters: the test is signed, so it holds past 2^32 */
	ck_assert(ppu_workq_room(20, 20));
	ck_assert(ppu_workq_room(19, 20));
	ck_assert(!ppu_workq_room(21, 20));
	ck_assert(ppu_workq_room(0xfffffffeu, 3));
	ck_assert(ppu_workq_room(2, 3));
	ck_assert(!ppu_workq_room(4, 0xfffffffeu));
}
END_TEST

Suite *suite_workq(void)
{
	Suite *s = suite_create("workq");
	TCase *tc = tcase_create("workq");

	tcase_add_test(tc, launch_of_a_window);
	tcase_add_test(tc, park_trailing_and_closing_blocks);
	tcase_add_test(tc, generations_and_room_across_the_wrap);
	suite_add_tcase(s, tc);
	return s;
}
