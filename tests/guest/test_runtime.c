// SPDX-License-Identifier: MIT
/*
 * libppu through ppu.ko on the co-simulated PPU: devices, contexts, memory,
 * streams and the priority mapping, copies, events, errors.  The copy
 * priority technique end to end is in test_runtime_prio.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "ppu_guest.h"
#include "ppu_runtime.h"
#include "rt_guest.h"

START_TEST(device_enumeration)
{
	struct ppu_device_info info;
	int n = -1;

	RT(ppu_device_count(&n));
	ck_assert_int_eq(n, 1);
	RT(ppu_device_get_info(0, &info));
	ck_assert_msg(!strncmp(info.node, "/dev/dri/renderD", 16), "node %s", info.node);
	ck_assert_msg(strlen(info.pci_bus_id) == 12, "bus id %s", info.pci_bus_id);
	ck_assert_uint_eq(info.num_device_priorities, 64);
	ck_assert_uint_eq(info.copy_chunk_bytes, 4096);
	ck_assert_uint_ge(info.num_user_channels, 4);
	ck_assert_uint_gt(info.local_mem_bytes, 0);
	ck_assert_int_eq(ppu_device_get_info(1, &info), PPU_ERROR_NO_DEVICE);
	ck_assert_int_eq(ppu_device_get_info(-1, &info), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_device_get_info(0, NULL), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_device_count(NULL), PPU_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(context_errors_and_strings)
{
	ppu_ctx *ctx = NULL;
	int i;

	ck_assert_int_eq(ppu_ctx_create(&ctx, 1, 0), PPU_ERROR_NO_DEVICE);
	ck_assert_ptr_null(ctx);
	ck_assert_msg(strstr(ppu_last_error(), "no PPU 1"), "message: %s", ppu_last_error());
	ck_assert_int_eq(ppu_ctx_create(&ctx, 0, 1), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_ctx_create(NULL, 0, 0), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_ctx_destroy(NULL), PPU_SUCCESS);
	for (i = 0; i <= PPU_ERROR_NOT_RECORDED; i++) {
		ck_assert_str_ne(ppu_status_name((ppu_status)i), "unknown");
		ck_assert_str_ne(ppu_status_string((ppu_status)i), "unknown status");
	}
	ck_assert_str_eq(ppu_status_name(PPU_ERROR_CONTEXT_ACTIVE), "PPU_ERROR_CONTEXT_ACTIVE");
	ck_assert_str_eq(ppu_status_name((ppu_status)999), "unknown");
	RT(ppu_ctx_create(&ctx, 0, 0));
	ck_assert_str_eq(ppu_last_error(), "");
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

START_TEST(memory_alloc_free)
{
	ppu_devptr d, h, h2;
	uint8_t *p;
	ppu_ctx *ctx;
	size_t i;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_mem_alloc(ctx, 12345, &d));
	RT(ppu_mem_alloc_host(ctx, 3 * 4096 + 1, (void **)&p, &h));
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_ne(d, h);
	for (i = 0; i < 3 * 4096 + 1; i++)
		ck_assert_uint_eq(p[i], 0);
	RT(ppu_mem_host_to_dev(ctx, p + 100, &h2));
	ck_assert_uint_eq(h2, h + 100);
	ck_assert_int_eq(ppu_mem_host_to_dev(ctx, &i, &h2), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_mem_alloc(ctx, 0, &d), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_mem_alloc_host(ctx, 16, NULL, &h2), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_mem_alloc(ctx, (size_t)1 << 40, &h2), PPU_ERROR_INVALID_VALUE);
	/* More than the device's local memory. */
	ck_assert_int_eq(ppu_mem_alloc(ctx, (size_t)3 << 30, &h2),
			 PPU_ERROR_OUT_OF_DEVICE_MEMORY);
	ck_assert_msg(strstr(ppu_last_error(), "GEM_CREATE"), "message: %s", ppu_last_error());
	ck_assert_int_eq(ppu_mem_free(ctx, h + 4096), PPU_ERROR_INVALID_VALUE);
	RT(ppu_mem_free(ctx, d));
	ck_assert_int_eq(ppu_mem_free(ctx, d), PPU_ERROR_INVALID_VALUE);
	RT(ppu_mem_free(ctx, h));
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/* Host -> local -> local -> host at odd offsets and lengths, chunked and not. */
START_TEST(copy_roundtrip)
{
	static const size_t lens[] = { 1, 3, 4095, 4096, 4097, 65536 + 7, 300000 };
	static const uint64_t chunks[] = { 0, 4096, 16384 };
	const size_t size = 320 << 10;
	uint8_t *src, *dst;
	ppu_devptr hs, hd, l1, l2;
	ppu_ctx *ctx;
	unsigned int c, k;
	size_t i;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_mem_alloc_host(ctx, size, (void **)&src, &hs));
	RT(ppu_mem_alloc_host(ctx, size, (void **)&dst, &hd));
	RT(ppu_mem_alloc(ctx, size, &l1));
	RT(ppu_mem_alloc(ctx, size, &l2));
	for (c = 0; c < 3; c++) {
		RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_CHUNK_BYTES, chunks[c]));
		for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
			size_t len = lens[k], so = (k * 13) % 17, doff = (k * 7) % 11;

			for (i = 0; i < size; i++) {
				src[i] = (uint8_t)(i * 31 + k * 7 + c);
				dst[i] = 0xee;
			}
			RT(ppu_memcpy(ctx, l1 + 5, hs + so, len));
			RT(ppu_memcpy(ctx, l2 + 3, l1 + 5, len));
			RT(ppu_memcpy(ctx, hd + doff, l2 + 3, len));
			for (i = 0; i < len; i++)
				ck_assert_msg(dst[doff + i] == src[so + i],
					      "chunk %llu len %zu: byte %zu", (unsigned long long)chunks[c],
					      len, i);
			ck_assert_uint_eq(dst[doff + len], 0xee);
			if (doff)
				ck_assert_uint_eq(dst[doff - 1], 0xee);
		}
	}
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

