// SPDX-License-Identifier: MIT
/*
 * Prioritised copies by semaphore insertion (US 9483423, SEEDS section B).
 *
 * The emitted pushbuffers are decoded here with bit positions and method
 * offsets written out by hand from docs/formats.md, never with the encoder
 * macros, and turned into a symbolic op list such as
 *
 *   "acq S@0x1050==0; inc S@0x1020; copy 0x200000->0x300000 len 4096; dec S@0x1020"
 *
 * which is compared against literal lists worked out by hand.  Anything the
 * technique never emits (another method, another SEM_EXECUTE word, a copy
 * with a completion semaphore or interrupt, a nonzero *_HI word, a step cut
 * at the end of a segment) makes the decoder fail, so a wrong sequence
 * cannot slip through as an unknown op.
 */
#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "copy_prio.h"

/* Semaphore VAs of the levels used below; distinct so a mix-up shows. */
#define S_1	0x1010u
#define S_2	0x1020u
#define S_5	0x1050u
#define S_63	0x10f0u

/* ---- decoder ---- */

struct ops {
	char s[32768];
	size_t len;
	unsigned int n;
	char err[200];
};

static void ops_reset(struct ops *o)
{
	o->s[0] = '\0';
	o->len = 0;
	o->n = 0;
	o->err[0] = '\0';
}

static int bad(struct ops *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->err, sizeof(o->err), fmt, ap);
	va_end(ap);
	return -1;
}

static int add_op(struct ops *o, const char *fmt, ...)
{
	size_t room = sizeof(o->s) - o->len;
	va_list ap;
	int k;

	if (o->n) {
		if (room <= 2)
			return bad(o, "op list full");
		memcpy(o->s + o->len, "; ", 3);
		o->len += 2;
		room -= 2;
	}
	va_start(ap, fmt);
	k = vsnprintf(o->s + o->len, room, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= room)
		return bad(o, "op list full");
	o->len += k;
	o->n++;
	return 0;
}

/*
 * Method state of one segment.  Each SEM_EXECUTE and LAUNCH_DMA must find
 * all of its operands written earlier in the same segment: a step that
 * relied on state left by the previous segment would not be whole.
 */
enum {
	W_SEM_ADDR_LO = 1 << 0,
	W_SEM_ADDR_HI = 1 << 1,
	W_SEM_PAY_LO = 1 << 2,
	W_SEM_PAY_HI = 1 << 3,
	W_SRC_LO = 1 << 4,
	W_SRC_HI = 1 << 5,
	W_DST_LO = 1 << 6,
	W_DST_HI = 1 << 7,
	W_LEN = 1 << 8,
	W_CSEM_ADDR_LO = 1 << 9,
	W_CSEM_ADDR_HI = 1 << 10,
	W_CSEM_PAY = 1 << 11,
};
#define W_SEM_ALL (W_SEM_ADDR_LO | W_SEM_ADDR_HI | W_SEM_PAY_LO | W_SEM_PAY_HI)
#define W_COPY_NEED (W_SRC_LO | W_SRC_HI | W_DST_LO | W_DST_HI | W_LEN)
#define W_COPY_ALL (W_COPY_NEED | W_CSEM_ADDR_LO | W_CSEM_ADDR_HI | W_CSEM_PAY)

struct mstate {
	unsigned int written;
	uint32_t sem_va, sem_payload;
	uint32_t src, dst, len;
};

static int sem_execute(struct mstate *m, uint32_t w, struct ops *o)
{
	/* OPERATION 2:0, REDUCTION 30:27, REDUCTION_FORMAT 31; no other bit is ever set */
	uint32_t op = w & 0x7u, red = (w >> 27) & 0xfu, fmt = w >> 31;
	uint32_t rest = w & ~(0x7u | (0xfu << 27) | (1u << 31));

	if ((m->written & W_SEM_ALL) != W_SEM_ALL)
		return bad(o, "SEM_EXECUTE 0x%08x without all of SEM_ADDR/PAYLOAD", w);
	m->written &= ~W_SEM_ALL;
	if (rest)
		return bad(o, "SEM_EXECUTE 0x%08x: stray bits 0x%08x", w, rest);
	if (op == 0 && red == 0 && fmt == 0)	/* ACQUIRE, equal, 32-bit */
		return add_op(o, "acq S@0x%x==%u", m->sem_va, m->sem_payload);
	if (op == 6 && fmt == 1 && (red == 6 || red == 7)) {	/* REDUCTION INC/DEC, unsigned */
		if (m->sem_payload)
			return bad(o, "%s with payload %u", red == 6 ? "inc" : "dec",
				    m->sem_payload);
		return add_op(o, "%s S@0x%x", red == 6 ? "inc" : "dec", m->sem_va);
	}
	return bad(o, "unexpected SEM_EXECUTE 0x%08x", w);
}

static int launch_dma(struct mstate *m, uint32_t w, struct ops *o)
{
	if ((m->written & W_COPY_NEED) != W_COPY_NEED)
		return bad(o, "LAUNCH_DMA without all of SRC/DST/LENGTH");
	m->written &= ~W_COPY_ALL;
	/* SEMAPHORE 1:0 must be NONE, INTERRUPT 2 off, nothing else defined */
	if (w)
		return bad(o, "LAUNCH_DMA 0x%08x: completion semaphore or interrupt", w);
	if (!m->len)
		return bad(o, "copy of length 0");
	return add_op(o, "copy 0x%x->0x%x len %u", m->src, m->dst, m->len);
}

