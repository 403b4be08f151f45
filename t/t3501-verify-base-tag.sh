#!/bin/sh

test_description='verify checks the base release'"'"'s own tag as it checks every step'"'"'s

The chain ends at the base, a release commit; the release tag that makes
it one is read from its objects like any other: a tag object published
under another name, one that lies in its type header, or a peeled line of
packed-refs that names another commit fail the base, naming the base
commit.  With --signatures the base'"'"'s tag is checked too: an unsigned
one fails, and the count of good signatures includes it.  git (cat-file,
verify-tag, rev-list) is the oracle.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# retag NAME TAG-TEXT: point refs/tags/NAME at a new tag object whose
# text is TAG-TEXT (printf format, %s the base commit), written as is:
# --literally, for the names git's fsck rejects (git 2.39 writes a tag
# named "v5.19." as it is; 2.47 and 2.55 refuse it as badTagName).
retag () {
	printf "$2" "$(cat "$TRASH_DIRECTORY/base")" |
	git hash-object -t tag -w --literally --stdin >"$TRASH_DIRECTORY/new-tag" &&
	git update-ref "refs/tags/$1" "$(cat "$TRASH_DIRECTORY/new-tag")"
}

test_expect_success 'setup: a signed branch, its base and the base'"'"'s tag' '
	# A lying packed-refs is a state of the files backend, written by hand.
	STABLE_SIGNED_TAGS=1 STABLE_REF_FORMAT=files verify_fixture tree &&
	test "$(test_ref_format tree)" = files &&
	cd tree &&
	git rev-list -1 --first-parent --no-merges linux-rolling-stable >../base &&
	base=$(cat ../base) &&
	test "$(git rev-parse $base)" = "$(git rev-parse $(nth_merge linux-rolling-stable 1)^1)" &&
	git tag --points-at $base | grep "^v[0-9]*\.[0-9]*\.[0-9]*$" >../base-tag &&
	test_line_count = 1 ../base-tag &&
	test "$(git cat-file -t $(cat ../base-tag))" = tag &&
	git rev-parse refs/tags/$(cat ../base-tag) >../base-tag-object &&
	git rev-parse linux-rolling-stable >../tip &&
	git rolling verify linux-rolling-stable >out &&
	grep "^linux-rolling-stable: [0-9]* steps from base $(cat ../base-tag) " out
'

test_expect_success 'the base'"'"'s tag names another release: the base fails' '
	cd tree &&
	name=$(cat ../base-tag) &&
	test_when_finished "git update-ref refs/tags/$name $(cat ../base-tag-object)" &&
	retag $name "object %s\ntype commit\ntag ${name}9\ntagger T <t@example.org> 1 +0000\n\nLinux\n" &&
	git cat-file tag $name | grep "^tag ${name}9$" &&
	verify_fails linux-rolling-stable $(cat ../base) tag &&
	grep "found $name: its tag object $(cat ../new-tag) is the tag .${name}9., published under another name$" err &&
	test $(grep -c "^error: " err) = 1
'

test_expect_success 'the base'"'"'s tag names a prefix of the release: the base fails' '
	cd tree &&
	name=$(cat ../base-tag) &&
	short=${name%?} &&
	test_when_finished "git update-ref refs/tags/$name $(cat ../base-tag-object)" &&
	retag $name "object %s\ntype commit\ntag $short\ntagger T <t@example.org> 1 +0000\n\nLinux\n" &&
	verify_fails linux-rolling-stable $(cat ../base) tag &&
	grep "is the tag .$short., published under another name$" err
'

test_expect_success 'the base'"'"'s tag lies in its type header: the base fails' '
	cd tree &&
	name=$(cat ../base-tag) &&
	test_when_finished "git update-ref refs/tags/$name $(cat ../base-tag-object)" &&
	retag $name "object %s\ntype tree\ntag $name\ntagger T <t@example.org> 1 +0000\n\nLinux\n" &&
	test "$(git cat-file -t $(cat ../base))" = commit &&
	verify_fails linux-rolling-stable $(cat ../base) tag &&
	grep "found $name: tag object $(cat ../new-tag) says $(cat ../base) is a tree, but it is a commit (git treats the tag as broken)$" err
'

test_expect_success 'a tag of the base that tells the truth verifies (the control)' '
	cd tree &&
	name=$(cat ../base-tag) &&
	test_when_finished "git update-ref refs/tags/$name $(cat ../base-tag-object)" &&
	retag $name "object %s\ntype commit\ntag $name\ntagger T <t@example.org> 1 +0000\n\nLinux\n" &&
	git rolling verify linux-rolling-stable
'

test_expect_success 'packed-refs peels the base'"'"'s tag to another commit: that base fails' '
	cd tree &&
	name=$(cat ../base-tag) &&
	base=$(cat ../base) &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $(cat ../tip)" &&
	evil=$(git commit-tree -p $base^ -m "$(git log -1 --format=%s $base)" $(tampered_tree $base)) &&
	moved=$(restack $evil $base linux-rolling-stable) &&
	git update-ref refs/heads/linux-rolling-stable $moved &&
	test "$(git rev-list -1 --first-parent --no-merges linux-rolling-stable)" = $evil &&
	git pack-refs --all &&
	cp .git/packed-refs ../packed-refs.saved &&
	test_when_finished "cp ../packed-refs.saved .git/packed-refs" &&
	sed "\\# refs/tags/$name\$#{n;s/^^.*/^$evil/;}" ../packed-refs.saved >.git/packed-refs &&
	git show-ref -d $name | grep "^$evil refs/tags/$name^{}$" &&
	test "$(git rev-parse $name^{commit})" = $base &&
	verify_fails linux-rolling-stable $evil tag &&
	grep "found $name: its objects lead to $base, but packed-refs says $evil$" err &&
	test $(grep -c "^error: " err) = 1
'

test_expect_success '--signatures counts the base'"'"'s tag among the good ones' '
	cd tree &&
	steps=$(git rev-list --count --first-parent --merges linux-rolling-stable) &&
	git verify-tag $(cat ../base-tag) 2>/dev/null &&
	git rolling verify --signatures linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified, $((steps + 1)) release signatures good$" out
'

test_expect_success '--signatures: an unsigned tag of the base fails the base' '
	cd tree &&
	name=$(cat ../base-tag) &&
	test_when_finished "git update-ref refs/tags/$name $(cat ../base-tag-object)" &&
	git tag -f -a -m "Linux ${name#v}" $name $name^{commit} >/dev/null &&
	test_must_fail git verify-tag $name 2>/dev/null &&
	git rolling verify linux-rolling-stable &&
	verify_fails linux-rolling-stable $(cat ../base) signature --signatures &&
	grep "found $name: unsigned tag$" err &&
	test $(grep -c "^error: " err) = 1
'

test_expect_success '--signatures: a broken signature on the base'"'"'s tag fails the base' '
	cd tree &&
	name=$(cat ../base-tag) &&
	test_when_finished "git update-ref refs/tags/$name $(cat ../base-tag-object)" &&
	git cat-file tag $name |
	awk "/^-----BEGIN SSH SIGNATURE-----\$/ { print; getline; \$0 = (substr(\$0, 1, 1) == \"A\" ? \"B\" : \"A\") substr(\$0, 2) } { print }" |
	git hash-object -t tag -w --stdin >../broken &&
	git update-ref refs/tags/$name $(cat ../broken) &&
	test_must_fail git verify-tag $name 2>/dev/null &&
	verify_fails linux-rolling-stable $(cat ../base) signature --signatures &&
	grep "found $name: bad signature$" err
'

test_done
