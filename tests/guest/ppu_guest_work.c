// SPDX-License-Identifier: MIT
/*
 * Work-submission helpers for the guest tests of ppu.ko; see
 * ppu_guest_work.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "ppu/ppu_encode.h"
#include "ppu_guest_work.h"

int ppu_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

double ppu_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void ppu_tbo_new_at(int fd, struct ppu_tbo *bo, uint64_t size, uint32_t flags, uint32_t va)
{
	struct drm_ppu_gem_create c = { .size = size, .flags = flags };
	struct drm_ppu_gem_mmap_offset o = { 0 };
	struct drm_ppu_vm_bind b = { 0 };
	int ret;

	memset(bo, 0, sizeof(*bo));
	ret = ppu_ioctl(fd, DRM_IOCTL_PPU_GEM_CREATE, &c);
	ck_assert_msg(ret == 0, "GEM_CREATE %s", strerror(-ret));
	bo->handle = c.handle;
	bo->size = c.size;
	if (!(flags & DRM_PPU_GEM_CREATE_LOCAL)) {
		o.handle = c.handle;
		ck_assert_int_eq(ppu_ioctl(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &o), 0);
		bo->map = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			       o.offset);
		ck_assert(bo->map != MAP_FAILED);
	}
	b.handle = c.handle;
	b.flags = va ? 0 : DRM_PPU_VM_BIND_VA_ALLOC;
	b.va = va;
	b.size = c.size;
	ret = ppu_ioctl(fd, DRM_IOCTL_PPU_VM_BIND, &b);
	ck_assert_msg(ret == 0, "VM_BIND at %#x: %s", va, strerror(-ret));
	ck_assert(b.va < (1ull << 32));
	bo->va = (uint32_t)b.va;
}

void ppu_tbo_new_flags(int fd, struct ppu_tbo *bo, uint64_t size, uint32_t flags)
{
	ppu_tbo_new_at(fd, bo, size, flags, 0);
}

void ppu_tbo_new(int fd, struct ppu_tbo *bo, uint64_t size)
{
	ppu_tbo_new_flags(fd, bo, size, 0);
}

int ppu_chan_create_full(int fd, uint32_t flags, uint32_t log2, uint64_t gpfifo_va,
			 uint32_t priority, struct drm_ppu_chan_create *out)
{
	struct drm_ppu_chan_create c;

	memset(&c, 0, sizeof(c));
	c.flags = flags;
	c.log2_entries = log2;
	c.gpfifo_va = gpfifo_va;
	c.priority = priority;
	if (out)
		*out = c;
	return ppu_ioctl(fd, DRM_IOCTL_PPU_CHAN_CREATE, out ? out : &c);
}

int ppu_chan_prio(int fd, uint32_t ring_va, uint32_t flags, uint32_t prio, uint32_t *chid)
{
	struct drm_ppu_chan_create c;
	int ret = ppu_chan_create_full(fd, flags, 2, ring_va, prio, &c);

	if (!ret)
		*chid = c.chid;
	return ret;
}

uint32_t ppu_chan_take(int fd, uint32_t ring_va, uint32_t max, int *err)
{
	uint32_t n = 0;
	int ret = 0;

	while (n < max && !(ret = ppu_chan_create_full(fd, 0, 4, ring_va, 0, NULL)))
		n++;
	*err = ret;
	return n;
}

void ppu_chan_fill(int fd, uint32_t ring_va, uint32_t count, int then)
{
	int err;

	ck_assert_uint_eq(ppu_chan_take(fd, ring_va, count, &err), count);
	ck_assert_int_eq(ppu_chan_create_full(fd, 0, 4, ring_va, 0, NULL), then);
}

int ppu_chan_destroy(int fd, uint32_t chid, uint32_t pad)
{
	struct drm_ppu_chan_destroy d = { .chid = chid, .pad = pad };

	return ppu_ioctl(fd, DRM_IOCTL_PPU_CHAN_DESTROY, &d);
}

int ppu_doorbell(int fd, uint32_t chid, uint32_t flags)
{
	struct drm_ppu_doorbell d = { .chid = chid, .flags = flags };

	return ppu_ioctl(fd, DRM_IOCTL_PPU_DOORBELL, &d);
}

int ppu_chan_status(int fd, uint32_t chid, uint32_t pad, struct drm_ppu_chan_status *st)
{
	memset(st, 0, sizeof(*st));
	st->chid = chid;
	st->pad = pad;
	return ppu_ioctl(fd, DRM_IOCTL_PPU_CHAN_STATUS, st);
}

int ppu_tchan_new_prio(int fd, struct ppu_tchan *ch, uint32_t log2, uint32_t flags,
		       uint32_t priority)
{
	struct drm_ppu_chan_create c;
	uint64_t ring_bytes;
	void *u;
	int ret;

	memset(ch, 0, sizeof(*ch));
	ch->fd = fd;
	ch->log2 = log2;
	ring_bytes = (uint64_t)PPU_GP_ENTRY_BYTES << log2;
	ppu_tbo_new(fd, &ch->ring, ring_bytes > PPU_TPAGE ? ring_bytes : PPU_TPAGE);
	ret = ppu_chan_create_full(fd, flags, log2, ch->ring.va, priority, &c);
	if (ret)
		return ret;
	ch->chid = c.chid;
	u = mmap(NULL, DRM_PPU_USERD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 c.userd_offset);
	ck_assert(u != MAP_FAILED);
	ch->userd = u;
	ck_assert_uint_eq(ch->userd[DRM_PPU_USERD_GP_PUT / 4], 0);
	ck_assert_uint_eq(ch->userd[DRM_PPU_USERD_GP_GET / 4], 0);
	return 0;
}

void ppu_tchan_new(int fd, struct ppu_tchan *ch, uint32_t log2)
{
	int ret = ppu_tchan_new_prio(fd, ch, log2, 0, 0);

	ck_assert_msg(ret == 0, "CHAN_CREATE %s", strerror(-ret));
}

void ppu_tchan_push(struct ppu_tchan *ch, uint32_t pb_va, uint32_t ndw)
{
	uint32_t *gp = (uint32_t *)ch->ring.map + 2 * ch->put;

	ppu_gp_entry(gp, pb_va, ndw, 0);
	ch->put = (ch->put + 1) & ((1u << ch->log2) - 1);
	/* The entry is in memory before GP_PUT names it. */
	__sync_synchronize();
	ch->userd[DRM_PPU_USERD_GP_PUT / 4] = ch->put;
	__sync_synchronize();
}

