/* SPDX-License-Identifier: MIT */
/*
 * Channels of ppu.ko (DRM_IOCTL_PPU_CHAN_CREATE, DOORBELL, CHAN_STATUS,
 * CHAN_DESTROY), run inside the co-simulation guest: the first real work
 * through the driver's page tables (a semaphore release, then a 64 KiB copy
 * at odd offsets checked byte for byte), a faulting channel that does not
 * disturb a second channel of the same file, the -EINVAL/-ENOENT/-EBUSY
 * contract and per-file ownership of channels.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu/ppu_workq.h"
#include "ppu_guest.h"
#include "ppu_guest_work.h"
#include "../../runtime/device/samples/samples.h"

#define PG PPU_TPAGE
#define WAIT_S 10.0

_Static_assert(sizeof(struct drm_ppu_chan_create) == 48, "chan_create size");
_Static_assert(offsetof(struct drm_ppu_chan_create, doorbell_offset) == 40, "doorbell offset");
_Static_assert(offsetof(struct drm_ppu_chan_create, prio_min) == 32, "prio_min offset");
_Static_assert(offsetof(struct drm_ppu_chan_create, max_depth) == 36, "max_depth offset");
_Static_assert(offsetof(struct drm_ppu_chan_create, gpfifo_va) == 8, "gpfifo_va offset");
_Static_assert(offsetof(struct drm_ppu_chan_create, userd_offset) == 16, "userd offset");
_Static_assert(offsetof(struct drm_ppu_chan_create, chid) == 28, "chid offset");
_Static_assert(sizeof(struct drm_ppu_chan_destroy) == 8, "chan_destroy size");
_Static_assert(sizeof(struct drm_ppu_doorbell) == 8, "doorbell size");
_Static_assert(sizeof(struct drm_ppu_chan_status) == 32, "chan_status size");
_Static_assert(DRM_IOCTL_PPU_CHAN_CREATE == _IOWR('d', 0x45, struct drm_ppu_chan_create),
	       "ioctl number");
_Static_assert(DRM_IOCTL_PPU_CHAN_DESTROY == _IOW('d', 0x46, struct drm_ppu_chan_destroy),
	       "ioctl number");
_Static_assert(DRM_IOCTL_PPU_DOORBELL == _IOW('d', 0x47, struct drm_ppu_doorbell),
	       "ioctl number");
_Static_assert(DRM_IOCTL_PPU_CHAN_STATUS == _IOWR('d', 0x48, struct drm_ppu_chan_status),
	       "ioctl number");
_Static_assert(DRM_PPU_USERD_GP_PUT == PPU_USERD_GP_PUT, "USERD GP_PUT");
_Static_assert(DRM_PPU_USERD_GP_GET == PPU_USERD_GP_GET, "USERD GP_GET");
_Static_assert(DRM_PPU_FAULT_ILLEGAL_METHOD == PPU_FAULT_KIND_ILLEGAL_METHOD, "fault kind");

/* Writes a semaphore release of value at sem_va into pb; returns its dwords. */
static uint32_t pb_sem_release(struct ppu_tbo *pb, uint32_t dw_off, uint32_t sem_va,
			       uint32_t value)
{
	struct ppu_pb b;

	ppu_pb_init(&b, (uint32_t *)pb->map + dw_off, (uint32_t)(pb->size / 4) - dw_off);
	ppu_pb_sem_release(&b, sem_va, value);
	ck_assert(!b.overflow);
	return b.len;
}

START_TEST(chan_semaphore_release_through_the_page_tables)
{
	struct ppu_tbo pb, sem;
	struct ppu_tchan ch;
	struct drm_ppu_chan_status st;
	volatile uint32_t *s;
	uint32_t n;

	ppu_tbo_new(ppu_fd, &pb, PG);
	ppu_tbo_new(ppu_fd, &sem, PG);
	ppu_tchan_new(ppu_fd, &ch, 4);
	s = (volatile uint32_t *)(sem.map + 64);
	*s = 0;

	n = pb_sem_release(&pb, 0, sem.va + 64, 0x1234);
	ppu_tchan_submit(&ch, pb.va, n);
	ppu_tchan_wait_sem(&ch, s, 0x1234, WAIT_S);
	ck_assert_msg(ppu_wait_u32(&ch.userd[DRM_PPU_USERD_GP_GET / 4], 1, WAIT_S),
		      "USERD GP_GET %u", ch.userd[DRM_PPU_USERD_GP_GET / 4]);

	/* A second entry on the same channel, from a later pushbuffer offset. */
	n = pb_sem_release(&pb, 64, sem.va + 64, 0x5678);
	ppu_tchan_submit(&ch, pb.va + 256, n);
	ppu_tchan_wait_sem(&ch, s, 0x5678, WAIT_S);
	ck_assert(ppu_wait_u32(&ch.userd[DRM_PPU_USERD_GP_GET / 4], 2, WAIT_S));

	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), 0);
	ck_assert_uint_ne(st.state, DRM_PPU_CHAN_STATE_FAULTED);
	ck_assert_uint_eq(st.gp_put, 2);
	ck_assert_uint_eq(st.gp_get, 2);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), 0);
	/* Gone: its id is no longer this file's. */
	ck_assert_int_eq(ppu_doorbell(ppu_fd, ch.chid, 0), -ENOENT);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), -ENOENT);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), -ENOENT);
}
END_TEST

