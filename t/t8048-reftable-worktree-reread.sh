#!/bin/sh

test_description='a linked work tree'"'"'s own refs read again in the same process

In a reftable repository a linked work tree keeps HEAD, refs/bisect/ and
its other own refs in a stack of its own.  A command of git rolling that
reads one of them, runs git, and reads it again (bisect-helper start
resolves the bad revision, git bisect start checks out another commit,
then it names the step checked out) must read what git wrote, not what
the library kept of its first reading of that stack: each stack is
reloaded before every answer (refdb-reftable.h).
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-reftable.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

# git refs migrate (2.46) turns the generated history into reftable.
if test_have_prereq REFTABLE &&
	git init -q probe-migrate &&
	git -C probe-migrate refs migrate --ref-format=reftable --dry-run >/dev/null 2>&1
then
	test_set_prereq MIGRATE
fi
rm -rf probe-migrate

# reread_after DIR COMMAND NAME...: test-rolling reread COMMAND NAME...
# in DIR (its output in "reread"), and what it read after COMMAND (in
# "actual") is what git reads then: each NAME as git resolves it, and
# the refs git lists.
reread_after () {
	rr_dir=$1 &&
	rr_cmd=$2 &&
	shift 2 &&
	(cd "$rr_dir" && test-rolling reread "$rr_cmd" "$@") >reread 2>reread.err &&
	sed -n "1,/^after: /p" reread >before &&
	sed -n "/^after: /,\$p" reread >actual &&
	{
		echo "after: exit 0" &&
		git_ref_lines "$rr_dir" "$@" &&
		git -C "$rr_dir" for-each-ref \
			--format="%(objectname) %(*objectname) %(refname) %(symref)"
	} >expect &&
	test_cmp expect actual
}

test_expect_success REFTABLE 'setup: a reftable repository and a linked work tree with its own stack' '
	reftable_repo repo &&
	git -C repo worktree add -q -b side ../wt HEAD &&
	test -f repo/.git/worktrees/wt/reftable/tables.list
'

test_expect_success REFTABLE 'its HEAD and refs/bisect/ as git changed them since the first reading' '
	reread_after wt "git checkout -q --detach HEAD~1 && git update-ref refs/bisect/bad HEAD &&
		git update-ref refs/bisect/good-1 HEAD" \
		HEAD refs/bisect/bad refs/bisect/good-1 refs/heads/side &&
	grep "^HEAD -> refs/heads/side$" before &&
	grep "^refs/bisect/bad missing$" before &&
	grep "^HEAD $(cat old)$" actual &&
	grep "^refs/bisect/bad $(cat old)$" actual &&
	grep "^$(cat old)  refs/bisect/good-1 $" actual
'

test_expect_success REFTABLE 'git bisect in the work tree, HEAD and refs/bisect/ read before and after' '
	old=$(cat old) new=$(cat new) &&
	git -C wt checkout -q side &&
	git -C wt update-ref -d refs/bisect/bad &&
	reread_after wt "git bisect start $new $old" HEAD refs/bisect/bad &&
	grep "^HEAD -> refs/heads/side$" before &&
	grep "^refs/bisect/bad $new$" actual &&
	grep "^$old  refs/bisect/good-$old $" actual &&
	reread_after wt "git bisect reset" HEAD refs/bisect/bad "refs/bisect/good-$old" &&
	grep "^refs/bisect/bad $new$" before &&
	grep "^refs/bisect/bad missing$" actual &&
	grep "^refs/bisect/good-$old missing$" actual &&
	reread_after wt "git update-ref -d refs/bisect/good-1" HEAD refs/bisect/good-1 &&
	grep "^refs/bisect/good-1 missing$" actual
'

test_expect_success REFTABLE 'another work tree'"'"'s own refs, read from the main one and back' '
	old=$(cat old) new=$(cat new) &&
	reread_after repo "git -C ../wt update-ref refs/bisect/bad $new &&
		git -C ../wt checkout -q side" \
		worktrees/wt/HEAD worktrees/wt/refs/bisect/bad refs/bisect/bad &&
	grep "^worktrees/wt/HEAD -> refs/heads/side$" actual &&
	grep "^worktrees/wt/refs/bisect/bad $new$" actual &&
	reread_after wt "git -C ../repo update-ref ORIG_HEAD $old &&
		git -C ../repo checkout -q --detach $old" \
		main-worktree/HEAD main-worktree/ORIG_HEAD HEAD ORIG_HEAD &&
	grep "^main-worktree/HEAD $old$" actual
'

test_expect_success REFTABLE,MIGRATE 'setup: a rolling branch in a reftable repository, a work tree on its tip' '
	rolling_history tree 11 30 &&
	cp -R tree rt &&
	# git 2.46 and 2.47 migrate no reflogs, which nothing here reads.
	rm -rf rt/.git/logs &&
	git -C rt refs migrate --ref-format=reftable &&
	test "$(git -C rt rev-parse --show-ref-format)" = reftable &&
	git -C rt worktree add -q --detach ../rt-wt linux-rolling-stable &&
	test -f rt/.git/worktrees/rt-wt/reftable/tables.list &&
	git -C rt rolling bisect-helper steps | cut -d" " -f1 >step-commits &&
	test_line_count -gt 4 step-commits
'

# bisect-helper start resolves HEAD (the bad step) in the work tree's
# stack, git bisect start checks out a step in the middle, and
# bisect-helper names the step HEAD is at now: the tip, read again from
# the reading before git moved HEAD, is wrong.
test_expect_success REFTABLE,MIGRATE 'bisect-helper start in the work tree names the step git checked out' '
	cd rt-wt &&
	tip=$(git rev-parse HEAD) &&
	git rolling bisect-helper start HEAD HEAD~4 >out &&
	head=$(git rev-parse HEAD) &&
	test "$head" != "$tip" &&
	grep -x "$head" ../step-commits &&
	tag=$(git log -1 --format=%s HEAD | sed -n "s/^Merge //p") &&
	grep "^testing $tag (merge $(git rev-parse --short HEAD), [0-9-]*), step [0-9]* of 4;" out &&
	git rolling bisect-helper reset >/dev/null 2>&1 &&
	test "$(git rev-parse HEAD)" = "$tip"
'

test_done
