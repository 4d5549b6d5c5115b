/// A dependency resolved once, on first use: resolve `Lazy<T>` (or take it as an autowired
/// parameter) for any registered `T`.
///
/// `Lazy` breaks dependency cycles — `A` may depend on `Lazy<B>` while `B` depends on `A` —
/// and postpones expensive construction until it is needed.
///
/// ```swift
/// let lazy = try frozen.resolve(Lazy<Logger>.self)
/// lazy.value.log("resolved now, once")
/// ```
///
/// Thread-safe: the first access from any thread resolves, and other threads that read it
/// meanwhile wait for that resolve (no lock is held while it runs). Read inside a factory, it
/// continues the resolve that runs the factory, so a cycle through it (`B`'s factory needs the
/// `A` whose factory reads this `Lazy<B>`) fails with ``FrostError/Code/cycle`` instead of
/// recursing.
///
/// Resolved with runtime arguments (`resolve(Lazy<Greeting>.self, argument: "Ann")`), it keeps
/// a copy of them and resolves `T` with them.
///
/// A `Lazy` does not keep its container alive (a singleton holding one would otherwise keep
/// its own container forever); resolving through it after the container is gone throws
/// ``FrostError/Code/containerGone``, and after the container's `dispose()`,
/// ``FrostError/Code/disposed``. A `Lazy` made by a ``Container`` (not frozen) resolves through
/// it: use it on that container's thread.
public final class Lazy<T>: _FrostClass, @unchecked Sendable {
    // @unchecked: `container` is only assigned in init (weak loads are thread-safe); the
    // resolved instance is published once through `cell`, which creates it once.
    private weak var container: (any AnyObject & Resolver)?
    private let name: String?
    private let arguments: CapturedArguments?
    /// `Box<T>`, as the code that made this `Lazy` knew it: boxing the instance then asks the
    /// runtime for no metadata (code compiled for any `T` would, on every first access).
    private let boxType: Box<T>.Type
    private let cell = Cell.allocate()

    @usableFromInline
    init(
        container: any AnyObject & Resolver, name: String?, arguments: CapturedArguments?,
        boxType: Box<T>.Type
    ) {
        self.container = container
        self.name = name
        self.arguments = arguments
        self.boxType = boxType
    }

    deinit {
        cell.deallocate()
    }

    /// The instance, resolved on the first access and kept.
    ///
    /// Resolving fails when resolving `T` from the container fails (its factory throws, a
    /// cycle, the depth limit, a per-child key resolved outside a child, for instance), when
    /// the container has been disposed, or when it is gone; `value` then stops the program
    /// with the error's message. Use ``get()`` to handle it.
    public var value: T {
        do {
            return try get()
        } catch {
            preconditionFailure("Lazy<\(T.self)>.value: \(error)")
        }
    }

    /// The instance, resolved on the first call and kept.
    ///
    /// - Returns: The instance.
    /// - Throws: ``FrostError`` when resolving fails (the next call tries again):
    ///   ``FrostError/Code/containerGone`` when the container is gone,
    ///   ``FrostError/Code/disposed`` after the container's `dispose()`,
    ///   ``FrostError/Code/cycle`` when the resolve depends on itself, or any other error of
    ///   resolving `T` (``FrostError/Code/factoryFailed`` when a factory on the path throws,
    ///   for instance).
    public func get() throws(FrostError) -> T {
        // Published once and never taken while this Lazy lives: an address read is enough.
        if let box = cell.peek() { return _readBox(box, as: T.self) }
        // Read inside an async factory, it continues that factory's resolve: a cycle through
        // it is found.
        return try AwaitedResolve.continuing { context throws(FrostError) -> T in
            try create(in: context)
        }
    }

    /// Reads the instance, or resolves and publishes it, in `context`'s resolve.
    private func create(in context: ResolveContext) throws(FrostError) -> T {
        switch cell.begin(for: context) {
        case .ready(let box):
            return _readBox(box, as: T.self)
        case .create:
            guard let container else {
                cell.end(for: context, publishing: nil)
                throw FrostError.containerGone(T.self, name: name)
            }
            let instance: T
            do {
                instance = try resolve(from: container)
            } catch {
                cell.end(for: context, publishing: nil)
                throw error
            }
            cell.end(for: context, publishing: boxType.init(instance))
            return instance
        case .own, .cycle, .awaited, .wait:
            let key = RegistrationKey(T.self, name: name)
            throw FrostError(.cycle, key: key, path: context.pathKeys + [key])
        }
    }
}

extension Lazy: DeferredResolving {
    @usableFromInline
    static var wrappedType: Any.Type { T.self }

    @inlinable
    static func make(
        container: any AnyObject & Resolver, name: String?, arguments: CapturedArguments?
    ) -> Lazy<T> {
        Lazy(container: container, name: name, arguments: arguments, boxType: Box<T>.self)
    }

    /// `T` from `container`, with the kept arguments if any.
    private func resolve(from container: any AnyObject & Resolver) throws(FrostError) -> T {
        guard let arguments else { return try container.resolve(T.self, name: name) }
        return try arguments.withPointer { pointer throws(FrostError) in
            guard let space = container._space?.takeUnretainedValue() else {
                throw FrostError.takesNoArguments(
                    T.self, name: name, resolver: Swift.type(of: container))
            }
            return try space.resolve(
                T.self, name: name, arguments: pointer, argumentType: arguments.type)
        }
    }
}
