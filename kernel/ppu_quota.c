// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Per-client limits and charges.
 *
 * A render node is open to every local user, so no single file may take a
 * shared resource whole: each file may hold at most a share of the user
 * channels and of local memory, and a bounded number of BOs and semaphore
 * pools (module parameters, writable by root at run time; 0 selects the
 * default).  Exceeding one is -EDQUOT.
 *
 * Files are cheap to open, so the channels and the local memory of all the
 * files one user opened are bounded too (per real uid of the opener, per
 * device): without that, one user with a few files takes every channel.
 * Files opened with CAP_SYS_ADMIN are not counted per user: whoever has it
 * can change or lift every limit here anyway, and system services and the
 * test suites open many files as root on purpose.
 *
 * System pages pinned for the PPU (the first bind of a BO pins all of it
 * until it is freed) are charged to the binding process's pinned_vm and
 * checked against RLIMIT_MEMLOCK unless it has CAP_IPC_LOCK, as for other
 * long-term pins; over the limit the bind fails with -ENOMEM.  Kernel
 * memory allocated for a client is charged to its memory cgroup
 * (GFP_KERNEL_ACCOUNT), as are the shmem pages of its BOs.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include <drm/drm_file.h>

#include "ppu_device.h"
#include "ppu_quota.h"

static unsigned int max_channels_per_file;
module_param(max_channels_per_file, uint, 0644);
MODULE_PARM_DESC(max_channels_per_file,
		 "Channels one open file may hold (default 0: three quarters of the user channels, at least 1)");

static unsigned int lmem_mib_per_file;
module_param(lmem_mib_per_file, uint, 0644);
MODULE_PARM_DESC(lmem_mib_per_file,
		 "Local memory, in MiB, the BOs one open file created may hold (default 0: half of local memory)");

static unsigned int max_channels_per_user;
module_param(max_channels_per_user, uint, 0644);
MODULE_PARM_DESC(max_channels_per_user,
		 "Channels all the files one user opened may hold together (default 0: as many as one file may by default)");

static unsigned int lmem_mib_per_user;
module_param(lmem_mib_per_user, uint, 0644);
MODULE_PARM_DESC(lmem_mib_per_user,
		 "Local memory, in MiB, the BOs all the files one user opened created may hold together (default 0: half of local memory)");

static unsigned int max_bos_per_file = 16384;
module_param(max_bos_per_file, uint, 0644);
MODULE_PARM_DESC(max_bos_per_file, "Buffer objects one open file may have created and not yet freed (default 16384)");

static unsigned int max_fences_per_file = 1024;
module_param(max_fences_per_file, uint, 0644);
MODULE_PARM_DESC(max_fences_per_file, "Semaphore fences one open file may have pending (default 1024)");

static unsigned int max_sem_pools_per_file = 256;
module_param(max_sem_pools_per_file, uint, 0644);
MODULE_PARM_DESC(max_sem_pools_per_file, "Semaphore pools one open file may hold (default 256)");

/**
 * ppu_quota_channels() - channels one file may hold
 * @ppu: the device
 *
 * Return: the limit, at least 1.
 */
u32 ppu_quota_channels(struct ppu_device *ppu)
{
	u32 v = READ_ONCE(max_channels_per_file);
	u32 nuser = ppu_device_user_channels(ppu);

	if (!v)
		v = nuser - nuser / 4;
	return max(v, 1u);
}

/**
 * ppu_quota_user_channels() - channels the files of one user may hold together
 * @ppu: the device
 *
 * The default is the default of one file: a user gains nothing by opening
 * more files, and another user always gets the rest.
 *
 * Return: the limit, at least 1.
 */
u32 ppu_quota_user_channels(struct ppu_device *ppu)
{
	u32 v = READ_ONCE(max_channels_per_user);
	u32 nuser = ppu_device_user_channels(ppu);

	if (!v)
		v = nuser - nuser / 4;
	return max(v, 1u);
}

/**
 * ppu_quota_sem_pools() - semaphore pools one file may hold
 *
 * Return: the limit, at least 1.
 */
u32 ppu_quota_sem_pools(void)
{
	return max(READ_ONCE(max_sem_pools_per_file), 1u);
}

static u64 ppu_quota_lmem(struct ppu_device *ppu)
{
	u64 mib = READ_ONCE(lmem_mib_per_file);

	return mib ? mib << 20 : ppu->lmem_size / 2;
}

