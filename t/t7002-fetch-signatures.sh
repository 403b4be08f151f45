#!/bin/sh

test_description='git rolling fetch --signatures refuses forged release tags

The maintainers sign their release tags (SSH signatures, which need no
agent).  A consumer following the branch with
rolling.remote.<remote>.signatures verifies the tags of the new steps
through git verify-tag before any ref moves.  A server that publishes a
new "release" tagged by another key, unsigned or lightweight, with a step
merging it, is refused with nothing changed; a tag the consumer already
has is never replaced by the server'"'"'s.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

BRANCH=linux-rolling-stable

sign_tag () {
	git -C upstream -c user.signingkey="$TRASH_DIRECTORY/$1" \
		tag -f -s -m "Linux ${2#v}" "$2" "$2^{commit}" >/dev/null
}

snapshot () {
	git -C consumer for-each-ref --format="%(objectname) %(refname)" >"$1"
}

server_tip () {
	git --git-dir=server.git rev-parse "refs/heads/$BRANCH"
}

test_expect_success 'setup' '
	if ssh-keygen -q -t ed25519 -N "" -C stable -f stable.key >/dev/null 2>&1 &&
	   ssh-keygen -q -t ed25519 -N "" -C mallory -f mallory.key >/dev/null 2>&1 &&
	   echo "data" | ssh-keygen -Y sign -n git -f stable.key >/dev/null 2>&1
	then
		test_set_prereq SSH_SIGN
	fi &&
	echo "stable@example.org $(cat stable.key.pub)" >allowed-signers &&
	STABLE_MAINLINE=$VERIFY_MAINLINE stable_tree_linux upstream &&
	stable_tree_replay upstream 11 &&
	git -C upstream rolling init -q --preset linux $BRANCH &&
	for week in 12 13 14 15 16
	do
		stable_tree_replay upstream $week &&
		git -C upstream rolling advance -q || return 1
	done &&
	git -C upstream config gpg.format ssh &&
	git init -q --bare server.git &&
	git -C upstream remote add server "$TRASH_DIRECTORY/server.git" &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer config gpg.format ssh &&
	git -C consumer config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/allowed-signers" &&
	git -C consumer rolling init -q --follow origin/$BRANCH --signatures &&
	test "$(git -C consumer config rolling.remote.origin.signatures)" = true
'

test_expect_success SSH_SIGN 'signed releases: the first fetch and a weekly one verify every signature' '
	for tag in $(git -C upstream tag -l "v*.*.*" | grep -E "^v[0-9]+\.[0-9]+\.[0-9]+$")
	do
		sign_tag stable.key $tag || return 1
	done &&
	git -C upstream push -q server "refs/tags/*:refs/tags/*" $BRANCH~2:refs/heads/$BRANCH &&
	git -C consumer rolling fetch origin >out &&
	n=$(($(git -C upstream rev-list --count --first-parent --merges $BRANCH~2) + 1)) &&
	grep "^origin/$BRANCH: verified, $n release signatures good$" out &&
	git -C consumer verify-tag v5.19.2 2>/dev/null &&
	git -C upstream push -q server $BRANCH:refs/heads/$BRANCH &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: 2 steps since " out &&
	grep "^origin/$BRANCH: verified, 2 release signatures good$" out &&
	test "$(git -C consumer rev-parse refs/rolling/verified/origin/$BRANCH)" = "$(server_tip)"
'

# forge <kind>: the server publishes v6.0.99, an evil commit on the
# newest release tagged by mallory ("mallory"), unsigned ("annotated")
# or lightweight ("lightweight"), and a rolling step merging it.
forge () {
	good=$(server_tip) &&
	base=$(git -C upstream rev-parse $good^2) &&
	evil=$(cd upstream && git commit-tree -p $base -m "Linux 6.0.99" $(tampered_tree $base)) &&
	case $1 in
	mallory)
		git -C upstream -c user.signingkey="$TRASH_DIRECTORY/mallory.key" \
			tag -s -m "Linux 6.0.99" v6.0.99 $evil ;;
	annotated)
		git -C upstream tag -a -m "Linux 6.0.99" v6.0.99 $evil ;;
	lightweight)
		git -C upstream tag v6.0.99 $evil ;;
	esac &&
	forged_tag=$(git -C upstream rev-parse refs/tags/v6.0.99) &&
	step=$(git -C upstream commit-tree -p $good -p $evil -m "Merge v6.0.99" $evil^{tree}) &&
	git -C upstream push -q server refs/tags/v6.0.99 $step:refs/heads/$BRANCH
}

unforge () {
	git -C upstream tag -d v6.0.99 >/dev/null &&
	git --git-dir=server.git tag -d v6.0.99 >/dev/null &&
	git --git-dir=server.git update-ref refs/heads/$BRANCH $good
}

for kind in mallory annotated lightweight
do
	case $kind in
	mallory) found="no public key" ;;
	annotated) found="unsigned tag" ;;
	lightweight) found="lightweight tag" ;;
	esac
	test_expect_success SSH_SIGN "a forged release ($kind) is refused with nothing kept" '
		forge $kind &&
		test_when_finished unforge &&
		snapshot before &&
		test_expect_code 1 git -C consumer rolling fetch origin >out 2>err &&
		grep "^error: origin/$BRANCH: $step: signature: expected a good signature on tag v6.0.99 .*, found v6.0.99: $found$" err &&
		test $(grep -c "^error: origin/$BRANCH: " err) = 1 &&
		snapshot after &&
		test_cmp before after &&
		test_must_fail git -C consumer cat-file -e $step &&
		test_must_fail git -C consumer cat-file -e $evil &&
		test_must_fail git -C consumer cat-file -e $forged_tag &&
		! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
	'
done

test_expect_success SSH_SIGN 'a release tag the consumer has is never replaced by the server'"'"'s, even in a full verify' '
	tag=$(git -C consumer log -1 --format=%s origin/$BRANCH~1 | sed "s/^Merge //") &&
	mine=$(git -C consumer rev-parse refs/tags/$tag) &&
	git --git-dir=server.git update-ref refs/tags/$tag $(git --git-dir=server.git rev-parse v5.19.2) &&
	test_when_finished "git --git-dir=server.git update-ref refs/tags/$tag $mine" &&
	git -C consumer update-ref -d refs/rolling/verified/origin/$BRANCH &&
	git -C consumer rolling fetch origin >out &&
	grep "^origin/$BRANCH: verified, [0-9]* release signatures good$" out &&
	grep "^origin/$BRANCH: verified for the first time at " out &&
	test "$(git -C consumer rev-parse refs/tags/$tag)" = "$mine" &&
	git -C consumer rolling verify --signatures --preset linux origin/$BRANCH
'

test_expect_success SSH_SIGN '--no-signatures trusts the server'"'"'s tags: the forged step passes' '
	forge annotated &&
	test_when_finished "unforge && git -C consumer update-ref refs/rolling/verified/origin/$BRANCH $good && git -C consumer update-ref refs/remotes/origin/$BRANCH $good && git -C consumer tag -d v6.0.99" &&
	git -C consumer rolling fetch --no-signatures origin >out &&
	grep "^origin/$BRANCH: verified$" out &&
	test "$(git -C consumer rev-parse refs/tags/v6.0.99)" = "$forged_tag"
'

test_done
