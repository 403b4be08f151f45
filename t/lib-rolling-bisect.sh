# Helpers for the bisect-helper and describe tests (t4xxx): a rolling
# branch grown week by week over a generated Linux-style stable tree,
# and oracles written with plain git.  Source after test-lib.sh and
# lib-stable-tree.sh; it brings lib-rolling.sh.

. "$TEST_DIRECTORY"/lib-rolling.sh

# rolling_history DIR FIRST LAST [INIT-OPTIONS...]: generate the tree in
# DIR, create linux-rolling-stable at week FIRST and advance it once a
# week up to week LAST, the way a cron job would.  Kept in the fixture
# cache (lib-stable-tree.sh: stable_tree_history).
rolling_history () {
	rh_dir=$1 rh_week=$2 rh_last=$3
	shift 3
	stable_tree_linux "$rh_dir" &&
	stable_tree_history "$rh_dir" history "$rh_week $rh_last $*" rolling_history_make_ "$@"
}

rolling_history_make_ () {
	stable_tree_replay "$rh_dir" "$rh_week" &&
	git -C "$rh_dir" rolling init -q --preset linux "$@" linux-rolling-stable &&
	advance_weekly "$rh_dir" "$rh_week" "$rh_last"
}

# The commits a stable maintainer makes on the generated tree after its
# whole time line, for the describe tests: each dated a day after the
# one before, from 2024-01-01 at noon, the count kept in
# $TRASH_DIRECTORY/commit-count from test to test.
#
# stable_commit [FILE]: commit a line added to drivers/FILE (default: a
# new drivers/backport-<n>.c) on the HEAD checked out, with the message
# on standard input, and print the commit.
stable_commit () {
	stable_commit_next_ &&
	sc_file=drivers/${1:-backport-$sc_count.c} &&
	echo "/* change $sc_count */" >>"$sc_file" &&
	git add "$sc_file" &&
	GIT_AUTHOR_DATE=$sc_date GIT_COMMITTER_DATE=$sc_date git commit -q -F - &&
	git rev-parse HEAD
}

# stable_pick COMMIT [-x]: cherry-pick COMMIT onto the HEAD checked out,
# dated as stable_commit dates, and print the new commit.
stable_pick () {
	stable_commit_next_ &&
	GIT_COMMITTER_DATE=$sc_date git cherry-pick $2 "$1" >/dev/null &&
	git rev-parse HEAD
}

# stable_release TAG: the release commit of TAG ("Linux <version>",
# drivers/release-<version>.c) by stable_commit, and TAG, annotated.
stable_release () {
	printf "Linux %s\n" "${1#v}" | stable_commit "release-${1#v}.c" >/dev/null &&
	git tag -a -m "Linux ${1#v}" "$1"
}

# stable_commit_next_: one commit more; its number in $sc_count, its
# date in $sc_date.
stable_commit_next_ () {
	sc_count=$(($(cat "$TRASH_DIRECTORY/commit-count" 2>/dev/null || echo 0) + 1)) &&
	echo $sc_count >"$TRASH_DIRECTORY/commit-count" &&
	sc_date=$(printf "2024-01-%02dT12:00:00Z" $sc_count)
}

# rolling_points BRANCH: the points of BRANCH's rolling chain, oldest
# first: the release commit it was created at, then every merge whose
# subject is "Merge <tag>", following first parents.
rolling_points () {
	git log --first-parent --format="%H %s" "$1" >rp.log &&
	awk '{ print $1 } $2 != "Merge" { exit }' rp.log >rp.newest-first &&
	sed -n '1!G;h;$p' rp.newest-first
}

# rolling_first_steps BRANCH: "<commit> <point>" for every commit BRANCH
# contains, <point> being the oldest point of its rolling chain that
# contains <commit>.  Each point's first parent is the point before it,
# so the commits a point brings first are `git rev-list <previous>..<point>`
# (all of the first point's history for the first point): one rev-list
# per point, where asking about each commit would take one merge-base
# per commit and point.
rolling_first_steps () {
	rolling_points "$1" >rfs.points &&
	rfs_prev= &&
	while read rfs_point
	do
		echo "point $rfs_point" &&
		git rev-list "$rfs_point" ${rfs_prev:+"^$rfs_prev"} || return 1
		rfs_prev=$rfs_point
	done <rfs.points >rfs.lists &&
	awk '$1 == "point" { point = $2; next } { print $1, point }' rfs.lists
}

