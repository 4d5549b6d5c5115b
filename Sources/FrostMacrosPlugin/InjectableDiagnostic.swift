#if Macros
    import SwiftDiagnostics
    import SwiftSyntax

    /// The errors `@Injectable` and `@Inject` report: what one type shows that cannot be autowired.
    enum InjectableDiagnostic: DiagnosticMessage {
        case notClassOrStruct(kind: String)
        case noInitializer
        case severalUnmarked(count: Int)
        case severalMarked
        case failable
        case async
        case notFinal(name: String)
        case notAKey(key: String, reason: String)
        case namesNotLiteral
        case unknownLabel(key: String, labels: [String])
        case untypedMember(property: String)
        case injectNotOnInitializer

        var message: String {
            switch self {
            case .notClassOrStruct(let kind):
                "@Injectable applies to a class or a struct, not to \(kind)"
            case .noInitializer:
                "@Injectable reads an initializer, and this type declares none"
            case .severalUnmarked(let count):
                "@Injectable reads one initializer: this type declares \(count); mark the one to "
                    + "use with @Inject"
            case .severalMarked:
                "only one initializer may be marked @Inject"
            case .failable:
                "@Injectable cannot read a failable initializer: the container needs an instance"
            case .async:
                "@Injectable cannot read an async initializer: autowire makes instances synchronously"
            case .notFinal(let name):
                "@Injectable makes instances of '\(name)' with 'Self(…)': the class must be final, "
                    + "or its initializer required"
            case .notAKey(let key, let reason):
                "parameter '\(key)' cannot be resolved by its type: \(reason)"
            case .namesNotLiteral:
                "@Injectable(names:) takes a dictionary literal of string literals, label to name"
            case .unknownLabel(let key, let labels):
                "'\(key)' is no parameter label of the initializer"
                    + (labels.isEmpty
                        ? ", which takes none" : " (\(labels.joined(separator: ", ")))")
            case .untypedMember(let property):
                "@Injectable needs the type of '\(property)' written, to declare it to freeze()"
            case .injectNotOnInitializer:
                "@Inject marks the initializer @Injectable reads; it applies to an initializer only"
            }
        }

        var diagnosticID: MessageID {
            let id =
                switch self {
                case .notClassOrStruct: "notClassOrStruct"
                case .noInitializer: "noInitializer"
                case .severalUnmarked: "severalUnmarked"
                case .severalMarked: "severalMarked"
                case .failable: "failable"
                case .async: "async"
                case .notFinal: "notFinal"
                case .notAKey: "notAKey"
                case .namesNotLiteral: "namesNotLiteral"
                case .unknownLabel: "unknownLabel"
                case .untypedMember: "untypedMember"
                case .injectNotOnInitializer: "injectNotOnInitializer"
                }
            return MessageID(domain: "FrostMacros", id: id)
        }

        var severity: DiagnosticSeverity { .error }
    }

    /// The fix-its of ``InjectableDiagnostic``.
    enum InjectableFixIt: FixItMessage {
        case removeInjectable
        case removeAttribute(named: String)
        case addInitializer
        case markInject(signature: String)
        case removeInject
        case removeOptionalMark
        case removeAsync
        case addFinal
        case variadicToArray
        case removeInout
        case removeIsolated
        case addEscaping
        case someToAny
        case useLabel(String)

        var message: String {
            switch self {
            case .removeInjectable: "Remove '@Injectable'"
            case .removeAttribute(let name): "Remove '@\(name)'"
            case .addInitializer: "Add an initializer of the stored properties"
            case .markInject(let signature): "Mark '\(signature)' with @Inject"
            case .removeInject: "Remove this '@Inject'"
            case .removeOptionalMark: "Make the initializer non-failable"
            case .removeAsync: "Remove 'async'"
            case .addFinal: "Make the class final"
            case .variadicToArray: "Take an array instead"
            case .removeInout: "Remove 'inout'"
            case .removeIsolated: "Remove 'isolated'"
            case .addEscaping: "Add '@escaping'"
            case .someToAny: "Replace 'some' with 'any'"
            case .useLabel(let label): "Use '\(label)'"
            }
        }

        var fixItID: MessageID {
            MessageID(domain: "FrostMacros", id: "\(self)")
        }
    }

    extension FixIt.Change {
        /// Removes `node`, keeping the trivia before it.
        static func remove(_ node: some SyntaxProtocol) -> Self {
            .replace(
                oldNode: Syntax(node),
                newNode: Syntax(
                    TokenSyntax(
                        .stringSegment(""), leadingTrivia: node.leadingTrivia, presence: .present))
            )
        }
    }
#endif
