#!/bin/sh
# Runs inside the lab's guest (tests/lab/lab.sh): each seed workload
# recorded three ways, every run's objects found by the kernel itself.
#
#   clock  perf record -a -I, cpu-clock with the interrupted registers
#          alone, over the workload's whole life: no tracepoint, whose cost
#          would take most of the samples (lock1 with the kmem tracepoints:
#          39 of 47 thousand in kmem_cache_free and the tracepoint itself)
#   watch  hardware watchpoints (mem:ADDR/LEN:w) on the fields of the live
#          object, set once the workload has allocated it, and the kmem
#          tracepoints
#   hitmap hitmap record -a --kmem: with no memory-sampling PMU in the
#          guest, cpu-clock samples with the interrupted registers (as
#          clock) and the kmem tracepoints, whose cost draws many of the
#          samples to the allocator; lock1's allocations and frees
#          (about 90 thousand a second) overflow 1024 pages a CPU
#
# The object of each run is found by ftrace (an instance of its own, raw
# pointers): the kmem_cache_alloc of the workload's pid at the expected call
# site.  Its address is written to /out/SEED.RUN.object, the tracer's line
# to /out/SEED.RUN.ftrace, for the host to check against perf script.  The
# tracer stops once the object is found: the loops run untraced.
#
# /lab/seeds.env sets SEEDS (the seeds to run), SECS, and per seed NAME_CMD,
# NAME_SITE (call-site function, a regex), NAME_WATCH ("OFFSET/LEN:w ..."
# from the struct's layout, at most 4: the debug registers; :rw for words
# the kernel changes with lock cmpxchg, which QEMU reports as a read only).
# The workload's main process allocates the object before it prints
# "ready".  The recorders run this script again for a run's steps
# (--step): the tracing set-up above them is done twice, to the same end.
set -u
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
. /lab/seeds.env
T=/sys/kernel/tracing
I=$T/instances/lab
mkdir -p $I
echo 0 >$I/options/hash-ptr
echo 1 >$I/events/kmem/kmem_cache_alloc/enable
KMEM="-e kmem:kmem_cache_alloc -e kmem:kmem_cache_free -e kmem:kmalloc -e kmem:kfree"
cd /tmp
status=0

# Wait until the workload says it is ready.
wait_ready() {	# OUT
	i=0
	while ! grep -q ready "$1" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
		[ $i -lt 600 ] || { echo "lab-seed: no ready line in $1"; cat "$1"; return 1; }
	done
}

# The object the workload allocated: the address from ftrace.
find_object() {	# SEED RUN PID SITE
	grep -E -- "-$3 +\[" $I/trace | grep -E "call_site=($4)\+" >/out/$1.$2.ftrace
	a=$(sed -n 's/.* ptr=\(0x\)\{0,1\}\([0-9a-f]*\).*/\2/p' /out/$1.$2.ftrace | tail -1)
	echo 0 >$I/tracing_on
	[ -n "$a" ] || { echo "lab-seed: $1 $2: no kmem_cache_alloc by pid $3 at $4"; return 1; }
	echo "0x$a" >/out/$1.$2.object
}

# The recorders run in the foreground, with the run's steps as their
# command: perf record -a started in the background of a script records well
# under a second and then nothing, in this guest.

# Start the workload and find its object.
launch() {	# SEED RUN
	rm -f /tmp/go /tmp/stopw
	$cmd /tmp/go /tmp/stopw >/out/$1.$2.out 2>&1 &
	echo $! >/tmp/workload.pid
	wait_ready /out/$1.$2.out || return 1
	find_object $1 $2 $(cat /tmp/workload.pid) "$site"
}

# Let the workload's loops run SECS seconds and wait for its end.
drive() {	# SEED RUN
	w=$(cat /tmp/workload.pid)
	touch /tmp/go
	sleep $SECS
	touch /tmp/stopw
	while kill -0 $w 2>/dev/null; do sleep 0.05; done
	grep -q iterations /out/$1.$2.out || { echo "lab-seed: $1 $2: workload failed:"; cat /out/$1.$2.out; return 1; }
}

setup() {	# SEED
	eval "cmd=\$${1}_CMD site=\$${1}_SITE watch=\$${1}_WATCH"
}

# Steps run as a recorder's command (this script again).
if [ "${1:-}" = --step ]; then
	setup $3
	case $2 in
	launch-drive) launch $3 $4 && drive $3 $4 ;;
	drive) drive $3 $4 ;;
	esac
	exit
fi

recorded() {	# SEED RUN LOG CMD...
	log=$3; s=$1 r=$2; shift 3
	"$@" >"$log" 2>&1 || { echo "lab-seed: $s $r: recorder failed:"; cat "$log"; return 1; }
}

# One run of SEED recorded as RUN.
run() {	# SEED RUN
	s=$1 r=$2
	setup $s
	echo >$I/trace
	echo 1 >$I/tracing_on
	step="sh $self --step"
	case $r in
	clock) recorded $s $r /out/$s.$r.perf.log perf record -q -a -I -e cpu-clock -c 100000 \
		-o /out/$s.$r.data -- $step launch-drive $s $r || return 1 ;;
	hitmap) recorded $s $r /out/$s.$r.perf.log hitmap record -a --kmem --mmap-pages 4096 \
		-o /out/$s.$r.data -- $step launch-drive $s $r || return 1 ;;
	watch)
		launch $s $r || return 1
		ev=
		obj=$(cat /out/$s.$r.object)
		for f in $watch; do
			off=${f%%/*} len=${f#*/}
			ev="$ev -e mem:$(printf '0x%x' $((obj + off)))/$len"
		done
		recorded $s $r /out/$s.$r.perf.log perf record -q -a -d $ev $KMEM \
			-o /out/$s.$r.data -- $step drive $s $r || return 1 ;;
	esac
	echo "lab-seed: $s $r: object $(cat /out/$s.$r.object), $(grep iterations /out/$s.$r.out | tr '\n' ' ')"
	# The recording (up to 17 MB) out to the disk now, not by the
	# kernel's writeback during the next run, whose workload's
	# interleaving its verdict rests on.
	sync
}

for s in $SEEDS; do
	for r in ${RUNS:-clock watch hitmap}; do
		run $s $r || status=1
	done
done
grep -E ' (T|t|D|d|B|b) (_stext|_text)$' /proc/kallsyms >/out/kallsyms.text
cat /proc/cmdline >/out/cmdline
exit $status
