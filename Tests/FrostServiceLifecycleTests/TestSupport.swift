#if ServiceLifecycle
    import Foundation
    import Frost
    import Logging

    /// What happened, in order, across services, hooks and the test.
    final class Journal: @unchecked Sendable {
        // @unchecked: `lines` is only touched under `lock`.
        private let lock = NSLock()
        private var lines: [String] = []

        func write(_ line: String) {
            lock.withLock { lines.append(line) }
        }

        var entries: [String] { lock.withLock { lines } }

        func contains(_ line: String) -> Bool { entries.contains(line) }

        /// Where `line` was first written; `Int.max` when it never was.
        func position(_ line: String) -> Int { entries.firstIndex(of: line) ?? .max }
    }

    /// A door that a factory waits at until the test (or another service) opens it.
    final class Gate: Sendable {
        private let stream: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        }

        func open() { continuation.finish() }

        /// Returns once the gate is open (for one waiter).
        func wait() async {
            for await _ in stream {}
        }
    }

    /// Waits (polling, at most `seconds`) until `condition` holds. The bound is a watchdog, not
    /// a timing: in a full test run the cooperative pool (one thread per core) is shared with
    /// every other test, and this task may wait long for its turn.
    func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// A synchronous resolve, from async code (where Swift picks the awaited one).
    func resolveSynchronously<T>(_ type: T.Type, from resolver: any Resolver) throws(FrostError)
        -> T
    {
        try resolver.resolve(T.self, name: nil)
    }

    /// A swift-log handler that keeps every entry, at every level.
    struct RecordingLogHandler: LogHandler {
        /// One log entry: its message and its metadata, rendered as text.
        struct Entry: Sendable {
            let level: Logger.Level
            let message: String
            let metadata: [String: String]
        }

        /// The entries of every handler made from one `Recording`.
        final class Recording: @unchecked Sendable {
            // @unchecked: `list` is only touched under `lock`.
            private let lock = NSLock()
            private var list: [Entry] = []

            func append(_ entry: Entry) { lock.withLock { list.append(entry) } }
            var entries: [Entry] { lock.withLock { list } }

            /// A logger whose entries land here.
            func logger(label: String = "test") -> Logger {
                Logger(label: label) { _ in RecordingLogHandler(recording: self) }
            }
        }

        let recording: Recording
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            recording.append(
                Entry(
                    level: event.level, message: "\(event.message)",
                    metadata: all.mapValues { "\($0)" }))
        }
    }
#endif
