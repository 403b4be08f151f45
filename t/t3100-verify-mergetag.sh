#!/bin/sh

test_description='verify checks the signed tags embedded in rolling merges

Release tags are SSH-signed, so every rolling merge carries its release
tag in a mergetag header, as git merge <tag> and git commit write it.
verify accepts one mergetag holding the very tag object the release ref
names, and rejects, naming the merge, an embedded tag of another commit,
of another name, another release'"'"'s tag, a tag with a broken signature,
a second mergetag, and any header the recipe never writes.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh
. "$TEST_DIRECTORY"/lib-mergetag.sh

if ! ssh-keygen -q -t ed25519 -N "" -C mallory -f "$TRASH_DIRECTORY/mallory.key" >/dev/null 2>&1
then
	skip_all='ssh-keygen cannot make keys'
	test_done
fi

# tip_release BRANCH: the release the tip merges.
tip_release () {
	git log -1 --format=%s "$1" | sed "s/^Merge //"
}

test_expect_success 'setup: a rolling branch built from signed tags' '
	STABLE_SIGNED_TAGS=1 verify_fixture tree &&
	cd tree &&
	git verify-tag v6.1.3 2>/dev/null &&
	git rolling verify --rebuild --signatures linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified" out &&
	git rev-list --first-parent --merges linux-rolling-stable >../merges &&
	git log --no-walk=unsorted --stdin --pretty=raw <../merges >raw &&
	awk "/^commit / { if (c) print c, n; c = \$2; n = 0 }
	     /^mergetag object / { n++ }
	     END { print c, n }" raw >mergetags &&
	sed "s/\$/ 1/" ../merges >expect &&
	test_cmp expect mergetags
'

test_expect_success 'the embedded tag is the release tag object, byte for byte' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(tip_release $tip) &&
	git cat-file commit $tip | sed -n "/^mergetag /,/^\$/p" | sed "\$d" |
		sed -e "1s/^mergetag //" -e "2,\$s/^ //" >embedded &&
	git cat-file tag $tag >expect &&
	test_cmp expect embedded &&
	test "$(git hash-object -t tag embedded)" = "$(git rev-parse $tag)"
'

test_expect_success 'a mergetag of another commit' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(tip_release $tip) &&
	forged=$(signed_tag_object $tag $tip^2^) &&
	bad=$(with_mergetag $tip $forged) &&
	git branch wrong-object $bad &&
	verify_fails wrong-object $bad mergetag &&
	grep "expected a tag of commit $(git rev-parse $tip^2) (the second parent), found a tag of commit $(git rev-parse $tip^2^)" err
'

test_expect_success 'a mergetag of another name' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	forged=$(signed_tag_object v6.2.99 $tip^2) &&
	bad=$(with_mergetag $tip $forged) &&
	git branch wrong-name $bad &&
	verify_fails wrong-name $bad mergetag &&
	grep "expected a tag named $(tip_release $tip), found embedded tag v6.2.99" err
'

test_expect_success 'another release'"'"'s signed tag' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	other=$(tip_release $tip^1) &&
	bad=$(with_mergetag $tip $(git rev-parse $other)) &&
	git branch other-release $bad &&
	verify_fails other-release $bad mergetag &&
	grep "found embedded tag $other$" err
'

test_expect_success 'a broken signature: not the tag object the release ref names' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(tip_release $tip) &&
	broken=$(tag_with_broken_signature $tag) &&
	bad=$(with_mergetag $tip $broken) &&
	git branch broken-signature $bad &&
	verify_fails broken-signature $bad mergetag &&
	grep "expected tag object $(git rev-parse $tag) (refs/tags/$tag), found another tag object $broken" err
'

test_expect_success 'a second mergetag, in the middle of the chain' '
	cd tree &&
	victim=$(nth_merge linux-rolling-stable 5) &&
	tag=$(tip_release $victim) &&
	bad=$(with_mergetag $victim $(git rev-parse $tag) $(git rev-parse $tag)) &&
	git branch second-mergetag $(restack $bad $victim linux-rolling-stable) &&
	verify_fails second-mergetag $bad mergetag &&
	grep "expected at most one mergetag header, found another mergetag header" err &&
	test $(grep -c "^error: " err) = 1
'

test_expect_success 'without its mergetag the merge verifies, but is not the recipe'"'"'s' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	bare=$(with_mergetag $tip) &&
	git branch no-mergetag $bare &&
	git rolling verify no-mergetag &&
	verify_fails no-mergetag $bare rebuild --rebuild &&
	grep "(no mergetag header: the recipe embeds the signed release tag)" err
'

test_expect_success 'any other header fails its own check; gpgsig is left to signatures' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	bad=$(with_header $tip "encoding ISO-8859-1") &&
	git branch extra-header $bad &&
	verify_fails extra-header $bad header &&
	grep "found extra header .encoding.$" err &&
	signed=$(with_header $tip "gpgsig -----BEGIN SSH SIGNATURE-----") &&
	git branch gpgsig-header $signed &&
	git rolling verify gpgsig-header
'

test_expect_success 'a merge signed with git commit -S: --signatures checks that signature too' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(tip_release $tip) &&
	rm -rf ../signed-wt &&
	git worktree add -q --detach ../signed-wt $tip^1 &&
	(
		cd ../signed-wt &&
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=commit.gpgSign GIT_CONFIG_VALUE_0=true &&
		export GIT_CONFIG_COUNT GIT_CONFIG_KEY_0 GIT_CONFIG_VALUE_0 &&
		recipe_step $tag
	) &&
	signed=$(git -C ../signed-wt rev-parse HEAD) &&
	git worktree remove --force ../signed-wt &&
	git cat-file commit $signed >raw &&
	grep "^gpgsig -----BEGIN SSH SIGNATURE-----$" raw &&
	grep "^mergetag object " raw &&
	git branch signed-merge $signed &&
	git verify-commit $signed 2>/dev/null &&
	# The step on its own (--since): the release tags of the chain
	# below it cost two ssh-keygen runs each and were checked in setup.
	git rolling verify --signatures --since $tip^1 signed-merge >out &&
	grep "^signed-merge: verified, 1 release signature good" out &&
	forged=$(with_broken_gpgsig $signed) &&
	test $forged != $signed &&
	test_must_fail git verify-commit $forged 2>/dev/null &&
	git branch forged-signature $forged &&
	git rolling verify forged-signature &&
	verify_fails forged-signature $forged signature --signatures --since $tip^1 &&
	grep "found a commit signature git does not accept$" err &&
	test $(grep -c "^error: " err) = 1
'

test_expect_success 'advance and the chain walk refuse to build on a bad mergetag' '
	cd tree &&
	git config --get-regexp "^rolling\.linux-rolling-stable\." |
	while read key value
	do
		git config "rolling.wrong-object.${key#rolling.linux-rolling-stable.}" "$value" ||
		return 1
	done &&
	git for-each-ref >refs.before &&
	test_must_fail git rolling advance wrong-object 2>err &&
	grep "is neither a rolling merge nor a release commit" err &&
	git for-each-ref >refs.after &&
	test_cmp refs.before refs.after
'

test_done