START_TEST(copy_errors)
{
	ppu_devptr a, b;
	ppu_ctx *ctx;
	void *p;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_mem_alloc_host(ctx, 8192, &p, &a));
	RT(ppu_mem_alloc(ctx, 8192, &b));
	ck_assert_int_eq(ppu_memcpy(ctx, b, a, 8193), PPU_ERROR_INVALID_VALUE);
	ck_assert_msg(strstr(ppu_last_error(), "source"), "message: %s", ppu_last_error());
	ck_assert_int_eq(ppu_memcpy(ctx, b + 1, a, 8192), PPU_ERROR_INVALID_VALUE);
	ck_assert_msg(strstr(ppu_last_error(), "destination"), "message: %s", ppu_last_error());
	ck_assert_int_eq(ppu_memcpy(ctx, 0x1000, a, 16), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_memcpy_async(b, a, 16, NULL), PPU_ERROR_INVALID_VALUE);
	/* Zero bytes is a no-op, even at addresses of nothing. */
	RT(ppu_memcpy(ctx, 0, 0, 0));
	/* A rejected copy did not launch: the depth can still change. */
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 3));
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_CHUNK_BYTES, 1000),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, (enum ppu_limit)77, 1), PPU_ERROR_INVALID_VALUE);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * Long enough for the PPU to re-check a blocked wait many times
 * (SCHED_ACQ_RETRY is 256 cycles): a wait still pending after it is held.
 */
#define HELD_US 50000

static void set_word(uint32_t *w, uint32_t v)
{
	__atomic_store_n(w, v, __ATOMIC_RELEASE);
}

/*
 * A wait of @s on the word for @value under @cond: held while the word is
 * @closed1, then @closed2; passes once it is @open.
 */
static void held_until(ppu_stream *s, uint32_t *w, ppu_devptr dw, ppu_event *ev,
		       enum ppu_wait_cond cond, uint32_t value, uint32_t closed1,
		       uint32_t closed2, uint32_t open)
{
	set_word(w, closed1);
	RT(ppu_stream_wait_value32(s, dw, value, cond));
	RT(ppu_event_record(ev, s));
	usleep(HELD_US);
	ck_assert_msg(ppu_event_query(ev) == PPU_ERROR_NOT_READY, "cond %d value %#x passed at %#x",
		      (int)cond, value, closed1);
	set_word(w, closed2);
	usleep(HELD_US);
	ck_assert_msg(ppu_event_query(ev) == PPU_ERROR_NOT_READY, "cond %d value %#x passed at %#x",
		      (int)cond, value, closed2);
	set_word(w, open);
	RT(ppu_event_synchronize(ev));
}

