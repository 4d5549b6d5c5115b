import Frost
import Testing

// The code of "Migrating from Swinject and Dip"
// (Sources/Frost/Frost.docc/MigratingFromSwinject.md): `make readme-check` checks that each
// block between the "snippet" markers is the article's, character for character. Each test
// checks what the article says of its code; the last one compiles the Frost side of its tables.

@Suite("Migrating from Swinject and Dip snippets", .timeLimit(.minutes(1)))
struct MigrationArticleTests {
    @Test func objectsThatPointAtEachOtherAreWiredFromEitherSide() throws {
        // snippet migrating-delegate: begin
        let container = Container(defaultScope: .graph)  // Swinject's and Dip's default
        container.autowire(Interactor.self, Interactor.init(client:))
            .implements(NetworkClientDelegate.self)
        container.register(NetworkClient.self) { _ in NetworkClient() }
            .onCreate { r, client in client.delegate = try r.resolve(NetworkClientDelegate.self) }

        let frozen = try container.freeze()
        let interactor = try frozen.resolve(Interactor.self)  // its client's delegate is itself
        // snippet migrating-delegate: end
        #expect(interactor.client.delegate === interactor)
        // The property side resolved on its own in .graph scope: its weak delegate is gone
        // once the resolve returns, as nothing else holds the interactor.
        #expect(try frozen.resolve(NetworkClient.self).delegate == nil)

        // In singleton scope, either side, resolved first, gives the one pair.
        let singletons = Container(defaultScope: .singleton)
        singletons.autowire(Interactor.self, Interactor.init(client:))
            .implements(NetworkClientDelegate.self)
        singletons.register(NetworkClient.self) { _ in NetworkClient() }
            .onCreate { r, client in client.delegate = try r.resolve(NetworkClientDelegate.self) }
        let app = try singletons.freeze()
        let client = try app.resolve(NetworkClient.self)
        let shared = try app.resolve(Interactor.self)
        #expect(client.delegate === shared && shared.client === client)
    }

    @Test func dipsScopesByName() async throws {
        // snippet migrating-dip-scopes: begin
        let container = Container(defaultScope: .graph)  // Dip's default, .shared
        container.register(Draft.self) { _ in Draft() }.scope(.transient)  // .unique
        container.register(APIClient.self) { _ in APIClient() }  // .shared
        container.register(ImageCache.self) { _ in ImageCache() }.scope(.weak)  // .weakSingleton
        container.register(Store.self) { _ in Store() }.scope(.singleton).lazy()  // .singleton
        container.register(Tracker.self) { _ in Tracker() }.scope(.singleton)  // .eagerSingleton

        let frozen = try container.freeze()  // no more registrations, as after Dip's bootstrap()
        try await frozen.bootstrap()  // makes Tracker, not Store
        // snippet migrating-dip-scopes: end
        #expect(frozen.createdSingletons(of: Tracker.self).count == 1)
        #expect(frozen.createdSingletons(of: Store.self).isEmpty)
        let store = try await frozen.resolve(Store.self)
        #expect(try await frozen.resolve(Store.self) === store)
        #expect(try await frozen.resolve(Draft.self) !== frozen.resolve(Draft.self))
        #expect(try await frozen.resolve(APIClient.self) !== frozen.resolve(APIClient.self))
        let cache = try await frozen.resolve(ImageCache.self)
        #expect(try await frozen.resolve(ImageCache.self) === cache)

        // A registration made on the container after freeze() does not reach the frozen one.
        container.register(instance: "late")
        #expect(frozen.contains(String.self) == false)
    }

    @Test func aNameDoesNotFallBackToTheUnnamedRegistration() throws {
        let container = Container()
        // snippet migrating-dip-fallback: begin
        container.register(Layout.self) { _ in StandardLayout() }
            .alias("tablet")  // resolve(Layout.self, name: "tablet") answers this registration
        container.register(Layout.self, name: "phone") { _ in CompactLayout() }
        // snippet migrating-dip-fallback: end
        let frozen = try container.freeze()
        #expect(try frozen.resolve(Layout.self, name: "tablet") is StandardLayout)
        #expect(try frozen.resolve(Layout.self, name: "phone") is CompactLayout)
        #expect(try frozen.resolve(Layout.self) is StandardLayout)
        let error = #expect(throws: FrostError.self) {
            try frozen.resolve(Layout.self, name: "watch")
        }
        #expect(error?.code == .notRegistered)
    }

    @Test func factoriesAreToldApartByNameNotByArgumentType() throws {
        let container = Container()
        // snippet migrating-dip-arguments: begin
        container.register(Avatar.self, name: "by-id") { _, id in Avatar(id: id) }
        container.register(Avatar.self, name: "by-url") { _, url in Avatar(url: url) }

        let frozen = try container.freeze()
        let avatar = try frozen.resolve(Avatar.self, name: "by-id", argument: 42)
        // snippet migrating-dip-arguments: end
        #expect(avatar.source == "id 42")
        let byURL = try frozen.resolve(Avatar.self, name: "by-url", argument: "a.png")
        #expect(byURL.source == "a.png")

        // Under one key, the second factory replaces the first, whatever its argument types.
        let unnamed = Container()
        unnamed.register(Avatar.self) { _, id in Avatar(id: id) }
        unnamed.register(Avatar.self) { _, url in Avatar(url: url) }
        let app = try unnamed.freeze()
        #expect(try app.resolve(Avatar.self, argument: "b.png").source == "b.png")
        let error = #expect(throws: FrostError.self) { try app.resolve(Avatar.self, argument: 7) }
        #expect(error?.code == .argumentMismatch)
    }

    // MARK: The tables' Frost spellings

    protocol Service: Sendable {}
    final class ServiceImp: Service {
        let api: APIClient
        init(api: APIClient) { self.api = api }
    }
    final class Screen: @unchecked Sendable {
        // @unchecked: filled once, by the container, before it is shared.
        @Injected var api: APIClient
        var draft: Draft?
        init() {}
    }

    @Test func theTablesFrostSpellingsCompileAndDoWhatTheySay() async throws {
        let container = Container(defaultScope: .graph)
        container.register(APIClient.self) { _ in APIClient() }
        container.autowire(Service.self, ServiceImp.init(api:))
        container.register(Service.self, name: "x") { r in ServiceImp(api: try r.resolve()) }
        container.register(Draft.self) { _ in Draft() }.scope(.transient)
        container.register(Screen.self) { _ in Screen() }
            .inject(\.draft)
            .onCreate { r, screen in _ = try r.resolve(APIClient.self) }
        container.register(Store.self) { _ in Store() }.scope(.singleton).lazy()
        container.register(Avatar.self) { _, id in Avatar(id: id) }
        let frozen = try container.freeze()
        try await frozen.bootstrap()

        #expect(try await frozen.resolve(Service.self) is ServiceImp)
        #expect(try await frozen.resolve(Service.self, name: "x") is ServiceImp)
        let screen = try await frozen.resolve(Screen.self)
        #expect(screen.draft != nil)
        _ = screen.api  // filled on creation
        #expect(try await frozen.resolve(Avatar.self, argument: 42).source == "id 42")
        #expect(frozen.createdSingletons(of: Store.self).isEmpty)

        let existing = Screen()
        try frozen.inject(into: existing)
        _ = existing.api
    }
}
