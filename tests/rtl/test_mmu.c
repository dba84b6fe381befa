// SPDX-License-Identifier: MIT
/*
 * MMU: Sv32 translation for every engine access (copy source/destination,
 * pushbuffer and GPFIFO fetch, semaphores), 4 KiB pages and 4 MiB
 * superpages, page tables in either aperture, the leaf SYS bit, TLB
 * invalidation and miss counting, and the faults a walk can end in.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_suites.h"

#define PAGE 4096u
#define SUPER (4u << 20)
#define WAIT_CYCLES 2000000
#define PERM_RW (PPU_PTE_PERM_R | PPU_PTE_PERM_W)
/* a physical address beyond either 64 MiB aperture of the default env */
#define PA_OUTSIDE (128ull << 20)
/* a physical page this suite's allocations never reach, in both apertures */
#define PA_SHARED (48ull << 20)
/* the byte of each random draw this suite's data has always used */
#define RND_SHIFT 7
/* the busy channel of another context: buffer and copy size */
#define BUSY_LEN (48u * 1024 + 5)

static void fault_expect(struct rtl_chan *ch, uint32_t kind, uint32_t unit, uint32_t access)
{
	uint32_t fi = rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO);

	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, fi), kind);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, fi), unit);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_ACCESS, fi), access);
}

static void fault_addr_in(struct rtl_chan *ch, uint32_t lo, uint32_t size)
{
	uint32_t fa = rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR);

	ck_assert_msg(fa >= lo && fa - lo < size, "FAULT_ADDR 0x%08x not in [0x%08x, +0x%x)", fa,
		      lo, size);
}

static void submit_copy(struct rtl_chan *ch, uint32_t src, uint32_t dst, uint32_t len,
			uint32_t sem_mode, uint32_t sem_va, uint32_t payload)
{
	uint32_t dw[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src, dst, len, sem_mode, sem_va, payload, 0);
	rtl_chan_submit(ch, &pb);
}

static int copy_and_wait(struct rtl_chan *ch, uint32_t src, uint32_t dst, uint32_t len)
{
	submit_copy(ch, src, dst, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0);
	return rtl_chan_wait(ch, WAIT_CYCLES);
}

/*
 * Software Sv32 walk of the tables in memory (for the test's own backdoor
 * writes through a VA): honours superpages and the SYS bit of pointers and
 * leaves.
 */
static void sw_walk(struct rtl_env *env, uint64_t root_pa, int root_sys, uint32_t va,
		    uint64_t *pa, int *sys)
{
	uint32_t pte = rtl_mem_rd32(env, root_sys, root_pa + PPU_FGET(PPU_VA_VPN1, va) * 4);
	const uint32_t leaf = PPU_PTE_PERM_R | PPU_PTE_PERM_X;

	ck_assert(pte & PPU_PTE_BIT(PPU_PTE_V));
	if (!(pte & leaf)) {
		uint64_t t = (uint64_t)PPU_FGET(PPU_PTE_PPN, pte) << 12;

		pte = rtl_mem_rd32(env, PPU_FGET(PPU_PTE_SYS, pte),
				   t + PPU_FGET(PPU_VA_VPN0, va) * 4);
		ck_assert(pte & PPU_PTE_BIT(PPU_PTE_V));
		*pa = ((uint64_t)PPU_FGET(PPU_PTE_PPN, pte) << 12) | PPU_FGET(PPU_VA_OFFSET, va);
	} else {
		*pa = ((uint64_t)PPU_FGET(PPU_PTE_PPN1, pte) << 22) | (va & (SUPER - 1));
	}
	*sys = PPU_FGET(PPU_PTE_SYS, pte);
}

static void va_io(struct rtl_ctx *ctx, uint32_t va, void *buf, uint32_t len, int wr)
{
	uint8_t *p = buf;

	while (len) {
		uint32_t n = PAGE - (va & (PAGE - 1));
		uint64_t pa;
		int sys;

		if (n > len)
			n = len;
		sw_walk(ctx->env, ctx->root_pa, 0, va, &pa, &sys);
		ck_assert_int_eq(wr ? ppu_sim_mem_write(ctx->env->sim, sys, pa, p, n)
				    : ppu_sim_mem_read(ctx->env->sim, sys, pa, p, n), 0);
		va += n;
		p += n;
		len -= n;
	}
}

static void va_write(struct rtl_ctx *ctx, uint32_t va, const void *buf, uint32_t len)
{
	va_io(ctx, va, (void *)buf, len, 1);
}

static void va_read(struct rtl_ctx *ctx, uint32_t va, void *buf, uint32_t len)
{
	va_io(ctx, va, buf, len, 0);
}

/*
 * Submits @pb placed at @pb_va of the channel's pushbuffer arena, writing
 * the pushbuffer and the GPFIFO entry through the page tables.
 */
static void vsubmit(struct rtl_chan *ch, const struct ppu_pb *pb, uint32_t pb_va)
{
	uint32_t e[2];

	ck_assert(!pb->overflow);
	va_write(ch->ctx, pb_va, pb->dw, pb->len * 4);
	ppu_gp_entry(e, pb_va, pb->len, 0);
	va_write(ch->ctx, ch->gpfifo.va + ch->put * 8, e, 8);
	ch->put = (ch->put + 1) & ((1u << ch->log2_entries) - 1);
	rtl_userd_wr32(ch, PPU_USERD_GP_PUT, ch->put);
	rtl_chan_doorbell(ch);
}

/* Rewrites the page-table root of a channel's instance block. */
static void inst_set_root(struct rtl_chan *ch, uint64_t root_pa, int sys)
{
	rtl_mem_wr32(ch->env, 0, ch->inst_pa + PPU_INST_PT_ROOT,
		     PPU_FSET(PPU_INST_PT_ROOT_PPN, (uint32_t)(root_pa >> 12)) |
		     PPU_FSET(PPU_INST_PT_ROOT_SYS, !!sys));
}

