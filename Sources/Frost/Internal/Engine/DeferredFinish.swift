/// A finish — property injection, `onCreate` hooks — put off until an instance it needs
/// exists: the delegate pattern (DESIGN.md, "Semantics users bring from other containers").
///
/// `Client(server:)` takes the server in its initializer, and the server's hook sets
/// `server.client`. Resolving `Client` makes the server inside the client's factory; the
/// server's hook then needs the client, which does not exist yet (its factory is still
/// running). Rather than fail with `.cycle`, the server's finish is put off: the server is
/// handed to the client's factory as it is, and its finish runs as soon as the client exists —
/// when the client's creation begins its own finish, before the outermost resolve returns —
/// and then gets the client. A kept instance (a singleton, a `.scoped` one) put off this way
/// is published only once finished: its cell stays claimed (other threads wait for it), and
/// this resolve sees it as provisional meanwhile.
///
/// Only a finish that needs an instance being constructed by the same resolve is put off, and
/// only when that instance is one the resolve shares (a singleton, `.scoped`, `.graph`): a
/// cycle through initializers alone stays `.cycle`. A hook put off runs again, whole, once the
/// instance exists (what it did before its resolve failed is done again).
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
    /// The registration on this resolve's path — an ancestor of `component`, being
    /// constructed and shared within the resolve — whose instance `error`, thrown while
    /// finishing `component`, waited for; `nil` when `error` is anything else (a real
    /// failure, a cycle through initializers).
    func blocker(of error: any Error, finishing component: Component) -> UnsafeRawPointer? {
        guard let error = error as? FrostError, error.code == .cycle, error.detail == nil,
            let key = error.key
        else { return nil }
        let path = raw.pointee.path
        let mine = UInt(bitPattern: Unmanaged.passUnretained(component).toOpaque())
        for index in (0..<Int(raw.pointee.depth)).reversed() where path[index] != mine {
            let candidate = Unmanaged<Component>.fromOpaque(
                UnsafeRawPointer(bitPattern: path[index])!)
            let found = candidate._withUnsafeGuaranteedRef {
                $0.key == key && $0.lifetime.isSharedWithinResolve
            }
            if found { return UnsafeRawPointer(bitPattern: path[index]) }
        }
        return nil
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
                    try entry.component.finishBox(entry.box, entry.resolver)
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
