#!/bin/sh

test_description='the fetch plan of lib/, asked directly: what git rolling fetch fetches

test-rolling fetch-plan runs the plan of lib/fetch-plan.c in a consumer
repository: its one git fetch, into a quarantine that it then removes
(nothing reaches the repository), the tips it found, the tags git
followed, and which release tags the new steps need (each merged
release, and the base).  Every expectation is written with plain git
from the server.  A plan that cannot go on returns its error, which the
helper prints, where the command dies with the same words.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-fetch.sh
. "$TEST_DIRECTORY"/lib-mergetag.sh

BRANCH=linux-rolling-stable
SQ="'"

plan () {
	(cd consumer && test-rolling fetch-plan "$@")
}

# "<prefix> <oid> <ref>" for the server's release tags the consumer lacks.
missing_release_tags () {
	git -C consumer tag -l >have &&
	git --git-dir=server.git for-each-ref --format="%(objectname) %(refname)" refs/tags |
	grep -E " refs/tags/v[0-9]+\\.[0-9]+\\.[0-9]+\$" |
	while read oid ref
	do
		grep -qx "${ref#refs/tags/}" have || echo "$1 $oid $ref" || return 1
	done
}

# "tag <oid> <ref>" for the tags the fetch of <tip> follows: the server'"'"'s
# tags the consumer lacks by name that point into the history of <tip>
# or at an object the consumer has, sorted.
followed_tags () {
	git -C consumer tag -l >have &&
	git --git-dir=server.git for-each-ref --merged "$1" --format="%(refname)" refs/tags >merged &&
	git --git-dir=server.git for-each-ref --format="%(objectname) %(refname) %(*objectname)" refs/tags |
	while read oid ref peeled
	do
		grep -qx "${ref#refs/tags/}" have && continue
		if grep -qx "$ref" merged ||
		   git -C consumer cat-file -e "${peeled:-$oid}" 2>/dev/null
		then
			echo "tag $oid $ref"
		fi || return 1
	done | sort
}

# The plan'"'"'s lines of one kind (tip, tag, need), in the order it printed them.
kind () {
	sed -n "/^$1 /p" actual
}

# "<prefix> <oid> <ref>" of a branch on the server.
server_branch () {
	echo "$1 $(git --git-dir=server.git rev-parse "refs/heads/$2") refs/heads/$2"
}

# "need <tag> <oid>" for the release tags the steps of <range> merge, as
# git log lists them from the tip down, then for <base> if given; those
# the consumer has are left out.
needs () {
	git -C consumer tag -l >have &&
	{
		git --git-dir=server.git log --first-parent --merges --format=%s "$1" |
		sed -n "s/^Merge //p" &&
		if test -n "$2"
		then
			echo "$2"
		fi
	} |
	while read tag
	do
		grep -qx "$tag" have ||
		echo "need $tag $(git --git-dir=server.git rev-parse "refs/tags/$tag")" || return 1
	done
}

# The release the branch starts at: the tag of its root-most first-parent commit.
base_of () {
	git --git-dir=server.git describe --exact-match --abbrev=0 \
		"$(git --git-dir=server.git rev-list --first-parent --max-parents=1 -n 1 "$1")"
}

test_expect_success 'setup: a maintainer, a server, a consumer following it' '
	setup_upstream &&
	publish 12 &&
	publish 13 &&
	publish 14 &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH &&
	base=$(base_of $BRANCH) &&
	test -n "$base" &&
	git --git-dir=server.git rev-list --first-parent --merges $BRANCH >merges &&
	test_line_count -gt 1 merges
'

test_expect_success 'a first fetch: the tip, the tags in its history, every merged release and the base needed' '
	plan origin >actual &&
	server_branch tip $BRANCH >expect &&
	kind tip >tips &&
	test_cmp expect tips &&
	followed_tags $BRANCH >expect &&
	test_line_count -gt 2 expect &&
	kind tag | sort >tags &&
	test_cmp expect tags &&
	git --git-dir=server.git tag --no-merged $BRANCH >elsewhere &&
	test_line_count -gt 0 elsewhere &&
	for tag in $(cat elsewhere)
	do
		! grep " refs/tags/$tag\$" tags || return 1
	done &&
	needs $BRANCH $base >expect &&
	grep "^need $base " expect &&
	kind need >needed &&
	test_cmp expect needed &&
	plan origin $BRANCH >actual2 &&
	test_cmp actual actual2 &&
	test_must_fail git -C consumer cat-file -e $(git --git-dir=server.git rev-parse $BRANCH) &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

test_expect_success '--signatures: a merge that embeds its tag needs none' '
	tip=$(git --git-dir=server.git rev-parse $BRANCH) &&
	git --git-dir=server.git cat-file commit $tip >tip.commit &&
	! grep "^mergetag " tip.commit &&
	tag=$(git --git-dir=server.git log -1 --format=%s $tip | sed -n "s/^Merge //p") &&
	embedded=$(cd server.git && GIT_DIR=. && export GIT_DIR && with_mergetag $tip "$(git rev-parse refs/tags/$tag)") &&
	git --git-dir=server.git cat-file commit $embedded >embedded.commit &&
	grep "^mergetag object " embedded.commit &&
	git --git-dir=server.git branch embedded $embedded &&

	needs $tip $base | grep -v "^need $tag " >expect &&
	test_line_count -gt 0 expect &&
	plan --signatures origin embedded >actual &&
	kind need >needed &&
	test_cmp expect needed &&

	needs $tip $base >expect &&
	grep "^need $tag " expect &&
	plan --no-signatures origin embedded >actual &&
	kind need >needed &&
	test_cmp expect needed
