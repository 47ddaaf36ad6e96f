import DewrapSystem
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

/// The file system's share of `dewrap -j 1 -i FOLDER` (bin/realworld --in-place-timing): user
/// and system seconds of this process for the system calls that run makes on `folder`, made
/// with the lowered bytes already in memory and no lowering. Each of `paths` (relative to
/// `folder`) is looked up, then opened, sized, read and closed; for each of `changed`, a
/// temporary beside it is created, written and closed; the file system is flushed once
/// (`syncfs`, as dewrap does before its renames), and each temporary is renamed over its file.
/// The folder walk itself (`getdents`) is left out, so this is below what dewrap can take: the
/// ceiling the file system sets on its ratio to `swiftc -frontend -parse` on this machine.
func inPlaceFloorUsage(folder: String, paths: [String], changed: [(path: String, bytes: [UInt8])]) -> (user: Double, system: Double) {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let temporaries = changed.map { file in
        let slash = file.path.lastIndex(of: "/").map { file.path.index(after: $0) } ?? file.path.startIndex
        return folder + "/" + file.path[..<slash] + "." + file.path[slash...] + ".floor"
    }
    let before = resourceUsage()
    var status = stat()
    for path in paths {
        let full = folder + "/" + path
        _ = stat(full, &status)
        let input = open(full, O_RDONLY)
        guard input >= 0 else { continue }
        _ = fstat(input, &status)
        let size = Int(status.st_size) + 1
        if buffer.count < size { buffer = [UInt8](repeating: 0, count: size) }
        _ = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, size) }
        close(input)
    }
    for (file, temporary) in zip(changed, temporaries) {
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { continue }
        _ = file.bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
    let root = open(folder, O_RDONLY | O_DIRECTORY)
    if root >= 0 {
        _ = dewrap_syncfs(root)
        close(root)
    }
    for (file, temporary) in zip(changed, temporaries) { _ = rename(temporary, folder + "/" + file.path) }
    let after = resourceUsage()
    return (after.user - before.user, after.system - before.system)
}

/// This process's user and system seconds so far.
private func resourceUsage() -> (user: Double, system: Double) {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (seconds(of: usage.ru_utime), seconds(of: usage.ru_stime))
}
