/* SPDX-License-Identifier: MIT */
/*
 * Random and mutated command streams for a PPU channel, shared by the RTL
 * test (tests/rtl/test_random_pb.c) and the guest program
 * (tests/guest/test_random_pb.c).  Needs only ppu_encode.h: no Check, no
 * harness, no driver.
 *
 * A stream starts as valid work on the channel's own buffers (copies,
 * semaphore releases, reductions and satisfied acquires, NOPs, yields,
 * non-stall interrupts) and is then mutated: bits flipped in headers and
 * data, random opcodes and subchannels, VAs replaced by unmapped ones or
 * by other channels' VAs, random copy sizes, truncated segments.  Any
 * outcome is legal for the channel itself -- it completes or faults -- but
 * never for anyone else.
 */
#ifndef PPU_RANDPB_H
#define PPU_RANDPB_H

#include <stdint.h>

struct ppu_randpb {
	uint64_t s;		/* xorshift64* state, never 0 */
	unsigned int mutate_pct;	/* chance of each mutation step, percent */
};

/* The VAs a stream may use: all in the channel's own address space. */
struct ppu_randpb_space {
	uint32_t buf_va, buf_size;	/* scratch, mapped read/write */
	uint32_t sem_va;		/* 4 KiB of semaphores (16-byte aligned), mapped */
	/* VAs to aim mutations at: unmapped ones, other channels' buffers */
	const uint32_t *bad_va;
	unsigned int nbad;
	uint32_t subch;			/* the subchannel copies go on */
};

void ppu_randpb_seed(struct ppu_randpb *r, uint64_t seed);
uint32_t ppu_randpb_u32(struct ppu_randpb *r);
/* Uniform in [0, n); 0 when n is 0. */
uint32_t ppu_randpb_below(struct ppu_randpb *r, uint32_t n);
/* 1 with probability pct percent. */
int ppu_randpb_chance(struct ppu_randpb *r, unsigned int pct);

/*
 * Writes a stream of at most @cap dwords to @dw (@cap >= 64): up to @nops
 * operations, mutated at r->mutate_pct.  Returns its length in dwords;
 * *@mutations counts the mutations applied.
 */
uint32_t ppu_randpb_stream(struct ppu_randpb *r, const struct ppu_randpb_space *sp,
			   unsigned int nops, uint32_t *dw, uint32_t cap,
			   unsigned int *mutations);

/*
 * A GPFIFO entry for a segment of @ndw dwords at @pb_va, mutated at
 * r->mutate_pct / 4: length 0, longer than the segment, far too long,
 * unaligned address, ADDR_HI set, an address from sp->bad_va, SYNC.
 */
void ppu_randpb_entry(struct ppu_randpb *r, const struct ppu_randpb_space *sp, uint32_t e[2],
		      uint32_t pb_va, uint32_t ndw);

/*
 * The GP_PUT to publish after writing entries up to @put (mod 2^@log2):
 * @put, or now and then one beyond the ring or a random word.
 */
uint32_t ppu_randpb_gp_put(struct ppu_randpb *r, uint32_t put, unsigned int log2);

#endif /* PPU_RANDPB_H */
