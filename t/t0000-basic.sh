#!/bin/sh

test_description='the test library itself and the stable-tree fixtures'

# This script checks the test machinery, not git-rolling.
TEST_NO_BUILD=1
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

# write_nested NAME: sub/NAME.sh, a test script whose tests come from
# stdin; run_nested NAME [OPTION...] runs it with sh from sub/, keeping
# its trash directory under sub/ and its output in sub/NAME.out/.err.
write_nested () {
	mkdir -p sub &&
	{
		printf '#!/bin/sh\ntest_description=%s\n' "'nested $1'" &&
		printf 'TEST_NO_BUILD=1\n. "$TEST_DIRECTORY"/test-lib.sh\n' &&
		cat &&
		echo test_done
	} >"sub/$1.sh"
}

run_nested () {
	test_nested_=$1
	shift
	(
		cd sub &&
		TEST_DIRECTORY=$TEST_DIRECTORY &&
		TEST_OUTPUT_DIRECTORY=$TRASH_DIRECTORY/sub &&
		export TEST_DIRECTORY TEST_OUTPUT_DIRECTORY &&
		sh "./$test_nested_.sh" "$@" >"$test_nested_.out" 2>"$test_nested_.err"
	)
}

# --- test-lib.sh --------------------------------------------------------

test_expect_success 'the environment is hermetic' '
	test "$HOME" = "$TRASH_DIRECTORY" &&
	test "$(pwd -P)" = "$TRASH_DIRECTORY" &&
	test "$TZ" = UTC &&
	test "$LC_ALL" = C &&
	test -z "${GIT_DIR+set}${GIT_WORK_TREE+set}${GIT_INDEX_FILE+set}" &&
	test -z "${GIT_AUTHOR_NAME+set}${GIT_COMMITTER_DATE+set}" &&
	test "$GIT_CONFIG_NOSYSTEM" = 1 &&
	test "$(git config user.name)" = "A U Thor" &&
	test "$(git config user.email)" = author@example.com &&
	test "$(git config commit.gpgsign)" = false &&
	test "$(git symbolic-ref HEAD)" = refs/heads/main &&
	test "$(git rev-parse --show-toplevel)" = "$TRASH_DIRECTORY" &&
	case "$GIT_ROLLING_TEST_VALGRIND,${PATH%%:*}" in
	,"$GIT_ROLLING_BUILD_DIR") ;;
	?*,"$GIT_ROLLING_BUILD_DIR/t/valgrind") ;;
	*) false ;;
	esac &&
	test "$GIT_ROLLING_BUILD_DIR" = "$(cd "$TEST_DIRECTORY/.." && pwd -P)" &&
	test -z "$(git status --porcelain)"
'

test_expect_success 'repository discovery stops at the trash directory' '
	mkdir -p sub/dir &&
	git -C sub/dir rev-parse --show-toplevel >top &&
	echo "$TRASH_DIRECTORY" >expect &&
	test_cmp expect top &&
	mv .git .git-away &&
	test_when_finished "mv .git-away .git" &&
	test_must_fail git -C sub/dir rev-parse --git-dir 2>err &&
	grep "not a git repository" err
'

test_expect_success 'test_cmp detects differences' '
	printf "a\nb\n" >one &&
	printf "a\nc\n" >two &&
	test_cmp one one &&
	! (test_cmp one two) >diff &&
	grep "^-b" diff &&
	grep "^+c" diff
'

test_expect_success 'test_must_fail accepts failure and rejects the rest' '
	test_must_fail false &&
	test_must_fail sh -c "exit 2" &&
	! test_must_fail true 2>err &&
	grep "command succeeded" err &&
	! test_must_fail sh -c "kill -TERM \$\$" 2>err &&
	grep "died by signal 15" err &&
	! test_must_fail no-such-command-here 2>err &&
	grep "command not found" err
'

test_expect_success 'test_expect_code' '
	test_expect_code 3 sh -c "exit 3" &&
	test_expect_code 0 true &&
	! test_expect_code 2 sh -c "exit 3" 2>err &&
	grep "exited with 3, we wanted 2" err
'

test_expect_success 'test_when_finished registers cleanup' '
	cleaned=no &&
	test_when_finished "cleaned=second" &&
	test_when_finished "test \$cleaned = no && cleaned=first" &&
	test $cleaned = no
'

test_expect_success 'test_when_finished ran, last registered first' '
	test "$cleaned" = second
