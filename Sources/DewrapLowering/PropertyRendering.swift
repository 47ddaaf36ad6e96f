import DewrapSyntax

/// The explicit declarations for one wrapped property (SPEC Decision 2):
/// storage `_x`, computed `x`, projection `_$x`, indented like the original
/// and joined with the file's line ending.
func renderProperty(
    _ property: WrappedProperty, container: ContainerKind, storageInitializer: String?, context: SourceContext
) -> String {
    let declaration = property.declaration
    let indent = context.indentation(of: declaration.prefix.start)
    let unit = context.indentUnit
    let eol = context.lineEnding

    // Attributes other than the wrapper stay on `x`; `@_spi` is also copied to `_x` and `_$x` (S-1, I-6).
    var keptAttributes: [String] = []
    var spiAttributes: [String] = []
    for attribute in declaration.prefix.attributes where attribute.atSign != property.attribute.atSign {
        let text = context.text(TokenSpan(attribute.atSign, (attribute.arguments ?? attribute.name).upper))
        keptAttributes.append(text)
        if context.text(attribute.name.lower) == "_spi" { spiAttributes.append(text) }
    }
    let modifiers = declaration.prefix.modifiers.map { modifier in
        context.text(TokenSpan(modifier.keyword, (modifier.detail?.upper ?? modifier.keyword + 1)))
    }
    let spi = spiAttributes.map { $0 + " " }.joined()

    var storage = spi + (container == .class ? "final private " : "private ") + "var _\(property.name): \(property.storageType)"
    if let storageInitializer { storage += " = " + storageInitializer }

    let setterKeyword = container == .struct && property.wrapper.setter == .nonmutating ? "nonmutating set" : "set"
    var computed = (keptAttributes + modifiers).map { $0 + " " }.joined() + "var \(property.name): \(property.valueType) {" + eol
    computed += indent + unit + "get { _\(property.name).wrappedValue }" + eol
    if property.wrapper.setter != .none {
        computed += indent + unit + "\(setterKeyword) { _\(property.name).wrappedValue = newValue }" + eol
    }
    computed += indent + "}"

    var lines = [storage, computed]
    if let projected = property.wrapper.projectedType {
        let access = property.access.map { ($0 == "open" ? "public" : $0) + " " } ?? ""
        lines.append(spi + access + "var _$\(property.name): \(projected(property.storageValueType)) { _\(property.name).projectedValue }")
    }
    return lines.joined(separator: eol + indent)
}

/// `W(wrappedValue: e)` for `= e`, `W(wrappedValue: nil)` for an Optional without one (V-1, V-3a).
func storageInitializer(for property: WrappedProperty, value: String? = nil, context: SourceContext) -> String? {
    if let value { return "\(property.wrapper.name)(wrappedValue: \(value))" }
    if let initializer = property.initializer {
        return "\(property.wrapper.name)(wrappedValue: \(context.text(initializer)))"
    }
    if property.isOptional && property.wrapper.hasInitWrappedValue {
        return "\(property.wrapper.name)(wrappedValue: nil)"
    }
    return nil
}
