// The stable text form of a `SourceTree` (`dewrap --emit-tree`): one line
// per node, indented by nesting, positions as `line:column`, spans as their
// tokens joined by single spaces (comments and line breaks dropped).

extension SourceTree {
    public func dump(source: [UInt8]) -> String {
        var printer = TreePrinter(tree: self, source: source, lines: LineTable(source))
        printer.line(0, "file")
        printer.items(items, depth: 1)
        if !dollarReferences.isEmpty {
            printer.line(0, "dollar references")
            for reference in dollarReferences { printer.dollar(reference) }
        }
        if !expressionGenericArguments.isEmpty {
            printer.line(0, "generic arguments in expressions")
            for span in expressionGenericArguments {
                printer.line(1, "\(printer.text(span)) \(printer.at(span.lower))")
            }
        }
        if !scopes.isEmpty {
            printer.line(0, "scopes")
            printer.scope(0, depth: 1)
        }
        for diagnostic in diagnostics {
            let location = printer.lines.location(of: diagnostic.offset)
            printer.line(0, "error \(location.line):\(location.column) \(diagnostic.message)")
        }
        return printer.output
    }
}

private struct TreePrinter {
    let tree: SourceTree
    let source: [UInt8]
    let lines: LineTable
    var output = ""

    mutating func line(_ depth: Int, _ text: String) {
        output += String(repeating: "  ", count: depth) + text + "\n"
    }

    func at(_ token: Int) -> String {
        let location = lines.location(of: tree.tokens[token].start)
        return "\(location.line):\(location.column)"
    }

    func text(_ token: Int) -> String {
        String(decoding: source[tree.tokens[token].start..<tree.tokens[token].end], as: UTF8.self)
    }

    /// The span's tokens, a space wherever trivia separated two of them.
    func text(_ span: TokenSpan) -> String {
        var result = ""
        var i = span.lower
        while i < span.upper && i < tree.tokens.count {
            if i > span.lower && tree.tokens[i].start > tree.tokens[i - 1].end { result += " " }
            result += text(i)
            i += 1
        }
        return "«" + result + "»"
    }

    func prefix(_ prefix: DeclarationPrefix) -> String {
        var parts: [String] = []
        for attribute in prefix.attributes {
            parts.append("@" + text(attribute.name).dropFirst().dropLast() + (attribute.arguments.map { text($0) } ?? ""))
        }
        for modifier in prefix.modifiers {
            parts.append(text(modifier.keyword) + (modifier.detail.map { text($0) } ?? ""))
        }
        return parts.isEmpty ? "" : " " + parts.joined(separator: " ")
    }

    // MARK: Items

    mutating func items(_ items: SyntaxList<Item>, depth: Int) {
        for item in items { self.item(item, depth: depth) }
    }

    mutating func item(_ item: Item, depth: Int) {
        switch item {
        case .type(let type): self.type(type, depth: depth)
        case .variable(let variable): self.variable(variable, depth: depth)
        case .function(let function): self.function(function, depth: depth)
        case .ifConfig(let ifConfig): self.ifConfig(ifConfig, depth: depth)
        case .statement(let statement): self.statement(statement, depth: depth)
        case .other(let other):
            var description = "\(other.kind.rawValue) \(at(other.keyword))\(prefix(other.prefix))"
            if other.kind == .import { description += " " + text(TokenSpan(other.keyword + 1, other.span.upper)) }
            if !other.names.isEmpty { description += " names=[" + other.names.map(text).joined(separator: ", ") + "]" }
            line(depth, description)
            closures(other.closures, depth: depth + 1)
        }
    }

    mutating func type(_ type: TypeDecl, depth: Int) {
        var description = "\(type.kind.rawValue) \(text(type.name)) \(at(type.keyword))\(prefix(type.prefix))"
        if let generics = type.genericParameters { description += " generics=\(text(generics))" }
        if !type.inheritance.isEmpty { description += " inherits=[" + type.inheritance.map(text).joined(separator: ", ") + "]" }
        if let whereClause = type.whereClause { description += " where=\(text(whereClause))" }
        line(depth, description)
        if let body = type.body { items(body.items, depth: depth + 1) }
    }

    mutating func variable(_ variable: VariableDecl, depth: Int) {
        line(depth, "\(text(variable.keyword)) \(at(variable.keyword))\(prefix(variable.prefix))")
        for binding in variable.bindings {
            var description = "binding \(text(binding.pattern))"
            if let type = binding.type { description += " type=\(text(type))" }
            if let initializer = binding.initializer { description += " init=\(text(initializer))" }
            line(depth + 1, description)
            closures(binding.closures, depth: depth + 2)
            if let accessors = binding.accessors { accessorBlock(accessors, depth: depth + 2) }
        }
    }

