import DewrapSyntax
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What lowering needs to know about one property-wrapper type, read from its
/// Swift declaration (SPEC Decision 7): the built-in catalog, a
/// `@propertyWrapper` type in the input, or one in `--wrapper-sources`.
/// A class: every property and look-up refers to the one reading, which never changes.
public final class WrapperShape: Sendable {
    public enum Kind: Sendable {
        case `struct`, `class`, `enum`
    }

    /// How a property's setter may be called.
    public enum Setter: Sendable {
        case nonmutating, mutating, none
    }

    /// One property of the wrapper (`wrappedValue` or `projectedValue`).
    public struct Member: Sendable {
        /// The declared type, in terms of the wrapper's generic parameters.
        public var type: String
        public var mutatingGetter: Bool
        public var setter: Setter
        /// Stored, or with its own `_modify`: the synthesized `_modify` keeps in-place mutation (A-4).
        public var needsModify: Bool
        /// `@MainActor` and the like, with `@preconcurrency` when declared so (I-1); nil when nonisolated.
        public var isolation: String?
        /// `@available(*, unavailable, message: "…")`: the message (Published's `wrappedValue`).
        public var unavailable: String?
    }

    /// One `init`: its argument labels (`_` for none) and whether the first parameter is an autoclosure.
    public struct Initializer: Sendable {
        var isCallableWithoutArguments: Bool { defaults.count == labels.count && defaults.allSatisfy { $0 } }

        public var labels: [String]
        /// The parameters' types as declared (empty for an implicit init).
        public var parameterTypes: [String] = []
        /// Which parameters have a default value.
        public var defaults: [Bool] = []
        public var firstIsAutoclosure: Bool
        /// Same-type requirements of its `where` clause, `A == [B]` as ("A", "[B]").
        public var sameType: [(String, String)]
        /// Isolated to a global actor (the type's, unless declared `nonisolated`).
        public var isIsolated = false
        /// Declared in an extension with a `where` clause: may not apply to every wrapped type.
        public var inConstrainedExtension = false
        /// The same-type requirements of that extension's `where` clause (`extension TimestampProperty
        /// where Format == DefaultTimestampFormat`): they hold where this init is called.
        var extensionSameType: [(String, String)] = []
        /// Has generic parameters of its own (`init<T>() where Value == T?`).
        public var isGeneric = false
        /// Its own generic parameters' protocols, from `<Key: P & Q>` and `where Key: R`: `Key` gives `["P", "Q", "R"]`.
        var genericConformances: [String: [String]] = [:]
        /// One the compiler's property-wrapper check looks at (`PropertyWrapperTypeInfo`, which decides
        /// V-3 and M-4): declared in the type's own body or implicit, not in an extension; without
        /// generic parameters of its own; not failable; at least as accessible as the type.
        public var isWrapperTypeInit = false
        /// Synthesized by the compiler (the memberwise init, `init()`): its parameters have the stored properties' types.
        public var isImplicit = false

        /// The compiler's `init(wrappedValue:)` for V-3 and M-4: a wrapper-type init with a parameter
        /// labelled `wrappedValue` (any position) of exactly `wrappedValue`'s type, or an autoclosure
        /// returning it, and a default for every other parameter.
        func initializesFromWrappedValue(ofType valueType: String) -> Bool {
            guard isWrapperTypeInit, let position = labels.firstIndex(of: "wrappedValue") else { return false }
            for index in labels.indices where index != position && !(index < defaults.count && defaults[index]) {
                return false
            }
            if isImplicit { return true }
            guard position < parameterTypes.count else { return false }
            var type = typeTokens(parameterTypes[position])
            if type.first == "inout" || type.suffix(3) == [".", ".", "."] { return false }
            // `@autoclosure @escaping () -> Value` takes `Value`.
            var isAutoclosure = false
            while type.count >= 2 && type[0] == "@" {
                if type[1] == "autoclosure" { isAutoclosure = true }
                type.removeFirst(2)
            }
            if isAutoclosure, type.starts(with: ["(", ")", "->"]) { type.removeFirst(3) }
            return type == typeTokens(valueType)
        }

        /// A call with these argument labels can use this init: they name its
        /// parameters in order, and every parameter left out has a default.
        func accepts(_ callLabels: [String]) -> Bool { parameters(for: callLabels) != nil }

        /// The indices of the parameters the arguments go to, when the call can use this init.
        func parameters(for callLabels: [String]) -> [Int]? {
            var next = 0
            var matched: [Int] = []
            for (index, label) in labels.enumerated() {
                if next < callLabels.count && callLabels[next] == label {
                    matched.append(index)
                    next += 1
                } else if !(index < defaults.count && defaults[index]) {
                    return nil
                }
            }
            return next == callLabels.count ? matched : nil
        }
    }

    public let name: String
    public let kind: Kind
    /// The names of the generic parameters, in order: for a wrapper nested in a generic type
    /// (`FocusState<Value>.Binding`), the enclosing type's.
    public let genericParameters: [String]
    /// For a wrapper declared inside another type (`FocusState.Binding`, named so): that type,
    /// whose generic arguments the storage's type takes (`FocusState<Bool>.Binding`).
    public let outerType: String?
    public let initializers: [Initializer]
    public let wrappedValue: Member
    public let projectedValue: Member?
    /// `static subscript(_enclosingInstance:wrapped:storage:)` (A-6), and whether it has a setter.
    public let enclosingInstance: Setter?
    /// Types declared inside the wrapper (`FocusState.Binding`): a member type naming one is qualified.
    public let nestedTypes: Set<String>
    /// Conformance to `Sendable`: always, when every generic argument is, or unknown.
    public let sendable: Sendability
    /// `projectedValue` is the wrapper itself (Fluent's `var projectedValue: ParentProperty<From, To> {
    /// self }`): the projection's type is the storage's, as spelled (also through a typealias).
    let projectsItself: Bool
    /// The properties with an attribute (a wrapper's, most likely) declared in the wrapper's body
    /// (Fluent's `ParentProperty` has `@FieldProperty<From, To.IDValue> public var id`).
    let wrappedMembers: [String]

    /// The wrapped type of `@W var x` with no type, value or arguments, when the wrapper's only
    /// non-generic `init()` pins its one generic parameter (`FocusState`'s `init() where Value ==
    /// Bool`): the compiler prefers it to generic ones (`init<T>() where Value == T?`).
    var typeOfInitWithoutArguments: String? {
        guard genericParameters.count == 1 else { return nil }
        let plain = initializers.filter { $0.labels.isEmpty && !$0.isGeneric }
        guard plain.count == 1, let pinned = plain[0].sameType.first(where: { $0.0 == genericParameters[0] })?.1,
            !typeTokens(pinned).contains(where: { genericParameters.contains($0) || $0 == "Self" })
        else { return nil }
        return pinned
    }
    /// `wrappedValue`'s and `projectedValue`'s types as type tokens with nested type
    /// names qualified: read once with the declaration, substituted for every property.
    let wrappedValueTokens: [String]
    let projectedValueTokens: [String]?

