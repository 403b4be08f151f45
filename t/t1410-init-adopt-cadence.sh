#!/bin/sh

test_description='init --adopt reads the cadence a branch was made with

A branch made by hand with one merge per release (the cadence of
init --each) and adopted without --each must go on merging every
release: otherwise its next advance would pass over all but the newest.
adopt reads the cadence from the steps: a branch whose steps merge the
releases of a series one after the other, passing none over, is adopted
with rolling.<branch>.steps = each; one whose steps pass releases over
is adopted with the default; --each and --no-each decide instead.  A
step that switches series passes releases over by nature and counts as
neither.  The oracle is plain git: the release tags between two steps
(sort -V).
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# by_hand <worktree> <tag>...: merge these releases with the recipe, one merge each.
by_hand () {
	(
		cd "$1" &&
		shift &&
		for tag
		do
			recipe_step "$tag" || return 1
		done
	)
}

newest_of () {
	git tag -l "v$1.*" | grep -E "^v$1\.[0-9]+$" | sort -V | tail -n 1
}

test_expect_success 'setup: one branch merged every release, another only some' '
	stable_tree_linux tree &&
	cd tree &&
	stable_tree_replay . 40 &&
	newest=$(newest_of 6.1) &&
	expected_each_steps v6.1.1 $newest >each-list &&
	test_line_count -gt 3 each-list &&
	git worktree add -q --detach ../each-wt v6.1.1 &&
	by_hand ../each-wt $(cat each-list) &&
	git branch each-made "$(git -C ../each-wt rev-parse HEAD)" &&
	git worktree add -q --detach ../newest-wt v6.1.1 &&
	by_hand ../newest-wt $(sed -n "2p;4p" each-list) $newest &&
	git branch newest-made "$(git -C ../newest-wt rev-parse HEAD)" &&
	git rolling verify each-made >/dev/null &&
	git rolling verify newest-made >/dev/null
'

test_expect_success 'a branch made one merge per release is adopted with steps = each' '
	cd tree &&
	git branch copy each-made &&
	git rolling init --adopt copy >out 2>err &&
	test "$(git config rolling.copy.steps)" = each &&
	grep "^steps each: the branch merged every release of its series, one merge each (--no-each for the newest only)$" out &&
	git rolling init -q --force --adopt each-made 2>err &&
	test_must_be_empty err &&
	test "$(git config rolling.each-made.steps)" = each
'

test_expect_success 'and its next advances merge every release, one merge each' '
	cd tree &&
	week=40 &&
	switch=$(stable_tree_week_of . v6.4-rc1) &&
	while test $week -le $((switch + 2))
	do
		week=$((week + 3)) &&
		from=$(git log -1 --format=%s each-made | sed -e "s/^Merge //") &&
		stable_tree_replay . $week &&
		git rolling advance --porcelain each-made >../out &&
		expected_each_steps "$from" "$(expected_stable_target .)" >../expect &&
		sed -n "s/^step each-made [^ ]* \([^ ]*\) .*/\1/p" ../out >../actual &&
		test_cmp ../expect ../actual &&
		if test $(wc -l <../expect) -gt 1
		then
			echo $week >>../piled
		fi || return 1
	done &&
	test -s ../piled &&
	git log --first-parent --merges --format=%s each-made |
		sed -n "s/^Merge \(v6\.1\.[0-9]*\)$/\1/p" | sort -V >merged-6.1 &&
	git tag -l "v6.1.*" | grep -E "^v6\.1\.[0-9]+$" | sort -V |
		sed -n "/^v6\.1\.2$/,/^$(tail -n 1 merged-6.1)$/p" >tagged-6.1 &&
	test_cmp tagged-6.1 merged-6.1 &&
	git rolling verify each-made >/dev/null
'

