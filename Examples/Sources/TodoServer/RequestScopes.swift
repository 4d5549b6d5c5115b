import Foundation
import Frost
import HTTPTypes
import Hummingbird

/// Gives each request a child of the application container: the child supplies the request's
/// user and correlation id, holds its `.scoped` instances, and is disposed when the request
/// ends.
struct RequestScopes: Sendable {
    /// The application container: frozen once at start-up, shared by every request.
    let app: FrozenContainer

    /// Runs `body` with the ``TodoHandler`` of `request`'s child container, then disposes the
    /// child (its `.onDispose` hooks run: the request's log is written).
    ///
    /// - Throws: `HTTPError(.unauthorized)` when the request has no `X-User` header; what
    ///   resolving or `body` throws.
    func withHandler<Result>(
        for request: Request,
        _ body: (TodoHandler) async throws -> Result
    ) async throws -> Result {
        guard let name = request.headers[.xUser], !name.isEmpty else {
            throw HTTPError(.unauthorized, message: "Say who you are in the X-User header.")
        }
        let correlationID = request.headers[.xRequestID] ?? UUID().uuidString.lowercased()
        let scope = try app.child { child in
            child.register(instance: CurrentUser(name: name))
            child.register(instance: CorrelationID(value: correlationID))
        }
        // A `defer` cannot await: dispose on both paths.
        do {
            let handler = try await scope.resolve(TodoHandler.self)
            let result = try await body(handler)
            await scope.dispose()
            return result
        } catch {
            await scope.dispose()
            throw error
        }
    }
}

extension HTTPField.Name {
    /// The header that names the user a request acts for.
    static let xUser = Self("X-User")!
    /// The header that carries the caller's id for a request.
    static let xRequestID = Self("X-Request-ID")!
}