/* Stream memory operations: the CPU opens a stream's wait, streams signal each other. */
START_TEST(stream_value_ops)
{
	const size_t n = 64 << 10;
	uint32_t *w;
	uint8_t *x, *z;
	ppu_devptr dw, dflag, hx, l1, hz;
	ppu_stream *lo, *hi;
	ppu_event *ev;
	ppu_ctx *ctx;
	size_t i;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_stream_create_with_priority(ctx, 0, &lo));
	RT(ppu_stream_create_with_priority(ctx, 1, &hi));
	RT(ppu_mem_alloc_host(ctx, 64, (void **)&w, &dw));
	RT(ppu_mem_alloc_host(ctx, n, (void **)&x, &hx));
	RT(ppu_mem_alloc_host(ctx, n, (void **)&z, &hz));
	RT(ppu_mem_alloc(ctx, n, &l1));
	RT(ppu_mem_alloc(ctx, 4, &dflag));
	RT(ppu_event_create(ctx, &ev));
	for (i = 0; i < n; i++)
		x[i] = (uint8_t)(i * 5 + (i >> 11));

	/* GEQ: the stream runs once the CPU has written the value. */
	RT(ppu_stream_wait_value32(hi, dw, 1, PPU_WAIT_VALUE_GEQ));
	RT(ppu_memcpy_async(hz, hx, n, hi));
	RT(ppu_event_record(ev, hi));
	usleep(HELD_US);
	ck_assert_int_eq(ppu_event_query(ev), PPU_ERROR_NOT_READY);
	ck_assert_int_eq(ppu_stream_query(hi), PPU_ERROR_NOT_READY);
	ck_assert_uint_eq(z[0], 0);
	/* The other level's channel is not held. */
	rt_small_copy(ctx, lo);
	set_word(w, 1);
	RT(ppu_stream_synchronize(hi));
	ck_assert(!memcmp(z, x, n));

	/* GEQ compares as a counter that wraps: 0xfffffff0 and 4 are before 5. */
	held_until(hi, w, dw, ev, PPU_WAIT_VALUE_GEQ, 5, 0xfffffff0u, 4, 0x10);
	/* EQ: neither a smaller nor a larger value opens it. */
	held_until(hi, w, dw, ev, PPU_WAIT_VALUE_EQ, 7, 5, 8, 7);
	/* AND: any common bit. */
	held_until(hi, w, dw, ev, PPU_WAIT_VALUE_AND, 0x4, 0x3, 0x8, 0x84);

	/* A write lands after the stream's earlier copy, for the CPU and for other streams. */
	memset(z, 0, n);
	RT(ppu_memcpy_async(l1, hx, n, lo));
	RT(ppu_stream_write_value32(lo, dflag, 0x5eed));
	RT(ppu_stream_write_value32(lo, dw + 4, 42));
	RT(ppu_stream_wait_value32(hi, dflag, 0x5eed, PPU_WAIT_VALUE_EQ));
	RT(ppu_memcpy_async(hz, l1, n, hi));
	RT(ppu_stream_synchronize(lo));
	ck_assert_uint_eq(w[1], 42);
	RT(ppu_stream_synchronize(hi));
	ck_assert(!memcmp(z, x, n));
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

