#if Macros
    import Frost
    import FrostMacros
    import Testing

    // The code of the article "Registration without boilerplate" (Frost.docc) and of the README's
    // `@Injectable` block, as written: Scripts/readme-check.sh compares them.

    protocol Mailer: Sendable {}
    final class SMTPMailer: Mailer {}

    final class OrderStore: Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    // snippet injectable-types: begin
    @Injectable
    final class OrderService {
        let store: OrderStore
        let mailer: any Mailer

        init(store: OrderStore, mailer: any Mailer) {
            self.store = store
            self.mailer = mailer
        }
    }

    @Injectable(names: ["store": "archive"])
    final class ArchiveJob {
        let store: OrderStore
        let mailer: Lazy<any Mailer>

        init(store: OrderStore, mailer: Lazy<any Mailer>) {
            self.store = store
            self.mailer = mailer
        }
    }

    @Injectable
    final class OrderScreen {
        @Injected var orders: OrderService
        let preview: Bool

        @Inject init() { preview = false }
        init(preview: Bool) { self.preview = preview }
    }
    // snippet injectable-types: end

    // snippet readme-macros-types: begin
    @Injectable(names: ["db": "replica"])
    final class NightlyReport {
        @Injected var logger: any Logger
        let db: Database

        init(db: Database) { self.db = db }
    }
    // snippet readme-macros-types: end

    @Suite("The documentation's @Injectable code")
    struct MacroDocumentationTests {
        @Test func theArticleRegistersAndResolves() throws {
            // snippet injectable-registration: begin
            let container = Container()
            container.register(instance: OrderStore(name: "live"))
            container.register(instance: OrderStore(name: "archive"), name: "archive")
            container.register(Mailer.self) { _ in SMTPMailer() }.scope(.singleton)
            container.autowire(OrderService.self)
            container.autowire(ArchiveJob.self).scope(.singleton)
            container.autowire(OrderScreen.self)

            let frozen = try container.freeze()
            let screen = try frozen.resolve(OrderScreen.self)
            #expect(screen.orders.store.name == "live")
            #expect(!screen.preview)
            #expect(try frozen.resolve(ArchiveJob.self).store.name == "archive")
            // snippet injectable-registration: end
        }

        @Test func theReadmeAutowiresAnInjectableType() throws {
            let container = Container()
            container.register(Logger.self) { _ in ConsoleLogger() }.scope(.singleton)
            container.register(Database.self, name: "replica") { _ in Database(label: "replica") }
                .scope(.singleton)
            // snippet readme-macros: begin
            container.autowire(NightlyReport.self).scope(.singleton)
            let frozen = try container.freeze()
            let report = try frozen.resolve(NightlyReport.self)
            // snippet readme-macros: end
            #expect(report.db.label == "replica")
            #expect(report.logger === (try frozen.resolve(Logger.self)))
        }
    }
#endif
