#!/bin/sh

test_description='bisect-helper refuses what it cannot do, and leaves nothing behind

A bare repository, a git without first-parent bisection, points that are
not rolling steps, and a git bisect start that fails: each is refused with
a clear message, and no bisection state (git'"'"'s or the helper'"'"'s) is
left behind.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling-bisect.sh

# nothing_left: no bisection state at all, HEAD where it was.
nothing_left () {
	test_path_is_missing .git/BISECT_START &&
	test_path_is_missing .git/BISECT_LOG &&
	test_path_is_missing .git/ROLLING_BISECT &&
	test -z "$(git for-each-ref refs/bisect/)" &&
	test "$(git symbolic-ref HEAD)" = refs/heads/master
}

test_expect_success 'setup: a rolling branch from week 11 to week 40' '
	rolling_history tree 11 40 &&
	cd tree &&
	nothing_left
'

test_expect_success 'a bare repository is refused' '
	git clone -q --bare tree bare.git &&
	test_expect_code 128 git --git-dir=bare.git rolling bisect-helper start \
		--branch linux-rolling-stable --preset linux v6.1.4 v6.0.5 2>err &&
	grep "^fatal: this operation must be run in a work tree$" err &&
	test_path_is_missing bare.git/BISECT_START &&
	test_path_is_missing bare.git/ROLLING_BISECT &&
	test_expect_code 128 git --git-dir=bare.git rolling bisect-helper next 2>err &&
	grep "^fatal: this operation must be run in a work tree$" err &&
	test_expect_code 128 git --git-dir=bare.git rolling bisect-helper run true 2>err &&
	grep "^fatal: this operation must be run in a work tree$" err
'

test_expect_success 'steps needs no work tree' '
	git -C tree rolling bisect-helper steps v6.0.5 v6.1.4 >expect &&
	git --git-dir=bare.git rolling bisect-helper steps --branch linux-rolling-stable --preset linux \
		v6.0.5 v6.1.4 >actual &&
	test_cmp expect actual
'

test_expect_success 'inside the git directory is not in a work tree' '
	test_expect_code 128 git -C tree/.git rolling bisect-helper start v6.1.4 v6.0.5 2>err &&
	grep "^fatal: this operation must be run in a work tree$" err &&
	(cd tree && nothing_left)
'

# bisect_with_git_saying WORDS: git-rolling bisect-helper start in tree,
# with a git first on PATH that answers `git version` and `git --version`
# with WORDS and passes everything else to the real git; its exit status
# in $status, its output in out and err.  Run through git, we would find
# the git that ran us in its exec-path: the dispatcher is called directly.
bisect_with_git_saying () {
	real_git=$(command -v git) &&
	rm -rf fake-git &&
	mkdir fake-git &&
	cat >fake-git/git <<-EOF &&
	#!/bin/sh
	if test "\$1" = version || test "\$1" = --version
	then
		echo "$1"
		exit 0
	fi
	exec "$real_git" "\$@"
	EOF
	chmod +x fake-git/git &&
	(
		cd tree &&
		PATH=$TRASH_DIRECTORY/fake-git:$PATH &&
		test "$(git version)" = "$1" &&
		git-rolling bisect-helper start v6.1.4 v6.0.5 >"$TRASH_DIRECTORY/out" \
			2>"$TRASH_DIRECTORY/err"
	)
	status=$?
}

test_expect_success 'git older than 2.29 is refused' '
	bisect_with_git_saying "git version 2.28.1" &&
	test $status = 128 &&
	grep "^fatal: git 2.29 or later is needed for first-parent bisection (this is 2.28.1)$" err &&
	(cd tree && nothing_left)
'

# The first-parent boundary is git 2.29.0, whatever the major version
# around it: one minor version below it is refused with the version
# named, the boundary itself and every release above it (Git 3.0 too)
# bisect; a version git-rolling cannot read is said so.
test_expect_success 'first-parent bisection: git 2.29.0 and later bisect, older ones are refused' '
	for version in 1.99.9 2.28.9 2.29.0 2.29.0.windows.1 3.0.0 3.28.0
	do
		bisect_with_git_saying "git version $version" &&
		case $version in
		1.*|2.28.*)
			test $status = 128 &&
			echo "fatal: git 2.29 or later is needed for first-parent bisection (this is $version)" >expect &&
			test_cmp expect err &&
			(cd tree && nothing_left)
			;;
		*)
			test $status = 0 &&
			test_must_be_empty err &&
			grep "^stage one: bisecting the 9 steps of linux-rolling-stable after v6.0.5 (.*) (good) up to v6.1.4 (.*) (bad)$" out &&
			test_path_is_file tree/.git/BISECT_START &&
			grep -e "--first-parent" tree/.git/BISECT_LOG &&
			git -C tree rolling bisect-helper reset >/dev/null 2>&1 &&
			(cd tree && nothing_left)
			;;
		esac || { echo "wrong with git version $version" && cat err && return 1; }
	done &&
	bisect_with_git_saying "git version next" &&
	test $status = 128 &&
	echo "fatal: cannot tell the version of git from '"'"'git version next'"'"'" >expect &&
	test_cmp expect err &&
	(cd tree && nothing_left)