    init(
        name: String, kind: Kind, genericParameters: [String], initializers: [Initializer], wrappedValue: Member,
        projectedValue: Member?, enclosingInstance: Setter?, nestedTypes: Set<String>, sendable: Sendability,
        projectsItself: Bool? = nil, wrappedMembers: [String] = [], outerType: String? = nil
    ) {
        self.wrappedMembers = wrappedMembers
        self.outerType = outerType
        // `State<` and `>`, or `FocusState<` and `>.Binding`: the storage's type around its generic arguments.
        let (head, tail) = outerType.map { ($0, String(name.dropFirst($0.count))) } ?? (name, "")
        // Read once a process for each built-in wrapper: its tokens only when the type starts with the name.
        self.projectsItself =
            projectsItself
            ?? projectedValue.map { projected in
                guard projected.type.hasPrefix(head) else { return false }
                let arguments = genericParameters.isEmpty ? [] : ["<"] + genericParameters.flatMap { [$0, ","] }.dropLast() + [">"]
                return typeTokens(projected.type) == [head] + arguments + typeTokens(tail)
            } ?? false
        self.name = name
        self.kind = kind
        self.genericParameters = genericParameters
        self.initializers = initializers
        hasInitWrappedValue = initializers.contains { $0.labels.first == "wrappedValue" }
        initializesStorageFromWrappedValue = initializers.contains { $0.initializesFromWrappedValue(ofType: wrappedValue.type) }
        hasInitWithoutArguments = initializers.contains { $0.isWrapperTypeInit && $0.isCallableWithoutArguments }
        wrappedValueIsAutoclosure = initializers.contains { $0.labels.first == "wrappedValue" && $0.firstIsAutoclosure }
        self.wrappedValue = wrappedValue
        self.projectedValue = projectedValue
        self.enclosingInstance = enclosingInstance
        self.nestedTypes = nestedTypes
        self.sendable = sendable
        func qualified(_ type: String) -> [String] {
            typeTokens(qualifiedMemberType(type, of: name, genericParameters: genericParameters, nestedTypes: nestedTypes))
        }
        wrappedValueTokens = qualified(wrappedValue.type)
        let projectedTokens = projectedValue.map { qualified($0.type) }
        projectedValueTokens = projectedTokens
        if genericParameters.count == 1, wrappedValue.type == genericParameters[0] {
            let parameter = genericParameters[0]
            let storage = TypeTextSlots([head + "<", ">" + tail])
            let projected = projectedTokens.map { TypeTextSlots(typeTextSlots($0, at: parameter)) }
            plainValueSlots = PlainValueSlots(storage: storage, projected: projected, projectedIsStorage: projected == storage)
        } else {
            plainValueSlots = nil
        }
    }

    /// For a wrapper whose `wrappedValue` has the type of its only generic
    /// parameter (`State<Value>`): the storage and projection type texts cut
    /// where that parameter goes. A value type that is one plain name (`Int`,
    /// `Item`) fills the cuts as matching and substituting type tokens would.
    struct PlainValueSlots: Sendable {
        var storage: TypeTextSlots
        var projected: TypeTextSlots?
        /// The projection is the storage's type (`Binding<Value>` of `Binding`): its text is the storage's.
        var projectedIsStorage: Bool
    }
    let plainValueSlots: PlainValueSlots?

    /// The storage and projection types for a value type spelled as one plain
    /// name, when `plainValueSlots` applies; nil otherwise.
    func typesForPlainName(_ valueType: String) -> (storage: String, projected: String?)? {
        guard let slots = plainValueSlots else { return nil }
        var valueType = valueType
        return valueType.withUTF8 { name in
            guard isPlainTypeName(name) else { return nil }
            let storage = slots.storage.filled(with: name)
            // One String for both: making a String is a cost of its own (an allocation past 15
            // bytes, too long for a small String).
            if slots.projectedIsStorage { return (storage, storage) }
            return (storage, slots.projected.map { $0.filled(with: name) })
        }
    }

    public enum Sendability: Sendable {
        case always, whenArgumentsAre, unknown
    }

    /// `init(wrappedValue:…)` exists (V-1, M-4).
    /// Asked several times for every property: found once, with the initializers.
    public let hasInitWrappedValue: Bool

    /// `W()` initializes a property without an initial value or attribute arguments (V-3b, before
    /// V-3a): the compiler found an init without parameters or with defaults for all of them among
    /// the wrapper type's own (see `Initializer.isWrapperTypeInit`; one in an extension, such as
    /// swift-argument-parser's `Flag.init<Element>(exclusivity:help:) where Value == Element?`, is
    /// not looked for, though the call `W()` may then resolve to it).
    public let hasInitWithoutArguments: Bool

    /// The compiler's `init(wrappedValue:)` for a property without an initial value or attribute
    /// arguments (`Initializer.initializesFromWrappedValue`): with it an Optional property starts as
    /// `W(wrappedValue: nil)` (V-3a), and the memberwise parameter has the wrapped type (M-4). An
    /// init in an extension (`Flag`'s `init(wrappedValue:help:) where Value: EnumerableFlag`), a
    /// generic one or one taking another type does not count, though `= e` may call it (V-1).
    public let initializesStorageFromWrappedValue: Bool

    /// An `init(wrappedValue:)` is isolated to a global actor (ObservedObject's).
    public var initWrappedValueIsIsolated: Bool {
        initializers.contains { $0.labels.first == "wrappedValue" && $0.isIsolated }
    }

    /// M-4 for an initial value `nil`: the memberwise parameter has the type of
    /// the `wrappedValue:` parameter of the init swiftc picks for the call with
    /// these labels. An init taking `Value` that applies to every wrapped type
    /// wins; otherwise one taking `_OptionalNilComparisonType` (as
    /// swift-argument-parser's `Option` and `Argument` declare for `= nil`) beats
    /// a generic `T?`, and the parameter is `_OptionalNilComparisonType`.
    /// A `Value` init to which another argument passes something typed in
    /// terms of `Value` (swift-argument-parser's `transform: (String) throws ->
    /// Value`) is taken to lose: that argument is written for the unwrapped
    /// type, and only the other init takes it without a conversion (measured
    /// with `@Argument(transform: URL.init(fileURLWithPath:)) var f: URL? = nil`).
    /// Nil when the parameter is the wrapped type.
    func nilInitialValueParameterType(callLabels: [String]) -> String? {
        let viable = initializers.filter { $0.labels.first == "wrappedValue" && $0.accepts(callLabels) }
        let value = typeTokens(wrappedValue.type)
        let valueInitApplies = viable.contains { initializer in
            guard !initializer.inConstrainedExtension,
                (initializer.parameterTypes.first ?? wrappedValue.type) == wrappedValue.type
            else { return false }
            let others = (initializer.parameters(for: callLabels) ?? []).dropFirst()
            return !others.contains { index in
                index < initializer.parameterTypes.count
                    && typeTokens(initializer.parameterTypes[index]).contains { value.count == 1 && $0 == value[0] }
            }
        }
        if valueInitApplies { return nil }
        let nilComparison = "_OptionalNilComparisonType"
        return viable.contains { $0.parameterTypes.first.map(typeTokens) == [nilComparison] } ? nilComparison : nil
    }

    /// `init(projectedValue:)` exists (P-2, P-5).
    public var hasInitProjectedValue: Bool { initializers.contains { $0.labels == ["projectedValue"] } }

    /// The `init(wrappedValue:)` takes an autoclosure (M-4: `@autoclosure @escaping () -> T`).
    /// Asked for every memberwise parameter: found once, with the initializers.
    public let wrappedValueIsAutoclosure: Bool
}

/// The wrapper shapes known to one lowering, by type name.
extension WrapperShape {
    /// The storage type for generic arguments `bindings`: `State<Int>`, `FocusState<Bool>.Binding`,
    /// or the plain name.
    func storageType(_ bindings: [String: [String]]) -> String {
        guard !genericParameters.isEmpty else { return name }
        let arguments = "<" + genericParameters.map { typeText(bindings[$0] ?? [$0]) }.joined(separator: ", ") + ">"
        guard let outerType else { return name + arguments }
        return outerType + arguments + name.dropFirst(outerType.count)
    }

    /// The type of `projectedValue` for generic arguments `bindings`, nested types qualified; nil without one.
    func projectedType(_ bindings: [String: [String]]) -> String? {
        projectedValueTokens.map { typeText(substitute($0, bindings)) }
    }

