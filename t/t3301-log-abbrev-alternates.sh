#!/bin/sh

test_description='ids are abbreviated as git abbreviates them when the objects are borrowed

With core.abbrev unset, git scales the length of an abbreviated id with
the number of packed objects, counting those of every object directory
it reads: the alternates (absolute and relative paths, one alternate
borrowing from another) and GIT_OBJECT_DIRECTORY.  A clone made with
--shared holds no pack of its own, so git rolling log must count the
packs where the objects are to print the ids git prints.
'
. "$(dirname "$0")"/test-lib.sh

# ids_match DIR: git rolling log in DIR prints each step with the id that
# git rev-parse --short gives for it there (the steps by plain git).
ids_match () {
	git -C "$1" rev-list --first-parent rolling ^v6.0.1~1 >steps &&
	while read commit
	do
		git -C "$1" rev-parse --short $commit || return 1
	done <steps >expect &&
	(cd "$1" && git rolling log rolling) >log &&
	awk "{ print \$3 }" log >actual &&
	test_cmp expect actual
}

test_expect_success 'setup: a rolling branch in a repository of 2^14 packed objects' '
	git init -q -b main origin &&
	(
		cd origin &&
		echo 6.0 >file &&
		git add file &&
		test_tick &&
		git commit -q -m "Linux 6.0" &&
		git tag -a -m "Linux 6.0" v6.0 &&
		git branch stable &&
		echo 6.1-rc1 >file &&
		test_tick &&
		git commit -q -a -m "Linux 6.1-rc1" &&
		git tag -a -m "Linux 6.1-rc1" v6.1-rc1 &&
		git checkout -q stable &&
		echo 6.0.1 >file &&
		test_tick &&
		git commit -q -a -m "Linux 6.0.1" &&
		git tag -a -m "Linux 6.0.1" v6.0.1 &&
		git rolling init -q --preset linux rolling &&
		echo 6.0.2 >file &&
		test_tick &&
		git commit -q -a -m "Linux 6.0.2" &&
		git tag v6.0.2 &&
		git rolling advance -q &&
		# MALLOC_TOP_PAD_: see lib-stable-tree.sh
		awk "BEGIN { for (i = 0; i < 17000; i++) printf \"blob\\ndata <<EOT\\nfiller %d\\nEOT\\n\", i }" |
		MALLOC_TOP_PAD_=4194304 git fast-import --quiet &&
		test $(git rev-parse --short HEAD | wc -c) -eq 9
	) &&
	ids_match origin
'

test_expect_success 'a --shared clone counts the packs of its alternate' '
	git clone -q --shared origin borrower &&
	test -s borrower/.git/objects/info/alternates &&
	test -z "$(ls borrower/.git/objects/pack)" &&
	git -C borrower branch rolling origin/rolling &&
	test $(git -C borrower rev-parse --short rolling | wc -c) -eq 9 &&
	ids_match borrower
'

test_expect_success 'a relative alternate' '
	cp borrower/.git/objects/info/alternates absolute &&
	test_when_finished "cp absolute borrower/.git/objects/info/alternates" &&
	echo "../../../origin/.git/objects" >borrower/.git/objects/info/alternates &&
	test $(git -C borrower rev-parse --short rolling | wc -c) -eq 9 &&
	ids_match borrower
'

# (libgit2 1.5 reads a relative path only in the repository's own
# alternates file, where git reads it at any depth: the chain is absolute.)
test_expect_success 'an alternate of the alternate' '
	git clone -q --shared borrower second &&
	git -C second branch rolling origin/rolling &&
	test $(git -C second rev-parse --short rolling | wc -c) -eq 9 &&
	ids_match second
'

test_expect_success 'GIT_OBJECT_DIRECTORY names where the packs are' '
	cp -R origin elsewhere &&
	mv elsewhere/.git/objects objects-moved &&
	mkdir elsewhere/.git/objects &&
	(
		GIT_OBJECT_DIRECTORY=$TRASH_DIRECTORY/objects-moved &&
		export GIT_OBJECT_DIRECTORY &&
		test $(git -C elsewhere rev-parse --short rolling | wc -c) -eq 9 &&
		ids_match elsewhere
	)
'

test_done
