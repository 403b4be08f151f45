#!/bin/sh

test_description='the git preset over three years shaped like git.git'\''s

Fifteen feature releases v2.41.0 ... v2.55.0 about twelve weeks apart,
each with the maintenance releases git.git made of it while it was the
newest (v2.42.1 came before v2.43.0, v2.41.1 only after v2.44.0 and so
not here; v2.52.0 ... v2.55.0 got none), replayed week by week as in
t2800.  maint moves to a feature release the day it is tagged; the
branch must be on maint'\''s series every week.  For comparison a second
branch follows the kernel'\''s rule, as every branch did before the
switch rule existed (on git.git itself: 18 of 162 weeks).

Long (about 180 weeks): runs under GIT_ROLLING_TEST_LONG=1.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

if ! test_have_prereq EXPENSIVE
then
	skip_all='the three-year replay is long; set GIT_ROLLING_TEST_LONG=1'
	test_done
fi

# <series>:<maintenance releases while newest>/<weeks apart>
GIT_LIKE_GIT_GIT="2.41:0 2.42:1/10 2.43:3/4 2.44:1/8 2.45:2/3 2.46:2/5 2.47:1/7 \
2.48:1/1 2.49:0 2.50:1/3 2.51:2/7 2.52:0 2.53:0 2.54:0 2.55:0"

test_expect_success 'setup: a git.git-shaped stable tree' '
	GIT_MAINLINE=$GIT_LIKE_GIT_GIT STABLE_CYCLE_WEEKS=12 stable_tree_git tree &&
	test -z "$(git -C tree tag -l "v2.41.[1-9]*")" &&
	test "$(git -C tree tag -l "v2.43.[1-9]*" | wc -l)" = 3 &&
	test -z "$(git -C tree tag -l "v2.5[2-5].[1-9]*")" &&
	test "$(git -C tree tag -l "v2.5[2-5].0" | wc -l)" = 4
'

# Without the 1.x era the qemu preset reads these tags as well.
SCHEME_NO_DETECT=1
scheme_week_tests git git 14

test_done
