#if Macros
    import SwiftCompilerPlugin
    import SwiftSyntaxMacros

    /// The compiler plugin of `FrostMacros`: the macros it expands.
    @main
    struct FrostMacrosPlugin: CompilerPlugin {
        let providingMacros: [any Macro.Type] = [InjectableMacro.self, InjectMacro.self]
    }
#else
    /// Without the "Macros" trait the plugin expands nothing (a macro target is an executable, so
    /// it keeps an entry point).
    @main
    enum FrostMacrosPlugin {
        static func main() {}
    }
#endif
