#if Hummingbird
    import Foundation
    import Frost
    import Hummingbird

    /// Disposes the child container of a request whose body streams, once: whichever comes
    /// first of the end of the body's write and a failure of it, or — when neither comes,
    /// because the response was dropped unwritten — the moment nothing refers to this any
    /// more.
    ///
    /// `@unchecked Sendable`: `isClaimed` is only touched under `lock` (NSLock: visible to the
    /// thread sanitizer), and by `deinit`, which no other reference can race.
    @available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
    final class ChildDisposal: @unchecked Sendable {
        /// The request's child.
        let child: FrozenContainer
        private let lock = NSLock()
        private var isClaimed = false

        init(_ child: FrozenContainer) {
            self.child = child
        }

        /// Disposes the child, awaiting its hooks, unless an earlier call did.
        func dispose() async {
            guard claim() else { return }
            await child.dispose()
        }

        /// Whether this caller is the first to ask.
        private func claim() -> Bool {
            lock.withLock {
                defer { isClaimed = true }
                return !isClaimed
            }
        }

        deinit {
            // The response was dropped without its body being written: nothing can use the
            // request's objects any more, and no one would dispose of them.
            if !isClaimed {
                Task { [child] in await child.dispose() }
            }
        }
    }
#endif
