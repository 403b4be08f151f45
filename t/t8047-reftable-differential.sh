#!/bin/sh

test_description='random ref operations: the reftable reader reads what git reads

Twin repositories, one whose refs are reftable and one whose refs are
files, each with a linked work tree, go through the same random
operations, each made by git in both: refs created, updated and deleted,
symbolic refs (dangling, chained), lightweight, annotated and nested
tags, HEAD moved in either work tree, commits, a work tree'"'"'s own refs
(refs/bisect/, refs/worktree/, ORIG_HEAD), bursts of small writes that
git compacts as it goes, git pack-refs (git refs optimize), several git
update-ref at once, and the linked work tree removed and added again.

In the reftable twin every operation runs inside one process of the
library (test-rolling reread), which reads the refs before it and again
after it: the second reading must be what git reads after it, not what
the library kept from the first.  Every few operations, in both twins
and both work trees, the refs the library lists and the names it looks
up must be those git lists and resolves, and the twins must hold the
same refs.  The files twin is read by libgit2 itself, which knows less
than git there (see files_view below).

The operations come from a seed: 40 and a short run in make test, so
that a failure there comes back on the next run; a seed of the run'"'"'s
own (the time and the process) and a long run in make test-long
(GIT_ROLLING_TEST_LONG), to look further each time.  The seed and the
size are printed; GIT_ROLLING_TEST_SEED=<n> and GIT_ROLLING_TEST_OPS=<n>
replay a run.  The operations of the run are in the trash directory'"'"'s
"ops" file, one a line, with the checks between them.
'
. "$(dirname "$0")"/test-lib.sh
. "$TEST_DIRECTORY"/lib-reftable.sh

# git compacts the stack after each write, as it does by default
# (lib-reftable.sh turns that off), but where an operation turns it off.
unset GIT_TEST_REFTABLE_AUTOCOMPACTION

if test_have_prereq EXPENSIVE
then
	diff_seed=${GIT_ROLLING_TEST_SEED:-$(( ($(date +%s) * 1000 + $$) % 2147483648 ))}
	diff_ops=${GIT_ROLLING_TEST_OPS:-300}
else
	diff_seed=${GIT_ROLLING_TEST_SEED:-40}
	diff_ops=${GIT_ROLLING_TEST_OPS:-20}
fi
say "# seed $diff_seed, $diff_ops operations (GIT_ROLLING_TEST_SEED, GIT_ROLLING_TEST_OPS)"

# --- the random numbers -------------------------------------------------

# rnd N: a number from 0 to N-1 in $rnd, from a linear congruential
# generator (glibc's constants, modulo 2^31), so that a seed gives the
# same operations with any shell.
rng=$((diff_seed % 2147483648))
rnd () {
	rng=$(( (rng * 1103515245 + 12345) % 2147483648 ))
	rnd=$(( (rng / 65536) % $1 ))
}

# pick WORD...: one of the words, in $pick.
pick () {
	rnd $#
	shift $rnd
	pick=$1
}

# --- the names ------------------------------------------------------------

# Names of the common stack, none a prefix of another (a ref and a
# directory of the same name is refused by both formats alike).
branches="refs/heads/b0 refs/heads/b1 refs/heads/b2 refs/heads/b3 refs/heads/b4"
symrefs="refs/heads/s0 refs/heads/s1 refs/heads/s2 refs/remotes/o/HEAD"
others="refs/remotes/o/r0 refs/remotes/o/r1 refs/notes/x refs/heads/main refs/heads/wt"
light="refs/tags/l0 refs/tags/l1 refs/tags/l2"
annotated="refs/tags/a0 refs/tags/a1 refs/tags/a2"
nested="refs/tags/n0 refs/tags/n1"
shared="$branches $symrefs $others $light $annotated $nested"
# A work tree's own, in the stack of the one that writes it.
own="refs/bisect/bad refs/bisect/good-0 refs/bisect/good-1 refs/worktree/w0 refs/worktree/w1 ORIG_HEAD"
# Looked up (git for-each-ref lists refs/ only) at each check, some of
# them, with some of the others.
looked_up="HEAD ORIG_HEAD main-worktree/HEAD main-worktree/ORIG_HEAD
	main-worktree/refs/bisect/bad worktrees/wt/HEAD worktrees/wt/ORIG_HEAD
	worktrees/wt/refs/bisect/bad worktrees/wt/refs/worktree/w0 refs/heads/b9"

