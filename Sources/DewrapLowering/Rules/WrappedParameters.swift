import DewrapSyntax

/// Wrapped function parameters and their call sites in the same file (SPEC P-1, P-2, P-4).
///
/// `func f(@W x: T)` becomes `func f(x _x: W<T>)` whose body starts with a
/// local computed `x` (get-only, or with a plain `set` when the wrapper's
/// setter is nonmutating) and `_$x` when the wrapper has a projection. Every
/// call `f(x: e)` becomes `f(x: W(wrappedValue: e, args…))`, `f($x: p)`
/// becomes `f(x: W(projectedValue: p))`, and a default `= d` becomes
/// `= W(wrappedValue: d, args…)`. A function is lowered only when every
/// mention of its name in the file is such a call (unqualified or through
/// `self.`) and no other declaration in the file has its name; otherwise it is
/// left as written, with a warning.
struct WrappedParameters {
    struct Lowered {
        var function: FunctionDecl
        var parameters: [(index: Int, parameter: Parameter, property: ParameterShape)]
        var calls: [Call]
        /// Unapplied references `let g: (T) -> R = f` (P-3): the name tokens.
        var references: [Int] = []
    }

    /// What lowering needs of one wrapped parameter.
    struct ParameterShape {
        var wrapper: WrapperShape
        var attribute: Attribute
        var name: String
        var nameToken: Int
        var valueType: String
        var storageType: String
        var projectedType: String?
        var arguments: TokenSpan?
    }

    /// One call site: its argument list and, per argument, the parameter it is for.
    struct Call {
        var open: Int
        var close: Int
        /// (parameter index, label token or nil, expression span)
        var arguments: [(parameter: Int, label: Int?, value: TokenSpan)]
    }

    let context: SourceContext
    private(set) var lowered: [Lowered] = []
    private(set) var diagnostics: [Diagnostic] = []

    /// The name tokens of lowered parameters: their `$x` in the body becomes `_$x` (D-2).
    var loweredNames: Set<Int> { Set(lowered.flatMap { $0.parameters.map(\.property.nameToken) }) }
    /// The name tokens of every parameter with a wrapper, lowered or not: their `$x` is theirs (D-2).
    private(set) var wrappedNames: Set<Int> = []

    init(context: SourceContext, parseProblems: [Int]) {
        self.context = context
        guard context.tree.census.attributedParameter else { return }
        var functions: [FunctionDecl] = []
        var declaredNames: [String: Int] = [:]
        context.tree.forEachItem { item in
            switch item {
            case .function(let function):
                if let name = function.name { declaredNames[context.text(name), default: 0] += 1 }
                if function.kind == .function || function.kind == .initializer { functions.append(function) }
            case .variable(let variable):
                for binding in variable.bindings {
                    if let name = binding.name { declaredNames[context.text(name), default: 0] += 1 }
                }
            case .type(let type):
                declaredNames[context.text(type.name), default: 0] += 1
            case .other(let other):
                for name in other.names { declaredNames[context.text(name), default: 0] += 1 }
            case .statement, .ifConfig:
                break
            }
        }
        // Bodies the parser stepped over can still declare a local of the same name.
        for name in context.tree.variableNamesInSteppedOverBlocks {
            declaredNames[context.text(name), default: 0] += 1
        }
        for function in functions {
            for parameter in function.parameters where parameter.attributes.contains(where: {
                context.wrapper(of: $0) != nil
            }) {
                if let name = parameter.secondName ?? parameter.firstName { wrappedNames.insert(name) }
            }
        }
        let broken = brokenTopLevelSpans(context.tree, parseProblems: parseProblems)
        for function in functions where function.parameters.contains(where: { parameter in
            parameter.attributes.contains { context.wrapper(of: $0) != nil }
        }) {
            guard !broken.contains(where: { $0.lower <= function.keyword && function.keyword < $0.upper }) else { continue }
            consider(function, declaredNames: declaredNames)
        }
    }