/* ------------------------------------------------------------------------ */

START_TEST(superpage_and_4k_pages_translate_to_their_pas)
{
	const int sp_sys = _i;
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	const uint32_t sp_va = 0x40000000, len = 3 * PAGE + 11;
	uint64_t sp_pa = rtl_alloc_pa(env, sp_sys, SUPER, SUPER);
	struct rtl_buf a = rtl_buf_alloc(ctx, 0, PAGE), b = rtl_buf_alloc(ctx, 1, PAGE);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, 4 * PAGE), dst = rtl_buf_alloc(ctx, 1, 4 * PAGE);
	uint8_t *simg, *img = rtl_xmalloc(64 * 1024), *got = rtl_xmalloc(64 * 1024);
	uint64_t m0;

	rtl_rnd_seed(0x5e7 + _i, RND_SHIFT);
	rtl_map_super(ctx, sp_va, sp_pa, sp_sys, PERM_RW);
	simg = rtl_buf_randomize(env, &src);

	/* warm the TLB with the channel's GPFIFO and pushbuffer pages */
	ck_assert_int_eq(copy_and_wait(ch, a.va, b.va, 64), 0);

	/* 16 pages inside one superpage, both sides: a single walk */
	rtl_rnd_fill(img, 64 * 1024);
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, sp_sys, sp_pa + 0x100000, img, 64 * 1024), 0);
	m0 = rtl_perf_read(env, PPU_PERF_TLB_MISSES);
	ck_assert_int_eq(copy_and_wait(ch, sp_va + 0x100000, sp_va + 0x300005, 64 * 1024 - 5), 0);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_TLB_MISSES) - m0, 1);
	ck_assert_int_eq(ppu_sim_mem_read(env->sim, sp_sys, sp_pa + 0x300005, got, 64 * 1024 - 5),
			 0);
	ck_assert_mem_eq(got, img, 64 * 1024 - 5);

	/* 4 KiB pages into the superpage across 4 KiB boundaries, and back out */
	ck_assert_int_eq(copy_and_wait(ch, src.va + 1, sp_va + 0x1ff000 - 5, len), 0);
	ck_assert_int_eq(ppu_sim_mem_read(env->sim, sp_sys, sp_pa + 0x1ff000 - 5, got, len), 0);
	ck_assert_mem_eq(got, simg + 1, len);
	ck_assert_int_eq(copy_and_wait(ch, sp_va + 0x1ff000 - 5, dst.va + 6, len), 0);
	rtl_expect_buf(env, &dst, 6, simg + 1, len);
	/* the last bytes of the superpage */
	ck_assert_int_eq(copy_and_wait(ch, src.va, sp_va + SUPER - 100, 100), 0);
	ck_assert_int_eq(ppu_sim_mem_read(env->sim, sp_sys, sp_pa + SUPER - 100, got, 100), 0);
	ck_assert_mem_eq(got, simg, 100);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	free(img);
	free(got);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(misaligned_superpage_is_not_present)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	const uint32_t sp_va = 0x40000000;
	uint64_t sp_pa = rtl_alloc_pa(env, 0, 2 * SUPER, SUPER);
	struct rtl_buf dst = rtl_buf_alloc(ctx, 0, PAGE);

	/* PPN0 != 0 in a level-1 leaf */
	rtl_map_super(ctx, sp_va, sp_pa + PAGE, 0, PERM_RW);
	ck_assert_int_eq(copy_and_wait(ch, sp_va + 0x10, dst.va, 16), 1);
	fault_expect(ch, PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_UNIT_COPY_SRC,
		     PPU_FAULT_ACCESS_READ);
	fault_addr_in(ch, sp_va, PAGE);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(tlb_misses_count_first_touch_only)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf x = rtl_buf_alloc(ctx, 0, PAGE), y = rtl_buf_alloc(ctx, 0, PAGE);
	struct rtl_buf a = rtl_buf_alloc(ctx, 0, 3 * PAGE), b = rtl_buf_alloc(ctx, 1, PAGE);
	struct rtl_buf c = rtl_buf_alloc(ctx, 1, 4 * PAGE);
	uint64_t m0, m1, m2, m3, m4;

	/*
	 * Each side of a copy also translates the page after its range (the
	 * copy engine's prefetch).  Every buffer here is followed by an
	 * unmapped guard page, and a failed walk fills nothing, so a prefetch
	 * into a guard page misses every time.
	 */
	/* the GPFIFO page, the pushbuffer page, x and y, and their guards */
	ck_assert_int_eq(copy_and_wait(ch, x.va, y.va, PAGE), 0);
	m0 = rtl_perf_read(env, PPU_PERF_TLB_MISSES);
	ck_assert_uint_eq(m0, 6);
	/* first touch of a and b, a's second page (prefetch), b's guard */
	ck_assert_int_eq(copy_and_wait(ch, a.va, b.va, PAGE), 0);
	m1 = rtl_perf_read(env, PPU_PERF_TLB_MISSES);
	ck_assert_uint_eq(m1 - m0, 4);
	/* the same pages again, and other offsets in them: only b's guard */
	ck_assert_int_eq(copy_and_wait(ch, a.va, b.va, PAGE), 0);
	ck_assert_int_eq(copy_and_wait(ch, a.va + 100, b.va + 7, 1000), 0);
	m2 = rtl_perf_read(env, PPU_PERF_TLB_MISSES);
	ck_assert_uint_eq(m2 - m1, 2);
	/* a's second page was prefetched: new are a's third (prefetch), three
	 * pages of c and c's fourth (prefetch) */
	ck_assert_int_eq(copy_and_wait(ch, a.va, c.va + PAGE / 2, 2 * PAGE), 0);
	m3 = rtl_perf_read(env, PPU_PERF_TLB_MISSES);
	ck_assert_uint_eq(m3 - m2, 5);
	/* after an invalidate everything misses once more */
	rtl_reg_write(env, PPU_REG_MMU_CTRL, PPU_FSET(PPU_MMU_CTRL_INVALIDATE, 1));
	ck_assert_int_eq(copy_and_wait(ch, a.va, b.va, PAGE), 0);
	m4 = rtl_perf_read(env, PPU_PERF_TLB_MISSES);
	ck_assert_uint_eq(m4 - m3, 6);
	rtl_expect_no_protocol_errors(env);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(invalidate_makes_a_remapped_source_visible)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf s = rtl_buf_alloc(ctx, 0, PAGE), other = rtl_buf_alloc(ctx, 1, PAGE);
	struct rtl_buf d1 = rtl_buf_alloc(ctx, 0, PAGE), d2 = rtl_buf_alloc(ctx, 0, PAGE);
	struct rtl_buf d3 = rtl_buf_alloc(ctx, 0, PAGE);
	uint8_t *old, *new;

	rtl_rnd_seed(0x1a1, RND_SHIFT);
	old = rtl_buf_randomize(env, &s);
	new = rtl_buf_randomize(env, &other);

	ck_assert_int_eq(copy_and_wait(ch, s.va, d1.va, PAGE), 0);
	rtl_expect_buf(env, &d1, 0, old, PAGE);

	/* remap the source VA; the TLB still holds the old translation */
	rtl_map(ctx, s.va, other.pa, other.sys, PAGE, PERM_RW);
	ck_assert_int_eq(copy_and_wait(ch, s.va, d2.va, PAGE), 0);
	rtl_expect_buf(env, &d2, 0, old, PAGE);

	rtl_reg_write(env, PPU_REG_MMU_CTRL, PPU_FSET(PPU_MMU_CTRL_INVALIDATE, 1));
	ck_assert_int_eq(copy_and_wait(ch, s.va, d3.va, PAGE), 0);
	rtl_expect_buf(env, &d3, 0, new, PAGE);
	rtl_expect_no_protocol_errors(env);

	free(old);
	free(new);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(leaf_sys_bit_selects_system_memory)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	uint32_t va_l = rtl_va_reserve(ctx, PAGE), va_s = rtl_va_reserve(ctx, PAGE);
	uint32_t va_w = rtl_va_reserve(ctx, PAGE);
	struct rtl_buf d_l = rtl_buf_alloc(ctx, 0, PAGE), d_s = rtl_buf_alloc(ctx, 0, PAGE);
	uint8_t local[PAGE], sys[PAGE], got[PAGE], zero[PAGE];

	/* the same physical address in both apertures, different contents */
	rtl_rnd_seed(0x5a5, RND_SHIFT);
	rtl_rnd_fill(local, PAGE);
	rtl_rnd_fill(sys, PAGE);
	memset(zero, 0, PAGE);
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, 0, PA_SHARED, local, PAGE), 0);
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, 1, PA_SHARED, sys, PAGE), 0);
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, 0, PA_SHARED + PAGE, zero, PAGE), 0);
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, 1, PA_SHARED + PAGE, zero, PAGE), 0);
	rtl_map(ctx, va_l, PA_SHARED, 0, PAGE, PERM_RW);
	rtl_map(ctx, va_s, PA_SHARED, 1, PAGE, PERM_RW);
	rtl_map(ctx, va_w, PA_SHARED + PAGE, 1, PAGE, PERM_RW);

	ck_assert_int_eq(copy_and_wait(ch, va_l, d_l.va, PAGE), 0);
	ck_assert_int_eq(copy_and_wait(ch, va_s, d_s.va, PAGE), 0);
	rtl_expect_buf(env, &d_l, 0, local, PAGE);
	rtl_expect_buf(env, &d_s, 0, sys, PAGE);

	/* a write through a SYS leaf lands in system memory only */
	ck_assert_int_eq(copy_and_wait(ch, va_l, va_w, PAGE), 0);
	ck_assert_int_eq(ppu_sim_mem_read(env->sim, 1, PA_SHARED + PAGE, got, PAGE), 0);
	ck_assert_mem_eq(got, local, PAGE);
	ck_assert_int_eq(ppu_sim_mem_read(env->sim, 0, PA_SHARED + PAGE, got, PAGE), 0);
	ck_assert_mem_eq(got, zero, PAGE);
	rtl_expect_no_protocol_errors(env);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(same_va_in_two_contexts_translates_per_context)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ca = rtl_ctx_create(env), *cb = rtl_ctx_create(env);
	struct rtl_chan *cha = rtl_chan_create(env, ca, 0, 4, 0);
	struct rtl_chan *chb = rtl_chan_create(env, cb, 1, 4, 0);
	struct rtl_chan *both[2] = { cha, chb };
	struct rtl_buf sa = rtl_buf_alloc(ca, 0, 2 * PAGE), sb = rtl_buf_alloc(cb, 1, 2 * PAGE);
	struct rtl_buf da = rtl_buf_alloc(ca, 1, 2 * PAGE), db = rtl_buf_alloc(cb, 0, 2 * PAGE);
	uint8_t *ia, *ib;
	int round;

	rtl_rnd_seed(0xab, RND_SHIFT);
	/* both allocators hand out the same VAs, backed by different pages */
	ck_assert_uint_eq(sa.va, sb.va);
	ck_assert_uint_eq(da.va, db.va);
	ia = rtl_buf_randomize(env, &sa);
	ib = rtl_buf_randomize(env, &sb);
	for (round = 0; round < 2; round++) {
		submit_copy(cha, sa.va + round, da.va, 2 * PAGE - 1, 0, 0, 0);
		submit_copy(chb, sb.va + round, db.va, 2 * PAGE - 1, 0, 0, 0);
		ck_assert_int_eq(rtl_wait_all(both, 2, WAIT_CYCLES), 0);
		rtl_expect_buf(env, &da, 0, ia + round, 2 * PAGE - 1);
		rtl_expect_buf(env, &db, 0, ib + round, 2 * PAGE - 1);
	}
	rtl_expect_no_protocol_errors(env);

	free(ia);
	free(ib);
	rtl_chan_destroy(cha);
	rtl_chan_destroy(chb);
	rtl_ctx_destroy(ca);
	rtl_ctx_destroy(cb);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(widened_permission_takes_effect_without_invalidate)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf p = rtl_buf_alloc(ctx, 0, PAGE), x = rtl_buf_alloc(ctx, 0, PAGE);
	struct rtl_buf y = rtl_buf_alloc(ctx, 1, PAGE);
	uint8_t *pimg, *yimg;

	rtl_rnd_seed(0x9d, RND_SHIFT);
	pimg = rtl_buf_randomize(env, &p);
	yimg = rtl_buf_randomize(env, &y);
	rtl_map(ctx, p.va, p.pa, 0, PAGE, PPU_PTE_PERM_R);
	/* a read puts the read-only translation in the TLB */
	ck_assert_int_eq(copy_and_wait(ch, p.va, x.va, PAGE), 0);
	rtl_expect_buf(env, &x, 0, pimg, PAGE);
	ck_assert_int_eq(copy_and_wait(ch, y.va, p.va, PAGE), 1);
	fault_expect(ch, PPU_FAULT_KIND_PERMISSION, PPU_FAULT_UNIT_COPY_DST,
		     PPU_FAULT_ACCESS_WRITE);
	rtl_expect_buf(env, &p, 0, pimg, PAGE);

	/* make it writable; no MMU_CTRL invalidate */
	rtl_map(ctx, p.va, p.pa, 0, PAGE, PERM_RW);
	rtl_chan_unbind_empty(ch, 100);
	ck_assert_int_eq(copy_and_wait(ch, y.va, p.va, PAGE), 0);
	rtl_expect_buf(env, &p, 0, yimg, PAGE);
	rtl_expect_no_protocol_errors(env);

	free(pimg);
	free(yimg);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

