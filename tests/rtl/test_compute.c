// SPDX-License-Identifier: MIT
/*
 * The compute engine in the whole PPU: compute channels launch TMDs through
 * the task table onto the compute units, which run the sample kernels of
 * runtime/device/samples (the ELF files of make device-kernels, loaded as
 * libppu loads them, with module_elf).  Results are checked against the CPU; completion
 * semaphores, WFI, priorities, CSRs, atomics under contention from every
 * context, fault isolation and unbind kills are checked from memory, the
 * channel windows, the counters and the trace.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/ppu_encode.h"
#include "rtl_check.h"
#include "rtl_env.h"
#include "rtl_suites.h"
#include "rtl_compute.h"
#include "../iss/ppu_iss.h"
#include "../../runtime/device/samples/samples.h"

#define PAGE 4096u

/* ---------------------------------------------------------------------- */

struct cfx {
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_kimage k;
};

static void cfx_begin(struct cfx *f, const char *file)
{
	f->env = rtl_env_create(NULL);
	f->ctx = rtl_ctx_create(f->env);
	rtl_kimage_load(f->ctx, file, &f->k);
}

static void cfx_end(struct cfx *f)
{
	ck_assert_uint_eq(rtl_protocol_errors(f->env), 0);
	rtl_kimage_free(&f->k);
	rtl_ctx_destroy(f->ctx);
	rtl_env_destroy(f->env);
}

static size_t count_kind(struct rtl_env *env, uint32_t kind)
{
	return rtl_log_count(env, kind, -1);
}

/* Clocks until register @off reads @val; fails the test after @max cycles. */
static void wait_reg(struct rtl_env *env, uint32_t off, uint32_t val, uint64_t max)
{
	uint64_t t;

	for (t = 0; rtl_reg_read(env, off) != val; t += 64) {
		ck_assert_msg(t < max, "register 0x%x: 0x%x, waiting for 0x%x", off,
			      rtl_reg_read(env, off), val);
		ppu_sim_clock(env->sim, 64);
	}
}

/* ---------------------------------------------------------------------- */

START_TEST(caps_report_the_compute_engine)
{
	struct rtl_env *env = rtl_env_create(NULL);

	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) &
		  PPU_FSET(PPU_CAP_FEATURES_COMPUTE_ENGINE, 1));
	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) &
		  PPU_FSET(PPU_CAP_FEATURES_DEV_LAUNCH, 1));
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_NUM_CU), 4);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_NUM_TASK_SLOTS), 8);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_NUM_PRIORITIES), 64);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_CU_CONTEXTS), 8);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_NUM_TASKS), 64);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_MAX_CTA_THREADS), PPU_MAX_CTA_THREADS);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_ICACHE_BYTES), 1024);
	rtl_env_destroy(env);
}
END_TEST

/* SAXPY over 8 CTAs of 8 threads (odd n: the last threads do nothing). */
START_TEST(saxpy_matches_the_cpu)
{
	enum { N = 61 };
	int32_t x[64], y[64], out[64];
	struct saxpy_params p;
	struct rtl_klaunch l;
	struct rtl_buf bx, by, after;
	struct rtl_chan *ch;
	struct cfx f;
	uint32_t sem[4];
	int i;

	cfx_begin(&f, "saxpy");
	bx = rtl_buf_alloc(f.ctx, 0, sizeof(x));
	by = rtl_buf_alloc(f.ctx, 1, sizeof(y));
	after = rtl_buf_alloc(f.ctx, 0, 4);
	for (i = 0; i < 64; i++) {
		x[i] = i * 7 - 100;
		y[i] = 1000 - i * i;
	}
	rtl_buf_write(f.env, &bx, 0, x, sizeof(x));
	rtl_buf_write(f.env, &by, 0, y, sizeof(y));
	p = (struct saxpy_params){ .n = N, .a = -3, .x = bx.va, .y = by.va };

	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "saxpy"), 8, 8, &p, sizeof(p));
	l.prio = 7;
	rtl_klaunch_prepare(f.ctx, &l, 0x5a);
	ch = rtl_cchan_create(f.env, f.ctx, 1, 0, 63, 1);
	rtl_klaunch_submit(ch, &l, after.va, 0xa5);
	ck_assert_int_eq(rtl_chan_wait(ch, 2000000), 0);

	rtl_buf_read(f.env, &by, 0, out, sizeof(out));
	for (i = 0; i < 64; i++)
		ck_assert_int_eq(out[i], i < N ? -3 * x[i] + y[i] : y[i]);
	rtl_buf_read(f.env, &l.sem, 0, sem, sizeof(sem));
	ck_assert_uint_eq(sem[0], 0x5a);
	ck_assert_uint_ne(sem[2] | sem[3], 0);	/* timestamp */
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &after, 0), 0xa5);

	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_TASK_LAUNCH), 1);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_CTA_DISPATCH), 8);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_CTA_EXIT), 8);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_TASK_COMPLETE), 1);
	ck_assert_uint_eq(rtl_perf_read(f.env, PPU_PERF_HOST_LAUNCHES), 1);
	ck_assert_uint_eq(rtl_perf_read(f.env, PPU_PERF_TASKS_COMPLETED), 1);
	ck_assert_uint_eq(rtl_perf_read(f.env, PPU_PERF_CTA_DISPATCHES), 8);
	ck_assert_uint_gt(rtl_perf_read(f.env, PPU_PERF_CU_INSTRET), 64 * 8);
	ck_assert_uint_gt(rtl_perf_read(f.env, PPU_PERF_CU_ISSUE_CYCLES), 0);
	ck_assert_uint_gt(rtl_perf_read(f.env, PPU_PERF_ICACHE_MISSES), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_TASKS), 0);
	rtl_chan_destroy(ch);
	cfx_end(&f);
}
END_TEST

/*
 * WFI holds the channel until its task has completed: the host's release
 * after it comes after TASK_COMPLETE in the trace, and while the kernel
 * runs the channel is in WFI_WAIT with one task.
 */
START_TEST(wfi_waits_for_the_channels_tasks)
{
	enum { T = 16 };
	struct checksum_params p = { .iters = 300, .seed = 0x1234 };
	struct rtl_buf out, after;
	struct rtl_klaunch l;
	struct rtl_chan *ch;
	struct cfx f;
	long done, rel;
	int i;

	cfx_begin(&f, "checksum");
	out = rtl_buf_alloc(f.ctx, 0, T * 4);
	after = rtl_buf_alloc(f.ctx, 0, 4);
	p.out = out.va;
	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "checksum"), 2, 8, &p, sizeof(p));
	rtl_klaunch_prepare(f.ctx, &l, 1);
	ch = rtl_cchan_create(f.env, f.ctx, 0, 0, 63, 1);
	rtl_klaunch_submit(ch, &l, after.va, 0x77);
	ck_assert_int_eq(rtl_chan_wait_state(ch, PPU_CHAN_STATUS_STATE_WFI_WAIT, 16, 200000), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_TASKS), 1);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &after, 0), 0);
	ck_assert_int_eq(rtl_chan_wait(ch, 4000000), 0);

	done = rtl_log_find(f.env, PPU_TRACE_TASK_COMPLETE, -1, 0);
	for (rel = 0; rel < (long)f.env->nev; rel++)
		if (f.env->ev[rel].kind == PPU_TRACE_SEM_RELEASE && f.env->ev[rel].a == after.va)
			break;
	ck_assert_int_lt(rel, (long)f.env->nev);
	ck_assert_int_ge(done, 0);
	ck_assert_int_gt(rel, done);
	for (i = 0; i < T; i++) {
		uint32_t ring[8];

		ck_assert_uint_eq(rtl_buf_rd32(f.env, &out, 4 * i),
				  checksum_run(ring, p.seed, i, p.iters));
	}
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &after, 0), 0x77);
	rtl_chan_destroy(ch);
	cfx_end(&f);
}
END_TEST

/*
 * Every context of every unit hammers the same three words: amoadd,
 * amomaxu and an lr/sc loop.  4 CTAs x 8 threads = all 32 contexts.
 */
START_TEST(atomics_from_every_context_are_exact)
{
	enum { N = 32 * 6 };
	uint32_t in[N], sum = 0, max = 0, res[3];
	struct reduce_params p;
	struct rtl_buf bin, bout;
	struct rtl_klaunch l;
	struct rtl_chan *ch;
	struct cfx f;
	int i;

	cfx_begin(&f, "reduce_atomic");
	for (i = 0; i < N; i++) {
		in[i] = (uint32_t)i * 2654435761u;
		sum += in[i];
		if (in[i] > max)
			max = in[i];
	}
	bin = rtl_buf_alloc(f.ctx, 0, sizeof(in));
	bout = rtl_buf_alloc(f.ctx, 1, 12);
	rtl_buf_write(f.env, &bin, 0, in, sizeof(in));
	p = (struct reduce_params){ .n = N, .in = bin.va, .out = bout.va };
	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "reduce_atomic"), 4, 8, &p, sizeof(p));
	rtl_klaunch_prepare(f.ctx, &l, 1);
	ch = rtl_cchan_create(f.env, f.ctx, 2, 0, 63, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(ch, 4000000), 0);
	rtl_buf_read(f.env, &bout, 0, res, sizeof(res));
	ck_assert_uint_eq(res[0], sum);
	ck_assert_uint_eq(res[1], max);
	ck_assert_uint_eq(res[2], 32);
	ck_assert_uint_gt(rtl_perf_read(f.env, PPU_PERF_AMOS), 0);
	rtl_chan_destroy(ch);
	cfx_end(&f);
}
END_TEST

