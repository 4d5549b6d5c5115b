/// Layer 2 of the engine: the create-once state machine of one kept instance — a singleton's,
/// a `.scoped` one's — shared by the synchronous and the awaited resolve. It decides; the two
/// small callers, ``make(_:)`` and ``makeAwaiting(_:)``, carry the decision out (a thread
/// blocks where a task suspends, a factory is called where an async one is awaited).
///
/// The steps: **begin** (read the instance, or claim its creation, or meet one's own creation
/// again, or wait for another resolve's), **finish** (inject properties and run `onCreate`
/// hooks while a re-entry of the cell gets the instance), **publish** (the instance goes in the
/// cell, waiters wake, the container's disposal takes it over), or **abandon** (nothing is
/// published; the next resolve creates again). The rules it keeps:
/// - no lock is held while the factory runs; only a resolve of the same cell waits, and a wait
///   that would close a circle of resolves fails with `.cycle`;
/// - the instance is made once; a re-entry while it is being finished gets it, a re-entry while
///   its factory runs is a cycle;
/// - a container being disposed keeps its door closed: an instance finished after `dispose()`
///   began is not served (`.disposed`), and its `.onDispose` hooks run at once.
struct Creation {
    /// Where the instance is kept.
    let cell: Cell
    /// The registration.
    unowned(unsafe) let component: Component
    /// The container the factory resolves from and whose disposal takes the instance over.
    unowned(unsafe) let maker: _Space
    /// The resolve that creates it.
    let context: ResolveContext
    /// Whether each instance this creation publishes goes in its maker's log of singletons
    /// (a flag, not a closure: a closure capturing the container is an allocation per
    /// creation).
    var logsSingleton = false

    /// What ``begin()`` or ``beginAwaiting()`` found.
    enum Begun {
        /// The instance (a protected read: copy its value out before reading another cell).
        case ready(UnsafeMutableRawPointer)
        /// The instance this resolve is finishing (a re-entry while it injects properties).
        case provisional(AnyObject)
        /// This resolve creates it now: ``publish(_:)`` or ``abandon()`` once.
        case create
        /// A forward (`.implements`) re-entered while the instance it forwards to is being
        /// finished: made through, unkept (it resolves to that instance, not to a cycle).
        case through
    }

    /// Reads the instance or claims its creation, blocking while another resolve creates it.
    /// `stale`: what the caller read in the cell and will not serve (a `.weak` instance's box
    /// whose instance died), which the claim replaces.
    func begin(stale: UnsafeMutableRawPointer? = nil) throws(FrostError) -> Begun {
        try begun(cell.begin(for: context, stale: stale))
    }

    /// ``begin()`` for an awaited resolve: `nil` when another resolve creates the instance
    /// (suspend, then begin again).
    func beginAwaiting() throws(FrostError) -> Begun? {
        guard let claim = cell.beginAwaiting(for: context) else { return nil }
        return try begun(claim)
    }

    /// What the cell's `claim` means for this creation.
    private func begun(_ claim: CellClaim) throws(FrostError) -> Begun {
        switch claim {
        case .ready(let box): return .ready(box)
        case .create: return .create
        case .own:
            // Its own resolve re-entered it while finishing it: the instance is made, and is
            // what the re-entry gets. Earlier (in its factory) it is a cycle.
            if let box = context.state.provisionalBox(for: cell.address) {
                return .provisional(box)
            }
            if component.forwardsTo != nil { return .through }
            throw context.cycle(closedBy: component.key)
        case .cycle:
            throw Engine.crossResolveCycle(component, context)
        case .awaited:
            throw Engine.madeByAnotherTask(component)
        }
    }

    /// Finishes `box` (properties, then `onCreate` hooks), showing it to re-entries of the
    /// cell meanwhile.
    func finish(_ box: AnyObject) throws {
        let state = context.state
        state.provisional.append((cell.address, box))
        defer { state.removeProvisional(cell.address) }
        try component.finishBox(box, maker.resolver)
    }

