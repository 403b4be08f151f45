#!/bin/sh

test_description='release tags with names of any length, end to end

A project may name its releases under a long hierarchy that a custom
--release-pattern matches.  Here every release tag name is over 600
bytes (three 200-byte components, each within what a file system takes
for a loose ref), longer than any fixed buffer the reports were ever
built in: the rolling merges made by init and advance name them in
full, verify --rebuild finds the recipe'\''s bytes, and every failure
verify reports names the release in full, as plain git spells it.
The releases are tagged annotated, lightweight and signed.
'
. "$(dirname "$0")"/test-lib.sh

LONG=$(printf "%0200d" 0 | tr 0 a)/$(printf "%0200d" 0 | tr 0 b)/$(printf "%0200d" 0 | tr 0 c)
RELEASE='[a-c/]+/v(?<major>[0-9]+)\.(?<minor>[0-9]+)\.(?<patch>[0-9]+)'
MAINLINE='[a-c/]+/v(?<major>[0-9]+)\.(?<minor>[0-9]+)(?:-rc(?<rc>[0-9]+))?'

# rolling CMD ARGS...: git rolling CMD with the long-name patterns.
rolling () {
	rl_cmd=$1 &&
	shift &&
	git rolling "$rl_cmd" --release-pattern "$RELEASE" --mainline-pattern "$MAINLINE" "$@"
}

# release N [ARGS]: commit the next stable release on "stable" and tag
# it $LONG/v1.0.N with the tag options ARGS (none: a lightweight tag).
release () {
	rel_n=$1 &&
	shift &&
	git checkout -q stable &&
	echo "fix $rel_n" >>fixes &&
	git add fixes &&
	test_tick &&
	git commit -q -m "stable fix $rel_n" &&
	git tag "$@" "$LONG/v1.0.$rel_n" &&
	git checkout -q main
}

# verify_says REV CHECK COMMIT EXPECTED FOUND: verify REV fails with
# exactly this failure among others (the text report's line).
verify_says () {
	printf "error: %s: %s: %s: expected %s, found %s\n" "$1" "$3" "$2" "$4" "$5" >expect.line &&
	test_expect_code 1 rolling verify $VERIFY_OPTIONS "$1" >out 2>err &&
	grep -F -x -f expect.line err >actual.line ||
	{ echo "no such line in:"; cat err; return 1; }
	test_cmp expect.line actual.line
}

