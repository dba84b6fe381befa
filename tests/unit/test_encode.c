// SPDX-License-Identifier: MIT
/*
 * Encoders against words worked out by hand from the format tables in
 * docs/formats.md (not from the macros under test).
 */
#include <check.h>

#include "ppu/ppu_encode.h"

START_TEST(method_header_incrementing)
{
	/* OP=1 at 31:29, COUNT=5 at 28:16, ADDR=0x10>>2 at 11:0 */
	ck_assert_uint_eq(ppu_mthd(PPU_MTHD_OP_INC, 0x010, 5), 0x20050004u);
	/* NONINC (3), count 2, method 0x100 */
	ck_assert_uint_eq(ppu_mthd(PPU_MTHD_OP_NONINC, 0x100, 2), 0x60020040u);
	/* ONEINC (5), count 8191 (max), method 0x11c */
	ck_assert_uint_eq(ppu_mthd(PPU_MTHD_OP_ONEINC, 0x11c, 8191), 0xbfff0047u);
}
END_TEST

START_TEST(method_header_immediate)
{
	/* OP=4, data 0x1abc at 28:16, method 0x24 */
	ck_assert_uint_eq(ppu_mthd_immd(PPU_HOST_NON_STALL_INTR, 0x1abc), 0x9abc0009u);
	/* data wider than 13 bits is cut, never spills into OP */
	ck_assert_uint_eq(ppu_mthd_immd(PPU_HOST_NOP, 0xffff) >> 29, 4u);
}
END_TEST

START_TEST(gpfifo_entry)
{
	uint32_t e[2];

	ppu_gp_entry(e, 0x00123454, 100, 0);
	ck_assert_uint_eq(e[0], 0x00123454u);
	ck_assert_uint_eq(e[1], 100u << 10);
	ppu_gp_entry(e, 0x1000, 0, 1);
	ck_assert_uint_eq(e[1], 0x80000000u);
}
END_TEST

START_TEST(sem_execute_words)
{
	ck_assert_uint_eq(ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 1),
			  3u | (1u << 24));
	ck_assert_uint_eq(ppu_sem_release_op(0, 1, 1), 1u | (1u << 25) | (1u << 20));
	ck_assert_uint_eq(ppu_sem_reduction_op(PPU_SEM_EXECUTE_REDUCTION_DEC, 1),
			  6u | (7u << 27) | (1u << 31));
}
END_TEST

START_TEST(pushbuffer_copy_sequence)
{
	uint32_t buf[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 32);
	ppu_pb_copy(&pb, 0x1000, 0x2000, 4096, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, 0x3000, 7, 1);
	ck_assert_int_eq(pb.overflow, 0);
	ck_assert_uint_eq(pb.len, 11);
	ck_assert_uint_eq(buf[0], 0x20080040u);	/* INC, 8 words from 0x100 */
	ck_assert_uint_eq(buf[1], 0x1000u);
	ck_assert_uint_eq(buf[3], 0x2000u);
	ck_assert_uint_eq(buf[5], 4096u);
	ck_assert_uint_eq(buf[6], 0x3000u);
	ck_assert_uint_eq(buf[8], 7u);
	ck_assert_uint_eq(buf[9], 0x20010048u);	/* INC, 1 word at 0x120 */
	ck_assert_uint_eq(buf[10], 1u | (1u << 2));
}
END_TEST

/* On a compute channel the copy's headers carry subchannel COPY (4 at 15:13). */
START_TEST(pushbuffer_copy_on_the_copy_subchannel)
{
	uint32_t buf[32];
	struct ppu_pb pb;

	ck_assert_uint_eq(ppu_mthd_sub(PPU_MTHD_OP_INC, PPU_MTHD_SUBCH_COPY, 0x110, 1), 0x20018044u);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_copy_sub(&pb, PPU_MTHD_SUBCH_COPY, 0x1000, 0x2000, 5, PPU_LAUNCH_DMA_SEMAPHORE_NONE,
			0, 0, 0);
	ck_assert_int_eq(pb.overflow, 0);
	ck_assert_uint_eq(pb.len, 11);
	ck_assert_uint_eq(buf[0], 0x20088040u);
	ck_assert_uint_eq(buf[5], 5u);
	ck_assert_uint_eq(buf[9], 0x20018048u);
	ck_assert_uint_eq(buf[10], 0u);
}
END_TEST

START_TEST(pushbuffer_overflow_is_reported_not_written)
{
	uint32_t buf[8] = { 0 };
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 4);
	ppu_pb_sem_acquire(&pb, 0x1000, 1);	/* 6 words */
	ck_assert_int_eq(pb.overflow, 1);
	ck_assert_uint_eq(pb.len, 4);
	ck_assert_uint_eq(buf[4], 0u);
}
END_TEST

START_TEST(pte_and_instance)
{
	uint32_t inst[16], ent[2];
	struct ppu_inst_desc d = {
		.gpfifo_va = 0x100000, .log2_entries = 10, .userd_pa = 0x200000040ull,
		.userd_sys = 1, .pt_root_pa = 0x5000, .engine = PPU_ENGINE_TYPE_COPY,
		.timeslice = 1234,
	};

	/* leaf for PA 0x3_8765_4000 in sys: PPN<<10 | SYS | D A U R W V */
	ck_assert_uint_eq(ppu_pte_leaf(0x387654000ull, 1, PPU_PTE_PERM_R | PPU_PTE_PERM_W | PPU_PTE_PERM_U),
			  (0x387654u << 10) | 0x100u | 0xd7u);
	ck_assert_uint_eq(ppu_pte_table(0x7000, 0), (7u << 10) | 1u);
	ppu_inst_fill(inst, &d);
	ck_assert_uint_eq(inst[0], 0x100000u);
	ck_assert_uint_eq(inst[1], 10u);
	ck_assert_uint_eq(inst[2], 0x40u);
	ck_assert_uint_eq(inst[3], 0x80000002u);
	ck_assert_uint_eq(inst[4], 5u);
	ck_assert_uint_eq(inst[5], 1u);
	ck_assert_uint_eq(inst[7], 1234u);
	ppu_chan_entry(ent, 0x12340, 0, 1);
	ck_assert_uint_eq(ent[0], 0x12341u);
	ck_assert_uint_eq(ent[1], 0u);
}
END_TEST

Suite *suite_encode(void)
{
	Suite *s = suite_create("encode");
	TCase *tc = tcase_create("formats");

	tcase_add_test(tc, method_header_incrementing);
	tcase_add_test(tc, method_header_immediate);
	tcase_add_test(tc, gpfifo_entry);
	tcase_add_test(tc, sem_execute_words);
	tcase_add_test(tc, pushbuffer_copy_sequence);
	tcase_add_test(tc, pushbuffer_copy_on_the_copy_subchannel);
	tcase_add_test(tc, pushbuffer_overflow_is_reported_not_written);
	tcase_add_test(tc, pte_and_instance);
	suite_add_tcase(s, tc);
	return s;
}