void ppu_tchan_submit(struct ppu_tchan *ch, uint32_t pb_va, uint32_t ndw)
{
	ppu_tchan_push(ch, pb_va, ndw);
	ck_assert_int_eq(ppu_doorbell(ch->fd, ch->chid, 0), 0);
}

int ppu_wait_u32(volatile uint32_t *p, uint32_t value, double timeout_s)
{
	double end = ppu_now_s() + timeout_s;

	while (*p != value) {
		if (ppu_now_s() > end)
			return 0;
		usleep(1000);
	}
	return 1;
}

void ppu_tchan_wait_sem(struct ppu_tchan *ch, volatile uint32_t *sem, uint32_t value,
			double timeout_s)
{
	struct drm_ppu_chan_status st;

	if (ppu_wait_u32(sem, value, timeout_s))
		return;
	ck_assert_int_eq(ppu_chan_status(ch->fd, ch->chid, 0, &st), 0);
	ck_abort_msg("semaphore %#x != %#x after %.0f s: state %u gp_get %u gp_put %u "
		     "fault_info %#x addr %#x data %#x", *sem, value, timeout_s, st.state,
		     st.gp_get, st.gp_put, st.fault_info, st.fault_addr, st.fault_data);
}

void ppu_tpool_new(int fd, struct ppu_tpool *p, uint32_t count)
{
	struct drm_ppu_sem_pool_create c = { .count = count };
	void *m;
	int ret;

	ret = ppu_ioctl(fd, DRM_IOCTL_PPU_SEM_POOL_CREATE, &c);
	ck_assert_msg(ret == 0, "SEM_POOL_CREATE %s", strerror(-ret));
	ck_assert_uint_ne(c.pool, 0);
	ck_assert_uint_ge(c.va, DRM_PPU_VA_START);
	ck_assert_uint_le(c.va + (uint64_t)count * DRM_PPU_SEM_BYTES, DRM_PPU_VA_END);
	ck_assert_uint_eq(c.va % DRM_PPU_PAGE_SIZE, 0);
	p->fd = fd;
	p->id = c.pool;
	p->count = count;
	p->va = (uint32_t)c.va;
	p->offset = c.mmap_offset;
	p->bytes = ((uint64_t)count * DRM_PPU_SEM_BYTES + PPU_TPAGE - 1) / PPU_TPAGE * PPU_TPAGE;
	m = mmap(NULL, p->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, c.mmap_offset);
	ck_assert(m != MAP_FAILED);
	p->map = m;
}

