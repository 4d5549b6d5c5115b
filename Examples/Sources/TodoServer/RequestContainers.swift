import Foundation
import Frost
import FrostHummingbird
import HTTPTypes
import Hummingbird

/// The server's request context: Hummingbird's values, and the request's child container that
/// ``requestContainers(of:)`` sets.
struct TodoRequestContext: FrostRequestContext {
    var coreContext: CoreRequestContextStorage
    var requestContainer: FrozenContainer?

    init(source: Source) {
        self.coreContext = .init(source: source)
    }
}

/// Gives each request a child of the application container: the child supplies the request's
/// user and correlation id, holds its `.scoped` instances (the request's log), and is disposed
/// once the handler has returned its (in-memory) response — its `.onDispose` hooks run: the
/// log is written.
///
/// A request without an `X-User` header is answered 401 before any handler runs.
func requestContainers(
    of app: FrozenContainer
) -> RequestContainerMiddleware<TodoRequestContext> {
    RequestContainerMiddleware(app) { request, _, child in
        guard let name = request.headers[.xUser], !name.isEmpty else {
            throw HTTPError(.unauthorized, message: "Say who you are in the X-User header.")
        }
        let correlationID = request.headers[.xRequestID] ?? UUID().uuidString.lowercased()
        child.register(instance: CurrentUser(name: name))
        child.register(instance: CorrelationID(value: correlationID))
    }
}

extension HTTPField.Name {
    /// The header that names the user a request acts for.
    static let xUser = Self("X-User")!
    /// The header that carries the caller's id for a request.
    static let xRequestID = Self("X-Request-ID")!
}
