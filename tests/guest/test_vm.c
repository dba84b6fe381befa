/* SPDX-License-Identifier: MIT */
/*
 * GPU address spaces of ppu.ko (DRM_IOCTL_PPU_VM_BIND, VM_UNBIND), run
 * inside the co-simulation guest: binding at a given and at a
 * kernel-chosen address, the -EINVAL/-ENOSPC/-ENOENT contract, per-file
 * address spaces, and that closing a file with live bindings releases
 * every page (200 rounds, MemFree checked).
 *
 * Whether the PPU walks these tables is left to the channel tests: without
 * channels nothing can make it translate an address yet.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_work.h"

#define PG 4096ull

_Static_assert(sizeof(struct drm_ppu_vm_bind) == 32, "vm_bind size");
_Static_assert(offsetof(struct drm_ppu_vm_bind, flags) == 4, "flags offset");
_Static_assert(offsetof(struct drm_ppu_vm_bind, va) == 8, "va offset");
_Static_assert(offsetof(struct drm_ppu_vm_bind, bo_offset) == 16, "bo_offset offset");
_Static_assert(offsetof(struct drm_ppu_vm_bind, size) == 24, "size offset");
_Static_assert(sizeof(struct drm_ppu_vm_unbind) == 24, "vm_unbind size");
_Static_assert(offsetof(struct drm_ppu_vm_unbind, flags) == 16, "flags offset");
_Static_assert(offsetof(struct drm_ppu_vm_unbind, pad) == 20, "pad offset");
_Static_assert(DRM_IOCTL_PPU_VM_BIND == _IOWR('d', 0x43, struct drm_ppu_vm_bind),
	       "ioctl number");
_Static_assert(DRM_IOCTL_PPU_VM_UNBIND == _IOW('d', 0x44, struct drm_ppu_vm_unbind),
	       "ioctl number");

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

static uint32_t bo_new_fd(int fd, uint64_t size)
{
	struct drm_ppu_gem_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.size = size;
	ret = xioctl(fd, DRM_IOCTL_PPU_GEM_CREATE, &c);
	ck_assert_msg(ret == 0, "GEM_CREATE %s", strerror(-ret));
	return c.handle;
}

static uint32_t bo_new(uint64_t size)
{
	return bo_new_fd(ppu_fd, size);
}

static void bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close c;

	memset(&c, 0, sizeof(c));
	c.handle = handle;
	ck_assert_int_eq(xioctl(fd, DRM_IOCTL_GEM_CLOSE, &c), 0);
}

static int bind_fd(int fd, uint32_t handle, uint32_t flags, uint64_t *va,
		   uint64_t bo_offset, uint64_t size)
{
	struct drm_ppu_vm_bind b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.handle = handle;
	b.flags = flags;
	b.va = *va;
	b.bo_offset = bo_offset;
	b.size = size;
	ret = xioctl(fd, DRM_IOCTL_PPU_VM_BIND, &b);
	if (!ret)
		*va = b.va;
	return ret;
}

static int bind_at(uint32_t handle, uint64_t va, uint64_t bo_offset, uint64_t size)
{
	return bind_fd(ppu_fd, handle, 0, &va, bo_offset, size);
}

static int unbind_full(int fd, uint64_t va, uint64_t size, uint32_t flags, uint32_t pad)
{
	struct drm_ppu_vm_unbind u;

	memset(&u, 0, sizeof(u));
	u.va = va;
	u.size = size;
	u.flags = flags;
	u.pad = pad;
	return xioctl(fd, DRM_IOCTL_PPU_VM_UNBIND, &u);
}

static int unbind(uint64_t va, uint64_t size)
{
	return unbind_full(ppu_fd, va, size, 0, 0);
}

START_TEST(vm_bind_unbind_at_given_va)
{
	uint32_t bo = bo_new(4 * PG);

	ck_assert_int_eq(bind_at(bo, 0x200000, 0, 4 * PG), 0);
	/* Another range of the same BO, elsewhere (crossing a 4 MiB table). */
	ck_assert_int_eq(bind_at(bo, 0x3ff000, PG, 2 * PG), 0);
	/* The very first and very last user pages. */
	ck_assert_int_eq(bind_at(bo, DRM_PPU_VA_START, 3 * PG, PG), 0);
	ck_assert_int_eq(bind_at(bo, DRM_PPU_VA_END - PG, 0, PG), 0);
	ck_assert_int_eq(unbind(0x200000, 4 * PG), 0);
	ck_assert_int_eq(unbind(0x3ff000, 2 * PG), 0);
	ck_assert_int_eq(unbind(DRM_PPU_VA_START, PG), 0);
	ck_assert_int_eq(unbind(DRM_PPU_VA_END - PG, PG), 0);
	/* The range is free again. */
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, 4 * PG), 0);
	ck_assert_int_eq(unbind(0x200000, 4 * PG), 0);
	bo_close(ppu_fd, bo);
}
END_TEST

