import DewrapSyntax

/// A stored property of a struct, as the memberwise init sees it (M-2…M-6).
/// It keeps token positions, not the declaration's syntax: a copy of that
/// retains (and its release releases) every array it holds.
///
/// A struct, kept in its type's array: as a class, one object a property was
/// allocated and freed. A copy retains its
/// Strings and references, so loops read its fields in place (`renderInits`
/// walks a buffer: `array[i].field` calls the array's getter, a whole copy).
struct StoredProperty {
    let name: String
    /// The declaration's first token (attribute, modifier or keyword) and all its tokens.
    let declarationStart: Int
    let declarationSpan: TokenSpan
    let binding: BindingTokens
    let wrapped: WrappedProperty?
    /// The property's type, written or inferred; nil when unknown.
    let type: String?
    let isLet: Bool
    /// `lazy var`: the compiler's memberwise parameter is `T? = nil` and sets the lazy storage
    /// only when given a value; its initializer stays on the declaration.
    let laziness: Laziness
    let access: String?
    let placement: Placement?
    /// Included in the memberwise init (M-2). Decided once: the inits ask it several
    /// times a property, and for a wrapped one it compares access Strings.
    let isIncluded: Bool
    /// A result builder attribute (`@ViewBuilder`), which its memberwise parameter carries too (M-4).
    let resultBuilder: TokenSpan?

    init(
        name: String, declaration: VariableDecl, binding: PatternBinding, wrapped: WrappedProperty?, type: String?,
        isLet: Bool, laziness: Laziness = .notLazy, access: String?, placement: Placement?,
        resultBuilder: TokenSpan? = nil
    ) {
        self.name = name
        declarationStart = declaration.prefix.start
        declarationSpan = declaration.span
        self.binding = BindingTokens(binding)
        self.wrapped = wrapped
        self.type = type
        self.isLet = isLet
        self.laziness = laziness
        self.access = access
        self.placement = placement
        self.resultBuilder = resultBuilder
        if let wrapped {
            isIncluded = !(wrapped.isBelowInternal && wrapped.storageInitializedAtDeclaration)
        } else {
            isIncluded = !(isLet && binding.initializer != nil)
        }
    }

    /// Has a value written at its declaration that the memberwise init's plan would move: an initial
    /// value, or a wrapped property's storage construction (V-1…V-3b).
    var hasDeclarationValue: Bool {
        if let wrapped { return wrapped.storageInitializedAtDeclaration }
        return binding.initializer != nil
    }

    /// The written-out memberwise init takes its declaration value away (M-8 step 1; a lazy
    /// property keeps its own), unless synthesized `init(from:)` keeps it there (K-1). (Step 4
    /// takes one it leaves out only after such a one.)
    var losesDeclarationValue: Bool {
        isIncluded && laziness == .notLazy && hasDeclarationValue
    }

    /// Has an initial value or is default-initialized (M-7).
    var isInitializedAtDeclaration: Bool {
        if let wrapped { return wrapped.storageInitializedAtDeclaration }
        // The marks are ASCII and end the type: its last byte, not a Character comparison.
        let last = type?.utf8.last
        return binding.initializer != nil || (!isLet && (last == UInt8(ascii: "?") || last == UInt8(ascii: "!")))
    }
}

/// Whether a plain stored property is `lazy`, and whether it also has observers (which the
/// compiler's memberwise init bypasses by setting the lazy storage, and written-out code cannot).
enum Laziness {
    case notLazy, lazy, lazyWithObservers
}

/// The token positions of a `PatternBinding` (without its closures and accessors).
struct BindingTokens {
    var pattern: TokenSpan
    /// The name token when the pattern is a single identifier.
    var name: Int?
    /// The type after `:`.
    var type: TokenSpan?
    /// The expression after `=`.
    var initializer: TokenSpan?

