import Foundation

/// Which `@Injected`/`@LazyInjected` properties a registration's instances have. The
/// instance's class decides, not the registered type: a registration under a protocol
/// (`register(HasFood.self) { _ in Meal() }`) or a superclass makes instances whose class has
/// wrappers the registered type does not show.
///
/// The registered type's own plan is computed once, at registration; another class's is looked
/// up on first sight and remembered, and the last one seen is read without a lock.
///
/// `@unchecked Sendable`: `byClass` is only touched under `lock` (NSLock: visible to the thread
/// sanitizer); `latest` holds an `Entry` that `byClass` keeps alive until `deinit`.
@usableFromInline
final class WrapperPlans: @unchecked Sendable {
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

    private final class Entry {
        let type: ObjectIdentifier
        let plan: InjectionPlan?

        init(type: ObjectIdentifier, plan: InjectionPlan?) {
            self.type = type
            self.plan = plan
        }
    }

    private let lock = NSLock()
    private var byClass: [ObjectIdentifier: Entry] = [:]
    private let latest = Cell.allocate()

    private init(staticClass: AnyClass?, isExistential: Bool) {
        self.staticClass = staticClass.map(ObjectIdentifier.init)
        let plan = staticClass.map(InjectionPlan.of)
        self.staticPlan = plan?.fields.isEmpty == false ? plan : nil
        self.checksDynamicType = true
        self.isExistential = isExistential
    }

    deinit {
        latest.deallocate()
    }

    /// The plans of `T`'s instances, or `nil` when `T` cannot hold a class instance.
    static func of<T>(_ type: T.Type) -> WrapperPlans? {
        if let type = T.self as? AnyClass {
            return WrapperPlans(staticClass: type, isExistential: false)
        }
        guard TypeKind.of(T.self) == .existential else { return nil }
        return WrapperPlans(staticClass: nil, isExistential: true)
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
        let id = ObjectIdentifier(dynamicType)
        if id == staticClass { return staticPlan }
        if let entry = latest.peek() {
            let known = Unmanaged<Entry>.fromOpaque(entry).takeUnretainedValue()
            if known.type == id { return known.plan }
        }
        return lookUp(dynamicType, id: id)
    }

    private func lookUp(_ type: Any.Type, id: ObjectIdentifier) -> InjectionPlan? {
        lock.lock()
        defer { lock.unlock() }
        let entry: Entry
        if let known = byClass[id] {
            entry = known
        } else {
            let plan = (type as? AnyClass).map(InjectionPlan.of)
            entry = Entry(type: id, plan: plan?.fields.isEmpty == false ? plan : nil)
            byClass[id] = entry
        }
        // `byClass` keeps every entry alive, so a reader of `latest` never reads a freed one.
        if let previous = latest.take() { Unmanaged<AnyObject>.fromOpaque(previous).release() }
        latest.preset(entry)
        return entry.plan
    }
}