'

test_expect_success 'tests run in the trash directory, in the same shell' '
	persisted=yes &&
	mkdir -p elsewhere &&
	cd elsewhere
'

test_expect_success 'variables persist and the directory is restored' '
	test "$persisted" = yes &&
	test "$(pwd -P)" = "$TRASH_DIRECTORY"
'

test_expect_success 'file and line-count helpers' '
	printf "1\n2\n3\n" >three &&
	: >empty &&
	test_line_count = 3 three &&
	test_line_count -gt 2 three &&
	test_line_count -lt 4 three &&
	test_line_count -ge 3 three &&
	! test_line_count = 2 three >out &&
	grep "line count for three" out &&
	test_must_be_empty empty &&
	! test_must_be_empty three >out &&
	! test_must_be_empty no-such-file >out &&
	test_path_is_file three &&
	! test_path_is_file . >out &&
	test_path_is_dir . &&
	! test_path_is_dir three >out &&
	test_path_is_missing no-such-file &&
	! test_path_is_missing three >out
'

test_set_prereq HAVEIT
test_expect_success 'prerequisites' '
	test_have_prereq HAVEIT &&
	test_have_prereq HAVEIT,!MISSING &&
	! test_have_prereq MISSING &&
	! test_have_prereq HAVEIT,MISSING &&
	! test_have_prereq !HAVEIT &&
	if command -v jq >/dev/null
	then
		test_have_prereq JQ
	else
		! test_have_prereq JQ
	fi
'

test_expect_success MISSING 'a test with a missing prerequisite is skipped' '
	false
'

test_expect_success 'test_tick and test_commit' '
	test_commit first &&
	test_commit -C . --no-tag second file.txt content &&
	test_commit --annotate third &&
	test "$(git log -1 --format=%ct first)" = 1112911993 &&
	test "$(git log -1 --format="%at %ai" HEAD^)" = "1112912053 2005-04-07 15:14:13 -0700" &&
	test "$(cat file.txt)" = content &&
	test "$(git cat-file -t first)" = commit &&
	test "$(git cat-file -t third)" = tag &&
	test_must_fail git rev-parse --verify -q refs/tags/second &&
	test "$(git log --format=%s | tr "\n" " ")" = "third second first "
'

test_expect_success 'a failing nested script says "not ok" and exits non-zero' '
	write_nested t9001-fail <<-\EOF &&
	test_expect_success "passes" "true"
	test_expect_success "fails" "echo output-of-failure && false"
	test_expect_failure "known breakage" "false"
	test_expect_success NOSUCHPREREQ "needs prereq" "false"
	test_expect_success "cleanup runs on failure" "
		test_when_finished \"echo cleaned >../cleanup-ran\" && false"
	test_expect_success "broken chain" "true
	true"
	EOF
	test_expect_code 1 run_nested t9001-fail &&
	cat >expect <<-\EOF &&
	ok 1 - passes
	not ok 2 - fails
	#	echo output-of-failure && false
	# output:
	# output-of-failure
	not ok 3 - known breakage # TODO known breakage
	ok 4 # skip needs prereq (missing NOSUCHPREREQ)
	not ok 5 - cleanup runs on failure
	#	
	#	test_when_finished "echo cleaned >../cleanup-ran" && false
	not ok 6 - broken chain
	#	true
	#	true
	# output:
	# error: bug in the test script: broken &&-chain (or syntax error)
	# still have 1 known breakage(s)
	# failed 3 among 6 test(s)
	1..6
	EOF
	test_cmp expect sub/t9001-fail.out &&
	test_must_be_empty sub/t9001-fail.err &&
	echo cleaned >expect &&
	test_cmp expect sub/cleanup-ran &&
	test_path_is_dir "sub/trash directory.t9001-fail"
'

test_expect_success 'a passing nested script cleans up, unless --debug' '
	write_nested t9002-pass <<-\EOF &&
	test_expect_success "passes" "echo hidden"
	test_expect_failure "fixed" "true"
	EOF
	run_nested t9002-pass &&
	cat >expect <<-\EOF &&
	ok 1 - passes
	ok 2 - fixed # TODO known breakage vanished
	# 1 known breakage(s) vanished
	# passed all 2 test(s)
	1..2
	EOF
	test_cmp expect sub/t9002-pass.out &&
	test_path_is_missing "sub/trash directory.t9002-pass" &&
	run_nested t9002-pass -d &&
	test_path_is_dir "sub/trash directory.t9002-pass" &&
	run_nested t9002-pass -v &&
	grep "^hidden\$" sub/t9002-pass.out
