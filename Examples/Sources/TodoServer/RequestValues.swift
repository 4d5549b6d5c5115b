/// The user a request acts for, from its `X-User` header. Each request's child container
/// supplies it (a `provided` key of the application container).
struct CurrentUser: Sendable, Equatable {
    var name: String
}

/// The id that ties a request's log lines together: its `X-Request-ID` header, or a new UUID.
/// Each request's child container supplies it.
///
/// A type of its own rather than a `String`, because Frost resolves by type.
struct CorrelationID: Sendable, Equatable {
    var value: String
}
