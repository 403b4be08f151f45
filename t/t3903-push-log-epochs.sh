#!/bin/sh

test_description='verify --push-log on a log of several epochs: one answer, however read

A log of a whole server has many epochs (public-inbox v2: git/0.git,
git/1.git, ...), and verify walks them on one thread per processor.  The
answer must not depend on how many: the same report, the same records
read, the same state remembered, and when two epochs are bad, the first
in the log'"'"'s order is the one named, and nothing is remembered.  The
log'"'"'s objects are read straight from its packs and loose objects;
those a record rests on must hash to their ids.

The log is the one p8000 benchmarks (t/perf/lib-push-log-archive.sh, at
a small size: 600 records in three epochs over a real rolling branch,
every push of the branch signed with an SSH key).
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-push-log.sh
. "$TEST_DIRECTORY"/perf/lib-push-log-archive.sh

PERF_PUSH_LOG_RECORDS=600
PERF_PUSH_LOG_SHARE=2
PERF_PUSH_LOG_EPOCH_RECORDS=250
PERF_PUSH_LOG_WEEKLY=20

# check LOG THREADS [OPTION...]: verify the first tip against LOG with
# THREADS walking it, from no state; the report in out.THREADS, the
# errors in err.THREADS, the JSON in json.THREADS, what is remembered
# in state.THREADS.  Exit status that of verify.
check () {
	ck_log=$1 ck_threads=$2 &&
	shift 2 &&
	forget &&
	ck_rc=0 &&
	GIT_ROLLING_TEST_PUSH_LOG_THREADS=$ck_threads \
	git -C tree rolling verify --push-log="$ck_log" --push-log-repo="$PUSH_LOG_BENCH_REPO" \
		--push-log-ref="$PUSH_LOG_BENCH_REF" "$@" "$PUSH_LOG_BENCH_FIRST_TIP" \
		>out.$ck_threads 2>err.$ck_threads || ck_rc=$? &&
	remembered >state.$ck_threads &&
	forget &&
	GIT_ROLLING_TEST_PUSH_LOG_THREADS=$ck_threads \
	git -C tree rolling verify --json --push-log="$ck_log" \
		--push-log-repo="$PUSH_LOG_BENCH_REPO" --push-log-ref="$PUSH_LOG_BENCH_REF" \
		"$@" "$PUSH_LOG_BENCH_FIRST_TIP" >json.$ck_threads 2>/dev/null || : &&
	return $ck_rc
}

forget () {
	git -C tree for-each-ref --format="delete %(refname)" refs/rolling/push-log/ |
	git -C tree update-ref --stdin
}

# remembered: the state verify keeps, what it says (not its object ids).
remembered () {
	for rm_ref in $(git -C tree for-each-ref --format="%(refname)" refs/rolling/push-log/)
	do
		git -C tree cat-file blob "$rm_ref" || return 1
	done
}

# same_for_all TEST-COMMAND...: the outputs of check for 1 thread equal
# those for 2, 3 and 8.
same_for_all () {
	for n in 2 3 8
	do
		test_cmp out.1 out.$n &&
		test_cmp err.1 err.$n &&
		test_cmp json.1 json.$n &&
		test_cmp state.1 state.$n || return 1
	done
}

# followed ARCHIVE: "<epoch-dir> <commit>" of the newest record of the
# followed repository (its subject names it).
followed () {
	push_log_records "$1" >records &&
	tac records | while read -r fo_dir fo_commit
	do
		if git --git-dir="$fo_dir" log -1 --format=%s "$fo_commit" |
			grep -F "$PUSH_LOG_BENCH_REPO" >/dev/null
		then
			echo "$fo_dir $fo_commit" &&
			break
		fi
	done
}

# bad NAME EPOCH SED-SCRIPT: the newest record of the followed ref,
# spoiled by SED-SCRIPT, appended to epoch EPOCH of the copy of the log
# in NAME.
bad () {
	set -- "$@" $(followed "$1") &&
	git --git-dir="$4" cat-file blob "$5:m" >newest.eml &&
	grep "^Subject: post-receive: $PUSH_LOG_BENCH_REPO$" newest.eml &&
	sed -e "$3" newest.eml >"$1.eml" &&
	! cmp -s newest.eml "$1.eml" &&
	PUSH_LOG_EPOCH=$2 push_log_append "$1" "$1.eml" >/dev/null
}

test_expect_success 'setup: a rolling branch and a log of 600 pushes in three epochs' '
	push_log_small_tree tree &&
	archive=$(push_log_archive "$TRASH_DIRECTORY/tree") &&
	. "$archive/bench-info" &&
	push_log_epochs "$archive" >epochs &&
	test_line_count = 3 epochs &&
	git -C tree config gpg.ssh.allowedSignersFile "$PUSH_LOG_BENCH_ALLOWED_SIGNERS"
'

test_expect_success 'one thread or many: the same report, records read and state' '
	for n in 1 2 3 8
	do
		check "$archive" $n || return 1
	done &&
	grep "published by" out.1 &&
	grep "\"records_read\": *600" json.1 &&
	test -s state.1 &&
	test_must_be_empty err.1 &&
	same_for_all
