#!/bin/sh

test_description='git rolling init --adopt

A rolling branch built by hand with the maintainers'\'' recipe (merging by
tag name, one merge per release, with their identity) is adopted without
being moved, and advance then continues it: every new merge must be the
very commit the recipe makes next.  A branch that does not verify is
refused and nothing is written.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# The signed fixtures sign with a throwaway SSH key.
if ssh-keygen -q -t ed25519 -N "" -C probe -f "$TRASH_DIRECTORY/probe.key" >/dev/null 2>&1
then
	test_set_prereq SSHSIGN
fi

MAINT_NAME="Greg KH"
MAINT_EMAIL="gregkh@example.org"

# snapshot: everything init could change, to prove a refusal changed nothing.
snapshot () {
	{ git for-each-ref && git config --list --local && cat "$(git rev-parse --git-dir)/config"; } >"$1"
}

# by_hand <tag>...: the maintainer merges these releases, one merge
# each, in his work tree $HAND_WT (recipe_step, with the dates of all
# the release commits read by one git log, in the order given).
HAND_WT=../hand-wt
by_hand () {
	test $# -gt 0 || return 0
	(
		cd "$HAND_WT" &&
		for tag
		do
			echo "$tag^{commit}"
		done >"$TRASH_DIRECTORY/by-hand.revs" &&
		git log --no-walk=unsorted --format="%ad %cd" --date=raw \
			$(cat "$TRASH_DIRECTORY/by-hand.revs") >"$TRASH_DIRECTORY/by-hand.dates" &&
		test $(wc -l <"$TRASH_DIRECTORY/by-hand.dates") = $# &&
		for tag
		do
			read atime azone ctime czone &&
			recipe_commit_ "$tag" "$atime $azone" "$ctime $czone" \
				"$MAINT_NAME" "$MAINT_EMAIL" || return 1
		done <"$TRASH_DIRECTORY/by-hand.dates"
	)
}

newest_of () {
	git tag -l "v$1.*" | grep -E "^v$1\.[0-9]+$" | sort -V | tail -n 1
}

test_expect_success 'setup: a rolling branch made by hand, one merge per release' '
	stable_tree_linux tree &&
	cd tree &&
	stable_tree_replay . 40 &&
	git worktree add -q -b hand ../hand-wt v6.1.1 &&
	by_hand $(expected_each_steps v6.1.1 "$(newest_of 6.1)") v6.2.1 v6.2.2 &&
	git rev-list --first-parent --min-parents=2 hand >merges &&
	test_line_count = $(($(expected_each_steps v6.1.1 "$(newest_of 6.1)" | wc -l) + 2)) merges &&
	git log -1 --format=%s hand >subject &&
	echo "Merge v6.2.2" >expect &&
	test_cmp expect subject
'

test_expect_success 'refused: a branch that does not exist' '
	cd tree &&
	snapshot ../before &&
	test_expect_code 128 git rolling init --adopt ghost 2>err &&
	grep "^fatal: --adopt: there is no branch named .ghost.$" err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'refused: a commit of its own on top of the merges' '
	cd tree &&
	git branch tampered hand &&
	git -C ../hand-wt commit -q --allow-empty -m "a commit of our own" &&
	git branch -f tampered "$(git -C ../hand-wt rev-parse HEAD)" &&
	git -C ../hand-wt reset -q --hard HEAD^ &&
	snapshot ../before &&
	test_expect_code 128 git rolling init --adopt tampered 2>err &&
	grep "^error: tampered: $(git rev-parse tampered): injected: " err &&
	grep "^hint: .git rolling verify. with the same tag patterns lists every failure$" err &&
	grep "^fatal: .tampered. does not verify as a rolling branch (1 failure); nothing configured$" err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'refused: a merge whose tree is not the release'\''s' '
	cd tree &&
	other=$(git commit-tree -p hand^ -p v6.2.2^{commit} -m "Merge v6.2.2" "$(git rev-parse v6.2.1^{tree})") &&
	git branch -f tampered $other &&
	snapshot ../before &&
	test_expect_code 128 git rolling init --adopt tampered 2>err &&
	grep "^error: tampered: $other: tree: " err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'refused: --adopt with --at, and a branch configured already' '
	cd tree &&
	snapshot ../before &&
	test_expect_code 128 git rolling init --adopt --at v6.2.1 hand 2>err &&
	grep "^fatal: options .--adopt. and .--at. cannot be used together$" err &&
	snapshot ../after &&
	test_cmp ../before ../after &&
	git rolling init -q --at v6.2.1 configured &&
	snapshot ../before &&
	test_expect_code 128 git rolling init --adopt configured 2>err &&
	grep "^fatal: rolling.configured.\* is already configured (use --force to replace it)$" err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'a branch made with another identity draws a hint' '
	cd tree &&
	git branch copy hand &&
	git rolling init -q --adopt copy 2>err &&
	grep "^hint: the tip was committed by .$MAINT_NAME <$MAINT_EMAIL>.; use --ident" err &&
	test "$(git rev-parse copy)" = "$(git rev-parse hand)"
