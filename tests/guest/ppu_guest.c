// SPDX-License-Identifier: MIT
/*
 * Helpers for the guest tests of ppu.ko; see ppu_guest.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "ppu/ppu_hw.h"
#include "ppu_guest.h"
#include "ppu_node.h"

#define DEBUGFS_ROOT "/sys/kernel/debug"

int ppu_fd = -1;
char ppu_node[288];	/* "/dev/dri/" + d_name */

void ppu_guest_setup(void)
{
	ppu_fd = ppu_open_render_node(ppu_node, sizeof(ppu_node));
	ck_assert_msg(ppu_fd >= 0, "no render node of driver \"ppu\" in /dev/dri "
		      "(is ppu.ko loaded and bound to the PPU?)");
}

int ppu_client_open(void)
{
	int fd = open(ppu_node, O_RDWR | O_CLOEXEC);

	ck_assert_msg(fd >= 0, "open %s: %s", ppu_node, strerror(errno));
	return fd;
}

void ppu_guest_teardown(void)
{
	if (ppu_fd >= 0)
		close(ppu_fd);
	ppu_fd = -1;
}

void ppu_guest_setup_unlimited(void)
{
	ppu_guest_setup();
	ppu_module_params_reset();
	ppu_module_param_set("max_channels_per_file", 4096);
	ppu_module_param_set("lmem_mib_per_file", 1ul << 20);
}

void ppu_guest_teardown_unlimited(void)
{
	ppu_module_param_set("max_channels_per_file", 0);
	ppu_module_param_set("lmem_mib_per_file", 0);
	ppu_guest_teardown();
}

int ppu_get_param(uint32_t param, uint32_t pad, uint64_t *value)
{
	struct drm_ppu_get_param gp;
	int ret;

	memset(&gp, 0, sizeof(gp));
	gp.param = param;
	gp.pad = pad;
	do {
		ret = ioctl(ppu_fd, DRM_IOCTL_PPU_GET_PARAM, &gp);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	if (ret)
		return -errno;
	*value = gp.value;
	return 0;
}

uint64_t ppu_param(uint32_t param)
{
	uint64_t v = 0;
	int ret = ppu_get_param(param, 0, &v);

	ck_assert_msg(ret == 0, "GET_PARAM %u failed: %s", param, strerror(-ret));
	return v;
}

/* A whole number from the environment variable @name, @def without it. */
static unsigned long env_count(const char *name, unsigned long def, unsigned long max)
{
	const char *env = getenv(name);
	char *end;
	unsigned long v;

	if (!env || !*env)
		return def;
	v = strtoul(env, &end, 0);
	ck_assert_msg(*end == '\0' && v > 0 && v <= max, "%s=%s: not a number 1..%lu", name,
		      env, max);
	return v;
}

uint64_t ppu_guest_local_mem_mib(void)
{
	return env_count("PPU_TEST_LOCAL_MEM_MIB", 64, 0xffff);
}

uint32_t ppu_guest_num_channels(void)
{
	return (uint32_t)env_count("PPU_TEST_NUM_CHANNELS", 16, 4096);
}

static int debugfs_open(const char *file, int flags, char *path, size_t len)
{
	struct stat st;
	int fd;

	ck_assert_int_eq(fstat(ppu_fd, &st), 0);
	snprintf(path, len, DEBUGFS_ROOT "/dri/%u/%s", minor(st.st_rdev), file);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		/* A bare initramfs has not mounted debugfs: do it (root). */
		mount("debugfs", DEBUGFS_ROOT, "debugfs", 0, NULL);
		fd = open(path, flags | O_CLOEXEC);
	}
	ck_assert_msg(fd >= 0, "cannot open %s: %s", path, strerror(errno));
	return fd;
}