/* Faults every free id through the debugfs doorbell hook (INST_INVALID). */
static void fault_free_ids(uint32_t n)
{
	uint64_t *before = calloc(n, sizeof(*before));
	char buf[16384], name[32], id[16];
	double end;
	uint32_t i;

	ck_assert_ptr_nonnull(before);
	ppu_debugfs_read("interrupts", buf, sizeof(buf));
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "CHAN%u_FAULTS", i);
		before[i] = ppu_debugfs_value_or(buf, name, 0);
		snprintf(id, sizeof(id), "%u", i);
		ck_assert_int_eq(ppu_debugfs_write("doorbell", id), 0);
	}
	end = ppu_now_s() + WAIT_S;
	for (i = 0; i < n;) {
		ppu_debugfs_read("interrupts", buf, sizeof(buf));
		snprintf(name, sizeof(name), "CHAN%u_FAULTS", i);
		if (ppu_debugfs_value_or(buf, name, 0) > before[i]) {
			i++;
			continue;
		}
		ck_assert_msg(ppu_now_s() < end, "no fault on channel %u", i);
		usleep(1000);
	}
	free(before);
}

START_TEST(chan_reuses_an_id_left_faulted)
{
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS);
	struct drm_ppu_chan_status st;
	struct ppu_tbo pb, sem;
	struct ppu_tchan ch;
	volatile uint32_t *s;
	uint32_t len;

	fault_free_ids(n);
	ppu_tbo_new(ppu_fd, &pb, PG);
	ppu_tbo_new(ppu_fd, &sem, PG);
	s = (volatile uint32_t *)sem.map;
	ppu_tchan_new(ppu_fd, &ch, 4);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_UNBOUND);
	ck_assert_uint_eq(st.fault_info, 0);
	len = pb_sem_release(&pb, 0, sem.va, 0x99);
	ppu_tchan_submit(&ch, pb.va, len);
	ppu_tchan_wait_sem(&ch, s, 0x99, WAIT_S);
}
END_TEST

START_TEST(chan_copy_64k_at_odd_offsets)
{
	const uint32_t len = 65536, so = 3, dof = 5;
	struct ppu_tbo pb, src, dst, sem;
	struct ppu_tchan ch;
	struct ppu_pb b;
	volatile uint32_t *s;
	uint32_t i;

	ppu_tbo_new(ppu_fd, &pb, PG);
	ppu_tbo_new(ppu_fd, &src, len + PG);
	ppu_tbo_new(ppu_fd, &dst, len + PG);
	ppu_tbo_new(ppu_fd, &sem, PG);
	for (i = 0; i < src.size; i++)
		src.map[i] = (uint8_t)(i * 7 + (i >> 8) * 13 + 1);
	memset(dst.map, 0xee, dst.size);
	s = (volatile uint32_t *)sem.map;
	*s = 0;
	ppu_tchan_new(ppu_fd, &ch, 4);

	ppu_pb_init(&b, (uint32_t *)pb.map, PG / 4);
	ppu_pb_copy(&b, src.va + so, dst.va + dof, len, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    sem.va, 0xc0ffee, 0);
	ck_assert(!b.overflow);
	ppu_tchan_submit(&ch, pb.va, b.len);
	ppu_tchan_wait_sem(&ch, s, 0xc0ffee, 3 * WAIT_S);

	for (i = 0; i < dof; i++)
		ck_assert_msg(dst.map[i] == 0xee, "dst[%u] = %#x before the copy", i, dst.map[i]);
	for (i = 0; i < len; i++)
		ck_assert_msg(dst.map[dof + i] == src.map[so + i], "dst[%u] = %#x, want %#x",
			      dof + i, dst.map[dof + i], src.map[so + i]);
	for (i = dof + len; i < dst.size; i++)
		ck_assert_msg(dst.map[i] == 0xee, "dst[%u] = %#x after the copy", i, dst.map[i]);
	ck_assert(ppu_wait_u32(&ch.userd[DRM_PPU_USERD_GP_GET / 4], 1, WAIT_S));
}
END_TEST

/* Polls CHAN_STATUS until @chid is FAULTED (or WAIT_S passes); its status in @st. */
static void wait_faulted(int fd, uint32_t chid, struct drm_ppu_chan_status *st)
{
	double end = ppu_now_s() + WAIT_S;

	for (;;) {
		ck_assert_int_eq(ppu_chan_status(fd, chid, 0, st), 0);
		if (st->state == DRM_PPU_CHAN_STATE_FAULTED || ppu_now_s() > end)
			break;
		usleep(1000);
	}
	ck_assert_msg(st->state == DRM_PPU_CHAN_STATE_FAULTED, "state %u", st->state);
}

