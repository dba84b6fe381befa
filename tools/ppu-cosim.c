// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: boots a Linux guest under QEMU (TCG) with the co-simulated PPU
 * attached as a PCI function, runs a batch of commands in it and brings
 * back their results.
 *
 *   ppu-cosim [options] --run 'cmd' [--run 'cmd' ...]
 *
 * One invocation is one boot:
 *   1. builds an initramfs (cpio newc, written here): busybox, drm.ko and
 *      drm_shmem_helper.ko with their dependencies (from modules.dep),
 *      extra modules with theirs (from their .modinfo "depends="), extra
 *      files with the shared libraries they need (ldd), and an /init that
 *      mounts proc/sys/dev/debugfs, loads the modules, runs each command
 *      in order, prints the markers below, dumps the kernel log and powers
 *      off;
 *   2. makes a socketpair, starts ppu-cosim-dev on one end and
 *      qemu-system-x86_64 -device x-pci-proxy-dev,fd=<other end>;
 *   3. relays the serial console, collects the markers, watches for
 *      kernel problems, enforces the timeout.
 *
 * Markers on the serial console (each on its own line):
 *   @@PPU-BOOTED <uptime>          /init started
 *   @@PPU-MODULE-FAIL <path> <rc>  insmod failed (runs are then skipped)
 *   @@PPU-RUN-BEGIN <n>
 *   @@PPU-RESULT <n> <status>      exit status of run n, or "skipped"
 *   @@PPU-DMESG-BEGIN / -END       the kernel log
 *   @@PPU-DONE
 *
 * Exit status: 0 every run exited 0 and the kernel log is clean; 1 a run
 * failed or was skipped; 2 the kernel log shows an oops, BUG, WARNING,
 * lockup, stall or panic; 3 timeout; 4 infrastructure failure (QEMU or the
 * device process failed, the guest never finished).  When several apply
 * the highest is returned.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG "ppu-cosim"

enum {
	EXIT_PASS = 0,
	EXIT_RUN_FAILED = 1,
	EXIT_KERNEL = 2,
	EXIT_TIMEOUT = 3,
	EXIT_INFRA = 4,
};

/* Modules every guest gets, before the ones given with --module. */
static const char *const base_modules[] = { "drm", "drm_shmem_helper" };

/* Kernel log lines that fail the batch. */
static const char *const kernel_problems[] = {
	"Oops", "BUG:", "WARNING:", "Kernel panic", "kernel BUG",
	"general protection fault", "Unable to handle", "soft lockup",
	"hard LOCKUP", "self-detected stall", "detected stalls",
	"blocked for more than", "UBSAN:", "KASAN:", "refcount_t:",
	"list_add corruption", "list_del corruption",
};

struct strv {
	char **v;
	size_t n;
};

struct mod {
	char *path;		/* host path (decompressed copy if needed) */
	char *guest;		/* path inside the initramfs */
	char *params;		/* insmod parameters, may be empty */
};

struct opts {
	const char *kernel;
	const char *kver;
	const char *qemu;
	const char *dev;
	const char *log;
	const char *trace;
	const char *fst;
	const char *append;
	int timeout;
	int mem_mib;
	bool keep;
	bool boot_log;
	bool show_dmesg;
	int verbose;
	struct strv runs;
	struct strv files;	/* "host:guest" */
	struct strv modules;	/* "path.ko [params]" */
	struct strv dev_args;
};

static struct opts o = {
	.qemu = "qemu-system-x86_64",
	.timeout = 300,
	.mem_mib = 512,
};

static char workdir[PATH_MAX];
static volatile sig_atomic_t got_signal;

/* ---- small helpers ------------------------------------------------------ */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2),
						     noreturn));

static void cleanup(void);

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cleanup();
	exit(EXIT_INFRA);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
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

static void strv_push(struct strv *s, char *str)
{
	char **v = realloc(s->v, (s->n + 2) * sizeof(*v));

	if (!v)
		die("out of memory");
	s->v = v;
	s->v[s->n++] = str;
	s->v[s->n] = NULL;
}

static bool strv_has(const struct strv *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], str))
			return true;
	return false;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *read_file(const char *path, size_t *len)
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

/* Runs argv; stdout into *out (if out), else to @outfile (if set). */
static int run_cmd(char *const argv[], char **out, const char *outfile)
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

static void rm_rf(const char *path)
{
	char *argv[] = { "rm", "-rf", "--", (char *)path, NULL };

	run_cmd(argv, NULL, NULL);
}

/* ---- cpio newc writer --------------------------------------------------- */

struct cpio {
	FILE *f;
	const char *path;
	uint32_t ino;
	struct strv names;	/* everything added, to skip duplicates */
};

static void cpio_pad(struct cpio *c)
{
	static const char zero[4];
	long pos = ftell(c->f);

	if (pos & 3)
		fwrite(zero, 1, 4 - (size_t)(pos & 3), c->f);
}

static void cpio_hdr(struct cpio *c, const char *name, uint32_t mode,
		     uint32_t size, uint32_t rmaj, uint32_t rmin)
{
	fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X"
		"%08X%08X", ++c->ino, mode, 0u, 0u,
		S_ISDIR(mode) ? 2u : 1u, 0u, size, 0u, 0u, rmaj, rmin,
		(uint32_t)strlen(name) + 1, 0u);
	fwrite(name, 1, strlen(name) + 1, c->f);
	cpio_pad(c);
}

/* Strips leading slashes; returns false when @name is already there. */
static bool cpio_claim(struct cpio *c, const char **name)
{
	while (**name == '/')
		(*name)++;
	if (!**name || strv_has(&c->names, *name))
		return false;
	strv_push(&c->names, xstrdup(*name));
	return true;
}

static void cpio_dir(struct cpio *c, const char *name);

