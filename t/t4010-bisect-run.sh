#!/bin/sh

test_description='bisect-helper run: both stages unattended

A real commit of a generated stable tree is the culprit: a commit is
"bad" when it contains it.  "bisect-helper run" must find exactly that
commit, and the release that first shipped it on linux-rolling-stable,
for a culprit inside a series and for culprits that arrived with a
series switch (merge window, release candidates, the new series'"'"' own
stable commits).
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

# expected_report CULPRIT: the three lines run prints, from plain git.
expected_report () {
	er_merge=$(first_step_containing linux-rolling-stable "$1") &&
	er_tag=$(git log -1 --format=%s "$er_merge" | sed -n "s/^Merge //p") &&
	er_prev=$(git log -1 --format=%s "$er_merge^1" | sed -e "s/^Merge //" -e "s/^Linux /v/") &&
	printf "first bad commit: %s %s\n" "$(git rev-parse "$1")" "$(git log -1 --format=%s "$1")" &&
	printf "first shipped: linux-rolling-stable at %s (merge %s, %s)\n" "$er_tag" \
		"$(git rev-parse --short "$er_merge")" \
		"$(git log -1 --format=%cd --date=short "$er_merge")" &&
	printf "previous release: %s\n" "$er_prev"
}

# bisect_run CULPRIT GOOD BAD: start, run, and check the report.
bisect_run () {
	git rolling bisect-helper start "$3" "$2" >start.out &&
	git rolling bisect-helper run "$TRASH_DIRECTORY/culprit-test" "$1" >run.out 2>run.err &&
	expected_report "$1" >expect &&
	test_cmp expect run.out &&
	test_path_is_missing .git/ROLLING_BISECT &&
	git_bisect_found "$1" &&
	git bisect reset >/dev/null 2>&1 &&
	test "$(git symbolic-ref HEAD)" = refs/heads/master &&
	test_path_is_missing .git/BISECT_START
}

test_expect_success 'setup: a rolling branch from week 11 to week 60' '
	rolling_history tree 11 60 &&
	write_culprit_test culprit-test &&
	cd tree &&
	git rolling bisect-helper steps >../steps &&
	test_line_count -gt 40 ../steps
'

test_expect_success 'a culprit inside a series' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.1.6..v6.1.7 | head -n 1) &&
	bisect_run "$culprit" v5.19.2 linux-rolling-stable &&
	grep "^first shipped: linux-rolling-stable at v6.1.7 " run.out &&
	grep "^previous release: v6.1.6$" run.out &&
	grep "^stage one: bisecting the [0-9]* steps of linux-rolling-stable after v5.19.2 (base" start.out &&
	grep "^stage one: the first bad step is v6.1.7 " run.err &&
	grep "^stage two: bisecting the 6.1 stable commits from v6.1.6 (good) to v6.1.7 (bad)$" run.err &&
	cp run.out ../run.top
'

# git 2.39 bisects only at the top of the work tree (t4030 checks the
# refusal); from git 2.40 the helper runs wherever git bisect does.
test_expect_success 'setup: does git bisect in a subdirectory?' '
	mkdir tree/sub &&
	git_bisects_in_subdirectory tree/sub
'

test_expect_success BISECT_IN_SUBDIRECTORY 'from a subdirectory: the result from the top' '
	cd tree/sub &&
	culprit=$(git rev-list --reverse v6.1.6..v6.1.7 | head -n 1) &&
	git rolling bisect-helper start linux-rolling-stable v5.19.2 >start.out &&
	git rolling bisect-helper run "$TRASH_DIRECTORY/culprit-test" "$culprit" >run.out 2>run.err &&
	test_cmp "$TRASH_DIRECTORY/run.top" run.out &&
	git_bisect_found "$culprit" &&
	test_path_is_missing ../.git/ROLLING_BISECT &&
	git bisect reset >/dev/null 2>&1 &&
	test "$(git symbolic-ref HEAD)" = refs/heads/master
'

test_expect_success 'a culprit from a merge window, hidden behind a series switch' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.1..v6.2-rc1 | sed -n 2p) &&
	! git merge-base --is-ancestor "$culprit" v6.1.11 &&
	bisect_run "$culprit" v5.19.2 linux-rolling-stable &&
	grep "^first shipped: linux-rolling-stable at v6.2.2 " run.out &&
	grep "^previous release: v6.1.11$" run.out &&
	grep "^stage two: v6.2.2 switches series 6.1 -> 6.2, so git bisects the 6.2 mainline and stable commits from v6.1.11 (good) to v6.2.2 (bad)$" run.err &&
	grep "^git first asks to test their merge base $(git rev-parse --short v6.1^{commit}) (v6.1)$" run.err
'

test_expect_success 'a culprit from a release candidate' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.3-rc3..v6.3-rc4 | head -n 1) &&
	bisect_run "$culprit" v6.0.5 v6.4.6 &&
	grep "^first shipped: linux-rolling-stable at v6.3.2 " run.out &&
	grep "^previous release: v6.2.11$" run.out
'

