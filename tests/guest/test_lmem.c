/* SPDX-License-Identifier: MIT */
/*
 * Device-local memory and channel priorities of ppu.ko, run inside the
 * co-simulation guest: local BOs (DRM_PPU_GEM_CREATE_LOCAL) are zeroed,
 * cannot be CPU-mapped, are bound like any BO and filled and read back by
 * copies across system and local memory (checked byte for byte at odd
 * offsets and sizes); the allocator runs out with -ENOSPC and gets
 * everything back; freed local memory is cleared before its next owner
 * sees it, and memory no address space ever reached is not cleared twice.  Channel priorities: the range, the flag, and CAP_SYS_NICE for
 * priorities above normal.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_claims.h"
#include "ppu_guest_work.h"

#define WAIT_S 30.0
#define MIB (1024u * 1024u)

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

START_TEST(lmem_bo_is_zeroed_unmappable_and_copies_both_ways)
{
	const uint32_t size = 256 * 1024;
	struct drm_ppu_gem_mmap_offset o = { 0 };
	struct ppu_tbo src, back, local, pb, sem;
	struct ppu_tchan ch;
	uint32_t i;

	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE), ppu_guest_local_mem_mib() * MIB);
	ppu_tbo_new(ppu_fd, &src, size);
	ppu_tbo_new(ppu_fd, &back, size);
	ppu_tbo_new(ppu_fd, &pb, PPU_TPAGE);
	ppu_tbo_new(ppu_fd, &sem, PPU_TPAGE);
	ppu_tbo_new_flags(ppu_fd, &local, size, DRM_PPU_GEM_CREATE_LOCAL);
	ck_assert_uint_eq(local.size, size);
	ppu_tchan_new(ppu_fd, &ch, 4);

	/* No CPU mapping of local memory. */
	o.handle = local.handle;
	ck_assert_int_eq(ppu_ioctl(ppu_fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &o), -EINVAL);

	/* Zeroed: read it back into a buffer full of 0xa5. */
	memset(back.map, 0xa5, size);
	ppu_tbo_copy_wait(&ch, &pb, &sem, local.va, back.va, size);
	for (i = 0; i < size; i++)
		ck_assert_msg(back.map[i] == 0, "local byte %u = %#x", i, back.map[i]);

	/* System -> local -> system at odd offsets and an odd length. */
	fill(src.map, size, 7);
	memset(back.map, 0, size);
	ppu_tbo_copy_wait(&ch, &pb, &sem, src.va + 3, local.va + 4097, size - 8193);
	ppu_tbo_copy_wait(&ch, &pb, &sem, local.va + 4097, back.va + 5, size - 8193);
	ck_assert_int_eq(memcmp(back.map + 5, src.map + 3, size - 8193), 0);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(back.map[i], 0);
	for (i = 5 + size - 8193; i < size; i++)
		ck_assert_uint_eq(back.map[i], 0);

	/* Local -> local, then out. */
	{
		struct ppu_tbo local2;

		ppu_tbo_new_flags(ppu_fd, &local2, 2 * size, DRM_PPU_GEM_CREATE_LOCAL);
		ppu_tbo_copy_wait(&ch, &pb, &sem, local.va + 4097, local2.va + size + 1, size - 8193);
		memset(back.map, 0, size);
		ppu_tbo_copy_wait(&ch, &pb, &sem, local2.va + size + 1, back.va, size - 8193);
		ck_assert_int_eq(memcmp(back.map, src.map + 3, size - 8193), 0);
	}
}
END_TEST

/* CLEARED_BYTES and CLEAN_BYTES of debugfs local_mem, in that order. */
static void lmem_clear_counts(uint64_t c[2])
{
	static char text[8192];

	ppu_debugfs_read("local_mem", text, sizeof(text));
	c[0] = ppu_debugfs_value(text, "CLEARED_BYTES");
	c[1] = ppu_debugfs_value(text, "CLEAN_BYTES");
}

