// Reading and writing whole files with POSIX calls, so that every failure is
// an error value with the system's reason, never a trap.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A file-system failure, worded for the user.
struct FileError: Error {
    var message: String

    init(_ action: String, _ path: String, errorNumber: Int32 = errno) {
        message = "cannot \(action) '\(path)': \(String(cString: strerror(errorNumber)))"
    }

    init(message: String) {
        self.message = message
    }
}

/// Device and inode: tells whether two paths name the same file.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// All bytes of a file, or of standard input for `-`.
func readInput(_ path: String) throws(FileError) -> [UInt8] {
    if path == "-" { return try readAll(from: 0, name: "<stdin>") }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw FileError("read", path) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return try readAll(from: descriptor, name: path) }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw FileError(message: "cannot read '\(path)': it is a folder") }
    return try readAll(from: descriptor, name: path, sizeHint: Int(info.st_size), regular: (info.st_mode & S_IFMT) == S_IFREG)
}

/// Reads to the end. `sizeHint` (the file's size, when known) sizes the buffer
/// so that a file is read straight into it, in one call; a file that grows
/// meanwhile, or a pipe, is read on in doubling steps. Of a `regular` file a
/// read shorter than asked ends it, so the usual file takes one `read`, not two.
private func readAll(from descriptor: Int32, name: String, sizeHint: Int = 0, regular: Bool = false) throws(FileError) -> [UInt8] {
    var capacity = max(sizeHint, 0) + 1
    var bytes: [UInt8] = []
    while true {
        var failure: Int32 = 0
        var ended = false
        // Uninitialized: zeroing a buffer the read overwrites costs as much again as copying it.
        let grown = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            count = bytes.count
            if count > 0 { _ = bytes.withUnsafeBufferPointer { memcpy(buffer.baseAddress!, $0.baseAddress!, count) } }
            while count < capacity {
                let asked = capacity - count
                let got = read(descriptor, buffer.baseAddress! + count, asked)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                count += got
                if got == 0 || (regular && got < asked) {
                    ended = true
                    return
                }
            }
        }
        bytes = grown
        if failure != 0 { throw FileError("read", name, errorNumber: failure) }
        if ended { return bytes }
        capacity = bytes.count + max(bytes.count, 1 << 16)
    }
}

/// Writes all of `bytes` to an open descriptor, retrying short writes.
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
        if count < 0 {
            if errno == EINTR { continue }
            return errno
        }
        written += count
    }
    return nil
}

func writeStandardOutput(_ bytes: [UInt8]) throws(FileError) {
    if let failure = writeAll(bytes, to: 1) { throw FileError("write", "<stdout>", errorNumber: failure) }
}

func writeStandardError(_ text: String) {
    _ = writeAll(Array(text.utf8), to: 2)
}

/// Replaces `path` with `bytes` so that readers see the old file or the new
/// one, never a part: a temporary file in the same folder, then renamed over
/// it. Not flushed to disk first: outputs of `-o` skip that cost, as a
/// compiler's outputs do (`--in-place`, which replaces the user's own files,
/// goes through `StagedWrites`). A missing folder is an error that names it.
func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileError) {
    if let staged = try writeTemporary(bytes, replacing: path, flush: .none) { try moveIntoPlace(staged) }
}

/// New bytes for a file, in a temporary file beside it, not yet renamed over it.
struct StagedFile: Sendable {
    /// As given, for messages.
    var path: String
    var temporary: String
    /// The file the temporary replaces: `path`, or where the symbolic link `path` points.
    var target: String
    /// The file system that holds both.
    var device: UInt64
}

/// Whether `writeTemporary` flushes the temporary to disk itself.
enum Flush {
    /// Not flushed (`-o`), or flushed with others later (`StagedWrites`).
    case none
    /// `fsync` before it is closed.
    case fsync
}