START_TEST(histogram_matches_the_cpu)
{
	enum { N = 200, BINS = 13 };
	uint32_t in[N], ref[BINS] = { 0 }, bins[BINS];
	struct histogram_params p;
	struct rtl_buf bin, bbins;
	struct rtl_klaunch l;
	struct rtl_chan *ch;
	struct cfx f;
	int i;

	cfx_begin(&f, "histogram");
	for (i = 0; i < N; i++) {
		in[i] = (uint32_t)(i * i * 31 + 7) ^ 0x5bd1e995u;
		ref[in[i] % BINS]++;
	}
	bin = rtl_buf_alloc(f.ctx, 1, sizeof(in));
	bbins = rtl_buf_alloc(f.ctx, 0, sizeof(bins));
	rtl_buf_write(f.env, &bin, 0, in, sizeof(in));
	p = (struct histogram_params){ .n = N, .nbins = BINS, .in = bin.va, .bins = bbins.va };
	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "histogram"), 5, 8, &p, sizeof(p));
	rtl_klaunch_prepare(f.ctx, &l, 1);
	ch = rtl_cchan_create(f.env, f.ctx, 3, 0, 63, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(ch, 4000000), 0);
	rtl_buf_read(f.env, &bbins, 0, bins, sizeof(bins));
	for (i = 0; i < BINS; i++)
		ck_assert_uint_eq(bins[i], ref[i]);
	rtl_chan_destroy(ch);
	cfx_end(&f);
}
END_TEST

/*
 * Every id and dim CSR over a 3-D grid of 3-D CTAs, the priority clamped
 * to the channel's bounds (asked 40, channel [5, 12]: 12) and its depth N.
 */
START_TEST(csrs_give_ids_dims_and_the_clamped_priority)
{
	enum { CX = 2, CY = 2, CZ = 2, GX = 3, GY = 2, GZ = 1, T = CX * CY * CZ };
	enum { CTAS = GX * GY * GZ, THREADS = CTAS * T };
	struct ids_params p = { .trap_id = 0xffffffffu };
	uint32_t o[IDS_OUT_WORDS], id, tid, cta;
	struct rtl_buf out;
	struct rtl_klaunch l;
	struct rtl_chan *ch;
	struct cfx f;
	long ev;

	cfx_begin(&f, "ids");
	out = rtl_buf_alloc(f.ctx, 0, THREADS * IDS_OUT_WORDS * 4);
	p.out = out.va;
	memset(&l, 0, sizeof(l));
	l.entry = rtl_kimage_fn(&f.k, "ids");
	l.grid[0] = GX;
	l.grid[1] = GY;
	l.grid[2] = GZ;
	l.cta[0] = CX;
	l.cta[1] = CY;
	l.cta[2] = CZ;
	l.prio = 40;
	l.params = &p;
	l.param_bytes = sizeof(p);
	rtl_klaunch_prepare(f.ctx, &l, 1);
	ch = rtl_cchan_create(f.env, f.ctx, 4, 5, 12, 3);
	rtl_klaunch_submit(ch, &l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(ch, 2000000), 0);

	ev = rtl_log_find(f.env, PPU_TRACE_TASK_LAUNCH, -1, 0);
	ck_assert_int_ge(ev, 0);
	/* A = tid | prio << 8 | depth << 16; the channel is the record's own */
	ck_assert_uint_eq(f.env->ev[ev].chid, ch->chid);
	ck_assert_uint_eq((f.env->ev[ev].a >> 8) & 0xff, 12);
	ck_assert_uint_eq((f.env->ev[ev].a >> 16) & 0xff, 1);
	ck_assert_uint_eq(f.env->ev[ev].a >> 24, 0);
	for (id = 0; id < THREADS; id++) {
		cta = id / T;
		tid = id % T;
		rtl_buf_read(f.env, &out, id * IDS_OUT_WORDS * 4, o, sizeof(o));
		ck_assert_uint_eq(o[0], tid);
		ck_assert_uint_eq(o[1], T);
		ck_assert_uint_eq(o[2], cta);
		ck_assert_uint_eq(o[3], CTAS);
		ck_assert_uint_eq(o[4], tid % CX);
		ck_assert_uint_eq(o[5], (tid / CX) % CY);
		ck_assert_uint_eq(o[6], tid / (CX * CY));
		ck_assert_uint_eq(o[7], cta % GX);
		ck_assert_uint_eq(o[8], (cta / GX) % GY);
		ck_assert_uint_eq(o[9], cta / (GX * GY));
		ck_assert_uint_eq(o[10], CX << 16 | CY << 8 | CZ);
		ck_assert_uint_eq(o[11], GX << 16 | GY << 8 | GZ);
		ck_assert_uint_eq(o[12], THREADS);
		ck_assert_uint_eq(o[13], 0);
		ck_assert_uint_eq(o[14], 12u << 16 | 1u << 8 | 3u);
		ck_assert_uint_lt(o[15], 64);
		ck_assert_uint_lt(o[16] >> 8, 4);
		ck_assert_uint_lt(o[16] & 0xff, 8);
		ck_assert_uint_eq(o[17], 8u << 8 | 4u);
		ck_assert_uint_eq(o[18], 1);
		ck_assert_uint_eq(o[19], 0x600d);
	}
	rtl_chan_destroy(ch);
	cfx_end(&f);
}
END_TEST

/*
 * A kernel that traps faults only its channel (KERNEL_TRAP, unit COMPUTE,
 * ADDR = PC, DATA = the code), gets no completion release, and is dropped
 * from the task table; a SAXPY in another channel of the same context
 * runs to the right result at the same time; unbinding the faulted channel
 * leaves it UNBOUND with no task.
 */
START_TEST(a_trapping_kernel_faults_only_its_channel)
{
	enum { N = 64 };
	struct ids_params ip = { .trap_id = 13 };
	int32_t x[N], y[N], out[N];
	struct saxpy_params sp;
	struct rtl_buf bids, bx, by;
	struct rtl_klaunch la, lb;
	struct rtl_chan *a, *b;
	struct rtl_kimage ks;
	struct cfx f;
	uint32_t info;
	int i;

	cfx_begin(&f, "ids");
	rtl_kimage_load(f.ctx, "saxpy", &ks);
	bids = rtl_buf_alloc(f.ctx, 0, 32 * IDS_OUT_WORDS * 4);
	ip.out = bids.va;
	bx = rtl_buf_alloc(f.ctx, 0, sizeof(x));
	by = rtl_buf_alloc(f.ctx, 0, sizeof(y));
	for (i = 0; i < N; i++) {
		x[i] = i;
		y[i] = 3 * i + 1;
	}
	rtl_buf_write(f.env, &bx, 0, x, sizeof(x));
	rtl_buf_write(f.env, &by, 0, y, sizeof(y));
	sp = (struct saxpy_params){ .n = N, .a = 5, .x = bx.va, .y = by.va };

	rtl_klaunch_init(&la, rtl_kimage_fn(&f.k, "ids"), 4, 8, &ip, sizeof(ip));
	rtl_klaunch_prepare(f.ctx, &la, 0x11);
	rtl_klaunch_init(&lb, rtl_kimage_fn(&ks, "saxpy"), 8, 8, &sp, sizeof(sp));
	rtl_klaunch_prepare(f.ctx, &lb, 0x22);

	a = rtl_cchan_create(f.env, f.ctx, 5, 0, 63, 1);
	b = rtl_cchan_create(f.env, f.ctx, 6, 0, 63, 1);
	rtl_klaunch_submit(a, &la, 0, 0);
	rtl_klaunch_submit(b, &lb, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(a, 2000000), 1);
	ck_assert_int_eq(rtl_chan_wait(b, 2000000), 0);

	info = rtl_chan_reg(a, PPU_CHAN_FAULT_INFO);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_KERNEL_TRAP);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_COMPUTE);
	ck_assert_uint_eq(rtl_chan_reg(a, PPU_CHAN_FAULT_DATA), IDS_TRAP_CODE);
	ck_assert_uint_ge(rtl_chan_reg(a, PPU_CHAN_FAULT_ADDR), la.entry);
	ck_assert_uint_lt(rtl_chan_reg(a, PPU_CHAN_FAULT_ADDR), f.k.code.va + f.k.code.size);
	ck_assert(rtl_reg_read(f.env, PPU_REG_FAULT_PENDING) & (1u << 5));
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &la.sem, 0), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &lb.sem, 0), 0x22);
	rtl_buf_read(f.env, &by, 0, out, sizeof(out));
	for (i = 0; i < N; i++)
		ck_assert_int_eq(out[i], 5 * x[i] + y[i]);

	/* the task table lets go of the faulted channel's task */
	wait_reg(f.env, PPU_CHAN_BASE + 5 * PPU_CHAN_STRIDE + PPU_CHAN_TASKS, 0, 100000);
	rtl_reg_write(f.env, PPU_REG_CHAN_CTRL,
		      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) | 5);
	ck_assert_int_eq(rtl_chan_wait_state(a, PPU_CHAN_STATUS_STATE_UNBOUND, 16, 100000), 0);
	ck_assert_uint_eq(rtl_chan_reg(a, PPU_CHAN_FAULT_INFO), 0);
	rtl_kimage_free(&ks);
	rtl_chan_destroy(a);
	rtl_chan_destroy(b);
	cfx_end(&f);
}
END_TEST

