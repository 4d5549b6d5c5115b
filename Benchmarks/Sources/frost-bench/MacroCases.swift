import Frost
import FrostMacros

// The `@Injectable` cases: the complex graph made of `@Injectable` types, registered with
// `autowire(T.self)`, against the same graph autowired by initializer ("complex"); and a
// property filled by the macro's members injector against hand-written code. The types are
// copies of the "complex" ones (same fields, same `consuming` initializers), marked.

@Injectable
final class MacroRepository: Sendable {
    let config: Config
    init(config: consuming Config) { self.config = config }
}

@Injectable
final class MacroCache: Sendable {
    let entries = 0
    init() {}
}

@Injectable
final class MacroMetrics: Sendable {
    let count = 0
    init() {}
}

@Injectable
final class MacroComplex: Sendable {
    let logger: any Logger
    let config: Config
    let clock: Clock
    let repository: MacroRepository
    let cache: MacroCache
    let metrics: MacroMetrics
    init(
        logger: consuming any Logger,
        config: consuming Config,
        clock: consuming Clock,
        repository: consuming MacroRepository,
        cache: consuming MacroCache,
        metrics: consuming MacroMetrics
    ) {
        self.logger = logger
        self.config = config
        self.clock = clock
        self.repository = repository
        self.cache = cache
        self.metrics = metrics
    }
}

/// A transient whose `@Injected` delegate the members injector sets after its initializer.
@Injectable
final class MacroScreen {
    @Injected var delegate: any Logger
    init() {}
}

/// Registers the `@Injectable` types (the singletons they need are `registerGraph`'s).
func registerMacroGraph(in container: Frost.Container) {
    container.autowire(MacroRepository.self)
    container.autowire(MacroCache.self)
    container.autowire(MacroMetrics.self)
    container.autowire(MacroComplex.self)
    container.autowire(MacroScreen.self)
}

extension HandWritten {
    /// `MacroScreen` made and filled by hand: the wrapper's setter, as the injector does.
    @inline(never)
    func macroProperty() -> MacroScreen {
        let screen = MacroScreen()
        screen.delegate = logger
        return screen
    }
}

extension Cases {
    /// "complex-macro" and "property-macro", each measured interleaved with the case it is
    /// compared with ("complex" autowired by initializer, "property").
    func macroCases() -> [BenchCase] {
        let hand = hand
        let frozen = frozen
        let dictionary = dictionary
        return [
            BenchCase(
                name: "complex-macro",
                unit: "the complex graph of @Injectable types, autowire(T.self)",
                iterations: 50_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.complex()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n { blackHole(try! frozen.resolve(MacroComplex.self)) }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n { blackHole(try! dictionary.resolve(MacroComplex.self)) }
                    },
                ]
            ),
            BenchCase(
                name: "property-macro",
                unit: "transient with an @Injected property set by the members injector",
                iterations: 100_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.macroProperty()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n { blackHole(try! frozen.resolve(MacroScreen.self)) }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n { blackHole(try! dictionary.resolve(MacroScreen.self)) }
                    },
                ]
            ),
        ]
    }
}
