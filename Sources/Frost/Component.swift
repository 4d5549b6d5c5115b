/// One registration, compiled: its key, scope and how to make its instance.
///
/// Immutable: changing a registration (`.scope`, `.implements`) replaces its component, so a
/// ``FrozenContainer`` never sees later changes to the ``Container`` it was frozen from.
/// `@unchecked Sendable` because the generic subclass stores a `@Sendable` closure and an
/// optional instance box, both immutable.
class Component: @unchecked Sendable {
    let key: RegistrationKey
    let scope: Scope
    /// A registered instance (`register(instance:)`), already boxed.
    let instance: AnyObject?
    /// The registration order: later registrations of the same key replace earlier ones.
    let sequence: Int
    /// For a forwarding component (`.implements`): the registration it forwards to. Its scope
    /// follows that registration's at freeze time.
    let forwardsTo: RegistrationKey?

    init(
        key: RegistrationKey,
        scope: Scope,
        instance: AnyObject?,
        sequence: Int,
        forwardsTo: RegistrationKey?
    ) {
        self.key = key
        self.scope = scope
        self.instance = instance
        self.sequence = sequence
        self.forwardsTo = forwardsTo
    }

    /// Whether the container caches this component's instance.
    var caches: Bool { instance != nil || scope.caches }

    /// Makes the instance, boxed (for caching). Overridden by ``TypedComponent``.
    func makeBox(_ resolver: any Resolver) throws(FrostError) -> AnyObject {
        preconditionFailure("Component.makeBox is implemented by TypedComponent")
    }

    /// The same component with another scope.
    func with(scope: Scope) -> Component {
        preconditionFailure("Component.with(scope:) is implemented by TypedComponent")
    }
}

/// A component whose instances are `T`s, made by a factory.
final class TypedComponent<T>: Component, @unchecked Sendable {
    let factory: @Sendable (any Resolver) throws -> T

    init(
        key: RegistrationKey,
        scope: Scope,
        instance: Box<T>? = nil,
        sequence: Int,
        forwardsTo: RegistrationKey? = nil,
        factory: @escaping @Sendable (any Resolver) throws -> T
    ) {
        self.factory = factory
        super.init(
            key: key,
            scope: scope,
            instance: instance,
            sequence: sequence,
            forwardsTo: forwardsTo
        )
    }

    /// Runs the factory. A ``FrostError`` (from a nested resolve, or thrown by the factory
    /// itself) passes through; any other error is wrapped. The resolution adds this component
    /// to the error's path as it unwinds.
    func make(_ resolver: any Resolver) throws(FrostError) -> T {
        do {
            return try factory(resolver)
        } catch let error as FrostError {
            throw error
        } catch {
            throw FrostError(.factoryFailed, key: key, underlying: error)
        }
    }

    override func makeBox(_ resolver: any Resolver) throws(FrostError) -> AnyObject {
        Box(try make(resolver))
    }

    override func with(scope: Scope) -> Component {
        TypedComponent(
            key: key,
            scope: scope,
            instance: instance.map { unsafeDowncast($0, to: Box<T>.self) },
            sequence: sequence,
            forwardsTo: forwardsTo,
            factory: factory
        )
    }
}
