// SPDX-License-Identifier: MIT
/*
 * Isolation between clients of ppu.ko, run inside the co-simulation guest.
 * A client is one open() of the render node; two clients of the same
 * process are as separate as two processes.
 *
 * - A fault in one client's channel kills that channel only: its waits and
 *   doorbells fail with -EIO, while another client's copy in flight (and
 *   its SEM_WAIT, woken by the same interrupts) completes byte for byte.
 * - GEM handles, channel ids, semaphore pool ids and mmap offsets are
 *   per file: another client cannot name them.
 * - GPU addresses are per file: the same VA number in another address
 *   space faults (PTE not present) for reads and writes, even right after
 *   the owner's translation was used (the TLB is tagged by page-table
 *   root); local memory is never shown to another client, not even after
 *   its owner freed it.
 * - Closing a file (or exiting without closing it) with a long copy and a
 *   never-satisfied acquire in flight frees every channel, every local
 *   range and leaves the killed copy's destination harmless.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_guest.h"
#include "ppu_guest_claims.h"
#include "ppu_guest_work.h"

#define PG PPU_TPAGE
#define KIB 1024u
#define MIB (1024u * 1024u)
#define WAIT_S PPU_WAIT_S
#define SENTINEL 0xee
/* One pushbuffer slot: 256 dwords. */

/* Fixed GPU addresses, far above anything VA_ALLOC hands out to these tests. */
#define VA_A_SYS 0x80000000u
#define VA_A_LOCAL 0x90000000u

/* ---- debugfs ---- */

/* Every channel line of debugfs "channels" names the driver ("kernel"). */
static void check_only_kernel_channels(pid_t pid)
{
	static char buf[16384];
	char owner[32], want[32];
	const char *line;
	unsigned int chid;

	ppu_debugfs_read("channels", buf, sizeof(buf));
	snprintf(want, sizeof(want), "%d", (int)pid);
	line = strchr(buf, '\n');	/* skip the header */
	while (line && *++line) {
		if (sscanf(line, "%u %31s", &chid, owner) == 2) {
			ck_assert_msg(strcmp(owner, want), "channel %u of process %s is still there:"
				      "\n%s", chid, want, buf);
			ck_assert_msg(!strcmp(owner, "kernel"), "channel %u of %s left over:\n%s",
				      chid, owner, buf);
		}
		line = strchr(line, '\n');
	}
}

struct lrange {
	uint64_t start, end;
};

