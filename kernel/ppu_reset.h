/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Engine recovery: resetting an engine that does not finish its work
 * (ENGINE_CTRL, CAP_FEATURES.ENGINE_RESET).
 */
#ifndef __PPU_RESET_H__
#define __PPU_RESET_H__

#include <linux/types.h>

struct ppu_device;
struct seq_file;

/**
 * struct ppu_reset_stats - engine resets since probe, for debugfs and bench
 * @count: copy engine resets that completed
 * @failed: resets after which the engine did not come back
 * @last_cycles: device cycles the last reset took (write to idle)
 * @last_us: wall time the last reset took, in microseconds
 */
struct ppu_reset_stats {
	u32 count;
	u32 failed;
	u64 last_cycles;
	u64 last_us;
};

void ppu_reset_init(struct ppu_device *ppu);
bool ppu_reset_supported(struct ppu_device *ppu);
int ppu_reset_copy(struct ppu_device *ppu, u32 chid, pid_t pid);
void ppu_reset_debugfs_show(struct ppu_device *ppu, struct seq_file *m);

#endif /* __PPU_RESET_H__ */
