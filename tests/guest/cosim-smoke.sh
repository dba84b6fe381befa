#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Guest-side smoke test of the co-simulated PPU, without any driver:
# the function is on the PCI bus with our ids and class, BAR0 is 128 KiB
# (the register window and the 16 channels' doorbell pages),
# the MSI capability is in config space, and BAR0 reaches the RTL's
# registers (ID, VERSION, CAP_NUM_CHANNELS, SCHED_TIMESLICE read/write)
# through /dev/mem.  Run by `make cosim-smoke` inside ppu-cosim.

fail=0
ok() { echo "cosim-smoke: ok   $*"; }
bad() { echo "cosim-smoke: FAIL $*"; fail=1; }
expect() {	# name got want
	if [ $(($2)) -eq $(($3)) ]; then ok "$1 = $2"; else bad "$1 = $2, want $3"; fi
}

dev=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor")" = 0x5050 ] && [ "$(cat "$d/device")" = 0x5531 ]; then
		dev=$d
	fi
done
if [ -z "$dev" ]; then
	bad "no PCI function 5050:5531"
	for d in /sys/bus/pci/devices/*; do
		echo "  ${d##*/} $(cat "$d/vendor"):$(cat "$d/device") class $(cat "$d/class")"
	done
	exit 1
fi
ok "PCI function 5050:5531 at ${dev##*/}"
expect class "$(cat "$dev/class")" 0x120000

# Config space: capability pointer -> MSI (id 5) at 0x40, 64-bit capable.
cfg() { od -An -tx1 -j "$1" -N 1 "$dev/config" | tr -d ' '; }
expect "cfg 0x34 (capability pointer)" "0x$(cfg 0x34)" 0x40
expect "cfg 0x40 (MSI capability id)" "0x$(cfg 0x40)" 0x05
expect "cfg 0x42 (MSI control, 64-bit)" "$((0x$(cfg 0x42) & 0x80))" 0x80
expect "cfg 0x3d (interrupt pin)" "0x$(cfg 0x3d)" 1

# BAR0 from the resource file: "start end flags" per BAR.
set -- $(head -n 1 "$dev/resource")
start=$1 end=$2
expect "BAR0 size" $((end - start + 1)) 0x20000
[ $((start)) -ne 0 ] || bad "BAR0 not assigned"

# No driver has enabled the function: turn memory decoding on.
echo 1 > "$dev/enable" 2>/dev/null || bad "cannot enable ${dev##*/}"

rd() { devmem $((start + $1)) 32; }
expect "ID" "$(rd 0x000)" 0x50505531
expect "VERSION" "$(rd 0x004)" 0x00010000
expect "CAP_NUM_CHANNELS" "$(rd 0x010)" 16
expect "SCHED_TIMESLICE (reset)" "$(rd 0x060)" 1048576
devmem $((start + 0x060)) 32 0x00012345
expect "SCHED_TIMESLICE (written 0x12345)" "$(rd 0x060)" 0x12345
devmem $((start + 0x060)) 32 1048576
expect "SCHED_TIMESLICE (restored)" "$(rd 0x060)" 1048576
# Cycle counter advances between reads (the model is clocked by accesses).
c1=$(rd 0x078); c2=$(rd 0x078)
if [ $((c2)) -gt $((c1)) ]; then ok "CYCLE_LO advances ($c1 -> $c2)"; else bad "CYCLE_LO $c1 -> $c2"; fi

if [ $fail = 0 ]; then echo "cosim-smoke: PASS"; else echo "cosim-smoke: FAIL"; fi
exit $fail
