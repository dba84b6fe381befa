#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Co-simulation benchmarks: boots the QEMU guest with the co-simulated PPU
# once, loads ppu.ko, runs build/guest/bench_ioctl (GET_PARAM round trips)
# build/guest/bench_submit (doorbell -> completion) and
# build/guest/bench_copy_prio (copy priorities through libppu) and
# build/guest/bench_workq (device-side work creation against the host round
# trip), build/guest/bench_recovery (watchdog and engine reset) and
# build/guest/ppu_fuzz (100,000 calls) and prints their "bench:" lines plus
# the runner's wall times:
#
#   bench: ioctl_get_param_roundtrip <us> us        (from the guest)
#   bench: ioctl_get_param_mmio_roundtrip <us> us   (from the guest)
#   bench: guest_submit_to_wait_return[_min] <us> us (from the guest)
#   bench: guest_doorbell_to_release_cycles <c> cycles (from the guest)
#   bench: guest_page_* the same through the doorbell page, and the ratio
#   bench: copy_prio_* ratios and throughputs (from the guest, libppu)
#   bench: workq_guest_* cycles and their ratio (from the guest, libppu)
#   bench: watchdog_stop_latency_ms, engine_reset_* (from the guest)
#   bench: fuzz_calls_per_s <n> calls/s   (the fuzzer's own count)
#   bench: cosim_boot_wall <s> s          runner start -> guest /init
#   bench: cosim_batch_wall <s> s         guest /init -> batch done
#   bench: cosim_boot_and_batch_wall <s> s  the whole runner invocation
#                                         (initramfs, boot, batch, poweroff)
#
# The lines are added to build/bench.txt (`make bench-run` rewrites that
# file, so run this afterwards); earlier lines of the same names are
# replaced, so repeated runs do not pile up.  A run that times out or fails
# to set up (runner status 3 or 4, e.g. while another guest loads the
# machine) is retried once.
#
# Run from the repository root after `make cosim-tools kmod kmod-guest-tests`.
# Environment: COSIM_RUNNER (build/tools/ppu-cosim), KMOD
# (build/kernel/ppu.ko), BENCH_IOCTL (build/guest/bench_ioctl), BENCH_SUBMIT
# (build/guest/bench_submit), PPU_KVER
# (guest kernel version, default: the runner's choice), BENCH_OUT
# (build/bench.txt), COSIM_BENCH_TIMEOUT (600 s), BENCH_IOCTL_ARGS
# (iteration counts for bench_ioctl, default its own).
set -u -o pipefail

runner=${COSIM_RUNNER:-build/tools/ppu-cosim}
kmod=${KMOD:-build/kernel/ppu.ko}
bench=${BENCH_IOCTL:-build/guest/bench_ioctl}
submit=${BENCH_SUBMIT:-build/guest/bench_submit}
copyprio=${BENCH_COPY_PRIO:-build/guest/bench_copy_prio}
workq=${BENCH_WORKQ:-build/guest/bench_workq}
workq_elf=${BENCH_WORKQ_ELF:-build/device/workq_bench.elf}
recovery=${BENCH_RECOVERY:-build/guest/bench_recovery}
fuzz=${BENCH_FUZZ:-build/guest/ppu_fuzz}
out=${BENCH_OUT:-build/bench.txt}
timeout=${COSIM_BENCH_TIMEOUT:-600}
bench_args=${BENCH_IOCTL_ARGS:-}

die() {
	echo "cosim-bench: $*" >&2
	exit 1
}

for f in "$runner" "$bench" "$submit" "$copyprio" "$workq" "$recovery" "$fuzz"; do
	[ -x "$f" ] || die "$f is missing: make cosim-tools kmod kmod-guest-tests"
done
[ -f "$workq_elf" ] || die "$workq_elf is missing: make device-kernels"
[ -f "$kmod" ] || die "$kmod is missing: make kmod"

