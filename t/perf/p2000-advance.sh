#!/bin/sh
# p2000-advance.sh - git rolling init and advance on a kernel-scale
# repository (see lib-kernel-scale.sh), side by side with the floor set
# by git itself and the obvious shell implementation of the same work
# (advance-plumbing.sh).  Prints medians over PERF_RUNS runs (default 5),
# peak RSS and ratios, with PASS or MISS against these targets:
#
#   advance within 2 times the floor, reading and peeling every tag
#       (git for-each-ref --format='%(*objectname)' refs/tags)
#   advance's peak RSS under 64 MiB
#   advance in a reftable repository within 1.5 times the same advance
#       in a files one: two bare mirrors of the repository, sharing its
#       objects (git clone --mirror --shared), one for each ref format,
#       run in turn (git 2.46 or later; skipped with an older git)
#
# The shell implementation spends most of its time in the same tag read,
# so its ratio is printed for information, without a target; so is the
# cost of init recognising the tag scheme (no --preset) over init with one.
#
# The advance measured makes a series switch (two merges) with --dry-run,
# which computes the same merges without writing them, so that every run
# does the same work.  Informational only: a MISS does not fail.
#
# Beside it, for information: the same advance with steps = each (every
# release of the series left, one merge each, then the switch), and
# init --adopt of the generated linux-rolling-stable (one merge per
# release), whose cost is the proof's: it is set against verify.

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
. "$PERF_DIR/lib-kernel-scale.sh"
. "$PERF_DIR/lib-measure.sh"

RUNS=${PERF_RUNS:-5}
BRANCH=bench-rolling
TARGET_FLOOR_RATIO=2
TARGET_PEAK_MIB=64

perf_setup p2000
git config user.name "Rolling Bench"
git config user.email bench@example.org

# Start the branch at the first release of the series before the one the
# policy follows, so that advance has a catch-up and a switch to make.
git rolling init -q --force --preset linux $BRANCH || die "init failed"
followed=$(git log -1 --format=%s $BRANCH | sed -n 's/^Merge //p')
test -n "$followed" || followed=$(git tag --points-at $BRANCH | sort -V | tail -n 1)
followed=${followed%.*}
previous=$(git tag -l 'v*.*.*' | sed 's/\.[0-9]*$//' | sort -V -u |
	awk -v f="$followed" '$0 == f { print last; exit } { last = $0 }')
start=$(git tag -l "$previous.*" | sort -V | head -n 1)
git rolling init -q --force --preset linux --at "$start" $BRANCH || die "init --at $start failed"

# The steps and their full ids, from the stable format: advance's own
# lines abbreviate the ids as git does, to a length that depends on the
# repository.
git rolling advance --dry-run $BRANCH >"$work/advance" || die "advance failed"
git rolling advance --dry-run --porcelain $BRANCH >"$work/advance.porcelain" ||
	die "advance --porcelain failed"
sh "$PERF_DIR/advance-plumbing.sh" $BRANCH >"$work/plumbing" || die "advance-plumbing.sh failed"
awk '$1 == "step" { print $3 " -> " $4 " (" $5 ")" }' "$work/advance.porcelain" >"$work/advance.steps"
cmp -s "$work/advance.steps" "$work/plumbing" ||
	die "advance and advance-plumbing.sh disagree: $(cat "$work/advance.porcelain" "$work/plumbing")"
test "$(wc -l <"$work/advance")" = 2 || die "expected a catch-up and a switch: $(cat "$work/advance")"

tags=$(git for-each-ref refs/tags | wc -l)
echo "measuring ($RUNS runs each)" >&2
measure advance git rolling advance --dry-run $BRANCH
measure init git rolling init -q --force --preset linux --at "$start" $BRANCH
measure detect git rolling init -q --force --at "$start" $BRANCH
measure floor git for-each-ref --format='%(objectname) %(*objectname)' refs/tags
measure plumbing sh "$PERF_DIR/advance-plumbing.sh" $BRANCH

