/* SPDX-License-Identifier: MIT */
/*
 * PPU simulation harness: a C API around the Verilated ppu_top.
 *
 * The harness owns the clock, the reset, the register bus driver and a
 * memory model for the two apertures (local and system).  It is used by
 * the C unit tests, the benchmarks and the co-simulation server, so it is
 * plain C, single-threaded and allocation-free once created.
 *
 * Time: one call to ppu_sim_clock(sim, 1) is one rising edge of clk.  Within
 * a cycle the harness drives every input with clk low, evaluates, samples
 * every handshake, then raises clk; so everything the RTL sees in a cycle
 * was decided before that cycle's edge, as in hardware.
 *
 * Memory contract (what the RTL may rely on):
 *  - at most one read and one write are accepted per cycle;
 *  - an access takes effect when accepted: read data is sampled and write
 *    data (honouring byte strobes) is applied to the backing store in the
 *    cycle of acceptance; in a cycle accepting both, the read comes first;
 *  - each channel answers in request order (read data in read order, write
 *    acks in write order), carrying the request's tag, no earlier than
 *    <latency> cycles after acceptance, and never overtaking an earlier
 *    response of the same channel;
 *  - err = 1, with no data and no effect, when the address lies beyond the
 *    aperture's backing store (or sys_xlate returns NULL);
 *  - ready depends only on harness state, never on valid or on the request
 *    in the same cycle: each aperture and direction has a token bucket
 *    (cfg *_bytes_per_cycle); a request left waiting in the previous cycle
 *    gets ready as soon as its aperture's bucket holds a beat, a new
 *    request (aperture not yet known) only when both buckets do, which
 *    costs at most one cycle when traffic moves to a throttled aperture.
 *
 * Nothing here is thread-safe; use one ppu_sim from one thread at a time.
 * Several ppu_sim instances may coexist in one process.
 */
#ifndef PPU_SIM_H
#define PPU_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ppu_sim;

/* Aperture selector for the memory functions (the RTL's mem_*_sys bit). */
enum ppu_sim_aperture {
	PPU_SIM_LOCAL = 0,
	PPU_SIM_SYS = 1,
};

/*
 * Translates a system-aperture physical address for the co-simulation
 * server, which maps guest RAM instead of letting the harness own it.
 * Returns a host pointer valid for @len bytes starting at @pa, or NULL to
 * make the access a bus error.  Called once per accepted beat (len = 8)
 * and, for ppu_sim_mem_read/write, twice per piece of the range cut at
 * 4 KiB boundaries (check everything, then copy).
 */
typedef void *(*ppu_sim_xlate_fn)(void *ctx, uint64_t pa, uint64_t len);

/*
 * Error injection (co-simulation): called for every beat the RTL's memory
 * port accepts, before it takes effect; nonzero makes that beat a bus
 * error (err = 1, no data, no effect), as for an address beyond the
 * backing store.  @sys: aperture, @write: 1 for a write beat.  Not called
 * for ppu_sim_mem_read/write.
 */
typedef int (*ppu_sim_mem_err_fn)(void *ctx, int sys, int write,
				  uint64_t addr);

struct ppu_sim_config {
	/*
	 * Backing store sizes; addresses at or beyond them are bus errors.
	 * local_mem_bytes >> 20 (at most 0xffff) also drives the RTL's
	 * local_mem_mib strap, read back in CAP_LOCAL_MEM_MIB.
	 */
	uint64_t local_mem_bytes;
	/* Ignored when sys_xlate is set: the callback owns system memory. */
	uint64_t sys_mem_bytes;
	ppu_sim_xlate_fn sys_xlate;
	void *sys_xlate_ctx;
	/* NULL: no injected errors. */
	ppu_sim_mem_err_fn mem_err;
	void *mem_err_ctx;

	/*
	 * Cycles from acceptance to response (0 is taken as 1, the minimum: a
	 * response is seen in the cycle after acceptance at the earliest;
	 * at most 1 << 20).
	 */
	uint32_t local_latency;
	uint32_t sys_latency;
	/*
	 * Bandwidth per direction in bytes per cycle, e.g. 8 = one beat per
	 * cycle, 2 = one beat every 4 cycles; 0 or >= 8 means one beat per
	 * cycle, the port's maximum.
	 */
	uint32_t local_bytes_per_cycle;
	uint32_t sys_bytes_per_cycle;

	/*
	 * Waveform (FST) output file; NULL = none.  Costs a lot of speed.
	 * Time advances 10 units per cycle, clk rising at +5.
	 */
	const char *fst_path;
	/*
	 * Event trace text file; NULL = none.  One line per record:
	 * "<cycle> <KIND> ch=<n> a=0x%08x b=0x%08x".
	 */
	const char *trace_path;

