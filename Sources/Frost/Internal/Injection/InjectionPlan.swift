import Foundation
@_spi(Reflection) import Swift

/// A property wrapper `inject(into:)` fills.
protocol InjectableProperty: AnyObject, Sendable {
    /// The type the property resolves, and whether it resolves it later.
    static var dependency: (type: Any.Type, deferred: Bool) { get }

    /// Fills the wrapper stored at `address` (a field of an object) if it is unset: resolved
    /// through `resolver` now, or, for a lazy one, on first access. Returns whether it filled
    /// it.
    static func inject(at address: UnsafeRawPointer, resolver: any Resolver)
        throws(FrostError) -> Bool
}

/// Where the injectable properties of one class are: field offsets and wrapper types, for the
/// class and all its superclasses. Computed once per class (reflection), then reused: a second
/// injection into the same class reflects nothing.
struct InjectionPlan: Sendable {
    struct Field: Sendable {
        let name: String
        let offset: Int
        let wrapper: any InjectableProperty.Type
    }

    let fields: [Field]

    /// The plan of `type`, from the process-wide cache.
    static func of(_ type: AnyClass) -> InjectionPlan {
        cache.plan(for: type)
    }

    private static let cache = Cache()

    /// Plans by class, behind a lock (NSLock: visible to the thread sanitizer).
    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var plans: [ObjectIdentifier: InjectionPlan] = [:]

        func plan(for type: AnyClass) -> InjectionPlan {
            let id = ObjectIdentifier(type)
            if let plan = lock.withLock({ plans[id] }) { return plan }
            // Reflected without the lock: two threads may both reflect a class, once.
            let plan = InjectionPlan(reflecting: type)
            lock.withLock { plans[id] = plan }
            return plan
        }
    }

    /// Reflects `type`'s stored properties (the standard library's field walker visits the
    /// superclasses' too) and keeps those whose type is an injectable wrapper.
    private init(reflecting type: AnyClass) {
        var fields: [Field] = []
        // Option `classType` (raw value 1): `type` is a class, so offsets are in its instances.
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1)) {
            name, offset, fieldType, _ in
            if TypeKind.mayBeFrostType(fieldType),
                let wrapper = fieldType as? any InjectableProperty.Type
            {
                var label = String(cString: name)
                if label.hasPrefix("_") { label.removeFirst() }  // `_service` stores `service`
                fields.append(Field(name: label, offset: offset, wrapper: wrapper))
            }
            return true
        }
        self.fields = fields
    }

    /// Fills the unset injectable properties of `object`, except those named in `ignoring`.
    /// Returns how many it filled.
    @discardableResult
    func inject(
        into object: AnyObject,
        resolver: any Resolver,
        ignoring: Set<String> = []
    ) throws(FrostError) -> Int {
        var filled = 0
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        for field in fields where !ignoring.contains(field.name) {
            if try field.wrapper.inject(at: base + field.offset, resolver: resolver) {
                filled += 1
            }
        }
        return withExtendedLifetime(object) { filled }
    }
}
