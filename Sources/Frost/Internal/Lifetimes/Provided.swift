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
