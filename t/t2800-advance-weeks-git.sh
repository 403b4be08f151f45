#!/bin/sh

test_description='the git preset, week by week

Git keeps maintenance releases v2.43.1 of feature releases v2.44.0
(candidates from rc0); before 1.9, v1.8.5.6 of v1.8.5.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

preset_week_tests git 3

test_done