START_TEST(stream_value_errors)
{
	ppu_devptr d, l;
	ppu_stream *s;
	ppu_ctx *ctx;
	void *p;

	RT(ppu_ctx_create(&ctx, 0, 0));
	s = ppu_ctx_default_stream(ctx);
	RT(ppu_mem_alloc_host(ctx, 64, &p, &d));
	RT(ppu_mem_alloc(ctx, 4096, &l));
	ck_assert_int_eq(ppu_stream_wait_value32(NULL, d, 1, PPU_WAIT_VALUE_GEQ),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_stream_write_value32(NULL, d, 1), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_stream_wait_value32(s, d + 2, 1, PPU_WAIT_VALUE_GEQ),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_msg(strstr(ppu_last_error(), "aligned"), "message: %s", ppu_last_error());
	ck_assert_int_eq(ppu_stream_write_value32(s, l + 6, 1), PPU_ERROR_INVALID_VALUE);
	/* The last word of an allocation is fine, one past it is not (same page). */
	ck_assert_int_eq(ppu_stream_wait_value32(s, d + 64, 1, PPU_WAIT_VALUE_EQ),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_msg(strstr(ppu_last_error(), "allocation"), "message: %s", ppu_last_error());
	ck_assert_int_eq(ppu_stream_write_value32(s, 0x1000, 1), PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_stream_wait_value32(s, d, 1, (enum ppu_wait_cond)3),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_stream_wait_value32(s, d, 1, (enum ppu_wait_cond)-1),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_stream_wait_value32(s, d, 0, PPU_WAIT_VALUE_AND),
			 PPU_ERROR_INVALID_VALUE);
	/* Nothing was issued: the depth can still change. */
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 3));
	RT(ppu_stream_write_value32(s, l + 4092, 9));
	RT(ppu_stream_write_value32(s, d + 60, 9));
	RT(ppu_stream_wait_value32(s, l + 4092, 9, PPU_WAIT_VALUE_EQ));
	RT(ppu_stream_synchronize(s));
	ck_assert_uint_eq(((uint32_t *)p)[15], 9);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/* SEEDS §A through the API: M = 64 device priorities. */
START_TEST(stream_priorities)
{
	ppu_stream *s0, *s5, *top, *neg;
	unsigned int dp;
	int lo, hi, p;
	uint64_t v;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_get_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, &v));
	ck_assert_uint_eq(v, 2);
	RT(ppu_ctx_get_stream_priority_range(ctx, &lo, &hi));
	ck_assert_int_eq(lo, 0);
	ck_assert_int_eq(hi, 31);
	RT(ppu_stream_get_device_priority(ppu_ctx_default_stream(ctx), &dp));
	ck_assert_uint_eq(dp, 0);
	RT(ppu_stream_create(ctx, &s0));
	RT(ppu_stream_create_with_priority(ctx, 5, &s5));
	RT(ppu_stream_create_with_priority(ctx, 1000, &top));
	RT(ppu_stream_create_with_priority(ctx, -3, &neg));
	RT(ppu_stream_get_device_priority(s0, &dp));
	ck_assert_uint_eq(dp, 0);
	RT(ppu_stream_get_device_priority(s5, &dp));
	ck_assert_uint_eq(dp, 10);
	RT(ppu_stream_get_priority(top, &p));
	ck_assert_int_eq(p, 31);
	RT(ppu_stream_get_device_priority(top, &dp));
	ck_assert_uint_eq(dp, 62);
	RT(ppu_stream_get_device_priority(neg, &dp));
	ck_assert_uint_eq(dp, 0);

	/* N = 4 before the first launch: 16 levels, the streams remapped. */
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 4));
	RT(ppu_ctx_get_stream_priority_range(ctx, &lo, &hi));
	ck_assert_int_eq(hi, 15);
	RT(ppu_stream_get_device_priority(s5, &dp));
	ck_assert_uint_eq(dp, 20);
	RT(ppu_stream_get_device_priority(top, &dp));
	ck_assert_uint_eq(dp, 60);
	RT(ppu_ctx_get_device_priority(ctx, 2, &dp));
	ck_assert_uint_eq(dp, 8);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 0),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 65),
			 PPU_ERROR_INVALID_VALUE);
	/* N = 64: one level, everything at device priority 0. */
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 64));
	RT(ppu_stream_get_device_priority(top, &dp));
	ck_assert_uint_eq(dp, 0);
	/* Back to N = 4: the requested priority (1000) still counts. */
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 4));
	RT(ppu_stream_get_device_priority(top, &dp));
	ck_assert_uint_eq(dp, 60);

	/* The first launch fixes it. */
	rt_small_copy(ctx, s5);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 2),
			 PPU_ERROR_CONTEXT_ACTIVE);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_PRIORITIES, 0),
			 PPU_ERROR_CONTEXT_ACTIVE);
	RT(ppu_ctx_get_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, &v));
	ck_assert_uint_eq(v, 4);
	/* Streams created later use the fixed mapping. */
	RT(ppu_stream_create_with_priority(ctx, 3, &s0));
	RT(ppu_stream_get_device_priority(s0, &dp));
	ck_assert_uint_eq(dp, 12);
	rt_small_copy(ctx, s0);
	RT(ppu_stream_destroy(s0));
	ck_assert_int_eq(ppu_stream_destroy(ppu_ctx_default_stream(ctx)), PPU_ERROR_INVALID_VALUE);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

