// MARK: - Trivia pieces

/// What a run of bytes between two tokens is.
public enum TriviaKind: UInt8, Sendable {
    /// Spaces, tabs, vertical tabs, form feeds.
    case whitespace
    /// One line break: `\n`, `\r\n` or a lone `\r`.
    case newline
    case lineComment, docLineComment, blockComment, docBlockComment
    /// U+FEFF encoded in UTF-8.
    case byteOrderMark
    /// Bytes that are not Swift: NUL, control characters, invalid UTF-8,
    /// non-breaking spaces, characters that start no token. Always diagnosed.
    case unexpectedText
}

public struct TriviaPiece: Equatable, Sendable {
    public var kind: TriviaKind
    public var start: Int
    public var end: Int
}

/// Splits the trivia in `range` (a gap between two tokens) into pieces.
public func triviaPieces(_ text: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> [TriviaPiece] {
    var pieces: [TriviaPiece] = []
    var i = range.lowerBound
    while i < range.upperBound {
        // A gap holds only trivia, so every byte scans as some piece; the
        // fallback keeps this total for a range that is not a real gap.
        let piece =
            scanTriviaPiece(text, at: i, stopAtNewline: false)
            ?? TriviaScan(kind: .unexpectedText, end: i + 1, problem: nil)
        let end = min(piece.end, range.upperBound)
        pieces.append(TriviaPiece(kind: piece.kind, start: i, end: end))
        i = end
    }
    return pieces
}

// MARK: - Scanning one piece

struct TriviaScan {
    var kind: TriviaKind
    var end: Int
    /// A diagnostic message for this piece, if it is an error.
    var problem: String?
}

/// Scans one trivia piece at `i`, or returns nil when a token (or, with
/// `stopAtNewline`, a line break) starts there, or at the end of the input.
@inline(__always)
func scanTriviaPiece(_ text: UnsafeBufferPointer<UInt8>, at i: Int, stopAtNewline: Bool) -> TriviaScan? {
    let n = text.count
    guard i < n else { return nil }
    switch text[i] {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
        var j = i + 1
        while j < n, text[j] == UInt8(ascii: " ") || text[j] == UInt8(ascii: "\t") || text[j] == 0x0B || text[j] == 0x0C {
            j += 1
        }
        return TriviaScan(kind: .whitespace, end: j, problem: nil)
    case UInt8(ascii: "\n"):
        if stopAtNewline { return nil }
        return TriviaScan(kind: .newline, end: i + 1, problem: nil)
    case UInt8(ascii: "\r"):
        if stopAtNewline { return nil }
        let end = i + 1 < n && text[i + 1] == UInt8(ascii: "\n") ? i + 2 : i + 1
        return TriviaScan(kind: .newline, end: end, problem: nil)
    case UInt8(ascii: "/"):
        guard i + 1 < n else { return nil }
        if text[i + 1] == UInt8(ascii: "/") {
            let isDoc = i + 2 < n && text[i + 2] == UInt8(ascii: "/")
            return TriviaScan(kind: isDoc ? .docLineComment : .lineComment, end: endOfLine(text, from: i + 2), problem: nil)
        }
        if text[i + 1] == UInt8(ascii: "*") {
            return scanBlockComment(text, at: i)
        }
        return nil
    case 0xEF where i + 2 < n && text[i + 1] == 0xBB && text[i + 2] == 0xBF:
        return TriviaScan(kind: .byteOrderMark, end: i + 3, problem: nil)
    case let b where b.isASCII:
        // Printable ASCII always starts a token; NUL, DEL and control characters are not Swift.
        if b.isPrintableASCII { return nil }
        return TriviaScan(kind: .unexpectedText, end: i + 1, problem: b == 0 ? "nul character embedded in source" : "invalid character in source")
    default:
        return scanNonASCIITrivia(text, at: i)
    }
}

/// `/* … */` with nesting, from the `/` at `i`.
private func scanBlockComment(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> TriviaScan {
    let n = text.count
    let isDoc = i + 3 < n && text[i + 2] == UInt8(ascii: "*") && text[i + 3] != UInt8(ascii: "/")
    var depth = 1
    var j = i + 2
    while j < n {
        let b = text[j]
        j += 1
        if b == UInt8(ascii: "*"), j < n, text[j] == UInt8(ascii: "/") {
            j += 1
            depth -= 1
            if depth == 0 {
                return TriviaScan(kind: isDoc ? .docBlockComment : .blockComment, end: j, problem: nil)
            }
        } else if b == UInt8(ascii: "/"), j < n, text[j] == UInt8(ascii: "*") {
            j += 1
            depth += 1
        }
    }
    return TriviaScan(kind: isDoc ? .docBlockComment : .blockComment, end: n, problem: "unterminated '/*' comment")
}

/// A non-ASCII byte in trivia position: a token if it starts an identifier or
/// operator (or is a curly quote or stray identifier character, which the
/// lexer turns into error tokens), else unexpected text.
private func scanNonASCIITrivia(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> TriviaScan? {
    let (scalar, next) = decodeScalar(text, at: i)
    guard let c = scalar else {
        return TriviaScan(kind: .unexpectedText, end: next, problem: "invalid UTF-8 found in source file")
    }
    if isIdentifierContinue(c) || isOperatorStart(c) || c == 0x201C || c == 0x201D { return nil }
    if c == 0xA0 {
        var j = next
        while j + 1 < text.count && text[j] == 0xC2 && text[j + 1] == 0xA0 { j += 2 }
        return TriviaScan(kind: .unexpectedText, end: j, problem: "non-breaking space (U+00A0) used instead of regular space")
    }
    return TriviaScan(kind: .unexpectedText, end: next, problem: "invalid character in source")
}

// MARK: - Skipping trivia in code

extension LexerState {
    @inline(always)
    mutating func skipTrivia(stopAtNewline: Bool) {
        // A local copy of `i`: stores to `self` in this loop show. The line flag
        // is set in place, once a line (a local flag, tested for every token, cost more).
        var k = i
        defer { i = k }
        while k < n {
            // Fast paths: runs of spaces (indentation), the printable ASCII other than `/`,
            // which always starts a token, line feeds, tabs and line comments.
            let b = text[k]
            if b == UInt8(ascii: " ") {
                k &+= 1 // below `n`: cannot overflow
                // One space between tokens is the commonest case: no run to scan.
                if k < n && text[k] != UInt8(ascii: " ") { continue }
                k = endOfSpaces(text, from: k)
                continue
            }
            if b > UInt8(ascii: " ") && b < 0x7F && b != UInt8(ascii: "/") { return }
            if b == UInt8(ascii: "\n") && !stopAtNewline {
                // Most line breaks are followed by indentation: scanned here, not byte by byte.
                k = endOfSpaces(text, from: k &+ 1) // below `n`: cannot overflow
                pendingFlags.insert(.atStartOfLine)
                continue
            }
            if b == UInt8(ascii: "\t") {
                k += 1
                continue
            }
            if b == UInt8(ascii: "/") && k + 1 < n && text[k + 1] == UInt8(ascii: "/") {
                k = endOfLine(text, from: k + 2)
                continue
            }
            guard let piece = scanTriviaPiece(text, at: k, stopAtNewline: stopAtNewline) else { return }
            if piece.kind == .newline || ((piece.kind == .blockComment || piece.kind == .docBlockComment) && containsNewline(k, piece.end)) {
                pendingFlags.insert(.atStartOfLine)
            }
            if let problem = piece.problem {
                diagnose(at: k, problem)
            }
            k = piece.end
        }
    }

    func containsNewline(_ from: Int, _ to: Int) -> Bool {
        var k = from
        while k < to {
            if text[k] == UInt8(ascii: "\n") || text[k] == UInt8(ascii: "\r") { return true }
            k += 1
        }
        return false
    }
}
