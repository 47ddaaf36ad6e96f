// MARK: - Public entry point

/// A tolerant recursive-descent parser over the lexer's tokens. It models
/// declarations, statements with their scopes, closures and `$` references
/// exactly, and keeps other expressions as token spans. It never traps: every
/// loop advances, and nesting deeper than `maximumNesting` is reported.
public enum Parser {
    public static let maximumNesting = 128

    public static func parse(_ bytes: [UInt8], bodies: BodyParsing = .all) -> SourceTree {
        parse(bytes, lexed: Lexer.lex(bytes), bodies: bodies)
    }

    /// Parses tokens already lexed from `bytes`.
    public static func parse(_ bytes: [UInt8], lexed: LexedSource, bodies: BodyParsing = .all) -> SourceTree {
        bytes.withUnsafeBufferPointer { text in
            lexed.tokens.withUnsafeBufferPointer { storage in
                guard !lexed.tokens.isEmpty else {
                    return SourceTree(
                        tokens: [], items: SyntaxList(.empty, in: SyntaxTables()), dollarReferences: [], expressionGenericArguments: [], scopes: [],
                        scopeChildren: [],
                        scopeNames: [], lexerDiagnostics: lexed.diagnostics, diagnostics: [])
                }
                var state = ParserState(text: text, tokens: lexed.tokens, storage: storage)
                if bodies != .all {
                    let plainBlocks = PlainBlocks(tokens: lexed.tokens, text: text, declarationsOnly: bodies == .declarationsOnly)
                    state.stepsOverEveryPlainBlock = bodies == .declarationsOnly
                    state.dollarReferences.reserveCapacity(plainBlocks.dollarNames)
                    state.steppedOver.reserveCapacity(plainBlocks.plainBlockCount)
                    state.plainBlocks = plainBlocks
                }
                let items = state.parseFile()
                return SourceTree(
                    tokens: lexed.tokens, items: SyntaxList(items, in: state.tables), dollarReferences: state.dollarReferences,
                    expressionGenericArguments: state.expressionGenericArguments,
                    scopes: state.scopes, scopeChildren: state.scopeChildren, scopeNames: state.scopeNames,
                    lexerDiagnostics: lexed.diagnostics, diagnostics: state.diagnostics,
                    census: state.census, steppedOver: state.steppedOver)
            }
        }
    }
}

// MARK: - State

/// Where items are being parsed; decides what may appear and what ends the list.
enum ItemContext {
    /// Top level: declarations and statements.
    case file
    /// A type body: declarations only.
    case members
    /// A function, closure or statement body.
    case code
    /// The statements of a `switch` case: ends at the next `case`/`default`.
    case switchCase
}

struct ParserState {
    let view: TokenView
    var index = 0
    /// Bytes of `tokens[index]` already consumed, when a `>` was split off an
    /// operator token such as `>>` or `>?` to close generic arguments.
    var split = 0
    var nesting = 0
    var diagnostics: [Diagnostic] = []
    var dollarReferences: [DollarReference] = []
    var expressionGenericArguments: [TokenSpan] = []
    /// Every scope, without children and names until `finishScopes` sorts them into the tables below.
    var scopes: [Scope] = []
    var scopeStack: [Int] = []
    /// The names declared so far with the scope of each, in declaration order.
    var declaredNames: [DeclaredName] = []
    var scopeChildren: [Int] = []
    var scopeNames: [ScopeName] = []
    /// The tables the tree is written into, and the lists being gathered.
    let tree: TreeBuilder
    /// `tree.tables`, for the lists written straight into them.
    let tables: SyntaxTables
    var census = SyntaxCensus()
    /// While scanning a pattern (`case`, `catch`, `for`): the names it binds.
    var patternNames: [Int]?
    /// Inside a `let`/`var` pattern, or a `for` pattern: identifiers bind names.
    var bindingPattern = false
    /// Set when plain code blocks are stepped over (`BodyParsing.skippingPlain`).
    var plainBlocks: PlainBlocks?
    var steppedOver: [TokenSpan] = []
    /// Inside a block that lowering reads whole (an initializer's body, a body
    /// holding an attribute): nothing in it is stepped over.
    var readsWhole = 0
    /// `BodyParsing.declarationsOnly`: blocks lowering would read whole are stepped over too.
    var stepsOverEveryPlainBlock = false