/* Used ranges of local memory from debugfs "local_mem"; returns their number. */
static unsigned int lmem_used(struct lrange *r, unsigned int max, uint64_t *used_total)
{
	static char buf[65536];
	unsigned long long s, e, n, total, used, free_b;
	char word[16];
	const char *line = buf;
	unsigned int count = 0;
	int have_total = 0;

	ppu_debugfs_read("local_mem", buf, sizeof(buf));
	while (line && *line) {
		if (sscanf(line, "%llx-%llx: %llu: %15s", &s, &e, &n, word) == 4 &&
		    !strcmp(word, "used")) {
			ck_assert_msg(count < max, "too many used ranges:\n%s", buf);
			r[count].start = s;
			r[count].end = e;
			count++;
		} else if (sscanf(line, "total: %llu, used %llu free %llu", &total, &used,
				  &free_b) == 3) {
			have_total = 1;
			if (used_total)
				*used_total = used;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	ck_assert_msg(have_total, "no \"total:\" line in debugfs local_mem:\n%s", buf);
	return count;
}

/* The used range in @after that is not in @before (exactly one). */
static struct lrange lmem_new_range(const struct lrange *before, unsigned int nb,
				    const struct lrange *after, unsigned int na)
{
	struct lrange found = { 0, 0 };
	unsigned int i, j, n = 0;

	for (i = 0; i < na; i++) {
		for (j = 0; j < nb; j++)
			if (after[i].start == before[j].start && after[i].end == before[j].end)
				break;
		if (j == nb) {
			found = after[i];
			n++;
		}
	}
	ck_assert_msg(n == 1, "%u new local ranges, want 1", n);
	return found;
}

/* ---- 1.-3. in ppu_guest_claims.c, shared with test_unpriv ---- */

START_TEST(iso_fault_in_one_client_spares_the_other)
{
	ppu_claim_fault_spares_other_file(ppu_fd, ppu_client_open());
}
END_TEST

START_TEST(iso_handles_ids_and_offsets_are_per_file)
{
	ppu_claim_ids_are_per_file(ppu_fd, ppu_client_open());
}
END_TEST

START_TEST(iso_same_va_in_another_client_faults)
{
	ppu_claim_same_va_faults_in_other_file(ppu_fd, ppu_client_open());
}
END_TEST


START_TEST(iso_local_memory_never_leaks_between_clients)
{
	const uint32_t len = 256 * KIB, big = 1 * MIB;
	uint64_t lmem = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE);
	struct ppu_tbo a_loc, a_sys, a_out, a_big_src, a_big, b_src, b_dst, b_new, b_new_out;
	struct ppu_tchan a_ch, b_ch, b_ch2, b_ch3;
	struct lrange r0[32], r1[32], r2[32], a_range, b_range;
	unsigned int n0, n1, n2;
	struct ppu_tpool a_pool, b_pool;
	struct ppu_tpb a_pb, b_pb;
	int fa = ppu_fd, fb;

	/* The co-simulated PPU has local memory: its absence is a failure. */
	ck_assert_msg(lmem, "the device reports no local memory");
	fb = ppu_client_open();
	/* A: a local BO at a fixed VA with a pattern copied in through A's channel. */
	ppu_tbo_new_at(fa, &a_loc, len, DRM_PPU_GEM_CREATE_LOCAL, VA_A_LOCAL);
	ppu_tbo_new(fa, &a_sys, len);
	ppu_fill_pattern(a_sys.map, len, 5);
	ppu_tbo_new(fa, &a_out, len);
	ppu_tpb_new(fa, &a_pb, 2);
	ppu_tpool_new(fa, &a_pool, 8);
	ppu_tchan_new(fa, &a_ch, 4);
	ppu_tcopy_ok(&a_ch, &a_pb, &a_pool, 0, 1, a_sys.va, VA_A_LOCAL, len);

	ppu_tpb_new(fb, &b_pb, 2);
	ppu_tpool_new(fb, &b_pool, 8);
	ppu_tbo_new(fb, &b_src, len);
	ppu_fill_pattern(b_src.map, len, 6);
	ppu_tbo_new(fb, &b_dst, big);
	memset(b_dst.map, SENTINEL, big);
	ppu_tchan_new(fb, &b_ch, 4);
	ppu_tchan_new(fb, &b_ch2, 4);
	ppu_tchan_new(fb, &b_ch3, 4);
	ck_assert_uint_lt(b_dst.va + b_dst.size, VA_A_LOCAL);

	/* B cannot read A's local BO through A's VA number ... */
	ck_assert_int_eq(ppu_tcopy_and_wait(&b_ch, &b_pb, &b_pool, 0, 1, VA_A_LOCAL, b_dst.va, len),
			 -EIO);
	ppu_check_unmapped_fault(fb, b_ch.chid, 2 /* COPY_SRC */, 0 /* READ */, VA_A_LOCAL);
	ppu_check_bytes(b_dst.map, big, SENTINEL, "B dst after reading A's local VA");
	/* ... nor write it. */
	ck_assert_int_eq(ppu_tcopy_and_wait(&b_ch2, &b_pb, &b_pool, 1, 1, b_src.va, VA_A_LOCAL, len),
			 -EIO);
	ppu_check_unmapped_fault(fb, b_ch2.chid, 3 /* COPY_DST */, 1 /* WRITE */, VA_A_LOCAL);
	memset(a_out.map, SENTINEL, len);
	ppu_tcopy_ok(&a_ch, &a_pb, &a_pool, 1, 1, VA_A_LOCAL, a_out.va, len);
	ppu_check_pattern(a_out.map, len, 5, "A's local BO");

	/* A fills a second local BO with a pattern and frees it (handle and mapping). */
	n0 = lmem_used(r0, 32, NULL);
	ppu_tbo_new_flags(fa, &a_big, big, DRM_PPU_GEM_CREATE_LOCAL);
	n1 = lmem_used(r1, 32, NULL);
	a_range = lmem_new_range(r0, n0, r1, n1);
	ppu_tbo_new(fa, &a_big_src, big);
	ppu_fill_pattern(a_big_src.map, big, 7);
	ppu_tcopy_ok(&a_ch, &a_pb, &a_pool, 2, 1, a_big_src.va, a_big.va, big);
	ck_assert_int_eq(ppu_gem_close(fa, a_big.handle), 0);
	ck_assert_int_eq(ppu_vm_unbind(fa, a_big.va, a_big.size), 0);
	n2 = lmem_used(r2, 32, NULL);
	ck_assert_uint_eq(n2, n0);

	/* B's new local BO of that size reads back as zeros. */
	ppu_tbo_new_flags(fb, &b_new, big, DRM_PPU_GEM_CREATE_LOCAL);
	n2 = lmem_used(r2, 32, NULL);
	b_range = lmem_new_range(r0, n0, r2, n2);
	printf("A's freed local range %#" PRIx64 "-%#" PRIx64 ", B's new one %#" PRIx64
	       "-%#" PRIx64 "%s\n", a_range.start, a_range.end, b_range.start, b_range.end,
	       a_range.start == b_range.start ? " (the same memory)" : "");
	ppu_tbo_new(fb, &b_new_out, big);
	memset(b_new_out.map, SENTINEL, big);
	ppu_tcopy_ok(&b_ch3, &b_pb, &b_pool, 2, 1, b_new.va, b_new_out.va, big);
	ppu_check_bytes(b_new_out.map, big, 0, "B's new local BO");
	ck_assert_int_eq(close(fb), 0);
}
END_TEST

/* ---- 4. closing or exiting with work in flight ---- */

/* A client with a long copy on one channel and a stuck acquire on another. */
struct busy_client {
	int fd;
	struct ppu_tbo src, dst, ring1, ring2;
	struct ppu_tchan ch1, ch2;
	struct ppu_tpool pool;
	struct ppu_tpb pb;
	struct lrange dst_range;	/* with a local destination */
};

static void busy_client_start(struct busy_client *c, uint32_t len, int local_dst)
{
	struct lrange r0[32], r1[32];
	unsigned int n0 = 0, n1;
	struct ppu_pb *b;
	uint32_t i;

	memset(c, 0, sizeof(*c));
	c->fd = ppu_client_open();
	ppu_tpb_new(c->fd, &c->pb, 1);
	ppu_tpool_new(c->fd, &c->pool, 4);
	ppu_tbo_new(c->fd, &c->src, len);
	ppu_fill_pattern(c->src.map, len, 8);
	if (local_dst)
		n0 = lmem_used(r0, 32, NULL);
	ppu_tbo_new_flags(c->fd, &c->dst, len, local_dst ? DRM_PPU_GEM_CREATE_LOCAL : 0);
	if (local_dst) {
		n1 = lmem_used(r1, 32, NULL);
		c->dst_range = lmem_new_range(r0, n0, r1, n1);
	} else {
		memset(c->dst.map, SENTINEL, len);
	}
	ppu_tchan_new(c->fd, &c->ch1, 4);
	ppu_tchan_new(c->fd, &c->ch2, 4);

	/* Four copies in a row: those after the one in flight must be abandoned. */
	b = ppu_tpb_begin(&c->pb);
	for (i = 0; i < 4; i++)
		ppu_tcopy(b, c->src.va + i * (len / 4), c->dst.va + i * (len / 4), len / 4);
	ppu_tsignal(b, &c->pool, 0, 1);
	ppu_tpb_submit(&c->pb, &c->ch1);
	/* Semaphore 1 stays 0: this acquire is never satisfied. */
	b = ppu_tpb_begin(&c->pb);
	ppu_pb_sem_acquire(b, ppu_tpool_va(&c->pool, 1), 1);
	ppu_tsignal(b, &c->pool, 2, 1);
	ppu_tpb_submit(&c->pb, &c->ch2);
}

/* What the two channels are doing (informational). */
static void busy_client_print(struct busy_client *c, const char *name)
{
	struct drm_ppu_chan_status s1, s2;

	ck_assert_int_eq(ppu_chan_status(c->fd, c->ch1.chid, 0, &s1), 0);
	ck_assert_int_eq(ppu_chan_status(c->fd, c->ch2.chid, 0, &s2), 0);
	printf("%s before close: copy channel state %u, acquire channel state %u, "
	       "copy semaphore %u\n", name, s1.state, s2.state, *ppu_tpool_sem(&c->pool, 0));
}

static void busy_client_munmap(struct busy_client *c)
{
	ck_assert_int_eq(munmap(c->pb.bo.map, c->pb.bo.size), 0);
	ck_assert_int_eq(munmap((void *)c->pool.map, c->pool.bytes), 0);
	ck_assert_int_eq(munmap(c->src.map, c->src.size), 0);
	if (c->dst.map)
		ck_assert_int_eq(munmap(c->dst.map, c->dst.size), 0);
	ck_assert_int_eq(munmap(c->ch1.ring.map, c->ch1.ring.size), 0);
	ck_assert_int_eq(munmap(c->ch2.ring.map, c->ch2.ring.size), 0);
	ck_assert_int_eq(munmap((void *)c->ch1.userd, DRM_PPU_USERD_SIZE), 0);
	ck_assert_int_eq(munmap((void *)c->ch2.userd, DRM_PPU_USERD_SIZE), 0);
}

/*
 * After the killed clients are gone: no channel but the driver's, no local
 * memory in use, every user channel and all of local memory available, and
 * the local ranges the killed copies wrote read back as zeros in a new BO.
 */
static void check_nothing_left(pid_t pid, const struct lrange *killed, unsigned int nkilled)
{
	uint32_t n = (uint32_t)ppu_param(DRM_PPU_PARAM_NUM_USER_CHANNELS);
	uint64_t lmem = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE), used = 0;
	struct lrange r[32];
	struct ppu_tbo ring, full, out;
	struct ppu_tchan ch;
	struct ppu_tpool pool;
	struct ppu_tpb pb;
	uint32_t chids[32], i, k;
	int fd;

	check_only_kernel_channels(pid);
	if (lmem) {
		ck_assert_uint_eq(lmem_used(r, 32, &used), 0);
		ck_assert_uint_eq(used, 0);
	}

	fd = ppu_client_open();
	ppu_tbo_new(fd, &ring, PG);
	ck_assert_uint_le(n, 32);
	for (i = 0; i < n; i++) {
		struct drm_ppu_chan_create c;
		int ret = ppu_chan_create_full(fd, 0, 4, ring.va, 0, &c);

		ck_assert_msg(ret == 0, "channel %u of %u: %s", i + 1, n, strerror(-ret));
		chids[i] = c.chid;
	}
	ck_assert_int_eq(ppu_chan_create_full(fd, 0, 4, ring.va, 0, NULL), -EBUSY);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(ppu_chan_destroy(fd, chids[i], 0), 0);
	if (!lmem) {
		ck_assert_int_eq(close(fd), 0);
		return;
	}

	/* All of local memory in one BO; the killed copies' ranges are zero. */
	ppu_tbo_new_flags(fd, &full, lmem, DRM_PPU_GEM_CREATE_LOCAL);
	ck_assert_uint_eq(lmem_used(r, 32, NULL), 1);
	ck_assert_uint_eq(r[0].end - r[0].start, lmem);
	ppu_tpb_new(fd, &pb, 1);
	ppu_tpool_new(fd, &pool, 4);
	ppu_tchan_new(fd, &ch, 4);
	for (k = 0; k < nkilled; k++) {
		uint64_t len = killed[k].end - killed[k].start;

		ck_assert_uint_ge(killed[k].start, r[0].start);
		ck_assert_uint_le(killed[k].end, r[0].end);
		ppu_tbo_new(fd, &out, len);
		memset(out.map, SENTINEL, len);
		ppu_tcopy_ok(&ch, &pb, &pool, k, 1,
			full.va + (uint32_t)(killed[k].start - r[0].start), out.va,
			(uint32_t)len);
		ppu_check_bytes(out.map, len, 0, "local memory of a killed copy");
		ck_assert_int_eq(munmap(out.map, out.size), 0);
		ck_assert_int_eq(ppu_gem_close(fd, out.handle), 0);
	}
	ck_assert_int_eq(close(fd), 0);
}

