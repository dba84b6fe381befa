/* SPDX-License-Identifier: MIT */
/*
 * libppu: the userspace runtime of the PPU.
 *
 * A CUDA-shaped C API on top of ppu.ko (through libdrm): devices, contexts,
 * device-local and host memory, streams with priorities, asynchronous
 * copies, kernel modules and launches, events and synchronisation.  Two of
 * the project's techniques live underneath it:
 *
 * - stream priorities that leave room for dynamic parallelism
 *   (US 9575760): with a max nesting depth N and M device priorities there
 *   are floor(M / N) stream priority levels, N device priorities apart, and
 *   a kernel runs at its stream's device priority;
 * - prioritised copies (US 9483423): streams alias onto one copy channel
 *   per priority level and every copy is wrapped in semaphore commands, so
 *   the PPU's priority-unaware, time-sliced host runs higher-priority copies
 *   first; long copies are split into chunks so a high-priority copy waits
 *   for at most one low-priority chunk.
 *
 * Conventions:
 * - Calls return a ppu_status (apart from the accessors that return a
 *   string or the default stream); nothing aborts.  ppu_status_name() names
 *   a code, ppu_status_string() describes it, ppu_last_error() tells what
 *   the calling thread's last call failed on (which call, which ioctl,
 *   which errno).
 * - Stream priorities: larger numbers are higher priorities (unlike CUDA);
 *   ppu_ctx_get_stream_priority_range() gives the range.
 * - Device addresses (ppu_devptr) are addresses in the context's GPU
 *   address space; host allocations have one too.
 * - A context, its streams and events are used by one thread at a time.
 */
#ifndef PPU_RUNTIME_H
#define PPU_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* The library exports exactly the declarations marked so. */
#if defined(__GNUC__)
#define PPU_API __attribute__((visibility("default")))
#else
#define PPU_API
#endif

#define PPU_RUNTIME_VERSION_MAJOR 0
#define PPU_RUNTIME_VERSION_MINOR 1

typedef enum ppu_status {
	PPU_SUCCESS = 0,
	/* an argument is out of range, NULL, or names nothing of this context */
	PPU_ERROR_INVALID_VALUE = 1,
	/* host memory is short */
	PPU_ERROR_OUT_OF_MEMORY = 2,
	/* the device's local memory (or its address space) is full */
	PPU_ERROR_OUT_OF_DEVICE_MEMORY = 3,
	/* no PPU render node, or the device index does not exist */
	PPU_ERROR_NO_DEVICE = 4,
	/* the work is not complete yet (queries) */
	PPU_ERROR_NOT_READY = 5,
	/* the driver gave up waiting for the hardware (waits themselves have no deadline) */
	PPU_ERROR_TIMEOUT = 6,
	/* a channel of the stream faulted; its work is lost, other streams go on */
	PPU_ERROR_CHANNEL_FAULT = 7,
	/* a device priority above normal needs CAP_SYS_NICE */
	PPU_ERROR_PERMISSION_DENIED = 8,
	/* the device lacks the feature (no copy engine, no local memory) */
	PPU_ERROR_NOT_SUPPORTED = 9,
	/* the setting can only change before the context's first launch */
	PPU_ERROR_CONTEXT_ACTIVE = 10,
	/* every hardware channel is in use (or a context's 65536 semaphores) */
	PPU_ERROR_OUT_OF_RESOURCES = 11,
	/* the device was removed (ppu.ko unbound or unplugged) */
	PPU_ERROR_DEVICE_LOST = 12,
	/* an operating-system call failed unexpectedly; see ppu_last_error() */
	PPU_ERROR_OS = 13,
	/* an event that was never recorded */
	PPU_ERROR_NOT_RECORDED = 14,
	/* a kernel image that is not a RISC-V ELF32 static PIE the PPU can run */
	PPU_ERROR_INVALID_IMAGE = 15,
	/* no such symbol in the module */
	PPU_ERROR_NOT_FOUND = 16,
	/*
	 * the objects belong to different contexts (e.g. a stream of one
	 * device and an event or allocation of another)
	 */
	PPU_ERROR_CONTEXT_MISMATCH = 17,
} ppu_status;

