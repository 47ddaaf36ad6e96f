// MARK: - Token kinds

/// What a token is. Word tokens are `identifier`, `keyword`, `dollarIdentifier`
/// and `wildcard`; everything between tokens is trivia (see `TriviaPiece`).
public enum TokenKind: UInt8, Sendable, CaseIterable {
    // Words.
    /// A name: `x`, `État`, `` `class` ``, `` `a b` ``, contextual keywords such as `get` or
    /// `some`; also an editor placeholder `<#name#>` (an error, but it stands where a name does).
    case identifier
    /// A keyword the lexer always classifies as one (`var`, `struct`, `self`, `true`, …).
    case keyword
    /// `$0`, `$1`, and `$name` (a projection or a wrapped closure parameter).
    case dollarIdentifier
    /// `_` alone.
    case wildcard

    // Literals.
    case integerLiteral
    case floatLiteral
    /// The opening delimiter of a string literal with its raw pounds: `"`, `"""`, `#"`, `##"""`, `'`.
    case stringStart
    /// Literal text between delimiters and interpolations, escapes included.
    case stringSegment
    /// `\(` or, in a raw string, `\#(`.
    case interpolationStart
    /// The `)` that closes an interpolation. Zero bytes long when the string was cut off.
    case interpolationEnd
    /// The closing delimiter with its pounds. Zero bytes long for an unterminated literal.
    case stringEnd
    /// A whole regex literal: `/a+b/`, `#/.../#`.
    case regexLiteral

    // Punctuation.
    case leftParen, rightParen, leftBrace, rightBrace, leftSquare, rightSquare
    case comma, semicolon, colon
    /// `::`, a module selector.
    case colonColon
    /// `@` before an attribute name.
    case atSign
    /// `#` before a macro name (`#Preview`, `#warning`, `#selector`).
    case pound
    /// `\` of a key path.
    case backslash
    /// A lone backtick that does not start an escaped identifier.
    case backtick
    /// A `.` that is not part of a longer operator.
    case period
    /// `->`
    case arrow
    /// `=` as an assignment or initializer.
    case equal
    /// A prefix `&` (inout argument).
    case prefixAmpersand
    /// A postfix `?` (optional chaining or `T?`).
    case postfixQuestionMark
    /// A `?` of the ternary operator.
    case infixQuestionMark
    /// A postfix `!` (force unwrap or `T!`).
    case exclamationMark

    // Operators, by whitespace on either side.
    case binaryOperator, prefixOperator, postfixOperator

    // Directives and other lexical forms.
    /// `#if`, `#elseif`, `#else`, `#endif`, `#sourceLocation`, `#available`, `#unavailable`.
    case poundKeyword
    /// `#!/usr/bin/env swift` on the first line.
    case shebang
    /// A version-control conflict region (`<<<<<<< ` … `>>>>>>> `): an error.
    case conflictMarker
    /// Bytes the lexer could not make sense of (a stray `*/`, curly quotes): an error.
    case unknown
    /// Zero bytes long, at the end of the input; its leading trivia is the file's tail.
    case endOfFile

    /// The name `--emit-tokens` prints.
    public var name: String { String(describing: self) }

    /// Words are what the token oracle compares with swift-syntax.
    public var isWord: Bool {
        switch self {
        case .identifier, .keyword, .dollarIdentifier, .wildcard: return true
        default: return false
        }
    }
}

// MARK: - Tokens

/// Facts about a token that its kind does not say.
public struct TokenFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A line break lies in the trivia before this token (or it is the first token).
    public static let atStartOfLine = TokenFlags(rawValue: 1 << 0)
}

/// A token: kind and byte range in the source. Its leading trivia is the gap
/// since the previous token's end, so tokens and gaps together cover every byte.
public struct Token: Equatable, Sendable {
    public var kind: TokenKind
    public var flags: TokenFlags
    /// For a name or keyword, the `Word` it spells (looked up once, by the
    /// lexer); `Word.none` otherwise. Sits in what would be padding.
    @usableFromInline var wordValue: UInt8
    @usableFromInline var start32: UInt32
    @usableFromInline var end32: UInt32

    public init(kind: TokenKind, flags: TokenFlags = [], start: Int, end: Int) {
        self.init(kind: kind, flags: flags, word: .none, start: start, end: end)
    }

    init(kind: TokenKind, flags: TokenFlags, word: Word, start: Int, end: Int) {
        self.kind = kind
        self.flags = flags
        self.wordValue = word.rawValue
        self.start32 = UInt32(truncatingIfNeeded: start)
        self.end32 = UInt32(truncatingIfNeeded: end)
    }

    /// The keyword or contextual keyword this token spells (`.none` for any
    /// other token): comparing words costs less than comparing text.
    @inlinable public var word: Word {
        // `wordValue` is only ever set from a `Word`, so it is always a valid raw value.
        unsafeBitCast(wordValue, to: Word.self)
    }

    /// Kind, flags and range; the word follows from the text.
    public static func == (a: Token, b: Token) -> Bool {
        a.kind == b.kind && a.flags == b.flags && a.start32 == b.start32 && a.end32 == b.end32
    }

    /// Byte offset of the first byte of the token text.
    @inlinable public var start: Int { Int(start32) }
    /// Byte offset just past the token text.
    @inlinable public var end: Int { Int(end32) }
    @inlinable public var range: Range<Int> { start..<end }

    /// For a `dollarIdentifier`: whether it is `$0`, `$1`, …, a closure's argument, never a projection.
    @inline(__always)
    func isClosureArgument(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        let second = text[start + 1]
        return second >= UInt8(ascii: "0") && second <= UInt8(ascii: "9")
    }
}
