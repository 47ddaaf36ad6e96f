import Foundation

/// A finished child process: exit status (128 + signal when killed), its output
/// and error text, and whether it was stopped for taking too long.
struct ChildResult {
    var status: Int32
    var output: String
    var errors: String
    var timedOut: Bool
    var seconds: Double
}

/// Runs `executable` with `arguments`; standard output and error go to files (no pipe
/// can fill up), read back when it ends. Stopped (SIGKILL) after `timeout` seconds.
func runChild(_ executable: String, _ arguments: [String], in folder: String? = nil, timeout: Double = 600) -> ChildResult {
    let scratch = NSTemporaryDirectory() + "dewrap-child-\(getpid())-\(UUID().uuidString)"
    let outputPath = scratch + ".out", errorsPath = scratch + ".err"
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errorsPath, contents: nil)
    defer {
        unlink(outputPath)
        unlink(errorsPath)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    guard let output = FileHandle(forWritingAtPath: outputPath), let errors = FileHandle(forWritingAtPath: errorsPath) else {
        return ChildResult(status: -1, output: "", errors: "cannot create output files", timedOut: false, seconds: 0)
    }
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    let start = Date()
    do { try process.run() } catch {
        return ChildResult(status: -1, output: "", errors: "cannot run \(executable): \(error)", timedOut: false, seconds: 0)
    }
    var timedOut = false
    if done.wait(timeout: .now() + timeout) == .timedOut {
        timedOut = true
        kill(process.processIdentifier, SIGKILL)
        done.wait()
    }
    try? output.close()
    try? errors.close()
    let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    return ChildResult(
        status: status,
        output: String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self),
        errors: String(decoding: FileManager.default.contents(atPath: errorsPath) ?? Data(), as: UTF8.self),
        timedOut: timedOut, seconds: Date().timeIntervalSince(start))
}
