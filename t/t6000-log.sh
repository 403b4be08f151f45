#!/bin/sh

test_description='git rolling log shows each step and what it brought

A stable and an lts branch are advanced week by week on a generated
Linux-style tree; the log of each is compared line by line with an
oracle written with plain git: git log --first-parent for the steps and
their dates, git log'\''s %h (git rev-parse --short) for the ids, git
rev-list --count <previous release>..<release> for the commits each
step brought.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-log.sh

LOG_RELEASE_RE='^v[0-9]+\.[0-9]+\.[0-9]+$'
LTS_SERIES="5.19 6.1 6.6"

# The branches are advanced every other week, as a cron job that runs
# less often: log reads the steps, and the steps of a fortnight are
# those of a week, one release each, with every series switch.
test_expect_success 'setup: branches advanced every other week' '
	STABLE_COMMITS_PER_WEEK=120 stable_tree_linux tree &&
	cd tree &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	week=$(stable_tree_week_of . v6.0) &&
	stable_tree_replay . $week &&
	git rolling init -q --preset linux --stable linux-rolling-stable &&
	git rolling init -q --preset linux --lts --series "$LTS_SERIES" linux-rolling-lts &&
	last=$(stable_tree_weeks .) &&
	advance_weekly . $week $last 16 2 &&
	test $(git rev-list --count --first-parent --merges linux-rolling-stable) -gt 20
'

test_expect_success 'log shows every step, newest first, as the oracle' '
	cd tree &&
	expected_log linux-rolling-stable >expect &&
	git rolling log linux-rolling-stable >actual &&
	test_cmp expect actual &&
	grep "series 6.6 -> 6.7, includes the 6.7 merge window: 1,[0-9][0-9][0-9] commits$" actual &&
	tail -n 1 actual | grep " base$"
'

test_expect_success 'the lts branch, whose switches skip series' '
	cd tree &&
	expected_log linux-rolling-lts >expect &&
	git rolling log linux-rolling-lts >actual &&
	test_cmp expect actual &&
	grep "series 6.1 -> 6.6, includes the 6.2, 6.3, 6.4, 6.5 and 6.6 merge windows: " actual
'

test_expect_success 'every configured branch when none is named, each line prefixed' '
	cd tree &&
	{
		expected_log linux-rolling-stable "linux-rolling-stable: " &&
		expected_log linux-rolling-lts "linux-rolling-lts: "
	} >expect &&
	git rolling log >actual &&
	test_cmp expect actual
'

test_expect_success '-<n>, -n <n> and --max-count keep the newest steps' '
	cd tree &&
	expected_log_fields linux-rolling-stable >full &&
	head -n 3 full | log_format >expect &&
	git rolling log -3 linux-rolling-stable >actual &&
	test_cmp expect actual &&
	git rolling log -n 3 linux-rolling-stable >actual &&
	test_cmp expect actual &&
	git rolling log --max-count=3 linux-rolling-stable >actual &&
	test_cmp expect actual &&
	git rolling log -0 linux-rolling-stable >actual &&
	test_must_be_empty actual
'

test_expect_success '--reverse shows the oldest first, after -<n> chose the newest' '
	cd tree &&
	expected_log_fields linux-rolling-stable >full &&
	sed -n "1!G;h;\$p" full | log_format >expect &&
	git rolling log --reverse linux-rolling-stable >actual &&
	test_cmp expect actual &&
	head -n 2 full | sed -n "1!G;h;\$p" | log_format >expect &&
	git rolling log -2 --reverse linux-rolling-stable >actual &&
	test_cmp expect actual
'

test_expect_success '--switches lists only the series switches' '
	cd tree &&
	expected_log_fields linux-rolling-stable >full &&
	grep "|series " full | log_format >expect &&
	test_line_count -ge 5 expect &&
	git rolling log --switches linux-rolling-stable >actual &&
	test_cmp expect actual
'

test_expect_success '--since shows the steps after a step, named by merge or release' '
	cd tree &&
	expected_log_fields linux-rolling-stable >full &&
	since=$(git rev-parse linux-rolling-stable~5) &&
	head -n 5 full | log_format >expect &&
	git rolling log --since $since linux-rolling-stable >actual &&
	test_cmp expect actual &&
	release=$(git log -1 --format=%s $since | sed "s/^Merge //") &&
	git rolling log --since "$release" linux-rolling-stable >actual &&
	test_cmp expect actual &&
	git rolling log --since linux-rolling-stable linux-rolling-stable >actual &&
	test_must_be_empty actual
'

test_expect_success '--since a commit that is no step is an error' '
	cd tree &&
	test_expect_code 128 git rolling log --since master linux-rolling-stable 2>err &&
	grep "^fatal: --since: .master. is not a step of linux-rolling-stable$" err &&
	test_expect_code 128 git rolling log --since no-such-rev linux-rolling-stable 2>err &&
	grep "^fatal: --since: bad revision .no-such-rev.$" err
'

test_expect_success 'a fetched branch, read with --preset or the default patterns' '
	cd tree &&
	git update-ref refs/remotes/origin/linux-rolling-stable linux-rolling-stable &&
	expected_log linux-rolling-stable >expect &&
	git rolling log --preset linux origin/linux-rolling-stable >actual &&
	test_cmp expect actual &&
	git rolling log origin/linux-rolling-stable >actual &&
	test_cmp expect actual
'

