#!/bin/sh

test_description='advance with rolling.<branch>.steps = each

A Linux-style stable tree is replayed week by week and advanced at an
uneven cadence, so that several releases pile up between two runs.  A
branch made with "init --each" must merge every release of its series,
one merge each, in version order, and at a series switch each remaining
release of the old series before the newest of the new one.  The oracle
is plain git: the release tags between two steps (sort -V), merged by tag
name with the maintainers'\'' recipe in a work tree of its own, must
make the branch'\''s commits, one for one.
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
# where the stable policy first has a series; <dir>.runs/ gets the
# records of each run of advance, the first ones of the state at init.
new_tree () {
	stable_tree_linux "$1" &&
	mkdir "$1.runs" &&
	week=$(stable_tree_week_of "$1" v6.1-rc1) &&
	stable_tree_replay "$1" $week &&
	git -C "$1" rolling init -q --each linux-rolling-stable &&
	test "$(git -C "$1" config rolling.linux-rolling-stable.steps)" = each &&
	echo $week >"$1.week" &&
	record_run "$1" $week
}

# record_run <dir> <week>: the refs after a run (or the init) in
# <dir>.runs/<1000 + week>.refs.
record_run () {
	git -C "$1" for-each-ref --format="%(objectname) %(refname)" \
		refs/heads/linux-rolling-stable "refs/tags/v*" >"$1.runs/$(($2 + 1000)).refs"
}

# simulate <dir> [<last-week>]: replay the weeks of the cadence (1, 2, 3,
# 1, ... weeks on) and advance after each, with a dry run first,
# recording the runs, to the end of the time line or <last-week>; then
# check them all at once (check_runs).
simulate () {
	week=$(cat "$1.week") &&
	last=${2:-$(stable_tree_weeks "$1")} &&
	gap=0 &&
	while gap=$((gap % 3 + 1)) && week=$((week + gap)) && test $week -le $last
	do
		n=$1.runs/$((week + 1000)) &&
		stable_tree_replay "$1" $week &&
		git -C "$1" rolling advance --dry-run --porcelain >$n.dry &&
		git -C "$1" rolling advance --porcelain >$n.out 2>$n.err &&
		test_must_be_empty $n.err &&
		record_run "$1" $week || { echo "week $week failed"; cat "$n.out"; return 1; }
	done &&
	check_runs "$1"
}

