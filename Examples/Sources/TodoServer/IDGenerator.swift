import Foundation

/// Makes the ids of new todos. A protocol, so that a test can predict them.
protocol IDGenerator: Sendable {
    /// A new id, never returned before.
    func next() -> String
}

/// Random UUIDs, lowercased.
struct UUIDGenerator: IDGenerator {
    func next() -> String { UUID().uuidString.lowercased() }
}
