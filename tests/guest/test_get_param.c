/* SPDX-License-Identifier: MIT */
/*
 * DRM_IOCTL_PPU_GET_PARAM, run inside the co-simulation guest against
 * ppu.ko and the RTL model (or on a machine with a PPU).
 *
 * Finds the ppu render node in /dev/dri (DRM_IOCTL_VERSION name "ppu"),
 * checks every parameter against the model's documented defaults and
 * against the live registers in debugfs (dri/<minor>/regs), checks the
 * -EINVAL contract (unknown param, nonzero pad) and that the cycle counter
 * advances.  Linked statically so that it runs in a busybox initramfs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_hw.h"
#include "ppu_guest.h"

/* The model's top-level parameter defaults (docs/hw-architecture.md). */
#define DEFAULT_COPY_CHUNK_BYTES 4096
#define DEFAULT_MEM_DATA_BYTES 8
#define DEFAULT_TLB_ENTRIES 16
#define DEFAULT_COPY_MAX_READS 256
#define DEFAULT_PB_PREFETCH_BEATS 16

#define FEATURES_KNOWN \
	(DRM_PPU_FEATURE_COPY_ENGINE | DRM_PPU_FEATURE_COMPUTE_ENGINE | \
	 DRM_PPU_FEATURE_SYS_APERTURE | DRM_PPU_FEATURE_SEM_TIMESTAMP | \
	 DRM_PPU_FEATURE_PRIO_SCHED | DRM_PPU_FEATURE_DEV_LAUNCH | DRM_PPU_FEATURE_AUTO_PUT | \
	 DRM_PPU_FEATURE_COMPUTE_COPY | DRM_PPU_FEATURE_USER_DOORBELL)

/* The ABI: one layout for 32- and 64-bit userspace, ioctl 0x40 of 'd'. */
_Static_assert(sizeof(struct drm_ppu_get_param) == 16, "drm_ppu_get_param size");
_Static_assert(offsetof(struct drm_ppu_get_param, pad) == 4, "pad offset");
_Static_assert(offsetof(struct drm_ppu_get_param, value) == 8, "value offset");
_Static_assert(DRM_IOCTL_PPU_GET_PARAM == _IOWR('d', 0x40, struct drm_ppu_get_param),
	       "ioctl number");

/* ---- tests ---- */

START_TEST(get_param_reports_default_capabilities)
{
	uint64_t version = ppu_param(DRM_PPU_PARAM_VERSION);
	uint64_t features = ppu_param(DRM_PPU_PARAM_FEATURES);

	ck_assert_uint_eq(version >> 16, PPU_VERSION_MAJOR);
	ck_assert_uint_eq(version >> 32, 0);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_NUM_CHANNELS), ppu_guest_num_channels());
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_COPY_CHUNK_BYTES), DEFAULT_COPY_CHUNK_BYTES);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_MEM_DATA_BYTES), DEFAULT_MEM_DATA_BYTES);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_TLB_ENTRIES), DEFAULT_TLB_ENTRIES);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_COPY_MAX_READS), DEFAULT_COPY_MAX_READS);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_PB_PREFETCH_BEATS), DEFAULT_PB_PREFETCH_BEATS);
	/* The co-simulation device's local memory (64 MiB unless the run says). */
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE), ppu_guest_local_mem_mib() << 20);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS), ppu_guest_num_channels() - 1);
	/* The copy engine and host-memory access are what the driver needs. */
	ck_assert(features & DRM_PPU_FEATURE_COPY_ENGINE);
	ck_assert(features & DRM_PPU_FEATURE_SYS_APERTURE);
	/* and doorbell pages: BAR0 holds every channel's (4 KiB CPU pages) */
	ck_assert(features & DRM_PPU_FEATURE_USER_DOORBELL);
	ck_assert_uint_eq(features & ~(uint64_t)FEATURES_KNOWN, 0);
	/* Device launches come with the compute engine. */
	ck_assert_uint_eq(!!(features & DRM_PPU_FEATURE_DEV_LAUNCH),
			  !!(features & DRM_PPU_FEATURE_COMPUTE_ENGINE));
	/* Without a compute engine: no CUs means no task table either. */
	if (!(features & DRM_PPU_FEATURE_COMPUTE_ENGINE)) {
		ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_NUM_CU), 0);
		ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_NUM_TASKS), 0);
	}
	/* Format constants, the same on every device. */
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_TASK_BLOCK_HEADER_BYTES), 0x280);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_THREAD_RECORD_BYTES), 128);
}
END_TEST

