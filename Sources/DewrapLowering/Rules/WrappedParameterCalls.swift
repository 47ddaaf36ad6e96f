import DewrapSyntax

/// A function with wrapped parameters as its callers see it (SPEC P-2): what matching a
/// call's arguments to its parameters and building each wrapper at the call needs. The file
/// that declares and lowers the function makes it; in a module's run the other files rewrite
/// their calls from it (issue 21), as the declaring file rewrites its own.
public struct ModuleFunction: Sendable, Equatable {
    public let name: String
    let parameters: [CallParameter]
    /// Whether calls need `try` or `await` (inside the closure an ordered call is written as).
    var throwsErrors = false
    var isAsync = false
}

/// One parameter of a function with wrapped parameters, for matching calls.
struct CallParameter: Sendable, Equatable {
    /// The argument label, `_` for none.
    var label: String
    var hasDefault: Bool
    var wrapped: WrappedArgument?
    /// The type a closure parameter standing for the argument is written with (the wrapped value's type for a
    /// wrapped parameter); nil when it cannot be written (generic, `inout`, variadic, attributed).
    var closureType: String?
    /// The default as a call can write it (the wrapped value for a wrapped parameter); nil when it has none
    /// or it may not mean the same where the call is.
    var defaultValue: String?
    /// Whether the default is a literal: when it is evaluated cannot be seen.
    var defaultIsLiteral = false
}

/// How a call builds a wrapped parameter's storage: `W(wrappedValue: e, args…)` or
/// `W(projectedValue: p)`.
struct WrappedArgument: Sendable, Equatable {
    /// The parameter's name (for messages).
    var name: String
    var wrapperName: String
    /// The attribute's arguments as written (`@Clamped(0...9)`: `0...9`).
    var arguments: String?
    var valueType: String
    var storageType: String
    var hasInitWrappedValue: Bool
    var hasInitProjectedValue: Bool

    func construction(_ label: String, _ value: String) -> String {
        "\(wrapperName)(\(label): \(value)\(arguments.map { ", " + $0 } ?? ""))"
    }
}

/// What a module's run tells each file about the functions with wrapped parameters of its
/// other files (`LoweringOptions.moduleCalls`). Its presence says the run rewrites calls across
/// files: a function that other files name is then lowered unless it is refused.
public struct ModuleCalls: Sendable {
    /// Functions lowered in other files of the run: this file's calls of them are rewritten.
    public var functions: [ModuleFunction]
    /// Functions left as written, by name, with the reason (a use elsewhere that cannot be rewritten).
    public var refused: [String: String]

    public init(functions: [ModuleFunction] = [], refused: [String: String] = [:]) {
        self.functions = functions
        self.refused = refused
    }
}

/// A use of another file's function that cannot be rewritten, so that the function must be left
/// as written (its location for the declaring file's warning).
public struct UnmatchedCall: Sendable, Equatable {
    public var name: String
    public var line: Int
    public var column: Int
    public var reason: String
}

/// One call site: its argument list and, per argument, the parameter it is for.
struct WrappedCall {
    var name: Int
    var open: Int
    var close: Int
    /// (parameter index, label token or nil, expression span)
    var arguments: [(parameter: Int, label: Int?, value: TokenSpan)]
    /// The compiler evaluates every argument, then the omitted parameters' defaults, then builds the
    /// wrappers in parameter order; building each wrapper in its argument (and a default's in the
    /// default) would run them in another order, which only literals make unobservable. Such a call
    /// is written as a closure applied to the arguments and defaults (`orderedCallText`).
    var needsOrder = false
}

/// Whether `span` is one literal: a number (negative too), a string without interpolation, `true`,
/// `false` or `nil`. Evaluating it has no effect, so when that happens cannot be seen.
func isLiteral(_ span: TokenSpan, context: SourceContext) -> Bool {
    let tokens = context.tree.tokens
    var index = span.lower
    if index < span.upper, tokens[index].kind == .prefixOperator, context.token(index, isSpelled: "-") { index += 1 }
    guard index < span.upper else { return false }
    switch tokens[index].kind {
    case .integerLiteral, .floatLiteral:
        return index + 1 == span.upper
    case .keyword:
        return index + 1 == span.upper && index == span.lower
            && (context.token(index, isSpelled: "true") || context.token(index, isSpelled: "false") || context.token(index, isSpelled: "nil"))
    case .stringStart:
        return (index + 1..<span.upper).allSatisfy { [.stringSegment, .stringEnd].contains(tokens[$0].kind) }
            && tokens[span.upper - 1].kind == .stringEnd
    default:
        return false
    }
}

