// SPDX-License-Identifier: MIT
/*
 * ppu_fuzz: a structured, seeded ioctl fuzzer for ppu.ko, run inside the
 * co-simulated guest (or on a machine with a PPU).  Statically linked, plain
 * C, no Check.
 *
 *   ppu_fuzz [--seed S] [--calls N] [--children K] [--time-limit SEC]
 *            [--stall SEC] [--no-race] [--ops LIST] [--avoid LIST] [--strict]
 *            [--no-chmod] [--no-leak-check] [-v]
 *
 * The parent forks K clients (default 1).  Client k uses seed S + k and its
 * own file; --calls N is the total budget of the clients' main threads
 * (N / K each).  Each client keeps tables of the objects its earlier calls
 * created (BO handles, GPU mappings, channels, semaphore pools, syncobjs,
 * exported fds, CPU mappings) and builds every argument from them, from
 * near-valid values (off by one, boundaries, stale ids of a closed file),
 * or from garbage.  A call also goes, now and then, through a bad user
 * pointer (NULL, unmapped, PROT_NONE, read-only, kernel, straddling a
 * guard page) or a wrong ioctl encoding (size, direction or number of
 * another PPU ioctl).  Channels set up the valid way get pushbuffers and
 * GPFIFO entries written into their mapped ring (valid, plausible-random or
 * garbage) and their doorbell rung: through DOORBELL, or, about half the
 * time, by a store of GP_PUT to the channel's doorbell page.
 *
 * Doorbell pages: every channel's page is mapped when it is created (the
 * legal way: shared, one page); sometimes first an illegal mapping (private,
 * executable, two pages: EINVAL), another client's page (EACCES, judged
 * by the offsets clients publish in shared memory while nothing they know
 * of destroys the channel), mprotect(PROT_EXEC) (EACCES).  Stores and loads
 * go through the pages of live channels and through the mappings they left
 * behind; storms of stores race the racing thread's CHAN_DESTROY of that
 * channel.  Every access runs under a per-thread sigsetjmp() guard: the
 * SIGBUS handler (SA_SIGINFO) jumps back only when si_addr lies in the
 * mapping being touched, else the client dies of it.  A SIGBUS is right
 * when the tables say the channel was destroyed (or may be going: the
 * racing thread, a closed file); with the channel in the tables (the lock
 * held, so the racing thread cannot destroy it) only when CHAN_STATUS says
 * the watchdog stopped it or the channel is no longer ours.  An access must
 * raise it once a CHAN_DESTROY of the channel has returned, and again after
 * one did; the page reads 0; a store leaves a faulted channel with the same
 * fault; garbage GP_PUT values make the file dirty (they may fault only
 * that channel).
 *
 * A second thread per client (unless --no-race) destroys and closes objects
 * from the same tables while the main thread uses them: CHAN_DESTROY,
 * SEM_POOL_DESTROY, GEM_CLOSE, VM_UNBIND, SYNCOBJ_DESTROY, munmap(), close().
 * Client 1, 3, ... drop to uid 65534 after opening the render node, client
 * 2, 5, ... before (the parent, when root, makes the node world-accessible
 * unless --no-chmod).
 *
 * Oracles, besides the guest runner's kernel-log check: a file in which no
 * garbage ever reached the PPU (about a third of the files) must never see
 * one of its channels faulted (isolation: other files' garbage must only
 * fault their own channels); -EIO from DOORBELL or SEM_WAIT means the
 * hardware shows the channel faulted; capability parameters never change;
 * GEM_CREATE, VM_BIND, SEM_POOL_CREATE and CHAN_CREATE outputs are in
 * range; channel ids, local memory and pinned pages are all back once
 * every client has exited (the parent reads debugfs and /proc/meminfo,
 * waiting up to the fence timeout; --no-leak-check skips it, for a run
 * that unloads the module right after);
 * every error of a well-encoded call is one the ABI documents; the
 * doorbell page checks above.  Breaches
 * print "fuzz: VIOLATION ..." (they fail the run with --strict);
 * undocumented errors print "fuzz: UNEXPECTED ...".
 *
 * --avoid NAME,... keeps away from known kernel bugs, so that runs look for
 * new ones: wait-i64min (a SEM_WAIT deadline near INT64_MIN sleeps for
 * ever), pool-destroy-0 (SEM_POOL_DESTROY of pool 0 lets id 0 be handed
 * out), autoput-storm (an AUTO_PUT ring of NON_STALL_INTR methods floods
 * the CPU with interrupts: no AUTO_PUT channels), stale-fault (a late fault
 * interrupt kills the next channel with the same id: noted, not a
 * violation).
 *
 * The same seed replays the same sequence of decisions; with the racing
 * thread on, the kernel's answers (and so the later choices) depend on
 * timing, so replay a finding with --no-race first.  Every call is logged
 * in memory; a violation prints the client's last 256 calls, and -v logs
 * every call to stderr before it is made (the last line names the call
 * that hung or crashed).
 *
 * Output: per-ioctl counts by errno with mean and max time, then
 * "fuzz: calls N, calls/s X".  Exit status: 0 the run finished; 1 internal
 * failure (a client could not start); 2 a client died by a signal; 3 a
 * client made no progress for --stall seconds (its kernel stacks are
 * printed); 4 with --strict, violations.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_node.h"

/* The last GET_PARAM the uapi defines: the fuzzer reads them all. */
#define PARAM_LAST DRM_PPU_PARAM_CHAN_CACHE

#define PROG "ppu_fuzz"

#define MAX_CHILDREN	32
#define PAGE		4096u
#define ARGBUF		(20 * 1024)	/* >= the largest _IOC_SIZE (16383) */
#define NERR		134		/* errno buckets; the last one is "other" */

#define MAX_BOS		48
#define MAX_VAS		64
#define MAX_CHANS	32
#define MAX_POOLS	16
#define MAX_SOBJS	32
#define MAX_XFDS	16
#define MAX_MAPS	32
#define NSTALE		16
#define HIST		256
#define HIST_LINE	160

/* BOs above this are closed at once: nothing may ever bind (pin) them. */
#define BIG_BO		(4u << 20)

/* ---- what is counted ---- */

#define OPS(X) \
	X(GET_PARAM) X(GEM_CREATE) X(GEM_MMAP_OFFSET) X(VM_BIND) X(VM_UNBIND) \
	X(CHAN_CREATE) X(CHAN_DESTROY) X(DOORBELL) X(CHAN_STATUS) X(SEM_POOL_CREATE) \
	X(SEM_POOL_DESTROY) X(SEM_WAIT) X(SEM_FENCE) X(PPU_BAD_NR) \
	X(GEM_CLOSE) X(PRIME_HANDLE_TO_FD) X(PRIME_FD_TO_HANDLE) X(SYNCOBJ_CREATE) \
	X(SYNCOBJ_DESTROY) X(SYNCOBJ_WAIT) X(SYNCOBJ_RESET) X(SYNCOBJ_SIGNAL) \
	X(SYNCOBJ_HANDLE_TO_FD) X(SYNCOBJ_FD_TO_HANDLE) X(SYNCOBJ_TIMELINE) \
	X(SYNC_FILE_INFO) X(VERSION) X(GET_CAP) X(SET_CLIENT_CAP) X(NOT_RENDER) \
	X(MMAP) X(MUNMAP) X(OPEN) X(CLOSE) X(POLL)

#define OP_ENUM(n) OP_##n,
enum op { OPS(OP_ENUM) NOPS };
#define OP_NAME(n) #n,
static const char *const op_names[NOPS] = { OPS(OP_NAME) };

/* How a call was made. */
enum { MODE_NORMAL, MODE_MANGLED, MODE_BADPTR, MODE_RACER, NMODES };
static const char *const mode_names[NMODES] = { "normal", "wrong-encoding", "bad-pointer",
						 "racing-thread" };

struct stats {
	uint32_t n[NOPS][NERR];
	uint64_t ns[NOPS];
	uint64_t ns_max[NOPS];
	uint64_t modes[NMODES];
	uint64_t unexpected[NOPS];
	uint64_t violations;
	uint64_t submits[3];		/* valid, plausible, garbage */
	uint64_t clean_submits;		/* valid ones in a clean file: isolation checked */
	uint64_t waits_ok, waits_timeout;
	uint64_t destroy_timeouts;
	uint64_t clean_checks;		/* channel states checked in clean files */
	uint64_t stale_faults;		/* known bug stale-fault seen (--avoid) */
	uint64_t actions[32];
	uint64_t submit_skips[3];	/* no channel, a mapping gone, ring full */
	uint64_t setups[8];		/* by the step that failed; [6] done */
	uint64_t dirtied[16];		/* clean files made dirty, by reason */
	/* doorbell pages */
	uint64_t db_maps;		/* mapped (at creation and by act_mmap) */
	uint64_t db_rings[2];		/* submissions rung through the page, through DOORBELL */
	uint64_t db_stores;		/* other stores through pages (pokes, storms) */
	uint64_t db_stale_through;	/* ... through a stale mapping, before the revoke */
	uint64_t db_storms, db_storm_raced;	/* storms; the channel left the tables during one */
	uint64_t db_sigbus[5];		/* DB_SB_*: why a SIGBUS was legitimate */
	uint64_t db_refused[4];		/* DB_RF_*: illegal mappings refused */
	uint64_t db_foreign_unjudged;	/* another client's offset while it went away: mapped */
	uint64_t db_reads;		/* reads of a live page: 0 */
	uint64_t db_dead_ignored;	/* stores to a faulted channel: still the same fault */
	uint64_t db_mmap_raced;		/* mappings made as the channel went away */
	uint64_t db_mmap_race_bus;	/* ... whose store then raised SIGBUS */
};

/* Why a SIGBUS through a doorbell mapping was legitimate. */
enum { DB_SB_DESTROYED, DB_SB_WATCHDOG, DB_SB_UNTRACKED, DB_SB_UNKNOWN_MAP, DB_SB_AGAIN };
/* Illegal doorbell mappings refused. */
enum { DB_RF_OWN, DB_RF_FOREIGN, DB_RF_FOREIGN_RACING, DB_RF_MPROTECT };

/* Shared with the parent: one stats slot per thread, progress per client. */
struct shared {
	struct stats st[MAX_CHILDREN][2];
	volatile uint64_t progress[MAX_CHILDREN];
	/* what each client's main thread is doing: action, and op while in a call */
	volatile int action[MAX_CHILDREN], in_op[MAX_CHILDREN];
	/*
	 * The doorbell offset of each channel id, published by the client
	 * that owns the channel while nothing it knows of destroys it: offset
	 * | owner << 7 | generation (7 bits); offset 0: none.  Other clients
	 * try to map it (EACCES).
	 */
	uint64_t db_pub[256];
};

/* ---- options ---- */

static struct {
	uint64_t seed;
	uint64_t calls;
	int children;
	double time_limit;
	int stall_s;
	bool race;
	bool leak_check;	/* wait for the resources to come back at the end */
	bool strict;
	bool chmod_node;
	int verbose;
	uint64_t ops_mask;		/* actions allowed, 0 = all */
	unsigned int avoid;		/* AVOID_*: known bugs not to trigger */
} opt = {
	.calls = 20000, .children = 1, .stall_s = 120, .race = true, .leak_check = true, .chmod_node = true,
};

/*
 * Known kernel bugs that --avoid steers around, so that a run can look for
 * new ones until they are fixed.
 */
enum {
	/* SEM_WAIT: timeout_ns - now overflows for deadlines near INT64_MIN */
	AVOID_WAIT_I64MIN = 1u << 0,
	/* SEM_POOL_DESTROY of pool 0 frees id 0 in the ALLOC1 xarray: 0 is handed out next */
	AVOID_POOL_DESTROY_0 = 1u << 1,
	/*
	 * An AUTO_PUT ring of NON_STALL_INTR pushbuffers interrupts without end:
	 * the handler livelocks the CPU (no AUTO_PUT channels at all)
	 */
	AVOID_AUTOPUT_STORM = 1u << 2,
	/*
	 * A fault interrupt handled after its channel was destroyed marks the
	 * next channel with that id dead (-EIO, hardware UNBOUND): cannot be
	 * steered around, so it is only noted, not counted as a violation
	 */
	AVOID_STALE_FAULT = 1u << 3,
};
static const struct {
	const char *name;
	unsigned int bit;
} avoids[] = {
	{ "wait-i64min", AVOID_WAIT_I64MIN },
	{ "pool-destroy-0", AVOID_POOL_DESTROY_0 },
	{ "autoput-storm", AVOID_AUTOPUT_STORM },
	{ "stale-fault", AVOID_STALE_FAULT },
};

static struct shared *sh;
static char node_path[288];

/* ---- random numbers: xoshiro256** seeded by splitmix64 ---- */

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rnd(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

/* [0, n), n > 0 */
static uint32_t rn(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rnd(r) >> 32) * (uint64_t)n) >> 32);
}

/* true with probability pct percent */
static bool pct(struct rng *r, unsigned int p)
{
	return rn(r, 100) < p;
}

/* ---- client state ---- */

struct bo {
	uint32_t handle;
	bool local;
	bool sens;		/* ring or pushbuffer of a submitting channel */
	uint64_t size;
	uint64_t mmap_off;	/* 0: not asked yet */
};

struct vam {
	uint64_t va, size;
	uint32_t handle;	/* the BO, or the pool id */
	bool pool;
};

struct chan {
	uint32_t chid;
	bool compute, autoput;
	uint64_t userd_off;
	int userd_map;		/* map id or -1 */
	uint64_t serial;	/* unique in the client: which channel a doorbell mapping rings */
	uint64_t db_off;	/* the doorbell page's offset, 0 none */
	uint64_t db_pub;	/* what is published in sh->db_pub[chid], 0 nothing */
	int db_map;		/* map id or -1 */
	/* seen faulted (by the hardware): a page store must leave it so */
	bool dead;
	uint32_t dead_info, dead_addr;
	/* A channel made by the setup action: a ring to submit on. */
	bool bundle;
	uint32_t log2, put, seq, slot_dw;
	uint32_t ring_va, pb_va, pool_va, pool_id;
	int ring_map, pb_map;
	uint32_t ring_handle, pb_handle;
};

struct pool {
	uint32_t id, count;
	uint64_t va, size, mmap_off;
};

enum { XFD_SYNC_FILE, XFD_SYNCOBJ, XFD_PRIME };

struct xfd {
	int fd, kind;
};

struct map {
	int id;
	uint8_t *p;
	size_t len;
	int prot;
	/*
	 * sensitive: a ring, pushbuffer or USERD page; writing garbage
	 * there can make a channel fault legitimately
	 */
	bool bundle;
	/*
	 * MAP_PLAIN: a BO, USERD or pool; MAP_DB: the doorbell page of the
	 * channel db_serial; MAP_UNKNOWN: an offset the tables do not name
	 * (one page of it may be the doorbell of a channel made by a call
	 * we could not follow)
	 */
	int kind;
	bool db_autoput;
	bool db_gone;		/* a SIGBUS was seen: the page never comes back */
	/* DB_*: what we know of the channel once it left the tables */
	int db_state;
	uint32_t db_chid;
	uint32_t db_put;	/* the channel's GP_PUT: carrying it again rings nothing new */
	uint64_t db_serial;
};

enum { MAP_PLAIN, MAP_DB, MAP_UNKNOWN };
/*
 * A doorbell mapping's channel: DB_LIVE in the tables; DB_MAYBE left them
 * with its destroy perhaps still to come (racing thread, file closed while
 * mappings hold it open, destroyed behind our back); DB_REVOKED destroyed
 * by a call that returned: every access must raise SIGBUS.
 */
enum { DB_LIVE, DB_MAYBE, DB_REVOKED };

struct client;

struct thr {
	struct client *c;
	struct rng r;
	struct stats *st;
	char tag[16];
	uint64_t seq;
	bool racer;
	int mode;		/* MODE_* of the call being made */
	uint8_t *buf;		/* ARGBUF bytes, the ioctl argument */
	uint8_t *bad;		/* 4 pages: rw, none, ro (when asked), none */
};

struct client {
	int idx;
	int fd;
	unsigned int gen;
	pthread_mutex_t lock;

	/* device */
	uint64_t caps[PARAM_LAST + 1];
	uint32_t nchan, nuser;
	uint64_t features, lmem;
	bool root;

	/* the current file's objects */
	struct bo bos[MAX_BOS];
	int nbos;
	struct vam vas[MAX_VAS];
	int nvas;
	struct chan chans[MAX_CHANS];
	int nchans;
	struct pool pools[MAX_POOLS];
	int npools;
	uint32_t sobjs[MAX_SOBJS];
	int nsobjs;
	/* across files */
	struct xfd xfds[MAX_XFDS];
	int nxfds;
	struct map maps[MAX_MAPS];
	int nmaps, next_map_id;
	/* ids of earlier files: another file's ids must be refused */
	uint32_t stale_handles[NSTALE], stale_chids[NSTALE], stale_pools[NSTALE];
	uint64_t stale_offs[NSTALE], stale_vas[NSTALE];
	unsigned int nstale;

	/*
	 * clean: this file only ever gets valid work (decided at open);
	 * dirty: something could have made its channels fault legitimately.
	 */
	bool clean, dirty;
	bool in_setup;		/* the main thread is setting up a channel */
	uint64_t next_serial;
	uint64_t storm_serial;	/* the channel whose page the main thread hammers, 0 none */
	uint64_t revoked[64];	/* serials of channels whose CHAN_DESTROY returned, lately */
	unsigned int nrevoked;
	unsigned int pub_gen;
	uint64_t last_reclaim;	/* call of the last sweep for leaked channel ids */
	volatile bool stop;
	uint64_t budget;
	double deadline;
	struct thr main, racer;
	pthread_mutex_t hist_lock;
	char hist[HIST][HIST_LINE];
	unsigned int hist_n;
};

/* ---- helpers ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static const char *err_name(int e)
{
	static const struct {
		int e;
		const char *n;
	} names[] = {
		{ 0, "ok" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINTR, "EINTR" },
		{ EIO, "EIO" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" }, { ENODEV, "ENODEV" }, { EINVAL, "EINVAL" },
		{ ENFILE, "ENFILE" }, { EMFILE, "EMFILE" }, { ENOTTY, "ENOTTY" },
		{ ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" }, { ENOSYS, "ENOSYS" },
		{ ETIME, "ETIME" }, { EOVERFLOW, "EOVERFLOW" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ ETIMEDOUT, "ETIMEDOUT" }, { EDQUOT, "EDQUOT" }, { E2BIG, "E2BIG" },
		{ ENXIO, "ENXIO" }, { ESRCH, "ESRCH" }, { ECANCELED, "ECANCELED" },
		{ ENODATA, "ENODATA" },
	};
	static __thread char other[16];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].n;
	snprintf(other, sizeof(other), "E%d", e);
	return other;
}

/* Errors a well-encoded call with valid pointers may give (ABI, docs/ioctls.md). */
static const int documented[NOPS][10] = {
	[OP_GET_PARAM] = { EINVAL, ENODEV },
	[OP_GEM_CREATE] = { EINVAL, ENODEV, ENOSPC, ENOMEM, EIO, ETIMEDOUT },
	[OP_GEM_MMAP_OFFSET] = { EINVAL, ENOENT, ENOMEM, ENOSPC },
	[OP_VM_BIND] = { ENOENT, EINVAL, ENOSPC, ENOMEM },
	[OP_VM_UNBIND] = { EINVAL, ENOENT },
	[OP_CHAN_CREATE] = { EINVAL, ENODEV, EPERM, ENOMEM, EBUSY, ETIMEDOUT, ENOSPC },
	[OP_CHAN_DESTROY] = { EINVAL, ENOENT, ETIMEDOUT },
	[OP_DOORBELL] = { EINVAL, ENODEV, ENOENT, EIO },
	[OP_CHAN_STATUS] = { EINVAL, ENODEV, ENOENT },
	[OP_SEM_POOL_CREATE] = { EINVAL, ENOSPC, ENOMEM, EBUSY },
	[OP_SEM_POOL_DESTROY] = { EINVAL, ENOENT },
	[OP_SEM_WAIT] = { EINVAL, ENOENT, EIO, ETIME, EINTR, ENODEV },
	[OP_SEM_FENCE] = { EINVAL, ENOENT, ENOMEM, ENODEV },
};

/* Any call may fail so: a file that could not be reopened, or quotas. */
static bool documented_err(int op, int err)
{
	if (err == EBADF || err == EDQUOT || op >= OP_PPU_BAD_NR)
		return true;
	for (int i = 0; i < 10 && documented[op][i]; i++)
		if (documented[op][i] == err)
			return true;
	return false;
}

/* ---- counting and logging ---- */

static void record(struct thr *t, int op, int err, uint64_t ns)
{
	struct stats *st = t->st;

	st->n[op][err >= 0 && err < NERR - 1 ? err : NERR - 1]++;
	st->ns[op] += ns;
	if (ns > st->ns_max[op])
		st->ns_max[op] = ns;
	st->modes[t->racer ? MODE_RACER : t->mode]++;
	t->seq++;
	if (!t->racer)
		sh->progress[t->c->idx] = t->seq;
}

/*
 * Every call is logged into the client's history (the last HIST lines of
 * both threads), printed with a violation; with -v also to stderr.
 */
static void vlog(struct thr *t, const char *fmt, ...)
{
	struct client *c = t->c;
	char line[HIST_LINE];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "%s #%" PRIu64 " ", t->tag, t->seq);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&c->hist_lock);
	memcpy(c->hist[c->hist_n++ % HIST], line, sizeof(line));
	pthread_mutex_unlock(&c->hist_lock);
	if (opt.verbose)
		fprintf(stderr, "%s\n", line);
}

static void dump_history(struct thr *t)
{
	struct client *c = t->c;

	pthread_mutex_lock(&c->hist_lock);
	printf("fuzz: the last %u calls of client %d (both threads):\n",
	       c->hist_n < HIST ? c->hist_n : HIST, c->idx);
	for (unsigned int i = c->hist_n < HIST ? 0 : c->hist_n - HIST; i < c->hist_n; i++)
		printf("fuzz-hist: %s\n", c->hist[i % HIST]);
	pthread_mutex_unlock(&c->hist_lock);
}

static void violation(struct thr *t, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	t->st->violations++;
	printf("fuzz: VIOLATION %s #%" PRIu64 " (seed %" PRIu64 "): %s\n", t->tag, t->seq,
	       opt.seed + (uint64_t)t->c->idx, line);
	if (t->st->violations <= 2)
		dump_history(t);
	fflush(stdout);
}