static void cpio_parents(struct cpio *c, const char *name)
{
	char *dup = xstrdup(name), *slash;

	for (slash = strchr(dup, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		cpio_dir(c, dup);
		*slash = '/';
	}
	free(dup);
}

static void cpio_dir(struct cpio *c, const char *name)
{
	if (!cpio_claim(c, &name))
		return;
	cpio_parents(c, name);
	cpio_hdr(c, name, S_IFDIR | 0755, 0, 0, 0);
}

static void cpio_data(struct cpio *c, const char *name, uint32_t mode,
		      const void *data, size_t len)
{
	if (!cpio_claim(c, &name))
		return;
	cpio_parents(c, name);
	cpio_hdr(c, name, S_IFREG | (mode & 07777), (uint32_t)len, 0, 0);
	fwrite(data, 1, len, c->f);
	cpio_pad(c);
}

static void cpio_copy(struct cpio *c, const char *name, const char *host,
		      int mode)
{
	struct stat st;
	size_t len;
	char *data;

	if (stat(host, &st) < 0)
		die("%s: %s", host, strerror(errno));
	if (st.st_size > UINT32_MAX)
		die("%s: too large for an initramfs", host);
	data = read_file(host, &len);
	if (!data)
		die("%s: %s", host, strerror(errno));
	cpio_data(c, name, mode >= 0 ? (uint32_t)mode : st.st_mode, data, len);
	free(data);
}

static void cpio_symlink(struct cpio *c, const char *name, const char *target)
{
	if (!cpio_claim(c, &name))
		return;
	cpio_parents(c, name);
	cpio_hdr(c, name, S_IFLNK | 0777, (uint32_t)strlen(target), 0, 0);
	fwrite(target, 1, strlen(target), c->f);
	cpio_pad(c);
}

static void cpio_chardev(struct cpio *c, const char *name, uint32_t mode,
			 uint32_t maj, uint32_t min)
{
	if (!cpio_claim(c, &name))
		return;
	cpio_parents(c, name);
	cpio_hdr(c, name, S_IFCHR | mode, 0, maj, min);
}

static void cpio_finish(struct cpio *c)
{
	cpio_hdr(c, "TRAILER!!!", 0, 0, 0, 0);
	if (fclose(c->f) != 0)
		die("%s: %s", c->path, strerror(errno));
}

/* ---- ELF files and their libraries -------------------------------------- */

static bool is_elf(const char *path)
{
	unsigned char m[4];
	FILE *f = fopen(path, "rb");
	bool ok;

	if (!f)
		return false;
	ok = fread(m, 1, 4, f) == 4 && !memcmp(m, ELFMAG, SELFMAG);
	fclose(f);
	return ok;
}

/* Adds the shared libraries (and loader) a dynamic ELF file needs. */
static void cpio_elf_libs(struct cpio *c, const char *host)
{
	char *argv[] = { "ldd", (char *)host, NULL };
	char *out = NULL, *line, *save = NULL;
	int rc;

	if (!is_elf(host))
		return;
	rc = run_cmd(argv, &out, NULL);
	if (rc != 0 || strstr(out, "not a dynamic") || strstr(out, "statically")) {
		free(out);
		return;
	}
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *arrow = strstr(line, "=> "), *lib, *end;

		if (strstr(line, "not found"))
			die("%s: needs a library the host lacks: %s", host,
			    line);
		lib = arrow ? arrow + 3 : line + strspn(line, " \t");
		if (*lib != '/')
			continue;	/* linux-vdso.so.1 */
		end = strpbrk(lib, " \t(");
		if (end)
			*end = 0;
		if (o.verbose)
			fprintf(stderr, PROG ": %s needs %s\n", host, lib);
		cpio_copy(c, lib, lib, -1);
	}
	free(out);
}

/* A host file or directory (recursively), with the libraries it needs. */
static void cpio_tree(struct cpio *c, const char *guest, const char *host)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (stat(host, &st) < 0)
		die("--file %s: %s", host, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		cpio_copy(c, guest, host, -1);
		cpio_elf_libs(c, host);
		return;
	}
	cpio_dir(c, guest);
	d = opendir(host);
	if (!d)
		die("%s: %s", host, strerror(errno));
	while ((de = readdir(d))) {
		char *h, *g;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		h = xasprintf("%s/%s", host, de->d_name);
		g = xasprintf("%s/%s", guest, de->d_name);
		cpio_tree(c, g, h);
		free(h);
		free(g);
	}
	closedir(d);
}

/* ---- kernel modules ----------------------------------------------------- */

struct depmap {
	char *text;		/* modules.dep, edited in place */
	struct strv path;	/* module path relative to the modules dir */
	struct strv deps;	/* its dependency list (space separated) */
};

static char *mod_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name = xstrdup(base ? base + 1 : path), *dot = strstr(name, ".ko");

	if (dot)
		*dot = 0;
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

