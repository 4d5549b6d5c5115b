import ArgumentParser

/// A subcommand whose whole output is one string: ``run()`` prints it, and a test reads it.
protocol TodoCommand: AsyncParsableCommand {
    /// What the command prints.
    func output() async throws -> String
}

extension TodoCommand {
    /// Prints ``output()``.
    func run() async throws {
        print(try await output())
    }
}
