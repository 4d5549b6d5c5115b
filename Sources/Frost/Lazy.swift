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
    // @unchecked: everything is assigned in init but the instance, published once through
    // `cell`, which creates it once.
    /// What it resolves, and through which container.
    @usableFromInline let target: DeferredTarget
    private let cell = Cell.allocate()

    @usableFromInline
    init(target: DeferredTarget) {
        self.target = target
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
    @inlinable
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
    @inlinable
    public func get() throws(FrostError) -> T {
        if let box = kept { return _readBox(box, as: T.self) }
        // Inlined into the caller, so that what resolves `T` is specialized for it: through
        // the slot found when this Lazy was made, in a frozen container (its cached instance's
        // box kept as it is); by type otherwise.
        let box = try keep { () throws(FrostError) -> AnyObject in
            try target.resolveBox(T.self)
        }
        return _readBox(box, as: T.self)
    }

    /// The kept instance's box, once resolved: published once and never taken while this
    /// Lazy lives, so an address read is enough.
    @usableFromInline
    var kept: UnsafeMutableRawPointer? { cell.peek() }

    /// Resolves the instance once (`make` makes its box, when this call does) and keeps it:
    /// the create-once protocol of a cell, in the resolve this call continues (a `Lazy` read
    /// inside a factory, an async one's included), so that a cycle through it is reported.
    /// Returns the kept box.
    @usableFromInline
    func keep(_ make: () throws(FrostError) -> AnyObject) throws(FrostError)
        -> UnsafeMutableRawPointer
    {
        try ResolveContext.continuing { context throws(FrostError) -> UnsafeMutableRawPointer in
            guard
                let box = try Creation.once(
                    in: cell, for: context, make: make, waitCloses: { cycle(in: context) })
            else { throw cycle(in: context) }
            return box
        }
    }

    /// The error of a read of this `Lazy` that its own resolution needs, or that would wait
    /// in a circle.
    private func cycle(in context: ResolveContext) -> FrostError {
        let key = RegistrationKey(T.self, name: target.name)
        return FrostError(.cycle, key: key, path: context.pathKeys + [key])
    }

}

extension Lazy: DeferredResolving {
    @usableFromInline
    static var wrappedType: Any.Type { T.self }

    @inlinable
    static func make(target: DeferredTarget) -> Lazy<T> {
        Lazy(target: target)
    }
}

extension Resolver {
    /// Resolves a ``Lazy`` of the unnamed registration of `T`: `T` is resolved on the first
    /// read of ``Lazy/value``, once.
    ///
    /// What `resolve(Lazy<T>.self, name: nil)` gives, by code specialized in the caller: it
    /// finds `T`'s registration once, now, without first looking for a registration of
    /// `Lazy<T>` itself (a container that has one resolves it instead, as that form does).
    ///
    /// - Parameters:
    ///   - type: `Lazy<T>.self`.
    /// - Returns: A new `Lazy`, or the registered one.
    /// - Throws: ``FrostError`` with ``FrostError/Code/notRegistered`` when nothing registers
    ///   `T`, ``FrostError/Code/disposed`` after the container's `dispose()`; or the errors of
    ///   resolving a registration of `Lazy<T>` itself.
    @inlinable
    public func resolve<T>(_ type: Lazy<T>.Type) throws(FrostError) -> Lazy<T> {
        try resolveSpelledOut(Lazy<T>.self)
    }

    /// Resolves a ``Lazy`` of the unnamed registration of `T` in async code: the same as the
    /// synchronous form (making a `Lazy` awaits nothing; reading it resolves `T`).
    ///
    /// - Parameters:
    ///   - type: `Lazy<T>.self`.
    /// - Returns: A new `Lazy`, or the registered one.
    /// - Throws: ``FrostError``, as the synchronous form does.
    @inlinable
    nonisolated(nonsending)
        public func resolve<T>(_ type: Lazy<T>.Type) async throws(FrostError) -> Lazy<T>
    {
        try await resolveSpelledOutAwaiting(Lazy<T>.self)
    }
}
