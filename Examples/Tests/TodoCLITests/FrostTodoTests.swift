import Foundation
import Frost
import Testing

@testable import TodoCLI

/// `frost-todo`'s commands, parsed as the executable parses them, against a temporary file.
@Suite struct FrostTodoTests {
    /// A file in a fresh temporary folder; the folder is removed with `body`'s end.
    func withTemporaryFile(_ body: (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("frost-todo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder.appendingPathComponent("todos.json").path)
    }

    /// Parses `arguments` as `frost-todo` does and returns what the command prints.
    func run(_ arguments: [String]) async throws -> String {
        let command = try #require(try FrostTodo.parseAsRoot(arguments) as? any TodoCommand)
        return try await command.output()
    }

    @Test(.timeLimit(.minutes(1)))
    func addThenList() async throws {
        try await withTemporaryFile { file in
            #expect(try await run(["list", "--file", file]) == "Nothing to do.")
            #expect(try await run(["add", "Buy milk", "--file", file]) == "Added #1: Buy milk")
            #expect(try await run(["add", "--file", file, "Call Bob"]) == "Added #2: Call Bob")
            #expect(try await run(["list", "--file", file]) == "#1 Buy milk\n#2 Call Bob")

            let saved = try JSONDecoder().decode(
                [TodoItem].self, from: Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(
                saved == [TodoItem(id: 1, title: "Buy milk"), TodoItem(id: 2, title: "Call Bob")])
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aBlankTitleIsRefused() async throws {
        try await withTemporaryFile { file in
            await #expect(throws: EmptyTitle.self) { try await run(["add", " ", "--file", file]) }
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    /// The file is read when the container bootstraps: a damaged file fails there, as a
    /// `FrostError` that names the factory and carries the decoding error.
    @Test(.timeLimit(.minutes(1)))
    func aDamagedFileFailsAtBootstrap() async throws {
        try await withTemporaryFile { file in
            try Data("not json".utf8).write(to: URL(fileURLWithPath: file))
            let error = await #expect(throws: FrostError.self) {
                try await run(["list", "--file", file])
            }
            #expect(error?.code == .factoryFailed)
            #expect(error?.underlying is DecodingError)
        }
    }
}
