import TodoCLI

/// The `frost-todo` executable: ArgumentParser parses the arguments and runs the subcommand.
@main
extension FrostTodo {}
