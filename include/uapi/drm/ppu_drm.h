/* SPDX-License-Identifier: MIT */
/*
 * PPU: the ioctl ABI of ppu.ko, the DRM render-node driver of the PPU.
 */
#ifndef _PPU_DRM_H_
#define _PPU_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: PPU ioctl conventions
 *
 * The driver binds to the PPU PCI function and exposes a render node
 * (/dev/dri/renderD*) only; every ioctl is allowed on it.  The driver name
 * reported by DRM_IOCTL_VERSION is "ppu".
 *
 * The ABI follows Documentation/process/botching-up-ioctls.rst:
 *
 * - Only fixed-size types (__u32, __u64) appear in these structs; every
 *   struct is a multiple of 8 bytes and 64-bit fields are 8-byte aligned,
 *   with explicit padding, so 32-bit and 64-bit userspace share one layout.
 * - User pointers are passed as __u64.
 * - Every pad field, every reserved field and every flag bit that is not
 *   defined here must be zero, or the ioctl fails with -EINVAL.  New
 *   meanings can therefore be given to them later without breaking anyone.
 * - Structs only grow at the end; the DRM core zero-extends an older,
 *   shorter struct, so a zero in a new field must mean "old behaviour".
 * - Unknown parameters, operations or enum values fail with -EINVAL.
 * - Once the device is unplugged every ioctl fails with -ENODEV (the DRM
 *   core refuses them).
 */

#define DRM_PPU_GET_PARAM			0x00
#define DRM_PPU_GEM_CREATE			0x01
#define DRM_PPU_GEM_MMAP_OFFSET			0x02
#define DRM_PPU_VM_BIND				0x03
#define DRM_PPU_VM_UNBIND			0x04
#define DRM_PPU_CHAN_CREATE			0x05
#define DRM_PPU_CHAN_DESTROY			0x06
#define DRM_PPU_DOORBELL			0x07
#define DRM_PPU_CHAN_STATUS			0x08
#define DRM_PPU_SEM_POOL_CREATE			0x09
#define DRM_PPU_SEM_POOL_DESTROY		0x0a
#define DRM_PPU_SEM_WAIT			0x0b
#define DRM_PPU_SEM_FENCE			0x0c

#define DRM_IOCTL_PPU_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_GET_PARAM, struct drm_ppu_get_param)
#define DRM_IOCTL_PPU_GEM_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_GEM_CREATE, struct drm_ppu_gem_create)
#define DRM_IOCTL_PPU_GEM_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_GEM_MMAP_OFFSET, struct drm_ppu_gem_mmap_offset)
#define DRM_IOCTL_PPU_VM_BIND \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_VM_BIND, struct drm_ppu_vm_bind)
#define DRM_IOCTL_PPU_VM_UNBIND \
	DRM_IOW(DRM_COMMAND_BASE + DRM_PPU_VM_UNBIND, struct drm_ppu_vm_unbind)
#define DRM_IOCTL_PPU_CHAN_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_CHAN_CREATE, struct drm_ppu_chan_create)
#define DRM_IOCTL_PPU_CHAN_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_PPU_CHAN_DESTROY, struct drm_ppu_chan_destroy)
#define DRM_IOCTL_PPU_DOORBELL \
	DRM_IOW(DRM_COMMAND_BASE + DRM_PPU_DOORBELL, struct drm_ppu_doorbell)
#define DRM_IOCTL_PPU_CHAN_STATUS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_CHAN_STATUS, struct drm_ppu_chan_status)
#define DRM_IOCTL_PPU_SEM_POOL_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_SEM_POOL_CREATE, struct drm_ppu_sem_pool_create)
#define DRM_IOCTL_PPU_SEM_POOL_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_PPU_SEM_POOL_DESTROY, struct drm_ppu_sem_pool_destroy)
#define DRM_IOCTL_PPU_SEM_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_PPU_SEM_WAIT, struct drm_ppu_sem_wait)
#define DRM_IOCTL_PPU_SEM_FENCE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_PPU_SEM_FENCE, struct drm_ppu_sem_fence)

/**
 * enum drm_ppu_param - parameters of DRM_IOCTL_PPU_GET_PARAM
 *
 * Every capability register of the PPU is reported, plus live values that
 * need the hardware.  Capabilities are read once at probe; they are
 * properties of the built hardware and never change while it is bound.
 */
