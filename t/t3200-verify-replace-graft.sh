#!/bin/sh

test_description='verify sees replace refs and grafts exactly as git does

git honours any ref under refs/replace/ whose last path component starts
with an object id (replace-object.c), unless GIT_NO_REPLACE_OBJECTS is
set or core.useReplaceRefs is false, and every well-formed line of the
graft file whatever white space separates the ids (commit.c).  verify
must fail wherever git would show another graph, stay quiet where git
would not, and have git verify-tag check the very tag object it read.
libgit2 1.7 and later read info/grafts and shallow too, strictly: what
they would refuse, every command refuses on every libgit2, naming the
file.  Each oracle asks git itself what it shows.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

test_expect_success 'setup' '
	verify_fixture tree &&
	cd tree &&
	git rolling verify -q linux-rolling-stable &&
	victim=$(nth_merge linux-rolling-stable 8) &&
	tag=$(git log -1 --format=%s $victim | sed "s/^Merge //") &&
	evil=$(git commit-tree -p $victim^1 -p $victim^2 -m "Merge $tag" $(tampered_tree $victim)) &&
	echo "$victim $evil $(git rev-parse $victim^{tree})" >../victim
'

# The merge git shows for $victim, and the one stored.
read_victim () {
	read victim evil stored_tree <../victim
}

test_expect_success 'a replace ref in a sub-directory of refs/replace/' '
	cd tree && read_victim &&
	git update-ref refs/replace/mirror/$victim $evil &&
	test_when_finished "git update-ref -d refs/replace/mirror/$victim" &&
	test "$(git rev-parse $victim^{tree})" = "$(git rev-parse $evil^{tree})" &&
	verify_fails linux-rolling-stable $victim replace &&
	grep "found refs/replace/mirror/$victim makes git read $evil instead$" err
'

test_expect_success 'a replace ref with text after the object id' '
	cd tree && read_victim &&
	git update-ref refs/replace/$victim.orig $evil &&
	test_when_finished "git update-ref -d refs/replace/$victim.orig" &&
	test "$(git rev-parse $victim^{tree})" = "$(git rev-parse $evil^{tree})" &&
	verify_fails linux-rolling-stable $victim replace &&
	grep "found refs/replace/$victim.orig makes git read $evil instead$" err
'

test_expect_success 'a ref git skips as a bad replace ref name is reported all the same' '
	cd tree && read_victim &&
	git update-ref refs/replace/not-an-object-id $evil &&
	test_when_finished "git update-ref -d refs/replace/not-an-object-id" &&
	git cat-file -t $victim 2>git.err &&
	grep "bad replace ref name: not-an-object-id" git.err &&
	verify_fails linux-rolling-stable $evil replace &&
	grep "found refs/replace/not-an-object-id, which git skips today" err
'

test_expect_success 'replace refs turned off: git reads the stored objects, and verify passes' '
	cd tree && read_victim &&
	git replace $victim $evil &&
	test_when_finished "git replace -d $victim" &&
	verify_fails linux-rolling-stable $victim replace &&
	test "$(GIT_NO_REPLACE_OBJECTS=1 git rev-parse $victim^{tree})" = "$stored_tree" &&
	GIT_NO_REPLACE_OBJECTS=1 git rolling verify -q linux-rolling-stable &&
	test "$(git -c core.useReplaceRefs=false rev-parse $victim^{tree})" = "$stored_tree" &&
	git -c core.useReplaceRefs=false rolling verify -q linux-rolling-stable &&
	test_when_finished "git config --unset core.useReplaceRefs" &&
	git config core.useReplaceRefs false &&
	test "$(git rev-parse $victim^{tree})" = "$stored_tree" &&
	git rolling verify --json linux-rolling-stable >out.json &&
	jq -e ".verified and .branches[0].hazards == []" out.json
'

test_expect_success 'advance warns about a replace ref under any name' '
	cd tree && read_victim &&
	git update-ref refs/replace/mirror/$victim.x $evil &&
	test_when_finished "git update-ref -d refs/replace/mirror/$victim.x" &&
	git rolling advance -q 2>err &&
	grep "^warning: refs/replace/ is not empty" err &&
	GIT_NO_REPLACE_OBJECTS=1 git rolling advance -q 2>err &&
	test_must_be_empty err
'

test_expect_success 'setup: an SSH key the repository trusts' '
	if ssh-keygen -q -t ed25519 -N "" -C stable -f stable.key >/dev/null 2>&1 &&
	   echo "data" | ssh-keygen -Y sign -n git -f stable.key >/dev/null 2>&1
	then
		test_set_prereq SSH_SIGN
	fi &&
	echo "stable@example.org $(cat stable.key.pub)" >allowed-signers &&
	git -C tree config gpg.format ssh &&
	git -C tree config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/allowed-signers"
'

