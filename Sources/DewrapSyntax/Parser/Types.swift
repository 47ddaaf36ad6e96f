// Type syntax, generic parameter and argument clauses, `where` clauses.

extension ParserState {
    /// Parses a type and returns its span. Reports "expected a type" and
    /// consumes nothing when none starts here. Inlined, so that the common
    /// single name costs no call.
    @discardableResult
    @inline(__always)
    mutating func parseType() -> TokenSpan {
        guard atSingleNameType else { return parseAnyType() }
        let start = index
        advance()
        return TokenSpan(start, index)
    }

    private mutating func parseAnyType() -> TokenSpan {
        let start = index
        guard enterNesting() else {
            advance()
            return TokenSpan(start, end)
        }
        defer { leaveNesting() }
        while at(.atSign) || word.isTypeSpecifier && view.startsType(index + 1) {
            if at(.atSign) {
                _ = parseAttribute()
            } else {
                advance()
                if words[index - 1] == .nonisolated && at(.leftParen) && isAttached(index) { skipBalanced() } // `nonisolated(nonsending)`
            }
        }
        if isOperator(index, "~") && split == 0 { advance() }
        guard parsePrimaryType() else {
            report("expected a type")
            return TokenSpan(start, end)
        }
        parseTypeSuffixes()
        if isOperator(index, "&") && tokens[index].kind == .binaryOperator {
            advance()
            parseType()
        }
        if startsFunctionTypeTail() {
            parseEffects()
            if consume(.arrow) != nil { parseType() }
        }
        return TokenSpan(start, end)
    }

    /// At a plain name (`Int`, `String`, `Entry`, not `some` or `Self`) followed by a
    /// token that cannot continue a type: the type is that name, as the full path
    /// below finds. Most types written in declarations are, and the full path
    /// looks for much more (generic arguments, optionals, function types).
    private var atSingleNameType: Bool {
        @inline(__always) get {
            guard split == 0, nesting < Parser.maximumNesting, tokens[index].kind == .identifier, words[index] == .none else {
                return false
            }
            // A name is never the last token (that is the end of the file), so `index + 1` is a token.
            switch tokens[index + 1].kind {
            case .equal, .leftBrace, .rightBrace, .comma, .rightParen, .rightSquare, .semicolon, .colon, .atSign,
                .poundKeyword, .endOfFile:
                return true
            case .keyword, .identifier:
                // Not effects that could lead to `->` (a function type).
                let next = words[index + 1]
                return next != .async && next != .throws && next != .rethrows
            default:
                return false
            }
        }
    }

    private mutating func parsePrimaryType() -> Bool {
        switch kind {
        case .leftParen:
            parseTupleType()
        case .leftSquare:
            advance()
            if at(.integerLiteral) {
                advance() // `[5 of Int]`
                consume(.of)
            }
            parseType()
            if consume(.colon) != nil { parseType() }
            if consume(.rightSquare) == nil { report("expected ']' in type") }
        case .identifier, .keyword, .wildcard:
            advance()
            if atLeftAngle { parseGenericArguments() }
        case .integerLiteral:
            advance() // a value generic argument: `InlineArray<3, Int>`
        case .prefixOperator where hasText(index, "-") && kind(at: index + 1) == .integerLiteral:
            advance()
            advance()
        default:
            return false
        }
        return true
    }

    private mutating func parseTupleType() {
        guard enterNesting() else { skipBalanced(); return }
        defer { leaveNesting() }
        advance()
        while !at(.rightParen) && !atEnd {
            let before = index
            // `label: T`, `_ name: T`
            if kind.isWord || at(.wildcard) {
                if kind(at: index + 1) == .colon {
                    advance(); advance()
                } else if (kind(at: index + 1).isWord || kind(at: index + 1) == .wildcard) && kind(at: index + 2) == .colon {
                    advance(); advance(); advance()
                }
            }
            parseType()
            if at(.equal) { // a default value in a function type written as a tuple (invalid but tolerated)
                advance()
                scanExpression(.basic)
            }
            if consume(.comma) == nil { break }
            if index == before { advance() }
        }
        if consume(.rightParen) == nil { report("expected ')' in type") }
    }

    private mutating func parseTypeSuffixes() {
        while true {
            if at(.postfixQuestionMark) || at(.exclamationMark) {
                consumeSuffixByte()
            } else if split == 0 && at(.period) && (kind(at: index + 1).isWord) {
                advance()
                advance()
                if atLeftAngle { parseGenericArguments() }
            } else if split == 0 && tokens[index].kind == .postfixOperator && hasText(index, "...") {
                advance()
            } else {
                return
            }
        }
    }

    /// Consumes a one-byte suffix such as the `?` left after splitting `>?`.
    mutating func consumeSuffixByte() {
        if split > 0 { consumeRightAngle() } else { advance() }
    }

