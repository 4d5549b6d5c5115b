import Dispatch
import Frost
import Swinject

/// Registers the benchmark graph in a Frost container: singletons by closure, the transients
/// of the graphs autowired (so that freeze binds their parameters to slots), `Token` by
/// closure.
func registerGraph(in container: Frost.Container) {
    container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
    container.register(Config.self) { _ in Config() }.scope(.singleton)
    container.register(Clock.self) { _ in Clock() }.scope(.singleton)
    container.autowire(Repository.self, Repository.init(config:))
    container.autowire(Cache.self, Cache.init)
    container.autowire(Metrics.self, Metrics.init)
    container.register(Token.self) { _ in Token() }
    container.autowire(Combined.self, Combined.init(logger:config:))
    container.autowire(
        Complex.self,
        Complex.init(logger:config:clock:repository:cache:metrics:)
    )
    container.autowire(PlainRepository.self, PlainRepository.init(config:))
    container.autowire(
        PlainComplex.self,
        PlainComplex.init(logger:config:clock:repository:cache:metrics:)
    )
    container.register(Logger.self, name: "named") { _ in ConsoleLogger() }.scope(.singleton)
    container.register(Settings.self) { _ in Settings() }.scope(.singleton)
    container.register(Screen.self) { _ in Screen() }.inject(\.delegate)
    container.register(Greeting.self) { _, name in Greeting(to: name) }
}

/// The same graph in Swinject, with its closest equivalents: `.container` scope for
/// singletons, `.transient` for the rest.
func registerGraph(in container: Swinject.Container) {
    container.register(Logger.self) { _ in ConsoleLogger() }.inObjectScope(.container)
    container.register(Config.self) { _ in Config() }.inObjectScope(.container)
    container.register(Clock.self) { _ in Clock() }.inObjectScope(.container)
    container.register(Repository.self) { r in Repository(config: r.resolve(Config.self)!) }
        .inObjectScope(.transient)
    container.register(Cache.self) { _ in Cache() }.inObjectScope(.transient)
    container.register(Metrics.self) { _ in Metrics() }.inObjectScope(.transient)
    container.register(Token.self) { _ in Token() }.inObjectScope(.transient)
    container.register(Combined.self) { r in
        Combined(logger: r.resolve(Logger.self)!, config: r.resolve(Config.self)!)
    }.inObjectScope(.transient)
    container.register(Complex.self) { r in
        Complex(
            logger: r.resolve(Logger.self)!,
            config: r.resolve(Config.self)!,
            clock: r.resolve(Clock.self)!,
            repository: r.resolve(Repository.self)!,
            cache: r.resolve(Cache.self)!,
            metrics: r.resolve(Metrics.self)!
        )
    }.inObjectScope(.transient)
    container.register(PlainRepository.self) { r in
        PlainRepository(config: r.resolve(Config.self)!)
    }.inObjectScope(.transient)
    container.register(PlainComplex.self) { r in
        PlainComplex(
            logger: r.resolve(Logger.self)!,
            config: r.resolve(Config.self)!,
            clock: r.resolve(Clock.self)!,
            repository: r.resolve(PlainRepository.self)!,
            cache: r.resolve(Cache.self)!,
            metrics: r.resolve(Metrics.self)!
        )
    }.inObjectScope(.transient)
    container.register(Logger.self, name: "named") { _ in ConsoleLogger() }
        .inObjectScope(.container)
    container.register(Settings.self) { _ in Settings() }.inObjectScope(.container)
    container.register(Screen.self) { _ in Screen() }
        .initCompleted { r, screen in screen.delegate = r.resolve(Logger.self)! }
        .inObjectScope(.transient)
    container.register(Greeting.self) { (_, name: String) in Greeting(to: name) }
        .inObjectScope(.transient)
}

/// Adds `count` named filler registrations, to measure lookups in a large container.
func addFiller(_ count: Int, to container: Frost.Container) {
    for index in 0..<count {
        container.register(Int.self, name: "filler-\(index)") { _ in index }
    }
}

func addFiller(_ count: Int, to container: Swinject.Container) {
    for index in 0..<count {
        container.register(Int.self, name: "filler-\(index)") { _ in index }
    }
}

/// Lets a benchmark closure that runs on several threads hold Swinject's synchronized
/// resolver, which is thread-safe but not annotated `Sendable`.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}