test_expect_success 'a stable commit of the new series, before its first release merged' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.2..v6.2.1 | head -n 1) &&
	bisect_run "$culprit" v6.1.3 v6.3.5 &&
	grep "^first shipped: linux-rolling-stable at v6.2.2 " run.out &&
	grep "^previous release: v6.1.11$" run.out
'

test_expect_success 'the last commit of a step: the release commit itself' '
	cd tree &&
	bisect_run v6.3.4^{commit} v6.3.2 v6.4.6 &&
	grep "^first bad commit: $(git rev-parse v6.3.4^{commit}) Linux 6.3.4$" run.out &&
	grep "^first shipped: linux-rolling-stable at v6.3.4 " run.out
'

test_expect_success 'a bad step right after the good one needs no stage one' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.0.6..v6.0.7 | head -n 1) &&
	bisect_run "$culprit" v6.0.6 v6.0.7 &&
	grep "^stage one is over: the first bad step is v6.0.7 " start.out &&
	grep "^first shipped: linux-rolling-stable at v6.0.7 " run.out
'

test_expect_success 'run accepts -- and passes options on to the command' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.1.8..v6.1.9 | tail -n 1) &&
	git rolling bisect-helper start v6.1.10 v6.1.7 >start.out &&
	git rolling bisect-helper run -- sh -c "exec \"\$0\" \"\$@\"" \
		"$TRASH_DIRECTORY/culprit-test" "$culprit" >run.out 2>run.err &&
	expected_report "$culprit" >expect &&
	test_cmp expect run.out &&
	git bisect reset >/dev/null 2>&1
'

# git bisect run relays the tester'"'"'s output and the culprit'"'"'s subject
# raw; a tester that leaves the terminal concealing (ESC[8m) must not
# hide the report that follows: the terminal is reset after git bisect
# run, on the terminals stdout and stderr are.
test_expect_success PERL,SCRIPT 'text that git bisect run relays cannot hide the report' '
	cd tree &&
	culprit=$(git rev-list --reverse v6.1.8..v6.1.9 | tail -n 1) &&
	git rolling bisect-helper start v6.1.10 v6.1.7 >start.out &&
	cat >../concealing-test <<-EOF &&
	#!/bin/sh
	printf "\033[8m"
	printf "\033[8m" >&2
	exec "$TRASH_DIRECTORY/culprit-test" "\$@"
	EOF
	chmod +x ../concealing-test &&
	script -qec "git rolling bisect-helper run \"$TRASH_DIRECTORY/concealing-test\" $culprit" \
		/dev/null >../typescript &&
	grep -a "first shipped: linux-rolling-stable at v6.1.9" ../typescript &&
	cat >../reset-before-report.pl <<-\EOF &&
	local $/;
	my $text = <STDIN>;
	$text =~ /.*\e\[8m(.*?)first bad commit:/s or exit 2;
	exit($1 =~ /\e\[0?m/ ? 0 : 1);
	EOF
	perl ../reset-before-report.pl <../typescript &&
	git bisect reset >/dev/null 2>&1
'

test_expect_success 'a command that aborts git bisect run leaves the bisection to the user' '
	cd tree &&
	git rolling bisect-helper start v6.4.6 v5.19.2 >start.out &&
	test_expect_code 1 git rolling bisect-helper run sh -c "exit 255" >run.out 2>run.err &&
	grep "^error: git bisect run did not single out a step" run.err &&
	test_must_be_empty run.out &&
	test_path_is_file .git/BISECT_START &&
	test_path_is_file .git/ROLLING_BISECT &&
	git rolling bisect-helper reset >/dev/null 2>&1 &&
	test_path_is_missing .git/BISECT_START &&
	test_path_is_missing .git/ROLLING_BISECT &&
	test "$(git symbolic-ref HEAD)" = refs/heads/master
'

test_expect_success 'the systemd scheme: no minor numbers, same two stages' '
	stable_tree_systemd sd &&
	stable_tree_replay sd 8 &&
	git -C sd rolling init -q --preset systemd rolling &&
	advance_weekly sd 8 25 &&
	cd sd &&
	culprit=$(git rev-list --reverse v254..v255-rc1 | sed -n 2p) &&
	git rolling bisect-helper start rolling v253.4 >start.out &&
	git rolling bisect-helper run "$TRASH_DIRECTORY/culprit-test" "$culprit" >run.out 2>run.err &&
	grep "^first bad commit: $culprit " run.out &&
	# systemd switches at the first point release of a series (v255.1).
	grep "^first shipped: rolling at v255.1 (merge " run.out &&
	grep "^previous release: v254.6$" run.out &&
	grep "^stage two: v255.1 switches series 254 -> 255, so git bisects the 255 mainline" run.err &&
	grep "^git first asks to test their merge base [0-9a-f]* (v254)$" run.err &&
	git bisect reset >/dev/null 2>&1
'

test_expect_success 'run needs a bisection started by start' '
	cd tree &&
	test_expect_code 128 git rolling bisect-helper run true 2>err &&
	grep "^fatal: no rolling bisection in progress" err &&
	test_expect_code 129 git rolling bisect-helper run 2>err &&
	grep "^usage: " err
'

test_done