START_TEST(events_and_sync)
{
	ppu_event *e0, *e1, *never;
	ppu_devptr a, b;
	ppu_stream *s;
	uint64_t t0, t1;
	int64_t dt;
	ppu_ctx *ctx;
	void *p;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_stream_create_with_priority(ctx, 1, &s));
	RT(ppu_mem_alloc_host(ctx, 256 << 10, &p, &a));
	RT(ppu_mem_alloc(ctx, 256 << 10, &b));
	RT(ppu_event_create(ctx, &e0));
	RT(ppu_event_create(ctx, &e1));
	RT(ppu_event_create(ctx, &never));
	/* Never recorded: complete (like CUDA), but it has no time. */
	RT(ppu_event_query(never));
	RT(ppu_event_synchronize(never));
	ck_assert_int_eq(ppu_event_timestamp(never, &t0), PPU_ERROR_NOT_RECORDED);
	ck_assert_int_eq(ppu_event_elapsed_cycles(e0, never, &dt), PPU_ERROR_NOT_RECORDED);

	RT(ppu_event_record(e0, s));
	RT(ppu_memcpy_async(b, a, 256 << 10, s));
	RT(ppu_event_record(e1, s));
	RT(ppu_event_synchronize(e1));
	RT(ppu_event_query(e0));
	RT(ppu_stream_query(s));
	RT(ppu_event_elapsed_cycles(e0, e1, &dt));
	/* 8 bytes per cycle at best, and not absurdly slower. */
	ck_assert_msg(dt >= (256 << 10) / 8 && dt < 40 * (256 << 10) / 8, "elapsed %lld",
		      (long long)dt);
	RT(ppu_event_timestamp(e0, &t0));
	RT(ppu_event_timestamp(e1, &t1));
	ck_assert_int_eq((int64_t)(t1 - t0), dt);
	RT(ppu_event_elapsed_cycles(e1, e0, &dt));
	ck_assert_int_lt(dt, 0);

	/* Re-record: the newest record counts. */
	RT(ppu_memcpy_async(b, a, 128 << 10, s));
	RT(ppu_event_record(e0, s));
	RT(ppu_stream_synchronize(s));
	RT(ppu_event_query(e0));
	RT(ppu_event_timestamp(e0, &t0));
	ck_assert_uint_gt(t0, t1);
	RT(ppu_ctx_synchronize(ctx));
	RT(ppu_event_destroy(never));
	ck_assert_int_eq(ppu_event_record(NULL, s), PPU_ERROR_INVALID_VALUE);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/* A stream waits for another stream's event on the PPU, not on the CPU. */
START_TEST(stream_wait_event)
{
	const size_t n = 512 << 10;
	ppu_devptr hx, l1, hz;
	uint8_t *x, *z;
	ppu_stream *lo, *hi;
	ppu_event *ev;
	ppu_ctx *ctx;
	size_t i;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_stream_create_with_priority(ctx, 0, &lo));
	RT(ppu_stream_create_with_priority(ctx, 3, &hi));
	RT(ppu_mem_alloc_host(ctx, n, (void **)&x, &hx));
	RT(ppu_mem_alloc_host(ctx, n, (void **)&z, &hz));
	RT(ppu_mem_alloc(ctx, n, &l1));
	RT(ppu_event_create(ctx, &ev));
	for (i = 0; i < n; i++)
		x[i] = (uint8_t)(i * 7 + (i >> 12));
	RT(ppu_memcpy_async(l1, hx, n, lo));
	RT(ppu_event_record(ev, lo));
	RT(ppu_stream_wait_event(hi, ev));
	RT(ppu_memcpy_async(hz, l1, n, hi));
	RT(ppu_stream_synchronize(hi));
	for (i = 0; i < n; i++)
		ck_assert_msg(z[i] == x[i], "byte %zu", i);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * Many copies through one stream: the pushbuffer ring (1 MiB) and the
 * GPFIFO (1024 entries) both wrap and are reclaimed.  Ten higher-priority
 * streams make every chunk of the default stream carry ten acquires.
 */