/// Whether the pieces of `call` with an effect run in the compiler's order when each wrapper is built in
/// its argument and in its default (see `WrappedCall.needsOrder`).
func keepsOrder(_ call: WrappedCall, parameters: [CallParameter], context: SourceContext) -> Bool {
    enum Piece: Equatable { case value(Int), defaultValue(Int), wrapper(Int) }
    var explicit = Set<Int>()
    var compilers: [Piece] = []
    var written: [Piece] = []
    for argument in call.arguments {
        explicit.insert(argument.parameter)
        if !isLiteral(argument.value, context: context) {
            compilers.append(.value(argument.parameter))
            written.append(.value(argument.parameter))
        }
        if parameters[argument.parameter].wrapped != nil { written.append(.wrapper(argument.parameter)) }
    }
    for (index, parameter) in parameters.enumerated() where !explicit.contains(index) {
        if !parameter.defaultIsLiteral {
            compilers.append(.defaultValue(index))
            written.append(.defaultValue(index))
        }
        if parameter.wrapped != nil { written.append(.wrapper(index)) }
    }
    compilers += parameters.indices.filter { parameters[$0].wrapped != nil }.map { .wrapper($0) }
    return compilers == written
}

/// Whether `orderedCallText` can write `call`: every argument's and omitted default's closure type
/// is known, and so is each omitted default.
func canOrder(_ call: WrappedCall, parameters: [CallParameter]) -> Bool {
    let explicit = Set(call.arguments.map(\.parameter))
    return parameters.indices.allSatisfy { index in
        parameters[index].closureType != nil && (explicit.contains(index) || parameters[index].defaultValue != nil)
    }
}

/// `f(x: e, note: n)` as `({ (argument0: Int, argument1: String) in f(x: W(wrappedValue: argument0), note: argument1) })(e, n)`:
/// the arguments are evaluated first, then the omitted defaults (passed after them), then, in the
/// call, each wrapper in parameter order, as the compiler does. `values` are the arguments' texts.
func orderedCallText(
    _ call: WrappedCall, of function: ModuleFunction, values: [Int: (label: String?, text: String)],
    qualifier: String = ""
) -> String {
    var closureParameters: [String] = []
    var inner: [String] = []
    var applied: [String] = []
    var defaults: [String] = []
    for (index, parameter) in function.parameters.enumerated() {
        let name = "argument\(index)"
        closureParameters.append("\(name): \(parameter.closureType!)")
        let passed: String
        if let value = values[index] {
            applied.append(value.text)
            if let label = value.label, label.hasPrefix("$"), let wrapped = parameter.wrapped {
                passed = "\(wrapped.wrapperName)(projectedValue: \(name))"
            } else {
                passed = parameter.wrapped.map { $0.construction("wrappedValue", name) } ?? name
            }
        } else {
            defaults.append(parameter.defaultValue!)
            passed = parameter.wrapped.map { $0.construction("wrappedValue", name) } ?? name
        }
        inner.append((parameter.label == "_" ? "" : parameter.label + ": ") + passed)
    }
    // The closure's parameters in the order it is applied to: the arguments, then the defaults.
    let explicit = function.parameters.indices.filter { values[$0] != nil }
    let omitted = function.parameters.indices.filter { values[$0] == nil }
    let order = explicit + omitted
    let effects = (function.throwsErrors ? "try " : "") + (function.isAsync ? "await " : "")
    // In parentheses: a `{` that starts a line would be read as a trailing closure of the line before.
    return "({ (" + order.map { closureParameters[$0] }.joined(separator: ", ") + ") in "
        + effects + qualifier + function.name + "(" + inner.joined(separator: ", ") + ") })(" + (applied + defaults).joined(separator: ", ") + ")"
}