    private mutating func consider(_ function: FunctionDecl, declaredNames: [String: Int]) {
        let tokens = context.tree.tokens
        let functionName = function.name.map { context.text($0) } ?? "init"
        func leave(_ at: Int, _ reason: String) {
            diagnostics.append(Diagnostic(.warning, at: tokens[at].start, "cannot lower the wrapped parameters of '\(functionName)': \(reason)"))
        }
        guard function.kind == .function, let nameToken = function.name, tokens[nameToken].kind == .identifier else {
            return leave(function.keyword, "only functions called by name in this file are lowered")
        }
        guard let body = function.body, body.close != nil else { return leave(function.keyword, "it has no body") }
        if function.returnType != nil, body.items.count == 1, case .statement(let statement) = body.items[0],
           statement.kind == .if || statement.kind == .switch {
            return leave(function.keyword, "a body that is a single 'if' or 'switch' expression is not supported yet")
        }
        guard declaredNames[functionName] == 1 else {
            return leave(nameToken, "another declaration in this file is named '\(functionName)', so its calls are not certain")
        }
        // Its signature changes: every call must be rewritten, and only this file's are.
        switch context.declaredAccess(function.prefix) {
        case "public", "open", "package":
            return leave(nameToken, "other modules may call it, and their calls would need rewriting")
        case "private", "fileprivate":
            break
        default:
            if let module = context.moduleSources,
               module.wordCount(functionName) > wordOccurrences(of: Array(functionName.utf8), in: context.bytes) {
                return leave(nameToken, "other files of the module name it, and their calls would need rewriting, which is not supported yet")
            }
        }
        var parameters: [(Int, Parameter, ParameterShape)] = []
        for (index, parameter) in function.parameters.enumerated() {
            let wrappers = parameter.attributes.filter { context.wrapper(of: $0) != nil }
            guard let attribute = wrappers.first else { continue }
            guard wrappers.count == 1, parameter.attributes.count == 1 else {
                return leave(attribute.atSign, "composed wrappers or other attributes on a parameter are not supported yet")
            }
            guard let nameToken = parameter.secondName ?? parameter.firstName, let type = parameter.type else {
                return leave(attribute.atSign, "the parameter has no name or type")
            }
            let typeText = context.text(type)
            let wrapper = context.wrapper(of: attribute)!
            if typeText.hasPrefix("@autoclosure"), wrapper.genericParameters.contains(DewrapLowering.typeText(typeTokens(wrapper.wrappedValue.type))) {
                return  // the compiler's error, reported by parameterRestrictions
            }
            if typeText.hasPrefix("inout ") || typeText.hasSuffix("...") || typeText.hasPrefix("@") {
                // inout crashes swiftc 6.3.1 at the call (P-7); variadic and attributed types are not supported.
                return leave(attribute.atSign, "an inout, variadic or attributed parameter type is not supported")
            }
            guard !wrapper.wrappedValue.mutatingGetter, wrapper.wrappedValue.isolation == nil,
                  wrapper.projectedValue.map({ $0.setter == .none && !$0.mutatingGetter && $0.isolation == nil }) ?? true,
                  attribute.name.upper == attribute.name.lower + 1 || !context.text(attribute.name.upper - 1).hasSuffix(">") else {
                return leave(attribute.atSign, "'\(wrapper.name)' on a parameter is not supported yet")
            }
            var bindings: [String: [String]] = [:]
            if !wrapper.genericParameters.isEmpty {
                _ = matchType(wrapper.wrappedValue.type, typeText, parameters: wrapper.genericParameters, bindings: &bindings)
            }
            guard wrapper.genericParameters.allSatisfy({ bindings[$0] != nil }) else {
                return leave(attribute.atSign, "the generic arguments of '\(wrapper.name)' cannot be read from the parameter's type")
            }
            let storageType = wrapper.storageType(bindings)
            let arguments = attribute.innerArguments
            if parameter.defaultValue != nil && !wrapper.hasInitWrappedValue {
                return leave(attribute.atSign, "'\(wrapper.name)' has no init(wrappedValue:) for the default value")
            }
            let projectedType = wrapper.projectedType(bindings)
            parameters.append((index, parameter, ParameterShape(
                wrapper: wrapper, attribute: attribute, name: context.text(nameToken), nameToken: nameToken,
                valueType: typeText, storageType: storageType, projectedType: projectedType, arguments: arguments)))
        }
        guard !parameters.isEmpty else { return }
        // Every mention of the name must be a call this file can resolve.
        var calls: [Call] = []
        var references: [Int] = []
        let spelling = Array(functionName.utf8)
        for index in 0..<tokens.count where index != nameToken && tokens[index].kind == .identifier
            && context.token(index, isSpelled: spelling) {
            if index > 0 && tokens[index - 1].kind == .period
                && !(index > 1 && context.text(index - 2) == "self" && (index < 3 || tokens[index - 3].kind != .period)) {
                return leave(index, "a use of '\(functionName)' on another value cannot be resolved with certainty")
            }
            let errorsBefore = diagnostics.count
            guard let call = readCall(at: index, function: function, wrapped: Dictionary(uniqueKeysWithValues: parameters.map { ($0.0, $0.2) })) else {
                if diagnostics.count > errorsBefore { return }
                if isUnappliedReference(at: index, function: function) {
                    references.append(index)
                    continue
                }
                return leave(index, "this use of '\(functionName)' is not a call dewrap can match to its parameters")
            }
            calls.append(call)
        }
        lowered.append(Lowered(function: function, parameters: parameters.map { (index: $0.0, parameter: $0.1, property: $0.2) },
                               calls: calls, references: references))
    }

