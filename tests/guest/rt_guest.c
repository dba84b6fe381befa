// SPDX-License-Identifier: MIT
/*
 * Helpers of the runtime's guest tests; see rt_guest.h.  White-box where a
 * test must get past the runtime's own checks.
 */
#include <stdio.h>
#include <string.h>

#include "ppu_internal.h"
#include "rt_guest.h"

void rt_small_copy(ppu_ctx *ctx, ppu_stream *s)
{
	ppu_devptr a, b;
	uint8_t *pa, *pb;
	int i;

	RT(ppu_mem_alloc_host(ctx, 64, (void **)&pa, &a));
	RT(ppu_mem_alloc_host(ctx, 64, (void **)&pb, &b));
	for (i = 0; i < 64; i++)
		pa[i] = (uint8_t)(i * 3 + 1);
	RT(ppu_memcpy_async(b, a, 64, s));
	RT(ppu_stream_synchronize(s));
	ck_assert_int_eq(memcmp(pa, pb, 64), 0);
	RT(ppu_mem_free(ctx, a));
	RT(ppu_mem_free(ctx, b));
}

void rt_raw_copy_unchecked(ppu_ctx *ctx, ppu_devptr dst, ppu_devptr src, uint32_t len)
{
	ppu_stream *s = ppu_ctx_default_stream(ctx);
	struct ppu_pb pb;
	uint32_t seq;

	RT(ppu_chan_begin(s->chan, 16, &pb));
	ppu_pb_copy(&pb, (uint32_t)src, (uint32_t)dst, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	RT(ppu_chan_submit(s->chan, &pb, &seq));
	s->last_chan = s->chan;
	s->last_seq = seq;
	s->has_work = 1;
}

void rt_load_kernel(ppu_ctx *ctx, const char *file, const char *name, ppu_module **m,
		    ppu_function **fn)
{
	char path[64];

	snprintf(path, sizeof(path), "/lib/ppu/%s.elf", file);
	RT(ppu_module_load(ctx, path, m));
	RT(ppu_module_get_function(*m, name, fn));
}
