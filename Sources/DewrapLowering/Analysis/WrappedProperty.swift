import DewrapSyntax

/// A member property with a known wrapper, read off its declaration. A class:
/// the plans for its type, its memberwise init and its `$x` rewrites all refer
/// to the one analysis, which is never changed once made.
final class WrappedProperty {
    /// Its one binding is `declaration.bindings[0]`: a copy of it here would retain (and the
    /// object's release release) the arrays it holds, for nothing lowering reads later.
    let declaration: VariableDecl
    let wrapper: WrapperShape
    let attribute: Attribute
    /// The name without backticks (`enum` for `` `enum` ``): what `_x`, `_$x` and `$x` are made of.
    let name: String
    let nameToken: Int
    /// Declared `` `enum` ``: where the name is written as code (a parameter's use, `\T.x`), the backticks stay.
    let isBackticked: Bool
    var spelledName: String { isBackticked ? "`" + name + "`" : name }
    /// `T` as written (or inferred), e.g. `Bool`, `Int!`.
    let valueType: String
    /// `T` with a trailing `!` made `?`: the type `wrappedValue` has.
    let storageValueType: String
    let isOptional: Bool
    let initializer: TokenSpan?
    /// The attribute's arguments without their parentheses: `"k"` in `@AppStorage("k")`.
    let attributeArguments: TokenSpan?
    /// `W<T>` (or `W` for a wrapper without generic parameters); `A<B<T>>` for a composition.
    var storageType: String { types.storageType }
    /// The wrappers inside the outermost one, outer to inner: `@A @B @C` gives B, C.
    let inner: [WrapperLayer]
    /// Whether and how `x` can be set: the outermost wrapper's setter, or for a
    /// composition decided from the innermost wrapper outwards.
    var setter: WrapperShape.Setter { inner.isEmpty ? wrapper.wrappedValue.setter : composedSetter }
    let composedSetter: WrapperShape.Setter
    /// The type of `projectedValue` for this property, if the wrapper has one.
    var projectedType: String? { types.projectedType }
    /// Both, as the table of derived types gives them: the analysis hands its entry over whole,
    /// where copying its two Strings out and destroying it cost an outlined copy and destroy for every property.
    private let types: DerivedTypes.Entry
    /// The getter's access keyword (`public` for `public private(set)`), if written.
    let access: String?
    let isStatic: Bool
    /// The `#if` branch the declaration sits in, if any.
    let placement: Placement?
    /// `willSet` and `didSet` observers.
    let willSet: Observer?
    let didSet: Observer?

    init(
        declaration: VariableDecl, wrapper: WrapperShape, attribute: Attribute, name: String,
        nameToken: Int, valueType: String, storageValueType: String, isOptional: Bool, initializer: TokenSpan?,
        attributeArguments: TokenSpan?, types: DerivedTypes.Entry, access: String?, isStatic: Bool,
        placement: Placement?, willSet: Observer?, didSet: Observer?, inner: [WrapperLayer] = [],
        composedSetter: WrapperShape.Setter = .none, isBackticked: Bool = false
    ) {
        self.isBackticked = isBackticked
        self.declaration = declaration
        self.wrapper = wrapper
        self.attribute = attribute
        self.name = name
        self.nameToken = nameToken
        self.valueType = valueType
        self.storageValueType = storageValueType
        self.isOptional = isOptional
        self.initializer = initializer
        self.attributeArguments = attributeArguments
        self.types = types
        self.access = access
        isBelowInternal = access == "private" || access == "fileprivate"
        self.isStatic = isStatic
        self.placement = placement
        self.willSet = willSet
        self.didSet = didSet
        self.inner = inner
        self.composedSetter = composedSetter
        initializesFromWrappedValue =
            wrapper.initializesStorageFromWrappedValue
            && inner.allSatisfy { $0.wrapper.initializesStorageFromWrappedValue }
        if initializer != nil {
            storageStart = .wrappedValue
        } else if attribute.arguments != nil {
            storageStart = .attributeArguments
        } else if wrapper.hasInitWithoutArguments {
            storageStart = .emptyInit
        } else if isOptional && initializesFromWrappedValue {
            storageStart = .optionalNil
        } else {
            storageStart = .none
        }
    }

    /// How the storage is initialized at the declaration (V-1…V-3), in the compiler's order: an
    /// initial value, then attribute arguments (`@W()` too), then the wrapper type's own `init()`
    /// (even for an Optional), then `nil` for an Optional through its own `init(wrappedValue:)`.
    enum StorageStart {
        /// `= e`: `W(wrappedValue: e, args…)`.
        case wrappedValue
        /// `@W(args)` or `@W()` without `= e`: `W(args)`.
        case attributeArguments
        /// An Optional without a value: `W(wrappedValue: nil)` (V-3a).
        case optionalNil
        /// `W()` (V-3b).
        case emptyInit
        /// Not at the declaration: an init must set it (V-3c).
        case none
    }

    /// Decided once, with the analysis: asked several times for every property.
    let storageStart: StorageStart

    /// Every wrapper of the property has the compiler's `init(wrappedValue:)` (see
    /// `WrapperShape.initializesStorageFromWrappedValue`).
    private let initializesFromWrappedValue: Bool

    /// The storage gets a value at its declaration (V-1…V-3b).
    var storageInitializedAtDeclaration: Bool { storageStart != .none }

