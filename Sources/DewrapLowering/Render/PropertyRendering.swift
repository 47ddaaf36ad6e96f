import DewrapSyntax

/// The explicit declarations for one wrapped property (SPEC Decision 2):
/// storage `_x`, computed `x`, projection `_$x`, indented like the original
/// and joined with the file's line ending, written to `text`. `typeName` is
/// the declaring type as a key path root (A-6; read only for a class); `inOtherType`:
/// that type is declared inside another.
func renderProperty(
    _ property: WrappedProperty, container: ContainerKind, typeName: String, inOtherType: Bool, writesStorageInitializer: Bool,
    context: SourceContext, to text: inout CodeText
) {
    // Written first into a buffer on the stack (about 300 bytes for a typical property), then
    // copied into `text` at once; a property that does not fit is written into `text` itself.
    let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
        var scratch = ScratchText(buffer)
        writeProperty(
            property, container: container, typeName: typeName, inOtherType: inOtherType,
            writesStorageInitializer: writesStorageInitializer, context: context, to: &scratch)
        if scratch.overflowed { return false }
        text.write(scratch.bytes)
        return true
    }
    if !written {
        writeProperty(
            property, container: container, typeName: typeName, inOtherType: inOtherType,
            writesStorageInitializer: writesStorageInitializer, context: context, to: &text)
    }
}

