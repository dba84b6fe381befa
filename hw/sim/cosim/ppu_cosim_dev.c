// SPDX-License-Identifier: MIT
/*
 * ppu-cosim-dev: serves the Verilated PPU to QEMU as a PCI function through
 * QEMU's multi-process proxy (-device x-pci-proxy-dev,fd=N).
 *
 *   QEMU vCPU --config/BAR0 access--> proxy socket --> this process
 *        config space: emulated here (cosim_pci.c)
 *        BAR0:         the RTL register bus (ppu_sim_reg_read/write);
 *                      the reply goes back when the model answers
 *   guest RAM (memfd from SYNC_SYSMEM) <--DMA-- model's system aperture
 *   model irq --> qtest socket "writel <MSI address> <MSI data>"
 *   BAR2:         error injection control (ppu_inject.h), co-simulation
 *                 only: memory bus errors, dropped interrupts, link loss
 *
 * Single-threaded on purpose: the model is clocked only from the main loop
 * and from inside a register access, and guest RAM is remapped only while
 * handling a SYNC_SYSMEM message, so DMA never sees a mapping change.
 *
 * Main loop: poll() the proxy and qtest sockets (busy-polling for a short
 * while after each message, as MMIO comes in bursts); while the PPU has work
 * (ppu_sim_idle() == 0) clock it in chunks between polls, a chunk ending
 * early when the irq rises or the work runs out; when it is idle, sleep in
 * poll() until QEMU sends something.  Exit when QEMU closes the
 * proxy socket.
 *
 * Exit status: 0 clean; 1 the device could not be served; 2 served, but
 * the RTL's invariant checkers (hw/chk) reported a broken contract, which
 * ppu-cosim counts as a failed run.
 *
 * Interrupts: the PPU's irq output is a level (INTR_STATUS & INTR_ENABLE);
 * MSI is an edge.  A message is sent when the level rises, and again when
 * the level is still high a short hold-off after the driver wrote an
 * interrupt register (an ack that left work pending), so a level interrupt
 * is never lost.  While MSI is disabled (or bus mastering is off) the
 * interrupt is held and sent when it is enabled; with MSI disabled and
 * INTx allowed, the level drives the IOAPIC pin through qtest instead.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "ppu/ppu_encode.h"
#include "ppu/ppu_hw.h"
#include "ppu_sim.h"

#include "cosim_pci.h"
#include "cosim_qtest.h"
#include "mpqemu.h"
#include "ppu_inject.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define PROG "ppu-cosim-dev"
#define MAX_WARN 10		/* repeated warnings go quiet after this */
#define QTEST_RETRY_MS 20	/* reconnect period while an irq waits */
#define IDLE_SETTLE_CYCLES 4	/* clocked after idle before sleeping */
/*
 * Busy-poll after a message before sleeping: waking a sleeping process
 * costs 20-40 us on a small VM, and a driver's MMIO comes in bursts
 * (measured: 60 us per access without, 21 us with).
 */
#define DEFAULT_SPIN_NS 50000

struct sysmem_region {
	uint64_t gpa;
	uint64_t size;
	uint8_t *host;		/* gpa maps here */
	void *map;		/* mmap() result (page-aligned) */
	size_t map_len;
};

struct cosim_stats {
	uint64_t cfg_rd, cfg_wr;
	uint64_t bar_rd, bar_wr;
	uint64_t bar_ns;		/* time spent serving BAR accesses */
	uint64_t bar_cycles;		/* cycles clocked inside them */
	uint64_t bad_bar;		/* outside BAR0, sub-dword write, ... */
	uint64_t reg_timeouts;
	uint64_t run_cycles;		/* cycles clocked by the main loop */
	uint64_t syncs;
	uint64_t resets;
	uint64_t msi, msi_rearm;
	uint64_t intx;
	uint64_t dma_blocked;		/* beats refused: bus master off */
	uint64_t dma_unmapped;		/* beats outside guest RAM */
	uint64_t dma_link_down;		/* beats refused: link down */
};

/* One memory error window of BAR2 (ppu_inject.h). */
struct inject_window {
	uint32_t ctrl;
	uint64_t base, size;
	uint32_t hits;
};

/* What BAR2 injects. */
struct inject {
	uint32_t link;			/* PPU_INJECT_LINK_* */
	uint32_t resets;
	uint32_t irq_drop;		/* messages still to drop */
	uint64_t irq_drop_until_ns;	/* drop everything until then */
	uint32_t irq_dropped, irq_sent;
	uint32_t mem_errors;
	uint64_t find, found;
	uint32_t nwin_on;		/* enabled windows */
	struct inject_window win[PPU_INJECT_MEM_WINDOWS];
};

struct cosim {
	struct ppu_sim *sim;
	struct cosim_pci pci;
	struct cosim_qtest qt;
	int fd;				/* proxy socket */
	int verbose;
	uint32_t chunk;			/* cycles per main-loop run */

	struct sysmem_region mem[MPQ_MAX_FDS];
	unsigned int nmem;
	unsigned int last_hit;		/* region of the previous xlate */

	/* Interrupt state (see the top of the file). */
	bool irq_level;			/* model irq as last sampled */
	bool msi_pending;		/* a message is owed to the guest */
	bool rearm;			/* re-check the level at rearm_ns */
	uint64_t rearm_ns;
	uint64_t holdoff_ns;
	uint64_t spin_ns;		/* busy-poll this long after a message */
	uint64_t last_msg_ns;
	const char *ioapic;		/* qtest path of the IOAPIC, NULL: no INTx */
	bool intx_asserted;
	int intx_gsi;

