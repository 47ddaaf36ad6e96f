// MARK: - String literals
//
// A string literal is lexed as tokens so that code inside interpolations is
// seen: stringStart, then stringSegment / interpolationStart … interpolationEnd
// pieces, then stringEnd. The mode stack (`LexerMode`) keeps nesting without
// recursion: "a\("b\(c)")" pushes string, interpolation, string, interpolation.

/// The first problem found in a literal: the one reported for it. The
/// messages are literals, kept as `StaticString`s: a `String` here cost every
/// literal a release at its end, problem or not.
struct FirstProblem {
    private(set) var found: (offset: Int, message: StaticString)?

    mutating func note(_ offset: Int, _ message: StaticString) {
        if found == nil { found = (offset, message) }
    }
}

extension LexerState {
    /// The opening delimiter at `i`, after `pounds` raw-string `#`s already seen at `i`.
    mutating func lexStringStart(pounds: Int) {
        let start = i
        var j = i + pounds
        let kind: StringKind
        if text[j] == UInt8(ascii: "'") {
            kind = .singleQuote
            j += 1
        } else if byte(j + 1) == UInt8(ascii: "\""), byte(j + 2) == UInt8(ascii: "\""),
            !(pounds > 0 && closesOnSameLine(from: j + 3, pounds: pounds))
        {
            kind = .multiLine
            j += 3
        } else {
            kind = .singleLine
            j += 1
        }
        i = j
        emit(.stringStart, start, j)
        let shape = StringShape(kind: kind, pounds: pounds, start: start)
        // The commonest literal, `"text"` with nothing to look at before its
        // closing quote, is lexed here whole, without a mode pushed and popped
        // and without returning to `run` for a step inside it; `"text \(` is
        // likewise lexed up to its first interpolation.
        switch lexPlainStringText(shape) {
        case .closingQuote: return
        case .interpolation:
            modes.append(.string(shape))
            modes.append(.interpolation(shape))
        case nil: modes.append(.string(shape))
        }
    }

    /// What ends a literal's plain text: see `lexPlainStringText`.
    enum PlainTextEnd { case closingQuote, interpolation }

    /// The text at `i` of a single-line literal without `#`s (`shape`), when
    /// nothing in it needs a look before its closing quote or its next `\(`:
    /// emits the segment and that delimiter, the tokens `lexStringContents`
    /// gives, and says which it was. Otherwise (another shape, an escape, a
    /// line break) emits nothing and returns nil. Saves the commonest literals
    /// a step of `run` and `lexStringContents`.
    @inline(__always)
    mutating func lexPlainStringText(_ shape: StringShape) -> PlainTextEnd? {
        guard shape.kind == .singleLine && shape.pounds == 0 else { return nil }
        let start = i
        let end = endOfPlainStringText(text, from: start)
        guard end < n else { return nil }
        if text[end] == UInt8(ascii: "\"") {
            if end > start { emit(.stringSegment, start, end) }
            i = end + 1
            emit(.stringEnd, end, i)
            return .closingQuote
        }
        if text[end] == UInt8(ascii: "\\") && end + 1 < n && text[end + 1] == UInt8(ascii: "(") {
            if end > start { emit(.stringSegment, start, end) }
            i = end + 2
            emit(.interpolationStart, end, i)
            return .interpolation
        }
        return nil
    }

    /// After the `)` that ended an interpolation of `shape`, back in its
    /// string's text (the innermost mode): lexes it when plain. Returns
    /// whether the code loop must leave (the lexer is not in a new
    /// interpolation of the same string).
    @inline(never)
    mutating func resumeString(_ shape: StringShape) -> Bool {
        switch lexPlainStringText(shape) {
        case .closingQuote:
            modes.removeLast()
            return true
        case .interpolation:
            modes.append(.interpolation(shape))
            return false
        case nil:
            return true
        }
    }

