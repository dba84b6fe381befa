/* SPDX-License-Identifier: MIT */
/*
 * The compute side of ppu.ko, run inside the co-simulation guest: the
 * compute parameters of GET_PARAM, compute channels, the debugfs files
 * `tasks` and `cu`, and kernels launched through a pushbuffer against the
 * ioctls only.  The kernels are a few hand-assembled RV32I words in a BO:
 * one stores a value and exits, one spins on a flag the CPU sets, one
 * loads from an unmapped address and faults its channel.
 *
 * Tests of the no-compute behaviour pass on a device without a compute
 * engine (CAP_NUM_CU = 0); tests that need one fail there, saying so.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_work.h"

#define PG PPU_TPAGE
#define WAIT_S 30.0

/* The uapi numbers are the hardware's. */
_Static_assert(DRM_PPU_CHAN_STATE_WFI_WAIT == PPU_CHAN_STATUS_STATE_WFI_WAIT, "WFI_WAIT");
_Static_assert(DRM_PPU_FAULT_ILLEGAL_INSTR == PPU_FAULT_KIND_ILLEGAL_INSTR, "kind");
_Static_assert(DRM_PPU_FAULT_MISALIGNED == PPU_FAULT_KIND_MISALIGNED, "kind");
_Static_assert(DRM_PPU_FAULT_TMD_INVALID == PPU_FAULT_KIND_TMD_INVALID, "kind");
_Static_assert(DRM_PPU_FAULT_KERNEL_TRAP == PPU_FAULT_KIND_KERNEL_TRAP, "kind");
_Static_assert(DRM_PPU_FAULT_UNIT_COMPUTE == PPU_FAULT_UNIT_COMPUTE, "unit");
_Static_assert(DRM_PPU_FAULT_UNIT_TASKS == PPU_FAULT_UNIT_TASKS, "unit");
_Static_assert(DRM_PPU_FAULT_ACCESS_READ == PPU_FAULT_ACCESS_READ, "access");
_Static_assert(DRM_PPU_FAULT_ACCESS_EXEC == PPU_FAULT_ACCESS_EXEC, "access");

/* ---- RV32I encodings (the few the kernels below need) ---- */

enum { X0 = 0, T0 = 5, A0 = 10, A7 = 17 };

static uint32_t rv_lui(uint32_t rd, uint32_t imm20)
{
	return (imm20 << 12) | (rd << 7) | 0x37;
}

static uint32_t rv_addi(uint32_t rd, uint32_t rs1, int32_t imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | rd << 7 | 0x13;
}

static uint32_t rv_lw(uint32_t rd, uint32_t rs1, int32_t off)
{
	return ((uint32_t)off & 0xfff) << 20 | rs1 << 15 | 2u << 12 | rd << 7 | 0x03;
}

static uint32_t rv_sw(uint32_t rs2, uint32_t rs1, int32_t off)
{
	uint32_t o = (uint32_t)off & 0xfff;

	return (o >> 5) << 25 | rs2 << 20 | rs1 << 15 | 2u << 12 | (o & 0x1f) << 7 | 0x23;
}

