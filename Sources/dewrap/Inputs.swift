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
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if !name.hasPrefix(".") { names.append(name) }
    }
    closedir(directory)
    // By bytes, not by Unicode ordering of Strings: the same order as `LC_ALL=C ls`. On the UTF-8
    // views themselves: an array of each made for every comparison cost 47M instructions for
    // home-assistant's 1,622 files.
    names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    for name in names {
        let path = joined(folder, name)
        let relativePath = relative.isEmpty ? name : relative + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0 else { continue }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            if let skipping, FileIdentity(path: path) == skipping { continue }
            collectSwiftFiles(in: path, under: relativePath, skipping: skipping, depth: depth + 1, into: &files)
        case S_IFREG:
            if name.hasSuffix(".swift") { files.append((relativePath, FileIdentity(info))) }
        case S_IFLNK:
            // A link that leads nowhere is kept: reading it reports it.
            guard name.hasSuffix(".swift") else { break }
            if stat(path, &info) != 0 {
                files.append((relativePath, nil))
            } else if (info.st_mode & S_IFMT) != S_IFDIR {
                files.append((relativePath, FileIdentity(info)))
            }
        default:
            break
        }
    }
}

func fileExists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
}
