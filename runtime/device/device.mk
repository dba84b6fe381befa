# SPDX-License-Identifier: MIT
#
# Kernels for the PPU's compute units (docs/compute-design.md §8.2).
# Included from the top-level Makefile.
#
#   make device-kernels   build/device/<name>.elf for every runtime/device/samples/<name>.c
#
# Debian's clang and ld.lld, no cross toolchain and no libc: kernels are
# freestanding C with include/ppu/ppu_device.h.  Flags:
#   -march=rv32ima -mabi=ilp32   what the compute units execute (no C, no F)
#   -mcmodel=medany -fPIE        PC-relative code that runs at any load base;
#                                data pointers become R_RISCV_RELATIVE
#   -ffreestanding -fno-builtin  no hosted library behind the compiler's back
#   -mno-relax                   no linker relaxation (ld.lld 14 does none, and
#                                gp-relative rewrites would tie code to gp)
#   -fno-stack-protector         no __stack_chk_guard on the device (off by default in
#                                Debian's clang 14 already; kept so a distribution
#                                default cannot break the link)
#   -nostdlib                    a link option, harmless with -c; the link is ld.lld
#                                itself, which adds no libraries anyway
# Link: -pie makes an ET_DYN with .rela.dyn (R_RISCV_RELATIVE for data
# pointers), --no-dynamic-linker leaves out PT_INTERP (both work in lld 14),
# and the script puts everything in one PT_LOAD at address 0.  Undefined
# symbols (e.g. a memcpy the compiler emitted for a struct copy) are link
# errors, as they should be: there is no library to resolve them.

DEVICE_CC ?= clang
DEVICE_LD ?= ld.lld
DEVICE_CFLAGS = --target=riscv32 -march=rv32ima -mabi=ilp32 -mcmodel=medany -fPIE -O2 \
	-ffreestanding -fno-builtin -nostdlib -mno-relax -fno-stack-protector -Wall -Wextra -Werror \
	-Iinclude
DEVICE_LDFLAGS = -T runtime/device/ppu_kernel.ld -pie --no-dynamic-linker
DEVICE_HDRS := include/ppu/ppu_device.h include/ppu/ppu_hw.h include/ppu/ppu_encode.h $(wildcard include/ppu/*.def) \
	$(wildcard runtime/device/samples/*.h)

DEVICE_SAMPLES := $(sort $(wildcard runtime/device/samples/*.c))
DEVICE_ELFS := $(patsubst runtime/device/samples/%.c,build/device/%.elf,$(DEVICE_SAMPLES))

.PHONY: device-kernels
device-kernels: $(DEVICE_ELFS)

build/device/%.o: runtime/device/samples/%.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(DEVICE_CC) $(DEVICE_CFLAGS) -c -o $@ $<

build/device/%.elf: build/device/%.o runtime/device/ppu_kernel.ld
	$(DEVICE_LD) $(DEVICE_LDFLAGS) -o $@ $<
