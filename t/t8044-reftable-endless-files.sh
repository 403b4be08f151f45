#!/bin/sh

test_description='a stack file that never ends is no reason to read forever

tables.list, or a table, may be a link to /dev/zero, which reads as
endless zeros and says it is empty.  git answers at once: a tables.list
of no size names no table, a table of no size is no table.  So does git
rolling, in little memory, without reading on until the memory runs out.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-reftable.sh

# in_little_memory COMMAND...: COMMAND with 200 MB of address space, which
# a reading of the refs needs a small part of; memcheck and the
# sanitizers reserve more than that for themselves, and run it as it is.
in_little_memory () {
	if test -n "$GIT_ROLLING_TEST_VALGRIND$test_build_asan_"
	then
		"$@"
	else
		(ulimit -v 200000 && "$@")
	fi
}

test_expect_success REFTABLE 'setup' '
	git init -q --ref-format=reftable repo &&
	test_commit -C repo one
'

test_expect_success REFTABLE 'tables.list linked to /dev/zero names no table, as for git' '
	rm -rf list && cp -R repo list &&
	rm list/.git/reftable/tables.list &&
	ln -s /dev/zero list/.git/reftable/tables.list &&
	git -C list for-each-ref >listed-by-git &&
	test_must_be_empty listed-by-git &&
	test_must_fail git -C list rev-parse -q --verify HEAD &&
	in_little_memory rt_refs list >actual &&
	test_must_be_empty actual &&
	in_little_memory rt_ref list HEAD refs/heads/main >actual &&
	printf "HEAD missing\\nrefs/heads/main missing\\n" >expect &&
	test_cmp expect actual
'

test_expect_success REFTABLE 'a table linked to /dev/zero is no table, as for git' '
	rm -rf table && cp -R repo table &&
	newest=$(newest_table table/.git/reftable) &&
	rm "$newest" &&
	ln -s /dev/zero "$newest" &&
	test_must_fail git -C table rev-parse -q --verify HEAD &&
	test_must_fail in_little_memory rt_refs table >out &&
	grep "^error: cannot read the reftable stack .*: corrupt reftable file" out
'

test_done
