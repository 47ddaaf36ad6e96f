// Expressions are kept as token spans. Scanning them still follows the
// grammar closely enough to know where each one ends (the compiler's rules
// for line breaks and trailing closures), to find closures and `if`/`switch`
// expressions with their scopes, and to record every `$name` reference.

/// How an expression may end.
enum ExpressionFlavor {
    /// Anywhere trailing closures are allowed.
    case basic
    /// After `=` in a variable declaration: `{ didSet … }` is not a closure.
    case initializer
    /// In `if`/`while`/`guard` conditions, a `for` sequence, a `switch`
    /// subject: a `{` starts the body unless it is clearly a trailing closure.
    case condition
}

extension ParserState {
    /// An expression: prefix operators, a primary, postfix suffixes, and
    /// binary operators, `? :`, `as`, `is` joining more of them.
    mutating func scanExpression(_ flavor: ExpressionFlavor) {
        // A lone literal (`0`, `false`, `"text"` before `,`, `)` or the next declaration), as
        // in most initial values and arguments: taken at once, as the steps below would
        // take it, without their calls.
        if split == 0, nesting < Parser.maximumNesting, let end = view.loneLiteralEnd(from: index) {
            index = end
            return
        }
        guard enterNesting() else {
            skipToNextLine()
            return
        }
        defer { leaveNesting() }
        guard scanSequenceElement(flavor) else { return }
        while !atEnd {
            switch kind {
            case .binaryOperator, .equal, .arrow:
                advance()
                _ = scanSequenceElement(flavor)
            case .infixQuestionMark:
                advance()
                scanExpression(flavor)
                if consume(.colon) == nil { report("expected ':' in the conditional expression") }
                _ = scanSequenceElement(flavor)
            case .keyword where word == .as || word == .is:
                advance()
                if at(.postfixQuestionMark) || at(.exclamationMark) { advance() }
                parseType()
            case .keyword where word == .throws || word == .rethrows:
                // A function type written as an expression: `(() throws -> Void).self`.
                guard startsFunctionTypeTail() else { return }
                parseEffects()
            case .identifier where word == .async && startsFunctionTypeTail():
                parseEffects()
            default:
                return
            }
        }
    }

    /// One operand with its prefixes and suffixes; false when nothing could start here.
    mutating func scanSequenceElement(_ flavor: ExpressionFlavor) -> Bool {
        let start = index
        let savedBinding = bindingPattern
        defer { bindingPattern = savedBinding }
        while !atEnd {
            switch kind {
            case .prefixOperator, .prefixAmpersand:
                advance()
                continue
            case .keyword where word == .try:
                advance()
                if at(.postfixQuestionMark) || at(.exclamationMark) { advance() }
                continue
            case .keyword where (word == .let || word == .var) && patternNames != nil:
                advance()
                bindingPattern = true
                continue
            case .keyword where word == .is && patternNames != nil:
                advance() // `case is T:`
                parseType()
                return true
            case .identifier
            where
                (word == .await || word == .unsafe || word == .consume || word == .copy
                || word == .each || word == .discard || word == .yield)
                && view.startsOperandOnSameLine(index + 1):
                advance()
                continue
            case .keyword where word == .repeat && view.startsOperandOnSameLine(index + 1):
                advance()
                continue
            default:
                break
            }
            break
        }
        guard scanPrimary(flavor) else { return index > start }
        scanSuffixes(flavor)
        return true
    }

    // MARK: Primary expressions