/* "PPU_ERROR_INVALID_VALUE" etc.; "unknown" for a value not listed. */
PPU_API const char *ppu_status_name(ppu_status st);
/* A sentence describing the code. */
PPU_API const char *ppu_status_string(ppu_status st);
/*
 * The message of this thread's last call: what it failed on, or "" when it
 * succeeded (every call clears it first), e.g. "ppu_stream_create_with_priority: CHAN_CREATE: Operation not
 * permitted: device priority 40 is above normal (32) and needs
 * CAP_SYS_NICE"); "" when none failed.
 */
PPU_API const char *ppu_last_error(void);

typedef uint64_t ppu_devptr;
typedef struct ppu_ctx ppu_ctx;
typedef struct ppu_stream ppu_stream;
typedef struct ppu_event ppu_event;
typedef struct ppu_module ppu_module;
typedef struct ppu_function ppu_function;
typedef struct ppu_work_queue ppu_work_queue;

/* ---- devices ---- */

struct ppu_device_info {
	char node[64];			/* "/dev/dri/renderD128" */
	char pci_bus_id[32];		/* "0000:00:04.0" */
	uint32_t version;		/* hardware VERSION: major 31:16, minor 15:0 */
	uint32_t num_channels;		/* hardware channels */
	uint32_t num_user_channels;	/* of them, usable by applications */
	uint32_t num_device_priorities;	/* M of the priority mapping */
	uint32_t num_cu;		/* compute units (0: no compute engine) */
	uint32_t copy_chunk_bytes;	/* the copy engine's chunk */
	uint64_t local_mem_bytes;	/* device-local memory */
	uint64_t features;		/* DRM_PPU_FEATURE_* bits */
	uint32_t cu_contexts;		/* thread contexts per compute unit (0: none) */
	uint32_t max_cta_threads;	/* threads of one CTA a kernel launch may have */
};

/* The number of PPUs (render nodes whose driver is "ppu"); 0 is not an error. */
PPU_API ppu_status ppu_device_count(int *count);
/* Facts about device @index (0 .. count - 1), opening it briefly. */
PPU_API ppu_status ppu_device_get_info(int index, struct ppu_device_info *info);

/* ---- contexts ---- */

/* Opens device @index; @flags must be 0. */
PPU_API ppu_status ppu_ctx_create(ppu_ctx **ctx, int index, unsigned int flags);
/*
 * Waits for all work of the context, then frees everything it owns
 * (streams, events, memory, channels).  NULL is accepted.  Returns the
 * first error of the final wait; the context is freed in any case.
 */
PPU_API ppu_status ppu_ctx_destroy(ppu_ctx *ctx);
PPU_API ppu_status ppu_ctx_get_info(ppu_ctx *ctx, struct ppu_device_info *info);

