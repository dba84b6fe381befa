/* SPDX-License-Identifier: MIT */
/*
 * Buffer objects of ppu.ko (DRM_IOCTL_PPU_GEM_CREATE, GEM_MMAP_OFFSET),
 * run inside the co-simulation guest: create, map, write and read back;
 * the -EINVAL/-ENOENT contract for sizes, flags and handles; handles of
 * one open file are invisible to another.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu_guest.h"

/* The ABI: one layout for 32- and 64-bit userspace. */
_Static_assert(sizeof(struct drm_ppu_gem_create) == 16, "gem_create size");
_Static_assert(offsetof(struct drm_ppu_gem_create, flags) == 8, "flags offset");
_Static_assert(offsetof(struct drm_ppu_gem_create, handle) == 12, "handle offset");
_Static_assert(sizeof(struct drm_ppu_gem_mmap_offset) == 16, "mmap_offset size");
_Static_assert(offsetof(struct drm_ppu_gem_mmap_offset, offset) == 8, "offset offset");
_Static_assert(DRM_IOCTL_PPU_GEM_CREATE == _IOWR('d', 0x41, struct drm_ppu_gem_create),
	       "ioctl number");
_Static_assert(DRM_IOCTL_PPU_GEM_MMAP_OFFSET ==
	       _IOWR('d', 0x42, struct drm_ppu_gem_mmap_offset), "ioctl number");

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

/* 0 or -errno; *size is updated to the rounded size. */
static int gem_create(int fd, uint64_t *size, uint32_t flags, uint32_t *handle)
{
	struct drm_ppu_gem_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.size = *size;
	c.flags = flags;
	ret = xioctl(fd, DRM_IOCTL_PPU_GEM_CREATE, &c);
	if (!ret) {
		*size = c.size;
		*handle = c.handle;
	}
	return ret;
}

static int gem_mmap_offset(int fd, uint32_t handle, uint32_t flags, uint64_t *offset)
{
	struct drm_ppu_gem_mmap_offset m;
	int ret;

	memset(&m, 0, sizeof(m));
	m.handle = handle;
	m.flags = flags;
	ret = xioctl(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &m);
	if (!ret)
		*offset = m.offset;
	return ret;
}

static int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c;

	memset(&c, 0, sizeof(c));
	c.handle = handle;
	return xioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static uint32_t bo_new(uint64_t size)
{
	uint32_t handle = 0;
	int ret = gem_create(ppu_fd, &size, 0, &handle);

	ck_assert_msg(ret == 0, "GEM_CREATE %s", strerror(-ret));
	return handle;
}

static void *bo_map(int fd, uint32_t handle, size_t size)
{
	uint64_t offset = 0;
	void *p;

	ck_assert_int_eq(gem_mmap_offset(fd, handle, 0, &offset), 0);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
	ck_assert_msg(p != MAP_FAILED, "mmap: %s", strerror(errno));
	return p;
}

START_TEST(gem_create_rounds_up_to_pages)
{
	static const uint64_t sizes[][2] = {
		{ 1, 4096 }, { 4095, 4096 }, { 4096, 4096 }, { 4097, 8192 },
		{ 100000, 102400 }, { DRM_PPU_GEM_MAX_SIZE, DRM_PPU_GEM_MAX_SIZE },
	};
	uint32_t handles[6];
	size_t i;

	for (i = 0; i < 6; i++) {
		uint64_t size = sizes[i][0];

		ck_assert_int_eq(gem_create(ppu_fd, &size, 0, &handles[i]), 0);
		ck_assert_uint_eq(size, sizes[i][1]);
		ck_assert_uint_ne(handles[i], 0);
		if (i)
			ck_assert_uint_ne(handles[i], handles[i - 1]);
	}
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(gem_close(ppu_fd, handles[i]), 0);
}
END_TEST

START_TEST(gem_mmap_write_read)
{
	const size_t size = 3 * 4096;
	uint32_t handle = bo_new(size);
	uint32_t *p = bo_map(ppu_fd, handle, size), *q;
	size_t i, n = size / 4;

	/* New BOs are zero-filled. */
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(p[i], 0);
	for (i = 0; i < n; i++)
		p[i] = 0x9e3779b9u * (uint32_t)(i + 1);
	ck_assert_int_eq(munmap(p, size), 0);

	/* A second mapping sees the same pages. */
	q = bo_map(ppu_fd, handle, size);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(q[i], 0x9e3779b9u * (uint32_t)(i + 1));
	ck_assert_int_eq(munmap(q, size), 0);
	ck_assert_int_eq(gem_close(ppu_fd, handle), 0);
}
END_TEST

