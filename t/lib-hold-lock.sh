# lib-hold-lock.sh - a process that holds a flock(2) lock, for tests of
# what waits for a held lock or refuses it.  Source after test-lib.sh.
#
# The holder is flock(1) running a command that records its pid and
# becomes a sleep: the lock is held as soon as the pid is there, and
# killing that sleep makes flock exit and let the lock go.  Nothing is
# left behind to keep the harness's output open (a bare `flock FILE
# sleep 30` killed by its pid leaves the sleep running for the rest of
# its 30 seconds, and the harness waits for it).

# hold_lock FILE: hold an exclusive flock on FILE in the background, and
# return once it is held.  The holder ends with the test at the latest.
hold_lock () {
	hl_pid=$TRASH_DIRECTORY/lock-holder.pid &&
	rm -f "$hl_pid" &&
	test_when_finished "test ! -f \"\$hl_pid\" || release_lock" &&
	{ flock -o "$1" sh -c 'echo $$ >"$0" && exec sleep 60' "$hl_pid" 5>&- 6>&- & } &&
	lock_holder=$! &&
	hl_tries=0 &&
	until test -s "$hl_pid"
	do
		hl_tries=$((hl_tries + 1)) &&
		test $hl_tries -le 600 &&
		sleep 0.05 || return 1
	done
}

# release_lock: end the holder of hold_lock, and wait until it is gone.
release_lock () {
	kill "$(cat "$hl_pid")" &&
	{ wait $lock_holder || :; } &&
	rm "$hl_pid"
}
