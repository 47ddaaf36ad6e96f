// The declaration structure of a Swift file: what lowering needs, exactly, and
// nothing more. Positions are token indices into `SourceTree.tokens`; an
// expression is a `TokenSpan`, not a tree.

/// Tokens `lower..<upper` (indices into `SourceTree.tokens`).
public struct TokenSpan: Equatable, Sendable {
    public var lower: Int
    public var upper: Int

    public init(_ lower: Int, _ upper: Int) {
        self.lower = lower
        self.upper = upper
    }

    public var isEmpty: Bool { lower >= upper }
    public func contains(_ token: Int) -> Bool { token >= lower && token < upper }
}

/// `@Name`, `@Module.Name<T>`, with its parenthesized arguments if any.
public struct Attribute: Sendable {
    /// The `@` token.
    public var atSign: Int
    /// The name tokens: `State`, `SwiftUI.State`, `State<Int>`.
    public var name: TokenSpan
    /// `(…)` including the parentheses.
    public var arguments: TokenSpan?

    /// The tokens between the parentheses; nil for none or `()`.
    public var innerArguments: TokenSpan? {
        guard let arguments, arguments.upper - arguments.lower > 2 else { return nil }
        return TokenSpan(arguments.lower + 1, arguments.upper - 1)
    }
}

/// `public`, `static`, `private(set)`, `nonisolated(unsafe)`, …
public struct Modifier: Sendable {
    public var keyword: Int
    /// `(set)` including the parentheses.
    public var detail: TokenSpan?
}

/// Attributes and modifiers in front of a declaration.
public struct DeclarationPrefix: Sendable {
    public var attributes: [Attribute] = []
    public var modifiers: [Modifier] = []
    /// First token of the prefix (or of the keyword when there is none).
    public var start: Int
}

/// `{ … }` holding items. `close` is nil when the file ended first.
public struct Block: Sendable {
    public var open: Int
    public var close: Int?
    public var items: [Item]
}

/// One entry of a file, a type body or a code block.
/// Every case holds one reference (types, variables and functions are objects,
/// the rest boxed): an item is then a tagged pointer, and copying or freeing one
/// (lowering keeps the declarations it lowers) is one retain or release, not a
/// call that switches over the cases and retains every list the payload holds.
public enum Item: Sendable {
    case type(TypeDecl)
    case variable(VariableDecl)
    case function(FunctionDecl)
    indirect case ifConfig(IfConfig)
    indirect case statement(Statement)
    indirect case other(OtherDecl)
}

public enum TypeKind: String, Sendable {
    case `struct`, `class`, actor, `enum`, `protocol`, `extension`
}

/// `struct`, `class`, `actor`, `enum`, `protocol` or `extension`.
public final class TypeDecl: Sendable {
    public let kind: TypeKind
    public let prefix: DeclarationPrefix
    public let keyword: Int
    /// The declared name, or for an extension the extended type.
    public let name: TokenSpan
    /// `<…>` including the angle brackets.
    public let genericParameters: TokenSpan?
    public let inheritance: [TokenSpan]
    /// From `where` to the end of its last requirement.
    public let whereClause: TokenSpan?
    public let body: Block?
    public let span: TokenSpan

    init(
        kind: TypeKind, prefix: DeclarationPrefix, keyword: Int, name: TokenSpan, genericParameters: TokenSpan?,
        inheritance: [TokenSpan], whereClause: TokenSpan?, body: Block?, span: TokenSpan
    ) {
        self.kind = kind
        self.prefix = prefix
        self.keyword = keyword
        self.name = name
        self.genericParameters = genericParameters
        self.inheritance = inheritance
        self.whereClause = whereClause
        self.body = body
        self.span = span
    }
}

/// `let` or `var` with one or more pattern bindings.
public final class VariableDecl: Sendable {
    public let prefix: DeclarationPrefix
    /// The `let` or `var` token.
    public let keyword: Int
    public let span: TokenSpan
    /// How many bindings there are: one for nearly every declaration, none after an error.
    @usableFromInline let bindingCount: Int
    /// The first binding, held in the object itself: an array of one binding cost
    /// an allocation and a free per declaration.
    /// With no bindings, a placeholder that `bindings` never shows.
    @usableFromInline let firstBinding: PatternBinding
    /// The bindings after the first: empty, so no allocation, for nearly every declaration.
    @usableFromInline let laterBindings: [PatternBinding]