    init(_ binding: PatternBinding) {
        pattern = binding.pattern
        name = binding.name
        type = binding.type
        initializer = binding.initializer
    }
}

/// The explicit memberwise init and `init()` for a struct whose implicit
/// ones lowering would change (Decision 3, M-8 steps 1–3 and 5).
struct MemberwisePlan {
    /// Where the inits go: after the last stored property (or the `#if` region holding them).
    var insertionPoint: Int
    /// The inits' text, in the buffer they were written to (the file's rendered text: a
    /// buffer of their own cost an allocation of a kilobyte for every type).
    var text: Range<Int>
    /// Initializers removed from included plain properties (M-8 step 1).
    var strippedInitializers: [Edit]
    /// Wrapped properties whose storage loses its declaration initializer.
    var strippedWrapped: StrippedDeclarations
}

/// A few values about one type's properties, asked about one by one: a short list, where a `Set`
/// hashes each value on insertion and again on every question (two small Strings compare in a few
/// instructions, and a name asked about is usually the very String inserted, which compares at once).
struct ShortList<Element: Equatable> {
    private var elements: [Element] = []

    mutating func insert(_ element: Element) {
        // Room for a type's few at the first: growing from one costs an allocation per doubling.
        if elements.capacity == 0 { elements.reserveCapacity(8) }
        elements.append(element)
    }

    func contains(_ element: Element) -> Bool {
        elements.contains(element)
    }

    var isEmpty: Bool { elements.isEmpty }
}

/// The declarations (by their first token) whose storage lost its initializer. By declaration, not
/// name: under `#if`, one branch's `x` may be included in its memberwise init and lose its
/// initializer while the other branch's `x` is left out of its own and keeps it.
typealias StrippedDeclarations = ShortList<Int>

/// Property names (the values K-1 keeps at their declarations).
typealias PropertyNames = ShortList<String>

/// Why the memberwise init of a struct cannot be written out, if it cannot:
/// checked while analysing, before anything is rendered.
func memberwiseInitProblem(
    type: TypeDecl, stored: [StoredProperty], sendable: SendableOracle, context: SourceContext
) -> Diagnostic? {
    let tree = context.tree
    let regions = stored.compactMap(\.placement)
    if let nested = regions.first(where: \.nested) ?? regions.first(where: { $0.region.span != regions[0].region.span }) {
        return Diagnostic(
            .warning, at: tree.tokens[nested.region.span.lower].start,
            "cannot lower '\(context.text(type.name))': its memberwise initializer would depend on more than one '#if' region, which is not supported yet"
        )
    }
    if let untyped = stored.first(where: { $0.type == nil && ($0.isIncluded || $0.binding.initializer == nil) }) {
        return Diagnostic(
            .warning, at: tree.tokens[untyped.binding.pattern.lower].start,
            "cannot lower '\(untyped.name)': its type cannot be read from the source; add a type annotation")
    }
    if stored.isEmpty {
        return Diagnostic(.warning, at: tree.tokens[type.keyword].start, "cannot lower '\(context.text(type.name))'")
    }
    if let lazy = stored.first(where: { $0.isIncluded && $0.laziness != .notLazy }) {
        let at = tree.tokens[lazy.binding.pattern.lower].start
        // The compiler's init sets the lazy storage, which neither runs observers nor needs the type's actor;
        // written-out code can only go through the setter.
        if lazy.laziness == .lazyWithObservers {
            return Diagnostic(
                .warning, at: at,
                "cannot lower '\(context.text(type.name))': its memberwise initializer would run the observers of lazy '\(lazy.name)', which the compiler's does not"
            )
        }
        let configurations = regions.first.map { region in region.region.clauses.indices.map { Optional($0) } + [nil] } ?? [nil]
        for clause in configurations {
            let configuration = stored.filter { $0.placement == nil || $0.placement?.clause == clause }
            let nonisolated = configuration.withUnsafeBufferPointer {
                memberwiseInitsAreNonisolated(type: type, stored: $0, sendable: sendable, context: context)
            }
            if nonisolated && configuration.contains(where: { $0.isIncluded && $0.laziness != .notLazy }) {
                return Diagnostic(
                    .warning, at: at,
                    "cannot lower '\(context.text(type.name))': its nonisolated memberwise initializer would set lazy '\(lazy.name)', an isolated property"
                )
            }
        }
    }
    return nil
}

