// SPDX-License-Identifier: MIT
/*
 * Faults: bad input from software ends in a fault of that channel with an
 * exact record (FAULT_INFO kind/unit/access, FAULT_ADDR, FAULT_DATA),
 * never in a hang; the dead channel ignores later doorbells until it is
 * unbound, and a busy channel of another context carries on with its data
 * intact.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_suites.h"

#define PAGE 4096u
#define WAIT_CYCLES 2000000
#define VICTIM 2u
#define OTHER 7u
#define LOG2_ENTRIES 4u
/* the byte of each random draw this suite's data has always used */
#define RND_SHIFT 9

static uint32_t finfo(uint32_t kind, uint32_t unit, uint32_t access)
{
	return PPU_FSET(PPU_FAULT_INFO_KIND, kind) | PPU_FSET(PPU_FAULT_INFO_UNIT, unit) |
	       PPU_FSET(PPU_FAULT_INFO_ACCESS, access);
}

/* Writes a raw GPFIFO entry at GP_PUT and advances GP_PUT in USERD. */
static void push_raw_entry(struct rtl_chan *ch, const uint32_t e[2])
{
	rtl_buf_write(ch->env, &ch->gpfifo, ch->put * 8, e, 8);
	ch->put = (ch->put + 1) & ((1u << ch->log2_entries) - 1);
	rtl_userd_wr32(ch, PPU_USERD_GP_PUT, ch->put);
}

/* ------------------------------------------------------------------------ */

/* The busy channel of another context: buffer size; it copies BUSY_LEN - 8 bytes of each. */
#define BUSY_LEN (40u * 1024 + 3)

/*
 * Fixture: an env, a busy channel (OTHER, its own context) already copying,
 * and the victim channel VICTIM of another context, created but not rung.
 */
struct fx {
	struct rtl_env *env;
	struct rtl_busy other;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	struct rtl_buf sem;	/* the victim's semaphores, zero */
	struct rtl_buf src, dst;	/* for the doorbell-after-fault check */
	uint8_t *dimg;
};

static void fx_begin(struct fx *f, uint32_t engine)
{
	memset(f, 0, sizeof(*f));
	rtl_rnd_seed(0xfa017, RND_SHIFT);
	f->env = rtl_env_create(NULL);
	rtl_reg_write(f->env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_FAULT, 1));
	rtl_busy_start(f->env, &f->other, OTHER, BUSY_LEN, BUSY_LEN - 8, 7);
	f->ctx = rtl_ctx_create(f->env);
	f->ch = rtl_chan_create_ex(f->env, f->ctx, VICTIM, LOG2_ENTRIES, 0, engine);
	f->sem = rtl_buf_alloc(f->ctx, 0, PAGE);
	f->src = rtl_buf_alloc(f->ctx, 0, PAGE);
	f->dst = rtl_buf_alloc(f->ctx, 1, PAGE);
	free(rtl_buf_randomize(f->env, &f->src));
	f->dimg = rtl_buf_randomize(f->env, &f->dst);
}

/*
 * The victim faults with exactly this record, and only the victim.  (It is
 * waited for by state: a doorbell that leaves GP_PUT unchanged cannot be
 * waited for with rtl_chan_wait, the channel looks idle before the doorbell
 * is seen.)
 */