    // Inlinable (as Array is), for lowering reads `bindings[0]` in its hottest paths:
    // called out of line, each read copied the whole binding, which cost more than
    // the array it replaces.
    @inlinable public var bindings: PatternBindings { PatternBindings(self) }

    convenience init(prefix: DeclarationPrefix, keyword: Int, bindings: [PatternBinding], span: TokenSpan) {
        self.init(
            prefix: prefix, keyword: keyword, bindingCount: bindings.count,
            first: bindings.first ?? PatternBinding.placeholder, later: Array(bindings.dropFirst()), span: span)
    }

    /// A declaration of one binding, with no array made for it.
    convenience init(prefix: DeclarationPrefix, keyword: Int, binding: PatternBinding, span: TokenSpan) {
        self.init(prefix: prefix, keyword: keyword, bindingCount: 1, first: binding, later: [], span: span)
    }

    private init(
        prefix: DeclarationPrefix, keyword: Int, bindingCount: Int, first: PatternBinding, later: [PatternBinding],
        span: TokenSpan
    ) {
        self.prefix = prefix
        self.keyword = keyword
        self.span = span
        self.bindingCount = bindingCount
        self.firstBinding = first
        self.laterBindings = later
    }
}

/// The bindings of a `VariableDecl`, in source order.
public struct PatternBindings: RandomAccessCollection, Sendable {
    @usableFromInline let declaration: VariableDecl

    @inlinable init(_ declaration: VariableDecl) {
        self.declaration = declaration
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { declaration.bindingCount }

    @inlinable public subscript(position: Int) -> PatternBinding {
        precondition(position >= 0 && position < endIndex, "binding index out of range")
        return position == 0 ? declaration.firstBinding : declaration.laterBindings[position - 1]
    }
}

/// `a: Int = 1 { didSet { … } }`, one binding of a variable declaration.
public struct PatternBinding: Sendable {
    public var pattern: TokenSpan
    /// The name token when the pattern is a single identifier.
    public var name: Int?
    /// The type after `:`.
    public var type: TokenSpan?
    /// The expression after `=`.
    public var initializer: TokenSpan?
    /// Closures in the initializer expression.
    public var closures: [Closure]
    public var accessors: AccessorBlock?

    /// Stands in the first binding of a declaration that has none.
    static let placeholder = PatternBinding(
        pattern: TokenSpan(0, 0), name: nil, type: nil, initializer: nil, closures: [], accessors: nil)
}

/// `{ get set }`, `{ willSet { } didSet { } }` or an implicit getter `{ return x }`.
public struct AccessorBlock: Sendable {
    public enum Content: Sendable {
        case getter([Item])
        case accessors([Accessor])
    }

    public var open: Int
    public var close: Int?
    public var content: Content
}

/// `get`, `nonmutating set(v) { … }`, `_modify`, `willSet`, `didSet`, …
public struct Accessor: Sendable {
    public var attributes: [Attribute]
    /// `mutating`, `nonmutating`, `__consuming`, …
    public var modifier: Int?
    public var keyword: Int
    /// `(name)` including the parentheses.
    public var parameter: TokenSpan?
    /// `async`, `throws(E)` and the like.
    public var effects: TokenSpan?
    public var body: Block?
}

public enum FunctionKind: String, Sendable {
    case function = "func", initializer = "init", deinitializer = "deinit", `subscript`
}

/// `func`, `init`, `deinit` or `subscript`.
public final class FunctionDecl: Sendable {
    public let kind: FunctionKind
    public let prefix: DeclarationPrefix
    public let keyword: Int
    /// The function's name or operator; for `init?`/`init!` the `?` or `!`.
    public let name: Int?
    public let genericParameters: TokenSpan?
    /// `(…)` including the parentheses; nil for `deinit`.
    public let parameterClause: TokenSpan?
    public let parameters: [Parameter]
    /// `async`, `throws`, `rethrows`, `throws(E)`.
    public let effects: TokenSpan?
    /// The type after `->`.
    public let returnType: TokenSpan?
    public let whereClause: TokenSpan?
    /// The body of a `func`, `init` or `deinit`.
    public let body: Block?
    /// The accessors of a `subscript`.
    public let accessors: AccessorBlock?
    /// Closures in default values and attribute arguments.
    public let closures: [Closure]
    public let span: TokenSpan

