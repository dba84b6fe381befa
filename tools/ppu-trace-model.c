// SPDX-License-Identifier: MIT
#include "ppu-trace-model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/ppu_hw.h"

const char *const ppu_tl_counter_names[PPU_TL_NCOUNTERS] = {
	[PPU_TL_CNT_PENDING_CHANNELS] = "channels with pending work",
	[PPU_TL_CNT_SEM_WAITERS] = "channels waiting on a semaphore",
	[PPU_TL_CNT_COPIES] = "copies in flight",
	[PPU_TL_CNT_ACTIVE_TASKS] = "active tasks",
	[PPU_TL_CNT_PENDING_TASKS] = "pending tasks",
};

const enum ppu_tl_group ppu_tl_counter_group[PPU_TL_NCOUNTERS] = {
	[PPU_TL_CNT_PENDING_CHANNELS] = PPU_TL_HOST,
	[PPU_TL_CNT_SEM_WAITERS] = PPU_TL_HOST,
	[PPU_TL_CNT_COPIES] = PPU_TL_COPY,
	[PPU_TL_CNT_ACTIVE_TASKS] = PPU_TL_TASKS,
	[PPU_TL_CNT_PENDING_TASKS] = PPU_TL_TASKS,
};

#define NCHAN (PPU_TRACE_MAX_CHID + 1)
#define NTID 256u
#define NSLOT 256u

struct open {
	int open;
	struct ppu_tl_slice s;
};

struct chan {
	int prio;
	char label[48];
	unsigned int engine;	/* PPU_ENGINE_TYPE_*, 0 until known */
	unsigned int engines;	/* every type it was bound as (channels are reused) */
	int lane[3];
	struct open sched;	/* resident on the host */
	struct open work;	/* a copy or a semaphore wait */
	struct open copy;	/* the same copy on the copy engine lane */
	int pending;
	uint32_t wait_va;
	uint64_t retries;
	/* its tasks that wait for a unit, their CTAs on a unit, and the
	 * kernels row's open slice */
	unsigned int waiting, ctas;
	struct open kern;
};

struct cta {
	struct open o;
	unsigned int cu, row, chid;
	int preempted;		/* saved for a higher priority, not resumed yet */
};

struct task {
	int launched, active;
	unsigned int chid, prio, depth, parent, slot;
	/* launched (or seen active) and not complete; has had a CTA on a
	 * unit; CTAs preempted and not resumed; counted in its channel's
	 * waiting tasks */
	int live, started, preempted, waiting;
	struct open slot_slice;
	struct cta *cta;	/* PPU_TL_MAX_J entries, allocated on first CTA */
};

struct ppu_tl_model {
	struct ppu_tl_sink sink;
	struct ppu_tl_stats st;
	struct ppu_tl_lane *lanes;
	int nlanes, cap_lanes;
	int host_lane, copy_lane;
	int task_lane[NSLOT];
	int cu_lane[PPU_TL_MAX_CU][PPU_TL_MAX_CU_ROWS];
	uint64_t cu_busy[PPU_TL_MAX_CU];	/* rows in use */
	struct chan ch[NCHAN];
	struct task task[NTID];
	int resident;		/* channel resident on the host, -1 none */
	struct open host_res;
	int64_t cnt[PPU_TL_NCOUNTERS];
	int have_cycle;
};

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);

	if (!p) {
		fprintf(stderr, "ppu-trace: out of memory\n");
		exit(1);
	}
	return p;
}

static int new_lane(struct ppu_tl_model *m, enum ppu_tl_group g, unsigned int unit,
		    unsigned int row)
{
	struct ppu_tl_lane *l;

	if (m->nlanes == m->cap_lanes) {
		m->cap_lanes = m->cap_lanes ? 2 * m->cap_lanes : 32;
		m->lanes = realloc(m->lanes, (size_t)m->cap_lanes * sizeof(*m->lanes));
		if (!m->lanes) {
			fprintf(stderr, "ppu-trace: out of memory\n");
			exit(1);
		}
	}
	l = &m->lanes[m->nlanes];
	memset(l, 0, sizeof(*l));
	l->id = m->nlanes;
	l->group = g;
	l->unit = unit;
	l->row = row;
	return m->nlanes++;
}

static struct ppu_tl_where where(const struct ppu_tl_model *m, int lane)
{
	struct ppu_tl_where w = { PPU_TL_HOST, 0, 0 };

	if (lane >= 0 && lane < m->nlanes) {
		w.group = m->lanes[lane].group;
		w.unit = m->lanes[lane].unit;
		w.row = m->lanes[lane].row;
	}
	return w;
}

