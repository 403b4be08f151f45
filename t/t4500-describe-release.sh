#!/bin/sh

test_description='describe: the rolling release that first contained a commit

On a linux-rolling-stable branch grown week by week, "describe" must name
the same step as an oracle that asks git about every step in turn: for
stable commits, mainline commits that came with a series switch, release
commits, the merges themselves, commits already in the base release, and
commits not merged yet.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

# expected_describe BRANCH REV...: the line describe prints for each REV,
# from plain git: the oldest point of BRANCH's rolling chain that
# contains it (first_steps_table), named by the release it merged or,
# for the base, by its release commit's subject.  One git call for all
# the points, however many revisions.
expected_describe () {
	ed_branch=$1 &&
	shift &&
	ed_table=$(first_steps_table "$ed_branch") &&
	for ed_rev
	do
		echo "$ed_rev^{commit}" || return 1
	done >ed.revs &&
	git rev-parse $(cat ed.revs) >ed.commits &&
	awk 'FILENAME == ARGV[1] { point[$1] = $2; next }
	     { print ($1 in point) ? point[$1] : "-" }' "$ed_table" ed.commits >ed.points &&
	grep -v "^-\$" ed.points | sort -u >ed.known &&
	if test -s ed.known
	then
		git log --no-walk --stdin --format="%H %h %cd %s" --date=short <ed.known
	fi >ed.info &&
	awk -v branch="$ed_branch" '
		FILENAME == ARGV[1] {
			short[$1] = $2
			date[$1] = $3
			subject[$1] = $0
			sub(/^[^ ]* [^ ]* [^ ]* /, "", subject[$1])
			next
		}
		$1 == "-" { print "not in " branch " yet"; next }
		{
			tag = subject[$1]
			if (sub(/^Merge /, "", tag))
				kind = "merge"
			else {
				kind = "base"
				sub(/^Linux /, "v", tag)
			}
			printf "first in %s at %s (%s %s, %s)\n", branch, tag, kind, short[$1], date[$1]
		}
	' ed.info ed.points
}

# check_describe_each FILE: describe agrees with the oracle on every
# revision listed in FILE, each asked on its own, exit code too.
check_describe_each () {
	expected_describe linux-rolling-stable $(cat "$1") >expect &&
	paste -d " " "$1" expect >pairs &&
	while read cde_rev cde_line
	do
		case $cde_line in
		"first in "*) git rolling describe "$cde_rev" ;;
		*) test_expect_code 1 git rolling describe "$cde_rev" ;;
		esac || return 1
	done <pairs >actual &&
	test_cmp expect actual
}

# check_describe REV: the same for one revision.
check_describe () {
	echo "$1" >revs.one &&
	check_describe_each revs.one
}

test_expect_success 'setup: a rolling branch from week 11 to week 60' '
	rolling_history tree 11 60 &&
	cd tree &&
	test "$(rolling_points linux-rolling-stable | head -n 1)" = "$(git rev-parse v5.19.2^{commit})"
'

test_expect_success 'stable commits: the step that merged their release' '
	cd tree &&
	check_describe v5.19.5~1 &&
	grep "^first in linux-rolling-stable at v5.19.5 (merge " actual &&
	check_describe "$(git rev-list --reverse v6.1.6..v6.1.7 | head -n 1)" &&
	grep " at v6.1.7 " actual &&
	check_describe v6.3.9~1 &&
	grep " at v6.3.9 " actual
'

test_expect_success 'release tags and release commits' '
	cd tree &&
	check_describe v6.2.5 &&
	grep " at v6.2.5 (merge " actual &&
	check_describe v6.4.6^{commit} &&
	grep " at v6.4.6 (merge $(git rev-parse --short linux-rolling-stable), " actual
'

test_expect_success 'the merges themselves' '
	cd tree &&
	merge=$(git rev-list --first-parent linux-rolling-stable --grep="^Merge v6.0.4$") &&
	check_describe "$merge" &&
	grep "^first in linux-rolling-stable at v6.0.4 (merge $(git rev-parse --short "$merge"), $(git log -1 --format=%cd --date=short "$merge"))$" actual &&
	check_describe linux-rolling-stable
'

test_expect_success 'mainline commits arrive with the series switch' '
	cd tree &&
	check_describe "$(git rev-list --reverse v5.19..v6.0-rc1 | sed -n 2p)" &&
	grep " at v6.0.2 " actual &&
	check_describe v6.2-rc4 &&
	grep " at v6.2.2 " actual &&
	check_describe v6.3 &&
	grep " at v6.3.2 " actual &&
	check_describe v6.3.1^{commit} &&
	grep " at v6.3.2 " actual
'

test_expect_success 'commits already in the base release' '
	cd tree &&
	check_describe v5.19.2~1 &&
	grep "^first in linux-rolling-stable at v5.19.2 (base $(git rev-parse --short v5.19.2^{commit}), " actual &&
	check_describe v5.19-rc3 &&
	grep " at v5.19.2 (base " actual
'

test_expect_success 'commits not merged yet' '
	cd tree &&
	check_describe master &&
	test "$(cat actual)" = "not in linux-rolling-stable yet" &&
	check_describe "$(git rev-list --reverse v6.4..master | sed -n 3p)" &&
	check_describe linux-6.4.y &&
	check_describe linux-5.19.y &&
	git merge-base --is-ancestor v6.4.6 linux-6.4.y
