#!/bin/sh

test_description='the version

Every program prints "git-rolling version <v>" for --version, with the
version VERSION-GEN works out as git'\''s GIT-VERSION-GEN does: the release
tag v<X.Y.Z> that git describe finds, "-" turned into ".", ".dirty" for
changes to tracked files; VERSION where there is no checkout or no tag.
'
. "$(dirname "$0")"/test-lib.sh

BUILD=$GIT_ROLLING_BUILD_DIR

test_expect_success 'git rolling --version and every git-rolling-* --version agree' '
	version=$(sed -n "s/^ROLLING_VERSION = //p" "$BUILD/VERSION-FILE") &&
	test -n "$version" &&
	echo "git-rolling version $version" >expect &&
	git rolling --version >actual &&
	test_cmp expect actual &&
	git rolling version >actual &&
	test_cmp expect actual &&
	ls "$BUILD/builtin" | sed -n "s/\.c$//p" >cmds &&
	test_line_count -ge 5 cmds &&
	while read cmd
	do
		"$BUILD/git-rolling-$cmd" --version >actual &&
		test_cmp expect actual &&
		git rolling "$cmd" --version >actual &&
		test_cmp expect actual || return 1
	done <cmds
'

test_expect_success '--version needs no repository' '
	mkdir nowhere &&
	(
		cd nowhere &&
		GIT_DIR=/nonexistent git-rolling-verify --version >../actual
	) &&
	test_cmp expect actual
'

# version_in <dir>: run a copy of VERSION-GEN there; print the version.
version_in () {
	cp "$BUILD/VERSION-GEN" "$1/" &&
	(cd "$1" && ./VERSION-GEN 2>/dev/null) &&
	sed -n "s/^ROLLING_VERSION = //p" "$1/VERSION-FILE"
}

test_expect_success 'a checkout with no release tag has the version in VERSION' '
	git init -q src &&
	echo 0.9.0 >src/VERSION &&
	printf "VERSION-GEN\nVERSION-FILE\n" >src/.gitignore &&
	git -C src add VERSION .gitignore &&
	test_commit -C src --no-tag one &&
	git -C src tag not-a-release &&
	echo 0.9.0 >expect &&
	version_in src >actual &&
	test_cmp expect actual
'

test_expect_success 'on a release tag: its version' '
	git -C src tag -a -m "git-rolling 1.2.3" v1.2.3 &&
	echo 1.2.3 >expect &&
	version_in src >actual &&
	test_cmp expect actual
'

test_expect_success 'past a release tag: git describe, with dots' '
	test_commit -C src --no-tag two &&
	test_commit -C src --no-tag three &&
	echo "1.2.3.2.g$(git -C src rev-parse --short HEAD)" >expect &&
	version_in src >actual &&
	test_cmp expect actual
'

test_expect_success 'a lightweight tag is no release (git describe without --tags)' '
	git -C src tag v1.2.4 &&
	version_in src >actual &&
	test_cmp expect actual &&
	git -C src tag -d v1.2.4
'

test_expect_success 'changes to tracked files add .dirty; untracked files do not' '
	echo junk >src/untracked &&
	version_in src >actual &&
	test_cmp expect actual &&
	echo changed >src/two.t &&
	echo "1.2.3.2.g$(git -C src rev-parse --short HEAD).dirty" >expect &&
	version_in src >actual &&
	test_cmp expect actual &&
	git -C src checkout -q two.t
'

test_expect_success 'VERSION-FILE is rewritten only when the version changes' '
	version_in src >/dev/null &&
	touch -d "2000-01-01 00:00:00" src/VERSION-FILE &&
	version_in src >/dev/null &&
	test "$(stat -c %Y src/VERSION-FILE)" = "$(date -d "2000-01-01 00:00:00" +%s)" &&
	test_commit -C src --no-tag four &&
	version_in src >/dev/null &&
	test "$(stat -c %Y src/VERSION-FILE)" != "$(date -d "2000-01-01 00:00:00" +%s)"
'

test_expect_success 'an unpacked tarball has the version in VERSION, even inside a checkout' '
	git -C src tag -a -m "git-rolling 5.0.0" v5.0.0 &&
	git -C src archive --prefix=git-rolling-0.9.0/ HEAD >src.tar &&
	tar -xf src.tar -C src &&
	test_path_is_missing src/git-rolling-0.9.0/.git &&
	echo 0.9.0 >expect &&
	version_in src/git-rolling-0.9.0 >actual &&
	test_cmp expect actual
'

test_expect_success 'VERSION has its release notes and its debian/changelog entry' '
	base=$(cat "$BUILD/VERSION") &&
	grep "^git-rolling $base Release Notes" "$BUILD/Documentation/RelNotes/$base.txt" &&
	sed -n "1s/^git-rolling (\([^)]*\)-[0-9][^)]*).*/\1/p" "$BUILD/debian/changelog" >actual &&
	echo "$base" >expect &&
	test_cmp expect actual
'

test_done
