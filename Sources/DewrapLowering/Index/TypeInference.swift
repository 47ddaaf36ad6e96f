import DewrapSyntax

/// The type of an initial value when it can be read off the tokens for
/// certain (SPEC Decision 5): literals, arrays and dictionaries of them,
/// `T(…)`, `T.init(…)`, `T<A>(…)`, `[T]()`, `[K: V]()`, `T?.none`, `e as T`, and
/// names of declarations the file has (`Tab.home` for a declared `enum Tab`; see
/// `declaredType(of:)`) or the SDK's catalog has (`CGSize.zero`). Anything else (`make()` undeclared, `.shared`) is nil: never guessed.
/// Methods of the context, which they borrow (a value holding a copy of the
/// context would retain and release each of its arrays and tables).
extension SourceContext {
    private var tokens: [Token] { tree.tokens }

    func inferredType(of span: TokenSpan) -> String? {
        guard !span.isEmpty else { return nil }
        // Each form read first spans all of `span`, so it has no top-level `as`: the search for
        // one (a walk over every token of a call's arguments) is left for what they do not read.
        if let type = literalOrConstructedType(span) { return type }
        if span.upper - span.lower == 5, tree.tokens[span.lower + 1].kind == .leftSquare { return staticSubscriptType(span) }
        if let asIndex = topLevelIndex(in: span, where: { tree.tokens[$0].kind == .keyword && word($0) == .as }),
            asIndex + 1 < span.upper, tokens[asIndex + 1].kind != .postfixQuestionMark, tokens[asIndex + 1].kind != .exclamationMark
        {
            return text(TokenSpan(asIndex + 1, span.upper))
        }
        return declaredType(of: span)
    }

    /// A literal, a collection literal or `T(…)`, `[T]()`, `T?.none`, written as all of `span`.
    private func literalOrConstructedType(_ span: TokenSpan) -> String? {
        switch tokens[span.lower].kind {
        case .leftSquare:
            return collectionType(span)
        case .identifier:
            return constructedType(span)
        default:
            return literalType(span)
        }
    }

    /// The default type of a number, Boolean or string literal written as all of `span`: what no
    /// other declaration can change.
    func literalType(_ span: TokenSpan) -> String? {
        guard !span.isEmpty else { return nil }
        switch tokens[span.lower].kind {
        case .integerLiteral where span.upper == span.lower + 1:
            return "Int"
        case .floatLiteral where span.upper == span.lower + 1:
            return "Double"
        case .prefixOperator where token(span.lower, isSpelled: "-") && span.upper == span.lower + 2:
            switch tokens[span.lower + 1].kind {
            case .integerLiteral: return "Int"
            case .floatLiteral: return "Double"
            default: return nil
            }
        case .keyword where span.upper == span.lower + 1:
            let word = word(span.lower)
            return word == .true || word == .false ? "Bool" : nil
        case .stringStart:
            return closingIndex(from: span.lower) == span.upper - 1 ? "String" : nil
        default:
            return nil
        }
    }

    /// `[a, b]`, `[k: v]`, or `[T]()` / `[K: V]()`.
    private func collectionType(_ span: TokenSpan) -> String? {
        let close = closingIndex(from: span.lower)
        if close == span.upper - 1 {
            let inner = TokenSpan(span.lower + 1, close)
            let elements = split(inner, separator: .comma)
            guard !elements.isEmpty, !(elements.count == 1 && elements[0].isEmpty) else { return nil }
            var elementType: String?
            var keyType: String?
            for element in elements where !element.isEmpty {
                if let colon = topLevelIndex(in: element, where: { tree.tokens[$0].kind == .colon }) {
                    guard let key = inferredType(of: TokenSpan(element.lower, colon)),
                        let value = inferredType(of: TokenSpan(colon + 1, element.upper)),
                        keyType == nil || keyType == key, elementType == nil || elementType == value
                    else { return nil }
                    keyType = key
                    elementType = value
                } else {
                    guard keyType == nil, let value = inferredType(of: element), elementType == nil || elementType == value else { return nil }
                    elementType = value
                }
            }
            guard let elementType else { return nil }
            return keyType.map { "[\($0): \(elementType)]" } ?? "[\(elementType)]"
        }
        // `[T]()`: a type in brackets, then an empty call.
        guard close + 3 == span.upper, tokens[close + 1].kind == .leftParen, tokens[close + 2].kind == .rightParen,
            isTypeLike(TokenSpan(span.lower + 1, close), allowColon: true)
        else { return nil }
        return text(TokenSpan(span.lower, close + 1))
    }