START_TEST(chan_bad_method_faults_only_its_channel)
{
	struct drm_ppu_chan_status st;
	struct ppu_tbo pb, sem;
	struct ppu_tchan bad, good;
	struct ppu_pb b;
	volatile uint32_t *s;
	uint32_t n;

	ppu_tbo_new(ppu_fd, &pb, PG);
	ppu_tbo_new(ppu_fd, &sem, PG);
	s = (volatile uint32_t *)sem.map;
	*s = 0;
	ppu_tchan_new(ppu_fd, &bad, 2);
	ppu_tchan_new(ppu_fd, &good, 2);
	ck_assert_uint_ne(bad.chid, good.chid);

	/* 0x0fc: a host method offset that does not exist. */
	ppu_pb_init(&b, (uint32_t *)pb.map, 16);
	ppu_pb_method(&b, 0x0fc, 0xdead);
	ppu_tchan_submit(&bad, pb.va, b.len);
	wait_faulted(ppu_fd, bad.chid, &st);
	ck_assert_uint_eq(DRM_PPU_FAULT_INFO_KIND(st.fault_info), DRM_PPU_FAULT_ILLEGAL_METHOD);
	ck_assert_uint_eq(st.fault_addr, 0x0fc);
	ck_assert_uint_eq(st.fault_data, 0xdead);
	/*
	 * Dead from the moment its owner saw FAULTED, even if the fault's
	 * interrupt (its event-ring record) has not been handled yet.
	 */
	ck_assert_int_eq(ppu_doorbell(ppu_fd, bad.chid, 0), -EIO);

	/* The other channel of the same file still works. */
	n = pb_sem_release(&pb, 64, sem.va, 0x4242);
	ppu_tchan_submit(&good, pb.va + 256, n);
	ppu_tchan_wait_sem(&good, s, 0x4242, WAIT_S);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, bad.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_FAULTED);

	/* Destroying the faulted channel frees its id for a working one. */
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, bad.chid, 0), 0);
	ppu_tchan_new(ppu_fd, &bad, 2);
	n = pb_sem_release(&pb, 128, sem.va, 0x4343);
	ppu_tchan_submit(&bad, pb.va + 512, n);
	ppu_tchan_wait_sem(&bad, s, 0x4343, WAIT_S);
}
END_TEST

START_TEST(chan_create_bad_inputs_fail_with_einval)
{
	struct ppu_tbo ring, small;
	uint64_t end;
	unsigned int i;

	ppu_tbo_new(ppu_fd, &ring, 2 * PG);
	ppu_tbo_new(ppu_fd, &small, PG);
	/* Sanity: the good case works. */
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 10, ring.va, 0, NULL), 0);

	/* every bit above the known flags */
	for (i = 0; i < 32; i++)
		if (!(DRM_PPU_CHAN_CREATE_FLAGS & (1u << i)))
			ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 1u << i, 4, ring.va, 0, NULL),
					 -EINVAL);
	/* A compute channel needs the compute engine. */
	if (!(ppu_param(DRM_PPU_PARAM_FEATURES) & DRM_PPU_FEATURE_COMPUTE_ENGINE))
		ck_assert_int_eq(ppu_chan_create_full(ppu_fd, DRM_PPU_CHAN_CREATE_COMPUTE, 4,
						      ring.va, 0, NULL), -ENODEV);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0x80000000u, 4, ring.va, 0, NULL), -EINVAL);
	/* A priority needs its flag; the range ends at DRM_PPU_CHAN_PRIORITY_MAX. */
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, ring.va, 1, NULL), -EINVAL);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, DRM_PPU_CHAN_CREATE_PRIORITY, 4, ring.va,
					      DRM_PPU_CHAN_PRIORITY_MAX + 1, NULL), -EINVAL);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, DRM_PPU_CHAN_CREATE_PRIORITY, 4, ring.va,
					      0xffffffffu, NULL), -EINVAL);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 0, ring.va, 0, NULL), -EINVAL);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 21, ring.va, 0, NULL), -EINVAL);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, ring.va + 4, 0, NULL), -EINVAL);
	/* Unbound addresses. */
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, 0, 0, NULL), -EINVAL);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, 0x80000000u, 0, NULL), -EINVAL);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, 1ull << 32, 0, NULL), -EINVAL);
	/* A ring that runs past its mapping: 2^10 * 8 = 8 KiB in a 4 KiB BO. */
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 10, small.va, 0, NULL), -EINVAL);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 9, small.va, 0, NULL), 0);
	end = (uint64_t)ring.va + ring.size;
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 1, end - 8, 0, NULL), -EINVAL);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 1, end - 16, 0, NULL), 0);
}
END_TEST

/* CHAN_CREATE with the compute fields set as given. */
static int chan_create_compute(uint64_t ring_va, uint32_t flags, uint32_t priority,
			       uint32_t prio_min, uint32_t max_depth)
{
	struct drm_ppu_chan_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.flags = flags;
	c.log2_entries = 4;
	c.gpfifo_va = ring_va;
	c.priority = priority;
	c.prio_min = prio_min;
	c.max_depth = max_depth;
	ret = ppu_ioctl(ppu_fd, DRM_IOCTL_PPU_CHAN_CREATE, &c);
	if (!ret)
		ck_assert_int_eq(ppu_chan_destroy(ppu_fd, c.chid, 0), 0);
	return ret;
}

/*
 * The compute fields: zero on copy channels; on compute channels a launch
 * range inside the channel's priority and a chain that stays in range.
 * Bad values fail before the missing engine is reported.
 */
