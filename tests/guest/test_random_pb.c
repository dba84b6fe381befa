// SPDX-License-Identifier: MIT
/*
 * Random pushbuffers through ppu.ko, run inside the co-simulation guest.
 * Client R (one open of the render node) feeds two channels random and
 * mutated command streams (tests/common/ppu_randpb.c, the generator of the
 * RTL suite random_pb) through the real ioctls: GEM_CREATE, VM_BIND,
 * CHAN_CREATE, its ring and USERD, DOORBELL.  Meanwhile client V (a second
 * open) copies random data and waits for it with SEM_WAIT.  Every random
 * channel must end faulted (and then its doorbell fails with -EIO) or with
 * all its entries run; V's copy completes byte for byte, its channel
 * unfaulted.  Kernel WARNs and oopses fail the run in the runner.
 *
 * Seeded: PPU_RANDPB_SEED=S replays from round seed S (the seed is
 * printed), PPU_RANDPB_ROUNDS=N runs N rounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "../common/ppu_randpb.h"
#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_work.h"

#define NRAND 2
#define LOG2 3
#define PB_DW 256
#define SCRATCH (64u * 1024)
#define VCOPY (256u * 1024)
#define SETTLE_S 20.0
#define WD_MS 1500	/* a mutated acquire that blocks is stopped by the watchdog */

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : def;
}

/*
 * CHAN_CREATE, waiting while every hardware channel is taken: the channels
 * of the previous round's closed files are given back once the PPU has
 * unbound them, which can take a moment after close().
 */
static void chan_new(int fd, struct ppu_tchan *ch, uint32_t log2)
{
	double end = ppu_now_s() + SETTLE_S;
	int ret;

	while ((ret = ppu_tchan_new_prio(fd, ch, log2, 0, 0)) == -EBUSY && ppu_now_s() < end)
		usleep(5000);
	ck_assert_msg(ret == 0, "CHAN_CREATE %s", strerror(-ret));
}

struct rchan {
	struct ppu_tchan ch;
	struct ppu_tbo pb, buf, sem;
	uint32_t bad[6];
	struct ppu_randpb_space sp;
	uint32_t gp_put;
};

/* Fills @rc's ring with random entries; returns the GP_PUT written to USERD. */
static void rchan_fill(struct ppu_randpb *r, struct rchan *rc, const uint32_t *victim_va)
{
	uint32_t mask = (1u << LOG2) - 1, put = 0, off = 0, n, i;
	uint32_t *ring = (uint32_t *)rc->ch.ring.map;

	rc->bad[0] = victim_va[0];
	rc->bad[1] = victim_va[1];
	rc->bad[2] = 0xf0000000u;	/* nothing is bound there */
	rc->bad[3] = rc->ch.ring.va;
	rc->bad[4] = 0;
	memset(&rc->sp, 0, sizeof(rc->sp));
	rc->sp.buf_va = rc->buf.va;
	rc->sp.buf_size = SCRATCH;
	rc->sp.sem_va = rc->sem.va;
	rc->sp.bad_va = rc->bad;
	rc->sp.nbad = 5;
	rc->sp.subch = PPU_MTHD_SUBCH_ENGINE;

	n = 1 + ppu_randpb_below(r, mask);
	for (i = 0; i < n; i++) {
		uint32_t *dw = (uint32_t *)(rc->pb.map + off), len;
		unsigned int m;

		len = ppu_randpb_stream(r, &rc->sp, 1 + ppu_randpb_below(r, 10), dw, PB_DW, &m);
		ppu_randpb_entry(r, &rc->sp, ring + 2 * put, rc->pb.va + off, len);
		off += PB_DW * 4;
		put = (put + 1) & mask;
	}
	rc->gp_put = ppu_randpb_gp_put(r, put, LOG2);
	__sync_synchronize();
	rc->ch.userd[DRM_PPU_USERD_GP_PUT / 4] = rc->gp_put;
	__sync_synchronize();
}

/* 1 once @rc's channel is faulted or has run every entry; *@faulted says which. */
static int rchan_settled(struct rchan *rc, int *faulted)
{
	struct drm_ppu_chan_status st;

	ck_assert_int_eq(ppu_chan_status(rc->ch.fd, rc->ch.chid, 0, &st), 0);
	*faulted = st.state == DRM_PPU_CHAN_STATE_FAULTED;
	return *faulted || (st.state == DRM_PPU_CHAN_STATE_IDLE && st.gp_get == st.gp_put);
}

