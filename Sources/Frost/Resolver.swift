/// Something that resolves registered components: a ``Container``, a ``FrozenContainer``, and
/// the resolver a factory receives.
///
/// A factory must use the resolver it receives (not the container it was registered in) so that
/// Frost can follow the dependency path, detect cycles and name the path in errors.
public protocol Resolver {
    /// Resolves the component registered for `type` under `name`.
    ///
    /// - Parameters:
    ///   - type: The type to resolve, as it was registered (a concrete type or a protocol).
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError`` when nothing is registered for `type` and `name`, when the
    ///   resolve runs into a dependency cycle, or when a factory on the path throws.
    func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T
}

extension Resolver {
    /// Resolves the unnamed registration of `type`.
    ///
    /// - Parameters:
    ///   - type: The type to resolve, as it was registered.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError`` when `type` is not registered, on a cycle, or when a factory
    ///   on the path throws.
    public func resolve<T>(_ type: T.Type = T.self) throws(FrostError) -> T {
        try resolve(type, name: nil)
    }
}
