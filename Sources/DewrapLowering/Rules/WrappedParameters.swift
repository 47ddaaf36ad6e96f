import DewrapSyntax

/// Wrapped function parameters and their call sites (SPEC P-1, P-2, P-4).
///
/// `func f(@W x: T)` becomes `func f(x _x: W<T>)` whose body starts with a
/// local computed `x` (get-only, or with a plain `set` when the wrapper's
/// setter is nonmutating) and `_$x` when the wrapper has a projection. Every
/// call `f(x: e)` becomes `f(x: W(wrappedValue: e, args…))`, `f($x: p)`
/// becomes `f(x: W(projectedValue: p))`, and a default `= d` becomes
/// `= W(wrappedValue: d, args…)`. A function is lowered only when every
/// mention of its name in the file is such a call (unqualified or through
/// `self.`) and no other declaration in the file has its name; otherwise it is
/// left as written, with a warning. In a module's run (`ModuleCalls`) an internal
/// function that other files name is lowered too, and those files rewrite their
/// calls (`ModuleFunctionCalls`), unless one of them cannot: then the run refuses it.
struct WrappedParameters {
    struct Lowered {
        var function: FunctionDecl
        var parameters: [(index: Int, parameter: Parameter, property: ParameterShape)]
        /// The function as calls see it (labels, defaults, how wrappers are built).
        var callee: ModuleFunction
        var calls: [WrappedCall]
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

    let context: SourceContext
    private(set) var lowered: [Lowered] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// Lowered functions that other files of the module name: their calls there are rewritten (issue 21).
    private(set) var exported: [ModuleFunction] = []
    /// This file's calls of functions lowered in the module's other files.
    private(set) var moduleCalls: ModuleFunctionCalls?

    /// The name tokens of lowered parameters: their `$x` in the body becomes `_$x` (D-2).
    var loweredNames: Set<Int> { Set(lowered.flatMap { $0.parameters.map(\.property.nameToken) }) }
    /// The name tokens of every parameter with a wrapper, lowered or not: their `$x` is theirs (D-2).
    private(set) var wrappedNames: Set<Int> = []

    /// `module`: the run's functions of other files, when it rewrites calls across files (nil: it does not,
    /// and a function that another file names is left as written).
    init(context: SourceContext, parseProblems: [Int], module: ModuleCalls? = nil) {
        self.context = context
        var declared: [String: Int]?
        func declaredNames() -> [String: Int] {
            if declared == nil { declared = declaredNameCounts(context) }
            return declared!
        }
        var ownFunctions: Set<String> = []
        if context.tree.census.attributedParameter {
            var functions: [FunctionDecl] = []
            context.tree.forEachItem { item in
                if case .function(let function) = item, function.kind == .function || function.kind == .initializer {
                    functions.append(function)
                }
            }
            functions.removeAll { function in
                !function.parameters.contains { parameter in parameter.attributes.contains { context.wrapper(of: $0) != nil } }
            }
            for function in functions {
                if let name = function.name { ownFunctions.insert(context.text(name)) }
                for parameter in function.parameters
                where parameter.attributes.contains(where: {
                    context.wrapper(of: $0) != nil
                }) {
                    if let name = parameter.secondName ?? parameter.firstName { wrappedNames.insert(name) }
                }
            }
            let broken = brokenTopLevelSpans(context.tree, parseProblems: parseProblems)
            for function in functions {
                guard !broken.contains(where: { $0.lower <= function.keyword && function.keyword < $0.upper }) else { continue }
                consider(function, declaredNames: declaredNames(), module: module, broken: broken)
            }
        }
        if let module, !module.functions.isEmpty {
            let calls = ModuleFunctionCalls(
                context: context, functions: module.functions, ownFunctions: ownFunctions,
                declaredNames: declaredNames)
            diagnostics += calls.diagnostics
            moduleCalls = calls
        }
    }