static void hexargs(char *out, size_t len, const void *arg, size_t size)
{
	const uint32_t *w = arg;
	size_t n = 0;

	out[0] = 0;
	if ((uintptr_t)arg < 65536 || (uintptr_t)arg >= (1ull << 47)) {
		snprintf(out, len, "ptr %p", arg);
		return;
	}
	for (size_t i = 0; i < size / 4 && i < 12 && n + 10 < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%x", i ? " " : "", w[i]);
}

/*
 * The one place ioctls are made.  @check: the call is well encoded with
 * valid pointers, so its error must be a documented one.
 */
static int xioctl_fd(struct thr *t, int op, int fd, unsigned long cmd, void *arg, bool check)
{
	uint64_t t0, t1;
	int ret, err;

	{
		char hex[160];

		/* bad pointers are shown, not read */
		if (t->mode == MODE_BADPTR)
			snprintf(hex, sizeof(hex), "ptr %p", arg);
		else
			hexargs(hex, sizeof(hex), arg, _IOC_SIZE(cmd) && _IOC_SIZE(cmd) < 64 ?
				_IOC_SIZE(cmd) : 48);
		vlog(t, "%s fd %d cmd %#lx %s [%s]", op_names[op], fd, cmd,
		     t->racer ? "racer" : mode_names[t->mode], hex);
	}
	if (!t->racer)
		sh->in_op[t->c->idx] = op;
	t0 = now_ns();
	ret = ioctl(fd, cmd, arg);
	err = ret < 0 ? errno : 0;
	t1 = now_ns();
	if (!t->racer)
		sh->in_op[t->c->idx] = -1;
	record(t, op, err, t1 - t0);
	{
		char hex[160] = "";

		if (t->mode != MODE_BADPTR && (_IOC_DIR(cmd) & _IOC_READ) && !err)
			hexargs(hex, sizeof(hex), arg, _IOC_SIZE(cmd) && _IOC_SIZE(cmd) < 64 ?
				_IOC_SIZE(cmd) : 48);
		vlog(t, "  -> %s (%" PRIu64 " us)%s%s%s", err_name(err), (t1 - t0) / 1000,
		     hex[0] ? " [" : "", hex, hex[0] ? "]" : "");
	}
	if (check && err && !documented_err(op, err)) {
		t->st->unexpected[op]++;
		if (t->st->unexpected[op] <= 3) {
			char hex[160];

			hexargs(hex, sizeof(hex), arg, _IOC_SIZE(cmd));
			printf("fuzz: UNEXPECTED %s #%" PRIu64 ": %s returned %s, args [%s]\n",
			       t->tag, t->seq, op_names[op], err_name(err), hex);
			fflush(stdout);
		}
	}
	return err;
}

static int xioctl(struct thr *t, int op, unsigned long cmd, void *arg, bool check)
{
	return xioctl_fd(t, op, __atomic_load_n(&t->c->fd, __ATOMIC_RELAXED), cmd, arg, check);
}

/* A syscall that is not an ioctl, for the tables. */
static void xrecord(struct thr *t, int op, int err, uint64_t t0)
{
	record(t, op, err, now_ns() - t0);
	vlog(t, "%s -> %s", op_names[op], err_name(err));
}

static int64_t deadline_in(struct rng *r)
{
	switch (rn(r, 10)) {
	case 0:
		return 0;
	case 1:
		return -1 - (int64_t)rn(r, 1000);
	case 2:
		if (opt.avoid & AVOID_WAIT_I64MIN)
			return -2;
		return pct(r, 50) ? INT64_MIN : INT64_MIN + (int64_t)rn(r, 1000000);
	case 3:
		return (int64_t)now_ns() - 1;
	default:
		/* at most 20 ms: nothing may block for long */
		return (int64_t)(now_ns() + rn(r, 5) * 1000000ull + rn(r, 1000000));
	}
}

/* What made a clean file dirty (counted once per file). */
#define DIRTY_REASONS(X) X(POOL_DESTROYED) X(WRONG_ENCODING) X(BAD_POINTER) X(VM_UNBIND) \
	X(CHAN_UNTRACKED) X(AUTO_PUT) X(BAD_NR) X(MEMTOUCH) X(SETUP_BROKEN) X(SUBMIT) \
	X(USERD_POKE) X(POOL_VA_UNBOUND) X(POOL_UNTRACKED) X(DB_STORE)
#define DR_ENUM(n) DR_##n,
enum { DIRTY_REASONS(DR_ENUM) NDIRTY };
#define DR_NAME(n) #n,
static const char *const dirty_names[NDIRTY] = { DIRTY_REASONS(DR_NAME) };

/* c->lock held */
static void set_dirty(struct thr *t, int why)
{
	struct client *c = t->c;

	if (c->clean && !c->dirty) {
		t->st->dirtied[why]++;
		vlog(t, "  file %u is no longer clean: %s", c->gen, dirty_names[why]);
	}
	c->dirty = true;
}

/* ---- tables (called with c->lock held) ---- */

#define DEL(arr, n, i) do { (arr)[i] = (arr)[--(n)]; } while (0)

static struct map *map_find(struct client *c, int id)
{
	for (int i = 0; i < c->nmaps; i++)
		if (c->maps[i].id == id)
			return &c->maps[i];
	return NULL;
}

static int map_add(struct client *c, void *p, size_t len, int prot, bool bundle)
{
	struct map *m;

	if (c->nmaps == MAX_MAPS)
		return -1;
	m = &c->maps[c->nmaps++];
	*m = (struct map){ .kind = MAP_PLAIN };
	m->id = ++c->next_map_id;
	m->p = p;
	m->len = len;
	m->prot = prot;
	m->bundle = bundle;
	return m->id;
}

static void stale_add(struct client *c, uint32_t handle, uint32_t chid, uint32_t pool,
		      uint64_t off, uint64_t va)
{
	unsigned int i = c->nstale++ % NSTALE;

	c->stale_handles[i] = handle;
	c->stale_chids[i] = chid;
	c->stale_pools[i] = pool;
	c->stale_offs[i] = off;
	c->stale_vas[i] = va;
}

static void bo_del_handle(struct client *c, uint32_t handle)
{
	for (int i = 0; i < c->nbos; i++)
		if (c->bos[i].handle == handle) {
			DEL(c->bos, c->nbos, i);
			return;
		}
}

static struct chan *chan_find(struct client *c, uint32_t chid)
{
	for (int i = 0; i < c->nchans; i++)
		if (c->chans[i].chid == chid)
			return &c->chans[i];
	return NULL;
}

static struct chan *chan_by_serial(struct client *c, uint64_t serial)
{
	for (int i = 0; i < c->nchans; i++)
		if (c->chans[i].serial == serial)
			return &c->chans[i];
	return NULL;
}

/* Other clients may no longer count on the channel's doorbell object. */
static void db_unpublish(struct client *c, struct chan *ch)
{
	uint64_t old = ch->db_pub;

	if (!old || ch->chid >= 256)
		return;
	/* only our own entry: the id may be someone else's by now */
	__atomic_compare_exchange_n(&sh->db_pub[ch->chid], &old,
				    ((uint64_t)c->idx << 7) | (++c->pub_gen & 0x7f), false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	ch->db_pub = 0;
}

static void db_publish(struct client *c, struct chan *ch)
{
	if (!ch->db_off || ch->chid >= 256)
		return;
	ch->db_pub = ch->db_off | ((uint64_t)c->idx << 7) | (++c->pub_gen & 0x7f);
	__atomic_store_n(&sh->db_pub[ch->chid], ch->db_pub, __ATOMIC_SEQ_CST);
}

/* The doorbell mappings of channel @serial: what we know of it now (DB_*). */
static void db_orphan(struct client *c, uint64_t serial, int state)
{
	if (state == DB_REVOKED)
		c->revoked[c->nrevoked++ % 64] = serial;
	for (int i = 0; i < c->nmaps; i++)
		if (c->maps[i].kind == MAP_DB && c->maps[i].db_serial == serial &&
		    c->maps[i].db_state < state)
			c->maps[i].db_state = state;
}

/* A channel leaves the tables: DB_MAYBE, or DB_REVOKED when it is destroyed. */
static void chan_leave(struct client *c, int i, int state)
{
	db_unpublish(c, &c->chans[i]);
	db_orphan(c, c->chans[i].serial, state);
	DEL(c->chans, c->nchans, i);
}

static void chan_del(struct client *c, uint32_t chid, int state)
{
	for (int i = 0; i < c->nchans; i++)
		if (c->chans[i].chid == chid) {
			chan_leave(c, i, state);
			return;
		}
}

/* c->lock held: CHAN_DESTROY of @chid may come: other clients must not count on its page. */
static void chan_may_go(struct client *c, uint32_t chid)
{
	struct chan *ch = chan_find(c, chid);

	if (ch)
		db_unpublish(c, ch);
}

/* Does the channel-visible memory of a submitting channel live at @va? */
static bool bundle_va(struct client *c, uint64_t va)
{
	for (int i = 0; i < c->nchans; i++) {
		struct chan *ch = &c->chans[i];

		if (ch->bundle && (va == ch->ring_va || va == ch->pb_va || va == ch->pool_va))
			return true;
	}
	return false;
}

/*
 * Is @va a semaphore pool's binding?  Once one is removed with VM_UNBIND,
 * SEM_POOL_DESTROY of that pool unbinds whatever mapping then sits at its
 * address (the driver unbinds by address): another pool's, a ring's.
 */
static bool pool_va(struct client *c, uint64_t va)
{
	for (int i = 0; i < c->npools; i++)
		if (c->pools[i].va == va)
			return true;
	return false;
}

static bool pool_known(struct client *c, uint32_t id)
{
	for (int i = 0; i < c->npools; i++)
		if (c->pools[i].id == id)
			return true;
	return false;
}

static bool bundle_pool(struct client *c, uint32_t id)
{
	for (int i = 0; i < c->nchans; i++)
		if (c->chans[i].bundle && c->chans[i].pool_id == id)
			return true;
	return false;
}

static void vam_del(struct client *c, uint64_t va)
{
	for (int i = 0; i < c->nvas; i++)
		if (c->vas[i].va == va) {
			DEL(c->vas, c->nvas, i);
			return;
		}
}

static void pool_del(struct thr *t, uint32_t id)
{
	struct client *c = t->c;

	for (int i = 0; i < c->npools; i++)
		if (c->pools[i].id == id) {
			if (bundle_pool(c, id))
				set_dirty(t, DR_POOL_DESTROYED);
			vam_del(c, c->pools[i].va);
			DEL(c->pools, c->npools, i);
			return;
		}
}

/* ---- doorbell pages ---- */

/*
 * An access through a mapping that may lose its page (the doorbell page of
 * a destroyed channel) raises SIGBUS.  The handler jumps back to the access
 * when the fault hit the mapping the thread is touching, which the tables
 * know; any other SIGBUS kills the client as it would without a handler.
 */
static __thread sigjmp_buf guard_jmp;
static __thread volatile sig_atomic_t guard_armed;
static __thread volatile uintptr_t guard_lo, guard_hi;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	(void)ctx;
	if (guard_armed && si->si_code > 0 && a >= guard_lo && a < guard_hi) {
		guard_armed = 0;
		siglongjmp(guard_jmp, 1);
	}
	sigaction(sig, &dfl, NULL);
	raise(sig);
}

static void install_sigbus(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL))
		die("sigaction: %s", strerror(errno));
}

/*
 * One 32-bit access to word @at of mapping @m: a store of @v, or a load
 * into *@out.  True when it raised SIGBUS.
 */
static bool guarded_access(const struct map *m, size_t at, bool store, uint32_t v,
			   uint32_t *out)
{
	volatile uint32_t *w = (volatile uint32_t *)m->p + at;

	if (sigsetjmp(guard_jmp, 1))
		return true;
	guard_lo = (uintptr_t)m->p;
	guard_hi = guard_lo + m->len;
	guard_armed = 1;
	if (store)
		*w = v;
	else
		*out = *w;
	guard_armed = 0;
	return false;
}

static void make_map_room(struct thr *t);
static void unmap_one(struct thr *t, struct map m);

/*
 * c->lock held: the doorbell page of @ch, which the tables say is alive
 * and this file's, is gone (SIGBUS, or mmap() refused with EACCES).  The
 * racing thread cannot destroy a channel while we hold the lock, so this
 * is legitimate only when the watchdog stopped it, or a call we could not
 * follow destroyed it.  Returns the DB_SB_* reason, or -1 (a violation).
 */
static int db_revoked(struct thr *t, struct chan *ch, const char *what)
{
	struct drm_ppu_chan_status s = { .chid = ch->chid };
	int err = xioctl(t, OP_CHAN_STATUS, DRM_IOCTL_PPU_CHAN_STATUS, &s, true);

	if (err == ENOENT) {
		vlog(t, "  channel %u: %s; it is not ours any more: destroyed by a call we "
		     "could not follow", ch->chid, what);
		return DB_SB_UNTRACKED;
	}
	if (!err && s.state == DRM_PPU_CHAN_STATE_FAULTED &&
	    DRM_PPU_FAULT_INFO_KIND(s.fault_info) == DRM_PPU_FAULT_WATCHDOG)
		return DB_SB_WATCHDOG;
	violation(t, "%s on the doorbell page of channel %u, alive and ours (CHAN_STATUS %s, "
		  "state %u, fault_info %#x)", what, ch->chid, err_name(err), s.state,
		  s.fault_info);
	return -1;
}

/*
 * c->lock held: the legal mmap() of the page of @ch, in the tables, failed
 * with @err.  EACCES: judged as a SIGBUS; EINVAL (the object is gone): only
 * when the channel is no longer ours (a racing CHAN_DESTROY issued before
 * the id was handed out again can destroy the new channel).
 */
static void db_map_failed(struct thr *t, struct chan *ch, int err)
{
	struct drm_ppu_chan_status s = { .chid = ch->chid };

	if (err == EACCES) {
		db_revoked(t, ch, "mmap() of its doorbell page failed with EACCES");
	} else if (err == EINVAL) {
		err = xioctl(t, OP_CHAN_STATUS, DRM_IOCTL_PPU_CHAN_STATUS, &s, true);
		if (err != ENOENT)
			violation(t, "mmap() of the doorbell page of channel %u: EINVAL, but it "
				  "is ours (CHAN_STATUS %s, state %u)", ch->chid, err_name(err),
				  s.state);
	} else if (err != ENOMEM) {
		violation(t, "mmap() of the doorbell page of channel %u: %s", ch->chid,
			  err_name(err));
	}
}

/* c->lock held: an access through doorbell mapping @m raised SIGBUS. */
static void db_sigbus(struct thr *t, struct map *m, const char *what)
{
	struct chan *ch = chan_by_serial(t->c, m->db_serial);
	int why;

	if (m->db_gone)
		why = DB_SB_AGAIN;
	else if (!ch)
		why = DB_SB_DESTROYED;
	else
		why = db_revoked(t, ch, what);
	m->db_gone = true;
	vlog(t, "  %s through the doorbell page of channel %u at %p: SIGBUS (%s)", what,
	     m->db_chid, (void *)m->p, why < 0 ? "violation" :
	     (const char *[]){ "destroyed", "watchdog", "untracked destroy", "?",
			       "again" }[why]);
	if (why >= 0)
		t->st->db_sigbus[why]++;
}

/* c->lock held: an access through doorbell mapping @m went through. */
static void db_through(struct thr *t, struct map *m, const char *what)
{
	if (m->db_gone)
		violation(t, "%s through the doorbell page of channel %u went through after "
			  "a SIGBUS: the page came back", what, m->db_chid);
	else if (m->db_state == DB_REVOKED)
		violation(t, "%s through the doorbell page of channel %u went through after "
			  "its CHAN_DESTROY returned", what, m->db_chid);
	else if (!chan_by_serial(t->c, m->db_serial))
		t->st->db_stale_through++;
}

/*
 * c->lock held: a store reached the page of @ch, which the hardware showed
 * faulted: a dead channel ignores it, so it still shows the same fault.
 */
static void db_dead_check(struct thr *t, struct chan *ch)
{
	struct drm_ppu_chan_status s = { .chid = ch->chid };

	if (xioctl(t, OP_CHAN_STATUS, DRM_IOCTL_PPU_CHAN_STATUS, &s, true))
		return;
	if (s.state != DRM_PPU_CHAN_STATE_FAULTED || s.fault_info != ch->dead_info ||
	    s.fault_addr != ch->dead_addr)
		violation(t, "a doorbell page store changed faulted channel %u: state %u "
			  "fault_info %#x addr %#x, before FAULTED %#x %#x", ch->chid, s.state,
			  s.fault_info, s.fault_addr, ch->dead_info, ch->dead_addr);
	else
		t->st->db_dead_ignored++;
}

/* c->lock held: CHAN_STATUS showed channel @chid faulted by the hardware. */
static void chan_seen_dead(struct client *c, uint32_t chid, const struct drm_ppu_chan_status *s)
{
	struct chan *ch = chan_find(c, chid);

	if (ch && !ch->dead && s->state == DRM_PPU_CHAN_STATE_FAULTED &&
	    DRM_PPU_FAULT_INFO_KIND(s->fault_info) != DRM_PPU_FAULT_WATCHDOG) {
		ch->dead = true;
		ch->dead_info = s->fault_info;
		ch->dead_addr = s->fault_addr;
	}
}

/*
 * c->lock held: what a store through @m carries.  A clean file carries the
 * channel's GP_PUT again (it rings nothing new); others also garbage: in
 * the ring, beyond any ring, anything.
 */
static uint32_t db_value(struct thr *t, const struct map *m, bool *garbage)
{
	struct rng *r = &t->r;

	*garbage = !t->c->clean && pct(r, 60);
	if (!*garbage)
		return m->db_put;
	switch (rn(r, 4)) {
	case 0:
		return m->db_put + 1 + rn(r, 4);
	case 1:
		return (1u << DRM_PPU_CHAN_LOG2_ENTRIES_MAX) + rn(r, 1u << 20);
	case 2:
		return (uint32_t)rnd(r);
	default:
		return rn(r, 64);
	}
}

/*
 * c->lock held: one access through doorbell mapping @m (@ring: a store of
 * GP_PUT), judged.  True when it raised SIGBUS.
 */
static bool db_touch(struct thr *t, struct map *m, bool ring)
{
	struct chan *ch = chan_by_serial(t->c, m->db_serial);
	struct rng *r = &t->r;
	bool load = !ring && pct(r, 10), garbage = false;
	size_t at = ring || pct(r, 85) ? DRM_PPU_DOORBELL_GP_PUT / 4 : rn(r, PAGE / 4);
	uint32_t v = 0, got = 0;

	if (!(m->prot & PROT_WRITE))
		load = true;
	if (load && !(m->prot & PROT_READ))
		return false;
	if (!load) {
		v = db_value(t, m, &garbage);
		/* an AUTO_PUT ring runs whatever its memory holds */
		if (m->db_autoput)
			set_dirty(t, DR_AUTO_PUT);
		else if (garbage && at == DRM_PPU_DOORBELL_GP_PUT / 4)
			set_dirty(t, DR_DB_STORE);
	}
	if (guarded_access(m, at, !load, v, &got)) {
		db_sigbus(t, m, load ? "a load" : "a store");
		return true;
	}
	db_through(t, m, load ? "a load" : "a store");
	if (load) {
		/* the page's only register is write-only; the rest reads 0 */
		if (got)
			violation(t, "the doorbell page of channel %u reads %#x at %#zx", m->db_chid,
				  got, at * 4);
		t->st->db_reads++;
	} else {
		t->st->db_stores++;
		if (ch && ch->dead && at == DRM_PPU_DOORBELL_GP_PUT / 4)
			db_dead_check(t, ch);
	}
	return false;
}

/* c->lock held: record doorbell mapping @id of channel @ch. */
static void db_map_set(struct client *c, int id, struct chan *ch)
{
	struct map *m = map_find(c, id);

	m->kind = MAP_DB;
	m->db_serial = ch->serial;
	m->db_chid = ch->chid;
	m->db_autoput = ch->autoput;
	m->db_put = ch->put;
	m->db_state = DB_LIVE;
	if (ch->db_map < 0 || !map_find(c, ch->db_map))
		ch->db_map = id;
}

/*
 * An illegal mapping of the page of channel @serial: private, executable or
 * two pages.  It must fail with EINVAL (EPERM for PROT_EXEC where /dev is
 * noexec).
 */
static void db_illegal(struct thr *t, uint64_t serial)
{
	static const char *const kinds[] = { "private", "executable", "two-page" };
	struct client *c = t->c;
	int k = (int)rn(&t->r, 3), err;
	size_t len = k == 2 ? 2 * PAGE : PAGE;
	struct chan *ch;
	uint64_t t0;
	void *p;

	pthread_mutex_lock(&c->lock);
	ch = chan_by_serial(c, serial);
	if (!ch || !ch->db_off) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	t0 = now_ns();
	p = mmap(NULL, len, k == 1 ? PROT_READ | PROT_EXEC : PROT_READ | PROT_WRITE,
		 k == 0 ? MAP_PRIVATE : MAP_SHARED, c->fd, (off_t)ch->db_off);
	err = p == MAP_FAILED ? errno : 0;
	xrecord(t, OP_MMAP, err, t0);
	vlog(t, "  %s mapping of the doorbell page of channel %u: %s", kinds[k], ch->chid,
	     err_name(err));
	if (!err) {
		violation(t, "a %s mapping of the doorbell page of channel %u succeeded",
			  kinds[k], ch->chid);
		munmap(p, len);
	} else if (err == EINVAL || (k == 1 && err == EPERM)) {
		t->st->db_refused[DB_RF_OWN]++;
	} else if (err == EACCES) {
		if (db_revoked(t, ch, "a refused mapping (EACCES)") >= 0)
			t->st->db_refused[DB_RF_OWN]++;
	} else if (err != ENOMEM) {
		violation(t, "a %s mapping of the doorbell page of channel %u failed with %s, "
			  "not EINVAL", kinds[k], ch->chid, err_name(err));
	}
	pthread_mutex_unlock(&c->lock);
}

/*
 * Another client's doorbell page (sh->db_pub): only its owner may map it.
 * When its entry did not change around the mmap(), the owner had not begun
 * to destroy the channel, so the page object existed: EACCES.
 */
