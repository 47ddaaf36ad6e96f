import DewrapSyntax

/// Wrapped local variables (SPEC P-6, N-6, N-7) and wrapped globals (P-7).
///
/// `@W var x = e` in a function, accessor or closure body becomes
/// ```swift
/// var _x: W<T> = W(wrappedValue: e)
/// var x: T {
///     get { _x.wrappedValue }
///     set { _x.wrappedValue = newValue }     // never `nonmutating`
/// }
/// var _$x: P { _x.projectedValue }
/// ```
/// Closures capture `_x` by reference, as they capture the original. Without an
/// initial value (V-3c), the first statement that uses `x` must be `x = v`
/// in the same block (N-6); it becomes `_x = W(wrappedValue: v)`, and the
/// computed `x` may be declared before `_x` is initialized (N-7).
struct LocalWrappedVariables {
    /// One local to lower.
    struct Local {
        var property: WrappedProperty
        /// The `x = v` statements that initialize the storage (N-6): one, or one per branch.
        var firstAssignments: [Statement]
    }

    let context: SourceContext
    private(set) var locals: [Local] = []
    private(set) var diagnostics: [Diagnostic] = []

    /// The name tokens of the locals that are lowered: their unqualified `$x` becomes `_$x` (D-2).
    var loweredNames: Set<Int> { Set(locals.map(\.property.nameToken)) }

    /// `parseProblems`: the first token at or after each parse problem. A top-level
    /// declaration with one inside is left alone, as a type with one is.
    init(context: SourceContext, parseProblems: [Int]) {
        self.context = context
        guard context.tree.census.attributedVariableOutsideTypes else { return }
        let items = context.tree.items
        for index in items.indices {
            let span = items[index].span
            guard !parseProblems.contains(where: { span.lower <= $0 && $0 <= span.upper }) else { continue }
            // Alone: a top-level variable is not followed by the statements after it.
            visit(items[index...index])
        }
    }

    // MARK: Finding them

    private mutating func visit(_ items: SyntaxList<Item>) { visit(items[...]) }

    private mutating func visit(_ items: Slice<SyntaxList<Item>>) {
        for index in items.indices {
            switch items[index] {
            case .type(let type):
                if let body = type.body { visit(body.items) }
            case .variable(let variable):
                consider(variable, followedBy: items[(index + 1)...])
                for binding in variable.bindings {
                    visit(binding.closures)
                    if let accessors = binding.accessors { visit(accessors) }
                }
            case .function(let function):
                visit(function.closures)
                if let body = function.body { visit(body.items) }
                if let accessors = function.accessors { visit(accessors) }
            case .ifConfig(let ifConfig):
                for clause in ifConfig.clauses { visit(clause.items) }
            case .statement(let statement):
                visit(statement)
            case .other(let other):
                visit(other.closures)
            }
        }
    }

    private mutating func visit(_ statement: Statement) {
        visit(statement.closures)
        for block in statement.blocks { visit(block.items) }
        for switchCase in statement.cases {
            visit(switchCase.closures)
            visit(switchCase.items)
        }
        for elseIf in statement.elseIf { visit(elseIf) }
    }

    private mutating func visit(_ closures: SyntaxList<Closure>) {
        for closure in closures { visit(closure.items) }
    }

    private mutating func visit(_ block: AccessorBlock) {
        switch block.content {
        case .getter(let items):
            visit(items)
        case .accessors(let accessors):
            for accessor in accessors {
                if let body = accessor.body { visit(body.items) }
            }
        }
    }

    private mutating func consider(_ variable: VariableDecl, followedBy following: Slice<SyntaxList<Item>>) {
        let tree = context.tree
        guard
            let wrapperAttribute = variable.prefix.attributes.first(where: {
                context.wrapper(of: $0) != nil
            })
        else { return }
        switch tree.scopes.isEmpty ? .file : tree.scopes[tree.innermostScope(containing: variable.keyword)].kind {
        case .type:
            return // a member: lowered with its type
        case .file:
            // P-7, at the attribute as swiftc reports it (in top-level code and for globals alike).
            diagnostics.append(
                Diagnostic(
                    .error, at: tree.tokens[wrapperAttribute.atSign].start,
                    "property wrappers are not yet supported in top-level code"))
            return
        case .function, .accessor, .closure, .block, .clause, .switchCase:
            break
        }
        let property: WrappedProperty
        switch analyzeProperty(variable, in: .local, placement: nil, context: context) {
        case .notWrapped:
            return
        case .leave(let diagnostic):
            diagnostics.append(diagnostic)
            return
        case .lower(let lowered):
            property = lowered
        }
        let nameOffset = tree.tokens[property.nameToken].start
        func leave(_ reason: String) {
            diagnostics.append(Diagnostic(.warning, at: nameOffset, "cannot lower local '\(property.name)': \(reason)"))
        }
        let wrapperAttributes = Set([property.attribute.atSign] + property.inner.map(\.attribute.atSign))
        guard variable.prefix.attributes.allSatisfy({ wrapperAttributes.contains($0.atSign) }), variable.prefix.modifiers.isEmpty else {
            return leave("other attributes and modifiers on a wrapped local are not supported yet")
        }
        guard property.willSet == nil && property.didSet == nil else {
            return leave("observers on a wrapped local are not supported yet")
        }
        let wrappers = [property.wrapper] + property.inner.map(\.wrapper)
        guard wrappers.allSatisfy({ $0.wrappedValue.isolation == nil && $0.projectedValue?.isolation == nil }) else {
            return leave("a wrapper whose wrappedValue or projectedValue is isolated to a global actor is not supported on a local yet")
        }
        var firstAssignments: [Statement] = []
        if property.storageStart == .none {
            // N-6: the first use must be `x = v` in the same block, or in both branches of an `if`/`else`.
            guard let assignments = initializingAssignments(of: property.name, in: following), !assignments.isEmpty else {
                return leave("its first use is not an assignment 'x = …' in the same block or in both branches of an 'if'")
            }
            guard property.reinitializesFromWrappedValue else {
                return leave("'\(property.wrapper.name)' has no init(wrappedValue:)")
            }
            firstAssignments = assignments
        }
        locals.append(Local(property: property, firstAssignments: firstAssignments))
    }

