#!/bin/sh

test_description='tag patterns and version numbers

The presets must recognise releases and mainline tags and nothing else;
custom patterns must have the named groups; numbers must fit.
'
. "$(dirname "$0")"/test-lib.sh

test_expect_success 'linux preset: releases, mainline and look-alikes' '
	test-rolling classify linux v6.6.4 v6.6.10 v6.7 v6.8-rc1 v5.19.120 \
		v5.5-test next-20240101 v6.6.y-queue v6.6.4-rc1 v6.6 v6.06.1 \
		v6.6.0 6.6.4 v6.6.4.1 v2.6.32.1 "v6.6.4 " V6.6.4 >actual &&
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
	v2.6.32.1: other
	v6.6.4 : other
	V6.6.4: other
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
	test-rolling series 1 6.6 5.10 6 6.x 6.6.1 99999999999.1 "" >actual &&
	cat >expect <<-\EOF &&
	6.6
	5.10
	error: series: '\''6'\'' is not a series of the form <major>.<minor>
	error: series: '\''6.x'\'' is not a valid series (decimal numbers of at most 32 bits)
	error: series: '\''6.6.1'\'' is not a valid series (decimal numbers of at most 32 bits)
	error: series: '\''99999999999.1'\'' is not a valid series (decimal numbers of at most 32 bits)
	error: series: '\'''\'' is not a series of the form <major>.<minor>
	EOF
	test_cmp expect actual &&
	test-rolling series 0 255 255.1 >actual &&
	cat >expect <<-\EOF &&
	255
	error: series: '\''255.1'\'' is not a series of the form <major>
	EOF
	test_cmp expect actual
'

test_done
