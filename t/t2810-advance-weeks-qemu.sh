#!/bin/sh

test_description='the qemu preset, week by week

QEMU makes stable releases v8.1.3 of v8.1.0 (candidates from rc0); 0.x
and 1.x have the same numbering.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh
. "$TEST_DIRECTORY"/lib-rolling-schemes.sh

preset_week_tests qemu 3

test_done
