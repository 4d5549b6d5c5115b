/// The cells a container owns besides its lookup's slots: for a child, one cell per per-child
/// key of its chain (the values it supplies for provided keys, its `.scoped` instances), in
/// one block; and two cells per override (its instance's, and its `.weak` instance's), in
/// another.
///
/// The container owns them: it frees them in `deinit`, and only there, releasing what the
/// cells hold. (A child configured with values gets its per-child cells from the `Container`
/// that filled them.)
struct SpaceCells: @unchecked Sendable {
    // @unchecked: addresses; every operation on the cells is one of CFrost's atomic protocols.
    /// The per-child cells, if any.
    private let perChildFirst: Cell?
    /// How many per-child cells there are.
    let perChildCount: Int
    /// The override cells, if any.
    private let overrideFirst: Cell?
    /// How many overrides have cells.
    let overrideCount: Int

    /// `perChildCount` empty per-child cells; none for overrides.
    init(perChildCount: Int) {
        self.init(perChildCount: perChildCount, overrideCount: 0)
    }

    private init(perChildCount: Int, overrideCount: Int) {
        self.perChildCount = perChildCount
        perChildFirst = perChildCount > 0 ? Cell.allocateArray(count: perChildCount) : nil
        self.overrideCount = overrideCount
        overrideFirst = overrideCount > 0 ? Cell.allocateArray(count: 2 * overrideCount) : nil
    }

    private init(perChildFirst: Cell?, perChildCount: Int, overrideCount: Int) {
        self.perChildFirst = perChildFirst
        self.perChildCount = perChildCount
        self.overrideCount = overrideCount
        overrideFirst = overrideCount > 0 ? Cell.allocateArray(count: 2 * overrideCount) : nil
    }

    /// These per-child cells (grown to `perChildCount` when fewer) with the cells of
    /// `overrides` overrides added. This value must not be used afterwards: the result owns
    /// the cells.
    func completed(perChildCount count: Int, overrides: Int) -> SpaceCells {
        precondition(overrideFirst == nil, "overrides are added once")
        guard count > perChildCount else {
            return SpaceCells(
                perChildFirst: perChildFirst, perChildCount: perChildCount,
                overrideCount: overrides)
        }
        let grown = SpaceCells(perChildCount: count, overrideCount: overrides)
        for index in filledIndices {
            let box = Unmanaged<AnyObject>.fromOpaque(perChild(index).take()!)
            grown.perChild(index).preset(box.takeRetainedValue())
        }
        perChildFirst?.deallocateArray(count: perChildCount)
        return grown
    }

    /// New cells holding the same per-child values (retained again): for a second container
    /// made from the same values.
    func copy() -> SpaceCells {
        let copy = SpaceCells(perChildCount: perChildCount)
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

    /// `perChildCount` per-child cells in `block`, an empty block of as many (one that
    /// ``deallocate(keepingBlock:)`` kept); none for overrides.
    init(perChildCount: Int, reusing block: Cell) {
        self.init(perChildFirst: block, perChildCount: perChildCount, overrideCount: 0)
    }

    /// Frees every cell, releasing what it holds. Called once, by the owner.
    func deallocate() {
        perChildFirst?.deallocateArray(count: perChildCount)
        overrideFirst?.deallocateArray(count: 2 * overrideCount)
    }

    /// ``deallocate()``, but the block of per-child cells, emptied, is offered to `keep`
    /// first (freed when it returns `false`).
    func deallocate(keepingBlock keep: (Cell) -> Bool) {
        guard let perChildFirst, overrideFirst == nil else { return deallocate() }
        perChildFirst.emptyArray(count: perChildCount)
        if !keep(perChildFirst) { perChildFirst.deallocateArray(count: 0) }
    }

    /// The cell of the per-child key with this index.
    @inline(__always)
    func perChild(_ index: Int) -> Cell { perChildFirst.unsafelyUnwrapped.advanced(by: index) }

    /// The cells of the override with this index: its instance's, and its `.weak` instance's.
    @inline(__always)
    func override(_ index: Int) -> (cell: Cell, weakCell: Cell) {
        let first = overrideFirst.unsafelyUnwrapped.advanced(by: 2 * index)
        return (first, first.advanced(by: 1))
    }
}
