// SPDX-License-Identifier: MIT
#include "rtl_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE 4096u

static void die(const char *what)
{
	fprintf(stderr, "rtl_env: %s\n", what);
	abort();
}

static void on_event(void *ctx, const struct ppu_sim_event *ev)
{
	struct rtl_env *env = ctx;

	if (env->nev == env->cap_ev) {
		size_t cap = env->cap_ev ? env->cap_ev * 2 : 4096;
		struct ppu_sim_event *n = realloc(env->ev, cap * sizeof(*n));

		if (!n)
			die("out of memory for the event log");
		env->ev = n;
		env->cap_ev = cap;
	}
	env->ev[env->nev++] = *ev;
	if (env->verbose) {
		const char *k = ppu_sim_kind_name(ev->kind);

		fprintf(stderr, "%10llu %-13s ch=%u a=0x%08x b=0x%08x\n",
			(unsigned long long)ev->cycle, k ? k : "?", ev->chid, ev->a, ev->b);
	}
}

static void default_config(struct ppu_sim_config *c)
{
	ppu_sim_config_default(c);
	c->local_mem_bytes = 64u << 20;
	c->sys_mem_bytes = 64u << 20;
}

struct rtl_env *rtl_env_create(const struct ppu_sim_config *cfg)
{
	struct ppu_sim_config c;
	struct rtl_env *env = calloc(1, sizeof(*env));
	uint32_t e[2] = { 0, 0 };

	if (!env)
		die("out of memory");
	if (cfg)
		c = *cfg;
	else
		default_config(&c);
	env->verbose = getenv("PPU_TEST_VERBOSE") != NULL;
	/* a waveform of every model the test builds (slow: one test at a time) */
	if (!c.fst_path && getenv("PPU_TEST_FST"))
		c.fst_path = getenv("PPU_TEST_FST");
	env->sim = ppu_sim_create(&c);
	if (!env->sim)
		die("ppu_sim_create failed");
	env->mem_bytes[0] = c.local_mem_bytes;
	env->mem_bytes[1] = c.sys_xlate ? 0 : c.sys_mem_bytes;
	/* keep page 0 unused so that a zero address is never valid data */
	env->next_pa[0] = PAGE;
	env->next_pa[1] = PAGE;
	ppu_sim_set_event_cb(env->sim, on_event, env);

	/* one entry per channel the PPU has, whole pages */
	env->chan_table_pa = rtl_alloc_pa(env, 0,
		((uint64_t)rtl_reg_read(env, PPU_REG_CAP_NUM_CHANNELS) * PPU_CHAN_ENTRY_BYTES + PAGE - 1) &
		~(uint64_t)(PAGE - 1), PAGE);
	(void)e;
	rtl_reg_write(env, PPU_REG_CHAN_TABLE_LO, (uint32_t)env->chan_table_pa);
	rtl_reg_write(env, PPU_REG_CHAN_TABLE_HI, ppu_addr_hi(env->chan_table_pa, 0));
	return env;
}

struct rtl_env *rtl_env_create_mem(uint32_t local_latency, uint32_t sys_latency,
				   uint32_t local_bytes_per_cycle, uint32_t sys_bytes_per_cycle)
{
	struct ppu_sim_config c;

	default_config(&c);
	if (local_latency)
		c.local_latency = local_latency;
	if (sys_latency)
		c.sys_latency = sys_latency;
	if (local_bytes_per_cycle)
		c.local_bytes_per_cycle = local_bytes_per_cycle;
	if (sys_bytes_per_cycle)
		c.sys_bytes_per_cycle = sys_bytes_per_cycle;
	return rtl_env_create(&c);
}

struct rtl_env *rtl_env_create_traced(const struct ppu_sim_config *cfg, const char *path)
{
	struct ppu_sim_config c;

	if (!path)
		return rtl_env_create(cfg);
	if (cfg)
		c = *cfg;
	else
		default_config(&c);
	c.trace_path = path;
	return rtl_env_create(&c);
}

const char *rtl_trace_file(const char *dir, const char *name)
{
	size_t n;
	char *p;

	if (!dir)
		return NULL;
	n = strlen(dir) + strlen(name) + sizeof("/.trace");
	p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s.trace", dir, name);
	return p;
}

