// SPDX-License-Identifier: MIT
/*
 * The event ring (ppu_evring.sv, include/ppu/ppu_regs.def "Event ring"):
 * faults and non-stall interrupts as records in memory instead of pending
 * bits; a full ring merges and loses nothing; a failed write stops it with
 * the event kept.
 */
#include <check.h>

#include "rtl_check.h"
#include "rtl_suites.h"

#define WAIT_CYCLES 200000

static const uint32_t EV_INTR = PPU_FSET(PPU_INTR_EVENT, 1);
static const uint32_t EV_FAULT = PPU_FSET(PPU_INTR_EVENT_FAULT, 1);

struct ring {
	struct rtl_env *env;
	uint64_t pa;
	unsigned int log2;
};

static void ring_setup(struct ring *r, struct rtl_env *env, uint64_t pa, unsigned int log2)
{
	r->env = env;
	r->pa = pa;
	r->log2 = log2;
	rtl_reg_write(env, PPU_REG_EVENT_RING_LO, (uint32_t)pa);
	rtl_reg_write(env, PPU_REG_EVENT_RING_HI,
		      PPU_FSET(PPU_ADDR_HI_SYS, 1) | PPU_FSET(PPU_ADDR_HI_ADDR, pa >> 32));
	rtl_reg_write(env, PPU_REG_EVENT_RING_SIZE, log2);
}

static void ring_alloc(struct ring *r, struct rtl_env *env, unsigned int log2)
{
	ring_setup(r, env, rtl_alloc_pa(env, 1, (uint64_t)PPU_EVENT_BYTES << log2, 8), log2);
}

/* Record @i (an index counted by PUT): its KIND | CHID << 8 word. */
static uint32_t ring_word0(struct ring *r, uint32_t i)
{
	return rtl_mem_rd32(r->env, 1, r->pa + (uint64_t)(i & ((1u << r->log2) - 1)) * PPU_EVENT_BYTES);
}

static uint32_t ring_word1(struct ring *r, uint32_t i)
{
	return rtl_mem_rd32(r->env, 1,
			    r->pa + (uint64_t)(i & ((1u << r->log2) - 1)) * PPU_EVENT_BYTES + 4);
}

static uint32_t ev_word(uint32_t kind, uint32_t chid)
{
	return PPU_FSET(PPU_EVENT_KIND, kind) | PPU_FSET(PPU_EVENT_CHID, chid);
}

/* Clocks until PUT reaches @put; fails after @max cycles. */
static void wait_put(struct rtl_env *env, uint32_t put, uint64_t max)
{
	uint64_t t;

	for (t = 0; t < max; t += 64) {
		if (rtl_reg_read(env, PPU_REG_EVENT_RING_PUT) == put)
			return;
		ppu_sim_clock(env->sim, 64);
	}
	ck_abort_msg("EVENT_RING_PUT %u, expected %u", rtl_reg_read(env, PPU_REG_EVENT_RING_PUT), put);
}

START_TEST(registers_read_back_and_a_size_write_restarts_the_ring)
{
	struct rtl_env *env = rtl_env_create(NULL);

	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) & PPU_FSET(PPU_CAP_FEATURES_EVENT_RING, 1));
	rtl_reg_write(env, PPU_REG_EVENT_RING_LO, 0x12345677);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_LO), 0x12345670);
	rtl_reg_write(env, PPU_REG_EVENT_RING_HI, 0xffffffff);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_HI),
			  PPU_FSET(PPU_ADDR_HI_SYS, 1) | PPU_FMASK(PPU_ADDR_HI_ADDR));
	rtl_reg_write(env, PPU_REG_EVENT_RING_SIZE, 31);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_SIZE), PPU_EVENT_RING_LOG2_MAX);
	rtl_reg_write(env, PPU_REG_EVENT_RING_GET, 7);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_GET), 7);
	/* GET ahead of PUT reads as not empty: the ring is never "full" of nothing */
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR);
	rtl_reg_write(env, PPU_REG_EVENT_RING_SIZE, 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_GET), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_PUT), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_STATUS), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);
	rtl_reg_write(env, PPU_REG_EVENT_RING_SIZE, 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_SIZE), 0);
	rtl_env_finish(env);
}
END_TEST