static void depmap_load(struct depmap *m, const char *moddir)
{
	char *file = xasprintf("%s/modules.dep", moddir), *line, *save = NULL;

	m->text = read_file(file, NULL);
	if (!m->text)
		die("%s: %s (is the kernel's module package installed?)",
		    file, strerror(errno));
	free(file);
	for (line = strtok_r(m->text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = 0;
		strv_push(&m->path, line);
		strv_push(&m->deps, colon + 1);
	}
}

static ssize_t depmap_find(const struct depmap *m, const char *name)
{
	for (size_t i = 0; i < m->path.n; i++) {
		char *n = mod_name(m->path.v[i]);
		bool hit = !strcmp(n, name);

		free(n);
		if (hit)
			return (ssize_t)i;
	}
	return -1;
}

static bool builtin(const char *moddir, const char *name)
{
	char *file = xasprintf("%s/modules.builtin", moddir);
	char *text = read_file(file, NULL), *line, *save = NULL;
	bool hit = false;

	free(file);
	if (!text)
		return false;
	for (line = strtok_r(text, "\n", &save); line && !hit;
	     line = strtok_r(NULL, "\n", &save)) {
		char *n = mod_name(line);

		hit = !strcmp(n, name);
		free(n);
	}
	free(text);
	return hit;
}

/* Decompresses a .ko.{xz,zst,gz} into the work directory. */
static char *mod_plain(const char *host)
{
	static const struct {
		const char *ext, *tool;
	} z[] = { { ".ko.xz", "xz" }, { ".ko.zst", "zstd" }, { ".ko.gz", "gzip" } };
	size_t len = strlen(host);

	for (size_t i = 0; i < sizeof(z) / sizeof(z[0]); i++) {
		size_t el = strlen(z[i].ext);
		char *out, *name;

		if (len < el || strcmp(host + len - el, z[i].ext))
			continue;
		name = mod_name(host);
		out = xasprintf("%s/%s.ko", workdir, name);
		free(name);
		{
			char *argv[] = { (char *)z[i].tool, "-dc", (char *)host,
					 NULL };

			if (run_cmd(argv, NULL, out) != 0)
				die("cannot decompress %s with %s", host,
				    z[i].tool);
		}
		return out;
	}
	return xstrdup(host);
}

struct modlist {
	struct mod *m;
	size_t n;
	struct strv names;
};

static void modlist_add(struct modlist *l, const char *name, char *host,
			char *guest, const char *params)
{
	struct mod *m = realloc(l->m, (l->n + 1) * sizeof(*m));

	if (!m)
		die("out of memory");
	l->m = m;
	m[l->n].path = host;
	m[l->n].guest = guest;
	m[l->n].params = xstrdup(params ? params : "");
	l->n++;
	strv_push(&l->names, xstrdup(name));
}

/* Where a modules.dep entry goes in the guest: always uncompressed. */
static char *guest_mod_path(const char *rel)
{
	char *g = xasprintf("lib/modules/%s/%s", o.kver, rel);
	char *ko = strstr(g, ".ko");

	if (ko)
		ko[3] = 0;
	return g;
}

/* Adds @name and (first) everything it depends on, from modules.dep. */
static void resolve_dep(struct modlist *l, const struct depmap *m,
			const char *moddir, const char *name, const char *why)
{
	ssize_t i;
	char *deps, *tok[64], *save = NULL, *host;
	size_t nt = 0;

	if (strv_has(&l->names, name))
		return;
	i = depmap_find(m, name);
	if (i < 0) {
		if (builtin(moddir, name))
			return;
		die("module %s (needed by %s) is not in %s/modules.dep", name,
		    why, moddir);
	}
	/* modules.dep lists a module's dependencies last-loaded-first. */
	deps = xstrdup(m->deps.v[i]);
	for (char *t = strtok_r(deps, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (nt == sizeof(tok) / sizeof(tok[0]))
			die("module %s: too many dependencies", name);
		tok[nt++] = t;
	}
	while (nt--) {
		char *dn = mod_name(tok[nt]);

		resolve_dep(l, m, moddir, dn, name);
		free(dn);
	}
	free(deps);
	host = xasprintf("%s/%s", moddir, m->path.v[i]);
	modlist_add(l, name, mod_plain(host), guest_mod_path(m->path.v[i]),
		    NULL);
	free(host);
}

/* The .modinfo section of an ELF64 module: [*start, *start + *len). */
static bool modinfo_section(const char *data, size_t len, size_t *start,
			    size_t *size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)data;
	const Elf64_Shdr *sh, *strtab;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(*sh) || eh->e_shoff > len ||
	    (size_t)eh->e_shnum * sizeof(*sh) > len - eh->e_shoff ||
	    eh->e_shstrndx >= eh->e_shnum)
		return false;
	sh = (const Elf64_Shdr *)(data + eh->e_shoff);
	strtab = &sh[eh->e_shstrndx];
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		size_t name = strtab->sh_offset + sh[i].sh_name;

		if (name + sizeof(".modinfo") > len ||
		    strcmp(data + name, ".modinfo") ||
		    sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset)
			continue;
		*start = sh[i].sh_offset;
		*size = sh[i].sh_size;
		return true;
	}
	return false;
}

/* The "depends=" of an out-of-tree module's .modinfo ("" if none). */
static char *modinfo_depends(const char *path)
{
	static const char key[] = "depends=";
	size_t len, start, size;
	char *data = read_file(path, &len), *res = NULL;

	if (!data)
		die("--module %s: %s", path, strerror(errno));
	if (!modinfo_section(data, len, &start, &size))
		die("--module %s: not a kernel module (no .modinfo)", path);
	for (size_t i = start; i < start + size; i += strnlen(data + i, start + size - i) + 1) {
		if (!strncmp(data + i, key, sizeof(key) - 1) &&
		    memchr(data + i, 0, start + size - i)) {
			res = xstrdup(data + i + sizeof(key) - 1);
			break;
		}
	}
	free(data);
	return res ? res : xstrdup("");
}

static void resolve_modules(struct modlist *l, const char *moddir)
{
	struct depmap m = { 0 };

	depmap_load(&m, moddir);
	for (size_t i = 0; i < sizeof(base_modules) / sizeof(base_modules[0]); i++)
		resolve_dep(l, &m, moddir, base_modules[i], "ppu-cosim");
	for (size_t i = 0; i < o.modules.n; i++) {
		char *spec = xstrdup(o.modules.v[i]);
		char *sp = strpbrk(spec, " \t");
		char *params = NULL, *deps, *name, *plain, *save = NULL;

		if (sp) {
			*sp = 0;
			params = sp + 1 + strspn(sp + 1, " \t");
		}
		plain = mod_plain(spec);
		deps = modinfo_depends(plain);
		name = mod_name(spec);
		for (char *t = strtok_r(deps, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			char *dn = mod_name(t);

			resolve_dep(l, &m, moddir, dn, name);
			free(dn);
		}
		free(deps);
		if (strv_has(&l->names, name))
			die("--module %s: a module named %s is already loaded",
			    spec, name);
		modlist_add(l, name, plain,
			    xasprintf("lib/modules/extra/%s.ko", name), params);
		free(name);
		free(spec);
	}
	free(m.text);
}

/* ---- the initramfs ------------------------------------------------------ */

/* Single-quotes @s for sh. */
static char *shq(const char *s)
{
	size_t n = 3;
	char *q, *p;

	for (const char *t = s; *t; t++)
		n += *t == '\'' ? 4 : 1;
	q = p = xmalloc(n);
	*p++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *s;
		}
	}
	*p++ = '\'';
	*p = 0;
	return q;
}

