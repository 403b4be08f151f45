#!/bin/sh

test_description='bisect-helper start and next, answered by hand

A tester answers with the usual git bisect good/bad and asks
"bisect-helper next" in between; stage one tests only rolling merges,
stage two the commits of the one bad step.  A running bisection is never
clobbered, and the helper keeps its own state only while it is needed.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

test_expect_success 'setup: a rolling branch from week 11 to week 60' '
	rolling_history tree 11 60 &&
	cd tree &&
	git rolling bisect-helper steps | cut -d" " -f1 >../step-commits
'

test_expect_success 'start checks out a rolling merge and names its release' '
	cd tree &&
	git rolling bisect-helper start v6.4.6 v6.0.2 >out &&
	test_path_is_file .git/BISECT_START &&
	test_path_is_file .git/ROLLING_BISECT &&
	head=$(git rev-parse HEAD) &&
	grep -x "$head" ../step-commits &&
	tag=$(git log -1 --format=%s HEAD | sed -n "s/^Merge //p") &&
	test "$(git rev-parse HEAD^{tree})" = "$(git rev-parse "$tag^{tree}")" &&
	grep "^testing $tag (merge $(git rev-parse --short HEAD), [0-9-]*), step [0-9]* of [0-9]*; mark it with git bisect good or git bisect bad$" out &&
	grep "^\[$head\] Merge $tag$" out
'

test_expect_success 'a second start during a bisection is refused' '
	cd tree &&
	cp .git/BISECT_START start.before &&
	cp .git/ROLLING_BISECT state.before &&
	git rev-parse HEAD >head.before &&
	git for-each-ref refs/bisect/ >refs.before &&
	test_expect_code 128 git rolling bisect-helper start v6.4.6 v6.0.2 2>err &&
	grep "^fatal: a bisection is already in progress" err &&
	test_cmp start.before .git/BISECT_START &&
	test_cmp state.before .git/ROLLING_BISECT &&
	git rev-parse HEAD >head.after &&
	test_cmp head.before head.after &&
	git for-each-ref refs/bisect/ >refs.after &&
	test_cmp refs.before refs.after
'

test_expect_success 'next refuses while stage one is not over' '
	cd tree &&
	test_expect_code 1 git rolling bisect-helper next 2>err &&
	grep "^error: stage one is not over yet" err &&
	test_path_is_file .git/ROLLING_BISECT
'

test_expect_success 'every point of stage one is a rolling merge' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.2.6..v6.2.7 | sed -n 2p) &&
	while ! git rolling bisect-helper next >next.out 2>next.err
	do
		git rev-parse HEAD >>tested &&
		if git merge-base --is-ancestor "$culprit" HEAD
		then
			git bisect bad >/dev/null
		else
			git bisect good >/dev/null
		fi || return 1
	done &&
	test_line_count -gt 2 tested &&
	{ grep -x -v -f ../step-commits tested >not-steps || :; } &&
	test_must_be_empty not-steps &&
	grep "^stage one: the first bad step is v6.2.7 " next.out &&
	grep "^stage two: bisecting the 6.2 stable commits from v6.2.6 (good) to v6.2.7 (bad)$" next.out &&
	grep "^stage 2$" .git/ROLLING_BISECT
'

test_expect_success 'stage two ends with the culprit and the releases around it' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.2.6..v6.2.7 | sed -n 2p) &&
	bisect_by_hand "$culprit" &&
	grep "^first bad commit: $culprit " next.out &&
	grep "^first shipped: linux-rolling-stable at v6.2.7 (merge " next.out &&
	grep "^previous release: v6.2.6$" next.out &&
	test_path_is_missing .git/ROLLING_BISECT &&
	git_bisect_found "$culprit" &&
	git bisect reset >/dev/null 2>&1 &&
	test "$(git symbolic-ref HEAD)" = refs/heads/master
'

