// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The channel ioctls: CHAN_CREATE, CHAN_DESTROY, DOORBELL, CHAN_STATUS.
 *
 * What a client may ask for is decided here: the flags, the priority and
 * the CAP_SYS_NICE rule, the compute fields, a ring that lies in one
 * mapping of the file's address space.  The channels themselves (ids,
 * instance blocks, taking them off the PPU) are ppu_chan.c's.
 */
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/minmax.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "uapi/drm/ppu_drm.h"
#include "ppu/ppu_encode.h"

#include "ppu_chan.h"
#include "ppu_chan_ioctl.h"
#include "ppu_device.h"
#include "ppu_vm.h"

/* The priority CHAN_CREATE gives the channel. */
static u32 ppu_chan_create_prio(const struct drm_ppu_chan_create *args)
{
	return args->flags & DRM_PPU_CHAN_CREATE_PRIORITY ? args->priority :
	       DRM_PPU_CHAN_PRIORITY_NORMAL;
}

/* The highest priority a launch chain of the channel reaches. */
static u32 ppu_chan_create_top(const struct drm_ppu_chan_create *args)
{
	return ppu_chan_create_prio(args) + max(args->max_depth, 1u) - 1;
}

/* The compute fields: only on compute channels, and a chain that fits. */
static int ppu_chan_compute_check(struct drm_device *drm,
				  const struct drm_ppu_chan_create *args)
{
	if (!(args->flags & DRM_PPU_CHAN_CREATE_COMPUTE)) {
		if (args->prio_min || args->max_depth) {
			drm_dbg(drm, "CHAN_CREATE: compute fields on a copy channel\n");
			return -EINVAL;
		}
		return 0;
	}
	if (args->prio_min > ppu_chan_create_prio(args)) {
		drm_dbg(drm, "CHAN_CREATE: prio_min %u above the priority %u\n", args->prio_min,
			ppu_chan_create_prio(args));
		return -EINVAL;
	}
	if (args->max_depth > DRM_PPU_MAX_NESTING_DEPTH ||
	    ppu_chan_create_top(args) > DRM_PPU_CHAN_PRIORITY_MAX) {
		drm_dbg(drm, "CHAN_CREATE: max_depth %u from priority %u passes %u\n",
			args->max_depth, ppu_chan_create_prio(args), DRM_PPU_CHAN_PRIORITY_MAX);
		return -EINVAL;
	}
	return 0;
}

static int ppu_chan_create_check(struct drm_device *drm, struct drm_file *file,
				 const struct drm_ppu_chan_create *args)
{
	struct ppu_file *pf = file->driver_priv;
	u64 ring_bytes;
	int ret;

	if (args->flags & ~DRM_PPU_CHAN_CREATE_FLAGS) {
		drm_dbg(drm, "CHAN_CREATE: unknown flags %#x\n", args->flags);
		return -EINVAL;
	}
	if (!(args->flags & DRM_PPU_CHAN_CREATE_PRIORITY) && args->priority) {
		drm_dbg(drm, "CHAN_CREATE: priority without the PRIORITY flag\n");
		return -EINVAL;
	}
	if (args->priority > DRM_PPU_CHAN_PRIORITY_MAX) {
		drm_dbg(drm, "CHAN_CREATE: priority %u above %u\n", args->priority,
			DRM_PPU_CHAN_PRIORITY_MAX);
		return -EINVAL;
	}
	if (args->log2_entries < DRM_PPU_CHAN_LOG2_ENTRIES_MIN ||
	    args->log2_entries > DRM_PPU_CHAN_LOG2_ENTRIES_MAX) {
		drm_dbg(drm, "CHAN_CREATE: bad log2_entries %u\n", args->log2_entries);
		return -EINVAL;
	}
	ring_bytes = (u64)PPU_GP_ENTRY_BYTES << args->log2_entries;
	if (!IS_ALIGNED(args->gpfifo_va, PPU_GP_ENTRY_BYTES) ||
	    !ppu_vm_range_mapped(pf->vm, args->gpfifo_va, ring_bytes)) {
		drm_dbg(drm, "CHAN_CREATE: ring %#llx+%#llx not in one mapping\n",
			args->gpfifo_va, ring_bytes);
		return -EINVAL;
	}
	ret = ppu_chan_compute_check(drm, args);
	if (ret)
		return ret;
	if ((args->flags & DRM_PPU_CHAN_CREATE_COMPUTE) &&
	    !PPU_FGET(PPU_CAP_FEATURES_COMPUTE_ENGINE, to_ppu(drm)->caps.features)) {
		drm_dbg(drm, "CHAN_CREATE: no compute engine\n");
		return -ENODEV;
	}
	if ((args->flags & DRM_PPU_CHAN_CREATE_AUTO_PUT) &&
	    !PPU_FGET(PPU_CAP_FEATURES_AUTO_PUT, to_ppu(drm)->caps.features)) {
		drm_dbg(drm, "CHAN_CREATE: no AUTO_PUT rings\n");
		return -ENODEV;
	}
	/* Children climb from the channel's priority: the chain's top counts. */
	if (ppu_chan_create_top(args) > DRM_PPU_CHAN_PRIORITY_NORMAL && !capable(CAP_SYS_NICE)) {
		drm_dbg(drm, "CHAN_CREATE: priority %u (chain top %u) needs CAP_SYS_NICE\n",
			ppu_chan_create_prio(args), ppu_chan_create_top(args));
		return -EPERM;
	}
	return 0;
}

