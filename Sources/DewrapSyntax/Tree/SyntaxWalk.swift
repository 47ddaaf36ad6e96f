extension Item {
    /// The item's tokens, from its first attribute or keyword.
    public var span: TokenSpan {
        switch self {
        case .type(let type): return type.span
        case .variable(let variable): return variable.span
        case .function(let function): return function.span
        case .ifConfig(let ifConfig): return ifConfig.span
        case .statement(let statement): return statement.span
        case .other(let other): return other.span
        }
    }
}

extension SourceTree {
    /// Calls `visit` for every item in the file, at any depth: members,
    /// bodies, accessors, `#if` branches, switch cases and closures, in
    /// source order. Depth is bounded by the parser's nesting limit.
    public func forEachItem(_ visit: (Item) -> Void) {
        walk(items, visit)
    }

    /// The name tokens of the `let x`/`var x` declarations in the blocks the parser
    /// stepped over, which are not in the tree (the only declarations such a block
    /// can hold, see `PlainBlocks`): a `let`/`var` that starts an item, after `{`,
    /// `;`, `}` or a modifier, or at a line start not continuing a list (not one
    /// in `if let` or `case let`), and the name after it.
    public var variableNamesInSteppedOverBlocks: [Int] {
        var names: [Int] = []
        for block in steppedOver {
            var i = block.lower + 1
            while i + 1 < block.upper {
                defer { i += 1 }
                let word = tokens[i].word
                guard word == .let || word == .var, tokens[i + 1].kind == .identifier else { continue }
                switch tokens[i - 1].kind {
                case .leftBrace, .rightBrace, .semicolon: break
                case .comma: continue // `if a,\n let x = b`
                default: guard tokens[i].flags.contains(.atStartOfLine) || tokens[i - 1].word.isDeclarationModifier else { continue }
                }
                names.append(i + 1)
            }
        }
        return names
    }

    /// Every closure in the file, at any depth, in source order: its table, read whole, not a
    /// walk over every item, each of the three times lowering asks. Each closure the parser keeps is in the table, and only those.
    public var closures: [Closure] {
        let tables = items.tables
        let all = SyntaxList<Closure>(TableRange(0, tables.closures.count), in: tables)
        // The table holds a closure when it ends, after the closures inside it.
        return all.sorted { $0.open < $1.open }
    }

    /// The function, initializer or subscript parameter whose name (`store` in `store: Store`,
    /// `given` in `_ given: Store`) is the token `name`, as a scope names it: found in the
    /// parameters' table, not by a walk.
    public func parameter(named name: Int) -> Parameter? {
        let tables = items.tables
        guard let index = tables.parameters.firstIndex(where: { ($0.secondName ?? $0.firstName) == name }) else { return nil }
        return Parameter(at: index, in: tables)
    }

    /// Every type declaration in the file, at any depth, in source order.
    public var typeDeclarations: [TypeDecl] {
        var types: [TypeDecl] = []
        if census.typeInCode {
            forEachItem { item in
                if case .type(let type) = item { types.append(type) }
            }
        } else {
            // Types are only at the top level and among members: no need to walk code.
            // Room for one per top-level item (most files declare types, extensions and
            // little else there) spares the list growing step by step.
            types.reserveCapacity(items.count)
            collectTypes(items, into: &types)
        }
        return types
    }
}

private func collectTypes(_ items: SyntaxList<Item>, into types: inout [TypeDecl]) {
    for item in items {
        switch item {
        case .type(let type):
            types.append(type)
            if let body = type.body { collectTypes(body.items, into: &types) }
        case .ifConfig(let ifConfig):
            for clause in ifConfig.clauses { collectTypes(clause.items, into: &types) }
        default:
            continue
        }
    }
}

private func walk(_ items: SyntaxList<Item>, _ visit: (Item) -> Void) {
    for item in items {
        visit(item)
        switch item {
        case .type(let type):
            if let body = type.body { walk(body.items, visit) }
        case .variable(let variable):
            for binding in variable.bindings {
                walk(binding.closures, visit)
                if let accessors = binding.accessors { walk(accessors, visit) }
            }
        case .function(let function):
            walk(function.closures, visit)
            if let body = function.body { walk(body.items, visit) }
            if let accessors = function.accessors { walk(accessors, visit) }
        case .ifConfig(let ifConfig):
            for clause in ifConfig.clauses { walk(clause.items, visit) }
        case .statement(let statement):
            walk(statement, visit)
        case .other(let other):
            walk(other.closures, visit)
        }
    }
}

private func walk(_ statement: Statement, _ visit: (Item) -> Void) {
    walk(statement.closures, visit)
    for block in statement.blocks { walk(block.items, visit) }
    for switchCase in statement.cases {
        walk(switchCase.closures, visit)
        walk(switchCase.items, visit)
    }
    for elseIf in statement.elseIf {
        visit(.statement(elseIf))
        walk(elseIf, visit)
    }
}

private func walk(_ closures: SyntaxList<Closure>, _ visit: (Item) -> Void) {
    for closure in closures { walk(closure.items, visit) }
}

private func walk(_ block: AccessorBlock, _ visit: (Item) -> Void) {
    switch block.content {
    case .getter(let items):
        walk(items, visit)
    case .accessors(let accessors):
        for accessor in accessors {
            if let body = accessor.body { walk(body.items, visit) }
        }
    }
}
