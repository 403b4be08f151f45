#!/bin/sh

test_description='the postgresql preset, week by week

PostgreSQL makes minor releases REL_16_1 of each major version after
betas and candidates REL_16_BETA1, REL_16_RC1; before 10, REL9_6_1 of
9.6.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

preset_week_tests postgresql 3

test_done
