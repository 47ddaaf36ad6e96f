import DewrapSyntax

/// The definite-initialization pass over a user-written init (N-1…N-5):
/// `x = v` / `self.x = v` to a wrapped `x` while `self` is not yet fully
/// initialized becomes `self._x = W(wrappedValue: v)`; afterwards it stays
/// (the setter). `_x = …` is always a plain store.
struct InitializerRewrite {
    let context: SourceContext
    /// Stored names (wrapped ones by their plain name), without backticks, that must be assigned before `self` is complete.
    let required: Set<String>
    let wrapped: [String: WrappedProperty]
    /// For a class: `super.init` completes `self` (phase 2); before it nothing does.
    let isDerivedClass: Bool
    /// The type's members named in attribute arguments copied into an init get `Self.`.
    let qualification: StaticQualification
    var edits: [Edit] = []
    var diagnostics: [Diagnostic] = []

    init(
        context: SourceContext, required: Set<String>, wrapped: [String: WrappedProperty], isDerivedClass: Bool,
        qualification: StaticQualification
    ) {
        self.context = context
        self.required = required
        self.wrapped = wrapped
        self.isDerivedClass = isDerivedClass
        self.qualification = qualification
    }

    /// Rewrites one init body.
    mutating func rewrite(_ body: Block) {
        var state = FlowState(initialized: [], complete: false)
        _ = walk(body.items, &state)
    }

    struct FlowState {
        var initialized: Set<String>
        /// `self.init(…)` or `super.init(…)` ran on this path.
        var complete: Bool
    }

    private func isComplete(_ state: FlowState) -> Bool {
        state.complete || (!isDerivedClass && required.isSubset(of: state.initialized))
    }

    /// Walks items in order; false when every path through them exits.
    private mutating func walk(_ items: SyntaxList<Item>, _ state: inout FlowState) -> Bool {
        for item in items {
            switch item {
            case .statement(let statement):
                if !walk(statement, &state) { return false }
            case .ifConfig(let ifConfig):
                // Only one branch is compiled; the safe reading is the intersection.
                var merged: FlowState?
                for clause in ifConfig.clauses {
                    var copy = state
                    if walk(clause.items, &copy) { merged = merge(merged, copy) }
                }
                if ifConfig.clauses.allSatisfy({ context.text($0.keyword) != "#else" }) { merged = merge(merged, state) }
                if let merged { state = merged }
            default:
                continue
            }
        }
        return true
    }

    private func merge(_ a: FlowState?, _ b: FlowState) -> FlowState {
        guard let a else { return b }
        return FlowState(initialized: a.initialized.intersection(b.initialized), complete: a.complete && b.complete)
    }

    private mutating func walk(_ statement: Statement, _ state: inout FlowState) -> Bool {
        switch statement.kind {
        case .expression:
            assignment(statement, &state)
            return true
        case .return, .throw:
            return false
        case .if:
            var merged: FlowState?
            var sawElse = false
            var current: Statement? = statement
            while let branch = current {
                var copy = state
                if let first = branch.blocks.first, walk(first.items, &copy) { merged = merge(merged, copy) }
                if branch.blocks.count > 1 {
                    var elseCopy = state
                    if walk(branch.blocks[1].items, &elseCopy) { merged = merge(merged, elseCopy) }
                    sawElse = true
                }
                current = branch.elseIf.first
            }
            if !sawElse { merged = merge(merged, state) }
            guard let merged else { return false }
            state = merged
            return true
        case .guard:
            // The else branch exits; the conditions assign nothing we track.
            return true
        case .switch:
            var merged: FlowState?
            for switchCase in statement.cases {
                var copy = state
                if walk(switchCase.items, &copy) { merged = merge(merged, copy) }
            }
            guard let merged else { return false }
            state = merged
            return true
        case .do:
            var merged: FlowState?
            for block in statement.blocks {
                var copy = state
                if walk(block.items, &copy) { merged = merge(merged, copy) }
            }
            if let merged { state = merged }
            return true
        case .for, .while, .repeat:
            // The body may not run (or run many times): what it assigns does not count after it.
            for block in statement.blocks {
                var copy = state
                _ = walk(block.items, &copy)
            }
            return true
        default:
            return true
        }
    }

    /// `[self.]name = value`, `self.init(…)`, `super.init(…)`.
    private mutating func assignment(_ statement: Statement, _ state: inout FlowState) {
        let tokens = context.tree.tokens
        let span = statement.span
        var i = span.lower
        if context.text(i) == "self" || context.text(i) == "super", i + 2 < span.upper, tokens[i + 1].kind == .period,
            context.text(i + 2) == "init"
        {
            state.complete = true
            return
        }
        var qualified = false
        if context.text(i) == "self", i + 1 < span.upper, tokens[i + 1].kind == .period {
            qualified = true
            i += 2
        }
        // After `self.` a keyword is a member's name too (`self.enum = e` for `` var `enum` ``).
        guard i + 1 < span.upper, tokens[i].kind == .identifier || qualified && tokens[i].kind == .keyword,
            tokens[i + 1].kind == .equal
        else { return }
        let name = context.text(i)
        // `self.enum`, `self.`enum`` and `` `enum` `` assign the one property: names are compared without backticks.
        let key = withoutBackticks(name)
        let plainName = key.hasPrefix("_") && wrapped[String(key.dropFirst())] != nil ? String(key.dropFirst()) : key
        defer { state.initialized.insert(plainName) }
        guard let property = wrapped[key], !isComplete(state) else { return }
        // A parameter or local named like the property shadows it when unqualified.
        let spelling = Array(name.utf8)
        if !qualified, context.tree.nearestLocalName(at: i, where: { context.token($0.token, isSpelled: spelling) }) != nil {
            return
        }
        guard property.reinitializesFromWrappedValue else {
            // Where swiftc puts it: at the `=`.
            diagnostics.append(Diagnostic(.error, at: tokens[i + 1].start, "'self' used before all stored properties are initialized"))
            return
        }
        let valueSpan = TokenSpan(i + 2, span.upper)
        let value = context.text(valueSpan)
        // In directive mode the value goes at its own line and column (`SourceContext.alignedLine(of:)`).
        let alignedLine = context.alignedLine(of: valueSpan)
        let start = alignedLine.map { context.statementStart(at: span.lower, mappedTo: $0 - 1) } ?? ""
        let text =
            start + "self._\(property.name) = " + storageInitializer(
                for: property, value: value, qualifying: qualification, alignedTo: alignedLine == nil ? nil : valueSpan, context: context)!
        edits.append(Edit(start: tokens[span.lower].start, end: tokens[span.upper - 1].end, text: Array(text.utf8)))
    }
}
