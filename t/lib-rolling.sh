# Helpers for tests of rolling branches: independent oracles for what a
# rolling branch must look like, written with plain git so that they do
# not share code (or bugs) with git-rolling.  Source after test-lib.sh.
# Scratch files go to the trash directory, never into a work tree.

# The stable policy, computed from the tags present with sort -V: the
# newest series with a release below the newest series mainline has
# tagged, and that series' newest release.  Prints the release tag.
expected_stable_target () {
	git -C "${1:-.}" tag -l 'v*' >"$TRASH_DIRECTORY/tags.all" &&
	newest_mainline=$(grep -E '^v[0-9]+\.[0-9]+(-rc[0-9]+)?$' "$TRASH_DIRECTORY/tags.all" |
		sed -e 's/-rc[0-9]*$//' | sort -V | tail -n 1) &&
	rolling_target_below "$newest_mainline" "" <"$TRASH_DIRECTORY/tags.all"
}

# The lts policy: like stable, but only series in $2 (space separated)
# and only final mainline tags count.
expected_lts_target () {
	git -C "$1" tag -l 'v*' >"$TRASH_DIRECTORY/tags.all" &&
	newest_final=$(grep -E '^v[0-9]+\.[0-9]+$' "$TRASH_DIRECTORY/tags.all" | sort -V | tail -n 1) &&
	rolling_target_below "$newest_final" "$2" <"$TRASH_DIRECTORY/tags.all"
}

# rolling_target_below <vX.Y> <series-list>: newest release (from stdin)
# of the newest series below vX.Y, restricted to the list if not empty.
rolling_target_below () {
	grep -E '^v[0-9]+\.[0-9]+\.[1-9][0-9]*$' >"$TRASH_DIRECTORY/releases.all"
	sed -e 's/\.[0-9]*$//' "$TRASH_DIRECTORY/releases.all" | sort -u >"$TRASH_DIRECTORY/series.all" &&
	{ cat "$TRASH_DIRECTORY/series.all" && echo "$1"; } | sort -u -V |
		awk -v limit="$1" '$0 == limit { exit } { print }' >"$TRASH_DIRECTORY/series.below" &&
	if test -n "$2"
	then
		for s in $2; do echo "v$s"; done | grep -Fx -f - "$TRASH_DIRECTORY/series.below" >"$TRASH_DIRECTORY/series.eligible"
	else
		cp "$TRASH_DIRECTORY/series.below" "$TRASH_DIRECTORY/series.eligible"
	fi &&
	target_series=$(sort -V "$TRASH_DIRECTORY/series.eligible" | tail -n 1) &&
	test -n "$target_series" &&
	awk -v prefix="$target_series." 'index($0, prefix) == 1' "$TRASH_DIRECTORY/releases.all" |
		sort -V | tail -n 1
}