git config rolling.$BRANCH.steps each
git rolling advance --dry-run --porcelain $BRANCH >"$work/each" || die "advance (each) failed"
each_steps=$(grep -c '^step ' "$work/each")
measure each git rolling advance --dry-run $BRANCH
git config --unset rolling.$BRANCH.steps
ADOPT_IDENT="Rolling Bench <bench@example.org>"
git rolling init -q --force --adopt --preset linux --each --ident "$ADOPT_IDENT" linux-rolling-stable ||
	die "init --adopt of linux-rolling-stable failed"
measure adopt git rolling init -q --force --adopt --preset linux --each --ident "$ADOPT_IDENT" linux-rolling-stable
measure verify git rolling verify -q linux-rolling-stable

# The same advance in twins that differ in their ref format alone.
TARGET_REFTABLE_RATIO=1.5
reftable_us=
if git init -q --bare --ref-format=reftable "$work/probe.git" 2>/dev/null
then
	for format in files reftable
	do
		git clone -q --mirror --shared --ref-format=$format "$repo" "$work/$format.git" &&
		git -C "$work/$format.git" config user.name "Rolling Bench" &&
		git -C "$work/$format.git" config user.email bench@example.org &&
		git -C "$work/$format.git" rolling init -q --force --preset linux --at "$start" $BRANCH ||
			die "the $format twin could not be made"
	done
	test "$(git -C "$work/reftable.git" rev-parse --show-ref-format)" = reftable ||
		die "the reftable twin is not reftable"
	git -C "$work/files.git" rolling advance --dry-run $BRANCH >"$work/advance.files" &&
	git -C "$work/reftable.git" rolling advance --dry-run $BRANCH >"$work/advance.reftable" &&
	cmp -s "$work/advance.files" "$work/advance.reftable" ||
		die "the twins disagree: $(cat "$work/advance.files" "$work/advance.reftable")"
	measure_rounds "files=git -C $work/files.git rolling advance --dry-run $BRANCH" \
		"reftable=git -C $work/reftable.git rolling advance --dry-run $BRANCH"
fi

echo
echo "p2000-advance: $tags tags; advance from $start: $(tr '\n' ';' <"$work/advance")"
echo "medians of $RUNS runs, peak RSS the highest"
for name in advance init detect floor plumbing each adopt verify
do
	eval "us=\$${name}_us kib=\$${name}_kib"
	awk -v n="$name" -v us="$us" -v kib="$kib" \
		'BEGIN { printf "%-10s %9.3f s %8.1f MiB\n", n, us / 1e6, kib / 1024 }'
done
echo
awk -v r="$(ratio "$advance_us" "$floor_us")" -v t=$TARGET_FLOOR_RATIO \
	'BEGIN { printf "advance / floor     %6.2f x  %s (target <= %s x)\n", r, (r <= t ? "PASS" : "MISS"), t }'
awk -v r="$(ratio "$plumbing_us" "$advance_us")" \
	'BEGIN { printf "plumbing / advance  %6.2f x  (information)\n", r }'
awk -v r="$(ratio "$detect_us" "$init_us")" \
	'BEGIN { printf "detect / init       %6.2f x  (information: init reading the tags with every preset)\n", r }'
awk -v r="$(ratio "$each_us" "$floor_us")" -v n="$each_steps" \
	'BEGIN { printf "each / floor        %6.2f x  (information: %d merges)\n", r, n }'
awk -v r="$(ratio "$adopt_us" "$verify_us")" \
	'BEGIN { printf "adopt / verify      %6.2f x  (information)\n", r }'
if test -n "$reftable_us"
then
	awk -v r="$(ratio "$reftable_us" "$files_us")" -v t=$TARGET_REFTABLE_RATIO \
		-v f="$files_us" -v rt="$reftable_us" \
		'BEGIN { printf "reftable / files    %6.2f x  %s (target <= %s x; %.3f s against %.3f s)\n", r, (r <= t ? "PASS" : "MISS"), t, rt / 1e6, f / 1e6 }'
else
	echo "reftable / files       -    (skipped: git $(git version | cut -d" " -f3) makes no reftable repository)"
fi
awk -v r="$(ratio "$advance_kib" 1024)" -v t=$TARGET_PEAK_MIB \
	'BEGIN { printf "advance peak RSS    %6.1f MiB %s (target < %s MiB)\n", r, (r < t ? "PASS" : "MISS"), t }'
