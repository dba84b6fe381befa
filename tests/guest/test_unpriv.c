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
 *
 * Per-user limits: one user who opens many files cannot take every
 * channel nor all of local memory (max_channels_per_user,
 * lmem_mib_per_user); another user still gets a share; closing the files
 * gives the share back, also after many open/close cycles.
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
/* More files than one user could need to take every channel on its own. */
#define MANY_FILES 8

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
	ppu_module_param_set("lmem_mib_per_user", 1ul << 20);
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

/* ---- per-user limits ---- */

/*
 * The line of @uid in debugfs "users" (read by the root test process):
 * 1 with its clients and local memory, 0 when the user has no entry.
 */
static int user_account(uid_t uid, unsigned int *clients, long long *lmem_bytes)
{
	static char buf[8192];
	const char *line = buf;
	unsigned int u, c;
	long long b;

	ppu_debugfs_read("users", buf, sizeof(buf));
	while (line && *line) {
		if (sscanf(line, "%u %u %lld", &u, &c, &b) == 3 && u == uid) {
			*clients = c;
			*lmem_bytes = b;
			return 1;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return 0;
}

/* No account of @uid is left: everything it was charged with came back. */
static void check_no_account(uid_t uid)
{
	unsigned int clients;
	long long bytes;

	ck_assert_msg(!user_account(uid, &clients, &bytes),
		      "uid %u still has an account: %u clients, %lld bytes of local memory",
		      (unsigned int)uid, clients, bytes);
}

/*
 * MANY_FILES files of one user, each asking for channels until refused:
 * together they get the per-user share (by default the per-file one), and
 * every file is refused with -EDQUOT, not -EBUSY (the device is not full).
 */
static void many_files_take_channels(void *arg)
{
	struct hold *h = arg;
	uint32_t n = (uint32_t)h->total, total = 0, got;
	struct ppu_tbo ring;
	int i, err;

	for (i = 0; i < MANY_FILES; i++) {
		int fd = ppu_client_open();

		ppu_tbo_new(fd, &ring, PPU_TPAGE);
		got = ppu_chan_take(fd, ring.va, n, &err);
		total += got;
		ck_assert_msg(err == -EDQUOT, "file %d of uid %u: CHAN_CREATE %s after %u channels "
			      "(%u in all of %u), want EDQUOT", i + 1, (unsigned int)getuid(),
			      strerror(-err), got, total, n);
	}
	ck_assert_uint_eq(total, chan_share(n));
	hold_report_and_wait(h, total);
}

START_TEST(unpriv_one_user_with_many_files_cannot_take_every_channel)
{
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS);
	struct hold h, again;
	pid_t a;

	hold_init(&h, n, 1);
	a = hold_start(&h, UID_A, many_files_take_channels);
	ck_assert_uint_eq(hold_read(&h), chan_share(n));
	/* Another user gets every channel left. */
	ppu_unpriv_run(UID_B, take_channels_left, &h);
	/* Closing the files gives the share back. */
	hold_release(&h, a);
	check_no_account(UID_A);
	hold_init(&again, n, 0);
	a = hold_start(&again, UID_A, many_files_take_channels);
	ck_assert_uint_eq(hold_read(&again), chan_share(n));
	hold_release(&again, a);
}
END_TEST

/*
 * MANY_FILES files of one user: the first gets half of local memory, every
 * other one not a page (-EDQUOT).
 */
static void many_files_take_lmem(void *arg)
{
	struct hold *h = arg;
	int i;

	ck_assert_int_eq(ppu_gem_create(ppu_client_open(), h->total / 2, DRM_PPU_GEM_CREATE_LOCAL,
					NULL), 0);
	for (i = 1; i < MANY_FILES; i++)
		ck_assert_int_eq(ppu_gem_create(ppu_client_open(), PPU_TPAGE,
						DRM_PPU_GEM_CREATE_LOCAL, NULL), -EDQUOT);
	hold_report_and_wait(h, h->total / 2);
}

/* Another user gets the other half, and then not a page more. */
static void take_lmem_other_half(void *arg)
{
	struct hold *h = arg;
	int fd = ppu_client_open();

	ck_assert_int_eq(ppu_gem_create(fd, h->total / 2, DRM_PPU_GEM_CREATE_LOCAL, NULL), 0);
	ck_assert_int_eq(ppu_gem_create(ppu_client_open(), PPU_TPAGE, DRM_PPU_GEM_CREATE_LOCAL,
					NULL), -EDQUOT);
}

START_TEST(unpriv_one_user_with_many_files_cannot_take_all_local_memory)
{
	uint64_t total = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE);
	struct hold h, again;
	unsigned int clients;
	long long bytes;
	pid_t a;

	ck_assert_uint_ge(total, 1 << 20);
	hold_init(&h, total, 1);
	a = hold_start(&h, UID_A, many_files_take_lmem);
	ck_assert_uint_eq(hold_read(&h), total / 2);
	/* (ppu_fd of the child, which GET_PARAM uses, is one more file) */
	ck_assert(user_account(UID_A, &clients, &bytes));
	ck_assert_uint_eq(clients, MANY_FILES + 1);
	ck_assert_int_eq(bytes, (long long)(total / 2));
	ppu_unpriv_run(UID_B, take_lmem_other_half, &h);
	hold_release(&h, a);
	check_no_account(UID_A);
	check_no_account(UID_B);
	hold_init(&again, total, 0);
	a = hold_start(&again, UID_A, many_files_take_lmem);
	ck_assert_uint_eq(hold_read(&again), total / 2);
	hold_release(&again, a);
}
END_TEST

