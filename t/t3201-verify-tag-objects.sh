#!/bin/sh

test_description='release tags are read from their objects, not from caches

The peeled lines of packed-refs are a cache a hostile repository can lie
in; a tag object may name another release than the ref it is published
as, or lie in its type header (git treats such a tag as broken); a loose
tag may point to a missing object.  verify fails for every release it
relies on that is not sound, advance and init skip such a release with a
warning, and nothing becomes fatal.  git itself is the oracle.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# sign_tag KEY TAG: replace TAG by an SSH-signed annotated tag on the same commit.
sign_tag () {
	git -c user.signingkey="$TRASH_DIRECTORY/$1" tag -f -s -m "Linux ${2#v}" "$2" "$2^{commit}" \
		>/dev/null
}

# The lies of packed-refs and a loose ref to a missing object are states
# of the files backend that a test writes by hand (git writes neither):
# the tree keeps its refs in files whatever git's default.
test_expect_success 'setup' '
	STABLE_REF_FORMAT=files verify_fixture tree &&
	test "$(test_ref_format tree)" = files &&
	if ssh-keygen -q -t ed25519 -N "" -C stable -f stable.key >/dev/null 2>&1 &&
	   echo "data" | ssh-keygen -Y sign -n git -f stable.key >/dev/null 2>&1
	then
		test_set_prereq SSH_SIGN
	fi &&
	echo "stable@example.org $(cat stable.key.pub)" >allowed-signers &&
	cd tree &&
	git config gpg.format ssh &&
	git config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/allowed-signers" &&
	git rolling verify -q linux-rolling-stable &&
	test "$(git cat-file -t $(git log -1 --format=%s linux-rolling-stable | sed "s/^Merge //"))" = tag &&
	git rev-parse linux-rolling-stable >../tip
'

test_expect_success 'a peeled line of packed-refs that lies' '
	cd tree &&
	tip=$(cat ../tip) &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $tip" &&
	release_tag=$(git log -1 --format=%s $tip | sed "s/^Merge //") &&
	release=$(git rev-parse $tip^2) &&
	evil=$(git commit-tree -p $release^ -m "Linux ${release_tag#v}" $(tampered_tree $release)) &&
	forged=$(git commit-tree -p $tip^1 -p $evil -m "Merge $release_tag" $evil^{tree}) &&
	git update-ref refs/heads/linux-rolling-stable $forged &&
	git pack-refs --all &&
	cp .git/packed-refs ../packed-refs.saved &&
	test_when_finished "cp ../packed-refs.saved .git/packed-refs" &&
	sed "\\# refs/tags/$release_tag\$#{n;s/^^.*/^$evil/;}" ../packed-refs.saved >.git/packed-refs &&
	git show-ref -d $release_tag | grep "^$evil refs/tags/$release_tag^{}$" &&
	test "$(git rev-parse $release_tag^{commit})" = "$release" &&
	verify_fails linux-rolling-stable $forged tag &&
	grep "found $release_tag: its objects lead to $release, but packed-refs says $evil$" err
'

test_expect_success 'a genuine old tag published under a newer name: advance skips it' '
	cd tree &&
	tip=$(cat ../tip) &&
	git update-ref refs/tags/v6.1.99 $(git rev-parse refs/tags/v6.1.2) &&
	test_when_finished "git tag -d v6.1.99" &&
	git cat-file tag v6.1.99 | grep "^tag v6.1.2$" &&
	git rolling advance 2>err &&
	grep "^warning: ignoring release tag .v6.1.99.: its tag object $(git rev-parse v6.1.99) is the tag .v6.1.2., published under another name$" err &&
	test "$(git rev-parse linux-rolling-stable)" = "$tip"
'

test_expect_success 'and init does not start a branch there' '
	cd tree &&
	git update-ref refs/tags/v6.1.99 $(git rev-parse refs/tags/v6.1.2) &&
	test_when_finished "git tag -d v6.1.99" &&
	test_when_finished "git config --remove-section rolling.other; git branch -D other" &&
	git rolling init -q --preset linux --pin 6.1 other 2>err &&
	grep "^warning: ignoring release tag .v6.1.99.:" err &&
	test "$(git rev-parse other)" = "$(git rev-parse v6.1.13^{commit})"
