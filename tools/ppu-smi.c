/* SPDX-License-Identifier: MIT */
/*
 * ppu-smi: list the PPUs in this machine.
 *
 * For every PCI function with the PPU's vendor/device id: its address, ids,
 * BARs, the driver bound to it and its DRM render node.  Then the PPU's own
 * identity and capability registers, read through a read-only mapping of
 * BAR0 (every PPU register read is free of side effects), and, when ppu.ko
 * is bound, the same values as the driver reports them (GET_PARAM).
 *
 * Mapping BAR0 needs root, and Linux refuses it while a driver has claimed
 * the BAR (CONFIG_IO_STRICT_DEVMEM, as in Debian's kernels); ppu-smi says
 * which of these stood in the way.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <pciaccess.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_hw.h"

#define SYSFS_PCI "/sys/bus/pci/devices"

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
};

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

static void print_params(const char *node)
{
	struct drm_ppu_get_param gp;
	size_t i;
	int fd;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("  driver parameters: cannot open %s: %s\n", node, strerror(errno));
		return;
	}
	printf("  driver parameters (DRM_IOCTL_PPU_GET_PARAM on %s):\n", node);
	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		memset(&gp, 0, sizeof(gp));
		gp.param = params[i].param;
		if (ioctl(fd, DRM_IOCTL_PPU_GET_PARAM, &gp)) {
			printf("    %-24s error: %s\n", params[i].name, strerror(errno));
			continue;
		}
		if (params[i].param == DRM_PPU_PARAM_VERSION) {
			printf("    %-24s %u.%u\n", params[i].name,
			       PPU_FGET(PPU_VERSION_MAJOR, gp.value),
			       PPU_FGET(PPU_VERSION_MINOR, gp.value));
		} else if (params[i].param == DRM_PPU_PARAM_FEATURES) {
			printf("    %-24s 0x%08" PRIx64, params[i].name, (uint64_t)gp.value);
			print_features(gp.value);
			printf("\n");
		} else {
			printf("    %-24s %" PRIu64 "\n", params[i].name, (uint64_t)gp.value);
		}
	}
	close(fd);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ppu-smi [-s DOMAIN:BUS:DEV.FN] [-n]\n"
		"List PPUs (PCI %04x:%04x): address, BARs, driver, render node, and their\n"
		"identity and capability registers.\n"
		"  -s BDF  only this device\n"
		"  -n      do not map BAR0 (registers come from the driver only)\n"
		"Exit status: 0 when a PPU was listed, 1 when none, 2 on errors.\n",
		PPU_PCI_VENDOR_ID, PPU_PCI_DEVICE_ID);
}

int main(int argc, char **argv)
{
	struct pci_id_match match = {
		.vendor_id = PPU_PCI_VENDOR_ID,
		.device_id = PPU_PCI_DEVICE_ID,
		.subvendor_id = PCI_MATCH_ANY,
		.subdevice_id = PCI_MATCH_ANY,
	};
	struct pci_device_iterator *iter;
	struct pci_device *dev;
	const char *only = NULL;
	bool map_bar = true;
	int found = 0;
	int opt, err;

	while ((opt = getopt(argc, argv, "s:nh")) != -1) {
		switch (opt) {
		case 's':
			only = optarg;
			break;
		case 'n':
			map_bar = false;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}

	err = pci_system_init();
	if (err) {
		fprintf(stderr, "ppu-smi: cannot scan PCI devices: %s\n", strerror(err));
		return 2;
	}
	iter = pci_id_match_iterator_create(&match);
	if (!iter) {
		fprintf(stderr, "ppu-smi: out of memory\n");
		pci_system_cleanup();
		return 2;
	}

	while ((dev = pci_device_next(iter))) {
		char bdf[32], driver[PATH_MAX], node[PATH_MAX];

		bdf_string(dev, bdf, sizeof(bdf));
		if (only && strcmp(only, bdf) && strcmp(only, bdf + 5))
			continue;
		err = pci_device_probe(dev);
		bound_driver(bdf, driver, sizeof(driver));
		render_node(bdf, node, sizeof(node));

		printf("ppu%d  %s  [%04x:%04x] rev %02x class %06x\n", found, bdf,
		       dev->vendor_id, dev->device_id, dev->revision, dev->device_class);
		if (err)
			printf("    BARs       unknown: %s\n", strerror(err));
		else
			print_bars(dev);
		printf("    driver     %s\n", driver[0] ? driver : "(none)");
		printf("    render     %s\n", node[0] ? node : "(none)");
		if (!map_bar)
			printf("  registers: not mapped (-n)\n");
		else if (!err)
			print_registers(dev, driver);
		if (node[0] && !strcmp(driver, "ppu"))
			print_params(node);
		found++;
	}

	pci_iterator_destroy(iter);
	pci_system_cleanup();
	if (!found) {
		printf("no PPU (PCI %04x:%04x) found\n", PPU_PCI_VENDOR_ID, PPU_PCI_DEVICE_ID);
		return 1;
	}
	return 0;
}
