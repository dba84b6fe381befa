// SPDX-License-Identifier: MIT
/*
 * The SEEDS §B worked example (prioritised memory copies by semaphore
 * insertion, US 9483423) through the real driver, ppu.ko, inside the
 * co-simulated guest.
 *
 * One copy engine, two channels C_low and C_high, one semaphore S_high = 0.
 * The application issues Mlow1, Mlow2, Mlow3 into the low stream and, while
 * Mlow1 is being copied, Mhigh1 and Mhigh2 into the high stream:
 *
 *   C_low:  acq(S_high==0), cpy Mlow1, acq(S_high==0), cpy Mlow2, acq(S_high==0), cpy Mlow3
 *   C_high: inc S_high, cpy Mhigh1, dec S_high, inc S_high, cpy Mhigh2, dec S_high
 *
 * The host's scheduler knows nothing of priorities (time-sliced round robin,
 * docs/hw-architecture.md).  The inc runs at once although the engine is busy
 * with Mlow1, so C_low's next acquire fails and the copies complete in the
 * order Mlow1, Mhigh1, Mhigh2, Mlow2, Mlow3, also when C_high's time slice
 * expires during Mhigh1.  Without the semaphores (the prior art) the order
 * is whatever the time slices give.
 *
 * Every copy releases its own completion semaphore with a timestamp (the
 * PPU cycle counter), so the completion order and the timeline come from the
 * hardware, not from the CPU's polling.  A few more timestamped releases
 * (T_go, T_hfirst, T_hinc) instrument the streams; they are printed with the
 * pushbuffers.
 *
 *   seeds_b_guest           the demonstration (make demo): pushbuffers,
 *                           timelines, the latency ratio; exit status 1 when
 *                           an order, a destination or S_high is wrong
 *   seeds_b_guest --check   the same runs as a Check suite (make guest-check)
 *
 * Sizes: the co-simulated PPU runs about 1-1.5 M cycles/s and a copy moves
 * 8 bytes per cycle, so the low copies are 512 KiB (~65 k cycles) and one run
 * takes well under a second of model time.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_work.h"

#define SB_LOW_BYTES (512u << 10)
#define SB_HIGH_BYTES (128u << 10)
/* Check tests of one or two runs, each a few seconds of model time. */
#define SB_TEST_TIMEOUT_S 300
#define SB_MAGIC 0x5eed0000u

enum { MLOW1, MLOW2, MLOW3, MHIGH1, MHIGH2, NCOPIES };

static const char *const copy_name[NCOPIES] = {
	"Mlow1", "Mlow2", "Mlow3", "Mhigh1", "Mhigh2",
};

static const int patent_order[NCOPIES] = { MLOW1, MHIGH1, MHIGH2, MLOW2, MLOW3 };

/* 16-byte semaphore slots in one BO (a timestamped release writes 16 bytes). */
enum {
	SLOT_S_HIGH,			/* the patent's semaphore, 32-bit */
	SLOT_DONE,			/* + copy id: completion of each copy */
	SLOT_GO = SLOT_DONE + NCOPIES,	/* C_low: right before cpy Mlow1 */
	SLOT_HFIRST,			/* C_high: its first method */
	SLOT_HINC,			/* C_high: right after its first inc */
	SLOT_ALONE,			/* completion of Mhigh1 on an idle PPU */
	NSLOTS
};

static const char *const slot_name[NSLOTS] = {
	[SLOT_S_HIGH] = "S_high", [SLOT_GO] = "T_go", [SLOT_HFIRST] = "T_hfirst",
	[SLOT_HINC] = "T_hinc", [SLOT_ALONE] = "T_alone",
};

struct sb_cfg {
	int sems;		/* 1: the patent's insertion; 0: prior art */
	uint32_t low_bytes;	/* each of Mlow1..3 */
	uint32_t high1_bytes;
	uint32_t high2_bytes;
};

/* A GPFIFO entry: a pushbuffer segment. */
struct sb_entry {
	uint32_t va;
	uint32_t off;		/* dword offset in the pushbuffer BO */
	uint32_t len;		/* dwords */
};

struct sb_run {
	struct sb_cfg cfg;
	int fd;
	struct ppu_tbo sem, pb_low, pb_high, src[NCOPIES], dst[NCOPIES];
	struct ppu_tchan lo, hi;
	struct sb_entry low_e[3], high_e[2], alone_e;
	int nlow_e, nhigh_e;

