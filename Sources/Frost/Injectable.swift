/// A type that `container.autowire(T.self)` registers without being told its initializer: what
/// the `@Injectable` macro (the `FrostMacros` product, behind the package trait "Macros") makes
/// a class or a struct conform to.
///
/// ```swift
/// @Injectable
/// final class UserService {
///     init(logger: any Logger, db: Database) { … }
/// }
/// container.autowire(UserService.self)
/// ```
///
/// The macro reads the initializer (the only one, or the one marked `@Inject`) and writes the
/// requirements: the initializer's parameters as dependencies, a factory that reads them, and,
/// when the type has `@Injected` or `@LazyInjected` properties, a members injector that fills
/// them. The registration is the one `autowire(T.self, T.init(…))` makes: `freeze()` checks
/// every parameter and property without running anything, and binds the parameters to their
/// slots. Conform by hand only to do what the macro would. (`SendableMetatype`: the
/// registration's factory, which may run on any thread, calls the type's requirements.)
public protocol Injectable: SendableMetatype {
    /// The initializer's parameters, in order: the type each resolves (as written: a `Lazy`,
    /// `Provider` or Optional parameter is a dependency on the type it wraps, which `freeze()`
    /// treats as `autowire` does) and the registration name it is bound to.
    static var injectableParameters: [InjectableDependency] { get }

    /// The `@Injected` (and, as `Lazy<T>`, `@LazyInjected`) properties the members injector
    /// fills: declared to `freeze()` as property injections. Empty by default.
    static var injectableMembers: [InjectableDependency] { get }

    /// Makes an instance, each of its initializer's parameters read from `parameters` at its
    /// position in ``injectableParameters``.
    ///
    /// - Parameters:
    ///   - parameters: The parameters, resolved in the container the instance is made in.
    /// - Returns: The new instance.
    static func makeInjectable(_ parameters: InjectableParameters) throws -> Self

    /// Fills the unset properties ``injectableMembers`` lists, through `resolver`: each one
    /// directly (no key path, no reflection). Does nothing by default.
    ///
    /// - Parameters:
    ///   - resolver: The container the instance was made in.
    func injectMembers(from resolver: any Resolver) throws(FrostError)
}

extension Injectable {
    /// No properties to fill.
    public static var injectableMembers: [InjectableDependency] { [] }

    /// Fills nothing.
    public func injectMembers(from resolver: any Resolver) throws(FrostError) {}
}

/// One dependency of an ``Injectable`` type: an initializer's parameter or a filled property.
///
/// `@unchecked Sendable`: a metatype is an immutable, process-global value.
public struct InjectableDependency: @unchecked Sendable {
    /// The type resolved, as written (`Lazy<Cache>` for a `Lazy` parameter).
    public let type: Any.Type
    /// The registration name, or `nil` for the unnamed registration.
    public let name: String?
    /// The parameter's label or the property's name, for messages.
    public let label: String

    /// A dependency on `type`, registered under `name`.
    ///
    /// - Parameters:
    ///   - type: The type resolved, as written.
    ///   - name: The registration name, or `nil` for the unnamed registration.
    ///   - label: The parameter's label or the property's name.
    public init(_ type: Any.Type, name: String? = nil, label: String) {
        self.type = type
        self.name = name
        self.label = label
    }
}

/// The parameters of an ``Injectable`` type's initializer, as its factory reads them: each from
/// the slot `freeze()` bound it to (a cached instance read, or a new one made), or by its type
/// and name.
///
/// Exists only while the factory runs; the factory must not keep it.
public struct InjectableParameters {
    @usableFromInline let frame: Frame

    @usableFromInline
    init(frame: Frame) {
        self.frame = frame
    }

    /// The parameter at `index` (from 0, in ``Injectable/injectableParameters``), of type `A`,
    /// from the unnamed registration.
    ///
    /// - Parameters:
    ///   - type: The parameter's type.
    ///   - index: Its position.
    /// - Returns: The resolved instance.
    @inlinable
    @inline(__always)
    public func parameter<A>(_ type: A.Type, at index: Int) throws(FrostError) -> A {
        try frame.parameter(A.self, at: index)
    }

    /// The parameter at `index`, of type `A`, from the registration named `name`.
    ///
    /// - Parameters:
    ///   - type: The parameter's type.
    ///   - index: Its position.
    ///   - name: The registration name it is bound to.
    /// - Returns: The resolved instance.
    @inlinable
    @inline(__always)
    public func parameter<A>(_ type: A.Type, at index: Int, name: String) throws(FrostError) -> A {
        // An unbound parameter (a `Lazy`, a `Provider`, an Optional, a missing one) resolves
        // by type: here, under its name.
        guard frame.slots.unsafelyUnwrapped[index] != .max else {
            return try frame.byType(A.self, name: name)
        }
        return try frame.parameter(A.self, at: index)
    }
}

@available(*, unavailable)
extension InjectableParameters: Sendable {}
