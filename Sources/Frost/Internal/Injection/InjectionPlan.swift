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
/// injection into the same class reflects nothing, and finds the plan without a lock.
struct InjectionPlan: Sendable {
    struct Field: Sendable {
        let offset: Int
        let wrapper: any InjectableProperty.Type
    }

    let fields: [Field]
    /// The properties' names (without the wrapper's underscore), in the order of `fields`: apart,
    /// so that a pass over `fields` copies no string.
    let names: [String]

    /// The plan of `type`, from the process-wide cache.
    static func of(_ type: AnyClass) -> InjectionPlan {
        cache.entry(for: type)._withUnsafeGuaranteedRef { $0.plan }
    }

    /// The ``WrapperPlans`` of registrations of `type`, from the same cache: one object per
    /// class, shared by every registration of it (it is immutable).
    static func wrappers(of type: AnyClass) -> WrapperPlans {
        cache.entry(for: type)._withUnsafeGuaranteedRef { $0.wrappers }
    }

    private static let cache = Cache()

    /// Plans by class, each with the ``WrapperPlans`` of the class's registrations: an
    /// open-addressing table of immutable entries, read without a lock (acquire loads of words
    /// published with release stores), added to under a lock. Neither an entry nor a table is
    /// ever freed (one entry per class registered or injected into: a process has a bounded
    /// number), so a reader can always read what it loaded; a table that fills up is replaced
    /// by one twice its size.
    ///
    /// `@unchecked Sendable`: `tables` and `entries` are only touched under `lock` (NSLock:
    /// visible to the thread sanitizer); the words are atomics (``AtomicWord``).
    private final class Cache: @unchecked Sendable {
        final class Entry {
            let type: ObjectIdentifier
            let plan: InjectionPlan
            let wrappers: WrapperPlans

            init(type: ObjectIdentifier, plan: InjectionPlan) {
                self.type = type
                self.plan = plan
                self.wrappers = WrapperPlans(staticClass: type, plan: plan)
            }
        }

        /// `mask + 1` words, each an unretained `Entry` or 0.
        private final class Table {
            let mask: Int
            let words: AtomicWords

            init(capacity: Int) {
                mask = capacity - 1
                words = AtomicWords(count: capacity)
            }

            /// Publishes `entry` in the first free word from its hash (under the cache's lock).
            func place(_ entry: Entry) {
                var index = Cache.hash(entry.type) & mask
                while words.load(at: index) != 0 { index = (index + 1) & mask }
                words.store(UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()), at: index)
            }
        }

        private let lock = NSLock()
        /// The current table, unretained (`tables` keeps it), or 0 before the first plan.
        private let current = AtomicWord()
        private var tables: [Table] = []
        private var entries: [Entry] = []

        static func hash(_ type: ObjectIdentifier) -> Int {
            // Metadata is at least 8-byte aligned: the low bits say nothing.
            Int(truncatingIfNeeded: ((UInt(bitPattern: type) >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 32)
        }

        /// The entry of `type`, made the first time: unretained (an entry is never freed), so
        /// that reading it retains nothing but what is read.
        func entry(for type: AnyClass) -> Unmanaged<Entry> {
            let id = ObjectIdentifier(type)
            if let entry = find(id) { return entry }
            // Reflected without the lock: two threads may both reflect a class (and make its
            // WrapperPlans), once; the entry published first is kept, the other dropped.
            let entry = Entry(type: id, plan: InjectionPlan(reflecting: type))
            return lock.withLock { find(id) ?? Unmanaged.passUnretained(add(entry)) }
        }

        /// The published entry of `id`, read without a lock.
        private func find(_ id: ObjectIdentifier) -> Unmanaged<Entry>? {
            guard let table = UnsafeRawPointer(bitPattern: current.load()) else {
                return nil
            }
            return Unmanaged<Table>.fromOpaque(table)._withUnsafeGuaranteedRef { table in
                var index = Cache.hash(id) & table.mask
                while let word = UnsafeRawPointer(bitPattern: table.words.load(at: index)) {
                    let entry = Unmanaged<Entry>.fromOpaque(word)
                    if entry._withUnsafeGuaranteedRef({ $0.type == id }) { return entry }
                    index = (index + 1) & table.mask
                }
                return nil
            }
        }

        /// Adds `entry` (under the lock), in a bigger table when the current one is half full.
        private func add(_ entry: Entry) -> Entry {
            entries.append(entry)
            if let table = tables.last, entries.count * 2 <= table.mask + 1 {
                table.place(entry)
                return entry
            }
            let table = Table(capacity: max(16, (tables.last?.mask ?? 7) * 2 + 2))
            for entry in entries { table.place(entry) }
            tables.append(table)
            current.store(UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()))
            return entry
        }
    }

    /// Reflects `type`'s stored properties (the standard library's field walker visits the
    /// superclasses' too) and keeps those whose type is an injectable wrapper.
    private init(reflecting type: AnyClass) {
        var fields: [Field] = []
        var names: [String] = []
        // Option `classType` (raw value 1): `type` is a class, so offsets are in its instances.
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1)) {
            name, offset, fieldType, _ in
            if TypeKind.mayBeFrostType(fieldType),
                let wrapper = fieldType as? any InjectableProperty.Type
            {
                var label = String(cString: name)
                if label.hasPrefix("_") { label.removeFirst() }  // `_service` stores `service`
                fields.append(Field(offset: offset, wrapper: wrapper))
                names.append(label)
            }
            return true
        }
        self.fields = fields
        self.names = names
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
        let ignores = !ignoring.isEmpty
        for index in fields.indices {
            if ignores, ignoring.contains(names[index]) { continue }
            let field = fields[index]
            if try field.wrapper.inject(at: base + field.offset, resolver: resolver) {
                filled += 1
            }
        }
        return withExtendedLifetime(object) { filled }
    }
}

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
    fileprivate init(staticClass: ObjectIdentifier, plan: InjectionPlan) {
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
