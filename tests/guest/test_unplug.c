/* SPDX-License-Identifier: MIT */
/*
 * Unbinding ppu.ko from the PPU while a client holds the render node open
 * (the software view of a hot unplug), run inside the co-simulation guest.
 *
 * After the unbind every ioctl on the old file fails with ENODEV (the
 * driver's drm_dev_enter()/drm_dev_unplug() discipline), closing it is
 * safe, and binding the driver again gives a working render node.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "ppu_guest.h"


START_TEST(unbind_with_open_file_fails_ioctls_with_enodev_then_rebinds)
{
	char bdf[PATH_MAX];
	uint64_t v;

	ppu_render_node_bdf(bdf, sizeof(bdf));
	ck_assert_int_eq(ppu_get_param(DRM_PPU_PARAM_CYCLE_COUNTER, 0, &v), 0);

	ppu_sysfs_write(PPU_DRIVER_SYSFS "/unbind", bdf);
	/* Cached and live parameters alike: the device is gone. */
	ck_assert_int_eq(ppu_get_param(DRM_PPU_PARAM_CYCLE_COUNTER, 0, &v), -ENODEV);
	ck_assert_int_eq(ppu_get_param(DRM_PPU_PARAM_NUM_CHANNELS, 0, &v), -ENODEV);
	ppu_guest_teardown();

	ppu_sysfs_write(PPU_DRIVER_SYSFS "/bind", bdf);
	ppu_guest_setup();
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_NUM_CHANNELS), 16);
	ck_assert_uint_gt(ppu_param(DRM_PPU_PARAM_CYCLE_COUNTER), 0);
}
END_TEST

static Suite *unplug_suite(void)
{
	Suite *s = suite_create("unplug");
	TCase *tc = tcase_create("unplug");

	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, unbind_with_open_file_fails_ioctls_with_enodev_then_rebinds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(unplug_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
