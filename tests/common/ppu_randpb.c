// SPDX-License-Identifier: MIT
/* Random and mutated command streams; see ppu_randpb.h. */
#include "ppu_randpb.h"

#include "ppu/ppu_encode.h"

/* What a dword of the stream is, so that mutations can aim. */
enum slot { S_HDR, S_VA, S_LEN, S_EXEC, S_DATA };

#define MAX_SLOTS 4096u

struct gen {
	struct ppu_randpb *r;
	const struct ppu_randpb_space *sp;
	struct ppu_pb pb;
	unsigned char kind[MAX_SLOTS];
};

void ppu_randpb_seed(struct ppu_randpb *r, uint64_t seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	if (!r->s)
		r->s = 1;
	if (!r->mutate_pct)
		r->mutate_pct = 30;
}

uint32_t ppu_randpb_u32(struct ppu_randpb *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return (uint32_t)((r->s * 0x2545f4914f6cdd1dull) >> 32);
}

uint32_t ppu_randpb_below(struct ppu_randpb *r, uint32_t n)
{
	return n ? (uint32_t)(((uint64_t)ppu_randpb_u32(r) * n) >> 32) : 0;
}

int ppu_randpb_chance(struct ppu_randpb *r, unsigned int pct)
{
	return ppu_randpb_below(r, 100) < pct;
}

static void put(struct gen *g, uint32_t v, enum slot k)
{
	if (g->pb.len < MAX_SLOTS)
		g->kind[g->pb.len] = (unsigned char)k;
	ppu_pb_push(&g->pb, v);
}

/* A VA somewhere in the scratch buffer, @align-aligned, @room bytes before its end. */
static uint32_t buf_va(struct gen *g, uint32_t room, uint32_t align)
{
	uint32_t span = g->sp->buf_size > room ? g->sp->buf_size - room : 1;

	return (g->sp->buf_va + ppu_randpb_below(g->r, span)) & ~(align - 1);
}

static uint32_t sem_va(struct gen *g, uint32_t align)
{
	return g->sp->sem_va + (ppu_randpb_below(g->r, 4096 - 16) & ~(align - 1));
}

static void op_sem(struct gen *g, uint32_t va, uint64_t payload, uint32_t exec)
{
	put(g, ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_ADDR_LO, 5), S_HDR);
	put(g, va, S_VA);
	put(g, 0, S_DATA);
	put(g, (uint32_t)payload, S_DATA);
	put(g, (uint32_t)(payload >> 32), S_DATA);
	put(g, exec, S_EXEC);
}

static void op_copy(struct gen *g)
{
	struct ppu_randpb *r = g->r;
	uint32_t half = g->sp->buf_size / 2;
	uint32_t len = 1 + ppu_randpb_below(r, ppu_randpb_chance(r, 70) ? 512 : half / 2);
	uint32_t src = g->sp->buf_va + ppu_randpb_below(r, half - len);
	uint32_t dst = g->sp->buf_va + half + ppu_randpb_below(r, half - len);
	uint32_t mode = ppu_randpb_below(r, 3);
	uint32_t launch = PPU_FSET(PPU_LAUNCH_DMA_SEMAPHORE, mode) |
			  PPU_FSET(PPU_LAUNCH_DMA_INTERRUPT, ppu_randpb_chance(r, 20));

	if (ppu_randpb_chance(r, 50)) {		/* the other way round */
		uint32_t t = src;

		src = dst;
		dst = t;
	}
	put(g, ppu_mthd_sub(PPU_MTHD_OP_INC, g->sp->subch, PPU_COPY_SRC_ADDR_LO, 8), S_HDR);
	put(g, src, S_VA);
	put(g, 0, S_DATA);
	put(g, dst, S_VA);
	put(g, 0, S_DATA);
	put(g, len, S_LEN);
	put(g, sem_va(g, mode == PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP ? 16 : 4), S_VA);
	put(g, 0, S_DATA);
	put(g, ppu_randpb_u32(r), S_DATA);
	put(g, ppu_mthd_sub(PPU_MTHD_OP_INC, g->sp->subch, PPU_COPY_LAUNCH_DMA, 1), S_HDR);
	put(g, launch, S_EXEC);
}

