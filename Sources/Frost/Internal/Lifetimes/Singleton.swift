import Foundation

/// `.singleton`: one instance per container, made on the first resolve (or by `bootstrap()`)
/// in the container the registration belongs to, from its registrations only, and kept in the
/// registration's slot, where lookups read it. Its factory runs once, however many threads ask
/// at once; only resolves of the same singleton wait for its creation. Its `.onDispose` hooks
/// run at its container's `dispose()`; `releaseCachedInstances()` drops it. A registered
/// instance (`register(instance:)`) is kept the same way, preset.
///
/// The container logs its singletons in the order they were made (``SingletonLog``): what a
/// lifecycle integration starts in that order and stops in reverse.
enum Singleton: Lifetime {
    static var keeping: Keeping { .slot }
    static var madeWhereRegistered: Bool { true }
    static var tracksInstances: Bool { true }
    static var allowsAsyncFactory: Bool { true }
    static var rank: Int { 4 }
    static var isSharedWithinResolve: Bool { true }
    static var isEager: Bool { true }

    /// The scope of a registered instance: kept like a singleton's, preset.
    static var scope: Scope { .singleton }

    /// Its slot's cell.
    static func cell(of place: Place, seenFrom space: _Space) -> (cell: Cell?, holder: _Space?) {
        (place.cell, nil)
    }

    static func instance<T>(of target: Target, as type: T.Type, in context: ResolveContext)
        throws(FrostError) -> T
    {
        try made(target, in: context).value(as: T.self)
    }

    /// Reads or makes the singleton.
    private static func made(_ target: Target, in context: ResolveContext) throws(FrostError)
        -> Creation.Made
    {
        let owner = target.owner
        return try creation(target, in: context).make {
            try target.component.constructBox(in: owner.frame(in: context))
        }
    }

    nonisolated(nonsending)
        static func instanceAwaiting(of target: Target, in context: ResolveContext)
        async throws(FrostError) -> AnyObject
    {
        let component = target.component
        let owner = target.owner
        // Entered before any wait: a resolve that meets its own creation again is a cycle,
        // found in the path, not a wait for itself.
        try context.enter(component)
        defer { context.leave() }
        return try await creation(target, in: context).makeAwaiting {
            try await component.constructBoxAwaiting(owner.resolver)
        }.box
    }

    static func madeInstance(of target: Target) -> UnsafeMutableRawPointer? {
        target.cell?.read()
    }

    static func prepare(_ target: Target, in context: ResolveContext) throws(FrostError) {
        guard !target.component.isAsync else {
            guard target.cell?.peek() != nil else {
                throw Engine.asyncRequired(
                    target.component, context,
                    bootstrapMakesIt: target.component.isMadeAtBootstrap)
            }
            return
        }
        _ = try made(target, in: context)
    }

    nonisolated(nonsending)
        static func prepareAwaiting(_ target: Target, in context: ResolveContext)
        async throws(FrostError)
    {
        _ = try await instanceAwaiting(of: target, in: context)
    }

    /// The creation in the singleton's cell; each singleton it publishes goes in its
    /// container's log.
    private static func creation(_ target: Target, in context: ResolveContext) -> Creation {
        let owner = target.owner
        let component = target.component
        return Creation(
            cell: target.cell.unsafelyUnwrapped, component: component, maker: owner,
            context: context, logsSingleton: true)
    }
}

/// The singletons a frozen container made, in the order their creation completed (a singleton
/// after those it resolved): what a lifecycle integration starts in that order and stops in
/// reverse (``FrozenContainer/createdSingletons(of:)``).
///
/// It lists the singletons the container has now: an entry names the cell its singleton was
/// published in and the box published, and counts only while that cell still holds that box.
/// A singleton released by `releaseCachedInstances()` or `dispose()` is not listed, whoever
/// still holds it (the application, a `Lazy`, a handle), and nothing here keeps one alive or
/// forms a weak reference to it. The entries of released singletons are dropped as the log
/// grows: a container released and bootstrapped again and again keeps a log of about the size
/// of what it has.
///
/// `@unchecked Sendable`: `entries` is only touched under `lock` (NSLock: visible to the
/// thread sanitizer); singletons are made rarely. No instance is read or released under the
/// lock.
final class SingletonLog: @unchecked Sendable {
    private struct Entry {
        let component: Component
        /// Where the singleton was published (its container keeps the cell, as it keeps this
        /// log).
        let cell: Cell
        /// The box published: compared with what the cell holds, never read through.
        let box: UnsafeMutableRawPointer
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    /// How many entries may be kept before those of released singletons are dropped.
    private var pruneAt = 64

    /// Records a singleton whose creation just completed: `box`, published in `cell`.
    func record(_ component: Component, _ box: AnyObject, in cell: Cell) {
        let entry = Entry(
            component: component, cell: cell, box: Unmanaged.passUnretained(box).toOpaque())
        lock.withLock {
            if entries.count >= pruneAt {
                entries.removeAll { $0.cell.peek() != $0.box }
                pruneAt = max(64, 2 * entries.count)
            }
            entries.append(entry)
        }
    }

    /// The values of the singletons the container has now, oldest first.
    var values: [Any] {
        let entries = lock.withLock { self.entries }
        // A cell's newest entry only: a box freed and another published at the same address
        // must not list the new singleton at the old one's place.
        var newest: [UnsafeMutableRawPointer: Int] = [:]
        for (index, entry) in entries.enumerated() { newest[entry.cell.address] = index }
        var values: [Any] = []
        for (index, entry) in entries.enumerated() where newest[entry.cell.address] == index {
            // A protected read: the box stays alive until the value is copied out of it.
            guard let box = entry.cell.read(), box == entry.box else { continue }
            values.append(
                entry.component.value(
                    ofBox: Unmanaged<AnyObject>.fromOpaque(box).takeUnretainedValue()))
        }
        return values
    }
}
