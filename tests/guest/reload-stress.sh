#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Module reload stress for ppu.ko, run inside the co-simulation guest
# (busybox sh, as root) after the runner has loaded the module:
#
#   reload-stress [N]        N reloads, default 20
#
# Each iteration: rmmod ppu (the module and the ppu render node must be
# gone), insmod /lib/modules/extra/ppu.ko (where ppu-cosim puts --module
# files), the ppu render node must reappear with the same name within
# $NODE_WAIT_S seconds, and /bin/test_get_param (GET_PARAM against the
# model and debugfs) must pass.  The kernel log must gain no
# WARNING/BUG/Oops/... line (the runner checks the whole log as well).
#
# Leak check: iteration 1 is the warm-up (first-time allocations such as
# slab caches and sysfs/debugfs nodes); memory is sampled after it and after
# the last iteration, each time after `sync` and drop_caches, so N-1 reloads
# are measured.  Margins (KiB, for the whole run; environment overrides):
#   SLAB_MARGIN_KB      growth of /proc/meminfo Slab               (64)
#   MEMFREE_MARGIN_KB   drop of /proc/meminfo MemFree plus the pages on
#                       the per-CPU free lists (/proc/zoneinfo)     (64)
#   SLABINFO_MARGIN_KB  growth of one cache in /proc/slabinfo, active
#                       objects x object size, if the file exists   (48)
# Calibrated at N=20 (19 measured reloads) on the co-simulation guest: a
# clean ppu.ko showed at most 40 KiB MemFree drop, 24 KiB Slab growth and
# 8 KiB for one cache (6 runs); a build that leaks a kmalloc(4096) per
# probe exceeds all three (~100 KiB each), one that leaks a page per probe
# the MemFree one (~100 KiB).  Leaks of a few bytes per reload are not seen.
# A MemFree drop beyond the margin is confirmed over N-1 further reloads
# (memory freed by earlier programs may still be settling); the slab
# checks cover the whole run.
# Work in flight: with RELOAD_WORK set, each iteration first runs that
# command (sh -c, with ITER set to the iteration number) and unloads the
# module as soon as it exits, so that the files it closed may still have
# channels, copies and kernels on the PPU; the command must exit 0.  E.g.
#   RELOAD_WORK='/bin/ppu_fuzz --seed $ITER --time-limit 0.5 --children 2'
# The leak check then also covers what the work left behind.
# Exits 0 on success, 1 with a "reload-stress: FAIL ..." line otherwise.

N=${1:-20}
KO=${PPU_KO:-/lib/modules/extra/ppu.ko}
GET_PARAM=${GET_PARAM_TEST:-/bin/test_get_param}
NODE_WAIT_S=${NODE_WAIT_S:-20}
SLAB_MARGIN_KB=${SLAB_MARGIN_KB:-64}
MEMFREE_MARGIN_KB=${MEMFREE_MARGIN_KB:-64}
SLABINFO_MARGIN_KB=${SLABINFO_MARGIN_KB:-48}
TMP=/tmp/reload-stress.$$
PROBLEMS='Oops|BUG:|WARNING:|Kernel panic|kernel BUG|general protection fault|Unable to handle|soft lockup|hard LOCKUP|self-detected stall|detected stalls|blocked for more than|UBSAN:|KASAN:|refcount_t:|list_add corruption|list_del corruption'

say() { echo "reload-stress: $*"; }
fail() {
	say "FAIL $*"
	rm -rf "$TMP"
	exit 1
}

case $N in
'' | *[!0-9]*) fail "N must be a number >= 2, not '$N'" ;;
esac
[ "$N" -ge 2 ] || fail "N must be >= 2 (iteration 1 is the warm-up)"
[ -f "$KO" ] || fail "no module file $KO"
[ -x "$GET_PARAM" ] || fail "no GET_PARAM test $GET_PARAM"
mkdir -p "$TMP" || fail "cannot create $TMP"

loaded() { grep -q '^ppu ' /proc/modules; }

