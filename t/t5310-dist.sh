#!/bin/sh

test_description='make dist: a reproducible release tarball

make dist packs the committed HEAD with VERSION and the manual pages
built.  Two clones of one commit give the same bytes, and the unpacked
tarball builds and installs with no asciidoctor.  These tests work on
clones of the build directory'\''s HEAD: commit what they should see.
'
. "$(dirname "$0")"/test-lib.sh

BUILD=$GIT_ROLLING_BUILD_DIR
# The makes below are our own, not part of a make that runs the suite
# (make test, dpkg-buildpackage): no inherited flags or job server.
unset MAKEFLAGS MFLAGS MAKELEVEL
command -v asciidoctor >/dev/null 2>&1 && test_set_prereq ASCIIDOCTOR
command -v man >/dev/null 2>&1 && test_set_prereq MAN

# clone_head <dir>: a clone of the build directory at its HEAD.
clone_head () {
	git clone -q --no-checkout "$BUILD" "$1" &&
	git -C "$1" checkout -q --detach "$(git -C "$BUILD" rev-parse HEAD)"
}

test_expect_success ASCIIDOCTOR 'make dist writes git-rolling-<version>.tar.gz' '
	clone_head a &&
	make -C a -s dist >out 2>err &&
	version=$(sed -n "s/^ROLLING_VERSION = //p" a/VERSION-FILE) &&
	test -n "$version" &&
	grep -x "git-rolling-$version.tar.gz" out &&
	test_path_is_file "a/git-rolling-$version.tar.gz" &&
	test_path_is_missing a/.dist-tmp
'

test_expect_success ASCIIDOCTOR 'another clone of the commit, another umask and time: the same bytes' '
	(umask 077 && clone_head b) &&
	find b -path b/.git -prune -o -type f -exec touch -d "2001-02-03 04:05:06" {} + &&
	make -C b -s dist >/dev/null 2>&1 &&
	cmp "a/git-rolling-$version.tar.gz" "b/git-rolling-$version.tar.gz"
'

test_expect_success ASCIIDOCTOR 'entries: in one directory, owned by root, dated with the commit; gzip -n' '
	tar -tzf "a/git-rolling-$version.tar.gz" >names &&
	sed -n "\|^git-rolling-$version/|!p" names >outside &&
	test_must_be_empty outside &&
	tar --numeric-owner --full-time -tvzf "a/git-rolling-$version.tar.gz" >long &&
	awk "{ print \$2 }" long | sort -u >owners &&
	echo 0/0 >expect &&
	test_cmp expect owners &&
	commit_time=$(TZ=UTC git -C a log -1 --date=format-local:"%Y-%m-%d %H:%M:%S" --format=%cd) &&
	awk "{ print \$4, \$5 }" long | sort -u >dates &&
	echo "$commit_time" >expect &&
	test_cmp expect dates &&
	od -A n -t x1 -j 3 -N 5 "a/git-rolling-$version.tar.gz" | tr -d " " >gzip-header &&
	echo 0000000000 >expect &&
	test_cmp expect gzip-header
'

test_expect_success ASCIIDOCTOR 'the tarball holds VERSION and the pages; not debian/ or .ci/' '
	tar -xzf "a/git-rolling-$version.tar.gz" &&
	echo "$version" >expect &&
	test_cmp expect "git-rolling-$version/VERSION" &&
	for page in a/Documentation/*.txt
	do
		name=$(basename "$page" .txt) &&
		case "$name" in
		config) continue ;;
		gitrolling) section=7 ;;
		*) section=1 ;;
		esac &&
		test_path_is_file "git-rolling-$version/Documentation/$name.$section" &&
		grep "^\.TH .*\"git\\\\-rolling $version\"" \
			"git-rolling-$version/Documentation/$name.$section" || return 1
	done &&
	test_path_is_missing "git-rolling-$version/debian" &&
	test_path_is_missing "git-rolling-$version/.ci" &&
	git -C a ls-files -- ":!debian" ":!.ci" | sort >expect &&
	(cd "git-rolling-$version" && find . -type f ! -name "*.[17]" | sed "s|^\./||" | sort) >actual &&
	test_cmp expect actual
'

test_expect_success ASCIIDOCTOR 'a tree with uncommitted changes is refused' '
	rm "a/git-rolling-$version.tar.gz" &&
	echo "# local change" >>a/README.md &&
	test_must_fail make -C a -s dist 2>err &&
	grep "^fatal: make dist: commit your changes first" err &&
	test_path_is_missing "a/git-rolling-$version.tar.gz"
'

# Building from the tarball must not run asciidoctor: this one fails.
# make clean must keep the pages the tarball ships, so install-doc runs
# after it; the programs are built once, and installed before the clean.
# What is checked is that the tarball builds, not with which flags (t5330
# and t5320 check those): unoptimized, it builds in two thirds the time.
# A whole build of a release artifact: in make test-long, as t5320's
# package (the tarball itself is checked above, in make test).
test_expect_success ASCIIDOCTOR,EXPENSIVE 'the tarball builds and installs with no asciidoctor' '
	mkdir fakebin &&
	printf "#!/bin/sh\necho asciidoctor was run >&2\nexit 1\n" >fakebin/asciidoctor &&
	chmod +x fakebin/asciidoctor &&
	mkdir scratch &&
	tar -xzf "b/git-rolling-$version.tar.gz" -C scratch &&
	(
		cd "scratch/git-rolling-$version" &&
		PATH=$TRASH_DIRECTORY/fakebin:$PATH &&
		make -s -j2 CFLAGS=-O0 >../build.out 2>&1 &&
		make -s install CFLAGS=-O0 prefix="$TRASH_DIRECTORY/inst" >../install.out 2>&1 &&
		make -s clean &&
		test_path_is_missing git-rolling &&
		make -s install-doc prefix="$TRASH_DIRECTORY/inst" >>../install.out 2>&1
	) &&
	test_path_is_file inst/bin/git-rolling &&
	test_path_is_file inst/share/man/man1/git-rolling.1 &&
	test_path_is_file inst/share/man/man7/gitrolling.7 &&
	test_path_is_file inst/share/bash-completion/completions/git-rolling
'

test_expect_success ASCIIDOCTOR,MAN,EXPENSIVE 'git rolling -h and git help rolling from the installed prefix' '
	(
		PATH=$TRASH_DIRECTORY/inst/bin:$PATH &&
		MANPATH=$TRASH_DIRECTORY/inst/share/man &&
		export MANPATH &&
		cd scratch &&
		test "$(command -v git-rolling)" = "$TRASH_DIRECTORY/inst/bin/git-rolling" &&
		test_expect_code 129 git rolling -h >../usage &&
		git rolling --version >../version &&
		git rolling advance --version >../advance-version &&
		MANPAGER=cat PAGER=cat MANWIDTH=80 git help rolling >../help
	) &&
	grep "^usage: git rolling" usage &&
	echo "git-rolling version $version" >expect &&
	test_cmp expect version &&
	test_cmp expect advance-version &&
	grep "git-rolling - Rolling branches that follow" help &&
	tail -n 1 help | grep "^git-rolling $version "
'

test_done