static int lane_of(struct ppu_tl_model *m, int *slot, enum ppu_tl_group g, unsigned int unit,
		   unsigned int row)
{
	if (*slot < 0)
		*slot = new_lane(m, g, unit, row);
	return *slot;
}

static int chan_lane(struct ppu_tl_model *m, unsigned int ch, unsigned int row)
{
	return lane_of(m, &m->ch[ch].lane[row], PPU_TL_CHAN, ch, row);
}

static void counter(struct ppu_tl_model *m, enum ppu_tl_counter c, uint64_t t, int64_t delta)
{
	if (!delta)
		return;
	m->cnt[c] += delta;
	if (m->sink.counter)
		m->sink.counter(m->sink.ctx, c, t, m->cnt[c]);
}

static void add_arg(struct ppu_tl_arg *a, int *n, const char *key, int quoted, const char *fmt,
		    unsigned long long v, const char *s)
{
	int i;

	/* a later value of the same key replaces the earlier one */
	for (i = 0; i < *n && strcmp(a[i].key, key); i++)
		;
	if (i == *n) {
		if (*n == PPU_TL_MAX_ARGS)
			return;
		(*n)++;
	}
	a[i].key = key;
	a[i].quoted = quoted;
	if (s)
		snprintf(a[i].val, sizeof(a[i].val), "%s", s);
	else
		snprintf(a[i].val, sizeof(a[i].val), fmt, v);
}

#define ARG_U(x, k, v) add_arg((x)->args, &(x)->nargs, (k), 0, "%llu", (unsigned long long)(v), NULL)
#define ARG_X(x, k, v) add_arg((x)->args, &(x)->nargs, (k), 1, "0x%08llx", (unsigned long long)(v), NULL)
#define ARG_S(x, k, v) add_arg((x)->args, &(x)->nargs, (k), 1, NULL, 0, (v))

static struct ppu_tl_slice *open_slice(struct open *o, int lane, uint64_t t, const char *cat,
				       int prio, int wait)
{
	memset(&o->s, 0, sizeof(o->s));
	o->open = 1;
	o->s.lane = lane;
	o->s.t0 = t;
	o->s.cat = cat;
	o->s.prio = prio;
	o->s.wait = wait;
	return &o->s;
}

static void close_slice(struct ppu_tl_model *m, struct open *o, uint64_t t, const char *ended)
{
	if (!o->open)
		return;
	o->open = 0;
	o->s.t1 = t;
	if (ended)
		ARG_S(&o->s, "ended", ended);
	o->s.where = where(m, o->s.lane);
	m->st.slices++;
	if (m->sink.slice)
		m->sink.slice(m->sink.ctx, &o->s);
}

static void instant(struct ppu_tl_model *m, struct ppu_tl_instant *in)
{
	in->where = where(m, in->lane);
	m->st.instants++;
	if (m->sink.instant)
		m->sink.instant(m->sink.ctx, in);
}

static struct ppu_tl_instant *new_instant(struct ppu_tl_instant *in, int lane, uint64_t t,
					  const char *cat, enum ppu_tl_scope scope)
{
	memset(in, 0, sizeof(*in));
	in->lane = lane;
	in->t = t;
	in->cat = cat;
	in->scope = scope;
	return in;
}

struct ppu_tl_model *ppu_tl_model_new(const struct ppu_tl_sink *sink)
{
	struct ppu_tl_model *m = xcalloc(1, sizeof(*m));
	unsigned int i, j;

	if (sink)
		m->sink = *sink;
	m->host_lane = m->copy_lane = -1;
	m->resident = -1;
	for (i = 0; i < NSLOT; i++)
		m->task_lane[i] = -1;
	for (i = 0; i < PPU_TL_MAX_CU; i++)
		for (j = 0; j < PPU_TL_MAX_CU_ROWS; j++)
			m->cu_lane[i][j] = -1;
	for (i = 0; i < NCHAN; i++) {
		m->ch[i].prio = -1;
		m->ch[i].lane[0] = m->ch[i].lane[1] = m->ch[i].lane[2] = -1;
	}
	return m;
}

void ppu_tl_model_free(struct ppu_tl_model *m)
{
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < NTID; i++)
		free(m->task[i].cta);
	free(m->lanes);
	free(m);
}

void ppu_tl_set_chan(struct ppu_tl_model *m, unsigned int chid, int prio, const char *label)
{
	if (chid >= NCHAN)
		return;
	if (prio >= 0)
		m->ch[chid].prio = prio;
	if (label && *label)
		snprintf(m->ch[chid].label, sizeof(m->ch[chid].label), "%s", label);
}

const struct ppu_tl_stats *ppu_tl_get_stats(const struct ppu_tl_model *m)
{
	return &m->st;
}

