#!/bin/sh

test_description='git rolling pull: fetch, verify, then fast-forward the branch checked out

A second clone of the server tracks the rolling branch; git rolling pull
verifies what is new and fast-forwards the checked-out branch and its
work tree, as git pull --ff-only would; what fails verification moves
nothing, and what cannot fast-forward is refused.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh

BRANCH=linux-rolling-stable

server_tip () {
	git --git-dir=server.git rev-parse "refs/heads/$BRANCH"
}

test_expect_success 'setup: a server and a clone tracking its rolling branch' '
	setup_upstream &&
	publish 13 &&
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" reader &&
	git -C reader rolling init -q --follow origin/$BRANCH
'

test_expect_success 'the first pull verifies all; the branch is already there' '
	git -C reader rolling pull >out &&
	grep "^origin/$BRANCH: verified$" out &&
	grep "^Already up to date.$" out &&
	test "$(git -C reader rev-parse refs/rolling/verified/origin/$BRANCH)" = "$(server_tip)"
'

test_expect_success 'pull fast-forwards the branch checked out and its work tree, week by week' '
	for week in 14 15 16
	do
		old=$(git -C reader rev-parse HEAD) &&
		publish $week &&
		new=$(server_tip) &&
		git -C reader rolling pull >out &&
		grep "^Updating $(echo $old | cut -c1-7)..$(echo $new | cut -c1-7)$" out &&
		grep "^Fast-forward$" out &&
		test "$(git -C reader rev-parse HEAD)" = "$new" &&
		test "$(git -C reader symbolic-ref HEAD)" = refs/heads/$BRANCH &&
		git -C reader status --porcelain >status &&
		test_must_be_empty status &&
		git -C reader show $new:Makefile >expect &&
		test_cmp expect reader/Makefile || return 1
	done &&
	git -C reader reflog show --format=%gs -1 $BRANCH >reflog &&
	echo "rolling pull: Fast-forward" >expect &&
	test_cmp expect reflog
'

test_expect_success 'a pull whose fetch fails verification moves nothing' '
	good=$(server_tip) &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $good" &&
	injected=$(git --git-dir=server.git commit-tree -p $good -m "Add a backdoor" $good^{tree}) &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $injected &&
	git -C reader for-each-ref >before &&
	test_expect_code 1 git -C reader rolling pull >out 2>err &&
	grep "^error: origin/$BRANCH: $injected: injected: " err &&
	! grep "^Updating" out &&
	git -C reader for-each-ref >after &&
	test_cmp before after &&
	test "$(git -C reader rev-parse HEAD)" = "$good" &&
	test_must_fail git -C reader cat-file -e $injected
'

test_expect_success 'local changes the step would overwrite: nothing is moved' '
	publish 17 &&
	new=$(server_tip) &&
	old=$(git -C reader rev-parse HEAD) &&
	! git --git-dir=server.git diff --quiet $old $new -- Makefile &&
	echo "# my change" >>reader/Makefile &&
	cp reader/Makefile mine &&
	test_expect_code 128 git -C reader rolling pull >out 2>err &&
	grep "^	Makefile$" err &&
	test "$(git -C reader rev-parse HEAD)" = "$old" &&
	test_cmp mine reader/Makefile &&
	git -C reader checkout -q -- Makefile &&
	git -C reader rolling pull -q &&
	test "$(git -C reader rev-parse HEAD)" = "$new"
'

test_expect_success 'a branch with commits of its own cannot fast-forward' '
	git -C reader checkout -q -b mine &&
	test_commit -C reader local &&
	git -C reader branch --set-upstream-to=origin/$BRANCH mine &&
	publish 18 &&
	head=$(git -C reader rev-parse HEAD) &&
	test_expect_code 128 git -C reader rolling pull 2>err &&
	grep "^fatal: Not possible to fast-forward, aborting.$" err &&
	test "$(git -C reader rev-parse HEAD)" = "$head" &&
	test "$(git -C reader rev-parse refs/rolling/verified/origin/$BRANCH)" = "$(server_tip)"
'

test_expect_success 'pull <remote> <branch> on a branch without upstream; no branch at all' '
	git -C reader checkout -q -b plain $BRANCH &&
	git -C reader rolling pull origin $BRANCH >out &&
	test "$(git -C reader rev-parse HEAD)" = "$(server_tip)" &&
	git -C reader checkout -q -b lost $BRANCH~1 &&
	test_expect_code 128 git -C reader rolling pull 2>err &&
	grep "^fatal: There is no tracking information for the current branch" err &&
	git -C reader checkout -q --detach &&
	test_expect_code 128 git -C reader rolling pull origin $BRANCH 2>err &&
	grep "^fatal: You are not currently on a branch" err &&
	test_expect_code 129 git -C reader rolling pull a b c 2>err &&
	grep "^usage: git rolling pull" err
