extension FrozenContainer {
    /// Makes a child container, runs `body` with it, and disposes it on every path — when
    /// `body` returns or throws — awaiting its `.onDispose` hooks: a request scope in one
    /// call, for a server's async handler.
    ///
    /// ```swift
    /// let body = try await app.withChild({ c in c.register(instance: user) }) { request in
    ///     try await request.resolve(TodoHandler.self).handle()
    /// }
    /// ```
    ///
    /// While `body` runs, the child is the task's current container (``current``): code it
    /// calls resolves the request's objects without being handed the child.
    ///
    /// A cancelled task still disposes the child (its hooks run, awaited) before the error
    /// reaches the caller. The child is disposed before this returns; do not keep it.
    ///
    /// - Parameters:
    ///   - configure: Registers the child's values and components (see ``child(_:)``).
    ///   - body: Runs with the child; what it returns is returned.
    /// - Returns: What `body` returns.
    /// - Throws: What ``child(_:)`` throws, or what `body` throws (after the child is
    ///   disposed).
    nonisolated(nonsending)
        public func withChild<R>(
            _ configure: (Container) throws -> Void,
            _ body: nonisolated(nonsending) (FrozenContainer) async throws -> R
        ) async throws -> R
    {
        try await runThenDispose(
            try child(configure),
            { child in try await FrozenContainer.$current.withValue(child) { try await body(child) }
            }
        ) { await $0.dispose() }
    }

    /// Makes a child container, runs `body` with it, and disposes it on every path — when
    /// `body` returns or throws: a scope for a job, a command, a test, in synchronous code.
    ///
    /// ```swift
    /// let line = try app.withChild({ c in c.register(instance: job) }) { scope in
    ///     try scope.resolve(JobRunner.self).run()
    /// }
    /// ```
    ///
    /// While `body` runs, the child is the current container (``current``). The child is
    /// disposed with the synchronous ``dispose()-59wgz``. In async code, write
    /// `try await withChild`: this form is unavailable there, because it could not await the
    /// child's async hooks.
    ///
    /// - Parameters:
    ///   - configure: Registers the child's values and components (see ``child(_:)``).
    ///   - body: Runs with the child; what it returns is returned.
    /// - Returns: What `body` returns.
    /// - Throws: What ``child(_:)`` throws, or what `body` throws (after the child is
    ///   disposed).
    @available(
        *, noasync,
        message: "in async code, write `try await withChild`: it awaits the child's async hooks"
    )
    public func withChild<R>(
        _ configure: (Container) throws -> Void,
        _ body: (FrozenContainer) throws -> R
    ) throws -> R {
        let child = try child(configure)
        defer { child.dispose() }
        return try FrozenContainer.$current.withValue(child) { try body(child) }
    }

    /// ``child(_:)`` with a configuration that may await (FrostHummingbird's middleware reads
    /// a session or a token there). What `configure` throws is rethrown as it was thrown, not
    /// wrapped: an `HTTPError` still chooses the response. Package-only; not API.
    ///
    /// - Parameters:
    ///   - configure: Registers the child's components.
    /// - Returns: The frozen child.
    /// - Throws: What `configure` throws; ``FrostError`` when freezing the child finds problems.
    nonisolated(nonsending)
        package func child(
            awaiting configure: nonisolated(nonsending) (Container) async throws -> Void
        ) async throws -> FrozenContainer
    {
        let container = takeConfigurator()
        try await configure(container)
        let child = try container.freezeChild()
        offer(container)
        return child
    }
}

extension Container {
    /// Makes a child container, runs `body` with it, and disposes it on every path, awaiting
    /// its `.onDispose` hooks (see `FrozenContainer.withChild(_:_:)`).
    ///
    /// - Parameters:
    ///   - configure: Registers the child's values and components (see ``child(_:)``).
    ///   - body: Runs with the child; what it returns is returned.
    /// - Returns: What `body` returns.
    /// - Throws: What `configure` or `body` throws (after the child is disposed).
    nonisolated(nonsending)
        public func withChild<R>(
            _ configure: (Container) throws -> Void,
            _ body: nonisolated(nonsending) (Container) async throws -> R
        ) async throws -> R
    {
        try await runThenDispose(try child(configure), body) { await $0.dispose() }
    }

    /// Makes a child container, runs `body` with it, and disposes it on every path (see
    /// `FrozenContainer.withChild(_:_:)`). In async code, write `try await withChild`: this
    /// form is unavailable there.
    ///
    /// - Parameters:
    ///   - configure: Registers the child's values and components (see ``child(_:)``).
    ///   - body: Runs with the child; what it returns is returned.
    /// - Returns: What `body` returns.
    /// - Throws: What `configure` or `body` throws (after the child is disposed).
    @available(
        *, noasync,
        message: "in async code, write `try await withChild`: it awaits the child's async hooks"
    )
    public func withChild<R>(
        _ configure: (Container) throws -> Void,
        _ body: (Container) throws -> R
    ) throws -> R {
        let child = try child(configure)
        defer { child.dispose() }
        return try body(child)
    }
}

/// Runs `body` with `child`, then disposes of the child whether `body` returned or threw (a
/// cancelled task's error included), its async hooks awaited: the one body of both
/// containers' awaited `withChild`.
nonisolated(nonsending)
    private func runThenDispose<Child, R>(
        _ child: Child,
        _ body: nonisolated(nonsending) (Child) async throws -> R,
        dispose: nonisolated(nonsending) (Child) async -> Void
    ) async throws -> R
{
    let result: Result<R, any Error>
    do {
        result = .success(try await body(child))
    } catch {
        result = .failure(error)
    }
    await dispose(child)
    return try result.get()
}
