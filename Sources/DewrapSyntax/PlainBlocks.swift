// Which code blocks the parser may step over without modelling them.
//
// Lowering reads the inside of a function, accessor or closure body only for
// what a few tokens announce: an attribute (a wrapped local, a wrapped closure
// parameter), `in` (a closure signature), a key path, `#if` or a macro, a
// nested type or function, and `$name` references. A block holding none of the
// first (and `$name` only where its qualifier can be read off the token before
// it) holds nothing else lowering reads, so the parser steps over it by its
// brackets, recording its references, instead of building items, scopes and
// closures that would be thrown away. In view code that is most closures and
// `if` bodies, and many `body` getters.

/// How much of the code inside bodies the parser models.
public enum BodyParsing: Sendable {
    /// Every body, item by item: the whole tree (`--emit-tree`, the corpus checks).
    case all
    /// A code block without anything lowering reads (see `PlainBlocks`) is kept as
    /// its braces only: no items, no scope, no parse problems reported inside.
    /// Blocks that lowering walks whole (initializer bodies, bodies holding an
    /// attribute) are modelled whole, nested blocks included.
    case skippingPlain
}

/// What one pass over the tokens found about every `{ … }` block: whether it is
/// plain (well nested, none of the tokens lowering looks for inside, every `$name`
/// in a plain position) and whether it holds an attribute. Blocks are matched with an explicit stack, so
/// any nesting depth costs no recursion.
struct PlainBlocks {
    private static let plain: UInt8 = 1
    private static let holdsAttribute: UInt8 = 2

    /// Per token; only `{` tokens carry marks.
    private var marks: [UInt8]

    init(tokens: [Token], text: UnsafeBufferPointer<UInt8>) {
        marks = [UInt8](repeating: 0, count: tokens.count)
        // Open brackets: token index, and what was seen inside so far.
        var open: [(token: Int, seen: UInt8)] = []
        let foundTrigger: UInt8 = 1
        let foundAttribute: UInt8 = 2
        for i in tokens.indices {
            let token = tokens[i]
            switch token.kind {
            case .leftBrace, .leftParen, .leftSquare, .interpolationStart:
                open.append((i, 0))
            case .rightBrace, .rightParen, .rightSquare, .interpolationEnd:
                let opener = Self.opener(of: token.kind)
                guard let top = open.last, tokens[top.token].kind == opener else {
                    // Badly nested: from here on every block is left to the parser's own recovery.
                    markOpenBlocksForParser(open)
                    return
                }
                open.removeLast()
                if opener == .leftBrace {
                    marks[top.token] = (top.seen & foundTrigger == 0 ? Self.plain : 0)
                        | (top.seen & foundAttribute != 0 ? Self.holdsAttribute : 0)
                }
                if !open.isEmpty { open[open.count - 1].seen |= top.seen }
            case .atSign:
                if !open.isEmpty { open[open.count - 1].seen |= foundTrigger | foundAttribute }
            case .backslash, .pound, .poundKeyword:
                if !open.isEmpty { open[open.count - 1].seen |= foundTrigger }
            case .dollarIdentifier:
                // `$0`, `$1` are closure arguments, never a projection. A `$name` where the
                // full parse reads it as a reference is recorded while stepping over the block.
                let second = text[token.start + 1]
                if !(second >= UInt8(ascii: "0") && second <= UInt8(ascii: "9")), let top = open.last,
                   !Self.isPlainReference(i, in: tokens, innermostOpen: top.token) {
                    open[open.count - 1].seen |= foundTrigger
                }
            case .keyword, .identifier:
                switch token.word {
                case .in, .struct, .class, .enum, .protocol, .extension, .actor, .func, .typealias:
                    if !open.isEmpty { open[open.count - 1].seen |= foundTrigger }
                default:
                    break
                }
            default:
                break
            }
        }
        markOpenBlocksForParser(open)
    }

    /// Blocks never closed (or not closed in order) are not plain, and the parser
    /// models everything inside them, as it would without this pass.
    private mutating func markOpenBlocksForParser(_ open: [(token: Int, seen: UInt8)]) {
        for entry in open { marks[entry.token] = Self.holdsAttribute }
    }

    /// Whether the `$name` at `i` stands where the full parse records it as a
    /// reference, and with a qualifier read off the token before it (see
    /// `ParserState.skipPlainBlock`): `a.$x`, `self.$x`, `f($x)`, `f(a, $x)`,
    /// `f(label: $x)`, `"\($x)"`, `= $x`, `return $x`, `{ $x`; or an argument
    /// label, `f($x: p)`, which is no reference. Anywhere else (a dictionary key, a
    /// pattern, a type, after an operator) the block is parsed.
    private static func isPlainReference(_ i: Int, in tokens: [Token], innermostOpen: Int) -> Bool {
        guard i >= 2, i + 1 < tokens.count else { return false }
        let previous = tokens[i - 1]
        if tokens[i + 1].kind == .colon {
            return (previous.kind == .leftParen || previous.kind == .comma)
                && tokens[innermostOpen].kind == .leftParen && isCall(tokens, at: innermostOpen)
        }
        switch previous.kind {
        case .period:
            // A member of what ends right before the `.`: a name, `self`, a call, a subscript, `?`/`!`.
            let base = tokens[i - 2]
            switch base.kind {
            case .identifier, .rightParen, .rightSquare, .postfixQuestionMark, .exclamationMark: return true
            case .keyword: return base.word == .self
            default: return false
            }
        case .leftParen, .comma, .colon:
            // An argument (or a labelled one) of a call.
            return tokens[innermostOpen].kind == .leftParen && isCall(tokens, at: innermostOpen)
        case .interpolationStart, .equal, .leftBrace:
            return true
        case .keyword:
            return previous.word == .return
        default:
            return false
        }
    }

    /// The `(` at `open` follows a name, a call or a subscript: it opens arguments, not a pattern or a type.
    private static func isCall(_ tokens: [Token], at open: Int) -> Bool {
        guard open > 0 else { return false }
        let callee = tokens[open - 1]
        switch callee.kind {
        case .identifier, .rightParen, .rightSquare: return true
        case .keyword: return callee.word == .self || callee.word == .super || callee.word == .`init`
        default: return false
        }
    }

    private static func opener(of close: TokenKind) -> TokenKind {
        switch close {
        case .rightBrace: return .leftBrace
        case .rightParen: return .leftParen
        case .rightSquare: return .leftSquare
        default: return .interpolationStart
        }
    }

    /// The block opened by the `{` at `token` may be stepped over.
    @inline(__always)
    func isPlain(_ token: Int) -> Bool { marks[token] & Self.plain != 0 }

    /// The block opened at `token` holds an attribute (or could not be matched):
    /// lowering may read all of it.
    @inline(__always)
    func holdsAttribute(_ token: Int) -> Bool { marks[token] & Self.holdsAttribute != 0 }
}
