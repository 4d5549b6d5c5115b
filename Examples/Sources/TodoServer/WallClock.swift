import Foundation

/// Tells the time. A protocol, so that a test can stop the clock.
protocol WallClock: Sendable {
    /// The current date.
    func now() -> Date
}

/// The system's clock.
struct SystemClock: WallClock {
    func now() -> Date { Date() }
}