# git refs optimize is git pack-refs under its new name (2.55 has both); a git
# without it packs by the old one.
if git refs optimize -h 2>&1 | grep -q "usage: git refs optimize"
then
	optimize="refs optimize --all"
else
	optimize="pack-refs --all"
fi

# --- running git in both twins ----------------------------------------------

# The twins: rt/ (reftable) and fs/ (files), each with its main work
# tree main/ and a linked one wt/, whose id is "wt" in both.

# twin_run TWIN WHERE COMMAND: COMMAND (shell words) in TWIN/WHERE, its
# output in the log; its exit status in $status.
twin_run () {
	(cd "$1/$2" && eval "$3") >>"$1.oplog" 2>&1
	status=$?
}

# git_refs DIR: git's listing, in the format of test-rolling refs.
git_refs () {
	(cd "$1" && git for-each-ref --format="%(objectname) %(*objectname) %(refname) %(symref)")
}

# git_names DIR NAME...: each NAME as git resolves it in DIR, in the
# format of test-rolling ref: a direct ref git_refs listed there from
# that listing (in the file "listed"), any other (a symbolic ref, whose
# target the listing gives as resolved to the end, HEAD,
# main-worktree/..., a missing ref) by git symbolic-ref --no-recurse
# and git rev-parse.
git_names () {
	gn_dir=$1 &&
	shift &&
	git_refs "$gn_dir" >listed &&
	printf "%s\n" "$@" |
	awk -F"[ ]" '
		FILENAME == "listed" { if ($4 == "") ref[$3] = " " $1; next }
		{ print ($0 in ref) ? $0 ref[$0] : "? " $0 }' listed - >names &&
	while read -r gn_name gn_rest
	do
		if test "$gn_name" != "?"
		then
			echo "$gn_name $gn_rest"
		else
			git_ref_lines "$gn_dir" "$gn_rest"
		fi || return 1
	done <names
}

# op COMMAND: run COMMAND in the reftable twin inside one process of the
# library, which reads the refs before and after it, then in the files
# twin; both must end alike, and the library's reading after the command
# must be git's.  $where: main or wt.
op () {
	case $where in
	main) op_names="HEAD refs/bisect/bad worktrees/wt/HEAD worktrees/wt/refs/bisect/bad" ;;
	wt) op_names="HEAD refs/bisect/bad main-worktree/HEAD main-worktree/refs/bisect/bad" ;;
	esac &&
	if ! (cd "rt/$where" && test-rolling reread "$1" $op_names) >reread 2>>rt.oplog
	then
		cat reread
		echo "test-rolling reread failed"
		return 1
	fi &&
	twin_run fs "$where" "$1" &&
	{
		echo "after: exit $status" &&
		git_names "rt/$where" $op_names &&
		git_refs "rt/$where"
	} >expect.op &&
	sed -n "/^after: /,\$p" reread >actual.op &&
	if ! test_cmp expect.op actual.op
	then
		echo "the reftable twin after '$1' in $where: git's reading and the library's, in one process, differ"
		return 1
	fi
}

