// SPDX-License-Identifier: MIT
/*
 * PCI configuration space of the co-simulated PPU; layout in cosim_pci.h.
 *
 * Every byte has a write mask and a write-1-to-clear mask, so BAR sizing
 * falls out of the masks: writing all-ones to BAR0 leaves ~(size - 1),
 * which is what the guest (and QEMU's proxy probing the BARs at realize)
 * reads back.
 */
#include <errno.h>
#include <string.h>

#include "ppu/ppu_hw.h"

#include "cosim_pci.h"
#include "ppu_inject.h"

_Static_assert((PPU_BAR0_SIZE & (PPU_BAR0_SIZE - 1)) == 0 &&
	       PPU_BAR0_SIZE >= 4096, "BAR0 size must be a power of two");

static void put16(uint8_t *a, uint32_t off, uint16_t v)
{
	a[off] = (uint8_t)v;
	a[off + 1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *a, uint32_t off, uint32_t v)
{
	put16(a, off, (uint16_t)v);
	put16(a, off + 2, (uint16_t)(v >> 16));
}

void cosim_pci_reset(struct cosim_pci *p)
{
	uint8_t *c = p->cfg;

	memset(c, 0, sizeof(p->cfg));
	put16(c, PCI_CFG_VENDOR_ID, PPU_PCI_VENDOR_ID);
	put16(c, PCI_CFG_DEVICE_ID, PPU_PCI_DEVICE_ID);
	put16(c, PCI_CFG_STATUS, PCI_STS_CAP_LIST);
	/* Revision in byte 0x08, class code in 0x09..0x0b. */
	put32(c, PCI_CFG_REVISION,
	      (uint32_t)PPU_PCI_CLASS << 8 | (PPU_VERSION_MAJOR & 0xff));
	c[PCI_CFG_HEADER_TYPE] = 0x00;	/* type 0, single function */
	put16(c, PCI_CFG_SUBSYS_VENDOR, PPU_PCI_VENDOR_ID);
	put16(c, PCI_CFG_SUBSYS_ID, PPU_PCI_DEVICE_ID);
	c[PCI_CFG_CAP_PTR] = COSIM_MSI_CAP;
	c[PCI_CFG_INT_PIN] = 1;		/* INTA# */

	c[COSIM_MSI_CAP] = PCI_CAP_ID_MSI;
	c[COSIM_MSI_CAP + 1] = COSIM_AF_CAP;
	put16(c, COSIM_MSI_CTRL, PCI_MSI_CTRL_64BIT);	/* MMC = 0: 1 vector */

	c[COSIM_AF_CAP] = PCI_CAP_ID_AF;
	c[COSIM_AF_CAP + 1] = 0;	/* end of the list */
	c[COSIM_AF_LEN] = 6;
	c[COSIM_AF_CAPS] = PCI_AF_CAPS_TP | PCI_AF_CAPS_FLR;
	/* control reads 0 (FLR self-clears), status TP 0: nothing pending */
	p->intx_level = false;
}

int cosim_pci_init(struct cosim_pci *p, uint32_t bar0_size)
{
	uint8_t *w = p->wmask;

	if (bar0_size < PPU_BAR0_SIZE || (bar0_size & (bar0_size - 1)))
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->bar0_size = bar0_size;
	p->bar2_size = PPU_INJECT_BAR_SIZE;

	put16(w, PCI_CFG_COMMAND, PCI_CMD_MEMORY | PCI_CMD_MASTER |
	      PCI_CMD_PARITY | PCI_CMD_SERR | PCI_CMD_INTX_DISABLE);
	/* Error bits of the status register: never set by us, but W1C. */
	put16(p->w1cmask, PCI_CFG_STATUS, 0xf900);
	w[PCI_CFG_CACHE_LINE] = 0xff;
	w[PCI_CFG_LATENCY] = 0xff;
	/* 32-bit memory BAR, not prefetchable: type bits 3:0 read 0. */
	put32(w, PCI_CFG_BAR0, ~(bar0_size - 1u));
	put32(w, PCI_CFG_BAR2, ~(PPU_INJECT_BAR_SIZE - 1u));
	w[PCI_CFG_INT_LINE] = 0xff;

	put16(w, COSIM_MSI_CTRL, PCI_MSI_CTRL_ENABLE | PCI_MSI_CTRL_MME);
	put32(w, COSIM_MSI_ADDR_LO, 0xfffffffc);
	put32(w, COSIM_MSI_ADDR_HI, 0xffffffff);
	put16(w, COSIM_MSI_DATA, 0xffff);

	cosim_pci_reset(p);
	return 0;
}

uint32_t cosim_pci_read(const struct cosim_pci *p, uint32_t addr, int len)
{
	uint32_t v = 0;

	for (int i = 0; i < len; i++) {
		uint32_t a = addr + i;
		uint8_t b;

		if (a >= COSIM_PCI_CFG_SIZE)
			break;
		b = p->cfg[a];
		if (a == PCI_CFG_STATUS && p->intx_level)
			b |= PCI_STS_INTX;
		v |= (uint32_t)b << (8 * i);
	}
	return v;
}

void cosim_pci_write(struct cosim_pci *p, uint32_t addr, uint32_t val,
		     int len)
{
	for (int i = 0; i < len; i++) {
		uint32_t a = addr + i;
		uint8_t b = (uint8_t)(val >> (8 * i));

		if (a >= COSIM_PCI_CFG_SIZE)
			break;
		p->cfg[a] = (uint8_t)((p->cfg[a] & ~p->wmask[a]) |
				      (b & p->wmask[a]));
		p->cfg[a] &= (uint8_t)~(b & p->w1cmask[a]);
	}
}
