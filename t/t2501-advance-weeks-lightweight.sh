#!/bin/sh

test_description='advance follows a stable tree week by week (lightweight tags)

The weekly simulation of lib-advance-weeks.sh on a tree whose release and
mainline tags are lightweight: no merge embeds a tag.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

STABLE_LIGHTWEIGHT_TAGS=1
export STABLE_LIGHTWEIGHT_TAGS
. "$TEST_DIRECTORY"/lib-advance-weeks.sh

# As t2100 does with annotated tags, make test replays a sample of the
# weeks (sample_weeks: the first, the last three, and the two weeks
# around every series switch) and make test-long every week besides.
advance_weeks_tests tree "" sample

test_expect_success 'the tags are lightweight, and verify --rebuild passes' '
	cd tree &&
	test "$(git cat-file -t v6.6.3)" = commit &&
	git rolling verify --rebuild linux-rolling-stable linux-rolling-lts
'

advance_weeks_tests tree-every EXPENSIVE every

test_done
