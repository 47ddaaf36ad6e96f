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
/// Every file is read, also for its protocols and typealiases (swift-dependencies' `TestDependencyKey`,
/// whose `Value` `@Dependency(Key.self)` needs, is in a file without a wrapper); a wrapper's extensions
/// in any of the files count (swift-sharing's `init(wrappedValue:_:)` of `Shared` is in another file
/// than `Shared`).
func readWrapperSources(_ paths: [String]) throws(FileError) -> WrapperShapes {
    var reading = WrapperFileReading()
    for file in wrapperSourceFiles(paths) {
        let source = try readInput(file)
        reading.add(source, declaring: WrapperShapes(readingDeclarationsIn: source))
    }
    return reading.withExtensions()
}

/// The files the `--wrapper-sources` paths name: a file as given (reading it reports a missing
/// one), a folder's `.swift` files.
func wrapperSourceFiles(_ paths: [String]) -> [String] {
    paths.flatMap { path in isDirectory(path) ? swiftFiles(inFolder: path).map { joined(path, $0) } : [path] }
}

/// `relative` inside `folder`.
func joined(_ folder: String, _ relative: String) -> String {
    folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
}
