#!/bin/sh

test_description='the build: missing libraries, flags and version changes, install

A missing library stops the build with its name and Debian package;
BUILD-FLAGS makes a change of compiler flags rebuild every object and
VERSION-FILE a change of version rebuild the one that embeds it;
DEVELOPER=1 adds the strict warnings.  Works on a clone of the build
directory'\''s HEAD: commit what it should see.  The builds themselves
run with make test-long (EXPENSIVE), as the release builds of t5310 and
t5320 do: a minute of compiling in every make test otherwise.
'
. "$(dirname "$0")"/test-lib.sh

BUILD=$GIT_ROLLING_BUILD_DIR
unset MAKEFLAGS MFLAGS MAKELEVEL CC CFLAGS LDFLAGS CPPFLAGS DEVELOPER

test_expect_success 'setup: a clone' '
	git clone -q --no-checkout "$BUILD" src &&
	git -C src checkout -q --detach "$(git -C "$BUILD" rev-parse HEAD)" &&
	# t/helper/seam.c is built apart, without CFLAGS (see the Makefile).
	ls src/*.c src/lib/*.c src/lib/vendor/reftable/*.c src/cli/*.c src/builtin/*.c src/t/helper/*.c |
	grep -v "/seam\.c\$" | wc -l >nr-sources
'

test_expect_success 'a library pkg-config cannot find stops the build, named' '
	mkdir no-pc &&
	test_must_fail env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$TRASH_DIRECTORY/no-pc" make -C src >out 2>err &&
	grep "pkg-config cannot find libgit2 (Debian package libgit2-dev) libpcre2-8 (Debian package libpcre2-dev) json-c (Debian package libjson-c-dev) zlib (Debian package zlib1g-dev)" err &&
	find src -name "*.o" >objects &&
	test_must_be_empty objects &&
	env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR="$TRASH_DIRECTORY/no-pc" make -C src clean
'

# compiled <make output>: the sources compiled, one per line.
compiled () {
	sed -n "s/.* -c -o [^ ]* \([^ ]*\.c\)\$/\1/p" "$1" | sort
}

test_expect_success EXPENSIVE 'a second make compiles nothing' '
	make -C src -j2 CFLAGS="-O0" >out 2>&1 &&
	compiled out >sources &&
	test_line_count = $(cat nr-sources) sources &&
	make -C src -j2 CFLAGS="-O0" >out 2>&1 &&
	compiled out >sources &&
	test_must_be_empty sources
'

test_expect_success EXPENSIVE 'other CFLAGS rebuild every object, and relink' '
	make -C src -j2 CFLAGS="-O0 -g" >out 2>&1 &&
	compiled out >sources &&
	test_line_count = $(cat nr-sources) sources &&
	grep -- "-o git-rolling-init " out
'

test_expect_success EXPENSIVE 'another version rebuilds cli/about.c alone, and every program says it' '
	echo 9.8.7 >src/VERSION &&
	make -C src -j2 CFLAGS="-O0 -g" >out 2>&1 &&
	compiled out >sources &&
	echo cli/about.c >expect &&
	test_cmp expect sources &&
	echo "git-rolling version 9.8.7" >expect &&
	src/git-rolling --version >actual &&
	test_cmp expect actual &&
	src/git-rolling-init --version >actual &&
	test_cmp expect actual
'

test_expect_success EXPENSIVE 'make install needs no asciidoctor; install-doc does' '
	mkdir fakebin &&
	printf "#!/bin/sh\necho asciidoctor was run >&2\nexit 1\n" >fakebin/asciidoctor &&
	chmod +x fakebin/asciidoctor &&
	PATH=$TRASH_DIRECTORY/fakebin:$PATH make -C src CFLAGS="-O0 -g" install prefix="$TRASH_DIRECTORY/inst" \
		>out 2>err &&
	test_path_is_file inst/bin/git-rolling-init &&
	test_path_is_missing inst/share/man &&
	test_must_fail env PATH="$TRASH_DIRECTORY/fakebin:$PATH" make -C src install-doc \
		prefix="$TRASH_DIRECTORY/inst" >out 2>err &&
	grep "asciidoctor was run" err
'

# The Makefile probes libgit2 by compiling against its headers
# (lib/git2-compat.h): a probe failing for another reason (a flag, a
# header moved) would build against libgit2 main with git-rolling's own
# reftable backend, and every test could still pass.  Checked against the
# symbols of the library the programs run with.
test_expect_success 'libgit2 reads reftable for the build exactly when the library it runs with can' '
	lib=$(ldd "$BUILD/t/helper/test-rolling" | sed -n "s/.*libgit2[^ ]* => \([^ ]*\) .*/\1/p") &&
	test -f "$lib" &&
	if nm -D --defined-only "$lib" | grep -q " git_refdb_backend_reftable\$"
	then
		echo "reads-reftable 1" >expect
	else
		echo "reads-reftable 0" >expect
	fi &&
	"$BUILD/t/helper/test-rolling" libgit2 >actual &&
	test_cmp expect actual
'

test_expect_success 'DEVELOPER=1 adds the strict warnings to the recorded flags' '
	make -C src DEVELOPER=1 BUILD-FLAGS >/dev/null &&
	for w in -Werror -Wformat=2 -Wshadow -Wcast-qual -Wstrict-prototypes -Wvla
	do
		grep -e " $w " src/BUILD-FLAGS || return 1
	done &&
	make -C src BUILD-FLAGS >/dev/null &&
	! grep -e " -Werror " src/BUILD-FLAGS
'

test_done
