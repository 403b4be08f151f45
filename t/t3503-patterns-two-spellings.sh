#!/bin/sh

test_description='a custom pattern that spells one version two ways (1.2.3 and v1.2.3)

With a release pattern "v?X.Y.Z", the tags 1.2.3 and v1.2.3 are one
version.  Every command keeps the first by name (1.2.3, as sort puts it)
and warns, once per tag, that the other names the same version; advance
merges the kept tag'"'"'s commit even when the other spelling tags another
commit, and verify refuses a merge of the ignored spelling.  git tag and
git rev-parse are the oracles.
'
. "$(dirname "$0")"/test-lib.sh

RELEASE='v?(?<major>\d+)\.(?<minor>\d+)\.(?<patch>[1-9]\d*)'
MAINLINE='v?(?<major>\d+)\.(?<minor>\d+)(?:-rc(?<rc>[1-9]\d*))?'

# release NAME: a commit on the 1.2 maintenance line (from the commit
# checked out), tagged NAME (annotated).
release () {
	echo "$1" >VERSION &&
	git add VERSION &&
	git commit -q -m "Release $1" &&
	git tag -a -m "Release $1" "$1"
}

test_expect_success 'setup: 1.2.1 and v1.2.1 on one commit, 1.2.3 and v1.2.3 on two' '
	git init -q repo &&
	cd repo &&
	git config user.name "Rolling Tester" &&
	git config user.email rolling@example.org &&
	echo 1.2 >VERSION &&
	git add VERSION &&
	git commit -q -m "Release 1.2" &&
	git tag -a -m "Release 1.2" v1.2 &&
	git checkout -q -b maint-1.2 &&
	release 1.2.1 &&
	git tag -a -m "Release 1.2.1" v1.2.1 HEAD &&
	release v1.2.2 &&
	release 1.2.3 &&
	git checkout -q v1.2.2^{commit} &&
	echo "1.2.3, the other one" >VERSION &&
	git commit -q -a -m "Release 1.2.3 (another commit)" &&
	git tag -a -m "Release v1.2.3" v1.2.3 &&
	git checkout -q maint-1.2 &&
	test "$(git rev-parse 1.2.1^{commit})" = "$(git rev-parse v1.2.1^{commit})" &&
	test "$(git rev-parse 1.2.3^{commit})" != "$(git rev-parse v1.2.3^{commit})"
'

test_expect_success 'init keeps the first spelling by name and warns about the other, once each' '
	cd repo &&
	git rolling init --release-pattern "$RELEASE" --mainline-pattern "$MAINLINE" \
		--at 1.2.1 rolling >out 2>err &&
	test "$(git rev-parse rolling)" = "$(git rev-parse 1.2.1^{commit})" &&
	grep "^warning: ignoring release tag .v1\.2\.1.: .1\.2\.1. names the same version$" err &&
	grep "^warning: ignoring release tag .v1\.2\.3.: .1\.2\.3. names the same version$" err &&
	test $(grep -c "names the same version" err) = 2
'

test_expect_success 'advance merges the kept tag'"'"'s commit, not the other spelling'"'"'s' '
	cd repo &&
	git rolling advance rolling >out 2>err &&
	test "$(git log -1 --format=%s rolling)" = "Merge 1.2.3" &&
	test "$(git rev-parse rolling^2)" = "$(git rev-parse 1.2.3^{commit})" &&
	test "$(git rev-parse rolling^1)" = "$(git rev-parse 1.2.1^{commit})" &&
	test "$(git rev-parse rolling^{tree})" = "$(git rev-parse 1.2.3^{tree})" &&
	test $(grep -c "names the same version" err) = 2 &&
	git rolling verify rolling >out 2>err &&
	grep "^rolling: verified$" out &&
	grep "^rolling: 1 step from base 1\.2\.1 " out
'

# merge_of PARENT TAG: a merge of TAG on PARENT with the recipe's bytes.
merge_of () {
	(
		GIT_AUTHOR_DATE=$(git log -1 --format=%ad --date=raw "$2^{commit}") &&
		GIT_COMMITTER_DATE=$(git log -1 --format=%cd --date=raw "$2^{commit}") &&
		export GIT_AUTHOR_DATE GIT_COMMITTER_DATE &&
		printf "Merge %s\n\nSigned-off-by: Rolling Tester <rolling@example.org>\n" "$2" |
		git commit-tree -p "$1^{commit}" -p "$2^{commit}" "$2^{tree}"
	)
}

test_expect_success 'verify refuses a merge of the ignored spelling, on its commit or the kept one'"'"'s' '
	cd repo &&
	test_when_finished "git tag -d 1.2.4 v1.2.4 && git reset -q --hard HEAD^" &&
	other=$(merge_of 1.2.1 v1.2.3) &&
	git branch other $other &&
	test_expect_code 1 git rolling verify --release-pattern "$RELEASE" \
		--mainline-pattern "$MAINLINE" other >out 2>err &&
	grep "^error: other: $other: tag: expected release tag v1\.2\.3, found no such tag leading to a commit$" err &&
	same=$(merge_of 1.2.1 v1.2.2) &&
	git branch same $same &&
	git rolling verify --release-pattern "$RELEASE" --mainline-pattern "$MAINLINE" same &&
	release 1.2.4 &&
	git tag -a -m "Release 1.2.4" v1.2.4 HEAD &&
	spelled=$(merge_of rolling v1.2.4) &&
	git branch spelled $spelled &&
	test_expect_code 1 git rolling verify --release-pattern "$RELEASE" \
		--mainline-pattern "$MAINLINE" spelled >out 2>err &&
	grep "^error: spelled: $spelled: tag: expected release tag v1\.2\.4, found no such tag leading to a commit$" err &&
	test $(grep -c "^error: " err) = 1
'

test_done