static void fx_expect(struct fx *f, uint32_t kind, uint32_t unit, uint32_t access)
{
	uint32_t fi;

	rtl_expect_state(f->ch, PPU_CHAN_STATUS_STATE_FAULTED, 64, WAIT_CYCLES);
	fi = rtl_chan_reg(f->ch, PPU_CHAN_FAULT_INFO);
	ck_assert_uint_eq(rtl_chan_state(f->ch), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_msg(fi == finfo(kind, unit, access),
		      "FAULT_INFO 0x%08x: kind %u unit %u access %u, want kind %u unit %u access %u",
		      fi, PPU_FGET(PPU_FAULT_INFO_KIND, fi), PPU_FGET(PPU_FAULT_INFO_UNIT, fi),
		      PPU_FGET(PPU_FAULT_INFO_ACCESS, fi), kind, unit, access);
	ck_assert_uint_eq(rtl_reg_read(f->env, PPU_REG_FAULT_PENDING), 1u << VICTIM);
	ck_assert_uint_eq(rtl_reg_read(f->env, PPU_REG_INTR_STATUS), PPU_FSET(PPU_INTR_FAULT, 1));
	rtl_expect_irq_up(f->env->sim);
}

static void fx_expect_addr_data(struct fx *f, uint32_t addr, uint32_t data)
{
	ck_assert_uint_eq(rtl_chan_reg(f->ch, PPU_CHAN_FAULT_ADDR), addr);
	ck_assert_uint_eq(rtl_chan_reg(f->ch, PPU_CHAN_FAULT_DATA), data);
}

/*
 * A doorbell for a valid copy changes nothing on the dead channel; the
 * busy channel finishes with intact data; then everything is freed.
 */
static void fx_end(struct fx *f)
{
	struct rtl_env *env = f->env;
	uint32_t info = rtl_chan_reg(f->ch, PPU_CHAN_FAULT_INFO);
	uint32_t addr = rtl_chan_reg(f->ch, PPU_CHAN_FAULT_ADDR);
	uint32_t data = rtl_chan_reg(f->ch, PPU_CHAN_FAULT_DATA);
	uint32_t get = rtl_chan_reg(f->ch, PPU_CHAN_GP_GET);
	size_t db = rtl_log_count(env, PPU_TRACE_DOORBELL, VICTIM);
	size_t mth = rtl_log_count(env, PPU_TRACE_METHOD, VICTIM);
	size_t cps = rtl_log_count(env, PPU_TRACE_COPY_START, VICTIM);
	uint32_t dw[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, f->src.va, f->dst.va, PAGE, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    f->sem.va + 2048, 1, 0);
	rtl_submit_pb(f->ch, &pb);
	rtl_chan_doorbell(f->ch);
	ppu_sim_clock(env->sim, 20000);
	ck_assert_uint_eq(rtl_chan_state(f->ch), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(rtl_chan_reg(f->ch, PPU_CHAN_FAULT_INFO), info);
	ck_assert_uint_eq(rtl_chan_reg(f->ch, PPU_CHAN_FAULT_ADDR), addr);
	ck_assert_uint_eq(rtl_chan_reg(f->ch, PPU_CHAN_FAULT_DATA), data);
	ck_assert_uint_eq(rtl_chan_reg(f->ch, PPU_CHAN_GP_GET), get);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_DOORBELL, VICTIM), db);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_METHOD, VICTIM), mth);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_START, VICTIM), cps);
	rtl_expect_buf(env, &f->dst, 0, f->dimg, f->dst.size);
	ck_assert_uint_eq(rtl_buf_rd32(env, &f->sem, 2048), 0);

	rtl_busy_finish(env, &f->other, WAIT_CYCLES / 2);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << VICTIM);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_FAULTS), 1);
	rtl_expect_no_protocol_errors(env);

	free(f->dimg);
	rtl_chan_destroy(f->ch);
	rtl_ctx_destroy(f->ctx);
	rtl_env_destroy(env);
}

/* ------------------------------------------------------------------------ */

static const uint32_t bad_host_methods[] = { 0x000, 0x004, 0x00c, 0x030, 0x0fc };

START_TEST(unknown_host_method_is_illegal_method)
{
	const uint32_t m = bad_host_methods[_i];
	uint32_t dw[32];
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, f.sem.va, 0x11);
	ppu_pb_method(&pb, m, 0xabcd0123);
	ppu_pb_sem_release(&pb, f.sem.va + 4, 0x22);
	rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_ILLEGAL_METHOD, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, m, 0xabcd0123);
	/* the method before ran, the one after did not */
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0x11);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 4), 0);
	fx_end(&f);
}
END_TEST

static const uint32_t bad_copy_methods[] = { 0x124, 0x128, 0x1fc, 0x200, 0x3ffc };

START_TEST(unknown_copy_method_is_illegal_method)
{
	const uint32_t m = bad_copy_methods[_i];
	uint32_t dw[32];
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_method(&pb, m, 7);
	rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_ILLEGAL_METHOD, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, m, 7);
	fx_end(&f);
}
END_TEST

/* Known methods whose data word is malformed. */
static const struct {
	uint32_t method, data;
} bad_words[] = {
	/* LAUNCH_DMA: semaphore mode 3, a bit above INTERRUPT */
	{ PPU_COPY_LAUNCH_DMA, PPU_FSET(PPU_LAUNCH_DMA_SEMAPHORE, 3) },
	{ PPU_COPY_LAUNCH_DMA, 1u << (PPU_LAUNCH_DMA_INTERRUPT__MSB + 1) },
	/* SEM_EXECUTE: unassigned operations 5 and 7, a 64-bit reduction */
	{ PPU_HOST_SEM_EXECUTE, PPU_FSET(PPU_SEM_EXECUTE_OPERATION, 5) },
	{ PPU_HOST_SEM_EXECUTE, PPU_FSET(PPU_SEM_EXECUTE_OPERATION, 7) },
	{ PPU_HOST_SEM_EXECUTE,
	  PPU_FSET(PPU_SEM_EXECUTE_OPERATION, PPU_SEM_EXECUTE_OPERATION_REDUCTION) |
	  PPU_FSET(PPU_SEM_EXECUTE_PAYLOAD_SIZE, PPU_SEM_EXECUTE_PAYLOAD_SIZE_64BIT) },
};

START_TEST(malformed_launch_or_execute_word_is_illegal_method)
{
	uint32_t dw[32];
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_method(&pb, PPU_HOST_SEM_ADDR_LO, f.sem.va);
	ppu_pb_method(&pb, bad_words[_i].method, bad_words[_i].data);
	rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_ILLEGAL_METHOD, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, bad_words[_i].method, bad_words[_i].data);
	ck_assert_uint_eq(rtl_log_count(f.env, PPU_TRACE_COPY_START, VICTIM), 0);
	fx_end(&f);
}
END_TEST

/* ------------------------------------------------------------------------ */

