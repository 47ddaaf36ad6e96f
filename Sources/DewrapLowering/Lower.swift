import DewrapSyntax

/// Settings for one call of `lower`.
public struct LoweringOptions: Sendable {
    public init() {}
}

/// What `lower` produces: the new bytes and what it has to say about the input.
public struct LoweringResult: Sendable {
    public var output: [UInt8]
    public var diagnostics: [Diagnostic]
}

/// The whole product: Swift source with property wrappers in, the explicit
/// Swift the compiler synthesizes out. Pure: no I/O, no globals.
///
/// For now lowering is the identity; lexical problems are reported as
/// warnings, because dewrap copies code it does not rewrite unchanged and
/// leaves judging its validity to the compiler.
public func lower(_ source: [UInt8], fileName: String, options: LoweringOptions = LoweringOptions()) -> LoweringResult {
    let lexed = Lexer.lex(source)
    guard source.count <= Lexer.maximumInputSize else {
        return LoweringResult(output: source, diagnostics: lexed.diagnostics)
    }
    let warnings = lexed.diagnostics.map { Diagnostic(.warning, at: $0.offset, $0.message) }
    return LoweringResult(output: source, diagnostics: warnings)
}
