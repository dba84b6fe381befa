/* SPDX-License-Identifier: MIT */
/*
 * What libppu writes for one kernel launched by the host, without a device:
 * the TMD (docs/compute-design.md §2.1) and the commands into the level's
 * compute channel (§6.1, §6.2):
 *
 *   TMD_ADDR_LO tmd, TMD_ADDR_HI 0    the TMD in the launch slot ring
 *   LAUNCH 0                          ends once the task table took the task
 *   WFI                               until every task of the channel is complete
 *
 * and the channel's tail (chan.c) releases the timeline after them, so the
 * entry completes with the kernel.  The TMD's own completion release goes
 * to the same timeline value, with the PPU's timestamp.  A launch slot is
 * the TMD followed by the parameter block, both 64-byte aligned.
 */
#ifndef PPU_LAUNCH_CMDS_H
#define PPU_LAUNCH_CMDS_H

#include <stddef.h>
#include <stdint.h>

#include "launch_plan.h"
#include "ppu/ppu_encode.h"

/* Dwords of ppu_launch_cmds(). */
#define PPU_LAUNCH_CMD_DWORDS 7u

/* The TMD fields that are not the launch's shape. */
struct ppu_launch_desc {
	uint32_t entry_pc;		/* 4-byte aligned */
	uint32_t param_va;		/* 0: no parameters */
	uint32_t prio;			/* device priority of the task */
	uint32_t sem_va;		/* completion release, 16-byte aligned; 0: none */
	uint32_t sem_payload;
	int icache_invalidate;		/* new code since the channel's last launch */
	uint32_t block_va;		/* the task block, plan->block_bytes, 64-byte aligned */
};

/* Bytes of a launch slot for @param_bytes of parameters. */
uint32_t ppu_launch_slot_bytes(size_t param_bytes);
/* Offset of the parameters in the slot. */
#define PPU_LAUNCH_SLOT_PARAMS PPU_TMD_BYTES

/* The TMD of a host launch of @shape laid out as @plan. */
void ppu_launch_tmd(uint32_t tmd[16], const struct ppu_launch_shape *shape,
		    const struct ppu_launch_plan *plan, const struct ppu_launch_desc *d);
/* The launch commands for the TMD at @tmd_va (PPU_LAUNCH_CMD_DWORDS). */
void ppu_launch_cmds(struct ppu_pb *pb, uint32_t tmd_va);

#endif /* PPU_LAUNCH_CMDS_H */