    init(text: UnsafeBufferPointer<UInt8>, tokens: [Token], storage: UnsafeBufferPointer<Token>) {
        view = TokenView(text: text, tokens: tokens, last: tokens.count - 1, storage: storage)
        tree = TreeBuilder(tokenCount: tokens.count)
        tables = tree.tables
        // Room in proportion to the tokens (about one scope and one name per
        // twenty in real code), so that the tables do not grow step by step.
        scopes.reserveCapacity(tokens.count / 16)
        declaredNames.reserveCapacity(tokens.count / 16)
        scopeStack.reserveCapacity(16)
    }

    // MARK: Looking at tokens

    // The small readers below are always inlined: a call to a non-mutating
    // method from a mutating one makes Swift copy the whole state (some 160
    // bytes) to pass it, which cost several copies per token. Longer
    // lookahead is done by methods of `view`.

    var text: UnsafeBufferPointer<UInt8> { @inline(__always) get { view.text } }
    var tokens: [Token] { @inline(__always) get { view.tokens } }
    var words: TokenWords { @inline(__always) get { view.words } }
    var last: Int { @inline(__always) get { view.last } }

    /// The token at `index`, read without a bounds check: `index` never leaves
    /// `0...last` (the tokens are never empty here, `advance` stops at the last
    /// token, and the only jumps land on a token found by scanning: a plain
    /// block's `}`, the end of a lone literal). The current token is read several
    /// times per token parsed; checked, each read cost two more compares and
    /// branches (as did the lookahead reads of `TokenView`).
    var current: Token {
        @inline(__always) get {
            assert(index >= 0 && index <= last)
            return view.storage[index]
        }
    }

    /// The current token's kind; after a split, the kind of the rest.
    var kind: TokenKind {
        @inline(__always) get {
            guard split > 0 else { return current.kind }
            return Self.kindOfRest(startingWith: text[current.start + split])
        }
    }

    /// The kind of what is left of a token after a `>` was split off it.
    private static func kindOfRest(startingWith byte: UInt8) -> TokenKind {
        switch byte {
        case UInt8(ascii: "?"): return .postfixQuestionMark
        case UInt8(ascii: "!"): return .exclamationMark
        case UInt8(ascii: "="): return .equal
        default: return .postfixOperator
        }
    }

    var word: Word { @inline(__always) get { split == 0 ? current.word : .none } }
    var atEnd: Bool { @inline(__always) get { index >= last } }
    var atStartOfLine: Bool { @inline(__always) get { split == 0 && current.flags.contains(.atStartOfLine) } }

    @inline(__always)
    func kind(at i: Int) -> TokenKind { view.kind(at: i) }
    @inline(__always)
    func word(at i: Int) -> Word { view.word(at: i) }
    @inline(__always)
    func isAtStartOfLine(_ i: Int) -> Bool { view.isAtStartOfLine(i) }

    @inline(__always)
    func at(_ kind: TokenKind) -> Bool { self.kind == kind }
    @inline(__always)
    func at(_ word: Word) -> Bool { self.word == word }

    @inline(__always)
    func isOperator(_ i: Int, _ spelling: StaticString) -> Bool { view.isOperator(i, spelling) }
    @inline(__always)
    func hasText(_ i: Int, _ spelling: StaticString) -> Bool { view.hasText(i, spelling) }

    /// The current token starts with `<` (generic arguments or parameters may open).
    var atLeftAngle: Bool {
        @inline(__always) get {
            split == 0
                && (current.kind == .binaryOperator || current.kind == .prefixOperator
                    || current.kind == .postfixOperator)
                && text[current.start] == UInt8(ascii: "<")
        }
    }

