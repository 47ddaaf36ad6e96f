// MARK: - The lexer's state
//
// One value-type cursor over the bytes, with the explicit mode stack for string
// literals. Its parts are extensions in the files beside this one: the main loop and
// the dispatch on a token's first byte (Dispatch.swift), trivia, names, numbers,
// operators, strings, regex literals, `#` and error tokens.

/// The three shapes of string literal, each with its own closing delimiter.
enum StringKind: UInt8 {
    case singleLine, multiLine, singleQuote
}

/// An open string literal: its shape, raw `#` count and where it started.
struct StringShape {
    var kind: StringKind
    var pounds: Int
    var start: Int
}

/// An entry of the explicit mode stack: inside a string, or inside its `\( … )`.
/// (An empty stack is code.) A plain struct, not an enum with payloads, which
/// would cost a runtime call per token to inspect.
struct LexerMode {
    enum Kind: UInt8 { case string, interpolation }
    var kind: Kind
    var shape: StringShape
    /// In an interpolation, the count of unclosed `(` opened within it.
    var parenDepth = 0

    static func string(_ shape: StringShape) -> LexerMode { LexerMode(kind: .string, shape: shape) }
    static func interpolation(_ shape: StringShape) -> LexerMode { LexerMode(kind: .interpolation, shape: shape) }
}

/// Where the lexer is: the bytes, the offset `i` of the next byte, the mode
/// stack, and the tokens and diagnostics written so far.
struct LexerState {
    let text: UnsafeBufferPointer<UInt8>
    let n: Int
    let words = WordTable.shared
    var i = 0
    var tokens = TokenSink()
    /// Set once `endOfFile` is emitted; until then `run` only paused for more token storage.
    var isFinished = false
    var diagnostics: [Diagnostic] = []
    var modes: [LexerMode] = []
    var pendingFlags: TokenFlags = .atStartOfLine

    init(text: UnsafeBufferPointer<UInt8>) {
        self.text = text
        self.n = text.count
    }

    /// The most tokens one step of `run` emits (three: a plain literal's start,
    /// text and end, or an interpolation's end and its string's text and end),
    /// with a margin.
    static let mostTokensPerStep = 4

    // MARK: Reading bytes

    @inline(__always) func isNewline(at k: Int) -> Bool {
        k < n && (text[k] == UInt8(ascii: "\n") || text[k] == UInt8(ascii: "\r"))
    }

    @inline(__always) func byte(_ k: Int) -> UInt8? {
        k < n ? text[k] : nil
    }

    // MARK: Emitting

    /// Appends a token. What it means for the next one is read back from it
    /// when needed (`previousToken`), which is rarely.
    @inline(always)
    mutating func emit(_ kind: TokenKind, _ start: Int, _ end: Int, word: Word = .none) {
        tokens.append(Token(kind: kind, flags: pendingFlags, word: word, start: start, end: end))
        pendingFlags = []
    }

    mutating func diagnose(at offset: Int, _ message: String) {
        diagnostics.append(Diagnostic(.error, at: offset, message))
    }
}
