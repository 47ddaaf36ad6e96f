// Several inputs in one call are lowered on all cores: worker threads take the
// next job from a shared counter, and reports are printed in job order, so the
// output is the same whatever the number of threads.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The number of cores this process may use.
func availableCores() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

/// Calls `body(i)` for every `i` in `0..<count`, on up to `threads` threads
/// (the calling one included), and returns when all calls have returned.
func concurrentForEach(_ count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let work = WorkList(count: count, body: body)
    var started: [pthread_t] = []
    for _ in 1..<max(1, min(threads, count)) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(work).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                let work = Unmanaged<WorkList>.fromOpaque(context!).takeRetainedValue()
                work.drain()
                return nil
            }, context)
        if result == 0 {
            started.append(thread)
        } else {
            // No thread: fewer workers, same result.
            Unmanaged<WorkList>.fromOpaque(context).release()
            break
        }
    }
    work.drain()
    for thread in started { pthread_join(thread, nil) }
}

private final class WorkList: Sendable {
    let count: Int
    let next = Atomic<Int>(0)
    let body: @Sendable (Int) -> Void

    init(count: Int, body: @escaping @Sendable (Int) -> Void) {
        self.count = count
        self.body = body
    }

    func drain() {
        while true {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < count else { return }
            body(index)
        }
    }
}

/// What one job prints: its diagnostics (standard error) and, for `--check`
/// and `--diff`, its part of standard output.
struct Report: Sendable {
    var diagnostics = ""
    var output: [UInt8] = []
}

/// Prints each job's report once every earlier job's report is printed.
final class OrderedReports: Sendable {
    private struct Pending {
        var next = 0
        /// By job: a report not yet printed because an earlier job is still running.
        var waiting: [Report?]
    }

    private let pending: Mutex<Pending>
    private let print: @Sendable (Report) -> Void

    init(jobs: Int, print: @escaping @Sendable (Report) -> Void) {
        pending = Mutex(Pending(waiting: [Report?](repeating: nil, count: jobs)))
        self.print = print
    }

    func finish(_ index: Int, _ report: Report) {
        pending.withLock { state in
            state.waiting[index] = report
            while state.next < state.waiting.count, let report = state.waiting[state.next] {
                state.waiting[state.next] = nil
                if !report.diagnostics.isEmpty || !report.output.isEmpty { print(report) }
                state.next += 1
            }
        }
    }
}
