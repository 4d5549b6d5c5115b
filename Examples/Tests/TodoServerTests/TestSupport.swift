import Foundation
import Frost
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization

@testable import TodoServer

/// A logger that writes nowhere.
let quietLogger = Logger(label: "todo-server-tests") { _ in SwiftLogNoOpLogHandler() }

/// The application container as the executable wires it, frozen after `adjust` (a test's
/// replacements) ran.
func makeContainer(
    logger: Logger = quietLogger,
    _ adjust: (Container) -> Void = { _ in }
) throws -> FrozenContainer {
    let container = Container()
    registerServices(in: container, config: AppConfig(), logger: logger)
    adjust(container)
    return try container.freeze()
}

/// Ids `todo-1`, `todo-2`, … in order.
final class SequentialIDs: IDGenerator {
    private let count = Mutex(0)

    func next() -> String {
        count.withLock { count in
            count += 1
            return "todo-\(count)"
        }
    }
}

/// A clock that always tells `date`.
struct FixedClock: WallClock {
    let date: Date

    func now() -> Date { date }
}

extension TestClientProtocol {
    /// `POST /todos` with `title`, as `user`.
    func addTodo(_ title: String, as user: String, requestID: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [.xUser: user, .contentType: "application/json"]
        if let requestID { headers[.xRequestID] = requestID }
        return try await execute(
            uri: "/todos", method: .post, headers: headers,
            body: ByteBuffer(bytes: try JSONEncoder().encode(["title": title])))
    }

    /// `GET /todos`, as `user`.
    func listTodos(as user: String, requestID: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.xUser: user]
        if let requestID { headers[.xRequestID] = requestID }
        return try await execute(uri: "/todos", method: .get, headers: headers)
    }
}

extension TestResponse {
    /// The body, decoded from JSON as the server encodes it (dates in ISO 8601).
    func decoded<T: Decodable>(as type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(body.readableBytesView))
    }

    /// The body as text.
    var text: String { String(buffer: body) }
}
