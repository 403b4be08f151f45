#!/bin/sh

test_description='the qemu preset, week by week

QEMU makes stable releases v8.1.3 of v8.1.0 (candidates from rc0); 0.x and
1.x have the same numbering.
A generated tree of that scheme is replayed one week at a time as in
t2100: init recognises the scheme, advance follows the stable policy
computed by an oracle written with sed and sort, and every merge has the
rolling shape and is reproduced by the git recipe.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

test_expect_success 'setup: a qemu-style stable tree' '
	stable_tree_qemu tree
'

scheme_week_tests qemu qemu 3

test_done
