#!/bin/sh

test_description='the merge carries the release commit'"'"'s dates byte for byte, in any time zone

A rolling merge takes its author date from the release commit'"'"'s author
line and its committer date from its committer line.  Releases whose two
dates differ, in half-hour and three-quarter-hour zones east and west
(+0530, -0930, +1245, -0330) and in the zone -0000 (which git itself
reads as +0000 and writes so), are merged by advance exactly as the
maintainers'"'"' git CLI recipe merges them (lib-rolling.sh, recipe_step);
verify --rebuild accepts those merges and rejects each one remade with
one date or zone changed.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# release_with_dates VERSION AUTHOR-DATE COMMITTER-DATE: tag vVERSION on a
# new release commit on top of the branch's newest release, whose author
# and committer lines end with those dates, written as is (git would
# write -0000 as +0000), and advance the branch to it.
release_with_dates () {
	rwd_prev=$(git log -1 --format=%s linux-rolling-stable | sed "s/^Merge //") &&
	rwd_tree=$(index_tree "$rwd_prev^{tree}" "Makefile.v$1" "$1") &&
	printf "tree %s\nparent %s\nauthor Greg KH <gregkh@example.org> %s\ncommitter Greg KH <gregkh@example.org> %s\n\nLinux %s\n" \
		$rwd_tree $(git rev-parse "$rwd_prev^{commit}") "$2" "$3" "$1" |
	git hash-object -t commit -w --stdin >../release.id &&
	git fsck --no-dangling --strict 2>/dev/null >/dev/null &&
	git tag -a -m "Linux $1" "v$1" $(cat ../release.id) &&
	git cat-file commit "v$1" | grep "^author .* $2$" &&
	git cat-file commit "v$1" | grep "^committer .* $3$" &&
	git rev-parse linux-rolling-stable >../before &&
	git rolling advance -q &&
	test "$(git log -1 --format=%s linux-rolling-stable)" = "Merge v$1"
}

# merge_matches_recipe: the last merge is the recipe's, and verify
# --rebuild agrees; its committer and author lines end as git writes the
# release's dates.
merge_matches_recipe () {
	recipe_reproduces $(cat ../before) linux-rolling-stable &&
	git rolling verify --rebuild linux-rolling-stable >out &&
	grep "^linux-rolling-stable: verified, merges rebuilt bit for bit$" out
}

# remade SED: the tip merge with SED applied to its header, stored.
remade () {
	git cat-file commit linux-rolling-stable | sed "1,/^\$/$1" |
	git hash-object -t commit -w --stdin
}

# rebuild_rejects SED: the tip remade with SED passes plain verify and
# fails --rebuild, naming it.
rebuild_rejects () {
	rr_bad=$(remade "$1") &&
	test $rr_bad != $(git rev-parse linux-rolling-stable) &&
	git branch -f mutated $rr_bad &&
	git rolling verify mutated &&
	verify_fails mutated $rr_bad rebuild --rebuild
}

test_expect_success 'setup' '
	verify_fixture tree &&
	cd tree &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	git log -1 --format=%s linux-rolling-stable >../subject &&
	grep "^Merge v6\.1\.13$" ../subject
'

test_expect_success 'author +0530, committer -0930, a day apart' '
	cd tree &&
	release_with_dates 6.1.14 "1700000000 +0530" "1700086400 -0930" &&
	git cat-file commit linux-rolling-stable >merge &&
	grep "^author Rolling Tester <rolling@example.org> 1700000000 +0530$" merge &&
	grep "^committer Rolling Tester <rolling@example.org> 1700086400 -0930$" merge &&
	merge_matches_recipe
'

test_expect_success 'a merge with the zones or the dates swapped fails --rebuild' '
	cd tree &&
	rebuild_rejects "s/^\\(author .*\\) +0530\$/\\1 -0930/" &&
	grep "author date" err &&
	rebuild_rejects "s/^\\(committer .*\\) -0930\$/\\1 -0900/" &&
	grep "committer date" err &&
	rebuild_rejects "s/^\\(committer .*\\) 1700086400 -0930\$/\\1 1700000000 -0930/" &&
	rebuild_rejects "s/^\\(author .*\\) 1700000000 +0530\$/\\1 1700086400 +0530/"
'

test_expect_success 'author +1245, committer -0330, the committer earlier' '
	cd tree &&
	release_with_dates 6.1.15 "1700200000 +1245" "1700100000 -0330" &&
	git cat-file commit linux-rolling-stable >merge &&
	grep "^author Rolling Tester <rolling@example.org> 1700200000 +1245$" merge &&
	grep "^committer Rolling Tester <rolling@example.org> 1700100000 -0330$" merge &&
	merge_matches_recipe &&
	rebuild_rejects "s/^\\(committer .*\\) -0330\$/\\1 +0330/"
'

test_expect_success 'a release dated -0000: the merge says +0000, as git writes it' '
	cd tree &&
	release_with_dates 6.1.16 "1700300000 -0000" "1700300600 -0000" &&
	git log -1 --format="%ad %cd" --date=raw v6.1.16 >dates &&
	echo "1700300000 +0000 1700300600 +0000" >expect &&
	test_cmp expect dates &&
	git cat-file commit linux-rolling-stable >merge &&
	grep "^author Rolling Tester <rolling@example.org> 1700300000 +0000$" merge &&
	grep "^committer Rolling Tester <rolling@example.org> 1700300600 +0000$" merge &&
	merge_matches_recipe &&
	rebuild_rejects "s/^\\(committer .*\\) +0000\$/\\1 -0000/" &&
	grep "committer date" err
'

test_done