/// The written-out inits for a struct that `memberwiseInitProblem` passed, written to `text`.
/// `qualification` gives the type's members named in copied initial values and attribute arguments `Self.` in the bodies.
/// `kept`: properties whose value stays at the declaration (see `CodingKeysPlan.keptInitializers`).
func planMemberwiseInit(
    type: TypeDecl, stored: [StoredProperty], sendable: SendableOracle, qualification: StaticQualification,
    kept: PropertyNames, leavesProperties: Bool = false, context: SourceContext, into text: inout CodeText
) -> MemberwisePlan {
    let tree = context.tree
    let regions = stored.compactMap(\.placement)
    // Where the indentation lies in the source: written from there, no String made of it.
    // The fields are read in place: `stored[0]` or `stored.last!` held in a constant was a copy of the property.
    let indent = context.indentationRange(of: stored[0].declarationStart)
    let eol = context.lineEnding
    var end = tree.tokens[stored[stored.count - 1].declarationSpan.upper - 1].end
    let textStart = text.count
    var stripped: [Edit] = []
    var strippedWrapped = StrippedDeclarations()
    if let region = regions.first?.region {
        // M-9: one init per configuration, under the same `#if` structure, after the region.
        end = max(end, tree.tokens[region.span.upper - 1].end)
        let directiveIndent = context.indentation(of: region.span.lower)
        var clauses = region.clauses.enumerated().map { index, clause in
            (directive: context.text(TokenSpan(clause.keyword, clause.condition?.upper ?? clause.keyword + 1)), index: Optional(index))
        }
        if !region.clauses.contains(where: { $0.condition == nil }) { clauses.append((directive: "#else", index: nil)) }
        text += eol
        for clause in clauses {
            let configuration = stored.filter { $0.placement == nil || $0.placement?.clause == clause.index }
            text.write(eol, directiveIndent, clause.directive)
            stripped += configuration.withUnsafeBufferPointer { configuration in
                renderInits(
                    type: type, stored: configuration, indent: indent, sendable: sendable, qualification: qualification,
                    kept: kept, leavesProperties: leavesProperties, movesExcludedValues: false, context: context, into: &text,
                    strippedWrapped: &strippedWrapped)
            }
        }
        text.write(eol, directiveIndent, "#endif")
        // Unconditional properties appear in every configuration: strip them once.
        var seen = Set<Int>()
        stripped = stripped.filter { seen.insert($0.start).inserted }
    } else {
        // A comment that ends the last property's line stays on it (`var flag: Bool // shown`).
        end = context.endOfTrailingLineComment(after: end)
        text += eol
        stripped = stored.withUnsafeBufferPointer { stored in
            renderInits(
                type: type, stored: stored, indent: indent, sendable: sendable, qualification: qualification,
                kept: kept, leavesProperties: leavesProperties, context: context, into: &text,
                strippedWrapped: &strippedWrapped)
        }
    }
    return MemberwisePlan(
        insertionPoint: end, text: textStart..<text.count, strippedInitializers: stripped,
        strippedWrapped: strippedWrapped)
}

