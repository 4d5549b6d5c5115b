#!/usr/bin/env bash
# Checks two promises of the engine's layout (issue "one engine", DESIGN.md "Layers and
# layout"), so that a change that spreads a lifetime again, or adds public hooks, fails
# `make test`:
# - `.singleton`, `.scoped`, `.weak` and `.graph` each appear in at most 3 Swift source files
#   of the library, Sources/Frost (comments aside): the scope's definition, its lifetime's
#   file, the dispatch;
# - at most 8 public declarations whose names start with `_` (a name that starts with `_` is
#   not API; such hooks exist only where `@inlinable` code cannot do without them).
set -u
cd "$(dirname "$0")/.."
status=0

code_lines() {  # the lines of $1 that are not comments, numbered
    grep -nvE '^\s*//' "$1"
}

for scope in singleton scoped weak graph; do
    files=()
    while IFS= read -r file; do
        if code_lines "$file" | grep -qE "\.$scope\b"; then files+=("$file"); fi
    done < <(find Sources/Frost -name '*.swift' | sort)
    if [ "${#files[@]}" -gt 3 ]; then
        echo "engine-layout-check: .$scope is handled in ${#files[@]} source files (at most 3):"
        printf '  %s\n' "${files[@]}"
        status=1
    else
        echo "engine-layout-check: .$scope in ${#files[@]} files: ${files[*]}"
    fi
done

# Behaviour, not spellings (issue "the compiled engine"):
# - nothing outside Lifetimes/ reads how a lifetime keeps its instances (`Keeping`): the
#   containers, the freezer and the validation ask the lifetime (Lifetime.swift's table);
# - the C claim of a cell (frost_cell_begin, create-once's decision) is read in one file;
# - the Swift files that import CFrost: at most the two that own C memory and C calls (the
#   lookup's PerfectHashTable.swift; the cell's Cell.swift, with the contexts cells are read and
#   claimed for).
keeping=$(grep -rnE '\.keeping\b|\bKeeping\b' --include='*.swift' Sources/Frost \
    | grep -v '^Sources/Frost/Internal/Lifetimes/' | grep -vE '^[^:]+:[0-9]+:\s*//' || true)
if [ -n "$keeping" ]; then
    echo "engine-layout-check: how a lifetime keeps its instances is read outside Lifetimes/:"
    printf '%s\n' "$keeping" | sed 's/^/  /'
    status=1
else
    echo "engine-layout-check: Keeping read only in Lifetimes/"
fi
# at_most LIMIT WHAT FILES: reports the files (one per line) WHAT is in, and fails past LIMIT.
at_most() {
    local count
    count=$(printf '%s' "$3" | grep -c . || true)
    echo "engine-layout-check: $2 in $count files (at most $1):"
    [ "$count" -le "$1" ] || status=1
    printf '%s\n' "$3" | sed 's/^/  /'
}
at_most 1 "the C claim is read" \
    "$(grep -rlE 'frost_cell_begin' --include='*.swift' Sources/Frost | sort)"
# - what a claim means (create, read, wait, a cycle) is decided in one file, the create-once
#   machine's (Creation.swift): no other file asks a cell for a claim or reads a `CellClaim`.
at_most 1 "a cell's claim is decided" \
    "$(grep -rlE '\.begin\(for:|\.beginAwaiting\(for:|\bCellClaim\b' --include='*.swift' \
        Sources/Frost | grep -v '^Sources/Frost/Internal/Engine/Cell.swift$' | sort || true)"
at_most 2 "CFrost is imported" \
    "$(grep -rlE '^(internal |private |@_implementationOnly )?import CFrost' \
        --include='*.swift' Sources/Frost | sort)"

# Locks are taken through scoped helpers (`withLock`): no lock()/unlock() pair by hand.
by_hand=$(grep -rnE '\.(lock|unlock)\(\)' --include='*.swift' Sources/Frost \
    | grep -vE '^[^:]+:[0-9]+:\s*//' || true)
if [ -n "$by_hand" ]; then
    echo "engine-layout-check: a lock is taken by hand (use withLock):"
    printf '%s\n' "$by_hand" | sed 's/^/  /'
    status=1
else
    echo "engine-layout-check: every lock is taken through withLock"
fi

hooks=$(
    find Sources/Frost -name '*.swift' | sort | while IFS= read -r file; do
        code_lines "$file" | grep -E '(^|[[:space:]:])public\s+([a-z]+\s+)*(func|var|let|class|struct|enum|protocol|typealias|init)\s+_[A-Za-z]' | sed "s|^|$file:|"
        # Requirements of a public protocol need no `public` of their own.
        if grep -qE '^public protocol' "$file"; then
            code_lines "$file" | grep -E '^[0-9]+:    (func|var|static func|static var)\s+_[A-Za-z]' | sed "s|^|$file:|"
        fi
    done
)
count=$(printf '%s' "$hooks" | grep -c . || true)
if [ "$count" -gt 8 ]; then
    echo "engine-layout-check: $count public declarations start with _ (at most 8):"
    status=1
else
    echo "engine-layout-check: $count public declarations start with _ (at most 8):"
fi
printf '%s\n' "$hooks" | sed 's/^/  /'
exit $status