    /// The memberwise parameter has the wrapped type (M-4), not the wrapper type: with an initial
    /// value, or without one, attribute arguments or `init()` when `init(wrappedValue:)` makes the storage.
    var takesWrappedValueParameter: Bool {
        switch storageStart {
        case .wrappedValue: return wrapper.hasInitWrappedValue
        case .optionalNil, .none: return initializesFromWrappedValue
        case .attributeArguments, .emptyInit: return false
        }
    }

    /// An assignment to `x` before `self` is initialized can make the storage with
    /// `W(wrappedValue: v, args…)` (N-2): with an initial value, or without one or attribute
    /// arguments when every wrapper has the compiler's `init(wrappedValue:)`; otherwise it is N-5's error.
    var reinitializesFromWrappedValue: Bool {
        switch storageStart {
        case .wrappedValue: return wrapper.hasInitWrappedValue
        case .optionalNil, .emptyInit, .none: return initializesFromWrappedValue
        case .attributeArguments: return false
        }
    }

    /// Private or fileprivate (M-2). Found once: the memberwise init asks several times a property.
    let isBelowInternal: Bool
}

/// A `willSet` or `didSet` with a body: its parameter and braces, all
/// that lowering reads of it (a copy of the `Accessor` would retain its body's items).
struct Observer {
    /// `(name)` including the parentheses, if written.
    var parameter: TokenSpan?
    /// The body's `{`, and its `}` (nil when the file ended first).
    var open: Int
    var close: Int?

    init(_ accessor: Accessor) {
        parameter = accessor.parameter
        open = accessor.body!.open
        close = accessor.body!.close
    }

    /// The `{ … }`.
    var blockSpan: TokenSpan { TokenSpan(open, (close ?? open) + 1) }
}

/// One wrapper of a composition other than the outermost.
struct WrapperLayer {
    var attribute: Attribute
    var wrapper: WrapperShape
    var attributeArguments: TokenSpan?
    /// This layer's storage type, e.g. `B<T>` in `A<B<T>>`.
    var storageType: String
}

/// Where a member sits in a `#if` region: the region and the branch.
/// A class: every member of a branch shares it, and an optional struct this
/// size is copied through its type's metadata (each member and property holds one).
final class Placement {
    let region: IfConfig
    let clause: Int
    /// Inside a `#if` that is itself inside one.
    let nested: Bool

    init(region: IfConfig, clause: Int, nested: Bool) {
        self.region = region
        self.clause = clause
        self.nested = nested
    }
}

/// What the analysis says about one variable declaration.
enum PropertyVerdict {
    case notWrapped
    case lower(WrappedProperty)
    /// Left exactly as written, with this diagnostic. Indirect: the verdict is then one
    /// reference whatever the case, which a copy retains without switching on the case
    /// (an inline diagnostic made every verdict's copy and destruction an outlined switch).
    indirect case leave(Diagnostic)
}

enum ContainerKind {
    case `struct`, `class`, actor, `enum`, `protocol`, `extension`
    /// A function, accessor or closure body (P-6).
    case local

    /// The members of a type of this kind.
    init(_ kind: TypeKind) {
        switch kind {
        case .struct: self = .struct
        case .class: self = .class
        case .actor: self = .actor
        case .enum: self = .enum
        case .protocol: self = .protocol
        case .extension: self = .extension
        }
    }
}

