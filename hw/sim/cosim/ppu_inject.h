/* SPDX-License-Identifier: MIT */
/*
 * Error injection control of the co-simulated PPU: BAR2 of the PCI function,
 * 4 KiB, 32-bit registers.  It exists only in co-simulation (ppu-cosim-dev),
 * is no part of the PPU's register map and is never touched by ppu.ko; a
 * test program inside the guest maps it through
 * /sys/bus/pci/devices/<bdf>/resource2 and drives it at run time.
 *
 * BAR2 keeps answering whatever is injected (it is the test's way back),
 * and a PCI reset of the function does not clear it: only writes here do.
 * Byte and word accesses read as zero and are dropped.
 *
 *   0x000 MAGIC      RO  PPU_INJECT_MAGIC_VALUE ("PINJ")
 *   0x004 VERSION    RO  PPU_INJECT_VERSION_VALUE
 *   0x008 LINK       RW  device presence, PPU_INJECT_LINK_*:
 *                        UP      normal
 *                        DOWN    as after a PCIe link loss: BAR0 reads all
 *                                ones, BAR0 writes are dropped, no
 *                                interrupt reaches the guest, the model's
 *                                DMA gets bus errors; the model keeps
 *                                running
 *                        GONE    the device vanished: as DOWN, and the
 *                                model is no longer clocked and config
 *                                space reads all ones (writes dropped)
 *                        Going back to UP resets the model and its
 *                        interrupt state (a device that comes back after
 *                        a link loss has been reset), but keeps config
 *                        space, so the guest's BAR assignment stays valid.
 *   0x00c RESETS     RO  resets of the model since start (FLR, DEVICE_RESET,
 *                        back to UP)
 *   0x010 IRQ_DROP   RW  the next N interrupt messages are not delivered
 *                        (decremented per message dropped)
 *   0x014 IRQ_DROP_MS RW writing N drops every interrupt message for N ms
 *                        from now; reads the ms left
 *   0x018 IRQ_DROPPED RO interrupt messages dropped since start
 *   0x01c IRQ_SENT   RO  interrupt messages delivered since start
 *   0x020 MEM_ERRORS RO  beats answered with an injected bus error
 *   0x028 FIND_LO    RW  a 64-bit pattern; writing FIND_HI searches guest
 *   0x02c FIND_HI    RW  RAM for the first 4 KiB page that starts with it
 *   0x030 FOUND_LO   RO  its guest-physical (DMA) address, all ones when
 *   0x034 FOUND_HI   RO  none does (how a test learns where its BO lives:
 *                        /proc/self/pagemap does not show GEM mappings)
 *
 *   0x100 + 0x20 * i, i < PPU_INJECT_MEM_WINDOWS: memory error window i
 *     +0x00 CTRL     RW  PPU_INJECT_MEM_CTRL_* bits: ENABLE, SYS (system
 *                        aperture = guest-physical DMA addresses; clear =
 *                        local memory), READ, WRITE (which beats fail),
 *                        SLVERR (the kind asked for; the PPU's memory port
 *                        has a single err bit, so DECERR and SLVERR look
 *                        the same to the RTL)
 *     +0x04 BASE_LO  RW  first byte address of the window
 *     +0x08 BASE_HI  RW
 *     +0x0c SIZE_LO  RW  bytes (0: empty)
 *     +0x10 SIZE_HI  RW
 *     +0x14 HITS     RW  beats failed by this window; any write clears
 *
 * A beat fails when its 8-byte address lies in [BASE, BASE + SIZE) of an
 * enabled window of its aperture and direction.
 */
#ifndef PPU_INJECT_H
#define PPU_INJECT_H

#define PPU_INJECT_BAR			2
#define PPU_INJECT_BAR_SIZE		4096u

#define PPU_INJECT_MAGIC		0x000
#define PPU_INJECT_VERSION		0x004
#define PPU_INJECT_LINK			0x008
#define PPU_INJECT_RESETS		0x00c
#define PPU_INJECT_IRQ_DROP		0x010
#define PPU_INJECT_IRQ_DROP_MS		0x014
#define PPU_INJECT_IRQ_DROPPED		0x018
#define PPU_INJECT_IRQ_SENT		0x01c
#define PPU_INJECT_MEM_ERRORS		0x020
#define PPU_INJECT_FIND_LO		0x028
#define PPU_INJECT_FIND_HI		0x02c
#define PPU_INJECT_FOUND_LO		0x030
#define PPU_INJECT_FOUND_HI		0x034

#define PPU_INJECT_MAGIC_VALUE		0x4a4e4950u	/* "PINJ" little endian */
#define PPU_INJECT_VERSION_VALUE	1u

#define PPU_INJECT_LINK_UP		0u
#define PPU_INJECT_LINK_DOWN		1u
#define PPU_INJECT_LINK_GONE		2u

#define PPU_INJECT_MEM_WINDOWS		4u
#define PPU_INJECT_MEM_BASE		0x100
#define PPU_INJECT_MEM_STRIDE		0x20
#define PPU_INJECT_MEM(i, reg)		(PPU_INJECT_MEM_BASE + \
					 PPU_INJECT_MEM_STRIDE * (i) + (reg))
#define PPU_INJECT_MEM_CTRL		0x00
#define PPU_INJECT_MEM_BASE_LO		0x04
#define PPU_INJECT_MEM_BASE_HI		0x08
#define PPU_INJECT_MEM_SIZE_LO		0x0c
#define PPU_INJECT_MEM_SIZE_HI		0x10
#define PPU_INJECT_MEM_HITS		0x14

#define PPU_INJECT_MEM_CTRL_ENABLE	0x01u
#define PPU_INJECT_MEM_CTRL_SYS		0x02u
#define PPU_INJECT_MEM_CTRL_READ	0x04u
#define PPU_INJECT_MEM_CTRL_WRITE	0x08u
#define PPU_INJECT_MEM_CTRL_SLVERR	0x10u

#endif /* PPU_INJECT_H */