static uint32_t bad_header(unsigned int variant)
{
	switch (variant) {
	case 0:
	case 1:
	case 2:
	case 3: {
		static const uint32_t ops[4] = { 0, 2, 6, 7 };

		return ppu_mthd(ops[variant], PPU_HOST_NOP, 1);
	}
	case 4:
		return ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_NOP, 1) | PPU_FSET(PPU_MTHD_RSVD, 1);
	case 5:
		return ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_NOP, 1) | PPU_FSET(PPU_MTHD_SUBCH, 1);
	default:
		return ppu_mthd_immd(PPU_HOST_NOP, 0) | PPU_FSET(PPU_MTHD_SUBCH, 7);
	}
}

START_TEST(illegal_header_is_illegal_opcode)
{
	const uint32_t hdr = bad_header(_i);
	uint32_t dw[32], va;
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, f.sem.va, 0x33);
	ppu_pb_push(&pb, hdr);
	ppu_pb_push(&pb, 0);
	ppu_pb_sem_release(&pb, f.sem.va + 4, 0x44);
	va = rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_ILLEGAL_OPCODE, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	/* the release is 6 dwords: the bad header is the 7th */
	fx_expect_addr_data(&f, va + 6 * 4, hdr);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0x33);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 4), 0);
	fx_end(&f);
}
END_TEST

/*
 * Rings the victim with one GPFIFO entry for a pushbuffer releasing @value
 * at its semaphore, the entry's dwords ORed with @or0 and @or1; the entry
 * written is returned in @e.
 */
static void fx_submit_bad_entry(struct fx *f, uint32_t value, uint32_t or0, uint32_t or1,
				uint32_t e[2])
{
	uint32_t dw[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, f->sem.va, value);
	ppu_gp_entry(e, rtl_chan_pb_put(f->ch, pb.dw, pb.len), pb.len, 0);
	e[0] |= or0;
	e[1] |= or1;
	push_raw_entry(f->ch, e);
	rtl_chan_doorbell(f->ch);
}

START_TEST(gpfifo_entry_with_low_address_bits_is_pb_unaligned)
{
	uint32_t e[2];
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	fx_submit_bad_entry(&f, 0x55, PPU_FSET(PPU_GP_ENTRY0_RSVD, _i + 1), 0, e);
	fx_expect(&f, PPU_FAULT_KIND_PB_UNALIGNED, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, e[0], e[1]);
	ck_assert_uint_eq(rtl_chan_reg(f.ch, PPU_CHAN_GP_GET), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0);
	fx_end(&f);
}
END_TEST

START_TEST(gpfifo_entry_with_addr_hi_is_va_range)
{
	uint32_t e[2];
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	fx_submit_bad_entry(&f, 0x66, 0, PPU_FSET(PPU_GP_ENTRY1_ADDR_HI, _i ? 0x80 : 1), e);
	fx_expect(&f, PPU_FAULT_KIND_VA_RANGE, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, e[0], e[1]);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0);
	fx_end(&f);
}
END_TEST

/*
 * Loop index 0: the first header of a 3-dword segment claims 5 data
 * dwords; 1: a later header claims one more dword than is left.  (A count
 * that exactly fills the segment is header_count_exactly_filling_segment.)
 */
START_TEST(header_count_beyond_segment_is_pb_runaway)
{
	uint32_t dw[32], va, hdr, at;
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	ppu_pb_init(&pb, dw, 32);
	if (_i == 0) {
		hdr = ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_ADDR_LO, 5);
		at = 0;
		ppu_pb_push(&pb, hdr);
		ppu_pb_push(&pb, f.sem.va);
		ppu_pb_push(&pb, 0);
	} else {
		hdr = ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_ADDR_LO, 5);
		ppu_pb_sem_release(&pb, f.sem.va, 0x77);
		at = pb.len;
		ppu_pb_push(&pb, hdr);
		ppu_pb_push(&pb, f.sem.va + 4);
		ppu_pb_push(&pb, 0);
		ppu_pb_push(&pb, 0x88);
		ppu_pb_push(&pb, 0);
	}
	va = rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_PB_RUNAWAY, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, va + at * 4, hdr);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), _i ? 0x77 : 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 4), 0);
	fx_end(&f);
}
END_TEST

START_TEST(header_count_exactly_filling_segment_is_fine)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 64);
	uint32_t dw[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, sem.va, 0x99);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x99);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO), 0);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

static const uint32_t hi_methods[] = {
	PPU_HOST_SEM_ADDR_HI, PPU_COPY_SRC_ADDR_HI, PPU_COPY_DST_ADDR_HI, PPU_COPY_SEM_ADDR_HI,
};

START_TEST(nonzero_high_address_method_is_va_range)
{
	uint32_t dw[32];
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_method(&pb, hi_methods[_i], 1);
	ppu_pb_sem_release(&pb, f.sem.va, 0xaa);
	rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_VA_RANGE, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, hi_methods[_i], 1);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0);
	fx_end(&f);
}
END_TEST

/*
 * Loop index 0: GP_PUT beyond the ring when the channel is bound; 1: on a
 * later doorbell of a bound channel; 2: GP_GET beyond the ring at bind;
 * 3: carried by a later doorbell page write of a bound channel (USERD
 * stays in range).
 */
