#!/bin/sh

test_description='verify catches every kind of tampering

A good rolling branch is tampered with real git commands: a merge with a
changed tree, a third parent, a plain commit in the chain, a merge that
names the wrong tag, a moved or missing tag, a version that goes back, a
chain without a release at its base, a rewound ref.  Each must make
verify exit 1 and name the offending commit.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# The number of failures reported (one "error:" line each).
failure_count () {
	grep -c "^error: " err
}

test_expect_success 'setup' '
	verify_fixture tree &&
	cd tree &&
	git rolling verify linux-rolling-stable &&
	git rev-list --first-parent --merges linux-rolling-stable >../merges &&
	test_line_count -gt 20 ../merges
'

test_expect_success 'an evil merge at the tip: a file added to the release tree' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(git log -1 --format=%s $tip | sed "s/^Merge //") &&
	evil=$(git commit-tree -p $tip^1 -p $tip^2 -m "Merge $tag" $(tampered_tree $tip)) &&
	git branch evil-tip $evil &&
	verify_fails evil-tip $evil tree &&
	grep "expected tree $(git rev-parse $tag^{tree}) of $(git rev-parse $tag^{commit}) ($tag)," err &&
	test $(failure_count) = 1
'

test_expect_success 'an evil merge in the middle: one file changed deep in the tree' '
	cd tree &&
	victim=$(nth_merge linux-rolling-stable 10) &&
	tag=$(git log -1 --format=%s $victim | sed "s/^Merge //") &&
	tree=$(index_tree $victim drivers/7.c "/* a backdoor */") &&
	evil=$(git commit-tree -p $victim^1 -p $victim^2 -m "Merge $tag" $tree) &&
	git branch evil-middle $(restack $evil $victim linux-rolling-stable) &&
	echo $evil >../evil-middle.commit &&
	verify_fails evil-middle $evil tree &&
	test $(failure_count) = 1 &&
	total=$(git rev-list --count --first-parent --merges linux-rolling-stable) &&
	grep "^evil-middle: $((total - 1)) steps from base v5.19.2 " out
'

test_expect_success 'a third parent that is a plain commit' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(git log -1 --format=%s $tip | sed "s/^Merge //") &&
	sneaky=$(git commit-tree -p v6.1.3^{commit} -m "sneaky" $(tampered_tree v6.1.3)) &&
	octopus=$(git commit-tree -p $tip^1 -p $tip^2 -p $sneaky -m "Merge $tag" $tip^{tree}) &&
	git branch third-parent $octopus &&
	verify_fails third-parent $octopus parents &&
	git tag -l | grep -E "^v[0-9]+\.[0-9]+\.[1-9][0-9]*$" >release-tags &&
	git rev-list third-parent --not $(cat release-tags) >hidden &&
	grep -x $sneaky hidden &&
	grep "found 3 parents: $(git rev-parse $tip^1), $(git rev-parse $tip^2), $sneaky$" err &&
	test $(failure_count) = 1
'

test_expect_success 'a third parent that is a release commit is refused as well' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(git log -1 --format=%s $tip | sed "s/^Merge //") &&
	octopus=$(git commit-tree -p $tip^1 -p $tip^2 -p v6.0.3^{commit} -m "Merge $tag" $tip^{tree}) &&
	git branch third-release $octopus &&
	verify_fails third-release $octopus parents
'

test_expect_success 'a plain commit injected in the middle of the chain' '
	cd tree &&
	below=$(nth_merge linux-rolling-stable 12) &&
	plain=$(git commit-tree -p $below -m "harmless cleanup" $below^{tree}) &&
	git branch injected $(restack $plain $below linux-rolling-stable) &&
	verify_fails injected $plain injected &&
	grep "found plain commit \"harmless cleanup\"$" err &&
	test $(failure_count) = 1
'

test_expect_success 'a plain commit on top of the branch' '
	cd tree &&
	plain=$(git commit-tree -p linux-rolling-stable -m "local fix" \
		$(tampered_tree linux-rolling-stable)) &&
	git branch plain-tip $plain &&
	verify_fails plain-tip $plain injected &&
	grep "^plain-tip: tip is not a rolling merge or a release " out
