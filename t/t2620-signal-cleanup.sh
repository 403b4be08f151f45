#!/bin/sh

test_description='a process killed by a signal leaves no lock behind

Every lock and temporary file the commands create is registered while it
exists (lib/tempfile.h) and removed when the process ends, by exit() or
killed by SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGPIPE, as git removes
its own; the process still dies of the signal.  test-rolling tempfile
and test-rolling lock try the registry and the locks on their own.
'
. "$(dirname "$0")"/test-lib.sh

# --- the registry (test-rolling tempfile) ----------------------------------

# start_holder <what>...: test-rolling tempfile <what>... in the
# background, its pid in $holder, reading the fifo "go" (written through
# fd 9), saying what it says in "holder.out"; returns once it is ready.
start_holder () {
	rm -f go holder.out &&
	mkfifo go &&
	{ test-rolling tempfile "$@" <go >holder.out 2>holder.err & } &&
	holder=$! &&
	exec 9>go &&
	sh_tries=0 &&
	until grep -q "^ready$" holder.out 2>/dev/null
	do
		sh_tries=$((sh_tries + 1)) &&
		test $sh_tries -le 600 &&
		kill -0 $holder &&
		sleep 0.05 || { exec 9>&- && cat holder.err && return 1; }
	done
}

# stop_holder: let it go on (a line on its stdin); its exit status is
# in $status once it is gone.
stop_holder () {
	echo go >&9 &&
	exec 9>&- &&
	{ wait $holder; status=$?; }
}

# kill_holder SIG: the signal to it; its exit status in $status.
kill_holder () {
	kill -$1 $holder &&
	exec 9>&- &&
	{ wait $holder; status=$?; }
}

test_expect_success 'killed by SIGTERM, SIGHUP or SIGPIPE: it dies of the signal, its files gone' '
	for sig in TERM:143 HUP:129 PIPE:141
	do
		start_holder a b last:journal &&
		test_path_is_file a &&
		test_path_is_file journal &&
		kill_holder ${sig%:*} &&
		test $status = ${sig#*:} &&
		test_path_is_missing a &&
		test_path_is_missing b &&
		test_path_is_missing journal || { echo "with SIG$sig" && return 1; }
	done
'

test_expect_success 'a file kept as a record for the next run stays' '
	start_holder temp keep:record &&
	kill_holder TERM &&
	test $status = 143 &&
	test_path_is_missing temp &&
	test_path_is_file record &&
	rm record
'

test_expect_success 'a registered directory goes after the files in it, and only when empty' '
	start_holder "dir:$TRASH_DIRECTORY/q.XXXXXX" in:draft &&
	dir=$(sed -n 1p holder.out) &&
	test_path_is_file "$dir/draft" &&
	kill_holder TERM &&
	test $status = 143 &&
	test_path_is_missing "$dir" &&
	start_holder "dir:$TRASH_DIRECTORY/q.XXXXXX" &&
	dir=$(sed -n 1p holder.out) &&
	echo not ours >"$dir/other" &&
	kill_holder TERM &&
	test $status = 143 &&
	test_path_is_file "$dir/other" &&
	rm -r "$dir"
'

test_expect_success 'at exit the files go, a kept one stays; a forked child removes none' '
	start_holder temp keep:record fork-exit &&
	test_path_is_file temp &&
	stop_holder &&
	test $status = 0 &&
	grep "^done$" holder.out &&
	test_path_is_missing temp &&
	test_path_is_file record &&
	rm record
'

test_expect_success 'a signal the process was started ignoring stays ignored' '
	rm -f go holder.out &&
	mkfifo go &&
	{ (trap "" HUP && exec test-rolling tempfile temp <go >holder.out) & } &&
	holder=$! &&
	exec 9>go &&
	until grep -q "^ready$" holder.out 2>/dev/null
	do
		kill -0 $holder && sleep 0.05 || return 1
	done &&
	kill -HUP $holder &&
	sleep 0.2 &&
	kill -0 $holder &&
	test_path_is_file temp &&
	kill_holder TERM &&
	test $status = 143 &&
	test_path_is_missing temp
'

test_expect_success 'a signal that comes while they are held ends the process at the release' '
	start_holder temp hold &&
	kill -TERM $holder &&
	sleep 0.2 &&
	kill -0 $holder &&
	test_path_is_file temp &&
	stop_holder &&
	test $status = 143 &&
	! grep "^done$" holder.out &&
	test_path_is_missing temp
'

test_expect_success 'a lock is renamed over its file or removed; one held is waited for, then named' '
	echo old >file &&
	test-rolling lock file 0 commit new &&
	echo new >expect &&
	test_cmp expect file &&
	test-rolling lock file 0 rollback newer &&
	test_cmp expect file &&
	test_path_is_missing file.lock &&
	: >file.lock &&
	test_must_fail test-rolling lock file 0 commit newer 2>err &&
	grep "^Unable to create .file\.lock.: File exists\.$" err &&
	grep "^remove the file manually to continue\.$" err &&
	test_cmp expect file &&
	{ (sleep 0.3 && rm file.lock) & } &&
	test-rolling lock file 5000 commit newest &&
	wait &&
	echo newest >expect &&
	test_cmp expect file &&
	test_path_is_missing file.lock
'

test_done
