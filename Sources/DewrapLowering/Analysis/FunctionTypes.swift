import DewrapSyntax

// SPEC Corrections, M-4: the compiler's memberwise init takes a property of
// function type as `@escaping` (also through a typealias), and carries a result
// builder attribute on the property to its parameter (SE-0289).

/// SwiftUI's result builders (a property `@ViewBuilder let content: () -> Content`).
private let sdkResultBuilders: Set<String> = [
    "ViewBuilder", "SceneBuilder", "CommandsBuilder", "ToolbarContentBuilder", "TableColumnBuilder",
    "TableRowBuilder", "AccessibilityRotorContentBuilder", "LibraryContentBuilder", "TabContentBuilder",
    "ChartContentBuilder", "ControlWidgetTemplateBuilder", "WidgetBundleBuilder", "ImmersiveSpaceContentBuilder",
]

extension SourceContext {
    /// Whether `attribute` names a result builder: one of SwiftUI's, or a type of
    /// this file declared `@resultBuilder`.
    func isResultBuilder(_ attribute: Attribute) -> Bool {
        guard attribute.arguments == nil, attribute.name.upper == attribute.name.lower + 1 else { return false }
        let name = text(attribute.name.lower)
        if sdkResultBuilders.contains(name) { return true }
        // Rare (an attribute that is neither the compiler's nor a wrapper): the file's types, else the
        // module's and the dependencies' (Plot's `@ComponentBuilder`, declared in a file of its own).
        guard let first = name.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
        if declarationIndex.types[name] != nil { return declarationIndex.resultBuilders.contains(name) }
        return moduleSources?.isResultBuilder(named: name) ?? false
    }

    /// Whether the written type `span` is a function type, which a memberwise parameter
    /// takes `@escaping`: an arrow outside brackets after the type's attributes
    /// (`@Sendable () -> Void`), a parenthesized one, or a name this file declares with
    /// `typealias` as one. Optional function types are escaping already (false), and so is a
    /// C function pointer (`@convention(c)`: no `@escaping` in the compiler's init). A name
    /// this file does not declare as a typealias counts as a nominal type.
    func isFunctionType(_ span: TokenSpan) -> Bool {
        isFunctionType(span, aliasesFollowed: 0)
    }

    private func isFunctionType(_ span: TokenSpan, aliasesFollowed: Int) -> Bool {
        let tokens = tree.tokens
        var i = span.lower
        // Type attributes: `@Sendable`, `@MainActor`, `@convention(c)`.
        while i + 1 < span.upper, tokens[i].kind == .atSign {
            i += 2
            if i < span.upper, tokens[i].kind == .leftParen, tokens[i].start == tokens[i - 1].end,
                let close = matchingClose(i, in: span)
            {
                if close == i + 2 && self.span(TokenSpan(i - 1, i), isSpelled: "convention") && self.span(TokenSpan(i + 1, i + 2), isSpelled: "c") {
                    return false
                }
                i = close + 1
            }
        }
        guard i < span.upper else { return false }
        var depth = 0
        for index in i..<span.upper {
            switch tokens[index].kind {
            case .leftParen, .leftSquare: depth += 1
            case .rightParen, .rightSquare: depth -= 1
            case .arrow where depth == 0: return true
            case .arrow: break
            default:
                // Generic arguments: `<` and `>` (also `>>`) are operator tokens in a type.
                for byte in bytes[tokens[index].range] {
                    if byte == UInt8(ascii: "<") { depth += 1 } else if byte == UInt8(ascii: ">") { depth -= 1 }
                }
            }
        }
        // `(() -> Void)`: one parenthesized element.
        if tokens[i].kind == .leftParen, let close = matchingClose(i, in: span), close == span.upper - 1 {
            var innerDepth = 0
            for index in i + 1..<close {
                switch tokens[index].kind {
                case .leftParen, .leftSquare: innerDepth += 1
                case .rightParen, .rightSquare: innerDepth -= 1
                case .comma where innerDepth == 0: return false
                default: break
                }
            }
            return isFunctionType(TokenSpan(i + 1, close), aliasesFollowed: aliasesFollowed)
        }
        // `Handler` or `Handler<Int>`: a typealias of this file (a standard type never is).
        guard tokens[i].kind == .identifier, i + 1 == span.upper || token(i + 1, hasPrefix: "<"),
            !bytes.withUnsafeBufferPointer({ SendableOracle.standardValueTypes.contains(UnsafeBufferPointer(rebasing: $0[tokens[i].range])) }),
            aliasesFollowed < 8, let aliased = typealiasType(named: i)
        else { return false }
        return isFunctionType(aliased, aliasesFollowed: aliasesFollowed + 1)
    }