START_TEST(chan_create_compute_fields_are_checked)
{
	const uint32_t C = DRM_PPU_CHAN_CREATE_COMPUTE, P = DRM_PPU_CHAN_CREATE_PRIORITY;
	int good = ppu_param(DRM_PPU_PARAM_FEATURES) & DRM_PPU_FEATURE_COMPUTE_ENGINE ? 0 : -ENODEV;
	struct ppu_tbo ring;

	ppu_tbo_new(ppu_fd, &ring, PG);
	ck_assert_int_eq(chan_create_compute(ring.va, 0, 0, 1, 0), -EINVAL);
	ck_assert_int_eq(chan_create_compute(ring.va, 0, 0, 0, 1), -EINVAL);
	ck_assert_int_eq(chan_create_compute(ring.va, P, 40, 0, 2), -EINVAL);
	ck_assert_int_eq(chan_create_compute(ring.va, 0, 0, 0, 0), 0);

	/* prio_min up to the channel's priority (normal without the flag). */
	ck_assert_int_eq(chan_create_compute(ring.va, C | P, 10, 11, 1), -EINVAL);
	ck_assert_int_eq(chan_create_compute(ring.va, C, 0, DRM_PPU_CHAN_PRIORITY_NORMAL + 1, 1),
			 -EINVAL);
	ck_assert_int_eq(chan_create_compute(ring.va, C | P, 10, 10, 1), good);
	ck_assert_int_eq(chan_create_compute(ring.va, C, 0, DRM_PPU_CHAN_PRIORITY_NORMAL, 1), good);
	/* The chain: priority + N - 1 <= PRIORITY_MAX, N <= MAX_NESTING_DEPTH. */
	ck_assert_int_eq(chan_create_compute(ring.va, C | P, 0, 0, DRM_PPU_MAX_NESTING_DEPTH + 1),
			 -EINVAL);
	ck_assert_int_eq(chan_create_compute(ring.va, C | P, 60, 0, 5), -EINVAL);
	ck_assert_int_eq(chan_create_compute(ring.va, C | P, 60, 0, 4), good);
	ck_assert_int_eq(chan_create_compute(ring.va, C | P, 0, 0, DRM_PPU_MAX_NESTING_DEPTH), good);
	ck_assert_int_eq(chan_create_compute(ring.va, C, 0, 0, 0), good);
}
END_TEST

/* A caller built against the 32-byte struct (before the compute fields) still works. */
START_TEST(chan_create_accepts_the_old_struct_size)
{
	struct drm_ppu_chan_create c;
	struct ppu_tbo ring;
	unsigned long nr = _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
				DRM_COMMAND_BASE + DRM_PPU_CHAN_CREATE, 32);

	ppu_tbo_new(ppu_fd, &ring, PG);
	memset(&c, 0, sizeof(c));
	c.log2_entries = 4;
	c.gpfifo_va = ring.va;
	c.prio_min = 0xdead;	/* beyond the old size: never read */
	c.max_depth = 0xbeef;
	ck_assert_int_eq(ppu_ioctl(ppu_fd, nr, &c), 0);
	ck_assert_int_eq(c.max_depth, 0xbeef);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, c.chid, 0), 0);
}
END_TEST

START_TEST(chan_other_ioctls_check_their_inputs)
{
	struct drm_ppu_chan_status st;
	struct ppu_tchan ch;
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_CHANNELS);

	ppu_tchan_new(ppu_fd, &ch, 2);
	ck_assert_int_eq(ppu_doorbell(ppu_fd, ch.chid, 1), -EINVAL);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 1, &st), -EINVAL);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 1), -EINVAL);
	ck_assert_int_eq(ppu_doorbell(ppu_fd, n, 0), -ENOENT);
	ck_assert_int_eq(ppu_doorbell(ppu_fd, 0xffffffffu, 0), -ENOENT);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, 255, 0, &st), -ENOENT);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, 1000, 0), -ENOENT);
	/* Never rung: the PPU has not loaded it. */
	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), 0);
	ck_assert_uint_eq(st.state, DRM_PPU_CHAN_STATE_UNBOUND);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), 0);
}
END_TEST

START_TEST(chan_belongs_to_its_file)
{
	struct drm_ppu_chan_status st;
	struct drm_ppu_chan_create c;
	struct ppu_tbo ring;
	void *u;
	int fd2;

	fd2 = open(ppu_node, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd2, 0);
	ppu_tbo_new(ppu_fd, &ring, PG);
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, ring.va, 0, &c), 0);

	ck_assert_int_eq(ppu_doorbell(fd2, c.chid, 0), -ENOENT);
	ck_assert_int_eq(ppu_chan_status(fd2, c.chid, 0, &st), -ENOENT);
	ck_assert_int_eq(ppu_chan_destroy(fd2, c.chid, 0), -ENOENT);
	/* Its USERD cannot be mapped through the other file. */
	u = mmap(NULL, DRM_PPU_USERD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd2,
		 c.userd_offset);
	ck_assert(u == MAP_FAILED);
	/* The other file's address space does not have the ring. */
	ck_assert_int_eq(ppu_chan_create_full(fd2, 0, 4, ring.va, 0, NULL), -EINVAL);

	/* Still the owner's. */
	ck_assert_int_eq(ppu_chan_status(ppu_fd, c.chid, 0, &st), 0);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, c.chid, 0), 0);
	ck_assert_int_eq(close(fd2), 0);
}
END_TEST

/* Whether a store through @p kills a child process with SIGBUS. */
static int store_gets_sigbus(volatile uint32_t *p)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		*p = 1;
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
}

/*
 * The doorbell page: a store of GP_PUT rings the channel; only the owning
 * file maps it, shared and not executable; a GP_PUT out of the ring faults
 * the channel; once the channel is destroyed the mapping has no page.
 */
