#!/bin/sh

test_description='rolling branches for systemd-style tags

systemd releases v255.1, v255.2, ... from v255-stable and tags mainline
v256-rc1 ... v256: series have one number.  A generated tree is replayed
week by week and the branch checked against an oracle written with sort.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

# The stable policy for one-number series.
expected_systemd_target () {
	git tag -l "v*" >tags.all &&
	newest_mainline=$(sed -n "s/^v\([1-9][0-9]*\)\(-rc[1-9][0-9]*\)\{0,1\}$/\1/p" tags.all |
		sort -n | tail -n 1) &&
	sed -n "s/^v\([1-9][0-9]*\)\.\([1-9][0-9]*\)$/\1 \2/p" tags.all |
		awk -v limit="$newest_mainline" "\$1 < limit" | sort -n -k1,1 -k2,2 |
		tail -n 1 | sed "s/^\([0-9]*\) \([0-9]*\)$/v\1.\2/"
}

test_expect_success 'setup' '
	stable_tree_systemd tree &&
	cd tree &&
	stable_tree_replay . $(stable_tree_week_of . v254-rc1) &&
	git rolling init --preset systemd rolling >../out &&
	grep "^policy stable follows 253$" ../out &&
	grep "^  253 *newest v253\.[0-9]*$" ../out &&
	test "$(git config rolling.rolling.releasePattern)" = \
		"v(?<major>[1-9][0-9]*)\.(?<patch>[1-9][0-9]*)"
'

test_expect_success 'look-alikes are ignored' '
	cd tree &&
	git tag -l >tags &&
	grep -x v255-test tags &&
	grep -x systemd-255.3 tags &&
	git rolling init -q --preset systemd --at v253.1 probe &&
	test_expect_code 128 git rolling init --preset systemd --at systemd-255.3 probe2 2>err &&
	grep "is not a release tag" err &&
	test_expect_code 128 git rolling init --preset systemd --at v255-test probe2
'

test_expect_success 'week by week the branch follows the stable policy' '
	cd tree &&
	week=$(($(stable_tree_week_of . v254-rc1) + 1)) &&
	last=$(stable_tree_weeks .) &&
	while test $week -le $last
	do
		stable_tree_replay . $week &&
		old=$(git rev-parse rolling) &&
		git rolling advance rolling >out &&
		{ grep ", series" out >>../switches || :; } &&
		expected=$(expected_systemd_target) &&
		test "$(git rev-parse rolling^{tree})" = "$(git rev-parse $expected^{tree})" &&
		if test "$old" != "$(git rev-parse rolling)"
		then
			git merge-base --is-ancestor "$old" rolling &&
			test "$(check_rolling_merge rolling)" = "$expected" &&
			recipe_reproduces "$old" rolling
		fi || { echo "week $week"; cat out; return 1; }
		week=$((week + 1))
	done
'

test_expect_success 'series switches are reported with one-number series' '
	grep "^rolling: v253\.[0-9]* -> v254\.[0-9]* (.*), series 253 -> 254$" switches &&
	grep "^rolling: v255\.[0-9]* -> v256\.[0-9]* (.*), series 255 -> 256$" switches
'

test_expect_success 'lts and --series with one-number series' '
	cd tree &&
	git rolling init -q --preset systemd --lts --series "254 256" lts &&
	test "$(git rev-parse lts)" = "$(git rev-parse $(git tag -l "v256.*" | sort -V | tail -n 1)^{commit})" &&
	test_expect_code 128 git rolling init --preset systemd --lts --series "254.1" bad 2>err &&
	grep "^fatal: rolling.bad.series: .254.1. is not a series of the form <major>$" err &&
	test_expect_code 128 git rolling init --preset systemd --lts bad 2>err &&
	grep "^fatal: rolling.bad.series is empty: the lts policy needs the long-term series$" err
'

test_expect_success 'fsck' '
	cd tree &&
	git fsck --strict --no-dangling
'

test_done
