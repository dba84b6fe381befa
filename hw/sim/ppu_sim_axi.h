// SPDX-License-Identifier: MIT
/*
 * Part of ppu_sim.cpp for the FPGA model (PPU_SIM_FPGA): the responders
 * that stand in for the PCIe shell around hw/fpga/ppu_fpga_top.  One per
 * aperture plays the AXI4 slave of its master: the DDR controller on
 * m_ddr (local memory), the DMA bridge to host memory on m_dma (system
 * memory).  They use the harness's backing store, latencies and
 * bandwidth buckets, so a test configures the FPGA model exactly as the
 * bare one, plus READY/VALID backpressure and latency jitter drawn from a
 * seeded generator (cfg.axi_*).
 *
 * Semantics, as the bare harness: a write beat takes effect when W is
 * accepted; a read beat samples memory when R is presented.  Each
 * responder answers bursts of one ID in order, which is all the shell
 * uses (the checkers in hw/fpga/chk hold both sides to AXI).  An address
 * beyond the backing store answers DECERR, an injected error (cfg.mem_err)
 * SLVERR; a burst's B carries the first error among its beats.
 *
 * The Verilated ports differ in C type with their width (CData ...
 * QData, VlWide<N>), but all of them are little-endian images of the bus
 * in memory, so a pin is its address and size and a data bus is bytes.
 */
#ifndef PPU_SIM_AXI_H
#define PPU_SIM_AXI_H

#include <cstdint>
#include <cstring>

namespace axi {

struct pin {
	void *p;
	unsigned size;

	uint64_t get() const
	{
		uint64_t v = 0;

		memcpy(&v, p, size < 8 ? size : 8);
		return v;
	}
	void set(uint64_t v) const { memcpy(p, &v, size < 8 ? size : 8); }
	uint8_t *bytes() const { return (uint8_t *)p; }
};

#define AXI_PIN(t, name) (axi::pin{ (void *)&(t)->name, (unsigned)sizeof((t)->name) })

/* The pins of one AXI4 master port of the FPGA top. */
struct port {
	pin awvalid, awready, awaddr, awlen, awsize, awburst, awid;
	pin wvalid, wready, wdata, wstrb, wlast;
	pin bvalid, bready, bresp, bid;
	pin arvalid, arready, araddr, arlen, arsize, arburst, arid;
	pin rvalid, rready, rdata, rresp, rlast, rid;
	unsigned bus_bytes;
};

#define AXI_PORT(t, pfx, dw) (axi::port{ \
	AXI_PIN(t, pfx##_awvalid), AXI_PIN(t, pfx##_awready), AXI_PIN(t, pfx##_awaddr), \
	AXI_PIN(t, pfx##_awlen), AXI_PIN(t, pfx##_awsize), AXI_PIN(t, pfx##_awburst), \
	AXI_PIN(t, pfx##_awid), \
	AXI_PIN(t, pfx##_wvalid), AXI_PIN(t, pfx##_wready), AXI_PIN(t, pfx##_wdata), \
	AXI_PIN(t, pfx##_wstrb), AXI_PIN(t, pfx##_wlast), \
	AXI_PIN(t, pfx##_bvalid), AXI_PIN(t, pfx##_bready), AXI_PIN(t, pfx##_bresp), \
	AXI_PIN(t, pfx##_bid), \
	AXI_PIN(t, pfx##_arvalid), AXI_PIN(t, pfx##_arready), AXI_PIN(t, pfx##_araddr), \
	AXI_PIN(t, pfx##_arlen), AXI_PIN(t, pfx##_arsize), AXI_PIN(t, pfx##_arburst), \
	AXI_PIN(t, pfx##_arid), \
	AXI_PIN(t, pfx##_rvalid), AXI_PIN(t, pfx##_rready), AXI_PIN(t, pfx##_rdata), \
	AXI_PIN(t, pfx##_rresp), AXI_PIN(t, pfx##_rlast), AXI_PIN(t, pfx##_rid), \
	(dw) / 8 })

enum { OKAY = 0, SLVERR = 2, DECERR = 3 };

struct burst {
	uint64_t addr;
	uint64_t due;
	uint32_t len;		/* beats */
	uint32_t beat;		/* next beat */
	uint32_t size;		/* bytes per beat */
	uint32_t id;
	uint32_t resp;		/* writes: first error */
};

/* A ring of bursts in arrival order; capacity fixed at creation. */
struct queue {
	burst *b;
	uint32_t cap, head, n;

	bool init(uint32_t c)
	{
		cap = c;
		head = n = 0;
		b = (burst *)calloc(c, sizeof(*b));
		return b != nullptr;
	}
	void fini() { free(b); }
	bool full() const { return n == cap; }
	burst &front() { return b[head]; }
	burst &at(uint32_t i) { return b[(head + i) % cap]; }
	void push(const burst &x)
	{
		b[(head + n) % cap] = x;
		n++;
	}
	void pop()
	{
		head = (head + 1) % cap;
		n--;
	}
	void clear() { head = n = 0; }
};

/* Responder state of one aperture. */
struct slave {
	port pins;
	unsigned ap;		/* 0 local, 1 sys */
	queue rq;		/* accepted reads */
	queue wq;		/* accepted writes waiting for data */
	queue bq;		/* writes answered, waiting to send B */
	bool r_held, b_held;	/* VALID up, not yet taken */
	bool arready, awready, wready;
	uint64_t last_rdue, last_bdue;
};

} /* namespace axi */

#endif /* PPU_SIM_AXI_H */