	/* PPU cycles */
	uint64_t t_low_db, t_high_db, t_alone_db;	/* counter read before each doorbell */
	uint64_t t_done[NCOPIES], t_go, t_hfirst, t_hinc, t_alone;
	double go_wait_ms;	/* CPU: C_low's doorbell until T_go was seen */

	int order[NCOPIES];
	int bad_byte[NCOPIES];	/* first wrong byte of each destination, or -1 */
	uint32_t s_high_end;
	uint64_t lat_loaded, lat_alone;
	double ratio;
};

static uint32_t slot_va(const struct sb_run *r, int slot)
{
	return r->sem.va + 16u * (uint32_t)slot;
}

static volatile uint32_t *slot_ptr(const struct sb_run *r, int slot)
{
	return (volatile uint32_t *)(r->sem.map + 16u * (uint32_t)slot);
}

static uint64_t slot_ts(const struct sb_run *r, int slot)
{
	volatile uint32_t *p = slot_ptr(r, slot);

	return (uint64_t)p[PPU_SEM16_TIMESTAMP_LO / 4] |
	       (uint64_t)p[PPU_SEM16_TIMESTAMP_HI / 4] << 32;
}

static uint8_t pattern(int id, uint32_t j)
{
	return (uint8_t)(j * (2u * (uint32_t)id + 3u) + (j >> 9) * 17u + (uint32_t)id * 41u + 1u);
}

static uint32_t copy_bytes(const struct sb_cfg *c, int id)
{
	return id == MHIGH1 ? c->high1_bytes : id == MHIGH2 ? c->high2_bytes : c->low_bytes;
}

static uint64_t cycles_now(void)
{
	return ppu_param(DRM_PPU_PARAM_CYCLE_COUNTER);
}

/* ---- pushbuffers ---- */

static void rel_ts(struct ppu_pb *pb, uint32_t va, uint32_t payload)
{
	ppu_pb_sem(pb, va, payload, ppu_sem_release_op(0, 1, 0));
}

static void cpy(struct ppu_pb *pb, const struct sb_run *r, int id, int done_slot)
{
	ppu_pb_copy(pb, r->src[id].va, r->dst[id].va, copy_bytes(&r->cfg, id),
		    PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP, slot_va(r, done_slot),
		    SB_MAGIC | (uint32_t)done_slot, 0);
}

static struct ppu_pb *entry_begin(struct ppu_tbo *bo, uint32_t *next, struct sb_entry *e,
				  struct ppu_pb *pb)
{
	e->off = *next;
	e->va = bo->va + 4u * e->off;
	ppu_pb_init(pb, (uint32_t *)bo->map + e->off, 256);
	return pb;
}

static void entry_end(uint32_t *next, struct sb_entry *e, struct ppu_pb *pb)
{
	ck_assert(!pb->overflow);
	e->len = pb->len;
	*next = (e->off + pb->len + 15u) & ~15u;
}

/*
 * The streams.  Each application copy is one GPFIFO entry with the commands
 * the driver/runtime inserts around it (SEEDS §B).
 */
static void build_pushbuffers(struct sb_run *r)
{
	uint32_t nlo = 0, nhi = 0;
	struct ppu_pb pb;
	int i;

	for (i = 0; i < 3; i++) {
		entry_begin(&r->pb_low, &nlo, &r->low_e[i], &pb);
		if (r->cfg.sems)
			ppu_pb_sem_acquire(&pb, slot_va(r, SLOT_S_HIGH), 0);
		if (i == 0)
			rel_ts(&pb, slot_va(r, SLOT_GO), SB_MAGIC | SLOT_GO);
		cpy(&pb, r, MLOW1 + i, SLOT_DONE + MLOW1 + i);
		entry_end(&nlo, &r->low_e[i], &pb);
	}
	r->nlow_e = 3;

	for (i = 0; i < 2; i++) {
		entry_begin(&r->pb_high, &nhi, &r->high_e[i], &pb);
		if (i == 0)
			rel_ts(&pb, slot_va(r, SLOT_HFIRST), SB_MAGIC | SLOT_HFIRST);
		if (r->cfg.sems)
			ppu_pb_sem_inc(&pb, slot_va(r, SLOT_S_HIGH));
		if (i == 0 && r->cfg.sems)
			rel_ts(&pb, slot_va(r, SLOT_HINC), SB_MAGIC | SLOT_HINC);
		cpy(&pb, r, MHIGH1 + i, SLOT_DONE + MHIGH1 + i);
		if (r->cfg.sems)
			ppu_pb_sem_dec(&pb, slot_va(r, SLOT_S_HIGH));
		entry_end(&nhi, &r->high_e[i], &pb);
	}
	r->nhigh_e = 2;

	/* Mhigh1 alone, the same commands, for the latency reference. */
	entry_begin(&r->pb_high, &nhi, &r->alone_e, &pb);
	if (r->cfg.sems)
		ppu_pb_sem_inc(&pb, slot_va(r, SLOT_S_HIGH));
	cpy(&pb, r, MHIGH1, SLOT_ALONE);
	if (r->cfg.sems)
		ppu_pb_sem_dec(&pb, slot_va(r, SLOT_S_HIGH));
	entry_end(&nhi, &r->alone_e, &pb);
}