volatile uint32_t *ppu_tpool_sem(struct ppu_tpool *p, uint32_t i)
{
	return p->map + i * (DRM_PPU_SEM_BYTES / 4);
}

uint32_t ppu_tpool_va(const struct ppu_tpool *p, uint32_t i)
{
	return p->va + i * DRM_PPU_SEM_BYTES;
}

int ppu_sem_pool_destroy(int fd, uint32_t pool, uint32_t pad)
{
	struct drm_ppu_sem_pool_destroy d = { .pool = pool, .pad = pad };

	return ppu_ioctl(fd, DRM_IOCTL_PPU_SEM_POOL_DESTROY, &d);
}

int64_t ppu_deadline_ns(double rel_s)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + (int64_t)(rel_s * 1e9);
}

int ppu_sem_wait(int fd, uint32_t pool, uint32_t index, uint32_t value, uint32_t cond,
		 int64_t timeout_ns, uint32_t flags, uint32_t chid)
{
	struct drm_ppu_sem_wait w = {
		.pool = pool, .index = index, .value = value, .cond = cond,
		.timeout_ns = timeout_ns, .flags = flags, .chid = chid,
	};

	return ppu_ioctl(fd, DRM_IOCTL_PPU_SEM_WAIT, &w);
}

int ppu_gem_create(int fd, uint64_t size, uint32_t flags, uint32_t *handle)
{
	struct drm_ppu_gem_create c = { .size = size, .flags = flags };
	int ret = ppu_ioctl(fd, DRM_IOCTL_PPU_GEM_CREATE, &c);

	if (!ret && handle)
		*handle = c.handle;
	return ret;
}

int ppu_sem_pool_create(int fd, uint32_t count, uint32_t *id)
{
	struct drm_ppu_sem_pool_create c = { .count = count };
	int ret = ppu_ioctl(fd, DRM_IOCTL_PPU_SEM_POOL_CREATE, &c);

	if (!ret && id)
		*id = c.pool;
	return ret;
}

int ppu_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return ppu_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

int ppu_vm_unbind(int fd, uint64_t va, uint64_t size)
{
	struct drm_ppu_vm_unbind u = { .va = va, .size = size };

	return ppu_ioctl(fd, DRM_IOCTL_PPU_VM_UNBIND, &u);
}

void ppu_tpb_new(int fd, struct ppu_tpb *p, uint32_t pages)
{
	memset(p, 0, sizeof(*p));
	ppu_tbo_new(fd, &p->bo, (uint64_t)pages * PPU_TPAGE);
}

struct ppu_pb *ppu_tpb_begin(struct ppu_tpb *p)
{
	ck_assert_msg((uint64_t)(p->next + 1) * PPU_TPB_SLOT_BYTES <= p->bo.size,
		      "pushbuffer full");
	p->slot = p->next++;
	ppu_pb_init(&p->b, (uint32_t *)(p->bo.map + p->slot * PPU_TPB_SLOT_BYTES),
		    PPU_TPB_SLOT_BYTES / 4);
	return &p->b;
}