/*
 * With all of local memory taken, a freed BO's range is the only place
 * for the next one of its size, so the clear counters say exactly which
 * pages were cleared: a range freed without ever being bound comes back
 * without a clear, a bound one is cleared again.
 */
START_TEST(lmem_runs_out_with_enospc_and_gets_everything_back)
{
	uint64_t total = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE), va;
	uint64_t c0[2], c1[2], c2[2], c3[2];
	uint32_t h[4], extra;
	int i;

	ck_assert_int_eq(ppu_gem_create(ppu_fd, total + 4096, DRM_PPU_GEM_CREATE_LOCAL, NULL),
			 -ENOSPC);
	ck_assert_int_eq(ppu_gem_create(ppu_fd, 4096, 2, NULL), -EINVAL);
	ck_assert_int_eq(ppu_gem_create(ppu_fd, 0, DRM_PPU_GEM_CREATE_LOCAL, NULL), -EINVAL);
	lmem_clear_counts(c0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(ppu_gem_create(ppu_fd, total / 4, DRM_PPU_GEM_CREATE_LOCAL, &h[i]), 0);
	lmem_clear_counts(c1);
	ck_assert_uint_eq(c1[0] - c0[0] + c1[1] - c0[1], total);
	ck_assert_int_eq(ppu_gem_create(ppu_fd, 4096, DRM_PPU_GEM_CREATE_LOCAL, NULL), -ENOSPC);
	ck_assert_int_eq(ppu_gem_close(ppu_fd, h[1]), 0);
	ck_assert_int_eq(ppu_gem_create(ppu_fd, total / 4 + 4096, DRM_PPU_GEM_CREATE_LOCAL, NULL),
			 -ENOSPC);
	/* h[1]'s range, never bound: still zero. */
	ck_assert_int_eq(ppu_gem_create(ppu_fd, total / 4, DRM_PPU_GEM_CREATE_LOCAL, &extra), 0);
	lmem_clear_counts(c2);
	ck_assert_uint_eq(c2[0], c1[0]);
	ck_assert_uint_eq(c2[1] - c1[1], total / 4);
	ck_assert_int_eq(ppu_gem_close(ppu_fd, extra), 0);
	/* h[2] bound (the PPU could have written it) and freed: dirty. */
	ck_assert_int_eq(ppu_vm_bind(ppu_fd, h[2], DRM_PPU_VM_BIND_VA_ALLOC, 0, 4096, &va), 0);
	ck_assert_int_eq(ppu_vm_unbind(ppu_fd, va, 4096), 0);
	ck_assert_int_eq(ppu_gem_close(ppu_fd, h[0]), 0);
	ck_assert_int_eq(ppu_gem_close(ppu_fd, h[2]), 0);
	ck_assert_int_eq(ppu_gem_close(ppu_fd, h[3]), 0);
	/* All of it again, in one piece: only h[2]'s range is cleared. */
	ck_assert_int_eq(ppu_gem_create(ppu_fd, total, DRM_PPU_GEM_CREATE_LOCAL, &extra), 0);
	lmem_clear_counts(c3);
	ck_assert_uint_eq(c3[0] - c2[0], total / 4);
	ck_assert_uint_eq(c3[1] - c2[1], total - total / 4);
	ck_assert_int_eq(ppu_gem_close(ppu_fd, extra), 0);
}
END_TEST

START_TEST(lmem_freed_memory_is_cleared_for_the_next_owner)
{
	ppu_claim_freed_lmem_is_cleared(ppu_fd, ppu_client_open());
}
END_TEST

/* The kernel's clears show up as copies of its own channel: none here. */
START_TEST(lmem_debugfs_reports_the_allocator)
{
	static char text[8192];

	ppu_debugfs_read("local_mem", text, sizeof(text));
	ck_assert_uint_eq(ppu_debugfs_value(text, "CAP_LOCAL_MEM_MIB"), ppu_guest_local_mem_mib());
	ck_assert_uint_eq(ppu_debugfs_value(text, "MANAGED_BYTES"), ppu_guest_local_mem_mib() * MIB);
	ppu_debugfs_read("channels", text, sizeof(text));
	ck_assert_msg(strstr(text, "kernel"), "no driver channel in:\n%s", text);
}
END_TEST

