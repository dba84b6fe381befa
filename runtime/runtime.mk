# SPDX-License-Identifier: MIT
#
# libppu, the userspace runtime.  Included from the top-level Makefile.
#
#   make runtime          build/runtime/libppu.a, libppu.so (soname libppu.so.0), ppu.pc
#   make runtime-install  install them under $(DESTDIR)$(PREFIX) (default /usr/local)

PREFIX ?= /usr/local
LIBPPU_SRCS := $(addprefix runtime/,status.c device.c context.c owner.c memory.c sem.c chan.c stream.c \
	event.c fault.c priority_map.c copy_prio.c pb_ring.c module_elf.c module.c launch_plan.c \
	tl_ring.c launch_cmds.c kernel_launch.c workq.c trace.c)
LIBPPU_HDRS := runtime/include/ppu_runtime.h runtime/ppu_internal.h runtime/priority_map.h \
	runtime/copy_prio.h runtime/pb_ring.h runtime/module_elf.h runtime/launch_plan.h \
	runtime/tl_ring.h runtime/launch_cmds.h runtime/trace.h runtime/owner.h \
	runtime/errbuf.h include/uapi/drm/ppu_drm.h include/ppu/ppu_hw.h \
	include/ppu/ppu_encode.h $(wildcard include/ppu/*.def)
LIBPPU_OBJS := $(patsubst runtime/%.c,build/runtime/%.o,$(LIBPPU_SRCS))
LIBPPU_A := build/runtime/libppu.a
LIBPPU_SO := build/runtime/libppu.so.0.1
LIBPPU_PC := build/runtime/ppu.pc
LIBPPU_CFLAGS = -std=gnu11 -O2 -g -fPIC -fvisibility=hidden -Wall -Wextra -Werror \
	-Iruntime -Iruntime/include -Iinclude -Iinclude/uapi $(shell pkg-config --cflags libdrm)
# Static programs (the guest's busybox initramfs has no shared libraries).
LIBPPU_STATIC_LIBS = $(LIBPPU_A) $(shell pkg-config --static --libs libdrm)

.PHONY: runtime runtime-install

runtime: $(LIBPPU_A) build/runtime/libppu.so $(LIBPPU_PC)

build/runtime/%.o: runtime/%.c $(LIBPPU_HDRS)
	@mkdir -p $(@D)
	$(CC) $(LIBPPU_CFLAGS) -c -o $@ $<

$(LIBPPU_A): $(LIBPPU_OBJS)
	rm -f $@
	ar rcs $@ $^

$(LIBPPU_SO): $(LIBPPU_OBJS)
	$(CC) -shared -Wl,-soname,libppu.so.0 -o $@ $^ $(shell pkg-config --libs libdrm)

build/runtime/libppu.so: $(LIBPPU_SO)
	ln -sf libppu.so.0.1 build/runtime/libppu.so.0
	ln -sf libppu.so.0.1 $@

$(LIBPPU_PC): runtime/ppu.pc.in
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|g' $< > $@

runtime-install: runtime
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 644 runtime/include/ppu_runtime.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(LIBPPU_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIBPPU_SO) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libppu.so.0.1 $(DESTDIR)$(PREFIX)/lib/libppu.so.0
	ln -sf libppu.so.0.1 $(DESTDIR)$(PREFIX)/lib/libppu.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' runtime/ppu.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/ppu.pc

# ---- the runtime's guest programs (static, for the busybox initramfs) ----

RT_GUEST_BINS := build/guest/test_runtime build/guest/test_runtime_prio \
	build/guest/test_runtime_modules build/guest/test_runtime_kernels \
	build/guest/test_runtime_children build/guest/test_runtime_workq
RT_GUEST_CFLAGS = -std=gnu11 -O2 -g -Wall -Wextra -Iruntime -Iruntime/include -Iinclude \
	-Iinclude/uapi -Itests/guest $(shell pkg-config --cflags libdrm check) -pthread
RT_GUEST_HELPERS := tests/guest/rt_guest.c tests/guest/rt_guest.h tests/guest/rt_prio_run.c \
	tests/guest/rt_prio_run.h tests/guest/ppu_guest.c tests/guest/ppu_guest.h tests/guest/ppu_node.c \
	tests/guest/rt_workq.c tests/guest/rt_workq.h

# Programs on the same helpers: the benchmark, the demo and the soak.
RT_GUEST_PROGS := build/guest/bench_copy_prio build/guest/runtime_demo build/guest/soak_copy_prio \
	build/guest/bench_workq build/guest/host_trace

# Programs of the two-PPU boot (make multi-check).
RT_MULTI_BINS := build/guest/test_multi_device

.PHONY: runtime-guest-tests
runtime-guest-tests: $(RT_GUEST_BINS)

$(RT_GUEST_PROGS) $(RT_GUEST_BINS) $(RT_MULTI_BINS): build/guest/%: \
		tests/guest/%.c \
		$(RT_GUEST_HELPERS) $(LIBPPU_A)
	@mkdir -p $(@D)
	$(CC) $(RT_GUEST_CFLAGS) -static -o $@ $< tests/guest/rt_guest.c tests/guest/rt_prio_run.c \
		tests/guest/ppu_guest.c tests/guest/ppu_node.c tests/guest/rt_workq.c $(LIBPPU_STATIC_LIBS) $(shell pkg-config --static --libs check)
