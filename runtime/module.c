// SPDX-License-Identifier: MIT
/*
 * Modules: kernel images in device memory.  The image is checked and
 * relocated on the CPU by module_elf, for the address of the allocation
 * that will hold it; a local-memory image is staged in a host allocation
 * and moved by the copy engine, since the CPU does not write local memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "module_elf.h"
#include "ppu_internal.h"

struct ppu_function {
	ppu_function *next;
	ppu_module *mod;
	uint32_t entry;		/* device address */
	char name[];
};

struct ppu_module {
	ppu_ctx *ctx;
	ppu_module *next;
	struct ppu_elf elf;	/* over data */
	unsigned char *data;	/* the caller's image, copied */
	ppu_devptr base;
	ppu_function *functions;
	char name[64];		/* in host events: the file's name */
};

/* Allocates device memory for the image and puts the relocated image there. */
static ppu_status place(ppu_ctx *ctx, ppu_module *m)
{
	uint64_t bytes = m->elf.image_bytes;
	char err[256];
	ppu_devptr stage_d;
	ppu_status st;
	void *stage;

	st = ppu_mem_alloc(ctx, bytes, &m->base);
	if (st == PPU_ERROR_OUT_OF_DEVICE_MEMORY || st == PPU_ERROR_NOT_SUPPORTED) {
		/* No local memory, or none left: the image runs from host memory. */
		st = ppu_mem_alloc_host(ctx, bytes, &stage, &m->base);
		if (st)
			return st;
		if (ppu_elf_load(&m->elf, (uint32_t)m->base, stage, err, sizeof(err)))
			return ppu_fail(PPU_ERROR_INVALID_IMAGE, "ppu_module_load: %s", err);
		return PPU_SUCCESS;
	}
	if (st)
		return st;
	st = ppu_mem_alloc_host(ctx, bytes, &stage, &stage_d);
	if (st)
		return st;
	if (ppu_elf_load(&m->elf, (uint32_t)m->base, stage, err, sizeof(err)))
		st = ppu_fail(PPU_ERROR_INVALID_IMAGE, "ppu_module_load: %s", err);
	else
		st = ppu_memcpy(ctx, m->base, stage_d, bytes);
	ppu_mem_free(ctx, stage_d);
	return st;
}

static void module_free(ppu_module *m)
{
	while (m->functions) {
		ppu_function *f = m->functions;

		m->functions = f->next;
		free(f);
	}
	free(m->data);
	free(m);
}

static ppu_status module_load(ppu_ctx *ctx, const void *image, size_t bytes, const char *name,
			      ppu_module **out);

ppu_status ppu_module_load_data(ppu_ctx *ctx, const void *image, size_t bytes, ppu_module **out)
{
	ppu_clear_error();
	return module_load(ctx, image, bytes, "image", out);
}

static ppu_status module_load(ppu_ctx *ctx, const void *image, size_t bytes, const char *name,
			      ppu_module **out)
{
	int64_t t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	char err[256];
	ppu_module *m;
	ppu_status st;

	if (!ctx || !image || !out)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_module_load: NULL argument");
	m = calloc(1, sizeof(*m));
	if (!m || !(m->data = malloc(bytes ? bytes : 1))) {
		free(m);
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "out of host memory");
	}
	memcpy(m->data, image, bytes);
	m->ctx = ctx;
	snprintf(m->name, sizeof(m->name), "%s", name);
	if (ppu_elf_open(&m->elf, m->data, bytes, err, sizeof(err))) {
		module_free(m);
		return ppu_fail(PPU_ERROR_INVALID_IMAGE, "ppu_module_load: %s", err);
	}
	st = place(ctx, m);
	if (st) {
		if (m->base)
			ppu_mem_free(ctx, m->base);
		module_free(m);
		return st;
	}
	m->next = ctx->modules;
	ctx->modules = m;
	/* New code: the next kernel of every compute channel drops cached instructions. */
	ctx->module_gen++;
	if (PPU_TRACING())
		ppu_trace_line(t0, ppu_trace_now() - t0, "MODULE_LOAD", "ctx=%u module=%s bytes=%zu "
			       "image_bytes=%llu base=%#llx", ctx->trace_id, m->name, bytes,
			       (unsigned long long)m->elf.image_bytes, (unsigned long long)m->base);
	*out = m;
	return PPU_SUCCESS;
}

