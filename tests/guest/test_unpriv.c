// SPDX-License-Identifier: MIT
/*
 * Every claim of docs/security.md, checked with clients that have no
 * privilege at all: uid and gid 65534 (nobody) or 65533, no supplementary
 * groups, empty effective and permitted capability sets (checked with
 * capget; a child that still has one fails the test).  The render node is
 * made read-writable by every user first, as the fuzzer does, and its mode
 * put back at the end.
 *
 * The test process stays root: it sets the module parameters a scenario
 * needs (as an administrator would) and forks the unprivileged clients,
 * which run the same scenarios as the root tests (ppu_guest_claims.c) or,
 * where two users matter, hold their share in one process while another
 * user's process asks for the rest.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu_guest.h"
#include "ppu_guest_claims.h"
#include "ppu_guest_work.h"
#include "ppu_node.h"

#define UID_A PPU_UID_NOBODY
#define UID_B (PPU_UID_NOBODY - 1)

/* ---- a child that holds what it took while the test goes on ---- */

/*
 * The child reports a number up the pipe when it has taken its share and
 * waits for a byte down the other before it goes on (and exits: its files
 * close).
 */
struct hold {
	int up[2], down[2];
	uint64_t total;		/* the device's user channels or local memory */
	int keep;		/* 0: do not wait, just exit */
};

static void hold_init(struct hold *h, uint64_t total, int keep)
{
	memset(h, 0, sizeof(*h));
	ck_assert_int_eq(pipe(h->up), 0);
	ck_assert_int_eq(pipe(h->down), 0);
	h->total = total;
	h->keep = keep;
}

/* Starts @fn as @uid with @h; the test keeps only its ends of the pipes. */
static pid_t hold_start(struct hold *h, uid_t uid, void (*fn)(void *arg))
{
	pid_t pid = ppu_unpriv_start(uid, fn, h);

	/* (so that a child that died reads as end of file, not as a hang) */
	close(h->up[1]);
	close(h->down[0]);
	return pid;
}

/* In the child: reports @v, then waits for the test unless told not to. */
static void hold_report_and_wait(struct hold *h, uint64_t v)
{
	char c;

	ck_assert_int_eq(write(h->up[1], &v, sizeof(v)), sizeof(v));
	if (h->keep)
		ck_assert_int_eq(read(h->down[0], &c, 1), 1);
}

/* In the test: what the child reported (a dead child fails the test with its message). */
static uint64_t hold_read(struct hold *h)
{
	uint64_t v = 0;

	ck_assert_int_eq(read(h->up[0], &v, sizeof(v)), sizeof(v));
	return v;
}

static void hold_release(struct hold *h, pid_t pid)
{
	if (h->keep)
		ck_assert_int_eq(write(h->down[1], "g", 1), 1);
	ppu_unpriv_wait(pid);
	close(h->up[0]);
	close(h->down[1]);
}

/* The per-file share of the user channels (max_channels_per_file 0). */
static uint32_t chan_share(uint32_t n)
{
	return n - n / 4;
}

/* ---- the clients have no privilege ---- */

static void check_identity(void *arg)
{
	uid_t uid = *(uid_t *)arg;
	int fd;

	/* ppu_become_unprivileged() checked the ids and capabilities. */
	ck_assert_uint_eq(getuid(), uid);
	fd = ppu_client_open();
	ck_assert_uint_ge(ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS), 2);
	ck_assert_int_eq(close(fd), 0);
}

START_TEST(unpriv_clients_have_no_capabilities_and_reach_the_node)
{
	uid_t a = UID_A, b = UID_B;

	ppu_unpriv_run(UID_A, check_identity, &a);
	ppu_unpriv_run(UID_B, check_identity, &b);
}
END_TEST

/* ---- memory ---- */

/* A scenario of two files, both opened by the unprivileged child. */
struct two_files {
	void (*claim)(int fa, int fb);
};

static void run_two_files(void *arg)
{
	struct two_files *t = arg;
	int fa = ppu_client_open();

	t->claim(fa, ppu_client_open());
	ck_assert_int_eq(close(fa), 0);
}

