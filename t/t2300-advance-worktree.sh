#!/bin/sh

test_description='advance of a checked-out rolling branch

The work tree and index follow the branch as git merge --ff-only would;
local changes that would be overwritten stop everything.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

test_expect_success 'setup: rolling branch checked out' '
	stable_tree_linux tree &&
	cd tree &&
	stable_tree_replay . 40 &&
	git rolling init -q linux-rolling-stable &&
	git checkout -q linux-rolling-stable &&
	git status --porcelain >../status &&
	test_must_be_empty ../status
'

test_expect_success 'another branch checked out: index and work tree are not touched' '
	cd tree &&
	git rolling init -q --at v6.2.1 elsewhere &&
	echo scratch >scratch &&
	git status --porcelain >../status.before &&
	cp .git/index ../index.before &&
	git rolling advance -q elsewhere &&
	check_rolling_merge elsewhere &&
	cmp .git/index ../index.before &&
	git status --porcelain >../status.after &&
	test_cmp ../status.before ../status.after &&
	rm scratch
'

test_expect_success 'advance moves work tree and index along' '
	cd tree &&
	stable_tree_replay . 41 &&
	git rolling advance -q &&
	tag=$(check_rolling_merge HEAD) &&
	git diff --quiet HEAD &&
	git diff --cached --quiet HEAD &&
	grep "^SUBLEVEL = ${tag##*.}$" Makefile &&
	git reflog show --format=%gs -1 HEAD >actual &&
	echo "rolling: merge $tag" >expect &&
	test_cmp expect actual
'

test_expect_success 'unrelated local changes survive' '
	cd tree &&
	echo local >untracked-note &&
	git status --porcelain >../before &&
	stable_tree_replay . 42 &&
	git rolling advance -q &&
	check_rolling_merge HEAD &&
	git status --porcelain >../after &&
	test_cmp ../before ../after &&
	test "$(cat untracked-note)" = local
'

test_expect_success 'local changes in the way: nothing changes at all' '
	cd tree &&
	echo "my edit" >>Makefile &&
	cp Makefile ../makefile.mine &&
	git rev-parse HEAD >../head.before &&
	git ls-files -s >../index.before &&
	stable_tree_replay . 43 &&
	test_expect_code 128 git rolling advance 2>err &&
	grep "^fatal: your local changes to the following files would be overwritten by advancing .linux-rolling-stable.:$" err &&
	grep "^	Makefile$" err &&
	git rev-parse HEAD >../head.after &&
	test_cmp ../head.before ../head.after &&
	git ls-files -s >../index.after &&
	test_cmp ../index.before ../index.after &&
	test_cmp ../makefile.mine Makefile
'

test_expect_success 'staged changes in the way are kept too' '
	cd tree &&
	git add Makefile &&
	git ls-files -s >../index.before &&
	test_expect_code 128 git rolling advance 2>err &&
	git ls-files -s >../index.after &&
	test_cmp ../index.before ../index.after &&
	test_cmp ../makefile.mine Makefile &&
	git reset -q --hard &&
	git rolling advance -q &&
	check_rolling_merge HEAD &&
	git diff --quiet HEAD
'

test_expect_success 'a branch checked out in another work tree is left alone' '
	cd tree &&
	git checkout -q --detach &&
	git worktree add -q ../other linux-rolling-stable &&
	stable_tree_replay . 44 &&
	git rev-parse linux-rolling-stable >../before &&
	test_expect_code 128 git rolling advance 2>err &&
	grep "^fatal: .linux-rolling-stable. is checked out in another work tree; not moving it$" err &&
	git rev-parse linux-rolling-stable >../after &&
	test_cmp ../before ../after
'

test_expect_success 'advancing from inside that work tree updates it' '
	cd other &&
	git rolling advance -q &&
	check_rolling_merge HEAD &&
	git diff --quiet HEAD
'

test_done