    /// The type of `wrappedValue` for generic arguments `bindings`, nested types qualified.
    func wrappedValueType(_ bindings: [String: [String]]) -> String {
        typeText(substitute(wrappedValueTokens, bindings))
    }
}

/// The wrappers of several files read together (a module's, or the `--wrapper-sources`): each file
/// added as it is read, then each wrapper read again with its extensions in the other files
/// (pointfreeco/swift-sharing declares `struct Shared<Value>` in Shared.swift and its
/// `init(wrappedValue:_:)` in an `extension Shared` of SharedKey.swift).
public struct WrapperFileReading {
    /// The files' wrappers so far, without the extensions in other files.
    public private(set) var shapes = WrapperShapes()
    private var files: [[UInt8]] = []
    /// The file that declares each wrapper of a plain name.
    private var declaringFile: [String: Int] = [:]

    public init() {}

    /// Adds a file and what it declares (nil for a file not read for its declarations), whose wrappers
    /// win over those of the files added before.
    public mutating func add(_ source: [UInt8], declaring declared: WrapperShapes?) {
        if let declared {
            for name in declared.byName.keys where !name.contains(".") { declaringFile[name] = files.count }
            shapes.merge(declared)
        }
        files.append(source)
    }

    /// The shapes, each wrapper with its extensions in the other files.
    public consuming func withExtensions() -> WrapperShapes {
        if files.count > 1 && !declaringFile.isEmpty { shapes.addExtensions(of: declaringFile, in: files) }
        return shapes
    }
}

public struct WrapperShapes: Sendable {
    public private(set) var byName: [String: WrapperShape] = [:]
    /// A name not declared here is looked up in the built-in catalog.
    var includesCatalog = false
    /// The protocols declared in the same sources, each with the names it
    /// inherits (last name component, compositions split): enough to tell that
    /// a type conforming to `ParsableCommand` is `Decodable` (K-1).
    public var protocolParents: [String: [String]] { protocols.mapValues(\.parents) }
    /// The same protocols, by name: their parents, and their associated types (`TestDependencyKey`'s
    /// `Value`, which `@Dependency(Client.self)` needs: `associatedTypeWitness`). One table: each
    /// one more made every copy of the shapes cost an outlined destroy (views-1000: +71,000).
    private(set) var protocols: [String: ProtocolDeclaration] = [:]
    /// Typealiases that may name a wrapper type (`typealias Field<Value> = FieldProperty<Self, Value>`),
    /// top level or in an extension (a protocol's): resolved when a wrapper attribute names one.
    private(set) var aliases: [String: WrapperAlias] = [:]

    public init() {}

    /// Every `@propertyWrapper` type declared in `source` (extensions of it in the same source included).
    public init(readingDeclarationsIn source: [UInt8]) {
        self.init(context: SourceContext(bytes: source, tree: Parser.parse(source, bodies: .skippingPlain)))
    }

    /// The wrappers and protocols declared in a parsed file. `borrowing`: an init takes its
    /// arguments owned, and the caller's copy of the context was for nothing kept.
    init(context: borrowing SourceContext) {
        Self.readDeclarations(
            in: context,
            protocol: { name, parents, associatedTypes in
                protocols[name, default: ProtocolDeclaration()].add(ProtocolDeclaration(parents: parents, associatedTypes: associatedTypes))
            },
            alias: { name, alias in aliases[name] = alias }
        ) { name, shape in byName[name] = shape }
    }

    /// The wrapper named `name` as `source` declares it (a built-in's declaration): read
    /// without a table of the source's wrappers, which costs a process its type metadata.
    static func shape(named name: String, declaredIn source: [UInt8]) -> WrapperShape? {
        var found: WrapperShape?
        let context = SourceContext(bytes: source, tree: Parser.parse(source, bodies: .skippingPlain))
        readDeclarations(in: context, only: name, protocol: { _, _, _ in }) { declared, shape in
            if declared == name { found = shape }
        }
        return found
    }

    /// Reads the wrappers (each with its extensions) and the protocols (each with the names
    /// it inherits) declared at the top level of a parsed file, in any `#if` branch, in order.
    /// `only`: the one wrapper wanted (a built-in's text declares `FocusState` and `FocusState.Binding`).
    private static func readDeclarations(
        in context: SourceContext, only: String? = nil, protocol: (String, [String], [String: AssociatedTypeRequirement]) -> Void,
        alias: (String, WrapperAlias) -> Void = { _, _ in },
        wrapper: (String, WrapperShape) -> Void
    ) {
        var wrappers: [TypeDecl] = []
        // Matched to a wrapper by name only when there is one: most files declare none, and a
        // table by name made a String of every extension's name.
        var extensions: [TypeDecl] = []
        func isWrapper(_ type: TypeDecl) -> Bool {
            type.prefix.attributes.contains(where: { context.span($0.name, isSpelled: "propertyWrapper") })
        }
        // Top-level declarations (and below, wrappers one level inside them).
        func collect(_ items: SyntaxList<Item>) {
            for item in items {
                switch item {
                case .type(let type) where type.kind == .extension:
                    extensions.append(type)
                    for case .other(let declaration) in type.members where declaration.kind == .typealias {
                        if let (name, read) = WrapperAlias.read(declaration, context: context) { alias(name, read) }
                    }
                case .other(let declaration) where declaration.kind == .typealias:
                    if let (name, read) = WrapperAlias.read(declaration, context: context) { alias(name, read) }
                case .type(let type) where isWrapper(type):
                    wrappers.append(type)
                case .type(let type) where type.kind == .protocol:
                    `protocol`(
                        context.text(type.name), type.inheritance.flatMap { inheritedNames($0, context: context) },
                        AssociatedTypeRequirement.read(type, context: context))
                case .ifConfig(let ifConfig):
                    for clause in ifConfig.clauses { collect(clause.items) }
                default:
                    continue
                }
            }
        }
        collect(context.tree.items)
        // Wrappers declared in a top-level type's body (`FocusState.Binding`), with that type: named
        // not by their bare name but `Outer.Inner`. Looked for only where the parser saw a member
        // type with an attribute (a walk into every type's members cost every file).
        var nested: [NestedWrapper] = []
        func collectNested(_ items: SyntaxList<Item>) {
            for item in items {
                switch item {
                case .type(let type) where type.kind != .extension && type.kind != .protocol:
                    for case .type(let member) in type.members where member.kind != .extension && isWrapper(member) {
                        nested.append(NestedWrapper(outer: type, wrapper: member))
                    }
                case .ifConfig(let ifConfig):
                    for clause in ifConfig.clauses { collectNested(clause.items) }
                default:
                    continue
                }
            }
        }
        if context.tree.census.attributedMemberType { collectNested(context.tree.items) }
        for type in wrappers {
            let name = context.text(type.name)
            if let only, name != only { continue }
            let own = extensions.filter { context.text($0.name) == name }
            if let shape = readShape(type, extensions: own, context: context) {
                wrapper(name, shape)
            }
        }
        // Only a wrapper without generic parameters of its own: its storage's type is the outer type's
        // with arguments, then its name (`FocusState<Bool>.Binding`).
        for declaration in nested where declaration.wrapper.genericParameters == nil {
            let (outer, type) = (declaration.outer, declaration.wrapper)
            if let only, only != context.text(outer.name) + "." + context.text(type.name) { continue }
            if let shape = readShape(type, extensions: [], outer: outer, context: context) {
                wrapper(shape.name, shape)
            }
        }
    }

    /// Adds `other`'s shapes; on a clash `other` wins.
    public mutating func merge(_ other: WrapperShapes) {
        includesCatalog = includesCatalog || other.includesCatalog
        byName.merge(other.byName) { _, new in new }
        protocols.merge(other.protocols) { old, new in
            var merged = old
            merged.add(new)
            return merged
        }
        aliases.merge(other.aliases) { _, new in new }
    }