'

test_expect_success 'two bad epochs: the first in the log'"'"'s order is named, for any count' '
	rm -rf two-bad && cp -R "$archive" two-bad &&
	bad two-bad 0 "s/^repo: /repo:	/" &&
	bad two-bad 2 "\$d" &&
	for n in 1 2 3 8
	do
		test_expect_code 1 check "$TRASH_DIRECTORY/two-bad" $n || return 1
	done &&
	grep "push log: record: push log 0.git: record [0-9a-f]\{12\}: YAML: tab character refused$" err.1 &&
	test $(grep -c "^error: " err.1) = 1 &&
	! grep "2\.git" err.1 &&
	test_must_be_empty state.1 &&
	same_for_all
'

test_expect_success 'a bad epoch after a good one: the good one read, nothing remembered' '
	rm -rf last-bad && cp -R "$archive" last-bad &&
	bad last-bad 2 "\$d" &&
	for n in 1 2 3 8
	do
		test_expect_code 1 check "$TRASH_DIRECTORY/last-bad" $n || return 1
	done &&
	grep "push log 2.git: record [0-9a-f]\{12\}: " err.1 &&
	test_must_be_empty state.1 &&
	same_for_all
'

test_expect_success 'a rewritten epoch before a bad one: the rewrite is named' '
	rm -rf rewritten && cp -R "$archive" rewritten &&
	forget &&
	git -C tree rolling verify -q --push-log="$TRASH_DIRECTORY/rewritten" \
		--push-log-repo="$PUSH_LOG_BENCH_REPO" --push-log-ref="$PUSH_LOG_BENCH_REF" \
		"$PUSH_LOG_BENCH_FIRST_TIP" &&
	state=$(git -C tree for-each-ref --format="%(refname) %(objectname)" refs/rolling/push-log/) &&
	test -n "$state" &&
	epoch1=rewritten/git/1.git &&
	head=$(git --git-dir=$epoch1 rev-parse master) &&
	orphan=$(git --git-dir=$epoch1 commit-tree -m rewritten "$head^{tree}") &&
	git --git-dir=$epoch1 update-ref refs/heads/master "$orphan" &&
	bad rewritten 2 "\$d" &&
	for n in 1 2 8
	do
		git -C tree update-ref $state &&
		test_expect_code 1 env GIT_ROLLING_TEST_PUSH_LOG_THREADS=$n \
			git -C tree rolling verify --push-log="$TRASH_DIRECTORY/rewritten" \
			--push-log-repo="$PUSH_LOG_BENCH_REPO" --push-log-ref="$PUSH_LOG_BENCH_REF" \
			"$PUSH_LOG_BENCH_FIRST_TIP" >out.$n 2>err.$n || return 1
	done &&
	grep "push log: grows: the push log was rewritten since .*: 1.git no longer holds" err.1 &&
	test $(grep -c "^error: " err.1) = 1 &&
	test_cmp err.1 err.2 &&
	test_cmp err.1 err.8
'

# loose EPOCH-DIR: every object of the epoch loose, its packs gone.
loose () {
	mkdir -p packs &&
	for lo_pack in "$1"/objects/pack/*.pack
	do
		mv "$lo_pack" packs/ &&
		rm -f "${lo_pack%.pack}.idx" "${lo_pack%.pack}.rev" &&
		git --git-dir="$1" unpack-objects -q <"packs/${lo_pack##*/}" || return 1
	done &&
	rm -rf packs &&
	test -z "$(ls "$1"/objects/pack/)"
}

test_expect_success 'an epoch of loose objects reads as its pack did' '
	rm -rf loose && cp -R "$archive" loose &&
	loose loose/git/2.git &&
	check "$TRASH_DIRECTORY/loose" 2 &&
	grep "published by" out.2 &&
	grep "\"records_read\": *600" json.2
'

test_expect_success PYTHON3 'a record whose objects no longer hash to their ids is refused' '
	rm -rf changed && cp -R "$archive" changed &&
	loose changed/git/2.git &&
	# The newest record of the followed ref, its bytes changed in place
	# under its own id: a loose object rewritten on disk.
	followed changed >newest &&
	read dir commit <newest &&
	test "$dir" = changed/git/2.git &&
	blob=$(git --git-dir="$dir" rev-parse "$commit:m") &&
	git --git-dir="$dir" cat-file blob "$blob" >record &&
	sed "s/^user: .*/user: mallory/" record >changed-record &&
	! cmp record changed-record &&
	path=$dir/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-) &&
	test -f "$path" &&
	chmod u+w "$path" &&
	test_python3 - "$path" changed-record <<-\EOF &&
	import sys, zlib
	data = open(sys.argv[2], "rb").read()
	obj = b"blob %d\0" % len(data) + data
	open(sys.argv[1], "wb").write(zlib.compress(obj))
	EOF
	test_expect_code 1 check "$TRASH_DIRECTORY/changed" 2 &&
	grep "push log 2.git: $blob does not hash to its id: the log.s objects were changed on disk" err.2 &&
	test_must_be_empty state.2
'

test_done
