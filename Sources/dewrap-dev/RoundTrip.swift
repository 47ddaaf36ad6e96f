import DewrapLowering
import DewrapSyntax
import Foundation

/// Checks every file: tokens and trivia pieces cover each byte exactly once
/// and join back to the input; diagnostics point inside it; files without
/// wrappers lower to themselves. Prints one line per failure and a summary.
func roundTrip(_ files: [String]) -> Bool {
    var totalBytes = 0
    var diagnosticCount = 0
    var failures = 0
    for path in files {
        let bytes = readBytes(path)
        totalBytes += bytes.count
        let lexed = Lexer.lex(bytes)
        diagnosticCount += lexed.diagnostics.count
        if let problem = lexed.losslessProblem(in: bytes) {
            failures += 1
            print("\(path): \(problem)")
            continue
        }
        let lowered = lower(bytes, fileName: path)
        if lowered.output != bytes {
            failures += 1
            print("\(path): lowering changed a file without wrappers")
        }
    }
    print("roundtrip: \(files.count) files, \(megabytes(totalBytes)) MB, \(diagnosticCount) lexer diagnostics, \(failures) failures")
    return failures == 0
}
