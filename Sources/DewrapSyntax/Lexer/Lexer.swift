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

// MARK: - Token storage

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