    /// The rest of the current token starts with `>`.
    var atRightAngle: Bool {
        @inline(__always) get {
            switch current.kind {
            case .binaryOperator, .prefixOperator, .postfixOperator:
                return text[current.start + split] == UInt8(ascii: ">")
            default:
                return false
            }
        }
    }

    @inline(__always)
    func isAttached(_ i: Int) -> Bool { view.isAttached(i) }

    // MARK: Moving

    @inline(__always)
    mutating func advance() {
        split = 0
        if index < last { index += 1 }
    }

    /// Consumes one `>` of the current token, splitting `>>`, `>?`, `>=` and the like.
    mutating func consumeRightAngle() {
        let length = tokens[index].end - tokens[index].start
        if split + 1 >= length {
            advance()
        } else {
            split += 1
        }
    }

    @discardableResult
    @inline(__always)
    mutating func consume(_ kind: TokenKind) -> Int? {
        guard at(kind) else { return nil }
        let i = index
        advance()
        return i
    }

    @discardableResult
    @inline(__always)
    mutating func consume(_ word: Word) -> Int? {
        guard at(word) else { return nil }
        let i = index
        advance()
        return i
    }

    /// The index one past the last consumed token (for spans).
    var end: Int { split > 0 ? index + 1 : index }

    // MARK: Diagnostics and nesting

    mutating func report(_ message: String, at token: Int? = nil) {
        let offset = tokens[min(token ?? index, last)].start
        diagnostics.append(Diagnostic(.error, at: offset, message))
    }

    /// Enters one level of nesting; false (with a diagnostic) past the limit.
    @inline(__always)
    mutating func enterNesting() -> Bool {
        nesting += 1
        if nesting > Parser.maximumNesting {
            tooDeep()
            return false
        }
        return true
    }

    @inline(never)
    private mutating func tooDeep() {
        nesting -= 1
        report("nesting is deeper than \(Parser.maximumNesting) levels")
    }

    mutating func leaveNesting() { nesting -= 1 }

    /// Skips from an opening `(`, `[`, `{` or `\(` to just past its partner,
    /// without recursion; used for recovery and for spans nobody looks into.
    mutating func skipBalanced() {
        var depth = 0
        repeat {
            switch kind {
            case .leftParen, .leftSquare, .leftBrace, .interpolationStart: depth += 1
            case .rightParen, .rightSquare, .rightBrace, .interpolationEnd: depth -= 1
            case .endOfFile: return
            default: break
            }
            advance()
        } while depth > 0 && !atEnd
    }

    /// At a code block's `{`, when bodies are stepped over and this one is plain (see
    /// `PlainBlocks`): steps to just past its `}` and returns the `}`, recording the
    /// `$name` references inside as the full parse would (each stands where a
    /// reference does, so its qualifier is the token before it). Nil otherwise.
    mutating func stepOverPlainBlock() -> Int? {
        guard readsWhole == 0 || stepsOverEveryPlainBlock, let close = plainBlocks?.plainBlockClose(index) else { return nil }
        let open = index
        for reference in plainBlocks!.takeReferences(from: open, to: close) {
            let token = Int(reference)
            if tokens[token - 1].kind == .period { recordMemberDollar(token) } else { recordDollar(token, .none) }
        }
        index = close
        advance()
        steppedOver.append(TokenSpan(open, index))
        return close
    }

    /// At a code block's `{` that is parsed: whether lowering reads all of it (it holds
    /// an attribute), so that nothing inside is stepped over; the caller counts it in
    /// `readsWhole` while parsing it.
    var opensBlockReadWhole: Bool {
        mutating get { readsWhole == 0 && plainBlocks?.holdsAttribute(index) == true }
    }

    // MARK: File

