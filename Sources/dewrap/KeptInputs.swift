import Synchronization

/// The bytes of a run's files as the module's first read found them (`readModule`), kept up to
/// `budget` bytes in all, so that the run's later reads of them (each input's lowering, the
/// module's declarations) take them from memory: each file was read two or three times
/// (docs/PERFORMANCE.md has the system calls this saves). Bounded, so that a run over a
/// large module holds at most the budget beyond the files it lowers at once; a file past the
/// budget is read again, as before. A kept file is also the same bytes in every pass, even if
/// the file changes during the run.
final class KeptInputs: Sendable {
    /// 8 MiB: most of a large app's sources (home-assistant's 1,622 files are 9.9 MB), and room
    /// under bin/bench's peak-memory limit (20 MB beyond the largest file) for its 21.8 MB of views.
    static let budget = 8 << 20

    private let kept = Mutex<(files: [String: [UInt8]], bytes: Int)>(([:], 0))

    /// Room for `count` files, so that keeping them does not rehash every path kept so far.
    func reserve(_ count: Int) {
        kept.withLock { $0.files.reserveCapacity(count) }
    }

    /// Keeps `bytes` as the contents of `path` if the budget leaves room for them.
    func keep(_ bytes: [UInt8], of path: String) {
        kept.withLock { kept in
            guard kept.bytes + bytes.count <= Self.budget, kept.files[path] == nil else { return }
            kept.files[path] = bytes
            kept.bytes += bytes.count
        }
    }

    /// The kept bytes of `path`, or the file (or standard input, for `-`) read now.
    func read(_ path: String) throws(FileError) -> [UInt8] {
        if let bytes = kept.withLock({ $0.files[path] }) { return bytes }
        return try readInput(path)
    }
}