START_TEST(get_param_matches_capability_registers)
{
	static char regs[8192];
	static const struct {
		uint32_t param;
		const char *reg;
	} caps[] = {
		{ DRM_PPU_PARAM_VERSION, "VERSION" },
		{ DRM_PPU_PARAM_NUM_CHANNELS, "CAP_NUM_CHANNELS" },
		{ DRM_PPU_PARAM_NUM_CU, "CAP_NUM_CU" },
		{ DRM_PPU_PARAM_NUM_TASK_SLOTS, "CAP_NUM_TASK_SLOTS" },
		{ DRM_PPU_PARAM_NUM_PRIORITIES, "CAP_NUM_PRIORITIES" },
		{ DRM_PPU_PARAM_COPY_CHUNK_BYTES, "CAP_COPY_CHUNK_BYTES" },
		{ DRM_PPU_PARAM_MEM_DATA_BYTES, "CAP_MEM_DATA_BYTES" },
		{ DRM_PPU_PARAM_TLB_ENTRIES, "CAP_TLB_ENTRIES" },
		{ DRM_PPU_PARAM_COPY_MAX_READS, "CAP_COPY_MAX_READS" },
		{ DRM_PPU_PARAM_PB_PREFETCH_BEATS, "CAP_PB_PREFETCH_BEATS" },
		{ DRM_PPU_PARAM_CU_CONTEXTS, "CAP_CU_CONTEXTS" },
		{ DRM_PPU_PARAM_NUM_TASKS, "CAP_NUM_TASKS" },
		{ DRM_PPU_PARAM_MAX_CTA_THREADS, "CAP_MAX_CTA_THREADS" },
		{ DRM_PPU_PARAM_ICACHE_BYTES, "CAP_ICACHE_BYTES" },
		{ DRM_PPU_PARAM_CHAN_CACHE, "CAP_CHAN_CACHE" },
	};
	uint64_t before, after, cycle;
	size_t i;

	before = ppu_param(DRM_PPU_PARAM_CYCLE_COUNTER);
	ppu_debugfs_read("regs", regs, sizeof(regs));
	after = ppu_param(DRM_PPU_PARAM_CYCLE_COUNTER);

	ck_assert_uint_eq(ppu_debugfs_value(regs, "ID"), PPU_ID_VALUE);
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		uint64_t reg = ppu_debugfs_value(regs, caps[i].reg);

		ck_assert_msg(ppu_param(caps[i].param) == reg,
			      "param %u = %" PRIu64 ", register %s = %" PRIu64,
			      caps[i].param, ppu_param(caps[i].param), caps[i].reg, reg);
	}
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_FEATURES),
			  ppu_debugfs_value(regs, "CAP_FEATURES") & FEATURES_KNOWN);
	/* Local memory: all of it for BOs; then one channel is the driver's. */
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE),
			  ppu_debugfs_value(regs, "CAP_LOCAL_MEM_MIB") << 20);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS),
			  ppu_debugfs_value(regs, "CAP_NUM_CHANNELS") -
			  (ppu_debugfs_value(regs, "CAP_LOCAL_MEM_MIB") ? 1 : 0));

	/* The driver enabled its interrupt sources (the event ring's, or both pending ones). */
	ck_assert_uint_eq(ppu_debugfs_value(regs, "INTR_ENABLE"), ppu_intr_mask_expected());
	/* The channel table is in host memory: system aperture. */
	ck_assert(ppu_debugfs_value(regs, "CHAN_TABLE_HI") & PPU_FMASK(PPU_ADDR_HI_SYS));
	ck_assert_uint_eq(ppu_debugfs_value(regs, "CHAN_TABLE_LO") & 63, 0);

	/* The same counter: the register read lies between the two params. */
	cycle = ppu_debugfs_value(regs, "CYCLE");
	ck_assert_msg(before < cycle && cycle < after,
		      "cycle counter: param %" PRIu64 ", register %" PRIu64 ", param %" PRIu64,
		      before, cycle, after);
}
END_TEST

