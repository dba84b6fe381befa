// SPDX-License-Identifier: MIT
/*
 * Two PPUs in one guest (ppu-cosim --devices 2, make multi-check): libppu
 * numbers them by PCI address and opens the one asked for; the SEEDS §B
 * worked example runs on both at once, one thread per device, each with
 * its exact completion order and every byte checked, and each PPU's copy
 * counter shows its own share; an object or address of one context given
 * to another (other device, or the same device) is refused with
 * PPU_ERROR_CONTEXT_MISMATCH and a message naming both, and nothing is
 * submitted by the refused calls.
 *
 * Fails at once, with the reason, when the guest has fewer than two PPUs.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ppu_runtime.h"
#include "rt_guest.h"
#include "rt_prio_run.h"

static void need_two(void)
{
	int n = -1;

	RT(ppu_device_count(&n));
	ck_assert_msg(n == 2, "this program needs exactly two PPUs (ppu-cosim --devices 2), "
		      "the guest has %d", n);
}

/* A perf counter of the PPU behind render node @node (debugfs counters). */
static unsigned long long counter(const char *node, const char *name)
{
	const char *minor = strrchr(node, 'D');
	char path[96], line[256], key[64];
	unsigned long long v, found = 0;
	int seen = 0;
	FILE *f;

	ck_assert_ptr_nonnull(minor);
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%s/counters", minor + 1);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %llu", key, &v) == 2 && !strcmp(key, name)) {
			found = v;
			seen = 1;
		}
	fclose(f);
	ck_assert_msg(seen, "%s has no %s", path, name);
	return found;
}

START_TEST(devices_are_numbered_by_pci_address)
{
	struct ppu_device_info d0, d1, c;
	ppu_ctx *ctx;

	need_two();
	RT(ppu_device_get_info(0, &d0));
	RT(ppu_device_get_info(1, &d1));
	printf("ppu0 %s %s, ppu1 %s %s\n", d0.pci_bus_id, d0.node, d1.pci_bus_id, d1.node);
	ck_assert_int_lt(strcmp(d0.pci_bus_id, d1.pci_bus_id), 0);
	ck_assert_str_ne(d0.node, d1.node);
	/* The context of device 1 is on device 1, every time. */
	for (int i = 0; i < 3; i++) {
		RT(ppu_ctx_create(&ctx, 1, 0));
		RT(ppu_ctx_get_info(ctx, &c));
		ck_assert_str_eq(c.node, d1.node);
		ck_assert_str_eq(c.pci_bus_id, d1.pci_bus_id);
		RT(ppu_ctx_destroy(ctx));
	}
	ck_assert_int_eq(ppu_ctx_create(&ctx, 2, 0), PPU_ERROR_NO_DEVICE);
	ck_assert_int_eq(ppu_device_get_info(2, &c), PPU_ERROR_NO_DEVICE);
}
END_TEST

struct prio_job {
	struct rt_prio_cfg cfg;
	struct rt_prio_result r;
	ppu_status st;
	char err[512];
	struct timespec t0, t1;
};

static void *prio_thread(void *arg)
{
	struct prio_job *j = arg;

	clock_gettime(CLOCK_MONOTONIC, &j->t0);
	j->st = rt_prio_run(&j->cfg, &j->r);
	snprintf(j->err, sizeof(j->err), "%s", ppu_last_error());
	clock_gettime(CLOCK_MONOTONIC, &j->t1);
	return NULL;
}

