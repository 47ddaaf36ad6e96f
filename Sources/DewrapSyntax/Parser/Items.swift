// Item lists (file, type body, code block), `#if` regions and the decision
// between a declaration and a statement.

extension ParserState {
    /// Items until `}`, the end of the file, a `#elseif`/`#else`/`#endif`, or
    /// (in a switch case) the next case label.
    mutating func parseItems(_ context: ItemContext) -> TableRange {
        let mark = tree.items.count
        gatherItems(context)
        return tree.placeItems(since: mark)
    }

    /// The items of `parseItems`, left on the builder's stack.
    mutating func gatherItems(_ context: ItemContext) {
        while !atItemListEnd(context) {
            let before = (index, split)
            parseItem(context)
            if (index, split) == before {
                report("unexpected '\(tokenText(index))'")
                advance()
            }
        }
    }

    // `atItemListEnd`, `declarationKeyword` and `isDeclarationKeyword` run
    // once per item, each from one place: inlined there, since a call from
    // mutating code copies the whole state first. `@inline(always)`
    // (SE-0496): the optimizer declines `@inline(__always)` at their size.
    @inline(always)
    func atItemListEnd(_ context: ItemContext) -> Bool {
        switch kind {
        case .endOfFile, .rightBrace:
            return true
        case .poundKeyword:
            if isPound("#if") { return context == .switchCase && view.ifConfigHoldsCaseLabels(index) }
            return isPound("#elseif") || isPound("#else") || isPound("#endif")
        default:
            break
        }
        guard context == .switchCase else { return false }
        return at(.case) || at(.default) || (at(.atSign) && word(at: index + 1) == .unknown)
    }

    @inline(__always)
    func isPound(_ spelling: StaticString) -> Bool { split == 0 && kind == .poundKeyword && hasText(index, spelling) }

    func tokenText(_ i: Int) -> String {
        String(decoding: text[tokens[i].start..<tokens[i].end], as: UTF8.self)
    }

    /// One item (none for a `;` or a line skipped in error), onto the builder's stack.
    mutating func parseItem(_ context: ItemContext) {
        if consume(.semicolon) != nil || consume(.shebang) != nil { return }
        if at(.pound) {
            // A freestanding macro (`#warning("…")`, `#Preview { … }`) also stands among members.
            let statement = parseStatement()
            tree.items.append(.statement(tree.add(statement)))
            return
        }
        if isPound("#if") && view.attributeIfConfigEnd(from: index) == nil {
            let ifConfig = parseIfConfig(context)
            tree.items.append(.ifConfig(tree.add(ifConfig)))
            return
        }
        if let keyword = declarationKeyword(context) {
            let item = parseDeclaration(keyword: keyword, context: context)
            tree.items.append(item)
            return
        }
        if context == .members {
            // Only declarations belong in a type body: report and resynchronise
            // at the next line, brace or declaration.
            report("expected a declaration, found '\(tokenText(index))'")
            skipToNextLine()
            return
        }
        let statement = parseStatement()
        tree.items.append(.statement(tree.add(statement)))
    }

    /// Skips at least one token, then up to the next line start or brace.
    mutating func skipToNextLine() {
        repeat {
            if at(.leftBrace) || at(.leftParen) || at(.leftSquare) { skipBalanced() } else { advance() }
        } while !atEnd && !atStartOfLine && !at(.rightBrace)
    }

    // MARK: Declaration or statement

    /// When attributes and modifiers from here lead to a declaration keyword,
    /// the index of that keyword.
    @inline(always)
    func declarationKeyword(_ context: ItemContext) -> Int? {
        var i = index
        guard split == 0 else { return nil }
        while i < last {
            if tokens[i].kind == .poundKeyword, hasText(i, "#if"), let after = view.attributeIfConfigEnd(from: i) {
                i = after
                continue
            }
            if tokens[i].kind == .atSign {
                // `@unknown default:` is a case label, not a declaration.
                if words[i + 1] == .unknown { return nil }
                i = view.skipAttribute(from: i, ofDeclaration: true)
                continue
            }
            let word = words[i]
            if isDeclarationKeyword(i) || (word == .case && context == .members) { return i }
            guard word.isDeclarationModifier else { return nil }
            i += 1
            if view.opensDeclarationArguments(i) { i = view.skipBalancedFrom(i) }
        }
        return nil
    }

    /// Whether token `i` introduces a declaration by itself.
    @inline(always)
    func isDeclarationKeyword(_ i: Int) -> Bool {
        switch words[i] {
        case .var, .let, .func, .`init`, .deinit, .subscript, .struct, .enum, .protocol, .extension,
            .typealias, .associatedtype, .import, .precedencegroup, .operator:
            // `init` and `self`-like words also start expressions (`init(…)` in a call is rare at
            // statement start); `let`/`var` are always declarations here.
            return true
        case .class:
            // `class Foo`, not `class func`/`class var` (a modifier).
            let next = words[i + 1]
            return
                !(next.isDeclarationModifier || next == .func || next == .var || next == .let || next == .subscript
                || next == .typealias || next == .`init`)
        case .actor, .macro:
            // Contextual: `actor Name`, `macro name`.
            return kind(at: i + 1) == .identifier && !isAtStartOfLine(i + 1)
        default:
            return false
        }
    }

