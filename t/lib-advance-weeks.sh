# lib-advance-weeks.sh - the weekly simulation of t2100, for every kind
# of release tag.  The including script sets STABLE_SIGNED_TAGS or
# STABLE_LIGHTWEIGHT_TAGS (or neither: annotated, unsigned tags), sources
# this after test-lib.sh, lib-stable-tree.sh and lib-rolling.sh, and
# calls advance_weeks_tests.
#
# A generated Linux-style stable tree is replayed one week at a time; each
# week "git rolling advance" runs on a stable and an lts branch, first
# with --dry-run, and the result is checked against oracles written with
# plain git: the dry run announced the very ids, the tip descends from the
# old one, its tree is the policy target, every new merge has the rolling
# shape and embeds the release tag exactly when git would (a signed tag),
# and the git CLI recipe, merging by tag name, reproduces every merge.
#
# Only what must happen week by week does: the replay of the week's tags,
# the dry run and the run of advance, and a record of the refs after it
# (<facts>/weeks/<1000 + week>.refs; the start week's too) and of what
# both runs printed (.dry, .out).  The checks then read the records of
# all weeks at once, with a few git processes in all, and name the week
# of any failure (lib-rolling.sh: expected_weekly_targets,
# check_rolling_chain, recipe_replay).

LTS_SERIES="5.19 6.1 6.6"

if test "$STABLE_SIGNED_TAGS" = 1
then
	MERGETAG=mergetag
else
	MERGETAG=no-mergetag
fi

# record_week <week>: the refs as they are now.
record_week () {
	git for-each-ref --format="%(objectname) %(refname)" \
		refs/heads/linux-rolling-stable refs/heads/linux-rolling-lts "refs/tags/v*" \
		>"$AW_FACTS/weeks/$(($1 + 1000)).refs"
}

# A series is left at its newest release: every switch line of advance
# ("b: vA -> vB (id), series X -> Y") starts from the newest release
# of X (sort -V) the week it was made.
check_weekly_switches () {
	awk 'substr($2, 1, 11) == "refs/tags/v" { print substr($2, 11) }' \
		"$AW_FACTS"/weeks/*.refs >"$AW_FACTS/names" &&
	sort -u -V "$AW_FACTS/names" >"$AW_FACTS/ranks" &&
	awk '
		FILENAME == ARGV[1] { rank[$0] = NR; next }
		{
			week = FILENAME
			sub(/.*\//, "", week)
			sub(/\..*/, "", week)
		}
		FILENAME ~ /\.refs$/ {
			if (substr($2, 1, 11) == "refs/tags/v")
				tags[week] = tags[week] " " substr($2, 11)
			next
		}
		/^[^:]*: v[^ ]* -> .*, series [^ ]* -> / {
			from = $2
			series = $0
			sub(/.*, series /, "", series)
			sub(/ .*/, "", series)
			newest = ""
			n = split(tags[week], t, " ")
			for (i = 1; i <= n; i++)
				if (index(t[i], "v" series ".") == 1 &&
				    substr(t[i], length(series) + 3) ~ /^[0-9]+$/ &&
				    (newest == "" || rank[t[i]] > rank[newest]))
					newest = t[i]
			if (from != newest) {
				print "week " week - 1000 ": left " series " at " from ", not " newest
				bad = 1
			}
		}
		END { exit bad }
	' "$AW_FACTS/ranks" "$AW_FACTS"/weeks/*.refs "$AW_FACTS"/weeks/*.out
}

