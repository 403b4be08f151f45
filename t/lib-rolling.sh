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

# recipe_step <tag> [<ident-name> <ident-email>]: in the current work
# tree, merge the release the way the stable maintainers do with the git
# CLI, with the release commit's dates ($RECIPE_SIGNOFF: -s by default).
recipe_step () {
	rs_adate=$(git log -1 --format=%ad --date=raw "$1^{commit}") &&
	rs_cdate=$(git log -1 --format=%cd --date=raw "$1^{commit}") &&
	recipe_commit_ "$1" "$rs_adate" "$rs_cdate" "$2" "$3"
}

# recipe_commit_ <tag> <author-date> <committer-date> [<name> <email>]:
# recipe_step with the release commit's dates given.  git commit would
# start "git maintenance run --auto" after every commit, a process that
# cannot change the commit it made: maintenance.auto=false saves it.
recipe_commit_ () {
	git merge -q -s ours --no-ff --no-commit "$1" >/dev/null 2>&1 &&
	git read-tree -um "$1" &&
	if test -n "$4"
	then
		GIT_AUTHOR_DATE=$2 GIT_COMMITTER_DATE=$3 \
		git -c maintenance.auto=false -c user.name="$4" -c user.email="$5" \
			commit -q ${RECIPE_SIGNOFF--s} -m "Merge $1"
	else
		GIT_AUTHOR_DATE=$2 GIT_COMMITTER_DATE=$3 \
		git -c maintenance.auto=false commit -q ${RECIPE_SIGNOFF--s} -m "Merge $1"
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
