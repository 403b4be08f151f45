#!/bin/sh

test_description='git'"'"'s environment, as git merge --ff-only and git log honour it

GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_CEILING_DIRECTORIES and
GIT_NAMESPACE (which git log and git merge ignore): each is set for a
command of git rolling and for plain git in the same place, and the two
must leave the same state (refs, index, work tree, git status) or give
the same refusal.  GIT_COMMON_DIR, which libgit2 cannot follow, is
refused.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-repo-shapes.sh

# week N -C DIR | --git-dir=DIR: the server's releases of week N, fetched
# into the clone git finds with those options (the git directory apart
# is named: safe.bareRepository may be "explicit").
week () {
	stable_tree_replay server "$1" &&
	shift &&
	git "$@" fetch -q origin --tags
}

test_expect_success 'setup: a server and a clone with its rolling branch checked out' '
	shape_tree server &&
	git -C server rolling init -q linux-rolling-stable &&
	git clone -q server repo &&
	git -C repo rolling init -q --at v6.0.2 linux-rolling-stable &&
	git -C repo checkout -q linux-rolling-stable
'

test_expect_success 'GIT_DIR and GIT_WORK_TREE apart: every command, and advance as git' '
	git clone -q server apart &&
	mv apart/.git apart.git &&
	git --git-dir=apart.git --work-tree=apart rolling init -q --at v6.0.2 linux-rolling-stable &&
	(
		GIT_DIR="$TRASH_DIRECTORY/apart.git" &&
		GIT_WORK_TREE="$TRASH_DIRECTORY/apart" &&
		export GIT_DIR GIT_WORK_TREE &&
		git checkout -q linux-rolling-stable &&
		git rolling verify linux-rolling-stable >out &&
		grep "^linux-rolling-stable: verified$" out &&
		git rolling status >out &&
		grep "advance would merge v6.0.3" out &&
		git rolling log >out &&
		grep " v6.0.2 " out &&
		shape_like_git apart
	) &&
	test_path_is_missing apart/.git &&
	test "$(git --git-dir=apart.git rev-parse linux-rolling-stable^2)" = \
		"$(git --git-dir=apart.git rev-parse v6.0.3^{commit})"
'

test_expect_success 'GIT_DIR and GIT_WORK_TREE relative, from a subdirectory' '
	week 14 --git-dir=apart.git &&
	(
		cd apart/drivers &&
		GIT_DIR=../../apart.git &&
		GIT_WORK_TREE=.. &&
		export GIT_DIR GIT_WORK_TREE &&
		shape_like_git .
	)
'

# extensions.worktreeConfig: core.worktree in config.worktree, which
# libgit2 before 1.8 does not read, relative to the git directory as git
# reads it; from a subdirectory, where a path taken relative to the
# current directory would be another.
test_expect_success 'core.worktree relative, in config.worktree: the work tree git finds' '
	git clone -q server cwt &&
	mv cwt/.git cwt.git &&
	git --git-dir=cwt.git config core.repositoryFormatVersion 1 &&
	git --git-dir=cwt.git config extensions.worktreeConfig true &&
	git --git-dir=cwt.git config --worktree core.worktree ../cwt &&
	git --git-dir=cwt.git rolling init -q --at v6.0.2 linux-rolling-stable &&
	week 14 --git-dir=cwt.git &&
	(
		GIT_DIR="$TRASH_DIRECTORY/cwt.git" &&
		export GIT_DIR &&
		git -C cwt checkout -q linux-rolling-stable &&
		test "$(cd cwt/drivers && git rev-parse --show-toplevel)" = "$TRASH_DIRECTORY/cwt" &&
		shape_like_git cwt/drivers
	) &&
	git --git-dir=cwt.git --work-tree=cwt status --porcelain >status &&
	test_must_be_empty status
'

# Without extensions.worktreeConfig git reads no config.worktree: a
# core.worktree there is nothing, for git and for git rolling.
test_expect_success 'config.worktree without the extension is not read, as in git' '
	git clone -q server noext &&
	git -C noext rolling init -q --at v6.0.2 linux-rolling-stable &&
	git -C noext checkout -q linux-rolling-stable &&
	printf "[core]\n\tworktree = %s/nowhere\n" "$TRASH_DIRECTORY" >noext/.git/config.worktree &&
	test "$(git -C noext rev-parse --show-toplevel)" = "$TRASH_DIRECTORY/noext" &&
	week 15 -C noext &&
	shape_like_git noext
'

