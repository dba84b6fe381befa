// SPDX-License-Identifier: MIT
/*
 * Finding the PPU's render node; see ppu_node.h.
 */
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "drm/ppu_drm.h"
#include "ppu_node.h"

/* DRM_IOCTL_VERSION names the driver behind @fd. */
static int drm_driver_is(int fd, const char *want)
{
	char name[64] = "";
	struct drm_version v;

	memset(&v, 0, sizeof(v));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	if (ioctl(fd, DRM_IOCTL_VERSION, &v))
		return 0;
	name[sizeof(name) - 1] = '\0';
	if (v.name_len < sizeof(name))
		name[v.name_len] = '\0';
	return !strcmp(name, want);
}

int ppu_open_render_node(char *path, size_t len)
{
	DIR *dir = opendir("/dev/dri");
	char buf[288];
	struct dirent *de;
	int fd = -1;

	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "renderD", 7))
			continue;
		snprintf(buf, sizeof(buf), "/dev/dri/%s", de->d_name);
		fd = open(buf, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (drm_driver_is(fd, "ppu"))
			break;
		close(fd);
		fd = -1;
	}
	closedir(dir);
	if (fd >= 0 && path)
		snprintf(path, len, "%s", buf);
	return fd;
}

int ppu_drop_privileges(uid_t uid, gid_t gid)
{
	/* Groups first: after setuid() there is no right to change them. */
	return setgroups(0, NULL) || setgid(gid) || setuid(uid) ? -1 : 0;
}
