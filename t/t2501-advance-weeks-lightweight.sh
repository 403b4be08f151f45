#!/bin/sh

test_description='advance follows a stable tree week by week (lightweight tags)

The weekly simulation of lib-advance-weeks.sh on a tree whose release and
mainline tags are lightweight: no merge embeds a tag.  Every week, in make
test-long.
'
. "$(dirname "$0")"/test-lib.sh

if ! test_have_prereq EXPENSIVE
then
	skip_all='the weekly replay over lightweight tags runs in make test-long (EXPENSIVE); set GIT_ROLLING_TEST_LONG=1'
	test_done
fi
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

STABLE_LIGHTWEIGHT_TAGS=1
export STABLE_LIGHTWEIGHT_TAGS
. "$TEST_DIRECTORY"/lib-advance-weeks.sh

# make test replays t2100's sample of the weeks, with annotated tags;
# t2900, t6000 and t1300 advance over lightweight tags in make test.
# This script replays every week, in make test-long only.
advance_weeks_tests tree "" every

test_expect_success 'the tags are lightweight, and verify --rebuild passes' '
	cd tree &&
	test "$(git cat-file -t v6.6.3)" = commit &&
	git rolling verify --rebuild linux-rolling-stable linux-rolling-lts
'

test_done
