// MARK: - Looking ahead

/// The tokens and the text they cover, read-only: what looking ahead needs.
/// Lookahead helpers that do not move are methods of this view rather than
/// of `ParserState`: calling a non-mutating method of the state from a
/// mutating one copies the whole state (some 160 bytes) first, while the view
/// is four words passed in registers.
struct TokenView {
    let text: UnsafeBufferPointer<UInt8>
    let tokens: [Token]
    let last: Int
    /// The storage of `tokens`, valid while `Parser.parse` runs: the current token
    /// (`ParserState.current`) is read through it without a bounds check.
    let storage: UnsafeBufferPointer<Token>

    /// The `Word` of each token (`.none` for non-words and plain names).
    var words: TokenWords { @inline(__always) get { TokenWords(tokens: tokens) } }

    // Lookahead reads: one unsigned compare bounds `i` on both sides (a negative
    // index reads as past the end), after which `storage` needs no second check.
    @inline(__always)
    func kind(at i: Int) -> TokenKind { isToken(i) ? storage[i].kind : .endOfFile }
    @inline(__always)
    func word(at i: Int) -> Word { isToken(i) ? storage[i].word : .none }
    @inline(__always)
    func isAtStartOfLine(_ i: Int) -> Bool { isToken(i) && storage[i].flags.contains(.atStartOfLine) }
    @inline(__always)
    func isToken(_ i: Int) -> Bool { UInt(bitPattern: i) <= UInt(bitPattern: last) }

    /// Whether token `i` is an operator spelled exactly `spelling`.
    @inline(__always)
    func isOperator(_ i: Int, _ spelling: StaticString) -> Bool {
        guard i <= last else { return false }
        switch tokens[i].kind {
        case .binaryOperator, .prefixOperator, .postfixOperator, .prefixAmpersand: break
        default: return false
        }
        return hasText(i, spelling)
    }

    @inline(__always)
    func hasText(_ i: Int, _ spelling: StaticString) -> Bool {
        let token = tokens[i]
        guard token.end - token.start == spelling.utf8CodeUnitCount else { return false }
        let bytes = spelling.utf8Start
        for k in 0..<spelling.utf8CodeUnitCount where text[token.start + k] != bytes[k] { return false }
        return true
    }

    @inline(__always)
    func isClosureArgument(_ i: Int) -> Bool { tokens[i].isClosureArgument(in: text) }

    /// Whether nothing separates token `i` from the one before it.
    @inline(__always)
    func isAttached(_ i: Int) -> Bool {
        i > 0 && i <= last && tokens[i].start == tokens[i - 1].end
    }

    /// Whether token `i`, a `(` after a declaration's modifier or attribute name, opens
    /// its arguments: swiftc takes `private (set)` and `@W /*c*/ (k: 1)` so (with a
    /// warning in Swift 5 mode, an error in Swift 6), but not a `(` on the next line.
    @inline(__always)
    func opensDeclarationArguments(_ i: Int) -> Bool {
        isToken(i) && tokens[i].kind == .leftParen && !isAtStartOfLine(i)
    }
}

/// The words of the tokens, read from the tokens themselves (the lexer looked them up).
struct TokenWords {
    let tokens: [Token]

    subscript(_ i: Int) -> Word { tokens[i].word }
}