    /// A bare `f` used as a value (P-3), unqualified, where a closure literal can stand
    /// in for it: after `=`, `(`, `,`, `:`, `[` or `return`, before `)`, `,`, `]`, `}`, `;`
    /// or the end of the line; the function neither generic, throwing nor async, and
    /// without inout, variadic or attributed parameter types.
    private func isUnappliedReference(at index: Int, function: FunctionDecl) -> Bool {
        let tokens = context.tree.tokens
        guard index > 0, function.genericParameters == nil, function.effects == nil,
              function.parameters.allSatisfy({ parameter in
                  guard let type = parameter.type else { return false }
                  let text = context.text(type)
                  return !text.hasPrefix("inout") && !text.hasSuffix("...") && !text.hasPrefix("@")
              }) else { return false }
        let before = tokens[index - 1].kind
        guard before == .equal || before == .leftParen || before == .comma || before == .colon || before == .leftSquare
                || context.text(index - 1) == "return" else { return false }
        guard index + 1 < tokens.count else { return true }
        let after = tokens[index + 1].kind
        return after == .rightParen || after == .comma || after == .rightSquare || after == .rightBrace || after == .semicolon
            || after == .endOfFile || context.line(of: index + 1) != context.line(of: index)
    }

    /// `f(a: 1, x: e)` at `nameIndex`: arguments matched to parameters by label, in order,
    /// parameters with defaults skipped when absent. Nil for anything else (trailing closures too).
    private mutating func readCall(at nameIndex: Int, function: FunctionDecl, wrapped: [Int: ParameterShape]) -> Call? {
        let tokens = context.tree.tokens
        let open = nameIndex + 1
        guard open < tokens.count, tokens[open].kind == .leftParen, tokens[open].start == tokens[nameIndex].end else { return nil }
        // The matching `)` and the top-level commas.
        var depth = 0
        var close: Int?
        var pieces: [TokenSpan] = []
        var pieceStart = open + 1
        var index = open
        while index < tokens.count {
            switch tokens[index].kind {
            case .leftParen, .leftSquare, .leftBrace: depth += 1
            case .rightParen, .rightSquare, .rightBrace:
                depth -= 1
                if depth == 0 {
                    close = index
                    if index > pieceStart { pieces.append(TokenSpan(pieceStart, index)) }
                }
            case .comma where depth == 1:
                pieces.append(TokenSpan(pieceStart, index))
                pieceStart = index + 1
            default: break
            }
            if close != nil { break }
            index += 1
        }
        guard let close else { return nil }
        // No trailing closure after the call.
        if close + 1 < tokens.count, tokens[close + 1].kind == .leftBrace { return nil }
        var arguments: [(parameter: Int, label: Int?, value: TokenSpan)] = []
        var parameterIndex = 0
        for piece in pieces {
            var label: Int?
            var value = piece
            if piece.upper - piece.lower >= 3, tokens[piece.lower + 1].kind == .colon,
               [.identifier, .keyword, .dollarIdentifier].contains(tokens[piece.lower].kind) {
                label = piece.lower
                value = TokenSpan(piece.lower + 2, piece.upper)
            }
            let labelText = label.map { context.text($0) } ?? "_"
            while true {
                guard parameterIndex < function.parameters.count else { return nil }
                let parameter = function.parameters[parameterIndex]
                let parameterLabel = parameter.firstName.map { context.text($0) } ?? "_"
                if parameterLabel == labelText || (wrapped[parameterIndex] != nil && labelText == "$" + parameterLabel) { break }
                guard parameter.defaultValue != nil else { return nil }
                parameterIndex += 1
            }
            if let shape = wrapped[parameterIndex] {
                let projection = labelText.hasPrefix("$")
                if projection && (!shape.wrapper.hasInitProjectedValue || shape.arguments != nil) { return nil }
                if !projection && !shape.wrapper.hasInitWrappedValue {
                    // P-4: a wrapper without init(wrappedValue:) (Binding) takes only `$b:`; swiftc's error, at the value.
                    diagnostics.append(Diagnostic(.error, at: tokens[value.lower].start,
                        "cannot convert value '\(shape.name)' of type '\(shape.valueType)' to expected type '\(shape.storageType)', use wrapper instead"))
                    return nil
                }
            }
            arguments.append((parameterIndex, label, value))
            parameterIndex += 1
        }
        // Parameters left out must have defaults.
        guard function.parameters[parameterIndex...].allSatisfy({ $0.defaultValue != nil }) else { return nil }
        return Call(open: open, close: close, arguments: arguments)
    }