/**
 * ppu_ioctl_chan_create() - DRM_IOCTL_PPU_CHAN_CREATE
 * @drm: the DRM device
 * @data: &struct drm_ppu_chan_create
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_chan_create(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(drm);
	struct ppu_file *pf = file->driver_priv;
	struct drm_ppu_chan_create *args = data;
	struct ppu_inst_desc desc = {};
	struct ppu_chan *chan;
	int ret;

	ret = ppu_chan_create_check(drm, file, args);
	if (ret)
		return ret;

	desc.gpfifo_va = args->gpfifo_va;
	desc.log2_entries = args->log2_entries;
	desc.auto_put = !!(args->flags & DRM_PPU_CHAN_CREATE_AUTO_PUT);
	desc.pt_root_pa = pf->pt_root;
	desc.pt_root_sys = 1;
	desc.engine = args->flags & DRM_PPU_CHAN_CREATE_COMPUTE ?
		      PPU_ENGINE_TYPE_COMPUTE : PPU_ENGINE_TYPE_COPY;
	desc.prio_max = ppu_chan_create_prio(args);
	if (args->flags & DRM_PPU_CHAN_CREATE_COMPUTE) {
		desc.prio_min = args->prio_min;
		desc.max_depth = max(args->max_depth, 1u);
	} else {
		desc.prio_min = desc.prio_max;
	}
	desc.timeslice = 0;
	chan = ppu_chan_create(ppu, file, &desc, U32_MAX, args);
	return PTR_ERR_OR_ZERO(chan);
}

/**
 * ppu_ioctl_chan_destroy() - DRM_IOCTL_PPU_CHAN_DESTROY
 * @drm: the DRM device
 * @data: &struct drm_ppu_chan_destroy
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_chan_destroy(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(drm);
	struct drm_ppu_chan_destroy *args = data;

	if (args->pad) {
		drm_dbg(drm, "CHAN_DESTROY: nonzero pad\n");
		return -EINVAL;
	}
	return ppu_chan_destroy_id(ppu, file, args->chid);
}

/**
 * ppu_ioctl_doorbell() - DRM_IOCTL_PPU_DOORBELL
 * @drm: the DRM device
 * @data: &struct drm_ppu_doorbell
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_doorbell(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(drm);
	struct drm_ppu_doorbell *args = data;

	if (args->flags) {
		drm_dbg(drm, "DOORBELL: nonzero flags\n");
		return -EINVAL;
	}
	return ppu_chan_doorbell(ppu, file, args->chid);
}

/**
 * ppu_ioctl_chan_status() - DRM_IOCTL_PPU_CHAN_STATUS
 * @drm: the DRM device
 * @data: &struct drm_ppu_chan_status
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_chan_status(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(drm);
	struct drm_ppu_chan_status *args = data;

	if (args->pad) {
		drm_dbg(drm, "CHAN_STATUS: nonzero pad\n");
		return -EINVAL;
	}
	return ppu_chan_status(ppu, file, args);
}
