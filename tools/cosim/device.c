// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: the device process (see device.h).
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device.h"

const char *device_binary(const struct opts *o)
{
	static char path[PATH_MAX + 32];
	const char *name = o->fpga ? "ppu-cosim-dev-fpga" : "ppu-cosim-dev";
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (o->dev)
		return o->dev;
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(path, sizeof(path), "%s/../cosim/%s", exe, name);
			if (!access(path, X_OK))
				return path;
			snprintf(path, sizeof(path), "%s/%s", exe, name);
			if (!access(path, X_OK))
				return path;
		}
	}
	return name;	/* from PATH */
}

char *device_file(const char *path, int index, int n)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');

	if (n <= 1)
		return xstrdup(path);
	/* A leading dot names a hidden file, not an extension. */
	if (!dot || dot == base)
		return xasprintf("%s-ppu%d", path, index);
	return xasprintf("%.*s-ppu%d%s", (int)(dot - path), path, index, dot);
}

void device_argv(struct strv *argv, const char *bin, const struct opts *o,
		 int index, int fd, const char *qtest_sock)
{
	strv_push(argv, (char *)bin);
	strv_push(argv, xasprintf("--fd=%d", fd));
	strv_push(argv, xasprintf("--qtest=%s", qtest_sock));
	strv_push(argv, "--stats");
	if (o->devices > 1)
		strv_push(argv, xasprintf("--name=ppu%d", index));
	if (o->trace)
		strv_push(argv, xasprintf("--trace=%s",
					  device_file(o->trace, index, o->devices)));
	if (o->fst)
		strv_push(argv, xasprintf("--fst=%s",
					  device_file(o->fst, index, o->devices)));
	for (size_t i = 0; i < o->dev_args.n; i++)
		strv_push(argv, o->dev_args.v[i]);
}

int device_wait(pid_t pid, double secs)
{
	double end = now_s() + secs;
	int status;

	while (now_s() < end) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(20000);
	}
	kill(pid, SIGTERM);
	usleep(500000);
	if (waitpid(pid, &status, WNOHANG) != pid) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	return -1;
}