/* Name of a GPU address the pushbuffers use. */
static const char *va_name(const struct sb_run *r, uint32_t va, char *buf, size_t len)
{
	int i;

	for (i = 0; i < NSLOTS; i++)
		if (va == slot_va(r, i) && slot_name[i])
			return slot_name[i];
	for (i = 0; i < NCOPIES; i++)
		if (va == r->src[i].va)
			return copy_name[i];
	snprintf(buf, len, "%#x", va);
	return buf;
}

/*
 * Decodes a pushbuffer segment back into the symbolic form: what is printed
 * is what the PPU reads.
 */
static void describe(const struct sb_run *r, const struct ppu_tbo *bo, const struct sb_entry *e,
		     char *out, size_t outlen)
{
	const uint32_t *dw = (const uint32_t *)bo->map + e->off;
	uint32_t sem_va = 0, payload = 0, src = 0, len = 0, i = 0;
	size_t n = 0;
	char b1[16];

	out[0] = '\0';
	while (i < e->len) {
		uint32_t h = dw[i++];
		uint32_t op = PPU_FGET(PPU_MTHD_OP, h), cnt = PPU_FGET(PPU_MTHD_COUNT, h);
		uint32_t m = PPU_FGET(PPU_MTHD_ADDR, h) << 2, k;

		if (op != PPU_MTHD_OP_INC) {
			n += (size_t)snprintf(out + n, outlen - n, "%s?%#x", n ? ", " : "", h);
			continue;
		}
		for (k = 0; k < cnt && i < e->len; k++, m += 4) {
			uint32_t d = dw[i++];
			const char *sep = n ? ", " : "";

			if (n >= outlen)
				return;
			switch (m) {
			case PPU_HOST_SEM_ADDR_LO:
				sem_va = d;
				break;
			case PPU_HOST_SEM_PAYLOAD_LO:
				payload = d;
				break;
			case PPU_COPY_SRC_ADDR_LO:
				src = d;
				break;
			case PPU_COPY_LENGTH:
				len = d;
				break;
			case PPU_HOST_SEM_EXECUTE:
				switch (PPU_FGET(PPU_SEM_EXECUTE_OPERATION, d)) {
				case PPU_SEM_EXECUTE_OPERATION_ACQUIRE:
					n += (size_t)snprintf(out + n, outlen - n, "%sacq(%s==%u)", sep,
							      va_name(r, sem_va, b1, sizeof(b1)), payload);
					break;
				case PPU_SEM_EXECUTE_OPERATION_RELEASE:
					n += (size_t)snprintf(out + n, outlen - n, "%s[rel %s%s]", sep,
							      va_name(r, sem_va, b1, sizeof(b1)),
							      PPU_FGET(PPU_SEM_EXECUTE_RELEASE_TIMESTAMP, d) ?
							      "+time" : "");
					break;
				case PPU_SEM_EXECUTE_OPERATION_REDUCTION:
					n += (size_t)snprintf(out + n, outlen - n, "%s%s %s", sep,
							      PPU_FGET(PPU_SEM_EXECUTE_REDUCTION, d) ==
							      PPU_SEM_EXECUTE_REDUCTION_INC ? "inc" :
							      PPU_FGET(PPU_SEM_EXECUTE_REDUCTION, d) ==
							      PPU_SEM_EXECUTE_REDUCTION_DEC ? "dec" : "red",
							      va_name(r, sem_va, b1, sizeof(b1)));
					break;
				default:
					n += (size_t)snprintf(out + n, outlen - n, "%ssem?%#x", sep, d);
				}
				break;
			case PPU_COPY_LAUNCH_DMA:
				n += (size_t)snprintf(out + n, outlen - n, "%scpy %s (%u KiB)", sep,
						      va_name(r, src, b1, sizeof(b1)), len >> 10);
				break;
			default:
				break;
			}
		}
	}
}

