#!/bin/sh

test_description='sparse checkouts and per-worktree configuration

git sparse-checkout, cone and non-cone, in a clone of repository format
1 sets extensions.worktreeConfig and writes core.sparseCheckout to
config.worktree; every command works there, and a checked-out advance
touches only the sparse paths, as git merge --ff-only does.  Keys in
config.worktree (the main work tree'"'"'s or a linked one'"'"'s) count
wherever git reads them; a bare repository whose core.bare lives there
stays bare.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-repo-shapes.sh

test_expect_success 'setup: a server and a clone of repository format 1' '
	shape_tree server &&
	git -C server config uploadpack.allowFilter true &&
	git -C server config uploadpack.allowAnySHA1InWant true &&
	git clone -q --filter=blob:none "file://$TRASH_DIRECTORY/server" clone &&
	test "$(git -C clone config core.repositoryFormatVersion)" = 1 &&
	git -C clone rolling init -q --at v6.0.2 linux-rolling-stable &&
	git -C clone checkout -q linux-rolling-stable
'

test_expect_success 'cone mode: worktreeConfig set, every command works' '
	git -C clone sparse-checkout set --cone &&
	test "$(git -C clone config extensions.worktreeConfig)" = true &&
	test "$(git -C clone config --worktree core.sparseCheckout)" = true &&
	test_path_is_missing clone/drivers &&
	git -C clone rolling verify linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified$" out &&
	git -C clone rolling status >out &&
	grep "advance would merge v6.0.3" out &&
	git -C clone rolling log >out &&
	grep " v6.0.2 " out &&
	git -C clone rolling describe v6.0.2 >out &&
	grep "v6.0.2" out
'

test_expect_success 'cone mode: advance touches only the sparse paths, as git merge --ff-only' '
	git -C clone diff --name-only linux-rolling-stable v6.0.3 >changed &&
	grep "^drivers/" changed &&
	grep "^Makefile$" changed &&
	shape_like_git clone &&
	test_path_is_missing clone/drivers &&
	git -C clone ls-files -t drivers >tags &&
	! grep -v "^S " tags &&
	git -C clone show HEAD:Makefile >expect &&
	test_cmp expect clone/Makefile
'

test_expect_success 'non-cone patterns: advance writes the matching paths only' '
	stable_tree_replay server 14 &&
	git -C clone fetch -q origin --tags &&
	git -C clone sparse-checkout set --no-cone "/Makefile" "/drivers/1*.c" &&
	test "$(git -C clone config --worktree core.sparseCheckoutCone)" = false &&
	ls clone/drivers >present &&
	grep "^1" present &&
	! grep -v "^1" present &&
	git -C clone diff --name-only HEAD v6.0.5 >changed &&
	grep "^drivers/[^1]" changed &&
	shape_like_git clone &&
	ls clone/drivers >present.after &&
	test_cmp present present.after
'

test_expect_success 'a sparse index: advance as git merge --ff-only' '
	stable_tree_replay server 16 &&
	git -C clone fetch -q origin --tags &&
	git -C clone sparse-checkout set --cone --sparse-index &&
	test "$(git -C clone config index.sparse)" = true &&
	shape_like_git clone
'

test_expect_success 'rolling.* in config.worktree counts, as git config reads it' '
	stable_tree_replay server 18 &&
	git -C clone fetch -q origin --tags &&
	old=$(git -C clone rev-parse HEAD) &&
	git -C clone config --worktree rolling.linux-rolling-stable.steps each &&
	test_when_finished "git -C clone config --worktree --unset rolling.linux-rolling-stable.steps" &&
	test "$(git -C clone config rolling.linux-rolling-stable.steps)" = each &&
	! grep steps clone/.git/config &&
	git -C clone rolling advance linux-rolling-stable >out &&
	test_line_count = 2 out &&
	git -C clone rev-list --first-parent $old..HEAD >merges &&
	test_line_count = 2 merges &&
	git -C clone rev-parse HEAD~1^2 HEAD^2 >actual &&
	git -C clone rev-parse v6.0.8^{commit} v6.0.9^{commit} >expect &&
	test_cmp expect actual &&
	git -C clone status --porcelain >status &&
	test_must_be_empty status
