/* SPDX-License-Identifier: MIT */
/*
 * Work-submission helpers for the guest tests of ppu.ko: buffer objects
 * mapped by the CPU and bound in the file's GPU address space, channels
 * with a ring and a mapped USERD page, submission and polling.  Helpers
 * that can fail assert (ck_assert), so they are for use inside tests.
 */
#ifndef PPU_GUEST_WORK_H
#define PPU_GUEST_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "ppu/ppu_encode.h"

#include "drm/ppu_drm.h"

#define PPU_TPAGE 4096u

/* ioctl() restarted on EINTR/EAGAIN: 0 or -errno. */
int ppu_ioctl(int fd, unsigned long req, void *arg);
/* CLOCK_MONOTONIC in seconds. */
double ppu_now_s(void);

/* A BO, CPU-mapped and bound at a kernel-chosen GPU address. */
struct ppu_tbo {
	uint32_t handle;
	uint64_t size;
	uint32_t va;
	uint8_t *map;
};

/* GEM_CREATE with @flags, mmap (system memory only), VM_BIND at @va (0: VA_ALLOC). */
void ppu_tbo_new_at(int fd, struct ppu_tbo *bo, uint64_t size, uint32_t flags, uint32_t va);
/* The same at a kernel-chosen address. */
void ppu_tbo_new_flags(int fd, struct ppu_tbo *bo, uint64_t size, uint32_t flags);
void ppu_tbo_new(int fd, struct ppu_tbo *bo, uint64_t size);

struct ppu_tchan;

/* A pushbuffer BO handed out in slots of PPU_TPB_SLOT_BYTES, one per submission. */
#define PPU_TPB_SLOT_BYTES 1024u
struct ppu_tpb {
	struct ppu_tbo bo;
	uint32_t next, slot;
	struct ppu_pb b;
};

void ppu_tpb_new(int fd, struct ppu_tpb *p, uint32_t pages);
/* The next slot, as a pushbuffer to fill (the test fails when none is left). */
struct ppu_pb *ppu_tpb_begin(struct ppu_tpb *p);
/* Submits the slot ppu_tpb_begin() gave out on @ch. */
void ppu_tpb_submit(struct ppu_tpb *p, struct ppu_tchan *ch);

/* A channel with its own ring BO and mapped USERD. */
struct ppu_tchan {
	int fd;
	uint32_t chid;
	uint32_t log2;
	uint32_t put;
	struct ppu_tbo ring;
	volatile uint32_t *userd;
};

/* CHAN_CREATE with every field given: 0 or -errno; fills *out when set. */
int ppu_chan_create_full(int fd, uint32_t flags, uint32_t log2, uint64_t gpfifo_va,
			 uint32_t priority, struct drm_ppu_chan_create *out);
/* CHAN_CREATE of a copy channel with a 4-entry ring: 0 or -errno, its id in *chid. */
int ppu_chan_prio(int fd, uint32_t ring_va, uint32_t flags, uint32_t prio, uint32_t *chid);
/*
 * Copy channels on the 16-entry ring at @ring_va of @fd, created until one
 * fails or @max exist: how many, and the error that stopped them (0 when
 * @max did) in *err.
 */
uint32_t ppu_chan_take(int fd, uint32_t ring_va, uint32_t max, int *err);
/* Exactly @count such channels, then one more fails with @then (-errno). */
void ppu_chan_fill(int fd, uint32_t ring_va, uint32_t count, int then);
int ppu_chan_destroy(int fd, uint32_t chid, uint32_t pad);
int ppu_doorbell(int fd, uint32_t chid, uint32_t flags);
int ppu_chan_status(int fd, uint32_t chid, uint32_t pad, struct drm_ppu_chan_status *st);

/* A copy channel of normal priority with a 2^log2-entry ring. */
void ppu_tchan_new(int fd, struct ppu_tchan *ch, uint32_t log2);
/* The same with CHAN_CREATE flags and priority. */
int ppu_tchan_new_prio(int fd, struct ppu_tchan *ch, uint32_t log2, uint32_t flags,
		       uint32_t priority);
/* GPFIFO entry for the pushbuffer at pb_va (ndw dwords), GP_PUT, doorbell. */
void ppu_tchan_submit(struct ppu_tchan *ch, uint32_t pb_va, uint32_t ndw);
/* The same without ringing the doorbell. */
void ppu_tchan_push(struct ppu_tchan *ch, uint32_t pb_va, uint32_t ndw);

/* A semaphore pool (SEM_POOL_CREATE), CPU-mapped: @bytes from @offset. */
struct ppu_tpool {
	int fd;
	uint32_t id;
	uint32_t count;
	uint32_t va;
	uint64_t offset;
	uint64_t bytes;
	volatile uint32_t *map;
};