    private mutating func scanPrimary(_ flavor: ExpressionFlavor) -> Bool {
        switch kind {
        case .identifier:
            if bindingPattern, !(kind(at: index + 1) == .period || kind(at: index + 1) == .leftParen && isAttached(index + 1)) {
                patternNames?.append(index)
            }
            advance()
            skipModuleSelector()
            if atLeftAngle && atGenericArgumentsInExpression() { parseExpressionGenericArguments() }
        case .keyword:
            switch word {
            case .if, .switch, .do:
                scanStatementExpression()
            case .self, .Self, .super, .true, .false, .nil, .`init`, .Any:
                advance()
                if atLeftAngle && atGenericArgumentsInExpression() { parseExpressionGenericArguments() }
            default:
                return false
            }
        case .wildcard, .integerLiteral, .floatLiteral, .regexLiteral:
            advance()
        case .dollarIdentifier:
            recordDollar(index, .none)
            advance()
        case .stringStart:
            scanStringLiteral()
        case .leftParen:
            scanArguments(close: .rightParen)
        case .leftSquare:
            scanArguments(close: .rightSquare)
        case .leftBrace:
            scanClosure()
        case .backslash:
            scanKeyPath()
        case .period:
            // An implicit member: `.primary`, `.init(…)`.
            advance()
            if kind.isWord || at(.integerLiteral) { advance() }
            if atLeftAngle && atGenericArgumentsInExpression() { parseExpressionGenericArguments() }
        case .pound:
            // A macro expansion: `#selector(…)`, `#Preview { … }`, `#file`.
            advance()
            if kind.isWord { advance() }
            if atLeftAngle && isAttached(index) { parseGenericArguments() }
            if at(.leftParen) && isAttached(index) { scanArguments(close: .rightParen) }
        case .poundKeyword where !isPound("#if") && !isPound("#else") && !isPound("#elseif") && !isPound("#endif"):
            // `#available(…)`, `#unavailable(…)`, `#sourceLocation(…)`.
            advance()
            if at(.leftParen) { scanArguments(close: .rightParen) }
        case .binaryOperator, .postfixOperator, .exclamationMark:
            // An operator used as a function: `reduce(0, +)`.
            let next = kind(at: index + 1)
            guard next == .comma || next == .rightParen || next == .rightSquare else { return false }
            advance()
        case .atSign:
            // `@MainActor` before a closure or a type in expression position.
            _ = parseAttribute()
            return scanPrimary(flavor)
        default:
            return false
        }
        return true
    }

    /// Generic arguments in an expression (`Array<Int>()`), recorded so that
    /// the choice between generics and `<` comparisons can be seen.
    private mutating func parseExpressionGenericArguments() {
        let start = index
        parseGenericArguments()
        expressionGenericArguments.append(TokenSpan(start, end))
    }

    /// `Swift::reduce`: after a module name, the name it selects.
    private mutating func skipModuleSelector() {
        while at(.colonColon) && kind(at: index + 1).isWord {
            advance()
            advance()
        }
    }

    /// `$name` (never `$0`) with its qualifier.
    mutating func recordDollar(_ token: Int, _ qualifier: DollarQualifier) {
        guard !view.isClosureArgument(token) else { return }
        dollarReferences.append(DollarReference(token: token, qualifier: qualifier))
    }

    /// `$name` at `token` as a member, after the `.` before it: of `self` (not `a.self`) or of an expression.
    mutating func recordMemberDollar(_ token: Int) {
        let period = token - 1
        let base = period - 1
        let isSelf = words[base] == .self && (base == 0 || tokens[base - 1].kind != .period)
        recordDollar(token, isSelf ? .selfDot(base) : .expressionDot(period))
    }

    /// `"…\(expr)…"`: the code inside interpolations is scanned.
    private mutating func scanStringLiteral() {
        advance()
        while !atEnd {
            switch kind {
            case .stringSegment:
                advance()
            case .interpolationStart:
                scanArguments(close: .interpolationEnd)
            case .stringEnd:
                advance()
                return
            default:
                return
            }
        }
    }

