#!/bin/sh

test_description='progress meters as git shows them

--progress forces a meter on a pipe, GIT_PROGRESS_DELAY=0 starts it at
once; by default a meter waits two seconds, so quick runs print nothing,
and without --progress nothing is shown where standard error is not a
terminal.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

test_expect_success 'setup: a rolling branch, no commit-graph' '
	stable_tree_linux tree &&
	cd tree &&
	stable_tree_replay . 40 &&
	git rolling init -q --at v6.0.2 linux-rolling-stable &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	stable_tree_replay . 70 &&
	git rolling advance -q &&
	test_path_is_missing .git/objects/info/commit-graph &&
	test_path_is_missing .git/objects/info/commit-graphs
'

test_expect_success 'describe: forced with no delay, the queries are counted' '
	cd tree &&
	commit=$(git rev-parse v6.4~3) &&
	GIT_PROGRESS_DELAY=0 git rolling describe --progress -b linux-rolling-stable $commit >out 2>err &&
	tr "\r" "\n" <err >lines &&
	grep "^Checking ancestry: [1-9][0-9]*, done.$" lines &&
	grep "^first in linux-rolling-stable at " out
'

test_expect_success 'describe: no meter on a pipe, with --no-progress, or with --quiet' '
	cd tree &&
	commit=$(git rev-parse v6.4~3) &&
	GIT_PROGRESS_DELAY=0 git rolling describe -b linux-rolling-stable $commit >out 2>err &&
	test_must_be_empty err &&
	GIT_PROGRESS_DELAY=0 git rolling describe --no-progress -b linux-rolling-stable $commit >out 2>err &&
	test_must_be_empty err &&
	GIT_PROGRESS_DELAY=0 git rolling describe -q -b linux-rolling-stable $commit 2>err &&
	test_must_be_empty err
'

test_expect_success 'verify --signatures: the tags checked are counted' '
	cd tree &&
	tags=$(($(git rev-list --count --first-parent --merges linux-rolling-stable) + 1)) &&
	test_expect_code 1 env GIT_PROGRESS_DELAY=0 \
		git rolling verify --signatures --progress linux-rolling-stable >out 2>err &&
	tr "\r" "\n" <err >lines &&
	grep "^Verifying signatures: 100% ($tags/$tags), done.$" lines &&
	test_expect_code 1 env GIT_PROGRESS_DELAY=0 \
		git rolling verify --signatures linux-rolling-stable >out 2>err &&
	! grep "^Verifying" err
'

# A delay of an hour: "quick" must not depend on how busy the machine
# is (the default two seconds are not, beside a loaded suite).
test_expect_success 'the delay: a quick run shows nothing even when forced' '
	cd tree &&
	commit=$(git rev-parse v6.4~3) &&
	GIT_PROGRESS_DELAY=3600 git rolling describe --progress -b linux-rolling-stable $commit >out 2>err &&
	test_must_be_empty err &&
	GIT_PROGRESS_DELAY=3600 git rolling log --progress linux-rolling-stable >out 2>err &&
	test_must_be_empty err &&
	GIT_PROGRESS_DELAY=0 git rolling log --progress linux-rolling-stable >out 2>err &&
	test -s err
'

command -v script >/dev/null 2>&1 && test_set_prereq SCRIPT

test_expect_success SCRIPT 'on a terminal the meter is on by default' '
	cd tree &&
	steps=$(git rev-list --count --first-parent --merges linux-rolling-stable) &&
	GIT_PROGRESS_DELAY=0 script -qec "git rolling log linux-rolling-stable >/dev/null" /dev/null >tty &&
	tr "\r" "\n" <tty >lines &&
	grep "^Counting commits: 100% ($steps/$steps), done." lines &&
	GIT_PROGRESS_DELAY=0 script -qec "git rolling log --no-progress linux-rolling-stable >/dev/null" \
		/dev/null >tty &&
	! grep Counting tty
'

test_done