'

test_expect_success 'every step of the branch, against the oracle' '
	cd tree &&
	rolling_points linux-rolling-stable >points &&
	git log --no-walk=unsorted --stdin --format="%H %P" <points >parents &&
	awk "{ print (NF > 2 ? \$3 : \$1) }" parents >releases &&
	test_line_count -gt 40 releases &&
	sed "s/\$/~1/" releases >revs &&
	check_describe_each revs
'

test_expect_success 'with a commit-graph git answers the ancestry questions, the same way' '
	cd tree &&
	git commit-graph write --reachable --no-progress &&
	test_when_finished "rm -f .git/objects/info/commit-graph" &&
	GIT_TRACE="$TRASH_DIRECTORY/trace" git rolling describe "$(sed -n 5p releases)~1" &&
	grep "merge-base --is-ancestor" "$TRASH_DIRECTORY/trace" &&
	# Every fourth step, the oldest and the newest among them: the test
	# above asks of every step without a graph.
	awk "NR % 4 == 1" revs >revs.sample &&
	tail -n 1 revs >>revs.sample &&
	check_describe_each revs.sample &&
	check_describe linux-5.19.y
'

test_expect_success 'several commits: one line each, exit 1 when one is missing' '
	cd tree &&
	test_expect_code 1 git rolling describe v6.1.7~1 master >actual &&
	{
		printf "v6.1.7~1: " && expected_describe linux-rolling-stable v6.1.7~1 &&
		printf "master: " && expected_describe linux-rolling-stable master
	} >expect &&
	test_cmp expect actual &&
	git rolling describe v6.1.7~1 v6.0.3 >actual &&
	test_line_count = 2 actual
'

test_expect_success 'quiet: only the exit code' '
	cd tree &&
	git rolling describe -q v6.1.7~1 >out 2>&1 &&
	test_must_be_empty out &&
	test_expect_code 1 git rolling describe --quiet master >out 2>&1 &&
	test_must_be_empty out
'

test_expect_success 'a branch git rolling does not manage, with --preset' '
	cd tree &&
	git update-ref refs/remotes/stable/linux-rolling-stable linux-rolling-stable &&
	git rolling describe --branch stable/linux-rolling-stable --preset linux v6.1.7~1 >actual &&
	expected_describe linux-rolling-stable v6.1.7~1 |
		sed "s|linux-rolling-stable|stable/linux-rolling-stable|" >expect &&
	test_cmp expect actual &&
	test_expect_code 128 git rolling describe --branch stable/linux-rolling-stable v6.1.7~1 2>err &&
	grep "^fatal: .stable/linux-rolling-stable. is not a rolling branch" err
'

test_expect_success 'every configured branch, or the one named' '
	cd tree &&
	git rolling init -q --lts --series "5.19 6.1 6.6" linux-rolling-lts &&
	lts_base=$(git log -1 --format=%s linux-rolling-lts | sed "s/^Linux /v/") &&
	git rolling describe v6.1.7~1 >actual &&
	{
		expected_describe linux-rolling-stable v6.1.7~1 &&
		expected_describe linux-rolling-lts v6.1.7~1
	} >expect &&
	test_cmp expect actual &&
	grep "^first in linux-rolling-lts at $lts_base (base " actual &&
	test_expect_code 1 git rolling describe v6.2.3~1 >actual &&
	grep "^first in linux-rolling-stable at v6.2.3 " actual &&
	grep "^not in linux-rolling-lts yet$" actual &&
	git rolling describe --branch linux-rolling-stable v6.2.3~1 >actual &&
	test_line_count = 1 actual
'

test_expect_success 'errors' '
	cd tree &&
	test_expect_code 128 git rolling describe no-such-commit 2>err &&
	grep "^fatal: bad revision .no-such-commit.$" err &&
	test_expect_code 128 git rolling describe "v6.1.7^{tree}" 2>err &&
	grep "^fatal: .v6.1.7^{tree}. does not name a commit$" err &&
	test_expect_code 128 git rolling describe --branch nosuch v6.1.7 2>err &&
	grep "^fatal: .nosuch. is not a rolling branch" err &&
	test_expect_code 128 git rolling describe --preset linux v6.1.7 2>err &&
	grep "given with --branch" err &&
	test_expect_code 129 git rolling describe 2>err &&
	grep "^usage: git rolling describe" err &&
	test_expect_code 129 git rolling describe -h >out &&
	grep "^usage: git rolling describe" out &&
	test_expect_code 129 git rolling describe --frob v6.1.7 2>err &&
	grep "^error: unknown option .frob.$" err
'

test_expect_success 'no rolling branch configured' '
	git init -q empty &&
	test_commit -C empty one &&
	test_expect_code 128 git -C empty rolling describe HEAD 2>err &&
	grep "^fatal: no rolling branches are configured" err
'

test_expect_success 'a foreign commit on the branch is an error, not a guess' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	test_when_finished "git checkout -q master && git branch -f linux-rolling-stable $tip" &&
	git checkout -q linux-rolling-stable &&
	echo local >local.c &&
	git add local.c &&
	git commit -q -m "local hack" &&
	git checkout -q master &&
	test_expect_code 128 git rolling describe --branch linux-rolling-stable v6.1.7 2>err &&
	grep "^fatal: linux-rolling-stable: [0-9a-f]* is neither a rolling merge nor a release commit$" err
'

test_done