private func writeProperty<Output: CodeOutput>(
    _ property: WrappedProperty, container: ContainerKind, typeName: String, inOtherType: Bool, writesStorageInitializer: Bool,
    context: SourceContext, to text: inout Output
) {
    let declaration = property.declaration
    let wrapper = property.wrapper
    // The name and the indentation are written from the source's bytes, and literal pieces as
    // `StaticString`s: no String is made or looked into for them.
    let source = context.bytes
    let indent = context.indentationRange(of: declaration.prefix.start)
    let unit = context.indentUnit
    let eol = context.lineEnding
    let name = property.name
    let nameBytes = context.tree.tokens[property.nameToken].range
    // `_enum` and `_$enum` for `` `enum` ``: the name's bytes inside the backticks.
    let identifierBytes = property.isBackticked ? (nameBytes.lowerBound + 1)..<(nameBytes.upperBound - 1) : nameBytes

    // `@_spi` is also copied to `_x` and `_$x` (S-1, I-6), followed by a space.
    var spi = CodeText()
    func isWrapperAttribute(_ attribute: Attribute) -> Bool {
        attribute.atSign == property.attribute.atSign || property.inner.contains { $0.attribute.atSign == attribute.atSign }
    }
    func attributeSpan(_ attribute: Attribute) -> TokenSpan {
        TokenSpan(attribute.atSign, (attribute.arguments ?? attribute.name).upper)
    }
    for attribute in declaration.prefix.attributes
    where !isWrapperAttribute(attribute) && context.token(attribute.name.lower, isSpelled: "_spi") {
        spi.append(attributeSpan(attribute), from: context)
        spi.write(literal: " ")
    }
    /// What stays on `x`, each piece followed by a space: the attributes other than the wrapper,
    /// the isolation of `wrappedValue` (I-1) unless the property states its own, the modifiers.
    /// Written straight into the text (a buffer of its own would be allocated for every property).
    func writeKept(_ text: inout Output) {
        for attribute in declaration.prefix.attributes where !isWrapperAttribute(attribute) {
            text.append(attributeSpan(attribute), from: context)
            text.write(literal: " ")
        }
        if let isolation = wrapper.wrappedValue.isolation, !context.statesOwnIsolation(declaration.prefix) {
            text.write(string: isolation)
            text.write(literal: " ")
        }
        // Copied as they are: a modifier (`private(set)`) holds no `$x` to rewrite, and the search for one
        // that `append(_:from:)` makes is a binary search over the rewrites.
        let tokens = context.tree.tokens
        for modifier in declaration.prefix.modifiers {
            text.write(source, tokens[modifier.keyword].start..<tokens[(modifier.detail?.upper ?? modifier.keyword + 1) - 1].end)
            text.write(literal: " ")
        }
    }
    /// `_x`, copied from where the storage's declaration has it in `text`.
    var storageNameBytes = 0..<0
    func writeStorageName(_ text: inout Output) {
        text.repeatText(storageNameBytes)
    }

    // In directive mode each generated declaration is one line, so that all of it maps to the original's line.
    let compact = context.lineDirectives != nil
    let lineBreak = context.lineBreak(mappedTo: context.mappedLine(of: declaration.prefix.start))
    /// Where the text last has a line break and the indentation: outside directive mode the same
    /// bytes start every line, and are copied from there.
    var lineStart = 0..<0
    func writeLineStart(_ text: inout Output) {
        if lineStart.isEmpty {
            let start = text.count
            text.write(string: lineBreak)
            text.write(source, indent)
            if !compact { lineStart = start..<text.count }
        } else {
            text.repeatText(lineStart)
        }
    }

    // In directive mode the initial value goes on a line of its own, at its own column, so that a problem
    // in it is reported where it is written; the storage's first line is mapped to the line before.
    let alignedLine = writesStorageInitializer ? context.alignedLine(of: property.initializer) : nil
    if let alignedLine {
        text.write(string: context.statementStart(at: declaration.prefix.start, mappedTo: alignedLine - 1))
    }
    // S-1: `private`, `final private` in a class, `private static` for a static property (X-2).
    if !spi.isEmpty { text.write(spi) }
    if property.isStatic {
        text.write(literal: "private static var ")
    } else if container == .class {
        text.write(literal: "final private var ")
    } else {
        text.write(literal: "private var ")
    }
    let storageNameStart = text.count
    text.write(literal: "_")
    text.write(source, identifierBytes)
    storageNameBytes = storageNameStart..<text.count
    text.write(literal: ": ")
    text.write(string: property.storageType)
    if writesStorageInitializer {
        let mark = text.count
        text.write(literal: " = ")
        let written = writeStorageInitializer(
            for: property, alignedTo: alignedLine == nil ? nil : property.initializer, context: context, to: &text)
        if !written { text.truncate(to: mark) }
    }
    writeLineStart(&text)

    // `mutating`/`nonmutating` only on instance properties of value types (A-1, A-2).
    let valueMember = container == .struct && !property.isStatic
    let setter = property.setter
    let nonmutatingSetter = valueMember && setter == .nonmutating
    var storageName: String { "_" + name }
    // A-6: a class instance property of a wrapper with the enclosing-instance subscript goes through it.
    let enclosing = container == .class && !property.isStatic ? wrapper.enclosingInstance : nil
    let enclosingAccess = enclosing.map { _ in
        "\(property.storageType)[_enclosingInstance: self, wrapped: \\\(typeName).\(property.spelledName), storage: \\\(typeName).\(storageName)]"
    }
    /// How `x` reaches its value: `_x.wrappedValue` (`.wrappedValue` once more per inner wrapper) or the subscript.
    func writeAccess(_ text: inout Output) {
        if let enclosingAccess { return text.write(string: enclosingAccess) }
        writeStorageName(&text)
        for _ in 0...property.inner.count { text.write(literal: ".wrappedValue") }
    }
    /// After `{` and between accessors (a line break, the indentation and one unit more,
    /// copied after the first); before the closing `}`.
    var accessorStart = 0..<0
    func writeOpen(_ text: inout Output) {
        if compact { return text.write(literal: " ") }
        if !accessorStart.isEmpty { return text.repeatText(accessorStart) }
        let start = text.count
        writeLineStart(&text)
        text.write(string: unit)
        accessorStart = start..<text.count
    }
    func writeClose(_ text: inout Output) {
        if compact { return text.write(literal: " ") }
        writeLineStart(&text)
    }
    writeKept(&text)
    text.write(literal: "var ")
    text.write(source, nameBytes)
    text.write(literal: ": ")
    text.write(string: property.valueType)
    text.write(literal: " {")
    writeOpen(&text)
    text.write(literal: valueMember && wrapper.wrappedValue.mutatingGetter ? "mutating get { " : "get { ")
    writeAccess(&text)
    text.write(literal: " }")
    var helpers: [(text: String, line: Int)] = []
    if (enclosing ?? setter) != .none {
        if property.willSet == nil && property.didSet == nil {
            writeOpen(&text)
            text.write(literal: nonmutatingSetter ? "nonmutating set { " : "set { ")
            writeAccess(&text)
            text.write(literal: " = newValue }")
            // A-4, Decision 2: `_modify` where it keeps in-place mutation (a stored or `_modify` wrappedValue).
            // and for every composition (A-7: without it `x += 1` reads the outer wrapper once more).
            if enclosing == nil && (wrapper.wrappedValue.needsModify || !property.inner.isEmpty) {
                writeOpen(&text)
                text.write(literal: nonmutatingSetter ? "nonmutating _modify { yield &" : "_modify { yield &")
                writeAccess(&text)
                text.write(literal: " }")
            }
        } else {
            let access = enclosingAccess ?? storageName + String(repeating: ".wrappedValue", count: property.inner.count + 1)
            // A-5: old value (only when didSet uses it), willSet, store, didSet; the
            // observer bodies become helper methods so that `return` keeps its meaning.
            var steps: [String] = []
            let helperKeyword =
                property.isStatic
                ? "private static func"
                : container == .struct && setter == .mutating ? "private mutating func" : "private func"
            var oldName: String?
            if let didSet = property.didSet {
                oldName = observerParameter(didSet, context: context) ?? (mentions(didSet, "oldValue", context: context) ? "oldValue" : nil)
                if let oldName { steps.append("let \(oldName) = \(access)") }
            }
            if let willSet = property.willSet {
                let parameter = observerParameter(willSet, context: context) ?? "newValue"
                steps.append("\(storageName)_willSet(newValue)")
                helpers.append(
                    (
                        "\(helperKeyword) \(storageName)_willSet(_ \(parameter): \(property.valueType)) "
                            + outdented(context.text(willSet.blockSpan), by: unit, eol: eol), context.line(of: willSet.open)
                    ))
            }
            steps.append("\(access) = newValue")
            if let didSet = property.didSet {
                let parameter = oldName.map { "_ \($0): \(property.valueType)" } ?? ""
                steps.append("\(storageName)_didSet(\(oldName ?? ""))")
                helpers.append(
                    (
                        "\(helperKeyword) \(storageName)_didSet(\(parameter)) "
                            + outdented(context.text(didSet.blockSpan), by: unit, eol: eol), context.line(of: didSet.open)
                    ))
            }
            let setterKeyword = nonmutatingSetter ? "nonmutating set" : "set"
            if compact {
                text.write(string: " " + setterKeyword + " { " + steps.joined(separator: "; ") + " }")
            } else {
                let indentText = String(decoding: source[indent], as: UTF8.self)
                let step = eol + indentText + unit + unit
                writeOpen(&text)
                text.write(string: setterKeyword + " {")
                for line in steps {
                    text.write(string: step)
                    text.write(string: line)
                }
                text.write(string: eol + indentText + unit + "}")
            }
        }
    }
    writeClose(&text)
    text.write(literal: "}")

    if let projected = property.projectedType, let member = wrapper.projectedValue {
        writeLineStart(&text)
        if !spi.isEmpty { text.write(spi) }
        // S-2: `x`'s access (its setter access for the setter), the projection's own isolation.
        if let isolation = member.isolation {
            text.write(string: isolation)
            text.write(literal: " ")
        }
        if let access = property.access {
            if access == "open" { text.write(literal: "public") } else { text.write(string: access) }
            text.write(literal: " ")
        }
        if member.setter != .none {
            for modifier in declaration.prefix.modifiers where modifier.detail != nil && context.word(modifier.keyword) != .nonisolated {
                text.append(TokenSpan(modifier.keyword, modifier.detail!.upper), from: context)
                text.write(literal: " ")
            }
        }
        if property.isStatic { text.write(literal: "static ") }
        text.write(literal: "var _$")
        text.write(source, identifierBytes)
        text.write(literal: ": ")
        if wrapper.projectsItself && inOtherType {
            // The alias's `Self` is the type it is found on: not this one where that does not conform to
            // the alias's protocol (Fluent's `final class IDValue: Fields` in a `Model`), but one around it.
            // The storage's type, as spelled, is found the same way.
            text.write(string: property.storageType)
        } else {
            text.write(string: container == .class ? namingSelf(projected, as: typeName) : projected)
        }
        if member.setter == .none && !member.mutatingGetter {
            text.write(literal: " { ")
            writeStorageName(&text)
            text.write(literal: ".projectedValue }")
        } else {
            text.write(literal: valueMember && member.mutatingGetter ? " { mutating get { " : " { get { ")
            writeStorageName(&text)
            text.write(literal: ".projectedValue }")
            if member.setter != .none {
                text.write(literal: valueMember && member.setter == .nonmutating ? " nonmutating set { " : " set { ")
                writeStorageName(&text)
                text.write(literal: ".projectedValue = newValue }")
            }
            text.write(literal: " }")
        }
    }
    for helper in helpers {
        text.write(string: context.lineBreak(mappedTo: helper.line))
        text.write(source, indent)
        text.write(string: helper.text)
    }
}

