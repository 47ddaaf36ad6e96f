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
    /// Member names lowered in one file of the module and left as written in another (by name:
    /// where): a `$x` of such a name that this file leaves as written may name either property,
    /// which dewrap cannot tell without types, and is reported with a warning.
    public var moduleAmbiguous: [String: AmbiguousProjection] = [:]
    /// `Projections.projectionMembers` of the module's other files, merged (`projectionMembersAcrossFiles`).
    public var moduleProjectionMembers: [String: Set<String>] = [:]
    /// Set when the run rewrites calls of functions with wrapped parameters across its files
    /// (issue 21): the functions lowered in its other files, and those it refuses. Nil: a
    /// function that another file names is left as written.
    public var moduleCalls: ModuleCalls?
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
        /// Functions with wrapped parameters this file lowered that other files of the module name
        /// (with `LoweringOptions.moduleCalls` only): their calls there must be rewritten.
        public var functions: [ModuleFunction] = []
        /// Names of `moduleCalls` functions whose calls this file rewrote.
        public var called: [String] = []
        /// Uses of `moduleCalls` functions this file could not rewrite: those functions must be left.
        public var unmatched: [UnmatchedCall] = []
        /// For a lowered member whose projection is its wrapper itself (Fluent's `@Parent var star`), the
        /// wrapper's own wrapped properties (`id`): `$star.$id` names the wrapper's, never a lowered `id`.
        public var projectionMembers: [String: Set<String>] = [:]
    }
}

/// Where a member name of a module is lowered and where it is left as written (`LoweringOptions.moduleAmbiguous`).
public struct AmbiguousProjection: Sendable, Equatable {
    /// A file that lowers a property of that name.
    public var loweredIn: String
    /// A file that leaves one as written.
    public var leftIn: String

    public init(loweredIn: String, leftIn: String) {
        self.loweredIn = loweredIn
        self.leftIn = leftIn
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
    let namesModuleFunction =
        options.moduleCalls?.functions.contains {
            wordOccurrences(of: Array($0.name.utf8), in: source) > 0
        } ?? false
    if source.count <= Lexer.maximumInputSize && !mayHaveWrapperAttribute(source)
        && (options.moduleProjections.isEmpty && options.moduleAmbiguous.isEmpty || !usesDollarNames) && !namesModuleFunction
    {
        var result = LoweringResult(output: source, diagnostics: [])
        result.projections.unread = usesDollarNames
        return result
    }
    // A file of the module whose declarations were read was lexed then.
    let lexed = options.module?.takeLexed(source) ?? Lexer.lex(source)
    guard source.count <= Lexer.maximumInputSize else {
        return LoweringResult(output: source, diagnostics: lexed.diagnostics)
    }
    guard
        mayUseWrappers(lexed.tokens, in: source)
            || (!options.moduleProjections.isEmpty || !options.moduleAmbiguous.isEmpty) && usesDollarNames
            || namesModuleFunction
    else {
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
    // Handed over: a copy left behind would be destroyed unused, through its value witnesses.
    var lowering = FileLowering(
        context: consume context, swiftVersion: options.swiftVersion, moduleProjections: options.moduleProjections,
        moduleAmbiguous: options.moduleAmbiguous, moduleProjectionMembers: options.moduleProjectionMembers,
        moduleCalls: options.moduleCalls)
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
    lowering.edits = [] // `edits` is then the only owner
    carryComments(into: &edits, context: lowering.context)
    if let name = options.lineDirectives {
        edits += lineDirectiveEdits(for: edits, source: source, fileName: fileName, sourceName: name, context: lowering.context)
    }
    // Sorted once, for the changed ranges, the overlap check and the splice.
    let order = sortedOrder(edits)
    let changes = order.map { edits[$0].start..<edits[$0].end }
    // Rewrites must not overlap; if they ever do, no byte may be lost: keep the file as it is.
    if zip(changes, changes.dropFirst()).contains(where: { $0.upperBound > $1.lowerBound }) {
        diagnostics.append(
            Diagnostic(
                .warning, at: changes.first?.lowerBound ?? 0,
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
