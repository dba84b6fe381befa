/* SPDX-License-Identifier: MIT */
/*
 * ppu-cosim: the device process (ppu-cosim-dev), which serves the
 * Verilated PPU on the other end of QEMU's proxy socket.
 */
#ifndef COSIM_DEVICE_H
#define COSIM_DEVICE_H

#include <sys/types.h>

#include "options.h"

/*
 * --dev, else ppu-cosim-dev (ppu-cosim-dev-fpga with --fpga) next to this
 * program (build tree or install), else from PATH.
 */
const char *device_binary(const struct opts *o);
/*
 * The command line of device @index into @argv: the socket fd, the qtest
 * socket, --stats, its name when there are several, traces, --dev-arg.
 */
void device_argv(struct strv *argv, const char *bin, const struct opts *o,
		 int index, int fd, const char *qtest_sock);
/*
 * The trace or waveform file of device @index of @n: @path itself for one
 * device, else @path with "-ppu<index>" before the extension of its last
 * component ("run.trace" -> "run-ppu1.trace", "out" -> "out-ppu1").
 */
char *device_file(const char *path, int index, int n);
/*
 * Waits up to @secs for @pid to exit, then stops it (SIGTERM, SIGKILL).
 * Returns its wait status, or -1 when it had to be stopped.
 */
int device_wait(pid_t pid, double secs);

#endif /* COSIM_DEVICE_H */
