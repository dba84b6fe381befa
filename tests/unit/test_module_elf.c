// SPDX-License-Identifier: MIT
/*
 * module_elf: loading, relocation and symbol lookup on images built here
 * byte by byte, and every check on corrupted copies of them.
 */
#include <check.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "module_elf.h"

/*
 * A minimal static PIE: one PT_LOAD of 0x40 file bytes at vaddr 0 with
 * 0x20 bytes of bss, a .rela.dyn with two RELATIVE words, a .symtab with
 * "entry" (FUNC at 0x8), "table" (OBJECT at 0x30), an undefined "ext" and
 * a static "local".
 */
enum {
	SEG_OFF = 0x100, SEG_FILE = 0x40, SEG_MEM = 0x60,
	RELA_OFF = 0x200, SYM_OFF = 0x240, STR_OFF = 0x2a0, SH_OFF = 0x300,
	NSEC = 4, FILE_LEN = SH_OFF + NSEC * sizeof(Elf32_Shdr),
};

static const char strtab[] = "\0entry\0table\0ext\0local";

static unsigned char *make_image(void)
{
	unsigned char *f = calloc(1, FILE_LEN);
	Elf32_Ehdr h = { 0 };
	Elf32_Phdr p = { 0 };
	Elf32_Rela r[2] = { 0 };
	Elf32_Sym s[5] = { 0 };
	Elf32_Shdr sh[NSEC] = { 0 };
	unsigned int i;

	memcpy(h.e_ident, ELFMAG, SELFMAG);
	h.e_ident[EI_CLASS] = ELFCLASS32;
	h.e_ident[EI_DATA] = ELFDATA2LSB;
	h.e_ident[EI_VERSION] = EV_CURRENT;
	h.e_type = ET_DYN;
	h.e_machine = EM_RISCV;
	h.e_version = EV_CURRENT;
	h.e_entry = 0x8;
	h.e_phoff = sizeof(h);
	h.e_shoff = SH_OFF;
	h.e_ehsize = sizeof(h);
	h.e_phentsize = sizeof(p);
	h.e_phnum = 1;
	h.e_shentsize = sizeof(Elf32_Shdr);
	h.e_shnum = NSEC;
	memcpy(f, &h, sizeof(h));

	p.p_type = PT_LOAD;
	p.p_offset = SEG_OFF;
	p.p_filesz = SEG_FILE;
	p.p_memsz = SEG_MEM;
	p.p_flags = PF_R | PF_W | PF_X;
	memcpy(f + sizeof(h), &p, sizeof(p));
	for (i = 0; i < SEG_FILE; i++)
		f[SEG_OFF + i] = (unsigned char)(0x80 + i);

	r[0].r_offset = 0x30;
	r[0].r_info = ELF32_R_INFO(0, R_RISCV_RELATIVE);
	r[0].r_addend = 0x10;
	r[1].r_offset = 0x34;
	r[1].r_info = ELF32_R_INFO(0, R_RISCV_RELATIVE);
	r[1].r_addend = 0x48;	/* into the bss */
	memcpy(f + RELA_OFF, r, sizeof(r));

	s[1].st_name = 1;
	s[1].st_value = 0x8;
	s[1].st_info = ELF32_ST_INFO(STB_GLOBAL, STT_FUNC);
	s[1].st_shndx = 1;
	s[2].st_name = 7;
	s[2].st_value = 0x30;
	s[2].st_size = 8;
	s[2].st_info = ELF32_ST_INFO(STB_GLOBAL, STT_OBJECT);
	s[2].st_shndx = 1;
	s[3].st_name = 13;
	s[3].st_info = ELF32_ST_INFO(STB_GLOBAL, STT_FUNC);
	s[3].st_shndx = SHN_UNDEF;
	s[4].st_name = 17;
	s[4].st_value = 0x10;
	s[4].st_info = ELF32_ST_INFO(STB_LOCAL, STT_OBJECT);
	s[4].st_shndx = 1;
	memcpy(f + SYM_OFF, s, sizeof(s));
	memcpy(f + STR_OFF, strtab, sizeof(strtab));

	sh[1] = (Elf32_Shdr){ .sh_type = SHT_RELA, .sh_offset = RELA_OFF, .sh_size = sizeof(r),
			      .sh_entsize = sizeof(Elf32_Rela), .sh_link = 2 };
	sh[2] = (Elf32_Shdr){ .sh_type = SHT_SYMTAB, .sh_offset = SYM_OFF, .sh_size = sizeof(s),
			      .sh_entsize = sizeof(Elf32_Sym), .sh_link = 3 };
	sh[3] = (Elf32_Shdr){ .sh_type = SHT_STRTAB, .sh_offset = STR_OFF,
			      .sh_size = sizeof(strtab) };
	memcpy(f + SH_OFF, sh, sizeof(sh));
	return f;
}

