// SPDX-License-Identifier: MIT
/* Compute helpers for RTL tests and benchmarks (see rtl_compute.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/ppu_encode.h"
#include "ppu/ppu_workq.h"
#include "rtl_compute.h"
#include "../../runtime/launch_plan.h"

#define PAGE 4096u
#define KDIR "build/device"

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "rtl_compute: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	abort();
}

void rtl_kimage_load(struct rtl_ctx *ctx, const char *file, struct rtl_kimage *k)
{
	char path[256], err[256];
	unsigned char *img;
	uint32_t span;
	FILE *f;
	long len;

	snprintf(path, sizeof(path), KDIR "/%s.elf", file);
	f = fopen(path, "rb");
	if (!f)
		fail("%s missing: make device-kernels", path);
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		fail("%s: cannot size", path);
	k->file = malloc((size_t)len);
	if (!k->file || fread(k->file, 1, (size_t)len, f) != (size_t)len)
		fail("%s: cannot read", path);
	fclose(f);
	if (ppu_elf_open(&k->elf, k->file, (size_t)len, err, sizeof(err)))
		fail("%s: %s", path, err);

	span = (k->elf.image_bytes + PAGE - 1) & ~(PAGE - 1);
	k->code.size = k->elf.image_bytes;
	k->code.sys = 0;
	k->code.pa = rtl_alloc_pa(ctx->env, 0, span, PAGE);
	k->code.va = rtl_va_reserve(ctx, span);
	rtl_map(ctx, k->code.va, k->code.pa, 0, span,
		PPU_PTE_PERM_R | PPU_PTE_PERM_W | PPU_PTE_PERM_X);
	img = calloc(1, k->code.size);
	if (!img)
		fail("out of memory");
	if (ppu_elf_load(&k->elf, k->code.va, img, err, sizeof(err)))
		fail("%s: %s", path, err);
	rtl_buf_write(ctx->env, &k->code, 0, img, k->code.size);
	free(img);
}

uint32_t rtl_kimage_fn(const struct rtl_kimage *k, const char *name)
{
	uint32_t off;

	if (ppu_elf_symbol(&k->elf, name, &off))
		fail("no symbol %s", name);
	return k->code.va + off;
}

void rtl_kimage_free(struct rtl_kimage *k)
{
	free(k->file);
	k->file = NULL;
}

struct rtl_chan *rtl_cchan_create(struct rtl_env *env, struct rtl_ctx *ctx, unsigned int chid,
				  uint32_t pmin, uint32_t pmax, uint32_t max_depth)
{
	struct rtl_chan *ch = rtl_chan_create_ex(env, ctx, chid, 6, 0, PPU_ENGINE_TYPE_COMPUTE);
	struct rtl_buf inst = { .pa = ch->inst_pa, .sys = 0, .size = PPU_INST_BYTES };

	rtl_buf_wr32(env, &inst, PPU_INST_PRIORITY,
		     PPU_FSET(PPU_INST_PRIORITY_MIN, pmin) | PPU_FSET(PPU_INST_PRIORITY_MAX, pmax) |
		     PPU_FSET(PPU_INST_PRIORITY_MAX_DEPTH, max_depth));
	return ch;
}

void rtl_klaunch_init(struct rtl_klaunch *l, uint32_t entry, uint32_t grid_x, uint32_t cta_x,
		      const void *params, uint32_t param_bytes)
{
	memset(l, 0, sizeof(*l));
	l->entry = entry;
	l->grid[0] = grid_x;
	l->cta[0] = cta_x;
	l->params = params;
	l->param_bytes = param_bytes;
}

void rtl_klaunch_prepare(struct rtl_ctx *ctx, struct rtl_klaunch *l, uint32_t sem_payload)
{
	struct ppu_launch_limits lim = {
		.num_cu = rtl_reg_read(ctx->env, PPU_REG_CAP_NUM_CU),
		.cu_contexts = rtl_reg_read(ctx->env, PPU_REG_CAP_CU_CONTEXTS),
		.max_cta_threads = rtl_reg_read(ctx->env, PPU_REG_CAP_MAX_CTA_THREADS),
	};
	struct ppu_launch_shape shape;
	struct ppu_launch_plan plan;
	struct ppu_tmd_desc d;
	uint32_t tmd[16];
	char err[128];
	int i;

	memset(&shape, 0, sizeof(shape));
	for (i = 0; i < 3; i++) {
		shape.grid[i] = l->grid[i] ? l->grid[i] : 1;
		shape.cta[i] = l->cta[i] ? l->cta[i] : 1;
	}
	shape.stack_bytes = l->stack_bytes ? l->stack_bytes : 256;
	if (ppu_launch_plan(&lim, &shape, &plan, err, sizeof(err)))
		fail("launch plan: %s", err);

	l->sem = rtl_buf_alloc(ctx, 0, 16);
	l->tmd = rtl_buf_alloc(ctx, 0, 64);
	l->block = rtl_buf_alloc(ctx, 0, plan.block_bytes);
	l->pbuf = rtl_buf_alloc(ctx, 0, l->param_bytes ? l->param_bytes : 4);
	if (l->param_bytes)
		rtl_buf_write(ctx->env, &l->pbuf, 0, l->params, l->param_bytes);

	memset(&d, 0, sizeof(d));
	d.entry_pc = l->entry;
	for (i = 0; i < 3; i++) {
		d.grid[i] = shape.grid[i];
		d.cta[i] = shape.cta[i];
	}
	d.param = l->param_va ? l->param_va : l->pbuf.va;
	d.prio = l->prio;
	d.flags = l->flags | PPU_FSET(PPU_TMD_FLAGS_SEM_RELEASE, 1) |
		  PPU_FSET(PPU_TMD_FLAGS_SEM_TIMESTAMP, 1);
	d.sem_addr = l->sem.va;
	d.sem_payload = sem_payload;
	d.stack_bytes = plan.stack_bytes;
	d.save_ctas = plan.save_ctas;
	d.block_bytes = plan.block_bytes;
	d.block_va = l->block.va;
	ppu_tmd_fill(tmd, &d);
	rtl_buf_write(ctx->env, &l->tmd, 0, tmd, sizeof(tmd));
}

void rtl_klaunch_submit(struct rtl_chan *ch, const struct rtl_klaunch *l, uint32_t after_va,
			uint32_t after)
{
	uint32_t dw[64];
	struct ppu_pb pb;

	ppu_pb_init(&pb, dw, 64);
	ppu_pb_launch(&pb, l->tmd.va);
	ppu_pb_method(&pb, PPU_HOST_WFI, 0);
	if (after_va)
		ppu_pb_sem_release(&pb, after_va, after);
	rtl_chan_submit(ch, &pb);
}

/*
 * A queue on @qc (AUTO_PUT set here): descriptor, semaphores and trailing
 * blocks in a new buffer, entry 0 parked on X = 1 and its own semaphore,
 * bound by a doorbell.  Returns the buffer (descriptor at RTL_WORKQ_DESC, X at RTL_WORKQ_X,
 * Y at RTL_WORKQ_X + 8).
 */
