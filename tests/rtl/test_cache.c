// SPDX-License-Identifier: MIT
/*
 * The host's channel cache (suite cache): a PPU whose CAP_CHAN_CACHE is
 * below CAP_NUM_CHANNELS keeps the rest of its channels' contexts in their
 * channel-table save areas (CHAN_ENTRY.SAVE).  More channels than slots are
 * stopped in the states a context can be saved in (inside a pushbuffer
 * segment, an acquire pending, a copy waiting for the engine, faulted),
 * evicted, loaded again, and must finish as if nothing had happened.
 *
 * The same tests run on a PPU with a slot per channel (the default
 * model): there nothing may be loaded or written back, and the save areas
 * stay as software left them.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_compute.h"
#include "rtl_suites.h"
#include "../../runtime/device/samples/samples.h"

#define MAX_CH 24
#define COPY_LEN 2048u
#define WAIT_CYCLES 4000000ull

struct cache_t {
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch[MAX_CH];
	struct rtl_buf src[MAX_CH], dst[MAX_CH], sem;
	uint8_t *img[MAX_CH];
	unsigned int n, slots, nchan;
};

static unsigned int cache_slots(struct rtl_env *env)
{
	return rtl_reg_read(env, PPU_REG_CAP_CHAN_CACHE);
}

/* @n channels (fewer if the PPU has fewer), each with 2 x COPY_LEN of data. */
/* The same on memory of this timing (rtl_env_create_mem; 0: the default). */
static void cache_init_mem(struct cache_t *t, unsigned int n, uint32_t timeslice, uint32_t lat,
			   uint32_t bytes_per_cycle)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	t->env = rtl_env_create_mem(lat, lat, bytes_per_cycle, bytes_per_cycle);
	t->ctx = rtl_ctx_create(t->env);
	t->nchan = rtl_reg_read(t->env, PPU_REG_CAP_NUM_CHANNELS);
	t->slots = cache_slots(t->env);
	ck_assert_uint_ge(t->slots, 1);
	ck_assert_uint_le(t->slots, t->nchan);
	t->n = n < t->nchan ? n : t->nchan;
	t->sem = rtl_buf_alloc(t->ctx, 0, 4096);
	for (i = 0; i < t->n; i++) {
		t->ch[i] = rtl_chan_create(t->env, t->ctx, i, 4, timeslice);
		t->src[i] = rtl_buf_alloc(t->ctx, i & 1, 2 * COPY_LEN);
		t->dst[i] = rtl_buf_alloc(t->ctx, 0, 2 * COPY_LEN);
		t->img[i] = rtl_buf_randomize(t->env, &t->src[i]);
	}
}

static void cache_init(struct cache_t *t, unsigned int n, uint32_t timeslice)
{
	cache_init_mem(t, n, timeslice, 0, 0);
}

static void cache_fini(struct cache_t *t)
{
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		rtl_chan_destroy(t->ch[i]);
		free(t->img[i]);
	}
	rtl_ctx_destroy(t->ctx);
	rtl_env_finish(t->env);
}

/* The channel-table save area of @chid, dword @off. */
static uint32_t save_rd(struct rtl_env *env, unsigned int chid, uint32_t off)
{
	return rtl_mem_rd32(env, 0, env->chan_table_pa + (uint64_t)chid * PPU_CHAN_ENTRY_BYTES +
					    PPU_CHAN_ENTRY_SAVE + off);
}

/* Semaphore dwords: GO at 0 (released by the test), channel i's marks at 64 + 8i. */
#define SEM_GO 0u
#define SEM_MARK(i) (64u + 8u * (i))

/*
 * One segment per channel: copy the first half, mark 1; set up the second
 * copy's addresses and length; block on GO; launch it; mark 2.  The
 * channel is switched out inside the segment with an acquire pending and
 * the second copy's method registers set, then waits for the engine.
 */