test_expect_success 'ids are abbreviated as git abbreviates them: core.abbrev' '
	cd tree &&
	git -c core.abbrev=12 rolling log -3 linux-rolling-stable >actual &&
	for id in $(git rev-list --first-parent -3 linux-rolling-stable)
	do
		git rev-parse --short=12 $id || return 1
	done >expect &&
	awk "{ print \$3 }" actual >ids &&
	test_cmp expect ids &&
	test_expect_code 128 git -c core.abbrev=3 rolling log linux-rolling-stable 2>err &&
	if test "$(test_ref_format)" = reftable
	then
		# git, asked to read the refs, refuses the setting first, in its words
		grep "^fatal: .*: unable to parse .core.abbrev. from command-line config$" err
	else
		grep "^fatal: core.abbrev: abbrev length out of range: 3$" err
	fi
'

# 2^14 packed objects make git's automatic abbreviation 8 digits long.
test_expect_success 'ids are abbreviated as git abbreviates them: auto grows with the packs' '
	cd tree &&
	awk "BEGIN { for (i = 0; i < 17000; i++) printf \"blob\\ndata <<EOT\\nfiller %d\\nEOT\\n\", i }" |
	MALLOC_TOP_PAD_=$STABLE_TOP_PAD git fast-import --quiet &&
	test $(git rev-parse --short HEAD | wc -c) -eq 9 &&
	expected_log linux-rolling-stable >expect &&
	git rolling log linux-rolling-stable >actual &&
	test_cmp expect actual &&
	test $(head -n 1 actual | awk "{ print length(\$3) }") -ge 8
'

test_expect_success '--json: the steps, the ids in full and the counts' '
	cd tree &&
	git rolling log --json -4 linux-rolling-stable >json &&
	test "$(jq -r ".version" json)" = 1 &&
	test "$(jq -r ".branches[0].name" json)" = linux-rolling-stable &&
	test "$(jq -r ".branches[0].tip" json)" = "$(git rev-parse linux-rolling-stable)" &&
	jq -r ".branches[0].steps[] | \"\(.commit) \(.release) \(.commits)\"" json >actual &&
	git log --first-parent -5 --format="%H %s" linux-rolling-stable | sed "s/ Merge / /" >steps &&
	while read commit release
	do
		if test -n "$prev"
		then
			echo "$prev $prev_release $(git rev-list --count $release..$prev_release)"
		fi &&
		prev=$commit prev_release=$release || return 1
	done <steps >expect &&
	test_cmp expect actual &&
	test "$(jq -r ".branches[0].steps[0].date" json)" = \
		"$(git log -1 --format=%cI linux-rolling-stable)"
'

test_expect_success '--json marks the base and the switches' '
	cd tree &&
	git rolling log --json --switches linux-rolling-lts >json &&
	jq -r ".branches[0].steps[] | \"\(.from_series) \(.series) \(.series_switch)\"" json >actual &&
	grep "^6.1 6.6 true$" actual &&
	git rolling log --json --reverse -1 --since linux-rolling-lts~0 linux-rolling-lts >json &&
	test "$(jq ".branches[0].steps | length" json)" = 0 &&
	git rolling log --json --reverse linux-rolling-lts >json &&
	test "$(jq -r ".branches[0].steps[0].base" json)" = true &&
	test "$(jq -r ".branches[0].steps[0].commits" json)" = null
'

test_expect_success 'progress: forced with --progress, none on a pipe' '
	cd tree &&
	steps=$(git rev-list --count --first-parent --merges linux-rolling-stable) &&
	GIT_PROGRESS_DELAY=0 git rolling log --progress linux-rolling-stable >/dev/null 2>err &&
	tr "\r" "\n" <err >lines &&
	grep "^Counting commits: 100% ($steps/$steps), done.$" lines &&
	printf "Counting commits: %3d%% (1/%d)\n" $((100 / steps)) $steps >first &&
	grep -x -F -f first lines &&
	GIT_PROGRESS_DELAY=0 git rolling log linux-rolling-stable >/dev/null 2>err &&
	test_must_be_empty err &&
	GIT_PROGRESS_DELAY=0 git rolling log --no-progress linux-rolling-stable >/dev/null 2>err &&
	test_must_be_empty err
'

# The delay is an hour, not the default two seconds: a run that is quick
# on a quiet machine can take longer than that beside a loaded suite.
test_expect_success 'progress: a run quicker than the delay shows none' '
	cd tree &&
	GIT_PROGRESS_DELAY=3600 git rolling log --progress linux-rolling-stable >/dev/null 2>err &&
	test_must_be_empty err
'

test_expect_success 'systemd with lightweight tags: the same oracle' '
	STABLE_LIGHTWEIGHT_TAGS=1 STABLE_COMMITS_PER_WEEK=10 stable_tree_systemd sd &&
	cd sd &&
	test "$(git cat-file -t v255.1)" = commit &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	week=$(stable_tree_week_of . v254) &&
	stable_tree_replay . $week &&
	git rolling init -q --preset systemd --at v253.2 systemd-stable &&
	last=$(stable_tree_weeks .) &&
	advance_weekly . $week $last 16 2 &&
	LOG_RELEASE_RE="^v[0-9]+\.[0-9]+\$" &&
	LOG_CYCLE="development cycle" &&
	expected_log systemd-stable >expect &&
	git rolling log systemd-stable >actual &&
	test_cmp expect actual &&
	grep "series 255 -> 256, includes the 256 development cycle: " actual &&
	! grep "merge window" actual
'

test_expect_success 'not a rolling branch: an error that names the commit' '
	cd tree &&
	test_expect_code 128 git rolling log --preset linux master 2>err &&
	grep "^fatal: master: [0-9a-f]* is neither a rolling merge nor a release commit$" err
'

test_done
