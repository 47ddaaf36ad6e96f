// Where the parser writes the tree: the tables (`SyntaxTables`), and the
// lists still being gathered.
//
// A list's elements must lie together in their table, but a list is gathered
// while the lists inside it are (a block's items while each item's own blocks
// are parsed). So the elements of a list wait on a stack of their kind, and a
// list is placed in its table when it ends: the inner lists, ended first, are
// placed before it, and what is left on the stack above its mark is its own.
// The parser state holds this object, not the arrays themselves: the state is
// copied whole for some calls, and a pointer is one word to copy.

final class TreeBuilder {
    let tables = SyntaxTables()

    /// Room in proportion to the tokens, so that the tables seldom grow step
    /// by step (each step copies the table; docs/PERFORMANCE.md).
    init(tokenCount: Int) {
        let room = tokenCount / 16
        tables.items.reserveCapacity(room)
        tables.variables.reserveCapacity(room / 2)
        tables.bindings.reserveCapacity(room / 2)
        tables.attributes.reserveCapacity(room / 4)
        tables.modifiers.reserveCapacity(room / 4)
        tables.statements.reserveCapacity(room / 4)
        tables.closures.reserveCapacity(room / 4)
        tables.types.reserveCapacity(room / 8)
        tables.functions.reserveCapacity(room / 8)
        tables.parameters.reserveCapacity(room / 4)
        tables.spans.reserveCapacity(room / 4)
        items.reserveCapacity(64)
        closures.reserveCapacity(16)
    }
    @exclusivity(unchecked) var items: [ItemRecord] = []
    @exclusivity(unchecked) var bindings: [BindingRecord] = []
    @exclusivity(unchecked) var parameters: [ParameterRecord] = []
    @exclusivity(unchecked) var accessors: [AccessorRecord] = []
    @exclusivity(unchecked) var blocks: [BlockRecord] = []
    @exclusivity(unchecked) var switchCases: [SwitchCaseRecord] = []
    @exclusivity(unchecked) var clauses: [ClauseRecord] = []
    /// Closures met in the expressions of the items being parsed: an item or
    /// statement takes those met since it began.
    @exclusivity(unchecked) var closures: [ClosureRecord] = []
    /// Statement conditions.
    @exclusivity(unchecked) var spans: [TokenSpan] = []
    /// The names of a declaration other than a type, variable or function.
    @exclusivity(unchecked) var names: [Int] = []

    func placeItems(since mark: Int) -> TableRange { place(&items, since: mark, in: &tables.items) }
    func placeBindings(since mark: Int) -> TableRange { place(&bindings, since: mark, in: &tables.bindings) }
    func placeParameters(since mark: Int) -> TableRange { place(&parameters, since: mark, in: &tables.parameters) }
    func placeAccessors(since mark: Int) -> TableRange { place(&accessors, since: mark, in: &tables.accessors) }
    func placeBlocks(since mark: Int) -> TableRange { place(&blocks, since: mark, in: &tables.blocks) }
    func placeSwitchCases(since mark: Int) -> TableRange { place(&switchCases, since: mark, in: &tables.switchCases) }
    func placeClauses(since mark: Int) -> TableRange { place(&clauses, since: mark, in: &tables.clauses) }
    func placeSpans(since mark: Int) -> TableRange { place(&spans, since: mark, in: &tables.spans) }
    func placeNames(since mark: Int) -> TableRange { place(&names, since: mark, in: &tables.tokenIndices) }

    /// Inlined down to the check for none, the usual answer for a declaration or statement.
    @inline(__always)
    func placeClosures(since mark: Int) -> TableRange {
        guard closures.count > mark else { return .empty }
        return place(&closures, since: mark, in: &tables.closures)
    }

    // A node's record goes into its table when the node ends; the index is its handle.
    func add(_ record: TypeRecord) -> Int32 { append(record, to: &tables.types) }
    func add(_ record: VariableRecord) -> Int32 { append(record, to: &tables.variables) }
    func add(_ record: FunctionRecord) -> Int32 { append(record, to: &tables.functions) }
    func add(_ record: IfConfigRecord) -> Int32 { append(record, to: &tables.ifConfigs) }
    func add(_ record: StatementRecord) -> Int32 { append(record, to: &tables.statements) }
    func add(_ record: OtherRecord) -> Int32 { append(record, to: &tables.others) }

    /// A list whose elements are appended straight to their table, nothing
    /// else placed there between the first and the last (attributes, modifiers,
    /// an inheritance list, a closure's parameter names): from the table's
    /// count before the first element.
    static func range(from start: Int, in table: some Collection) -> TableRange {
        TableRange(start, table.count - start)
    }
}

@inline(__always)
private func place<Element>(_ stack: inout [Element], since mark: Int, in table: inout [Element]) -> TableRange {
    let count = stack.count - mark
    guard count > 0 else { return .empty }
    let start = table.count
    if count == 1 {
        // Most lists (a variable's bindings, a clause's items) hold one.
        table.append(stack.removeLast())
    } else {
        stack.withUnsafeBufferPointer { table.append(contentsOf: UnsafeBufferPointer(rebasing: $0[mark...])) }
        stack.removeSubrange(mark...)
    }
    return TableRange(start, count)
}

@inline(__always)
private func append<Record>(_ record: Record, to table: inout [Record]) -> Int32 {
    table.append(record)
    return Int32(truncatingIfNeeded: table.count - 1)
}
