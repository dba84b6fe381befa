// SPDX-License-Identifier: MIT
/*
 * ppu-smi's readers of the driver's debugfs files (tools/smi/smi_debugfs.c)
 * on text in the formats ppu.ko prints: channels of both engines, the
 * kernel's channel, dead channels with their reason, the older table
 * without the fault column; the fault log; counters; local memory with and
 * without the usage lines.  Lines that do not fit are skipped.
 */
#include <check.h>
#include <string.h>

#include "smi_debugfs.h"

START_TEST(channels_table_is_read_with_the_fault_column)
{
	static const char text[] =
		"chid owner    prio state        gp_get   gp_put   dead engine  tasks fault\n"
		"   0 212        40 idle                3        3 no   copy        - -\n"
		"   1 212        20 faulted             1        2 yes  copy        - host/illegal_method\n"
		"   2 212        32 wfi_wait            5        5 no   compute     2 -\n"
		"  15 kernel     63 idle               10       10 no   copy        - -\n";
	struct smi_chan c[8];

	ck_assert_int_eq(smi_parse_channels(text, c, 8), 4);
	ck_assert_uint_eq(c[0].chid, 0);
	ck_assert_int_eq(c[0].pid, 212);
	ck_assert_uint_eq(c[0].priority, 40);
	ck_assert_str_eq(c[0].state, "idle");
	ck_assert_str_eq(c[0].engine, "copy");
	ck_assert(!c[0].dead);
	ck_assert_int_eq(c[0].tasks, -1);
	ck_assert_str_eq(c[0].fault, "");
	ck_assert(c[1].dead);
	ck_assert_str_eq(c[1].state, "faulted");
	ck_assert_uint_eq(c[1].gp_get, 1);
	ck_assert_uint_eq(c[1].gp_put, 2);
	ck_assert_str_eq(c[1].fault, "host/illegal_method");
	ck_assert_str_eq(c[2].engine, "compute");
	ck_assert_int_eq(c[2].tasks, 2);
	ck_assert_int_eq(c[3].pid, -1);
	ck_assert_uint_eq(c[3].chid, 15);
	/* @max bounds what is read */
	ck_assert_int_eq(smi_parse_channels(text, c, 2), 2);
}
END_TEST

START_TEST(older_channels_table_and_other_files_are_told_apart)
{
	static const char old[] =
		"chid owner    prio state        gp_get   gp_put   dead engine  tasks\n"
		"   3 99          32 faulted             0        1 yes  copy        -\n";
	struct smi_chan c[4];

	ck_assert_int_eq(smi_parse_channels(old, c, 4), 1);
	ck_assert(c[0].dead);
	ck_assert_str_eq(c[0].fault, "");
	ck_assert_int_eq(smi_parse_channels("device gone\n", c, 4), -1);
	ck_assert_int_eq(smi_parse_channels("", c, 4), -1);
	ck_assert_int_eq(smi_parse_channels("chid owner x\ngarbage line\n", c, 4), 0);
}
END_TEST

START_TEST(fault_log_is_read_oldest_first)
{
	static const char text[] =
		"FAULTS 18\n"
		"time_ns          chid pid      kind access unit unit_name kind_name       addr       data\n"
		"1234567          1    212         4      0    0 host      illegal_method  0x00000000 0x00000bad\n"
		"2234567          4    -1         19      0    7 driver    watchdog        0x00000010 0x00000002\n";
	struct smi_fault f[16];
	uint64_t total = 0;

	ck_assert_int_eq(smi_parse_faults(text, &total, f, 16), 2);
	ck_assert_uint_eq(total, 18);
	ck_assert_uint_eq(f[0].time_ns, 1234567);
	ck_assert_uint_eq(f[0].chid, 1);
	ck_assert_int_eq(f[0].pid, 212);
	ck_assert_uint_eq(f[0].kind, 4);
	ck_assert_str_eq(f[0].unit_name, "host");
	ck_assert_str_eq(f[0].kind_name, "illegal_method");
	ck_assert_uint_eq(f[0].data, 0xbad);
	ck_assert_str_eq(f[1].kind_name, "watchdog");
	ck_assert_uint_eq(f[1].addr, 0x10);
	ck_assert_int_eq(smi_parse_faults("chid owner\n", &total, f, 16), -1);
}
END_TEST

START_TEST(counters_are_name_value_lines)
{
	static const char text[] =
		"DOORBELLS                12\n"
		"COPY_BYTES               18446744073709551615\n"
		"INTR_STATUS              0x00000010\n"
		"total: 1, used 2 free 3\n"
		"0x0-0x1000: 4096: used\n";
	struct smi_counter c[8];

	ck_assert_int_eq(smi_parse_values(text, c, 8), 3);
	ck_assert_str_eq(c[0].name, "DOORBELLS");
	ck_assert_uint_eq(c[0].value, 12);
	ck_assert_uint_eq(c[1].value, UINT64_MAX);
	ck_assert_uint_eq(c[2].value, 0x10);
}
END_TEST

START_TEST(local_memory_use_is_known_only_when_reported)
{
	static const char now[] =
		"CAP_LOCAL_MEM_MIB        64\n"
		"MANAGED_BYTES            67108864\n"
		"USED_BYTES               3145728\n"
		"BOS                      2\n"
		"0x0000000000000000-0x0000000000300000: 3145728: used\n"
		"total: 67108864, used 3145728 free 63963136\n";
	static const char old[] = "CAP_LOCAL_MEM_MIB        64\nMANAGED_BYTES            67108864\n";
	static const char none[] = "CAP_LOCAL_MEM_MIB        0\nMANAGED_BYTES            0\n";
	struct smi_lmem l;

	ck_assert_int_eq(smi_parse_lmem(now, &l), 0);
	ck_assert(l.used_known);
	ck_assert_uint_eq(l.managed_bytes, 64u << 20);
	ck_assert_uint_eq(l.used_bytes, 3u << 20);
	ck_assert_uint_eq(l.bos, 2);
	ck_assert_int_eq(smi_parse_lmem(old, &l), 0);
	ck_assert(!l.used_known);
	ck_assert_int_eq(smi_parse_lmem(none, &l), 0);
	ck_assert(l.used_known);
	ck_assert_uint_eq(l.used_bytes, 0);
	ck_assert_int_eq(smi_parse_lmem("DOORBELLS 1\n", &l), -1);
}
END_TEST

Suite *suite_smi_debugfs(void)
{
	Suite *s = suite_create("smi_debugfs");
	TCase *tc = tcase_create("smi_debugfs");

	tcase_add_test(tc, channels_table_is_read_with_the_fault_column);
	tcase_add_test(tc, older_channels_table_and_other_files_are_told_apart);
	tcase_add_test(tc, fault_log_is_read_oldest_first);
	tcase_add_test(tc, counters_are_name_value_lines);
	tcase_add_test(tc, local_memory_use_is_known_only_when_reported);
	suite_add_tcase(s, tc);
	return s;
}