    init(
        kind: FunctionKind, prefix: DeclarationPrefix, keyword: Int, name: Int?, genericParameters: TokenSpan?,
        parameterClause: TokenSpan?, parameters: [Parameter], effects: TokenSpan?, returnType: TokenSpan?,
        whereClause: TokenSpan?, body: Block?, accessors: AccessorBlock?, closures: [Closure], span: TokenSpan
    ) {
        self.kind = kind
        self.prefix = prefix
        self.keyword = keyword
        self.name = name
        self.genericParameters = genericParameters
        self.parameterClause = parameterClause
        self.parameters = parameters
        self.effects = effects
        self.returnType = returnType
        self.whereClause = whereClause
        self.body = body
        self.accessors = accessors
        self.closures = closures
        self.span = span
    }
}

/// `@Binding x: Bool = .constant(true)`, `_ y: Int...`, `inout z: T`.
public struct Parameter: Sendable {
    public var attributes: [Attribute]
    /// The argument label (or `_`).
    public var firstName: Int?
    /// The parameter name when it differs from the label.
    public var secondName: Int?
    public var type: TokenSpan?
    public var defaultValue: TokenSpan?
    public var span: TokenSpan
}

/// `#if` … `#endif`, each branch with its condition and items.
public struct IfConfig: Sendable {
    public var clauses: [IfConfigClause]
    public var endif: Int?
    public var span: TokenSpan
}

public struct IfConfigClause: Sendable {
    /// `#if`, `#elseif` or `#else`.
    public var keyword: Int
    public var condition: TokenSpan?
    public var items: [Item]
}

public enum OtherDeclKind: String, Sendable {
    case `import`, `typealias`, `associatedtype`, enumCase = "case", `operator`, `precedencegroup`, macro
}

/// Declarations lowering does not look into.
public struct OtherDecl: Sendable {
    public var kind: OtherDeclKind
    public var prefix: DeclarationPrefix
    public var keyword: Int
    /// The declared names (the cases of `case a, b(Int)`).
    public var names: [Int]
    public var closures: [Closure]
    public var span: TokenSpan
}

public enum StatementKind: String, Sendable {
    case expression, `if`, `guard`, `for`, `while`, `repeat`, `switch`, `do`, `defer`
    case `return`, `throw`, `break`, `continue`, `fallthrough`
}

/// A statement: its span, the blocks it owns and the closures in its expressions.
public struct Statement: Sendable {
    public var kind: StatementKind
    /// `name:` before a loop or `if`/`switch`/`do`.
    public var label: Int?
    public var span: TokenSpan
    /// Conditions of `if`/`guard`/`while`, the sequence of `for`, the subject of `switch`.
    public var conditions: [TokenSpan]
    /// In source order: `then` and `else` bodies, loop body, `do` and `catch` bodies.
    public var blocks: [Block]
    /// The `case`/`default` sections of a `switch`.
    public var cases: [SwitchCase]
    /// An `else if` chained to an `if`.
    public var elseIf: [Statement]
    public var closures: [Closure]
}

/// `case .a(let x), .b where x > 0:` and its statements, or `default:`.
public struct SwitchCase: Sendable {
    /// From `case`/`default` (or `@unknown`) to the `:`.
    public var label: TokenSpan
    public var items: [Item]
    public var closures: [Closure]
}

/// `{ [weak self] (a: Int) -> Int in … }`. An `if` or `switch` used as an
/// expression is kept here too, as a single statement item.
public struct Closure: Sendable {
    public enum Kind: String, Sendable {
        case closure
        /// `let x = if c { a } else { b }`; `items` holds the statement.
        case statementExpression
    }

    public var kind: Kind
    public var open: Int
    public var close: Int?
    /// `[…]` including the brackets.
    public var captureList: TokenSpan?
    /// Parameter names (`a`, `$item`, `_`).
    public var parameters: [Int]
    /// From the first token after `{` (or the capture list) to `in`, inclusive.
    public var signature: TokenSpan?
    public var items: [Item]
}

/// What stands before a `$name` reference.
public enum DollarQualifier: Equatable, Sendable {
    /// `$x`
    case none
    /// `self.$x`: the `self` token.
    case selfDot(Int)
    /// `expr.$x` (also `a.self.$x`): the `.` token.
    case expressionDot(Int)
    /// `\Type.$x` or `\.$x`: the `\` token and the root type, if written.
    case keyPath(Int, root: TokenSpan?)
}

/// A `$name` token (never `$0`) and its qualifier.
public struct DollarReference: Sendable {
    public var token: Int
    public var qualifier: DollarQualifier
}
