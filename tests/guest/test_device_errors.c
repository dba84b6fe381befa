// SPDX-License-Identifier: MIT
/*
 * Device errors and surprise removal, run inside the co-simulation guest.
 * The co-simulated PCI function has an error injection BAR (BAR2,
 * hw/sim/cosim/ppu_inject.h) that this program maps through sysfs
 * (resource2) and drives at run time:
 *
 * - memory bus errors on a page of system memory (reads) or of local memory
 *   (writes): the copy that hits them faults its channel only (BUS_ERROR,
 *   its owner's SEM_WAIT sees -EIO), another client's copy completes
 *   intact, and once the injection is cleared the owner's new channel works;
 * - dropped interrupts: a SEM_WAIT on a release made while every interrupt
 *   is dropped still returns 0, a channel fault still reaches its waiter,
 *   and interrupts work again afterwards;
 * - a PCIe link loss (BAR reads all ones, writes dropped) and a vanished
 *   device (the same, and the model stops): ioctls fail with -ENODEV, a
 *   waiter is woken with -ENODEV, unbinding the driver is quick, and after
 *   the injection is cleared a rebind (or a PCI remove + rescan) gives a
 *   working device again.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <dirent.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_work.h"
#include "ppu_inject.h"

#define PG PPU_TPAGE
#define KIB 1024u
#define WAIT_S 10.0
#define SENTINEL 0xee
/* How long a waiter may take to notice a lost interrupt or a lost device. */
#define BOUND_S 3.0

/* ---- the injection BAR ---- */

static volatile uint32_t *inj;
static char bdf[PATH_MAX];

static void inj_map(void)
{
	char path[PATH_MAX + 64];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource%d", bdf,
		 PPU_INJECT_BAR);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	p = mmap(NULL, PPU_INJECT_BAR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ck_assert_msg(p != MAP_FAILED, "mmap %s: %s", path, strerror(errno));
	close(fd);
	inj = p;
	ck_assert_uint_eq(inj[PPU_INJECT_MAGIC / 4], PPU_INJECT_MAGIC_VALUE);
}

static void inj_unmap(void)
{
	if (inj)
		munmap((void *)inj, PPU_INJECT_BAR_SIZE);
	inj = NULL;
}

static uint32_t inj_rd(uint32_t off)
{
	return inj[off / 4];
}

static void inj_wr(uint32_t off, uint32_t v)
{
	inj[off / 4] = v;
}

static void inj_window(unsigned int i, uint32_t ctrl, uint64_t base, uint64_t size)
{
	inj_wr(PPU_INJECT_MEM(i, PPU_INJECT_MEM_CTRL), 0);
	inj_wr(PPU_INJECT_MEM(i, PPU_INJECT_MEM_BASE_LO), (uint32_t)base);
	inj_wr(PPU_INJECT_MEM(i, PPU_INJECT_MEM_BASE_HI), (uint32_t)(base >> 32));
	inj_wr(PPU_INJECT_MEM(i, PPU_INJECT_MEM_SIZE_LO), (uint32_t)size);
	inj_wr(PPU_INJECT_MEM(i, PPU_INJECT_MEM_SIZE_HI), (uint32_t)(size >> 32));
	inj_wr(PPU_INJECT_MEM(i, PPU_INJECT_MEM_HITS), 0);
	inj_wr(PPU_INJECT_MEM(i, PPU_INJECT_MEM_CTRL), ctrl);
}

/* Everything off (unchecked: also the teardown of a failed test). */
static void inj_clear(void)
{
	unsigned int i;

	if (!inj)
		return;
	for (i = 0; i < PPU_INJECT_MEM_WINDOWS; i++)
		inj_wr(PPU_INJECT_MEM(i, PPU_INJECT_MEM_CTRL), 0);
	inj_wr(PPU_INJECT_IRQ_DROP, 0);
	inj_wr(PPU_INJECT_IRQ_DROP_MS, 0);
	inj_wr(PPU_INJECT_LINK, PPU_INJECT_LINK_UP);
}

