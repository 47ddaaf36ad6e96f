// MARK: - Names

extension LexerState {
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
}

/// The offset after the non-ASCII character at `k` if it continues a name.
/// Rare, so out of line; a free function, since a method would copy the lexer state.
@inline(never)
private func nonASCIIIdentifierContinuation(_ text: UnsafeBufferPointer<UInt8>, at k: Int) -> Int? {
    let (scalar, next) = decodeScalar(text, at: k)
    guard let c = scalar, isIdentifierContinue(c) else { return nil }
    return next
}