	/* Cycles a register access may take before failing (-ETIMEDOUT). */
	uint32_t reg_timeout_cycles;
	/* Cycles rst_n is held low by ppu_sim_reset(). */
	uint32_t reset_cycles;

	/*
	 * The FPGA model (libppusim_fpga.a: hw/fpga/ppu_fpga_top behind AXI
	 * responders, docs/fpga.md) only; the bare model ignores these.
	 * axi_ready_pct: chance in percent that a responder offers READY on
	 * AR, AW and W, and VALID on R and B, in a cycle (0 is taken as 100);
	 * axi_jitter: extra latency per burst, uniform in [0, axi_jitter]
	 * cycles, on top of the aperture's latency (responses of one ID stay
	 * in order); axi_max_bursts: bursts per aperture and direction a
	 * responder takes before holding READY low (0 = 16); axi_seed: the
	 * random sequence (0 is taken as 1).
	 */
	uint32_t axi_ready_pct;
	uint32_t axi_jitter;
	uint32_t axi_max_bursts;
	uint64_t axi_seed;
};

/*
 * Fills @cfg with defaults: 16 MiB per aperture, latency 8 cycles local
 * and 32 system, full bandwidth, no output files, 10000-cycle register
 * timeout, 8 reset cycles; for the FPGA model READY/VALID offered 75 % of
 * cycles, up to 8 cycles of jitter, 16 bursts, seed 1.
 */
void ppu_sim_config_default(struct ppu_sim_config *cfg);

/*
 * Builds the model, allocates (zeroed) backing memory, opens the output
 * files and applies ppu_sim_reset(), so the result is ready for register
 * accesses.  @cfg may be NULL for the defaults; start from
 * ppu_sim_config_default() rather than from zeros.  It is copied, and the
 * strings it points to need only live during the call.  Returns NULL with
 * errno set on failure: EINVAL for memory sizes that are not a multiple of
 * 8, a latency above 1 << 20 or a zero reg_timeout_cycles; ENOMEM; or the
 * error opening an output file.
 */
struct ppu_sim *ppu_sim_create(const struct ppu_sim_config *cfg);

/*
 * Runs the RTL's final blocks, flushes and closes the output files, frees
 * everything.  NULL is allowed.
 */
void ppu_sim_destroy(struct ppu_sim *sim);

/*
 * Holds rst_n low for cfg.reset_cycles cycles (at least 2) with every
 * input idle, then releases it.  Memory responses still in flight are
 * dropped (they belong to the old life of the RTL), bandwidth budgets are
 * refilled, an unfinished register access is forgotten.  Backing memory
 * is kept.  The cycle counter keeps counting.
 */
void ppu_sim_reset(struct ppu_sim *sim);

/* Advances @n clock cycles. */
void ppu_sim_clock(struct ppu_sim *sim, uint64_t n);

/* Rising edges since ppu_sim_create() (reset cycles included). */
uint64_t ppu_sim_cycles(const struct ppu_sim *sim);

/*
 * Register accesses through the register bus: present the request until
 * accepted, then clock until the response pulse.  @addr is a BAR0 byte
 * offset: the register window, or a channel's doorbell page above it
 * (ppu_regs.def USERDB_BASE).  Return 0, or -ETIMEDOUT when no response
 * arrived within cfg.reg_timeout_cycles (the simulation is left at that
 * point; a late response to it is discarded), or -EINVAL for an address
 * that is not dword aligned.
 */
int ppu_sim_reg_read(struct ppu_sim *sim, uint32_t addr, uint32_t *val);
int ppu_sim_reg_write(struct ppu_sim *sim, uint32_t addr, uint32_t val);

/* Current level of the interrupt output (1 = asserted). */
int ppu_sim_irq(const struct ppu_sim *sim);

/*
 * 1 when the PPU has nothing to do until a register write arrives: every
 * channel unbound, idle or faulted, no doorbell or unbind pending, no
 * engine or memory work in flight.  A blocked acquire is not idle (its
 * retry timer needs the clock).  A co-simulation server stops clocking then.
 */
int ppu_sim_idle(const struct ppu_sim *sim);

/*
 * Host (backdoor) access to backing memory, no simulated time passes;
 * @sys is 0 for local memory, nonzero for system memory.
 * Return 0, or -EFAULT when any byte of [pa, pa + len) is outside the
 * aperture (nothing is copied then).
 */
int ppu_sim_mem_read(struct ppu_sim *sim, int sys, uint64_t pa, void *buf,
		     size_t len);
int ppu_sim_mem_write(struct ppu_sim *sim, int sys, uint64_t pa,
		      const void *buf, size_t len);