# each_steps_by_run <runs-dir>: what expected_each_steps prints for each
# run, from the target of the run before (the init's, first) to the
# run's target, on the tags of the run, as "week <n>: <tag>" lines, and
# "week <n>: -" for a run without a target.  One sort -V ranks the tags.
each_steps_by_run () {
	awk 'substr($2, 1, 11) == "refs/tags/v" { print substr($2, 11) }' "$1"/*.refs \
		>"$1/names" &&
	sort -u -V "$1/names" >"$1/ranks" &&
	expected_weekly_targets "" "$1"/*.refs >"$1/targets" &&
	awk '
		function series(t) {
			sub(/\.[0-9]*$/, "", t)
			return t
		}
		function steps(   i, s, n, list, pick, j, k, tmp, seen) {
			s = series(from)
			n = 0
			for (i = 1; i <= nt; i++)
				if (index(tag[i], s ".") == 1 &&
				    substr(tag[i], length(s) + 2) ~ /^[1-9][0-9]*$/)
					list[++n] = tag[i]
			for (j = 2; j <= n; j++)
				for (k = j; k > 1 && rank[list[k]] < rank[list[k - 1]]; k--) {
					tmp = list[k]; list[k] = list[k - 1]; list[k - 1] = tmp
				}
			seen = 0
			for (j = 1; j <= n; j++) {
				if (seen) {
					print "week " week ": " list[j]
					if (list[j] == to)
						break
				}
				if (list[j] == from)
					seen = 1
			}
			if (s != series(to))
				print "week " week ": " to
		}
		function run() {
			to = target[state]
			if (week != "") {
				if (from == "-" || to == "-")
					print "week " week ": -"
				else
					steps()
			}
			from = to
		}
		FILENAME == ARGV[1] { rank[$0] = NR; next }
		FILENAME == ARGV[2] { target[$1] = $2; next }
		FILENAME != current {
			if (current != "")
				run()
			current = FILENAME
			state = FILENAME
			sub(/.*\//, "", state)
			sub(/\.refs$/, "", state)
			week = ++files == 1 ? "" : state - 1000
			nt = 0
		}
		substr($2, 1, 11) == "refs/tags/v" { tag[++nt] = substr($2, 11) }
		END { run() }
	' "$1/ranks" "$1/targets" "$1"/*.refs
}

# check_runs <dir>: each run of advance recorded in <dir>.runs was as its
# dry run announced; it merged, one merge each, the releases that
# expected_each_steps lists from the target of the run before to the
# run's own; the ids it printed are the branch's new first-parent
# commits, and the branch ends there; and the maintainers' recipe,
# merging those releases by name one after the other, makes the very
# same commits.  <dir>.log gets "week <n>" and the releases merged, per
# run.
check_runs () {
	r=$1.runs &&
	weekly_lines "$r"/*.dry >"$r/dry" &&
	weekly_lines "$r"/*.out >"$r/out" &&
	test_cmp "$r/dry" "$r/out" &&
	each_steps_by_run "$r" >"$r/steps.expect" &&
	sed -n "s/^\(week [0-9]*: \)step linux-rolling-stable [^ ]* \([^ ]*\) .*/\1\2/p" "$r/out" \
		>"$r/steps.actual" &&
	test_cmp "$r/steps.expect" "$r/steps.actual" &&
	ls "$r"/*.refs >"$r/list" &&
	read start rest <"$(head -n 1 "$r/list")" &&
	git -C "$1" rev-list --reverse --first-parent "$start..linux-rolling-stable" >"$r/chain" &&
	awk -v recipe="$r/recipe" -v logfile="$1.log" '
		function week_of(file) {
			sub(/.*\//, "", file)
			sub(/\..*/, "", file)
			return file - 1000
		}
		FILENAME == ARGV[1] { chain[++nc] = $1; next }
		FILENAME == ARGV[2] { week = $2; sub(/:$/, "", week); steps[week] = steps[week] $3 " "; next }
		FILENAME ~ /\.refs$/ {
			if (FNR == 1)
				order[++nr] = week_of(FILENAME)
			if ($2 == "refs/heads/linux-rolling-stable")
				tip[week_of(FILENAME)] = $1
			next
		}
		$3 == "step" {
			week = $2
			sub(/:$/, "", week)
			printed[week] = printed[week] $7 " "
		}
		function fail(msg) {
			print msg
			bad = 1
		}
		END {
			at = tip[order[1]]
			for (i = 2; i <= nr; i++) {
				w = order[i]
				print "week " w >logfile
				nt = split(steps[w], tags, " ")
				np = split(printed[w], ids, " ")
				for (j = 1; j <= nt; j++)
					print tags[j] >logfile
				for (j = 1; j <= np; j++) {
					if (ids[j] != chain[++n])
						fail("week " w ": printed " ids[j] ", the chain has " chain[n])
					print chain[n], tags[j], "week " w >recipe
					at = ids[j]
				}
				if (tip[w] != at)
					fail("week " w ": the branch is at " tip[w] ", not " at)
			}
			if (n != nc)
				fail(n " steps printed, " nc " commits on the chain")
			exit bad
		}
	' "$r/chain" "$r/steps.expect" $(cat "$r/list") "$r/out" &&
	(cd "$1" && recipe_replay "$start" "$TRASH_DIRECTORY/$r/recipe")
}

# make test replays the cadence up to the week v6.4-rc1 is tagged: two
# series switches, and runs of one release, of several and of a switch
# after catching up (the next test checks that they were met); make
# test-long to the end of the time line.  The tests after it start
# branches of their own on the tree's last week.
test_expect_success 'annotated tags: week by week, one merge per release, as the recipe' '
	new_tree annotated &&
	if test_have_prereq EXPENSIVE
	then
		simulate annotated
	else
		simulate annotated $(stable_tree_week_of annotated v6.4-rc1) &&
		stable_tree_replay annotated $(stable_tree_weeks annotated)
	fi
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

# The replays with lightweight and with signed tags are the annotated
# one's with other tags, in make test-long only: the plan of the steps
# does not look at a tag's kind, and make test merges lightweight tags
# in t6000 and t7000 and signed ones in t2502 and t3100.  Each is
# replayed to the end; the signed one also up to the run by which every
# kind of run of the annotated replay (run_kinds) has been met twice, or
# as often as the annotated replay meets it.