static void setup(void)
{
	ppu_guest_setup();
	inj_map();
	inj_clear();
}

static void teardown(void)
{
	inj_clear();
	inj_unmap();
	ppu_guest_teardown();
}

/* ---- work helpers ---- */

static void fill_pattern(uint8_t *p, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)((i * 131u) ^ (i >> 9) ^ (seed * 29u + 1));
}

static void check_pattern(const uint8_t *p, size_t len, uint32_t seed, const char *what)
{
	size_t i;

	for (i = 0; i < len; i++) {
		uint8_t want = (uint8_t)((i * 131u) ^ (i >> 9) ^ (seed * 29u + 1));

		if (p[i] != want)
			ck_abort_msg("%s[%zu] = %#x, want %#x", what, i, p[i], want);
	}
}

static int sem_wait_chan(int fd, uint32_t pool, uint32_t index, uint32_t value, uint32_t chid,
			 double timeout_s)
{
	return ppu_sem_wait(fd, pool, index, value, DRM_PPU_SEM_WAIT_GEQ,
			    ppu_deadline_ns(timeout_s), DRM_PPU_SEM_WAIT_CHAN, chid);
}

/* A pushbuffer BO handed out in slots. */
/* Copy @src -> @dst on @ch, release @value into semaphore @index, interrupt. */
static void submit_copy(struct ppu_tchan *ch, struct ppu_tpb *pb, struct ppu_tpool *pool,
			uint32_t index, uint32_t value, uint32_t src, uint32_t dst, uint32_t len)
{
	struct ppu_pb *b = ppu_tpb_begin(pb);

	ppu_pb_copy(b, src, dst, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	ppu_pb_sem_release(b, ppu_tpool_va(pool, index), value);
	ppu_pb_nonstall(b);
	ppu_tpb_submit(pb, ch);
}

static void copy_ok(struct ppu_tchan *ch, struct ppu_tpb *pb, struct ppu_tpool *pool,
		    uint32_t index, uint32_t value, uint32_t src, uint32_t dst, uint32_t len)
{
	struct drm_ppu_chan_status st;
	int ret;

	submit_copy(ch, pb, pool, index, value, src, dst, len);
	ret = sem_wait_chan(ch->fd, pool->id, index, value, ch->chid, WAIT_S);
	if (ret) {
		ck_assert_int_eq(ppu_chan_status(ch->fd, ch->chid, 0, &st), 0);
		ck_abort_msg("copy on channel %u: SEM_WAIT %s; state %u fault_info %#x addr %#x",
			     ch->chid, strerror(-ret), st.state, st.fault_info, st.fault_addr);
	}
}

/*
 * Guest-physical (= DMA) address of the page at @p of a BO: the page is
 * tagged with a unique pattern that the device process looks for in guest
 * RAM (GEM mappings are PFN maps, which /proc/self/pagemap does not show).
 */
static uint64_t phys_of(uint8_t *p)
{
	uint64_t tag = 0x5050000000000000ull ^ ((uint64_t)getpid() << 24) ^
		       (uint64_t)(uintptr_t)p, found;
	uint8_t save[8];

	memcpy(save, p, sizeof(save));
	memcpy(p, &tag, sizeof(tag));
	__sync_synchronize();
	inj_wr(PPU_INJECT_FIND_LO, (uint32_t)tag);
	inj_wr(PPU_INJECT_FIND_HI, (uint32_t)(tag >> 32));
	found = inj_rd(PPU_INJECT_FOUND_LO) | (uint64_t)inj_rd(PPU_INJECT_FOUND_HI) << 32;
	memcpy(p, save, sizeof(save));
	ck_assert_msg(found != UINT64_MAX, "page at %p not found in guest RAM", (void *)p);
	return found;
}

/* Local address of the one used range in debugfs local_mem that is new. */
static unsigned int lmem_ranges(uint64_t *start, unsigned int max)
{
	static char buf[65536];
	unsigned long long s, e, n;
	const char *line = buf;
	char word[16];
	unsigned int count = 0;

	ppu_debugfs_read("local_mem", buf, sizeof(buf));
	while (line && *line) {
		if (sscanf(line, "%llx-%llx: %llu: %15s", &s, &e, &n, word) == 4 &&
		    !strcmp(word, "used") && count < max)
			start[count++] = s;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return count;
}

static uint64_t lmem_new_start(const uint64_t *before, unsigned int nb)
{
	uint64_t after[256], found = UINT64_MAX;
	unsigned int na = lmem_ranges(after, 256), i, j, n = 0;

	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && before[j] != after[i]; j++)
			;
		if (j == nb) {
			found = after[i];
			n++;
		}
	}
	ck_assert_msg(n == 1, "%u new local ranges, want 1", n);
	return found;
}