START_TEST(chan_doorbell_page_is_its_owners_alone)
{
	struct drm_ppu_chan_status st;
	struct drm_ppu_chan_create c;
	struct ppu_tbo ring, pb, sem;
	volatile uint32_t *db, *userd, *s;
	uint32_t e[2], n;
	void *p;
	int fd2;

	ck_assert(ppu_param(DRM_PPU_PARAM_FEATURES) & DRM_PPU_FEATURE_USER_DOORBELL);
	ppu_tbo_new(ppu_fd, &ring, PG);
	ppu_tbo_new(ppu_fd, &pb, PG);
	ppu_tbo_new(ppu_fd, &sem, PG);
	s = (volatile uint32_t *)(sem.map + 64);
	*s = 0;
	ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, ring.va, 0, &c), 0);
	ck_assert_uint_ne(c.doorbell_offset, 0);
	ck_assert_uint_ne(c.doorbell_offset, c.userd_offset);
	userd = mmap(NULL, DRM_PPU_USERD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ppu_fd,
		     c.userd_offset);
	ck_assert(userd != MAP_FAILED);
	db = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ppu_fd,
		  c.doorbell_offset);
	ck_assert(db != MAP_FAILED);

	/* one entry, rung by a store */
	n = pb_sem_release(&pb, 0, sem.va + 64, 0x4321);
	ppu_gp_entry(e, (uint32_t)pb.va, n, 0);
	memcpy(ring.map, e, sizeof(e));
	__sync_synchronize();
	userd[DRM_PPU_USERD_GP_PUT / 4] = 1;
	__sync_synchronize();
	db[DRM_PPU_DOORBELL_GP_PUT / 4] = 1;
	ck_assert_msg(ppu_wait_u32(s, 0x4321, WAIT_S), "semaphore %#x", *s);
	ck_assert(ppu_wait_u32(&userd[DRM_PPU_USERD_GP_GET / 4], 1, WAIT_S));

	/* nobody else maps it, and the owner only shared, one page, no exec */
	fd2 = open(ppu_node, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd2, 0);
	p = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd2,
		 c.doorbell_offset);
	ck_assert(p == MAP_FAILED);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_int_eq(close(fd2), 0);
	p = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, ppu_fd,
		 c.doorbell_offset);
	ck_assert(p == MAP_FAILED);
	p = mmap(NULL, 2 * DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ppu_fd,
		 c.doorbell_offset);
	ck_assert(p == MAP_FAILED);
	p = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_EXEC, MAP_SHARED, ppu_fd,
		 c.doorbell_offset);
	ck_assert(p == MAP_FAILED);

	/* a GP_PUT beyond the ring faults the channel, as in USERD */
	db[DRM_PPU_DOORBELL_GP_PUT / 4] = 1000;
	wait_faulted(ppu_fd, c.chid, &st);
	ck_assert_uint_eq(DRM_PPU_FAULT_INFO_KIND(st.fault_info), DRM_PPU_FAULT_GP_PUT_RANGE);
	ck_assert_uint_eq(st.fault_addr, 1000);
	/* dead once its owner has seen FAULTED, the interrupt handled or not */
	ck_assert_int_eq(ppu_doorbell(ppu_fd, c.chid, 0), -EIO);

	/* destroyed: the mapping has no page and cannot be made again */
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, c.chid, 0), 0);
	ck_assert(store_gets_sigbus(db));
	p = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ppu_fd,
		 c.doorbell_offset);
	ck_assert(p == MAP_FAILED);
	munmap((void *)db, DRM_PPU_DOORBELL_SIZE);
	munmap((void *)userd, DRM_PPU_USERD_SIZE);
}
END_TEST

/*
 * RUNLIST_STATUS.COUNT and SCHED_CTRL from debugfs; the PPU took the
 * driver's last list (ERROR clear: in LEVEL order, each channel once).
 */
static uint32_t runlist_count(uint32_t *sched_ctrl)
{
	char buf[8192];
	uint32_t st;

	ppu_debugfs_read("regs", buf, sizeof(buf));
	*sched_ctrl = (uint32_t)ppu_debugfs_value(buf, "SCHED_CTRL");
	st = (uint32_t)ppu_debugfs_value(buf, "RUNLIST_STATUS");
	ck_assert_uint_eq(PPU_FGET(PPU_RUNLIST_STATUS_ERROR, st), 0);
	return PPU_FGET(PPU_RUNLIST_STATUS_COUNT, st);
}

/*
 * With runlist_sched=1 the driver lists every channel it has (its own one
 * too) and the PPU schedules by that list: channels of three priorities
 * run, the list follows creation and destruction.  Without it the PPU
 * keeps its round robin and is handed no list.
 */
START_TEST(chan_runlist_lists_every_channel)
{
	static const uint32_t prio[3] = { 10, 32, 50 };
	char param[8] = "";
	struct ppu_tbo pb, sem;
	struct ppu_tchan ch[3];
	volatile uint32_t *s;
	uint32_t base, n, ctrl, i;
	int fd, on;

	fd = open("/sys/module/ppu/parameters/runlist_sched", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_gt(read(fd, param, sizeof(param) - 1), 0);
	close(fd);
	on = param[0] == 'Y';
	base = runlist_count(&ctrl);
	ck_assert_uint_eq(PPU_FGET(PPU_SCHED_CTRL_RUNLIST, ctrl), on);
	if (!on)
		ck_assert_uint_eq(base, 0);

	ppu_tbo_new(ppu_fd, &pb, PG);
	ppu_tbo_new(ppu_fd, &sem, PG);
	s = (volatile uint32_t *)sem.map;
	for (i = 0; i < 3; i++) {
		s[i] = 0;
		ck_assert_int_eq(ppu_tchan_new_prio(ppu_fd, &ch[i], 2, DRM_PPU_CHAN_CREATE_PRIORITY,
						    prio[i]), 0);
	}
	ck_assert_uint_eq(runlist_count(&ctrl), on ? base + 3 : 0);
	for (i = 0; i < 3; i++) {
		n = pb_sem_release(&pb, 64 * i, sem.va + 4 * i, 0x700 + i);
		ppu_tchan_submit(&ch[i], pb.va + 256 * i, n);
	}
	for (i = 0; i < 3; i++)
		ppu_tchan_wait_sem(&ch[i], &s[i], 0x700 + i, WAIT_S);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch[1].chid, 0), 0);
	ck_assert_uint_eq(runlist_count(&ctrl), on ? base + 2 : 0);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch[0].chid, 0), 0);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch[2].chid, 0), 0);
	ck_assert_uint_eq(runlist_count(&ctrl), on ? base : 0);
}
END_TEST

