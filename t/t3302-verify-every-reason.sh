#!/bin/sh

test_description='verify reports every reason a commit is not a rolling merge

A forged merge may carry any number of headers the recipe never writes,
besides a wrong tree and a second mergetag.  Each is a failure of its
own in the report, however many there are: none is dropped.
'
. "$(dirname "$0")"/test-lib.sh

test_expect_success 'setup: a rolling branch of two steps' '
	git init -q -b main repo &&
	cd repo &&
	echo 6.0 >file &&
	git add file &&
	test_tick &&
	git commit -q -m "Linux 6.0" &&
	git tag -a -m "Linux 6.0" v6.0 &&
	git branch stable &&
	echo 6.1-rc1 >file &&
	test_tick &&
	git commit -q -a -m "Linux 6.1-rc1" &&
	git tag -a -m "Linux 6.1-rc1" v6.1-rc1 &&
	git checkout -q stable &&
	for n in 1 2
	do
		echo 6.0.$n >file &&
		test_tick &&
		git commit -q -a -m "Linux 6.0.$n" &&
		git tag -a -m "Linux 6.0.$n" v6.0.$n || return 1
	done &&
	git rolling init -q --preset linux --at v6.0.1 rolling &&
	git rolling advance -q &&
	git rolling verify -q rolling
'

test_expect_success 'a merge with twelve extra headers, another tree and two mergetags' '
	cd repo &&
	git cat-file commit rolling >merge &&
	sed -n "/^tree /!p" merge | sed "/^\$/,\$d" >headers &&
	{
		echo "tree $(git rev-parse rolling^1^{tree})" &&
		cat headers &&
		for n in 1 2 3 4 5 6 7 8 9 10 11 12
		do
			echo "x-extra-$n value $n" || return 1
		done &&
		git cat-file tag v6.0.2 | sed "1s/^/mergetag /; 2,\$s/^/ /" &&
		git cat-file tag v6.0.1 | sed "1s/^/mergetag /; 2,\$s/^/ /" &&
		sed "1,/^\$/d" merge | sed "1s/^/\n/"
	} >forged &&
	bad=$(git hash-object -t commit -w forged) &&
	git branch forged $bad &&
	test_expect_code 1 git rolling verify forged 2>err &&
	{
		printf "error: forged: %s: tree: expected tree %s of %s (v6.0.2), found tree %s\n" \
			$bad $(git rev-parse v6.0.2^{tree}) $(git rev-parse v6.0.2^{commit}) \
			$(git rev-parse rolling^1^{tree}) &&
		for n in 1 2 3 4 5 6 7 8 9 10 11 12
		do
			printf "error: forged: %s: header: expected only the headers the recipe writes, found extra header '\''x-extra-%s'\''\n" \
				$bad $n || return 1
		done &&
		printf "error: forged: %s: mergetag: expected at most one mergetag header, found another mergetag header\n" $bad
	} >expect &&
	grep "^error: forged: $bad: " err >actual &&
	test_cmp expect actual
'

test_done