static int method(struct mstate *m, uint32_t mthd, uint32_t d, struct ops *o)
{
	switch (mthd) {
	case 0x010:	/* SEM_ADDR_LO */
		m->sem_va = d;
		m->written |= W_SEM_ADDR_LO;
		return 0;
	case 0x018:	/* SEM_PAYLOAD_LO */
		m->sem_payload = d;
		m->written |= W_SEM_PAY_LO;
		return 0;
	case 0x020:
		return sem_execute(m, d, o);
	case 0x100:	/* SRC_ADDR_LO */
		m->src = d;
		m->written |= W_SRC_LO;
		return 0;
	case 0x108:	/* DST_ADDR_LO */
		m->dst = d;
		m->written |= W_DST_LO;
		return 0;
	case 0x110:	/* LENGTH */
		m->len = d;
		m->written |= W_LEN;
		return 0;
	case 0x114:	/* completion SEM_ADDR_LO: unused while LAUNCH_DMA says NONE */
		m->written |= W_CSEM_ADDR_LO;
		return 0;
	case 0x11c:	/* completion SEM_PAYLOAD: likewise */
		m->written |= W_CSEM_PAY;
		return 0;
	case 0x120:
		return launch_dma(m, d, o);
	case 0x014:	/* the *_HI words must be 0 */
	case 0x01c:
	case 0x104:
	case 0x10c:
	case 0x118:
		if (d)
			return bad(o, "method 0x%03x (a _HI word) = 0x%08x", mthd, d);
		m->written |= mthd == 0x014 ? W_SEM_ADDR_HI : mthd == 0x01c ? W_SEM_PAY_HI :
			      mthd == 0x104 ? W_SRC_HI : mthd == 0x10c ? W_DST_HI :
			      W_CSEM_ADDR_HI;
		return 0;
	default:
		return bad(o, "unexpected method 0x%03x", mthd);
	}
}

/* Appends the ops of one segment to @o; 0, or -1 with o->err. */
static int decode(const uint32_t *dw, uint32_t ndw, struct ops *o)
{
	struct mstate m = { 0 };
	uint32_t i = 0, k;

	while (i < ndw) {
		uint32_t h = dw[i];
		uint32_t opc = h >> 29, count = (h >> 16) & 0x1fffu, addr = h & 0xfffu;

		/* bit 12 reserved, 15:13 subchannel: both 0 */
		if (h & 0xf000u)
			return bad(o, "header 0x%08x at %u: reserved bit or subchannel", h, i);
		/* only incrementing headers (opcode 1) are expected */
		if (opc != 1)
			return bad(o, "header 0x%08x at %u: opcode %u", h, i, opc);
		if (count == 0)
			return bad(o, "header 0x%08x at %u: count 0", h, i);
		if (count > ndw - i - 1)
			return bad(o, "header 0x%08x at %u: runs past the segment", h, i);
		for (k = 0; k < count; k++)
			if (method(&m, (addr + k) << 2, dw[i + 1 + k], o))
				return -1;
		i += 1 + count;
	}
	if (m.written)
		return bad(o, "segment ends inside a step (pending 0x%x)", m.written);
	return 0;
}

static void decode_pb(const struct ppu_pb *pb, struct ops *o)
{
	ck_assert_msg(!pb->overflow, "pushbuffer overflowed");
	ck_assert_uint_le(pb->len, pb->cap);
	ck_assert_msg(decode(pb->dw, pb->len, o) == 0, "decode: %s (ops so far: %s)", o->err,
		      o->s);
}

/* Joins a NULL-terminated list the way add_op() does. */
static void expect_ops(const struct ops *o, const char *const *want)
{
	static char buf[32768];
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; want[i]; i++) {
		int k = snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? "; " : "", want[i]);

		ck_assert(k > 0 && (size_t)k < sizeof(buf) - len);
		len += k;
	}
	ck_assert_str_eq(o->s, buf);
	ck_assert_uint_eq(o->n, i);
}

#define EXPECT_OPS(o, ...) expect_ops((o), (const char *const[]){ __VA_ARGS__, NULL })

/* ---- helpers ---- */

static uint32_t pbbuf[8192];

static void setup_levels(struct ppu_copy_prio *cp, int sems)
{
	ppu_copy_prio_init(cp, (enum ppu_copy_prio_mode)sems);
	ck_assert_int_eq(ppu_copy_prio_add_level(cp, 0, 0), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(cp, 2, S_2), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(cp, 5, S_5), 0);
}

/* One copy into one big pushbuffer, appended to @o; returns the dwords used. */
static uint32_t emit_one(const struct ppu_copy_prio *cp, unsigned int level, uint32_t dst,
			 uint32_t src, uint64_t len, uint32_t chunk, struct ops *o)
{
	struct ppu_copy_op op;
	struct ppu_pb pb;

	ck_assert_int_eq(ppu_copy_op_init(cp, &op, level, dst, src, len, chunk), 0);
	ppu_pb_init(&pb, pbbuf, sizeof(pbbuf) / sizeof(pbbuf[0]));
	ck_assert_int_eq(ppu_copy_prio_emit(cp, &op, &pb), 1);
	decode_pb(&pb, o);
	return pb.len;
}

/* ---- the decoder itself ---- */

