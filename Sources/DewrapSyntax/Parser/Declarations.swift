// Declarations: attributes and modifiers, types, variables with their
// accessors, functions, initializers, subscripts, and the rest.

extension ParserState {
    /// The declaration's record goes into its table; the item names it.
    mutating func parseDeclaration(keyword: Int, context: ItemContext) -> ItemRecord {
        let prefix = parsePrefix(upTo: keyword)
        let mark = tree.closures.count
        switch word {
        case .var, .let:
            if context != .members && prefix.attributes.count > 0 { census.attributedVariableOutsideTypes = true }
            let variable = parseVariable(prefix, local: context != .members)
            return .variable(tree.add(variable))
        case .func, .`init`, .deinit, .subscript:
            let function = parseFunction(prefix, closuresSince: mark)
            return .function(tree.add(function))
        case .struct, .class, .actor, .enum, .protocol, .extension:
            if context == .code || context == .switchCase { census.typeInCode = true }
            if context == .members && prefix.attributes.count > 0 { census.attributedMemberType = true }
            let type = parseTypeDeclaration(prefix)
            return .type(tree.add(type))
        default:
            var declaration = parseOtherDeclaration(prefix)
            declaration.closures = closures(since: mark)
            return .other(tree.add(declaration))
        }
    }

    // MARK: Attributes and modifiers

    /// Attributes and modifiers up to the declaration keyword at `keyword`.
    /// The attributes and the modifiers go straight into their tables: nothing
    /// in a prefix holds another.
    mutating func parsePrefix(upTo keyword: Int) -> PrefixRecord {
        let start = index
        let attributes = tables.attributes.count
        let modifiers = tables.modifiers.count
        while index < keyword && !atEnd {
            if isPound("#if") {
                // `#if` around attributes only: their attributes join the prefix.
                while isPound("#if") || isPound("#elseif") || isPound("#else") {
                    let hasCondition = !isPound("#else")
                    advance()
                    if hasCondition { _ = skipDirectiveCondition() }
                    while at(.atSign) {
                        let attribute = parseAttribute(ofDeclaration: true)
                        tables.attributes.append(attribute)
                    }
                }
                if isPound("#endif") { advance() }
            } else if at(.atSign) {
                let attribute = parseAttribute(ofDeclaration: true)
                tables.attributes.append(attribute)
            } else {
                let modifier = index
                advance()
                var detail: TokenSpan?
                if view.opensDeclarationArguments(index) {
                    let open = index
                    skipBalanced()
                    detail = TokenSpan(open, index)
                }
                tables.modifiers.append(Modifier(keyword: modifier, detail: detail))
            }
        }
        return PrefixRecord(
            attributes: TreeBuilder.range(from: attributes, in: tables.attributes),
            modifiers: TreeBuilder.range(from: modifiers, in: tables.modifiers), start: start)
    }

    /// `@Name`, `@A.B`, `@State<Int>`, `@FocusState<Bool>.Binding` (a member of a generic
    /// type), with `(arguments)` written right after the name, or for a declaration's
    /// attribute anywhere on the same line (`opensDeclarationArguments`).
    mutating func parseAttribute(ofDeclaration: Bool = false) -> Attribute {
        let atSign = index
        advance()
        let nameStart = index
        if kind.isWord { advance() }
        while true {
            if at(.period) && kind(at: index + 1).isWord {
                advance()
                advance()
            } else if atLeftAngle && isAttached(index) {
                parseGenericArguments()
                guard at(.period) && kind(at: index + 1).isWord else { break }
            } else {
                break
            }
        }
        let name = TokenSpan(nameStart, end)
        var arguments: TokenSpan?
        if at(.leftParen) && (ofDeclaration ? !isAtStartOfLine(index) : isAttached(index)) && !view.takesNoArguments(name) {
            // Arguments have their own grammar (`visibility: internal`, `iOS 15, *`): kept as tokens.
            let open = index
            skipBalanced()
            arguments = TokenSpan(open, index)
            // A `$x` among a wrapper's arguments (Fluent's `@Siblings(through: T.self, from: \.$a, to: \.$b)`)
            // is a reference as in any call: they are scanned as a call's arguments, which records it.
            if (open..<index).contains(where: { tokens[$0].kind == .dollarIdentifier }) {
                let end = index
                index = open
                scanArguments(close: .rightParen)
                index = end
            }
        }
        return Attribute(atSign: atSign, name: name, arguments: arguments)
    }