static uint32_t rv_beq(uint32_t rs1, uint32_t rs2, int32_t off)
{
	uint32_t o = (uint32_t)off & 0x1fff;

	return ((o >> 12) & 1) << 31 | ((o >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 |
	       ((o >> 1) & 0xf) << 8 | ((o >> 11) & 1) << 7 | 0x63;
}

#define RV_ECALL 0x00000073u

/* What the store kernel writes: lui + addi, so the low 12 bits stay positive. */
#define STORE_VALUE 0x600d0123u

/* a0 = PARAM_PTR at thread start: *a0 = STORE_VALUE, then EXIT. */
static uint32_t kernel_store(uint32_t *w)
{
	w[0] = rv_lui(T0, STORE_VALUE >> 12);
	w[1] = rv_addi(T0, T0, STORE_VALUE & 0x7ff);
	w[2] = rv_sw(T0, A0, 0);
	w[3] = rv_addi(A7, X0, PPU_ECALL_OP_EXIT);
	w[4] = RV_ECALL;
	return 5;
}

/* Loads *a0 (an unmapped address): the load faults, EXIT is never reached. */
static uint32_t kernel_load(uint32_t *w)
{
	w[0] = rv_lw(T0, A0, 0);
	w[1] = rv_addi(A7, X0, PPU_ECALL_OP_EXIT);
	w[2] = RV_ECALL;
	return 3;
}

/* Spins until *a0 != 0, then writes it back at a0 + 4 and exits. */
static uint32_t kernel_spin(uint32_t *w)
{
	w[0] = rv_lw(T0, A0, 0);
	w[1] = rv_beq(T0, X0, -4);
	w[2] = rv_sw(T0, A0, 4);
	w[3] = rv_addi(A7, X0, PPU_ECALL_OP_EXIT);
	w[4] = RV_ECALL;
	return 5;
}

/* ---- helpers ---- */

static int have_compute(void)
{
	return !!(ppu_param(DRM_PPU_PARAM_FEATURES) & DRM_PPU_FEATURE_COMPUTE_ENGINE);
}

/* Tests that need compute units fail (not skip) without them. */
static void require_compute(void)
{
	ck_assert_msg(have_compute(),
		      "the device has no compute engine (NUM_CU %" PRIu64 ", FEATURES %#"
		      PRIx64 ")", ppu_param(DRM_PPU_PARAM_NUM_CU),
		      ppu_param(DRM_PPU_PARAM_FEATURES));
}

static void cchan_new_on(int fd, struct ppu_tchan *ch)
{
	int ret = ppu_tchan_new_prio(fd, ch, 4, DRM_PPU_CHAN_CREATE_COMPUTE, 0);

	ck_assert_msg(ret == 0, "compute CHAN_CREATE: %s", strerror(-ret));
}

static void cchan_new(struct ppu_tchan *ch)
{
	cchan_new_on(ppu_fd, ch);
}

/*
 * One launch: code, TMD and its task block, parameters, the pushbuffer
 * (LAUNCH, WFI, release of pb_sem) and the TMD's completion semaphore, all
 * in one BO:
 *   0x000 code  0x100 TMD  0x180 semaphores (TMD at +0, pushbuffer at +16)
 *   0x200 pushbuffer  0x400 task block (one slot, one thread)
 *   0x1000 parameters (second page)
 */
struct job {
	struct ppu_tbo bo;
	uint32_t code_va, tmd_va, block_va, pb_va, param_va;
	volatile uint32_t *tmd_sem, *pb_sem, *param;
	uint32_t pb_len;
};

#define JOB_CODE 0x000
#define JOB_TMD 0x100
#define JOB_SEM 0x180
#define JOB_PB 0x200
#define JOB_BLOCK 0x400
#define JOB_PARAM 0x1000
#define TMD_SEM_VALUE 0x7d0c0de
#define PB_SEM_VALUE 0xfeed

/* On file @fd; @param 0: the job's own parameter page, else that address. */
static void job_new_on(int fd, struct job *j, uint32_t (*kernel)(uint32_t *), uint32_t param,
		       uint32_t prio)
{
	uint32_t block_bytes = PPU_TASK_BLOCK_HEADER_BYTES + PPU_THREAD_RECORD_BYTES;
	struct ppu_tmd_desc d;
	struct ppu_pb b;

	memset(j, 0, sizeof(*j));
	ppu_tbo_new(fd, &j->bo, 2 * PG);
	j->code_va = j->bo.va + JOB_CODE;
	j->tmd_va = j->bo.va + JOB_TMD;
	j->block_va = j->bo.va + JOB_BLOCK;
	j->pb_va = j->bo.va + JOB_PB;
	j->param_va = param ? param : j->bo.va + JOB_PARAM;
	j->tmd_sem = (volatile uint32_t *)(j->bo.map + JOB_SEM);
	j->pb_sem = (volatile uint32_t *)(j->bo.map + JOB_SEM + 16);
	j->param = (volatile uint32_t *)(j->bo.map + JOB_PARAM);
	ck_assert_uint_le(block_bytes, JOB_PARAM - JOB_BLOCK);

	kernel((uint32_t *)(j->bo.map + JOB_CODE));

	memset(&d, 0, sizeof(d));
	d.entry_pc = j->code_va;
	d.grid[0] = d.grid[1] = d.grid[2] = 1;
	d.cta[0] = d.cta[1] = d.cta[2] = 1;
	d.param = j->param_va;
	d.prio = prio;
	d.flags = PPU_FMASK(PPU_TMD_FLAGS_SEM_RELEASE) | PPU_FMASK(PPU_TMD_FLAGS_ICACHE_INVALIDATE);
	d.sem_addr = j->bo.va + JOB_SEM;
	d.sem_payload = TMD_SEM_VALUE;
	d.stack_bytes = 0;
	d.save_ctas = 1;
	d.block_bytes = block_bytes;
	d.block_va = j->block_va;
	ppu_tmd_fill((uint32_t *)(j->bo.map + JOB_TMD), &d);

	ppu_pb_init(&b, (uint32_t *)(j->bo.map + JOB_PB), (JOB_BLOCK - JOB_PB) / 4);
	ppu_pb_launch(&b, j->tmd_va);
	ppu_pb_method(&b, PPU_HOST_WFI, 0);
	ppu_pb_sem_release(&b, j->bo.va + JOB_SEM + 16, PB_SEM_VALUE);
	ck_assert(!b.overflow);
	j->pb_len = b.len;
	__sync_synchronize();
}

static void job_new(struct job *j, uint32_t (*kernel)(uint32_t *), uint32_t param, uint32_t prio)
{
	job_new_on(ppu_fd, j, kernel, param, prio);
}

static void job_submit(struct job *j, struct ppu_tchan *ch)
{
	ppu_tchan_submit(ch, j->pb_va, j->pb_len);
}

/* No fault on the channel so far: else fail with the fault. */
static void check_alive(struct ppu_tchan *ch)
{
	struct drm_ppu_chan_status st;

	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch->chid, 0, &st), 0);
	ck_assert_msg(st.state != DRM_PPU_CHAN_STATE_FAULTED,
		      "channel %u faulted: unit %u kind %u access %u addr %#x data %#x",
		      ch->chid, DRM_PPU_FAULT_INFO_UNIT(st.fault_info),
		      DRM_PPU_FAULT_INFO_KIND(st.fault_info),
		      DRM_PPU_FAULT_INFO_ACCESS(st.fault_info), st.fault_addr, st.fault_data);
}

/* Polls *@sem == @value; fails at once when the channel faults. */
static void wait_sem(struct ppu_tchan *ch, volatile uint32_t *sem, uint32_t value)
{
	double end = ppu_now_s() + WAIT_S;

	while (*sem != value) {
		check_alive(ch);
		ck_assert_msg(ppu_now_s() < end, "semaphore %#x != %#x after %.0f s", *sem,
			      value, WAIT_S);
		usleep(2000);
	}
}

