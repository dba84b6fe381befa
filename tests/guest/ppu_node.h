/* SPDX-License-Identifier: MIT */
/*
 * Finding the PPU: the render node whose DRM driver is "ppu".  Plain C (no
 * Check), shared by the guest tests and the benchmark programs.
 */
#ifndef PPU_NODE_H
#define PPU_NODE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Opens (O_RDWR | O_CLOEXEC) the first /dev/dri/renderD* of driver "ppu";
 * its path goes to @path when @path is not NULL.  Returns the fd or -1.
 */
int ppu_open_render_node(char *path, size_t len);

/* The unprivileged user the tests and the fuzzer become: nobody/nogroup. */
#define PPU_UID_NOBODY 65534

/*
 * Becomes user @uid, group @gid, with no supplementary groups (from root:
 * setuid() to a non-zero uid then clears every capability).  Returns 0 or
 * -1 with errno set.
 */
int ppu_drop_privileges(uid_t uid, gid_t gid);

#endif /* PPU_NODE_H */