    mutating func parseFile() -> TableRange {
        let file = pushScope(.file, at: 0)
        let mark = tree.items.count
        while !atEnd {
            let before = (index, split)
            // Every run's items gathered before any is placed: one list, the file's.
            gatherItems(.file)
            if atEnd { break }
            // A stray closing token at the top level.
            report("unexpected '\(String(decoding: text[tokens[index].start..<tokens[index].end], as: UTF8.self))' at top level")
            advance()
            if (index, split) == before { break }
        }
        popScope(file, end: last + 1)
        finishScopes()
        return tree.placeItems(since: mark)
    }

    // MARK: Scopes

    mutating func pushScope(_ kind: ScopeKind, at start: Int) -> Int {
        let id = scopes.count
        let parent = scopeStack.last
        scopes.append(Scope(kind: kind, span: TokenSpan(start, start), parent: parent, children: 0..<0, names: 0..<0))
        scopeStack.append(id)
        return id
    }

    mutating func popScope(_ id: Int, end: Int) {
        scopes[id].span.upper = max(end, scopes[id].span.lower)
        if scopeStack.last == id { scopeStack.removeLast() }
    }

    mutating func declare(_ token: Int, _ kind: NameKind, visibleFrom: Int? = nil, implicit: StaticString? = nil) {
        guard let scope = scopeStack.last else { return }
        declaredNames.append(
            DeclaredName(
                name: ScopeName(token: token, kind: kind, visibleFrom: visibleFrom ?? token, implicitName: implicit), scope: scope))
    }

    /// Fills `scopeChildren` and `scopeNames`, each scope's entries together
    /// and in order (a counting sort by scope), and gives every scope its ranges.
    /// The tables are filled in locals through a cursor per scope (`next`), not
    /// by growing each scope's range in place.
    mutating func finishScopes() {
        // Children: scopes are numbered in source order, so each parent's come in order.
        var next = [Int](repeating: 0, count: scopes.count)
        for scope in scopes { if let parent = scope.parent { next[parent] += 1 } }
        let childCount = placeRanges(counts: &next, \.children)
        var children = [Int](repeating: 0, count: childCount)
        for id in scopes.indices {
            guard let parent = scopes[id].parent else { continue }
            children[next[parent]] = id
            next[parent] += 1
        }
        scopeChildren = children
        // Names, in declaration order within each scope.
        guard !declaredNames.isEmpty else { return }
        for id in next.indices { next[id] = 0 }
        for declared in declaredNames { next[declared.scope] += 1 }
        let nameCount = placeRanges(counts: &next, \.names)
        // Every slot is written exactly once: the cursors start at consecutive ranges whose
        // sizes are the counts of the names they receive. Filling the table uninitialized
        // spares a pass writing a placeholder name into every slot first.
        scopeNames = [ScopeName](unsafeUninitializedCapacity: nameCount) { table, initialized in
            for declared in declaredNames {
                let slot = next[declared.scope]
                precondition(slot < nameCount)
                (table.baseAddress! + slot).initialize(to: declared.name)
                next[declared.scope] = slot + 1
            }
            initialized = nameCount
        }
        declaredNames = []
    }

    /// Given each scope's entry count in `counts`, gives the scopes consecutive ranges
    /// (`range`) of a table, turns each count into where that scope's first entry goes,
    /// and returns the table's size.
    @inline(__always)
    private mutating func placeRanges(counts: inout [Int], _ range: WritableKeyPath<Scope, Range<Int>>) -> Int {
        var total = 0
        for id in scopes.indices {
            let count = counts[id]
            scopes[id][keyPath: range] = total..<total + count
            counts[id] = total
            total += count
        }
        return total
    }

    /// Places the closures collected since `mark` in their table.
    @inline(__always)
    mutating func closures(since mark: Int) -> TableRange {
        tree.placeClosures(since: mark)
    }
}

/// A name with the scope it was declared in, as the parser meets it: one table
/// of these costs one append per name, where a table each cost two.
struct DeclaredName {
    var name: ScopeName
    var scope: Int
}