    // MARK: Writing them out

    func edits(context: SourceContext) -> [Edit] {
        var result: [Edit] = []
        let tokens = context.tree.tokens
        for item in lowered {
            let function = item.function
            var bodyLines: [String] = []
            for (_, parameter, shape) in item.parameters {
                // `label _x: W<T> = W(wrappedValue: d, args…)`
                let label = parameter.firstName.map { context.text($0) } ?? shape.name
                var text = "\(label) _\(shape.name): \(shape.storageType)"
                if let value = parameter.defaultValue {
                    text += " = " + construction(shape, "wrappedValue", context.text(value), context: context)
                }
                result.append(Edit(start: tokens[parameter.span.lower].start, end: tokens[parameter.span.upper - 1].end, text: Array(text.utf8)))
                bodyLines += parameterAccessors(
                    name: shape.name, valueType: shape.valueType, wrapper: shape.wrapper, projectedType: shape.projectedType)
            }
            let body = function.body!
            let indent = context.indentation(of: function.prefix.start) + context.indentUnit
            let line = context.line(of: body.open)
            var text = bodyLines.map { context.lineBreak(mappedTo: line) + indent + $0 }.joined()
            var end = tokens[body.open].end
            // A first statement on the line of `{` goes on a line of its own after them (the space before it replaced).
            if let first = body.items.first, context.line(of: first.span.lower) == line {
                text += context.lineBreak(mappedTo: line) + indent
                end = tokens[first.span.lower].start
            }
            result.append(Edit(start: tokens[body.open].end, end: end, text: Array(text.utf8)))
            // A single-expression body returned its value implicitly; after the declarations it needs `return`.
            if function.returnType != nil, body.items.count == 1, case .statement(let statement) = body.items[0],
               statement.kind == .expression {
                let start = tokens[statement.span.lower].start
                result.append(Edit(start: start, end: start, text: Array("return ".utf8)))
            }
        }
        return result
    }