static const struct {
	const char *what;
	uint32_t n;
	uint32_t w[16];
} bad_streams[] = {
	{ "release", 6, { 0x20050004, S_1, 0, 0, 0, 0x00000001 } },
	{ "64-bit acquire", 6, { 0x20050004, S_1, 0, 0, 0, 0x01000000 } },
	{ "acquire >=", 6, { 0x20050004, S_1, 0, 0, 0, 0x00000002 } },
	{ "signed inc", 6, { 0x20050004, S_1, 0, 0, 0, 0x30000006 } },
	{ "iadd", 6, { 0x20050004, S_1, 0, 1, 0, 0xa8000006 } },
	{ "inc with payload", 6, { 0x20050004, S_1, 0, 1, 0, 0xb0000006 } },
	{ "acquire, SEM_ADDR_HI", 6, { 0x20050004, S_1, 1, 0, 0, 0 } },
	{ "acquire, PAYLOAD_HI", 6, { 0x20050004, S_1, 0, 0, 1, 0 } },
	{ "execute without address", 4, { 0x20030006, 0, 0, 0 } },
	{ "copy, release", 11, { 0x20080040, 0x1000, 0, 0x2000, 0, 64, 0, 0, 0, 0x20010048, 1 } },
	{ "copy, interrupt", 11, { 0x20080040, 0x1000, 0, 0x2000, 0, 64, 0, 0, 0, 0x20010048, 4 } },
	{ "copy, SRC_HI", 11, { 0x20080040, 0x1000, 1, 0x2000, 0, 64, 0, 0, 0, 0x20010048, 0 } },
	{ "copy, DST_HI", 11, { 0x20080040, 0x1000, 0, 0x2000, 1, 64, 0, 0, 0, 0x20010048, 0 } },
	{ "copy, SEM_ADDR_HI", 11, { 0x20080040, 0x1000, 0, 0x2000, 0, 64, 0, 1, 0, 0x20010048, 0 } },
	{ "copy of 0 bytes", 11, { 0x20080040, 0x1000, 0, 0x2000, 0, 0, 0, 0, 0, 0x20010048, 0 } },
	{ "launch alone", 2, { 0x20010048, 0 } },
	{ "NOP", 2, { 0x20010002, 0 } },
	{ "WFI", 2, { 0x2001000a, 0 } },
	{ "non-incrementing", 6, { 0x60050004, S_1, 0, 0, 0, 0 } },
	{ "immediate", 1, { 0x80000009 } },
	{ "subchannel 1", 6, { 0x20052004, S_1, 0, 0, 0, 0 } },
	{ "runaway", 4, { 0x20050004, S_1, 0, 0 } },
	{ "count 0", 1, { 0x20000004 } },
	{ "half a step", 2, { 0x20010004, S_1 } },
	{ "half a copy", 9, { 0x20080040, 0x1000, 0, 0x2000, 0, 64, 0, 0, 0 } },
};

START_TEST(decoder_rejects)
{
	static struct ops o;

	ops_reset(&o);
	ck_assert_msg(decode(bad_streams[_i].w, bad_streams[_i].n, &o) != 0, "%s accepted: %s",
		      bad_streams[_i].what, o.s);
}
END_TEST

START_TEST(decoder_accepts_hand_words)
{
	static const uint32_t w[] = {
		0x20050004, S_5, 0, 0, 0, 0x00000000,			/* acquire == 0 */
		0x20050004, S_2, 0, 0, 0, 0xb0000006,			/* INC, unsigned */
		0x20080040, 0x200000, 0, 0x300000, 0, 4096, 0, 0, 0,	/* SRC .. SEM_PAYLOAD */
		0x20010048, 0,						/* LAUNCH_DMA */
		0x20050004, S_2, 0, 0, 0, 0xb8000006,			/* DEC, unsigned */
	};
	static struct ops o;

	ops_reset(&o);
	ck_assert_msg(decode(w, sizeof(w) / sizeof(w[0]), &o) == 0, "%s", o.err);
	EXPECT_OPS(&o, "acq S@0x1050==0", "inc S@0x1020", "copy 0x200000->0x300000 len 4096",
		   "dec S@0x1020");
}
END_TEST

/* ---- 1. SEEDS B worked example ---- */

START_TEST(seeds_b_worked_example)
{
	static struct ops lo, hi;
	struct ppu_copy_prio cp;
	struct ppu_copy_op op;
	struct ppu_pb pb;
	unsigned int i;

	ppu_copy_prio_init(&cp, PPU_COPY_PRIO_STRICT);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 0, 0), 0);	/* C_low */
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 1, S_1), 0);	/* C_high, S_high */
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 0), 1);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 1), 0);

	/* C_low: Mlow1..3 of 64 KiB, one pushbuffer for the channel */
	ops_reset(&lo);
	ppu_pb_init(&pb, pbbuf, 256);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 0, 0x800000 + i * 0x10000,
						  0x400000 + i * 0x10000, 0x10000, 0), 0);
		ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 1);
	}
	ck_assert_uint_eq(pb.len, 3 * (6 + 11));
	decode_pb(&pb, &lo);
	EXPECT_OPS(&lo,
		   "acq S@0x1010==0", "copy 0x400000->0x800000 len 65536",
		   "acq S@0x1010==0", "copy 0x410000->0x810000 len 65536",
		   "acq S@0x1010==0", "copy 0x420000->0x820000 len 65536");

	/* C_high: Mhigh1, Mhigh2 */
	ops_reset(&hi);
	ppu_pb_init(&pb, pbbuf, 256);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 1, 0xa00000 + i * 0x1000,
						  0x900000 + i * 0x1000, 0x1000, 0), 0);
		ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 1);
	}
	ck_assert_uint_eq(pb.len, 2 * (6 + 11 + 6));
	/* the raw words of the first INC, by hand: INC header, 5 words from 0x010 */
	ck_assert_uint_eq(pbbuf[0], 0x20050004u);
	ck_assert_uint_eq(pbbuf[1], S_1);
	ck_assert_uint_eq(pbbuf[5], 0xb0000006u);
	decode_pb(&pb, &hi);
	EXPECT_OPS(&hi,
		   "inc S@0x1010", "copy 0x900000->0xa00000 len 4096", "dec S@0x1010",
		   "inc S@0x1010", "copy 0x901000->0xa01000 len 4096", "dec S@0x1010");
}
END_TEST