static void print_pushbuffers(const struct sb_run *r)
{
	char buf[512];
	int i;

	for (i = 0; i < r->nlow_e; i++) {
		describe(r, &r->pb_low, &r->low_e[i], buf, sizeof(buf));
		printf("  %-16s entry %d: %s\n", i ? "" : "C_low  pushbuffer", i + 1, buf);
	}
	for (i = 0; i < r->nhigh_e; i++) {
		describe(r, &r->pb_high, &r->high_e[i], buf, sizeof(buf));
		printf("  %-16s entry %d: %s\n", i ? "" : "C_high pushbuffer", i + 1, buf);
	}
	printf("  (every cpy releases its own completion semaphore with the cycle counter;\n"
	       "   [rel T_*+time] are timestamped markers for the timeline)\n");
}

/* ---- one run of the example ---- */

static void run_setup(struct sb_run *r, const struct sb_cfg *cfg)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->cfg = *cfg;
	/* A file of its own: closing it frees every BO, mapping and channel. */
	r->fd = open(ppu_node, O_RDWR | O_CLOEXEC);
	ck_assert_msg(r->fd >= 0, "open %s: %s", ppu_node, strerror(errno));
	ppu_tbo_new(r->fd, &r->sem, PPU_TPAGE);
	ppu_tbo_new(r->fd, &r->pb_low, PPU_TPAGE);
	ppu_tbo_new(r->fd, &r->pb_high, PPU_TPAGE);
	for (i = 0; i < NCOPIES; i++) {
		uint32_t n = copy_bytes(cfg, i), j;

		ck_assert_uint_eq(n % PPU_TPAGE, 0);
		ppu_tbo_new(r->fd, &r->src[i], n);
		ppu_tbo_new(r->fd, &r->dst[i], n);
		for (j = 0; j < n; j++)
			r->src[i].map[j] = pattern(i, j);
		memset(r->dst[i].map, 0xa5, n);
	}
	ppu_tchan_new(r->fd, &r->lo, 4);
	ppu_tchan_new(r->fd, &r->hi, 4);
	build_pushbuffers(r);
	__sync_synchronize();
}

static void run_teardown(struct sb_run *r)
{
	struct ppu_tbo *bos[] = { &r->sem, &r->pb_low, &r->pb_high };
	size_t i;

	for (i = 0; i < sizeof(bos) / sizeof(bos[0]); i++)
		munmap(bos[i]->map, bos[i]->size);
	for (i = 0; i < NCOPIES; i++) {
		munmap(r->src[i].map, r->src[i].size);
		munmap(r->dst[i].map, r->dst[i].size);
	}
	munmap(r->lo.ring.map, r->lo.ring.size);
	munmap(r->hi.ring.map, r->hi.ring.size);
	munmap((void *)r->lo.userd, DRM_PPU_USERD_SIZE);
	munmap((void *)r->hi.userd, DRM_PPU_USERD_SIZE);
	close(r->fd);
}

/* Wall-time budget for @bytes of copies at a pessimistic 200 k cycles/s. */
static double budget_s(uint64_t bytes)
{
	return 30.0 + (double)bytes / 8.0 / 200000.0;
}

static void wait_done(struct sb_run *r, struct ppu_tchan *ch, int slot, double timeout_s)
{
	ppu_tchan_wait_sem(ch, slot_ptr(r, slot), SB_MAGIC | (uint32_t)slot, timeout_s);
}

static void wait_gp_get(struct ppu_tchan *ch, double timeout_s)
{
	ck_assert_msg(ppu_wait_u32(&ch->userd[DRM_PPU_USERD_GP_GET / 4], ch->put, timeout_s),
		      "channel %u: GP_GET %u, GP_PUT %u", ch->chid,
		      ch->userd[DRM_PPU_USERD_GP_GET / 4], ch->put);
}

