// SPDX-License-Identifier: MIT
/*
 * Finding PPUs: libdrm's device list, filtered by the driver name of each
 * render node.  Devices are numbered by PCI address (then render node):
 * libdrm lists them in the order of /dev/dri's directory entries, which is
 * no order at all, and a program that opens device 1 must get the same
 * PPU every time, the one ppu-smi calls ppu1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include "drm/ppu_drm.h"
#include "ppu_internal.h"

#define MAX_DRM_DEVICES 64

static int is_ppu(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	int yes;

	if (!v)
		return 0;
	yes = v->name && !strcmp(v->name, "ppu");
	drmFreeVersion(v);
	return yes;
}

static int dev_cmp(const void *a, const void *b)
{
	const drmDevicePtr x = *(const drmDevicePtr *)a, y = *(const drmDevicePtr *)b;
	int xp = x->bustype == DRM_BUS_PCI, yp = y->bustype == DRM_BUS_PCI;

	if (xp != yp)
		return yp - xp;
	if (xp) {
		const drmPciBusInfo *u = x->businfo.pci, *v = y->businfo.pci;

		if (u->domain != v->domain)
			return u->domain < v->domain ? -1 : 1;
		if (u->bus != v->bus)
			return u->bus < v->bus ? -1 : 1;
		if (u->dev != v->dev)
			return u->dev < v->dev ? -1 : 1;
		if (u->func != v->func)
			return u->func < v->func ? -1 : 1;
	}
	if (!(x->available_nodes & (1 << DRM_NODE_RENDER)) ||
	    !(y->available_nodes & (1 << DRM_NODE_RENDER)))
		return 0;
	return strcmp(x->nodes[DRM_NODE_RENDER], y->nodes[DRM_NODE_RENDER]);
}

/*
 * Opens the @index-th PPU render node: the fd, -ENODEV when there are
 * fewer, or -errno.  @index < 0 only counts: returns the number of PPUs.
 */
int ppu_dev_open(int index, char *node, size_t len, char *bus, size_t buslen)
{
	drmDevicePtr devs[MAX_DRM_DEVICES];
	int n, i, found = 0, ret = -ENODEV;

	n = drmGetDevices2(0, devs, MAX_DRM_DEVICES);
	if (n < 0)
		return n == -ENOENT ? (index < 0 ? 0 : -ENODEV) : n;
	qsort(devs, (size_t)n, sizeof(devs[0]), dev_cmp);
	for (i = 0; i < n; i++) {
		drmDevicePtr d = devs[i];
		int fd;

		if (!(d->available_nodes & (1 << DRM_NODE_RENDER)))
			continue;
		fd = open(d->nodes[DRM_NODE_RENDER], O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!is_ppu(fd)) {
			close(fd);
			continue;
		}
		if (found++ != index) {
			close(fd);
			continue;
		}
		if (node)
			snprintf(node, len, "%s", d->nodes[DRM_NODE_RENDER]);
		if (bus) {
			if (d->bustype == DRM_BUS_PCI)
				snprintf(bus, buslen, "%04x:%02x:%02x.%u", d->businfo.pci->domain,
					 d->businfo.pci->bus, d->businfo.pci->dev,
					 d->businfo.pci->func);
			else
				snprintf(bus, buslen, "-");
		}
		ret = fd;
		break;
	}
	drmFreeDevices(devs, n);
	return index < 0 ? found : ret;
}

static int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_ppu_get_param gp = { .param = param };
	int ret = ppu_ioctl(fd, DRM_IOCTL_PPU_GET_PARAM, &gp);

	if (!ret)
		*value = gp.value;
	return ret;
}

ppu_status ppu_dev_query(int fd, struct ppu_device_info *info)
{
	static const uint32_t params[] = {
		DRM_PPU_PARAM_VERSION, DRM_PPU_PARAM_NUM_CHANNELS,
		DRM_PPU_PARAM_NUM_USER_CHANNELS, DRM_PPU_PARAM_NUM_PRIORITIES,
		DRM_PPU_PARAM_NUM_CU, DRM_PPU_PARAM_COPY_CHUNK_BYTES,
		DRM_PPU_PARAM_LOCAL_MEM_SIZE, DRM_PPU_PARAM_FEATURES,
	};
	uint64_t v[sizeof(params) / sizeof(params[0])];
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		ret = get_param(fd, params[i], &v[i]);
		if (ret)
			return ppu_fail_errno(-ret, "GET_PARAM %u", params[i]);
	}
	info->version = (uint32_t)v[0];
	info->num_channels = (uint32_t)v[1];
	info->num_user_channels = (uint32_t)v[2];
	/*
	 * M: the task table's device priorities; a PPU without a compute
	 * engine still ranks channels by the same 0..63 priorities.
	 */
	info->num_device_priorities = v[3] ? (uint32_t)v[3] : DRM_PPU_CHAN_PRIORITY_MAX + 1;
	info->num_cu = (uint32_t)v[4];
	info->copy_chunk_bytes = (uint32_t)v[5];
	info->local_mem_bytes = v[6];
	info->features = v[7];
	/*
	 * The compute limits (DRM_PPU_PARAM_CU_CONTEXTS, _MAX_CTA_THREADS):
	 * a driver without them reports no compute, and kernels are refused.
	 */
	info->cu_contexts = get_param(fd, DRM_PPU_PARAM_CU_CONTEXTS, &v[0]) ? 0 : (uint32_t)v[0];
	info->max_cta_threads = get_param(fd, DRM_PPU_PARAM_MAX_CTA_THREADS, &v[0]) ? 0 :
				(uint32_t)v[0];
	return PPU_SUCCESS;
}

ppu_status ppu_device_count(int *count)
{
	int n;

	ppu_clear_error();
	if (!count)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_device_count: NULL count");
	n = ppu_dev_open(-1, NULL, 0, NULL, 0);
	if (n < 0)
		return ppu_fail_errno(-n, "ppu_device_count: drmGetDevices2");
	*count = n;
	return PPU_SUCCESS;
}

ppu_status ppu_device_get_info(int index, struct ppu_device_info *info)
{
	ppu_status st;
	int fd;

	ppu_clear_error();
	if (!info || index < 0)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_device_get_info: bad argument");
	memset(info, 0, sizeof(*info));
	fd = ppu_dev_open(index, info->node, sizeof(info->node), info->pci_bus_id,
			  sizeof(info->pci_bus_id));
	if (fd == -ENODEV)
		return ppu_fail(PPU_ERROR_NO_DEVICE, "ppu_device_get_info: no PPU %d", index);
	if (fd < 0)
		return ppu_fail_errno(-fd, "ppu_device_get_info: opening PPU %d", index);
	st = ppu_dev_query(fd, info);
	close(fd);
	return st;
}
