/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU GPU address spaces: one Sv32 page-table tree per open file.
 */
#ifndef __PPU_VM_H__
#define __PPU_VM_H__

#include <linux/types.h>

struct drm_gem_object;
struct ppu_device;
struct ppu_vm;
struct sg_table;

struct ppu_vm *ppu_vm_create(struct ppu_device *ppu);
void ppu_vm_destroy(struct ppu_vm *vm);
dma_addr_t ppu_vm_pt_root(const struct ppu_vm *vm);
bool ppu_vm_range_mapped(struct ppu_vm *vm, u64 va, u64 size);
int ppu_vm_bind_obj(struct ppu_vm *vm, struct drm_gem_object *obj, struct sg_table *sgt,
		    u64 local_pa, u64 bo_offset, u64 size, u64 *va, bool va_alloc);
int ppu_vm_unbind(struct ppu_vm *vm, u64 va, u64 size);
int ppu_vm_unbind_obj(struct ppu_vm *vm, u64 va, u64 size, struct drm_gem_object *obj);
int ppu_vm_map_kernel(struct ppu_vm *vm, u64 va, u64 size, u64 pa, bool sys, bool alias);

#endif /* __PPU_VM_H__ */
