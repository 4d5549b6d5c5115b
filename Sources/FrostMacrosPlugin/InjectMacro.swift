#if Macros
    import SwiftDiagnostics
    import SwiftSyntax
    import SwiftSyntaxMacros

    /// `@Inject`: marks the initializer `@Injectable` reads, among several. Expands to nothing;
    /// on anything but an initializer, an error.
    public struct InjectMacro: PeerMacro {
        /// Nothing; an error with a fix-it on anything but an initializer.
        public static func expansion(
            of node: AttributeSyntax,
            providingPeersOf declaration: some DeclSyntaxProtocol,
            in context: some MacroExpansionContext
        ) throws -> [DeclSyntax] {
            if !declaration.is(InitializerDeclSyntax.self) {
                context.diagnose(
                    Diagnostic(
                        node: node,
                        message: InjectableDiagnostic.injectNotOnInitializer,
                        fixIt: FixIt(
                            message: InjectableFixIt.removeAttribute(named: "Inject"),
                            changes: [.remove(node)]
                        )
                    ))
            }
            return []
        }
    }
#endif
