#!/bin/sh
# p6100-backfill.sh - git rolling init --backfill on a kernel-scale
# repository of a million commits with 5,600 release tags in 280 short
# series (lib-kernel-scale.sh with PERF_SERIES=280 and
# PERF_RELEASES_PER_SERIES=20), so that the stable policy makes about
# 5,000 steps.  Each run writes its merges anew (backfill-run.sh).
# Prints medians over PERF_RUNS runs (default 3) of a backfill of about
# 1,000 steps (--at the release 1,000 steps before the tip; a fifth of
# the steps when there are fewer than 5,000) and of the whole history, the time per step of each, and the floor: reading every
# tag with the date it appeared (git for-each-ref %(creatordate)).
# Targets, PASS or MISS (informational only):
#
#   5,000 steps in under 5 s
#   the time per step flat: at 5,000 steps within 1.5 times that at 1,000

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
PERF_SERIES=${PERF_BACKFILL_SERIES:-280}
PERF_RELEASES_PER_SERIES=${PERF_BACKFILL_RELEASES:-20}
. "$PERF_DIR/lib-kernel-scale.sh"
. "$PERF_DIR/lib-measure.sh"

RUNS=${PERF_RUNS:-3}
TARGET_SECONDS=5
TARGET_FLAT=1.5

perf_setup p6100
git config user.name "Rolling Bench"
git config user.email bench@example.org

# The merges of every run, these first ones too, go to a scratch object
# directory (the cached repository's objects are its alternate): no run
# finds its merges written already, and the cache stays as generated.
mkdir "$work/setup-objects" || exit 1
trap 'git update-ref -d refs/heads/bench-backfill; rm -rf "$work"' EXIT
with_scratch () {
	GIT_OBJECT_DIRECTORY=$work/setup-objects GIT_ALTERNATE_OBJECT_DIRECTORIES=$PWD/.git/objects "$@"
}
with_scratch git rolling init -q --force --backfill bench-backfill || die "backfill failed"
steps=$(with_scratch git rev-list --count --first-parent --merges bench-backfill)
# The stable policy takes most releases: all but those its series puts
# out before the next merge window closes (2 of 20 here, 2 of 5 in
# make bench-small's repository).
releases=$(git for-each-ref --format='%(refname:lstrip=2)' refs/tags |
	grep -c -E '^v[0-9]+\.[0-9]+\.[0-9]+$')
test "$steps" -ge $((releases / 2)) || die "only $steps steps for $releases releases"
# The shorter backfill takes the last 1,000 steps, or a fifth of them when
# there are fewer than 5,000.
at_steps=1000
test $at_steps -le $((steps / 5)) || at_steps=$((steps / 5))
test $at_steps -ge 10 || die "only $steps steps: too few to compare"
at=$(with_scratch git log --first-parent --format=%s bench-backfill | sed -n "${at_steps}s/^Merge //p")
with_scratch git rolling init -q --force --backfill --at "$at" bench-backfill ||
	die "backfill --at $at failed"
steps_at=$(with_scratch git rev-list --count --first-parent --merges bench-backfill)
tags=$(git for-each-ref refs/tags | wc -l)

echo "measuring ($RUNS runs each)" >&2
measure all sh "$PERF_DIR/backfill-run.sh" "$work" bench-backfill
measure at sh "$PERF_DIR/backfill-run.sh" "$work" --at "$at" bench-backfill
measure floor git for-each-ref --format='%(creatordate:unix) %(refname)' refs/tags

echo
echo "p6100-backfill: $tags tags; $steps steps from the start, $steps_at from $at"
echo "medians of $RUNS runs, peak RSS the highest"
for name in all at floor
do
	eval "us=\$${name}_us kib=\$${name}_kib"
	awk -v n="$name" -v us="$us" -v kib="$kib" \
		'BEGIN { printf "%-10s %9.3f s %8.1f MiB\n", n, us / 1e6, kib / 1024 }'
done
echo
awk -v us="$at_us" -v n="$steps_at" 'BEGIN { printf "per step at %5d steps  %7.1f us\n", n, us / n }'
awk -v us="$all_us" -v n="$steps" 'BEGIN { printf "per step at %5d steps  %7.1f us\n", n, us / n }'
awk -v a="$all_us" -v na="$steps" -v b="$at_us" -v nb="$steps_at" \
	'BEGIN { printf "per step, marginal     %7.1f us  (the %d steps before %s)\n", (a - b) / (na - nb), na - nb, "'"$at"'" }'
awk -v us="$all_us" -v n="$steps" -v t=$TARGET_SECONDS \
	'BEGIN { s = us / 1e6 * 5000 / n; printf "5,000 steps            %7.2f s  %s (target < %s s)\n", s, (s < t ? "PASS" : "MISS"), t }'
awk -v a="$all_us" -v na="$steps" -v b="$at_us" -v nb="$steps_at" -v t=$TARGET_FLAT \
	'BEGIN { r = (a / na) / (b / nb); printf "per step, all / at     %7.2f x  %s (target <= %s x)\n", r, (r <= t ? "PASS" : "MISS"), t }'
awk -v r="$(ratio "$all_us" "$floor_us")" \
	'BEGIN { printf "all / floor            %7.2f x  (information)\n", r }'
