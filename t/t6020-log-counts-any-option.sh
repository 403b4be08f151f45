#!/bin/sh

test_description='log counts what each step brought whatever the options

The commits a step brought are those of git rev-list --count <previous
release>..<release>: a property of two commits, so no option may change
it.  A hand-built history shares commits between series out of order:
a topic branch forked from old mainline is merged into the 6.0 stable
series and, later, into the 6.2 stable series, never into 6.1, and the
stable series merge fix-up branches of their own.  A rolling branch
goes 6.0 -> 6.1 -> 6.2, so the 6.2 step brings the topic again (it is
not in 6.1), although an older step brought it once already.  Every
combination of -<n>, --switches, --since and --reverse (and --json) must
give each step the count the oracle gives.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# commit_at <message>: commit a new file on the current branch.
commit_at () {
	test_tick &&
	echo "$1" >"$(echo "$1" | tr -c "a-z0-9\n" -)" &&
	git add . &&
	git commit -q -m "$1"
}

# release <tag>: a release commit and its annotated tag.
release () {
	commit_at "Linux ${1#v}" &&
	git tag -a -m "Linux ${1#v}" "$1"
}

# merge_into <branch>: merge <branch> into the current branch.
merge_into () {
	test_tick &&
	git merge -q --no-ff -m "Merge branch $1" "$1"
}

test_expect_success 'setup: three series sharing a topic out of order' '
	git init -q -b master repo &&
	cd repo &&
	commit_at "mainline one" &&
	git tag -a -m v6.0-rc1 v6.0-rc1 &&
	commit_at "mainline two" &&
	release v6.0 &&
	git checkout -q -b topic &&
	commit_at "topic one" &&
	commit_at "topic two" &&
	commit_at "topic three" &&
	git checkout -q -b stable-6.0 v6.0 &&
	commit_at "fix 6.0 a" &&
	release v6.0.1 &&
	git checkout -q -b fixes-6.0 &&
	commit_at "fix 6.0 b" &&
	commit_at "fix 6.0 c" &&
	git checkout -q stable-6.0 &&
	commit_at "fix 6.0 d" &&
	merge_into fixes-6.0 &&
	merge_into topic &&
	release v6.0.2 &&
	git checkout -q master &&
	commit_at "mainline three" &&
	git tag -a -m v6.1-rc1 v6.1-rc1 &&
	commit_at "mainline four" &&
	release v6.1 &&
	git checkout -q -b stable-6.1 v6.1 &&
	commit_at "fix 6.1 a" &&
	release v6.1.1 &&
	commit_at "fix 6.1 b" &&
	release v6.1.2 &&
	git checkout -q master &&
	commit_at "mainline five" &&
	git tag -a -m v6.2-rc1 v6.2-rc1 &&
	commit_at "mainline six" &&
	release v6.2 &&
	git checkout -q -b stable-6.2 v6.2 &&
	commit_at "fix 6.2 a" &&
	git checkout -q -b fixes-6.2 &&
	commit_at "fix 6.2 b" &&
	git checkout -q stable-6.2 &&
	merge_into topic &&
	merge_into fixes-6.2 &&
	release v6.2.1 &&
	commit_at "fix 6.2 c" &&
	release v6.2.2 &&
	git checkout -q master &&
	git worktree add -q --detach ../wt v6.0.1 &&
	(
		cd ../wt &&
		for tag in v6.0.2 v6.1.1 v6.1.2 v6.2.1 v6.2.2
		do
			recipe_step $tag || return 1
		done
	) &&
	git branch rolling "$(git -C ../wt rev-parse HEAD)" &&
	git rolling verify --preset linux rolling >/dev/null &&
	! git merge-base --is-ancestor topic v6.1.2 &&
	test $(git rev-list --count v6.1.2..v6.2.1) -gt $(git rev-list --count v6.2..v6.2.1)
'

# oracle: "<release> <count>" per step, newest first, "base" for the base.
oracle () {
	git log --first-parent --format=%s rolling | sed -n "s/^Merge //p" >releases &&
	echo v6.0.1 >>releases &&
	prev= &&
	tac releases | while read tag
	do
		if test -z "$prev"
		then
			echo "$tag base"
		else
			echo "$tag $(git rev-list --count $prev..$tag)"
		fi
		prev=$tag
	done | tac
}

# counts <log args>...: "<release> <count>" per line of git rolling log.
counts () {
	git rolling log --preset linux "$@" rolling >out &&
	awk '{ n = $NF == "base" ? "base" : $(NF - 1); gsub(/,/, "", n); print $2, n }' out
}

test_expect_success 'plain log gives each step the oracle count' '
	cd repo &&
	oracle >expect &&
	counts >actual &&
	test_cmp expect actual &&
	grep "^v6.2.1 " expect >topic-step &&
	test "$(cut -d" " -f2 topic-step)" = $(git rev-list --count v6.1.2..v6.2.1)
'

test_expect_success 'every -<n>, --switches, --since and --reverse agrees' '
	cd repo &&
	oracle >expect &&
	for opts in "-1" "-2" "-3" "-4" "-5" "-6" "-n 2" "--switches" "--switches -1" \
		"--since v6.1.1" "--since v6.0.2" "--since v6.2.1" "--reverse -3" \
		"--switches --reverse" "--since v6.0.2 -2"
	do
		counts $opts >actual &&
		test -s actual &&
		sort actual >sorted &&
		grep -F -x -f actual expect | sort >agreed &&
		test_cmp sorted agreed || { echo "log $opts differs"; return 1; }
	done
'

test_expect_success JQ '--json counts agree too' '
	cd repo &&
	oracle | grep -v base >expect &&
	for opts in "" "-2" "--switches"
	do
		git rolling log --preset linux --json $opts rolling >out.json &&
		jq -r ".branches[0].steps[] | select(.commits != null) | \"\(.release) \(.commits)\"" \
			out.json >actual &&
		test -s actual &&
		sort actual >sorted &&
		grep -F -x -f actual expect | sort >agreed &&
		test_cmp sorted agreed || { echo "log --json $opts differs"; return 1; }
	done
'

test_done