#define SCAT_POOL 96u	/* pages per aperture; strides below are coprime with it */

static uint64_t scat_pa(const uint64_t pool[2], int sys, uint32_t idx)
{
	return pool[sys] + (uint64_t)(idx % SCAT_POOL) * PAGE;
}

START_TEST(pushbuffers_gpfifo_and_semaphores_live_at_scattered_pas)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	/* 1024 entries: 8 KiB of GPFIFO, two pages */
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 2, 10, 0);
	const uint32_t npb = ch->pb.size / PAGE, start = 508, nent = 8;
	uint32_t sem_va = rtl_va_reserve(ctx, 2 * PAGE);
	struct rtl_buf src = rtl_buf_alloc(ctx, 1, 8 * 1000);
	struct rtl_buf dst = rtl_buf_alloc(ctx, 0, 8 * 1000);
	uint64_t pool[2];
	uint32_t i, k, *dw = rtl_xmalloc(2048 * 4), sems[2 * PAGE / 4];
	uint8_t *simg;
	struct ppu_pb pb;

	rtl_rnd_seed(0x5ca, RND_SHIFT);
	pool[0] = rtl_alloc_pa(env, 0, SCAT_POOL * PAGE, PAGE);
	pool[1] = rtl_alloc_pa(env, 1, SCAT_POOL * PAGE, PAGE);
	/* GPFIFO: page 0 in system memory, page 1 in local memory, far apart */
	rtl_map(ctx, ch->gpfifo.va, scat_pa(pool, 1, 41), 1, PAGE, PERM_RW);
	rtl_map(ctx, ch->gpfifo.va + PAGE, scat_pa(pool, 0, 77), 0, PAGE, PERM_RW);
	/* pushbuffer arena: page i at 7 * i + 3 of the pool, aperture by i % 3 */
	for (i = 0; i < npb; i++)
		rtl_map(ctx, ch->pb.va + i * PAGE, scat_pa(pool, i % 3 == 1, 7 * i + 3),
			i % 3 == 1, PAGE, PERM_RW);
	/* semaphores: two pages, the first in system memory */
	rtl_map(ctx, sem_va, scat_pa(pool, 1, 90), 1, PAGE, PERM_RW);
	rtl_map(ctx, sem_va + PAGE, scat_pa(pool, 0, 91), 0, PAGE, PERM_RW);
	memset(sems, 0, sizeof(sems));
	va_write(ctx, sem_va, sems, sizeof(sems));
	simg = rtl_buf_randomize(env, &src);

	/* entries 508..515 straddle the GPFIFO's page boundary at 512 */
	rtl_userd_wr32(ch, PPU_USERD_GP_PUT, start);
	rtl_userd_wr32(ch, PPU_USERD_GP_GET, start);
	ch->put = start;

	for (k = 0; k < nent; k++) {
		/* each segment starts 40 bytes before a page end */
		uint32_t pb_va = ch->pb.va + (4 * k + 2) * PAGE - 40;

		ppu_pb_init(&pb, dw, 2048);
		if (k == 3) {
			/* a long segment: 1500 NOPs, over two page boundaries */
			ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_NOP, 1500));
			for (i = 0; i < 1500; i++)
				ppu_pb_push(&pb, 0);
		}
		ppu_pb_copy(&pb, src.va + 1000 * k, dst.va + 1000 * k, 1000,
			    PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, sem_va + 1020 * k + 4, 0xc0de0000 + k, 0);
		ppu_pb_sem_release(&pb, sem_va + 1020 * k, 0xa0000000 + k);
		vsubmit(ch, &pb, pb_va);
	}
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), start + nent);
	va_read(ctx, sem_va, sems, sizeof(sems));
	for (k = 0; k < nent; k++) {
		ck_assert_uint_eq(sems[(1020 * k) / 4], 0xa0000000 + k);
		ck_assert_uint_eq(sems[(1020 * k + 4) / 4], 0xc0de0000 + k);
	}
	rtl_expect_buf(env, &dst, 0, simg, 8 * 1000);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, 2), nent);
	rtl_expect_no_protocol_errors(env);

	free(dw);
	free(simg);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