START_TEST(gp_put_beyond_ring_is_gp_put_range)
{
	const uint32_t ring = 1u << LOG2_ENTRIES;
	uint32_t dw[32], bad_put = ring, bad_get = 0, ok_get = 0;
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	if (_i == 1 || _i == 3) {
		ppu_pb_init(&pb, dw, 32);
		ppu_pb_sem_release(&pb, f.sem.va, 0xbb);
		rtl_submit_pb(f.ch, &pb);
		ck_assert_int_eq(rtl_chan_wait(f.ch, WAIT_CYCLES), 0);
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0xbb);
		bad_put = ring + 1;
		ok_get = 1;
	}
	if (_i == 2) {
		bad_get = ring + 3;
		bad_put = 0;
		rtl_userd_wr32(f.ch, PPU_USERD_GP_GET, bad_get);
	}
	if (_i == 3) {
		rtl_chan_doorbell_page(f.ch, bad_put);
	} else {
		rtl_userd_wr32(f.ch, PPU_USERD_GP_PUT, bad_put);
		rtl_chan_doorbell(f.ch);
	}
	fx_expect(&f, PPU_FAULT_KIND_GP_PUT_RANGE, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, bad_put, _i == 2 ? bad_get : ok_get);
	f.ch->put = ok_get;
	fx_end(&f);
}
END_TEST

/*
 * A bad GP_PUT right behind a good one: the first doorbell leaves the
 * channel READY with an entry to run, the second (0..120 cycles later)
 * faults it GP_PUT_RANGE.  The fault takes effect a cycle after it is
 * raised; the scheduler must not pick the channel in that cycle and run it
 * (once it found the ring empty it went IDLE over the fault, which the
 * driver then saw as a dead channel in a live state).  The channel ends
 * FAULTED, whatever ran before the fault.
 */
/*
 * A doorbell page store of a GP_PUT beyond the ring faults a channel whose
 * copy is on the engine; the copy's end must not bring the channel back
 * (it used to set READY, and the channel ran on after its fault).
 */
START_TEST(a_copy_ending_after_its_channels_fault_leaves_it_faulted)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 2, 4, 0);
	struct rtl_chan *other = rtl_chan_create(env, ctx, 5, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, 256 << 10);
	struct rtl_buf dst = rtl_buf_alloc(ctx, 0, 256 << 10);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[64];
	struct ppu_pb pb;
	long at;

	ppu_pb_init(&pb, buf, 64);
	ppu_pb_copy(&pb, src.va, dst.va, 256 << 10, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	ppu_pb_sem_release(&pb, sem.va, 0x77);
	rtl_submit_pb(ch, &pb);
	rtl_expect_state(ch, PPU_CHAN_STATUS_STATE_ENGINE_BUSY, 16, 200000);
	/* another channel's work ends the hold: doorbells are taken meanwhile */
	ppu_pb_init(&pb, buf, 64);
	ppu_pb_sem_release(&pb, sem.va + 8, 1);
	rtl_submit_pb(other, &pb);
	ppu_sim_clock(env->sim, 200);
	rtl_chan_doorbell_page(ch, 1u << ch->log2_entries);
	at = rtl_expect_event(env, PPU_TRACE_FAULT, (int)ch->chid, 16, 200000);
	/* (the fault came while the copy was on the engine) */
	ck_assert_int_lt(at, rtl_expect_event(env, PPU_TRACE_COPY_END, (int)ch->chid, 64, 1000000));
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_KIND_GP_PUT_RANGE);
	/* nothing after the fault: the release after the copy never ran */
	ck_assert_int_lt(rtl_log_find(env, PPU_TRACE_METHOD, (int)ch->chid, (size_t)at), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 8), 1);

	rtl_chan_destroy(other);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(a_bad_gp_put_right_after_a_good_one_faults_the_channel)
{
	const uint32_t ring = 1u << LOG2_ENTRIES;
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, VICTIM, LOG2_ENTRIES, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, PAGE);
	uint32_t dw[16], k;
	struct ppu_pb pb;

	for (k = 0; k <= 120; k += 2) {
		ch->put = 0;
		ch->pb_off = 0;
		rtl_userd_wr32(ch, PPU_USERD_GP_GET, 0);
		ppu_pb_init(&pb, dw, 16);
		ppu_pb_method(&pb, PPU_HOST_NOP, 0);
		rtl_submit_pb(ch, &pb);
		ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

		ppu_pb_init(&pb, dw, 16);
		ppu_pb_sem_release(&pb, sem.va, k + 1);
		rtl_submit_pb(ch, &pb);
		ppu_sim_clock(env->sim, k);
		rtl_userd_wr32(ch, PPU_USERD_GP_PUT, ring + 1);
		rtl_chan_doorbell(ch);
		ppu_sim_clock(env->sim, 5000);
		ck_assert_msg(rtl_chan_state(ch) == PPU_CHAN_STATUS_STATE_FAULTED,
			      "%u cycles apart: state %u, FAULT_INFO %#x", k, rtl_chan_state(ch),
			      rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO));
		ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO),
				  finfo(PPU_FAULT_KIND_GP_PUT_RANGE, PPU_FAULT_UNIT_HOST,
					PPU_FAULT_ACCESS_READ));
		rtl_chan_unbind(ch);
		rtl_expect_state(ch, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000);
	}
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