/*
 * Faults of the launch itself: a TMD that breaks a shape rule faults the
 * channel with TMD_INVALID, unit TASKS, ADDR = the TMD, DATA = the offset
 * of the bad word; a TMD on an unmapped page with the translation fault.
 */
START_TEST(bad_tmds_fault_the_channel)
{
	struct rtl_klaunch l;
	struct rtl_chan *ch;
	struct cfx f;
	uint32_t info, va;
	uint32_t dw[16];
	struct ppu_pb pb;

	cfx_begin(&f, "saxpy");
	memset(&l, 0, sizeof(l));
	l.entry = rtl_kimage_fn(&f.k, "saxpy");
	l.grid[0] = 1;
	l.cta[0] = 8;
	rtl_klaunch_prepare(f.ctx, &l, 1);
	ch = rtl_cchan_create(f.env, f.ctx, 7, 0, 63, 1);
	if (_i == 0) {
		rtl_buf_wr32(f.env, &l.tmd, PPU_TMD_CTA_X, 0);
		va = l.tmd.va;
	} else {
		va = rtl_va_reserve(f.ctx, PAGE);
	}
	ppu_pb_init(&pb, dw, 16);
	ppu_pb_launch(&pb, va);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, 200000), 1);
	info = rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_TASKS);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR), va);
	if (_i == 0) {
		ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_TMD_INVALID);
		ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_DATA), PPU_TMD_CTA_X);
	} else {
		ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_PTE_NOT_PRESENT);
	}
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_CTA_DISPATCH), 0);
	rtl_chan_destroy(ch);
	cfx_end(&f);
}
END_TEST

/*
 * Priorities reorder the compute units' work: a low-priority checksum of
 * 32 CTAs fills the device; a high-priority one of 4 CTAs launched while
 * it runs has all its CTAs dispatched before any further CTA of the low
 * one, and completes first.
 */
START_TEST(higher_priority_ctas_dispatch_first)
{
	struct checksum_params plo = { .iters = 60, .seed = 1 }, phi = { .iters = 60, .seed = 2 };
	struct rtl_buf olo, ohi;
	struct rtl_klaunch llo, lhi;
	struct rtl_chan *lo, *hi;
	struct cfx f;
	size_t k, first_hi = 0, hi_seen = 0, lo_after = 0;
	long clo, chi;

	cfx_begin(&f, "checksum");
	olo = rtl_buf_alloc(f.ctx, 0, 32 * 8 * 4);
	ohi = rtl_buf_alloc(f.ctx, 0, 4 * 8 * 4);
	plo.out = olo.va;
	phi.out = ohi.va;
	rtl_klaunch_init(&llo, rtl_kimage_fn(&f.k, "checksum"), 32, 8, &plo, sizeof(plo));
	llo.prio = 3;
	rtl_klaunch_prepare(f.ctx, &llo, 1);
	lhi = llo;
	lhi.grid[0] = 4;
	lhi.prio = 40;
	lhi.params = &phi;
	lhi.param_bytes = sizeof(phi);
	rtl_klaunch_prepare(f.ctx, &lhi, 1);

	lo = rtl_cchan_create(f.env, f.ctx, 8, 0, 63, 1);
	hi = rtl_cchan_create(f.env, f.ctx, 9, 0, 63, 1);
	rtl_klaunch_submit(lo, &llo, 0, 0);
	ck_assert_int_ge(rtl_wait_event(f.env, PPU_TRACE_CTA_DISPATCH, -1, 16, 200000), 0);
	rtl_klaunch_submit(hi, &lhi, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(hi, 4000000), 0);
	ck_assert_int_eq(rtl_chan_wait(lo, 8000000), 0);

	for (k = 0; k < f.env->nev; k++) {
		const struct ppu_sim_event *e = &f.env->ev[k];

		if (e->kind != PPU_TRACE_CTA_DISPATCH)
			continue;
		if (e->chid == 9) {
			if (!hi_seen++)
				first_hi = k;
		} else if (hi_seen && hi_seen < 4) {
			lo_after++;
		}
	}
	ck_assert_uint_eq(hi_seen, 4);
	ck_assert_uint_gt(first_hi, 0);
	ck_assert_uint_eq(lo_after, 0);
	chi = rtl_log_find(f.env, PPU_TRACE_TASK_COMPLETE, 9, 0);
	clo = rtl_log_find(f.env, PPU_TRACE_TASK_COMPLETE, 8, 0);
	ck_assert_int_ge(chi, 0);
	ck_assert_int_gt(clo, chi);
	for (k = 0; k < 32 * 8; k++) {
		uint32_t ring[8];

		ck_assert_uint_eq(rtl_buf_rd32(f.env, &olo, 4 * k),
				  checksum_run(ring, plo.seed, k, plo.iters));
		if (k < 32)
			ck_assert_uint_eq(rtl_buf_rd32(f.env, &ohi, 4 * k),
					  checksum_run(ring, phi.seed, k, phi.iters));
	}
	rtl_chan_destroy(lo);
	rtl_chan_destroy(hi);
	cfx_end(&f);
}
END_TEST

/*
 * More launches than task ids: the channel waits (ENGINE_WAIT) for free
 * ids and every one of 80 small launches still runs, in order, each
 * completion releasing its own payload.
 */
START_TEST(launches_beyond_the_task_ids_wait_and_all_run)
{
	enum { L = 80 };
	struct ids_params p = { .trap_id = 0xffffffffu };
	struct rtl_buf out, sem;
	struct rtl_chan *ch;
	struct rtl_klaunch l;
	struct cfx f;
	uint32_t *dw = calloc(L * 16 + 16, 4);
	struct ppu_pb pb;
	int i;

	cfx_begin(&f, "ids");
	out = rtl_buf_alloc(f.ctx, 0, IDS_OUT_WORDS * 4);
	sem = rtl_buf_alloc(f.ctx, 0, L * 16);
	p.out = out.va;
	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "ids"), 1, 1, &p, sizeof(p));
	ch = rtl_cchan_create(f.env, f.ctx, 10, 0, 63, 1);
	ppu_pb_init(&pb, dw, L * 16 + 16);
	for (i = 0; i < L; i++) {
		rtl_klaunch_prepare(f.ctx, &l, 0x100 + i);
		rtl_buf_wr32(f.env, &l.tmd, PPU_TMD_SEM_ADDR, sem.va + 16 * i);
		ppu_pb_launch(&pb, l.tmd.va);
	}
	ppu_pb_method(&pb, PPU_HOST_WFI, 0);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, 8000000), 0);
	for (i = 0; i < L; i++)
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &sem, 16 * i), 0x100 + i);
	ck_assert_uint_eq(rtl_perf_read(f.env, PPU_PERF_HOST_LAUNCHES), L);
	ck_assert_uint_eq(rtl_perf_read(f.env, PPU_PERF_TASKS_COMPLETED), L);
	free(dw);
	rtl_chan_destroy(ch);
	cfx_end(&f);
}
END_TEST

/*
 * UNBIND of a channel whose long kernel runs kills its CTAs without a
 * completion release; the units are free again (another channel's kernel
 * runs on all of them), and the channel can be bound again.
 */
START_TEST(unbind_kills_a_running_kernel)
{
	struct checksum_params p = { .iters = 100000, .seed = 9 };
	struct rtl_buf out;
	struct rtl_klaunch l, l2;
	struct rtl_chan *ch, *ch2;
	struct cfx f;
	uint32_t ring[8], d0, d1;
	long ev;
	int i;

	cfx_begin(&f, "checksum");
	out = rtl_buf_alloc(f.ctx, 0, 32 * 4);
	p.out = out.va;
	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "checksum"), 4, 8, &p, sizeof(p));
	rtl_klaunch_prepare(f.ctx, &l, 0x99);
	ch = rtl_cchan_create(f.env, f.ctx, 11, 0, 63, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait_state(ch, PPU_CHAN_STATUS_STATE_WFI_WAIT, 16, 200000), 0);
	ppu_sim_clock(f.env->sim, 5000);
	/* the debug window shows the running task as its launch record did */
	ev = rtl_log_find(f.env, PPU_TRACE_TASK_LAUNCH, 11, 0);
	ck_assert_int_ge(ev, 0);
	rtl_reg_write(f.env, PPU_REG_TASK_DBG_SEL, f.env->ev[ev].a & 0xff);
	d0 = rtl_reg_read(f.env, PPU_REG_TASK_DBG0);
	d1 = rtl_reg_read(f.env, PPU_REG_TASK_DBG1);
	ck_assert_uint_eq(PPU_FGET(PPU_TASK_DBG0_STATE, d0), PPU_TASK_STATE_ACTIVE);
	ck_assert_uint_eq(PPU_FWIDTH(PPU_TASK_DBG0_CHID), PPU_CHID_BITS);
	ck_assert_uint_eq(PPU_FGET(PPU_TASK_DBG0_CHID, d0), 11);
	ck_assert_uint_eq(PPU_FGET(PPU_TASK_DBG0_DEPTH, d0), 1);
	ck_assert_uint_eq(PPU_FGET(PPU_TASK_DBG1_PRIO, d1), (f.env->ev[ev].a >> 8) & 0xff);
	ck_assert_uint_eq(PPU_FGET(PPU_TASK_DBG1_HAS_PARENT, d1), 0);
	rtl_reg_write(f.env, PPU_REG_CHAN_CTRL,
		      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) | 11);
	ck_assert_int_eq(rtl_chan_wait_state(ch, PPU_CHAN_STATUS_STATE_UNBOUND, 16, 200000), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_TASKS), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &l.sem, 0), 0);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_TASK_COMPLETE), 0);

	p.iters = 20;
	l2 = l;
	l2.params = &p;
	rtl_klaunch_prepare(f.ctx, &l2, 0x42);
	ch2 = rtl_cchan_create(f.env, f.ctx, 12, 0, 63, 1);
	rtl_klaunch_submit(ch2, &l2, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(ch2, 2000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &l2.sem, 0), 0x42);
	for (i = 0; i < 32; i++)
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &out, 4 * i),
				  checksum_run(ring, p.seed, i, p.iters));
	rtl_chan_destroy(ch);
	rtl_chan_destroy(ch2);
	cfx_end(&f);
}
END_TEST