# run_kinds <log>: "week <n>: <kind>" for each run of <log> (as
# check_runs writes it): "nothing", "one release", "several releases"
# of one series, or "switch after <k>" releases of the old series
# (k: 0, 1 or "several").
run_kinds () {
	awk '
		function series(t) {
			sub(/\.[0-9]+$/, "", t)
			return t
		}
		function run() {
			if (week == "")
				return
			if (n == 0)
				kind = "nothing"
			else if (series(tag[1]) == series(tag[n]))
				kind = n == 1 ? "one release" : "several releases"
			else {
				for (old = 0; old < n && series(tag[old + 1]) == series(tag[1]); old++)
					;
				kind = "switch after " (old >= 2 ? "several" : old)
			}
			print "week " week ": " kind
		}
		/^week / { run(); week = $2; n = 0; next }
		{ tag[++n] = $0 }
		END { run() }
	' "$1"
}

# met_twice <kinds>: the week of the first run by which every kind of
# <kinds> has been met twice (once, if it is there once).
met_twice () {
	awk '
		{ w[NR] = $2; sub(/:$/, "", w[NR]); k[NR] = $0; sub(/^[^:]*: /, "", k[NR]); total[k[NR]]++ }
		END {
			for (kind in total)
				left += total[kind] < 2 ? total[kind] : 2
			for (i = 1; i <= NR; i++)
				if (++seen[k[i]] <= 2 && --left == 0) {
					print w[i]
					exit
				}
		}
	' "$1"
}

# log_until <log> <week>: the runs of <log> up to <week>.
log_until () {
	awk -v last="$2" '/^week / { keep = $2 <= last } keep' "$1"
}

# same_as_annotated <dir> [<last-week>]: <dir> made the annotated
# replay's merges, up to <last-week>, and met each of its kinds of run.
same_as_annotated () {
	log_until annotated.log ${2:-999999} >"$1.expect" &&
	test_cmp "$1.expect" "$1.log" &&
	run_kinds annotated.log | sed "s/^[^:]*: //" | sort -u >"$1.kinds.expect" &&
	run_kinds "$1.log" | sed "s/^[^:]*: //" | sort -u >"$1.kinds" &&
	test_cmp "$1.kinds.expect" "$1.kinds"
}

# signed_merges <dir>: the tip embeds its tag once, as git does, and the
# branch verifies with its signatures.
signed_merges () {
	(
		cd "$1" &&
		git cat-file commit linux-rolling-stable >../commit &&
		tag=$(sed -n "s/^Merge //p" ../commit) &&
		grep -c "^mergetag object $(git rev-parse "$tag^{commit}")$" ../commit >../count &&
		echo 1 >../one &&
		test_cmp ../one ../count &&
		git rolling verify --rebuild --signatures linux-rolling-stable >/dev/null
	)
}

test_expect_success 'the kinds of run of the annotated replay, and the sample of them' '
	run_kinds annotated.log >kinds &&
	grep ": several releases$" kinds &&
	grep ": switch after several$" kinds &&
	met_twice kinds >sample-last &&
	grep "^week $(cat sample-last): " kinds
'

test_expect_success EXPENSIVE 'lightweight tags, every run: the same' '
	STABLE_LIGHTWEIGHT_TAGS=1 new_tree lightweight-every &&
	simulate lightweight-every &&
	same_as_annotated lightweight-every
'

test_expect_success EXPENSIVE,SSHSIGN 'SSH-signed tags: the same, every merge embedding its tag as git does' '
	STABLE_SIGNED_TAGS=1 new_tree signed &&
	git -C signed verify-tag v6.0.1 2>/dev/null &&
	simulate signed $(cat sample-last) &&
	same_as_annotated signed $(cat sample-last) &&
	signed_merges signed
'

test_expect_success EXPENSIVE,SSHSIGN 'SSH-signed tags, every run: the same, every merge embedding its tag' '
	STABLE_SIGNED_TAGS=1 new_tree signed-every &&
	simulate signed-every &&
	same_as_annotated signed-every &&
	signed_merges signed-every
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
