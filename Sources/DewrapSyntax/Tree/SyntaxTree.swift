// The declaration structure of a Swift file: what lowering needs, exactly, and
// nothing more. Positions are token indices into `SourceTree.tokens`; an
// expression is a `TokenSpan`, not a tree.
//
// The tree lives in tables (`SyntaxTables`), one for each kind of node. A
// node's record is trivially copyable and names its parts by index: a list is
// a range of its table. Parsing a file appends to those tables, not an object
// and an array per node, and freeing the tree frees the tables, not every node
// one by one. What lowering reads are views (`TypeDecl`, `Item`, …): a node's
// index with the tables it is in, two words to copy; a small record kept
// inline in another (`Block`, `AccessorBlock`, `DeclarationPrefix`) is viewed
// by value. A view holds its tables, so it stays valid for as long as it is
// kept. Lists are `SyntaxList`s: a range of a table.

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

// MARK: - Lists

/// A node kind a `SyntaxList` can hold: read from its table by index.
public protocol SyntaxElement {
    static func element(at index: Int, in tables: SyntaxTables) -> Self
}

/// Where a node's list lies in the table of its elements.
@usableFromInline
struct TableRange: Sendable {
    @usableFromInline var start: Int32
    @usableFromInline var count: Int32

    @usableFromInline static let empty = TableRange(start: 0, count: 0)

    @usableFromInline init(start: Int32, count: Int32) {
        self.start = start
        self.count = count
    }

    init(_ start: Int, _ count: Int) {
        self.start = Int32(truncatingIfNeeded: start)
        self.count = Int32(truncatingIfNeeded: count)
    }
}

/// The items of a block, the attributes of a declaration, the bindings of a
/// variable, …: a range of one table, read as views.
public struct SyntaxList<Element: SyntaxElement>: RandomAccessCollection, Sendable {
    @usableFromInline let tables: SyntaxTables
    @usableFromInline let range: TableRange

    @inlinable init(_ range: TableRange, in tables: SyntaxTables) {
        self.tables = tables
        self.range = range
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { Int(range.count) }

    @inlinable public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < endIndex, "syntax list index out of range")
        return Element.element(at: Int(range.start) + position, in: tables)
    }
}

// MARK: - The tables

/// Every node of one parsed file, a table for each kind. Written by the parser
/// only, before the first view of it exists; read-only from then on.
public final class SyntaxTables: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var items: [ItemRecord] = []
    @usableFromInline @exclusivity(unchecked) var types: [TypeRecord] = []
    @usableFromInline @exclusivity(unchecked) var variables: [VariableRecord] = []
    @usableFromInline @exclusivity(unchecked) var bindings: [BindingRecord] = []
    @usableFromInline @exclusivity(unchecked) var functions: [FunctionRecord] = []
    @usableFromInline @exclusivity(unchecked) var parameters: [ParameterRecord] = []
    @usableFromInline @exclusivity(unchecked) var accessors: [AccessorRecord] = []
    @usableFromInline @exclusivity(unchecked) var statements: [StatementRecord] = []
    @usableFromInline @exclusivity(unchecked) var blocks: [BlockRecord] = []
    @usableFromInline @exclusivity(unchecked) var switchCases: [SwitchCaseRecord] = []
    @usableFromInline @exclusivity(unchecked) var ifConfigs: [IfConfigRecord] = []
    @usableFromInline @exclusivity(unchecked) var clauses: [ClauseRecord] = []
    @usableFromInline @exclusivity(unchecked) var others: [OtherRecord] = []
    @usableFromInline @exclusivity(unchecked) var closures: [ClosureRecord] = []
    @usableFromInline @exclusivity(unchecked) var attributes: [Attribute] = []
    @usableFromInline @exclusivity(unchecked) var modifiers: [Modifier] = []
    /// Inheritance lists and statement conditions.
    @usableFromInline @exclusivity(unchecked) var spans: [TokenSpan] = []
    /// Closure parameters and the names of other declarations.
    @usableFromInline @exclusivity(unchecked) var tokenIndices: [Int] = []

    init() {}
}

// MARK: - Records (what the tables hold)

