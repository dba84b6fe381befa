// SPDX-License-Identifier: MIT
/*
 * Memory: every allocation is one buffer object bound at a kernel-chosen
 * address of the context's GPU address space; host allocations are also
 * mapped for the CPU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "drm/ppu_drm.h"
#include "ppu_internal.h"

static void gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	ppu_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

ppu_status ppu_bo_new(ppu_ctx *ctx, struct ppu_alloc *a, uint64_t bytes, int local, int map)
{
	struct drm_ppu_gem_create gc = { .size = bytes };
	struct drm_ppu_gem_mmap_offset mo = { 0 };
	struct drm_ppu_vm_bind vb = { 0 };
	ppu_status st;
	int ret;

	memset(a, 0, sizeof(*a));
	if (local)
		gc.flags = DRM_PPU_GEM_CREATE_LOCAL;
	ret = ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_GEM_CREATE, &gc);
	if (ret) {
		st = ppu_fail_errno(-ret, "GEM_CREATE of %llu bytes%s",
				    (unsigned long long)bytes, local ? " in local memory" : "");
		return st == PPU_ERROR_DEVICE_LOST && local && !ctx->info.local_mem_bytes ?
		       ppu_fail(PPU_ERROR_NOT_SUPPORTED, "the device has no local memory") : st;
	}
	a->handle = gc.handle;
	a->bo_size = gc.size;
	a->size = bytes;
	a->local = local;
	if (map) {
		void *p;

		mo.handle = gc.handle;
		ret = ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &mo);
		if (ret) {
			st = ppu_fail_errno(-ret, "GEM_MMAP_OFFSET");
			goto err_close;
		}
		p = mmap(NULL, gc.size, PROT_READ | PROT_WRITE, MAP_SHARED, ctx->fd,
			 (off_t)mo.offset);
		if (p == MAP_FAILED) {
			st = ppu_fail_errno(errno, "mmap of a buffer object");
			goto err_close;
		}
		a->map = p;
	}
	vb.handle = gc.handle;
	vb.flags = DRM_PPU_VM_BIND_VA_ALLOC;
	vb.size = gc.size;
	ret = ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_VM_BIND, &vb);
	if (ret) {
		/* ENOSPC here is the GPU address space, not memory. */
		st = ppu_fail_errno(-ret, "VM_BIND of %llu bytes", (unsigned long long)gc.size);
		goto err_unmap;
	}
	a->va = vb.va;
	return PPU_SUCCESS;

err_unmap:
	if (a->map)
		munmap(a->map, a->bo_size);
err_close:
	gem_close(ctx->fd, a->handle);
	memset(a, 0, sizeof(*a));
	return st;
}

void ppu_bo_free(ppu_ctx *ctx, struct ppu_alloc *a)
{
	struct drm_ppu_vm_unbind vu = { .va = a->va, .size = a->bo_size };

	if (!a->handle)
		return;
	if (a->va)
		ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_VM_UNBIND, &vu);
	if (a->map)
		munmap(a->map, a->bo_size);
	gem_close(ctx->fd, a->handle);
	memset(a, 0, sizeof(*a));
}

struct ppu_alloc *ppu_alloc_find(ppu_ctx *ctx, uint64_t va, uint64_t len)
{
	return ppu_alloc_in(ctx->allocs, va, len);
}

static ppu_status alloc_common(ppu_ctx *ctx, size_t bytes, int local, void **host,
			       ppu_devptr *dptr, const char *fn)
{
	struct ppu_alloc *a;
	ppu_status st;

	ppu_clear_error();
	if (!ctx || !dptr || (!local && !host))
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "%s: NULL argument", fn);
	if (bytes == 0 || bytes > DRM_PPU_GEM_MAX_SIZE)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "%s: size %zu outside 1..%llu", fn, bytes,
				(unsigned long long)DRM_PPU_GEM_MAX_SIZE);
	a = calloc(1, sizeof(*a));
	if (!a)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
	st = ppu_bo_new(ctx, a, bytes, local, !local);
	if (st) {
		free(a);
		return st;
	}
	ppu_owners_lock();
	a->next = ctx->allocs;
	ctx->allocs = a;
	ppu_owners_unlock();
	*dptr = a->va;
	if (host)
		*host = local ? NULL : a->map;
	return PPU_SUCCESS;
}

ppu_status ppu_mem_alloc(ppu_ctx *ctx, size_t bytes, ppu_devptr *dptr)
{
	return alloc_common(ctx, bytes, 1, NULL, dptr, "ppu_mem_alloc");
}

ppu_status ppu_mem_alloc_host(ppu_ctx *ctx, size_t bytes, void **host, ppu_devptr *dptr)
{
	return alloc_common(ctx, bytes, 0, host, dptr, "ppu_mem_alloc_host");
}

ppu_status ppu_mem_free(ppu_ctx *ctx, ppu_devptr dptr)
{
	struct ppu_alloc **pp, *a;

	ppu_clear_error();
	if (!ctx)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_mem_free: NULL context");
	for (pp = &ctx->allocs; (a = *pp); pp = &a->next) {
		if (a->va == dptr) {
			ppu_owners_lock();
			*pp = a->next;
			ppu_owners_unlock();
			ppu_bo_free(ctx, a);
			free(a);
			return PPU_SUCCESS;
		}
	}
	if (!ppu_alloc_find(ctx, dptr, 1) &&
	    ppu_ctx_foreign(ctx, dptr, 1, NULL, "ppu_mem_free", "the allocation"))
		return PPU_ERROR_CONTEXT_MISMATCH;
	return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_mem_free: %#llx is not the start of an "
			"allocation of this context", (unsigned long long)dptr);
}

ppu_status ppu_mem_host_to_dev(ppu_ctx *ctx, const void *host, ppu_devptr *dptr)
{
	const uint8_t *p = host;
	struct ppu_alloc *a;

	ppu_clear_error();
	if (!ctx || !host || !dptr)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_mem_host_to_dev: NULL argument");
	a = ppu_alloc_in_host(ctx->allocs, p);
	if (a) {
		*dptr = a->va + (uint64_t)(p - (const uint8_t *)a->map);
		return PPU_SUCCESS;
	}
	if (ppu_ctx_foreign(ctx, 0, 0, host, "ppu_mem_host_to_dev", "the host allocation"))
		return PPU_ERROR_CONTEXT_MISMATCH;
	return ppu_fail(PPU_ERROR_INVALID_VALUE,
			"ppu_mem_host_to_dev: %p is not inside a host allocation of this context",
			host);
}
