/// What `Container.register…` returns: configures the registration it names.
///
/// ```swift
/// container.register(FileLogger.self) { _ in FileLogger() }
///     .scope(.singleton)
///     .implements(Logger.self, Sink.self)
/// ```
public struct Registration<T> {
    let container: Container
    let key: RegistrationKey

    /// Sets how long the registration's instances live.
    ///
    /// - Parameters:
    ///   - scope: `.transient` (the default: a new instance per resolve) or `.singleton` (one
    ///     instance per container, created on first resolve).
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    public func scope(_ scope: Scope) -> Registration<T> {
        container.update(key) { $0.with(scope: scope) }
        return self
    }

    /// Makes the registration resolvable as each of `types` too (protocols it conforms to, or
    /// superclasses), under the same name. Every type resolves the same registration: for a
    /// singleton, the same instance.
    ///
    /// Swift cannot check the conformance when registering; resolving through a type the
    /// instance cannot be cast to throws ``FrostError/Code/typeMismatch``.
    ///
    /// - Parameters:
    ///   - types: The types to forward, such as `Logger.self, Sink.self`.
    /// - Returns: This registration, to chain further configuration.
    @discardableResult
    public func implements<each P>(_ types: repeat (each P).Type) -> Registration<T> {
        for type in repeat each types {
            container.addForward(to: key, as: type, from: T.self)
        }
        return self
    }
}
