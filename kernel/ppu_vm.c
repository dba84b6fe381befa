// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU GPU address spaces.
 *
 * Each open file owns one: a two-level RISC-V Sv32 page-table tree in
 * DMA-coherent host memory (the PPU walks it through the system aperture,
 * so every pointer and leaf PTE has SYS set) and a drm_mm allocator over
 * the user range [DRM_PPU_VA_START, DRM_PPU_VA_END).  Level-0 tables are
 * allocated when a bind first needs them and kept until the address space
 * is destroyed.  Leaves are R/W/X/U with A and D preset (the PPU does not
 * update them): compute units fetch their kernels' code from ordinary BOs.
 *
 * A mapping holds a reference on its BO; the pages of a system-memory BO
 * are pinned and DMA-mapped by the first bind and stay so until the BO is
 * freed; a local-memory BO is one contiguous range (leaves without SYS).
 * The driver's own address space (kernel channel) also maps physical
 * ranges directly, without a BO.  Unbind clears the leaves and
 * invalidates the whole TLB (one register write), and with the hardware's
 * handshake (CAP_FEATURES.INV_DRAIN) waits until MMU_STATUS.INV_PENDING
 * is clear, i.e. until no engine can still access the old pages, before the
 * BO reference goes: an engine that translated before the invalidate (a
 * copy under way holds its page translations) would otherwise write into
 * pages the kernel may already have given to someone else.  If the PPU
 * does not confirm in time, the BOs and tables are kept, never freed.
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/moduleparam.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_mm.h>
#include <drm/drm_print.h>

#include "uapi/drm/ppu_drm.h"
#include "ppu/ppu_encode.h"

#include "ppu_device.h"
#include "ppu_vm.h"

#define PPU_PT_ENTRIES		1024	/* 4 KiB / 4-byte PTE, both levels */
#define PPU_PT_BYTES		(PPU_PT_ENTRIES * PPU_PTE_BYTES)
#define PPU_VA_PAGE_SHIFT	12
#define PPU_VA_L1_SHIFT		22

/* GPU pages are CPU pages: one DMA page per PTE. */
static_assert(PAGE_SIZE == DRM_PPU_PAGE_SIZE);
static_assert(PPU_PT_BYTES == DRM_PPU_PAGE_SIZE);

/*
 * Leaf permissions: engine accesses are user accesses, read and write, and
 * instruction fetches of the compute units (EXEC needs X).
 */
#define PPU_VM_LEAF_PERMS	(PPU_PTE_PERM_R | PPU_PTE_PERM_W | PPU_PTE_PERM_X | \
				 PPU_PTE_PERM_U)

/**
 * struct ppu_pt - one page table (either level)
 * @cpu: its entries, little endian as the PPU reads them
 * @dma: its bus address
 */
struct ppu_pt {
	__le32 *cpu;
	dma_addr_t dma;
};

/**
 * struct ppu_vm - a GPU address space
 * @ppu: the device
 * @mm: the VA allocator, one node per mapping
 * @root: the level-1 (root) table
 * @l0: the level-0 tables, indexed by VPN1; @cpu NULL when absent
 * @tlb_dirty: a leaf or a level-0 table was ever linked: the TLB (or the
 *	MMU's cached level-1 pointer) may hold entries
 */
struct ppu_vm {
	struct ppu_device *ppu;
	/** @lock: protects everything below. */
	struct mutex lock;
	struct drm_mm mm;
	struct ppu_pt root;
	struct ppu_pt l0[PPU_PT_ENTRIES];
	bool tlb_dirty;
};

/**
 * struct ppu_vm_mapping - one bound BO range
 * @node: its VA range in &ppu_vm.mm
 * @obj: the BO (a reference)
 */
struct ppu_vm_mapping {
	struct drm_mm_node node;
	struct drm_gem_object *obj;
};

static struct device *ppu_vm_dev(struct ppu_vm *vm)
{
	return vm->ppu->drm.dev;
}