/* Polls CHAN_STATUS until the channel is FAULTED; returns the status. */
static struct drm_ppu_chan_status wait_faulted(struct ppu_tchan *ch)
{
	struct drm_ppu_chan_status st;
	double end = ppu_now_s() + WAIT_S;

	for (;;) {
		ck_assert_int_eq(ppu_chan_status(ppu_fd, ch->chid, 0, &st), 0);
		if (st.state == DRM_PPU_CHAN_STATE_FAULTED || ppu_now_s() > end)
			break;
		usleep(2000);
	}
	ck_assert_msg(st.state == DRM_PPU_CHAN_STATE_FAULTED, "channel %u state %u, not faulted",
		      ch->chid, st.state);
	return st;
}

/* Lines of a debugfs table after its header. */
static int table_rows(const char *text)
{
	const char *p = strchr(text, '\n');
	int n = 0;

	ck_assert_msg(p, "no header line in:\n%s", text);
	for (p++; *p; p++)
		n += *p == '\n';
	return n;
}

/* The row of a table after the header, 0-based; NULL past the end. */
static const char *table_row(const char *text, int row)
{
	const char *p = strchr(text, '\n');

	while (p && row-- > 0)
		p = strchr(p + 1, '\n');
	return p && p[1] ? p + 1 : NULL;
}

struct task_row {
	unsigned int tid, chid, prio, depth;
	char state[16], slot[16], next_cta[16], exited[16], parent[16];
	unsigned int tmd_va, kids;
};

static int parse_task_row(const char *line, struct task_row *t)
{
	return sscanf(line, "%u %15s %u %u %u %15s %15s %15s %x %15s %u", &t->tid, t->state,
		      &t->chid, &t->prio, &t->depth, t->slot, t->next_cta, t->exited,
		      &t->tmd_va, t->parent, &t->kids) == 11;
}

struct cu_row {
	unsigned int cu, ctx;
	char state[16], tslot[16], thread[16], pc[16], cta[16];
};

static int parse_cu_row(const char *line, struct cu_row *c)
{
	return sscanf(line, "%u %u %15s %15s %15s %15s %15s", &c->cu, &c->ctx, c->state,
		      c->tslot, c->thread, c->pc, c->cta) == 7;
}

/* tasks: the header, then only well-formed rows of valid, distinct ids. */
static int check_tasks_table(const char *text)
{
	uint64_t ntasks = ppu_param(DRM_PPU_PARAM_NUM_TASKS);
	uint32_t nchan = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_CHANNELS);
	unsigned char seen[256] = { 0 };
	struct task_row t;
	const char *line;
	int rows = table_rows(text), i;

	ck_assert_msg(!strncmp(text, "tid state", 9), "tasks header:\n%s", text);
	for (i = 0; i < rows; i++) {
		line = table_row(text, i);
		ck_assert_msg(line && parse_task_row(line, &t), "tasks row %d:\n%s", i, text);
		ck_assert_msg(t.tid < ntasks && t.tid < sizeof(seen) && !seen[t.tid],
			      "tasks row %d: id %u\n%s", i, t.tid, text);
		seen[t.tid] = 1;
		ck_assert_msg(strcmp(t.state, "free") && strcmp(t.state, "?"),
			      "tasks row %d: state %s\n%s", i, t.state, text);
		ck_assert_uint_lt(t.chid, nchan);
		ck_assert_uint_le(t.prio, DRM_PPU_CHAN_PRIORITY_MAX);
	}
	return rows;
}

/* cu: the header, then one row per (unit, context) in order. */
static void check_cu_table(const char *text)
{
	uint64_t ncu = ppu_param(DRM_PPU_PARAM_NUM_CU);
	uint64_t nctx = ppu_param(DRM_PPU_PARAM_CU_CONTEXTS);
	struct cu_row c;
	uint64_t i;

	ck_assert_msg(!strncmp(text, " cu ctx state", 13), "cu header:\n%s", text);
	if (!have_compute()) {
		ck_assert_msg(table_rows(text) == 0, "cu without compute:\n%s", text);
		return;
	}
	ck_assert_msg((uint64_t)table_rows(text) == ncu * nctx, "cu: %d rows for %" PRIu64
		      " x %" PRIu64 ":\n%s", table_rows(text), ncu, nctx, text);
	for (i = 0; i < ncu * nctx; i++) {
		const char *line = table_row(text, (int)i);

		ck_assert_msg(line && parse_cu_row(line, &c), "cu row %" PRIu64 ":\n%s", i, text);
		ck_assert_msg(c.cu == i / nctx && c.ctx == i % nctx, "cu row %" PRIu64 ":\n%s", i,
			      text);
		ck_assert_msg(strcmp(c.state, "?"), "cu row %" PRIu64 ": state\n%s", i, text);
	}
}

/* ---- tests ---- */

