/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Engine recovery: resetting an engine that does not finish its work
 * (ENGINE_CTRL, CAP_FEATURES.ENGINE_RESET and COMPUTE_RESET).
 */
#ifndef __PPU_RESET_H__
#define __PPU_RESET_H__

#include <linux/types.h>

struct ppu_device;
struct seq_file;

/**
 * enum ppu_engine - the engines ENGINE_CTRL resets and halts
 * @PPU_ENGINE_COPY: the copy engine
 * @PPU_ENGINE_COMPUTE: the compute engine (task table and units)
 * @PPU_ENGINE_COUNT: how many
 */
enum ppu_engine {
	PPU_ENGINE_COPY,
	PPU_ENGINE_COMPUTE,
	PPU_ENGINE_COUNT,
};

/**
 * struct ppu_reset_stats - resets of one engine since probe, for debugfs and bench
 * @count: resets that completed
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
bool ppu_reset_supported(struct ppu_device *ppu, enum ppu_engine eng);
int ppu_reset_engine(struct ppu_device *ppu, enum ppu_engine eng, u32 chid, pid_t pid);
int ppu_reset_halt_get(struct ppu_device *ppu, enum ppu_engine eng, u64 *val);
int ppu_reset_halt_set(struct ppu_device *ppu, enum ppu_engine eng, u64 val);
void ppu_reset_debugfs_show(struct ppu_device *ppu, struct seq_file *m);

#endif /* __PPU_RESET_H__ */
