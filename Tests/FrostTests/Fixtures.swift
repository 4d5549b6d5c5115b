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
