/* SPDX-License-Identifier: MIT */
/*
 * ppu-smi: the PPUs in this machine and what they are doing.
 *
 * For every PCI function with the PPU's vendor/device id: its address, ids,
 * BARs, the driver bound to it and its DRM render node.  Then the PPU's own
 * identity and capability registers, read through a read-only mapping of
 * BAR0 (every PPU register read is free of side effects), and, when ppu.ko
 * is bound, the same values as the driver reports them (GET_PARAM).
 *
 * The live view comes from the driver's debugfs directory
 * (/sys/kernel/debug/dri/<render minor>/): the channels with their owner,
 * engine, priority, state, GP_GET/GP_PUT and why a dead one died, the
 * recent faults, the performance counters and local-memory use.  With -l
 * it is sampled every N ms; --json prints each sample as one JSON object
 * on one line.
 *
 * Mapping BAR0 needs root, and Linux refuses it while a driver has claimed
 * the BAR (CONFIG_IO_STRICT_DEVMEM, as in Debian's kernels); debugfs needs
 * root and a mounted debugfs.  ppu-smi says which of these stood in the
 * way and shows what it could still read.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include <pciaccess.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_hw.h"

#include "smi_debugfs.h"

#define SYSFS_PCI "/sys/bus/pci/devices"
#define DEBUGFS "/sys/kernel/debug"
/* statfs() f_type of debugfs (linux/magic.h) */
#define DEBUGFS_MAGIC_NUMBER 0x64626720

struct named_reg {
	const char *name;
	unsigned int reg;
};

static const struct named_reg cap_regs[] = {
	{ "CAP_NUM_CHANNELS", PPU_REG_CAP_NUM_CHANNELS },
	{ "CAP_NUM_CU", PPU_REG_CAP_NUM_CU },
	{ "CAP_NUM_TASK_SLOTS", PPU_REG_CAP_NUM_TASK_SLOTS },
	{ "CAP_NUM_PRIORITIES", PPU_REG_CAP_NUM_PRIORITIES },
	{ "CAP_COPY_CHUNK_BYTES", PPU_REG_CAP_COPY_CHUNK_BYTES },
	{ "CAP_MEM_DATA_BYTES", PPU_REG_CAP_MEM_DATA_BYTES },
	{ "CAP_TLB_ENTRIES", PPU_REG_CAP_TLB_ENTRIES },
	{ "CAP_COPY_MAX_READS", PPU_REG_CAP_COPY_MAX_READS },
	{ "CAP_PB_PREFETCH_BEATS", PPU_REG_CAP_PB_PREFETCH_BEATS },
	{ "CAP_LOCAL_MEM_MIB", PPU_REG_CAP_LOCAL_MEM_MIB },
};

static const struct {
	unsigned int bit;
	const char *name;
} feature_names[] = {
	{ PPU_CAP_FEATURES_COPY_ENGINE__LSB, "COPY_ENGINE" },
	{ PPU_CAP_FEATURES_COMPUTE_ENGINE__LSB, "COMPUTE_ENGINE" },
	{ PPU_CAP_FEATURES_SYS_APERTURE__LSB, "SYS_APERTURE" },
	{ PPU_CAP_FEATURES_SEM_TIMESTAMP__LSB, "SEM_TIMESTAMP" },
	{ PPU_CAP_FEATURES_PRIO_SCHED__LSB, "PRIO_SCHED" },
	{ PPU_CAP_FEATURES_DEV_LAUNCH__LSB, "DEV_LAUNCH" },
	{ PPU_CAP_FEATURES_AUTO_PUT__LSB, "AUTO_PUT" },
	{ PPU_CAP_FEATURES_COMPUTE_COPY__LSB, "COMPUTE_COPY" },
	{ PPU_CAP_FEATURES_INV_DRAIN__LSB, "INV_DRAIN" },
	{ PPU_CAP_FEATURES_ENGINE_RESET__LSB, "ENGINE_RESET" },
	{ PPU_CAP_FEATURES_COMPUTE_RESET__LSB, "COMPUTE_RESET" },
	{ PPU_CAP_FEATURES_USER_DOORBELL__LSB, "USER_DOORBELL" },
	{ PPU_CAP_FEATURES_RUNLIST__LSB, "RUNLIST" },
};

