// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * ppu.ko: PCI driver and DRM glue for the PPU.
 *
 * Probe maps the registers, identifies the PPU, sets up the channel table
 * and the interrupt, then registers a render-only DRM device.  Everything is
 * devres/drmm managed; remove unplugs the DRM device first, so that every
 * later hardware access (ioctls, debugfs) fails with -ENODEV instead of
 * touching a device that is going away.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>

#include "uapi/drm/ppu_drm.h"

#include "ppu_bo.h"
#include "ppu_chan.h"
#include "ppu_chan_ioctl.h"
#include "ppu_debugfs.h"
#include "ppu_device.h"
#include "ppu_fault.h"
#include "ppu_doorbell.h"
#include "ppu_gem.h"
#include "ppu_irq.h"
#include "ppu_kchan.h"
#include "ppu_quota.h"
#include "ppu_reset.h"
#include "ppu_runlist.h"
#include "ppu_sem.h"
#include "ppu_vm.h"
#include "ppu_watchdog.h"

#define DRIVER_NAME	"ppu"
#define DRIVER_DESC	"PPU parallel processing unit"
#define DRIVER_DATE	"20261121"
#define DRIVER_MAJOR	0
#define DRIVER_MINOR	1

/* The UAPI feature bits are the CAP_FEATURES bits. */
#define PPU_UAPI_FEATURE(name) \
	static_assert(DRM_PPU_FEATURE_##name == \
		      ((u64)1 << PPU_CAP_FEATURES_##name##__LSB))
PPU_UAPI_FEATURE(COPY_ENGINE);
PPU_UAPI_FEATURE(COMPUTE_ENGINE);
PPU_UAPI_FEATURE(SYS_APERTURE);
PPU_UAPI_FEATURE(SEM_TIMESTAMP);
PPU_UAPI_FEATURE(PRIO_SCHED);
PPU_UAPI_FEATURE(DEV_LAUNCH);
PPU_UAPI_FEATURE(AUTO_PUT);
PPU_UAPI_FEATURE(COMPUTE_COPY);
PPU_UAPI_FEATURE(USER_DOORBELL);
static_assert(DRM_PPU_DOORBELL_SIZE == PPU_USERDB_STRIDE &&
	      DRM_PPU_DOORBELL_GP_PUT == PPU_USERDB_GP_PUT);

#define PPU_UAPI_FEATURES_KNOWN \
	(DRM_PPU_FEATURE_COPY_ENGINE | DRM_PPU_FEATURE_COMPUTE_ENGINE | \
	 DRM_PPU_FEATURE_SYS_APERTURE | DRM_PPU_FEATURE_SEM_TIMESTAMP | \
	 DRM_PPU_FEATURE_PRIO_SCHED | DRM_PPU_FEATURE_DEV_LAUNCH | DRM_PPU_FEATURE_AUTO_PUT | \
	 DRM_PPU_FEATURE_COMPUTE_COPY | DRM_PPU_FEATURE_USER_DOORBELL)

static int ppu_ioctl_get_param(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(drm);
	const struct ppu_caps *caps = &ppu->caps;
	struct drm_ppu_get_param *args = data;

	if (args->pad) {
		drm_dbg(drm, "GET_PARAM: nonzero pad\n");
		return -EINVAL;
	}

	switch (args->param) {
	case DRM_PPU_PARAM_VERSION:
		args->value = caps->version;
		break;
	case DRM_PPU_PARAM_NUM_CHANNELS:
		args->value = caps->num_channels;
		break;
	case DRM_PPU_PARAM_NUM_CU:
		args->value = caps->num_cu;
		break;
	case DRM_PPU_PARAM_NUM_TASK_SLOTS:
		args->value = caps->num_task_slots;
		break;
	case DRM_PPU_PARAM_NUM_PRIORITIES:
		args->value = caps->num_priorities;
		break;
	case DRM_PPU_PARAM_COPY_CHUNK_BYTES:
		args->value = caps->copy_chunk_bytes;
		break;
	case DRM_PPU_PARAM_MEM_DATA_BYTES:
		args->value = caps->mem_data_bytes;
		break;
	case DRM_PPU_PARAM_TLB_ENTRIES:
		args->value = caps->tlb_entries;
		break;
	case DRM_PPU_PARAM_COPY_MAX_READS:
		args->value = caps->copy_max_reads;
		break;
	case DRM_PPU_PARAM_PB_PREFETCH_BEATS:
		args->value = caps->pb_prefetch_beats;
		break;
	case DRM_PPU_PARAM_FEATURES:
		args->value = caps->features & PPU_UAPI_FEATURES_KNOWN;
		if (!ppu_doorbell_supported(ppu))
			args->value &= ~DRM_PPU_FEATURE_USER_DOORBELL;
		break;
	case DRM_PPU_PARAM_CYCLE_COUNTER:
		return ppu_device_read_cycles(ppu, &args->value);
	case DRM_PPU_PARAM_LOCAL_MEM_SIZE:
		args->value = ppu->lmem_size;
		break;
	case DRM_PPU_PARAM_NUM_USER_CHANNELS:
		args->value = ppu_device_user_channels(ppu);
		break;
	case DRM_PPU_PARAM_CU_CONTEXTS:
		args->value = caps->cu_contexts;
		break;
	case DRM_PPU_PARAM_NUM_TASKS:
		args->value = caps->num_tasks;
		break;
	case DRM_PPU_PARAM_MAX_CTA_THREADS:
		args->value = caps->max_cta_threads;
		break;
	case DRM_PPU_PARAM_ICACHE_BYTES:
		args->value = caps->icache_bytes;
		break;
	case DRM_PPU_PARAM_TASK_BLOCK_HEADER_BYTES:
		args->value = PPU_TASK_BLOCK_HEADER_BYTES;
		break;
	case DRM_PPU_PARAM_THREAD_RECORD_BYTES:
		args->value = PPU_THREAD_RECORD_BYTES;
		break;
	case DRM_PPU_PARAM_CHAN_CACHE:
		args->value = caps->chan_cache;
		break;
	default:
		drm_dbg(drm, "GET_PARAM: unknown param %u\n", args->param);
		return -EINVAL;
	}
	return 0;
}

static const struct drm_ioctl_desc ppu_drm_ioctls[] = {
	DRM_IOCTL_DEF_DRV(PPU_GET_PARAM, ppu_ioctl_get_param, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_GEM_CREATE, ppu_ioctl_gem_create, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_GEM_MMAP_OFFSET, ppu_ioctl_gem_mmap_offset, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_VM_BIND, ppu_ioctl_vm_bind, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_VM_UNBIND, ppu_ioctl_vm_unbind, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_CHAN_CREATE, ppu_ioctl_chan_create, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_CHAN_DESTROY, ppu_ioctl_chan_destroy, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_DOORBELL, ppu_ioctl_doorbell, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_CHAN_STATUS, ppu_ioctl_chan_status, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_SEM_POOL_CREATE, ppu_ioctl_sem_pool_create, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_SEM_POOL_DESTROY, ppu_ioctl_sem_pool_destroy, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_SEM_WAIT, ppu_ioctl_sem_wait, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(PPU_SEM_FENCE, ppu_ioctl_sem_fence, DRM_RENDER_ALLOW),
};

/* Every open file gets its own GPU address space. */
static int ppu_drm_open(struct drm_device *drm, struct drm_file *file)
{
	struct ppu_file *pf = kzalloc(sizeof(*pf), GFP_KERNEL_ACCOUNT);

	if (!pf)
		return -ENOMEM;
	pf->client = ppu_client_new(to_ppu(drm));
	if (!pf->client) {
		kfree(pf);
		return -ENOMEM;
	}
	pf->vm = ppu_vm_create(to_ppu(drm));
	if (IS_ERR(pf->vm)) {
		int ret = PTR_ERR(pf->vm);

		ppu_client_put(pf->client);
		kfree(pf);
		return ret;
	}
	pf->pt_root = ppu_vm_pt_root(pf->vm);
	ppu_sem_file_init(pf);
	init_waitqueue_head(&pf->event_wq);
	file->driver_priv = pf;
	return 0;
}

/*
 * After the handles are released: channels (they use the address space),
 * semaphore pools, mappings, page tables, then the file.
 */
static void ppu_drm_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct ppu_file *pf = file->driver_priv;

	ppu_chan_file_close(to_ppu(drm), file);
	ppu_sem_file_close(pf);
	if (pf->vm_kept)
		drm_err(drm, "a channel of the closed file is still on the PPU: its address space is kept\n");
	else
		ppu_vm_destroy(pf->vm);
	/* (BOs it created that live on keep the client) */
	ppu_client_put(pf->client);
	/* the interrupt handler may still be waking its queue (ppu_device_wake()) */
	kfree_rcu(pf, rcu);
}

DEFINE_DRM_GEM_FOPS(ppu_drm_fops);

static const struct drm_driver ppu_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_RENDER | DRIVER_SYNCOBJ,
	.fops = &ppu_drm_fops,
	.open = ppu_drm_open,
	.postclose = ppu_drm_postclose,
	.gem_create_object = ppu_gem_create_object,
	.ioctls = ppu_drm_ioctls,
	.num_ioctls = ARRAY_SIZE(ppu_drm_ioctls),
	.debugfs_init = ppu_debugfs_init,
	.name = DRIVER_NAME,
	.desc = DRIVER_DESC,
	.date = DRIVER_DATE,
	.major = DRIVER_MAJOR,
	.minor = DRIVER_MINOR,
};

static int ppu_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct ppu_device *ppu;
	int ret;

	ppu = devm_drm_dev_alloc(&pdev->dev, &ppu_drm_driver, struct ppu_device, drm);
	if (IS_ERR(ppu))
		return PTR_ERR(ppu);
	ppu->pdev = pdev;
	pci_set_drvdata(pdev, ppu);
	ppu_chan_init(ppu);
	ppu_quota_init(ppu);
	ppu_reset_init(ppu);
	mutex_init(&ppu->dbg_lock);
	mutex_init(&ppu->inv_lock);
	ret = ppu_device_early_init(ppu);
	if (ret)
		return ret;
	ret = ppu_irq_early_init(ppu);
	if (ret)
		return ret;

	ret = pcim_enable_device(pdev);
	if (ret) {
		dev_err(&pdev->dev, "cannot enable the PCI device: %d\n", ret);
		return ret;
	}
	/*
	 * Start from a reset function if it has a reset (FLR): after a
	 * surprise removal or a wedged engine a rebind then gets a fresh PPU.
	 */
	ret = pci_reset_function_locked(pdev);
	if (ret && ret != -ENOTTY)
		dev_warn(&pdev->dev, "function reset failed: %d\n", ret);
	/* The PPU reads its channel table and writes MSIs: bus mastering. */
	pci_set_master(pdev);

	ret = ppu_device_init(ppu);
	if (ret)
		return ret;
	ppu_fault_init(ppu);
	ret = ppu_chan_fault_init(ppu);
	if (ret)
		return ret;
	ret = ppu_sem_init(ppu);
	if (ret)
		return ret;
	ret = ppu_irq_init(ppu);
	if (ret)
		return ret;
	/* before any channel: each one created is listed */
	ret = ppu_runlist_init(ppu);
	if (ret)
		return ret;
	ret = ppu_kchan_init(ppu);
	if (ret) {
		dev_err(&pdev->dev, "cannot set up the driver's channel: %d\n", ret);
		return ret;
	}
	ret = ppu_watchdog_init(ppu);
	if (ret)
		return ret;
	ppu_write(ppu, PPU_REG_SCHED_CTRL, ppu_runlist_sched_ctrl(ppu));

	if (ppu_lost(ppu))
		return -ENODEV;
	ret = drm_dev_register(&ppu->drm, 0);
	if (ret) {
		dev_err(&pdev->dev, "cannot register the DRM device: %d\n", ret);
		return ret;
	}
	return 0;
}