/*
 * mmap() of a channel's doorbell page racing its CHAN_DESTROY: a mapping
 * that mmap() returned must have no page once the destroy has returned,
 * even when the revoke ran between the driver's mmap handler and the
 * mapping joining the file's address space (where the zap cannot see it).
 */
struct db_race {
	int fd;
	uint64_t off;
	volatile int stop;
	void *maps[256];
	unsigned int n;
};

static void *db_race_mapper(void *arg)
{
	struct db_race *r = arg;

	while (!r->stop && r->n < 256) {
		void *p = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
			       r->fd, (off_t)r->off);

		if (p == MAP_FAILED)
			break;		/* revoked */
		r->maps[r->n++] = p;
	}
	return NULL;
}

static sigjmp_buf db_race_jmp;

static void db_race_sigbus(int sig)
{
	(void)sig;
	siglongjmp(db_race_jmp, 1);
}

/* A store through @p: true when it raised SIGBUS. */
static bool store_sigbus_here(volatile uint32_t *p)
{
	if (sigsetjmp(db_race_jmp, 1))
		return true;
	p[DRM_PPU_DOORBELL_GP_PUT / 4] = 0;
	return false;
}

START_TEST(chan_doorbell_mmap_racing_destroy_has_no_page)
{
	struct sigaction sa = { .sa_handler = db_race_sigbus }, old;
	unsigned int iter, raced = 0, total = 0;
	struct drm_ppu_chan_create c;
	struct ppu_tbo ring;
	struct timespec t0, t1;

	ppu_tbo_new(ppu_fd, &ring, PG);
	ck_assert_int_eq(sigaction(SIGBUS, &sa, &old), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (iter = 0; iter < 400; iter++) {
		struct db_race r = { .fd = ppu_fd };
		pthread_t th;
		unsigned int i;

		ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, ring.va, 0, &c), 0);
		r.off = c.doorbell_offset;
		ck_assert_int_eq(pthread_create(&th, NULL, db_race_mapper, &r), 0);
		usleep(iter % 8 * 250);
		ck_assert_int_eq(ppu_chan_destroy(ppu_fd, c.chid, 0), 0);
		r.stop = 1;
		ck_assert_int_eq(pthread_join(th, NULL), 0);
		/* the destroy has returned: no mapping may reach the id any more */
		for (i = 0; i < r.n; i++)
			ck_assert_msg(store_sigbus_here(r.maps[i]),
				      "iteration %u: mapping %u of %u (the last ones were made while "
				      "CHAN_DESTROY ran) still rings freed channel %u", iter, i + 1,
				      r.n, c.chid);
		for (i = 0; i < r.n; i++)
			munmap(r.maps[i], DRM_PPU_DOORBELL_SIZE);
		total += r.n;
		raced += r.n > 0;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (t1.tv_sec - t0.tv_sec > 20)
			break;
	}
	ck_assert_int_eq(sigaction(SIGBUS, &old, NULL), 0);
	printf("doorbell mmap racing destroy: %u iterations, %u mappings\n", iter, total);
	ck_assert_uint_gt(raced, 0);
}
END_TEST

START_TEST(chan_ids_run_out_with_ebusy)
{
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS);
	uint32_t *chids = calloc(n, sizeof(*chids)), i, round;
	bool *seen = calloc(n, sizeof(*seen));
	struct drm_ppu_chan_create c;
	struct ppu_tbo ring;

	ck_assert_uint_ge(n, 1);
	ck_assert(chids && seen);
	ppu_tbo_new(ppu_fd, &ring, PG);
	for (round = 0; round < 2; round++) {
		memset(seen, 0, n * sizeof(*seen));
		for (i = 0; i < n; i++) {
			ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, ring.va, 0, &c), 0);
			ck_assert_uint_lt(c.chid, n);
			ck_assert(!seen[c.chid]);
			seen[c.chid] = true;
			chids[i] = c.chid;
		}
		ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, ring.va, 0, NULL), -EBUSY);
		for (i = 0; i < n; i++)
			ck_assert_int_eq(ppu_chan_destroy(ppu_fd, chids[i], 0), 0);
	}
	/* Closing a file with live channels frees them too. */
	{
		int fd2 = open(ppu_node, O_RDWR | O_CLOEXEC);
		struct ppu_tbo r2;

		ck_assert_int_ge(fd2, 0);
		ppu_tbo_new(fd2, &r2, PG);
		for (i = 0; i < n; i++)
			ck_assert_int_eq(ppu_chan_create_full(fd2, 0, 4, r2.va, 0, NULL), 0);
		ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, ring.va, 0, NULL), -EBUSY);
		ck_assert_int_eq(munmap(r2.map, r2.size), 0);
		ck_assert_int_eq(close(fd2), 0);
	}
	for (i = 0; i < n; i++)
		ck_assert_int_eq(ppu_chan_create_full(ppu_fd, 0, 4, ring.va, 0, NULL), 0);
	free(chids);
	free(seen);
}
END_TEST


