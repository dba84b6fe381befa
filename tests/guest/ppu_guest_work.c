// SPDX-License-Identifier: MIT
/*
 * Work-submission helpers for the guest tests of ppu.ko; see
 * ppu_guest_work.h.
 */
#include <errno.h>
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
