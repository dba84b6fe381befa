/* SPDX-License-Identifier: MIT */
/*
 * Kernel images: RISC-V ELF32 static PIEs as the project's linker script
 * (runtime/device/ppu_kernel.ld) makes them, checked and loaded without a
 * device.  An image is linked at 0; loading it at @base copies its PT_LOAD
 * segments, zeroes their bss and applies the R_RISCV_RELATIVE relocations
 * for @base.  Every field of the file is bounds-checked: the file may come
 * from anyone.  Used by libppu, the RTL tests and the reference model.
 */
#ifndef PPU_MODULE_ELF_H
#define PPU_MODULE_ELF_H

#include <stddef.h>
#include <stdint.h>

struct ppu_elf {
	const unsigned char *data;
	size_t len;
	uint32_t image_bytes;	/* memory the loaded image takes, from base */
	uint32_t entry;		/* e_entry, from base */
	/* checked section indices (0: none) */
	unsigned int symtab, strtab;
};

/* Checks @data (kept, not copied) and fills @e: 0, or -1 with a message. */
int ppu_elf_open(struct ppu_elf *e, const void *data, size_t len, char *err, size_t errlen);
/*
 * Writes the image_bytes bytes of the image as loaded at @base into @dst:
 * segments, zeroed gaps and bss, relocated words.  0, or -1 with a message
 * (an unsupported relocation, one outside the image).
 */
int ppu_elf_load(const struct ppu_elf *e, uint32_t base, void *dst, char *err, size_t errlen);
/* The offset from base of a defined global function or object symbol: 0, or -1. */
int ppu_elf_symbol(const struct ppu_elf *e, const char *name, uint32_t *offset);

struct ppu_elf_sym {
	uint32_t offset;	/* from base */
	uint32_t size;		/* bytes, inside the image */
	int is_func;		/* STT_FUNC, else STT_OBJECT */
};
/* The same with the symbol's size and kind: 0, or -1. */
int ppu_elf_symbol_info(const struct ppu_elf *e, const char *name, struct ppu_elf_sym *sym);

#endif /* PPU_MODULE_ELF_H */
