/// `.weak`: the container keeps the instance while someone else holds it — a resolve returns
/// the living instance, or makes a new one once the last holder let it go. Made in the
/// container the registration belongs to; kept in a side cell of its slot (a `WeakBox`, never
/// read as a cached instance). A living instance's `.onDispose` hooks run at its container's
/// `dispose()`; a dead one's record is dropped (``Disposal``), so a registration whose
/// instances come and go keeps no record of each. Class instances only: a value is never kept.
enum Weak: Lifetime {
    static var keeping: Keeping { .weakSide }
    static var madeWhereRegistered: Bool { true }
    static var tracksInstances: Bool { true }
    static var allowsAsyncFactory: Bool { false }
    static var rank: Int { 3 }
    static var isEager: Bool { false }

    /// Its slot's side cell.
    static func cell(of place: Place, seenFrom space: _Space) -> (cell: Cell?, holder: _Space?) {
        (place.weakCell, nil)
    }

    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        let component = target.component
        let owner = target.owner
        let cell = target.cell.unsafelyUnwrapped
        let creation = Creation(cell: cell, component: component, maker: owner, context: context)
        while true {
            var stale: UnsafeMutableRawPointer?
            if let box = cell.read() {
                if let object = Unmanaged<WeakBox>.fromOpaque(box).takeUnretainedValue().object {
                    return try cast(object, as: T.self, component)
                }
                stale = box
            }
            switch try creation.begin(stale: stale) {
            case .ready:
                continue  // another resolve made one meanwhile: read it (it may have died again)
            case .provisional(let box):
                // Its own resolve re-entered it while finishing it.
                if let object = (box as? WeakBox)?.object {
                    return try cast(object, as: T.self, component)
                }
                throw context.cycle(closedBy: component.key)
            case .through:
                throw context.cycle(closedBy: component.key)
            case .create:
                let object: AnyObject
                do {
                    object = try context.entering(component) {
                        let object = try component.constructObject(in: owner.frame(in: context))
                        guard component.finishes else { return object }
                        let state = context.state
                        state.provisional.append((cell.address, WeakBox(object)))
                        defer { state.provisional.removeLast() }
                        try component.finishObject(object, owner.resolver)
                        return object
                    }
                } catch {
                    creation.abandon()
                    throw error
                }
                try creation.publish(WeakBox(object))
                return try cast(object, as: T.self, component)
            }
        }
    }

    /// `object`, a `.weak` registration's instance, as a `T`.
    private static func cast<T>(_ object: AnyObject, as type: T.Type, _ component: Component)
        throws(FrostError) -> T
    {
        if let value = object as? T { return value }
        throw FrostError(
            .typeMismatch, key: component.key,
            detail: "the weakly kept instance (an instance of "
                + "\(String(reflecting: Swift.type(of: object)))) is not a \(T.self)")
    }
}

/// What a `.weak` registration's cell holds: its instance, weakly. Immutable: a dead one is
/// replaced (by a new creation), never refilled.
final class WeakBox: @unchecked Sendable {
    // @unchecked: assigned once in init; weak loads are thread-safe.
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