@usableFromInline
enum ItemRecord: Sendable {
    case type(Int32)
    case variable(Int32)
    case function(Int32)
    case ifConfig(Int32)
    case statement(Int32)
    case other(Int32)
}

@usableFromInline
struct PrefixRecord: Sendable {
    @usableFromInline var attributes: TableRange
    @usableFromInline var modifiers: TableRange
    @usableFromInline var start: Int
}

@usableFromInline
struct BlockRecord: Sendable {
    @usableFromInline var open: Int
    @usableFromInline var close: Int?
    @usableFromInline var items: TableRange
}

@usableFromInline
struct TypeRecord: Sendable {
    @usableFromInline var kind: TypeKind
    @usableFromInline var prefix: PrefixRecord
    @usableFromInline var keyword: Int
    @usableFromInline var name: TokenSpan
    @usableFromInline var genericParameters: TokenSpan?
    @usableFromInline var inheritance: TableRange
    @usableFromInline var whereClause: TokenSpan?
    @usableFromInline var body: BlockRecord?
    @usableFromInline var span: TokenSpan
}

@usableFromInline
struct VariableRecord: Sendable {
    @usableFromInline var prefix: PrefixRecord
    @usableFromInline var keyword: Int
    @usableFromInline var span: TokenSpan
    @usableFromInline var bindings: TableRange
}

@usableFromInline
struct BindingRecord: Sendable {
    @usableFromInline var pattern: TokenSpan
    @usableFromInline var name: Int?
    @usableFromInline var type: TokenSpan?
    @usableFromInline var initializer: TokenSpan?
    @usableFromInline var closures: TableRange
    @usableFromInline var accessors: AccessorBlockRecord?
}

@usableFromInline
struct AccessorBlockRecord: Sendable {
    @usableFromInline enum Content: Sendable {
        case getter(TableRange)
        case accessors(TableRange)
    }

    @usableFromInline var open: Int
    @usableFromInline var close: Int?
    @usableFromInline var content: Content
}

@usableFromInline
struct AccessorRecord: Sendable {
    @usableFromInline var attributes: TableRange
    @usableFromInline var modifier: Int?
    @usableFromInline var keyword: Int
    @usableFromInline var parameter: TokenSpan?
    @usableFromInline var effects: TokenSpan?
    @usableFromInline var body: BlockRecord?
}

@usableFromInline
struct FunctionRecord: Sendable {
    @usableFromInline var kind: FunctionKind
    @usableFromInline var prefix: PrefixRecord
    @usableFromInline var keyword: Int
    @usableFromInline var name: Int?
    @usableFromInline var genericParameters: TokenSpan?
    @usableFromInline var parameterClause: TokenSpan?
    @usableFromInline var parameters: TableRange
    @usableFromInline var effects: TokenSpan?
    @usableFromInline var returnType: TokenSpan?
    @usableFromInline var whereClause: TokenSpan?
    @usableFromInline var body: BlockRecord?
    @usableFromInline var accessors: AccessorBlockRecord?
    @usableFromInline var closures: TableRange
    @usableFromInline var span: TokenSpan
}

@usableFromInline
struct ParameterRecord: Sendable {
    @usableFromInline var attributes: TableRange
    @usableFromInline var firstName: Int?
    @usableFromInline var secondName: Int?
    @usableFromInline var type: TokenSpan?
    @usableFromInline var defaultValue: TokenSpan?
    @usableFromInline var span: TokenSpan
}

@usableFromInline
struct IfConfigRecord: Sendable {
    @usableFromInline var clauses: TableRange
    @usableFromInline var endif: Int?
    @usableFromInline var span: TokenSpan
}

@usableFromInline
struct ClauseRecord: Sendable {
    @usableFromInline var keyword: Int
    @usableFromInline var condition: TokenSpan?
    @usableFromInline var items: TableRange
}

@usableFromInline
struct OtherRecord: Sendable {
    @usableFromInline var kind: OtherDeclKind
    @usableFromInline var prefix: PrefixRecord
    @usableFromInline var keyword: Int
    @usableFromInline var names: TableRange
    @usableFromInline var closures: TableRange
    @usableFromInline var span: TokenSpan
}

