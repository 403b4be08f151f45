#!/bin/sh

test_description='a second fetch never sweeps what a living fetch holds

A fetch removes what a dead run left (a quarantine whose owner file no
one holds under flock, a ref journal no one holds under flock, the locks
that journal names), and only that.  Here a second fetch runs while the
first is stopped (the seam, t/helper/seam.c) holding its quarantine,
its ref locks and their journal: the second removes none of them, and
the first completes.  Deterministic: the seam, not timing, puts the
second run in the middle of the first.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

test_expect_success 'setup: a consumer that fetched once, two weeks published since' '
	setup_upstream &&
	publish 12 &&
	consumer_fetched_once &&
	cp -a consumer pristine &&
	publish 13 &&
	publish 14 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH)
'

# complete: the tracking and verified refs at the server's tip, verified,
# nothing left behind.
complete () {
	test "$(git -C consumer rev-parse refs/remotes/origin/$BRANCH)" = $new &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = $new &&
	git -C consumer rolling verify -q refs/rolling/verified/origin/$BRANCH &&
	no_leftovers consumer &&
	! ls consumer/.git/rolling-ref-tx.* 2>/dev/null &&
	git -C consumer fsck --no-progress
}

# second_fetch_at PATTERN [NTH]: a copy of pristine (consumer) fetches,
# and at the NTH (default 1) creation or rename of a file matching
# PATTERN (just after it when $SEAM_AFTER is set) runs a second fetch in the same repository: its exit status in
# second.status, its error output in second.err.  seen lists what of
# the first run a sweep could take (the quarantines and their owner
# files, the ref journals, the file the seam stopped at) before the second fetch, kept what is
# left of it after.  The first run's error output in first.err, its exit
# status in $status.
second_fetch_at () {
	rm -rf consumer seen kept second.status second.err &&
	cp -a pristine consumer &&
	cat >second-fetch <<-EOF &&
	# the second fetch runs once
	test ! -f "$TRASH_DIRECTORY/second.status" || exit 0
	list () {
		ls -d "$TRASH_DIRECTORY"/consumer/.git/objects/rolling-incoming-* \\
			"$TRASH_DIRECTORY"/consumer/.git/objects/rolling-incoming-*/owner \\
			"$TRASH_DIRECTORY"/consumer/.git/rolling-ref-tx.* \\
			"\$GIT_ROLLING_TEST_SEAM_FILE" 2>/dev/null
	}
	list >"$TRASH_DIRECTORY/seen"
	git -C "$TRASH_DIRECTORY/consumer" rolling fetch -q origin \\
		2>"$TRASH_DIRECTORY/second.err"
	echo \$? >"$TRASH_DIRECTORY/second.status"
	list >"$TRASH_DIRECTORY/kept"
	exit 0
	EOF
	{
		env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="$1" \
			GIT_ROLLING_TEST_SEAM_NTH=${2-1} ${SEAM_AFTER:+GIT_ROLLING_TEST_SEAM_AFTER=1} \
			GIT_ROLLING_TEST_BEFORE_UPDATE="sh \"$TRASH_DIRECTORY/second-fetch\"" \
			git -C consumer rolling fetch -q origin 2>first.err
		status=$?
	} &&
	test -f second.status
}

# both_completed: the second fetch took nothing of the first's and
# completed; then the first did, the second having put the tip it
# verified.
both_completed () {
	test_cmp seen kept &&
	test "$(cat second.status)" = 0 &&
	test_must_be_empty second.err &&
	test $status = 0 &&
	grep "^origin/$BRANCH: another process updated it meanwhile to $(echo $new | cut -c1-7)[0-9a-f]*, the tip this fetch verified$" first.err &&
	! grep "^fatal\|^error" first.err &&
	complete
}

# refused_on_locks: the second fetch took nothing of the first's and
# failed on the locks the first holds, naming them as git does; then
# the first completed.
refused_on_locks () {
	test_cmp seen kept &&
	test "$(cat second.status)" = 128 &&
	grep "^\(fatal: \)\?cannot lock ref .refs/rolling/verified/origin/$BRANCH.: Unable to create .*/refs/rolling/verified/origin/$BRANCH.lock.: File exists\.$" second.err &&
	test $status = 0 &&
	! grep "^fatal\|^error" first.err &&
	complete
}

# The first fetch holds its quarantine (its owner file under flock), its
# ref locks and their journal (under flock), and is about to rename the
# verified ref's lock into place: the second finds the locks held and
# fails as git does, naming them; it removes none of them, nor the
# quarantine or the journal.
test_expect_success REFFILES 'a second fetch while the first renames its refs: the first'"'"'s files stay, it completes' '
	second_fetch_at "*/consumer/.git/refs/rolling/verified/*.lock" 2 &&
	grep "/consumer/.git/rolling-ref-tx\.[0-9]*$" seen &&
	grep "/consumer/.git/objects/rolling-incoming-[^/]*/owner$" seen &&
	grep "/refs/rolling/verified/origin/$BRANCH.lock$" seen &&
	refused_on_locks
'

# The first fetch made its quarantine and is about to lock it (no owner
# file yet): a quarantine as new as that is a living run's; the second
# fetch leaves it and completes, and then the first completes too, the
# second having put the tip it verified.
test_expect_success 'a second fetch while the first makes its quarantine: left alone, both complete' '
	second_fetch_at "*/consumer/.git/objects/rolling-incoming-*/owner.draft-*" &&
	test_line_count = 1 seen &&
	grep "/consumer/.git/objects/rolling-incoming-[^/]*$" seen &&
	both_completed
'

# The first fetch holds its ref locks and has just created their
# journal, not yet under its flock: a draft then (lib/owner-file.h),
# which the second fetch leaves, failing on the locks as git does; then
# the first completes.
test_expect_success REFFILES 'a second fetch while the first creates its ref journal: left alone, the first completes' '
	SEAM_AFTER=1 second_fetch_at "*/consumer/.git/rolling-ref-tx.*" &&
	grep "/consumer/.git/rolling-ref-tx\.[0-9]*\.draft-[0-9a-f]*$" seen &&
	refused_on_locks
'

# The first fetch holds its quarantine, locked, where git fetch is about
# to write: the second fetch leaves it and completes, and so does the
# first.
test_expect_success 'a second fetch while the first fetches into its quarantine: left alone, both complete' '
	second_fetch_at "*/consumer/.git/objects/rolling-incoming-*/view/config" &&
	grep "/consumer/.git/objects/rolling-incoming-[^/]*$" seen &&
	grep "/consumer/.git/objects/rolling-incoming-[^/]*/owner$" seen &&
	both_completed
'

test_done
