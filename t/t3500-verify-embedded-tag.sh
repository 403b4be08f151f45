#!/bin/sh

test_description='the tag-free proof reads the name, type and object of the embedded tag

A clone without tag refs proves a step with verify --signatures from the
tag embedded in its merge.  That tag must be a tag of the release the
subject names (its name exactly that name, not a prefix of it nor a name
it is a prefix of), of a commit (its type header says "commit"), and of
the second parent.  Each forged merge below is signed by the trusted key
and differs from a good one in that one header only; a control re-signs
a truthful tag and verifies.  git verify-tag and git cat-file are the
oracles.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-mergetag.sh

if ! ssh-keygen -q -t ed25519 -N "" -C probe -f "$TRASH_DIRECTORY/probe.key" >/dev/null 2>&1
then
	skip_all='ssh-keygen cannot make keys'
	test_done
fi

# signed_raw_tag OBJECT TYPE NAME: print the id of a new tag object with
# these headers, signed by the fixture's key as git tag -s signs.
signed_raw_tag () {
	printf 'object %s\ntype %s\ntag %s\ntagger %s 1700000000 +0000\n\nLinux %s\n' \
		"$1" "$2" "$3" "Greg KH <gregkh@example.org>" "${3#v}" >"$TRASH_DIRECTORY/raw.payload" &&
	rm -f "$TRASH_DIRECTORY/raw.payload.sig" &&
	ssh-keygen -q -Y sign -n git -f "$TRASH_DIRECTORY/stable-signing.key" \
		"$TRASH_DIRECTORY/raw.payload" >/dev/null 2>&1 &&
	cat "$TRASH_DIRECTORY/raw.payload" "$TRASH_DIRECTORY/raw.payload.sig" |
	git hash-object -t tag -w --stdin
}

# forge NAME OBJECT TYPE TAG-NAME: in the full tree, remake the tip with
# one embedded tag of these headers, fetch it into the clone as branch
# NAME, and write its id to NAME.id, the tag's to NAME.tag (OBJECT is a
# revision of the tree).
forge () {
	(
		cd tree &&
		tip=$(git rev-parse linux-rolling-stable) &&
		tag=$(signed_raw_tag $(git rev-parse "$2") "$3" "$4") &&
		git verify-tag $tag 2>/dev/null &&
		bad=$(with_mergetag $tip $tag) &&
		git branch -f "$1" $bad &&
		echo $bad >"../$1.id" &&
		echo $tag >"../$1.tag"
	) &&
	git -C clone fetch -q --no-tags ../tree "refs/heads/$1:refs/heads/$1"
}

test_expect_success 'setup: a signed branch, verified up to its tip'"'"'s parent, cloned without tags' '
	STABLE_SIGNED_TAGS=1 verify_fixture tree &&
	tip=$(git -C tree rev-parse linux-rolling-stable) &&
	git -C tree rev-parse $tip^1 >old &&
	git -C tree log -1 --format=%s $tip | sed "s/^Merge //" >release &&
	test -n "$(cat release)" &&
	git -C tree cat-file commit $tip | grep "^mergetag object $(git -C tree rev-parse $tip^2)$" &&
	git clone -q --no-tags --single-branch -b linux-rolling-stable \
		"file://$TRASH_DIRECTORY/tree" clone &&
	test -z "$(git -C clone tag)" &&
	git -C clone config gpg.format ssh &&
	git -C clone config gpg.ssh.allowedSignersFile \
		"$TRASH_DIRECTORY/stable-signing.key.allowed-signers" &&
	git -C clone rolling verify --signatures --since $(cat old) linux-rolling-stable
'

test_expect_success 'control: another truthful tag of the release, well signed, proves the step' '
	forge truthful linux-rolling-stable^2 commit $(cat release) &&
	cd clone &&
	test $(cat ../truthful.id) != $(git rev-parse linux-rolling-stable) &&
	git rolling verify --signatures --since $(cat ../old) truthful >out &&
	grep "^truthful: verified, 1 release signature good$" out
'

test_expect_success 'an embedded tag named a prefix of the subject'"'"'s release fails' '
	name=$(cat release) &&
	forge short linux-rolling-stable^2 commit ${name%?} &&
	cd clone &&
	verify_fails short $(cat ../short.id) mergetag --signatures --since $(cat ../old) &&
	grep "expected a tag named $name, found embedded tag ${name%?}$" err &&
	test $(grep -c "^error: " err) = 2
'

test_expect_success 'an embedded tag whose name the subject'"'"'s release is a prefix of fails' '
	name=$(cat release) &&
	forge long linux-rolling-stable^2 commit ${name}0 &&
	cd clone &&
	verify_fails long $(cat ../long.id) mergetag --signatures --since $(cat ../old) &&
	grep "expected a tag named $name, found embedded tag ${name}0$" err
'

test_expect_success 'an embedded tag of the second parent whose type header says tree fails' '
	forge lying-type linux-rolling-stable^2 tree $(cat release) &&
	git -C tree cat-file commit lying-type | grep "^ type tree$" &&
	cd clone &&
	second=$(git rev-parse lying-type^2) &&
	test "$(git cat-file -t $second)" = commit &&
	verify_fails lying-type $(cat ../lying-type.id) mergetag --signatures --since $(cat ../old) &&
	grep "expected a tag of commit $second (the second parent), found a tag of tree $second$" err
'

test_expect_success 'an embedded tag of the second parent'"'"'s tree fails' '
	forge of-tree linux-rolling-stable^2^{tree} tree $(cat release) &&
	cd clone &&
	second=$(git rev-parse of-tree^2) &&
	verify_fails of-tree $(cat ../of-tree.id) mergetag --signatures --since $(cat ../old) &&
	grep "found a tag of tree $(git rev-parse $second^{tree})$" err
'

test_expect_success 'an embedded tag of the first parent fails' '
	forge of-first linux-rolling-stable^1 commit $(cat release) &&
	cd clone &&
	verify_fails of-first $(cat ../of-first.id) mergetag --signatures --since $(cat ../old) &&
	grep "found a tag of commit $(cat ../old)$" err
'

test_expect_success 'with the tag refs, an embedded tag other than the ref'"'"'s object fails' '
	cd tree &&
	verify_fails truthful $(cat ../truthful.id) mergetag &&
	name=$(cat ../release) &&
	grep "expected tag object $(git rev-parse refs/tags/$name) (refs/tags/$name), found another tag object $(cat ../truthful.tag)$" err
'

test_done
