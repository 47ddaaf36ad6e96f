import Foundation

/// Wall time and exit status of one child process.
struct ProcessRun {
    var seconds: Double
    var status: Int32
    /// What the child wrote to standard error.
    var errors: String
}

/// Runs `executable` with `arguments` in `folder`, standard output to
/// /dev/null (or to `output`), and times it.
func runMeasured(_ executable: String, _ arguments: [String], in folder: String? = nil, output: String = "/dev/null") -> ProcessRun {
    let errorsPath = NSTemporaryDirectory() + "dewrap-bench-stderr-\(getpid())"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // The child starts in `folder`: this process moves there for the spawn (it is single-threaded here).
    let home = FileManager.default.currentDirectoryPath
    if let folder { chdir(folder) }
    defer { chdir(home) }

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else {
        return ProcessRun(seconds: 0, status: -1, errors: "cannot run \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let errors = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
    unlink(errorsPath)
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return ProcessRun(seconds: seconds, status: exitStatus, errors: errors)
}

/// The peak resident memory of one run of `executable`, in bytes, or nil
/// without GNU time. Measured by /usr/bin/time, a small process: Linux counts
/// the memory of the process that spawns a child into the child's peak, so
/// this large benchmark process cannot ask `wait4` itself.
func peakResidentBytes(_ executable: String, _ arguments: [String], in folder: String? = nil) -> Int? {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
    let report = NSTemporaryDirectory() + "dewrap-bench-rss-\(getpid())"
    defer { unlink(report) }
    let run = runMeasured(time, ["-f", "%M", "-o", report, executable] + arguments, in: folder)
    guard run.status == 0 || run.status == 1,
        let text = try? String(contentsOfFile: report, encoding: .utf8),
        let kilobytes = text.split(separator: "\n").last.flatMap({ Int($0) })
    else { return nil }
    return kilobytes * 1024
}

/// The median of `runs` timings of `work`, which returns seconds.
func medianSeconds(runs: Int, _ work: () -> Double) -> Double {
    let times = (0..<max(runs, 1)).map { _ in work() }.sorted()
    return times[times.count / 2]
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// A `timeval` (of `rusage`) in seconds.
func seconds(of time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }

/// Seconds taken by `work`, run in this process.
func timed(_ work: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
