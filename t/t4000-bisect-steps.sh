#!/bin/sh

test_description='bisect-helper steps: the rolling steps between two points

A linux-rolling-stable branch is grown week by week over a generated
stable tree, through several series switches; "steps" must list its
merges with the release each merged, the series, and the switches,
exactly as an oracle built from git rev-list and the merge subjects says.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

# expected_steps GOOD BAD: what steps should print, from plain git: the
# first-parent merges of GOOD..BAD, each with the release its subject
# names, which must be its second parent, and that release's series.
# One log for the merges and one rev-parse for all the releases.
expected_steps () {
	git log --first-parent --reverse --format="%H%x09%P%x09%s" "$1..$2" >oracle.merges &&
	prev=$(git log -1 --format=%s "$1" | sed -e 's/^Merge //' -e 's/^Linux /v/') &&
	awk -F "\t" '{ print (sub(/^Merge /, "", $3) ? $3 : "(not a merge subject)") "^{commit}" }' \
		oracle.merges >oracle.revs &&
	git rev-parse $(cat oracle.revs) >oracle.releases &&
	paste oracle.merges oracle.releases |
	awk -F "\t" -v prev="$prev" '
		function series_of(tag) {
			sub(/^v/, "", tag)
			sub(/\.[0-9]*$/, "", tag)
			return tag
		}
		BEGIN { prev_series = series_of(prev) }
		{
			split($2, parent, " ")
			tag = $3
			sub(/^Merge /, "", tag)
			if (parent[2] != $4) {
				print $1 " does not merge " tag
				exit 1
			}
			series = series_of(tag)
			if (series == prev_series)
				print $1, tag, series
			else
				print $1 " " tag " " series " (series switch from " prev_series ")"
			prev_series = series
		}
	'
}

test_expect_success 'setup: a rolling branch from week 11 to week 60' '
	rolling_history tree 11 60 &&
	cd tree &&
	test "$(git rev-parse linux-rolling-stable~0)" != "$(git rev-parse v5.19.2^{commit})" &&
	git rev-list --first-parent v5.19.2..linux-rolling-stable >../all-merges &&
	test_line_count -gt 40 ../all-merges
'

test_expect_success 'steps lists every step after the base by default' '
	cd tree &&
	git rolling bisect-helper steps >actual &&
	expected_steps v5.19.2 linux-rolling-stable >expect &&
	test_cmp expect actual
'

test_expect_success 'steps between two releases the branch merged' '
	cd tree &&
	git rolling bisect-helper steps v6.0.8 v6.2.3 >actual &&
	merge_of_608=$(git rev-list --first-parent linux-rolling-stable --grep="^Merge v6.0.8$") &&
	merge_of_623=$(git rev-list --first-parent linux-rolling-stable --grep="^Merge v6.2.3$") &&
	expected_steps "$merge_of_608" "$merge_of_623" >expect &&
	test_cmp expect actual &&
	head -n 1 actual | grep " v6.0.9 6.0$" &&
	tail -n 1 actual | grep " v6.2.3 6.2$"
'

test_expect_success 'series switches are marked' '
	cd tree &&
	git rolling bisect-helper steps v6.0.8 v6.2.3 >actual &&
	grep "(series switch" actual >switches &&
	test_line_count = 2 switches &&
	grep " v6.1.2 6.1 (series switch from 6.0)$" switches &&
	grep " v6.2.2 6.2 (series switch from 6.1)$" switches &&
	grep -B1 " v6.1.2 6.1 " actual | head -n 1 | grep " v6.0.11 6.0$"
'

test_expect_success 'points may be merges, revisions or release tags' '
	cd tree &&
	git rolling bisect-helper steps v6.0.8 v6.2.3 >expect &&
	good=$(git rev-list --first-parent linux-rolling-stable --grep="^Merge v6.0.8$") &&
	bad=$(git rev-list --first-parent linux-rolling-stable --grep="^Merge v6.2.3$") &&
	git rolling bisect-helper steps "$good" "$bad" >actual &&
	test_cmp expect actual &&
	git rolling bisect-helper steps "$good" "refs/tags/v6.2.3" >actual &&
	test_cmp expect actual &&
	n=$(git rev-list --first-parent --count "$bad..linux-rolling-stable") &&
	git rolling bisect-helper steps v6.0.8 "linux-rolling-stable~$n" >actual &&
	test_cmp expect actual
'

test_expect_success 'one argument: from there to the tip' '
	cd tree &&
	git rolling bisect-helper steps v6.3.9 >actual &&
	expected_steps "$(git rev-list --first-parent linux-rolling-stable --grep="^Merge v6.3.9$")" \
		linux-rolling-stable >expect &&
	test_cmp expect actual &&
	tail -n 1 actual | grep "^$(git rev-parse linux-rolling-stable) "
'

test_expect_success 'the base release is a point too' '
	cd tree &&
	git rolling bisect-helper steps v5.19.2 v5.19.4 >actual &&
	awk "{ print \$2 }" actual >releases &&
	printf "v5.19.3\nv5.19.4\n" >expect &&
	test_cmp expect releases
'

test_expect_success 'points in the wrong order are refused' '
	cd tree &&
	test_expect_code 128 git rolling bisect-helper steps v6.2.3 v6.0.8 2>err &&
	grep "^fatal: v6.2.3 (v6.2.3) is not older than v6.0.8 (v6.0.8) on linux-rolling-stable$" err &&
	test_expect_code 128 git rolling bisect-helper steps v6.2.3 v6.2.3 2>err &&
	grep "is not older than" err