static void run_example(struct sb_run *r)
{
	uint64_t total = 3ull * r->cfg.low_bytes + r->cfg.high1_bytes + r->cfg.high2_bytes;
	double t0, timeout = budget_s(total + r->cfg.high1_bytes);
	int i, j;

	/* Mhigh1 alone on the idle PPU: the latency reference. */
	ppu_tchan_push(&r->hi, r->alone_e.va, r->alone_e.len);
	r->t_alone_db = cycles_now();
	ck_assert_int_eq(ppu_doorbell(r->fd, r->hi.chid, 0), 0);
	wait_done(r, &r->hi, SLOT_ALONE, timeout);
	wait_gp_get(&r->hi, timeout);
	r->t_alone = slot_ts(r, SLOT_ALONE);
	memset(r->dst[MHIGH1].map, 0xa5, r->cfg.high1_bytes);
	ck_assert_uint_eq(*slot_ptr(r, SLOT_S_HIGH), 0);
	__sync_synchronize();

	/* The low stream: three copies, one doorbell. */
	for (i = 0; i < r->nlow_e; i++)
		ppu_tchan_push(&r->lo, r->low_e[i].va, r->low_e[i].len);
	r->t_low_db = cycles_now();
	t0 = ppu_now_s();
	ck_assert_int_eq(ppu_doorbell(r->fd, r->lo.chid, 0), 0);

	/*
	 * "While Mlow1 is being copied": C_low releases T_go right before its
	 * cpy Mlow1 (after the acquire), and the CPU polls it through the
	 * mapping every millisecond.  A marker semaphore rather than the copy's
	 * progress because it needs nothing but the pushbuffer; that Mlow1 was
	 * really still on the engine when C_high arrived is checked afterwards
	 * from the timestamps (T_hfirst before Mlow1's completion).
	 */
	ck_assert_msg(ppu_wait_u32(slot_ptr(r, SLOT_GO), SB_MAGIC | SLOT_GO, timeout),
		      "C_low never reached cpy Mlow1");
	r->go_wait_ms = (ppu_now_s() - t0) * 1e3;

	/* The high stream: two copies, one doorbell. */
	for (i = 0; i < r->nhigh_e; i++)
		ppu_tchan_push(&r->hi, r->high_e[i].va, r->high_e[i].len);
	r->t_high_db = cycles_now();
	ck_assert_int_eq(ppu_doorbell(r->fd, r->hi.chid, 0), 0);

	/* Completion: poll the copies' semaphores, then the streams' ends. */
	for (i = 0; i < NCOPIES; i++)
		wait_done(r, i >= MHIGH1 ? &r->hi : &r->lo, SLOT_DONE + i, timeout);
	wait_gp_get(&r->lo, timeout);
	wait_gp_get(&r->hi, timeout);
	__sync_synchronize();

	for (i = 0; i < NCOPIES; i++)
		r->t_done[i] = slot_ts(r, SLOT_DONE + i);
	r->t_go = slot_ts(r, SLOT_GO);
	r->t_hfirst = slot_ts(r, SLOT_HFIRST);
	r->t_hinc = r->cfg.sems ? slot_ts(r, SLOT_HINC) : 0;
	r->s_high_end = *slot_ptr(r, SLOT_S_HIGH);

	/* Completion order from the timestamps (the engine is serial). */
	for (i = 0; i < NCOPIES; i++)
		r->order[i] = i;
	for (i = 1; i < NCOPIES; i++)
		for (j = i; j > 0 && r->t_done[r->order[j]] < r->t_done[r->order[j - 1]]; j--) {
			int t = r->order[j];

			r->order[j] = r->order[j - 1];
			r->order[j - 1] = t;
		}

	for (i = 0; i < NCOPIES; i++) {
		uint32_t n = copy_bytes(&r->cfg, i), k;

		r->bad_byte[i] = -1;
		if (!memcmp(r->src[i].map, r->dst[i].map, n))
			continue;
		for (k = 0; k < n; k++)
			if (r->dst[i].map[k] != pattern(i, k)) {
				r->bad_byte[i] = (int)k;
				break;
			}
		if (r->bad_byte[i] < 0)
			r->bad_byte[i] = 0;	/* the source itself changed */
	}

	r->lat_alone = r->t_alone - r->t_alone_db;
	r->lat_loaded = r->t_done[MHIGH1] - r->t_high_db;
	r->ratio = (double)r->lat_loaded / (double)r->lat_alone;
}

/* ---- checks shared by the tests and the demonstration ---- */

static int order_is(const struct sb_run *r, const int *want)
{
	return !memcmp(r->order, want, sizeof(r->order));
}