START_TEST(vm_bind_va_alloc_returns_free_aligned_ranges)
{
	uint32_t bo = bo_new(16 * PG);
	uint64_t va[8];
	int i, j;

	ck_assert_int_eq(bind_at(bo, 0x200000, 0, 16 * PG), 0);
	for (i = 0; i < 8; i++) {
		uint64_t size = (uint64_t)(i + 1) * PG;

		va[i] = 0;
		ck_assert_int_eq(bind_fd(ppu_fd, bo, DRM_PPU_VM_BIND_VA_ALLOC, &va[i], 0, size), 0);
		ck_assert_uint_eq(va[i] % PG, 0);
		ck_assert_uint_ge(va[i], DRM_PPU_VA_START);
		ck_assert_uint_le(va[i] + size, DRM_PPU_VA_END);
		/* Not over the fixed mapping, nor over each other. */
		ck_assert(va[i] + size <= 0x200000 || va[i] >= 0x200000 + 16 * PG);
		for (j = 0; j < i; j++)
			ck_assert(va[i] + size <= va[j] ||
				  va[i] >= va[j] + (uint64_t)(j + 1) * PG);
	}
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(unbind(va[i], (uint64_t)(i + 1) * PG), 0);
	ck_assert_int_eq(unbind(0x200000, 16 * PG), 0);
	bo_close(ppu_fd, bo);
}
END_TEST

START_TEST(vm_bind_overlap_fails_with_enospc)
{
	uint32_t bo = bo_new(4 * PG);

	ck_assert_int_eq(bind_at(bo, 0x400000, 0, 4 * PG), 0);
	ck_assert_int_eq(bind_at(bo, 0x400000, 0, 4 * PG), -ENOSPC);
	ck_assert_int_eq(bind_at(bo, 0x400000 - PG, 0, 2 * PG), -ENOSPC);
	ck_assert_int_eq(bind_at(bo, 0x400000 + 3 * PG, 0, 2 * PG), -ENOSPC);
	ck_assert_int_eq(bind_at(bo, 0x400000 + PG, 0, PG), -ENOSPC);
	ck_assert_int_eq(bind_at(bo, 0x400000 - PG, 0, 4 * PG), -ENOSPC);
	/* Neighbours are fine. */
	ck_assert_int_eq(bind_at(bo, 0x400000 - PG, 0, PG), 0);
	ck_assert_int_eq(bind_at(bo, 0x400000 + 4 * PG, 0, PG), 0);
	ck_assert_int_eq(unbind(0x400000 - PG, PG), 0);
	ck_assert_int_eq(unbind(0x400000 + 4 * PG, PG), 0);
	ck_assert_int_eq(unbind(0x400000, 4 * PG), 0);
	bo_close(ppu_fd, bo);
}
END_TEST

START_TEST(vm_bind_bad_ranges_fail_with_einval)
{
	uint32_t bo = bo_new(4 * PG);
	uint64_t va;

	/* Misaligned va, size, offset; empty. */
	ck_assert_int_eq(bind_at(bo, 0x200000 + 1, 0, PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 0x200800, 0, PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, PG + 1), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, 100), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 0x200000, 512, PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, 0), -EINVAL);
	/* Beyond the BO. */
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, 5 * PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 0x200000, PG, 4 * PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 0x200000, 4 * PG, PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 0x200000, UINT64_MAX - PG + 1, 2 * PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, UINT64_MAX - PG + 1), -EINVAL);
	/* Outside the user range, or wrapping. */
	ck_assert_int_eq(bind_at(bo, 0, 0, PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, DRM_PPU_VA_START - PG, 0, 2 * PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, DRM_PPU_VA_END - PG, 0, 2 * PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, DRM_PPU_VA_END, 0, PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, 1ull << 32, 0, PG), -EINVAL);
	ck_assert_int_eq(bind_at(bo, UINT64_MAX - PG + 1, 0, 2 * PG), -EINVAL);
	/* Flags: unknown bits; VA_ALLOC with a va. */
	va = 0x200000;
	ck_assert_int_eq(bind_fd(ppu_fd, bo, 2, &va, 0, PG), -EINVAL);
	ck_assert_int_eq(bind_fd(ppu_fd, bo, 0x80000000u, &va, 0, PG), -EINVAL);
	ck_assert_int_eq(bind_fd(ppu_fd, bo, DRM_PPU_VM_BIND_VA_ALLOC, &va, 0, PG), -EINVAL);
	/* Nothing of that left a mapping behind. */
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, 4 * PG), 0);
	ck_assert_int_eq(unbind(0x200000, 4 * PG), 0);
	bo_close(ppu_fd, bo);
}
END_TEST

