// MARK: - Regex literals
//
// `/…/` and `#/…/#` (SE-0354), told apart from `/` operators the way the
// compiler does: by the token before, whitespace after the opening and before
// the closing slash, and balanced groups.

struct RegexScan {
    var end: Int
    var problem: (offset: Int, message: String)?
}

extension LexerState {
    /// Whether the operator containing a `/` at `slash` is rather the start of a
    /// regex literal; if so, its extent.
    func regexLiteralInOperator(slashAt slash: Int, operatorStart: Int, operatorEnd: Int) -> RegexScan? {
        let leftBound = isLeftBound(operatorStart: operatorStart)
        let rightBound = isRightBound(operatorEnd: operatorEnd, leftBound: leftBound)
        let previous = previousToken
        // A left-bound `/` is postfix or binary; after `func` or `operator` comes an operator name.
        if leftBound || previous?.word.keywordRole == .operatorName { return nil }
        var mustBeRegex = false
        if !rightBound {
            // Looks like a binary operator: a regex only where an expression may start.
            // After `try?`/`try!` it must be one (`try` cannot be a binary operand).
            mustBeRegex = followsTryMark
            if !mustBeRegex && !regexMayFollow(previous) { return nil }
            // An unapplied operator is fine as an argument (`reduce(0, /)`); elsewhere it cannot be.
            switch previous?.kind {
            case .leftParen?, .leftSquare?, .comma?, .colon?, .colonColon?, .interpolationStart?: break
            default: mustBeRegex = true
            }
        }
        return scanRegexLiteral(at: slash, mustBeRegex: mustBeRegex)
    }

    // MARK: Token regex position
    //
    // What the token before a `/` says about it is read back from the tokens
    // written so far: a `/` is rare, so nothing is recorded per token for it.

    /// The index of the last token before `index` other than a conflict marker
    /// (trivia to the compiler: the token before it counts); nil if there is none.
    func previousTokenIndex(before index: Int) -> Int? {
        var k = index
        while k > 0 {
            k -= 1
            if tokens[k].kind != .conflictMarker { return k }
        }
        return nil
    }

    /// The token the next one follows; nil at the start of the input.
    var previousToken: Token? {
        previousTokenIndex(before: tokens.count).map { tokens[$0] }
    }

    /// Whether `token` (nil: the start of the input) leaves the lexer where an
    /// expression may start, so that a `/` there may begin a regex literal.
    func regexMayFollow(_ token: Token?) -> Bool {
        guard let token else { return true }
        switch token.kind {
        case .leftParen, .leftBrace, .leftSquare, .comma, .semicolon, .colon, .interpolationStart,
            .equal, .prefixAmpersand, .infixQuestionMark, .binaryOperator, .prefixOperator:
            return true
        case .keyword:
            // After `self`, `nil`, `true`, … a `/` divides.
            return token.word.keywordRole != .expression
        case .poundKeyword:
            return poundKeywordAllowsRegexAfter(token.start + 1, token.end) ?? false
        case .unknown:
            // Invalid bytes and a `*/` in an operator, yes; a curly-quoted string stands for a value.
            return !startsWithLeftCurlyQuote(token.start)
        default:
            return false
        }
    }

    /// Whether the last token is a postfix `?` or `!` right after `try`, where a `/` must begin a regex.
    var followsTryMark: Bool {
        guard let mark = previousTokenIndex(before: tokens.count),
            tokens[mark].kind == .postfixQuestionMark || tokens[mark].kind == .exclamationMark,
            let before = previousTokenIndex(before: mark)
        else { return false }
        return tokens[before].word == .try
    }

    /// Whether U+201C (`“`, E2 80 9C in UTF-8) is at `k`.
    func startsWithLeftCurlyQuote(_ k: Int) -> Bool {
        k + 2 < n && text[k] == 0xE2 && text[k + 1] == 0x80 && text[k + 2] == 0x9C
    }