void rtl_env_destroy(struct rtl_env *env)
{
	if (!env)
		return;
	/*
	 * A broken RTL contract fails whatever test saw it, also one that
	 * never asks (the checkers printed what they saw on stderr).
	 */
	if (!env->check_errors_ok && ppu_sim_check_errors(env->sim))
		die("RTL invariant checkers failed (see above)");
	ppu_sim_destroy(env->sim);
	free(env->ev);
	free(env);
}

uint32_t rtl_reg_read(struct rtl_env *env, uint32_t off)
{
	uint32_t v = 0;

	if (ppu_sim_reg_read(env->sim, off, &v))
		die("register read timed out");
	return v;
}

void rtl_reg_write(struct rtl_env *env, uint32_t off, uint32_t val)
{
	if (ppu_sim_reg_write(env->sim, off, val))
		die("register write timed out");
}

uint64_t rtl_perf_read(struct rtl_env *env, uint32_t idx)
{
	uint32_t lo = rtl_reg_read(env, PPU_PERF_LO(idx));
	uint32_t hi = rtl_reg_read(env, PPU_PERF_HI(idx));

	return ((uint64_t)hi << 32) | lo;
}

uint64_t rtl_protocol_errors(struct rtl_env *env)
{
	struct ppu_sim_stats st;

	ppu_sim_get_stats(env->sim, &st);
	return st.protocol_errors;
}

uint64_t rtl_check_errors(struct rtl_env *env)
{
	return ppu_sim_check_errors(env->sim);
}

uint64_t rtl_alloc_pa(struct rtl_env *env, int sys, uint64_t bytes, uint64_t align)
{
	uint64_t pa = (env->next_pa[sys] + align - 1) & ~(align - 1);
	static const uint8_t zero[PAGE];
	uint64_t off;

	if (pa + bytes > env->mem_bytes[sys])
		die("test memory exhausted");
	env->next_pa[sys] = pa + bytes;
	for (off = 0; off < bytes; off += PAGE) {
		uint64_t n = bytes - off < PAGE ? bytes - off : PAGE;

		ppu_sim_mem_write(env->sim, sys, pa + off, zero, n);
	}
	return pa;
}

static void wr32(struct rtl_env *env, int sys, uint64_t pa, uint32_t v)
{
	if (ppu_sim_mem_write(env->sim, sys, pa, &v, 4))
		die("backdoor write outside memory");
}

static uint32_t rd32(struct rtl_env *env, int sys, uint64_t pa)
{
	uint32_t v = 0;

	if (ppu_sim_mem_read(env->sim, sys, pa, &v, 4))
		die("backdoor read outside memory");
	return v;
}

struct rtl_ctx *rtl_ctx_create(struct rtl_env *env)
{
	struct rtl_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		die("out of memory");
	ctx->env = env;
	ctx->root_pa = rtl_alloc_pa(env, 0, PAGE, PAGE);
	ctx->next_va = 0x00100000;
	return ctx;
}

void rtl_ctx_destroy(struct rtl_ctx *ctx)
{
	free(ctx);
}

static uint64_t l0_table(struct rtl_ctx *ctx, uint32_t va)
{
	uint64_t l1 = ctx->root_pa + (uint64_t)PPU_FGET(PPU_VA_VPN1, va) * 4;
	uint32_t pte = rd32(ctx->env, 0, l1);

	if (!(pte & PPU_PTE_BIT(PPU_PTE_V))) {
		uint64_t t = rtl_alloc_pa(ctx->env, 0, PAGE, PAGE);

		pte = ppu_pte_table(t, 0);
		wr32(ctx->env, 0, l1, pte);
	}
	return (uint64_t)PPU_FGET(PPU_PTE_PPN, pte) << 12;
}

void rtl_set_pte(struct rtl_ctx *ctx, uint32_t va, uint32_t pte)
{
	uint64_t t = l0_table(ctx, va);

	wr32(ctx->env, 0, t + (uint64_t)PPU_FGET(PPU_VA_VPN0, va) * 4, pte);
}

