/* SPDX-License-Identifier: MIT */
/*
 * PCI configuration space of the co-simulated PPU (conventional PCI, 256
 * bytes), as the device process presents it through QEMU's proxy.
 *
 *   0x00  vendor/device        PPU_PCI_VENDOR_ID / PPU_PCI_DEVICE_ID
 *   0x04  command/status       memory, bus master, parity, SERR, INTx
 *                              disable writable; status: capabilities
 *                              list, interrupt status (INTx level)
 *   0x08  revision/class       PPU_VERSION_MAJOR / PPU_PCI_CLASS
 *   0x10  BAR0                 ppu_bar0_bytes(channels), 32-bit, non-prefetchable
 *                              memory
 *   0x18  BAR2                 PPU_INJECT_BAR_SIZE, 32-bit memory: the
 *                              co-simulation's error injection control
 *                              (ppu_inject.h), not part of the PPU;
 *                              BAR1, 3..5, ROM: not implemented
 *   0x2c  subsystem            same ids as vendor/device
 *   0x34  capabilities         -> 0x40
 *   0x3c  interrupt line/pin   line writable, pin INTA
 *   0x40  MSI                  64-bit, one vector, no per-vector mask:
 *                              control 0x42 (enable bit 0, MME 6:4
 *                              writable), address 0x44/0x48, data 0x4c
 *   0x50  Advanced Features    TP and FLR capable: writing FLR (byte 0x54
 *                              bit 0) is a function-level reset, the
 *                              only reset a conventional PCI function
 *                              can get from Linux (pci_reset_function)
 *
 * Pure data: no I/O, so it can be unit-tested on its own.
 */
#ifndef PPU_COSIM_PCI_H
#define PPU_COSIM_PCI_H

#include <stdbool.h>
#include <stdint.h>

#define COSIM_PCI_CFG_SIZE 256

/* Standard offsets and bits used here (see the PCI Local Bus spec 3.0). */
#define PCI_CFG_VENDOR_ID 0x00
#define PCI_CFG_DEVICE_ID 0x02
#define PCI_CFG_COMMAND 0x04
#define PCI_CFG_STATUS 0x06
#define PCI_CFG_REVISION 0x08
#define PCI_CFG_CACHE_LINE 0x0c
#define PCI_CFG_LATENCY 0x0d
#define PCI_CFG_HEADER_TYPE 0x0e
#define PCI_CFG_BAR0 0x10
#define PCI_CFG_BAR2 0x18
#define PCI_CFG_SUBSYS_VENDOR 0x2c
#define PCI_CFG_SUBSYS_ID 0x2e
#define PCI_CFG_CAP_PTR 0x34
#define PCI_CFG_INT_LINE 0x3c
#define PCI_CFG_INT_PIN 0x3d

#define PCI_CMD_MEMORY 0x0002
#define PCI_CMD_MASTER 0x0004
#define PCI_CMD_PARITY 0x0040
#define PCI_CMD_SERR 0x0100
#define PCI_CMD_INTX_DISABLE 0x0400

#define PCI_STS_INTX 0x0008
#define PCI_STS_CAP_LIST 0x0010

#define PCI_CAP_ID_MSI 0x05
#define PCI_CAP_ID_AF 0x13

/* Where our MSI capability lives and its registers (64-bit layout). */
#define COSIM_MSI_CAP 0x40
#define COSIM_MSI_CTRL (COSIM_MSI_CAP + 0x2)
#define COSIM_MSI_ADDR_LO (COSIM_MSI_CAP + 0x4)
#define COSIM_MSI_ADDR_HI (COSIM_MSI_CAP + 0x8)
#define COSIM_MSI_DATA (COSIM_MSI_CAP + 0xc)

/* Advanced Features capability (PCI AF ECN): length, caps, control. */
#define COSIM_AF_CAP 0x50
#define COSIM_AF_LEN (COSIM_AF_CAP + 0x2)
#define COSIM_AF_CAPS (COSIM_AF_CAP + 0x3)
#define COSIM_AF_CTRL (COSIM_AF_CAP + 0x4)
#define COSIM_AF_STATUS (COSIM_AF_CAP + 0x5)
#define PCI_AF_CAPS_TP 0x01
#define PCI_AF_CAPS_FLR 0x02
#define PCI_AF_CTRL_FLR 0x01

