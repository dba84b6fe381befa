/* SPDX-License-Identifier: MIT */
/*
 * The scenarios behind the claims of docs/security.md, each a function of
 * the files it uses, so that the root tests and test_unpriv (clients with
 * no privilege at all) check the same outcomes with the same code.  They
 * assert (Check), so they run inside a test or a child forked by one.
 */
#ifndef PPU_GUEST_CLAIMS_H
#define PPU_GUEST_CLAIMS_H

/* ---- memory ---- */

/*
 * A channel of @fa faults (an illegal method) while a long copy of @fb is
 * in flight: @fa's waits and doorbells fail with -EIO, @fb's copy completes
 * byte for byte and its channel keeps working, @fa's other BOs are intact.
 * Closes @fb.
 */
void ppu_claim_fault_spares_other_file(int fa, int fb);
/* GEM handles, mmap offsets, channel and pool ids of @fa mean nothing in @fb.  Closes @fb. */
void ppu_claim_ids_are_per_file(int fa, int fb);
/*
 * The GPU address of a BO of @fa faults in @fb (PTE not present) for reads
 * and writes, right after @fa used it; @fa's BO is untouched.  Closes @fb.
 */
void ppu_claim_same_va_faults_in_other_file(int fa, int fb);
/*
 * Local memory @fa filled and freed reads back as zeros in a BO of @fb
 * (@fa then takes the rest of local memory, so the range is reused: the
 * limits on local memory must allow it).  Closes @fb.
 */
void ppu_claim_freed_lmem_is_cleared(int fa, int fb);

/* ---- priorities ---- */

/* The answers of CHAN_CREATE to a caller without CAP_SYS_NICE. */
void ppu_claim_priority_above_normal_needs_cap_sys_nice(int fd);

/* ---- resources one file may hold ---- */

/* The limits the callers set (module parameters) for the scenarios below. */
#define PPU_CLAIM_MAX_BOS 8
#define PPU_CLAIM_MAX_POOLS 3
#define PPU_CLAIM_MAX_FENCES 4

void ppu_claim_bos_and_pools_per_file_bounded(int a, int b);
void ppu_claim_fences_per_file_bounded(int fd);
void ppu_claim_pinned_pages_count_against_memlock(void);
void ppu_claim_create_destroy_race(void);

#endif /* PPU_GUEST_CLAIMS_H */
