// SPDX-License-Identifier: MIT
/* RTL tests: each test builds its own simulated PPU through the harness. */
#include <check.h>
#include <stdlib.h>

#include "rtl_suites.h"

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	int failed;
	size_t i;

	for (i = 0; i < sizeof(rtl_suites) / sizeof(rtl_suites[0]); i++)
		srunner_add_suite(sr, rtl_suites[i]());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
