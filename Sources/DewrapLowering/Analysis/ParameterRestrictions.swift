import DewrapSyntax

/// Wrapped parameters the compiler rejects (SPEC P-7), reported with its
/// message at its position (measured with swiftc 6.3.1): a subscript
/// parameter, an `@autoclosure` parameter type, a closure parameter whose
/// wrapper has a projection but no `init(projectedValue:)`, and a closure
/// parameter `(@Binding x: T)` in the non-`$` form.
func parameterRestrictions(context: SourceContext) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let tokens = context.tree.tokens
    func shape(_ attribute: Attribute) -> WrapperShape? {
        context.wrapper(of: attribute)
    }
    // Both searches walk the whole file; the parser's census says whether there is anything to find.
    let census = context.tree.census
    if census.attributedParameter {
        context.tree.forEachItem { item in
            switch item {
            case .function(let function):
                for parameter in function.parameters {
                    guard let attribute = parameter.attributes.first(where: { shape($0) != nil }), let wrapper = shape(attribute) else { continue }
                    if function.kind == .subscript {
                        diagnostics.append(
                            Diagnostic(
                                .error, at: tokens[attribute.atSign].start,
                                "property wrapper attribute on parameter not yet supported on subscript"))
                        continue
                    }
                    guard let type = parameter.type, context.text(type.lower) == "@", context.text(type.lower + 1) == "autoclosure",
                        let name = parameter.secondName ?? parameter.firstName
                    else { continue }
                    // The wrapped value would be the closure itself, which cannot escape into the wrapper.
                    let generic = typeText(typeTokens(wrapper.wrappedValue.type))
                    if wrapper.genericParameters.contains(generic) {
                        diagnostics.append(
                            Diagnostic(
                                .error, at: tokens[name].start,
                                "converting non-escaping value to '\(generic)' may allow it to escape"))
                    }
                }
            case .statement, .variable, .other, .type, .ifConfig:
                break
            }
        }
    }
    for closure in census.closureSignature ? context.tree.closures : [] {
        guard let signature = closure.signature else { continue }
        var index = signature.lower
        while index + 2 < signature.upper {
            defer { index += 1 }
            guard tokens[index].kind == .atSign else { continue }
            let nameToken = index + 2
            guard let wrapper = context.shapes.shape(named: context.text(index + 1)),
                [.identifier, .dollarIdentifier].contains(tokens[nameToken].kind)
            else { continue }
            let isProjectionForm = context.text(nameToken).hasPrefix("$")
            if wrapper.projectedValue != nil && !wrapper.hasInitProjectedValue {
                diagnostics.append(
                    Diagnostic(
                        .error, at: tokens[nameToken].start,
                        "incorrect argument label in call (have 'projectedValue:', expected 'wrappedValue:')"))
            } else if !isProjectionForm && !wrapper.hasInitWrappedValue && wrapper.genericParameters.count == 1,
                nameToken + 2 < signature.upper, tokens[nameToken + 1].kind == .colon
            {
                // `(@Binding x: Int)`: the closure's parameter type is the wrapped type, which cannot become the wrapper.
                var end = nameToken + 2
                var depth = 0
                while end < signature.upper {
                    let text = context.text(end)
                    if depth == 0 && (text == "," || text == ")" || text == "=") { break }
                    if ["(", "[", "<"].contains(text) { depth += 1 } else if [")", "]", ">"].contains(text) { depth -= 1 }
                    end += 1
                }
                let type = context.text(TokenSpan(nameToken + 2, end))
                diagnostics.append(
                    Diagnostic(
                        .error, at: tokens[closure.open].start,
                        "cannot convert value '\(context.text(nameToken))' of type '\(type)' to expected type '\(wrapper.name)<\(type)>', use wrapper instead"
                    ))
            }
        }
    }
    return diagnostics
}

/// The spans of the top-level declarations with a parse problem inside: like a type
/// with one, they are left alone (`parseProblems`: the first token at or after each).
func brokenTopLevelSpans(_ tree: SourceTree, parseProblems: [Int]) -> [TokenSpan] {
    guard !parseProblems.isEmpty else { return [] }
    return tree.items.compactMap { item -> TokenSpan? in
        let span: TokenSpan
        switch item {
        case .type(let type): span = type.span
        case .variable(let variable): span = variable.span
        case .function(let function): span = function.span
        case .ifConfig(let ifConfig): span = ifConfig.span
        case .statement(let statement): span = statement.span
        case .other(let other): span = other.span
        }
        return parseProblems.contains(where: { span.lower <= $0 && $0 <= span.upper }) ? span : nil
    }
}
