#!/bin/sh
# tests/lint/doclinks.sh: the Markdown pages' relative links resolve.
#
# In README.md, doc/*.md and every other *.md of the tree (git's tracked
# and untracked-not-ignored files; without git, all but build/), each
# relative link -- [text](target), ![alt](target), [ref]: target,
# href="target" -- outside code blocks and code spans must name an
# existing file or directory of the tree, and its #anchor, when it has
# one, a heading of the Markdown page it names (or of the page itself for
# "#anchor" alone) by GitHub's rules: the heading's text, lowercased,
# every character but letters, digits, spaces, '-' and '_' dropped,
# spaces made '-'; a repeated heading gets -1, -2, ...  Links with a
# scheme (https:, mailto:) are not followed.  The checker must find the
# broken links planted in a page of its own, and nothing else there.
#
#   tests/lint/doclinks.sh [FILE.md...]    (files: check only those)
# TAP lines: ok/not ok per check.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../unit/tap.sh"
tmp=$(mktemp -d)
tap_atexit 'rm -rf "$tmp"'

# check ROOT FILE...: one line per broken link ("file:line: target:
# why"), then "# checked N links (A with anchors) in F files" on stderr
check() {
	python3 - "$@" <<'EOF'
import os, re, sys, unicodedata
from urllib.parse import unquote

root = os.path.realpath(sys.argv[1])
files = sys.argv[2:]
FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')

def blocks(lines):
    """(line number, text) of the lines outside fenced code blocks."""
    fence = None
    for i, l in enumerate(lines, 1):
        m = FENCE.match(l)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield i, l

def no_code(s):
    return re.sub(r'(`+)(.+?)\1', lambda m: ' ' * len(m.group(0)), s)

def text_of(h):
    """A heading's text as GitHub renders it (markup dropped)."""
    out = []
    for k, part in enumerate(re.split(r'(`+[^`]*`+)', h)):
        if k % 2:
            out.append(part.strip('`'))
            continue
        part = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', part)
        part = re.sub(r'<[^>]+>', '', part)
        part = part.replace('*', '')
        part = re.sub(r'(?<![\w])_+|_+(?![\w])', '', part)
        out.append(part)
    return ''.join(out)

def slug(text):
    s = []
    for c in text.strip().lower():
        cat = unicodedata.category(c)
        if c in '-_' or cat[0] in 'LNM':
            s.append(c)
        elif c == ' ':
            s.append('-')
    return ''.join(s)

anchor_cache = {}
def anchors(path):
    if path in anchor_cache:
        return anchor_cache[path]
    seen, found = {}, set()
    lines = open(path, encoding='utf-8').read().split('\n')
    prev = ''
    for i, l in blocks(lines):
        h = None
        m = re.match(r'^ {0,3}(#{1,6})(?:\s+(.*?))?\s*$', l)
        if m:
            h = re.sub(r'\s+#+\s*$', '', m.group(2) or '')
        elif re.match(r'^ {0,3}(=+|-+)\s*$', l) and prev.strip() and \
                not prev.lstrip().startswith(('|', '-', '*', '>', '#')):
            h = prev.strip()
        for m in re.finditer(r'(?:id|name)="([^"]+)"', l):
            found.add(m.group(1))
        prev = l
        if h is None:
            continue
        s = slug(text_of(h))
        k = seen.get(s, 0)
        seen[s] = k + 1
        found.add(s if k == 0 else '%s-%d' % (s, k))
    anchor_cache[path] = found
    return found

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+["\'(][^)]*)?\)')
REFDEF = re.compile(r'^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)')
HREF = re.compile(r'href="([^"]+)"')
nlinks = nanch = 0
for f in files:
    path = os.path.realpath(f)
    rel = os.path.relpath(path, root)
    lines = open(path, encoding='utf-8').read().split('\n')
    for i, l in blocks(lines):
        l = no_code(l)
        targets = [m.group(1) for m in LINK.finditer(l)]
        targets += [m.group(1) for m in HREF.finditer(l)]
        m = REFDEF.match(l)
        if m:
            targets.append(m.group(1))
        for t in targets:
            if re.match(r'^[A-Za-z][A-Za-z0-9+.-]*:', t) or t.startswith('//'):
                continue
            nlinks += 1
            p, _, a = t.partition('#')
            p = unquote(p)
            if not p:
                dest = path
            elif p.startswith('/'):
                dest = os.path.normpath(os.path.join(root, p.lstrip('/')))
            else:
                dest = os.path.normpath(os.path.join(os.path.dirname(path), p))
            if dest != root and not dest.startswith(root + os.sep):
                print('%s:%d: %s: outside the tree' % (rel, i, t))
                continue
            if not os.path.exists(dest):
                print('%s:%d: %s: no such file' % (rel, i, t))
                continue
            if not a:
                continue
            nanch += 1
            if not dest.endswith('.md') or os.path.isdir(dest):
                print('%s:%d: %s: an anchor into a page that is not Markdown' % (rel, i, t))
            elif unquote(a) not in anchors(dest):
                print('%s:%d: %s: no heading "#%s" in %s' %
                      (rel, i, t, a, os.path.relpath(dest, root)))
print('# checked %d links (%d with anchors) in %d files' %
      (nlinks, nanch, len(files)), file=sys.stderr)
EOF
}

given=$#
if [ "$given" -gt 0 ]; then
	:
elif git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	# shellcheck disable=SC2046
	set -- $(cd "$top" && git ls-files -co --exclude-standard -- '*.md' |
		while read -r f; do [ -f "$f" ] && echo "$top/$f"; done)
else
	# shellcheck disable=SC2046
	set -- $(cd "$top" && find . -name '*.md' -not -path './build/*' \
		-not -path './.git/*' | sed "s|^\.|$top|")
fi
if [ "$given" = 0 ]; then	# the tree's pages: the front page and doc/ among them
	for f in "$top/README.md" "$top/doc/json.md" "$top/doc/testing.md"; do
		case " $* " in *" $f "*) ;; *) fail "${f#"$top"/} is not among the pages checked" ;; esac
	done