'

test_expect_success 'a merge whose subject names another version' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(git log -1 --format=%s $tip | sed "s/^Merge //") &&
	previous=$(git log -1 --format=%s $tip^1 | sed "s/^Merge //") &&
	liar=$(git commit-tree -p $tip^1 -p $tip^2 -m "Merge $previous" $tip^{tree}) &&
	git branch wrong-tag $liar &&
	verify_fails wrong-tag $liar tag &&
	grep "expected second parent $(git rev-parse $previous^{commit}) ($previous), found second parent $(git rev-parse $tag^{commit}) ($tag)$" err
'

test_expect_success 'a merge naming a tag that does not exist' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	ghost=$(git commit-tree -p $tip^1 -p $tip^2 -m "Merge v6.1.99" $tip^{tree}) &&
	git branch ghost-tag $ghost &&
	verify_fails ghost-tag $ghost tag &&
	grep "expected release tag v6.1.99, found no such tag" err
'

test_expect_success 'a merge naming something that is not a release tag' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	mainline=$(git commit-tree -p $tip^1 -p v6.1^{commit} -m "Merge v6.1" v6.1^{tree}) &&
	git branch mainline-tag $mainline &&
	verify_fails mainline-tag $mainline subject &&
	grep "found \"Merge v6.1\": not a release tag name$" err &&
	branch=$(git commit-tree -p $tip^1 -p $tip^2 -m "Merge branch linux-6.1.y" $tip^{tree}) &&
	git branch branch-merge $branch &&
	verify_fails branch-merge $branch subject
'

test_expect_success 'a merge with one parent, squashed' '
	cd tree &&
	tip=$(git rev-parse linux-rolling-stable) &&
	tag=$(git log -1 --format=%s $tip | sed "s/^Merge //") &&
	squash=$(git commit-tree -p $tip^1 -m "Merge $tag" $tip^{tree}) &&
	git branch squashed $squash &&
	verify_fails squashed $squash parents &&
	grep "found 1 parent: $(git rev-parse $tip^1)$" err
'

test_expect_success 'a release tag moved to another commit' '
	cd tree &&
	victim=$(nth_merge linux-rolling-stable 15) &&
	tag=$(git log -1 --format=%s $victim | sed "s/^Merge //") &&
	saved=$(git rev-parse refs/tags/$tag) &&
	test_when_finished "git update-ref refs/tags/$tag $saved" &&
	git tag -f -a -m "moved" $tag $victim^2^ &&
	verify_fails linux-rolling-stable $victim tag &&
	test $(failure_count) = 1
'

test_expect_success 'a release tag that was deleted' '
	cd tree &&
	victim=$(nth_merge linux-rolling-stable 5) &&
	tag=$(git log -1 --format=%s $victim | sed "s/^Merge //") &&
	saved=$(git rev-parse refs/tags/$tag) &&
	test_when_finished "git update-ref refs/tags/$tag $saved" &&
	git tag -d $tag &&
	verify_fails linux-rolling-stable $victim tag &&
	grep "found no such tag" err
'

test_expect_success 'a release of an older series merged on top' '
	cd tree &&
	back=$(recipe_merge linux-rolling-stable v6.0.5) &&
	git branch back-series $back &&
	verify_fails back-series $back order &&
	grep "found v6.0.5: the series goes back$" err &&
	test $(failure_count) = 1
'

test_expect_success 'an older release of the same series merged on top' '
	cd tree &&
	back=$(recipe_merge linux-rolling-stable v6.1.3) &&
	git branch back-version $back &&
	verify_fails back-version $back order &&
	grep "found v6.1.3: the version goes back$" err
'

# verify --since checks only the new steps, and fetch relies on it: a
# step back within the series or to an older series is refused there too.
test_expect_success '--since: a step back, in the series or across, is refused' '
	cd tree &&
	verify_fails back-version $(git rev-parse back-version) order \
		--since $(git rev-parse back-version^1) &&
	grep "found v6.1.3: the version goes back$" err &&
	verify_fails back-series $(git rev-parse back-series) order \
		--since $(git rev-parse back-series^1) &&
	grep "found v6.0.5: the series goes back$" err