/* Creates and maps a pool of @count zeroed semaphores; checks its address. */
void ppu_tpool_new(int fd, struct ppu_tpool *p, uint32_t count);
/* Semaphore @i: its value through the CPU mapping, its GPU address. */
volatile uint32_t *ppu_tpool_sem(struct ppu_tpool *p, uint32_t i);
uint32_t ppu_tpool_va(const struct ppu_tpool *p, uint32_t i);
int ppu_sem_pool_destroy(int fd, uint32_t pool, uint32_t pad);
/* CLOCK_MONOTONIC now + @rel_s, in ns: a SEM_WAIT deadline. */
int64_t ppu_deadline_ns(double rel_s);
/* SEM_WAIT with every field given: 0 or -errno. */
int ppu_sem_wait(int fd, uint32_t pool, uint32_t index, uint32_t value, uint32_t cond,
		 int64_t timeout_ns, uint32_t flags, uint32_t chid);

/* GEM_CREATE, SEM_POOL_CREATE, VM_BIND: 0 or -errno; the outputs when set. */
int ppu_gem_create(int fd, uint64_t size, uint32_t flags, uint32_t *handle);
int ppu_sem_pool_create(int fd, uint32_t count, uint32_t *id);
int ppu_vm_bind(int fd, uint32_t handle, uint32_t flags, uint64_t va, uint64_t size,
		uint64_t *out_va);
/* GEM_MMAP_OFFSET that must succeed. */
uint64_t ppu_mmap_offset(int fd, uint32_t handle);
int ppu_gem_close(int fd, uint32_t handle);
int ppu_vm_unbind(int fd, uint64_t va, uint64_t size);

/* Polls *p == value every millisecond: 1 when seen, 0 after timeout_s. */
int ppu_wait_u32(volatile uint32_t *p, uint32_t value, double timeout_s);
/* ppu_wait_u32 that fails the test with the channel's status. */
void ppu_tchan_wait_sem(struct ppu_tchan *ch, volatile uint32_t *sem, uint32_t value,
			double timeout_s);

/* ---- copies, faults and patterns ---- */

/* How long the helpers below wait for the PPU. */
#define PPU_WAIT_S 30.0

/* A byte pattern that depends on the offset and @seed; its check fails the test. */
void ppu_fill_pattern(uint8_t *p, size_t len, uint32_t seed);
void ppu_check_pattern(const uint8_t *p, size_t len, uint32_t seed, const char *what);
/* Every byte is @want, or the test fails. */
void ppu_check_bytes(const uint8_t *p, size_t len, uint8_t want, const char *what);
/* SEM_WAIT GEQ, tied to channel @chid unless it is UINT32_MAX: 0 or -errno. */
int ppu_sem_wait_geq(int fd, uint32_t pool, uint32_t index, uint32_t value, uint32_t chid,
		     double timeout_s);
/* A copy without a semaphore; a release of @value into @index, then an interrupt. */
void ppu_tcopy(struct ppu_pb *b, uint32_t src, uint32_t dst, uint32_t len);
void ppu_tsignal(struct ppu_pb *b, struct ppu_tpool *pool, uint32_t index, uint32_t value);
/* A copy on @ch, then a signal; SEM_WAIT on the channel: its result. */
int ppu_tcopy_and_wait(struct ppu_tchan *ch, struct ppu_tpb *pb, struct ppu_tpool *pool,
		       uint32_t index, uint32_t value, uint32_t src, uint32_t dst, uint32_t len);
/* The same that must succeed (the test fails with the channel's status). */
void ppu_tcopy_ok(struct ppu_tchan *ch, struct ppu_tpb *pb, struct ppu_tpool *pool,
		  uint32_t index, uint32_t value, uint32_t src, uint32_t dst, uint32_t len);
/* Polls CHAN_STATUS until the channel is FAULTED; fails the test otherwise. */
void ppu_wait_faulted(int fd, uint32_t chid, struct drm_ppu_chan_status *st);
/*
 * The fault of a copy that touched @va, which the file has not mapped:
 * PTE not present, the given unit and access, then doorbells fail -EIO.
 */
void ppu_check_unmapped_fault(int fd, uint32_t chid, uint32_t unit, uint32_t access,
			      uint32_t va);

/*
 * A copy of @len bytes from @src to @dst with a semaphore release into the
 * first word of @sem; waits for it (the pushbuffer @pb is rewritten).
 */
void ppu_tbo_copy_wait(struct ppu_tchan *ch, struct ppu_tbo *pb, struct ppu_tbo *sem,
		       uint32_t src, uint32_t dst, uint32_t len);

/* ---- fences in syncobjs ---- */

/* SYNCOBJ_CREATE that must succeed. */
uint32_t ppu_syncobj_new(int fd);
/* SEM_FENCE (GEQ @value) into @syncobj: 0 or -errno. */
int ppu_sem_fence(int fd, uint32_t pool, uint32_t index, uint32_t value, uint32_t flags,
		  uint32_t chid, uint32_t syncobj);
/* DRM_IOCTL_SYNCOBJ_WAIT on one syncobj: 0 or -errno (-ETIME). */
int ppu_syncobj_wait(int fd, uint32_t handle, double rel_s);

#endif /* PPU_GUEST_WORK_H */
