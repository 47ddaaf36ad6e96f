// MARK: - Main loop and dispatch

extension LexerState {
    /// Lexes until the end of the input, or until `tokens` is nearly full
    /// (call again with more storage to go on).
    ///
    /// The per-token helpers it uses (`skipTrivia`, `lexCodeToken`,
    /// `lexIdentifier`, `emit`, …) are `@inline(always)` (SE-0496): the
    /// optimizer declines `@inline(__always)` for functions of their size, and
    /// a call per token showed in instruction counts.
    mutating func run() {
        while !tokens.isNearlyFull && !isFinished {
            let modeCount = modes.count
            if modeCount == 0 {
                lexCode()
            } else if modes[modeCount - 1].kind == .interpolation {
                lexInterpolationCode()
            } else {
                let startOfStep = i
                lexStringContents(modes[modeCount - 1].shape)
                // A step consumes bytes or changes the mode stack (which can shrink only as often as it grew).
                precondition(i > startOfStep || modes.count != modeCount, "lexer made no progress")
            }
        }
    }

    /// Steps through code outside any string literal (most of the input) until
    /// the end, a full token storage, or a string literal's start. A function
    /// of its own, apart from the string steps, so that its few hot values stay
    /// in registers.
    @inline(never)
    mutating func lexCode() {
        lexCode(inInterpolation: false, stopAtNewline: false)
    }

    /// Steps through the code of an interpolation until its `)`, a string
    /// literal's start, or a full token storage. The same loop as `lexCode`
    /// rather than a step of `run` per token, which cost a call and a look at
    /// the mode stack for every token of an interpolation.
    @inline(never)
    mutating func lexInterpolationCode() {
        // A single-line string cannot span lines: in its interpolation, a line
        // break ends the interpolation and the string.
        lexCode(inInterpolation: true, stopAtNewline: modes[modes.count - 1].shape.kind != .multiLine)
    }

    /// The loop of `lexCode` and `lexInterpolationCode`: tokens in code position
    /// until the end of the code, a full token storage, or a change of the mode
    /// stack. (Its exits for code outside strings are spelled apart: shared
    /// with interpolations, they made the compiler allocate `lexCode`'s
    /// registers worse.)
    @inline(always)
    mutating func lexCode(inInterpolation: Bool, stopAtNewline: Bool) {
        while !tokens.isNearlyFull {
            skipTrivia(stopAtNewline: stopAtNewline)
            guard i < n && !(stopAtNewline && isNewline(at: i)) else {
                if inInterpolation {
                    closeInterpolationEarly()
                } else {
                    emit(.endOfFile, i, i)
                    isFinished = true
                }
                return
            }
            let tokenStart = i
            // A name or simple punctuation takes at least its first byte; only the
            // paths that return true (a scanner of their own, a string literal's
            // start, an interpolation's end) need checking.
            if lexCodeToken(inInterpolation: inInterpolation) {
                precondition(i > tokenStart, "lexer made no progress")
                // The mode stack may have changed: `run` looks at it again.
                if inInterpolation || !modes.isEmpty { return }
            }
        }
    }