const struct ppu_tl_lane *ppu_tl_lanes(const struct ppu_tl_model *m, int *n)
{
	*n = m->nlanes;
	return m->lanes;
}

static const char *reason_name(uint32_t r)
{
	switch (r) {
	case PPU_SWITCH_REASON_IDLE: return "idle";
	case PPU_SWITCH_REASON_TIMESLICE: return "timeslice";
	case PPU_SWITCH_REASON_ACQ_FAIL: return "acquire failed";
	case PPU_SWITCH_REASON_ENGINE_BUSY: return "engine busy";
	case PPU_SWITCH_REASON_YIELD: return "yield";
	case PPU_SWITCH_REASON_FAULT: return "fault";
	case PPU_SWITCH_REASON_GUEST: return "guest";
	case PPU_SWITCH_REASON_PRIORITY: return "priority";
	case PPU_SWITCH_REASON_WFI: return "wfi";
	default: return "other";
	}
}

static void chan_name(const struct chan *c, unsigned int ch, char *buf, size_t len)
{
	snprintf(buf, len, "channel %u", ch);
	if (c->label[0])
		snprintf(buf, len, "channel %u %s", ch, c->label);
}

/* The resident channel leaves the host. */
static void end_residency(struct ppu_tl_model *m, uint64_t t, const char *why)
{
	if (m->resident < 0)
		return;
	close_slice(m, &m->ch[m->resident].sched, t, why);
	close_slice(m, &m->host_res, t, why);
	m->resident = -1;
}

static void begin_residency(struct ppu_tl_model *m, unsigned int ch, uint64_t t,
			    uint32_t reason)
{
	struct chan *c = &m->ch[ch];
	struct ppu_tl_slice *s;

	m->resident = (int)ch;
	s = open_slice(&c->sched, chan_lane(m, ch, PPU_TL_CHAN_SCHED), t, "resident", c->prio, 0);
	snprintf(s->name, sizeof(s->name), "resident");
	ARG_U(s, "channel", ch);
	ARG_S(s, "switch reason", reason_name(reason));
	if (c->prio >= 0)
		ARG_U(s, "priority", c->prio);
	s = open_slice(&m->host_res, lane_of(m, &m->host_lane, PPU_TL_HOST, 0, 0), t, "resident",
		       c->prio, 0);
	chan_name(c, ch, s->name, sizeof(s->name));
	ARG_U(s, "channel", ch);
	ARG_S(s, "switch reason", reason_name(reason));
	if (c->prio >= 0)
		ARG_U(s, "priority", c->prio);
}

static void end_wait(struct ppu_tl_model *m, struct chan *c, uint64_t t, const char *why)
{
	if (!c->work.open || strcmp(c->work.s.cat, "sem_wait"))
		return;
	ARG_U(&c->work.s, "retries", c->retries);
	close_slice(m, &c->work, t, why);
	counter(m, PPU_TL_CNT_SEM_WAITERS, t, -1);
}

static void end_copy(struct ppu_tl_model *m, struct chan *c, uint64_t t, const char *why)
{
	if (!c->copy.open)
		return;
	close_slice(m, &c->work, t, why);
	close_slice(m, &c->copy, t, why);
	counter(m, PPU_TL_CNT_COPIES, t, -1);
}

static void on_switch(struct ppu_tl_model *m, const struct ppu_trace_rec *r)
{
	struct ppu_tl_instant in;

	if (r->b == PPU_SWITCH_REASON_GUEST) {
		/* the resident keeps the engine; ch only runs host methods */
		new_instant(&in, chan_lane(m, r->chid, PPU_TL_CHAN_SCHED), r->cycle, "guest",
			    PPU_TL_SCOPE_LANE);
		snprintf(in.name, sizeof(in.name), "served as guest");
		ARG_U(&in, "channel", r->chid);
		if (r->a != PPU_TRACE_CHID_NONE)
			ARG_U(&in, "resident", r->a);
		instant(m, &in);
		return;
	}
	end_residency(m, r->cycle, "switched out");
	begin_residency(m, r->chid, r->cycle, r->b);
	if (r->b == PPU_SWITCH_REASON_PRIORITY) {
		new_instant(&in, m->host_lane, r->cycle, "priority", PPU_TL_SCOPE_LANE);
		snprintf(in.name, sizeof(in.name), "priority switch to channel %u", r->chid);
		ARG_U(&in, "channel", r->chid);
		if (r->a != PPU_TRACE_CHID_NONE)
			ARG_U(&in, "previous", r->a);
		instant(m, &in);
	}
}