# expected_weekly_targets <lts-series> <refs-file>...: what
# expected_stable_target and expected_lts_target (with the series of
# <lts-series>) print, for many states of a repository at once.  Each
# file holds the refs of one state as for-each-ref --format="%(objectname)
# %(refname)" prints them (the tags v* count) and is named <n>.refs;
# prints "<n> <stable-target> <lts-target>" per file, "-" where a policy
# has no target.  One sort -V ranks every name that the rules compare
# (tags, series, mainline versions); awk applies the rules above.
expected_weekly_targets () {
	ewt_series=$1 &&
	shift &&
	awk '
		substr($2, 1, 11) != "refs/tags/v" { next }
		{ t = substr($2, 11); print t }
		t ~ /^v[0-9]+\.[0-9]+(-rc[0-9]+)?$/ { sub(/-rc[0-9]*$/, "", t); print t }
		t ~ /^v[0-9]+\.[0-9]+\.[1-9][0-9]*$/ { sub(/\.[0-9]*$/, "", t); print t }
	' "$@" >"$TRASH_DIRECTORY/weekly.names" &&
	sort -u -V "$TRASH_DIRECTORY/weekly.names" >"$TRASH_DIRECTORY/weekly.ranks" &&
	awk -v lts=" $ewt_series " '
		# The newest release of the newest series below <limit> (in
		# <only>, if not empty) that has one.
		function target(limit, only,   i, t, s, best, series) {
			if (limit == "")
				return "-"
			series = ""
			for (i = 1; i <= nt; i++) {
				t = tag[i]
				if (t !~ /^v[0-9]+\.[0-9]+\.[1-9][0-9]*$/)
					continue
				s = t
				sub(/\.[0-9]*$/, "", s)
				if (rank[s] >= rank[limit])
					continue
				if (only != "" && index(only, " " substr(s, 2) " ") == 0)
					continue
				if (series == "" || rank[s] > rank[series])
					series = s
			}
			if (series == "")
				return "-"
			best = ""
			for (i = 1; i <= nt; i++) {
				t = tag[i]
				if (t ~ /^v[0-9]+\.[0-9]+\.[1-9][0-9]*$/ && index(t, series ".") == 1 &&
				    (best == "" || rank[t] > rank[best]))
					best = t
			}
			return best
		}
		function policies(   i, t, m, mainline, final) {
			mainline = final = ""
			for (i = 1; i <= nt; i++) {
				t = tag[i]
				if (t !~ /^v[0-9]+\.[0-9]+(-rc[0-9]+)?$/)
					continue
				m = t
				sub(/-rc[0-9]*$/, "", m)
				if (mainline == "" || rank[m] > rank[mainline])
					mainline = m
				if (m == t && (final == "" || rank[t] > rank[final]))
					final = t
			}
			print state, target(mainline, ""), target(final, lts)
		}
		FILENAME == ARGV[1] { rank[$0] = NR; next }
		FILENAME != current {
			if (current != "")
				policies()
			current = FILENAME
			state = FILENAME
			sub(/.*\//, "", state)
			sub(/\.refs$/, "", state)
			nt = 0
		}
		substr($2, 1, 11) == "refs/tags/v" { tag[++nt] = substr($2, 11) }
		END {
			if (current != "")
				policies()
		}
	' "$TRASH_DIRECTORY/weekly.ranks" "$@"
}

# timeline_refs <dir> <last>: in <dir>, the refs files of
# expected_weekly_targets for weeks 1 to <last> of the tree in the
# current directory, from its time line alone: the tags stable_tree_replay
# leaves (the releases up to the week, and the look-alikes).
timeline_refs () {
	mkdir -p "$1" &&
	awk -v dir="$1" -v last="$2" '
		FILENAME ~ /lookalikes$/ { look = look $3 " refs/tags/" $2 "\n"; next }
		{ tags = tags $3 " refs/tags/" $2 "\n"; at[$1] = tags }
		END {
			for (w = 1; w <= last; w++) {
				if (w in at)
					now = at[w]
				printf "%s%s", now, look >(dir "/" (w + 1000) ".refs")
			}
		}
	' .git/stable-lookalikes .git/stable-timeline
}

# sample_switch_weeks <first> <last>: from "<1000 + week> <series>..."
# lines on standard input (a policy's series each week, "-" for none,
# oldest first), the weeks of a representative replay: <first>, the last
# three, and every week in which a series changes, with the week before
# it, so that each switch is made from the week before, as every week
# makes it, and no run holds two switches.  The runs in between catch up
# over several weeks.
sample_switch_weeks () {
	awk -v first="$1" -v last="$2" '
		{ w = $1 - 1000; $1 = "" }
		w == first || w > last - 3 { keep[w] = 1 }
		w > first && $0 != previous { keep[w - 1] = keep[w] = 1 }
		{ previous = $0 }
		END {
			for (w = first; w <= last; w++)
				if (w in keep)
					print w
		}
	'
}

# weekly_runs <branch> <targets> <field> <refs-file>...: the runs of
# check_rolling_chain from the refs recorded after each run of advance
# (files named <1000 + week>.refs, the first one before the first run):
# "<old> <new> <expected> week <n>", the tips of <branch> and the
# target in field <field> of the line "<1000 + week> ..." of <targets>.
weekly_runs () {
	wr_branch=$1 wr_targets=$2 wr_field=$3 &&
	shift 3 &&
	awk -v branch="refs/heads/$wr_branch" -v field="$wr_field" '
		function run() {
			if (old != "")
				print old, tip, (state in target ? target[state] : "-"),
					"week " state - 1000
			old = tip
		}
		FILENAME == ARGV[1] { target[$1] = $field; next }
		FILENAME != current {
			if (current != "")
				run()
			current = FILENAME
			state = FILENAME
			sub(/.*\//, "", state)
			sub(/\.refs$/, "", state)
			tip = "-"
		}
		$2 == branch { tip = $1 }
		END { run() }
	' "$wr_targets" "$@"
}

# weekly_lines <file>...: the lines of files named <1000 + week>.<ext>,
# each after "week <n>: ".
weekly_lines () {
	awk '{
		week = FILENAME
		sub(/.*\//, "", week)
		sub(/\..*/, "", week)
		print "week " week - 1000 ": " $0
	}' "$@"
}

# check_rolling_merge <commit>: the commit has the exact shape of a
# rolling merge.  Prints the release tag it merges.
check_rolling_merge () {
	merge_tag=$(git log -1 --format=%s "$1" | sed -n "s/^Merge //p") &&
	test -n "$merge_tag" &&
	git rev-parse "$1^1" "$merge_tag^{commit}" >"$TRASH_DIRECTORY/merge.expect" &&
	git rev-parse "$1^@" >"$TRASH_DIRECTORY/merge.parents" &&
	test_cmp "$TRASH_DIRECTORY/merge.expect" "$TRASH_DIRECTORY/merge.parents" &&
	test "$(git rev-parse "$1^{tree}")" = "$(git rev-parse "$merge_tag^{tree}")" &&
	git log -1 --format="%ad %cd" --date=raw "$merge_tag^{commit}" >"$TRASH_DIRECTORY/merge.dates.expect" &&
	git log -1 --format="%ad %cd" --date=raw "$1" >"$TRASH_DIRECTORY/merge.dates" &&
	test_cmp "$TRASH_DIRECTORY/merge.dates.expect" "$TRASH_DIRECTORY/merge.dates" &&
	echo "$merge_tag"
}

# check_rolling_chain <branch> <runs> <merges-out> [mergetag|no-mergetag]:
# the checks of a replay, one run of advance after the other, made for
# all runs at once.  <runs> has a line "<old> <new> <expected> <label>"
# per run of advance, in order: the branch's ids before and after, the
# release the policy wants (an oracle's answer) and a label for the
# messages (say "week 40").  Each <new> is on the first-parent chain of
# <branch>, has the tree of <expected> and descends from it; when it
# moved, <old> is 1 or 2 commits below it on that chain, each commit in
# between is a rolling merge (as check_rolling_merge: "Merge <tag>", the
# parents ^1 and <tag>^{commit}, the tree of <tag>, its author and
# committer dates) and the newest one merges <expected>.  With
# "mergetag" each merge embeds its tag as git cat-file tag shows it,
# with "no-mergetag" none embeds a tag.  <merges-out> gets "<merge>
# <tag> <label>" per merge, oldest first, for recipe_replay.
#
# One git log reads the chain, one cat-file and one log the releases;
# the rules are an awk program.  That a tip which did not move descends
# from <expected> follows from the run before when <expected> did not
# change either; otherwise git merge-base --is-ancestor says so.
check_rolling_chain () {
	crc_tmp=$TRASH_DIRECTORY/chain &&
	git log --first-parent --format='%H%x09%T%x09%P%x09%ad %cd%x09%s' --date=raw "$1" \
		>"$crc_tmp.log" &&
	{
		awk -F'\t' 'substr($5, 1, 6) == "Merge " { print substr($5, 7) }' "$crc_tmp.log" &&
		awk '{ print $3 }' "$2"
	} |
	awk '{ print $0 "^{commit} " $0; print $0 "^{tree} " $0 }' |
	git cat-file --batch-check='%(objectname) %(objecttype) %(rest)' >"$crc_tmp.names" &&
	awk '$2 == "commit" { print $1 }' "$crc_tmp.names" |
	git log --no-walk --stdin --format='%H %ad %cd' --date=raw >"$crc_tmp.dates" &&
	: >"$crc_tmp.ancestry" &&
	awk -v branch="$1" -v merges="$3" -v ancestry="$crc_tmp.ancestry" '
		function fail(msg) {
			print label ": " branch ": " msg
			bad = 1
		}
		function merge(j,   x) {
			if (S[j] !~ /^Merge ./) {
				fail(H[j] " is not a rolling merge: \"" S[j] "\"")
				return
			}
			x = substr(S[j], 7)
			print H[j], x, label >merges
			if (NP[j] != 2)
				fail(H[j] " has " NP[j] " parents, not 2")
			else if (!(x in commit_of) || P2[j] != commit_of[x])
				fail(H[j] ": the second parent is not " x "^{commit}")
			if (!(x in tree_of) || T[j] != tree_of[x])
				fail(H[j] ": the tree is not that of " x)
			if (!(x in commit_of) || D[j] != date_of[commit_of[x]])
				fail(H[j] ": the dates " D[j] " are not those of " x)
		}
		FILENAME == ARGV[1] {
			if ($2 == "commit") commit_of[$3] = $1
			else if ($2 == "tree") tree_of[$3] = $1
			next
		}
		FILENAME == ARGV[2] { date_of[$1] = $2 " " $3 " " $4 " " $5; next }
		FILENAME == ARGV[3] {
			n++
			split($0, f, "\t")
			H[n] = f[1]; T[n] = f[2]; D[n] = f[4]
			S[n] = substr($0, length(f[1] f[2] f[3] f[4]) + 5)
			NP[n] = split(f[3], p, " "); P2[n] = p[2]
			pos[f[1]] = n
			next
		}
		{
			old = $1; new = $2; want = $3
			label = $0
			sub(/^[^ ]* [^ ]* [^ ]* */, "", label)
			if (!(new in pos)) {
				fail(new " is not on its first-parent chain")
				checked = ""
				next
			}
			i = pos[new]
			if (!(want in tree_of) || T[i] != tree_of[want])
				fail(new " does not have the tree of " want)
			if (old == new) {
				if (want != checked)
					print new, want, label >ancestry
			} else if (!(old in pos) || pos[old] <= i) {
				fail(old " is not below " new " on its first-parent chain")
			} else {
				if (pos[old] - i > 2)
					fail((pos[old] - i) " commits in one run, not at most 2 merges")
				for (j = pos[old] - 1; j >= i; j--)
					merge(j)
				if (S[i] != "Merge " want)
					fail(new " is \"" S[i] "\", not \"Merge " want "\"")
			}
			checked = want
		}
		END { exit bad }
	' "$crc_tmp.names" "$crc_tmp.dates" "$crc_tmp.log" "$2" >"$crc_tmp.out"
	crc_ret=$?
	cat "$crc_tmp.out" &&
	test $crc_ret = 0 &&
	while read crc_new crc_want crc_label
	do
		git merge-base --is-ancestor "$crc_want" "$crc_new" ||
		{ echo "$crc_label: $1: $crc_new does not descend from $crc_want"; return 1; }
	done <"$crc_tmp.ancestry" &&
	case $4 in
	mergetag|no-mergetag) check_mergetags_ "$4" "$3" ;;
	esac
}

# check_mergetags_ mergetag|no-mergetag <merges>: the mergetag headers
# of the merges of "<merge> <tag> <label>" lines, from one cat-file
# --batch of each merge followed, for "mergetag", by its tag object.
# The header's lines are those sed would print from the first line
# "mergetag " to the end of the header: its value and every
# continuation line, less the one space that starts it.
check_mergetags_ () {
	awk -v mode="$1" '
		{ print $1 " m " $0 }
		mode == "mergetag" { print $2 "^{tag} t " $0 }
	' "$2" |
	git cat-file --batch='%(objectname) %(objecttype) %(objectsize) %(rest)' \
		>"$TRASH_DIRECTORY/mergetags" &&
	awk -v mode="$1" '
		function fail(msg) {
			print label ": " merge ": " msg
			bad = 1
		}
		function object_read() {
			if (kind == "m" && mode == "no-mergetag" && mergetag != "")
				fail("a mergetag header, but " tag " is not a signed tag")
			if (kind == "t" && body != mergetag)
				fail("the mergetag header is not the tag object " tag)
		}
		left > 0 {
			if (kind == "m" && in_header) {
				if ($0 == "")
					in_header = 0
				else if ($0 ~ /^mergetag /) {
					in_tag = 1
					mergetag = mergetag substr($0, 10) "\n"
				} else if (in_tag && $0 ~ /^ /)
					mergetag = mergetag substr($0, 2) "\n"
			}
			body = body $0 "\n"
			left -= length($0) + 1
			if (left <= 0) {
				object_read()
				skip = left == 0
			}
			next
		}
		skip { skip = 0; next }
		$2 == "missing" { print "no object " $1; bad = 1; next }
		{
			kind = $4; merge = $5; tag = $6
			label = $0
			sub(/^[^ ]* [^ ]* [^ ]* [^ ]* [^ ]* [^ ]* */, "", label)
			if (kind == "m")
				mergetag = ""
			body = ""; in_header = 1; in_tag = 0
			left = $3
			if (left == 0) {
				object_read()
				skip = 1
			}
		}
		END { exit bad }
	' "$TRASH_DIRECTORY/mergetags"
}

# recipe_step <tag> [<ident-name> <ident-email>]: in the current work
# tree, merge the release the way the stable maintainers do with the git
# CLI, with the release commit's dates ($RECIPE_SIGNOFF: -s by default).
recipe_step () {
	rs_adate=$(git log -1 --format=%ad --date=raw "$1^{commit}") &&
	rs_cdate=$(git log -1 --format=%cd --date=raw "$1^{commit}") &&
	recipe_commit_ "$1" "$rs_adate" "$rs_cdate" "$2" "$3"
}

# recipe_commit_ <tag> <author-date> <committer-date> [<name> <email>]:
# recipe_step with the release commit's dates given.
recipe_commit_ () {
	git merge -q -s ours --no-ff --no-commit "$1" >/dev/null 2>&1 &&
	git read-tree -um "$1" &&
	if test -n "$4"
	then
		GIT_AUTHOR_DATE=$2 GIT_COMMITTER_DATE=$3 \
		git -c user.name="$4" -c user.email="$5" \
			commit -q ${RECIPE_SIGNOFF--s} -m "Merge $1"
	else
		GIT_AUTHOR_DATE=$2 GIT_COMMITTER_DATE=$3 \
		git commit -q ${RECIPE_SIGNOFF--s} -m "Merge $1"
	fi
}

# recipe_reproduces <old> <new> [<ident-name> <ident-email>]: in a
# scratch work tree at <old>, make each first-parent merge of old..new
# the way the stable maintainers do with the git CLI, and check that the
# commit ids come out the same.
recipe_reproduces () {
	git log --reverse --first-parent --format='%H %s' "$1..$2" >"$TRASH_DIRECTORY/recipe.log" &&
	awk '{ print $1, ($2 == "Merge" && NF == 3 ? $3 : "?") }' \
		"$TRASH_DIRECTORY/recipe.log" >"$TRASH_DIRECTORY/recipe.list" &&
	recipe_replay "$1" "$TRASH_DIRECTORY/recipe.list" "$3" "$4"
}

# recipe_replay <start> <list> [<ident-name> <ident-email>]: in a
# scratch work tree at <start>, merge the tag of each line "<merge>
# <tag> [<label>]" of <list> (oldest first) with the git CLI recipe, one
# after the other, and check that the commits made are the <merge>s:
# each step starts from the one before, so the first commit that
# differs is the first merge the recipe does not reproduce.  The label
# (say "week 40") names it in the message.  The release commits' dates
# come from one git log, the commits made from one rev-list.
recipe_replay () {
	recipe_wt="$TRASH_DIRECTORY/recipe-wt" &&
	rm -rf "$recipe_wt" &&
	git worktree add -q --detach "$recipe_wt" "$1" &&
	awk '{ print $2 "^{commit}" }' "$2" |
	git cat-file --batch-check='%(objectname)' >"$TRASH_DIRECTORY/recipe.commits" &&
	git log --no-walk --stdin --format='%H %ad %cd' --date=raw \
		<"$TRASH_DIRECTORY/recipe.commits" >"$TRASH_DIRECTORY/recipe.dates" &&
	awk '
		FILENAME == ARGV[1] { date[$1] = $2 " " $3 " " $4 " " $5; next }
		FILENAME == ARGV[2] { commit[FNR] = $1; next }
		{
			label = $0
			sub(/^[^ ]* [^ ]* */, "", label)
			d = commit[FNR] in date ? date[commit[FNR]] : "? ? ? ?"
			print $1, $2, d, label
		}
	' "$TRASH_DIRECTORY/recipe.dates" "$TRASH_DIRECTORY/recipe.commits" "$2" \
		>"$TRASH_DIRECTORY/recipe.plan" &&
	(
		cd "$recipe_wt" &&
		while read merge tag atime azone ctime czone label
		do
			if test "$tag" = "?"
			then
				echo "${label:+$label: }$merge is not \"Merge <tag>\""
				exit 1
			fi
			recipe_commit_ "$tag" "$atime $azone" "$ctime $czone" "$3" "$4" || {
				echo "${label:+$label: }the recipe fails at $merge ($tag)"
				exit 1
			}
		done
	) <"$TRASH_DIRECTORY/recipe.plan" &&
	git -C "$recipe_wt" rev-list --reverse --first-parent "$1..HEAD" \
		>"$TRASH_DIRECTORY/recipe.made" &&
	awk '
		FILENAME == ARGV[1] { made[++n] = $1; next }
		{
			label = $0
			sub(/^[^ ]* [^ ]* */, "", label)
			if (made[++m] != $1) {
				printf "%srecipe differs at %s (%s): it made %s\n",
					(label == "" ? "" : label ": "), $1, $2,
					(m in made ? made[m] : "nothing")
				bad = 1
				exit 1
			}
		}
		END {
			if (!bad && m != n) {
				print "the recipe made " n " commits, not " m
				exit 1
			}
		}
	' "$TRASH_DIRECTORY/recipe.made" "$2" &&
	git worktree remove --force "$recipe_wt"
}

# expected_each_steps <from-release> <to-release>: the release tags a
# branch standing at <from-release> merges, in order and one merge each,
# to reach <to-release> with rolling.<branch>.steps = each: every later
# release tag of <from-release>'s series in version order (sort -V),
# up to <to-release> when that is of the same series, else followed by
# <to-release> itself.
expected_each_steps () {
	each_series=${1%.*} &&
	git tag -l "$each_series.*" |
		grep -E "^$(echo "$each_series" | sed -e 's/\./\\./g')\.[1-9][0-9]*\$" |
		sort -V |
		awk -v from="$1" -v to="$2" 'seen { print; if ($0 == to) exit } $0 == from { seen = 1 }' &&
	if test "$each_series" != "${2%.*}"
	then
		echo "$2"
	fi
}

# add_release COMMANDS: in a linux stable tree, a new release of the 6.2
# series whose commit also runs COMMANDS in its work tree (on top of
# bumping SUBLEVEL).
add_release () {
	ar_newest=$(git tag -l "v6.2.*" | sort -V | tail -n 1) &&
	ar_next=v6.2.$((${ar_newest##*.} + 1)) &&
	rm -rf ../release &&
	git worktree add -q --detach ../release "$ar_newest" &&
	(
		cd ../release &&
		sed -i "s/^SUBLEVEL = .*/SUBLEVEL = ${ar_next##*.}/" Makefile &&
		eval "$1" &&
		git add -A &&
		git commit -q -m "Linux ${ar_next#v}"
	) &&
	git tag -a -m "Linux ${ar_next#v}" "$ar_next" "$(git -C ../release rev-parse HEAD)" &&
	git worktree remove --force ../release &&
	echo "$ar_next"
}

# advance_weekly DIR FROM TO [PACK-EVERY [RUN-EVERY]]: in DIR, a stable
# tree (lib-stable-tree.sh) replayed up to week FROM, release each later
# week up to TO in turn and run git rolling advance after each, the way
# a cron job would (with RUN-EVERY, after every RUN-EVERY-th week and
# the last: a cron job that runs less often); with PACK-EVERY (0: never),
# git pack-refs --all after the run that passes a multiple of it (a long
# replay: advance then does not read hundreds of loose tags each week).
# Each week only adds that week's release tags, from the time line:
# stable_tree_replay DIR WEEK would leave the same tags but rewrite every
# one of them.  One for-each-ref first checks that none of them is there
# yet; one awk plans the weeks.  The week's tags are written by
# test_write_refs (one git update-ref a week), and advance runs as
# git-rolling-advance itself (under make valgrind through the
# dispatcher, the memcheck wrapper), without a git process and the
# dispatcher in front of it each week.
advance_weekly () {
	(
		cd "$1" &&
		aw_plan=${TRASH_DIRECTORY:-$PWD/.git}/advance-weekly.plan &&
		aw_tags=$aw_plan.tags &&
		git for-each-ref --format="%(refname)" refs/tags |
		awk -v from="$2" -v to="$3" -v pack="${4:-0}" -v every="${5:-1}" '
			FILENAME == "-" { have[$1] = 1; next }
			$1 > from && $1 <= to {
				if (("refs/tags/" $2) in have) {
					print "advance_weekly: " $2 " is there already" >"/dev/stderr"
					bad = 1
				}
				tags[$1] = tags[$1] "tag refs/tags/" $2 " " $3 "\n"
			}
			END {
				ran = from
				for (w = from + 1; w <= to; w++) {
					printf "%s", tags[w]
					if ((w - from) % every && w < to)
						continue
					printf "advance %d\n", w
					if (pack && int(w / pack) != int(ran / pack))
						print "pack"
					ran = w
				}
				exit bad
			}
		' - .git/stable-timeline >"$aw_plan" &&
		: >"$aw_tags" &&
		while read aw_what aw_name aw_id
		do
			case $aw_what in
			tag)
				echo "$aw_name $aw_id" >>"$aw_tags" ;;
			advance)
				test_write_refs <"$aw_tags" &&
				: >"$aw_tags" &&
				if test -n "$GIT_ROLLING_TEST_VALGRIND"
				then
					git-rolling advance -q
				else
					git-rolling-advance -q
				fi </dev/null ;;
			pack)
				git pack-refs --all ;;
			esac || exit 1
		done <"$aw_plan" &&
		rm -f "$aw_plan" "$aw_tags"
	)
}