START_TEST(unpriv_same_va_in_another_file_faults)
{
	struct two_files t = { ppu_claim_same_va_faults_in_other_file };

	ppu_unpriv_run(UID_A, run_two_files, &t);
}
END_TEST

START_TEST(unpriv_handles_ids_and_offsets_are_per_file)
{
	struct two_files t = { ppu_claim_ids_are_per_file };

	ppu_unpriv_run(UID_A, run_two_files, &t);
}
END_TEST

START_TEST(unpriv_freed_local_memory_is_cleared_for_the_next_owner)
{
	struct two_files t = { ppu_claim_freed_lmem_is_cleared };

	/* The scenario takes all of local memory to force the range's reuse. */
	ppu_module_param_set("lmem_mib_per_file", 1ul << 20);
	ppu_unpriv_run(UID_A, run_two_files, &t);
	ppu_module_params_reset();
}
END_TEST

START_TEST(unpriv_fault_in_one_file_spares_the_other)
{
	struct two_files t = { ppu_claim_fault_spares_other_file };

	ppu_unpriv_run(UID_A, run_two_files, &t);
}
END_TEST

/* ---- priorities ---- */

static void run_priorities(void *arg)
{
	(void)arg;
	ppu_claim_priority_above_normal_needs_cap_sys_nice(ppu_fd);
}

START_TEST(unpriv_priority_above_normal_is_eperm)
{
	ppu_unpriv_run(UID_A, run_priorities, NULL);
}
END_TEST

/* ---- resources one file may hold ---- */

/* One file takes its share of the channels (then -EDQUOT) and holds it. */
static void take_channel_share(void *arg)
{
	struct hold *h = arg;
	uint32_t q = chan_share((uint32_t)h->total);
	struct ppu_tbo ring;
	int fd = ppu_client_open();

	ppu_tbo_new(fd, &ring, PPU_TPAGE);
	ppu_chan_fill(fd, ring.va, q, -EDQUOT);
	hold_report_and_wait(h, q);
}

/* Another user's file gets every channel left, then -EBUSY (the device is full). */
static void take_channels_left(void *arg)
{
	struct hold *h = arg;
	uint32_t n = (uint32_t)h->total;
	struct ppu_tbo ring;
	int fd = ppu_client_open();

	ppu_tbo_new(fd, &ring, PPU_TPAGE);
	ppu_chan_fill(fd, ring.va, n - chan_share(n), -EBUSY);
}

START_TEST(unpriv_second_user_gets_a_channel_when_the_first_holds_its_share)
{
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS);
	struct hold h;
	pid_t a;

	ck_assert_uint_ge(n - chan_share(n), 1);
	hold_init(&h, n, 1);
	a = hold_start(&h, UID_A, take_channel_share);
	ck_assert_uint_eq(hold_read(&h), chan_share(n));
	ppu_unpriv_run(UID_B, take_channels_left, &h);
	hold_release(&h, a);
}
END_TEST

/*
 * One file: more than half of local memory is -EDQUOT, half is granted,
 * then not a page more; after the other user took a quarter, freeing the
 * half gives room for a quarter again.
 */
static void take_lmem_share(void *arg)
{
	struct hold *h = arg;
	uint32_t half;
	int fd = ppu_client_open();

	ck_assert_int_eq(ppu_gem_create(fd, h->total / 2 + PPU_TPAGE, DRM_PPU_GEM_CREATE_LOCAL,
					NULL), -EDQUOT);
	ck_assert_int_eq(ppu_gem_create(fd, h->total / 2, DRM_PPU_GEM_CREATE_LOCAL, &half), 0);
	ck_assert_int_eq(ppu_gem_create(fd, PPU_TPAGE, DRM_PPU_GEM_CREATE_LOCAL, NULL), -EDQUOT);
	hold_report_and_wait(h, h->total / 2);
	ck_assert_int_eq(ppu_gem_close(fd, half), 0);
	ck_assert_int_eq(ppu_gem_create(fd, h->total / 4, DRM_PPU_GEM_CREATE_LOCAL, NULL), 0);
}