static void db_foreign(struct thr *t)
{
	struct client *c = t->c;
	uint32_t chid = rn(&t->r, c->nchan < 256 ? c->nchan : 256);
	uint64_t v1 = __atomic_load_n(&sh->db_pub[chid], __ATOMIC_SEQ_CST), v2, t0;
	uint64_t off = v1 & ~0xfffull;
	int owner = (int)((v1 >> 7) & 31), err;
	void *p;

	if (!off || owner == c->idx)
		return;
	t0 = now_ns();
	p = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 __atomic_load_n(&c->fd, __ATOMIC_RELAXED), (off_t)off);
	err = p == MAP_FAILED ? errno : 0;
	xrecord(t, OP_MMAP, err, t0);
	v2 = __atomic_load_n(&sh->db_pub[chid], __ATOMIC_SEQ_CST);
	vlog(t, "  client %d's doorbell page of channel %u (offset %#" PRIx64 "): %s%s", owner,
	     chid, off, err_name(err), v1 == v2 ? "" : " (it went away meanwhile)");
	if (!err)
		munmap(p, DRM_PPU_DOORBELL_SIZE);
	if (v1 == v2) {
		if (err == EACCES)
			t->st->db_refused[DB_RF_FOREIGN]++;
		else if (err != ENOMEM)
			violation(t, "mmap() of client %d's doorbell page of channel %u (offset "
				  "%#" PRIx64 "): %s, not EACCES", owner, chid, off,
				  err ? err_name(err) : "mapped");
	} else if (err) {
		t->st->db_refused[DB_RF_FOREIGN_RACING]++;
	} else {
		/* its offset may already be one of ours */
		t->st->db_foreign_unjudged++;
	}
}

/*
 * A new channel's doorbell page (@off from CHAN_CREATE): mapped the one
 * legal way and recorded; sometimes an illegal mapping first, or another
 * client's page.
 */
static void db_attach(struct thr *t, uint64_t serial, uint32_t chid, uint64_t off)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	int prot = pct(r, 90) ? PROT_READ | PROT_WRITE : PROT_WRITE, err, id;
	struct chan *ch;
	uint64_t t0;
	void *p;

	if (!off != !(c->features & DRM_PPU_FEATURE_USER_DOORBELL))
		violation(t, "CHAN_CREATE %u: doorbell_offset %#" PRIx64 " with features %#"
			  PRIx64, chid, off, c->features);
	if (!off)
		return;
	if (pct(r, 20))
		db_illegal(t, serial);
	if (pct(r, 20))
		db_foreign(t);
	make_map_room(t);
	pthread_mutex_lock(&c->lock);
	ch = chan_by_serial(c, serial);
	if (!ch) {
		/* the racing thread destroyed it already */
		pthread_mutex_unlock(&c->lock);
		return;
	}
	t0 = now_ns();
	p = mmap(NULL, DRM_PPU_DOORBELL_SIZE, prot, MAP_SHARED, c->fd, (off_t)off);
	err = p == MAP_FAILED ? errno : 0;
	xrecord(t, OP_MMAP, err, t0);
	if (err) {
		db_map_failed(t, ch, err);
		pthread_mutex_unlock(&c->lock);
		return;
	}
	id = map_add(c, p, DRM_PPU_DOORBELL_SIZE, prot, ch->bundle);
	if (id < 0) {
		pthread_mutex_unlock(&c->lock);
		unmap_one(t, (struct map){ .p = p, .len = DRM_PPU_DOORBELL_SIZE });
		return;
	}
	db_map_set(c, id, ch);
	db_publish(c, ch);
	t->st->db_maps++;
	vlog(t, "  channel %u: doorbell page %#" PRIx64 " at %p", chid, off, p);
	/* never executable, not even later */
	if (pct(r, 10)) {
		if (!mprotect(p, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_EXEC)) {
			violation(t, "mprotect() made the doorbell page of channel %u executable",
				  chid);
			mprotect(p, DRM_PPU_DOORBELL_SIZE, prot);
		} else if (errno == EACCES) {
			t->st->db_refused[DB_RF_MPROTECT]++;
		} else {
			violation(t, "mprotect(PROT_EXEC) of the doorbell page of channel %u: %s, "
				  "not EACCES", chid, err_name(errno));
		}
	}
	pthread_mutex_unlock(&c->lock);
}


/* ---- argument generators (they take c->lock themselves) ---- */

static uint32_t gen_pad(struct rng *r)
{
	if (pct(r, 92))
		return 0;
	return pct(r, 50) ? 1u << rn(r, 32) : (uint32_t)rnd(r);
}

/* 0, a valid combination of @valid, an unknown bit, or garbage. */
static uint32_t gen_flags(struct rng *r, uint32_t valid)
{
	uint32_t f = (uint32_t)rnd(r) & valid;

	switch (rn(r, 20)) {
	case 0:
		return f | (~valid & (1u << rn(r, 32)));
	case 1:
		return (uint32_t)rnd(r);
	case 2:
		return ~valid & -~valid;	/* the lowest unknown bit */
	default:
		return f;
	}
}

static uint32_t near32(struct rng *r, uint32_t v)
{
	switch (rn(r, 6)) {
	case 0:
		return v + 1;
	case 1:
		return v - 1;
	case 2:
		return 0;
	case 3:
		return UINT32_MAX;
	case 4:
		return v ^ (1u << rn(r, 32));
	default:
		return 0x80000000u;
	}
}

static uint32_t gen_handle(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint32_t h = 0;
	int k = (int)rn(r, 100);

	pthread_mutex_lock(&c->lock);
	if (k < 65 && c->nbos)
		h = c->bos[rn(r, (uint32_t)c->nbos)].handle;
	else if (k < 75 && c->nstale)
		h = c->stale_handles[rn(r, NSTALE)];
	else if (k < 88)
		h = near32(r, c->nbos ? c->bos[rn(r, (uint32_t)c->nbos)].handle : 1);
	else if (k < 95)
		h = rn(r, 64);
	else
		h = (uint32_t)rnd(r);
	pthread_mutex_unlock(&c->lock);
	return h;
}

static uint32_t gen_chid(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint32_t v;
	int k = (int)rn(r, 100);

	pthread_mutex_lock(&c->lock);
	if (k < 65 && c->nchans)
		v = c->chans[rn(r, (uint32_t)c->nchans)].chid;
	else if (k < 75 && c->nstale)
		v = c->stale_chids[rn(r, NSTALE)];
	else if (k < 85)
		v = rn(r, c->nchan + 1);	/* someone else's, or the driver's */
	else if (k < 95)
		v = (const uint32_t[]){ c->nchan, c->nchan - 1, c->nuser, 31, 32, 64,
					UINT32_MAX, 0x80000000u }[rn(r, 8)];
	else
		v = (uint32_t)rnd(r);
	pthread_mutex_unlock(&c->lock);
	return v;
}

static uint32_t gen_pool_id(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint32_t v;
	int k = (int)rn(r, 100);

	pthread_mutex_lock(&c->lock);
	if (k < 70 && c->npools)
		v = c->pools[rn(r, (uint32_t)c->npools)].id;
	else if (k < 80 && c->nstale)
		v = c->stale_pools[rn(r, NSTALE)];
	else if (k < 95)
		v = near32(r, c->npools ? c->pools[rn(r, (uint32_t)c->npools)].id : 1);
	else
		v = (uint32_t)rnd(r);
	pthread_mutex_unlock(&c->lock);
	return v;
}

static uint32_t gen_syncobj(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint32_t v;

	pthread_mutex_lock(&c->lock);
	if (pct(r, 75) && c->nsobjs)
		v = c->sobjs[rn(r, (uint32_t)c->nsobjs)];
	else if (pct(r, 60))
		v = near32(r, c->nsobjs ? c->sobjs[rn(r, (uint32_t)c->nsobjs)] : 1);
	else
		v = rn(r, 64);
	pthread_mutex_unlock(&c->lock);
	return v;
}

static uint64_t gen_size(struct rng *r)
{
	switch (rn(r, 40)) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return PAGE - 1;
	case 3:
		return PAGE + 1;
	case 4:
		return DRM_PPU_GEM_MAX_SIZE;
	case 5:
		return DRM_PPU_GEM_MAX_SIZE + 1;
	case 6:
		return UINT64_MAX;
	case 7:
		return 1ull << 32;
	case 8:
		return rnd(r);
	case 9:
		return (uint64_t)rn(r, 256) * PAGE + rn(r, PAGE);	/* up to 1 MiB */
	case 10:
	case 11:
		return (uint64_t)(5 + rn(r, 60)) * PAGE;
	default:
		return (uint64_t)(1 + rn(r, 4)) * PAGE - (pct(r, 20) ? rn(r, PAGE) : 0);
	}
}

/* A GPU address: of a mapping, near one, at the range's edges, or garbage. */
static uint64_t gen_va(struct thr *t, uint64_t *size_out)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint64_t va = 0, size = PAGE;
	int k = (int)rn(r, 100);

	pthread_mutex_lock(&c->lock);
	if (k < 60 && c->nvas) {
		struct vam *m = &c->vas[rn(r, (uint32_t)c->nvas)];

		va = m->va;
		size = m->size;
	} else if (k < 65 && c->nstale) {
		va = c->stale_vas[rn(r, NSTALE)];
	}
	pthread_mutex_unlock(&c->lock);
	if (k >= 65) {
		static const uint64_t edges[] = {
			0, DRM_PPU_VA_START - PAGE, DRM_PPU_VA_START, DRM_PPU_VA_END - PAGE,
			DRM_PPU_VA_END, DRM_PPU_VA_END + PAGE, 1ull << 32, UINT64_MAX & ~0xfffull,
			0xffffffffull, 0x80000000ull,
		};

		if (k < 80)
			va = edges[rn(r, sizeof(edges) / sizeof(edges[0]))];
		else if (k < 95)
			va = DRM_PPU_VA_START + (uint64_t)rn(r, 0xffe00) * PAGE;
		else
			va = rnd(r);
	} else if (pct(r, 15)) {
		va += pct(r, 50) ? PAGE : (pct(r, 50) ? 8 : size);
	}
	if (size_out)
		*size_out = size;
	return va;
}

static uint64_t gen_offset(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint64_t off = 0;
	int k = (int)rn(r, 100);

	pthread_mutex_lock(&c->lock);
	if (k < 40 && c->nbos)
		off = c->bos[rn(r, (uint32_t)c->nbos)].mmap_off;
	else if (k < 55 && c->nchans)
		off = pct(r, 50) ? c->chans[rn(r, (uint32_t)c->nchans)].userd_off :
		      c->chans[rn(r, (uint32_t)c->nchans)].db_off;
	else if (k < 70 && c->npools)
		off = c->pools[rn(r, (uint32_t)c->npools)].mmap_off;
	else if (k < 80 && c->nstale)
		off = c->stale_offs[rn(r, NSTALE)];
	pthread_mutex_unlock(&c->lock);
	if (k >= 80)
		off = pct(r, 50) ? (0x100000000ull + (uint64_t)rn(r, 1u << 20) * PAGE) : rnd(r) &
		      ~0xfffull;
	else if (pct(r, 10))
		off += PAGE;
	return off;
}

/* ---- how a generated struct reaches the kernel ---- */

/* The same ioctl number with a smaller or larger size, or another direction. */
static unsigned long mangle_cmd(struct rng *r, unsigned long cmd)
{
	unsigned int dir = _IOC_DIR(cmd), type = _IOC_TYPE(cmd), nr = _IOC_NR(cmd);
	unsigned int size = _IOC_SIZE(cmd);

	switch (rn(r, 8)) {
	case 0:
		size = 0;
		break;
	case 1:
		size = size > 8 ? size - 8 : 4;
		break;
	case 2:
		size = size / 2;
		break;
	case 3:
		size += 8;
		break;
	case 4:
		size = pct(r, 50) ? 0x3fff : size + 64 + rn(r, 4096);
		break;
	case 5:
		dir = rn(r, 4);
		break;
	case 6:
		/* another PPU ioctl's number: struct confusion */
		nr = DRM_COMMAND_BASE + rn(r, DRM_PPU_SEM_FENCE + 1);
		break;
	default:
		type = pct(r, 50) ? 'e' : rn(r, 256);
		break;
	}
	return _IOC(dir, type, nr, size);
}

/*
 * Bad pointers: NULL, low, the PROT_NONE or unmapped guard, a read-only
 * copy, kernel and non-canonical addresses, a struct straddling a guard.
 */
static void *bad_pointer(struct thr *t, size_t size, bool *ro)
{
	struct rng *r = &t->r;
	uint8_t *b = t->bad;

	*ro = false;
	switch (rn(r, 10)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)(1 + rn(r, 0xfff));
	case 2:
		return b + PAGE + rn(r, PAGE / 8) * 8;		/* PROT_NONE */
	case 3:
		/* unmapped: below any mapping of a static binary */
		return (void *)(uintptr_t)(0x20000 + rn(r, 16 * PAGE / 8) * 8);
	case 4:
		return (void *)(uintptr_t)0xffff888000000000ull;
	case 5:
		return (void *)(uintptr_t)(0xffffffffffffffffull - 7);
	case 6:
		return (void *)(uintptr_t)0x0000800000000000ull;
	case 7:
	case 8:
		*ro = true;
		return b + 2 * PAGE;
	default: {
		/* the struct (its head from t->buf) runs into the PROT_NONE page */
		size_t beyond = size >= 8 ? 4 * (1 + rn(r, (uint32_t)(size / 4))) : 4;

		if (beyond > size)
			beyond = size;
		memcpy(b + PAGE - size + beyond, t->buf, size - beyond);
		return b + PAGE - size + beyond;
	}
	}
}

/*
 * A call whose outcome we may not learn (wrong encoding, bad pointer) must
 * not create a large BO: a later guessed handle could bind it, and a bind
 * pins the whole BO.  Local BOs are cleared at ~0.1 s/MiB: small ones too.
 */
static void small_bo(uint8_t *arg)
{
	uint64_t size;

	memcpy(&size, arg, sizeof(size));
	if (size > 4 * PAGE) {
		size = PAGE;
		memcpy(arg, &size, sizeof(size));
	}
}

/* The first word of @arg as the kernel sees it with encoding @cmd (it zero-fills). */
static uint32_t carried_chid(unsigned long cmd, const uint8_t *arg)
{
	uint32_t w0 = 0;

	if (_IOC_DIR(cmd) & _IOC_WRITE)
		memcpy(&w0, arg, _IOC_SIZE(cmd) < 4 ? _IOC_SIZE(cmd) : 4);
	return w0;
}

/*
 * Never let confusion turn a struct into a long SEM_WAIT, a large BO, or a
 * known bug being avoided.
 */
static unsigned long bound_wait(struct thr *t, unsigned long cmd, uint8_t *arg)
{
	int64_t d = deadline_in(&t->r);

	if (_IOC_TYPE(cmd) != 'd')
		return cmd;
	if (_IOC_NR(cmd) == DRM_COMMAND_BASE + DRM_PPU_SEM_WAIT && _IOC_SIZE(cmd) >= 24)
		memcpy(arg + 16, &d, sizeof(d));
	if (_IOC_NR(cmd) == DRM_COMMAND_BASE + DRM_PPU_GEM_CREATE)
		small_bo(arg);
	if (_IOC_NR(cmd) == DRM_COMMAND_BASE + DRM_PPU_CHAN_DESTROY) {
		pthread_mutex_lock(&t->c->lock);
		chan_may_go(t->c, carried_chid(cmd, arg));
		pthread_mutex_unlock(&t->c->lock);
	}
	if (_IOC_NR(cmd) == DRM_COMMAND_BASE + DRM_PPU_CHAN_CREATE &&
	    (opt.avoid & AVOID_AUTOPUT_STORM))
		*(uint32_t *)arg &= ~DRM_PPU_CHAN_CREATE_AUTO_PUT;
	/* The kernel zero-fills what the encoding does not carry: pool 0. */
	if (_IOC_NR(cmd) == DRM_COMMAND_BASE + DRM_PPU_SEM_POOL_DESTROY &&
	    (opt.avoid & AVOID_POOL_DESTROY_0)) {
		if (!*(uint32_t *)arg)
			*(uint32_t *)arg = 1;
		if (_IOC_SIZE(cmd) < 4 || !(_IOC_DIR(cmd) & _IOC_WRITE))
			cmd = _IOC(_IOC_DIR(cmd) | _IOC_WRITE, 'd', _IOC_NR(cmd),
				   _IOC_SIZE(cmd) < 8 ? 8 : _IOC_SIZE(cmd));
	}
	return cmd;
}

struct ioc {
	int op;
	unsigned long cmd;
	size_t size;
	/* fills t->buf; may take c->lock */
	void (*gen)(struct thr *t, void *a);
	/* after a well-encoded call (err 0 or not); may take c->lock */
	void (*done)(struct thr *t, void *a, int err);
};

/*
 * A call we could not follow (wrong encoding, unknown number, a result that
 * could not be written back) succeeded: could it have hurt a submitting
 * channel, or made a channel that runs whatever its ring holds?  The
 * kernel read @arg as far as @cmd carries it and zeros beyond.
 */
static void raw_success(struct thr *t, unsigned long cmd, const uint8_t *arg, int why)
{
	struct client *c = t->c;
	uint32_t w0 = 0;
	uint64_t q0 = 0;
	struct chan *ch;

	if (_IOC_TYPE(cmd) == 'd' && _IOC_NR(cmd) == DRM_COMMAND_BASE + DRM_PPU_CHAN_DESTROY) {
		/* it destroyed the channel the kernel read (zeros past what was carried) */
		pthread_mutex_lock(&c->lock);
		chan_del(c, carried_chid(cmd, arg), DB_REVOKED);
		pthread_mutex_unlock(&c->lock);
		return;
	}
	if (_IOC_TYPE(cmd) != 'd' || !(_IOC_DIR(cmd) & _IOC_WRITE))
		return;
	if (_IOC_SIZE(cmd) >= 4)
		memcpy(&w0, arg, 4);
	if (_IOC_SIZE(cmd) >= 8)
		memcpy(&q0, arg, 8);
	pthread_mutex_lock(&c->lock);
	switch (_IOC_NR(cmd) - DRM_COMMAND_BASE) {
	case DRM_PPU_VM_UNBIND:
		if (bundle_va(c, q0))
			set_dirty(t, why);
		if (pool_va(c, q0))
			set_dirty(t, DR_POOL_VA_UNBOUND);
		break;
	case DRM_PPU_SEM_POOL_DESTROY:
		if (bundle_pool(c, w0))
			set_dirty(t, why);
		if (!pool_known(c, w0))
			set_dirty(t, DR_POOL_UNTRACKED);
		break;
	case DRM_PPU_CHAN_CREATE:
		if (w0 & DRM_PPU_CHAN_CREATE_AUTO_PUT)
			set_dirty(t, why);
		break;
	case DRM_PPU_DOORBELL:
		ch = chan_find(c, w0);
		if (ch && ch->autoput)
			set_dirty(t, why);
		break;
	}
	pthread_mutex_unlock(&c->lock);
}

/*
 * Runs one generated ioctl: usually as is, sometimes with a wrong encoding
 * or through a bad pointer.  Returns the error.
 */
static int run_ioc(struct thr *t, const struct ioc *d)
{
	struct rng *r = &t->r;
	int k = t->racer ? 100 : (int)rn(r, 100);
	int err;

	memset(t->buf, 0, ARGBUF);
	d->gen(t, t->buf);

	if (k < 6) {
		unsigned long cmd = mangle_cmd(r, d->cmd);

		t->mode = MODE_MANGLED;
		cmd = bound_wait(t, cmd, t->buf);
		err = xioctl(t, _IOC_TYPE(cmd) == 'd' && _IOC_NR(cmd) == _IOC_NR(d->cmd) ? d->op :
			     OP_PPU_BAD_NR, cmd, t->buf, false);
		/* The kernel read (and wrote) our struct as it is: keep the tables. */
		if (!err && _IOC_NR(cmd) == _IOC_NR(d->cmd) && _IOC_SIZE(cmd) >= d->size &&
		    (_IOC_DIR(cmd) & _IOC_READ) && (_IOC_DIR(cmd) & _IOC_WRITE) &&
		    _IOC_TYPE(cmd) == 'd')
			d->done(t, t->buf, 0);
		else if (!err)
			raw_success(t, cmd, t->buf, DR_WRONG_ENCODING);
	} else if (k < 12) {
		bool ro;
		void *p;

		if (d->op == OP_GEM_CREATE)
			small_bo(t->buf);
		p = bad_pointer(t, d->size, &ro);

		t->mode = MODE_BADPTR;
		if (ro) {
			memcpy(t->bad + 2 * PAGE, t->buf, d->size);
			mprotect(t->bad + 2 * PAGE, PAGE, PROT_READ);
		}
		err = xioctl(t, d->op, d->cmd, p, false);
		if (ro)
			mprotect(t->bad + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE);
		/* _IOW: the kernel did it (it could not write back to an _IOWR). */
		if (!err && ro)
			d->done(t, t->bad + 2 * PAGE, 0);
		else if (err == EFAULT && ro && d->op == OP_CHAN_CREATE)
			raw_success(t, d->cmd, t->buf, DR_BAD_POINTER);	/* done, not told */
	} else {
		t->mode = MODE_NORMAL;
		err = xioctl(t, d->op, d->cmd, t->buf, true);
		d->done(t, t->buf, err);
	}
	t->mode = MODE_NORMAL;
	return err;
}

/* ---- the PPU ioctls ---- */

static void gen_get_param(struct thr *t, void *a)
{
	struct drm_ppu_get_param *p = a;
	struct rng *r = &t->r;

	p->param = pct(r, 88) ? rn(r, PARAM_LAST + 1) :
		   near32(r, PARAM_LAST + 1);
	p->pad = gen_pad(r);
	p->value = pct(r, 90) ? 0 : rnd(r);
}

static void done_get_param(struct thr *t, void *a, int err)
{
	struct drm_ppu_get_param *p = a;
	struct client *c = t->c;

	if (err || p->param > PARAM_LAST ||
	    p->param == DRM_PPU_PARAM_CYCLE_COUNTER)
		return;
	if (p->value != c->caps[p->param])
		violation(t, "GET_PARAM %u changed: %#" PRIx64 " then %#" PRIx64, p->param,
			  c->caps[p->param], (uint64_t)p->value);
}

static void gen_gem_create(struct thr *t, void *a)
{
	struct drm_ppu_gem_create *p = a;
	struct client *c = t->c;
	struct rng *r = &t->r;

	p->size = gen_size(r);
	p->flags = pct(r, 90) ? 0 : gen_flags(r, DRM_PPU_GEM_CREATE_FLAGS);
	if ((p->flags & DRM_PPU_GEM_CREATE_LOCAL) && p->size <= c->lmem && p->size > 4 * PAGE)
		p->size = 1 + rn(r, 4 * PAGE);	/* a local BO is cleared: ~0.1 s/MiB */
	p->handle = pct(r, 90) ? 0 : (uint32_t)rnd(r);
}