enum ppu_limit {
	/*
	 * N: levels of a parent -> child launch chain (1 .. M).  Default 2.
	 * Fixes the stream priority levels (floor(M / N)) and the depth of
	 * the compute channels, so it can change only before the context's
	 * first launch (the first copy, event record, stream wait or kernel
	 * launch that reaches the device); later calls fail with
	 * PPU_ERROR_CONTEXT_ACTIVE.
	 */
	PPU_LIMIT_MAX_NESTING_DEPTH = 0,
	/*
	 * Bytes of one copy command: longer copies are split so that a
	 * higher-priority copy waits for at most one chunk of a lower one.
	 * A multiple of the device's copy chunk, at most 1 GiB; 0 turns
	 * splitting off (commands of 1 GiB at most).
	 * Can change at any time; applies to copies issued afterwards.
	 */
	PPU_LIMIT_COPY_CHUNK_BYTES = 1,
	/*
	 * How copies are prioritised (enum ppu_copy_priorities): by the
	 * priority semaphores, each copy counting itself at its level before
	 * it waits for the higher ones (the default); by the semaphores in
	 * the patent's own order; or not at all, for comparison with the
	 * prior art.  Only before the first launch.
	 */
	PPU_LIMIT_COPY_PRIORITIES = 2,
	/*
	 * Stack bytes of every kernel thread, 0 .. PPU_MAX_STACK_SIZE; the
	 * launch rounds it up to a power of two of at least 64 (0: no
	 * stack).  Default 1024.  Can change at any time; applies to kernels
	 * launched afterwards.  The stacks are part of each launch's task
	 * block in device memory.
	 */
	PPU_LIMIT_STACK_SIZE = 3,
	/*
	 * Which device priority kernels run at (enum ppu_kernel_priorities):
	 * their stream's (the default), or 0 for every kernel as in the
	 * prior art.  Only before the first launch.
	 */
	PPU_LIMIT_KERNEL_PRIORITIES = 4,
};

/* The largest PPU_LIMIT_STACK_SIZE. */
#define PPU_MAX_STACK_SIZE 65536u

/* Values of PPU_LIMIT_KERNEL_PRIORITIES. */
enum ppu_kernel_priorities {
	/*
	 * Every kernel launched by the host at device priority 0 whatever
	 * its stream; children at 1 .. N - 1 (the prior art, for comparison).
	 */
	PPU_KERNEL_PRIORITIES_OFF = 0,
	/*
	 * A kernel at its stream's device priority (the stream priority
	 * times N), its children at +1 per level below, so the priority
	 * ranges of different streams never overlap (US 9575760).
	 */
	PPU_KERNEL_PRIORITIES_ON = 1,
};

/* Values of PPU_LIMIT_COPY_PRIORITIES. */
enum ppu_copy_priorities {
	/* Plain copies: the host's round robin alone decides (the prior art). */
	PPU_COPY_PRIORITIES_OFF = 0,
	/*
	 * Semaphores, strict across any number of levels: a queued copy
	 * holds back every lower level from the moment its channel reaches
	 * it, also while it waits for higher copies.
	 */
	PPU_COPY_PRIORITIES_ON = 1,
	/*
	 * Semaphores in US 9483423's exact order (acquire the higher levels,
	 * then increment): identical for two levels; with three or more a
	 * lower copy can start while a middle one waits for a higher one.
	 */
	PPU_COPY_PRIORITIES_PATENT_ORDER = 2,
};

PPU_API ppu_status ppu_ctx_set_limit(ppu_ctx *ctx, enum ppu_limit limit, uint64_t value);
PPU_API ppu_status ppu_ctx_get_limit(ppu_ctx *ctx, enum ppu_limit limit, uint64_t *value);

/*
 * The stream priorities this context offers under the current nesting
 * depth: @least (0, also the default) .. @greatest (floor(M / N) - 1).
 * Priorities above @greatest all behave like @greatest, below @least like
 * @least.
 */
PPU_API ppu_status ppu_ctx_get_stream_priority_range(ppu_ctx *ctx, int *least, int *greatest);
/* The device priority work of stream priority @prio runs at. */
PPU_API ppu_status ppu_ctx_get_device_priority(ppu_ctx *ctx, int prio, unsigned int *device_prio);
/* Waits until every stream of the context is idle. */
PPU_API ppu_status ppu_ctx_synchronize(ppu_ctx *ctx);

/* ---- memory ---- */

/* Device-local memory, zeroed, reached by the PPU only. */
PPU_API ppu_status ppu_mem_alloc(ppu_ctx *ctx, size_t bytes, ppu_devptr *dptr);
/* Host (system) memory, zeroed, mapped for the CPU at *host and for the PPU at *dptr. */
PPU_API ppu_status ppu_mem_alloc_host(ppu_ctx *ctx, size_t bytes, void **host, ppu_devptr *dptr);
/*
 * Frees an allocation by its device address (the start of it).  Work still
 * using it must have completed (synchronize first).
 */