static void ring_reuse_run(void)
{
	const size_t n = 16 << 10;
	ppu_stream *hi[10];
	ppu_devptr hs, hd;
	uint8_t *s8, *d8;
	ppu_ctx *ctx;
	unsigned int k;
	size_t i;

	RT(ppu_ctx_create(&ctx, 0, 0));
	for (k = 0; k < 10; k++)
		RT(ppu_stream_create_with_priority(ctx, (int)k + 1, &hi[k]));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_CHUNK_BYTES, 4096));
	RT(ppu_mem_alloc_host(ctx, n, (void **)&s8, &hs));
	RT(ppu_mem_alloc_host(ctx, n, (void **)&d8, &hd));
	for (i = 0; i < n; i++)
		s8[i] = (uint8_t)(i ^ (i >> 8));
	/* 4 chunks of 71 dwords a copy: 1100 copies are 1.2 MiB of commands. */
	for (k = 0; k < 1100; k++)
		RT(ppu_memcpy_async(hd + (k % 2), hs, n - 1, ppu_ctx_default_stream(ctx)));
	RT(ppu_ctx_synchronize(ctx));
	for (i = 0; i < n - 1; i++)
		ck_assert_msg(d8[i + 1] == s8[i], "byte %zu", i);
	RT(ppu_ctx_destroy(ctx));
}

START_TEST(ring_reuse)
{
	ring_reuse_run();
}
END_TEST

/* The PPU's debug hold after every release, through debugfs (0 = off). */
static void release_hold(unsigned int cycles)
{
	char text[16];

	snprintf(text, sizeof(text), "%u", cycles);
	ppu_guest_setup();
	ck_assert_int_eq(ppu_debugfs_write("release_hold", text), 0);
	ppu_guest_teardown();
}

/*
 * With the host pausing after every release before it reads on, the
 * entries' completion releases are visible long before their last methods
 * are read: the runtime must reclaim by GP_GET while the rings wrap.
 */
START_TEST(ring_reuse_with_release_hold)
{
	release_hold(3000);
	ring_reuse_run();
	release_hold(0);
}
END_TEST

/*
 * The pushbuffer-reuse race made deterministic: an entry's completion
 * release is seen by the CPU while the host holds before reading the
 * entry's last method (the non-stall interrupt); a longer entry submitted
 * then must not be written over it.  Reclaiming by the release (the old
 * runtime) rewrote dword 0 onwards and faulted the channel every time.
 */
START_TEST(released_entry_is_not_rewritten_before_the_ppu_has_read_it)
{
	const size_t n = 4096;
	ppu_devptr word_d, src, dst;
	uint8_t *s8, *d8;
	uint32_t *word;
	ppu_stream *s;
	ppu_ctx *ctx;
	unsigned int round, spins;
	size_t i;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_stream_create(ctx, &s));
	RT(ppu_mem_alloc_host(ctx, 4, (void **)&word, &word_d));
	RT(ppu_mem_alloc_host(ctx, n, (void **)&s8, &src));
	RT(ppu_mem_alloc_host(ctx, n, (void **)&d8, &dst));
	release_hold(500000);
	for (round = 1; round <= 3; round++) {
		for (i = 0; i < n; i++)
			s8[i] = (uint8_t)(i * round + 7);
		memset(d8, 0, n);
		/* A short entry: one release, then the timeline's release and interrupt. */
		RT(ppu_stream_write_value32(s, word_d, round));
		/* Its completion is visible in memory (no interrupt yet: it is after the hold). */
		for (spins = 0; ppu_stream_query(s) == PPU_ERROR_NOT_READY; spins++)
			ck_assert_uint_lt(spins, 10000000);
		RT(ppu_stream_query(s));
		/* A longer entry, issued while the host holds before the interrupt method. */
		RT(ppu_memcpy_async(dst, src, n, s));
		RT(ppu_stream_synchronize(s));
		ck_assert_uint_eq(*word, round);
		ck_assert_msg(!memcmp(d8, s8, n), "round %u: copy", round);
	}
	release_hold(0);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/* A fault in one context's work: its stream reports it, others go on. */
