import Synchronization

/// An object a container makes on first use and keeps until it goes (its retired instances,
/// its log of singletons): installed lock-free — when two threads make one at once, the first
/// in wins and the other's is dropped — and read by address afterwards.
struct LazyObject<Object: AnyObject>: ~Copyable {
    private let pointer = Atomic<UnsafeMutableRawPointer?>(nil)

    /// The object, made by `make` on first use.
    func get(_ make: () -> Object) -> Object {
        if let object = ifMade { return object }
        let made = Unmanaged.passRetained(make())
        let (installed, original) = pointer.compareExchange(
            expected: nil, desired: made.toOpaque(), ordering: .sequentiallyConsistent)
        if installed { return made.takeUnretainedValue() }
        made.release()
        return Unmanaged<Object>.fromOpaque(original!).takeUnretainedValue()
    }

    /// The object, if it was made.
    var ifMade: Object? {
        pointer.load(ordering: .sequentiallyConsistent).map {
            Unmanaged<Object>.fromOpaque($0).takeUnretainedValue()
        }
    }

    deinit {
        if let object = pointer.load(ordering: .relaxed) {
            Unmanaged<Object>.fromOpaque(object).release()
        }
    }
}