'

test_expect_success 'and verify refuses a step that merges it' '
	cd tree &&
	tip=$(cat ../tip) &&
	git update-ref refs/tags/v6.1.99 $(git rev-parse refs/tags/v6.1.2) &&
	test_when_finished "git tag -d v6.1.99" &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $tip" &&
	back=$(recipe_merge $tip v6.1.99) &&
	git update-ref refs/heads/linux-rolling-stable $back &&
	test "$(git rev-parse $back^{tree})" = "$(git rev-parse v6.1.2^{tree})" &&
	verify_fails linux-rolling-stable $back tag --rebuild &&
	grep "found v6.1.99: its tag object .* is the tag .v6.1.2., published under another name$" err
'

test_expect_success SSH_SIGN 'two names for one signed tag object: no false bad signature' '
	cd tree &&
	tip=$(cat ../tip) &&
	saved=$(git rev-parse refs/tags/v6.1.2) &&
	test_when_finished "git update-ref refs/tags/v6.1.2 $saved" &&
	sign_tag stable.key v6.1.2 &&
	git verify-tag v6.1.2 2>/dev/null &&
	git update-ref refs/tags/v6.1.99 $(git rev-parse refs/tags/v6.1.2) &&
	test_when_finished "git tag -d v6.1.99" &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $tip" &&
	git update-ref refs/heads/linux-rolling-stable $(recipe_merge $tip v6.1.99) &&
	switch=$(git rev-list --first-parent --merges linux-rolling-stable --grep="^Merge v6.1.2$") &&
	test_expect_code 1 git rolling verify --signatures --since $switch^1 \
		linux-rolling-stable >out 2>err &&
	! grep "bad signature" err &&
	! grep "signature: .*found v6.1.2:" err &&
	grep "signature: .*found v6.1.3: unsigned tag$" err &&
	grep ": tag: .*found v6.1.99: its tag object" err
'

test_expect_success 'setup: an OpenPGP key in one keyring, another keyring empty' '
	mkdir -m 700 gpg-home gpg-empty &&
	if GNUPGHOME="$TRASH_DIRECTORY/gpg-home" gpg --batch --passphrase "" \
		--quick-gen-key "Greg KH <gregkh@example.org>" ed25519 sign never >/dev/null 2>&1
	then
		test_set_prereq GPG
	fi &&
	test_when_finished "GNUPGHOME=\"$TRASH_DIRECTORY/gpg-home\" gpgconf --kill gpg-agent"
'

test_expect_success GPG 'an OpenPGP key that is only missing is "no public key", as git says' '
	cd tree &&
	tip=$(cat ../tip) &&
	test_when_finished "GNUPGHOME=\"$TRASH_DIRECTORY/gpg-home\" gpgconf --kill gpg-agent" &&
	test_when_finished "GNUPGHOME=\"$TRASH_DIRECTORY/gpg-empty\" gpgconf --kill gpg-agent" &&
	saved=$(git rev-parse refs/tags/v6.1.13) &&
	test_when_finished "git update-ref refs/tags/v6.1.13 $saved" &&
	GNUPGHOME="$TRASH_DIRECTORY/gpg-home" git -c gpg.format=openpgp \
		-c user.signingkey=gregkh@example.org tag -f -s -m "Linux 6.1.13" v6.1.13 \
		v6.1.13^{commit} >/dev/null 2>&1 &&
	GNUPGHOME="$TRASH_DIRECTORY/gpg-home" git rolling verify --signatures --since $tip^1 \
		linux-rolling-stable >out 2>err &&
	grep "verified, 1 release signature good$" out &&
	test_must_fail env GNUPGHOME="$TRASH_DIRECTORY/gpg-empty" git verify-tag --raw v6.1.13 \
		2>git.err &&
	grep "NO_PUBKEY" git.err &&
	(
		GNUPGHOME="$TRASH_DIRECTORY/gpg-empty" &&
		export GNUPGHOME &&
		verify_fails linux-rolling-stable $tip signature --signatures --since $tip^1
	) &&
	grep "found v6.1.13: no public key$" err &&
	git cat-file tag v6.1.13 | sed "s/^Linux 6.1.13$/Linux 6.1.12/" >altered.tag &&
	git update-ref refs/tags/v6.1.13 $(git hash-object -t tag -w altered.tag) &&
	(
		GNUPGHOME="$TRASH_DIRECTORY/gpg-home" &&
		export GNUPGHOME &&
		verify_fails linux-rolling-stable $tip signature --signatures --since $tip^1
	) &&
	grep "found v6.1.13: bad signature$" err
