/// The resolver a factory receives, for one kind of store: a non-generic wrapper around a
/// ``Resolution``.
///
/// Factories take `any Resolver`. Boxing the generic `Resolution<Store>` into that existential
/// from unspecialized code makes the runtime look up `Resolution<Store>`'s metadata on every
/// factory call (measured: about 300 instructions each); a non-generic type's metadata is
/// static. The wrappers forward everything to the shared, generic engine.
protocol StoreResolver: Resolver, ResolutionRoot {
    associatedtype Store: ComponentStore
    var resolution: Resolution<Store> { get }
}

extension StoreResolver {
    func resolve<T>(_ type: T.Type, name: String?) throws(FrostError) -> T {
        try resolution.resolve(T.self, name: name)
    }

    func _lookUp(_ type: ObjectIdentifier, name: String?) -> _ResolverLookup {
        resolution.store.lookUp(type, name: name)
    }

    func _lookUp(slot: UInt32) -> _ResolverLookup {
        resolution.store.lookUp(slot: slot)
    }

    func _resolve<T>(_ lookup: _ResolverLookup, _ type: T.Type, name: String?) throws(FrostError)
        -> T
    {
        try resolution.resolve(lookup, T.self, name: name)
    }

    func _resolve<T>(
        _ type: T.Type,
        name: String?,
        arguments: UnsafeRawPointer,
        argumentType: Any.Type
    ) throws(FrostError) -> T {
        try resolution.resolve(T.self, name: name, arguments: arguments, argumentType: argumentType)
    }

    var root: any Resolver { resolution.store }
}

/// What a ``FrozenContainer``'s factories receive.
struct FrozenResolver: StoreResolver {
    let resolution: Resolution<FrozenContainer>

    /// Creates what a lookup found uncached through the frozen container's direct path.
    func _resolve<T>(_ lookup: _ResolverLookup, _ type: T.Type, name: String?) throws(FrostError)
        -> T
    {
        guard lookup.found, lookup.box == nil else {
            return try resolution.resolve(lookup, T.self, name: name)
        }
        return try resolution.store.create(
            at: PerfectHashTable.Slot(truncatingIfNeeded: lookup.location),
            as: T.self,
            depth: resolution.depth,
            state: resolution.state
        )
    }
}

/// What a ``Container``'s factories receive.
struct DictionaryResolver: StoreResolver {
    let resolution: Resolution<Container>
}