@usableFromInline
struct StatementRecord: Sendable {
    @usableFromInline var kind: StatementKind
    @usableFromInline var label: Int?
    @usableFromInline var span: TokenSpan
    @usableFromInline var conditions: TableRange
    @usableFromInline var blocks: TableRange
    @usableFromInline var cases: TableRange
    /// The statement of an `else if`, in the statements table; -1 for none.
    @usableFromInline var elseIf: Int32
    @usableFromInline var closures: TableRange
}

@usableFromInline
struct SwitchCaseRecord: Sendable {
    @usableFromInline var label: TokenSpan
    @usableFromInline var items: TableRange
    @usableFromInline var closures: TableRange
}

@usableFromInline
struct ClosureRecord: Sendable {
    @usableFromInline var kind: Closure.Kind
    @usableFromInline var open: Int
    @usableFromInline var close: Int?
    @usableFromInline var captureList: TokenSpan?
    @usableFromInline var parameters: TableRange
    @usableFromInline var signature: TokenSpan?
    @usableFromInline var items: TableRange
}

// MARK: - Views (what lowering reads)

/// Attributes and modifiers in front of a declaration.
public struct DeclarationPrefix: Sendable {
    @usableFromInline let tables: SyntaxTables
    @usableFromInline let record: PrefixRecord

    @inlinable init(_ record: PrefixRecord, in tables: SyntaxTables) {
        self.tables = tables
        self.record = record
    }

    @inlinable public var attributes: SyntaxList<Attribute> { SyntaxList(record.attributes, in: tables) }
    @inlinable public var modifiers: SyntaxList<Modifier> { SyntaxList(record.modifiers, in: tables) }
    /// First token of the prefix (or of the keyword when there is none).
    @inlinable public var start: Int { record.start }
}

/// `{ … }` holding items. `close` is nil when the file ended first.
public struct Block: Sendable {
    @usableFromInline let tables: SyntaxTables
    @usableFromInline let record: BlockRecord

    @inlinable init(_ record: BlockRecord, in tables: SyntaxTables) {
        self.tables = tables
        self.record = record
    }

    @inlinable public var open: Int { record.open }
    @inlinable public var close: Int? { record.close }
    @inlinable public var items: SyntaxList<Item> { SyntaxList(record.items, in: tables) }
}

/// One entry of a file, a type body or a code block.
public enum Item: Sendable {
    case type(TypeDecl)
    case variable(VariableDecl)
    case function(FunctionDecl)
    case ifConfig(IfConfig)
    case statement(Statement)
    case other(OtherDecl)
}

public enum TypeKind: String, Sendable {
    case `struct`, `class`, actor, `enum`, `protocol`, `extension`
}

/// `struct`, `class`, `actor`, `enum`, `protocol` or `extension`.
public struct TypeDecl: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.types`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: TypeRecord { tables.types[index] }

    @inlinable public var kind: TypeKind { record.kind }
    @inlinable public var prefix: DeclarationPrefix { DeclarationPrefix(record.prefix, in: tables) }
    @inlinable public var keyword: Int { record.keyword }
    /// The declared name, or for an extension the extended type.
    @inlinable public var name: TokenSpan { record.name }
    /// `<…>` including the angle brackets.
    @inlinable public var genericParameters: TokenSpan? { record.genericParameters }
    @inlinable public var inheritance: SyntaxList<TokenSpan> { SyntaxList(record.inheritance, in: tables) }
    /// From `where` to the end of its last requirement.
    @inlinable public var whereClause: TokenSpan? { record.whereClause }
    @inlinable public var body: Block? { record.body.map { Block($0, in: tables) } }
    @inlinable public var span: TokenSpan { record.span }
    /// The body's items; none when there is no body.
    @inlinable public var members: SyntaxList<Item> { SyntaxList(record.body?.items ?? .empty, in: tables) }
}

/// `let` or `var` with one or more pattern bindings.
public struct VariableDecl: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.variables`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: VariableRecord { tables.variables[index] }

    @inlinable public var prefix: DeclarationPrefix { DeclarationPrefix(record.prefix, in: tables) }
    /// The `let` or `var` token.
    @inlinable public var keyword: Int { record.keyword }
    @inlinable public var span: TokenSpan { record.span }
    /// One for nearly every declaration, none after an error.
    @inlinable public var bindings: SyntaxList<PatternBinding> { SyntaxList(record.bindings, in: tables) }
}

