/// A custom scope (`.custom(storage)`): the application's ``ScopeStorage`` keeps the instance,
/// under a key naming the registration and the container it belongs to (so a parent and its
/// children sharing one storage keep their own instances), and decides when it goes. Made in
/// the container the registration belongs to; what the storage answers is checked to be the
/// registration's instance. Not tracked: the storage owns the instances.
enum Custom: Lifetime {
    static var keeping: Keeping { .storage }
    static var madeWhereRegistered: Bool { true }
    static var tracksInstances: Bool { false }
    static var allowsAsyncFactory: Bool { false }
    static var rank: Int { 3 }
    static var isEager: Bool { false }

    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        let component = target.component
        let owner = target.owner
        guard let storage = component.scope.storage else {
            preconditionFailure("a custom scope has a storage")
        }
        let key = ScopeKey(registration: component.key, container: owner.generation)
        let object: AnyObject
        do {
            object = try storage.instance(forKey: key) {
                try context.entering(component) { () throws -> AnyObject in
                    let box = try component.constructBox(in: owner.frame(in: context))
                    if component.typed.finishesBox(box, of: component) {
                        try component.finishBox(box, owner.resolver)
                    }
                    return box
                }
            }
        } catch let error as FrostError {
            throw error
        } catch {
            throw FrostError(
                .factoryFailed, key: component.key, path: context.pathKeys + [component.key],
                detail: "the custom scope's storage (\(Swift.type(of: storage))) threw",
                underlying: error)
        }
        guard let instance = _keptChecked(object, as: T.self) else {
            throw FrostError(
                .typeMismatch, key: component.key, path: context.pathKeys + [component.key],
                detail: "its custom scope's storage (\(Swift.type(of: storage))) answered an "
                    + "instance of \(String(reflecting: Swift.type(of: object))) for \(key), "
                    + "not the instance it made")
        }
        return instance
    }
}