/// Every benchmark case, with every contender that applies to it.
struct Cases {
    let hand = HandWritten()
    let dictionary = Frost.Container()
    let frozen: FrozenContainer
    let swinject = Swinject.Container()

    init() throws {
        registerGraph(in: dictionary)
        registerMacroGraph(in: dictionary)
        registerGraph(in: swinject)
        frozen = try dictionary.freeze()
    }

    /// Resolve cases: an operation per contender, looped `n` times; swift-dependencies where
    /// it has an idiom for the case.
    func resolveCases() throws -> [BenchCase] {
        try frostAndSwinjectCases().map { benchCase in
            guard let run = DependenciesContender.runs[benchCase.name] else { return benchCase }
            return BenchCase(
                name: benchCase.name, unit: benchCase.unit, iterations: benchCase.iterations,
                runs: benchCase.runs + [run])
        }
    }

    private func frostAndSwinjectCases() throws -> [BenchCase] {
        let hand = hand
        let frozen = frozen
        let dictionary = dictionary
        let swinject = swinject
        let handle = try frozen.handle(for: Logger.self)
        let settingsHandle = try frozen.handle(for: Settings.self)
        let cacheHandle = try frozen.handle(for: Cache.self)
        return [
            BenchCase(
                name: "singleton",
                unit: "resolve of a cached singleton",
                iterations: 200_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.singleton()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n { blackHole(try! frozen.resolve(Logger.self)) }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n { blackHole(try! dictionary.resolve(Logger.self)) }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n { blackHole(swinject.resolve(Logger.self)!) }
                    },
                ]
            ),
            BenchCase(
                name: "transient",
                unit: "resolve creating a new object, autowired",
                iterations: 200_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.transient()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n {
                            blackHole(try! frozen.resolve(Cache.self))
                        }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n {
                            blackHole(try! dictionary.resolve(Cache.self))
                        }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n {
                            blackHole(swinject.resolve(Cache.self)!)
                        }
                    },
                ]
            ),
            BenchCase(
                name: "transient-closure",
                unit: "resolve creating a new object, registered with a closure",
                iterations: 200_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.token()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n {
                            blackHole(try! frozen.resolve(Token.self))
                        }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n {
                            blackHole(try! dictionary.resolve(Token.self))
                        }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n {
                            blackHole(swinject.resolve(Token.self)!)
                        }
                    },
                ]
            ),
            BenchCase(
                name: "combined",
                unit: "transient with 2 singleton dependencies",
                iterations: 100_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.combined()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n { blackHole(try! frozen.resolve(Combined.self)) }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n { blackHole(try! dictionary.resolve(Combined.self)) }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n { blackHole(swinject.resolve(Combined.self)!) }
                    },
                ]
            ),
            BenchCase(
                name: "complex",
                unit: "root + 3 singletons + 3 transients",
                iterations: 50_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.complex()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n { blackHole(try! frozen.resolve(Complex.self)) }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n { blackHole(try! dictionary.resolve(Complex.self)) }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n { blackHole(swinject.resolve(Complex.self)!) }
                    },
                ]
            ),
            BenchCase(
                name: "complex-plain",
                unit: "the complex graph, initializers without `consuming` parameters",
                iterations: 50_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.plainComplex()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n { blackHole(try! frozen.resolve(PlainComplex.self)) }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n { blackHole(try! dictionary.resolve(PlainComplex.self)) }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n { blackHole(swinject.resolve(PlainComplex.self)!) }
                    },
                ]
            ),
            BenchCase(
                name: "named",
                unit: "resolve of a named singleton",
                iterations: 200_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.singleton()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n {
                            blackHole(try! frozen.resolve(Logger.self, name: "named"))
                        }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n {
                            blackHole(try! dictionary.resolve(Logger.self, name: "named"))
                        }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n { blackHole(swinject.resolve(Logger.self, name: "named")!) }
                    },
                ]
            ),
            BenchCase(
                name: "property",
                unit: "transient with a property injected after init",
                iterations: 100_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.property()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n { blackHole(try! frozen.resolve(Screen.self)) }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n { blackHole(try! dictionary.resolve(Screen.self)) }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n { blackHole(swinject.resolve(Screen.self)!) }
                    },
                ]
            ),
            BenchCase(
                name: "inject-into",
                unit: "inject(into:) a new object with 3 @Injected properties (Frost only)",
                iterations: 100_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.injectInto()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n {
                            let panel = Panel()
                            try! frozen.inject(into: panel)
                            blackHole(panel)
                        }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n {
                            let panel = Panel()
                            try! dictionary.inject(into: panel)
                            blackHole(panel)
                        }
                    },
                ]
            ),
            BenchCase(
                name: "argument",
                unit: "transient made from a runtime argument",
                iterations: 100_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.argument("Ann")) } },
                    Run(.frozen) { n in
                        for _ in 0..<n {
                            blackHole(try! frozen.resolve(Greeting.self, argument: "Ann"))
                        }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n {
                            blackHole(try! dictionary.resolve(Greeting.self, argument: "Ann"))
                        }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n {
                            blackHole(swinject.resolve(Greeting.self, argument: "Ann")!)
                        }
                    },
                ]
            ),
            BenchCase(
                name: "lazy",
                unit: "resolve Lazy<Logger>, then read its value once",
                iterations: 100_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.lazy()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n {
                            blackHole(try! frozen.resolve(Frost.Lazy<Logger>.self).value)
                        }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n {
                            blackHole(try! dictionary.resolve(Frost.Lazy<Logger>.self).value)
                        }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n {
                            blackHole(swinject.resolve(Swinject.Lazy<Logger>.self)!.instance)
                        }
                    },
                ]
            ),
            BenchCase(
                name: "provider",
                unit: "resolve Provider<Logger>, then call it once",
                iterations: 100_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.lazy()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n {
                            blackHole(try! frozen.resolve(Frost.Provider<Logger>.self)())
                        }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n {
                            blackHole(try! dictionary.resolve(Frost.Provider<Logger>.self)())
                        }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n {
                            blackHole(swinject.resolve(Swinject.Provider<Logger>.self)!.instance)
                        }
                    },
                ]
            ),
            BenchCase(
                name: "handle",
                unit: "singleton through a handle, lent by withResolved (frozen only)",
                iterations: 200_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.singleton()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n { try! frozen.withResolved(handle) { blackHole($0) } }
                    },
                ]
            ),
            BenchCase(
                name: "handle-resolve",
                unit: "singleton through a handle, returned by resolve: an owned reference",
                iterations: 200_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.singleton()) } },
                    Run(.frozen) { n in for _ in 0..<n { blackHole(try! frozen.resolve(handle)) } },
                ]
            ),
            BenchCase(
                name: "handle-value",
                unit: "value-type singleton through a handle, returned by resolve",
                iterations: 200_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.settingsSingleton()) }
                    },
                    Run(.frozen) { n in
                        for _ in 0..<n { blackHole(try! frozen.resolve(settingsHandle)) }
                    },
                ]
            ),
            BenchCase(
                name: "handle-transient",
                unit: "autowired transient through a handle, lent by withResolved",
                iterations: 200_000,
                runs: [
                    Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.transient()) } },
                    Run(.frozen) { n in
                        for _ in 0..<n { try! frozen.withResolved(cacheHandle) { blackHole($0) } }
                    },
                ]
            ),
            BenchCase(
                name: "miss",
                unit: "resolve of an unregistered type (the error path)",
                iterations: 20_000,
                runs: [
                    Run(.frozen) { n in
                        for _ in 0..<n { blackHole(try? frozen.resolve(Unregistered.self)) }
                    },
                    Run(.dictionary) { n in
                        for _ in 0..<n { blackHole(try? dictionary.resolve(Unregistered.self)) }
                    },
                    Run(.swinject) { n in
                        for _ in 0..<n { blackHole(swinject.resolve(Unregistered.self)) }
                    },
                ]
            ),
        ]
    }

    /// `freeze()` alone of a container of `count` registrations (registered once, outside the
    /// timing; a container can be frozen any number of times). What the freeze targets read.
    static func freezeCase(_ count: Int) -> BenchCase {
        let container = Frost.Container()
        addFiller(count, to: container)
        return BenchCase(
            name: "freeze-\(count)",
            unit: "freeze of \(count) registrations (registration excluded)",
            iterations: max(1, 20_000 / count),
            runs: [
                Run(.frozen) { n in
                    for _ in 0..<n { blackHole(try! container.freeze()) }
                }
            ]
        )
    }

    /// Registration plus freeze of the first `count` generated types (`Generated/`: distinct
    /// types shaped like an application's), per whole container; the dictionary container's
    /// registration alone, and Swinject's registration. Registration takes about as long in
    /// every contender: Swinject runs as many containers as the others.
    static func prepareCase(_ count: Int) -> BenchCase {
        prepareCase(
            name: "prepare-\(count)",
            unit: "register \(count) distinct types + freeze, per container",
            count: count, swinjectScale: 1,
            frost: { registerGeneratedTypes($0, in: $1) },
            swinject: { registerGeneratedTypes($0, in: $1) })
    }

    /// Registration plus freeze of `count` registrations of one type (`Int`) under as many
    /// names, per whole container: a table of one type, unlike an application's.
    static func prepareNamesCase(_ count: Int) -> BenchCase {
        prepareCase(
            name: "prepare-\(count)-names",
            unit: "register \(count) names of one type + freeze, per container",
            count: count, swinjectScale: nil,
            frost: { addFiller($0, to: $1) },
            swinject: { addFiller($0, to: $1) })
    }

    /// A prepare case: `frost` and `swinject` register `count` keys in a new container, once
    /// per operation (a call per container, not per registration); frozen also freezes.
    private static func prepareCase(
        name: String,
        unit: String,
        count: Int,
        swinjectScale: Double?,
        frost: @escaping (Int, Frost.Container) -> Void,
        swinject: @escaping (Int, Swinject.Container) -> Void
    ) -> BenchCase {
        BenchCase(
            name: name,
            unit: unit,
            iterations: max(1, 20_000 / count),
            runs: [
                Run(.frozen) { n in
                    for _ in 0..<n {
                        let container = Frost.Container()
                        frost(count, container)
                        blackHole(try! container.freeze())
                    }
                },
                Run(.dictionary) { n in
                    for _ in 0..<n {
                        let container = Frost.Container()
                        frost(count, container)
                        blackHole(container)
                    }
                },
                Run(.swinject, scale: swinjectScale) { n in
                    for _ in 0..<n {
                        let container = Swinject.Container()
                        swinject(count, container)
                        blackHole(container)
                    }
                },
            ]
        )
    }

    /// A server request: a child providing the current user and the request id, the handler's
    /// graph resolved through it (a `.scoped` unit of work, two app singletons, transients
    /// between), the child disposed (the unit of work rolled back). Swinject's idiom: a child
    /// container registering the request's values and its unit of work (`.container` scope);
    /// it has no disposal, so the request rolls the unit of work back by hand, as hand-written
    /// code does.
    static func requestCases() throws -> [BenchCase] {
        let hand = HandWrittenServer()
        let app = Frost.Container()
        app.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        app.register(AppDatabase.self) { _ in AppDatabase() }.scope(.singleton)
        app.provided(CurrentUser.self)
        app.provided(RequestID.self)
        app.autowire(UnitOfWork.self, UnitOfWork.init(database:))
            .scope(.scoped)
            .onDispose { $0.rollbackIfOpen() }
        app.autowire(TodoRepository.self, TodoRepository.init(database:unitOfWork:))
        app.autowire(TodoService.self, TodoService.init(repository:unitOfWork:))
        app.autowire(TodoHandler.self, TodoHandler.init(service:logger:user:requestID:))
        let frozen = try app.freeze()
        let swinject = Swinject.Container()
        swinject.register(Logger.self) { _ in ConsoleLogger() }.inObjectScope(.container)
        swinject.register(AppDatabase.self) { _ in AppDatabase() }.inObjectScope(.container)
        swinject.register(TodoRepository.self) { r in
            TodoRepository(
                database: r.resolve(AppDatabase.self)!, unitOfWork: r.resolve(UnitOfWork.self)!)
        }
        swinject.register(TodoService.self) { r in
            TodoService(
                repository: r.resolve(TodoRepository.self)!,
                unitOfWork: r.resolve(UnitOfWork.self)!)
        }
        swinject.register(TodoHandler.self) { r in
            TodoHandler(
                service: r.resolve(TodoService.self)!,
                logger: r.resolve(Logger.self)!,
                user: r.resolve(CurrentUser.self)!,
                requestID: r.resolve(RequestID.self)!
            )
        }
        let user = CurrentUser(id: 7)
        let requestID = RequestID(value: 42)
        let request = BenchCase(
            name: "request",
            unit: "child providing 2 values + handler graph of 6 objects + dispose",
            iterations: 50_000,
            runs: [
                Run(.handWritten) { n in
                    for _ in 0..<n { blackHole(hand.handle(user: user, requestID: requestID)) }
                },
                Run(.frozen) { n in
                    for _ in 0..<n {
                        let request = try! frozen.child { c in
                            c.register(instance: user)
                            c.register(instance: requestID)
                        }
                        blackHole(try! request.resolve(TodoHandler.self))
                        request.dispose()
                    }
                },
                Run(.dictionary) { n in
                    for _ in 0..<n {
                        let request = app.child { c in
                            c.register(instance: user)
                            c.register(instance: requestID)
                        }
                        blackHole(try! request.resolve(TodoHandler.self))
                        request.dispose()
                    }
                },
                Run(.swinject) { n in
                    for _ in 0..<n {
                        let request = Swinject.Container(parent: swinject)
                        request.register(CurrentUser.self) { _ in user }
                        request.register(RequestID.self) { _ in requestID }
                        request.register(UnitOfWork.self) { r in
                            UnitOfWork(database: r.resolve(AppDatabase.self)!)
                        }.inObjectScope(.container)
                        let handler = request.resolve(TodoHandler.self)!
                        blackHole(handler)
                        handler.service.unitOfWork.rollbackIfOpen()
                    }
                },
            ]
        )
        // The same request as an async server handler writes it: in async code Swift picks
        // the awaited resolve, and the child is disposed with `await dispose()`.
        let requestAsync = BenchCase(
            name: "request-async",
            unit: "request, in async code: awaited resolve + await dispose()",
            iterations: 50_000,
            runs: [
                Run(.handWritten) { n in
                    runAsync {
                        for _ in 0..<n { blackHole(hand.handle(user: user, requestID: requestID)) }
                    }
                },
                Run(.frozen) { n in
                    runAsync {
                        for _ in 0..<n {
                            let request = try! frozen.child { c in
                                c.register(instance: user)
                                c.register(instance: requestID)
                            }
                            blackHole(try! await request.resolve(TodoHandler.self))
                            await request.dispose()
                        }
                    }
                },
            ]
        )
        return [request, requestAsync] + (try requestServerCases(hand: hand))
    }

    /// `request-server` and `request-server-main`: the `request` graph as a real server has
    /// it — the database made by an async factory and bootstrapped at start-up, and one more
    /// async singleton the handler never uses — resolved and disposed as an async handler does
    /// (`try await`, `await dispose()`): in a task on the global executor, and on the main
    /// actor (an app, a command-line tool's async `main`, a test).
    static func requestServerCases(hand: HandWrittenServer) throws -> [BenchCase] {
        let app = Frost.Container()
        app.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        app.register(AppDatabase.self) { _ async in await AppDatabase.connect() }
            .scope(.singleton)
        app.register(MetricsExporter.self) { _ async in await MetricsExporter.start() }
            .scope(.singleton)
        app.provided(CurrentUser.self)
        app.provided(RequestID.self)
        app.autowire(UnitOfWork.self, UnitOfWork.init(database:))
            .scope(.scoped)
            .onDispose { $0.rollbackIfOpen() }
        app.autowire(TodoRepository.self, TodoRepository.init(database:unitOfWork:))
        app.autowire(TodoService.self, TodoService.init(repository:unitOfWork:))
        app.autowire(TodoHandler.self, TodoHandler.init(service:logger:user:requestID:))
        let frozen = try app.freeze()
        runAsync { try! await frozen.bootstrap() }
        let user = CurrentUser(id: 7)
        let requestID = RequestID(value: 42)
        @Sendable func handle() async {
            let request = try! frozen.child { c in
                c.register(instance: user)
                c.register(instance: requestID)
            }
            blackHole(try! await request.resolve(TodoHandler.self))
            await request.dispose()
        }
        @MainActor func handleOnMainActor() async {
            let request = try! frozen.child { c in
                c.register(instance: user)
                c.register(instance: requestID)
            }
            blackHole(try! await request.resolve(TodoHandler.self))
            await request.dispose()
        }
        let inTask = BenchCase(
            name: "request-server",
            unit: "request-async with an async database, bootstrapped, and an async singleton",
            iterations: 50_000,
            runs: [
                Run(.handWritten) { n in
                    runAsync {
                        for _ in 0..<n { blackHole(hand.handle(user: user, requestID: requestID)) }
                    }
                },
                Run(.frozen) { n in
                    runAsync {
                        for _ in 0..<n { await handle() }
                    }
                },
            ]
        )
        let onMainActor = BenchCase(
            name: "request-server-main",
            unit: "request-server, on the main actor",
            iterations: 50_000,
            runs: [
                Run(.handWritten) { n in
                    runOnMainActor {
                        for _ in 0..<n { blackHole(hand.handle(user: user, requestID: requestID)) }
                    }
                },
                Run(.frozen) { n in
                    runOnMainActor {
                        for _ in 0..<n { await handleOnMainActor() }
                    }
                },
            ]
        )
        return [inTask, onMainActor]
    }

    /// A singleton resolved from a container that also holds `count` other registrations.
    static func singletonAtSizeCase(_ count: Int) throws -> BenchCase {
        let hand = HandWritten()
        let dictionary = Frost.Container()
        dictionary.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
        addFiller(count, to: dictionary)
        let frozen = try dictionary.freeze()
        let swinject = Swinject.Container()
        swinject.register(Logger.self) { _ in ConsoleLogger() }.inObjectScope(.container)
        addFiller(count, to: swinject)
        return BenchCase(
            name: "singleton-at-\(count)",
            unit: "singleton among \(count) registrations",
            iterations: 200_000,
            runs: [
                Run(.handWritten) { n in for _ in 0..<n { blackHole(hand.singleton()) } },
                Run(.frozen) { n in for _ in 0..<n { blackHole(try! frozen.resolve(Logger.self)) }
                },
                Run(.dictionary) { n in
                    for _ in 0..<n { blackHole(try! dictionary.resolve(Logger.self)) }
                },
                Run(.swinject) { n in for _ in 0..<n { blackHole(swinject.resolve(Logger.self)!) }
                },
            ]
        )
    }

    /// Singleton resolves on `threads` threads at once, for the same stretch of wall time (the
    /// first thread resolves `iterations` times, the others until it has: see ``ThreadTeam``);
    /// ns/op is wall time divided by all resolves of all threads. The dictionary container is
    /// for one thread: not measured.
    ///
    /// `threads-N` resolves a value-type singleton, so the threads share only the container's
    /// read path. `threads-N-class` resolves a class singleton: every resolve retains the one
    /// shared object, an atomic on one cache line that limits hand-written code as much.
    func threadsCase(_ threads: Int, classSingleton: Bool) -> BenchCase {
        let hand = hand
        let frozen = frozen
        let synchronized = UncheckedSendable(value: swinject.synchronize())
        let team = ThreadTeam(size: threads)
        // Hand-written reads take about 1 ns: more of them, so that a sample lasts milliseconds.
        func run(
            _ contender: Contender,
            _ chunk: @escaping @Sendable (Int) -> Void
        ) -> Run {
            Run.counting(contender, scale: contender == .handWritten ? 8 : nil) { n in
                team.run(iterations: n, chunk)
            }
        }
        let plural = threads == 1 ? "" : "s"
        if classSingleton {
            return BenchCase(
                name: "threads-\(threads)-class",
                unit: "class singleton resolves on \(threads) thread\(plural)",
                iterations: 2_000_000,
                runs: [
                    run(.handWritten) { n in for _ in 0..<n { blackHole(hand.singleton()) } },
                    run(.frozen) { n in
                        for _ in 0..<n { blackHole(try! frozen.resolve(Logger.self)) }
                    },
                    run(.swinject) { n in
                        for _ in 0..<n { blackHole(synchronized.value.resolve(Logger.self)!) }
                    },
                ]
            )
        }
        return BenchCase(
            name: "threads-\(threads)",
            unit: "value-type singleton resolves on \(threads) thread\(plural)",
            iterations: 2_000_000,
            runs: [
                run(.handWritten) { n in for _ in 0..<n { blackHole(hand.settingsSingleton()) } },
                run(.frozen) { n in
                    for _ in 0..<n { blackHole(try! frozen.resolve(Settings.self)) }
                },
                run(.swinject) { n in
                    for _ in 0..<n { blackHole(synchronized.value.resolve(Settings.self)!) }
                },
            ]
        )
    }
}
