# lib-measure.sh - set-up and timing for the t/perf/p*.sh benchmarks.  measure
# needs $work (see perf_setup) and $RUNS.

# measure NAME[:STATUS] COMMAND...: one warm-up run, then RUNS timed runs;
# sets <NAME>_us (median wall-clock microseconds) and <NAME>_kib (the
# highest peak RSS).  The clock includes starting /usr/bin/time, about
# 1 ms.  Every run must exit with STATUS (default 0), or the benchmark
# dies: a figure of a command that failed measures nothing.
measure () {
	m_name=${1%%:*} m_want=0
	case $1 in *:*) m_want=${1#*:} ;; esac
	shift
	"$@" >/dev/null 2>"$work/stderr"
	measure_check_ $? "$m_want" "$m_name" "$*"
	: >"$work/times"
	: >"$work/peaks"
	m_i=0
	while test $m_i -lt "$RUNS"
	do
		m_start=$(date +%s%N)
		/usr/bin/time -f %M -o "$work/peak" "$@" >/dev/null 2>"$work/stderr"
		m_rc=$?
		m_end=$(date +%s%N)
		measure_check_ $m_rc "$m_want" "$m_name" "$*"
		echo $(((m_end - m_start) / 1000)) >>"$work/times"
		tail -n 1 "$work/peak" >>"$work/peaks"
		m_i=$((m_i + 1))
	done
	eval "${m_name}_us=$(sort -n "$work/times" | sed -n "$(((RUNS + 1) / 2))p")"
	eval "${m_name}_kib=$(sort -n "$work/peaks" | tail -n 1)"
}

# measure_check_ RC WANT NAME COMMAND: die unless a run exited with WANT,
# showing the end of what it wrote to stderr.
measure_check_ () {
	test "$1" = "$2" ||
		die "$3: '$4' exited with $1, not $2: $(tail -n 5 "$work/stderr")"
}

# measure_rounds NAME[:STATUS]=COMMAND...: one warm-up run of each
# command, then RUNS rounds that run every command once in turn, so that
# a command and the git command it is compared with meet the same load
# on a shared machine; sets <NAME>_us and <NAME>_kib and checks the exit
# status as measure does.  Each COMMAND is split into words by the
# shell: no quoting inside.
measure_rounds () {
	for mr_spec
	do
		measure_spec_ "$mr_spec"
		$mr_cmd >/dev/null 2>"$work/stderr"
		measure_check_ $? "$mr_want" "$mr_name" "$mr_cmd"
		: >"$work/times.$mr_name"
		: >"$work/peaks.$mr_name"
	done
	mr_i=0
	while test $mr_i -lt "$RUNS"
	do
		for mr_spec
		do
			measure_spec_ "$mr_spec"
			m_start=$(date +%s%N)
			/usr/bin/time -f %M -o "$work/peak" $mr_cmd >/dev/null 2>"$work/stderr"
			m_rc=$?
			m_end=$(date +%s%N)
			measure_check_ $m_rc "$mr_want" "$mr_name" "$mr_cmd"
			echo $(((m_end - m_start) / 1000)) >>"$work/times.$mr_name"
			tail -n 1 "$work/peak" >>"$work/peaks.$mr_name"
		done
		mr_i=$((mr_i + 1))
	done
	for mr_spec
	do
		measure_spec_ "$mr_spec"
		eval "${mr_name}_us=$(sort -n "$work/times.$mr_name" | sed -n "$(((RUNS + 1) / 2))p")"
		eval "${mr_name}_kib=$(sort -n "$work/peaks.$mr_name" | tail -n 1)"
	done
}

# measure_spec_ NAME[:STATUS]=COMMAND: sets mr_name, mr_want, mr_cmd.
measure_spec_ () {
	mr_name=${1%%=*} mr_cmd=${1#*=} mr_want=0
	case $mr_name in *:*) mr_want=${mr_name#*:} mr_name=${mr_name%%:*} ;; esac
}

ratio () {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'
}

die () {
	echo "$perf_name: $*" >&2
	exit 1
}

# perf_scratch KIB: print the name of a new directory, on the tmpfs
# /dev/shm when it has KIB free (as make test's trash directories),
# otherwise in TMPDIR.  For benchmarks that write and remove hundreds of
# thousands of files or refs, which take minutes on a disk shared with
# other work; the commands compared meet the same file system either way.
perf_scratch () {
	test "$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')" -gt "$1" 2>/dev/null &&
		mktemp -d -p /dev/shm "perf-$perf_name.XXXXXX" ||
		mktemp -d
}

# perf_setup NAME: git as anyone would run it (none of the caller's
# configuration) with this build first on PATH; checks the tools, makes
# the kernel-scale repository (lib-kernel-scale.sh) and enters it, and a
# scratch directory $work that is removed on exit.
perf_setup () {
	perf_name=$1
	for var in $(env | sed -n 's/^\(GIT_[A-Za-z0-9_]*\)=.*/\1/p')
	do
		unset "$var"
	done
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
	PATH=$BUILD_DIR:$PATH
	export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL LC_ALL PATH
	test -x "$BUILD_DIR/git-rolling-advance" || die "build git-rolling first (make)"
	test -x /usr/bin/time || die "needs GNU time as /usr/bin/time (Debian package 'time')"
	repo=$(kernel_scale_repo) || die "cannot generate the repository"
	work=$(mktemp -d) || exit 1
	trap 'rm -rf "$work"' EXIT
	cd "$repo" || exit 1
}
