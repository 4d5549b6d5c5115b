#!/usr/bin/env bash
# The README's code is a test: each README block that follows a `<!-- README name -->` line is
# the block between `// README name: begin` and `// README name: end` in
# Tests/FrostTests/ReadmeTourTests.swift (there indented by 8 spaces), character for character.
# `make test` runs this, so the README's code always compiles and runs as written.
set -euo pipefail
cd "$(dirname "$0")/.."
test_file=Tests/FrostTests/ReadmeTourTests.swift
status=0
for name in $(sed -n 's/^ *\/\/ README \([a-z-]*\): begin$/\1/p' "$test_file"); do
    expected=$(sed -n "/\/\/ README $name: begin\$/,/\/\/ README $name: end\$/p" "$test_file" \
        | sed '1d;$d' | sed 's/^        //')
    actual=$(awk -v marker="<!-- README $name -->" '
        $0 == marker { found = 1; next }
        found && /^```swift$/ { inside = 1; next }
        inside && /^```$/ { exit }
        inside { print }' README.md)
    if [ -z "$actual" ]; then
        echo "README.md has no block after '<!-- README $name -->'"
        status=1
    elif [ "$expected" != "$actual" ]; then
        echo "README.md's '$name' block differs from $test_file (- README, + test):"
        diff <(printf '%s\n' "$actual") <(printf '%s\n' "$expected") || true
        status=1
    fi
done
[ $status -eq 0 ] && echo "README code blocks match $test_file"
exit $status
