#!/bin/sh

test_description='verify --json is valid UTF-8 JSON whatever the commits hold

git stores commit messages as bytes: a Latin-1 subject is valid history,
and a long subject quoted in a failure is cut.  The JSON document must
still be UTF-8 (what is not becomes U+FFFD) and a cut must fall between
characters, in the JSON and in the human report alike.  Checked with jq
and with a strict UTF-8 decoder.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-stable-tree.sh
. "$TEST_DIRECTORY"/lib-verify.sh

# strict_utf8 FILE: FILE decodes as UTF-8 with no error at all.
strict_utf8 () {
	test_python3 -c "import sys; open(sys.argv[1], \"rb\").read().decode(\"utf-8\", \"strict\")" "$1"
}

test_expect_success PYTHON3 'setup' '
	verify_fixture tree &&
	cd tree &&
	git rev-parse linux-rolling-stable >../tip
'

# inject_plain MESSAGE-FILE [HEADER]: put a plain commit with exactly
# these message bytes on the tip (git commit-tree would turn a message
# that is not UTF-8 into UTF-8), with HEADER (such as an encoding) if any.
inject_plain () {
	ip_tip=$(cat ../tip) &&
	ip_commit=$({
		printf "tree %s\nparent %s\n" $(git rev-parse $ip_tip^{tree}) $ip_tip &&
		printf "author A U Thor <author@example.com> 1700000000 +0100\n" &&
		printf "committer A U Thor <author@example.com> 1700000000 +0100\n" &&
		if test -n "$2"
		then
			printf "%s\n" "$2"
		fi &&
		echo &&
		cat "$1"
	} | git hash-object -t commit -w --stdin) &&
	git update-ref refs/heads/linux-rolling-stable $ip_commit &&
	echo $ip_commit
}

test_expect_success PYTHON3 'a Latin-1 subject' '
	cd tree &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $(cat ../tip)" &&
	printf "Fix f\374r den Treiber, \351t\351\n" >latin1.msg &&
	! strict_utf8 latin1.msg &&
	injected=$(inject_plain latin1.msg) &&
	test_expect_code 1 git rolling verify --json linux-rolling-stable >out.json &&
	strict_utf8 out.json &&
	jq -e ".branches[0].failures[0] | .check == \"injected\" and .commit == \"$injected\"" out.json &&
	jq -r ".branches[0].failures[0].found" out.json >found &&
	printf "plain commit \"Fix f\357\277\275r den Treiber, \357\277\275t\357\277\275\"\n" >expect &&
	test_cmp expect found
'

test_expect_success PYTHON3 'a Latin-1 subject with its encoding header reads as git log shows it' '
	cd tree &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $(cat ../tip)" &&
	printf "Fix f\374r den Treiber, \351t\351\n" >latin1.msg &&
	injected=$(inject_plain latin1.msg "encoding ISO-8859-1") &&
	git log -1 --format=%s $injected >git.says &&
	strict_utf8 git.says &&
	test_expect_code 1 git rolling verify --json linux-rolling-stable >out.json 2>err &&
	strict_utf8 out.json &&
	jq -r ".branches[0].failures[0].found" out.json >found &&
	echo "plain commit \"$(cat git.says)\"" >expect &&
	test_cmp expect found
'

test_expect_success PYTHON3 'a long multi-byte subject is cut between characters' '
	cd tree &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $(cat ../tip)" &&
	{
		printf "x" &&
		i=0 &&
		while test $i -lt 80
		do
			printf "\303\251" && i=$((i + 1)) || return 1
		done &&
		echo
	} >long.msg &&
	strict_utf8 long.msg &&
	inject_plain long.msg >/dev/null &&
	test "$(git cat-file commit linux-rolling-stable | tail -n 1)" = "$(cat long.msg)" &&
	test_expect_code 1 git rolling verify --json linux-rolling-stable >out.json 2>err &&
	strict_utf8 out.json &&
	jq -e . out.json >/dev/null &&
	jq -r ".branches[0].failures[0].found" out.json >found &&
	grep "^plain commit \"x\(é\)*\"$" found &&
	test $(wc -c <found) -le $((14 + 100 + 2)) &&
	test_expect_code 1 git rolling verify linux-rolling-stable >out 2>err &&
	strict_utf8 err &&
	grep "found plain commit \"x\(é\)*\"$" err
'

test_expect_success PYTHON3 'a Latin-1 subject on a merge named in the JSON' '
	cd tree &&
	tip=$(cat ../tip) &&
	test_when_finished "git update-ref refs/heads/linux-rolling-stable $tip" &&
	printf "Merge v6.1.13 f\374r\n" >merge.msg &&
	! strict_utf8 merge.msg &&
	merge=$({
		printf "tree %s\nparent %s\nparent %s\n" $(git rev-parse $tip^{tree}) $tip $(git rev-parse $tip^2) &&
		printf "author A U Thor <author@example.com> 1700000000 +0100\n" &&
		printf "committer A U Thor <author@example.com> 1700000000 +0100\n\n" &&
		cat merge.msg
	} | git hash-object -t commit -w --stdin) &&
	git update-ref refs/heads/linux-rolling-stable $merge &&
	test_expect_code 1 git rolling verify --json linux-rolling-stable >out.json &&
	strict_utf8 out.json &&
	jq -e "[.branches[0].failures[] | select(.commit == \"$merge\")] | length > 0" out.json
'

test_done
