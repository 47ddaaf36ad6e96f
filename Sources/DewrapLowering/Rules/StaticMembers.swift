import DewrapSyntax

/// SPEC Corrections, "Static members named without `Self.`": a property's
/// initial value and a wrapper's attribute arguments are checked where `self`
/// does not exist yet, so a name there that is one of the type's members can
/// only be a static one (`@Option(transform: convert)`, `= defaultSize`). Copied
/// into an init body, the same name is looked up from an instance: it finds an
/// instance member of that name first, and a static one only with an error
/// ("static member 'convert' cannot be used on instance of type"). So each such
/// name gets `Self.` where the lowering moves the expression into an init body
/// (its `init()`, the memberwise init's body, an assignment made storage
/// initialization, N-2). A default argument is checked like the declaration
/// (measured: it still finds the static member), so it is copied as written.
///
/// The members are those dewrap has: the type's and its extensions' in the
/// file, and those of the protocols and classes declared in the file that it
/// inherits (their requirements, bodies and extensions). Nested types are not
/// counted: a type name means the same in both places.
///
/// A class, made for every type rendered: it holds the type and, once asked,
/// its member names (not the source context, whose copy retains every table it holds).
final class StaticQualification {
    private let type: TypeDecl
    /// Read on first use: most moved expressions name nothing that could be a member.
    private var memberNames: Set<String>?

    init(type: TypeDecl) {
        self.type = type
    }

    /// The tokens of `span` that name one of the type's members unqualified: an
    /// identifier not after `.`, `\` or `@`, not an argument label, and not a name
    /// the expression declares itself (a closure parameter, `let x`, `for x in`).
    func unqualifiedMembers(in span: TokenSpan, context: SourceContext) -> [Int] {
        let tokens = context.tree.tokens
        // Most copied expressions are literals, `.member` or calls of types: nothing to look at, nothing allocated.
        guard
            (span.lower..<span.upper).contains(where: { index in
                tokens[index].kind == .identifier && (index == span.lower || tokens[index - 1].kind != .period)
            })
        else { return [] }
        var candidates: [Int] = []
        // What encloses each token: `(` makes `name:` a label, `[` a dictionary key.
        var brackets: [TokenKind] = []
        for index in span.lower..<span.upper {
            let token = tokens[index]
            switch token.kind {
            case .leftParen, .leftSquare, .leftBrace, .interpolationStart:
                brackets.append(token.kind)
                continue
            case .rightParen, .rightSquare, .rightBrace, .interpolationEnd:
                _ = brackets.popLast()
                continue
            case .identifier:
                break
            default:
                continue
            }
            if index > span.lower, [.period, .backslash, .atSign].contains(tokens[index - 1].kind) { continue }
            // `label:` in a call or among attribute arguments (the span's top level); not a dictionary key.
            if index + 1 < span.upper, tokens[index + 1].kind == .colon,
                index == span.lower || [.leftParen, .comma].contains(tokens[index - 1].kind),
                brackets.isEmpty || brackets.last == .leftParen
            {
                continue
            }
            candidates.append(index)
        }
        guard !candidates.isEmpty else { return [] }
        let declared = namesDeclared(in: span, context: context)
        let members = memberNames ?? readMemberNames(context: context)
        memberNames = members
        return candidates.filter { index in
            let name = withoutBackticks(context.text(index))
            return !declared.contains(name) && members.contains(name)
        }
    }

