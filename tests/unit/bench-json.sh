#!/bin/sh
# lunqbench --json is typed (doc/json.md, schema 2), on a file, for each
# kind of run: closed and open loop, mixed directions, the sync engine
# with --fsync, zipf and hot skews, several jobs (bubble), the scans
# (align, bs), --seekpct decimals and eof.  Each output is parsed with
# python3's json (NaN or Infinity refused): "schema" is the first member
# of the object and is 2; every member this test knows has its type
# (integers for counts, ns, bytes; numbers for rates, seconds, means;
# true/false for flags); no string anywhere parses as a number or is
# true/false/null, except the members that are names, paths or specs
# (path, target, name, bs); and the known members all appear.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/bench/lunqbench
. "$(dirname "$0")/tap.sh"
tap_built bench-json "$top" bench/lunqbench
if ! command -v python3 > /dev/null; then
	skip bench-json "no python3"
	exit 0
fi
tmp=$(mktemp -d /tmp/lunqbench-json.XXXXXX)
tap_atexit 'rm -rf "$tmp"'
img=$tmp/lb.img
cat > "$tmp/check.py" << 'EOF'
import json, sys

INT = {"schema", "ios", "reads", "writes", "bytes", "errors", "verify_errors",
       "unverified", "fsyncs", "qd", "backlog_max", "dropped", "count", "sum",
       "max", "p50", "p90", "p99", "p99.9", "p99.99", "iodepth", "threads",
       "batch", "rdpct", "align", "seed", "ios_limit", "size", "sector",
       "clock_read_ns", "n", "resp_p99_ns", "resp_max_ns", "lag_p99_ns",
       "offset", "bs_bytes", "exact", "sub_bits", "max_bits", "spin_pct",
       "hot_pct", "hot_io_pct"}
NUM = {"elapsed_s", "iops", "mbps", "mean", "cpu_s", "cpu_ns_per_io",
       "cpu_user_s", "cpu_sys_s", "spin_s", "cpu_main_s",
       "cpu_kernel_workers_s", "t", "len", "resp_mean_ns", "queue_depth",
       "rate", "iorate", "interval_s", "warmup_s", "seekpct", "zipf_theta"}
BOOL = {"saturated", "interrupted", "verify", "direct", "warmup", "seek_eof"}
NAMES = {"path", "target", "name", "bs"}	# may hold anything
# every run's output has these
ALWAYS = INT - {"fsyncs", "offset", "bs_bytes", "hot_pct", "hot_io_pct"} | \
	(NUM - {"zipf_theta", "t", "len", "resp_mean_ns", "queue_depth"}) | \
	(BOOL - {"warmup"})
ALWAYS -= {"n", "resp_p99_ns", "resp_max_ns", "lag_p99_ns"}	# intervals
ALWAYS |= {"lunqbench", "config", "engine", "loop", "arrival", "skew",
	   "preset", "targets", "type", "clock", "hist_layout", "hist"}

def bad_const(c):
	raise ValueError("not JSON: " + c)

def numeric_str(s):
	if s in ("true", "false", "null"):
		return True
	try:
		float(s)
		return True
	except ValueError:
		return False

problems, seen = [], set()

def walk(v, where, key):
	if isinstance(v, dict):
		for k, x in v.items():
			seen.add(k)
			walk(x, where + "." + k, k)
	elif isinstance(v, list):
		for i, x in enumerate(v):
			walk(x, "%s[%d]" % (where, i), key)
	elif isinstance(v, str):
		if key not in NAMES and numeric_str(v):
			problems.append("%s: the string %r is a number or a constant" % (where, v))
	elif key in INT and not (type(v) is int):
		problems.append("%s: %r is not an integer" % (where, v))
	elif key in NUM and (type(v) is bool or not isinstance(v, (int, float))):
		problems.append("%s: %r is not a number" % (where, v))
	elif key in BOOL and type(v) is not bool:
		problems.append("%s: %r is not true/false" % (where, v))
	if key in ("range", "buckets") and isinstance(v, list) and where.endswith(key):
		for x in (v if key == "buckets" else [v]):
			if not (isinstance(x, list) and all(type(e) is int for e in x)):
				problems.append("%s: %r is not integers" % (where, x))

name, extra = sys.argv[1], set(sys.argv[2:])
try:
	doc = json.loads(sys.stdin.read(), parse_constant=bad_const)
except ValueError as e:
	print("not ok bench-json-%s # does not parse: %s" % (name, e))
	sys.exit(0)
if not isinstance(doc, dict) or list(doc)[:1] != ["schema"] or \
   type(doc["schema"]) is not int or doc["schema"] != 2:
	problems.append("\"schema\": 2 is not the first member")
walk(doc, "", "")
for k in sorted((ALWAYS | extra) - seen):
	problems.append("member %s missing" % k)
for p in problems[:20]:
	print("# " + p)
print("%sok bench-json-%s%s" % ("not " if problems else "", name,
      " # %d problem(s)" % len(problems) if problems else ""))
EOF
j() {	# j NAME "EXTRA MEMBERS" ARGS...: lunqbench --json ARGS, checked
	name=$1 extra=$2
	shift 2
	"$bin" --json --buffered --size 4m "$@" "$img" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" != 0 ]; then
		sed 's/^/# /' "$tmp/err"
		fail bench-json-$name "lunqbench $*: exit $rc"
		return
	fi
	# shellcheck disable=SC2086
	python3 "$tmp/check.py" "$name" $extra < "$tmp/out" > "$tmp/res"
	tap_relay < "$tmp/res"
}
j closed-mixed "intervals" --rdpct 50 --iodepth 4 --ios 300 --interval 0
j open-intervals "n t len resp_mean_ns queue_depth resp_p99_ns lag_p99_ns warmup zipf_theta" \
	--iorate 2000 --elapsed 0.5 --interval 0.1 --zipf 0.9
j sync-fsync "fsyncs" --engine sync --threads 2 --fsync 4 --rdpct 0 --ios 40 --interval 0
j hot-bs-number "hot_pct hot_io_pct" --hot 10/90 --bs 4096 --ios 50 --interval 0
j bubble "" --preset bubble --elapsed 0.5 --interval 0
j align "offset runs" --preset align --elapsed 0.05
j bs "bs_bytes runs" --preset bs --elapsed 0.05
j seekpct-decimal "" --seekpct 0.01 --ios 100 --interval 0
j seekpct-eof "" --seekpct eof --interval 0