static char *make_init(const struct modlist *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		die("out of memory");
	fprintf(f,
		"#!/bin/sh\n"
		"# Generated by ppu-cosim: runs the batch, then powers off.\n"
		"/bin/busybox --install -s\n"
		"export PATH=/sbin:/bin:/usr/sbin:/usr/bin HOME=/root TERM=dumb\n"
		"mount -t proc proc /proc\n"
		"mount -t sysfs sysfs /sys\n"
		"mount -t devtmpfs devtmpfs /dev\n"
		"mount -t debugfs debugfs /sys/kernel/debug\n"
		"mount -t tmpfs tmpfs /tmp\n"
		"mkdir -p /dev/pts /dev/shm\n"
		"mount -t devpts devpts /dev/pts\n"
		"mount -t tmpfs tmpfs /dev/shm\n"
		"m() { printf '\\n@@PPU-%%s\\n' \"$*\"; }\n"
		"m BOOTED $(cut -d' ' -f1 /proc/uptime)\n"
		"ok=1\n"
		"load() {\n"
		"\tinsmod \"$@\" || { rc=$?; m MODULE-FAIL \"$1\" $rc; ok=0; }\n"
		"}\n");
	for (size_t i = 0; i < l->n; i++) {
		char *path = xasprintf("/%s", l->m[i].guest);
		char *q = shq(path);

		/* Parameters stay shell words, as on an insmod command line. */
		fprintf(f, "[ $ok = 1 ] && load %s%s%s\n", q,
			*l->m[i].params ? " " : "", l->m[i].params);
		free(q);
		free(path);
	}
	fprintf(f, "cd /root\n");
	for (size_t i = 0; i < o.runs.n; i++)
		fprintf(f,
			"if [ $ok = 1 ]; then\n"
			"\tm RUN-BEGIN %zu\n"
			"\tsh /etc/ppu-cosim/run%zu </dev/null\n"
			"\tm RESULT %zu $?\n"
			"else\n"
			"\tm RESULT %zu skipped\n"
			"fi\n", i + 1, i + 1, i + 1, i + 1);
	fprintf(f,
		"cd /\n"
		"sync\n"
		"m DMESG-BEGIN\n"
		"dmesg\n"
		"m DMESG-END\n"
		"m DONE\n"
		"poweroff -f\n"
		"sleep 60\n");
	fclose(f);
	return buf;
}

static void build_initramfs(const char *out, const char *moddir)
{
	struct cpio c = { .path = out };
	struct modlist l = { 0 };
	char *init;

	resolve_modules(&l, moddir);
	c.f = fopen(out, "wb");
	if (!c.f)
		die("%s: %s", out, strerror(errno));

	for (const char *const *d = (const char *const[]){ "bin", "sbin",
		"usr/bin", "usr/sbin", "proc", "sys", "dev", "tmp", "run",
		"root", "etc/ppu-cosim", "mnt", NULL }; *d; d++)
		cpio_dir(&c, *d);
	cpio_chardev(&c, "dev/console", 0600, 5, 1);
	cpio_chardev(&c, "dev/null", 0666, 1, 3);
	cpio_copy(&c, "bin/busybox", "/bin/busybox", 0755);
	cpio_elf_libs(&c, "/bin/busybox");
	cpio_symlink(&c, "bin/sh", "busybox");

	for (size_t i = 0; i < l.n; i++) {
		if (o.verbose)
			fprintf(stderr, PROG ": module %s%s%s\n", l.m[i].guest,
				*l.m[i].params ? " " : "", l.m[i].params);
		cpio_copy(&c, l.m[i].guest, l.m[i].path, 0644);
	}
	for (size_t i = 0; i < o.files.n; i++) {
		char *spec = xstrdup(o.files.v[i]), *colon = strchr(spec, ':');
		char *guest;

		if (!colon || colon == spec || !colon[1])
			die("--file %s: expected host:guest", spec);
		*colon = 0;
		guest = colon[1] && colon[strlen(colon + 1)] == '/' ?
			xasprintf("%s%s", colon + 1,
				  strrchr(spec, '/') ? strrchr(spec, '/') + 1 : spec) :
			xstrdup(colon + 1);
		cpio_tree(&c, guest, spec);
		free(guest);
		free(spec);
	}
	for (size_t i = 0; i < o.runs.n; i++) {
		char *name = xasprintf("etc/ppu-cosim/run%zu", i + 1);
		char *body = xasprintf("%s\n", o.runs.v[i]);

		cpio_data(&c, name, 0644, body, strlen(body));
		free(name);
		free(body);
	}
	init = make_init(&l);
	cpio_data(&c, "init", 0755, init, strlen(init));
	if (o.keep) {
		char *p = xasprintf("%s/init", workdir);
		FILE *f = fopen(p, "w");

		if (f) {
			fputs(init, f);
			fclose(f);
		}
		free(p);
	}
	free(init);
	cpio_finish(&c);
}

/* ---- kernel selection --------------------------------------------------- */

static bool moddir_ok(const char *ver)
{
	char *p = xasprintf("/lib/modules/%s/modules.dep", ver);
	bool ok = access(p, R_OK) == 0;

	free(p);
	return ok;
}