    /// Whether a type inheriting `name` is `Encodable` or `Decodable`: one of
    /// the standard protocols, or a known protocol that refines one (K-1).
    /// `decoding`: `Decodable` only (synthesis writes `init(from:)`).
    func isCodingProtocol(_ name: String, decoding: Bool = false) -> Bool {
        func isStandard(_ name: String) -> Bool { name == "Codable" || name == "Decodable" || (!decoding && name == "Encodable") }
        if isStandard(name) { return true }
        guard !protocols.isEmpty else { return false } // nothing declared here refines them
        var seen: Set<String> = []
        var pending = [name]
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            if isStandard(next) { return true }
            pending += protocols[next]?.parents ?? []
        }
        return false
    }

    /// The built-in catalog (SPEC table T).
    public static var builtIn: WrapperShapes { WrapperCatalog.shapes }

    /// The shape for an attribute name as written: `State`, `SwiftUI.State`, `FocusState.Binding`.
    public func shape(named name: String) -> WrapperShape? {
        shape(named: name, aliasesFollowed: 0)
    }

    private func shape(named name: String, aliasesFollowed: Int) -> WrapperShape? {
        // Most files declare no wrapper: skip hashing the name for an empty table.
        if !byName.isEmpty, let shape = byName[name] { return shape }
        if nameAfterLastDot(name) != nil { return shape(qualified: name) }
        if let shape = includesCatalog ? WrapperCatalog.shape(named: name) : nil { return shape }
        // A typealias of a wrapper type (of another alias, a few deep).
        guard !aliases.isEmpty, aliasesFollowed < 4, let alias = aliases[name],
            let target = shape(named: alias.target, aliasesFollowed: aliasesFollowed + 1)
        else { return nil }
        return target.aliased(as: name, alias)
    }

    /// A dotted name: a module's wrapper (`SwiftUI.State`) or one declared in another type
    /// (`FocusState.Binding`, `SwiftUI.FocusState.Binding`), the longest known name it ends with.
    /// A name after a known wrapper's (`FocusState.Value`) is a member of that type, not the wrapper
    /// of that name (SwiftUI's `Binding`): none known. A built-in wrapper is named with no qualifier
    /// but its framework's: `Other.State` is not SwiftUI's `State`.
    private func shape(qualified name: String) -> WrapperShape? {
        let components = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for start in components.indices {
            if start > 0 {
                let qualifier = components[start - 1]
                if byName[qualifier] != nil || includesCatalog && WrapperCatalog.declares(qualifier) { return nil }
            }
            let suffix = components[start...].joined(separator: ".")
            if let shape = byName[suffix] { return shape }
            if includesCatalog, start == 0 || start == 1 && ["SwiftUI", "Combine", "SwiftData"].contains(components[0]),
                let shape = WrapperCatalog.shape(named: suffix)
            {
                return shape
            }
        }
        return nil
    }
}

/// A wrapper declared in a top-level type's body, with that type. A struct, not a tuple: a process's
/// first array of a tuple type costs it the tuple's metadata.
private struct NestedWrapper {
    var outer: TypeDecl
    var wrapper: TypeDecl
}

/// `typealias Name<P…> = Target<A…>`: a wrapper attribute may name the wrapper through it. The
/// compiler then uses the alias as the wrapper type (`_x: Name<T>`, `Name(wrappedValue: e)`),
/// with the target's members, its generic parameters bound to the alias's arguments.
struct WrapperAlias: Sendable {
    var parameters: [String]
    /// The target's name (its last component) and generic arguments, as type tokens.
    var target: String
    var arguments: [[String]]

    static func read(_ declaration: OtherDecl, context: SourceContext) -> (String, WrapperAlias)? {
        guard let nameToken = declaration.names.first else { return nil }
        let tokens = context.tree.tokens
        var i = nameToken + 1
        var parameters: [String] = []
        if i < declaration.span.upper, context.token(i, isSpelled: "<") {
            i += 1
            while i < declaration.span.upper, !context.token(i, isSpelled: ">") {
                if tokens[i].kind == .identifier && (context.token(i - 1, isSpelled: "<") || tokens[i - 1].kind == .comma) {
                    parameters.append(context.text(i))
                }
                i += 1
            }
            i += 1
        }
        guard i < declaration.span.upper, tokens[i].kind == .equal else { return nil }
        // The target type ends at the alias's generic `where` clause, if it has one (Fluent's
        // `typealias Field<Value> = FieldProperty<Self, Value> where Value: Codable & Sendable`). The
        // clause constrains the alias's uses, which the lowering keeps (`_name: Field<String>`).
        var end = i + 1
        while end < declaration.span.upper && context.word(end) != .where { end += 1 }
        var target = typeTokens(context.text(TokenSpan(i + 1, end)))
        // The base name (its last component) and its generic arguments, split at top-level commas.
        guard let open = target.firstIndex(of: "<") ?? Optional(target.count), open > 0 else { return nil }
        let base = target[open - 1]
        var arguments: [[String]] = []
        if open < target.count {
            guard target.last == ">" else { return nil }
            var depth = 0
            var current: [String] = []
            for token in target[(open + 1)..<(target.count - 1)] {
                if ["<", "(", "["].contains(token) { depth += 1 }
                if [">", ")", "]"].contains(token) { depth -= 1 }
                if token == "," && depth == 0 {
                    arguments.append(current)
                    current = []
                } else {
                    current.append(token)
                }
            }
            arguments.append(current)
        }
        target.removeAll()
        guard let first = base.first, first.isLetter || first == "_" else { return nil }
        return (context.text(nameToken), WrapperAlias(parameters: parameters, target: base, arguments: arguments))
    }
}

extension WrapperShape {
    /// This wrapper as `alias` names it: the alias's name and generic parameters, the member
    /// types with this wrapper's generic parameters bound to the alias's arguments.
    func aliased(as name: String, _ alias: WrapperAlias) -> WrapperShape? {
        guard alias.arguments.count == genericParameters.count else { return nil }
        var bindings: [String: [String]] = [:]
        for (parameter, argument) in zip(genericParameters, alias.arguments) { bindings[parameter] = argument }
        func bound(_ type: String) -> String { typeText(substitute(typeTokens(type), bindings)) }
        func bound(_ member: Member) -> Member {
            var member = member
            member.type = bound(member.type)
            return member
        }
        let initializers = self.initializers.map { initializer in
            var initializer = initializer
            initializer.parameterTypes = initializer.parameterTypes.map(bound)
            initializer.sameType = initializer.sameType.map { (bound($0.0), bound($0.1)) }
            initializer.extensionSameType = initializer.extensionSameType.map { (bound($0.0), bound($0.1)) }
            return initializer
        }
        return WrapperShape(
            name: name, kind: kind, genericParameters: alias.parameters, initializers: initializers,
            wrappedValue: bound(wrappedValue), projectedValue: projectedValue.map(bound), enclosingInstance: enclosingInstance,
            nestedTypes: nestedTypes, sendable: sendable, projectsItself: projectsItself, wrappedMembers: wrappedMembers,
            outerType: outerType)
    }
}

/// `State` for `SwiftUI.State`; nil without a dot.
private func nameAfterLastDot(_ name: String) -> String? {
    // On contiguous UTF-8 (native and small Strings): `lastIndex(of:)` on the view costs far more.
    let scanned = name.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.lastIndex(of: UInt8(ascii: ".")).map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) }
    }
    if let scanned { return scanned }
    return name.utf8.lastIndex(of: UInt8(ascii: ".")).map { String(name[name.utf8.index(after: $0)...]) }
}

