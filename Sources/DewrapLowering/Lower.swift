import DewrapSyntax
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The Swift language mode the output is compiled in, where lowering differs (SPEC I-2).
public enum SwiftLanguageMode: Sendable, Equatable {
    /// `-swift-version 5`: a type is inferred `@MainActor` from a wrapped property whose
    /// `wrappedValue` is global-actor isolated, so the lowering writes that on the type.
    case swift5
    /// `-swift-version 6` (the default): no such inference, nothing to write.
    case swift6
}

/// Settings for one call of `lower`.
public struct LoweringOptions: Sendable {
    /// Warnings become errors (`--strict`).
    public var strict: Bool
    /// When set, the output starts with a "generated" header and carries
    /// `#sourceLocation` directives naming this file, so that the compiler
    /// reports every line at its origin (`--line-directives`).
    public var lineDirectives: String?
    /// Wrappers declared outside the input (`--wrapper-sources`), in addition to
    /// the built-in catalog; a wrapper declared in the input itself wins over both.
    public var wrapperShapes: WrapperShapes
    /// The language mode of the compilation the output is for (`--swift-version`).
    public var swiftVersion: SwiftLanguageMode
    /// The declarations of the module the input belongs to (all files of one run), whose types
    /// initial values and `@Environment` keys may name (SPEC Decision 5, revised).
    public var module: ModuleSources?
    /// Member properties lowered in other files of the module (and left as written in none):
    /// `$x` of such a name in this file becomes `_$x` too, as for one of its own (D-1).
    public var moduleProjections: Set<String> = []
    /// How much of function, accessor and closure bodies is parsed. By default a
    /// body holding nothing lowering reads is stepped over (`PlainBlocks`); `.all`
    /// parses every body, which gives the same result on code the compiler accepts
    /// (tests and the corpus check compare the two) and also reports syntax errors
    /// inside such bodies, leaving their type alone.
    public var bodies: BodyParsing

    public init(
        strict: Bool = false, lineDirectives: String? = nil, wrapperShapes: WrapperShapes = WrapperShapes(),
        swiftVersion: SwiftLanguageMode = .swift6, bodies: BodyParsing = .skippingPlain
    ) {
        self.strict = strict
        self.lineDirectives = lineDirectives
        self.wrapperShapes = wrapperShapes
        self.swiftVersion = swiftVersion
        self.bodies = bodies
    }
}

/// What `lower` produces: the new bytes and what it has to say about the input.
public struct LoweringResult: Sendable {
    public var output: [UInt8]
    public var diagnostics: [Diagnostic]
    /// The input ranges that were replaced, sorted and disjoint (an insertion
    /// is an empty range). Every other input byte is in the output, in order.
    public var changes: [Range<Int>] = []
    /// What the other files of its module need to know (issue 21: `$x` across files).
    public var projections = Projections()

    /// Member properties this file lowered or left as written, and the `$name`s it uses that it did
    /// not rewrite (a member of another file's type, perhaps).
    public struct Projections: Sendable {
        public var lowered: [String] = []
        public var left: [String] = []
        public var unresolved: [String] = []
        /// The file was copied without being read, and may use some `$name`.
        public var unread = false
    }
}

/// The whole product: Swift source with property wrappers in, the explicit
/// Swift the compiler synthesizes out. Pure: no I/O, no globals.
///
/// Member properties wrapped with a catalog wrapper (SPEC table T) or one whose
/// declaration dewrap has (in the input or `options.wrapperShapes`) are lowered
/// (SPEC Decisions 1–5, 7); everything else is copied byte for byte. Lexical
/// and parse problems are warnings, and a type with one inside is left alone
/// (by default bodies that hold nothing lowering reads are not parsed, so a
/// syntax error in one is left for the compiler to report; see `options.bodies`).
public func lower(_ source: [UInt8], fileName: String, options: LoweringOptions = LoweringOptions()) -> LoweringResult {
    // Most library files have no attribute but the compiler's: copied without lexing (unless they
    // may use `$x` of a property lowered in another file of the module).
    // Asked only in a module's run: a byte scan of every file otherwise paid for nothing.
    let usesDollarNames = options.module != nil && containsDollarName(source)
    if source.count <= Lexer.maximumInputSize && !mayHaveWrapperAttribute(source)
        && (options.moduleProjections.isEmpty || !usesDollarNames) {
        var result = LoweringResult(output: source, diagnostics: [])
        result.projections.unread = usesDollarNames
        return result
    }
    let lexed = Lexer.lex(source)
    guard source.count <= Lexer.maximumInputSize else {
        return LoweringResult(output: source, diagnostics: lexed.diagnostics)
    }
    guard mayUseWrappers(lexed.tokens, in: source) || !options.moduleProjections.isEmpty && usesDollarNames else {
        // Nothing to lower: the bytes as they are, and what the lexer had to say.
        let warnings = lexed.diagnostics.map { Diagnostic(options.strict ? .error : .warning, at: $0.offset, $0.message) }
        var result = LoweringResult(output: source, diagnostics: warnings)
        result.projections.unread = usesDollarNames
        return result
    }
    let tree = Parser.parse(source, lexed: lexed, bodies: options.bodies)
    var context = SourceContext(bytes: source, tree: tree, lineDirectives: options.lineDirectives, module: options.module)
    context.swiftVersion = options.swiftVersion
    // The file's own wrappers win over `--wrapper-sources`, which win over the catalog.
    var shapes = options.wrapperShapes
    shapes.merge(WrapperShapes(context: context))
    shapes.includesCatalog = true
    context.shapes = shapes
    // Handed over: a copy left behind would be destroyed unused (its value witnesses, some 1,000 instructions).
    var lowering = FileLowering(
        context: consume context, swiftVersion: options.swiftVersion, moduleProjections: options.moduleProjections)
    lowering.run()
    var diagnostics = tree.lexerDiagnostics.map { Diagnostic(.warning, at: $0.offset, $0.message) }
    diagnostics += tree.diagnostics.map { Diagnostic(.warning, at: $0.offset, "cannot parse: \($0.message)") }
    diagnostics += lowering.diagnostics.sorted { $0.offset < $1.offset }
    if options.strict {
        diagnostics = diagnostics.map { Diagnostic($0.severity == .warning ? .error : $0.severity, at: $0.offset, $0.message) }
    }
    if diagnostics.contains(where: { $0.severity == .error }) {
        return LoweringResult(output: source, diagnostics: diagnostics)
    }
    var edits = lowering.edits
    lowering.edits = []  // `edits` is then the only owner
    if let name = options.lineDirectives {
        edits += lineDirectiveEdits(for: edits, source: source, fileName: fileName, sourceName: name, context: lowering.context)
    }
    // Sorted once, for the changed ranges, the overlap check and the splice.
    let order = sortedOrder(edits)
    let changes = order.map { edits[$0].start..<edits[$0].end }
    // Rewrites must not overlap; if they ever do, no byte may be lost: keep the file as it is.
    if zip(changes, changes.dropFirst()).contains(where: { $0.upperBound > $1.lowerBound }) {
        diagnostics.append(Diagnostic(.warning, at: changes.first?.lowerBound ?? 0,
            "file left unchanged: dewrap's rewrites of it overlap (please report this input)"))
        return LoweringResult(output: source, diagnostics: diagnostics)
    }
    var result = LoweringResult(output: apply(edits, in: order, to: source), diagnostics: diagnostics, changes: changes)
    result.projections = lowering.projections
    return result
}

