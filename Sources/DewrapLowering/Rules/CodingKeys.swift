import DewrapSyntax

/// K-1: synthesized `Codable` codes the storage `_x` under the key `"x"`. Once
/// `_x` is a plain stored property, synthesis would use `"_x"`; the coding keys
/// say `"x"` again.
struct CodingKeysPlan {
    /// Renames inside a user-declared `CodingKeys` and of its `.x` references.
    var tokenEdits: [Edit] = []
    /// A `CodingKeys` enum for a type that had none, inserted before its closing brace.
    var insertion: Edit?
    /// Stored properties that a user-declared `CodingKeys` leaves out and that have a value at
    /// their declaration: synthesized `init(from:)` needs that value (without it the type does not
    /// conform to `Decodable`), so the written-out memberwise init must not take it away (M-8 step 1).
    var keptInitializers = PropertyNames()
    /// The struct's written-out memberwise init takes values from declarations that synthesized
    /// `init(from:)` evaluates (K-4): that init is written out too (then nothing needs keeping).
    var initFromDecoder: InitFromDecoder?

    var isEmpty: Bool { tokenEdits.isEmpty && insertion == nil && keptInitializers.isEmpty && initFromDecoder == nil }
}

enum CodingKeysOutcome {
    /// The type is not `Encodable`/`Decodable`, or nothing it codes is lowered.
    case unchanged
    case plan(CodingKeysPlan)
    case impossible(Diagnostic)
}