    /// Names the expression declares anywhere in it: closure parameters (every name
    /// between `{` and `in`), `let`/`var` bindings and `for` loop variables. Such a
    /// name is left alone everywhere in the expression.
    private func namesDeclared(in span: TokenSpan, context: SourceContext) -> Set<String> {
        let tokens = context.tree.tokens
        var names: Set<String> = []
        var index = span.lower
        while index < span.upper {
            defer { index += 1 }
            switch tokens[index].kind {
            case .leftBrace:
                // A closure signature ends with `in` before any statement: scan to it, or to the first line break.
                var end = index + 1
                var depth = 0
                while end < span.upper {
                    let kind = tokens[end].kind
                    if kind == .leftParen || kind == .leftSquare { depth += 1 }
                    if kind == .rightParen || kind == .rightSquare { depth -= 1 }
                    if depth == 0 && (tokens[end].word == .in || kind == .leftBrace || kind == .rightBrace) { break }
                    end += 1
                }
                if end < span.upper, tokens[end].word == .in {
                    for name in index + 1..<end where tokens[name].kind == .identifier { names.insert(withoutBackticks(context.text(name))) }
                }
            case .keyword where [.let, .var, .for].contains(tokens[index].word):
                // `let x`, `let (a, b)`, `for x in`, `for (a, b) in`, `case let .some(x)`: the names up to `=`, `:` or `in`.
                var end = index + 1
                while end < span.upper,
                    tokens[end].kind == .identifier
                        || [.leftParen, .rightParen, .comma, .period]
                            .contains(tokens[end].kind)
                {
                    if tokens[end].kind == .identifier && tokens[end - 1].kind != .period { names.insert(withoutBackticks(context.text(end))) }
                    end += 1
                }
            default:
                continue
            }
        }
        return names
    }

    private func readMemberNames(context: SourceContext) -> Set<String> {
        var names: Set<String> = []
        var seenTypes: Set<String> = []
        let declared = context.tree.typeDeclarations
        func collect(_ items: SyntaxList<Item>) {
            for item in items {
                switch item {
                case .variable(let variable):
                    for binding in variable.bindings {
                        if let name = binding.name {
                            names.insert(withoutBackticks(context.text(name)))
                        } else {
                            // `let (a, b) = …`: every name of the pattern.
                            for index in binding.pattern.lower..<binding.pattern.upper
                            where context.tree.tokens[index].kind == .identifier {
                                names.insert(withoutBackticks(context.text(index)))
                            }
                        }
                    }
                case .function(let function) where function.kind == .function:
                    if let name = function.name { names.insert(withoutBackticks(context.text(name))) }
                case .ifConfig(let ifConfig):
                    for clause in ifConfig.clauses { collect(clause.items) }
                default:
                    continue
                }
            }
        }
        /// A type's members, its extensions' in the file, and those of the protocols and classes it inherits.
        func visit(_ name: String, declarations: [TypeDecl]) {
            guard seenTypes.insert(name).inserted else { return }
            for declaration in declarations {
                collect(declaration.members)
                for entry in declaration.inheritance {
                    for inherited in inheritedNames(entry, context: context) {
                        let matching = declared.filter { candidate in
                            context.text(candidate.name) == inherited
                                && (candidate.kind == .protocol || candidate.kind == .class || candidate.kind == .extension)
                        }
                        if matching.contains(where: { $0.kind != .extension }) { visit(inherited, declarations: matching) }
                    }
                }
            }
        }
        let name = context.text(type.name)
        visit(name, declarations: [type] + declared.filter { $0.kind == .extension && context.text($0.name) == name })
        return names
    }
}

extension CodeOutput {
    /// Appends the source tokens `span` (`$x` rewrites applied) with `Self.` before
    /// each unqualified name of a member of the type (see `StaticQualification`).
    /// Without `qualification`, the tokens as `append(_:from:)` writes them.
    mutating func append(_ span: TokenSpan, from context: SourceContext, qualifying qualification: StaticQualification?) {
        guard let qualification, !span.isEmpty else { return append(span, from: context) }
        let tokens = context.tree.tokens
        var start = tokens[span.lower].start
        for index in qualification.unqualifiedMembers(in: span, context: context) where !context.isInsideTokenEdit(tokens[index].start) {
            context.appendText(bytes: start..<tokens[index].start, to: &self)
            write(string: "Self.")
            start = tokens[index].start
        }
        context.appendText(bytes: start..<tokens[span.upper - 1].end, to: &self)
    }
}
