/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Per-client limits and charges: what one open file may hold of the
 * device's channels, local memory, buffer objects and semaphore pools, what
 * all the files one user opened may hold of channels and local memory, and
 * the system pages binds pin (charged like mlock to RLIMIT_MEMLOCK).
 */
#ifndef __PPU_QUOTA_H__
#define __PPU_QUOTA_H__

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/seq_file.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct drm_file;
struct mm_struct;
struct ppu_device;

/**
 * struct ppu_user - what the files one user opened on one device hold
 * @link: in &ppu_device.users, under &ppu_device.users_lock
 * @ref: one per client (open file) of the user; the entry goes with the
 *       last, after the last BO the user's files created is freed
 * @ppu: the device
 * @uid: the real uid of the files' opener
 * @lmem_bytes: local memory of the BOs the user's files created, not yet
 *              freed
 *
 * The user's channels are counted where channels live (ppu_chan.c), from
 * each channel's file.
 */
struct ppu_user {
	struct list_head link;
	refcount_t ref;
	struct ppu_device *ppu;
	kuid_t uid;
	atomic64_t lmem_bytes;
};

/**
 * struct ppu_client - what one open file has created
 * @ref: the file holds one reference, every BO it created another (a BO
 *       may outlive the file: another file may have imported it)
 * @user: the account of the file's opener (a reference); NULL when the
 *        file was opened with CAP_SYS_ADMIN, which is not counted per user
 * @lmem_bytes: local memory of its BOs not yet freed
 * @bos: its BOs not yet freed
 * @fences: its semaphore fences not yet signalled
 */
struct ppu_client {
	struct kref ref;
	struct ppu_user *user;
	atomic64_t lmem_bytes;
	atomic_t bos;
	atomic_t fences;
};

/**
 * struct ppu_charge - what a BO is charged with, released when it is freed
 * @client: the file that created it (a reference), NULL for none
 * @lmem_bytes: its size when it is in local memory
 * @pin_mm: the address space whose pinned_vm carries @pinned_pages
 *          (mmgrab()ed), NULL while nothing is pinned
 * @pinned_pages: system pages pinned for the PPU
 */
struct ppu_charge {
	struct ppu_client *client;
	u64 lmem_bytes;
	struct mm_struct *pin_mm;
	u64 pinned_pages;
};

void ppu_quota_init(struct ppu_device *ppu);
struct ppu_client *ppu_client_new(struct ppu_device *ppu);
void ppu_client_put(struct ppu_client *c);

int ppu_charge_bo(struct ppu_device *ppu, struct ppu_charge *ch, struct ppu_client *c,
		  u64 lmem_bytes);
int ppu_charge_pin(struct ppu_charge *ch, u64 npages);
void ppu_charge_unpin(struct ppu_charge *ch);
void ppu_charge_release(struct ppu_charge *ch);

int ppu_quota_fence_begin(struct ppu_client *c);
void ppu_quota_fence_end(struct ppu_client *c);

u32 ppu_quota_channels(struct ppu_device *ppu);
u32 ppu_quota_user_channels(struct ppu_device *ppu);
struct ppu_user *ppu_quota_file_user(struct drm_file *file);
void ppu_quota_debugfs_users(struct ppu_device *ppu, struct seq_file *m);
u32 ppu_quota_sem_pools(void);

#endif /* __PPU_QUOTA_H__ */
