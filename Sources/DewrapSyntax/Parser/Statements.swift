// Statements with the scopes they open: conditions and their bindings,
// loops, `switch` cases, `do`/`catch`, and the simple jumps.

extension ParserState {
    /// The statement's conditions, blocks, cases and closures are those gathered
    /// since it began; the statements inside it have placed theirs.
    mutating func parseStatement() -> StatementRecord {
        let start = index
        let marks = StatementMarks(
            closures: tree.closures.count, conditions: tree.spans.count, blocks: tree.blocks.count,
            cases: tree.switchCases.count)
        var statement = StatementRecord(
            kind: .expression, label: nil, span: TokenSpan(start, start), conditions: .empty, blocks: .empty,
            cases: .empty, elseIf: -1, closures: .empty)
        guard enterNesting() else {
            skipToNextLine()
            statement.span = TokenSpan(start, end)
            return statement
        }
        parseStatementContent(&statement, start: start, marks: marks)
        leaveNesting()
        return statement
    }

    /// Everything after the nesting check, filled into `statement` in place.
    private mutating func parseStatementContent(_ statement: inout StatementRecord, start: Int, marks: StatementMarks) {
        parseStatementKind(&statement)
        statement.span = TokenSpan(start, end)
        statement.conditions = tree.placeSpans(since: marks.conditions)
        statement.blocks = tree.placeBlocks(since: marks.blocks)
        statement.cases = tree.placeSwitchCases(since: marks.cases)
        statement.closures = closures(since: marks.closures)
    }

    /// The label, then the statement's own grammar.
    private mutating func parseStatementKind(_ statement: inout StatementRecord) {
        if kind == .identifier && kind(at: index + 1) == .colon {
            switch word(at: index + 2) {
            case .for, .while, .repeat, .if, .switch, .do:
                statement.label = index
                advance()
                advance()
            default:
                break
            }
        }
        switch word {
        case .if: parseIf(&statement)
        case .guard: parseGuard(&statement)
        case .while: parseWhile(&statement)
        case .repeat where kind(at: index + 1) == .leftBrace: parseRepeat(&statement)
        case .for: parseFor(&statement)
        case .switch: parseSwitch(&statement)
        case .do where kind(at: index + 1) == .leftBrace || word(at: index + 1) == .throws: parseDo(&statement)
        case .defer:
            statement.kind = .defer
            advance()
            if at(.leftBrace) {
                let body = parseBlock(.block)
                tree.blocks.append(body)
            } else {
                report("expected '{' after 'defer'")
            }
        case .return, .throw:
            statement.kind = word == .return ? .return : .throw
            advance()
            if !atStatementEnd { scanExpression(.basic) }
        case .break, .continue:
            statement.kind = word == .break ? .break : .continue
            advance()
            if kind == .identifier && !atStartOfLine { advance() }
        case .fallthrough:
            statement.kind = .fallthrough
            advance()
        default:
            scanExpression(.basic)
        }
    }

    /// Nothing more belongs to a `return` or `throw` here.
    private var atStatementEnd: Bool {
        switch kind {
        case .rightBrace, .semicolon, .endOfFile, .poundKeyword: return true
        case .keyword: return word == .case || word == .default
        case .atSign: return word(at: index + 1) == .unknown
        default: return false
        }
    }

    // MARK: Conditions

    /// `let x = e, case .a(let y) = f, g`: the spans go onto the builder's
    /// stack of conditions; returns the names they bind, each visible from the
    /// end of its condition.
    private mutating func parseConditions() -> [(token: Int, visibleFrom: Int)] {
        var names: [(token: Int, visibleFrom: Int)] = []
        repeat {
            let start = index
            var bound: [Int] = []
            if at(.let) || at(.var) {
                advance()
                if kind.isWord {
                    bound.append(index)
                    advance()
                } else if at(.wildcard) {
                    advance()
                } else if at(.leftParen) {
                    bound = scanTuplePattern()
                }
                if consume(.colon) != nil { parseType() }
                if at(.equal) {
                    advance()
                    scanExpression(.condition)
                }
            } else if at(.case) {
                advance()
                bound = scanPattern(bindAll: false)
            } else {
                scanExpression(.condition)
            }
            if index == start {
                report("expected a condition")
                break
            }
            tree.spans.append(TokenSpan(start, end))
            names += bound.map { ($0, end) }
        } while consume(.comma) != nil && !atEnd
        return names
    }

