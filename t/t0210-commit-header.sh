#!/bin/sh

test_description='lib/commit-header.c: what a history walk reads of a commit

The walks that count steps and find what contains a commit read the
parents and the committer date from the raw object.  The committer date
is the one git orders by; the author date before it, older or newer,
must not be taken, nor an author whose name holds a ">".
'
. "$(dirname "$0")"/test-lib.sh

header () {
	git cat-file commit "$1" | "$GIT_ROLLING_BUILD_DIR/t/helper/test-rolling" commit-header
}

test_expect_success 'a root commit: no parent, the committer date' '
	test_tick &&
	tree=$(git write-tree) &&
	root=$(GIT_AUTHOR_DATE="1000000000 +0000" GIT_COMMITTER_DATE="1700000000 +0200" \
		git commit-tree -m root $tree) &&
	header $root >actual &&
	echo "time 1700000000" >expect &&
	test_cmp expect actual
'

test_expect_success 'a merge: both parents in order, the committer date, not the older author date' '
	tree=$(git write-tree) &&
	a=$(GIT_COMMITTER_DATE="1700000100 +0000" git commit-tree -m a $tree) &&
	b=$(GIT_COMMITTER_DATE="1700000200 +0000" git commit-tree -m b $tree) &&
	merge=$(GIT_AUTHOR_DATE="1600000000 +0000" GIT_COMMITTER_DATE="1700000300 +0000" \
		git commit-tree -p $a -p $b -m merge $tree) &&
	header $merge >actual &&
	printf "parent %s\nparent %s\ntime 1700000300\n" $a $b >expect &&
	test_cmp expect actual
'

test_expect_success 'an author date newer than the committer date is not taken either' '
	tree=$(git write-tree) &&
	c=$(GIT_AUTHOR_DATE="1800000000 +0000" GIT_COMMITTER_DATE="1700000400 +0000" \
		git commit-tree -m c $tree) &&
	header $c >actual &&
	echo "time 1700000400" >expect &&
	test_cmp expect actual
'

test_expect_success 'a ">" in the author name does not end the committer line early' '
	tree=$(git write-tree) &&
	{
		printf "tree %s\n" $tree &&
		printf "author A <x> U Thor <a@example.com> 1500000000 +0000\n" &&
		printf "committer C O Mitter <c@example.com> 1700000500 +0000\n\nodd\n"
	} >odd.commit &&
	# newer gits check idents on hash-object: --literally, as git fsck would flag it
	odd=$(git hash-object --literally -t commit -w --stdin <odd.commit) &&
	header $odd >actual &&
	echo "time 1700000500" >expect &&
	test_cmp expect actual
'

test_done