/// Whether `source` holds `$` before a name's first byte (`$x`, not `$0`), in code or not: the
/// `$`s found with the C library's `memchr`, which reads many bytes an instruction.
private func containsDollarName(_ source: [UInt8]) -> Bool {
    source.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return false }
        var from = 0
        while from < bytes.count, let found = memchr(base + from, Int32(UInt8(ascii: "$")), bytes.count - from) {
            let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            guard index + 1 < bytes.count else { return false }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "_") || next >= 0x80 || (next | 0x20 >= UInt8(ascii: "a") && next | 0x20 <= UInt8(ascii: "z")) {
                return true
            }
            from = index + 1
        }
        return false
    }
}

/// The indices of `edits` by start, then end, equal ones in their order (as a stable sort keeps them).
/// The edits nearly always come as two sorted runs, the file's rewrites then the token rewrites outside
/// them: their indices are merged, which costs a fraction of sorting the edits (each a slice, moved).
private func sortedOrder(_ edits: [Edit]) -> [Int] {
    edits.withUnsafeBufferPointer { edits in
        func precedes(_ a: Int, _ b: Int) -> Bool { (edits[a].start, edits[a].end) < (edits[b].start, edits[b].end) }
        var split = 1
        while split < edits.count && !precedes(split, split - 1) { split += 1 }
        var end = split + 1
        while end < edits.count && !precedes(end, end - 1) { end += 1 }
        guard end >= edits.count else {
            return Array(edits.indices).sorted { precedes($0, $1) || !precedes($1, $0) && $0 < $1 }
        }
        return [Int](unsafeUninitializedCapacity: edits.count) { order, count in
            var first = 0
            var second = split
            while count < edits.count {
                // On a tie the first run's edit goes first.
                if first < split && (second == edits.count || !precedes(second, first)) {
                    order[count] = first
                    first += 1
                } else {
                    order[count] = second
                    second += 1
                }
                count += 1
            }
        }
    }
}

/// The header, and after every edit that changes the number of lines a
/// `#sourceLocation` at the start of the next line, so that untouched code
/// keeps its own line numbers.
private func lineDirectiveEdits(
    for edits: [Edit], source: [UInt8], fileName: String, sourceName: String, context: SourceContext
) -> [Edit] {
    let eol = context.lineEnding
    func lineBreaks<C: Collection<UInt8>>(_ bytes: C) -> Int {
        var count = 0
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 10 && previous != 13 || byte == 13 { count += 1 }
            previous = byte
        }
        return count
    }
    let start = source.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var result = [Edit(start: start, end: start, text: Array(
        ("// Generated by dewrap from \(fileName). Do not edit." + eol + sourceLocation(sourceName, line: 1) + eol).utf8))]
    var positions = Set<Int>()
    // Line starts strictly inside a replaced range get no directive; found by a sweep over the sorted ranges.
    let replaced = edits.filter { $0.end > $0.start }.map { $0.start..<$0.end }.sorted { $0.lowerBound < $1.lowerBound }
    func isInsideAnEdit(_ position: Int) -> Bool {
        var low = 0
        var high = replaced.count
        while low < high {
            let middle = (low + high) / 2
            if replaced[middle].lowerBound < position { low = middle + 1 } else { high = middle }
        }
        return low > 0 && replaced[low - 1].upperBound > position
    }
    for edit in edits where lineBreaks(edit.text) != lineBreaks(source[edit.start..<edit.end]) {
        // The start of the line after the edit's last line.
        var position = edit.end
        while position < source.count && source[position] != 10 && source[position] != 13 { position += 1 }
        guard position < source.count else { continue }
        position += source[position] == 13 && position + 1 < source.count && source[position + 1] == 10 ? 2 : 1
        guard position < source.count, !isInsideAnEdit(position) else { continue }
        positions.insert(position)
    }
    for position in positions.sorted() {
        let line = context.lines.location(of: position).line
        result.append(Edit(start: position, end: position, text: Array((sourceLocation(sourceName, line: line) + eol).utf8)))
    }
    return result
}

/// One pass over the file's types: analyse, then decide names, then render.
struct FileLowering {
    private(set) var context: SourceContext
    var edits: [Edit] = []
    var diagnostics: [Diagnostic] = []
    let swiftVersion: SwiftLanguageMode

