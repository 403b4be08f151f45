# Oracles for the tag schemes of the presets, written with sed and sort
# so that they share no code with git-rolling's patterns, and the
# week-by-week test that t2100 runs for Linux, for any scheme.  Source
# after test-lib.sh, lib-stable-tree.sh and lib-rolling.sh.
#
# scheme_releases_<scheme> reads tag names and prints "<series> <patch>
# <tag>" for the releases; scheme_mainline_<scheme> prints "<series>"
# for the mainline tags.  Each era's numbering is its own sed command.

scheme_releases_linux () {
	sed -n -E \
		-e '/^v2\.6\./{ s/^v(2\.6\.(0|[1-9][0-9]*))\.([1-9][0-9]*)$/\1 \3 &/p; d; }' \
		-e 's/^v([3-9]|[1-9][0-9]+)\.(0|[1-9][0-9]*)\.([1-9][0-9]*)$/\1.\2 \3 &/p'
}

scheme_mainline_linux () {
	sed -n -E \
		-e '/^v2\.6\./{ s/^v(2\.6\.(0|[1-9][0-9]*))(-rc[1-9][0-9]*)?$/\1/p; d; }' \
		-e 's/^v(([3-9]|[1-9][0-9]+)\.(0|[1-9][0-9]*))(-rc[1-9][0-9]*)?$/\1/p'
}

scheme_releases_git () {
	sed -n -E \
		-e '/^v1\.[0-8]\./{ s/^v(1\.[0-8]\.(0|[1-9][0-9]*))\.([1-9][0-9]*)$/\1 \3 &/p; d; }' \
		-e 's/^v([1-9][0-9]*\.(0|[1-9][0-9]*))\.([1-9][0-9]*)$/\1 \3 &/p'
}

scheme_mainline_git () {
	sed -n -E \
		-e '/^v1\.[0-8]\./{ s/^v(1\.[0-8]\.(0|[1-9][0-9]*))(-rc(0|[1-9][0-9]*))?$/\1/p; d; }' \
		-e 's/^v([1-9][0-9]*\.(0|[1-9][0-9]*))\.0(-rc(0|[1-9][0-9]*))?$/\1/p'
}

scheme_releases_qemu () {
	sed -n -E 's/^v((0|[1-9][0-9]*)\.(0|[1-9][0-9]*))\.([1-9][0-9]*)$/\1 \4 &/p'
}

scheme_mainline_qemu () {
	sed -n -E 's/^v((0|[1-9][0-9]*)\.(0|[1-9][0-9]*))\.0(-rc(0|[1-9][0-9]*))?$/\1/p'
}

scheme_releases_python () {
	scheme_releases_qemu
}

scheme_mainline_python () {
	sed -n -E 's/^v((0|[1-9][0-9]*)\.(0|[1-9][0-9]*))(\.0)?((a|b|rc)[1-9][0-9]*)?$/\1/p'
}

scheme_releases_postgresql () {
	sed -n -E \
		-e 's/^REL_([1-9][0-9]+)_([1-9][0-9]*)$/\1 \2 &/p' \
		-e 's/^REL([1-9])_(0|[1-9][0-9]*)_([1-9][0-9]*)$/\1.\2 \3 &/p'
}

scheme_mainline_postgresql () {
	sed -n -E \
		-e 's/^REL_([1-9][0-9]+)_(0|BETA[1-9][0-9]*|RC[1-9][0-9]*)$/\1/p' \
		-e 's/^REL([1-9])_(0|[1-9][0-9]*)_(0|BETA[1-9][0-9]*|RC[1-9][0-9]*)$/\1.\2/p'
}

# expected_scheme_target <scheme>: the stable policy over the tags of
# the current repository: the newest series with a release below the
# newest series mainline has tagged, and its newest release.
expected_scheme_target () {
	git tag -l >"$TRASH_DIRECTORY/tags.all" &&
	scheme_releases_$1 <"$TRASH_DIRECTORY/tags.all" >"$TRASH_DIRECTORY/releases.all" &&
	newest_mainline=$(scheme_mainline_$1 <"$TRASH_DIRECTORY/tags.all" | sort -V | tail -n 1) &&
	test -n "$newest_mainline" &&
	target_series=$(
		{ cut -d" " -f1 "$TRASH_DIRECTORY/releases.all" && echo "$newest_mainline"; } |
		sort -u -V | awk -v limit="$newest_mainline" '$0 == limit { exit } { print }' |
		tail -n 1
	) &&
	test -n "$target_series" &&
	awk -v s="$target_series" '$1 == s' "$TRASH_DIRECTORY/releases.all" |
		sort -n -k2,2 | tail -n 1 | cut -d" " -f3
}