/* Semaphore operations by the host (SEM_EXECUTE) and the copy engine. */
enum sem_op {
	SO_REL32,	/* 32-bit release */
	SO_REL64,	/* 64-bit release */
	SO_REL_TS,	/* timestamped (16-byte) release */
	SO_ACQ32,	/* 32-bit acquire */
	SO_RED32,	/* 32-bit reduction */
	SO_COPY_REL,	/* copy completion release */
	SO_COPY_TS,	/* copy completion timestamped release */
};

static const struct {
	uint32_t off;	/* from an aligned semaphore */
	enum sem_op op;
} unaligned_sems[] = {
	{ 2, SO_REL32 }, { 1, SO_REL32 }, { 3, SO_REL32 },
	{ 4, SO_REL64 },
	{ 8, SO_REL_TS }, { 4, SO_REL_TS },
	{ 2, SO_ACQ32 },
	{ 1, SO_RED32 },
	{ 2, SO_COPY_REL },
	{ 8, SO_COPY_TS },
};

static uint32_t sem_exec_word(enum sem_op op)
{
	switch (op) {
	case SO_REL32:
		return ppu_sem_release_op(0, 0, 0);
	case SO_REL64:
		return ppu_sem_release_op(1, 0, 0);
	case SO_REL_TS:
		return ppu_sem_release_op(0, 1, 0);
	case SO_ACQ32:
		return ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0);
	case SO_RED32:
		return ppu_sem_reduction_op(PPU_SEM_EXECUTE_REDUCTION_IADD, 1);
	case SO_COPY_REL:
		return PPU_FSET(PPU_LAUNCH_DMA_SEMAPHORE, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE);
	default:
		return PPU_FSET(PPU_LAUNCH_DMA_SEMAPHORE,
				PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP);
	}
}

static uint32_t sem_access(enum sem_op op)
{
	if (op == SO_ACQ32)
		return PPU_FAULT_ACCESS_READ;
	if (op == SO_RED32)
		return PPU_FAULT_ACCESS_RMW;
	return PPU_FAULT_ACCESS_WRITE;
}

START_TEST(unaligned_semaphore_is_sem_unaligned)
{
	const enum sem_op op = unaligned_sems[_i].op;
	const int by_copy = op == SO_COPY_REL || op == SO_COPY_TS;
	const uint32_t exec = sem_exec_word(op);
	uint32_t dw[32], va;
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	va = f.sem.va + 64 + unaligned_sems[_i].off;
	ppu_pb_init(&pb, dw, 32);
	if (by_copy)
		ppu_pb_copy(&pb, f.src.va, f.dst.va, 64, PPU_FGET(PPU_LAUNCH_DMA_SEMAPHORE, exec),
			    va, 1, 0);
	else
		ppu_pb_sem(&pb, va, 0x1234567800000001ull, exec);
	rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_SEM_UNALIGNED, PPU_FAULT_UNIT_SEM, sem_access(op));
	fx_expect_addr_data(&f, va, exec);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 64), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 68), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 72), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 76), 0);
	if (by_copy) {
		/* the copy ran; only its semaphore was refused */
		uint8_t got[64], want[64];

		rtl_buf_read(f.env, &f.src, 0, want, 64);
		rtl_buf_read(f.env, &f.dst, 0, got, 64);
		ck_assert_mem_eq(got, want, 64);
		memcpy(f.dimg, want, 64);
	}
	fx_end(&f);
}
END_TEST

/* ------------------------------------------------------------------------ */

START_TEST(invalid_channel_table_entry_is_inst_invalid)
{
	uint32_t dw[32], ent[2];
	uint64_t ent_pa;
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	ent_pa = f.env->chan_table_pa + VICTIM * PPU_CHAN_ENTRY_BYTES;
	ppu_chan_entry(ent, f.ch->inst_pa, 0, 0);
	rtl_mem_wr32(f.env, 0, ent_pa, ent[0]);
	rtl_mem_wr32(f.env, 0, ent_pa + 4, ent[1]);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, f.sem.va, 0xcc);
	rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_INST_INVALID, PPU_FAULT_UNIT_INST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, (uint32_t)ent_pa, ent[0]);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0);
	ck_assert_uint_eq(rtl_log_count(f.env, PPU_TRACE_BIND, VICTIM), 0);
	fx_end(&f);
}
END_TEST

/*
 * Malformed instance blocks: loop index 0..2 = log2 entries 0, 21, 31;
 * 3 = GPFIFO VA not 8-byte aligned; 4 = USERD not 64-byte aligned.
 */