/// The protocol names in the inheritance entry `span`. Most entries are one
/// plain name, which needs no scan.
func inheritedNames(_ span: TokenSpan, context: SourceContext) -> [String] {
    guard !span.isEmpty else { return [] }
    let token = context.tree.tokens[span.lower]
    if span.upper == span.lower + 1, token.kind == .identifier, token.end > token.start, startsName(context.bytes[token.start]) {
        return [context.text(span.lower)]
    }
    return inheritedNames(context.text(span))
}

/// The protocol names in one inheritance entry: `Swift.Decodable` gives
/// `Decodable`, `A & B` gives both; generic arguments and attributes dropped.
func inheritedNames(_ text: String) -> [String] {
    // On UTF-8 bytes (every delimiter is ASCII; a non-ASCII byte counts as part of a name).
    let space = UInt8(ascii: " ")
    var names: [String] = []
    for part in text.utf8.split(separator: UInt8(ascii: "&")) {
        var name = part.drop { $0 == space || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }
        while name.first == UInt8(ascii: "@") {
            // `@unchecked Sendable`, `@retroactive Codable`: the attribute goes.
            name = name.drop { $0 != space }.drop { $0 == space }
        }
        let word = name.prefix { $0 >= 0x80 || isASCIINameByte($0) || $0 == UInt8(ascii: ".") }
        guard let last = word.split(separator: UInt8(ascii: ".")).last else { continue }
        names.append(String(decoding: last, as: UTF8.self))
    }
    return names
}

// MARK: - Reading a declaration

/// `outer`: the type `type` is declared in, whose generic parameters it uses.
private func readShape(_ type: TypeDecl, extensions: [TypeDecl], outer: TypeDecl? = nil, context: SourceContext) -> WrapperShape? {
    let kind: WrapperShape.Kind
    switch type.kind {
    case .struct: kind = .struct
    case .class, .actor: kind = .class
    case .enum: kind = .enum
    default: return nil
    }
    let typeIsolation = isolationAttribute(type.prefix, context: context)
    let typeAccess = accessRank(context.declaredAccess(type.prefix))
    var initializers: [WrapperShape.Initializer] = []
    var wrappedValue: WrapperShape.Member?
    var projectedValue: WrapperShape.Member?
    var enclosingInstance: WrapperShape.Setter?
    var nestedTypes: Set<String> = []
    var stored: [(label: String, hasDefault: Bool)] = []
    var wrappedMembers: [String] = []
    /// The implicit memberwise init's access: internal, or that of a less accessible stored property.
    var storedAccess = accessRank(nil)
    var sendable: WrapperShape.Sendability = .unknown
    // The outer type's first. Not an array of the optional clauses: a process's first array of a
    // type costs it that type's metadata, for every wrapper read.
    var genericParameters = outer?.genericParameters.map { genericParameterNames(context.text($0)) } ?? []
    if let own = type.genericParameters { genericParameters += genericParameterNames(context.text(own)) }
    if type.inheritance.contains(where: { ["Sendable", "@unchecked Sendable"].contains(context.text($0)) }) || typeIsolation != nil {
        sendable = .always
    }

    func visit(_ items: SyntaxList<Item>, inBody: Bool) {
        for item in items {
            switch item {
            case .type(let nested):
                nestedTypes.insert(context.text(nested.name))
            case .function(let function) where function.kind == .initializer:
                var initializer = readInitializer(function, context: context)
                initializer.isWrapperTypeInit =
                    inBody && function.genericParameters == nil
                    && !(function.name.map { context.token($0, isSpelled: "?") || context.token($0, isSpelled: "!") } ?? false)
                    && accessRank(context.declaredAccess(function.prefix)) >= typeAccess
                initializer.isIsolated =
                    (isolationAttribute(function.prefix, context: context) ?? typeIsolation) != nil
                    && !function.prefix.modifiers.contains { context.text($0.keyword) == "nonisolated" }
                initializers.append(initializer)
            case .function(let function) where function.kind == .subscript:
                let isStatic = function.prefix.modifiers.contains { context.text($0.keyword) == "static" }
                guard isStatic, function.parameters.first.flatMap(\.firstName).map({ context.text($0) }) == "_enclosingInstance"
                else { continue }
                var setter = WrapperShape.Setter.none
                if let accessors = function.accessors, case .accessors(let list) = accessors.content,
                    list.contains(where: { context.text($0.keyword) == "set" })
                {
                    setter = .nonmutating
                }
                enclosingInstance = setter
            case .variable(let variable):
                guard !context.isStatic(variable.prefix) else { continue }
                // An attribute of a capitalized name (no String made for the others: `@available`, `@usableFromInline`).
                let wrapperAttribute =
                    inBody
                    ? variable.prefix.attributes.first { attribute in
                        let first = context.bytes[context.tree.tokens[attribute.name.lower].start]
                        return first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") && !isCompilerAttribute(context.text(attribute.name.lower))
                    } : nil
                let isWrapped = wrapperAttribute != nil
                for binding in variable.bindings {
                    guard let nameToken = binding.name else { continue }
                    let name = context.text(nameToken)
                    if isWrapped { wrappedMembers.append(name) }
                    let member = readMember(variable, binding, kind: kind, typeIsolation: typeIsolation, context: context)
                    if name == "wrappedValue" { wrappedValue = member }
                    if name == "projectedValue" { projectedValue = member }
                    let isStored: Bool
                    switch binding.accessors?.content {
                    case nil: isStored = true
                    case .getter: isStored = false
                    case .accessors(let list): isStored = list.allSatisfy { ["willSet", "didSet"].contains(context.text($0.keyword)) }
                    }
                    let isLet = context.text(variable.keyword) == "let"
                    if inBody && isStored && !(isLet && binding.initializer != nil) {
                        let optional = binding.type.map { context.text($0).hasSuffix("?") } ?? false
                        // A wrapped property whose attribute has arguments (`@Environment(\.self) var environment`,
                        // Swiftfin's `Router`) is given its storage by them, and one of a built-in wrapper with
                        // `init()` by that (`@EnvironmentObject var proxy: ToastProxy`, Swiftfin's `Toaster`).
                        let initializedByAttribute =
                            wrapperAttribute.map { attribute in
                                attribute.arguments != nil
                                    || attribute.name.upper == attribute.name.lower + 1
                                        && WrapperCatalog.shape(named: context.text(attribute.name.lower))?.hasInitWithoutArguments == true
                            } ?? false
                        stored.append((name, binding.initializer != nil || (optional && !isLet) || initializedByAttribute))
                        storedAccess = min(storedAccess, accessRank(context.declaredAccess(variable.prefix)))
                    }
                }
            case .ifConfig(let ifConfig):
                // The first branch, as a reader without build settings can only guess; wrappers rarely differ.
                if let first = ifConfig.clauses.first { visit(first.items, inBody: inBody) }
            default:
                continue
            }
        }
    }
    visit(type.members, inBody: true)
    let declaredInBody = initializers.count
    for extensionDecl in extensions {
        if extensionDecl.inheritance.contains(where: { ["Sendable", "@unchecked Sendable"].contains(context.text($0)) }) {
            sendable = extensionDecl.whereClause == nil ? .always : .whenArgumentsAre
        }
        let before = initializers.count
        visit(extensionDecl.members, inBody: false)
        if let whereClause = extensionDecl.whereClause, initializers.count > before {
            let requirements = readRequirements(whereClause, context: context).sameType
            for index in before..<initializers.count {
                initializers[index].inConstrainedExtension = true
                initializers[index].extensionSameType = requirements
            }
        }
        // An `init()` in a constrained extension (State's, for Optional values) cannot be relied on
        // without knowing the wrapped type; V-3a covers the Optional case anyway.
        if extensionDecl.whereClause != nil {
            initializers = Array(initializers[..<before]) + initializers[before...].filter { !$0.isCallableWithoutArguments }
        }
    }
    guard let wrappedValue else { return nil }
    // The implicit inits (M-1, M-7): a struct's memberwise init, and `init()` when every stored property has a value.
    if declaredInBody == 0 && kind != .enum {
        if kind == .struct && !stored.isEmpty {
            var memberwise = WrapperShape.Initializer(labels: stored.map(\.label), firstIsAutoclosure: false, sameType: [])
            memberwise.defaults = stored.map(\.hasDefault)
            memberwise.isImplicit = true
            memberwise.isWrapperTypeInit = storedAccess >= typeAccess
            initializers.append(memberwise)
        }
        if stored.allSatisfy(\.hasDefault) {
            var empty = WrapperShape.Initializer(labels: [], firstIsAutoclosure: false, sameType: [])
            empty.isImplicit = true
            // Internal whatever the stored properties' access (it takes none of them).
            empty.isWrapperTypeInit = accessRank(nil) >= typeAccess
            initializers.append(empty)
        }
    }
    let outerName = outer.map { context.text($0.name) }
    // `Self` in the declaration is the wrapper's type (pocket-casts' `var projectedValue: Self`), not the type
    // a property is declared in: spelled with the generic parameters, which the lowering substitutes.
    if let projected = projectedValue?.type, typeTokens(projected).contains("Self") {
        let arguments = genericParameters.isEmpty ? "" : "<" + genericParameters.joined(separator: ", ") + ">"
        let selfType = outerName.map { $0 + arguments + "." + context.text(type.name) } ?? context.text(type.name) + arguments
        projectedValue?.type = typeText(typeTokens(projected).flatMap { $0 == "Self" ? typeTokens(selfType) : [$0] })
    }
    return WrapperShape(
        name: outerName.map { $0 + "." + context.text(type.name) } ?? context.text(type.name), kind: kind,
        genericParameters: genericParameters, initializers: initializers, wrappedValue: wrappedValue, projectedValue: projectedValue,
        enclosingInstance: enclosingInstance, nestedTypes: nestedTypes, sendable: sendable, wrappedMembers: wrappedMembers,
        outerType: outerName)
}

