#!/usr/bin/env bash
# The documentation's code is test code. In README.md and in the DocC articles
# (Sources/*/*.docc/*.md: Frost's catalog, and FrostHummingbird's, whose snippets
# Tests/FrostHummingbirdTests compiles with the "Hummingbird" trait), a Swift block that follows
# a `<!-- snippet NAME -->` line is the block between `// snippet NAME: begin` and
# `// snippet NAME: end` in a test under Tests/, character for character (there indented as its
# marker is). A name may be compiled by several tests, in a
# synchronous and in an async function (the per-request snippets are): each copy must match.
# Every snippet in the documentation needs a test, and every test marker a snippet.
# In the catalogs listed in STRICT_DOCUMENTS, every Swift block is such a snippet, or a fragment
# of a package manifest marked `<!-- manifest -->` (what `make dependency-probe` resolves).
# `make test` runs this, so the documentation's code always compiles and runs as written.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

# Where each snippet is documented (a name is documented once).
documents=$(ls README.md Sources/*/*.docc/*.md)
declare -A documented
for document in $documents; do
    for name in $(sed -n 's/^<!-- snippet \([a-z0-9-]*\) -->$/\1/p' "$document"); do
        if [ -n "${documented[$name]:-}" ]; then
            echo "snippet '$name' is in both ${documented[$name]} and $document"
            status=1
        fi
        documented[$name]=$document
    done
done

tests=$(grep -rl -- '// snippet [a-z0-9-]*: begin$' Tests || true)
declare -A tested
for test_file in $tests; do
    # Each marker's line number, so that every copy of a name is compared.
    while IFS=: read -r line name; do
        tested[$name]=1
        document=${documented[$name]:-}
        if [ -z "$document" ]; then
            echo "$test_file:$line: snippet '$name' is in no document (README.md, *.docc)"
            status=1
            continue
        fi
        indent=$(sed -n "${line}p" "$test_file" | sed 's/[^ ].*//')
        expected=$(tail -n +"$((line + 1))" "$test_file" \
            | sed "/^ *\/\/ snippet $name: end\$/,\$d" | sed "s/^$indent//")
        actual=$(awk -v marker="<!-- snippet $name -->" '
            $0 == marker { found = 1; next }
            found && /^```swift$/ { inside = 1; next }
            inside && /^```$/ { exit }
            inside { print }' "$document")
        if [ -z "$actual" ]; then
            echo "$document has no Swift block after '<!-- snippet $name -->'"
            status=1
        elif [ "$expected" != "$actual" ]; then
            echo "$document's snippet '$name' differs from $test_file:$line (- document, + test):"
            diff <(printf '%s\n' "$actual") <(printf '%s\n' "$expected") || true
            status=1
        fi
    done < <(grep -n -- '// snippet [a-z0-9-]*: begin$' "$test_file" \
        | sed 's/^\([0-9]*\):.*\/\/ snippet \([a-z0-9-]*\): begin$/\1:\2/')
done

# Catalogs written since the rule: no Swift block that no test compiles.
strict_documents=$(ls Sources/FrostServiceLifecycle/*.docc/*.md 2>/dev/null || true)
for document in $strict_documents; do
    while IFS= read -r where; do
        echo "$where: a Swift block that is neither a snippet nor a <!-- manifest --> fragment"
        status=1
    done < <(awk '
        /^```swift$/ && previous !~ /^<!-- (snippet [a-z0-9-]*|manifest) -->$/ {
            print FILENAME ":" NR
        }
        /^```/ { inside = !inside }
        NF { previous = $0 }' "$document")
done

for name in "${!documented[@]}"; do
    if [ -z "${tested[$name]:-}" ]; then
        echo "${documented[$name]}: snippet '$name' is compiled by no test"
        status=1
    fi
done
[ $status -eq 0 ] && echo "Every snippet of the documentation matches the test that compiles it"
exit $status
