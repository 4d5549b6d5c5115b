#!/usr/bin/env bash
# What a package that depends on Frost resolves. Writes throwaway consumer packages into a
# temporary folder, each depending on this checkout by path, runs `swift package resolve` in
# each and prints the pins of its Package.resolved:
#   1. the `Frost` product alone, no trait: fails if it pins any package at all (or fetched
#      one into .build/checkouts): no swift-service-lifecycle, swift-log, Hummingbird,
#      swift-nio, swift-docc-plugin, nothing;
#   2. the counter-checks, so that the first cannot pass by resolving nothing:
#      `FrostServiceLifecycle` with the "ServiceLifecycle" trait must pin
#      swift-service-lifecycle (and no Hummingbird), `FrostHummingbird` with the "Hummingbird"
#      trait must pin Hummingbird and swift-nio.
#   3. the trait "Macros": the first consumer resolves no swift-syntax, a FrostMacros consumer
#      with the trait does (PROBE_BUILD_TIMES=1 also times a small consumer's clean build).
# Usage: Scripts/dependency-probe.sh   (from anywhere; SWIFT overrides the `swift` it runs)
set -euo pipefail
frost=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
work=$(mktemp -d "${TMPDIR:-/tmp}/frost-dependency-probe.XXXXXX")
trap 'rm -rf "$work"' EXIT

# consumer NAME PRODUCT TRAITS: a package in $work/NAME that uses PRODUCT of Frost, with
# TRAITS (Swift source, e.g. `, traits: ["Hummingbird"]`, or empty) on the dependency.
consumer() {
    local dir="$work/$1"
    mkdir -p "$dir/Sources/Consumer"
    cat > "$dir/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(name: "Frost", path: "$frost"$3)],
    targets: [
        .target(name: "Consumer", dependencies: [.product(name: "$2", package: "Frost")])
    ]
)
EOF
    echo "import $2" > "$dir/Sources/Consumer/Consumer.swift"
}

# pins NAME: resolves $work/NAME and prints its pins, one identity a line.
pins() {
    (cd "$work/$1" && "$swift" package resolve >"$work/$1.log" 2>&1) || {
        cat "$work/$1.log"
        echo "FAIL: swift package resolve failed for the $1 consumer"
        exit 1
    }
    if [ -f "$work/$1/Package.resolved" ]; then
        sed -n 's/^ *"identity" : "\(.*\)",$/\1/p' "$work/$1/Package.resolved"
    fi
}

status=0

consumer frost-only Frost ''
found=$(pins frost-only)
echo "A package that depends on the Frost product alone resolves:"
echo "${found:-(no other package)}" | sed 's/^/  /'
if [ -n "$found" ]; then
    echo "FAIL: it resolves other packages."
    status=1
fi
fetched=$(ls "$work/frost-only/.build/checkouts" 2>/dev/null || true)
if [ -n "$fetched" ]; then
    echo "FAIL: it fetched:" $fetched
    status=1
fi
[ $status -eq 0 ] && echo "OK: no other package pinned or fetched."

echo
consumer with-lifecycle FrostServiceLifecycle ', traits: ["ServiceLifecycle"]'
found=$(pins with-lifecycle)
echo "A package that depends on FrostServiceLifecycle, trait \"ServiceLifecycle\" on, resolves:"
echo "${found:-(no other package)}" | sed 's/^/  /'
if grep -qx swift-service-lifecycle <<<"$found" && ! grep -Eq '^(hummingbird|swift-nio)$' <<<"$found"; then
    echo "OK: swift-service-lifecycle, and no Hummingbird or swift-nio."
else
    echo "FAIL: the counter-check pins no swift-service-lifecycle, or pins Hummingbird or swift-nio."
    status=1
fi

echo
consumer with-hummingbird FrostHummingbird ', traits: ["Hummingbird"]'
found=$(pins with-hummingbird)
echo "A package that depends on FrostHummingbird, trait \"Hummingbird\" on, resolves:"
echo "${found:-(no other package)}" | sed 's/^/  /'
if grep -qx hummingbird <<<"$found" && grep -qx swift-nio <<<"$found"; then
    echo "OK: Hummingbird and swift-nio, as expected."
else
    echo "FAIL: the counter-check resolves no Hummingbird or no swift-nio: the probe proves nothing."
    status=1
fi

# The "Macros" trait: the Frost-only consumer resolves no swift-syntax; a FrostMacros consumer
# with the trait on does. PROBE_BUILD_TIMES=1 also times a clean debug build of a small
# consumer (an `@Injectable` type, autowired) without and with the trait.
echo
if pins frost-only | grep -qx swift-syntax || [ -d "$work/frost-only/.build/checkouts/swift-syntax" ]; then
    echo "FAIL: the Frost-only consumer resolves swift-syntax."
    status=1
else
    echo "OK: the Frost-only consumer resolves no swift-syntax."
fi
consumer with-macros FrostMacros ', traits: ["Macros"]'
found=$(pins with-macros)
echo "A package that depends on FrostMacros, trait \"Macros\" on, resolves:"
echo "${found:-  (nothing)}" | sed 's/^/  /'
if grep -qx swift-syntax <<<"$found"; then
    echo "OK: swift-syntax, as expected."
else
    echo "FAIL: the counter-check resolves no swift-syntax: the probe proves nothing."
    status=1
fi
if [ "${PROBE_BUILD_TIMES:-0}" = 1 ]; then
    for macros in no yes; do
        dir="$work/timed-$macros" traits='' products='.product(name: "Frost", package: "Frost")'
        attribute='' register='container.autowire(Service.self, Service.init(config:))'
        if [ $macros = yes ]; then
            traits=', traits: ["Macros"]' attribute='@Injectable'
            products+=', .product(name: "FrostMacros", package: "Frost")'
            register='container.autowire(Service.self)'
        fi
        mkdir -p "$dir/Sources/Consumer"
        cat >"$dir/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(name: "Frost", path: "$frost"$traits)],
    targets: [.target(name: "Consumer", dependencies: [$products])]
)
EOF
        cat >"$dir/Sources/Consumer/Consumer.swift" <<EOF
import Frost
$([ $macros = yes ] && echo 'import FrostMacros')

$attribute
final class Service {
    init(config: Int) {}
}

public func register(in container: Container) {
    container.register(instance: 8080)
    $register
}
EOF
        (cd "$dir" && "$swift" package resolve >/dev/null 2>&1)
        start=$(date +%s)
        (cd "$dir" && "$swift" build >"$dir.log" 2>&1) || { cat "$dir.log"; status=1; }
        echo "Clean debug build of a small consumer, \"Macros\" $macros: $(($(date +%s) - start)) s"
    done
fi
exit $status