/// `a: Int = 1 { didSet { … } }`, one binding of a variable declaration.
public struct PatternBinding: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.bindings`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: BindingRecord { tables.bindings[index] }

    @inlinable public var pattern: TokenSpan { record.pattern }
    /// The name token when the pattern is a single identifier.
    @inlinable public var name: Int? { record.name }
    /// The type after `:`.
    @inlinable public var type: TokenSpan? { record.type }
    /// The expression after `=`.
    @inlinable public var initializer: TokenSpan? { record.initializer }
    /// Closures in the initializer expression.
    @inlinable public var closures: SyntaxList<Closure> { SyntaxList(record.closures, in: tables) }
    @inlinable public var accessors: AccessorBlock? { record.accessors.map { AccessorBlock($0, in: tables) } }
}

/// `{ get set }`, `{ willSet { } didSet { } }` or an implicit getter `{ return x }`.
public struct AccessorBlock: Sendable {
    public enum Content: Sendable {
        case getter(SyntaxList<Item>)
        case accessors(SyntaxList<Accessor>)
    }

    @usableFromInline let tables: SyntaxTables
    @usableFromInline let record: AccessorBlockRecord

    @inlinable init(_ record: AccessorBlockRecord, in tables: SyntaxTables) {
        self.tables = tables
        self.record = record
    }

    @inlinable public var open: Int { record.open }
    @inlinable public var close: Int? { record.close }
    @inlinable public var content: Content {
        switch record.content {
        case .getter(let items): return .getter(SyntaxList(items, in: tables))
        case .accessors(let accessors): return .accessors(SyntaxList(accessors, in: tables))
        }
    }
}

/// `get`, `nonmutating set(v) { … }`, `_modify`, `willSet`, `didSet`, …
public struct Accessor: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.accessors`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: AccessorRecord { tables.accessors[index] }

    @inlinable public var attributes: SyntaxList<Attribute> { SyntaxList(record.attributes, in: tables) }
    /// `mutating`, `nonmutating`, `__consuming`, …
    @inlinable public var modifier: Int? { record.modifier }
    @inlinable public var keyword: Int { record.keyword }
    /// `(name)` including the parentheses.
    @inlinable public var parameter: TokenSpan? { record.parameter }
    /// `async`, `throws(E)` and the like.
    @inlinable public var effects: TokenSpan? { record.effects }
    @inlinable public var body: Block? { record.body.map { Block($0, in: tables) } }
}

public enum FunctionKind: String, Sendable {
    case function = "func", initializer = "init", deinitializer = "deinit", `subscript`
}

/// `func`, `init`, `deinit` or `subscript`.
public struct FunctionDecl: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.functions`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: FunctionRecord { tables.functions[index] }

    @inlinable public var kind: FunctionKind { record.kind }
    @inlinable public var prefix: DeclarationPrefix { DeclarationPrefix(record.prefix, in: tables) }
    @inlinable public var keyword: Int { record.keyword }
    /// The function's name or operator; for `init?`/`init!` the `?` or `!`.
    @inlinable public var name: Int? { record.name }
    @inlinable public var genericParameters: TokenSpan? { record.genericParameters }
    /// `(…)` including the parentheses; nil for `deinit`.
    @inlinable public var parameterClause: TokenSpan? { record.parameterClause }
    @inlinable public var parameters: SyntaxList<Parameter> { SyntaxList(record.parameters, in: tables) }
    /// `async`, `throws`, `rethrows`, `throws(E)`.
    @inlinable public var effects: TokenSpan? { record.effects }
    /// The type after `->`.
    @inlinable public var returnType: TokenSpan? { record.returnType }
    @inlinable public var whereClause: TokenSpan? { record.whereClause }
    /// The body of a `func`, `init` or `deinit`.
    @inlinable public var body: Block? { record.body.map { Block($0, in: tables) } }
    /// The accessors of a `subscript`.
    @inlinable public var accessors: AccessorBlock? { record.accessors.map { AccessorBlock($0, in: tables) } }
    /// Closures in default values and attribute arguments.
    @inlinable public var closures: SyntaxList<Closure> { SyntaxList(record.closures, in: tables) }
    @inlinable public var span: TokenSpan { record.span }
}

/// `@Binding x: Bool = .constant(true)`, `_ y: Int...`, `inout z: T`.
public struct Parameter: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.parameters`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: ParameterRecord { tables.parameters[index] }

    @inlinable public var attributes: SyntaxList<Attribute> { SyntaxList(record.attributes, in: tables) }
    /// The argument label (or `_`).
    @inlinable public var firstName: Int? { record.firstName }
    /// The parameter name when it differs from the label.
    @inlinable public var secondName: Int? { record.secondName }
    @inlinable public var type: TokenSpan? { record.type }
    @inlinable public var defaultValue: TokenSpan? { record.defaultValue }
    @inlinable public var span: TokenSpan { record.span }
}

