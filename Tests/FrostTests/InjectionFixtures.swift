import Frost

// The seeds' scenarios, as an application would write them.

/// MVIOCContainer's bootstrap: an application object, its window, its main controller.
final class Application: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

final class Window: Sendable {
    let application: Application
    init(application: Application) { self.application = application }
}

final class MainController: Sendable {
    let window: Window
    let logger: any Logger
    init(window: Window, logger: any Logger) {
        self.window = window
        self.logger = logger
    }
}

/// An initializer that declares its parameters `consuming`: autowiring passes them on owned.
final class OwningController: Sendable {
    let window: Window
    let logger: any Logger
    init(window: consuming Window, logger: consuming any Logger) {
        self.window = window
        self.logger = logger
    }
}

/// Reliant: an object the container did not create, with injected properties in a hierarchy.
class BaseScreen {
    @Injected var logger: any Logger
    init() {}
}

final class DetailScreen: BaseScreen {
    @Injected var service: UserService
    @Injected(name: "replica") var db: any Database
    @LazyInjected var config: AppConfig
    var delegate: (any Logger)?
    var backup: (any Database)?
}

final class PlainObject {}

/// BTKInjector: three protocols in a cycle.
protocol Engine: AnyObject, Sendable {}
protocol Gearbox: AnyObject, Sendable {}
protocol Wheel: AnyObject, Sendable {}

final class EngineImpl: Engine {
    let gearbox: any Gearbox
    init(gearbox: any Gearbox) { self.gearbox = gearbox }
}

final class GearboxImpl: Gearbox {
    let wheel: any Wheel
    init(wheel: any Wheel) { self.wheel = wheel }
}

final class WheelImpl: Wheel {
    let engine: any Engine
    init(engine: any Engine) { self.engine = engine }
}

/// The same cycle, broken by a provider.
final class ProvidedWheel: Wheel {
    let engine: Provider<any Engine>
    init(engine: Provider<any Engine>) { self.engine = engine }
}

struct Greeting: Equatable, Sendable {
    let text: String
    init(to name: String) { text = "Hello, \(name)" }
}

struct Route: Equatable, Sendable {
    let path: String
    let port: Int
}

protocol Plugin: Sendable {
    var id: String { get }
}

struct NamedPlugin: Plugin {
    let id: String
}

final class Session: Sendable {}