'

test_expect_success 'a tag whose type header lies about its object' '
	cd tree &&
	tip=$(cat ../tip) &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $tip" &&
	tree=$(index_tree v6.1.13^{tree} Makefile.v6.1.14 v6.1.14) &&
	release=$(git commit-tree -p v6.1.13^{commit} -m "Linux 6.1.14" $tree) &&
	lying=$(printf "object %s\ntype tree\ntag v6.1.14\ntagger Greg KH <gregkh@example.org> 1700000000 +0000\n\nLinux 6.1.14\n" \
		$release | git hash-object -t tag -w --literally --stdin) &&
	git update-ref refs/tags/v6.1.14 $lying &&
	test_when_finished "git tag -d v6.1.14" &&
	test_must_fail git rev-parse --verify v6.1.14^{commit} 2>git.err &&
	grep "^error: object $release is a tree, not a commit$" git.err &&
	git rolling advance 2>err &&
	grep "^warning: ignoring release tag .v6.1.14.: tag object $lying says $release is a tree, but it is a commit (git treats the tag as broken)$" err &&
	test "$(git rev-parse linux-rolling-stable)" = "$tip" &&
	merge=$(git commit-tree -p $tip -p $release -m "Merge v6.1.14" $release^{tree}) &&
	git update-ref refs/heads/linux-rolling-stable $merge &&
	verify_fails linux-rolling-stable $merge tag &&
	grep "found v6.1.14: tag object $lying says $release is a tree, but it is a commit" err
'

test_expect_success 'a loose release tag whose object is missing is skipped with a warning' '
	cd tree &&
	tip=$(cat ../tip) &&
	missing=0123456789012345678901234567890123456789 &&
	echo $missing >.git/refs/tags/v6.1.20 &&
	test_when_finished "rm -f .git/refs/tags/v6.1.20" &&
	test "$(git tag -l v6.1.20)" = v6.1.20 &&
	test_must_fail git rev-parse --verify -q v6.1.20^{commit} &&
	git rolling verify -q linux-rolling-stable 2>err &&
	grep "^warning: ignoring release tag .v6.1.20.: object $missing is missing$" err &&
	git rolling advance -q 2>err &&
	grep "^warning: ignoring release tag .v6.1.20.:" err &&
	test "$(git rev-parse linux-rolling-stable)" = "$tip" &&
	git rolling describe $(git rev-parse v6.1.5^{commit}) >out 2>err &&
	grep "^first in linux-rolling-stable at v6.1.5 " out
'

test_expect_success 'a symbolic release tag to a ref that does not exist is skipped with a warning' '
	cd tree &&
	git symbolic-ref refs/tags/v6.1.21 refs/tags/nowhere &&
	test_when_finished "git symbolic-ref -d refs/tags/v6.1.21" &&
	test_must_fail git rev-parse --verify -q v6.1.21^{commit} &&
	git rolling verify -q linux-rolling-stable 2>err &&
	grep "^warning: ignoring release tag .v6.1.21.: it is a symbolic ref to refs/tags/nowhere, which does not exist$" err &&
	git rolling advance -q 2>err &&
	grep "^warning: ignoring release tag .v6.1.21.:" err
'

test_done
