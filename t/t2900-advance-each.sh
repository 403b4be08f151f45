#!/bin/sh

test_description='advance with rolling.<branch>.steps = each

A Linux-style stable tree is replayed week by week and advanced at an
uneven cadence, so that several releases pile up between two runs.  A
branch made with "init --each" must merge every release of its series,
one merge each, in version order, and at a series switch each remaining
release of the old series before the newest of the new one.  The oracle
is plain git: the release tags between two steps (sort -V), merged by tag
name with the maintainers'\'' recipe in a work tree of its own; the two
branches must stay commit for commit the same.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# The signed fixtures sign with a throwaway SSH key.
if ssh-keygen -q -t ed25519 -N "" -C probe -f "$TRASH_DIRECTORY/probe.key" >/dev/null 2>&1
then
	test_set_prereq SSHSIGN
fi

STABLE_MAINLINE="6.0 6.1 6.2 6.3 6.4 6.5"
export STABLE_MAINLINE

# new_tree <dir>: a stable tree with a rolling branch made with --each
# where the stable policy first has a series, and beside it the
# maintainer's work tree on branch "maint" at the same commit.
new_tree () {
	stable_tree_linux "$1" &&
	(
		cd "$1" &&
		week=$(stable_tree_week_of . v6.1-rc1) &&
		stable_tree_replay . $week &&
		git rolling init -q --each linux-rolling-stable &&
		test "$(git config rolling.linux-rolling-stable.steps)" = each &&
		expected_stable_target . >../"$1".from &&
		echo $week >../"$1".week &&
		git worktree add -q -b maint ../"$1"-maint linux-rolling-stable
	)
}

# one_run <dir>: replay the next week of the cadence (1, 2, 3, 1, ...
# weeks on), advance, and check the run against the oracle.  Returns 2
# at the end of the time line.
one_run () {
	week=$(cat "$1.week") && from=$(cat "$1.from") &&
	week=$((week + 1 + week % 3)) &&
	test $week -le $(stable_tree_weeks "$1") || return 2
	echo $week >"$1.week" &&
	(
		cd "$1" &&
		stable_tree_replay . $week &&
		to=$(expected_stable_target .) &&
		old=$(git rev-parse linux-rolling-stable) &&
		expected_each_steps "$from" "$to" >../steps.expect &&
		git rolling advance --dry-run --porcelain >../dry &&
		git rolling advance --porcelain >../out 2>../err &&
		test_must_be_empty ../err &&
		test_cmp ../dry ../out &&
		sed -n "s/^step linux-rolling-stable [^ ]* \([^ ]*\) .*/\1/p" ../out >../steps.actual &&
		test_cmp ../steps.expect ../steps.actual &&
		sed -n "s/^step [^ ]* [^ ]* [^ ]* \([^ ]*\) .*/\1/p" ../out >../ids.actual &&
		git rev-list --reverse --first-parent "$old..linux-rolling-stable" >../ids.expect &&
		test_cmp ../ids.expect ../ids.actual &&
		(
			cd ../"$1"-maint &&
			while read tag
			do
				recipe_step "$tag" || return 1
			done <../steps.expect
		) &&
		test "$(git rev-parse maint)" = "$(git rev-parse linux-rolling-stable)" &&
		{ echo "week $week" && cat ../steps.expect; } >>../"$1".log &&
		echo "$to" >../"$1".from
	) || { echo "week $week failed"; cat out; return 1; }
}

simulate () {
	while :
	do
		one_run "$1"
		case $? in
		0) ;;
		2) return 0 ;;
		*) return 1 ;;
		esac
	done
}

test_expect_success 'annotated tags: week by week, one merge per release, as the recipe' '
	new_tree annotated &&
	simulate annotated
'

# A run that switched series after catching up with at least two
# releases of the old one: "week" lines start a run; a run's releases
# are in order, so a switch is a change of series within a run.
switch_after_catch_up () {
	awk '
		/^week / { n = 0; series = ""; next }
		{
			s = $0; sub(/\.[0-9]+$/, "", s)
			if (series != "" && s != series && n >= 2) found = 1
			if (s != series) { series = s; n = 0 }
			n++
		}
		END { exit !found }
	' "$1"
}

