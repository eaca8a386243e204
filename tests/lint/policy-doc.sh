#!/bin/bash
# tests/lint/policy-doc.sh: doc/policies.md's walk through the example
# ("The example, line by line") shows policies/aimd.bpf.c as it is: every
# C block of that section is found, line for line, in the file, the blocks
# come in the file's order, and together they hold every line of the file
# but comments (blank lines do not count).  A planted change to the file is caught.
. "$(dirname "$0")/../unit/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
doc=$top/doc/policies.md src=$top/policies/aimd.bpf.c

# check DOC SRC: "ok"/"not ok" lines for the blocks of DOC against SRC
check() {
	python3 - "$1" "$2" <<'PY'
import re, sys
doc, src = open(sys.argv[1]).read(), open(sys.argv[2]).read().split('\n')
sec = doc.split('## The example, line by line', 1)
if len(sec) < 2:
    print('missing section'); sys.exit(1)
sec = re.split(r'\n## ', sec[1], 1)[0]
# blank lines do not count, on either side
blocks = [[l for l in b.split('\n') if l.strip()]
          for b in re.findall(r'```c\n(.*?)\n```', sec, re.S)]
src = [l for l in src if l.strip()]
if not blocks:
    print('no C blocks'); sys.exit(1)
pos, used = 0, set()
for b in blocks:
    at = next((i for i in range(pos, len(src) - len(b) + 1) if src[i:i + len(b)] == b), None)
    if at is None:
        print('not in the file (in order): ' + b[0]); sys.exit(1)
    used.update(range(at, at + len(b)))
    pos = at + len(b)
left = [l for i, l in enumerate(src) if i not in used
        and not re.match(r'\s*(/\*|\*|//)', l)]
if left:
    print('not shown: ' + left[0]); sys.exit(1)
print('%d blocks' % len(blocks))
PY
}
if out=$(check "$doc" "$src"); then ok "doc/policies.md shows aimd.bpf.c line by line ($out)"; else fail "doc/policies.md against aimd.bpf.c: $out"; fi
tmp=$(mktemp)
sed 's/depth \/ 2/depth \/ 3/' "$src" > "$tmp"
if cmp -s "$src" "$tmp"; then
	fail "planted change: the halving line was not found to change"
elif out=$(check "$doc" "$tmp"); then
	fail "a planted change to the file went unseen ($out)"
else
	ok "a planted change to the file is caught ($out)"
fi
rm -f "$tmp"
[ "$tap_fails" = 0 ]
