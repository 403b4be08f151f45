#!/bin/sh
# p7000-fetch.sh - a weekly git rolling fetch of one new step from a
# kernel-scale server (lib-kernel-scale.sh), side by side with what it
# is made of: `git fetch stable linux-rolling-stable` as a user types it
# (one connection; git follows the new tag), and git rolling verify
# --since of the same step.  Prints medians over PERF_RUNS runs (default
# 5), peak RSS and the ratio against the target
#
#   git rolling fetch <= git fetch as typed
#                        + git rolling verify --since (the new step)
#
# with, for information, git fetch of exactly the same objects and refs,
# the new tag named, and the full verify of the branch (p3000's figure).
#
# Why the fetch as typed is the measure: git rolling fetch makes one
# connection to the server, as git fetch does, and learns of the new
# release tags by git's tag following.  git fetch with the new tag named
# needs no following, but the name is known only from a listing, which
# is a second connection (and, over HTTPS without a credential helper, a
# second password); tag following makes git read every tag object of the
# advertisement that the repository has (5,435 here) to find its
# cut-off, which the named fetch avoids and the typed one pays as well.
#
# The server is a bare repository borrowing the kernel-scale objects
# (objects/info/alternates) with one more release on the followed series
# and the rolling step merging it; the consumer is a local clone (its
# pack hard-linked, no alternates, as a kernel clone is) whose verified
# tip is the step before.  Only the new
# step's objects are missing on the consumer's side, so each fetch
# transfers those, over file://.  Before every timed run the consumer is
# put back (the new objects deleted, the refs reset) by the same script
# for both fetches.  Informational only: a MISS does not fail.

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
. "$PERF_DIR/lib-kernel-scale.sh"
. "$PERF_DIR/lib-measure.sh"
. "$PERF_DIR/lib-fetch-server.sh"

RUNS=${PERF_RUNS:-5}
BRANCH=linux-rolling-stable

perf_setup p7000
fetch_server $BRANCH
fetch_consumer $BRANCH
cat >"$work/rolling-fetch" <<EOF
. "$work/reset" && git rolling fetch -q stable
EOF
cat >"$work/git-fetch" <<EOF
. "$work/reset" &&
git fetch -q --no-tags stable +refs/heads/$BRANCH:refs/remotes/stable/$BRANCH \
	+refs/tags/$new_release:refs/tags/$new_release
EOF
cat >"$work/git-fetch-typed" <<EOF
. "$work/reset" && git fetch -q stable
EOF
cat >"$work/reset-only" <<EOF
. "$work/reset"
EOF

sh "$work/rolling-fetch" || die "git rolling fetch failed"
test "$(git rev-parse refs/rolling/verified/stable/$BRANCH)" = "$new_tip" ||
	die "git rolling fetch did not verify the new step"
git cat-file -e $new_tip || die "the new step was not fetched"
sh "$work/reset" && git cat-file -e $new_tip 2>/dev/null && die "the reset leaves the new step"
# The typed fetch must bring what the rolling fetch brings, the new tag
# too (git follows tags for a remote's configured refspecs, not for
# 'git fetch <remote> <branch>').
sh "$work/git-fetch-typed" || die "git fetch stable failed"
test "$(git rev-parse stable/$BRANCH)" = "$new_tip" &&
git rev-parse -q --verify refs/tags/$new_release >/dev/null ||
	die "git fetch stable did not bring the new step and $new_release"
sh "$work/git-fetch" || die "git fetch failed"
git rolling verify -q --preset linux --since $tip stable/$BRANCH || die "verify --since failed"

# --- measuring -----------------------------------------------------------

# Each fetch in turn, round by round, so that a machine whose load
# changes over the minute weighs on all of them alike.
echo "measuring ($RUNS rounds)" >&2
measure_rounds "reset=sh $work/reset-only" "rolling=sh $work/rolling-fetch" \
	"gitfetch=sh $work/git-fetch" "typed=sh $work/git-fetch-typed"
# The new step and its tag, as the first check had them: the last fetch
# measured may leave another state.
sh "$work/git-fetch" || die "git fetch failed"
measure since git rolling verify -q --preset linux --since $tip stable/$BRANCH
measure full git rolling verify -q --preset linux stable/$BRANCH
measure lsremote git ls-remote stable refs/heads/$BRANCH 'refs/tags/*'

# --- the report ----------------------------------------------------------

row () {
	eval "r_us=\$${2}_us r_kib=\$${2}_kib"
	awk -v label="$1" -v a="$r_us" -v b="$r_kib" 'BEGIN {
		printf "%-52s %9.3f s %8.1f MiB\n", label, a / 1e6, b / 1024 }'
}

budget_us=$((typed_us + since_us))
steps=$(git rev-list --count --first-parent --merges stable/$BRANCH)
tags=$(git for-each-ref refs/tags | wc -l)
echo
echo "p7000-fetch: $BRANCH of $steps steps, $tags tags; one new step ($tip_release -> $new_release)," \
	"$new_objects new objects over file://"
echo "medians of $RUNS runs (the fetches in turn, round by round), peak RSS the highest;"
echo "each fetch run includes the reset; load average now: $(cut -d" " -f1-3 /proc/loadavg)"
echo
row "reset of the consumer (in both fetches below)" reset
row "git rolling fetch (one new step)" rolling
row "git fetch of the same objects and refs" gitfetch
row "git fetch stable (as typed: follows tags)" typed
row "git rolling verify --since (the new step)" since
row "git rolling verify, whole branch (as p3000)" full
row "git ls-remote of the branch and the tags" lsremote
echo
awk -v r="$rolling_us" -v b="$budget_us" -v g="$gitfetch_us" -v f="$full_us" \
    -v t="$typed_us" -v s="$since_us" 'BEGIN {
	printf "%-52s %9.3f s\n", "budget: git fetch as typed + verify --since", b / 1e6
	printf "%-52s %9.2f x %s   (target <= 1.00 x)\n", "rolling fetch / budget", r / b,
		r <= b ? "PASS" : "MISS"
	printf "%-52s %9.2f x   (for information: the tag named)\n",
		"rolling fetch / (git fetch of the same + verify --since)", r / (g + s)
	printf "%-52s %9.2f x   (for information)\n", "rolling fetch / (git fetch + full verify)",
		r / (g + f)
}'