/// `#if` … `#endif`, each branch with its condition and items.
public struct IfConfig: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.ifConfigs`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: IfConfigRecord { tables.ifConfigs[index] }

    @inlinable public var clauses: SyntaxList<IfConfigClause> { SyntaxList(record.clauses, in: tables) }
    @inlinable public var endif: Int? { record.endif }
    @inlinable public var span: TokenSpan { record.span }
}

public struct IfConfigClause: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.clauses`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: ClauseRecord { tables.clauses[index] }

    /// `#if`, `#elseif` or `#else`.
    @inlinable public var keyword: Int { record.keyword }
    @inlinable public var condition: TokenSpan? { record.condition }
    @inlinable public var items: SyntaxList<Item> { SyntaxList(record.items, in: tables) }
}

public enum OtherDeclKind: String, Sendable {
    case `import`, `typealias`, `associatedtype`, enumCase = "case", `operator`, `precedencegroup`, macro
}

/// Declarations lowering does not look into.
public struct OtherDecl: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.others`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: OtherRecord { tables.others[index] }

    @inlinable public var kind: OtherDeclKind { record.kind }
    @inlinable public var prefix: DeclarationPrefix { DeclarationPrefix(record.prefix, in: tables) }
    @inlinable public var keyword: Int { record.keyword }
    /// The declared names (the cases of `case a, b(Int)`).
    @inlinable public var names: SyntaxList<Int> { SyntaxList(record.names, in: tables) }
    @inlinable public var closures: SyntaxList<Closure> { SyntaxList(record.closures, in: tables) }
    @inlinable public var span: TokenSpan { record.span }
}

public enum StatementKind: String, Sendable {
    case expression, `if`, `guard`, `for`, `while`, `repeat`, `switch`, `do`, `defer`
    case `return`, `throw`, `break`, `continue`, `fallthrough`
}

/// A statement: its span, the blocks it owns and the closures in its expressions.
public struct Statement: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.statements`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: StatementRecord { tables.statements[index] }

    @inlinable public var kind: StatementKind { record.kind }
    /// `name:` before a loop or `if`/`switch`/`do`.
    @inlinable public var label: Int? { record.label }
    @inlinable public var span: TokenSpan { record.span }
    /// Conditions of `if`/`guard`/`while`, the sequence of `for`, the subject of `switch`.
    @inlinable public var conditions: SyntaxList<TokenSpan> { SyntaxList(record.conditions, in: tables) }
    /// In source order: `then` and `else` bodies, loop body, `do` and `catch` bodies.
    @inlinable public var blocks: SyntaxList<Block> { SyntaxList(record.blocks, in: tables) }
    /// The `case`/`default` sections of a `switch`.
    @inlinable public var cases: SyntaxList<SwitchCase> { SyntaxList(record.cases, in: tables) }
    /// An `else if` chained to an `if`: none or one.
    @inlinable public var elseIf: SyntaxList<Statement> {
        SyntaxList(record.elseIf < 0 ? .empty : TableRange(start: record.elseIf, count: 1), in: tables)
    }
    @inlinable public var closures: SyntaxList<Closure> { SyntaxList(record.closures, in: tables) }
}