START_TEST(vm_bind_unknown_handle_fails_with_enoent)
{
	uint32_t bo = bo_new(PG);

	ck_assert_int_eq(bind_at(0, 0x200000, 0, PG), -ENOENT);
	ck_assert_int_eq(bind_at(bo + 1000, 0x200000, 0, PG), -ENOENT);
	bo_close(ppu_fd, bo);
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, PG), -ENOENT);
}
END_TEST

START_TEST(vm_unbind_contract)
{
	uint32_t bo = bo_new(4 * PG);

	ck_assert_int_eq(unbind(0x200000, PG), -ENOENT);
	ck_assert_int_eq(unbind(0, PG), -ENOENT);
	ck_assert_int_eq(unbind(UINT64_MAX & ~(PG - 1), PG), -ENOENT);
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, 4 * PG), 0);
	/* Not the start of the mapping; not its size; flags and pad. */
	ck_assert_int_eq(unbind(0x200000 + PG, PG), -ENOENT);
	ck_assert_int_eq(unbind(0x200000, PG), -EINVAL);
	ck_assert_int_eq(unbind(0x200000, 8 * PG), -EINVAL);
	ck_assert_int_eq(unbind_full(ppu_fd, 0x200000, 4 * PG, 1, 0), -EINVAL);
	ck_assert_int_eq(unbind_full(ppu_fd, 0x200000, 4 * PG, 0, 1), -EINVAL);
	ck_assert_int_eq(unbind(0x200000, 4 * PG), 0);
	ck_assert_int_eq(unbind(0x200000, 4 * PG), -ENOENT);
	bo_close(ppu_fd, bo);
}
END_TEST

START_TEST(vm_mapping_outlives_the_handle)
{
	uint32_t bo = bo_new(2 * PG);
	struct drm_ppu_gem_mmap_offset m;
	uint32_t *p;

	memset(&m, 0, sizeof(m));
	m.handle = bo;
	ck_assert_int_eq(xioctl(ppu_fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &m), 0);
	p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, ppu_fd, (off_t)m.offset);
	ck_assert(p != MAP_FAILED);
	p[0] = 0x12345678;
	/* Binding pins the pages the CPU already wrote. */
	ck_assert_int_eq(bind_at(bo, 0x800000, 0, 2 * PG), 0);
	ck_assert_uint_eq(p[0], 0x12345678);
	p[1024] = 0x87654321;
	ck_assert_int_eq(munmap(p, 2 * PG), 0);
	bo_close(ppu_fd, bo);
	/* The mapping still holds the BO. */
	ck_assert_int_eq(bind_at(bo, 0x900000, 0, PG), -ENOENT);
	ck_assert_int_eq(unbind(0x800000, 2 * PG), 0);
}
END_TEST

START_TEST(vm_address_spaces_are_per_file)
{
	int fd2 = open(ppu_node, O_RDWR | O_CLOEXEC);
	uint32_t bo = bo_new(PG), bo2;
	uint64_t va = 0x200000;

	ck_assert_int_ge(fd2, 0);
	bo2 = bo_new_fd(fd2, PG);
	ck_assert_int_eq(bind_at(bo, 0x200000, 0, PG), 0);
	/* The same address is free in the other file's space ... */
	ck_assert_int_eq(bind_fd(fd2, bo2, 0, &va, 0, PG), 0);
	/* ... which cannot bind this file's handle (unless it is its own). */
	va = 0x300000;
	if (bo != bo2)
		ck_assert_int_eq(bind_fd(fd2, bo, 0, &va, 0, PG), -ENOENT);
	ck_assert_int_eq(unbind_full(fd2, 0x200000, PG, 0, 0), 0);
	ck_assert_int_eq(unbind_full(fd2, 0x200000, PG, 0, 0), -ENOENT);
	/* Ours is untouched. */
	ck_assert_int_eq(unbind(0x200000, PG), 0);
	ck_assert_int_eq(close(fd2), 0);
	bo_close(ppu_fd, bo);
}
END_TEST

static uint64_t mem_free_kib(void)
{
	char line[256];
	uint64_t kib = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %" SCNu64 " kB", &kib) == 1)
			break;
	fclose(f);
	ck_assert_uint_gt(kib, 0);
	return kib;
}

/* Open, create, bind (pinning pages and page tables), close: 200 times. */
static void bind_and_close(void)
{
	int fd = open(ppu_node, O_RDWR | O_CLOEXEC);
	const uint64_t size = 64 * PG;
	uint32_t bo;
	uint64_t va = 0;

	ck_assert_int_ge(fd, 0);
	bo = bo_new_fd(fd, size);
	ck_assert_int_eq(bind_fd(fd, bo, 0, &(uint64_t){ 0x10000000 }, 0, size), 0);
	ck_assert_int_eq(bind_fd(fd, bo, 0, &(uint64_t){ 0x80000000 }, 0, size), 0);
	ck_assert_int_eq(bind_fd(fd, bo, DRM_PPU_VM_BIND_VA_ALLOC, &va, 0, size), 0);
	/* Neither the handle nor the mappings are released before close. */
	ck_assert_int_eq(close(fd), 0);
}

