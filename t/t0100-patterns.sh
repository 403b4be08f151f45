#!/bin/sh

test_description='tag patterns and version numbers

The presets must recognise releases and mainline tags and nothing else;
custom patterns must have the named groups; numbers must fit.
'
. "$(dirname "$0")"/test-lib.sh

test_expect_success 'linux preset: releases, mainline and look-alikes' '
	test-rolling classify linux v6.6.4 v6.6.10 v6.7 v6.8-rc1 v5.19.120 \
		v5.5-test next-20240101 v6.6.y-queue v6.6.4-rc1 v6.6 v6.06.1 \
		v6.6.0 6.6.4 v6.6.4.1 v2.6.32.1 "v6.6.4 " V6.6.4 \
		v2.6.32 v2.6.33-rc2 v2.6.11-tree v2.6 v2.6.32.0 v2.4.37.1 v3.0 v3.0.1 >actual &&
	cat >expect <<-\EOF &&
	v6.6.4: release 6.6 patch 4
	v6.6.10: release 6.6 patch 10
	v6.7: mainline 6.7
	v6.8-rc1: mainline 6.8 rc 1
	v5.19.120: release 5.19 patch 120
	v5.5-test: other
	next-20240101: other
	v6.6.y-queue: other
	v6.6.4-rc1: other
	v6.6: mainline 6.6
	v6.06.1: other
	v6.6.0: other
	6.6.4: other
	v6.6.4.1: other
	v2.6.32.1: release 2.6.32 patch 1
	v6.6.4 : other
	V6.6.4: other
	v2.6.32: mainline 2.6.32
	v2.6.33-rc2: mainline 2.6.33 rc 2
	v2.6.11-tree: other
	v2.6: other
	v2.6.32.0: other
	v2.4.37.1: other
	v3.0: mainline 3.0
	v3.0.1: release 3.0 patch 1
	EOF
	test_cmp expect actual
'

test_expect_success 'systemd preset: releases, mainline and look-alikes' '
	test-rolling classify systemd v255.4 v256 v256-rc1 v255-stable \
		v255-test systemd-255.3 v255.4-rc1 v0.1 >actual &&
	cat >expect <<-\EOF &&
	v255.4: release 255 patch 4
	v256: mainline 256
	v256-rc1: mainline 256 rc 1
	v255-stable: other
	v255-test: other
	systemd-255.3: other
	v255.4-rc1: other
	v0.1: other
	EOF
	test_cmp expect actual
'

# Tag names as the projects' own repositories have them (git.git,
# qemu.git, cpython, postgresql.git): see gitrolling(7), PRESETS.  Their
# stable branches start at a series' first release (v2.44.0, REL_17_0),
# which the release pattern reads as patch 0; mainline has the
# pre-releases.
test_expect_success 'git preset: maintenance releases, rc0, and the 1.x era' '
	test-rolling classify git v2.43.1 v2.44.0 v2.44.0-rc0 v2.44.0-rc2 v1.9.5 v1.9.0 \
		v1.8.5.6 v1.8.5 v1.8.5-rc3 v1.8.0 v1.0.0a v2.44 v2.43.1-rc0 v2.44.0.1 \
		gitgui-0.19.0 >actual &&
	cat >expect <<-\EOF &&
	v2.43.1: release 2.43 patch 1
	v2.44.0: release 2.44 patch 0
	v2.44.0-rc0: mainline 2.44 rc 0
	v2.44.0-rc2: mainline 2.44 rc 2
	v1.9.5: release 1.9 patch 5
	v1.9.0: release 1.9 patch 0
	v1.8.5.6: release 1.8.5 patch 6
	v1.8.5: release 1.8.5 patch 0
	v1.8.5-rc3: mainline 1.8.5 rc 3
	v1.8.0: release 1.8.0 patch 0
	v1.0.0a: other
	v2.44: other
	v2.43.1-rc0: other
	v2.44.0.1: other
	gitgui-0.19.0: other
	EOF
	test_cmp expect actual