static const struct {
	unsigned int param;
	const char *name;
} params[] = {
	{ DRM_PPU_PARAM_VERSION, "VERSION" },
	{ DRM_PPU_PARAM_NUM_CHANNELS, "NUM_CHANNELS" },
	{ DRM_PPU_PARAM_NUM_CU, "NUM_CU" },
	{ DRM_PPU_PARAM_NUM_TASK_SLOTS, "NUM_TASK_SLOTS" },
	{ DRM_PPU_PARAM_NUM_PRIORITIES, "NUM_PRIORITIES" },
	{ DRM_PPU_PARAM_COPY_CHUNK_BYTES, "COPY_CHUNK_BYTES" },
	{ DRM_PPU_PARAM_MEM_DATA_BYTES, "MEM_DATA_BYTES" },
	{ DRM_PPU_PARAM_TLB_ENTRIES, "TLB_ENTRIES" },
	{ DRM_PPU_PARAM_COPY_MAX_READS, "COPY_MAX_READS" },
	{ DRM_PPU_PARAM_PB_PREFETCH_BEATS, "PB_PREFETCH_BEATS" },
	{ DRM_PPU_PARAM_FEATURES, "FEATURES" },
	{ DRM_PPU_PARAM_CYCLE_COUNTER, "CYCLE_COUNTER" },
	{ DRM_PPU_PARAM_LOCAL_MEM_SIZE, "LOCAL_MEM_SIZE" },
	{ DRM_PPU_PARAM_NUM_USER_CHANNELS, "NUM_USER_CHANNELS" },
	{ DRM_PPU_PARAM_CU_CONTEXTS, "CU_CONTEXTS" },
	{ DRM_PPU_PARAM_NUM_TASKS, "NUM_TASKS" },
	{ DRM_PPU_PARAM_MAX_CTA_THREADS, "MAX_CTA_THREADS" },
	{ DRM_PPU_PARAM_ICACHE_BYTES, "ICACHE_BYTES" },
	{ DRM_PPU_PARAM_TASK_BLOCK_HEADER_BYTES, "TASK_BLOCK_HEADER_BYTES" },
	{ DRM_PPU_PARAM_THREAD_RECORD_BYTES, "THREAD_RECORD_BYTES" },
	{ DRM_PPU_PARAM_CHAN_CACHE, "CHAN_CACHE" },
};

#define NUM_PARAMS (sizeof(params) / sizeof(params[0]))

struct options {
	const char *only;
	bool map_bar;
	bool json;
	long loop_ms;		/* 0: one sample */
	long count;		/* samples with -l, 0: until interrupted */
};

/* The live view of one device, from debugfs; what could not be read says why in @err. */
struct live {
	char dir[64];
	char err[256];
	int nchan;
	struct smi_chan chans[SMI_MAX_CHANNELS];
	bool faults_ok;
	uint64_t faults_total;
	int nfault;
	struct smi_fault faults[SMI_MAX_FAULTS];
	int ncounter;
	struct smi_counter counters[SMI_MAX_COUNTERS];
	bool lmem_ok;
	struct smi_lmem lmem;
};

static volatile sig_atomic_t stop;

static void print_features(uint64_t features)
{
	size_t i;

	for (i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++)
		if (features & (1ull << feature_names[i].bit))
			printf(" %s", feature_names[i].name);
}

static void bdf_string(const struct pci_device *dev, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%u", dev->domain, dev->bus, dev->dev,
		 dev->func);
}

/* Name of the bound driver, or "" when none. */
static void bound_driver(const char *bdf, char *buf, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	const char *slash;

	buf[0] = '\0';
	snprintf(path, sizeof(path), SYSFS_PCI "/%s/driver", bdf);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return;
	target[n] = '\0';
	slash = strrchr(target, '/');
	snprintf(buf, len, "%s", slash ? slash + 1 : target);
}