enum drm_ppu_param {
	/**
	 * @DRM_PPU_PARAM_VERSION: hardware VERSION register: major version in
	 * bits 31:16, minor in bits 15:0.  The driver binds only to a major
	 * version it knows; a higher minor version adds features only.
	 */
	DRM_PPU_PARAM_VERSION = 0,
	/**
	 * @DRM_PPU_PARAM_NUM_CHANNELS: number of hardware channels (1..4096).
	 */
	DRM_PPU_PARAM_NUM_CHANNELS = 1,
	/**
	 * @DRM_PPU_PARAM_NUM_CU: number of compute units (0: no compute
	 * engine).
	 */
	DRM_PPU_PARAM_NUM_CU = 2,
	/**
	 * @DRM_PPU_PARAM_NUM_TASK_SLOTS: active task slots of the priority
	 * task table (0: no compute engine).
	 */
	DRM_PPU_PARAM_NUM_TASK_SLOTS = 3,
	/**
	 * @DRM_PPU_PARAM_NUM_PRIORITIES: device priorities of the task table,
	 * 0 is the lowest (0: no compute engine).
	 */
	DRM_PPU_PARAM_NUM_PRIORITIES = 4,
	/**
	 * @DRM_PPU_PARAM_COPY_CHUNK_BYTES: the copy engine's chunk.  A copy
	 * on the engine is never preempted, so software splits long copies
	 * into commands of at most this size to bound how long a
	 * higher-priority copy can wait.
	 */
	DRM_PPU_PARAM_COPY_CHUNK_BYTES = 5,
	/**
	 * @DRM_PPU_PARAM_MEM_DATA_BYTES: width of one memory beat in bytes.
	 */
	DRM_PPU_PARAM_MEM_DATA_BYTES = 6,
	/**
	 * @DRM_PPU_PARAM_TLB_ENTRIES: entries of the MMU TLB.
	 */
	DRM_PPU_PARAM_TLB_ENTRIES = 7,
	/**
	 * @DRM_PPU_PARAM_COPY_MAX_READS: memory reads the copy engine keeps
	 * in flight.
	 */
	DRM_PPU_PARAM_COPY_MAX_READS = 8,
	/**
	 * @DRM_PPU_PARAM_PB_PREFETCH_BEATS: pushbuffer prefetch depth in
	 * memory beats.
	 */
	DRM_PPU_PARAM_PB_PREFETCH_BEATS = 9,
	/**
	 * @DRM_PPU_PARAM_FEATURES: mask of DRM_PPU_FEATURE_* bits.  Bits the
	 * driver does not know are not reported.
	 */
	DRM_PPU_PARAM_FEATURES = 10,
	/**
	 * @DRM_PPU_PARAM_CYCLE_COUNTER: the PPU's free-running 64-bit cycle
	 * counter, read from the hardware at the time of the call (the clock
	 * of semaphore timestamps).  Fails with -ENODEV once the device is
	 * gone.
	 */
	DRM_PPU_PARAM_CYCLE_COUNTER = 11,
	/**
	 * @DRM_PPU_PARAM_LOCAL_MEM_SIZE: bytes of device-local memory that
	 * buffer objects created with DRM_PPU_GEM_CREATE_LOCAL share (0: the
	 * device has none): the hardware's CAP_LOCAL_MEM_MIB, capped at the
	 * 3 GiB - 1 MiB the driver's own address space can map.
	 */
	DRM_PPU_PARAM_LOCAL_MEM_SIZE = 12,
	/**
	 * @DRM_PPU_PARAM_NUM_USER_CHANNELS: channels clients can create
	 * together: DRM_PPU_PARAM_NUM_CHANNELS minus the one the driver keeps
	 * for clearing local memory when the device has local memory.  They
	 * are the ids 0 .. DRM_PPU_PARAM_NUM_USER_CHANNELS - 1.
	 */
	DRM_PPU_PARAM_NUM_USER_CHANNELS = 13,
	/**
	 * @DRM_PPU_PARAM_CU_CONTEXTS: hardware thread contexts per compute
	 * unit (0: no compute engine).  A CTA of at most this many threads
	 * runs in one wave; larger CTAs rotate their threads through the
	 * contexts.
	 */
	DRM_PPU_PARAM_CU_CONTEXTS = 14,
	/**
	 * @DRM_PPU_PARAM_NUM_TASKS: hardware task ids, the launched but
	 * not yet completed kernels the task table holds at once, over all
	 * channels (0: no compute engine).
	 */
	DRM_PPU_PARAM_NUM_TASKS = 15,
	/**
	 * @DRM_PPU_PARAM_MAX_CTA_THREADS: the most threads per CTA a TMD may
	 * ask for (0: no compute engine).
	 */
	DRM_PPU_PARAM_MAX_CTA_THREADS = 16,
	/**
	 * @DRM_PPU_PARAM_ICACHE_BYTES: instruction cache bytes per compute
	 * unit (0: no compute engine).
	 */
	DRM_PPU_PARAM_ICACHE_BYTES = 17,
	/**
	 * @DRM_PPU_PARAM_TASK_BLOCK_HEADER_BYTES: bytes of a task block
	 * before its thread records (TMD copy, hardware state, save-slot
	 * headers): a block of k save slots for CTAs of t threads with
	 * STACK_BYTES of stack each needs this + k * t * (thread record +
	 * STACK_BYTES) bytes.  A property of the format (0x280), reported on
	 * every device.
	 */
	DRM_PPU_PARAM_TASK_BLOCK_HEADER_BYTES = 18,
	/**
	 * @DRM_PPU_PARAM_THREAD_RECORD_BYTES: bytes of one saved thread in a
	 * task block (PC and state, x1..x31): 128, reported on every device.
	 */
	DRM_PPU_PARAM_THREAD_RECORD_BYTES = 19,
	/**
	 * @DRM_PPU_PARAM_CHAN_CACHE: channels whose host context the PPU
	 * keeps on chip at a time (its channel cache).  Equal to
	 * DRM_PPU_PARAM_NUM_CHANNELS when every channel has a slot; when it is
	 * smaller, switching to a channel outside the cache first writes one
	 * context to memory and reads the other back (a few memory round
	 * trips), so programs that spread work over more busy channels than
	 * this pay for it at each switch.
	 */
	DRM_PPU_PARAM_CHAN_CACHE = 20,
};

