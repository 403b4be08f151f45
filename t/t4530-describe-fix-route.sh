#!/bin/sh

test_description='describe: never for a commit of a left series, and the route a fix took

A rolling branch left a series (L) for a newer one (T).  A fix written
on mainline is backported into L after the branch left it, with
"(cherry picked from commit ...)", and into T, where the branch gets
it, by a plain cherry-pick that names nothing (only its patch-id ties
it to the fix); a second fix reaches T as a backport that names its
upstream.  An older, unrelated backport in T has the very subject of
the first fix and another change.

describe of the copy in L answers "never": the branch left L at its
last release there and will not go back; and it names the step where
the branch got the fix, not the decoy.  describe of the mainline commit
names the same step.  A commit of L with no copy anywhere is "never" and
no more.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

# merge_of TAG: "merge <abbrev>, <date>" of the merge of TAG on the branch.
merge_of () {
	mo=$(git rev-list --first-parent linux-rolling-stable --grep="^Merge $1$") &&
	echo "merge $(git rev-parse --short "$mo"), $(git log -1 --format=%cd --date=short "$mo")"
}

test_expect_success 'setup: fixes backported into a left series and the followed one' '
	rolling_history tree 11 60 &&
	cd tree &&
	git log --first-parent --merges --format=%s linux-rolling-stable |
		sed "s/^Merge v\([0-9]*\.[0-9]*\)\..*/\1/" | uniq >series &&
	tip=$(sed -n 1p series) &&
	left=$(sed -n 2p series) &&
	left_at=$(git log --first-parent --merges --format=%s linux-rolling-stable |
		sed -n "s/^Merge \(v$left\.[0-9]*\)$/\1/p" | head -n 1) &&
	lnew=$(git tag -l "v$left.*" --sort=-v:refname | head -n 1) &&
	tnew=$(git tag -l "v$tip.*" --sort=-v:refname | head -n 1) &&
	test "$(git log -1 --format=%s linux-rolling-stable)" = "Merge $tnew" &&

	git checkout -q master &&
	fix1=$(echo "drivers: fix the frobnicator" | stable_commit frob.c) &&
	fix2=$(echo "drivers: fix the widget" | stable_commit widget.c) &&
	git merge-base --is-ancestor $fix1 master &&

	git checkout -q --detach $tnew &&
	decoy=$(echo "drivers: fix the frobnicator" | stable_commit other.c) &&
	stable_release v$tip.$((${tnew##*.} + 1)) &&
	git checkout -q master && git rolling advance -q && git checkout -q --detach v$tip.$((${tnew##*.} + 1)) &&
	copy_t=$(stable_pick $fix1) &&
	copy2_t=$(printf "drivers: fix the widget\n\ncommit %s upstream.\n\nAdapted to %s.\n" $fix2 $tip |
		stable_commit widget.c) &&
	stable_release v$tip.$((${tnew##*.} + 2)) &&

	git checkout -q --detach $lnew &&
	copy_l=$(stable_pick $fix1 -x) &&
	copy2_l=$(stable_pick $fix2 -x) &&
	only_l=$(echo "drivers: a fix only $left needs" | stable_commit only-l.c) &&
	stable_release v$left.$((${lnew##*.} + 1)) &&

	git checkout -q master &&
	git rolling advance -q &&
	git log --first-parent --merges --format=%s linux-rolling-stable >merges &&
	test "$(sed -n 1p merges)" = "Merge v$tip.$((${tnew##*.} + 2))" &&
	test "$(sed -n 2p merges)" = "Merge v$tip.$((${tnew##*.} + 1))" &&
	git merge-base --is-ancestor $decoy linux-rolling-stable^ &&
	! git merge-base --is-ancestor $copy_l linux-rolling-stable &&
	test "$(git cat-file -p $copy_t | grep -c "cherry picked")" = 0 &&
	git cat-file -p $copy_l | grep "cherry picked from commit $fix1" &&
	test "$(git show $copy_t | git patch-id --stable | cut -d" " -f1)" = \
		"$(git show $fix1 | git patch-id --stable | cut -d" " -f1)" &&
	test "$(git show $decoy | git patch-id --stable | cut -d" " -f1)" != \
		"$(git show $fix1 | git patch-id --stable | cut -d" " -f1)" &&
	echo "$tip $left $left_at $tnew $fix1 $fix2 $decoy $copy_t $copy2_t $copy_l $copy2_l $only_l" >../facts
'

test_expect_success 'a commit a left series got after the branch left it: never' '
	cd tree &&
	read tip left left_at tnew fix1 fix2 decoy copy_t copy2_t copy_l copy2_l only_l <../facts &&
	test_expect_code 1 git rolling describe $only_l >actual &&
	echo "never in linux-rolling-stable: the branch left $left at $left_at" >expect &&
	test_cmp expect actual &&
	rel=$(git tag --points-at v$left.$((${left_at##*.} + 1))^{commit} 2>/dev/null) &&
	newest=$(git tag -l "v$left.*" --sort=-v:refname | head -n 1) &&
	test_expect_code 1 git rolling describe $newest >actual &&
	test_cmp expect actual
'

test_expect_success 'its copy of a fix the branch got by a plain cherry-pick: that step, not the decoy' '
	cd tree &&
	read tip left left_at tnew fix1 fix2 decoy copy_t copy2_t copy_l copy2_l only_l <../facts &&
	step=v$tip.$((${tnew##*.} + 2)) &&
	test_expect_code 1 git rolling describe $copy_l >actual &&
	echo "never in linux-rolling-stable: the branch left $left at $left_at; the fix reached it as $(git rev-parse --short $copy_t) in $step ($(merge_of $step))" >expect &&
	test_cmp expect actual
'

test_expect_success 'its copy of a fix the branch got as a backport naming its upstream' '
	cd tree &&
	read tip left left_at tnew fix1 fix2 decoy copy_t copy2_t copy_l copy2_l only_l <../facts &&
	step=v$tip.$((${tnew##*.} + 2)) &&
	test_expect_code 1 git rolling describe $copy2_l >actual &&
	echo "never in linux-rolling-stable: the branch left $left at $left_at; the fix reached it as $(git rev-parse --short $copy2_t) in $step ($(merge_of $step))" >expect &&
	test_cmp expect actual
'

test_expect_success 'the mainline fix: the step that brought its copy, not the decoy, not the left series' '
	cd tree &&
	read tip left left_at tnew fix1 fix2 decoy copy_t copy2_t copy_l copy2_l only_l <../facts &&
	step=v$tip.$((${tnew##*.} + 2)) &&
	test_expect_code 1 git rolling describe $fix1 $fix2 >actual &&
	cat >expect <<-EOF &&
	$fix1: not in linux-rolling-stable; backported as $(git rev-parse --short $copy_t) in $step ($(merge_of $step))
	$fix2: not in linux-rolling-stable; backported as $(git rev-parse --short $copy2_t) in $step ($(merge_of $step))
	EOF
	test_cmp expect actual
'

test_expect_success 'the decoy itself is on the branch, one step earlier' '
	cd tree &&
	read tip left left_at tnew fix1 fix2 decoy copy_t copy2_t copy_l copy2_l only_l <../facts &&
	step=v$tip.$((${tnew##*.} + 1)) &&
	git rolling describe $decoy >actual &&
	echo "first in linux-rolling-stable at $step ($(merge_of $step))" >expect &&
	test_cmp expect actual
'

test_expect_success 'a copy whose upstream commit the branch holds: that commit'"'"'s step' '
	cd tree &&
	read tip left left_at tnew fix1 fix2 decoy copy_t copy2_t copy_l copy2_l only_l <../facts &&
	upstream=$(git rev-parse "v$tip^{commit}~2") &&
	git merge-base --is-ancestor $upstream linux-rolling-stable &&
	git rolling describe $upstream >first &&
	step=$(sed -n "s/^first in linux-rolling-stable at //p" first) &&
	test -n "$step" &&
	git checkout -q --detach v$left &&
	elsewhere=$(printf "drivers: an old fix\n\ncommit %s upstream.\n" $upstream |
		stable_commit elsewhere.c) &&
	git checkout -q master &&
	test_expect_code 1 git rolling describe $elsewhere >actual &&
	echo "not in linux-rolling-stable; the fix reached it as $(git rev-parse --short $upstream) in $step" >expect &&
	test_cmp expect actual
'

test_expect_success '--no-backports: never, without the route' '
	cd tree &&
	read tip left left_at tnew fix1 fix2 decoy copy_t copy2_t copy_l copy2_l only_l <../facts &&
	test_expect_code 1 git rolling describe --no-backports $copy_l >actual &&
	echo "never in linux-rolling-stable: the branch left $left at $left_at" >expect &&
	test_cmp expect actual &&
	test_expect_code 1 git rolling describe -q $copy_l >actual &&
	test_must_be_empty actual
'

test_done
