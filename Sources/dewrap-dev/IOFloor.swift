import Foundation

/// The file system's share of a lowering run: the system calls that `dewrap -j 1 -o DIR FILES…`
/// makes (read off `strace`), made by this process with the lowered bytes already in memory and
/// no lowering. First every input and output path is looked up, then for each file its input is
/// opened, sized, read and closed, its output looked up again, and a temporary beside it created,
/// written, closed and renamed over it. The seconds it takes are what the lowering column would
/// take if lexing, parsing and lowering cost nothing (and the process started at once): the
/// ceiling the file system sets on that column's MB/s on this machine.
func ioFloorSeconds(names: [String], folder: String, outputs: [[UInt8]], into output: String) -> Double {
    try? FileManager.default.removeItem(atPath: output)
    try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    let inputPaths = names.map { folder + "/" + $0 }
    let outputPaths = names.map { output + "/" + $0 }
    let temporaryPaths = names.map { output + "/." + $0 + ".floor" }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    return timed {
        var status = stat()
        for path in inputPaths { _ = stat(path, &status) }
        for path in outputPaths { _ = stat(path, &status) }
        for index in names.indices {
            let input = open(inputPaths[index], O_RDONLY)
            guard input >= 0 else { continue }
            _ = fstat(input, &status)
            let size = Int(status.st_size) + 1
            if buffer.count < size { buffer = [UInt8](repeating: 0, count: size) }
            _ = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, size) }
            close(input)
            _ = lstat(outputPaths[index], &status)
            let temporary = open(temporaryPaths[index], O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard temporary >= 0 else { continue }
            _ = outputs[index].withUnsafeBytes { write(temporary, $0.baseAddress, $0.count) }
            close(temporary)
            _ = rename(temporaryPaths[index], outputPaths[index])
        }
    }
}