/*
 * One memory error: a copy of client A hits the injected window and faults
 * A's channel only (kind BUS_ERROR, unit @unit); client B's copy completes;
 * cleared, A's new channel copies the same buffers.
 */
static void mem_error_case(int local_dst)
{
	const uint32_t len = 16 * KIB;
	uint64_t before[256], at;
	unsigned int nb;
	struct ppu_tbo a_src, a_dst, b_src, b_dst;
	struct ppu_tchan a_ch, a_ch2, b_ch;
	struct ppu_tpool a_pool, b_pool;
	struct drm_ppu_chan_status st;
	struct ppu_tpb a_pb, b_pb;
	int fa = ppu_fd, fb = ppu_client_open(), ret;
	uint32_t unit, access, ctrl;

	if (local_dst && !ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE)) {
		close(fb);
		return;
	}
	ppu_tpb_new(fa, &a_pb, 4);
	ppu_tpool_new(fa, &a_pool, 8);
	ppu_tbo_new(fa, &a_src, len);
	fill_pattern(a_src.map, len, 1);
	nb = lmem_ranges(before, 256);
	ppu_tbo_new_flags(fa, &a_dst, len, local_dst ? DRM_PPU_GEM_CREATE_LOCAL : 0);
	ppu_tchan_new(fa, &a_ch, 4);

	ppu_tpb_new(fb, &b_pb, 4);
	ppu_tpool_new(fb, &b_pool, 8);
	ppu_tbo_new(fb, &b_src, len);
	fill_pattern(b_src.map, len, 2);
	ppu_tbo_new(fb, &b_dst, len);
	memset(b_dst.map, SENTINEL, len);
	ppu_tchan_new(fb, &b_ch, 4);

	if (local_dst) {
		/* writes to A's local destination fail (its second page) */
		at = lmem_new_start(before, nb) + PG;
		ctrl = PPU_INJECT_MEM_CTRL_ENABLE | PPU_INJECT_MEM_CTRL_WRITE |
		       PPU_INJECT_MEM_CTRL_SLVERR;
		unit = DRM_PPU_FAULT_UNIT_COPY_DST;
		access = DRM_PPU_FAULT_ACCESS_WRITE;
	} else {
		/* reads of A's source in system memory fail (its third page) */
		at = phys_of(a_src.map + 2 * PG);
		ctrl = PPU_INJECT_MEM_CTRL_ENABLE | PPU_INJECT_MEM_CTRL_SYS |
		       PPU_INJECT_MEM_CTRL_READ;
		unit = DRM_PPU_FAULT_UNIT_COPY_SRC;
		access = DRM_PPU_FAULT_ACCESS_READ;
	}
	inj_window(0, ctrl, at, PG);

	submit_copy(&a_ch, &a_pb, &a_pool, 0, 1, a_src.va, a_dst.va, len);
	copy_ok(&b_ch, &b_pb, &b_pool, 0, 1, b_src.va, b_dst.va, len);
	ret = sem_wait_chan(fa, a_pool.id, 0, 1, a_ch.chid, WAIT_S);
	ck_assert_msg(ret == -EIO, "A's SEM_WAIT: %s, want EIO", strerror(-ret));
	ck_assert_uint_gt(inj_rd(PPU_INJECT_MEM(0, PPU_INJECT_MEM_HITS)), 0);
	ck_assert_int_eq(ppu_chan_status(fa, a_ch.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	ck_assert_msg(DRM_PPU_FAULT_INFO_KIND(st.fault_info) == DRM_PPU_FAULT_BUS_ERROR &&
		      DRM_PPU_FAULT_INFO_UNIT(st.fault_info) == unit &&
		      DRM_PPU_FAULT_INFO_ACCESS(st.fault_info) == access,
		      "fault_info %#x addr %#x: want BUS_ERROR unit %u access %u", st.fault_info,
		      st.fault_addr, unit, access);
	ck_assert_int_eq(ppu_doorbell(fa, a_ch.chid, 0), -EIO);
	ck_assert_uint_eq(*ppu_tpool_sem(&a_pool, 0), 0);

	/* B is untouched. */
	check_pattern(b_dst.map, len, 2, "B dst");
	ck_assert_int_eq(ppu_chan_status(fb, b_ch.chid, 0, &st), 0);
	ck_assert_uint_ne(st.state, DRM_PPU_CHAN_STATE_FAULTED);

	/* Cleared: A's channel is recreated and the same copy works. */
	inj_clear();
	ck_assert_int_eq(ppu_chan_destroy(fa, a_ch.chid, 0), 0);
	ppu_tchan_new(fa, &a_ch2, 4);
	copy_ok(&a_ch2, &a_pb, &a_pool, 1, 1, a_src.va, a_dst.va, len);
	if (!local_dst)
		check_pattern(a_dst.map, len, 1, "A dst");
	ck_assert_int_eq(close(fb), 0);
}

START_TEST(mem_error_sys_read_faults_only_its_channel)
{
	mem_error_case(0);
}
END_TEST

START_TEST(mem_error_local_write_faults_only_its_channel)
{
	mem_error_case(1);
}
END_TEST

/* ---- dropped interrupts ---- */

struct waiter {
	int fd;
	uint32_t pool, index, value, chid;
	double timeout_s;
	int ret;
	double done_s;
};

static void *waiter_run(void *arg)
{
	struct waiter *w = arg;

	w->ret = sem_wait_chan(w->fd, w->pool, w->index, w->value, w->chid, w->timeout_s);
	w->done_s = ppu_now_s();
	return NULL;
}

START_TEST(dropped_interrupts_do_not_strand_waiters)
{
	const uint32_t len = 8 * KIB;
	struct ppu_tbo src, dst;
	struct ppu_tchan ch, ch_bad;
	struct ppu_tpool pool;
	struct ppu_tpb pb;
	struct ppu_pb *b;
	struct waiter w;
	pthread_t thr;
	double t0, took;
	uint32_t dropped0 = inj_rd(PPU_INJECT_IRQ_DROPPED);
	int ret;

	ppu_tpb_new(ppu_fd, &pb, 4);
	ppu_tpool_new(ppu_fd, &pool, 8);
	ppu_tbo_new(ppu_fd, &src, len);
	fill_pattern(src.map, len, 3);
	ppu_tbo_new(ppu_fd, &dst, len);
	memset(dst.map, SENTINEL, len);
	ppu_tchan_new(ppu_fd, &ch, 4);
	ppu_tchan_new(ppu_fd, &ch_bad, 4);

	/*
	 * Every interrupt is lost for a while: a release made while the waiter
	 * sleeps still wakes it.  The channel holds the copy behind an acquire
	 * that the CPU satisfies once the waiter is asleep.
	 */
	inj_wr(PPU_INJECT_IRQ_DROP_MS, 20000);
	b = ppu_tpb_begin(&pb);
	ppu_pb_sem_acquire(b, ppu_tpool_va(&pool, 7), 1);
	ppu_pb_copy(b, src.va, dst.va, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	ppu_pb_sem_release(b, ppu_tpool_va(&pool, 0), 1);
	ppu_pb_nonstall(b);
	ppu_tpb_submit(&pb, &ch);
	memset(&w, 0, sizeof(w));
	w.fd = ppu_fd;
	w.pool = pool.id;
	w.index = 0;
	w.value = 1;
	w.chid = ch.chid;
	w.timeout_s = WAIT_S;
	ck_assert_int_eq(pthread_create(&thr, NULL, waiter_run, &w), 0);
	usleep(300 * 1000);
	ck_assert_uint_eq(*ppu_tpool_sem(&pool, 0), 0);
	t0 = ppu_now_s();
	*ppu_tpool_sem(&pool, 7) = 1;
	ck_assert_int_eq(pthread_join(thr, NULL), 0);
	took = w.done_s - t0;
	ck_assert_msg(w.ret == 0, "SEM_WAIT with interrupts dropped: %s after %.2f s",
		      strerror(-w.ret), took);
	ck_assert_msg(took < BOUND_S, "SEM_WAIT woken %.2f s after the release, interrupts dropped",
		      took);
	ck_assert_uint_gt(inj_rd(PPU_INJECT_IRQ_DROPPED), dropped0);
	check_pattern(dst.map, len, 3, "dst");

	/* A channel fault still reaches the waiter tied to the channel. */
	b = ppu_tpb_begin(&pb);
	ppu_pb_method(b, 0x0fc, 0xdead);
	ppu_pb_sem_release(b, ppu_tpool_va(&pool, 1), 1);
	ppu_pb_nonstall(b);
	t0 = ppu_now_s();
	ppu_tpb_submit(&pb, &ch_bad);
	ret = sem_wait_chan(ppu_fd, pool.id, 1, 1, ch_bad.chid, WAIT_S);
	took = ppu_now_s() - t0;
	ck_assert_msg(ret == -EIO, "SEM_WAIT on a faulting channel, interrupts dropped: %s",
		      strerror(-ret));
	ck_assert_msg(took < BOUND_S, "fault seen after %.2f s with interrupts dropped", took);

	/* A counted drop (the next 3 messages), then interrupts flow again. */
	inj_wr(PPU_INJECT_IRQ_DROP_MS, 0);
	inj_wr(PPU_INJECT_IRQ_DROP, 3);
	copy_ok(&ch, &pb, &pool, 2, 1, src.va, dst.va, len);
	copy_ok(&ch, &pb, &pool, 3, 1, src.va, dst.va, len);
	inj_wr(PPU_INJECT_IRQ_DROP, 0);
	{
		static char regs[8192];
		uint32_t sent;

		/*
		 * An event whose message was dropped keeps the level up (no new
		 * edge, no message) until the driver takes it, with nobody
		 * waiting too (its watchdog rounds look, at least once a
		 * second): wait for that before looking for the next message.
		 */
		t0 = ppu_now_s();
		do {
			usleep(5000);
			ppu_debugfs_read("regs", regs, sizeof(regs));
		} while (ppu_debugfs_value(regs, "INTR_STATUS") && ppu_now_s() - t0 < 5.0);
		ck_assert_uint_eq(ppu_debugfs_value(regs, "INTR_STATUS"), 0);
		sent = inj_rd(PPU_INJECT_IRQ_SENT);

		copy_ok(&ch, &pb, &pool, 4, 1, src.va, dst.va, len);
		/* (the CPU can see the release before the interrupt after it goes out) */
		t0 = ppu_now_s();
		while (inj_rd(PPU_INJECT_IRQ_SENT) == sent && ppu_now_s() - t0 < BOUND_S)
			usleep(1000);
		ck_assert_msg(inj_rd(PPU_INJECT_IRQ_SENT) > sent,
			      "no interrupt delivered after the drops ended");
	}
}
END_TEST

/* ---- link loss and a vanished device ---- */


static int driver_bound(void)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", bdf);
	return access(path, F_OK) == 0;
}

/* Unchecked: the teardown of a link test that failed half-way. */
static void sysfs_try(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
		close(fd);
	}
}

