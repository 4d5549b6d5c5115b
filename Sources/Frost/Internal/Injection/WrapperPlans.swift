import Foundation

/// Which `@Injected`/`@LazyInjected` properties a registration's instances have. The
/// instance's class decides, not the registered type: a registration under a protocol
/// (`register(HasFood.self) { _ in Meal() }`) or a superclass makes instances whose class has
/// wrappers the registered type does not show.
///
/// The registered type's own plan is computed once, at registration; another class's comes
/// from the process-wide plan cache (``InjectionPlan/of(_:)``), which reflects each class once.
/// Nothing else is kept: one small immutable object per registration (a lock, a dictionary and
/// a cell of its own made each registration of a class cost four allocations more).
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

    private init(staticClass: AnyClass?, isExistential: Bool) {
        self.staticClass = staticClass.map(ObjectIdentifier.init)
        let plan = staticClass.map(InjectionPlan.of)
        self.staticPlan = plan?.fields.isEmpty == false ? plan : nil
        self.checksDynamicType = true
        self.isExistential = isExistential
    }

    /// The plans of the instances of an existential type: the same for all of them.
    private static let existential = WrapperPlans(staticClass: nil, isExistential: true)

    /// The plans of `T`'s instances, or `nil` when `T` cannot hold a class instance.
    static func of<T>(_ type: T.Type) -> WrapperPlans? {
        if let type = T.self as? AnyClass {
            return WrapperPlans(staticClass: type, isExistential: false)
        }
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
}
