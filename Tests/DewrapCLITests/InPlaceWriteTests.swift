import Foundation
import Testing

/// `--in-place` writes every temporary first, flushes them to disk together and
/// only then renames them (issue 23): whatever fails, and whenever the run is
/// stopped, each file is old or new, and no temporary is left beside it.
@Suite struct InPlaceWriteTests {
    static let lowers = "struct G {\n    @State var on = false\n}\n"
    /// A warning, and a struct lowered.
    static let warns = "struct W {\n    @State var t = make()\n}\nstruct G {\n    @State var on = false\n}\n"
    static let fails = "struct B {\n    @State let on = false\n}\n"
    static let unchanged = "struct P {\n    var on = false\n}\n"

    @Test(arguments: ["1", "2"])
    func noTemporaryIsLeftBehind(jobs: String) throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var sources: [String: String] = [:]
        for index in 0..<24 {
            let source = [Self.lowers, Self.warns, Self.fails, Self.unchanged][index % 4]
            sources["App/\(index % 3 == 0 ? "Views/" : "")F\(index).swift"] = source
        }
        try writeFiles(sources, in: folder)
        let outcome = try runDewrap(["-j", jobs, "-i", "App"], in: folder)
        #expect(outcome.status == 1)
        #expect(try temporaries(in: folder).isEmpty)
        for (path, source) in sources {
            let now = String(decoding: try bytes(of: folder.appendingPathComponent(path)), as: UTF8.self)
            if source == Self.fails || source == Self.unchanged {
                #expect(now == source, "\(path)")
            } else {
                #expect(now.contains("private var _on: State<Bool>"), "\(path)")
            }
        }
    }

    /// A job that cannot write its temporary reports it in its place among the
    /// diagnostics, as a job with errors does; the other jobs are written.
    @Test func aJobThatCannotWriteLeavesItsFileAndTheOthersAreRewritten() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeFiles(
            ["a.swift": Self.warns, "locked/b.swift": Self.lowers, "c.swift": Self.fails, "d.swift": Self.lowers],
            in: folder)
        let locked = folder.appendingPathComponent("locked")
        guard let unlock = try lockFolder(locked) else { return }
        defer { unlock() }
        let outcome = try runDewrap(["-j", "2", "-i", "a.swift", "locked/b.swift", "c.swift", "d.swift"], in: folder)
        unlock()
        #expect(outcome.status == 1)
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(outcome.stderr)")
        #expect(lines.first == "a.swift:2:16: warning: cannot lower 't': its type cannot be read from the source; add a type annotation")
        #expect(lines.dropFirst().first?.hasPrefix("dewrap: error: cannot write 'locked/b.swift': ") == true, "\(outcome.stderr)")
        #expect(lines.last == "c.swift:2:5: error: property wrapper can only be applied to a 'var'")
        #expect(try bytes(of: locked.appendingPathComponent("b.swift")) == Array(Self.lowers.utf8))
        #expect(try bytes(of: folder.appendingPathComponent("c.swift")) == Array(Self.fails.utf8))
        for name in ["a.swift", "d.swift"] {
            #expect(String(decoding: try bytes(of: folder.appendingPathComponent(name)), as: UTF8.self).contains("_on"), "\(name)")
        }
        #expect(try temporaries(in: folder).isEmpty)
    }

    /// A file that cannot be replaced (immutable: only root can set that up) is
    /// found when the temporaries are renamed: an error after the jobs' diagnostics,
    /// its temporary removed, the other files renamed.
    @Test func aFileThatCannotBeReplacedKeepsItsBytesAndNoTemporary() throws {
        guard getuid() == 0 else { return }
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeFiles(["a.swift": Self.lowers, "b.swift": Self.lowers, "c.swift": Self.warns], in: folder)
        let fixed = folder.appendingPathComponent("b.swift")
        guard try runProgram("/usr/bin/chattr", ["+i", fixed.path]).status == 0 else { return }
        defer { _ = try? runProgram("/usr/bin/chattr", ["-i", fixed.path]) }
        let outcome = try runDewrap(["-i", "a.swift", "b.swift", "c.swift"], in: folder)
        _ = try runProgram("/usr/bin/chattr", ["-i", fixed.path])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                c.swift:2:16: warning: cannot lower 't': its type cannot be read from the source; add a type annotation
                dewrap: error: cannot write 'b.swift': Operation not permitted

                """)
        #expect(try bytes(of: fixed) == Array(Self.lowers.utf8))
        for name in ["a.swift", "c.swift"] {
            #expect(String(decoding: try bytes(of: folder.appendingPathComponent(name)), as: UTF8.self).contains("_on"), "\(name)")
        }
        #expect(try temporaries(in: folder).isEmpty)
    }

    /// The flush to disk fails (every flushing call fails with EIO through a
    /// preloaded library): no file is renamed, each is an error, no temporary is left.
    @Test func aFailedFlushRenamesNothing() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let library = try buildFailingFlushLibrary(in: folder) else { return }
        try writeFiles(["src/a.swift": Self.lowers, "src/b.swift": Self.warns, "src/c.swift": Self.unchanged], in: folder)
        let outcome = try runProgram(dewrapExecutable.path, ["-i", "src"], in: folder, environment: ["LD_PRELOAD": library])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr == """
                src/b.swift:2:16: warning: cannot lower 't': its type cannot be read from the source; add a type annotation
                dewrap: error: cannot write 'src/a.swift': Input/output error
                dewrap: error: cannot write 'src/b.swift': Input/output error

                """)
        #expect(try bytes(of: folder.appendingPathComponent("src/a.swift")) == Array(Self.lowers.utf8))
        #expect(try bytes(of: folder.appendingPathComponent("src/b.swift")) == Array(Self.warns.utf8))
        #expect(try temporaries(in: folder).isEmpty)
    }

    /// Every file keeps its permission bits (set-group-ID and read-only too), and as
    /// root its owner and group, whichever worker wrote it.
    @Test func everyFileKeepsItsModeOwnerAndGroup() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let modes: [Int] = [0o600, 0o640, 0o644, 0o755, 0o444, 0o2750]
        var sources: [String: String] = [:]
        for index in modes.indices { sources["f\(index).swift"] = Self.lowers }
        try writeFiles(sources, in: folder)
        let asRoot = getuid() == 0
        for (index, mode) in modes.enumerated() {
            let path = folder.appendingPathComponent("f\(index).swift").path
            if asRoot { #expect(chown(path, uid_t(1000 + index), gid_t(2000 + index)) == 0) }
            #expect(chmod(path, mode_t(mode)) == 0)
        }
        let outcome = try runDewrap(["-j", "2", "-i", "."], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for (index, mode) in modes.enumerated() {
            let path = folder.appendingPathComponent("f\(index).swift").path
            #expect(String(decoding: try bytes(of: URL(fileURLWithPath: path)), as: UTF8.self).contains("_on"), "\(path) rewritten")
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(Int(info.st_mode & 0o7777) == mode, "\(path): \(String(info.st_mode & 0o7777, radix: 8))")
            if asRoot {
                #expect(info.st_uid == uid_t(1000 + index), "\(path)")
                #expect(info.st_gid == gid_t(2000 + index), "\(path)")
            }
        }
        #expect(try temporaries(in: folder).isEmpty)
    }

    /// Stopped while its temporaries are written (`^C`, `kill`): the run removes
    /// them and ends by the signal; each file is old or new.
    @Test(arguments: [SIGINT, SIGTERM])
    func aStoppedRunLeavesNoTemporary(signal: Int32) throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var view = ""
        for index in 0..<40 { view += "struct V\(index): View {\n    @State var count = 0\n    var body: some View { Text(\"\\(count)\") }\n}\n" }
        var sources: [String: String] = [:]
        for index in 0..<400 { sources["F\(index).swift"] = view }
        try writeFiles(sources, in: folder)
        let lowered = try runDewrap(["-"], stdin: Array(view.utf8)).stdout

        let process = try startWithDefaultSignals(dewrapExecutable.path, ["-j", "1", "-i", folder.path])
        let started = Date()
        while try temporaries(in: folder).isEmpty && Date().timeIntervalSince(started) < 60 {
            usleep(200)
        }
        kill(process, signal)
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7F == signal, "status \(status): not ended by the signal (the run may have ended before it)")
        #expect(try temporaries(in: folder).isEmpty)
        for name in sources.keys {
            let now = try bytes(of: folder.appendingPathComponent(name))
            #expect(now == Array(view.utf8) || now == lowered, "\(name) is neither old nor new")
        }
    }
}

// MARK: - Helpers

/// Starts a program with standard input and outputs on /dev/null, and the
/// signals a run is stopped with unblocked and at their default action: the test
/// runner's threads block most signals, which a child would inherit.
private func startWithDefaultSignals(_ path: String, _ arguments: [String]) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var process = pid_t()
    let result = posix_spawn(&process, path, &actions, &attributes, argv, environ)
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    return process
}

private func writeFiles(_ files: [String: String], in folder: URL) throws {
    for (path, text) in files {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try write(text, to: url)
    }
}

/// dewrap's temporaries (`.NAME.dewrap-XXXXXX`) anywhere under `folder`.
private func temporaries(in folder: URL) throws -> [String] {
    try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.contains(".dewrap-") }
}

/// Makes `folder` refuse new files, also to root (immutable); returns what undoes
/// it, or nil when this machine cannot.
private func lockFolder(_ folder: URL) throws -> (() -> Void)? {
    if getuid() != 0 {
        guard chmod(folder.path, 0o555) == 0 else { return nil }
        return { _ = chmod(folder.path, 0o755) }
    }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"),
        try runProgram("/usr/bin/chattr", ["+i", folder.path]).status == 0
    else { return nil }
    return { _ = try? runProgram("/usr/bin/chattr", ["-i", folder.path]) }
}

/// A shared library whose `fsync`, `fdatasync` and `syncfs` fail with EIO, built
/// with the toolchain's clang; nil without one.
private func buildFailingFlushLibrary(in folder: URL) throws -> String? {
    let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/clang" }
    guard let clang = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
    let source = folder.appendingPathComponent("failing-flush.c")
    try write(
        """
        #include <errno.h>
        int fsync(int descriptor) { errno = EIO; return -1; }
        int fdatasync(int descriptor) { errno = EIO; return -1; }
        int syncfs(int descriptor) { errno = EIO; return -1; }

        """, to: source)
    let library = folder.appendingPathComponent("libfailing-flush.so").path
    let build = try runProgram(clang, ["-shared", "-fPIC", "-o", library, source.path])
    #expect(build.status == 0, "\(build.stderr)")
    return build.status == 0 ? library : nil
}
