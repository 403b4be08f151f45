#!/bin/sh
# p8000-push-log.sh - git rolling verify --push-log on a kernel.org-scale
# push log (lib-push-log-archive.sh: 200,000 records in four epochs, 1%
# for the followed repository, its linux-rolling-stable pushes a signed
# chain over the kernel-scale repository's rolling branch).  Prints
# medians over PERF_RUNS runs (default 5, after one warm-up run), the
# peak RSS (GNU time's %M), and PASS or MISS against the targets of the
# push-log issue:
#
#   the first check (no state: the whole log read) at most 2 s more
#       than verify without the push log (its epochs walked on one
#       thread per processor; the figure on one thread is printed too)
#   a weekly check (the state of the first check, 100 new records, one
#       of them the new tip's push) at most 0.1 s more
#   memory bounded: the first check's peak RSS on 200,000 records at
#       most 1.5 times its peak on the first epoch alone (50,000
#       records); proportional would be 4
#
# The log is read through $work/log, whose `git` is a symbolic link to
# the archive's: the state verify remembers is keyed by the log's path,
# so the weekly check finds the first check's state when the link is
# moved to the archive a week later, as a fetch of the published log
# would move the clone's epochs.  Each timed run starts from the state
# it measures (none, or the first check's), put back by a small script
# whose cost (one git update-ref) is in the figure.
#
# Informational only: a MISS does not fail; only a broken setup does.

PERF_DIR=$(cd "$(dirname "$0")" && pwd -P)
BUILD_DIR=$(cd "$PERF_DIR/../.." && pwd -P)
. "$PERF_DIR/lib-kernel-scale.sh"
. "$PERF_DIR/lib-measure.sh"
. "$PERF_DIR/lib-push-log-archive.sh"

RUNS=${PERF_RUNS:-5}
TARGET_FIRST_S=2
TARGET_WEEKLY_S=0.1
TARGET_RSS_RATIO=1.5

perf_setup p8000

base=$(push_log_archive "$repo") || die "cannot generate the push log"
weekly=$(push_log_archive_weekly "$repo") || die "cannot generate the weekly push log"
. "$base/bench-info"

log=$work/log
small=$work/log-small
mkdir "$log" "$small" "$small/git" || die "cannot make $log"
ln -s "$base/git" "$log/git" || die "cannot link $log/git"
ln -s "$base/git/0.git" "$small/git/0.git" || die "cannot link $small/git/0.git"

# What every check runs: the repository's own rolling branch is not
# configured here, so the repository and ref are named.
pl_opts="--push-log-repo=$PUSH_LOG_BENCH_REPO --push-log-ref=$PUSH_LOG_BENCH_REF"
# The pushers' key, for this script's gits alone: the cached repository's
# own gpg.ssh.allowedSignersFile (its release tags' key, which p3000
# verifies) is left as it is.
GIT_CONFIG_COUNT=1
GIT_CONFIG_KEY_0=gpg.ssh.allowedSignersFile
GIT_CONFIG_VALUE_0=$PUSH_LOG_BENCH_ALLOWED_SIGNERS
export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0
trap 'rm -rf "$work"' EXIT

# forget: no push log state, as before a first check.
cat >"$work/forget" <<-EOF
	git for-each-ref --format='delete %(refname)' refs/rolling/push-log/ | git update-ref --stdin
EOF

# check LOG TIP: the check measured, from the state the caller left.
cat >"$work/first" <<-EOF
	sh "$work/forget" && exec git rolling verify -q --push-log="\$1" $pl_opts "\$2"
EOF

# --- what is measured, checked once ------------------------------------

first_tip=$PUSH_LOG_BENCH_FIRST_TIP weekly_tip=$PUSH_LOG_BENCH_WEEKLY_TIP
sh "$work/first" "$log" "$first_tip" || die "the first check does not accept $first_tip"
git rolling verify --json --push-log="$log" $pl_opts "$first_tip" >"$work/first.json" ||
	die "the second check does not accept $first_tip"