private func readInitializer(_ function: FunctionDecl, context: SourceContext) -> WrapperShape.Initializer {
    let labels = function.parameters.map { parameter in parameter.firstName.map { context.text($0) } ?? "_" }
    let firstIsAutoclosure = function.parameters.first?.type.map { context.span($0, contains: "@autoclosure") } ?? false
    var (sameType, conformances) = function.whereClause.map { readRequirements($0, context: context) } ?? ([], [:])
    if let generic = function.genericParameters {
        for parameter in splitTopLevel(String(context.text(generic).dropFirst().dropLast()), on: ",") {
            readConformance(typeTokens(parameter), into: &conformances)
        }
    }
    var initializer = WrapperShape.Initializer(labels: labels, firstIsAutoclosure: firstIsAutoclosure, sameType: sameType)
    initializer.genericConformances = conformances
    initializer.parameterTypes = function.parameters.map { parameter in parameter.type.map { context.text($0) } ?? "" }
    initializer.defaults = function.parameters.map { $0.defaultValue != nil }
    initializer.isGeneric = function.genericParameters != nil
    return initializer
}

/// A `where` clause's same-type requirements, `A == [B]` as ("A", "[B]"), and its conformances, `Key: P & Q` as "Key": ["P", "Q"].
private func readRequirements(
    _ whereClause: TokenSpan, context: SourceContext
) -> (sameType: [(String, String)], conformances: [String: [String]]) {
    var sameType: [(String, String)] = []
    var conformances: [String: [String]] = [:]
    for requirement in splitTopLevel(String(context.text(whereClause).dropFirst("where".count)), on: ",") {
        let tokens = typeTokens(requirement)
        if let equal = tokens.indices.first(where: { $0 + 1 < tokens.count && tokens[$0] == "=" && tokens[$0 + 1] == "=" }) {
            sameType.append((typeText(Array(tokens[..<equal])), typeText(Array(tokens[(equal + 2)...]))))
        } else {
            readConformance(tokens, into: &conformances)
        }
    }
    return (sameType, conformances)
}

/// `Key: P & Q`, in a generic parameter clause or a `where` clause.
private func readConformance(_ tokens: [String], into conformances: inout [String: [String]]) {
    guard tokens.count >= 3, tokens[1] == ":" else { return }
    conformances[tokens[0], default: []] += inheritedNames(typeText(Array(tokens[2...])))
}

/// `wrappedValue` or `projectedValue`: type, getter and setter mutability, isolation.
private func readMember(
    _ variable: VariableDecl, _ binding: PatternBinding, kind: WrapperShape.Kind, typeIsolation: String?, context: SourceContext
) -> WrapperShape.Member? {
    guard
        let type = binding.type.map({ context.text($0) })
            ?? binding.initializer.flatMap({ context.inferredType(of: $0) })
    else { return nil }
    let isLet = context.text(variable.keyword) == "let"
    let modifiers = variable.prefix.modifiers.map { context.text($0.keyword) }
    var isolation = isolationAttribute(variable.prefix, context: context) ?? typeIsolation
    if modifiers.contains("nonisolated") { isolation = nil }
    var member = WrapperShape.Member(
        type: type, mutatingGetter: false, setter: .none, needsModify: false, isolation: isolation)
    for attribute in variable.prefix.attributes where context.text(attribute.name) == "available" {
        guard let arguments = attribute.arguments,
            (arguments.lower..<arguments.upper).contains(where: { context.text($0) == "unavailable" })
        else { continue }
        member.unavailable = ""
        if let label = (arguments.lower..<arguments.upper).first(where: { context.text($0) == "message" }) {
            member.unavailable =
                (label..<arguments.upper).filter { context.tree.tokens[$0].kind == .stringSegment }
                .map { context.text($0) }.first ?? ""
        }
    }
    let writable: WrapperShape.Setter = kind == .class ? .nonmutating : .mutating
    // SPEC Corrections, setter access: a setter declared `private(set)` or `fileprivate(set)` is not
    // one a property using the wrapper can call (it lies in another type): such a member is get-only.
    let setterIsHidden = variable.prefix.modifiers.contains { modifier in
        modifier.detail != nil && (context.word(modifier.keyword) == .private || context.word(modifier.keyword) == .fileprivate)
    }
    switch binding.accessors?.content {
    case nil:
        // Stored.
        member.setter = isLet ? .none : writable
        member.needsModify = !isLet
    case .getter:
        break
    case .accessors(let list):
        let words = list.map { context.text($0.keyword) }
        if words.allSatisfy({ ["willSet", "didSet"].contains($0) }) {
            member.setter = isLet ? .none : writable
            member.needsModify = !isLet
            break
        }
        for accessor in list {
            let modifier = accessor.modifier.map { context.text($0) }
            switch context.text(accessor.keyword) {
            case "get", "_read":
                member.mutatingGetter = kind != .class && modifier == "mutating"
            case "set":
                member.setter = kind == .class || modifier == "nonmutating" ? .nonmutating : .mutating
            case "_modify":
                // A `_modify` makes the property settable even without a `set`.
                member.needsModify = true
                if member.setter == .none { member.setter = kind == .class || modifier == "nonmutating" ? .nonmutating : .mutating }
            default:
                continue
            }
        }
    }
    if setterIsHidden {
        member.setter = .none
        member.needsModify = false
    }
    return member
}

/// A declared access level as a rank (`private` 0 … `public` and `open` 4); none is `internal`.
private func accessRank(_ access: String?) -> Int {
    switch access {
    case "private": return 0
    case "fileprivate": return 1
    case "package": return 3
    case "public", "open": return 4
    default: return 2
    }
}

