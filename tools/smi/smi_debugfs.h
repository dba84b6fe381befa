/* SPDX-License-Identifier: MIT */
/*
 * ppu-smi: the driver's debugfs files, parsed.  The formats are those of
 * docs/kernel-driver.md ("debugfs"): "NAME value" lines for counters and
 * local_mem, tables with a header line for channels and faults.  Parsers
 * take the file's text so that they can be tested on canned output; lines
 * they do not understand are skipped, never guessed at.
 */
#ifndef SMI_DEBUGFS_H
#define SMI_DEBUGFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Channel ids are 12 bits (CHID_BITS): a PPU has at most 4096 channels. */
#define SMI_MAX_CHANNELS 4096
#define SMI_MAX_FAULTS 16
#define SMI_MAX_COUNTERS 64

struct smi_chan {
	unsigned int chid;
	int pid;			/* owner, -1 for the driver's own channel */
	unsigned int priority;
	char state[16];
	uint32_t gp_get, gp_put;
	bool dead;
	char engine[12];		/* "copy" or "compute" */
	int tasks;			/* CHAN TASKS of a compute channel, -1 for copy */
	char fault[48];			/* "unit/kind" of a dead channel, "" when alive or unknown */
};

struct smi_fault {
	uint64_t time_ns;
	unsigned int chid;
	int pid;
	unsigned int kind, access, unit;
	char unit_name[16];
	char kind_name[32];
	uint32_t addr, data;
};

struct smi_counter {
	char name[32];
	uint64_t value;
};

struct smi_lmem {
	uint64_t managed_bytes;
	uint64_t used_bytes;
	uint64_t bos;
	bool used_known;		/* USED_BYTES and BOS were there (newer drivers) */
};

/* The channels table: how many channels were read into @c (at most @max), -1 if not a channels file. */
int smi_parse_channels(const char *text, struct smi_chan *c, int max);
/* The fault log: the total since probe in *total, the recent faults into @f; -1 if not a faults file. */
int smi_parse_faults(const char *text, uint64_t *total, struct smi_fault *f, int max);
/* "NAME value" lines (decimal or 0x hex) into @c; returns how many. */
int smi_parse_values(const char *text, struct smi_counter *c, int max);
/* local_mem: 0, or -1 without MANAGED_BYTES. */
int smi_parse_lmem(const char *text, struct smi_lmem *l);

#endif /* SMI_DEBUGFS_H */
