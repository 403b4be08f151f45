#!/bin/sh

test_description='the python preset, week by week

CPython makes bugfix releases v3.12.1 of v3.12.0, after alphas, betas and
release candidates v3.12.0a1, b1, rc1; 2.x finals were v2.7.
A generated tree of that scheme is replayed one week at a time as in
t2100: init recognises the scheme, advance follows the stable policy
computed by an oracle written with sed and sort, and every merge has the
rolling shape and is reproduced by the git recipe.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

test_expect_success 'setup: a python-style stable tree' '
	stable_tree_python tree
'

scheme_week_tests python python 2

test_done
