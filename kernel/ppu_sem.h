/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU semaphore pools and waits.
 */
#ifndef __PPU_SEM_H__
#define __PPU_SEM_H__

struct drm_device;
struct drm_file;
struct ppu_device;
struct ppu_file;

int ppu_sem_init(struct ppu_device *ppu);

void ppu_sem_file_init(struct ppu_file *pf);
void ppu_sem_file_close(struct ppu_file *pf);

int ppu_ioctl_sem_pool_create(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_sem_pool_destroy(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_sem_wait(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_sem_fence(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* __PPU_SEM_H__ */