fi

check "$top" "$@" > "$tmp/broken" 2> "$tmp/count"
if [ -s "$tmp/broken" ]; then
	fail "broken links in the Markdown pages ($(wc -l < "$tmp/broken")):"
	sed 's/^/#   /' "$tmp/broken"
else
	ok "every relative link and anchor resolves in $# Markdown pages"
fi
cat "$tmp/count"

# the checker itself: a page with planted broken links (a missing file, a
# missing heading, a missing heading of its own) among good ones
mkdir -p "$tmp/t/doc"
cat > "$tmp/t/b.md" <<'EOF'
# Page B

## A 5-minute tour: `make demo`

## Tests

### Tests

## `lunq_model_io` and **bold** _words_
EOF
cat > "$tmp/t/doc/a.md" <<'EOF'
# Page A

## Its own section

Good: [b](../b.md), [tour](../b.md#a-5-minute-tour-make-demo),
[again](../b.md#tests-1), [code](../b.md#lunq_model_io-and-bold-words),
[self](#its-own-section), [dir](../doc/), ![img](a.md),
[web](https://example.com/x.md#nowhere), `[code span](nowhere.md)`.

Broken: [gone](../gone.md), [no heading](../b.md#testing),
[no own heading](#not-here).

[ref]: ../b.md#tests

```
[in a code block](nowhere.md)
```
EOF
check "$tmp/t" "$tmp/t/doc/a.md" > "$tmp/planted" 2> /dev/null
if [ "$(cat "$tmp/planted")" = "doc/a.md:10: ../gone.md: no such file
doc/a.md:10: ../b.md#testing: no heading \"#testing\" in b.md
doc/a.md:11: #not-here: no heading \"#not-here\" in doc/a.md" ]; then
	ok "the checker finds the 3 planted broken links, and nothing else"
else
	fail "the checker finds the 3 planted broken links, and nothing else:"
	sed 's/^/#   /' "$tmp/planted"
fi
[ "$tap_fails" -eq 0 ]