/// Whether the written-out inits for one set of stored properties are `nonisolated` (I-3, I-4):
/// the type is global-actor isolated and nothing in them needs its actor.
func memberwiseInitsAreNonisolated(
    type: TypeDecl, stored: UnsafeBufferPointer<StoredProperty>, sendable: SendableOracle, context: SourceContext
) -> Bool {
    guard isGlobalActorIsolated(type, context: context) else { return false }
    for index in stored.indices {
        if !sendable.isSendable(stored[index].wrapped?.storageType ?? stored[index].type ?? "") { return false }
        // An autoclosure's value is not evaluated by the memberwise init, nor a lazy property's initializer.
        if let initializer = stored[index].binding.initializer, stored[index].wrapped?.wrapper.wrappedValueIsAutoclosure != true,
            stored[index].laziness == .notLazy, !isActorFree(initializer, sendable: sendable, context: context)
        {
            return false
        }
        // SPEC Corrections, I-4: passing a value to an isolated `init(wrappedValue:)` (ObservedObject's) from a
        // written-out `nonisolated` init fails a real build ("sending … risks causing data races").
        if let wrapped = stored[index].wrapped, stored[index].isIncluded, wrapped.takesWrappedValueParameter,
            wrapped.wrapper.initWrappedValueIsIsolated
        {
            return false
        }
    }
    return true
}