static u64 ppu_quota_user_lmem(struct ppu_device *ppu)
{
	u64 mib = READ_ONCE(lmem_mib_per_user);

	return mib ? mib << 20 : ppu->lmem_size / 2;
}

/**
 * ppu_quota_init() - the per-user accounts of a new device
 * @ppu: the device
 */
void ppu_quota_init(struct ppu_device *ppu)
{
	spin_lock_init(&ppu->users_lock);
	INIT_LIST_HEAD(&ppu->users);
}

/*
 * The account of the calling process's real uid, which is opening a file:
 * its credentials are the ones the file keeps (f_cred).  The real uid,
 * not the effective one, so that a set-user-ID program counts against the
 * user who ran it.  NULL with CAP_SYS_ADMIN (not counted), an ERR_PTR when
 * no memory is left.
 */
static struct ppu_user *ppu_user_get(struct ppu_device *ppu)
{
	kuid_t uid = current_uid();
	struct ppu_user *u, *fresh;

	/* (noaudit: most openers lack it, and that is no denial to log) */
	if (ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN))
		return NULL;
	/* Allocated before the spinlock is taken; freed if the user has an account. */
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	if (!fresh)
		return ERR_PTR(-ENOMEM);
	spin_lock(&ppu->users_lock);
	list_for_each_entry(u, &ppu->users, link) {
		/* Listed means referenced: the last put unlinks it under the lock. */
		if (uid_eq(u->uid, uid)) {
			refcount_inc(&u->ref);
			spin_unlock(&ppu->users_lock);
			kfree(fresh);
			return u;
		}
	}
	refcount_set(&fresh->ref, 1);
	fresh->ppu = ppu;
	fresh->uid = uid;
	list_add(&fresh->link, &ppu->users);
	spin_unlock(&ppu->users_lock);
	return fresh;
}

/* Puts are rare (a client goes), so the lock is always taken. */
static void ppu_user_put(struct ppu_user *u)
{
	struct ppu_device *ppu;
	bool last;

	if (!u)
		return;
	ppu = u->ppu;
	spin_lock(&ppu->users_lock);
	last = refcount_dec_and_test(&u->ref);
	if (last)
		list_del(&u->link);
	spin_unlock(&ppu->users_lock);
	if (last) {
		/* Every BO holds its client, every client its user: nothing is charged. */
		WARN_ON(atomic64_read(&u->lmem_bytes));
		kfree(u);
	}
}

/**
 * ppu_client_new() - the charges of a file being opened
 * @ppu: the device
 *
 * Called by the opener: the file is charged to its user.
 *
 * Return: the client (one reference) or NULL.
 */
struct ppu_client *ppu_client_new(struct ppu_device *ppu)
{
	struct ppu_client *c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);

	if (!c)
		return NULL;
	c->user = ppu_user_get(ppu);
	if (IS_ERR(c->user)) {
		kfree(c);
		return NULL;
	}
	kref_init(&c->ref);
	return c;
}

static void ppu_client_release(struct kref *ref)
{
	struct ppu_client *c = container_of(ref, struct ppu_client, ref);

	ppu_user_put(c->user);
	kfree(c);
}

/**
 * ppu_quota_file_user() - the account a file's channels count against
 * @file: an open file of the device
 *
 * Return: its user, or NULL when the file is not counted per user.
 */
struct ppu_user *ppu_quota_file_user(struct drm_file *file)
{
	struct ppu_file *pf = file->driver_priv;

	return pf->client->user;
}

/**
 * ppu_quota_debugfs_users() - the per-user accounts, for debugfs "users"
 * @ppu: the device
 * @m: the seq_file
 */
void ppu_quota_debugfs_users(struct ppu_device *ppu, struct seq_file *m)
{
	struct ppu_user *u;

	seq_printf(m, "channels per user %u, local memory per user %llu bytes\n",
		   ppu_quota_user_channels(ppu), ppu_quota_user_lmem(ppu));
	seq_puts(m, "uid clients lmem_bytes\n");
	spin_lock(&ppu->users_lock);
	list_for_each_entry(u, &ppu->users, link)
		seq_printf(m, "%u %u %lld\n", from_kuid_munged(&init_user_ns, u->uid),
			   refcount_read(&u->ref), (long long)atomic64_read(&u->lmem_bytes));
	spin_unlock(&ppu->users_lock);
}

