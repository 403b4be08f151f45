# lib-repo-shapes.sh - for the tests of the repository shapes developers
# have (partial and sparse clones, git's environment): a small stable
# tree and the state that plain git and git rolling are compared on.
# Source after test-lib.sh.
#
#   shape_tree DIR       a Linux-style stable tree with mainline 6.0 and
#                        6.1 only, its tags replayed to week 12 (newest
#                        release v6.0.3); week 14 brings v6.0.4 and v6.0.5
#   shape_state DIR OUT  what a fast-forward could change in DIR: HEAD,
#                        every ref but refs/heads/twin and the rolling
#                        bookkeeping, the index (stages, skip-worktree
#                        tags), `git status` and every file of the work
#                        tree with its hash; run with the environment of
#                        the command it checks
#   shape_twin BRANCH    in the repository of the current directory, make
#                        the merges `git rolling advance BRANCH` will make
#                        on a branch "twin" that is not checked out (the
#                        same releases, steps and identity give the same
#                        ids), so that git can fast-forward to them;
#                        prints the tip
#   shape_like_git DIR   advance the branch checked out in DIR twice: with
#                        git merge --ff-only to shape_twin's tip, undone
#                        with git reset --keep, then with git rolling
#                        advance; the two states must be the same

. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

shape_tree () {
	STABLE_MAINLINE="6.0 6.1" STABLE_LTS="" stable_tree_linux "$1" &&
	stable_tree_replay "$1" 12
}

shape_state () {
	{
		echo "HEAD: $(git -C "$1" symbolic-ref -q HEAD || git -C "$1" rev-parse HEAD)" &&
		git -C "$1" for-each-ref --format="%(refname) %(objectname)" |
			grep -v -e "^refs/heads/twin " -e "^refs/rolling/" &&
		echo "index:" &&
		git -C "$1" ls-files -s -t &&
		echo "status:" &&
		git -C "$1" status --porcelain --untracked-files=all &&
		echo "files:" &&
		(
			cd "$1" &&
			files=$(find . -path ./.git -prune -o -type f -print | LC_ALL=C sort) &&
			if test -n "$files"
			then
				# One git hash-object for all of them, in the list's order;
				# it reads paths from the top of the work tree: whole ones.
				hashes=$(printf '%s\n' "$files" |
					while read -r f
					do
						printf '%s\n' "$PWD/${f#./}"
					done |
					git hash-object --no-filters --stdin-paths) &&
				printf '%s\n' "$files" |
					awk -v hashes="$hashes" '
						BEGIN { n = split(hashes, h, "\n") }
						{ print h[NR], $0 }
						END { exit NR != n }'
			fi
		)
	} >"$2"
}

shape_twin () {
	twin_each=--no-each &&
	if test "$(git config "rolling.$1.steps")" = each
	then
		twin_each=--each
	fi &&
	git branch -f twin "$1" &&
	git rolling init -q --force --adopt $twin_each twin &&
	git rolling advance -q twin &&
	git rev-parse twin
}

shape_like_git () {
	like_old=$(git -C "$1" rev-parse HEAD) &&
	like_merge=$(cd "$1" && shape_twin "$(git symbolic-ref --short HEAD)") &&
	shape_state "$1" "$TRASH_DIRECTORY/like.before" &&
	git -C "$1" merge -q --ff-only $like_merge &&
	shape_state "$1" "$TRASH_DIRECTORY/like.git" &&
	git -C "$1" reset -q --keep $like_old &&
	shape_state "$1" "$TRASH_DIRECTORY/like.undone" &&
	test_cmp "$TRASH_DIRECTORY/like.before" "$TRASH_DIRECTORY/like.undone" &&
	git -C "$1" rolling advance -q &&
	test "$(git -C "$1" rev-parse HEAD)" = $like_merge &&
	shape_state "$1" "$TRASH_DIRECTORY/like.rolling" &&
	test_cmp "$TRASH_DIRECTORY/like.git" "$TRASH_DIRECTORY/like.rolling"
}
