// SPDX-License-Identifier: MIT
#include <check.h>
#include <stdlib.h>

Suite *suite_encode(void);
Suite *suite_svpkg(void);
Suite *suite_priority_map(void);
Suite *suite_copy_prio(void);
Suite *suite_pb_ring(void);
Suite *suite_module_elf(void);
Suite *suite_launch_plan(void);
Suite *suite_tl_ring(void);
Suite *suite_launch_cmds(void);
Suite *suite_workq(void);
Suite *suite_cosim_cpio(void);
Suite *suite_cosim_console(void);
Suite *suite_cosim_fetch(void);
Suite *suite_cosim_multi(void);
Suite *suite_owner(void);
Suite *suite_smi_debugfs(void);
Suite *suite_trace(void);
Suite *suite_trace_host(void);

int main(void)
{
	SRunner *sr = srunner_create(suite_encode());
	int failed;

	srunner_add_suite(sr, suite_svpkg());
	srunner_add_suite(sr, suite_priority_map());
	srunner_add_suite(sr, suite_copy_prio());
	srunner_add_suite(sr, suite_pb_ring());
	srunner_add_suite(sr, suite_module_elf());
	srunner_add_suite(sr, suite_launch_plan());
	srunner_add_suite(sr, suite_tl_ring());
	srunner_add_suite(sr, suite_launch_cmds());
	srunner_add_suite(sr, suite_workq());
	srunner_add_suite(sr, suite_cosim_cpio());
	srunner_add_suite(sr, suite_cosim_console());
	srunner_add_suite(sr, suite_cosim_fetch());
	srunner_add_suite(sr, suite_cosim_multi());
	srunner_add_suite(sr, suite_owner());
	srunner_add_suite(sr, suite_smi_debugfs());
	srunner_add_suite(sr, suite_trace());
	srunner_add_suite(sr, suite_trace_host());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