/* Last in the suite: unbinds and rebinds the driver. */
START_TEST(chan_live_at_unplug_then_close_is_safe)
{
	struct drm_ppu_chan_status st;
	char bdf[PATH_MAX];
	struct ppu_tbo pb, sem;
	struct ppu_tchan ch;
	volatile uint32_t *s;
	uint32_t n;

	ppu_render_node_bdf(bdf, sizeof(bdf));
	ppu_tbo_new(ppu_fd, &pb, PG);
	ppu_tbo_new(ppu_fd, &sem, PG);
	s = (volatile uint32_t *)sem.map;
	ppu_tchan_new(ppu_fd, &ch, 4);
	n = pb_sem_release(&pb, 0, sem.va, 0x77);
	ppu_tchan_submit(&ch, pb.va, n);
	ppu_tchan_wait_sem(&ch, s, 0x77, WAIT_S);
	ck_assert(ppu_wait_u32(&ch.userd[DRM_PPU_USERD_GP_GET / 4], 1, WAIT_S));

	ppu_sysfs_write(PPU_DRIVER_SYSFS "/unbind", bdf);
	ck_assert_int_eq(ppu_doorbell(ppu_fd, ch.chid, 0), -ENODEV);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, ch.chid, 0, &st), -ENODEV);
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, ch.chid, 0), -ENODEV);
	/* The USERD mapping outlives the device. */
	ck_assert_uint_eq(ch.userd[DRM_PPU_USERD_GP_GET / 4], 1);
	ppu_guest_teardown();
	ck_assert_int_eq(munmap((void *)ch.userd, DRM_PPU_USERD_SIZE), 0);

	ppu_sysfs_write(PPU_DRIVER_SYSFS "/bind", bdf);
	ppu_guest_setup();
	ppu_tbo_new(ppu_fd, &pb, PG);
	ppu_tbo_new(ppu_fd, &sem, PG);
	s = (volatile uint32_t *)sem.map;
	ppu_tchan_new(ppu_fd, &ch, 4);
	n = pb_sem_release(&pb, 0, sem.va, 0x88);
	ppu_tchan_submit(&ch, pb.va, n);
	ppu_tchan_wait_sem(&ch, s, 0x88, WAIT_S);
}
END_TEST

/*
 * DRM_PPU_CHAN_CREATE_AUTO_PUT: a ring the PPU treats as always full, run
 * from the GP_GET it binds at, each entry guarded by a semaphore its
 * producer releases once the next entry is written (the PPU-owned work
 * queue's protocol, here with the CPU as the producer): entry 0 parks on X;
 * a submission of N blocks reserves N + 1 entries on a soft GP_PUT, waits
 * while the shadow GP_PUT (advanced by the trailing blocks as the PPU
 * reaches them) says the ring is full, writes N work blocks and a trailing
 * block (IADD shadow by N + 1, acquire its own entry's semaphore at the
 * next generation), and releases the semaphore of the entry before its
 * first.  Work block k waits for a ticket == k and increments it, so a
 * block run twice or out of order would hang.  The 8-entry ring wraps ten
 * times; USERD.GP_PUT is never used; CHAN_STATUS reports GP_PUT = GP_GET - 1.
 */
#define AQ_LOG2 3u
#define AQ_N (1u << AQ_LOG2)
#define AQ_DESC 0x10u
#define AQ_SHADOW (AQ_DESC + PPU_WORKQ_SHADOW)

struct aq {
	struct ppu_tchan ch;
	struct ppu_tbo mem;	/* 0: X, 4: ticket, 0x10: descriptor (shadow), 0x40 + 4k: sem[k], 0x1000: blocks */
	struct ppu_workq d;	/* the descriptor's format (ppu_workq.h) */
	uint32_t soft, seq, pb_off;
};

static volatile uint32_t *aq_word(struct aq *q, uint32_t off)
{
	return (volatile uint32_t *)(q->mem.map + off);
}

static void aq_entry(struct aq *q, uint32_t k, const struct ppu_pb *pb)
{
	uint32_t *gp = (uint32_t *)q->ch.ring.map + 2 * (k & (AQ_N - 1));

	ck_assert_uint_le(q->pb_off + 4 * pb->len, q->mem.size);
	memcpy(q->mem.map + q->pb_off, pb->dw, 4 * pb->len);
	ppu_gp_entry(gp, q->mem.va + q->pb_off, pb->len, 0);
	q->pb_off += (4 * pb->len + 63) & ~63u;
}

