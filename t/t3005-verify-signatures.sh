#!/bin/sh

test_description='verify --signatures checks the release tags as git verify-tag does

The release tags merged by the chain (and the base) are checked through
git verify-tag, so gpg.format, the SSH allowed-signers file and the rest
of git'"'"'s signature configuration apply.  SSH signatures are used here
because they need no agent.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# The releases the chain stands on: the base, then each merged one.
chain_releases () {
	echo v5.19.2 &&
	git log --first-parent --merges --format=%s linux-rolling-stable | sed "s/^Merge //"
}

# sign_tag KEY TAG: replace TAG by an SSH-signed annotated tag on the same commit.
sign_tag () {
	git -c user.signingkey="$TRASH_DIRECTORY/$1" tag -f -s -m "Linux ${2#v}" "$2" "$2^{commit}" \
		>/dev/null
}

test_expect_success 'setup' '
	verify_fixture tree &&
	if ssh-keygen -q -t ed25519 -N "" -C stable -f stable.key >/dev/null 2>&1 &&
	   ssh-keygen -q -t ed25519 -N "" -C mallory -f mallory.key >/dev/null 2>&1 &&
	   echo "data" | ssh-keygen -Y sign -n git -f stable.key >/dev/null 2>&1
	then
		test_set_prereq SSH_SIGN
	fi &&
	echo "stable@example.org $(cat stable.key.pub)" >allowed-signers &&
	git -C tree config gpg.format ssh &&
	git -C tree config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/allowed-signers"
'

test_expect_success 'unsigned release tags fail --signatures, each named once' '
	cd tree &&
	git rolling verify linux-rolling-stable &&
	test_expect_code 1 git rolling verify --signatures linux-rolling-stable >out 2>err &&
	chain_releases | sort -u >expect.releases &&
	sed -n "s/.*: signature: expected .*, found \(v[0-9.]*\): unsigned tag$/\1/p" err |
		sort >actual.releases &&
	test_cmp expect.releases actual.releases &&
	test $(grep -c "^error: " err) = $(wc -l <expect.releases) &&
	merge=$(git rev-list --first-parent --merges linux-rolling-stable --grep="^Merge v6.0.5$") &&
	grep "^error: linux-rolling-stable: $merge: signature: expected a good signature on tag v6.0.5" err &&
	base=$(git rev-parse v5.19.2^{commit}) &&
	grep "^error: linux-rolling-stable: $base: signature: .*found v5.19.2: unsigned tag$" err
'

test_expect_success SSH_SIGN 'signed release tags pass' '
	cd tree &&
	# Every tag signed as git tag -s signs it, with one ssh-keygen for
	# all of them (lib-sign-tags.sh).
	sign_all_tags . "$TRASH_DIRECTORY/stable.key" &&
	git verify-tag v6.0.5 2>/dev/null &&
	n=$(chain_releases | sort -u | wc -l) &&
	git rolling verify --signatures linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified, $n release signatures good$" out
'

test_expect_success SSH_SIGN 'tags signed after the merges were made: not the recipe'"'"'s merges' '
	cd tree &&
	test_expect_code 1 git rolling verify --signatures --rebuild linux-rolling-stable >out 2>err &&
	git rev-list --first-parent --merges linux-rolling-stable >merges &&
	test $(grep -c ": rebuild: .*(no mergetag header: the recipe embeds the signed release tag)$" err) = \
		$(wc -l <merges) &&
	test $(grep -c "^error: " err) = $(wc -l <merges)
'

# A release tag spoiled in one way each: the steps from its merge on are
# enough to show the check (--since; test 3 checked the whole chain), as
# every tag verified costs two ssh-keygen runs.
test_expect_success SSH_SIGN 'a lightweight release tag' '
	cd tree &&
	saved=$(git rev-parse refs/tags/v6.1.5) &&
	test_when_finished "git update-ref refs/tags/v6.1.5 $saved" &&
	git tag -f v6.1.5 v6.1.5^{commit} &&
	merge=$(git rev-list --first-parent --merges linux-rolling-stable --grep="^Merge v6.1.5$") &&
	verify_fails linux-rolling-stable $merge signature --signatures --since $merge^1 &&
	grep "found v6.1.5: lightweight tag$" err &&
	test $(grep -c "^error: " err) = 1 &&
	git rolling verify linux-rolling-stable
'

test_expect_success SSH_SIGN 'a tag signed by a key git does not know: no public key, as git says' '
	cd tree &&
	saved=$(git rev-parse refs/tags/v6.0.8) &&
	test_when_finished "git update-ref refs/tags/v6.0.8 $saved" &&
	sign_tag mallory.key v6.0.8 &&
	test_must_fail git verify-tag v6.0.8 2>/dev/null &&
	merge=$(git rev-list --first-parent --merges linux-rolling-stable --grep="^Merge v6.0.8$") &&
	verify_fails linux-rolling-stable $merge signature --signatures --since $merge^1 &&
	grep "found v6.0.8: no public key$" err &&
	test $(grep -c "^error: " err) = 1
'

test_expect_success SSH_SIGN 'a signed tag whose message was altered' '
	cd tree &&
	saved=$(git rev-parse refs/tags/v6.1.3) &&
	test_when_finished "git update-ref refs/tags/v6.1.3 $saved" &&
	git cat-file tag v6.1.3 | sed "s/^Linux 6.1.3$/Linux 6.1.3 (approved)/" >forged &&
	git cat-file tag v6.1.3 >orig &&
	! cmp -s orig forged &&
	git update-ref refs/tags/v6.1.3 $(git mktag <forged) &&
	test_must_fail git verify-tag v6.1.3 2>/dev/null &&
	merge=$(git rev-list --first-parent --merges linux-rolling-stable --grep="^Merge v6.1.3$") &&
	verify_fails linux-rolling-stable $merge signature --signatures --since $merge^1 &&
	grep "found v6.1.3: bad signature$" err
'

test_expect_success SSH_SIGN '--since checks only the tags of the new steps' '
	cd tree &&
	git rolling verify --signatures --since linux-rolling-stable~4 linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified, 4 release signatures good$" out
'

test_expect_success SSH_SIGN 'without the allowed-signers file nothing verifies' '
	cd tree &&
	test_when_finished "git config gpg.ssh.allowedSignersFile \"$TRASH_DIRECTORY/allowed-signers\"" &&
	git config --unset gpg.ssh.allowedSignersFile &&
	test_expect_code 1 git rolling verify --signatures --since linux-rolling-stable~2 \
		linux-rolling-stable 2>err &&
	test $(grep -c ": no public key$" err) = 2
'

test_done
