// SPDX-License-Identifier: MIT
#include <check.h>
#include <stdlib.h>

Suite *suite_iss(void);

int main(void)
{
	SRunner *sr = srunner_create(suite_iss());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
