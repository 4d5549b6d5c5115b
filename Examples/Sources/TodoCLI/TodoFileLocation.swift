/// Where the todo file is: the `--file` option, registered as an instance.
struct TodoFileLocation: Sendable {
    var path: String
}