#define PCI_MSI_CTRL_ENABLE 0x0001
#define PCI_MSI_CTRL_MME 0x0070
#define PCI_MSI_CTRL_64BIT 0x0080

struct cosim_pci {
	uint8_t cfg[COSIM_PCI_CFG_SIZE];	/* current contents */
	uint8_t wmask[COSIM_PCI_CFG_SIZE];	/* bits software may write */
	uint8_t w1cmask[COSIM_PCI_CFG_SIZE];	/* bits cleared by writing 1 */
	uint32_t bar0_size;
	uint32_t bar2_size;
	bool intx_level;	/* shown in status bit 3 */
};

/*
 * Builds the power-on state, with a BAR0 of @bar0_size bytes (a power of
 * two, at least the register window: ppu_bar0_bytes()); 0 or -EINVAL.
 */
int cosim_pci_init(struct cosim_pci *p, uint32_t bar0_size);
void cosim_pci_reset(struct cosim_pci *p);

/*
 * Config accesses as QEMU forwards them: @len is 1, 2 or 4 and the access
 * does not cross a dword.  Bytes outside the space read as zero and
 * ignore writes.  Returns the value read (little-endian assembly).
 */
uint32_t cosim_pci_read(const struct cosim_pci *p, uint32_t addr, int len);
void cosim_pci_write(struct cosim_pci *p, uint32_t addr, uint32_t val,
		     int len);

static inline uint16_t cosim_pci_get16(const struct cosim_pci *p,
				       uint32_t off)
{
	return (uint16_t)(p->cfg[off] | p->cfg[off + 1] << 8);
}

static inline uint32_t cosim_pci_get32(const struct cosim_pci *p,
				       uint32_t off)
{
	return (uint32_t)p->cfg[off] | (uint32_t)p->cfg[off + 1] << 8 |
	       (uint32_t)p->cfg[off + 2] << 16 |
	       (uint32_t)p->cfg[off + 3] << 24;
}

/* Guest physical base of BAR0 as programmed (0 until assigned). */
static inline uint64_t cosim_pci_bar0(const struct cosim_pci *p)
{
	return cosim_pci_get32(p, PCI_CFG_BAR0) & ~(uint32_t)0xf;
}

/* Guest physical base of BAR2 (error injection), 0 until assigned. */
static inline uint64_t cosim_pci_bar2(const struct cosim_pci *p)
{
	return cosim_pci_get32(p, PCI_CFG_BAR2) & ~(uint32_t)0xf;
}

/* Whether a config write of @len bytes at @addr asks for an AF FLR. */
static inline bool cosim_pci_is_flr(uint32_t addr, uint32_t val, int len)
{
	for (int i = 0; i < len; i++)
		if (addr + i == COSIM_AF_CTRL &&
		    ((val >> (8 * i)) & PCI_AF_CTRL_FLR))
			return true;
	return false;
}

static inline bool cosim_pci_mem_enabled(const struct cosim_pci *p)
{
	return cosim_pci_get16(p, PCI_CFG_COMMAND) & PCI_CMD_MEMORY;
}

static inline bool cosim_pci_master(const struct cosim_pci *p)
{
	return cosim_pci_get16(p, PCI_CFG_COMMAND) & PCI_CMD_MASTER;
}

static inline bool cosim_pci_intx_disabled(const struct cosim_pci *p)
{
	return cosim_pci_get16(p, PCI_CFG_COMMAND) & PCI_CMD_INTX_DISABLE;
}

static inline bool cosim_pci_msi_enabled(const struct cosim_pci *p)
{
	return cosim_pci_get16(p, COSIM_MSI_CTRL) & PCI_MSI_CTRL_ENABLE;
}

static inline uint64_t cosim_pci_msi_addr(const struct cosim_pci *p)
{
	return (uint64_t)cosim_pci_get32(p, COSIM_MSI_ADDR_HI) << 32 |
	       cosim_pci_get32(p, COSIM_MSI_ADDR_LO);
}

static inline uint16_t cosim_pci_msi_data(const struct cosim_pci *p)
{
	return cosim_pci_get16(p, COSIM_MSI_DATA);
}

#endif /* PPU_COSIM_PCI_H */