    /// A property's (or memberwise init's) edit in the file's edits, and its text in the buffer they are written to.
    private struct PendingText {
        var edit: Int
        var text: Range<Int>
    }

    /// What lowering decided for one type.
    private struct TypePlan {
        var type: TypeDecl
        var container: ContainerKind
        var properties: [WrappedProperty]
        /// The struct's memberwise init is written out.
        var writesMemberwise: Bool
        /// Wrapped properties of the type are left as written (none that the memberwise init includes).
        var leavesProperties: Bool
        /// A class that may have a superclass (its inheritance is not all protocols dewrap knows).
        var isDerivedClass: Bool
        var initializers: [FunctionDecl]
        /// A struct's non-delegating inits declared in extensions of it in this file (M-8 prologue, N-1…N-4).
        var extensionInitializers: [FunctionDecl]
        var stored: [StoredProperty]
        /// K-1: coding keys kept for synthesized `Codable`.
        var codingKeys: CodingKeysPlan?
    }

    /// Member properties lowered in the module's other files (`LoweringOptions.moduleProjections`).
    let moduleProjections: Set<String>
    /// What this file's lowering tells the module's other files.
    var projections = LoweringResult.Projections()

    init(context: SourceContext, swiftVersion: SwiftLanguageMode = .swift6, moduleProjections: Set<String> = []) {
        self.context = context
        self.swiftVersion = swiftVersion
        self.moduleProjections = moduleProjections
    }

