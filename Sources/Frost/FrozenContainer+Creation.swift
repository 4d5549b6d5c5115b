extension FrozenContainer {
    /// Resolves a registration that `lookup` found without a cached instance, for a top-level
    /// caller: fast mode first, redone in exact mode past the depth limit. The steps of
    /// ``Resolution/topLevel(in:_:)``, written out: its closure costs 3% of the complex
    /// benchmark case in callgrind.
    @inline(__always)
    func resolveFound<T>(_ lookup: _ResolverLookup, as type: T.Type) throws(FrostError) -> T {
        let slot = PerfectHashTable.Slot(truncatingIfNeeded: lookup.location)
        do {
            // Without `.graph` registrations there is no state to make, nor to release.
            guard hasGraphScope else {
                return try create(at: slot, as: T.self, depth: 0, state: nil)
            }
            return try create(at: slot, as: T.self, depth: 0, state: ResolutionState(exact: false))
        } catch  where error.code == .depthLimitReached {
            return try resolveExactly(lookup, as: T.self)
        }
    }

    /// Creates the instance in `slot` (verified to be `T`'s) at `depth` of a resolve.
    ///
    /// A transient registration in a fast resolve is made right here: one depth check, the
    /// factory, and the dependency path added to an error on its way out; the same steps as
    /// the general engine (``Resolution/resolve(at:as:)``), without its layers. An autowired
    /// one whose parameters are all bound reads them through ``_BoundParameters``, with no
    /// resolver. Everything else (caching scopes, exact mode) goes to that engine.
    func create<T>(
        at slot: UInt32,
        as type: T.Type,
        depth: Int,
        state: ResolutionState?
    ) throws(FrostError) -> T {
        // Kept alive by `components`; not retained here.
        unowned(unsafe) let component = table.component(at: slot)
        guard component.createsDirectly, state?.exact != true else {
            return try Resolution(store: self, depth: depth, state: state)
                .resolve(at: slot, as: T.self)
        }
        guard depth < Resolution<FrozenContainer>.depthLimit else {
            throw FrostError(.depthLimitReached, key: component.key)
        }
        if component.boundSlots != nil {
            // Made as a bound parameter's instance is, by the frame this creation belongs to.
            return try _BoundParameters(
                container: Unmanaged.passUnretained(self),
                slotArray: table.slotArray,
                slots: nil,
                depth: depth,
                state: state.map { Unmanaged.passUnretained($0) }
            ).make(
                UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()), at: slot,
                as: T.self)
        }
        unowned(unsafe) let typed = unsafeDowncast(component, to: TypedComponent<T>.self)
        do {
            // The resolver is built in the call: built in a local first, it costs a copy into
            // the existential and two more retains (callgrind: 6% of the complex case).
            return try typed.make(
                FrozenResolver(resolution: Resolution(store: self, depth: depth + 1, state: state))
            )
        } catch {
            throw error.code == .depthLimitReached ? error : error.prepending(component.key)
        }
    }
}