/*
 * UNBIND written at each cycle from 60 cycles before a trapping kernel's
 * fault reaches the host to 20 after: early ones kill the CTA before it
 * traps, late ones wait for the fault and the freed task id, and between
 * them the kill and the trap race.  Every time the channel ends UNBOUND,
 * stays so (it is never made FAULTED after its unbind) and binds again.
 */
START_TEST(unbind_around_a_kernel_fault_leaves_the_channel_unbound)
{
	struct ids_params ip = { .trap_id = 0 };
	struct rtl_klaunch la;
	struct rtl_buf bids;
	struct rtl_chan *a;
	struct cfx f;
	uint64_t t0, tf;
	long fe;
	int k;

	cfx_begin(&f, "ids");
	bids = rtl_buf_alloc(f.ctx, 0, 32 * IDS_OUT_WORDS * 4);
	ip.out = bids.va;
	rtl_klaunch_init(&la, rtl_kimage_fn(&f.k, "ids"), 1, 8, &ip, sizeof(ip));
	rtl_klaunch_prepare(f.ctx, &la, 0x11);
	/* when the fault reaches the host, counted from the submit (the
	 * second time: code and page tables are warm then, as in the sweep) */
	for (k = -2; k < 0; k++) {
		rtl_log_clear(f.env);
		a = rtl_cchan_create(f.env, f.ctx, 5, 0, 63, 1);
		t0 = ppu_sim_cycles(f.env->sim);
		rtl_klaunch_submit(a, &la, 0, 0);
		ck_assert_int_eq(rtl_chan_wait(a, 2000000), 1);
		fe = rtl_log_find(f.env, PPU_TRACE_FAULT, 5, 0);
		ck_assert_int_ge(fe, 0);
		tf = f.env->ev[fe].cycle - t0;
		rtl_reg_write(f.env, PPU_REG_CHAN_CTRL,
			      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) | 5);
		ck_assert_int_eq(rtl_chan_wait_state(a, PPU_CHAN_STATUS_STATE_UNBOUND, 1, 200000), 0);
		rtl_chan_destroy(a);
	}
	/* the unbind's register write from 60 cycles before to 20 after */
	for (k = 0; k <= 80; k++) {
		uint64_t at = tf + (uint64_t)k - 60;

		a = rtl_cchan_create(f.env, f.ctx, 5, 0, 63, 1);
		t0 = ppu_sim_cycles(f.env->sim);
		rtl_klaunch_submit(a, &la, 0, 0);
		if (ppu_sim_cycles(f.env->sim) - t0 < at)
			ppu_sim_clock(f.env->sim, at - (ppu_sim_cycles(f.env->sim) - t0));
		rtl_reg_write(f.env, PPU_REG_CHAN_CTRL,
			      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) | 5);
		ck_assert_msg(rtl_chan_wait_state(a, PPU_CHAN_STATUS_STATE_UNBOUND, 1, 200000) == 0,
			      "unbind %d cycles into the window: state %u", k, rtl_chan_state(a));
		ppu_sim_clock(f.env->sim, 500);
		ck_assert_msg(rtl_chan_state(a) == PPU_CHAN_STATUS_STATE_UNBOUND,
			      "unbind %d cycles into the window: state %u after it", k,
			      rtl_chan_state(a));
		ck_assert_uint_eq(rtl_chan_reg(a, PPU_CHAN_TASKS), 0);
		rtl_chan_destroy(a);
	}
	cfx_end(&f);
}
END_TEST

/*
 * SEM_EXECUTE RELEASE with RELEASE_WFI on a compute channel waits, like
 * WFI, for the channel's tasks (WFI_WAIT meanwhile), and a plain release
 * before it does not: the first lands while the kernel runs, the second
 * after its TASK_COMPLETE, and the methods after it still run.
 */
START_TEST(release_wfi_waits_for_the_channels_tasks)
{
	struct checksum_params p = { .iters = 200, .seed = 3 };
	struct rtl_buf out, sems;
	struct rtl_klaunch l;
	struct rtl_chan *ch;
	struct ppu_pb pb;
	uint32_t dw[64];
	struct cfx f;
	long done, r1 = -1, r2 = -1, r3 = -1;
	size_t k;

	cfx_begin(&f, "checksum");
	out = rtl_buf_alloc(f.ctx, 0, 16 * 4);
	sems = rtl_buf_alloc(f.ctx, 0, 16);
	p.out = out.va;
	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "checksum"), 2, 8, &p, sizeof(p));
	rtl_klaunch_prepare(f.ctx, &l, 1);
	ch = rtl_cchan_create(f.env, f.ctx, 15, 0, 63, 1);
	ppu_pb_init(&pb, dw, 64);
	ppu_pb_launch(&pb, l.tmd.va);
	ppu_pb_sem_release(&pb, sems.va, 0x11);
	ppu_pb_sem(&pb, sems.va + 4, 0x22, ppu_sem_release_op(0, 0, 1));
	ppu_pb_sem_release(&pb, sems.va + 8, 0x33);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait_state(ch, PPU_CHAN_STATUS_STATE_WFI_WAIT, 16, 200000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &sems, 0), 0x11);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &sems, 4), 0);
	ck_assert_int_eq(rtl_chan_wait(ch, 4000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &sems, 4), 0x22);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &sems, 8), 0x33);

	done = rtl_log_find(f.env, PPU_TRACE_TASK_COMPLETE, -1, 0);
	for (k = 0; k < f.env->nev; k++) {
		const struct ppu_sim_event *e = &f.env->ev[k];

		if (e->kind != PPU_TRACE_SEM_RELEASE)
			continue;
		if (e->a == sems.va)
			r1 = (long)k;
		if (e->a == sems.va + 4)
			r2 = (long)k;
		if (e->a == sems.va + 8)
			r3 = (long)k;
	}
	ck_assert_int_ge(done, 0);
	ck_assert_int_ge(r1, 0);
	ck_assert_int_lt(r1, done);
	ck_assert_int_gt(r2, done);
	ck_assert_int_gt(r3, r2);
	rtl_chan_destroy(ch);
	cfx_end(&f);
}
END_TEST

/*
 * Every compute fault kind reaches the channel window with its address and
 * data: a one-instruction kernel (a0 = an aligned parameter pointer).
 */
static const struct {
	uint32_t insn;
	uint32_t kind, access;
	int addr_off;			/* ADDR: -1 = the PC, else parameter + n */
	int data_pc;			/* DATA: 1 = the PC, 0 = the word below */
	uint32_t data;
} fault_cases[] = {
	/* a reserved major opcode */
	{ 0xdead0077u, PPU_FAULT_KIND_ILLEGAL_INSTR, PPU_FAULT_ACCESS_EXEC, -1, 0, 0xdead0077u },
	/* lw a0, 1(a0) */
	{ (1u << 20) | (10u << 15) | (2u << 12) | (10u << 7) | 0x03u, PPU_FAULT_KIND_MISALIGNED,
	  PPU_FAULT_ACCESS_READ, 1, 1, 0 },
	/* sw a0, 2(a0) */
	{ (10u << 20) | (10u << 15) | (2u << 12) | (2u << 7) | 0x23u, PPU_FAULT_KIND_MISALIGNED,
	  PPU_FAULT_ACCESS_WRITE, 2, 1, 0 },
	/* jalr x0, 2(a0): the target */
	{ (2u << 20) | (10u << 15) | 0x67u, PPU_FAULT_KIND_MISALIGNED, PPU_FAULT_ACCESS_EXEC, 2, 1,
	  0 },
	/* ebreak: a trap with code 0 */
	{ 0x00100073u, PPU_FAULT_KIND_KERNEL_TRAP, PPU_FAULT_ACCESS_EXEC, -1, 0, 0 },
};