/// `@preconcurrency @MainActor` (or `@MainActor`, or another global actor) from a prefix.
private func isolationAttribute(_ prefix: DeclarationPrefix, context: SourceContext) -> String? {
    let names = prefix.attributes.map { context.text($0.name) }
    guard let actor = names.first(where: { $0 == "MainActor" || ($0.hasSuffix("Actor") && $0 != "GlobalActor") }) else {
        return nil
    }
    return (names.contains("preconcurrency") ? "@preconcurrency " : "") + "@" + actor
}

/// `<Value: Hashable, each T>` → `["Value", "T"]`.
func genericParameterNames(_ text: String) -> [String] {
    let inner = String(text.dropFirst().dropLast())
    return splitTopLevel(inner, on: ",").compactMap { parameter in
        // On the bytes, as `split(separator: ":", maxSplits: 1).first` and then `split(separator: " ")`
        // would read it: the first run between colons, its first word (the second after `each`).
        // Splitting Substrings cost a process its first arrays of them (their type metadata).
        var parameter = parameter
        return parameter.withUTF8 { bytes -> String? in
            let colon = UInt8(ascii: ":")
            let space = UInt8(ascii: " ")
            var start = 0
            while start < bytes.count && bytes[start] == colon { start += 1 }
            let end = bytes[start...].firstIndex(of: colon) ?? bytes.count
            var index = start
            func nextWord() -> Range<Int>? {
                while index < end && bytes[index] == space { index += 1 }
                let wordStart = index
                while index < end && bytes[index] != space { index += 1 }
                return index > wordStart ? wordStart..<index : nil
            }
            func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            guard let first = nextWord() else { return nil }
            guard first.count == 4 && text(first) == "each" else { return text(first) }
            return nextWord().map(text)
        }
    }
}

// MARK: - Generic arguments from a property's type

/// The pieces of a type's spelling: identifiers and single punctuation marks (`->` kept whole).
func typeTokens(_ text: String) -> [String] {
    // On UTF-8 bytes: a name is ASCII letters, digits and `_`, or any non-ASCII
    // byte (type text holds no non-ASCII operators), and Character's Unicode
    // property look-ups cost more than the rest of lowering together.
    var tokens: [String] = []
    var utf8 = text
    utf8.withUTF8 { bytes in
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0x80 || isASCIINameByte(b) {
                let start = i
                repeat { i += 1 } while i < bytes.count && (bytes[i] >= 0x80 || isASCIINameByte(bytes[i]))
                tokens.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
                continue
            }
            // A comment in a type annotation is no part of the type (`[String /* names */]`).
            if b == UInt8(ascii: "/") && i + 1 < bytes.count && (bytes[i + 1] == UInt8(ascii: "/") || bytes[i + 1] == UInt8(ascii: "*")) {
                i = commentEnd(from: i, in: bytes)
                continue
            }
            if b == UInt8(ascii: "-") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: ">") {
                tokens.append("->")
                i += 2
                continue
            }
            if b != UInt8(ascii: " ") && b != UInt8(ascii: "\t") && b != UInt8(ascii: "\n") && b != UInt8(ascii: "\r") {
                tokens.append(String(UnicodeScalar(b)))
            }
            i += 1
        }
    }
    return tokens
}

/// Joins type tokens back into the usual spelling.
func typeText(_ tokens: [String]) -> String {
    var writer = TypeTextWriter()
    for token in tokens { writer.append(token) }
    return writer.text
}

/// `typeText(tokens)` cut before and after each token `parameter` (a plain
/// name): the pieces that any other plain name joins back together.
func typeTextSlots(_ tokens: [String], at parameter: String) -> [String] {
    var writer = TypeTextWriter()
    var slots: [String] = []
    var sliceStart = writer.text.utf8.count
    for token in tokens {
        writer.append(token)
        guard token == parameter else { continue }
        let end = writer.text.utf8.count
        let utf8 = Array(writer.text.utf8)
        slots.append(String(decoding: utf8[sliceStart..<end - parameter.utf8.count], as: UTF8.self))
        sliceStart = end
    }
    slots.append(String(decoding: Array(writer.text.utf8)[sliceStart...], as: UTF8.self))
    return slots
}

/// A type's text, token by token, spaced the usual way.
private struct TypeTextWriter {
    private(set) var text = ""
    /// Whether `text` ends in a name byte: a name right after one needs a space (`some View`).
    private var endsInName = false
    /// Whether the last token was `@`, and whether it was the name of an attribute without arguments:
    /// a `(` right after `@MainActor` would be read as its arguments (`@MainActor() -> Void` does not
    /// parse), after `@convention` it is one.
    private var endsInAt = false
    private var endsInAttributeName = false

    mutating func append(_ token: String) {
        let afterAttributeName = endsInAttributeName
        endsInAttributeName = endsInAt && !Self.takesArguments(token)
        endsInAt = token == "@"
        // `@MainActor @Sendable () -> Void`, not `@MainActor@Sendable()`.
        if afterAttributeName && token == "(" || endsInName && token == "@" { text += " " }
        switch token {
        case ",", ":": text += token + " "
        case "->": text += " -> "
        case "&": text += " & "
        default:
            // A name after a name, or after a function type's `)` (`() async throws`).
            if startsName(token.utf8.first ?? 0) && (endsInName || text.utf8.last == UInt8(ascii: ")")) { text += " " }
            text += token
            let last = token.utf8.last ?? 0
            endsInName = last >= 0x80 || isASCIINameByte(last)
            return
        }
        endsInName = false
    }

    /// Whether a type attribute of this name is written with arguments (`@convention(c)`, `@isolated(any)`).
    private static func takesArguments(_ name: String) -> Bool {
        switch name {
        case "convention", "isolated", "differentiable", "_opaqueReturnTypeOf", "opened": true
        default: false
        }
    }
}

/// Pieces of a type's text (`typeTextSlots`) kept as one run of UTF-8 bytes
/// with the offsets where they were cut: filling in a name is then a few
/// copies straight into the new String's storage (joining the pieces as
/// Strings made a String of every piece).
struct TypeTextSlots: Sendable, Equatable {
    private let text: [UInt8]
    /// Where a name goes, in ascending order: between the pieces.
    private let cuts: [Int]

    init(_ pieces: [String]) {
        var text: [UInt8] = []
        var cuts: [Int] = []
        for (index, piece) in pieces.enumerated() {
            if index > 0 { cuts.append(text.count) }
            text += piece.utf8
        }
        self.text = text
        self.cuts = cuts
    }

    /// The pieces joined with `name` between them.
    func filled(with name: UnsafeBufferPointer<UInt8>) -> String {
        let size = text.count + name.count * cuts.count
        return String(unsafeUninitializedCapacity: size) { target in
            text.withUnsafeBufferPointer { text in
                var from = 0
                var end = 0
                func copy(_ piece: UnsafeBufferPointer<UInt8>) {
                    if let source = piece.baseAddress { copyBytes(from: source, to: target.baseAddress! + end, count: piece.count) }
                    end += piece.count
                }
                for cut in cuts {
                    copy(UnsafeBufferPointer(rebasing: text[from..<cut]))
                    copy(name)
                    from = cut
                }
                copy(UnsafeBufferPointer(rebasing: text[from...]))
                return end
            }
        }
    }
}

/// One name as `typeTokens` reads it (`Int`, `Item`, `T2`): it is then one
/// token, spaced like any other name.
func isPlainTypeName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, startsName(first) else { return false }
    return bytes.allSatisfy { $0 >= 0x80 || isASCIINameByte($0) }
}