size_t ppu_debugfs_read(const char *file, char *buf, size_t len)
{
	char path[128];
	size_t got = 0;
	ssize_t n;
	int fd = debugfs_open(file, O_RDONLY, path, sizeof(path));

	/* seq_file hands out at most a page per read. */
	while (got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		ck_assert_msg(n >= 0, "cannot read %s: %s", path, strerror(errno));
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	ck_assert_msg(got > 0, "%s is empty", path);
	ck_assert_msg(got < len - 1, "%s is longer than %zu bytes", path, len - 1);
	buf[got] = '\0';
	return got;
}

int ppu_debugfs_write(const char *file, const char *text)
{
	char path[128];
	int fd = debugfs_open(file, O_WRONLY, path, sizeof(path));
	ssize_t n = write(fd, text, strlen(text));
	int ret = n < 0 ? -errno : 0;

	close(fd);
	return ret;
}

/* The text after "NAME" on the line that starts with it; NULL without one. */
static const char *debugfs_field(const char *text, const char *name)
{
	size_t nlen = strlen(name);
	const char *line = text;

	while (line && *line) {
		if (!strncmp(line, name, nlen) && isspace((unsigned char)line[nlen]))
			return line + nlen;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return NULL;
}

uint64_t ppu_debugfs_value(const char *text, const char *name)
{
	const char *v = debugfs_field(text, name);

	ck_assert_msg(v, "no %s in debugfs output:\n%s", name, text);
	return strtoull(v, NULL, 0);
}

uint64_t ppu_debugfs_value_or(const char *text, const char *name, uint64_t def)
{
	const char *v = debugfs_field(text, name);

	return v ? strtoull(v, NULL, 0) : def;
}

bool ppu_debugfs_list_has(const char *text, const char *name, unsigned int id)
{
	const char *p = debugfs_field(text, name);

	ck_assert_msg(p, "no %s in debugfs output:\n%s", name, text);
	/* "3,5-7": ranges separated by commas, nothing when empty */
	for (;;) {
		unsigned long lo, hi;
		char *end;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			return false;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (id >= lo && id <= hi)
			return true;
		if (*end != ',')
			return false;
		p = end + 1;
	}
}

void ppu_sysfs_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	ck_assert_msg(fd >= 0, "cannot open %s: %s", path, strerror(errno));
	n = write(fd, text, strlen(text));
	ck_assert_msg(n == (ssize_t)strlen(text), "writing %s to %s: %s", text, path,
		      n < 0 ? strerror(errno) : "short write");
	close(fd);
}

void ppu_module_param_set(const char *name, unsigned long value)
{
	char path[128], text[32];

	snprintf(path, sizeof(path), "/sys/module/ppu/parameters/%s", name);
	snprintf(text, sizeof(text), "%lu", value);
	ppu_sysfs_write(path, text);
}

uint32_t ppu_intr_mask_expected(void)
{
	static char text[8192];

	ppu_debugfs_read("interrupts", text, sizeof(text));
	return ppu_debugfs_value(text, "EVENT_RING") ?
		PPU_FMASK(PPU_INTR_EVENT) | PPU_FMASK(PPU_INTR_EVENT_FAULT) :
		PPU_FMASK(PPU_INTR_FAULT) | PPU_FMASK(PPU_INTR_NONSTALL);
}

void ppu_module_params_reset(void)
{
	static const struct {
		const char *name, *value;
	} defaults[] = {
		{ "max_channels_per_file", "0" }, { "lmem_mib_per_file", "0" },
		{ "max_channels_per_user", "0" }, { "lmem_mib_per_user", "0" },
		{ "max_bos_per_file", "16384" }, { "max_sem_pools_per_file", "256" },
		{ "max_fences_per_file", "1024" }, { "watchdog_ms", "30000" },
		{ "irq_nonstall_max_rate", "500" }, { "irq_nonstall_max_cpu", "25" },
	};
	char path[128];
	size_t i;

	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		int fd;

		snprintf(path, sizeof(path), "/sys/module/ppu/parameters/%s", defaults[i].name);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (write(fd, defaults[i].value, strlen(defaults[i].value)) < 0)
			fprintf(stderr, "cannot reset %s: %s\n", path, strerror(errno));
		close(fd);
	}
}

void ppu_drop_effective_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	ck_assert_int_eq(syscall(SYS_capget, &hdr, data), 0);
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	ck_assert_int_eq(syscall(SYS_capset, &hdr, data), 0);
}

/* The render node ppu_node_open_to_all() changed, and its mode before. */
static char open_node_path[288];
static mode_t open_node_mode;

void ppu_node_open_to_all(void)
{
	struct stat st;
	int fd;

	if (open_node_path[0])
		return;
	fd = ppu_open_render_node(open_node_path, sizeof(open_node_path));
	if (fd < 0 || fstat(fd, &st)) {
		open_node_path[0] = '\0';
	} else {
		open_node_mode = st.st_mode & 07777;
		if (chmod(open_node_path, 0666))
			fprintf(stderr, "chmod %s: %s\n", open_node_path, strerror(errno));
	}
	if (fd >= 0)
		close(fd);
}

void ppu_node_restore_mode(void)
{
	if (!open_node_path[0])
		return;
	if (chmod(open_node_path, open_node_mode))
		fprintf(stderr, "chmod %s back: %s\n", open_node_path, strerror(errno));
	open_node_path[0] = '\0';
}

void ppu_become_unprivileged(uid_t uid)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	gid_t groups[1];
	int i;

	ck_assert_msg(ppu_drop_privileges(uid, uid) == 0, "cannot become uid %u: %s",
		      (unsigned int)uid, strerror(errno));
	ck_assert_uint_eq(getuid(), uid);
	ck_assert_uint_eq(geteuid(), uid);
	ck_assert_uint_eq(getgid(), uid);
	ck_assert_uint_eq(getegid(), uid);
	ck_assert_int_eq(getgroups(1, groups), 0);
	ck_assert_int_eq(syscall(SYS_capget, &hdr, data), 0);
	for (i = 0; i < 2; i++)
		ck_assert_msg(!data[i].effective && !data[i].permitted,
			      "uid %u still has capabilities: effective[%d] %#x permitted[%d] %#x",
			      (unsigned int)uid, i, data[i].effective, i, data[i].permitted);
	/* GET_PARAM and the like through a file of this user, not root's. */
	if (ppu_fd >= 0)
		close(ppu_fd);
	ppu_fd = ppu_client_open();
}

pid_t ppu_unpriv_start(uid_t uid, void (*fn)(void *arg), void *arg)
{
	pid_t pid;

	/* (buffered output would be printed twice) */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		ppu_become_unprivileged(uid);
		fn(arg);
		fflush(stdout);
		_exit(0);
	}
	return pid;
}

void ppu_unpriv_wait(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "unprivileged child %d: status %#x", (int)pid, status);
}

void ppu_unpriv_run(uid_t uid, void (*fn)(void *arg), void *arg)
{
	ppu_unpriv_wait(ppu_unpriv_start(uid, fn, arg));
}

/* PCI address of the device behind the open render node. */
void ppu_render_node_bdf(char *bdf, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *node = strrchr(ppu_node, '/') + 1;
	const char *slash;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/drm/%s/device", node);
	n = readlink(link, target, sizeof(target) - 1);
	ck_assert_msg(n > 0, "cannot read %s: %s", link, strerror(errno));
	target[n] = '\0';
	slash = strrchr(target, '/');
	snprintf(bdf, len, "%s", slash ? slash + 1 : target);
}