static void on_copy_start(struct ppu_tl_model *m, const struct ppu_trace_rec *r)
{
	struct chan *c = &m->ch[r->chid];
	struct ppu_tl_slice *s;
	char who[72], what[24];

	if (c->copy.open) {
		/* a second start with no end between: keep the first, marked */
		m->st.copy_start_unmatched++;
		c->copy.s.unfinished = 1;
		c->work.s.unfinished = 1;
		end_copy(m, c, r->cycle, "no COPY_END");
	}
	end_wait(m, c, r->cycle, "copy started");
	close_slice(m, &c->work, r->cycle, NULL);
	if (!c->engine)
		c->engine = PPU_ENGINE_TYPE_COPY;
	s = open_slice(&c->work, chan_lane(m, r->chid, PPU_TL_CHAN_WORK), r->cycle, "copy", c->prio,
		       0);
	if (r->b >= 1024 && !(r->b & 1023))
		snprintf(s->name, sizeof(s->name), "copy %u KiB", r->b >> 10);
	else
		snprintf(s->name, sizeof(s->name), "copy %u B", r->b);
	ARG_U(s, "channel", r->chid);
	ARG_U(s, "bytes", r->b);
	ARG_X(s, "src", r->a);
	if (c->prio >= 0)
		ARG_U(s, "priority", c->prio);
	c->copy = c->work;
	c->copy.s.lane = lane_of(m, &m->copy_lane, PPU_TL_COPY, 0, 0);
	chan_name(c, r->chid, who, sizeof(who));
	snprintf(what, sizeof(what), "%s", s->name);
	snprintf(c->copy.s.name, sizeof(c->copy.s.name), "%s: %s", who, what);
	counter(m, PPU_TL_CNT_COPIES, r->cycle, 1);
}

static void on_copy_end(struct ppu_tl_model *m, const struct ppu_trace_rec *r)
{
	struct chan *c = &m->ch[r->chid];

	if (!c->copy.open) {
		m->st.copy_end_unmatched++;
		return;
	}
	ARG_X(&c->work.s, "dst", r->a);
	ARG_X(&c->copy.s, "dst", r->a);
	end_copy(m, c, r->cycle, NULL);
}

static void on_acq_fail(struct ppu_tl_model *m, const struct ppu_trace_rec *r)
{
	struct chan *c = &m->ch[r->chid];
	struct ppu_tl_slice *s;

	if (c->work.open && !strcmp(c->work.s.cat, "sem_wait")) {
		if (c->wait_va == r->a) {
			c->retries++;
			ARG_U(&c->work.s, "last value", r->b);
			return;
		}
		end_wait(m, c, r->cycle, "waits on another semaphore");
	}
	if (c->work.open)
		return;		/* the channel's copy is still running: not a wait of its own */
	s = open_slice(&c->work, chan_lane(m, r->chid, PPU_TL_CHAN_WORK), r->cycle, "sem_wait",
		       c->prio, 1);
	snprintf(s->name, sizeof(s->name), "sem wait 0x%08x", r->a);
	ARG_U(s, "channel", r->chid);
	ARG_X(s, "semaphore", r->a);
	ARG_U(s, "value seen", r->b);
	if (c->prio >= 0)
		ARG_U(s, "priority", c->prio);
	c->wait_va = r->a;
	c->retries = 0;
	counter(m, PPU_TL_CNT_SEM_WAITERS, r->cycle, 1);
}

static void on_acq_ok(struct ppu_tl_model *m, const struct ppu_trace_rec *r)
{
	struct chan *c = &m->ch[r->chid];

	if (c->work.open && !strcmp(c->work.s.cat, "sem_wait")) {
		ARG_U(&c->work.s, "value acquired", r->b);
		end_wait(m, c, r->cycle, NULL);
	}
}

static void sem_instant(struct ppu_tl_model *m, const struct ppu_trace_rec *r, const char *what)
{
	struct ppu_tl_instant in;

	new_instant(&in, chan_lane(m, r->chid, PPU_TL_CHAN_SCHED), r->cycle, "semaphore",
		    PPU_TL_SCOPE_LANE);
	snprintf(in.name, sizeof(in.name), "%s 0x%08x = %u", what, r->a, r->b);
	ARG_X(&in, "semaphore", r->a);
	ARG_U(&in, "value", r->b);
	instant(m, &in);
}

static void set_pending(struct ppu_tl_model *m, struct chan *c, uint64_t t, int pending)
{
	if (c->pending == pending)
		return;
	c->pending = pending;
	counter(m, PPU_TL_CNT_PENDING_CHANNELS, t, pending ? 1 : -1);
}

