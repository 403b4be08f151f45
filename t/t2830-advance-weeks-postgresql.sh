#!/bin/sh

test_description='the postgresql preset, week by week

PostgreSQL makes minor releases REL_16_1 of each major version after betas
and candidates REL_16_BETA1, REL_16_RC1; before 10, REL9_6_1 of 9.6.
A generated tree of that scheme is replayed one week at a time as in
t2100: init recognises the scheme, advance follows the stable policy
computed by an oracle written with sed and sort, and every merge has the
rolling shape and is reproduced by the git recipe.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

test_expect_success 'setup: a postgresql-style stable tree' '
	stable_tree_postgresql tree
'

scheme_week_tests postgresql postgresql 3

test_done