START_TEST(compute_fault_kinds_are_reported)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf code = rtl_buf_alloc(ctx, 0, PAGE), param = rtl_buf_alloc(ctx, 0, 64);
	struct rtl_klaunch l;
	struct rtl_chan *ch;
	uint32_t info, insn = fault_cases[_i].insn;

	rtl_map(ctx, code.va, code.pa, 0, PAGE, PPU_PTE_PERM_R | PPU_PTE_PERM_X);
	rtl_buf_write(env, &code, 0, &insn, 4);
	rtl_klaunch_init(&l, code.va, 1, 1, NULL, 0);
	l.param_va = param.va;
	rtl_klaunch_prepare(ctx, &l, 1);
	ch = rtl_cchan_create(env, ctx, 3, 0, 63, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(ch, 200000), 1);
	info = rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_COMPUTE);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), fault_cases[_i].kind);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_ACCESS, info), fault_cases[_i].access);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR),
			  fault_cases[_i].addr_off < 0 ? code.va :
			  param.va + (uint32_t)fault_cases[_i].addr_off);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_DATA),
			  fault_cases[_i].data_pc ? code.va : fault_cases[_i].data);
	ck_assert_uint_eq(rtl_buf_rd32(env, &l.sem, 0), 0);
	/* the task table lets go of the task; the channel unbinds */
	rtl_reg_write(env, PPU_REG_CHAN_CTRL, PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) | 3);
	ck_assert_int_eq(rtl_chan_wait_state(ch, PPU_CHAN_STATUS_STATE_UNBOUND, 16, 100000), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_TASKS), 0);
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ---------------------------------------------------------------------- */
/*
 * Every deterministic sample kernel on the whole PPU against the
 * instruction-set reference model running the same launch: the parameter
 * and data arena and the kernel image (its globals) must end up identical.
 */

#define ARENA_BYTES (64u << 10)

static uint32_t lcg_next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s;
}

struct iss_case {
	const char *name;
	uint32_t grid, cta;
	/* fills the arena (at VA @va, host copy @a) and returns the parameter bytes at its start */
	void (*setup)(uint8_t *a, uint32_t va, uint32_t threads);
};

static void words(uint8_t *a, uint32_t off, uint32_t n, uint32_t seed)
{
	uint32_t i, s = seed;

	for (i = 0; i < n; i++) {
		uint32_t v = lcg_next(&s);

		memcpy(a + off + 4 * i, &v, 4);
	}
}

static void setup_saxpy(uint8_t *a, uint32_t va, uint32_t t)
{
	struct saxpy_params p = { .n = t - 3, .a = 7, .x = va + 0x100, .y = va + 0x100 + 4 * t };

	words(a, 0x100, 2 * t, 1);
	memcpy(a, &p, sizeof(p));
}

static void setup_reduce(uint8_t *a, uint32_t va, uint32_t t)
{
	struct reduce_params p = { .n = 3 * t + 5, .in = va + 0x100, .out = va + 0x40 };

	words(a, 0x100, p.n, 2);
	memcpy(a, &p, sizeof(p));
}

static void setup_histogram(uint8_t *a, uint32_t va, uint32_t t)
{
	struct histogram_params p = { .n = 2 * t + 1, .nbins = 11, .in = va + 0x200,
				      .bins = va + 0x100 };

	words(a, 0x200, p.n, 3);
	memcpy(a, &p, sizeof(p));
}

static void setup_checksum(uint8_t *a, uint32_t va, uint32_t t)
{
	struct checksum_params p = { .iters = 57, .seed = 0xfeed, .out = va + 0x100 };

	(void)t;
	memcpy(a, &p, sizeof(p));
}

static void setup_barrier(uint8_t *a, uint32_t va, uint32_t t)
{
	struct barrier_params p = { .rounds = 5, .active = 7, .exit_round = 2, .seed = 99,
				    .buf = va + 0x100, .out = va + 0x100 + 8 * t };

	memcpy(a, &p, sizeof(p));
}

static void setup_divergent(uint8_t *a, uint32_t va, uint32_t t)
{
	static const uint32_t corner[] = { 0x80000000u, 0xffffffffu, 7, 0, 0, 0,
					   0xffffffffu, 0xffffffffu, 0x80000000u, 1 };
	struct divergent_params p = { .n = t, .in = va + 0x100, .out = va + 0x100 + 8 * t };

	words(a, 0x100, 2 * t, 4);
	memcpy(a + 0x100, corner, sizeof(corner));	/* INT_MIN / -1, x / 0, ... */
	memcpy(a, &p, sizeof(p));
}

static void setup_lookup(uint8_t *a, uint32_t va, uint32_t t)
{
	struct lookup_params p = { .n = t, .which = 1, .out = va + 0x100 };

	memcpy(a, &p, sizeof(p));
}

static void setup_spin(uint8_t *a, uint32_t va, uint32_t t)
{
	struct spin_params p = { .iters = 33, .seed = 5, .out = va + 0x100 };

	(void)t;
	memcpy(a, &p, sizeof(p));
}

static const struct iss_case iss_cases[] = {
	{ "saxpy", 6, 8, setup_saxpy },
	{ "reduce_atomic", 5, 7, setup_reduce },
	{ "histogram", 4, 8, setup_histogram },
	{ "checksum", 6, 5, setup_checksum },
	{ "barrier_phases", 3, 8, setup_barrier },
	{ "divergent", 4, 8, setup_divergent },
	{ "lookup", 3, 6, setup_lookup },
	{ "spin", 9, 8, setup_spin },
	/* CTAs of more threads than a unit's contexts: in waves */
	{ "barrier_phases", 3, 20, setup_barrier },
	{ "checksum", 5, 27, setup_checksum },
	{ "histogram", 2, 64, setup_histogram },
};

/* A sample kernel's launch run by the reference model: the arena and the kernel image as they must end up. */
struct iss_ref {
	struct rtl_buf arena, stacks;
	struct ppu_iss_flat flat;
	uint32_t lo, entry;
	uint8_t *a;
};

static void iss_ref_run(struct cfx *f, const struct iss_case *c, struct iss_ref *r)
{
	uint32_t t = c->cta, threads = c->grid * c->cta, hi;
	struct ppu_iss_launch il;
	struct ppu_iss_mem mem;
	struct ppu_iss m;
	int st;

	r->arena = rtl_buf_alloc(f->ctx, 0, ARENA_BYTES);
	r->stacks = rtl_buf_alloc(f->ctx, 0, 64u << 10);
	r->a = calloc(1, ARENA_BYTES);
	ck_assert_ptr_nonnull(r->a);
	c->setup(r->a, r->arena.va, threads);
	rtl_buf_write(f->env, &r->arena, 0, r->a, ARENA_BYTES);

	/* the reference: code image, arena and its own stacks, one flat range */
	r->lo = f->k.code.va;
	hi = r->stacks.va + r->stacks.size;
	ck_assert_uint_lt(r->lo, r->arena.va);
	ck_assert_uint_lt(r->arena.va, r->stacks.va);
	r->flat.base = r->lo;
	r->flat.size = hi - r->lo;
	r->flat.buf = calloc(1, r->flat.size);
	ck_assert_ptr_nonnull(r->flat.buf);
	rtl_buf_read(f->env, &f->k.code, 0, r->flat.buf, f->k.code.size);
	memcpy(r->flat.buf + (r->arena.va - r->lo), r->a, ARENA_BYTES);
	mem = (struct ppu_iss_mem){ ppu_iss_flat_read, ppu_iss_flat_write, &r->flat };
	memset(&il, 0, sizeof(il));
	r->entry = il.entry_pc = rtl_kimage_fn(&f->k, c->name);
	il.grid_x = c->grid;
	il.grid_y = il.grid_z = 1;
	il.cta_x = t;
	il.cta_y = il.cta_z = 1;
	il.param = r->arena.va;
	il.depth = 1;
	il.maxdepth = 1;
	il.cu_contexts = 8;
	il.num_cu = 4;
	il.stack_va = r->stacks.va;
	il.stack_bytes = 256;
	il.slots = 1;
	ck_assert_int_eq(ppu_iss_init(&m, &il, &mem), 0);
	st = ppu_iss_run(&m, 400000000);
	ck_assert_msg(st == PPU_ISS_DONE, "%s: reference status %d", c->name, st);
	ppu_iss_fini(&m);
}

/* The PPU's arena and kernel image against the reference's. */
static void iss_ref_check(struct cfx *f, const struct iss_case *c, struct iss_ref *r)
{
	uint8_t *ppu = calloc(1, ARENA_BYTES);

	ck_assert_ptr_nonnull(ppu);
	rtl_buf_read(f->env, &r->arena, 0, ppu, ARENA_BYTES);
	ck_assert_msg(!memcmp(ppu, r->flat.buf + (r->arena.va - r->lo), ARENA_BYTES),
		      "%s: the PPU's data differ from the reference model's", c->name);
	free(ppu);
	ppu = calloc(1, f->k.code.size);
	ck_assert_ptr_nonnull(ppu);
	rtl_buf_read(f->env, &f->k.code, 0, ppu, f->k.code.size);
	ck_assert_msg(!memcmp(ppu, r->flat.buf, f->k.code.size),
		      "%s: the kernel image (globals) differs from the reference model's",
		      c->name);
	/* and the kernel did write something */
	ck_assert(memcmp(r->a, r->flat.buf + (r->arena.va - r->lo), ARENA_BYTES));
	free(ppu);
	free(r->a);
	free(r->flat.buf);
}