'

test_expect_success 'a weekly fetch stops at the tip verified last time and needs only the new releases' '
	git -C consumer rolling fetch -q origin &&
	verified=$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH) &&
	plan origin >actual &&
	server_branch tip $BRANCH >expect &&
	kind tip >tips &&
	test_cmp expect tips &&
	kind need >needed &&
	test_must_be_empty needed &&
	publish 16 &&
	# A release merged before the verified tip is not needed, even when we lack it.
	old=$(git --git-dir=server.git log -1 --format=%s $verified^ | sed -n "s/^Merge //p") &&
	test -n "$old" &&
	git -C consumer tag -d $old &&
	plan origin >actual &&
	server_branch tip $BRANCH >expect &&
	kind tip >tips &&
	test_cmp expect tips &&
	followed_tags $BRANCH >expect &&
	grep " refs/tags/$old\$" expect &&
	kind tag | sort >tags &&
	test_cmp expect tags &&
	needs $verified..$BRANCH >expect &&
	test_line_count -gt 0 expect &&
	kind need >needed &&
	test_cmp expect needed
'

test_expect_success 'the base: a branch at a release commit needs that release, unless we have it' '
	missing_release_tags x | sed -n "\$s|.* refs/tags/||p" >tag &&
	tag=$(cat tag) &&
	test -n "$tag" &&
	git --git-dir=server.git branch at-release "$tag^{commit}" &&
	plan origin at-release >actual &&
	echo "need $tag $(git --git-dir=server.git rev-parse refs/tags/$tag)" >expect &&
	kind need >needed &&
	test_cmp expect needed &&

	git -C consumer tag v5.19.1 "$(git --git-dir=server.git rev-parse v5.19.1)" &&
	git --git-dir=server.git branch at-held-release "v5.19.1^{commit}" &&
	plan origin at-held-release >actual &&
	kind need >needed &&
	test_must_be_empty needed
'

test_expect_success 'a branch never verified here: of its releases, we need only those we lack' '
	test_must_fail git -C consumer rev-parse -q --verify refs/rolling/verified/origin/embedded &&
	git -C consumer tag -l >have &&
	grep -x v5.19.3 have &&
	! grep -x v5.19.4 have &&
	tip=$(git --git-dir=server.git rev-parse embedded) &&
	needs $tip $base >expect &&
	grep "^need v5.19.4 " expect &&
	! grep "^need v5.19.3 " expect &&
	plan --no-signatures origin embedded >actual &&
	kind need >needed &&
	test_cmp expect needed
'

test_expect_success 'the plan returns its errors, in the words the command dies with' '
	git -C consumer remote add gone "file://$TRASH_DIRECTORY/gone.git" &&
	git -C consumer remote add quiet "file://$TRASH_DIRECTORY/server.git" &&
	for case in "nowhere" "-o" "origin a..b" "origin -b" "origin no-such-branch" \
		"quiet" "gone $BRANCH"
	do
		test_expect_code 1 plan $case >actual &&
		test_expect_code 128 git -C consumer rolling fetch -q -- $case 2>err &&
		sed -n "\$s/^fatal: /error: /p" err >expect &&
		test_cmp expect actual || return 1
	done &&
	cat >expect <<-EOF &&
	error: ${SQ}nowhere${SQ} is not a configured remote (see git remote add)
	error: ${SQ}-o${SQ} is not a valid remote name
	error: ${SQ}a..b${SQ} is not a valid branch name
	error: ${SQ}-b${SQ} is not a valid branch name
	error: git fetch from ${SQ}origin${SQ} failed (exit status 128); nothing was updated
	error: no branches to fetch: name them, or follow them with git rolling init --follow quiet/<branch> (rolling.remote.quiet.branches)
	error: git fetch from ${SQ}gone${SQ} failed (exit status 128); nothing was updated
	EOF
	for case in "nowhere" "-o" "origin a..b" "origin -b" "origin no-such-branch" \
		"quiet" "gone $BRANCH"
	do
		plan $case || :
	done >actual &&
	test_cmp expect actual
'

test_expect_success 'a bad configured pattern is an error of the plan too' '
	git -C consumer config rolling.remote.origin.releasePattern "(" &&
	git -C consumer config rolling.remote.origin.mainlinePattern "v1" &&
	test_expect_code 1 plan origin >actual &&
	grep "^error: rolling.remote.origin.releasePattern: " actual &&
	test_line_count = 1 actual &&
	test_expect_code 128 git -C consumer rolling fetch origin 2>err &&
	sed -n "s/^fatal: /error: /p" err >expect &&
	test_cmp expect actual
'

test_done
