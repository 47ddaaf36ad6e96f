// `--in-place` replaces the user's own files, so each new file is on disk
// before it replaces the old one: after a power cut every file is old or new,
// never a part. Rather than one `fsync` per file just before its rename, the
// jobs only write their temporaries; once every job is done, `commit` flushes
// them together (one `syncfs` per file system) and then renames them, in the
// order of the jobs. (Measured for issue 23: cheaper in system time than a
// flush per file, whether `fsync` or `fdatasync`; creating every temporary
// before any rename also spares ext4 without a journal from stepping over the
// inodes the renames free.)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DewrapSystem
import Synchronization

/// The temporaries of a run's in-place results, by job, until `commit`.
final class StagedWrites: Sendable {
    private let files: Mutex<[StagedFile?]>
    private let cleanup: SignalCleanup

    init(jobs: Int) {
        files = Mutex(Array(repeating: nil, count: jobs))
        cleanup = SignalCleanup(slots: jobs)
    }

    /// Writes `bytes` to a temporary beside `path`, for `commit`; a signal that
    /// ends the process meanwhile removes it.
    func stage(_ bytes: [UInt8], replacing path: String, job: Int) throws(FileError) {
        cleanup.start()
        #if os(Linux)
        let flush = Flush.none // `commit` flushes the file system
        #else
        let flush = Flush.fsync // no syncfs: each file on its own
        #endif
        let file: StagedFile?
        do throws(FileError) {
            file = try writeTemporary(bytes, replacing: path, flush: flush) { cleanup.watch($0, slot: job) }
        } catch {
            cleanup.forget(slot: job)
            throw error
        }
        guard let file else { return cleanup.forget(slot: job) } // a device, written to
        files.withLock { $0[job] = file }
    }

    /// Flushes every temporary to disk (elsewhere than on Linux, each was flushed
    /// when written), then renames each over its file, in job order. A file
    /// system whose flush fails gets no rename: its temporaries are removed, and
    /// each of their files is an error. No temporary is left.
    func commit() -> [FileError] {
        let staged = files.withLock { $0 }
        var flushFailures: [UInt64: Int32] = [:]
        #if os(Linux)
        var flushed: Set<UInt64> = []
        for file in staged.compactMap({ $0 }) where flushed.insert(file.device).inserted {
            if let failure = flushFileSystem(holding: file) { flushFailures[file.device] = failure }
        }
        #endif
        var errors: [FileError] = []
        for (job, file) in staged.enumerated() {
            guard let file else { continue }
            if let failure = flushFailures[file.device] {
                unlink(file.temporary)
                errors.append(FileError("write", file.path, errorNumber: failure))
            } else {
                do throws(FileError) { try moveIntoPlace(file) } catch { errors.append(error) }
            }
            cleanup.forget(slot: job)
        }
        cleanup.stop()
        return errors
    }

    /// `syncfs` on the file system of `file`'s temporary, through a descriptor of
    /// it (or of its folder, if it cannot be read); the system's error, or nil.
    private func flushFileSystem(holding file: StagedFile) -> Int32? {
        var descriptor = open(file.temporary, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let folder = file.temporary.lastIndex(of: "/").map { String(file.temporary[...$0]) } ?? "."
            descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return dewrap_syncfs(descriptor) == 0 ? nil : errno
    }
}

// MARK: - Removing the temporaries when a signal ends the process

/// The staged temporaries' paths where a signal handler can read them, and the
/// handler, installed when the first is staged: an interrupted run (`^C`, a closed
/// pipe) leaves no hidden files beside the user's. Signals the process ignores
/// (under `nohup`, or a parent that ignores `SIGPIPE`) are left ignored.
private final class SignalCleanup: @unchecked Sendable {
    // Unchecked: the slots are atomics, set once `start` has published them; the rest is behind the mutex.
    private let count: Int
    private let slots: UnsafeMutablePointer<Atomic<UnsafeMutablePointer<CChar>?>>
    private struct State {
        var installed = false
        var replaced: [(signal: Int32, action: sigaction)] = []
        /// Every path a slot has held (their addresses), freed only once the
        /// handler, which may be reading one, is gone.
        var paths: [UInt] = []
    }
    private let state = Mutex(State())

    init(slots count: Int) {
        self.count = count
        slots = .allocate(capacity: max(count, 1))
        for index in 0..<count { (slots + index).initialize(to: Atomic(nil)) }
    }

    deinit {
        stop()
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Installs the handler, once.
    func start() {
        state.withLock { state in
            guard !state.installed else { return }
            state.installed = true
            signalSlotCount.store(count, ordering: .sequentiallyConsistent)
            signalSlots.store(slots, ordering: .sequentiallyConsistent)
            state.replaced = installRemovingHandler()
        }
    }

    /// `temporary` is in `slot`'s job's hands from now until `forget`.
    func watch(_ temporary: String, slot: Int) {
        let path = strdup(temporary)!
        state.withLock { $0.paths.append(UInt(bitPattern: path)) }
        slots[slot].store(path, ordering: .sequentiallyConsistent)
    }

    func forget(slot: Int) {
        slots[slot].store(nil, ordering: .sequentiallyConsistent)
    }

    /// Restores the signals' actions; every temporary must be gone.
    func stop() {
        state.withLock { state in
            for (signal, action) in state.replaced {
                var action = action
                sigaction(signal, &action, nil)
            }
            state.replaced = []
            if state.installed { signalSlots.store(nil, ordering: .sequentiallyConsistent) }
            state.installed = false
            for path in state.paths { free(UnsafeMutablePointer<CChar>(bitPattern: path)) }
            state.paths = []
        }
    }
}

/// The slots of the run's staged temporaries, for the signal handler (an atomic:
/// unsafe only in that it holds a pointer).
nonisolated(unsafe) private let signalSlots = Atomic<UnsafeMutablePointer<Atomic<UnsafeMutablePointer<CChar>?>>?>(nil)
private let signalSlotCount = Atomic<Int>(0)
private let endingSignals: [Int32] = [SIGHUP, SIGINT, SIGTERM, SIGPIPE]

/// Installs `removeStagedTemporaries` for each ending signal the process does
/// not ignore; returns the actions it replaced.
private func installRemovingHandler() -> [(signal: Int32, action: sigaction)] {
    var replaced: [(signal: Int32, action: sigaction)] = []
    for number in endingSignals {
        var previous = sigaction()
        guard sigaction(number, nil, &previous) == 0, !isIgnored(previous) else { continue }
        replaced.append((number, previous))
        signal(number, removeStagedTemporaries)
    }
    return replaced
}

private func isIgnored(_ action: sigaction) -> Bool {
    #if canImport(Glibc)
    let handler = action.__sigaction_handler.sa_handler
    #elseif canImport(Musl)
    let handler = action.__sa_handler.sa_handler
    #else
    let handler = action.__sigaction_u.__sa_handler
    #endif
    return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
}

/// The signal handler: only async-signal-safe calls. Removes every staged
/// temporary, then lets the signal end the process as it would have.
private func removeStagedTemporaries(_ number: Int32) {
    if let slots = signalSlots.load(ordering: .sequentiallyConsistent) {
        for index in 0..<signalSlotCount.load(ordering: .sequentiallyConsistent) {
            if let path = slots[index].load(ordering: .sequentiallyConsistent) { unlink(path) }
        }
    }
    var defaultAction = sigaction() // zeroed: SIG_DFL
    sigaction(number, &defaultAction, nil)
    raise(number)
}
