/// Implementation detail: the superclass of Frost's own generic classes (``Lazy``,
/// ``Injected``, ``LazyInjected``). Not API: do not use it.
///
/// Registration looks for these types among every autowired parameter and every stored
/// property of a registered class. Reading a class's superclass is one load from its metadata;
/// a cast to a protocol, the first time a type meets it, searches every conformance record in
/// the process.
public class _FrostClass: @unchecked Sendable {
    @usableFromInline init() {}
}