'

test_expect_success 'qemu preset: stable releases and rc0' '
	test-rolling classify qemu v8.1.3 v8.2.0 v8.2.0-rc0 v8.2.0-rc4 v0.15.1 v2.5.1.1 \
		v8.2 v8.2.1-rc0 >actual &&
	cat >expect <<-\EOF &&
	v8.1.3: release 8.1 patch 3
	v8.2.0: release 8.2 patch 0
	v8.2.0-rc0: mainline 8.2 rc 0
	v8.2.0-rc4: mainline 8.2 rc 4
	v0.15.1: release 0.15 patch 1
	v2.5.1.1: other
	v8.2: other
	v8.2.1-rc0: other
	EOF
	test_cmp expect actual
'

test_expect_success 'python preset: alphas, betas and candidates are mainline' '
	test-rolling classify python v3.12.1 v3.13.0 v3.13.0a1 v3.13.0b3 v3.13.0rc2 \
		v2.7 v2.7rc1 v3.5.3rc1 v3.13.0-rc1 v3.13.0c1 3.12 >actual &&
	cat >expect <<-\EOF &&
	v3.12.1: release 3.12 patch 1
	v3.13.0: release 3.13 patch 0
	v3.13.0a1: mainline 3.13 rc 1
	v3.13.0b3: mainline 3.13 rc 3
	v3.13.0rc2: mainline 3.13 rc 2
	v2.7: release 2.7 patch 0
	v2.7rc1: mainline 2.7 rc 1
	v3.5.3rc1: other
	v3.13.0-rc1: other
	v3.13.0c1: other
	3.12: other
	EOF
	test_cmp expect actual
'

test_expect_success 'postgresql preset: one-number series from 10, two before' '
	test-rolling classify postgresql REL_16_1 REL_17_0 REL_17_BETA1 REL_17_RC1 \
		REL9_6_24 REL9_6_0 REL9_6_BETA2 REL9_6_RC1 REL_16_STABLE REL_9_6_1 \
		REL10_1 REL_16_01 REL2_0 >actual &&
	cat >expect <<-\EOF &&
	REL_16_1: release 16 patch 1
	REL_17_0: release 17 patch 0
	REL_17_BETA1: mainline 17 rc 1
	REL_17_RC1: mainline 17 rc 1
	REL9_6_24: release 9.6 patch 24
	REL9_6_0: release 9.6 patch 0
	REL9_6_BETA2: mainline 9.6 rc 2
	REL9_6_RC1: mainline 9.6 rc 1
	REL_16_STABLE: other
	REL_9_6_1: other
	REL10_1: other
	REL_16_01: other
	REL2_0: other
	EOF
	test_cmp expect actual
'

test_expect_success 'no preset tag matches both of its patterns' '
	git rolling init --list-presets >list &&
	test $(wc -l <list) -ge 6 &&
	for preset in $(sed "s/ .*//" list)
	do
		git rolling init --list-presets | grep "^$preset " |
		sed -e "s/.*release \([^ ,]*\).*mainline \([^ ,]*\).*/\1 \2/" |
		tr " " "\n" >examples &&
		test-rolling classify $preset $(cat examples) >actual &&
		sed -n 1p actual | grep ": release " &&
		sed -n 2p actual | grep ": mainline " || return 1
	done
'

test_expect_success 'numbers too large for 32 bits are errors, not wrapped' '
	test-rolling classify linux v4294967295.1.1 v4294967296.1.1 v6.6.99999999999 >actual &&
	cat >expect <<-\EOF &&
	v4294967295.1.1: release 4294967295.1 patch 1
	v4294967296.1.1: error: tag '\''v4294967296.1.1'\'': major number is not a decimal number of at most 32 bits
	v6.6.99999999999: error: tag '\''v6.6.99999999999'\'': patch number is not a decimal number of at most 32 bits
	EOF
	test_cmp expect actual
