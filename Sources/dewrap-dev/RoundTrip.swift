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
        if let problem = losslessProblem(bytes, lexed) {
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

/// Why `lexed` is not a lossless split of `bytes`, or nil when it is.
func losslessProblem(_ bytes: [UInt8], _ lexed: LexedSource) -> String? {
    guard let last = lexed.tokens.last, last.kind == .endOfFile, last.start == bytes.count, last.end == bytes.count else {
        return "token list does not end with endOfFile at the end of the input"
    }
    if let bad = lexed.diagnostics.first(where: { $0.offset < 0 || $0.offset > bytes.count }) {
        return "diagnostic outside the input at \(bad.offset)"
    }
    var joined: [UInt8] = []
    joined.reserveCapacity(bytes.count)
    var position = 0
    let problem: String? = bytes.withUnsafeBufferPointer { text in
        for token in lexed.tokens {
            guard token.start >= position, token.end >= token.start, token.end <= bytes.count else {
                return "token \(token.kind.name) at \(token.start)..<\(token.end) overlaps or leaves the input"
            }
            for piece in triviaPieces(text, in: position..<token.start) {
                joined += text[piece.start..<piece.end]
            }
            joined += text[token.start..<token.end]
            position = token.end
        }
        return nil
    }
    if let problem { return problem }
    if joined != bytes {
        let at = zip(joined, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(joined.count, bytes.count)
        return "tokens and trivia do not join back to the input (first difference at byte \(at))"
    }
    return nil
}
