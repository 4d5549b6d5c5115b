import Frost

// Types that the code of "Migrating from Swinject and Dip"
// (Sources/Frost/Frost.docc/MigratingFromSwinject.md) uses: one per Dip scope, the layouts of
// a tag's fallback, and an avatar made from one runtime argument or another.

/// Dip's `.unique`: a new one for every resolve.
final class Draft: Sendable {}
/// Dip's `.shared`, its default: one per top-level resolve.
final class APIClient: Sendable {}
/// Dip's `.weakSingleton`: kept while someone else holds it.
final class ImageCache: Sendable {}
/// Dip's `.singleton`: made on first resolve.
final class Store: Sendable {}
/// Dip's `.eagerSingleton`: made by `bootstrap()`.
final class Tracker: Sendable {}

protocol Layout: Sendable {}
struct StandardLayout: Layout {}
struct CompactLayout: Layout {}

struct Avatar: Sendable {
    let source: String
    init(id: Int) { source = "id \(id)" }
    init(url: String) { source = url }
}
