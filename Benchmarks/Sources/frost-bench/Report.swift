/// The measured figures of one run: ns/op and allocations/op per case and contender.
struct Results {
    /// Cases in the order they ran.
    var cases:
        [(
            name: String, unit: String, timings: [Contender: Double],
            allocations: [Contender: Double]
        )] = []

    func ns(_ caseName: String, _ contender: Contender) -> Double? {
        cases.first { $0.name == caseName }?.timings[contender]
    }

    func allocations(_ caseName: String, _ contender: Contender) -> Double? {
        cases.first { $0.name == caseName }?.allocations[contender]
    }

    /// `{"results": [{"case": ..., "contender": ..., "ns_per_op": ...,
    /// "allocations_per_op": ...}, ...]}` (`allocations_per_op` where it was counted).
    func json() -> String {
        var rows: [String] = []
        for entry in cases {
            for contender in Contender.allCases {
                guard let value = entry.timings[contender] else { continue }
                let allocations = entry.allocations[contender].map {
                    #", "allocations_per_op": \#(format($0, digits: 2))"#
                }
                rows.append(
                    #"    {"case": "\#(entry.name)", "contender": "\#(contender.rawValue)", "#
                        + #""ns_per_op": \#(format(value, digits: 2))\#(allocations ?? "")}"#
                )
            }
        }
        return "{\"results\": [\n" + rows.joined(separator: ",\n") + "\n]}"
    }