# first_steps_table BRANCH: print the name of a file that holds
# rolling_first_steps BRANCH, made once per branch tip and kept in the
# trash directory under the tip's id, which names the whole history.
first_steps_table () {
	fst_tip=$(git rev-parse --verify -q "$1^{commit}") &&
	fst_table=$TRASH_DIRECTORY/first-steps.$fst_tip &&
	if ! test -f "$fst_table"
	then
		rolling_first_steps "$1" >"$fst_table.tmp" &&
		mv "$fst_table.tmp" "$fst_table"
	fi &&
	echo "$fst_table"
}

# first_step_containing BRANCH COMMIT: the oldest point of BRANCH's
# rolling chain that contains COMMIT (none: exit 1).
first_step_containing () {
	fsc_table=$(first_steps_table "$1") &&
	fsc_commit=$(git rev-parse --verify -q "$2^{commit}") &&
	awk -v commit="$fsc_commit" '
		$1 == commit { print $2; found = 1; exit }
		END { exit !found }
	' "$fsc_table"
}

# write_culprit_test FILE: a `git bisect run` script that says "bad"
# (exit 1) when the commit given as its argument is in HEAD, "good"
# (exit 0) when not, and aborts the bisection on any other answer.
write_culprit_test () {
	cat >"$1" <<-\EOF &&
	#!/bin/sh
	git merge-base --is-ancestor "$1" HEAD
	case $? in
	0) exit 1 ;;
	1) exit 0 ;;
	*) exit 128 ;;
	esac
	EOF
	chmod +x "$1"
}

# bisect_by_hand CULPRIT: answer every question of a running rolling
# bisection with git bisect good/bad as a tester would, calling
# `git rolling bisect-helper next` between the answers, until it names
# the first bad commit.  Its last output is left in next.out.
bisect_by_hand () {
	bh_rounds=0
	until git rolling bisect-helper next >next.out 2>next.err
	do
		grep "^error: stage .* is not over yet" next.err || return 1
		bh_rounds=$((bh_rounds + 1))
		test $bh_rounds -lt 50 || return 1
		if git merge-base --is-ancestor "$1" HEAD
		then
			git bisect bad >/dev/null
		else
			git bisect good >/dev/null
		fi || return 1
	done
	grep "^first bad commit: " next.out >/dev/null && return 0
	# Stage one is over and stage two has started: go on.
	bisect_by_hand "$1"
}

# git_bisect_found COMMIT: git's own bisection, as its log records it,
# found COMMIT as the first bad commit.  The log's comment says so in
# words that changed ("# first bad commit: [<id>] ..." up to git 2.54,
# "# first 'bad' commit: [<id>] ..." from 2.55, the term quoted): read the
# one id of the comment that starts "# first " and names one.
git_bisect_found () {
	git bisect log >gbf.log &&
	sed -n "s/^# first .* commit: \[\([0-9a-f]*\)\].*/\1/p" gbf.log >gbf.found &&
	git rev-parse --verify "$1^{commit}" >gbf.expect &&
	test_cmp gbf.expect gbf.found
}

# git_bisects_in_subdirectory DIR: ask git whether its own bisect runs
# in DIR, a subdirectory of a work tree with a history: git 2.39
# (git-bisect.sh) refuses anywhere but at the top ("You need to run
# this command from the toplevel of the working tree."), the builtin of
# git 2.40 runs there.  A real start, without a checkout, then a reset.
# Sets the prerequisite BISECT_IN_SUBDIRECTORY when it runs; when it
# does not, leaves git's refusal in $TRASH_DIRECTORY/git-bisect-refusal.
git_bisects_in_subdirectory () {
	if (cd "$1" && git bisect start --no-checkout HEAD HEAD~1 >/dev/null 2>"$TRASH_DIRECTORY/git-bisect-refusal")
	then
		git -C "$1" bisect reset >/dev/null 2>&1 &&
		test_set_prereq BISECT_IN_SUBDIRECTORY
	else
		test -s "$TRASH_DIRECTORY/git-bisect-refusal"
	fi
}