static uint32_t word(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

START_TEST(loads_relocates_and_finds_symbols)
{
	unsigned char *f = make_image(), img[SEG_MEM];
	struct ppu_elf_sym sym;
	struct ppu_elf e;
	char err[160];
	uint32_t off;
	unsigned int i;

	ck_assert_int_eq(ppu_elf_open(&e, f, FILE_LEN, err, sizeof(err)), 0);
	ck_assert_uint_eq(e.image_bytes, SEG_MEM);
	ck_assert_uint_eq(e.entry, 0x8);
	memset(img, 0xee, sizeof(img));
	ck_assert_int_eq(ppu_elf_load(&e, 0x40000, img, err, sizeof(err)), 0);
	for (i = 0; i < 0x30; i++)
		ck_assert_uint_eq(img[i], 0x80 + i);
	ck_assert_uint_eq(word(img + 0x30), 0x40010);
	ck_assert_uint_eq(word(img + 0x34), 0x40048);
	for (i = 0x38; i < SEG_FILE; i++)
		ck_assert_uint_eq(img[i], 0x80 + i);
	for (i = SEG_FILE; i < SEG_MEM; i++)
		ck_assert_uint_eq(img[i], 0);
	ck_assert_int_eq(ppu_elf_symbol(&e, "entry", &off), 0);
	ck_assert_uint_eq(off, 0x8);
	ck_assert_int_eq(ppu_elf_symbol(&e, "table", &off), 0);
	ck_assert_uint_eq(off, 0x30);
	ck_assert_int_eq(ppu_elf_symbol_info(&e, "table", &sym), 0);
	ck_assert_uint_eq(sym.offset, 0x30);
	ck_assert_uint_eq(sym.size, 8);
	ck_assert_int_eq(sym.is_func, 0);
	ck_assert_int_eq(ppu_elf_symbol_info(&e, "entry", &sym), 0);
	ck_assert_int_eq(sym.is_func, 1);
	ck_assert_int_eq(ppu_elf_symbol(&e, "ext", &off), -1);
	ck_assert_int_eq(ppu_elf_symbol(&e, "local", &off), -1);
	ck_assert_int_eq(ppu_elf_symbol(&e, "entr", &off), -1);
	ck_assert_int_eq(ppu_elf_symbol(&e, "entryx", &off), -1);
	free(f);
}
END_TEST

/* One corruption of the image and the words its message must contain. */
struct corruption {
	const char *what;
	size_t at;		/* byte offset to overwrite */
	uint32_t value;
	unsigned int bytes;	/* 1, 2 or 4 */
	int at_load;		/* open succeeds, load fails */
	const char *msg;
};

#define PH(field) (sizeof(Elf32_Ehdr) + offsetof(Elf32_Phdr, field))
#define EH(field) offsetof(Elf32_Ehdr, field)
#define SH(i, field) (SH_OFF + (i) * sizeof(Elf32_Shdr) + offsetof(Elf32_Shdr, field))
#define RELA(i, field) (RELA_OFF + (i) * sizeof(Elf32_Rela) + offsetof(Elf32_Rela, field))

static const struct corruption corruptions[] = {
	{ "magic", 0, 0x7e, 1, 0, "not an ELF" },
	{ "64-bit class", EI_CLASS, ELFCLASS64, 1, 0, "ELF32" },
	{ "big endian", EI_DATA, ELFDATA2MSB, 1, 0, "little-endian" },
	{ "x86", EH(e_machine), EM_386, 2, 0, "RISC-V" },
	{ "not PIE", EH(e_type), ET_EXEC, 2, 0, "position-independent" },
	{ "compressed", EH(e_flags), 0x1, 4, 0, "compressed" },
	{ "hard float", EH(e_flags), 0x4, 4, 0, "floating" },
	{ "RV32E", EH(e_flags), 0x8, 4, 0, "RV32E" },
	{ "phdrs past the end", EH(e_phoff), FILE_LEN - 8, 4, 0, "program headers" },
	{ "phentsize", EH(e_phentsize), 16, 2, 0, "program headers" },
	{ "no PT_LOAD", PH(p_type), PT_NOTE, 4, 0, "no loadable" },
	{ "segment past the end", PH(p_offset), FILE_LEN - 4, 4, 0, "segment 0" },
	{ "filesz > memsz", PH(p_filesz), SEG_MEM + 4, 4, 0, "segment 0" },
	{ "huge image", PH(p_memsz), 0x80000000u, 4, 0, "too large" },
	{ "entry outside", EH(e_entry), SEG_MEM, 4, 0, "entry point" },
	{ "shdrs past the end", EH(e_shoff), FILE_LEN - 4, 4, 0, "section headers" },
	{ "section past the end", SH(1, sh_size), 0x10000, 4, 0, "section 1" },
	{ "rela entsize", SH(1, sh_entsize), 8, 4, 0, "entries of 8" },
	{ "symtab strings link", SH(2, sh_link), 9, 4, 0, "without strings" },
	{ "symtab strings type", SH(3, sh_type), SHT_PROGBITS, 4, 0, "string table" },
	{ "REL section", SH(1, sh_type), SHT_REL, 4, 1, "REL relocations" },
	{ "relocation outside", RELA(1, r_offset), SEG_MEM - 2, 4, 1, "outside the image" },
	{ "R_RISCV_32", RELA(0, r_info), ELF32_R_INFO(1, R_RISCV_32), 4, 1, "type 1" },
};

START_TEST(rejects_corrupted_images)
{
	const struct corruption *c = &corruptions[_i];
	unsigned char *f = make_image(), img[SEG_MEM];
	struct ppu_elf e;
	char err[200] = "";
	int rc;

	memcpy(f + c->at, &c->value, c->bytes);
	rc = ppu_elf_open(&e, f, FILE_LEN, err, sizeof(err));
	if (c->at_load) {
		ck_assert_msg(rc == 0, "%s: open failed: %s", c->what, err);
		rc = ppu_elf_load(&e, 0x1000, img, err, sizeof(err));
	}
	ck_assert_msg(rc == -1, "%s: accepted", c->what);
	ck_assert_msg(strstr(err, c->msg), "%s: message \"%s\" lacks \"%s\"", c->what, err, c->msg);
	free(f);
}
END_TEST

START_TEST(rejects_every_truncation)
{
	unsigned char *f = make_image();
	struct ppu_elf e;
	char err[200];
	size_t len;

	/* Each prefix is either rejected or, when complete enough, sound. */
	for (len = 0; len < FILE_LEN; len++) {
		unsigned char *copy = malloc(len ? len : 1);

		memcpy(copy, f, len);
		ck_assert_msg(ppu_elf_open(&e, copy, len, err, sizeof(err)) == -1,
			      "prefix of %zu bytes accepted", len);
		free(copy);
	}
	ck_assert_int_eq(ppu_elf_open(&e, NULL, 0, err, sizeof(err)), -1);
	free(f);
}
END_TEST

START_TEST(works_without_sections)
{
	unsigned char *f = make_image(), img[SEG_MEM];
	uint16_t zero = 0;
	struct ppu_elf e;
	uint32_t off;
	char err[160];

	memcpy(f + EH(e_shnum), &zero, 2);
	ck_assert_int_eq(ppu_elf_open(&e, f, FILE_LEN, err, sizeof(err)), 0);
	ck_assert_int_eq(ppu_elf_load(&e, 0, img, err, sizeof(err)), 0);
	ck_assert_int_eq(ppu_elf_symbol(&e, "entry", &off), -1);
	free(f);
}
END_TEST

Suite *suite_module_elf(void)
{
	Suite *s = suite_create("module_elf");
	TCase *tc = tcase_create("images");

	tcase_add_test(tc, loads_relocates_and_finds_symbols);
	tcase_add_loop_test(tc, rejects_corrupted_images, 0,
			    sizeof(corruptions) / sizeof(corruptions[0]));
	tcase_add_test(tc, rejects_every_truncation);
	tcase_add_test(tc, works_without_sections);
	suite_add_tcase(s, tc);
	return s;
}
