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
#include "ppu_guest_work.h"

static int gem_create(int fd, uint64_t size, uint32_t flags, uint32_t *handle)
{
	struct drm_ppu_gem_create c = { .size = size, .flags = flags };
	int ret = ppu_ioctl(fd, DRM_IOCTL_PPU_GEM_CREATE, &c);

	if (!ret && handle)
		*handle = c.handle;
	return ret;
}

static int pool_create(int fd, uint32_t count, uint32_t *id)
{
	struct drm_ppu_sem_pool_create c = { .count = count };
	int ret = ppu_ioctl(fd, DRM_IOCTL_PPU_SEM_POOL_CREATE, &c);

	if (!ret && id)
		*id = c.pool;
	return ret;
}

static int bind(int fd, uint32_t handle, uint64_t size, uint64_t *va)
{
	struct drm_ppu_vm_bind b = { .handle = handle, .flags = DRM_PPU_VM_BIND_VA_ALLOC,
				     .size = size };
	int ret = ppu_ioctl(fd, DRM_IOCTL_PPU_VM_BIND, &b);

	if (!ret && va)
		*va = b.va;
	return ret;
}

/*
 * One file gets three quarters of the user channels and then -EDQUOT; a
 * second file gets the rest (then -EBUSY: the device is full); the limit
 * follows the module parameter.
 */
START_TEST(one_file_leaves_channels_to_others)
{
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS);
	uint32_t q = n - n / 4, i;
	struct ppu_tbo ra, rb, rc;
	int a = ppu_client_open(), b = ppu_client_open(), c = ppu_client_open();

	ck_assert_uint_ge(n, 2);
	ppu_tbo_new(a, &ra, PPU_TPAGE);
	ppu_tbo_new(b, &rb, PPU_TPAGE);
	ppu_tbo_new(c, &rc, PPU_TPAGE);
	for (i = 0; i < q; i++)
		ck_assert_int_eq(ppu_chan_create_full(a, 0, 4, ra.va, 0, NULL), 0);
	ck_assert_int_eq(ppu_chan_create_full(a, 0, 4, ra.va, 0, NULL), -EDQUOT);
	for (i = q; i < n; i++)
		ck_assert_int_eq(ppu_chan_create_full(b, 0, 4, rb.va, 0, NULL), 0);
	ck_assert_int_eq(ppu_chan_create_full(b, 0, 4, rb.va, 0, NULL), -EBUSY);
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
	ck_assert_int_eq(gem_create(a, total / 2 + 4096, DRM_PPU_GEM_CREATE_LOCAL, NULL), -EDQUOT);
	ck_assert_int_eq(gem_create(a, total / 2, DRM_PPU_GEM_CREATE_LOCAL, &h), 0);
	ck_assert_int_eq(gem_create(a, 4096, DRM_PPU_GEM_CREATE_LOCAL, NULL), -EDQUOT);
	ck_assert_int_eq(gem_create(b, total / 4, DRM_PPU_GEM_CREATE_LOCAL, &h2), 0);
	ck_assert_int_eq(ppu_gem_close(a, h), 0);
	ck_assert_int_eq(gem_create(a, total / 4, DRM_PPU_GEM_CREATE_LOCAL, NULL), 0);
	close(a);
	close(b);
}
END_TEST

/* BOs and semaphore pools per file, with small limits set for the test. */
START_TEST(bos_and_pools_per_file_are_bounded)
{
	uint32_t h[8], p[3], i;
	int a = ppu_client_open(), b = ppu_client_open();

	ppu_module_param_set("max_bos_per_file", 8);
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(gem_create(a, 4096, i & 1 ? DRM_PPU_GEM_CREATE_LOCAL : 0, &h[i]), 0);
	ck_assert_int_eq(gem_create(a, 4096, 0, NULL), -EDQUOT);
	ck_assert_int_eq(gem_create(a, 4096, DRM_PPU_GEM_CREATE_LOCAL, NULL), -EDQUOT);
	ck_assert_int_eq(gem_create(b, 4096, 0, NULL), 0);
	ck_assert_int_eq(ppu_gem_close(a, h[3]), 0);
	ck_assert_int_eq(gem_create(a, 4096, 0, NULL), 0);
	ppu_module_param_set("max_bos_per_file", 16384);

	ppu_module_param_set("max_sem_pools_per_file", 3);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(pool_create(a, 16, &p[i]), 0);
	ck_assert_int_eq(pool_create(a, 16, NULL), -EDQUOT);
	ck_assert_int_eq(pool_create(b, 16, NULL), 0);
	ck_assert_int_eq(ppu_sem_pool_destroy(a, p[1], 0), 0);
	ck_assert_int_eq(pool_create(a, 16, NULL), 0);
	ck_assert_int_eq(pool_create(a, 16, NULL), -EDQUOT);
	ppu_module_param_set("max_sem_pools_per_file", 256);
	close(a);
	close(b);
}
END_TEST

