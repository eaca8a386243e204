#!/bin/bash
# tests/ktap2kcidb on fixtures (tests/unit/fixtures/kcidb-*): a nested VM
# KTAP of four runs (Debian's 6.1, 6.12 on the icount clock, the debug
# kernel, an RT run whose VM timed out), a flat one, tests/kunit/run's
# lines for 6.1 and kunit.py's raw KTAP for 6.12.  Every test's path,
# status (ok PASS, not ok FAIL, SKIP, a timeout ERROR, planned but never
# reported MISS), build and comment are checked exactly, and so are the
# builds; then the file is validated against kcidb-io's schema v5.3 in
# scripts/deps's venv (${LUNQ_CACHE:-~/.cache/lunq}/venv-kcidb; skipped,
# with the reason, without it), and planted-bad copies (a status the
# schema does not have, a null field, a path with a space, a test whose
# build is not there) must each be rejected.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
fx=$top/tests/unit/fixtures
tmp=$(mktemp -d)
tap_atexit 'rm -rf "$tmp"'
venv=${LUNQ_CACHE:-$HOME/.cache/lunq}/venv-kcidb

# tests/run's plan of the RT run: two of its tests never reported
printf 'basic\nintegrity\nstats\n' > "$tmp/vm-6.1.0-56-rt-amd64.tests"
# a flat run (tests/run's build/test/LABEL.ktap) with a log longer than
# KCIDB's log_excerpt may be
python3 - "$tmp/vm-icount.ktap" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('KTAP version 1\n1..1\n')
    for i in range(1000):
        f.write('# # round %04d: instructions per IO 11223.3\n' % i)
    f.write('# FAIL: the end\nnot ok 1 overhead-guard # 15s\n')
PY
if ! python3 "$top/tests/ktap2kcidb" --default-kernel 6.1.0-56-amd64 --plan-dir "$tmp" \
	--kunit "6.1=$fx/kcidb-kunit-6.1.log" --kunit "6.12=$fx/kcidb-kunit-6.12.log" \
	--kernel vm-debug=6.1.192 --failed-build "6.12.117+deb12-rt-amd64=dm-lunq.ko does not build" \
	--commit 0123456789abcdef0123456789abcdef01234567 --branch main --start-time 1795000000 \
	"$fx/kcidb-vm.ktap" "$tmp/vm-icount.ktap" > "$tmp/kcidb.json" 2> "$tmp/err"; then
	sed 's/^/# /' "$tmp/err"
	fail kcidb-convert "tests/ktap2kcidb failed"
	exit 0
fi

if python3 - "$tmp/kcidb.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
run = 'lunq:0123456789ab-20261118T110640Z'
assert d['version'] == {'major': 5, 'minor': 3}, d['version']
assert d['checkouts'] == [{
    'id': run, 'origin': 'lunq', 'tree_name': 'lunq',
    'start_time': '2026-11-18T11:06:40+00:00', 'valid': True,
    'git_commit_hash': '0123456789abcdef0123456789abcdef01234567',
    'git_repository_branch': 'main'}], d['checkouts']
builds = [(b['id'][len(run) + 1:], b['config_name'], b['architecture'], b['status'])
          for b in d['builds']]
want = [('6.12.117+deb12-rt-amd64', '6.12.117+deb12-rt-amd64', 'x86_64', 'FAIL'),
        ('6.1.0-56-amd64', '6.1.0-56-amd64', 'x86_64', 'PASS'),
        ('6.12.117+deb12-amd64', '6.12.117+deb12-amd64', 'x86_64', 'PASS'),
        ('6.1.192', 'debug', 'x86_64', 'PASS'),
        ('6.1.0-56-rt-amd64', '6.1.0-56-rt-amd64', 'x86_64', 'PASS'),
        ('uml-6.1', 'uml-6.1', 'um', 'PASS'),
        ('uml-6.12', 'uml-6.12', 'um', 'PASS')]
assert builds == want, builds
assert all(b['checkout_id'] == run and b['origin'] == 'lunq' for b in d['builds'])
assert 'debug kernel 6.1.192' in d['builds'][3]['comment']
bid = {b['id']: b['id'][len(run) + 1:] for b in d['builds']}
got = [(t['path'], t['status'], bid[t['build_id']], t.get('comment', ''))
       for t in d['tests']]
