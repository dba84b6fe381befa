/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU debugfs files.
 */
#ifndef __PPU_DEBUGFS_H__
#define __PPU_DEBUGFS_H__

struct drm_minor;

#if defined(CONFIG_DEBUG_FS)
void ppu_debugfs_init(struct drm_minor *minor);
#else
static inline void ppu_debugfs_init(struct drm_minor *minor)
{
}
#endif

#endif /* __PPU_DEBUGFS_H__ */
