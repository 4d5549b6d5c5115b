/// Something that resolves registered components: a ``Container``, a ``FrozenContainer``, and
/// what a factory receives (the container its registration is resolved in).
///
/// A factory should use the resolver it receives: it resolves in the right container (a
/// child's, when the registration is resolved through a child) and continues the resolve that
/// runs the factory, so that Frost follows the dependency path, detects cycles and names the
/// path in errors.
///
/// To conform your own type, implement ``resolve(_:name:)``: every other requirement has a
/// default implementation. (The generated interface also shows a requirement whose name starts
/// with `_`: it is the hook Frost's own containers use, and a name that starts with `_` is not
/// API.)
public protocol Resolver {
    /// Resolves the component registered for `type` under `name`.
    ///
    /// - Parameters:
    ///   - type: The type to resolve, as it was registered (a concrete type or a protocol).
    ///   - name: The registration's name, or `nil` for the unnamed registration.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError`` when nothing is registered for `type` and `name`, when the
    ///   resolve runs into a dependency cycle or nests deeper than ``maximumDepth``, or when a
    ///   factory on the path throws.
    func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T

    /// Implementation detail of `resolve`: the container Frost's inlined code resolves
    /// through (unretained: the resolver keeps it alive), or `nil` for a resolver that is not
    /// one of Frost's containers. Not API: do not call it or implement it (the default answers
    /// `nil`).
    var _space: Unmanaged<_Space>? { get }
}

extension Resolver {
    /// Resolves the unnamed registration of `type`.
    ///
    /// Inlined into the caller, so that reading a cached instance is specialized for `T` even
    /// through `any Resolver`: one non-generic lookup, then a read of the cached box.
    ///
    /// - Parameters:
    ///   - type: The type to resolve, as it was registered.
    /// - Returns: The instance, created or cached according to the registration's scope.
    /// - Throws: ``FrostError`` when `type` is not registered, on a cycle, or when a factory
    ///   on the path throws.
    @inlinable
    public func resolve<T>(_ type: T.Type = T.self) throws(FrostError) -> T {
        guard let space = _space else { return try resolve(T.self, name: nil) }
        return try _Space.resolve(T.self, name: nil, in: space)
    }

    /// ``resolve(_:name:)``, specialized in the caller for Frost's own containers, as the
    /// unnamed ``resolve(_:)`` is: what injected properties resolve through. (A container's
    /// `resolve(_:name:)` is this very call, but reached through `any Resolver` it runs
    /// unspecialized.) Always inlined: called on `any Resolver`, its `Self` is an opened
    /// existential, and the optimizer does not specialize a call for `T` alone.
    @inlinable
    @inline(__always)
    func resolveInlined<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        guard let space = _space else { return try resolve(T.self, name: name) }
        return try _Space.resolve(T.self, name: name, in: space)
    }

    /// `resolve(Lazy<T>.self)` or `resolve(Provider<T>.self)` written out (`deferred` is the
    /// wrapper): in Frost's containers, the wrapper of `T`'s slot, made without looking up the
    /// wrapper's own key unless a container of the chain registers a wrapper type
    /// (``_Space/unregisteredDeferred(_:in:)``); otherwise, the general resolve.
    @inlinable
    func resolveSpelledOut<D: DeferredResolving>(_ deferred: D.Type) throws(FrostError) -> D {
        guard let space = _space, let made = try _Space.unregisteredDeferred(D.self, in: space)
        else { return try resolve(D.self, name: nil) }
        return made
    }

    /// The default: this resolver is none of Frost's containers.
    public var _space: Unmanaged<_Space>? { nil }

    /// How deep a resolve may nest factories: 1,000 levels (a factory whose dependency's
    /// factory has a dependency, and so on). A deeper resolve throws
    /// ``FrostError/Code/depthLimit`` naming its path, and so does one that would come close
    /// to the end of its thread's stack: Frost's own recursion never overflows the stack.
    public static var maximumDepth: Int { ResolveContext.maximumDepth }
}
