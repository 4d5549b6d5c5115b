import Frost
import Testing

/// What code moving from Swinject writes: initializers with optional parameters, autowired;
/// `Lazy` and `Provider` of registrations that take runtime arguments.
@Suite("Swinject spellings")
struct SwinjectSpellingTests {
    final class Printer: Sendable {}

    final class Report: Sendable {
        let printer: Printer?
        init(printer: Printer?) { self.printer = printer }
    }

    final class Summary: Sendable {
        let logger: any Logger
        let printer: Printer?
        init(logger: any Logger, printer: Printer?) {
            self.logger = logger
            self.printer = printer
        }
    }

    /// `Report` and `Summary`, autowired with their optional `Printer` parameters.
    static func reports() -> Container {
        let container = Container()
        container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        container.autowire(Report.self, Report.init(printer:))
        container.autowire(Summary.self, Summary.init(logger:printer:))
        return container
    }

    // MARK: Optional parameters

    /// An autowired optional parameter of an unregistered type freezes and gets `nil`.
    @Test(arguments: Mode.allCases)
    func anOptionalParameterOfAnUnregisteredTypeIsNil(mode: Mode) throws {
        let resolver = try mode.resolver(Self.reports())  // frozen: freeze() reports nothing

        #expect(try resolver.resolve(Report.self).printer == nil)
        let summary = try resolver.resolve(Summary.self)
        #expect(summary.printer == nil)
        #expect(summary.logger === (try resolver.resolve(Logger.self)))
    }

    /// An autowired optional parameter of a registered type gets its instance.
    @Test(arguments: Mode.allCases)
    func anOptionalParameterOfARegisteredTypeGetsTheInstance(mode: Mode) throws {
        let container = Self.reports()
        let printer = Printer()
        container.register(instance: printer)
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(Report.self).printer === printer)
        #expect(try resolver.resolve(Summary.self).printer === printer)
    }

    // MARK: Lazy and Provider with runtime arguments

    /// A container whose `Greeting` and `Route` take runtime arguments, counting the greetings.
    static func greetings(_ made: Counter) -> Container {
        let container = Container()
        container.register(Greeting.self) { (_: any Resolver, name: String) in
            made.increment()
            return Greeting(to: name)
        }
        container.register(Route.self) { _, path, port in Route(path: path, port: port) }
        return container
    }

    /// A `Provider` takes runtime arguments per call, by `resolve(arguments:)` and `provider(_:)`.
    @Test(arguments: Mode.allCases)
    func aProviderPassesRuntimeArgumentsOnEachCall(mode: Mode) throws {
        let made = Counter()
        let resolver = try mode.resolver(Self.greetings(made))

        let greeting = try resolver.resolve(Provider<Greeting>.self)
        #expect(made.value == 0)
        #expect(try greeting.resolve(arguments: "Ann") == Greeting(to: "Ann"))
        #expect(greeting("Bob") == Greeting(to: "Bob"))
        #expect(made.value == 2)
        let route = try resolver.resolve(Provider<Route>.self)
        #expect(try route.resolve(arguments: "/", 80) == Route(path: "/", port: 80))
        #expect(route("/x", 81) == Route(path: "/x", port: 81))
        let wrong = frostError { _ = try greeting.resolve(arguments: 42) }
        #expect(wrong?.code == .argumentMismatch)
        withExtendedLifetime(resolver) {}
    }

    /// A `Provider` resolved with runtime arguments captures them: each call makes one anew.
    @Test(arguments: Mode.allCases)
    func aProviderResolvedWithArgumentsCapturesThem(mode: Mode) throws {
        let made = Counter()
        let resolver = try mode.resolver(Self.greetings(made))

        let greeting = try resolver.resolve(Provider<Greeting>.self, argument: "Ann")
        #expect(try greeting.resolve() == Greeting(to: "Ann"))
        #expect(greeting() == Greeting(to: "Ann"))
        #expect(made.value == 2)
        let route = try resolver.resolve(Provider<Route>.self, arguments: "/", 80)
        #expect(try route.resolve() == Route(path: "/", port: 80))
        withExtendedLifetime(resolver) {}
    }

    /// A `Lazy` resolved with runtime arguments resolves with them once, on first use.
    @Test(arguments: Mode.allCases)
    func aLazyResolvedWithArgumentsUsesThemOnceOnFirstUse(mode: Mode) throws {
        let made = Counter()
        let resolver = try mode.resolver(Self.greetings(made))

        let lazy = try resolver.resolve(Lazy<Greeting>.self, argument: "Ann")
        #expect(made.value == 0)
        #expect(try lazy.get() == Greeting(to: "Ann"))
        #expect(lazy.value == Greeting(to: "Ann"))
        #expect(made.value == 1)
        let route = try resolver.resolve(Lazy<Route>.self, arguments: "/", 80)
        #expect(try route.get() == Route(path: "/", port: 80))
        let wrong = frostError {
            _ = try resolver.resolve(Lazy<Greeting>.self, argument: 42).get()
        }
        #expect(wrong?.code == .argumentMismatch)
        withExtendedLifetime(resolver) {}
    }
}
