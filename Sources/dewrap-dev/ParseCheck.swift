import DewrapSyntax
import Foundation

/// Parses every file: prints each parser diagnostic (the corpus compiles, so
/// every one is a parser bug) and a summary with lexer + parser throughput.
func parseCheck(_ files: [String], showLimit: Int = 40) -> Bool {
    var totalBytes = 0
    var diagnosticCount = 0
    var failingFiles = 0
    var seconds = 0.0
    for path in files {
        let bytes = readBytes(path)
        totalBytes += bytes.count
        let start = DispatchTime.now().uptimeNanoseconds
        let tree = Parser.parse(bytes)
        seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard !tree.diagnostics.isEmpty else { continue }
        failingFiles += 1
        let lines = LineTable(bytes)
        for diagnostic in tree.diagnostics {
            diagnosticCount += 1
            if diagnosticCount <= showLimit {
                let location = lines.location(of: diagnostic.offset)
                print("\(path):\(location.line):\(location.column): \(diagnostic.message)")
            }
        }
    }
    let rate = Double(totalBytes) / 1_000_000 / max(seconds, 1e-9)
    print("parse: \(files.count) files, \(megabytes(totalBytes)) MB, \(diagnosticCount) parser diagnostics in \(failingFiles) files, lexer+parser \(String(format: "%.0f", rate)) MB/s")
    return diagnosticCount == 0
}
