import Frost
import Swinject

#if canImport(Glibc)
    import Glibc
#endif

/// `cold-freeze`: what an application's start-up costs in a new process, where nothing has
/// run yet (no type metadata made, no cache warm). Each sample is a child process, this
/// executable run as `frost-bench --cold <contender>`, which registers the first ``count``
/// generated types once and reports the nanoseconds that took, measured inside it: the cost of
/// starting the process is not in the figure.
enum ColdFreeze {
    /// How many generated types a child registers (a checkpoint of `registerGeneratedTypes`).
    static let count = 200

    /// What `frost-bench --cold <contender>` does, as the first thing the process does: times
    /// a new container from before its creation to the end of `freeze()` (`frozen`), or to the
    /// end of registration (`dictionary`, `swinject`), prints the nanoseconds, and exits
    /// without releasing anything.
    static func runChild(_ contender: String) -> Never {
        let start: UInt64
        let end: UInt64
        switch Contender(rawValue: contender) {
        case .frozen:
            start = now()
            let container = Frost.Container()
            registerGeneratedTypes(count, in: container)
            let frozen = try! container.freeze()
            end = now()
            blackHole((container, frozen))
        case .dictionary:
            start = now()
            let container = Frost.Container()
            registerGeneratedTypes(count, in: container)
            end = now()
            blackHole(container)
        case .swinject:
            start = now()
            let container = Swinject.Container()
            registerGeneratedTypes(count, in: container)
            end = now()
            blackHole(container)
        default:
            print("frost-bench: --cold takes frozen, dictionary or swinject, not \(contender)")
            exit(2)
        }
        print(end - start)
        exit(0)
    }

    /// Runs `frost-bench --cold contender` in a new process (this executable) and returns the
    /// nanoseconds it measured inside itself.
    static func spawn(_ contender: Contender) -> UInt64 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("frost-bench: pipe failed, errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child writes its figure to the pipe, as its standard output.
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let arguments = [CommandLine.arguments[0], "--cold", contender.rawValue]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/proc/self/exe", &actions, nil, argv, environ)
        close(ends[1])
        defer { close(ends[0]) }
        guard spawned == 0 else { fatalError("frost-bench: posix_spawn failed, error \(spawned)") }

        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let read = read(ends[0], &buffer, buffer.count)
            if read > 0 {
                output += buffer[..<read]
            } else if read == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = String(decoding: output, as: UTF8.self)
        guard status == 0, let nanoseconds = UInt64(text.split(separator: "\n").first ?? "")
        else {
            fatalError("frost-bench: --cold \(contender.rawValue): status \(status), \(text)")
        }
        return nanoseconds
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

extension Cases {
    /// `cold-freeze`: a new process per sample and contender, interleaved like every case;
    /// ns per process, measured inside it (see ``ColdFreeze``).
    static func coldFreezeCase() -> BenchCase {
        BenchCase(
            name: "cold-freeze",
            unit: "a new process: register \(ColdFreeze.count) distinct types + freeze, "
                + "timed inside it, per process",
            iterations: 1,
            runs: [Contender.frozen, .dictionary, .swinject].map { contender in
                Run.selfTimed(contender, scale: 1) { n in
                    (0..<n).reduce(0) { total, _ in total + ColdFreeze.spawn(contender) }
                }
            }
        )
    }
}