PPU_API ppu_status ppu_mem_free(ppu_ctx *ctx, ppu_devptr dptr);
/* The device address of a host pointer inside a host allocation. */
PPU_API ppu_status ppu_mem_host_to_dev(ppu_ctx *ctx, const void *host, ppu_devptr *dptr);

/* ---- streams ---- */

/*
 * The default stream of the context: default (lowest) priority, always
 * there, not destroyed by ppu_stream_destroy().
 */
PPU_API ppu_stream *ppu_ctx_default_stream(ppu_ctx *ctx);
PPU_API ppu_status ppu_stream_create(ppu_ctx *ctx, ppu_stream **stream);
/* @prio is clamped into ppu_ctx_get_stream_priority_range(). */
PPU_API ppu_status ppu_stream_create_with_priority(ppu_ctx *ctx, int prio, ppu_stream **stream);
/* The stream priority in use: the one requested, clamped into the current range. */
PPU_API ppu_status ppu_stream_get_priority(ppu_stream *stream, int *prio);
/*
 * The device priority every launch into the stream carries (kernels too,
 * unless PPU_LIMIT_KERNEL_PRIORITIES is OFF; their children run at +1 per
 * level).
 */
PPU_API ppu_status ppu_stream_get_device_priority(ppu_stream *stream, unsigned int *device_prio);
/* Waits for the stream's work, then frees it. */
PPU_API ppu_status ppu_stream_destroy(ppu_stream *stream);
PPU_API ppu_status ppu_stream_synchronize(ppu_stream *stream);
/* PPU_SUCCESS when all work issued to the stream is complete, else PPU_ERROR_NOT_READY. */
PPU_API ppu_status ppu_stream_query(ppu_stream *stream);
/* Work issued to @stream afterwards waits until @event's last record has completed. */
PPU_API ppu_status ppu_stream_wait_event(ppu_stream *stream, ppu_event *event);

/*
 * Stream memory operations on a 32-bit word at @addr: 4-byte aligned,
 * inside an allocation of the stream's context (host memory when the CPU
 * writes or reads the word).  The word is read and written by the PPU as a
 * semaphore, so the CPU sees a write once the stream has passed it.
 */
enum ppu_wait_cond {
	PPU_WAIT_VALUE_GEQ = 0,	/* (int32_t)(word - value) >= 0: a counter that may wrap */
	PPU_WAIT_VALUE_EQ = 1,	/* word == value */
	PPU_WAIT_VALUE_AND = 2,	/* (word & value) != 0; value must not be 0 */
};
/*
 * Work issued to @stream afterwards waits until the word satisfies @cond.
 * The wait has no deadline, and it holds up every stream of the same
 * priority (they share a channel).  Work queued behind it fills the
 * channel's rings (1024 entries, 1 MiB of commands); a call that needs
 * more room then blocks until the wait is satisfied, so the thread that
 * is to satisfy it must not issue that much first.
 */
PPU_API ppu_status ppu_stream_wait_value32(ppu_stream *stream, ppu_devptr addr, uint32_t value,
					   enum ppu_wait_cond cond);
/* Writes @value to the word once the stream's earlier work has completed. */
PPU_API ppu_status ppu_stream_write_value32(ppu_stream *stream, ppu_devptr addr, uint32_t value);

/*
 * Copies @bytes from @src to @dst (device addresses, local or host, any
 * alignment) in stream order.  Both ranges must lie inside allocations of
 * the context.  0 bytes is a no-op.
 */
PPU_API ppu_status ppu_memcpy_async(ppu_devptr dst, ppu_devptr src, size_t bytes, ppu_stream *stream);
/* The same on the default stream, waiting for it to complete. */
PPU_API ppu_status ppu_memcpy(ppu_ctx *ctx, ppu_devptr dst, ppu_devptr src, size_t bytes);