    // MARK: Types

    mutating func parseTypeDeclaration(_ prefix: PrefixRecord) -> TypeRecord {
        let keyword = index
        let kind: TypeKind
        switch word {
        case .struct: kind = .struct
        case .class: kind = .class
        case .actor: kind = .actor
        case .enum: kind = .enum
        case .protocol: kind = .protocol
        default: kind = .extension
        }
        advance()
        let name: TokenSpan
        if kind == .extension {
            name = parseType()
        } else {
            let start = index
            if self.kind.isWord {
                declare(index, .type)
                advance()
            } else {
                report("expected a name after '\(tokenText(keyword))'")
            }
            name = TokenSpan(start, end)
        }
        var genericParameters: TokenSpan?
        if atLeftAngle { genericParameters = parseGenericParameters() }
        // Straight into the table: a type holds no statement with conditions.
        let inheritanceStart = tables.spans.count
        if consume(.colon) != nil {
            repeat {
                let type = parseType()
                tables.spans.append(type)
            } while consume(.comma) != nil && !atEnd
        }
        let inheritance = TreeBuilder.range(from: inheritanceStart, in: tables.spans)
        var whereClause: TokenSpan?
        if at(.where) { whereClause = parseWhereClause() }
        var body: BlockRecord?
        if at(.leftBrace) {
            body = parseBlock(.type, context: .members)
        } else {
            report("expected '{' to start the body of '\(tokenText(keyword))'")
        }
        return TypeRecord(
            kind: kind, prefix: prefix, keyword: keyword, name: name, genericParameters: genericParameters,
            inheritance: inheritance, whereClause: whereClause, body: body, span: TokenSpan(prefix.start, end))
    }

    /// `{ items }` in a new scope of `kind`. `declareNames` runs inside the
    /// scope before the items (parameters, `newValue`, …).
    mutating func parseBlock(_ kind: ScopeKind, context: ItemContext = .code, declareNames: (inout ParserState) -> Void = { _ in }) -> BlockRecord {
        let open = index
        if context == .code, let close = stepOverPlainBlock() { return BlockRecord(open: open, close: close, items: .empty) }
        let readWhole = context == .code && opensBlockReadWhole
        if readWhole { readsWhole += 1 }
        defer { if readWhole { readsWhole -= 1 } }
        guard enterNesting() else {
            skipBalanced()
            return BlockRecord(open: open, close: index - 1, items: .empty)
        }
        defer { leaveNesting() }
        advance()
        let scope = pushScope(kind, at: open)
        declareNames(&self)
        let items = parseItems(context)
        var close: Int?
        if at(.rightBrace) {
            close = index
            advance()
        } else {
            report("expected '}' to match the '{' at this block's start", at: index)
        }
        popScope(scope, end: end)
        return BlockRecord(open: open, close: close, items: items)
    }

    // MARK: Variables

    mutating func parseVariable(_ prefix: PrefixRecord, local: Bool) -> VariableRecord {
        let keyword = index
        advance()
        var bindings = TableRange.empty
        if let first = parsePatternBinding(keyword: keyword, local: local) {
            if consume(.comma) != nil && !atEnd {
                let mark = tree.bindings.count
                tree.bindings.append(first)
                repeat {
                    guard let binding = parsePatternBinding(keyword: keyword, local: local) else { break }
                    tree.bindings.append(binding)
                } while consume(.comma) != nil && !atEnd
                bindings = tree.placeBindings(since: mark)
            } else {
                // Nearly every declaration has one binding: a list of one, straight into the table.
                tables.bindings.append(first)
                bindings = TreeBuilder.range(from: tables.bindings.count - 1, in: tables.bindings)
            }
        }
        return VariableRecord(prefix: prefix, keyword: keyword, span: TokenSpan(prefix.start, end), bindings: bindings)
    }

