/// The cells a frozen container owns besides its table's: a marker set by `dispose()`, the
/// retired instances and the log of its singletons (each made on first use, installed
/// lock-free: the first one in wins), the head of its ``Disposal`` list and, for a child container, one cell per per-child key of its
/// parent chain (its provided values and `.scoped` instances), in one block; the cells of its
/// overrides in another.
///
/// The container owns them: it frees them in `deinit`, and only there, releasing what the
/// cells hold. (A child configured with values gets its cells from the `Container` that
/// filled them.)
struct ContainerCells: @unchecked Sendable {
    // @unchecked: addresses; every operation on the cells is one of CFrost's atomic protocols.
    /// The fixed cells, then the per-child ones.
    private let first: Cell
    /// How many per-child cells come after the fixed ones.
    let perChildCount: Int
    /// The override cells (two per override: its instance, and its `.weak` instance), if any.
    private let overrideFirst: Cell?
    /// How many overrides have cells.
    let overrideCount: Int

    private static let fixed = 4
    private static let disposedIndex = 0
    private static let retiredIndex = 1
    private static let disposalIndex = 2
    private static let singletonLogIndex = 3

    /// Empty cells: the fixed ones and `perChildCount` per-child ones; none for overrides.
    init(perChildCount: Int) {
        self.perChildCount = perChildCount
        first = Cell.allocateArray(count: Self.fixed + perChildCount)
        overrideFirst = nil
        overrideCount = 0
    }

    private init(first: Cell, perChildCount: Int, overrideCount: Int) {
        self.first = first
        self.perChildCount = perChildCount
        self.overrideFirst = Cell.allocateArray(count: 2 * overrideCount)
        self.overrideCount = overrideCount
    }

    /// These cells, with the cells of `count` overrides added (this value must not be used
    /// afterwards: the result owns the cells).
    func addingOverrides(_ count: Int) -> ContainerCells {
        guard count > 0 else { return self }
        precondition(overrideFirst == nil, "overrides are added once")
        return ContainerCells(first: first, perChildCount: perChildCount, overrideCount: count)
    }

    /// New cells with `perChildCount` per-child cells, holding these per-child values; these
    /// are freed (this value must not be used afterwards). Before the cells are shared.
    func resized(perChildCount count: Int) -> ContainerCells {
        let resized = ContainerCells(perChildCount: count)
        for index in filledIndices {
            let box = Unmanaged<AnyObject>.fromOpaque(perChild(index).take()!)
            resized.perChild(index).preset(box.takeRetainedValue())
        }
        deallocate()
        return resized
    }

    /// New cells holding the same per-child values (retained again): for a second container
    /// made from the same values.
    func copy() -> ContainerCells {
        let copy = ContainerCells(perChildCount: perChildCount)
        for index in filledIndices {
            copy.perChild(index).preset(
                Unmanaged<AnyObject>.fromOpaque(perChild(index).peek()!).takeUnretainedValue())
        }
        return copy
    }

    /// The per-child cells that hold something.
    var filledIndices: [Int] {
        (0..<perChildCount).filter { perChild($0).peek() != nil }
    }

    /// Frees every cell, releasing what it holds. Called once, by the owner.
    func deallocate() {
        disposal.releaseRecords()
        first.deallocateArray(count: Self.fixed + perChildCount)
        overrideFirst?.deallocateArray(count: 2 * overrideCount)
    }

    private func cell(_ index: Int) -> Cell { first.advanced(by: index) }

    /// The cell of the per-child key with this index.
    func perChild(_ index: Int) -> Cell { cell(Self.fixed + index) }

    /// The cells of the override with this index: its instance's, and its `.weak` instance's.
    func override(_ index: Int) -> (cell: Cell, weakCell: Cell) {
        let first = overrideFirst.unsafelyUnwrapped.advanced(by: 2 * index)
        return (first, first.advanced(by: 1))
    }

    // MARK: The disposed marker

    /// Whether `dispose()` ran.
    var isDisposed: Bool { cell(Self.disposedIndex).peek() != nil }

    /// Marks the container disposed; `false` when it already was.
    func markDisposed() -> Bool {
        cell(Self.disposedIndex).install(DisposedMarker.shared)
    }

    // MARK: Helpers

    /// The container's retired instances (made on first use).
    var retired: RetiredInstances { cell(Self.retiredIndex).installed(RetiredInstances.init) }

    /// The container's retired instances, if any were ever retired.
    var retiredIfAny: RetiredInstances? {
        cell(Self.retiredIndex).peek().map {
            Unmanaged<RetiredInstances>.fromOpaque($0).takeUnretainedValue()
        }
    }

    /// The container's instances with `.onDispose` hooks.
    var disposal: Disposal { Disposal(head: cell(Self.disposalIndex)) }

    /// The container's singletons, in the order they were made (made on first use).
    var singletonLog: SingletonLog { cell(Self.singletonLogIndex).installed(SingletonLog.init) }

    /// The container's singletons, if it made any.
    var singletonLogIfAny: SingletonLog? {
        cell(Self.singletonLogIndex).peek().map {
            Unmanaged<SingletonLog>.fromOpaque($0).takeUnretainedValue()
        }
    }
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
