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
    /// For the module's declarations (`ModuleDeclarations`), which read types, their members
    /// and the initial values of properties, never the statements of a body: every code block
    /// is kept as its braces, initializer bodies too, unless it holds a type, a function, a
    /// typealias or `#if`. Those are parsed to be safe: a local type's or a generic
    /// parameter's name is one a walk over the whole file (`declaresType(named:)`) sees, and
    /// `#if` may hide anything; the module's declarations read none of them today.
    case declarationsOnly
}

/// What one pass over the tokens found about every `{ … }` block: whether it is
/// plain (well nested, none of the tokens lowering looks for inside, every `$name`
/// in a plain position) and whether it holds an attribute. Blocks are matched with
/// an explicit stack, so any nesting depth costs no recursion.
struct PlainBlocks {
    /// A mark: bit 31 plain (the low bits hold the index of the closing `}`), bit 30 holds an attribute.
    private static let plain: UInt32 = 1 << 31
    private static let holdsAttribute: UInt32 = 1 << 30
    private static let closeMask: UInt32 = (1 << 30) - 1

    /// The marks of the `{` tokens, in source order, and the other opening brackets left
    /// unclosed, each with its token index: a mark per token cost a zeroed array as long
    /// as the file, while the parser asks for a few blocks.
    private var braceMarks: [(token: Int32, mark: UInt32)] = []
    private var unclosedMarks: [(token: Int32, mark: UInt32)] = []
    /// Where the last look-up in `braceMarks` ended: the parser asks in source order,
    /// so the next answer mostly lies a few braces further on.
    private var lookupStart = 0
    /// The `$name` references in plain positions, in source order, and how many
    /// of them blocks stepped over so far have taken.
    private var references: [Int32] = []
    private var referencesTaken = 0
    /// How many `$name` tokens (not `$0`) the file holds, and how many blocks are
    /// plain: bounds on the parser's references and stepped-over blocks, which it
    /// reserves room for up front instead of growing them step by step.
    private(set) var dollarNames = 0
    private(set) var plainBlockCount = 0

    /// `declarationsOnly`: the triggers of `BodyParsing.declarationsOnly` (declarations and
    /// `#`), not those of lowering (attributes, `in`, key paths, `$name`); no references are kept.
    init(tokens: [Token], text: UnsafeBufferPointer<UInt8>, declarationsOnly: Bool = false) {
        // A block's close is kept in 30 bits: a larger file (a billion tokens) is parsed whole.
        guard tokens.count < Int(Self.closeMask) else { return }
        // Open brackets: token index, the slot of a `{` in `braceMarks`, and what was seen inside so far.
        var open: [(token: Int, slot: Int32, seen: UInt8)] = []
        open.reserveCapacity(64)
        // Filled in locals, stored at the end: the loop below then checks no uniqueness of `self`'s arrays.
        var braceMarks: [(token: Int32, mark: UInt32)] = []
        braceMarks.reserveCapacity(tokens.count / 16)
        var references: [Int32] = []
        // About one token in forty of view code is a `$name`: room for most files at once.
        references.reserveCapacity(tokens.count / 32)
        var dollarNames = 0
        var plainBlockCount = 0
        defer {
            self.braceMarks = braceMarks
            self.references = references
            self.dollarNames = dollarNames
            self.plainBlockCount = plainBlockCount
        }
        let foundTrigger: UInt8 = 1
        let foundAttribute: UInt8 = 2
        tokens.withUnsafeBufferPointer { tokens in
            for i in tokens.indices {
                let token = tokens[i]
                switch token.kind {
                case .leftBrace:
                    open.append((i, Int32(braceMarks.count), 0))
                    braceMarks.append((Int32(i), 0))
                case .leftParen, .leftSquare, .interpolationStart:
                    open.append((i, -1, 0))
                case .rightBrace, .rightParen, .rightSquare, .interpolationEnd:
                    let opener = Self.opener(of: token.kind)
                    // Badly nested: from here on every block is left to the parser's own recovery.
                    guard let top = open.last, tokens[top.token].kind == opener else { return }
                    open.removeLast()
                    if opener == .leftBrace {
                        let isPlain = top.seen & foundTrigger == 0
                        if isPlain { plainBlockCount += 1 }
                        braceMarks[Int(top.slot)].mark =
                            (isPlain ? Self.plain | UInt32(i) : 0)
                            | (top.seen & foundAttribute != 0 ? Self.holdsAttribute : 0)
                    }
                    if !open.isEmpty { open[open.count - 1].seen |= top.seen }
                case .atSign:
                    if !open.isEmpty && !declarationsOnly { open[open.count - 1].seen |= foundTrigger | foundAttribute }
                case .pound, .poundKeyword:
                    if !open.isEmpty { open[open.count - 1].seen |= foundTrigger }
                case .backslash:
                    if !open.isEmpty && !declarationsOnly { open[open.count - 1].seen |= foundTrigger }
                case .dollarIdentifier:
                    guard !declarationsOnly, !token.isClosureArgument(in: text) else { break }
                    dollarNames += 1
                    guard let top = open.last else { break }
                    switch Self.plainUse(i, in: tokens, innermostOpen: top.token) {
                    case .reference: references.append(Int32(i))
                    case .label: break
                    case nil: open[open.count - 1].seen |= foundTrigger
                    }
                case .keyword, .identifier:
                    switch token.word {
                    case .struct, .class, .enum, .protocol, .extension, .actor, .func, .typealias:
                        if !open.isEmpty { open[open.count - 1].seen |= foundTrigger }
                    case .in:
                        if !open.isEmpty && !declarationsOnly { open[open.count - 1].seen |= foundTrigger }
                    default:
                        break
                    }
                default:
                    break
                }
            }
        }
        // Blocks never closed, or still open at a badly nested close (the tokens after it are
        // not marked), are not plain, and the parser models everything inside them, as it
        // would without this pass.
        // (The parser may ask at any of them where it expects a block after an error.)
        for entry in open {
            if entry.slot >= 0 {
                braceMarks[Int(entry.slot)].mark = Self.holdsAttribute
            } else {
                unclosedMarks.append((Int32(entry.token), Self.holdsAttribute))
            }
        }
    }