    /// One binding of the `let`/`var` at `keyword`; nil (reported) when no pattern starts here.
    mutating func parsePatternBinding(keyword: Int, local: Bool) -> BindingRecord? {
        let mark = tree.closures.count
        let patternStart = index
        var name: Int?
        // The names of a tuple pattern; a single name is `name`.
        var patternNames: [Int] = []
        if kind.isWord {
            name = index
            advance()
        } else if at(.wildcard) {
            advance()
        } else if at(.leftParen) {
            patternNames = scanTuplePattern()
        } else {
            report("expected a name after '\(tokenText(keyword))'")
            return nil
        }
        let pattern = TokenSpan(patternStart, end)
        var type: TokenSpan?
        if consume(.colon) != nil { type = parseType() }
        let initializer = scanValueAfterEqual(.initializer)
        var accessors: AccessorBlockRecord?
        if at(.leftBrace) { accessors = parseAccessorBlock() }
        let closures = closures(since: mark)
        if let name { declare(name, .variable, visibleFrom: local ? end : name) }
        for patternName in patternNames {
            declare(patternName, .variable, visibleFrom: local ? end : patternName)
        }
        return BindingRecord(
            pattern: pattern, name: name, type: type, initializer: initializer, closures: closures, accessors: accessors)
    }

    /// `= expression` (a binding's initial value, a parameter's default): the
    /// expression's span, or nil when no `=` stands here.
    @inline(__always)
    mutating func scanValueAfterEqual(_ flavor: ExpressionFlavor) -> TokenSpan? {
        guard at(.equal) else { return nil }
        advance()
        let start = index
        scanExpression(flavor)
        // `let a = , b`: a missing value would make `b` look like another declaration.
        if end <= start { report("expected an expression after '='") }
        return TokenSpan(start, end)
    }

    /// `(a, (b, _))`: the names it binds.
    mutating func scanTuplePattern() -> [Int] {
        var names: [Int] = []
        let close = view.skipBalancedFrom(index)
        while index < close && !atEnd {
            if kind == .identifier && kind(at: index + 1) != .colon { names.append(index) }
            advance()
        }
        return names
    }

    // MARK: Accessors

    /// `{ get set }`, `{ willSet { } didSet { } }` or an implicit getter body.
    mutating func parseAccessorBlock() -> AccessorBlockRecord {
        let open = index
        guard enterNesting() else {
            skipBalanced()
            return AccessorBlockRecord(open: open, close: index - 1, content: .getter(.empty))
        }
        defer { leaveNesting() }
        let content: AccessorBlockRecord.Content
        if view.startsAccessor(at: index + 1) {
            advance()
            let mark = tree.accessors.count
            while !at(.rightBrace) && !atEnd {
                guard view.startsAccessor(at: index) else {
                    report("expected an accessor such as 'get' or 'set'")
                    skipToNextLine()
                    continue
                }
                let accessor = parseAccessor()
                tree.accessors.append(accessor)
            }
            content = .accessors(tree.placeAccessors(since: mark))
        } else {
            let block = parseBlock(.accessor)
            return AccessorBlockRecord(open: open, close: block.close, content: .getter(block.items))
        }
        var close: Int?
        if at(.rightBrace) {
            close = index
            advance()
        } else {
            report("expected '}' to close the accessors")
        }
        return AccessorBlockRecord(open: open, close: close, content: content)
    }

    mutating func parseAccessor() -> AccessorRecord {
        let attributesStart = tables.attributes.count
        while at(.atSign) {
            let attribute = parseAttribute()
            tables.attributes.append(attribute)
        }
        let attributes = TreeBuilder.range(from: attributesStart, in: tables.attributes)
        var modifier: Int?
        if word.isAccessorModifier {
            modifier = index
            advance()
        }
        let keyword = index
        let accessorKind = word
        advance()
        var parameter: TokenSpan?
        if at(.leftParen) && (accessorKind == .set || accessorKind == .willSet || accessorKind == .didSet || accessorKind == .`init`) {
            let open = index
            skipBalanced()
            parameter = TokenSpan(open, index)
        }
        let effects = parseEffects()
        var body: BlockRecord?
        if at(.leftBrace) {
            body = parseBlock(.accessor) { state in
                if let parameter {
                    for i in parameter.lower..<parameter.upper where state.tokens[i].kind == .identifier {
                        state.declare(i, .parameter)
                    }
                } else {
                    switch accessorKind {
                    case .set, .willSet: state.declare(keyword, .implicit, implicit: "newValue")
                    case .didSet: state.declare(keyword, .implicit, implicit: "oldValue")
                    default: break
                    }
                }
            }
        }
        return AccessorRecord(attributes: attributes, modifier: modifier, keyword: keyword, parameter: parameter, effects: effects, body: body)
    }

    // MARK: Functions

