import Foundation

/// A property resolved on its first access: injection gives it the container, and the first
/// read resolves (and keeps) the instance. It breaks dependency cycles, like ``Lazy``.
///
/// ```swift
/// final class Screen {
///     @LazyInjected var logger: Logger
/// }
/// ```
///
/// Thread-safe once injected. Reading it before injection, or when resolving fails (or its
/// container is gone: the property does not keep it alive), stops the program with the
/// error's message.
@propertyWrapper
public final class LazyInjected<T>: @unchecked Sendable {
    // @unchecked: `resolver` and `resolved` are only touched under `lock` (NSLock, which the
    // thread sanitizer understands).
    private let lock = NSLock()
    private weak var resolver: (any AnyObject & Resolver)?
    private var injected = false
    private var resolved: T?
    /// The name of the registration to resolve, or `nil` for the unnamed one.
    public let name: String?

    /// A property resolved, on first access, from the unnamed registration of its type.
    public init() {
        name = nil
    }

    /// A property resolved, on first access, from the registration named `name`.
    ///
    /// - Parameters:
    ///   - name: The registration's name.
    public init(name: String) {
        self.name = name
    }

    /// The instance, resolved on the first access.
    public var wrappedValue: T {
        lock.lock()
        defer { lock.unlock() }
        if let resolved { return resolved }
        guard let resolver else {
            preconditionFailure(
                "@LazyInjected \(T.self) was read before inject(into:) or the container filled it")
        }
        do {
            let instance = try resolver.resolve(T.self, name: name)
            resolved = instance
            return instance
        } catch {
            preconditionFailure("@LazyInjected \(T.self): \(error)")
        }
    }

    /// The wrapper itself, as `$property`: `screen.$service.isInjected`.
    public var projectedValue: LazyInjected<T> { self }

    /// Whether injection has given the property its container.
    public var isInjected: Bool {
        lock.lock()
        defer { lock.unlock() }
        return injected
    }
}

extension LazyInjected: InjectableProperty {
    static var dependency: (type: Any.Type, deferred: Bool) { (T.self, true) }

    static func inject(at address: UnsafeRawPointer, resolver: any Resolver, root: any Resolver)
        throws(FrostError) -> Bool
    {
        let wrapper = address.load(as: LazyInjected<T>.self)
        wrapper.lock.lock()
        defer { wrapper.lock.unlock() }
        guard !wrapper.injected else { return false }
        // The container (weakly): it outlives this resolve and is thread-safe.
        wrapper.resolver = root as? any AnyObject & Resolver
        wrapper.injected = true
        return true
    }
}
