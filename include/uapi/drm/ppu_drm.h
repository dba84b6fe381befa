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
 * - An unplugged device fails every ioctl that needs the hardware with
 *   -ENODEV.
 */

#define DRM_PPU_GET_PARAM			0x00

#define DRM_IOCTL_PPU_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_PPU_GET_PARAM, struct drm_ppu_get_param)

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
	 * @DRM_PPU_PARAM_NUM_CHANNELS: number of hardware channels (1..32).
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

#if defined(__cplusplus)
}
#endif

#endif /* _PPU_DRM_H_ */