START_TEST(channel_fault)
{
	ppu_ctx *bad, *good;
	ppu_devptr a, b;
	void *p;

	RT(ppu_ctx_create(&bad, 0, 0));
	RT(ppu_ctx_create(&good, 0, 0));
	RT(ppu_mem_alloc_host(bad, 8192, &p, &a));
	RT(ppu_mem_alloc(bad, 8192, &b));
	/* Freed while a copy is queued behind nothing: the PPU faults on it. */
	RT(ppu_mem_free(bad, b));
	rt_raw_copy_unchecked(bad, b, a, 4096);
	ck_assert_int_eq(ppu_stream_synchronize(ppu_ctx_default_stream(bad)),
			 PPU_ERROR_CHANNEL_FAULT);
	ck_assert_int_eq(ppu_memcpy_async(a, a + 4096, 16, ppu_ctx_default_stream(bad)),
			 PPU_ERROR_CHANNEL_FAULT);
	ck_assert_int_eq(ppu_stream_query(ppu_ctx_default_stream(bad)), PPU_ERROR_CHANNEL_FAULT);
	rt_small_copy(good, ppu_ctx_default_stream(good));
	ck_assert_int_eq(ppu_ctx_destroy(bad), PPU_ERROR_CHANNEL_FAULT);
	RT(ppu_ctx_destroy(good));
}
END_TEST

/*
 * With no channel left for a new priority level (here: one channel per
 * file), a stream shares the nearest level that has one, reports that
 * level as its priority, and works.
 */
START_TEST(streams_share_a_level_when_no_channel_is_left)
{
	ppu_stream *a, *b;
	unsigned int dp;
	ppu_ctx *ctx;
	int p;

	ppu_module_param_set("max_channels_per_file", 1);
	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_stream_create_with_priority(ctx, 5, &a));
	RT(ppu_stream_create_with_priority(ctx, 31, &b));
	RT(ppu_stream_get_priority(a, &p));
	ck_assert_int_eq(p, 0);
	RT(ppu_stream_get_priority(b, &p));
	ck_assert_int_eq(p, 0);
	RT(ppu_stream_get_device_priority(b, &dp));
	ck_assert_uint_eq(dp, 0);
	rt_small_copy(ctx, a);
	rt_small_copy(ctx, b);
	rt_small_copy(ctx, ppu_ctx_default_stream(ctx));
	RT(ppu_stream_destroy(a));
	RT(ppu_stream_destroy(b));
	RT(ppu_ctx_destroy(ctx));
	ppu_module_param_set("max_channels_per_file", 0);

	/* with channels to spare, each level gets its own again */
	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_stream_create_with_priority(ctx, 5, &a));
	RT(ppu_stream_get_priority(a, &p));
	ck_assert_int_eq(p, 5);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

static Suite *runtime_suite(void)
{
	Suite *s = suite_create("libppu");
	TCase *tc = tcase_create("runtime");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, device_enumeration);
	tcase_add_test(tc, context_errors_and_strings);
	tcase_add_test(tc, memory_alloc_free);
	tcase_add_test(tc, copy_roundtrip);
	tcase_add_test(tc, copy_errors);
	tcase_add_test(tc, stream_priorities);
	tcase_add_test(tc, streams_share_a_level_when_no_channel_is_left);
	tcase_add_test(tc, events_and_sync);
	tcase_add_test(tc, stream_wait_event);
	tcase_add_test(tc, stream_value_ops);
	tcase_add_test(tc, stream_value_errors);
	tcase_add_test(tc, ring_reuse);
	tcase_add_test(tc, ring_reuse_with_release_hold);
	tcase_add_test(tc, released_entry_is_not_rewritten_before_the_ppu_has_read_it);
	tcase_add_test(tc, channel_fault);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(runtime_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
