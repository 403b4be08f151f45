#!/bin/sh

test_description='git rolling fetch killed with kill -9

A fetch killed after the server'"'"'s objects reached the quarantine, or
after they were moved into the object store but before the refs moved,
leaves every ref at its old value; the next fetch removes what the dead
one left and completes.  A quarantine of a fetch still running is not
touched.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

snapshot () {
	git -C consumer for-each-ref --format="%(objectname) %(refname)" >"$1"
}

test_expect_success 'setup: a consumer that fetched once' '
	setup_upstream &&
	publish 12 &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH &&
	git -C consumer rolling fetch -q origin
'

test_expect_success 'killed with the objects in the quarantine: refs untouched, objects unseen' '
	publish 13 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	snapshot before &&
	test_expect_code 137 env GIT_ROLLING_TEST_AFTER_TRANSFER="kill -9 \$PPID" \
		git -C consumer rolling fetch -q origin &&
	snapshot after &&
	test_cmp before after &&
	ls -d consumer/.git/objects/rolling-incoming-* >left &&
	test_line_count = 1 left &&
	find "$(cat left)" -type f ! -name owner >files &&
	test_line_count -gt 0 files &&
	test_must_fail git -C consumer cat-file -e $new &&
	GIT_ALTERNATE_OBJECT_DIRECTORIES="$TRASH_DIRECTORY/$(cat left)" \
		git -C consumer cat-file -e $new
'

test_expect_success 'the next fetch removes the dead quarantine and completes' '
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: verified$" out &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	test "$(git -C consumer rev-parse refs/remotes/origin/$BRANCH)" = "$new" &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null &&
	git -C consumer fsck --no-progress
'

test_expect_success 'killed after the objects moved in, before the refs did' '
	publish 14 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	snapshot before &&
	test_expect_code 137 env GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$PPID" \
		git -C consumer rolling fetch -q origin &&
	snapshot after &&
	test_cmp before after &&
	git -C consumer rev-list --all --objects >reachable &&
	! grep "^$new" reachable &&
	! ls consumer/.git/refs/remotes/origin/*.lock consumer/.git/refs/rolling/verified/origin/*.lock 2>/dev/null &&
	git -C consumer rolling fetch -q origin &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

# start_held_fetch: a fetch that stops after its transfer until "held"
# is written to; its process id goes to held.pid.
start_held_fetch () {
	mkfifo held &&
	(
		GIT_ROLLING_TEST_AFTER_TRANSFER="cat \"$TRASH_DIRECTORY/held\" >/dev/null" &&
		export GIT_ROLLING_TEST_AFTER_TRANSFER &&
		exec git -C consumer rolling fetch -q origin >held.out 2>&1
	) &
	echo $! >held.pid
}

wait_for_quarantine () {
	wq_tries=0 &&
	while ! ls -d consumer/.git/objects/rolling-incoming-*/pack >/dev/null 2>&1
	do
		test $wq_tries -lt 300 || return 1
		sleep 0.1
		wq_tries=$((wq_tries + 1))
	done
}

test_expect_success 'the quarantine of a fetch still running is left alone' '
	publish 15 &&
	new=$(git --git-dir=server.git rev-parse $BRANCH) &&
	start_held_fetch &&
	wait_for_quarantine &&
	ls -d consumer/.git/objects/rolling-incoming-* >held.dir &&
	git -C consumer rolling fetch -q origin &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	test_path_is_dir "$(cat held.dir)" &&
	echo go >held &&
	wait $(cat held.pid) &&
	grep "^origin/$BRANCH: another process updated it meanwhile to $(echo $new | cut -c1-7).*, the tip this fetch verified$" held.out &&
	! grep "^fatal\|^error" held.out &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$new" &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

test_done
