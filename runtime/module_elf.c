// SPDX-License-Identifier: MIT
/*
 * RISC-V ELF32 kernel images (see module_elf.h).  Headers are copied out
 * with memcpy, so the file may sit at any alignment; it is little-endian,
 * like the hosts the runtime runs on.
 */
#include <elf.h>
#include <string.h>

#include "errbuf.h"
#include "module_elf.h"

#ifndef EF_RISCV_RVC
#define EF_RISCV_RVC 0x0001
#define EF_RISCV_FLOAT_ABI 0x0006
#define EF_RISCV_RVE 0x0008
#endif

/* [off, off + n) lies inside the file. */
static int in_file(const struct ppu_elf *e, uint64_t off, uint64_t n)
{
	return off <= e->len && n <= e->len - off;
}

static void ehdr(const struct ppu_elf *e, Elf32_Ehdr *h)
{
	memcpy(h, e->data, sizeof(*h));
}

static void phdr(const struct ppu_elf *e, const Elf32_Ehdr *h, unsigned int i, Elf32_Phdr *p)
{
	memcpy(p, e->data + h->e_phoff + (size_t)i * h->e_phentsize, sizeof(*p));
}

static void shdr(const struct ppu_elf *e, const Elf32_Ehdr *h, unsigned int i, Elf32_Shdr *s)
{
	memcpy(s, e->data + h->e_shoff + (size_t)i * h->e_shentsize, sizeof(*s));
}

static int check_ident(const Elf32_Ehdr *h, char *err, size_t errlen)
{
	if (memcmp(h->e_ident, ELFMAG, SELFMAG))
		return ppu_errbuf(err, errlen, "not an ELF file");
	if (h->e_ident[EI_CLASS] != ELFCLASS32 || h->e_ident[EI_DATA] != ELFDATA2LSB)
		return ppu_errbuf(err, errlen, "not a little-endian ELF32 file");
	if (h->e_machine != EM_RISCV)
		return ppu_errbuf(err, errlen, "not a RISC-V file (machine %u)", h->e_machine);
	if (h->e_type != ET_DYN)
		return ppu_errbuf(err, errlen, "not a position-independent executable (type %u): link "
			    "with -pie and runtime/device/ppu_kernel.ld", h->e_type);
	/* The compute units have no C extension, no FPU and 32 registers. */
	if (h->e_flags & (EF_RISCV_RVC | EF_RISCV_FLOAT_ABI | EF_RISCV_RVE))
		return ppu_errbuf(err, errlen, "built for compressed, floating-point or RV32E code "
			    "(flags %#x): use -march=rv32ima -mabi=ilp32", h->e_flags);
	return 0;
}

/* The loadable segments: extent of the image, each inside the file. */
static int check_segments(struct ppu_elf *e, const Elf32_Ehdr *h, char *err, size_t errlen)
{
	uint64_t end = 0;
	unsigned int i, nload = 0;

	if (h->e_phentsize != sizeof(Elf32_Phdr) ||
	    !in_file(e, h->e_phoff, (uint64_t)h->e_phnum * sizeof(Elf32_Phdr)))
		return ppu_errbuf(err, errlen, "program headers outside the file");
	for (i = 0; i < h->e_phnum; i++) {
		Elf32_Phdr p;

		phdr(e, h, i, &p);
		if (p.p_type != PT_LOAD)
			continue;
		if (p.p_filesz > p.p_memsz || !in_file(e, p.p_offset, p.p_filesz))
			return ppu_errbuf(err, errlen, "segment %u outside the file", i);
		if ((uint64_t)p.p_vaddr + p.p_memsz > end)
			end = (uint64_t)p.p_vaddr + p.p_memsz;
		nload++;
	}
	if (!nload)
		return ppu_errbuf(err, errlen, "no loadable segment");
	/* Room for a base and the stacks: far below the 32-bit address space. */
	if (end > (1u << 30))
		return ppu_errbuf(err, errlen, "image of %llu bytes is too large", (unsigned long long)end);
	e->image_bytes = (uint32_t)end;
	if (h->e_entry >= e->image_bytes)
		return ppu_errbuf(err, errlen, "entry point %#x outside the image", h->e_entry);
	e->entry = h->e_entry;
	return 0;
}

/* Section headers are optional, but those present must be sound. */
static int check_sections(struct ppu_elf *e, const Elf32_Ehdr *h, char *err, size_t errlen)
{
	unsigned int i;

	if (!h->e_shnum)
		return 0;
	if (h->e_shentsize != sizeof(Elf32_Shdr) ||
	    !in_file(e, h->e_shoff, (uint64_t)h->e_shnum * sizeof(Elf32_Shdr)))
		return ppu_errbuf(err, errlen, "section headers outside the file");
	for (i = 1; i < h->e_shnum; i++) {
		Elf32_Shdr s;

		shdr(e, h, i, &s);
		if (s.sh_type == SHT_NOBITS || s.sh_type == SHT_NULL)
			continue;
		if (!in_file(e, s.sh_offset, s.sh_size))
			return ppu_errbuf(err, errlen, "section %u outside the file", i);
		if ((s.sh_type == SHT_RELA && s.sh_entsize != sizeof(Elf32_Rela)) ||
		    (s.sh_type == SHT_SYMTAB && s.sh_entsize != sizeof(Elf32_Sym)))
			return ppu_errbuf(err, errlen, "section %u has entries of %u bytes", i,
				    s.sh_entsize);
		if (s.sh_type == SHT_SYMTAB && !e->symtab) {
			Elf32_Shdr str;

			if (s.sh_link == 0 || s.sh_link >= h->e_shnum)
				return ppu_errbuf(err, errlen, "symbol table without strings");
			shdr(e, h, s.sh_link, &str);
			if (str.sh_type != SHT_STRTAB || !in_file(e, str.sh_offset, str.sh_size))
				return ppu_errbuf(err, errlen, "bad string table of the symbols");
			e->symtab = i;
			e->strtab = s.sh_link;
		}
	}
	return 0;
}