static void close_handle(struct thr *t, uint32_t handle)
{
	struct drm_gem_close gc = { .handle = handle };

	xioctl(t, OP_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE, &gc, false);
}

static void done_gem_create(struct thr *t, void *a, int err)
{
	struct drm_ppu_gem_create *p = a;
	struct client *c = t->c;
	bool keep;

	if (err)
		return;
	if (!p->handle || p->size % PAGE || !p->size)
		violation(t, "GEM_CREATE returned handle %u size %#" PRIx64, p->handle,
			  (uint64_t)p->size);
	pthread_mutex_lock(&c->lock);
	bo_del_handle(c, p->handle);	/* a reused handle: the old entry is stale */
	keep = p->size <= BIG_BO && c->nbos < MAX_BOS;
	if (keep)
		c->bos[c->nbos++] = (struct bo){ .handle = p->handle, .size = p->size,
			.local = !!(p->flags & DRM_PPU_GEM_CREATE_LOCAL) };
	pthread_mutex_unlock(&c->lock);
	if (!keep)
		close_handle(t, p->handle);
}

static void gen_mmap_offset(struct thr *t, void *a)
{
	struct drm_ppu_gem_mmap_offset *p = a;

	p->handle = gen_handle(t);
	p->flags = pct(&t->r, 92) ? 0 : gen_flags(&t->r, 0);
	p->offset = pct(&t->r, 90) ? 0 : rnd(&t->r);
}

static void done_mmap_offset(struct thr *t, void *a, int err)
{
	struct drm_ppu_gem_mmap_offset *p = a;
	struct client *c = t->c;

	if (err)
		return;
	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < c->nbos; i++)
		if (c->bos[i].handle == p->handle)
			c->bos[i].mmap_off = p->offset;
	pthread_mutex_unlock(&c->lock);
}

static void gen_vm_bind(struct thr *t, void *a)
{
	struct drm_ppu_vm_bind *p = a;
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint64_t bo_size = PAGE;

	p->handle = gen_handle(t);
	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < c->nbos; i++)
		if (c->bos[i].handle == p->handle)
			bo_size = c->bos[i].size;
	pthread_mutex_unlock(&c->lock);

	p->flags = pct(r, 60) ? DRM_PPU_VM_BIND_VA_ALLOC :
		   (pct(r, 75) ? 0 : gen_flags(r, DRM_PPU_VM_BIND_FLAGS));
	if (p->flags & DRM_PPU_VM_BIND_VA_ALLOC)
		p->va = pct(r, 92) ? 0 : gen_va(t, NULL);
	else if (pct(r, 70))
		p->va = DRM_PPU_VA_START + (uint64_t)rn(r, 0xffe00) * PAGE;
	else
		p->va = gen_va(t, NULL);

	switch (rn(r, 12)) {
	case 0:
		p->bo_offset = bo_size;
		break;
	case 1:
		p->bo_offset = rn(r, (uint32_t)bo_size);
		break;
	case 2:
		p->bo_offset = rnd(r);
		break;
	case 3:
	case 4:
		p->bo_offset = (uint64_t)rn(r, (uint32_t)(bo_size / PAGE)) * PAGE;
		break;
	default:
		p->bo_offset = 0;
	}
	switch (rn(r, 12)) {
	case 0:
		p->size = 0;
		break;
	case 1:
		p->size = bo_size + PAGE;
		break;
	case 2:
		p->size = rnd(r);
		break;
	case 3:
		p->size = (uint64_t)0 - p->va;	/* wraps */
		break;
	case 4:
		p->size = PAGE + rn(r, 16);
		break;
	case 5:
	case 6:
		p->size = (uint64_t)(1 + rn(r, (uint32_t)(bo_size / PAGE))) * PAGE;
		break;
	default:
		p->size = bo_size > p->bo_offset ? bo_size - p->bo_offset : PAGE;
	}
}

static void done_vm_bind(struct thr *t, void *a, int err)
{
	struct drm_ppu_vm_bind *p = a;
	struct client *c = t->c;

	if (err)
		return;
	if (p->va % PAGE || p->va < DRM_PPU_VA_START || p->va + p->size > DRM_PPU_VA_END ||
	    p->va + p->size < p->va)
		violation(t, "VM_BIND put %#" PRIx64 "+%#" PRIx64 " outside the user range",
			  (uint64_t)p->va, (uint64_t)p->size);
	pthread_mutex_lock(&c->lock);
	vam_del(c, p->va);		/* the address is this mapping's now */
	if (c->nvas < MAX_VAS)
		c->vas[c->nvas++] = (struct vam){ .va = p->va, .size = p->size,
						  .handle = p->handle };
	pthread_mutex_unlock(&c->lock);
}

static void gen_vm_unbind(struct thr *t, void *a)
{
	struct drm_ppu_vm_unbind *p = a;
	struct rng *r = &t->r;
	uint64_t size;

	p->va = gen_va(t, &size);
	switch (rn(r, 10)) {
	case 0:
		p->size = size + PAGE;
		break;
	case 1:
		p->size = size - PAGE;
		break;
	case 2:
		p->size = rnd(r);
		break;
	default:
		p->size = size;
	}
	p->flags = pct(r, 92) ? 0 : gen_flags(r, 0);
	p->pad = gen_pad(r);
	/* A clean file keeps its submitting channels whole. */
	pthread_mutex_lock(&t->c->lock);
	for (int i = 0; i < 64 && t->c->clean &&
			(bundle_va(t->c, p->va) || pool_va(t->c, p->va)); i++)
		p->va += PAGE;
	pthread_mutex_unlock(&t->c->lock);
}

static void done_vm_unbind(struct thr *t, void *a, int err)
{
	struct drm_ppu_vm_unbind *p = a;
	struct client *c = t->c;

	if (err)
		return;
	pthread_mutex_lock(&c->lock);
	if (bundle_va(c, p->va))
		set_dirty(t, DR_VM_UNBIND);
	if (pool_va(c, p->va))
		set_dirty(t, DR_POOL_VA_UNBOUND);
	vam_del(c, p->va);
	pthread_mutex_unlock(&c->lock);
}

static void gen_chan_create(struct thr *t, void *a)
{
	struct drm_ppu_chan_create *p = a;
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint64_t size;
	uint32_t prio;

	switch (rn(r, 20)) {
	case 0:
	case 1:
	case 2:
	case 3:
		p->flags = DRM_PPU_CHAN_CREATE_PRIORITY;
		break;
	case 4:
	case 5:
	case 6:
		p->flags = DRM_PPU_CHAN_CREATE_COMPUTE |
			   (pct(r, 50) ? DRM_PPU_CHAN_CREATE_PRIORITY : 0);
		break;
	case 7:
		p->flags = pct(r, 30) ? DRM_PPU_CHAN_CREATE_AUTO_PUT :
			   gen_flags(r, DRM_PPU_CHAN_CREATE_FLAGS);
		break;
	case 8:
		p->flags = gen_flags(r, DRM_PPU_CHAN_CREATE_FLAGS);
		break;
	default:
		p->flags = 0;
	}
	p->gpfifo_va = gen_va(t, &size);
	if (pct(r, 85)) {
		uint32_t max = 1;

		while (max < DRM_PPU_CHAN_LOG2_ENTRIES_MAX && (8ull << (max + 1)) <= size)
			max++;
		p->log2_entries = 1 + rn(r, max);
	} else {
		p->log2_entries = (const uint32_t[]){ 0, 21, 20, 32, UINT32_MAX }[rn(r, 5)];
	}
	if (pct(r, 5))
		p->gpfifo_va += 4;
	prio = pct(r, 80) ? rn(r, c->root ? 64 : 33) : near32(r, 63);
	p->priority = (p->flags & DRM_PPU_CHAN_CREATE_PRIORITY) ? prio : (pct(r, 95) ? 0 : prio);
	if (p->flags & DRM_PPU_CHAN_CREATE_COMPUTE) {
		uint32_t top = (p->flags & DRM_PPU_CHAN_CREATE_PRIORITY) ? p->priority : 32;

		p->prio_min = pct(r, 85) ? rn(r, top + 1) : near32(r, top);
		p->max_depth = pct(r, 85) && top <= 63 ? rn(r, 64 - top + 1) : near32(r, 64);
	} else if (pct(r, 5)) {
		p->prio_min = (uint32_t)rnd(r) & 63;
		p->max_depth = rn(r, 65);
	}
	p->userd_offset = pct(r, 90) ? 0 : rnd(r);
	p->doorbell_offset = pct(r, 90) ? 0 : rnd(r);
	p->chid = pct(r, 90) ? 0 : (uint32_t)rnd(r);
	if (opt.avoid & AVOID_AUTOPUT_STORM)
		p->flags &= ~DRM_PPU_CHAN_CREATE_AUTO_PUT;
}

static void done_chan_create(struct thr *t, void *a, int err)
{
	struct drm_ppu_chan_create *p = a;
	struct client *c = t->c;
	uint64_t serial = 0;

	if (err)
		return;
	if (p->chid >= c->nuser)
		violation(t, "CHAN_CREATE gave chid %u, user channels 0..%u", p->chid,
			  c->nuser - 1);
	pthread_mutex_lock(&c->lock);
	/* a reused id: the old entry is stale, its channel destroyed */
	chan_del(c, p->chid, DB_REVOKED);
	if (c->nchans < MAX_CHANS) {
		serial = ++c->next_serial;
		c->chans[c->nchans++] = (struct chan){
			.chid = p->chid, .userd_off = p->userd_offset, .userd_map = -1,
			.compute = !!(p->flags & DRM_PPU_CHAN_CREATE_COMPUTE),
			.autoput = !!(p->flags & DRM_PPU_CHAN_CREATE_AUTO_PUT),
			.ring_map = -1, .pb_map = -1, .serial = serial,
			.db_off = p->doorbell_offset, .db_map = -1,
		};
	} else if (p->flags & DRM_PPU_CHAN_CREATE_AUTO_PUT) {
		set_dirty(t, DR_CHAN_UNTRACKED);	/* a near-valid id may ring it */
	}
	pthread_mutex_unlock(&c->lock);
	if (serial)
		db_attach(t, serial, p->chid, p->doorbell_offset);
}

static void gen_chan_id_pad(struct thr *t, void *a)
{
	uint32_t *p = a;	/* chid, pad|flags: the same layout for three ioctls */

	p[0] = gen_chid(t);
	p[1] = gen_pad(&t->r);
}

/* Submitting channels are worth more alive: spare them more often than not. */
static bool spare_bundle(struct thr *t, uint32_t chid)
{
	struct chan *ch;
	bool spare;

	pthread_mutex_lock(&t->c->lock);
	ch = chan_find(t->c, chid);
	spare = ch && ch->bundle && pct(&t->r, 60);
	pthread_mutex_unlock(&t->c->lock);
	return spare;
}

static void gen_chan_destroy(struct thr *t, void *a)
{
	gen_chan_id_pad(t, a);
	if (spare_bundle(t, *(uint32_t *)a))
		gen_chan_id_pad(t, a);
	pthread_mutex_lock(&t->c->lock);
	chan_may_go(t->c, *(uint32_t *)a);
	pthread_mutex_unlock(&t->c->lock);
}

static void destroy_note(struct thr *t, uint32_t chid, int err)
{
	if (err == ETIMEDOUT) {
		t->st->destroy_timeouts++;
		printf("fuzz: NOTE %s #%" PRIu64 ": CHAN_DESTROY %u timed out: the id stays "
		       "reserved until the driver is unloaded\n", t->tag, t->seq, chid);
		fflush(stdout);
	}
}

static void done_chan_destroy(struct thr *t, void *a, int err)
{
	struct drm_ppu_chan_destroy *p = a;
	struct client *c = t->c;

	destroy_note(t, p->chid, err);
	if (err && err != ETIMEDOUT)
		return;
	pthread_mutex_lock(&c->lock);
	chan_del(c, p->chid, DB_REVOKED);
	pthread_mutex_unlock(&c->lock);
}

/*
 * CHAN_DESTROY of channel @serial, which already left the tables (in file
 * generation @gen), returned @err: once it succeeded its page is revoked,
 * unless the file changed meanwhile (then we cannot tell which file the
 * call went to).
 */
static void destroyed_left(struct thr *t, uint32_t chid, uint64_t serial, unsigned int gen,
			   int err)
{
	destroy_note(t, chid, err);
	if (err && err != ETIMEDOUT)
		return;
	pthread_mutex_lock(&t->c->lock);
	if (t->c->gen == gen)
		db_orphan(t->c, serial, DB_REVOKED);
	pthread_mutex_unlock(&t->c->lock);
}

/* A clean file's channel must never fault: check with CHAN_STATUS. */
static void isolation_check(struct thr *t, uint32_t chid, const char *after)
{
	struct drm_ppu_chan_status s = { .chid = chid };
	struct client *c = t->c;
	bool clean;
	int err;

	err = xioctl(t, OP_CHAN_STATUS, DRM_IOCTL_PPU_CHAN_STATUS, &s, true);
	pthread_mutex_lock(&c->lock);
	clean = c->clean && !c->dirty;
	if (!err)
		chan_seen_dead(c, chid, &s);
	pthread_mutex_unlock(&c->lock);
	if (!err && clean)
		t->st->clean_checks++;
	if (!err && clean && s.state == DRM_PPU_CHAN_STATE_FAULTED)
		violation(t, "channel %u of a clean file faulted (%s): info %#x addr %#x data "
			  "%#x gp_get %u gp_put %u", chid, after, s.fault_info, s.fault_addr,
			  s.fault_data, s.gp_get, s.gp_put);
	/*
	 * In any file: -EIO says the channel is dead; if it is still this
	 * file's (destroyed: ENOENT), the hardware must show the fault.
	 */
	if (!err && s.state != DRM_PPU_CHAN_STATE_FAULTED) {
		if (opt.avoid & AVOID_STALE_FAULT) {
			t->st->stale_faults++;
			vlog(t, "  known bug stale-fault: channel %u %s, hardware state %u",
			     chid, after, s.state);
		} else {
			violation(t, "channel %u: %s, but its hardware state is %u, not "
				  "FAULTED (fault_info %#x gp_get %u gp_put %u)", chid, after,
				  s.state, s.fault_info, s.gp_get, s.gp_put);
		}
	}
}

static void gen_doorbell(struct thr *t, void *a)
{
	struct drm_ppu_doorbell *p = a;
	struct client *c = t->c;
	struct chan *ch;

	gen_chan_id_pad(t, a);
	pthread_mutex_lock(&c->lock);
	ch = chan_find(c, p->chid);
	/* An AUTO_PUT ring runs whatever its memory holds. */
	if (ch && ch->autoput)
		set_dirty(t, DR_AUTO_PUT);
	pthread_mutex_unlock(&c->lock);
}

static void done_doorbell(struct thr *t, void *a, int err)
{
	struct drm_ppu_doorbell *p = a;

	if (err == EIO)
		isolation_check(t, p->chid, "doorbell -EIO");
}

static void done_chan_status(struct thr *t, void *a, int err)
{
	struct drm_ppu_chan_status *p = a;
	struct client *c = t->c;
	bool clean;

	if (err)
		return;
	pthread_mutex_lock(&c->lock);
	clean = c->clean && !c->dirty;
	/* (a mangled call's chid may not be the one we asked about) */
	if (t->mode == MODE_NORMAL)
		chan_seen_dead(c, p->chid, p);
	pthread_mutex_unlock(&c->lock);
	if (clean)
		t->st->clean_checks++;
	if (clean && p->state == DRM_PPU_CHAN_STATE_FAULTED)
		violation(t, "channel %u of a clean file is faulted: info %#x addr %#x data %#x",
			  p->chid, p->fault_info, p->fault_addr, p->fault_data);
	if (p->state > DRM_PPU_CHAN_STATE_WFI_WAIT)
		violation(t, "CHAN_STATUS %u: state %u", p->chid, p->state);
}

static void gen_pool_create(struct thr *t, void *a)
{
	struct drm_ppu_sem_pool_create *p = a;
	struct rng *r = &t->r;

	switch (rn(r, 20)) {
	case 0:
		p->count = 0;
		break;
	case 1:
		p->count = DRM_PPU_SEM_POOL_MAX_COUNT;
		break;
	case 2:
		p->count = DRM_PPU_SEM_POOL_MAX_COUNT + 1;
		break;
	case 3:
		p->count = (uint32_t)rnd(r);
		break;
	case 4:
		p->count = 1 + rn(r, DRM_PPU_SEM_POOL_MAX_COUNT);
		break;
	default:
		p->count = 1 + rn(r, 64);
	}
	p->flags = pct(r, 92) ? 0 : gen_flags(r, 0);
	p->pad = gen_pad(r);
	if (pct(r, 6))
		p->va = rnd(r);
	if (pct(r, 6))
		p->mmap_offset = rnd(r);
	if (pct(r, 6))
		p->pool = (uint32_t)rnd(r);
}

static void done_pool_create(struct thr *t, void *a, int err)
{
	struct drm_ppu_sem_pool_create *p = a;
	struct client *c = t->c;
	uint64_t size = ((uint64_t)p->count * DRM_PPU_SEM_BYTES + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	bool keep;

	if (err)
		return;
	if (!p->pool || p->va % PAGE || p->va < DRM_PPU_VA_START ||
	    p->va + size > DRM_PPU_VA_END || !p->mmap_offset)
		violation(t, "SEM_POOL_CREATE returned pool %u va %#" PRIx64 " offset %#" PRIx64,
			  p->pool, (uint64_t)p->va, (uint64_t)p->mmap_offset);
	pthread_mutex_lock(&c->lock);
	/* an id or address the kernel hands out again: our old entry is stale */
	for (int i = c->npools - 1; i >= 0; i--)
		if (c->pools[i].id == p->pool)
			DEL(c->pools, c->npools, i);
	vam_del(c, p->va);
	keep = c->npools < MAX_POOLS;
	if (keep) {
		c->pools[c->npools++] = (struct pool){ .id = p->pool, .count = p->count,
			.va = p->va, .size = size, .mmap_off = p->mmap_offset };
		if (c->nvas < MAX_VAS)
			c->vas[c->nvas++] = (struct vam){ .va = p->va, .size = size,
							  .handle = p->pool, .pool = true };
	}
	pthread_mutex_unlock(&c->lock);
	if (!keep) {
		struct drm_ppu_sem_pool_destroy d = { .pool = p->pool };

		xioctl(t, OP_SEM_POOL_DESTROY, DRM_IOCTL_PPU_SEM_POOL_DESTROY, &d, true);
	}
}

static void gen_pool_destroy(struct thr *t, void *a)
{
	struct drm_ppu_sem_pool_destroy *p = a;

	p->pool = gen_pool_id(t);
	if (!p->pool && (opt.avoid & AVOID_POOL_DESTROY_0))
		p->pool = 1;
	p->pad = gen_pad(&t->r);
	pthread_mutex_lock(&t->c->lock);
	if (t->c->clean && bundle_pool(t->c, p->pool))
		p->pool = 0x7ffffff0;
	pthread_mutex_unlock(&t->c->lock);
}

static void done_pool_destroy(struct thr *t, void *a, int err)
{
	struct drm_ppu_sem_pool_destroy *p = a;

	if (err)
		return;
	pthread_mutex_lock(&t->c->lock);
	/* one we do not know: its address may have been unbound and reused */
	if (!pool_known(t->c, p->pool))
		set_dirty(t, DR_POOL_UNTRACKED);
	pool_del(t, p->pool);
	pthread_mutex_unlock(&t->c->lock);
}

/* pool, index, value, cond for SEM_WAIT and SEM_FENCE */
static void gen_sem_cond(struct thr *t, uint32_t *pool, uint32_t *index, uint32_t *value,
			 uint32_t *cond)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint32_t count = 1;

	*pool = gen_pool_id(t);
	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < c->npools; i++)
		if (c->pools[i].id == *pool)
			count = c->pools[i].count;
	pthread_mutex_unlock(&c->lock);
	*index = pct(r, 85) ? rn(r, count) : near32(r, count);
	*value = pct(r, 30) ? 0 : (pct(r, 50) ? rn(r, 8) : (uint32_t)rnd(r));
	*cond = pct(r, 92) ? rn(r, 2) : near32(r, 2);
}

/* A copy of a random submitting channel, if there is one. */
static bool pick_bundle(struct thr *t, struct chan *out)
{
	struct client *c = t->c;
	int idx[MAX_CHANS], n = 0;

	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < c->nchans; i++)
		if (c->chans[i].bundle)
			idx[n++] = i;
	if (n)
		*out = c->chans[idx[rn(&t->r, (uint32_t)n)]];
	pthread_mutex_unlock(&c->lock);
	return n > 0;
}

static void gen_sem_wait(struct thr *t, void *a)
{
	struct drm_ppu_sem_wait *p = a;
	struct rng *r = &t->r;
	struct chan ch;

	if (pct(r, 30) && pick_bundle(t, &ch)) {
		/* on work of a channel: done, or maybe soon */
		p->pool = ch.pool_id;
		p->index = rn(r, 4);
		p->value = ch.seq + rn(r, 2);
		p->cond = DRM_PPU_SEM_WAIT_GEQ;
		p->timeout_ns = (int64_t)(now_ns() + rn(r, 10000000));
		p->flags = DRM_PPU_SEM_WAIT_CHAN;
		p->chid = ch.chid;
		return;
	}
	gen_sem_cond(t, &p->pool, &p->index, &p->value, &p->cond);
	p->timeout_ns = deadline_in(r);
	p->flags = pct(r, 50) ? DRM_PPU_SEM_WAIT_CHAN : (pct(r, 85) ? 0 :
		   gen_flags(r, DRM_PPU_SEM_WAIT_FLAGS));
	p->chid = (p->flags & DRM_PPU_SEM_WAIT_CHAN) || pct(r, 5) ? gen_chid(t) : 0;
}

static void done_sem_wait(struct thr *t, void *a, int err)
{
	struct drm_ppu_sem_wait *p = a;

	if (err == EIO && (p->flags & DRM_PPU_SEM_WAIT_CHAN))
		isolation_check(t, p->chid, "SEM_WAIT -EIO");
}

static void sobj_add(struct thr *t, uint32_t h);