    /// Runs, `box` shown to re-entries of the cell, the finishes put off until this instance
    /// exists (``DeferredFinish``); then its own finish (the component is entered in the path
    /// by the caller). `false` when its own finish is put off in turn, until an instance it
    /// needs exists: the cell stays claimed, the box provisional, until that finish runs and
    /// publishes it.
    func finishOrPutOff(_ box: AnyObject) throws(FrostError) -> Bool {
        let finishes = Unmanaged.passUnretained(component)._withUnsafeGuaranteedRef {
            $0.typed.finishesBox(box, of: $0)
        }
        guard finishes || context.hasDeferred else { return true }
        let state = context.state
        state.provisional.append((cell.address, box))
        if finishes, let blocker = context.constructingBlocker(finishing: component) {
            state.deferred.append(
                DeferredFinish(
                    component: component, box: box, resolver: maker.resolver,
                    creation: self, blocker: blocker))
            return false
        }
        do {
            try context.finishing(component) { () throws(FrostError) in
                try finishEntered(box, finishes: finishes)
            }
        } catch {
            state.removeProvisional(cell.address)
            throw error
        }
        state.removeProvisional(cell.address)
        return true
    }

    /// What was put off until this instance exists, then its own finish if it `finishes`.
    private func finishEntered(_ box: AnyObject, finishes: Bool) throws(FrostError) {
        try context.runDeferred(waitingFor: component)
        guard finishes else { return }
        do {
            try component.finishBox(box, maker.resolver)
        } catch {
            throw context.failure(error, in: component)
        }
    }

    /// Publishes `box` in the cell and hands it to the container's disposal; what it replaces
    /// (a stale box) is retired. Throws `.disposed`, serving nothing, when the container's
    /// `dispose()` began meanwhile (the hooks have then run on it).
    func publish(_ box: AnyObject) throws(FrostError) {
        if let replaced = cell.end(for: context, publishing: box) {
            maker.retired.retire(replaced, from: cell)
        }
        // Disposal takes over an instance whose registration has hooks, and refuses any once
        // it began.
        if component.disposes || maker.isDisposed {
            // Neither container nor registration retained: the resolve holds both.
            let admitted = Unmanaged.passUnretained(maker)._withUnsafeGuaranteedRef {
                $0.admit(box, of: Unmanaged.passUnretained(component), in: cell)
            }
            if !admitted { throw maker.disposedError(component) }
        }
        if logsSingleton { maker.singletonLog?.record(component, box, in: cell) }
    }

    /// Gives the claim up: nothing is published, the next resolve creates again.
    func abandon() {
        cell.end(for: context, publishing: nil)
    }

    /// The create-once machine of a cell no lifetime keeps — a `Lazy`'s, a `@LazyInjected`
    /// wrapper's, a ``LockedScopeStorage`` entry's: reads the box in `cell`, or claims its
    /// creation in `context`'s resolve and publishes what `make` makes (nothing, when it
    /// throws). Returns the box's address (a protected read, or the box just published, which
    /// the cell keeps); `nil` when `context`'s own resolve is creating it already (a
    /// re-entry). Throws `waitCloses()` when waiting for another resolve's creation would
    /// close a circle of waits, or when an awaited resolve creates it.
    static func once<E: Error>(
        in cell: Cell, for context: ResolveContext, make: () throws(E) -> AnyObject,
        waitCloses: () -> E
    ) throws(E) -> UnsafeMutableRawPointer? {
        switch cell.begin(for: context) {
        case .ready(let box):
            return box
        case .create:
            let box: AnyObject
            do throws(E) {
                box = try make()
            } catch {
                cell.end(for: context, publishing: nil)
                throw error
            }
            cell.end(for: context, publishing: box)
            return Unmanaged.passUnretained(box).toOpaque()
        case .own:
            return nil
        case .cycle, .awaited:
            throw waitCloses()
        }
    }