START_TEST(compute_params_are_consistent)
{
	static char regs[8192];
	uint64_t ncu = ppu_param(DRM_PPU_PARAM_NUM_CU);
	uint64_t features = ppu_param(DRM_PPU_PARAM_FEATURES);
	uint64_t ctx = ppu_param(DRM_PPU_PARAM_CU_CONTEXTS);
	uint64_t tasks = ppu_param(DRM_PPU_PARAM_NUM_TASKS);
	uint64_t slots = ppu_param(DRM_PPU_PARAM_NUM_TASK_SLOTS);
	uint64_t prios = ppu_param(DRM_PPU_PARAM_NUM_PRIORITIES);
	uint64_t cta = ppu_param(DRM_PPU_PARAM_MAX_CTA_THREADS);
	uint64_t icache = ppu_param(DRM_PPU_PARAM_ICACHE_BYTES);

	/* Properties of the formats, on every device. */
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_TASK_BLOCK_HEADER_BYTES), 0x280);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_TASK_BLOCK_HEADER_BYTES),
			  PPU_TASK_BLOCK_HEADER_BYTES);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_THREAD_RECORD_BYTES), 128);
	ck_assert_uint_eq(ppu_param(DRM_PPU_PARAM_THREAD_RECORD_BYTES), PPU_THREAD_RECORD_BYTES);

	/* The capabilities as the registers report them. */
	ppu_debugfs_read("regs", regs, sizeof(regs));
	ck_assert_uint_eq(ctx, ppu_debugfs_value(regs, "CAP_CU_CONTEXTS"));
	ck_assert_uint_eq(tasks, ppu_debugfs_value(regs, "CAP_NUM_TASKS"));
	ck_assert_uint_eq(cta, ppu_debugfs_value(regs, "CAP_MAX_CTA_THREADS"));
	ck_assert_uint_eq(icache, ppu_debugfs_value(regs, "CAP_ICACHE_BYTES"));
	ck_assert_uint_eq(ncu, ppu_debugfs_value(regs, "CAP_NUM_CU"));
	ck_assert_uint_eq(slots, ppu_debugfs_value(regs, "CAP_NUM_TASK_SLOTS"));
	ck_assert_uint_eq(prios, ppu_debugfs_value(regs, "CAP_NUM_PRIORITIES"));

	if (!(features & DRM_PPU_FEATURE_COMPUTE_ENGINE)) {
		/* Without the engine (a model without compute): nothing of it. */
		ck_assert_uint_eq(ncu, 0);
		ck_assert_uint_eq(ctx, 0);
		ck_assert_uint_eq(tasks, 0);
		ck_assert_uint_eq(cta, 0);
		ck_assert_uint_eq(icache, 0);
		ck_assert_uint_eq(slots, 0);
		return;
	}
	ck_assert_uint_ge(ncu, 1);
	ck_assert_uint_ge(ctx, 1);
	ck_assert_uint_ge(tasks, 1);
	ck_assert_uint_ge(slots, 1);
	ck_assert_uint_le(slots, tasks);
	ck_assert_uint_eq(prios, DRM_PPU_CHAN_PRIORITY_MAX + 1);
	ck_assert_uint_ge(cta, 1);
	ck_assert_uint_le(cta, PPU_MAX_CTA_THREADS);
	ck_assert_uint_gt(icache, 0);
	ck_assert_msg(!(icache & (icache - 1)), "ICACHE_BYTES %" PRIu64 " not a power of two",
		      icache);
}
END_TEST

START_TEST(compute_channel_create_and_destroy)
{
	static char text[8192];
	struct drm_ppu_chan_status st;
	struct drm_ppu_chan_create c;
	struct ppu_tchan ch;
	char needle[64];

	require_compute();
	cchan_new(&ch);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_UNBOUND);
	ck_assert_uint_eq(st.fault_info, 0);
	ppu_debugfs_read("channels", text, sizeof(text));
	ck_assert_msg(strstr(text, "engine"), "channels header:\n%s", text);
	ck_assert_msg(strstr(text, " compute "), "no compute channel in:\n%s", text);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), 0);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), -ENOENT);

	/* The compute fields reach the hardware's range; the id is reused. */
	memset(&c, 0, sizeof(c));
	c.flags = DRM_PPU_CHAN_CREATE_COMPUTE | DRM_PPU_CHAN_CREATE_PRIORITY;
	c.log2_entries = 4;
	c.gpfifo_va = ch.ring.va;
	c.priority = 20;
	c.prio_min = 5;
	c.max_depth = 8;
	ck_assert_int_eq(ppu_ioctl(ppu_fd, DRM_IOCTL_PPU_CHAN_CREATE, &c), 0);
	ppu_debugfs_read("channels", text, sizeof(text));
	snprintf(needle, sizeof(needle), "%4u ", c.chid);
	ck_assert_msg(strstr(text, needle) && strstr(text, "   20 "), "channels:\n%s", text);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, c.chid, 0), 0);
	/* A copy channel on the same device is listed as one. */
	ppu_tchan_new(ppu_fd, &ch, 4);
	ppu_debugfs_read("channels", text, sizeof(text));
	ck_assert_msg(strstr(text, " copy "), "no copy channel in:\n%s", text);
}
END_TEST

/* Meaningful with and without compute: the no-compute form is the header only. */
/* debugfs task_ctrl: the task table's policy switches, read back; other bits refused. */
START_TEST(compute_debugfs_task_ctrl)
{
	static char big[8192];
	char buf[64];

	ck_assert(have_compute());
	ppu_debugfs_read("task_ctrl", buf, sizeof(buf));
	ck_assert_uint_eq(strtoul(buf, NULL, 0), 0);
	ck_assert_int_eq(ppu_debugfs_write("task_ctrl", "3"), 0);
	ppu_debugfs_read("task_ctrl", buf, sizeof(buf));
	ck_assert_uint_eq(strtoul(buf, NULL, 0), 3);
	ppu_debugfs_read("regs", big, sizeof(big));
	ck_assert_uint_eq(ppu_debugfs_value(big, "TASK_CTRL"), 3);
	ck_assert_int_eq(ppu_debugfs_write("task_ctrl", "4"), -EINVAL);
	ppu_debugfs_read("task_ctrl", buf, sizeof(buf));
	ck_assert_uint_eq(strtoul(buf, NULL, 0), 3);
	ck_assert_int_eq(ppu_debugfs_write("task_ctrl", "0"), 0);
	ppu_debugfs_read("task_ctrl", buf, sizeof(buf));
	ck_assert_uint_eq(strtoul(buf, NULL, 0), 0);
}
END_TEST