/// The calls of `function` at `nameIndex`: `f(a: 1, x: e)` with arguments matched to parameters
/// by label, in order, parameters with defaults skipped when absent. Nil for anything else
/// (trailing closures too). A value for a wrapper without `init(wrappedValue:)` (P-4) is the
/// compiler's error, appended to `diagnostics`.
func readWrappedCall(
    at nameIndex: Int, parameters: [CallParameter], context: SourceContext,
    diagnostics: inout [Diagnostic]
) -> WrappedCall? {
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
            [.identifier, .keyword, .dollarIdentifier].contains(tokens[piece.lower].kind)
        {
            label = piece.lower
            value = TokenSpan(piece.lower + 2, piece.upper)
        }
        let labelText = label.map { context.text($0) } ?? "_"
        while true {
            guard parameterIndex < parameters.count else { return nil }
            let parameter = parameters[parameterIndex]
            if parameter.label == labelText || (parameter.wrapped != nil && labelText == "$" + parameter.label) { break }
            guard parameter.hasDefault else { return nil }
            parameterIndex += 1
        }
        if let wrapped = parameters[parameterIndex].wrapped {
            let projection = labelText.hasPrefix("$")
            if projection && (!wrapped.hasInitProjectedValue || wrapped.arguments != nil) { return nil }
            if !projection && !wrapped.hasInitWrappedValue {
                // P-4: a wrapper without init(wrappedValue:) (Binding) takes only `$b:`; swiftc's error, at the value.
                diagnostics.append(
                    Diagnostic(
                        .error, at: tokens[value.lower].start,
                        "cannot convert value '\(wrapped.name)' of type '\(wrapped.valueType)' to expected type '\(wrapped.storageType)', use wrapper instead"
                    ))
                return nil
            }
        }
        arguments.append((parameterIndex, label, value))
        parameterIndex += 1
    }
    // Parameters left out must have defaults.
    guard parameters[parameterIndex...].allSatisfy(\.hasDefault) else { return nil }
    var call = WrappedCall(name: nameIndex, open: open, close: close, arguments: arguments)
    call.needsOrder = !keepsOrder(call, parameters: parameters, context: context)
    return call
}

/// Why a call whose order cannot be kept leaves its function as written.
let orderReason =
    "the order in which this call evaluates its arguments and builds the wrappers cannot be kept (a parameter's type or a default cannot be written at the call)"

/// The names a file declares, with how often: its functions, variables (stepped-over bodies'
/// locals too), types and other declarations. A call of a name declared more than once, or
/// declared here and in another file, is not certain.
func declaredNameCounts(_ context: SourceContext) -> [String: Int] {
    var declaredNames: [String: Int] = [:]
    context.tree.forEachItem { item in
        switch item {
        case .function(let function):
            if let name = function.name { declaredNames[context.text(name), default: 0] += 1 }
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
    return declaredNames
}

/// Whether the use of a function's name at `index` is qualified by a value other than `self`
/// (`list.f(…)`), which cannot be resolved with certainty.
func isQualifiedByAnotherValue(_ index: Int, context: SourceContext) -> Bool {
    let tokens = context.tree.tokens
    return index > 0 && tokens[index - 1].kind == .period
        && !(index > 1 && context.text(index - 2) == "self" && (index < 3 || tokens[index - 3].kind != .period))
}

/// This file's calls of functions lowered in other files of the module (issue 21): for each such
/// function the file names, either every use is a call it can rewrite (`calls`), or the uses that
/// are not are reported (`unmatched`) and none of its calls is rewritten, so that the run leaves the
/// function as written everywhere.
struct ModuleFunctionCalls {
    private(set) var calls: [(function: ModuleFunction, calls: [WrappedCall])] = []
    private(set) var unmatched: [UnmatchedCall] = []
    private(set) var diagnostics: [Diagnostic] = []

    /// `ownFunctions`: names of this file's own functions with wrapped parameters (its calls of
    /// them are its own file's). `declaredNames` is made only when the file names a function.
    init(
        context: SourceContext, functions: [ModuleFunction], ownFunctions: Set<String>,
        declaredNames: () -> [String: Int]
    ) {
        let tokens = context.tree.tokens
        var declared: [String: Int]?
        for function in functions where !ownFunctions.contains(function.name) {
            let spelling = Array(function.name.utf8)
            var found: [WrappedCall] = []
            var problems: [UnmatchedCall] = []
            func refuse(_ index: Int, _ reason: String) {
                let location = context.lines.location(of: tokens[index].start)
                problems.append(UnmatchedCall(name: function.name, line: location.line, column: location.column, reason: reason))
            }
            for index in tokens.indices where tokens[index].kind == .identifier && context.token(index, isSpelled: spelling) {
                if declared == nil { declared = declaredNames() }
                if declared![function.name, default: 0] > 0 {
                    refuse(index, "this file declares another '\(function.name)'")
                    break
                }
                if isQualifiedByAnotherValue(index, context: context) {
                    refuse(index, "a use on another value cannot be resolved with certainty")
                    continue
                }
                guard
                    let call = readWrappedCall(
                        at: index, parameters: function.parameters, context: context,
                        diagnostics: &diagnostics)
                else {
                    refuse(index, "this use is not a call dewrap can match to its parameters")
                    continue
                }
                if call.needsOrder && !canOrder(call, parameters: function.parameters) {
                    refuse(index, orderReason)
                    continue
                }
                found.append(call)
            }
            if problems.isEmpty {
                if !found.isEmpty { calls.append((function, found)) }
            } else {
                unmatched += problems
            }
        }
    }
}
