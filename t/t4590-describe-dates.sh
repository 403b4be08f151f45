#!/bin/sh

test_description='describe without a commit-graph: dates order the walk, never decide

Without a commit-graph describe answers every step in one walk of
history, newest commit first by committer date.  Clock skew must cost
time only: on a history whose commit dates lie (stable commits dated in
1971 and 2099), every commit gets the step that plain git names, the
oldest point of the rolling chain that contains it.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

# commit NAME DATE: a commit adding NAME.c, dated DATE.
commit () {
	echo "$1" >"$1.c" &&
	git add "$1.c" &&
	GIT_COMMITTER_DATE="$2T12:00:00Z" GIT_AUTHOR_DATE="$2T12:00:00Z" git commit -q -m "$1"
}

# release TAG DATE: the commit and annotated tag of a release.
release () {
	echo "$1" >Makefile &&
	git add Makefile &&
	GIT_COMMITTER_DATE="$2T12:00:00Z" GIT_AUTHOR_DATE="$2T12:00:00Z" \
		git commit -q -m "Linux ${1#v}" &&
	GIT_COMMITTER_DATE="$2T12:00:00Z" git tag -a -m "Linux ${1#v}" "$1"
}

# check_all: describe names, for every commit of the repository, the
# point first_step_containing (plain git) names, or exits 1 when none
# ("not in ... yet", or "never in ..." for a series the branch left).
check_all () {
	git rev-list --all >all &&
	test_line_count -gt 20 all &&
	while read ca_commit
	do
		if ca_point=$(first_step_containing linux-rolling-stable $ca_commit)
		then
			git rolling describe $ca_commit >out &&
			ca_abbrev=$(sed -n "s/^first in linux-rolling-stable at .* (\(merge\|base\) \([0-9a-f]*\), .*/\2/p" out) &&
			test "$(git rev-parse "$ca_abbrev")" = "$ca_point" ||
			{ echo "$ca_commit: expected $ca_point, got: $(cat out)"; return 1; }
		else
			test_expect_code 1 git rolling describe --no-backports $ca_commit >out &&
			grep -e "^not in linux-rolling-stable" -e "^never in linux-rolling-stable" out ||
			{ echo "$ca_commit: expected none, got: $(cat out)"; return 1; }
		fi
	done <all
}

# step TAG DATE: a release, then the advance that merges it.
step () {
	release "$@" &&
	git rolling advance -q linux-rolling-stable
}

test_expect_success 'setup: three series, and stable commits whose dates lie' '
	git init -q -b master repo &&
	cd repo &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	commit m1 2024-01-01 && release v6.0 2024-01-02 &&
	git checkout -q -b linux-6.0.y &&
	commit a1 2024-01-03 && release v6.0.1 2024-01-04 &&
	git rolling init -q --preset linux --at v6.0.1 linux-rolling-stable &&
	commit a2 2099-01-01 && commit a3 1971-01-01 && step v6.0.2 2024-01-06 &&
	git checkout -q master &&
	commit m2 2024-01-09 && commit m3 2024-01-10 && release v6.1 2024-01-11 &&
	commit m4 2024-01-12 && release v6.2-rc1 2024-01-13 &&
	git checkout -q -b linux-6.1.y v6.1 &&
	commit b1 1971-01-02 && step v6.1.1 2024-01-14 &&
	git checkout -q linux-6.0.y &&
	commit a4 2024-01-15 && step v6.0.3 2024-01-16 &&
	git checkout -q linux-6.1.y &&
	commit b2 2024-01-17 && step v6.1.2 2024-01-18 &&
	git checkout -q master &&
	commit m5 2024-01-19 && release v6.2 2024-01-20 &&
	commit m6 2024-01-21 && release v6.3-rc1 2024-01-22 &&
	git checkout -q -b linux-6.2.y v6.2 &&
	commit c1 2024-01-23 && step v6.2.1 2024-01-24 &&
	commit c2 2098-01-01 && step v6.2.2 2024-01-25 &&
	commit c3 2024-01-26 &&
	git checkout -q master &&
	commit m7 2099-06-01 && commit m8 1970-06-01 &&
	git log --first-parent --format=%s linux-rolling-stable >subjects &&
	grep "^Merge v6.1.1\$" subjects &&
	grep "^Merge v6.2.2\$" subjects &&
	test_path_is_missing .git/objects/info/commit-graph
'

# v6.1 (and m2, m3 below it) is reached first from the newer 6.2 steps
# down mainline, since the 6.1.y way down passes b1 of 1971: the walk
# must hand the older step on when it comes.
test_expect_success 'every commit, against plain git' '
	cd repo &&
	git rolling describe v6.1~1 >out &&
	grep " at v6.1.1 (merge " out &&
	check_all
'

# With a commit-graph git answers the ancestry questions; t4500 asks
# them of a sample of steps in make test, this every commit in make
# test-long.
test_expect_success EXPENSIVE 'the same with a commit-graph (git answers)' '
	cd repo &&
	git commit-graph write --reachable --no-progress &&
	test_when_finished "rm -f .git/objects/info/commit-graph" &&
	check_all
'

test_done