    /// The token at `i` in code position: the lexer's one dispatch on a
    /// token's first byte (one switch, one jump table). `inInterpolation` (a
    /// constant where inlined) says whether the code is in an interpolation,
    /// innermost on the mode stack; there, parentheses are counted, and the `)`
    /// that closes the interpolation returns to its string's text.
    ///
    /// Trivia has been skipped, so the byte at `i` is printable ASCII other
    /// than a space (every one has its arm below) or the first byte of a valid
    /// UTF-8 sequence that trivia leaves to a token (`scanNonASCIITrivia`).
    ///
    /// Names, punctuation and `$name` (most tokens) are lexed in place and
    /// advance by construction. Returns true after the other arms: those call
    /// a scanner of their own, whose progress the caller checks, and a string
    /// literal's start or an interpolation's end may leave the lexer in a
    /// string's text (the mode stack changed: the caller hands back to `run`).
    /// The arms are in the order that measured fewest instructions (names,
    /// punctuation, then the rest; see docs/PERFORMANCE.md): the order changes
    /// how the compiler lays out the whole loop.
    @inline(always)
    mutating func lexCodeToken(inInterpolation: Bool) -> Bool {
        switch text[i] {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            lexIdentifier()
        case UInt8(ascii: "("):
            if inInterpolation { modes[modes.count - 1].parenDepth += 1 }
            punctuation(.leftParen)
        case UInt8(ascii: ")"):
            if inInterpolation {
                // The `)` that ends the interpolation: the string's text resumes.
                if modes[modes.count - 1].parenDepth == 0 {
                    let interpolation = modes.removeLast()
                    punctuation(.interpolationEnd)
                    return resumeString(interpolation.shape)
                }
                modes[modes.count - 1].parenDepth -= 1
            }
            punctuation(.rightParen)
        case UInt8(ascii: "{"): punctuation(.leftBrace)
        case UInt8(ascii: "}"): punctuation(.rightBrace)
        case UInt8(ascii: "["): punctuation(.leftSquare)
        case UInt8(ascii: "]"): punctuation(.rightSquare)
        case UInt8(ascii: ","): punctuation(.comma)
        case UInt8(ascii: ";"): punctuation(.semicolon)
        case UInt8(ascii: "@"): punctuation(.atSign)
        case UInt8(ascii: "\\"): punctuation(.backslash)
        case UInt8(ascii: ":") where byte(i + 1) != UInt8(ascii: ":"): punctuation(.colon)
        case UInt8(ascii: ":"):
            lexColonColon()
            return true
        case UInt8(ascii: "$"): lexDollarIdentifier()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            lexStringStart(pounds: 0)
            return true
        // The commonest operators, each without the general operator scan: a `.`
        // that stands alone (`x.y`, `.none`), and ` = ` (a third of them), whose
        // space on both sides makes it neither left- nor right-bound, so consistent.
        case UInt8(ascii: ".") where isPeriodAlone(at: i): punctuation(.period)
        case UInt8(ascii: "=") where i > 0 && text[i - 1] == UInt8(ascii: " ") && byte(i + 1) == UInt8(ascii: " "):
            punctuation(.equal)
        case UInt8(ascii: "."), UInt8(ascii: "="), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "+"),
            UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "~"):
            lexOperator()
            return true
        case UInt8(ascii: "#"):
            // A raw string, among others: it may leave the lexer in the literal's text.
            lexPound()
            return true
        case UInt8(ascii: "`"):
            lexEscapedIdentifier()
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            lexNumber()
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "?"):
            lexBangOrQuestionMark()
            return true
        case UInt8(ascii: "<"):
            lexLeftAngle()
            return true
        case UInt8(ascii: ">"):
            lexRightAngle()
            return true
        default:
            lexNonASCIIToken()
            return true
        }
        return false
    }

    // MARK: Arms of the dispatch

    /// `!` or `?`: postfix when it touches what is before it (`x!.y`, `a?[0]`,
    /// `try?`), standing alone; otherwise the start of an operator (`!a`, `??`).
    mutating func lexBangOrQuestionMark() {
        guard isLeftBound(operatorStart: i) else {
            lexOperator()
            return
        }
        let kind: TokenKind = text[i] == UInt8(ascii: "!") ? .exclamationMark : .postfixQuestionMark
        punctuation(kind)
    }

    /// `::`, a module selector.
    mutating func lexColonColon() {
        i += 2
        emit(.colonColon, i - 2, i)
    }

    /// `<`: an editor placeholder `<#name#>`, a conflict marker, or an operator.
    mutating func lexLeftAngle() {
        let start = i
        if byte(i + 1) == UInt8(ascii: "#"), let end = editorPlaceholderEnd(at: i) {
            i = end
            diagnose(at: start, "editor placeholder in source file")
            emit(.identifier, start, end)
        } else if !lexConflictMarker() {
            lexOperator()
        }
    }

    /// `>`: a conflict marker (Perforce's opens with `>>>> `), or an operator.
    mutating func lexRightAngle() {
        if !lexConflictMarker() { lexOperator() }
    }

    /// Whether the `.` at `k` is an operator of its own: no operator character
    /// follows (a non-ASCII one might, so that case takes the general path).
    @inline(__always)
    func isPeriodAlone(at k: Int) -> Bool {
        k + 1 == n || (text[k + 1].isASCII && !text[k + 1].isASCIIOperatorCharacter)
    }

    @inline(always)
    mutating func punctuation(_ kind: TokenKind) {
        i += 1
        emit(kind, i - 1, i)
    }

    /// A token whose first byte is not ASCII: a Unicode identifier or
    /// operator, or an error token. Trivia has taken invalid UTF-8 and every
    /// character that starts no token (`scanNonASCIITrivia`): what is left
    /// starts a name or an operator, continues a name, or is a curly quote.
    mutating func lexNonASCIIToken() {
        let start = i
        let (scalar, next) = decodeScalar(text, at: i)
        guard let c = scalar else { preconditionFailure("invalid UTF-8 reached the token dispatch, not trivia") }
        if isIdentifierStart(c) {
            lexIdentifier()
        } else if isOperatorStart(c) {
            lexOperator()
        } else if isIdentifierContinue(c) {
            // A combining mark cannot start a name: keep the would-be name as one identifier.
            i = next
            skipIdentifierContinuation()
            diagnose(at: start, "an identifier cannot begin with this character")
            emit(.identifier, start, i)
        } else if c == 0x201C {
            i = endOfCurlyQuotedString(from: next) ?? next
            diagnose(at: start, "unicode curly quote found, replace with '\"'")
            emit(.unknown, start, i)
        } else {
            assert(c == 0x201D, "a character that starts no token reached the token dispatch, not trivia")
            i = next
            diagnose(at: start, "unicode curly quote found, replace with '\"'")
            emit(.unknown, start, i)
        }
    }
}
