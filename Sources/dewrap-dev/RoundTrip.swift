import DewrapLowering
import DewrapSyntax
import Foundation

/// Checks every file: tokens and trivia pieces cover each byte exactly once
/// and join back to the input; diagnostics point inside it; lowering never
/// reports an error on code that compiles, lowering its own output changes
/// nothing (idempotence), and parsing every body (`BodyParsing.all`) lowers it
/// the same as stepping over plain ones. Prints one line per failure and a summary.
func roundTrip(_ files: [String]) -> Bool {
    var totalBytes = 0
    var diagnosticCount = 0
    var failures = 0
    var lowered = 0
    var notes = 0
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
        let result = lower(bytes, fileName: path)
        let full = lower(bytes, fileName: path, options: LoweringOptions(bodies: .all))
        if full.output != result.output || full.diagnostics.map(\.message) != result.diagnostics.map(\.message) {
            failures += 1
            print("\(path): lowering differs when every body is parsed")
        }
        for diagnostic in result.diagnostics {
            let location = LineTable(bytes).location(of: diagnostic.offset)
            print("\(path):\(location.line):\(location.column): \(diagnostic.severity.rawValue): \(diagnostic.message)")
            notes += 1
            if diagnostic.severity == .error { failures += 1 }
        }
        guard result.output != bytes else { continue }
        lowered += 1
        if lower(result.output, fileName: path).output != result.output {
            failures += 1
            print("\(path): lowering its own output changes it again")
        }
    }
    print(
        "roundtrip: \(files.count) files, \(megabytes(totalBytes)) MB, \(diagnosticCount) lexer diagnostics, \(lowered) files lowered (idempotent), \(notes) lowering diagnostics, \(failures) failures"
    )
    return failures == 0
}
