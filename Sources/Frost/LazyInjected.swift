import Foundation

/// A property resolved on its first access: injection gives it the resolver to use (the
/// container, weakly), and the first read resolves (and keeps) the instance. It breaks
/// dependency cycles, like ``Lazy``.
///
/// ```swift
/// final class Screen {
///     @LazyInjected var logger: Logger
/// }
/// ```
///
/// Thread-safe once injected: the first read from any thread resolves, other threads that read
/// meanwhile wait for it (no lock is held while it resolves). Reading it before injection, or
/// when resolving fails (the factory throws, a cycle, its container has been disposed, or it
/// is gone: the property does not keep it alive), stops the program with the error's
/// message.
@propertyWrapper
public final class LazyInjected<T>: _FrostClass, @unchecked Sendable {
    // @unchecked: `container`, `resolver` and `injected` are only touched under `lock` (NSLock,
    // which the thread sanitizer understands), never held while resolving; the instance is
    // published once through `cell`.
    private let lock = NSLock()
    private weak var container: (any AnyObject & Resolver)?
    /// A resolver that is not an object (your own `Resolver` struct), kept as is.
    private var resolver: (any Resolver)?
    private var injected = false
    private let cell = Cell.allocate()
    /// The name of the registration to resolve, or `nil` for the unnamed one.
    public let name: String?

    /// A property resolved, on first access, from the unnamed registration of its type.
    public override init() {
        name = nil
    }

    /// A property resolved, on first access, from the registration named `name`.
    ///
    /// - Parameters:
    ///   - name: The registration's name.
    public init(name: String) {
        self.name = name
    }

    deinit {
        cell.deallocate()
    }

    /// The instance, resolved on the first access.
    public var wrappedValue: T {
        if let box = cell.peek() { return _readBox(box, as: T.self) }
        do {
            // Read inside an async factory, it continues that factory's resolve.
            return try ResolveContext.continuing { context throws(FrostError) -> T in
                try create(in: context)
            }
        } catch {
            preconditionFailure("@LazyInjected \(T.self): \(error)")
        }
    }

    /// Reads the instance, or resolves and publishes it, in `context`'s resolve.
    private func create(in context: ResolveContext) throws(FrostError) -> T {
        guard
            let box = try Creation.once(
                in: cell, for: context,
                make: { () throws(FrostError) -> AnyObject in _keep(try resolve()) },
                waitCloses: { cycle(in: context) })
        else { throw cycle(in: context) }
        return _readBox(box, as: T.self)
    }

    /// The error of a read of this property that its own resolution needs, or that would
    /// wait in a circle.
    private func cycle(in context: ResolveContext) -> FrostError {
        let key = RegistrationKey(T.self, name: name)
        return FrostError(.cycle, key: key, path: context.pathKeys + [key])
    }

    /// Resolves the instance through what injection gave.
    private func resolve() throws(FrostError) -> T {
        let (injected, container, resolver) = lock.withLock {
            (self.injected, self.container, self.resolver)
        }
        guard injected else {
            preconditionFailure(
                "@LazyInjected \(T.self) was read before inject(into:) or the container filled it")
        }
        guard let resolve = (container as (any Resolver)?) ?? resolver else {
            throw FrostError.containerGone(T.self, name: name)
        }
        return try resolve.resolve(T.self, name: name)
    }

    /// The wrapper itself, as `$property`: `screen.$service.isInjected`.
    public var projectedValue: LazyInjected<T> { self }

    /// Whether injection has given the property its container.
    public var isInjected: Bool {
        lock.withLock { injected }
    }
}

extension LazyInjected: InjectableProperty {
    static var dependency: (type: Any.Type, deferred: Bool) { (T.self, true) }

    static func inject(at address: UnsafeRawPointer, resolver: any Resolver)
        throws(FrostError) -> Bool
    {
        address.load(as: LazyInjected<T>.self).give(resolver)
    }
}

extension LazyInjected {
    /// Gives the property `resolver` to resolve from on first access, unless it has one: what
    /// the members injector of an `@Injectable` type calls for each of its `@LazyInjected`
    /// properties.
    ///
    /// - Parameters:
    ///   - resolver: The container the object was made in.
    public func inject(from resolver: any Resolver) {
        _ = give(resolver)
    }

    /// Gives the property its resolver unless it has one; returns whether it did.
    private func give(_ resolver: any Resolver) -> Bool {
        lock.withLock {
            guard !injected else { return false }
            // A container is kept weakly: a property must not keep its own container alive.
            if let container = resolver as? any AnyObject & Resolver {
                self.container = container
            } else {
                self.resolver = resolver
            }
            injected = true
            return true
        }
    }
}
