import DewrapSyntax

/// SPEC Corrections, K-4 (found by `bin/differential`): a struct's synthesized `init(from:)` starts, as
/// every non-delegating init does, with each stored property that has a declaration value initialized
/// to it (a wrapped one through its wrapper's init), and then decodes over it. Once the written-out
/// memberwise init has taken those values from their declarations (M-8 step 1), synthesis would no
/// longer evaluate them: the struct gets the `init(from:)` the compiler would have synthesized, with
/// the values first (the M-8 prologue), then the container and one `decode` per coded key.
struct InitFromDecoder {
    /// The cases of the type's own `CodingKeys`, in order (the decoded properties' names); nil when
    /// dewrap writes the keys (every stored property but lazy ones, in declaration order).
    var keyOrder: [String]?
}

/// Whether the type or one of its extensions declares `init(from:)`: synthesis then writes none.
func declaresInitFromDecoder(_ type: TypeDecl, extensions: [TypeDecl], context: SourceContext) -> Bool {
    func declares(_ items: SyntaxList<Item>) -> Bool {
        items.contains { item in
            switch item {
            case .function(let function):
                guard function.kind == .initializer, let label = function.parameters.first?.firstName else { return false }
                return context.token(label, isSpelled: "from")
            case .ifConfig(let ifConfig):
                return ifConfig.clauses.contains { declares($0.items) }
            default:
                return false
            }
        }
    }
    return ([type] + extensions).contains { declares($0.members) }
}

/// Why `init(from:)` cannot be written for `stored`, or nil. Every decoded property needs a type it
/// can name, and one set of keys (no `#if` region among the stored properties).
func initFromDecoderProblem(
    type: TypeDecl, stored: [StoredProperty], keyOrder: [String]?, leavesProperties: Bool, context: SourceContext
) -> Diagnostic? {
    let tokens = context.tree.tokens
    let typeName = context.text(type.name)
    if leavesProperties {
        return Diagnostic(
            .warning, at: tokens[type.keyword].start,
            "cannot lower '\(typeName)': its init(from:) (K-4) would decode a property left as written")
    }
    if let placed = stored.first(where: { $0.placement != nil }) {
        return Diagnostic(
            .warning, at: tokens[placed.declarationStart].start,
            "cannot lower '\(typeName)': its init(from:) (K-4) would depend on an '#if' region, which is not supported yet")
    }
    for property in decodedProperties(stored, keyOrder: keyOrder, context: context)
    where property.wrapped == nil && property.type == nil {
        return Diagnostic(
            .warning, at: tokens[property.binding.pattern.lower].start,
            "cannot lower '\(typeName)': its init(from:) (K-4) would need the type of '\(property.name)'")
    }
    return nil
}

/// The properties synthesis decodes, in key order: not a `let` with a value (it cannot be
/// overwritten) and not a lazy one.
private func decodedProperties(_ stored: [StoredProperty], keyOrder: [String]?, context: SourceContext) -> [StoredProperty] {
    let decodable = stored.filter { !($0.isLet && $0.binding.initializer != nil) && $0.laziness == .notLazy }
    guard let keyOrder else { return decodable }
    return keyOrder.compactMap { name in decodable.first { $0.name == name } }
}

/// Writes `init(from:)` to `text`, after a line break: the type's access (`private` read as
/// `fileprivate`, as synthesis does), `nonisolated` for a global-actor isolated type, the values
/// the memberwise plan took from their declarations, then the decoding.
func writeInitFromDecoder(
    type: TypeDecl, stored: [StoredProperty], keyOrder: [String]?, memberwise: MemberwisePlan,
    qualification: StaticQualification, context: SourceContext, into text: inout CodeText
) {
    let indent = context.indentation(of: stored[0].declarationStart)
    let inner = indent + context.indentUnit
    let newLine = context.lineBreak(mappedTo: context.mappedLine(of: type.keyword))
    if context.lineDirectives == nil { text += context.lineEnding } // a blank line after the memberwise init
    text += newLine
    text += indent
    if isGlobalActorIsolated(type, context: context) { text.write(literal: "nonisolated ") }
    switch context.declaredAccess(type.prefix) {
    case "public", "open": text.write(literal: "public ")
    case "package": text.write(literal: "package ")
    case "private", "fileprivate": text.write(literal: "fileprivate ")
    default: break
    }
    text.write(literal: "init(from decoder: any Decoder) throws {")
    writeStrippedValues(
        stored: stored, plan: memberwise, qualification: qualification, lineBreak: newLine, indent: inner,
        context: context, into: &text)
    text += newLine
    text += inner
    text.write(literal: "let container = try decoder.container(keyedBy: CodingKeys.self)")
    for property in decodedProperties(stored, keyOrder: keyOrder, context: context) {
        text += newLine
        text += inner
        if let wrapped = property.wrapped {
            // K-1: the storage, under its renamed case; a wrapper type is never Optional.
            text.write("self._", wrapped.name, " = try container.decode(", wrapped.storageType, ".self, forKey: ._")
            text.write(wrapped.name, ")")
        } else {
            let type = property.type ?? ""
            let optional = optionalWrapped(type)
            text.write("self.", property.name, optional == nil ? " = try container.decode(" : " = try container.decodeIfPresent(")
            text.write(optional ?? type, ".self, forKey: .", property.name, ")")
        }
    }
    text += newLine
    text += indent
    text.write(literal: "}")
}