/// What keeps the coding keys of `type` (a struct or class whose synthesized
/// `Codable` would include the lowered properties) as they were: a new
/// `private enum CodingKeys: String, CodingKey` listing every stored instance
/// property (`case _x = "x"` for a wrapped one), or in a user-declared one
/// `case x` made `case _x = "x"` (`case x = "k"` made `case _x = "k"`) and its
/// `forKey: .x` and `CodingKeys.x` references renamed.
/// `properties`: the type's lowered properties; its instance ones are the wrapped ones coded.
/// `fileDeclaresCodingKeys`: some enum of the file is named `CodingKeys` (the type's own is looked for only then).
/// `writesMemberwise`: a struct's memberwise init is written out, which may take values from declarations (K-4).
func planCodingKeys(
    type: TypeDecl, extensions: [TypeDecl], properties: [WrappedProperty], stored: [StoredProperty],
    fileDeclaresCodingKeys: Bool, writesMemberwise: Bool, context: SourceContext
) -> CodingKeysOutcome {
    guard type.kind == .struct || type.kind == .class, properties.contains(where: { !$0.isStatic }),
        let body = type.body, let close = body.close
    else {
        return .unchanged
    }
    // Most types are not coded: asked declaration by declaration, without collecting every inherited name first.
    // With no protocol declared in these sources, a one-name entry that is a standard protocol is compared as bytes.
    let onlyStandard = context.shapes.protocols.isEmpty
    // `decoding`: `Decodable` only (synthesis writes `init(from:)`, K-4).
    func inheritsCoding(_ declaration: TypeDecl, decoding: Bool = false) -> Bool {
        declaration.inheritance.contains { entry in
            if onlyStandard, entry.upper == entry.lower + 1, context.tree.tokens[entry.lower].kind == .identifier {
                if context.token(entry.lower, isSpelled: "Codable") || context.token(entry.lower, isSpelled: "Decodable") {
                    return true
                }
                if context.token(entry.lower, isSpelled: "Encodable") { return !decoding }
                let range = context.tree.tokens[entry.lower].range
                if context.bytes.withUnsafeBufferPointer({ notCodingProtocols.contains(UnsafeBufferPointer(rebasing: $0[range])) }) {
                    return false
                }
            }
            return inheritedNames(entry, context: context).contains { context.namesCodingProtocol($0, decoding: decoding) }
        }
    }
    // A user-declared CodingKeys, in the type or an extension of it in this file.
    var userKeys: TypeDecl?
    var bodies: [Block] = []
    if fileDeclaresCodingKeys {
        bodies = [body] + extensions.compactMap(\.body)
        for block in bodies {
            for case .type(let nested) in block.items
            where nested.kind == .enum && nested.name.upper == nested.name.lower + 1
                && context.token(nested.name.lower, isSpelled: "CodingKeys")
            {
                userKeys = nested
            }
        }
    }
    // Its own CodingKeys says a type is coded even when it conforms through a protocol declared
    // elsewhere (swift-argument-parser's tests' `TestableParsableArguments`): renaming its cases
    // keeps every key's string, and a coded type needs it.
    guard userKeys != nil || inheritsCoding(type) || extensions.contains(where: { inheritsCoding($0) }) else { return .unchanged }
    let wrapped = properties.filter { !$0.isStatic }
    let tokens = context.tree.tokens
    let typeName = context.text(type.name)
    // K-4: only a struct whose memberwise init is written out loses declaration values, and only a
    // synthesized `init(from:)` evaluates them.
    let synthesizesDecoder =
        writesMemberwise && type.kind == .struct
        && (inheritsCoding(type, decoding: true) || extensions.contains { inheritsCoding($0, decoding: true) })
        && !declaresInitFromDecoder(type, extensions: extensions, context: context)

    if let userKeys {
        var plan = CodingKeysPlan()
        let names = Set(wrapped.map(\.name))
        var renamed: Set<String> = []
        let cases = userKeys.members.compactMap { item -> OtherDecl? in
            if case .other(let declaration) = item, declaration.kind == .enumCase { return declaration }
            return nil
        }
        var hasStringRawType = userKeys.inheritance.contains(where: { inheritedNames($0, context: context).contains("String") })
        for declaration in cases {
            for name in declaration.names where names.contains(context.text(name)) {
                let text = context.text(name)
                let hasRawValue = name + 1 < tokens.count && tokens[name + 1].kind == .equal
                if !hasRawValue && !hasStringRawType, let first = userKeys.inheritance.first,
                    let edit = stringRawType(before: first, cases: cases, context: context)
                {
                    // SPEC Corrections, K-1: without a raw type a case's string value is its name, as it is
                    // with `String` and no raw value of its own; `case _x = "x"` then keeps the key.
                    plan.tokenEdits.append(edit)
                    hasStringRawType = true
                }
                guard hasRawValue || hasStringRawType else {
                    return .impossible(
                        Diagnostic(
                            .warning, at: tokens[name].start,
                            "cannot lower '\(typeName)': its coding key '\(text)' would need the raw value \"\(text)\" (K-1), and 'CodingKeys' has no String raw type"
                        ))
                }
                plan.tokenEdits.append(
                    Edit(
                        start: tokens[name].start, end: tokens[name].end,
                        text: Array(("_" + text + (hasRawValue ? "" : " = \"\(text)\"")).utf8)))
                renamed.insert(text)
            }
        }
        // References: `forKey: .x`, `CodingKeys.x` (also `Self.CodingKeys.x`).
        let keysSpan = userKeys.span
        for block in bodies {
            guard let end = block.close else { continue }
            var index = block.open + 1
            while index < end {
                defer { index += 1 }
                if keysSpan.lower <= index && index < keysSpan.upper { continue }
                guard tokens[index].kind == .identifier, index >= 2, tokens[index - 1].kind == .period,
                    renamed.contains(context.text(index))
                else { continue }
                let before = index - 2
                let isKeyReference =
                    context.text(before) == "CodingKeys"
                    || (tokens[before].kind == .colon && before >= 1 && context.text(before - 1) == "forKey")
                if isKeyReference {
                    plan.tokenEdits.append(
                        Edit(
                            start: tokens[index].start, end: tokens[index].end,
                            text: Array(("_" + context.text(index)).utf8)))
                }
            }
        }
        // The stored properties it leaves out keep their value at the declaration.
        var keyNames: Set<String> = []
        for declaration in cases {
            for name in declaration.names { keyNames.insert(context.text(name)) }
        }
        for property in stored where !keyNames.contains(property.name) && property.hasDeclarationValue {
            plan.keptInitializers.insert(property.name)
        }
        if synthesizesDecoder {
            plan.initFromDecoder = InitFromDecoder(keyOrder: cases.flatMap { $0.names.map { context.text($0) } })
        }
        return plan.isEmpty ? .unchanged : .plan(plan)
    }

    // No CodingKeys: one listing what synthesis would list, in declaration order.
    if let conditional = stored.first(where: { $0.placement != nil }) {
        return .impossible(
            Diagnostic(
                .warning, at: tokens[conditional.binding.pattern.lower].start,
                "cannot lower '\(typeName)': its coding keys (K-1) would depend on an '#if' region, which is not supported yet"))
    }
    if let unnamed = stored.first(where: { $0.binding.name == nil }) {
        return .impossible(
            Diagnostic(
                .warning, at: tokens[unnamed.binding.pattern.lower].start,
                "cannot lower '\(typeName)': its coding keys (K-1) would need a case for a tuple pattern"))
    }
    let eol = context.lineEnding
    let closeIndent = context.indentation(of: close)
    let indent = stored.first.map { context.indentation(of: $0.declarationStart) } ?? closeIndent + context.indentUnit
    // Synthesis leaves lazy properties out (a key for one would fail both conformances).
    let cases = stored.filter { $0.laziness == .notLazy }.map { property in
        property.wrapped.map { "case _\($0.name) = \"\($0.name)\"" } ?? "case \(property.name)"
    }
    let lineStart = tokens[close].start - closeIndent.utf8.count
    let closeOnItsOwnLine = context.lines.location(of: tokens[close].start).column == closeIndent.utf8.count + 1
    let text: String
    let position: Int
    if closeOnItsOwnLine {
        let lines = [indent + "private enum CodingKeys: String, CodingKey {"] + cases.map { indent + context.indentUnit + $0 } + [indent + "}"]
        if let name = context.lineDirectives {
            // Generated lines map to the type's line, the closing brace to its own.
            text =
                sourceLocation(name, line: context.line(of: type.keyword)) + eol + lines.joined(separator: eol) + eol
                + sourceLocation(name, line: context.line(of: close)) + eol
        } else {
            text = eol + lines.joined(separator: eol) + eol
        }
        position = lineStart
    } else {
        text = " private enum CodingKeys: String, CodingKey { " + cases.joined(separator: "; ") + " } "
        position = tokens[close].start
    }
    return .plan(
        CodingKeysPlan(
            insertion: Edit(start: position, end: position, text: Array(text.utf8)),
            initFromDecoder: synthesizesDecoder ? InitFromDecoder(keyOrder: nil) : nil))
}

/// Protocols a coding-key enum commonly lists first that are certainly not a raw type.
private let protocolsNotRawTypes: Set<String> = [
    "CodingKey", "CaseIterable", "Sendable", "Hashable", "Equatable", "CustomStringConvertible", "CustomDebugStringConvertible",
]

/// The edit that gives a user-declared `CodingKeys` the raw type `String` (`enum CodingKeys: String, CodingKey`),
/// when it certainly has no raw type: its first inheritance entry (where a raw type must be) names only
/// protocols known not to be one, and no case has a payload or a raw value. Nil otherwise.
private func stringRawType(before first: TokenSpan, cases: [OtherDecl], context: SourceContext) -> Edit? {
    let tokens = context.tree.tokens
    let names = inheritedNames(first, context: context)
    guard !names.isEmpty, names.allSatisfy(protocolsNotRawTypes.contains) else { return nil }
    for declaration in cases {
        for name in declaration.names where name + 1 < tokens.count && [.leftParen, .equal].contains(tokens[name + 1].kind) {
            return nil
        }
    }
    let token = tokens[first.lower]
    return Edit(start: token.start, end: token.end, text: Array(("String, " + context.text(first.lower)).utf8))
}