/* A fault stops only the faulting channel: end what it had going. */
static void on_fault(struct ppu_tl_model *m, const struct ppu_trace_rec *r)
{
	struct chan *c = &m->ch[r->chid];
	struct ppu_tl_instant in;

	new_instant(&in, chan_lane(m, r->chid, PPU_TL_CHAN_SCHED), r->cycle, "fault",
		    PPU_TL_SCOPE_GLOBAL);
	snprintf(in.name, sizeof(in.name), "fault on channel %u", r->chid);
	ARG_U(&in, "channel", r->chid);
	ARG_X(&in, "fault info", r->a);
	ARG_X(&in, "address", r->b);
	instant(m, &in);
	end_wait(m, c, r->cycle, "fault");
	end_copy(m, c, r->cycle, "fault");
	close_slice(m, &c->work, r->cycle, "fault");
	set_pending(m, c, r->cycle, 0);
	if (m->resident == (int)r->chid)
		end_residency(m, r->cycle, "fault");
}

static void chan_instant(struct ppu_tl_model *m, const struct ppu_trace_rec *r, const char *cat,
			 const char *name)
{
	struct ppu_tl_instant in;

	new_instant(&in, chan_lane(m, r->chid, PPU_TL_CHAN_SCHED), r->cycle, cat,
		    PPU_TL_SCOPE_LANE);
	snprintf(in.name, sizeof(in.name), "%s", name);
	ARG_U(&in, "channel", r->chid);
	ARG_X(&in, "a", r->a);
	ARG_X(&in, "b", r->b);
	instant(m, &in);
}

/*
 * A compute channel's kernels row: a slice while any CTA of its tasks is on
 * a unit, and a waiting slice while none is but one of its tasks waits for
 * a unit: launched and not started yet (queued behind other work), or with
 * CTAs preempted.  The task table's slot rows cannot show this: a task
 * holds its slot while it waits.  A started task between CTAs (or after its
 * last) does not count: the trace does not say whether CTAs remain.
 */
static void kern_update(struct ppu_tl_model *m, unsigned int chid, uint64_t t, int prio)
{
	struct chan *c = &m->ch[chid];
	int want = c->ctas ? 2 : c->waiting ? 1 : 0;	/* 2 running, 1 waiting */
	int have = !c->kern.open ? 0 : c->kern.s.wait ? 1 : 2;
	struct ppu_tl_slice *s;

	if (want == have)
		return;
	close_slice(m, &c->kern, t, NULL);
	if (!want)
		return;
	s = open_slice(&c->kern, chan_lane(m, chid, PPU_TL_CHAN_KERNELS), t,
		       want == 2 ? "kernels" : "unit_wait", prio, want == 1);
	snprintf(s->name, sizeof(s->name), "%s",
		 want == 2 ? "CTAs on compute units" : "waits for a compute unit");
	ARG_U(s, "channel", chid);
	if (prio >= 0)
		ARG_U(s, "priority", prio);
}

/* After a change of @k's state: is it waiting for a unit now? */
static void kern_task(struct ppu_tl_model *m, struct task *k, uint64_t t)
{
	struct chan *c = &m->ch[k->chid];
	int w = k->live && (!k->started || k->preempted);

	if (w == k->waiting)
		return;
	k->waiting = w;
	if (w)
		c->waiting++;
	else if (c->waiting)
		c->waiting--;
	kern_update(m, k->chid, t, (int)k->prio);
}

static void kern_cta(struct ppu_tl_model *m, unsigned int chid, uint64_t t, int on, int prio)
{
	struct chan *c = &m->ch[chid];

	if (on)
		c->ctas++;
	else if (c->ctas)
		c->ctas--;
	kern_update(m, chid, t, prio);
}

static void task_state(struct ppu_tl_model *m, struct task *k, uint64_t t, int launched,
		       int active)
{
	int pend_was = k->launched && !k->active, pend_is = launched && !active;

	counter(m, PPU_TL_CNT_ACTIVE_TASKS, t, (int64_t)active - k->active);
	counter(m, PPU_TL_CNT_PENDING_TASKS, t, (int64_t)pend_is - pend_was);
	k->launched = launched;
	k->active = active;
}