static unsigned int round_run(uint64_t seed)
{
	struct ppu_randpb r = { .mutate_pct = 40 };
	int fv = ppu_client_open(), fr = ppu_client_open();
	struct ppu_tchan vch;
	struct ppu_tbo vsrc, vdst, vpb;
	struct ppu_tpool pool;
	struct rchan rc[NRAND];
	struct ppu_pb b;
	uint32_t victim_va[2], soff, doff, len, i;
	unsigned int faults = 0, done = 0;
	uint8_t *want;
	double end;
	int ret;

	ppu_randpb_seed(&r, seed);
	/* V: a copy of random bytes into a buffer of other random bytes */
	chan_new(fv, &vch, 3);
	ppu_tbo_new(fv, &vsrc, VCOPY + 4096);
	ppu_tbo_new(fv, &vdst, VCOPY + 4096);
	ppu_tbo_new(fv, &vpb, 4096);
	ppu_tpool_new(fv, &pool, 4);
	for (i = 0; i < VCOPY + 4096; i++) {
		vsrc.map[i] = (uint8_t)ppu_randpb_u32(&r);
		vdst.map[i] = (uint8_t)ppu_randpb_u32(&r);
	}
	len = VCOPY / 2 + ppu_randpb_below(&r, VCOPY / 2);
	soff = ppu_randpb_below(&r, 4096);
	doff = ppu_randpb_below(&r, 4096);
	want = malloc(VCOPY + 4096);
	ck_assert_ptr_nonnull(want);
	memcpy(want, vdst.map, VCOPY + 4096);
	memcpy(want + doff, vsrc.map + soff, len);
	victim_va[0] = vsrc.va;
	victim_va[1] = vdst.va;

	/* R: random channels, filled before anything runs */
	for (i = 0; i < NRAND; i++) {
		chan_new(fr, &rc[i].ch, LOG2);
		ppu_tbo_new(fr, &rc[i].pb, (1u << LOG2) * PB_DW * 4);
		ppu_tbo_new_flags(fr, &rc[i].buf, SCRATCH,
				  ppu_randpb_chance(&r, 50) ? DRM_PPU_GEM_CREATE_LOCAL : 0);
		ppu_tbo_new(fr, &rc[i].sem, 4096);
		rchan_fill(&r, &rc[i], victim_va);
	}

	ppu_pb_init(&b, (uint32_t *)vpb.map, 1024);
	ppu_pb_copy(&b, vsrc.va + soff, vdst.va + doff, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0,
		    0);
	ppu_pb_sem_release(&b, ppu_tpool_va(&pool, 0), 1);
	ppu_pb_nonstall(&b);
	ppu_tchan_submit(&vch, vpb.va, b.len);
	for (i = 0; i < NRAND; i++) {
		ret = ppu_doorbell(fr, rc[i].ch.chid, 0);
		/* a GP_PUT beyond the ring may already have faulted it */
		ck_assert_msg(ret == 0 || ret == -EIO, "DOORBELL: %s", strerror(-ret));
	}

	ret = ppu_sem_wait(fv, pool.id, 0, 1, DRM_PPU_SEM_WAIT_GEQ, ppu_deadline_ns(SETTLE_S),
			   DRM_PPU_SEM_WAIT_CHAN, vch.chid);
	ck_assert_msg(ret == 0, "seed %llu: the victim's copy: SEM_WAIT %s",
		      (unsigned long long)seed, strerror(-ret));
	ck_assert_msg(!memcmp(vdst.map, want, VCOPY + 4096), "seed %llu: victim data differs",
		      (unsigned long long)seed);

	end = ppu_now_s() + SETTLE_S;
	while (done != (1u << NRAND) - 1) {
		for (i = 0; i < NRAND; i++) {
			int f;

			if (!(done & (1u << i)) && rchan_settled(&rc[i], &f)) {
				done |= 1u << i;
				faults += f;
				if (f)	/* a dead channel's doorbell fails */
					ck_assert_int_eq(ppu_doorbell(fr, rc[i].ch.chid, 0), -EIO);
			}
		}
		ck_assert_msg(ppu_now_s() < end, "seed %llu: random channels settled 0x%x",
			      (unsigned long long)seed, done);
		usleep(2000);
	}

	/* V is still fine: its channel runs another copy */
	{
		struct drm_ppu_chan_status st;

		ck_assert_int_eq(ppu_chan_status(fv, vch.chid, 0, &st), 0);
		ck_assert_uint_ne(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	}
	free(want);
	for (i = 0; i < NRAND; i++)
		ck_assert_int_eq(ppu_chan_destroy(fr, rc[i].ch.chid, 0), 0);
	ck_assert_int_eq(ppu_chan_destroy(fv, vch.chid, 0), 0);
	close(fr);
	close(fv);
	return faults;
}

START_TEST(random_streams_fault_only_their_client)
{
	uint64_t seed = env_u64("PPU_RANDPB_SEED", 1);
	unsigned int n = (unsigned int)env_u64("PPU_RANDPB_ROUNDS", 16), i, faults = 0;

	printf("random_pb: seed %llu, %u rounds (PPU_RANDPB_SEED, PPU_RANDPB_ROUNDS)\n",
	       (unsigned long long)seed, n);
	fflush(stdout);
	for (i = 0; i < n; i++)
		faults += round_run(seed + i);
	printf("random_pb: %u rounds, %u of %u random channels faulted\n", n, faults, n * NRAND);
}
END_TEST

static void rp_setup(void)
{
	ppu_guest_setup();
	ppu_module_params_reset();
	ppu_module_param_set("watchdog_ms", WD_MS);
}

static void rp_teardown(void)
{
	ppu_module_params_reset();
	ppu_guest_teardown();
}

static Suite *random_pb_suite(void)
{
	Suite *s = suite_create("random_pb");
	TCase *tc = tcase_create("random_pb");

	tcase_add_checked_fixture(tc, rp_setup, rp_teardown);
	tcase_add_unchecked_fixture(tc, NULL, ppu_module_params_reset);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, random_streams_fault_only_their_client);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(random_pb_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
