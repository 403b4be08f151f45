#!/bin/sh

test_description='advance follows a stable tree week by week (annotated tags)

The weekly simulation of lib-advance-weeks.sh on a tree whose release and
mainline tags are annotated and unsigned: no merge embeds a tag.  Every
week is replayed under make test-long; make test replays a sample that
meets every series switch.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

. "$TEST_DIRECTORY"/lib-advance-weeks.sh

# make test replays a sample of the weeks (sample_weeks: the first, the
# last three, and the two weeks around every series switch, which the
# sample is checked to meet) and make test-long every week besides.
advance_weeks_tests tree "" sample

advance_weeks_tests tree-every EXPENSIVE every

# The checks above take the targets of all weeks from one pass of
# expected_weekly_targets; make test-long holds it to the per-week
# oracles it stands for, week by week.
test_expect_success EXPENSIVE 'every week the one-pass targets are those of the per-week oracles' '
	cd tree &&
	mkdir ../xcheck &&
	last=$(stable_tree_weeks .) &&
	for week in $(seq 1 $last)
	do
		stable_tree_replay . $week &&
		git for-each-ref --format="%(objectname) %(refname)" "refs/tags/v*" \
			>../xcheck/$((week + 1000)).refs &&
		stable=$(expected_stable_target . || echo -) &&
		lts=$(expected_lts_target . "$LTS_SERIES" || echo -) &&
		echo "$((week + 1000)) $stable $lts" || return 1
	done >../xcheck.expect &&
	expected_weekly_targets "$LTS_SERIES" ../xcheck/*.refs >../xcheck.actual &&
	test_cmp ../xcheck.expect ../xcheck.actual
'

test_done
