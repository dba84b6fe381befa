# SPDX-License-Identifier: MIT
#
# The instruction-set reference model of the compute units and its tests.
# Included from the top-level Makefile.
#
#   make build/tests/iss_tests   Check tests; run from the top of the tree
#                                (they read the kernels in build/device/)

ISS_SRCS := tests/iss/ppu_iss.c
ISS_HDRS := tests/iss/ppu_iss.h
ISS_TEST_BIN := build/tests/iss_tests

$(ISS_TEST_BIN): tests/iss/iss_main.c tests/iss/test_iss.c $(ISS_SRCS) $(ISS_HDRS) \
		runtime/module_elf.c runtime/module_elf.h runtime/device/samples/samples.h \
		include/ppu/*.h include/ppu/*.def $(DEVICE_ELFS)
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -Itests/iss -Iruntime -Iruntime/device/samples $(CHECK_CFLAGS) \
		-DPPU_DEVICE_DIR='"build/device"' -o $@ tests/iss/iss_main.c tests/iss/test_iss.c \
		$(ISS_SRCS) runtime/module_elf.c $(CHECK_LIBS)