#define CYCLES 20

/*
 * CYCLES times: a file takes the user's whole share of channels and a MiB
 * of local memory, and is closed.  Then the whole share of channels and
 * of local memory is there again: nothing stayed charged.
 */
static void open_close_cycles(void *arg)
{
	struct hold *h = arg;
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS);
	uint64_t total = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE);
	struct ppu_tbo ring;
	int i, fd;

	for (i = 0; i < CYCLES; i++) {
		fd = ppu_client_open();
		/* (a ring in local memory: no CPU mapping holds the file open) */
		ppu_tbo_new_flags(fd, &ring, PPU_TPAGE, DRM_PPU_GEM_CREATE_LOCAL);
		ppu_chan_fill(fd, ring.va, chan_share(n), -EDQUOT);
		ck_assert_int_eq(ppu_gem_create(fd, 1 << 20, DRM_PPU_GEM_CREATE_LOCAL, NULL), 0);
		ck_assert_int_eq(close(fd), 0);
	}
	fd = ppu_client_open();
	ppu_tbo_new_flags(fd, &ring, PPU_TPAGE, DRM_PPU_GEM_CREATE_LOCAL);
	ppu_chan_fill(fd, ring.va, chan_share(n), -EDQUOT);
	ck_assert_int_eq(ppu_gem_create(ppu_client_open(), total / 2 - PPU_TPAGE,
					DRM_PPU_GEM_CREATE_LOCAL, NULL), 0);
	ck_assert_int_eq(ppu_gem_create(ppu_client_open(), PPU_TPAGE, DRM_PPU_GEM_CREATE_LOCAL,
					NULL), -EDQUOT);
	hold_report_and_wait(h, CYCLES);
}

START_TEST(unpriv_closed_files_give_the_user_share_back)
{
	struct hold h;
	pid_t a;

	hold_init(&h, 0, 0);
	a = hold_start(&h, UID_A, open_close_cycles);
	ck_assert_uint_eq(hold_read(&h), CYCLES);
	hold_release(&h, a);
	check_no_account(UID_A);
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
	TCase *tu = tcase_create("per_user");

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

	tcase_add_checked_fixture(tu, ppu_guest_setup, ppu_guest_teardown);
	tcase_add_unchecked_fixture(tu, unpriv_setup, unpriv_teardown);
	tcase_set_timeout(tu, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tu, unpriv_one_user_with_many_files_cannot_take_every_channel);
	tcase_add_test(tu, unpriv_one_user_with_many_files_cannot_take_all_local_memory);
	tcase_add_test(tu, unpriv_closed_files_give_the_user_share_back);
	suite_add_tcase(s, tu);
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