/* One valid operation on the channel's own buffers. */
static void op_valid(struct gen *g)
{
	struct ppu_randpb *r = g->r;

	switch (ppu_randpb_below(r, 9)) {
	case 0:
		put(g, ppu_mthd_immd(PPU_HOST_NOP, ppu_randpb_below(r, 1u << 13)), S_HDR);
		break;
	case 1:			/* a release, 32 or 64 bits, maybe timestamped */
	{
		int p64 = ppu_randpb_chance(r, 30), ts = ppu_randpb_chance(r, 30);

		op_sem(g, sem_va(g, ts ? 16 : p64 ? 8 : 4),
		       ((uint64_t)ppu_randpb_u32(r) << 32) | ppu_randpb_u32(r),
		       ppu_sem_release_op(p64, ts, 0));
		break;
	}
	case 2:			/* a reduction */
		op_sem(g, sem_va(g, 4), ppu_randpb_u32(r),
		       ppu_sem_reduction_op(ppu_randpb_below(r, 8), ppu_randpb_chance(r, 50)));
		break;
	case 3:			/* an acquire that holds whatever the word: >= 0 */
		op_sem(g, sem_va(g, 4), 0,
		       ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ, 0));
		break;
	case 4:
		put(g, ppu_mthd_immd(PPU_HOST_NON_STALL_INTR, 0), S_HDR);
		break;
	case 5:
		put(g, ppu_mthd_immd(PPU_HOST_YIELD, 0), S_HDR);
		break;
	case 6:			/* non-incrementing: the same method several times */
	{
		uint32_t i, n = 1 + ppu_randpb_below(r, 4);

		put(g, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_NOP, n), S_HDR);
		for (i = 0; i < n; i++)
			put(g, ppu_randpb_u32(r), S_DATA);
		break;
	}
	default:
		op_copy(g);
		break;
	}
}

static uint32_t bad_va(struct gen *g)
{
	struct ppu_randpb *r = g->r;

	switch (ppu_randpb_below(r, 4)) {
	case 0:
		if (g->sp->nbad)
			return g->sp->bad_va[ppu_randpb_below(r, g->sp->nbad)] +
			       (ppu_randpb_below(r, 4096) & ~3u);
		/* fall through */
	case 1:
		return ppu_randpb_u32(r);
	case 2:			/* straddles the end of the buffer */
		return g->sp->buf_va + g->sp->buf_size - 1 - ppu_randpb_below(r, 64);
	default:		/* misaligned by a little */
		return buf_va(g, 64, 1) | (1 + ppu_randpb_below(r, 3));
	}
}

/* One mutation of an already built stream; returns 0 if none applied. */
static int mutate(struct gen *g)
{
	struct ppu_randpb *r = g->r;
	uint32_t n = g->pb.len < MAX_SLOTS ? g->pb.len : MAX_SLOTS;
	uint32_t i, *w;

	if (!n)
		return 0;
	i = ppu_randpb_below(r, n);
	w = &g->pb.dw[i];
	switch (g->kind[i]) {
	case S_HDR:
		switch (ppu_randpb_below(r, 4)) {
		case 0:
			*w ^= 1u << ppu_randpb_below(r, 32);
			break;
		case 1:		/* a random opcode */
			*w = (*w & ~PPU_FMASK(PPU_MTHD_OP)) |
			     PPU_FSET(PPU_MTHD_OP, ppu_randpb_below(r, 8));
			break;
		case 2:		/* a random subchannel */
			*w = (*w & ~PPU_FMASK(PPU_MTHD_SUBCH)) |
			     PPU_FSET(PPU_MTHD_SUBCH, ppu_randpb_below(r, 8));
			break;
		default:	/* a random count */
			*w = (*w & ~PPU_FMASK(PPU_MTHD_COUNT)) |
			     PPU_FSET(PPU_MTHD_COUNT, ppu_randpb_below(r, 1u << 13));
			break;
		}
		break;
	case S_VA:
		*w = bad_va(g);
		break;
	case S_LEN:
		*w = ppu_randpb_chance(r, 50) ? ppu_randpb_u32(r) : ppu_randpb_below(r, 1u << 20);
		break;
	case S_EXEC:
		*w = ppu_randpb_chance(r, 50) ? ppu_randpb_u32(r) : *w ^ (1u << ppu_randpb_below(r, 32));
		break;
	default:
		*w = ppu_randpb_u32(r);
		break;
	}
	return 1;
}

