import Foundation
import Frost
import Testing

// Types the suites register. Kept small and named for what they stand for in an application.

protocol Logger: AnyObject, Sendable {
    func log(_ message: String)
}

protocol Sink: AnyObject, Sendable {}

final class ConsoleLogger: Logger, Sink, @unchecked Sendable {
    func log(_ message: String) {}
}

final class FileLogger: Logger, Sink, @unchecked Sendable {
    func log(_ message: String) {}
}

struct AppConfig: Equatable, Sendable {
    var port: Int
}

protocol Database: AnyObject, Sendable {
    var label: String { get }
}

final class Replica: Database, @unchecked Sendable {
    let label: String
    init(_ config: AppConfig) { label = "replica:\(config.port)" }
}

final class Primary: Database, @unchecked Sendable {
    let label = "primary"
}

final class UserService: @unchecked Sendable {
    let logger: any Logger
    let db: any Database
    init(logger: any Logger, db: any Database) {
        self.logger = logger
        self.db = db
    }
}

final class Unregistered {}

// Cycle members: A needs B, B needs C, C needs A.
final class CycleA: Sendable { init(_ b: CycleB) {} }
final class CycleB: Sendable { init(_ c: CycleC) {} }
final class CycleC: Sendable { init(_ a: CycleA) {} }

struct FactoryFailure: Error, Equatable {
    let reason: String
}

/// A thread-safe counter the sanitizer can check (NSLock: Synchronization.Mutex is invisible
/// to ThreadSanitizer on Linux).
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A value many threads read and change, under an NSLock (which the sanitizer can check,
/// unlike Synchronization.Mutex on Linux).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// The two ways to resolve: through the dictionary of a `Container`, or frozen.
enum Mode: String, CaseIterable, CustomTestStringConvertible {
    case dictionary
    case frozen

    var testDescription: String { rawValue }

    /// The resolver for a container in this mode.
    func resolver(_ container: Container) throws -> any Resolver {
        switch self {
        case .dictionary: container
        case .frozen: try container.freeze()
        }
    }
}

/// Catches a `FrostError` from `body`, which must throw one.
func frostError(_ body: () throws -> Void) -> FrostError? {
    do {
        try body()
        return nil
    } catch let error as FrostError {
        return error
    } catch {
        return nil
    }
}

/// A synchronous resolve, from async code (where Swift picks the awaited one).
func resolveSynchronously<T>(_ type: T.Type, name: String? = nil, from resolver: any Resolver)
    throws(FrostError) -> T
{
    try resolver.resolve(T.self, name: name)
}

/// The frozen container, for factories registered before it existed; weak, or the container
/// would keep itself alive through its own factory.
final class WeakFrozen: @unchecked Sendable {
    // @unchecked: set once, before any factory reads it.
    weak var value: FrozenContainer?
}

/// A container of either kind, with what the child tests need: its resolver, its children and
/// its disposal (`Container` and `FrozenContainer` share only `Resolver`).
struct FamilyContainer {
    /// What resolves through this container: the container itself.
    let resolver: any Resolver
    private let makeChild: (@escaping (Container) -> Void) throws -> FamilyContainer
    private let disposal: () -> Void

    /// A container of the dictionary kind: `container` and its `container.child { }` children.
    static func dictionary(_ container: Container) -> FamilyContainer {
        FamilyContainer(
            resolver: container,
            makeChild: { configure in .dictionary(container.child { c in configure(c) }) },
            disposal: { container.dispose() }
        )
    }

    /// A frozen container and its `frozen.child { }` children.
    static func frozen(_ frozen: FrozenContainer) -> FamilyContainer {
        FamilyContainer(
            resolver: frozen,
            makeChild: { configure in .frozen(try frozen.child { c in configure(c) }) },
            disposal: { frozen.dispose() }
        )
    }

    /// A child of this container, of the same kind, with the registrations `configure` makes.
    func child(_ configure: @escaping (Container) -> Void = { _ in }) throws -> FamilyContainer {
        try makeChild(configure)
    }

    /// Calls this container's `dispose()`.
    func dispose() {
        disposal()
    }
}

extension Mode {
    /// The root of a family of containers in this mode: `container` itself, or its frozen form.
    func family(_ container: Container) throws -> FamilyContainer {
        switch self {
        case .dictionary: .dictionary(container)
        case .frozen: .frozen(try container.freeze())
        }
    }
}

/// A small seeded generator (splitmix64): reproducible key sets.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What an async factory makes (a pool it connects asynchronously).
final class AsyncPool: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// Made from an `AsyncPool`, by an async factory or a synchronous initializer.
final class AsyncRepository: Sendable {
    let pool: AsyncPool
    init(pool: AsyncPool) { self.pool = pool }
}
