import Foundation

/// The server's settings: read once at start-up and registered as an instance.
public struct AppConfig: Sendable {
    /// The address the server listens on.
    public var host: String
    /// The port the server listens on.
    public var port: Int
    /// The longest title a todo may have, in characters.
    public var maxTitleLength: Int

    /// Settings with the given values; the defaults suit local development.
    public init(host: String = "127.0.0.1", port: Int = 8080, maxTitleLength: Int = 200) {
        self.host = host
        self.port = port
        self.maxTitleLength = maxTitleLength
    }

    /// The defaults, with `HOST` and `PORT` taken from `environment` when set.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> AppConfig {
        var config = AppConfig()
        if let host = environment["HOST"] { config.host = host }
        if let port = environment["PORT"].flatMap(Int.init) { config.port = port }
        return config
    }
}
