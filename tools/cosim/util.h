/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: helpers every part uses: allocation that cannot fail (a
 * failure ends the run as a setup failure), growing string vectors, the
 * monotonic clock, whole-file reads and running a helper command.
 */
#ifndef COSIM_UTIL_H
#define COSIM_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PROG "ppu-cosim"

/* The runner's exit status; when several apply the highest wins. */
enum {
	EXIT_PASS = 0,
	EXIT_RUN_FAILED = 1,
	EXIT_KERNEL = 2,
	EXIT_TIMEOUT = 3,
	EXIT_INFRA = 4,
};

/* A NULL-terminated, growing vector of strings (not owned unless said). */
struct strv {
	char **v;
	size_t n;
};

/*
 * Prints "ppu-cosim: <message>", runs the hook given to util_on_die()
 * (which stops the child processes and removes the work directory) and
 * exits EXIT_INFRA.
 */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void util_on_die(void (*hook)(void));

void *xmalloc(size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void strv_push(struct strv *s, char *str);
bool strv_has(const struct strv *s, const char *str);

/* CLOCK_MONOTONIC in seconds. */
double now_s(void);
/* The whole file, NUL-terminated (length in *len if set); NULL on error. */
char *read_file(const char *path, size_t *len);
/*
 * Runs argv and waits: its stdout into *out (a malloc'ed string, stderr
 * silenced: such commands are probes) when out is set, else to @outfile
 * when set.  Returns the exit status, 128 when it died of a signal.
 */
int run_cmd(char *const argv[], char **out, const char *outfile);
void rm_rf(const char *path);
/*
 * Starts argv in the background: @keep_fd stays open across exec, and
 * when @out_fd is set it becomes the child's stdout (stdin /dev/null).
 */
pid_t spawn(char *const argv[], int keep_fd, int out_fd);
/* The same with several fds kept open (QEMU takes one socket per PPU). */
pid_t spawn_keep(char *const argv[], const int *keep_fds, unsigned int nkeep,
		 int out_fd);

#endif /* COSIM_UTIL_H */