    mutating func run() {
        var plans: [TypePlan] = []
        var leftNames: Set<String> = []
        // The first token at or after each parse problem (binary search: tokens are sorted by offset).
        let tokens = context.tree.tokens
        let parseProblems = context.tree.diagnostics.map { problem in
            var low = 0
            var high = tokens.count
            while low < high {
                let middle = (low + high) / 2
                if tokens[middle].start < problem.offset { low = middle + 1 } else { high = middle }
            }
            return low < tokens.count ? low : 0
        }
        let types = context.tree.typeDeclarations
        var extensions: [String: [TypeDecl]] = [:]
        for type in types where type.kind == .extension {
            extensions[context.text(type.name), default: []].append(type)
        }
        let sendable = SendableOracle(context: context, types: types)
        // K-1 looks for a type's own `CodingKeys` only in a file that declares one (most declare none).
        let declaresCodingKeys = types.contains { type in
            type.kind == .enum && type.name.upper == type.name.lower + 1 && context.token(type.name.lower, isSpelled: "CodingKeys")
        }
        var brokenTypes: [TokenSpan] = []
        plans.reserveCapacity(types.count)
        for type in types {
            // A problem at the token right after the type (often the end of the file, for a
            // type that never closed) counts as inside it.
            guard let body = type.body,
                  !parseProblems.contains(where: { type.span.lower <= $0 && $0 <= type.span.upper }) else {
                brokenTypes.append(type.span)
                continue
            }
            // Without an `@` anywhere in it a type has no wrapped member, and analysing it finds nothing
            // and says nothing: scanning its tokens for one is much cheaper (most such types are short).
            guard containsAttribute(type.span, tokens: tokens) else { continue }
            // Most files extend nothing: no name made and hashed to find that out.
            let typeExtensions = type.kind == .extension || extensions.isEmpty ? [] : extensions[context.text(type.name)] ?? []
            if let plan = analyze(type, body: body, extensions: typeExtensions, declaresCodingKeys: declaresCodingKeys,
                                  sendable: sendable,
                                  leftNames: &leftNames) {
                plans.append(plan)
            }
        }
        // `$x` is resolved by name, and a property left as written keeps its `$x`: a lowered property of the
        // same name, whose `$x` uses would then stay as they are and name nothing, is left as written too.
        if !leftNames.isEmpty && !plans.isEmpty {
            let dollarNames = Set(context.tree.dollarReferences.map { String(context.text($0.token).dropFirst()) })
            var leaving = true
            while leaving {
                leaving = false
                plans.removeAll { plan in
                    guard let clash = plan.properties.first(where: {
                        $0.projectedType != nil && leftNames.contains($0.name) && dollarNames.contains($0.name)
                    }) else { return false }
                    diagnostics.append(Diagnostic(.warning, at: tokens[clash.nameToken].start,
                        "cannot lower '\(context.text(plan.type.name))': its '$\(clash.name)' cannot be told apart from that of a property of the same name left as written"))
                    leftNames.formUnion(plan.properties.map(\.name))
                    leaving = true
                    return true
                }
            }
        }
        for index in plans.indices {
            if let codingKeys = plans[index].codingKeys { context.tokenEdits += codingKeys.tokenEdits }
        }

        // `$x` becomes `_$x` for every lowered name (D-1…D-3), unless a `$x`
        // closure parameter declares it or a same-named property stays wrapped.
        let propertyCount = plans.reduce(0) { $0 + $1.properties.count }
        var lowered = NameSet(capacity: propertyCount)
        // Plans are read by index here and below: `for plan in plans` copies each one.
        for index in plans.indices {
            for property in plans[index].properties where leftNames.isEmpty || !leftNames.contains(property.name) {
                lowered.insert(property.name)
                if !property.isStatic { projections.lowered.append(property.name) }
            }
        }
        projections.left = leftNames.sorted()
        for name in moduleProjections where !leftNames.contains(name) { lowered.insert(name) }
        let localVariablesWrapped = localWrappedNameTokens(types: types)
        let locals = LocalWrappedVariables(context: context, parseProblems: parseProblems)
        diagnostics += locals.diagnostics
        diagnostics += parameterRestrictions(context: context)
        let parameters = WrappedParameters(context: context, parseProblems: parseProblems)
        diagnostics += parameters.diagnostics
        let wrappedClosures = WrappedClosureParameters(context: context, parseProblems: parseProblems)
        diagnostics += wrappedClosures.diagnostics
        let loweredLocals = locals.loweredNames.union(parameters.loweredNames).union(wrappedClosures.loweredNames)
        // P-5: `ForEach($items) { $item in … }` over a lowered `[E]` property.
        // Only a closure with a signature can declare `$item`: without one the table is not needed.
        var memberTypes: [String: String] = [:]
        var clashing: Set<String> = []
        for index in plans.indices where context.tree.census.closureSignature {
            for property in plans[index].properties where !leftNames.contains(property.name) && !property.isStatic {
                if let known = memberTypes[property.name], known != property.valueType { clashing.insert(property.name) }
                memberTypes[property.name] = property.valueType
            }
        }
        for name in clashing { memberTypes[name] = nil }
        let closures = BindingClosureParameters(context: context, memberTypes: memberTypes, parseProblems: parseProblems)
        let loweredClosureParameters = closures.parameterTokens
        let localWrapped = localVariablesWrapped.union(parameters.wrappedNames).union(wrappedClosures.wrappedNames)
        let tree = context.tree
        // The rewrites' texts (`_$x`) one after another in one buffer, which their edits slice once it is complete.
        var rewriteTexts = CodeText(capacity: 16 * tree.dollarReferences.count)
        // The rewritten tokens' indices: each one's text is `_` and its bytes, so where it lies in the buffer
        // follows from the lengths of those before it. (Tokens and ranges, five times the size, took
        // an allocation too large for malloc's fast path.)
        var rewrites: [Int] = []
        rewrites.reserveCapacity(tree.dollarReferences.count)
        func rewrite(_ index: Int) {
            // A literal and the source's bytes: no String looked into, no slice of the source made.
            rewriteTexts.write(literal: "_")
            rewriteTexts.write(context.bytes, tree.tokens[index].range)
            rewrites.append(index)
        }
        for reference in tree.dollarReferences {
            // A type left alone for a parse problem keeps its `$x` too (lowering its output again changes nothing).
            if brokenTypes.contains(where: { $0.lower <= reference.token && reference.token <= $0.upper }) { continue }
            let token = tree.tokens[reference.token]
            let dollarName = context.bytes[token.range]  // `$x`
            let loweredMember = context.bytes.withUnsafeBufferPointer {
                lowered.contains(UnsafeBufferPointer(rebasing: $0[token.start + 1..<token.end]))
            }
            guard loweredMember || !loweredLocals.isEmpty || !loweredClosureParameters.isEmpty else {
                projections.unresolved.append(String(decoding: dollarName.dropFirst(), as: UTF8.self))
                continue
            }
            // Scope searches only where they can find something: closure parameters need a closure signature.
            if tree.census.closureSignature, let parameter = tree.nearestLocalName(at: reference.token, where: {
                $0.kind == .closureParameter && context.token($0.token, isSpelled: dollarName)
            }) {
                // A `$x in` parameter owns `$x`; a lowered one's is `_$x` (P-5).
                // `case .none =`: `==` on the enum is an outlined call for every reference.
                if case .none = reference.qualifier, reference.token != parameter.token,
                   loweredClosureParameters.contains(parameter.token) {
                    rewrite(reference.token)
                }
                continue
            }
            // D-2: a local wrapped variable `x` in scope owns an unqualified `$x`; a lowered one's is `_$x`.
            var nearestLocal: ScopeName?
            if !localWrapped.isEmpty, case .none = reference.qualifier {
                nearestLocal = tree.nearestLocalName(at: reference.token, where: {
                    localWrapped.contains($0.token) && context.token($0.token, isSpelled: dollarName.dropFirst())
                })
            }
            if let nearestLocal {
                guard loweredLocals.contains(nearestLocal.token) else { continue }
            } else if !loweredMember {
                projections.unresolved.append(String(decoding: dollarName.dropFirst(), as: UTF8.self))
                continue
            }
            rewrite(reference.token)
        }
        context.tokenEdits.reserveCapacity(context.tokenEdits.count + rewrites.count)
        let rewritten = rewriteTexts.slice
        var textStart = 0
        for index in rewrites {
            let token = tree.tokens[index]
            let textEnd = textStart + 1 + token.range.count
            context.tokenEdits.append(Edit(start: token.start, end: token.end, text: rewritten[textStart..<textEnd]))
            textStart = textEnd
        }
        context.tokenEdits.sortByStart()
        parameters.addCallEdits(to: &context)

        var mainEdits = locals.edits(context: context) + parameters.edits(context: context) + closures.edits(context: context)
            + wrappedClosures.edits(context: context)
        // Each type's edits are appended in place (an array of them per type was allocated, appended and freed), with
        // room for one per property and a few per type (isolation, memberwise init, coding keys) and the token rewrites.
        mainEdits.reserveCapacity(mainEdits.count + propertyCount + 4 * plans.count + context.tokenEdits.count)
        // All of the file's properties and memberwise inits are written into one buffer (one for each type cost an
        // allocation of a few kilobytes each), and each one's edit gets its slice once the buffer is complete.
        var texts = CodeText(capacity: 512 * propertyCount)
        var pending: [PendingText] = []
        pending.reserveCapacity(propertyCount + plans.count)
        // By index: `for plan in plans` copies each plan, retaining and releasing every array and object it holds.
        for index in plans.indices {
            render(plans[index], sendable: sendable, texts: &texts, pending: &pending, into: &mainEdits)
        }
        let rendered = texts.slice
        for property in pending { mainEdits[property.edit].text = rendered[property.text] }
        // Token rewrites inside a replaced range are already part of its text.
        // Nearly always in order already: types are rendered in the order they appear.
        var covered = mainEdits.filter { $0.end > $0.start }
        covered.sortByStart()
        var next = 0
        var reach = 0
        edits = consume mainEdits
        edits.reserveCapacity(edits.count + context.tokenEdits.count)
        for tokenEdit in context.tokenEdits {
            while next < covered.count && covered[next].start <= tokenEdit.start {
                reach = max(reach, covered[next].end)
                next += 1
            }
            if tokenEdit.end > reach { edits.append(tokenEdit) }
        }
    }