    /// `(…)`, `[…]` or `\(…)`: labelled expressions separated by commas (or
    /// colons in a dictionary), up to the matching close.
    mutating func scanArguments(close: TokenKind) {
        guard enterNesting() else {
            skipBalanced()
            return
        }
        defer { leaveNesting() }
        advance()
        while !at(close) && !atEnd {
            let before = (index, split)
            // A label: `name:`, also in `f(_:)` references.
            if (kind.isWord || at(.wildcard)) && kind(at: index + 1) == .colon && split == 0 {
                advance()
                advance()
            }
            if !at(.comma) && !at(.colon) && !at(close) {
                scanExpression(.basic)
            }
            if consume(.comma) == nil && consume(.colon) == nil && (index, split) == before {
                if at(.rightParen) || at(.rightSquare) || at(.rightBrace) || at(.interpolationEnd) { break }
                report("unexpected '\(tokenText(index))' in a list")
                advance()
            }
        }
        if at(close) {
            advance()
        } else {
            report("expected '\(close == .rightSquare ? "]" : ")")' to close the list")
        }
    }

    /// `\Type.path`, `\.path`, with `?`, `!`, `[i]` and `.$x` components.
    private mutating func scanKeyPath() {
        let backslash = index
        advance()
        var root: TokenSpan?
        if !at(.period) {
            let start = index
            if kind.isWord {
                advance()
                if atLeftAngle { parseGenericArguments() }
            } else if at(.leftSquare) || at(.leftParen) {
                parseType()
            }
            if index > start { root = TokenSpan(start, end) }
        }
        var first = true
        while !atEnd {
            if at(.period) {
                let period = index
                advance()
                if at(.dollarIdentifier) {
                    recordDollar(index, first ? .keyPath(backslash, root: root) : .expressionDot(period))
                    advance()
                } else if kind.isWord || at(.integerLiteral) {
                    advance()
                } else if at(.postfixQuestionMark) || at(.exclamationMark) {
                    continue
                }
                first = false
            } else if at(.postfixQuestionMark) || at(.exclamationMark) {
                advance()
            } else if at(.leftSquare) && isAttached(index) {
                scanArguments(close: .rightSquare)
                first = false
            } else {
                return
            }
        }
    }

    // MARK: Suffixes

    private mutating func scanSuffixes(_ flavor: ExpressionFlavor) {
        var afterLiteral = index > 0 && view.isLiteralEnd(index - 1)
        while !atEnd {
            switch kind {
            case .period:
                advance()
                if at(.dollarIdentifier) {
                    recordMemberDollar(index)
                    advance()
                } else if kind.isWord || at(.integerLiteral) {
                    advance()
                    skipModuleSelector()
                    if atLeftAngle && atGenericArgumentsInExpression() { parseExpressionGenericArguments() }
                }
            case .postfixQuestionMark, .exclamationMark, .postfixOperator:
                advance()
            case .leftParen where !atStartOfLine:
                scanArguments(close: .rightParen)
            case .leftSquare where !atStartOfLine:
                scanArguments(close: .rightSquare)
            case .leftBrace where !afterLiteral && view.isValidTrailingClosure(at: index, flavor):
                scanClosure()
                // Labelled trailing closures: `} onDismiss: { … }`.
                while (kind.isWord || at(.wildcard)) && kind(at: index + 1) == .colon && kind(at: index + 2) == .leftBrace
                    && word != .default && word != .case
                {
                    advance()
                    advance()
                    scanClosure()
                }
            case .poundKeyword where isPound("#if") && view.ifConfigStartsWithPeriod(index):
                scanPostfixIfConfig(flavor)
            default:
                return
            }
            afterLiteral = false
        }
    }

    /// `#if os(iOS) .padding() #else .frame() #endif` after an expression.
    private mutating func scanPostfixIfConfig(_ flavor: ExpressionFlavor) {
        guard enterNesting() else {
            skipToEndif()
            return
        }
        defer { leaveNesting() }
        while isPound("#if") || isPound("#elseif") || isPound("#else") {
            let hasCondition = !isPound("#else")
            advance()
            if hasCondition { _ = skipDirectiveCondition() }
            scanSuffixes(flavor)
        }
        if isPound("#endif") { advance() } else { report("expected '#endif'") }
    }

    // MARK: Closures

    /// `{ [captures] (params) -> T in items }`, in its own scope.
    mutating func scanClosure() {
        let open = index
        if let close = stepOverPlainBlock() {
            tree.closures.append(
                ClosureRecord(
                    kind: .closure, open: open, close: close, captureList: nil, parameters: .empty, signature: nil,
                    items: .empty))
            return
        }
        let readWhole = opensBlockReadWhole
        if readWhole { readsWhole += 1 }
        defer { if readWhole { readsWhole -= 1 } }
        guard enterNesting() else {
            skipBalanced()
            return
        }
        defer { leaveNesting() }
        // A closure inside a pattern binds nothing of the pattern's.
        let savedNames = patternNames
        let savedBinding = bindingPattern
        patternNames = nil
        bindingPattern = false
        defer {
            patternNames = savedNames
            bindingPattern = savedBinding
        }
        advance()
        let scope = pushScope(.closure, at: open)
        var captureList: TokenSpan?
        var parameters = TableRange.empty
        var signature: TokenSpan?
        if let inKeyword = view.closureSignatureEnd(from: index) {
            let signatureStart = index
            while at(.atSign) { _ = parseAttribute() }
            if at(.leftSquare) {
                let start = index
                declareCaptures(until: view.skipBalancedFrom(index))
                captureList = TokenSpan(start, index)
            }
            // The names go straight into their table: nothing is parsed between the first and the last.
            if at(.leftParen) {
                let first = declaredNames.count
                _ = parseParameterClause(.closureParameter)
                let start = tables.tokenIndices.count
                for k in first..<declaredNames.count where declaredNames[k].scope == scope {
                    tables.tokenIndices.append(declaredNames[k].name.token)
                }
                parameters = TreeBuilder.range(from: start, in: tables.tokenIndices)
            } else {
                let start = tables.tokenIndices.count
                while index < inKeyword && (kind.isWord || at(.wildcard) || at(.dollarIdentifier)) {
                    if !at(.wildcard) { declare(index, .closureParameter) }
                    tables.tokenIndices.append(index)
                    advance()
                    if consume(.comma) == nil { break }
                }
                parameters = TreeBuilder.range(from: start, in: tables.tokenIndices)
            }
            parseEffects()
            if consume(.arrow) != nil { parseType() }
            if index != inKeyword {
                report("unexpected tokens in the closure signature")
                while index < inKeyword && !atEnd { advance() }
            }
            advance() // `in`
            signature = TokenSpan(signatureStart, end)
            census.closureSignature = true
        }
        let items = parseItems(.code)
        var close: Int?
        if at(.rightBrace) {
            close = index
            advance()
        } else {
            report("expected '}' to close the closure")
        }
        popScope(scope, end: end)
        tree.closures.append(
            ClosureRecord(
                kind: .closure, open: open, close: close, captureList: captureList, parameters: parameters,
                signature: signature, items: items))
    }

    /// `[weak self, x = y, unowned(unsafe) z]`: declares the captured names.
    private mutating func declareCaptures(until close: Int) {
        advance()
        while index < close - 1 && !atEnd {
            // The last word before `,`, `=` or `]` of each item is the name.
            if kind.isWord && (kind(at: index + 1) == .comma || kind(at: index + 1) == .equal || index + 1 == close - 1) {
                declare(index, .variable)
            }
            if at(.equal) {
                advance()
                scanExpression(.basic)
                continue
            }
            if at(.leftParen) { skipBalanced(); continue }
            advance()
        }
        advance() // `]`
    }

    // MARK: if and switch as expressions

    private mutating func scanStatementExpression() {
        let start = index
        let statement = parseStatement()
        // A list of one item, straight into the table.
        let item = ItemRecord.statement(tree.add(statement))
        tables.items.append(item)
        tree.closures.append(
            ClosureRecord(
                kind: .statementExpression, open: start, close: nil, captureList: nil, parameters: .empty, signature: nil,
                items: TreeBuilder.range(from: tables.items.count - 1, in: tables.items)))
    }
}

