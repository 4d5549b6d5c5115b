import Foundation
import Hummingbird

/// A todo, as the API returns it (JSON, dates in ISO 8601).
struct Todo: ResponseCodable, Equatable, Sendable {
    var id: String
    var title: String
    var createdAt: Date
}

/// The body of `POST /todos`.
struct NewTodo: Decodable, Sendable {
    var title: String
}