/**
 * ppu_client_put() - drop a reference
 * @c: the client, or NULL
 */
void ppu_client_put(struct ppu_client *c)
{
	if (c)
		kref_put(&c->ref, ppu_client_release);
}

/**
 * ppu_charge_bo() - charge a new BO to the file that creates it
 * @ppu: the device
 * @ch: the BO's charge, zeroed
 * @c: the creating file's client
 * @lmem_bytes: the BO's size if it is in local memory, else 0
 *
 * Return: 0, or -EDQUOT when the file holds as many BOs or as much local
 * memory as it may, or its user as much local memory (nothing is charged
 * then).
 */
int ppu_charge_bo(struct ppu_device *ppu, struct ppu_charge *ch, struct ppu_client *c,
		  u64 lmem_bytes)
{
	struct ppu_user *u = c->user;

	if (atomic_inc_return(&c->bos) > max(READ_ONCE(max_bos_per_file), 1u))
		goto err_bos;
	if (lmem_bytes &&
	    atomic64_add_return(lmem_bytes, &c->lmem_bytes) > ppu_quota_lmem(ppu))
		goto err_lmem;
	if (lmem_bytes && u &&
	    atomic64_add_return(lmem_bytes, &u->lmem_bytes) > ppu_quota_user_lmem(ppu))
		goto err_user_lmem;
	kref_get(&c->ref);
	ch->client = c;
	ch->lmem_bytes = lmem_bytes;
	return 0;

err_user_lmem:
	atomic64_sub(lmem_bytes, &u->lmem_bytes);
err_lmem:
	atomic64_sub(lmem_bytes, &c->lmem_bytes);
err_bos:
	atomic_dec(&c->bos);
	return -EDQUOT;
}

/**
 * ppu_quota_fence_begin() - count a new pending semaphore fence
 * @c: the creating file's client
 *
 * Return: 0, or -EDQUOT when the file has as many pending as it may.
 */
int ppu_quota_fence_begin(struct ppu_client *c)
{
	if (atomic_inc_return(&c->fences) > max(READ_ONCE(max_fences_per_file), 1u)) {
		atomic_dec(&c->fences);
		return -EDQUOT;
	}
	return 0;
}

/**
 * ppu_quota_fence_end() - a fence counted by ppu_quota_fence_begin() signalled
 * @c: the client
 */
void ppu_quota_fence_end(struct ppu_client *c)
{
	atomic_dec(&c->fences);
}

/**
 * ppu_charge_pin() - charge pinning a BO's pages to the calling process
 * @ch: the BO's charge, with nothing pinned yet
 * @npages: pages about to be pinned
 *
 * Return: 0, or -ENOMEM when the process's pinned pages would exceed
 * RLIMIT_MEMLOCK and it lacks CAP_IPC_LOCK.
 */
int ppu_charge_pin(struct ppu_charge *ch, u64 npages)
{
	struct mm_struct *mm = current->mm;
	u64 limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;

	if (WARN_ON_ONCE(!mm || ch->pin_mm))
		return -EINVAL;
	if ((u64)atomic64_add_return(npages, &mm->pinned_vm) > limit &&
	    !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return -ENOMEM;
	}
	mmgrab(mm);
	ch->pin_mm = mm;
	ch->pinned_pages = npages;
	return 0;
}

/**
 * ppu_charge_unpin() - give back the pin charge
 * @ch: the charge
 */
void ppu_charge_unpin(struct ppu_charge *ch)
{
	if (ch->pin_mm) {
		atomic64_sub(ch->pinned_pages, &ch->pin_mm->pinned_vm);
		mmdrop(ch->pin_mm);
		ch->pin_mm = NULL;
		ch->pinned_pages = 0;
	}
}

/**
 * ppu_charge_release() - give back everything a freed BO was charged with
 * @ch: the charge
 */
void ppu_charge_release(struct ppu_charge *ch)
{
	ppu_charge_unpin(ch);
	if (ch->client) {
		if (ch->client->user)
			atomic64_sub(ch->lmem_bytes, &ch->client->user->lmem_bytes);
		atomic64_sub(ch->lmem_bytes, &ch->client->lmem_bytes);
		atomic_dec(&ch->client->bos);
		ppu_client_put(ch->client);
		ch->client = NULL;
	}
}