# files_view WHERE FILE: of git's or libgit2's FILE read in the files
# twin's work tree WHERE, what libgit2 must read as git does.  libgit2
# reads the files twin itself, and knows less than git there: a loose
# tag's peeled object (packed-refs has it, a loose ref not), and in a
# linked work tree (1.5 at least) neither its own refs/bisect/ and
# refs/worktree/ (not listed, and refs/worktree/ looked up in the common
# directory) nor the main-worktree/ and worktrees/<id>/ names at all.
# Those are left out of both sides; a peeled object libgit2 does give
# must be git's (check).  Nor does libgit2 list refs in order (its loose
# refs come before the packed ones): the lines are sorted.
files_view () {
	if test $1 = wt
	then
		sed -e "/ refs\/bisect\//d" -e "/ refs\/worktree\//d" \
		    -e "/^refs\/bisect\//d" -e "/^refs\/worktree\//d" "$2"
	else
		cat "$2"
	fi |
	sed -e "s/^\([0-9a-f]*\) [0-9a-f]* /\1  /" \
	    -e "/^main-worktree\//d" -e "/^worktrees\//d" |
	sort
}

# check NAME...: in both twins and both work trees, the library lists
# the refs git lists and resolves each of the looked-up names and NAMEs
# as git does; the twins hold the same refs.
check () {
	for ck_where in main wt
	do
		for ck_twin in rt fs
		do
			ck_dir=$ck_twin/$ck_where &&
			git_refs $ck_dir >$ck_twin.git.refs &&
			(cd $ck_dir && test-rolling refs) >$ck_twin.lib.refs &&
			git_names $ck_dir "$@" >$ck_twin.git.names &&
			(cd $ck_dir && test-rolling ref "$@") >$ck_twin.lib.names ||
			return 1
		done &&
		test_cmp rt.git.refs rt.lib.refs &&
		test_cmp rt.git.names rt.lib.names &&
		test_cmp fs.git.refs rt.git.refs &&
		test_cmp fs.git.names rt.git.names &&
		for ck_what in refs names
		do
			files_view $ck_where fs.git.$ck_what >expect.files &&
			files_view $ck_where fs.lib.$ck_what >actual.files &&
			test_cmp expect.files actual.files || return 1
		done &&
		grep -E "^[0-9a-f]{40} [0-9a-f]{40} " fs.lib.refs >peeled.files ||
		test $? = 1 &&
		if test -s peeled.files && grep -vxFf fs.git.refs peeled.files
		then
			echo "libgit2 gives the files twin peeled objects git does not"
			return 1
		fi ||
		{
			echo "check in $ck_where failed"
			return 1
		}
	done
}

# writer_pairs W N NAME OID...: "NAME=OID" of the pairs that writer W
# of N writes.
writer_pairs () {
	wp_w=$1 wp_n=$2 &&
	shift 2 &&
	wp_i=0 &&
	while test $# -ge 2
	do
		test $((wp_i % wp_n)) != $wp_w || echo "$1=$2" &&
		wp_i=$((wp_i + 1)) &&
		shift 2 || return 1
	done
}

# writer TWIN WHERE PAIRS: in the background, git update-ref of each
# "NAME=OID" of PAIRS, one after the other, in TWIN/WHERE; its pid
# added to the file pids.
writer () {
	(
		cd $1/$2 &&
		for wr_pair in $3
		do
			# git 2.45 waits 100 ms for the lock, and knows no
			# reftable.lockTimeout: try again.
			wr_try=0 &&
			until git -c reftable.lockTimeout=-1 update-ref \
				"${wr_pair%%=*}" "${wr_pair#*=}"
			do
				wr_try=$((wr_try + 1)) &&
				test $wr_try -lt 50 || exit 1
			done || exit 1
		done
	) >>$1.oplog 2>&1 &
	echo $! >>pids
}