    /// The statements that first assign `name` in `items`: the first item that mentions
    /// it must be `name = v`, or an `if`/`else` (no `else if`) whose condition does not
    /// mention it and whose branches each start their use of it that way. Nil otherwise.
    private func initializingAssignments(of name: String, in items: Slice<SyntaxList<Item>>) -> [Statement]? {
        let tokens = context.tree.tokens
        let spelling = Array(name.utf8)
        func mentions(_ span: TokenSpan) -> Int? {
            (span.lower..<span.upper).first { index in
                tokens[index].kind == .identifier && context.token(index, isSpelled: spelling)
                    && (index == 0 || tokens[index - 1].kind != .period)
            }
        }
        guard let item = items.first(where: { mentions($0.span) != nil }), case .statement(let statement) = item else { return nil }
        switch statement.kind {
        case .expression:
            let first = statement.span.lower
            guard mentions(statement.span) == first, context.token(first, isSpelled: spelling),
                first + 2 < statement.span.upper, tokens[first + 1].kind == .equal
            else { return nil }
            return [statement]
        case .if:
            guard statement.blocks.count == 2, statement.elseIf.isEmpty,
                statement.conditions.allSatisfy({ mentions($0) == nil }),
                let then = initializingAssignments(of: name, in: statement.blocks[0].items[...]),
                let otherwise = initializingAssignments(of: name, in: statement.blocks[1].items[...])
            else { return nil }
            return then + otherwise
        default:
            return nil
        }
    }

    // MARK: Writing them out

    /// The edits, once the `$x` rewrites are in `context.tokenEdits` (copied expressions carry them).
    func edits(context: SourceContext) -> [Edit] {
        var result: [Edit] = []
        let tokens = context.tree.tokens
        for local in locals {
            let property = local.property
            let text = render(property, context: context)
            result.append(
                Edit(
                    start: tokens[property.declaration.prefix.start].start,
                    end: tokens[property.declaration.span.upper - 1].end, text: Array(text.utf8)))
            for statement in local.firstAssignments {
                let valueSpan = TokenSpan(statement.span.lower + 2, statement.span.upper)
                let value = context.text(valueSpan)
                // In directive mode the value goes at its own line and column (`SourceContext.alignedLine(of:)`).
                let alignedLine = context.alignedLine(of: valueSpan)
                let start = alignedLine.map { context.statementStart(at: statement.span.lower, mappedTo: $0 - 1) } ?? ""
                let text =
                    start + "_\(property.name) = " + storageInitializer(
                        for: property, value: value, alignedTo: alignedLine == nil ? nil : valueSpan, context: context)!
                result.append(
                    Edit(
                        start: tokens[statement.span.lower].start, end: tokens[statement.span.upper - 1].end,
                        text: Array(text.utf8)))
            }
        }
        return result
    }

    private func render(_ property: WrappedProperty, context: SourceContext) -> String {
        let indent = context.indentation(of: property.declaration.prefix.start)
        let unit = context.indentUnit
        let compact = context.lineDirectives != nil
        let open = compact ? " " : context.lineEnding + indent + unit
        let close = compact ? " " : context.lineEnding + indent
        let storageName = "_" + property.name
        let access = storageName + String(repeating: ".wrappedValue", count: 1 + property.inner.count)

        // In directive mode the initial value goes at its own line and column (`SourceContext.alignedLine(of:)`).
        let alignedLine = context.alignedLine(of: property.initializer)
        var storage = alignedLine.map { context.statementStart(at: property.declaration.prefix.start, mappedTo: $0 - 1) } ?? ""
        storage += "var \(storageName): \(property.storageType)"
        let initializer = storageInitializer(
            for: property, alignedTo: alignedLine == nil ? nil : property.initializer, context: context)
        if let initializer { storage += " = " + initializer }
        // a local's accessors are never `mutating` or `nonmutating`.
        var computed = "var \(property.name): \(property.valueType) {" + open + "get { \(access) }"
        if property.setter != .none {
            computed += open + "set { \(access) = newValue }"
            if property.wrapper.wrappedValue.needsModify || !property.inner.isEmpty {
                computed += open + "_modify { yield &\(access) }"
            }
        }
        computed += close + "}"
        var lines = [storage, computed]
        if let projected = property.projectedType, let member = property.wrapper.projectedValue {
            if member.setter == .none {
                lines.append("var _$\(property.name): \(projected) { \(storageName).projectedValue }")
            } else {
                lines.append(
                    "var _$\(property.name): \(projected) { get { \(storageName).projectedValue } "
                        + "set { \(storageName).projectedValue = newValue } }")
            }
        }
        let line = context.line(of: property.declaration.prefix.start)
        return lines.joined(separator: context.lineBreak(mappedTo: line) + indent)
    }
}