    /// Whether tokens `span` hold an `@` (of an attribute).
    private func containsAttribute(_ span: TokenSpan, tokens: [Token]) -> Bool {
        tokens.withUnsafeBufferPointer { tokens in
            (span.lower..<min(span.upper, tokens.count)).contains { tokens[$0].kind == .atSign }
        }
    }

    /// I-2: in Swift 5 mode a struct or class without isolation of its own is inferred
    /// isolated to the global actor of an instance wrapped property's `wrappedValue`
    /// (SE-0316); written out, that isolation goes on the type (`@preconcurrency
    /// @MainActor` for SwiftUI's object wrappers, as `-print-ast` shows it).
    private func inferredIsolation(_ plan: TypePlan) -> String? {
        guard swiftVersion == .swift5, plan.container == .struct || plan.container == .class else { return nil }
        if context.statesOwnIsolation(plan.type.prefix) { return nil }
        // As the wrapper declares it: `@preconcurrency @MainActor` from ObservedObject, `@MainActor` from a plain one.
        return plan.properties.lazy.filter { !$0.isStatic }.compactMap { $0.wrapper.wrappedValue.isolation }.first
    }

    /// Name tokens of wrapped variables that are not type members (locals,
    /// globals): their `$x` is theirs, not a member's.
    private func localWrappedNameTokens(types: [TypeDecl]) -> Set<Int> {
        guard context.tree.census.attributedVariableOutsideTypes else { return [] }
        var members = Set<Int>()
        for type in types {
            var declarations: [Member] = []
            var initializers: [FunctionDecl] = []
            collectMembers(type.body?.items ?? [], placement: nil, into: &declarations, initializers: &initializers)
            for member in declarations { members.insert(member.declaration.keyword) }
        }
        var result = Set<Int>()
        context.tree.forEachItem { item in
            guard case .variable(let variable) = item, !variable.prefix.attributes.isEmpty, !members.contains(variable.keyword) else { return }
            for binding in variable.bindings { if let name = binding.name { result.insert(name) } }
        }
        return result
    }

    // MARK: Analysis

