#!/bin/sh

test_description='describe and bisect-helper: tag patterns describe the --branch

Both commands read a branch given with --branch; --preset and the
pattern options say how that branch'"'"'s tags are named.  Without
--branch they describe nothing, and both commands refuse them with the
same message, before changing anything; with --branch they are used.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

# snapshot FILE: what either command could change.
snapshot () {
	{
		git for-each-ref &&
		git config --list --local &&
		ls -a "$(git rev-parse --git-dir)"
	} >"$1"
}

NEEDS_BRANCH="^fatal: --preset and the patterns describe a branch given with --branch$"

test_expect_success 'setup: a rolling branch and its tags' '
	STABLE_MAINLINE="6.0 6.1" STABLE_LTS="" stable_tree_linux tree &&
	cd tree &&
	git rolling init -q --at v6.0.1 rolling &&
	git rolling advance -q &&
	git branch unmanaged rolling
'

for scheme in "--preset linux" \
	"--release-pattern ^v(?<major>6)\.(?<minor>[0-9]+)\.(?<patch>[1-9][0-9]*)$ --mainline-pattern ^v(?<major>6)\.(?<minor>[0-9]+)$"
do
	test_expect_success "describe refuses $scheme without --branch" '
		cd tree &&
		snapshot ../before &&
		test_expect_code 128 git rolling describe $scheme v6.0.1 2>err &&
		grep "$NEEDS_BRANCH" err &&
		test_line_count = 1 err &&
		snapshot ../after &&
		test_cmp ../before ../after
	'

	test_expect_success "bisect-helper refuses $scheme without --branch" '
		cd tree &&
		snapshot ../before &&
		test_expect_code 128 git rolling bisect-helper steps $scheme 2>err &&
		grep "$NEEDS_BRANCH" err &&
		test_line_count = 1 err &&
		test_expect_code 128 git rolling bisect-helper start $scheme \
			rolling rolling~1 2>err &&
		grep "$NEEDS_BRANCH" err &&
		snapshot ../after &&
		test_cmp ../before ../after
	'
done

test_expect_success 'with --branch the preset reads an unmanaged branch' '
	cd tree &&
	git rolling describe --branch unmanaged --preset linux v6.0.1 >out &&
	grep "^first in unmanaged at v6.0.1 (base " out &&
	git rolling bisect-helper steps --branch unmanaged --preset linux >out &&
	git rev-list --first-parent v6.0.1..unmanaged >expect.ids &&
	cut -d" " -f1 out | sort >actual.ids &&
	sort expect.ids >expect.sorted &&
	test_cmp expect.sorted actual.ids
'

test_expect_success 'a lone pattern is refused as before, for both' '
	cd tree &&
	test_expect_code 128 git rolling describe --release-pattern "^v(?<major>6)$" v6.0.1 2>err &&
	grep "^fatal: --mainline-pattern is needed too (or --preset)$" err &&
	test_expect_code 128 git rolling bisect-helper steps --branch unmanaged \
		--mainline-pattern "^v(?<major>6)$" 2>err &&
	grep "^fatal: --release-pattern is needed too (or --preset)$" err
'

test_done