ppu_status ppu_module_load(ppu_ctx *ctx, const char *path, ppu_module **out)
{
	unsigned char *buf = NULL;
	size_t len = 0;
	struct stat sb;
	ppu_status st;
	ssize_t n;
	int fd;

	ppu_clear_error();
	if (!ctx || !path || !out)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_module_load: NULL argument");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ppu_fail_errno(errno, "ppu_module_load: %s", path);
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		st = ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_module_load: %s is not a file", path);
		goto out;
	}
	buf = malloc(sb.st_size ? (size_t)sb.st_size : 1);
	if (!buf) {
		st = ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "out of host memory");
		goto out;
	}
	while (len < (size_t)sb.st_size) {
		n = read(fd, buf + len, (size_t)sb.st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			st = ppu_fail_errno(n ? errno : EIO, "ppu_module_load: reading %s", path);
			goto out;
		}
		len += (size_t)n;
	}
	st = module_load(ctx, buf, len, strrchr(path, '/') ? strrchr(path, '/') + 1 : path, out);
out:
	free(buf);
	close(fd);
	return st;
}

ppu_status ppu_module_get_function(ppu_module *m, const char *name, ppu_function **out)
{
	struct ppu_elf_sym sym;
	ppu_function *f;

	ppu_clear_error();
	if (!m || !name || !out)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_module_get_function: NULL argument");
	for (f = m->functions; f; f = f->next) {
		if (!strcmp(f->name, name)) {
			*out = f;
			return PPU_SUCCESS;
		}
	}
	if (ppu_elf_symbol_info(&m->elf, name, &sym) || !sym.is_func)
		return ppu_fail(PPU_ERROR_NOT_FOUND, "ppu_module_get_function: no function \"%s\"",
				name);
	if (sym.offset & 3)
		return ppu_fail(PPU_ERROR_INVALID_IMAGE, "ppu_module_get_function: \"%s\" at %#x "
				"is not 4-byte aligned", name, sym.offset);
	f = calloc(1, sizeof(*f) + strlen(name) + 1);
	if (!f)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "out of host memory");
	f->mod = m;
	f->entry = (uint32_t)m->base + sym.offset;
	strcpy(f->name, name);
	f->next = m->functions;
	m->functions = f;
	*out = f;
	return PPU_SUCCESS;
}

ppu_status ppu_module_get_global(ppu_module *m, const char *name, ppu_devptr *dptr, size_t *bytes)
{
	struct ppu_elf_sym sym;

	ppu_clear_error();
	if (!m || !name || !dptr)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_module_get_global: NULL argument");
	if (ppu_elf_symbol_info(&m->elf, name, &sym) || sym.is_func)
		return ppu_fail(PPU_ERROR_NOT_FOUND, "ppu_module_get_global: no variable \"%s\"",
				name);
	*dptr = m->base + sym.offset;
	if (bytes)
		*bytes = sym.size;
	return PPU_SUCCESS;
}

ppu_status ppu_module_unload(ppu_module *m)
{
	ppu_module **pp;

	ppu_clear_error();
	if (!m)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_module_unload: NULL module");
	for (pp = &m->ctx->modules; *pp; pp = &(*pp)->next) {
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	}
	ppu_mem_free(m->ctx, m->base);
	/* The address may hold other code next: drop what the compute units cached. */
	m->ctx->module_gen++;
	module_free(m);
	return PPU_SUCCESS;
}

ppu_ctx *ppu_function_ctx(const ppu_function *fn)
{
	return fn->mod->ctx;
}

const char *ppu_function_name(const ppu_function *fn, const char **module)
{
	*module = fn->mod->name;
	return fn->name;
}

uint32_t ppu_function_entry(const ppu_function *fn)
{
	return fn->entry;
}

void ppu_modules_free(ppu_ctx *ctx)
{
	while (ctx->modules) {
		ppu_module *m = ctx->modules;

		ctx->modules = m->next;
		module_free(m);	/* the allocations go with the context's */
	}
}
