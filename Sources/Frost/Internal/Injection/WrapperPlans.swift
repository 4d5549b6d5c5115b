/// Which `@Injected`/`@LazyInjected` properties a registration's instances have. The
/// instance's class decides, not the registered type: a registration under a protocol
/// (`register(HasFood.self) { _ in Meal() }`) or a superclass makes instances whose class has
/// wrappers the registered type does not show.
///
/// Every class's plan comes from the process-wide plan cache (``InjectionPlan/of(_:)``), which
/// reflects each class once: the registered class's is read once, when this object is made,
/// and kept here; another class's is looked up when an instance of it is finished. This small
/// immutable object is made once per class, kept in that cache beside the class's plan (see
/// ``InjectionPlan/wrappers(of:)``) and shared by every registration of the class: one made per
/// registration cost an allocation each; a lock, a dictionary and a cell of its own cost four
/// more.
@usableFromInline
final class WrapperPlans: Sendable {
    /// The registered type's identity, when it is a class.
    let staticClass: ObjectIdentifier?
    /// The registered class's own plan, when it has wrappers.
    let staticPlan: InjectionPlan?
    /// Whether an instance can be of a class other than the registered type's: the type is a
    /// class (a subclass's instance) or an existential (any class conforming to it).
    @usableFromInline let checksDynamicType: Bool
    /// Whether the registered type is an existential: an instance's class is found by opening
    /// it (`type(of:)` of a generic value answers the existential type itself).
    @usableFromInline let isExistential: Bool

    /// The plans of a class's registrations, `plan` being the class's own (made by the cache).
    init(staticClass: ObjectIdentifier, plan: InjectionPlan) {
        self.staticClass = staticClass
        self.staticPlan = plan.fields.isEmpty ? nil : plan
        self.checksDynamicType = true
        self.isExistential = false
    }

    /// The plans of an existential's registrations.
    private init(existential: Void) {
        self.staticClass = nil
        self.staticPlan = nil
        self.checksDynamicType = true
        self.isExistential = true
    }

    /// The plans of the instances of an existential type: the same for all of them.
    private static let existential = WrapperPlans(existential: ())

    /// The plans of `T`'s instances, or `nil` when `T` cannot hold a class instance.
    static func of<T>(_ type: T.Type) -> WrapperPlans? {
        if let type = T.self as? AnyClass { return InjectionPlan.wrappers(of: type) }
        guard TypeKind.of(T.self) == .existential else { return nil }
        return existential
    }

    /// The class of `instance` (a value of the registered type): its own class, or the class
    /// an existential holds.
    @inlinable
    @inline(__always)
    func dynamicType<T>(of instance: T) -> Any.Type {
        // A class instance is one reference: its class is read from the object itself (the
        // generic `type(of:)` goes through the runtime's slower dynamic-type search).
        isExistential
            ? type(of: instance as Any) : type(of: unsafeBitCast(instance, to: AnyObject.self))
    }

    /// The plan for `instance`, or `nil` when its class has no wrappers.
    func plan<T>(for instance: T) -> InjectionPlan? {
        let dynamicType = dynamicType(of: instance)
        if ObjectIdentifier(dynamicType) == staticClass { return staticPlan }
        guard let type = dynamicType as? AnyClass else { return nil }
        let plan = InjectionPlan.of(type)
        return plan.fields.isEmpty ? nil : plan
    }

    /// ``plan(for:)`` of an instance that is a class instance, as an object (no generic
    /// copy of it is made to find its class).
    func plan(forObject object: AnyObject) -> InjectionPlan? {
        let type: AnyClass = Swift.type(of: object)
        if ObjectIdentifier(type) == staticClass { return staticPlan }
        let plan = InjectionPlan.of(type)
        return plan.fields.isEmpty ? nil : plan
    }
}