static void submit_blocking_segment(struct cache_t *t, unsigned int i)
{
	uint32_t buf[128], launch;
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 128);
	ppu_pb_copy(&pb, t->src[i].va, t->dst[i].va, COPY_LEN, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0,
		    0);
	ppu_pb_sem_release(&pb, t->sem.va + SEM_MARK(i), 1);
	ppu_pb_method(&pb, PPU_COPY_SRC_ADDR_LO, t->src[i].va + COPY_LEN);
	ppu_pb_method(&pb, PPU_COPY_DST_ADDR_LO, t->dst[i].va + COPY_LEN);
	ppu_pb_method(&pb, PPU_COPY_LENGTH, COPY_LEN);
	ppu_pb_method(&pb, PPU_COPY_SEM_ADDR_LO, t->sem.va + SEM_MARK(i) + 4);
	ppu_pb_method(&pb, PPU_COPY_SEM_PAYLOAD, 0xc0de0000u | i);
	ppu_pb_sem_acquire(&pb, t->sem.va + SEM_GO, 1);
	launch = PPU_FSET(PPU_LAUNCH_DMA_SEMAPHORE, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE);
	ppu_pb_method(&pb, PPU_COPY_LAUNCH_DMA, launch);
	ppu_pb_sem_release(&pb, t->sem.va + SEM_MARK(i), 2);
	rtl_submit_pb(t->ch[i], &pb);
}

/* MAX_CH channels (fewer if the PPU has fewer), each blocked on GO inside its segment. */
static void cache_init_blocked(struct cache_t *t)
{
	unsigned int i;

	cache_init(t, MAX_CH, 0);
	for (i = 0; i < t->n; i++)
		submit_blocking_segment(t, i);
	for (i = 0; i < t->n; i++)
		ck_assert_int_eq(rtl_chan_wait_state(t->ch[i], PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 500,
						     WAIT_CYCLES), 0);
}

static void expect_done(struct cache_t *t, unsigned int i)
{
	ck_assert_uint_eq(rtl_chan_state(t->ch[i]), PPU_CHAN_STATUS_STATE_IDLE);
	ck_assert_uint_eq(rtl_buf_rd32(t->env, &t->sem, SEM_MARK(i)), 2);
	ck_assert_uint_eq(rtl_buf_rd32(t->env, &t->sem, SEM_MARK(i) + 4), 0xc0de0000u | i);
	rtl_expect_buf(t->env, &t->dst[i], 0, t->img[i], 2 * COPY_LEN);
}

/* Loads (not binds) and write-backs of the trace. */
static void count_loads(struct rtl_env *env, size_t *loads, size_t *binds, size_t *wbs)
{
	size_t k;

	*loads = *binds = *wbs = 0;
	for (k = 0; k < env->nev; k++) {
		const struct ppu_sim_event *e = &env->ev[k];

		if (e->kind != PPU_TRACE_CHAN_LOAD)
			continue;
		ck_assert_uint_lt(e->a & 0xffff, cache_slots(env));
		if (e->a & 0x10000)
			(*binds)++;
		else
			(*loads)++;
		if (e->b != PPU_TRACE_CHID_NONE)
			(*wbs)++;
	}
}

START_TEST(more_channels_than_slots_resume_inside_their_segments)
{
	struct cache_t t;
	size_t loads, binds, wbs;
	unsigned int i;

	/* short slices: channels also leave between methods of a segment */
	cache_init(&t, MAX_CH, 300);
	for (i = 0; i < t.n; i++)
		submit_blocking_segment(&t, i);
	/* every channel copies its first half and blocks on GO */
	for (i = 0; i < t.n; i++) {
		ck_assert_int_eq(rtl_chan_wait_state(t.ch[i], PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 500,
						     WAIT_CYCLES), 0);
		ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, SEM_MARK(i)), 1);
	}
	ppu_sim_clock(t.env->sim, 5000);
	rtl_buf_wr32(t.env, &t.sem, SEM_GO, 1);
	ck_assert_int_eq(rtl_wait_all(t.ch, (int)t.n, WAIT_CYCLES), 0);
	for (i = 0; i < t.n; i++)
		expect_done(&t, i);

	count_loads(t.env, &loads, &binds, &wbs);
	if (t.slots < t.n) {
		/* each channel beyond the slots was bound into a taken slot, and
		 * each of them ran again after GO from its save area */
		ck_assert_uint_eq(binds, t.n);
		ck_assert_uint_ge(wbs, t.n - t.slots);
		ck_assert_uint_ge(loads, t.n - t.slots);
	} else {
		ck_assert_uint_eq(loads + binds + wbs, 0);
	}
	cache_fini(&t);
}
END_TEST

/*
 * The save area of a channel blocked inside a segment holds what the
 * CHAN_SAVE fields say: its acquire pending, the semaphore address and
 * SEM_EXECUTE, the copy's addresses and length.
 */