    /// The arguments of every call site, rewritten into `context.tokenEdits` so that
    /// text copied later carries them, innermost first: `f(x: g(y: 1))` nests.
    func addCallEdits(to context: inout SourceContext) {
        let tokens = context.tree.tokens
        var pending: [(start: Int, end: Int, argument: (parameter: Int, label: Int?, value: TokenSpan), shape: ParameterShape)] = []
        for item in lowered {
            for call in item.calls {
                for argument in call.arguments {
                    guard let shape = item.parameters.first(where: { $0.index == argument.parameter })?.property else { continue }
                    pending.append((tokens[argument.label ?? argument.value.lower].start, tokens[argument.value.upper - 1].end, argument, shape))
                }
            }
        }
        pending.sort { ($0.end - $0.start) < ($1.end - $1.start) }
        // P-3: `f` as a value becomes `{ f(a: $0, x: W(wrappedValue: $1)) }`.
        for item in lowered {
            let name = context.text(item.function.name!)
            for reference in item.references {
                let arguments = item.function.parameters.enumerated().map { index, parameter -> String in
                    let label = parameter.firstName.map { context.text($0) } ?? "_"
                    let value = item.parameters.first { $0.index == index }
                        .map { construction($0.property, "wrappedValue", "$\(index)", context: context) } ?? "$\(index)"
                    return (label == "_" ? "" : label + ": ") + value
                }
                let text = "{ \(name)(" + arguments.joined(separator: ", ") + ") }"
                let token = tokens[reference]
                let position = context.tokenEdits.firstIndex { $0.start >= token.end } ?? context.tokenEdits.count
                context.tokenEdits.insert(Edit(start: token.start, end: token.end, text: Array(text.utf8)), at: position)
            }
        }
        for (start, end, argument, shape) in pending {
            let value = context.text(argument.value)
            let labelText = argument.label.map { context.text($0) }
            let text: String
            if let labelText, labelText.hasPrefix("$") {
                text = "\(labelText.dropFirst()): \(shape.wrapper.name)(projectedValue: \(value))"
            } else {
                text = (labelText.map { $0 + ": " } ?? "") + construction(shape, "wrappedValue", value, context: context)
            }
            // The rewrites inside this argument are now part of its text.
            context.tokenEdits.removeAll { $0.start >= start && $0.end <= end }
            let position = context.tokenEdits.firstIndex { $0.start >= end } ?? context.tokenEdits.count
            context.tokenEdits.insert(Edit(start: start, end: end, text: Array(text.utf8)), at: position)
        }
    }

    private func construction(_ shape: ParameterShape, _ label: String, _ value: String, context: SourceContext) -> String {
        "\(shape.wrapper.name)(\(label): \(value)\(shape.arguments.map { ", " + context.text($0) } ?? ""))"
    }
}

/// The local declarations that stand for a lowered parameter `_x` at the start
/// of its body (P-1, P-5): `x`, with a plain `set` only when the wrapper's
/// setter is nonmutating, and `_$x` when the wrapper has a projection.
func parameterAccessors(name: String, valueType: String, wrapper: WrapperShape, projectedType: String?) -> [String] {
    let access = "_\(name).wrappedValue"
    var lines = [wrapper.wrappedValue.setter == .nonmutating
        ? "var \(name): \(valueType) { get { \(access) } set { \(access) = newValue } }"
        : "var \(name): \(valueType) { \(access) }"]
    if let projectedType { lines.append("var _$\(name): \(projectedType) { _\(name).projectedValue }") }
    return lines
}
