#!/bin/sh

test_description='make deb: the Debian package

make deb builds git-rolling_<version>-1_<arch>.deb from the release tarball
with debian/ added, and lintian finds no error in it.  The package holds
the commands in /usr/bin, the manual pages, the bash completion and the
server tools as examples under /usr/share/doc/git-rolling/contrib; its
dependencies are computed.  Works on a clone of the build directory'\''s
HEAD: commit what it should see.  Built with nocheck, the package build
compiles no test helper.
'
. "$(dirname "$0")"/test-lib.sh

BUILD=$GIT_ROLLING_BUILD_DIR
# The package builds as Debian builds it: with its compiler and flags, not
# those a make that runs the suite passes on (make CC=clang test), and
# against the system's libraries, not a libgit2 the suite was pointed at
# (.ci/libgit2-leg), which no package would provide.
unset MAKEFLAGS MFLAGS MAKELEVEL CC CFLAGS LDFLAGS CPPFLAGS DEVELOPER \
	PKG_CONFIG_PATH LD_LIBRARY_PATH

if ! command -v dpkg-buildpackage >/dev/null 2>&1 || ! command -v dh >/dev/null 2>&1 ||
   ! command -v lintian >/dev/null 2>&1 || ! command -v asciidoctor >/dev/null 2>&1
then
	skip_all='dpkg-buildpackage, debhelper, lintian or asciidoctor missing'
	test_done
fi

# A release artifact, not what a change to the code risks: the package
# build (dpkg-buildpackage with Debian's flags, dh, lintian) is about 35
# CPU-seconds, a twelfth of the suite.  It runs in make test-long, which
# CI runs; CI's Debian stage builds and installs the package as well.
if ! test_have_prereq EXPENSIVE
then
	skip_all='the Debian package is built in make test-long (EXPENSIVE)'
	test_done
fi

# debhelper 13.11 cannot install a documentation directory into a path
# with a space, as the trash directory's name has: build elsewhere and
# keep the package, the tarball and the list of commands.
test_expect_success 'make deb builds the package, lintian finds no error' '
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/git-rolling-t5320.XXXXXX") &&
	test_when_finished "rm -rf \"\$scratch\"" &&
	git clone -q --no-checkout "$BUILD" "$scratch/src" &&
	git -C "$scratch/src" checkout -q --detach "$(git -C "$BUILD" rev-parse HEAD)" &&
	(cd "$scratch/src" && DEB_BUILD_OPTIONS="nocheck parallel=2" make deb) >build.out 2>&1 &&
	! grep -e "-o t/helper/" build.out &&
	! grep "^E: " build.out &&
	version=$(dpkg-parsechangelog -l "$scratch/src/debian/changelog" -S Version) &&
	deb=git-rolling_${version}_$(dpkg --print-architecture).deb &&
	cp "$scratch/src/build-deb/$deb" "$scratch"/src/git-rolling-*.tar.gz . &&
	ls "$scratch/src/builtin" | sed -n "s/\.c\$//p" >cmds &&
	test_path_is_file "$deb"
'

test_expect_success 'what the package installs' '
	dpkg-deb -c "$deb" | awk "{ print \$6 }" | sed -e "s|^\./|/|" >files &&
	while read cmd
	do
		grep -x "/usr/bin/git-rolling-$cmd" files &&
		grep -x "/usr/share/man/man1/git-rolling-$cmd.1.gz" files || return 1
	done <cmds &&
	grep -x /usr/bin/git-rolling files &&
	grep -x /usr/share/man/man1/git-rolling.1.gz files &&
	grep -x /usr/share/man/man7/gitrolling.7.gz files &&
	grep -x /usr/share/bash-completion/completions/git-rolling files &&
	grep -x /usr/share/doc/git-rolling/contrib/hooks/post-receive files &&
	grep -x /usr/share/doc/git-rolling/contrib/systemd/git-rolling-update files &&
	grep -x "/usr/share/doc/git-rolling/contrib/systemd/git-rolling-advance@.service" files &&
	grep -x "/usr/share/doc/git-rolling/contrib/systemd/git-rolling-advance@.timer" files &&
	grep -x /usr/share/doc/git-rolling/copyright files &&
	! grep "^/usr/local" files
'

test_expect_success 'dependencies: git, and the libraries it links' '
	dpkg-deb -f "$deb" Depends | tr "," "\n" | sed -e "s/^ *//" -e "s/ .*//" | sort >depends &&
	grep -x git depends &&
	grep -x "libgit2-[0-9.]*" depends &&
	grep -x "libpcre2-8-0" depends &&
	grep -x "libjson-c[0-9]*" depends &&
	grep -x "zlib1g" depends &&
	grep -x libc6 depends
'

test_expect_success 'unpacked, git rolling runs from it' '
	dpkg-deb -x "$deb" root &&
	(
		PATH=$TRASH_DIRECTORY/root/usr/bin:$PATH &&
		cd root &&
		test_expect_code 129 git rolling -h >../usage &&
		git rolling --version >../version
	) &&
	grep "^usage: git rolling" usage &&
	echo "git-rolling version $(tar -xzOf git-rolling-*.tar.gz --wildcards "*/VERSION")" >expect &&
	test_cmp expect version
'

test_done