/// Binds the generic parameters in `pattern` by matching it against `concrete`:
/// `FetchedResults<Result>` against `FetchedResults<Item>` gives Result = Item.
func matchType(_ pattern: String, _ concrete: String, parameters: [String], bindings: inout [String: [String]]) -> Bool {
    let c = typeTokens(concrete)
    // The common case, `wrappedValue: Value`: the whole type binds the parameter.
    if parameters.contains(pattern), !c.isEmpty {
        guard let known = bindings[pattern] else {
            bindings[pattern] = c
            return true
        }
        return known == c
    }
    let p = typeTokens(pattern)
    let names = Set(parameters)
    // Types are short; a pathological one is not matched (the property is then left as written).
    guard c.count <= 4096 else { return false }
    func match(_ pi: Int, _ ci: Int, _ bound: [String: [String]]) -> [String: [String]]? {
        if pi == p.count { return ci == c.count ? bound : nil }
        let token = p[pi]
        if names.contains(token) {
            if let value = bound[token] {
                guard ci + value.count <= c.count, Array(c[ci..<ci + value.count]) == value else { return nil }
                return match(pi + 1, ci + value.count, bound)
            }
            // Every non-empty balanced run of tokens from `ci`, shortest first.
            var depth = 0
            var end = ci
            while end < c.count {
                if ["<", "[", "("].contains(c[end]) { depth += 1 }
                if [">", "]", ")"].contains(c[end]) { depth -= 1 }
                end += 1
                if depth < 0 { return nil }
                if depth == 0 {
                    var next = bound
                    next[token] = Array(c[ci..<end])
                    if let result = match(pi + 1, end, next) { return result }
                }
            }
            return nil
        }
        guard ci < c.count, c[ci] == token else { return nil }
        return match(pi + 1, ci + 1, bound)
    }
    guard let result = match(0, 0, bindings) else { return false }
    bindings = result
    return true
}

/// Whether type tokens hold `->` outside brackets: a function type (`(A) -> B?`), not `((A) -> B)?`.
func hasTopLevelArrow(_ tokens: [String]) -> Bool {
    var depth = 0
    for token in tokens {
        switch token {
        case "(", "[", "<": depth += 1
        case ")", "]", ">": depth -= 1
        case "->" where depth == 0: return true
        default: continue
        }
    }
    return false
}

/// Type tokens with each generic parameter replaced by its binding. A function type bound where
/// a `?`, `!` or `.` follows is parenthesized: `Value?` with `(Int) -> String` is `((Int) -> String)?`.
func substitute(_ pattern: [String], _ bindings: [String: [String]]) -> [String] {
    guard !bindings.isEmpty else { return pattern }
    var result: [String] = []
    result.reserveCapacity(pattern.count)
    for (index, token) in pattern.enumerated() {
        guard let bound = bindings[token] else {
            result.append(token)
            continue
        }
        if index + 1 < pattern.count, ["?", "!", "."].contains(pattern[index + 1]), hasTopLevelArrow(bound) {
            result.append("(")
            result += bound
            result.append(")")
        } else {
            result += bound
        }
    }
    return result
}

// MARK: - Description

extension WrapperShape: CustomStringConvertible {
    /// What lowering reads from the shape, one fact per line (nested type names qualified, a
    /// `SwiftUI.` prefix dropped): two declarations with equal descriptions lower alike.
    public var description: String {
        func type(_ text: String) -> String {
            typeText(typeTokens(qualifiedMemberType(text, in: self))).replacingOccurrences(of: "SwiftUI.", with: "")
        }
        func member(_ member: Member?) -> String {
            guard let member else { return "none" }
            return "\(type(member.type)) get\(member.mutatingGetter ? " mutating" : "") set \(member.setter)"
                + (member.needsModify ? " modify" : "") + (member.isolation.map { " " + $0 } ?? "")
        }
        var lines = ["\(kind) \(name)<\(genericParameters.joined(separator: ", "))>"]
        lines.append(
            "init(wrappedValue:) \(hasInitWrappedValue)\(wrappedValueIsAutoclosure ? " autoclosure" : "")"
                + (initWrappedValueIsIsolated ? " isolated" : "")
                + (hasInitWrappedValue && !initializesStorageFromWrappedValue ? " (not the type's own: not for V-3a, M-4)" : ""))
        lines.append("init() \(hasInitWithoutArguments), init(projectedValue:) \(hasInitProjectedValue)")
        lines.append("wrappedValue: " + member(wrappedValue))
        lines.append("projectedValue: " + member(projectedValue))
        lines.append("enclosing instance: \(enclosingInstance.map { "\($0)" } ?? "none"), sendable: \(sendable)")
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension WrapperShapes {
    /// Reads each wrapper of `declaringFile` again with the extensions of it that the other `sources`
    /// declare at their top level, in any `#if` branch: their text after the wrapper's file, read as one.
    fileprivate mutating func addExtensions(of declaringFile: [String: Int], in sources: [[UInt8]]) {
        // The files that spell `extension Name` for a wrapper's name (one pass over each file's bytes);
        // only those are parsed.
        var extending: [String: [Int]] = [:]
        for (index, source) in sources.enumerated() {
            for name in extendedNames(in: source) where declaringFile[name].map({ $0 != index }) == true {
                if extending[name]?.last != index { extending[name, default: []].append(index) }
            }
        }
        for (name, files) in extending.sorted(by: { $0.key < $1.key }) {
            var combined: [UInt8] = []
            for index in files {
                let source = sources[index]
                let tree = Parser.parse(source, bodies: .skippingPlain)
                func collect(_ items: SyntaxList<Item>) {
                    for item in items {
                        switch item {
                        case .type(let type) where type.kind == .extension:
                            guard type.name.upper == type.name.lower + 1,
                                source[tree.tokens[type.name.lower].range].elementsEqual(name.utf8)
                            else { continue }
                            combined.append(UInt8(ascii: "\n"))
                            combined += source[tree.tokens[type.span.lower].start..<tree.tokens[type.span.upper - 1].end]
                        case .ifConfig(let ifConfig):
                            for clause in ifConfig.clauses { collect(clause.items) }
                        default:
                            continue
                        }
                    }
                }
                collect(tree.items)
            }
            guard !combined.isEmpty, let declaring = declaringFile[name],
                let shape = WrapperShapes(readingDeclarationsIn: sources[declaring] + combined).byName[name]
            else { continue }
            byName[name] = shape
        }
    }
}

extension WrapperShapes {
    /// Whether `source` spells `extension Name` for one of these wrappers' plain names: a file that
    /// `withExtensions` may read for them (by its bytes, so possibly one that declares none).
    public func mayBeExtended(in source: [UInt8]) -> Bool {
        extendedNames(in: source).contains { !$0.contains(".") && byName[$0] != nil }
    }
}

/// The names written after `extension` and spaces or tabs in `source`, by its bytes (comments and
/// strings too: a superset, which the parse of the file then sorts out).
private func extendedNames(in source: [UInt8]) -> [String] {
    var names: [String] = []
    source.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return }
        let keyword = Array("extension".utf8)
        var from = 0
        // Anchored on the `x`, a rarer byte than the `e`.
        while from < bytes.count, let hit = memchr(base + from, Int32(UInt8(ascii: "x")), bytes.count - from) {
            let x = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            from = x + 1
            let start = x - 1
            guard start >= 0, start + keyword.count < bytes.count, start == 0 || !isNameByte(bytes[start - 1]),
                keyword.indices.allSatisfy({ bytes[start + $0] == keyword[$0] })
            else { continue }
            var nameStart = start + keyword.count
            guard bytes[nameStart] == 0x20 || bytes[nameStart] == 0x09 else { continue }
            while nameStart < bytes.count && (bytes[nameStart] == 0x20 || bytes[nameStart] == 0x09) { nameStart += 1 }
            var nameEnd = nameStart
            while nameEnd < bytes.count && isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            if nameEnd > nameStart { names.append(String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)) }
            from = nameEnd
        }
    }
    return names
}