/* ---- modules: kernels for the compute units ---- */

/*
 * Loads a kernel image, a RISC-V ELF32 static PIE built for rv32ima/ilp32
 * with runtime/device/ppu_kernel.ld (docs/kernels.md), into device memory
 * of the context (local memory when the device has room, else host memory)
 * at an address chosen here, relocated for it.  The file is read at once.
 * Errors: INVALID_IMAGE (with what is wrong in ppu_last_error()), OS for
 * a file that cannot be read, memory and copy errors.
 */
PPU_API ppu_status ppu_module_load(ppu_ctx *ctx, const char *path, ppu_module **mod);
/* The same from an image in memory (copied; the caller keeps @image). */
PPU_API ppu_status ppu_module_load_data(ppu_ctx *ctx, const void *image, size_t bytes,
					ppu_module **mod);
/*
 * The kernel entry @name of the module: a function symbol.  The handle
 * lives as long as the module.  NOT_FOUND when there is none.
 */
PPU_API ppu_status ppu_module_get_function(ppu_module *mod, const char *name, ppu_function **fn);
/* The device address and size of a global variable @name (an object symbol). */
PPU_API ppu_status ppu_module_get_global(ppu_module *mod, const char *name, ppu_devptr *dptr,
					 size_t *bytes);
/*
 * Frees the module's device memory and its function handles.  Kernels of
 * the module still running must have completed (synchronize first).
 * ppu_ctx_destroy() unloads the modules left.
 */
PPU_API ppu_status ppu_module_unload(ppu_module *mod);

/* ---- kernel launches ---- */

/* Grid (CTAs) or CTA (threads) dimensions; every one at least 1. */
typedef struct ppu_dim3 {
	uint32_t x, y, z;
} ppu_dim3;

/* The most parameter bytes one launch carries. */
#define PPU_MAX_PARAM_BYTES 4096u

/*
 * Launches kernel @fn on @grid CTAs of @cta threads each, in stream order:
 * it starts once the stream's earlier work (copies, kernels, waits) has
 * completed, and the stream's later work, event records and synchronize
 * calls wait for it.  @param_bytes bytes at @params (NULL when 0) are
 * copied at the call, so the caller may reuse its buffer at once; the
 * kernel gets the device address of the copy (ppu_param(), the body's
 * @params), 64-byte aligned, or 0 without parameters.  Parameter blocks
 * hold device addresses, never host pointers.
 *
 * The kernel runs at the stream's device priority
 * (ppu_stream_get_device_priority(), or 0 under PPU_LIMIT_KERNEL_PRIORITIES
 * OFF), each thread with a stack of PPU_LIMIT_STACK_SIZE bytes.  It returns
 * once the launch is submitted, blocking only while the launch resources
 * (launch slots, task blocks, the channel's rings) are all in use by
 * unfinished work.  A kernel launch is a launch: it fixes the nesting depth
 * and the priority settings.
 *
 * Errors: INVALID_VALUE for a NULL @fn or @stream, NULL @params with
 * @param_bytes > 0, @param_bytes above PPU_MAX_PARAM_BYTES, or a shape the device cannot run (a dimension 0, grid y
 * or z above 65535, 2^32 CTAs or more, more threads per CTA than the
 * device's limit; ppu_last_error() says which); NOT_SUPPORTED on a device
 * without a compute engine; CHANNEL_FAULT once a channel of the stream's
 * level has faulted (a faulting kernel is reported like a faulting copy);
 * memory errors; channel errors when the level's compute channel is made
 * (PERMISSION_DENIED when device priority + N - 1 passes 32 without
 * CAP_SYS_NICE); submit errors; CONTEXT_MISMATCH for a function of another
 * context than the stream's.
 */