// MARK: - Lookahead

extension TokenView {
    /// When the expression at `start` is a literal alone, the index after it: an integer,
    /// float or regex literal, `true`, `false`, `nil` or a string without interpolation,
    /// followed by a token that neither continues an expression nor opens a trailing
    /// closure (`,`, a closing bracket, `@`, a declaration keyword, a name on the next line).
    func loneLiteralEnd(from start: Int) -> Int? {
        var i = start
        switch kind(at: i) {
        case .integerLiteral, .floatLiteral, .regexLiteral:
            i += 1
        case .keyword:
            guard words[i] == .true || words[i] == .false || words[i] == .nil else { return nil }
            i += 1
        case .stringStart:
            i += 1
            while kind(at: i) == .stringSegment { i += 1 }
            guard kind(at: i) == .stringEnd else { return nil }
            i += 1
        default:
            return nil
        }
        guard i <= last else { return nil }
        switch tokens[i].kind {
        case .comma, .rightParen, .rightSquare, .rightBrace, .semicolon, .atSign, .endOfFile:
            return i
        case .keyword:
            let word = words[i]
            return word == .as || word == .is || word == .throws || word == .rethrows ? nil : i
        case .identifier:
            return words[i] == .async ? nil : i
        default:
            return nil
        }
    }

    /// Whether token `i` begins an operand on the same line (after `await`, `copy`, …).
    func startsOperandOnSameLine(_ i: Int) -> Bool {
        guard i <= last, !isAtStartOfLine(i) else { return false }
        switch kind(at: i) {
        case .identifier, .keyword, .dollarIdentifier, .integerLiteral, .floatLiteral, .stringStart, .regexLiteral,
            .leftSquare, .backslash, .prefixOperator, .prefixAmpersand, .pound, .wildcard:
            return true
        case .leftParen, .period, .leftBrace:
            return !isAttached(i)
        default:
            return false
        }
    }

