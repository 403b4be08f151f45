#!/bin/sh
# p2100-advance-worktree.sh - advance of a checked-out rolling branch on a
# large work tree, side by side with `git merge --ff-only` to the same
# commit.  The tree has PERF_FILES files (default 80,000) in 400
# directories; each release changes PERF_CHANGED of them (default 3,000).
# Prints the medians over PERF_RUNS runs (default 11) and the ratio, with
# PASS or MISS against the target:
#
#   advance within 1.1 times git merge --ff-only
#
# Every run starts from the same state (branch, index and files at the
# first release, the index refreshed); the two commands alternate, so
# that both meet the same caches.  Informational only: a MISS does not
# fail.

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
. "$PERF_DIR/lib-measure.sh"

RUNS=${PERF_RUNS:-11}
FILES=${PERF_FILES:-80000}
CHANGED=${PERF_CHANGED:-3000}
TARGET_RATIO=1.1
perf_name=p2100

for var in $(env | sed -n 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p')
do
	unset "$var"
done
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
PATH=$BUILD_DIR:$PATH
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL LC_ALL PATH
test -x "$BUILD_DIR/git-rolling-advance" || die "build git-rolling first (make)"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# The history: v6.0 with FILES files, then v6.0.1 and v6.0.2, each
# changing CHANGED files spread over the tree; one fast-import stream.
history () {
	awk -v files="$FILES" -v changed="$CHANGED" 'BEGIN {
		when = 1700000000
		for (r = 0; r <= 2; r++) {
			name = r ? "v6.0." r : "v6.0"
			print "commit refs/heads/master"
			print "mark :" (r + 1)
			print "committer Perf <perf@example.org> " (when + r * 86400) " +0000"
			msg = "Linux " substr(name, 2)
			print "data " length(msg); print msg
			if (r) print "from :" r
			step = int(files / changed)
			for (i = 0; i < files; i++) {
				if (r && (i % step || i / step >= changed))
					continue
				content = "file " i " release " r "\n"
				printf "M 100644 inline d%03d/f%05d.c\n", i % 400, i
				print "data " length(content)
				printf "%s", content
			}
			print ""
			print "tag " name
			print "from :" (r + 1)
			print "tagger Perf <perf@example.org> " (when + r * 86400) " +0000"
			print "data " length(msg); print msg
		}
	}'
}

repo=$work/repo
git init -q -b master "$repo" && cd "$repo" || die "cannot make the repository"
git config user.name "Rolling Bench" && git config user.email bench@example.org
echo "generating $FILES files, $CHANGED changed per release" >&2
history | git fast-import --quiet || die "fast-import failed"
git rolling init -q --preset linux --at v6.0.1 rolling || die "init failed"
git checkout -q rolling || die "checkout failed"
start=$(git rev-parse HEAD)
git rolling advance -q rolling || die "advance failed"
target=$(git rev-parse HEAD)
test "$(git diff --name-only $start $target | wc -l)" = "$CHANGED" ||
	die "a step should change $CHANGED files"

# back to the start: branch, index and files, the index refreshed
reset_start () {
	git reset -q --hard "$start" && git update-index -q --refresh
}

echo "measuring ($RUNS runs each)" >&2
: >"$work/advance" && : >"$work/merge"
i=0
while test $i -le "$RUNS"
do
	reset_start || die "reset failed"
	t0=$(date +%s%N)
	git rolling advance -q rolling || die "advance failed"
	t1=$(date +%s%N)
	test "$(git rev-parse HEAD)" = "$target" || die "advance made another commit"
	reset_start || die "reset failed"
	t2=$(date +%s%N)
	git merge -q --ff-only "$target" || die "merge failed"
	t3=$(date +%s%N)
	# the first round is a warm-up
	if test $i -gt 0
	then
		echo $(((t1 - t0) / 1000)) >>"$work/advance"
		echo $(((t3 - t2) / 1000)) >>"$work/merge"
	fi
	i=$((i + 1))
done
median () {
	sort -n "$1" | sed -n "$(((RUNS + 1) / 2))p"
}
advance_us=$(median "$work/advance")
merge_us=$(median "$work/merge")
r=$(ratio "$advance_us" "$merge_us")
verdict=$(awk -v r="$r" -v t="$TARGET_RATIO" 'BEGIN { print (r <= t) ? "PASS" : "MISS" }')

echo
echo "p2100-advance-worktree: $FILES files, $CHANGED changed by the step"
printf '  %-28s %8.3f s\n' "git rolling advance" "$(awk -v u="$advance_us" 'BEGIN { print u / 1e6 }')"
printf '  %-28s %8.3f s\n' "git merge --ff-only" "$(awk -v u="$merge_us" 'BEGIN { print u / 1e6 }')"
printf '  ratio %s (target <= %s) %s\n' "$r" "$TARGET_RATIO" "$verdict"