static void take_lmem_quarter(void *arg)
{
	struct hold *h = arg;
	int fd = ppu_client_open();

	ck_assert_int_eq(ppu_gem_create(fd, h->total / 4, DRM_PPU_GEM_CREATE_LOCAL, NULL), 0);
	ck_assert_int_eq(close(fd), 0);
}

START_TEST(unpriv_second_user_gets_local_memory_when_the_first_holds_its_share)
{
	uint64_t total = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE);
	struct hold h;
	pid_t a;

	ck_assert_uint_ge(total, 1 << 20);
	hold_init(&h, total, 1);
	a = hold_start(&h, UID_A, take_lmem_share);
	ck_assert_uint_eq(hold_read(&h), total / 2);
	ppu_unpriv_run(UID_B, take_lmem_quarter, &h);
	hold_release(&h, a);
}
END_TEST

static void run_bos_and_pools(void *arg)
{
	(void)arg;
	ppu_claim_bos_and_pools_per_file_bounded(ppu_client_open(), ppu_client_open());
}

START_TEST(unpriv_bos_and_pools_per_file_are_bounded)
{
	ppu_module_param_set("max_bos_per_file", PPU_CLAIM_MAX_BOS);
	ppu_module_param_set("max_sem_pools_per_file", PPU_CLAIM_MAX_POOLS);
	ppu_unpriv_run(UID_A, run_bos_and_pools, NULL);
	ppu_module_params_reset();
}
END_TEST

static void run_fences(void *arg)
{
	(void)arg;
	ppu_claim_fences_per_file_bounded(ppu_fd);
}

START_TEST(unpriv_pending_fences_per_file_are_bounded)
{
	ppu_module_param_set("max_fences_per_file", PPU_CLAIM_MAX_FENCES);
	ppu_unpriv_run(UID_A, run_fences, NULL);
	ppu_module_params_reset();
}
END_TEST

static void run_pinned(void *arg)
{
	(void)arg;
	ppu_claim_pinned_pages_count_against_memlock();
}

/* The child has no CAP_IPC_LOCK: RLIMIT_MEMLOCK holds. */
START_TEST(unpriv_pinned_pages_count_against_rlimit_memlock)
{
	ppu_unpriv_run(UID_A, run_pinned, NULL);
}
END_TEST

static void run_race(void *arg)
{
	(void)arg;
	ppu_claim_create_destroy_race();
}

START_TEST(unpriv_create_and_destroy_race_on_one_file)
{
	ppu_unpriv_run(UID_A, run_race, NULL);
}
END_TEST

/* Unchecked fixtures (no assertions): the node open to all, default parameters. */
static void unpriv_setup(void)
{
	ppu_module_params_reset();
	ppu_node_open_to_all();
}

static void unpriv_teardown(void)
{
	ppu_node_restore_mode();
	ppu_module_params_reset();
}

static Suite *unpriv_suite(void)
{
	Suite *s = suite_create("unpriv");
	TCase *tc = tcase_create("claims");

	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	tcase_add_unchecked_fixture(tc, unpriv_setup, unpriv_teardown);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, unpriv_clients_have_no_capabilities_and_reach_the_node);
	tcase_add_test(tc, unpriv_same_va_in_another_file_faults);
	tcase_add_test(tc, unpriv_handles_ids_and_offsets_are_per_file);
	tcase_add_test(tc, unpriv_freed_local_memory_is_cleared_for_the_next_owner);
	tcase_add_test(tc, unpriv_fault_in_one_file_spares_the_other);
	tcase_add_test(tc, unpriv_priority_above_normal_is_eperm);
	tcase_add_test(tc, unpriv_second_user_gets_a_channel_when_the_first_holds_its_share);
	tcase_add_test(tc, unpriv_second_user_gets_local_memory_when_the_first_holds_its_share);
	tcase_add_test(tc, unpriv_bos_and_pools_per_file_are_bounded);
	tcase_add_test(tc, unpriv_pending_fences_per_file_are_bounded);
	tcase_add_test(tc, unpriv_pinned_pages_count_against_rlimit_memlock);
	tcase_add_test(tc, unpriv_create_and_destroy_race_on_one_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(unpriv_suite());
	int failed;

	/* The unprivileged children report through Check's forked runner. */
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