/* CHAN_STATUS until it fails with -ENODEV (the unplug is asynchronous). */
static int chan_status_gone(int fd, uint32_t chid)
{
	struct drm_ppu_chan_status st;
	double end = ppu_now_s() + BOUND_S;
	int ret;

	do {
		ret = ppu_chan_status(fd, chid, 0, &st);
		if (ret == -ENODEV)
			break;
		usleep(10 * 1000);
	} while (ppu_now_s() < end);
	return ret;
}

static void link_loss_case(uint32_t how, int rescan)
{
	const uint32_t len = 8 * KIB;
	struct ppu_tbo src, dst;
	struct ppu_tchan ch;
	struct ppu_tpool pool;
	struct ppu_tpb pb;
	struct waiter w;
	pthread_t thr;
	uint64_t v;
	uint32_t resets;
	double t0, took;
	int ret;

	ppu_tpb_new(ppu_fd, &pb, 4);
	ppu_tpool_new(ppu_fd, &pool, 8);
	ppu_tbo_new(ppu_fd, &src, len);
	fill_pattern(src.map, len, 4);
	ppu_tbo_new(ppu_fd, &dst, len);
	ppu_tchan_new(ppu_fd, &ch, 4);
	copy_ok(&ch, &pb, &pool, 0, 1, src.va, dst.va, len);

	/* A waiter for a release that never comes. */
	memset(&w, 0, sizeof(w));
	w.fd = ppu_fd;
	w.pool = pool.id;
	w.index = 1;
	w.value = 1;
	w.chid = ch.chid;
	w.timeout_s = 30.0;
	ck_assert_int_eq(pthread_create(&thr, NULL, waiter_run, &w), 0);
	usleep(200 * 1000);

	resets = inj_rd(PPU_INJECT_RESETS);
	t0 = ppu_now_s();
	inj_wr(PPU_INJECT_LINK, how);
	/* A register read finds the device gone. */
	ret = ppu_get_param(DRM_PPU_PARAM_CYCLE_COUNTER, 0, &v);
	ck_assert_msg(ret == -ENODEV, "GET_PARAM CYCLE_COUNTER on a lost device: %d (value %#"
		      PRIx64 "), want -ENODEV", ret, v);
	ck_assert_int_eq(pthread_join(thr, NULL), 0);
	took = w.done_s - t0;
	ck_assert_msg(w.ret == -ENODEV, "waiter on a lost device: %s", strerror(-w.ret));
	ck_assert_msg(took < BOUND_S, "waiter woken %.2f s after the loss", took);
	ck_assert_int_eq(chan_status_gone(ppu_fd, ch.chid), -ENODEV);
	ck_assert_int_eq(ppu_doorbell(ppu_fd, ch.chid, 0), -ENODEV);
	ppu_guest_teardown();

	/* Unbinding the driver from the dead device does not wait for it. */
	t0 = ppu_now_s();
	ppu_sysfs_write(PPU_DRIVER_SYSFS "/unbind", bdf);
	took = ppu_now_s() - t0;
	ck_assert_msg(took < BOUND_S, "unbind took %.2f s", took);

	/* The device comes back; a new driver instance works. */
	inj_clear();
	ck_assert_uint_gt(inj_rd(PPU_INJECT_RESETS), resets);
	if (rescan) {
		char path[PATH_MAX + 64];

		inj_unmap();
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", bdf);
		ppu_sysfs_write(path, "1");
		ppu_sysfs_write("/sys/bus/pci/rescan", "1");
	} else {
		ppu_sysfs_write(PPU_DRIVER_SYSFS "/bind", bdf);
	}
	ppu_guest_setup();
	if (rescan)
		inj_map();
	ck_assert_uint_gt(ppu_param(DRM_PPU_PARAM_CYCLE_COUNTER), 0);
	ppu_tpb_new(ppu_fd, &pb, 4);
	ppu_tpool_new(ppu_fd, &pool, 8);
	ppu_tbo_new(ppu_fd, &src, len);
	fill_pattern(src.map, len, 5);
	ppu_tbo_new(ppu_fd, &dst, len);
	memset(dst.map, SENTINEL, len);
	ppu_tchan_new(ppu_fd, &ch, 4);
	copy_ok(&ch, &pb, &pool, 0, 1, src.va, dst.va, len);
	check_pattern(dst.map, len, 5, "dst after the device came back");
}