/* Values of DRM_PPU_PARAM_FEATURES. */
/* The DMA copy engine exists (channels of engine type COPY). */
#define DRM_PPU_FEATURE_COPY_ENGINE		(1ull << 0)
/* The compute engine exists (channels of engine type COMPUTE). */
#define DRM_PPU_FEATURE_COMPUTE_ENGINE		(1ull << 1)
/* The PPU reaches host memory (system aperture). */
#define DRM_PPU_FEATURE_SYS_APERTURE		(1ull << 2)
/* Semaphore releases can carry a cycle-counter timestamp. */
#define DRM_PPU_FEATURE_SEM_TIMESTAMP		(1ull << 3)
/* The hardware scheduler has a priority-aware mode. */
#define DRM_PPU_FEATURE_PRIO_SCHED		(1ull << 4)
/* Kernels launch kernels on the PPU (dynamic parallelism; needs COMPUTE_ENGINE). */
#define DRM_PPU_FEATURE_DEV_LAUNCH		(1ull << 5)
/* Channels can be created with DRM_PPU_CHAN_CREATE_AUTO_PUT. */
#define DRM_PPU_FEATURE_AUTO_PUT		(1ull << 6)
/*
 * Compute channels launch copies on subchannel PPU_MTHD_SUBCH_COPY (blocks
 * of a PPU-owned work queue copy as well as launch).
 */
#define DRM_PPU_FEATURE_COMPUTE_COPY		(1ull << 7)
/*
 * Channels have a doorbell page (drm_ppu_chan_create.doorbell_offset):
 * submission without a system call.
 */
#define DRM_PPU_FEATURE_USER_DOORBELL		(1ull << 11)

/**
 * struct drm_ppu_get_param - query a device parameter
 *
 * DRM_IOCTL_PPU_GET_PARAM: returns one value in @value.  Fails with
 * -EINVAL for an unknown @param or a nonzero @pad, and with -ENODEV for a
 * live parameter (the cycle counter) once the device is gone.
 */
struct drm_ppu_get_param {
	/** @param: in, one of enum drm_ppu_param. */
	__u32 param;
	/** @pad: must be zero. */
	__u32 pad;
	/** @value: out, the parameter's value. */
	__u64 value;
};

/**
 * DOC: PPU buffer objects and GPU address space
 *
 * Buffer objects (BOs) live in system memory (host RAM: allocated lazily,
 * mapped by the CPU through the offset that DRM_IOCTL_PPU_GEM_MMAP_OFFSET
 * returns, mmap() of the render node) or, with DRM_PPU_GEM_CREATE_LOCAL, in
 * the device's local memory (reached by the PPU only).
 * Handles are per open file: another file cannot name them.
 *
 * Every open file has its own GPU virtual address space: 32-bit addresses
 * translated by Sv32 page tables the kernel writes.  User mappings live in
 * [DRM_PPU_VA_START, DRM_PPU_VA_END) with 4 KiB pages.  A bind pins the
 * BO's pages until the BO is freed; a mapping holds a reference on its BO,
 * so closing the handle does not break it.  Closing the file removes every
 * mapping and frees the page tables.
 */

/* The user part of every GPU address space, 4 KiB granular. */
#define DRM_PPU_VA_START		0x00100000ull
#define DRM_PPU_VA_END			0xfff00000ull
/* Page size of the GPU MMU and granularity of every bind. */
#define DRM_PPU_PAGE_SIZE		4096ull
/* The largest BO: it has to fit the address space. */
#define DRM_PPU_GEM_MAX_SIZE		(DRM_PPU_VA_END - DRM_PPU_VA_START)

/*
 * DRM_IOCTL_PPU_GEM_CREATE: the BO lives in the device's local memory
 * (one contiguous range), reached by the PPU's engines only: it cannot be
 * mmap()ed, its contents move in and out by copies on a channel.
 */
#define DRM_PPU_GEM_CREATE_LOCAL	(1u << 0)
#define DRM_PPU_GEM_CREATE_FLAGS	DRM_PPU_GEM_CREATE_LOCAL

/**
 * struct drm_ppu_gem_create - create a buffer object
 *
 * DRM_IOCTL_PPU_GEM_CREATE: creates a BO of @size bytes rounded up to
 * whole pages, zero-filled, and returns a handle for it.  Without flags the
 * BO is in system memory (host RAM, allocated on first use, CPU-mappable);
 * with DRM_PPU_GEM_CREATE_LOCAL it is in device-local memory, allocated and
 * cleared by the PPU before the call returns.
 *
 * Errors: -EINVAL for a @size of 0 or above DRM_PPU_GEM_MAX_SIZE, or an
 * unknown @flags bit; -ENODEV for a local BO on a device without local
 * memory (or once the device is gone); -ENOSPC when no free local range is
 * large enough; -EDQUOT when this file's BOs already hold its share of
 * local memory or its number of BOs (the ppu.ko parameters
 * lmem_mib_per_file and max_bos_per_file); -ENOMEM when memory is short;
 * -EIO or -ETIMEDOUT when the PPU failed to clear local memory.  Release
 * the handle with
 * DRM_IOCTL_GEM_CLOSE.
 */
struct drm_ppu_gem_create {
	/** @size: in, bytes; out, the size rounded up to DRM_PPU_PAGE_SIZE. */
	__u64 size;
	/** @flags: in, DRM_PPU_GEM_CREATE_* bits. */
	__u32 flags;
	/** @handle: out, the BO's handle in this file. */
	__u32 handle;
};

/**
 * struct drm_ppu_gem_mmap_offset - where to mmap() a buffer object
 *
 * DRM_IOCTL_PPU_GEM_MMAP_OFFSET: returns the fake offset to pass to mmap()
 * on the same render node to map the whole BO (cached, shared).  Fails
 * with -ENOENT for a handle this file does not have and with -EINVAL for
 * nonzero @flags or a local-memory BO (the CPU cannot map those).
 */
struct drm_ppu_gem_mmap_offset {
	/** @handle: in, the BO. */
	__u32 handle;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @offset: out, the mmap() offset. */
	__u64 offset;
};