    /// The closures in its default values and attributes are those collected since `mark`.
    mutating func parseFunction(_ prefix: PrefixRecord, closuresSince mark: Int) -> FunctionRecord {
        let keyword = index
        let kind: FunctionKind
        switch word {
        case .`init`: kind = .initializer
        case .deinit: kind = .deinitializer
        case .subscript: kind = .subscript
        default: kind = .function
        }
        advance()
        var name: Int?
        if kind == .function {
            // A name or an operator: `f`, `==`, `<`, `..<`, `!`.
            switch self.kind {
            case .identifier, .keyword:
                declare(index, .function)
                name = index
                advance()
            case .binaryOperator, .prefixOperator, .postfixOperator, .exclamationMark, .postfixQuestionMark,
                .infixQuestionMark, .prefixAmpersand, .equal, .period, .arrow:
                name = index
                let length = tokens[index].end - tokens[index].start
                if length > 1 && text[tokens[index].end - 1] == UInt8(ascii: "<") && self.kind(at: index + 1).isWord {
                    split = length - 1 // `func ~=<T>`: the `<` opens the generic parameters
                } else {
                    advance()
                }
            default:
                report("expected a function name")
            }
        } else if kind == .initializer && (at(.postfixQuestionMark) || at(.exclamationMark)) {
            name = index
            advance()
        }
        let scope = pushScope(.function, at: keyword)
        var genericParameters: TokenSpan?
        if atLeftAngle || split > 0 { genericParameters = parseGenericParameters() }
        var parameterClause: TokenSpan?
        var parameters = TableRange.empty
        if at(.leftParen) {
            let open = index
            parameters = parseParameterClause()
            parameterClause = TokenSpan(open, end)
        } else if kind != .deinitializer {
            report("expected '(' to start the parameters")
        }
        let effects = parseEffects()
        var returnType: TokenSpan?
        if consume(.arrow) != nil { returnType = parseType() }
        var whereClause: TokenSpan?
        if at(.where) { whereClause = parseWhereClause() }
        var body: BlockRecord?
        var accessors: AccessorBlockRecord?
        if at(.leftBrace) {
            if kind == .subscript {
                accessors = parseAccessorBlock()
            } else {
                // Read whole: an initializer's body (assignments to wrapped properties become
                // storage initialization, SPEC N-1…N-4, in any nested block), and the body of a
                // function with wrapped parameters (its statements are rewritten, P-1).
                let readWhole =
                    kind == .initializer
                    || tables.parameters[Int(parameters.start)..<Int(parameters.start + parameters.count)].contains {
                        $0.attributes.count > 0
                    }
                if readWhole { readsWhole += 1 }
                body = parseBlock(.block)
                if readWhole { readsWhole -= 1 }
            }
        }
        popScope(scope, end: end)
        return FunctionRecord(
            kind: kind, prefix: prefix, keyword: keyword, name: name, genericParameters: genericParameters,
            parameterClause: parameterClause, parameters: parameters, effects: effects, returnType: returnType,
            whereClause: whereClause, body: body, accessors: accessors, closures: closures(since: mark),
            span: TokenSpan(prefix.start, end))
    }

    /// `(label name: Type = default, …)`; declares the names in the current scope.
    mutating func parseParameterClause(_ nameKind: NameKind = .parameter) -> TableRange {
        guard enterNesting() else {
            skipBalanced()
            return .empty
        }
        defer { leaveNesting() }
        advance()
        let mark = tree.parameters.count
        while !at(.rightParen) && !atEnd {
            let start = index
            let attributesStart = tables.attributes.count
            while at(.atSign) {
                let attribute = parseAttribute()
                tables.attributes.append(attribute)
            }
            let attributes = TreeBuilder.range(from: attributesStart, in: tables.attributes)
            if attributes.count > 0 && nameKind == .parameter { census.attributedParameter = true }
            var firstName: Int?
            var secondName: Int?
            if nameKind == .closureParameter && (kind.isWord || at(.wildcard) || at(.dollarIdentifier))
                && (kind(at: index + 1) == .comma || kind(at: index + 1) == .rightParen)
            {
                firstName = index // `(a, b) in`: names without types
                advance()
            } else if (kind.isWord || at(.wildcard)) && kind(at: index + 1) == .colon {
                firstName = index
                advance()
            } else if (kind.isWord || at(.wildcard)) && (kind(at: index + 1).isWord || kind(at: index + 1) == .wildcard)
                && kind(at: index + 2) == .colon
            {
                firstName = index
                secondName = index + 1
                advance()
                advance()
            }
            var type: TokenSpan?
            if consume(.colon) != nil || firstName == nil && secondName == nil && !at(.comma) && !at(.rightParen) {
                type = parseType()
            }
            let defaultValue = scanValueAfterEqual(.basic)
            if let declared = secondName ?? firstName, tokens[declared].kind != .wildcard {
                declare(declared, nameKind)
            }
            tree.parameters.append(
                ParameterRecord(
                    attributes: attributes, firstName: firstName, secondName: secondName, type: type,
                    defaultValue: defaultValue, span: TokenSpan(start, end)))
            if consume(.comma) == nil {
                if !at(.rightParen) {
                    report("expected ',' or ')' in the parameters")
                    while !at(.rightParen) && !at(.leftBrace) && !atEnd { advance() }
                }
                break
            }
            if index == start { advance() }
        }
        if consume(.rightParen) == nil { report("expected ')' to close the parameters") }
        return tree.placeParameters(since: mark)
    }

