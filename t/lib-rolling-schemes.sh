# Oracles for the tag schemes of the presets, written with sed and sort
# so that they share no code with git-rolling's patterns, and the
# week-by-week test that t2100 runs for Linux, for any scheme.  Source
# after test-lib.sh, lib-stable-tree.sh and lib-rolling.sh.
#
# scheme_releases_<scheme> reads tag names and prints "<series> <patch>
# <tag>" for the releases; scheme_mainline_<scheme> prints "<series>
# <tag>" for the mainline tags.  Each era's numbering is its own sed
# command.

scheme_releases_linux () {
	sed -n -E \
		-e '/^v2\.6\./{ s/^v(2\.6\.(0|[1-9][0-9]*))\.([1-9][0-9]*)$/\1 \3 &/p; d; }' \
		-e 's/^v([3-9]|[1-9][0-9]+)\.(0|[1-9][0-9]*)\.([1-9][0-9]*)$/\1.\2 \3 &/p'
}

scheme_mainline_linux () {
	sed -n -E \
		-e '/^v2\.6\./{ s/^v(2\.6\.(0|[1-9][0-9]*))(-rc[1-9][0-9]*)?$/\1 &/p; d; }' \
		-e 's/^v(([3-9]|[1-9][0-9]+)\.(0|[1-9][0-9]*))(-rc[1-9][0-9]*)?$/\1 &/p'
}

# Where the project's own release pattern reads a series' first release
# (git's v2.44.0, QEMU's v8.2.0, CPython's v3.13.0 and v2.7,
# PostgreSQL's REL_17_0), it is release 0 of its series, and mainline
# has only the pre-releases.
scheme_releases_git () {
	sed -n -E \
		-e '/^v1\.[0-8]\./{ s/^v(1\.[0-8]\.(0|[1-9][0-9]*))$/\1 0 &/p; s/^v(1\.[0-8]\.(0|[1-9][0-9]*))\.([1-9][0-9]*)$/\1 \3 &/p; d; }' \
		-e 's/^v([1-9][0-9]*\.(0|[1-9][0-9]*))\.(0|[1-9][0-9]*)$/\1 \3 &/p'
}

scheme_mainline_git () {
	sed -n -E \
		-e '/^v1\.[0-8]\./{ s/^v(1\.[0-8]\.(0|[1-9][0-9]*))-rc(0|[1-9][0-9]*)$/\1 &/p; d; }' \
		-e 's/^v([1-9][0-9]*\.(0|[1-9][0-9]*))\.0-rc(0|[1-9][0-9]*)$/\1 &/p'
}

scheme_releases_qemu () {
	sed -n -E 's/^v((0|[1-9][0-9]*)\.(0|[1-9][0-9]*))\.(0|[1-9][0-9]*)$/\1 \4 &/p'
}

scheme_mainline_qemu () {
	sed -n -E 's/^v((0|[1-9][0-9]*)\.(0|[1-9][0-9]*))\.0-rc(0|[1-9][0-9]*)$/\1 &/p'
}

scheme_releases_python () {
	sed -n -E \
		-e 's/^v((0|[1-9][0-9]*)\.(0|[1-9][0-9]*))$/\1 0 &/p' \
		-e 's/^v((0|[1-9][0-9]*)\.(0|[1-9][0-9]*))\.(0|[1-9][0-9]*)$/\1 \4 &/p'
}

scheme_mainline_python () {
	sed -n -E 's/^v((0|[1-9][0-9]*)\.(0|[1-9][0-9]*))(\.0)?(a|b|rc)[1-9][0-9]*$/\1 &/p'
}

scheme_releases_postgresql () {
	sed -n -E \
		-e 's/^REL_([1-9][0-9]+)_(0|[1-9][0-9]*)$/\1 \2 &/p' \
		-e 's/^REL([1-9])_(0|[1-9][0-9]*)_(0|[1-9][0-9]*)$/\1.\2 \3 &/p'
}

scheme_mainline_postgresql () {
	sed -n -E \
		-e 's/^REL_([1-9][0-9]+)_(BETA[1-9][0-9]*|RC[1-9][0-9]*)$/\1 &/p' \
		-e 's/^REL([1-9])_(0|[1-9][0-9]*)_(BETA[1-9][0-9]*|RC[1-9][0-9]*)$/\1.\2 &/p'
}

