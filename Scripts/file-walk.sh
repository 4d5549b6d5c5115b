#!/usr/bin/env bash
# file-walk.sh [SCENARIO...]: the Swift files of Frost whose code one resolve runs, as
# callgrind sees it (inlined code counted in the file it is written in).
#
# Builds a small program against this checkout (release, with debug info, in a scratch
# package under ${WALK_DIR:-/tmp/frost-walk}) and runs each scenario under
# `valgrind --tool=callgrind`, collecting only between two marks around the resolve. The
# container is built, frozen (and bootstrapped) outside the marks. Scenarios:
#   first-singleton    a frozen container's first resolve of a singleton with one dependency
#   awaited-transient  `try await` a transient with two dependencies, in a container that
#                      also has a bootstrapped async singleton
#   scoped-withchild   `try await` a `.scoped` key inside `withChild`, on the global executor
# Prints, per scenario, each file with the instructions run in it, then the count.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${WALK_DIR:-/tmp/frost-walk}
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(first-singleton awaited-transient scoped-withchild)

mkdir -p "$work/Sources/WalkMarks/include" "$work/Sources/frost-walk"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FrostWalk",
    dependencies: [.package(name: "Frost", path: "$root")],
    targets: [
        .target(name: "WalkMarks"),
        .executableTarget(
            name: "frost-walk",
            dependencies: ["WalkMarks", .product(name: "Frost", package: "Frost")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
SWIFT
cat > "$work/Sources/WalkMarks/include/WalkMarks.h" <<'C'
void walk_begin(void);
void walk_end(void);
C
cat > "$work/Sources/WalkMarks/WalkMarks.c" <<'C'
#include <valgrind/callgrind.h>
#include "WalkMarks.h"
void walk_begin(void) { CALLGRIND_TOGGLE_COLLECT; }
void walk_end(void) { CALLGRIND_TOGGLE_COLLECT; }
C
cat > "$work/Sources/frost-walk/main.swift" <<'SWIFT'
import Dispatch
import Frost
import WalkMarks

protocol Logger: AnyObject, Sendable {}
final class ConsoleLogger: Logger {}
final class Config: Sendable {}
final class Pool: Sendable {
    static func connect() async throws -> Pool {
        await Task.yield()
        return Pool()
    }
}
final class Service: Sendable {
    let logger: any Logger
    init(logger: any Logger) { self.logger = logger }
}
final class Handler: Sendable {
    let logger: any Logger
    let config: Config
    init(logger: any Logger, config: Config) {
        self.logger = logger
        self.config = config
    }
}
final class RequestState: Sendable {
    let config: Config
    init(config: Config) { self.config = config }
}

@inline(never)
func keep(_ value: AnyObject) {
    withExtendedLifetime(value) {}
}

func firstSingleton() throws {
    let container = Container()
    container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
    container.autowire(Service.self, Service.init(logger:)).scope(.singleton)
    let frozen = try container.freeze()
    walk_begin()
    let service = try frozen.resolve(Service.self)
    walk_end()
    keep(service)
}

func awaitedTransient() async throws {
    let container = Container()
    container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
    container.register(Config.self) { _ in Config() }.scope(.singleton)
    container.register(Pool.self) { _ async throws in try await Pool.connect() }
        .scope(.singleton)
    container.autowire(Handler.self, Handler.init(logger:config:))
    let frozen = try container.freeze()
    try await frozen.bootstrap()
    walk_begin()
    let handler = try await frozen.resolve(Handler.self)
    walk_end()
    keep(handler)
}

func scopedWithChild() async throws {
    let container = Container()
    container.register(Config.self) { _ in Config() }.scope(.singleton)
    container.autowire(RequestState.self, RequestState.init(config:)).scope(.scoped)
    let frozen = try container.freeze()
    try await frozen.bootstrap()
    let state = try await frozen.withChild({ _ in }) { child in
        walk_begin()
        let state = try await child.resolve(RequestState.self)
        walk_end()
        return state
    }
    keep(state)
}

/// Runs `body` in a task on the global executor and waits for it (valgrind does not run an
/// asynchronous `main`).
func waitFor(_ body: @escaping @Sendable () async throws -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        try! await body()
        done.signal()
    }
    done.wait()
}

switch CommandLine.arguments.dropFirst().first {
case "first-singleton": try! firstSingleton()
case "awaited-transient": waitFor(awaitedTransient)
case "scoped-withchild": waitFor(scopedWithChild)
default: fatalError("usage: frost-walk first-singleton|awaited-transient|scoped-withchild")
}
SWIFT

(cd "$work" && swift build -c release -Xswiftc -g -Xcc -gdwarf-4 >/dev/null)
bin="$work/.build/release/frost-walk"
for scenario in "${scenarios[@]}"; do
    out="$work/$scenario.callgrind"
    rm -f "$out"*
    valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out" \
        "$bin" "$scenario" >/dev/null 2>&1
    echo "== $scenario"
    callgrind_annotate --threshold=100 --auto=no "$out" 2>/dev/null | python3 -c '
import re, sys
files = {}
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S+?):", line)
    if not m or "Sources/Frost/" not in m.group(2):
        continue
    name = m.group(2).split("Sources/Frost/")[1]
    files[name] = files.get(name, 0) + int(m.group(1).replace(",", ""))
for name, count in sorted(files.items(), key=lambda item: -item[1]):
    print(f"{count:>8}  {name}")
print(f"{len(files)} files")
'
done
