#!/bin/bash
# The VM suite's result formats, on fixtures (tests/unit/fixtures/vm-*.ktap,
# shaped like build/test/vm*.ktap): tests/ktap-nest's document parses with
# kunit.py parse (linux-source-6.1) into the right suites and counts, and
# tests/ktap2junit's XML is well formed with the same counts, the failure
# message and the skip reason.  (tests/run parses the real run's KTAP the
# same way: the "ktap-roundtrip" check.)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
fx=$top/tests/unit/fixtures
tmp=$(mktemp -d)
tap_atexit 'rm -rf "$tmp"'
src=$("$top/scripts/linux-src") || { fail ktap-nest-parse "no linux-source"; exit 0; }

"$top/tests/ktap-nest" "$fx/vm-a.ktap" "$fx/vm-b.ktap" > "$tmp/all.ktap"
# (kunit.py parse exits 1 when a test failed, as one does here: the JSON counts)
python3 "$src/tools/testing/kunit/kunit.py" parse --json="$tmp/all.json" "$tmp/all.ktap" > "$tmp/parse.log" 2>&1
if [ -s "$tmp/all.json" ]; then
	got=$(python3 - "$tmp/all.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d['sub_groups']:
    print(g['name'], ' '.join('%s=%s' % (c['name'], c['status']) for c in g['test_cases']))
PY
)
	want="vm-a fault-policy-churn=PASS stats=FAIL zoned=SKIP
vm-b bubble=PASS kmemleak=PASS"
	if [ "$got" = "$want" ]; then
		ok ktap-nest-parse
	else
		printf '%s\n' "$got" | sed 's/^/# got: /'
		fail ktap-nest-parse "suites/statuses differ"
	fi
else
	sed 's/^/# /' "$tmp/parse.log" | tail -5
	fail ktap-nest-parse "kunit.py parse failed"
fi

python3 "$top/tests/ktap2junit" "$fx/vm-a.ktap" "$fx/vm-b.ktap" > "$tmp/j.xml"
if python3 - "$tmp/j.xml" <<'PY'
import sys
import xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
s = r.findall('testsuite')
assert [x.get('name') for x in s] == ['vm-a', 'vm-b'], s
a = s[0]
assert (a.get('tests'), a.get('failures'), a.get('skipped')) == ('3', '1', '1'), a.attrib
c = {t.get('name'): t for t in a.findall('testcase')}
assert c['fault-policy-churn'].get('time') == '61'
assert 'issued 120' in c['fault-policy-churn'].find('system-out').text
assert c['stats'].find('failure').get('message').startswith('service mean 1 us')
assert c['zoned'].find('skipped').get('message') == 'no zoned support'
assert s[1].get('failures') == '0' and len(s[1].findall('testcase')) == 2
PY
then
	ok ktap2junit
else
	fail ktap2junit "see the assertion above"
fi