/// `init()` (M-7, when it exists) and the memberwise init for one set of
/// stored properties, each on its own lines after a line break, written to
/// `text`. Returns the initializers to strip from plain properties, and adds
/// the wrapped ones whose storage loses its initializer to `strippedWrapped`.
///
/// Written straight into `text`, in order: one pass over the properties for
/// what the signatures say (access, isolation, whether `init()` exists), then
/// one for each signature and body. Each property's piece is written where it
/// goes rather than into a text of its own to be copied after. The properties
/// are read in place through a buffer (see `StoredProperty`).
private func renderInits(
    type: TypeDecl, stored: UnsafeBufferPointer<StoredProperty>, indent: Range<Int>, sendable: SendableOracle,
    qualification: StaticQualification, kept: PropertyNames, leavesProperties: Bool, movesExcludedValues: Bool = true,
    context: SourceContext, into text: inout CodeText, strippedWrapped: inout StrippedDeclarations
) -> [Edit] {
    let tree = context.tree
    let unit = context.indentUnit

    var stripped: [Edit] = []
    var accessRank = 3 // internal; lower ranks are narrower
    var hasParameters = false
    var allInitializedAtDeclaration = true
    // A property left as written is a stored property whose type dewrap does not know: it may not be Sendable,
    // so the inits stay isolated (SPEC Corrections, I-4; L-4: uncertain means isolated).
    let isNonisolated =
        !leavesProperties
        && memberwiseInitsAreNonisolated(type: type, stored: stored, sendable: sendable, context: context)

    var valuesMovedBefore = false
    for index in stored.indices {
        if allInitializedAtDeclaration && !stored[index].isInitializedAtDeclaration { allInitializedAtDeclaration = false }
        // M-8 step 4: a wrapped property the memberwise init leaves out (`@State private var x = …`)
        // keeps its value at the declaration, which every init evaluates first. Where a value the
        // inits evaluate comes before it, it is given its value in the inits too, in declaration
        // order, as the compiler's inits do. Not under `#if` (M-9): a value taken off its declaration
        // for one configuration would be missing from the inits of another.
        if !stored[index].isIncluded, movesExcludedValues, valuesMovedBefore, let wrapped = stored[index].wrapped,
            wrapped.storageInitializedAtDeclaration, !kept.contains(stored[index].name)
        {
            strippedWrapped.insert(stored[index].declarationStart)
        }
        guard stored[index].isIncluded else { continue }
        if stored[index].laziness == .notLazy && stored[index].hasDeclarationValue && !kept.contains(stored[index].name) {
            valuesMovedBefore = true
        }
        hasParameters = true
        switch stored[index].access {
        case "private": accessRank = 1
        case "fileprivate": accessRank = min(accessRank, 2)
        default: break
        }
        // The storage's construction at its declaration moves into the inits (M-4, M-5): it has one
        // exactly when `writeStorageInitializer` writes one (checked where it is written, below).
        // One that synthesized `init(from:)` needs keeps it (K-1): the memberwise init then evaluates it too.
        if let wrapped = stored[index].wrapped, wrapped.storageInitializedAtDeclaration, !kept.contains(stored[index].name) {
            strippedWrapped.insert(stored[index].declarationStart)
        }
    }

    // SE-0434 in Swift 6: the compiler's parameters have global-actor function types `@Sendable`.
    func parameterType(_ type: String) -> String {
        context.swiftVersion == .swift6 ? sendableGlobalActorFunctions(type) : type
    }
    let typeLine = context.mappedLine(of: type.keyword)
    let newLine = context.lineBreak(mappedTo: typeLine)
    let lineEnding = context.lineEnding
    // A line break and the indentation, then `nonisolated`, the access and `init`.
    // The memberwise init takes the narrowest access of its parameters (M-3); `init()` has none and stays
    // internal (`struct S { private var p = 1 }` has `internal init()` and `private init(p:)`).
    func startInit(_ name: StaticString, hasParameters: Bool = true) {
        text += newLine
        text.write(context.bytes, indent)
        if isNonisolated { text.write(literal: "nonisolated ") }
        if hasParameters {
            if accessRank == 1 { text.write(literal: "private ") } else if accessRank == 2 { text.write(literal: "fileprivate ") }
        }
        text.write(literal: name)
    }
    // A body: ` {`, each statement on a line of its own (in directive mode mapped to its
    // property's line, the closing brace to the struct's), `}`; ` {}` when it has none.
    var bodyStart = 0
    var statementStart = 0
    func openBody() {
        bodyStart = text.count
        text.write(literal: " {")
    }
    /// With `alignedLine` (the line of an initial value the statement copies, `SourceContext.alignedLine(of:)`),
    /// mapped to the line before it: the value then goes on a line of its own.
    func startStatement(at declarationStart: Int, alignedLine: Int? = nil) {
        statementStart = text.count
        if context.lineDirectives == nil {
            text += lineEnding
        } else {
            text += context.lineBreak(mappedTo: alignedLine.map { $0 - 1 } ?? context.mappedLine(of: declarationStart))
        }
        text.write(context.bytes, indent)
        text += unit
    }
    func closeBody() {
        if text.count == bodyStart + 2 {
            text.write(literal: "}")
        } else {
            text += newLine
            text.write(context.bytes, indent)
            text.write(literal: "}")
        }
    }

    // M-7: `init()` too, when every stored property has a value without arguments.
    if allInitializedAtDeclaration && hasParameters {
        startInit("init()", hasParameters: false)
        openBody()
        // A value kept at its declaration is evaluated there, once; a lazy property is left to its first use.
        for index in stored.indices
        where (stored[index].isIncluded || strippedWrapped.contains(stored[index].declarationStart))
            && !kept.contains(stored[index].name) && stored[index].laziness == .notLazy
        {
            if let wrapped = stored[index].wrapped {
                let alignedLine = context.alignedLine(of: wrapped.initializer)
                startStatement(at: stored[index].declarationStart, alignedLine: alignedLine)
                text.write(literal: "self._")
                text += wrapped.name
                text.write(literal: " = ")
                // None without a construction at the declaration: the statement is taken back.
                let written = writeStorageInitializer(
                    for: wrapped, qualifying: qualification, alignedTo: alignedLine == nil ? nil : wrapped.initializer,
                    context: context, to: &text)
                assert(written == wrapped.storageInitializedAtDeclaration)
                if !written { text.truncate(to: statementStart) }
            } else if let initializer = stored[index].binding.initializer {
                let alignedLine = context.alignedLine(of: initializer)
                startStatement(at: stored[index].declarationStart, alignedLine: alignedLine)
                text.write(literal: "self.")
                text += stored[index].name
                text.write(literal: " =")
                if alignedLine == nil { text.write(literal: " ") } else { context.writeAlignment(of: initializer, to: &text) }
                text.append(initializer, from: context, qualifying: qualification)
            }
        }
        closeBody()
        if context.lineDirectives == nil { text += lineEnding }
    }

    startInit("init(")
    var isFirstParameter = true
    for index in stored.indices where stored[index].isIncluded {
        if !isFirstParameter { text.write(literal: ", ") }
        isFirstParameter = false
        let name = stored[index].name
        if let wrapped = stored[index].wrapped {
            // M-4, M-5: the wrapped type (an autoclosure for an autoclosure init) with its value as the
            // default, or the wrapper type with the storage's construction as the default.
            if wrapped.takesWrappedValueParameter {
                let autoclosure = wrapped.wrapper.wrappedValueIsAutoclosure
                let valueType = nilLiteralParameterType(wrapped, context: context) ?? wrapped.storageValueType
                text += name
                text.write(literal: ": ")
                if autoclosure {
                    text.write(literal: "@autoclosure @escaping () -> ")
                } else if let written = stored[index].binding.type, context.isFunctionType(written) {
                    text.write(literal: "@escaping ") // M-4, as for a plain property
                }
                text += parameterType(valueType)
                if let initializer = wrapped.initializer {
                    text.write(literal: " = ")
                    text.append(initializer, from: context)
                } else if wrapped.isOptional {
                    text.write(literal: " = nil")
                }
            } else {
                text += name
                text.write(literal: ": ")
                text += parameterType(wrapped.storageType)
                let defaultStart = text.count
                text.write(literal: " = ")
                let written = writeStorageInitializer(for: wrapped, context: context, to: &text)
                assert(written == wrapped.storageInitializedAtDeclaration)
                if !written { text.truncate(to: defaultStart) }
            }
        } else if stored[index].laziness != .notLazy {
            // The compiler's parameter sets the lazy storage, `T?`; its initializer stays where it is.
            text += name
            text.write(literal: ": ")
            text += optionalType(stored[index].type ?? "")
            text.write(literal: " = nil")
        } else {
            let type = stored[index].type ?? ""
            if let builder = stored[index].resultBuilder {
                text.append(builder, from: context)
                text.write(literal: " ")
            }
            text += name
            text.write(literal: ": ")
            // M-4: a function-typed property is taken `@escaping` (only a written type can be one).
            if let written = stored[index].binding.type, context.isFunctionType(written) { text.write(literal: "@escaping ") }
            text += parameterType(type)
            if let initializer = stored[index].binding.initializer {
                text.write(literal: " = ")
                text.append(initializer, from: context)
                // M-8 step 1: the init assigns it, so the declaration must not evaluate it too.
                if !kept.contains(name) {
                    let before = stored[index].binding.type?.upper ?? stored[index].binding.pattern.upper
                    let start = tree.tokens[before - 1].end
                    let end = tree.tokens[initializer.upper - 1].end
                    stripped.append(Edit(start: start, end: end, text: Array((stored[index].binding.type == nil ? ": \(type)" : "").utf8)))
                }
            } else if !stored[index].isLet && (type.hasSuffix("?") || type.hasSuffix("!")) {
                text.write(literal: " = nil")
            }
        }
    }
    text.write(literal: ")")
    openBody()
    for index in stored.indices where stored[index].laziness == .notLazy {
        let name = stored[index].name
        if !stored[index].isIncluded {
            // M-8 step 4: its value, where the compiler's init evaluates it.
            guard let wrapped = stored[index].wrapped, strippedWrapped.contains(stored[index].declarationStart) else { continue }
            let alignedLine = context.alignedLine(of: wrapped.initializer)
            startStatement(at: stored[index].declarationStart, alignedLine: alignedLine)
            text.write("self._", wrapped.name, " = ")
            _ = writeStorageInitializer(
                for: wrapped, qualifying: qualification, alignedTo: alignedLine == nil ? nil : wrapped.initializer,
                context: context, to: &text)
            continue
        }
        startStatement(at: stored[index].declarationStart)
        if let wrapped = stored[index].wrapped {
            text.write(literal: "self._")
            text += wrapped.name
            text.write(literal: " = ")
            if wrapped.takesWrappedValueParameter {
                let autoclosure = wrapped.wrapper.wrappedValueIsAutoclosure
                _ = writeStorageInitializer(
                    for: wrapped, value: autoclosure ? name + "()" : name, qualifying: qualification, context: context, to: &text)
            } else {
                text += name
            }
        } else {
            text.write(literal: "self.")
            text += name
            text.write(literal: " = ")
            text += name
        }
    }
    // A lazy property given a value: through its setter, so only once `self` is initialized (last);
    // the setter has no effect but storing (`memberwiseInitProblem` refuses one with observers).
    for index in stored.indices where stored[index].isIncluded && stored[index].laziness != .notLazy {
        startStatement(at: stored[index].declarationStart)
        let name = stored[index].name
        text.write("if let ", name, " { self.", name, " = ", name)
        text.write(literal: " }")
    }
    closeBody()
    return stripped
}