test_expect_success 'by hand across a series switch, through the merge base' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.2..v6.3-rc1 | sed -n 3p) &&
	git rolling bisect-helper start linux-rolling-stable v5.19.2 >out &&
	bisect_by_hand "$culprit" &&
	grep "^first bad commit: $culprit " next.out &&
	grep "^first shipped: linux-rolling-stable at v6.3.2 " next.out &&
	grep "^previous release: v6.2.11$" next.out &&
	git bisect log >log &&
	grep "^# good: \[$(git rev-parse v6.2^{commit})\]" log &&
	git bisect reset >/dev/null 2>&1
'

test_expect_success 'git bisect skip in stage one' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.3.5..v6.3.6 | head -n 1) &&
	git rolling bisect-helper start v6.4.6 v6.3.2 >out &&
	git bisect skip >/dev/null &&
	bisect_by_hand "$culprit" &&
	grep "^first bad commit: $culprit " next.out &&
	grep "^first shipped: linux-rolling-stable at v6.3.6 " next.out &&
	git bisect reset >/dev/null 2>&1
'

test_expect_success 'git bisect reset ends it; the helper notices' '
	cd tree &&
	git rolling bisect-helper start v6.4.6 v6.3.2 >out &&
	git bisect reset >/dev/null 2>&1 &&
	test_path_is_file .git/ROLLING_BISECT &&
	test_expect_code 128 git rolling bisect-helper next 2>err &&
	grep "^fatal: the bisection has ended" err &&
	test_path_is_missing .git/ROLLING_BISECT
'

test_expect_success 'a left-over state file does not stop a new start' '
	cd tree &&
	echo junk >.git/ROLLING_BISECT &&
	git rolling bisect-helper start v6.4.6 v6.3.2 >out &&
	grep "^stage 1$" .git/ROLLING_BISECT &&
	git rolling bisect-helper reset >/dev/null 2>&1 &&
	test_path_is_missing .git/ROLLING_BISECT &&
	test_path_is_missing .git/BISECT_START
'

test_expect_success 'a plain git bisection is neither clobbered nor taken over' '
	cd tree &&
	git bisect start v6.4.6 v6.3.2 >/dev/null &&
	cp .git/BISECT_START start.before &&
	test_expect_code 128 git rolling bisect-helper start v6.4.6 v6.3.2 2>err &&
	grep "^fatal: a bisection is already in progress" err &&
	test_cmp start.before .git/BISECT_START &&
	test_expect_code 128 git rolling bisect-helper next 2>err &&
	grep "^fatal: this bisection was not started by git rolling bisect-helper start" err &&
	test_expect_code 128 git rolling bisect-helper run true 2>err &&
	grep "^fatal: this bisection was not started" err &&
	test_path_is_missing .git/ROLLING_BISECT &&
	git bisect reset >/dev/null 2>&1
'

test_expect_success 'a damaged state file is reported, not trusted' '
	cd tree &&
	git rolling bisect-helper start v6.4.6 v6.3.2 >out &&
	echo "stage 7" >>.git/ROLLING_BISECT &&
	test_expect_code 128 git rolling bisect-helper next 2>err &&
	grep "ROLLING_BISECT is damaged" err &&
	git rolling bisect-helper reset >/dev/null 2>&1 &&
	test_path_is_missing .git/ROLLING_BISECT
'

test_expect_success 'in a linked worktree the state lives in its own git dir' '
	cd tree &&
	git worktree add -q --detach ../wt master &&
	(
		cd ../wt &&
		git rolling bisect-helper start v6.4.6 v6.3.2 >out &&
		test_path_is_file "$(git rev-parse --git-path ROLLING_BISECT)" &&
		test_path_is_file "$(git rev-parse --git-path BISECT_START)"
	) &&
	test_path_is_missing .git/ROLLING_BISECT &&
	git rolling bisect-helper start v6.4.6 v6.3.2 >out &&
	git rolling bisect-helper reset >/dev/null 2>&1 &&
	(
		cd ../wt &&
		git rolling bisect-helper reset >/dev/null 2>&1 &&
		test_path_is_missing "$(git rev-parse --git-path ROLLING_BISECT)"
	) &&
	git worktree remove --force ../wt
'

test_done