static int ppu_pt_alloc(struct ppu_vm *vm, struct ppu_pt *pt)
{
	/* Zeroed (every entry invalid), page aligned. */
	pt->cpu = dma_alloc_coherent(ppu_vm_dev(vm), PPU_PT_BYTES, &pt->dma,
				     GFP_KERNEL);
	return pt->cpu ? 0 : -ENOMEM;
}

static void ppu_pt_free(struct ppu_vm *vm, struct ppu_pt *pt)
{
	if (pt->cpu)
		dma_free_coherent(ppu_vm_dev(vm), PPU_PT_BYTES, pt->cpu, pt->dma);
	pt->cpu = NULL;
}

static unsigned int inv_timeout_ms = 2000;
module_param(inv_timeout_ms, uint, 0644);
MODULE_PARM_DESC(inv_timeout_ms,
		 "How long to wait for the PPU to confirm an MMU invalidate before keeping the unmapped pages forever (default 2000)");

/*
 * Drop every TLB entry (the PPU may have cached leaves we changed) and wait
 * for the handshake.  Return: 0 once nothing can use the old leaves, or
 * -ETIMEDOUT: then the caller must not free what they pointed to.
 */
static int ppu_vm_invalidate(struct ppu_vm *vm)
{
	struct ppu_device *ppu = vm->ppu;
	unsigned long deadline;
	int idx, ret = 0;

	if (!vm->tlb_dirty)
		return 0;
	/* An unplugged device has no TLB to worry about. */
	if (!drm_dev_enter(&ppu->drm, &idx))
		return 0;
	mutex_lock(&ppu->inv_lock);
	ppu_write(ppu, PPU_REG_MMU_CTRL, PPU_FSET(PPU_MMU_CTRL_INVALIDATE, 1));
	if (PPU_FGET(PPU_CAP_FEATURES_INV_DRAIN, ppu->caps.features)) {
		deadline = jiffies + msecs_to_jiffies(READ_ONCE(inv_timeout_ms));
		for (;;) {
			u32 st = ppu_read(ppu, PPU_REG_MMU_STATUS);

			if (!PPU_FGET(PPU_MMU_STATUS_INV_PENDING, st))
				break;
			/* all-ones: the device is gone, nothing accesses memory */
			if (st == ~0u)
				break;
			if (time_after(jiffies, deadline)) {
				ret = -ETIMEDOUT;
				break;
			}
			usleep_range(50, 200);
		}
	}
	mutex_unlock(&ppu->inv_lock);
	drm_dev_exit(idx);
	if (ret)
		drm_err_ratelimited(&ppu->drm,
				    "MMU invalidate not confirmed in %u ms: unmapped pages are kept\n",
				    READ_ONCE(inv_timeout_ms));
	return ret;
}

/**
 * ppu_vm_create() - a new, empty address space
 * @ppu: the device
 *
 * Return: the address space or an ERR_PTR.
 */
struct ppu_vm *ppu_vm_create(struct ppu_device *ppu)
{
	struct ppu_vm *vm = kvzalloc(sizeof(*vm), GFP_KERNEL_ACCOUNT);
	int ret;

	if (!vm)
		return ERR_PTR(-ENOMEM);
	vm->ppu = ppu;
	ret = ppu_pt_alloc(vm, &vm->root);
	if (ret) {
		kvfree(vm);
		return ERR_PTR(ret);
	}
	mutex_init(&vm->lock);
	drm_mm_init(&vm->mm, DRM_PPU_VA_START, DRM_PPU_VA_END - DRM_PPU_VA_START);
	return vm;
}

/**
 * ppu_vm_pt_root() - bus address of the root page table
 * @vm: the address space
 *
 * Return: the 4 KiB aligned address, in host RAM (system aperture).
 */
dma_addr_t ppu_vm_pt_root(const struct ppu_vm *vm)
{
	return vm->root.dma;
}

