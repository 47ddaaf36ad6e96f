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
/// `{ (@Binding $item) in … }` is the same. Other `$x in` closures stay as written:
/// their parameter type is not in the source.
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
    /// `borrowing`: an init takes its arguments owned, and the caller's copy of the context (a copy and
    /// a destruction through its value witnesses) was for nothing kept.
    init(context: borrowing SourceContext, memberTypes: [String: String], parseProblems: [Int]) {
        guard context.tree.census.closureSignature else { return }
        let tokens = context.tree.tokens
        let broken = brokenTopLevelSpans(context.tree, parseProblems: parseProblems)
        for closure in context.tree.closures {
            // `$item in`, or with the attribute written out, `(@Binding $item) in`.
            guard closure.kind == .closure, closure.parameters.count == 1, let signature = closure.signature,
                signature.upper - signature.lower == 2 && signature.lower == closure.parameters[0]
                    || signature.upper - signature.lower == 6 && signature.lower + 3 == closure.parameters[0]
                        && tokens[signature.lower].kind == .leftParen && tokens[signature.lower + 1].kind == .atSign
                        && context.text(signature.lower + 2) == "Binding" && tokens[signature.lower + 4].kind == .rightParen,
                tokens[closure.parameters[0]].kind == .dollarIdentifier, closure.captureList == nil,
                closure.close != nil,
                !broken.contains(where: { $0.lower <= closure.open && closure.open < $0.upper })
            else { continue }
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
                open < 2 || tokens[open - 2].kind != .period
            else { continue }
            let collection = String(context.text(open + 1).dropFirst())
            let spelling = Array(collection.utf8)
            guard let type = memberTypes[collection], let element = arrayElement(type),
                context.tree.nearestLocalName(at: open + 1, where: { context.token($0.token, isSpelled: spelling) }) == nil
            else { continue }
            lowered.append(
                Lowered(
                    closure: closure, parameter: closure.parameters[0],
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
            if let first = item.closure.items.first.map(\.span.lower), !sameLine {
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

/// `{ (@W x: T) in … }` (SPEC P-5): the wrapper is built inside the closure, on
/// every call. Written out:
/// ```swift
/// { (_x0: T) in
///     let _x = W(wrappedValue: _x0, args…)
///     var x: T { _x.wrappedValue }            // with `set` when W's setter is nonmutating
///     var _$x: P { _x.projectedValue }
///     …
/// ```
struct WrappedClosureParameters {
    struct Parameter {
        /// From the `@` to the end of the type.
        var span: TokenSpan
        var nameToken: Int
        var name: String
        var valueType: String
        var storageType: String
        var wrapper: WrapperShape
        var arguments: TokenSpan?
        var projectedType: String?
    }

    struct Lowered {
        var closure: Closure
        var parameters: [Parameter]
    }

    private(set) var lowered: [Lowered] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// Name tokens of every closure parameter with a wrapper attribute, lowered or not.
    private(set) var wrappedNames: Set<Int> = []
    var loweredNames: Set<Int> { Set(lowered.flatMap { $0.parameters.map(\.nameToken) }) }

    /// `borrowing`: nothing of the context is kept (see `BindingClosureParameters.init`).
    init(context: borrowing SourceContext, parseProblems: [Int]) {
        guard context.tree.census.closureSignature else { return }
        let tokens = context.tree.tokens
        let broken = brokenTopLevelSpans(context.tree, parseProblems: parseProblems)
        closures: for closure in context.tree.closures {
            guard closure.kind == .closure, let signature = closure.signature, closure.close != nil,
                tokens[signature.lower].kind == .leftParen
            else { continue }
            var parameters: [Parameter] = []
            var index = signature.lower + 1
            var unsupported = false
            // Each parameter: from after `(` or `,` to the next top-level `,` or `)`.
            while index < signature.upper {
                var end = index
                var depth = 0
                while end < signature.upper {
                    let kind = tokens[end].kind
                    if depth == 0 && (kind == .comma || kind == .rightParen) { break }
                    if kind == .leftParen || kind == .leftSquare || (kind != .identifier && context.text(end) == "<") { depth += 1 }
                    if kind == .rightParen || kind == .rightSquare || (kind != .identifier && context.text(end) == ">") { depth -= 1 }
                    end += 1
                }
                if tokens[index].kind == .atSign, index + 1 < end,
                    let wrapper = context.shapes.shape(named: context.text(index + 1))
                {
                    var name = index + 2
                    var arguments: TokenSpan?
                    if name < end, tokens[name].kind == .leftParen {
                        var close = name
                        var level = 0
                        repeat {
                            if tokens[close].kind == .leftParen { level += 1 }
                            if tokens[close].kind == .rightParen { level -= 1 }
                            close += 1
                        } while level > 0 && close < end
                        if close - name > 2 { arguments = TokenSpan(name + 1, close - 1) }
                        name = close
                    }
                    if name < end { wrappedNames.insert(name) }
                    guard name + 2 < end, tokens[name].kind == .identifier, tokens[name + 1].kind == .colon,
                        wrapper.hasInitWrappedValue, !wrapper.wrappedValue.mutatingGetter, wrapper.wrappedValue.isolation == nil,
                        wrapper.projectedValue.map({ !$0.mutatingGetter && $0.isolation == nil }) ?? true,
                        wrapper.projectedValue == nil || wrapper.hasInitProjectedValue
                    else {
                        unsupported = true
                        index = end + 1
                        continue
                    }
                    let valueType = context.text(TokenSpan(name + 2, end))
                    var bindings: [String: [String]] = [:]
                    if !wrapper.genericParameters.isEmpty {
                        _ = matchType(wrapper.wrappedValue.type, valueType, parameters: wrapper.genericParameters, bindings: &bindings)
                    }
                    guard wrapper.genericParameters.allSatisfy({ bindings[$0] != nil }), !valueType.hasPrefix("@"),
                        !valueType.hasPrefix("inout"), !valueType.hasSuffix("...")
                    else {
                        unsupported = true
                        index = end + 1
                        continue
                    }
                    let storageType = wrapper.storageType(bindings)
                    parameters.append(
                        Parameter(
                            span: TokenSpan(index, end), nameToken: name, name: context.text(name), valueType: valueType,
                            storageType: storageType, wrapper: wrapper, arguments: arguments,
                            projectedType: wrapper.projectedType(bindings)))
                }
                index = end + 1
            }
            guard !parameters.isEmpty else { continue }
            guard !unsupported, !broken.contains(where: { $0.lower <= closure.open && closure.open < $0.upper }) else {
                if unsupported {
                    diagnostics.append(
                        Diagnostic(
                            .warning, at: tokens[parameters[0].span.lower].start,
                            "cannot lower the wrapped parameters of this closure: one of them is not supported yet"))
                }
                continue closures
            }
            lowered.append(Lowered(closure: closure, parameters: parameters))
        }
    }

    func edits(context: SourceContext) -> [Edit] {
        let tokens = context.tree.tokens
        var result: [Edit] = []
        for item in lowered {
            let signature = item.closure.signature!
            let inToken = signature.upper - 1
            var declarations: [String] = []
            for parameter in item.parameters {
                let name = parameter.name
                result.append(
                    Edit(
                        start: tokens[parameter.span.lower].start, end: tokens[parameter.span.upper - 1].end,
                        text: Array("_\(name)0: \(parameter.valueType)".utf8)))
                let arguments = parameter.arguments.map { ", " + context.text($0) } ?? ""
                declarations.append("let _\(name) = \(parameter.wrapper.name)(wrappedValue: _\(name)0\(arguments))")
                declarations += parameterAccessors(
                    name: name, valueType: parameter.valueType, wrapper: parameter.wrapper, projectedType: parameter.projectedType)
            }
            let sameLine = inToken + 1 < tokens.count && context.line(of: inToken + 1) == context.line(of: inToken)
            let indent: String
            if !sameLine, let close = item.closure.close, inToken + 1 < close {
                indent = context.indentation(of: inToken + 1)
            } else {
                indent = context.indentation(of: item.closure.open) + context.indentUnit
            }
            let line = context.line(of: inToken)
            var text = declarations.map { context.lineBreak(mappedTo: line) + indent + $0 }.joined()
            if sameLine { text += ";" }
            // A single expression was the closure's result; after the declarations it needs `return`.
            if item.closure.items.count == 1, case .statement(let statement) = item.closure.items[0], statement.kind == .expression {
                text += sameLine ? " return" : ""
                if !sameLine {
                    let start = tokens[statement.span.lower].start
                    result.append(Edit(start: start, end: start, text: Array("return ".utf8)))
                }
            }
            result.append(Edit(start: tokens[inToken].end, end: tokens[inToken].end, text: Array(text.utf8)))
        }
        return result
    }
}