/// Reads a member `var` with a known wrapper, or says why it stays as written.
func analyzeProperty(
    _ declaration: VariableDecl, in container: ContainerKind, placement: Placement?, context: SourceContext
) -> PropertyVerdict {
    let tree = context.tree
    // The first wrapper and how many there are: an array of them only for a composition (rare).
    var first: (Attribute, WrapperShape)?
    var wrapperCount = 0
    for attribute in declaration.prefix.attributes {
        guard let shape = context.wrapper(of: attribute) else { continue }
        if first == nil { first = (attribute, shape) }
        wrapperCount += 1
    }
    guard let (attribute, wrapper) = first else { return .notWrapped }
    let attributeOffset = tree.tokens[attribute.atSign].start
    if let other = declaration.prefix.attributes.first(where: {
        $0.atSign != attribute.atSign && isUnknownWrapperCandidate($0, context: context)
    }) {
        let name = declaration.bindings.first.map { context.text($0.pattern) } ?? ""
        // SwiftUI's `#Preview` macro makes a `@Previewable` variable a property of the view it writes:
        // only as written does the wrapper get that view's storage.
        if context.span(other.name, isSpelled: "Previewable") {
            return .leave(
                Diagnostic(
                    .warning, at: tree.tokens[other.atSign].start,
                    "cannot lower '\(name)': '@Previewable' is for the '#Preview' macro, which makes it a property of the preview's view; left as written"
                ))
        }
        return .leave(Diagnostic(.warning, at: attributeOffset, "cannot lower '\(name)': composed property wrappers are not supported yet"))
    }
    guard context.word(declaration.keyword) == .var else {
        return .leave(Diagnostic(.error, at: attributeOffset, "property wrapper can only be applied to a 'var'"))
    }
    guard declaration.bindings.count == 1, let nameToken = declaration.bindings[0].name else {
        return .leave(Diagnostic(.error, at: attributeOffset, "property wrapper can only apply to a single variable"))
    }
    // The binding's token positions, read in place: a copy of the binding retains and releases its arrays.
    let binding = BindingTokens(declaration.bindings[0])
    var name = context.text(nameToken)
    let nameOffset = tree.tokens[nameToken].start
    let prefix = declaration.prefix
    // The modifiers that matter below, found in one pass over them rather than one pass each.
    var isClass = false
    var isStatic = false
    var isOverride = false
    var (isLazy, isWeak, isUnowned) = (false, false, false)
    for modifier in prefix.modifiers {
        switch context.word(modifier.keyword) {
        case .class: isClass = true
        case .static: isStatic = true
        case .override: isOverride = true
        case .lazy: isLazy = true
        case .weak: isWeak = true
        case .unowned: isUnowned = true
        default: break
        }
    }
    isStatic = isStatic || isClass
    switch container {
    case .enum where !isStatic:
        return .leave(Diagnostic(.error, at: nameOffset, "non-static property '\(name)' declared inside an enum cannot have a wrapper"))
    case .protocol:
        return .leave(Diagnostic(.error, at: nameOffset, " property '\(name)' declared inside a protocol cannot have a wrapper"))
    case .extension where !isStatic:
        return .leave(Diagnostic(.error, at: nameOffset, "non-static property '\(name)' declared inside an extension cannot have a wrapper"))
    default:
        break
    }
    if let word: Word = isLazy ? .lazy : isWeak ? .weak : isUnowned ? .unowned : nil {
        return .leave(Diagnostic(.error, at: nameOffset, "property '\(name)' with a wrapper cannot also be \(word.spelling)"))
    }
    if prefix.attributes.contains(where: { context.span($0.name, isSpelled: "NSManaged") }) {
        return .leave(Diagnostic(.error, at: nameOffset, "property '\(name)' with a wrapper cannot also be '@NSManaged'"))
    }
    if isOverride {
        return .leave(Diagnostic(.error, at: nameOffset, "property '\(name)' with attached wrapper cannot override another property"))
    }
    if isClass {
        return .leave(Diagnostic(.error, at: nameOffset, "class stored properties not supported in classes; did you mean 'static'?"))
    }
    // Only `@available(*, unavailable)`: one platform's unavailability (`@available(tvOS, unavailable)`) is
    // accepted when compiling for the others (SPEC Corrections), and stays on `x` and `_$x`.
    if let unavailable = declaration.prefix.attributes.first(where: { attribute in
        guard context.token(attribute.name.lower, isSpelled: "available"), let arguments = attribute.innerArguments,
            context.tree.tokens[arguments.lower].kind == .binaryOperator || context.token(arguments.lower, isSpelled: "*")
        else { return false }
        return (arguments.lower..<arguments.upper).contains { context.token($0, isSpelled: "unavailable") }
    }) {
        return .leave(
            Diagnostic(
                .error, at: tree.tokens[unavailable.name.lower].start,
                "stored properties cannot be marked unavailable with '@available'"))
    }
    // `` `enum` ``: `_enum` and `_$enum`, as the compiler names them, and `` `enum` `` where the name is code.
    // Not a raw identifier (`` `two words` ``), nor a local (its own rendering writes the name as code) or a
    // composition.
    let isBackticked = context.bytes[tree.tokens[nameToken].start] == UInt8(ascii: "`")
    if isBackticked {
        let inner = withoutBackticks(name)
        guard container != .local, wrapperCount == 1, let first = inner.utf8.first, startsName(first), inner.utf8.allSatisfy(isNameByte)
        else {
            return .leave(Diagnostic(.warning, at: nameOffset, "cannot lower \(name): a name written in backticks is not supported yet"))
        }
        name = inner
    }
    var willSet: Observer?
    var didSet: Observer?
    if let accessors = declaration.bindings[0].accessors {
        guard case .accessors(let list) = accessors.content,
            list.allSatisfy({ context.word($0.keyword) == .willSet || context.word($0.keyword) == .didSet })
        else {
            return .leave(Diagnostic(.error, at: attributeOffset, "property wrapper cannot be applied to a computed property"))
        }
        let willSetAccessor = list.first { context.word($0.keyword) == .willSet }
        let didSetAccessor = list.first { context.word($0.keyword) == .didSet }
        if willSetAccessor?.body == nil && willSetAccessor != nil || didSetAccessor?.body == nil && didSetAccessor != nil {
            return .leave(Diagnostic(.error, at: nameOffset, "expected '{' to start an observer body"))
        }
        willSet = willSetAccessor.map(Observer.init)
        didSet = didSetAccessor.map(Observer.init)
    }
    if container == .protocol {
        // `static` in a protocol extension or requirement: not stored, not lowered.
        return .leave(Diagnostic(.warning, at: nameOffset, "cannot lower '\(name)': wrapped properties in protocols are not supported"))
    }
    if binding.initializer != nil && !wrapper.hasInitWrappedValue {
        return .leave(Diagnostic(.warning, at: nameOffset, "cannot lower '\(name)': '\(wrapper.name)' has no init(wrappedValue:)"))
    }
    // Published outside a class instance: its `wrappedValue` is unavailable, and only the enclosing-instance subscript works.
    // SPEC Corrections, X-1: an actor is a reference type and the compiler goes through the subscript, but
    // explicit Swift cannot: it needs key paths to the actor-isolated `x` and `_x`, which cannot be formed.
    if wrapper.wrappedValue.unavailable != nil, container == .actor, !isStatic, wrapper.enclosingInstance != nil {
        return .leave(
            Diagnostic(
                .warning, at: nameOffset,
                "cannot lower '\(name)': in an actor, '\(wrapper.name)' goes through the enclosing-instance subscript, whose key paths to actor-isolated properties explicit Swift cannot form"
            ))
    }
    if let message = wrapper.wrappedValue.unavailable, !(container == .class && !isStatic && wrapper.enclosingInstance != nil) {
        return .leave(Diagnostic(.error, at: attributeOffset, "'wrappedValue' is unavailable" + (message.isEmpty ? "" : ": " + message)))
    }
    let attributeArguments = attribute.innerArguments

    // The wrapped type: written, from `@W<T>`, inferred with certainty, or the only one a non-generic wrapper has.
    // `init()`, not `[:]`: the literal goes through `init(dictionaryLiteral:)` for every property.
    var bindings = [String: [String]]()
    var valueType: String?
    let writtenGenericArguments = attribute.name.upper > attribute.name.lower + 1 ? attributeGenericArguments(attribute, context: context) : nil
    if let writtenGenericArguments {
        let generic = context.text(writtenGenericArguments)
        let arguments = splitTopLevel(String(generic.dropFirst().dropLast()), on: ",").map { typeTokens($0) }
        for (parameter, argument) in zip(wrapper.genericParameters, arguments) { bindings[parameter] = argument }
    } else if wrapperCount == 1, let arguments = attributeArguments,
        wrapper.genericParameters.contains(where: { !wrapper.wrappedValueTokens.contains($0) })
    {
        // A generic parameter `wrappedValue`'s type does not name (Fluent's `@Siblings(through: Pivot.self, …)
        // var tags: [Tag]`, `@Timestamp(key: …, on: .create)`) can only come from the call: a `T.self` argument,
        // the same-type requirement of the one init that takes its labels, or an implicit member's declared type.
        // Only those: the rest come from the property's type, as the compiler's do.
        bindings = genericArguments(fromMetatypeArguments: context.text(arguments), of: wrapper, at: attribute.atSign, context: context)
            .filter { !wrapper.wrappedValueTokens.contains($0.key) }
    }
    // The file's table of derived types holds this wrapper with a value type spelled so:
    // its String and types are taken from there, and none is made.
    var known: DerivedTypes.Handle?
    if let type = binding.type {
        known = wrapperCount == 1 && bindings.isEmpty ? context.derivedTypesHandle(of: wrapper, spelledAs: type) : nil
        valueType = known.map(context.derivedTypes.valueType(at:)) ?? context.text(type)
    } else if wrapperCount == 1
        && (writtenGenericArguments != nil || wrapper.genericParameters.isEmpty
            || !bindings.isEmpty && wrapper.genericParameters.allSatisfy { bindings[$0] != nil })
    {
        valueType = wrapper.wrappedValueType(bindings)
    } else if container == .local, let initializer = binding.initializer, let named = context.localInitialValueType(initializer) {
        // `@Bindable var store = store`: the name the code around sees.
        valueType = named
    } else if let initializer = binding.initializer {
        valueType = context.inferredType(of: initializer)
    } else if wrapperCount == 1, attributeArguments == nil, let pinned = wrapper.typeOfInitWithoutArguments {
        valueType = pinned
    } else if wrapperCount == 1, let arguments = attributeArguments {
        // `@Environment(Model.self)`: a `T.self` argument for a parameter of type `Value.Type` gives `Value`.
        bindings = genericArguments(fromMetatypeArguments: context.text(arguments), of: wrapper, at: attribute.atSign, context: context)
        if wrapper.genericParameters.allSatisfy({ bindings[$0] != nil }) {
            valueType = wrapper.wrappedValueType(bindings)
        }
    }
    guard let valueType else {
        return .leave(Diagnostic(.warning, at: nameOffset, "cannot lower '\(name)': its type cannot be read from the source; add a type annotation"))
    }
    if wrapperCount > 1 {
        let layers = declaration.prefix.attributes.compactMap { attribute in context.wrapper(of: attribute).map { (attribute, $0) } }
        return analyzeComposition(
            declaration, layers: layers, binding: binding, name: name, nameToken: nameToken, valueType: valueType,
            container: container, isStatic: isStatic, placement: placement, willSet: willSet, didSet: didSet, context: context)
    }
    // The marks are ASCII and end or start the type: read as bytes, not compared as Characters.
    var utf8 = valueType
    let (lastByte, startsOptional) = utf8.withUTF8 { bytes in
        let prefix: StaticString = "Optional<"
        let startsOptional =
            bytes.count >= prefix.utf8CodeUnitCount
            && prefix.withUTF8Buffer {
                sameBytes(UnsafeBufferPointer(rebasing: bytes[..<$0.count]), $0)
            }
        return (bytes.last, startsOptional)
    }
    let isImplicitlyUnwrapped = lastByte == UInt8(ascii: "!")
    let storageValueType = isImplicitlyUnwrapped ? String(valueType.dropLast()) + "?" : valueType
    let isOptional = isImplicitlyUnwrapped || lastByte == UInt8(ascii: "?") || startsOptional
    // Without generic arguments on the attribute, they follow from the wrapper and the value type alone.
    let cached = bindings.isEmpty
    let types: DerivedTypes.Entry?
    if let known {
        types = context.derivedTypes.entry(at: known)
    } else if cached, let found = context.derivedTypes.entry(wrapper: wrapper, valueType: valueType) {
        types = found
    } else if cached, let plain = wrapper.typesForPlainName(storageValueType) {
        // `State<Value>` for `Int`: matching the value type would bind `Value` to it, and nothing else.
        types = DerivedTypes.Entry(storageType: plain.storage, projectedType: plain.projected)
        context.derivedTypes.store(types, wrapper: wrapper, valueType: valueType)
    } else {
        // The storage's generic arguments: matched from `wrappedValue`'s declared type, then from same-type requirements.
        if !wrapper.genericParameters.isEmpty {
            // An implicitly unwrapped `wrappedValue: T!` is an Optional, as the property's own `Int!` is read
            // for the storage (`Int?`): Quick's `@TestState var x: Int!` is a `TestState<Int>`.
            let declared = wrapper.wrappedValue.type
            let pattern = declared.hasSuffix("!") ? String(declared.dropLast()) + "?" : declared
            _ = matchType(pattern, storageValueType, parameters: wrapper.genericParameters, bindings: &bindings)
            for requirement in wrapper.initializers.flatMap(\.sameType) {
                if let known = bindings[requirement.0] {
                    _ = matchType(requirement.1, typeText(known), parameters: wrapper.genericParameters, bindings: &bindings)
                }
            }
        }
        types =
            wrapper.genericParameters.allSatisfy({ bindings[$0] != nil })
            ? DerivedTypes.Entry(storageType: wrapper.storageType(bindings), projectedType: wrapper.projectedType(bindings)) : nil
        if cached { context.derivedTypes.store(types, wrapper: wrapper, valueType: valueType) }
    }
    guard let types else {
        return .leave(
            Diagnostic(
                .warning, at: nameOffset,
                "cannot lower '\(name)': the generic arguments of '\(wrapper.name)' cannot be read from its type"))
    }
    let access = context.declaredAccess(declaration.prefix)
    return .lower(
        WrappedProperty(
            declaration: declaration, wrapper: wrapper, attribute: attribute, name: name, nameToken: nameToken,
            valueType: valueType, storageValueType: storageValueType, isOptional: isOptional, initializer: binding.initializer,
            attributeArguments: attributeArguments, types: types,
            access: access, isStatic: isStatic, placement: placement, willSet: willSet, didSet: didSet, isBackticked: isBackticked))
}