/*
 * Page tables in system memory.  The context is built by rtl_env in local
 * memory, then moved before the first doorbell: loop index 0 = root and
 * level-0 tables in system memory, 1 = root local and level-0 tables in
 * system memory (pointer PTEs with SYS), 2 = root in system memory and
 * level-0 tables local.  The local originals that are replaced are zeroed,
 * so a walk through them would fault.
 */
static void move_tables(struct rtl_chan *ch, int root_sys, int l0_sys)
{
	struct rtl_env *env = ch->env;
	struct rtl_ctx *ctx = ch->ctx;
	static uint32_t root[1024], tbl[1024];
	static const uint32_t zero[1024];
	uint64_t new_root = ctx->root_pa;
	uint32_t i;

	ck_assert_int_eq(ppu_sim_mem_read(env->sim, 0, ctx->root_pa, root, PAGE), 0);
	for (i = 0; i < 1024; i++) {
		uint64_t t, nt;

		if (!(root[i] & PPU_PTE_BIT(PPU_PTE_V)) ||
		    (root[i] & (PPU_PTE_PERM_R | PPU_PTE_PERM_X)))
			continue;
		if (!l0_sys)
			continue;
		t = (uint64_t)PPU_FGET(PPU_PTE_PPN, root[i]) << 12;
		nt = rtl_alloc_pa(env, 1, PAGE, PAGE);
		ck_assert_int_eq(ppu_sim_mem_read(env->sim, 0, t, tbl, PAGE), 0);
		ck_assert_int_eq(ppu_sim_mem_write(env->sim, 1, nt, tbl, PAGE), 0);
		ck_assert_int_eq(ppu_sim_mem_write(env->sim, 0, t, zero, PAGE), 0);
		root[i] = ppu_pte_table(nt, 1);
	}
	if (root_sys) {
		new_root = rtl_alloc_pa(env, 1, PAGE, PAGE);
		ck_assert_int_eq(ppu_sim_mem_write(env->sim, 0, ctx->root_pa, zero, PAGE), 0);
	}
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, root_sys, new_root, root, PAGE), 0);
	inst_set_root(ch, new_root, root_sys);
}

