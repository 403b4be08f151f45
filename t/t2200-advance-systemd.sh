#!/bin/sh

test_description='rolling branches for systemd-style tags

systemd releases v255.1, v255.2, ... from v255-stable and tags mainline
v256-rc1 ... v256: series have one number.  A generated tree is replayed
week by week and the branch checked against an oracle written with awk.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# The stable policy for one-number series, for the states recorded week
# by week (the refs of the tags v*, one file <n>.refs per week), all at
# once.  systemd-stable opens vN-stable at vN and tags vN.1 from it; a
# rolling branch follows the newest series with a point release
# (first-point-release): the newest release vN.M (by N, then M).  Under
# the kernel's rule (next-rc1, for comparison) the series must also be
# below the newest series mainline has tagged (vN or vN-rcK).  Prints
# "<n> <target>" per file, "-" where there is none.
expected_systemd_targets () {
	est_rule=$1 &&
	shift &&
	awk -v rule="$est_rule" '
		function policy(   i, best, bm, bp) {
			best = "-"
			for (i = 1; i <= nr; i++)
				if ((rule != "next-rc1" || major[i] < mainline) &&
				    (best == "-" || major[i] > bm ||
				    (major[i] == bm && patch[i] > bp))) {
					best = "v" major[i] "." patch[i]
					bm = major[i]
					bp = patch[i]
				}
			print state, (rule == "next-rc1" && mainline == "" ? "-" : best)
		}
		FILENAME != current {
			if (current != "")
				policy()
			current = FILENAME
			state = FILENAME
			sub(/.*\//, "", state)
			sub(/\.refs$/, "", state)
			nr = 0
			mainline = ""
		}
		substr($2, 1, 11) != "refs/tags/v" { next }
		{ t = substr($2, 12) }
		t ~ /^[1-9][0-9]*(-rc[1-9][0-9]*)?$/ {
			sub(/-.*/, "", t)
			if (mainline == "" || t + 0 > mainline)
				mainline = t + 0
		}
		t ~ /^[1-9][0-9]*\.[1-9][0-9]*$/ {
			nr++
			major[nr] = substr(t, 1, index(t, ".") - 1) + 0
			patch[nr] = substr(t, index(t, ".") + 1) + 0
		}
		END {
			if (current != "")
				policy()
		}
	' "$@"
}

test_expect_success 'setup' '
	stable_tree_systemd tree &&
	cd tree &&
	stable_tree_replay . $(stable_tree_week_of . v254-rc1) &&
	git rolling init --preset systemd rolling >../out &&
	grep "^policy stable follows 253$" ../out &&
	grep "^  253 *newest v253\.[0-9]*$" ../out &&
	test "$(git config rolling.rolling.releasePattern)" = \
		"v(?<major>[1-9][0-9]*)\.(?<patch>[1-9][0-9]*)"
'

test_expect_success 'look-alikes are ignored' '
	cd tree &&
	git tag -l >tags &&
	grep -x v255-test tags &&
	grep -x systemd-255.3 tags &&
	git rolling init -q --preset systemd --at v253.1 probe &&
	test_expect_code 128 git rolling init --preset systemd --at systemd-255.3 probe2 2>err &&
	grep "is not a release tag" err &&
	test_expect_code 128 git rolling init --preset systemd --at v255-test probe2
'

# systemd_weeks FIRST LAST: the weeks the replay below runs advance
# in.  make test-long takes every one; make test the sample of
# sample_switch_weeks (lib-rolling.sh): the first, the last three, and
# each week the series the policy follows changes, with the week before
# it.  The runs in between catch up.  The series of each week come from
# the time line alone, "<1000 + week> <series>" in ../plan/series.
systemd_weeks () {
	timeline_refs ../plan $2 &&
	expected_systemd_targets first-point-release ../plan/*.refs |
	awk '{ series = $2; sub(/\.[0-9]*$/, "", series); print $1, series }' >../plan/series &&
	if test_have_prereq EXPENSIVE
	then
		seq $1 $2
	else
		sample_switch_weeks $1 $2 <../plan/series
	fi
}

# expected_systemd_targets <rule> <refs-file>...: as above.
# Each week only the replay, the run of advance and a record of the refs
# after it; the checks then run on all weeks at once (lib-rolling.sh:
# weekly_runs, check_rolling_chain, recipe_replay) and name the week of
# a failure.
test_expect_success 'week by week the branch follows the stable policy' '
	cd tree &&
	week=$(stable_tree_week_of . v254-rc1) &&
	last=$(stable_tree_weeks .) &&
	mkdir ../weeks &&
	git for-each-ref --format="%(objectname) %(refname)" refs/heads/rolling "refs/tags/v*" \
		>../weeks/$((week + 1000)).refs &&
	systemd_weeks $((week + 1)) $last >../replayed &&
	test_line_count -gt 5 ../replayed &&
	for week in $(cat ../replayed)
	do
		n=../weeks/$((week + 1000)) &&
		stable_tree_replay . $week &&
		git rolling advance rolling >$n.out &&
		git for-each-ref --format="%(objectname) %(refname)" refs/heads/rolling "refs/tags/v*" \
			>$n.refs || { echo "week $week"; cat "$n.out"; return 1; }
	done &&
	cat ../weeks/*.out | { grep ", series" || :; } >../switches &&
	awk -v first=$((1000 + $(head -n 1 ../replayed))) \
		"\$1 >= first && \$2 != previous { n++ } { previous = \$2 } END { print n }" \
		../plan/series >../switches.expect &&
	test $(wc -l <../switches) = $(cat ../switches.expect) &&
	test "$(git config rolling.rolling.switch)" = first-point-release &&
	expected_systemd_targets first-point-release ../weeks/*.refs >../targets &&
	weekly_runs rolling ../targets 2 ../weeks/*.refs >../runs &&
	check_rolling_chain rolling ../runs ../merges &&
	read old rest <../runs &&
	recipe_replay "$old" ../merges
'

test_expect_success 'series switches are reported with one-number series' '
	grep "^rolling: v253\.[0-9]* -> v254\.[0-9]* (.*), series 253 -> 254$" switches &&
	grep "^rolling: v255\.[0-9]* -> v256\.[0-9]* (.*), series 255 -> 256$" switches
'

test_expect_success 'lts and --series with one-number series' '
	cd tree &&
	git rolling init -q --preset systemd --lts --series "254 256" lts &&
	test "$(git rev-parse lts)" = "$(git rev-parse $(git tag -l "v256.*" | sort -V | tail -n 1)^{commit})" &&
	test_expect_code 128 git rolling init --preset systemd --lts --series "254.1" bad 2>err &&
	grep "^fatal: rolling.bad.series: .254.1. is not a series of the form <major>$" err &&
	test_expect_code 128 git rolling init --preset systemd --lts bad 2>err &&
	grep "^fatal: rolling.bad.series is empty: the lts policy needs the long-term series$" err
'

test_expect_success 'fsck' '
	cd tree &&
	git fsck --strict --no-dangling
'

test_done