/// A composition `@A @B var x`: storage `A<B<T>>`, read innermost out.
/// Only the common form is lowered: every wrapper has `init(wrappedValue:)`
/// (not an autoclosure on the outermost), nonmutating getters, no isolation
/// inside, no enclosing-instance subscript, and the storage starts from `= e`
/// or is left to an init (V-3c); anything else stays as written, with a warning.
private func analyzeComposition(
    _ declaration: VariableDecl, layers: [(Attribute, WrapperShape)], binding: BindingTokens, name: String, nameToken: Int,
    valueType: String, container: ContainerKind, isStatic: Bool, placement: Placement?, willSet: Observer?, didSet: Observer?,
    context: SourceContext
) -> PropertyVerdict {
    let nameOffset = context.tree.tokens[nameToken].start
    func leave(_ reason: String) -> PropertyVerdict {
        .leave(Diagnostic(.warning, at: nameOffset, "cannot lower '\(name)': \(reason)"))
    }
    let shapes = layers.map(\.1)
    guard shapes.allSatisfy({ $0.hasInitWrappedValue && !$0.wrappedValue.mutatingGetter && $0.wrappedValue.unavailable == nil }),
        !shapes[0].wrappedValueIsAutoclosure,
        shapes.dropFirst().allSatisfy({ $0.wrappedValue.isolation == nil }),
        !(container == .class && !isStatic && shapes.contains { $0.enclosingInstance != nil })
    else {
        return leave("this composition of property wrappers is not supported yet")
    }
    guard layers.allSatisfy({ $0.0.name.upper == $0.0.name.lower + 1 || !context.token($0.0.name.upper - 1, hasSuffix: ">") }) else {
        return leave("generic arguments on composed property wrappers are not supported yet")
    }
    let isOptional = valueType.hasSuffix("?") || valueType.hasSuffix("!") || valueType.hasPrefix("Optional<")
    if binding.initializer == nil
        && (isOptional || shapes.contains { $0.hasInitWithoutArguments }
            || !shapes.allSatisfy(\.initializesStorageFromWrappedValue) || layers.contains { $0.0.arguments != nil })
    {
        return leave("a composition of property wrappers without an initial value is not supported yet")
    }
    guard !valueType.hasSuffix("!") else { return leave("an implicitly unwrapped composition is not supported yet") }
    // Innermost out: each wrapper wraps the storage type of the one inside it.
    var wrapped = valueType
    var storage: [(attribute: Attribute, shape: WrapperShape, arguments: TokenSpan?, type: String, bindings: [String: [String]])] = []
    for (attribute, shape) in layers.reversed() {
        var bindings: [String: [String]] = [:]
        if !shape.genericParameters.isEmpty {
            _ = matchType(shape.wrappedValue.type, wrapped, parameters: shape.genericParameters, bindings: &bindings)
        }
        guard shape.genericParameters.allSatisfy({ bindings[$0] != nil }) else {
            return leave("the generic arguments of '\(shape.name)' cannot be read from its type")
        }
        let type = shape.storageType(bindings)
        // A non-generic wrapper must wrap exactly this type.
        if shape.genericParameters.isEmpty && typeText(typeTokens(shape.wrappedValue.type)) != typeText(typeTokens(wrapped)) {
            return leave("'\(shape.name)' does not wrap '\(wrapped)'")
        }
        storage.insert((attribute, shape, attribute.innerArguments, type, bindings), at: 0)
        wrapped = type
    }
    // setter mutability from the innermost wrapper outwards.
    var setter = shapes.last!.wrappedValue.setter
    for shape in shapes.dropLast().reversed() where setter == .mutating {
        setter = shape.wrappedValue.setter
    }
    let outer = storage[0]
    let projectedType = outer.shape.projectedType(outer.bindings)
    let access = context.declaredAccess(declaration.prefix)
    let property = WrappedProperty(
        declaration: declaration, wrapper: outer.shape, attribute: outer.attribute, name: name,
        nameToken: nameToken, valueType: valueType, storageValueType: valueType, isOptional: isOptional,
        initializer: binding.initializer, attributeArguments: outer.arguments,
        types: DerivedTypes.Entry(storageType: outer.type, projectedType: projectedType), access: access, isStatic: isStatic, placement: placement,
        willSet: willSet, didSet: didSet,
        inner: storage.dropFirst().map {
            WrapperLayer(attribute: $0.attribute, wrapper: $0.shape, attributeArguments: $0.arguments, storageType: $0.type)
        },
        composedSetter: setter)
    return .lower(property)
}

