import Frost

// Types that the code of the "Lifetimes and scopes" article and of "Migrating from Swinject
// and Dip" uses, besides ApplicationTypes.swift's. (The delegate pattern's are in
// LifetimesArticleTests.swift, as the article shows them.)

/// What the `.graph` examples share within one resolve.
final class Session: Sendable {}

/// Two dependencies on one registration: the same `Session` in `.graph` scope.
final class Parts: Sendable {
    let first: Session
    let second: Session
    init(first: Session, second: Session) {
        self.first = first
        self.second = second
    }
}

/// A singleton a server rarely needs: left to its first resolve with `.lazy()`.
final class ReportGenerator: Sendable {
    let database: any Database
    init(database: any Database) { self.database = database }
}

/// An eager singleton that needs the lazy `ReportGenerator`: `bootstrap()` makes both.
final class NightlyReport: Sendable {
    let reports: ReportGenerator
    init(reports: ReportGenerator) { self.reports = reports }
}
