/* SPDX-License-Identifier: MIT */
/*
 * Wire format of QEMU 7.2's multi-process PCI proxy ("x-pci-proxy-dev"),
 * as QEMU sends it on the UNIX stream socket given by -device
 * x-pci-proxy-dev,fd=N.  Written from the protocol's description
 * (hw/remote/mpqemu-link.h, hw/remote/proxy.c, hw/remote/
 * proxy-memory-listener.c in QEMU's source); only the layout is taken.
 *
 * Every message is a 16-byte header followed by @size bytes of payload.
 * File descriptors travel as SCM_RIGHTS ancillary data attached to the
 * header's bytes.  The structures are QEMU's host C structs on x86-64
 * (native endianness, natural alignment), so this only works between
 * processes of the same ABI: the static asserts pin the sizes down.
 *
 * Who waits for whom (QEMU side):
 *   SYNC_SYSMEM   no reply; 1..8 fds, one per RAM section
 *   PCI_CFGWRITE  RET (value ignored)
 *   PCI_CFGREAD   RET carrying the value read
 *   BAR_WRITE     RET (value ignored)
 *   BAR_READ      RET carrying the value read
 *   SET_IRQFD     no reply; 2 eventfds (irqfd, resample) usable only
 *                 under KVM
 *   DEVICE_RESET  RET (value ignored)
 * QEMU's vCPU (or main) thread blocks in the access until RET arrives.
 */
#ifndef PPU_COSIM_MPQEMU_H
#define PPU_COSIM_MPQEMU_H

#include <stdint.h>

enum mpq_cmd {
	MPQ_SYNC_SYSMEM = 0,
	MPQ_RET = 1,
	MPQ_PCI_CFGWRITE = 2,
	MPQ_PCI_CFGREAD = 3,
	MPQ_BAR_WRITE = 4,
	MPQ_BAR_READ = 5,
	MPQ_SET_IRQFD = 6,
	MPQ_DEVICE_RESET = 7,
	MPQ_CMD_MAX = 8,
};

#define MPQ_MAX_FDS 8

struct mpq_hdr {
	int32_t cmd;		/* enum mpq_cmd */
	uint32_t pad;		/* alignment of the size_t that follows */
	uint64_t size;		/* payload bytes after this header */
};

/* SYNC_SYSMEM: guest RAM sections; entry i goes with the i-th fd. */
struct mpq_sync_sysmem {
	uint64_t gpa[MPQ_MAX_FDS];	/* guest physical start */
	uint64_t size[MPQ_MAX_FDS];	/* bytes */
	int64_t offset[MPQ_MAX_FDS];	/* offset of gpa in the fd */
};

/* PCI_CFGREAD / PCI_CFGWRITE. */
struct mpq_pci_conf {
	uint32_t addr;		/* config space byte offset */
	uint32_t val;		/* value to write (writes only) */
	int32_t len;		/* 1, 2 or 4 */
	/* sizeof() is 12: QEMU's size field says so */
};

/* BAR_READ / BAR_WRITE. */
struct mpq_bar_access {
	uint64_t addr;		/* absolute guest physical address */
	uint64_t val;		/* value to write (writes only) */
	uint32_t size;		/* access bytes: 1, 2, 4 or 8 */
	uint8_t memory;		/* 1 = memory BAR, 0 = I/O BAR */
	uint8_t pad[3];
};

union mpq_payload {
	uint64_t u64;			/* RET */
	struct mpq_pci_conf pci_conf;
	struct mpq_sync_sysmem sync_sysmem;
	struct mpq_bar_access bar_access;
};

_Static_assert(sizeof(struct mpq_hdr) == 16, "mpqemu header is 16 bytes");
_Static_assert(sizeof(struct mpq_pci_conf) == 12, "PciConfDataMsg");
_Static_assert(sizeof(struct mpq_bar_access) == 24, "BarAccessMsg");
_Static_assert(sizeof(struct mpq_sync_sysmem) == 192, "SyncSysmemMsg");
_Static_assert(sizeof(union mpq_payload) == 192, "payload union");

#endif /* PPU_COSIM_MPQEMU_H */