# When each project's own stable branch moves to a new series (the
# project's published practice, cited in gitrolling(7)): git's maint,
# QEMU's stable line, CPython's bugfix branch and PostgreSQL's newest
# major the day the series' first release is tagged; Linux's stable
# once the series has a point release and the next rc1 is out.
scheme_rule () {
	case $1 in
	linux) echo next-rc1 ;;
	systemd) echo first-point-release ;;
	*) echo first-release ;;
	esac
}

# expected_scheme_target <scheme>: the stable policy over the tags of
# the current repository, by the scheme's rule: first-release, the
# newest series with a release; first-point-release, the newest with a
# release after its first; next-rc1, the newest with a release after
# its first below the newest series mainline has tagged (a first
# release is mainline's final).  Prints that series' newest release.
expected_scheme_target () {
	git tag -l >"$TRASH_DIRECTORY/tags.all" &&
	scheme_releases_$1 <"$TRASH_DIRECTORY/tags.all" >"$TRASH_DIRECTORY/releases.all" &&
	case $(scheme_rule $1) in
	first-release)
		target_series=$(cut -d" " -f1 "$TRASH_DIRECTORY/releases.all" | sort -V | tail -n 1) ;;
	first-point-release)
		target_series=$(awk '$2 > 0 { print $1 }' "$TRASH_DIRECTORY/releases.all" |
			sort -V | tail -n 1) ;;
	next-rc1)
		newest_mainline=$(
			{
				scheme_mainline_$1 <"$TRASH_DIRECTORY/tags.all" | cut -d" " -f1 &&
				awk '$2 == 0 { print $1 }' "$TRASH_DIRECTORY/releases.all"
			} | sort -V | tail -n 1) &&
		test -n "$newest_mainline" &&
		target_series=$(
			{ awk '$2 > 0 { print $1 }' "$TRASH_DIRECTORY/releases.all" &&
			  echo "$newest_mainline"; } |
			sort -u -V | awk -v limit="$newest_mainline" '$0 == limit { exit } { print }' |
			tail -n 1
		) ;;
	esac &&
	test -n "$target_series" &&
	awk -v s="$target_series" '$1 == s' "$TRASH_DIRECTORY/releases.all" |
		sort -n -k2,2 | tail -n 1 | cut -d" " -f3
}

