#!/bin/sh

test_description='describe names a backport that shipped in a series the branch has left

A rolling branch moves on to a newer series while the old one keeps
getting releases.  A fix backported to the old series after the switch
is not on the branch, but "not in <branch> yet" would wrongly suggest
that waiting helps: describe names the release that shipped it, the
first one of that series that holds it.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

test_expect_success 'setup: a series the branch left gets two more releases' '
	rolling_history tree 11 60 &&
	cd tree &&
	git log --first-parent --merges --format=%s linux-rolling-stable |
		sed "s/^Merge v\([0-9]*\.[0-9]*\)\..*/\1/" | uniq >series &&
	test_line_count -gt 1 series &&
	left=$(sed -n 2p series) &&
	newest=$(git tag -l "v$left.*" --sort=-v:refname | head -n 1) &&
	last=${newest##*.} &&
	git rev-list --reverse v6.4..master >mainline-new &&
	up1=$(sed -n 1p mainline-new) &&
	up2=$(sed -n 2p mainline-new) &&
	git checkout -q --detach $newest &&
	bp1=$(printf "drivers: fix one\n\ncommit %s upstream.\n" "$up1" | stable_commit) &&
	stable_release v$left.$((last + 1)) &&
	bp2=$(printf "drivers: fix two\n\n[ Upstream commit %s ]\n" "$up2" | stable_commit) &&
	stable_release v$left.$((last + 2)) &&
	git checkout -q master &&
	git rolling advance -q &&
	! git merge-base --is-ancestor $bp1 linux-rolling-stable &&
	echo "$left $last $up1 $up2 $bp1 $bp2" >../facts
'

test_expect_success 'the first release of the left series that holds the backport is named' '
	cd tree &&
	read left last up1 up2 bp1 bp2 <../facts &&
	test_expect_code 1 git rolling describe "$up1" >actual &&
	echo "not in linux-rolling-stable; backported as $(git rev-parse --short $bp1) in v$left.$((last + 1)), after the branch left the $left series" >expect &&
	test_cmp expect actual &&
	git merge-base --is-ancestor $bp1 v$left.$((last + 1)) &&
	test_expect_code 1 git rolling describe "$up2" >actual &&
	echo "not in linux-rolling-stable; backported as $(git rev-parse --short $bp2) in v$left.$((last + 2)), after the branch left the $left series" >expect &&
	test_cmp expect actual &&
	! git merge-base --is-ancestor $bp2 v$left.$((last + 1))
'

test_expect_success 'a commit backported nowhere is still "not in ... yet"' '
	cd tree &&
	up3=$(sed -n 3p mainline-new) &&
	test_expect_code 1 git rolling describe "$up3" >actual &&
	echo "not in linux-rolling-stable yet" >expect &&
	test_cmp expect actual
'

test_done