test_expect_success 'the runs merged several releases, and switched after catching up' '
	grep -c "^v" annotated.log >merges &&
	test $(cat merges) -gt $(grep -c "^week" annotated.log) &&
	switch_after_catch_up annotated.log
'

test_expect_success 'one merge for every release merged, and it verifies bit for bit' '
	(
		cd annotated &&
		git rev-list --first-parent --min-parents=2 linux-rolling-stable >merges &&
		test_line_count = $(grep -c "^v" ../annotated.log) merges &&
		git rolling verify --rebuild linux-rolling-stable >out &&
		grep "^linux-rolling-stable: verified, merges rebuilt bit for bit$" out
	)
'

test_expect_success 'lightweight tags: the same' '
	STABLE_LIGHTWEIGHT_TAGS=1 new_tree lightweight &&
	simulate lightweight &&
	test_cmp annotated.log lightweight.log
'

test_expect_success SSHSIGN 'SSH-signed tags: the same, every merge embedding its tag as git does' '
	STABLE_SIGNED_TAGS=1 new_tree signed &&
	git -C signed verify-tag v6.0.1 2>/dev/null &&
	simulate signed &&
	test_cmp annotated.log signed.log &&
	(
		cd signed &&
		git cat-file commit linux-rolling-stable >../commit &&
		tag=$(sed -n "s/^Merge //p" ../commit) &&
		grep -c "^mergetag object $(git rev-parse "$tag^{commit}")$" ../commit >../count &&
		echo 1 >../one &&
		test_cmp ../one ../count &&
		git rolling verify --rebuild --signatures linux-rolling-stable >/dev/null
	)
'

test_expect_success 'dry run: one line per release, with the ids advance then makes' '
	(
		cd annotated &&
		git rolling init -q --each --at v6.4.1 late &&
		git rolling advance --dry-run late >../dry &&
		git rolling advance late >../out &&
		expected_each_steps v6.4.1 "$(expected_stable_target .)" >../expect
	) &&
	test $(wc -l <expect) -ge 3 &&
	test_line_count = $(wc -l <expect) dry &&
	! grep -v " \[dry run\]$" dry &&
	sed -e "s/ \[dry run\]$//" dry >dry.stripped &&
	test_cmp dry.stripped out
'

test_expect_success '--series ahead of the policy: the rest of the old series, then the newest of the new' '
	(
		cd annotated &&
		git rolling init -q --each --at v6.3.2 ahead &&
		test "$(expected_stable_target .)" != "$(git tag -l "v6.5.*" | sort -V | tail -n 1)" &&
		expected_each_steps v6.3.2 "$(git tag -l "v6.5.*" | sort -V | tail -n 1)" >../expect &&
		git rolling advance --porcelain --series 6.5 ahead >../out &&
		sed -n "s/^step ahead [^ ]* \([^ ]*\) .*/\1/p" ../out >../actual &&
		test_cmp ../expect ../actual &&
		tail -n 1 ../out >../last &&
		grep " 6.3 6.5$" ../last &&
		git rolling verify ahead >/dev/null
	)
'

test_expect_success 'a bad rolling.<branch>.steps is refused; init --force without --each drops it' '
	(
		cd annotated &&
		git config rolling.late.steps sometimes &&
		git for-each-ref >../before &&
		test_expect_code 128 git rolling advance late 2>../err &&
		grep "^fatal: rolling.late.steps: unknown value .sometimes. (expected .newest. or .each.)$" ../err &&
		git for-each-ref >../after &&
		test_cmp ../before ../after &&
		git rolling init -q --force --at v6.4.1 late &&
		test_must_fail git config rolling.late.steps &&
		git rolling advance --porcelain late >../out &&
		expected_stable_target . >../target
	) &&
	test_line_count = 1 out &&
	grep "^step late v6.4.1 $(cat target) " out
'

test_done
