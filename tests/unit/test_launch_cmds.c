// SPDX-License-Identifier: MIT
/*
 * A host launch's TMD and commands (runtime/launch_cmds.c) word by word:
 * the completion release on the timeline with a timestamp, the I-cache
 * flag only when asked, the plan's block fields, and TMD_ADDR, LAUNCH, WFI.
 */
#include <check.h>
#include <string.h>

#include "launch_cmds.h"

START_TEST(slots_keep_the_parameters_aligned)
{
	ck_assert_uint_eq(PPU_LAUNCH_SLOT_PARAMS, 64);
	ck_assert_uint_eq(ppu_launch_slot_bytes(0), 64);
	ck_assert_uint_eq(ppu_launch_slot_bytes(1), 128);
	ck_assert_uint_eq(ppu_launch_slot_bytes(64), 128);
	ck_assert_uint_eq(ppu_launch_slot_bytes(65), 192);
	ck_assert_uint_eq(ppu_launch_slot_bytes(4096), 64 + 4096);
}
END_TEST

START_TEST(tmd_of_a_host_launch)
{
	static const struct ppu_launch_limits lim = { .num_cu = 2, .cu_contexts = 8,
						      .max_cta_threads = 16 };
	struct ppu_launch_shape shape = { { 5, 2, 1 }, { 4, 2, 1 }, 1000 };
	struct ppu_launch_desc d = {
		.entry_pc = 0x100040, .param_va = 0x200040, .prio = 12, .sem_va = 0x300010,
		.sem_payload = 77, .block_va = 0x400000,
	};
	struct ppu_launch_plan plan;
	uint32_t tmd[16];
	char err[128];

	ck_assert_msg(ppu_launch_plan(&lim, &shape, &plan, err, sizeof(err)) == 0, "%s", err);
	/* t = 8: one CTA per unit's 8 contexts, 2 resident, k = 2; stacks of 1 KiB. */
	ck_assert_uint_eq(plan.save_ctas, 2);
	memset(tmd, 0xa5, sizeof(tmd));
	ppu_launch_tmd(tmd, &shape, &plan, &d);
	ck_assert_uint_eq(tmd[PPU_TMD_ENTRY_PC / 4], 0x100040);
	ck_assert_uint_eq(tmd[PPU_TMD_GRID_X / 4], 5);
	ck_assert_uint_eq(tmd[PPU_TMD_GRID_Y / 4], 2);
	ck_assert_uint_eq(tmd[PPU_TMD_GRID_Z / 4], 1);
	ck_assert_uint_eq(tmd[PPU_TMD_CTA_X / 4], 4);
	ck_assert_uint_eq(tmd[PPU_TMD_CTA_Y / 4], 2);
	ck_assert_uint_eq(tmd[PPU_TMD_CTA_Z / 4], 1);
	ck_assert_uint_eq(tmd[PPU_TMD_PARAM_PTR / 4], 0x200040);
	ck_assert_uint_eq(tmd[PPU_TMD_PRIORITY / 4], 12);	/* DEPTH is the PPU's */
	ck_assert_uint_eq(tmd[PPU_TMD_FLAGS / 4], 0x5);		/* SEM_RELEASE | SEM_TIMESTAMP */
	ck_assert_uint_eq(tmd[PPU_TMD_SEM_ADDR / 4], 0x300010);
	ck_assert_uint_eq(tmd[PPU_TMD_SEM_PAYLOAD / 4], 77);
	ck_assert_uint_eq(tmd[PPU_TMD_STACK_BYTES / 4], 1024);
	ck_assert_uint_eq(tmd[PPU_TMD_SAVE_CTAS / 4], 2);
	ck_assert_uint_eq(tmd[PPU_TMD_BLOCK_BYTES / 4], 0x280 + 2 * 8 * (128 + 1024));
	ck_assert_uint_eq(tmd[PPU_TMD_BLOCK_VA / 4], 0x400000);

	d.icache_invalidate = 1;
	ppu_launch_tmd(tmd, &shape, &plan, &d);
	ck_assert_uint_eq(tmd[PPU_TMD_FLAGS / 4], 0x15);	/* and ICACHE_INVALIDATE */
	/* no completion release (a work-creating window's entry ends later) */
	d.sem_va = 0;
	d.sem_payload = 0;
	ppu_launch_tmd(tmd, &shape, &plan, &d);
	ck_assert_uint_eq(tmd[PPU_TMD_FLAGS / 4], 0x10);
	ck_assert_uint_eq(tmd[PPU_TMD_SEM_ADDR / 4], 0);
}
END_TEST

START_TEST(launch_commands)
{
	uint32_t buf[16];
	struct ppu_pb pb;

	memset(buf, 0, sizeof(buf));
	ppu_pb_init(&pb, buf, 16);
	ppu_launch_cmds(&pb, 0x50040);
	ck_assert(!pb.overflow);
	ck_assert_uint_eq(pb.len, PPU_LAUNCH_CMD_DWORDS);
	/* INC headers: op 1 << 29, count << 16, method >> 2. */
	ck_assert_uint_eq(buf[0], (1u << 29) | (2u << 16) | (0x100 >> 2));	/* TMD_ADDR_LO/HI */
	ck_assert_uint_eq(buf[1], 0x50040);
	ck_assert_uint_eq(buf[2], 0);
	ck_assert_uint_eq(buf[3], (1u << 29) | (1u << 16) | (0x108 >> 2));	/* LAUNCH */
	ck_assert_uint_eq(buf[4], 0);
	ck_assert_uint_eq(buf[5], (1u << 29) | (1u << 16) | (0x028 >> 2));	/* WFI */
	ck_assert_uint_eq(buf[6], 0);
	/* It does not fit one dword less. */
	ppu_pb_init(&pb, buf, PPU_LAUNCH_CMD_DWORDS - 1);
	ppu_launch_cmds(&pb, 0x50040);
	ck_assert(pb.overflow);
}
END_TEST

Suite *suite_launch_cmds(void)
{
	Suite *s = suite_create("launch_cmds");
	TCase *tc = tcase_create("launch_cmds");

	tcase_add_test(tc, slots_keep_the_parameters_aligned);
	tcase_add_test(tc, tmd_of_a_host_launch);
	tcase_add_test(tc, launch_commands);
	suite_add_tcase(s, tc);
	return s;
}
