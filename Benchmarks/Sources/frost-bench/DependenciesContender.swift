import Dependencies

// pointfreeco/swift-dependencies 1.17.1, in its own idioms: a `DependencyKey` whose
// `liveValue` is the instance for singletons (`@Dependency(\.logger)`), and a client struct
// with a `make` closure for what is made anew each time (`@Dependency(\.cacheClient).make()`);
// a client's `make` reads the dependencies it needs with `@Dependency` itself. Reading a
// dependency looks the key up in the task's current `DependencyValues` (what
// `withDependencies` overrides per run).

private enum LoggerKey: DependencyKey {
    static let liveValue: any Logger = ConsoleLogger()
}

private enum ConfigKey: DependencyKey {
    static let liveValue = Config()
}

private enum ClockKey: DependencyKey {
    static let liveValue = Clock()
}

/// Makes what the container would make per resolve.
struct MakeClient<Value: Sendable>: Sendable {
    var make: @Sendable () -> Value
}

private enum CacheClientKey: DependencyKey {
    static let liveValue = MakeClient { Cache() }
}

private enum MetricsClientKey: DependencyKey {
    static let liveValue = MakeClient { Metrics() }
}

private enum TokenClientKey: DependencyKey {
    static let liveValue = MakeClient { Token() }
}

private enum RepositoryClientKey: DependencyKey {
    static let liveValue = MakeClient {
        @Dependency(\.config) var config
        return Repository(config: config)
    }
}

private enum PlainRepositoryClientKey: DependencyKey {
    static let liveValue = MakeClient {
        @Dependency(\.config) var config
        return PlainRepository(config: config)
    }
}

private enum ComplexClientKey: DependencyKey {
    static let liveValue = MakeClient {
        @Dependency(\.logger) var logger
        @Dependency(\.config) var config
        @Dependency(\.clock) var clock
        @Dependency(\.repositoryClient) var repository
        @Dependency(\.cacheClient) var cache
        @Dependency(\.metricsClient) var metrics
        return Complex(
            logger: logger, config: config, clock: clock, repository: repository.make(),
            cache: cache.make(), metrics: metrics.make())
    }
}

private enum PlainComplexClientKey: DependencyKey {
    static let liveValue = MakeClient {
        @Dependency(\.logger) var logger
        @Dependency(\.config) var config
        @Dependency(\.clock) var clock
        @Dependency(\.plainRepositoryClient) var repository
        @Dependency(\.cacheClient) var cache
        @Dependency(\.metricsClient) var metrics
        return PlainComplex(
            logger: logger, config: config, clock: clock, repository: repository.make(),
            cache: cache.make(), metrics: metrics.make())
    }
}

extension DependencyValues {
    var logger: any Logger {
        get { self[LoggerKey.self] }
        set { self[LoggerKey.self] = newValue }
    }
    var config: Config {
        get { self[ConfigKey.self] }
        set { self[ConfigKey.self] = newValue }
    }
    var clock: Clock {
        get { self[ClockKey.self] }
        set { self[ClockKey.self] = newValue }
    }
    var cacheClient: MakeClient<Cache> {
        get { self[CacheClientKey.self] }
        set { self[CacheClientKey.self] = newValue }
    }
    var metricsClient: MakeClient<Metrics> {
        get { self[MetricsClientKey.self] }
        set { self[MetricsClientKey.self] = newValue }
    }
    var tokenClient: MakeClient<Token> {
        get { self[TokenClientKey.self] }
        set { self[TokenClientKey.self] = newValue }
    }
    var repositoryClient: MakeClient<Repository> {
        get { self[RepositoryClientKey.self] }
        set { self[RepositoryClientKey.self] = newValue }
    }
    var plainRepositoryClient: MakeClient<PlainRepository> {
        get { self[PlainRepositoryClientKey.self] }
        set { self[PlainRepositoryClientKey.self] = newValue }
    }
    var complexClient: MakeClient<Complex> {
        get { self[ComplexClientKey.self] }
        set { self[ComplexClientKey.self] = newValue }
    }
    var plainComplexClient: MakeClient<PlainComplex> {
        get { self[PlainComplexClientKey.self] }
        set { self[PlainComplexClientKey.self] = newValue }
    }
}

/// swift-dependencies' run of each resolve case it has an idiom for, by case name.
enum DependenciesContender {
    static var runs: [String: Run] {
        [
            "singleton": Run(.dependencies) { n in
                for _ in 0..<n {
                    @Dependency(\.logger) var logger
                    blackHole(logger)
                }
            },
            "transient": Run(.dependencies) { n in
                for _ in 0..<n {
                    @Dependency(\.cacheClient) var cache
                    blackHole(cache.make())
                }
            },
            "transient-closure": Run(.dependencies) { n in
                for _ in 0..<n {
                    @Dependency(\.tokenClient) var token
                    blackHole(token.make())
                }
            },
            "complex": Run(.dependencies) { n in
                for _ in 0..<n {
                    @Dependency(\.complexClient) var complex
                    blackHole(complex.make())
                }
            },
            "complex-plain": Run(.dependencies) { n in
                for _ in 0..<n {
                    @Dependency(\.plainComplexClient) var complex
                    blackHole(complex.make())
                }
            },
        ]
    }
}