test_expect_success 'GIT_DIR alone: the current directory is the work tree, as for git' '
	week 16 --git-dir=apart.git &&
	(
		cd apart &&
		GIT_DIR=../apart.git &&
		export GIT_DIR &&
		shape_like_git .
	)
'

test_expect_success 'a failed advance from a subdirectory puts back what it wrote' '
	week 17 --git-dir=apart.git &&
	(
		GIT_DIR="$TRASH_DIRECTORY/apart.git" &&
		GIT_WORK_TREE="$TRASH_DIRECTORY/apart" &&
		export GIT_DIR GIT_WORK_TREE &&
		shape_state apart "$TRASH_DIRECTORY/before" &&
		other=$(git rev-parse v6.0.2^{commit}) &&
		# the seam fires where the branch is locked: its lock, or the stack'"'"'s
		GIT_ROLLING_TEST_SEAM_PATH="*/$(basename "$(test_ref_lock_file apart refs/heads/linux-rolling-stable)")" &&
		export GIT_ROLLING_TEST_SEAM_PATH &&
		cd apart/drivers &&
		test_expect_code 128 env LD_PRELOAD="$TEST_SEAM" \
			GIT_ROLLING_TEST_BEFORE_UPDATE="git update-ref refs/heads/linux-rolling-stable $other" \
			git rolling advance 2>"$TRASH_DIRECTORY/err" &&
		git update-ref refs/heads/linux-rolling-stable HEAD@{1} &&
		cd ../.. &&
		shape_state apart "$TRASH_DIRECTORY/after"
	) &&
	grep "^fatal: refs/heads/linux-rolling-stable was changed by another process" err &&
	! grep "^warning" err &&
	test_cmp before after
'

test_expect_success 'GIT_INDEX_FILE: advance updates that index, as git merge does' '
	week 17 -C repo &&
	cp repo/.git/index index.main &&
	cp repo/.git/index index.alt &&
	(
		GIT_INDEX_FILE="$TRASH_DIRECTORY/index.alt" &&
		export GIT_INDEX_FILE &&
		shape_like_git repo &&
		git -C repo diff --cached --quiet HEAD
	) &&
	cmp index.main repo/.git/index &&
	test_path_is_missing index.alt.lock &&
	git -C repo reset -q
'

test_expect_success 'a relative GIT_INDEX_FILE counts from the top of the work tree, as in git' '
	week 18 -C repo &&
	cp repo/.git/index repo/.git/index.saved &&
	cp repo/.git/index repo/index.rel &&
	(
		cd repo/drivers &&
		GIT_INDEX_FILE=index.rel &&
		export GIT_INDEX_FILE &&
		shape_like_git . &&
		git diff --cached --quiet HEAD
	) &&
	test_path_is_missing repo/drivers/index.rel &&
	cmp repo/.git/index.saved repo/.git/index &&
	rm repo/index.rel repo/.git/index.saved &&
	git -C repo reset -q
'

test_expect_success 'a run killed with GIT_INDEX_FILE is finished on that index, whatever the next says' '
	week 19 -C repo &&
	cp repo/.git/index index.main &&
	cp repo/.git/index index.killed &&
	merge=$(cd repo && shape_twin linux-rolling-stable) &&
	test_expect_code 137 env GIT_INDEX_FILE="$TRASH_DIRECTORY/index.killed" \
		LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="*/index.killed.lock" \
		GIT_ROLLING_TEST_SEAM_NTH=2 \
		GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$GIT_ROLLING_PID \$PPID" git -C repo rolling advance -q &&
	test "$(git -C repo rev-parse HEAD)" = $merge &&
	test_path_is_file repo/.git/ROLLING_ADVANCE &&
	test_path_is_file index.killed.lock &&
	grep "^index $TRASH_DIRECTORY/index.killed$" repo/.git/ROLLING_ADVANCE &&
	git -C repo rolling advance -q &&
	test_path_is_missing repo/.git/ROLLING_ADVANCE &&
	test_path_is_missing index.killed.lock &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/index.killed" git -C repo diff --cached --quiet HEAD &&
	GIT_INDEX_FILE="$TRASH_DIRECTORY/index.killed" git -C repo diff --quiet &&
	cmp index.main repo/.git/index &&
	git -C repo reset -q
'