	unsigned int warned_master, warned_access, warned_unmapped;
	unsigned int warned_line;
	struct cosim_stats st;
	struct inject inj;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* "ppu-cosim-dev[name]: " when QEMU has several PPUs (--name), else PROG. */
static const char *prog = PROG;

static void eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void eprintf(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static void logv(const struct cosim *c, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void logv(const struct cosim *c, int level, const char *fmt, ...)
{
	va_list ap;

	if (c->verbose < level)
		return;
	eprintf("[%" PRIu64 "] ", ppu_sim_cycles(c->sim));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Prints the first MAX_WARN occurrences of a warning. */
static void warn_limited(unsigned int *count, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn_limited(unsigned int *count, const char *fmt, ...)
{
	va_list ap;

	if (*count >= MAX_WARN)
		return;
	if (++*count == MAX_WARN)
		eprintf("(last warning of this kind)\n");
	eprintf("warning: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- guest RAM ---------------------------------------------------------- */

static void sysmem_unmap_all(struct cosim *c)
{
	for (unsigned int i = 0; i < c->nmem; i++)
		munmap(c->mem[i].map, c->mem[i].map_len);
	c->nmem = 0;
	c->last_hit = 0;
}

/*
 * Replaces the whole guest RAM map.  Runs between clock runs only (it is a
 * message handler), so no DMA beat can see a half-updated table.
 */
static void sysmem_sync(struct cosim *c, const struct mpq_sync_sysmem *m,
			const int *fds, int nfds)
{
	long page = sysconf(_SC_PAGESIZE);

	sysmem_unmap_all(c);
	for (int i = 0; i < nfds; i++) {
		uint64_t off = (uint64_t)m->offset[i];
		uint64_t skew = off & (uint64_t)(page - 1);
		struct sysmem_region *r = &c->mem[c->nmem];
		void *p;

		if (!m->size[i])
			continue;
		p = mmap(NULL, m->size[i] + skew, PROT_READ | PROT_WRITE,
			 MAP_SHARED, fds[i], (off_t)(off - skew));
		if (p == MAP_FAILED) {
			eprintf("cannot map guest RAM 0x%" PRIx64
				"+0x%" PRIx64 ": %s\n", m->gpa[i], m->size[i],
				strerror(errno));
			continue;
		}
		r->gpa = m->gpa[i];
		r->size = m->size[i];
		r->map = p;
		r->map_len = m->size[i] + skew;
		r->host = (uint8_t *)p + skew;
		c->nmem++;
		logv(c, 3, "sysmem: gpa 0x%" PRIx64 " size 0x%" PRIx64
		     " fd offset 0x%" PRIx64, r->gpa, r->size, off);
	}
	c->st.syncs++;
}

static void *sys_xlate(void *ctx, uint64_t pa, uint64_t len)
{
	struct cosim *c = ctx;
	const struct sysmem_region *r = &c->mem[c->last_hit];

	/* No link, no DMA: the request never reaches the host. */
	if (unlikely(c->inj.link != PPU_INJECT_LINK_UP)) {
		c->st.dma_link_down++;
		return NULL;
	}
	/* A function with bus mastering off must not issue requests. */
	if (unlikely(!cosim_pci_master(&c->pci))) {
		c->st.dma_blocked++;
		warn_limited(&c->warned_master,
			     "DMA to 0x%" PRIx64 " while bus mastering is "
			     "disabled (pci_set_master() missing?): bus error",
			     pa);
		return NULL;
	}
	if (likely(c->last_hit < c->nmem && pa - r->gpa < r->size &&
		   len <= r->size - (pa - r->gpa)))
		return r->host + (pa - r->gpa);
	for (unsigned int i = 0; i < c->nmem; i++) {
		r = &c->mem[i];
		if (pa - r->gpa < r->size && len <= r->size - (pa - r->gpa)) {
			c->last_hit = i;
			return r->host + (pa - r->gpa);
		}
	}
	c->st.dma_unmapped++;
	warn_limited(&c->warned_unmapped,
		     "DMA to 0x%" PRIx64 " (%" PRIu64 " bytes): not guest RAM",
		     pa, len);
	return NULL;
}

/* ---- error injection (BAR2) ------------------------------------------- */

/* The model's memory port asks: does this beat fail? */
static int inject_mem_err(void *ctx, int sys, int write, uint64_t addr)
{
	struct cosim *c = ctx;
	uint32_t want = PPU_INJECT_MEM_CTRL_ENABLE |
			(write ? PPU_INJECT_MEM_CTRL_WRITE :
				 PPU_INJECT_MEM_CTRL_READ);

	if (likely(!c->inj.nwin_on))
		return 0;
	for (unsigned int i = 0; i < PPU_INJECT_MEM_WINDOWS; i++) {
		struct inject_window *w = &c->inj.win[i];

		if ((w->ctrl & want) != want ||
		    !(w->ctrl & PPU_INJECT_MEM_CTRL_SYS) != !sys ||
		    addr - w->base >= w->size)
			continue;
		w->hits++;
		c->inj.mem_errors++;
		logv(c, 2, "injected %s bus error: %s 0x%" PRIx64 " (window %u)",
		     w->ctrl & PPU_INJECT_MEM_CTRL_SLVERR ? "SLVERR" : "DECERR",
		     write ? "write" : "read", addr, i);
		return 1;
	}
	return 0;
}

/* Whether an interrupt message about to be sent is dropped (and count it). */
static bool inject_irq_drop(struct cosim *c)
{
	if (c->inj.irq_drop) {
		c->inj.irq_drop--;
	} else if (!c->inj.irq_drop_until_ns ||
		   now_ns() >= c->inj.irq_drop_until_ns) {
		c->inj.irq_drop_until_ns = 0;
		return false;
	}
	c->inj.irq_dropped++;
	logv(c, 1, "interrupt dropped (injected)");
	return true;
}

/* ---- interrupts --------------------------------------------------------- */

static void intx_set(struct cosim *c, bool on)
{
	int gsi;

	if (!c->ioapic || on == c->intx_asserted)
		return;
	/* The edge of a dropped INTx is eaten: the pin stays low. */
	if (on && (c->inj.link != PPU_INJECT_LINK_UP || inject_irq_drop(c))) {
		c->intx_asserted = true;
		return;
	}
	if (on) {
		gsi = c->pci.cfg[PCI_CFG_INT_LINE];
		/* qtest aborts QEMU on a pin the IOAPIC does not have. */
		if (gsi == 0 || gsi >= 24) {
			warn_limited(&c->warned_line,
				     "INTx: interrupt line %d is not an "
				     "IOAPIC input, not raised", gsi);
			return;
		}
		c->intx_gsi = gsi;
	} else {
		gsi = c->intx_gsi;
	}
	if (cosim_qtest_connect(&c->qt) < 0)
		return;
	if (cosim_qtest_cmd(&c->qt, "set_irq_in %s unnamed-gpio-in %d %d",
			    c->ioapic, gsi, on ? 1 : 0) == 0) {
		c->intx_asserted = on;
		c->st.intx += on;
		logv(c, 2, "INTx %s (GSI %d)", on ? "asserted" : "deasserted",
		     gsi);
	}
}

/* INTx level wanted: the irq is up, MSI is off and INTx is allowed. */
static bool intx_wanted(const struct cosim *c)
{
	return c->irq_level && !cosim_pci_msi_enabled(&c->pci) &&
	       !cosim_pci_intx_disabled(&c->pci);
}

/* Something still to send (held, or qtest was not there yet). */
static bool irq_owed(const struct cosim *c)
{
	return c->msi_pending ||
	       (c->ioapic && c->intx_asserted != intx_wanted(c));
}

/* Sends what is owed, as far as the guest's configuration allows. */
static void irq_deliver(struct cosim *c)
{
	bool msi = cosim_pci_msi_enabled(&c->pci);
	uint64_t addr;
	uint16_t data;

	c->pci.intx_level = c->irq_level && !msi;
	intx_set(c, intx_wanted(c));
	if (!msi || !c->msi_pending)
		return;
	/* MSI is a memory write: held while bus mastering is off. */
	if (!cosim_pci_master(&c->pci))
		return;
	/* Lost on the way: no link, or an injected drop. */
	if (c->inj.link != PPU_INJECT_LINK_UP || inject_irq_drop(c)) {
		c->msi_pending = false;
		return;
	}
	if (cosim_qtest_connect(&c->qt) < 0)
		return;
	/* Read at each send: Linux rewrites them on affinity changes. */
	addr = cosim_pci_msi_addr(&c->pci);
	data = cosim_pci_msi_data(&c->pci);
	if (cosim_qtest_cmd(&c->qt, "writel 0x%" PRIx64 " 0x%x", addr,
			    data) == 0) {
		c->msi_pending = false;
		c->st.msi++;
		c->inj.irq_sent++;
		logv(c, 2, "MSI -> 0x%" PRIx64 " data 0x%x", addr, data);
	}
}

/*
 * Samples the model's irq.  @ack: the guest just wrote an interrupt
 * register; if the level is still high afterwards, re-send after the
 * hold-off (unless the level falls first, e.g. by the next ack write of
 * the same handler).
 */
static void irq_update(struct cosim *c, bool ack)
{
	bool level = ppu_sim_irq(c->sim) != 0;

	if (level && !c->irq_level) {
		c->msi_pending = true;
		c->rearm = false;
	} else if (level && ack) {
		c->rearm = true;
		c->rearm_ns = now_ns() + c->holdoff_ns;
	}
	if (!level) {
		c->msi_pending = false;
		c->rearm = false;
	}
	c->irq_level = level;
	irq_deliver(c);
}

static void irq_check_rearm(struct cosim *c)
{
	if (!c->rearm || now_ns() < c->rearm_ns)
		return;
	c->rearm = false;
	if (ppu_sim_irq(c->sim)) {
		c->msi_pending = true;
		c->st.msi_rearm++;
		logv(c, 2, "irq still pending after ack: re-raise");
	}
	irq_deliver(c);
}

static bool is_intr_reg(uint32_t off)
{
	return off == PPU_REG_INTR_STATUS || off == PPU_REG_INTR_ENABLE ||
	       off == PPU_REG_NONSTALL_PENDING ||
	       off == PPU_REG_FAULT_PENDING;
}

/* ---- config space and BAR0 ---------------------------------------------- */

static void cfg_write(struct cosim *c, uint32_t addr, uint32_t val, int len)
{
	uint64_t bar_old = cosim_pci_bar0(&c->pci);
	uint16_t cmd_old = cosim_pci_get16(&c->pci, PCI_CFG_COMMAND);
	bool msi_old = cosim_pci_msi_enabled(&c->pci);
	uint16_t cmd;

	cosim_pci_write(&c->pci, addr, val, len);
	c->st.cfg_wr++;
	logv(c, 3, "cfg write 0x%02x/%d = 0x%x", addr, len, val);

	cmd = cosim_pci_get16(&c->pci, PCI_CFG_COMMAND);
	if (cosim_pci_bar0(&c->pci) != bar_old &&
	    cosim_pci_bar0(&c->pci) != (uint32_t)~(c->pci.bar0_size - 1))
		logv(c, 1, "BAR0 at 0x%" PRIx64, cosim_pci_bar0(&c->pci));
	if (cmd != cmd_old)
		logv(c, 1, "command 0x%04x (memory %s, bus master %s, INTx %s)",
		     cmd, cmd & PCI_CMD_MEMORY ? "on" : "off",
		     cmd & PCI_CMD_MASTER ? "on" : "off",
		     cmd & PCI_CMD_INTX_DISABLE ? "disabled" : "enabled");
	if (cosim_pci_msi_enabled(&c->pci) != msi_old)
		logv(c, 1, "MSI %s: address 0x%" PRIx64 " data 0x%x",
		     msi_old ? "disabled" : "enabled",
		     cosim_pci_msi_addr(&c->pci), cosim_pci_msi_data(&c->pci));
	/* Enabling MSI or bus mastering releases a held interrupt. */
	irq_deliver(c);
}

static uint32_t reg_read(struct cosim *c, uint32_t off)
{
	uint32_t v;
	int err = ppu_sim_reg_read(c->sim, off, &v);

	if (err) {
		c->st.reg_timeouts++;
		eprintf("BAR0 read 0x%04x: %s\n", off,
			strerror(-err));
		return 0xffffffffu;
	}
	return v;
}

static void reg_write(struct cosim *c, uint32_t off, uint32_t v)
{
	int err = ppu_sim_reg_write(c->sim, off, v);

	if (err) {
		c->st.reg_timeouts++;
		eprintf("BAR0 write 0x%04x = 0x%08x: %s\n", off,
			v, strerror(-err));
	}
}

/*
 * Resets the model and its interrupt state (config space is the caller's
 * business): power-on reset, function-level reset, a device coming back
 * after a link loss.
 */
static void model_reset(struct cosim *c, const char *why)
{
	logv(c, 1, "model reset (%s)", why);
	c->inj.resets++;
	ppu_sim_reset(c->sim);
	c->msi_pending = false;
	c->rearm = false;
	c->irq_level = false;
	irq_update(c, false);	/* deasserts INTx if it was up */
}

static uint32_t inject_read(struct cosim *c, uint32_t off)
{
	struct inject *in = &c->inj;
	uint64_t now;

	if (off >= PPU_INJECT_MEM_BASE &&
	    off < PPU_INJECT_MEM(PPU_INJECT_MEM_WINDOWS, 0)) {
		const struct inject_window *w =
			&in->win[(off - PPU_INJECT_MEM_BASE) /
				 PPU_INJECT_MEM_STRIDE];

		switch ((off - PPU_INJECT_MEM_BASE) % PPU_INJECT_MEM_STRIDE) {
		case PPU_INJECT_MEM_CTRL:
			return w->ctrl;
		case PPU_INJECT_MEM_BASE_LO:
			return (uint32_t)w->base;
		case PPU_INJECT_MEM_BASE_HI:
			return (uint32_t)(w->base >> 32);
		case PPU_INJECT_MEM_SIZE_LO:
			return (uint32_t)w->size;
		case PPU_INJECT_MEM_SIZE_HI:
			return (uint32_t)(w->size >> 32);
		case PPU_INJECT_MEM_HITS:
			return w->hits;
		}
		return 0;
	}
	switch (off) {
	case PPU_INJECT_MAGIC:
		return PPU_INJECT_MAGIC_VALUE;
	case PPU_INJECT_VERSION:
		return PPU_INJECT_VERSION_VALUE;
	case PPU_INJECT_LINK:
		return in->link;
	case PPU_INJECT_RESETS:
		return in->resets;
	case PPU_INJECT_IRQ_DROP:
		return in->irq_drop;
	case PPU_INJECT_IRQ_DROP_MS:
		now = now_ns();
		return in->irq_drop_until_ns > now ?
		       (uint32_t)((in->irq_drop_until_ns - now + 999999) /
				  1000000) : 0;
	case PPU_INJECT_IRQ_DROPPED:
		return in->irq_dropped;
	case PPU_INJECT_IRQ_SENT:
		return in->irq_sent;
	case PPU_INJECT_MEM_ERRORS:
		return in->mem_errors;
	case PPU_INJECT_FIND_LO:
		return (uint32_t)in->find;
	case PPU_INJECT_FIND_HI:
		return (uint32_t)(in->find >> 32);
	case PPU_INJECT_FOUND_LO:
		return (uint32_t)in->found;
	case PPU_INJECT_FOUND_HI:
		return (uint32_t)(in->found >> 32);
	}
	return 0;
}

/* The first guest RAM page that starts with in->find (all ones: none). */
static void inject_find(struct cosim *c)
{
	c->inj.found = ~(uint64_t)0;
	for (unsigned int i = 0; i < c->nmem; i++) {
		const struct sysmem_region *r = &c->mem[i];
		uint64_t skip = (4096 - (r->gpa & 4095)) & 4095;

		for (uint64_t o = skip; o + 8 <= r->size; o += 4096) {
			uint64_t v;

			memcpy(&v, r->host + o, sizeof(v));
			if (v == c->inj.find) {
				c->inj.found = r->gpa + o;
				return;
			}
		}
	}
}

static void inject_set_link(struct cosim *c, uint32_t link)
{
	uint32_t old = c->inj.link;

	if (link > PPU_INJECT_LINK_GONE || link == old)
		return;
	c->inj.link = link;
	eprintf("injected: link %s\n",
		link == PPU_INJECT_LINK_UP ? "up" :
		link == PPU_INJECT_LINK_DOWN ? "down" : "gone (device vanished)");
	if (link == PPU_INJECT_LINK_UP)
		model_reset(c, "back after a link loss");
	else
		c->msi_pending = false;	/* nothing crosses a dead link */
}

static void inject_write(struct cosim *c, uint32_t off, uint32_t v)
{
	struct inject *in = &c->inj;

	if (off >= PPU_INJECT_MEM_BASE &&
	    off < PPU_INJECT_MEM(PPU_INJECT_MEM_WINDOWS, 0)) {
		struct inject_window *w =
			&in->win[(off - PPU_INJECT_MEM_BASE) /
				 PPU_INJECT_MEM_STRIDE];

		switch ((off - PPU_INJECT_MEM_BASE) % PPU_INJECT_MEM_STRIDE) {
		case PPU_INJECT_MEM_CTRL:
			w->ctrl = v & (PPU_INJECT_MEM_CTRL_ENABLE |
				       PPU_INJECT_MEM_CTRL_SYS |
				       PPU_INJECT_MEM_CTRL_READ |
				       PPU_INJECT_MEM_CTRL_WRITE |
				       PPU_INJECT_MEM_CTRL_SLVERR);
			break;
		case PPU_INJECT_MEM_BASE_LO:
			w->base = (w->base & ~(uint64_t)UINT32_MAX) | v;
			break;
		case PPU_INJECT_MEM_BASE_HI:
			w->base = (w->base & UINT32_MAX) | (uint64_t)v << 32;
			break;
		case PPU_INJECT_MEM_SIZE_LO:
			w->size = (w->size & ~(uint64_t)UINT32_MAX) | v;
			break;
		case PPU_INJECT_MEM_SIZE_HI:
			w->size = (w->size & UINT32_MAX) | (uint64_t)v << 32;
			break;
		case PPU_INJECT_MEM_HITS:
			w->hits = 0;
			break;
		}
		in->nwin_on = 0;
		for (unsigned int i = 0; i < PPU_INJECT_MEM_WINDOWS; i++)
			in->nwin_on += (in->win[i].ctrl &
					PPU_INJECT_MEM_CTRL_ENABLE) &&
				       in->win[i].size;
		logv(c, 1, "injected: memory window %u ctrl 0x%x base 0x%"
		     PRIx64 " size 0x%" PRIx64,
		     (off - PPU_INJECT_MEM_BASE) / PPU_INJECT_MEM_STRIDE,
		     w->ctrl, w->base, w->size);
		return;
	}
	switch (off) {
	case PPU_INJECT_LINK:
		inject_set_link(c, v);
		break;
	case PPU_INJECT_IRQ_DROP:
		in->irq_drop = v;
		logv(c, 1, "injected: drop the next %u interrupts", v);
		break;
	case PPU_INJECT_IRQ_DROP_MS:
		in->irq_drop_until_ns = v ? now_ns() + (uint64_t)v * 1000000 :
				       0;
		logv(c, 1, "injected: drop interrupts for %u ms", v);
		break;
	case PPU_INJECT_FIND_LO:
		in->find = (in->find & ~(uint64_t)UINT32_MAX) | v;
		break;
	case PPU_INJECT_FIND_HI:
		in->find = (in->find & UINT32_MAX) | (uint64_t)v << 32;
		inject_find(c);
		break;
	}
}

/* A BAR2 access: dword only, no side effects on the model. */
static uint64_t inject_access(struct cosim *c, const struct mpq_bar_access *a,
			      uint64_t off, bool write)
{
	if (a->size != 4 || (off & 3)) {
		c->st.bad_bar++;
		return 0;
	}
	if (write) {
		inject_write(c, (uint32_t)off, (uint32_t)a->val);
		irq_deliver(c);
		return 0;
	}
	return inject_read(c, (uint32_t)off);
}

/*
 * One BAR access, answered when the model answers.  Dword accesses go to
 * the register bus as they are; a qword is two dwords, low first; a byte
 * or word read is cut from its dword (reads have no side effects); byte
 * and word writes are dropped, the bus has no byte enables.
 */
static uint64_t bar_access(struct cosim *c, const struct mpq_bar_access *a,
			   bool write)
{
	uint64_t base = cosim_pci_bar0(&c->pci);
	uint64_t off = a->addr - base;
	uint64_t t0 = now_ns(), cyc0 = ppu_sim_cycles(c->sim);
	uint64_t v = 0;
	unsigned int sz = a->size;
	uint64_t base2 = cosim_pci_bar2(&c->pci);

	if (a->memory && base2 && a->addr - base2 < c->pci.bar2_size)
		return inject_access(c, a, a->addr - base2, write);
	/* Link lost: reads complete with all ones, writes go nowhere. */
	if (unlikely(c->inj.link != PPU_INJECT_LINK_UP)) {
		if (write || sz >= 8)
			return write ? 0 : ~(uint64_t)0;
		return ((uint64_t)1 << (8 * sz)) - 1;
	}
	if (!a->memory || !base || a->addr < base ||
	    off >= c->pci.bar0_size || sz > c->pci.bar0_size - off ||
	    (sz != 1 && sz != 2 && sz != 4 && sz != 8) || (off & (sz - 1)) ||
	    (write && sz < 4)) {
		c->st.bad_bar++;
		warn_limited(&c->warned_access, "unsupported BAR %s of %u "
			     "bytes at 0x%" PRIx64 " (BAR0 0x%" PRIx64 ")%s",
			     write ? "write" : "read", sz, a->addr, base,
			     write ? ": dropped" : ": reads all-ones");
		if (write || sz == 0 || sz >= 8)
			return write ? 0 : ~(uint64_t)0;
		return ((uint64_t)1 << (8 * sz)) - 1;
	}

	if (write) {
		reg_write(c, (uint32_t)off, (uint32_t)a->val);
		if (sz == 8)
			reg_write(c, (uint32_t)off + 4,
				  (uint32_t)(a->val >> 32));
		c->st.bar_wr++;
		logv(c, 2, "BAR0 write 0x%04" PRIx64 " = 0x%" PRIx64 "%s", off,
		     a->val, ppu_sim_idle(c->sim) ? "" : " (busy)");
	} else if (sz >= 4) {
		v = reg_read(c, (uint32_t)off);
		if (sz == 8)
			v |= (uint64_t)reg_read(c, (uint32_t)off + 4) << 32;
		c->st.bar_rd++;
		logv(c, 2, "BAR0 read  0x%04" PRIx64 " = 0x%" PRIx64, off, v);
	} else {
		v = reg_read(c, (uint32_t)off & ~3u) >> (8 * (off & 3));
		v &= sz == 1 ? 0xff : 0xffff;
		c->st.bar_rd++;
		logv(c, 2, "BAR0 read  0x%04" PRIx64 "/%u = 0x%" PRIx64, off,
		     sz, v);
	}
	c->st.bar_cycles += ppu_sim_cycles(c->sim) - cyc0;
	irq_update(c, write && (is_intr_reg((uint32_t)off) ||
				(sz == 8 && is_intr_reg((uint32_t)off + 4))));
	c->st.bar_ns += now_ns() - t0;
	return v;
}

/* DEVICE_RESET (system reset) and function-level reset (AF FLR). */
static void device_reset(struct cosim *c, const char *why)
{
	logv(c, 1, "device reset (%s)", why);
	c->st.resets++;
	cosim_pci_reset(&c->pci);
	model_reset(c, why);
}

/* ---- proxy socket ------------------------------------------------------- */

static int send_ret(struct cosim *c, uint64_t val)
{
	struct {
		struct mpq_hdr h;
		uint64_t v;
	} m = { .h = { .cmd = MPQ_RET, .size = sizeof(uint64_t) }, .v = val };
	const uint8_t *p = (const uint8_t *)&m;
	size_t left = sizeof(m);

	while (left) {
		ssize_t n = send(c->fd, p, left, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		left -= (size_t)n;
	}
	return 0;
}

/* Reads exactly @len bytes, collecting any fds that come with them. */
static int recv_full(int fd, void *buf, size_t len, int *fds, int *nfds)
{
	uint8_t *p = buf;

	while (len) {
		union {
			struct cmsghdr hdr;
			char buf[CMSG_SPACE(sizeof(int) * MPQ_MAX_FDS)];
		} cbuf;
		struct iovec iov = { .iov_base = p, .iov_len = len };
		struct msghdr mh = {
			.msg_iov = &iov,
			.msg_iovlen = 1,
			.msg_control = fds ? cbuf.buf : NULL,
			.msg_controllen = fds ? sizeof(cbuf.buf) : 0,
		};
		ssize_t n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return p == buf ? 1 : -EPIPE;	/* 1: clean EOF */
		for (struct cmsghdr *cm = fds ? CMSG_FIRSTHDR(&mh) : NULL; cm;
		     cm = CMSG_NXTHDR(&mh, cm)) {
			int k = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));

			if (cm->cmsg_level != SOL_SOCKET ||
			    cm->cmsg_type != SCM_RIGHTS)
				continue;
			for (int i = 0; i < k; i++) {
				int f;

				memcpy(&f, CMSG_DATA(cm) + i * sizeof(int),
				       sizeof(int));
				if (*nfds < MPQ_MAX_FDS)
					fds[(*nfds)++] = f;
				else
					close(f);
			}
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static const char *cmd_name(int cmd)
{
	static const char *const names[] = {
		"SYNC_SYSMEM", "RET", "PCI_CFGWRITE", "PCI_CFGREAD",
		"BAR_WRITE", "BAR_READ", "SET_IRQFD", "DEVICE_RESET",
	};

	return cmd >= 0 && cmd < MPQ_CMD_MAX ? names[cmd] : "?";
}

/* Handles one message.  Returns 0, 1 when QEMU closed the socket, <0. */
static int handle_msg(struct cosim *c)
{
	struct mpq_hdr h;
	union mpq_payload pl;
	int fds[MPQ_MAX_FDS];
	int nfds = 0, ret;
	uint64_t reply = 0;
	bool want_reply = true;

	ret = recv_full(c->fd, &h, sizeof(h), fds, &nfds);
	if (ret)
		goto out;
	if (h.size > sizeof(pl)) {
		eprintf("%s message with %" PRIu64
			" bytes of payload: protocol mismatch\n",
			cmd_name(h.cmd), h.size);
		ret = -EPROTO;
		goto out;
	}
	memset(&pl, 0, sizeof(pl));
	ret = recv_full(c->fd, &pl, h.size, NULL, NULL);
	if (ret) {
		ret = ret > 0 ? -EPIPE : ret;
		goto out;
	}

	switch (h.cmd) {
	case MPQ_SYNC_SYSMEM:
		want_reply = false;
		sysmem_sync(c, &pl.sync_sysmem, fds, nfds);
		break;
	case MPQ_PCI_CFGREAD:
		/* A vanished function answers config reads with all ones. */
		if (c->inj.link == PPU_INJECT_LINK_GONE)
			reply = pl.pci_conf.len >= 4 ? 0xffffffffu :
				(1u << (8 * pl.pci_conf.len)) - 1;
		else
			reply = cosim_pci_read(&c->pci, pl.pci_conf.addr,
					       pl.pci_conf.len);
		c->st.cfg_rd++;
		logv(c, 3, "cfg read 0x%02x/%d = 0x%" PRIx64,
		     pl.pci_conf.addr, pl.pci_conf.len, reply);
		break;
	case MPQ_PCI_CFGWRITE:
		if (c->inj.link == PPU_INJECT_LINK_GONE)
			break;
		if (cosim_pci_is_flr(pl.pci_conf.addr, pl.pci_conf.val,
				     pl.pci_conf.len)) {
			device_reset(c, "function-level reset");
			break;
		}
		cfg_write(c, pl.pci_conf.addr, pl.pci_conf.val,
			  pl.pci_conf.len);
		break;
	case MPQ_BAR_READ:
		reply = bar_access(c, &pl.bar_access, false);
		break;
	case MPQ_BAR_WRITE:
		bar_access(c, &pl.bar_access, true);
		break;
	case MPQ_SET_IRQFD:
		/* irqfd needs KVM; under TCG interrupts go through qtest. */
		want_reply = false;
		logv(c, 1, "SET_IRQFD ignored (interrupts use qtest)");
		break;
	case MPQ_DEVICE_RESET:
		device_reset(c, "DEVICE_RESET");
		break;
	default:
		eprintf("unknown message %d, size %" PRIu64
			"\n", h.cmd, h.size);
		want_reply = false;
		break;
	}
	if (want_reply && send_ret(c, reply) < 0)
		ret = 1;	/* QEMU went away mid-access */
out:
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	return ret;
}

/* ---- main loop ---------------------------------------------------------- */

/* Whether the main loop clocks the model: not once it has vanished. */
static bool model_busy(const struct cosim *c)
{
	return c->inj.link != PPU_INJECT_LINK_GONE && !ppu_sim_idle(c->sim);
}

static int poll_timeout_ms(struct cosim *c)
{
	int t = -1;

	if (model_busy(c))
		return 0;
	/* Spin a little after a message: MMIO comes in bursts. */
	if (c->spin_ns && now_ns() - c->last_msg_ns < c->spin_ns)
		return 0;
	if (c->rearm) {
		uint64_t now = now_ns();

		t = c->rearm_ns <= now ? 0 :
		    (int)((c->rearm_ns - now + 999999) / 1000000);
	}
	/* An INTx held by a timed drop: look again when the drop ends. */
	if (irq_owed(c) && c->inj.irq_drop_until_ns) {
		uint64_t now = now_ns(), end = c->inj.irq_drop_until_ns;
		int d = end <= now ? 0 : (int)((end - now + 999999) / 1000000);

		t = t < 0 || t > d ? d : t;
	}
	/* Something owed and qtest not there yet: retry the connect. */
	if (irq_owed(c) && !cosim_qtest_connected(&c->qt) &&
	    !c->qt.closed && c->qt.path)
		t = t < 0 || t > QTEST_RETRY_MS ? QTEST_RETRY_MS : t;
	return t;
}

/*
 * Ends a clock run early when the irq rises (so the MSI goes out in the
 * cycle it would on hardware, not at the end of the chunk) or when the
 * PPU runs out of work.
 */
static int run_stop(struct ppu_sim *sim, void *ctx)
{
	const struct cosim *c = ctx;

	return ppu_sim_idle(sim) || (ppu_sim_irq(sim) && !c->irq_level);
}

static int run(struct cosim *c)
{
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = c->fd, .events = POLLIN },
			{ .fd = -1 },
		};
		int n;

		if (stop_signal) {
			eprintf("signal %d, stopping\n",
				(int)stop_signal);
			return 1;
		}
		/* Connect early so the first interrupt finds qtest ready. */
		if (!cosim_qtest_connected(&c->qt) && c->qt.path &&
		    !c->qt.closed)
			cosim_qtest_connect(&c->qt);
		if (cosim_qtest_connected(&c->qt)) {
			pfd[1].fd = c->qt.fd;
			pfd[1].events = cosim_qtest_events(&c->qt);
		}
		n = poll(pfd, 2, poll_timeout_ms(c));
		if (n < 0 && errno != EINTR) {
			eprintf("poll: %s\n", strerror(errno));
			return 1;
		}
		if (n > 0 && pfd[1].revents)
			cosim_qtest_service(&c->qt, pfd[1].revents);
		if (n > 0 && pfd[0].revents) {
			int ret = handle_msg(c);

			c->last_msg_ns = now_ns();
			if (ret == 1)
				return 0;
			if (ret < 0) {
				eprintf("proxy socket: %s\n",
					strerror(-ret));
				return 1;
			}
		}
		irq_check_rearm(c);
		if (model_busy(c)) {
			int64_t done = ppu_sim_run_until(c->sim, run_stop, c,
							 c->chunk);
			uint64_t ran = done < 0 ? c->chunk : (uint64_t)done;
			bool idle = ppu_sim_idle(c->sim);

			/*
			 * The RTL raises idle one cycle before a fault it
			 * has just found shows in FAULT_PENDING and irq (the
			 * report is still on its way to the register block):
			 * clock a few cycles more before going to sleep.
			 */
			if (idle) {
				ppu_sim_clock(c->sim, IDLE_SETTLE_CYCLES);
				ran += IDLE_SETTLE_CYCLES;
			}
			c->st.run_cycles += ran;
			logv(c, 3, "ran %" PRIu64 " cycles: %s", ran,
			     done < 0 ? "chunk" : idle ? "idle" : "irq");
			irq_update(c, false);
		} else if (irq_owed(c)) {
			irq_deliver(c);
		}
	}
}

static void print_stats(const struct cosim *c)
{
	const struct cosim_stats *s = &c->st;
	uint64_t n = s->bar_rd + s->bar_wr;
	struct ppu_sim_stats ps;

	ppu_sim_get_stats(c->sim, &ps);
	eprintf("stats: cycles %" PRIu64 " (main loop %" PRIu64
		", in BAR accesses %" PRIu64 "), %.0f cycles/s; BAR0 reads %"
		PRIu64 " writes %" PRIu64 " avg %.1f us, bad %" PRIu64
		", reg timeouts %" PRIu64 "; cfg reads %" PRIu64 " writes %"
		PRIu64 "; MSI %" PRIu64 " (re-raised %" PRIu64 "), INTx %"
		PRIu64 ", qtest ok %" PRIu64 " failed %" PRIu64 " dropped %"
		PRIu64 "; sysmem syncs %" PRIu64 ", DMA beats sys %" PRIu64
		" local %" PRIu64 ", refused %" PRIu64 "; resets %" PRIu64
		"; protocol errors %" PRIu64 ", check failures %" PRIu64
		"; injected: bus errors %u, irqs dropped %u\n",
		ppu_sim_cycles(c->sim), s->run_cycles, s->bar_cycles,
		ps.cycles_per_sec, s->bar_rd, s->bar_wr,
		n ? s->bar_ns / 1000.0 / (double)n : 0.0, s->bad_bar,
		s->reg_timeouts, s->cfg_rd, s->cfg_wr, s->msi, s->msi_rearm,
		s->intx, c->qt.ok, c->qt.failed, c->qt.dropped, s->syncs,
		ps.rd_beats[1] + ps.wr_beats[1],
		ps.rd_beats[0] + ps.wr_beats[0],
		s->dma_blocked + s->dma_unmapped + s->dma_link_down, s->resets,
		ps.protocol_errors, ppu_sim_check_errors(c->sim), c->inj.mem_errors,
		c->inj.irq_dropped);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " --fd N [options]\n"
		"Serves the Verilated PPU to QEMU's x-pci-proxy-dev over the\n"
		"connected UNIX stream socket N (one end of a socketpair).\n"
		"\n"
		"  --fd N                 proxy socket (required)\n"
		"  --qtest PATH           QEMU's qtest socket (interrupts), or\n"
		"                         the runner's socket that shares it\n"
		"  --name NAME            say ppu-cosim-dev[NAME] in messages\n"
		"                         (the runner's QEMU id, e.g. ppu1)\n"
		"  --ioapic QOMPATH       INTx target while MSI is off\n"
		"                         (default /machine/i440fx/ioapic;\n"
		"                         'none' disables INTx)\n"
		"  --trace FILE           PPU event trace (text)\n"
		"  --fst FILE             FST waveform (slow)\n"
		"  --local-mem-mib N      local memory size, read back in\n"
		"                         CAP_LOCAL_MEM_MIB (default 64)\n"
		"  --local-latency N      local memory latency, cycles\n"
		"  --sys-latency N        system memory latency, cycles\n"
		"  --local-bw N           local memory bytes/cycle (0 = full)\n"
		"  --sys-bw N             system memory bytes/cycle (0 = full)\n"
		"  --reg-timeout N        register access timeout, cycles\n"
		"  --chunk N              cycles per run between polls "
		"(default 128)\n"
		"  --irq-holdoff-us N     re-raise delay after an ack that\n"
		"                         left the irq pending (default 200)\n"
		"  --spin-us N            busy-poll N us after each message\n"
		"                         before sleeping (default 50; 0 =\n"
		"                         never; saves a wake-up per access\n"
		"                         of an MMIO burst)\n"
		"  --stats                print statistics at exit\n"
		"  -v, --verbose          more output (repeat: BAR accesses,\n"
		"                         config accesses)\n");
}

static int parse_u32(const char *opt, const char *s, uint32_t min,
		     uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || v < min || v > max) {
		eprintf("%s: bad value '%s' (%u..%u)\n", opt,
			s, min, max);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

enum {
	OPT_FD = 256, OPT_NAME, OPT_QTEST, OPT_IOAPIC, OPT_TRACE, OPT_FST, OPT_LMEM,
	OPT_LLAT, OPT_SLAT, OPT_LBW, OPT_SBW, OPT_REGTO, OPT_CHUNK,
	OPT_HOLDOFF, OPT_SPIN, OPT_STATS,
};

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fd", required_argument, NULL, OPT_FD },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "qtest", required_argument, NULL, OPT_QTEST },
		{ "ioapic", required_argument, NULL, OPT_IOAPIC },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "fst", required_argument, NULL, OPT_FST },
		{ "local-mem-mib", required_argument, NULL, OPT_LMEM },
		{ "local-latency", required_argument, NULL, OPT_LLAT },
		{ "sys-latency", required_argument, NULL, OPT_SLAT },
		{ "local-bw", required_argument, NULL, OPT_LBW },
		{ "sys-bw", required_argument, NULL, OPT_SBW },
		{ "reg-timeout", required_argument, NULL, OPT_REGTO },
		{ "chunk", required_argument, NULL, OPT_CHUNK },
		{ "irq-holdoff-us", required_argument, NULL, OPT_HOLDOFF },
		{ "spin-us", required_argument, NULL, OPT_SPIN },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	static struct cosim cs;	/* large; zeroed */
	struct cosim *c = &cs;
	struct ppu_sim_config cfg;
	const char *qtest = NULL;
	char *name = NULL;
	uint32_t fd = UINT32_MAX, lmem = 64, holdoff_us = 200, v, nchan;
	bool stats = false, spin_set = false;
	struct sigaction sa = { .sa_handler = on_signal };
	struct stat stt;
	int opt, ret;

	ppu_sim_config_default(&cfg);
	c->chunk = 128;
	c->ioapic = "/machine/i440fx/ioapic";
	while ((opt = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (opt) {
		case OPT_FD:
			if (parse_u32("--fd", optarg, 0, INT_MAX, &fd))
				return 2;
			break;
		case OPT_NAME:
			free(name);
			name = malloc(strlen(PROG) + strlen(optarg) + 3);
			if (!name)
				return 1;
			sprintf(name, PROG "[%s]", optarg);
			prog = name;
			break;
		case OPT_QTEST:
			qtest = optarg;
			break;
		case OPT_IOAPIC:
			c->ioapic = strcmp(optarg, "none") ? optarg : NULL;
			break;
		case OPT_TRACE:
			cfg.trace_path = optarg;
			break;
		case OPT_FST:
			cfg.fst_path = optarg;
			break;
		case OPT_LMEM:
			if (parse_u32("--local-mem-mib", optarg, 1, 16384,
				      &lmem))
				return 2;
			break;
		case OPT_LLAT:
			if (parse_u32("--local-latency", optarg, 0, 1u << 20,
				      &cfg.local_latency))
				return 2;
			break;
		case OPT_SLAT:
			if (parse_u32("--sys-latency", optarg, 0, 1u << 20,
				      &cfg.sys_latency))
				return 2;
			break;
		case OPT_LBW:
			if (parse_u32("--local-bw", optarg, 0, 8,
				      &cfg.local_bytes_per_cycle))
				return 2;
			break;
		case OPT_SBW:
			if (parse_u32("--sys-bw", optarg, 0, 8,
				      &cfg.sys_bytes_per_cycle))
				return 2;
			break;
		case OPT_REGTO:
			if (parse_u32("--reg-timeout", optarg, 1, UINT32_MAX,
				      &cfg.reg_timeout_cycles))
				return 2;
			break;
		case OPT_CHUNK:
			if (parse_u32("--chunk", optarg, 1, 1u << 24, &v))
				return 2;
			c->chunk = v;
			break;
		case OPT_HOLDOFF:
			if (parse_u32("--irq-holdoff-us", optarg, 0, 1000000,
				      &holdoff_us))
				return 2;
			break;
		case OPT_SPIN:
			if (parse_u32("--spin-us", optarg, 0, 1000000, &v))
				return 2;
			c->spin_ns = (uint64_t)v * 1000;
			spin_set = true;
			break;
		case OPT_STATS:
			stats = true;
			break;
		case 'v':
			c->verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (fd == UINT32_MAX || optind != argc) {
		usage(stderr);
		return 2;
	}
	if (fstat((int)fd, &stt) < 0 || !S_ISSOCK(stt.st_mode)) {
		eprintf("--fd %u is not a socket\n", fd);
		return 2;
	}
	c->fd = (int)fd;
	c->holdoff_ns = (uint64_t)holdoff_us * 1000;
	c->spin_ns = spin_set ? c->spin_ns : DEFAULT_SPIN_NS;

	cfg.local_mem_bytes = (uint64_t)lmem << 20;
	cfg.sys_xlate = sys_xlate;
	cfg.sys_xlate_ctx = c;
	cfg.mem_err = inject_mem_err;
	cfg.mem_err_ctx = c;
	c->sim = ppu_sim_create(&cfg);
	if (!c->sim) {
		eprintf("cannot create the PPU model: %s\n",
			strerror(errno));
		return 1;
	}
	/* BAR0 grows with the channels' doorbell pages */
	if (ppu_sim_reg_read(c->sim, PPU_REG_CAP_NUM_CHANNELS, &nchan) ||
	    cosim_pci_init(&c->pci, ppu_bar0_bytes(nchan))) {
		fprintf(stderr, PROG ": cannot size BAR0 for the model's channels\n");
		return 1;
	}
	cosim_qtest_init(&c->qt, qtest, c->verbose);

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	logv(c, 1, "serving PPU %04x:%04x on fd %d, BAR0 %u KiB, local "
	     "memory %u MiB", PPU_PCI_VENDOR_ID, PPU_PCI_DEVICE_ID, c->fd,
	     c->pci.bar0_size >> 10, lmem);
	ret = run(c);
	if (!ret)
		logv(c, 1, "QEMU closed the proxy socket");
	if (stats || c->verbose)
		print_stats(c);
	if (!ret && ppu_sim_check_errors(c->sim)) {
		eprintf("%" PRIu64 " RTL invariant check failures (the first "
			"ones above)\n", ppu_sim_check_errors(c->sim));
		ret = 2;
	}
	cosim_qtest_close(&c->qt);
	sysmem_unmap_all(c);
	ppu_sim_destroy(c->sim);	/* flushes trace and waveform */
	close(c->fd);
	free(name);
	return ret;
}