static void on_task(struct ppu_tl_model *m, const struct ppu_trace_rec *r)
{
	unsigned int tid = r->a & 0xff, slot = (r->a >> 8) & 0xff, j;
	struct task *k = &m->task[tid];
	struct ppu_tl_instant in;
	struct ppu_tl_slice *s;

	switch (r->kind) {
	case PPU_TRACE_TASK_LAUNCH:
		k->chid = r->chid;
		k->prio = (r->a >> 8) & 0xff;
		k->depth = (r->a >> 16) & 0xff;
		k->parent = r->b;
		if (!m->ch[k->chid].engine)
			m->ch[k->chid].engine = PPU_ENGINE_TYPE_COMPUTE;
		task_state(m, k, r->cycle, 1, 0);
		new_instant(&in, chan_lane(m, k->chid, PPU_TL_CHAN_SCHED), r->cycle, "task",
			    PPU_TL_SCOPE_LANE);
		snprintf(in.name, sizeof(in.name), "launch task %u prio %u", tid, k->prio);
		ARG_U(&in, "task", tid);
		ARG_U(&in, "priority", k->prio);
		ARG_U(&in, "depth", k->depth);
		if (r->b != 0xff)
			ARG_U(&in, "parent", r->b);
		instant(m, &in);
		/* a task id is reused after its task completed (or was killed) */
		if (k->cta)
			for (j = 0; j < PPU_TL_MAX_J; j++)
				k->cta[j].preempted = 0;
		k->live = 1;
		k->started = 0;
		k->preempted = 0;
		kern_task(m, k, r->cycle);
		break;
	case PPU_TRACE_TASK_ACTIVATE:
		if (slot >= NSLOT)
			break;
		if (!k->launched) {
			/* the trace began after the launch */
			k->chid = r->chid;
			k->parent = 0xff;
		}
		k->prio = (r->a >> 16) & 0xff;
		k->slot = slot;
		close_slice(m, &k->slot_slice, r->cycle, "activated again");
		task_state(m, k, r->cycle, 1, 1);
		k->live = 1;
		kern_task(m, k, r->cycle);
		s = open_slice(&k->slot_slice, lane_of(m, &m->task_lane[slot], PPU_TL_TASKS, 0, slot),
			       r->cycle, "task", (int)k->prio, 0);
		snprintf(s->name, sizeof(s->name), "task %u (ch %u, prio %u)", tid, k->chid, k->prio);
		ARG_U(s, "task", tid);
		ARG_U(s, "channel", k->chid);
		ARG_U(s, "priority", k->prio);
		ARG_U(s, "depth", k->depth);
		if (k->parent != 0xff)
			ARG_U(s, "parent", k->parent);
		ARG_X(s, "tmd", r->b);
		break;
	case PPU_TRACE_TASK_EVICT:
		close_slice(m, &k->slot_slice, r->cycle, "evicted");
		task_state(m, k, r->cycle, 1, 0);
		new_instant(&in, lane_of(m, &m->task_lane[slot], PPU_TL_TASKS, 0, slot), r->cycle,
			    "priority", PPU_TL_SCOPE_LANE);
		snprintf(in.name, sizeof(in.name), "evict task %u (prio %u)", tid,
			 (r->a >> 16) & 0xff);
		ARG_U(&in, "task", tid);
		instant(m, &in);
		break;
	case PPU_TRACE_TASK_COMPLETE:
		if (k->slot_slice.open)
			ARG_X(&k->slot_slice.s, "flags", (r->a >> 16) & 0xffff);
		close_slice(m, &k->slot_slice, r->cycle, "complete");
		task_state(m, k, r->cycle, 0, 0);
		k->live = 0;
		kern_task(m, k, r->cycle);
		break;
	default:
		break;
	}
}

