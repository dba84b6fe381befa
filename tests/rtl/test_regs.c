// SPDX-License-Identifier: MIT
#include <check.h>

#include "rtl_env.h"
#include "rtl_suites.h"

START_TEST(id_version_and_capabilities)
{
	struct rtl_env *env = rtl_env_create(NULL);

	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_ID), PPU_ID_VALUE);
	ck_assert_uint_eq(PPU_FGET(PPU_VERSION_MAJOR, rtl_reg_read(env, PPU_REG_VERSION)),
			  PPU_VERSION_MAJOR);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_NUM_CHANNELS), 16);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_COPY_CHUNK_BYTES), 4096);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_MEM_DATA_BYTES), 8);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_TLB_ENTRIES), 16);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_COPY_MAX_READS), 256);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_PB_PREFETCH_BEATS), 16);
	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) &
		  PPU_FSET(PPU_CAP_FEATURES_COPY_ENGINE, 1));
	/* rtl_env's default: 64 MiB of local memory */
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_LOCAL_MEM_MIB), 64);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_LOCAL_MEM_MIB), env->mem_bytes[0] >> 20);
	rtl_env_destroy(env);
}
END_TEST

/* The local_mem_mib strap follows the harness configuration, across resets. */
START_TEST(local_mem_size_is_the_configured_one)
{
	struct ppu_sim_config c;
	struct rtl_env *env;
	struct ppu_sim *sim;
	uint32_t v = 1;

	ppu_sim_config_default(&c);
	c.local_mem_bytes = 32u << 20;
	env = rtl_env_create(&c);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_LOCAL_MEM_MIB), 32);
	ppu_sim_reset(env->sim);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_LOCAL_MEM_MIB), 32);
	rtl_env_destroy(env);

	/* the harness default, and no local memory at all */
	sim = ppu_sim_create(NULL);
	ck_assert_ptr_nonnull(sim);
	ck_assert_int_eq(ppu_sim_reg_read(sim, PPU_REG_CAP_LOCAL_MEM_MIB, &v), 0);
	ck_assert_uint_eq(v, 16);
	ppu_sim_destroy(sim);
	ppu_sim_config_default(&c);
	c.local_mem_bytes = 0;
	sim = ppu_sim_create(&c);
	ck_assert_ptr_nonnull(sim);
	ck_assert_int_eq(ppu_sim_reg_read(sim, PPU_REG_CAP_LOCAL_MEM_MIB, &v), 0);
	ck_assert_uint_eq(v, 0);
	ppu_sim_destroy(sim);
}
END_TEST

START_TEST(writable_registers_hold_values_and_commands_read_zero)
{
	struct rtl_env *env = rtl_env_create(NULL);

	rtl_reg_write(env, PPU_REG_SCHED_TIMESLICE, 777);
	rtl_reg_write(env, PPU_REG_SCHED_ACQ_RETRY, 55);
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_SCHED_TIMESLICE), 777);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_SCHED_ACQ_RETRY), 55);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_ENABLE), 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_DOORBELL), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CHAN_CTRL), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_MMU_CTRL), 0);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(cycle_counter_runs)
{
	struct rtl_env *env = rtl_env_create(NULL);
	uint32_t a = rtl_reg_read(env, PPU_REG_CYCLE_LO), b;

	ppu_sim_clock(env->sim, 1000);
	b = rtl_reg_read(env, PPU_REG_CYCLE_LO);
	ck_assert_uint_ge(b - a, 1000);
	ck_assert_uint_lt(b - a, 1100);
	rtl_env_destroy(env);
}
END_TEST

Suite *suite_regs(void)
{
	Suite *s = suite_create("regs");
	TCase *tc = tcase_create("regs");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, id_version_and_capabilities);
	tcase_add_test(tc, local_mem_size_is_the_configured_one);
	tcase_add_test(tc, writable_registers_hold_values_and_commands_read_zero);
	tcase_add_test(tc, cycle_counter_runs);
	suite_add_tcase(s, tc);
	return s;
}
