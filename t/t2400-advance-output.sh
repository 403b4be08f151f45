#!/bin/sh

test_description='advance output for people and scripts, and git -c settings'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-rolling.sh

test_expect_success 'setup' '
	stable_tree_linux tree &&
	cd tree &&
	stable_tree_replay . $(stable_tree_week_of . v6.3.1) &&
	git rolling init -q --at v6.2.3 rs
'

test_expect_success '--porcelain prints the stable format' '
	cd tree &&
	newest=$(git tag -l "v6.2.*" | sort -V | tail -n 1) &&
	git rolling advance --porcelain --series 6.3 rs >out &&
	first=$(git rev-parse rs^1) &&
	cat >expect <<-EOF &&
	step rs v6.2.3 $newest $first 6.2 6.2
	step rs $newest v6.3.1 $(git rev-parse rs) 6.2 6.3
	EOF
	test_cmp expect out &&
	git rolling advance --porcelain rs >out &&
	echo "current rs v6.3.1 $(git rev-parse rs) 6.3" >expect &&
	test_cmp expect out
'

test_expect_success 'color: never on a pipe unless asked; color.rolling over color.ui' '
	cd tree &&
	git rolling init -q --at v6.2.3 colored &&
	git rolling advance --dry-run --series 6.3 colored >plain &&
	! grep "$(printf "\033")" plain &&
	git -c color.ui=always rolling advance --dry-run --series 6.3 colored >always &&
	grep "$(printf "\033\\[33m")series 6.2 -> 6.3$(printf "\033\\[m")" always &&
	git -c color.ui=always -c color.rolling=never rolling advance --dry-run --series 6.3 colored >never &&
	test_cmp plain never &&
	test_expect_code 128 git -c color.rolling=purple rolling advance -n colored 2>err &&
	grep "^fatal: color.rolling: invalid color value .purple.$" err
'

command -v script >/dev/null 2>&1 && test_set_prereq SCRIPT

test_expect_success SCRIPT 'color by default on a terminal' '
	cd tree &&
	TERM=xterm script -qec "git rolling advance --dry-run --series 6.3 colored" /dev/null >tty &&
	grep "$(printf "\033\\[33m")series 6.2 -> 6.3" tty &&
	TERM=dumb script -qec "git rolling advance --dry-run --series 6.3 colored" /dev/null >tty &&
	! grep "$(printf "\033")" tty
'

test_expect_success 'git -c settings reach git-rolling (GIT_CONFIG_PARAMETERS)' '
	cd tree &&
	git -c "rolling.colored.ident=Minnie O'\''Neil \"Mo\" <mo@example.org>" \
		rolling advance -q --series 6.3 colored &&
	git log -1 --format="%an|%ae|%cn" colored >actual &&
	echo "Minnie O'\''Neil \"Mo\"|mo@example.org|Minnie O'\''Neil \"Mo\"" >expect &&
	test_cmp expect actual &&
	test -z "$(git config rolling.colored.ident)"
'

test_expect_success 'git --config-env settings reach git-rolling (GIT_CONFIG_COUNT)' '
	cd tree &&
	git rolling init -q --at v6.2.3 envident &&
	IDENT="Env Ident <env@example.org>" git --config-env=rolling.envident.ident=IDENT \
		rolling advance -q envident &&
	git log -1 --format="%an <%ae>" envident >actual &&
	echo "Env Ident <env@example.org>" >expect &&
	test_cmp expect actual
'

test_expect_success 'ids shown to people are as long as git makes them: core.abbrev' '
	cd tree &&
	git rolling init -q --at v6.2.3 abbrev &&
	git -c core.abbrev=10 rolling advance abbrev >out &&
	echo "abbrev: v6.2.3 -> $(git tag -l "v6.2.*" | sort -V | tail -n 1) ($(git rev-parse --short=10 abbrev))" >expect &&
	test_cmp expect out &&
	git -c core.abbrev=15 rolling verify abbrev >out &&
	grep "^abbrev: tip .* ($(git rev-parse --short=15 abbrev))$" out &&
	git -c core.abbrev=4 rolling init -q --at v6.2.3 abbrev4 &&
	git -c core.abbrev=4 rolling advance abbrev4 >out &&
	grep "($(git rev-parse --short=4 abbrev4))$" out
'

test_done