    mutating func accessorBlock(_ block: AccessorBlock, depth: Int) {
        switch block.content {
        case .getter(let body):
            line(depth, "getter \(at(block.open))")
            items(body, depth: depth + 1)
        case .accessors(let accessors):
            for accessor in accessors {
                var description = "accessor \(text(accessor.keyword)) \(at(accessor.keyword))"
                for attribute in accessor.attributes { description += " @" + text(attribute.name).dropFirst().dropLast() }
                if let modifier = accessor.modifier { description += " " + text(modifier) }
                if let parameter = accessor.parameter { description += " parameter=\(text(parameter))" }
                if let effects = accessor.effects { description += " effects=\(text(effects))" }
                if accessor.body == nil { description += " (no body)" }
                line(depth, description)
                if let body = accessor.body { items(body.items, depth: depth + 1) }
            }
        }
    }

    mutating func function(_ function: FunctionDecl, depth: Int) {
        var description = function.kind.rawValue
        if let name = function.name { description += function.kind == .initializer ? text(name) : " " + text(name) }
        description += " \(at(function.keyword))\(prefix(function.prefix))"
        if let generics = function.genericParameters { description += " generics=\(text(generics))" }
        if let effects = function.effects { description += " effects=\(text(effects))" }
        if let returnType = function.returnType { description += " returns=\(text(returnType))" }
        if let whereClause = function.whereClause { description += " where=\(text(whereClause))" }
        line(depth, description)
        for parameter in function.parameters { self.parameter(parameter, depth: depth + 1) }
        closures(function.closures, depth: depth + 1)
        if let body = function.body {
            line(depth + 1, "body \(at(body.open))")
            items(body.items, depth: depth + 2)
        }
        if let accessors = function.accessors { accessorBlock(accessors, depth: depth + 1) }
    }

    mutating func parameter(_ parameter: Parameter, depth: Int) {
        var description = "parameter"
        for attribute in parameter.attributes { description += " @" + text(attribute.name).dropFirst().dropLast() }
        if let first = parameter.firstName { description += " " + text(first) }
        if let second = parameter.secondName { description += " " + text(second) }
        if let type = parameter.type { description += " type=\(text(type))" }
        if let value = parameter.defaultValue { description += " default=\(text(value))" }
        line(depth, description)
    }

    mutating func ifConfig(_ ifConfig: IfConfig, depth: Int) {
        line(depth, "#if-region \(at(ifConfig.span.lower))")
        for clause in ifConfig.clauses {
            line(depth + 1, text(clause.keyword) + (clause.condition.map { " " + text($0) } ?? ""))
            items(clause.items, depth: depth + 2)
        }
    }

    mutating func statement(_ statement: Statement, depth: Int) {
        var description = "\(statement.kind.rawValue) \(at(statement.span.lower))"
        if let label = statement.label { description += " label=\(text(label))" }
        if statement.kind == .expression || statement.kind == .return || statement.kind == .throw {
            description += " \(text(statement.span))"
        }
        if !statement.conditions.isEmpty {
            description += " conditions=[" + statement.conditions.map(text).joined(separator: ", ") + "]"
        }
        line(depth, description)
        closures(statement.closures, depth: depth + 1)
        for block in statement.blocks {
            line(depth + 1, "block \(at(block.open))")
            items(block.items, depth: depth + 2)
        }
        for switchCase in statement.cases {
            line(depth + 1, "case-label \(text(switchCase.label))")
            closures(switchCase.closures, depth: depth + 2)
            items(switchCase.items, depth: depth + 2)
        }
        for elseIf in statement.elseIf {
            line(depth + 1, "else")
            self.statement(elseIf, depth: depth + 2)
        }
    }

    mutating func closures(_ closures: SyntaxList<Closure>, depth: Int) {
        for closure in closures {
            if closure.kind == .statementExpression {
                line(depth, "statement-expression \(at(closure.open))")
                items(closure.items, depth: depth + 1)
                continue
            }
            var description = "closure \(at(closure.open))"
            if let captures = closure.captureList { description += " captures=\(text(captures))" }
            if !closure.parameters.isEmpty { description += " parameters=[" + closure.parameters.map(text).joined(separator: ", ") + "]" }
            if let signature = closure.signature { description += " signature=\(text(signature))" }
            line(depth, description)
            items(closure.items, depth: depth + 1)
        }
    }

    // MARK: References and scopes

    mutating func dollar(_ reference: DollarReference) {
        var description = "\(text(reference.token)) \(at(reference.token)) "
        switch reference.qualifier {
        case .none: description += "bare"
        case .selfDot: description += "self."
        case .expressionDot(let period):
            var start = period - 1
            // Show the base expression's last token for orientation.
            if start < 0 { start = 0 }
            description += "after \(text(start))."
        case .keyPath(_, let root): description += "key-path root=" + (root.map { text($0) } ?? "none")
        }
        line(1, description)
    }

    mutating func scope(_ id: Int, depth: Int) {
        let scope = tree.scopes[id]
        var description = "\(scope.kind.rawValue) \(at(min(scope.span.lower, tree.tokens.count - 1)))"
        if !scope.names.isEmpty {
            description +=
                " names=["
                + tree.scopeNames[scope.names].map { name in
                    (name.implicitName.map { "\($0)" } ?? text(name.token)) + "(" + name.kind.rawValue + ")"
                }.joined(separator: ", ") + "]"
        }
        line(depth, description)
        for child in tree.scopeChildren[scope.children] { self.scope(child, depth: depth + 1) }
    }
}
