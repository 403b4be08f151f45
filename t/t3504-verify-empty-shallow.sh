#!/bin/sh

test_description='an empty shallow file makes no shallow clone

An empty .git/shallow lists no shallow boundary: git sees every commit
it saw without the file (git rev-list, the oracle, walks the same
history; libgit2 calls such a repository not shallow, though git
rev-parse --is-shallow-repository says true because the file exists).
Nothing is cut, so nothing differs between git and git rolling: no
"shallow" hazard in verify --json or status --porcelain, and a missing
parent is missing from the repository, not cut off by a shallow clone.
A one-line shallow file is the control.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# ghost_parent: print a copy of the tip whose first parent does not exist.
ghost_parent () {
	gp_tip=$(git rev-parse linux-rolling-stable) &&
	{
		printf "tree %s\nparent %s\nparent %s\n" $(git rev-parse $gp_tip^{tree}) \
			1111111111111111111111111111111111111111 $(git rev-parse $gp_tip^2) &&
		git cat-file commit $gp_tip | sed -n "/^author /,\$p"
	} | git hash-object -t commit -w --literally --stdin
}

test_expect_success 'setup: a complete repository with an empty shallow file' '
	verify_fixture tree &&
	cd tree &&
	git rev-list linux-rolling-stable >../all &&
	: >.git/shallow &&
	git rev-list linux-rolling-stable >../all.empty-shallow &&
	test_cmp ../all ../all.empty-shallow &&
	git branch broken $(ghost_parent)
'

test_expect_success 'verify --json lists no hazard' '
	cd tree &&
	git rolling verify --json linux-rolling-stable >out.json &&
	! grep "shallow" out.json &&
	sed -n "/\"hazards\":\[/,/\]/p" out.json >hazards &&
	test_line_count = 2 hazards
'

test_expect_success 'status --porcelain names no hazard' '
	cd tree &&
	git rolling status --porcelain >out &&
	grep "^branch linux-rolling-stable" out &&
	! grep "^hazard " out
'

test_expect_success 'a missing parent is missing, not cut off' '
	cd tree &&
	verify_fails broken $(git rev-parse broken) missing &&
	grep "found not in the repository$" err &&
	! grep "shallow" err
'

test_expect_success 'advance works and says nothing of it' '
	cd tree &&
	git rolling advance -q 2>err &&
	test_must_be_empty err
'

test_expect_success 'control: a shallow file with one line is a hazard everywhere' '
	cd tree &&
	test_when_finished ": >.git/shallow" &&
	git rev-parse master~100 >.git/shallow &&
	test "$(git rev-parse --is-shallow-repository)" = true &&
	git rolling verify --json linux-rolling-stable >out.json &&
	grep "\"shallow\"" out.json &&
	git rolling status --porcelain >out &&
	grep "^hazard linux-rolling-stable shallow$" out &&
	verify_fails broken $(git rev-parse broken) shallow &&
	grep "found not in this shallow clone: the chain is cut" err
'

test_done