    /// The Markdown table of allocations: blocks allocated per operation, per contender (one
    /// run counted after the timed rounds; a run timed in a child process has none).
    func allocationsMarkdown() -> String {
        var lines = [
            "| case | hand-written | frozen | dictionary | swinject | swift-dependencies "
                + "| frozen - hand-written |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for entry in cases where !entry.allocations.isEmpty {
            let a = entry.allocations
            func cell(_ contender: Contender) -> String {
                a[contender].map { format($0, digits: 2) } ?? "n/a"
            }
            var difference = "n/a"
            if let frozen = a[.frozen], let hand = a[.handWritten] {
                difference = format(frozen - hand, digits: 2)
            }
            lines.append(
                "| \(entry.name) | \(cell(.handWritten)) | \(cell(.frozen)) | \(cell(.dictionary)) "
                    + "| \(cell(.swinject)) | \(cell(.dependencies)) | \(difference) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The Markdown table: ns/op per contender and the three ratios.
    func markdown() -> String {
        var lines = [
            "| case | hand-written | frozen | dictionary | swinject | swift-dependencies "
                + "| frozen/hand-written | frozen/dictionary | swinject/frozen "
                + "| swift-dependencies/frozen |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for entry in cases {
            let t = entry.timings
            func cell(_ contender: Contender) -> String {
                t[contender].map { formatNs($0) } ?? "n/a"
            }
            func ratio(_ a: Contender, _ b: Contender) -> String {
                guard let x = t[a], let y = t[b], y > 0 else { return "n/a" }
                return format(x / y, digits: 2) + "x"
            }
            lines.append(
                "| \(entry.name) | \(cell(.handWritten)) | \(cell(.frozen)) | \(cell(.dictionary)) "
                    + "| \(cell(.swinject)) | \(cell(.dependencies)) "
                    + "| \(ratio(.frozen, .handWritten)) | \(ratio(.frozen, .dictionary)) "
                    + "| \(ratio(.swinject, .frozen)) | \(ratio(.dependencies, .frozen)) |"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The targets of the design, read off this run: met, missed, or not measured.
    func targets() -> String {
        var lines = ["Targets (ratios from this run):"]
        func check(
            _ label: String, _ value: Double?, _ met: (Double) -> Bool,
            _ shown: @escaping (Double) -> String, context: (String, Double?)? = nil
        ) {
            guard let value else {
                lines.append("  -  \(label): not measured in this run")
                return
            }
            var line = "  \(met(value) ? "met   " : "MISSED") \(label): \(shown(value))"
            if let (what, figure) = context, let figure { line += " (\(what): \(shown(figure)))" }
            lines.append(line)
        }
        func ratio(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b, b > 0 else { return nil }
            return a / b
        }
        let x: (Double) -> String = { format($0, digits: 2) + "x" }
        // The bounds the one-engine rewrite keeps (each case no slower, as a ratio to
        // hand-written code, than before it), then the project's standing targets.
        for (name, bound) in [
            ("singleton", 8.5), ("transient", 2.0), ("complex", 1.5), ("handle", 1.2),
            ("request", 5.5),
        ] {
            check(
                "\(name): frozen <= \(format(bound, digits: 1))x hand-written (one-engine bound)",
                ratio(ns(name, .frozen), ns(name, .handWritten)), { $0 <= bound }, x)
        }
        check(
            "singleton: Swinject >= 45x frozen (one-engine bound)",
            ratio(ns("singleton", .swinject), ns("singleton", .frozen)), { $0 >= 45 }, x)
        check(
            "request-async: frozen <= 1.15x request (the awaited path costs the synchronous one)",
            ratio(ns("request-async", .frozen), ns("request", .frozen)), { $0 <= 1.15 }, x)
        // A real server's container has async singletons, bootstrapped: its awaited requests
        // still take the synchronous path, in a task and on the main actor.
        check(
            "request-server: frozen <= 1.15x request (async singletons bootstrapped, in a task)",
            ratio(ns("request-server", .frozen), ns("request", .frozen)), { $0 <= 1.15 }, x)
        check(
            "request-server-main: frozen <= 1.15x request (the same, on the main actor)",
            ratio(ns("request-server-main", .frozen), ns("request", .frozen)),
            { $0 <= 1.15 }, x)
        check(
            "singleton: frozen <= 1.0x dictionary",
            ratio(ns("singleton", .frozen), ns("singleton", .dictionary)),
            { $0 <= 1.0 }, x)
        check(
            "singleton: Swinject >= 30x frozen (core)",
            ratio(ns("singleton", .swinject), ns("singleton", .frozen)), { $0 >= 30 }, x)
        check(
            "singleton: swift-dependencies >= 35x frozen",
            ratio(ns("singleton", .dependencies), ns("singleton", .frozen)), { $0 >= 35 }, x)
        check(
            "singleton: Swinject >= 55x frozen",
            ratio(ns("singleton", .swinject), ns("singleton", .frozen)), { $0 >= 55 }, x)
        for name in [
            "named", "property", "inject-into", "argument", "lazy", "provider",
            "transient-closure", "complex-plain",
        ] {
            check(
                "\(name): frozen <= 2x hand-written",
                ratio(ns(name, .frozen), ns(name, .handWritten)), { $0 <= 2 }, x)
        }
        check(
            "complex: frozen <= 1.25x hand-written",
            ratio(ns("complex", .frozen), ns("complex", .handWritten)), { $0 <= 1.25 }, x)
        check(
            "complex-macro: @Injectable types <= 1.05x autowired by initializer (frozen)",
            ratio(ns("complex-macro", .frozen), ns("complex", .frozen)), { $0 <= 1.05 }, x)
        check(
            "property-macro: members injector <= 1.5x hand-written (frozen)",
            ratio(ns("property-macro", .frozen), ns("property-macro", .handWritten)),
            { $0 <= 1.5 }, x)
        check(
            "handle (withResolved): frozen <= 1.2x hand-written",
            ratio(ns("handle", .frozen), ns("handle", .handWritten)), { $0 <= 1.2 }, x)
        check(
            "handle-transient (withResolved): frozen <= 1.2x hand-written",
            ratio(ns("handle-transient", .frozen), ns("handle-transient", .handWritten)),
            { $0 <= 1.2 }, x)
        check(
            "complex: frozen <= 0.5x dictionary",
            ratio(ns("complex", .frozen), ns("complex", .dictionary)),
            { $0 <= 0.5 }, x)
        check(
            "singleton at 100,000 <= 1.5x at 10",
            ratio(ns("singleton-at-100000", .frozen), ns("singleton-at-10", .frozen)),
            { $0 <= 1.5 }, x)
        for count in [10, 100, 1_000] {
            check(
                "prepare-\(count): frozen <= 0.7x Swinject",
                ratio(ns("prepare-\(count)", .frozen), ns("prepare-\(count)", .swinject)),
                { $0 <= 0.7 }, x)
        }
        check(
            "cold-freeze: frozen <= 1.0x Swinject",
            ratio(ns("cold-freeze", .frozen), ns("cold-freeze", .swinject)), { $0 <= 1.0 }, x)
        check(
            "freeze of 10,000 <= 10 ms", ns("freeze-10000", .frozen), { $0 <= 10e6 }, formatNs)
        check(
            "freeze of 100,000 <= 150 ms", ns("freeze-100000", .frozen), { $0 <= 150e6 }, formatNs)
        check(
            "2 threads >= 1.7x the throughput of 1",
            ratio(ns("threads-1", .frozen), ns("threads-2", .frozen)), { $0 >= 1.7 }, x,
            // How much of a second core the host gave this run.
            context: (
                "hand-written code in this run",
                ratio(ns("threads-1", .handWritten), ns("threads-2", .handWritten))
            ))
        check("miss <= 1 us (frozen)", ns("miss", .frozen), { $0 <= 1_000 }, formatNs)
        check(
            "request: frozen <= 3x hand-written",
            ratio(ns("request", .frozen), ns("request", .handWritten)), { $0 <= 3 }, x)
        check(
            "request: Swinject >= 15x frozen",
            ratio(ns("request", .swinject), ns("request", .frozen)), { $0 >= 15 }, x)
        var extraBlocks: Double?
        if let frozen = allocations("request", .frozen),
            let hand = allocations("request", .handWritten)
        {
            extraBlocks = frozen - hand
        }
        check(
            "request: frozen allocates <= 4 blocks more than hand-written",
            extraBlocks, { $0 <= 4 }, { format($0, digits: 2) + " blocks" })
        check(
            "bootstrap-100: frozen <= 2x hand-written",
            ratio(ns("bootstrap-100", .frozen), ns("bootstrap-100", .handWritten)), { $0 <= 2 },
            x)
        check(
            "async-resolve: awaited <= 3x the synchronous singleton resolve",
            ratio(ns("async-resolve", .frozen), ns("singleton", .frozen)), { $0 <= 3 }, x)
        // Performance, third round: what a real application does besides the headline.
        check(
            "named: <= 1.5x the unnamed singleton (frozen, third round)",
            ratio(ns("named", .frozen), ns("singleton", .frozen)), { $0 <= 1.5 }, x)
        for name in ["lazy", "provider"] {
            check(
                "\(name): frozen <= 3x hand-written (third round)",
                ratio(ns(name, .frozen), ns(name, .handWritten)), { $0 <= 3 }, x)
        }
        for count in [10, 100, 1_000] {
            check(
                "prepare-\(count): frozen <= 1.0x Swinject (third round)",
                ratio(ns("prepare-\(count)", .frozen), ns("prepare-\(count)", .swinject)),
                { $0 <= 1.0 }, x)
        }
        check(
            "cold-freeze: frozen <= 1.5x Swinject (third round)",
            ratio(ns("cold-freeze", .frozen), ns("cold-freeze", .swinject)), { $0 <= 1.5 }, x)
        return lines.joined(separator: "\n")
    }
}

/// `value` with `digits` decimals (no Foundation formatting needed).
func format(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
}

/// A duration in ns, µs or ms, whichever reads best.
func formatNs(_ ns: Double) -> String {
    if ns >= 1e6 { return format(ns / 1e6, digits: 2) + " ms" }
    if ns >= 1e4 { return format(ns / 1e3, digits: 1) + " µs" }
    return format(ns, digits: 1) + " ns"
}