/// `type?` as a type: in parentheses when `?` would bind to a part of it (`(() -> Void)?`,
/// `(any P)?`); `T!` becomes `T??`, as the compiler writes a lazy `T!`'s parameter.
func optionalType(_ type: String) -> String {
    if type.hasSuffix("!") { return type.dropLast() + "??" }
    var depth = 0
    for byte in type.utf8 {
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"): depth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: ">"): depth -= 1
        case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "&"), UInt8(ascii: "@"):
            // At the top level only: `[String: Int]` needs no parentheses.
            if depth == 0 { return "(" + type + ")?" }
        default: break
        }
    }
    return type + "?"
}

/// `@MainActor` on the type, or a `View` conformance (I-3).
func isGlobalActorIsolated(_ type: TypeDecl, context: SourceContext) -> Bool {
    type.prefix.attributes.contains { context.span($0.name, isSpelled: "MainActor") }
        || type.inheritance.contains { context.span($0, isSpelled: "View") || context.span($0, isSpelled: "SwiftUI.View") }
}

/// Literals and collections of them, inits of the standard library's value
/// types, of the SDK catalog's (`Color.red`, `CGSize.zero`) and of same-file
/// types without global-actor isolation, members of their results
/// (`Date().description`), and operators on all of these certainly run
/// without an actor. A free function might not.
private func isActorFree(_ span: TokenSpan, sendable: SendableOracle, context: SourceContext) -> Bool {
    // A closure literal: making it runs none of its body (its isolation is its type's).
    if context.tree.tokens[span.lower].kind == .leftBrace, context.closingIndex(from: span.lower) == span.upper - 1 { return true }
    // Tokens and bytes read through buffers taken once: an initializer is asked about token by token.
    return context.tree.tokens.withUnsafeBufferPointer { tokens in
        context.bytes.withUnsafeBufferPointer { bytes in
            for i in span.lower..<span.upper {
                switch tokens[i].kind {
                case .identifier where i > span.lower && tokens[i - 1].kind == .period:
                    continue // a member of an actor-free value or type
                case .period where i > span.lower, .binaryOperator, .postfixQuestionMark, .exclamationMark:
                    continue
                case .identifier
                where i + 1 < span.upper && tokens[i + 1].kind == .colon && i > span.lower
                    && (tokens[i - 1].kind == .leftParen || tokens[i - 1].kind == .comma):
                    continue // an argument label
                case .identifier:
                    let name = UnsafeBufferPointer(rebasing: bytes[tokens[i].range])
                    if sendable.isActorFreeType(named: name) || SendableOracle.standardValueTypes.contains(name)
                        || context.isSDKValueType(named: name)
                    {
                        continue
                    }
                    return false
                case .leftParen, .rightParen:
                    continue
                case .integerLiteral, .floatLiteral, .stringStart, .stringSegment, .stringEnd, .leftSquare, .rightSquare, .comma,
                    .colon:
                    continue
                case .prefixOperator where context.token(i, isSpelled: "-"):
                    continue
                case .keyword:
                    switch tokens[i].word {
                    case .true, .false, .nil: continue
                    default: return false
                    }
                default:
                    return false
                }
            }
            return true
        }
    }
}