START_TEST(compute_debugfs_tasks_and_cu_are_well_formed)
{
	static char text[16384];
	struct cu_row c;
	int i, rows;

	ppu_debugfs_read("tasks", text, sizeof(text));
	rows = check_tasks_table(text);
	/* Nothing of this test's runs: an idle device holds no task. */
	ck_assert_msg(rows == 0, "tasks on an idle device:\n%s", text);
	ppu_debugfs_read("cu", text, sizeof(text));
	check_cu_table(text);
	for (i = 0; i < table_rows(text); i++) {
		ck_assert(parse_cu_row(table_row(text, i), &c));
		ck_assert_msg(!strcmp(c.state, "free"), "cu row %d on an idle device:\n%s", i,
			      text);
	}
	/* The perf counters of the compute side are listed by name. */
	ppu_debugfs_read("counters", text, sizeof(text));
	ppu_debugfs_value(text, "HOST_LAUNCHES");
	ppu_debugfs_value(text, "TASKS_COMPLETED");
	ppu_debugfs_value(text, "CU_INSTRET");
	ppu_debugfs_value(text, "AMOS");
}
END_TEST

/* A compute channel on a device without compute units is refused. */
START_TEST(compute_channel_needs_the_engine)
{
	struct ppu_tchan ch;
	int ret = ppu_tchan_new_prio(ppu_fd, &ch, 4, DRM_PPU_CHAN_CREATE_COMPUTE, 0);

	if (have_compute()) {
		ck_assert_int_eq(ret, 0);
		ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), 0);
	} else {
		ck_assert_int_eq(ret, -ENODEV);
	}
}
END_TEST

START_TEST(compute_kernel_stores_and_exits)
{
	static char text[8192];
	uint64_t launches, completed;
	struct drm_ppu_chan_status st;
	struct ppu_tchan ch;
	struct job j;

	require_compute();
	ppu_debugfs_read("counters", text, sizeof(text));
	launches = ppu_debugfs_value(text, "HOST_LAUNCHES");
	completed = ppu_debugfs_value(text, "TASKS_COMPLETED");

	job_new(&j, kernel_store, 0, 20);
	cchan_new(&ch);
	job_submit(&j, &ch);
	/* The release after WFI comes after the kernel has completed. */
	wait_sem(&ch, j.pb_sem, PB_SEM_VALUE);
	ck_assert_uint_eq(*j.param, STORE_VALUE);
	ck_assert_uint_eq(*j.tmd_sem, TMD_SEM_VALUE);
	ck_assert(ppu_wait_u32(&ch.userd[DRM_PPU_USERD_GP_GET / 4], 1, WAIT_S));
	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), 0);
	ck_assert_uint_ne(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	ck_assert_uint_eq(st.fault_info, 0);

	ppu_debugfs_read("counters", text, sizeof(text));
	ck_assert_uint_ge(ppu_debugfs_value(text, "HOST_LAUNCHES"), launches + 1);
	ck_assert_uint_ge(ppu_debugfs_value(text, "TASKS_COMPLETED"), completed + 1);
	/* Completed: the task table holds nothing any more. */
	ppu_debugfs_read("tasks", text, sizeof(text));
	ck_assert_msg(check_tasks_table(text) == 0, "tasks after completion:\n%s", text);

	/* The same channel launches again. */
	*j.param = 0;
	*j.pb_sem = 0;
	*j.tmd_sem = 0;
	__sync_synchronize();
	job_submit(&j, &ch);
	wait_sem(&ch, j.pb_sem, PB_SEM_VALUE);
	ck_assert_uint_eq(*j.param, STORE_VALUE);
	ck_assert_uint_eq(*j.tmd_sem, TMD_SEM_VALUE);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), 0);
}
END_TEST