static void aq_submit(struct aq *q, uint32_t nblk)
{
	uint32_t e = q->soft, k, buf[16];
	double t0 = ppu_now_s();
	struct ppu_pb pb;

	q->soft += nblk + 1;
	while (!ppu_workq_room(e + nblk, *aq_word(q, AQ_SHADOW))) {
		ck_assert_msg(ppu_now_s() - t0 < 30, "the ring stays full (shadow %u, need %u)",
			      *aq_word(q, AQ_SHADOW), e + nblk);
		usleep(1000);
	}
	for (k = e; k < e + nblk; k++) {
		ppu_pb_init(&pb, buf, 16);
		workq_ticket_block(&pb, q->mem.va + 4, q->seq);
		aq_entry(q, k, &pb);
		q->seq++;
	}
	ppu_pb_init(&pb, buf, 16);
	ppu_workq_tail(&pb, &q->d, q->mem.va + AQ_DESC, e + nblk, nblk);
	aq_entry(q, e + nblk, &pb);
	/* the entries are in memory before the guard that lets the PPU reach them */
	__sync_synchronize();
	*aq_word(q, ppu_workq_sem_va(&q->d, e - 1) - q->mem.va) = ppu_workq_gen(e - 1, AQ_LOG2);
	__sync_synchronize();
}

START_TEST(chan_auto_put_runs_semaphore_guarded_entries)
{
	struct drm_ppu_chan_status st;
	uint32_t buf[8], i, rng = 7;
	struct ppu_pb pb;
	struct aq q;
	int ret;

	memset(&q, 0, sizeof(q));
	ck_assert(ppu_param(DRM_PPU_PARAM_FEATURES) & DRM_PPU_FEATURE_AUTO_PUT);
	ret = ppu_tchan_new_prio(ppu_fd, &q.ch, AQ_LOG2, DRM_PPU_CHAN_CREATE_AUTO_PUT, 0);
	ck_assert_msg(ret == 0, "CHAN_CREATE AUTO_PUT: %s", strerror(-ret));
	ppu_tbo_new(ppu_fd, &q.mem, 16 * PG);
	q.pb_off = 0x1000;
	q.soft = 1;
	q.d.log2_entries = AQ_LOG2;
	q.d.sems_va = q.mem.va + 0x40;
	*aq_word(&q, AQ_SHADOW) = AQ_N - 1;
	/* GP_PUT out of range: an AUTO_PUT ring does not use it */
	q.ch.userd[DRM_PPU_USERD_GP_PUT / 4] = 0x7777;
	ppu_pb_init(&pb, buf, 8);
	ppu_pb_sem_acquire(&pb, q.mem.va, 1);
	aq_entry(&q, 0, &pb);
	__sync_synchronize();
	ck_assert_int_eq(ppu_doorbell(ppu_fd, q.ch.chid, 0), 0);
	aq_submit(&q, 2);
	usleep(20000);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, q.ch.chid, 0, &st), 0);
	ck_assert_uint_eq(st.fault_info, 0);
	ck_assert_uint_eq(st.gp_get, 0);
	ck_assert_uint_eq(st.gp_put, AQ_N - 1);
	ck_assert_uint_eq(*aq_word(&q, 4), 0);
	*aq_word(&q, 0) = 1;	/* X: the queue runs */
	for (i = 1; i < 30; i++) {
		rng = rng * 1664525u + 1013904223u;
		aq_submit(&q, 1 + (rng >> 8) % 3);
	}
	ck_assert_msg(ppu_wait_u32(aq_word(&q, 4), q.seq, 30),
		      "ticket %u of %u", *aq_word(&q, 4), q.seq);
	ck_assert_int_eq(ppu_chan_status(ppu_fd, q.ch.chid, 0, &st), 0);
	ck_assert_uint_eq(st.fault_info, 0);
	ck_assert_uint_eq(st.gp_get, (q.soft - 1) & (AQ_N - 1));
	ck_assert_uint_eq(st.gp_put, (st.gp_get - 1) & (AQ_N - 1));
	ck_assert_uint_eq(q.ch.userd[DRM_PPU_USERD_GP_GET / 4], st.gp_get);
	ck_assert_uint_eq(*aq_word(&q, AQ_SHADOW), q.soft - 1 + AQ_N - 1);
	ck_assert_uint_gt(q.soft, 10 * AQ_N);
	/* the channel waits at its last trailing block until destroyed */
	ck_assert_int_eq(ppu_chan_destroy(ppu_fd, q.ch.chid, 0), 0);
}
END_TEST

static Suite *chan_suite(void)
{
	Suite *s = suite_create("chan");
	TCase *tc = tcase_create("chan");

	tcase_add_checked_fixture(tc, ppu_guest_setup_unlimited, ppu_guest_teardown_unlimited);
	tcase_add_unchecked_fixture(tc, NULL, ppu_module_params_reset);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, chan_semaphore_release_through_the_page_tables);
	tcase_add_test(tc, chan_reuses_an_id_left_faulted);
	tcase_add_test(tc, chan_copy_64k_at_odd_offsets);
	tcase_add_test(tc, chan_bad_method_faults_only_its_channel);
	tcase_add_test(tc, chan_create_bad_inputs_fail_with_einval);
	tcase_add_test(tc, chan_create_compute_fields_are_checked);
	tcase_add_test(tc, chan_create_accepts_the_old_struct_size);
	tcase_add_test(tc, chan_other_ioctls_check_their_inputs);
	tcase_add_test(tc, chan_belongs_to_its_file);
	tcase_add_test(tc, chan_doorbell_page_is_its_owners_alone);
	tcase_add_test(tc, chan_runlist_lists_every_channel);
	tcase_add_test(tc, chan_doorbell_mmap_racing_destroy_has_no_page);
	tcase_add_test(tc, chan_ids_run_out_with_ebusy);
	tcase_add_test(tc, chan_live_at_unplug_then_close_is_safe);
	tcase_add_test(tc, chan_auto_put_runs_semaphore_guarded_entries);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(chan_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
