// MARK: - Public entry point

/// The result of lexing: tokens in source order, ending with `.endOfFile`,
/// and the problems found on the way.
public struct LexedSource: Sendable {
    public var tokens: [Token]
    public var diagnostics: [Diagnostic]
}

/// A lossless Swift lexer over UTF-8 bytes. Tokens plus the gaps between them
/// (trivia) cover every input byte exactly once, for any input. It never traps
/// and always advances; malformed input gives diagnostics, not failures.
public enum Lexer {
    /// Tokens store 32-bit offsets: inputs up to 4 GiB - 1 bytes.
    public static let maximumInputSize = Int(UInt32.max)

    /// Lexes `text`. An input over `maximumInputSize` gives no tokens and
    /// one error diagnostic.
    public static func lex(_ text: UnsafeBufferPointer<UInt8>) -> LexedSource {
        guard text.count <= maximumInputSize else {
            return LexedSource(tokens: [], diagnostics: [Diagnostic(.error, at: 0, "input is larger than 4 GiB")])
        }
        var state = LexerState(text: text)
        var tokens: [Token] = []
        // Real code has about one token per eight bytes; a denser input pauses
        // the lexer and goes on in an array twice as large (a copy, rarely).
        var capacity = text.count / 5 + 16
        repeat {
            let earlier = tokens
            tokens = Array(unsafeUninitializedCapacity: capacity) { storage, count in
                count = storage.initialize(fromContentsOf: earlier)
                // The storage is valid only in this closure: the sink lets go of it before leaving.
                state.tokens = TokenSink(storage: storage, count: count)
                state.run()
                count = state.tokens.count
                state.tokens = TokenSink()
            }
            capacity *= 2
        } while !state.isFinished
        return LexedSource(tokens: tokens, diagnostics: state.diagnostics)
    }

    public static func lex(_ bytes: [UInt8]) -> LexedSource {
        bytes.withUnsafeBufferPointer { lex($0) }
    }
}

// MARK: - State

/// Where the lexer writes tokens: the uninitialized storage of the array that
/// `Lexer.lex` returns, so tokens are never copied. An array's own `append`
/// checks that its storage is unshared on every call, a runtime call that
/// showed per token; here an append is a compare and a store.
struct TokenSink {
    private var storage = UnsafeMutableBufferPointer<Token>(start: nil, count: 0)
    private(set) var count = 0
    /// Past this count, fewer free slots are left than one step of `run` can fill.
    private var pauseCount = 0

    init() {}

    /// Writes after the first `count` tokens of `storage`, which are initialized.
    init(storage: UnsafeMutableBufferPointer<Token>, count: Int) {
        self.storage = storage
        self.count = count
        self.pauseCount = storage.count - LexerState.mostTokensPerStep
    }

    /// Fewer free slots than one step of `run` can fill; it pauses then.
    var isNearlyFull: Bool { count > pauseCount }

    @inline(__always)
    mutating func append(_ token: Token) {
        // Holds while `run` pauses in time; if that ever breaks, a trap, not a write out of bounds.
        precondition(count < storage.count, "token storage full")
        storage.initializeElement(at: count, to: token)
        count += 1
    }

    /// One of the tokens written so far.
    subscript(index: Int) -> Token {
        precondition(index >= 0 && index < count, "token index out of range")
        return storage[index]
    }
}

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

    // MARK: Main loop

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
    /// rather than a step per token (a call and a look at the mode stack
    /// each): about 40 instructions less a token there, measured.
    @inline(never)
    mutating func lexInterpolationCode() {
        // A single-line string cannot span lines: in its interpolation, a line
        // break ends the interpolation and the string.
        lexCode(inInterpolation: true, stopAtNewline: modes[modes.count - 1].shape.kind != .multiLine)
    }

    /// The loop of `lexCode` and `lexInterpolationCode`: tokens in code position
    /// until the end of the code, a full token storage, or a change of the mode
    /// stack. (Its exits for code outside strings are spelled apart: sharing
    /// them with interpolations cost `lexCode` 140,000 instructions, registers
    /// allocated differently.)
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

    // MARK: Trivia

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
                k &+= 1  // below `n`: cannot overflow
                // One space between tokens is the commonest case: no run to scan.
                if k < n && text[k] != UInt8(ascii: " ") { continue }
                k = endOfSpaces(text, from: k)
                continue
            }
            if b > UInt8(ascii: " ") && b < 0x7F && b != UInt8(ascii: "/") { return }
            if b == UInt8(ascii: "\n") && !stopAtNewline {
                // Most line breaks are followed by indentation: scanned here, not byte by byte.
                k = endOfSpaces(text, from: k &+ 1)  // below `n`: cannot overflow
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

    /// Ends an interpolation (and its string) that the input cut off by a line
    /// break or the end of the file, with zero-length closing tokens.
    mutating func closeInterpolationEarly() {
        guard let interpolation = modes.popLast() else { return }
        emit(.interpolationEnd, i, i)
        modes.removeLast()  // the string the interpolation was in
        closeStringEarly(interpolation.shape)
    }

    /// Emits a zero-length `stringEnd` for a literal cut off at `i`; the caller pops its mode.
    mutating func closeStringEarly(_ shape: StringShape) {
        diagnose(at: shape.start, "unterminated string literal")
        emit(.stringEnd, i, i)
    }
}