test_expect_success 'setup: releases with 600-byte names, followed by init and advance' '
	test ${#LONG} = 602 &&
	git init -q -b main repo &&
	cd repo &&
	git config user.name "Stable Maintainer" &&
	git config user.email stable@example.org &&
	echo base >file &&
	git add file &&
	test_tick &&
	git commit -q -m "release 1.0" &&
	git tag -a -m "1.0" "$LONG/v1.0" &&
	git branch stable &&
	echo next >file &&
	test_tick &&
	git commit -q -a -m "merge window" &&
	git tag -a -m "1.1-rc1" "$LONG/v1.1-rc1" &&
	release 1 -a -m "1.0.1 annotated" &&
	rolling init -q rolling &&
	test "$(git rev-parse rolling)" = "$(git rev-parse "$LONG/v1.0.1^{commit}")" &&
	release 2 &&
	git rolling advance -q &&
	release 3 -a -m "1.0.3 annotated" &&
	git rolling advance -q &&
	git log --first-parent --format=%s rolling >subjects &&
	printf "Merge %s\n" "$LONG/v1.0.3" "$LONG/v1.0.2" >expect &&
	printf "%s\n" "stable fix 1" "release 1.0" >>expect &&
	test_cmp expect subjects
'

test_expect_success 'a signed release with a long name is embedded as git embeds it' '
	cd repo &&
	if ssh-keygen -q -t ed25519 -N "" -C stable -f ../stable.key >/dev/null 2>&1 &&
	   echo "stable@example.org $(cat ../stable.key.pub)" >../allowed-signers &&
	   git config gpg.format ssh &&
	   git config gpg.ssh.allowedSignersFile "$TRASH_DIRECTORY/allowed-signers" &&
	   git config user.signingKey "$TRASH_DIRECTORY/stable.key" &&
	   release 4 -s -m "1.0.4 signed" 2>/dev/null &&
	   git verify-tag "$LONG/v1.0.4" 2>/dev/null
	then
		git rolling advance -q &&
		git cat-file commit rolling >merge &&
		grep "^ tag $LONG/v1.0.4\$" merge &&
		test "$(git log -1 --format=%s rolling)" = "Merge $LONG/v1.0.4" &&
		test_set_prereq SIGNED
	fi
'

test_expect_success 'the chain verifies, and so do the bytes of every merge' '
	cd repo &&
	rolling verify rolling >out &&
	grep -F -x "rolling: verified" out &&
	rolling verify --rebuild rolling >out &&
	grep -F -x "rolling: verified, merges rebuilt bit for bit" out
'

# The reflog message was once formatted into 256 bytes and cut at 255.
test_expect_success 'init and advance name the release in full in the reflog' '
	cd repo &&
	git reflog --format=%gs rolling >reflog &&
	grep -F -x "rolling: merge $LONG/v1.0.3" reflog &&
	grep -F -x "rolling: merge $LONG/v1.0.2" reflog &&
	grep -F -x "rolling: created at $LONG/v1.0.1" reflog
'

test_expect_success '--signatures names each unsigned release in full' '
	cd repo &&
	base=$(git rev-parse "$LONG/v1.0.1^{commit}") &&
	two=$(git log --first-parent --format="%H %s" rolling |
		sed -n "s| Merge $LONG/v1.0.2\$||p") &&
	VERIFY_OPTIONS=--signatures &&
	verify_says rolling signature $base \
		"a good signature on tag $LONG/v1.0.1 (see git verify-tag $LONG/v1.0.1)" \
		"$LONG/v1.0.1: unsigned tag" &&
	verify_says rolling signature $two \
		"a good signature on tag $LONG/v1.0.2 (see git verify-tag $LONG/v1.0.2)" \
		"$LONG/v1.0.2: lightweight tag" &&
	if test_have_prereq SIGNED
	then
		! grep -F "$LONG/v1.0.4" err
	fi
'

test_expect_success 'a merge with another tree names its release in full' '
	cd repo &&
	echo evil >>file &&
	git add file &&
	tree=$(git write-tree) &&
	git reset -q --hard &&
	three=$(git rev-parse "$LONG/v1.0.3^{commit}") &&
	bad=$(echo "Merge $LONG/v1.0.3" | git commit-tree -p rolling -p $three $tree) &&
	git branch bad-tree $bad &&
	VERIFY_OPTIONS= &&
	verify_says bad-tree tree $bad \
		"tree $(git rev-parse $three^{tree}) of $three ($LONG/v1.0.3)" "tree $tree"
'

test_expect_success 'a merge of another release than its subject names, in full' '
	cd repo &&
	two=$(git rev-parse "$LONG/v1.0.2^{commit}") &&
	three=$(git rev-parse "$LONG/v1.0.3^{commit}") &&
	bad=$(echo "Merge $LONG/v1.0.3" | git commit-tree -p rolling -p $two $two^{tree}) &&
	git branch bad-parent $bad &&
	VERIFY_OPTIONS= &&
	verify_says bad-parent tag $bad \
		"second parent $three ($LONG/v1.0.3)" "second parent $two ($LONG/v1.0.2)"
'

test_expect_success 'a merge naming a release there is no tag for, in full' '
	cd repo &&
	two=$(git rev-parse "$LONG/v1.0.2^{commit}") &&
	bad=$(echo "Merge $LONG/v1.0.9" | git commit-tree -p rolling -p $two $two^{tree}) &&
	git branch no-tag $bad &&
	VERIFY_OPTIONS= &&
	verify_says no-tag tag $bad "release tag $LONG/v1.0.9" "no such tag leading to a commit"
'

test_expect_success 'a release that goes back is named in full, with the newer one' '
	cd repo &&
	two=$(git rev-parse "$LONG/v1.0.2^{commit}") &&
	newest=$(git log -1 --format=%s rolling | sed "s/^Merge //") &&
	back=$(printf "Merge %s\n\nSigned-off-by: Stable Maintainer <stable@example.org>\n" \
		"$LONG/v1.0.2" | git commit-tree -p rolling -p $two $two^{tree}) &&
	git branch back $back &&
	VERIFY_OPTIONS= &&
	verify_says back order $back "$newest or a later release" \
		"$LONG/v1.0.2: the version goes back"
'

test_expect_success 'a tag object published under a longer name says both names in full' '
	cd repo &&
	three=$(git rev-parse "$LONG/v1.0.3^{commit}") &&
	printf "object %s\ntype commit\ntag %s\ntagger T <t@example.org> 1112912000 +0000\n\n1.0.5\n" \
		$three "$LONG/v1.0.3" >tag.txt &&
	tag=$(git mktag <tag.txt) &&
	git update-ref "refs/tags/$LONG/v1.0.5" $tag &&
	test_when_finished "git update-ref -d \"refs/tags/$LONG/v1.0.5\"" &&
	bad=$(printf "Merge %s\n" "$LONG/v1.0.5" |
		git commit-tree -p rolling -p $three $three^{tree}) &&
	git branch renamed $bad &&
	VERIFY_OPTIONS= &&
	verify_says renamed tag $bad "release tag $LONG/v1.0.5, as its objects say" \
		"$LONG/v1.0.5: its tag object $tag is the tag '\''$LONG/v1.0.3'\'', published under another name"
'

test_expect_success 'a merge embedding another tag object of its release names the ref in full' '
	cd repo &&
	three=$(git rev-parse "$LONG/v1.0.3^{commit}") &&
	printf "object %s\ntype commit\ntag %s\ntagger T <t@example.org> 1112912000 +0000\n\nnot the one\n" \
		$three "$LONG/v1.0.3" >other.txt &&
	other=$(git mktag <other.txt) &&
	{
		printf "tree %s\nparent %s\nparent %s\n" $(git rev-parse $three^{tree}) \
			$(git rev-parse rolling) $three &&
		git cat-file commit rolling | sed -n "/^author /p; /^committer /p" &&
		git cat-file tag $other | sed "1s/^/mergetag /; 2,\$s/^/ /" &&
		printf "\nMerge %s\n" "$LONG/v1.0.3"
	} >merge.txt &&
	bad=$(git hash-object -t commit -w merge.txt) &&
	git branch other-tag $bad &&
	VERIFY_OPTIONS= &&
	verify_says other-tag mergetag $bad \
		"tag object $(git rev-parse "refs/tags/$LONG/v1.0.3") (refs/tags/$LONG/v1.0.3)" \
		"another tag object $other"
'

test_expect_success '--since off the chain names the base release in full' '
	cd repo &&
	since=$(git rev-parse main) &&
	base=$(git rev-parse "$LONG/v1.0.1^{commit}") &&
	VERIFY_OPTIONS="--since $since" &&
	verify_says rolling since $since "$since on the first-parent chain of $(git rev-parse rolling)" \
		"not there: the chain ends at $base ($LONG/v1.0.1) without it; the branch was rewound or rewritten"
'

test_expect_success '--rebuild names a long author in full' '
	cd repo &&
	author=$(printf "%0600d" 0 | tr 0 A) &&
	two=$(git rev-parse "$LONG/v1.0.2^{commit}") &&
	three=$(git rev-parse "$LONG/v1.0.3^{commit}") &&
	printf "Merge %s\n" "$LONG/v1.0.3" >message &&
	bad=$(GIT_AUTHOR_NAME=$author GIT_AUTHOR_EMAIL=a@example.org \
		git commit-tree -p $two -p $three $three^{tree} <message) &&
	rebuilt=$(
		GIT_AUTHOR_DATE=$(git log -1 --format=%ad --date=raw $three) &&
		GIT_COMMITTER_DATE=$(git log -1 --format=%cd --date=raw $three) &&
		export GIT_AUTHOR_DATE GIT_COMMITTER_DATE &&
		git commit-tree -p $two -p $three $three^{tree} <message
	) &&
	git branch long-author $bad &&
	VERIFY_OPTIONS=--rebuild &&
	verify_says long-author rebuild $bad $rebuilt \
		"$bad (author '\''$author <a@example.org>'\'' is not the committer '\''Stable Maintainer <stable@example.org>'\'')"
'

test_done
