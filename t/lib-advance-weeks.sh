# lib-advance-weeks.sh - the weekly simulation of t2100, for every kind
# of release tag.  The including script sets STABLE_SIGNED_TAGS or
# STABLE_LIGHTWEIGHT_TAGS (or neither: annotated, unsigned tags) and
# sources this after test-lib.sh, lib-stable-tree.sh and lib-rolling.sh.
#
# A generated Linux-style stable tree is replayed one week at a time; each
# week "git rolling advance" runs on a stable and an lts branch, first
# with --dry-run, and the result is checked against oracles written with
# plain git: the dry run announced the very ids, the tip descends from the
# old one, its tree is the policy target, every new merge has the rolling
# shape and embeds the release tag exactly when git would (a signed tag),
# and the git CLI recipe, merging by tag name, reproduces every merge.

# check_mergetag <merge>: a mergetag header iff the release tag is a
# signed tag object, holding that very object (git cat-file shows it
# with each line indented by one space).
check_mergetag () {
	git cat-file commit "$1" >"$TRASH_DIRECTORY/mergetag.commit" &&
	sed -n "/^mergetag /,/^\$/{ /^mergetag /s/^mergetag //p; /^ /s/^ //p; }" \
		"$TRASH_DIRECTORY/mergetag.commit" >"$TRASH_DIRECTORY/mergetag.actual" &&
	mergetag_release=$(git log -1 --format=%s "$1" | sed "s/^Merge //") &&
	if test "$STABLE_SIGNED_TAGS" = 1
	then
		git cat-file tag "$mergetag_release" >"$TRASH_DIRECTORY/mergetag.expect" &&
		test_cmp "$TRASH_DIRECTORY/mergetag.expect" "$TRASH_DIRECTORY/mergetag.actual"
	else
		test_must_be_empty "$TRASH_DIRECTORY/mergetag.actual"
	fi
}

LTS_SERIES="5.19 6.1 6.6"

test_expect_success 'setup: stable tree, nothing qualifies before 6.0-rc1' '
	stable_tree_linux tree &&
	cd tree &&
	stable_tree_replay . 10 &&
	test_expect_code 128 git rolling init --preset linux --stable linux-rolling-stable 2>err &&
	grep "^fatal: no series qualifies yet" err &&
	grep "^hint: use --at <release> to start at a release of your choice now$" err &&
	test_must_fail git rev-parse --verify -q refs/heads/linux-rolling-stable &&
	test -z "$(git config --get-regexp "^rolling\.")"
'

test_expect_success 'init both branches at week 11' '
	cd tree &&
	stable_tree_replay . 11 &&
	git rolling init --preset linux --stable linux-rolling-stable >out &&
	grep "^created .linux-rolling-stable. at v5.19.2 " out &&
	test "$(git rev-parse linux-rolling-stable)" = "$(git rev-parse v5.19.2^{commit})" &&
	test_expect_code 128 git rolling init --lts --series "$LTS_SERIES" linux-rolling-lts 2>err &&
	grep "no long-term series" err
'

test_expect_success 'the lts branch starts once 6.0 is final' '
	cd tree &&
	week=$(stable_tree_week_of . v6.0) &&
	stable_tree_replay . $week &&
	git rolling init --lts --series "$LTS_SERIES" linux-rolling-lts &&
	echo "$week" >../lts-week &&
	test "$(git rev-parse linux-rolling-lts)" = \
		"$(git rev-parse $(expected_lts_target . "$LTS_SERIES")^{commit})"
'

# check_week <branch> <expected-tag> <old-tip>
check_week () {
	new=$(git rev-parse "refs/heads/$1") &&
	git merge-base --is-ancestor "$2" "$new" &&
	test "$(git rev-parse "$new^{tree}")" = "$(git rev-parse "$2^{tree}")" &&
	if test "$3" != "$new"
	then
		git merge-base --is-ancestor "$3" "$new" &&
		git rev-list --first-parent "$3..$new" >merges &&
		test_line_count -le 2 merges &&
		while read merge
		do
			check_rolling_merge "$merge" >/dev/null &&
			check_mergetag "$merge" || return 1
		done <merges &&
		test "$(git log -1 --format=%s "$new")" = "Merge $2" &&
		recipe_reproduces "$3" "$new"
	fi
}

# A series is left at its newest release: every switch line of advance
# ("b: vA -> vB (id), series X -> Y") starts from the newest tag of X.
check_switches () {
	sed -n "s/^[^:]*: \(v[^ ]*\) -> .*, series \([^ ]*\) -> .*/\1 \2/p" "$1" |
	while read from series
	do
		newest=$(git tag -l "v$series.*" | grep -E "^v$series\.[0-9]+\$" | sort -V | tail -n 1) &&
		test "$from" = "$newest" || { echo "left $series at $from, not $newest"; return 1; }
	done
}

test_expect_success 'week by week, both branches follow their policies' '
	cd tree &&
	last=$(stable_tree_weeks .) &&
	week=$(($(cat ../lts-week) + 1)) &&
	: >../switches &&
	while test $week -le $last
	do
		stable_tree_replay . $week &&
		old_stable=$(git rev-parse linux-rolling-stable) &&
		old_lts=$(git rev-parse linux-rolling-lts) &&
		git rolling advance --dry-run >dry 2>err &&
		test_must_be_empty err &&
		git rolling advance >out 2>err &&
		test_must_be_empty err &&
		sed "s/ \[dry run\]$//" dry >dry.ids &&
		test_cmp dry.ids out &&
		{ grep ", series" out >>../switches || :; } &&
		check_switches out &&
		check_week linux-rolling-stable "$(expected_stable_target .)" "$old_stable" &&
		check_week linux-rolling-lts \
			"$(expected_lts_target . "$LTS_SERIES")" "$old_lts" ||
		{ echo "week $week failed"; cat out; return 1; }
		week=$((week + 1))
	done
'

test_expect_success 'series switches were made and reported' '
	grep "^linux-rolling-stable: v6.6.[0-9]* -> v6.7.[0-9]* (.*), series 6.6 -> 6.7$" switches &&
	grep "^linux-rolling-lts: v6.1.[0-9]* -> v6.6.[0-9]* (.*), series 6.1 -> 6.6$" switches &&
	test $(grep -c "^linux-rolling-stable:" switches) -ge 6
'

test_expect_success 'the first-parent chain holds one commit per step' '
	cd tree &&
	git rev-list --first-parent --min-parents=2 linux-rolling-stable >merges &&
	git rev-list --first-parent linux-rolling-stable >chain &&
	base=$(git rev-list --first-parent --max-parents=1 linux-rolling-stable | head -n 1) &&
	test "$base" = "$(git rev-parse v5.19.2^{commit})" &&
	git rev-list --first-parent "$base" >below-base &&
	test $(($(wc -l <merges) + $(wc -l <below-base))) -eq $(wc -l <chain)
'

test_expect_success 'up to date at the end, and fsck is clean' '
	cd tree &&
	git rolling advance >out &&
	grep "^linux-rolling-stable: up to date at $(expected_stable_target .)\$" out &&
	grep "^linux-rolling-lts: up to date at $(expected_lts_target . "$LTS_SERIES")\$" out &&
	git fsck --strict --no-dangling
'