/* A running kernel as debugfs shows it, then released by the CPU. */
START_TEST(compute_running_kernel_in_tasks_and_cu)
{
	static char text[16384];
	struct drm_ppu_chan_status st;
	struct ppu_tchan ch;
	struct task_row t;
	struct cu_row c;
	double end;
	int i, rows, found = 0;
	uint32_t pc;
	struct job j;

	require_compute();
	job_new(&j, kernel_spin, 0, 20);
	j.param[0] = 0;
	j.param[1] = 0;
	__sync_synchronize();
	cchan_new(&ch);
	job_submit(&j, &ch);

	/* The task shows up active, on this channel, at the clamped priority. */
	end = ppu_now_s() + WAIT_S;
	for (;;) {
		ppu_debugfs_read("tasks", text, sizeof(text));
		rows = check_tasks_table(text);
		if (rows == 1 && parse_task_row(table_row(text, 0), &t) &&
		    !strcmp(t.state, "active") && strcmp(t.slot, "-"))
			break;
		check_alive(&ch);
		ck_assert_msg(ppu_now_s() < end, "no active task:\n%s", text);
		usleep(5000);
	}
	ck_assert_uint_eq(t.chid, ch.chid);
	ck_assert_uint_eq(t.prio, 20);
	ck_assert_uint_eq(t.depth, 1);
	ck_assert_uint_eq(t.tmd_va, j.tmd_va);
	ck_assert_str_eq(t.parent, "-");
	ck_assert_uint_eq(t.kids, 0);

	/* The channel itself waits at its WFI, holding one task. */
	end = ppu_now_s() + WAIT_S;
	for (;;) {
		ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), 0);
		if (st.state == DRM_PPU_CHAN_STATE_WFI_WAIT)
			break;
		ck_assert_msg(ppu_now_s() < end, "channel state %u, not WFI_WAIT", st.state);
		usleep(2000);
	}
	ppu_debugfs_read("channels", text, sizeof(text));
	ck_assert_msg(strstr(text, " wfi_wait ") && strstr(text, " compute     1 -\n"),
		      "channels:\n%s", text);

	/* One context of one unit runs its thread inside the loop. */
	end = ppu_now_s() + WAIT_S;
	while (!found) {
		ppu_debugfs_read("cu", text, sizeof(text));
		check_cu_table(text);
		for (i = 0; i < table_rows(text); i++) {
			ck_assert(parse_cu_row(table_row(text, i), &c));
			if (!strcmp(c.state, "free"))
				continue;
			found++;
			ck_assert_msg(sscanf(c.pc, "%x", &pc) == 1, "pc %s", c.pc);
			ck_assert_msg(pc >= j.code_va && pc < j.code_va + 5 * 4 && !(pc & 3),
				      "pc %#x outside the kernel at %#x:\n%s", pc, j.code_va, text);
			ck_assert_str_eq(c.thread, "0");
			ck_assert_str_eq(c.cta, "0");
		}
		ck_assert_msg(found <= 1, "more than one busy context:\n%s", text);
		ck_assert_msg(found || ppu_now_s() < end, "no busy context:\n%s", text);
		if (!found)
			usleep(5000);
	}
	ck_assert_uint_eq(*j.pb_sem, 0);

	/* Let it go: it writes the flag back, completes, and WFI lets the release through. */
	j.param[0] = 0x5a5a;
	__sync_synchronize();
	wait_sem(&ch, j.pb_sem, PB_SEM_VALUE);
	ck_assert_uint_eq(j.param[1], 0x5a5a);
	ck_assert_uint_eq(*j.tmd_sem, TMD_SEM_VALUE);
	ppu_debugfs_read("tasks", text, sizeof(text));
	ck_assert_msg(check_tasks_table(text) == 0, "tasks after completion:\n%s", text);
}
END_TEST

/* Destroying a channel whose kernel never ends kills it. */
START_TEST(compute_destroy_kills_a_running_kernel)
{
	static char text[16384];
	struct ppu_tchan ch, next;
	struct job j, k;
	double end;

	require_compute();
	job_new(&j, kernel_spin, 0, 20);
	cchan_new(&ch);
	job_submit(&j, &ch);
	end = ppu_now_s() + WAIT_S;
	for (;;) {
		ppu_debugfs_read("tasks", text, sizeof(text));
		if (check_tasks_table(text) == 1)
			break;
		check_alive(&ch);
		ck_assert_msg(ppu_now_s() < end, "kernel never started:\n%s", text);
		usleep(5000);
	}
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), 0);
	/* UNBOUND only once the task table holds nothing of the channel. */
	ppu_debugfs_read("tasks", text, sizeof(text));
	ck_assert_msg(check_tasks_table(text) == 0, "tasks after destroy:\n%s", text);
	ppu_debugfs_read("cu", text, sizeof(text));
	ck_assert_msg(!strstr(text, "ready") && !strstr(text, "mem_wait") &&
		      !strstr(text, "pipe") && !strstr(text, "fetch_wait"),
		      "busy contexts after destroy:\n%s", text);
	/* Killed, not completed: no completion semaphore. */
	ck_assert_uint_eq(*j.tmd_sem, 0);
	ck_assert_uint_eq(*j.pb_sem, 0);

	/* The units are free for the next kernel. */
	job_new(&k, kernel_store, 0, 20);
	cchan_new(&next);
	job_submit(&k, &next);
	wait_sem(&next, k.pb_sem, PB_SEM_VALUE);
	ck_assert_uint_eq(*k.param, STORE_VALUE);
}
END_TEST

/*
 * A load from an unmapped address faults its channel (unit COMPUTE) and
 * kills its kernel; a kernel on a second compute channel completes.
 */