test_expect_success 'GIT_OBJECT_DIRECTORY: objects read and written there' '
	git clone -q server objrepo &&
	mv objrepo/.git/objects objects.elsewhere &&
	mkdir objrepo/.git/objects &&
	(
		GIT_OBJECT_DIRECTORY="$TRASH_DIRECTORY/objects.elsewhere" &&
		export GIT_OBJECT_DIRECTORY &&
		cd objrepo &&
		git rolling init -q --at v6.0.2 linux-rolling-stable &&
		git checkout -q linux-rolling-stable &&
		shape_like_git . &&
		git rolling verify linux-rolling-stable >out &&
		grep "^linux-rolling-stable: verified$" out
	) &&
	find objrepo/.git/objects -type f >own &&
	test_must_be_empty own
'

test_expect_success 'GIT_OBJECT_DIRECTORY: fetch quarantines and keeps objects there' '
	stable_tree_replay server 19 &&
	git -C server rolling advance -q &&
	tip=$(git -C server rev-parse linux-rolling-stable) &&
	(
		GIT_OBJECT_DIRECTORY="$TRASH_DIRECTORY/objects.elsewhere" &&
		export GIT_OBJECT_DIRECTORY &&
		cd objrepo &&
		git rolling init -q --follow origin/linux-rolling-stable &&
		git rolling fetch origin >out &&
		grep "^origin/linux-rolling-stable: verified" out &&
		test "$(git rev-parse origin/linux-rolling-stable)" = $tip &&
		git cat-file -e $tip &&
		git rolling verify origin/linux-rolling-stable
	) &&
	find objrepo/.git/objects -type f >own &&
	test_must_be_empty own
'

test_expect_success 'GIT_ALTERNATE_OBJECT_DIRECTORIES: history read from there' '
	git clone -q --shared server altrepo &&
	rm altrepo/.git/objects/info/alternates &&
	test_must_fail git -C altrepo log -1 >/dev/null 2>&1 &&
	(
		GIT_ALTERNATE_OBJECT_DIRECTORIES="$TRASH_DIRECTORY/server/.git/objects" &&
		export GIT_ALTERNATE_OBJECT_DIRECTORIES &&
		cd altrepo &&
		git rolling init -q --at v6.0.2 linux-rolling-stable &&
		git checkout -q linux-rolling-stable &&
		shape_like_git . &&
		release=$(git describe --tags --exact-match HEAD^2) &&
		git rolling log -1 >out &&
		grep " $release " out
	) &&
	git -C altrepo cat-file -e linux-rolling-stable 2>/dev/null &&
	test_must_fail git -C server cat-file -e "$(git -C altrepo rev-parse linux-rolling-stable)"
'

test_expect_success 'GIT_CEILING_DIRECTORIES: no repository above it, the same refusal as git' '
	(
		cd repo/drivers &&
		GIT_CEILING_DIRECTORIES="$TRASH_DIRECTORY/repo" &&
		export GIT_CEILING_DIRECTORIES &&
		test_expect_code 128 git rev-parse --git-dir 2>expect &&
		test_expect_code 128 git rolling verify 2>actual &&
		test_cmp expect actual &&
		test_expect_code 128 git rolling status 2>actual &&
		test_cmp expect actual
	) &&
	(
		cd repo/drivers &&
		GIT_CEILING_DIRECTORIES="$TRASH_DIRECTORY" &&
		export GIT_CEILING_DIRECTORIES &&
		git rolling verify linux-rolling-stable >out &&
		grep "^linux-rolling-stable: verified$" out
	)
'

test_expect_success 'GIT_NAMESPACE is ignored, as by git log and git merge' '
	week 20 -C repo &&
	git -C repo update-ref refs/namespaces/other/refs/heads/linux-rolling-stable "v6.0.2^{commit}" &&
	git -C repo rolling log >expect &&
	(
		GIT_NAMESPACE=other &&
		export GIT_NAMESPACE &&
		test "$(git -C repo rev-parse linux-rolling-stable)" != \
			"$(git -C repo rev-parse v6.0.2^{commit})" &&
		git -C repo rolling log >actual &&
		test_cmp expect actual &&
		shape_like_git repo
	) &&
	test "$(git -C repo rev-parse refs/namespaces/other/refs/heads/linux-rolling-stable)" = \
		"$(git -C repo rev-parse v6.0.2^{commit})"
'

test_expect_success 'GIT_COMMON_DIR, which libgit2 cannot follow, is refused' '
	git -C repo for-each-ref >before &&
	(
		GIT_COMMON_DIR="$TRASH_DIRECTORY/apart.git" &&
		export GIT_COMMON_DIR &&
		test_expect_code 128 git -C repo rolling advance 2>err &&
		grep "^fatal: GIT_COMMON_DIR is not supported: git rolling uses the common directory the git directory names; unset it$" err
	) &&
	git -C repo for-each-ref >after &&
	test_cmp before after
'

test_done
