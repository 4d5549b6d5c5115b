// frost-bench: Frost frozen vs the dictionary container vs Swinject 2.10.0 vs hand-written
// code, side by side in one run.
//
//   frost-bench [--quick] [--json] [--filter a,b] [--rounds N] [--warm-up S] [--contender c,c]
//
// --quick   a short run (CI runs it to prove the executable works; never judge its timings)
// --json    print {"results": [{"case", "contender", "ns_per_op", "allocations_per_op"}, ...]}
//           instead of the tables (allocations: blocks malloc'd per operation, glibc only)
// --filter  run only the cases whose names contain one of the comma-separated words
//           (`=name` matches that name only: `--filter =singleton` leaves out singleton-at-10)
// --rounds  samples per contender (default 15; 3 with --quick); the median is reported
// --warm-up   seconds of unmeasured warm-up before the first case (default 0.5; 0 for
//             callgrind, whose instruction counts must not depend on how fast it ran)
// --contender  run only these contenders (comma-separated): for profiling one of them
//
// frost-bench --cold frozen|dictionary|swinject is what each child process of the cold-freeze
// case runs (see ColdFreeze.swift): it registers (and freezes) once and prints nanoseconds.

#if canImport(Glibc)
    import Glibc
#endif

// First, before anything else runs: the process must be cold.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--cold" {
    ColdFreeze.runChild(CommandLine.arguments[2])
}

struct Options {
    var quick = false
    var json = false
    var filters: [String] = []
    var rounds: Int?
    var warmUp = 0.5
    var contenders: Set<Contender> = Set(Contender.allCases)

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--json": json = true
            case "--filter":
                filters = (iterator.next() ?? "").split(separator: ",").map(String.init)
            case "--rounds": rounds = iterator.next().flatMap(Int.init)
            case "--warm-up": warmUp = iterator.next().flatMap(Double.init) ?? warmUp
            case "--contender":
                contenders = Set(
                    (iterator.next() ?? "").split(separator: ",").compactMap {
                        Contender(rawValue: String($0))
                    })
            case "--help", "-h":
                print(
                    "usage: frost-bench [--quick] [--json] [--filter case,case] [--rounds N] "
                        + "[--warm-up seconds] [--contender c,c]"
                )
                exit(0)
            default:
                print("frost-bench: unknown argument \(argument) (try --help)")
                exit(2)
            }
        }
    }

    /// Whether the case `name` runs: its name contains one of the filter's words, or is a word
    /// written with a leading `=` (`=prepare-1000` is not `prepare-1000-names`).
    func wants(_ name: String) -> Bool {
        filters.isEmpty
            || filters.contains { $0.hasPrefix("=") ? name == $0.dropFirst() : name.contains($0) }
    }
}

func run(_ options: Options) throws {
    let rounds = options.rounds ?? (options.quick ? 3 : 15)
    let scale = options.quick ? 0.02 : 1.0
    let cases = try Cases()
    // Cases are built only when selected: some hold containers of 100,000 registrations.
    // Each inner array is measured interleaved: one case, or the cases a target compares.
    var groups = try cases.resolveCases().filter { options.wants($0.name) }.map { [$0] }
    if options.wants("async-resolve") {
        // Interleaved with the synchronous singleton resolve its target compares it to.
        let asyncResolve = cases.asyncResolveCase()
        if let index = groups.firstIndex(where: { $0.first?.name == "singleton" }) {
            groups[index].append(asyncResolve)
        } else {
            groups.append([asyncResolve])
        }
    }
    // `named` is interleaved with the unnamed singleton: a target compares them.
    if groups.contains(where: { $0.first?.name == "singleton" }),
        let named = groups.firstIndex(where: { $0.first?.name == "named" })
    {
        let moved = groups.remove(at: named)
        groups[groups.firstIndex { $0.first?.name == "singleton" }!].append(contentsOf: moved)
    }
    // `request` and `request-async` are measured interleaved: a target compares them.
    let requests = try Cases.requestCases().filter { options.wants($0.name) }
    if !requests.isEmpty { groups.append(requests) }
    if options.wants("current-resolve") { groups.append([try Cases.currentResolveCase()]) }
    if options.wants("bootstrap-100") { groups.append([try Cases.bootstrapCase()]) }
    for count in [10, 100, 1_000] where options.wants("prepare-\(count)") {
        groups.append([Cases.prepareCase(count)])
    }
    for count in [10, 1_000, 10_000, 100_000] where options.wants("prepare-\(count)-names") {
        groups.append([Cases.prepareNamesCase(count)])
    }
    if options.wants("cold-freeze") { groups.append([Cases.coldFreezeCase()]) }
    for count in [10_000, 100_000] where options.wants("freeze-\(count)") {
        groups.append([Cases.freezeCase(count)])
    }
    groups.append(
        try [10, 100_000].filter { options.wants("singleton-at-\($0)") }.map {
            try Cases.singletonAtSizeCase($0)
        })
    for classSingleton in [false, true] {
        let suffix = classSingleton ? "-class" : ""
        groups.append(
            [1, 2].filter { options.wants("threads-\($0)\(suffix)") }.map {
                cases.threadsCase($0, classSingleton: classSingleton)
            })
    }

    // The @Injectable cases, each interleaved with the case its target compares it to.
    for macroCase in cases.macroCases() where options.wants(macroCase.name) {
        let base = String(macroCase.name.dropLast("-macro".count))
        if let index = groups.firstIndex(where: { $0.first?.name == base }) {
            groups[index].append(macroCase)
        } else {
            groups.append([macroCase])
        }
    }

    groups = groups.filter { !$0.isEmpty }.map { group in
        group.map {
            BenchCase(
                name: $0.name, unit: $0.unit, iterations: $0.iterations,
                runs: $0.runs.filter { options.contenders.contains($0.contender) })
        }
    }
    var results = Results()
    if !options.quick, options.warmUp > 0, let first = groups.first?.first {
        warmUp(first, seconds: options.warmUp)
    }
    for group in groups {
        // 10,000 and 100,000 registrations: fewer rounds.
        let heavy = group.contains {
            ["prepare-10000-names", "prepare-100000-names"].contains($0.name)
                || $0.name.hasPrefix("freeze-")
        }
        let timings = measure(group, rounds: heavy ? min(rounds, 5) : rounds, scale: scale)
        for (benchCase, measured) in zip(group, timings) {
            let timings = measured.timings
            results.cases.append(
                (benchCase.name, benchCase.unit, timings, measured.allocations))
            if !options.json {
                let line = Contender.allCases.compactMap { c in
                    timings[c].map { "\(c.rawValue) \(formatNs($0))" }
                }
                print("  \(benchCase.name): " + line.joined(separator: ", "))
            }
        }
    }
    if options.json {
        print(results.json())
    } else {
        print("\n## frost-bench: ns per operation, median of \(rounds) interleaved rounds\n")
        print(results.markdown())
        let allocations = results.allocationsMarkdown()
        if allocations.split(separator: "\n").count > 2 {
            print("\n## Allocations: blocks allocated per operation (one counted run each)\n")
            print(allocations)
        }
        print("\nCases:")
        for entry in results.cases { print("- \(entry.name): \(entry.unit)") }
        print("\n" + results.targets())
        if options.quick { print("\n(--quick: a smoke run; do not read these timings)") }
    }
}

do {
    try run(Options(Array(CommandLine.arguments.dropFirst())))
} catch {
    print("frost-bench: \(error)")
    exit(1)
}