/// Writes `bytes` to a new temporary file in the folder of the file `path`
/// replaces, for `moveIntoPlace`. An existing file's permissions are given to
/// the temporary, and its owner and group where the process may give them (as
/// root, or a group the user is in); a symbolic link keeps pointing where it did
/// and its target is the file replaced. `announce` learns each name the
/// temporary may get just before it is created. A device or a pipe
/// (`-o /dev/null`) is written to, never replaced: then nil. On failure no
/// temporary is left.
func writeTemporary(
    _ bytes: [UInt8], replacing path: String, flush: Flush,
    announce: (String) -> Void = { _ in }
) throws(FileError) -> StagedFile? {
    var target = path
    var info = stat()
    var exists = lstat(path, &info) == 0
    if exists && (info.st_mode & S_IFMT) == S_IFLNK {
        if let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        exists = stat(target, &info) == 0
    }
    if exists && (info.st_mode & S_IFMT) != S_IFREG && (info.st_mode & S_IFMT) != S_IFDIR {
        let descriptor = open(target, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { throw FileError("write", path) }
        let failure = writeAll(bytes, to: descriptor)
        close(descriptor)
        if let failure { throw FileError("write", path, errorNumber: failure) }
        return nil
    }
    let mode = exists ? info.st_mode & 0o7777 : 0o666 & ~fileCreationMask
    // Created with its final mode where the creation mask leaves it whole (the usual case), so
    // that no `fchmod` follows; else private until `fchmod` gives it the mode.
    let createsFinalMode = mode & 0o7000 == 0 && mode & fileCreationMask == 0
    let createdMode = createsFinalMode ? mode : 0o600

    let slash = target.lastIndex(of: "/")
    let folder = slash.map { String(target[...$0]) } ?? ""
    let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
    // As mkstemp names it, but named here so that `announce` hears the name before the file exists.
    var temporary: String
    var descriptor: Int32
    repeat {
        temporary = "\(folder).\(name).dewrap-\(randomNameSuffix())"
        announce(temporary)
        descriptor = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, createdMode)
    } while descriptor < 0 && errno == EEXIST
    guard descriptor >= 0 else {
        let failure = errno
        if let folder = missingFolder(of: path) { throw FileError(message: "cannot write '\(path)': \(folder)") }
        throw FileError("write", path, errorNumber: failure)
    }

    var failure = writeAll(bytes, to: descriptor)
    // The owner first: changing it clears set-user-ID and set-group-ID bits, which fchmod then restores.
    var ownerChanged = false
    if failure == nil && exists { ownerChanged = keepOwner(of: info, on: descriptor) }
    if failure == nil && (!createsFinalMode || ownerChanged) && fchmod(descriptor, mode) != 0 { failure = errno }
    if failure == nil && flush == .fsync && fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0 && failure == nil { failure = errno }
    if let failure {
        unlink(temporary)
        throw FileError("write", path, errorNumber: failure)
    }
    return StagedFile(path: path, temporary: temporary, target: target, device: exists ? UInt64(info.st_dev) : 0)
}

/// Six letters or digits, as mkstemp's `XXXXXX` become: from one random seed a
/// process (`getrandom` once, not for every file) and a count of names made, mixed
/// so that successive names share no run of letters. `O_EXCL` makes any name safe;
/// the randomness only makes a collision with another process unlikely.
private func randomNameSuffix() -> String {
    let characters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    // splitmix64's finalizer over seed + count: a different, well-spread value for every name.
    var random = temporaryNameSeed &+ temporaryNamesMade.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
    random = (random ^ (random >> 30)) &* 0xBF58_476D_1CE4_E5B9
    random = (random ^ (random >> 27)) &* 0x94D0_49BB_1331_11EB
    random ^= random >> 31
    var suffix: [UInt8] = []
    suffix.reserveCapacity(6)
    for _ in 0..<6 {
        suffix.append(characters[Int(random % UInt64(characters.count))])
        random /= UInt64(characters.count)
    }
    return String(decoding: suffix, as: UTF8.self)
}

private let temporaryNameSeed = UInt64.random(in: 0...UInt64.max)
private let temporaryNamesMade = Atomic<UInt64>(0)

/// Renames a staged temporary over its target; on failure removes it.
func moveIntoPlace(_ file: StagedFile) throws(FileError) {
    guard rename(file.temporary, file.target) != 0 else { return }
    let failure = errno
    unlink(file.temporary)
    throw FileError("write", file.path, errorNumber: failure)
}

/// Gives the new file behind `descriptor` the owner and group of the file it
/// replaces. Only root may give a file away; anyone may give it a group they
/// are in. What is not permitted is left as the process made it: the file then
/// belongs to whoever rewrote it, as with any editor that saves by renaming.
/// Whether it tried to change them (which may clear set-user-ID and set-group-ID bits).
private func keepOwner(of original: stat, on descriptor: Int32) -> Bool {
    var current = stat()
    guard fstat(descriptor, &current) == 0 else { return false }
    if current.st_uid == original.st_uid && current.st_gid == original.st_gid { return false }
    if fchown(descriptor, original.st_uid, original.st_gid) != 0 && current.st_gid != original.st_gid {
        _ = fchown(descriptor, uid_t.max, original.st_gid) // -1: the owner unchanged
    }
    return true
}

/// Why the folder that should hold `path` cannot: `no such folder 'a/b'` or
/// `'a/b' is not a folder`, naming the first missing or wrong ancestor as
/// given; nil when the folders are all there.
func missingFolder(of path: String) -> String? {
    var components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    components.removeLast() // the file itself
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in components where !component.isEmpty {
        prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
        var info = stat()
        if stat(prefix, &info) != 0 {
            return errno == ENOENT ? "no such folder '\(prefix)'" : nil
        }
        if (info.st_mode & S_IFMT) != S_IFDIR { return "'\(prefix)' is not a folder" }
    }
    return nil
}

/// The process's file-creation mask. Reading it means setting it, which must
/// not race with another thread doing the same: `run` reads it once before
/// any worker starts.
let fileCreationMask: mode_t = {
    let mask = umask(0)
    umask(mask)
    return mask
}()

func makeFolder(_ path: String) throws(FileError) {
    if isDirectory(path) { return }
    var partial = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
        partial += component + "/"
        if mkdir(partial, 0o777) != 0 && errno != EEXIST { throw FileError("create folder", path) }
    }
    if !isDirectory(path) { throw FileError(message: "cannot create folder '\(path)': a file is in the way") }
}

/// Whether two files' bytes are the same, by `memcmp`: `==` on arrays compares byte by byte.
func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { a in b.withUnsafeBytes { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
}