START_TEST(save_area_of_a_blocked_channel_is_the_documented_layout)
{
	struct cache_t t;
	uint32_t dec, exec;
	unsigned int i, victim = 0;

	cache_init_blocked(&t);
	if (t.slots >= t.n) {
		/* a slot per channel: nothing is ever written there */
		for (i = 0; i < t.n; i++)
			for (uint32_t off = 0; off < PPU_CHAN_SAVE_BYTES; off += 4)
				ck_assert_uint_eq(save_rd(t.env, i, off), 0);
		rtl_buf_wr32(t.env, &t.sem, SEM_GO, 1);
		ck_assert_int_eq(rtl_wait_all(t.ch, (int)t.n, WAIT_CYCLES), 0);
		cache_fini(&t);
		return;
	}
	/* channel 0 bound first and blocked before the last binds: written back */
	for (i = 0; i < t.env->nev; i++)
		if (t.env->ev[i].kind == PPU_TRACE_CHAN_LOAD && t.env->ev[i].b == victim)
			break;
	ck_assert_msg(i < t.env->nev, "channel %u never written back", victim);
	dec = save_rd(t.env, victim, PPU_CHAN_SAVE_DECODE);
	ck_assert_uint_eq(PPU_FGET(PPU_CHAN_SAVE_DECODE_PEND, dec), 1);	/* acquire */
	ck_assert_uint_eq(PPU_FGET(PPU_CHAN_SAVE_DECODE_SEG, dec), 1);
	ck_assert_uint_gt(PPU_FGET(PPU_CHAN_SAVE_DECODE_LEFT, dec), 0);
	ck_assert_uint_eq(save_rd(t.env, victim, PPU_CHAN_SAVE_SEM_ADDR), t.sem.va + SEM_GO);
	exec = save_rd(t.env, victim, PPU_CHAN_SAVE_PEND_EXEC);
	ck_assert_uint_eq(PPU_FGET(PPU_SEM_EXECUTE_OPERATION, exec),
			  PPU_SEM_EXECUTE_OPERATION_ACQUIRE);
	ck_assert_uint_eq(save_rd(t.env, victim, PPU_CHAN_SAVE_COPY_SRC),
			  t.src[victim].va + COPY_LEN);
	ck_assert_uint_eq(save_rd(t.env, victim, PPU_CHAN_SAVE_COPY_DST),
			  t.dst[victim].va + COPY_LEN);
	ck_assert_uint_eq(save_rd(t.env, victim, PPU_CHAN_SAVE_COPY_LENGTH), COPY_LEN);
	ck_assert_uint_eq(save_rd(t.env, victim, PPU_CHAN_SAVE_GPFIFO_VA), t.ch[victim]->gpfifo.va);
	/* and the entry software wrote is untouched */
	ck_assert_uint_eq(rtl_mem_rd32(t.env, 0, t.env->chan_table_pa +
					       (uint64_t)victim * PPU_CHAN_ENTRY_BYTES) &
			  PPU_FMASK(PPU_CHAN_ENTRY_LO_VALID), PPU_FMASK(PPU_CHAN_ENTRY_LO_VALID));
	rtl_buf_wr32(t.env, &t.sem, SEM_GO, 1);
	ck_assert_int_eq(rtl_wait_all(t.ch, (int)t.n, WAIT_CYCLES), 0);
	for (i = 0; i < t.n; i++)
		expect_done(&t, i);
	cache_fini(&t);
}
END_TEST

/*
 * A channel that faults while others push it out of the cache keeps its
 * fault registers; unbound and bound again it runs; nobody else is hurt.
 */
