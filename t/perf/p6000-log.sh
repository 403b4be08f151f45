#!/bin/sh
# p6000-log.sh - git rolling log on a kernel-scale repository (see
# lib-kernel-scale.sh), against the baseline a script would use: one
# `git rev-list --count <previous release>..<release>` per step
# (log-plumbing.sh).  Both print the same counts (checked first).
# Prints medians over PERF_RUNS runs (default 3), peak RSS and the
# ratio, with PASS or MISS against this target:
#
#   the whole log faster than the per-step rev-list baseline
#
# Informational only: a MISS does not fail.

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
. "$PERF_DIR/lib-kernel-scale.sh"
. "$PERF_DIR/lib-measure.sh"

RUNS=${PERF_RUNS:-3}
BRANCH=linux-rolling-stable
TARGET_RATIO=1

perf_setup p6000

git rolling log --preset linux $BRANCH >"$work/log" || die "git rolling log failed"
sh "$PERF_DIR/log-plumbing.sh" $BRANCH >"$work/plumbing" || die "log-plumbing.sh failed"
# "<date> <release> <id> ... <count> commits" -> "<release> <count>", the base dropped
sed -n 's/^[^ ]* \([^ ]*\) .* \([0-9,]*\) commits\{0,1\}$/\1 \2/p' "$work/log" | tr -d , >"$work/log.short"
cmp -s "$work/log.short" "$work/plumbing" ||
	die "git rolling log and log-plumbing.sh disagree: $(diff "$work/log.short" "$work/plumbing" | head -n 5)"

steps=$(wc -l <"$work/plumbing")
commits=$(awk '{ n += $2 } END { print n }' "$work/plumbing")
echo "measuring ($RUNS runs each)" >&2
measure log git rolling log --preset linux $BRANCH
measure log3 git rolling log --preset linux -3 $BRANCH
measure switches git rolling log --preset linux --switches $BRANCH
measure plumbing sh "$PERF_DIR/log-plumbing.sh" $BRANCH

echo
echo "p6000-log: $steps steps bringing $commits commits"
echo "medians of $RUNS runs, peak RSS the highest"
for name in log log3 switches plumbing
do
	eval "us=\$${name}_us kib=\$${name}_kib"
	awk -v n="$name" -v us="$us" -v kib="$kib" \
		'BEGIN { printf "%-10s %9.3f s %8.1f MiB\n", n, us / 1e6, kib / 1024 }'
done
echo
awk -v r="$(ratio "$log_us" "$plumbing_us")" -v t=$TARGET_RATIO \
	'BEGIN { printf "log / rev-list per step  %6.2f x  %s (target < %s x)\n", r, (r < t ? "PASS" : "MISS"), t }'
awk -v us="$log_us" -v n="$commits" \
	'BEGIN { printf "log per commit counted   %6.2f us\n", us / n }'