records=$(sed -n 's/.*"records_read": *\([0-9]*\).*/\1/p' "$work/first.json")
test "$records" = 0 || die "the second check read $records records, not 0"
state=$(git for-each-ref --format='%(refname) %(objectname)' refs/rolling/push-log/)
test -n "$state" || die "the first check remembered nothing"
test "$(echo "$state" | wc -l)" = 1 || die "more than one push log state: $state"

# The weekly log: the same path, a week later.
rm "$log/git" && ln -s "$weekly/git" "$log/git" || die "cannot link $log/git"
cat >"$work/weekly" <<-EOF
	git update-ref $state && exec git rolling verify -q --push-log="$log" $pl_opts "\$1"
EOF
git update-ref $state
git rolling verify --json --push-log="$log" $pl_opts "$weekly_tip" >"$work/weekly.json" ||
	die "the weekly check does not accept $weekly_tip"
records=$(sed -n 's/.*"records_read": *\([0-9]*\).*/\1/p' "$work/weekly.json")
test "$records" = "${PERF_PUSH_LOG_WEEKLY}" ||
	die "the weekly check read $records records, not $PERF_PUSH_LOG_WEEKLY"
grep '"checked_from": *"'"$first_tip"'"' "$work/weekly.json" >/dev/null ||
	die "the weekly check did not check the chain from $first_tip"

# --- measuring -----------------------------------------------------------

echo "measuring ($RUNS runs each)" >&2
measure plain git rolling verify -q "$weekly_tip"
rm "$log/git" && ln -s "$base/git" "$log/git" || die "cannot link $log/git"
measure first sh "$work/first" "$log" "$first_tip"
# The epochs are walked on one thread per processor: the same on one.
GIT_ROLLING_TEST_PUSH_LOG_THREADS=1
export GIT_ROLLING_TEST_PUSH_LOG_THREADS
measure first1 sh "$work/first" "$log" "$first_tip"
unset GIT_ROLLING_TEST_PUSH_LOG_THREADS
# The first epoch holds no push of the tip: the check fails, as it should.
measure small:1 sh "$work/first" "$small" "$first_tip"
rm "$log/git" && ln -s "$weekly/git" "$log/git" || die "cannot link $log/git"
measure weekly sh "$work/weekly" "$weekly_tip"
sh "$work/forget"

# --- the report ----------------------------------------------------------

row () {
	eval "r_us=\$${2}_us r_kib=\$${2}_kib"
	awk -v label="$1" -v a="$r_us" -v b="$r_kib" 'BEGIN {
		printf "%-44s %9.3f s %8.1f MiB\n", label, a / 1e6, b / 1024 }'
}

# verdict LABEL VALUE OP TARGET UNIT
verdict () {
	awk -v label="$1" -v x="$2" -v op="$3" -v t="$4" -v unit="$5" 'BEGIN {
		ok = op == "<=" ? x <= t : x >= t
		printf "%-44s %9.3f%-2s %s   (target %s %s%s)\n", label, x, unit,
			ok ? "PASS" : "MISS", op, t, unit }'
}

echo
echo "p8000-push-log: $PERF_PUSH_LOG_RECORDS records ($PERF_PUSH_LOG_SHARE% for" \
	"$PUSH_LOG_BENCH_REPO, $PUSH_LOG_BENCH_CHAIN pushes of linux-rolling-stable)," \
	"a week later $PERF_PUSH_LOG_WEEKLY more"
echo "medians of $RUNS runs, peak RSS the highest"
echo
row "verify (no push log)" plain
row "first check: verify --push-log, no state" first
row "first check, the epochs on one thread" first1
row "first check, the first epoch alone" small
row "weekly check: verify --push-log, 100 new" weekly
echo
verdict "first check - verify" \
	"$(awk -v a="$first_us" -v b="$plain_us" 'BEGIN { printf "%.4f", (a - b) / 1e6 }')" \
	"<=" $TARGET_FIRST_S s
verdict "weekly check - verify" \
	"$(awk -v a="$weekly_us" -v b="$plain_us" 'BEGIN { printf "%.4f", (a - b) / 1e6 }')" \
	"<=" $TARGET_WEEKLY_S s
verdict "peak RSS: whole log / first epoch" "$(ratio "$first_kib" "$small_kib")" \
	"<=" $TARGET_RSS_RATIO x
