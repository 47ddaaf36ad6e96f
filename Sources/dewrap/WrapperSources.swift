import DewrapLowering
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `@propertyWrapper` declarations in the `--wrapper-sources` paths: each a
/// `.swift` file, or a folder searched for them as a folder input is (`swiftFiles(inFolder:)`).
/// The files are only read, never lowered or written.
func readWrapperSources(_ paths: [String]) throws(FileError) -> WrapperShapes {
    var shapes = WrapperShapes()
    for path in paths {
        let files = isDirectory(path) ? swiftFiles(inFolder: path).map { joined(path, $0) } : [path]
        for file in files {
            shapes.merge(WrapperShapes(readingDeclarationsIn: try readInput(file)))
        }
    }
    return shapes
}

/// `relative` inside `folder`.
func joined(_ folder: String, _ relative: String) -> String {
    folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
}