/// `= nil` with a wrapper whose matching `init(wrappedValue:…)` takes
/// `_OptionalNilComparisonType`: the compiler's memberwise parameter has that type.
private func nilLiteralParameterType(_ property: WrappedProperty, context: SourceContext) -> String? {
    guard let initializer = property.initializer, initializer.upper - initializer.lower == 1,
        context.word(initializer.lower) == .nil
    else { return nil }
    return property.wrapper.nilInitialValueParameterType(
        callLabels: ["wrappedValue"] + argumentLabels(property.attributeArguments, context: context))
}

/// The labels of a call's arguments (`_` for none), read from its tokens.
func argumentLabels(_ arguments: TokenSpan?, context: SourceContext) -> [String] {
    guard let arguments, !arguments.isEmpty else { return [] }
    let tokens = context.tree.tokens
    var labels: [String] = []
    var depth = 0
    var argumentStart = arguments.lower
    for index in arguments.lower...arguments.upper {
        if index == arguments.upper || (depth == 0 && tokens[index].kind == .comma) {
            let isLabel =
                argumentStart + 1 < index && tokens[argumentStart + 1].kind == .colon
                && [.identifier, .keyword, .wildcard].contains(tokens[argumentStart].kind)
            labels.append(isLabel ? context.text(argumentStart) : "_")
            argumentStart = index + 1
            continue
        }
        switch tokens[index].kind {
        case .leftParen, .leftSquare, .leftBrace, .interpolationStart: depth += 1
        case .rightParen, .rightSquare, .rightBrace, .interpolationEnd: depth -= 1
        default: break
        }
    }
    return labels
}