test_expect_success 'a branch that passed releases over keeps the default' '
	cd tree &&
	git rolling init --adopt newest-made >out 2>err &&
	test_must_fail git config rolling.newest-made.steps &&
	! grep "^steps each" out &&
	git log -1 --format=%s newest-made >before &&
	git rolling advance --porcelain newest-made >out &&
	sed -n "s/^step newest-made [^ ]* \([^ ]*\) .*/\1/p" out >actual &&
	test -s actual &&
	while read release
	do
		series=${release#v} &&
		test "$release" = "$(newest_of ${series%.*})" || return 1
	done <actual &&
	test $(git tag -l "v6.1.*" | sort -V | sed -n "/^$(sed "s/^Merge //" before)\$/,\$p" | wc -l) -gt 2
'

test_expect_success '--no-each and --each decide whatever the steps say' '
	cd tree &&
	git branch copy2 each-made~0 &&
	git rolling init -q --adopt --no-each copy2 &&
	test_must_fail git config rolling.copy2.steps &&
	git branch copy3 newest-made~0 &&
	git rolling init -q --adopt --each copy3 &&
	test "$(git config rolling.copy3.steps)" = each
'

test_expect_success 'one release in a row is not enough to read a cadence' '
	cd tree &&
	git worktree add -q --detach ../short-wt v6.1.1 &&
	by_hand ../short-wt $(sed -n 1p each-list) &&
	git branch short "$(git -C ../short-wt rev-parse HEAD)" &&
	git rolling init -q --adopt short &&
	test_must_fail git config rolling.short.steps
'

test_expect_success 'two releases in a row, then one passed over: the default' '
	cd tree &&
	git worktree add -q --detach ../gap-wt v6.1.1 &&
	by_hand ../gap-wt $(sed -n "1p;2p;4p" each-list) &&
	git branch gap "$(git -C ../gap-wt rev-parse HEAD)" &&
	git rolling verify gap >/dev/null &&
	git rolling init -q --adopt gap &&
	test_must_fail git config rolling.gap.steps
'

test_expect_success 'two releases in a row, none passed over: enough for steps = each' '
	cd tree &&
	git worktree add -q --detach ../two-wt v6.1.1 &&
	by_hand ../two-wt $(sed -n "1p;2p" each-list) &&
	git branch two "$(git -C ../two-wt rev-parse HEAD)" &&
	git rolling init -q --adopt two &&
	test "$(git config rolling.two.steps)" = each
'

# A branch that switched series the way rolling-lts moves from 6.1.y to
# 6.6.y: the switch merges the newest release of the new series, passing
# over its first ones and the old series' later ones.  That is no gap in
# the cadence: within each series, one release after the other.
test_expect_success 'setup: every release of 6.1 up to a point, a switch to 6.6, every release after it' '
	cd tree &&
	stable_tree_replay . $(stable_tree_weeks .) &&
	git tag -l "v6.1.*" | grep -E "^v6\.1\.[0-9]+$" | sort -V >all-6.1 &&
	git tag -l "v6.6.*" | grep -E "^v6\.6\.[0-9]+$" | sort -V >all-6.6 &&
	test "$(sed -n 1p all-6.1)" = v6.1.1 &&
	test "$(sed -n 1p all-6.6)" = v6.6.1 &&
	test $(wc -l <all-6.1) -gt 5 &&
	test $(wc -l <all-6.6) -gt 6 &&
	sed -n "2,4p" all-6.1 >old-run &&
	sed -n "4,6p" all-6.6 >new-run &&
	git worktree add -q --detach ../switch-wt v6.1.1 &&
	by_hand ../switch-wt $(cat old-run new-run) &&
	git branch switched "$(git -C ../switch-wt rev-parse HEAD)" &&
	git worktree add -q --detach ../switch-gap-wt v6.1.1 &&
	by_hand ../switch-gap-wt $(cat old-run) $(sed -n "4p;6p" all-6.6) &&
	git branch switched-gap "$(git -C ../switch-gap-wt rev-parse HEAD)" &&
	git log --first-parent --format=%s v6.1.1..switched >merges &&
	sed "s/^/Merge /" new-run old-run | sort -r -V >expect &&
	test_cmp expect merges &&
	git rolling verify switched >/dev/null &&
	git rolling verify switched-gap >/dev/null
'

test_expect_success 'a branch read one release after the other across a series switch: steps = each' '
	cd tree &&
	git rolling init --adopt --lts switched >out &&
	test "$(git config rolling.switched.steps)" = each &&
	grep "^adopted .switched. at $(sed -n 3p new-run) ([0-9a-f]*), series 6.6$" out &&
	grep "^steps each: the branch merged every release of its series, one merge each (--no-each for the newest only)$" out
'

test_expect_success 'a release passed over after the switch: the default' '
	cd tree &&
	git rolling init --adopt --lts switched-gap >out &&
	test_must_fail git config rolling.switched-gap.steps &&
	! grep "^steps each" out
'

test_done