/* /dev/dri/renderD<N> of the device, or "" when it has none. */
static void render_node(const char *bdf, char *buf, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;

	buf[0] = '\0';
	snprintf(path, sizeof(path), SYSFS_PCI "/%s/drm", bdf);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (!strncmp(de->d_name, "renderD", 7)) {
			snprintf(buf, len, "/dev/dri/%s", de->d_name);
			break;
		}
	}
	closedir(dir);
}

static void print_bars(const struct pci_device *dev)
{
	int i;

	for (i = 0; i < 6; i++) {
		const struct pci_mem_region *r = &dev->regions[i];

		if (!r->size)
			continue;
		printf("    BAR%d       %s 0x%0*" PRIx64 "  ", i, r->is_IO ? "io " : "mem",
		       r->is_64 ? 16 : 8, (uint64_t)r->base_addr);
		if (r->size >= 1 << 20)
			printf("%" PRIu64 " MiB", (uint64_t)r->size >> 20);
		else if (r->size >= 1 << 10)
			printf("%" PRIu64 " KiB", (uint64_t)r->size >> 10);
		else
			printf("%" PRIu64 " B", (uint64_t)r->size);
		if (!r->is_IO)
			printf(", %s, %s", r->is_64 ? "64-bit" : "32-bit",
			       r->is_prefetchable ? "prefetchable" : "non-prefetchable");
		printf("\n");
	}
}

static const char *map_failure(int err, const char *driver)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return geteuid() ? "reading BAR0 needs root" :
				   "the kernel refused access (lockdown?)";
	case EINVAL:
	case EBUSY:
		if (driver[0])
			return "the kernel does not map a BAR that a driver has claimed "
			       "(CONFIG_IO_STRICT_DEVMEM)";
		return "the kernel refused the mapping";
	case ENOENT:
		return "no sysfs resource0 file for BAR0";
	default:
		return strerror(err);
	}
}

static uint32_t rd(const volatile uint32_t *regs, unsigned int reg)
{
	return regs[reg / 4];
}

static void print_registers(struct pci_device *dev, const char *driver)
{
	const struct pci_mem_region *bar0 = &dev->regions[0];
	uint64_t size = bar0->size < PPU_BAR0_SIZE ? bar0->size : PPU_BAR0_SIZE;
	const volatile uint32_t *regs;
	uint32_t id, version, hi, lo, hi2, features;
	void *map = NULL;
	size_t i;
	int err;

	if (!bar0->size || bar0->is_IO) {
		printf("  registers: BAR0 is not a memory BAR\n");
		return;
	}
	err = pci_device_map_range(dev, bar0->base_addr, size, 0, &map);
	if (err) {
		printf("  registers: BAR0 not mapped: %s\n", map_failure(err, driver));
		return;
	}
	regs = map;

	id = rd(regs, PPU_REG_ID);
	version = rd(regs, PPU_REG_VERSION);
	printf("  registers (BAR0, read-only):\n");
	printf("    %-24s 0x%08x%s\n", "ID", id,
	       id == PPU_ID_VALUE ? " (PPU1)" : " (unexpected: not a PPU, or no answer)");
	printf("    %-24s %u.%u\n", "VERSION", PPU_FGET(PPU_VERSION_MAJOR, version),
	       PPU_FGET(PPU_VERSION_MINOR, version));
	if (id == PPU_ID_VALUE) {
		for (i = 0; i < sizeof(cap_regs) / sizeof(cap_regs[0]); i++)
			printf("    %-24s %u\n", cap_regs[i].name, rd(regs, cap_regs[i].reg));
		features = rd(regs, PPU_REG_CAP_FEATURES);
		printf("    %-24s 0x%08x", "CAP_FEATURES", features);
		print_features(features);
		printf("\n");
		printf("    %-24s 0x%08x\n", "INTR_STATUS", rd(regs, PPU_REG_INTR_STATUS));
		printf("    %-24s 0x%08x\n", "INTR_ENABLE", rd(regs, PPU_REG_INTR_ENABLE));
		hi = rd(regs, PPU_REG_CYCLE_HI);
		lo = rd(regs, PPU_REG_CYCLE_LO);
		hi2 = rd(regs, PPU_REG_CYCLE_HI);
		if (hi2 != hi)
			lo = rd(regs, PPU_REG_CYCLE_LO);
		printf("    %-24s %" PRIu64 "\n", "CYCLE", ((uint64_t)hi2 << 32) | lo);
	}
	pci_device_unmap_range(dev, map, size);
}

