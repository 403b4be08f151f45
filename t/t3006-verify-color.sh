#!/bin/sh

test_description='verify colors its verdict as git colors its output'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh

test_expect_success 'setup: a verified and a tampered branch' '
	stable_tree_linux tree &&
	cd tree &&
	stable_tree_replay . 40 &&
	git rolling init -q --at v6.2.1 good &&
	git rolling advance -q good &&
	git branch bad good &&
	git update-ref refs/heads/bad $(git commit-tree -p bad -m injected bad^{tree})
'

test_expect_success 'no color on a pipe by default' '
	cd tree &&
	git rolling verify good >out &&
	grep "^good: verified$" out
'

test_expect_success 'color.ui=always: green verified, red FAILED' '
	cd tree &&
	git -c color.ui=always rolling verify good >out &&
	grep "^good: $(printf "\033\\[32m")verified$(printf "\033\\[m")$" out &&
	test_expect_code 1 git -c color.ui=always rolling verify bad >out 2>/dev/null &&
	grep "^bad: $(printf "\033\\[31m")FAILED$(printf "\033\\[m") (" out
'

test_expect_success 'color.rolling=never wins over color.ui=always' '
	cd tree &&
	git -c color.ui=always -c color.rolling=never rolling verify good >out &&
	grep "^good: verified$" out
'

test_done