/* DRM_IOCTL_PPU_VM_BIND: the kernel chooses the GPU address. */
#define DRM_PPU_VM_BIND_VA_ALLOC	(1u << 0)
#define DRM_PPU_VM_BIND_FLAGS		DRM_PPU_VM_BIND_VA_ALLOC

/**
 * struct drm_ppu_vm_bind - map a BO range into the file's address space
 *
 * DRM_IOCTL_PPU_VM_BIND: maps @size bytes of the BO @handle, starting at
 * @bo_offset, at GPU address @va, readable and writable by the PPU's
 * engines and executable by its compute units (code, TMDs, task blocks
 * and data are all ordinary BOs).  @bo_offset and @size must be multiples of DRM_PPU_PAGE_SIZE,
 * @size nonzero and the range inside the BO.  With
 * DRM_PPU_VM_BIND_VA_ALLOC the kernel picks a free, page-aligned @va
 * (the @va passed in must be zero) and returns it; otherwise @va must be
 * page aligned, [@va, @va + @size) inside [DRM_PPU_VA_START,
 * DRM_PPU_VA_END) and not overlap an existing mapping.
 *
 * Errors: -EINVAL for unknown flags, a misaligned or out-of-range @va,
 * @bo_offset or @size, or a range beyond the BO; -ENOENT for an unknown
 * handle; -ENOSPC when the range overlaps a mapping or no free range is
 * large enough; -ENOMEM, also when the first bind of a system BO would
 * pin more pages than the caller's RLIMIT_MEMLOCK allows (without
 * CAP_IPC_LOCK; the pages stay pinned, counted in the process's VmPin,
 * until the BO is freed).
 */
struct drm_ppu_vm_bind {
	/** @handle: in, the BO. */
	__u32 handle;
	/** @flags: in, DRM_PPU_VM_BIND_* bits. */
	__u32 flags;
	/** @va: in, the GPU address (or 0 with VA_ALLOC); out, the address used. */
	__u64 va;
	/** @bo_offset: in, byte offset into the BO, page aligned. */
	__u64 bo_offset;
	/** @size: in, bytes to map, page aligned, nonzero. */
	__u64 size;
};

/**
 * struct drm_ppu_vm_unbind - remove a mapping from the file's address space
 *
 * DRM_IOCTL_PPU_VM_UNBIND: removes the mapping made by one VM_BIND; @va
 * and @size must be exactly those of that mapping (no partial unbind).
 * The page-table entries are cleared and the PPU's TLB invalidated before
 * the call returns, and it returns only once the PPU can no longer access
 * the pages (it may still have been finishing work it translated earlier);
 * the mapping's reference on its BO is dropped.
 *
 * Errors: -EINVAL for nonzero @flags or @pad, or a @size that differs from
 * the mapping's; -ENOENT when no mapping starts at @va.
 */
struct drm_ppu_vm_unbind {
	/** @va: in, the start of the mapping. */
	__u64 va;
	/** @size: in, its size. */
	__u64 size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * DOC: PPU channels
 *
 * A channel is one of the PPU's hardware command queues (DRM_PPU_PARAM_NUM_CHANNELS
 * of them), owned by the open file that created it and running in that
 * file's GPU address space on the copy engine, or on the compute engine
 * (DRM_PPU_CHAN_CREATE_COMPUTE), whose pushbuffers launch kernels described
 * by TMDs in the same address space.  Userspace owns the GPFIFO
 * ring (a BO it bound with DRM_IOCTL_PPU_VM_BIND) and the pushbuffers; the
 * kernel owns the instance block and the USERD page, which userspace maps
 * (mmap() of the render node at the offset DRM_IOCTL_PPU_CHAN_CREATE
 * returns) to write GP_PUT and read GP_GET without an ioctl:
 *
 * 1. write the pushbuffer, then the GPFIFO entry at index GP_PUT;
 * 2. store the new GP_PUT (dword 0 of USERD, offset 0);
 * 3. DRM_IOCTL_PPU_DOORBELL.
 *
 * The PPU writes GP_GET (dword 1, offset 4) after every completed entry.
 * A fault stops only the faulting channel (on a compute channel the PPU
 * also kills every kernel of the channel, and only those);
 * DRM_IOCTL_PPU_CHAN_STATUS tells what happened.  Closing the file destroys its channels before its
 * address space.
 */

/* DRM_IOCTL_PPU_CHAN_CREATE: @priority is given (else it must be 0). */
#define DRM_PPU_CHAN_CREATE_PRIORITY	(1u << 0)
/*
 * DRM_IOCTL_PPU_CHAN_CREATE: the channel runs on the compute engine (else
 * on the copy engine); needs DRM_PPU_FEATURE_COMPUTE_ENGINE.
 */
#define DRM_PPU_CHAN_CREATE_COMPUTE	(1u << 1)
/*
 * DRM_IOCTL_PPU_CHAN_CREATE: the ring is always full (needs
 * DRM_PPU_FEATURE_AUTO_PUT).  The PPU ignores GP_PUT in USERD and runs
 * entry after entry from the GP_GET it binds at (the first doorbell binds
 * the channel), so every entry must be written before the one ahead of it
 * lets the PPU reach it: each entry's pushbuffer ends with a semaphore
 * acquire that the producer of the next entry releases once it has
 * written it.  This is the PPU-owned work queue through which kernels
 * submit work (docs/formats.md, AUTO_PUT).  GP_GET is still written to USERD.
 */
#define DRM_PPU_CHAN_CREATE_AUTO_PUT	(1u << 2)
#define DRM_PPU_CHAN_CREATE_FLAGS	(DRM_PPU_CHAN_CREATE_PRIORITY | \
					 DRM_PPU_CHAN_CREATE_COMPUTE | \
					 DRM_PPU_CHAN_CREATE_AUTO_PUT)

