#!/bin/sh

test_description='branch and tag names longer than any fixed buffer

A branch name of 1,012 bytes (refs/heads/ and it: 1,023, the most
libgit2 1.5 takes, while git takes any length) and release tags of 270
bytes go through init, advance of a branch checked out or not, the
recovery of a killed advance and the reflog, whole: nothing is cut.  A
longer branch name is refused, saying why, and nothing changes; a
TMPDIR too long for the file system gets its error, not a cut path.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# repeat <n> <char>: <n> copies of <char>.
repeat () {
	printf "%$1s" "" | tr " " "$2"
}

# name <n>: a branch name of <n> bytes, a slash every 201st.
name () {
	repeat "$1" b | sed "s/\(.\{200\}\)./\1\//g"
}

LONG=$(name 1012)
TOO_LONG=$(name 1013)
# A directory of 250 bytes before each release tag: 270 bytes and more.
TAGDIR=long/$(repeat 250 t)

# long_tags: a lightweight $TAGDIR/<tag> beside every v6.* tag that has
# none yet (one for-each-ref, one update-ref, whatever the number).
long_tags () {
	git for-each-ref --format="%(refname:strip=2) %(*objectname) %(objectname)" \
		"refs/tags/v6.*" "refs/tags/$TAGDIR/" >long-tags.all &&
	awk -v dir="$TAGDIR/" '
		index($1, dir) == 1 { have[substr($1, length(dir) + 1)] = 1; next }
		{ tags[++n] = $1; commit[$1] = $2 != "" ? $2 : $3 }
		END {
			for (i = 1; i <= n; i++)
				if (!(tags[i] in have))
					print "create refs/tags/" dir tags[i] " " commit[tags[i]]
		}
	' long-tags.all >long-tags.new &&
	git update-ref --stdin <long-tags.new
}

test_expect_success 'setup: stable tree at week 40' '
	stable_tree_linux tree &&
	stable_tree_replay tree 40 &&
	git -C tree tag -l "v6.2.*" | sort -V | tail -n 1 >newest-6.2 &&
	test -s newest-6.2 &&
	test $(printf "%s" "refs/heads/$LONG" | wc -c) = 1023
'

# snapshot: what init could change.
snapshot () {
	git -C tree for-each-ref >"$1" &&
	git -C tree config --list --local >>"$1"
}

test_expect_success 'a name past what libgit2 takes is refused, saying why' '
	snapshot before &&
	test_expect_code 128 git -C tree rolling init -q "$TOO_LONG" 2>err &&
	echo "fatal: branch name too long (1013 bytes): libgit2 takes ref names of at most 1023 bytes, refs/heads/ included" >expect &&
	test_cmp expect err &&
	test_expect_code 128 git -C tree rolling init -q "$(name 5000)" 2>err &&
	grep "^fatal: branch name too long (5000 bytes)" err &&
	snapshot after &&
	test_cmp before after
'

test_expect_success 'init --follow: a name past what libgit2 takes is refused, nothing written' '
	git -C tree remote add origin "file://$TRASH_DIRECTORY/nowhere.git" &&
	test_when_finished "git -C tree remote remove origin" &&
	snapshot before &&
	# refs/rolling/verified/origin/<name>: 29 bytes and the name.
	test_expect_code 128 git -C tree rolling init -q --follow "origin/$(name 995)" 2>err &&
	echo "fatal: branch name too long (995 bytes): following it makes the ref refs/rolling/verified/origin/<branch> of 1024 bytes, and libgit2 takes ref names of at most 1023 bytes" >expect &&
	test_cmp expect err &&
	test_expect_code 128 git -C tree rolling init -q --follow "origin/$(name 100000)" 2>err &&
	grep "^fatal: branch name too long (100000 bytes): " err &&
	test $(wc -c <err) -lt 400 &&
	snapshot after &&
	test_cmp before after &&
	git -C tree rolling init -q --follow "origin/$(name 994)" --preset linux &&
	git -C tree config --get-all rolling.remote.origin.branches >actual &&
	echo "$(name 994)" >expect &&
	test_cmp expect actual &&
	git -C tree config --remove-section rolling.remote.origin
'

test_expect_success 'init creates the branch under its whole name' '
	git -C tree for-each-ref --format="%(refname)" refs/heads >before &&
	git -C tree rolling init -q --preset linux --stable "$LONG" &&
	git -C tree for-each-ref --format="%(refname)" refs/heads >after &&
	{ cat before && echo "refs/heads/$LONG"; } | sort >expect &&
	sort after >actual &&
	test_cmp expect actual &&
	test "$(git -C tree rev-parse "refs/heads/$LONG")" = \
	     "$(git -C tree rev-parse "$(cat newest-6.2)^{commit}")" &&
	git -C tree config "rolling.$LONG.policy" >policy &&
	echo stable >expect &&
	test_cmp expect policy
'