START_TEST(compute_fault_kills_only_its_channel)
{
	static char text[8192];
	const uint32_t bad_va = 0x1000;	/* below DRM_PPU_VA_START: never mapped */
	struct drm_ppu_chan_status st;
	struct ppu_tchan bad, good;
	struct job jb, jg;
	struct ppu_tpool p;
	char needle[64];

	require_compute();
	ppu_tpool_new(ppu_fd, &p, 1);
	job_new(&jb, kernel_load, bad_va, 20);
	job_new(&jg, kernel_store, 0, 20);
	cchan_new(&bad);
	cchan_new(&good);
	job_submit(&jb, &bad);

	st = wait_faulted(&bad);
	ck_assert_msg(DRM_PPU_FAULT_INFO_UNIT(st.fault_info) == DRM_PPU_FAULT_UNIT_COMPUTE,
		      "fault_info %#x", st.fault_info);
	ck_assert_msg(DRM_PPU_FAULT_INFO_KIND(st.fault_info) == DRM_PPU_FAULT_PTE_NOT_PRESENT,
		      "fault_info %#x", st.fault_info);
	ck_assert_msg(DRM_PPU_FAULT_INFO_ACCESS(st.fault_info) == DRM_PPU_FAULT_ACCESS_READ,
		      "fault_info %#x", st.fault_info);
	ck_assert_uint_eq(st.fault_addr, bad_va);
	ck_assert_uint_eq(st.fault_data, jb.code_va);	/* the PC of the load */

	/* The channel is dead for the driver: doorbells and waits fail with EIO. */
	ck_assert_int_eq(ppu_doorbell(ppu_fd, bad.chid, 0), -EIO);
	ck_assert_int_eq(ppu_sem_wait(ppu_fd, p.id, 0, 1, DRM_PPU_SEM_WAIT_EQ,
				       ppu_deadline_ns(WAIT_S), DRM_PPU_SEM_WAIT_CHAN, bad.chid),
			 -EIO);
	/* Its kernel was killed: no completion, and WFI never let the release through. */
	ck_assert_uint_eq(*jb.tmd_sem, 0);
	ck_assert_uint_eq(*jb.pb_sem, 0);

	/* The other compute channel works. */
	job_submit(&jg, &good);
	wait_sem(&good, jg.pb_sem, PB_SEM_VALUE);
	ck_assert_uint_eq(*jg.param, STORE_VALUE);
	ck_assert_uint_eq(*jg.tmd_sem, TMD_SEM_VALUE);

	/* The fault log names the unit and the kind. */
	ppu_debugfs_read("faults", text, sizeof(text));
	snprintf(needle, sizeof(needle), " compute   pte_not_present 0x%08x 0x%08x\n", bad_va,
		 jb.code_va);
	ck_assert_msg(strstr(text, needle), "no compute fault in:\n%s", text);

	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, bad.chid, 0), 0);
	ppu_debugfs_read("tasks", text, sizeof(text));
	ck_assert_msg(check_tasks_table(text) == 0, "tasks:\n%s", text);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, good.chid, 0), 0);
}
END_TEST

/* A TMD that breaks a rule (GRID_X 0) faults its channel in unit TASKS. */
START_TEST(compute_invalid_tmd_faults_the_channel)
{
	static char text[8192];
	struct drm_ppu_chan_status st;
	struct ppu_tchan ch;
	char needle[64];
	struct job j;

	require_compute();
	job_new(&j, kernel_store, 0, 20);
	((uint32_t *)(j.bo.map + JOB_TMD))[PPU_TMD_GRID_X / 4] = 0;
	__sync_synchronize();
	cchan_new(&ch);
	job_submit(&j, &ch);
	st = wait_faulted(&ch);
	ck_assert_msg(DRM_PPU_FAULT_INFO_UNIT(st.fault_info) == DRM_PPU_FAULT_UNIT_TASKS &&
		      DRM_PPU_FAULT_INFO_KIND(st.fault_info) == DRM_PPU_FAULT_TMD_INVALID,
		      "fault_info %#x", st.fault_info);
	ck_assert_uint_eq(st.fault_addr, j.tmd_va);
	ck_assert_uint_eq(st.fault_data, PPU_TMD_GRID_X);
	ck_assert_uint_eq(*j.param, 0);
	ppu_debugfs_read("faults", text, sizeof(text));
	snprintf(needle, sizeof(needle), " tasks     tmd_invalid     0x%08x 0x%08x\n", j.tmd_va,
		 (unsigned int)PPU_TMD_GRID_X);
	ck_assert_msg(strstr(text, needle), "no TMD fault in:\n%s", text);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), 0);
}
END_TEST

static void compute_teardown(void)
{
	/* (a failed engine test must not leave the compute engine halted) */
	ppu_debugfs_write("compute_halt", "0");
	ppu_module_params_reset();
	ppu_guest_teardown();
}

static uint64_t compute_resets(void)
{
	static char text[2048];

	ppu_debugfs_read("engine", text, sizeof(text));
	return ppu_debugfs_value(text, "COMPUTE_RESETS");
}

/* Polls the tasks table until it holds @n tasks. */
static void wait_tasks(int n, struct ppu_tchan *ch)
{
	static char text[16384];
	double end = ppu_now_s() + WAIT_S;

	for (;;) {
		ppu_debugfs_read("tasks", text, sizeof(text));
		if (check_tasks_table(text) == n)
			return;
		ck_assert_int_eq(ppu_chan_status(ch->fd, ch->chid, 0, &(struct drm_ppu_chan_status){ 0 }), 0);
		ck_assert_msg(ppu_now_s() < end, "not %d tasks:\n%s", n, text);
		usleep(5000);
	}
}

/*
 * A wedged compute engine (debugfs compute_halt: it makes no memory
 * request, so a spinning kernel's load never returns and a kill never
 * takes its CTA): the channel is stopped by the watchdog (_i = 0) or
 * destroyed by its owner (_i = 1); either way it leaves the PPU only
 * through a reset of the compute engine.  Another file's compute channel
 * that held a task is told (FAULTED, ENGINE_RESET, unit COMPUTE; its
 * waiter gets -EIO, its semaphore is not released); that file's copy
 * channel is untouched; afterwards both files run kernels and copies.
 */