/*
 * Channel priorities, 0 lowest.  A channel created without
 * DRM_PPU_CHAN_CREATE_PRIORITY gets DRM_PPU_CHAN_PRIORITY_NORMAL; anything
 * above it needs CAP_SYS_NICE, like raising a process's scheduling
 * priority.  The priority is the channel's rank when the hardware
 * scheduler runs in its priority mode, and the highest device priority its
 * compute work may use.
 */
#define DRM_PPU_CHAN_PRIORITY_MIN	0u
#define DRM_PPU_CHAN_PRIORITY_NORMAL	32u
#define DRM_PPU_CHAN_PRIORITY_MAX	63u
/* The deepest parent -> child chain a compute channel can allow. */
#define DRM_PPU_MAX_NESTING_DEPTH	64u
/* GPFIFO ring size bounds, log2 of the number of 8-byte entries. */
#define DRM_PPU_CHAN_LOG2_ENTRIES_MIN	1
#define DRM_PPU_CHAN_LOG2_ENTRIES_MAX	20
/* The USERD page: GP_PUT (written by userspace) and GP_GET (by the PPU). */
#define DRM_PPU_USERD_SIZE		4096u
#define DRM_PPU_USERD_GP_PUT		0x0
#define DRM_PPU_USERD_GP_GET		0x4

/**
 * struct drm_ppu_chan_create - create a channel
 *
 * DRM_IOCTL_PPU_CHAN_CREATE: allocates a free hardware channel for the
 * calling file, on the copy engine (or the compute engine with
 * DRM_PPU_CHAN_CREATE_COMPUTE), in the file's address space, with the
 * default time slice.  Its GPFIFO is the ring of 2^@log2_entries 8-byte
 * entries at GPU address @gpfifo_va, which must be 8-byte aligned and lie
 * entirely inside one mapping of this file (DRM_IOCTL_PPU_VM_BIND).  The
 * channel's USERD page (DRM_PPU_USERD_SIZE bytes, zeroed: GP_PUT = GP_GET
 * = 0) is mapped with mmap() of the render node at @userd_offset; the
 * mapping stays valid (but unused) after the channel is destroyed.
 *
 * With DRM_PPU_CHAN_CREATE_PRIORITY the channel gets @priority, in
 * [DRM_PPU_CHAN_PRIORITY_MIN, DRM_PPU_CHAN_PRIORITY_MAX]; priorities above
 * DRM_PPU_CHAN_PRIORITY_NORMAL need CAP_SYS_NICE.
 *
 * A compute channel also gets the range its launches are clamped to,
 * [@prio_min, its priority], and the nesting depth N of the tasks launched
 * through it (@max_depth): a child runs one priority above its parent, so a
 * chain reaches priority + N - 1, which must not pass
 * DRM_PPU_CHAN_PRIORITY_MAX and needs CAP_SYS_NICE above
 * DRM_PPU_CHAN_PRIORITY_NORMAL.  The PPU clamps the priority of every
 * launch to [@prio_min, priority].
 *
 * Errors: -EINVAL for unknown @flags, a nonzero @priority without
 * DRM_PPU_CHAN_CREATE_PRIORITY, a @priority above
 * DRM_PPU_CHAN_PRIORITY_MAX, @log2_entries outside [DRM_PPU_CHAN_LOG2_ENTRIES_MIN,
 * DRM_PPU_CHAN_LOG2_ENTRIES_MAX], a misaligned @gpfifo_va or a ring that
 * is not inside one mapping, nonzero @prio_min or @max_depth without
 * DRM_PPU_CHAN_CREATE_COMPUTE, @prio_min above the channel's priority,
 * @max_depth above DRM_PPU_MAX_NESTING_DEPTH or a chain that would pass
 * DRM_PPU_CHAN_PRIORITY_MAX; -EPERM for a priority (or, on a compute
 * channel, a chain) above normal without CAP_SYS_NICE; -ENODEV for DRM_PPU_CHAN_CREATE_COMPUTE on a device
 * without a compute engine, or DRM_PPU_CHAN_CREATE_AUTO_PUT on one
 * without DRM_PPU_FEATURE_AUTO_PUT (or once the device is gone); -EBUSY when every
 * channel id for clients
 * (DRM_PPU_PARAM_NUM_USER_CHANNELS) is in use; -EDQUOT when this file
 * holds its share of them (the ppu.ko parameter max_channels_per_file);
 * -ETIMEDOUT when the PPU does not release the free id it was given;
 * -ENOMEM or -ENOSPC when the USERD page or its mmap offset cannot be
 * made; -ENODEV once the device is gone.
 */
struct drm_ppu_chan_create {
	/** @flags: in, DRM_PPU_CHAN_CREATE_* bits. */
	__u32 flags;
	/** @log2_entries: in, log2 of the GPFIFO entries. */
	__u32 log2_entries;
	/** @gpfifo_va: in, GPU address of the ring. */
	__u64 gpfifo_va;
	/** @userd_offset: out, the mmap() offset of the USERD page. */
	__u64 userd_offset;
	/** @priority: in, with DRM_PPU_CHAN_CREATE_PRIORITY; else zero. */
	__u32 priority;
	/** @chid: out, the hardware channel id. */
	__u32 chid;
	/**
	 * @prio_min: in, with DRM_PPU_CHAN_CREATE_COMPUTE: the lowest priority
	 * a launch may carry; else zero.
	 */
	__u32 prio_min;
	/**
	 * @max_depth: in, with DRM_PPU_CHAN_CREATE_COMPUTE: levels of a
	 * parent -> child launch chain, 1..DRM_PPU_MAX_NESTING_DEPTH (0 is 1);
	 * else zero.
	 */
	__u32 max_depth;
	/**
	 * @doorbell_offset: out, the mmap() offset of the channel's doorbell
	 * page, 0 without DRM_PPU_FEATURE_USER_DOORBELL.  Only this file may
	 * map it: shared, one page (DRM_PPU_DOORBELL_SIZE), not executable
	 * (else mmap() fails with -EINVAL).  A 32-bit store of the new GP_PUT
	 * at DRM_PPU_DOORBELL_GP_PUT, after the store to USERD.GP_PUT, does
	 * what DRM_IOCTL_PPU_DOORBELL does, but a dead channel is not
	 * reported: the store is ignored and waits fail with -EIO.  Once the
	 * channel is destroyed or stopped by the watchdog the mapping has no
	 * page any more: an access raises SIGBUS.
	 */
	__u64 doorbell_offset;
};