    /// The type of an untyped `@Entry`'s value `T(…)` where `T` is a type this file declares at its
    /// top level (anytype-swift's `@Entry var keyboardDismiss = KeyboardDismiss(window: nil)` beside
    /// `struct KeyboardDismiss`): the one `T` of the module, whichever file asks. Not when `T` is
    /// generic or may have a failable init of that first label, in this file or in the module (from
    /// `moduleConstructions` when this context has no module: a file read as one of the module's).
    func entryConstructionType(_ span: TokenSpan, moduleConstructions: (() -> UncertainConstructions)?) -> String? {
        guard span.upper - span.lower >= 3, tokens[span.lower].kind == .identifier, tokens[span.lower + 1].kind == .leftParen
        else { return nil }
        let name = bytes[tokens[span.lower].range]
        func declaresAtTopLevel(_ items: SyntaxList<Item>) -> Bool {
            items.contains { item in
                switch item {
                case .type(let type):
                    type.kind != .extension && type.name.upper == type.name.lower + 1 && token(type.name.lower, isSpelled: name)
                case .ifConfig(let ifConfig): ifConfig.clauses.contains { declaresAtTopLevel($0.items) }
                default: false
                }
            }
        }
        guard declaresAtTopLevel(tree.items) else { return nil }
        return constructedType(span, moduleConstructions: moduleConstructions)
    }

    /// `T(…)`, `T.init(…)`, `A.B<C>(…)`, with a trailing closure too, `T?.none`. `moduleConstructions`
    /// stands for the module's uncertain constructions where this context has no module.
    private func constructedType(_ span: TokenSpan, moduleConstructions: (() -> UncertainConstructions)? = nil) -> String? {
        var i = span.lower
        var typeEnd = i
        while i < span.upper {
            guard tokens[i].kind == .identifier, startsUppercase(i) || i == span.lower && isLowercaseTypeName(i) else { break }
            i += 1
            if i < span.upper, token(i, hasPrefix: "<") { i = angleEnd(from: i, limit: span.upper) }
            typeEnd = i
            guard i + 1 < span.upper, tokens[i].kind == .period, tokens[i + 1].kind == .identifier, startsUppercase(i + 1) else { break }
            i += 1
        }
        guard typeEnd > span.lower else { return nil }
        let typeText = text(TokenSpan(span.lower, typeEnd))
        var j = typeEnd
        // `T?.none`
        if j + 3 == span.upper, tokens[j].kind == .postfixQuestionMark, tokens[j + 1].kind == .period, token(j + 2, isSpelled: "none") {
            return typeText + "?"
        }
        if j + 1 < span.upper, tokens[j].kind == .period, word(j + 1) == .`init` { j += 2 }
        // `T(…)`, `T(…) { … }` or `T { … }`: a trailing closure is one more argument.
        guard j < span.upper, tokens[j].kind == .leftParen || tokens[j].kind == .leftBrace else { return nil }
        var callEnd = closingIndex(from: j) + 1
        let arguments = tokens[j].kind == .leftParen ? TokenSpan(j + 1, callEnd - 1) : TokenSpan(j, j)
        if tokens[j].kind == .leftParen, callEnd < span.upper, tokens[callEnd].kind == .leftBrace {
            callEnd = closingIndex(from: callEnd) + 1
        }
        guard callEnd == span.upper else { return nil }
        // SPEC Corrections, Decision 5: a generic type's arguments are inferred, and a failable init gives `T?`.
        let explicitArguments = token(typeEnd - 1, hasSuffix: ">")
        guard explicitArguments || !isGenericSDKType(typeText) else { return nil }
        // The first argument's label: `_` for none, `` for no argument (`init?()`).
        let label =
            arguments.isEmpty
            ? "" : arguments.upper - arguments.lower >= 2 && tokens[arguments.lower + 1].kind == .colon ? text(arguments.lower) : "_"
        guard !mayBeFailable(typeText, label: label, arguments: arguments) else { return nil }
        // By bytes, this file's and the module's: a `T(…)` makes neither declaration index (a parse of every file).
        let simple = lastComponent(typeText)
        func isUncertain(_ uncertain: UncertainConstructions) -> Bool {
            (!explicitArguments && uncertain.generic.contains(simple)) || uncertain.mayBeFailable(simple, label: label)
        }
        if isUncertain(uncertainConstructions) { return nil }
        if let module = moduleSources {
            if isUncertain(module.uncertainConstructions) { return nil }
        } else if let moduleConstructions, isUncertain(moduleConstructions()) {
            return nil
        }
        return typeText
    }