'

test_expect_success 'points that are not steps are refused' '
	cd tree &&
	test_expect_code 128 git rolling bisect-helper steps --branch linux-rolling-stable \
		v6.0.8 master 2>err &&
	grep "^fatal: .master. is neither a step of linux-rolling-stable nor a release it merged$" err &&
	test_expect_code 128 git rolling bisect-helper steps --branch linux-rolling-stable \
		v6.0.8 v6.2.3~1 2>err &&
	grep "neither a step" err &&
	test_expect_code 128 git rolling bisect-helper steps v6.0.8 no-such-rev 2>err &&
	grep "^fatal: bad revision .no-such-rev.$" err
'

test_expect_success 'without --branch, the branch <bad> is on is used' '
	cd tree &&
	test_expect_code 128 git rolling bisect-helper steps v6.0.8 master 2>err &&
	grep "^fatal: .master. is not a step of any configured rolling branch" err
'

test_expect_success 'a branch git rolling does not manage, read with --preset' '
	cd tree &&
	git update-ref refs/remotes/origin/linux-rolling-stable linux-rolling-stable &&
	git rolling bisect-helper steps v6.0.8 v6.2.3 >expect &&
	git rolling bisect-helper steps --branch origin/linux-rolling-stable --preset linux \
		v6.0.8 v6.2.3 >actual &&
	test_cmp expect actual &&
	git rolling bisect-helper steps --branch origin/linux-rolling-stable \
		--release-pattern "v(?<major>[0-9]+)\.(?<minor>[0-9]+)\.(?<patch>[0-9]+)" \
		--mainline-pattern "v(?<major>[0-9]+)\.(?<minor>[0-9]+)(-rc(?<rc>[0-9]+))?" \
		v6.0.8 v6.2.3 >actual &&
	test_cmp expect actual &&
	test_expect_code 128 git rolling bisect-helper steps --branch origin/linux-rolling-stable \
		v6.0.8 v6.2.3 2>err &&
	grep "is not a rolling branch" err &&
	test_expect_code 128 git rolling bisect-helper steps --preset linux v6.0.8 v6.2.3 2>err &&
	grep "given with --branch" err &&
	test_expect_code 128 git rolling bisect-helper steps --branch origin/linux-rolling-stable \
		--preset nosuch v6.0.8 v6.2.3 2>err &&
	grep "unknown preset .nosuch." err
'

test_expect_success 'two configured branches: the one <bad> is on, or --branch' '
	cd tree &&
	git branch copy linux-rolling-stable &&
	for key in policy releasePattern mainlinePattern
	do
		git config "rolling.copy.$key" "$(git config "rolling.linux-rolling-stable.$key")" ||
		return 1
	done &&
	test_expect_code 128 git rolling bisect-helper steps v6.0.8 v6.2.3 2>err &&
	grep "^fatal: .v6.2.3. is on both linux-rolling-stable and copy; choose one with --branch$" err &&
	test_expect_code 128 git rolling bisect-helper steps 2>err &&
	grep "several rolling branches are configured" err &&
	git rolling bisect-helper steps --branch copy v6.0.8 v6.2.3 >actual &&
	git rolling bisect-helper steps -b linux-rolling-stable v6.0.8 v6.2.3 >expect &&
	test_cmp expect actual &&
	git branch -D copy &&
	git config --remove-section rolling.copy &&
	git rolling bisect-helper steps v6.0.8 v6.2.3 >actual &&
	test_cmp expect actual
'

test_expect_success 'a foreign commit on top of the branch is reported' '
	cd tree &&
	git branch broken linux-rolling-stable &&
	for key in policy releasePattern mainlinePattern
	do
		git config "rolling.broken.$key" "$(git config "rolling.linux-rolling-stable.$key")" ||
		return 1
	done &&
	git checkout -q broken &&
	echo local >local.txt &&
	git add local.txt &&
	git commit -q -m "a local change" &&
	git checkout -q master &&
	test_expect_code 128 git rolling bisect-helper steps --branch broken 2>err &&
	grep "^fatal: broken: [0-9a-f]* is neither a rolling merge nor a release commit$" err &&
	git rolling bisect-helper steps v6.0.8 v6.2.3 >actual &&
	test_line_count -gt 10 actual &&
	git branch -D broken &&
	git config --remove-section rolling.broken
'

test_expect_success 'usage' '
	cd tree &&
	test_expect_code 129 git rolling bisect-helper -h >out &&
	grep "^usage: git rolling bisect-helper steps" out &&
	grep "^   or: git rolling bisect-helper run <cmd>" out &&
	test_expect_code 129 git rolling bisect-helper steps -h >out &&
	grep -- "--branch <branch>" out &&
	test_expect_code 129 git rolling bisect-helper 2>err &&
	grep "^usage: " err &&
	test_expect_code 129 git rolling bisect-helper frobnicate 2>err &&
	grep "^error: unknown subcommand .frobnicate.$" err &&
	test_expect_code 129 git rolling bisect-helper steps a b c 2>err &&
	test_expect_code 129 git rolling bisect-helper steps --no-such-option 2>err &&
	grep "^error: unknown option .no-such-option.$" err &&
	test_expect_code 129 git rolling bisect-helper next extra 2>err
'

test_done