START_TEST(sample_kernels_match_the_reference_model)
{
	const struct iss_case *c = &iss_cases[_i];
	struct rtl_klaunch l;
	struct rtl_chan *ch;
	struct iss_ref r;
	struct cfx f;

	cfx_begin(&f, c->name);
	iss_ref_run(&f, c, &r);

	rtl_klaunch_init(&l, r.entry, c->grid, c->cta, NULL, 0);
	l.param_va = r.arena.va;
	rtl_klaunch_prepare(f.ctx, &l, 0x600d);
	ch = rtl_cchan_create(f.env, f.ctx, 14, 0, 63, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(ch, 4000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &l.sem, 0), 0x600d);
	iss_ref_check(&f, c, &r);
	rtl_chan_destroy(ch);
	cfx_end(&f);
}
END_TEST

/* ---------------------------------------------------------------------- */
/*
 * Preemption: a low-priority kernel that fills every compute unit is
 * preempted again and again by high-priority launches on another channel.
 * Each preempted CTA stores its thread records (PC, state, x1..x31) in its
 * task block and is resumed later, on whichever unit frees up first; the
 * kernel's data and globals must still equal the reference model's bit for
 * bit.  The barrier case saves threads waiting at a barrier and threads
 * that have exited.
 */
static void setup_checksum_long(uint8_t *a, uint32_t va, uint32_t t)
{
	struct checksum_params p = { .iters = 1500, .seed = 0xc0ffee, .out = va + 0x100 };

	(void)t;
	memcpy(a, &p, sizeof(p));
}

static void setup_barrier_long(uint8_t *a, uint32_t va, uint32_t t)
{
	struct barrier_params p = { .rounds = 400, .active = 7, .exit_round = 150, .seed = 31,
				    .buf = va + 0x100, .out = va + 0x100 + 8 * t };

	memcpy(a, &p, sizeof(p));
}

/* short waves, so that preemptions find CTAs at later waves */
static void setup_checksum_waves(uint8_t *a, uint32_t va, uint32_t t)
{
	struct checksum_params p = { .iters = 30, .seed = 0xbeef, .out = va + 0x100 };

	(void)t;
	memcpy(a, &p, sizeof(p));
}

/* threads of every wave of a 20-thread CTA take part in the exchange */
static void setup_barrier_long_waves(uint8_t *a, uint32_t va, uint32_t t)
{
	struct barrier_params p = { .rounds = 300, .active = 17, .exit_round = 120, .seed = 57,
				    .buf = va + 0x100, .out = va + 0x100 + 8 * t };

	memcpy(a, &p, sizeof(p));
}

static const struct iss_case preempt_cases[] = {
	{ "checksum", 8, 8, setup_checksum_long },
	{ "barrier_phases", 8, 8, setup_barrier_long },
	/* CTAs in waves: saved between wave switches, with their slot headers */
	{ "checksum", 64, 27, setup_checksum_waves },
	{ "barrier_phases", 4, 20, setup_barrier_long_waves },
};

#define PREEMPT_ROUNDS 60u

/*
 * Slot headers of a task whose CTAs run in waves: whatever a save left
 * there is in range; returns how many were saved at a wave after the first.
 */
static uint32_t saved_past_wave0(struct cfx *f, struct rtl_klaunch *l, uint32_t t)
{
	uint32_t j, w2, w3, n = 0;

	for (j = 0; j < PPU_TASK_BLOCK_MAX_SLOTS; j++) {
		uint32_t h = PPU_TASK_BLOCK_SLOT_HDR + j * PPU_TASK_BLOCK_SLOT_HDR_BYTES;

		w2 = rtl_buf_rd32(f->env, &l->block, h + PPU_SLOT_HDR_BARRIER);
		w3 = rtl_buf_rd32(f->env, &l->block, h + PPU_SLOT_HDR_WAVE);
		if (!w3)
			continue;
		ck_assert_uint_ge(PPU_FGET(PPU_SLOT_HDR_BARRIER_LIVE, w2), 1);
		ck_assert_uint_le(PPU_FGET(PPU_SLOT_HDR_BARRIER_LIVE, w2), t);
		ck_assert_uint_lt(PPU_FGET(PPU_SLOT_HDR_BARRIER_ARRIVED, w2),
				  PPU_FGET(PPU_SLOT_HDR_BARRIER_LIVE, w2));
		ck_assert_uint_lt(PPU_FGET(PPU_SLOT_HDR_WAVE_WAVE, w3),
				  PPU_FGET(PPU_SLOT_HDR_WAVE_STARTED, w3));
		n += PPU_FGET(PPU_SLOT_HDR_WAVE_WAVE, w3) > 0;
	}
	return n;
}

START_TEST(preempted_kernels_resume_bit_exact)
{
	const struct iss_case *c = &preempt_cases[_i];
	struct spin_params sp = { .iters = 20, .seed = 77 };
	struct rtl_klaunch l, h;
	struct rtl_kimage spin;
	struct rtl_chan *lo, *hi;
	struct rtl_buf hout;
	struct iss_ref r;
	uint32_t i, k, rng = 12345;
	size_t npre, nsaved, nres;
	uint32_t later = 0;
	int waves;
	struct cfx f;

	cfx_begin(&f, c->name);
	waves = c->cta > rtl_reg_read(f.env, PPU_REG_CAP_CU_CONTEXTS);
	iss_ref_run(&f, c, &r);
	rtl_kimage_load(f.ctx, "spin", &spin);
	hout = rtl_buf_alloc(f.ctx, 0, 8 * 4);
	sp.out = hout.va;

	rtl_klaunch_init(&l, r.entry, c->grid, c->cta, NULL, 0);
	l.param_va = r.arena.va;
	l.prio = 2;
	rtl_klaunch_prepare(f.ctx, &l, 0x600d);
	rtl_klaunch_init(&h, rtl_kimage_fn(&spin, "spin"), 1, 8, &sp, sizeof(sp));
	h.prio = 50;
	rtl_klaunch_prepare(f.ctx, &h, 0);

	lo = rtl_cchan_create(f.env, f.ctx, 14, 0, 63, 1);
	hi = rtl_cchan_create(f.env, f.ctx, 15, 0, 63, 1);
	rtl_klaunch_submit(lo, &l, 0, 0);
	ck_assert_int_ge(rtl_wait_event(f.env, PPU_TRACE_CTA_DISPATCH, 14, 4, 400000), 0);
	for (i = 0; i < PREEMPT_ROUNDS; i++) {
		/* the next high launch at a different point of the low kernel's run
		 * (with waves, after the restore of a whole wave) */
		ppu_sim_clock(f.env->sim, waves ? 2000 + lcg_next(&rng) % 6000
					      : 200 + lcg_next(&rng) % 1500);
		ck_assert_msg(rtl_log_find(f.env, PPU_TRACE_TASK_COMPLETE, 14, 0) < 0,
			      "%s: the low-priority kernel ended after %u preemption rounds",
			      c->name, i);
		rtl_klaunch_submit(hi, &h, h.sem.va, i + 1);
		ck_assert_int_eq(rtl_chan_wait(hi, 400000), 0);
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &h.sem, 0), i + 1);
		if (waves)
			later += saved_past_wave0(&f, &l, c->cta);
	}
	ck_assert_int_eq(rtl_chan_wait(lo, 20000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &l.sem, 0), 0x600d);
	iss_ref_check(&f, c, &r);
	for (k = 0; k < 8; k++) {
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &hout, 4 * k), spin_run(sp.seed ^ k, sp.iters));
	}

	/* every high launch preempted; every saved CTA resumed once */
	npre = count_kind(f.env, PPU_TRACE_CTA_PREEMPT);
	nsaved = count_kind(f.env, PPU_TRACE_CTA_SAVED);
	nres = count_kind(f.env, PPU_TRACE_CTA_RESUME);
	ck_assert_uint_ge(nsaved, PREEMPT_ROUNDS - 5);
	ck_assert_uint_eq(nsaved, nres);
	ck_assert_uint_ge(npre, nsaved);
	ck_assert_uint_eq(rtl_perf_read(f.env, PPU_PERF_PREEMPTIONS), npre);
	ck_assert_uint_eq(rtl_perf_read(f.env, PPU_PERF_CTA_RESUMES), nres);
	ck_assert_uint_gt(rtl_perf_read(f.env, PPU_PERF_CTXSW_CYCLES), 0);
	if (waves)
		ck_assert_uint_gt(later, 0);
	printf("preemption %s: %zu preempted, %zu saved and resumed, %llu context-switch unit cycles, "
	       "done at cycle %llu\n", c->name, npre, nsaved,
	       (unsigned long long)rtl_perf_read(f.env, PPU_PERF_CTXSW_CYCLES),
	       (unsigned long long)ppu_sim_cycles(f.env->sim));
	rtl_kimage_free(&spin);
	rtl_chan_destroy(lo);
	rtl_chan_destroy(hi);
	cfx_end(&f);
}
END_TEST

/*
 * A preemption whose thread records cannot be written (the record pages
 * of the task block mapped read-only) faults the low-priority channel only,
 * with the record's VA, access WRITE and unit COMPUTE; the channel's task is
 * dropped and the high-priority kernel on another channel still runs.
 */
