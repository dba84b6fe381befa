/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the guest tests of ppu.ko (Check): find the ppu render node,
 * call GET_PARAM, read and write the driver's debugfs files.  The helpers
 * that can fail assert (ck_assert), so they are for use inside tests.
 */
#ifndef PPU_GUEST_H
#define PPU_GUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "drm/ppu_drm.h"

/* Guest time is slow (TCG, microseconds per register access). */
#define PPU_GUEST_TEST_TIMEOUT_S 120

/* The open render node of driver "ppu", set by ppu_guest_setup(). */
extern int ppu_fd;
extern char ppu_node[288];

/* Checked fixture: opens the render node (fails the test if none). */
void ppu_guest_setup(void);
void ppu_guest_teardown(void);
/*
 * The same with the per-file limits on channels and local memory lifted
 * (module parameters), for tests of what happens when the whole device is
 * taken; the teardown restores the defaults.
 */
void ppu_guest_setup_unlimited(void);
void ppu_guest_teardown_unlimited(void);

/* GET_PARAM: 0 or -errno. */
int ppu_get_param(uint32_t param, uint32_t pad, uint64_t *value);
/* GET_PARAM that must succeed. */
uint64_t ppu_param(uint32_t param);
/*
 * The local memory the co-simulated device was given, in MiB: 64 (the
 * device's default), or PPU_TEST_LOCAL_MEM_MIB from the environment when
 * a run gives the device another size (ppu-cosim
 * --dev-arg=--local-mem-mib=N).  Tests check the driver against it.
 */
uint64_t ppu_guest_local_mem_mib(void);
/* The PPU's channels: PPU_TEST_NUM_CHANNELS, else the default 16. */
uint32_t ppu_guest_num_channels(void);

/* dri/<render minor>/<file>; mounts debugfs if needed.  Returns length. */
size_t ppu_debugfs_read(const char *file, char *buf, size_t len);
/* Writes text to dri/<render minor>/<file>: 0 or -errno. */
int ppu_debugfs_write(const char *file, const char *text);
/* Another open of the render node (a second client); fails the test if it cannot. */
int ppu_client_open(void);
/* The value of the "NAME value" line (decimal or 0x hex); asserts it exists. */
uint64_t ppu_debugfs_value(const char *text, const char *name);
/* The value of the "NAME value" line, or @def when there is none. */
uint64_t ppu_debugfs_value_or(const char *text, const char *name, uint64_t def);
/* Whether the channel-id list @name ("3,5-7") in debugfs @text holds @id. */
bool ppu_debugfs_list_has(const char *text, const char *name, unsigned int id);

/* The driver's sysfs directory, for unbind/bind tests. */
#define PPU_DRIVER_SYSFS "/sys/bus/pci/drivers/ppu"
/* Writes @text to a sysfs file; a failure fails the test. */
void ppu_sysfs_write(const char *path, const char *text);
/* Sets module parameter @name of ppu.ko (written by root at run time). */
void ppu_module_param_set(const char *name, unsigned long value);
/*
 * Puts every run-time parameter of ppu.ko back to its default, without
 * assertions: an unchecked teardown, so that a test that failed half-way
 * leaves the next ones the defaults.
 */
void ppu_module_params_reset(void);
/* The INTR_ENABLE the driver runs with: EVENT with its event ring, else FAULT | NONSTALL. */
uint32_t ppu_intr_mask_expected(void);

/* Drops capability @cap from the effective set of this process (asserts). */
void ppu_drop_effective_cap(int cap);

/*
 * ---- clients without any privilege (test_unpriv) ----
 *
 * The render node is made read-writable by every user, as the fuzzer does
 * (an unchecked setup: no assertions; a missing node shows up as a failed
 * open in the test); the teardown puts its mode back.
 */
void ppu_node_open_to_all(void);
void ppu_node_restore_mode(void);
/*
 * In a child forked by a test: becomes user and group @uid with no
 * supplementary groups, and fails the test unless the effective and
 * permitted capability sets are empty.  ppu_fd is then a file this user
 * opened.
 */
void ppu_become_unprivileged(uid_t uid);
/*
 * Forks a child that becomes @uid (ppu_become_unprivileged()), runs
 * @fn(@arg) and exits 0; a failed assertion in it exits 1, with its
 * message as the test's.  Returns the child's pid.
 */
pid_t ppu_unpriv_start(uid_t uid, void (*fn)(void *arg), void *arg);
/* Waits for such a child: fails the test unless it exited 0. */
void ppu_unpriv_wait(pid_t pid);
/* Both: runs @fn(@arg) as @uid and waits for it. */
void ppu_unpriv_run(uid_t uid, void (*fn)(void *arg), void *arg);

/* PCI address (bdf) of the device behind the open render node. */
void ppu_render_node_bdf(char *bdf, size_t len);

#endif /* PPU_GUEST_H */
