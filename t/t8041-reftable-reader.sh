#!/bin/sh

test_description='the reftable reader reads what git reads

git rolling reads the refs of a reftable repository with git'"'"'s own
reftable library (lib/vendor/reftable) and writes them through git.
Whatever git wrote, in whatever layout (many tables or one, small blocks
and their index, restart points, reflogs in the same tables, deletions,
symbolic refs, peeled tags, a linked work tree and its own stack), the
refs read must be exactly those git for-each-ref lists; a table that
does not parse is an error, never a partial listing.  Tables git does
not write are t8042'"'"'s.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-reftable.sh

test_expect_success REFTABLE 'setup: every kind of ref, one table a transaction' '
	git init -q --ref-format=reftable repo &&
	cd repo &&
	# No compaction: the stack keeps a table for every transaction.
	GIT_TEST_REFTABLE_AUTOCOMPACTION=false &&
	export GIT_TEST_REFTABLE_AUTOCOMPACTION &&
	test_commit_ () { echo "$1" >file && git add file && git commit -q -m "$1"; } &&
	test_commit_ one && git tag -a -m "one" v1 &&
	test_commit_ two && git tag light &&
	git tag -a -m "tag of a tag" nested v1 &&
	git branch side &&
	git update-ref refs/remotes/origin/main HEAD &&
	git symbolic-ref refs/remotes/origin/HEAD refs/remotes/origin/main &&
	git update-ref refs/bisect/bad HEAD &&
	git update-ref refs/worktree/mine HEAD~1 &&
	git update-ref ORIG_HEAD HEAD~1 &&
	git branch gone && git branch -D gone &&
	git branch moved HEAD~1 && git branch -f moved HEAD &&
	git tag -d light && git tag light HEAD~1 &&
	test $(wc -l <.git/reftable/tables.list) -gt 10
'

test_expect_success REFTABLE 'many tables: the newest record wins, deletions hide' '
	same_refs repo &&
	same_ref repo HEAD ORIG_HEAD refs/heads/moved refs/heads/gone refs/tags/light \
		refs/remotes/origin/HEAD refs/tags/nested
'

test_expect_success REFTABLE 'a linked work tree: its own stack, and the shared refs' '
	git -C repo worktree add -q -b wt ../wt HEAD~1 &&
	git -C wt update-ref refs/bisect/good HEAD &&
	git -C wt update-ref refs/worktree/theirs HEAD &&
	git -C wt update-ref ORIG_HEAD HEAD &&
	test -f repo/.git/worktrees/wt/reftable/tables.list &&
	same_refs wt &&
	same_refs repo &&
	same_ref wt HEAD ORIG_HEAD refs/bisect/bad refs/bisect/good main-worktree/HEAD \
		worktrees/wt/HEAD refs/heads/wt &&
	same_ref repo HEAD worktrees/wt/HEAD worktrees/wt/ORIG_HEAD main-worktree/ORIG_HEAD
'

test_expect_success REFTABLE 'thousands of refs in small blocks with restarts and an index, reflogs beside them' '
	(cd repo &&
	 one=$(git rev-parse HEAD~1) && two=$(git rev-parse HEAD) &&
	 i=0 &&
	 while test $i -lt 3000
	 do
		echo "create refs/tags/t$i $one" &&
		echo "create refs/heads/b/$i $two" &&
		i=$((i + 1)) || return 1
	 done | git update-ref --stdin &&
	 git -c reftable.blockSize=512 -c reftable.restartInterval=3 pack-refs &&
	 test $(wc -l <.git/reftable/tables.list) = 1) &&
	same_refs repo &&
	same_refs wt &&
	(cd repo && i=0 &&
	 while test $i -lt 20
	 do
		git update-ref -m "move $i" refs/tags/t$i HEAD &&
		git update-ref -d refs/heads/b/$i &&
		i=$((i + 1)) || return 1
	 done) &&
	same_refs repo
'

test_expect_success REFTABLE 'tables with and without object index, large blocks' '
	(cd repo &&
	 git -c reftable.blockSize=65536 -c reftable.indexObjects=false pack-refs) &&
	same_refs repo &&
	(cd repo &&
	 git -c reftable.blockSize=4096 -c reftable.indexObjects=true -c reftable.restartInterval=64 pack-refs) &&
	same_refs repo
'

test_expect_success REFTABLE 'a table name that leaves the directory is read as git reads it' '
	cp -R repo odd &&
	table=$(head -n 1 odd/.git/reftable/tables.list) &&
	mv "odd/.git/reftable/$table" "odd/.git/$table" &&
	sed -e "1s|^|../|" odd/.git/reftable/tables.list >list &&
	mv list odd/.git/reftable/tables.list &&
	same_refs odd
'

test_expect_success REFTABLE 'a cut table is an error, never a crash' '
	rm -rf odd && cp -R repo odd &&
	table=odd/.git/reftable/$(head -n 1 odd/.git/reftable/tables.list) &&
	cp "$table" pristine &&
	size=$(wc -c <pristine) &&
	for cut in 1 $((size - 30)) $((size - 60)) $((size - 90))
	do
		head -c $cut pristine >"$table" &&
		test_must_fail git -C odd rev-parse -q --verify HEAD &&
		test_must_fail rt_refs odd >out &&
		grep "^error: cannot read the reftable stack .*: corrupt reftable file" out ||
		return 1
	done &&
	cp pristine "$table" &&
	same_refs odd
'

# git 2.55 reads a table of 29 to 67 bytes from before its start, and
# crashes; git rolling refuses it (lib/reftable-system.c).
test_expect_success REFTABLE 'a table too short for its footer is an error' '
	head -c 40 pristine >"$table" &&
	test_must_fail rt_refs odd >out &&
	grep "^error: cannot read the reftable stack .*: corrupt reftable file" out &&
	cp pristine "$table"
'

test_expect_success REFTABLE 'a SHA-256 table is refused' '
	git init -q --ref-format=reftable --object-format=sha256 sha256 &&
	test_commit_ () { echo "$1" >file && git add file && git commit -q -m "$1"; } &&
	(cd sha256 && test_commit_ one) &&
	rm -rf odd && cp -R repo odd &&
	for table in $(cat sha256/.git/reftable/tables.list)
	do
		cp sha256/.git/reftable/$table odd/.git/reftable/ &&
		echo $table >>odd/.git/reftable/tables.list || return 1
	done &&
	test_must_fail git -C odd rev-parse -q --verify HEAD &&
	test_must_fail rt_refs odd >out &&
	grep "^error: cannot read the reftable stack .*: corrupt reftable file" out
'

test_done