    // MARK: #if

    mutating func parseIfConfig(_ context: ItemContext) -> IfConfigRecord {
        let start = index
        guard enterNesting() else {
            skipToEndif()
            return IfConfigRecord(clauses: .empty, endif: nil, span: TokenSpan(start, end))
        }
        defer { leaveNesting() }
        let mark = tree.clauses.count
        while isPound("#if") || isPound("#elseif") || isPound("#else") {
            let keyword = index
            let hasCondition = !isPound("#else")
            advance()
            var condition: TokenSpan?
            if hasCondition { condition = skipDirectiveCondition() }
            let items = parseItems(context)
            tree.clauses.append(ClauseRecord(keyword: keyword, condition: condition, items: items))
        }
        var endif: Int?
        if isPound("#endif") {
            endif = index
            advance()
        } else {
            report("expected '#endif'")
        }
        return IfConfigRecord(clauses: tree.placeClauses(since: mark), endif: endif, span: TokenSpan(start, end))
    }

    /// From a `#if`, past its matching `#endif` (or to the end), without recursion.
    mutating func skipToEndif() {
        var depth = 0
        repeat {
            if isPound("#if") { depth += 1 } else if isPound("#endif") { depth -= 1 }
            advance()
        } while depth > 0 && !atEnd
    }

    /// A `#if` condition: the rest of its line, brackets balanced.
    mutating func skipDirectiveCondition() -> TokenSpan {
        let start = index
        while !atEnd && !(atStartOfLine && index > start) {
            if at(.leftParen) { skipBalanced() } else { advance() }
        }
        return TokenSpan(start, index)
    }
}

// MARK: - Lookahead over attributes and brackets

extension TokenView {
    /// When the `#if` at `start` holds nothing but attributes in every
    /// branch (it conditions the attributes of the next declaration), the
    /// index after its `#endif`.
    func attributeIfConfigEnd(from start: Int) -> Int? {
        var i = start
        var sawAttribute = false
        while kind(at: i) == .poundKeyword && (i == start && hasText(i, "#if") || hasText(i, "#elseif") || hasText(i, "#else")) {
            let hasCondition = !hasText(i, "#else")
            i += 1
            if hasCondition {
                while i < last && !isAtStartOfLine(i) {
                    i = kind(at: i) == .leftParen ? skipBalancedFrom(i) : i + 1
                }
            }
            while kind(at: i) == .atSign {
                i = skipAttribute(from: i)
                sawAttribute = true
            }
        }
        guard sawAttribute, kind(at: i) == .poundKeyword, hasText(i, "#endif") else { return nil }
        return i + 1
    }

    /// The index after an attribute starting at the `@` at `i` (as `parseAttribute` reads it).
    func skipAttribute(from start: Int, ofDeclaration: Bool = false) -> Int {
        var i = start + 1
        if kind(at: i).isWord { i += 1 }
        // `@A.B`, `@A<T>`, `@A<T>.B` (as `parseAttribute` reads them).
        while true {
            if kind(at: i) == .period && kind(at: i + 1).isWord {
                i += 2
            } else if i <= last && isAttached(i) && startsWithLeftAngle(i) {
                i = skipAngleBrackets(from: i)
                guard kind(at: i) == .period && kind(at: i + 1).isWord else { break }
            } else {
                break
            }
        }
        if kind(at: i) == .leftParen && (ofDeclaration ? !isAtStartOfLine(i) : isAttached(i))
            && !takesNoArguments(TokenSpan(start + 1, i))
        {
            i = skipBalancedFrom(i)
        }
        return i
    }

    func startsWithLeftAngle(_ i: Int) -> Bool {
        switch kind(at: i) {
        case .binaryOperator, .prefixOperator, .postfixOperator: return text[tokens[i].start] == UInt8(ascii: "<")
        default: return false
        }
    }

    /// From a token starting with `<`, the index after the `>` that closes
    /// it, counting angle brackets inside operator tokens (`>>`, `>?`).
    func skipAngleBrackets(from start: Int) -> Int {
        var depth = 0
        var i = start
        while i < last {
            switch tokens[i].kind {
            case .binaryOperator, .prefixOperator, .postfixOperator:
                for k in tokens[i].start..<tokens[i].end {
                    if text[k] == UInt8(ascii: "<") { depth += 1 } else if text[k] == UInt8(ascii: ">") { depth -= 1 }
                }
            case .leftBrace, .rightBrace, .semicolon:
                return i
            default:
                break
            }
            i += 1
            if depth <= 0 { return i }
        }
        return i
    }

    /// From an opening bracket at `i`, the index after its partner (by lookahead).
    func skipBalancedFrom(_ start: Int) -> Int {
        var depth = 0
        var i = start
        repeat {
            switch kind(at: i) {
            case .leftParen, .leftSquare, .leftBrace, .interpolationStart: depth += 1
            case .rightParen, .rightSquare, .rightBrace, .interpolationEnd: depth -= 1
            case .endOfFile: return i
            default: break
            }
            i += 1
        } while depth > 0 && i <= last
        return i
    }
}
