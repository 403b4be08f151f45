#!/bin/sh

test_description='advance: a branch whose name is a prefix of one checked out elsewhere

rolling and rolling-lts are two rolling branches; the name of the first
is a prefix of the second'"'"'s.  A branch is checked out in a work tree when
its HEAD names exactly that branch (or a rebase or bisection of it is in
progress there), never when it names a longer one: advance moves the
branch that is not checked out and refuses the one that is, whichever of
the two that is, and leaves the work tree of the other alone.  git
branch -f, which refuses to move a branch checked out in another work
tree, is the oracle.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# git_says_checked_out BRANCH: git refuses to force-update BRANCH.
git_says_checked_out () {
	test_must_fail git branch -f "$1" "$1" 2>/dev/null
}

# next_week: reveal one more week of releases.
next_week () {
	week=$(($(cat "$TRASH_DIRECTORY/week") + 1)) &&
	echo $week >"$TRASH_DIRECTORY/week" &&
	stable_tree_replay . $week
}

# moves BRANCH: advance BRANCH makes one rolling merge.
moves () {
	git rev-parse "$1" >"$TRASH_DIRECTORY/before" &&
	git rolling advance -q "$1" &&
	test "$(git rev-parse "$1^1")" = "$(cat "$TRASH_DIRECTORY/before")" &&
	check_rolling_merge "$1" >/dev/null
}

# refused BRANCH: advance BRANCH fails and leaves it where it was.
refused () {
	git rev-parse "$1" >"$TRASH_DIRECTORY/before" &&
	test_expect_code 128 git rolling advance "$1" 2>err &&
	grep "^fatal: .$1. is checked out in another work tree; not moving it$" err &&
	test "$(git rev-parse "$1")" = "$(cat "$TRASH_DIRECTORY/before")"
}

test_expect_success 'setup: rolling and rolling-lts, the main work tree on master' '
	STABLE_MAINLINE="5.19 6.0 6.1 6.2" stable_tree_linux tree &&
	cd tree &&
	echo 11 >../week &&
	stable_tree_replay . 11 &&
	git rolling init -q --preset linux rolling &&
	git rolling init -q --preset linux rolling-lts &&
	test "$(git symbolic-ref HEAD)" = refs/heads/master
'

test_expect_success 'rolling-lts checked out elsewhere: rolling moves, rolling-lts does not' '
	cd tree &&
	git worktree add -q ../lts rolling-lts &&
	git_says_checked_out rolling-lts &&
	! git_says_checked_out rolling &&
	next_week &&
	moves rolling &&
	refused rolling-lts &&
	git -C ../lts status --porcelain >../status &&
	test_must_be_empty ../status &&
	git worktree remove ../lts
'

test_expect_success 'rolling checked out elsewhere: rolling-lts moves, rolling does not' '
	cd tree &&
	git worktree add -q ../short rolling &&
	git_says_checked_out rolling &&
	! git_says_checked_out rolling-lts &&
	next_week &&
	moves rolling-lts &&
	refused rolling &&
	git worktree remove ../short
'

test_expect_success 'a bisection started on rolling-lts elsewhere holds rolling-lts only' '
	cd tree &&
	git worktree add -q --detach ../bisect rolling-lts &&
	git -C ../bisect checkout -q rolling-lts &&
	git -C ../bisect bisect start >/dev/null &&
	git -C ../bisect checkout -q --detach &&
	grep "^rolling-lts$" "$(git -C ../bisect rev-parse --git-dir)/BISECT_START" &&
	git_says_checked_out rolling-lts &&
	! git_says_checked_out rolling &&
	next_week &&
	moves rolling &&
	refused rolling-lts &&
	git -C ../bisect bisect reset >/dev/null 2>&1 &&
	git worktree remove --force ../bisect
'

test_expect_success 'rolling-lts checked out here: advancing rolling leaves the work tree alone' '
	cd tree &&
	git checkout -q rolling-lts &&
	git rev-parse HEAD >../head &&
	cp .git/index ../index.before &&
	next_week &&
	moves rolling &&
	test "$(git symbolic-ref HEAD)" = refs/heads/rolling-lts &&
	test "$(git rev-parse HEAD)" = "$(cat ../head)" &&
	cmp .git/index ../index.before &&
	git status --porcelain --untracked-files=no >../status &&
	test_must_be_empty ../status
'

test_expect_success 'rolling checked out here: advancing rolling-lts leaves the work tree alone' '
	cd tree &&
	git checkout -q rolling &&
	git rev-parse HEAD >../head &&
	cp .git/index ../index.before &&
	next_week &&
	moves rolling-lts &&
	test "$(git symbolic-ref HEAD)" = refs/heads/rolling &&
	test "$(git rev-parse HEAD)" = "$(cat ../head)" &&
	cmp .git/index ../index.before &&
	git status --porcelain --untracked-files=no >../status &&
	test_must_be_empty ../status
'

test_expect_success 'from a linked work tree, the main one on rolling-lts holds rolling-lts only' '
	cd tree &&
	git checkout -q rolling-lts &&
	git worktree add -q --detach ../linked master &&
	cd ../linked &&
	git_says_checked_out rolling-lts &&
	! git_says_checked_out rolling &&
	(cd ../tree && next_week) &&
	moves rolling &&
	refused rolling-lts &&
	cd ../tree &&
	git worktree remove --force ../linked
'

test_done
