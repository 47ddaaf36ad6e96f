// Inputs given as folders (issue 21): a folder stands for its `.swift` files, found
// recursively, so that `dewrap -i App/` or `dewrap -o out App/` lowers a whole app as one
// module. With `-o FOLDER` each file keeps its path relative to the folder it was found in.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file to lower, and the path its result takes inside an output folder (`-o FOLDER`): its own
/// name for a file named on the command line, its path under the folder for a file found in one.
struct InputFile: Equatable {
    /// As given, or the folder as given joined with the path found under it; `-` is standard input.
    var path: String
    var outputName: String
    /// The file's identity where finding it told it (one `stat` fewer a file for `plan`).
    var identity: FileIdentity? = nil
}

/// The inputs of a run, with folders replaced by their files.
struct Inputs: Equatable {
    var files: [InputFile]
    /// Whether a folder was among them: then results always go into a folder (`-o`).
    var hasFolder = false
}

/// Replaces each folder among the inputs with its `.swift` files (`swiftFiles(inFolder:)`), and
/// checks what only the file system tells: a folder needs a destination for many files (not
/// standard output, `--emit-…` or `--source-name`), and must hold at least one `.swift` file.
/// An output folder inside an input folder is not searched: its files are results, not inputs.
func expandInputs(_ invocation: Invocation) throws(UsageError) -> Inputs {
    var inputs = Inputs(files: [])
    var outputFolder: FileIdentity?
    if case .path(let path) = invocation.destination, isDirectory(path) { outputFolder = FileIdentity(path: path) }
    for input in invocation.inputs {
        var info = stat()
        let found = input != "-" && stat(input, &info) == 0
        guard found && (info.st_mode & S_IFMT) == S_IFDIR else {
            inputs.files.append(InputFile(path: input, outputName: baseName(input), identity: found ? FileIdentity(info) : nil))
            continue
        }
        if let flag = invocation.action.flag {
            throw UsageError(message: "'\(flag)' takes one file, not the folder '\(input)'")
        }
        switch invocation.destination {
        case .standardOutput:
            throw UsageError(message: "'\(input)' is a folder: its files need '-o FOLDER', '--in-place', '--check' or '--diff'")
        case .path(let path) where !isDirectory(path) && fileExists(path):
            throw UsageError(message: "'-o \(path)' is a file; the results of the folder '\(input)' go into a folder")
        default:
            break
        }
        if invocation.sourceName != nil { throw UsageError(message: "'--source-name' names one input, not the folder '\(input)'") }
        var files: [(path: String, identity: FileIdentity?)] = []
        collectSwiftFiles(in: input, under: "", skipping: outputFolder, depth: 0, into: &files)
        guard !files.isEmpty else { throw UsageError(message: "the folder '\(input)' holds no .swift files") }
        inputs.files += files.map { InputFile(path: joined(input, $0.path), outputName: $0.path, identity: $0.identity) }
        inputs.hasFolder = true
    }
    return inputs
}

/// The paths of the `.swift` files under `folder`, relative to it, sorted by path (each folder's
/// entries by their bytes, so the order is the same on every machine). Entries whose name starts
/// with `.` are skipped (`.build`, `.git`, editors' files, dewrap's own temporary files), and so
/// are symbolic links to folders and `skipping` (an output folder inside the input); a symbolic
/// link to a file counts as that file. At most 64 levels deep.
func swiftFiles(inFolder folder: String, skipping: FileIdentity? = nil) -> [String] {
    var files: [(path: String, identity: FileIdentity?)] = []
    collectSwiftFiles(in: folder, under: "", skipping: skipping, depth: 0, into: &files)
    return files.map(\.path)
}

/// `swiftFiles(inFolder:)`, with each file's identity (of the file a link points to).
private func collectSwiftFiles(
    in folder: String, under relative: String, skipping: FileIdentity?, depth: Int,
    into files: inout [(path: String, identity: FileIdentity?)]
) {
    guard depth < 64, let directory = opendir(folder) else { return }
    // Each entry is looked at by its name against the folder's descriptor (one path component for
    // the system to find, where `lstat` of the whole path walks every folder above it), and only
    // when it may be a folder or a `.swift` file: the entry's type, where the file system gives it,
    // spares the look at any other file.
    let descriptor = dirfd(directory)
    var entries: [(name: [UInt8], mode: mode_t, identity: FileIdentity)] = []
    while let entry = readdir(directory) {
        let kind = entry.pointee.d_type
        let looked: (name: [UInt8], mode: mode_t, identity: FileIdentity)? = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            let length = raw.firstIndex(of: 0) ?? raw.count
            guard length > 0, raw[0] != UInt8(ascii: ".") else { return nil }
            let name = UnsafeRawBufferPointer(rebasing: raw[..<length])
            guard Int(kind) == DT_DIR || Int(kind) == DT_UNKNOWN || hasSwiftSuffix(name) else { return nil }
            var info = stat()
            guard fstatat(descriptor, raw.baseAddress!.assumingMemoryBound(to: CChar.self), &info, AT_SYMLINK_NOFOLLOW) == 0
            else { return nil }
            return (Array(name), info.st_mode & S_IFMT, FileIdentity(info))
        }
        if let looked { entries.append(looked) }
    }
    closedir(directory)
    // By bytes, not by Unicode ordering of Strings: the same order as `LC_ALL=C ls`.
    entries.sort { $0.name.lexicographicallyPrecedes($1.name) }
    for (nameBytes, mode, identity) in entries {
        let name = String(decoding: nameBytes, as: UTF8.self)
        var path: String { joined(folder, name) }
        let relativePath = relative.isEmpty ? name : relative + "/" + name
        switch mode {
        case S_IFDIR:
            if let skipping, identity == skipping { continue }
            collectSwiftFiles(in: path, under: relativePath, skipping: skipping, depth: depth + 1, into: &files)
        case S_IFREG:
            if nameBytes.withUnsafeBytes(hasSwiftSuffix) { files.append((relativePath, identity)) }
        case S_IFLNK:
            // A link that leads nowhere is kept: reading it reports it.
            guard nameBytes.withUnsafeBytes(hasSwiftSuffix) else { break }
            var target = stat()
            if stat(path, &target) != 0 {
                files.append((relativePath, nil))
            } else if (target.st_mode & S_IFMT) != S_IFDIR {
                files.append((relativePath, FileIdentity(target)))
            }
        default:
            break
        }
    }
}

/// Whether a name ends in `.swift` (byte by byte: the generic comparison of two collections
/// cost more than the rest of the look at an entry).
private func hasSwiftSuffix(_ name: UnsafeRawBufferPointer) -> Bool {
    let end = name.count
    return end > 6 && name[end - 6] == UInt8(ascii: ".") && name[end - 5] == UInt8(ascii: "s")
        && name[end - 4] == UInt8(ascii: "w") && name[end - 3] == UInt8(ascii: "i") && name[end - 2] == UInt8(ascii: "f")
        && name[end - 1] == UInt8(ascii: "t")
}

func fileExists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
}
