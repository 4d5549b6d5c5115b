/// A finish — property injection, `onCreate` hooks — put off until the instances the resolve
/// is still constructing exist: the delegate pattern (DESIGN.md, "Semantics users bring from
/// other containers").
///
/// `Client(server:)` takes the server in its initializer, and the server's hook sets
/// `server.client`. Resolving `Client` makes the server inside the client's factory; the
/// server's hook would need the client, which does not exist yet (its factory is still
/// running). So the rule, decided before any hook runs: **the finish of a shared instance (a
/// singleton, `.scoped` or `.graph` one) made while the resolve is still constructing another
/// shared instance runs once the outermost of those is constructed, before the resolve
/// returns.** The server is handed to the client's factory as it is; its finish runs as soon
/// as the client exists, and gets the client. A hook never runs twice and never sees an error
/// that is not a real failure, whether it propagates, catches (`try?`, `do/catch`) or resolves
/// through the container on the same thread (`DispatchQueue.global().sync { }`). A kept
/// instance put off this way is published only once finished: its cell stays claimed (other
/// threads wait for it), and this resolve sees it as provisional meanwhile. A transient's
/// finish runs at once; a cycle through initializers alone stays `.cycle`.
struct DeferredFinish {
    /// The registration whose instance waits for its finish.
    let component: Component
    /// Its instance, boxed.
    let box: AnyObject
    /// What its finish resolves from.
    let resolver: any Resolver
    /// For a kept instance: its creation, still claiming the cell, published once finished.
    let creation: Creation?
    /// The registration whose instance it waits for (an ancestor on the resolve's path).
    let blocker: UnsafeRawPointer

    /// Gives the put-off instance up: its claim is abandoned, its provisional box dropped.
    func abandon(in state: ThreadState) {
        guard let creation else { return }
        state.removeProvisional(creation.cell.address)
        creation.abandon()
    }
}

extension ResolveContext {
    /// The registration whose construction `component`'s finish waits for: the outermost
    /// shared registration (singleton, `.scoped`, `.graph`) on this resolve's path, other than
    /// `component`, whose instance is still being constructed (not finishing); `nil` when
    /// there is none, or when `component` is not shared (a transient's finish runs at once).
    func constructingBlocker(finishing component: Component) -> UnsafeRawPointer? {
        guard component.lifetime.isSharedWithinResolve else { return nil }
        guard depth > 1 else { return nil }
        let path = fields.pointee.entries.unsafelyUnwrapped
        let mine = UInt(bitPattern: Unmanaged.passUnretained(component).toOpaque())
        let finishing = stateIfAny?.finishing ?? []
        for index in 0..<depth where path[index] != mine {
            // A passage (a forward's entry, the awaited walk's; ``enterPassage(_:)``)
            // constructs nothing.
            guard path[index] & Self.passage == 0 else { continue }
            let entry = Self.component(ofEntry: path[index])
            let shared = entry._withUnsafeGuaranteedRef { $0.lifetime.isSharedWithinResolve }
            let address = UnsafeRawPointer(entry.toOpaque())
            if shared, !finishing.contains(address) { return address }
        }
        return nil
    }

    /// Runs `body`, the finish of `component` (its instance constructed), with `component`
    /// counted as finishing: what it resolves may be handed its instance as it is.
    func finishing<R, E: Error>(_ component: Component, _ body: () throws(E) -> R) throws(E) -> R {
        let state = self.state
        state.finishing.append(UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque()))
        defer { state.finishing.removeLast() }
        return try body()
    }

    /// Whether any finish is put off (a check that makes no state).
    var hasDeferred: Bool { stateIfAny?.deferred.isEmpty == false }

    /// Runs the finishes put off until `component`'s instance exists, oldest first: each
    /// entered in the path, then its kept instance published. A failure abandons it and every
    /// other one waiting for `component`, and is thrown.
    func runDeferred(waitingFor component: Component) throws(FrostError) {
        guard hasDeferred else { return }
        let state = self.state
        let blocker = UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque())
        while let index = state.deferred.firstIndex(where: { $0.blocker == blocker }) {
            let entry = state.deferred.remove(at: index)
            do {
                try entering(entry.component) {
                    try finishing(entry.component) {
                        try entry.component.finishBox(entry.box, entry.resolver)
                    }
                }
            } catch {
                entry.abandon(in: state)
                abandonDeferred(waitingFor: component)
                throw error
            }
            guard let creation = entry.creation else { continue }
            state.removeProvisional(creation.cell.address)
            do {
                try creation.publish(entry.box)
            } catch {
                abandonDeferred(waitingFor: component)
                throw error
            }
        }
    }

    /// Abandons the finishes put off until `component`'s instance exists (its creation
    /// failed: it never will).
    func abandonDeferred(waitingFor component: Component) {
        guard hasDeferred else { return }
        let state = self.state
        let blocker = UnsafeRawPointer(Unmanaged.passUnretained(component).toOpaque())
        state.deferred.removeAll { entry in
            guard entry.blocker == blocker else { return false }
            entry.abandon(in: state)
            return true
        }
    }
}