/* ---- 2. three and more levels ---- */

START_TEST(three_levels_highest_first)
{
	static struct ops o;
	struct ppu_copy_prio cp;

	setup_levels(&cp, PPU_COPY_PRIO_STRICT);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 0), 2);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 2), 1);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 5), 0);
	/* unused levels count only the used ones above them */
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 1), 2);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 3), 1);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 63), 0);

	ops_reset(&o);
	ck_assert_uint_eq(emit_one(&cp, 0, 0x300000, 0x200000, 4096, 0, &o), 6 + 6 + 11);
	EXPECT_OPS(&o, "acq S@0x1050==0", "acq S@0x1020==0", "copy 0x200000->0x300000 len 4096");

	ops_reset(&o);
	ck_assert_uint_eq(emit_one(&cp, 2, 0x300000, 0x200000, 4096, 0, &o), 6 + 6 + 11 + 6);
	EXPECT_OPS(&o, "inc S@0x1020", "acq S@0x1050==0", "copy 0x200000->0x300000 len 4096",
		   "dec S@0x1020");

	ops_reset(&o);
	ck_assert_uint_eq(emit_one(&cp, 5, 0x300000, 0x200000, 4096, 0, &o), 6 + 11 + 6);
	EXPECT_OPS(&o, "inc S@0x1050", "copy 0x200000->0x300000 len 4096", "dec S@0x1050");
}
END_TEST

START_TEST(top_level_63)
{
	static struct ops o;
	struct ppu_copy_prio cp;

	/* bit 63 of the used mask, and a level just above 0 */
	ppu_copy_prio_init(&cp, PPU_COPY_PRIO_STRICT);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 63, S_63), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 1, S_1), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 0, 0), 0);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 0), 2);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 1), 1);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 62), 1);

	ops_reset(&o);
	emit_one(&cp, 0, 0x2000, 0x1000, 16, 0, &o);
	EXPECT_OPS(&o, "acq S@0x10f0==0", "acq S@0x1010==0", "copy 0x1000->0x2000 len 16");
	ops_reset(&o);
	emit_one(&cp, 1, 0x2000, 0x1000, 16, 0, &o);
	EXPECT_OPS(&o, "inc S@0x1010", "acq S@0x10f0==0", "copy 0x1000->0x2000 len 16",
		   "dec S@0x1010");
	ops_reset(&o);
	emit_one(&cp, 63, 0x2000, 0x1000, 16, 0, &o);
	EXPECT_OPS(&o, "inc S@0x10f0", "copy 0x1000->0x2000 len 16", "dec S@0x10f0");
}
END_TEST

/*
 * The patent's own order (PPU_COPY_PRIO_PATENT): acquire the higher levels,
 * then increment.  Two levels emit the same words in both orders, so the
 * worked example is the patent's exact sequence either way.
 */
START_TEST(patent_order_acquires_before_incrementing)
{
	static struct ops o, strict;
	struct ppu_copy_prio cp, cs;

	setup_levels(&cp, PPU_COPY_PRIO_PATENT);
	ops_reset(&o);
	emit_one(&cp, 2, 0x300000, 0x200000, 10000, 4096, &o);
	EXPECT_OPS(&o,
		   "acq S@0x1050==0", "inc S@0x1020", "copy 0x200000->0x300000 len 4096",
		   "acq S@0x1050==0", "copy 0x201000->0x301000 len 4096",
		   "acq S@0x1050==0", "copy 0x202000->0x302000 len 1808",
		   "dec S@0x1020");
	/* the lowest and the highest level are the same in both orders */
	ops_reset(&o);
	emit_one(&cp, 0, 0x300000, 0x200000, 100, 0, &o);
	EXPECT_OPS(&o, "acq S@0x1050==0", "acq S@0x1020==0", "copy 0x200000->0x300000 len 100");
	ops_reset(&o);
	emit_one(&cp, 5, 0x300000, 0x200000, 100, 0, &o);
	EXPECT_OPS(&o, "inc S@0x1050", "copy 0x200000->0x300000 len 100", "dec S@0x1050");

	/* two levels: word for word the same */
	ppu_copy_prio_init(&cp, PPU_COPY_PRIO_PATENT);
	ppu_copy_prio_init(&cs, PPU_COPY_PRIO_STRICT);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 0, 0), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 1, S_1), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cs, 0, 0), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cs, 1, S_1), 0);
	ops_reset(&o);
	ops_reset(&strict);
	emit_one(&cp, 1, 0x300000, 0x200000, 10000, 4096, &o);
	emit_one(&cs, 1, 0x300000, 0x200000, 10000, 4096, &strict);
	ck_assert_str_eq(o.s, strict.s);
	ops_reset(&o);
	ops_reset(&strict);
	emit_one(&cp, 0, 0x300000, 0x200000, 10000, 4096, &o);
	emit_one(&cs, 0, 0x300000, 0x200000, 10000, 4096, &strict);
	ck_assert_str_eq(o.s, strict.s);
}
END_TEST