    /// Whether the init that `type(arguments)` calls may be failable: an SDK type's known `init?`, by its
    /// first argument's label; a number or `Bool` from anything but a literal of its kind (`Int(text)`
    /// may parse a String).
    private func mayBeFailable(_ type: String, label: String, arguments: TokenSpan) -> Bool {
        if let entry = sdkFailableInits.index(of: type), sdkFailableInits.value(at: entry).contains(label) { return true }
        guard numericTypes.contains(type), label == "_" else { return false }
        let single = split(arguments, separator: .comma).count == 1
        return !(single && (literalOrConstructedType(arguments).map { ["Int", "Double", "Bool"].contains($0) } ?? false))
    }

    private func isGenericSDKType(_ type: String) -> Bool {
        var type = type
        let named = type.withUTF8 { bytes in
            let component = bytes.lastIndex(of: UInt8(ascii: ".")).map { UnsafeBufferPointer(rebasing: bytes[($0 + 1)...]) } ?? bytes
            return genericSDKTypes.contains(component)
        }
        return named && declarationIndex.types[type] == nil && moduleSources?.type(named: type) == nil
    }

    /// `iOSTabs` in `iOSTabs()`: a name that does not start with a capital is a type's only where this file or
    /// the module declares a type of that name and no function (a call of one is the usual case).
    private func isLowercaseTypeName(_ i: Int) -> Bool {
        let first = bytes[tokens[i].start]
        guard first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") else { return false }
        let name = text(i)
        let index = declarationIndex
        guard index.functions.entry(name, of: "") == nil, moduleSources?.function(name, of: "") == nil else { return false }
        switch (index.types[name], moduleSources?.type(named: name)) {
        case (.some(.none), _), (_, .some(.none)): return false // two types of that name
        case (.some(.some), _), (.none, .some(.some)): return true
        default: return false
        }
    }

