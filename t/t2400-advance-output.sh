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

# first_hash_with_prefix PREFIX: a blob's content ("clash <n>") whose
# id starts with the hex digits PREFIX.
first_hash_with_prefix () {
	perl -MDigest::SHA=sha1_hex -e '
		my $p = shift;
		for (my $n = 0; ; $n++) {
			my $c = "clash $n\n";
			if (substr(sha1_hex("blob " . length($c) . "\0" . $c), 0, length $p) eq $p) {
				print $c;
				exit 0;
			}
		}' "$1"
}

test_expect_success PERL 'a dry run abbreviates a merge it has not written as git will once it is' '
	cd tree &&
	git rolling init -q --ident "Clash Test <clash@example.org>" --at v6.2.3 clash &&
	git -c core.abbrev=4 rolling advance --dry-run --porcelain clash >porcelain &&
	merge=$(awk "NR == 1 { print \$5 }" porcelain) &&
	prefix=$(echo $merge | cut -c1-4) &&
	first_hash_with_prefix $prefix >clash.txt &&
	other=$(git hash-object -w clash.txt) &&
	test "$(echo $other | cut -c1-4)" = $prefix &&
	git -c core.abbrev=4 rolling advance --dry-run clash >dry &&
	git -c core.abbrev=4 rolling advance clash >out &&
	test "$(git rev-parse clash~$(($(wc -l <porcelain) - 1)))" = $merge &&
	short=$(git rev-parse --short=4 $merge) &&
	test ${#short} -gt 4 &&
	head -n 1 dry >dry.first &&
	head -n 1 out >out.first &&
	grep " ($short)" out.first &&
	sed "s/ \[dry run\]$//" dry.first >dry.ids &&
	test_cmp out.first dry.ids
'

test_done
