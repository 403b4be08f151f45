#!/bin/sh

test_description='advance embeds a release tag exactly when git merge <tag> does

git records the object MERGE_HEAD names (the tag the ref points to, the
outer one for a tag of a tag) in a mergetag header when it is a tag object
carrying a signature, without checking the signature.  Each kind of
release tag is merged by advance and by the git CLI recipe from the same
tip; the two commits must be identical.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

if ! ssh-keygen -q -t ed25519 -N "" -C mallory -f "$TRASH_DIRECTORY/mallory.key" >/dev/null 2>&1
then
	skip_all='ssh-keygen cannot make keys'
	test_done
fi

# step_with KIND: remake refs/tags/$target as KIND, advance a fresh branch
# from $base to it, and check the merge against the recipe's.  Prints
# nothing; leaves the merge in ../merge.
step_with () {
	git update-ref refs/tags/$target $original &&
	case $1 in
	untrusted)
		git -c user.signingKey="$TRASH_DIRECTORY/mallory.key" \
			tag -f -s -m "Linux ${target#v}" $target $target^{commit} ;;
	nested-signed)
		git tag -f -s -m "Linux ${target#v}, again" $target $original ;;
	nested-unsigned)
		git tag -f -a -m "Linux ${target#v}, again" $target $original ;;
	esac >/dev/null &&
	git branch -D -q rolling-$1 2>/dev/null
	git rolling init -q --preset linux --stable --at $base rolling-$1 &&
	git rolling advance -q rolling-$1 &&
	git rev-parse rolling-$1 >../merge &&
	test "$(git log -1 --format=%s rolling-$1)" = "Merge $target" &&
	recipe_reproduces $base^{commit} rolling-$1
}

test_expect_success 'setup: a signed tree, a base and the release to merge' '
	STABLE_SIGNED_TAGS=1 STABLE_MAINLINE="5.19 6.0 6.1" stable_tree_linux tree &&
	cd tree &&
	target=$(git tag -l "v6.0.*" | sort -V | tail -n 1) &&
	base=$(git tag -l "v6.0.*" | sort -V | tail -n 2 | head -n 1) &&
	original=$(git rev-parse $target) &&
	echo "$target $base $original" >../setup &&
	git verify-tag $target 2>/dev/null
'

test_expect_success 'a tag git cannot check is embedded all the same' '
	cd tree &&
	read target base original <../setup &&
	step_with untrusted &&
	test_must_fail git verify-tag $target 2>/dev/null &&
	git cat-file commit $(cat ../merge) >raw &&
	grep "^mergetag object $(git rev-parse $target^{commit})$" raw &&
	git rolling verify --rebuild rolling-untrusted &&
	merge=$(cat ../merge) &&
	test_expect_code 1 git rolling verify --signatures rolling-untrusted 2>err &&
	grep "^error: rolling-untrusted: $merge: signature: .*found $target: no public key$" err
'

test_expect_success 'a signed tag of the signed tag: the outer tag is embedded' '
	cd tree &&
	read target base original <../setup &&
	step_with nested-signed &&
	git cat-file commit $(cat ../merge) >raw &&
	grep "^mergetag object $original$" raw &&
	grep "^ type tag$" raw &&
	git rolling verify --rebuild --signatures rolling-nested-signed
'

test_expect_success 'an unsigned tag of the signed tag: nothing is embedded' '
	cd tree &&
	read target base original <../setup &&
	step_with nested-unsigned &&
	git cat-file commit $(cat ../merge) >raw &&
	! grep "^mergetag" raw &&
	git rolling verify --rebuild rolling-nested-unsigned
'

test_expect_success 'advance --dry-run announces the id with the mergetag' '
	cd tree &&
	read target base original <../setup &&
	git update-ref refs/tags/$target $original &&
	git rolling init -q --preset linux --stable --at $base dry &&
	git rolling advance --dry-run dry >out &&
	git rolling advance dry &&
	grep "^dry: $base -> $target ($(git rev-parse --short dry)) \[dry run\]$" out &&
	git cat-file commit dry | grep "^mergetag object "
'

test_done