# The render node whose device is bound to driver "ppu", e.g. renderD128.
ppu_node() {
	for d in /sys/class/drm/renderD*; do
		[ -e "$d/device/driver" ] || continue
		drv=$(readlink "$d/device/driver")
		if [ "${drv##*/}" = ppu ] && [ -c "/dev/dri/${d##*/}" ]; then
			echo "${d##*/}"
			return 0
		fi
	done
	return 1
}

# A fraction of a second if busybox has usleep, else a second.
nap() { usleep 100000 2>/dev/null || sleep 1; }

wait_node() {
	end=$(($(cut -d. -f1 /proc/uptime) + NODE_WAIT_S))
	while ! ppu_node >/dev/null; do
		[ "$(cut -d. -f1 /proc/uptime)" -le "$end" ] || return 1
		nap
	done
	return 0
}

problems() { dmesg | grep -cE "$PROBLEMS"; }

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# Samples memory into $TMP/$1.{meminfo,slab}.
sample() {
	# Live tasks: the kernel starts and stops worker threads as it likes,
	# and each holds a task_struct that is no leak of ours.  (Counted
	# first: the proc inodes the listing creates are dropped below.)
	ls -d /proc/[0-9]* | wc -l >"$TMP/$1.tasks"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	# SLUB counts the objects of slabs held per CPU as in use: a cache
	# that churned (BOs' shmem inodes under the fuzzer) reads dozens of
	# objects high until those slabs go back to their lists.
	for f in /sys/kernel/slab/*/shrink; do echo 1 >"$f" 2>/dev/null; done
	nap
	# Pages on the per-CPU free lists (zoneinfo "count:") are free but not
	# in MemFree, and their number swings by hundreds of KiB: add them.
	pcp=$(awk '$1 == "count:" { n += $2 } END { print n * 4 }' /proc/zoneinfo)
	echo "$(($(meminfo MemFree) + pcp)) $(meminfo Slab)" >"$TMP/$1.meminfo"
	if [ -r /proc/slabinfo ]; then
		# name active_objs objsize
		awk 'NR > 2 { print $1, $2, $4 }' /proc/slabinfo >"$TMP/$1.slab"
	fi
}

loaded || fail "ppu is not loaded at the start (run under ppu-cosim --module ppu.ko)"
node0=$(ppu_node) || fail "no ppu render node at the start"
dri0=$(find /sys/kernel/debug/dri -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
prob0=$(problems)
say "$N reloads of $KO, render node $node0, get-param test $GET_PARAM${RELOAD_WORK:+, work before each: $RELOAD_WORK}"

# Reloads number $1 .. $2.
reloads() {
i=$1
while [ "$i" -le "$2" ]; do
	if [ -n "$RELOAD_WORK" ]; then
		if ! ITER=$i sh -c "$RELOAD_WORK" >"$TMP/work.log" 2>&1; then
			tail -40 "$TMP/work.log"
			fail "[$i] the work failed: $RELOAD_WORK"
		fi
	fi
	rmmod ppu || fail "[$i] rmmod ppu failed"
	! loaded || fail "[$i] ppu still in /proc/modules after rmmod"
	! ppu_node >/dev/null || fail "[$i] a ppu render node remains after rmmod"
	insmod "$KO" || fail "[$i] insmod $KO failed"
	wait_node || fail "[$i] no ppu render node ${NODE_WAIT_S} s after insmod"
	node=$(ppu_node)
	[ "$node" = "$node0" ] || fail "[$i] render node is $node, was $node0 (minor leaked?)"
	if ! "$GET_PARAM" >"$TMP/get_param.log" 2>&1; then
		cat "$TMP/get_param.log"
		fail "[$i] $GET_PARAM failed"
	fi
	p=$(problems)
	if [ "$p" -ne "$prob0" ]; then
		dmesg | grep -E "$PROBLEMS"
		fail "[$i] the kernel log has $((p - prob0)) new WARNING/BUG/Oops line(s)"
	fi
	if [ "$i" -eq 1 ]; then
		sample before
		# The same files for the second sample already exist then, so
		# that tmpfs does not count as growth.
		cp "$TMP/before.meminfo" "$TMP/after.meminfo"
		[ ! -f "$TMP/before.slab" ] || cp "$TMP/before.slab" "$TMP/after.slab"
		cp "$TMP/before.tasks" "$TMP/after.tasks"
	fi
	i=$((i + 1))
done
}

reloads 1 "$N"
sample after

dri=$(find /sys/kernel/debug/dri -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
[ "$dri" -eq "$dri0" ] || fail "/sys/kernel/debug/dri has $dri entries, had $dri0"

read -r free0 slab0 <"$TMP/before.meminfo"
read -r free1 slab1 <"$TMP/after.meminfo"
free_drop=$((free0 - free1))
slab_growth=$((slab1 - slab0))
say "over $((N - 1)) reloads: MemFree+pcp $free0 -> $free1 kB (drop $free_drop, margin $MEMFREE_MARGIN_KB)," \
	"Slab $slab0 -> $slab1 kB (growth $slab_growth, margin $SLAB_MARGIN_KB)"
leak=0
if [ "$free_drop" -gt "$MEMFREE_MARGIN_KB" ]; then
	# Memory that earlier programs freed can still be settling (lazy
	# frees, per-CPU lists) while we reload: a leak keeps going, noise
	# does not.  Measure N - 1 more reloads from here before calling it.
	say "MemFree+pcp dropped by $free_drop kB > $MEMFREE_MARGIN_KB kB; confirming"
	reloads $((N + 1)) $((2 * N - 1))
	cp "$TMP/after.meminfo" "$TMP/mid.meminfo"
	sample after
	read -r free1 slab1 <"$TMP/mid.meminfo"
	read -r free2 slab2 <"$TMP/after.meminfo"
	free_drop=$((free1 - free2))
	say "over $((N - 1)) more reloads: MemFree+pcp $free1 -> $free2 kB (drop $free_drop)"
	if [ "$free_drop" -gt "$MEMFREE_MARGIN_KB" ]; then
		say "MemFree+pcp dropped by $free_drop kB > $MEMFREE_MARGIN_KB kB again"
		leak=1
	fi
fi
if [ "$slab_growth" -gt "$SLAB_MARGIN_KB" ]; then
	say "Slab grew by $slab_growth kB > $SLAB_MARGIN_KB kB"
	leak=1
fi
if [ -f "$TMP/before.slab" ]; then
	# Caches whose active objects x size grew by more than the margin
	# (task_struct: beyond one object per task that is alive now and was
	# not then).
	tasks=$(($(cat "$TMP/after.tasks") - $(cat "$TMP/before.tasks")))
	say "live tasks: $(cat "$TMP/before.tasks") -> $(cat "$TMP/after.tasks")"
	awk -v m=$((SLABINFO_MARGIN_KB * 1024)) -v t=$((tasks > 0 ? tasks : 0)) '
		NR == FNR { b[$1] = $2; next }
		{ n = $2 - b[$1]; if ($1 == "task_struct") n -= t
		  d = n * $3; if (d > top) { top = d; tn = $1 }
		  if (d > m) printf "reload-stress: slab cache %s grew by %d objects (%d bytes)\n", $1, n, d }
		END { printf "reload-stress: largest slab cache growth: %s %d bytes (margin %d)\n", tn == "" ? "none" : tn, top, m }
	' "$TMP/before.slab" "$TMP/after.slab" >"$TMP/slabdiff"
	cat "$TMP/slabdiff"
	grep -q 'grew by' "$TMP/slabdiff" && leak=1
else
	say "no readable /proc/slabinfo: per-cache check skipped"
fi
[ "$leak" = 0 ] || fail "memory grew across $((N - 1)) reloads beyond the margins (leak?)"

rm -rf "$TMP"
say "PASS ($N reloads)"
exit 0