/// Generic arguments read from `T.self` arguments passed where an init of the wrapper takes `Param.Type`,
/// and from key paths `\.name` passed where it takes `KeyPath<Root, Param>` (also `any KeyPath<Root,
/// Param> & Sendable`, swift-dependencies' `@Dependency(\.date)`). The arguments go to an init's
/// parameters as a call's do: in order, by label, a parameter with a default value left out. Where
/// several inits take such a call, they must agree. Where only one init takes the call's labels, its
/// same-type requirements binding a generic parameter to a named type (`where Format == Default`) hold too.
private func genericArguments(
    fromMetatypeArguments text: String, of wrapper: WrapperShape, at attribute: Int, context: SourceContext
) -> [String: [String]] {
    let arguments = splitTopLevel(text, on: ",").map { argument -> (label: String, value: String) in
        let tokens = typeTokens(argument)
        if tokens.count > 2, tokens[1] == ":" { return (tokens[0], typeText(Array(tokens[2...]))) }
        return ("_", typeText(tokens))
    }
    var found: [String: [String]] = [:]
    let labels = arguments.map(\.label)
    let takers = wrapper.initializers.count { $0.accepts(labels) }
    for initializer in wrapper.initializers {
        guard let parameters = initializer.parameters(for: labels) else { continue }
        var bindings: [String: [String]] = [:]
        for (parameter, argument) in zip(parameters, arguments) where parameter < initializer.parameterTypes.count {
            let pattern = typeTokens(initializer.parameterTypes[parameter])
            let value = typeTokens(argument.value)
            // `\.self` for `KeyPath<Root, Value>`: the identity key path, so `Value` is `Root`
            // (`@Environment(\.self)` reads `EnvironmentValues`). Any other key path's value type
            // is known only from a declaration of its member.
            // `KeyPath<FocusedValues, Value?>` (FocusedValue's) binds `Value` to the member's type without its `?`.
            if let (root, valuePattern) = keyPathParameter(pattern), let valueParameter = valuePattern.first,
                wrapper.genericParameters.contains(valueParameter), !wrapper.genericParameters.contains(root),
                valuePattern.count == 1 || valuePattern.count == 2 && valuePattern.last == "?"
            {
                if value == ["\\", ".", "self"] {
                    if valuePattern.count == 1 { bindings[valueParameter] = [root] }
                } else if let members = keyPathMembers(value, root: root),
                    let type = keyPathValueType(root: root, members: members, at: attribute, context: context)
                {
                    // `\.dismiss` for `KeyPath<EnvironmentValues, Value>`: `Value` is the member's declared type.
                    let tokens = typeTokens(type)
                    if valuePattern.count == 1 {
                        bindings[valueParameter] = tokens
                    } else if tokens.count >= 2, tokens.last == "?", !hasTopLevelArrow(tokens) {
                        // `AnyPoster?`, not `(A) -> B?`, whose `?` is its result's; `((A) -> B)?` gives `(A) -> B`,
                        // as the compiler spells it.
                        bindings[valueParameter] = withoutEnclosingParentheses(tokens.dropLast())
                    }
                }
                continue
            }
            // `Client.self` for `Key.Type`, where the init's own `Key` conforms to `P` and `where Key.Value == Value`
            // (swift-dependencies' `@Dependency(Client.self)`): `Value` is `Client`'s associated type `Value`.
            if pattern.count == 3, pattern[1] == ".", pattern[2] == "Type", !wrapper.genericParameters.contains(pattern[0]),
                let conformances = initializer.genericConformances[pattern[0]]
            {
                guard value.count == 3, value[1] == ".", value[2] == "self", isNameToken(value[0]) else { continue }
                let prefix = pattern[0] + "."
                for (left, right) in initializer.sameType {
                    let (member, parameter) = left.hasPrefix(prefix) ? (left, right) : (right, left)
                    let associated = String(member.dropFirst(prefix.count))
                    guard member.hasPrefix(prefix), wrapper.genericParameters.contains(parameter), isNameToken(associated),
                        typeTokens(associated).count == 1,
                        let witness = context.associatedTypeWitness(associated, of: value[0], conformingTo: conformances)
                    else { continue }
                    bindings[parameter] = typeTokens(witness)
                }
                continue
            }
            // `.iso8601(withMilliseconds: true)` for `TimestampFormatFactory<Format>`: an implicit member of the
            // parameter's own generic type, whose declared type (`TimestampFormatFactory<ISO8601TimestampFormat>`)
            // the parameter's is matched against.
            // Also of a qualified type (`Defaults.Key<Value>`, sindresorhus/Defaults' `@Default(.popupPosition)`), whose
            // member may be declared on a superclass (`inheritedStaticMemberType`); the declaration names the type
            // without the qualifier (`Key<PopupPosition>`), and so is the parameter's matched then.
            if let member = implicitMember(value), let open = pattern.firstIndex(of: "<"), isDottedName(pattern[..<open]),
                !wrapper.genericParameters.contains(pattern[open - 1])
            {
                var matched = bindings
                if context.bindFromImplicitMember(
                    member.name, isCall: member.isCall, of: pattern, open: open, parameters: wrapper.genericParameters, bindings: &matched)
                {
                    bindings = matched
                }
                continue
            }
            // `Model.self` for `Value.Type` (not a key path's `\.self`). Only names, dots and generic
            // arguments, and no two names side by side (`Setting5 s.self`, which does not parse): the
            // type is written into the output, which must not have a parse error the input lacks there.
            let type = value.dropLast(2)
            guard pattern.count == 3, pattern[1] == ".", pattern[2] == "Type", wrapper.genericParameters.contains(pattern[0]),
                value.count >= 3, value[value.count - 2] == ".", value.last == "self", let first = type.first, isNameToken(first),
                type.allSatisfy(isTypePathToken), !zip(type, type.dropFirst()).contains(where: { isNameToken($0) && isNameToken($1) })
            else { continue }
            bindings[pattern[0]] = Array(type)
        }
        // The only init that takes these labels: the compiler must call it, and its same-type requirements
        // (`extension TimestampProperty where Format == DefaultTimestampFormat { init(key:on:) }`) hold.
        if takers == 1 && !initializer.isGeneric {
            for requirement in initializer.sameType + initializer.extensionSameType {
                for (parameter, type) in [requirement, (requirement.1, requirement.0)]
                where wrapper.genericParameters.contains(parameter) && bindings[parameter] == nil {
                    let tokens = typeTokens(type)
                    if tokens.first.map(isNameToken) == true,
                        !tokens.contains(where: { wrapper.genericParameters.contains($0) || $0 == "Self" })
                    {
                        bindings[parameter] = tokens
                    }
                }
            }
        }
        guard !bindings.isEmpty else { continue }
        // Two inits that take the call and read different types from it: which one the compiler picks is not known here.
        guard found.isEmpty || found == bindings else { return [:] }
        found = bindings
    }
    return found
}

