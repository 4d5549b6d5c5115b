#if Macros
    import Foundation
    import Frost
    import FrostMacros
    import Testing

    // The types the behaviour tests register: each made `Injectable` by the macro, as a user
    // writes it.

    protocol Logger: AnyObject, Sendable {}
    final class ConsoleLogger: Logger {}

    final class Database: Sendable {
        let label: String
        init(label: String) { self.label = label }
    }

    final class Cache: Sendable {}
    final class Token: Sendable {}
    final class Auditor: Sendable {}
    final class Unregistered: Sendable {}

    @Injectable
    final class UserService: Sendable {
        let logger: any Logger
        let db: Database

        init(logger: any Logger, db: Database) {
            self.logger = logger
            self.db = db
        }
    }

    /// A label bound to a name, and every wrapper a parameter can take.
    @Injectable(names: ["db": "replica", "audit": "audit"])
    final class ReportJob: Sendable {
        let db: Database
        let cache: Lazy<Cache>
        let tokens: Provider<Token>
        let audit: Auditor?
        let service: UserService

        init(
            db: Database, cache: Lazy<Cache>, tokens: Provider<Token>, audit: Auditor?,
            _ service: UserService
        ) {
            self.db = db
            self.cache = cache
            self.tokens = tokens
            self.audit = audit
            self.service = service
        }
    }

    /// Named `Lazy` and Optional parameters: resolved under their names.
    @Injectable(names: ["backup": "replica", "spare": "replica"])
    final class Failover: Sendable {
        let backup: Lazy<Database>
        let spare: Database?

        init(backup: Lazy<Database>, spare: Database?) {
            self.backup = backup
            self.spare = spare
        }
    }

    /// Properties filled by the members injector, and an initializer chosen among several.
    @Injectable
    final class Screen: @unchecked Sendable {
        // @unchecked: filled once, on creation, before the container hands it out.
        @Injected var service: UserService
        @Injected(name: "replica") var db: Database
        @LazyInjected var logger: any Logger
        let preview: Bool

        @Inject init() { preview = false }
        init(preview: Bool) { self.preview = preview }
    }

    /// A struct: made by its initializer, its `@Injected` property filled too.
    @Injectable
    struct Panel {
        @Injected var logger: any Logger
        let service: UserService

        init(service: UserService) { self.service = service }
    }

    /// Needs what nothing registers, one level below what is resolved.
    @Injectable
    final class Needy: Sendable {
        init(missing: Unregistered) {}
    }

    @Injectable
    final class Top: Sendable {
        let needy: Needy
        init(needy: Needy) { self.needy = needy }
    }

    /// The delegate pattern: the client takes its server in its initializer, the server gets its
    /// client through an `@Injected` property. Optional, so that a test can break the pair.
    @Injectable
    final class Server: @unchecked Sendable {
        // @unchecked: filled once, by the container, before the pair is handed out.
        @Injected var client: Client?
        init() {}

        func unpair() { client = nil }
    }

    @Injectable
    final class Client: Sendable {
        let server: Server
        init(server: Server) { self.server = server }
    }

    /// A class that may have subclasses: its initializer is required, and a subclass made by
    /// its factory gets its own `@Injected` properties filled too.
    @Injectable
    class BaseScreen: @unchecked Sendable {
        // @unchecked: filled once, on creation, before the container hands it out.
        @Injected var service: UserService
        required init() {}
    }

    final class DetailScreen: BaseScreen, @unchecked Sendable {
        @Injected var logger: any Logger
    }

    /// The containers a test resolves through.
    enum Mode: String, CaseIterable, CustomTestStringConvertible {
        case dictionary
        case frozen
        case child

        var testDescription: String { rawValue }

        func resolver(_ container: Container) throws -> any Resolver {
            switch self {
            case .dictionary: container
            case .frozen: try container.freeze()
            case .child: try container.freeze().child { _ in }
            }
        }
    }
#endif