START_TEST(nonstalls_and_faults_are_records_not_pending_bits)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_chan *b = rtl_chan_create(env, ctx, 5, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[32], c0, c1;
	struct ppu_pb pb;
	struct ring r;

	ring_alloc(&r, env, 6);
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, EV_INTR);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	c0 = rtl_reg_read(env, PPU_REG_CYCLE_LO);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_sem_release(&pb, sem.va, 1);
	ppu_pb_nonstall(&pb);
	rtl_submit_and_wait(a, &pb, WAIT_CYCLES);
	wait_put(env, 1, WAIT_CYCLES);
	c1 = rtl_reg_read(env, PPU_REG_CYCLE_LO);
	ck_assert_uint_eq(ring_word0(&r, 0), ev_word(PPU_EVENT_KIND_NONSTALL, 3));
	ck_assert_uint_ge(ring_word1(&r, 0), c0);
	ck_assert_uint_le(ring_word1(&r, 0), c1);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR);
	rtl_expect_irq_up(env->sim);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_PERF_LO(PPU_PERF_NONSTALL_INTRS)), 1);
	/* consuming the record drops the interrupt */
	rtl_reg_write(env, PPU_REG_EVENT_RING_GET, 1);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	rtl_chan_fault_by_doorbell_page(b, WAIT_CYCLES);
	wait_put(env, 2, WAIT_CYCLES);
	ck_assert_uint_eq(ring_word0(&r, 1), ev_word(PPU_EVENT_KIND_FAULT, 5));
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, rtl_chan_reg(b, PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_KIND_GP_PUT_RANGE);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR | EV_FAULT);
	rtl_expect_irq_up(env->sim);
	rtl_reg_write(env, PPU_REG_EVENT_RING_GET, 2);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	/* off again: the pending bits are back */
	rtl_reg_write(env, PPU_REG_EVENT_RING_SIZE, 0);
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_NONSTALL, 1));
	rtl_submit_and_wait(a, &pb, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 1u << 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_PUT), 0);

	rtl_chan_destroy(a);
	rtl_chan_destroy(b);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * Software that holds non-stall events off (EVENT masked) still hears of
 * a fault: EVENT_FAULT is up while a fault record lies past GET, and only
 * then, whatever records come before or after it.
 */
START_TEST(a_fault_record_has_an_interrupt_bit_of_its_own_until_get_passes_it)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ctx, 1, 4, 0);
	struct rtl_chan *b = rtl_chan_create(env, ctx, 7, 4, 0);
	uint32_t buf[8];
	struct ppu_pb pb;
	struct ring r;

	ring_alloc(&r, env, 4);
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, EV_FAULT);
	ppu_pb_init(&pb, buf, 8);
	ppu_pb_nonstall(&pb);
	rtl_submit_and_wait(a, &pb, WAIT_CYCLES);
	wait_put(env, 1, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	rtl_chan_fault_by_doorbell_page(b, WAIT_CYCLES);
	wait_put(env, 2, WAIT_CYCLES);
	rtl_submit_and_wait(a, &pb, WAIT_CYCLES);
	wait_put(env, 3, WAIT_CYCLES);
	ck_assert_uint_eq(ring_word0(&r, 1), ev_word(PPU_EVENT_KIND_FAULT, 7));
	ck_assert_uint_eq(ring_word0(&r, 2), ev_word(PPU_EVENT_KIND_NONSTALL, 1));
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR | EV_FAULT);
	rtl_expect_irq_up(env->sim);
	/* the non-stall record before it taken: the fault still waits */
	rtl_reg_write(env, PPU_REG_EVENT_RING_GET, 1);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR | EV_FAULT);
	/* the fault taken, the non-stall record after it not yet */
	rtl_reg_write(env, PPU_REG_EVENT_RING_GET, 2);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	rtl_reg_write(env, PPU_REG_EVENT_RING_GET, 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);

	/* a ring set up anew forgets the fault record */
	rtl_reg_write(env, PPU_REG_EVENT_RING_GET, 1);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR | EV_FAULT);
	rtl_reg_write(env, PPU_REG_EVENT_RING_SIZE, 4);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);

	rtl_chan_destroy(a);
	rtl_chan_destroy(b);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * A ring of two entries that software does not drain while three channels
 * raise eight events: it fills, the rest wait merged per channel and kind,
 * and every channel's last event is in the ring once software drains it.
 */
