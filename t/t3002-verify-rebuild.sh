#!/bin/sh

test_description='verify --rebuild confirms every merge bit for bit

Each merge is recomputed from its parents, the identity on it, the
sign-off convention and the release commit'"'"'s dates, and its id must
come out the same.  Merges with the right parents and tree but other
bytes (a date, an identity, the message, an extra header) pass the plain
check and fail --rebuild, which names the part that differs.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# tip_variant: print the id of a remake of linux-rolling-stable's tip
# merge: the same parents and tree, with the release commit's dates and
# the recipe's message unless AD, CD or MSG (a printf format for the
# tag) say otherwise; GIT_OPTS and SIGN go to git commit-tree.
tip_variant () {
	tv_tip=$(git rev-parse linux-rolling-stable) &&
	tv_tag=$(git log -1 --format=%s $tv_tip | sed "s/^Merge //") &&
	tv_ad=$(git log -1 --format=%ad --date=raw $tv_tag^{commit}) &&
	tv_cd=$(git log -1 --format=%cd --date=raw $tv_tag^{commit}) &&
	(
		GIT_AUTHOR_DATE=${AD:-$tv_ad} &&
		GIT_COMMITTER_DATE=${CD:-$tv_cd} &&
		export GIT_AUTHOR_DATE GIT_COMMITTER_DATE &&
		printf "${MSG:-Merge %s\n\nSigned-off-by: A U Thor <author@example.com>\n}" "$tv_tag" |
		git $GIT_OPTS commit-tree $SIGN -p $tv_tip^1 -p $tv_tip^2 $tv_tip^{tree}
	)
}

# rebuild_fails <branch> <commit> <what>: plain verify passes, --rebuild
# names the commit and says <what> differs.
rebuild_fails () {
	git rolling verify "$1" &&
	verify_fails "$1" "$2" rebuild --rebuild &&
	grep "^error: $1: $2: rebuild: expected [0-9a-f]\{40\}, found $2 ($3" err
}

test_expect_success 'setup' '
	verify_fixture tree
'

test_expect_success 'a branch made by advance rebuilds bit for bit' '
	cd tree &&
	git rolling verify --rebuild linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified, merges rebuilt bit for bit$" out
'

test_expect_success 'a branch made by the git CLI recipe rebuilds bit for bit' '
	cd tree &&
	recipe_branch recipe v6.0.3 v6.0.4 v6.0.8 v6.1.2 v6.1.3 &&
	git rolling verify --rebuild recipe >out &&
	grep "^recipe: verified, merges rebuilt bit for bit$" out
'

test_expect_success 'the same inputs give the same merge' '
	cd tree &&
	same=$(tip_variant) &&
	test "$same" = "$(git rev-parse linux-rolling-stable)"
'

test_expect_success 'a committer date one second off' '
	cd tree &&
	tag=$(git log -1 --format=%s linux-rolling-stable | sed "s/^Merge //") &&
	set -- $(git log -1 --format=%cd --date=raw $tag^{commit}) &&
	merge=$(CD="$(($1 + 1)) $2" tip_variant) &&
	git branch late $merge &&
	rebuild_fails late $merge "committer date $(($1 + 1)) $2 is not the release commit.s $1 $2)"
'

test_expect_success 'an author date in another time zone' '
	cd tree &&
	tag=$(git log -1 --format=%s linux-rolling-stable | sed "s/^Merge //") &&
	set -- $(git log -1 --format=%ad --date=raw $tag^{commit}) &&
	merge=$(AD="$1 -0500" tip_variant) &&
	git branch zone $merge &&
	rebuild_fails zone $merge "author date $1 -0500 is not the release commit.s $1 $2)"
'

test_expect_success 'an author other than the committer' '
	cd tree &&
	merge=$(GIT_AUTHOR_NAME=Mallory GIT_AUTHOR_EMAIL=mallory@example.com tip_variant) &&
	git branch other-author $merge &&
	rebuild_fails other-author $merge \
		"author .Mallory <mallory@example.com>. is not the committer .A U Thor <author@example.com>.)"
'

test_expect_success 'a message with more than the recipe' '
	cd tree &&
	merge=$(MSG="Merge %s\n\nAlso fixes things.\n\nSigned-off-by: A U Thor <author@example.com>\n" \
		tip_variant) &&
	git branch long-message $merge &&
	rebuild_fails long-message $merge "message \"Merge v[0-9.]*.n.nAlso fixes things"
'

test_expect_success 'a sign-off by someone else' '
	cd tree &&
	merge=$(MSG="Merge %s\n\nSigned-off-by: Mallory <mallory@example.com>\n" tip_variant) &&
	git branch other-signoff $merge &&
	rebuild_fails other-signoff $merge "message "
'

test_expect_success 'an encoding header: not a rolling merge at all' '
	cd tree &&
	merge=$(GIT_OPTS="-c i18n.commitEncoding=ISO-8859-1" tip_variant) &&
	git cat-file commit $merge | grep "^encoding ISO-8859-1$" &&
	git branch encoded $merge &&
	verify_fails encoded $merge header &&
	grep "found extra header .encoding.$" err &&
	verify_fails encoded $merge header --rebuild
'

test_expect_success 'setup an SSH signing key' '
	if ssh-keygen -q -t ed25519 -N "" -C merger -f merger.key >/dev/null 2>&1
	then
		test_set_prereq SSH_SIGN
	fi
'

test_expect_success SSH_SIGN 'a signed merge commit' '
	cd tree &&
	test_when_finished "git config --unset gpg.format && git config --unset user.signingkey" &&
	git config gpg.format ssh &&
	git config user.signingkey "$TRASH_DIRECTORY/merger.key" &&
	merge=$(SIGN=-S tip_variant) &&
	git cat-file commit $merge | grep "^gpgsig " &&
	git branch signed-merge $merge &&
	rebuild_fails signed-merge $merge "extra header .gpgsig.)"
'

test_expect_success 'merges remade with other dates: every one is reported' '
	cd tree &&
	below=$(nth_merge linux-rolling-stable 20) &&
	remade=$(GIT_AUTHOR_DATE="@1700000000 +0000" GIT_COMMITTER_DATE="@1700000000 +0000" \
		restack $below $below linux-rolling-stable) &&
	git branch remade $remade &&
	git rolling verify remade &&
	test_expect_code 1 git rolling verify --rebuild remade 2>err &&
	git rev-list --count --first-parent $below..remade >expect &&
	grep -c "^error: remade: [0-9a-f]*: rebuild: .*(author date 1700000000 +0000 is not" err >actual &&
	test_cmp expect actual
'

test_expect_success '--rebuild with --since rebuilds only the new merges' '
	cd tree &&
	below=$(nth_merge remade 25) &&
	test_expect_code 1 git rolling verify --rebuild --since $below remade 2>err &&
	git rev-list --count --first-parent $below..remade >expect &&
	grep -c "^error: remade: " err >actual &&
	test_cmp expect actual
'

test_done
