#!/bin/sh

test_description='git rolling init: every failure to create the branch changes nothing

init stages the configuration under the config file lock, moves the
branch, then writes the configuration.  When the branch cannot move (a
held ref lock, local changes in the way, no space, a lost race) or the
configuration cannot be written, neither is left behind, and no memory
error happens on the way out, nor a leak where who frees what changed
between libgit2 releases (checked under valgrind where installed, in
make test-long, where EXPENSIVE holds: the command itself each time, the
dispatcher too in the first test).
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

# snapshot: everything init could change.
snapshot () {
	{ git for-each-ref && cat "$(git rev-parse --git-dir)/config"; } >"$1"
}

test_expect_success 'setup' '
	stable_tree_linux tree &&
	stable_tree_replay tree 40 &&
	cd tree &&
	gitdir=$(git rev-parse --absolute-git-dir)
'

test_expect_success 'a held ref lock: named, nothing created' '
	cd tree &&
	lock=$(test_ref_lock_file . refs/heads/rs) &&
	: >"$lock" &&
	test_when_finished "rm -f \"$lock\"" &&
	snapshot ../before &&
	test_expect_code 128 test_memcheck_dispatcher init -q rs 2>err &&
	grep "^fatal: cannot lock ref .refs/heads/rs.: Unable to create .$lock.: File exists\.$" err &&
	grep "^remove the file manually to continue\.$" err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'a held config lock: nothing created' '
	cd tree &&
	: >"$gitdir/config.lock" &&
	test_when_finished "rm -f \"$gitdir/config.lock\"" &&
	snapshot ../before &&
	test_expect_code 128 test_memcheck init -q rs 2>err &&
	grep "^fatal: cannot lock the repository configuration" err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

# git refuses to set or unset one value of a key that has several
# (exit 5) and so does libgit2: a failure while the section is staged,
# after the config file is locked and before anything is written.
test_expect_success 'a key with several values: nothing created, nothing leaked' '
	cd tree &&
	git config --add rolling.rs.ident "A U Thor <author@example.org>" &&
	git config --add rolling.rs.ident "C O Mitter <committer@example.org>" &&
	test_when_finished "git config --unset-all rolling.rs.ident" &&
	test_expect_code 5 git config --unset rolling.rs.ident 2>/dev/null &&
	snapshot ../before &&
	test_expect_code 128 test_memcheck_leaks init -q rs 2>err &&
	grep "^fatal: cannot unset rolling.rs.ident: " err &&
	test_path_is_missing "$gitdir/config.lock" &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'init --follow: a key with several values: nothing written, nothing leaked' '
	cd tree &&
	git remote add up "$TRASH_DIRECTORY/nowhere.git" &&
	git config --add rolling.remote.up.branches other &&
	git config --add rolling.remote.up.signatures true &&
	git config --add rolling.remote.up.signatures false &&
	test_when_finished "git config --remove-section rolling.remote.up && git remote remove up" &&
	test_expect_code 5 git config rolling.remote.up.signatures true 2>/dev/null &&
	snapshot ../before &&
	test_expect_code 128 test_memcheck_leaks init --follow up/one --signatures 2>err &&
	grep "^fatal: cannot set rolling.remote.up.signatures: " err &&
	test_path_is_missing "$gitdir/config.lock" &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'local changes in the way of --force on a checked-out branch' '
	cd tree &&
	git rolling init -q --at v6.1.1 rs &&
	git checkout -q rs &&
	echo mine >>Makefile &&
	snapshot ../before &&
	test_expect_code 128 test_memcheck init -q --force --at v6.2.1 rs 2>err &&
	grep "^fatal: your local changes to the following files would be overwritten" err &&
	snapshot ../after &&
	test_cmp ../before ../after &&
	git checkout -q Makefile &&
	git checkout -q --detach
'

