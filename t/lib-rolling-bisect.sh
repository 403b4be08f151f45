# Helpers for the bisect-helper and describe tests (t4xxx): a rolling
# branch grown week by week over a generated Linux-style stable tree,
# and oracles written with plain git.  Source after test-lib.sh and
# lib-stable-tree.sh.

# rolling_history DIR FIRST LAST [INIT-OPTIONS...]: generate the tree in
# DIR, create linux-rolling-stable at week FIRST and advance it once a
# week up to week LAST, the way a cron job would.
rolling_history () {
	rh_dir=$1 rh_week=$2 rh_last=$3
	shift 3
	stable_tree_linux "$rh_dir" &&
	stable_tree_replay "$rh_dir" "$rh_week" &&
	git -C "$rh_dir" rolling init -q --preset linux "$@" linux-rolling-stable || return 1
	while test "$rh_week" -lt "$rh_last"
	do
		rh_week=$((rh_week + 1))
		stable_tree_replay "$rh_dir" "$rh_week" &&
		git -C "$rh_dir" rolling advance -q || return 1
	done
}

# rolling_points BRANCH: the points of BRANCH's rolling chain, oldest
# first: the release commit it was created at, then every merge whose
# subject is "Merge <tag>", following first parents.
rolling_points () {
	git log --first-parent --format="%H %s" "$1" >rp.log &&
	awk '{ print $1 } $2 != "Merge" { exit }' rp.log >rp.newest-first &&
	sed -n '1!G;h;$p' rp.newest-first
}

# first_step_containing BRANCH COMMIT: the oldest point of BRANCH's
# rolling chain that contains COMMIT, found by asking git about every
# point in turn.
first_step_containing () {
	rolling_points "$1" >fsc.points &&
	while read fsc_point
	do
		if git merge-base --is-ancestor "$2" "$fsc_point"
		then
			echo "$fsc_point"
			return 0
		fi
	done <fsc.points
	return 1
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