    /// `broken`: the top-level spans with a parse problem (`brokenTopLevelSpans`), in which no call is rewritten.
    private mutating func consider(_ function: FunctionDecl, declaredNames: [String: Int], module: ModuleCalls?, broken: [TokenSpan]) {
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
            statement.kind == .if || statement.kind == .switch
        {
            return leave(function.keyword, "a body that is a single 'if' or 'switch' expression is not supported yet")
        }
        guard declaredNames[functionName] == 1 else {
            return leave(nameToken, "another declaration in this file is named '\(functionName)', so its calls are not certain")
        }
        // Its signature changes: every call must be rewritten, this file's and (in a module's run) the other files'.
        var calledElsewhere = false
        switch context.declaredAccess(function.prefix) {
        case "public", "open", "package":
            return leave(nameToken, "other modules may call it, and their calls would need rewriting")
        case "private", "fileprivate":
            break
        default:
            if let sources = context.moduleSources,
                sources.wordCount(functionName) > wordOccurrences(of: Array(functionName.utf8), in: context.bytes)
            {
                guard let module else {
                    return leave(nameToken, "other files of the module name it, and their calls would need rewriting, which this run does not do")
                }
                if let reason = module.refused[functionName] { return leave(nameToken, reason) }
                calledElsewhere = true
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
            if typeText.hasPrefix("@autoclosure"), wrapper.genericParameters.contains(DewrapLowering.typeText(typeTokens(wrapper.wrappedValue.type)))
            {
                return // the compiler's error, reported by parameterRestrictions
            }
            if typeText.hasPrefix("inout ") || typeText.hasSuffix("...") || typeText.hasPrefix("@") {
                // inout crashes swiftc 6.3.1 at the call (P-7); variadic and attributed types are not supported.
                return leave(attribute.atSign, "an inout, variadic or attributed parameter type is not supported")
            }
            guard !wrapper.wrappedValue.mutatingGetter, wrapper.wrappedValue.isolation == nil,
                wrapper.projectedValue.map({ $0.setter == .none && !$0.mutatingGetter && $0.isolation == nil }) ?? true,
                attribute.name.upper == attribute.name.lower + 1 || !context.text(attribute.name.upper - 1).hasSuffix(">")
            else {
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
            // Copied into other files' calls, the attribute's arguments must mean the same there.
            if calledElsewhere, let arguments, !isSelfContained(arguments) {
                return leave(
                    attribute.atSign,
                    "other files of the module call it, and the arguments of '@\(wrapper.name)' name declarations (only literals are copied into their calls)"
                )
            }
            let projectedType = wrapper.projectedType(bindings)
            parameters.append(
                (
                    index, parameter,
                    ParameterShape(
                        wrapper: wrapper, attribute: attribute, name: context.text(nameToken), nameToken: nameToken,
                        valueType: typeText, storageType: storageType, projectedType: projectedType, arguments: arguments)
                ))
        }
        guard !parameters.isEmpty else { return }
        let signature = function.parameters.enumerated().map { index, parameter in
            var call = CallParameter(
                label: parameter.firstName.map { context.text($0) } ?? "_", hasDefault: parameter.defaultValue != nil,
                wrapped: parameters.first { $0.0 == index }.map { _, _, shape in
                    WrappedArgument(
                        name: shape.name, wrapperName: shape.wrapper.name, arguments: shape.arguments.map { context.text($0) },
                        valueType: shape.valueType, storageType: shape.storageType,
                        hasInitWrappedValue: shape.wrapper.hasInitWrappedValue, hasInitProjectedValue: shape.wrapper.hasInitProjectedValue)
                })
            call.closureType = closureType(of: parameter, in: function)
            if let value = parameter.defaultValue {
                call.defaultIsLiteral = isLiteral(value, context: context)
                // Copied into other files' calls, a default must mean the same there.
                if !calledElsewhere || isSelfContained(value) { call.defaultValue = context.text(value) }
            }
            return call
        }
        let effects = function.effects.map { context.text($0) } ?? ""
        let callee = ModuleFunction(
            name: functionName, parameters: signature,
            throwsErrors: effects.contains("throws"), isAsync: effects.contains("async"))
        // Every mention of the name must be a call this file can resolve.
        var calls: [WrappedCall] = []
        var references: [Int] = []
        let spelling = Array(functionName.utf8)
        for index in 0..<tokens.count
        where index != nameToken && tokens[index].kind == .identifier
            && context.token(index, isSpelled: spelling)
        {
            if isQualifiedByAnotherValue(index, context: context) {
                return leave(index, "a use of '\(functionName)' on another value cannot be resolved with certainty")
            }
            // The parser's recovery decides where a call in code that does not parse ends: rewritten,
            // the call could take brackets of the code around it, which then parses differently.
            if broken.contains(where: { $0.lower <= index && index < $0.upper }) {
                return leave(index, "this use of '\(functionName)' is in code that does not parse")
            }
            let errorsBefore = diagnostics.count
            guard let call = readWrappedCall(at: index, parameters: signature, context: context, diagnostics: &diagnostics) else {
                if diagnostics.count > errorsBefore { return }
                if isUnappliedReference(at: index, function: function) {
                    references.append(index)
                    continue
                }
                return leave(index, "this use of '\(functionName)' is not a call dewrap can match to its parameters")
            }
            if call.needsOrder && !canOrder(call, parameters: signature) { return leave(index, orderReason) }
            calls.append(call)
        }
        lowered.append(
            Lowered(
                function: function, parameters: parameters.map { (index: $0.0, parameter: $0.1, property: $0.2) },
                callee: callee, calls: calls, references: references))
        if calledElsewhere { exported.append(callee) }
    }

    /// The type of a closure parameter standing for `parameter`'s argument (an ordered call), when
    /// one can be written: not in a generic function, not `inout`, variadic or attributed.
    private func closureType(of parameter: Parameter, in function: FunctionDecl) -> String? {
        guard function.genericParameters == nil, let type = parameter.type else { return nil }
        let text = context.text(type)
        guard
            !text.hasPrefix("inout") && !text.hasSuffix("...") && !text.hasPrefix("@") && !text.hasPrefix("some ")
                && !text.contains("Self")
        else { return nil }
        return text
    }

    /// Whether attribute arguments mean the same in any file of the module: literals, operators,
    /// punctuation, labels and implicit members (`.small`), no name of a declaration.
    private func isSelfContained(_ span: TokenSpan) -> Bool {
        let tokens = context.tree.tokens
        return (span.lower..<span.upper).allSatisfy { index in
            switch tokens[index].kind {
            case .identifier:
                // An implicit member (`.small`) or an argument label (`tag: "t"`).
                return index > span.lower && tokens[index - 1].kind == .period
                    || index + 1 < span.upper && tokens[index + 1].kind == .colon
            case .keyword:
                return context.token(index, isSpelled: "true") || context.token(index, isSpelled: "false")
                    || context.token(index, isSpelled: "nil")
            case .dollarIdentifier:
                return false
            default:
                return true
            }
        }
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
            })
        else { return false }
        let before = tokens[index - 1].kind
        guard
            before == .equal || before == .leftParen || before == .comma || before == .colon || before == .leftSquare
                || context.text(index - 1) == "return"
        else { return false }
        guard index + 1 < tokens.count else { return true }
        let after = tokens[index + 1].kind
        return after == .rightParen || after == .comma || after == .rightSquare || after == .rightBrace || after == .semicolon
            || after == .endOfFile || context.line(of: index + 1) != context.line(of: index)
    }