test_expect_success 'a lost race: the branch moved meanwhile is kept' '
	cd tree &&
	other=$(git rev-parse v6.1.2^{commit}) &&
	git config --local --list >../config.before &&
	(
		LD_PRELOAD=$TEST_SEAM &&
		GIT_ROLLING_TEST_BEFORE_UPDATE="git update-ref refs/heads/rs $other" &&
		GIT_ROLLING_TEST_SEAM_PATH="*/$(basename "$(test_ref_lock_file . refs/heads/rs)")" &&
		export LD_PRELOAD GIT_ROLLING_TEST_BEFORE_UPDATE GIT_ROLLING_TEST_SEAM_PATH &&
		test_expect_code 128 test_memcheck init -q --force --at v6.2.1 rs 2>../err
	) &&
	grep "^fatal: refs/heads/rs was changed by another process" ../err &&
	test "$(git rev-parse rs)" = "$other" &&
	git config --local --list >../config.after &&
	test_cmp ../config.before ../config.after
'

test_expect_success 'a symbolic ref is not a branch to replace' '
	cd tree &&
	git symbolic-ref refs/heads/alias refs/heads/rs &&
	snapshot ../before &&
	test_expect_code 128 test_memcheck init -q --force --at v6.2.1 alias 2>err &&
	grep "^fatal: refs/heads/alias is a symbolic ref (to refs/heads/rs), not a branch of its own; not moving it$" err &&
	snapshot ../after &&
	test_cmp ../before ../after &&
	git symbolic-ref -d refs/heads/alias
'

# No space left: a file size limit makes every write to a file fail with
# EFBIG (SIGXFSZ ignored), as a full disk fails it with ENOSPC.  What the
# command says, and its exit status, go through a pipe, which has no limit.
# without_space BYTES <git-rolling args>
without_space () {
	ws_blocks=$1
	shift
	(
		trap "" XFSZ &&
		ulimit -f $ws_blocks &&
		test_memcheck "$@"
		echo "exit status $?" >&2
	) 2>&1 | cat >../err
}

test_expect_success 'no space for the branch: nothing created' '
	cd tree &&
	snapshot ../before &&
	without_space 0 init -q nospace &&
	grep "^exit status 128$" ../err &&
	grep "^fatal: cannot update refs/heads/nospace" ../err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'no space for the configuration: the new branch is taken back' '
	cd tree &&
	snapshot ../before &&
	without_space 1 init -q nospace &&
	grep "^exit status 128$" ../err &&
	grep "^fatal: cannot write the repository configuration" ../err &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'a name a tag or another ref already has: refused, nothing created' '
	cd tree &&
	git rev-parse -q --verify refs/tags/v6.1.13 &&
	snapshot ../before &&
	test_expect_code 128 git rolling init -q --at v6.1.10 v6.1.13 >out 2>err &&
	test_must_be_empty out &&
	echo "fatal: '"'"'v6.1.13'"'"' already names refs/tags/v6.1.13: a branch of that name would be ambiguous, and git rolling refuses ambiguous names; choose another name" >expect &&
	test_cmp expect err &&
	test_expect_code 128 git rolling init -q --force v6.1.13 2>err &&
	test_cmp expect err &&
	git update-ref refs/remotes/mirror/HEAD v6.1.10^{commit} &&
	test_when_finished "git update-ref -d refs/remotes/mirror/HEAD" &&
	test_expect_code 128 git rolling init -q mirror 2>err &&
	grep "^fatal: '"'"'mirror'"'"' already names refs/remotes/mirror/HEAD: " err &&
	git branch v6.1.13 v6.1.10 &&
	test_when_finished "git update-ref -d refs/heads/v6.1.13" &&
	test_expect_code 128 git rolling init -q --adopt v6.1.13 2>err &&
	test_cmp expect err &&
	git branch -D v6.1.13 &&
	git update-ref -d refs/remotes/mirror/HEAD &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_expect_success 'names git refuses for a branch are refused' '
	cd tree &&
	snapshot ../before &&
	for name in HEAD "@{-1}" "a..b" "x.lock" "-x" "a b" "@{u}"
	do
		test_expect_code 128 git rolling init -q --at v6.2.1 -- "$name" 2>err &&
		echo "fatal: '"'"'$name'"'"' is not a valid branch name" >expect &&
		test_cmp expect err || return 1
	done &&
	snapshot ../after &&
	test_cmp ../before ../after
'

test_done