START_TEST(malformed_instance_block_is_inst_invalid)
{
	static const uint32_t log2s[3] = { 0, PPU_GP_LOG2_ENTRIES_MAX + 1, 31 };
	uint32_t dw[32];
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	if (_i < 3)
		rtl_mem_wr32(f.env, 0, f.ch->inst_pa + PPU_INST_GPFIFO_CFG,
			     PPU_FSET(PPU_INST_GPFIFO_CFG_LOG2_ENTRIES, log2s[_i]));
	else if (_i == 3)
		rtl_mem_wr32(f.env, 0, f.ch->inst_pa + PPU_INST_GPFIFO_VA, f.ch->gpfifo.va + 4);
	else
		rtl_mem_wr32(f.env, 0, f.ch->inst_pa + PPU_INST_USERD_LO,
			     (uint32_t)f.ch->userd_pa + 8);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, f.sem.va, 0xdd);
	rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_INST_INVALID, PPU_FAULT_UNIT_INST, PPU_FAULT_ACCESS_READ);
	ck_assert_uint_eq(rtl_chan_reg(f.ch, PPU_CHAN_FAULT_ADDR), (uint32_t)f.ch->inst_pa);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0);
	ck_assert_uint_eq(rtl_log_count(f.env, PPU_TRACE_BIND, VICTIM), 0);
	fx_end(&f);
}
END_TEST

/* Engine types 0 and 3 name no engine.  (A PPU built without compute units
 * faults ENGINE_MISSING for type COMPUTE instead; the test build has them.) */
START_TEST(unknown_engine_type_faults_at_bind)
{
	static const uint32_t types[2] = { 0, 3 };
	uint32_t dw[32];
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, types[_i]);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, f.sem.va, 0xee);
	rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_INST_INVALID, PPU_FAULT_UNIT_INST, PPU_FAULT_ACCESS_READ);
	fx_expect_addr_data(&f, (uint32_t)f.ch->inst_pa, PPU_FSET(PPU_INST_ENGINE_TYPE, types[_i]));
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0);
	fx_end(&f);
}
END_TEST

/*
 * Loop index 0: the whole segment is on an unmapped page; 1: the segment
 * runs from a mapped page into an unmapped one (what lies before the
 * boundary executes); 2: the GPFIFO page itself is unmapped.
 */
START_TEST(pushbuffer_on_unmapped_page_is_pte_not_present)
{
	uint32_t dw[32], e[2], va, fault_va;
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, f.sem.va, 0xf1);
	ppu_pb_sem_release(&pb, f.sem.va + 4, 0xf2);
	if (_i == 0) {
		va = rtl_va_reserve(f.ctx, PAGE);
		ppu_gp_entry(e, va, pb.len, 0);
		push_raw_entry(f.ch, e);
		fault_va = va;
	} else if (_i == 1) {
		/* the first release fills the last 6 dwords of page 0 */
		va = f.ch->pb.va + PAGE - 6 * 4;
		rtl_buf_write(f.env, &f.ch->pb, PAGE - 6 * 4, pb.dw, pb.len * 4);
		rtl_set_pte(f.ctx, f.ch->pb.va + PAGE, 0);
		ppu_gp_entry(e, va, pb.len, 0);
		push_raw_entry(f.ch, e);
		fault_va = f.ch->pb.va + PAGE;
	} else {
		rtl_set_pte(f.ctx, f.ch->gpfifo.va, 0);
		va = rtl_chan_pb_put(f.ch, pb.dw, pb.len);
		ppu_gp_entry(e, va, pb.len, 0);
		push_raw_entry(f.ch, e);
		fault_va = f.ch->gpfifo.va;
	}
	rtl_chan_doorbell(f.ch);
	fx_expect(&f, PPU_FAULT_KIND_PTE_NOT_PRESENT, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	ck_assert_uint_eq(rtl_chan_reg(f.ch, PPU_CHAN_FAULT_ADDR), fault_va);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), _i == 1 ? 0xf1 : 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 4), 0);
	ck_assert_uint_eq(rtl_chan_reg(f.ch, PPU_CHAN_GP_GET), 0);
	fx_end(&f);
}
END_TEST

/* Loop index 0: a pushbuffer page, 1: the GPFIFO page, mapped beyond memory. */
START_TEST(fetch_beyond_memory_is_bus_error)
{
	uint32_t dw[32], va, fault_va;
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, f.sem.va, 0xf3);
	va = rtl_chan_pb_put(f.ch, pb.dw, pb.len);
	if (_i == 0) {
		rtl_map(f.ctx, va & ~(PAGE - 1), 128ull << 20, 0, PAGE,
			PPU_PTE_PERM_R | PPU_PTE_PERM_W);
		fault_va = va;
	} else {
		rtl_map(f.ctx, f.ch->gpfifo.va, 128ull << 20, 0, PAGE,
			PPU_PTE_PERM_R | PPU_PTE_PERM_W);
		fault_va = f.ch->gpfifo.va;
	}
	rtl_chan_push_entry(f.ch, va, pb.len);
	rtl_chan_doorbell(f.ch);
	fx_expect(&f, PPU_FAULT_KIND_BUS_ERROR, PPU_FAULT_UNIT_HOST, PPU_FAULT_ACCESS_READ);
	ck_assert_uint_eq(rtl_chan_reg(f.ch, PPU_CHAN_FAULT_ADDR), fault_va);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0);
	fx_end(&f);
}
END_TEST