/// SPEC Corrections, M-8 step 1: a non-delegating init in an extension starts with every
/// stored property that has a declaration initializer already initialized. Where the
/// memberwise plan moved those initializers into its inits, such an init begins with
/// them instead (step 4's prologue), so that its own assignments mean what they meant.
/// The statements, each on a line of its own, to insert after the body's `{`; empty
/// when the plan stripped nothing.
func extensionInitPrologue(
    for initializer: FunctionDecl, stored: [StoredProperty], plan: MemberwisePlan, qualification: StaticQualification,
    context: SourceContext, into text: inout CodeText
) -> Edit? {
    guard let body = initializer.body, !plan.strippedInitializers.isEmpty || !plan.strippedWrapped.isEmpty else { return nil }
    let indent =
        context.indentation(of: body.items.isEmpty ? initializer.prefix.start : body.items[0].span.lower)
        + (body.items.isEmpty ? context.indentUnit : "")
    guard
        writeStrippedValues(
            stored: stored, plan: plan, qualification: qualification, lineBreak: context.lineEnding,
            indent: indent, context: context, into: &text)
    else { return nil }
    let position = context.tree.tokens[body.open].end
    return Edit(start: position, end: position, text: [])
}

/// Whether an init delegates (`self.init(…)` in its body): its stored properties are then
/// initialized by the init it calls.
func isDelegating(_ initializer: FunctionDecl, context: SourceContext) -> Bool {
    guard let body = initializer.body else { return false }
    let tokens = context.tree.tokens
    let end = body.close ?? tokens.count - 1
    return (body.open..<max(body.open, end - 2)).contains { i in
        tokens[i].word == .`self` && tokens[i + 1].kind == .period && tokens[i + 2].word == .`init`
    }
}