START_TEST(get_param_unknown_param_fails_with_einval)
{
	static const uint32_t unknown[] = {
		DRM_PPU_PARAM_CHAN_CACHE + 1, 0x100, 0x7fffffff, 0x80000000, 0xffffffff,
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		ck_assert_msg(ppu_get_param(unknown[i], 0, &v) == -EINVAL,
			      "param %#x did not fail with EINVAL", unknown[i]);
}
END_TEST

START_TEST(get_param_nonzero_pad_fails_with_einval)
{
	static const uint32_t pads[] = { 1, 0x80000000, 0xffffffff };
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(pads) / sizeof(pads[0]); i++) {
		ck_assert_int_eq(ppu_get_param(DRM_PPU_PARAM_NUM_CHANNELS, pads[i], &v), -EINVAL);
		ck_assert_int_eq(ppu_get_param(DRM_PPU_PARAM_CYCLE_COUNTER, pads[i], &v), -EINVAL);
	}
	/* The same calls with pad 0 succeed. */
	ck_assert_int_eq(ppu_get_param(DRM_PPU_PARAM_NUM_CHANNELS, 0, &v), 0);
	ck_assert_int_eq(ppu_get_param(DRM_PPU_PARAM_CYCLE_COUNTER, 0, &v), 0);
}
END_TEST

START_TEST(get_param_cycle_counter_advances)
{
	uint64_t c1 = ppu_param(DRM_PPU_PARAM_CYCLE_COUNTER);
	uint64_t c2 = ppu_param(DRM_PPU_PARAM_CYCLE_COUNTER);
	uint64_t c3;

	usleep(10000);
	c3 = ppu_param(DRM_PPU_PARAM_CYCLE_COUNTER);
	ck_assert_msg(c1 < c2 && c2 < c3,
		      "cycle counter did not advance: %" PRIu64 ", %" PRIu64 ", %" PRIu64,
		      c1, c2, c3);
}
END_TEST

START_TEST(debugfs_counters_lists_every_perf_counter)
{
	static const char *const names[PPU_PERF_COUNT] = {
		"DOORBELLS", "GP_ENTRIES", "METHODS", "SEM_ACQ_OK", "SEM_ACQ_FAIL",
		"SEM_RELEASES", "SEM_REDUCTIONS", "COPIES", "COPY_BYTES",
		"COPY_BUSY_CYCLES", "CHAN_SWITCHES", "FAULTS", "MEM_RD_BEATS",
		"MEM_WR_BEATS", "TLB_MISSES", "NONSTALL_INTRS", "HOST_LAUNCHES",
		"DEV_LAUNCHES", "DEV_LAUNCH_DEPTH_ERRORS", "DEV_LAUNCH_ERRORS",
		"TASKS_COMPLETED", "CTA_DISPATCHES", "CTA_RESUMES", "PREEMPTIONS",
		"EVICTIONS", "WAIT_SAVES", "WAVE_SWITCHES", "CTXSW_CYCLES", "CU_INSTRET",
		"CU_ISSUE_CYCLES", "ICACHE_MISSES", "AMOS", "COPY_BEATS",
	};
	_Static_assert(PPU_PERF_COUNT == 33, "a name for every counter");
	static char text[4096];
	int lines = 0;
	const char *p;
	size_t i;

	ppu_debugfs_read("counters", text, sizeof(text));
	for (p = text; *p; p++)
		lines += *p == '\n';
	ck_assert_int_eq(lines, PPU_PERF_COUNT);
	for (i = 0; i < PPU_PERF_COUNT; i++)
		ppu_debugfs_value(text, names[i]);
}
END_TEST

static Suite *get_param_suite(void)
{
	Suite *s = suite_create("get_param");
	TCase *tc = tcase_create("get_param");

	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, get_param_reports_default_capabilities);
	tcase_add_test(tc, get_param_matches_capability_registers);
	tcase_add_test(tc, get_param_unknown_param_fails_with_einval);
	tcase_add_test(tc, get_param_nonzero_pad_fails_with_einval);
	tcase_add_test(tc, get_param_cycle_counter_advances);
	tcase_add_test(tc, debugfs_counters_lists_every_perf_counter);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(get_param_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