static void ppu_pci_remove(struct pci_dev *pdev)
{
	struct ppu_device *ppu = pci_get_drvdata(pdev);

	/* A lost device may have been unplugged already: not twice. */
	set_bit(PPU_FLAG_REMOVING, &ppu->flags);
	cancel_work_sync(&ppu->lost_work);
	/* From here on drm_dev_enter() fails: no new hardware access. */
	if (!drm_dev_is_unplugged(&ppu->drm))
		drm_dev_unplug(&ppu->drm);
	/* Waiters see the unplug; devres then quiesces and frees the rest. */
	ppu_device_wake_all(ppu);
}

/* Reboot or kexec: the next kernel must not find the PPU reading our memory. */
static void ppu_pci_shutdown(struct pci_dev *pdev)
{
	struct ppu_device *ppu = pci_get_drvdata(pdev);
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return;
	ppu_device_stop(ppu);
	drm_dev_exit(idx);
}

static const struct pci_device_id ppu_pci_ids[] = {
	{ PCI_DEVICE(PPU_PCI_VENDOR_ID, PPU_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, ppu_pci_ids);

static struct pci_driver ppu_pci_driver = {
	.name = DRIVER_NAME,
	.id_table = ppu_pci_ids,
	.probe = ppu_pci_probe,
	.remove = ppu_pci_remove,
	.shutdown = ppu_pci_shutdown,
};
module_pci_driver(ppu_pci_driver);

MODULE_DESCRIPTION(DRIVER_DESC " DRM driver");
MODULE_AUTHOR("The PPU project authors");
MODULE_LICENSE("Dual MIT/GPL");