/* ---- 3. chunking ---- */

START_TEST(chunking_middle_level)
{
	static struct ops o;
	struct ppu_copy_prio cp;

	setup_levels(&cp, PPU_COPY_PRIO_STRICT);

	/* 10000 = 4096 + 4096 + 1808 */
	ops_reset(&o);
	emit_one(&cp, 2, 0x300000, 0x200000, 10000, 4096, &o);
	EXPECT_OPS(&o,
		   "inc S@0x1020", "acq S@0x1050==0", "copy 0x200000->0x300000 len 4096",
		   "acq S@0x1050==0", "copy 0x201000->0x301000 len 4096",
		   "acq S@0x1050==0", "copy 0x202000->0x302000 len 1808",
		   "dec S@0x1020");

	/* an exact multiple: no empty trailing command */
	ops_reset(&o);
	emit_one(&cp, 2, 0x300000, 0x200000, 8192, 4096, &o);
	EXPECT_OPS(&o,
		   "inc S@0x1020", "acq S@0x1050==0", "copy 0x200000->0x300000 len 4096",
		   "acq S@0x1050==0", "copy 0x201000->0x301000 len 4096",
		   "dec S@0x1020");

	/* shorter than a chunk */
	ops_reset(&o);
	emit_one(&cp, 2, 0x300000, 0x200000, 100, 4096, &o);
	EXPECT_OPS(&o, "inc S@0x1020", "acq S@0x1050==0", "copy 0x200000->0x300000 len 100",
		   "dec S@0x1020");

	/* one byte over a chunk */
	ops_reset(&o);
	emit_one(&cp, 2, 0x300001, 0x200003, 4097, 4096, &o);
	EXPECT_OPS(&o,
		   "inc S@0x1020", "acq S@0x1050==0", "copy 0x200003->0x300001 len 4096",
		   "acq S@0x1050==0", "copy 0x201003->0x301001 len 1",
		   "dec S@0x1020");

	/* chunk 0: no splitting */
	ops_reset(&o);
	emit_one(&cp, 2, 0x300000, 0x200000, 10000, 0, &o);
	EXPECT_OPS(&o, "inc S@0x1020", "acq S@0x1050==0", "copy 0x200000->0x300000 len 10000",
		   "dec S@0x1020");
}
END_TEST

START_TEST(chunking_lowest_level)
{
	static struct ops o;
	struct ppu_copy_prio cp;

	setup_levels(&cp, PPU_COPY_PRIO_STRICT);
	ops_reset(&o);
	emit_one(&cp, 0, 0x300000, 0x200000, 10000, 4096, &o);
	EXPECT_OPS(&o,
		   "acq S@0x1050==0", "acq S@0x1020==0", "copy 0x200000->0x300000 len 4096",
		   "acq S@0x1050==0", "acq S@0x1020==0", "copy 0x201000->0x301000 len 4096",
		   "acq S@0x1050==0", "acq S@0x1020==0", "copy 0x202000->0x302000 len 1808");
}
END_TEST

START_TEST(chunk_0_capped_at_max_command)
{
	static struct ops o;
	struct ppu_copy_prio cp;

	ck_assert_uint_eq(PPU_COPY_PRIO_MAX_COMMAND, 0x40000000u);
	setup_levels(&cp, PPU_COPY_PRIO_STRICT);

	/* exactly the cap: one command */
	ops_reset(&o);
	emit_one(&cp, 5, 0x60000000, 0x10000000, 0x40000000, 0, &o);
	EXPECT_OPS(&o, "inc S@0x1050", "copy 0x10000000->0x60000000 len 1073741824",
		   "dec S@0x1050");

	/* 4 bytes more: a second command, with its acquires */
	ops_reset(&o);
	emit_one(&cp, 2, 0x60000000, 0x10000000, 0x40000004, 0, &o);
	EXPECT_OPS(&o,
		   "inc S@0x1020", "acq S@0x1050==0",
		   "copy 0x10000000->0x60000000 len 1073741824",
		   "acq S@0x1050==0", "copy 0x50000000->0xa0000000 len 4",
		   "dec S@0x1020");

	/* a chunk above the cap is cut to it */
	ops_reset(&o);
	emit_one(&cp, 5, 0x60000000, 0x10000000, 0x40000004, 0x80000000u, &o);
	EXPECT_OPS(&o,
		   "inc S@0x1050", "copy 0x10000000->0x60000000 len 1073741824",
		   "copy 0x50000000->0xa0000000 len 4", "dec S@0x1050");
}
END_TEST

