#!/bin/sh

test_description='advance follows a stable tree week by week (annotated tags)

The weekly simulation of lib-advance-weeks.sh on a tree whose release and
mainline tags are annotated and unsigned: no merge embeds a tag.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

. "$TEST_DIRECTORY"/lib-advance-weeks.sh

advance_weeks_tests tree "" every

test_done