    /// For `#"""…`: whether a `"` followed by enough `#`s ends the literal on
    /// this line, which makes it a single-line string starting with `""`.
    private func closesOnSameLine(from k: Int, pounds: Int) -> Bool {
        if poundCount(at: k) >= pounds { return true }
        var j = k
        while j < n && text[j] != UInt8(ascii: "\n") && text[j] != UInt8(ascii: "\r") {
            if text[j] == UInt8(ascii: "\"") && poundCount(at: j + 1) >= pounds { return true }
            j += 1
        }
        return false
    }

    func poundCount(at k: Int) -> Int {
        var j = k
        while j < n && text[j] == UInt8(ascii: "#") { j += 1 }
        return j - k
    }

    /// Lexes literal text up to the next interpolation or the end of the
    /// literal, emitting the segment and what ends it.
    mutating func lexStringContents(_ shape: StringShape) {
        let segmentStart = i
        var problem = FirstProblem()
        var j = i
        while j < n {
            // Printable ASCII other than `\`, `"` and `'` needs nothing: skip it eight bytes at a time.
            j = endOfPlainStringText(text, from: j)
            guard j < n else { break }
            let b = text[j]
            switch b {
            case UInt8(ascii: "\\"):
                let pounds = poundCount(at: j + 1)
                guard pounds >= shape.pounds else {
                    j += 1 // In a raw string a `\` without its `#`s is just a character.
                    continue
                }
                let afterDelimiter = j + 1 + (shape.pounds == 0 ? 0 : pounds)
                if byte(afterDelimiter) == UInt8(ascii: "(") {
                    flushSegment(segmentStart, j, problem.found)
                    i = afterDelimiter + 1
                    emit(.interpolationStart, j, i)
                    // The string resumes when the interpolation's `)` pops back to it.
                    modes.append(.interpolation(shape))
                    return
                }
                j = skipEscape(text, at: afterDelimiter, in: shape, &problem)
            case UInt8(ascii: "\"") where shape.kind != .singleQuote:
                if shape.kind == .singleLine || (byte(j + 1) == UInt8(ascii: "\"") && byte(j + 2) == UInt8(ascii: "\"")) {
                    let quoteEnd = j + (shape.kind == .singleLine ? 1 : 3)
                    let pounds = poundCount(at: quoteEnd)
                    if pounds >= shape.pounds {
                        if shape.pounds > 0 && pounds > shape.pounds {
                            problem.note(quoteEnd + shape.pounds, "too many '#' characters in closing delimiter")
                        }
                        // A raw string's closing delimiter takes all the `#`s that follow.
                        finishString(segmentStart, j, quoteEnd + (shape.pounds > 0 ? pounds : 0), problem.found)
                        return
                    }
                }
                j += 1
            case UInt8(ascii: "'") where shape.kind == .singleQuote:
                let pounds = poundCount(at: j + 1)
                if pounds >= shape.pounds {
                    finishString(segmentStart, j, j + 1 + (shape.pounds > 0 ? pounds : 0), problem.found)
                    return
                }
                j += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                guard shape.kind == .multiLine else {
                    // A single-line literal ends at the line break, unterminated.
                    flushSegment(segmentStart, j, problem.found)
                    i = j
                    modes.removeLast()
                    closeStringEarly(shape)
                    return
                }
                j += 1
            case 0:
                problem.note(j, "nul character embedded in string literal")
                j += 1
            case let c where c.isASCII:
                if !c.isPrintableASCII && !(c == UInt8(ascii: "\t") && shape.kind == .multiLine) {
                    problem.note(j, "unprintable ASCII character found in source file")
                }
                j += 1
            default:
                let (scalar, next) = decodeScalar(text, at: j)
                if scalar == nil { problem.note(j, "invalid UTF-8 found in source file") }
                j = next
            }
        }
        flushSegment(segmentStart, n, problem.found)
        i = n
        modes.removeLast()
        closeStringEarly(shape)
    }

    private mutating func flushSegment(_ start: Int, _ end: Int, _ problem: (offset: Int, message: StaticString)?) {
        if let problem { diagnose(at: problem.offset, problem.message.description) }
        if end > start { emit(.stringSegment, start, end) }
    }