/* A syncobj of the table, made if there is none. */
static uint32_t live_syncobj(struct thr *t)
{
	struct client *c = t->c;
	struct drm_syncobj_create sc = { 0 };
	uint32_t h = 0;

	pthread_mutex_lock(&c->lock);
	if (c->nsobjs)
		h = c->sobjs[rn(&t->r, (uint32_t)c->nsobjs)];
	pthread_mutex_unlock(&c->lock);
	if (h)
		return h;
	if (!xioctl(t, OP_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_CREATE, &sc, false))
		sobj_add(t, sc.handle);
	return sc.handle;
}

static void xfd_add(struct thr *t, int fd, int kind);

/* After a fence went in: wait for it a little, or export it as a sync_file. */
static void done_sem_fence(struct thr *t, void *a, int err)
{
	struct drm_ppu_sem_fence *p = a;
	struct rng *r = &t->r;

	if (err)
		return;
	if (pct(r, 40)) {
		struct drm_syncobj_wait w = {
			.handles = (uint64_t)(uintptr_t)&p->syncobj, .count_handles = 1,
			.timeout_nsec = (int64_t)(now_ns() + rn(r, 5000000)),
		};

		xioctl(t, OP_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_WAIT, &w, false);
	} else if (pct(r, 40)) {
		struct drm_syncobj_handle h = {
			.handle = p->syncobj, .fd = -1,
			.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		};

		if (!xioctl(t, OP_SYNCOBJ_HANDLE_TO_FD, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h,
			    false) && h.fd >= 0)
			xfd_add(t, h.fd, XFD_SYNC_FILE);
	}
}

static void gen_sem_fence(struct thr *t, void *a)
{
	struct drm_ppu_sem_fence *p = a;
	struct rng *r = &t->r;
	struct chan ch;

	if (pct(r, 40) && pick_bundle(t, &ch)) {
		/* a fence for work of a channel: signals, or errors when it dies */
		p->pool = ch.pool_id;
		p->index = rn(r, 4);
		p->value = ch.seq + rn(r, 3);
		p->cond = pct(r, 80) ? DRM_PPU_SEM_WAIT_GEQ : DRM_PPU_SEM_WAIT_EQ;
		p->flags = pct(r, 70) ? DRM_PPU_SEM_WAIT_CHAN : 0;
		p->chid = p->flags ? ch.chid : 0;
		p->syncobj = live_syncobj(t);
		return;
	}
	gen_sem_cond(t, &p->pool, &p->index, &p->value, &p->cond);
	p->flags = pct(r, 50) ? DRM_PPU_SEM_WAIT_CHAN : (pct(r, 85) ? 0 :
		   gen_flags(r, DRM_PPU_SEM_WAIT_FLAGS));
	p->chid = (p->flags & DRM_PPU_SEM_WAIT_CHAN) || pct(r, 5) ? gen_chid(t) : 0;
	p->syncobj = gen_syncobj(t);
	p->pad = gen_pad(r);
}

enum {
	I_GET_PARAM, I_GEM_CREATE, I_MMAP_OFFSET, I_VM_BIND, I_VM_UNBIND, I_CHAN_CREATE,
	I_CHAN_DESTROY, I_DOORBELL, I_CHAN_STATUS, I_POOL_CREATE, I_POOL_DESTROY, I_SEM_WAIT,
	I_SEM_FENCE, NIOCS
};

static const struct ioc iocs[NIOCS] = {
	[I_GET_PARAM] = { OP_GET_PARAM, DRM_IOCTL_PPU_GET_PARAM,
			  sizeof(struct drm_ppu_get_param), gen_get_param, done_get_param },
	[I_GEM_CREATE] = { OP_GEM_CREATE, DRM_IOCTL_PPU_GEM_CREATE,
			   sizeof(struct drm_ppu_gem_create), gen_gem_create, done_gem_create },
	[I_MMAP_OFFSET] = { OP_GEM_MMAP_OFFSET, DRM_IOCTL_PPU_GEM_MMAP_OFFSET,
			    sizeof(struct drm_ppu_gem_mmap_offset), gen_mmap_offset,
			    done_mmap_offset },
	[I_VM_BIND] = { OP_VM_BIND, DRM_IOCTL_PPU_VM_BIND, sizeof(struct drm_ppu_vm_bind),
			gen_vm_bind, done_vm_bind },
	[I_VM_UNBIND] = { OP_VM_UNBIND, DRM_IOCTL_PPU_VM_UNBIND,
			  sizeof(struct drm_ppu_vm_unbind), gen_vm_unbind, done_vm_unbind },
	[I_CHAN_CREATE] = { OP_CHAN_CREATE, DRM_IOCTL_PPU_CHAN_CREATE,
			    sizeof(struct drm_ppu_chan_create), gen_chan_create, done_chan_create },
	[I_CHAN_DESTROY] = { OP_CHAN_DESTROY, DRM_IOCTL_PPU_CHAN_DESTROY,
			     sizeof(struct drm_ppu_chan_destroy), gen_chan_destroy,
			     done_chan_destroy },
	[I_DOORBELL] = { OP_DOORBELL, DRM_IOCTL_PPU_DOORBELL, sizeof(struct drm_ppu_doorbell),
			 gen_doorbell, done_doorbell },
	[I_CHAN_STATUS] = { OP_CHAN_STATUS, DRM_IOCTL_PPU_CHAN_STATUS,
			    sizeof(struct drm_ppu_chan_status), gen_chan_id_pad, done_chan_status },
	[I_POOL_CREATE] = { OP_SEM_POOL_CREATE, DRM_IOCTL_PPU_SEM_POOL_CREATE,
			    sizeof(struct drm_ppu_sem_pool_create), gen_pool_create,
			    done_pool_create },
	[I_POOL_DESTROY] = { OP_SEM_POOL_DESTROY, DRM_IOCTL_PPU_SEM_POOL_DESTROY,
			     sizeof(struct drm_ppu_sem_pool_destroy), gen_pool_destroy,
			     done_pool_destroy },
	[I_SEM_WAIT] = { OP_SEM_WAIT, DRM_IOCTL_PPU_SEM_WAIT, sizeof(struct drm_ppu_sem_wait),
			 gen_sem_wait, done_sem_wait },
	[I_SEM_FENCE] = { OP_SEM_FENCE, DRM_IOCTL_PPU_SEM_FENCE,
			  sizeof(struct drm_ppu_sem_fence), gen_sem_fence, done_sem_fence },
};

/* Driver numbers the driver does not have, and the end of the range. */
static void act_bad_nr(struct thr *t)
{
	struct rng *r = &t->r;
	unsigned int nr = pct(r, 50) ? DRM_COMMAND_BASE + DRM_PPU_SEM_FENCE + 1 + rn(r, 4) :
			  DRM_COMMAND_BASE + rn(r, DRM_COMMAND_END - DRM_COMMAND_BASE);
	unsigned long cmd = _IOC(rn(r, 4), 'd', nr, pct(r, 50) ? 8 * rn(r, 8) : rn(r, 0x4000));

	memset(t->buf, 0, ARGBUF);
	if (pct(r, 30))
		for (int i = 0; i < 64; i++)
			t->buf[i] = (uint8_t)rnd(r);
	t->mode = MODE_MANGLED;
	cmd = bound_wait(t, cmd, t->buf);
	if (!xioctl(t, OP_PPU_BAD_NR, cmd, t->buf, false))
		raw_success(t, cmd, t->buf, DR_BAD_NR);
	t->mode = MODE_NORMAL;
}

/* ---- generic DRM ioctls ---- */

static void act_gem_close(struct thr *t)
{
	struct drm_gem_close gc = { .handle = gen_handle(t), .pad = gen_pad(&t->r) };

	if (!xioctl(t, OP_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE, &gc, false)) {
		pthread_mutex_lock(&t->c->lock);
		bo_del_handle(t->c, gc.handle);
		pthread_mutex_unlock(&t->c->lock);
	}
}

static void xfd_add(struct thr *t, int fd, int kind)
{
	struct client *c = t->c;
	int old = -1;

	pthread_mutex_lock(&c->lock);
	if (c->nxfds == MAX_XFDS) {
		int i = (int)rn(&t->r, MAX_XFDS);

		old = c->xfds[i].fd;
		DEL(c->xfds, c->nxfds, i);
	}
	c->xfds[c->nxfds++] = (struct xfd){ .fd = fd, .kind = kind };
	pthread_mutex_unlock(&c->lock);
	if (old >= 0) {
		uint64_t t0 = now_ns();

		xrecord(t, OP_CLOSE, close(old) ? errno : 0, t0);
	}
}

/* An fd of our exported ones, the render node, or garbage. */
static int gen_fd(struct thr *t, int kind)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	int fd = -1;

	pthread_mutex_lock(&c->lock);
	if (c->nxfds && pct(r, 70)) {
		int i = (int)rn(r, (uint32_t)c->nxfds);

		for (int j = 0; j < c->nxfds; j++)
			if (c->xfds[(i + j) % c->nxfds].kind == kind) {
				i = (i + j) % c->nxfds;
				break;
			}
		fd = c->xfds[i].fd;
	} else if (pct(r, 50)) {
		fd = c->fd;
	} else {
		fd = (const int[]){ -1, 0, 1, 2, 1023, INT32_MAX }[rn(r, 6)];
	}
	pthread_mutex_unlock(&c->lock);
	return fd;
}

static void act_prime(struct thr *t)
{
	struct drm_prime_handle p = { 0 };
	struct rng *r = &t->r;

	if (pct(r, 50)) {
		p.handle = gen_handle(t);
		p.flags = pct(r, 70) ? DRM_CLOEXEC | (pct(r, 50) ? DRM_RDWR : 0) : (uint32_t)rnd(r);
		p.fd = -1;
		if (!xioctl(t, OP_PRIME_HANDLE_TO_FD, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p, false) &&
		    p.fd >= 0)
			xfd_add(t, p.fd, XFD_PRIME);
	} else {
		p.fd = gen_fd(t, XFD_PRIME);
		p.flags = pct(r, 90) ? 0 : (uint32_t)rnd(r);
		xioctl(t, OP_PRIME_FD_TO_HANDLE, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p, false);
	}
}

static void sobj_del(struct client *c, uint32_t h)
{
	for (int i = 0; i < c->nsobjs; i++)
		if (c->sobjs[i] == h) {
			DEL(c->sobjs, c->nsobjs, i);
			return;
		}
}

static void sobj_add(struct thr *t, uint32_t h)
{
	struct client *c = t->c;
	bool keep;

	pthread_mutex_lock(&c->lock);
	sobj_del(c, h);
	keep = c->nsobjs < MAX_SOBJS;
	if (keep)
		c->sobjs[c->nsobjs++] = h;
	pthread_mutex_unlock(&c->lock);
	if (!keep) {
		struct drm_syncobj_destroy d = { .handle = h };

		xioctl(t, OP_SYNCOBJ_DESTROY, DRM_IOCTL_SYNCOBJ_DESTROY, &d, false);
	}
}

/* An array of syncobj handles for WAIT, RESET, SIGNAL: maybe at a bad address. */
static uint64_t gen_handles(struct thr *t, uint32_t *count)
{
	struct rng *r = &t->r;
	uint32_t *h = (uint32_t *)(t->buf + 4096);
	uint32_t n = pct(r, 85) ? 1 + rn(r, 4) : (const uint32_t[]){ 0, 64, 1024, 4096 }[rn(r, 4)];
	bool ro;

	for (uint32_t i = 0; i < n && i < 1024; i++)
		h[i] = gen_syncobj(t);
	*count = n;
	if (n > 1024)
		return (uint64_t)(uintptr_t)h;		/* runs into garbage, still mapped */
	if (pct(r, 8))
		return (uint64_t)(uintptr_t)bad_pointer(t, n * 4, &ro);
	return (uint64_t)(uintptr_t)h;
}

static void act_syncobj(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;

	switch (rn(r, 9)) {
	case 0:
	case 1: {
		struct drm_syncobj_create s = {
			.flags = pct(r, 85) ? (pct(r, 30) ? DRM_SYNCOBJ_CREATE_SIGNALED : 0) :
				 (uint32_t)rnd(r),
		};

		if (!xioctl(t, OP_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_CREATE, &s, false))
			sobj_add(t, s.handle);
		break;
	}
	case 2: {
		struct drm_syncobj_destroy s = { .handle = gen_syncobj(t), .pad = gen_pad(r) };

		if (!xioctl(t, OP_SYNCOBJ_DESTROY, DRM_IOCTL_SYNCOBJ_DESTROY, &s, false)) {
			pthread_mutex_lock(&c->lock);
			sobj_del(c, s.handle);
			pthread_mutex_unlock(&c->lock);
		}
		break;
	}
	case 3: {
		struct drm_syncobj_wait w = { 0 };

		w.handles = gen_handles(t, &w.count_handles);
		w.timeout_nsec = deadline_in(r);
		w.flags = pct(r, 90) ? (uint32_t)rnd(r) & 3 : (uint32_t)rnd(r);
		w.pad = gen_pad(r);
		xioctl(t, OP_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_WAIT, &w, false);
		break;
	}
	case 4: {
		struct drm_syncobj_array a = { 0 };
		bool sig = pct(r, 50);

		a.handles = gen_handles(t, &a.count_handles);
		a.pad = gen_pad(r);
		xioctl(t, sig ? OP_SYNCOBJ_SIGNAL : OP_SYNCOBJ_RESET,
		       sig ? DRM_IOCTL_SYNCOBJ_SIGNAL : DRM_IOCTL_SYNCOBJ_RESET, &a, false);
		break;
	}
	case 5:
	case 6: {
		struct drm_syncobj_handle h = { .handle = gen_syncobj(t), .fd = -1 };
		const uint32_t export = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;

		h.flags = pct(r, 90) ? (pct(r, 60) ? export : 0) : (uint32_t)rnd(r);
		h.pad = gen_pad(r);
		if (!xioctl(t, OP_SYNCOBJ_HANDLE_TO_FD, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h,
			    false) && h.fd >= 0)
			xfd_add(t, h.fd, (h.flags & export) ? XFD_SYNC_FILE : XFD_SYNCOBJ);
		break;
	}
	case 7: {
		struct drm_syncobj_handle h = { 0 };
		const uint32_t import_flag = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
		bool import = pct(r, 50);

		h.fd = gen_fd(t, import ? XFD_SYNC_FILE : XFD_SYNCOBJ);
		h.flags = pct(r, 90) ? (import ? import_flag : 0) : (uint32_t)rnd(r);
		h.handle = import ? gen_syncobj(t) : (pct(r, 90) ? 0 : (uint32_t)rnd(r));
		h.pad = gen_pad(r);
		if (!xioctl(t, OP_SYNCOBJ_FD_TO_HANDLE, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h,
			    false) && !(h.flags & import_flag))
			sobj_add(t, h.handle);
		break;
	}
	default: {
		/* The driver has no timelines: these must be refused cleanly. */
		struct drm_syncobj_timeline_wait w = { 0 };
		uint64_t *points = (uint64_t *)(t->buf + 8192);

		w.handles = gen_handles(t, &w.count_handles);
		w.points = (uint64_t)(uintptr_t)points;
		w.timeout_nsec = deadline_in(r);
		w.flags = (uint32_t)rnd(r) & 7;
		xioctl(t, OP_SYNCOBJ_TIMELINE, pct(r, 50) ? DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT :
		       DRM_IOCTL_SYNCOBJ_QUERY, &w, false);
		break;
	}
	}
}

/* Exported fds: fence info, poll, close. */
static void act_xfd(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	struct xfd x;
	int i;
	uint64_t t0;

	pthread_mutex_lock(&c->lock);
	if (!c->nxfds) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	i = (int)rn(r, (uint32_t)c->nxfds);
	x = c->xfds[i];
	if (pct(r, 30))
		DEL(c->xfds, c->nxfds, i);
	else
		i = -1;
	pthread_mutex_unlock(&c->lock);

	if (i >= 0) {
		t0 = now_ns();
		xrecord(t, OP_CLOSE, close(x.fd) ? errno : 0, t0);
		return;
	}
	if (pct(r, 50)) {
		struct sync_file_info info = { 0 };
		struct sync_fence_info fi[2];

		if (pct(r, 50)) {
			info.num_fences = 1 + rn(r, 2);
			info.sync_fence_info = (uint64_t)(uintptr_t)fi;
		}
		if (!xioctl_fd(t, OP_SYNC_FILE_INFO, x.fd, SYNC_IOC_FILE_INFO, &info, false))
			vlog(t, "  sync_file status %d fences %u", info.status, info.num_fences);
	} else {
		struct pollfd p = { .fd = x.fd, .events = POLLIN };

		t0 = now_ns();
		xrecord(t, OP_POLL, poll(&p, 1, 0) < 0 ? errno : 0, t0);
	}
}

static void act_generic(struct thr *t)
{
	struct rng *r = &t->r;
	char name[32], date[32], desc[64];

	switch (rn(r, 6)) {
	case 0: {
		struct drm_version v = { 0 };
		bool ro;

		v.name_len = pct(r, 80) ? sizeof(name) : rn(r, 1u << 20);
		v.name = pct(r, 80) ? name : bad_pointer(t, 32, &ro);
		v.date_len = pct(r, 80) ? sizeof(date) : rn(r, 64);
		v.date = pct(r, 85) ? date : bad_pointer(t, 32, &ro);
		v.desc_len = pct(r, 80) ? sizeof(desc) : rn(r, 128);
		v.desc = pct(r, 85) ? desc : bad_pointer(t, 32, &ro);
		if (v.name_len > sizeof(name) && v.name == name)
			v.name_len = sizeof(name);
		if (v.date_len > sizeof(date) && v.date == date)
			v.date_len = sizeof(date);
		if (v.desc_len > sizeof(desc) && v.desc == desc)
			v.desc_len = sizeof(desc);
		xioctl(t, OP_VERSION, DRM_IOCTL_VERSION, &v, false);
		break;
	}
	case 1: {
		struct drm_get_cap g = { .capability = pct(r, 80) ? rn(r, 0x20) : rnd(r) };

		xioctl(t, OP_GET_CAP, DRM_IOCTL_GET_CAP, &g, false);
		break;
	}
	case 2: {
		struct drm_set_client_cap s = { .capability = pct(r, 80) ? rn(r, 8) : rnd(r),
						.value = pct(r, 70) ? rn(r, 3) : rnd(r) };

		xioctl(t, OP_SET_CLIENT_CAP, DRM_IOCTL_SET_CLIENT_CAP, &s, false);
		break;
	}
	default: {
		/* Not for render nodes: -EACCES (or the like), never anything else. */
		static const unsigned long cmds[] = {
			DRM_IOCTL_GEM_FLINK, DRM_IOCTL_GEM_OPEN, DRM_IOCTL_GET_MAGIC,
			DRM_IOCTL_SET_MASTER, DRM_IOCTL_DROP_MASTER, DRM_IOCTL_MODE_GETRESOURCES,
			DRM_IOCTL_GET_UNIQUE, DRM_IOCTL_AUTH_MAGIC, DRM_IOCTL_MODE_CREATE_DUMB,
			DRM_IOCTL_SET_VERSION,
		};

		memset(t->buf, 0, 256);
		if (pct(r, 50))
			((uint32_t *)t->buf)[0] = gen_handle(t);
		xioctl(t, OP_NOT_RENDER, cmds[rn(r, sizeof(cmds) / sizeof(cmds[0]))], t->buf,
		       false);
		break;
	}
	}
}

/* ---- CPU mappings ---- */

static void unmap_one(struct thr *t, struct map m)
{
	uint64_t t0 = now_ns();

	xrecord(t, OP_MUNMAP, munmap(m.p, m.len) ? errno : 0, t0);
}

static bool illegal_db_map(uint64_t len, int prot, int flags)
{
	return flags != MAP_SHARED || (prot & PROT_EXEC) || len != PAGE;
}

/*
 * mmap() of an offset: of a BO, a USERD or doorbell page, a pool, a stale
 * one or garbage.  A doorbell page's must fail unless shared, one page and
 * not executable, and succeed then.
 */
static void act_mmap(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	uint64_t off = gen_offset(t), len = PAGE, t0, db_serial = 0;
	int prot = PROT_READ | PROT_WRITE, flags = MAP_SHARED, err;
	struct chan *db_ch = NULL;
	bool known = false;
	void *p;

	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < c->nchans; i++)
		if (c->chans[i].db_off == off && off)
			db_serial = c->chans[i].serial;
	for (int i = 0; i < c->nbos; i++)
		if (c->bos[i].mmap_off == off)
			len = c->bos[i].size;
	for (int i = 0; i < c->npools; i++)
		if (c->pools[i].mmap_off == off)
			len = c->pools[i].size;
	pthread_mutex_unlock(&c->lock);
	switch (rn(r, 12)) {
	case 0:
		len += PAGE;
		break;
	case 1:
		len = 0;
		break;
	case 2:
		len = PAGE;
		break;
	default:
		break;
	}
	if (pct(r, 10))
		prot = (const int[]){ PROT_READ, PROT_WRITE, PROT_NONE, PROT_READ | PROT_EXEC,
				      PROT_READ | PROT_WRITE | PROT_EXEC }[rn(r, 5)];
	if (pct(r, 8))
		flags = MAP_PRIVATE;
	t0 = now_ns();
	p = mmap(NULL, len, prot, flags, __atomic_load_n(&c->fd, __ATOMIC_RELAXED), (off_t)off);
	err = p == MAP_FAILED ? errno : 0;
	xrecord(t, OP_MMAP, err, t0);
	pthread_mutex_lock(&c->lock);
	/*
	 * The page of a channel in the tables before and after: the racing
	 * thread did not destroy it meanwhile, so the object was there.  Only
	 * one shared, non-executable page may be mapped.
	 */
	if (db_serial)
		db_ch = chan_by_serial(c, db_serial);
	if (db_ch) {
		bool illegal = illegal_db_map(len, prot, flags);

		if (illegal && !err) {
			violation(t, "mmap() of the doorbell page of channel %u: %#" PRIx64 " bytes, "
				  "prot %#x, flags %#x succeeded", db_ch->chid, len, prot, flags);
		} else if (illegal && (err == EINVAL || (err == EPERM && (prot & PROT_EXEC)))) {
			t->st->db_refused[DB_RF_OWN]++;
		} else if (err) {
			db_map_failed(t, db_ch, err);
		}
	}
	if (err) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	vlog(t, "  mapped %#" PRIx64 "+%#" PRIx64 " at %p", off, len, p);
	{
		bool sens = false;
		int id;

		for (int i = 0; i < c->nbos; i++) {
			sens |= c->bos[i].sens && c->bos[i].mmap_off == off;
			known |= c->bos[i].mmap_off == off;
		}
		for (int i = 0; i < c->nchans; i++) {
			sens |= c->chans[i].userd_off == off;
			known |= c->chans[i].userd_off == off;
		}
		for (int i = 0; i < c->npools; i++)
			known |= c->pools[i].mmap_off == off;
		id = map_add(c, p, len, prot, sens || (db_ch && db_ch->bundle));
		if (id < 0) {
			pthread_mutex_unlock(&c->lock);
			unmap_one(t, (struct map){ .p = p, .len = len });
			return;
		}
		if (db_ch && !illegal_db_map(len, prot, flags)) {
			db_map_set(c, id, db_ch);
			t->st->db_maps++;
		} else if (!known || db_ch) {
			map_find(c, id)->kind = MAP_UNKNOWN;
		}
	}
	/* A USERD page: remember it for pokes. */
	for (int i = 0; i < c->nchans; i++)
		if (c->chans[i].userd_off == off && c->chans[i].userd_map < 0 &&
		    (prot & PROT_WRITE) && flags == MAP_SHARED)
			c->chans[i].userd_map = c->next_map_id;
	pthread_mutex_unlock(&c->lock);
}