uint32_t ppu_randpb_stream(struct ppu_randpb *r, const struct ppu_randpb_space *sp,
			   unsigned int nops, uint32_t *dw, uint32_t cap,
			   unsigned int *mutations)
{
	struct gen g;
	unsigned int i, m = 0;

	g.r = r;
	g.sp = sp;
	ppu_pb_init(&g.pb, dw, cap > MAX_SLOTS ? MAX_SLOTS : cap);
	/* 11 dwords is the largest operation: stop while it still fits */
	for (i = 0; i < nops && g.pb.len + 11 <= g.pb.cap; i++)
		op_valid(&g);
	while (ppu_randpb_chance(r, r->mutate_pct) && m < 8)
		m += mutate(&g);
	if (ppu_randpb_chance(r, r->mutate_pct / 3)) {	/* a raw random dword anywhere */
		if (g.pb.len)
			g.pb.dw[ppu_randpb_below(r, g.pb.len)] = ppu_randpb_u32(r);
		m++;
	}
	if (g.pb.len > 1 && ppu_randpb_chance(r, r->mutate_pct / 4)) {	/* cut short */
		g.pb.len = 1 + ppu_randpb_below(r, g.pb.len - 1);
		m++;
	}
	if (mutations)
		*mutations = m;
	return g.pb.len;
}

void ppu_randpb_entry(struct ppu_randpb *r, const struct ppu_randpb_space *sp, uint32_t e[2],
		      uint32_t pb_va, uint32_t ndw)
{
	ppu_gp_entry(e, pb_va, ndw, 0);
	if (!ppu_randpb_chance(r, r->mutate_pct / 4))
		return;
	switch (ppu_randpb_below(r, 7)) {
	case 0:			/* a control entry */
		ppu_gp_entry(e, pb_va, 0, 0);
		break;
	case 1:			/* longer than the segment: runs into whatever follows */
		ppu_gp_entry(e, pb_va, ndw + 1 + ppu_randpb_below(r, 64), 0);
		break;
	case 2:			/* far too long */
		ppu_gp_entry(e, pb_va, PPU_FMASK(PPU_GP_ENTRY1_LENGTH) >>
				       PPU_GP_ENTRY1_LENGTH__LSB, 0);
		break;
	case 3:			/* reserved address bits */
		e[0] |= 1 + ppu_randpb_below(r, 3);
		break;
	case 4:			/* ADDR_HI */
		e[1] |= 1 + ppu_randpb_below(r, 255);
		break;
	case 5:			/* somewhere else */
		ppu_gp_entry(e, sp->nbad ? sp->bad_va[ppu_randpb_below(r, sp->nbad)] :
				ppu_randpb_u32(r) & ~3u, ndw, 0);
		break;
	default:		/* shorter, and SYNC */
		ppu_gp_entry(e, pb_va, ppu_randpb_below(r, ndw + 1), 1);
		break;
	}
}

uint32_t ppu_randpb_gp_put(struct ppu_randpb *r, uint32_t put, unsigned int log2)
{
	if (!ppu_randpb_chance(r, 6))
		return put;
	return ppu_randpb_chance(r, 50) ? (1u << log2) + ppu_randpb_below(r, 1u << log2) :
					  ppu_randpb_u32(r);
}
