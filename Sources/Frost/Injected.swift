/// A property the container fills: by `inject(into:)` for an object it did not create, or on
/// creation for an instance of a class it registered.
///
/// ```swift
/// final class Screen {
///     @Injected var service: UserService
///     @Injected(name: "replica") var db: Database
/// }
/// try frozen.inject(into: screen)
/// ```
///
/// Only unset properties are filled; reading one before it is filled stops the program with a
/// message naming it (like an implicitly unwrapped optional). Fill an object before sharing it
/// with other threads.
@propertyWrapper
public final class Injected<T>: _FrostClass, @unchecked Sendable {
    // @unchecked: written once, by injection, before the object is shared (documented).
    // `@exclusivity(unchecked)`: read and written by code inlined into other modules, where
    // each access would otherwise be checked at run time (`swift_beginAccess`, about 75
    // instructions, twice per injection).
    //
    // The value as a cell keeps one (``_keep(_:)``: a class instance itself, any other value in
    // a box), not a `T?`: freeing the wrapper (its deinit is generic, never specialized) then
    // releases one reference, where destroying a `T?` asks the runtime for `Optional<T>`'s
    // metadata, about 500 instructions per wrapper freed.
    @exclusivity(unchecked) @usableFromInline var storage: AnyObject?
    /// The name of the registration to inject, or `nil` for the unnamed one.
    public let name: String?
    /// Fills the property unless it is set (``fillIfUnset(from:)``): code specialized for `T`
    /// where the property is declared, since the initializers are inlined there. What
    /// `inject(into:)` calls, knowing the wrapper's type only from reflection: through the
    /// metatype it would run unspecialized, moving each `T` through its value witnesses and
    /// looking up the metadata of `T?` and of the box it reads.
    @usableFromInline let fill: @Sendable (Injected<T>, any Resolver) throws(FrostError) -> Bool

    /// A property filled with the unnamed registration of its type.
    @inlinable
    public override init() {
        name = nil
        fill = { wrapper, resolver throws(FrostError) in try wrapper.fillIfUnset(from: resolver) }
    }

    /// A property filled with the registration of its type named `name`.
    ///
    /// - Parameters:
    ///   - name: The registration's name.
    @inlinable
    public init(name: String) {
        self.name = name
        fill = { wrapper, resolver throws(FrostError) in try wrapper.fillIfUnset(from: resolver) }
    }

    /// The injected instance. Setting it (a mock in a test, say) makes injection leave it.
    @inlinable
    public var wrappedValue: T {
        get {
            guard let storage else {
                preconditionFailure(
                    "@Injected \(T.self)\(name.map { " named \"\($0)\"" } ?? "") was read before "
                        + "inject(into:) or the container filled it"
                )
            }
            return _kept(storage, as: T.self)
        }
        set { storage = _keep(newValue) }
    }

    /// The wrapper itself, as `$property`: `screen.$service.isInjected`.
    public var projectedValue: Injected<T> { self }

    /// Whether the property has been filled.
    public var isInjected: Bool { storage != nil }

    /// Fills the property from `resolver`, unless it is set: what the members injector of an
    /// `@Injectable` type calls for each of its `@Injected` properties.
    ///
    /// Inlined into the caller, so that the resolve is specialized for `T`.
    ///
    /// - Parameters:
    ///   - resolver: The container the object was made in.
    @inlinable
    public func inject(from resolver: any Resolver) throws(FrostError) {
        _ = try fillIfUnset(from: resolver)
    }

    /// Fills the property from `resolver` unless it is set; whether it did.
    @inlinable
    func fillIfUnset(from resolver: any Resolver) throws(FrostError) -> Bool {
        guard storage == nil else { return false }
        storage = _keep(try resolver.resolveInlined(T.self, name: name))
        return true
    }
}

extension Injected: InjectableProperty {
    static var dependency: (type: Any.Type, deferred: Bool) { (T.self, false) }

    static func inject(at address: UnsafeRawPointer, resolver: any Resolver)
        throws(FrostError) -> Bool
    {
        // Through a raw pointer: a load of `Injected<T>` is a generic call here. The object
        // that holds the wrapper keeps it alive.
        let wrapper = Unmanaged<Injected<T>>.fromOpaque(address.load(as: UnsafeRawPointer.self))
            .takeUnretainedValue()
        return try wrapper.fill(wrapper, resolver)
    }
}
