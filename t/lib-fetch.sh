# lib-fetch.sh - for the tests of git rolling fetch and pull, which play
# an upstream that publishes to a server and a consumer that fetches.
# Source after lib-stable-tree.sh; the scripts set $BRANCH.
#
#   setup_upstream  a Linux stable tree "upstream" (VERIFY_MAINLINE
#                   series; STABLE_SIGNED_TAGS and the other knobs as
#                   lib-stable-tree.sh reads them) at week 11 with
#                   $BRANCH made by init, and an empty bare "server.git"
#                   that is its remote "server"
#   publish WEEK    replay the upstream tree to WEEK, advance it and push
#                   its tags and $BRANCH to the remote "server"
#   consumer_fetched_once  a repository "consumer" whose remote "origin"
#                   is server.git, following $BRANCH (init --follow),
#                   fetched once
#   refs_and_logs REPO  every ref, and every reflog whole
#   no_leftovers REPO   no lock file, no advance intent file, no quarantine
#   fetch_seam MOMENT COMMAND PROGRAM [ARG...]  PROGRAM with COMMAND run
#                   at a moment of its fetch (the race seam, below)

setup_upstream () {
	STABLE_MAINLINE=$VERIFY_MAINLINE stable_tree_linux upstream &&
	stable_tree_replay upstream 11 &&
	git -C upstream rolling init -q --preset linux $BRANCH &&
	git init -q --bare server.git &&
	git -C upstream remote add server "$TRASH_DIRECTORY/server.git"
}

consumer_fetched_once () {
	git init -q consumer &&
	git -C consumer remote add origin "file://$TRASH_DIRECTORY/server.git" &&
	git -C consumer rolling init -q --follow origin/$BRANCH &&
	git -C consumer rolling fetch -q origin
}

publish () {
	stable_tree_replay upstream "$1" &&
	git -C upstream rolling advance -q &&
	git -C upstream push -q --force server "refs/tags/*:refs/tags/*" \
		"refs/heads/$BRANCH:refs/heads/$BRANCH" 2>push.err
}

# The reflogs go through one tail -v, which heads each with its name
# (even an empty one) and copies it byte for byte; ref names have no
# white space to split on.
refs_and_logs () {
	git -C "$1" for-each-ref --format="%(objectname) %(refname)" &&
	(cd "$1/.git" && rl_logs=$(find logs -type f | sort) &&
	 if test -n "$rl_logs"
	 then
		tail -v -n +1 $rl_logs
	 fi)
}

# rerun_finishes REPO <command> <args>...: git rolling <command> run
# again in REPO, after a killed run, completes, or refuses naming the
# lock files the killed run took before it could write them down (each
# exists), with git'"'"'s advice; the refusal is kept in refused.err (none:
# no such file).  With the files removed, as it asks, the run after it
# completes.
rerun_finishes () {
	rf_repo=$1 &&
	shift &&
	rm -f refused.err &&
	if ! git -C "$rf_repo" rolling "$@" 2>next.err
	then
		grep "^fatal: cannot lock ref" next.err &&
		grep "^remove the file manually to continue\.$" next.err &&
		sed -n "s/^\(fatal: \)\{0,1\}cannot lock ref .*: Unable to create '\(.*\)': File exists\.$/\2/p" next.err >named &&
		test_line_count -gt 0 named &&
		while read lock
		do
			test_path_is_file "$lock" && rm "$lock" || return 1
		done <named &&
		cp next.err refused.err &&
		git -C "$rf_repo" rolling "$@"
	fi
}

no_leftovers () {
	find "$1/.git" -name "*.lock" -o -name ROLLING_ADVANCE >leftovers &&
	ls -d "$1"/.git/objects/rolling-incoming-* >>leftovers 2>/dev/null
	test_must_be_empty leftovers
}

# fetch_seam MOMENT COMMAND PROGRAM [ARG...]: PROGRAM run with the race
# seam (t/helper/seam.c) preloaded, which runs COMMAND with the shell at
# MOMENT of the git rolling fetch that PROGRAM is or runs, once:
#   transferred  git fetch brought the objects into the quarantine and
#                ended, and the fetch removed the refspecs it gave it;
#                it has read nothing of what came
#   updating     the objects verified and moved into the store, just
#                before the first lock of a ref (files) or of the table
#                stack, which the git update-ref the fetch runs takes
#                (reftable: there $PPID is that git; $GIT_ROLLING_PID is
#                the fetch in both)
# COMMAND runs without the seam, and so does what it runs; it runs once,
# also where a fetch that lost the race runs a second git update-ref.
fetch_seam () {
	case $1 in
	transferred)
		fs_path="*/rolling-incoming-*/refspecs" fs_removed=1 fs_after=1 ;;
	updating)
		fs_path="*/.git/ref*.lock" fs_removed= fs_after= ;;
	*)
		BUG "fetch_seam: no moment '$1'" ;;
	esac &&
	fs_ran=$TRASH_DIRECTORY/fetch-seam-ran &&
	fs_command="test ! -f \"$fs_ran\" || exit 0; : >\"$fs_ran\" && $2" &&
	shift 2 &&
	rm -f "$fs_ran" &&
	env LD_PRELOAD="$TEST_SEAM" GIT_ROLLING_TEST_SEAM_PATH="$fs_path" \
		GIT_ROLLING_TEST_SEAM_REMOVED=$fs_removed GIT_ROLLING_TEST_SEAM_AFTER=$fs_after \
		GIT_ROLLING_TEST_BEFORE_UPDATE="$fs_command" "$@"
}

# counting_upload_pack: $TRASH_DIRECTORY/counting-upload-pack, a
# remote.<name>.uploadpack that appends a line to "connections" for each
# connection and runs git upload-pack; $COUNTING_UPLOAD_PACK names it as
# the shell that runs it wants (the trash directory's name has spaces).
COUNTING_UPLOAD_PACK="'$TRASH_DIRECTORY/counting-upload-pack'"
counting_upload_pack () {
	printf "#!/bin/sh\necho run >>\"%s/connections\"\nexec git upload-pack \"\$@\"\n" \
		"$TRASH_DIRECTORY" >"$TRASH_DIRECTORY/counting-upload-pack" &&
	chmod +x "$TRASH_DIRECTORY/counting-upload-pack"
}