    /// Scans a regex literal whose `#`s or `/` start at `start`. With
    /// `mustBeRegex` false, returns nil where the text may be operators instead.
    func scanRegexLiteral(at start: Int, mustBeRegex: Bool) -> RegexScan? {
        let pounds = poundCount(at: start)
        let openSlash = start + pounds
        guard byte(openSlash) == UInt8(ascii: "/") else { return nil }
        var j = openSlash + 1
        var problem: (offset: Int, message: String)?
        func noteProblem(_ offset: Int, _ message: String) {
            if problem == nil { problem = (offset, message) }
        }

        if pounds == 0 {
            if let first = byte(j) {
                if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                    // `/ 1 /` in a result builder is two divisions.
                    guard mustBeRegex else { return nil }
                    noteProblem(j, "bare slash regex literal may not start with space")
                } else if first == UInt8(ascii: "*") || first == UInt8(ascii: "/") {
                    return nil // a comment
                }
            }
            if openSlash > 0 && text[openSlash - 1] == UInt8(ascii: "*") { return nil } // end of a comment
        }

        // `#/` followed by only whitespace up to a line break opens a multi-line literal.
        var firstNewline: Int? = nil
        if pounds > 0 {
            var k = j
            while k < n && (text[k] == UInt8(ascii: " ") || text[k] == UInt8(ascii: "\t")) { k += 1 }
            if isNewline(at: k) {
                firstNewline = k
                j = k
            }
        }

        var groupDepth = 0
        var classDepth = 0
        var lastUnescapedSpace: Int? = nil
        var lastNewlineEnd: Int? = nil
        var escaped = false

        func unterminated(at end: Int) -> RegexScan? {
            guard mustBeRegex else { return nil }
            return RegexScan(end: end, problem: problem ?? (start, "unterminated regex literal"))
        }

        while true {
            if !escaped && byte(j) == UInt8(ascii: "/") {
                let closePounds = pounds > 0 ? poundCount(at: j + 1) : 0
                if closePounds >= pounds {
                    if let lineStart = lastNewlineEnd {
                        var k = lineStart
                        while k < j && (text[k] == UInt8(ascii: " ") || text[k] == UInt8(ascii: "\t")) { k += 1 }
                        if k < j { noteProblem(j, "multi-line regex closing delimiter must appear on new line") }
                    }
                    let end = j + 1 + closePounds
                    if pounds == 0 {
                        if let after = byte(end), after == UInt8(ascii: "*") || after == UInt8(ascii: "/") {
                            return unterminated(at: j) // `/x//`: prefer the comment
                        }
                        if let space = lastUnescapedSpace, space + 1 == j {
                            guard mustBeRegex else { return nil }
                            noteProblem(space, "bare slash regex literal may not end with space")
                        }
                    }
                    return RegexScan(end: end, problem: problem)
                }
            }

            guard j < n else { return unterminated(at: firstNewline ?? j) }
            let characterStart = j
            let (scalar, next) = decodeScalar(text, at: j)
            j = next
            let wasEscaped = escaped
            escaped = false
            guard let c = scalar else {
                noteProblem(characterStart, "invalid UTF-8 found in source file")
                continue
            }
            switch c {
            case 0x0A, 0x0D:
                guard firstNewline != nil else { return unterminated(at: characterStart) }
                lastNewlineEnd = j
            case 0x5C where !wasEscaped: // `\`
                escaped = true
            case 0x28 where !wasEscaped && classDepth == 0: // `(`
                groupDepth += 1
            case 0x29 where !wasEscaped && classDepth == 0: // `)`
                if groupDepth == 0 {
                    // An unbalanced `)` means this is likely not a regex.
                    if !mustBeRegex { return nil }
                } else {
                    groupDepth -= 1
                }
            case 0x5B where !wasEscaped: // `[`
                classDepth += 1
            case 0x5D where !wasEscaped: // `]`
                if classDepth > 0 { classDepth -= 1 }
            case 0:
                noteProblem(characterStart, "nul character embedded in regex literal")
            case let ascii where ascii < 0x80 && !UInt8(ascii).isPrintableASCII && !(firstNewline != nil && ascii == 0x09):
                noteProblem(characterStart, "unprintable ASCII character found in source file")
            case 0x20, 0x09:
                if !wasEscaped { lastUnescapedSpace = characterStart }
            default:
                break
            }
        }
    }
}