START_TEST(a_save_that_faults_faults_only_its_channel)
{
	struct spin_params plo = { .iters = 200000, .seed = 3 }, phi = { .iters = 20, .seed = 4 };
	struct rtl_buf olo, ohi;
	struct rtl_klaunch l, h;
	struct rtl_chan *lo, *hi;
	uint32_t info, addr, rec, k;
	struct cfx f;

	cfx_begin(&f, "spin");
	olo = rtl_buf_alloc(f.ctx, 0, 8 * 8 * 4);
	ohi = rtl_buf_alloc(f.ctx, 0, 8 * 4);
	plo.out = olo.va;
	phi.out = ohi.va;
	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "spin"), 8, 8, &plo, sizeof(plo));
	l.prio = 1;
	rtl_klaunch_prepare(f.ctx, &l, 0x11);
	/* the records (spin needs no stack): read-only */
	rec = l.block.va + PPU_TASK_BLOCK_HEADER_BYTES;
	rtl_map(f.ctx, l.block.va, l.block.pa, l.block.sys, 2 * PAGE, PPU_PTE_PERM_R);
	rtl_reg_write(f.env, PPU_REG_MMU_CTRL, PPU_FSET(PPU_MMU_CTRL_INVALIDATE, 1));
	rtl_klaunch_init(&h, rtl_kimage_fn(&f.k, "spin"), 1, 8, &phi, sizeof(phi));
	h.prio = 60;
	rtl_klaunch_prepare(f.ctx, &h, 0x22);

	lo = rtl_cchan_create(f.env, f.ctx, 3, 0, 63, 1);
	hi = rtl_cchan_create(f.env, f.ctx, 4, 0, 63, 1);
	rtl_klaunch_submit(lo, &l, 0, 0);
	ck_assert_int_ge(rtl_wait_event(f.env, PPU_TRACE_CTA_DISPATCH, 3, 4, 400000), 0);
	ppu_sim_clock(f.env->sim, 2000);
	rtl_klaunch_submit(hi, &h, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(hi, 2000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &h.sem, 0), 0x22);
	for (k = 0; k < 8; k++)
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &ohi, 4 * k), spin_run(phi.seed ^ k, phi.iters));

	ck_assert_int_eq(rtl_chan_wait(lo, 2000000), 1);
	info = rtl_chan_reg(lo, PPU_CHAN_FAULT_INFO);
	addr = rtl_chan_reg(lo, PPU_CHAN_FAULT_ADDR);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_PERMISSION);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_COMPUTE);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_ACCESS, info), PPU_FAULT_ACCESS_WRITE);
	ck_assert_uint_ge(addr, rec);
	ck_assert_uint_lt(addr, rec + 8 * 8 * PPU_THREAD_RECORD_BYTES);
	ck_assert_uint_ge(count_kind(f.env, PPU_TRACE_CTA_PREEMPT), 1);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_CTA_SAVED), 0);
	/* the faulted channel's task is dropped, its CTAs killed */
	wait_reg(f.env, PPU_CHAN_BASE + 3 * PPU_CHAN_STRIDE + PPU_CHAN_TASKS, 0, 400000);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &l.sem, 0), 0);
	rtl_reg_write(f.env, PPU_REG_CHAN_CTRL,
		      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) | 3);
	ck_assert_int_eq(rtl_chan_wait_state(lo, PPU_CHAN_STATUS_STATE_UNBOUND, 16, 100000), 0);
	rtl_chan_destroy(lo);
	rtl_chan_destroy(hi);
	cfx_end(&f);
}
END_TEST

/*
 * A low-priority spin kernel (@grid CTAs of @cta threads, priority 1,
 * channel 3) dispatched, then after @delay cycles a high-priority one (4
 * CTAs of 8, priority 60, channel 4) that needs every unit.
 */
struct lohi {
	struct spin_params plo, phi;
	struct rtl_buf olo, ohi;
	struct rtl_klaunch l, h;
	struct rtl_chan *lo, *hi;
};

static void lohi_start(struct cfx *f, struct lohi *x, uint32_t grid, uint32_t cta, uint32_t delay)
{
	x->olo = rtl_buf_alloc(f->ctx, 0, grid * cta * 4);
	x->ohi = rtl_buf_alloc(f->ctx, 0, 4 * 8 * 4);
	x->plo.out = x->olo.va;
	x->phi.out = x->ohi.va;
	rtl_klaunch_init(&x->l, rtl_kimage_fn(&f->k, "spin"), grid, cta, &x->plo, sizeof(x->plo));
	x->l.prio = 1;
	rtl_klaunch_prepare(f->ctx, &x->l, 0x11);
	rtl_klaunch_init(&x->h, rtl_kimage_fn(&f->k, "spin"), 4, 8, &x->phi, sizeof(x->phi));
	x->h.prio = 60;
	rtl_klaunch_prepare(f->ctx, &x->h, 0x22);
	x->lo = rtl_cchan_create(f->env, f->ctx, 3, 0, 63, 1);
	x->hi = rtl_cchan_create(f->env, f->ctx, 4, 0, 63, 1);
	rtl_klaunch_submit(x->lo, &x->l, 0, 0);
	ck_assert_int_ge(rtl_wait_event(f->env, PPU_TRACE_CTA_DISPATCH, 3, 4, 400000), 0);
	ppu_sim_clock(f->env->sim, delay);
	rtl_klaunch_submit(x->hi, &x->h, 0, 0);
}

/*
 * A CTA in waves preempted, its slot header then overwritten while it is
 * off the unit (loop 0: LIVE = 0; loop 1: the wave to load not below the
 * waves started): the resume checks the header and faults the channel,
 * TMD_INVALID at the bad word's VA, unit COMPUTE; the high-priority kernel
 * on another channel is unaffected.
 */
START_TEST(a_corrupted_wave_header_faults_only_its_channel)
{
	struct lohi x = { .plo = { .iters = 100000, .seed = 5 }, .phi = { .iters = 3000, .seed = 6 } };
	struct rtl_klaunch *l = &x.l;
	uint32_t hdr, bad, info, k;
	struct cfx f;

	cfx_begin(&f, "spin");
	lohi_start(&f, &x, 1, 20, 3000);
	ck_assert_int_ge(rtl_wait_event(f.env, PPU_TRACE_CTA_SAVED, 3, 4, 400000), 0);
	/* the saved header is sane; then one word goes bad */
	hdr = PPU_TASK_BLOCK_SLOT_HDR + PPU_SLOT_HDR_BARRIER;
	ck_assert_uint_eq(PPU_FGET(PPU_SLOT_HDR_BARRIER_LIVE, rtl_buf_rd32(f.env, &l->block, hdr)), 20);
	ck_assert_uint_ge(PPU_FGET(PPU_SLOT_HDR_WAVE_STARTED,
				   rtl_buf_rd32(f.env, &l->block, hdr + 4)), 1);
	if (_i == 0) {
		bad = rtl_buf_rd32(f.env, &l->block, hdr) & ~PPU_FMASK(PPU_SLOT_HDR_BARRIER_LIVE);
	} else {
		hdr += 4;
		bad = PPU_FSET(PPU_SLOT_HDR_WAVE_WAVE, 2) | PPU_FSET(PPU_SLOT_HDR_WAVE_STARTED, 2);
	}
	rtl_buf_wr32(f.env, &l->block, hdr, bad);

	ck_assert_int_eq(rtl_chan_wait(x.hi, 4000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &x.h.sem, 0), 0x22);
	for (k = 0; k < 32; k++)
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &x.ohi, 4 * k), spin_run(x.phi.seed ^ k, x.phi.iters));
	ck_assert_int_eq(rtl_chan_wait(x.lo, 2000000), 1);
	info = rtl_chan_reg(x.lo, PPU_CHAN_FAULT_INFO);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_TMD_INVALID);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_COMPUTE);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_ACCESS, info), PPU_FAULT_ACCESS_READ);
	ck_assert_uint_eq(rtl_chan_reg(x.lo, PPU_CHAN_FAULT_ADDR), l->block.va + hdr);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_CTA_RESUME), 1);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &l->sem, 0), 0);
	rtl_chan_destroy(x.lo);
	rtl_chan_destroy(x.hi);
	cfx_end(&f);
}
END_TEST

/*
 * Unbinding a channel whose CTAs are preempted (saved in their task block,
 * on no unit) drops them: the channel holds no task afterwards, nothing of
 * it resumes, and the high-priority kernel and a later launch run.
 */