test_expect_success 'advance moves it, and says so in its reflog' '
	stable_tree_replay tree 42 &&
	target=$(git -C tree tag -l "v6.2.*" | sort -V | tail -n 1) &&
	git -C tree rolling advance -q "$LONG" &&
	(cd tree && test "$(check_rolling_merge "refs/heads/$LONG")" = "$target") &&
	git -C tree reflog show -1 --format=%gs "refs/heads/$LONG" >actual &&
	echo "rolling: merge $target" >expect &&
	test_cmp expect actual
'

test_expect_success 'advance of it checked out: work tree, index and branch agree' '
	git -C tree checkout -q "$LONG" &&
	stable_tree_replay tree 44 &&
	target=$(git -C tree tag -l "v6.2.*" | sort -V | tail -n 1) &&
	git -C tree rolling advance -q &&
	(cd tree && test "$(check_rolling_merge HEAD)" = "$target") &&
	git -C tree diff --quiet HEAD &&
	git -C tree diff --cached --quiet HEAD &&
	test_path_is_missing tree/.git/ROLLING_ADVANCE
'

test_expect_success 'a killed advance of it checked out is finished by the next' '
	stable_tree_replay tree 46 &&
	target=$(git -C tree tag -l "v6.2.*" | sort -V | tail -n 1) &&
	(
		cd tree &&
		test_expect_code 137 env LD_PRELOAD="$TEST_SEAM" \
			GIT_ROLLING_TEST_BEFORE_UPDATE="kill -9 \$GIT_ROLLING_PID \$PPID" git rolling advance -q &&
		test_path_is_file .git/ROLLING_ADVANCE &&
		git rolling advance -q &&
		test "$(check_rolling_merge HEAD)" = "$target" &&
		git diff --quiet HEAD &&
		test_path_is_missing .git/index.lock &&
		test_path_is_missing .git/ROLLING_ADVANCE
	)
'

test_expect_success 'a long short name that is a tag and a branch is ambiguous' '
	amb=$(name 950) &&
	git -C tree branch "$amb" "refs/heads/$LONG" &&
	git -C tree tag "$amb" "refs/heads/$LONG~1" &&
	test_when_finished "git -C tree tag -d \"\$amb\" && git -C tree branch -D \"\$amb\"" &&
	test_expect_code 128 git -C tree rolling verify "$amb" >out 2>err &&
	test_must_be_empty out &&
	echo "fatal: refname '\''$amb'\'' is ambiguous: refs/tags/$amb, refs/heads/$amb; name one in full" >expect &&
	test_cmp expect err
'

test_expect_success 'setup: release tags of 270 bytes, a branch following them' '
	git -C tree checkout -q --detach &&
	(cd tree && long_tags) &&
	git -C tree rolling init -q --stable \
		--release-pattern "$TAGDIR/v(?<major>\d+)\.(?<minor>\d+)\.(?<patch>[1-9]\d*)" \
		--mainline-pattern "$TAGDIR/v(?<major>\d+)\.(?<minor>\d+)(?:-rc(?<rc>[1-9]\d*))?" \
		long-tags &&
	git -C tree tag --points-at long-tags -l "$TAGDIR/*" >start &&
	test_line_count = 1 start
'

test_expect_success 'init records the whole tag name in the reflog' '
	git -C tree reflog show -1 --format=%gs long-tags >actual &&
	echo "rolling: created at $(cat start)" >expect &&
	test_cmp expect actual
'

test_expect_success 'advance merges them and records their whole names' '
	stable_tree_replay tree 48 &&
	(cd tree && long_tags) &&
	git -C tree rolling advance -q long-tags &&
	target=$(cd tree && check_rolling_merge long-tags) &&
	test "$target" != "$(cat start)" &&
	test "${target#$TAGDIR/v}" != "$target" &&
	test $(printf "%s" "rolling: merge $target" | wc -c) -gt 256 &&
	git -C tree reflog show -1 --format=%gs long-tags >actual &&
	if test "$(test_ref_format tree)" = reftable
	then
		# one line for the run, its steps joined (gitrolling(7)): the last
		sed "s/^rolling: merge .*, merge /rolling: merge /" actual >last-step
	else
		cp actual last-step
	fi &&
	echo "rolling: merge $target" >expect &&
	test_cmp expect last-step
'

test_expect_success !UNDER_VALGRIND 'a TMPDIR past PATH_MAX: the error is the file system'\''s' '
	# git -c settings go through a temporary file (lib/cmdline-config.c),
	# whose path was cut to 4,096 bytes, cutting its XXXXXX too.
	long_tmp=$TRASH_DIRECTORY/$(name 5000) &&
	test_expect_code 128 env TMPDIR="$long_tmp" \
		git -C tree -c rolling.other.policy=stable rolling status 2>err &&
	echo "fatal: cannot create a temporary file in $long_tmp: File name too long" >expect &&
	test_cmp expect err
'

test_done