/// The name in `didSet(old)` / `willSet(new)`, if written.
private func observerParameter(_ observer: Observer, context: SourceContext) -> String? {
    guard let parameter = observer.parameter, parameter.upper - parameter.lower == 3 else { return nil }
    return context.text(parameter.lower + 1)
}

private func mentions(_ observer: Observer, _ name: String, context: SourceContext) -> Bool {
    guard let close = observer.close else { return false }
    return (observer.open..<close).contains { context.tree.tokens[$0].kind == .identifier && context.text($0) == name }
}

/// An observer body moved one level out (from inside the property to beside it):
/// each line after the first loses one indentation unit, if it has one.
private func outdented(_ text: String, by unit: String, eol: String) -> String {
    let lines = text.split(separator: Character(eol), omittingEmptySubsequences: false).map(String.init)
    return ([lines[0]] + lines.dropFirst().map { $0.hasPrefix(unit) ? String($0.dropFirst(unit.count)) : $0 })
        .joined(separator: eol)
}

/// The storage's initial value (V-1…V-3): `W(wrappedValue: e, args…)`, `W(args…)`,
/// `W(wrappedValue: nil)`, `W()`; with `value`, `W(wrappedValue: value, args…)`.
/// With `qualification`, for an init body: the type's members named in the
/// initial value and the arguments get `Self.` (see `StaticQualification`).
func storageInitializer(
    for property: WrappedProperty, value: String? = nil, qualifying qualification: StaticQualification? = nil,
    alignedTo alignment: TokenSpan? = nil, context: SourceContext
) -> String? {
    var text = CodeText()
    guard
        writeStorageInitializer(
            for: property, value: value, qualifying: qualification, alignedTo: alignment, context: context, to: &text
        )
    else {
        return nil
    }
    return String(decoding: text.slice, as: UTF8.self)
}