START_TEST(page_tables_in_system_memory_are_walked)
{
	static const int root_sys[3] = { 1, 0, 1 }, l0_sys[3] = { 1, 1, 0 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 1, 4, 0);
	/* buffers in three different level-0 tables (4 MiB apart) */
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, 3 * PAGE);
	uint32_t far1 = (ctx->next_va + SUPER) & ~(SUPER - 1), far2 = far1 + SUPER;
	uint64_t dst_pa = rtl_alloc_pa(env, 1, 3 * PAGE, PAGE);
	uint64_t sem_pa = rtl_alloc_pa(env, 0, PAGE, PAGE);
	uint8_t *simg, got[3 * PAGE];
	uint32_t dw[64];
	struct ppu_pb pb;

	rtl_rnd_seed(0x7ab + _i, RND_SHIFT);
	rtl_map(ctx, far1, dst_pa, 1, 3 * PAGE, PERM_RW);
	rtl_map(ctx, far2, sem_pa, 0, PAGE, PERM_RW);
	simg = rtl_buf_randomize(env, &src);

	ppu_pb_init(&pb, dw, 64);
	ppu_pb_copy(&pb, src.va + 3, far1 + 1, 3 * PAGE - 9, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    far2 + 8, 0x5151, 0);
	ppu_pb_sem_release(&pb, far2 + 12, 0x7ab1e);
	rtl_chan_push_entry(ch, rtl_chan_pb_put(ch, pb.dw, pb.len), pb.len);

	move_tables(ch, root_sys[_i], l0_sys[_i]);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	ck_assert_int_eq(ppu_sim_mem_read(env->sim, 1, dst_pa + 1, got, 3 * PAGE - 9), 0);
	ck_assert_mem_eq(got, simg + 3, 3 * PAGE - 9);
	ck_assert_uint_eq(rtl_mem_rd32(env, 0, sem_pa + 8), 0x5151);
	ck_assert_uint_eq(rtl_mem_rd32(env, 0, sem_pa + 12), 0x7ab1e);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * Everything of a channel in system memory: channel table, instance block,
 * USERD and page tables (the pushbuffer and data are reached through
 * them).
 */
START_TEST(channel_table_instance_userd_and_tables_in_system_memory)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, 2 * PAGE), dst = rtl_buf_alloc(ctx, 1, 2 * PAGE);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 1, 64);
	uint64_t table = rtl_alloc_pa(env, 1, PAGE, PAGE);
	uint64_t inst = rtl_alloc_pa(env, 1, PPU_INST_BYTES, 64);
	uint64_t userd = rtl_alloc_pa(env, 1, PPU_USERD_BYTES, 64);
	uint32_t dw[32], words[16], ent[2];
	uint8_t *simg;
	struct ppu_pb pb;

	rtl_rnd_seed(0x515, RND_SHIFT);
	simg = rtl_buf_randomize(env, &src);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src.va + 1, dst.va + 2, 2 * PAGE - 3, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    sem.va + 4, 0x5150, 0);
	rtl_chan_push_entry(ch, rtl_chan_pb_put(ch, pb.dw, pb.len), pb.len);
	move_tables(ch, 1, 1);

	ck_assert_int_eq(ppu_sim_mem_read(env->sim, 0, ch->inst_pa, words, sizeof(words)), 0);
	words[PPU_INST_USERD_LO / 4] = (uint32_t)userd;
	words[PPU_INST_USERD_HI / 4] = ppu_addr_hi(userd, 1);
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, 1, inst, words, sizeof(words)), 0);
	rtl_mem_wr32(env, 1, userd + PPU_USERD_GP_PUT, 1);
	rtl_mem_wr32(env, 1, userd + PPU_USERD_GP_GET, 0);
	ppu_chan_entry(ent, inst, 1, 1);
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, 1, table + 3 * PPU_CHAN_ENTRY_BYTES, ent, 8), 0);
	/* the local structures rtl_env built are invalid from here on */
	rtl_mem_wr32(env, 0, env->chan_table_pa + 3 * PPU_CHAN_ENTRY_BYTES, 0);
	rtl_userd_wr32(ch, PPU_USERD_GP_PUT, 0xdead);
	rtl_reg_write(env, PPU_REG_CHAN_TABLE_LO, (uint32_t)table);
	rtl_reg_write(env, PPU_REG_CHAN_TABLE_HI, ppu_addr_hi(table, 1));

	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 1);
	rtl_expect_buf(env, &dst, 2, simg + 1, 2 * PAGE - 3);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 0x5150);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