'

test_expect_success 'nested --immediate stops at the first failure' '
	write_nested t9003-immediate <<-\EOF &&
	test_expect_success "fails" "false"
	test_expect_success "never runs" "true"
	EOF
	test_expect_code 1 run_nested t9003-immediate -i &&
	grep "^not ok 1 - fails" sub/t9003-immediate.out &&
	! grep "never runs" sub/t9003-immediate.out &&
	tail -n 1 sub/t9003-immediate.out >last &&
	echo 1..1 >expect &&
	test_cmp expect last
'

test_expect_success 'nested skip_all' '
	write_nested t9004-skip <<-\EOF &&
	skip_all="nothing to do here"
	EOF
	run_nested t9004-skip &&
	echo "1..0 # SKIP nothing to do here" >expect &&
	test_cmp expect sub/t9004-skip.out
'

test_expect_success 'an unexpected exit is fatal' '
	write_nested t9005-exit <<-\EOF &&
	test_expect_success "exits" "exit 0"
	EOF
	test_expect_code 1 run_nested t9005-exit &&
	grep "FATAL: unexpected exit with code 0" sub/t9005-exit.err
'

test_expect_success 'a missing build bails out' '
	write_nested t9006-build <<-\EOF &&
	test_expect_success "not reached" "true"
	EOF
	mkdir -p nobuild/t &&
	sed "/^TEST_NO_BUILD=1/d" sub/t9006-build.sh >nobuild/t/t9006-build.sh &&
	(
		cd nobuild/t &&
		TEST_DIRECTORY=$TEST_DIRECTORY &&
		TEST_OUTPUT_DIRECTORY=$TRASH_DIRECTORY/nobuild &&
		export TEST_DIRECTORY TEST_OUTPUT_DIRECTORY &&
		test_expect_code 1 env GIT_ROLLING_BUILD_DIR="$TRASH_DIRECTORY/nobuild" \
			sh ./t9006-build.sh >../out 2>&1
	) &&
	echo "Bail out! git-rolling not built (run make)" >expect &&
	test_cmp expect nobuild/out
'

# --- lib-stable-tree.sh: Linux ------------------------------------------

test_expect_success 'generate the Linux-style tree' '
	stable_tree_linux linux &&
	git -C linux fsck --strict --no-dangling 2>err &&
	test_must_be_empty err &&
	git -C linux status --porcelain >status &&
	test_must_be_empty status
'

test_expect_success 'mainline tags, stable branches and series' '
	git -C linux rev-parse v6.6-rc1 v6.6 v6.6.1 v6.7 \
		refs/heads/master refs/heads/linux-6.6.y >/dev/null &&
	git -C linux merge-base --is-ancestor v6.6 v6.7 &&
	git -C linux merge-base --is-ancestor v6.6-rc7 v6.6 &&
	git -C linux merge-base --is-ancestor v6.6 v6.6.1 &&
	git -C linux merge-base --is-ancestor v6.6.1 linux-6.6.y &&
	test_must_fail git -C linux merge-base --is-ancestor v6.6.1 master &&
	git -C linux rev-list --first-parent v6.6.1 >chain &&
	git -C linux rev-parse "v6.6^{commit}" >fork &&
	grep -F -f fork chain &&
	git -C linux rev-list v6.6..v6.6.1 >backports &&
	test_line_count -ge 2 backports &&
	test_line_count -le 4 backports &&
	test "$(git -C linux cat-file -t v6.6.1)" = tag &&
	test "$(git -C linux cat-file -t v6.6)" = tag &&
	test "$(git -C linux cat-file -t v6.6-rc1)" = tag
'

test_expect_success 'the Makefile carries the version' '
	git -C linux show v6.6.3:Makefile >Makefile.out &&
	grep "^VERSION = 6\$" Makefile.out &&
	grep "^PATCHLEVEL = 6\$" Makefile.out &&
	grep "^SUBLEVEL = 3\$" Makefile.out &&
	grep "^EXTRAVERSION =\$" Makefile.out &&
	git -C linux show v6.7-rc2:Makefile >Makefile.out &&
	grep "^SUBLEVEL = 0\$" Makefile.out &&
	grep "^EXTRAVERSION = -rc2\$" Makefile.out
'