START_TEST(compute_a_wedged_engine_is_reset_and_the_others_are_told)
{
	int fb = ppu_client_open();
	struct ppu_tchan a, b, bc, next;
	struct drm_ppu_chan_status st;
	uint64_t resets0 = compute_resets();
	struct ppu_tbo src, dst;
	struct ppu_tpool pool;
	struct job ja, jb, k;
	struct ppu_tpb tpb;
	struct ppu_pb *pb;
	double t0;

	require_compute();
	job_new(&ja, kernel_spin, 0, 20);
	cchan_new(&a);
	job_submit(&ja, &a);
	job_new_on(fb, &jb, kernel_spin, 0, 20);
	cchan_new_on(fb, &b);
	job_submit(&jb, &b);
	ppu_tchan_new(fb, &bc, 3);
	ppu_tpool_new(fb, &pool, 1);
	ppu_tpb_new(fb, &tpb, 1);
	ppu_tbo_new(fb, &src, 64 << 10);
	ppu_tbo_new(fb, &dst, 64 << 10);
	memset(src.map, 0x5a, 64 << 10);
	wait_tasks(2, &a);
	ck_assert_int_eq(ppu_debugfs_write("compute_halt", "1"), 0);

	t0 = ppu_now_s();
	if (_i == 0) {
		ppu_module_param_set("watchdog_ms", 400);
		st = wait_faulted(&a);
		ck_assert_uint_eq(DRM_PPU_FAULT_INFO_KIND(st.fault_info), DRM_PPU_FAULT_WATCHDOG);
		while (compute_resets() == resets0) {
			ck_assert_msg(ppu_now_s() - t0 < WAIT_S, "no compute reset");
			usleep(20000);
		}
		ppu_module_params_reset();
	} else {
		ck_assert_int_eq(ppu_chan_destroy(ppu_fd, a.chid, 0), 0);
	}
	printf("compute: %s, the compute engine reset %.2f s later\n",
	       _i ? "destroyed" : "stopped", ppu_now_s() - t0);
	ck_assert_uint_eq(compute_resets(), resets0 + 1);
	ck_assert_int_eq(ppu_debugfs_write("compute_halt", "0"), 0);

	/*
	 * The other file's kernel: told, not completed.  (The watchdog sees
	 * it make no progress either and may stop it first.)
	 */
	ck_assert_int_eq(ppu_chan_status(fb, b.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	if (_i == 0 && DRM_PPU_FAULT_INFO_KIND(st.fault_info) == DRM_PPU_FAULT_WATCHDOG) {
		ck_assert_uint_eq(DRM_PPU_FAULT_INFO_UNIT(st.fault_info), DRM_PPU_FAULT_UNIT_DRIVER);
	} else {
		ck_assert_uint_eq(DRM_PPU_FAULT_INFO_KIND(st.fault_info), DRM_PPU_FAULT_ENGINE_RESET);
		ck_assert_uint_eq(DRM_PPU_FAULT_INFO_UNIT(st.fault_info), DRM_PPU_FAULT_UNIT_COMPUTE);
	}
	ck_assert_int_eq(ppu_doorbell(fb, b.chid, 0), -EIO);
	ck_assert_uint_eq(*jb.tmd_sem, 0);
	ck_assert_uint_eq(*jb.pb_sem, 0);
	ck_assert_uint_eq(*ja.tmd_sem, 0);

	/* its copy channel was never touched */
	ck_assert_int_eq(ppu_chan_status(fb, bc.chid, 0, &st), 0);
	ck_assert_uint_eq(st.fault_info, 0);
	pb = ppu_tpb_begin(&tpb);
	ppu_pb_copy(pb, src.va, dst.va, 64 << 10, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    ppu_tpool_va(&pool, 0), 1, 0);
	ppu_tpb_submit(&tpb, &bc);
	ppu_tchan_wait_sem(&bc, ppu_tpool_sem(&pool, 0), 1, WAIT_S);
	ck_assert_int_eq(memcmp(src.map, dst.map, 64 << 10), 0);

	/* the engine runs kernels again */
	job_new(&k, kernel_store, 0, 20);
	cchan_new(&next);
	job_submit(&k, &next);
	wait_sem(&next, k.pb_sem, PB_SEM_VALUE);
	ck_assert_uint_eq(*k.param, STORE_VALUE);
	if (_i == 0)
		ck_assert_int_eq(ppu_chan_destroy(ppu_fd, a.chid, 0), 0);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, next.chid, 0), 0);
	close(fb);
}
END_TEST

static Suite *compute_suite(void)
{
	Suite *s = suite_create("compute");
	TCase *tc = tcase_create("compute");

	tcase_add_checked_fixture(tc, ppu_guest_setup, compute_teardown);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, compute_params_are_consistent);
	tcase_add_test(tc, compute_debugfs_tasks_and_cu_are_well_formed);
	tcase_add_test(tc, compute_debugfs_task_ctrl);
	tcase_add_test(tc, compute_channel_needs_the_engine);
	tcase_add_test(tc, compute_channel_create_and_destroy);
	tcase_add_test(tc, compute_kernel_stores_and_exits);
	tcase_add_test(tc, compute_running_kernel_in_tasks_and_cu);
	tcase_add_test(tc, compute_destroy_kills_a_running_kernel);
	tcase_add_test(tc, compute_fault_kills_only_its_channel);
	tcase_add_test(tc, compute_invalid_tmd_faults_the_channel);
	tcase_add_loop_test(tc, compute_a_wedged_engine_is_reset_and_the_others_are_told, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(compute_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
