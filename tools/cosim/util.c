// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: small helpers (see util.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static void (*die_hook)(void);

void util_on_die(void (*hook)(void))
{
	die_hook = hook;
}

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (die_hook)
		die_hook();
	exit(EXIT_INFRA);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	return s;
}

void strv_push(struct strv *s, char *str)
{
	char **v = realloc(s->v, (s->n + 2) * sizeof(*v));

	if (!v)
		die("out of memory");
	s->v = v;
	s->v[s->n++] = str;
	s->v[s->n] = NULL;
}

bool strv_has(const struct strv *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], str))
			return true;
	return false;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t r;

		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
			if (!buf)
				die("out of memory");
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

int run_cmd(char *const argv[], char **out, const char *outfile)
{
	int pfd[2] = { -1, -1 }, status;
	pid_t pid;

	if (out && pipe2(pfd, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = -1;

		if (out)
			fd = pfd[1];
		else if (outfile)
			fd = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 1);
		if (out) {
			/* Captured commands are probes: keep them quiet. */
			int nul = open("/dev/null", O_WRONLY);

			if (nul >= 0)
				dup2(nul, 2);
		}
		execvp(argv[0], argv);
		fprintf(stderr, PROG ": cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (out) {
		size_t n = 0, cap = 4096;
		ssize_t r;

		close(pfd[1]);
		*out = xmalloc(cap + 1);
		while ((r = read(pfd[0], *out + n, cap - n)) != 0) {
			if (r < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			n += (size_t)r;
			if (n == cap) {
				cap *= 2;
				*out = realloc(*out, cap + 1);
				if (!*out)
					die("out of memory");
			}
		}
		(*out)[n] = 0;
		close(pfd[0]);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

void rm_rf(const char *path)
{
	char *argv[] = { "rm", "-rf", "--", (char *)path, NULL };

	run_cmd(argv, NULL, NULL);
}

pid_t spawn(char *const argv[], int keep_fd, int out_fd)
{
	return spawn_keep(argv, &keep_fd, 1, out_fd);
}

pid_t spawn_keep(char *const argv[], const int *keep_fds, unsigned int nkeep,
		 int out_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid)
		return pid;
	for (unsigned int i = 0; i < nkeep; i++)
		if (keep_fds[i] >= 0)
			fcntl(keep_fds[i], F_SETFD, 0);
	if (out_fd >= 0) {
		int nul = open("/dev/null", O_RDONLY);

		dup2(nul, 0);
		dup2(out_fd, 1);
	}
	execvp(argv[0], argv);
	fprintf(stderr, PROG ": cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}
