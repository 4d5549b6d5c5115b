import ArgumentParser

/// `frost-todo add <title>`: adds a todo.
struct AddCommand: TodoCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a todo.")

    @Argument(help: "What there is to do.")
    var title: String

    @OptionGroup var options: FileOptions

    func output() async throws -> String {
        try await withTodoList(file: options.file) { list in try await list.add(title) }
    }
}