PPU_API ppu_status ppu_launch_kernel(ppu_function *fn, ppu_dim3 grid, ppu_dim3 cta,
				     const void *params, size_t param_bytes, ppu_stream *stream);

/* ---- device-side work creation (SEEDS §C) ---- */

#define PPU_WORK_QUEUE_LOG2_MIN 3u
#define PPU_WORK_QUEUE_LOG2_MAX 12u

/*
 * Creates a PPU-owned work queue of 2^@log2_entries GPFIFO entries: a
 * compute channel whose ring the PPU treats as always full, one semaphore
 * per entry, the semaphores X and Y and the descriptor kernels submit
 * through (include/ppu/ppu_workq.h), parked for its first launch.  Kernels
 * that queue blocks launch run at the default stream's device priority.
 * Errors: INVALID_VALUE for a NULL argument or a size outside
 * PPU_WORK_QUEUE_LOG2_MIN .. PPU_WORK_QUEUE_LOG2_MAX; NOT_SUPPORTED on a
 * device without a compute engine or always-full rings; memory and channel
 * errors.
 */
PPU_API ppu_status ppu_work_queue_create(ppu_ctx *ctx, unsigned int log2_entries,
					 ppu_work_queue **q);
/* Waits for the queue's last launch to close its window, then frees it. */
PPU_API ppu_status ppu_work_queue_destroy(ppu_work_queue *q);
/* The device address of the queue's descriptor (struct ppu_workq). */
PPU_API ppu_devptr ppu_work_queue_devptr(ppu_work_queue *q);

/*
 * Launches a kernel that creates device work through @q (a
 * PPU_WORKQ_KERNEL, docs/kernels.md), as ppu_launch_kernel() does, with
 * the SEEDS §C sequence on the stream's compute channel: the window's
 * thread count, KERNEL LAUNCH, WAIT FOR IDLE, SEM_RELEASE X, SEM_ACQUIRE Y.
 * The parameters' first 4 bytes are set to the queue's descriptor address.
 * The stream's later work starts only once every block the kernel's
 * threads submitted has run (the last thread closes the window); a fault
 * of the queue's channel is the launch's (CHANNEL_FAULT for the stream)
 * instead of a hang.  All launches into one queue come from one stream.
 * Errors: those of ppu_launch_kernel(); INVALID_VALUE for a NULL @q, a
 * queue used by another stream, fewer than 4
 * parameter bytes, or 2^32 threads or more; CONTEXT_MISMATCH for a queue
 * of another context; CHANNEL_FAULT once the queue's channel has faulted.
 */
PPU_API ppu_status ppu_launch_kernel_workq(ppu_function *fn, ppu_dim3 grid, ppu_dim3 cta,
					   const void *params, size_t param_bytes,
					   ppu_work_queue *q, ppu_stream *stream);

/* ---- events ---- */

PPU_API ppu_status ppu_event_create(ppu_ctx *ctx, ppu_event **event);
/* Frees the event, first waiting for a record still in flight (unless its channel faulted). */
PPU_API ppu_status ppu_event_destroy(ppu_event *event);
/* Marks the point in @stream; completes (with a PPU timestamp) when the stream's earlier work has. */
PPU_API ppu_status ppu_event_record(ppu_event *event, ppu_stream *stream);
/* PPU_SUCCESS when the last record completed, PPU_ERROR_NOT_READY before. */
PPU_API ppu_status ppu_event_query(ppu_event *event);
PPU_API ppu_status ppu_event_synchronize(ppu_event *event);
/* The PPU cycle counter when the last record completed. */
PPU_API ppu_status ppu_event_timestamp(ppu_event *event, uint64_t *cycles);
/* PPU cycles between two completed records (end - start; may be negative). */
PPU_API ppu_status ppu_event_elapsed_cycles(ppu_event *start, ppu_event *end, int64_t *cycles);

#if defined(__cplusplus)
}
#endif

#endif /* PPU_RUNTIME_H */