# expected_scheme_targets <scheme> <refs-file>...: what
# expected_scheme_target prints, for many states of a repository at
# once (the refs files of expected_weekly_targets, every tag counting):
# "<n> <target>" per file <n>.refs, "-" where there is none.  The sed
# commands above read every tag name once, one sort -V ranks the series,
# one awk pass applies the rule to every state.
expected_scheme_targets () {
	est_scheme=$1 &&
	shift &&
	sed -n "s|^[^ ]* refs/tags/||p" "$@" >"$TRASH_DIRECTORY/scheme.names" &&
	sort -u "$TRASH_DIRECTORY/scheme.names" >"$TRASH_DIRECTORY/scheme.tags" &&
	scheme_releases_$est_scheme <"$TRASH_DIRECTORY/scheme.tags" >"$TRASH_DIRECTORY/scheme.releases" &&
	scheme_mainline_$est_scheme <"$TRASH_DIRECTORY/scheme.tags" >"$TRASH_DIRECTORY/scheme.mainline" &&
	cut -d" " -f1 "$TRASH_DIRECTORY/scheme.releases" "$TRASH_DIRECTORY/scheme.mainline" \
		>"$TRASH_DIRECTORY/scheme.series" &&
	sort -u -V "$TRASH_DIRECTORY/scheme.series" >"$TRASH_DIRECTORY/scheme.ranks" &&
	awk -v rule="$(scheme_rule $est_scheme)" '
		function policy(   i, t, s, mainline, series, best) {
			mainline = series = best = ""
			for (i = 1; i <= nt; i++) {
				t = tag[i]
				s = ""
				if (t in mainline_of)
					s = mainline_of[t]
				else if (t in series_of && patch_of[t] == 0)
					s = series_of[t]
				if (s != "" && (mainline == "" || rank[s] > rank[mainline]))
					mainline = s
			}
			for (i = 1; i <= nt; i++) {
				t = tag[i]
				if (!(t in series_of))
					continue
				if (rule != "first-release" && patch_of[t] == 0)
					continue
				if (rule == "next-rc1" &&
				    (mainline == "" || rank[series_of[t]] >= rank[mainline]))
					continue
				if (series == "" || rank[series_of[t]] > rank[series])
					series = series_of[t]
			}
			for (i = 1; series != "" && i <= nt; i++) {
				t = tag[i]
				if (t in series_of && series_of[t] == series &&
				    (best == "" || patch_of[t] + 0 > patch_of[best] + 0))
					best = t
			}
			print state, (best == "" ? "-" : best)
		}
		FILENAME == ARGV[1] { rank[$0] = NR; next }
		FILENAME == ARGV[2] { series_of[$3] = $1; patch_of[$3] = $2; next }
		FILENAME == ARGV[3] { mainline_of[$2] = $1; next }
		FILENAME != current {
			if (current != "")
				policy()
			current = FILENAME
			state = FILENAME
			sub(/.*\//, "", state)
			sub(/\.refs$/, "", state)
			nt = 0
		}
		substr($2, 1, 10) == "refs/tags/" { tag[++nt] = substr($2, 11) }
		END {
			if (current != "")
				policy()
		}
	' "$TRASH_DIRECTORY/scheme.ranks" "$TRASH_DIRECTORY/scheme.releases" \
		"$TRASH_DIRECTORY/scheme.mainline" "$@"
}

# The week in which the stable policy first has a target, from the time
# line (timeline_refs).
first_scheme_week () {
	rm -rf "$TRASH_DIRECTORY/scheme.plan" &&
	timeline_refs "$TRASH_DIRECTORY/scheme.plan" $(stable_tree_weeks .) &&
	expected_scheme_targets $1 "$TRASH_DIRECTORY"/scheme.plan/*.refs \
		>"$TRASH_DIRECTORY/scheme.plan/targets" &&
	awk '$2 != "-" { print $1 - 1000; found = 1; exit } END { exit !found }' \
		"$TRASH_DIRECTORY/scheme.plan/targets"
}

# A series is left at its newest release: every switch line of advance
# ("b: A -> B (id), series X -> Y") in <dir>/<1000 + week>.out starts
# from the newest release of X in <dir>/<1000 + week>.refs.
check_scheme_switches () {
	awk '
		FILENAME == ARGV[1] { series_of[$3] = $1; patch_of[$3] = $2; next }
		{
			week = FILENAME
			sub(/.*\//, "", week)
			sub(/\..*/, "", week)
		}
		FILENAME ~ /\.refs$/ {
			t = substr($2, 11)
			if (substr($2, 1, 10) == "refs/tags/" && t in series_of)
				tags[week] = tags[week] " " t
			next
		}
		/^[^:]*: [^ ]* -> .*, series [^ ]* -> / {
			from = $2
			series = $0
			sub(/.*, series /, "", series)
			sub(/ .*/, "", series)
			newest = ""
			n = split(tags[week], list, " ")
			for (i = 1; i <= n; i++)
				if (series_of[list[i]] == series &&
				    (newest == "" || patch_of[list[i]] + 0 > patch_of[newest] + 0))
					newest = list[i]
			if (from != newest) {
				print "week " week - 1000 ": left " series " at " from ", not " newest
				bad = 1
			}
		}
		END { exit bad }
	' "$TRASH_DIRECTORY/scheme.releases" "$2"/*.refs "$2"/*.out
}

# scheme_sample_weeks <first> <last>: the weeks of a representative
# replay (sample_switch_weeks), from the targets first_scheme_week
# planned from the time line; the releases it read give each target's
# series.
scheme_sample_weeks () {
	awk '
		FILENAME == ARGV[1] { series_of[$3] = $1; next }
		{ print $1, ($2 in series_of) ? series_of[$2] : "-" }
	' "$TRASH_DIRECTORY/scheme.releases" "$TRASH_DIRECTORY/scheme.plan/targets" |
	sample_switch_weeks $1 $2
}

# scheme_record_week <week>: the refs after the week's run, for the
# checks after the replay.
scheme_record_week () {
	git for-each-ref --format="%(objectname) %(refname)" refs/heads/rolling \
		refs/heads/rolling-rc1 refs/tags >../weeks/$(($1 + 1000)).refs
}