START_TEST(whole_address_space)
{
	static struct ops o;
	struct ppu_copy_prio cp;

	/* [0, 4 GiB) ends exactly at the top: allowed, four capped commands */
	setup_levels(&cp, PPU_COPY_PRIO_STRICT);
	ops_reset(&o);
	emit_one(&cp, 5, 0, 0, 0x100000000ull, 0, &o);
	EXPECT_OPS(&o, "inc S@0x1050",
		   "copy 0x0->0x0 len 1073741824",
		   "copy 0x40000000->0x40000000 len 1073741824",
		   "copy 0x80000000->0x80000000 len 1073741824",
		   "copy 0xc0000000->0xc0000000 len 1073741824",
		   "dec S@0x1050");

	/* the last page */
	ops_reset(&o);
	emit_one(&cp, 0, 0xfffff000u, 0xffffe000u, 0x1000, 0, &o);
	EXPECT_OPS(&o, "acq S@0x1050==0", "acq S@0x1020==0",
		   "copy 0xffffe000->0xfffff000 len 4096");
}
END_TEST

/* ---- 4. segmenting ---- */

/* Level 2 of {0, 2, 5}: 10000 bytes in chunks of 1000. */
#define SEG_LEN 10000u
#define SEG_CHUNK 1000u

static const char *const seg_want[] = {
	"inc S@0x1020", "acq S@0x1050==0", "copy 0x200000->0x300000 len 1000",
	"acq S@0x1050==0", "copy 0x2003e8->0x3003e8 len 1000",
	"acq S@0x1050==0", "copy 0x2007d0->0x3007d0 len 1000",
	"acq S@0x1050==0", "copy 0x200bb8->0x300bb8 len 1000",
	"acq S@0x1050==0", "copy 0x200fa0->0x300fa0 len 1000",
	"acq S@0x1050==0", "copy 0x201388->0x301388 len 1000",
	"acq S@0x1050==0", "copy 0x201770->0x301770 len 1000",
	"acq S@0x1050==0", "copy 0x201b58->0x301b58 len 1000",
	"acq S@0x1050==0", "copy 0x201f40->0x301f40 len 1000",
	"acq S@0x1050==0", "copy 0x202328->0x302328 len 1000",
	"dec S@0x1020",
	NULL
};

/* Step sizes by hand: acq+inc+copy, eight acq+copy, acq+copy+dec. */
static const uint32_t seg_steps[10] = { 23, 17, 17, 17, 17, 17, 17, 17, 17, 23 };

static const uint32_t seg_caps[] = { 29, 30, 34, 39, 40, 41, 57, 100, 181, 182, 500 };

START_TEST(segments_concatenate)
{
	static struct ops whole, segs;
	uint32_t cap = seg_caps[_i];
	struct ppu_copy_prio cp;
	struct ppu_copy_op op;
	struct ppu_pb pb;
	unsigned int step = 0, nseg = 0;
	int r;

	setup_levels(&cp, PPU_COPY_PRIO_STRICT);
	ck_assert_uint_eq(ppu_copy_prio_step_dwords(&cp, 2), 29);

	ops_reset(&whole);
	ck_assert_uint_eq(emit_one(&cp, 2, 0x300000, 0x200000, SEG_LEN, SEG_CHUNK, &whole), 182);
	expect_ops(&whole, seg_want);

	ops_reset(&segs);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0x300000, 0x200000, SEG_LEN, SEG_CHUNK), 0);
	do {
		static struct ops one;
		uint32_t want_len = 0;

		/* whole steps, as many as fit */
		while (step < 10 && want_len + seg_steps[step] <= cap)
			want_len += seg_steps[step++];

		ck_assert_uint_lt(nseg++, 20);
		memset(pbbuf, 0xa5, (cap + 8) * sizeof(pbbuf[0]));
		ppu_pb_init(&pb, pbbuf, cap);
		r = ppu_copy_prio_emit(&cp, &op, &pb);
		ck_assert_int_eq(r, step == 10);
		ck_assert_uint_eq(pb.len, want_len);
		/* nothing written past the segment */
		ck_assert_uint_eq(pbbuf[cap], 0xa5a5a5a5u);

		/* every segment stands alone */
		ops_reset(&one);
		decode_pb(&pb, &one);
		ck_assert_msg(decode(pb.dw, pb.len, &segs) == 0, "%s", segs.err);
	} while (!r);
	ck_assert_str_eq(segs.s, whole.s);

	/* a finished copy adds nothing */
	ppu_pb_init(&pb, pbbuf, cap);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 1);
	ck_assert_uint_eq(pb.len, 0);
}
END_TEST

