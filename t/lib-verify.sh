# lib-verify.sh - fixtures for the tests of git rolling verify.  Source
# after test-lib.sh and lib-stable-tree.sh; it brings lib-rolling.sh.
#
#   verify_fixture DIR           a Linux-style stable tree in DIR with
#                                linux-rolling-stable made by init at week
#                                11 and advance over every later week
#   recipe_branch BRANCH BASE TAG...
#                                make BRANCH at release BASE and merge
#                                each TAG with the git CLI recipe, in a
#                                scratch work tree (the cwd is a repo)
#   recipe_merge PARENT TAG      print the id of a merge of TAG on top of
#                                PARENT with the recipe's bytes, made with
#                                git commit-tree (git merge would refuse
#                                a release that is already merged); for an
#                                unsigned TAG only, as commit-tree writes
#                                no mergetag header
#   restack ONTO FROM TIP        print the id of FROM..TIP's first-parent
#                                merges remade with git commit-tree on top
#                                of ONTO, parents, trees and messages kept
#   tampered_tree COMMIT         print a tree id: COMMIT's tree plus one
#                                added file (an "evil" change)
#   index_tree COMMIT PATH TEXT  print COMMIT's tree with PATH changed
#   verify_fails REV COMMIT CHECK [OPTION...]
#                                verify REV exits 1 and names COMMIT as
#                                failing CHECK
#   nth_merge BRANCH N           print the Nth first-parent merge of
#                                BRANCH, counting from its base (1 is the
#                                oldest)

. "$TEST_DIRECTORY"/lib-rolling.sh

# A smaller time line than the default keeps fixture generation quick
# while still giving a few series switches.
VERIFY_MAINLINE=${VERIFY_MAINLINE:-"5.19 6.0 6.1 6.2"}

# Eighteen scripts grow it: it is kept in the fixture cache
# (stable_tree_history).  With signed tags (STABLE_SIGNED_TAGS=1) the
# branch starts later, at week VERIFY_SIGNED_WEEK: each release tag
# verify --signatures checks costs git verify-tag two ssh-keygen runs,
# and the shorter chain (base v6.0.2) still crosses a series switch.
VERIFY_SIGNED_WEEK=${VERIFY_SIGNED_WEEK:-20}
verify_fixture () {
	if test "${STABLE_SIGNED_TAGS:-0}" = 1
	then
		vf_week=$VERIFY_SIGNED_WEEK
	else
		vf_week=11
	fi &&
	STABLE_MAINLINE=$VERIFY_MAINLINE stable_tree_linux "$1" &&
	stable_tree_history "$1" verify "$VERIFY_MAINLINE $vf_week" verify_fixture_make_ "$1" $vf_week
}

verify_fixture_make_ () {
	stable_tree_replay "$1" $2 &&
	git -C "$1" rolling init -q --preset linux linux-rolling-stable &&
	advance_weekly "$1" $2 "$(stable_tree_weeks "$1")"
}

recipe_branch () {
	rb_branch=$1 rb_base=$2 &&
	shift 2 &&
	rm -rf "../recipe-$rb_branch" &&
	git worktree add -q -b "$rb_branch" "../recipe-$rb_branch" "$rb_base^{commit}" &&
	for rb_tag
	do
		(cd "../recipe-$rb_branch" && recipe_step "$rb_tag") || return 1
	done &&
	git worktree remove --force "../recipe-$rb_branch"
}

recipe_merge () {
	(
		GIT_AUTHOR_DATE=$(git log -1 --format=%ad --date=raw "$2^{commit}") &&
		GIT_COMMITTER_DATE=$(git log -1 --format=%cd --date=raw "$2^{commit}") &&
		export GIT_AUTHOR_DATE GIT_COMMITTER_DATE &&
		printf 'Merge %s\n\nSigned-off-by: %s <%s>\n' "$2" \
			"$(git config user.name)" "$(git config user.email)" |
		git commit-tree -p "$1" -p "$2^{commit}" "$2^{tree}"
	)
}

restack () {
	rs_tip=$1 &&
	git rev-list --reverse --first-parent "$2..$3" >restack.list &&
	while read rs_merge
	do
		rs_tip=$(git cat-file commit "$rs_merge" | sed "1,/^\$/d" |
			git commit-tree -p "$rs_tip" -p "$rs_merge^2" "$rs_merge^{tree}") ||
			return 1
	done <restack.list &&
	echo "$rs_tip"
}

tampered_tree () {
	{
		git ls-tree "$1^{tree}" &&
		printf '100644 blob %s\tevil.c\n' "$(echo evil | git hash-object -w --stdin)"
	} | git mktree
}

nth_merge () {
	git rev-list --reverse --first-parent --merges "$1" | sed -n "${2}p"
}

# verify_fails REV COMMIT CHECK [OPTION...]: verify REV exits 1, its
# report says FAILED and names COMMIT as failing CHECK.
verify_fails () {
	vfl_rev=$1 vfl_commit=$2 vfl_check=$3 &&
	shift 3 &&
	test_expect_code 1 git rolling verify "$@" "$vfl_rev" >out 2>err &&
	grep "^error: $vfl_rev: $vfl_commit: $vfl_check: expected " err &&
	grep "^$vfl_rev: FAILED (" out
}

# index_tree COMMIT PATH CONTENT: print COMMIT's tree with PATH changed.
index_tree () {
	rm -f tamper.index &&
	GIT_INDEX_FILE=tamper.index git read-tree "$1" &&
	it_blob=$(printf '%s\n' "$3" | git hash-object -w --stdin) &&
	GIT_INDEX_FILE=tamper.index git update-index --add --cacheinfo "100644,$it_blob,$2" &&
	GIT_INDEX_FILE=tamper.index git write-tree &&
	rm -f tamper.index
}
