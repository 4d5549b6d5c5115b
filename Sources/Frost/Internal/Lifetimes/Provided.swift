/// A provided key (`Container.provided`): a value each child container supplies
/// (`child { $0.register(instance: user) }`), kept in that child's cell; resolving it reads the
/// nearest supplying container's value, and fails with ``FrostError/Code/notProvided`` where
/// none supplies it. Never made, never tracked: the value is the application's.
enum Provided: Lifetime {
    static var keeping: Keeping { .supplied }
    static var madeWhereRegistered: Bool { false }
    static var tracksInstances: Bool { false }
    static var allowsAsyncFactory: Bool { false }
    static var rank: Int { 2 }
    static var isEager: Bool { false }
    static var isSupplied: Bool { true }

    /// The cell of the nearest container, from `space` up, that supplies it, and that
    /// container.
    static func cell(of place: Place, seenFrom space: _Space) -> (cell: Cell?, holder: _Space?) {
        guard let index = place.flags.perChildIndex, let supplier = space.supplier(of: index)
        else { return (nil, nil) }
        return (supplier.cell, supplier.space.takeUnretainedValue())
    }

    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        guard let box = target.cell?.read() else {
            throw FrostError(
                .notProvided, key: target.component.key,
                path: context.path(to: target.component),
                catalog: target.context.catalog)
        }
        return _readBox(box, as: T.self)
    }
}