    private mutating func finishString(_ segmentStart: Int, _ quote: Int, _ end: Int, _ problem: (offset: Int, message: StaticString)?) {
        flushSegment(segmentStart, quote, problem)
        modes.removeLast()
        i = end
        emit(.stringEnd, quote, end)
    }

    /// Ends an interpolation (and its string) that the input cut off by a line
    /// break or the end of the file, with zero-length closing tokens.
    mutating func closeInterpolationEarly() {
        guard let interpolation = modes.popLast() else { return }
        emit(.interpolationEnd, i, i)
        modes.removeLast() // the string the interpolation was in
        closeStringEarly(interpolation.shape)
    }

    /// Emits a zero-length `stringEnd` for a literal cut off at `i`; the caller pops its mode.
    mutating func closeStringEarly(_ shape: StringShape) {
        diagnose(at: shape.start, "unterminated string literal")
        emit(.stringEnd, i, i)
    }
}

// The escapes are free functions over the text rather than methods: a
// non-mutating method called from `lexStringContents` made it copy the whole
// lexer state on entry, for every literal.

/// Skips the escape whose character follows `\` (and its `#`s) at `k`;
/// returns the offset after it. Invalid escapes are noted, never fatal.
private func skipEscape(_ text: UnsafeBufferPointer<UInt8>, at k: Int, in shape: StringShape, _ problem: inout FirstProblem) -> Int {
    guard k < text.count else {
        problem.note(k, "invalid escape sequence in literal")
        return k
    }
    let c = text[k]
    switch c {
    case UInt8(ascii: "0"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"),
        UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"):
        return k + 1
    case UInt8(ascii: "u"):
        return skipUnicodeEscape(text, at: k + 1, &problem)
    default:
        if shape.kind == .multiLine, let end = escapedNewlineEnd(text, at: k) {
            return end
        }
        problem.note(k, "invalid escape sequence in literal")
        // A letter or digit after `\` is taken as the (bad) escape's character.
        return c.isDigit || c.isASCIILetter ? k + 1 : k
    }
}

/// `[ \t]*` and a line break after a `\` in a multi-line literal: the end of that line break.
private func escapedNewlineEnd(_ text: UnsafeBufferPointer<UInt8>, at k: Int) -> Int? {
    let n = text.count
    var j = k
    while j < n && (text[j] == UInt8(ascii: " ") || text[j] == UInt8(ascii: "\t")) { j += 1 }
    guard j < n else { return nil }
    if text[j] == UInt8(ascii: "\n") { return j + 1 }
    if text[j] == UInt8(ascii: "\r") { return j + 1 < n && text[j + 1] == UInt8(ascii: "\n") ? j + 2 : j + 1 }
    return nil
}

/// `{` 1–8 hex digits `}` after `\u`.
private func skipUnicodeEscape(_ text: UnsafeBufferPointer<UInt8>, at k: Int, _ problem: inout FirstProblem) -> Int {
    let n = text.count
    guard k < n && text[k] == UInt8(ascii: "{") else {
        problem.note(k, "expected hexadecimal code in braces after unicode escape")
        return k
    }
    var j = k + 1
    var value: UInt32 = 0
    while j < n && text[j].isHexDigit {
        value = j - k <= 8 ? value << 4 | UInt32(hexValue(text[j])) : value
        j += 1
    }
    let digits = j - k - 1
    guard j < n && text[j] == UInt8(ascii: "}") else {
        problem.note(j, "expected '}' in \\u{...} escape sequence")
        return j
    }
    if digits < 1 || digits > 8 {
        problem.note(k, "\\u{...} escape sequence expects between 1 and 8 hex digits")
    } else if Unicode.Scalar(value) == nil {
        problem.note(k, "invalid unicode scalar")
    }
    return j + 1
}

private func hexValue(_ b: UInt8) -> UInt8 {
    b.isDigit ? b - UInt8(ascii: "0") : (b | 0x20) - UInt8(ascii: "a") + 10
}
