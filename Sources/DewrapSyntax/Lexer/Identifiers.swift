// MARK: - Tokens of a few bytes

extension LexerState {
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

    // MARK: Words

    /// `[a-zA-Z_][a-zA-Z_$0-9]*` and their Unicode kin; keywords by table.
    @inline(always)
    mutating func lexIdentifier() {
        let start = i
        // The end in a local: `i` lives in memory, and is stored once.
        let end = endOfIdentifierContinuation(from: text[start].isASCII ? start + 1 : decodeScalar(text, at: start).next)
        i = end
        let word = words.word(text, start, end)
        if word.isKeyword {
            emit(.keyword, start, end, word: word)
        } else if end - start == 1 && text[start] == UInt8(ascii: "_") {
            emit(.wildcard, start, end)
        } else {
            emit(.identifier, start, end, word: word)
        }
    }

    @inline(always)
    mutating func skipIdentifierContinuation() {
        i = endOfIdentifierContinuation(from: i)
    }

    /// The end of the identifier characters at and after `k`.
    @inline(always)
    func endOfIdentifierContinuation(from k: Int) -> Int {
        // A local index: `i` lives in memory, and storing it for every byte shows.
        var k = k
        while true {
            // Letters and digits eight at a time; `_`, `$` and non-ASCII (rarer) one by one.
            k = endOfASCIIAlphanumerics(text, from: k)
            guard k < n else { return k }
            let b = text[k]
            if b == UInt8(ascii: "_") || b == UInt8(ascii: "$") {
                k += 1
            } else if !b.isASCII, let next = nonASCIIIdentifierContinuation(text, at: k) {
                k = next
            } else {
                return k
            }
        }
    }

    /// `$0`, `$name`, or a lone `$` (an identifier).
    @inline(always)
    mutating func lexDollarIdentifier() {
        let start = i
        i += 1
        skipIdentifierContinuation()
        emit(i - start == 1 ? .identifier : .dollarIdentifier, start, i)
    }

    /// `` `class` ``, `` `a b` `` (raw identifier), `` `$` ``; a lone backtick otherwise.
    mutating func lexEscapedIdentifier() {
        let start = i
        var j = i + 1
        var problem: (offset: Int, message: String)?
        var hasNonWhitespace = false
        var hasNonOperator = false
        var isEmpty = true
        while j < n, text[j] != UInt8(ascii: "`"), text[j] != UInt8(ascii: "\n"), text[j] != UInt8(ascii: "\r") {
            let (scalar, next) = decodeScalar(text, at: j)
            defer { j = next }
            guard let c = scalar else {
                problem = (j, "invalid UTF-8 found in source file")
                continue
            }
            if problem == nil {
                if isForbiddenRawIdentifierWhitespace(c) {
                    problem = (j, "invalid whitespace found in raw identifier")
                } else if c == UInt32(UInt8(ascii: "\\")) {
                    problem = (j, "invalid character '\\' in raw identifier")
                } else if c < 0x80 && !UInt8(c).isPrintableASCII {
                    problem = (j, "unprintable ASCII character found in source file")
                }
            }
            if !isPermittedRawIdentifierWhitespace(c) { hasNonWhitespace = true }
            if (isEmpty && !isOperatorStart(c)) || !isOperatorContinue(c) { hasNonOperator = true }
            isEmpty = false
        }
        if j < n && text[j] == UInt8(ascii: "`") {
            i = j + 1
            if isEmpty {
                problem = (start, "raw identifier cannot be empty")
            } else if problem == nil && !hasNonWhitespace {
                problem = (start, "raw identifier cannot be entirely whitespace")
            } else if problem == nil && !hasNonOperator {
                problem = (start, "raw identifier cannot contain only operator characters")
            }
            if let problem { diagnose(at: problem.offset, problem.message) }
            emit(.identifier, start, i)
            return
        }
        i = start + 1
        emit(.backtick, start, i)
    }

    // MARK: `#`

    /// A shebang, a raw string, a `#/regex/#`, a pound keyword, or a lone `#` before a macro name.
    mutating func lexPound() {
        let start = i
        if start == 0 && byte(1) == UInt8(ascii: "!") {
            i = endOfLine(text, from: 2)
            emit(.shebang, start, i)
            return
        }
        var afterPounds = i
        while afterPounds < n && text[afterPounds] == UInt8(ascii: "#") { afterPounds += 1 }
        if byte(afterPounds) == UInt8(ascii: "\"") {
            lexStringStart(pounds: afterPounds - start)
            return
        }
        if byte(afterPounds) == UInt8(ascii: "/"), let regex = scanRegexLiteral(at: start, mustBeRegex: true) {
            if let problem = regex.problem { diagnose(at: problem.offset, problem.message) }
            i = regex.end
            emit(.regexLiteral, start, regex.end)
            return
        }
        var wordEnd = i + 1
        while wordEnd < n && text[wordEnd].isASCIIIdentifierStart { wordEnd += 1 }
        if poundKeywordAllowsRegexAfter(start + 1, wordEnd) != nil {
            i = wordEnd
            emit(.poundKeyword, start, wordEnd)
        } else {
            punctuation(.pound)
        }
    }