    /// A pattern scanned as an expression; returns the names it binds.
    mutating func scanPattern(bindAll: Bool) -> [Int] {
        let savedNames = patternNames
        let savedBinding = bindingPattern
        patternNames = []
        bindingPattern = bindAll
        scanExpression(.condition)
        let names = patternNames ?? []
        patternNames = savedNames
        bindingPattern = savedBinding
        return names
    }

    private mutating func expectBody(after keyword: String) -> BlockRecord? {
        guard at(.leftBrace) else {
            report("expected '{' after the '\(keyword)' condition")
            return nil
        }
        return parseBlock(.block)
    }

    // MARK: Branches and loops

    /// `keyword conditions { body }` in a clause scope: the body (and later
    /// conditions) see the names the conditions bind.
    private mutating func parseConditionalBody(_ statement: inout StatementRecord, after keyword: String) {
        let clause = pushScope(.clause, at: index)
        advance()
        let names = parseConditions()
        for name in names { declare(name.token, .binding, visibleFrom: name.visibleFrom) }
        if let body = expectBody(after: keyword) { tree.blocks.append(body) }
        popScope(clause, end: end)
    }

    private mutating func parseIf(_ statement: inout StatementRecord) {
        statement.kind = .if
        parseConditionalBody(&statement, after: "if")
        guard consume(.else) != nil else { return }
        if at(.if) {
            let elseIf = parseStatement()
            statement.elseIf = tree.add(elseIf)
        } else if at(.leftBrace) {
            let body = parseBlock(.block)
            tree.blocks.append(body)
        } else {
            report("expected '{' or 'if' after 'else'")
        }
    }

    private mutating func parseGuard(_ statement: inout StatementRecord) {
        statement.kind = .guard
        advance()
        let names = parseConditions()
        if consume(.else) == nil { report("expected 'else' after the 'guard' condition") }
        if let body = expectBody(after: "guard") { tree.blocks.append(body) }
        // Names bound by `guard` are visible after it, in the enclosing scope.
        for name in names { declare(name.token, .binding, visibleFrom: end) }
    }

    private mutating func parseWhile(_ statement: inout StatementRecord) {
        statement.kind = .while
        parseConditionalBody(&statement, after: "while")
    }

    private mutating func parseRepeat(_ statement: inout StatementRecord) {
        statement.kind = .repeat
        advance()
        let body = parseBlock(.block)
        tree.blocks.append(body)
        if consume(.while) != nil {
            let start = index
            scanExpression(.basic)
            tree.spans.append(TokenSpan(start, end))
        } else {
            report("expected 'while' after the 'repeat' body")
        }
    }

    private mutating func parseFor(_ statement: inout StatementRecord) {
        statement.kind = .for
        let clause = pushScope(.clause, at: index)
        advance()
        if at(.try) { advance() }
        if at(.await) { advance() }
        let hasCase = consume(.case) != nil
        let names = scanPattern(bindAll: !hasCase)
        if consume(.colon) != nil { parseType() }
        if consume(.in) == nil { report("expected 'in' after the 'for' pattern") }
        let start = index
        scanExpression(.condition)
        tree.spans.append(TokenSpan(start, end))
        for name in names { declare(name, .binding, visibleFrom: end) }
        if consume(.where) != nil {
            let whereStart = index
            scanExpression(.condition)
            tree.spans.append(TokenSpan(whereStart, end))
        }
        if let body = expectBody(after: "for") { tree.blocks.append(body) }
        popScope(clause, end: end)
    }