static void pick_kernel(void)
{
	static char kbuf[PATH_MAX], vbuf[256];
	struct utsname u;
	DIR *d;
	struct dirent *de;

	if (o.kernel) {
		const char *base = strrchr(o.kernel, '/');

		base = base ? base + 1 : o.kernel;
		if (!o.kver && !strncmp(base, "vmlinuz-", 8))
			o.kver = base + 8;
		if (!o.kver)
			die("--kernel %s: cannot tell its version; give --kver",
			    o.kernel);
		return;
	}
	if (!uname(&u) && !o.kver) {
		snprintf(kbuf, sizeof(kbuf), "/boot/vmlinuz-%s", u.release);
		if (!access(kbuf, R_OK) && moddir_ok(u.release)) {
			o.kernel = kbuf;
			o.kver = xstrdup(u.release);
			return;
		}
	}
	/* The newest /boot/vmlinuz-* whose modules are installed. */
	d = opendir("/boot");
	if (!d)
		die("/boot: %s", strerror(errno));
	vbuf[0] = 0;
	while ((de = readdir(d))) {
		const char *v = de->d_name + 8;

		if (strncmp(de->d_name, "vmlinuz-", 8) || !moddir_ok(v))
			continue;
		if (o.kver && strcmp(v, o.kver))
			continue;
		if (!vbuf[0] || strverscmp(v, vbuf) > 0)
			snprintf(vbuf, sizeof(vbuf), "%s", v);
	}
	closedir(d);
	if (!vbuf[0])
		die("no /boot/vmlinuz-* with modules in /lib/modules "
		    "(install linux-image-amd64, or give --kernel/--kver)");
	snprintf(kbuf, sizeof(kbuf), "/boot/vmlinuz-%s", vbuf);
	o.kernel = kbuf;
	o.kver = vbuf;
}

/* ---- processes ---------------------------------------------------------- */

static pid_t qemu_pid = -1, dev_pid = -1;

static void cleanup(void)
{
	if (qemu_pid > 0)
		kill(qemu_pid, SIGKILL);
	if (dev_pid > 0)
		kill(dev_pid, SIGKILL);
	if (qemu_pid > 0)
		waitpid(qemu_pid, NULL, 0);
	if (dev_pid > 0)
		waitpid(dev_pid, NULL, 0);
	qemu_pid = dev_pid = -1;
	if (workdir[0] && !o.keep)
		rm_rf(workdir);
}

static void on_signal(int sig)
{
	got_signal = sig;
}

static void check_qemu(void)
{
	char *argv[] = { (char *)o.qemu, "-device", "help", NULL };
	char *out = NULL;
	int rc = run_cmd(argv, &out, NULL);

	if (rc == 127)
		die("%s not found (install qemu-system-x86)", o.qemu);
	if (!strstr(out, "\"x-pci-proxy-dev\""))
		die("%s does not list the device x-pci-proxy-dev (QEMU built "
		    "without multi-process support?); the co-simulation needs "
		    "it", o.qemu);
	free(out);
}

static const char *find_dev(void)
{
	static char path[PATH_MAX + 32];
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (o.dev)
		return o.dev;
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(path, sizeof(path), "%s/../cosim/ppu-cosim-dev",
				 exe);
			if (!access(path, X_OK))
				return path;
			snprintf(path, sizeof(path), "%s/ppu-cosim-dev", exe);
			if (!access(path, X_OK))
				return path;
		}
	}
	return "ppu-cosim-dev";	/* from PATH */
}