want = [
    ('lunq.vm.basic', 'PASS', '6.1.0-56-amd64', ''),
    ('lunq.vm.stats', 'FAIL', '6.1.0-56-amd64', 'service mean 1 us outside [2000 us, 2900 us]'),
    ('lunq.vm.throttle', 'ERROR', '6.1.0-56-amd64', 'timed out after 300 s'),
    ('lunq.vm.zoned', 'SKIP', '6.1.0-56-amd64', 'no zoned support'),
    ('lunq.vm.crash_fua', 'PASS', '6.12.117+deb12-amd64', ''),
    ('lunq.vm.fuzz-netlink', 'PASS', '6.12.117+deb12-amd64', ''),
    ('lunq.vm.bench-verify', 'SKIP', '6.1.192', 'timing-shaped checks; this kernel '
     '(KASAN, lockdep under TCG) is too slow for them'),
    ('lunq.vm.kmemleak', 'PASS', '6.1.192', ''),
    ('lunq.vm.basic', 'PASS', '6.1.0-56-rt-amd64', ''),
    ('lunq.vm', 'ERROR', '6.1.0-56-rt-amd64',
     'qemu/run exited 124 (see build/test/vm-6.1.0-56-rt-amd64/console.log)'),
    ('lunq.vm.integrity', 'MISS', '6.1.0-56-rt-amd64',
     'no result: the VM run vm-6.1.0-56-rt-amd64 ended before it (timed out)'),
    ('lunq.vm.stats', 'MISS', '6.1.0-56-rt-amd64',
     'no result: the VM run vm-6.1.0-56-rt-amd64 ended before it (timed out)'),
    ('lunq.vm.overhead-guard', 'FAIL', '6.1.0-56-amd64', 'the end'),
    ('lunq.kunit.lunq_auto.knee_step', 'PASS', 'uml-6.1', ''),
    ('lunq.kunit.lunq_auto.knee_drop', 'FAIL', 'uml-6.1',
     '[10:31:02]     # knee_drop: EXPECTATION FAILED at drivers/md/lunq/lunq_auto_test.c:88'),
    ('lunq.kunit.lunq_sched.lunq_fifo_arrival_order', 'SKIP', 'uml-6.1', 'needs CONFIG_LUNQ_SLOW'),
    ('lunq.kunit.lunq_args.lunq_args_parse', 'PASS', 'uml-6.12', ''),
    ('lunq.kunit.lunq_args.lunq_args_bad', 'FAIL', 'uml-6.12',
     'lunq_args_bad: EXPECTATION FAILED at drivers/md/lunq/lunq_args_test.c:41'),
    ('lunq.kunit.lunq_hist.lunq_hist_buckets', 'PASS', 'uml-6.12', ''),
]
for g, w in zip(got, want):
    assert g == w, 'got %r, want %r' % (g, w)
assert len(got) == len(want), 'got %d tests, want %d' % (len(got), len(want))
t = {(x['path'], bid[x['build_id']]): x for x in d['tests']}
assert t[('lunq.vm.basic', '6.1.0-56-amd64')]['duration'] == 12
assert t[('lunq.vm.basic', '6.1.0-56-amd64')]['id'] == run + ':vm:basic'
assert t[('lunq.vm.crash_fua', '6.12.117+deb12-amd64')]['id'] == \
    run + ':vm-6.12.117+deb12-amd64-icount:crash+fua'
assert t[('lunq.kunit.lunq_auto.knee_step', 'uml-6.1')]['id'] == run + ':uml-6.1:lunq_auto.knee_step'
assert 'pid 412 fio' in t[('lunq.vm.throttle', '6.1.0-56-amd64')]['log_excerpt']
long = t[('lunq.vm.overhead-guard', '6.1.0-56-amd64')]['log_excerpt']
assert len(long) <= 16384 and long.startswith('[...]\n') and long.endswith('FAIL: the end'), len(long)
ids = [x['id'] for x in d['tests']]
assert len(ids) == len(set(ids)), 'a test id twice'
path_re = re.compile(r'^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$')
def nonull(o):
    if isinstance(o, dict):
        return all(v is not None and nonull(v) for v in o.values())
    if isinstance(o, list):
        return all(nonull(v) for v in o)
    return o is not None
assert nonull(d), 'a null field'
assert all(path_re.match(x['path']) and x['origin'] == 'lunq' for x in d['tests'])
PY
then
	ok kcidb-convert "7 builds, 19 tests: paths, statuses, builds, comments as expected"
else
	fail kcidb-convert "see the assertion above"
fi

# kcidb-io's schema (scripts/deps's venv)
if ! "$venv/bin/python3" -c 'from kcidb_io.schema import V5_3' 2> /dev/null; then
	skip kcidb-schema "no kcidb-io in $venv (make deps installs it)"
	exit 0
fi
if out=$("$venv/bin/python3" "$top/tests/ktap2kcidb" --validate "$tmp/kcidb.json"); then
	ok kcidb-schema "${out#ok: }"
else
	echo "# $out"
	fail kcidb-schema "kcidb-io rejects tests/ktap2kcidb's file"
	fail kcidb-planted-bad "not tried: the file they are planted in is rejected already"
	exit 0
fi
# planted-bad copies: each must be rejected
python3 - "$tmp/kcidb.json" "$tmp" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
def plant(name, f):
    x = copy.deepcopy(d)
    f(x)
    json.dump(x, open('%s/bad-%s.json' % (sys.argv[2], name), 'w'))
plant('status', lambda x: x['tests'][0].update(status='CRASH'))
plant('null', lambda x: x['tests'][1].update(comment=None))
plant('path', lambda x: x['tests'][2].update(path='lunq.vm.bad path'))
plant('build', lambda x: x['tests'][3].update(build_id='lunq:no-such-build'))
plant('version', lambda x: x.pop('version'))
PY
missed=
for f in "$tmp"/bad-*.json; do
	n=$(basename "$f" .json)
	if out=$("$venv/bin/python3" "$top/tests/ktap2kcidb" --validate "$f"); then
		missed="$missed ${n#bad-}"
	else
		echo "# ${n#bad-}: $out"
	fi
done
if [ -z "$missed" ]; then
	ok kcidb-planted-bad "kcidb-io rejects a wrong status, a null, a bad path, no version; the link check a missing build"
else
	fail kcidb-planted-bad "accepted:$missed"
fi
