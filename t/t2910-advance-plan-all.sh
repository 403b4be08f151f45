#!/bin/sh

test_description='advance plans every branch before it moves any

A branch that fails while its merges are being made (a release commit
that cannot be read) stops the command before the branches named or
configured before it have moved.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

snapshot () {
	{ git for-each-ref && git config --list --local; } >"$1"
}

test_expect_success 'setup: two branches with steps to make, the second pinned' '
	# A ref to an unreadable commit, which git refuses to write, is
	# written by hand as a loose ref: the refs are kept in files.
	STABLE_REF_FORMAT=files stable_tree_linux tree &&
	test "$(test_ref_format tree)" = files &&
	cd tree &&
	stable_tree_replay . 40 &&
	git rolling init -q --at v6.2.1 first &&
	git rolling init -q --at v6.1.1 --pin 6.1 second &&
	git rolling advance --dry-run >out &&
	grep "^first: v6.2.1 -> " out &&
	grep "^second: v6.1.1 -> " out
'

test_expect_success 'a release commit that cannot be read makes the second branch fail' '
	cd tree &&
	bogus=$(echo "not a commit" | git hash-object -t commit --literally -w --stdin) &&
	# git refuses to point a ref at it: write the loose ref by hand.
	echo $bogus >"$(git rev-parse --git-dir)/refs/tags/v6.1.99" &&
	test_expect_code 128 git rolling advance second 2>err &&
	grep "^fatal: second: cannot read v6.1.99" err
'

test_expect_success 'the first branch has not moved either' '
	cd tree &&
	snapshot ../before &&
	test_expect_code 128 git rolling advance 2>err &&
	grep "^fatal: second: cannot read v6.1.99" err &&
	snapshot ../after &&
	test_cmp ../before ../after &&
	test_expect_code 128 git rolling advance first second 2>err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'named alone, the first branch advances' '
	cd tree &&
	git rolling advance first >out &&
	grep "^first: v6.2.1 -> " out &&
	check_rolling_merge first
'

test_done
