#!/bin/sh

test_description='the python preset, week by week

CPython makes bugfix releases v3.12.1 of v3.12.0, after alphas, betas
and release candidates v3.12.0a1, b1, rc1; 2.x finals were v2.7.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

preset_week_tests python 2

test_done
