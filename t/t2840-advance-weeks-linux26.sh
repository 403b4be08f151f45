#!/bin/sh

test_description='the linux preset across 2.6.39 and 3.0

Before 3.0 a Linux series had three numbers: v2.6.38.4 is release 4 of
series 2.6.38, v2.6.39 and v2.6.39-rc1 are mainline.  A generated tree
from 2.6.37 to 3.2 is replayed week by week as in t2100, so that the
branch crosses from the three-number era to the two-number one.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

test_expect_success 'setup: a stable tree from 2.6.37 to 3.2' '
	STABLE_MAINLINE="2.6.37 2.6.38 2.6.39 3.0 3.1 3.2" STABLE_LTS="2.6.38" \
		stable_tree_linux tree &&
	git -C tree tag -l "v2.6.38.*" >tags &&
	test_line_count -gt 10 tags &&
	git -C tree show v2.6.38.3:Makefile >makefile &&
	grep -x "SUBLEVEL = 38" makefile &&
	grep -x "EXTRAVERSION =.3" makefile
'

scheme_week_tests linux linux 4

test_expect_success 'series of three numbers in --lts, --pin and --series' '
	cd tree &&
	git rolling init -q --lts --series "2.6.37 2.6.38" lts &&
	newest=$(git tag -l "v2.6.38.*" | sort -V | tail -n 1) &&
	test "$(git rev-parse lts)" = "$(git rev-parse "$newest^{commit}")" &&
	git rolling init -q --pin 2.6.39 --at v2.6.39.1 pinned &&
	git rolling advance pinned >out &&
	newest=$(git tag -l "v2.6.39.*" | sort -V | tail -n 1) &&
	grep "^pinned: v2.6.39.1 -> $newest " out &&
	git rolling advance --series 3.0 pinned >out &&
	grep ", series 2.6.39 -> 3.0$" out &&
	test_expect_code 128 git rolling init --pin 2 p2 2>err &&
	grep "^fatal: rolling.p2.pin: .2. is not a series of the form <major>.<minor> or <major>.<minor>.<sub>" err
'

test_done