/* Loop index 0: the instance block, 1: USERD, beyond local memory. */
START_TEST(instance_or_userd_beyond_memory_is_bus_error)
{
	const uint32_t outside = 128u << 20;
	uint32_t dw[32], ent[2];
	struct ppu_pb pb;
	struct fx f;

	fx_begin(&f, PPU_ENGINE_TYPE_COPY);
	if (_i == 0) {
		ppu_chan_entry(ent, outside, 0, 1);
		rtl_mem_wr32(f.env, 0, f.env->chan_table_pa + VICTIM * PPU_CHAN_ENTRY_BYTES,
			     ent[0]);
		rtl_mem_wr32(f.env, 0, f.env->chan_table_pa + VICTIM * PPU_CHAN_ENTRY_BYTES + 4,
			     ent[1]);
	} else {
		rtl_mem_wr32(f.env, 0, f.ch->inst_pa + PPU_INST_USERD_LO, outside);
	}
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_sem_release(&pb, f.sem.va, 0xf4);
	rtl_submit_pb(f.ch, &pb);
	fx_expect(&f, PPU_FAULT_KIND_BUS_ERROR, PPU_FAULT_UNIT_INST, PPU_FAULT_ACCESS_READ);
	ck_assert_uint_eq(rtl_chan_reg(f.ch, PPU_CHAN_FAULT_ADDR), outside);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.sem, 0), 0);
	fx_end(&f);
}
END_TEST

/* ------------------------------------------------------------------------ */

START_TEST(fault_records_of_two_channels_are_both_kept)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *c3 = rtl_ctx_create(env), *c6 = rtl_ctx_create(env);
	struct rtl_chan *ch3 = rtl_chan_create(env, c3, 3, 4, 0);
	struct rtl_chan *ch6 = rtl_chan_create(env, c6, 6, 4, 0);
	struct rtl_chan *both[2] = { ch3, ch6 };
	struct rtl_buf sem6 = rtl_buf_alloc(c6, 0, PAGE);
	uint32_t dw3[16], dw6[16];
	struct ppu_pb pb3, pb6;

	rtl_reg_write(env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_FAULT, 1));
	ppu_pb_init(&pb3, dw3, 16);
	ppu_pb_method(&pb3, 0x0fc, 0x3333);
	ppu_pb_init(&pb6, dw6, 16);
	ppu_pb_sem_release(&pb6, sem6.va + 2, 0x6666);
	rtl_chan_push_entry(ch3, rtl_chan_pb_put(ch3, pb3.dw, pb3.len), pb3.len);
	rtl_chan_push_entry(ch6, rtl_chan_pb_put(ch6, pb6.dw, pb6.len), pb6.len);
	rtl_chan_doorbell(ch6);
	rtl_chan_doorbell(ch3);
	ck_assert_int_eq(rtl_wait_all(both, 2, WAIT_CYCLES), 1);

	ck_assert_uint_eq(rtl_chan_state(ch3), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(rtl_chan_state(ch6), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(rtl_chan_reg(ch3, PPU_CHAN_FAULT_INFO),
			  finfo(PPU_FAULT_KIND_ILLEGAL_METHOD, PPU_FAULT_UNIT_HOST,
				PPU_FAULT_ACCESS_READ));
	ck_assert_uint_eq(rtl_chan_reg(ch3, PPU_CHAN_FAULT_ADDR), 0x0fc);
	ck_assert_uint_eq(rtl_chan_reg(ch3, PPU_CHAN_FAULT_DATA), 0x3333);
	ck_assert_uint_eq(rtl_chan_reg(ch6, PPU_CHAN_FAULT_INFO),
			  finfo(PPU_FAULT_KIND_SEM_UNALIGNED, PPU_FAULT_UNIT_SEM,
				PPU_FAULT_ACCESS_WRITE));
	ck_assert_uint_eq(rtl_chan_reg(ch6, PPU_CHAN_FAULT_ADDR), sem6.va + 2);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), (1u << 3) | (1u << 6));
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_FAULTS), 2);
	rtl_expect_irq_up(env->sim);

	/* W1C of one bit leaves the other, and both records */
	rtl_reg_write(env, PPU_REG_FAULT_PENDING, 1u << 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << 6);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), PPU_FSET(PPU_INTR_FAULT, 1));
	rtl_expect_irq_up(env->sim);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, rtl_chan_reg(ch3, PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_KIND_ILLEGAL_METHOD);
	rtl_reg_write(env, PPU_REG_FAULT_PENDING, 1u << 6);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, rtl_chan_reg(ch6, PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_KIND_SEM_UNALIGNED);
	/* the other channels' windows are clean */
	ck_assert_uint_eq(rtl_reg_read(env, PPU_CHAN_REG(4, PPU_CHAN_FAULT_INFO)), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_CHAN_REG(4, PPU_CHAN_STATUS)),
			  PPU_CHAN_STATUS_STATE_UNBOUND);

	rtl_chan_destroy(ch3);
	rtl_chan_destroy(ch6);
	rtl_ctx_destroy(c3);
	rtl_ctx_destroy(c6);
	rtl_env_destroy(env);
}
END_TEST