static pid_t spawn(char *const argv[], int keep_fd, int out_fd)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid)
		return pid;
	if (keep_fd >= 0)
		fcntl(keep_fd, F_SETFD, 0);
	if (out_fd >= 0) {
		int nul = open("/dev/null", O_RDONLY);

		dup2(nul, 0);
		dup2(out_fd, 1);
	}
	execvp(argv[0], argv);
	fprintf(stderr, PROG ": cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* ---- console ------------------------------------------------------------ */

struct result {
	bool begun;
	bool done;
	bool skipped;
	int status;
	double t_begin, t_end;
};

struct console {
	FILE *out;		/* relay target */
	FILE *log;		/* --log file, or NULL */
	char line[8192];
	size_t len;
	bool booted, done, in_dmesg;
	bool blank;		/* an empty line is held back */
	int esc;		/* 1 after ESC, 2 inside ESC [ */
	double t_start, t_boot, t_done;
	struct result *res;
	int module_fail;
	int running;		/* run in progress, 0 = none */
	struct strv problems;	/* kernel problem lines */
	struct strv dmesg;	/* buffered kernel log */
};

static bool kernel_line(const char *s)
{
	/* "[    1.234567] ...": how printk lines look on the console. */
	if (*s++ != '[')
		return false;
	s += strspn(s, " ");
	if (!(*s >= '0' && *s <= '9'))
		return false;
	s += strspn(s, "0123456789");
	return *s == '.';
}

static void check_problem(struct console *c, const char *s)
{
	for (size_t i = 0; i < sizeof(kernel_problems) / sizeof(*kernel_problems); i++)
		if (strstr(s, kernel_problems[i])) {
			if (!strv_has(&c->problems, s))
				strv_push(&c->problems, xstrdup(s));
			return;
		}
}

static void console_line(struct console *c, char *s)
{
	char *mk = strstr(s, "@@PPU-");
	double t = now_s();
	unsigned int n;

	if (c->in_dmesg && !(mk && !strncmp(mk, "@@PPU-DMESG-END", 15))) {
		strv_push(&c->dmesg, xstrdup(s));
		check_problem(c, s);
		if (c->log)
			fprintf(c->log, "%s\n", s);
		return;
	}
	/*
	 * Markers start with a newline so they begin a line whatever came
	 * before; the empty line that makes is not relayed.
	 */
	if (c->blank && !mk)
		fputc('\n', c->log ? c->log : c->out);
	c->blank = !*s;
	if (c->blank)
		return;
	if (!mk || c->log)
		fprintf(c->log ? c->log : c->out, "%s\n", s);
	if (kernel_line(s))
		check_problem(c, s);
	if (!mk)
		return;
	mk += 6;
	if (!strncmp(mk, "BOOTED", 6)) {
		c->booted = true;
		c->t_boot = t;
		fprintf(c->out, PROG ": guest booted in %.1f s\n",
			t - c->t_start);
	} else if (!strncmp(mk, "MODULE-FAIL", 11)) {
		c->module_fail++;
		fprintf(c->out, PROG ": insmod failed:%s\n", mk + 11);
	} else if (sscanf(mk, "RUN-BEGIN %u", &n) == 1 && n >= 1 &&
		   n <= o.runs.n) {
		c->res[n - 1].begun = true;
		c->res[n - 1].t_begin = t;
		c->running = (int)n;
		fprintf(c->out, PROG ": [%u] %s\n", n, o.runs.v[n - 1]);
	} else if (sscanf(mk, "RESULT %u", &n) == 1 && n >= 1 &&
		   n <= o.runs.n) {
		struct result *r = &c->res[n - 1];
		const char *st = mk + strlen("RESULT ") + strspn(mk + 7, "0123456789");

		st += strspn(st, " ");
		r->done = true;
		r->t_end = t;
		r->skipped = !strncmp(st, "skipped", 7);
		r->status = r->skipped ? -1 : atoi(st);
		c->running = 0;
		if (r->skipped)
			fprintf(c->out, PROG ": [%u] skipped\n", n);
		else
			fprintf(c->out, PROG ": [%u] exit status %d (%.2f s)\n",
				n, r->status, r->t_end - r->t_begin);
	} else if (!strncmp(mk, "DMESG-BEGIN", 11)) {
		c->in_dmesg = true;
	} else if (!strncmp(mk, "DMESG-END", 9)) {
		c->in_dmesg = false;
	} else if (!strncmp(mk, "DONE", 4)) {
		c->done = true;
		c->t_done = t;
	}
}

static void console_feed(struct console *c, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char ch = buf[i];

		/*
		 * SeaBIOS and the kernel reset the terminal: drop escape
		 * sequences (ESC x, ESC [ ... final) and other controls.
		 */
		if (c->esc == 1) {
			c->esc = ch == '[' ? 2 : 0;
			continue;
		}
		if (c->esc == 2) {
			if (ch >= 0x40 && ch <= 0x7e)
				c->esc = 0;
			continue;
		}
		if (ch == '\033') {
			c->esc = 1;
			continue;
		}
		if ((unsigned char)ch < 0x20 && ch != '\n' && ch != '\t')
			continue;
		if (ch == '\n' || c->len == sizeof(c->line) - 1) {
			c->line[c->len] = 0;
			console_line(c, c->line);
			c->len = 0;
			if (ch == '\n')
				continue;
		}
		c->line[c->len++] = ch;
	}
	fflush(c->out);
	if (c->log)
		fflush(c->log);
}

/* ---- main --------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [options] --run 'cmd' [--run 'cmd' ...]\n"
"Boots the guest kernel under QEMU (TCG, 1 vCPU) with the co-simulated PPU\n"
"as a PCI device, runs each command in order in one boot, reports results.\n"
"\n"
"  --run CMD            shell command to run in the guest (repeatable)\n"
"  --file HOST:GUEST    copy a file or directory into the guest (GUEST\n"
"                       ending in / keeps the name); ELF files bring the\n"
"                       shared libraries they need\n"
"  --module 'X.ko [ARGS]'  insmod X.ko (after drm, drm_shmem_helper and\n"
"                       its dependencies); runs are skipped if it fails\n"
"  --kernel PATH        guest kernel (default: newest /boot/vmlinuz-* with\n"
"                       modules installed)\n"
"  --kver VER           module directory /lib/modules/VER\n"
"  --timeout S          wall-clock limit for the whole boot (default 300)\n"
"  --trace FILE         PPU event trace from the device process\n"
"  --fst FILE           FST waveform from the device process (slow)\n"
"  --dev-arg ARG        extra option for ppu-cosim-dev (repeatable), e.g.\n"
"                       --dev-arg=--local-mem-mib=128 --dev-arg=-v\n"
"  --log FILE           console to FILE (stdout gets only the summary)\n"
"  --dmesg              print the guest kernel log even when clean\n"
"  --boot-log           full kernel log on the console (loglevel 7)\n"
"  --append ARGS        extra kernel command line\n"
"  --mem MIB            guest RAM (default 512)\n"
"  --qemu PATH          QEMU binary (default qemu-system-x86_64)\n"
"  --dev PATH           device binary (default: next to this tool)\n"
"  --keep               keep the work directory (initramfs, init)\n"
"  -v, --verbose        show commands, modules and libraries\n"
"\n"
"exit: 0 pass, 1 a run failed, 2 kernel problem, 3 timeout, 4 setup failure\n");
}

enum {
	OPT_RUN = 256, OPT_FILE, OPT_MODULE, OPT_KERNEL, OPT_KVER, OPT_TIMEOUT,
	OPT_TRACE, OPT_FST, OPT_DEVARG, OPT_LOG, OPT_DMESG, OPT_BOOTLOG,
	OPT_APPEND, OPT_MEM, OPT_QEMU, OPT_DEV, OPT_KEEP,
};

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, OPT_RUN },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "module", required_argument, NULL, OPT_MODULE },
		{ "kernel", required_argument, NULL, OPT_KERNEL },
		{ "kver", required_argument, NULL, OPT_KVER },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "fst", required_argument, NULL, OPT_FST },
		{ "dev-arg", required_argument, NULL, OPT_DEVARG },
		{ "log", required_argument, NULL, OPT_LOG },
		{ "dmesg", no_argument, NULL, OPT_DMESG },
		{ "boot-log", no_argument, NULL, OPT_BOOTLOG },
		{ "append", required_argument, NULL, OPT_APPEND },
		{ "mem", required_argument, NULL, OPT_MEM },
		{ "qemu", required_argument, NULL, OPT_QEMU },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "keep", no_argument, NULL, OPT_KEEP },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (opt) {
		case OPT_RUN:
			strv_push(&o.runs, optarg);
			break;
		case OPT_FILE:
			strv_push(&o.files, optarg);
			break;
		case OPT_MODULE:
			strv_push(&o.modules, optarg);
			break;
		case OPT_KERNEL:
			o.kernel = optarg;
			break;
		case OPT_KVER:
			o.kver = optarg;
			break;
		case OPT_TIMEOUT:
			o.timeout = atoi(optarg);
			if (o.timeout <= 0)
				die("--timeout: expected seconds > 0");
			break;
		case OPT_TRACE:
			o.trace = optarg;
			break;
		case OPT_FST:
			o.fst = optarg;
			break;
		case OPT_DEVARG:
			strv_push(&o.dev_args, optarg);
			break;
		case OPT_LOG:
			o.log = optarg;
			break;
		case OPT_DMESG:
			o.show_dmesg = true;
			break;
		case OPT_BOOTLOG:
			o.boot_log = true;
			break;
		case OPT_APPEND:
			o.append = optarg;
			break;
		case OPT_MEM:
			o.mem_mib = atoi(optarg);
			/* The memfd must stay below the 3 GiB PCI hole. */
			if (o.mem_mib < 128 || o.mem_mib > 3072)
				die("--mem: 128..3072 MiB");
			break;
		case OPT_QEMU:
			o.qemu = optarg;
			break;
		case OPT_DEV:
			o.dev = optarg;
			break;
		case OPT_KEEP:
			o.keep = true;
			break;
		case 'v':
			o.verbose++;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(EXIT_INFRA);
		}
	}
	if (optind != argc) {
		usage(stderr);
		exit(EXIT_INFRA);
	}
	if (!o.runs.n)
		die("nothing to run: give at least one --run");
}

