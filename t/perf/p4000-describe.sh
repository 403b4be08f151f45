#!/bin/sh
# p4000-describe.sh - git rolling describe and bisect-helper steps on a
# kernel-scale repository (see lib-kernel-scale.sh): a commit the branch
# contains, and one it does not, without a commit-graph, with the one
# git writes by default, and with a generation-v1 one that libgit2 1.5
# can read.  Beside them, the floor: one `git merge-base --is-ancestor`
# of the same commit against the tip, run in the same rounds (each round
# runs every command once, medians of PERF_RUNS rounds, default 5).
# Targets: describe within 1.2 times that one query of git without a
# commit-graph, in both cases (the ratio is printed for every state);
# well under a second, here under 0.5 s, when a commit-graph exists.
# Informational: a MISS does not fail.

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
. "$PERF_DIR/lib-kernel-scale.sh"
. "$PERF_DIR/lib-measure.sh"

RUNS=${PERF_RUNS:-5}
BRANCH=linux-rolling-stable
TARGET_SECONDS=0.5
TARGET_RATIO=1.2

perf_setup p4000
graph=.git/objects/info/commit-graph
rm -f $graph

tip=$(git rev-parse $BRANCH)
# A stable commit the branch merged 300 steps before its tip (half way
# down a branch of 300 steps or fewer), and a mainline commit newer than
# anything the branch follows.
steps=$(git rev-list --count --first-parent --merges $BRANCH)
test "$steps" -ge 2 || die "$BRANCH has $steps steps"
back=300
test $back -lt "$steps" || back=$((steps / 2))
middle=$(git rev-list --first-parent --merges $BRANCH | sed -n ${back}p)
inside=$(git rev-parse --verify "$middle^2~1") || die "release $middle^2 has no backport"
outside=$(git rev-parse master)
# /usr/bin/time runs programs, not shell functions: spell the command out.
describe="git rolling describe --branch $BRANCH --preset linux"
release=$(git log -1 --format=%s $middle | sed -n 's/^Merge //p')

# measure_state STATE: check describe's answers in the commit-graph
# state of the moment (they take another path with a graph), then time.
measure_state () {
	$describe $inside | grep -q "^first in $BRANCH at $release " ||
		die "describe ($1) does not find $inside at $release: $($describe $inside)"
	$describe $outside | grep -q "^not in $BRANCH" || die "describe ($1) finds $outside"
	measure_rounds "in_$1=$describe $inside" "floor_$1=git merge-base --is-ancestor $inside $tip" \
		"out_$1:1=$describe $outside" "floorout_$1:1=git merge-base --is-ancestor $outside $tip" \
		"steps_$1=git rolling bisect-helper steps --branch $BRANCH --preset linux"
}

echo "measuring without a commit-graph ($RUNS rounds)" >&2
measure_state none
echo "measuring with git's default commit-graph ($RUNS rounds)" >&2
git commit-graph write --reachable --no-progress || die "cannot write a commit-graph"
measure_state v2
echo "measuring with a generation-v1 commit-graph ($RUNS rounds)" >&2
git -c commitGraph.generationVersion=1 commit-graph write --reachable --no-progress ||
	die "cannot write a commit-graph"
measure_state v1
rm -f $graph

echo
echo "p4000-describe: $steps steps, the contained commit $back steps down;" \
	"medians of $RUNS runs, peak RSS the highest"
printf "%-36s %-22s %-22s %s\n" "" "no commit-graph" "git default graph" "generation v1 graph"
for row in "describe, contained:in" "floor: merge-base --is-ancestor:floor" \
	   "describe, not contained:out" "floor: merge-base, not contained:floorout" \
	   "bisect-helper steps:steps"
do
	label=${row%:*} name=${row##*:}
	eval "a=\$${name}_none_us b=\$${name}_v2_us c=\$${name}_v1_us"
	eval "ak=\$${name}_none_kib bk=\$${name}_v2_kib ck=\$${name}_v1_kib"
	awk -v l="$label" -v a=$a -v b=$b -v c=$c -v ak=$ak -v bk=$bk -v ck=$ck 'BEGIN {
		printf "%-36s %7.3f s %6.1f MiB  %7.3f s %6.1f MiB  %7.3f s %6.1f MiB\n",
			l, a / 1e6, ak / 1024, b / 1e6, bk / 1024, c / 1e6, ck / 1024 }'
done
echo
# Each describe against git's query about the same commit, in each state.
for row in "contained:in:floor" "not contained:out:floorout"
do
	label=${row%%:*} rest=${row#*:}
	name=${rest%%:*} floor=${rest#*:}
	eval "a=\$${name}_none_us b=\$${name}_v2_us c=\$${name}_v1_us"
	eval "fa=\$${floor}_none_us fb=\$${floor}_v2_us fc=\$${floor}_v1_us"
	awk -v l="describe / merge-base, $label" -v a=$a -v b=$b -v c=$c -v fa=$fa -v fb=$fb \
	    -v fc=$fc -v t=$TARGET_RATIO 'BEGIN {
		r = a / fa
		printf "%-36s %7.2f x %-8s    %7.2f x             %7.2f x   (target <= %s x without a graph)\n",
			l, r, (r <= t ? "PASS" : "MISS"), b / fb, c / fc, t }'
done
for state in v2 v1
do
	eval "a=\$in_${state}_us b=\$out_${state}_us"
	awk -v s=$state -v a=$a -v b=$b -v t=$TARGET_SECONDS 'BEGIN {
		m = a > b ? a : b
		printf "describe with the %s graph: %.3f s %s (target < %s s)\n", s, m / 1e6,
			(m / 1e6 < t ? "PASS" : "MISS"), t }'
done