static double secs(struct timespec t)
{
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/*
 * The worked example on each PPU, both at once: C_high's copies overtake
 * Mlow2 on each device, the data is right on both, and each PPU did its
 * own six copies at least (the example's five and the idle reference).
 */
START_TEST(copy_priorities_on_both_devices_at_once)
{
	struct prio_job job[2];
	struct ppu_device_info info[2];
	unsigned long long before[2];
	pthread_t th[2];

	need_two();
	for (int d = 0; d < 2; d++) {
		RT(ppu_device_get_info(d, &info[d]));
		before[d] = counter(info[d].node, "COPIES");
		memset(&job[d], 0, sizeof(job[d]));
		job[d].cfg = (struct rt_prio_cfg){ .sems = 1, .nlow = 3, .nhigh = 2,
						   .low_bytes = 512 << 10,
						   .high_bytes = 128 << 10, .device = d };
	}
	for (int d = 0; d < 2; d++)
		ck_assert_int_eq(pthread_create(&th[d], NULL, prio_thread, &job[d]), 0);
	for (int d = 0; d < 2; d++)
		ck_assert_int_eq(pthread_join(th[d], NULL), 0);
	for (int d = 0; d < 2; d++) {
		unsigned long long copies = counter(info[d].node, "COPIES") - before[d];

		printf("ppu%d: order %s, high copy %llu cycles loaded, %llu alone (%.2fx); "
		       "%llu copies; %.2f-%.2f s\n", d, job[d].r.order,
		       (unsigned long long)job[d].r.loaded, (unsigned long long)job[d].r.alone,
		       job[d].r.ratio, copies, secs(job[d].t0), secs(job[d].t1));
		ck_assert_msg(job[d].st == PPU_SUCCESS, "ppu%d: %s: %s", d,
			      ppu_status_name(job[d].st), job[d].err);
		ck_assert_msg(job[d].r.data_ok, "ppu%d: wrong data", d);
		ck_assert_str_eq(job[d].r.order, "L1 H1 H2 L2 L3");
		/* Its own work at least: both on one PPU would leave the other at 0. */
		ck_assert_uint_ge(copies, 6);
	}
	/* They ran at the same time, not one after the other. */
	ck_assert(secs(job[0].t0) < secs(job[1].t1) && secs(job[1].t0) < secs(job[0].t1));
}
END_TEST

/* A call that must be refused as a mismatch, its message containing @text. */
#define MISMATCH(call, text)                                                               \
	do {                                                                               \
		ppu_status st_ = (call);                                                   \
		ck_assert_msg(st_ == PPU_ERROR_CONTEXT_MISMATCH, "%s: %s: %s", #call,      \
			      ppu_status_name(st_), ppu_last_error());                     \
		ck_assert_msg(strstr(ppu_last_error(), text), "%s: %s", #call,             \
			      ppu_last_error());                                           \
	} while (0)

struct side {
	ppu_ctx *ctx;
	ppu_stream *s;
	ppu_event *ev;
	ppu_module *m;
	ppu_function *fn;
	ppu_work_queue *q;
	ppu_devptr h, l, pad;
	uint8_t *hp;
	char tag[96];		/* "context N (device D" */
};

#define BYTES 4096

static void side_open(struct side *x, int device, int pad)
{
	void *p;

	memset(x, 0, sizeof(*x));
	RT(ppu_ctx_create(&x->ctx, device, 0));
	RT(ppu_stream_create_with_priority(x->ctx, 1, &x->s));
	RT(ppu_event_create(x->ctx, &x->ev));
	rt_load_kernel(x->ctx, "saxpy", "saxpy", &x->m, &x->fn);
	/* Device addresses are per context: keep B's buffers clear of A's. */
	if (pad)
		RT(ppu_mem_alloc_host(x->ctx, 8 << 20, &p, &x->pad));
	RT(ppu_mem_alloc_host(x->ctx, BYTES, &p, &x->h));
	x->hp = p;
	RT(ppu_mem_alloc(x->ctx, BYTES, &x->l));
	for (int i = 0; i < BYTES; i++)
		x->hp[i] = (uint8_t)(i * 7 + device);
}

static void side_close(struct side *x)
{
	if (x->q)
		RT(ppu_work_queue_destroy(x->q));
	x->q = NULL;
	RT(ppu_event_destroy(x->ev));
	RT(ppu_module_unload(x->m));
	RT(ppu_stream_destroy(x->s));
	RT(ppu_ctx_destroy(x->ctx));
}

/* The context id libppu gives @x, from a mismatch message naming it. */
static void side_tag(struct side *x, struct side *other)
{
	const char *e, *p;

	ck_assert_int_eq(ppu_event_record(x->ev, other->s), PPU_ERROR_CONTEXT_MISMATCH);
	e = ppu_last_error();
	p = strstr(e, "the event is of ");
	ck_assert_msg(p != NULL, "%s", e);
	p += strlen("the event is of ");
	snprintf(x->tag, sizeof(x->tag), "%.*s", (int)(strchr(p, ',') - p), p);
}

static void refuse_all(struct side *a, struct side *b, const char *b_dev)
{
	int64_t cyc;
	ppu_devptr d;
	char what[160];
	struct { uint32_t n, x, y; float a; } params = { 0 };

	/* B's buffers are not A's: the padding put them above A's. */
	ck_assert_uint_gt(b->h, a->h + BYTES);
	ck_assert_uint_gt(b->h, a->l + BYTES);

	side_tag(b, a);
	ck_assert_msg(strstr(b->tag, b_dev), "%s", b->tag);
	snprintf(what, sizeof(what), "the source is of %s", b->tag);
	MISMATCH(ppu_memcpy_async(a->l, b->h, BYTES, a->s), what);
	MISMATCH(ppu_memcpy_async(b->h, a->h, BYTES, a->s), "the destination is of");
	MISMATCH(ppu_memcpy_async(a->h, b->h + 16, 64, a->s), "the source");
	MISMATCH(ppu_memcpy(a->ctx, a->l, b->h, BYTES), "the source");
	MISMATCH(ppu_stream_write_value32(a->s, b->h, 1), "the address is of");
	MISMATCH(ppu_stream_wait_value32(a->s, b->h, 1, PPU_WAIT_VALUE_GEQ), "the address");
	MISMATCH(ppu_mem_free(a->ctx, b->h), "the allocation is of");
	MISMATCH(ppu_mem_host_to_dev(a->ctx, b->hp + 100, &d), "the host allocation is of");
	MISMATCH(ppu_event_record(b->ev, a->s), "the event is of");
	MISMATCH(ppu_stream_wait_event(a->s, b->ev), "the event is of");
	RT(ppu_event_record(a->ev, a->s));
	RT(ppu_event_record(b->ev, b->s));
	RT(ppu_event_synchronize(a->ev));
	RT(ppu_event_synchronize(b->ev));
	MISMATCH(ppu_event_elapsed_cycles(a->ev, b->ev, &cyc), "the end event is of");
	MISMATCH(ppu_launch_kernel(b->fn, (ppu_dim3){ 1, 1, 1 }, (ppu_dim3){ 1, 1, 1 }, &params,
				   sizeof(params), a->s), "the function is of");
	/* The queue's check comes after the function's: A's function, B's queue. */
	if (!b->q)
		RT(ppu_work_queue_create(b->ctx, PPU_WORK_QUEUE_LOG2_MIN, &b->q));
	MISMATCH(ppu_launch_kernel_workq(a->fn, (ppu_dim3){ 1, 1, 1 }, (ppu_dim3){ 1, 1, 1 },
					 &params, sizeof(params), b->q, a->s),
		 "the work queue is of");
	/* A's own: still fine, and nothing of the refused calls ran. */
	RT(ppu_stream_query(a->s));
	RT(ppu_memcpy_async(a->l, a->h, BYTES, a->s));
	RT(ppu_memcpy_async(a->h, a->l, BYTES, a->s));
	RT(ppu_stream_synchronize(a->s));
	for (int i = 0; i < BYTES; i++)
		ck_assert_uint_eq(b->hp[i], (uint8_t)(i * 7 + (b_dev[strlen(b_dev) - 1] - '0')));
	RT(ppu_mem_host_to_dev(b->ctx, b->hp + 100, &d));
	ck_assert_uint_eq(d, b->h + 100);
	rt_small_copy(a->ctx, a->s);
	rt_small_copy(b->ctx, b->s);
}

/* Objects of the context of PPU 1 given to one of PPU 0, and the other way. */
START_TEST(objects_of_another_device_are_refused)
{
	struct side a = { 0 }, b = { 0 };

	need_two();
	side_open(&a, 0, 0);
	side_open(&b, 1, 1);
	refuse_all(&a, &b, "device 1");
	side_close(&b);
	side_close(&a);

	side_open(&a, 1, 0);
	side_open(&b, 0, 1);
	refuse_all(&a, &b, "device 0");
	side_close(&b);
	side_close(&a);
}
END_TEST

/* Two contexts of one PPU are as separate as two PPUs. */
START_TEST(objects_of_another_context_of_the_same_device_are_refused)
{
	struct side a = { 0 }, b = { 0 };

	need_two();
	side_open(&a, 1, 0);
	side_open(&b, 1, 1);
	refuse_all(&a, &b, "device 1");
	side_close(&b);
	side_close(&a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("multi_device");
	TCase *tc = tcase_create("multi_device");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, devices_are_numbered_by_pci_address);
	tcase_add_test(tc, copy_priorities_on_both_devices_at_once);
	tcase_add_test(tc, objects_of_another_device_are_refused);
	tcase_add_test(tc, objects_of_another_context_of_the_same_device_are_refused);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
