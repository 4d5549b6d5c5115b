#if Macros
    import SwiftDiagnostics
    import SwiftSyntax
    import SwiftSyntaxBuilder
    import SwiftSyntaxMacros

    /// `@Injectable`: makes a class or a struct `Frost.Injectable` from its initializer.
    ///
    /// The member part writes `injectableParameters`, `makeInjectable(_:)` and, when the type has
    /// `@Injected`/`@LazyInjected` properties, `injectableMembers` and `injectMembers(from:)`; the
    /// extension part adds the conformance. Whatever the type shows that cannot work is diagnosed
    /// by the member part (once), with fix-its, and then nothing is generated.
    public struct InjectableMacro: MemberMacro, ExtensionMacro {
        /// The requirements of `Frost.Injectable`, read from the type's initializer and its
        /// injected properties; nothing, after diagnosing why, when the type cannot be autowired.
        public static func expansion(
            of node: AttributeSyntax,
            providingMembersOf declaration: some DeclGroupSyntax,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            guard let type = InjectableType(declaration, attribute: node, report: context.diagnose)
            else {
                return []
            }
            return type.generatedMembers()
        }

        /// The conformance to `Frost.Injectable`, where the member part generates its
        /// requirements.
        public static func expansion(
            of node: AttributeSyntax,
            attachedTo declaration: some DeclGroupSyntax,
            providingExtensionsOf type: some TypeSyntaxProtocol,
            conformingTo protocols: [TypeSyntax],
            in context: some MacroExpansionContext
        ) throws -> [ExtensionDeclSyntax] {
            // Only where the member part generates the requirements (it reports what is wrong).
            guard !protocols.isEmpty,
                InjectableType(declaration, attribute: node, report: { _ in }) != nil
            else { return [] }
            let conformance: DeclSyntax = "extension \(type.trimmed): Frost.Injectable {}"
            return conformance.as(ExtensionDeclSyntax.self).map { [$0] } ?? []
        }
    }

    /// What `@Injectable` read of one type: its initializer's parameters, its injected properties,
    /// and the access its generated members need. `nil` (after diagnosing why) when the macro
    /// cannot generate anything valid.
    struct InjectableType {
        /// One parameter of the initializer.
        struct Parameter {
            /// The argument label in a call (`nil` for `_`).
            let callLabel: String?
            /// The label `names:` binds (the parameter's name when it has no label).
            let key: String
            /// The type resolved, as an expression's type (`(any Logger)`).
            let type: String
            /// The registration name `names:` binds it to.
            var name: String?
        }

        /// One `@Injected` or `@LazyInjected` property.
        struct Member {
            let property: String
            /// The type its dependency is declared as: `Lazy<T>` for a `@LazyInjected` one.
            let dependencyType: String
            /// The `name:` argument's expression, as written.
            let name: String?
        }

        let access: String
        /// The name of a class that may have subclasses (not final); `nil` otherwise.
        let openClass: String?
        /// Whether the initializer throws.
        let throwing: Bool
        let parameters: [Parameter]
        let members: [Member]

        init?(
            _ declaration: some DeclGroupSyntax, attribute: AttributeSyntax,
            report: (Diagnostic) -> Void
        ) {
            guard declaration.is(ClassDeclSyntax.self) || declaration.is(StructDeclSyntax.self)
            else {
                report(
                    Diagnostic(
                        node: attribute,
                        message: InjectableDiagnostic.notClassOrStruct(
                            kind: Self.kind(of: declaration)),
                        fixIt: FixIt(
                            message: InjectableFixIt.removeInjectable,
                            changes: [.remove(attribute)]
                        )
                    ))
                return nil
            }
            access = Self.access(of: declaration)
            if let classDecl = declaration.as(ClassDeclSyntax.self),
                !classDecl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) })
            {
                openClass = classDecl.name.text
            } else {
                openClass = nil
            }
            var valid = true
            // The members to read.
            guard
                let initializer = Self.initializer(
                    of: declaration, attribute: attribute, report: report)
            else { return nil }
            if initializer.optionalMark != nil {
                report(
                    Diagnostic(
                        node: initializer.initKeyword,
                        message: InjectableDiagnostic.failable,
                        fixIt: FixIt(
                            message: InjectableFixIt.removeOptionalMark,
                            changes: [.remove(initializer.optionalMark!)]
                        )
                    ))
                valid = false
            }
            let effects = initializer.signature.effectSpecifiers
            throwing = effects?.throwsClause != nil
            if let async = effects?.asyncSpecifier {
                report(
                    Diagnostic(
                        node: async,
                        message: InjectableDiagnostic.async,
                        fixIt: FixIt(
                            message: InjectableFixIt.removeAsync,
                            changes: [.remove(async)]
                        )
                    ))
                valid = false
            }
            if let classDecl = declaration.as(ClassDeclSyntax.self),
                !classDecl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }),
                !initializer.modifiers.contains(where: { $0.name.tokenKind == .keyword(.required) })
            {
                // `Self(…)` in a class that may have subclasses needs a required initializer.
                report(
                    Diagnostic(
                        node: classDecl.classKeyword,
                        message: InjectableDiagnostic.notFinal(name: classDecl.name.text),
                        fixIt: FixIt(
                            message: InjectableFixIt.addFinal,
                            changes: [
                                .replace(
                                    oldNode: Syntax(classDecl.classKeyword),
                                    newNode: Syntax(
                                        TokenSyntax.identifier(
                                            "final class",
                                            leadingTrivia: classDecl.classKeyword.leadingTrivia,
                                            trailingTrivia: classDecl.classKeyword.trailingTrivia))
                                )
                            ]
                        )
                    ))
                valid = false
            }

            var parameters: [Parameter] = []
            for parameter in initializer.signature.parameterClause.parameters {
                guard let read = Self.parameter(parameter, report: report) else {
                    valid = false
                    continue
                }
                parameters.append(read)
            }
            if !Self.bind(names: attribute, to: &parameters, report: report) { valid = false }
            guard let members = Self.members(of: declaration, report: report) else { return nil }
            guard valid else { return nil }
            self.parameters = parameters
            self.members = members
        }

        // MARK: Generating

        func generatedMembers() -> [DeclSyntax] {
            let dependencies = parameters.map { parameter in
                let name = parameter.name.map { ", name: \(Self.literal($0))" } ?? ""
                return
                    "Frost.InjectableDependency(\(parameter.type).self\(name), label: \(Self.literal(parameter.key)))"
            }
            let arguments = parameters.enumerated().map { index, parameter in
                let label = parameter.callLabel.map { "\($0): " } ?? ""
                let name = parameter.name.map { ", name: \(Self.literal($0))" } ?? ""
                return "\(label)parameters.parameter(\(parameter.type).self, at: \(index)\(name))"
            }
            var declarations: [DeclSyntax] = [
                """
                \(raw: access)static var injectableParameters: [Frost.InjectableDependency] {
                    [\(raw: Self.list(dependencies))]
                }
                """,
                """
                \(raw: access)static func makeInjectable(_ parameters: Frost.InjectableParameters) throws -> Self {
                    \(raw: parameters.isEmpty && !throwing ? "" : "try ")Self(\(raw: Self.list(arguments)))
                }
                """,
            ]
            guard !members.isEmpty else { return declarations }
            let memberDependencies = members.map { member in
                let name = member.name.map { ", name: \($0)" } ?? ""
                return
                    "Frost.InjectableDependency(\(member.dependencyType).self\(name), label: \(Self.literal(member.property)))"
            }
            var injections = members.map { member in
                // A `@LazyInjected` property only keeps the resolver: nothing to try.
                (member.dependencyType.hasPrefix("Frost.Lazy<") ? "" : "try ")
                    + "self._\(member.property).inject(from: resolver)"
            }
            if let openClass {
                // An instance of a subclass has wrappers of its own: filled as `inject(into:)`
                // fills them.
                injections.append(
                    "if type(of: self) != \(openClass).self { try resolver.inject(into: self) }")
            }
            declarations.append(
                """
                \(raw: access)static var injectableMembers: [Frost.InjectableDependency] {
                    [\(raw: Self.list(memberDependencies))]
                }
                """)
            declarations.append(
                """
                \(raw: access)func injectMembers(from resolver: any Frost.Resolver) throws(Frost.FrostError) {
                \(raw: injections.map { "    " + $0 }.joined(separator: "\n"))
                }
                """)
            return declarations
        }

        /// `items` one a line, as the body of brackets or parentheses opened on a line indented
        /// once in the generated declaration.
        private static func list(_ items: [String]) -> String {
            guard !items.isEmpty else { return "" }
            return "\n" + items.map { "        " + $0 }.joined(separator: ",\n") + "\n    "
        }

        private static func literal(_ text: String) -> String {
            StringLiteralExprSyntax(content: text).description
        }

        // MARK: Reading

        private static func kind(of declaration: some DeclGroupSyntax) -> String {
            if declaration.is(EnumDeclSyntax.self) { return "an enum" }
            if declaration.is(ProtocolDeclSyntax.self) { return "a protocol" }
            if declaration.is(ActorDeclSyntax.self) { return "an actor" }
            if declaration.is(ExtensionDeclSyntax.self) { return "an extension" }
            return "this declaration"
        }

        /// `public ` for a public or open type, `package ` for a package one; nothing otherwise.
        private static func access(of declaration: some DeclGroupSyntax) -> String {
            for modifier in declaration.modifiers {
                switch modifier.name.tokenKind {
                case .keyword(.public), .keyword(.open): return "public "
                case .keyword(.package): return "package "
                default: continue
                }
            }
            return ""
        }

        /// The initializer to read, or `nil` after a diagnostic.
        private static func initializer(
            of declaration: some DeclGroupSyntax, attribute: AttributeSyntax,
            report: (Diagnostic) -> Void
        ) -> InitializerDeclSyntax? {
            let initializers = declaration.memberBlock.members.compactMap {
                $0.decl.as(InitializerDeclSyntax.self)
            }
            let marked = initializers.filter { $0.attributes.contains(where: isInject) }
            if marked.count == 1 { return marked[0] }
            if marked.count > 1 {
                for initializer in marked.dropFirst() {
                    let inject = initializer.attributes.first(where: isInject)!
                    report(
                        Diagnostic(
                            node: inject,
                            message: InjectableDiagnostic.severalMarked,
                            fixIt: FixIt(
                                message: InjectableFixIt.removeInject,
                                changes: [.remove(inject)]
                            )
                        ))
                }
                return nil
            }
            if initializers.count == 1 { return initializers[0] }
            if initializers.isEmpty {
                report(
                    Diagnostic(
                        node: attribute,
                        message: InjectableDiagnostic.noInitializer,
                        fixIt: FixIt(
                            message: InjectableFixIt.addInitializer,
                            changes: [
                                .replace(
                                    oldNode: Syntax(declaration.memberBlock),
                                    newNode: Syntax(
                                        memberwiseInitializerAdded(to: declaration.memberBlock))
                                )
                            ]
                        )
                    ))
                return nil
            }
            report(
                Diagnostic(
                    node: attribute,
                    message: InjectableDiagnostic.severalUnmarked(count: initializers.count),
                    fixIts: initializers.map { initializer in
                        FixIt(
                            message: InjectableFixIt.markInject(
                                signature: signature(of: initializer)),
                            changes: [
                                .replace(
                                    oldNode: Syntax(initializer),
                                    newNode: Syntax(
                                        DeclSyntax("@Inject \(initializer.trimmed)")
                                            .with(\.leadingTrivia, initializer.leadingTrivia)
                                            .with(\.trailingTrivia, initializer.trailingTrivia))
                                )
                            ]
                        )
                    }
                ))
            return nil
        }

        private static func isInject(_ element: AttributeListSyntax.Element) -> Bool {
            guard case .attribute(let attribute) = element else { return false }
            let name = attribute.attributeName.trimmedDescription
            return name == "Inject" || name == "FrostMacros.Inject"
        }

        /// `init(logger:db:)`.
        private static func signature(of initializer: InitializerDeclSyntax) -> String {
            let labels = initializer.signature.parameterClause.parameters.map {
                "\($0.firstName.text):"
            }
            return "init(\(labels.joined()))"
        }

        /// `block` with an initializer of the stored properties that have no value (the one a
        /// struct gets implicitly, which a macro cannot see), after its last member.
        private static func memberwiseInitializerAdded(to block: MemberBlockSyntax)
            -> MemberBlockSyntax
        {
            var parameters: [String] = []
            var assignments: [String] = []
            for member in block.members {
                guard let variable = member.decl.as(VariableDeclSyntax.self),
                    variable.attributes.isEmpty,
                    !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
                else { continue }
                for binding in variable.bindings
                where binding.initializer == nil && binding.accessorBlock == nil {
                    guard
                        let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier
                            .text,
                        let type = binding.typeAnnotation?.type.trimmedDescription
                    else { continue }
                    parameters.append("\(name): \(type)")
                    assignments.append("self.\(name) = \(name)")
                }
            }
            let body =
                assignments.isEmpty
                ? "{}" : "{\n" + assignments.map { "        " + $0 + "\n" }.joined() + "    }"
            let initializer = DeclSyntax(
                "init(\(raw: parameters.joined(separator: ", "))) \(raw: body)")
            var members = block.members
            members.append(MemberBlockItemSyntax(leadingTrivia: "\n\n    ", decl: initializer))
            return block.with(\.members, members)
        }

        /// One parameter, or `nil` after a diagnostic when its type cannot be a key.
        private static func parameter(
            _ parameter: FunctionParameterSyntax, report: (Diagnostic) -> Void
        ) -> Parameter? {
            let first = parameter.firstName.text
            let key = first == "_" ? (parameter.secondName?.text ?? first) : first
            if let ellipsis = parameter.ellipsis {
                report(
                    Diagnostic(
                        node: parameter,
                        message: InjectableDiagnostic.notAKey(
                            key: key, reason: "a variadic parameter takes any number of values"),
                        fixIt: FixIt(
                            message: InjectableFixIt.variadicToArray,
                            changes: [
                                .replace(
                                    oldNode: Syntax(parameter),
                                    newNode: Syntax(
                                        parameter
                                            .with(\.ellipsis, nil)
                                            .with(
                                                \.type,
                                                TypeSyntax(
                                                    ArrayTypeSyntax(element: parameter.type.trimmed)
                                                )
                                            )
                                            .with(\.trailingComma, parameter.trailingComma)
                                    )
                                )
                            ]
                        )
                    ))
                _ = ellipsis
                return nil
            }
            var type = parameter.type
            if let attributed = type.as(AttributedTypeSyntax.self) {
                for specifier in attributed.specifiers {
                    guard case .simpleTypeSpecifier(let simple) = specifier else { continue }
                    switch simple.specifier.tokenKind {
                    case .keyword(.inout):
                        report(
                            Diagnostic(
                                node: simple,
                                message: InjectableDiagnostic.notAKey(
                                    key: key,
                                    reason: "an inout parameter is no value the container can give"),
                                fixIt: FixIt(
                                    message: InjectableFixIt.removeInout,
                                    changes: [
                                        .replace(
                                            oldNode: Syntax(type),
                                            newNode: Syntax(attributed.baseType))
                                    ]
                                )
                            ))
                        return nil
                    case .keyword(.isolated):
                        report(
                            Diagnostic(
                                node: simple,
                                message: InjectableDiagnostic.notAKey(
                                    key: key,
                                    reason:
                                        "an isolated parameter is an actor's isolation, not a dependency"
                                ),
                                fixIt: FixIt(
                                    message: InjectableFixIt.removeIsolated,
                                    changes: [
                                        .replace(
                                            oldNode: Syntax(type),
                                            newNode: Syntax(attributed.baseType))
                                    ]
                                )
                            ))
                        return nil
                    default:
                        continue  // consuming, borrowing, __owned, sending: the type is the key
                    }
                }
                if let autoclosure = attributed.attributes.first(where: {
                    Self.named($0, "autoclosure")
                }) {
                    report(
                        Diagnostic(
                            node: autoclosure,
                            message: InjectableDiagnostic.notAKey(
                                key: key,
                                reason:
                                    "an @autoclosure parameter is an expression, not a dependency"),
                            fixIt: FixIt(
                                message: InjectableFixIt.removeAttribute(named: "autoclosure"),
                                changes: [.remove(autoclosure)]
                            )
                        ))
                    return nil
                }
                let escaping = attributed.attributes.contains { Self.named($0, "escaping") }
                let kept = attributed.attributes.filter { !Self.named($0, "escaping") }
                if attributed.baseType.is(FunctionTypeSyntax.self), escaping {
                    type =
                        kept.isEmpty
                        ? attributed.baseType
                        : TypeSyntax(attributed.with(\.specifiers, []).with(\.attributes, kept))
                } else if !attributed.specifiers.isEmpty {
                    type =
                        attributed.attributes.isEmpty
                        ? attributed.baseType
                        : TypeSyntax(attributed.with(\.specifiers, []))
                }
                if attributed.baseType.is(FunctionTypeSyntax.self), !escaping {
                    diagnoseNonEscaping(parameter, key: key, report: report)
                    return nil
                }
            } else if type.is(FunctionTypeSyntax.self) {
                diagnoseNonEscaping(parameter, key: key, report: report)
                return nil
            }
            if let opaque = type.as(SomeOrAnyTypeSyntax.self),
                opaque.someOrAnySpecifier.tokenKind == .keyword(.some)
            {
                report(
                    Diagnostic(
                        node: opaque,
                        message: InjectableDiagnostic.notAKey(
                            key: key, reason: "'some' hides the type to resolve"),
                        fixIt: FixIt(
                            message: InjectableFixIt.someToAny,
                            changes: [
                                .replace(
                                    oldNode: Syntax(opaque.someOrAnySpecifier),
                                    newNode: Syntax(
                                        TokenSyntax.keyword(.any, trailingTrivia: .space))
                                )
                            ]
                        )
                    ))
                return nil
            }
            return Parameter(
                callLabel: first == "_" ? nil : first, key: key, type: expressionType(type.trimmed),
                name: nil)
        }

        private static func diagnoseNonEscaping(
            _ parameter: FunctionParameterSyntax, key: String, report: (Diagnostic) -> Void
        ) {
            report(
                Diagnostic(
                    node: parameter.type,
                    message: InjectableDiagnostic.notAKey(
                        key: key,
                        reason: "a closure without @escaping cannot be kept by the container"),
                    fixIt: FixIt(
                        message: InjectableFixIt.addEscaping,
                        changes: [
                            .replace(
                                oldNode: Syntax(parameter.type),
                                newNode: Syntax(
                                    TypeSyntax("@escaping \(parameter.type.trimmed)")
                                        .with(\.leadingTrivia, parameter.type.leadingTrivia)
                                        .with(\.trailingTrivia, parameter.type.trailingTrivia))
                            )
                        ]
                    )
                ))
        }

        private static func named(_ element: AttributeListSyntax.Element, _ name: String) -> Bool {
            guard case .attribute(let attribute) = element else { return false }
            return attribute.attributeName.trimmedDescription == name
        }

        /// `type` as the operand of `.self`: parenthesized unless it is a plain name.
        private static func expressionType(_ type: TypeSyntax) -> String {
            if type.is(IdentifierTypeSyntax.self) || type.is(MemberTypeSyntax.self)
                || type.is(ArrayTypeSyntax.self) || type.is(DictionaryTypeSyntax.self)
                || (type.is(OptionalTypeSyntax.self)
                    && type.as(OptionalTypeSyntax.self)!.wrappedType.is(IdentifierTypeSyntax.self))
            {
                return type.description
            }
            return "(\(type.description))"
        }

        /// Binds the `names:` argument's labels to the parameters; false after a diagnostic.
        private static func bind(
            names attribute: AttributeSyntax, to parameters: inout [Parameter],
            report: (Diagnostic) -> Void
        ) -> Bool {
            guard case .argumentList(let arguments) = attribute.arguments,
                let names = arguments.first(where: { $0.label?.text == "names" })
            else { return true }
            guard let dictionary = names.expression.as(DictionaryExprSyntax.self) else {
                report(
                    Diagnostic(
                        node: names.expression, message: InjectableDiagnostic.namesNotLiteral))
                return false
            }
            guard case .elements(let elements) = dictionary.content else { return true }
            var valid = true
            for element in elements {
                guard let key = Self.stringLiteral(element.key),
                    let value = Self.stringLiteral(element.value)
                else {
                    report(Diagnostic(node: element, message: InjectableDiagnostic.namesNotLiteral))
                    valid = false
                    continue
                }
                guard let index = parameters.firstIndex(where: { $0.key == key }) else {
                    let labels = parameters.map(\.key)
                    report(
                        Diagnostic(
                            node: element.key,
                            message: InjectableDiagnostic.unknownLabel(key: key, labels: labels),
                            fixIts: labels.map { label in
                                FixIt(
                                    message: InjectableFixIt.useLabel(label),
                                    changes: [
                                        .replace(
                                            oldNode: Syntax(element.key),
                                            newNode: Syntax(
                                                StringLiteralExprSyntax(content: label)
                                                    .with(
                                                        \.leadingTrivia, element.key.leadingTrivia
                                                    )
                                                    .with(
                                                        \.trailingTrivia, element.key.trailingTrivia
                                                    ))
                                        )
                                    ]
                                )
                            }
                        ))
                    valid = false
                    continue
                }
                parameters[index].name = value
            }
            return valid
        }

        /// The value of a string literal without interpolation.
        private static func stringLiteral(_ expression: ExprSyntax) -> String? {
            guard let literal = expression.as(StringLiteralExprSyntax.self),
                literal.segments.count == 1,
                case .stringSegment(let segment) = literal.segments.first
            else { return nil }
            return segment.content.text
        }

        /// The `@Injected` and `@LazyInjected` stored properties, or `nil` after a diagnostic.
        private static func members(
            of declaration: some DeclGroupSyntax, report: (Diagnostic) -> Void
        ) -> [Member]? {
            var members: [Member] = []
            var valid = true
            for item in declaration.memberBlock.members {
                guard let variable = item.decl.as(VariableDeclSyntax.self),
                    !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
                else { continue }
                for element in variable.attributes {
                    guard case .attribute(let attribute) = element else { continue }
                    let wrapper =
                        attribute.attributeName.as(IdentifierTypeSyntax.self)?.name.text
                        ?? attribute.attributeName.as(MemberTypeSyntax.self)?.name.text
                    guard wrapper == "Injected" || wrapper == "LazyInjected" else { continue }
                    var name: String?
                    if case .argumentList(let arguments) = attribute.arguments,
                        let argument = arguments.first(where: { $0.label?.text == "name" })
                    {
                        name = argument.expression.trimmedDescription
                    }
                    for binding in variable.bindings {
                        guard
                            let property = binding.pattern.as(IdentifierPatternSyntax.self)?
                                .identifier.text
                        else { continue }
                        guard let type = binding.typeAnnotation?.type.trimmed else {
                            report(
                                Diagnostic(
                                    node: binding,
                                    message: InjectableDiagnostic.untypedMember(property: property))
                            )
                            valid = false
                            continue
                        }
                        let resolved = expressionType(type)
                        members.append(
                            Member(
                                property: property,
                                dependencyType: wrapper == "LazyInjected"
                                    ? "Frost.Lazy<\(type)>" : resolved,
                                name: name))
                    }
                }
            }
            return valid ? members : nil
        }
    }
#endif