START_TEST(faulted_channel_out_of_the_cache_keeps_its_fault_and_binds_again)
{
	struct cache_t t;
	uint32_t buf[64];
	struct ppu_pb pb;
	unsigned int i, bad;

	cache_init(&t, MAX_CH, 0);
	bad = t.n / 2;
	for (i = 0; i < t.n; i++) {
		if (i != bad) {
			submit_blocking_segment(&t, i);
			continue;
		}
		ppu_pb_init(&pb, buf, 64);
		/* a copy from an address nothing maps */
		ppu_pb_copy(&pb, 0x7ff00000u, t.dst[i].va, 64, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
		rtl_submit_pb(t.ch[i], &pb);
	}
	ck_assert_int_eq(rtl_chan_wait(t.ch[bad], WAIT_CYCLES), 1);
	for (i = 0; i < t.n; i++)
		if (i != bad)
			ck_assert_int_eq(rtl_chan_wait_state(t.ch[i],
							     PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 500,
							     WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_chan_state(t.ch[bad]), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, rtl_chan_reg(t.ch[bad], PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_KIND_PTE_NOT_PRESENT);
	ck_assert_uint_eq(rtl_chan_reg(t.ch[bad], PPU_CHAN_FAULT_ADDR), 0x7ff00000u);

	/* the others run on; the faulted one is unbound and bound again */
	rtl_buf_wr32(t.env, &t.sem, SEM_GO, 1);
	rtl_chan_unbind_empty(t.ch[bad], WAIT_CYCLES);
	submit_blocking_segment(&t, bad);
	for (i = 0; i < t.n; i++)
		ck_assert_int_eq(rtl_chan_wait(t.ch[i], WAIT_CYCLES), 0);
	for (i = 0; i < t.n; i++)
		expect_done(&t, i);
	cache_fini(&t);
}
END_TEST

/* The channel each slot holds, from the trace's loads and binds. */
static void slot_holders(struct rtl_env *env, uint32_t *holder, unsigned int slots)
{
	size_t k;

	for (k = 0; k < slots; k++)
		holder[k] = PPU_TRACE_CHID_NONE;
	for (k = 0; k < env->nev; k++)
		if (env->ev[k].kind == PPU_TRACE_CHAN_LOAD)
			holder[env->ev[k].a & 0xffff] = env->ev[k].chid;
}

/*
 * Unbinding a channel whose context is not on chip touches no slot: the
 * channels blocked inside their segments in every slot keep their pending
 * acquires and positions, and none runs its segment's first methods again
 * (their marks, overwritten by the test while they wait, stay as written).
 */
START_TEST(unbinding_a_channel_out_of_the_cache_leaves_every_slot_alone)
{
	uint32_t holder[MAX_CH];
	bool gone[MAX_CH] = { false };
	unsigned int i, s, unbound = 0;
	struct cache_t t;

	cache_init_blocked(&t);
	for (i = 0; i < t.n; i++)
		rtl_buf_wr32(t.env, &t.sem, SEM_MARK(i), 0x55);
	if (t.slots < t.n) {
		ck_assert_uint_le(t.slots, MAX_CH);
		slot_holders(t.env, holder, t.slots);
		for (i = 0; i < t.n; i++) {
			for (s = 0; s < t.slots && holder[s] != i; s++)
				;
			if (s == t.slots) {
				gone[i] = true;
				unbound++;
			}
		}
		ck_assert_uint_ge(unbound, t.n - t.slots);
	} else {
		/* a slot per channel: every other channel goes */
		for (i = 0; i < t.n; i += 2) {
			gone[i] = true;
			unbound++;
		}
	}
	for (i = 0; i < t.n; i++)
		if (gone[i])
			rtl_chan_unbind(t.ch[i]);
	for (i = 0; i < t.n; i++)
		if (gone[i])
			rtl_expect_state(t.ch[i], PPU_CHAN_STATUS_STATE_UNBOUND, 10, WAIT_CYCLES);
	/* retry ticks come and go: the others stay blocked where they were */
	ppu_sim_clock(t.env->sim, 20000);
	for (i = 0; i < t.n; i++) {
		if (gone[i])
			continue;
		ck_assert_uint_eq(rtl_chan_state(t.ch[i]), PPU_CHAN_STATUS_STATE_ACQ_BLOCKED);
		ck_assert_msg(rtl_buf_rd32(t.env, &t.sem, SEM_MARK(i)) == 0x55,
			      "channel %u ran its segment again", i);
	}
	rtl_buf_wr32(t.env, &t.sem, SEM_GO, 1);
	for (i = 0; i < t.n; i++)
		if (!gone[i])
			ck_assert_int_eq(rtl_chan_wait(t.ch[i], WAIT_CYCLES), 0);
	for (i = 0; i < t.n; i++) {
		if (gone[i])
			continue;
		ck_assert_uint_eq(rtl_chan_state(t.ch[i]), PPU_CHAN_STATUS_STATE_IDLE);
		ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, SEM_MARK(i)), 2);
		ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, SEM_MARK(i) + 4), 0xc0de0000u | i);
		rtl_expect_buf(t.env, &t.dst[i], 0, t.img[i], 2 * COPY_LEN);
	}
	cache_fini(&t);
}
END_TEST