/// Type tokens without parentheses around all of them that make no tuple: `(A) -> B` for `((A) -> B)`.
private func withoutEnclosingParentheses(_ tokens: ArraySlice<String>) -> [String] {
    guard tokens.first == "(", tokens.last == ")" else { return Array(tokens) }
    var depth = 0
    for index in tokens.indices {
        switch tokens[index] {
        case "(", "[", "<": depth += 1
        case ")", "]", ">": depth -= 1
        case "," where depth == 1: return Array(tokens)
        default: break
        }
        // The first `(` closes before the end: `(A) -> (B)` is not enclosed.
        if depth == 0 && index < tokens.endIndex - 1 { return Array(tokens) }
    }
    return Array(tokens.dropFirst().dropLast())
}

/// `.name` or `.name(…)` as type tokens (an implicit member expression, named or called): the name, and whether it is called.
private func implicitMember(_ tokens: [String]) -> (name: String, isCall: Bool)? {
    guard tokens.count >= 2, tokens[0] == ".", isNameToken(tokens[1]) else { return nil }
    if tokens.count == 2 { return (tokens[1], false) }
    // One call, `(` … `)` to the end.
    guard tokens[2] == "(", tokens.last == ")" else { return nil }
    var depth = 0
    for index in 2..<tokens.count {
        if ["(", "[", "<"].contains(tokens[index]) { depth += 1 }
        if [")", "]", ">"].contains(tokens[index]) { depth -= 1 }
        if depth == 0 && index < tokens.count - 1 { return nil }
    }
    return (tokens[1], true)
}

