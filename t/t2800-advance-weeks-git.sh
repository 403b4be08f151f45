#!/bin/sh

test_description='the git preset, week by week

Git keeps maintenance releases v2.43.1 of feature releases v2.44.0 (candidates from
rc0); before 1.9, v1.8.5.6 of v1.8.5.
A generated tree of that scheme is replayed one week at a time as in
t2100: init recognises the scheme, advance follows the stable policy
computed by an oracle written with sed and sort, and every merge has the
rolling shape and is reproduced by the git recipe.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

test_expect_success 'setup: a git-style stable tree' '
	stable_tree_git tree
'

scheme_week_tests git git 3

test_done
