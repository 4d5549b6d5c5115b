/// The cells a frozen container owns besides its table's, in one block: a marker set by
/// `dispose()`, helpers made on first use (and installed lock-free, the first one in wins),
/// and, for a child container, one cell per per-child key of its parent chain (its provided
/// values and `.scoped` instances) and the cells of its overrides.
///
/// The container owns the block: it frees it in `deinit`, and only there, releasing what the
/// cells hold.
struct ContainerCells: @unchecked Sendable {
    // @unchecked: an address; every operation on the cells is one of CFrost's atomic protocols.
    private let first: Cell
    /// How many per-child cells come after the fixed ones.
    let perChildCount: Int
    /// How many override cells come after the per-child ones (two per override: its instance,
    /// and its `.weak` instance).
    let overrideCount: Int

    private static let fixed = 3
    private static let disposedIndex = 0
    private static let retiredIndex = 1
    private static let disposalIndex = 2

    init(perChildCount: Int, overrideCount: Int) {
        self.perChildCount = perChildCount
        self.overrideCount = overrideCount
        first = Cell.allocateArray(count: Self.fixed + perChildCount + 2 * overrideCount)
    }

    /// Frees every cell, releasing what it holds. Called once, by the owning container.
    func deallocate() {
        first.deallocateArray(count: Self.fixed + perChildCount + 2 * overrideCount)
    }

    private func cell(_ index: Int) -> Cell { first.advanced(by: index) }

    /// The cell of the per-child key with this index.
    func perChild(_ index: Int) -> Cell { cell(Self.fixed + index) }

    /// The cells of the override with this index: its instance's, and its `.weak` instance's.
    func override(_ index: Int) -> (cell: Cell, weakCell: Cell) {
        let first = Self.fixed + perChildCount + 2 * index
        return (cell(first), cell(first + 1))
    }

    // MARK: The disposed marker

    /// Whether `dispose()` ran.
    var isDisposed: Bool { cell(Self.disposedIndex).peek() != nil }

    /// Marks the container disposed; `false` when it already was.
    func markDisposed() -> Bool {
        cell(Self.disposedIndex).install(DisposedMarker.shared)
    }

    // MARK: Helpers made on first use

    /// The container's retired instances.
    var retired: RetiredInstances { cell(Self.retiredIndex).installed(RetiredInstances.init) }

    /// The container's retired instances, if any were ever retired.
    var retiredIfAny: RetiredInstances? {
        cell(Self.retiredIndex).peek().map {
            Unmanaged<RetiredInstances>.fromOpaque($0).takeUnretainedValue()
        }
    }

    /// The container's instances with `.onDispose` hooks.
    var disposal: Disposal { cell(Self.disposalIndex).installed(Disposal.init) }
}

/// What a disposed container's marker cell holds.
final class DisposedMarker: Sendable {
    static let shared = DisposedMarker()
}

extension Cell {
    /// Stores `object` if the cell is empty (lock-free); `false`, storing nothing, when
    /// another object was there first.
    @discardableResult
    func install(_ object: AnyObject) -> Bool {
        guard peek() == nil else { return false }
        return preset(object)
    }

    /// The object this cell holds, made by `make` and installed on first use (lock-free: when
    /// two threads make one at once, the first in wins and the other's is dropped). The cell
    /// keeps it until it is freed: read by address, no hazard needed.
    func installed<Object: AnyObject>(_ make: () -> Object) -> Object {
        if let object = peek() { return Unmanaged<Object>.fromOpaque(object).takeUnretainedValue() }
        install(make())
        return Unmanaged<Object>.fromOpaque(peek()!).takeUnretainedValue()
    }
}