/// `(Root, Value)` for a parameter type `KeyPath<Root, Value>`, as type tokens (`Value` may be more
/// than one: `Value?`): also a writable key path's, and any of them as `any …` and with `& Sendable`
/// after it.
private func keyPathParameter(_ pattern: [String]) -> (root: String, value: ArraySlice<String>)? {
    var tokens = pattern[...]
    if tokens.first == "any" { tokens = tokens.dropFirst() }
    if tokens.count >= 8, tokens[tokens.endIndex - 2] == "&", tokens.last == "Sendable" { tokens = tokens.dropLast(2) }
    guard tokens.count >= 6 else { return nil }
    let at = tokens.startIndex
    guard ["KeyPath", "WritableKeyPath", "ReferenceWritableKeyPath"].contains(tokens[at]), tokens[at + 1] == "<",
        tokens[at + 3] == ",", tokens.last == ">", !tokens[(at + 4)...].dropLast().contains(where: { $0 == "<" || $0 == ">" || $0 == "," })
    else { return nil }
    return (tokens[at + 2], tokens[(at + 4)...].dropLast())
}

/// Whether type tokens are one name or dotted names (`Key`, `Defaults.Key`).
func isDottedName(_ tokens: ArraySlice<String>) -> Bool {
    guard tokens.count % 2 == 1 else { return false }
    return tokens.enumerated().allSatisfy { offset, token in offset % 2 == 0 ? isNameToken(token) : token == "." }
}

/// Whether a type token (`typeTokens`) is a name: it starts with a letter, `_` or a non-ASCII byte.
private func isNameToken(_ token: String) -> Bool {
    guard let first = token.utf8.first else { return false }
    return first == UInt8(ascii: "_") || first >= 0x80 || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z"))
}