static void on_cta(struct ppu_tl_model *m, const struct ppu_trace_rec *r)
{
	unsigned int tid = r->a & 0xff, j = (r->a >> 8) & 0xff, cu = (r->a >> 16) & 0xff;
	int flag = (r->a >> 24) & 1;
	struct task *k = &m->task[tid];
	struct ppu_tl_instant in;
	struct ppu_tl_slice *s;
	struct cta *c;
	unsigned int row;

	if (j >= PPU_TL_MAX_J || cu >= PPU_TL_MAX_CU) {
		m->st.out_of_range++;
		return;
	}
	if (!k->cta)
		k->cta = xcalloc(PPU_TL_MAX_J, sizeof(*k->cta));
	c = &k->cta[j];
	switch (r->kind) {
	case PPU_TRACE_CTA_DISPATCH:
	case PPU_TRACE_CTA_RESUME:
		if (c->o.open) {
			close_slice(m, &c->o, r->cycle, "dispatched again");
			m->cu_busy[c->cu] &= ~(1ull << c->row);
			kern_cta(m, c->chid, r->cycle, 0, -1);
		}
		if (!~m->cu_busy[cu]) {
			m->st.out_of_range++;
			return;
		}
		for (row = 0; m->cu_busy[cu] & (1ull << row); row++)
			;
		m->cu_busy[cu] |= 1ull << row;
		c->cu = cu;
		c->row = row;
		c->chid = r->chid;
		if (c->preempted && k->preempted)
			k->preempted--;
		c->preempted = 0;
		k->started = 1;
		kern_task(m, k, r->cycle);
		s = open_slice(&c->o, lane_of(m, &m->cu_lane[cu][row], PPU_TL_CU, cu, row), r->cycle,
			       "cta", k->launched || k->active ? (int)k->prio : -1, 0);
		snprintf(s->name, sizeof(s->name), "task %u CTA %u%s", tid, r->b,
			 r->kind == PPU_TRACE_CTA_RESUME ? " (resumed)" : "");
		ARG_U(s, "task", tid);
		ARG_U(s, "cta", r->b);
		ARG_U(s, "channel", r->chid);
		ARG_U(s, "cu", cu);
		if (s->prio >= 0)
			ARG_U(s, "priority", s->prio);
		kern_cta(m, r->chid, r->cycle, 1, s->prio);
		break;
	case PPU_TRACE_CTA_PREEMPT:
		if (!c->o.open)
			break;
		new_instant(&in, c->o.s.lane, r->cycle, "priority", PPU_TL_SCOPE_LANE);
		snprintf(in.name, sizeof(in.name), "preempt task %u CTA %u", tid, r->b);
		ARG_U(&in, "task", tid);
		ARG_U(&in, "cta", r->b);
		instant(m, &in);
		break;
	case PPU_TRACE_CTA_SAVED:
	case PPU_TRACE_CTA_EXIT:
		if (!c->o.open)
			break;
		close_slice(m, &c->o, r->cycle,
			    r->kind == PPU_TRACE_CTA_EXIT ? (flag ? "killed" : "exit") :
			    flag ? "saved: waits for its children" : "saved: preempted");
		m->cu_busy[c->cu] &= ~(1ull << c->row);
		if (r->kind == PPU_TRACE_CTA_SAVED && !flag && !c->preempted) {
			c->preempted = 1;
			k->preempted++;
			kern_task(m, k, r->cycle);
		}
		kern_cta(m, c->chid, r->cycle, 0, k->launched || k->active ? (int)k->prio : -1);
		break;
	default:
		break;
	}
}

int ppu_tl_feed(struct ppu_tl_model *m, const struct ppu_trace_rec *r)
{
	struct chan *c = &m->ch[r->chid];

	if (m->have_cycle && r->cycle < m->st.last_cycle)
		return -1;
	if (!m->have_cycle)
		m->st.first_cycle = r->cycle;
	m->have_cycle = 1;
	m->st.last_cycle = r->cycle;
	m->st.records++;

	switch (r->kind) {
	case PPU_TRACE_DOORBELL:
		set_pending(m, c, r->cycle, r->a != r->b);
		chan_lane(m, r->chid, PPU_TL_CHAN_SCHED);
		break;
	case PPU_TRACE_CHAN_SWITCH:
		on_switch(m, r);
		break;
	case PPU_TRACE_CHAN_IDLE:
		set_pending(m, c, r->cycle, 0);
		if (m->resident == (int)r->chid)
			end_residency(m, r->cycle, "idle");
		break;
	case PPU_TRACE_COPY_START:
		on_copy_start(m, r);
		break;
	case PPU_TRACE_COPY_END:
		on_copy_end(m, r);
		break;
	case PPU_TRACE_SEM_ACQ_OK:
		on_acq_ok(m, r);
		break;
	case PPU_TRACE_SEM_ACQ_FAIL:
		on_acq_fail(m, r);
		break;
	case PPU_TRACE_SEM_RELEASE:
		sem_instant(m, r, "release");
		break;
	case PPU_TRACE_SEM_REDUCTION:
		sem_instant(m, r, "reduction");
		break;
	case PPU_TRACE_FAULT:
		on_fault(m, r);
		break;
	case PPU_TRACE_NONSTALL:
		chan_instant(m, r, "nonstall", "non-stall interrupt");
		break;
	case PPU_TRACE_BIND:
		/* a doorbell on an unbound channel binds it: it has work */
		c->engine = r->a;
		if (r->a < 32)
			c->engines |= 1u << r->a;
		chan_lane(m, r->chid, PPU_TL_CHAN_SCHED);
		set_pending(m, c, r->cycle, 1);
		break;
	case PPU_TRACE_GP_FETCH:
		set_pending(m, c, r->cycle, 1);
		break;
	case PPU_TRACE_UNBIND:
		end_wait(m, c, r->cycle, "unbound");
		end_copy(m, c, r->cycle, "unbound");
		close_slice(m, &c->work, r->cycle, "unbound");
		if (m->resident == (int)r->chid)
			end_residency(m, r->cycle, "unbound");
		set_pending(m, c, r->cycle, 0);
		break;
	case PPU_TRACE_TASK_LAUNCH:
	case PPU_TRACE_TASK_ACTIVATE:
	case PPU_TRACE_TASK_EVICT:
	case PPU_TRACE_TASK_COMPLETE:
		on_task(m, r);
		break;
	case PPU_TRACE_CTA_DISPATCH:
	case PPU_TRACE_CTA_PREEMPT:
	case PPU_TRACE_CTA_SAVED:
	case PPU_TRACE_CTA_RESUME:
	case PPU_TRACE_CTA_EXIT:
		on_cta(m, r);
		break;
	case PPU_TRACE_LAUNCH_FAIL:
		chan_instant(m, r, "error", "launch failed");
		break;
	case PPU_TRACE_CHAN_LOAD:
		chan_instant(m, r, "cache", (r->a & 0x10000) ? "channel cache: slot for a bind"
							 : "channel cache: context loaded");
		break;
	default:
		/* GP_FETCH, METHOD: too fine for a timeline */
		break;
	}
	return 0;
}

