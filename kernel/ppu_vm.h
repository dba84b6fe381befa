/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU GPU address spaces: one Sv32 page-table tree per open file.
 */
#ifndef __PPU_VM_H__
#define __PPU_VM_H__

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct ppu_device;
struct ppu_vm;

/**
 * struct ppu_file - per open file state (&drm_file.driver_priv)
 * @vm: the file's GPU address space
 * @pt_root: bus address of its Sv32 root table (4 KiB aligned, host RAM:
 *           system aperture), for the PT_ROOT word of this file's channels
 * @client: what the file has created, for its limits (ppu_quota.h)
 * @pools_lock: protects @pools and @npools
 * @pools: the file's semaphore pools by id
 * @npools: how many, including ones being created
 * @vm_kept: a channel of the file could not be taken off the PPU, which may
 *           still walk @vm: at close the address space is kept (leaked),
 *           never freed
 */
struct ppu_file {
	struct ppu_vm *vm;
	dma_addr_t pt_root;
	struct ppu_client *client;
	struct mutex pools_lock;
	struct xarray pools;
	u32 npools;
	bool vm_kept;
	wait_queue_head_t event_wq;
	struct rcu_head rcu;
};

struct ppu_vm *ppu_vm_create(struct ppu_device *ppu);
void ppu_vm_destroy(struct ppu_vm *vm);
dma_addr_t ppu_vm_pt_root(const struct ppu_vm *vm);
bool ppu_vm_range_mapped(struct ppu_vm *vm, u64 va, u64 size);
int ppu_vm_bind_obj(struct ppu_vm *vm, struct drm_gem_object *obj, u64 bo_offset,
		    u64 size, u64 *va, bool va_alloc);
int ppu_vm_unbind(struct ppu_vm *vm, u64 va, u64 size);
int ppu_vm_unbind_obj(struct ppu_vm *vm, u64 va, u64 size, struct drm_gem_object *obj);
int ppu_vm_map_kernel(struct ppu_vm *vm, u64 va, u64 size, u64 pa, bool sys, bool alias);

int ppu_ioctl_vm_bind(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_vm_unbind(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* __PPU_VM_H__ */