START_TEST(not_present_source_faults_its_channel_only)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_busy other;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	struct rtl_buf src, dst, sem;
	uint8_t *simg, *dimg, *got = rtl_xmalloc(4 * PAGE);
	uint32_t k;

	rtl_rnd_seed(0x404, RND_SHIFT);
	rtl_busy_start(env, &other, 9, BUSY_LEN, BUSY_LEN, 0);
	ctx = rtl_ctx_create(env);
	ch = rtl_chan_create(env, ctx, 0, 4, 0);
	src = rtl_buf_alloc(ctx, 0, 4 * PAGE);
	dst = rtl_buf_alloc(ctx, 1, 4 * PAGE);
	sem = rtl_buf_alloc(ctx, 0, 64);
	simg = rtl_buf_randomize(env, &src);
	dimg = rtl_buf_randomize(env, &dst);
	rtl_set_pte(ctx, src.va + 2 * PAGE, 0);

	submit_copy(ch, src.va, dst.va, 4 * PAGE, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, sem.va, 7);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 1);
	fault_expect(ch, PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_UNIT_COPY_SRC,
		     PPU_FAULT_ACCESS_READ);
	fault_addr_in(ch, src.va + 2 * PAGE, PAGE);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_DATA),
			  PPU_FSET(PPU_LAUNCH_DMA_SEMAPHORE, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE));
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << 0);
	/* no completion semaphore for a faulted copy */
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0);
	/* what was written is a prefix of the copy ending before the bad page */
	rtl_buf_read(env, &dst, 0, got, 4 * PAGE);
	for (k = 0; k < 2 * PAGE && got[k] == simg[k]; k++)
		;
	ck_assert_mem_eq(got + k, dimg + k, 4 * PAGE - k);

	rtl_busy_finish(env, &other, WAIT_CYCLES / 2);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << 0);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	free(dimg);
	free(got);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * Loop index: memory configuration (0 default, 1 long latency, 2 narrow),
 * so the fault finds many reads and writes in flight to drain.
 */
static const struct {
	uint32_t local_latency, sys_latency, local_bpc, sys_bpc;	/* 0: default */
} fault_mem[] = {
	{ 0, 0, 0, 0 },
	{ 60, 250, 0, 0 },
	{ 0, 0, 1, 3 },
};