int ppu_elf_open(struct ppu_elf *e, const void *data, size_t len, char *err, size_t errlen)
{
	Elf32_Ehdr h;

	memset(e, 0, sizeof(*e));
	e->data = data;
	e->len = len;
	if (!data || len < sizeof(h))
		return ppu_errbuf(err, errlen, "file of %zu bytes is too short for an ELF header", len);
	ehdr(e, &h);
	if (check_ident(&h, err, errlen) || check_segments(e, &h, err, errlen) ||
	    check_sections(e, &h, err, errlen))
		return -1;
	return 0;
}

static int relocate(const struct ppu_elf *e, const Elf32_Ehdr *h, uint32_t base,
		    unsigned char *dst, char *err, size_t errlen)
{
	unsigned int i;
	uint32_t k;

	for (i = 1; i < h->e_shnum; i++) {
		Elf32_Shdr s;

		shdr(e, h, i, &s);
		if (s.sh_type == SHT_REL)
			return ppu_errbuf(err, errlen, "REL relocations are not supported");
		if (s.sh_type != SHT_RELA)
			continue;
		for (k = 0; k < s.sh_size / sizeof(Elf32_Rela); k++) {
			Elf32_Rela r;
			uint32_t v;

			memcpy(&r, e->data + s.sh_offset + (size_t)k * sizeof(r), sizeof(r));
			switch (ELF32_R_TYPE(r.r_info)) {
			case R_RISCV_NONE:
				continue;
			case R_RISCV_RELATIVE:
				if (r.r_offset > e->image_bytes - 4 || e->image_bytes < 4)
					return ppu_errbuf(err, errlen, "relocation at %#x outside the "
						    "image", r.r_offset);
				v = base + (uint32_t)r.r_addend;
				memcpy(dst + r.r_offset, &v, 4);
				continue;
			default:
				return ppu_errbuf(err, errlen, "relocation type %u at %#x is not supported "
					    "(only R_RISCV_RELATIVE: link with -pie, no shared "
					    "libraries)", ELF32_R_TYPE(r.r_info), r.r_offset);
			}
		}
	}
	return 0;
}

int ppu_elf_load(const struct ppu_elf *e, uint32_t base, void *dst, char *err, size_t errlen)
{
	unsigned char *out = dst;
	Elf32_Ehdr h;
	unsigned int i;

	ehdr(e, &h);
	memset(out, 0, e->image_bytes);
	for (i = 0; i < h.e_phnum; i++) {
		Elf32_Phdr p;

		phdr(e, &h, i, &p);
		if (p.p_type == PT_LOAD)
			memcpy(out + p.p_vaddr, e->data + p.p_offset, p.p_filesz);
	}
	return relocate(e, &h, base, out, err, errlen);
}

int ppu_elf_symbol_info(const struct ppu_elf *e, const char *name, struct ppu_elf_sym *out)
{
	Elf32_Shdr sym, str;
	Elf32_Ehdr h;
	uint32_t k;
	size_t nlen = strlen(name);

	if (!e->symtab)
		return -1;
	ehdr(e, &h);
	shdr(e, &h, e->symtab, &sym);
	shdr(e, &h, e->strtab, &str);
	for (k = 1; k < sym.sh_size / sizeof(Elf32_Sym); k++) {
		Elf32_Sym s;
		int type, bind;

		memcpy(&s, e->data + sym.sh_offset + (size_t)k * sizeof(s), sizeof(s));
		type = ELF32_ST_TYPE(s.st_info);
		bind = ELF32_ST_BIND(s.st_info);
		/* Only what the kernel's C code exports: statics may repeat names. */
		if (s.st_shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_OBJECT) ||
		    (bind != STB_GLOBAL && bind != STB_WEAK))
			continue;
		/* The name and its NUL inside the string table. */
		if (s.st_name >= str.sh_size || nlen >= str.sh_size - s.st_name ||
		    memcmp(e->data + str.sh_offset + s.st_name, name, nlen + 1))
			continue;
		if (s.st_value >= e->image_bytes || s.st_size > e->image_bytes - s.st_value)
			return -1;
		out->offset = s.st_value;
		out->size = s.st_size;
		out->is_func = type == STT_FUNC;
		return 0;
	}
	return -1;
}

int ppu_elf_symbol(const struct ppu_elf *e, const char *name, uint32_t *offset)
{
	struct ppu_elf_sym sym;

	if (ppu_elf_symbol_info(e, name, &sym))
		return -1;
	*offset = sym.offset;
	return 0;
}
