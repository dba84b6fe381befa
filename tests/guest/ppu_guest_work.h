/* SPDX-License-Identifier: MIT */
/*
 * Work-submission helpers for the guest tests of ppu.ko: buffer objects
 * mapped by the CPU and bound in the file's GPU address space, channels
 * with a ring and a mapped USERD page, submission and polling.  Helpers
 * that can fail assert (ck_assert), so they are for use inside tests.
 */
#ifndef PPU_GUEST_WORK_H
#define PPU_GUEST_WORK_H

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

int ppu_gem_close(int fd, uint32_t handle);
int ppu_vm_unbind(int fd, uint64_t va, uint64_t size);

/* Polls *p == value every millisecond: 1 when seen, 0 after timeout_s. */
int ppu_wait_u32(volatile uint32_t *p, uint32_t value, double timeout_s);
/* ppu_wait_u32 that fails the test with the channel's status. */
void ppu_tchan_wait_sem(struct ppu_tchan *ch, volatile uint32_t *sem, uint32_t value,
			double timeout_s);

#endif /* PPU_GUEST_WORK_H */