    // MARK: The two callers

    /// A synchronous resolve's creation (`construct` runs the factory, entered in the path).
    func make(_ construct: () throws -> AnyObject) throws(FrostError) -> Made {
        switch try begin() {
        case .ready(let box): return .read(box)
        case .provisional(let box): return .provisional(box)
        case .through:
            do {
                return .provisional(try construct())
            } catch {
                throw context.failure(error, in: component)
            }
        case .create:
            // Entered once for the whole creation: a top-level one does not end its resolve
            // (and drop its `.graph` instances) between constructing and finishing.
            do {
                try context.enter(component)
            } catch {
                abandon()
                throw error
            }
            let box: AnyObject
            do {
                box = try construct()
            } catch {
                let failure = context.failure(error, in: component)
                context.leave()
                context.abandonDeferred(waitingFor: component)
                abandon()
                throw failure
            }
            let finished: Bool
            do {
                finished = try finishOrPutOff(box)
            } catch {
                context.leave()
                abandon()
                throw error
            }
            context.leave()
            guard finished else { return .provisional(box) }
            try publish(box)
            return .created(box)
        }
    }

    /// An awaited resolve's creation (entered in the path by the caller): `construct` may
    /// await; a creation another resolve has begun is waited for by suspending.
    nonisolated(nonsending)
        func makeAwaiting(_ construct: () async throws -> AnyObject)
        async throws(FrostError) -> Made
    {
        while true {
            let epoch = AwaitedResolve.epoch
            guard let begun = try beginAwaiting() else {
                await AwaitedResolve.wait(for: cell.address, since: epoch)
                context.stopWaiting()
                continue
            }
            switch begun {
            case .ready(let box):
                return .made(Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue())
            case .provisional(let box):
                return .provisional(box)
            case .through:
                do {
                    return .provisional(try await construct())
                } catch {
                    throw context.failure(error, in: component)
                }
            case .create:
                let box: AnyObject
                do {
                    box = try await AwaitedResolve.running(component, in: context, construct)
                } catch {
                    context.abandonDeferred(waitingFor: component)
                    abandon()
                    throw context.failure(error, in: component)
                }
                let finished: Bool
                do {
                    finished = try context.onThread { () throws(FrostError) -> Bool in
                        try finishOrPutOff(box)
                    }
                } catch {
                    abandon()
                    throw error
                }
                guard finished else { return .provisional(box) }
                try publish(box)
                return .created(box)
            }
        }
    }

    /// What ``make(_:)`` and ``makeAwaiting(_:)`` give back: a protected read of the cell, or
    /// a box held (a struct, not an enum: giving it up is one release, nothing to switch on).
    struct Made {
        /// The cell's box, read protected: copy its value out before reading another cell.
        private let read: UnsafeMutableRawPointer?
        /// The box, retained, when it was not read from the cell.
        private let object: AnyObject?

        /// A protected read of the cell's box.
        static func read(_ box: UnsafeMutableRawPointer) -> Made {
            Made(read: box, object: nil)
        }

        /// The box another resolve made (an awaited resolve's read, retained).
        static func made(_ box: AnyObject) -> Made { Made(read: nil, object: box) }

        /// The box this resolve is finishing (a re-entry), or made through a forward.
        static func provisional(_ box: AnyObject) -> Made { Made(read: nil, object: box) }

        /// The box this resolve created and published.
        static func created(_ box: AnyObject) -> Made { Made(read: nil, object: box) }

        /// The value in the box, as a `T`.
        func value<T>(as type: T.Type) -> T {
            if let object { return _kept(object, as: T.self) }
            return _readBox(read.unsafelyUnwrapped, as: T.self)
        }

        /// The box, retained (read before any other cell is).
        var box: AnyObject {
            object ?? Unmanaged<AnyObject>.fromOpaque(read.unsafelyUnwrapped).takeUnretainedValue()
        }
    }
}
