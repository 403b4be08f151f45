#!/bin/sh

test_description='git rolling fetch --signatures needs no release tags for merges that embed them

The maintainers merge signed release tags, so each rolling merge embeds
its tag (a mergetag header).  A consumer fetching with --signatures
proves each new step from the tag its merge embeds, through git
verify-tag, and fetches no release tag for it: after the first fetch
(whose base, a release commit, still needs its own tag) the weekly
fetches take no tag at all.  A step whose embedded tag was signed by
another key is refused with nothing kept; for one that embeds none, the
release tag is fetched and its signature checked instead.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh
. "$TEST_DIRECTORY"/lib-mergetag.sh

BRANCH=linux-rolling-stable

if ! ssh-keygen -q -t ed25519 -N "" -C mallory -f "$TRASH_DIRECTORY/mallory.key" >/dev/null 2>&1
then
	skip_all='ssh-keygen cannot make keys'
	test_done
fi

server_tip () {
	git --git-dir=server.git rev-parse "refs/heads/$BRANCH"
}

snapshot () {
	git -C consumer for-each-ref --format="%(objectname) %(refname)" >"$1"
}

test_expect_success 'setup: signed releases, merges that embed them, a consumer with --signatures' '
	STABLE_SIGNED_TAGS=1 setup_upstream &&
	publish 14 &&
	git --git-dir=server.git cat-file commit $BRANCH >tip.commit &&
	grep "^mergetag object " tip.commit &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer config gpg.format ssh &&
	git -C consumer config gpg.ssh.allowedSignersFile \
		"$TRASH_DIRECTORY/stable-signing.key.allowed-signers" &&
	git -C consumer rolling init -q --follow origin/$BRANCH --signatures
'

test_expect_success 'the first fetch takes only the base'"'"'s tag' '
	git -C consumer rolling fetch origin >out &&
	n=$(($(git --git-dir=server.git rev-list --count --first-parent --merges $BRANCH) + 1)) &&
	grep "^origin/$BRANCH: verified, $n release signatures good$" out &&
	echo v5.19.2 >expect &&
	git -C consumer tag -l >actual &&
	test_cmp expect actual
'

test_expect_success 'weekly fetches take no tag at all' '
	for week in 15 16 17
	do
		publish $week &&
		git -C consumer rolling fetch origin >out &&
		grep "^origin/$BRANCH: verified, 1 release signature good$" out &&
		test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$(server_tip)" ||
		return 1
	done &&
	echo v5.19.2 >expect &&
	git -C consumer tag -l >actual &&
	test_cmp expect actual
'

# refuse <maker>: the server replaces its tip by <maker>'s remake of it;
# the fetch fails naming the merge and CHECK, and nothing changes.
refuse () {
	good=$(server_tip) &&
	bad=$(cd server.git && GIT_DIR=. && export GIT_DIR && "$1" $good) &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $bad &&
	git -C consumer update-ref refs/rolling/verified/origin/$BRANCH $good~1 &&
	git -C consumer update-ref refs/remotes/origin/$BRANCH $good~1 &&
	snapshot before &&
	test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
	grep "^error: origin/$BRANCH: $bad: $2: " err &&
	snapshot after &&
	test_cmp before after &&
	test_must_fail git -C consumer cat-file -e $bad &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $good &&
	git -C consumer rolling fetch -q origin
}

untrusted_key () {
	with_mergetag $1 $(signed_tag_object $(git log -1 --format=%s $1 | sed "s/^Merge //") $1^2 \
		"$TRASH_DIRECTORY/mallory.key")
}

no_mergetag () {
	with_mergetag $1
}

test_expect_success 'an embedded tag signed by another key is refused' '
	refuse untrusted_key signature &&
	grep "found v[0-9.]*: no public key$" err
'

test_expect_success 'a merge that embeds no tag: fetch takes its signed tag instead' '
	good=$(server_tip) &&
	bare=$(cd server.git && GIT_DIR=. && export GIT_DIR && no_mergetag $good) &&
	release=$(git --git-dir=server.git log -1 --format=%s $good | sed "s/^Merge //") &&
	test_when_finished "git --git-dir=server.git update-ref refs/heads/$BRANCH $good" &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $bare &&
	git -C consumer update-ref refs/rolling/verified/origin/$BRANCH $good~1 &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: verified, 1 release signature good$" out &&
	test "$(git -C consumer rev-parse refs/tags/$release)" = \
		"$(git --git-dir=server.git rev-parse refs/tags/$release)" &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = $bare
'

test_done