/// The values a memberwise plan took from their declarations, one assignment each in declaration
/// order, each after `lineBreak` and `indent` (in directive mode, an initial value on a line of its own
/// at its own column instead: `SourceContext.alignedLine(of:)`). Shared by `init(from:)` and the
/// M-8 prologue of an extension's init. Returns whether it wrote any.
@discardableResult
func writeStrippedValues(
    stored: [StoredProperty], plan: MemberwisePlan, qualification: StaticQualification, lineBreak: String, indent: String,
    context: SourceContext, into text: inout CodeText
) -> Bool {
    let stripped = Set(plan.strippedInitializers.map(\.start))
    let tokens = context.tree.tokens
    let start = text.count
    for property in stored where property.isIncluded || property.wrapped != nil {
        if let wrapped = property.wrapped {
            guard plan.strippedWrapped.contains(property.declarationStart) else { continue }
            // In directive mode an initial value goes at its own line and column (`SourceContext.alignedLine(of:)`).
            let alignedLine = context.alignedLine(of: wrapped.initializer)
            text += (alignedLine.map { context.lineBreak(mappedTo: $0 - 1) } ?? lineBreak) + indent
            text += "self._" + wrapped.name + " = "
            _ = writeStorageInitializer(
                for: wrapped, qualifying: qualification, alignedTo: alignedLine == nil ? nil : wrapped.initializer,
                context: context, to: &text)
        } else if let initializer = property.binding.initializer,
            stripped.contains(tokens[(property.binding.type?.upper ?? property.binding.pattern.upper) - 1].end)
        {
            let alignedLine = context.alignedLine(of: initializer)
            text += (alignedLine.map { context.lineBreak(mappedTo: $0 - 1) } ?? lineBreak) + indent
            text += "self." + property.name + " ="
            if alignedLine == nil { text += " " } else { context.writeAlignment(of: initializer, to: &text) }
            text.append(initializer, from: context, qualifying: qualification)
        }
    }
    return text.count > start
}

/// `T` for an Optional type written `T?`, `T!` or `Optional<T>` (synthesis decodes those with
/// `decodeIfPresent(T.self…)`); nil for any other.
func optionalWrapped(_ type: String) -> String? {
    if type.hasSuffix("?") || type.hasSuffix("!") {
        let inner = String(type.dropLast())
        // `(A) -> B?` is a function; `(A?)` and `[A?]` are not Optional at the top: only a suffix after a whole type.
        return isWholeType(inner) ? inner : nil
    }
    if type.hasPrefix("Optional<") && type.hasSuffix(">") {
        let inner = String(type.dropFirst("Optional<".count).dropLast())
        return isWholeType(inner) ? inner : nil
    }
    return nil
}

/// Whether a type's text has no top-level `->`, `&`, space-separated parts (`any P`, `some P`) that
/// a suffix would not cover, and balanced brackets.
private func isWholeType(_ type: String) -> Bool {
    var depth = 0
    var previous: UInt8 = 0
    for byte in type.utf8 {
        let isArrow = byte == UInt8(ascii: ">") && previous == UInt8(ascii: "-")
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"): depth += 1
        case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
        case UInt8(ascii: ">") where !isArrow: depth -= 1
        default: break
        }
        if depth == 0 && (isArrow || byte == UInt8(ascii: "&") || byte == UInt8(ascii: " ")) { return false }
        if depth < 0 { return false }
        previous = byte
    }
    return depth == 0
}