    func isLiteralEnd(_ i: Int) -> Bool {
        switch tokens[i].kind {
        case .integerLiteral, .floatLiteral, .stringEnd, .regexLiteral: return true
        default: return false
        }
    }

    /// The compiler's test for `{` after an expression (swift-syntax's
    /// `atValidTrailingClosure`): not an accessor block, not a switch body,
    /// and in a condition only when the braces are clearly followed by more.
    func isValidTrailingClosure(at brace: Int, _ flavor: ExpressionFlavor) -> Bool {
        if atStartOfObserverBlock(brace) { return false }
        if word(at: brace + 1) == .case { return false }
        guard flavor == .condition else { return true }
        if isAtStartOfLine(brace + 1) { return false }
        let after = skipBalancedFrom(brace)
        guard after > brace + 1, kind(at: after - 1) == .rightBrace else { return false }
        switch kind(at: after) {
        case .leftBrace, .comma:
            return true
        case .keyword where word(at: after) == .where:
            return true
        case .leftSquare, .leftParen, .period, .postfixQuestionMark, .infixQuestionMark, .exclamationMark, .colon,
            .equal, .postfixOperator, .binaryOperator:
            return !isAtStartOfLine(after)
        case .keyword where word(at: after) == .is || word(at: after) == .as:
            return !isAtStartOfLine(after)
        default:
            return false
        }
    }

    /// `{ willSet`, `{ didSet`, `{ init`, or those after attributes.
    func atStartOfObserverBlock(_ brace: Int) -> Bool {
        let next = word(at: brace + 1)
        if next == .willSet || next == .didSet || next == .`init` { return true }
        guard kind(at: brace + 1) == .atSign else { return false }
        var i = brace + 1
        while kind(at: i) == .atSign { i = skipAttribute(from: i) }
        let word = word(at: i)
        return word == .willSet || word == .didSet || word == .`init`
    }

    /// A `#if` (at `start`) whose first clause continues an expression with `.member`.
    func ifConfigStartsWithPeriod(_ start: Int) -> Bool {
        var i = start + 1
        while i < last && !isAtStartOfLine(i) {
            i = kind(at: i) == .leftParen ? skipBalancedFrom(i) : i + 1
        }
        return kind(at: i) == .period
    }

    /// The `in` that ends a closure signature starting at `start`, if there is one.
    func closureSignatureEnd(from start: Int) -> Int? {
        var i = start
        while kind(at: i) == .atSign { i = skipAttribute(from: i) }
        if kind(at: i) == .leftSquare { i = skipBalancedFrom(i) }
        if kind(at: i) == .leftParen {
            i = skipBalancedFrom(i)
        } else {
            while kind(at: i).isWord && words[i] != .in || kind(at: i) == .wildcard || kind(at: i) == .dollarIdentifier {
                i += 1
                guard kind(at: i) == .comma else { break }
                i += 1
            }
        }
        while words[min(i, last)] == .async || words[min(i, last)] == .throws || words[min(i, last)] == .rethrows {
            i += 1
            if kind(at: i) == .leftParen && isAttached(i) { i = skipBalancedFrom(i) }
        }
        if kind(at: i) == .arrow {
            // A result type: scan to `in` over type tokens only.
            i += 1
            var depth = 0
            while i < last {
                switch kind(at: i) {
                case .leftParen, .leftSquare: depth += 1
                case .rightParen, .rightSquare: depth -= 1
                case .leftBrace, .rightBrace, .equal, .semicolon: return nil
                default: break
                }
                if depth < 0 { return nil }
                if depth == 0 && words[i] == .in { return i }
                i += 1
            }
            return nil
        }
        return i <= last && words[i] == .in ? i : nil
    }
}
