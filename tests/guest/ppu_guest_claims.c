// SPDX-License-Identifier: MIT
/*
 * The scenarios behind the claims of docs/security.md, shared by the root
 * tests (test_isolation, test_lmem, test_limits, test_sem) and by
 * test_unpriv, which runs them in processes without any privilege; see
 * ppu_guest_claims.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_claims.h"
#include "ppu_guest_work.h"

#define PG PPU_TPAGE
#define KIB 1024u
#define MIB (1024u * 1024u)
#define WAIT_S PPU_WAIT_S
#define SENTINEL 0xee
/* A fixed GPU address far above anything VA_ALLOC hands out to these tests. */
#define VA_A_SYS 0x80000000u

/* ---- memory: a fault in one file spares the other ---- */

struct waiter {
	int fd;
	uint32_t pool, index, value, chid;
	int ret;
	double done_s;
};

static void *waiter_run(void *arg)
{
	struct waiter *w = arg;

	w->ret = ppu_sem_wait_geq(w->fd, w->pool, w->index, w->value, w->chid, WAIT_S);
	w->done_s = ppu_now_s();
	return NULL;
}

void ppu_claim_fault_spares_other_file(int fa, int fb)
{
	const uint32_t blen = 2 * MIB, alen = 64 * KIB;
	uint64_t lmem = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE);
	struct ppu_tbo a_sys, a_loc, a_out, b_src, b_mid, b_dst, b_dst2;
	struct ppu_tchan a_ch, a_ch2, b_ch;
	struct drm_ppu_chan_status st;
	struct ppu_tpool a_pool, b_pool;
	struct ppu_tpb a_pb, b_pb;
	struct ppu_pb *b;
	struct waiter w;
	pthread_t thr;
	uint32_t b_sem_at_fault;
	double a_fault_s;
	int ret;

	/* Client A: a pattern in system memory and one in local memory. */
	ppu_tpb_new(fa, &a_pb, 4);
	ppu_tpool_new(fa, &a_pool, 16);
	ppu_tbo_new(fa, &a_sys, alen);
	ppu_fill_pattern(a_sys.map, alen, 1);
	ppu_tbo_new_flags(fa, &a_loc, alen, lmem ? DRM_PPU_GEM_CREATE_LOCAL : 0);
	ppu_tbo_new(fa, &a_out, alen);
	memset(a_out.map, SENTINEL, alen);
	ppu_tchan_new(fa, &a_ch, 4);
	ppu_tcopy_ok(&a_ch, &a_pb, &a_pool, 0, 1, a_sys.va, a_loc.va, alen);

	/* Client B: 2 MiB system -> local -> system, then a release and an interrupt. */
	ppu_tpb_new(fb, &b_pb, 4);
	ppu_tpool_new(fb, &b_pool, 16);
	ppu_tbo_new(fb, &b_src, blen);
	ppu_fill_pattern(b_src.map, blen, 2);
	ppu_tbo_new_flags(fb, &b_mid, blen, lmem ? DRM_PPU_GEM_CREATE_LOCAL : 0);
	ppu_tbo_new(fb, &b_dst, blen);
	memset(b_dst.map, SENTINEL, blen);
	ppu_tbo_new(fb, &b_dst2, blen);
	memset(b_dst2.map, SENTINEL, blen);
	ppu_tchan_new(fb, &b_ch, 4);
	ck_assert_uint_ne(a_ch.chid, b_ch.chid);

	b = ppu_tpb_begin(&b_pb);
	ppu_tcopy(b, b_src.va, b_mid.va, blen);
	ppu_tcopy(b, b_mid.va, b_dst.va, blen);
	ppu_tsignal(b, &b_pool, 0, 1);
	ppu_tpb_submit(&b_pb, &b_ch);
	/* B sleeps in SEM_WAIT while A's fault interrupt arrives. */
	memset(&w, 0, sizeof(w));
	w.fd = fb;
	w.pool = b_pool.id;
	w.index = 0;
	w.value = 1;
	w.chid = b_ch.chid;
	ck_assert_int_eq(pthread_create(&thr, NULL, waiter_run, &w), 0);

	/* A: an illegal method (a host fault, no engine needed), then a release. */
	b = ppu_tpb_begin(&a_pb);
	ppu_pb_method(b, 0x0fc, 0xdead);
	ppu_tsignal(b, &a_pool, 1, 7);
	ppu_tpb_submit(&a_pb, &a_ch);
	ret = ppu_sem_wait_geq(fa, a_pool.id, 1, 7, a_ch.chid, WAIT_S);
	a_fault_s = ppu_now_s();
	b_sem_at_fault = *ppu_tpool_sem(&b_pool, 0);
	ck_assert_msg(ret == -EIO, "A's SEM_WAIT on its faulting channel: %s, want EIO",
		      strerror(-ret));
	/* Dead: waits fail at once, doorbells too. */
	ck_assert_int_eq(ppu_sem_wait_geq(fa, a_pool.id, 1, 7, a_ch.chid, 0), -EIO);
	ck_assert_int_eq(ppu_sem_wait_geq(fa, a_pool.id, 1, 7, a_ch.chid, WAIT_S), -EIO);
	ck_assert_int_eq(ppu_doorbell(fa, a_ch.chid, 0), -EIO);
	ck_assert_int_eq(ppu_chan_status(fa, a_ch.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	ck_assert_uint_eq(DRM_PPU_FAULT_INFO_KIND(st.fault_info), DRM_PPU_FAULT_ILLEGAL_METHOD);
	ck_assert_uint_eq(st.fault_addr, 0x0fc);
	ck_assert_uint_eq(st.fault_data, 0xdead);
	ck_assert_uint_eq(*ppu_tpool_sem(&a_pool, 1), 0);

	/* B's copy was still running when A faulted, and completes intact. */
	ck_assert_int_eq(pthread_join(thr, NULL), 0);
	ck_assert_msg(w.ret == 0, "B's SEM_WAIT: %s", strerror(-w.ret));
	ck_assert_msg(b_sem_at_fault == 0 && w.done_s > a_fault_s,
		      "B's copy ended before A's fault was seen: the test did not overlap them");
	ck_assert_uint_eq(*ppu_tpool_sem(&b_pool, 0), 1);
	ppu_check_pattern(b_dst.map, blen, 2, "B dst");
	ck_assert_int_eq(ppu_chan_status(fb, b_ch.chid, 0, &st), 0);
	ck_assert_uint_ne(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	ck_assert_uint_eq(st.fault_info, 0);

	/* B's channel keeps working. */
	ppu_tcopy_ok(&b_ch, &b_pb, &b_pool, 2, 1, b_mid.va, b_dst2.va, blen);
	ppu_check_pattern(b_dst2.map, blen, 2, "B dst2");

	/* A's other BOs are unharmed: a new channel of A reads them back. */
	ppu_check_pattern(a_sys.map, alen, 1, "A sys");
	ppu_tchan_new(fa, &a_ch2, 4);
	ppu_tcopy_ok(&a_ch2, &a_pb, &a_pool, 2, 1, a_loc.va, a_out.va, alen);
	ppu_check_pattern(a_out.map, alen, 1, "A local");
	ck_assert_int_eq(ppu_chan_status(fa, a_ch.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	ck_assert_int_eq(close(fb), 0);
}

/* ---- memory: handles, ids and offsets are per file ---- */

void ppu_claim_ids_are_per_file(int fa, int fb)
{
	struct ppu_tbo a_bo[5], a_ring, b_bo[2], b_ring;
	struct ppu_tpool a_pool[3], b_pool;
	struct drm_ppu_chan_create a_cc, b_cc;
	struct drm_ppu_chan_status st;
	struct ppu_tpb a_pb;
	struct ppu_tchan a_ch;
	uint64_t off;
	uint32_t i, j;
	void *m;

	/*
	 * A's handles 1..5 (1 is three pages), B's handles 1..2 (one page): A's
	 * 3..5 are numbers B does not have; 1 is a number both have.
	 */
	ppu_tbo_new(fa, &a_bo[0], 3 * PG);
	for (i = 1; i < 5; i++)
		ppu_tbo_new(fa, &a_bo[i], PG);
	for (i = 0; i < 2; i++)
		ppu_tbo_new(fb, &b_bo[i], PG);
	for (i = 0; i < 5; i++)
		a_bo[i].map[0] = (uint8_t)(0x40 + i);
	for (i = 2; i < 5; i++) {
		uint32_t h = a_bo[i].handle;
		struct drm_ppu_gem_mmap_offset o = { .handle = h };

		for (j = 0; j < 2; j++)
			ck_assert_uint_ne(h, b_bo[j].handle);
		ck_assert_int_eq(ppu_vm_bind(fb, h, DRM_PPU_VM_BIND_VA_ALLOC, 0, PG, NULL), -ENOENT);
		ck_assert_int_eq(ppu_ioctl(fb, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &o), -ENOENT);
		ck_assert_int_ne(ppu_gem_close(fb, h), 0);
	}
	/* The shared number 1 is B's own one-page BO in B. */
	ck_assert_uint_eq(a_bo[0].handle, b_bo[0].handle);
	ck_assert_int_eq(ppu_vm_bind(fb, b_bo[0].handle, DRM_PPU_VM_BIND_VA_ALLOC, 0, 3 * PG, NULL),
			 -EINVAL);
	ck_assert_int_eq(ppu_vm_bind(fa, a_bo[0].handle, DRM_PPU_VM_BIND_VA_ALLOC, 0, 3 * PG, NULL),
			 0);
	/* A's BOs are still A's. */
	for (i = 0; i < 5; i++) {
		ck_assert_uint_eq(a_bo[i].map[0], 0x40 + i);
		ck_assert_int_eq(ppu_vm_bind(fa, a_bo[i].handle, DRM_PPU_VM_BIND_VA_ALLOC, 0, PG,
					 NULL), 0);
	}
	/* B has nothing at A's addresses. */
	ck_assert_int_eq(ppu_vm_unbind(fb, a_bo[4].va, PG), -ENOENT);

	/* mmap offsets: A's BO, A's pool, A's USERD cannot be mapped through B. */
	for (i = 0; i < 3; i++)
		ppu_tpool_new(fa, &a_pool[i], 4);
	ppu_tpool_new(fb, &b_pool, 4);
	ppu_tbo_new(fa, &a_ring, PG);
	ppu_tbo_new(fb, &b_ring, PG);
	ck_assert_int_eq(ppu_chan_create_full(fa, 0, 4, a_ring.va, 0, &a_cc), 0);
	ck_assert_int_eq(ppu_chan_create_full(fb, 0, 4, b_ring.va, 0, &b_cc), 0);
	ck_assert_uint_ne(a_cc.chid, b_cc.chid);
	off = ppu_mmap_offset(fa, a_bo[4].handle);
	m = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fb, off);
	ck_assert_msg(m == MAP_FAILED, "B mapped A's BO");
	m = mmap(NULL, PG, PROT_READ, MAP_SHARED, fb, off);
	ck_assert_msg(m == MAP_FAILED, "B mapped A's BO read-only");
	m = mmap(NULL, a_pool[2].bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fb,
		 a_pool[2].offset);
	ck_assert_msg(m == MAP_FAILED, "B mapped A's semaphore pool");
	m = mmap(NULL, DRM_PPU_USERD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fb,
		 a_cc.userd_offset);
	ck_assert_msg(m == MAP_FAILED, "B mapped A's USERD");
	/* ... while A can. */
	m = mmap(NULL, PG, PROT_READ, MAP_SHARED, fa, off);
	ck_assert(m != MAP_FAILED);
	ck_assert_uint_eq(((uint8_t *)m)[0], 0x44);
	ck_assert_int_eq(munmap(m, PG), 0);

	/* Channel ids. */
	ck_assert_int_eq(ppu_doorbell(fb, a_cc.chid, 0), -ENOENT);
	ck_assert_int_eq(ppu_chan_status(fb, a_cc.chid, 0, &st), -ENOENT);
	ck_assert_int_eq(ppu_chan_destroy(fb, a_cc.chid, 0), -ENOENT);
	ck_assert_int_eq(ppu_sem_wait_geq(fb, b_pool.id, 0, 0, a_cc.chid, 0), -ENOENT);
	ck_assert_int_eq(ppu_sem_wait_geq(fb, b_pool.id, 0, 0, b_cc.chid, 0), 0);
	ck_assert_int_eq(ppu_chan_status(fa, a_cc.chid, 0, &st), 0);

	/* Pool ids: A has 1..3, B has 1. */
	ck_assert_uint_eq(b_pool.id, a_pool[0].id);
	ck_assert_uint_ne(a_pool[2].id, b_pool.id);
	ck_assert_int_eq(ppu_sem_wait_geq(fb, a_pool[2].id, 0, 0, UINT32_MAX, 0), -ENOENT);
	ck_assert_int_eq(ppu_sem_wait_geq(fb, a_pool[2].id, 0, 0, b_cc.chid, 0), -ENOENT);
	ck_assert_int_eq(ppu_sem_pool_destroy(fb, a_pool[2].id, 0), -ENOENT);
	ck_assert_int_eq(ppu_sem_pool_destroy(fb, a_pool[1].id, 0), -ENOENT);
	/* The shared number 1 is B's own pool in B: A's value does not show. */
	*ppu_tpool_sem(&a_pool[0], 0) = 5;
	ck_assert_int_eq(ppu_sem_wait_geq(fa, a_pool[0].id, 0, 5, UINT32_MAX, 0), 0);
	ck_assert_int_eq(ppu_sem_wait_geq(fb, b_pool.id, 0, 5, UINT32_MAX, 0), -ETIME);

	/* Everything of A still works: a channel of A releases into A's pool 3. */
	ppu_tpb_new(fa, &a_pb, 1);
	ppu_tchan_new(fa, &a_ch, 4);
	{
		struct ppu_pb *b = ppu_tpb_begin(&a_pb);

		ppu_tsignal(b, &a_pool[2], 3, 0x77);
		ppu_tpb_submit(&a_pb, &a_ch);
	}
	ck_assert_int_eq(ppu_sem_wait_geq(fa, a_pool[2].id, 3, 0x77, a_ch.chid, WAIT_S), 0);
	ck_assert_uint_eq(*ppu_tpool_sem(&a_pool[2], 3), 0x77);
	ck_assert_int_eq(ppu_chan_destroy(fa, a_cc.chid, 0), 0);
	ck_assert_int_eq(ppu_sem_pool_destroy(fa, a_pool[2].id, 0), 0);
	ck_assert_int_eq(close(fb), 0);
}

/* ---- memory: GPU addresses are per file ---- */

void ppu_claim_same_va_faults_in_other_file(int fa, int fb)
{
	const uint32_t len = 64 * KIB;
	struct ppu_tbo a_bo, a_out, b_src, b_dst;
	struct ppu_tchan a_ch, b_ch, b_ch2;
	struct ppu_tpool a_pool, b_pool;
	struct ppu_tpb a_pb, b_pb;

	ppu_tbo_new_at(fa, &a_bo, len, 0, VA_A_SYS);
	ppu_fill_pattern(a_bo.map, len, 3);
	ppu_tbo_new(fa, &a_out, len);
	memset(a_out.map, SENTINEL, len);
	ppu_tpb_new(fa, &a_pb, 1);
	ppu_tpool_new(fa, &a_pool, 4);
	ppu_tchan_new(fa, &a_ch, 4);

	ppu_tpb_new(fb, &b_pb, 1);
	ppu_tpool_new(fb, &b_pool, 4);
	ppu_tbo_new(fb, &b_src, len);
	ppu_fill_pattern(b_src.map, len, 4);
	ppu_tbo_new(fb, &b_dst, len);
	memset(b_dst.map, SENTINEL, len);
	ppu_tchan_new(fb, &b_ch, 4);
	ppu_tchan_new(fb, &b_ch2, 4);
	ck_assert_uint_lt(b_dst.va + b_dst.size, VA_A_SYS);
	ck_assert_uint_lt(b_src.va + b_src.size, VA_A_SYS);

	/* A reads its VA (its translations are now in the TLB) ... */
	ppu_tcopy_ok(&a_ch, &a_pb, &a_pool, 0, 1, VA_A_SYS, a_out.va, len);
	ppu_check_pattern(a_out.map, len, 3, "A out");
	/* ... and B, right after, reads the same number in its own space. */
	ck_assert_int_eq(ppu_tcopy_and_wait(&b_ch, &b_pb, &b_pool, 0, 1, VA_A_SYS, b_dst.va, len),
			 -EIO);
	ppu_check_unmapped_fault(fb, b_ch.chid, 2 /* COPY_SRC */, 0 /* READ */, VA_A_SYS);
	ppu_check_bytes(b_dst.map, len, SENTINEL, "B dst after reading A's VA");
	ck_assert_uint_eq(*ppu_tpool_sem(&b_pool, 0), 0);

	/* B writing to that number does not reach A's BO either. */
	ppu_tcopy_ok(&a_ch, &a_pb, &a_pool, 1, 1, VA_A_SYS, a_out.va, len);
	ck_assert_int_eq(ppu_tcopy_and_wait(&b_ch2, &b_pb, &b_pool, 1, 1, b_src.va, VA_A_SYS, len),
			 -EIO);
	ppu_check_unmapped_fault(fb, b_ch2.chid, 3 /* COPY_DST */, 1 /* WRITE */, VA_A_SYS);
	ppu_check_pattern(a_bo.map, len, 3, "A's BO after B wrote its VA");
	memset(a_out.map, SENTINEL, len);
	ppu_tcopy_ok(&a_ch, &a_pb, &a_pool, 2, 1, VA_A_SYS, a_out.va, len);
	ppu_check_pattern(a_out.map, len, 3, "A's BO through A's VA");
	ck_assert_int_eq(close(fb), 0);
}

/* ---- memory: local memory is cleared for its next owner ---- */

void ppu_claim_freed_lmem_is_cleared(int fa, int fb)
{
	const uint32_t size = 128 * 1024;
	struct ppu_tbo src, back, local, pb, sem;
	struct ppu_tchan ch;
	uint32_t i, handle2;
	struct drm_ppu_vm_bind b = { 0 };

	ppu_tbo_new(fa, &src, size);
	ppu_tbo_new(fa, &back, size);
	ppu_tbo_new(fa, &pb, PPU_TPAGE);
	ppu_tbo_new(fa, &sem, PPU_TPAGE);
	ppu_tchan_new(fa, &ch, 4);
	ppu_tbo_new_flags(fa, &local, size, DRM_PPU_GEM_CREATE_LOCAL);
	memset(src.map, 0x5a, size);
	ppu_tbo_copy_wait(&ch, &pb, &sem, src.va, local.va, size);
	/* Free it: handle and mapping. */
	ck_assert_int_eq(ppu_vm_unbind(fa, local.va, size), 0);
	ck_assert_int_eq(ppu_gem_close(fa, local.handle), 0);

	/* Another client takes (very likely the same) local range. */
	ck_assert_int_eq(ppu_gem_create(fb, size, DRM_PPU_GEM_CREATE_LOCAL, &handle2), 0);
	/* ... and we take everything else too, so the range must be reused. */
	{
		uint64_t rest = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE) - size;

		ck_assert_int_eq(ppu_gem_create(fa, rest, DRM_PPU_GEM_CREATE_LOCAL, &i), 0);
		ck_assert_int_eq(ppu_gem_close(fa, i), 0);
	}
	/* Client 2 reads its new BO: zeros, not our 0x5a. */
	{
		struct ppu_tbo pb2, sem2, back2;
		struct ppu_tchan ch2;

		ppu_tbo_new(fb, &pb2, PPU_TPAGE);
		ppu_tbo_new(fb, &sem2, PPU_TPAGE);
		ppu_tbo_new(fb, &back2, size);
		ppu_tchan_new(fb, &ch2, 4);
		b.handle = handle2;
		b.flags = DRM_PPU_VM_BIND_VA_ALLOC;
		b.size = size;
		ck_assert_int_eq(ppu_ioctl(fb, DRM_IOCTL_PPU_VM_BIND, &b), 0);
		memset(back2.map, 0xff, size);
		ppu_tbo_copy_wait(&ch2, &pb2, &sem2, (uint32_t)b.va, back2.va, size);
		for (i = 0; i < size; i++)
			ck_assert_msg(back2.map[i] == 0, "byte %u of a new local BO is %#x", i,
				      back2.map[i]);
	}
	ck_assert_int_eq(close(fb), 0);
}

/* ---- priorities ---- */

/*
 * For a caller without CAP_SYS_NICE: a priority above normal, and a
 * compute channel whose launch chain climbs above normal, are -EPERM;
 * normal and below are granted.
 */
void ppu_claim_priority_above_normal_needs_cap_sys_nice(int fd)
{
	struct drm_ppu_chan_create c;
	struct ppu_tbo ring;
	uint32_t chid;

	ppu_tbo_new(fd, &ring, PPU_TPAGE);
	ck_assert_int_eq(ppu_chan_prio(fd, ring.va, DRM_PPU_CHAN_CREATE_PRIORITY,
				       DRM_PPU_CHAN_PRIORITY_NORMAL + 1, &chid), -EPERM);
	ck_assert_int_eq(ppu_chan_prio(fd, ring.va, DRM_PPU_CHAN_CREATE_PRIORITY,
				       DRM_PPU_CHAN_PRIORITY_MAX, &chid), -EPERM);
	ck_assert_int_eq(ppu_chan_prio(fd, ring.va, DRM_PPU_CHAN_CREATE_PRIORITY,
				       DRM_PPU_CHAN_PRIORITY_NORMAL, &chid), 0);
	ck_assert_int_eq(ppu_chan_destroy(fd, chid, 0), 0);
	ck_assert_int_eq(ppu_chan_prio(fd, ring.va, DRM_PPU_CHAN_CREATE_PRIORITY, 0, &chid), 0);
	ck_assert_int_eq(ppu_chan_destroy(fd, chid, 0), 0);
	ck_assert_int_eq(ppu_chan_prio(fd, ring.va, 0, 0, &chid), 0);
	ck_assert_int_eq(ppu_chan_destroy(fd, chid, 0), 0);
	if (!ppu_param(DRM_PPU_PARAM_NUM_CU))
		return;
	/* A compute channel at normal whose children may climb one level above it. */
	memset(&c, 0, sizeof(c));
	c.flags = DRM_PPU_CHAN_CREATE_COMPUTE | DRM_PPU_CHAN_CREATE_PRIORITY;
	c.log2_entries = 2;
	c.gpfifo_va = ring.va;
	c.priority = DRM_PPU_CHAN_PRIORITY_NORMAL;
	c.max_depth = 2;
	ck_assert_int_eq(ppu_ioctl(fd, DRM_IOCTL_PPU_CHAN_CREATE, &c), -EPERM);
	/* One level lower, the chain's top is normal. */
	c.priority = DRM_PPU_CHAN_PRIORITY_NORMAL - 1;
	ck_assert_int_eq(ppu_ioctl(fd, DRM_IOCTL_PPU_CHAN_CREATE, &c), 0);
	ck_assert_int_eq(ppu_chan_destroy(fd, c.chid, 0), 0);
}

/* ---- resources one file may hold ---- */

/*
 * With max_bos_per_file at PPU_CLAIM_MAX_BOS and max_sem_pools_per_file at
 * PPU_CLAIM_MAX_POOLS: file @a gets that many and then -EDQUOT, @b still
 * gets its own, and freeing one gives @a one back.  Closes both files.
 */
void ppu_claim_bos_and_pools_per_file_bounded(int a, int b)
{
	uint32_t h[PPU_CLAIM_MAX_BOS], p[PPU_CLAIM_MAX_POOLS], i;

	for (i = 0; i < PPU_CLAIM_MAX_BOS; i++)
		ck_assert_int_eq(ppu_gem_create(a, 4096, i & 1 ? DRM_PPU_GEM_CREATE_LOCAL : 0,
						 &h[i]), 0);
	ck_assert_int_eq(ppu_gem_create(a, 4096, 0, NULL), -EDQUOT);
	ck_assert_int_eq(ppu_gem_create(a, 4096, DRM_PPU_GEM_CREATE_LOCAL, NULL), -EDQUOT);
	ck_assert_int_eq(ppu_gem_create(b, 4096, 0, NULL), 0);
	ck_assert_int_eq(ppu_gem_close(a, h[3]), 0);
	ck_assert_int_eq(ppu_gem_create(a, 4096, 0, NULL), 0);

	for (i = 0; i < PPU_CLAIM_MAX_POOLS; i++)
		ck_assert_int_eq(ppu_sem_pool_create(a, 16, &p[i]), 0);
	ck_assert_int_eq(ppu_sem_pool_create(a, 16, NULL), -EDQUOT);
	ck_assert_int_eq(ppu_sem_pool_create(b, 16, NULL), 0);
	ck_assert_int_eq(ppu_sem_pool_destroy(a, p[1], 0), 0);
	ck_assert_int_eq(ppu_sem_pool_create(a, 16, NULL), 0);
	ck_assert_int_eq(ppu_sem_pool_create(a, 16, NULL), -EDQUOT);
	ck_assert_int_eq(close(a), 0);
	ck_assert_int_eq(close(b), 0);
}

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

/*
 * With RLIMIT_MEMLOCK at 1 MiB, for a caller without CAP_IPC_LOCK: a 2 MiB
 * system BO cannot be bound (-ENOMEM), a 512 KiB one can and shows in
 * VmPin until it is freed, a semaphore pool of 1 MiB cannot be made, and
 * the failed pin left nothing charged.  Lowers the limit of the calling
 * process for good: call it in a child.
 */
void ppu_claim_pinned_pages_count_against_memlock(void)
{
	struct rlimit rl = { 1 << 20, 1 << 20 };
	uint32_t big, small;
	uint64_t va;
	long pin0;
	int fd;

	ck_assert_int_eq(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	fd = ppu_client_open();
	pin0 = vm_pin_kib();
	ck_assert_int_ge(pin0, 0);
	ck_assert_int_eq(ppu_gem_create(fd, 2 << 20, 0, &big), 0);
	ck_assert_int_eq(ppu_gem_create(fd, 512 << 10, 0, &small), 0);
	ck_assert_int_eq(ppu_vm_bind(fd, big, DRM_PPU_VM_BIND_VA_ALLOC, 0, 2 << 20, NULL), -ENOMEM);
	ck_assert_int_eq(vm_pin_kib(), pin0);
	ck_assert_int_eq(ppu_vm_bind(fd, small, DRM_PPU_VM_BIND_VA_ALLOC, 0, 512 << 10, &va), 0);
	ck_assert_int_eq(vm_pin_kib(), pin0 + 512);
	ck_assert_int_eq(ppu_sem_pool_create(fd, DRM_PPU_SEM_POOL_MAX_COUNT, NULL), -ENOMEM);
	ck_assert_int_eq(ppu_vm_unbind(fd, va, 512 << 10), 0);
	ck_assert_int_eq(ppu_gem_close(fd, small), 0);
	ck_assert_int_eq(vm_pin_kib(), pin0);
	/* (the failed pin left nothing charged: still over the limit alone) */
	ck_assert_int_eq(ppu_vm_bind(fd, big, DRM_PPU_VM_BIND_VA_ALLOC, 0, 2 << 20, NULL), -ENOMEM);
	ck_assert_int_eq(close(fd), 0);
}

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
void ppu_claim_create_destroy_race(void)
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
		r.made += !ppu_sem_pool_create(r.fd, 4, NULL);
	}
	r.stop = 1;
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	printf("race: %lu made, %lu destroyed\n", r.made, r.destroyed);
	ck_assert_uint_gt(r.made, 100);
	ck_assert_uint_gt(r.destroyed, 10);
	/* (the ring's mapping would hold the file, and its channels, open) */
	ck_assert_int_eq(munmap(ring.map, ring.size), 0);
	ck_assert_int_eq(close(r.fd), 0);
	fd = ppu_client_open();
	ppu_tbo_new(fd, &ring, PPU_TPAGE);
	ck_assert_int_eq(ppu_chan_create_full(fd, 0, 4, ring.va, 0, NULL), 0);
	close(fd);
}

/*
 * With max_fences_per_file at PPU_CLAIM_MAX_FENCES: that many pending
 * fences and then -EDQUOT; signalled fences no longer count.
 */
void ppu_claim_fences_per_file_bounded(int fd)
{
	struct ppu_tpool p;
	uint32_t so[PPU_CLAIM_MAX_FENCES + 1], i;

	ppu_tpool_new(fd, &p, 1);
	for (i = 0; i <= PPU_CLAIM_MAX_FENCES; i++)
		so[i] = ppu_syncobj_new(fd);
	for (i = 0; i < PPU_CLAIM_MAX_FENCES; i++)
		ck_assert_int_eq(ppu_sem_fence(fd, p.id, 0, 7, 0, 0, so[i]), 0);
	ck_assert_int_eq(ppu_sem_fence(fd, p.id, 0, 7, 0, 0, so[PPU_CLAIM_MAX_FENCES]), -EDQUOT);
	*ppu_tpool_sem(&p, 0) = 7;
	for (i = 0; i < PPU_CLAIM_MAX_FENCES; i++)
		ck_assert_int_eq(ppu_syncobj_wait(fd, so[i], WAIT_S), 0);
	/* signalled fences no longer count (the worker drops them after signalling) */
	for (i = 0; i < 100 && ppu_sem_fence(fd, p.id, 0, 7, 0, 0, so[PPU_CLAIM_MAX_FENCES]); i++)
		usleep(10000);
	ck_assert_uint_lt(i, 100);
}