    // MARK: Writing them out

    /// `item.callee` with the attributes' arguments and the defaults as copied now, `$x` rewrites applied.
    private func currentCallee(_ item: Lowered, context: SourceContext) -> ModuleFunction {
        var parameters = item.callee.parameters
        for (index, _, shape) in item.parameters {
            parameters[index].wrapped?.arguments = shape.arguments.map { context.text($0) }
        }
        for (index, parameter) in item.function.parameters.enumerated() where parameters[index].defaultValue != nil {
            parameters[index].defaultValue = parameter.defaultValue.map { context.text($0) }
        }
        return ModuleFunction(
            name: item.callee.name, parameters: parameters,
            throwsErrors: item.callee.throwsErrors, isAsync: item.callee.isAsync)
    }

    func edits(context: SourceContext) -> [Edit] {
        var result: [Edit] = []
        let tokens = context.tree.tokens
        for item in lowered {
            let function = item.function
            var bodyLines: [String] = []
            for (index, parameter, shape) in item.parameters {
                // `label _x: W<T> = W(wrappedValue: d, args…)`
                let label = parameter.firstName.map { context.text($0) } ?? shape.name
                var text = "\(label) _\(shape.name): \(shape.storageType)"
                if let value = parameter.defaultValue, let wrapped = currentCallee(item, context: context).parameters[index].wrapped {
                    text += " = " + wrapped.construction("wrappedValue", context.text(value))
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
                statement.kind == .expression
            {
                let start = tokens[statement.span.lower].start
                result.append(Edit(start: start, end: start, text: Array("return ".utf8)))
            }
        }
        return result
    }

    /// The arguments of every call site (this file's functions' and, in a module's run, other
    /// files' functions'), rewritten into `context.tokenEdits` so that text copied later carries
    /// them, innermost first: `f(x: g(y: 1))` nests. A call whose order must be kept is rewritten whole.
    func addCallEdits(to context: inout SourceContext) {
        let tokens = context.tree.tokens
        enum Rewrite {
            case argument(label: Int?, value: TokenSpan, wrapped: WrappedArgument)
            case ordered(call: WrappedCall, callee: ModuleFunction, qualified: Bool)
        }
        var pending: [(start: Int, end: Int, rewrite: Rewrite)] = []
        func add(_ calls: [WrappedCall], of callee: ModuleFunction) {
            for call in calls {
                if call.needsOrder {
                    // `self.f(…)` is rewritten from `self`: the closure calls `self.f`.
                    let qualified = call.name > 1 && tokens[call.name - 1].kind == .period
                    let start = qualified ? call.name - 2 : call.name
                    pending.append((tokens[start].start, tokens[call.close].end, .ordered(call: call, callee: callee, qualified: qualified)))
                    continue
                }
                for argument in call.arguments {
                    guard let wrapped = callee.parameters[argument.parameter].wrapped else { continue }
                    pending.append(
                        (
                            tokens[argument.label ?? argument.value.lower].start, tokens[argument.value.upper - 1].end,
                            .argument(label: argument.label, value: argument.value, wrapped: wrapped)
                        ))
                }
            }
        }
        for item in lowered { add(item.calls, of: currentCallee(item, context: context)) }
        for (function, calls) in moduleCalls?.calls ?? [] { add(calls, of: function) }
        pending.sort { ($0.end - $0.start) < ($1.end - $1.start) }
        // P-3: `f` as a value becomes `{ f(a: $0, x: W(wrappedValue: $1)) }`.
        for item in lowered {
            let name = context.text(item.function.name!)
            for reference in item.references {
                let arguments = currentCallee(item, context: context).parameters.enumerated().map { index, parameter -> String in
                    let value = parameter.wrapped.map { $0.construction("wrappedValue", "$\(index)") } ?? "$\(index)"
                    return (parameter.label == "_" ? "" : parameter.label + ": ") + value
                }
                let text = "{ \(name)(" + arguments.joined(separator: ", ") + ") }"
                let token = tokens[reference]
                let position = context.tokenEdits.firstIndex { $0.start >= token.end } ?? context.tokenEdits.count
                context.tokenEdits.insert(Edit(start: token.start, end: token.end, text: Array(text.utf8)), at: position)
            }
        }
        for (start, end, rewrite) in pending {
            let text: String
            switch rewrite {
            case .argument(let label, let value, let wrapped):
                let valueText = context.text(value)
                let labelText = label.map { context.text($0) }
                if let labelText, labelText.hasPrefix("$") {
                    text = "\(labelText.dropFirst()): \(wrapped.wrapperName)(projectedValue: \(valueText))"
                } else {
                    text = (labelText.map { $0 + ": " } ?? "") + wrapped.construction("wrappedValue", valueText)
                }
            case .ordered(let call, let callee, let qualified):
                var values: [Int: (label: String?, text: String)] = [:]
                for argument in call.arguments {
                    values[argument.parameter] = (argument.label.map { context.text($0) }, context.text(argument.value))
                }
                text = orderedCallText(call, of: callee, values: values, qualifier: qualified ? "self." : "")
            }
            // The rewrites inside this range are now part of its text.
            context.tokenEdits.removeAll { $0.start >= start && $0.end <= end }
            let position = context.tokenEdits.firstIndex { $0.start >= end } ?? context.tokenEdits.count
            context.tokenEdits.insert(Edit(start: start, end: end, text: Array(text.utf8)), at: position)
        }
    }
}

/// The local declarations that stand for a lowered parameter `_x` at the start
/// of its body (P-1, P-5): `x`, with a plain `set` only when the wrapper's
/// setter is nonmutating, and `_$x` when the wrapper has a projection.
func parameterAccessors(name: String, valueType: String, wrapper: WrapperShape, projectedType: String?) -> [String] {
    let access = "_\(name).wrappedValue"
    var lines = [
        wrapper.wrappedValue.setter == .nonmutating
            ? "var \(name): \(valueType) { get { \(access) } set { \(access) = newValue } }"
            : "var \(name): \(valueType) { \(access) }"
    ]
    if let projectedType { lines.append("var _$\(name): \(projectedType) { _\(name).projectedValue }") }
    return lines
}