# The week in which the stable policy first has a target.
first_scheme_week () {
	week=1 &&
	last=$(stable_tree_weeks .) &&
	while test $week -le $last
	do
		stable_tree_replay . $week &&
		if expected_scheme_target $1 >/dev/null 2>&1
		then
			echo $week
			return 0
		fi
		week=$((week + 1))
	done
	return 1
}

# A series is left at its newest release: every switch line of advance
# ("b: A -> B (id), series X -> Y") starts from the newest release of X.
check_scheme_switches () {
	sed -n "s/^[^:]*: \([^ ]*\) -> .*, series \([^ ]*\) -> .*/\1 \2/p" "$2" |
	while read from series
	do
		newest=$(git tag -l | scheme_releases_$1 | awk -v s="$series" '$1 == s' |
			sort -n -k2,2 | tail -n 1 | cut -d" " -f3) &&
		test "$from" = "$newest" || { echo "left $series at $from, not $newest"; return 1; }
	done
}

# scheme_week_tests <scheme> <preset> <min-switches>: the tests of t2100
# for a tree made by stable_tree_<scheme> in ./tree.
scheme_week_tests () {
	SCHEME=$1 PRESET=$2 MIN_SWITCHES=$3

	test_expect_success "init recognises the $PRESET scheme and starts where stable says" '
		cd tree &&
		week=$(first_scheme_week $SCHEME) &&
		echo $week >../first-week &&
		test $week -gt 1 &&
		stable_tree_replay . $((week - 1)) &&
		test_expect_code 128 git rolling init --preset $PRESET rolling 2>err &&
		grep "^fatal: no series qualifies yet" err &&
		stable_tree_replay . $week &&
		git rolling init rolling >out &&
		grep "^tags read as preset $PRESET (" out &&
		expected=$(expected_scheme_target $SCHEME) &&
		grep "^created .rolling. at $expected " out &&
		test "$(git rev-parse rolling)" = "$(git rev-parse "$expected^{commit}")" &&
		git rolling init -q --preset $PRESET probe &&
		test "$(git config rolling.probe.releasePattern)" = \
			"$(git config rolling.rolling.releasePattern)" &&
		test "$(git config rolling.probe.mainlinePattern)" = \
			"$(git config rolling.rolling.mainlinePattern)" &&
		git branch -D -q probe &&
		git config --remove-section rolling.probe
	'

	test_expect_success "week by week the branch follows the $PRESET tags" '
		cd tree &&
		week=$(($(cat ../first-week) + 1)) &&
		last=$(stable_tree_weeks .) &&
		: >../switches &&
		while test $week -le $last
		do
			stable_tree_replay . $week &&
			old=$(git rev-parse rolling) &&
			git rolling advance >out 2>err &&
			test_must_be_empty err &&
			{ grep ", series" out >>../switches || :; } &&
			check_scheme_switches $SCHEME out &&
			expected=$(expected_scheme_target $SCHEME) &&
			new=$(git rev-parse rolling) &&
			test "$(git rev-parse "$new^{tree}")" = "$(git rev-parse "$expected^{tree}")" &&
			git merge-base --is-ancestor "$expected" "$new" &&
			if test "$old" != "$new"
			then
				git merge-base --is-ancestor "$old" "$new" &&
				git rev-list --first-parent "$old..$new" >merges &&
				test_line_count -le 2 merges &&
				while read merge
				do
					check_rolling_merge "$merge" >/dev/null || return 1
				done <merges &&
				test "$(git log -1 --format=%s "$new")" = "Merge $expected"
			fi ||
			{ echo "week $week failed (expected $expected)"; cat out; return 1; }
			week=$((week + 1))
		done
	'

	test_expect_success "the series switches of $PRESET were made and reported" '
		cat switches &&
		test $(wc -l <switches) -ge $MIN_SWITCHES
	'

	test_expect_success "the git recipe reproduces every $PRESET merge" '
		cd tree &&
		base=$(git rev-list --first-parent --max-parents=1 rolling | head -n 1) &&
		recipe_reproduces "$base" rolling
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
