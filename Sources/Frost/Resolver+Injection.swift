extension Resolver {
    /// Fills the unset `@Injected` and `@LazyInjected` properties of an object the container
    /// did not create, through its whole class hierarchy; set properties are left alone.
    ///
    /// ```swift
    /// let screen = Screen()            // made by a storyboard, a framework, a test
    /// try frozen.inject(into: screen)
    /// ```
    ///
    /// The first injection into a class reflects it once; later ones reuse that plan. Called on
    /// the resolver a factory receives, it resolves in the container the factory's registration
    /// is resolved in, and `@LazyInjected` properties resolve from that container later.
    ///
    /// - Parameters:
    ///   - object: The object to fill.
    ///   - ignoring: Names of properties to leave alone (without the wrapper's underscore).
    /// - Throws: ``FrostError`` with ``FrostError/Code/nothingToInject`` when the object's class
    ///   has no injectable property, or the errors of resolving a property's type.
    public func inject(into object: AnyObject, ignoring: Set<String> = []) throws(FrostError) {
        let type: AnyClass = Swift.type(of: object)
        let plan = InjectionPlan.of(type)
        guard !plan.fields.isEmpty else {
            throw FrostError(
                .nothingToInject,
                key: RegistrationKey(type, name: nil),
                detail: "it has no @Injected or @LazyInjected property"
            )
        }
        do {
            try plan.inject(into: object, resolver: self, ignoring: ignoring)
        } catch {
            throw error.prepending(RegistrationKey(type, name: nil))
        }
    }
}