/* The doorbell page: its size, and the offset of its one register. */
#define DRM_PPU_DOORBELL_SIZE		4096u
#define DRM_PPU_DOORBELL_GP_PUT		0x0

/**
 * struct drm_ppu_chan_destroy - destroy a channel
 *
 * DRM_IOCTL_PPU_CHAN_DESTROY: unbinds the channel from the PPU (work in
 * flight is abandoned, a copy in flight completes first, the kernels of a
 * compute channel are killed without their completion semaphores), waits
 * until the PPU has dropped it and frees its id.  Errors: -EINVAL for nonzero @pad;
 * -ENOENT when this file has no channel @chid; -ETIMEDOUT if the PPU did
 * not let the channel go within seconds (the channel id stays reserved).
 */
struct drm_ppu_chan_destroy {
	/** @chid: in, the channel. */
	__u32 chid;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_ppu_doorbell - tell the PPU a channel has new GPFIFO entries
 *
 * DRM_IOCTL_PPU_DOORBELL: the PPU re-reads the channel's USERD GP_PUT.
 * Errors: -EINVAL for nonzero @flags; -ENOENT when this file has no
 * channel @chid; -EIO when the channel has faulted (it is dead: read why
 * with DRM_IOCTL_PPU_CHAN_STATUS, then destroy it); -ENODEV once the
 * device is gone.
 */
struct drm_ppu_doorbell {
	/** @chid: in, the channel. */
	__u32 chid;
	/** @flags: in, must be zero. */
	__u32 flags;
};

/* Values of drm_ppu_chan_status.state (the CHAN_STATUS.STATE field). */
#define DRM_PPU_CHAN_STATE_UNBOUND	0	/* not loaded (never rung, or unbound) */
#define DRM_PPU_CHAN_STATE_IDLE		1
#define DRM_PPU_CHAN_STATE_READY	2
#define DRM_PPU_CHAN_STATE_ACQ_BLOCKED	3
#define DRM_PPU_CHAN_STATE_ENGINE_WAIT	4
#define DRM_PPU_CHAN_STATE_ENGINE_BUSY	5
#define DRM_PPU_CHAN_STATE_FAULTED	6
#define DRM_PPU_CHAN_STATE_LOADING	7
/* A compute channel at WFI: it waits until its kernels have completed. */
#define DRM_PPU_CHAN_STATE_WFI_WAIT	8

/* Fields of drm_ppu_chan_status.fault_info (the FAULT_INFO register). */
#define DRM_PPU_FAULT_INFO_KIND(x)	((x) & 0xff)
#define DRM_PPU_FAULT_INFO_ACCESS(x)	(((x) >> 8) & 0xf)
#define DRM_PPU_FAULT_INFO_UNIT(x)	(((x) >> 12) & 0xf)
/* Fault kinds (docs/registers.md). */
#define DRM_PPU_FAULT_NONE		0
#define DRM_PPU_FAULT_PTE_NOT_PRESENT	1
#define DRM_PPU_FAULT_PERMISSION	2
#define DRM_PPU_FAULT_BUS_ERROR		3
#define DRM_PPU_FAULT_ILLEGAL_METHOD	4
#define DRM_PPU_FAULT_ILLEGAL_OPCODE	5
#define DRM_PPU_FAULT_PB_UNALIGNED	6
#define DRM_PPU_FAULT_PB_RUNAWAY	7
#define DRM_PPU_FAULT_GP_PUT_RANGE	8
#define DRM_PPU_FAULT_ACQ_TIMEOUT	9
#define DRM_PPU_FAULT_SEM_UNALIGNED	10
#define DRM_PPU_FAULT_VA_RANGE		11
#define DRM_PPU_FAULT_INST_INVALID	12
#define DRM_PPU_FAULT_ENGINE_MISSING	13
/* Compute faults: @fault_addr is the PC, @fault_data the instruction. */
#define DRM_PPU_FAULT_ILLEGAL_INSTR	14
/* A misaligned load, store or jump: @fault_addr the address, @fault_data the PC. */
#define DRM_PPU_FAULT_MISALIGNED	15
/* A TMD breaks a rule: @fault_addr is its VA, @fault_data the offset of the bad word. */
#define DRM_PPU_FAULT_TMD_INVALID	16
/* The kernel trapped (ecall TRAP, ebreak): @fault_addr the PC, @fault_data its code. */
#define DRM_PPU_FAULT_KERNEL_TRAP	17
/*
 * An engine reset dropped the channel's work: the driver reset a wedged
 * engine (unit COPY_DST for the copy engine; @fault_addr is how far the
 * destination got).
 */
#define DRM_PPU_FAULT_ENGINE_RESET	18
/*
 * The driver's watchdog stopped the channel: it made no progress for the
 * ppu.ko parameter watchdog_ms (unit DRIVER; @fault_addr is GP_GET,
 * @fault_data the DRM_PPU_CHAN_STATE_* it was stuck in).
 */
#define DRM_PPU_FAULT_WATCHDOG		128
/* Fault units: which part of the PPU faulted (DRM_PPU_FAULT_INFO_UNIT). */
#define DRM_PPU_FAULT_UNIT_HOST		0	/* GPFIFO, pushbuffer, methods */
#define DRM_PPU_FAULT_UNIT_SEM		1	/* semaphore access */
#define DRM_PPU_FAULT_UNIT_COPY_SRC	2	/* copy engine reads */
#define DRM_PPU_FAULT_UNIT_COPY_DST	3	/* copy engine writes */
#define DRM_PPU_FAULT_UNIT_INST		4	/* channel table, instance block, USERD */
#define DRM_PPU_FAULT_UNIT_COMPUTE	5	/* a compute unit: fetch, load, store, atomic */
#define DRM_PPU_FAULT_UNIT_TASKS	6	/* the task table: TMD, task block */
#define DRM_PPU_FAULT_UNIT_DRIVER	15	/* ppu.ko itself (DRM_PPU_FAULT_WATCHDOG) */
/* Fault accesses (DRM_PPU_FAULT_INFO_ACCESS). */
#define DRM_PPU_FAULT_ACCESS_READ	0
#define DRM_PPU_FAULT_ACCESS_WRITE	1
#define DRM_PPU_FAULT_ACCESS_RMW	2
#define DRM_PPU_FAULT_ACCESS_EXEC	3	/* an instruction fetch */

/**
 * struct drm_ppu_chan_status - the hardware state of a channel
 *
 * DRM_IOCTL_PPU_CHAN_STATUS: a snapshot of the channel's status window.
 * The fault fields are meaningful when @state is DRM_PPU_CHAN_STATE_FAULTED.
 * Errors: -EINVAL for nonzero @pad; -ENOENT when this file has no channel
 * @chid; -ENODEV once the device is gone.
 */
struct drm_ppu_chan_status {
	/** @chid: in, the channel. */
	__u32 chid;
	/** @pad: must be zero. */
	__u32 pad;
	/** @state: out, DRM_PPU_CHAN_STATE_*. */
	__u32 state;
	/** @gp_get: out, the next GPFIFO entry the PPU will execute. */
	__u32 gp_get;
	/** @gp_put: out, GP_PUT as the PPU last read it from USERD. */
	__u32 gp_put;
	/** @fault_info: out, kind 7:0, access 11:8, unit 15:12. */
	__u32 fault_info;
	/**
	 * @fault_addr: out, faulting VA (method byte offset for method faults;
	 * for compute faults the data VA, or the PC for fetches, illegal
	 * instructions and traps; the TMD's VA for TMD_INVALID).
	 */
	__u32 fault_addr;
	/**
	 * @fault_data: out, the offending word (for compute faults the PC, or
	 * the instruction for ILLEGAL_INSTR, the code for KERNEL_TRAP; the
	 * offset of the bad word for TMD_INVALID).
	 */
	__u32 fault_data;
};

/**
 * DOC: PPU semaphores
 *
 * A semaphore pool is an array of @count semaphores of DRM_PPU_SEM_BYTES
 * each, in system memory, zeroed, bound read-write in the file's GPU
 * address space at @va (semaphore i at @va + i * DRM_PPU_SEM_BYTES) and
 * mappable by the CPU at @mmap_offset.  Dword 0 of a semaphore is its
 * 32-bit value; a release with timestamp writes the PPU cycle counter at
 * byte 8.  Pushbuffers acquire, release and reduce them with the host
 * semaphore methods; the CPU may read and write them through the mapping.
 *
 * DRM_IOCTL_PPU_SEM_WAIT sleeps until a semaphore reaches a value.  The
 * driver re-checks waiting semaphores whenever the PPU raises an
 * interrupt, so a pushbuffer that wants to wake a waiter follows its
 * release with the NON_STALL_INTERRUPT method.  A wait tied to a channel
 * fails with -EIO as soon as that channel faults: a dead channel never
 * releases anything again.
 */

/* Bytes of one semaphore: value at 0, release timestamp at 8. */
#define DRM_PPU_SEM_BYTES		16u
/* The largest pool, in semaphores. */
#define DRM_PPU_SEM_POOL_MAX_COUNT	65536u

/**
 * struct drm_ppu_sem_pool_create - create a semaphore pool
 *
 * DRM_IOCTL_PPU_SEM_POOL_CREATE: creates a pool of @count zeroed
 * semaphores, bound at a kernel-chosen @va of the caller's address space.
 * The pool (mapping and memory) lives until DRM_IOCTL_PPU_SEM_POOL_DESTROY
 * or the file is closed; a CPU mapping keeps the memory (not the binding)
 * alive after that.
 *
 * Errors: -EINVAL for @count 0 or above DRM_PPU_SEM_POOL_MAX_COUNT, nonzero
 * @flags or @pad, or a nonzero output field (@va, @mmap_offset, @pool);
 * -ENOSPC when the address space is full; -EDQUOT when the file holds
 * max_sem_pools_per_file pools (a ppu.ko parameter); -ENOMEM, also when
 * pinning the pool's pages would exceed the caller's RLIMIT_MEMLOCK.
 */
struct drm_ppu_sem_pool_create {
	/** @count: in, number of semaphores. */
	__u32 count;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @va: out, GPU address of semaphore 0. */
	__u64 va;
	/** @mmap_offset: out, the mmap() offset of the pool. */
	__u64 mmap_offset;
	/** @pool: out, the pool's id in this file (nonzero). */
	__u32 pool;
	/** @pad: must be zero. */
	__u32 pad;
};

/**
 * struct drm_ppu_sem_pool_destroy - destroy a semaphore pool
 *
 * DRM_IOCTL_PPU_SEM_POOL_DESTROY: unbinds the pool from the GPU address
 * space.  Channels that still use it fault on their next access.  Errors:
 * -EINVAL for nonzero @pad; -ENOENT when this file has no pool @pool.
 */
struct drm_ppu_sem_pool_destroy {
	/** @pool: in, the pool. */
	__u32 pool;
	/** @pad: must be zero. */
	__u32 pad;
};

/* Conditions of DRM_IOCTL_PPU_SEM_WAIT. */
/* value - @value, as a signed 32-bit number, is >= 0 (wrapping counters). */
#define DRM_PPU_SEM_WAIT_GEQ		0u
/* value == @value. */
#define DRM_PPU_SEM_WAIT_EQ		1u

/* DRM_IOCTL_PPU_SEM_WAIT flags: @chid names a channel of this file. */
#define DRM_PPU_SEM_WAIT_CHAN		(1u << 0)
#define DRM_PPU_SEM_WAIT_FLAGS		DRM_PPU_SEM_WAIT_CHAN

/**
 * struct drm_ppu_sem_wait - wait for a semaphore value
 *
 * DRM_IOCTL_PPU_SEM_WAIT: returns 0 as soon as semaphore @index of pool
 * @pool satisfies @cond with @value, checking first at the call and then
 * after every PPU interrupt, until @timeout_ns (CLOCK_MONOTONIC, absolute;
 * 0 checks once without sleeping).  The value is checked first: a
 * condition that holds returns 0 whatever else happened.  With
 * DRM_PPU_SEM_WAIT_CHAN the wait is on work of channel @chid: otherwise it
 * fails with -EIO when that channel has faulted, faults while waiting or is
 * destroyed (read why with DRM_IOCTL_PPU_CHAN_STATUS).
 *
 * Errors: -EINVAL for unknown @flags or @cond, @chid without
 * DRM_PPU_SEM_WAIT_CHAN, or @index outside the pool; -ENOENT for an
 * unknown pool or channel; -ETIME when @timeout_ns passed; -EIO as above;
 * -EINTR (restarted by libdrm) on a signal; -ENODEV once the device is
 * gone.
 */
struct drm_ppu_sem_wait {
	/** @pool: in, the pool. */
	__u32 pool;
	/** @index: in, the semaphore in the pool. */
	__u32 index;
	/** @value: in, the value to compare with. */
	__u32 value;
	/** @cond: in, DRM_PPU_SEM_WAIT_GEQ or DRM_PPU_SEM_WAIT_EQ. */
	__u32 cond;
	/** @timeout_ns: in, absolute CLOCK_MONOTONIC deadline. */
	__s64 timeout_ns;
	/** @flags: in, DRM_PPU_SEM_WAIT_* bits. */
	__u32 flags;
	/** @chid: in, with DRM_PPU_SEM_WAIT_CHAN: the channel; else zero. */
	__u32 chid;
};

/* The longest a fence of DRM_IOCTL_PPU_SEM_FENCE stays unsignalled. */
#define DRM_PPU_SEM_FENCE_TIMEOUT_MS	10000u

/**
 * struct drm_ppu_sem_fence - a fence for a semaphore value, in a syncobj
 *
 * DRM_IOCTL_PPU_SEM_FENCE: replaces the fence of the syncobj @syncobj (a
 * handle of this file, from DRM_IOCTL_SYNCOBJ_CREATE) with a new fence that
 * signals once semaphore @index of pool @pool satisfies @cond with @value,
 * so that the generic syncobj ioctls (wait, export as a sync_file, ...) can
 * wait for PPU work.  The driver checks pending fences after every PPU
 * interrupt and every few milliseconds.  The fence signals with an error
 * instead when the channel @chid (with DRM_PPU_SEM_WAIT_CHAN) faults or is
 * destroyed (-EIO), when the device goes (-ENODEV), or when the condition
 * is not met within DRM_PPU_SEM_FENCE_TIMEOUT_MS (-ETIMEDOUT): a fence
 * always signals in bounded time.
 *
 * Errors: -EINVAL for unknown @flags or @cond, nonzero @pad, @chid without
 * DRM_PPU_SEM_WAIT_CHAN, or @index outside the pool; -ENOENT for an
 * unknown pool, channel or syncobj; -EDQUOT when the file has
 * max_fences_per_file fences not yet signalled (a ppu.ko parameter);
 * -ENOMEM; -ENODEV once the device is gone.  Each fence is on a dma_fence
 * context of its own: fences are not ordered among themselves.
 */
struct drm_ppu_sem_fence {
	/** @pool: in, the pool. */
	__u32 pool;
	/** @index: in, the semaphore in the pool. */
	__u32 index;
	/** @value: in, the value to compare with. */
	__u32 value;
	/** @cond: in, DRM_PPU_SEM_WAIT_GEQ or DRM_PPU_SEM_WAIT_EQ. */
	__u32 cond;
	/** @flags: in, DRM_PPU_SEM_WAIT_* bits. */
	__u32 flags;
	/** @chid: in, with DRM_PPU_SEM_WAIT_CHAN: the channel; else zero. */
	__u32 chid;
	/** @syncobj: in, the syncobj handle that gets the fence. */
	__u32 syncobj;
	/** @pad: must be zero. */
	__u32 pad;
};

#if defined(__cplusplus)
}
#endif

#endif /* _PPU_DRM_H_ */