void ppu_tpb_submit(struct ppu_tpb *p, struct ppu_tchan *ch)
{
	ck_assert(!p->b.overflow);
	ppu_tchan_submit(ch, p->bo.va + p->slot * PPU_TPB_SLOT_BYTES, p->b.len);
}

/* ---- copies, faults and patterns (shared by the isolation tests) ---- */

void ppu_fill_pattern(uint8_t *p, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)((i * 131u) ^ (i >> 9) ^ (i >> 17) ^ (seed * 29u + 1));
}

void ppu_check_pattern(const uint8_t *p, size_t len, uint32_t seed, const char *what)
{
	size_t i;

	for (i = 0; i < len; i++) {
		uint8_t want = (uint8_t)((i * 131u) ^ (i >> 9) ^ (i >> 17) ^ (seed * 29u + 1));

		if (p[i] != want)
			ck_abort_msg("%s[%zu] = %#x, want %#x", what, i, p[i], want);
	}
}

void ppu_check_bytes(const uint8_t *p, size_t len, uint8_t want, const char *what)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != want)
			ck_abort_msg("%s[%zu] = %#x, want %#x", what, i, p[i], want);
}

/* SEM_WAIT GEQ, tied to channel @chid unless it is U32_MAX: 0 or -errno. */
int ppu_sem_wait_geq(int fd, uint32_t pool, uint32_t index, uint32_t value, uint32_t chid,
		     double timeout_s)
{
	return ppu_sem_wait(fd, pool, index, value, DRM_PPU_SEM_WAIT_GEQ,
			    timeout_s > 0 ? ppu_deadline_ns(timeout_s) : 0,
			    chid != UINT32_MAX ? DRM_PPU_SEM_WAIT_CHAN : 0,
			    chid != UINT32_MAX ? chid : 0);
}

int ppu_vm_bind(int fd, uint32_t handle, uint32_t flags, uint64_t va, uint64_t size,
		uint64_t *out_va)
{
	struct drm_ppu_vm_bind b = { .handle = handle, .flags = flags, .va = va, .size = size };
	int ret = ppu_ioctl(fd, DRM_IOCTL_PPU_VM_BIND, &b);

	if (!ret && out_va)
		*out_va = b.va;
	return ret;
}

uint64_t ppu_mmap_offset(int fd, uint32_t handle)
{
	struct drm_ppu_gem_mmap_offset o = { .handle = handle };

	ck_assert_int_eq(ppu_ioctl(fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &o), 0);
	return o.offset;
}

