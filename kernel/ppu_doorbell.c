// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Channel doorbell pages: submission without a system call.
 *
 * Above its register window BAR0 holds one page per channel whose only
 * register is that channel's doorbell (ppu_regs.def USERDB): a store of
 * GP_PUT there rings the channel and hands the PPU the new GP_PUT.  The
 * page is offered to the channel's owner as a GEM object with no backing
 * store, whose fake mmap offset only the owning file may map (as USERD).
 * It is mapped shared, uncached, never executable.
 *
 * A mapping must not outlive its channel's ownership: the id goes back to
 * the pool and may ring someone else's channel.  So when the channel stops
 * (destroy, or the watchdog stops it) ppu_doorbell_revoke() forbids new
 * mappings and zaps every existing one before the PPU is told to drop the
 * channel; a later access through a stale mapping gets SIGBUS.
 *
 * The page is not put into a mapping at mmap() time but by the first
 * access (ppu_doorbell_fault()), and only while the object is not revoked.
 * Putting it in from the mmap handler raced with the revoke: the new
 * mapping joins the file's address space only after the handler returns,
 * so a zap in between missed it and the page stayed mapped after the
 * channel was destroyed (tests/guest/test_chan.c
 * chan_doorbell_mmap_racing_destroy_has_no_page).  A fault runs on a
 * mapping the zap can see, and @lock orders it against the revoke: either
 * it sees @revoked, or the page it put in is zapped after.
 */
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/version.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_vma_manager.h>

#include "ppu/ppu_encode.h"

#include "ppu_device.h"
#include "ppu_doorbell.h"

/**
 * struct ppu_doorbell - the doorbell page of one channel
 * @base: the GEM object (no backing store; its mmap offset is the handle)
 * @pa: bus address of the page in BAR0
 * @lock: orders faults against ppu_doorbell_revoke()
 * @revoked: set by the revoke: faults put no page in any more
 */
struct ppu_doorbell {
	struct drm_gem_object base;
	phys_addr_t pa;
	struct mutex lock;
	bool revoked;
};

static struct ppu_doorbell *to_ppu_doorbell(struct drm_gem_object *obj)
{
	return container_of(obj, struct ppu_doorbell, base);
}

static void ppu_doorbell_free(struct drm_gem_object *obj)
{
	drm_gem_object_release(obj);
	mutex_destroy(&to_ppu_doorbell(obj)->lock);
	kfree(to_ppu_doorbell(obj));
}

/*
 * The first access through a mapping: the page, unless revoked or the
 * device is gone (its BAR with it): SIGBUS.
 */
static vm_fault_t ppu_doorbell_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct ppu_doorbell *db = to_ppu_doorbell(vma->vm_private_data);
	vm_fault_t ret = VM_FAULT_SIGBUS;
	int idx;

	if (!drm_dev_enter(db->base.dev, &idx))
		return VM_FAULT_SIGBUS;
	mutex_lock(&db->lock);
	if (!db->revoked)
		ret = vmf_insert_pfn(vma, vma->vm_start, PHYS_PFN(db->pa));
	mutex_unlock(&db->lock);
	drm_dev_exit(idx);
	return ret;
}

static int ppu_doorbell_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	unsigned long set = VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP;

	/*
	 * A private mapping would move vm_pgoff to the pfn and escape the
	 * revoke's zap; an executable one has no use.
	 */
	if (!(vma->vm_flags & VM_SHARED) || (vma->vm_flags & VM_EXEC))
		return -EINVAL;
	if (vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_mod(vma, set, VM_MAYEXEC);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~VM_MAYEXEC;
#endif
	vma->vm_page_prot = pgprot_noncached(vm_get_page_prot(vma->vm_flags));
	/* the page comes with the first access (ppu_doorbell_fault) */
	return 0;
}

static const struct vm_operations_struct ppu_doorbell_vm_ops = {
	.fault = ppu_doorbell_fault,
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static const struct drm_gem_object_funcs ppu_doorbell_funcs = {
	.free = ppu_doorbell_free,
	.mmap = ppu_doorbell_mmap,
	.vm_ops = &ppu_doorbell_vm_ops,
};

/**
 * ppu_doorbell_supported() - whether channels get doorbell pages
 * @ppu: the device
 *
 * The PPU must have them (CAP_FEATURES.USER_DOORBELL), BAR0 must hold the
 * page of every channel, and a CPU page must not be larger than one
 * doorbell page, or mapping one channel's page would expose its
 * neighbours'.
 */
bool ppu_doorbell_supported(struct ppu_device *ppu)
{
	return (ppu->caps.features & PPU_FSET(PPU_CAP_FEATURES_USER_DOORBELL, 1)) &&
	       PAGE_SIZE <= PPU_USERDB_STRIDE &&
	       pci_resource_len(ppu->pdev, 0) >= ppu_userdb_offset(ppu->caps.num_channels);
}

/**
 * ppu_doorbell_create() - the doorbell page object of a new channel
 * @ppu: the device (ppu_doorbell_supported())
 * @file: the owner, the only file that may map it
 * @chid: the channel
 *
 * Return: the object (one reference) or an ERR_PTR: -ENOMEM, -ENOSPC.
 */
struct drm_gem_object *ppu_doorbell_create(struct ppu_device *ppu, struct drm_file *file,
					   u32 chid)
{
	struct ppu_doorbell *db;
	int ret;

	db = kzalloc(sizeof(*db), GFP_KERNEL);
	if (!db)
		return ERR_PTR(-ENOMEM);
	db->pa = pci_resource_start(ppu->pdev, 0) + ppu_userdb_offset(chid);
	mutex_init(&db->lock);
	db->base.funcs = &ppu_doorbell_funcs;
	drm_gem_private_object_init(&ppu->drm, &db->base, PAGE_SIZE);
	ret = drm_gem_create_mmap_offset(&db->base);
	if (!ret)
		ret = drm_vma_node_allow(&db->base.vma_node, file);
	if (ret) {
		drm_gem_object_put(&db->base);
		return ERR_PTR(ret);
	}
	return &db->base;
}

/**
 * ppu_doorbell_revoke() - take a channel's doorbell page from its owner
 * @ppu: the device
 * @obj: the doorbell page object
 * @file: the owner
 *
 * No new mapping can be made, and every existing one loses its page for
 * good: after this returns no store of the owner reaches the doorbell.
 */
void ppu_doorbell_revoke(struct ppu_device *ppu, struct drm_gem_object *obj,
			 struct drm_file *file)
{
	struct ppu_doorbell *db = to_ppu_doorbell(obj);

	/* no fault puts the page in from here on ... */
	mutex_lock(&db->lock);
	db->revoked = true;
	mutex_unlock(&db->lock);
	/* ... and the ones that did are in mappings the zap sees */
	drm_vma_node_revoke(&obj->vma_node, file);
	drm_vma_node_unmap(&obj->vma_node, ppu->drm.anon_inode->i_mapping);
}