/*
 * Base of the harness-owned backing store of an aperture, its size in
 * *@bytes when @bytes is not NULL.  NULL for the system aperture when
 * sys_xlate is in use.  Writes through it are seen by the RTL's next
 * accepted access.
 */
void *ppu_sim_mem_ptr(struct ppu_sim *sim, int sys, uint64_t *bytes);

/* One record from a trace port. */
struct ppu_sim_event {
	uint64_t cycle;		/* cycle whose edge sampled the record */
	uint32_t kind;		/* PPU_TRACE_* */
	uint32_t chid;
	uint32_t a, b;
	uint32_t port;		/* 0 host, 1 copy, 2 semaphore, 3 faults, 4 compute */
};

typedef void (*ppu_sim_event_fn)(void *ctx, const struct ppu_sim_event *ev);

/*
 * Calls @fn for every trace record, in cycle order and port order within a
 * cycle, from inside the clocking functions (so @fn must not clock the
 * simulation; it may read memory through ppu_sim_mem_*).  @fn = NULL
 * removes the callback.  Independent of cfg.trace_path.
 */
void ppu_sim_set_event_cb(struct ppu_sim *sim, ppu_sim_event_fn fn,
			  void *ctx);

/* Name of a PPU_TRACE_* kind ("DOORBELL", ...), NULL if unknown. */
const char *ppu_sim_kind_name(uint32_t kind);

typedef int (*ppu_sim_pred_fn)(struct ppu_sim *sim, void *ctx);

/*
 * Clocks until @pred returns nonzero; @pred is checked before the first
 * cycle and after every cycle.  Returns the number of cycles run, or -1
 * when @pred was still zero after @max_cycles cycles.  @pred looks at
 * state (ppu_sim_irq, memory, what an event callback recorded) and must
 * not clock the simulation itself: poll registers with a loop of
 * ppu_sim_reg_read() instead.
 */
int64_t ppu_sim_run_until(struct ppu_sim *sim, ppu_sim_pred_fn pred,
			  void *ctx, uint64_t max_cycles);

struct ppu_sim_stats {
	uint64_t cycles;	/* cycles clocked since the last stats reset */
	double wall_seconds;	/* host time spent clocking them */
	double cycles_per_sec;	/* cycles / wall_seconds, 0 if no time */
	uint64_t rd_beats[2];	/* accepted reads, [local, sys] */
	uint64_t wr_beats[2];	/* accepted writes */
	uint64_t rd_errors;	/* reads answered with err */
	uint64_t wr_errors;	/* writes answered with err */
	uint64_t events;	/* trace records */
	/*
	 * RTL protocol violations seen by the harness: valid or payload
	 * changed before ready, unaligned beat address, unexpected register
	 * response.  The first few are also printed on stderr.  Tests
	 * should expect 0.
	 */
	uint64_t protocol_errors;
	/*
	 * FPGA model only (zero otherwise), [read, write][local, sys]: AXI
	 * bursts accepted by the responders, the longest burst in beats, the
	 * most bursts outstanding at once, and responses given with SLVERR
	 * (an injected error, cfg.mem_err) or DECERR (beyond the backing
	 * store).
	 */
	uint64_t axi_bursts[2][2];
	uint32_t axi_max_len[2][2];
	uint32_t axi_max_outstanding[2][2];
	uint64_t axi_slverr[2][2];
	uint64_t axi_decerr[2][2];
};

/* 1 when this library is the FPGA model (hw/fpga/ppu_fpga_top). */
int ppu_sim_is_fpga(void);

/* Counters since creation or the last ppu_sim_reset_stats(). */
void ppu_sim_get_stats(const struct ppu_sim *sim, struct ppu_sim_stats *st);
void ppu_sim_reset_stats(struct ppu_sim *sim);

/*
 * Failures of the invariant checkers of hw/chk (bound into the model by the
 * simulation build) since creation; the first few are also printed on
 * stderr.  Tests should expect 0.  Not cleared by ppu_sim_reset_stats.
 */
uint64_t ppu_sim_check_errors(const struct ppu_sim *sim);
/*
 * Self-test of the checkers: each bit of @mask (SELFTEST_* of
 * hw/chk/ppu_chk_pkg.sv: 1 copy, 2 semaphore, 4 MMU, 8 host, 16 the FPGA
 * model's AXI checkers: bursts of one beat only) makes one
 * checker enforce a deliberately wrong rule, so that correct RTL fails it.
 */
void ppu_sim_set_check_selftest(struct ppu_sim *sim, uint32_t mask);

/*
 * The Verilated model (a Vppu_top *, or a Vppu_fpga_top * in the FPGA
 * model) for C++ white-box tests that poke at ports; C code has no use
 * for it.
 */
void *ppu_sim_model(struct ppu_sim *sim);

#ifdef __cplusplus
}
#endif

#endif /* PPU_SIM_H */
