import ArgumentParser

/// The option every subcommand takes: which file holds the todos.
struct FileOptions: ParsableArguments {
    @Option(help: "The JSON file that holds the todos.")
    var file = "todos.json"
}