# parallel WRITERS NAME OID...: several git update-ref at once, each
# with its own names in its own work tree (main and wt in turn), in the
# reftable twin, where each waits for the stack's lock and compacts
# after its write while the library lists the refs (any listing, but no
# error); then the same in the files twin.
parallel () {
	pl_n=$1 &&
	shift &&
	for pl_twin in rt fs
	do
		pl_w=0 &&
		while test $pl_w -lt $pl_n
		do
			pl_pairs=$(writer_pairs $pl_w $pl_n "$@") &&
			writer $pl_twin $(test $((pl_w % 2)) = 0 && echo main || echo wt) "$pl_pairs" &&
			pl_w=$((pl_w + 1)) || return 1
		done &&
		if test $pl_twin = rt
		then
			for pl_where in main wt main
			do
				(cd rt/$pl_where && test-rolling refs) >listed 2>&1 || {
					cat listed
					echo "the library could not list the refs while git wrote them"
					return 1
				}
			done
		fi &&
		pl_ok=t &&
		for pl_pid in $(cat pids)
		do
			wait $pl_pid || pl_ok=
		done &&
		rm pids &&
		test -n "$pl_ok" || {
			echo "a writer failed in $pl_twin"
			return 1
		}
	done
}

# --- the operations -------------------------------------------------------------

# gen_ops COUNT: COUNT random operations, and the checks between them,
# one a line: "<where> <command>", "parallel <writers> <name> <oid>...",
# "compaction on|off", "check <name>...".
gen_ops () {
	go_n=0 &&
	while test $go_n -lt $1
	do
		pick main main wt &&
		go_where=$pick &&
		pick $commits &&
		go_oid=$pick &&
		rnd 100 &&
		go_kind=$rnd &&
		if test $go_kind -lt 18
		then
			pick $branches $others $branches &&
			echo "$go_where git update-ref $pick $go_oid"
		elif test $go_kind -lt 26
		then
			pick $shared &&
			go_name=$pick &&
			pick "" "" --no-deref &&
			echo "$go_where git update-ref -d $pick $go_name"
		elif test $go_kind -lt 34
		then
			pick $symrefs &&
			go_name=$pick &&
			pick $branches $symrefs refs/heads/b9 refs/tags/a0 refs/remotes/o/r0 &&
			echo "$go_where git symbolic-ref $go_name $pick"
		elif test $go_kind -lt 40
		then
			pick $light &&
			echo "$go_where git tag -f ${pick#refs/tags/} $go_oid"
		elif test $go_kind -lt 46
		then
			pick $annotated &&
			echo "$go_where git tag -f -a -m m ${pick#refs/tags/} $go_oid"
		elif test $go_kind -lt 50
		then
			pick $nested &&
			go_name=$pick &&
			pick $annotated $nested &&
			echo "$go_where git -c advice.nestedTag=false tag -f -a -m m ${go_name#refs/tags/} $pick"
		elif test $go_kind -lt 54
		then
			pick "pack-refs --all" "pack-refs" "$optimize" \
				"-c reftable.blockSize=512 -c reftable.restartInterval=1 pack-refs --all" \
				"-c reftable.blockSize=1024 -c reftable.restartInterval=3 pack-refs --all" &&
			echo "$go_where git $pick"
		elif test $go_kind -lt 60
		then
			# A burst of small writes, a table each, compacted as they come.
			rnd 8 &&
			go_burst=$((rnd + 4)) &&
			while test $go_burst -gt 0
			do
				pick $branches $light $others &&
				go_name=$pick &&
				pick $commits &&
				rnd 4 &&
				if test $rnd = 0
				then
					echo "$go_where git update-ref -d $go_name"
				else
					echo "$go_where git update-ref $go_name $pick"
				fi &&
				go_burst=$((go_burst - 1)) || return 1
			done
		elif test $go_kind -lt 68
		then
			pick "update-ref --no-deref HEAD $go_oid" "symbolic-ref HEAD" \
				"checkout -q -f" "checkout -q -f --detach $go_oid" &&
			case $pick in
			symbolic-ref*|checkout\ -q\ -f)
				go_cmd=$pick &&
				pick $branches refs/heads/main refs/heads/wt &&
				case $go_cmd in
				checkout*) go_cmd="$go_cmd ${pick#refs/heads/}" ;;
				*) go_cmd="$go_cmd $pick" ;;
				esac ;;
			*)
				go_cmd=$pick ;;
			esac &&
			echo "$go_where git $go_cmd"
		elif test $go_kind -lt 72
		then
			echo "$go_where git commit -q --allow-empty -m c$go_n"
		elif test $go_kind -lt 84
		then
			pick $own &&
			go_name=$pick &&
			rnd 3 &&
			if test $rnd = 0
			then
				echo "$go_where git update-ref -d $go_name"
			else
				echo "$go_where git update-ref $go_name $go_oid"
			fi
		elif test $go_kind -lt 92
		then
			rnd 3 &&
			go_writers=$((rnd + 2)) &&
			rnd 6 &&
			go_count=$((go_writers + rnd)) &&
			go_line="parallel $go_writers" &&
			go_left="$branches $others $light refs/remotes/o/r2 refs/remotes/o/r3" &&
			while test $go_count -gt 0
			do
				pick $go_left &&
				go_name=$pick &&
				go_left=$(echo " $go_left " | sed "s| $go_name | |") &&
				pick $commits &&
				go_line="$go_line $go_name $pick" &&
				go_count=$((go_count - 1)) || return 1
			done &&
			echo "$go_line"
		elif test $go_kind -lt 96
		then
			pick on off &&
			echo "compaction $pick"
		elif test $go_kind -lt 98
		then
			echo "main git worktree remove --force ../wt && git worktree add -q --detach ../wt $go_oid"
		else
			echo "$go_where git update-ref refs/heads/b0 $go_oid"
		fi &&
		rnd 3 &&
		if test $rnd = 0
		then
			go_check=HEAD &&
			for go_i in 1 2 3
			do
				pick $looked_up $looked_up $shared $own &&
				go_check="$go_check $pick" || return 1
			done &&
			echo "check $go_check"
		fi &&
		go_n=$((go_n + 1)) || return 1
	done &&
	echo check $looked_up $shared $own
}

