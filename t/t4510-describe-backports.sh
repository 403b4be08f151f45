#!/bin/sh

test_description='describe: a backport under another id is not the same commit

Stable backports are new commits that name their upstream commit
("commit <sha> upstream.", "[ Upstream commit <sha> ]", "(cherry picked
from commit <sha>)").  When only a backport reached the rolling branch,
describe must say so, name the backport and the release that shipped it,
and still answer "not in" (exit 1); it searches only what the rolling
steps brought in.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

test_expect_success 'setup: backports in two new 6.4 releases' '
	rolling_history tree 11 60 &&
	cd tree &&
	git rev-list --reverse v6.4..master >mainline-new &&
	test_line_count -gt 10 mainline-new &&
	for n in 1 2 3 4 5 6 7
	do
		eval "up$n=\$(sed -n ${n}p mainline-new)" || return 1
	done &&
	git checkout -q --detach v6.4.6 &&
	bp1=$(printf "drivers: fix one\n\ncommit %s upstream.\n\nSigned-off-by: Greg KH <gregkh@example.org>\n" "$up1" | stable_commit) &&
	bp2=$(printf "drivers: fix two\n\n[ Upstream commit %s ]\n\nAdapted to 6.4.\n" "$up2" | stable_commit) &&
	bp3=$(printf "drivers: fix three\n\n(cherry picked from commit %s)\n" "$up3" | stable_commit) &&
	printf "drivers: fix four\n\nFixes: %s (\"drivers: something\")\n" "$(echo "$up4" | cut -c1-12)" |
		stable_commit >/dev/null &&
	bp5=$(printf "drivers: fix five\n\ncommit %s upstream.\n" "$(echo "$up5" | cut -c1-12)" | stable_commit) &&
	stable_release v6.4.7 &&
	bp1again=$(printf "drivers: fix one, again\n\ncommit %s upstream.\n" "$up1" | stable_commit) &&
	printf "drivers: fix six\n\ncommit %s upstream.\n" "$(echo "$up6" | cut -c1-8)" | stable_commit >/dev/null &&
	stable_release v6.4.8 &&
	git checkout -q -b unmerged v6.4.8 &&
	printf "drivers: fix seven\n\ncommit %s upstream.\n" "$up7" | stable_commit >/dev/null &&
	git checkout -q master &&
	git rolling advance -q &&
	git rolling bisect-helper steps v6.4.6 >steps &&
	test_line_count = 1 steps &&
	grep " v6.4.8 6.4$" steps &&
	for v in bp1 bp2 bp3 bp5 bp1again
	do
		eval "echo \$$v" || return 1
	done >backports &&
	test_line_count = 5 backports
'

# merge_of TAG: "merge <abbrev>, <date>" of the merge of TAG on the branch.
merge_of () {
	mo=$(git rev-list --first-parent linux-rolling-stable --grep="^Merge $1$") &&
	echo "merge $(git rev-parse --short "$mo"), $(git log -1 --format=%cd --date=short "$mo")"
}

test_expect_success '"commit <sha> upstream."' '
	cd tree &&
	test_expect_code 1 git rolling describe "$up1" >actual &&
	echo "not in linux-rolling-stable; backported as $(git rev-parse --short "$bp1") in v6.4.8 ($(merge_of v6.4.8))" >expect &&
	test_cmp expect actual
'

test_expect_success '"[ Upstream commit <sha> ]"' '
	cd tree &&
	test_expect_code 1 git rolling describe "$up2" >actual &&
	echo "not in linux-rolling-stable; backported as $(git rev-parse --short "$bp2") in v6.4.8 ($(merge_of v6.4.8))" >expect &&
	test_cmp expect actual
'

test_expect_success '"(cherry picked from commit <sha>)"' '
	cd tree &&
	test_expect_code 1 git rolling describe "$up3" >actual &&
	grep "^not in linux-rolling-stable; backported as $(git rev-parse --short "$bp3") in v6.4.8 " actual
'

test_expect_success 'an abbreviated id of 12 digits counts, 8 digits do not' '
	cd tree &&
	test_expect_code 1 git rolling describe "$up5" >actual &&
	grep "backported as $(git rev-parse --short "$bp5") in v6.4.8 " actual &&
	test_expect_code 1 git rolling describe "$up6" >actual &&
	echo "not in linux-rolling-stable yet" >expect &&
	test_cmp expect actual
'

test_expect_success 'a mere mention is not a backport' '
	cd tree &&
	test_expect_code 1 git rolling describe "$up4" >actual &&
	echo "not in linux-rolling-stable yet" >expect &&
	test_cmp expect actual
'

test_expect_success 'a backport on a branch the rolling branch never merged does not count' '
	cd tree &&
	git log -1 --format=%B unmerged | grep "^commit $up7 upstream.$" &&
	test_expect_code 1 git rolling describe "$up7" >actual &&
	echo "not in linux-rolling-stable yet" >expect &&
	test_cmp expect actual
'

test_expect_success '--no-backports answers about the commit alone' '
	cd tree &&
	test_expect_code 1 git rolling describe --no-backports "$up1" >actual &&
	echo "not in linux-rolling-stable yet" >expect &&
	test_cmp expect actual
'

test_expect_success 'the backports themselves are on the branch' '
	cd tree &&
	git rolling describe "$bp1" "$bp1again" >actual &&
	grep "^$bp1: first in linux-rolling-stable at v6.4.8 ($(merge_of v6.4.8))$" actual &&
	grep "^$bp1again: first in linux-rolling-stable at v6.4.8 " actual
'

test_expect_success 'once the upstream commit arrives itself, that is the answer' '
	cd tree &&
	git for-each-ref --format="%(refname)" refs/tags >tags &&
	awk "FILENAME == ARGV[1] { have[\$1] = 1; next }
	     !((\"refs/tags/\" \$2) in have) { print \"create refs/tags/\" \$2, \$3 }" \
		tags .git/stable-timeline >more-tags &&
	test_line_count -gt 0 more-tags &&
	git update-ref --stdin <more-tags &&
	git rolling advance -q &&
	git rolling describe "$up1" >actual &&
	release=$(git log -1 --format=%s linux-rolling-stable | sed "s/^Merge //") &&
	echo "first in linux-rolling-stable at $release ($(merge_of "$release"))" >expect &&
	test_cmp expect actual &&
	git merge-base --is-ancestor "$up1" "$release" &&
	! git merge-base --is-ancestor "$up1" linux-rolling-stable^
'

test_done
