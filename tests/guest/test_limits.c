// SPDX-License-Identifier: MIT
/*
 * Per-client limits of ppu.ko (docs/security.md): one open file cannot take
 * a shared resource whole.  Channels, local memory, BOs and semaphore pools
 * have per-file limits (-EDQUOT beyond them; module parameters root may
 * change at run time), so a second client still gets its share; system
 * pages pinned for the PPU count against the binding process's
 * RLIMIT_MEMLOCK (-ENOMEM beyond it, without CAP_IPC_LOCK), visible as
 * VmPin; and creating and destroying objects from racing threads of one
 * file neither crashes nor leaks.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu_guest.h"
#include "ppu_guest_claims.h"
#include "ppu_guest_work.h"

/*
 * One file gets three quarters of the user channels and then -EDQUOT; a
 * second file gets the rest (then -EBUSY: the device is full); the limit
 * follows the module parameter.
 */
START_TEST(one_file_leaves_channels_to_others)
{
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS);
	uint32_t q = n - n / 4;
	struct ppu_tbo ra, rb, rc;
	int a = ppu_client_open(), b = ppu_client_open(), c = ppu_client_open();

	ck_assert_uint_ge(n, 2);
	ppu_tbo_new(a, &ra, PPU_TPAGE);
	ppu_tbo_new(b, &rb, PPU_TPAGE);
	ppu_tbo_new(c, &rc, PPU_TPAGE);
	ppu_chan_fill(a, ra.va, q, -EDQUOT);
	ppu_chan_fill(b, rb.va, n - q, -EBUSY);
	/* (the ring's mapping holds the file open) */
	ck_assert_int_eq(munmap(ra.map, ra.size), 0);
	ck_assert_int_eq(close(a), 0);

	ppu_module_param_set("max_channels_per_file", 2);
	ck_assert_int_eq(ppu_chan_create_full(c, 0, 4, rc.va, 0, NULL), 0);
	ck_assert_int_eq(ppu_chan_create_full(c, 0, 4, rc.va, 0, NULL), 0);
	ck_assert_int_eq(ppu_chan_create_full(c, 0, 4, rc.va, 0, NULL), -EDQUOT);
	ppu_module_param_set("max_channels_per_file", 0);
	ck_assert_int_eq(ppu_chan_create_full(c, 0, 4, rc.va, 0, NULL), 0);
	close(b);
	close(c);
}
END_TEST

/*
 * One file's BOs may hold half of local memory; a second file still gets
 * a quarter; freeing gives the share back.
 */
START_TEST(one_file_leaves_local_memory_to_others)
{
	uint64_t total = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE);
	uint32_t h, h2;
	int a = ppu_client_open(), b = ppu_client_open();

	ck_assert_uint_ge(total, 1 << 20);
	ck_assert_int_eq(ppu_gem_create(a, total / 2 + 4096, DRM_PPU_GEM_CREATE_LOCAL, NULL), -EDQUOT);
	ck_assert_int_eq(ppu_gem_create(a, total / 2, DRM_PPU_GEM_CREATE_LOCAL, &h), 0);
	ck_assert_int_eq(ppu_gem_create(a, 4096, DRM_PPU_GEM_CREATE_LOCAL, NULL), -EDQUOT);
	ck_assert_int_eq(ppu_gem_create(b, total / 4, DRM_PPU_GEM_CREATE_LOCAL, &h2), 0);
	ck_assert_int_eq(ppu_gem_close(a, h), 0);
	ck_assert_int_eq(ppu_gem_create(a, total / 4, DRM_PPU_GEM_CREATE_LOCAL, NULL), 0);
	close(a);
	close(b);
}
END_TEST

/* BOs and semaphore pools per file, with small limits set for the test. */
START_TEST(bos_and_pools_per_file_are_bounded)
{
	ppu_module_param_set("max_bos_per_file", PPU_CLAIM_MAX_BOS);
	ppu_module_param_set("max_sem_pools_per_file", PPU_CLAIM_MAX_POOLS);
	ppu_claim_bos_and_pools_per_file_bounded(ppu_client_open(), ppu_client_open());
	ppu_module_param_set("max_bos_per_file", 16384);
	ppu_module_param_set("max_sem_pools_per_file", 256);
}
END_TEST

/*
 * Without CAP_IPC_LOCK (dropped from the effective set of a child) the
 * binds of ppu_claim_pinned_pages_count_against_memlock() fail over the
 * process's RLIMIT_MEMLOCK.
 */
START_TEST(pinned_pages_count_against_rlimit_memlock)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		ppu_drop_effective_cap(CAP_IPC_LOCK);
		ppu_claim_pinned_pages_count_against_memlock();
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
}
END_TEST

/* ppu_claim_create_destroy_race(), from a root process. */
START_TEST(create_and_destroy_race_on_one_file)
{
	ppu_claim_create_destroy_race();
}
END_TEST

static Suite *limits_suite(void)
{
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("limits");

	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	/* (a test that failed half-way leaves its parameters to the others) */
	tcase_add_unchecked_fixture(tc, ppu_module_params_reset, ppu_module_params_reset);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, one_file_leaves_channels_to_others);
	tcase_add_test(tc, one_file_leaves_local_memory_to_others);
	tcase_add_test(tc, bos_and_pools_per_file_are_bounded);
	tcase_add_test(tc, pinned_pages_count_against_rlimit_memlock);
	tcase_add_test(tc, create_and_destroy_race_on_one_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(limits_suite());
	int failed;

	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