static bool take_map(struct thr *t, struct map *out)
{
	struct client *c = t->c;
	int i;

	pthread_mutex_lock(&c->lock);
	if (!c->nmaps) {
		pthread_mutex_unlock(&c->lock);
		return false;
	}
	i = (int)rn(&t->r, (uint32_t)c->nmaps);
	*out = c->maps[i];
	DEL(c->maps, c->nmaps, i);
	pthread_mutex_unlock(&c->lock);
	return true;
}

static void act_munmap(struct thr *t)
{
	struct map m;

	if (!take_map(t, &m))
		return;
	if (m.bundle && pct(&t->r, 70)) {
		/* a submitting channel's: usually kept */
		pthread_mutex_lock(&t->c->lock);
		if (t->c->nmaps < MAX_MAPS)
			t->c->maps[t->c->nmaps++] = m;
		else
			m.bundle = false;
		pthread_mutex_unlock(&t->c->lock);
		if (m.bundle)
			return;
	}
	unmap_one(t, m);
}

/* CPU reads and writes through a mapping (the table lock keeps munmap away). */
static void act_memtouch(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	bool unknown_page;
	struct map *m;

	pthread_mutex_lock(&c->lock);
	if (!c->nmaps) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	m = &c->maps[rn(r, (uint32_t)c->nmaps)];
	if (m->kind == MAP_DB) {
		for (int i = 0, n = 1 + (int)rn(r, 8); i < n && !db_touch(t, m, false); i++)
			;
		pthread_mutex_unlock(&c->lock);
		return;
	}
	/*
	 * One page we cannot name may be the doorbell of a channel made
	 * behind our back: a clean file does not ring it.
	 */
	unknown_page = m->kind == MAP_UNKNOWN && m->len == PAGE;
	for (int i = 0, n = 1 + (int)rn(r, 8); i < n; i++) {
		size_t at = (pct(r, 70) ? rn(r, PAGE / 4) : rn(r, (uint32_t)(m->len / 4))) %
			    (m->len / 4);
		uint32_t got;
		bool bus;

		if ((m->prot & PROT_WRITE) && (!c->clean || (!m->bundle && !unknown_page))) {
			bus = guarded_access(m, at, true, pct(r, 50) ? (uint32_t)rnd(r) : rn(r, 16),
					     NULL);
			if (m->bundle)
				set_dirty(t, DR_MEMTOUCH);
		} else if (m->prot & PROT_READ) {
			bus = guarded_access(m, at, false, 0, &got);
		} else {
			break;
		}
		if (!bus)
			continue;
		if (unknown_page) {
			t->st->db_sigbus[DB_SB_UNKNOWN_MAP]++;
			vlog(t, "  SIGBUS through the page at %p (an unknown offset)", (void *)m->p);
		} else {
			violation(t, "SIGBUS through the mapping at %p+%#zx (%s), which is no "
				  "doorbell page", (void *)m->p, m->len,
				  m->kind == MAP_PLAIN ? "a BO, USERD or pool" : "unknown offset");
		}
		break;
	}
	pthread_mutex_unlock(&c->lock);
}

/* ---- channels that run work ---- */

static int xcreate_bo(struct thr *t, uint64_t size, uint32_t *handle)
{
	struct drm_ppu_gem_create g = { .size = size };
	int err = xioctl(t, OP_GEM_CREATE, DRM_IOCTL_PPU_GEM_CREATE, &g, true);

	if (!err) {
		done_gem_create(t, &g, 0);
		*handle = g.handle;
	}
	return err;
}

static void mark_sensitive(struct client *c, uint32_t handle)
{
	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < c->nbos; i++)
		if (c->bos[i].handle == handle)
			c->bos[i].sens = true;
	pthread_mutex_unlock(&c->lock);
}

/* A full mapping table gives up one of its plain mappings. */
static void make_map_room(struct thr *t)
{
	struct client *c = t->c;
	struct map m = { 0 };

	pthread_mutex_lock(&c->lock);
	if (c->nmaps >= MAX_MAPS - 2) {
		int i = (int)rn(&t->r, (uint32_t)c->nmaps);

		for (int j = 0; j < c->nmaps && c->maps[i].bundle; j++)
			i = (i + 1) % c->nmaps;
		m = c->maps[i];
		DEL(c->maps, c->nmaps, i);
	}
	pthread_mutex_unlock(&c->lock);
	if (m.p)
		unmap_one(t, m);
}

/* A BO mapped by the CPU and bound with VA_ALLOC; the map id or -1. */
static int map_bind_bo(struct thr *t, uint32_t handle, uint64_t size, uint32_t *va)
{
	struct drm_ppu_gem_mmap_offset o = { .handle = handle };
	struct drm_ppu_vm_bind b = { .handle = handle, .flags = DRM_PPU_VM_BIND_VA_ALLOC,
				     .size = size };
	struct client *c = t->c;
	uint64_t t0;
	void *p;
	int id;

	if (xioctl(t, OP_GEM_MMAP_OFFSET, DRM_IOCTL_PPU_GEM_MMAP_OFFSET, &o, true))
		return -1;
	done_mmap_offset(t, &o, 0);
	t0 = now_ns();
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 __atomic_load_n(&c->fd, __ATOMIC_RELAXED), (off_t)o.offset);
	xrecord(t, OP_MMAP, p == MAP_FAILED ? errno : 0, t0);
	if (p == MAP_FAILED)
		return -1;
	make_map_room(t);
	pthread_mutex_lock(&c->lock);
	id = map_add(c, p, size, PROT_READ | PROT_WRITE, true);
	pthread_mutex_unlock(&c->lock);
	if (id < 0) {
		unmap_one(t, (struct map){ .p = p, .len = size });
		return -1;
	}
	if (xioctl(t, OP_VM_BIND, DRM_IOCTL_PPU_VM_BIND, &b, true))
		return -1;
	done_vm_bind(t, &b, 0);
	*va = (uint32_t)b.va;
	return id;
}

/*
 * Channels a call created but could not tell us about (its struct could
 * not be written back, or had a wrong encoding) hold ids until the file
 * is closed: destroy every id the tables do not know.  Other files' ids
 * must give ENOENT.
 */
static uint32_t chan_share(struct client *c);

static void reclaim_chans(struct thr *t)
{
	struct client *c = t->c;
	bool sweep;

	/* Not when we hold our share anyway (that is why), and not often. */
	pthread_mutex_lock(&c->lock);
	sweep = (uint32_t)c->nchans < chan_share(c) && t->seq >= c->last_reclaim + 500;
	if (sweep)
		c->last_reclaim = t->seq;
	pthread_mutex_unlock(&c->lock);
	if (!sweep)
		return;
	for (uint32_t chid = 0; chid < c->nuser; chid++) {
		struct drm_ppu_chan_destroy d = { .chid = chid };
		bool known;

		pthread_mutex_lock(&c->lock);
		known = chan_find(c, chid) != NULL;
		pthread_mutex_unlock(&c->lock);
		if (!known)
			xioctl(t, OP_CHAN_DESTROY, DRM_IOCTL_PPU_CHAN_DESTROY, &d, true);
	}
}

/*
 * The valid way: ring (page 0) plus scratch (page 1), pushbuffer, pool, a
 * channel on them and its USERD mapped.  Every object goes to the tables,
 * so it is also fair game for everything else.
 */
static void act_setup(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	struct drm_ppu_sem_pool_create pc = { .count = 4 };
	struct drm_ppu_chan_create cc = { 0 };
	struct chan ch = { .bundle = true, .userd_map = -1, .db_map = -1 };
	uint32_t entries;
	uint64_t t0;
	int step = 0, err;
	void *p;

	pthread_mutex_lock(&c->lock);
	c->in_setup = true;
	pthread_mutex_unlock(&c->lock);
	if (xcreate_bo(t, 2 * PAGE, &ch.ring_handle))
		goto fail;
	mark_sensitive(c, ch.ring_handle);
	step++;
	if ((ch.ring_map = map_bind_bo(t, ch.ring_handle, 2 * PAGE, &ch.ring_va)) < 0)
		goto fail;
	step++;
	if (xcreate_bo(t, 4 * PAGE, &ch.pb_handle))
		goto fail;
	mark_sensitive(c, ch.pb_handle);
	step++;
	if ((ch.pb_map = map_bind_bo(t, ch.pb_handle, 4 * PAGE, &ch.pb_va)) < 0)
		goto fail;
	step++;
	if (xioctl(t, OP_SEM_POOL_CREATE, DRM_IOCTL_PPU_SEM_POOL_CREATE, &pc, true))
		goto fail;
	step++;
	done_pool_create(t, &pc, 0);
	pthread_mutex_lock(&c->lock);
	err = !pool_known(c, pc.pool);
	pthread_mutex_unlock(&c->lock);
	if (err)
		goto fail;		/* the table was full: it is gone already */
	ch.pool_id = pc.pool;
	ch.pool_va = (uint32_t)pc.va;

	ch.log2 = 2 + rn(r, 6);
	entries = 1u << ch.log2;
	ch.slot_dw = 4 * PAGE / 4 / entries;
	if (ch.slot_dw > 256)
		ch.slot_dw = 256;
	cc.log2_entries = ch.log2;
	cc.gpfifo_va = ch.ring_va;
	if (pct(r, 30)) {
		cc.flags = DRM_PPU_CHAN_CREATE_PRIORITY;
		cc.priority = rn(r, c->root ? 64 : 33);
	}
	if ((c->features & DRM_PPU_FEATURE_COMPUTE_ENGINE) && pct(r, 25)) {
		uint32_t top = cc.flags ? cc.priority : DRM_PPU_CHAN_PRIORITY_NORMAL;

		cc.flags |= DRM_PPU_CHAN_CREATE_COMPUTE;
		cc.prio_min = rn(r, top + 1);
		cc.max_depth = rn(r, 64 - top + 1);
		if (!c->root && top + (cc.max_depth ? cc.max_depth : 1) - 1 > 32)
			cc.max_depth = 1;
	}
	err = xioctl(t, OP_CHAN_CREATE, DRM_IOCTL_PPU_CHAN_CREATE, &cc, true);
	if (err == EBUSY)
		reclaim_chans(t);
	if (err)
		goto fail;
	step++;
	ch.chid = cc.chid;
	ch.compute = !!(cc.flags & DRM_PPU_CHAN_CREATE_COMPUTE);
	ch.userd_off = cc.userd_offset;
	ch.db_off = cc.doorbell_offset;

	make_map_room(t);
	t0 = now_ns();
	p = mmap(NULL, DRM_PPU_USERD_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 __atomic_load_n(&c->fd, __ATOMIC_RELAXED), (off_t)cc.userd_offset);
	xrecord(t, OP_MMAP, p == MAP_FAILED ? errno : 0, t0);
	pthread_mutex_lock(&c->lock);
	if (p != MAP_FAILED) {
		ch.userd_map = map_add(c, p, DRM_PPU_USERD_SIZE, PROT_READ | PROT_WRITE, true);
		if (ch.userd_map < 0) {
			pthread_mutex_unlock(&c->lock);
			unmap_one(t, (struct map){ .p = p, .len = DRM_PPU_USERD_SIZE });
			pthread_mutex_lock(&c->lock);
		}
	}
	chan_del(c, ch.chid, DB_REVOKED);
	ch.serial = ++c->next_serial;
	if (c->nchans < MAX_CHANS)
		c->chans[c->nchans++] = ch;
	/*
	 * The racing thread may have destroyed a piece before the channel
	 * protected it: then its work may fault.
	 */
	{
		bool pool = false, pool_va = false, ring = false, pb = false;

		for (int i = 0; i < c->npools; i++)
			pool |= c->pools[i].id == ch.pool_id;
		for (int i = 0; i < c->nvas; i++) {
			struct vam *m = &c->vas[i];

			ring |= m->va == ch.ring_va && !m->pool && m->handle == ch.ring_handle;
			pb |= m->va == ch.pb_va && !m->pool && m->handle == ch.pb_handle;
			pool_va |= m->va == ch.pool_va && m->pool && m->handle == ch.pool_id;
		}
		if (!pool || !pool_va || !ring || !pb)
			set_dirty(t, DR_SETUP_BROKEN);
	}
	pthread_mutex_unlock(&c->lock);
	vlog(t, "  channel %u: ring %#x log2 %u pb %#x pool %u at %#x%s", ch.chid,
	     ch.ring_va, ch.log2, ch.pb_va, ch.pool_id, ch.pool_va,
	     ch.compute ? " compute" : "");
	db_attach(t, ch.serial, ch.chid, ch.db_off);
fail:
	t->st->setups[step]++;
	pthread_mutex_lock(&c->lock);
	c->in_setup = false;
	pthread_mutex_unlock(&c->lock);
}

/*
 * c->lock held: ring @ch through its doorbell page @m carrying @v.  True
 * when the store raised SIGBUS (judged: the channel is in the tables).
 */
static bool db_page_ring(struct thr *t, struct chan *ch, struct map *m, uint32_t v)
{
	if (guarded_access(m, DRM_PPU_DOORBELL_GP_PUT / 4, true, v, NULL)) {
		db_sigbus(t, m, "a ring");
		return true;
	}
	db_through(t, m, "a ring");
	t->st->db_rings[0]++;
	if (ch->dead)
		db_dead_check(t, ch);
	return false;
}

/* A header of a plausible method on a plausible subchannel. */
static uint32_t plausible_header(struct rng *r, uint32_t *count)
{
	static const uint32_t methods[] = {
		PPU_HOST_NOP, PPU_HOST_SEM_ADDR_LO, PPU_HOST_SEM_ADDR_HI, PPU_HOST_SEM_PAYLOAD_LO,
		PPU_HOST_SEM_EXECUTE, PPU_HOST_NON_STALL_INTR, PPU_HOST_WFI, PPU_HOST_YIELD,
		PPU_COPY_SRC_ADDR_LO, PPU_COPY_DST_ADDR_LO, PPU_COPY_LENGTH, PPU_COPY_SEM_ADDR_LO,
		PPU_COPY_SEM_PAYLOAD, PPU_COPY_LAUNCH_DMA, PPU_COMPUTE_TMD_ADDR_LO,
		PPU_COMPUTE_LAUNCH,
	};
	static const uint32_t ops[] = { PPU_MTHD_OP_INC, PPU_MTHD_OP_NONINC, PPU_MTHD_OP_IMMD,
					PPU_MTHD_OP_ONEINC, 0, 2, 6, 7 };
	uint32_t method = pct(r, 85) ? methods[rn(r, sizeof(methods) / sizeof(methods[0]))] :
			  rn(r, 0x1000) & ~3u;
	uint32_t op = pct(r, 90) ? ops[rn(r, 4)] : ops[rn(r, 8)];
	uint32_t subch = pct(r, 80) ? (pct(r, 70) ? 0 : PPU_MTHD_SUBCH_COPY) : rn(r, 8);

	*count = op == PPU_MTHD_OP_IMMD ? 0 : (pct(r, 90) ? 1 + rn(r, 8) : rn(r, 1u << 13));
	if (op == PPU_MTHD_OP_IMMD)
		return ppu_mthd_immd(method, rn(r, 1u << 13));
	return ppu_mthd_sub(op, subch, method, *count);
}

/* Data for plausible methods: VAs of this file, small lengths, or garbage (lock held). */
static uint32_t plausible_word(struct thr *t, const struct chan *ch)
{
	struct rng *r = &t->r;

	switch (rn(r, 8)) {
	case 0:
		return ch->pool_va + 16 * rn(r, 5);
	case 1:
		return ch->ring_va + PAGE + rn(r, PAGE);
	case 2:
		return ch->pb_va + rn(r, 4 * PAGE);
	case 3:
		return rn(r, 4096);		/* a copy length, mostly */
	case 4:
		return 0;
	case 5:
		return (uint32_t)(DRM_PPU_VA_START + (uint64_t)rn(r, 0xffe00) * PAGE);
	default:
		return (uint32_t)rnd(r);
	}
}

enum { SUB_VALID, SUB_PLAUSIBLE, SUB_GARBAGE };

/*
 * Writes one pushbuffer and GPFIFO entry into a submitting channel, moves
 * GP_PUT and rings the doorbell; waits for a valid one's release.
 */
static void act_submit(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	struct chan *ch, cp;
	struct map *ring, *pbm, *ud, *db;
	uint32_t entries, get, put, value = 0, sem_idx = 0, kind, nb = 0;
	uint32_t *pb;
	struct ppu_pb b;
	int idx[MAX_CHANS], err;
	bool page, bus = false;

	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < c->nchans; i++)
		if (c->chans[i].bundle)
			idx[nb++] = i;
	if (!nb) {
		pthread_mutex_unlock(&c->lock);
		t->st->submit_skips[0]++;
		return;
	}
	ch = &c->chans[idx[rn(r, nb)]];
	ring = map_find(c, ch->ring_map);
	pbm = map_find(c, ch->pb_map);
	ud = map_find(c, ch->userd_map);
	if (!ring || !pbm || !ud) {
		pthread_mutex_unlock(&c->lock);
		t->st->submit_skips[1]++;
		return;
	}
	entries = 1u << ch->log2;
	get = ((volatile uint32_t *)ud->p)[DRM_PPU_USERD_GP_GET / 4];
	put = ch->put;
	/* about half the rings go through the doorbell page */
	db = map_find(c, ch->db_map);
	page = db && db->kind == MAP_DB && !db->db_gone && (db->prot & PROT_WRITE) &&
	       pct(r, 50);
	if ((put + 1) % entries == get % entries) {
		struct drm_ppu_doorbell dbl = { .chid = ch->chid };

		t->st->submit_skips[2]++;
		/* full: ring only */
		if (page) {
			db_page_ring(t, ch, db, db->db_put);
			pthread_mutex_unlock(&c->lock);
			return;
		}
		pthread_mutex_unlock(&c->lock);
		done_doorbell(t, &dbl, xioctl(t, OP_DOORBELL, DRM_IOCTL_PPU_DOORBELL, &dbl, true));
		return;
	}
	kind = c->clean ? SUB_VALID : (pct(r, 50) ? SUB_VALID : (pct(r, 50) ? SUB_PLAUSIBLE :
								    SUB_GARBAGE));
	pb = (uint32_t *)pbm->p + put * ch->slot_dw;
	ppu_pb_init(&b, pb, ch->slot_dw);
	if (kind == SUB_VALID) {
		uint32_t sem;

		sem_idx = rn(r, 4);
		sem = ch->pool_va + DRM_PPU_SEM_BYTES * sem_idx;
		value = ++ch->seq;
		if (pct(r, 20))
			ppu_pb_push(&b, ppu_mthd_immd(pct(r, 50) ? PPU_HOST_NOP : PPU_HOST_YIELD,
						      0));
		if (!ch->compute && pct(r, 40)) {
			uint32_t len = 1 + rn(r, PAGE / 2);

			ppu_pb_copy(&b, ch->ring_va + PAGE, ch->ring_va + PAGE + PAGE / 2, len,
				    pct(r, 50) ? PPU_LAUNCH_DMA_SEMAPHORE_RELEASE :
				    PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP, sem, value, 1);
		} else {
			ppu_pb_sem(&b, sem, value, ppu_sem_release_op(0, pct(r, 30), 0));
			ppu_pb_nonstall(&b);
		}
	} else if (kind == SUB_PLAUSIBLE) {
		for (int n = 1 + (int)rn(r, 6); n > 0 && b.len < b.cap; n--) {
			uint32_t count;

			ppu_pb_push(&b, plausible_header(r, &count));
			for (uint32_t i = 0; i < count && i < 16 && b.len < b.cap; i++)
				ppu_pb_push(&b, plausible_word(t, ch));
		}
		set_dirty(t, DR_SUBMIT);
	} else {
		for (uint32_t n = 1 + rn(r, ch->slot_dw); n > 0; n--)
			ppu_pb_push(&b, (uint32_t)rnd(r));
		set_dirty(t, DR_SUBMIT);
	}
	{
		uint32_t *e = (uint32_t *)ring->p + 2 * put;
		uint32_t len = b.len;

		if (kind != SUB_VALID && pct(r, 20))
			len = pct(r, 50) ? 0 : rn(r, 1u << 21);
		ppu_gp_entry(e, ch->pb_va + put * ch->slot_dw * 4, len, pct(r, 10));
		if (kind != SUB_VALID && pct(r, 15)) {
			e[rn(r, 2)] ^= 1u << rn(r, 32);
		}
	}
	put = (put + 1) % entries;
	ch->put = put;
	__sync_synchronize();
	if (kind != SUB_VALID && pct(r, 10))
		put = pct(r, 50) ? entries + rn(r, 16) : (uint32_t)rnd(r);
	((volatile uint32_t *)ud->p)[DRM_PPU_USERD_GP_PUT / 4] = put;
	__sync_synchronize();
	/* what the channel's pages carry from now on */
	for (int i = 0; i < c->nmaps; i++)
		if (c->maps[i].kind == MAP_DB && c->maps[i].db_serial == ch->serial)
			c->maps[i].db_put = put;
	if (page) {
		/*
		 * The store carries GP_PUT (no USERD read); a broken submission
		 * may carry another garbage value than USERD holds.
		 */
		uint32_t carry = put;

		if (kind != SUB_VALID && pct(r, 15))
			carry = pct(r, 50) ? entries + rn(r, 16) : (uint32_t)rnd(r);
		bus = db_page_ring(t, ch, db, carry);
	}
	cp = *ch;
	t->st->submits[kind]++;
	if (c->clean && !c->dirty)
		t->st->clean_submits++;
	pthread_mutex_unlock(&c->lock);
	vlog(t, "  submit %s on channel %u: entry %u, pushbuffer %u words, GP_PUT %u%s%s",
	     (const char *[]){ "valid", "plausible", "garbage" }[kind], cp.chid,
	     (cp.put + entries - 1) % entries, b.len, put,
	     kind == SUB_VALID ? "" : " (file dirty)", page ? ", rung through the page" : "");

	if (page) {
		/*
		 * No errno: a dead channel ignores the store, so the wait below
		 * is what finds it dead (-EIO, checked as for DOORBELL).  A
		 * SIGBUS (judged above) means it is gone: no wait.
		 */
		err = bus ? ENOENT : 0;
	} else {
		struct drm_ppu_doorbell dbl = { .chid = cp.chid };

		err = xioctl(t, OP_DOORBELL, DRM_IOCTL_PPU_DOORBELL, &dbl, true);
		done_doorbell(t, &dbl, err);
		t->st->db_rings[1]++;
	}
	if (kind == SUB_VALID && !err) {
		struct drm_ppu_sem_wait w = {
			.pool = cp.pool_id, .index = sem_idx, .value = value,
			.cond = DRM_PPU_SEM_WAIT_GEQ, .flags = DRM_PPU_SEM_WAIT_CHAN,
			.chid = cp.chid,
			.timeout_ns = (int64_t)(now_ns() + 2000000 + rn(r, 20000000)),
		};

		err = xioctl(t, OP_SEM_WAIT, DRM_IOCTL_PPU_SEM_WAIT, &w, true);
		if (!err)
			t->st->waits_ok++;
		else if (err == ETIME)
			t->st->waits_timeout++;
		done_sem_wait(t, &w, err);
	}
}

