#!/bin/sh

test_description='lib/run-command.c: struct rolling_child, the one way to run git

Each choice of a git run, checked with the git on PATH through
test-rolling child: the arguments reach git as they are, never through
a shell; the environment changes reach git alone, a removal as well as
a setting; the standard input is a buffer or a file; the output and the
errors are captured (apart or together), discarded, or sent to our
standard error; a descriptor is handed on only when asked; the exit
status is git'"'"'s, 128 plus a signal, or negative when git cannot be
run; an abandoned git is ended at once; another program (gpg) runs by
the same rules.  The shell aliases of git
(alias.x="!...") stand in for what a git command prints.
'
. "$(dirname "$0")"/test-lib.sh

BOTH='!echo out && echo err >&2 && exit 3'

test_expect_success 'the arguments reach git unchanged, never through a shell' '
	test-rolling child --out capture=out -- rev-parse --sq-quote "a b" "\$(x)" ";" "*" >status &&
	echo "status 0" >expect &&
	test_cmp expect status &&
	git rev-parse --sq-quote "a b" "\$(x)" ";" "*" >expect &&
	test_cmp expect out
'

test_expect_success 'the output and the errors captured apart, and the exit status' '
	test-rolling child --out capture=out --err capture=err -- -c alias.both="$BOTH" both \
		>status &&
	echo "status 3" >expect &&
	test_cmp expect status &&
	echo out >expect &&
	test_cmp expect out &&
	echo err >expect &&
	test_cmp expect err
'

test_expect_success 'the errors with the output, in the order git wrote them' '
	test-rolling child --out capture=out --err to-stdout -- \
		-c alias.both="!echo 1 && echo 2 >&2 && echo 3" both >status &&
	printf "1\n2\n3\n" >expect &&
	test_cmp expect out
'

test_expect_success 'the output sent to our standard error, or discarded' '
	test-rolling child --out to-stderr -- -c alias.both="$BOTH" both >stdout 2>stderr &&
	echo "status 3" >expect &&
	test_cmp expect stdout &&
	printf "out\nerr\n" >expect &&
	test_cmp expect stderr &&
	test-rolling child --out discard --err discard -- -c alias.both="$BOTH" both \
		>stdout 2>stderr &&
	echo "status 3" >expect &&
	test_cmp expect stdout &&
	test_must_be_empty stderr
'

test_expect_success 'output larger than a pipe holds, with NUL bytes, captured whole' '
	test-rolling child --out capture=out -- -c alias.big="!seq 100000 | tr 7 \"\\\\000\"" big \
		>status &&
	echo "status 0" >expect &&
	test_cmp expect status &&
	seq 100000 | tr 7 "\\000" >expect &&
	cmp expect out
'

test_expect_success 'an environment entry set, and one removed, for git alone' '
	FROM_US=ours REMOVED=ours &&
	export FROM_US REMOVED &&
	test-rolling child --env SET=set --env REMOVED --env FROM_US=theirs --out capture=out \
		-- -c alias.e="!env" e >status &&
	echo "status 0" >expect &&
	test_cmp expect status &&
	grep "^SET=set$" out &&
	grep "^FROM_US=theirs$" out &&
	! grep "^FROM_US=ours$" out &&
	! grep "^REMOVED=" out &&
	# and the rest of ours, as it was
	grep "^HOME=$HOME$" out
'

test_expect_success 'the standard input from a buffer, or from a file' '
	printf "some bytes" >file &&
	git hash-object --stdin <file >expect &&
	test-rolling child --input "some bytes" --out capture=out -- hash-object --stdin &&
	test_cmp expect out &&
	test-rolling child --stdin-file file --out capture=out -- hash-object --stdin &&
	test_cmp expect out
'

test_expect_success 'a descriptor is handed on only when asked, under its own number' '
	echo held >held &&
	test-rolling child --inherit held --out capture=out -- -c alias.fd="!cat <&9" fd &&
	test_cmp held out &&
	test-rolling child --out capture=out --err discard -- -c alias.fd="!cat <&9" fd \
		>status 9<&- &&
	! grep "^status 0$" status &&
	test_must_be_empty out
'

test_expect_success 'git killed by a signal: 128 plus its number' '
	test-rolling child -- -c alias.die="!kill -TERM \$PPID; sleep 5" die >status &&
	echo "status 143" >expect &&
	test_cmp expect status
'

test_expect_success 'no git to run: a negative status and an error, not an exit status' '
	helper=$(command -v test-rolling) &&
	test_expect_code 1 env PATH="$TRASH_DIRECTORY/nowhere" "$helper" child -- version \
		>status 2>err &&
	echo "status -1" >expect &&
	test_cmp expect status &&
	grep "^error: cannot run git version: No such file or directory$" err
'

test_expect_success 'another program than git, by the same rules' '
	test-rolling child --program sh --env SET=set --out capture=out --err capture=err \
		-- -c "echo \"\$SET\" \"\$0\"; echo said >&2; exit 4" "a b" >status &&
	echo "status 4" >expect &&
	test_cmp expect status &&
	echo "set a b" >expect &&
	test_cmp expect out &&
	echo said >expect &&
	test_cmp expect err &&
	test_expect_code 1 test-rolling child --program no-such-program-here -- x >status 2>err &&
	echo "status -1" >expect &&
	test_cmp expect status &&
	grep "^error: cannot run no-such-program-here: No such file or directory$" err
'

# git hash-object waits for the end of its input, which comes only once
# "late" is written: a run that waited for git to end by itself would
# see "late" there when it returns.  (Not a shell alias that sleeps:
# git itself may leave the shell running if the signal comes as it
# starts it.)
test_expect_success 'an abandoned git is ended and reaped at once' '
	rm -f late early &&
	{ sleep 2 && echo late >late; } |
	{
		test-rolling child --abandon --out capture=out -- hash-object --stdin >status &&
		test_path_is_missing late &&
		: >early
	} &&
	echo "status 0" >expect &&
	test_cmp expect status &&
	test_path_is_file early
'

test_done
