#!/bin/sh

test_description='a custom pattern that backtracks catastrophically is bounded

Tag names come from whoever publishes the repository.  A release pattern
such as v...(-(a|aa)*b)? takes exponential time on a name of many a'"'"'s
without a b.  Each match is bounded (PCRE2 match and depth limits) and
so is the whole scan of the tags: init, verify, status and fetch stop
with a fatal error that names the pattern and leave nothing behind,
while the presets read the same tags as before.  No timing is asserted:
without the bounds these commands run for minutes, which the test
suite'"'"'s own time would show.
'
. "$(dirname "$0")"/test-lib.sh

RELEASE='v(?<major>\d+)\.(?<patch>\d+)(-(a|aa)*b)?'
MAINLINE='v(?<major>\d+)'
KEY="rolling.rs.releasePattern '$RELEASE'"

# tags DIR COUNT AS: COUNT tags v1.<i>-<AS> on DIR's HEAD, in one go.
tags () {
	tg_head=$(git -C "$1" rev-parse HEAD) &&
	for tg_i in $(seq 1 $2)
	do
		echo "create refs/tags/v1.$tg_i-$3 $tg_head" || return 1
	done | git -C "$1" update-ref --stdin
}

# The repository's refs and configuration, to show that nothing changed.
snapshot () {
	git -C "$1" for-each-ref --format="%(objectname) %(refname)" >"$2" &&
	git -C "$1" config --list --local >>"$2"
}

test_expect_success 'setup: releases, and 300 names that make the pattern backtrack' '
	git init -q repo &&
	test_commit -C repo one &&
	git -C repo tag v1.0 &&
	test_commit -C repo two &&
	git -C repo tag v1.1 &&
	git -C repo tag v2 &&
	test_commit -C repo three &&
	git -C repo tag v1.2 &&
	tags repo 300 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa &&
	git -C repo tag -l "v1.*-a*" >names &&
	test_line_count = 300 names
'

test_expect_success 'the pattern itself is sound: it reads the releases' '
	git init -q small &&
	test_commit -C small one &&
	git -C small tag v1.0 &&
	git -C small tag v1.1-aab &&
	git -C small tag v2 &&
	git -C small rolling init -q --release-pattern "$RELEASE" --mainline-pattern "$MAINLINE" rs &&
	git -C small rolling status rs >out &&
	grep "^  tip: v1.1-aab " out
'

test_expect_success 'init: one name past the match limit is fatal, names the pattern, creates nothing' '
	snapshot repo before &&
	test_expect_code 128 git -C repo rolling init --release-pattern "$RELEASE" \
		--mainline-pattern "$MAINLINE" rs >out 2>err &&
	test_must_be_empty out &&
	grep -F "fatal: $KEY: matching the tag '"'"'v1." err &&
	grep -F "takes more than 1000000 steps (PCRE2 match limit); the pattern backtracks too much, simplify it" err &&
	test_line_count = 1 err &&
	snapshot repo after &&
	test_cmp before after
'

test_expect_success 'verify, status: the same pattern in the configuration' '
	git -C repo branch rs v1.2 &&
	git -C repo config rolling.rs.releasePattern "$RELEASE" &&
	git -C repo config rolling.rs.mainlinePattern "$MAINLINE" &&
	git -C repo config rolling.rs.policy stable &&
	test_expect_code 128 git -C repo rolling verify rs 2>err &&
	grep -F "fatal: $KEY: matching the tag" err &&
	test_expect_code 128 git -C repo rolling status rs 2>err &&
	grep -F "fatal: $KEY: matching the tag" err &&
	test_expect_code 128 git -C repo rolling verify --release-pattern "$RELEASE" \
		--mainline-pattern "$MAINLINE" v1.2 2>err &&
	grep -F "'"'"'$RELEASE'"'"': matching the tag" err
'

test_expect_success 'the whole scan is bounded: many names each a little costly' '
	git init -q many &&
	test_commit -C many one &&
	git -C many tag v1.0 &&
	git -C many tag v2 &&
	tags many 150 aaaaaaaaaaaaaaaaaaaaaa &&
	snapshot many before &&
	test_expect_code 128 git -C many rolling init --release-pattern "$RELEASE" \
		--mainline-pattern "$MAINLINE" rs 2>err &&
	grep -F "fatal: $KEY: more than 100 tag names each need more than 10000 steps to match; the pattern backtracks too much, simplify it" err &&
	snapshot many after &&
	test_cmp before after
'

test_expect_success 'the presets read the same tags as before' '
	git -C repo rolling verify --preset systemd v1.2 >out 2>err &&
	grep "verified" out &&
	git -C repo rolling init -q --preset systemd --at v1.1 sv &&
	test "$(git -C repo rev-parse sv)" = "$(git -C repo rev-parse v1.1^{commit})"
'

test_expect_success 'fetch: a server that publishes such names is refused, nothing kept' '
	git init -q --bare server.git &&
	git -C repo push -q "$TRASH_DIRECTORY/server.git" "refs/tags/*:refs/tags/*" rs:rs &&
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init -q --follow origin/rs --release-pattern "$RELEASE" \
		--mainline-pattern "$MAINLINE" &&
	snapshot consumer before &&
	test_expect_code 128 git -C consumer rolling fetch origin >out 2>err &&
	grep -F "takes more than 1000000 steps (PCRE2 match limit); the pattern backtracks too much, simplify it" err &&
	grep -F "fatal: rolling.remote.origin.releasePattern '"'"'$RELEASE'"'"': " err &&
	snapshot consumer after &&
	test_cmp before after &&
	! ls -d consumer/.git/objects/rolling-incoming-* 2>/dev/null
'

test_done