test_expect_success 'look-alikes exist and are not releases' '
	for t in v5.5-test next-20240101 v6.6.4-rc1
	do
		git -C linux rev-parse --verify -q "refs/tags/$t^{commit}" || return 1
	done &&
	git -C linux rev-parse --verify -q refs/heads/v6.6.y-queue &&
	test_must_fail git -C linux rev-parse --verify -q refs/tags/v6.6.y-queue &&
	git -C linux merge-base --is-ancestor linux-6.6.y v6.6.y-queue &&
	test "$(git -C linux rev-parse v6.6.4-rc1^{commit})" = \
	     "$(git -C linux rev-parse v6.6.4^)" &&
	cut -d" " -f2 linux/.git/stable-lookalikes >names &&
	printf "next-20240101\nv5.5-test\nv6.6.4-rc1\n" >expect &&
	test_cmp expect names &&
	! grep -E " (v5.5-test|next-20240101|v6.6.4-rc1) " linux/.git/stable-timeline
'

test_expect_success 'the timeline matches the tags' '
	tl=linux/.git/stable-timeline &&
	sort -c -s -n -k1,1 $tl &&
	test "$(head -n 1 $tl | cut -d" " -f1)" = 2 &&
	test "$(stable_tree_weeks linux)" = 94 &&
	# peeled ids
	awk "{ print \$2 \"^{commit}\" }" $tl |
	git -C linux cat-file --batch-check="%(objectname)" >peeled &&
	cut -d" " -f4 $tl >expect &&
	test_cmp expect peeled &&
	# tag objects: every release tag is annotated
	awk "\$3 == \$4" $tl >light &&
	test_must_be_empty light &&
	git -C linux for-each-ref --format="%(refname:lstrip=2) %(objectname)" \
		refs/tags | sort >actual &&
	cut -d" " -f2,3 $tl linux/.git/stable-lookalikes | sort >expect &&
	test_cmp expect actual
'

test_expect_success 'the schedule' '
	wk () { stable_tree_week_of linux "$1"; } &&
	test $(wk v5.19-rc1) = 2 &&
	test $(wk v5.19) = 9 &&
	test $(wk v6.6-rc1) = $(($(wk v6.5) + 2)) &&
	test $(wk v6.6-rc7) = $(($(wk v6.6-rc1) + 6)) &&
	test $(wk v6.6) = $(($(wk v6.6-rc7) + 1)) &&
	test $(wk v6.6.1) = $(($(wk v6.6) + 1)) &&
	test $(wk v6.6.2) = $(($(wk v6.6.1) + 1)) &&
	# a normal series stops three weeks after the next final ...
	test $(wk v6.2.12) = $(($(wk v6.3) + 3)) &&
	test -z "$(wk v6.2.13)" &&
	# ... an LTS one goes on to the end
	test $(wk v5.19.85) = 94 &&
	test $(wk v6.6.22) = 94 &&
	test $(wk v6.8.4) = 94
'