START_TEST(iso_close_with_work_in_flight)
{
	const uint32_t len = 4 * MIB;
	uint64_t lmem = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE);
	struct busy_client c1, c2;
	struct lrange killed[2];
	unsigned int nkilled = 0;
	double t;

	/* c1: munmap everything, then close: the file goes at close(). */
	busy_client_start(&c1, len, lmem != 0);
	if (lmem)
		killed[nkilled++] = c1.dst_range;
	busy_client_print(&c1, "c1");
	busy_client_munmap(&c1);
	t = ppu_now_s();
	ck_assert_int_eq(close(c1.fd), 0);
	printf("close() with a copy in flight took %.3f s\n", ppu_now_s() - t);

	/* c2: close with every mapping alive; the file goes at the last munmap(). */
	busy_client_start(&c2, len, 0);
	busy_client_print(&c2, "c2");
	ck_assert_int_eq(close(c2.fd), 0);
	t = ppu_now_s();
	busy_client_munmap(&c2);
	printf("the last munmap() with a copy in flight took %.3f s\n", ppu_now_s() - t);

	check_nothing_left(getpid(), killed, nkilled);
}
END_TEST

START_TEST(iso_exit_with_work_in_flight)
{
	const uint32_t len = 4 * MIB;
	uint64_t lmem = ppu_param(DRM_PPU_PARAM_LOCAL_MEM_SIZE);
	struct lrange killed = { 0, 0 };
	int pipefd[2], status;
	double t;
	pid_t pid;

	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct busy_client c;

		/* Submits and exits: the kernel closes the file and the mappings. */
		close(pipefd[0]);
		busy_client_start(&c, len, lmem != 0);
		if (write(pipefd[1], &c.dst_range, sizeof(c.dst_range)) != sizeof(c.dst_range))
			_exit(3);
		_exit(0);
	}
	close(pipefd[1]);
	t = ppu_now_s();
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	printf("the child's exit with a copy in flight: waited %.3f s\n", ppu_now_s() - t);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child status %#x", status);
	ck_assert_int_eq(read(pipefd[0], &killed, sizeof(killed)), sizeof(killed));
	close(pipefd[0]);
	check_nothing_left(pid, &killed, lmem ? 1 : 0);
}
END_TEST

static Suite *isolation_suite(void)
{
	Suite *s = suite_create("isolation");
	TCase *tc = tcase_create("isolation");

	tcase_add_checked_fixture(tc, ppu_guest_setup_unlimited, ppu_guest_teardown_unlimited);
	tcase_add_unchecked_fixture(tc, NULL, ppu_module_params_reset);
	tcase_set_timeout(tc, PPU_GUEST_TEST_TIMEOUT_S);
	tcase_add_test(tc, iso_fault_in_one_client_spares_the_other);
	tcase_add_test(tc, iso_handles_ids_and_offsets_are_per_file);
	tcase_add_test(tc, iso_same_va_in_another_client_faults);
	tcase_add_test(tc, iso_local_memory_never_leaks_between_clients);
	tcase_add_test(tc, iso_close_with_work_in_flight);
	tcase_add_test(tc, iso_exit_with_work_in_flight);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(isolation_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