static void ppu_vm_clear(struct ppu_vm *vm, u64 va, u64 size)
{
	u64 end = va + size;

	for (; va < end; va += DRM_PPU_PAGE_SIZE) {
		struct ppu_pt *pt = &vm->l0[va >> PPU_VA_L1_SHIFT];

		pt->cpu[(va >> PPU_VA_PAGE_SHIFT) % PPU_PT_ENTRIES] = 0;
	}
}

/* Every level-0 table that [va, va + size) needs exists and is linked. */
static int ppu_vm_alloc_tables(struct ppu_vm *vm, u64 va, u64 size)
{
	u32 first = va >> PPU_VA_L1_SHIFT;
	u32 last = (va + size - 1) >> PPU_VA_L1_SHIFT;
	u32 i;
	int ret;

	for (i = first; i <= last; i++) {
		if (vm->l0[i].cpu)
			continue;
		ret = ppu_pt_alloc(vm, &vm->l0[i]);
		if (ret)
			return ret;
		/* The table is complete (zeroed) before the pointer is seen. */
		dma_wmb();
		WRITE_ONCE(vm->root.cpu[i], cpu_to_le32(ppu_pte_table(vm->l0[i].dma, 1)));
		/*
		 * The MMU caches the last level-1 pointer it walked through,
		 * even to a leaf that is not there: the tables may only be
		 * freed after an invalidate.
		 */
		vm->tlb_dirty = true;
	}
	return 0;
}

/* Write the leaves of [va, va + size) for the BO's pages from bo_offset. */
static void ppu_vm_map_sgt(struct ppu_vm *vm, struct sg_table *sgt, u64 va,
			   u64 bo_offset, u64 size)
{
	unsigned long npages = size >> PPU_VA_PAGE_SHIFT;
	struct sg_dma_page_iter it;

	for_each_sgtable_dma_page(sgt, &it, bo_offset >> PPU_VA_PAGE_SHIFT) {
		struct ppu_pt *pt = &vm->l0[va >> PPU_VA_L1_SHIFT];
		dma_addr_t pa = sg_page_iter_dma_address(&it);

		WRITE_ONCE(pt->cpu[(va >> PPU_VA_PAGE_SHIFT) % PPU_PT_ENTRIES],
			   cpu_to_le32(ppu_pte_leaf(pa, 1, PPU_VM_LEAF_PERMS)));
		va += DRM_PPU_PAGE_SIZE;
		if (!--npages)
			break;
	}
	vm->tlb_dirty = true;
}

/*
 * Leaves of [va, va + size) for physical pages from @pa of one aperture:
 * consecutive pages, or every leaf on the page at @pa with @alias.
 */
static void ppu_vm_map_linear(struct ppu_vm *vm, u64 va, u64 size, u64 pa, bool sys,
			      bool alias)
{
	u64 end = va + size;

	for (; va < end; va += DRM_PPU_PAGE_SIZE) {
		struct ppu_pt *pt = &vm->l0[va >> PPU_VA_L1_SHIFT];

		WRITE_ONCE(pt->cpu[(va >> PPU_VA_PAGE_SHIFT) % PPU_PT_ENTRIES],
			   cpu_to_le32(ppu_pte_leaf(pa, sys, PPU_VM_LEAF_PERMS)));
		if (!alias)
			pa += DRM_PPU_PAGE_SIZE;
	}
	vm->tlb_dirty = true;
}

static void ppu_vm_remove(struct ppu_vm *vm, struct ppu_vm_mapping *m)
{
	ppu_vm_clear(vm, m->node.start, m->node.size);
	drm_mm_remove_node(&m->node);
}

/**
 * ppu_vm_destroy() - unmap everything and free the address space
 * @vm: the address space (NULL is fine)
 *
 * Called when the file is closed: no channel uses the tables any more.
 */
