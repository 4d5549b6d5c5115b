import ArgumentParser

/// `frost-todo list`: lists the todos.
struct ListCommand: TodoCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the todos.")

    @OptionGroup var options: FileOptions

    func output() async throws -> String {
        try await withTodoList(file: options.file) { list in await list.render() }
    }
}