/// `case .a(let x), .b where x > 0:` and its statements, or `default:`.
public struct SwitchCase: Sendable {
    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.switchCases`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: SwitchCaseRecord { tables.switchCases[index] }

    /// From `case`/`default` (or `@unknown`) to the `:`.
    @inlinable public var label: TokenSpan { record.label }
    @inlinable public var items: SyntaxList<Item> { SyntaxList(record.items, in: tables) }
    @inlinable public var closures: SyntaxList<Closure> { SyntaxList(record.closures, in: tables) }
}

/// `{ [weak self] (a: Int) -> Int in … }`. An `if` or `switch` used as an
/// expression is kept here too, as a single statement item.
public struct Closure: Sendable {
    public enum Kind: String, Sendable {
        case closure
        /// `let x = if c { a } else { b }`; `items` holds the statement.
        case statementExpression
    }

    @usableFromInline let tables: SyntaxTables
    /// Its record's index in `tables.closures`.
    @usableFromInline let index: Int

    @inlinable init(at index: Int, in tables: SyntaxTables) {
        self.tables = tables
        self.index = index
    }

    @inlinable var record: ClosureRecord { tables.closures[index] }

    @inlinable public var kind: Kind { record.kind }
    @inlinable public var open: Int { record.open }
    @inlinable public var close: Int? { record.close }
    /// `[…]` including the brackets.
    @inlinable public var captureList: TokenSpan? { record.captureList }
    /// Parameter names (`a`, `$item`, `_`).
    @inlinable public var parameters: SyntaxList<Int> { SyntaxList(record.parameters, in: tables) }
    /// From the first token after `{` (or the capture list) to `in`, inclusive.
    @inlinable public var signature: TokenSpan? { record.signature }
    @inlinable public var items: SyntaxList<Item> { SyntaxList(record.items, in: tables) }
}

// MARK: - Reading elements from their tables

/// A node read from its own table by its index: a list of them reads the record at each index.
@usableFromInline
protocol TableNode: SyntaxElement {
    init(at index: Int, in tables: SyntaxTables)
}

extension TableNode {
    @inlinable public static func element(at index: Int, in tables: SyntaxTables) -> Self {
        Self(at: index, in: tables)
    }
}

extension PatternBinding: TableNode {}
extension Parameter: TableNode {}
extension Accessor: TableNode {}
extension Statement: TableNode {}
extension SwitchCase: TableNode {}
extension IfConfigClause: TableNode {}
extension Closure: TableNode {}

extension Item: SyntaxElement {
    @inlinable public static func element(at index: Int, in tables: SyntaxTables) -> Item {
        switch tables.items[index] {
        case .type(let i): return .type(TypeDecl(at: Int(i), in: tables))
        case .variable(let i): return .variable(VariableDecl(at: Int(i), in: tables))
        case .function(let i): return .function(FunctionDecl(at: Int(i), in: tables))
        case .ifConfig(let i): return .ifConfig(IfConfig(at: Int(i), in: tables))
        case .statement(let i): return .statement(Statement(at: Int(i), in: tables))
        case .other(let i): return .other(OtherDecl(at: Int(i), in: tables))
        }
    }
}

extension Block: SyntaxElement {
    @inlinable public static func element(at index: Int, in tables: SyntaxTables) -> Block {
        Block(tables.blocks[index], in: tables)
    }
}

extension Attribute: SyntaxElement {
    @inlinable public static func element(at index: Int, in tables: SyntaxTables) -> Attribute { tables.attributes[index] }
}

extension Modifier: SyntaxElement {
    @inlinable public static func element(at index: Int, in tables: SyntaxTables) -> Modifier { tables.modifiers[index] }
}

extension TokenSpan: SyntaxElement {
    @inlinable public static func element(at index: Int, in tables: SyntaxTables) -> TokenSpan { tables.spans[index] }
}

extension Int: SyntaxElement {
    @inlinable public static func element(at index: Int, in tables: SyntaxTables) -> Int { tables.tokenIndices[index] }
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