'

test_expect_success 'setup: a linked work tree with configuration of its own' '
	git -C clone checkout -q --detach &&
	git -C clone worktree add -q ../linked linux-rolling-stable &&
	git -C linked sparse-checkout set --no-cone "/Makefile" &&
	test_path_is_missing linked/README &&
	git -C linked config --worktree rolling.linux-rolling-stable.steps each &&
	test -z "$(git -C clone config rolling.linux-rolling-stable.steps)" &&
	test "$(git -C linked config rolling.linux-rolling-stable.steps)" = each
'

test_expect_success 'advance in the linked work tree: its sparse paths, its settings' '
	stable_tree_replay server 20 &&
	git -C clone fetch -q origin --tags &&
	old=$(git -C linked rev-parse HEAD) &&
	git -C clone rolling advance --dry-run linux-rolling-stable >main.out &&
	test_line_count = 1 main.out &&
	git -C linked rolling advance --dry-run linux-rolling-stable >linked.out &&
	test_line_count = 2 linked.out &&
	shape_like_git linked &&
	git -C linked rev-list --first-parent $old..HEAD >merges &&
	test_line_count = 2 merges &&
	test_path_is_missing linked/README &&
	test_path_is_missing linked/drivers
'

test_expect_success 'the main work tree refuses the branch checked out in the linked one' '
	stable_tree_replay server 21 &&
	git -C clone fetch -q origin --tags &&
	tip=$(git -C clone rev-parse linux-rolling-stable) &&
	test_expect_code 128 git -C clone rolling advance linux-rolling-stable 2>err &&
	grep "^fatal: .linux-rolling-stable. is checked out in another work tree; not moving it$" err &&
	test "$(git -C clone rev-parse linux-rolling-stable)" = $tip &&
	test_must_fail git -C clone branch -f linux-rolling-stable v6.0.12 2>err &&
	test "$(git -C clone rev-parse linux-rolling-stable)" = $tip &&
	grep "$TRASH_DIRECTORY/linked" err
'

# release_by_hand: tag on the server a release v6.0.13 that changes the
# Makefile, deletes drivers/1.c and adds drivers/new.c.
release_by_hand () {
	git -C server worktree add -q --detach ../release v6.0.12 &&
	(
		cd release &&
		sed -i "s/^SUBLEVEL = .*/SUBLEVEL = 13/" Makefile &&
		git rm -q drivers/1.c &&
		echo new >drivers/new.c &&
		git add -A &&
		git commit -q -m "Linux 6.0.13"
	) &&
	git -C server tag -a -m "Linux 6.0.13" v6.0.13 "$(git -C release rev-parse HEAD)" &&
	git -C server worktree remove --force ../release
}

test_expect_success 'setup: a release by hand that deletes and adds files' '
	release_by_hand &&
	git -C server diff --name-status v6.0.12 v6.0.13 >changes &&
	grep "^D	drivers/1.c$" changes &&
	grep "^A	drivers/new.c$" changes
'


for index in full sparse
do
	test_expect_success "losing the race in a sparse checkout ($index index): only what was written goes back" '
		rm -rf race && git clone -q server race &&
		git -C race rolling init -q --at v6.0.12 linux-rolling-stable &&
		git -C race checkout -q linux-rolling-stable &&
		if test $index = sparse
		then
			git -C race sparse-checkout set --cone --sparse-index
		else
			git -C race sparse-checkout set --cone
		fi &&
		shape_state race before &&
		other=$(git -C race rev-parse v6.0.11^{commit}) &&
		test_expect_code 128 env LD_PRELOAD="$TEST_SEAM" \
			GIT_ROLLING_TEST_BEFORE_UPDATE="git update-ref refs/heads/linux-rolling-stable $other" \
			git -C race rolling advance 2>err &&
		grep "^fatal: refs/heads/linux-rolling-stable was changed by another process" err &&
		! grep "warning" err &&
		git -C race update-ref refs/heads/linux-rolling-stable v6.0.12^{commit} &&
		shape_state race after &&
		test_cmp before after &&
		test_path_is_missing race/drivers &&
		shape_like_git race
	'