/// `storageInitializer` written to `text`; false, with nothing written, when there is none.
/// With `alignedTo` (directive mode, `SourceContext.alignedLine(of:)`), the wrapped value (`value`,
/// or the initial value) is written on a line of its own at the column of that span of the source.
func writeStorageInitializer<Output: CodeOutput>(
    for property: WrappedProperty, value: String? = nil, qualifying qualification: StaticQualification? = nil,
    alignedTo alignment: TokenSpan? = nil, context: SourceContext, to text: inout Output
) -> Bool {
    if !property.inner.isEmpty {
        // A-7: `A(wrappedValue: B(wrappedValue: e, bArgs…), aArgs…)`, each wrapper's arguments with its own init.
        func copied(_ span: TokenSpan) -> String {
            guard qualification != nil else { return context.text(span) }
            var text = CodeText()
            text.append(span, from: context, qualifying: qualification)
            return String(decoding: text.slice, as: UTF8.self)
        }
        guard let wrappedValue = value ?? property.initializer.map(copied) else { return false }
        let layers = [(property.wrapper, property.attributeArguments)] + property.inner.map { ($0.wrapper, $0.attributeArguments) }
        var opening = ""
        var closing = ""
        for (wrapper, span) in layers {
            opening += "\(wrapper.name)(wrappedValue: "
            closing = "\(span.map { ", " + copied($0) } ?? ""))" + closing
        }
        if let alignment {
            text.write(string: String(opening.dropLast()))
            context.writeAlignment(of: alignment, to: &text)
        } else {
            text.write(string: opening)
        }
        text.write(string: wrappedValue)
        text.write(string: closing)
        return true
    }
    let name = property.wrapper.name
    func writeArguments(_ text: inout Output) {
        guard let arguments = property.attributeArguments else { return }
        text.write(literal: ", ")
        text.append(arguments, from: context, qualifying: qualification)
    }
    if let value {
        text.write(string: name)
        text.write(literal: "(wrappedValue:")
        if let alignment { context.writeAlignment(of: alignment, to: &text) } else { text.write(literal: " ") }
        text.write(string: value)
        writeArguments(&text)
        text.write(literal: ")")
        return true
    }
    switch property.storageStart {
    case .wrappedValue:
        text.write(string: name)
        text.write(literal: "(wrappedValue:")
        if let alignment { context.writeAlignment(of: alignment, to: &text) } else { text.write(literal: " ") }
        text.append(property.initializer!, from: context, qualifying: qualification)
        writeArguments(&text)
        text.write(literal: ")")
    case .attributeArguments:
        text.write(string: name)
        text.write(literal: "(")
        if let arguments = property.attributeArguments { text.append(arguments, from: context, qualifying: qualification) }
        text.write(literal: ")")
    case .optionalNil:
        text.write(string: name)
        text.write(literal: "(wrappedValue: nil)")
    case .emptyInit:
        text.write(string: name)
        text.write(literal: "()")
    case .none: return false
    }
    return true
}

/// `type` with each `Self` in it written as `typeName`, the class that declares the property. A
/// wrapper named through a protocol's typealias (Fluent's `typealias ID<Value> = IDProperty<Self,
/// Value>`) has `Self` among its projection's arguments, which in a class's property type the
/// compiler rejects ("covariant 'Self' … can only appear at the top level"); its own `$x` has the
/// class there.
private func namingSelf(_ type: String, as typeName: String) -> String {
    // On the contiguous bytes: the generic `contains` of a String in a String cost some thousand
    // instructions a class property.
    var type = type
    let mentionsSelf = type.withUTF8 { bytes in
        bytes.count >= 4
            && (0...(bytes.count - 4)).contains { index in
                bytes[index] == UInt8(ascii: "S") && bytes[index + 1] == UInt8(ascii: "e") && bytes[index + 2] == UInt8(ascii: "l")
                    && bytes[index + 3] == UInt8(ascii: "f")
            }
    }
    guard mentionsSelf else { return type }
    let tokens = typeTokens(type)
    guard tokens.contains("Self") else { return type }
    return typeText(tokens.map { $0 == "Self" ? typeName : $0 })
}