void ppu_vm_destroy(struct ppu_vm *vm)
{
	struct drm_mm_node *node, *next;
	u32 i;

	if (!vm)
		return;
	/*
	 * Stale TLB entries must not outlive the pages they point to; if the
	 * PPU cannot confirm that, everything is kept (leaked), never freed.
	 */
	if (ppu_vm_invalidate(vm))
		return;
	drm_mm_for_each_node_safe(node, next, &vm->mm) {
		struct ppu_vm_mapping *m = container_of(node, struct ppu_vm_mapping, node);

		drm_mm_remove_node(node);
		if (m->obj)
			drm_gem_object_put(m->obj);
		kfree(m);
	}
	drm_mm_takedown(&vm->mm);
	for (i = 0; i < PPU_PT_ENTRIES; i++)
		ppu_pt_free(vm, &vm->l0[i]);
	ppu_pt_free(vm, &vm->root);
	mutex_destroy(&vm->lock);
	kvfree(vm);
}

/*
 * Reserves [*va, *va + size) (or finds a free range with @va_alloc) and
 * makes the level-0 tables it needs; the caller writes the leaves.  Called
 * with vm->lock held.
 */
static int ppu_vm_insert(struct ppu_vm *vm, struct ppu_vm_mapping *m, u64 *va,
			 u64 size, bool va_alloc)
{
	int ret;

	if (va_alloc) {
		ret = drm_mm_insert_node_in_range(&vm->mm, &m->node, size,
						  DRM_PPU_PAGE_SIZE, 0,
						  DRM_PPU_VA_START, DRM_PPU_VA_END,
						  DRM_MM_INSERT_BEST);
	} else {
		m->node.start = *va;
		m->node.size = size;
		ret = drm_mm_reserve_node(&vm->mm, &m->node);
	}
	if (ret)
		return ret;
	ret = ppu_vm_alloc_tables(vm, m->node.start, m->node.size);
	if (ret) {
		drm_mm_remove_node(&m->node);
		return ret;
	}
	*va = m->node.start;
	return 0;
}

/**
 * ppu_vm_bind_obj() - map a BO range into an address space
 * @vm: the address space
 * @obj: the BO; on success its reference belongs to the mapping
 * @sgt: the BO's pinned, DMA-mapped pages (system memory); NULL for a
 *       local BO, which is one contiguous range at @local_pa
 * @local_pa: where a local BO starts in local memory (without @sgt)
 * @bo_offset: page-aligned offset into the BO
 * @size: page-aligned bytes, inside the BO
 * @va: in, the address (ignored with @va_alloc); out, the address used
 * @va_alloc: choose a free address
 *
 * The caller resolves the BO's backing (ppu_bo_bind()), so that the page
 * tables know nothing of the kinds of BO.
 *
 * Return: 0, -ENOSPC when the range is taken or no range is free, -ENOMEM.
 */
int ppu_vm_bind_obj(struct ppu_vm *vm, struct drm_gem_object *obj, struct sg_table *sgt,
		    u64 local_pa, u64 bo_offset, u64 size, u64 *va, bool va_alloc)
{
	struct ppu_vm_mapping *m;
	int ret;

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;

	mutex_lock(&vm->lock);
	ret = ppu_vm_insert(vm, m, va, size, va_alloc);
	if (ret) {
		mutex_unlock(&vm->lock);
		kfree(m);
		return ret;
	}
	if (sgt)
		ppu_vm_map_sgt(vm, sgt, *va, bo_offset, size);
	else
		ppu_vm_map_linear(vm, *va, size, local_pa + bo_offset, false, false);
	m->obj = obj;
	mutex_unlock(&vm->lock);
	return 0;
}

/**
 * ppu_vm_map_kernel() - map physical memory into a kernel address space
 * @vm: an address space of the driver's own (no file)
 * @va: page-aligned address inside [DRM_PPU_VA_START, DRM_PPU_VA_END)
 * @size: page-aligned bytes
 * @pa: page-aligned physical address (bus address for system memory)
 * @sys: system aperture (host RAM) rather than local memory
 * @alias: map every page of the range to the single page at @pa
 *
 * The mapping lives until the address space is destroyed.
 *
 * Return: 0, -ENOSPC when the range is taken, -ENOMEM.
 */