START_TEST(a_full_ring_merges_waiting_events_and_loses_none)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_chan *b = rtl_chan_create(env, ctx, 4, 4, 0);
	struct rtl_chan *c = rtl_chan_create(env, ctx, 6, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	unsigned int ns3 = 0, ns4 = 0, f6 = 0, other = 0, k, rounds = 0;
	uint32_t buf[64], get = 0, put;
	struct ppu_pb pb;
	struct ring r;

	ring_alloc(&r, env, 1);
	ppu_pb_init(&pb, buf, 64);
	for (k = 0; k < 6; k++) {
		ppu_pb_sem_release(&pb, sem.va, k);
		ppu_pb_nonstall(&pb);
	}
	rtl_submit_and_wait(a, &pb, WAIT_CYCLES);
	ppu_pb_init(&pb, buf, 64);
	ppu_pb_nonstall(&pb);
	rtl_submit_and_wait(b, &pb, WAIT_CYCLES);
	rtl_chan_fault_by_doorbell_page(c, WAIT_CYCLES);
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_PUT), 2);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR);

	for (;;) {
		put = rtl_reg_read(env, PPU_REG_EVENT_RING_PUT);
		ck_assert_uint_le(put - get, 2);
		if (put == get)
			break;
		for (; get != put; get++) {
			uint32_t w = ring_word0(&r, get);

			if (w == ev_word(PPU_EVENT_KIND_NONSTALL, 3))
				ns3++;
			else if (w == ev_word(PPU_EVENT_KIND_NONSTALL, 4))
				ns4++;
			else if (w == ev_word(PPU_EVENT_KIND_FAULT, 6))
				f6++;
			else
				other++;
		}
		rtl_reg_write(env, PPU_REG_EVENT_RING_GET, get);
		ppu_sim_clock(env->sim, 2000);
		ck_assert_uint_lt(++rounds, 10);
	}
	ck_assert_uint_eq(other, 0);
	ck_assert_uint_eq(f6, 1);
	ck_assert_uint_eq(ns4, 1);
	/* six of channel 3, merged while the ring was full: at least one, fewer than six */
	ck_assert_uint_ge(ns3, 1);
	ck_assert_uint_lt(ns3, 6);
	ck_assert_uint_gt(get, 2);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_PERF_LO(PPU_PERF_NONSTALL_INTRS)), 7);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);

	rtl_chan_destroy(a);
	rtl_chan_destroy(b);
	rtl_chan_destroy(c);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/* A record write that fails stops the ring; set up anew, the event is written. */
START_TEST(a_failed_write_stops_the_ring_and_keeps_the_event)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ctx, 2, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[32];
	struct ppu_pb pb;
	struct ring r;

	/* beyond the 64 MiB of system memory: the write is a bus error */
	ring_setup(&r, env, 1ull << 30, 4);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_sem_release(&pb, sem.va, 1);
	ppu_pb_nonstall(&pb);
	rtl_submit_and_wait(a, &pb, WAIT_CYCLES);
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_STATUS),
			  PPU_FSET(PPU_EVENT_RING_STATUS_ERROR, 1));
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_PUT), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), EV_INTR);
	/* stopped: a second event is not written either */
	rtl_submit_and_wait(a, &pb, WAIT_CYCLES);
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_PUT), 0);

	ring_alloc(&r, env, 4);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_STATUS), 0);
	wait_put(env, 1, WAIT_CYCLES);
	ck_assert_uint_eq(ring_word0(&r, 0), ev_word(PPU_EVENT_KIND_NONSTALL, 2));
	ppu_sim_clock(env->sim, 2000);
	/* (both events of the channel waited as one) */
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_PUT), 1);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 0);

	rtl_chan_destroy(a);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/* An unbound channel's waiting events go: a reused id hears nothing of them. */
START_TEST(unbinding_a_channel_drops_its_waiting_events)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch[3];
	uint32_t buf[8];
	struct ppu_pb pb;
	struct ring r;
	unsigned int i;

	ring_alloc(&r, env, 1);
	ppu_pb_init(&pb, buf, 8);
	ppu_pb_nonstall(&pb);
	for (i = 0; i < 3; i++) {
		ch[i] = rtl_chan_create(env, ctx, 3 + i, 4, 0);
		rtl_submit_and_wait(ch[i], &pb, WAIT_CYCLES);
	}
	wait_put(env, 2, WAIT_CYCLES);
	ck_assert_uint_eq(ring_word0(&r, 0), ev_word(PPU_EVENT_KIND_NONSTALL, 3));
	ck_assert_uint_eq(ring_word0(&r, 1), ev_word(PPU_EVENT_KIND_NONSTALL, 4));
	/* channel 5's record waits for room; unbound, it is dropped */
	rtl_chan_unbind(ch[2]);
	rtl_reg_write(env, PPU_REG_EVENT_RING_GET, 2);
	ppu_sim_clock(env->sim, 4000);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_EVENT_RING_PUT), 2);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);

	for (i = 0; i < 3; i++)
		rtl_chan_destroy(ch[i]);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

Suite *suite_evring(void)
{
	Suite *s = suite_create("evring");
	TCase *tc = tcase_create("evring");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, registers_read_back_and_a_size_write_restarts_the_ring);
	tcase_add_test(tc, nonstalls_and_faults_are_records_not_pending_bits);
	tcase_add_test(tc, a_fault_record_has_an_interrupt_bit_of_its_own_until_get_passes_it);
	tcase_add_test(tc, a_full_ring_merges_waiting_events_and_loses_none);
	tcase_add_test(tc, a_failed_write_stops_the_ring_and_keeps_the_event);
	tcase_add_test(tc, unbinding_a_channel_drops_its_waiting_events);
	suite_add_tcase(s, tc);
	return s;
}