    /// The index of the bracket closing the one at `open`, within `span`.
    private func matchingClose(_ open: Int, in span: TokenSpan) -> Int? {
        var depth = 0
        for index in open..<span.upper {
            switch tree.tokens[index].kind {
            case .leftParen, .leftSquare: depth += 1
            case .rightParen, .rightSquare:
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }

    /// The aliased type of the one `typealias` of this file named like token `name` (in the
    /// file's declaration index); nil when there is none, or more than one (then which one is meant
    /// is unknown).
    private func typealiasType(named name: Int) -> TokenSpan? {
        guard case .some(.some(let aliased)) = typealiasIndex.aliases[text(name)] else { return nil }
        return aliased
    }
}

// SE-0434 as the compiler applies it to the parameters of a synthesized memberwise init in
// Swift 6: a function type isolated to a global actor is `@Sendable` (`-print-ast` shows
// `@MainActor @Sendable`, after the actor, also inside `(…)?`, `[…]` and generic arguments).
// Through a typealias the compiler keeps the alias' name, and so does dewrap.

/// Type attributes that are not global actors (any other `@Name` in a type is one).
private let typeAttributesNotActors: Set<String> = [
    "escaping", "Sendable", "autoclosure", "convention", "isolated", "noescape", "differentiable", "noDerivative",
    "unchecked", "retroactive", "preconcurrency", "execution", "concurrent", "nonisolated",
]

/// Whether an attribute in a type names a global actor (`MainActor`, or one the file declares: any
/// attribute a type can carry that is not one of the language's).
func isGlobalActorName(_ name: String) -> Bool {
    !typeAttributesNotActors.contains(name) && !name.hasPrefix("_")
}

/// The names of the attributes `type` starts with (`@MainActor @Sendable () -> Void` → `MainActor`, `Sendable`).
func leadingTypeAttributes(_ type: String) -> [String] {
    var names: [String] = []
    var rest = Substring(type)
    while rest.first == "@" {
        let name = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        names.append(String(name))
        rest = rest.dropFirst(1 + name.count)
        if rest.first == "(" {
            var depth = 0
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == "(" { depth += 1 } else if character == ")" { depth -= 1; if depth == 0 { break } }
            }
        }
        rest = rest.drop { $0 == " " }
    }
    return names
}

/// `type` with `@Sendable` right after the global actor of each function type that has one
/// (`@Sendable` written elsewhere in the same attributes moves there).
func sendableGlobalActorFunctions(_ type: String) -> String {
    // On the contiguous bytes: the generic `utf8.contains(_:)` steps through the String's view.
    var text = type
    guard text.withUTF8({ $0.contains(UInt8(ascii: "@")) }) else { return type }
    let bytes = Array(type.utf8)
    let count = bytes.count
    var output: [UInt8] = []
    output.reserveCapacity(count + 10)
    var i = 0
    while i < count {
        guard bytes[i] == UInt8(ascii: "@") else {
            output.append(bytes[i])
            i += 1
            continue
        }
        // A run of attributes, each `@name` or `@name(…)`, separated by spaces.
        var attributes: [(name: String, range: Range<Int>)] = []
        var j = i
        while j < count && bytes[j] == UInt8(ascii: "@") {
            var k = j + 1
            while k < count && isNameByte(bytes[k]) { k += 1 }
            let name = String(decoding: bytes[(j + 1)..<k], as: UTF8.self)
            if k < count && bytes[k] == UInt8(ascii: "(") {
                var depth = 0
                repeat {
                    if bytes[k] == UInt8(ascii: "(") { depth += 1 } else if bytes[k] == UInt8(ascii: ")") { depth -= 1 }
                    k += 1
                } while k < count && depth > 0
            }
            attributes.append((name, j..<k))
            var next = k
            while next < count && bytes[next] == UInt8(ascii: " ") { next += 1 }
            j = next < count && bytes[next] == UInt8(ascii: "@") ? next : k
            if j == k { break }
        }
        let actor = attributes.firstIndex { isGlobalActorName($0.name) }
        if let actor {
            var first = true
            for (index, attribute) in attributes.enumerated() where attribute.name != "Sendable" {
                if !first { output.append(UInt8(ascii: " ")) }
                first = false
                output += bytes[attribute.range]
                if index == actor { output += Array(" @Sendable".utf8) }
            }
        } else {
            output += bytes[i..<j]
        }
        i = j
    }
    return String(decoding: output, as: UTF8.self)
}