/// Whether a type token can be part of a named type (`A.B<C, D?>`): a name or `.`, `<`, `>`, `,`, `?`, `!`.
private func isTypePathToken(_ token: String) -> Bool {
    switch token {
    case ".", "<", ">", ",", "?", "!": return true
    default: return isNameToken(token)
    }
}

/// The names of a key path of plain members, `\.a.b` or `\Root.a.b` (no subscript, optional chaining
/// or tuple index), given as type tokens; nil for any other.
private func keyPathMembers(_ tokens: [String], root: String) -> [String]? {
    guard tokens.first == "\\" else { return nil }
    var rest = tokens.dropFirst()
    if rest.first == root { rest = rest.dropFirst() }
    guard rest.count >= 2, rest.count % 2 == 0 else { return nil }
    var members: [String] = []
    while let period = rest.first {
        let member = rest[rest.startIndex + 1]
        // A name (`typeTokens` makes one token of letters, digits, `_` and non-ASCII bytes), not `self` or a digit's tuple index.
        guard period == ".", member != "self", isNameToken(member) else { return nil }
        members.append(member)
        rest = rest.dropFirst(2)
    }
    return members
}

/// The type of the last of `members`, each a member of the type of the one before it, the first of
/// `root`, as the declarations dewrap has give them (SPEC Decision 5, revised): `EnvironmentValues`'
/// from the file, the module and the built-in catalog; any other type's from the file, the module and
/// the wrapper sources (`extension DependencyValues { var apiClient: APIClient { … } }` for
/// `@Dependency(\.apiClient)`; `\.date.now` through `DateGenerator`'s `now`). A type on the way that
/// is not a plain name (`Foo?`, `Box<Int>`) ends the search.
private func keyPathValueType(root: String, members: [String], at attribute: Int, context: SourceContext) -> String? {
    var type = root
    for (index, member) in members.enumerated() {
        guard index == 0 || typeTokens(type).count == 1 && isNameToken(type) else { return nil }
        let next =
            type == "EnvironmentValues"
            ? context.environmentValueType(named: member, usedAt: attribute) : context.keyPathMemberType(member, of: type)
        guard let next else { return nil }
        type = next
    }
    return type
}

/// A member type of the wrapper with its nested type names qualified: `Binding` in `FocusState` is `FocusState<Value>.Binding`.
func qualifiedMemberType(_ type: String, in wrapper: WrapperShape) -> String {
    qualifiedMemberType(type, of: wrapper.name, genericParameters: wrapper.genericParameters, nestedTypes: wrapper.nestedTypes)
}

func qualifiedMemberType(_ type: String, of wrapper: String, genericParameters: [String], nestedTypes: Set<String>) -> String {
    let tokens = typeTokens(type)
    var result: [String] = []
    for (index, token) in tokens.enumerated() {
        if nestedTypes.contains(token) && (index == 0 || tokens[index - 1] != ".") {
            result.append(wrapper)
            if !genericParameters.isEmpty { result += ["<"] + genericParameters.flatMap { [$0, ","] }.dropLast() + [">"] }
            result.append(".")
        }
        result.append(token)
    }
    return typeText(result)
}

/// The attribute's type name without generic arguments: `State`, `SwiftUI.State`, `FocusState.Binding`
/// for `@FocusState<Bool>.Binding`.
func attributeTypeName(_ attribute: Attribute, context: SourceContext) -> String {
    guard let arguments = attributeGenericArguments(attribute, context: context) else {
        // Almost always one token: its text, without joining.
        if attribute.name.upper == attribute.name.lower + 1 { return context.text(attribute.name.lower) }
        return context.text(attribute.name)
    }
    return context.text(TokenSpan(attribute.name.lower, arguments.lower)) + context.text(TokenSpan(arguments.upper, attribute.name.upper))
}

/// The generic argument clause written in an attribute's name, `<` to its `>` (`@State<Int>`,
/// `@FocusState<Bool>.Binding`), if it has one.
func attributeGenericArguments(_ attribute: Attribute, context: SourceContext) -> TokenSpan? {
    guard let open = (attribute.name.lower..<attribute.name.upper).first(where: { context.token($0, hasPrefix: "<") }) else { return nil }
    // Angle brackets are counted in the tokens' bytes: `>>` and `?>` close as many as they hold; `->` is an arrow.
    var depth = 0
    for index in open..<attribute.name.upper where !context.token(index, isSpelled: "->") {
        for byte in context.bytes[context.tree.tokens[index].range] {
            if byte == UInt8(ascii: "<") { depth += 1 }
            if byte == UInt8(ascii: ">") { depth -= 1 }
        }
        if depth <= 0 { return TokenSpan(open, index + 1) }
    }
    return nil
}

/// An attribute that might be another property wrapper (a capitalized name
/// outside the small set of well-known non-wrapper attributes).
func isUnknownWrapperCandidate(_ attribute: Attribute, context: SourceContext) -> Bool {
    guard context.wrapper(of: attribute) == nil else { return false }
    let name = context.text(attribute.name.lower)
    guard let first = name.unicodeScalars.first, first.properties.isUppercase, !context.isResultBuilder(attribute) else { return false }
    // The language's own attributes, and library attributes and attached macros known not to be property wrappers.
    return !isCompilerAttribute(name)
        && ![
            "ViewBuilder", "GlobalActor", "TaskLocal", "ObservationIgnored", "ObservationTracked", "Attribute", "Relationship",
            "Transient", "Entry",
        ].contains(name)
}
