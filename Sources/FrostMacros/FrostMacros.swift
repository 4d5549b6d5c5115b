#if Macros
    import Frost

    /// Makes a class or a struct ``Frost/Injectable``: `container.autowire(T.self)` then registers
    /// it without being told its initializer.
    ///
    /// ```swift
    /// @Injectable(names: ["db": "replica"])
    /// final class ReportJob {
    ///     init(db: Database, clock: any Clock, cache: Lazy<Cache>) { … }
    /// }
    /// container.autowire(ReportJob.self).scope(.singleton)
    /// ```
    ///
    /// The macro reads the type's initializer — the only one, or the one marked ``Inject()`` — and
    /// writes a factory that resolves each parameter by its type (or from the registration that
    /// `names` binds its label to), the list of those dependencies, which `freeze()` checks
    /// without running anything, and, when the type has `@Injected` or `@LazyInjected`
    /// properties, a members injector that fills them directly on creation. What one type shows
    /// is checked as it compiles, with fix-its: no initializer, several and none marked, a `names`
    /// key that is no parameter's label, a parameter whose type cannot be a key (an `inout`, a
    /// closure without `@escaping`, a variadic, `some P`).
    ///
    /// - Parameters:
    ///   - names: Parameter labels (or, for a parameter without a label, its name) bound to
    ///     registration names: `["db": "replica"]` resolves `db` as
    ///     `resolve(Database.self, name: "replica")`.
    @attached(
        member,
        names: named(injectableParameters), named(injectableMembers), named(makeInjectable),
        named(injectMembers)
    )
    @attached(extension, conformances: Frost.Injectable)
    public macro Injectable(names: [String: String] = [:]) =
        #externalMacro(module: "FrostMacrosPlugin", type: "InjectableMacro")

    /// Marks the initializer ``Injectable(names:)`` reads, when the type has several. Expands to
    /// nothing.
    ///
    /// ```swift
    /// @Injectable
    /// final class Screen {
    ///     @Inject init() {}
    ///     init(preview: Bool) {}
    /// }
    /// ```
    @attached(peer)
    public macro Inject() = #externalMacro(module: "FrostMacrosPlugin", type: "InjectMacro")
#endif
