extension FrozenContainer {
    /// The task's current container: the child that `withChild` runs its body with, or that
    /// FrostHummingbird's `RequestContainerMiddleware` made for the request being handled;
    /// `nil` outside any of them. Code deep in a handler resolves the request's objects from it
    /// without being handed the child:
    ///
    /// ```swift
    /// func auditLine() async throws -> String {  // not handed the request's child
    ///     guard let request = FrozenContainer.current else { return "no request" }
    ///     return "by \(try await request.resolve(CurrentUser.self).name)"
    /// }
    /// ```
    ///
    /// It is a task-local value (`@TaskLocal`): it is set for the duration of the body, seen
    /// by the tasks the body starts with `async let` or in a task group, and not by a `Task {}`
    /// detached from it or code that runs after the body returned. An inner `withChild` makes
    /// its own child current until its body returns, then the outer one is current again.
    /// Outside any child it is `nil`, never the application's container: a request's values
    /// are never confused with the application's, and `nil` says that no request is running.
    ///
    /// `Container`'s `withChild` leaves it as it is: a `Container` is for one thread, and the
    /// tasks a body starts could read it from others.
    ///
    /// `FrozenContainer.$current.withValue(container) { … }` makes `container` current for a
    /// block of code, a test's for instance. What it holds is disposed when its scope ends: do
    /// not keep it.
    @TaskLocal public static var current: FrozenContainer? = nil
}