struct rtl_buf rtl_workq_new(struct rtl_env *env, struct rtl_ctx *ctx, struct rtl_chan *qc,
				   struct ppu_workq *q)
{
	uint32_t n = 1u << qc->log2_entries, buf[16], e[2];
	struct rtl_buf qb = rtl_buf_alloc(ctx, 0, RTL_WORKQ_TAILS + n * PPU_WORKQ_TAIL_BYTES);
	struct ppu_pb pb;

	rtl_chan_set_auto_put(qc);
	memset(q, 0, sizeof(*q));
	q->soft = 1;
	q->shadow = n - 1;
	q->ring_va = qc->gpfifo.va;
	q->log2_entries = qc->log2_entries;
	q->sems_va = qb.va + RTL_WORKQ_SEMS;
	q->tails_va = qb.va + RTL_WORKQ_TAILS;
	q->gen = 1;
	q->x_va = qb.va + RTL_WORKQ_X;
	q->y_va = qb.va + RTL_WORKQ_X + 8;
	rtl_buf_write(env, &qb, RTL_WORKQ_DESC, q, sizeof(*q));
	ppu_pb_init(&pb, buf, 16);
	ppu_workq_park(&pb, q, q->x_va, 1, 0);
	ppu_gp_entry(e, rtl_chan_pb_put(qc, pb.dw, pb.len), pb.len, 0);
	rtl_buf_write(env, &qc->gpfifo, 0, e, 8);
	rtl_chan_doorbell(qc);
	return qb;
}