test_expect_success 'dates are distinct, increasing and in many zones' '
	git -C linux log --all --format="%H %ct %at %P" >commits &&
	test_line_count = 1114 commits &&
	cut -d" " -f2 commits | sort | uniq -d >dups &&
	test_must_be_empty dups &&
	awk "{ ct[\$1] = \$2; line[NR] = \$0 }
	     END { for (i = 1; i <= NR; i++) {
			n = split(line[i], f, \" \")
			if (f[2] != f[3]) print \"author date differs:\", f[1]
			for (j = 4; j <= n; j++)
				if (ct[f[j]] >= f[2]) print \"not after parent:\", f[1]
	     } }" commits >bad &&
	test_must_be_empty bad &&
	git -C linux log --all --format="%ad%n%cd" --date=format:%z |
	sort -u >zones &&
	test_line_count -ge 4 zones &&
	git -C linux log --all --format="%an <%ae>%n%cn <%ce>" | sort -u >people &&
	grep "^Linus T <torvalds@example.org>\$" people &&
	grep "^Greg KH <gregkh@example.org>\$" people &&
	grep "^Stable Dev <stable@example.org>\$" people
'

test_expect_success 'replaying time' '
	git -C linux for-each-ref >all-refs &&
	week=$(stable_tree_week_of linux v6.6.4) &&
	stable_tree_replay linux $week &&
	git -C linux tag -l "v6.6.*" | grep -v -e -rc >tags &&
	test_line_count = 4 tags &&
	git -C linux for-each-ref --format="%(refname:lstrip=2) %(objectname)" \
		refs/tags | sort >actual &&
	awk -v w=$week "\$1 <= w { print \$2, \$3 }" \
		linux/.git/stable-timeline linux/.git/stable-lookalikes |
	sort >expect &&
	test_cmp expect actual &&
	stable_tree_replay linux 1 &&
	git -C linux tag >tags &&
	printf "next-20240101\nv5.5-test\nv6.6.4-rc1\n" >expect &&
	test_cmp expect tags &&
	stable_tree_replay linux $(stable_tree_weeks linux) &&
	git -C linux for-each-ref >actual &&
	test_cmp all-refs actual
'

test_expect_success 'generation is deterministic' '
	stable_tree_linux linux2 &&
	test_cmp linux/.git/stable-timeline linux2/.git/stable-timeline &&
	test_cmp linux/.git/stable-lookalikes linux2/.git/stable-lookalikes &&
	git -C linux rev-parse v6.6.1 master v6.6.y-queue >expect &&
	git -C linux2 rev-parse v6.6.1 master v6.6.y-queue >actual &&
	test_cmp expect actual
'

test_expect_success 'knobs: versions, LTS, lightweight tags, commits per week' '
	(
		STABLE_MAINLINE="6.5 6.6" STABLE_LTS= STABLE_LIGHTWEIGHT_TAGS=1 &&
		STABLE_COMMITS_PER_WEEK=1 STABLE_TAIL_WEEKS=5 &&
		stable_tree_linux small
	) &&
	git -C small fsck --strict --no-dangling &&
	test "$(stable_tree_weeks small)" = 23 &&
	test "$(git -C small cat-file -t v6.6.1)" = commit &&
	test "$(git -C small cat-file -t v6.6-rc1)" = commit &&
	awk "\$3 != \$4" small/.git/stable-timeline >annotated &&
	test_must_be_empty annotated &&
	# 6.5.y stops 3 weeks after v6.6, 6.6.y runs to the end
	git -C small tag -l "v6.5.*" >tags &&
	test_line_count = 12 tags &&
	git -C small tag -l "v6.6.*" | grep -v -e -rc >tags &&
	test_line_count = 5 tags &&
	# one commit a week plus root and 16 tag commits on master
	git -C small rev-list --count master >count &&
	echo 40 >expect &&
	test_cmp expect count &&
	git -C small rev-parse --verify -q "v5.5-test^{commit}" &&
	git -C small rev-parse --verify -q "v6.6.4-rc1^{commit}"
'

# --- lib-stable-tree.sh: systemd ----------------------------------------

test_expect_success 'generate the systemd-style tree' '
	stable_tree_systemd systemd &&
	git -C systemd fsck --strict --no-dangling 2>err &&
	test_must_be_empty err &&
	git -C systemd rev-parse v255 v255.2 v256-rc1 v256-rc3 v256 \
		refs/heads/v255-stable >/dev/null &&
	test_must_fail git -C systemd rev-parse --verify -q refs/tags/v255-stable &&
	test_must_fail git -C systemd rev-parse --verify -q v256-rc4 &&
	git -C systemd merge-base --is-ancestor v255 v255.2 &&
	git -C systemd merge-base --is-ancestor v255.2 v255-stable &&
	git -C systemd merge-base --is-ancestor v255 v256-rc1 &&
	test "$(git -C systemd cat-file -t v255.2)" = tag &&
	test "$(git -C systemd show v255.2:meson.version)" = 255.2 &&
	test "$(git -C systemd show v256-rc1:meson.version)" = "256~rc1" &&
	test "$(git -C systemd rev-parse systemd-255.3^{commit})" = \
	     "$(git -C systemd rev-parse v255.3^{commit})" &&
	git -C systemd rev-parse --verify -q "refs/tags/v255-test^{commit}" &&
	cut -d" " -f2 systemd/.git/stable-lookalikes >names &&
	printf "systemd-255.3\nv255-test\n" >expect &&
	test_cmp expect names &&
	test $(stable_tree_week_of systemd v256-rc1) = 17 &&
	test $(stable_tree_week_of systemd v256) = 20 &&
	test $(stable_tree_week_of systemd v255.8) = 23 &&
	test -z "$(stable_tree_week_of systemd v255.9)" &&
	sort -c -s -n -k1,1 systemd/.git/stable-timeline
'

test_done