START_TEST(unbind_drops_preempted_ctas)
{
	struct lohi x = { .plo = { .iters = 200000, .seed = 5 }, .phi = { .iters = 3000, .seed = 6 } };
	struct rtl_klaunch *l = &x.l;
	struct rtl_chan *lo, *hi;
	size_t saved;
	struct cfx f;

	cfx_begin(&f, "spin");
	lohi_start(&f, &x, 8, 8, 2000);
	lo = x.lo;
	hi = x.hi;
	/* every unit taken from the low kernel, then unbind it */
	ck_assert_int_ge(rtl_wait_event(f.env, PPU_TRACE_CTA_DISPATCH, 4, 4, 400000), 0);
	for (saved = 0; saved < 4; saved = count_kind(f.env, PPU_TRACE_CTA_SAVED))
		ppu_sim_clock(f.env->sim, 64);
	rtl_reg_write(f.env, PPU_REG_CHAN_CTRL,
		      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) | 3);
	ck_assert_int_eq(rtl_chan_wait_state(lo, PPU_CHAN_STATUS_STATE_UNBOUND, 16, 400000), 0);
	ck_assert_uint_eq(rtl_chan_reg(lo, PPU_CHAN_TASKS), 0);
	ck_assert_int_eq(rtl_chan_wait(hi, 2000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &x.h.sem, 0), 0x22);
	ppu_sim_clock(f.env->sim, 20000);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_CTA_RESUME), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &l->sem, 0), 0);
	ck_assert_int_lt(rtl_log_find(f.env, PPU_TRACE_TASK_COMPLETE, 3, 0), 0);
	/* the unit contexts are all free: a full-device launch runs */
	x.plo.iters = 10;
	rtl_klaunch_prepare(f.ctx, l, 0x33);
	rtl_chan_destroy(lo);
	lo = rtl_cchan_create(f.env, f.ctx, 3, 0, 63, 1);
	rtl_klaunch_submit(lo, l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(lo, 2000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &l->sem, 0), 0x33);
	rtl_chan_destroy(lo);
	rtl_chan_destroy(hi);
	cfx_end(&f);
}
END_TEST

/*
 * Eviction: every task slot taken, a launch above the lowest active task
 * evicts it (the youngest of the lowest priority).  Its running CTAs are
 * preempted, its progress (NEXT_CTA, CTAS_EXITED, slot states, MAGIC and
 * the saved CTAs' ids) written to its task block, its slot given to the
 * new task, and it waits at the head of its priority's list.  Re-activated
 * later, it reads its progress back and resumes its saved CTAs: every
 * result equals the CPU's.  Preemption is off (TASK_CTRL) so that only
 * the eviction saves CTAs.
 */
START_TEST(eviction_keeps_progress_and_resumes)
{
	struct checksum_params pv = { .iters = 4000, .seed = 7 }, pf = { .iters = 300, .seed = 8 },
			       ph = { .iters = 50, .seed = 9 };
	struct rtl_klaunch v, fl[7], h;
	struct rtl_buf ov, of, oh;
	struct rtl_chan *cv, *cf[7], *chh;
	uint32_t ring[8], k, i, vtid, slots;
	long ev, act2, lv;
	struct cfx f;

	cfx_begin(&f, "checksum");
	slots = rtl_reg_read(f.env, PPU_REG_CAP_NUM_TASK_SLOTS);
	ck_assert_uint_eq(slots, 8);
	ov = rtl_buf_alloc(f.ctx, 0, 4 * 8 * 4);
	of = rtl_buf_alloc(f.ctx, 0, 7 * 8 * 4);
	oh = rtl_buf_alloc(f.ctx, 0, 8 * 4);
	pv.out = ov.va;
	ph.out = oh.va;
	rtl_klaunch_init(&v, rtl_kimage_fn(&f.k, "checksum"), 4, 8, &pv, sizeof(pv));
	v.prio = 5;
	rtl_klaunch_prepare(f.ctx, &v, 0x55);
	for (i = 0; i < 7; i++) {
		pf.out = of.va + 32 * i;
		rtl_klaunch_init(&fl[i], rtl_kimage_fn(&f.k, "checksum"), 1, 8, &pf, sizeof(pf));
		fl[i].prio = 10;
		rtl_klaunch_prepare(f.ctx, &fl[i], 0x100 + i);
	}
	rtl_klaunch_init(&h, rtl_kimage_fn(&f.k, "checksum"), 1, 8, &ph, sizeof(ph));
	h.prio = 40;
	rtl_klaunch_prepare(f.ctx, &h, 0x44);

	rtl_reg_write(f.env, PPU_REG_TASK_CTRL, PPU_FSET(PPU_TASK_CTRL_NO_PREEMPT, 1));
	cv = rtl_cchan_create(f.env, f.ctx, 2, 0, 63, 1);
	for (i = 0; i < 7; i++)
		cf[i] = rtl_cchan_create(f.env, f.ctx, 3 + i, 0, 63, 1);
	chh = rtl_cchan_create(f.env, f.ctx, 12, 0, 63, 1);
	rtl_klaunch_submit(cv, &v, 0, 0);
	/* the victim on every unit, then seven fillers in the other slots */
	while (count_kind(f.env, PPU_TRACE_CTA_DISPATCH) < 4)
		ppu_sim_clock(f.env->sim, 16);
	lv = rtl_log_find(f.env, PPU_TRACE_TASK_LAUNCH, 2, 0);
	ck_assert_int_ge(lv, 0);
	vtid = f.env->ev[lv].a & 0xff;
	for (i = 0; i < 7; i++)
		rtl_klaunch_submit(cf[i], &fl[i], 0, 0);
	while (count_kind(f.env, PPU_TRACE_TASK_ACTIVATE) < 8)
		ppu_sim_clock(f.env->sim, 16);
	ppu_sim_clock(f.env->sim, 3000);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_TASK_EVICT), 0);
	/* the eighth slot-holder arrives: the victim (lowest priority) is evicted */
	rtl_klaunch_submit(chh, &h, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(chh, 2000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &h.sem, 0), 0x44);
	ev = rtl_log_find(f.env, PPU_TRACE_TASK_EVICT, 2, 0);
	ck_assert_int_ge(ev, 0);
	ck_assert_uint_eq(f.env->ev[ev].a & 0xff, vtid);
	ck_assert_uint_eq((f.env->ev[ev].a >> 16) & 0x3f, 5);
	ck_assert_uint_eq(f.env->ev[ev].b, v.tmd.va);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_CTA_SAVED), 4);
	/* the evicted progress in the task block */
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &v.block, PPU_TASK_BLOCK_HW_STATE + PPU_TASK_HW_MAGIC),
			  PPU_TASK_HW_MAGIC_BASE | vtid);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &v.block, PPU_TASK_BLOCK_HW_STATE + PPU_TASK_HW_NEXT_CTA),
			  4);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &v.block,
				       PPU_TASK_BLOCK_HW_STATE + PPU_TASK_HW_CTAS_EXITED), 0);

	for (i = 0; i < 7; i++)
		ck_assert_int_eq(rtl_chan_wait(cf[i], 20000000), 0);
	ck_assert_int_eq(rtl_chan_wait(cv, 40000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &v.sem, 0), 0x55);
	act2 = rtl_log_find(f.env, PPU_TRACE_TASK_ACTIVATE, 2, (size_t)ev);
	ck_assert_int_gt(act2, ev);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_CTA_RESUME), 4);
	ck_assert_uint_eq(count_kind(f.env, PPU_TRACE_TASK_EVICT), 1);
	ck_assert_uint_eq(rtl_perf_read(f.env, PPU_PERF_EVICTIONS), 1);
	for (k = 0; k < 32; k++)
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &ov, 4 * k), checksum_run(ring, pv.seed, k, pv.iters));
	for (i = 0; i < 7; i++)
		for (k = 0; k < 8; k++)
			ck_assert_uint_eq(rtl_buf_rd32(f.env, &of, 32 * i + 4 * k),
					  checksum_run(ring, pf.seed, k, pf.iters));
	for (k = 0; k < 8; k++)
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &oh, 4 * k), checksum_run(ring, ph.seed, k, ph.iters));
	rtl_chan_destroy(cv);
	for (i = 0; i < 7; i++)
		rtl_chan_destroy(cf[i]);
	rtl_chan_destroy(chh);
	cfx_end(&f);
}
END_TEST

Suite *suite_compute(void)
{
	Suite *s = suite_create("compute");
	TCase *tc = tcase_create("compute");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, caps_report_the_compute_engine);
	tcase_add_test(tc, saxpy_matches_the_cpu);
	tcase_add_test(tc, wfi_waits_for_the_channels_tasks);
	tcase_add_test(tc, release_wfi_waits_for_the_channels_tasks);
	tcase_add_test(tc, atomics_from_every_context_are_exact);
	tcase_add_test(tc, histogram_matches_the_cpu);
	tcase_add_test(tc, csrs_give_ids_dims_and_the_clamped_priority);
	tcase_add_test(tc, a_trapping_kernel_faults_only_its_channel);
	tcase_add_loop_test(tc, bad_tmds_fault_the_channel, 0, 2);
	tcase_add_test(tc, higher_priority_ctas_dispatch_first);
	tcase_add_test(tc, launches_beyond_the_task_ids_wait_and_all_run);
	tcase_add_test(tc, unbind_kills_a_running_kernel);
	tcase_add_test(tc, unbind_around_a_kernel_fault_leaves_the_channel_unbound);
	tcase_add_loop_test(tc, compute_fault_kinds_are_reported, 0,
			    sizeof(fault_cases) / sizeof(fault_cases[0]));
	tcase_add_loop_test(tc, sample_kernels_match_the_reference_model, 0,
			    sizeof(iss_cases) / sizeof(iss_cases[0]));
	tcase_add_test(tc, a_save_that_faults_faults_only_its_channel);
	tcase_add_test(tc, unbind_drops_preempted_ctas);
	tcase_add_loop_test(tc, a_corrupted_wave_header_faults_only_its_channel, 0, 2);
	tcase_add_test(tc, eviction_keeps_progress_and_resumes);
	tcase_add_loop_test(tc, preempted_kernels_resume_bit_exact, 0,
			    sizeof(preempt_cases) / sizeof(preempt_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
