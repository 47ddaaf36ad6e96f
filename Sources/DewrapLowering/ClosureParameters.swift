import DewrapSyntax

/// `ForEach($items) { $item in … }` (SPEC P-5, pairs 07 and 13): a closure whose
/// only parameter is `$item`, passed as the trailing closure of `ForEach($name)`
/// where `name` is a lowered property of type `[E]`, so that the parameter is a
/// `Binding<E>`. Written out:
/// ```swift
/// ForEach(_$items) { (_item0: Binding<E>) in
///     let _item = Binding(projectedValue: _item0)
///     var item: E { get { _item.wrappedValue } set { _item.wrappedValue = newValue } }
///     var _$item: Binding<E> { _item.projectedValue }
///     …
/// ```
/// Other `$x in` closures stay as written: their parameter type is not in the source.
struct BindingClosureParameters {
    struct Lowered {
        var closure: Closure
        var parameter: Int
        var name: String
        var elementType: String
    }

    private(set) var lowered: [Lowered] = []

    /// The `$item` parameter tokens that are lowered: `$item` in the body becomes `_$item`.
    var parameterTokens: Set<Int> { Set(lowered.map(\.parameter)) }

    /// `memberTypes`: the value type of each lowered member property, by name (only names with one type).
    init(context: SourceContext, memberTypes: [String: String], parseProblems: [Int]) {
        let tokens = context.tree.tokens
        for closure in allClosures(context.tree) {
            guard closure.kind == .closure, closure.parameters.count == 1, let signature = closure.signature,
                  signature.upper - signature.lower == 2, signature.lower == closure.parameters[0],
                  tokens[closure.parameters[0]].kind == .dollarIdentifier, closure.captureList == nil,
                  let close = closure.close,
                  !parseProblems.contains(where: { closure.open <= $0 && $0 <= close }) else { continue }
            // `ForEach($name)` or `ForEach($name, id: …)` right before the `{`.
            let before = closure.open - 1
            guard before > 3, tokens[before].kind == .rightParen else { continue }
            var depth = 0
            var open = before
            while open > 0 {
                if tokens[open].kind == .rightParen { depth += 1 }
                if tokens[open].kind == .leftParen {
                    depth -= 1
                    if depth == 0 { break }
                }
                open -= 1
            }
            guard open > 0, context.text(open - 1) == "ForEach", open + 2 <= before,
                  tokens[open + 1].kind == .dollarIdentifier,
                  tokens[open + 2].kind == .rightParen || tokens[open + 2].kind == .comma,
                  open < 2 || tokens[open - 2].kind != .period else { continue }
            let collection = String(context.text(open + 1).dropFirst())
            let spelling = Array(collection.utf8)
            guard let type = memberTypes[collection], let element = arrayElement(type),
                  context.tree.nearestLocalName(at: open + 1, where: { context.token($0.token, isSpelled: spelling) }) == nil
            else { continue }
            lowered.append(Lowered(closure: closure, parameter: closure.parameters[0],
                                   name: String(context.text(closure.parameters[0]).dropFirst()), elementType: element))
        }
    }

    func edits(context: SourceContext) -> [Edit] {
        let tokens = context.tree.tokens
        var result: [Edit] = []
        for item in lowered {
            let signature = item.closure.signature!
            let inToken = signature.upper - 1
            let name = item.name
            let binding = "Binding<\(item.elementType)>"
            let sameLine = inToken + 1 < tokens.count && context.line(of: inToken + 1) == context.line(of: inToken)
            let indent: String
            if let first = item.closure.items.first.map(itemStart), !sameLine {
                indent = context.indentation(of: first)
            } else {
                indent = context.indentation(of: item.closure.open) + context.indentUnit
            }
            let declarations = [
                "let _\(name) = Binding(projectedValue: _\(name)0)",
                "var \(name): \(item.elementType) { get { _\(name).wrappedValue } set { _\(name).wrappedValue = newValue } }",
                "var _$\(name): \(binding) { _\(name).projectedValue }",
            ]
            let line = context.line(of: signature.lower)
            var text = "(_\(name)0: \(binding)) in" + declarations.map { context.lineBreak(mappedTo: line) + indent + $0 }.joined()
            if sameLine { text += ";" }
            result.append(Edit(start: tokens[signature.lower].start, end: tokens[inToken].end, text: Array(text.utf8)))
        }
        return result
    }

    private func itemStart(_ item: Item) -> Int {
        switch item {
        case .type(let type): return type.span.lower
        case .variable(let variable): return variable.span.lower
        case .function(let function): return function.span.lower
        case .ifConfig(let ifConfig): return ifConfig.span.lower
        case .statement(let statement): return statement.span.lower
        case .other(let other): return other.span.lower
        }
    }
}

/// `E` from `[E]` or `Array<E>`; nil for a dictionary or anything else.
private func arrayElement(_ type: String) -> String? {
    let tokens = typeTokens(type)
    if tokens.first == "[", tokens.last == "]" {
        let inner = Array(tokens.dropFirst().dropLast())
        var depth = 0
        for token in inner {
            if ["[", "(", "<"].contains(token) { depth += 1 } else if ["]", ")", ">"].contains(token) { depth -= 1 }
            if depth == 0 && token == ":" { return nil }
        }
        return inner.isEmpty ? nil : typeText(inner)
    }
    if tokens.count > 3, tokens[0] == "Array", tokens[1] == "<", tokens.last == ">" {
        return typeText(Array(tokens[2..<(tokens.count - 1)]))
    }
    return nil
}