static void order_str(const int *order, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	for (i = 0; i < NCOPIES; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", copy_name[order[i]]);
}

static int data_ok(const struct sb_run *r)
{
	int i;

	for (i = 0; i < NCOPIES; i++)
		if (r->bad_byte[i] >= 0)
			return 0;
	return 1;
}

static int position(const struct sb_run *r, int id)
{
	int i;

	for (i = 0; i < NCOPIES; i++)
		if (r->order[i] == id)
			return i;
	return -1;
}

static void assert_data_and_semaphore(const struct sb_run *r)
{
	int i;

	for (i = 0; i < NCOPIES; i++)
		ck_assert_msg(r->bad_byte[i] < 0, "%s: destination byte %d is %#x, want %#x",
			      copy_name[i], r->bad_byte[i],
			      r->dst[i].map[r->bad_byte[i] < 0 ? 0 : r->bad_byte[i]],
			      pattern(i, (uint32_t)(r->bad_byte[i] < 0 ? 0 : r->bad_byte[i])));
	ck_assert_msg(r->s_high_end == 0, "S_high is %u at the end", r->s_high_end);
}

/* C_high was submitted, and ran its first methods, while Mlow1 was on the engine. */
static void assert_high_during_mlow1(const struct sb_run *r)
{
	ck_assert_msg(r->t_go < r->t_hfirst && r->t_hfirst < r->t_done[MLOW1],
		      "C_high did not arrive during Mlow1 (T_go %" PRIu64 ", T_hfirst %" PRIu64
		      ", Mlow1 done %" PRIu64 "): the guest was too slow", r->t_go, r->t_hfirst,
		      r->t_done[MLOW1]);
	if (r->cfg.sems)
		ck_assert_msg(r->t_hinc < r->t_done[MLOW1],
			      "inc S_high at %" PRIu64 " waited for Mlow1 (done %" PRIu64 ")",
			      r->t_hinc, r->t_done[MLOW1]);
}

static void assert_order(const struct sb_run *r, const int *want)
{
	char got[64], exp[64];

	order_str(r->order, got, sizeof(got));
	order_str(want, exp, sizeof(exp));
	ck_assert_msg(order_is(r, want), "completion order %s, want %s", got, exp);
}

/* The default time slice, as the PPU has it (the driver never writes it). */
static uint64_t sched_timeslice(void)
{
	static char buf[8192];

	ppu_debugfs_read("regs", buf, sizeof(buf));
	return ppu_debugfs_value(buf, "SCHED_TIMESLICE");
}

static uint64_t mem_data_bytes(void)
{
	return ppu_param(DRM_PPU_PARAM_MEM_DATA_BYTES);
}

static struct sb_cfg cfg_default(int sems)
{
	struct sb_cfg c = {
		.sems = sems, .low_bytes = SB_LOW_BYTES,
		.high1_bytes = SB_HIGH_BYTES, .high2_bytes = SB_HIGH_BYTES,
	};

	return c;
}

/* Mhigh1 at least 1/8 longer on the engine than the time slice, whole MiB. */
static struct sb_cfg cfg_long_mhigh1(uint64_t slice)
{
	struct sb_cfg c = cfg_default(1);
	uint64_t bytes = (slice + slice / 8) * mem_data_bytes();

	bytes = (bytes + (1u << 20) - 1) & ~(uint64_t)((1u << 20) - 1);
	ck_assert_msg(bytes <= (64u << 20), "SCHED_TIMESLICE %" PRIu64 " needs a %" PRIu64
		      "-byte Mhigh1: too slow for the guest", slice, bytes);
	c.high1_bytes = (uint32_t)bytes;
	return c;
}

/*
 * The prior art's order as the host's policy implies it: C_low stays
 * resident while its time slice lasts (checked when its copy ends), and
 * with the engine at most MEM_DATA_BYTES per cycle three low copies that fit
 * in one slice all run before C_high gets the host.
 */
static void prior_art_expected(uint64_t slice, const struct sb_cfg *c, int *want)
{
	static const int lows_first[NCOPIES] = { MLOW1, MLOW2, MLOW3, MHIGH1, MHIGH2 };
	uint64_t low_cycles = 3ull * c->low_bytes / mem_data_bytes();

	/* Twice the engine's best rate: a margin for translation and latency. */
	ck_assert_msg(2 * low_cycles < slice, "low copies too large for a prediction");
	memcpy(want, lows_first, sizeof(lows_first));
}

/* ---- Check suite ---- */

START_TEST(seeds_b_high_copies_overtake_queued_low_copies)
{
	struct sb_cfg c = cfg_default(1);
	struct sb_run r;

	run_setup(&r, &c);
	run_example(&r);
	assert_high_during_mlow1(&r);
	assert_order(&r, patent_order);
	assert_data_and_semaphore(&r);
	run_teardown(&r);
}
END_TEST

START_TEST(seeds_b_order_holds_when_high_slice_expires_during_mhigh1)
{
	uint64_t slice = sched_timeslice();
	struct sb_cfg c = cfg_long_mhigh1(slice);
	uint64_t engine_min = c.high1_bytes / mem_data_bytes();
	struct sb_run r;

	/* The slice is the PPU's reset value: nobody (driver, test) changes it. */
	ck_assert_uint_eq(slice, 1048576);
	/* Mhigh1 cannot be faster than one beat per cycle: it outlasts the slice. */
	ck_assert_uint_gt(engine_min, slice);
	run_setup(&r, &c);
	run_example(&r);
	assert_high_during_mlow1(&r);
	/* C_high became resident at Mlow1's end at the latest. */
	ck_assert_uint_gt(r.t_done[MHIGH1] - r.t_done[MLOW1], slice);
	assert_order(&r, patent_order);
	assert_data_and_semaphore(&r);
	run_teardown(&r);
}
END_TEST

START_TEST(seeds_b_prior_art_high_copies_wait)
{
	struct sb_cfg c = cfg_default(0);
	int want[NCOPIES];
	struct sb_run r;

	prior_art_expected(sched_timeslice(), &c, want);
	run_setup(&r, &c);
	run_example(&r);
	assert_high_during_mlow1(&r);
	/* Without the semaphores the high copies do not all overtake Mlow2. */
	ck_assert_int_lt(position(&r, MLOW2), position(&r, MHIGH2));
	assert_order(&r, want);
	assert_data_and_semaphore(&r);
	run_teardown(&r);
}
END_TEST

static Suite *seeds_b_suite(void)
{
	Suite *s = suite_create("seeds_b_guest");
	TCase *tc = tcase_create("worked_example");

	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	tcase_set_timeout(tc, SB_TEST_TIMEOUT_S);
	tcase_add_test(tc, seeds_b_high_copies_overtake_queued_low_copies);
	tcase_add_test(tc, seeds_b_order_holds_when_high_slice_expires_during_mhigh1);
	tcase_add_test(tc, seeds_b_prior_art_high_copies_wait);
	suite_add_tcase(s, tc);
	return s;
}

/* ---- the demonstration ---- */

struct tl_event {
	uint64_t t;
	const char *who;
	int done;	/* a copy's completion */
	char what[96];
};

static int tl_cmp(const void *a, const void *b)
{
	const struct tl_event *x = a, *y = b;

	return x->t < y->t ? -1 : x->t > y->t;
}

static void print_timeline(const struct sb_run *r)
{
	struct tl_event ev[16];
	uint64_t prev_done = 0;
	int n = 0, i;

#define EV(time, w, ...) do { \
		ev[n].t = (time); ev[n].who = (w); ev[n].done = 0; \
		snprintf(ev[n].what, sizeof(ev[n].what), __VA_ARGS__); n++; \
	} while (0)
	EV(r->t_low_db, "C_low ", "doorbell: 3 copies queued (CPU read of the cycle counter)");
	EV(r->t_go, "C_low ", "T_go: cpy Mlow1 is next, the CPU polls this");
	EV(r->t_high_db, "C_high", "doorbell: 2 copies queued, %.1f ms of guest time after "
	   "C_low's", r->go_wait_ms);
	EV(r->t_hfirst, "C_high", "T_hfirst: first method runs while the engine copies Mlow1");
	if (r->cfg.sems)
		EV(r->t_hinc, "C_high", "T_hinc: inc S_high done (S_high = 1), engine still busy");
	for (i = 0; i < NCOPIES; i++) {
		EV(r->t_done[i], i >= MHIGH1 ? "C_high" : "C_low ", "%s done (%u KiB)",
		   copy_name[i], copy_bytes(&r->cfg, i) >> 10);
		ev[n - 1].done = 1;
	}
#undef EV
	qsort(ev, (size_t)n, sizeof(ev[0]), tl_cmp);
	printf("  timeline, PPU cycles from C_low's doorbell:\n");
	for (i = 0; i < n; i++) {
		int done = ev[i].done;

		printf("  %10" PRIu64 "  %s  %s", ev[i].t - r->t_low_db, ev[i].who, ev[i].what);
		if (done && prev_done)
			printf("  [+%" PRIu64 "]", ev[i].t - prev_done);
		printf("\n");
		if (done)
			prev_done = ev[i].t;
	}
	printf("  ([+n]: cycles since the previous completion, the engine is serial)\n");
}