/* GET_PARAM of every entry of params[]: 0 and the values, or -errno of the open. */
static int read_params(const char *node, uint64_t *val, int *err)
{
	struct drm_ppu_get_param gp;
	size_t i;
	int fd;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (i = 0; i < NUM_PARAMS; i++) {
		memset(&gp, 0, sizeof(gp));
		gp.param = params[i].param;
		err[i] = ioctl(fd, DRM_IOCTL_PPU_GET_PARAM, &gp) ? errno : 0;
		val[i] = gp.value;
	}
	close(fd);
	return 0;
}

static void print_params(const char *node)
{
	uint64_t val[NUM_PARAMS];
	int err[NUM_PARAMS];
	size_t i;
	int ret = read_params(node, val, err);

	if (ret) {
		printf("  driver parameters: cannot open %s: %s\n", node, strerror(-ret));
		return;
	}
	printf("  driver parameters (DRM_IOCTL_PPU_GET_PARAM on %s):\n", node);
	for (i = 0; i < NUM_PARAMS; i++) {
		if (err[i]) {
			printf("    %-24s error: %s\n", params[i].name, strerror(err[i]));
		} else if (params[i].param == DRM_PPU_PARAM_VERSION) {
			printf("    %-24s %u.%u\n", params[i].name,
			       PPU_FGET(PPU_VERSION_MAJOR, val[i]),
			       PPU_FGET(PPU_VERSION_MINOR, val[i]));
		} else if (params[i].param == DRM_PPU_PARAM_FEATURES) {
			printf("    %-24s 0x%08" PRIx64, params[i].name, val[i]);
			print_features(val[i]);
			printf("\n");
		} else {
			printf("    %-24s %" PRIu64 "\n", params[i].name, val[i]);
		}
	}
}

/* ---- the live view (debugfs) ---- */