START_TEST(gem_mmap_offset_is_stable_per_bo)
{
	uint32_t a = bo_new(4096), b = bo_new(4096);
	uint64_t oa = 0, oa2 = 0, ob = 0;

	ck_assert_int_eq(gem_mmap_offset(ppu_fd, a, 0, &oa), 0);
	ck_assert_int_eq(gem_mmap_offset(ppu_fd, a, 0, &oa2), 0);
	ck_assert_int_eq(gem_mmap_offset(ppu_fd, b, 0, &ob), 0);
	ck_assert_uint_eq(oa, oa2);
	ck_assert_uint_ne(oa, ob);
	ck_assert_uint_eq(oa % 4096, 0);
	ck_assert_int_eq(gem_close(ppu_fd, a), 0);
	ck_assert_int_eq(gem_close(ppu_fd, b), 0);
}
END_TEST

START_TEST(gem_create_bad_size_fails_with_einval)
{
	static const uint64_t bad[] = {
		0, DRM_PPU_GEM_MAX_SIZE + 1, 1ull << 32, 1ull << 40, UINT64_MAX,
		UINT64_MAX - 4095,
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t size = bad[i];
		uint32_t handle = 0;

		ck_assert_int_eq(gem_create(ppu_fd, &size, 0, &handle), -EINVAL);
	}
}
END_TEST

START_TEST(gem_create_unknown_flags_fail_with_einval)
{
	uint32_t bit;

	for (bit = 0; bit < 32; bit++) {
		uint64_t size = 4096;
		uint32_t handle = 0;

		if (DRM_PPU_GEM_CREATE_FLAGS & (1u << bit))
			continue;
		ck_assert_int_eq(gem_create(ppu_fd, &size, 1u << bit, &handle), -EINVAL);
	}
}
END_TEST

START_TEST(gem_mmap_offset_bad_handle_or_flags)
{
	uint32_t handle = bo_new(4096);
	uint64_t off;

	ck_assert_int_eq(gem_mmap_offset(ppu_fd, 0, 0, &off), -ENOENT);
	ck_assert_int_eq(gem_mmap_offset(ppu_fd, handle + 1000, 0, &off), -ENOENT);
	ck_assert_int_eq(gem_mmap_offset(ppu_fd, handle, 1, &off), -EINVAL);
	ck_assert_int_eq(gem_mmap_offset(ppu_fd, handle, 0x80000000u, &off), -EINVAL);
	ck_assert_int_eq(gem_close(ppu_fd, handle), 0);
	/* A closed handle is gone. */
	ck_assert_int_eq(gem_mmap_offset(ppu_fd, handle, 0, &off), -ENOENT);
	ck_assert_int_eq(gem_close(ppu_fd, handle), -EINVAL);
}
END_TEST

START_TEST(gem_handles_are_private_to_the_file)
{
	uint32_t handle = bo_new(4096);
	uint64_t off = 0, off2;
	int fd2 = open(ppu_node, O_RDWR | O_CLOEXEC);
	void *p;

	ck_assert_int_ge(fd2, 0);
	ck_assert_int_eq(gem_mmap_offset(ppu_fd, handle, 0, &off), 0);
	/* The other file cannot name the BO ... */
	ck_assert_int_eq(gem_mmap_offset(fd2, handle, 0, &off2), -ENOENT);
	ck_assert_int_eq(gem_close(fd2, handle), -EINVAL);
	/* ... nor map it through the first file's offset. */
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, (off_t)off);
	ck_assert(p == MAP_FAILED);
	ck_assert_int_eq(close(fd2), 0);
	/* The owner still can. */
	p = bo_map(ppu_fd, handle, 4096);
	ck_assert_int_eq(munmap(p, 4096), 0);
	ck_assert_int_eq(gem_close(ppu_fd, handle), 0);
}
END_TEST

static Suite *gem_suite(void)
{
	Suite *s = suite_create("gem");
	TCase *tc = tcase_create("gem");

	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, gem_create_rounds_up_to_pages);
	tcase_add_test(tc, gem_mmap_write_read);
	tcase_add_test(tc, gem_mmap_offset_is_stable_per_bo);
	tcase_add_test(tc, gem_create_bad_size_fails_with_einval);
	tcase_add_test(tc, gem_create_unknown_flags_fail_with_einval);
	tcase_add_test(tc, gem_mmap_offset_bad_handle_or_flags);
	tcase_add_test(tc, gem_handles_are_private_to_the_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(gem_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
