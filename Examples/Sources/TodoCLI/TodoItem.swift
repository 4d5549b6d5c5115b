/// A todo as the JSON file stores it.
struct TodoItem: Codable, Equatable, Sendable {
    var id: Int
    var title: String
}