    /// For a plain block opened by the `{` at `token`, the index of its `}`.
    mutating func plainBlockClose(_ token: Int) -> Int? {
        let mark = mark(of: token)
        return mark & Self.plain != 0 ? Int(mark & Self.closeMask) : nil
    }

    /// The block opened at `token` holds an attribute (or could not be matched):
    /// lowering may read all of it.
    mutating func holdsAttribute(_ token: Int) -> Bool { mark(of: token) & Self.holdsAttribute != 0 }

    /// The mark of the token at `token`: 0 for a token without one.
    private mutating func mark(of token: Int) -> UInt32 {
        if lookupStart < braceMarks.count && Int(braceMarks[lookupStart].token) <= token {
            // Forward from the last answer: over all look-ups, at most once over every brace.
            var k = lookupStart
            while k < braceMarks.count && Int(braceMarks[k].token) < token { k += 1 }
            lookupStart = k
            if k < braceMarks.count && Int(braceMarks[k].token) == token { return braceMarks[k].mark }
        } else if let mark = Self.mark(of: token, in: braceMarks) {
            return mark
        }
        return Self.mark(of: token, in: unclosedMarks) ?? 0
    }

    /// Binary search in marks sorted by token.
    private static func mark(of token: Int, in marks: [(token: Int32, mark: UInt32)]) -> UInt32? {
        var low = 0
        var high = marks.count
        while low < high {
            let middle = (low + high) / 2
            if Int(marks[middle].token) < token { low = middle + 1 } else { high = middle }
        }
        return low < marks.count && Int(marks[low].token) == token ? marks[low].mark : nil
    }

    /// The `$name` references between `open` and `close` (the token indices), taken
    /// in source order: blocks are stepped over from the first to the last.
    mutating func takeReferences(from open: Int, to close: Int) -> ArraySlice<Int32> {
        while referencesTaken < references.count && Int(references[referencesTaken]) < open { referencesTaken += 1 }
        let first = referencesTaken
        while referencesTaken < references.count && Int(references[referencesTaken]) < close { referencesTaken += 1 }
        return references[first..<referencesTaken]
    }

    private enum PlainUse { case reference, label }

    /// How the `$name` at `i` is used when it stands where the full parse records it
    /// as a reference with a qualifier read off the token before it (see
    /// `ParserState.stepOverPlainBlock`): `a.$x`, `self.$x`, `f($x)`, `f(a, $x)`,
    /// `f(label: $x)`, `"\($x)"`, `= $x`, `return $x`, `{ $x`; or as an argument
    /// label, `f($x: p)`, which is no reference. Nil anywhere else (a dictionary
    /// key, a pattern, a type, after an operator): the block is then parsed.
    private static func plainUse(_ i: Int, in tokens: UnsafeBufferPointer<Token>, innermostOpen: Int) -> PlainUse? {
        guard i >= 2, i + 1 < tokens.count else { return nil }
        let previous = tokens[i - 1]
        if tokens[i + 1].kind == .colon {
            let isLabel =
                (previous.kind == .leftParen || previous.kind == .comma)
                && tokens[innermostOpen].kind == .leftParen && isCall(tokens, at: innermostOpen)
            return isLabel ? .label : nil
        }
        switch previous.kind {
        case .period:
            // A member of what ends right before the `.`: a name, `self`, a call, a subscript, `?`/`!`
            // (not a name being declared, `var a.$x`, after which the full parse reads `.$x` on its own).
            let base = tokens[i - 2]
            if i >= 3, tokens[i - 3].word == .let || tokens[i - 3].word == .var { return nil }
            switch base.kind {
            case .identifier, .rightParen, .rightSquare, .postfixQuestionMark, .exclamationMark: return .reference
            case .keyword: return base.word == .self ? .reference : nil
            default: return nil
            }
        case .leftParen, .comma, .colon:
            // An argument (or a labelled one) of a call.
            return tokens[innermostOpen].kind == .leftParen && isCall(tokens, at: innermostOpen) ? .reference : nil
        case .interpolationStart, .equal, .leftBrace:
            return .reference
        case .keyword:
            return previous.word == .return ? .reference : nil
        default:
            return nil
        }
    }

    /// The `(` at `open` follows a name, a call or a subscript: it opens arguments, not a pattern or a type.
    private static func isCall(_ tokens: UnsafeBufferPointer<Token>, at open: Int) -> Bool {
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
}