    private mutating func analyze(
        _ type: TypeDecl, body: Block, extensions: [TypeDecl], declaresCodingKeys: Bool, sendable: SendableOracle,
        leftNames: inout Set<String>
    ) -> TypePlan? {
        let container: ContainerKind
        switch type.kind {
        case .struct: container = .struct
        case .class: container = .class
        case .actor: container = .actor
        case .enum: container = .enum
        case .protocol: container = .protocol
        case .extension: container = .extension
        }
        var members: [Member] = []
        members.reserveCapacity(body.items.count)
        var initializers: [FunctionDecl] = []
        collectMembers(body.items, placement: nil, into: &members, initializers: &initializers)

        var properties: [WrappedProperty] = []
        var stored: [StoredProperty] = []
        // The plain stored properties matter only to a type with a wrapped one, and most types have
        // none: those before the first wrapped one are read when it is found, skipping the members
        // listed here (left as written or refused; rare).
        var notStored: [Int] = []
        var blocked = false
        /// Some wrapped properties are left as written, none the memberwise init would need.
        var leavesProperties = false
        var otherWrapper: Attribute?
        var unknownWrappers: [Attribute] = []
        // a static wrapped property in an extension of a protocol declared in this file.
        let extendsProtocol = type.kind == .extension && context.tree.items.contains { item in
            if case .type(let declared) = item { return declared.kind == .protocol && context.text(declared.name) == context.text(type.name) }
            return false
        }
        for (index, member) in members.enumerated() {
            let (declaration, placement) = (member.declaration, member.placement)
            if extendsProtocol, context.hasModifier(.static, in: declaration.prefix),
               declaration.prefix.attributes.contains(where: { context.wrapper(of: $0) != nil }),
               let name = declaration.bindings.first?.name {
                diagnostics.append(Diagnostic(.error, at: context.tree.tokens[name].start, "static stored properties not supported in protocol extensions"))
                blocked = true
                notStored.append(index)
                continue
            }
            let verdict = analyzeProperty(declaration, in: container, placement: placement, context: context)
            if case .lower = verdict, properties.isEmpty {
                properties.reserveCapacity(members.count - index)
                stored.reserveCapacity(members.count)
                for earlier in 0..<index where !notStored.contains(earlier) {
                    appendPlainStoredProperties(members[earlier].declaration, placement: members[earlier].placement, to: &stored)
                }
            }
            switch verdict {
            case .lower(let property) where property.isStatic:
                properties.append(property)
            case .lower(let property):
                properties.append(property)
                stored.append(StoredProperty(
                    name: property.name, declaration: declaration, binding: declaration.bindings[0], wrapped: property,
                    type: property.valueType, isLet: false, access: property.access, placement: placement))
            case .leave(let diagnostic):
                diagnostics.append(diagnostic)
                // Per property: one the memberwise init leaves out (M-2) stays as written alone.
                if isOutsideMemberwiseInit(declaration) {
                    leavesProperties = true
                } else {
                    blocked = true
                }
                notStored.append(index)
                for binding in declaration.bindings { leftNames.insert(context.text(binding.pattern)) }
            case .notWrapped:
                if let unknown = declaration.prefix.attributes.first(where: { isUnknownWrapperCandidate($0, context: context) }) {
                    unknownWrappers.append(unknown)
                    // Its `$x` stays as written: not rewritten for a lowered property of the same name.
                    for binding in declaration.bindings { leftNames.insert(context.text(binding.pattern)) }
                    // Per property, as above: a wrapper dewrap does not have, on a property the memberwise init leaves out.
                    if isOutsideMemberwiseInit(declaration, wrapperKnown: false) {
                        leavesProperties = true
                        notStored.append(index)
                        continue
                    }
                    if otherWrapper == nil { otherWrapper = unknown }
                }
                if !properties.isEmpty { appendPlainStoredProperties(declaration, placement: placement, to: &stored) }
            }
        }
        guard !properties.isEmpty else {
            // Decision 7: a wrapper without a declaration is left as written, and named.
            for unknown in unknownWrappers {
                diagnostics.append(Diagnostic(.note, at: context.tree.tokens[unknown.atSign].start,
                    "'@\(attributeTypeName(unknown, context: context))' is left as written: dewrap does not have its declaration (give its source with --wrapper-sources)"))
            }
            return nil
        }
        if leavesProperties && otherWrapper == nil {
            // Decision 7: each property with a wrapper dewrap does not have is left as written, and named.
            for unknown in unknownWrappers {
                diagnostics.append(Diagnostic(.note, at: context.tree.tokens[unknown.atSign].start,
                    "'@\(attributeTypeName(unknown, context: context))' is left as written: dewrap does not have its declaration (give its source with --wrapper-sources)"))
            }
        }
        var writesMemberwise = false
        // Static properties are not the memberwise init's: a struct that lowers only those keeps its own.
        if container == .struct && initializers.isEmpty && properties.contains(where: { !$0.isStatic }) {
            // The implicit memberwise init changes with every lowered property: write it out (Decision 3).
            if blocked {
                leftNames.formUnion(properties.map(\.name))
                return nil
            }
            if let otherWrapper {
                // Its storage and memberwise parameter would need that wrapper's API (Decision 7).
                diagnostics.append(Diagnostic(.note, at: context.tree.tokens[otherWrapper.atSign].start,
                    "'\(context.text(type.name))' is left as written: dewrap does not have the declaration of '@\(attributeTypeName(otherWrapper, context: context))' (give its source with --wrapper-sources)"))
                leftNames.formUnion(properties.map(\.name))
                return nil
            }
            if let problem = memberwiseInitProblem(type: type, stored: stored, sendable: sendable, context: context) {
                diagnostics.append(problem)
                leftNames.formUnion(properties.map(\.name))
                return nil
            }
            writesMemberwise = true
        }
        if container == .class && !initializers.isEmpty && !inheritsOnlyProtocols(type) && !inheritsDeclaredClass(type)
            && initializersDependOnSuperclass(type, initializers, properties: properties, stored: stored) {
            diagnostics.append(Diagnostic(.warning, at: context.tree.tokens[type.keyword].start,
                "cannot lower '\(context.text(type.name))': assignments in its initializers depend on whether it has a superclass, which is not supported yet"))
            leftNames.formUnion(properties.map(\.name))
            return nil
        }
        // A struct's inits in its extensions initialize its stored properties too (M-1, M-8 step 1).
        var extensionInitializers: [FunctionDecl] = []
        if container == .struct {
            for typeExtension in extensions {
                var ignored: [Member] = []
                collectMembers(typeExtension.body?.items ?? [], placement: nil, into: &ignored, initializers: &extensionInitializers)
            }
            extensionInitializers.removeAll { isDelegating($0, context: context) }
        }
        if let clash = nameDeclaredDifferentlyInBranches(stored),
           (initializers + extensionInitializers).contains(where: { mentions($0, clash.name) }) {
            // An init's `self.x = v` would mean a different thing in each branch; the rewrite (N-1) has one.
            diagnostics.append(Diagnostic(.warning, at: context.tree.tokens[clash.binding.pattern.lower].start,
                "cannot lower '\(context.text(type.name))': '\(clash.name)' is declared differently in '#if' branches, and its initializers assign it, which is not supported yet"))
            leftNames.formUnion(properties.map(\.name))
            return nil
        }
        if writesMemberwise, !extensionInitializers.isEmpty, let placed = stored.first(where: { $0.placement != nil }) {
            diagnostics.append(Diagnostic(.warning, at: context.tree.tokens[placed.declarationStart].start,
                "cannot lower '\(context.text(type.name))': an init in its extension would start with initial values from an '#if' region, which is not supported yet"))
            leftNames.formUnion(properties.map(\.name))
            return nil
        }
        var codingKeys: CodingKeysPlan?
        switch planCodingKeys(
            type: type, extensions: extensions, properties: properties, stored: stored, fileDeclaresCodingKeys: declaresCodingKeys,
            writesMemberwise: writesMemberwise, context: context) {
        case .unchanged:
            break
        case .plan(let plan):
            codingKeys = plan
        case .impossible(let diagnostic):
            diagnostics.append(diagnostic)
            leftNames.formUnion(properties.map(\.name))
            return nil
        }
        // K-4: `init(from:)` is written out only where the memberwise init takes declaration values away.
        if let decoder = codingKeys?.initFromDecoder {
            if !stored.contains(where: \.losesDeclarationValue) {
                codingKeys?.initFromDecoder = nil
            } else if let problem = initFromDecoderProblem(
                type: type, stored: stored, keyOrder: decoder.keyOrder, leavesProperties: leavesProperties, context: context) {
                diagnostics.append(problem)
                leftNames.formUnion(properties.map(\.name))
                return nil
            }
        }
        return TypePlan(type: type, container: container, properties: properties, writesMemberwise: writesMemberwise,
                        leavesProperties: leavesProperties,
                        isDerivedClass: container == .class && !inheritsOnlyProtocols(type),
                        initializers: initializers, extensionInitializers: extensionInitializers, stored: stored,
                        codingKeys: codingKeys)
    }