test_expect_success SSH_SIGN 'a forged release whose tag object is replaced by a genuinely signed one' '
	cd tree &&
	old_tip=$(git rev-parse linux-rolling-stable) &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $old_tip" &&
	test_when_finished "git tag -d v6.1.50 genuine >/dev/null" &&
	release=$(git rev-parse linux-rolling-stable^2) &&
	evil_release=$(git commit-tree -p $release -m "Linux 6.1.50" $(tampered_tree $release)) &&
	echo "unrelated data" >other &&
	ssh-keygen -q -Y sign -n git -f ../stable.key other &&
	{
		printf "object %s\ntype commit\ntag v6.1.50\n" $evil_release &&
		printf "tagger Greg KH <gregkh@example.org> 1700000000 +0000\n\nLinux 6.1.50\n" &&
		cat other.sig
	} >forged.tag &&
	forged=$(git hash-object -t tag -w forged.tag) &&
	git update-ref refs/tags/v6.1.50 $forged &&
	git -c user.signingkey="$TRASH_DIRECTORY/stable.key" tag -s -m "Linux 6.1.13" genuine \
		$release &&
	genuine=$(git rev-parse refs/tags/genuine) &&
	git update-ref refs/heads/linux-rolling-stable $(recipe_merge $old_tip v6.1.50) &&
	git update-ref refs/replace/keep/$forged $genuine &&
	test_when_finished "git update-ref -d refs/replace/keep/$forged" &&
	git verify-tag v6.1.50 2>/dev/null &&
	test_must_fail git --no-replace-objects verify-tag v6.1.50 2>/dev/null &&
	test_expect_code 1 git rolling verify --signatures --rebuild --since $old_tip \
		linux-rolling-stable >out 2>err &&
	grep "^error: linux-rolling-stable: $forged: replace: .*found refs/replace/keep/$forged makes git read $genuine instead$" err &&
	grep "^error: linux-rolling-stable: .*: signature: .*found v6.1.50: bad signature$" err
'

# libgit2 never reads $GIT_GRAFT_FILE, so git's own rules for a graft
# line are tried there: info/grafts must hold only what libgit2 1.7 and
# later read as well (see the tests that follow).
test_expect_success 'a graft separated by a tab, with trailing blanks' '
	cd tree && read_victim &&
	grandparent=$(git rev-parse $victim^1^1) &&
	printf "%s\t%s \r\n" $victim $grandparent >../tab-grafts &&
	(
		GIT_GRAFT_FILE=$TRASH_DIRECTORY/tab-grafts &&
		export GIT_GRAFT_FILE &&
		test "$(git rev-parse $victim^1 2>/dev/null)" = "$grandparent" &&
		verify_fails linux-rolling-stable $victim graft
	)
'

test_expect_success 'graft lines git ignores are no hazard' '
	cd tree && read_victim &&
	parent=$(git rev-parse $victim^1) &&
	grandparent=$(git rev-parse $victim^1^1) &&
	{
		echo "# $victim $grandparent" &&
		echo &&
		echo " $victim $grandparent" &&
		echo "$victim $grandparent junk" &&
		echo "$victim  $grandparent"
	} >../ignored-grafts &&
	(
		GIT_GRAFT_FILE=$TRASH_DIRECTORY/ignored-grafts &&
		export GIT_GRAFT_FILE &&
		test "$(git rev-parse $victim^1 2>git.err)" = "$parent" &&
		test $(grep -c "bad graft data" git.err) = 3 &&
		git rolling verify --json linux-rolling-stable >out.json
	) &&
	jq -e ".verified and .branches[0].hazards == []" out.json
'

# libgit2 1.7 and later read info/grafts and shallow themselves and
# refuse to open a repository where a line is anything but object ids
# separated by single spaces; every command says which file and line,
# whatever libgit2 it runs on, and changes nothing.
# refused FILE LINE: verify, status and advance refuse, naming LINE of FILE.
refused () {
	rf_file=$(git rev-parse --path-format=absolute --git-dir)/$1 &&
	for rf_cmd in "verify linux-rolling-stable" status advance
	do
		test_expect_code 128 git rolling $rf_cmd >out 2>err &&
		test_must_be_empty out &&
		grep "^fatal: $rf_file, line $2: not object ids separated by single spaces" err ||
		return 1
	done
}

test_expect_success 'an info/grafts libgit2 cannot read is refused on every release' '
	cd tree && read_victim &&
	grandparent=$(git rev-parse $victim^1^1) &&
	test_when_finished "rm -f .git/info/grafts" &&
	printf "%s\t%s\n" $victim $grandparent >.git/info/grafts &&
	test "$(git rev-parse $victim^1 2>/dev/null)" = "$grandparent" &&
	refused info/grafts 1 &&
	grep "git replace --convert-graft-file$" err &&
	printf "%s %s\r\n" $victim $grandparent >.git/info/grafts &&
	test "$(git rev-parse $victim^1 2>/dev/null)" = "$grandparent" &&
	refused info/grafts 1 &&
	printf "%s %s\n\n" $victim $grandparent >.git/info/grafts &&
	refused info/grafts 2 &&
	printf "# a comment\n%s %s\n" $victim $grandparent >.git/info/grafts &&
	test "$(git rev-parse $victim^1 2>/dev/null)" = "$grandparent" &&
	refused info/grafts 1 &&
	printf "%s %s\n" $victim $grandparent >.git/info/grafts &&
	verify_fails linux-rolling-stable $victim graft
'

test_expect_success 'a shallow file libgit2 cannot read is refused on every release' '
	cd tree &&
	root=$(git rev-list --max-parents=0 HEAD | head -n 1) &&
	test_when_finished "rm -f .git/shallow" &&
	printf "%s\r\n" $root >.git/shallow &&
	test "$(git rev-parse --is-shallow-repository)" = true &&
	git log -1 --format=%H $root >/dev/null &&
	refused shallow 1 &&
	! grep "convert-graft-file" err
'

test_expect_success 'the graft file named by GIT_GRAFT_FILE' '
	cd tree && read_victim &&
	grandparent=$(git rev-parse $victim^1^1) &&
	echo "$victim $grandparent" >../other-grafts &&
	test "$(GIT_GRAFT_FILE=../other-grafts git rev-parse $victim^1 2>/dev/null)" = "$grandparent" &&
	(
		GIT_GRAFT_FILE=$TRASH_DIRECTORY/other-grafts &&
		export GIT_GRAFT_FILE &&
		verify_fails linux-rolling-stable $victim graft
	)
'

test_done
