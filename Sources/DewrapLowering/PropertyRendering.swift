import DewrapSyntax

/// The explicit declarations for one wrapped property (SPEC Decision 2):
/// storage `_x`, computed `x`, projection `_$x`, indented like the original
/// and joined with the file's line ending, written to `text`. `typeName` is
/// the declaring type as a key path root (A-6).
func renderProperty(
    _ property: WrappedProperty, container: ContainerKind, typeName: String, writesStorageInitializer: Bool,
    context: SourceContext, to text: inout CodeText
) {
    let declaration = property.declaration
    let wrapper = property.wrapper
    let indent = context.indentation(of: declaration.prefix.start)
    let unit = context.indentUnit
    let eol = context.lineEnding
    let name = property.name

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
        spi += " "
    }
    /// What stays on `x`, each piece followed by a space: the attributes other than the wrapper,
    /// the isolation of `wrappedValue` (I-1) unless the property states its own, the modifiers.
    /// Written straight into the text (a buffer of its own would be allocated for every property).
    func writeKept(_ text: inout CodeText) {
        for attribute in declaration.prefix.attributes where !isWrapperAttribute(attribute) {
            text.append(attributeSpan(attribute), from: context)
            text += " "
        }
        if !context.statesOwnIsolation(declaration.prefix), let isolation = wrapper.wrappedValue.isolation {
            text.write(isolation, " ")
        }
        for modifier in declaration.prefix.modifiers {
            text.append(TokenSpan(modifier.keyword, modifier.detail?.upper ?? modifier.keyword + 1), from: context)
            text += " "
        }
    }

    // In directive mode each generated declaration is one line, so that all of it maps to the original's line.
    // Written as pieces: joining Strings costs more than writing each.
    let lineBreak = context.lineBreak(mappedTo: context.mappedLine(of: declaration.prefix.start))

    // S-1: `private`, `final private` in a class, `private static` for a static property (X-2).
    text += spi
    text += property.isStatic ? "private static var _" : container == .class ? "final private var _" : "private var _"
    text.write(name, ": ", property.storageType)
    if writesStorageInitializer {
        let mark = text.count
        text += " = "
        if !writeStorageInitializer(for: property, context: context, to: &text) { text.truncate(to: mark) }
    }
    text.write(lineBreak, indent)

    // `mutating`/`nonmutating` only on instance properties of value types (A-1, A-2).
    let valueMember = container == .struct && !property.isStatic
    let setter = property.setter
    let setterKeyword = valueMember && setter == .nonmutating ? "nonmutating set" : "set"
    let getterKeyword = valueMember && wrapper.wrappedValue.mutatingGetter ? "mutating get" : "get"
    var storageName: String { "_" + name }
    // A-6: a class instance property of a wrapper with the enclosing-instance subscript goes through it.
    let enclosing = container == .class && !property.isStatic ? wrapper.enclosingInstance : nil
    let enclosingAccess = enclosing.map { _ in
        "\(property.storageType)[_enclosingInstance: self, wrapped: \\\(typeName).\(name), storage: \\\(typeName).\(storageName)]"
    }
    /// How `x` reaches its value: `_x.wrappedValue` (`.wrappedValue` once more per inner wrapper) or the subscript.
    func writeAccess(_ text: inout CodeText) {
        if let enclosingAccess { return text += enclosingAccess }
        text.write("_", name)
        for _ in 0...property.inner.count { text += ".wrappedValue" }
    }
    let compact = context.lineDirectives != nil
    /// After `{` and between accessors; before the closing `}`.
    func writeOpen(_ text: inout CodeText) { compact ? text += " " : text.write(eol, indent, unit) }
    func writeClose(_ text: inout CodeText) { compact ? text += " " : text.write(eol, indent) }
    writeKept(&text)
    text.write("var ", name, ": ", property.valueType, " {")
    writeOpen(&text)
    text.write(getterKeyword, " { ")
    writeAccess(&text)
    text += " }"
    var helpers: [(text: String, line: Int)] = []
    if (enclosing ?? setter) != .none {
        if property.willSet == nil && property.didSet == nil {
            writeOpen(&text)
            text.write(setterKeyword, " { ")
            writeAccess(&text)
            text += " = newValue }"
            // A-4, Decision 2: `_modify` where it keeps in-place mutation (a stored or `_modify` wrappedValue).
            // and for every composition (A-7: without it `x += 1` reads the outer wrapper once more).
            if enclosing == nil && (wrapper.wrappedValue.needsModify || !property.inner.isEmpty) {
                writeOpen(&text)
                text.write(valueMember && setter == .nonmutating ? "nonmutating " : "", "_modify { yield &")
                writeAccess(&text)
                text += " }"
            }
        } else {
            var accessText = CodeText()
            writeAccess(&accessText)
            let access = String(decoding: accessText.slice, as: UTF8.self)
            // A-5: old value (only when didSet uses it), willSet, store, didSet; the
            // observer bodies become helper methods so that `return` keeps its meaning.
            var steps: [String] = []
            let helperKeyword = property.isStatic ? "private static func"
                : container == .struct && setter == .mutating ? "private mutating func" : "private func"
            var oldName: String?
            if let didSet = property.didSet {
                oldName = observerParameter(didSet, context: context) ?? (mentions(didSet, "oldValue", context: context) ? "oldValue" : nil)
                if let oldName { steps.append("let \(oldName) = \(access)") }
            }
            if let willSet = property.willSet {
                let parameter = observerParameter(willSet, context: context) ?? "newValue"
                steps.append("\(storageName)_willSet(newValue)")
                helpers.append(("\(helperKeyword) \(storageName)_willSet(_ \(parameter): \(property.valueType)) "
                    + outdented(context.text(willSet.blockSpan), by: unit, eol: eol), context.line(of: willSet.open)))
            }
            steps.append("\(access) = newValue")
            if let didSet = property.didSet {
                let parameter = oldName.map { "_ \($0): \(property.valueType)" } ?? ""
                steps.append("\(storageName)_didSet(\(oldName ?? ""))")
                helpers.append(("\(helperKeyword) \(storageName)_didSet(\(parameter)) "
                    + outdented(context.text(didSet.blockSpan), by: unit, eol: eol), context.line(of: didSet.open)))
            }
            if compact {
                text.write(" ", setterKeyword, " { ", steps.joined(separator: "; "), " }")
            } else {
                let step = eol + indent + unit + unit
                writeOpen(&text)
                text.write(setterKeyword, " {")
                for line in steps { text.write(step, line) }
                text.write(eol, indent, unit, "}")
            }
        }
    }
    writeClose(&text)
    text += "}"

    if let projected = property.projectedType, let member = wrapper.projectedValue {
        text.write(lineBreak, indent)
        text += spi
        // S-2: `x`'s access (its setter access for the setter), the projection's own isolation.
        if let isolation = member.isolation { text.write(isolation, " ") }
        if let access = property.access { text.write(access == "open" ? "public" : access, " ") }
        if member.setter != .none {
            for modifier in declaration.prefix.modifiers where modifier.detail != nil && context.word(modifier.keyword) != .nonisolated {
                text.append(TokenSpan(modifier.keyword, modifier.detail!.upper), from: context)
                text += " "
            }
        }
        if property.isStatic { text += "static " }
        text.write("var _$", name, ": ", projected, " ")
        if member.setter == .none && !member.mutatingGetter {
            text.write("{ _", name, ".projectedValue }")
        } else {
            text.write("{ ", valueMember && member.mutatingGetter ? "mutating get" : "get", " { _", name, ".projectedValue }")
            if member.setter != .none {
                text.write(" ", valueMember && member.setter == .nonmutating ? "nonmutating set" : "set")
                text.write(" { _", name, ".projectedValue = newValue }")
            }
            text += " }"
        }
    }
    for helper in helpers {
        text.write(context.lineBreak(mappedTo: helper.line), indent, helper.text)
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
func storageInitializer(for property: WrappedProperty, value: String? = nil, context: SourceContext) -> String? {
    var text = CodeText()
    guard writeStorageInitializer(for: property, value: value, context: context, to: &text) else { return nil }
    return String(decoding: text.slice, as: UTF8.self)
}

/// `storageInitializer` written to `text`; false, with nothing written, when there is none.
func writeStorageInitializer(
    for property: WrappedProperty, value: String? = nil, context: SourceContext, to text: inout CodeText
) -> Bool {
    if !property.inner.isEmpty {
        // A-7: `A(wrappedValue: B(wrappedValue: e, bArgs…), aArgs…)`, each wrapper's arguments with its own init.
        guard var composed = value ?? property.initializer.map({ context.text($0) }) else { return false }
        let layers = [(property.wrapper, property.attributeArguments)] + property.inner.map { ($0.wrapper, $0.attributeArguments) }
        for (wrapper, span) in layers.reversed() {
            composed = "\(wrapper.name)(wrappedValue: \(composed)\(span.map { ", " + context.text($0) } ?? ""))"
        }
        text += composed
        return true
    }
    let name = property.wrapper.name
    func writeArguments(_ text: inout CodeText) {
        guard let arguments = property.attributeArguments else { return }
        text += ", "
        text.append(arguments, from: context)
    }
    if let value {
        text.write(name, "(wrappedValue: ", value)
        writeArguments(&text)
        text += ")"
        return true
    }
    switch property.storageStart {
    case .wrappedValue:
        text.write(name, "(wrappedValue: ")
        text.append(property.initializer!, from: context)
        writeArguments(&text)
        text += ")"
    case .attributeArguments:
        text.write(name, "(")
        text.append(property.attributeArguments!, from: context)
        text += ")"
    case .optionalNil: text.write(name, "(wrappedValue: nil)")
    case .emptyInit: text.write(name, "()")
    case .none: return false
    }
    return true
}
