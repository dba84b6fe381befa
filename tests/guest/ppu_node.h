/* SPDX-License-Identifier: MIT */
/*
 * Finding the PPU: the render node whose DRM driver is "ppu".  Plain C (no
 * Check), shared by the guest tests and the benchmark programs.
 */
#ifndef PPU_NODE_H
#define PPU_NODE_H

#include <stddef.h>

/*
 * Opens (O_RDWR | O_CLOEXEC) the first /dev/dri/renderD* of driver "ppu";
 * its path goes to @path when @path is not NULL.  Returns the fd or -1.
 */
int ppu_open_render_node(char *path, size_t len);

#endif /* PPU_NODE_H */
