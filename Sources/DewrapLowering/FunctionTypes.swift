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
        // Rare (an attribute that is neither the compiler's nor a wrapper): a walk over the file's types.
        guard let first = name.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
        return tree.typeDeclarations.contains { type in
            type.kind != .extension && text(type.name) == name
                && type.prefix.attributes.contains { span($0.name, isSpelled: "resultBuilder") }
        }
    }

    /// Whether the written type `span` is a function type, which a memberwise parameter
    /// takes `@escaping`: an arrow outside brackets after the type's attributes
    /// (`@Sendable () -> Void`), a parenthesized one, or a name this file declares with
    /// `typealias` as one. Optional function types are escaping already (false). A name
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
               let close = matchingClose(i, in: span) {
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
              aliasesFollowed < 8, let aliased = typealiasType(named: i) else { return false }
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