    /// Whether `name` is one of the tokens of an init's body.
    private func mentions(_ initializer: FunctionDecl, _ name: String) -> Bool {
        guard let body = initializer.body, let close = body.close else { return false }
        return (body.open..<close).contains { context.tree.tokens[$0].kind == .identifier && context.text($0) == name }
    }

    /// A wrapped stored property of an `#if` branch whose name another branch declares without the
    /// same storage (a plain property, or another wrapper), or nil.
    private func nameDeclaredDifferentlyInBranches(_ stored: [StoredProperty]) -> StoredProperty? {
        for (index, property) in stored.enumerated() where property.placement != nil {
            for other in stored[(index + 1)...] where other.placement != nil && other.name == property.name {
                if property.wrapped?.storageType != other.wrapped?.storageType {
                    return property.wrapped != nil ? property : other
                }
            }
        }
        return nil
    }

    /// Whether the compiler's memberwise init leaves a wrapped property out (M-2): it is `private` or
    /// `fileprivate` and its storage is initialized at its declaration, by an initial value or by
    /// the wrapper attribute's arguments (`@Environment(\.dismiss) private var dismiss`). Only such a
    /// property can be left as written while the rest of its struct is lowered: the written-out
    /// memberwise init would otherwise need its type.
    private func isOutsideMemberwiseInit(_ declaration: VariableDecl, wrapperKnown: Bool = true) -> Bool {
        guard let access = context.declaredAccess(declaration.prefix), access == "private" || access == "fileprivate",
              declaration.bindings.count == 1 else { return false }
        return declaration.bindings[0].initializer != nil
            || declaration.prefix.attributes.contains {
                $0.innerArguments != nil && (wrapperKnown ? context.wrapper(of: $0) != nil : isUnknownWrapperCandidate($0, context: context))
            }
    }

    /// Whether a class's inheritance clause names no superclass: a superclass must come first, so it
    /// is enough that the first entry is a protocol, one of the standard library's or SwiftUI's that
    /// classes adopt, or one declared in the input or `--wrapper-sources`. Such a class is a root
    /// class (its inits have no `super.init` to call).
    private func inheritsOnlyProtocols(_ type: TypeDecl) -> Bool {
        guard let first = type.inheritance.first else { return true }
        return inheritedNames(first, context: context).allSatisfy { name in
            Self.knownProtocols.contains(name) || context.shapes.protocolParents[name] != nil
        }
    }

    /// Whether a class's first inheritance entry names a class declared in this file or another file
    /// of the module (by one declaration): then it certainly has that superclass.
    private func inheritsDeclaredClass(_ type: TypeDecl) -> Bool {
        guard let first = type.inheritance.first else { return false }
        let names = inheritedNames(first, context: context)
        guard names.count == 1, let name = names.first else { return false }
        if let kind = context.declarationIndex.types[name] { return kind == .class }
        if let kind = context.module?.types[name] { return kind == .class }
        return false
    }

    /// Protocols of the standard library, Foundation, Combine and SwiftUI that a class may adopt.
    private static let knownProtocols: Set<String> = [
        "ObservableObject", "Identifiable", "Hashable", "Equatable", "Comparable", "Codable", "Encodable", "Decodable",
        "Sendable", "AnyObject", "CustomStringConvertible", "CustomDebugStringConvertible", "Error", "LocalizedError",
        "CustomReflectable", "RawRepresentable", "CaseIterable", "Observable", "DynamicProperty",
    ]