void rtl_map(struct rtl_ctx *ctx, uint32_t va, uint64_t pa, int sys, uint32_t size,
	     uint32_t perms)
{
	uint32_t off;

	for (off = 0; off < size; off += PAGE)
		rtl_set_pte(ctx, va + off, ppu_pte_leaf(pa + off, sys, perms | PPU_PTE_PERM_U));
}

void rtl_map_super(struct rtl_ctx *ctx, uint32_t va, uint64_t pa, int sys, uint32_t perms)
{
	wr32(ctx->env, 0, ctx->root_pa + (uint64_t)PPU_FGET(PPU_VA_VPN1, va) * 4,
	     ppu_pte_leaf(pa, sys, perms | PPU_PTE_PERM_U));
}

uint32_t rtl_va_reserve(struct rtl_ctx *ctx, uint32_t size)
{
	uint32_t va = ctx->next_va;

	/* a guard page between buffers catches overruns as faults */
	ctx->next_va += (size + 2 * PAGE - 1) & ~(PAGE - 1);
	return va;
}

struct rtl_buf rtl_buf_alloc(struct rtl_ctx *ctx, int sys, uint32_t size)
{
	struct rtl_buf b;
	uint32_t sz = (size + PAGE - 1) & ~(PAGE - 1);

	b.size = size;
	b.sys = sys;
	b.pa = rtl_alloc_pa(ctx->env, sys, sz ? sz : PAGE, PAGE);
	b.va = rtl_va_reserve(ctx, sz ? sz : PAGE);
	rtl_map(ctx, b.va, b.pa, sys, sz ? sz : PAGE, PPU_PTE_PERM_R | PPU_PTE_PERM_W);
	return b;
}

void rtl_buf_write(struct rtl_env *env, const struct rtl_buf *b, uint32_t off,
		   const void *src, size_t len)
{
	if (ppu_sim_mem_write(env->sim, b->sys, b->pa + off, src, len))
		die("buffer write outside memory");
}

void rtl_buf_read(struct rtl_env *env, const struct rtl_buf *b, uint32_t off, void *dst,
		  size_t len)
{
	if (ppu_sim_mem_read(env->sim, b->sys, b->pa + off, dst, len))
		die("buffer read outside memory");
}

uint32_t rtl_buf_rd32(struct rtl_env *env, const struct rtl_buf *b, uint32_t off)
{
	return rd32(env, b->sys, b->pa + off);
}

void rtl_buf_wr32(struct rtl_env *env, const struct rtl_buf *b, uint32_t off, uint32_t v)
{
	wr32(env, b->sys, b->pa + off, v);
}

static struct rtl_chan *chan_create(struct rtl_env *env, struct rtl_ctx *ctx,
				    unsigned int chid, unsigned int log2_entries,
				    uint32_t timeslice, uint32_t engine, uint32_t pb_bytes)
{
	struct rtl_chan *ch = calloc(1, sizeof(*ch));
	struct ppu_inst_desc d;
	uint32_t inst[16], ent[2];
	int i;

	if (!ch)
		die("out of memory");
	ch->env = env;
	ch->ctx = ctx;
	ch->chid = chid;
	ch->log2_entries = log2_entries;
	ch->gpfifo = rtl_buf_alloc(ctx, 0, (8u << log2_entries));
	ch->pb = rtl_buf_alloc(ctx, 0, pb_bytes);
	ch->userd_pa = rtl_alloc_pa(env, 0, PPU_USERD_BYTES, 64);
	ch->inst_pa = rtl_alloc_pa(env, 0, PPU_INST_BYTES, 64);

	memset(&d, 0, sizeof(d));
	d.gpfifo_va = ch->gpfifo.va;
	d.log2_entries = log2_entries;
	d.userd_pa = ch->userd_pa;
	d.pt_root_pa = ctx->root_pa;
	d.engine = engine;
	d.timeslice = timeslice;
	ppu_inst_fill(inst, &d);
	for (i = 0; i < 16; i++)
		wr32(env, 0, ch->inst_pa + 4 * i, inst[i]);
	ppu_chan_entry(ent, ch->inst_pa, 0, 1);
	wr32(env, 0, env->chan_table_pa + PPU_CHAN_ENTRY_BYTES * chid + PPU_CHAN_ENTRY_LO, ent[0]);
	wr32(env, 0, env->chan_table_pa + PPU_CHAN_ENTRY_BYTES * chid + PPU_CHAN_ENTRY_HI, ent[1]);
	return ch;
}