/* Reads dri/<minor>/<file> whole: 0, or -errno. */
static int debugfs_read(const struct live *lv, const char *file, char *buf, size_t len)
{
	char path[128];
	size_t got = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", lv->dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* seq_file hands out at most a page per read */
	while (got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			n = -errno;
			close(fd);
			return (int)n;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = 0;
	return 0;
}

/* Why debugfs cannot be read at all, or NULL when it can be tried. */
static const char *debugfs_missing(void)
{
	struct statfs sf;

	if (statfs(DEBUGFS, &sf) || (unsigned long)sf.f_type != DEBUGFS_MAGIC_NUMBER)
		return "debugfs is not mounted at " DEBUGFS
		       " (mount -t debugfs none " DEBUGFS ")";
	if (access(DEBUGFS, X_OK))
		return geteuid() ? "reading debugfs needs root" :
				   "debugfs is not accessible";
	return NULL;
}

static void live_note(struct live *lv, const char *what, int err)
{
	size_t n = strlen(lv->err);

	snprintf(lv->err + n, sizeof(lv->err) - n, "%s%s: %s", n ? "; " : "", what,
		 err == -EACCES || err == -EPERM ? "needs root" : strerror(-err));
}

/* Everything the driver's debugfs says about the device behind @node. */
static void read_live(const char *node, struct live *lv)
{
	/* (the channels file has a line of some 80 bytes per channel in use) */
	static char buf[SMI_MAX_CHANNELS * 96];
	const char *minor = strstr(node, "renderD"), *missing;
	int ret;

	memset(lv, 0, sizeof(*lv));
	lv->nchan = -1;
	lv->ncounter = -1;
	missing = debugfs_missing();
	if (missing) {
		snprintf(lv->err, sizeof(lv->err), "%s", missing);
		return;
	}
	if (!minor) {
		snprintf(lv->err, sizeof(lv->err), "no render node");
		return;
	}
	snprintf(lv->dir, sizeof(lv->dir), DEBUGFS "/dri/%s", minor + 7);

	ret = debugfs_read(lv, "channels", buf, sizeof(buf));
	if (!ret) {
		lv->nchan = smi_parse_channels(buf, lv->chans, SMI_MAX_CHANNELS);
		if (lv->nchan < 0)
			live_note(lv, "channels", -ENODEV);
	} else {
		live_note(lv, "channels", ret);
	}
	ret = debugfs_read(lv, "faults", buf, sizeof(buf));
	if (!ret) {
		lv->nfault = smi_parse_faults(buf, &lv->faults_total, lv->faults, SMI_MAX_FAULTS);
		lv->faults_ok = lv->nfault >= 0;
		if (!lv->faults_ok)
			lv->nfault = 0;
	} else {
		live_note(lv, "faults", ret);
	}
	ret = debugfs_read(lv, "counters", buf, sizeof(buf));
	if (!ret)
		lv->ncounter = smi_parse_values(buf, lv->counters, SMI_MAX_COUNTERS);
	else
		live_note(lv, "counters", ret);
	ret = debugfs_read(lv, "local_mem", buf, sizeof(buf));
	if (!ret)
		lv->lmem_ok = !smi_parse_lmem(buf, &lv->lmem);
	else
		live_note(lv, "local_mem", ret);
}

static void print_bytes(uint64_t b)
{
	if (b >= 1ull << 20)
		printf("%.1f MiB", (double)b / (1 << 20));
	else if (b >= 1 << 10)
		printf("%.1f KiB", (double)b / (1 << 10));
	else
		printf("%" PRIu64 " B", b);
}

static void print_live(const struct live *lv)
{
	int i;

	if (lv->dir[0])
		printf("  live view (%s):\n", lv->dir);
	if (lv->err[0])
		printf("  live view incomplete: %s\n", lv->err);
	if (lv->nchan >= 0) {
		printf("    channels: %d in use\n", lv->nchan);
		if (lv->nchan)
			printf("      %4s %-8s %-7s %4s %-12s %8s %8s %-4s %5s %s\n", "chid", "owner",
			       "engine", "prio", "state", "gp_get", "gp_put", "dead", "tasks",
			       "fault");
		for (i = 0; i < lv->nchan; i++) {
			const struct smi_chan *c = &lv->chans[i];
			char owner[16], tasks[16];

			if (c->pid < 0)
				snprintf(owner, sizeof(owner), "kernel");
			else
				snprintf(owner, sizeof(owner), "%d", c->pid);
			if (c->tasks < 0)
				snprintf(tasks, sizeof(tasks), "-");
			else
				snprintf(tasks, sizeof(tasks), "%d", c->tasks);
			printf("      %4u %-8s %-7s %4u %-12s %8" PRIu32 " %8" PRIu32 " %-4s %5s %s\n",
			       c->chid, owner, c->engine, c->priority, c->state, c->gp_get,
			       c->gp_put, c->dead ? "yes" : "no", tasks,
			       c->fault[0] ? c->fault : "-");
		}
	}
	if (lv->faults_ok) {
		printf("    faults: %" PRIu64 " since the driver loaded", lv->faults_total);
		if (lv->nfault)
			printf(", the last %d:\n      %-16s %4s %-8s %-9s %-16s %-10s %s\n",
			       lv->nfault, "time_ns", "chid", "pid", "unit", "kind", "addr", "data");
		else
			printf("\n");
		for (i = 0; i < lv->nfault; i++) {
			const struct smi_fault *f = &lv->faults[i];

			printf("      %-16" PRIu64 " %4u %-8d %-9s %-16s 0x%08" PRIx32 " 0x%08" PRIx32 "\n",
			       f->time_ns, f->chid, f->pid, f->unit_name, f->kind_name, f->addr,
			       f->data);
		}
	}
	if (lv->ncounter >= 0) {
		printf("    counters:");
		for (i = 0; i < lv->ncounter; i++)
			printf("%s%-24s %*" PRIu64, i % 3 ? " " : "\n      ", lv->counters[i].name,
			       i % 3 == 2 || i == lv->ncounter - 1 ? 0 : -14,
			       lv->counters[i].value);
		printf("\n");
	}
	if (lv->lmem_ok) {
		printf("    local memory: ");
		if (!lv->lmem.managed_bytes)
			printf("none\n");
		else if (!lv->lmem.used_known)
			printf("%" PRIu64 " MiB, use not reported by this driver\n",
			       lv->lmem.managed_bytes >> 20);
		else {
			print_bytes(lv->lmem.used_bytes);
			printf(" of ");
			print_bytes(lv->lmem.managed_bytes);
			printf(" used (%.1f%%) by %" PRIu64 " buffer object%s\n",
			       100.0 * (double)lv->lmem.used_bytes / (double)lv->lmem.managed_bytes,
			       lv->lmem.bos, lv->lmem.bos == 1 ? "" : "s");
		}
	}
}

/* ---- JSON ---- */

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void json_key(const char *k, bool *first)
{
	if (!*first)
		putchar(',');
	*first = false;
	json_str(k);
	putchar(':');
}

static void json_params(const char *node)
{
	uint64_t val[NUM_PARAMS];
	int err[NUM_PARAMS];
	bool first = true;
	size_t i;

	if (read_params(node, val, err)) {
		printf("null");
		return;
	}
	putchar('{');
	for (i = 0; i < NUM_PARAMS; i++) {
		if (err[i])
			continue;
		json_key(params[i].name, &first);
		printf("%" PRIu64, val[i]);
	}
	putchar('}');
}

static void json_live(const struct live *lv)
{
	bool first;
	int i;

	printf(",\"debugfs\":");
	if (lv->dir[0])
		json_str(lv->dir);
	else
		printf("null");
	printf(",\"channels\":");
	if (lv->nchan < 0) {
		printf("null");
	} else {
		putchar('[');
		for (i = 0; i < lv->nchan; i++) {
			const struct smi_chan *c = &lv->chans[i];

			printf("%s{\"chid\":%u,\"owner\":", i ? "," : "", c->chid);
			if (c->pid < 0)
				printf("\"kernel\",\"pid\":null");
			else
				printf("\"process\",\"pid\":%d", c->pid);
			printf(",\"engine\":");
			json_str(c->engine);
			printf(",\"priority\":%u,\"state\":", c->priority);
			json_str(c->state);
			printf(",\"gp_get\":%" PRIu32 ",\"gp_put\":%" PRIu32 ",\"dead\":%s",
			       c->gp_get, c->gp_put, c->dead ? "true" : "false");
			if (c->tasks < 0)
				printf(",\"tasks\":null");
			else
				printf(",\"tasks\":%d", c->tasks);
			printf(",\"fault\":");
			if (c->fault[0])
				json_str(c->fault);
			else
				printf("null");
			putchar('}');
		}
		putchar(']');
	}
	printf(",\"faults\":");
	if (!lv->faults_ok) {
		printf("null");
	} else {
		printf("{\"total\":%" PRIu64 ",\"recent\":[", lv->faults_total);
		for (i = 0; i < lv->nfault; i++) {
			const struct smi_fault *f = &lv->faults[i];

			printf("%s{\"time_ns\":%" PRIu64 ",\"chid\":%u,\"pid\":%d,\"unit\":",
			       i ? "," : "", f->time_ns, f->chid, f->pid);
			json_str(f->unit_name);
			printf(",\"kind\":");
			json_str(f->kind_name);
			printf(",\"unit_code\":%u,\"kind_code\":%u,\"access\":%u,\"addr\":%" PRIu32
			       ",\"data\":%" PRIu32 "}", f->unit, f->kind, f->access, f->addr, f->data);
		}
		printf("]}");
	}
	printf(",\"counters\":");
	if (lv->ncounter < 0) {
		printf("null");
	} else {
		first = true;
		putchar('{');
		for (i = 0; i < lv->ncounter; i++) {
			json_key(lv->counters[i].name, &first);
			printf("%" PRIu64, lv->counters[i].value);
		}
		putchar('}');
	}
	printf(",\"local_mem\":");
	if (!lv->lmem_ok)
		printf("null");
	else if (lv->lmem.used_known)
		printf("{\"total_bytes\":%" PRIu64 ",\"used_bytes\":%" PRIu64 ",\"bos\":%" PRIu64 "}",
		       lv->lmem.managed_bytes, lv->lmem.used_bytes, lv->lmem.bos);
	else
		printf("{\"total_bytes\":%" PRIu64 ",\"used_bytes\":null,\"bos\":null}",
		       lv->lmem.managed_bytes);
}

/* ---- one sample of every device ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ppu-smi [-s DOMAIN:BUS:DEV.FN] [-n] [--json] [-l MS [-c COUNT]]\n"
		"List PPUs (PCI %04x:%04x): address, BARs, driver, render node, their\n"
		"identity and capability registers, and, from the driver's debugfs, the\n"
		"channels, recent faults, performance counters and local-memory use.\n"
		"  -s BDF          only this device\n"
		"  -n              do not map BAR0 (registers come from the driver only)\n"
		"  -j, --json      one JSON object per sample, on one line (no BAR0)\n"
		"  -l, --loop MS   sample every MS milliseconds until interrupted\n"
		"  -c, --count N   with -l: stop after N samples\n"
		"  -h, --help      this text\n"
		"The live view needs ppu.ko bound, root and debugfs mounted at %s;\n"
		"without them ppu-smi says what is missing and shows the rest.\n"
		"Exit status: 0 when a PPU was listed, 1 when none, 2 on errors.\n",
		PPU_PCI_VENDOR_ID, PPU_PCI_DEVICE_ID, DEBUGFS);
}

/* Prints one sample: the number of devices listed, or -1 on an error. */
static int sample(const struct options *opt, unsigned long seq)
{
	struct pci_id_match match = {
		.vendor_id = PPU_PCI_VENDOR_ID,
		.device_id = PPU_PCI_DEVICE_ID,
		.subvendor_id = PCI_MATCH_ANY,
		.subdevice_id = PCI_MATCH_ANY,
	};
	struct pci_device_iterator *iter;
	struct pci_device *dev;
	struct timespec now;
	int found = 0, err;

	iter = pci_id_match_iterator_create(&match);
	if (!iter) {
		fprintf(stderr, "ppu-smi: out of memory\n");
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	if (opt->json)
		printf("{\"sample\":%lu,\"time_ms\":%" PRIu64 ",\"devices\":[", seq,
		       (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000);
	else if (opt->loop_ms)
		printf("==== sample %lu, %" PRIu64 ".%03ld s\n", seq, (uint64_t)now.tv_sec,
		       now.tv_nsec / 1000000);

	while ((dev = pci_device_next(iter))) {
		char bdf[32], driver[PATH_MAX], node[PATH_MAX];
		bool bound;
		/* (one device at a time; a channel table of 4096 is no stack variable) */
		static struct live lv;

		bdf_string(dev, bdf, sizeof(bdf));
		if (opt->only && strcmp(opt->only, bdf) && strcmp(opt->only, bdf + 5))
			continue;
		err = pci_device_probe(dev);
		bound_driver(bdf, driver, sizeof(driver));
		render_node(bdf, node, sizeof(node));
		bound = node[0] && !strcmp(driver, "ppu");
		if (bound)
			read_live(node, &lv);

		if (opt->json) {
			printf("%s{\"index\":%d,\"bdf\":\"%s\",\"vendor_id\":%u,\"device_id\":%u,"
			       "\"revision\":%u,\"driver\":", found ? "," : "", found, bdf,
			       dev->vendor_id, dev->device_id, dev->revision);
			if (driver[0])
				json_str(driver);
			else
				printf("null");
			printf(",\"render_node\":");
			if (node[0])
				json_str(node);
			else
				printf("null");
			printf(",\"params\":");
			if (bound)
				json_params(node);
			else
				printf("null");
			if (bound) {
				json_live(&lv);
			} else {
				printf(",\"debugfs\":null,\"channels\":null,\"faults\":null,"
				       "\"counters\":null,\"local_mem\":null");
			}
			printf(",\"errors\":");
			if (!bound)
				json_str("ppu.ko is not bound: no driver parameters, no live view");
			else if (lv.err[0])
				json_str(lv.err);
			else
				printf("null");
			putchar('}');
			found++;
			continue;
		}

		printf("ppu%d  %s  [%04x:%04x] rev %02x class %06x\n", found, bdf,
		       dev->vendor_id, dev->device_id, dev->revision, dev->device_class);
		if (err)
			printf("    BARs       unknown: %s\n", strerror(err));
		else
			print_bars(dev);
		printf("    driver     %s\n", driver[0] ? driver : "(none)");
		printf("    render     %s\n", node[0] ? node : "(none)");
		if (!opt->map_bar)
			printf("  registers: not mapped (-n)\n");
		else if (!err)
			print_registers(dev, driver);
		if (bound) {
			print_params(node);
			print_live(&lv);
		} else {
			printf("  live view: ppu.ko is not bound to this device\n");
		}
		found++;
	}
	pci_iterator_destroy(iter);
	if (opt->json)
		printf("]}\n");
	if (opt->json && !found)
		fprintf(stderr, "ppu-smi: no PPU (PCI %04x:%04x) found\n", PPU_PCI_VENDOR_ID,
			PPU_PCI_DEVICE_ID);
	else if (!found)
		printf("no PPU (PCI %04x:%04x) found\n", PPU_PCI_VENDOR_ID, PPU_PCI_DEVICE_ID);
	fflush(stdout);
	return found;
}

static void on_signal(int sig)
{
	stop = 1;
}

static long parse_count(const char *arg, const char *what, long min)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < min) {
		fprintf(stderr, "ppu-smi: %s: expected a number >= %ld, got '%s'\n", what, min, arg);
		exit(2);
	}
	return v;
}

/* Sleeps until @next (CLOCK_MONOTONIC), woken early by a signal. */
static void sleep_until(const struct timespec *next)
{
	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "loop", required_argument, NULL, 'l' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct options opt = { .map_bar = true };
	struct sigaction sa = { .sa_handler = on_signal };
	struct timespec next;
	unsigned long seq;
	int opt_c, err, found = 0;

	while ((opt_c = getopt_long(argc, argv, "s:njl:c:h", longopts, NULL)) != -1) {
		switch (opt_c) {
		case 's':
			opt.only = optarg;
			break;
		case 'n':
			opt.map_bar = false;
			break;
		case 'j':
			opt.json = true;
			break;
		case 'l':
			opt.loop_ms = parse_count(optarg, "-l/--loop", 1);
			break;
		case 'c':
			opt.count = parse_count(optarg, "-c/--count", 1);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ppu-smi: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (opt.count && !opt.loop_ms) {
		fprintf(stderr, "ppu-smi: -c/--count needs -l/--loop\n");
		return 2;
	}
	/* JSON is the driver's view: no BAR0 mapping, which needs more than reading. */
	if (opt.json)
		opt.map_bar = false;

	err = pci_system_init();
	if (err) {
		fprintf(stderr, "ppu-smi: cannot scan PCI devices: %s\n", strerror(err));
		return 2;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (seq = 0; !stop; seq++) {
		int n = sample(&opt, seq);

		if (n < 0) {
			pci_system_cleanup();
			return 2;
		}
		found = n > found ? n : found;
		if (!opt.loop_ms || (opt.count && seq + 1 >= (unsigned long)opt.count))
			break;
		next.tv_sec += opt.loop_ms / 1000;
		next.tv_nsec += (opt.loop_ms % 1000) * 1000000;
		if (next.tv_nsec >= 1000000000) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000;
		}
		sleep_until(&next);
	}
	pci_system_cleanup();
	return found ? 0 : 1;
}