done

test_expect_success 'a bare repository whose core.bare is in config.worktree stays bare' '
	git clone -q --bare server bare.git &&
	git --git-dir=bare.git config extensions.worktreeConfig true &&
	git --git-dir=bare.git config --unset core.bare &&
	git --git-dir=bare.git config --worktree core.bare true &&
	test "$(git --git-dir=bare.git rev-parse --is-bare-repository)" = true &&
	git --git-dir=bare.git rolling init -q --at v6.0.2 stable &&
	git --git-dir=bare.git symbolic-ref HEAD refs/heads/stable &&
	before=$(ls -a; git status --porcelain) &&
	git --git-dir=bare.git rolling advance -q &&
	test "$(ls -a; git status --porcelain)" = "$before" &&
	test "$(git --git-dir=bare.git rev-parse stable^2)" = "$(git --git-dir=bare.git rev-parse v6.0.13^{commit})"
'

# git-worktree(1) tells whoever sets extensions.worktreeConfig to move
# core.bare from the repository's config to the main work tree's
# config.worktree.  Moved there as false, it is a work tree still: the
# checked-out branch advances with its files, as git merge --ff-only.
test_expect_success 'core.bare = false moved to config.worktree: advance updates the work tree, as git' '
	git clone -q server movedbare &&
	git -C movedbare rolling init -q --at v6.0.2 linux-rolling-stable &&
	git -C movedbare checkout -q linux-rolling-stable &&
	git -C movedbare config extensions.worktreeConfig true &&
	git -C movedbare config --unset core.bare &&
	git -C movedbare config --worktree core.bare false &&
	test_expect_code 1 git config --file movedbare/.git/config core.bare &&
	test "$(git -C movedbare rev-parse --is-bare-repository)" = false &&
	shape_like_git movedbare &&
	git -C movedbare status --porcelain >status &&
	test_must_be_empty status
'

# git reads core.bare from config.worktree over the config, both ways
# (setup.c, read_worktree_config()); libgit2 before 1.8 reads only the
# config.  core_bare GIT-DIR EXT CONFIG WORKTREE sets
# extensions.worktreeConfig to EXT and core.bare to CONFIG in the config
# and to WORKTREE in config.worktree, "unset" leaving it out.
core_bare () {
	git config --file "$1/config" extensions.worktreeConfig "$2" &&
	if test "$3" = unset
	then
		# 5: there was none
		git config --file "$1/config" --unset-all core.bare || test $? = 5
	else
		git config --file "$1/config" core.bare "$3"
	fi &&
	rm -f "$1/config.worktree" &&
	if test "$4" != unset
	then
		printf "[core]\n\tbare = %s\n" "$4" >"$1/config.worktree"
	fi
}

# what_git_finds: "bare" where git says the repository is, else the
# work tree git finds, or "none" (inside the git directory), as
# test-rolling work-tree prints them.
what_git_finds () {
	if test "$(git rev-parse --is-bare-repository)" = true
	then
		echo bare
	else
		git rev-parse --show-toplevel 2>/dev/null || echo none
	fi
}