args=(--timeout "$timeout" --module "$kmod" --file "$bench:/bin/bench_ioctl"
	--file "$submit:/bin/bench_submit" --file "$copyprio:/bin/bench_copy_prio"
	--file "$workq:/bin/bench_workq" --file "$workq_elf:/lib/ppu/workq_bench.elf"
	--run "/bin/bench_ioctl${bench_args:+ $bench_args}" --run /bin/bench_submit
	--file "$recovery:/bin/bench_recovery" --file "$fuzz:/bin/ppu_fuzz"
	--run /bin/bench_copy_prio --run /bin/bench_workq --run /bin/bench_recovery
	--run '/bin/ppu_fuzz --seed 1 --calls 100000 --children 3 --strict')
[ -n "${PPU_KVER:-}" ] && args=(--kver "$PPU_KVER" "${args[@]}")

log=$(mktemp) || die "mktemp failed"
trap 'rm -f "$log" "$log.new"' EXIT

for attempt in 1 2; do
	echo "measuring: co-simulation figures in one guest boot (ioctl and submit latency, copy" \
		"priorities, work queues, recovery, fuzzer rate; several minutes) ..." >&2
	"$runner" "${args[@]}" >"$log" 2>&1
	rc=$?
	if [ "$rc" -eq 3 ] || [ "$rc" -eq 4 ]; then
		if [ "$attempt" -eq 1 ]; then
			echo "cosim-bench: runner exit status $rc, retrying once" >&2
			continue
		fi
	fi
	break
done
if [ "$rc" -ne 0 ]; then
	cat "$log" >&2
	die "ppu-cosim failed (exit status $rc)"
fi

# "ppu-cosim: PASS; boot 4.9 s, runs 7.2 s, total 12.1 s"
read -r boot runs total < <(sed -n \
	's/^ppu-cosim: PASS; boot \([0-9.]*\) s, runs \([0-9.]*\) s, total \([0-9.]*\) s$/\1 \2 \3/p' \
	"$log")
[ -n "${total:-}" ] || { cat "$log" >&2; die "no PASS/boot/runs/total line from ppu-cosim"; }

guest=$(grep '^bench: ' "$log")
[ "$(grep -c '^bench: ioctl_get_param' <<<"$guest")" -eq 2 ] ||
	{ cat "$log" >&2; die "bench_ioctl did not print both GET_PARAM lines"; }
[ "$(grep -c '^bench: guest_' <<<"$guest")" -eq 7 ] ||
	{ cat "$log" >&2; die "bench_submit did not print its seven lines (ioctl, doorbell page, ratio)"; }
[ "$(grep -c '^bench: workq_guest_' <<<"$guest")" -eq 3 ] ||
	{ cat "$log" >&2; die "bench_workq did not print its three lines"; }

[ "$(grep -c '^bench: \(watchdog_\|engine_reset_\)' <<<"$guest")" -eq 5 ] ||
	{ cat "$log" >&2; die "bench_recovery did not print its five lines"; }
fuzz_rate=$(sed -n 's/^fuzz: calls \([0-9]*\), calls\/s \([0-9]*\)$/\2/p' "$log")
[ -n "$fuzz_rate" ] || { cat "$log" >&2; die "no calls/s line from ppu_fuzz"; }
guest=$(printf '%s\nbench: fuzz_calls_per_s %s calls/s (100000 calls, 3 clients, seed 1)' "$guest" "$fuzz_rate")

results=$(printf '%s\nbench: cosim_boot_wall %s s\nbench: cosim_batch_wall %s s\nbench: cosim_boot_and_batch_wall %s s\n' \
	"$guest" "$boot" "$runs" "$total")
echo "$results"

mkdir -p "$(dirname "$out")" || die "cannot create the directory of $out"
names=$(awk '{ print $2 }' <<<"$results")
{
	[ -f "$out" ] && awk -v names="$names" '
		BEGIN { n = split(names, a, "\n"); for (i = 1; i <= n; i++) skip[a[i]] = 1 }
		!($1 == "bench:" && ($2 in skip))' "$out"
	echo "$results"
} >"$log.new" || die "cannot write $log.new"
mv "$log.new" "$out" || die "cannot write $out"
echo "results: $out"