struct rtl_chan *rtl_chan_create_ex(struct rtl_env *env, struct rtl_ctx *ctx,
				    unsigned int chid, unsigned int log2_entries,
				    uint32_t timeslice, uint32_t engine)
{
	return chan_create(env, ctx, chid, log2_entries, timeslice, engine, 256 * 1024);
}

struct rtl_chan *rtl_chan_create_small(struct rtl_env *env, struct rtl_ctx *ctx,
				       unsigned int chid, unsigned int log2_entries)
{
	return chan_create(env, ctx, chid, log2_entries, 0, PPU_ENGINE_TYPE_COPY, PAGE);
}

struct rtl_chan *rtl_chan_create(struct rtl_env *env, struct rtl_ctx *ctx, unsigned int chid,
				 unsigned int log2_entries, uint32_t timeslice)
{
	return rtl_chan_create_ex(env, ctx, chid, log2_entries, timeslice,
				  PPU_ENGINE_TYPE_COPY);
}

void rtl_chan_set_priority(struct rtl_chan *ch, uint32_t prio)
{
	wr32(ch->env, 0, ch->inst_pa + PPU_INST_PRIORITY, PPU_FSET(PPU_INST_PRIORITY_MAX, prio));
}

void rtl_chan_set_auto_put(struct rtl_chan *ch)
{
	wr32(ch->env, 0, ch->inst_pa + PPU_INST_GPFIFO_CFG,
	     PPU_FSET(PPU_INST_GPFIFO_CFG_LOG2_ENTRIES, ch->log2_entries) |
	     PPU_FSET(PPU_INST_GPFIFO_CFG_AUTO_PUT, 1));
}

void rtl_chan_destroy(struct rtl_chan *ch)
{
	free(ch);
}

uint32_t rtl_chan_pb_put(struct rtl_chan *ch, const uint32_t *dw, uint32_t n)
{
	uint32_t bytes = n * 4, va;

	if (ch->pb_off + bytes > ch->pb.size)
		die("pushbuffer arena full");
	va = ch->pb.va + ch->pb_off;
	rtl_buf_write(ch->env, &ch->pb, ch->pb_off, dw, bytes);
	ch->pb_off += (bytes + 7) & ~7u;
	return va;
}

void rtl_chan_push_entry(struct rtl_chan *ch, uint32_t pb_va, uint32_t ndw)
{
	uint32_t e[2];

	ppu_gp_entry(e, pb_va, ndw, 0);
	rtl_buf_write(ch->env, &ch->gpfifo, ch->put * 8, e, 8);
	ch->put = (ch->put + 1) & ((1u << ch->log2_entries) - 1);
	wr32(ch->env, 0, ch->userd_pa + PPU_USERD_GP_PUT, ch->put);
}

void rtl_chan_doorbell(struct rtl_chan *ch)
{
	rtl_reg_write(ch->env, PPU_REG_DOORBELL, PPU_FSET(PPU_DOORBELL_CHID, ch->chid));
}

void rtl_chan_doorbell_page(struct rtl_chan *ch, uint32_t put)
{
	rtl_reg_write(ch->env, ppu_userdb_offset(ch->chid) + PPU_USERDB_GP_PUT, put);
}

void rtl_chan_submit(struct rtl_chan *ch, const struct ppu_pb *pb)
{
	if (pb->overflow)
		die("pushbuffer builder overflowed");
	rtl_chan_push_entry(ch, rtl_chan_pb_put(ch, pb->dw, pb->len), pb->len);
	rtl_chan_doorbell(ch);
}

uint32_t rtl_chan_reg(struct rtl_chan *ch, uint32_t off)
{
	/* (channels without a window of their own: the selected window) */
	if (ch->chid >= PPU_CHAN_WINDOW_CHANNELS) {
		rtl_reg_write(ch->env, PPU_REG_CHAN_SEL, PPU_FSET(PPU_CHAN_SEL_CHID, ch->chid));
		return rtl_reg_read(ch->env, PPU_CHAN_SEL_BASE + off);
	}
	return rtl_reg_read(ch->env, PPU_CHAN_REG(ch->chid, off));
}