# A .git directory and a .git file (the work tree is where the search
# found it, not the git directory's parent); found by the search from a
# subdirectory and from inside the git directory (where git finds no
# work tree, and libgit2 takes the directory above), and named by
# GIT_DIR (the current directory is the work tree).
# Inside a git directory git finds it as a bare repository, which Git
# 3.0's safe.bareRepository = explicit refuses there (t8030 checks that
# git rolling refuses with it).  The tests below are about the work tree
# git finds, so they let git use it, as git 2.x does by default.
test_expect_success 'setup: git may use a bare repository it finds by searching' '
	git config --global safe.bareRepository all
'

test_expect_success 'core.bare in config and config.worktree, every combination: the answer git gives' '
	git clone -q server combos &&
	git clone -q --separate-git-dir="$TRASH_DIRECTORY/combos-sep.git" server combos-sep &&
	test_path_is_file combos-sep/.git &&
	for ext in true false
	do
		for config in true false unset
		do
			for worktree in true false unset
			do
				for layout in combos:combos/.git combos-sep:combos-sep.git
				do
					core_bare "${layout#*:}" $ext $config $worktree &&
					for dir in "${layout%:*}/drivers" "${layout#*:}" "${layout#*:}/refs"
					do
						(cd "$dir" && what_git_finds >"$TRASH_DIRECTORY/expect" &&
						 test-rolling work-tree >"$TRASH_DIRECTORY/actual") &&
						test_cmp expect actual || return 1
					done &&
					(cd "${layout%:*}/drivers" && GIT_DIR="$TRASH_DIRECTORY/${layout#*:}" &&
					 export GIT_DIR && what_git_finds >"$TRASH_DIRECTORY/expect" &&
					 test-rolling work-tree >"$TRASH_DIRECTORY/actual") &&
					test_cmp expect actual || return 1
				done
			done
		done
	done
'

# clone_bare_in_both DIR CONFIG WORKTREE: a clone of the server in DIR,
# its rolling branch made at v6.0.2 and checked out, with core.bare =
# CONFIG in its config and WORKTREE in its main work tree's
# config.worktree.
clone_bare_in_both () {
	git clone -q server $1 &&
	git -C $1 rolling init -q --at v6.0.2 linux-rolling-stable &&
	git -C $1 checkout -q linux-rolling-stable &&
	git -C $1 config extensions.worktreeConfig true &&
	git -C $1 config core.bare $2 &&
	git -C $1 config --worktree core.bare $3
}

# git-worktree(1)'s own example the other way round: core.bare = true
# left in the config, false in the main work tree's config.worktree.
# git has a work tree, and advance must update it as in any other.
test_expect_success 'core.bare = false in config.worktree wins over true in config' '
	clone_bare_in_both overbare true false &&
	test "$(git config --file overbare/.git/config core.bare)" = true &&
	test "$(git -C overbare rev-parse --is-bare-repository)" = false &&
	shape_like_git overbare &&
	git -C overbare status --porcelain --untracked-files=all >status &&
	test_must_be_empty status &&
	test "$(git -C overbare rev-parse HEAD^2)" = "$(git -C overbare rev-parse v6.0.13^{commit})" &&
	test "$(git -C overbare rev-parse HEAD^{tree})" = "$(git -C overbare rev-parse v6.0.13^{tree})"
'