/*
 * Every fault leaves a FAULT trace record (A = FAULT_INFO, B = FAULT_ADDR).
 * Loop index 0: a host fault (illegal method); 1: a copy engine fault
 * (source page not present).
 */
START_TEST(every_fault_is_traced_with_info_and_addr)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 1, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, 2 * PAGE), dst = rtl_buf_alloc(ctx, 0, 2 * PAGE);
	uint32_t dw[32], fi, fa;
	struct ppu_pb pb;
	long at;

	ppu_pb_init(&pb, dw, 32);
	if (_i == 0) {
		ppu_pb_method(&pb, 0x0fc, 1);
	} else {
		rtl_set_pte(ctx, src.va + PAGE, 0);
		ppu_pb_copy(&pb, src.va, dst.va, 2 * PAGE, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	}
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 1);
	fi = rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO);
	fa = rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, fi),
			  _i ? PPU_FAULT_KIND_PTE_NOT_PRESENT : PPU_FAULT_KIND_ILLEGAL_METHOD);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, 1), 1);
	at = rtl_log_find(env, PPU_TRACE_FAULT, 1, 0);
	ck_assert_int_ge(at, 0);
	ck_assert_uint_eq(env->ev[at].a, fi);
	ck_assert_uint_eq(env->ev[at].b, fa);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * After entries 0 and 1 complete and entry 2 faults, GP_GET names the
 * faulting entry both in the status window and in USERD, so a driver can
 * tell which entry failed from the memory it owns.
 */
START_TEST(gp_get_names_the_faulting_entry_in_window_and_userd)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 64);
	uint32_t dw[32];
	struct ppu_pb pb;
	int k;

	for (k = 0; k < 2; k++) {
		ppu_pb_init(&pb, dw, 32);
		ppu_pb_sem_release(&pb, sem.va + 4 * k, 0x100 + k);
		rtl_chan_submit(ch, &pb);
	}
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_method(&pb, 0x0fc, 0);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x100);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 0x101);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 2);
	ck_assert_uint_eq(rtl_userd_rd32(ch, PPU_USERD_GP_GET), 2);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

Suite *suite_faults(void)
{
	Suite *s = suite_create("faults");
	TCase *tc = tcase_create("faults");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_loop_test(tc, unknown_host_method_is_illegal_method, 0,
			    sizeof(bad_host_methods) / sizeof(bad_host_methods[0]));
	tcase_add_loop_test(tc, unknown_copy_method_is_illegal_method, 0,
			    sizeof(bad_copy_methods) / sizeof(bad_copy_methods[0]));
	tcase_add_loop_test(tc, malformed_launch_or_execute_word_is_illegal_method, 0,
			    sizeof(bad_words) / sizeof(bad_words[0]));
	/* ops 0, 2, 6, 7; reserved bit; subchannel 1; immediate on subchannel 7 */
	tcase_add_loop_test(tc, illegal_header_is_illegal_opcode, 0, 7);
	/* low address bits 1, 2, 3 */
	tcase_add_loop_test(tc, gpfifo_entry_with_low_address_bits_is_pb_unaligned, 0, 3);
	tcase_add_loop_test(tc, gpfifo_entry_with_addr_hi_is_va_range, 0, 2);
	tcase_add_loop_test(tc, header_count_beyond_segment_is_pb_runaway, 0, 2);
	tcase_add_test(tc, header_count_exactly_filling_segment_is_fine);
	tcase_add_loop_test(tc, nonzero_high_address_method_is_va_range, 0,
			    sizeof(hi_methods) / sizeof(hi_methods[0]));
	tcase_add_loop_test(tc, gp_put_beyond_ring_is_gp_put_range, 0, 4);
	tcase_add_test(tc, a_bad_gp_put_right_after_a_good_one_faults_the_channel);
	tcase_add_test(tc, a_copy_ending_after_its_channels_fault_leaves_it_faulted);
	tcase_add_loop_test(tc, unaligned_semaphore_is_sem_unaligned, 0,
			    sizeof(unaligned_sems) / sizeof(unaligned_sems[0]));
	tcase_add_test(tc, invalid_channel_table_entry_is_inst_invalid);
	tcase_add_loop_test(tc, malformed_instance_block_is_inst_invalid, 0, 5);
	tcase_add_loop_test(tc, unknown_engine_type_faults_at_bind, 0, 2);
	tcase_add_loop_test(tc, pushbuffer_on_unmapped_page_is_pte_not_present, 0, 3);
	tcase_add_loop_test(tc, fetch_beyond_memory_is_bus_error, 0, 2);
	tcase_add_loop_test(tc, instance_or_userd_beyond_memory_is_bus_error, 0, 2);
	tcase_add_test(tc, fault_records_of_two_channels_are_both_kept);
	tcase_add_loop_test(tc, every_fault_is_traced_with_info_and_addr, 0, 2);
	tcase_add_test(tc, gp_get_names_the_faulting_entry_in_window_and_userd);
	suite_add_tcase(s, tc);
	return s;
}