START_TEST(destination_fault_mid_copy_leaves_the_engine_clean)
{
	struct rtl_env *env = rtl_env_create_mem(fault_mem[_i].local_latency,
						 fault_mem[_i].sys_latency,
						 fault_mem[_i].local_bpc, fault_mem[_i].sys_bpc);
	struct rtl_ctx *ctx = rtl_ctx_create(env), *c2 = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_chan *ch2 = rtl_chan_create(env, c2, 1, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 1, 4 * PAGE), dst = rtl_buf_alloc(ctx, 0, 4 * PAGE);
	struct rtl_buf s2 = rtl_buf_alloc(c2, 0, 100000), d2 = rtl_buf_alloc(c2, 1, 100000);
	uint8_t *simg, *dimg, *want, *got = rtl_xmalloc(4 * PAGE), *i2;
	uint32_t k;

	rtl_rnd_seed(0xd57, RND_SHIFT);
	simg = rtl_buf_randomize(env, &src);
	dimg = rtl_buf_randomize(env, &dst);
	i2 = rtl_buf_randomize(env, &s2);
	want = rtl_xmalloc(4 * PAGE);
	memcpy(want, dimg, 4 * PAGE);
	memcpy(want + 5, simg + 3, 4 * PAGE - 8);
	rtl_map(ctx, dst.va + 2 * PAGE, dst.pa + 2 * PAGE, 0, PAGE, PPU_PTE_PERM_R);

	ck_assert_int_eq(copy_and_wait(ch, src.va + 3, dst.va + 5, 4 * PAGE - 8), 1);
	fault_expect(ch, PPU_FAULT_KIND_PERMISSION, PPU_FAULT_UNIT_COPY_DST,
		     PPU_FAULT_ACCESS_WRITE);
	fault_addr_in(ch, dst.va + 2 * PAGE, PAGE);
	/* a prefix of the copy, nothing from the read-only page on */
	rtl_buf_read(env, &dst, 0, got, 4 * PAGE);
	for (k = 0; k < 2 * PAGE && got[k] == want[k]; k++)
		;
	ck_assert_mem_eq(got + k, dimg + k, 4 * PAGE - k);

	/* the next copy on the engine sees none of the abandoned data */
	ck_assert_int_eq(copy_and_wait(ch2, s2.va + 7, d2.va + 2, 100000 - 9), 0);
	rtl_expect_buf(env, &d2, 2, i2 + 7, 100000 - 9);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	free(dimg);
	free(want);
	free(got);
	free(i2);
	rtl_chan_destroy(ch);
	rtl_chan_destroy(ch2);
	rtl_ctx_destroy(ctx);
	rtl_ctx_destroy(c2);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

/*
 * Permission and malformed-leaf faults, one per loop index.  Each maps one
 * page wrongly and expects the exact fault record.
 */
enum perm_case {
	PC_RO_DST,		/* copy into a read-only page */
	PC_NO_U_SRC,		/* copy from a page without U */
	PC_HOST_SEM_RO,		/* host semaphore release into a read-only page */
	PC_COPY_SEM_RO,		/* copy completion semaphore into a read-only page */
	PC_REDUCTION_RO,	/* semaphore reduction (RMW) on a read-only page */
	PC_NO_A_SRC,		/* A clear: the PPU does not set it (Svade) */
	PC_NO_D_DST,		/* D clear on a write */
	PC_W_NO_R_SRC,		/* W without R is reserved: not present */
	PC_COUNT
};

START_TEST(permission_faults_report_unit_and_access)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 5, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, PAGE), dst = rtl_buf_alloc(ctx, 0, PAGE);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, PAGE);
	uint32_t kind = PPU_FAULT_KIND_PERMISSION, unit, access, lo, dw[64];
	uint32_t leaf_rw_u = PERM_RW | PPU_PTE_PERM_U;
	uint8_t *simg, *dimg;
	struct ppu_pb pb;
	uint32_t sem_before = 0x0bad0bad;

	rtl_rnd_seed(0x9e + _i, RND_SHIFT);
	simg = rtl_buf_randomize(env, &src);
	dimg = rtl_buf_randomize(env, &dst);
	rtl_buf_wr32(env, &sem, 16, sem_before);
	ppu_pb_init(&pb, dw, 64);
	switch (_i) {
	case PC_RO_DST:
		rtl_map(ctx, dst.va, dst.pa, 0, PAGE, PPU_PTE_PERM_R);
		ppu_pb_copy(&pb, src.va, dst.va + 8, 100, 0, 0, 0, 0);
		unit = PPU_FAULT_UNIT_COPY_DST;
		access = PPU_FAULT_ACCESS_WRITE;
		lo = dst.va;
		break;
	case PC_NO_U_SRC:
		rtl_set_pte(ctx, src.va, ppu_pte_leaf(src.pa, 0, PERM_RW));
		ppu_pb_copy(&pb, src.va + 8, dst.va, 100, 0, 0, 0, 0);
		unit = PPU_FAULT_UNIT_COPY_SRC;
		access = PPU_FAULT_ACCESS_READ;
		lo = src.va;
		break;
	case PC_HOST_SEM_RO:
		rtl_map(ctx, sem.va, sem.pa, 0, PAGE, PPU_PTE_PERM_R);
		ppu_pb_sem_release(&pb, sem.va + 16, 1);
		unit = PPU_FAULT_UNIT_SEM;
		access = PPU_FAULT_ACCESS_WRITE;
		lo = sem.va + 16;
		break;
	case PC_COPY_SEM_RO:
		rtl_map(ctx, sem.va, sem.pa, 0, PAGE, PPU_PTE_PERM_R);
		ppu_pb_copy(&pb, src.va, dst.va, 100, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
			    sem.va + 16, 1, 0);
		unit = PPU_FAULT_UNIT_SEM;
		access = PPU_FAULT_ACCESS_WRITE;
		lo = sem.va + 16;
		break;
	case PC_REDUCTION_RO:
		rtl_map(ctx, sem.va, sem.pa, 0, PAGE, PPU_PTE_PERM_R);
		ppu_pb_sem_inc(&pb, sem.va + 16);
		unit = PPU_FAULT_UNIT_SEM;
		access = PPU_FAULT_ACCESS_RMW;
		lo = sem.va + 16;
		break;
	case PC_NO_A_SRC:
		rtl_set_pte(ctx, src.va, ppu_pte_leaf(src.pa, 0, leaf_rw_u) &
					 ~PPU_PTE_BIT(PPU_PTE_A));
		ppu_pb_copy(&pb, src.va, dst.va, 100, 0, 0, 0, 0);
		unit = PPU_FAULT_UNIT_COPY_SRC;
		access = PPU_FAULT_ACCESS_READ;
		lo = src.va;
		break;
	case PC_NO_D_DST:
		rtl_set_pte(ctx, dst.va, ppu_pte_leaf(dst.pa, 0, leaf_rw_u) &
					 ~PPU_PTE_BIT(PPU_PTE_D));
		ppu_pb_copy(&pb, src.va, dst.va, 100, 0, 0, 0, 0);
		unit = PPU_FAULT_UNIT_COPY_DST;
		access = PPU_FAULT_ACCESS_WRITE;
		lo = dst.va;
		break;
	default:
		rtl_set_pte(ctx, src.va, ppu_pte_leaf(src.pa, 0, PPU_PTE_PERM_W | PPU_PTE_PERM_U));
		ppu_pb_copy(&pb, src.va, dst.va, 100, 0, 0, 0, 0);
		kind = PPU_FAULT_KIND_PTE_NOT_PRESENT;
		unit = PPU_FAULT_UNIT_COPY_SRC;
		access = PPU_FAULT_ACCESS_READ;
		lo = src.va;
		break;
	}
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 1);
	fault_expect(ch, kind, unit, access);
	if (unit == PPU_FAULT_UNIT_SEM)
		ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR), lo);
	else
		fault_addr_in(ch, lo, PAGE);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << 5);
	/* the refused access changed nothing */
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 16), sem_before);
	if (_i == PC_COPY_SEM_RO) {
		/* the copy itself completed before its semaphore faulted */
		memcpy(dimg, simg, 100);
	}
	if (unit != PPU_FAULT_UNIT_COPY_SRC)
		rtl_expect_buf(env, &dst, 0, dimg, PAGE);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	free(dimg);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* Bus errors: a PTE (or a table pointer) naming memory that does not exist. */