'

test_expect_success 'a chain whose base is not a release commit' '
	cd tree &&
	root=$(git commit-tree -m "Linux 6.1.3" v6.1.3^{tree}) &&
	merge=$(git commit-tree -p $root -p v6.1.4^{commit} -m "Merge v6.1.4" v6.1.4^{tree}) &&
	git branch no-base $merge &&
	verify_fails no-base $root base &&
	grep "^error: no-base: $root: injected: " err &&
	grep "found root commit $root, not a release commit$" err &&
	grep "^no-base: 1 step, no base release reached$" out
'

test_expect_success 'a base that is a look-alike tag, not a release' '
	cd tree &&
	git branch lookalike v6.1.3 &&
	recipe_branch on-lookalike v6.1.3 v6.1.4 &&
	git tag -a -m "not a release" v6.1.3-test v6.1.3 &&
	base=$(git rev-parse v6.1.3^{commit}) &&
	git rolling verify on-lookalike &&
	git tag -d v6.1.3 &&
	test_when_finished "git tag v6.1.3 $base" &&
	verify_fails on-lookalike $base base &&
	grep "which no release tag here names: if it is the base release, its tag is not in this repository" err
'

test_expect_success 'a rewound ref fails --since' '
	cd tree &&
	old=$(git rev-parse linux-rolling-stable) &&
	git branch rewound linux-rolling-stable~4 &&
	verify_fails rewound $old since --since $old &&
	grep "expected $old on the first-parent chain of $(git rev-parse rewound), found not there" err &&
	git rolling verify rewound
'

test_expect_success 'a rewritten branch fails --since even though it verifies alone' '
	cd tree &&
	old=$(git rev-parse linux-rolling-stable) &&
	rewritten=$(GIT_COMMITTER_NAME=Mallory GIT_COMMITTER_EMAIL=m@example.com \
		restack v5.19.2^{commit} v5.19.2 linux-rolling-stable) &&
	git branch rewritten $rewritten &&
	git rolling verify rewritten &&
	verify_fails rewritten $old since --since $old
'

test_expect_success '--since is any commit of the first-parent chain, and only that' '
	cd tree &&
	plain=$(git rev-parse plain-tip) &&
	merge=$(git commit-tree -p $plain -p v6.1.12^{commit} -m "Merge v6.1.12" v6.1.12^{tree}) &&
	git branch on-plain $merge &&
	git rolling verify --since $plain on-plain &&
	off=$(git rev-parse v6.1.12^{commit}) &&
	verify_fails on-plain $off since --since $off
'

test_expect_success 'every failure is reported, not only the first' '
	cd tree &&
	evil_merge=$(cat ../evil-middle.commit) &&
	plain=$(git commit-tree -p evil-middle -m "more" evil-middle^{tree}) &&
	git branch two-problems $plain &&
	test_expect_code 1 git rolling verify two-problems 2>err &&
	grep "^error: two-problems: $plain: injected: " err &&
	grep "^error: two-problems: $evil_merge: tree: " err &&
	test $(failure_count) = 2
'

test_expect_success 'a branch that is no rolling branch at all stops early' '
	cd tree &&
	test_expect_code 1 git rolling verify master >out 2>err &&
	grep "^error: master: stopped after 100 failures$" err &&
	test $(failure_count) = 101 &&
	grep "^master: FAILED (100 failures, stopped early)$" out
'

test_expect_success '-q still reports the failures' '
	cd tree &&
	test_expect_code 1 git rolling verify -q evil-tip >out 2>err &&
	test_must_be_empty out &&
	grep "^error: evil-tip: $(git rev-parse evil-tip): tree: " err
'

test_expect_success 'with several branches, one failure fails the run' '
	cd tree &&
	test_expect_code 1 git rolling verify linux-rolling-stable evil-tip >out 2>err &&
	grep "^linux-rolling-stable: verified$" out &&
	grep "^evil-tip: FAILED" out
'

test_done