test_expect_success REFTABLE 'setup: the twins, a linked work tree each, the operations' '
	for twin in rt fs
	do
		unset test_tick &&
		git init -q --ref-format=$(test $twin = rt && echo reftable || echo files) $twin/main &&
		for c in 0 1 2 3 4 5
		do
			test_commit -C $twin/main --no-tag c$c || return 1
		done &&
		git -C $twin/main worktree add -q -b wt ../wt HEAD~2 &&
		# Peeled objects from the start, whatever the operations: an
		# annotated tag, a tag of it, a symbolic ref to it.
		git -C $twin/main tag -a -m m a0 HEAD~1 &&
		git -C $twin/main -c advice.nestedTag=false tag -a -m m n0 a0 &&
		git -C $twin/main symbolic-ref refs/heads/s0 refs/tags/n0 || return 1
	done &&
	test "$(git -C rt/main rev-parse --show-ref-format)" = reftable &&
	test "$(git -C fs/main rev-parse --show-ref-format)" = files &&
	test -f rt/main/.git/worktrees/wt/reftable/tables.list &&
	commits=$(git -C rt/main rev-list main) &&
	test "$(git -C fs/main rev-list main)" = "$commits" &&
	gen_ops $diff_ops >ops &&
	check $looked_up $shared $own
'

test_expect_success REFTABLE 'random operations: git and the library read the same refs' '
	n=0 &&
	while read -r kind rest <&3
	do
		n=$((n + 1)) &&
		echo "[$n] $kind $rest" &&
		for twin in rt fs
		do
			echo "[$n] $kind $rest" >>$twin.oplog || return 1
		done &&
		test_tick &&
		case $kind in
		check)
			check $rest ;;
		compaction)
			if test $rest = on
			then
				unset GIT_TEST_REFTABLE_AUTOCOMPACTION
			else
				GIT_TEST_REFTABLE_AUTOCOMPACTION=false &&
				export GIT_TEST_REFTABLE_AUTOCOMPACTION
			fi ;;
		parallel)
			parallel $rest ;;
		*)
			where=$kind &&
			op "$rest" ;;
		esac || {
			echo "operation $n failed (seed $diff_seed); the operations so far:" &&
			head -n $n ops &&
			return 1
		}
	done 3<ops
'

test_done
