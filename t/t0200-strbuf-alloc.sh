#!/bin/sh

test_description='lib/strbuf.c and ALLOC_GROW

The growable string and array helpers every path, ref name and message
in the library goes through: contents of any length survive growing,
setlen/reset/detach keep the string NUL-terminated, and running out of
memory is sticky (later additions do nothing) until reset.  Driven by
test-rolling strbuf, which checks the invariants at each "show".
'
. "$(dirname "$0")"/test-lib.sh

# repeat <n> <char>: <n> copies of <char>, no newline.
repeat () {
	printf "%$1s" "" | tr " " "$2"
}

test_expect_success 'an empty strbuf is the empty string; detaching it gives ""' '
	test-rolling strbuf show detach >actual &&
	cat >expect <<-\EOF &&
	len=0 oom=0 
	detached: 
	len=0 oom=0 
	EOF
	test_cmp expect actual
'

test_expect_success 'add, addch and addf append in order' '
	test-rolling strbuf add abc addch - addf xy add "" addf "" show >actual &&
	echo "len=14 oom=0 abc-<xy|2><|0>" >expect &&
	test_cmp expect actual
'

test_expect_success 'addf within the room there is and past it' '
	# The first add leaves room for a short addf; the long one needs more.
	long=$(repeat 300 L) &&
	test-rolling strbuf add 0123456789 addf a show addf "$long" show >actual &&
	{
		echo "len=15 oom=0 0123456789<a|1>" &&
		echo "len=321 oom=0 0123456789<a|1><$long|300>"
	} >expect &&
	test_cmp expect actual
'

test_expect_success 'addf whose text is exactly the room left (16 bytes at first)' '
	test-rolling strbuf add 0123456789 addf ab show >actual &&
	echo "len=16 oom=0 0123456789<ab|2>" >expect &&
	test_cmp expect actual
'

test_expect_success 'addf on a strbuf that has no memory yet' '
	long=$(repeat 5000 F) &&
	test-rolling strbuf addf "$long" show >actual &&
	echo "len=5007 oom=0 <$long|5000>" >expect &&
	test_cmp expect actual
'

test_expect_success 'strings far longer than any old fixed buffer' '
	a=$(repeat 70000 a) &&
	b=$(repeat 9000 b) &&
	test-rolling strbuf add "$a" addch c add "$b" show >actual &&
	echo "len=79001 oom=0 ${a}c$b" >expect &&
	test_cmp expect actual
'

test_expect_success 'setlen cuts, and additions go on from there' '
	test-rolling strbuf add abcdef setlen 2 show add XY show setlen 0 show >actual &&
	cat >expect <<-\EOF &&
	len=2 oom=0 ab
	len=4 oom=0 abXY
	len=0 oom=0 
	EOF
	test_cmp expect actual
'

test_expect_success 'reset empties it and it is used again' '
	long=$(repeat 1000 r) &&
	test-rolling strbuf add "$long" reset show add again show >actual &&
	cat >expect <<-\EOF &&
	len=0 oom=0 
	len=5 oom=0 again
	EOF
	test_cmp expect actual
'

test_expect_success 'detach hands over the string and leaves an empty strbuf' '
	test-rolling strbuf add first detach add second show detach >actual &&
	cat >expect <<-\EOF &&
	detached: first
	len=0 oom=0 
	len=6 oom=0 second
	detached: second
	len=0 oom=0 
	EOF
	test_cmp expect actual
'

test_expect_success 'out of memory sticks until reset, and detach gives NULL' '
	test-rolling strbuf add kept oom add lost addch x addf lost show detach \
		add again oom reset add fresh show >actual &&
	cat >expect <<-\EOF &&
	grow: -1
	len=4 oom=1 kept
	detached: (null)
	len=0 oom=0 
	grow: -1
	len=5 oom=0 fresh
	EOF
	test_cmp expect actual
'

test_expect_success 'read appends a whole file, past several reads' '
	repeat 70000 x >file &&
	printf "\nlast line" >>file &&
	test-rolling strbuf add "<" read file add ">" show >actual &&
	echo "len=70012 oom=0 <$(cat file)>" >expect &&
	test_cmp expect actual
'

test_expect_success 'read of an empty file adds nothing; a missing one says why' '
	: >empty &&
	test-rolling strbuf add kept read empty show read missing show >actual &&
	cat >expect <<-\EOF &&
	len=4 oom=0 kept
	read: No such file or directory
	len=4 oom=0 kept
	EOF
	test_cmp expect actual
'

test_expect_success 'ALLOC_GROW: half as big again, at least 16, values kept' '
	test-rolling alloc-grow 100 >actual &&
	cat >expect <<-\EOF &&
	nr 1 alloc 16
	nr 17 alloc 40
	nr 41 alloc 76
	nr 77 alloc 130
	EOF
	test_cmp expect actual
'

test_expect_success 'ALLOC_GROW: no room for it is "out of memory", array kept' '
	# More elements than the address space: reallocarray refuses it.
	ASAN_OPTIONS=$ASAN_OPTIONS:allocator_may_return_null=1 \
		test-rolling alloc-grow 20 18446744073709551615 >actual &&
	cat >expect <<-\EOF &&
	nr 1 alloc 16
	nr 17 alloc 40
	error: out of memory; alloc 40
	EOF
	test_cmp expect actual
'

test_done