'

# Killed after the branch moved, before the index was committed: the
# intent file and index.lock are left, and the next pull finishes the
# run first, as advance does, before it fetches.
test_expect_success 'a pull killed after its branch moved is finished by the next pull' '
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" killed &&
	git -C killed rolling init -q --follow origin/$BRANCH &&
	git -C killed rolling pull -q &&
	publish 19 &&
	new=$(server_tip) &&
	# the fetch, which pull runs, has the seam too: only pull is killed
	test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/.git/index.lock" \
		GIT_ROLLING_TEST_SEAM_NTH=2 \
		GIT_ROLLING_TEST_BEFORE_UPDATE="if test \$PPID = \$GIT_ROLLING_PID; then kill -9 \$PPID; fi" \
		git -C killed rolling pull -q &&
	test "$(git -C killed rev-parse HEAD)" = "$new" &&
	test_path_is_file killed/.git/ROLLING_ADVANCE &&
	test_path_is_file killed/.git/index.lock &&
	git -C killed rolling pull >out &&
	grep "^Already up to date.$" out &&
	test_path_is_missing killed/.git/ROLLING_ADVANCE &&
	test_path_is_missing killed/.git/index.lock &&
	test "$(git -C killed rev-parse HEAD)" = "$new" &&
	git -C killed status --porcelain >status &&
	test_must_be_empty status &&
	git -C killed diff --quiet HEAD
'

# kill_pull_at K: a copy of pristine (killed-k) pulls, killed with kill
# -9 just before the Kth file that pull, or the fetch or a git it runs,
# creates, appends to or renames in its git directory outside objects/
# (t7001 kills a fetch in its quarantine and its move; each process
# counts its own: the Kth of each; the first to reach it kills them all,
# the process group of a session of their own, as a power cut would).
# Its exit status goes to $status.
kill_pull_at () {
	rm -rf killed-k &&
	cp -a pristine killed-k &&
	{
		env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/killed-k/.git/[!o]*" \
			GIT_ROLLING_TEST_SEAM_NTH=$1 \
			GIT_ROLLING_TEST_BEFORE_UPDATE="$(test_kill_group_command)" \
			setsid -w git -C killed-k rolling pull -q 2>kill.err
		status=$?
	} &&
	test_wait_group_gone
}

# next_pull: the next pull completes, or refuses naming the lock files
# a killed fetch took before it could write them down (rerun_finishes,
# lib-fetch.sh).  A quarantine left without its owner file (killed
# between mkdtemp() and the owner'"'"'s creation) is removed once it is a
# minute old: made old.
next_pull () {
	for dir in killed-k/.git/objects/rolling-incoming-*
	do
		test -e "$dir/owner" || test ! -d "$dir" || touch -d "2 minutes ago" "$dir" || return 1
	done &&
	rerun_finishes killed-k pull -q
}

pulled () {
	test "$(git -C killed-k rev-parse HEAD)" = $new &&
	test "$(git -C killed-k symbolic-ref HEAD)" = refs/heads/$BRANCH &&
	test "$(git -C killed-k rev-parse refs/rolling/verified/origin/$BRANCH)" = $new &&
	git -C killed-k status --porcelain >status &&
	test_must_be_empty status &&
	git -C killed-k rolling verify -q refs/rolling/verified/origin/$BRANCH &&
	for ref in HEAD refs/heads/$BRANCH refs/rolling/verified/origin/$BRANCH
	do
		test "$(tail -n 1 killed-k/.git/logs/$ref | cut -d" " -f2)" = $new || return 1
	done &&
	find killed-k/.git -name "*.lock" -o -name "rolling-ref-tx.*" -o -name "ROLLING_ADVANCE*" >left &&
	test_must_be_empty left &&
	! ls -d killed-k/.git/objects/rolling-incoming-* 2>/dev/null &&
	git -C killed-k fsck --no-progress
}

test_expect_success REFFILES "killed at $TEST_POINTS file it writes: the next pull finishes it" '
	rm -rf pristine &&
	git clone -q --no-tags -b $BRANCH "file://$TRASH_DIRECTORY/server.git" pristine &&
	git -C pristine rolling init -q --follow origin/$BRANCH &&
	git -C pristine rolling pull -q &&
	publish 20 &&
	new=$(server_tip) &&
	k=1 &&
	while kill_pull_at $k && test $status = 137
	do
		echo "killed at $k" >>kills &&
		next_pull &&
		pulled || { echo "not pulled after a kill at $k" && cat kill.err next.err && return 1; }
		k=$((k + TEST_POINT_STEP))
	done &&
	test $status = 0 &&
	pulled &&
	test_line_count -ge $((10 / TEST_POINT_STEP)) kills
'

test_done