START_TEST(vm_file_close_releases_everything)
{
	const int rounds = 200;
	/* Leaked, 200 rounds would lose 200 * (256 KiB + 4 tables) = 53 MiB. */
	const uint64_t margin_kib = 8192;
	uint64_t before, after;
	int i;

	bind_and_close();	/* warm up caches and slabs */
	before = mem_free_kib();
	for (i = 0; i < rounds; i++)
		bind_and_close();
	after = mem_free_kib();
	ck_assert_msg(after + margin_kib >= before,
		      "MemFree %" PRIu64 " kB before, %" PRIu64 " kB after %d rounds",
		      before, after, rounds);
}
END_TEST

/*
 * VM_UNBIND of a copy's destination while the copy runs returns only once
 * the PPU can no longer write the pages (the MMU invalidate handshake): the
 * BO's memory, read through the CPU mapping right after the ioctl, does not
 * change afterwards, although the copy goes on until it faults on the
 * unmapped range.  (Without the handshake, kilobytes landed after the
 * return: writes the copy engine had translated before the invalidate.  Had
 * that been the BO's last reference, they would have hit freed pages.)
 */
START_TEST(vm_unbind_returns_once_the_ppu_stopped_writing_the_pages)
{
	enum { LEN = 4 << 20 };
	struct ppu_tbo src, dst, pb;
	struct drm_ppu_chan_status st;
	struct ppu_tchan ch;
	struct ppu_pb b;
	uint8_t *snap = malloc(LEN);
	size_t i, written = 0;
	double end;

	ck_assert_ptr_nonnull(snap);
	ppu_tbo_new(ppu_fd, &src, LEN);
	ppu_tbo_new(ppu_fd, &dst, LEN);
	ppu_tbo_new(ppu_fd, &pb, PG);
	for (i = 0; i < LEN; i++)
		src.map[i] = (uint8_t)(i * 13 + (i >> 12) + 1);
	ppu_tchan_new(ppu_fd, &ch, 3);
	ppu_pb_init(&b, (uint32_t *)pb.map, 64);
	ppu_pb_copy(&b, src.va, dst.va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	ppu_tchan_submit(&ch, pb.va, b.len);
	/* under way: the first bytes have landed */
	end = ppu_now_s() + 30;
	while (!dst.map[64 << 10] && ppu_now_s() < end)
		usleep(200);
	ck_assert_msg(dst.map[64 << 10], "the copy did not start");

	ck_assert_int_eq(ppu_vm_unbind(ppu_fd, dst.va, LEN), 0);
	memcpy(snap, dst.map, LEN);

	end = ppu_now_s() + 30;
	do {
		ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), 0);
		usleep(1000);
	} while (st.state != DRM_PPU_CHAN_STATE_FAULTED && ppu_now_s() < end);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	usleep(100000);
	/* (one assertion per check: Check reports every assertion it passes) */
	for (i = 0; i < LEN && dst.map[i] == snap[i]; i++)
		;
	ck_assert_msg(i == LEN, "byte %zu written after VM_UNBIND returned", i);
	for (i = 0; i < LEN && (!snap[i] || snap[i] == src.map[i]); i++)
		written += snap[i] != 0;
	ck_assert_msg(i == LEN, "byte %zu is not the source's", i);
	printf("vm: %zu of %u bytes copied before the unbind\n", written, LEN);
	ck_assert_uint_lt(written, LEN);
	free(snap);
}
END_TEST

static Suite *vm_suite(void)
{
	Suite *s = suite_create("vm");
	TCase *tc = tcase_create("vm");

	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, vm_bind_unbind_at_given_va);
	tcase_add_test(tc, vm_bind_va_alloc_returns_free_aligned_ranges);
	tcase_add_test(tc, vm_bind_overlap_fails_with_enospc);
	tcase_add_test(tc, vm_bind_bad_ranges_fail_with_einval);
	tcase_add_test(tc, vm_bind_unknown_handle_fails_with_enoent);
	tcase_add_test(tc, vm_unbind_contract);
	tcase_add_test(tc, vm_mapping_outlives_the_handle);
	tcase_add_test(tc, vm_address_spaces_are_per_file);
	tcase_add_test(tc, vm_file_close_releases_everything);
	tcase_add_test(tc, vm_unbind_returns_once_the_ppu_stopped_writing_the_pages);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vm_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
