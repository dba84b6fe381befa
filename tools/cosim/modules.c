// SPDX-License-Identifier: MIT
/*
 * ppu-cosim: module dependency resolution (see modules.h).
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "modules.h"

/* Modules every guest gets, before the ones given with --module. */
static const char *const base_modules[] = { "drm", "drm_shmem_helper" };

struct depmap {
	char *text;		/* modules.dep, edited in place */
	struct strv path;	/* module path relative to the modules dir */
	struct strv deps;	/* its dependency list (space separated) */
};

struct resolver {
	struct modlist *l;
	struct depmap m;
	const char *moddir;
	const char *kver;
	const char *workdir;
};

char *mod_name(const char *path)
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
static char *mod_plain(const struct resolver *r, const char *host)
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
		out = xasprintf("%s/%s.ko", r->workdir, name);
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
static char *guest_mod_path(const struct resolver *r, const char *rel)
{
	char *g = xasprintf("lib/modules/%s/%s", r->kver, rel);
	char *ko = strstr(g, ".ko");

	if (ko)
		ko[3] = 0;
	return g;
}

/* Adds @name and (first) everything it depends on, from modules.dep. */
static void resolve_dep(struct resolver *r, const char *name, const char *why)
{
	ssize_t i;
	char *deps, *tok[64], *save = NULL, *host;
	size_t nt = 0;

	if (strv_has(&r->l->names, name))
		return;
	i = depmap_find(&r->m, name);
	if (i < 0) {
		if (builtin(r->moddir, name))
			return;
		die("module %s (needed by %s) is not in %s/modules.dep", name,
		    why, r->moddir);
	}
	/* modules.dep lists a module's dependencies last-loaded-first. */
	deps = xstrdup(r->m.deps.v[i]);
	for (char *t = strtok_r(deps, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (nt == sizeof(tok) / sizeof(tok[0]))
			die("module %s: too many dependencies", name);
		tok[nt++] = t;
	}
	while (nt--) {
		char *dn = mod_name(tok[nt]);

		resolve_dep(r, dn, name);
		free(dn);
	}
	free(deps);
	host = xasprintf("%s/%s", r->moddir, r->m.path.v[i]);
	modlist_add(r->l, name, mod_plain(r, host), guest_mod_path(r, r->m.path.v[i]),
		    NULL);
	free(host);
}

bool modinfo_section(const char *data, size_t len, size_t *start, size_t *size)
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

void modules_resolve(struct modlist *l, const char *moddir, const char *kver,
		     const struct strv *extra, const char *workdir)
{
	struct resolver r = {
		.l = l, .moddir = moddir, .kver = kver, .workdir = workdir,
	};

	depmap_load(&r.m, moddir);
	for (size_t i = 0; i < sizeof(base_modules) / sizeof(base_modules[0]); i++)
		resolve_dep(&r, base_modules[i], PROG);
	for (size_t i = 0; i < extra->n; i++) {
		char *spec = xstrdup(extra->v[i]);
		char *sp = strpbrk(spec, " \t");
		char *params = NULL, *deps, *name, *plain, *save = NULL;

		if (sp) {
			*sp = 0;
			params = sp + 1 + strspn(sp + 1, " \t");
		}
		plain = mod_plain(&r, spec);
		deps = modinfo_depends(plain);
		name = mod_name(spec);
		for (char *t = strtok_r(deps, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			char *dn = mod_name(t);

			resolve_dep(&r, dn, name);
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
	free(r.m.text);
	free(r.m.path.v);
	free(r.m.deps.v);
}