/* VmPin of this process, in KiB. */
static long vm_pin_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void drop_cap_ipc_lock(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		_exit(10);
	data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective &= ~CAP_TO_MASK(CAP_IPC_LOCK);
	if (syscall(SYS_capset, &hdr, data))
		_exit(11);
}

/*
 * Without CAP_IPC_LOCK and with RLIMIT_MEMLOCK at 1 MiB: a 2 MiB system BO
 * cannot be bound (-ENOMEM), a 512 KiB one can and shows in VmPin until it
 * is freed, a semaphore pool of 1 MiB cannot be made.  Child exit codes
 * name the step that failed.
 */
START_TEST(pinned_pages_count_against_rlimit_memlock)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit rl = { 1 << 20, 1 << 20 };
		uint32_t big, small;
		uint64_t va;
		long pin0;
		int fd;

		if (setrlimit(RLIMIT_MEMLOCK, &rl))
			_exit(2);
		drop_cap_ipc_lock();
		fd = open(ppu_node, O_RDWR | O_CLOEXEC);
		pin0 = vm_pin_kib();
		if (fd < 0 || pin0 < 0)
			_exit(3);
		if (gem_create(fd, 2 << 20, 0, &big) || gem_create(fd, 512 << 10, 0, &small))
			_exit(4);
		if (bind(fd, big, 2 << 20, NULL) != -ENOMEM)
			_exit(5);
		if (vm_pin_kib() != pin0)
			_exit(6);
		if (bind(fd, small, 512 << 10, &va))
			_exit(7);
		if (vm_pin_kib() != pin0 + 512)
			_exit(8);
		if (pool_create(fd, DRM_PPU_SEM_POOL_MAX_COUNT, NULL) != -ENOMEM)
			_exit(9);
		if (ppu_vm_unbind(fd, va, 512 << 10) || ppu_gem_close(fd, small))
			_exit(12);
		if (vm_pin_kib() != pin0)
			_exit(13);
		/* (the failed pin left nothing charged: still over the limit alone) */
		if (bind(fd, big, 2 << 20, NULL) != -ENOMEM)
			_exit(14);
		close(fd);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
}
END_TEST

struct racer {
	int fd;
	uint32_t nchan;
	volatile int stop;
	unsigned long made, destroyed;
};

static void *destroyer(void *arg)
{
	struct racer *r = arg;
	uint32_t id = 0;

	while (!r->stop) {
		r->destroyed += !ppu_chan_destroy(r->fd, id % r->nchan, 0);
		r->destroyed += !ppu_sem_pool_destroy(r->fd, 1 + id % 64, 0);
		id++;
	}
	return NULL;
}

/*
 * One thread creates channels and pools while another destroys whatever
 * ids it guesses, on the same file: the creating ioctl must not touch an
 * object after publishing it (ids are predictable).  Everything ends
 * destroyed or closed, and the device still works.
 */
START_TEST(create_and_destroy_race_on_one_file)
{
	struct racer r = { .fd = ppu_client_open() };
	struct ppu_tbo ring;
	pthread_t t;
	int i, fd;

	r.nchan = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS);
	ppu_tbo_new(r.fd, &ring, PPU_TPAGE);
	ck_assert_int_eq(pthread_create(&t, NULL, destroyer, &r), 0);
	for (i = 0; i < 400; i++) {
		struct drm_ppu_chan_create c;

		r.made += !ppu_chan_create_full(r.fd, 0, 4, ring.va, 0, &c);
		r.made += !pool_create(r.fd, 4, NULL);
	}
	r.stop = 1;
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	printf("race: %lu made, %lu destroyed\n", r.made, r.destroyed);
	ck_assert_uint_gt(r.made, 100);
	ck_assert_uint_gt(r.destroyed, 10);
	ck_assert_int_eq(close(r.fd), 0);
	fd = ppu_client_open();
	ppu_tbo_new(fd, &ring, PPU_TPAGE);
	ck_assert_int_eq(ppu_chan_create_full(fd, 0, 4, ring.va, 0, NULL), 0);
	close(fd);
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