/* Garbage GP_PUT / GP_GET / anything in a USERD page, then maybe a doorbell. */
static void act_userd_poke(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	struct map *ud = NULL;
	uint32_t chid = 0;

	pthread_mutex_lock(&c->lock);
	if (c->clean || !c->nchans) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	{
		struct chan *ch = &c->chans[rn(r, (uint32_t)c->nchans)];

		chid = ch->chid;
		ud = map_find(c, ch->userd_map);
	}
	if (ud) {
		volatile uint32_t *w = (volatile uint32_t *)ud->p;

		w[pct(r, 70) ? 0 : (pct(r, 50) ? 1 : rn(r, PAGE / 4))] =
			pct(r, 50) ? rn(r, 64) : (uint32_t)rnd(r);
		set_dirty(t, DR_USERD_POKE);
	}
	pthread_mutex_unlock(&c->lock);
	if (ud && pct(r, 70)) {
		struct drm_ppu_doorbell db = { .chid = chid };

		xioctl(t, OP_DOORBELL, DRM_IOCTL_PPU_DOORBELL, &db, true);
	}
}

/*
 * Accesses through a doorbell mapping, of a channel in the tables or one
 * left behind (destroyed, being destroyed, of a closed file): judged by
 * db_touch().  Now and then a storm: stores until a SIGBUS, dropping the
 * lock between them, while the racing thread is steered to destroy that
 * channel: stores racing with CHAN_DESTROY.
 */
static void db_mmap_race(struct thr *t, uint64_t serial);

static void act_db_poke(struct thr *t)
{
	struct client *c = t->c;
	struct rng *r = &t->r;
	int ids[MAX_MAPS], n = 0, id, stores = 1;
	bool storm = false, bus = false;
	uint64_t serial;
	double end = 0;
	struct map *m;

	pthread_mutex_lock(&c->lock);
	/* a zapped mapping now and then (it must stay zapped), else a live one */
	for (int pass = pct(r, 80) ? 0 : 1; pass < 2 && !n; pass++)
		for (int i = 0; i < c->nmaps; i++)
			if (c->maps[i].kind == MAP_DB && (pass || !c->maps[i].db_gone))
				ids[n++] = c->maps[i].id;
	if (!n) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	m = map_find(c, ids[rn(r, (uint32_t)n)]);
	id = m->id;
	serial = m->db_serial;
	if (chan_by_serial(c, serial) && pct(r, 10)) {
		pthread_mutex_unlock(&c->lock);
		db_mmap_race(t, serial);
		return;
	}
	if (chan_by_serial(c, serial) && !m->db_gone && (m->prot & PROT_WRITE) && pct(r, 30)) {
		storm = true;
		stores = 64 + (int)rn(r, 1024);
		end = now_s() + 0.002 + rn(r, 8) * 0.001;
		c->storm_serial = serial;
		vlog(t, "  storm on the doorbell page of channel %u: up to %d stores",
		     m->db_chid, stores);
	}
	pthread_mutex_unlock(&c->lock);
	for (int i = 0; i < stores && !bus; i++) {
		pthread_mutex_lock(&c->lock);
		m = map_find(c, id);
		if (m)
			bus = db_touch(t, m, storm);
		pthread_mutex_unlock(&c->lock);
		if (!m || (storm && now_s() > end))
			break;
	}
	if (storm) {
		pthread_mutex_lock(&c->lock);
		c->storm_serial = 0;
		t->st->db_storms++;
		if (!chan_by_serial(c, serial))
			t->st->db_storm_raced++;
		pthread_mutex_unlock(&c->lock);
	}
}

static bool revoked_lately(struct client *c, uint64_t serial)
{
	for (unsigned int i = 0; i < 64 && i < c->nrevoked; i++)
		if (c->revoked[i] == serial)
			return true;
	return false;
}

/*
 * mmap() of a live channel's page again and again while the racing thread
 * is steered to destroy the channel.  A mapping made while the channel
 * left the tables is kept: once the racing thread's CHAN_DESTROY returned,
 * a store through it must raise SIGBUS (a revoke that ran between the
 * driver's mmap handler and the mapping becoming visible must not leave
 * it working).
 */
static void db_mmap_race(struct thr *t, uint64_t serial)
{
	struct client *c = t->c;
	struct chan *ch;
	uint64_t off, t0;
	uint32_t chid;
	bool autoput;
	double end = now_s() + 0.005 + rn(&t->r, 10) * 0.001;
	int id = -1;

	pthread_mutex_lock(&c->lock);
	ch = chan_by_serial(c, serial);
	if (!ch || !ch->db_off) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	off = ch->db_off;
	chid = ch->chid;
	autoput = ch->autoput;
	c->storm_serial = serial;
	pthread_mutex_unlock(&c->lock);
	vlog(t, "  mmap race on the doorbell page of channel %u", chid);
	for (int i = 0; i < 64 && now_s() < end && id < 0; i++) {
		void *p;
		int err;

		make_map_room(t);
		t0 = now_ns();
		p = mmap(NULL, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
			 __atomic_load_n(&c->fd, __ATOMIC_RELAXED), (off_t)off);
		err = p == MAP_FAILED ? errno : 0;
		xrecord(t, OP_MMAP, err, t0);
		pthread_mutex_lock(&c->lock);
		ch = chan_by_serial(c, serial);
		if (err) {
			if (ch)
				db_map_failed(t, ch, err);
			pthread_mutex_unlock(&c->lock);
			break;
		}
		if (ch) {
			pthread_mutex_unlock(&c->lock);
			unmap_one(t, (struct map){ .p = p, .len = DRM_PPU_DOORBELL_SIZE });
			continue;
		}
		/* mapped while (or after) the channel left the tables */
		id = map_add(c, p, DRM_PPU_DOORBELL_SIZE, PROT_READ | PROT_WRITE, false);
		if (id < 0) {
			pthread_mutex_unlock(&c->lock);
			unmap_one(t, (struct map){ .p = p, .len = DRM_PPU_DOORBELL_SIZE });
			break;
		}
		{
			struct map *m = map_find(c, id);

			m->kind = MAP_DB;
			m->db_serial = serial;
			m->db_chid = chid;
			m->db_autoput = autoput;
			m->db_state = revoked_lately(c, serial) ? DB_REVOKED : DB_MAYBE;
		}
		t->st->db_mmap_raced++;
		pthread_mutex_unlock(&c->lock);
		vlog(t, "  mapped the doorbell page of channel %u at %p as it went away", chid, p);
	}
	pthread_mutex_lock(&c->lock);
	c->storm_serial = 0;
	pthread_mutex_unlock(&c->lock);
	/* once the CHAN_DESTROY returned, a store must raise SIGBUS */
	for (int i = 0; id >= 0 && i < 200; i++) {
		struct map *m;

		pthread_mutex_lock(&c->lock);
		m = map_find(c, id);
		if (m && m->db_state == DB_REVOKED) {
			if (db_touch(t, m, true))
				t->st->db_mmap_race_bus++;
			m = NULL;
		}
		pthread_mutex_unlock(&c->lock);
		if (!m)
			break;
		usleep(500);
	}
}

/* Illegal mappings of our own doorbell pages, or another client's. */
static void act_db_mmap(struct thr *t)
{
	struct client *c = t->c;
	uint64_t serial = 0;

	if (pct(&t->r, 50)) {
		db_foreign(t);
		return;
	}
	pthread_mutex_lock(&c->lock);
	if (c->nchans)
		serial = c->chans[rn(&t->r, (uint32_t)c->nchans)].serial;
	pthread_mutex_unlock(&c->lock);
	if (serial)
		db_illegal(t, serial);
}

/* ---- files ---- */

static int open_node(struct thr *t)
{
	uint64_t t0 = now_ns();
	int fd = open(node_path, O_RDWR | O_CLOEXEC);

	xrecord(t, OP_OPEN, fd < 0 ? errno : 0, t0);
	return fd;
}

/* Close the file (its objects go with it) and open a new one. */
static void act_reopen(struct thr *t)
{
	struct client *c = t->c;
	int old, fd = open_node(t);
	uint64_t t0;

	if (fd < 0)
		return;		/* keep the file we have */
	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < c->nbos; i++)
		stale_add(c, c->bos[i].handle, 0, 0, c->bos[i].mmap_off, 0);
	for (int i = 0; i < c->nchans; i++) {
		stale_add(c, 0, c->chans[i].chid, 0, pct(&t->r, 50) ? c->chans[i].userd_off :
			  c->chans[i].db_off, c->chans[i].ring_va);
		/* our mappings keep the file open: its channels live on until unmapped */
		db_unpublish(c, &c->chans[i]);
		db_orphan(c, c->chans[i].serial, DB_MAYBE);
	}
	for (int i = 0; i < c->npools; i++)
		stale_add(c, 0, 0, c->pools[i].id, c->pools[i].mmap_off, c->pools[i].va);
	c->nbos = c->nvas = c->nchans = c->npools = c->nsobjs = 0;
	for (int i = 0; i < c->nmaps; i++)
		c->maps[i].bundle = false;
	old = c->fd;
	__atomic_store_n(&c->fd, fd, __ATOMIC_RELAXED);
	c->gen++;
	c->clean = pct(&t->r, 35);
	c->dirty = false;
	pthread_mutex_unlock(&c->lock);
	if (old >= 0) {
		t0 = now_ns();
		xrecord(t, OP_CLOSE, close(old) ? errno : 0, t0);
	}
	vlog(t, "  file %u: fd %d%s", c->gen, fd, c->clean ? " (clean)" : "");
}

/* ---- the racing thread: destroy what the main thread is using ---- */

static void *racer_main(void *arg)
{
	struct thr *t = arg;
	struct client *c = t->c;
	struct rng *r = &t->r;

	while (!c->stop) {
		int k = (int)rn(r, 16);
		uint32_t ri = (uint32_t)rnd(r);

		usleep(500 + rn(r, 4000));
		pthread_mutex_lock(&c->lock);
		if (k < 3 && c->nchans) {
			int i = (int)(ri % (uint32_t)c->nchans);
			struct drm_ppu_chan_destroy d;
			unsigned int gen = c->gen;
			uint64_t serial;

			if (c->chans[i].bundle && pct(r, 60))
				i = (int)((ri >> 8) % (uint32_t)c->nchans);
			/* usually the channel whose doorbell page the main thread hammers */
			for (int j = 0; j < c->nchans && c->storm_serial && pct(r, 70); j++)
				if (c->chans[j].serial == c->storm_serial) {
					i = j;
					break;
				}
			d = (struct drm_ppu_chan_destroy){ .chid = c->chans[i].chid };
			serial = c->chans[i].serial;

			chan_leave(c, i, DB_MAYBE);
			pthread_mutex_unlock(&c->lock);
			/*
			 * (not done_chan_destroy: by its return the main thread
			 * may have a new channel with this id in the tables)
			 */
			destroyed_left(t, d.chid, serial, gen, xioctl(t, OP_CHAN_DESTROY,
					DRM_IOCTL_PPU_CHAN_DESTROY, &d, true));
		} else if (k < 5 && c->npools && !(c->clean && c->in_setup) &&
			   !(c->clean && bundle_pool(c, c->pools[ri % c->npools].id))) {
			struct drm_ppu_sem_pool_destroy d = { .pool = c->pools[ri % c->npools].id };

			pool_del(t, d.pool);
			pthread_mutex_unlock(&c->lock);
			xioctl(t, OP_SEM_POOL_DESTROY, DRM_IOCTL_PPU_SEM_POOL_DESTROY, &d, true);
		} else if (k < 8 && c->nbos) {
			int i = (int)rn(r, (uint32_t)c->nbos);
			struct drm_gem_close gc = { .handle = c->bos[i].handle };

			DEL(c->bos, c->nbos, i);
			pthread_mutex_unlock(&c->lock);
			xioctl(t, OP_GEM_CLOSE, DRM_IOCTL_GEM_CLOSE, &gc, false);
		} else if (k < 10 && c->nvas && !(c->clean && c->in_setup) &&
			   !(c->clean && (bundle_va(c, c->vas[ri % c->nvas].va) ||
					  pool_va(c, c->vas[ri % c->nvas].va)))) {
			int i = (int)(ri % (uint32_t)c->nvas);
			struct drm_ppu_vm_unbind u = { .va = c->vas[i].va, .size = c->vas[i].size };

			if (bundle_va(c, u.va))
				set_dirty(t, DR_VM_UNBIND);
			if (c->vas[i].pool || pool_va(c, u.va))
				set_dirty(t, DR_POOL_VA_UNBOUND);
			DEL(c->vas, c->nvas, i);
			pthread_mutex_unlock(&c->lock);
			xioctl(t, OP_VM_UNBIND, DRM_IOCTL_PPU_VM_UNBIND, &u, true);
		} else if (k < 12 && c->nmaps && (!c->maps[ri % c->nmaps].bundle || pct(r, 30))) {
			int i = (int)(ri % (uint32_t)c->nmaps);
			struct map m = c->maps[i];

			DEL(c->maps, c->nmaps, i);
			pthread_mutex_unlock(&c->lock);
			unmap_one(t, m);
		} else if (k < 14 && c->nsobjs) {
			int i = (int)rn(r, (uint32_t)c->nsobjs);
			struct drm_syncobj_destroy d = { .handle = c->sobjs[i] };

			DEL(c->sobjs, c->nsobjs, i);
			pthread_mutex_unlock(&c->lock);
			xioctl(t, OP_SYNCOBJ_DESTROY, DRM_IOCTL_SYNCOBJ_DESTROY, &d, false);
		} else if (k < 15 && c->nxfds) {
			int i = (int)rn(r, (uint32_t)c->nxfds), fd = c->xfds[i].fd;
			uint64_t t0;

			DEL(c->xfds, c->nxfds, i);
			pthread_mutex_unlock(&c->lock);
			t0 = now_ns();
			xrecord(t, OP_CLOSE, close(fd) ? errno : 0, t0);
		} else {
			pthread_mutex_unlock(&c->lock);
		}
	}
	return NULL;
}

/* ---- the main loop ---- */

enum {
	A_GET_PARAM, A_GEM_CREATE, A_MMAP_OFFSET, A_VM_BIND, A_VM_UNBIND, A_CHAN_CREATE,
	A_CHAN_DESTROY, A_DOORBELL, A_CHAN_STATUS, A_POOL_CREATE, A_POOL_DESTROY, A_SEM_WAIT,
	A_SEM_FENCE, A_BAD_NR, A_GEM_CLOSE, A_PRIME, A_SYNCOBJ, A_XFD, A_GENERIC, A_MMAP,
	A_MUNMAP, A_MEMTOUCH, A_SETUP, A_SUBMIT, A_USERD_POKE, A_REOPEN, A_DB_POKE, A_DB_MMAP,
	NACTIONS
};
_Static_assert(NACTIONS <= 32, "stats.actions is too small");

static const struct {
	const char *name;
	unsigned int weight;
} actions[NACTIONS] = {
	[A_GET_PARAM] = { "get_param", 60 },	[A_GEM_CREATE] = { "gem_create", 90 },
	[A_MMAP_OFFSET] = { "mmap_offset", 50 }, [A_VM_BIND] = { "vm_bind", 90 },
	[A_VM_UNBIND] = { "vm_unbind", 50 },	[A_CHAN_CREATE] = { "chan_create", 25 },
	[A_CHAN_DESTROY] = { "chan_destroy", 15 }, [A_DOORBELL] = { "doorbell", 30 },
	[A_CHAN_STATUS] = { "chan_status", 30 }, [A_POOL_CREATE] = { "pool_create", 40 },
	[A_POOL_DESTROY] = { "pool_destroy", 25 }, [A_SEM_WAIT] = { "sem_wait", 40 },
	[A_SEM_FENCE] = { "sem_fence", 35 },	[A_BAD_NR] = { "bad_nr", 15 },
	[A_GEM_CLOSE] = { "gem_close", 45 },	[A_PRIME] = { "prime", 10 },
	[A_SYNCOBJ] = { "syncobj", 70 },	[A_XFD] = { "xfd", 15 },
	[A_GENERIC] = { "generic", 20 },	[A_MMAP] = { "mmap", 40 },
	[A_MUNMAP] = { "munmap", 20 },		[A_MEMTOUCH] = { "memtouch", 30 },
	[A_SETUP] = { "setup", 30 },		[A_SUBMIT] = { "submit", 90 },
	[A_USERD_POKE] = { "userd_poke", 12 },	[A_REOPEN] = { "reopen", 2 },
	[A_DB_POKE] = { "db_poke", 20 },	[A_DB_MMAP] = { "db_mmap", 8 },
};

/*
 * Channel ids are few and shared by every client: a client keeps at most
 * its share, destroying one of its own (a plain one first) to make room.
 */
static uint32_t chan_share(struct client *c)
{
	uint32_t share = c->nuser / (uint32_t)opt.children;

	/* one id of headroom for the others */
	return share > 2 ? share - 1 : 2;
}

static void make_room(struct thr *t)
{
	struct client *c = t->c;
	uint32_t share = chan_share(c);
	struct drm_ppu_chan_destroy d = { 0 };
	int victim = -1;
	uint64_t serial = 0;

	pthread_mutex_lock(&c->lock);
	if ((uint32_t)c->nchans >= share) {
		victim = (int)rn(&t->r, (uint32_t)c->nchans);
		for (int i = 0; i < c->nchans; i++)
			if (!c->chans[(victim + i) % c->nchans].bundle) {
				victim = (victim + i) % c->nchans;
				break;
			}
		d.chid = c->chans[victim].chid;
		serial = c->chans[victim].serial;
		chan_leave(c, victim, DB_MAYBE);
	}
	pthread_mutex_unlock(&c->lock);
	if (victim >= 0)
		destroyed_left(t, d.chid, serial, c->gen, xioctl(t, OP_CHAN_DESTROY,
				DRM_IOCTL_PPU_CHAN_DESTROY, &d, true));
}

static void run_action(struct thr *t, int a)
{
	if (a == A_CHAN_CREATE || a == A_SETUP)
		make_room(t);
	switch (a) {
	case A_GET_PARAM: run_ioc(t, &iocs[I_GET_PARAM]); break;
	case A_GEM_CREATE: run_ioc(t, &iocs[I_GEM_CREATE]); break;
	case A_MMAP_OFFSET: run_ioc(t, &iocs[I_MMAP_OFFSET]); break;
	case A_VM_BIND: run_ioc(t, &iocs[I_VM_BIND]); break;
	case A_VM_UNBIND: run_ioc(t, &iocs[I_VM_UNBIND]); break;
	case A_CHAN_CREATE: run_ioc(t, &iocs[I_CHAN_CREATE]); break;
	case A_CHAN_DESTROY: run_ioc(t, &iocs[I_CHAN_DESTROY]); break;
	case A_DOORBELL: run_ioc(t, &iocs[I_DOORBELL]); break;
	case A_CHAN_STATUS: run_ioc(t, &iocs[I_CHAN_STATUS]); break;
	case A_POOL_CREATE: run_ioc(t, &iocs[I_POOL_CREATE]); break;
	case A_POOL_DESTROY: run_ioc(t, &iocs[I_POOL_DESTROY]); break;
	case A_SEM_WAIT: run_ioc(t, &iocs[I_SEM_WAIT]); break;
	case A_SEM_FENCE: run_ioc(t, &iocs[I_SEM_FENCE]); break;
	case A_BAD_NR: act_bad_nr(t); break;
	case A_GEM_CLOSE: act_gem_close(t); break;
	case A_PRIME: act_prime(t); break;
	case A_SYNCOBJ: act_syncobj(t); break;
	case A_XFD: act_xfd(t); break;
	case A_GENERIC: act_generic(t); break;
	case A_MMAP: act_mmap(t); break;
	case A_MUNMAP: act_munmap(t); break;
	case A_MEMTOUCH: act_memtouch(t); break;
	case A_SETUP: act_setup(t); break;
	case A_SUBMIT: act_submit(t); break;
	case A_USERD_POKE: act_userd_poke(t); break;
	case A_REOPEN: act_reopen(t); break;
	case A_DB_POKE: act_db_poke(t); break;
	case A_DB_MMAP: act_db_mmap(t); break;
	}
}

static int pick_action(struct thr *t)
{
	static unsigned int total;
	unsigned int x;

	if (!total)
		for (int a = 0; a < NACTIONS; a++)
			if (!opt.ops_mask || (opt.ops_mask & (1ull << a)))
				total += actions[a].weight;
	x = rn(&t->r, total);
	for (int a = 0; a < NACTIONS; a++) {
		if (opt.ops_mask && !(opt.ops_mask & (1ull << a)))
			continue;
		if (x < actions[a].weight)
			return a;
		x -= actions[a].weight;
	}
	return A_GET_PARAM;
}