    /// Whether the user inits' rewrite (N-1…N-4) would differ with a superclass and without: only
    /// then does dewrap need to know whether the class has one (an init that assigns no wrapped
    /// property before `self` is complete reads the same either way).
    private func initializersDependOnSuperclass(
        _ type: TypeDecl, _ initializers: [FunctionDecl], properties: [WrappedProperty], stored: [StoredProperty]
    ) -> Bool {
        let qualification = StaticQualification(type: type)
        let wrapped = Dictionary(properties.filter { !$0.isStatic }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let required = Set(stored.filter { !$0.isInitializedAtDeclaration }.map(\.name))
        var root = InitializerRewrite(
            context: context, required: required, wrapped: wrapped, isDerivedClass: false, qualification: qualification)
        var derived = InitializerRewrite(
            context: context, required: required, wrapped: wrapped, isDerivedClass: true, qualification: qualification)
        for initializer in initializers {
            if let body = initializer.body {
                root.rewrite(body)
                derived.rewrite(body)
            }
        }
        return root.edits.map(\.text) != derived.edits.map(\.text) || root.edits.map(\.start) != derived.edits.map(\.start)
            || root.diagnostics.map(\.message) != derived.diagnostics.map(\.message)
    }

    /// A variable declaration among a type's members, and the `#if` branch it sits in. A struct, not a
    /// tuple: an array of tuples is destroyed through the run time's generic tuple destroy, and builds
    /// the tuple's type metadata on first use (some 190,000 instructions of views-1000 in all).
    private struct Member {
        var declaration: VariableDecl
        var placement: Placement?
    }

    private func collectMembers(
        _ items: [Item], placement: Placement?, into members: inout [Member],
        initializers: inout [FunctionDecl]
    ) {
        for item in items {
            switch item {
            case .variable(let variable):
                members.append(Member(declaration: variable, placement: placement))
            case .function(let function) where function.kind == .initializer:
                initializers.append(function)
            case .ifConfig(let ifConfig):
                for (index, clause) in ifConfig.clauses.enumerated() {
                    let inner = Placement(region: ifConfig, clause: index, nested: placement != nil)
                    collectMembers(clause.items, placement: inner, into: &members, initializers: &initializers)
                }
            default:
                continue
            }
        }
    }

    /// Appends the stored properties of a declaration without a catalog wrapper
    /// (to the type's list: an array per declaration would cost an allocation each).
    private func appendPlainStoredProperties(
        _ declaration: VariableDecl, placement: Placement?, to result: inout [StoredProperty]
    ) {
        let prefix = declaration.prefix
        guard !context.hasModifier(.static, in: prefix) && !context.hasModifier(.class, in: prefix) else { return }
        let access = context.declaredAccess(prefix)
        let isLet = context.word(declaration.keyword) == .let
        let resultBuilder = prefix.attributes.isEmpty ? nil : prefix.attributes.first { context.isResultBuilder($0) }
        // By index, each binding's fields read in place: `for binding in declaration.bindings` copies each
        // binding, retaining and releasing its arrays.
        let isLazy = context.hasModifier(.lazy, in: prefix)
        for index in declaration.bindings.indices {
            var laziness: Laziness = isLazy ? .lazy : .notLazy
            if let accessors = declaration.bindings[index].accessors {
                switch accessors.content {
                case .getter: continue
                case .accessors(let list):
                    if list.contains(where: { context.word($0.keyword) != .willSet && context.word($0.keyword) != .didSet }) { continue }
                    if isLazy && !list.isEmpty { laziness = .lazyWithObservers }
                }
            }
            let binding = BindingTokens(declaration.bindings[index])
            var type = binding.type.map { context.text($0) }
            if type == nil, let initializer = binding.initializer {
                type = context.inferredType(of: initializer)
            }
            // A tuple pattern cannot be written out yet: no type makes the plan refuse it.
            if binding.name == nil { type = nil }
            result.append(StoredProperty(
                name: context.text(binding.pattern), declaration: declaration, binding: declaration.bindings[index], wrapped: nil,
                type: type, isLet: isLet, laziness: laziness, access: access, placement: placement,
                resultBuilder: resultBuilder.map { TokenSpan($0.atSign, $0.name.upper) }))
        }
    }

    // MARK: Rendering

    /// Appends the type's edits to `result`. Its properties and memberwise inits are written into `texts`,
    /// and their edits, whose text is a slice of it, listed in `pending` for when it is complete.
    private mutating func render(
        _ plan: TypePlan, sendable: SendableOracle, texts: inout CodeText, pending: inout [PendingText],
        into result: inout [Edit]
    ) {
        let tokens = context.tree.tokens
        // Its members are read only if a copied expression names something that could be one.
        let qualification = StaticQualification(type: plan.type)
        // Rendered now that `$x` rewrites are known, so copied defaults carry them.
        let memberwise = plan.writesMemberwise
            ? planMemberwiseInit(
                type: plan.type, stored: plan.stored, sendable: sendable, qualification: qualification,
                kept: plan.codingKeys?.initFromDecoder == nil ? plan.codingKeys?.keptInitializers ?? PropertyNames() : PropertyNames(),
                leavesProperties: plan.leavesProperties,
                context: context, into: &texts) : nil
        // The key path root of the enclosing-instance subscript, which only a class's properties use.
        let typeName = plan.container != .class ? "" : context.text(plan.type.name) + (plan.type.genericParameters.map {
            "<" + genericParameterNames(context.text($0)).joined(separator: ", ") + ">"
        } ?? "")
        // Taken out once: read through the optional plan, it was copied (and released) for every property.
        let strippedWrapped = memberwise?.strippedWrapped
        for property in plan.properties {
            let stripped = strippedWrapped?.contains(property.declaration.prefix.start) ?? false
            let start = texts.count
            renderProperty(
                property, container: plan.container, typeName: typeName, writesStorageInitializer: !stripped, context: context,
                to: &texts)
            pending.append(PendingText(edit: result.count, text: start..<texts.count))
            result.append(Edit(start: tokens[property.declaration.prefix.start].start,
                               end: tokens[property.declaration.span.upper - 1].end, text: []))
        }
        if let isolation = inferredIsolation(plan) {
            let start = tokens[plan.type.prefix.start].start
            result.append(Edit(start: start, end: start, text: Array((isolation + " ").utf8)))
        }
        if let memberwise {
            result += memberwise.strippedInitializers
            pending.append(PendingText(edit: result.count, text: memberwise.text))
            result.append(Edit(start: memberwise.insertionPoint, end: memberwise.insertionPoint, text: []))
        }
        if let memberwise, let decoder = plan.codingKeys?.initFromDecoder {
            let start = texts.count
            writeInitFromDecoder(
                type: plan.type, stored: plan.stored, keyOrder: decoder.keyOrder, memberwise: memberwise,
                qualification: qualification, context: context, into: &texts)
            pending.append(PendingText(edit: result.count, text: start..<texts.count))
            result.append(Edit(start: memberwise.insertionPoint, end: memberwise.insertionPoint, text: []))
        }
        if let insertion = plan.codingKeys?.insertion {
            result.append(insertion)
        }
        if let memberwise {
            for initializer in plan.extensionInitializers {
                let start = texts.count
                guard let prologue = extensionInitPrologue(
                    for: initializer, stored: plan.stored, plan: memberwise, qualification: qualification, context: context,
                    into: &texts) else { continue }
                pending.append(PendingText(edit: result.count, text: start..<texts.count))
                result.append(prologue)
            }
        }
        if !plan.initializers.isEmpty || !plan.extensionInitializers.isEmpty {
            let wrapped = Dictionary(plan.properties.filter { !$0.isStatic }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let required = Set(plan.stored.filter { !$0.isInitializedAtDeclaration }.map(\.name))
            var rewrite = InitializerRewrite(
                context: context, required: required, wrapped: wrapped,
                isDerivedClass: plan.isDerivedClass, qualification: qualification)
            for initializer in plan.initializers + plan.extensionInitializers {
                if let body = initializer.body { rewrite.rewrite(body) }
            }
            result += rewrite.edits
            diagnostics += rewrite.diagnostics
        }
    }
}
