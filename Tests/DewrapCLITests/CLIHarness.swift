import Foundation

/// The built `dewrap` executable: SwiftPM puts it beside the test bundle.
let dewrapExecutable: URL = {
    var folder = Bundle.main.bundleURL
    while folder.path != "/" {
        let candidate = folder.appendingPathComponent("dewrap")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder.deleteLastPathComponent()
    }
    fatalError("dewrap executable not found near \(Bundle.main.bundleURL.path)")
}()

/// The repository's `fixtures/` folder.
let fixturesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fixtures")

struct Outcome {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs dewrap with `arguments` in `folder`, feeding `stdin`.
func runDewrap(_ arguments: [String], stdin: [UInt8] = [], in folder: URL? = nil) throws -> Outcome {
    try runProgram(dewrapExecutable.path, arguments, stdin: stdin, in: folder)
}

/// Runs the program at `path` with `arguments` in `folder`, feeding `stdin`;
/// `environment` adds to (or replaces in) this process's.
func runProgram(
    _ path: String, _ arguments: [String], stdin: [UInt8] = [], in folder: URL? = nil,
    environment: [String: String] = [:]
) throws -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read both pipes while the process runs so neither can fill up and block it.
    let group = DispatchGroup()
    nonisolated(unsafe) var outBytes = Data(), errBytes = Data()
    DispatchQueue.global().async(group: group) { outBytes = output.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { errBytes = errors.fileHandleForReading.readDataToEndOfFile() }
    // A process that exits without reading all of its input (a usage error) must
    // not take the test runner down with SIGPIPE: the failed write is ignored.
    _ = ignoreBrokenPipes
    try? input.fileHandleForWriting.write(contentsOf: Data(stdin))
    try input.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    return Outcome(status: process.terminationStatus, stdout: [UInt8](outBytes), stderr: String(decoding: errBytes, as: UTF8.self))
}

/// Writing to a pipe whose reader has exited fails with EPIPE instead of killing the process.
private let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

/// A fresh empty folder, removed when the returned cleanup runs.
func makeScratchFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("dewrap-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
}

func bytes(of url: URL) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: url))
}
