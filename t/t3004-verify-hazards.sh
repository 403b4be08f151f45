#!/bin/sh

test_description='verify reports where git and libgit2 would see different graphs

git honours refs/replace/ and info/grafts, libgit2 reads the stored
objects; a shallow clone may cut the chain.  Each is reported as a
failure naming the commit concerned instead of giving a wrong answer,
but a shallow clone that keeps the whole chain verifies.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

test_expect_success 'setup' '
	verify_fixture tree &&
	git -C tree rolling verify -q linux-rolling-stable
'

test_expect_success 'a replace ref that swaps in an evil merge' '
	cd tree &&
	victim=$(nth_merge linux-rolling-stable 8) &&
	tag=$(git log -1 --format=%s $victim | sed "s/^Merge //") &&
	evil=$(git commit-tree -p $victim^1 -p $victim^2 -m "Merge $tag" $(tampered_tree $victim)) &&
	git replace $victim $evil &&
	test_when_finished "git replace -d $victim" &&
	test "$(git rev-parse $victim^{tree})" = "$(git rev-parse $evil^{tree})" &&
	verify_fails linux-rolling-stable $victim replace &&
	grep "found refs/replace/$victim makes git read $evil instead$" err
'

test_expect_success 'without the replace ref the branch verifies again' '
	cd tree &&
	git rolling verify -q linux-rolling-stable
'

test_expect_success 'a replace ref anywhere is reported: git would show other history' '
	cd tree &&
	old=$(git rev-parse master~20) &&
	new=$(git commit-tree -p $old^ -m "rewritten history" $old^{tree}) &&
	git replace $old $new &&
	test_when_finished "git replace -d $old" &&
	verify_fails linux-rolling-stable $old replace
'

test_expect_success 'a graft' '
	cd tree &&
	victim=$(nth_merge linux-rolling-stable 3) &&
	echo "$victim $(git rev-parse $victim^1)" >.git/info/grafts &&
	test_when_finished "rm -f .git/info/grafts" &&
	verify_fails linux-rolling-stable $victim graft &&
	grep "found info/grafts gives git other parents for it$" err
'

test_expect_success 'the JSON document lists the hazards' '
	cd tree &&
	victim=$(nth_merge linux-rolling-stable 3) &&
	echo "$victim" >.git/info/grafts &&
	test_when_finished "rm -f .git/info/grafts" &&
	test_expect_code 1 git rolling verify --json linux-rolling-stable >out.json &&
	grep "\"grafts\"" out.json &&
	grep "\"check\":\"graft\"\|\"check\": \"graft\"" out.json
'

test_expect_success 'a shallow clone that cuts the chain' '
	git clone -q --depth 3 --branch linux-rolling-stable "file://$TRASH_DIRECTORY/tree" cut &&
	cd cut &&
	test -s .git/shallow &&
	cut=$(git rev-list --first-parent linux-rolling-stable | grep -F -x -f .git/shallow) &&
	test -n "$cut" &&
	verify_fails linux-rolling-stable $cut shallow &&
	grep "^linux-rolling-stable: 2 steps, no base release reached$" out &&
	test $(grep -c "^error: " err) = 1
'

test_expect_success 'a shallow clone that holds the whole chain verifies' '
	steps=$(git -C tree rev-list --count --first-parent --merges linux-rolling-stable) &&
	git clone -q --depth $((steps + 3)) --branch linux-rolling-stable \
		"file://$TRASH_DIRECTORY/tree" deep &&
	cd deep &&
	test -s .git/shallow &&
	git rolling verify linux-rolling-stable >out &&
	grep "^linux-rolling-stable: $steps steps from base v5.19.2 " out &&
	grep "^linux-rolling-stable: verified$" out &&
	git rolling verify --json linux-rolling-stable >out.json &&
	grep "\"shallow\"" out.json
'

test_expect_success 'the chain cut at a shallow boundary right at the tip' '
	git clone -q --depth 1 --branch linux-rolling-stable "file://$TRASH_DIRECTORY/tree" tip-only &&
	cd tip-only &&
	tip=$(git rev-parse linux-rolling-stable) &&
	verify_fails linux-rolling-stable $tip shallow
'

test_expect_success 'a parent that is missing from a complete repository' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(git log -1 --format=%s $tip | sed "s/^Merge //") &&
	ghost=1111111111111111111111111111111111111111 &&
	{
		printf "tree %s\nparent %s\nparent %s\n" $(git rev-parse $tip^{tree}) $ghost \
			$(git rev-parse $tip^2) &&
		git cat-file commit $tip | sed -n "/^author /,\$p"
	} >broken.commit &&
	broken=$(git hash-object -t commit -w --literally broken.commit) &&
	git branch broken $broken &&
	verify_fails broken $broken missing &&
	grep "expected first parent $ghost, found not in the repository$" err
'

test_expect_success 'a parent that is not a commit at all' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tree=$(git rev-parse $tip^{tree}) &&
	{
		printf "tree %s\nparent %s\n" $tree $tree &&
		git cat-file commit $tip | sed -n "/^author /,\$p"
	} >odd.commit &&
	odd=$(git hash-object -t commit -w --literally odd.commit) &&
	verify_fails $odd $odd missing &&
	grep "expected first parent $tree, found an object that is not a commit$" err
'

test_done