    /// `async`, `throws`, `throws(E)`, `rethrows`, `reasync`.
    @discardableResult
    mutating func parseEffects() -> TokenSpan? {
        let start = index
        while at(.async) || at(.throws) || at(.rethrows) || at(.reasync) {
            let isThrows = at(.throws)
            advance()
            if isThrows && at(.leftParen) && isAttached(index) {
                advance()
                parseType()
                if consume(.rightParen) == nil { report("expected ')' after thrown type") }
            }
        }
        return index > start ? TokenSpan(start, end) : nil
    }

    /// After a type: `async`/`throws` leading to `->`, or `->` itself.
    @inline(__always)
    func startsFunctionTypeTail() -> Bool {
        // The words checked here first spare most types the call.
        at(.arrow) || split == 0 && (word == .async || word == .throws || word == .rethrows) && view.effectsLeadToArrow(from: index)
    }

    // MARK: Generic clauses

    /// `<T, [Int], 3>`: types or integers, closed by a `>` that may be split
    /// off a longer operator token (`>>`, `>?`).
    mutating func parseGenericArguments() {
        guard enterNesting() else { advance(); return }
        defer { leaveNesting() }
        consumeLeftAngle()
        while !atRightAngle && !atEnd {
            let before = (index, split)
            parseType()
            if consume(.comma) == nil { break }
            if (index, split) == before { advance() }
        }
        if atRightAngle { consumeRightAngle() } else { report("expected '>' to close generic arguments") }
    }

    mutating func consumeLeftAngle() {
        if tokens[index].end - tokens[index].start - split > 1 { split += 1 } else { advance() }
    }

    /// Whether the `<` here opens generic arguments rather than a comparison:
    /// they parse as types and are followed by a token that settles it.
    func atGenericArgumentsInExpression() -> Bool {
        guard atLeftAngle, !isOperator(index, "<>") else { return false }
        var look = self
        let reported = look.diagnostics.count
        look.parseGenericArguments()
        guard look.diagnostics.count == reported else { return false }
        if look.split > 0 {
            // What is left of a split token: `?` and `!` settle it, other operators do not.
            return look.kind == .postfixQuestionMark || look.kind == .exclamationMark
        }
        switch look.kind {
        case .rightParen, .rightSquare, .leftBrace, .rightBrace, .period, .comma, .semicolon, .endOfFile,
            .exclamationMark, .postfixQuestionMark, .colon:
            return true
        case .binaryOperator:
            return look.hasText(look.index, "&")
        case .leftParen, .leftSquare:
            return !look.atStartOfLine
        default:
            return false
        }
    }

    /// `<T: P, each U, let N: Int>` of a declaration.
    mutating func parseGenericParameters() -> TokenSpan {
        let start = index
        if split > 0 {
            // The `<` split off an operator name (`func ~=<T>`).
            advance()
        } else {
            consumeLeftAngle()
        }
        while !atRightAngle && !atEnd {
            let before = (index, split)
            while at(.atSign) { _ = parseAttribute() }
            if at(.each) || at(.let) { advance() }
            if kind.isWord { advance() }
            if consume(.colon) != nil { parseType() }
            if at(.where) { _ = parseWhereClause() }
            if consume(.comma) == nil { break }
            if (index, split) == before { advance() }
        }
        if atRightAngle { consumeRightAngle() } else { report("expected '>' to close generic parameters") }
        return TokenSpan(start, end)
    }

    /// `where T: P, U == V`, from `where` to the end of the last requirement.
    mutating func parseWhereClause() -> TokenSpan {
        let start = index
        advance()
        repeat {
            parseType()
            if consume(.colon) != nil {
                parseType()
            } else if isOperator(index, "==") {
                advance()
                parseType()
            }
        } while consume(.comma) != nil && !atEnd
        return TokenSpan(start, end)
    }
}

// MARK: - Lookahead

extension TokenView {
    /// Whether token `i` can begin a type (after a specifier like `some`).
    func startsType(_ i: Int) -> Bool {
        switch kind(at: i) {
        case .identifier, .keyword, .leftParen, .leftSquare, .atSign, .wildcard: return true
        case .prefixOperator: return hasText(i, "~")
        default: return false
        }
    }

    /// Whether one or more of `async`, `throws(E)`, `rethrows` from `start` lead to `->`.
    func effectsLeadToArrow(from start: Int) -> Bool {
        var i = start
        while words[i] == .async || words[i] == .throws || words[i] == .rethrows {
            i += 1
            if kind(at: i) == .leftParen && isAttached(i) { i = skipBalancedFrom(i) }
        }
        return i > start && kind(at: i) == .arrow
    }
}
