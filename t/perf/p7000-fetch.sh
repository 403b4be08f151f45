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

RUNS=${PERF_RUNS:-5}
BRANCH=linux-rolling-stable

perf_setup p7000
big=$(pwd -P)
tip=$(git rev-parse $BRANCH) || die "no $BRANCH"

# --- the server: one release and one rolling step more ----------------

server=$work/server.git
git init -q --bare "$server" &&
echo "$big/.git/objects" >"$server/objects/info/alternates" &&
cp .git/packed-refs "$server/packed-refs" || die "cannot make the server"

tip_release=$(git log -1 --format=%s $tip | sed -n 's/^Merge //p')
test -n "$tip_release" || die "the tip of $BRANCH is not a rolling merge"
series=${tip_release%.*}
patch=${tip_release##*.}
while git rev-parse -q --verify "refs/tags/$series.$((patch + 1))" >/dev/null
do
	patch=$((patch + 1))
done
new_release=$series.$((patch + 1))

release_commit=$(git rev-parse "$tip^2")
(
	GIT_DIR=$server
	export GIT_DIR
	export GIT_AUTHOR_NAME="Greg KH" GIT_AUTHOR_EMAIL=gregkh@example.org
	export GIT_COMMITTER_NAME="Greg KH" GIT_COMMITTER_EMAIL=gregkh@example.org
	export GIT_AUTHOR_DATE="2000000000 +0100" GIT_COMMITTER_DATE="2000000000 +0100"
	GIT_INDEX_FILE=$work/index
	export GIT_INDEX_FILE
	git read-tree $release_commit &&
	blob=$(printf '/* stable fix for %s */\n' "$new_release" | git hash-object -w --stdin) &&
	git update-index --add --cacheinfo 100644,$blob,f0.c &&
	fix=$(git commit-tree -p $release_commit -m "backport for $new_release" $(git write-tree)) &&
	git show $release_commit:Makefile | sed "s/^SUBLEVEL = .*/SUBLEVEL = $((patch + 1))/" |
		git hash-object -w --stdin >"$work/makefile" &&
	git update-index --add --cacheinfo 100644,$(cat "$work/makefile"),Makefile &&
	bump=$(git commit-tree -p $fix -m "Linux ${new_release#v}" $(git write-tree)) &&
	git tag -a -m "Linux ${new_release#v}" $new_release $bump &&
	export GIT_AUTHOR_NAME="Rolling Bench" GIT_AUTHOR_EMAIL=bench@example.org
	export GIT_COMMITTER_NAME="Rolling Bench" GIT_COMMITTER_EMAIL=bench@example.org &&
	step=$(printf 'Merge %s\n\nSigned-off-by: Rolling Bench <bench@example.org>\n' $new_release |
		git commit-tree -p $tip -p $bump $bump^{tree}) &&
	git update-ref refs/heads/$BRANCH $step
) || die "cannot make the new step"
new_tip=$(git --git-dir="$server" rev-parse $BRANCH)
git --git-dir="$server" rev-list --objects $new_tip --not $tip $release_commit |
	cut -d' ' -f1 >"$work/new-objects"
git --git-dir="$server" rev-parse refs/tags/$new_release >>"$work/new-objects"
new_objects=$(wc -l <"$work/new-objects")

# --- the consumer, verified up to the step before ----------------------

consumer=$work/consumer
git clone -q --no-checkout "$big" "$consumer" || die "cannot clone"
cd "$consumer" || exit 1
git config gc.auto 0
git remote add stable "file://$server"
git rolling init -q --follow stable/$BRANCH --preset linux || die "init --follow failed"
# The new objects, loose (git fetch unpacks a small pack) or in a pack
# of their own (git rolling fetch keeps the pack it received).
ls .git/objects/pack >"$work/packs"
cat >"$work/reset" <<EOF
cd "$consumer" &&
sed 's|^\(..\)|.git/objects/\1/|' "$work/new-objects" | xargs rm -f &&
ls .git/objects/pack | grep -vxF -f "$work/packs" | sed 's|^|.git/objects/pack/|' | xargs rm -f &&
git update-ref refs/remotes/stable/$BRANCH $tip &&
git update-ref refs/rolling/verified/stable/$BRANCH $tip &&
{ git update-ref -d refs/tags/$new_release 2>/dev/null || :; }
EOF
cat >"$work/rolling-fetch" <<EOF
. "$work/reset" && git rolling fetch -q stable
EOF
cat >"$work/git-fetch" <<EOF
. "$work/reset" &&
git fetch -q --no-tags stable +refs/heads/$BRANCH:refs/remotes/stable/$BRANCH \
	+refs/tags/$new_release:refs/tags/$new_release
EOF
cat >"$work/git-fetch-typed" <<EOF
. "$work/reset" && git fetch -q stable $BRANCH
EOF
cat >"$work/reset-only" <<EOF
. "$work/reset"
EOF

sh "$work/rolling-fetch" || die "git rolling fetch failed"
test "$(git rev-parse refs/rolling/verified/stable/$BRANCH)" = "$new_tip" ||
	die "git rolling fetch did not verify the new step"
git cat-file -e $new_tip || die "the new step was not fetched"
sh "$work/reset" && git cat-file -e $new_tip 2>/dev/null && die "the reset leaves the new step"
sh "$work/git-fetch" || die "git fetch failed"
git rolling verify -q --preset linux --since $tip stable/$BRANCH || die "verify --since failed"

# --- measuring -----------------------------------------------------------

# measure_round_robin NAME... : run sh $work/NAME for each NAME in turn,
# RUNS rounds after one warm-up round, so that a machine whose load
# changes over the minute weighs on all of them alike; sets <NAME>_us
# (the median) and <NAME>_kib (the highest peak RSS) and checks that
# each run exits 0, as measure does.
measure_round_robin () {
	for mr_name
	do
		sh "$work/$mr_name" >/dev/null 2>"$work/stderr"
		measure_check_ $? 0 "$mr_name" "sh $work/$mr_name"
		: >"$work/times.$mr_name"
		: >"$work/peaks.$mr_name"
	done
	mr_i=0
	while test $mr_i -lt "$RUNS"
	do
		for mr_name
		do
			mr_start=$(date +%s%N)
			/usr/bin/time -f %M -o "$work/peak" sh "$work/$mr_name" >/dev/null 2>"$work/stderr"
			mr_rc=$?
			mr_end=$(date +%s%N)
			measure_check_ $mr_rc 0 "$mr_name" "sh $work/$mr_name"
			echo $(((mr_end - mr_start) / 1000)) >>"$work/times.$mr_name"
			tail -n 1 "$work/peak" >>"$work/peaks.$mr_name"
		done
		mr_i=$((mr_i + 1))
	done
	for mr_name
	do
		mr_var=$(echo "$mr_name" | tr -d -)
		eval "${mr_var}_us=$(sort -n "$work/times.$mr_name" | sed -n "$(((RUNS + 1) / 2))p")"
		eval "${mr_var}_kib=$(sort -n "$work/peaks.$mr_name" | tail -n 1)"
	done
}

echo "measuring ($RUNS rounds)" >&2
measure_round_robin reset-only rolling-fetch git-fetch git-fetch-typed
reset_us=$resetonly_us reset_kib=$resetonly_kib
rolling_us=$rollingfetch_us rolling_kib=$rollingfetch_kib
gitfetch_kib=$gitfetch_kib
typed_us=$gitfetchtyped_us typed_kib=$gitfetchtyped_kib
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
row "git fetch stable <branch> (as typed: follows tags)" typed
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
