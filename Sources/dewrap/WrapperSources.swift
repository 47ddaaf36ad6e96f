import DewrapLowering
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `@propertyWrapper` declarations in the `--wrapper-sources` paths: each a
/// `.swift` file, or a folder searched for them (sorted, hidden entries skipped,
/// at most 64 levels deep). The files are only read, never lowered or written.
func readWrapperSources(_ paths: [String]) throws(FileError) -> WrapperShapes {
    var shapes = WrapperShapes()
    for path in paths {
        let files = isDirectory(path) ? swiftFiles(in: path, depth: 0) : [path]
        for file in files {
            shapes.merge(WrapperShapes(readingDeclarationsIn: try readInput(file)))
        }
    }
    return shapes
}

/// The `.swift` files under `folder`, sorted by path.
private func swiftFiles(in folder: String, depth: Int) -> [String] {
    guard depth < 64, let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if !name.hasPrefix(".") { names.append(name) }
    }
    var files: [String] = []
    for name in names.sorted() {
        let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
        if isDirectory(path) {
            files += swiftFiles(in: path, depth: depth + 1)
        } else if name.hasSuffix(".swift") {
            files.append(path)
        }
    }
    return files
}
