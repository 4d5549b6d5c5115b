import Logging

/// What one request did, written as a single log line when the request ends.
///
/// `.scoped`: one per request's child container, shared by everything that request resolves,
/// and flushed by its `.onDispose` hook when the child is disposed. Used by one request at a
/// time, so it need not be `Sendable`.
final class RequestLog {
    private let logger: Logger
    private let correlationID: CorrelationID
    private let user: CurrentUser
    private var events: [String] = []

    init(logger: Logger, correlationID: CorrelationID, user: CurrentUser) {
        self.logger = logger
        self.correlationID = correlationID
        self.user = user
    }

    /// Notes something the request did.
    func record(_ event: String) {
        events.append(event)
    }

    /// Writes the request's events as one log line.
    func flush() {
        logger.info(
            "request finished",
            metadata: [
                "request.id": "\(correlationID.value)",
                "user": "\(user.name)",
                "events": .array(events.map { .string($0) }),
            ])
    }
}