/*
 * A random mix over more channels than slots (seeded: PPU_CACHE_SEED=S
 * replays a run): copy channels and compute channels, short time slices,
 * segments that count themselves with two semaphore increments around
 * acquires of gates the test opens and closes, copies, and kernel
 * launches (each adds one to its channel's counter) followed by WFI;
 * channels unbound in any state, faulted by a segment of their own, and
 * bound again; runlists of every channel at random levels; MMU
 * invalidates; copy and compute engine resets (a channel they tell, with
 * ENGINE_RESET, leaves the count).  Every segment a channel
 * was given in its present binding must have run exactly once (its count,
 * its kernels' count), its copies must hold, and the checkers (a GPFIFO
 * entry fetched again after its methods ran, among others) stay silent.
 */
#define MIX_GATES 4u
#define MIX_SEGS 10u			/* per binding: below the 16-entry ring */
#define MIX_CNT(i, k) (64u + 16u * (i) + 4u * (k))
#define MIX_BINDS 3u
#define MIX_OUT(i, k) (1024u + 64u * (i) + 16u * (k))

struct mix_chan {
	struct rtl_chan *ch;
	struct rtl_klaunch l[MIX_BINDS];	/* one per binding (its own counter) */
	bool comp, gone, unbound;
	unsigned int bind, segs, launches, copies;
};

static uint32_t mix_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

static void mix_segment(struct cache_t *t, struct mix_chan *m, unsigned int i, uint64_t *rs)
{
	uint32_t buf[96], r = mix_rand(rs);
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 96);
	ppu_pb_sem_inc(&pb, t->sem.va + MIX_CNT(i, m->bind));
	if (r & 1)
		ppu_pb_sem_acquire(&pb, t->sem.va + 4u * ((r >> 1) % MIX_GATES), 1);
	if (m->comp) {
		ppu_pb_launch(&pb, m->l[m->bind].tmd.va);
		ppu_pb_method(&pb, PPU_HOST_WFI, 0);
		m->launches++;
	} else if (r & 8) {
		ppu_pb_copy(&pb, t->src[i].va, t->dst[i].va, 2 * COPY_LEN,
			    PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
		m->copies++;
	}
	ppu_pb_sem_inc(&pb, t->sem.va + MIX_CNT(i, m->bind));
	/* rung through DOORBELL or through the channel's doorbell page */
	rtl_queue_pb(m->ch, &pb);
	if (r & 16)
		rtl_chan_doorbell_page(m->ch, m->ch->put);
	else
		rtl_chan_doorbell(m->ch);
	m->segs++;
}

