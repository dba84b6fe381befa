// SPDX-License-Identifier: MIT
/*
 * PPU simulation harness: drives the Verilated ppu_top.  See ppu_sim.h for
 * the contract; the comments here are about how it is kept fast and exact.
 *
 * Per cycle the model is evaluated exactly twice: once with clk low after
 * every input of the cycle is set (so combinational outputs are final and
 * handshakes can be sampled), once with clk high.  Everything else in the
 * cycle is a handful of branches: no allocation, no virtual calls, no I/O
 * unless a trace record or a waveform is asked for.
 */
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#if PPU_SIM_FPGA
/* The PPU inside its PCIe FPGA shell (hw/fpga): AXI ports, ppu_sim_axi.h. */
#include "Vppu_fpga_top.h"
#include "Vppu_fpga_top__Dpi.h"
typedef Vppu_fpga_top vtop;
#else
#include "Vppu_top.h"
#include "Vppu_top__Dpi.h"
typedef Vppu_top vtop;
#endif
#include "verilated.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#include <unistd.h>
#endif
#include "verilated_fst_c.h"

#include "ppu/ppu_hw.h"
#include "ppu_sim.h"
#include "ppu_sim_axi.h"

#ifndef PPU_SIM_FPGA
#define PPU_SIM_FPGA 0
#endif

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "beats are copied as host integers: little-endian hosts only"
#endif

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

namespace {

const unsigned BEAT = 8;		/* bytes per memory beat */
const uint64_t XLATE_CHUNK = 4096;	/* host access never crosses this */
const unsigned MAX_PROTO_MSGS = 10;	/* stderr lines before going quiet */
const uint32_t MAX_LATENCY = 1u << 20;	/* keeps the response rings small */

/* A response waiting for its cycle. */
struct rsp_slot {
	uint64_t due;
	uint64_t data;
	uint8_t tag;
	uint8_t err;
};

/*
 * In-flight responses of one channel.  due strictly increases along the
 * ring and due <= acceptance + max latency, so at most max latency + 1
 * entries are ever live: the ring is sized once and never grows.
 */
struct rsp_ring {
	rsp_slot *slot;
	uint32_t mask;
	uint32_t head, tail;
	uint64_t last_due;
};

/*
 * Token bucket in bytes.  The cap is rate + BEAT - 1: a waiting request
 * never loses credit (so the long-run rate is exact) while an idle
 * aperture banks at most one beat.
 */
struct bucket {
	int32_t tokens;
	int32_t rate;
	int32_t cap;
};

/* One direction (read or write) of the memory port. */
struct mem_chan {
	bucket bw[2];		/* [local, sys] */
	uint32_t latency[2];
	rsp_ring ring;
	/*
	 * The request left waiting (valid && !ready) last cycle: the RTL must
	 * hold it, so this cycle's ready can be computed for its aperture
	 * without looking at this cycle's outputs.
	 */
	bool pend;
	uint8_t pend_sys;
	uint8_t pend_tag;
	uint8_t pend_strb;
	uint64_t pend_addr;
	uint64_t pend_data;
	bool ready;
};

enum reg_state { REG_IDLE, REG_REQ, REG_WAIT, REG_DONE };

/* 256 names indexed by kind, built from the .def so nothing is copied. */
struct kind_names {
	const char *name[256];

	kind_names() : name()
	{
		static const struct {
			const char *group, *name;
			uint32_t value;
		} defs[] = {
#define PPU_OFFSET(g, n, v)
#define PPU_FIELD(g, n, hi, lo)
#define PPU_CONST(n, v)
#define PPU_VALUE(g, n, v) { #g, #n, (v) },
#include "ppu/ppu_trace.def"
#undef PPU_OFFSET
#undef PPU_FIELD
#undef PPU_CONST
#undef PPU_VALUE
		};

		for (const auto &d : defs)
			if (!strcmp(d.group, "TRACE") && d.value < 256)
				name[d.value] = d.name;
	}
};

const kind_names &kinds()
{
	static const kind_names k;
	return k;
}

double now_seconds()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

} /* namespace */

struct ppu_sim;
/*
 * The model being evaluated, for the checkers' DPI calls, which carry no
 * handle: set before every eval, so several models in one process each
 * get their own reports.
 */
static ppu_sim *chk_cur;

struct ppu_sim {
	vtop *top;
	VerilatedContext *vctx;
	VerilatedFstC *fst;
	FILE *trace_fp;

	uint64_t cycle;
	struct ppu_sim_config cfg;

	uint8_t *mem[2];
	uint64_t mem_bytes[2];
	ppu_sim_xlate_fn xlate;
	void *xlate_ctx;
	ppu_sim_mem_err_fn mem_err;
	void *mem_err_ctx;

	mem_chan rd, wr;

	reg_state reg;
	bool reg_drop;		/* lower reg_req_valid after this edge */
	uint32_t reg_rdata;
	uint32_t reg_orphans;	/* timed-out accesses still owed a response */

	ppu_sim_event_fn event_fn;
	void *event_ctx;

	struct ppu_sim_stats st;
	uint64_t st_cycle0;

	uint64_t chk_errors;	/* hw/chk checker failures, never reset */
	uint32_t chk_selftest;	/* ppu_chk_selftest() */

#if PPU_SIM_FPGA
	axi::slave axs[2];	/* [local: m_ddr, sys: m_dma] */
	uint64_t rng;
	uint8_t reg_need;	/* AXI-Lite: 1 AW, 2 W, 4 AR still to be taken */
	uint8_t reg_drop_mask;	/* ... taken this cycle: lower VALID after the edge */
	uint8_t reg_resp;	/* BRESP/RRESP of the access */
#endif
};

