// SPDX-License-Identifier: MIT
/*
 * libppu's owner lookup (runtime/owner.c), without a device: an address or
 * host pointer that one context does not hold is found in the other live
 * context that does (whole ranges only, never the asking context itself),
 * a removed context is no longer found, and the message names both
 * contexts with their devices and render nodes.
 */
#include <check.h>
#include <string.h>

#include "ppu_internal.h"

static uint8_t host_a[8192], host_b[4096];
/* Context 1 on device 0: a local and a host allocation; context 2 on device 1: one host. */
static struct ppu_alloc a_host = { .va = 0x200000, .size = 8192, .map = host_a };
static struct ppu_alloc a_local = { .next = &a_host, .va = 0x100000, .size = 4096 };
static struct ppu_alloc b_host = { .va = 0x100000 + 4096, .size = 4096, .map = host_b };
static struct ppu_alloc *allocs_a = &a_local, *allocs_b = &b_host, *allocs_c;
static struct ppu_owner ctx_a = { .device = 0, .id = 1, .node = "/dev/dri/renderD128",
				  .allocs = &allocs_a };
static struct ppu_owner ctx_b = { .device = 1, .id = 2, .node = "/dev/dri/renderD129",
				  .allocs = &allocs_b };
static struct ppu_owner ctx_c = { .device = 1, .id = 3, .node = "/dev/dri/renderD129",
				  .allocs = &allocs_c };

START_TEST(addresses_of_another_context_are_found)
{
	struct ppu_owner *list = NULL;

	ppu_owner_add(&list, &ctx_a);
	ppu_owner_add(&list, &ctx_b);
	ppu_owner_add(&list, &ctx_c);
	/* B's buffer, asked by A and by C: B; asked by B itself: nobody. */
	ck_assert_ptr_eq(ppu_owner_find(list, &ctx_a, 0x101000, 16, NULL), &ctx_b);
	ck_assert_ptr_eq(ppu_owner_find(list, &ctx_c, 0x101ff0, 16, NULL), &ctx_b);
	ck_assert_ptr_null(ppu_owner_find(list, &ctx_b, 0x101000, 16, NULL));
	/* A range is found only whole: past the end, or across two buffers, is nobody's. */
	ck_assert_ptr_null(ppu_owner_find(list, &ctx_c, 0x101ff0, 17, NULL));
	ck_assert_ptr_null(ppu_owner_find(list, &ctx_c, 0x100ff0, 32, NULL));
	ck_assert_ptr_eq(ppu_owner_find(list, &ctx_c, 0x100000, 4096, NULL), &ctx_a);
	ck_assert_ptr_null(ppu_owner_find(list, &ctx_c, 0x300000, 1, NULL));
	/* Host pointers: inside a mapping, and one past its end. */
	ck_assert_ptr_eq(ppu_owner_find(list, &ctx_b, 0, 0, host_a + 8191), &ctx_a);
	ck_assert_ptr_null(ppu_owner_find(list, &ctx_b, 0, 0, host_a + 8192));
	ck_assert_ptr_eq(ppu_owner_find(list, &ctx_a, 0, 0, host_b), &ctx_b);
	/* A local allocation has no CPU mapping to be found by. */
	ck_assert_ptr_eq(ppu_alloc_in(allocs_a, 0x100010, 4), &a_local);
	ck_assert_ptr_null(ppu_alloc_in_host(allocs_a, host_b));
	ck_assert_ptr_eq(ppu_alloc_in_host(allocs_a, host_a + 100), &a_host);
	/* Gone contexts are not found. */
	ppu_owner_remove(&list, &ctx_b);
	ck_assert_ptr_null(ppu_owner_find(list, &ctx_a, 0x101000, 16, NULL));
	ppu_owner_remove(&list, &ctx_a);
	ck_assert_ptr_null(ppu_owner_find(list, &ctx_c, 0x100000, 4096, NULL));
	ck_assert_ptr_eq(list, &ctx_c);
	ppu_owner_remove(&list, &ctx_c);
	ck_assert_ptr_null(list);
}
END_TEST

START_TEST(the_message_names_both_contexts)
{
	char msg[300];

	ppu_owner_mismatch(msg, sizeof(msg), "ppu_event_record", "the event", &ctx_b,
			   "the stream", &ctx_a);
	ck_assert_str_eq(msg, "ppu_event_record: the event is of context 2 (device 1, "
			 "/dev/dri/renderD129), the stream of context 1 (device 0, "
			 "/dev/dri/renderD128)");
	ppu_owner_mismatch(msg, sizeof(msg), "ppu_memcpy_async", "the source", &ctx_a, NULL,
			   &ctx_c);
	ck_assert_str_eq(msg, "ppu_memcpy_async: the source is of context 1 (device 0, "
			 "/dev/dri/renderD128), not of context 3 (device 1, /dev/dri/renderD129)");
	/* Truncated, never overrun. */
	memset(msg, 'x', sizeof(msg));
	ppu_owner_mismatch(msg, 20, "f", "the event", &ctx_b, NULL, &ctx_a);
	ck_assert_uint_eq(strlen(msg), 19);
	ck_assert_int_eq(msg[20], 'x');
}
END_TEST

Suite *suite_owner(void)
{
	Suite *s = suite_create("owner");
	TCase *tc = tcase_create("owner");

	tcase_add_test(tc, addresses_of_another_context_are_found);
	tcase_add_test(tc, the_message_names_both_contexts);
	suite_add_tcase(s, tc);
	return s;
}
