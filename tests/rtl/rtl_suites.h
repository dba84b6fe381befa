/* SPDX-License-Identifier: MIT */
#ifndef RTL_SUITES_H
#define RTL_SUITES_H

#include <check.h>

/* Generous: a test simulates up to a few million cycles. */
#define RTL_TEST_TIMEOUT 600

Suite *suite_regs(void);
Suite *suite_gpfifo(void);
Suite *suite_methods(void);
Suite *suite_sem(void);
Suite *suite_copy(void);
Suite *suite_mmu(void);
Suite *suite_faults(void);
Suite *suite_sched(void);
Suite *suite_seeds_b(void);
Suite *suite_harness(void);
Suite *suite_compute(void);
Suite *suite_children(void);
Suite *suite_workq(void);
Suite *suite_compute_copy(void);
Suite *suite_inv(void);
Suite *suite_reset(void);
Suite *suite_compute_reset(void);
Suite *suite_random_pb(void);
Suite *suite_runlist(void);
Suite *suite_fpga(void);
Suite *suite_evring(void);
Suite *suite_cache(void);

#ifdef PPU_RTL_FPGA
/*
 * The FPGA model's binary (build/tests/rtl_tests-fpga, hw/fpga/fpga.mk):
 * the shell's own suite, then the suites whose traffic covers every
 * memory client through the AXI masters (host fetch, semaphores, copies
 * in every aperture pair, page walks, faults of every unit) at a fraction
 * of the whole list's time.
 */
static Suite *(*const rtl_suites[])(void) = {
	suite_fpga, suite_regs, suite_gpfifo, suite_methods, suite_sem, suite_copy,
	suite_mmu, suite_faults, suite_cache,
};
#else
static Suite *(*const rtl_suites[])(void) = {
	suite_regs, suite_gpfifo, suite_methods, suite_sem, suite_copy,
	suite_mmu, suite_faults, suite_sched, suite_seeds_b, suite_harness, suite_compute,
	suite_children, suite_workq, suite_compute_copy, suite_inv, suite_reset, suite_compute_reset, suite_random_pb,
	suite_runlist, suite_evring, suite_cache,
};
#endif

#endif