    private mutating func parseDo(_ statement: inout StatementRecord) {
        statement.kind = .do
        advance()
        parseEffects()
        let body = parseBlock(.block)
        tree.blocks.append(body)
        while at(.catch) {
            let clause = pushScope(.clause, at: index)
            let keyword = index
            advance()
            var names: [Int] = []
            var hasPattern = false
            while !at(.leftBrace) && !atEnd {
                hasPattern = true
                let start = index
                names += scanPattern(bindAll: false)
                if consume(.where) != nil { scanExpression(.condition) }
                tree.spans.append(TokenSpan(start, end))
                if consume(.comma) == nil { break }
            }
            if hasPattern {
                for name in names { declare(name, .binding, visibleFrom: end) }
            } else {
                declare(keyword, .implicit, implicit: "error")
            }
            if let body = expectBody(after: "catch") { tree.blocks.append(body) }
            popScope(clause, end: end)
        }
    }

    // MARK: switch

    private mutating func parseSwitch(_ statement: inout StatementRecord) {
        statement.kind = .switch
        advance()
        let start = index
        scanExpression(.condition)
        tree.spans.append(TokenSpan(start, end))
        guard at(.leftBrace) else {
            report("expected '{' after the 'switch' subject")
            return
        }
        guard enterNesting() else {
            skipBalanced()
            return
        }
        defer { leaveNesting() }
        advance()
        parseSwitchCases()
        if consume(.rightBrace) == nil { report("expected '}' to close the 'switch'") }
    }

    /// Case sections up to `}` or the end of a `#if` clause; a `#if` around
    /// whole cases contributes its cases from every branch.
    /// Onto the builder's stack of cases.
    private mutating func parseSwitchCases() {
        while !at(.rightBrace) && !atEnd && !isPound("#elseif") && !isPound("#else") && !isPound("#endif") {
            let before = index
            if isPound("#if") {
                guard enterNesting() else { return }
                while isPound("#if") || isPound("#elseif") || isPound("#else") {
                    let hasCondition = !isPound("#else")
                    advance()
                    if hasCondition { _ = skipDirectiveCondition() }
                    parseSwitchCases()
                }
                leaveNesting()
                if isPound("#endif") { advance() } else { report("expected '#endif'") }
                continue
            }
            let labelStart = index
            let mark = tree.closures.count
            let scope = pushScope(.switchCase, at: index)
            if at(.atSign) { _ = parseAttribute() } // `@unknown`
            if at(.case) {
                advance()
                var names: [Int] = []
                repeat {
                    names += scanPattern(bindAll: false)
                    if consume(.where) != nil { scanExpression(.condition) }
                } while consume(.comma) != nil && !atEnd
                for name in names { declare(name, .binding, visibleFrom: end) }
            } else if at(.default) {
                advance()
            } else {
                report("expected 'case' or 'default' in the 'switch'")
                popScope(scope, end: end)
                skipToNextLine()
                continue
            }
            if consume(.colon) == nil { report("expected ':' after the case label") }
            let label = TokenSpan(labelStart, end)
            let labelClosures = closures(since: mark)
            let items = parseItems(.switchCase)
            popScope(scope, end: end)
            tree.switchCases.append(SwitchCaseRecord(label: label, items: items, closures: labelClosures))
            if index == before { advance() }
        }
    }
}

/// Where a statement's lists begin on the builder's stacks.
struct StatementMarks {
    var closures: Int
    var conditions: Int
    var blocks: Int
    var cases: Int
}

// MARK: - Lookahead

extension TokenView {
    /// A `#if` (at `start`) whose first clause starts with a case label (inside a `switch`).
    func ifConfigHoldsCaseLabels(_ start: Int) -> Bool {
        var i = start + 1
        while i < last && !isAtStartOfLine(i) {
            i = kind(at: i) == .leftParen ? skipBalancedFrom(i) : i + 1
        }
        return words[i] == .case || words[i] == .default || kind(at: i) == .atSign && word(at: i + 1) == .unknown
    }
}