'

test_expect_success 'a branch signed off otherwise draws a hint' '
	cd tree &&
	git branch copy-unsigned hand &&
	git rolling init -q --adopt --no-signoff --ident "$MAINT_NAME <$MAINT_EMAIL>" \
		copy-unsigned 2>err &&
	grep "^hint: the tip has a Signed-off-by trailer; use --signoff to match it$" err &&
	test_line_count = 1 err
'

test_expect_success 'adopt: only the configuration is written' '
	cd tree &&
	git for-each-ref >../refs.before &&
	git rolling init --adopt --each --ident "$MAINT_NAME <$MAINT_EMAIL>" hand >out 2>err &&
	test_must_be_empty err &&
	grep "^adopted .hand. at v6.2.2 ($(git rev-parse --short=7 hand)), series 6.2$" out &&
	grep "^policy stable follows 6.2$" out &&
	git for-each-ref >../refs.after &&
	test_cmp ../refs.before ../refs.after &&
	cat >expect <<-EOF &&
	rolling.hand.policy stable
	rolling.hand.releasepattern
	rolling.hand.mainlinepattern
	rolling.hand.ident $MAINT_NAME <$MAINT_EMAIL>
	rolling.hand.steps each
	rolling.hand.switch next-rc1
	rolling.hand.signoff true
	EOF
	git config --get-regexp "^rolling\.hand\." >config &&
	sed -e "s/pattern .*/pattern/" config >actual &&
	test_cmp expect actual &&
	for key in releasepattern mainlinepattern
	do
		test "$(git config rolling.hand.$key)" = "$(git config rolling.configured.$key)" || return 1
	done
'

# continue_week <week>: replay up to <week>; advance continues the hand
# branch, and the maintainer, whose work tree is still at the old tip,
# merges by hand what the oracle lists: the two must be the same commits.
continue_week () {
	from=$(git log -1 --format=%s hand | sed -e "s/^Merge //") &&
	stable_tree_replay . $1 &&
	git rolling advance --porcelain hand >../out &&
	expected_each_steps "$from" "$(expected_stable_target .)" >../expect &&
	test -s ../expect &&
	sed -n "s/^step hand [^ ]* \([^ ]*\) .*/\1/p" ../out >../actual &&
	test_cmp ../expect ../actual &&
	by_hand $(cat ../expect) &&
	test "$(git -C "$HAND_WT" rev-parse HEAD)" = "$(git rev-parse hand)"
}

# made_by_hand_then_adopted <dir>: the whole story in a tree of its own:
# made by hand up to week 40, adopted, continued every other week past
# the switch to 6.3.
made_by_hand_then_adopted () {
	(
		cd "$1" &&
		HAND_WT=../$1-wt &&
		stable_tree_replay . 40 &&
		git worktree add -q --detach "$HAND_WT" v6.1.1 &&
		by_hand $(expected_each_steps v6.1.1 "$(newest_of 6.1)") v6.2.1 v6.2.2 &&
		git branch hand "$(git -C "$HAND_WT" rev-parse HEAD)" &&
		git rolling init -q --adopt --each --ident "$MAINT_NAME <$MAINT_EMAIL>" hand &&
		week=40 &&
		switch=$(stable_tree_week_of . v6.4-rc1) &&
		while test $week -le $((switch + 1))
		do
			week=$((week + 2)) &&
			continue_week $week || return 1
		done &&
		test "$(git log -1 --format=%s hand)" = "Merge $(newest_of 6.3)" &&
		git rolling verify --rebuild hand >/dev/null
	)
}

test_expect_success 'advance continues it as the recipe would, through a series switch' '
	cd tree &&
	git worktree remove --force ../hand-wt &&
	git worktree add -q --detach ../hand-wt hand &&
	week=40 &&
	switch=$(stable_tree_week_of . v6.4-rc1) &&
	while test $week -le $((switch + 1))
	do
		week=$((week + 2)) &&
		continue_week $week || return 1
	done &&
	test "$(git log -1 --format=%s hand)" = "Merge $(newest_of 6.3)" &&
	git rolling verify --rebuild hand
'

# The same with other kinds of release tag, in make test-long: make test
# reads lightweight and signed release tags alike in t1300, and adopts
# and continues the annotated branch above.
test_expect_success EXPENSIVE 'lightweight tags: made by hand, adopted, continued as the recipe would' '
	STABLE_LIGHTWEIGHT_TAGS=1 stable_tree_linux light &&
	test "$(git -C light cat-file -t v6.2.2)" = commit &&
	made_by_hand_then_adopted light
'

test_expect_success EXPENSIVE,SSHSIGN 'SSH-signed tags: made by hand, adopted, continued as the recipe would' '
	STABLE_SIGNED_TAGS=1 stable_tree_linux signed &&
	git -C signed verify-tag v6.2.2 2>/dev/null &&
	made_by_hand_then_adopted signed &&
	git -C signed cat-file commit hand >commit &&
	grep "^mergetag object " commit &&
	git -C signed rolling verify --signatures hand >/dev/null
'

test_done