int ppu_vm_map_kernel(struct ppu_vm *vm, u64 va, u64 size, u64 pa, bool sys, bool alias)
{
	struct ppu_vm_mapping *m = kzalloc(sizeof(*m), GFP_KERNEL);
	int ret;

	if (!m)
		return -ENOMEM;
	mutex_lock(&vm->lock);
	ret = ppu_vm_insert(vm, m, &va, size, false);
	if (!ret)
		ppu_vm_map_linear(vm, va, size, pa, sys, alias);
	mutex_unlock(&vm->lock);
	if (ret)
		kfree(m);
	return ret;
}

/**
 * ppu_vm_unbind() - remove the mapping that starts at @va
 * @vm: the address space
 * @va: the start of the mapping
 * @size: its size
 *
 * The leaves are cleared and the TLB invalidated before it returns.
 *
 * Return: 0, -ENOENT when no mapping starts at @va, -EINVAL when its size
 * is not @size.
 */
int ppu_vm_unbind(struct ppu_vm *vm, u64 va, u64 size)
{
	return ppu_vm_unbind_obj(vm, va, size, NULL);
}

/**
 * ppu_vm_unbind_obj() - ppu_vm_unbind() of a mapping of @obj only
 * @vm: the address space
 * @va: the start of the mapping
 * @size: its size
 * @obj: the BO the mapping must map (NULL: any)
 *
 * For the driver's own mappings (semaphore pools), which a client may have
 * unbound itself and replaced by one of its own at the same address.
 *
 * Return: as ppu_vm_unbind(), -ENOENT also when the mapping maps another BO.
 */
int ppu_vm_unbind_obj(struct ppu_vm *vm, u64 va, u64 size, struct drm_gem_object *obj)
{
	struct ppu_vm_mapping *m = NULL;
	struct drm_mm_node *node;
	int ret = -ENOENT;

	if (va < DRM_PPU_VA_START || va >= DRM_PPU_VA_END)
		return -ENOENT;

	mutex_lock(&vm->lock);
	drm_mm_for_each_node_in_range(node, &vm->mm, va, va + 1) {
		if (node->start != va)
			break;
		if (node->size != size) {
			ret = -EINVAL;
			break;
		}
		m = container_of(node, struct ppu_vm_mapping, node);
		if (obj && m->obj != obj) {
			m = NULL;
			break;
		}
		ppu_vm_remove(vm, m);
		/*
		 * The leaves are gone; now the PPU must forget them too, and
		 * finish what it translated before (the handshake).
		 */
		if (ppu_vm_invalidate(vm))
			m = NULL;	/* kept: the BO reference is never dropped */
		ret = 0;
		break;
	}
	mutex_unlock(&vm->lock);

	if (m) {
		if (m->obj)
			drm_gem_object_put(m->obj);
		kfree(m);
	}
	return ret;
}

/**
 * ppu_vm_range_mapped() - is a GPU address range inside one mapping?
 * @vm: the address space
 * @va: start of the range
 * @size: its size in bytes, nonzero
 *
 * A snapshot: the mapping may be removed later (the PPU then faults).
 *
 * Return: true when [@va, @va + @size) lies in a single mapping.
 */
bool ppu_vm_range_mapped(struct ppu_vm *vm, u64 va, u64 size)
{
	struct drm_mm_node *node;
	bool ret = false;

	if (!size || va < DRM_PPU_VA_START || va >= DRM_PPU_VA_END ||
	    size > DRM_PPU_VA_END - va)
		return false;
	mutex_lock(&vm->lock);
	drm_mm_for_each_node_in_range(node, &vm->mm, va, va + 1) {
		ret = node->start <= va && va + size <= node->start + node->size;
		break;
	}
	mutex_unlock(&vm->lock);
	return ret;
}