START_TEST(segment_too_small)
{
	static struct ops o;
	struct ppu_copy_prio cp;
	struct ppu_copy_op op;
	struct ppu_pb pb;

	setup_levels(&cp, PPU_COPY_PRIO_STRICT);

	/* a single-chunk copy needs all 29 dwords at once */
	ops_reset(&o);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0x300000, 0x200000, 64, 0), 0);
	ppu_pb_init(&pb, pbbuf, 28);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 0);
	ck_assert_uint_eq(pb.len, 0);
	ck_assert_int_eq(pb.overflow, 0);
	/* and can still go out whole afterwards */
	ppu_pb_init(&pb, pbbuf, 29);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 1);
	ck_assert_uint_eq(pb.len, 29);
	decode_pb(&pb, &o);
	EXPECT_OPS(&o, "inc S@0x1020", "acq S@0x1050==0", "copy 0x200000->0x300000 len 64",
		   "dec S@0x1020");

	/* mid-copy: first step alone, then a pb below a middle step, then the rest */
	ops_reset(&o);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0x300000, 0x200000, SEG_LEN, SEG_CHUNK), 0);
	ppu_pb_init(&pb, pbbuf, 22);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 0);
	ck_assert_uint_eq(pb.len, 0);
	ppu_pb_init(&pb, pbbuf, 23);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 0);
	ck_assert_uint_eq(pb.len, 23);
	decode_pb(&pb, &o);
	ppu_pb_init(&pb, pbbuf, 16);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 0);
	ck_assert_uint_eq(pb.len, 0);
	ck_assert_int_eq(pb.overflow, 0);
	ppu_pb_init(&pb, pbbuf, 1000);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 1);
	decode_pb(&pb, &o);
	expect_ops(&o, seg_want);

	/* the last step carries the DEC: 22 dwords hold no final acq+copy+dec */
	ops_reset(&o);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0x300000, 0x200000, 2000, 1000), 0);
	ppu_pb_init(&pb, pbbuf, 23);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 0);
	ck_assert_uint_eq(pb.len, 23);
	ppu_pb_init(&pb, pbbuf, 22);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 0);
	ck_assert_uint_eq(pb.len, 0);
	ppu_pb_init(&pb, pbbuf, 23);
	ck_assert_int_eq(ppu_copy_prio_emit(&cp, &op, &pb), 1);
	ck_assert_uint_eq(pb.len, 23);
}
END_TEST

/* step_dwords by hand for levels 0, 2, 5 of {0, 2, 5}, sems on and off */
static const struct {
	int sems;
	unsigned int level;
	uint32_t step;
	uint64_t len;
	uint32_t chunk;
} step_cases[] = {
	{ 1, 0, 6 + 6 + 11, 100, 0 },
	{ 1, 2, 6 + 6 + 11 + 6, 100, 0 },
	{ 1, 5, 6 + 11 + 6, 100, 0 },
	{ 1, 0, 6 + 6 + 11, 10000, 1000 },
	{ 1, 2, 6 + 6 + 11 + 6, 10000, 1000 },
	{ 1, 5, 6 + 11 + 6, 10000, 1000 },
	{ 0, 0, 11, 100, 0 },
	{ 0, 2, 11, 100, 0 },
	{ 0, 5, 11, 10000, 1000 },
};

START_TEST(step_dwords_always_enough)
{
	static struct ops whole, segs;
	struct ppu_copy_prio cp;
	struct ppu_copy_op op;
	struct ppu_pb pb;
	uint32_t step;
	unsigned int nseg = 0;
	int r;

	setup_levels(&cp, step_cases[_i].sems);
	step = ppu_copy_prio_step_dwords(&cp, step_cases[_i].level);
	ck_assert_uint_eq(step, step_cases[_i].step);

	ops_reset(&whole);
	emit_one(&cp, step_cases[_i].level, 0x300000, 0x200000, step_cases[_i].len,
		 step_cases[_i].chunk, &whole);

	ops_reset(&segs);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, step_cases[_i].level, 0x300000, 0x200000,
					  step_cases[_i].len, step_cases[_i].chunk), 0);
	do {
		ck_assert_uint_lt(nseg++, 20);
		ppu_pb_init(&pb, pbbuf, step);
		r = ppu_copy_prio_emit(&cp, &op, &pb);
		ck_assert_uint_gt(pb.len, 0);	/* a fresh segment always takes a step */
		decode_pb(&pb, &segs);
		/* a single-chunk copy is the largest step */
		if (step_cases[_i].len <= 100)
			ck_assert_uint_eq(pb.len, step);
	} while (!r);
	ck_assert_str_eq(segs.s, whole.s);
}
END_TEST

/* ---- 5. prior art: no semaphores ---- */

START_TEST(no_semaphores_plain_copies)
{
	static struct ops o;
	struct ppu_copy_prio cp;
	unsigned int l;

	setup_levels(&cp, 0);
	for (l = 0; l < PPU_COPY_PRIO_LEVELS; l++)
		ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, l), 0);

	ops_reset(&o);
	ck_assert_uint_eq(emit_one(&cp, 0, 0x300000, 0x200000, 4096, 0, &o), 11);
	ck_assert_uint_eq(emit_one(&cp, 5, 0x500000, 0x400000, 4096, 0, &o), 11);
	EXPECT_OPS(&o, "copy 0x200000->0x300000 len 4096", "copy 0x400000->0x500000 len 4096");

	/* still chunked */
	ops_reset(&o);
	ck_assert_uint_eq(emit_one(&cp, 2, 0x300000, 0x200000, 10000, 4096, &o), 33);
	EXPECT_OPS(&o,
		   "copy 0x200000->0x300000 len 4096",
		   "copy 0x201000->0x301000 len 4096",
		   "copy 0x202000->0x302000 len 1808");
}
END_TEST

/* ---- 6. errors ---- */