uint32_t rtl_chan_state(struct rtl_chan *ch)
{
	return PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_reg(ch, PPU_CHAN_STATUS));
}

int rtl_wait_all(struct rtl_chan **ch, int n, uint64_t max_cycles)
{
	uint64_t start = ppu_sim_cycles(ch[0]->env->sim);

	for (;;) {
		int i, idle = 0, faulted = 0;

		for (i = 0; i < n; i++) {
			uint32_t st = rtl_chan_state(ch[i]);

			if (st == PPU_CHAN_STATUS_STATE_FAULTED)
				faulted++;
			else if (st == PPU_CHAN_STATUS_STATE_IDLE &&
				 rtl_chan_reg(ch[i], PPU_CHAN_GP_GET) == ch[i]->put)
				idle++;
		}
		if (idle + faulted == n)
			return faulted ? 1 : 0;
		if (ppu_sim_cycles(ch[0]->env->sim) - start > max_cycles)
			return -1;
		ppu_sim_clock(ch[0]->env->sim, 64);
	}
}

int rtl_chan_wait(struct rtl_chan *ch, uint64_t max_cycles)
{
	return rtl_wait_all(&ch, 1, max_cycles);
}

int rtl_chan_wait_state(struct rtl_chan *ch, uint32_t state, uint64_t step,
			uint64_t max_cycles)
{
	uint64_t start = ppu_sim_cycles(ch->env->sim);

	while (rtl_chan_state(ch) != state) {
		if (ppu_sim_cycles(ch->env->sim) - start >= max_cycles)
			return -1;
		ppu_sim_clock(ch->env->sim, step);
	}
	return 0;
}

void rtl_log_clear(struct rtl_env *env)
{
	env->nev = 0;
}

long rtl_log_find(struct rtl_env *env, uint32_t kind, int chid, size_t from)
{
	size_t i;

	for (i = from; i < env->nev; i++)
		if (env->ev[i].kind == kind && (chid < 0 || env->ev[i].chid == (uint32_t)chid))
			return (long)i;
	return -1;
}

long rtl_wait_event(struct rtl_env *env, uint32_t kind, int chid, uint64_t step,
		    uint64_t max_cycles)
{
	uint64_t start = ppu_sim_cycles(env->sim);
	long i;

	while ((i = rtl_log_find(env, kind, chid, 0)) < 0) {
		if (ppu_sim_cycles(env->sim) - start >= max_cycles)
			return -1;
		ppu_sim_clock(env->sim, step);
	}
	return i;
}

size_t rtl_log_count(struct rtl_env *env, uint32_t kind, int chid)
{
	size_t i, n = 0;

	for (i = 0; i < env->nev; i++)
		if (env->ev[i].kind == kind && (chid < 0 || env->ev[i].chid == (uint32_t)chid))
			n++;
	return n;
}

uint32_t rtl_runlist_write(struct rtl_env *env, const struct rtl_rl_ent *e, uint32_t n)
{
	uint64_t pa = rtl_alloc_pa(env, 0, 8 + 4ull * n, 8);
	uint32_t i, st = 0, w;

	for (i = 0; i < n; i++) {
		w = PPU_FSET(PPU_RUNLIST_ENTRY_CHID, e[i].chid) | PPU_FSET(PPU_RUNLIST_ENTRY_LEVEL, e[i].level);
		wr32(env, 0, pa + 4 * i, w);
	}
	rtl_reg_write(env, PPU_REG_RUNLIST_LO, (uint32_t)pa);
	rtl_reg_write(env, PPU_REG_RUNLIST_HI, (uint32_t)(pa >> 32));
	rtl_reg_write(env, PPU_REG_RUNLIST_SUBMIT, PPU_FSET(PPU_RUNLIST_SUBMIT_COUNT, n));
	for (i = 0; i < 1000; i++) {
		st = rtl_reg_read(env, PPU_REG_RUNLIST_STATUS);
		if (!PPU_FGET(PPU_RUNLIST_STATUS_PENDING, st))
			break;
		ppu_sim_clock(env->sim, 100);
	}
	return st;
}