'

test_expect_success 'points that are not steps: nothing is started' '
	cd tree &&
	test_expect_code 128 git rolling bisect-helper start master v6.0.5 2>err &&
	grep "^fatal: .master. is not a step of any configured rolling branch" err &&
	nothing_left &&
	test_expect_code 128 git rolling bisect-helper start v6.1.4 v6.1.4~1 2>err &&
	grep "^fatal: .v6.1.4~1. is neither a step of linux-rolling-stable nor a release it merged$" err &&
	nothing_left &&
	test_expect_code 128 git rolling bisect-helper start v6.0.5 v6.1.4 2>err &&
	grep "is not older than" err &&
	nothing_left &&
	test_expect_code 129 git rolling bisect-helper start v6.1.4 2>err &&
	nothing_left
'

test_expect_success 'a git bisect start that fails leaves no state behind' '
	cd tree &&
	test_when_finished "git checkout -q -- Makefile" &&
	echo "# local change" >>Makefile &&
	test_expect_code 128 git rolling bisect-helper start v6.1.4 v5.19.2 >out 2>err &&
	grep "^fatal: git bisect start failed; no bisection is left behind$" err &&
	nothing_left &&
	grep "local change" Makefile
'

test_expect_success 'a failing stage two start leaves no state behind either' '
	cd tree &&
	test_when_finished "git checkout -q -- Makefile" &&
	git rolling bisect-helper start v6.0.8 v6.0.7 >out &&
	grep "^stage one is over: the first bad step is v6.0.8 " out &&
	echo "# local change" >>Makefile &&
	test_expect_code 128 git rolling bisect-helper next >out 2>err &&
	grep "^fatal: git bisect start failed for stage two; no bisection is left behind" err &&
	nothing_left &&
	grep "local change" Makefile
'

# git 2.39 (git-bisect.sh) refuses to bisect in a subdirectory; the
# builtin bisect of git 2.40 runs there.  The helper follows the git that
# runs it: where git refuses, it relays git's own refusal before it says
# or saves anything.
test_expect_success 'setup: does git bisect in a subdirectory?' '
	mkdir -p tree/sub &&
	git_bisects_in_subdirectory tree/sub &&
	(cd tree && nothing_left)
'

test_expect_success !BISECT_IN_SUBDIRECTORY 'a subdirectory git refuses: git'"'"'s refusal, before anything is said or saved' '
	(
		cd tree/sub &&
		test_expect_code 128 git rolling bisect-helper start v6.1.4 v6.0.5 \
			>"$TRASH_DIRECTORY/out" 2>"$TRASH_DIRECTORY/err" &&
		test_expect_code 128 git rolling bisect-helper next 2>"$TRASH_DIRECTORY/err.next" &&
		test_expect_code 128 git rolling bisect-helper run true 2>"$TRASH_DIRECTORY/err.run" &&
		test_expect_code 128 git rolling bisect-helper reset 2>"$TRASH_DIRECTORY/err.reset" &&
		cd .. &&
		nothing_left
	) &&
	test_must_be_empty out &&
	printf "fatal: %s\n" "$(sed "s/^fatal: //" git-bisect-refusal)" >expect &&
	test_cmp expect err &&
	test_cmp expect err.next &&
	test_cmp expect err.run &&
	test_cmp expect err.reset
'

test_expect_success BISECT_IN_SUBDIRECTORY 'a subdirectory git bisects in: the same bisection as from the top' '
	cd tree &&
	git rolling bisect-helper start v6.1.4 v6.0.5 >top.out &&
	git bisect log >top.log &&
	git rolling bisect-helper reset >/dev/null 2>&1 &&
	nothing_left &&
	(
		cd sub &&
		git rolling bisect-helper start v6.1.4 v6.0.5 >../sub.out &&
		git bisect log >../sub.log
	) &&
	test_cmp top.out sub.out &&
	test_cmp top.log sub.log &&
	grep "^stage 1$" .git/ROLLING_BISECT &&
	(cd sub && git rolling bisect-helper reset >/dev/null 2>&1) &&
	nothing_left
'

test_expect_success 'next and reset without a bisection' '
	cd tree &&
	test_expect_code 128 git rolling bisect-helper next 2>err &&
	grep "^fatal: no rolling bisection in progress" err &&
	git rolling bisect-helper reset >out 2>&1 &&
	nothing_left
'

test_done
