#!/bin/sh

test_description='a linked work tree'"'"'s own stack holds its own refs only

In a reftable repository each linked work tree has a stack of its own
(.git/worktrees/<id>/reftable) for the refs that are its own: HEAD and
the other root refs, refs/bisect/, refs/worktree/, refs/rewritten/.
git looks every other name up in the common stack only
(refs/reftable-backend.c, backend_for()): a refs/heads/<branch> that
the work tree'"'"'s stack holds as well is not the branch git rev-parse,
git log or git merge use there, and it is not the one git rolling uses.
(git for-each-ref alone lists it in that work tree: the name'"'"'s value
is the one git resolves it to.)
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-reftable.sh

test_expect_success REFTABLE 'setup: a linked work tree on a branch' '
	reftable_repo repo &&
	git -C repo worktree add -q -b side ../wt HEAD~1 &&
	git -C wt update-ref refs/bisect/bad HEAD &&
	git -C repo update-ref refs/bisect/good HEAD &&
	test -f repo/.git/worktrees/wt/reftable/tables.list
'

test_expect_success REFTABLE 'refs/heads/<branch> in the work tree'"'"'s own stack is not the branch' '
	echo "refs/heads/side $(cat new)" | test-reftable add repo/.git/worktrees/wt/reftable &&
	git -C wt rev-parse refs/heads/side >actual &&
	test_cmp old actual &&
	git -C wt rev-parse HEAD >actual &&
	test_cmp old actual &&
	same_ref wt refs/heads/side HEAD refs/bisect/bad refs/bisect/good \
		main-worktree/refs/bisect/good worktrees/wt/refs/bisect/bad &&
	same_ref repo refs/heads/side worktrees/wt/HEAD &&
	# The listing: the shared refs as the common stack holds them, the
	# work tree'"'"'s own from its stack.
	git -C wt for-each-ref --format="%(objectname)" refs/heads/side >listed-by-git &&
	test_cmp new listed-by-git &&
	old=$(cat old) &&
	(cd wt &&
	 git for-each-ref --format="%(objectname) %(*objectname) %(refname) %(symref)" |
	 sed -e "s/^[0-9a-f]*\\(  refs\\/heads\\/side \\)\$/$old\\1/") >expect &&
	grep "^$(cat old)  refs/heads/side \$" expect &&
	grep " refs/bisect/bad " expect &&
	! grep " refs/bisect/good " expect &&
	rt_refs wt >actual &&
	test_cmp expect actual &&
	same_refs repo
'

test_expect_success REFTABLE 'the work tree'"'"'s own names are read from its stack only' '
	echo "refs/bisect/good $(cat old)" | test-reftable add repo/.git/reftable &&
	echo "ORIG_HEAD $(cat new)" | test-reftable add repo/.git/reftable &&
	same_ref wt refs/bisect/good ORIG_HEAD main-worktree/ORIG_HEAD &&
	same_ref repo refs/bisect/good ORIG_HEAD worktrees/wt/ORIG_HEAD &&
	same_refs repo
'

test_done