static void thr_init(struct thr *t, struct client *c, int slot, uint64_t seed, bool racer)
{
	t->c = c;
	t->st = &sh->st[c->idx][slot];
	t->racer = racer;
	rng_seed(&t->r, seed);
	snprintf(t->tag, sizeof(t->tag), "c%d%s", c->idx, racer ? "r" : "");
	t->buf = aligned_alloc(PAGE, ARGBUF);
	t->bad = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!t->buf || t->bad == MAP_FAILED)
		die("out of memory");
	/* (not unmapped: another mmap() could land there) */
	mprotect(t->bad + PAGE, PAGE, PROT_NONE);
	mprotect(t->bad + 3 * PAGE, PAGE, PROT_NONE);
}

/* nobody: no supplementary groups, no capabilities (CAP_SYS_NICE among them) */
static int drop_privileges(void)
{
	return ppu_drop_privileges(PPU_UID_NOBODY, PPU_UID_NOBODY);
}

static int client_main(int idx, uint64_t budget, double deadline)
{
	struct client *c = calloc(1, sizeof(*c));
	struct thr *t;
	pthread_t racer;
	/* 0 root, 1 drops privileges after opening, 2 before */
	int mode = idx == 0 ? 0 : (idx % 3 == 2 ? 2 : 1);
	uint64_t seed = opt.seed + (uint64_t)idx;

	if (!c)
		die("out of memory");
	c->idx = idx;
	c->budget = budget;
	c->deadline = deadline;
	c->fd = -1;
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->hist_lock, NULL);
	t = &c->main;
	thr_init(t, c, 0, seed, false);
	thr_init(&c->racer, c, 1, seed ^ 0x5bd1e9955bd1e995ull, true);

	install_sigbus();
	if (mode == 2 && getuid() == 0 && drop_privileges())
		die("client %d: cannot drop privileges: %s", idx, strerror(errno));
	c->fd = open_node(t);
	if (c->fd < 0) {
		fprintf(stderr, PROG ": client %d: cannot open %s: %s\n", idx, node_path,
			strerror(errno));
		return 1;
	}
	if (mode == 1 && getuid() == 0 && drop_privileges())
		die("client %d: cannot drop privileges: %s", idx, strerror(errno));
	c->root = geteuid() == 0;

	/* The device, and the values GET_PARAM must keep returning. */
	for (uint32_t p = 0; p <= PARAM_LAST; p++) {
		struct drm_ppu_get_param gp = { .param = p };

		if (xioctl(t, OP_GET_PARAM, DRM_IOCTL_PPU_GET_PARAM, &gp, true))
			die("client %d: GET_PARAM %u failed", idx, p);
		c->caps[p] = gp.value;
	}
	c->nchan = (uint32_t)c->caps[DRM_PPU_PARAM_NUM_CHANNELS];
	c->nuser = (uint32_t)c->caps[DRM_PPU_PARAM_NUM_USER_CHANNELS];
	c->features = c->caps[DRM_PPU_PARAM_FEATURES];
	c->lmem = c->caps[DRM_PPU_PARAM_LOCAL_MEM_SIZE];
	c->clean = pct(&t->r, 35);
	printf("fuzz: client %d pid %d seed %" PRIu64 " uid %d%s: %u channels (%u for users), "
	       "features %#" PRIx64 ", local memory %" PRIu64 " MiB, %" PRIu64 " calls\n", idx,
	       getpid(), seed, (int)geteuid(), mode == 1 ? " (dropped after open)" :
	       mode == 2 ? " (dropped before open)" : "", c->nchan, c->nuser, c->features,
	       c->lmem >> 20, budget);
	fflush(stdout);

	if (opt.race && pthread_create(&racer, NULL, racer_main, &c->racer))
		die("client %d: cannot start the racing thread", idx);
	while (t->seq < budget && now_s() < deadline) {
		int a = pick_action(t);

		sh->action[idx] = a;
		t->st->actions[a]++;
		run_action(t, a);
	}
	c->stop = true;
	if (opt.race)
		pthread_join(racer, NULL);
	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < c->nchans; i++)
		db_unpublish(c, &c->chans[i]);
	pthread_mutex_unlock(&c->lock);
	if (c->fd >= 0) {
		uint64_t t0 = now_ns();

		xrecord(t, OP_CLOSE, close(c->fd) ? errno : 0, t0);
	}
	return 0;
}

/* ---- the parent ---- */

/*
 * What must come back once every client has exited (all files closed):
 * channel ids, local memory, pinned host memory.  -1: unknown (debugfs
 * needs root).
 */
struct leaks {
	long chans, lmem_used, pinned_kb;
};

static long debugfs_dri(const char *file, const char *key)
{
	char path[96], line[256];
	struct stat st;
	long v = -1, n = 0;
	FILE *f;

	if (stat(node_path, &st))
		return -1;
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%u/%s", minor(st.st_rdev), file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *k = key ? strstr(line, key) : NULL;

		if (key && k)
			v = strtol(k + strlen(key), NULL, 0);
		/* channels: one line per channel in use after the header */
		n += !key && strncmp(line, "chid", 4) && line[0] != '\n';
	}
	fclose(f);
	return key ? v : n;
}

static void read_leaks(struct leaks *l)
{
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");

	l->chans = debugfs_dri("channels", NULL);
	l->lmem_used = debugfs_dri("local_mem", ", used ");
	l->pinned_kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Unevictable:", 12))
			l->pinned_kb = strtol(line + 12, NULL, 10);
	if (f)
		fclose(f);
}

/* @slack: pinned kB that may differ (other users of unevictable memory) */
static bool leaked(const struct leaks *a, const struct leaks *b, long slack)
{
	return b->chans > a->chans || b->lmem_used > a->lmem_used ||
	       b->pinned_kb > a->pinned_kb + slack;
}

/* Fences hold their pool for up to DRM_PPU_SEM_FENCE_TIMEOUT_MS: wait that long. */
static bool leak_check(const struct leaks *before)
{
	struct leaks after;
	double end = now_s() + DRM_PPU_SEM_FENCE_TIMEOUT_MS / 1000.0 + 5;

	do {
		read_leaks(&after);
		if (!leaked(before, &after, 0))
			break;
		usleep(250000);
	} while (now_s() < end);
	printf("fuzz: after the run: channels in use %ld (before %ld), local memory used %ld "
	       "(before %ld), pinned host memory %ld kB (before %ld kB)\n", after.chans,
	       before->chans, after.lmem_used, before->lmem_used, after.pinned_kb,
	       before->pinned_kb);
	if (!leaked(before, &after, 256))
		return true;
	printf("fuzz: VIOLATION: resources left after every file was closed\n");
	return false;
}

static void print_file(const char *what, const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	printf("fuzz: %s:\n%s%s", what, buf, n && buf[n - 1] == '\n' ? "" : "\n");
}

static void print_stacks(pid_t pid)
{
	char path[320], what[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(what, sizeof(what), "task %.16s of pid %d: stat", de->d_name, (int)pid);
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, de->d_name);
		print_file(what, path);
		snprintf(what, sizeof(what), "task %.16s: syscall", de->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%s/syscall", (int)pid, de->d_name);
		print_file(what, path);
		snprintf(what, sizeof(what), "task %.16s: kernel stack", de->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stack", (int)pid, de->d_name);
		print_file(what, path);
	}
	closedir(d);
}

static void print_report(double secs, bool leaks_ok)
{
	static struct stats tot;
	uint64_t calls = 0;

	memset(&tot, 0, sizeof(tot));
	for (int k = 0; k < opt.children; k++)
		for (int s = 0; s < 2; s++) {
			struct stats *st = &sh->st[k][s];

			for (int op = 0; op < NOPS; op++) {
				for (int e = 0; e < NERR; e++)
					tot.n[op][e] += st->n[op][e];
				tot.ns[op] += st->ns[op];
				if (st->ns_max[op] > tot.ns_max[op])
					tot.ns_max[op] = st->ns_max[op];
				tot.unexpected[op] += st->unexpected[op];
			}
			for (int m = 0; m < NMODES; m++)
				tot.modes[m] += st->modes[m];
			for (int i = 0; i < 3; i++)
				tot.submits[i] += st->submits[i];
			tot.violations += st->violations;
			tot.waits_ok += st->waits_ok;
			tot.waits_timeout += st->waits_timeout;
			tot.destroy_timeouts += st->destroy_timeouts;
			tot.clean_checks += st->clean_checks;
			tot.stale_faults += st->stale_faults;
			tot.clean_submits += st->clean_submits;
			for (int a = 0; a < 32; a++)
				tot.actions[a] += st->actions[a];
			for (int i = 0; i < 3; i++)
				tot.submit_skips[i] += st->submit_skips[i];
			for (int i = 0; i < 8; i++)
				tot.setups[i] += st->setups[i];
			for (int i = 0; i < 16; i++)
				tot.dirtied[i] += st->dirtied[i];
			tot.db_maps += st->db_maps;
			for (int i = 0; i < 2; i++)
				tot.db_rings[i] += st->db_rings[i];
			tot.db_stores += st->db_stores;
			tot.db_stale_through += st->db_stale_through;
			tot.db_storms += st->db_storms;
			tot.db_storm_raced += st->db_storm_raced;
			for (int i = 0; i < 5; i++)
				tot.db_sigbus[i] += st->db_sigbus[i];
			for (int i = 0; i < 4; i++)
				tot.db_refused[i] += st->db_refused[i];
			tot.db_foreign_unjudged += st->db_foreign_unjudged;
			tot.db_reads += st->db_reads;
			tot.db_dead_ignored += st->db_dead_ignored;
			tot.db_mmap_raced += st->db_mmap_raced;
			tot.db_mmap_race_bus += st->db_mmap_race_bus;
		}

	uint64_t all_ns = 0;

	for (int op = 0; op < NOPS; op++)
		all_ns += tot.ns[op];
	printf("fuzz: %-20s %8s %9s %9s %6s  %s\n", "call", "count", "mean_us", "max_us",
	       "time%", "results");
	for (int op = 0; op < NOPS; op++) {
		uint64_t n = 0;
		char res[512];
		size_t len = 0;

		for (int e = 0; e < NERR; e++)
			n += tot.n[op][e];
		if (!n)
			continue;
		calls += n;
		res[0] = 0;
		for (int e = 0; e < NERR && len + 32 < sizeof(res); e++)
			if (tot.n[op][e])
				len += (size_t)snprintf(res + len, sizeof(res) - len, "%s%s %u",
							len ? ", " : "",
							e == NERR - 1 ? "other" : err_name(e),
							tot.n[op][e]);
		printf("fuzz: %-20s %8" PRIu64 " %9.1f %9.1f %6.1f  %s\n", op_names[op], n,
		       (double)tot.ns[op] / (double)n / 1e3, (double)tot.ns_max[op] / 1e3,
		       all_ns ? 100.0 * (double)tot.ns[op] / (double)all_ns : 0.0, res);
	}
	printf("fuzz: modes:");
	for (int m = 0; m < NMODES; m++)
		printf(" %s %" PRIu64, mode_names[m], tot.modes[m]);
	printf("\nfuzz: actions:");
	for (int a = 0; a < NACTIONS; a++)
		if (tot.actions[a])
			printf(" %s %" PRIu64, actions[a].name, tot.actions[a]);
	printf("\nfuzz: channel setups: done %" PRIu64 "; failed at ring BO %" PRIu64
	       ", ring map/bind %" PRIu64 ", pushbuffer BO %" PRIu64 ", its map/bind %" PRIu64
	       ", pool %" PRIu64 ", CHAN_CREATE %" PRIu64, tot.setups[6], tot.setups[0],
	       tot.setups[1], tot.setups[2], tot.setups[3], tot.setups[4], tot.setups[5]);
	printf("\nfuzz: clean files made dirty by:");
	for (int i = 0; i < NDIRTY; i++)
		if (tot.dirtied[i])
			printf(" %s %" PRIu64, dirty_names[i], tot.dirtied[i]);
	printf("\nfuzz: submissions: valid %" PRIu64 " plausible %" PRIu64 " garbage %" PRIu64
	       " (skipped: no channel %" PRIu64 ", mapping gone %" PRIu64 ", ring full %" PRIu64
	       "); waits for valid ones: done %" PRIu64 ", timed out %" PRIu64 "\n",
	       tot.submits[0], tot.submits[1], tot.submits[2], tot.submit_skips[0],
	       tot.submit_skips[1], tot.submit_skips[2], tot.waits_ok, tot.waits_timeout);
	printf("fuzz: doorbell pages: mapped %" PRIu64 "; rings through the page %" PRIu64
	       " (through DOORBELL %" PRIu64 "); other stores %" PRIu64 " (%" PRIu64
	       " through stale mappings before the revoke), reads %" PRIu64 ", stores a dead "
	       "channel ignored %" PRIu64 "; storms %" PRIu64 " (channel destroyed during %"
	       PRIu64 "); mmaps as the channel went away %" PRIu64 " (SIGBUS after its "
	       "destroy %" PRIu64 ")\n", tot.db_maps, tot.db_rings[0], tot.db_rings[1],
	       tot.db_stores, tot.db_stale_through, tot.db_reads, tot.db_dead_ignored,
	       tot.db_storms, tot.db_storm_raced, tot.db_mmap_raced, tot.db_mmap_race_bus);
	printf("fuzz: doorbell SIGBUS: after destroy %" PRIu64 ", watchdog %" PRIu64
	       ", destroyed by a call we could not follow %" PRIu64 ", unknown one-page "
	       "mapping %" PRIu64 ", again on a zapped mapping %" PRIu64 "; illegal mmaps "
	       "refused: own page %" PRIu64 ", another client's %" PRIu64 " (+%" PRIu64
	       " while it went away, %" PRIu64 " mapped then), mprotect(PROT_EXEC) %" PRIu64
	       "\n", tot.db_sigbus[DB_SB_DESTROYED], tot.db_sigbus[DB_SB_WATCHDOG],
	       tot.db_sigbus[DB_SB_UNTRACKED], tot.db_sigbus[DB_SB_UNKNOWN_MAP],
	       tot.db_sigbus[DB_SB_AGAIN], tot.db_refused[DB_RF_OWN],
	       tot.db_refused[DB_RF_FOREIGN], tot.db_refused[DB_RF_FOREIGN_RACING],
	       tot.db_foreign_unjudged, tot.db_refused[DB_RF_MPROTECT]);
	{
		uint64_t unexpected = 0;

		for (int op = 0; op < NOPS; op++)
			unexpected += tot.unexpected[op];
		if (tot.stale_faults)
			printf("fuzz: NOTE known bug stale-fault seen %" PRIu64 " times: -EIO "
			       "for a channel the hardware shows not faulted\n", tot.stale_faults);
		printf("fuzz: violations %" PRIu64 ", undocumented errors %" PRIu64
		       ", channel destroy timeouts %" PRIu64 "; isolation checked by %" PRIu64
		       " submissions and %" PRIu64 " channel states in clean files\n",
		       tot.violations, unexpected, tot.destroy_timeouts, tot.clean_submits,
		       tot.clean_checks);
	}
	printf("fuzz: calls %" PRIu64 ", calls/s %.0f\n", calls,
	       secs > 0 ? (double)calls / secs : 0);
	fflush(stdout);
	if (opt.strict && (tot.violations || !leaks_ok))
		exit(4);
}

static uint64_t parse_ops(const char *list)
{
	uint64_t mask = 0;
	char *dup = strdup(list), *save = NULL;

	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int a;

		for (a = 0; a < NACTIONS; a++)
			if (!strcmp(tok, actions[a].name))
				break;
		if (a == NACTIONS) {
			fprintf(stderr, PROG ": unknown action \"%s\"; actions:", tok);
			for (a = 0; a < NACTIONS; a++)
				fprintf(stderr, " %s", actions[a].name);
			fprintf(stderr, "\n");
			exit(2);
		}
		mask |= 1ull << a;
	}
	free(dup);
	return mask;
}

static unsigned int parse_avoid(const char *list)
{
	unsigned int mask = 0;
	char *dup = strdup(list), *save = NULL;

	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(avoids) / sizeof(avoids[0]); i++)
			if (!strcmp(tok, avoids[i].name))
				break;
		if (i == sizeof(avoids) / sizeof(avoids[0])) {
			fprintf(stderr, PROG ": unknown --avoid \"%s\"; known:", tok);
			for (i = 0; i < sizeof(avoids) / sizeof(avoids[0]); i++)
				fprintf(stderr, " %s", avoids[i].name);
			fprintf(stderr, "\n");
			exit(2);
		}
		mask |= avoids[i].bit;
	}
	free(dup);
	return mask;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: " PROG " [--seed S] [--calls N] [--children K] [--time-limit SEC]\n"
		"                [--stall SEC] [--no-race] [--ops a,b,...] [--avoid bug,...]\n"
		"                [--strict] [--no-chmod] [--no-leak-check] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "calls", required_argument, NULL, 'n' },
		{ "children", required_argument, NULL, 'k' },
		{ "time-limit", required_argument, NULL, 't' },
		{ "stall", required_argument, NULL, 'S' },
		{ "no-race", no_argument, NULL, 'R' },
		{ "no-leak-check", no_argument, NULL, 'L' },
		{ "ops", required_argument, NULL, 'o' },
		{ "avoid", required_argument, NULL, 'a' },
		{ "strict", no_argument, NULL, 'x' },
		{ "no-chmod", no_argument, NULL, 'C' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_seed = false, hung = false, crashed = false, failed = false;
	pid_t pids[MAX_CHILDREN];
	uint64_t last[MAX_CHILDREN];
	double t0, deadline, last_t[MAX_CHILDREN];
	struct leaks before;
	int alive, ch, fd;

	while ((ch = getopt_long(argc, argv, "s:n:k:t:vh", lopts, NULL)) != -1) {
		char *end = NULL;

		switch (ch) {
		case 's':
			opt.seed = strtoull(optarg, &end, 0);
			have_seed = true;
			break;
		case 'n':
			opt.calls = strtoull(optarg, &end, 0);
			break;
		case 'k':
			opt.children = (int)strtol(optarg, &end, 0);
			if (opt.children < 1 || opt.children > MAX_CHILDREN)
				usage();
			break;
		case 't':
			opt.time_limit = strtod(optarg, &end);
			break;
		case 'S':
			opt.stall_s = (int)strtol(optarg, &end, 0);
			break;
		case 'R':
			opt.race = false;
			break;
		case 'L':
			opt.leak_check = false;
			break;
		case 'o':
			opt.ops_mask = parse_ops(optarg);
			break;
		case 'a':
			opt.avoid = parse_avoid(optarg);
			break;
		case 'x':
			opt.strict = true;
			break;
		case 'C':
			opt.chmod_node = false;
			break;
		case 'v':
			opt.verbose++;
			break;
		default:
			usage();
		}
		if (end && *end)
			usage();
	}
	if (optind != argc)
		usage();
	if (!have_seed)
		opt.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);

	printf("fuzz: seed %" PRIu64 " calls %" PRIu64 " children %d time-limit %g%s", opt.seed,
	       opt.calls, opt.children, opt.time_limit, opt.race ? "" : " no-race");
	for (size_t i = 0; i < sizeof(avoids) / sizeof(avoids[0]); i++)
		if (opt.avoid & avoids[i].bit)
			printf(" avoid %s", avoids[i].name);
	printf("\n");
	fflush(stdout);

	fd = ppu_open_render_node(node_path, sizeof(node_path));
	if (fd < 0)
		die("no render node of driver \"ppu\" in /dev/dri (is ppu.ko loaded?)");
	close(fd);
	if (opt.chmod_node && geteuid() == 0 && opt.children > 1) {
		/* Clients that drop privileges must be able to (re)open it. */
		if (chmod(node_path, 0666))
			die("chmod %s: %s", node_path, strerror(errno));
		printf("fuzz: made %s world read-writable for unprivileged clients\n", node_path);
	}

	read_leaks(&before);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("cannot map the shared statistics: %s", strerror(errno));

	t0 = now_s();
	deadline = opt.time_limit > 0 ? t0 + opt.time_limit : 1e300;
	fflush(stdout);
	for (int k = 0; k < opt.children; k++) {
		uint64_t budget = opt.calls / (uint64_t)opt.children +
				  ((uint64_t)k < opt.calls % (uint64_t)opt.children);

		sh->in_op[k] = -1;
		pids[k] = fork();
		if (pids[k] < 0)
			die("fork: %s", strerror(errno));
		if (!pids[k]) {
			int ret = client_main(k, budget, deadline);

			fflush(stdout);
			_exit(ret);
		}
		last[k] = 0;
		last_t[k] = t0;
	}

	/* Wait; a client without progress for --stall seconds is hung. */
	alive = opt.children;
	while (alive) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid > 0) {
			int k;

			for (k = 0; k < opt.children && pids[k] != pid; k++)
				;
			if (k == opt.children)
				continue;
			pids[k] = 0;
			alive--;
			if (WIFSIGNALED(status)) {
				printf("fuzz: client %d (seed %" PRIu64 ") died by signal %d "
				       "(%s)%s\n", k, opt.seed + (uint64_t)k, WTERMSIG(status),
				       strsignal(WTERMSIG(status)),
				       hung ? " (killed as hung)" : "");
				if (WTERMSIG(status) != SIGKILL || !hung)
					crashed = true;
			} else if (WEXITSTATUS(status)) {
				printf("fuzz: client %d exited with %d\n", k, WEXITSTATUS(status));
				failed = true;
			}
			continue;
		}
		usleep(100000);
		for (int k = 0; k < opt.children; k++) {
			double now = now_s();

			if (!pids[k])
				continue;
			if (sh->progress[k] != last[k]) {
				last[k] = sh->progress[k];
				last_t[k] = now;
			} else if (now - last_t[k] > opt.stall_s) {
				printf("fuzz: client %d (seed %" PRIu64 ") made no call for %d s "
				       "after "
				       "call %" PRIu64 " (action %s, in %s): hung\n", k,
				       opt.seed + (uint64_t)k, opt.stall_s, last[k],
				       actions[sh->action[k]].name, sh->in_op[k] >= 0 ?
				       op_names[sh->in_op[k]] : "no call");
				print_stacks(pids[k]);
				hung = true;
				kill(pids[k], SIGKILL);
				last_t[k] = now + 1e9;
			}
		}
	}
	{
		double secs = now_s() - t0;

		print_report(secs, hung || crashed || !opt.leak_check || leak_check(&before));
	}
	if (hung)
		return 3;
	if (crashed)
		return 2;
	return failed ? 1 : 0;
}