START_TEST(link_down_unplugs_then_rebind_works)
{
	link_loss_case(PPU_INJECT_LINK_DOWN, 0);
}
END_TEST

START_TEST(device_gone_unplugs_then_rescan_works)
{
	link_loss_case(PPU_INJECT_LINK_GONE, 1);
}
END_TEST

/*
 * Unchecked teardown of the link tests (in the parent, so it also runs
 * after a failure): the device back, and a fresh driver instance on it for
 * the programs that follow in the same boot.
 */
static void link_recover(void)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource%d", bdf,
		 PPU_INJECT_BAR);
	if (access(path, F_OK))
		sysfs_try("/sys/bus/pci/rescan", "1");
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd >= 0) {
		void *p = mmap(NULL, PPU_INJECT_BAR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, 0);

		close(fd);
		if (p != MAP_FAILED) {
			inj = p;
			inj_clear();
			inj_unmap();
		}
	}
	if (driver_bound())
		sysfs_try(PPU_DRIVER_SYSFS "/unbind", bdf);
	sysfs_try(PPU_DRIVER_SYSFS "/bind", bdf);
}

/* The PPU's PCI address, from sysfs (the render node may be gone). */
static int find_bdf(void)
{
	char path[PATH_MAX + 64], buf[32];
	struct dirent *d;
	DIR *dir = opendir("/sys/bus/pci/devices");
	int found = 0;

	while (dir && !found && (d = readdir(dir))) {
		FILE *f;

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && strtoul(buf, NULL, 16) == 0x5531) {
			snprintf(bdf, sizeof(bdf), "%s", d->d_name);
			found = 1;
		}
		fclose(f);
	}
	if (dir)
		closedir(dir);
	return found;
}

static Suite *errors_suite(void)
{
	Suite *s = suite_create("device_errors");
	TCase *tc = tcase_create("memory_and_interrupts");
	TCase *tl = tcase_create("link_down");
	TCase *tg = tcase_create("device_gone");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, mem_error_sys_read_faults_only_its_channel);
	tcase_add_test(tc, mem_error_local_write_faults_only_its_channel);
	tcase_add_test(tc, dropped_interrupts_do_not_strand_waiters);
	suite_add_tcase(s, tc);

	tcase_add_checked_fixture(tl, setup, teardown);
	tcase_add_unchecked_fixture(tl, NULL, link_recover);
	tcase_set_timeout(tl, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tl, link_down_unplugs_then_rebind_works);
	suite_add_tcase(s, tl);

	tcase_add_checked_fixture(tg, setup, teardown);
	tcase_add_unchecked_fixture(tg, NULL, link_recover);
	tcase_set_timeout(tg, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tg, device_gone_unplugs_then_rescan_works);
	suite_add_tcase(s, tg);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(errors_suite());
	int failed;

	if (!find_bdf()) {
		fprintf(stderr, "no PPU on the PCI bus\n");
		return EXIT_FAILURE;
	}
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