# scheme_weeks_on_series <branch> <targets> <refs-file>...: "<on> <of>":
# in how many of the recorded weeks (one <n>.refs each) <branch> stood
# on the series of that week's target (expected_scheme_targets, read
# with the scheme.releases it wrote), out of the weeks it existed.  The
# series of a tip is that of the release it is (the start) or merged
# last (its second parent), read from the tags and one rev-list.
scheme_weeks_on_series () {
	sow_branch=$1 sow_targets=$2 &&
	shift 2 &&
	git for-each-ref --format="%(objectname) %(*objectname) %(refname:lstrip=2)" refs/tags \
		>"$TRASH_DIRECTORY/sow.tags" &&
	git rev-list --parents "refs/heads/$sow_branch" >"$TRASH_DIRECTORY/sow.parents" &&
	awk -v ref="refs/heads/$sow_branch" '
		FILENAME == ARGV[1] { series_of[$3] = $1; next }
		FILENAME == ARGV[2] {
			name = NF == 3 ? $3 : $2
			commit = NF == 3 ? $2 : $1
			if (name in series_of)
				tagged[commit] = series_of[name]
			next
		}
		FILENAME == ARGV[3] { merged[$1] = $3; next }
		FILENAME == ARGV[4] { want[$1] = $2 == "-" ? "" : series_of[$2]; next }
		$2 == ref {
			week = FILENAME
			sub(/.*\//, "", week)
			sub(/\.refs$/, "", week)
			tip = $1
			have = tip in tagged ? tagged[tip] : tagged[merged[tip]]
			of++
			on += have != "" && have == want[week]
		}
		END { print on + 0, of + 0 }
	' "$TRASH_DIRECTORY/scheme.releases" "$TRASH_DIRECTORY/sow.tags" \
		"$TRASH_DIRECTORY/sow.parents" "$sow_targets" "$@"
}

# preset_week_tests <preset> <min-switches>: the whole of an
# advance-weeks script of a preset whose scheme has its name (t2800
# git, t2810 qemu, t2820 python, t2830 postgresql): a generated tree of
# that scheme (stable_tree_<preset>, its defaults) is replayed one week
# at a time as in t2100: init recognises the scheme, advance follows the
# stable policy computed by an oracle written with sed and sort, and
# every merge has the rolling shape and is reproduced by the git recipe
# (scheme_week_tests).  make test replays a sample of the weeks, make
# test-long every week.
preset_week_tests () {
	test_expect_success "setup: a $1-style stable tree" "
		stable_tree_$1 tree
	"
	scheme_week_tests "$1" "$1" "$2"
}

# scheme_week_tests <scheme> <preset> <min-switches>: the tests of t2100
# for a tree made by stable_tree_<scheme> in ./tree.  SCHEME_NO_DETECT=1:
# the tags do not tell the preset (git's without the 1.x era read as
# qemu's too), so init is given it.
scheme_week_tests () {
	SCHEME=$1 PRESET=$2 MIN_SWITCHES=$3

	test_expect_success "init recognises the $PRESET scheme and starts where stable says" '
		cd tree &&
		week=$(first_scheme_week $SCHEME) &&
		echo $week >../first-week &&
		test $week -gt 1 &&
		stable_tree_replay . $((week - 1)) &&
		test_expect_code 128 git rolling init --preset $PRESET rolling 2>err &&
		grep "^fatal: no \(series qualifies yet\|release tags match the release pattern\)" err &&
		stable_tree_replay . $week &&
		if test -n "$SCHEME_NO_DETECT"
		then
			git rolling init --preset $PRESET rolling >out
		else
			git rolling init rolling >out &&
			grep "^tags read as preset $PRESET (" out
		fi &&
		expected=$(expected_scheme_target $SCHEME) &&
		grep "^created .rolling. at $expected " out &&
		test "$(git rev-parse rolling)" = "$(git rev-parse "$expected^{commit}")" &&
		test "$(git config rolling.rolling.switch)" = "$(scheme_rule $SCHEME)" &&
		if test "$(scheme_rule $SCHEME)" != next-rc1
		then
			# For comparison: the same tags under the Linux rule.
			git rolling init -q --preset $PRESET --switch next-rc1 rolling-rc1 ||
			git rolling init -q --preset $PRESET --switch next-rc1 --at "$expected" rolling-rc1
		fi &&
		git rolling init -q --preset $PRESET probe &&
		test "$(git config rolling.probe.releasePattern)" = \
			"$(git config rolling.rolling.releasePattern)" &&
		test "$(git config rolling.probe.mainlinePattern)" = \
			"$(git config rolling.rolling.mainlinePattern)" &&
		git branch -D -q probe &&
		git config --remove-section rolling.probe
	'

	if test_have_prereq EXPENSIVE
	then
		SCHEME_WEEKS=every
	else
		SCHEME_WEEKS=sample
	fi

	test_expect_success "week by week ($SCHEME_WEEKS) the branch follows the $PRESET tags" '
		cd tree &&
		week=$(cat ../first-week) &&
		last=$(stable_tree_weeks .) &&
		mkdir ../weeks &&
		scheme_record_week $week &&
		if test $SCHEME_WEEKS = every
		then
			seq $((week + 1)) $last
		else
			scheme_sample_weeks $((week + 1)) $last
		fi >../replayed &&
		test_line_count -gt 5 ../replayed &&
		for week in $(cat ../replayed)
		do
			n=../weeks/$((week + 1000)) &&
			stable_tree_replay . $week &&
			git rolling advance >$n.out 2>err &&
			test_must_be_empty err &&
			scheme_record_week $week ||
			{ echo "week $week failed"; cat "$n.out"; return 1; }
		done &&
		expected_scheme_targets $SCHEME ../weeks/*.refs >../targets &&
		check_scheme_switches $SCHEME ../weeks &&
		weekly_runs rolling ../targets 2 ../weeks/*.refs >../runs &&
		check_rolling_chain rolling ../runs ../merges &&
		cat ../weeks/*.out | { grep "^rolling: .*, series" || :; } >../switches
	'

	test_expect_success "every week the branch is on the series $PRESET's own stable branch is on" '
		cd tree &&
		scheme_weeks_on_series rolling ../targets ../weeks/*.refs >../on-series &&
		read on of <../on-series &&
		echo "# $PRESET ($(scheme_rule $SCHEME)): $on of $of weeks on the expected series" &&
		test "$of" -gt 0 &&
		test "$on" = "$of" &&
		if test "$(scheme_rule $SCHEME)" != next-rc1
		then
			scheme_weeks_on_series rolling-rc1 ../targets ../weeks/*.refs >../on-series.rc1 &&
			read on of <../on-series.rc1 &&
			echo "# $PRESET under next-rc1 instead: $on of $of weeks on the expected series"
		fi
	'

	# make test-long holds the one-pass oracle to the per-week one.
	test_expect_success EXPENSIVE "every week the one-pass $PRESET targets are those of expected_scheme_target" '
		cd tree &&
		mkdir ../xcheck &&
		last=$(stable_tree_weeks .) &&
		for week in $(seq 1 $last)
		do
			stable_tree_replay . $week &&
			git for-each-ref --format="%(objectname) %(refname)" refs/tags \
				>../xcheck/$((week + 1000)).refs &&
			echo "$((week + 1000)) $(expected_scheme_target $SCHEME || echo -)" || return 1
		done >../xcheck.expect &&
		expected_scheme_targets $SCHEME ../xcheck/*.refs >../xcheck.actual &&
		test_cmp ../xcheck.expect ../xcheck.actual
	'

	test_expect_success "the series switches of $PRESET were made and reported" '
		cat switches &&
		test $(wc -l <switches) -ge $MIN_SWITCHES
	'

	test_expect_success "the git recipe reproduces every $PRESET merge" '
		cd tree &&
		read old rest <../runs &&
		recipe_replay "$old" ../merges
	'

	test_expect_success "verify proves the $PRESET branch, configured or fetched" '
		cd tree &&
		git rolling verify --rebuild rolling >out &&
		git rolling verify --preset $PRESET "$(git rev-parse rolling)" >out &&
		git rev-list --first-parent --min-parents=2 rolling >merges &&
		merged=$(git log -1 --format=%s "$(sed -n 2p merges)" | sed "s/^Merge //") &&
		git rolling describe --branch rolling "$merged^{commit}" >out &&
		grep "first in rolling at $merged" out &&
		git fsck --strict --no-dangling
	'
}
