import Frost
import Testing

/// Smaller defects of the engine and its diagnostics: forwards with runtime arguments, name
/// and type identity in the frozen table, near misses, property injection through a
/// protocol or a superclass, `inject(into:)` from a factory, and the DOT output.
@Suite("Smaller engine defects")
struct EngineDefectTests {
    // MARK: Forwards of registrations with runtime arguments

    /// A `.implements` forward of a registration that takes a runtime argument
    /// takes the same argument.
    @Test(arguments: Mode.allCases)
    func anImplementsForwardTakesTheRuntimeArgumentsOfItsRegistration(mode: Mode) throws {
        let container = Container()
        container.register(Greeting.self) { _, name in Greeting(to: name) }
            .implements((any Salutation).self)
        let resolver = try mode.resolver(container)

        let salutation = try resolver.resolve((any Salutation).self, argument: "Ann")
        #expect(salutation.text == "Hello, Ann")
    }

    /// An alias of a registration that takes a runtime argument takes the same argument.
    @Test(arguments: Mode.allCases)
    func anAliasTakesTheRuntimeArgumentsOfItsRegistration(mode: Mode) throws {
        let container = Container()
        container.register(Greeting.self) { _, name in Greeting(to: name) }.alias("other")
        let resolver = try mode.resolver(container)

        #expect(
            try resolver.resolve(Greeting.self, name: "other", argument: "Ann")
                == Greeting(to: "Ann"))
    }

    // MARK: Identity of names and types in the frozen table

    /// Names that are equal as Swift strings (NFC "café" and NFD "café") find the same
    /// registration in both containers.
    @Test(arguments: Mode.allCases)
    func namesEqualAsStringsFindTheSameRegistration(mode: Mode) throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        try #require(composed == decomposed)
        let container = Container()
        container.register(instance: AppConfig(port: 1), name: composed)
        container.register(Database.self, name: decomposed) { _ in Primary() }
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(AppConfig.self, name: decomposed).port == 1)
        #expect(try resolver.resolve(Database.self, name: composed).label == "primary")
    }

    typealias PlainParameter = (() -> Int) -> Int
    typealias EscapingParameter = (@escaping () -> Int) -> Int

    /// Two function types that print alike (one with an `@escaping` parameter) are two keys:
    /// both register, freeze, and resolve to their own instance.
    @Test(arguments: Mode.allCases)
    func functionTypesThatPrintAlikeAreDifferentRegistrations(mode: Mode) throws {
        try #require(PlainParameter.self != EscapingParameter.self)
        try #require(
            String(reflecting: PlainParameter.self) == String(reflecting: EscapingParameter.self))
        let plain: PlainParameter = { body in body() }
        let escaping: EscapingParameter = { body in body() + 1 }
        let container = Container()
        container.register(instance: plain)
        container.register(instance: escaping)
        let resolver = try mode.resolver(container)

        #expect(try resolver.resolve(PlainParameter.self)({ 1 }) == 1)
        #expect(try resolver.resolve(EscapingParameter.self)({ 1 }) == 2)
    }

    // MARK: Near misses

    /// A protocol whose name contains a registered type's name (`Printer` contains `Int`) is
    /// not suggested that type; a protocol with a registered conformer still gets it.
    @Test(arguments: Mode.allCases)
    func nearMissesDoNotMatchASubstringOfAnotherName(mode: Mode) throws {
        let container = Container()
        container.register(instance: 1)
        container.register(instance: "text")
        container.register(ConsoleLogger.self) { _ in ConsoleLogger() }
        let resolver = try mode.resolver(container)

        let printer = try #require(frostError { _ = try resolver.resolve((any Printer).self) })
        #expect(printer.code == .notRegistered)
        #expect(!printer.nearMisses.contains { $0.hasPrefix("Swift.Int") }, "\(printer.nearMisses)")
        let logger = try #require(frostError { _ = try resolver.resolve(Logger.self) })
        #expect(logger.nearMisses.contains { $0.hasPrefix("FrostTests.ConsoleLogger") })
    }

    /// A miss on `[String: Int]` suggests neither `String` nor `Int`, whose names it contains.
    @Test(arguments: Mode.allCases)
    func aMissOnADictionaryTypeSuggestsNeitherItsKeyNorItsValueType(mode: Mode) throws {
        let container = Container()
        container.register(instance: 1)
        container.register(instance: "text")
        let resolver = try mode.resolver(container)

        let error = try #require(frostError { _ = try resolver.resolve([String: Int].self) })
        #expect(error.code == .notRegistered)
        #expect(!error.nearMisses.contains { $0.hasPrefix("Swift.String") }, "\(error.nearMisses)")
        #expect(!error.nearMisses.contains { $0.hasPrefix("Swift.Int") }, "\(error.nearMisses)")
    }

    /// Among 1,000,000 names of one type, a miss one letter away from a name ("itm-123456")
    /// lists that name ("item-123456") in its message.
    @Test(arguments: Mode.allCases)
    func aMissAmongAMillionNamesListsTheCloseName(mode: Mode) throws {
        let container = Container()
        for index in 0..<1_000_000 {
            container.register(Session.self, name: "item-\(index)") { _ in Session() }
        }
        let resolver = try mode.resolver(container)

        let error = try #require(
            frostError { _ = try resolver.resolve(Session.self, name: "itm-123456") })
        #expect(error.code == .notRegistered)
        let message = error.description  // near misses are computed when it is read
        #expect(message.contains(#"name "item-123456""#), "\(message)")
    }

    // MARK: Property injection

    /// The `@Injected` properties of an instance are filled when its class is
    /// registered under a protocol it conforms to.
    @Test(arguments: Mode.allCases)
    func injectedPropertiesAreFilledUnderAProtocol(mode: Mode) throws {
        let container = Container()
        container.register(Food.self) { _ in Food() }
        container.register((any HasFood).self) { _ in FedPlate() }
        let resolver = try mode.resolver(container)

        let plate = try #require(try resolver.resolve((any HasFood).self) as? FedPlate)
        #expect(plate.$food.isInjected)
    }

    /// The `@Injected` properties of an instance are filled when its class is registered under
    /// a superclass that has none.
    @Test(arguments: Mode.allCases)
    func injectedPropertiesAreFilledUnderASuperclass(mode: Mode) throws {
        let container = Container()
        container.register(Food.self) { _ in Food() }
        container.register(Plate.self) { _ in FedPlate() }
        let resolver = try mode.resolver(container)

        let plate = try #require(try resolver.resolve(Plate.self) as? FedPlate)
        #expect(plate.$food.isInjected)
    }

    /// `inject(into:)` on the resolver a factory receives gives `@LazyInjected` properties a
    /// container: reading one after the resolve returned works.
    @Test(arguments: Mode.allCases)
    func injectIntoFromAFactoryGivesLazyInjectedPropertiesAContainer(mode: Mode) throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.scope(.singleton)
        container.register(SheetOwner.self) { r in
            let sheet = Sheet()
            try r.inject(into: sheet)
            return SheetOwner(sheet: sheet)
        }
        let resolver = try mode.resolver(container)

        let owner = try resolver.resolve(SheetOwner.self)
        #expect(owner.sheet.$session.isInjected)
        let session = try resolver.resolve(Session.self)
        #expect(owner.sheet.session === session)  // the container is alive: `resolver` holds it
        withExtendedLifetime(resolver) {}
    }

    // MARK: Diagnostics
}

/// What a `.implements` forward of `Greeting` is resolved as.
protocol Salutation: Sendable {
    var text: String { get }
}

extension Greeting: Salutation {}

/// A protocol whose name contains `Int`; nothing conforms to it.
protocol Printer {}

final class Food: Sendable {}

protocol HasFood: AnyObject {}

/// A superclass without injected properties.
class Plate {
    init() {}
}

/// A subclass with one, registered under `HasFood` or `Plate`.
final class FedPlate: Plate, HasFood {
    @Injected var food: Food
}

/// An object a factory makes and injects itself.
final class Sheet {
    @LazyInjected var session: Session
    init() {}
}

/// What that factory returns.
struct SheetOwner {
    let sheet: Sheet
}