static void print_result(const struct sb_run *r, const int *want, const char *want_name)
{
	char buf[64];
	int i;

	order_str(r->order, buf, sizeof(buf));
	printf("  completion order: %s -- %s: %s\n", buf, want_name,
	       order_is(r, want) ? "yes" : "NO");
	printf("  destinations equal their sources byte for byte: %s",
	       data_ok(r) ? "yes" : "NO:");
	for (i = 0; i < NCOPIES; i++)
		if (r->bad_byte[i] >= 0)
			printf(" %s@%d", copy_name[i], r->bad_byte[i]);
	printf("; S_high at the end: %u\n", r->s_high_end);
	printf("  Mhigh1 latency, doorbell to completion: %" PRIu64 " cycles with low copies in "
	       "flight,\n  %" PRIu64 " cycles alone on an idle PPU: ratio %.2fx\n",
	       r->lat_loaded, r->lat_alone, r->ratio);
}

START_TEST(seeds_b_demo)
{
	uint64_t slice = sched_timeslice();
	struct sb_cfg c1 = cfg_default(1), c0 = cfg_default(0), c2 = cfg_long_mhigh1(slice);
	int prior_want[NCOPIES];
	struct sb_run r1, r0, r2;
	int bad = 0, arrived;

	printf("SEEDS B: prioritised memory copies by semaphore insertion (US 9483423)\n"
	       "through ppu.ko on the co-simulated PPU (%s)\n\n", ppu_node);
	printf("One copy engine; channels C_low and C_high on the host's priority-unaware\n"
	       "time-sliced round robin, SCHED_TIMESLICE %" PRIu64 " cycles (the PPU's default).\n"
	       "Mlow1..3: %u KiB each, Mhigh1, Mhigh2: %u KiB each.  C_high is submitted\n"
	       "once the CPU sees T_go, i.e. while Mlow1 is on the engine.\n\n",
	       slice, c1.low_bytes >> 10, c1.high1_bytes >> 10);

	printf("== With the semaphores (the patent) ==\n");
	run_setup(&r1, &c1);
	print_pushbuffers(&r1);
	run_example(&r1);
	print_timeline(&r1);
	print_result(&r1, patent_order, "the patent's order");
	arrived = r1.t_hfirst < r1.t_done[MLOW1];
	bad |= !order_is(&r1, patent_order) || !data_ok(&r1) || r1.s_high_end || !arrived;
	run_teardown(&r1);
	printf("\n");

	printf("== Prior art: the same streams without the semaphores ==\n");
	prior_art_expected(slice, &c0, prior_want);
	run_setup(&r0, &c0);
	print_pushbuffers(&r0);
	run_example(&r0);
	print_timeline(&r0);
	print_result(&r0, prior_want, "as the round robin implies");
	printf("  (the three low copies fit in C_low's time slice, so C_low keeps the host\n"
	       "   and the high copies wait for every queued low copy)\n");
	bad |= !order_is(&r0, prior_want) || !data_ok(&r0) || r0.s_high_end;
	run_teardown(&r0);
	printf("\n");

	printf("== With the semaphores, C_high's time slice expiring during Mhigh1 ==\n");
	run_setup(&r2, &c2);
	run_example(&r2);
	printf("  Mhigh1: %u KiB, at least %" PRIu64 " cycles on the engine > slice %" PRIu64
	       "; measured Mlow1 done to Mhigh1 done: %" PRIu64 " cycles\n",
	       c2.high1_bytes >> 10, c2.high1_bytes / mem_data_bytes(), slice,
	       r2.t_done[MHIGH1] - r2.t_done[MLOW1]);
	print_result(&r2, patent_order, "the patent's order");
	bad |= !order_is(&r2, patent_order) || !data_ok(&r2) || r2.s_high_end;
	run_teardown(&r2);
	printf("\n");

	printf("Summary: Mhigh1 waits %.2fx its own time with the semaphores, %.2fx without\n"
	       "(what remains of Mlow1 is the bound: a copy on the engine is not preempted).\n",
	       r1.ratio, r0.ratio);
	printf("RESULT: %s\n", bad ? "FAIL" : "every order, destination and S_high as expected");
	fflush(stdout);
	ck_assert_msg(!bad, "the demonstration did not give the expected results");
}
END_TEST

static int run_demo(void)
{
	Suite *s = suite_create("seeds_b_demo");
	TCase *tc = tcase_create("demo");
	SRunner *sr;
	int failed, i;
	TestResult **tr;

	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	tcase_set_timeout(tc, 3 * SB_TEST_TIMEOUT_S);
	tcase_add_test(tc, seeds_b_demo);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	tr = srunner_failures(sr);
	for (i = 0; tr && i < failed; i++)
		printf("FAILED: %s:%d: %s\n", tr_lfile(tr[i]), tr_lno(tr[i]), tr_msg(tr[i]));
	free(tr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "--check")) {
		fprintf(stderr, "usage: %s [--check]\n", argv[0]);
		return 2;
	}
	if (argc == 1)
		return run_demo();

	sr = srunner_create(seeds_b_suite());
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