namespace {

void proto_error(ppu_sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void proto_error(ppu_sim *s, const char *fmt, ...)
{
	va_list ap;

	if (s->st.protocol_errors++ >= MAX_PROTO_MSGS)
		return;
	fprintf(stderr, "ppu_sim: cycle %" PRIu64 ": ", s->cycle);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void bucket_init(bucket *b, uint32_t bytes_per_cycle)
{
	b->rate = (bytes_per_cycle == 0 || bytes_per_cycle > BEAT) ?
		  BEAT : bytes_per_cycle;
	b->cap = b->rate + BEAT - 1;
	b->tokens = b->cap;
}

inline void bucket_refill(bucket *b)
{
	b->tokens += b->rate;
	if (b->tokens > b->cap)
		b->tokens = b->cap;
}

/*
 * A waiting request's aperture is known; a new one's is not, so it gets
 * ready only when either aperture could take it.  That costs a new request
 * to a busy aperture at most one cycle, and keeps ready independent of
 * this cycle's valid and payload.
 */
inline bool chan_ready(const mem_chan *c)
{
	if (c->pend)
		return c->bw[c->pend_sys].tokens >= (int32_t)BEAT;
	return c->bw[0].tokens >= (int32_t)BEAT &&
	       c->bw[1].tokens >= (int32_t)BEAT;
}

bool ring_init(rsp_ring *r, const uint32_t latency[2])
{
	uint64_t max = latency[0] > latency[1] ? latency[0] : latency[1];
	uint32_t n = 2;

	while (n < max + 2)
		n <<= 1;
	r->slot = (rsp_slot *)calloc(n, sizeof(*r->slot));
	r->mask = n - 1;
	r->head = r->tail = 0;
	r->last_due = 0;
	return r->slot != NULL;
}

inline void ring_push(rsp_ring *r, uint64_t due, uint64_t data, uint8_t tag,
		      uint8_t err)
{
	rsp_slot *e;

	/* In order: never before the previous response, one per cycle. */
	if (due <= r->last_due)
		due = r->last_due + 1;
	r->last_due = due;
	e = &r->slot[r->tail++ & r->mask];
	e->due = due;
	e->data = data;
	e->tag = tag;
	e->err = err;
}

#if !PPU_SIM_FPGA
/* Host pointer for one beat of the RTL's traffic, NULL = bus error. */
inline uint8_t *beat_ptr(ppu_sim *s, unsigned sys, uint64_t addr, int write)
{
	if (unlikely(s->mem_err != NULL) &&
	    s->mem_err(s->mem_err_ctx, (int)sys, write, addr))
		return NULL;
	if (sys && s->xlate)
		return (uint8_t *)s->xlate(s->xlate_ctx, addr, BEAT);
	if (addr >= s->mem_bytes[sys])
		return NULL;
	return s->mem[sys] + addr;
}

void accept_read(ppu_sim *s, unsigned sys, uint64_t addr, uint8_t tag)
{
	uint64_t data = 0;
	uint8_t *p = NULL;

	if (likely(!(addr & (BEAT - 1))))
		p = beat_ptr(s, sys, addr, 0);
	else
		proto_error(s, "mem_rd_addr 0x%" PRIx64 " not beat-aligned",
			    addr);
	if (p)
		memcpy(&data, p, BEAT);
	else
		s->st.rd_errors++;
	s->st.rd_beats[sys]++;
	s->rd.bw[sys].tokens -= BEAT;
	ring_push(&s->rd.ring, s->cycle + s->rd.latency[sys], data, tag, !p);
}

void accept_write(ppu_sim *s, unsigned sys, uint64_t addr, uint8_t tag,
		  uint64_t data, uint8_t strb)
{
	uint8_t *p = NULL;

	if (likely(!(addr & (BEAT - 1))))
		p = beat_ptr(s, sys, addr, 1);
	else
		proto_error(s, "mem_wr_addr 0x%" PRIx64 " not beat-aligned",
			    addr);
	if (likely(p && strb == 0xff)) {
		memcpy(p, &data, BEAT);
	} else if (p) {
		for (unsigned i = 0; i < BEAT; i++)
			if (strb & (1u << i))
				p[i] = (uint8_t)(data >> (8 * i));
	} else {
		s->st.wr_errors++;
	}
	s->st.wr_beats[sys]++;
	s->wr.bw[sys].tokens -= BEAT;
	ring_push(&s->wr.ring, s->cycle + s->wr.latency[sys], 0, tag, !p);
}

void sample_read(ppu_sim *s)
{
	vtop *t = s->top;
	mem_chan *c = &s->rd;
	unsigned sys = t->mem_rd_sys & 1;
	uint64_t addr = t->mem_rd_addr;
	uint8_t tag = t->mem_rd_tag;

	if (unlikely(c->pend) && (sys != c->pend_sys ||
				  addr != c->pend_addr || tag != c->pend_tag))
		proto_error(s, "mem_rd request changed before ready");
	if (c->ready) {
		c->pend = false;
		accept_read(s, sys, addr, tag);
	} else {
		c->pend = true;
		c->pend_sys = sys;
		c->pend_addr = addr;
		c->pend_tag = tag;
	}
}

void sample_write(ppu_sim *s)
{
	vtop *t = s->top;
	mem_chan *c = &s->wr;
	unsigned sys = t->mem_wr_sys & 1;
	uint64_t addr = t->mem_wr_addr;
	uint64_t data = t->mem_wr_data;
	uint8_t tag = t->mem_wr_tag;
	uint8_t strb = t->mem_wr_strb;

	if (unlikely(c->pend) && (sys != c->pend_sys ||
				  addr != c->pend_addr || tag != c->pend_tag ||
				  data != c->pend_data || strb != c->pend_strb))
		proto_error(s, "mem_wr request changed before ready");
	if (c->ready) {
		c->pend = false;
		accept_write(s, sys, addr, tag, data, strb);
	} else {
		c->pend = true;
		c->pend_sys = sys;
		c->pend_addr = addr;
		c->pend_tag = tag;
		c->pend_data = data;
		c->pend_strb = strb;
	}
}

void sample_reg(ppu_sim *s)
{
	vtop *t = s->top;

	if (s->reg == REG_REQ && t->reg_req_ready) {
		s->reg = REG_WAIT;
		s->reg_drop = true;
	}
	if (!t->reg_rsp_valid)
		return;
	/*
	 * One request at a time: responses owed to timed-out accesses come
	 * before the current one's, even in the cycle it is accepted.
	 */
	if (s->reg_orphans) {
		s->reg_orphans--;
	} else if (s->reg == REG_WAIT) {
		s->reg_rdata = t->reg_rsp_rdata;
		s->reg = REG_DONE;
	} else {
		proto_error(s, "reg_rsp_valid without a request");
	}
}

#endif /* !PPU_SIM_FPGA */

void emit_events(ppu_sim *s, unsigned valid)
{
	vtop *t = s->top;
	struct ppu_sim_event ev;

	for (unsigned p = 0; p < 5; p++) {
		if (!(valid & (1u << p)))
			continue;
		ev.cycle = s->cycle;
		ev.kind = (t->trace_kind >> (8 * p)) & 0xff;
		ev.chid = (uint32_t)(t->trace_chid >> (PPU_CHID_BITS * p)) &
			  ((1u << PPU_CHID_BITS) - 1);
		ev.a = t->trace_a[p];
		ev.b = t->trace_b[p];
		ev.port = p;
		s->st.events++;
		if (s->trace_fp) {
			const char *name = ppu_sim_kind_name(ev.kind);

			if (name)
				fprintf(s->trace_fp, "%" PRIu64 " %s", ev.cycle,
					name);
			else
				fprintf(s->trace_fp, "%" PRIu64 " UNKNOWN_%u",
					ev.cycle, ev.kind);
			fprintf(s->trace_fp, " ch=%u a=0x%08x b=0x%08x\n",
				ev.chid, ev.a, ev.b);
		}
		if (s->event_fn)
			s->event_fn(s->event_ctx, &ev);
	}
}

#if !PPU_SIM_FPGA
inline void drive_rsp(rsp_ring *r, uint64_t now, CData *valid, CData *tag,
		      CData *err, QData *data)
{
	if (r->head != r->tail && r->slot[r->head & r->mask].due <= now) {
		const rsp_slot *e = &r->slot[r->head++ & r->mask];

		*valid = 1;
		*tag = e->tag;
		*err = e->err;
		if (data)
			*data = e->data;
	} else {
		*valid = 0;
	}
}

/* One clock cycle; the only per-cycle code path. */
inline void step(ppu_sim *s)
{
	vtop *t = s->top;
	uint64_t now = s->cycle;
	unsigned tv;

	chk_cur = s;

	/* Inputs of this cycle, all from harness state. */
	s->rd.ready = chan_ready(&s->rd);
	s->wr.ready = chan_ready(&s->wr);
	t->mem_rd_ready = s->rd.ready;
	t->mem_wr_ready = s->wr.ready;

	t->clk = 0;
	t->eval();
	if (unlikely(s->fst))
		s->fst->dump(now * 10);

	/* Handshakes as the edge will see them.  Read before write. */
	if (t->mem_rd_valid)
		sample_read(s);
	else if (unlikely(s->rd.pend))
		proto_error(s, "mem_rd_valid dropped before ready");
	if (t->mem_wr_valid)
		sample_write(s);
	else if (unlikely(s->wr.pend))
		proto_error(s, "mem_wr_valid dropped before ready");
	if (!t->mem_rd_valid)
		s->rd.pend = false;
	if (!t->mem_wr_valid)
		s->wr.pend = false;
	if (unlikely(s->reg != REG_IDLE || t->reg_rsp_valid))
		sample_reg(s);
	tv = t->trace_valid;
	if (unlikely(tv))
		emit_events(s, tv);

	/*
	 * ppu_top registers the responses where they enter: the edge that
	 * ends this cycle takes in the ones due in the next, which the
	 * logic inside then sees when they are due.
	 */
	drive_rsp(&s->rd.ring, now + 1, &t->mem_rd_rsp_valid, &t->mem_rd_rsp_tag,
		  &t->mem_rd_rsp_err, &t->mem_rd_rsp_data);
	drive_rsp(&s->wr.ring, now + 1, &t->mem_wr_rsp_valid, &t->mem_wr_rsp_tag,
		  &t->mem_wr_rsp_err, NULL);

	t->clk = 1;
	t->eval();
	if (unlikely(s->fst))
		s->fst->dump(now * 10 + 5);
	s->cycle = now + 1;

	if (unlikely(s->reg_drop)) {
		t->reg_req_valid = 0;
		s->reg_drop = false;
	}
	bucket_refill(&s->rd.bw[0]);
	bucket_refill(&s->rd.bw[1]);
	bucket_refill(&s->wr.bw[0]);
	bucket_refill(&s->wr.bw[1]);
}

/* Every input idle: the reset of ppu_sim_reset(). */
void inputs_idle(ppu_sim *s)
{
	vtop *t = s->top;

	t->reg_req_valid = 0;
	t->reg_req_write = 0;
	t->reg_req_addr = 0;
	t->reg_req_wdata = 0;
	t->mem_rd_ready = 0;
	t->mem_rd_rsp_valid = 0;
	t->mem_rd_rsp_data = 0;
	t->mem_rd_rsp_err = 0;
	t->mem_rd_rsp_tag = 0;
	t->mem_wr_ready = 0;
	t->mem_wr_rsp_valid = 0;
	t->mem_wr_rsp_err = 0;
	t->mem_wr_rsp_tag = 0;
}

#else /* PPU_SIM_FPGA */

/* xorshift64*: the responders' backpressure and jitter, reproducible. */
inline uint32_t rnd(ppu_sim *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return (uint32_t)((s->rng * 0x2545F4914F6CDD1Dull) >> 32);
}

/* READY or VALID offered this cycle? */
inline bool offer(ppu_sim *s)
{
	return s->cfg.axi_ready_pct >= 100 || rnd(s) % 100 < s->cfg.axi_ready_pct;
}

inline uint64_t burst_due(ppu_sim *s, uint32_t latency, uint64_t *last)
{
	uint64_t due = s->cycle + latency +
		       (s->cfg.axi_jitter ? rnd(s) % (s->cfg.axi_jitter + 1) : 0);

	/* One ID: answers in order, whatever the jitter drew. */
	if (due <= *last)
		due = *last + 1;
	*last = due;
	return due;
}

/*
 * The backing store of one 8-byte beat, or NULL with *resp: SLVERR for an
 * injected error, DECERR beyond the aperture.
 */
uint8_t *axi_beat_ptr(ppu_sim *s, unsigned ap, uint64_t addr, int write, uint32_t *resp)
{
	uint8_t *p;

	if (unlikely(s->mem_err != NULL) && s->mem_err(s->mem_err_ctx, (int)ap, write, addr)) {
		*resp = axi::SLVERR;
		return NULL;
	}
	if (ap && s->xlate)
		p = (uint8_t *)s->xlate(s->xlate_ctx, addr, BEAT);
	else
		p = addr < s->mem_bytes[ap] ? s->mem[ap] + addr : NULL;
	if (!p)
		*resp = axi::DECERR;
	return p;
}

inline uint64_t beat_addr(const axi::burst &b)
{
	return (b.addr & ~(uint64_t)(BEAT - 1)) + (uint64_t)b.beat * BEAT;
}

void count_err(ppu_sim *s, unsigned dir, unsigned ap, uint32_t resp)
{
	if (resp == axi::SLVERR)
		s->st.axi_slverr[dir][ap]++;
	else if (resp == axi::DECERR)
		s->st.axi_decerr[dir][ap]++;
	if (dir)
		s->st.wr_errors++;
	else
		s->st.rd_errors++;
}

/* Inputs of this cycle from one responder, all from its own state. */
void axi_drive(ppu_sim *s, axi::slave *sl)
{
	const axi::port &p = sl->pins;
	unsigned ap = sl->ap;

	sl->arready = !sl->rq.full() && offer(s);
	sl->awready = sl->wq.n + sl->bq.n < sl->wq.cap && offer(s);
	sl->wready = sl->wq.n > 0 && s->wr.bw[ap].tokens >= (int32_t)BEAT && offer(s);
	p.arready.set(sl->arready);
	p.awready.set(sl->awready);
	p.wready.set(sl->wready);

	if (!sl->r_held && sl->rq.n && sl->rq.front().due <= s->cycle &&
	    s->rd.bw[ap].tokens >= (int32_t)BEAT && offer(s)) {
		axi::burst &b = sl->rq.front();
		uint64_t a = beat_addr(b);
		uint32_t resp = axi::OKAY;
		uint8_t *m = NULL;

		memset(p.rdata.bytes(), 0, p.rdata.size);
		if (b.size == BEAT)
			m = axi_beat_ptr(s, ap, a, 0, &resp);
		else
			resp = axi::SLVERR;	/* the shell only makes 8-byte beats */
		if (m)
			memcpy(p.rdata.bytes() + a % sl->pins.bus_bytes, m, BEAT);
		else
			count_err(s, 0, ap, resp);
		p.rresp.set(resp);
		p.rlast.set(b.beat + 1 == b.len);
		p.rid.set(b.id);
		p.rvalid.set(1);
		sl->r_held = true;
		s->st.rd_beats[ap]++;
		s->rd.bw[ap].tokens -= BEAT;
	} else if (!sl->r_held) {
		p.rvalid.set(0);
	}

	if (!sl->b_held && sl->bq.n && sl->bq.front().due <= s->cycle && offer(s)) {
		p.bresp.set(sl->bq.front().resp);
		p.bid.set(sl->bq.front().id);
		p.bvalid.set(1);
		sl->b_held = true;
	} else if (!sl->b_held) {
		p.bvalid.set(0);
	}
}

void axi_take(ppu_sim *s, axi::queue *q, const axi::pin &addr, const axi::pin &len,
	      const axi::pin &size, const axi::pin &id, uint64_t due, unsigned dir, unsigned ap)
{
	axi::burst b = {};

	b.addr = addr.get();
	b.len = (uint32_t)len.get() + 1;
	b.size = 1u << size.get();
	b.id = (uint32_t)id.get();
	b.due = due;
	q->push(b);
	s->st.axi_bursts[dir][ap]++;
	if (b.len > s->st.axi_max_len[dir][ap])
		s->st.axi_max_len[dir][ap] = b.len;
}

/* Handshakes of one responder as the edge will see them. */
void axi_sample(ppu_sim *s, axi::slave *sl)
{
	const axi::port &p = sl->pins;
	unsigned ap = sl->ap;

	if (sl->arready && p.arvalid.get()) {
		axi_take(s, &sl->rq, p.araddr, p.arlen, p.arsize, p.arid,
			 burst_due(s, s->rd.latency[ap], &sl->last_rdue), 0, ap);
		if (sl->rq.n > s->st.axi_max_outstanding[0][ap])
			s->st.axi_max_outstanding[0][ap] = sl->rq.n;
	}
	if (sl->r_held && p.rready.get()) {
		axi::burst &b = sl->rq.front();

		sl->r_held = false;
		if (++b.beat == b.len)
			sl->rq.pop();
	}
	if (sl->awready && p.awvalid.get()) {
		axi_take(s, &sl->wq, p.awaddr, p.awlen, p.awsize, p.awid, 0, 1, ap);
		if (sl->wq.n + sl->bq.n > s->st.axi_max_outstanding[1][ap])
			s->st.axi_max_outstanding[1][ap] = sl->wq.n + sl->bq.n;
	}
	if (sl->wready && p.wvalid.get()) {
		axi::burst &b = sl->wq.front();
		uint64_t a = beat_addr(b);
		unsigned lane = (unsigned)(a % sl->pins.bus_bytes);
		uint32_t resp = axi::OKAY;
		uint8_t strb = (uint8_t)(p.wstrb.size > 8 ?
			       0 : p.wstrb.get() >> lane);
		const uint8_t *d = p.wdata.bytes() + lane;
		uint8_t *m = NULL;

		/* wstrb wider than 64 bits: bytes of the Verilated image. */
		if (p.wstrb.size > 8) {
			for (unsigned i = 0; i < BEAT; i++)
				if (p.wstrb.bytes()[(lane + i) / 8] & (1u << ((lane + i) % 8)))
					strb |= 1u << i;
		}
		if (b.size == BEAT)
			m = axi_beat_ptr(s, ap, a, 1, &resp);
		else
			resp = axi::SLVERR;
		if (m) {
			for (unsigned i = 0; i < BEAT; i++)
				if (strb & (1u << i))
					m[i] = d[i];
		} else {
			count_err(s, 1, ap, resp);
			if (b.resp == axi::OKAY)
				b.resp = resp;
		}
		s->st.wr_beats[ap]++;
		s->wr.bw[ap].tokens -= BEAT;
		if (++b.beat == b.len) {
			b.due = burst_due(s, s->wr.latency[ap], &sl->last_bdue);
			sl->bq.push(b);
			sl->wq.pop();
		}
	}
	if (sl->b_held && p.bready.get()) {
		sl->b_held = false;
		sl->bq.pop();
	}
}

/* AXI-Lite: BREADY and RREADY are always up; a response ends the access. */
void sample_reg(ppu_sim *s)
{
	vtop *t = s->top;
	bool rsp = false;

	if (s->reg == REG_REQ) {
		if ((s->reg_need & 1) && t->s_axil_awready)
			s->reg_drop_mask |= 1;
		if ((s->reg_need & 2) && t->s_axil_wready)
			s->reg_drop_mask |= 2;
		if ((s->reg_need & 4) && t->s_axil_arready)
			s->reg_drop_mask |= 4;
		s->reg_need &= ~s->reg_drop_mask;
		if (!s->reg_need) {
			s->reg = REG_WAIT;
			s->reg_drop = true;
		}
	}
	if (t->s_axil_bvalid) {
		rsp = true;
		s->reg_resp = t->s_axil_bresp;
	}
	if (t->s_axil_rvalid) {
		rsp = true;
		s->reg_resp = t->s_axil_rresp;
		s->reg_rdata = t->s_axil_rdata;
	}
	if (!rsp)
		return;
	if (s->reg_orphans)
		s->reg_orphans--;
	else if (s->reg == REG_WAIT)
		s->reg = REG_DONE;
	else
		proto_error(s, "AXI-Lite response without a request");
}

inline void step(ppu_sim *s)
{
	vtop *t = s->top;
	uint64_t now = s->cycle;
	unsigned tv;

	chk_cur = s;

	axi_drive(s, &s->axs[0]);
	axi_drive(s, &s->axs[1]);

	t->clk = 0;
	t->eval();
	if (unlikely(s->fst))
		s->fst->dump(now * 10);

	axi_sample(s, &s->axs[0]);
	axi_sample(s, &s->axs[1]);
	if (unlikely(s->reg != REG_IDLE || t->s_axil_bvalid || t->s_axil_rvalid))
		sample_reg(s);
	tv = t->trace_valid;
	if (unlikely(tv))
		emit_events(s, tv);

	t->clk = 1;
	t->eval();
	if (unlikely(s->fst))
		s->fst->dump(now * 10 + 5);
	s->cycle = now + 1;

	if (unlikely(s->reg_drop_mask)) {
		if (s->reg_drop_mask & 1)
			t->s_axil_awvalid = 0;
		if (s->reg_drop_mask & 2)
			t->s_axil_wvalid = 0;
		if (s->reg_drop_mask & 4)
			t->s_axil_arvalid = 0;
		s->reg_drop_mask = 0;
		s->reg_drop = false;
	}
	bucket_refill(&s->rd.bw[0]);
	bucket_refill(&s->rd.bw[1]);
	bucket_refill(&s->wr.bw[0]);
	bucket_refill(&s->wr.bw[1]);
}

void axi_port_idle(const axi::port &p)
{
	p.awready.set(0);
	p.wready.set(0);
	p.bvalid.set(0);
	p.bresp.set(0);
	p.bid.set(0);
	p.arready.set(0);
	p.rvalid.set(0);
	p.rresp.set(0);
	p.rlast.set(0);
	p.rid.set(0);
	memset(p.rdata.bytes(), 0, p.rdata.size);
}

/* Every input idle, responders forgotten: the reset of ppu_sim_reset(). */
void inputs_idle(ppu_sim *s)
{
	vtop *t = s->top;

	t->s_axil_awvalid = 0;
	t->s_axil_awaddr = 0;
	t->s_axil_awprot = 0;
	t->s_axil_wvalid = 0;
	t->s_axil_wdata = 0;
	t->s_axil_wstrb = 0;
	t->s_axil_bready = 1;
	t->s_axil_arvalid = 0;
	t->s_axil_araddr = 0;
	t->s_axil_arprot = 0;
	t->s_axil_rready = 1;
	for (unsigned ap = 0; ap < 2; ap++) {
		axi::slave *sl = &s->axs[ap];

		axi_port_idle(sl->pins);
		sl->rq.clear();
		sl->wq.clear();
		sl->bq.clear();
		sl->r_held = sl->b_held = false;
		sl->arready = sl->awready = sl->wready = false;
		sl->last_rdue = sl->last_bdue = 0;
	}
	s->reg_need = 0;
	s->reg_drop_mask = 0;
}

bool axi_init(ppu_sim *s)
{
	vtop *t = s->top;
	uint32_t n = s->cfg.axi_max_bursts ? s->cfg.axi_max_bursts : 16;

	s->axs[0].pins = AXI_PORT(t, m_ddr, sizeof(t->m_ddr_rdata) * 8);
	s->axs[1].pins = AXI_PORT(t, m_dma, sizeof(t->m_dma_rdata) * 8);
	s->rng = s->cfg.axi_seed ? s->cfg.axi_seed : 1;
	for (unsigned ap = 0; ap < 2; ap++) {
		s->axs[ap].ap = ap;
		if (!s->axs[ap].rq.init(n) || !s->axs[ap].wq.init(n) || !s->axs[ap].bq.init(n))
			return false;
	}
	return true;
}

void axi_fini(ppu_sim *s)
{
	for (unsigned ap = 0; ap < 2; ap++) {
		s->axs[ap].rq.fini();
		s->axs[ap].wq.fini();
		s->axs[ap].bq.fini();
	}
}

#endif /* PPU_SIM_FPGA */

/* Cycle with rst_n low: no handshake is honoured, nothing is sampled. */
void reset_step(ppu_sim *s)
{
	vtop *t = s->top;

	chk_cur = s;

	t->clk = 0;
	t->eval();
	if (s->fst)
		s->fst->dump(s->cycle * 10);
	t->clk = 1;
	t->eval();
	if (s->fst)
		s->fst->dump(s->cycle * 10 + 5);
	s->cycle++;
}

void chan_reset(mem_chan *c)
{
	c->ring.head = c->ring.tail = 0;
	c->ring.last_due = 0;
	c->pend = false;
	c->ready = false;
	c->bw[0].tokens = c->bw[0].cap;
	c->bw[1].tokens = c->bw[1].cap;
}

void chan_init(mem_chan *c, const struct ppu_sim_config *cfg)
{
	c->latency[0] = cfg->local_latency ? cfg->local_latency : 1;
	c->latency[1] = cfg->sys_latency ? cfg->sys_latency : 1;
	bucket_init(&c->bw[0], cfg->local_bytes_per_cycle);
	bucket_init(&c->bw[1], cfg->sys_bytes_per_cycle);
}

/* Wall time of the clocking calls, for the cycles/s figure. */
struct timed {
	ppu_sim *s;
	double t0;

	explicit timed(ppu_sim *sim) : s(sim), t0(now_seconds()) {}
	~timed() { s->st.wall_seconds += now_seconds() - t0; }
};

#if !PPU_SIM_FPGA
int reg_access(ppu_sim *s, bool write, uint32_t addr, uint32_t wdata,
	       uint32_t *rdata)
{
	vtop *t = s->top;
	timed tm(s);

	if (addr & 3)
		return -EINVAL;
	s->reg = REG_REQ;
	t->reg_req_valid = 1;
	t->reg_req_write = write;
	t->reg_req_addr = addr;
	t->reg_req_wdata = wdata;
	for (uint32_t n = 0; n < s->cfg.reg_timeout_cycles; n++) {
		step(s);
		if (s->reg == REG_DONE)
			break;
	}
	if (s->reg != REG_DONE) {
		/* Withdraw (an unaccepted request) or owe (an accepted one). */
		if (s->reg == REG_WAIT)
			s->reg_orphans++;
		t->reg_req_valid = 0;
		s->reg = REG_IDLE;
		return -ETIMEDOUT;
	}
	s->reg = REG_IDLE;
	if (rdata)
		*rdata = s->reg_rdata;
	return 0;
}

#else
/*
 * BAR0 through the FPGA top's AXI-Lite slave: AW and W (or AR) presented
 * together, each lowered after it is taken; a response that is not OKAY
 * is -EIO.
 */
int reg_access(ppu_sim *s, bool write, uint32_t addr, uint32_t wdata,
	       uint32_t *rdata)
{
	vtop *t = s->top;
	timed tm(s);

	/* the AXI4-Lite window: AXIL_ADDR_W (24) bits, registers and doorbell pages */
	if ((addr & 3) || (addr >> 24))
		return -EINVAL;
	s->reg = REG_REQ;
	s->reg_resp = 0;
	if (write) {
		s->reg_need = 3;
		t->s_axil_awvalid = 1;
		t->s_axil_awaddr = addr;
		t->s_axil_wvalid = 1;
		t->s_axil_wdata = wdata;
		t->s_axil_wstrb = 0xf;
	} else {
		s->reg_need = 4;
		t->s_axil_arvalid = 1;
		t->s_axil_araddr = addr;
	}
	for (uint32_t n = 0; n < s->cfg.reg_timeout_cycles; n++) {
		step(s);
		if (s->reg == REG_DONE)
			break;
	}
	if (s->reg != REG_DONE) {
		if (s->reg == REG_WAIT)
			s->reg_orphans++;
		t->s_axil_awvalid = 0;
		t->s_axil_wvalid = 0;
		t->s_axil_arvalid = 0;
		s->reg_need = 0;
		s->reg = REG_IDLE;
		return -ETIMEDOUT;
	}
	s->reg = REG_IDLE;
	if (s->reg_resp)
		return -EIO;
	if (rdata)
		*rdata = s->reg_rdata;
	return 0;
}
#endif /* PPU_SIM_FPGA */

/* Host access to @rd (read) or from @wr (write); all or nothing. */
int host_access(ppu_sim *s, int sys, uint64_t pa, uint8_t *rd,
		const uint8_t *wr, size_t len)
{
	unsigned ap = sys ? 1 : 0;

	if (ap && s->xlate) {
		uint64_t end = pa + len;

		if (end < pa)
			return -EFAULT;
		/* Translate everything first so a failure copies nothing. */
		for (int pass = 0; pass < 2; pass++) {
			for (uint64_t a = pa; a < end;) {
				uint64_t n = XLATE_CHUNK -
					     (a & (XLATE_CHUNK - 1));
				uint8_t *p;

				if (n > end - a)
					n = end - a;
				p = (uint8_t *)s->xlate(s->xlate_ctx, a, n);
				if (!p)
					return -EFAULT;
				if (pass && rd)
					memcpy(rd + (a - pa), p, n);
				else if (pass)
					memcpy(p, wr + (a - pa), n);
				a += n;
			}
		}
		return 0;
	}
	if (pa > s->mem_bytes[ap] || len > s->mem_bytes[ap] - pa)
		return -EFAULT;
	if (len == 0)
		return 0;
	if (rd)
		memcpy(rd, s->mem[ap] + pa, len);
	else
		memcpy(s->mem[ap] + pa, wr, len);
	return 0;
}

} /* namespace */

extern "C" {

void ppu_sim_config_default(struct ppu_sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->local_mem_bytes = 16u << 20;
	cfg->sys_mem_bytes = 16u << 20;
	cfg->local_latency = 8;
	cfg->sys_latency = 32;
	cfg->local_bytes_per_cycle = 8;
	cfg->sys_bytes_per_cycle = 8;
	cfg->reg_timeout_cycles = 10000;
	cfg->reset_cycles = 8;
	cfg->axi_ready_pct = 75;
	cfg->axi_jitter = 8;
	cfg->axi_max_bursts = 16;
	cfg->axi_seed = 1;
}

struct ppu_sim *ppu_sim_create(const struct ppu_sim_config *cfg)
{
	struct ppu_sim_config def;
	ppu_sim *s;
	int err = ENOMEM;

	if (!cfg) {
		ppu_sim_config_default(&def);
		cfg = &def;
	}
	if ((cfg->local_mem_bytes | cfg->sys_mem_bytes) & (BEAT - 1) ||
	    cfg->reg_timeout_cycles == 0 ||
	    cfg->local_latency > MAX_LATENCY ||
	    cfg->sys_latency > MAX_LATENCY) {
		errno = EINVAL;
		return NULL;
	}

	s = (ppu_sim *)calloc(1, sizeof(*s));
	if (!s)
		goto fail_errno;
	s->cfg = *cfg;
	s->cfg.fst_path = NULL;	/* the caller's strings may not outlive us */
	s->cfg.trace_path = NULL;
	s->xlate = cfg->sys_xlate;
	s->xlate_ctx = cfg->sys_xlate_ctx;
	s->mem_err = cfg->mem_err;
	s->mem_err_ctx = cfg->mem_err_ctx;
	s->mem_bytes[0] = cfg->local_mem_bytes;
	s->mem_bytes[1] = s->xlate ? 0 : cfg->sys_mem_bytes;
	for (int ap = 0; ap < 2; ap++) {
		/* calloc of large sizes is lazily zeroed mmap: cheap to ask. */
		if (s->mem_bytes[ap]) {
			s->mem[ap] = (uint8_t *)calloc(1, s->mem_bytes[ap]);
			if (!s->mem[ap])
				goto fail;
		}
	}

	chan_init(&s->rd, cfg);
	chan_init(&s->wr, cfg);
	if (!ring_init(&s->rd.ring, s->rd.latency) ||
	    !ring_init(&s->wr.ring, s->wr.latency))
		goto fail;

	if (cfg->trace_path) {
		s->trace_fp = fopen(cfg->trace_path, "w");
		if (!s->trace_fp)
			goto fail_errno;
		/* Copies produce bursts of records: not a write per line. */
		setvbuf(s->trace_fp, NULL, _IOFBF, 1 << 20);
	}
	if (cfg->fst_path) {
		/* VerilatedFstC::open() does not survive an unwritable path. */
		FILE *f = fopen(cfg->fst_path, "w");

		if (!f)
			goto fail_errno;
		fclose(f);
	}

	s->vctx = new VerilatedContext;
	if (cfg->fst_path)
		s->vctx->traceEverOn(true);
	s->top = new vtop(s->vctx, "TOP");
#if PPU_SIM_FPGA
	if (!axi_init(s))
		goto fail;
#endif
	if (cfg->fst_path) {
		s->fst = new VerilatedFstC;
		s->top->trace(s->fst, 99);
		s->fst->open(cfg->fst_path);
		if (!s->fst->isOpen()) {
			err = EIO;
			goto fail;
		}
	}

	ppu_sim_reset(s);
	ppu_sim_reset_stats(s);
	return s;

fail_errno:
	err = errno;
fail:
	ppu_sim_destroy(s);
	errno = err;
	return NULL;
}

void ppu_sim_destroy(struct ppu_sim *s)
{
	if (!s)
		return;
	if (s->top)
		s->top->final();
#if VM_COVERAGE
	/* A coverage model (make coverage) leaves one file per simulation. */
	if (s->vctx && getenv("PPU_COVERAGE_DIR")) {
		static unsigned n;
		char path[512];

		snprintf(path, sizeof(path), "%s/cov-%ld-%u.dat", getenv("PPU_COVERAGE_DIR"),
			 (long)getpid(), n++);
		s->vctx->coveragep()->write(path);
	}
#endif
	if (chk_cur == s)
		chk_cur = NULL;
	if (s->fst) {
		s->fst->close();
		delete s->fst;
	}
#if PPU_SIM_FPGA
	axi_fini(s);
#endif
	delete s->top;
	delete s->vctx;
	if (s->trace_fp)
		fclose(s->trace_fp);
	free(s->rd.ring.slot);
	free(s->wr.ring.slot);
	free(s->mem[0]);
	free(s->mem[1]);
	free(s);
}

void ppu_sim_reset(struct ppu_sim *s)
{
	vtop *t = s->top;
	uint32_t n = s->cfg.reset_cycles < 2 ? 2 : s->cfg.reset_cycles;
	timed tm(s);

	t->rst_n = 0;
	/* Strap, static while out of reset: whole MiB of local memory. */
	t->local_mem_mib = s->cfg.local_mem_bytes >> 20 > 0xffff ? 0xffff :
			   (uint16_t)(s->cfg.local_mem_bytes >> 20);
	inputs_idle(s);
	while (n--)
		reset_step(s);
	t->rst_n = 1;

	chan_reset(&s->rd);
	chan_reset(&s->wr);
	s->reg = REG_IDLE;
	s->reg_drop = false;
	s->reg_orphans = 0;
}

void ppu_sim_clock(struct ppu_sim *s, uint64_t n)
{
	timed tm(s);

	while (n--)
		step(s);
}

uint64_t ppu_sim_cycles(const struct ppu_sim *s)
{
	return s->cycle;
}

int ppu_sim_reg_read(struct ppu_sim *s, uint32_t addr, uint32_t *val)
{
	uint32_t v = 0;
	int ret = reg_access(s, false, addr, 0, &v);

	if (val)
		*val = ret ? 0 : v;
	return ret;
}

int ppu_sim_reg_write(struct ppu_sim *s, uint32_t addr, uint32_t val)
{
	return reg_access(s, true, addr, val, NULL);
}

int ppu_sim_idle(const struct ppu_sim *s)
{
	return s->top->idle & 1;
}

int ppu_sim_irq(const struct ppu_sim *s)
{
#if PPU_SIM_FPGA
	return s->top->irq_req & 1;
#else
	return s->top->irq & 1;
#endif
}

int ppu_sim_is_fpga(void)
{
	return PPU_SIM_FPGA;
}

int ppu_sim_mem_read(struct ppu_sim *s, int sys, uint64_t pa, void *buf,
		     size_t len)
{
	return host_access(s, sys, pa, (uint8_t *)buf, NULL, len);
}

int ppu_sim_mem_write(struct ppu_sim *s, int sys, uint64_t pa,
		      const void *buf, size_t len)
{
	return host_access(s, sys, pa, NULL, (const uint8_t *)buf, len);
}

void *ppu_sim_mem_ptr(struct ppu_sim *s, int sys, uint64_t *bytes)
{
	unsigned ap = sys ? 1 : 0;

	if (bytes)
		*bytes = s->mem_bytes[ap];
	return s->mem[ap];
}

void ppu_sim_set_event_cb(struct ppu_sim *s, ppu_sim_event_fn fn, void *ctx)
{
	s->event_fn = fn;
	s->event_ctx = ctx;
}

const char *ppu_sim_kind_name(uint32_t kind)
{
	return kind < 256 ? kinds().name[kind] : NULL;
}

int64_t ppu_sim_run_until(struct ppu_sim *s, ppu_sim_pred_fn pred, void *ctx,
			  uint64_t max_cycles)
{
	timed tm(s);

	if (pred(s, ctx))
		return 0;
	for (uint64_t n = 1; n <= max_cycles; n++) {
		step(s);
		if (pred(s, ctx))
			return (int64_t)n;
	}
	return -1;
}

void ppu_sim_get_stats(const struct ppu_sim *s, struct ppu_sim_stats *st)
{
	*st = s->st;
	st->cycles = s->cycle - s->st_cycle0;
	st->cycles_per_sec = st->wall_seconds > 0 ?
			     st->cycles / st->wall_seconds : 0;
}

void ppu_sim_reset_stats(struct ppu_sim *s)
{
	memset(&s->st, 0, sizeof(s->st));
	s->st_cycle0 = s->cycle;
}

void *ppu_sim_model(struct ppu_sim *s)
{
	return s->top;
}

uint64_t ppu_sim_check_errors(const struct ppu_sim *s)
{
	return s->chk_errors;
}

void ppu_sim_set_check_selftest(struct ppu_sim *s, uint32_t mask)
{
	s->chk_selftest = mask;
}

/* DPI imports of hw/chk/ppu_chk_pkg.sv. */
void ppu_chk_fail(const char *who, const char *what)
{
	ppu_sim *s = chk_cur;

	if (!s)
		return;
	if (s->chk_errors++ < MAX_PROTO_MSGS)
		fprintf(stderr, "ppu_sim: cycle %" PRIu64 ": check failed: %s: %s\n",
			s->cycle, who, what);
}

int ppu_chk_selftest(void)
{
	return chk_cur ? (int)chk_cur->chk_selftest : 0;
}

} /* extern "C" */