'

test_expect_success 'custom patterns match whole tag names only' '
	test-rolling classify-re "rel-(?<major>\d+)\.(?<minor>\d+)\.(?<patch>\d+)" \
		"rel-(?<major>\d+)\.(?<minor>\d+)" rel-1.2.3 xrel-1.2.3 rel-1.2.3x rel-1.3 >actual &&
	cat >expect <<-\EOF &&
	rel-1.2.3: release 1.2 patch 3
	xrel-1.2.3: other
	rel-1.2.3x: other
	rel-1.3: mainline 1.3
	EOF
	test_cmp expect actual
'

test_expect_success 'invalid patterns are reported with the offset' '
	test_expect_code 1 test-rolling classify-re "v(?<major>\d+" "v(?<major>\d+)" v1 >actual &&
	echo "error: release: missing closing parenthesis at offset 13" >expect &&
	test_cmp expect actual
'

test_expect_success 'patterns must have the named groups' '
	test_expect_code 1 test-rolling classify-re "v(\d+)\.(\d+)" "v(?<major>\d+)" >actual &&
	grep -F "needs named groups (?<major>...) and (?<patch>...)" actual &&
	test_expect_code 1 test-rolling classify-re "v(?<major>\d+)\.(?<minor>\d+)\.(?<patch>\d+)" "v(?<major>\d+)" >actual &&
	grep -F "(?<minor>...) must be in both patterns or in neither" actual &&
	test_expect_code 1 test-rolling classify-re "v(?<major>\d+)\.(?<patch>\d+)" "(\d+)" >actual &&
	grep -F "mainline: needs a named group (?<major>...)" actual
'

test_expect_success 'series are parsed strictly' '
	test-rolling series 2 6.6 5.10 6 6.x 6.6.1 99999999999.1 "" >actual &&
	cat >expect <<-\EOF &&
	6.6
	5.10
	error: series: '\''6'\'' is not a series of the form <major>.<minor>
	error: series: '\''6.x'\'' is not a valid series (decimal numbers of at most 32 bits)
	error: series: '\''6.6.1'\'' is not a series of the form <major>.<minor>
	error: series: '\''99999999999.1'\'' is not a valid series (decimal numbers of at most 32 bits)
	error: series: '\'''\'' is not a series of the form <major>.<minor>
	EOF
	test_cmp expect actual &&
	test-rolling series 1 255 255.1 >actual &&
	cat >expect <<-\EOF &&
	255
	error: series: '\''255.1'\'' is not a series of the form <major>
	EOF
	test_cmp expect actual &&
	test-rolling series 123 16 9.6 2.6.32 2.6.32.1 >actual &&
	cat >expect <<-\EOF &&
	16
	9.6
	2.6.32
	error: series: '\''2.6.32.1'\'' is not a series of the form <major> or <major>.<minor> or <major>.<minor>.<sub>
	EOF
	test_cmp expect actual
'

test_expect_success 'a name on groups in alternatives: the one that matched counts' '
	test-rolling classify-re \
		"(?:old-(?<major>\d+)\.(?<minor>\d+)|new-(?<major>\d+))-(?<patch>\d+)" \
		"(?:old-(?<major>\d+)\.(?<minor>\d+)|new-(?<major>\d+))" \
		old-9.6-3 new-16-2 new-16 old-9.6 >actual &&
	cat >expect <<-\EOF &&
	old-9.6-3: release 9.6 patch 3
	new-16-2: release 16 patch 2
	new-16: mainline 16
	old-9.6: mainline 9.6
	EOF
	test_cmp expect actual &&
	test_expect_code 1 test-rolling classify-re "v(?<major>\d+)\.(?<sub>\d+)\.(?<patch>\d+)" \
		"v(?<major>\d+)" >actual &&
	grep -F "release: (?<sub>...) needs (?<minor>...)" actual
'

test_done