    // MARK: Other declarations

    mutating func parseOtherDeclaration(_ prefix: PrefixRecord) -> OtherRecord {
        let keyword = index
        let introducer = word
        advance()
        let mark = tree.names.count
        let kind: OtherDeclKind
        switch introducer {
        case .import:
            kind = .import
            if word == .struct || word == .class || word == .enum || word == .protocol || word == .typealias
                || word == .var || word == .let || word == .func || word == .actor
            {
                advance()
            }
            while (self.kind.isWord || at(.period) || self.kind == .binaryOperator || self.kind == .prefixOperator
                || self.kind == .postfixOperator) && !atStartOfLine
            {
                advance()
            }
        case .typealias, .associatedtype:
            kind = introducer == .typealias ? .typealias : .associatedtype
            if self.kind.isWord {
                tree.names.append(index)
                declare(index, .type)
                advance()
            }
            if atLeftAngle { _ = parseGenericParameters() }
            if consume(.colon) != nil {
                repeat { parseType() } while consume(.comma) != nil && !atEnd
            }
            if consume(.equal) != nil { parseType() }
            if at(.where) { _ = parseWhereClause() }
        case .case:
            kind = .enumCase
            repeat {
                guard self.kind.isWord else {
                    report("expected a case name")
                    break
                }
                tree.names.append(index)
                advance()
                if at(.leftParen) {
                    let scope = pushScope(.function, at: index)
                    _ = parseParameterClause()
                    popScope(scope, end: end)
                }
                if consume(.equal) != nil { scanExpression(.basic) }
            } while consume(.comma) != nil && !atEnd
        case .operator:
            kind = .operator
            if !atStartOfLine { advance() } // the operator itself
            if consume(.colon) != nil {
                while (self.kind.isWord || at(.comma)) && !atStartOfLine { advance() }
            }
        case .precedencegroup:
            kind = .precedencegroup
            if self.kind.isWord {
                tree.names.append(index)
                advance()
            }
            if at(.leftBrace) { skipBalanced() } else { report("expected '{' after the precedence group name") }
        default:
            kind = .macro
            if self.kind.isWord {
                tree.names.append(index)
                advance()
            }
            let scope = pushScope(.function, at: keyword)
            if atLeftAngle { _ = parseGenericParameters() }
            if at(.leftParen) { _ = parseParameterClause() }
            if consume(.arrow) != nil { parseType() }
            if consume(.equal) != nil { scanExpression(.basic) }
            if at(.where) { _ = parseWhereClause() }
            popScope(scope, end: end)
        }
        return OtherRecord(
            kind: kind, prefix: prefix, keyword: keyword, names: tree.placeNames(since: mark), closures: .empty,
            span: TokenSpan(prefix.start, end))
    }
}

// MARK: - Lookahead

extension TokenView {
    /// `@escaping`, `@autoclosure`, `@Sendable`: a `(` right after them is a function type.
    func takesNoArguments(_ name: TokenSpan) -> Bool {
        guard name.upper == name.lower + 1 else { return false }
        switch words[name.lower] {
        case .autoclosure, .escaping, .Sendable, .noescape: return true
        default: return false
        }
    }

    /// Attributes, then `mutating`-like words, then an accessor kind.
    func startsAccessor(at start: Int) -> Bool {
        var i = start
        while kind(at: i) == .atSign { i = skipAttribute(from: i) }
        if words[min(i, last)].isAccessorModifier { i += 1 }
        return i <= last && words[i].isAccessorKind
    }
}
