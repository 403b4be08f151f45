#!/bin/sh

test_description='advance of a checked-out branch with symbolic links

A release that adds or changes a symbolic link (here with a target of
4,000 bytes, near the most Linux allows) is checked out by advance; an
advance that fails after the files were written puts the link back to
its old target, as it puts back files.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# target <char>: a relative symlink target of 4,000 bytes.
target () {
	printf "%4000s" "" | tr " " "$1" | sed "s/\\(.\\{99\\}\\)./\\1\\//g"
}

test_expect_success 'setup: rolling branch checked out at week 40' '
	stable_tree_linux tree &&
	stable_tree_replay tree 40 &&
	cd tree &&
	git rolling init -q linux-rolling-stable &&
	git checkout -q linux-rolling-stable &&
	target a >../target-a &&
	target b >../target-b &&
	test $(wc -c <../target-a) = 4000
'

test_expect_success 'a release adding a link: advance checks it out' '
	cd tree &&
	tag=$(add_release "ln -s \"\$(cat ../target-a)\" link") &&
	git rolling advance -q &&
	test "$(check_rolling_merge HEAD)" = "$tag" &&
	test -h link &&
	test "$(readlink link)" = "$(cat ../target-a)" &&
	git diff --quiet HEAD
'

test_expect_success 'losing the race after changing the link puts its old target back' '
	cd tree &&
	tag=$(add_release "ln -sfn \"\$(cat ../target-b)\" link && echo raced >>README") &&
	before=$(git rev-parse HEAD) &&
	other=$(git rev-parse v6.2.1^{commit}) &&
	git ls-files -s >../index.before &&
	test_expect_code 128 env LD_PRELOAD="$TEST_SEAM" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="git update-ref refs/heads/linux-rolling-stable $other" \
		git rolling advance 2>../err &&
	grep "^fatal: refs/heads/linux-rolling-stable was changed by another process" ../err &&
	test "$(readlink link)" = "$(cat ../target-a)" &&
	git ls-files -s >../index.after &&
	test_cmp ../index.before ../index.after &&
	git update-ref refs/heads/linux-rolling-stable $before &&
	git diff --quiet HEAD &&
	git rolling advance -q &&
	test "$(check_rolling_merge HEAD)" = "$tag" &&
	test "$(readlink link)" = "$(cat ../target-b)" &&
	git diff --quiet HEAD
'

test_done
