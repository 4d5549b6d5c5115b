import ArgumentParser

/// `frost-todo`: a todo list kept in a JSON file, wired with Frost.
///
/// ```sh
/// frost-todo add "Buy milk" --file /tmp/todos.json
/// frost-todo list --file /tmp/todos.json
/// ```
public struct FrostTodo: AsyncParsableCommand {
    /// The command's name, summary and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "frost-todo",
        abstract: "A todo list in a JSON file, wired with Frost.",
        subcommands: [AddCommand.self, ListCommand.self]
    )

    /// Creates the command; ArgumentParser calls it when it parses the arguments.
    public init() {}
}