    private func startsUppercase(_ i: Int) -> Bool {
        let byte = bytes[tokens[i].start]
        return byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    func isTypeLike(_ span: TokenSpan, allowColon: Bool) -> Bool {
        guard !span.isEmpty else { return false }
        for i in span.lower..<span.upper {
            switch tokens[i].kind {
            case .identifier, .period, .comma, .leftSquare, .rightSquare, .postfixQuestionMark, .keyword: continue
            case .colon where allowColon: continue
            case .binaryOperator, .postfixOperator, .prefixOperator:
                if text(i).allSatisfy({ $0 == "<" || $0 == ">" || $0 == "?" }) { continue }
                return false
            default: return false
            }
        }
        return true
    }

    /// From `<` at `i`, the index after the matching `>` (counting inside operator tokens).
    func angleEnd(from start: Int, limit: Int) -> Int {
        var depth = 0
        var i = start
        while i < limit {
            for character in text(i) {
                if character == "<" { depth += 1 } else if character == ">" { depth -= 1 }
            }
            i += 1
            if depth <= 0 { break }
        }
        return i
    }

    /// The index of the token that closes the bracket, string or interpolation opened at `open`.
    func closingIndex(from open: Int) -> Int {
        var depth = 0
        var i = open
        while i < tokens.count {
            switch tokens[i].kind {
            case .leftParen, .leftSquare, .leftBrace, .interpolationStart, .stringStart: depth += 1
            case .rightParen, .rightSquare, .rightBrace, .interpolationEnd, .stringEnd: depth -= 1
            default: break
            }
            if depth == 0 { return i }
            i += 1
        }
        return tokens.count - 1
    }

    /// The parts of `span` between top-level `separator` tokens.
    func split(_ span: TokenSpan, separator: TokenKind) -> [TokenSpan] {
        var parts: [TokenSpan] = []
        var start = span.lower
        var i = span.lower
        while i < span.upper {
            switch tokens[i].kind {
            case .leftParen, .leftSquare, .leftBrace, .interpolationStart, .stringStart:
                i = closingIndex(from: i) + 1
                continue
            case separator:
                parts.append(TokenSpan(start, i))
                start = i + 1
            default:
                break
            }
            i += 1
        }
        parts.append(TokenSpan(start, span.upper))
        return parts
    }

    /// The first top-level token in `span` satisfying `predicate`.
    func topLevelIndex(in span: TokenSpan, where predicate: (Int) -> Bool) -> Int? {
        var i = span.lower
        while i < span.upper {
            switch tokens[i].kind {
            case .leftParen, .leftSquare, .leftBrace, .interpolationStart, .stringStart:
                i = closingIndex(from: i) + 1
                continue
            default:
                if predicate(i) { return i }
            }
            i += 1
        }
        return nil
    }
}

/// SDK types whose inits infer generic arguments (`Array(repeating: 0, count: 3)` is `Array<Int>`):
/// `T(…)` without arguments written is not of a type dewrap can write. (Byte tables, as the others
/// below: a `Set<String>` hashed the type's name with SipHash at every `T(…)` of the file.)
private let genericSDKTypes = NameSet(names: [
    "Array", "ArraySlice", "ContiguousArray", "Set", "Dictionary", "Optional", "Result", "Range", "ClosedRange",
    "KeyValuePairs", "CollectionOfOne", "EmptyCollection", "Slice", "Repeated", "Zip2Sequence", "StrideTo",
    "StrideThrough", "LazySequence", "ReversedCollection", "SIMD2", "SIMD3", "SIMD4", "Unmanaged", "UnsafePointer",
    "UnsafeMutablePointer", "UnsafeBufferPointer", "UnsafeMutableBufferPointer", "AsyncStream", "AsyncThrowingStream",
    "Task", "Measurement", "Binding", "State", "Published", "Just", "Future", "Deferred", "PassthroughSubject",
    "CurrentValueSubject", "AnyPublisher", "Mutex", "Atomic", "OrderedSet", "OrderedDictionary", "Deque",
    "VStack", "HStack", "ZStack", "LazyVStack", "LazyHStack", "LazyVGrid", "LazyHGrid", "Group", "List", "ForEach",
    "Section", "ScrollView", "NavigationStack", "NavigationView", "NavigationLink", "Button", "Toggle", "Picker",
    "Menu", "Label", "TabView", "Form", "GeometryReader", "ScrollViewReader", "ViewThatFits", "AnyView",
    "ModifiedContent", "TupleView", "Optional", "FetchRequest", "SectionedFetchRequest", "Query", "FetchDescriptor",
    "SortDescriptor", "Predicate", "ObservedObject", "StateObject", "Environment", "AppStorage", "SceneStorage",
])

/// SDK inits that are `init?`, by type and the label of their first argument (`_` for none).
private let sdkFailableInits: ByteTable<[String]> = {
    var table = ByteTable<[String]>(capacity: failableInitLabels.count)
    for (type, labels) in failableInitLabels { table.insert(type, labels) }
    return table
}()

private let failableInitLabels: KeyValuePairs<String, [String]> = [
    "URL": ["string", "dataRepresentation"],
    "NSURL": ["string"],
    "UUID": ["uuidString"],
    "UIImage": ["named", "systemName", "data", "contentsOfFile"],
    "NSImage": ["named", "systemSymbolName", "data", "contentsOf", "contentsOfFile"],
    "UIColor": ["named"],
    "NSColor": ["named"],
    "Data": ["base64Encoded"],
    "String": ["data", "bytes", "validatingUTF8", "validating", "utf8String", "contentsOfFile"],
    "Decimal": ["string"],
    "TimeZone": ["identifier", "abbreviation"],
    "Bundle": ["identifier", "path", "url"],
    "UserDefaults": ["suiteName"],
    "NSDataAsset": ["name"],
    "FileHandle": ["forReadingAtPath", "forWritingAtPath", "forUpdatingAtPath"],
    "Unicode.Scalar": ["_"],
]

/// Types whose init from one unlabeled argument is failable when that argument is a String.
private let numericTypes = NameSet(names: [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
    "Float16", "Float80", "Bool",
])