enum bus_case {
	BC_SRC_LEAF,		/* source leaf beyond local memory */
	BC_DST_LEAF,		/* destination leaf beyond local memory */
	BC_SYS_SRC_LEAF,	/* source leaf beyond system memory */
	BC_TABLE_PTR,		/* level-1 pointer to a table beyond local memory */
	BC_COUNT
};

START_TEST(pte_beyond_memory_is_a_bus_error)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 1, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, 2 * PAGE), dst = rtl_buf_alloc(ctx, 0, 2 * PAGE);
	const uint32_t far = 0x50000000;
	uint32_t s = src.va, d = dst.va, unit = PPU_FAULT_UNIT_COPY_SRC;
	uint32_t access = PPU_FAULT_ACCESS_READ, lo = src.va + PAGE;

	switch (_i) {
	case BC_SRC_LEAF:
		rtl_map(ctx, src.va + PAGE, PA_OUTSIDE, 0, PAGE, PERM_RW);
		break;
	case BC_DST_LEAF:
		rtl_map(ctx, dst.va + PAGE, PA_OUTSIDE, 0, PAGE, PERM_RW);
		unit = PPU_FAULT_UNIT_COPY_DST;
		access = PPU_FAULT_ACCESS_WRITE;
		lo = dst.va + PAGE;
		break;
	case BC_SYS_SRC_LEAF:
		rtl_map(ctx, src.va + PAGE, PA_OUTSIDE, 1, PAGE, PERM_RW);
		break;
	default:
		rtl_mem_wr32(env, 0, ctx->root_pa + PPU_FGET(PPU_VA_VPN1, far) * 4,
			     ppu_pte_table(PA_OUTSIDE, 0));
		s = far;
		lo = far;
		break;
	}
	ck_assert_int_eq(copy_and_wait(ch, s, d, 2 * PAGE), 1);
	fault_expect(ch, PPU_FAULT_KIND_BUS_ERROR, unit, access);
	fault_addr_in(ch, lo, PAGE);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << 1);
	rtl_expect_no_protocol_errors(env);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

START_TEST(fault_interrupt_w1c_then_unbind_and_rebind_recovers)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 4, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, 3 * PAGE), dst = rtl_buf_alloc(ctx, 1, 3 * PAGE);
	struct rtl_buf dst2 = rtl_buf_alloc(ctx, 0, 3 * PAGE);
	uint8_t *simg, *d2img;
	uint32_t fi, fa, get, db;

	rtl_rnd_seed(0x4ec, RND_SHIFT);
	simg = rtl_buf_randomize(env, &src);
	d2img = rtl_buf_randomize(env, &dst2);
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_FAULT, 1));
	rtl_set_pte(ctx, src.va + PAGE, 0);

	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	ck_assert_int_eq(copy_and_wait(ch, src.va, dst.va, 3 * PAGE), 1);
	fault_expect(ch, PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_UNIT_COPY_SRC,
		     PPU_FAULT_ACCESS_READ);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 1);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), PPU_FSET(PPU_INTR_FAULT, 1));
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << 4);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_FAULTS), 1);
	fi = rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO);
	fa = rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR);
	get = rtl_chan_reg(ch, PPU_CHAN_GP_GET);
	db = rtl_log_count(env, PPU_TRACE_DOORBELL, 4);

	/* a dead channel ignores doorbells */
	submit_copy(ch, src.va + 2 * PAGE, dst2.va, PAGE, 0, 0, 0);
	ppu_sim_clock(env->sim, 20000);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), get);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO), fi);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR), fa);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_DOORBELL, 4), db);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_START, 4), 1);
	rtl_expect_buf(env, &dst2, 0, d2img, 3 * PAGE);

	/* W1C clears the pending bit and the interrupt, not the channel's fault */
	rtl_reg_write(env, PPU_REG_FAULT_PENDING, 1u << 4);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO), fi);

	/* fix the page, unbind, reset USERD, rebind with a doorbell */
	rtl_map(ctx, src.va + PAGE, src.pa + PAGE, 0, PAGE, PERM_RW);
	rtl_chan_unbind_empty(ch, 100);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR), 0);
	ck_assert_int_eq(copy_and_wait(ch, src.va, dst.va, 3 * PAGE), 0);
	rtl_expect_buf(env, &dst, 0, simg, 3 * PAGE);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 1);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	free(d2img);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

Suite *suite_mmu(void)
{
	Suite *s = suite_create("mmu");
	TCase *tc = tcase_create("mmu");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	/* loop index: superpage aperture */
	tcase_add_loop_test(tc, superpage_and_4k_pages_translate_to_their_pas, 0, 2);
	tcase_add_test(tc, misaligned_superpage_is_not_present);
	tcase_add_test(tc, tlb_misses_count_first_touch_only);
	tcase_add_test(tc, invalidate_makes_a_remapped_source_visible);
	tcase_add_test(tc, leaf_sys_bit_selects_system_memory);
	tcase_add_test(tc, same_va_in_two_contexts_translates_per_context);
	tcase_add_test(tc, widened_permission_takes_effect_without_invalidate);
	tcase_add_test(tc, pushbuffers_gpfifo_and_semaphores_live_at_scattered_pas);
	tcase_add_loop_test(tc, page_tables_in_system_memory_are_walked, 0, 3);
	tcase_add_test(tc, channel_table_instance_userd_and_tables_in_system_memory);
	tcase_add_test(tc, not_present_source_faults_its_channel_only);
	tcase_add_loop_test(tc, destination_fault_mid_copy_leaves_the_engine_clean, 0,
			    sizeof(fault_mem) / sizeof(fault_mem[0]));
	tcase_add_loop_test(tc, permission_faults_report_unit_and_access, 0, PC_COUNT);
	tcase_add_loop_test(tc, pte_beyond_memory_is_a_bus_error, 0, BC_COUNT);
	tcase_add_test(tc, fault_interrupt_w1c_then_unbind_and_rebind_recovers);
	suite_add_tcase(s, tc);
	return s;
}