# sample_weeks <first> <last>: the weeks of a representative replay
# (sample_switch_weeks) from the time line alone, for both policies.
sample_weeks () {
	timeline_refs "$AW_FACTS/plan" $2 &&
	expected_weekly_targets "$LTS_SERIES" "$AW_FACTS"/plan/*.refs >"$AW_FACTS/plan/targets" &&
	awk '
		function series(t) {
			sub(/\.[0-9]*$/, "", t)
			return t
		}
		{ print $1, series($2), series($3) }
	' "$AW_FACTS/plan/targets" |
	sample_switch_weeks $1 $2
}

# series_switches <targets>: from the "<n> <stable> <lts>" lines of
# expected_weekly_targets, oldest first, each change of a policy's
# series from one line to the next: "week 70: stable 6.6 -> 6.7".  A
# replay of sample_weeks is representative when it meets the very
# changes a replay of every week meets, each in its own week.
series_switches () {
	awk '
		function series(t) {
			sub(/\.[0-9]*$/, "", t)
			return t
		}
		{ s = series($2); l = series($3) }
		NR > 1 && s != ps { print "week " $1 - 1000 ": stable " ps " -> " s }
		NR > 1 && l != pl { print "week " $1 - 1000 ": lts " pl " -> " l }
		{ ps = s; pl = l }
	' "$1"
}

# advance_weeks_tests <dir> <prereq> every|sample: the tests of the
# replay on a tree generated in <dir>, under the prerequisite <prereq>
# (empty: none), with every week or with the weeks of sample_weeks.
advance_weeks_tests () {
	AW_DIR=$1 AW_PREREQ=$2 AW_WEEKS=$3
	AW_FACTS=$TRASH_DIRECTORY/$AW_DIR.facts

	test_expect_success $AW_PREREQ "$AW_DIR: setup: stable tree, nothing qualifies before 6.0-rc1" '
		mkdir "$AW_FACTS" "$AW_FACTS/weeks" &&
		stable_tree_linux $AW_DIR &&
		cd $AW_DIR &&
		stable_tree_replay . 10 &&
		test_expect_code 128 git rolling init --preset linux --stable linux-rolling-stable 2>err &&
		grep "^fatal: no series qualifies yet" err &&
		grep "^hint: use --at <release> to start at a release of your choice now$" err &&
		test_must_fail git rev-parse --verify -q refs/heads/linux-rolling-stable &&
		test -z "$(git config --get-regexp "^rolling\.")"
	'

	test_expect_success $AW_PREREQ "$AW_DIR: init both branches at week 11" '
		cd $AW_DIR &&
		stable_tree_replay . 11 &&
		git rolling init --preset linux --stable linux-rolling-stable >out &&
		grep "^created .linux-rolling-stable. at v5.19.2 " out &&
		test "$(git rev-parse linux-rolling-stable)" = "$(git rev-parse v5.19.2^{commit})" &&
		test_expect_code 128 git rolling init --lts --series "$LTS_SERIES" linux-rolling-lts 2>err &&
		grep "no long-term series" err
	'

	test_expect_success $AW_PREREQ "$AW_DIR: the lts branch starts once 6.0 is final" '
		cd $AW_DIR &&
		week=$(stable_tree_week_of . v6.0) &&
		stable_tree_replay . $week &&
		git rolling init --lts --series "$LTS_SERIES" linux-rolling-lts &&
		echo "$week" >"$AW_FACTS/lts-week" &&
		test "$(git rev-parse linux-rolling-lts)" = \
			"$(git rev-parse $(expected_lts_target . "$LTS_SERIES")^{commit})" &&
		record_week $week
	'

	test_expect_success $AW_PREREQ "$AW_DIR: week by week ($AW_WEEKS), advance runs clean, as its dry run announced" '
		cd $AW_DIR &&
		first=$(($(cat "$AW_FACTS/lts-week") + 1)) &&
		last=$(stable_tree_weeks .) &&
		if test $AW_WEEKS = every
		then
			seq $first $last
		else
			sample_weeks $first $last
		fi >"$AW_FACTS/replayed" &&
		test_line_count -gt 5 "$AW_FACTS/replayed" &&
		for week in $(cat "$AW_FACTS/replayed")
		do
			n=$AW_FACTS/weeks/$((week + 1000)) &&
			stable_tree_replay . $week &&
			git rolling advance --dry-run >$n.dry 2>err &&
			test_must_be_empty err &&
			git rolling advance >$n.out 2>err &&
			test_must_be_empty err &&
			record_week $week ||
			{ echo "week $week failed"; cat "$n.out"; return 1; }
		done &&
		weekly_lines "$AW_FACTS"/weeks/*.dry >"$AW_FACTS/dry" &&
		sed "s/ \[dry run\]$//" "$AW_FACTS/dry" >"$AW_FACTS/dry.ids" &&
		weekly_lines "$AW_FACTS"/weeks/*.out >"$AW_FACTS/out" &&
		test_cmp "$AW_FACTS/dry.ids" "$AW_FACTS/out"
	'

	test_expect_success $AW_PREREQ "$AW_DIR: each week both branches are at their targets, in rolling merges" '
		cd $AW_DIR &&
		expected_weekly_targets "$LTS_SERIES" "$AW_FACTS"/weeks/*.refs >"$AW_FACTS/targets" &&
		weekly_runs linux-rolling-stable "$AW_FACTS/targets" 2 "$AW_FACTS"/weeks/*.refs \
			>"$AW_FACTS/runs.stable" &&
		weekly_runs linux-rolling-lts "$AW_FACTS/targets" 3 "$AW_FACTS"/weeks/*.refs \
			>"$AW_FACTS/runs.lts" &&
		failed= &&
		{
			check_rolling_chain linux-rolling-stable "$AW_FACTS/runs.stable" \
				"$AW_FACTS/merges.stable" $MERGETAG || failed=t
		} &&
		{
			check_rolling_chain linux-rolling-lts "$AW_FACTS/runs.lts" \
				"$AW_FACTS/merges.lts" $MERGETAG || failed=t
		} &&
		test -z "$failed"
	'

	if test $AW_WEEKS = sample
	then
		test_expect_success $AW_PREREQ "$AW_DIR: the sample meets every series switch of the time line" '
			cd $AW_DIR &&
			start=$((1000 + $(cat "$AW_FACTS/lts-week"))) &&
			awk -v start=$start "\$1 >= start" "$AW_FACTS/plan/targets" >"$AW_FACTS/plan/targets.run" &&
			series_switches "$AW_FACTS/plan/targets.run" >"$AW_FACTS/switches.every" &&
			series_switches "$AW_FACTS/targets" >"$AW_FACTS/switches.sample" &&
			test_line_count -gt 5 "$AW_FACTS/switches.every" &&
			test_cmp "$AW_FACTS/switches.every" "$AW_FACTS/switches.sample"
		'
	fi

	test_expect_success $AW_PREREQ "$AW_DIR: a series is left at its newest release" '
		cd $AW_DIR &&
		check_weekly_switches
	'

	# The lts branch's merges are made as the stable branch's are: make
	# test replays the recipe on the stable branch of a sample, make
	# test-long on both branches.
	test_expect_success $AW_PREREQ "$AW_DIR: the git recipe reproduces every merge, week by week" '
		cd $AW_DIR &&
		read old rest <"$AW_FACTS/runs.stable" &&
		recipe_replay "$old" "$AW_FACTS/merges.stable" &&
		if test $AW_WEEKS = every || test_have_prereq EXPENSIVE
		then
			read old rest <"$AW_FACTS/runs.lts" &&
			recipe_replay "$old" "$AW_FACTS/merges.lts"
		fi
	'

	test_expect_success $AW_PREREQ "$AW_DIR: series switches were made and reported" '
		cat "$AW_FACTS"/weeks/*.out | grep ", series" >switches &&
		grep "^linux-rolling-stable: v6.6.[0-9]* -> v6.7.[0-9]* (.*), series 6.6 -> 6.7$" switches &&
		grep "^linux-rolling-lts: v6.1.[0-9]* -> v6.6.[0-9]* (.*), series 6.1 -> 6.6$" switches &&
		test $(grep -c "^linux-rolling-stable:" switches) -ge 6
	'

	test_expect_success $AW_PREREQ "$AW_DIR: the first-parent chain holds one commit per step" '
		cd $AW_DIR &&
		git rev-list --first-parent --min-parents=2 linux-rolling-stable >merges &&
		git rev-list --first-parent linux-rolling-stable >chain &&
		base=$(git rev-list --first-parent --max-parents=1 linux-rolling-stable | head -n 1) &&
		test "$base" = "$(git rev-parse v5.19.2^{commit})" &&
		git rev-list --first-parent "$base" >below-base &&
		test $(($(wc -l <merges) + $(wc -l <below-base))) -eq $(wc -l <chain)
	'

	test_expect_success $AW_PREREQ "$AW_DIR: up to date at the end, and fsck is clean" '
		cd $AW_DIR &&
		git rolling advance >out &&
		grep "^linux-rolling-stable: up to date at $(expected_stable_target .)\$" out &&
		grep "^linux-rolling-lts: up to date at $(expected_lts_target . "$LTS_SERIES")\$" out &&
		git fsck --strict --no-dangling
	'
}