# no_work_tree_here GIT-DIR WORK-TREE: in GIT-DIR, the git directory of
# WORK-TREE, git finds no work tree but does not call the repository
# bare.  The commands that read work, as git log does, and advance of
# the branch checked out is refused as git merge refuses, before
# anything changes: not its refs, index or files, and nothing beside the
# git directory (whose parent libgit2 takes for the work tree).  Both
# are named from the trash directory.
no_work_tree_here () {
	(
		cd "$1" &&
		test "$(git rev-parse --is-bare-repository)" = false &&
		test "$(git rev-parse --is-inside-work-tree)" = false &&
		test_must_fail git rev-parse --show-toplevel &&
		test "$(test-rolling work-tree)" = none &&
		git rolling status >"$TRASH_DIRECTORY/out" &&
		grep "advance would merge" "$TRASH_DIRECTORY/out" &&
		git rolling verify linux-rolling-stable >"$TRASH_DIRECTORY/out" &&
		grep "^linux-rolling-stable: verified$" "$TRASH_DIRECTORY/out" &&
		git rolling log >"$TRASH_DIRECTORY/out" &&
		grep " v6.0.2 " "$TRASH_DIRECTORY/out" &&
		test_expect_code 128 git merge -q --ff-only v6.0.3 2>"$TRASH_DIRECTORY/expect"
	) &&
	grep "^fatal: this operation must be run in a work tree$" expect &&
	shape_state "$2" before &&
	find "${1%/*}" -path "$1" -prune -o -print | LC_ALL=C sort >files.before &&
	(cd "$1" && test_expect_code 128 git rolling advance 2>"$TRASH_DIRECTORY/actual") &&
	test_cmp expect actual &&
	test_expect_code 128 git -C "$1" rolling advance -q linux-rolling-stable 2>actual &&
	test_cmp expect actual &&
	shape_state "$2" after &&
	test_cmp before after &&
	find "${1%/*}" -path "$1" -prune -o -print | LC_ALL=C sort >files.after &&
	test_cmp files.before files.after
}

# Inside the git directory git finds no work tree for it: moving the
# branch checked out there as in a bare repository would leave its
# index and files behind.
test_expect_success 'core.bare = false in config.worktree over true: no work tree inside the git directory, as in git' '
	clone_bare_in_both overbare-in true false &&
	no_work_tree_here overbare-in/.git overbare-in
'

# git init --separate-git-dir, git clone --separate-git-dir: inside the
# git directory git finds no work tree, where libgit2 takes the
# directory above it for one, which is none of the repository's.  There
# advance wrote the release's files, and moved the branch away from the
# index and files of its work tree.
test_expect_success 'inside a separate git directory: no work tree, as in git' '
	mkdir apart &&
	git clone -q --separate-git-dir="$TRASH_DIRECTORY/apart/sep.git" server apart/work &&
	git -C apart/work rolling init -q --at v6.0.2 linux-rolling-stable &&
	git -C apart/work checkout -q linux-rolling-stable &&
	no_work_tree_here apart/sep.git apart/work &&
	(cd apart/sep.git/refs && test "$(test-rolling work-tree)" = none)
'

# A branch checked out nowhere moves as in a bare repository, as git
# fetch or git update-ref move it there.
test_expect_success 'inside a separate git directory: advance of a branch not checked out' '
	git -C apart/work rolling init -q --at v6.0.2 other &&
	shape_state apart/work before &&
	find apart -path apart/sep.git -prune -o -print | LC_ALL=C sort >files.before &&
	(cd apart/sep.git && git rolling advance -q other) &&
	test "$(git -C apart/work rev-parse other^2)" = "$(git -C apart/work rev-parse v6.0.13^{commit})" &&
	shape_state apart/work after &&
	grep -v "^refs/heads/other " before >expect &&
	grep -v "^refs/heads/other " after >actual &&
	test_cmp expect actual &&
	find apart -path apart/sep.git -prune -o -print | LC_ALL=C sort >files.after &&
	test_cmp files.before files.after
'