void ppu_tcopy(struct ppu_pb *b, uint32_t src, uint32_t dst, uint32_t len)
{
	ppu_pb_copy(b, src, dst, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
}

/* Release @value into semaphore @index, then wake waiters. */
void ppu_tsignal(struct ppu_pb *b, struct ppu_tpool *pool, uint32_t index, uint32_t value)
{
	ppu_pb_sem_release(b, ppu_tpool_va(pool, index), value);
	ppu_pb_nonstall(b);
}

/* Copy on @ch, then signal; waits with SEM_WAIT on the channel; returns its result. */
int ppu_tcopy_and_wait(struct ppu_tchan *ch, struct ppu_tpb *pb, struct ppu_tpool *pool,
		       uint32_t index, uint32_t value, uint32_t src, uint32_t dst, uint32_t len)
{
	struct ppu_pb *b = ppu_tpb_begin(pb);

	ppu_tcopy(b, src, dst, len);
	ppu_tsignal(b, pool, index, value);
	ppu_tpb_submit(pb, ch);
	return ppu_sem_wait_geq(ch->fd, pool->id, index, value, ch->chid, PPU_WAIT_S);
}

void ppu_tcopy_ok(struct ppu_tchan *ch, struct ppu_tpb *pb, struct ppu_tpool *pool,
		  uint32_t index, uint32_t value, uint32_t src, uint32_t dst, uint32_t len)
{
	struct drm_ppu_chan_status st;
	int ret = ppu_tcopy_and_wait(ch, pb, pool, index, value, src, dst, len);

	if (ret) {
		ck_assert_int_eq(ppu_chan_status(ch->fd, ch->chid, 0, &st), 0);
		ck_abort_msg("copy %#x -> %#x (%u bytes) on channel %u: SEM_WAIT %s; state %u "
			     "fault_info %#x addr %#x data %#x", src, dst, len, ch->chid,
			     strerror(-ret), st.state, st.fault_info, st.fault_addr,
			     st.fault_data);
	}
}

/* Polls CHAN_STATUS until FAULTED; fails the test otherwise. */
void ppu_wait_faulted(int fd, uint32_t chid, struct drm_ppu_chan_status *st)
{
	double end = ppu_now_s() + PPU_WAIT_S;

	for (;;) {
		ck_assert_int_eq(ppu_chan_status(fd, chid, 0, st), 0);
		if (st->state == DRM_PPU_CHAN_STATE_FAULTED || ppu_now_s() > end)
			break;
		usleep(1000);
	}
	ck_assert_msg(st->state == DRM_PPU_CHAN_STATE_FAULTED, "channel %u state %u, not faulted",
		      chid, st->state);
}

/* The fault of a copy that touched an address the file has not mapped. */
void ppu_check_unmapped_fault(int fd, uint32_t chid, uint32_t unit, uint32_t access,
			      uint32_t va)
{
	struct drm_ppu_chan_status st;

	ppu_wait_faulted(fd, chid, &st);
	ck_assert_msg(DRM_PPU_FAULT_INFO_KIND(st.fault_info) == DRM_PPU_FAULT_PTE_NOT_PRESENT,
		      "fault_info %#x addr %#x: kind is not PTE_NOT_PRESENT", st.fault_info,
		      st.fault_addr);
	ck_assert_msg(DRM_PPU_FAULT_INFO_UNIT(st.fault_info) == unit &&
		      DRM_PPU_FAULT_INFO_ACCESS(st.fault_info) == access,
		      "fault_info %#x: unit/access, want unit %u access %u", st.fault_info, unit,
		      access);
	ck_assert_msg(st.fault_addr >= va && st.fault_addr < va + PPU_TPAGE,
		      "fault_addr %#x, want the page at %#x", st.fault_addr, va);
	ck_assert_int_eq(ppu_doorbell(fd, chid, 0), -EIO);
}

void ppu_tbo_copy_wait(struct ppu_tchan *ch, struct ppu_tbo *pb, struct ppu_tbo *sem,
		       uint32_t src, uint32_t dst, uint32_t len)
{
	static uint32_t seq;
	volatile uint32_t *s = (volatile uint32_t *)sem->map;
	struct ppu_pb b;

	seq++;
	ppu_pb_init(&b, (uint32_t *)pb->map, (uint32_t)(pb->size / 4));
	ppu_pb_copy(&b, src, dst, len, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, sem->va, seq, 0);
	ck_assert(!b.overflow);
	ppu_tchan_submit(ch, pb->va, b.len);
	ppu_tchan_wait_sem(ch, s, seq, PPU_WAIT_S);
}

/* ---- fences in syncobjs ---- */

uint32_t ppu_syncobj_new(int fd)
{
	struct drm_syncobj_create c = { 0 };

	ck_assert_int_eq(ppu_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c), 0);
	return c.handle;
}

int ppu_sem_fence(int fd, uint32_t pool, uint32_t index, uint32_t value, uint32_t flags,
		  uint32_t chid, uint32_t syncobj)
{
	struct drm_ppu_sem_fence f = {
		.pool = pool, .index = index, .value = value, .cond = DRM_PPU_SEM_WAIT_GEQ,
		.flags = flags, .chid = chid, .syncobj = syncobj,
	};

	return ppu_ioctl(fd, DRM_IOCTL_PPU_SEM_FENCE, &f);
}

int ppu_syncobj_wait(int fd, uint32_t handle, double rel_s)
{
	struct drm_syncobj_wait w = {
		.handles = (uintptr_t)&handle, .count_handles = 1,
		.timeout_nsec = ppu_deadline_ns(rel_s),
	};

	return ppu_ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}