START_TEST(add_level_rejects)
{
	struct ppu_copy_prio cp;

	ppu_copy_prio_init(&cp, PPU_COPY_PRIO_STRICT);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, PPU_COPY_PRIO_LEVELS, S_1), -EINVAL);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 1000, S_1), -EINVAL);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 3, 0), -EINVAL);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 3, 0x1032), -EINVAL);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 3, 0x1031), -EINVAL);
	/* the failures left level 3 free */
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 0), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 3, 0x1030), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 3, 0x1030), -EINVAL);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 3, 0x1040), -EINVAL);
	/* level 0 has no semaphore: its address is ignored, but it is added only once */
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 0, 0), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 0, 0), -EINVAL);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 63, S_63), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 63, S_63), -EINVAL);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 0), 2);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 3), 1);

	/* a level-0 address, even a misaligned one, is not a semaphore */
	ppu_copy_prio_init(&cp, PPU_COPY_PRIO_STRICT);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 0, 0x1013), 0);

	/* init forgets every level */
	ppu_copy_prio_init(&cp, PPU_COPY_PRIO_STRICT);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 0, 0), 0);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 3, 0x1030), 0);
}
END_TEST

START_TEST(op_init_rejects)
{
	struct ppu_copy_prio cp;
	struct ppu_copy_op op;

	setup_levels(&cp, PPU_COPY_PRIO_STRICT);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 1, 0x3000, 0x2000, 64, 0), -EINVAL);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 63, 0x3000, 0x2000, 64, 0), -EINVAL);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, PPU_COPY_PRIO_LEVELS, 0x3000, 0x2000, 64, 0),
			 -EINVAL);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0x3000, 0x2000, 0, 0), -EINVAL);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0xfffff000u, 0x2000, 0x1001, 0), -EINVAL);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0x2000, 0xfffff000u, 0x1001, 0), -EINVAL);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0, 0, 0x100000001ull, 0), -EINVAL);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0, 0, UINT64_MAX, 0), -EINVAL);
	/* the edges that are allowed */
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0xfffff000u, 0xffffe000u, 0x1000, 0), 0);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 0, 0, 0, 0x100000000ull, 0), 0);
}
END_TEST

/*
 * A length so large that dst + len wraps the 64-bit sum (a length computed as
 * end - start with end < start) still leaves the address space.
 */
START_TEST(op_init_rejects_wrapping_length)
{
	struct ppu_copy_prio cp;
	struct ppu_copy_op op;

	setup_levels(&cp, PPU_COPY_PRIO_STRICT);
	/* 0x1000 + (2^64 - 0x1000) == 0 and 0x2000 + (2^64 - 0x1000) == 0x1000 mod 2^64 */
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0x1000, 0x2000, 0ull - 0x1000, 0), -EINVAL);
	ck_assert_int_eq(ppu_copy_op_init(&cp, &op, 2, 0x2000, 0x3000, UINT64_MAX, 0), -EINVAL);
}
END_TEST

/* ---- 7. a lone level 0 ---- */

START_TEST(lone_level_0)
{
	static struct ops o;
	struct ppu_copy_prio cp;

	ppu_copy_prio_init(&cp, PPU_COPY_PRIO_STRICT);
	ck_assert_int_eq(ppu_copy_prio_add_level(&cp, 0, 0), 0);
	ck_assert_uint_eq(ppu_copy_prio_acquires(&cp, 0), 0);
	ck_assert_uint_eq(ppu_copy_prio_step_dwords(&cp, 0), 11);

	ops_reset(&o);
	ck_assert_uint_eq(emit_one(&cp, 0, 0x300000, 0x200000, 4096, 0, &o), 11);
	EXPECT_OPS(&o, "copy 0x200000->0x300000 len 4096");

	ops_reset(&o);
	emit_one(&cp, 0, 0x300000, 0x200000, 10000, 4096, &o);
	EXPECT_OPS(&o,
		   "copy 0x200000->0x300000 len 4096",
		   "copy 0x201000->0x301000 len 4096",
		   "copy 0x202000->0x302000 len 1808");
}
END_TEST

Suite *suite_copy_prio(void)
{
	Suite *s = suite_create("copy_prio");
	TCase *td = tcase_create("decoder");
	TCase *tq = tcase_create("sequences");
	TCase *tc = tcase_create("chunking");
	TCase *tg = tcase_create("segments");
	TCase *te = tcase_create("errors");

	tcase_add_loop_test(td, decoder_rejects, 0, sizeof(bad_streams) / sizeof(bad_streams[0]));
	tcase_add_test(td, decoder_accepts_hand_words);
	suite_add_tcase(s, td);

	tcase_add_test(tq, seeds_b_worked_example);
	tcase_add_test(tq, three_levels_highest_first);
	tcase_add_test(tq, top_level_63);
	tcase_add_test(tq, patent_order_acquires_before_incrementing);
	tcase_add_test(tq, no_semaphores_plain_copies);
	tcase_add_test(tq, lone_level_0);
	suite_add_tcase(s, tq);

	tcase_add_test(tc, chunking_middle_level);
	tcase_add_test(tc, chunking_lowest_level);
	tcase_add_test(tc, chunk_0_capped_at_max_command);
	tcase_add_test(tc, whole_address_space);
	suite_add_tcase(s, tc);

	tcase_add_loop_test(tg, segments_concatenate, 0, sizeof(seg_caps) / sizeof(seg_caps[0]));
	tcase_add_test(tg, segment_too_small);
	tcase_add_loop_test(tg, step_dwords_always_enough, 0,
			    sizeof(step_cases) / sizeof(step_cases[0]));
	suite_add_tcase(s, tg);

	tcase_add_test(te, add_level_rejects);
	tcase_add_test(te, op_init_rejects);
	tcase_add_test(te, op_init_rejects_wrapping_length);
	suite_add_tcase(s, te);
	return s;
}