    /// For a pound keyword's name, whether an expression (so a regex) may follow it; nil for other names.
    /// Bytes compared in place: a `String` and its switch cost hundreds of instructions per `#`.
    func poundKeywordAllowsRegexAfter(_ start: Int, _ end: Int) -> Bool? {
        func isName(_ name: StaticString) -> Bool { spells(start, end, name) }
        if isName("if") || isName("elseif") || isName("else") || isName("endif") { return true }
        if isName("sourceLocation") || isName("available") || isName("unavailable") { return false }
        return nil
    }

    /// Whether `text[start..<end]` is `spelling`.
    func spells(_ start: Int, _ end: Int, _ spelling: StaticString) -> Bool {
        guard end - start == spelling.utf8CodeUnitCount else { return false }
        let bytes = spelling.utf8Start
        for k in 0..<spelling.utf8CodeUnitCount where text[start + k] != bytes[k] { return false }
        return true
    }

    // MARK: Editor placeholders and conflict markers

    /// `<#text#>` on one line, from the `<` at `k`.
    func editorPlaceholderEnd(at k: Int) -> Int? {
        var j = k + 2
        while j < n {
            let b = text[j]
            j += 1
            if b == UInt8(ascii: "\n") { return nil }
            if b == UInt8(ascii: "<") && byte(j) == UInt8(ascii: "#") { return nil }
            if b == UInt8(ascii: "#") && byte(j) == UInt8(ascii: ">") { return j + 1 }
        }
        return nil
    }

    /// `<<<<<<< ` … `>>>>>>> ` (git) or `>>>> ` … `<<<<` (Perforce) at the start
    /// of a line, through the end of the terminator's line: one error token.
    mutating func lexConflictMarker() -> Bool {
        let start = i
        guard start == 0 || text[start - 1] == UInt8(ascii: "\n") || text[start - 1] == UInt8(ascii: "\r") else { return false }
        let git = (open: Array("<<<<<<< ".utf8), close: Array(">>>>>>> ".utf8))
        let perforce = (open: Array(">>>> ".utf8), close: Array("<<<<\n".utf8))
        let marker: (open: [UInt8], close: [UInt8])
        if hasPrefix(git.open, at: start) {
            marker = git
        } else if hasPrefix(perforce.open, at: start) {
            marker = perforce
        } else {
            return false
        }
        var j = start + marker.open.count
        while j < n {
            if hasPrefix(marker.close, at: j) && (text[j - 1] == UInt8(ascii: "\n") || text[j - 1] == UInt8(ascii: "\r")) {
                i = endOfLine(text, from: j + marker.close.count)
                diagnose(at: start, "source control conflict marker in source file")
                // Trivia to the compiler: the previous token's context carries over.
                tokens.append(Token(kind: .conflictMarker, flags: pendingFlags, start: start, end: i))
                pendingFlags = []
                return true
            }
            j += 1
        }
        return false
    }

    func hasPrefix(_ bytes: [UInt8], at k: Int) -> Bool {
        guard k + bytes.count <= n else { return false }
        for (offset, b) in bytes.enumerated() where text[k + offset] != b { return false }
        return true
    }

    // MARK: Non-ASCII starts

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

    /// After a `“`: through the closing `”` or `"` on the same line, if any.
    func endOfCurlyQuotedString(from k: Int) -> Int? {
        var j = k
        while j < n {
            let b = text[j]
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") { return nil }
            if b == UInt8(ascii: "\\") && byte(j + 1) == UInt8(ascii: "(") { return nil }
            if b == UInt8(ascii: "\"") { return j + 1 }
            let (scalar, next) = decodeScalar(text, at: j)
            guard let c = scalar else { return nil }
            if c == 0x201D { return next }
            if b == UInt8(ascii: "\\") { j = min(j + 2, n); continue }
            j = next
        }
        return nil
    }
}

/// The offset after the non-ASCII character at `k` if it continues a name.
/// Rare, so out of line; a free function, since a method would copy the lexer state.
@inline(never)
private func nonASCIIIdentifierContinuation(_ text: UnsafeBufferPointer<UInt8>, at k: Int) -> Int? {
    let (scalar, next) = decodeScalar(text, at: k)
    guard let c = scalar, isIdentifierContinue(c) else { return nil }
    return next
}