START_TEST(random_mix_over_the_slots_runs_every_segment_once)
{
	static const uint32_t one = 1;
	struct mix_chan m[MAX_CH];
	struct rtl_chan *live[MAX_CH];
	struct reduce_params p;
	struct rtl_kimage k;
	struct rtl_buf ones, outs;
	uint64_t rs, seed;
	unsigned int i, b, n, step, segs, kernels;
	unsigned int unbinds = 0, rebinds = 0, faults = 0, runlists = 0, invs = 0, resets = 0, told = 0;
	size_t loads, binds, wbs;
	const char *e = getenv("PPU_CACHE_SEED");
	struct cache_t t;

	seed = e ? strtoull(e, NULL, 0) : 0x5eed0000u + (uint64_t)_i;
	printf("random_mix: seed %#llx\n", (unsigned long long)seed);
	rs = seed;
	/* the second run on slow memory that stalls the ports (a beat every
	 * 4 cycles, 150-cycle latency): grants held, fetch reads withdrawn */
	if (_i == 1)
		cache_init_mem(&t, MAX_CH, 300, 150, 2);
	else
		cache_init(&t, MAX_CH, 300);
	rtl_kimage_load(t.ctx, "reduce_atomic", &k);
	ones = rtl_buf_alloc(t.ctx, 0, 4096);
	outs = rtl_buf_alloc(t.ctx, 0, 4096);
	rtl_buf_write(t.env, &ones, 0, &one, 4);
	memset(m, 0, sizeof(m));
	for (i = 0; i < t.n; i++) {
		m[i].comp = i % 3 == 1;
		if (m[i].comp) {
			/* a compute channel in place of the copy channel */
			rtl_chan_destroy(t.ch[i]);
			t.ch[i] = rtl_cchan_create(t.env, t.ctx, i, 0, 63, 1);
			for (b = 0; b < MIX_BINDS; b++) {
				p = (struct reduce_params){ .n = 1, .in = ones.va,
							    .out = outs.va + MIX_OUT(i, b) };
				rtl_klaunch_init(&m[i].l[b], rtl_kimage_fn(&k, "reduce_atomic"), 1, 1,
						 &p, sizeof(p));
				rtl_klaunch_prepare(t.ctx, &m[i].l[b], 0);
			}
		}
		m[i].ch = t.ch[i];
	}
	for (i = 0; i < t.n; i++)
		mix_segment(&t, &m[i], i, &rs);

	for (step = 0; step < 300; step++) {
		uint32_t r = mix_rand(&rs);

		ppu_sim_clock(t.env->sim, 100 + mix_rand(&rs) % 2000);
		i = mix_rand(&rs) % t.n;
		switch (r % 11) {
		case 0:
		case 1:
		case 2:
			rtl_buf_wr32(t.env, &t.sem, 4u * (r / 16 % MIX_GATES), 1);
			break;
		case 3:
			rtl_buf_wr32(t.env, &t.sem, 4u * (r / 16 % MIX_GATES), 0);
			break;
		case 4:
		case 5:
			/* work for a few channels, rung one after another */
			for (b = 0; b < 1 + r / 16 % 4; b++, i = (i + 7) % t.n)
				if (!m[i].gone && m[i].segs < MIX_SEGS)
					mix_segment(&t, &m[i], i, &rs);
			break;
		case 6:
			/* unbound in whatever state it is in; its work is dropped */
			if (!m[i].unbound && m[i].bind + 1 < MIX_BINDS && r / 16 % 3 == 0) {
				rtl_chan_unbind(m[i].ch);
				rtl_expect_state(m[i].ch, PPU_CHAN_STATUS_STATE_UNBOUND, 10, WAIT_CYCLES);
				m[i].gone = m[i].unbound = true;
				unbinds++;
			}
			break;
		case 7:
			/* a segment that faults once the channel gets to it: a copy
			 * from nothing mapped, or a kernel whose TMD is not mapped */
			if (!m[i].gone && m[i].segs < MIX_SEGS && r / 16 % 3 == 0) {
				uint32_t buf[16];
				struct ppu_pb pb;

				ppu_pb_init(&pb, buf, 16);
				if (m[i].comp)
					ppu_pb_launch(&pb, 0x7ff00000u);
				else
					ppu_pb_copy(&pb, 0x7ff00000u, t.dst[i].va, 64,
						    PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
				rtl_submit_pb(m[i].ch, &pb);
				m[i].gone = true;
				faults++;
			}
			break;
		case 8:
			/* an MMU invalidate: every engine lets go of its old
			 * translations while the others go on */
			if (r / 16 % 2 == 1) {
				uint64_t t0 = ppu_sim_cycles(t.env->sim);

				rtl_reg_write(t.env, PPU_REG_MMU_CTRL, PPU_FSET(PPU_MMU_CTRL_INVALIDATE, 1));
				while (PPU_FGET(PPU_MMU_STATUS_INV_PENDING,
						rtl_reg_read(t.env, PPU_REG_MMU_STATUS))) {
					ck_assert_msg(ppu_sim_cycles(t.env->sim) - t0 < 500000,
						      "MMU invalidate still pending after %llu cycles",
						      (unsigned long long)(ppu_sim_cycles(t.env->sim) - t0));
					ppu_sim_clock(t.env->sim, 64);
				}
				invs++;
				break;
			}
			/* a runlist of every channel at random levels */
			{
				struct rtl_rl_ent e[MAX_CH];

				for (b = 0; b < t.n; b++)
					e[b] = (struct rtl_rl_ent){ .chid = b, .level = mix_rand(&rs) % 4 };
				rtl_reg_write(t.env, PPU_REG_SCHED_CTRL, PPU_FSET(PPU_SCHED_CTRL_RUNLIST, 1));
				rtl_runlist_submit(t.env, e, t.n);
				runlists++;
			}
			break;
		case 9:
			/* an engine reset: the channel whose copy is on the copy
			 * engine, or each that holds a task, is told (ENGINE_RESET) */
			if (r / 16 % 4 == 0) {
				rtl_engine_reset(t.env, r / 64 % 2 ? PPU_FMASK(PPU_ENGINE_CTRL_COPY_RESET) :
						 PPU_FMASK(PPU_ENGINE_CTRL_COMPUTE_RESET), WAIT_CYCLES);
				resets++;
			}
			break;
		default:
			/* bound again from an empty ring, counting anew; unbound
			 * first even when it is, as ppu.ko does at creation */
			if (m[i].gone && m[i].bind + 1 < MIX_BINDS) {
				rtl_chan_unbind_empty(m[i].ch, WAIT_CYCLES);
				m[i].gone = m[i].unbound = false;
				m[i].bind++;
				m[i].segs = m[i].launches = m[i].copies = 0;
				mix_segment(&t, &m[i], i, &rs);
				rebinds++;
			}
			break;
		}
	}
	for (b = 0; b < MIX_GATES; b++)
		rtl_buf_wr32(t.env, &t.sem, 4u * b, 1);
	for (i = n = 0; i < t.n; i++)
		if (!m[i].gone)
			live[n++] = m[i].ch;
	ck_assert_uint_gt(n, 0);
	ck_assert_int_ge(rtl_wait_all(live, (int)n, WAIT_CYCLES), 0);
	/* a channel an engine reset told is out of the count, nobody else */
	for (i = 0; i < t.n; i++) {
		uint32_t info;

		if (m[i].gone || rtl_chan_state(m[i].ch) != PPU_CHAN_STATUS_STATE_FAULTED)
			continue;
		info = rtl_chan_reg(m[i].ch, PPU_CHAN_FAULT_INFO);
		ck_assert_msg(resets && PPU_FGET(PPU_FAULT_INFO_KIND, info) ==
						PPU_FAULT_KIND_ENGINE_RESET,
			      "channel %u faulted: info %#x", i, info);
		m[i].gone = true;
		told++;
	}
	/* the ones given a faulting segment got to it and stopped there */
	for (i = 0; i < t.n; i++)
		if (m[i].gone && !m[i].unbound)
			ck_assert_int_eq(rtl_chan_wait(m[i].ch, WAIT_CYCLES), 1);
	for (i = 0; i < t.n; i++) {
		if (m[i].gone)
			continue;
		ck_assert_msg(rtl_buf_rd32(t.env, &t.sem, MIX_CNT(i, m[i].bind)) == 2 * m[i].segs,
			      "channel %u (binding %u): count %u for %u segments", i, m[i].bind,
			      rtl_buf_rd32(t.env, &t.sem, MIX_CNT(i, m[i].bind)), m[i].segs);
		if (m[i].comp)
			ck_assert_msg(rtl_buf_rd32(t.env, &outs, MIX_OUT(i, m[i].bind)) ==
					      m[i].launches,
				      "channel %u (binding %u): %u kernels ran for %u launches", i,
				      m[i].bind, rtl_buf_rd32(t.env, &outs, MIX_OUT(i, m[i].bind)),
				      m[i].launches);
		else if (m[i].copies)
			rtl_expect_buf(t.env, &t.dst[i], 0, t.img[i], 2 * COPY_LEN);
	}
	count_loads(t.env, &loads, &binds, &wbs);
	for (i = segs = kernels = 0; i < t.n; i++) {
		segs += m[i].gone ? 0 : m[i].segs;
		kernels += m[i].gone ? 0 : m[i].launches;
	}
	printf("random_mix: %u channels, %u slots: %u segments and %u kernels checked, %u unbinds, "
	       "%u faults, %u runlists, %u invalidates, %u engine resets (%u told), %u bound again, %zu loads, %zu write-backs, %llu cycles\n",
	       t.n, t.slots, segs, kernels, unbinds, faults, runlists, invs, resets, told, rebinds, loads, wbs,
	       (unsigned long long)ppu_sim_cycles(t.env->sim));
	rtl_kimage_free(&k);
	cache_fini(&t);
}
END_TEST

Suite *suite_cache(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("cache");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, more_channels_than_slots_resume_inside_their_segments);
	tcase_add_test(tc, save_area_of_a_blocked_channel_is_the_documented_layout);
	tcase_add_test(tc, faulted_channel_out_of_the_cache_keeps_its_fault_and_binds_again);
	tcase_add_test(tc, unbinding_a_channel_out_of_the_cache_leaves_every_slot_alone);
	tcase_add_loop_test(tc, random_mix_over_the_slots_runs_every_segment_once, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}
