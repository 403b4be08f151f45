# lib-measure.sh - timing for the t/perf/p*.sh benchmarks.  Needs $work
# (a scratch directory) and $RUNS set by the caller.

# measure NAME COMMAND...: one warm-up run, then RUNS timed runs; sets
# <NAME>_us (median wall-clock microseconds) and <NAME>_kib (the highest
# peak RSS).  The clock includes starting /usr/bin/time, about 1 ms.
measure () {
	m_name=$1
	shift
	"$@" >/dev/null 2>&1
	: >"$work/times"
	: >"$work/peaks"
	m_i=0
	while test $m_i -lt "$RUNS"
	do
		m_start=$(date +%s%N)
		/usr/bin/time -f %M -o "$work/peak" "$@" >/dev/null 2>&1
		m_end=$(date +%s%N)
		echo $(((m_end - m_start) / 1000)) >>"$work/times"
		tail -n 1 "$work/peak" >>"$work/peaks"
		m_i=$((m_i + 1))
	done
	eval "${m_name}_us=$(sort -n "$work/times" | sed -n "$(((RUNS + 1) / 2))p")"
	eval "${m_name}_kib=$(sort -n "$work/peaks" | tail -n 1)"
}

ratio () {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", a / b }'
}