static int wait_dev(double secs)
{
	double end = now_s() + secs;
	int status;

	while (now_s() < end) {
		pid_t p = waitpid(dev_pid, &status, WNOHANG);

		if (p == dev_pid) {
			dev_pid = -1;
			return status;
		}
		usleep(20000);
	}
	kill(dev_pid, SIGTERM);
	usleep(500000);
	if (waitpid(dev_pid, &status, WNOHANG) != dev_pid) {
		kill(dev_pid, SIGKILL);
		waitpid(dev_pid, &status, 0);
	}
	dev_pid = -1;
	return -1;
}

int main(int argc, char **argv)
{
	struct console con = { .out = stdout };
	struct sigaction sa = { .sa_handler = on_signal };
	char *initrd, *qsock, *append, *mem, *fdarg, *devfd, *qtestarg;
	const char *devbin;
	int sv[2], pfd[2], exit_code = EXIT_PASS, qemu_status = 0;
	int dev_status;
	bool timed_out = false, qemu_eof = false;
	struct strv qargv = { 0 }, dargv = { 0 };
	double deadline;

	parse_args(argc, argv);
	pick_kernel();
	check_qemu();
	devbin = find_dev();

	snprintf(workdir, sizeof(workdir), "%s/ppu-cosim.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(workdir)) {
		workdir[0] = 0;
		die("mkdtemp: %s", strerror(errno));
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	con.t_start = now_s();
	initrd = xasprintf("%s/initramfs.cpio", workdir);
	{
		char *moddir = xasprintf("/lib/modules/%s", o.kver);

		build_initramfs(initrd, moddir);
		free(moddir);
	}
	if (o.verbose)
		fprintf(stderr, PROG ": kernel %s, initramfs %s built in "
			"%.2f s\n", o.kernel, initrd, now_s() - con.t_start);
	if (o.log) {
		con.log = fopen(o.log, "w");
		if (!con.log)
			die("--log %s: %s", o.log, strerror(errno));
	}
	con.res = calloc(o.runs.n, sizeof(*con.res));
	if (!con.res)
		die("out of memory");

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    pipe2(pfd, O_CLOEXEC) < 0)
		die("socketpair/pipe: %s", strerror(errno));
	qsock = xasprintf("%s/qtest.sock", workdir);

	/* The device first: QEMU probes config space while it starts. */
	strv_push(&dargv, (char *)devbin);
	devfd = xasprintf("--fd=%d", sv[0]);
	strv_push(&dargv, devfd);
	qtestarg = xasprintf("--qtest=%s", qsock);
	strv_push(&dargv, qtestarg);
	strv_push(&dargv, "--stats");
	if (o.trace)
		strv_push(&dargv, xasprintf("--trace=%s", o.trace));
	if (o.fst)
		strv_push(&dargv, xasprintf("--fst=%s", o.fst));
	for (size_t i = 0; i < o.dev_args.n; i++)
		strv_push(&dargv, o.dev_args.v[i]);
	dev_pid = spawn(dargv.v, sv[0], -1);
	close(sv[0]);

	mem = xasprintf("memory-backend-memfd,id=mem,size=%dM,share=on",
			o.mem_mib);
	append = xasprintf("console=ttyS0 panic=-1 loglevel=%d%s%s",
			   o.boot_log ? 7 : 5, o.append ? " " : "",
			   o.append ? o.append : "");
	fdarg = xasprintf("x-pci-proxy-dev,id=ppu0,fd=%d", sv[1]);
	{
		char *a[] = {
			(char *)o.qemu, "-accel", "tcg", "-smp", "1",
			"-m", xasprintf("%dM", o.mem_mib), "-object", mem,
			"-machine", "pc,memory-backend=mem",
			"-nographic", "-no-reboot", "-nodefaults",
			"-serial", "stdio", "-vga", "none",
			"-kernel", (char *)o.kernel, "-initrd", initrd,
			"-append", append,
			"-qtest", xasprintf("unix:%s,server=on,wait=off", qsock),
			"-qtest-log", "none",
			"-device", fdarg, NULL,
		};

		for (char **p = a; *p; p++)
			strv_push(&qargv, *p);
	}
	if (o.verbose) {
		fprintf(stderr, PROG ":");
		for (size_t i = 0; i < dargv.n; i++)
			fprintf(stderr, " %s", dargv.v[i]);
		fprintf(stderr, "\n" PROG ":");
		for (size_t i = 0; i < qargv.n; i++)
			fprintf(stderr, " %s", qargv.v[i]);
		fprintf(stderr, "\n");
	}
	qemu_pid = spawn(qargv.v, sv[1], pfd[1]);
	close(sv[1]);
	close(pfd[1]);

	deadline = con.t_start + o.timeout;
	while (!qemu_eof) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		double left = deadline - now_s();
		int n;

		if (got_signal) {
			fprintf(stderr, PROG ": interrupted\n");
			cleanup();
			return 128 + got_signal;
		}
		if (left <= 0) {
			timed_out = true;
			break;
		}
		if (dev_pid > 0 && waitpid(dev_pid, &dev_status, WNOHANG) == dev_pid) {
			dev_pid = -1;
			fprintf(stderr, PROG ": the device process exited "
				"while QEMU runs (status 0x%x)\n", dev_status);
			exit_code = EXIT_INFRA;
			break;
		}
		n = poll(&p, 1, left > 0.5 ? 500 : (int)(left * 1000) + 1);
		if (n > 0) {
			char buf[4096];
			ssize_t r = read(pfd[0], buf, sizeof(buf));

			if (r > 0)
				console_feed(&con, buf, (size_t)r);
			else if (r == 0 || (errno != EINTR && errno != EAGAIN))
				qemu_eof = true;
		}
	}
	if (con.len) {
		con.line[con.len] = 0;
		console_line(&con, con.line);
	}
	if (timed_out || !qemu_eof) {
		kill(qemu_pid, SIGTERM);
		usleep(300000);
		kill(qemu_pid, SIGKILL);
	}
	waitpid(qemu_pid, &qemu_status, 0);
	qemu_pid = -1;
	close(pfd[0]);
	if (dev_pid > 0) {
		dev_status = wait_dev(10);
		if (dev_status == -1 || !WIFEXITED(dev_status) ||
		    WEXITSTATUS(dev_status)) {
			fprintf(stderr, PROG ": the device process did not exit "
				"cleanly\n");
			exit_code = EXIT_INFRA;
		}
	}

	/* ---- verdict ---- */
	if (timed_out) {
		fprintf(stdout, PROG ": TIMEOUT after %d s", o.timeout);
		if (con.running)
			fprintf(stdout, " in run [%d] %s", con.running,
				o.runs.v[con.running - 1]);
		else if (!con.booted)
			fprintf(stdout, " before /init started");
		fprintf(stdout, "\n");
		exit_code = EXIT_TIMEOUT > exit_code ? EXIT_TIMEOUT : exit_code;
	} else if (!con.done) {
		fprintf(stdout, PROG ": the guest stopped before finishing "
			"(QEMU status 0x%x)%s\n", qemu_status,
			con.problems.n ? ": kernel problem" : "");
		if (!con.problems.n)
			exit_code = EXIT_INFRA;
	} else if (!WIFEXITED(qemu_status) || WEXITSTATUS(qemu_status)) {
		fprintf(stdout, PROG ": QEMU exited with status 0x%x\n",
			qemu_status);
		exit_code = EXIT_INFRA;
	}
	if (con.problems.n) {
		fprintf(stdout, PROG ": KERNEL PROBLEM (%zu line%s):\n",
			con.problems.n, con.problems.n > 1 ? "s" : "");
		for (size_t i = 0; i < con.problems.n && i < 20; i++)
			fprintf(stdout, "    %s\n", con.problems.v[i]);
		if (exit_code < EXIT_KERNEL)
			exit_code = EXIT_KERNEL;
	}
	if ((con.problems.n || o.show_dmesg) && con.dmesg.n) {
		fprintf(stdout, PROG ": guest kernel log:\n");
		for (size_t i = 0; i < con.dmesg.n; i++)
			fprintf(stdout, "%s\n", con.dmesg.v[i]);
	}
	for (size_t i = 0; i < o.runs.n; i++) {
		const struct result *r = &con.res[i];
		const char *what;

		if (r->done && !r->skipped && r->status == 0)
			what = "ok";
		else if (r->done && r->skipped)
			what = "SKIPPED";
		else if (r->done)
			what = "FAILED";
		else
			what = r->begun ? "UNFINISHED" : "NOT RUN";
		if (strcmp(what, "ok") && exit_code < EXIT_RUN_FAILED)
			exit_code = EXIT_RUN_FAILED;
		if (r->done && !r->skipped && r->status)
			fprintf(stdout, PROG ": [%zu] %s (status %d): %s\n",
				i + 1, what, r->status, o.runs.v[i]);
		else
			fprintf(stdout, PROG ": [%zu] %s: %s\n", i + 1, what,
				o.runs.v[i]);
	}
	if (con.module_fail && exit_code < EXIT_RUN_FAILED)
		exit_code = EXIT_RUN_FAILED;
	fprintf(stdout, PROG ": %s; boot %.1f s, runs %.1f s, total %.1f s\n",
		exit_code == EXIT_PASS ? "PASS" : "FAIL",
		con.booted ? con.t_boot - con.t_start : 0.0,
		con.done && con.booted ? con.t_done - con.t_boot : 0.0,
		now_s() - con.t_start);
	if (con.log)
		fclose(con.log);
	if (o.keep)
		fprintf(stdout, PROG ": work directory kept: %s\n", workdir);
	cleanup();
	return exit_code;
}