/* ---- priorities ---- */

START_TEST(chan_priority_range_and_default)
{
	static char text[8192];
	struct ppu_tbo ring;
	uint32_t chid, p;

	ppu_tbo_new(ppu_fd, &ring, PPU_TPAGE);
	for (p = DRM_PPU_CHAN_PRIORITY_MIN; p <= DRM_PPU_CHAN_PRIORITY_MAX; p += 21) {
		ck_assert_int_eq(ppu_chan_prio(ppu_fd, ring.va, DRM_PPU_CHAN_CREATE_PRIORITY, p,
					   &chid), 0);
		ck_assert_int_eq(ppu_chan_destroy(ppu_fd, chid, 0), 0);
	}
	ck_assert_int_eq(ppu_chan_prio(ppu_fd, ring.va, DRM_PPU_CHAN_CREATE_PRIORITY,
				   DRM_PPU_CHAN_PRIORITY_MAX, &chid), 0);
	ppu_debugfs_read("channels", text, sizeof(text));
	ck_assert_msg(strstr(text, "   63 "), "priority 63 not listed:\n%s", text);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, chid, 0), 0);
	/* Without the flag: normal. */
	ck_assert_int_eq(ppu_chan_prio(ppu_fd, ring.va, 0, 0, &chid), 0);
	ppu_debugfs_read("channels", text, sizeof(text));
	ck_assert_msg(strstr(text, "   32 "), "priority 32 not listed:\n%s", text);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, chid, 0), 0);
	ck_assert_int_eq(ppu_chan_prio(ppu_fd, ring.va, DRM_PPU_CHAN_CREATE_PRIORITY,
				   DRM_PPU_CHAN_PRIORITY_MAX + 1, &chid), -EINVAL);
}
END_TEST

/*
 * A child without CAP_SYS_NICE gets the answers of
 * ppu_claim_priority_above_normal_needs_cap_sys_nice(); root gets a
 * priority above normal.
 */
START_TEST(chan_priority_above_normal_needs_cap_sys_nice)
{
	struct ppu_tbo ring;
	uint32_t chid;
	pid_t pid;
	int status;

	ppu_tbo_new(ppu_fd, &ring, PPU_TPAGE);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		ppu_drop_effective_cap(CAP_SYS_NICE);
		ppu_claim_priority_above_normal_needs_cap_sys_nice(ppu_fd);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
	/* With it (root): above normal works. */
	ck_assert_int_eq(ppu_chan_prio(ppu_fd, ring.va, DRM_PPU_CHAN_CREATE_PRIORITY,
				       DRM_PPU_CHAN_PRIORITY_NORMAL + 1, &chid), 0);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, chid, 0), 0);
}
END_TEST

static Suite *lmem_suite(void)
{
	Suite *s = suite_create("lmem");
	TCase *tc = tcase_create("lmem");

	tcase_add_checked_fixture(tc, ppu_guest_setup_unlimited, ppu_guest_teardown_unlimited);
	tcase_add_unchecked_fixture(tc, NULL, ppu_module_params_reset);
	/*
	 * Running out and getting everything back clears all of local memory
	 * about three times through the simulated copy engine: some 90 s of
	 * the co-simulation on an idle two-core machine, twice that while
	 * other jobs share the cores.  Time is not what this test checks.
	 */
	tcase_set_timeout(tc, 3 * PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, lmem_bo_is_zeroed_unmappable_and_copies_both_ways);
	tcase_add_test(tc, lmem_runs_out_with_enospc_and_gets_everything_back);
	tcase_add_test(tc, lmem_freed_memory_is_cleared_for_the_next_owner);
	tcase_add_test(tc, lmem_debugfs_reports_the_allocator);
	tcase_add_test(tc, chan_priority_range_and_default);
	tcase_add_test(tc, chan_priority_above_normal_needs_cap_sys_nice);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lmem_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
