#if Macros
    import FrostMacrosPlugin
    import SwiftSyntaxMacroExpansion
    import SwiftSyntaxMacrosGenericTestSupport
    import Testing

    /// What `@Injectable` and `@Inject` expand to: each generated piece (the dependencies, the
    /// factory, the members injector, the conformance), and each error with its fix-its.
    @Suite("@Injectable's expansion")
    struct InjectableExpansionTests {
        // MARK: What it generates

        @Test func anInitializerBecomesAFactoryAndItsParametersDependencies() {
            assertExpansion(
                """
                @Injectable
                final class UserService {
                    init(logger: any Logger, db: Database) {}
                }
                """,
                expandedSource: """
                    final class UserService {
                        init(logger: any Logger, db: Database) {}

                        static var injectableParameters: [Frost.InjectableDependency] {
                            [
                                Frost.InjectableDependency((any Logger).self, label: "logger"),
                                Frost.InjectableDependency(Database.self, label: "db")
                            ]
                        }

                        static func makeInjectable(_ parameters: Frost.InjectableParameters) throws -> Self {
                            try Self(
                                logger: parameters.parameter((any Logger).self, at: 0),
                                db: parameters.parameter(Database.self, at: 1)
                            )
                        }
                    }

                    extension UserService: Frost.Injectable {
                    }
                    """)
        }

        @Test func namesBindLabelsAndWrappedParametersAreDeclaredAsWritten() {
            // A public type's members are public; `_` parameters are passed without a label.
            assertExpansion(
                """
                @Injectable(names: ["db": "replica", "cache": "shared"])
                public struct ReportJob {
                    public init(db: Database, cache: Lazy<Cache>, _ tokens: Provider<Token>, audit: Auditor?) throws {}
                }
                """,
                expandedSource: """
                    public struct ReportJob {
                        public init(db: Database, cache: Lazy<Cache>, _ tokens: Provider<Token>, audit: Auditor?) throws {}

                        public static var injectableParameters: [Frost.InjectableDependency] {
                            [
                                Frost.InjectableDependency(Database.self, name: "replica", label: "db"),
                                Frost.InjectableDependency(Lazy<Cache>.self, name: "shared", label: "cache"),
                                Frost.InjectableDependency(Provider<Token>.self, label: "tokens"),
                                Frost.InjectableDependency(Auditor?.self, label: "audit")
                            ]
                        }

                        public static func makeInjectable(_ parameters: Frost.InjectableParameters) throws -> Self {
                            try Self(
                                db: parameters.parameter(Database.self, at: 0, name: "replica"),
                                cache: parameters.parameter(Lazy<Cache>.self, at: 1, name: "shared"),
                                parameters.parameter(Provider<Token>.self, at: 2),
                                audit: parameters.parameter(Auditor?.self, at: 3)
                            )
                        }
                    }

                    extension ReportJob: Frost.Injectable {
                    }
                    """)
        }

        @Test func theMarkedInitializerIsReadAndInjectedPropertiesGetAnInjector() {
            assertExpansion(
                """
                @Injectable
                final class Screen {
                    @Injected var service: UserService
                    @Injected(name: "replica") var db: Database
                    @LazyInjected var logger: any Logger
                    static let shared = 1

                    @Inject init() {}
                    init(preview: Bool) {}
                }
                """,
                expandedSource: """
                    final class Screen {
                        @Injected var service: UserService
                        @Injected(name: "replica") var db: Database
                        @LazyInjected var logger: any Logger
                        static let shared = 1

                        init() {}
                        init(preview: Bool) {}

                        static var injectableParameters: [Frost.InjectableDependency] {
                            []
                        }

                        static func makeInjectable(_ parameters: Frost.InjectableParameters) throws -> Self {
                            Self()
                        }

                        static var injectableMembers: [Frost.InjectableDependency] {
                            [
                                Frost.InjectableDependency(UserService.self, label: "service"),
                                Frost.InjectableDependency(Database.self, name: "replica", label: "db"),
                                Frost.InjectableDependency(Frost.Lazy<any Logger>.self, label: "logger")
                            ]
                        }

                        func injectMembers(from resolver: any Frost.Resolver) throws(Frost.FrostError) {
                            try self._service.inject(from: resolver)
                            try self._db.inject(from: resolver)
                            self._logger.inject(from: resolver)
                        }
                    }

                    extension Screen: Frost.Injectable {
                    }
                    """)
        }

        @Test func specifiersAndEscapingAreNoPartOfTheKey() {
            assertExpansion(
                """
                @Injectable
                final class Runner {
                    init(clock: consuming Clock, work: @escaping @Sendable () -> Void, done: (() -> Void)?) {}
                }
                """,
                expandedSource: """
                    final class Runner {
                        init(clock: consuming Clock, work: @escaping @Sendable () -> Void, done: (() -> Void)?) {}

                        static var injectableParameters: [Frost.InjectableDependency] {
                            [
                                Frost.InjectableDependency(Clock.self, label: "clock"),
                                Frost.InjectableDependency((@Sendable () -> Void).self, label: "work"),
                                Frost.InjectableDependency(((() -> Void)?).self, label: "done")
                            ]
                        }

                        static func makeInjectable(_ parameters: Frost.InjectableParameters) throws -> Self {
                            try Self(
                                clock: parameters.parameter(Clock.self, at: 0),
                                work: parameters.parameter((@Sendable () -> Void).self, at: 1),
                                done: parameters.parameter(((() -> Void)?).self, at: 2)
                            )
                        }
                    }

                    extension Runner: Frost.Injectable {
                    }
                    """)
        }

        @Test func anOpenClassWithARequiredInitializerAlsoFillsASubclasssWrappers() {
            assertExpansion(
                """
                @Injectable
                open class Base {
                    @Injected var db: Database
                    public required init(logger: any Logger) {}
                }
                """,
                expandedSource: """
                    open class Base {
                        @Injected var db: Database
                        public required init(logger: any Logger) {}

                        public static var injectableParameters: [Frost.InjectableDependency] {
                            [
                                Frost.InjectableDependency((any Logger).self, label: "logger")
                            ]
                        }

                        public static func makeInjectable(_ parameters: Frost.InjectableParameters) throws -> Self {
                            try Self(
                                logger: parameters.parameter((any Logger).self, at: 0)
                            )
                        }

                        public static var injectableMembers: [Frost.InjectableDependency] {
                            [
                                Frost.InjectableDependency(Database.self, label: "db")
                            ]
                        }

                        public func injectMembers(from resolver: any Frost.Resolver) throws(Frost.FrostError) {
                            try self._db.inject(from: resolver)
                            if type(of: self) != Base.self {
                                try resolver.inject(into: self)
                            }
                        }
                    }

                    extension Base: Frost.Injectable {
                    }
                    """)
        }

        // MARK: What it diagnoses

        @Test func noInitializer() {
            assertExpansion(
                """
                @Injectable
                struct Settings {
                    let port: Int
                    var retries = 3
                }
                """,
                expandedSource: """
                    struct Settings {
                        let port: Int
                        var retries = 3
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "@Injectable reads an initializer, and this type declares none",
                        line: 1, column: 1,
                        fixIts: [FixItSpec(message: "Add an initializer of the stored properties")])
                ],
                fixedSource: """
                    @Injectable
                    struct Settings {
                        let port: Int
                        var retries = 3

                        init(port: Int) {
                            self.port = port
                        }
                    }
                    """)
        }

        @Test func severalInitializersNoneMarked() {
            assertExpansion(
                """
                @Injectable
                final class Screen {
                    init() {}
                    init(preview: Bool) {}
                }
                """,
                expandedSource: """
                    final class Screen {
                        init() {}
                        init(preview: Bool) {}
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message:
                            "@Injectable reads one initializer: this type declares 2; mark the "
                            + "one to use with @Inject",
                        line: 1, column: 1,
                        fixIts: [
                            FixItSpec(message: "Mark 'init()' with @Inject"),
                            FixItSpec(message: "Mark 'init(preview:)' with @Inject"),
                        ])
                ],
                applyFixIts: ["Mark 'init(preview:)' with @Inject"],
                fixedSource: """
                    @Injectable
                    final class Screen {
                        init() {}
                        @Inject init(preview: Bool) {}
                    }
                    """)
        }

        @Test func severalMarked() {
            assertExpansion(
                """
                @Injectable
                final class Screen {
                    @Inject init() {}
                    @Inject init(preview: Bool) {}
                }
                """,
                expandedSource: """
                    final class Screen {
                        init() {}
                        init(preview: Bool) {}
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "only one initializer may be marked @Inject", line: 4, column: 5,
                        fixIts: [FixItSpec(message: "Remove this '@Inject'")])
                ],
                fixedSource: """
                    @Injectable
                    final class Screen {
                        @Inject init() {}
                        init(preview: Bool) {}
                    }
                    """)
        }

        @Test func aNamesKeyThatIsNoParameterLabel() {
            assertExpansion(
                """
                @Injectable(names: ["database": "replica"])
                final class Job {
                    init(db: Database, clock: Clock) {}
                }
                """,
                expandedSource: """
                    final class Job {
                        init(db: Database, clock: Clock) {}
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "'database' is no parameter label of the initializer (db, clock)",
                        line: 1, column: 21,
                        fixIts: [FixItSpec(message: "Use 'db'"), FixItSpec(message: "Use 'clock'")])
                ],
                applyFixIts: ["Use 'db'"],
                fixedSource: """
                    @Injectable(names: ["db": "replica"])
                    final class Job {
                        init(db: Database, clock: Clock) {}
                    }
                    """)
        }

        @Test func namesThatAreNoLiteral() {
            assertExpansion(
                """
                @Injectable(names: Job.names)
                final class Job {
                    init(db: Database) {}
                }
                """,
                expandedSource: """
                    final class Job {
                        init(db: Database) {}
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "@Injectable(names:) takes a dictionary literal of string "
                            + "literals, label to name",
                        line: 1, column: 20)
                ])
        }

        /// A parameter whose type cannot be a key, its error's column, its fix-it, and the
        /// parameter fixed.
        struct NotAKey: Sendable, CustomTestStringConvertible {
            let parameter: String
            let column: Int
            let reason: String
            let fixIt: String
            let fixed: String
            var testDescription: String { parameter }
        }

        static let notKeys: [NotAKey] = [
            NotAKey(
                parameter: "counter: inout Int", column: 19,
                reason: "an inout parameter is no value the container can give",
                fixIt: "Remove 'inout'", fixed: "counter: Int"),
            NotAKey(
                parameter: "work: () -> Void", column: 16,
                reason: "a closure without @escaping cannot be kept by the container",
                fixIt: "Add '@escaping'", fixed: "work: @escaping () -> Void"),
            NotAKey(
                parameter: "value: @autoclosure () -> Int", column: 17,
                reason: "an @autoclosure parameter is an expression, not a dependency",
                fixIt: "Remove '@autoclosure'", fixed: "value: () -> Int"),
            NotAKey(
                parameter: "plugins: Plugin...", column: 10,
                reason: "a variadic parameter takes any number of values",
                fixIt: "Take an array instead", fixed: "plugins: [Plugin]"),
            NotAKey(
                parameter: "logger: some Logger", column: 18,
                reason: "'some' hides the type to resolve", fixIt: "Replace 'some' with 'any'",
                fixed: "logger: any Logger"),
        ]

        @Test(arguments: Self.notKeys)
        func aParameterTypeThatCannotBeAKey(_ notKey: NotAKey) {
            let key = String(notKey.parameter.prefix { $0 != ":" })
            assertExpansion(
                """
                @Injectable
                final class Job {
                    init(\(notKey.parameter)) {}
                }
                """,
                expandedSource: """
                    final class Job {
                        init(\(notKey.parameter)) {}
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message:
                            "parameter '\(key)' cannot be resolved by its type: \(notKey.reason)",
                        line: 3, column: notKey.column, fixIts: [FixItSpec(message: notKey.fixIt)])
                ],
                fixedSource: """
                    @Injectable
                    final class Job {
                        init(\(notKey.fixed)) {}
                    }
                    """)
        }

        @Test(arguments: [("enum", "an enum", "case live"), ("protocol", "a protocol", "init()")])
        func anEnumOrAProtocol(keyword: String, kind: String, member: String) {
            assertExpansion(
                """
                @Injectable
                \(keyword) Mode {
                    \(member)
                }
                """,
                expandedSource: """
                    \(keyword) Mode {
                        \(member)
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "@Injectable applies to a class or a struct, not to \(kind)",
                        line: 1, column: 1, fixIts: [FixItSpec(message: "Remove '@Injectable'")])
                ],
                fixedSource: """

                    \(keyword) Mode {
                        \(member)
                    }
                    """)
        }

        @Test func aClassThatIsNotFinal() {
            assertExpansion(
                """
                @Injectable
                class Job {
                    init(db: Database) {}
                }
                """,
                expandedSource: """
                    class Job {
                        init(db: Database) {}
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message:
                            "@Injectable makes instances of 'Job' with 'Self(…)': the class must "
                            + "be final, or its initializer required",
                        line: 2, column: 1, fixIts: [FixItSpec(message: "Make the class final")])
                ],
                fixedSource: """
                    @Injectable
                    final class Job {
                        init(db: Database) {}
                    }
                    """)
        }

        @Test func aFailableOrAsyncInitializer() {
            assertExpansion(
                """
                @Injectable
                final class Job {
                    init?(db: Database) async {}
                }
                """,
                expandedSource: """
                    final class Job {
                        init?(db: Database) async {}
                    }
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message: "@Injectable cannot read a failable initializer: the container "
                            + "needs an instance",
                        line: 3, column: 5,
                        fixIts: [FixItSpec(message: "Make the initializer non-failable")]),
                    DiagnosticSpec(
                        message: "@Injectable cannot read an async initializer: autowire makes "
                            + "instances synchronously",
                        line: 3, column: 25, fixIts: [FixItSpec(message: "Remove 'async'")]),
                ],
                fixedSource: """
                    @Injectable
                    final class Job {
                        init(db: Database) {}
                    }
                    """)
        }

        @Test func injectOnAnythingButAnInitializer() {
            assertExpansion(
                """
                @Inject
                func start() {}
                """,
                expandedSource: """
                    func start() {}
                    """,
                diagnostics: [
                    DiagnosticSpec(
                        message:
                            "@Inject marks the initializer @Injectable reads; it applies to an "
                            + "initializer only",
                        line: 1, column: 1, fixIts: [FixItSpec(message: "Remove '@Inject'")])
                ],
                fixedSource: """

                    func start() {}
                    """)
        }
    }

    /// The macros as the `FrostMacros` module declares them.
    private let macros: [String: MacroSpec] = [
        "Injectable": MacroSpec(type: InjectableMacro.self, conformances: ["Injectable"]),
        "Inject": MacroSpec(type: InjectMacro.self),
    ]

    /// `assertMacroExpansion` reporting to Swift Testing.
    private func assertExpansion(
        _ source: String,
        expandedSource: String,
        diagnostics: [DiagnosticSpec] = [],
        applyFixIts: [String]? = nil,
        fixedSource: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(
            source, expandedSource: expandedSource, diagnostics: diagnostics, macroSpecs: macros,
            applyFixIts: applyFixIts, fixedSource: fixedSource,
            failureHandler: { failure in
                Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
            })
    }
#endif