# core.worktree names the work tree, also inside the git directory
# (setup.c, setup_bare_git_dir()); so does GIT_DIR with the current
# directory: the one git merge updates.
test_expect_success 'inside a separate git directory: core.worktree and GIT_DIR, the work tree git finds' '
	git --git-dir=apart/sep.git config core.worktree ../work &&
	(cd apart/sep.git && test "$(test-rolling work-tree)" = "$(git rev-parse --show-toplevel)") &&
	test "$(cd apart/sep.git && test-rolling work-tree)" = "$TRASH_DIRECTORY/apart/work" &&
	(cd apart/sep.git && git rolling advance -q) &&
	test "$(git -C apart/work rev-parse HEAD^2)" = "$(git -C apart/work rev-parse v6.0.13^{commit})" &&
	git -C apart/work status --porcelain --untracked-files=all >status &&
	test_must_be_empty status &&
	git -C apart/work reset -q --keep HEAD^ &&
	git --git-dir=apart/sep.git config --unset core.worktree &&
	(cd apart/work && GIT_DIR=../sep.git && export GIT_DIR &&
	 test "$(test-rolling work-tree)" = "$(git rev-parse --show-toplevel)" &&
	 git rolling advance -q) &&
	test "$(git -C apart/work rev-parse HEAD^2)" = "$(git -C apart/work rev-parse v6.0.13^{commit})" &&
	git -C apart/work status --porcelain --untracked-files=all >status &&
	test_must_be_empty status
'

# The git directory of a linked work tree is no work tree either.
test_expect_success 'inside the git directory of a linked work tree: no work tree, as in git' '
	git -C apart/work worktree add -q -b linked-rs "$TRASH_DIRECTORY/apart/linked" v6.0.2 &&
	(cd apart/sep.git/worktrees/linked && test_must_fail git rev-parse --show-toplevel &&
	 test "$(test-rolling work-tree)" = none)
'

# An advance killed in the work tree after it wrote the files, before
# the branch moved, leaves them to be put back there by the next run.
# Run inside the git directory, where there is no work tree, that is
# refused, and left to the work tree: put back in the directory above,
# the files were written outside and the run'"'"'s record lost, leaving the
# work tree half way over the old index.
test_expect_success 'inside a separate git directory: a run killed in the work tree is left to it' '
	git -C apart/work reset -q --keep HEAD^ &&
	git -C apart/work rolling init -q --force --at v6.0.2 other &&
	test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" \
		GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$GIT_ROLLING_PID \$PPID" \
		git -C apart/work rolling advance -q linux-rolling-stable &&
	test_path_is_file apart/sep.git/ROLLING_ADVANCE &&
	find apart -path apart/sep.git -prune -o -path apart/work -prune -o -print |
		LC_ALL=C sort >files.before &&
	(cd apart/sep.git && test_expect_code 128 git rolling advance -q other 2>"$TRASH_DIRECTORY/err") &&
	grep "^fatal: cannot put the work tree back: .* has no work tree$" err &&
	test_path_is_file apart/sep.git/ROLLING_ADVANCE &&
	find apart -path apart/sep.git -prune -o -path apart/work -prune -o -print |
		LC_ALL=C sort >files.after &&
	test_cmp files.before files.after &&
	git -C apart/work rolling advance -q linux-rolling-stable &&
	test_path_is_missing apart/sep.git/ROLLING_ADVANCE &&
	test "$(git -C apart/work rev-parse HEAD^2)" = "$(git -C apart/work rev-parse v6.0.13^{commit})" &&
	git -C apart/work status --porcelain --untracked-files=all >status &&
	test_must_be_empty status
'

# The other way round, git has no work tree: advance moves the branch
# HEAD names as in a bare repository, and touches no file and no index.
test_expect_success 'core.bare = true in config.worktree wins over false in config: advance as in a bare repository' '
	clone_bare_in_both underbare false true &&
	test "$(git -C underbare rev-parse --is-bare-repository)" = true &&
	(cd underbare && find . -path ./.git -prune -o -type f -exec cksum {} + && cksum <.git/index) |
		LC_ALL=C sort >before &&
	git -C underbare rolling advance -q &&
	(cd underbare && find . -path ./.git -prune -o -type f -exec cksum {} + && cksum <.git/index) |
		LC_ALL=C sort >after &&
	test_cmp before after &&
	test "$(git -C underbare symbolic-ref HEAD)" = refs/heads/linux-rolling-stable &&
	test "$(git -C underbare rev-parse linux-rolling-stable^2)" = "$(git -C underbare rev-parse v6.0.13^{commit})"
'

test_done
