// MARK: - What the parser hands on

/// A parsed file: the tokens, the declaration structure, the scopes and every
/// `$name` reference. See `SyntaxTree.swift` for the model.
public struct SourceTree: Sendable {
    public var tokens: [Token]
    public var items: SyntaxList<Item>
    public var dollarReferences: [DollarReference]
    /// `<…>` in expressions that the parser read as generic arguments (not `<` and `>` operators).
    public var expressionGenericArguments: [TokenSpan]
    /// Pre-order: a scope comes before the scopes inside it; `scopes[0]` is the file.
    public var scopes: [Scope]
    /// The children of every scope, each scope's together (see `Scope.children`).
    public var scopeChildren: [Int]
    /// The names of every scope, each scope's together (see `Scope.names`).
    public var scopeNames: [ScopeName]
    /// Problems the lexer found.
    public var lexerDiagnostics: [Diagnostic]
    /// Problems the parser found; empty for every file the compiler accepts.
    public var diagnostics: [Diagnostic]
    /// Which rarer declarations the file holds at all.
    public var census = SyntaxCensus()
    /// The code blocks the parser stepped over (`BodyParsing.skippingPlain`), from
    /// `{` to `}`, in source order: their items are not in the tree.
    public var steppedOver: [TokenSpan] = []
}

/// Whether the file holds declarations that a reader otherwise finds only by
/// walking the whole tree: lowering skips the walks whose subject is absent.
public struct SyntaxCensus: Sendable, Equatable {
    /// A parameter of a function, initializer or subscript has an attribute.
    public var attributedParameter = false
    /// A closure has a signature (`x in`, `(a: T) -> U in`).
    public var closureSignature = false
    /// A variable outside a type's member list (a local or a global) has an attribute.
    public var attributedVariableOutsideTypes = false
    /// A type is declared in code (a function, accessor, closure or statement body).
    public var typeInCode = false
    /// A type with an attribute is declared in a type's member list (a nested `@propertyWrapper`).
    public var attributedMemberType = false

    public init() {}
}