static void name_lane(const struct ppu_tl_model *m, struct ppu_tl_lane *l)
{
	const struct chan *c;
	const char *eng;
	int n;

	switch (l->group) {
	case PPU_TL_HOST:
		snprintf(l->group_name, sizeof(l->group_name), "host interface");
		snprintf(l->name, sizeof(l->name), "host scheduler (resident channel)");
		break;
	case PPU_TL_COPY:
		snprintf(l->group_name, sizeof(l->group_name), "copy engine");
		snprintf(l->name, sizeof(l->name), "copy engine");
		break;
	case PPU_TL_TASKS:
		snprintf(l->group_name, sizeof(l->group_name), "task table");
		snprintf(l->name, sizeof(l->name), "task table slot %u", l->row);
		break;
	case PPU_TL_CU:
		snprintf(l->group_name, sizeof(l->group_name), "CU %u", l->unit);
		if (l->row)
			snprintf(l->name, sizeof(l->name), "CU %u row %u", l->unit, l->row);
		else
			snprintf(l->name, sizeof(l->name), "CU %u", l->unit);
		break;
	case PPU_TL_CHAN:
		c = &m->ch[l->unit];
		if (c->engine == PPU_ENGINE_TYPE_COPY || c->engine == PPU_ENGINE_TYPE_COMPUTE)
			n = (int)(c->engines | 1u << c->engine);
		else
			n = 0;
		eng = n == (1 << PPU_ENGINE_TYPE_COPY) ? " (copy)" :
		      n == (1 << PPU_ENGINE_TYPE_COMPUTE) ? " (compute)" :
		      n ? " (copy and compute: bound again)" : "";
		n = snprintf(l->group_name, sizeof(l->group_name), "channel %u%s", l->unit, eng);
		if (c->label[0] && n > 0 && (size_t)n < sizeof(l->group_name))
			n += snprintf(l->group_name + n, sizeof(l->group_name) - n, " %s", c->label);
		if (c->prio >= 0 && n > 0 && (size_t)n < sizeof(l->group_name))
			snprintf(l->group_name + n, sizeof(l->group_name) - n, ", prio %d", c->prio);
		snprintf(l->name, sizeof(l->name), "%s %s", l->group_name,
			 l->row == PPU_TL_CHAN_SCHED ? "scheduling" :
			 l->row == PPU_TL_CHAN_WORK ? "work" : "kernels");
		break;
	case PPU_TL_API:
		/* named by ppu-trace-host.c, which makes them */
		break;
	}
}

static void finish_open(struct ppu_tl_model *m, struct open *o, uint64_t t)
{
	if (!o->open)
		return;
	o->s.unfinished = 1;
	ARG_S(&o->s, "unfinished", "trace ended");
	close_slice(m, o, t, NULL);
}

void ppu_tl_finish(struct ppu_tl_model *m)
{
	uint64_t t = m->st.last_cycle;
	unsigned int i, j;
	int k;

	for (i = 0; i < NCHAN; i++) {
		struct chan *c = &m->ch[i];

		if (c->copy.open)
			m->st.copy_start_unmatched++;
		if (c->work.open && !strcmp(c->work.s.cat, "sem_wait")) {
			m->st.sem_wait_unfinished++;
			ARG_U(&c->work.s, "retries", c->retries);
		}
		finish_open(m, &c->copy, t);
		finish_open(m, &c->work, t);
		finish_open(m, &c->kern, t);
		finish_open(m, &c->sched, t);
	}
	finish_open(m, &m->host_res, t);
	for (i = 0; i < NTID; i++) {
		finish_open(m, &m->task[i].slot_slice, t);
		if (m->task[i].cta)
			for (j = 0; j < PPU_TL_MAX_J; j++)
				finish_open(m, &m->task[i].cta[j].o, t);
	}
	for (k = 0; k < m->nlanes; k++) {
		name_lane(m, &m->lanes[k]);
		if (m->sink.lane)
			m->sink.lane(m->sink.ctx, &m->lanes[k]);
	}
}
