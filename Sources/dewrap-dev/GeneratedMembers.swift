import DewrapTestSupport

// The members a generated program's types are made of (SPEC S, M, N, T): each
// member says how it is declared and what the compiler makes of it — whether
// the memberwise init takes it and as what, how an init sets it, how it is
// read, changed and projected — so that the program can use every one of
// them in ways the compiler accepts.

/// Seeded choices (SplitMix64): the same seed gives the same program.
struct Dice {
    private var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    /// A number in `0..<n`.
    mutating func below(_ n: Int) -> Int { Int(generator.next() % UInt64(max(n, 1))) }

    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        for index in items.indices.reversed() where index > 0 { items.swapAt(index, below(index + 1)) }
        return items
    }
}

/// The wrapped and plain value types members hold.
enum ValueKind: CaseIterable {
    case int, string, bool, ints, optionalInt

    var type: String {
        switch self {
        case .int: return "Int"
        case .string: return "String"
        case .bool: return "Bool"
        case .ints: return "[Int]"
        case .optionalInt: return "Int?"
        }
    }

    /// Whether a literal of this kind says its type (Decision 5), so that it may go without an annotation.
    var literalSaysType: Bool { self != .optionalInt }

    /// A literal; `n` varies it.
    func literal(_ n: Int) -> String {
        switch self {
        case .int: return "\(n)"
        case .string: return "\"s\(n)\""
        case .bool: return n % 2 == 0 ? "true" : "false"
        case .ints: return "[\(n), \(n + 1)]"
        case .optionalInt: return n % 3 == 0 ? "nil" : "\(n)"
        }
    }

    /// A value computed from the Int `seed` (an init's parameter).
    func value(from seed: String, _ n: Int) -> String {
        switch self {
        case .int: return "\(seed) + \(n)"
        case .string: return "\"s\\(\(seed))\""
        case .bool: return "\(seed) % 2 == \(n % 2)"
        case .ints: return "[\(seed), \(n)]"
        case .optionalInt: return "\(seed) > \(n) ? \(seed) : nil"
        }
    }

    /// A statement that changes `target` (a settable expression).
    func change(_ target: String, _ n: Int) -> String {
        switch self {
        case .int: return "\(target) += \(n)"
        case .string: return "\(target) += \"+\(n)\""
        case .bool: return "\(target).toggle()"
        case .ints: return "\(target).append(\(n))"
        case .optionalInt: return "\(target) = (\(target) ?? 0) + \(n)"
        }
    }
}

/// Access written on a member (`nil`: none written).
enum MemberAccess: CaseIterable {
    case none, `private`, `fileprivate`, `internal`, `public`

    var keyword: String {
        switch self {
        case .none: return ""
        case .private: return "private "
        case .fileprivate: return "fileprivate "
        case .internal: return "internal "
        case .public: return "public "
        }
    }

    /// Below `internal` (M-2): a wrapped property so declared with a value is left out of the memberwise init.
    var isBelowInternal: Bool { self == .private || self == .fileprivate }

    /// The memberwise init's access it implies (M-3): 1 private, 2 fileprivate, 3 internal.
    var rank: Int { self == .private ? 1 : self == .fileprivate ? 2 : 3 }
}

/// The kinds of type a program declares.
enum TypeKind: CaseIterable {
    case plainStruct, view, mainActorStruct, card, finalClass, openClass, mainActorClass, actor

    var isStruct: Bool { [.plainStruct, .view, .mainActorStruct, .card].contains(self) }
    var isClass: Bool { [.finalClass, .openClass, .mainActorClass].contains(self) }
    /// Isolated to the main actor: a `View` (I-3) or `@MainActor`.
    var isMainActor: Bool { [.view, .mainActorStruct, .card, .mainActorClass].contains(self) }
    var isView: Bool { self == .view || self == .card }
}

/// A memberwise init's parameter for a member (M-4, M-5).
struct MemberwiseParameter {
    var label: String
    var hasDefault: Bool
    /// An argument the driver passes.
    var argument: String
    /// SPEC Oracle: `-print-ast` prints this parameter's default as the attribute; as printed, and as it really is.
    var defaultPrintedAsAttribute: (printed: String, real: String)?
    /// SPEC Corrections, I-4: an `@ObservedObject` given its value (dewrap leaves the init isolated).
    var keepsIsolation = false
    /// `@ViewBuilder` content: the driver also passes several views in a trailing closure.
    var isBuilderContent = false
}

/// A printable expression about a member, after a receiver (`value.` + path, or the path alone inside the type).
struct MemberRead {
    var path: String
    /// The getter is `mutating` (a lazy property): read only where `self` may change.
    var isMutatingGetter = false
    /// A key path may name it (`\T.path`); false for paths through methods or optional chains.
    var keyPathable = true
}

/// A statement, inside the type, that changes a member after `self` is initialized.
struct MemberChange {
    var statement: String
    /// Needs a `mutating` method in a struct (the setter or the getter is mutating).
    var isMutating: Bool
}

/// One member of a generated type.
struct Member {
    var name: String
    /// The declaration's lines, unindented.
    var declaration: [String]
    /// An alternative declaration of the same name and type for the inactive branch of an `#if` (M-9).
    var inactiveAlternative: [String]?
    /// A stored instance property (memberwise inits, DI).
    var isStoredInstance = true
    var isStatic = false
    /// No value at its declaration and none by default: every non-delegating init must set it (M-7).
    var isRequired = false
    var parameter: MemberwiseParameter?
    /// The access the memberwise init takes from it (M-3), when included.
    var accessRank = 3
    /// A statement that sets it in an init while `self` is not yet initialized, from the Int `seed` (N-1, N-2);
    /// nil when an init cannot (a `let` with a value, a get-only wrapped property, a lazy one).
    var initialize: ((String, Int) -> String)?
    /// The same through the storage (`self._x = W(wrappedValue: …)`, N-1), for an actor's init, where the
    /// wrapped property itself cannot be assigned (it is isolated and the init is not); nil: as `initialize`.
    var initializeStorage: ((String, Int) -> String)?
    /// Reads for `describe()` and the driver; projections (`$x`) among them.
    var reads: [MemberRead] = []
    var projectionReads: [MemberRead] = []
    var changes: [MemberChange] = []
    /// A change a `View`'s button can make (a nonmutating setter).
    var buttonChange: String?
    /// The static member it names unqualified in its initializer (SPEC Corrections, `Self.`).
    var namesStatic: String?
    /// The main actor is needed to touch it (object wrappers' `wrappedValue`, I-1).
    var needsMainActor = false
}

/// A property wrapper declared in the program, which prints its own trace.
struct DeclaredWrapper {
    enum Shape {
        /// A struct: mutating setter; `init(wrappedValue:tag:)` with a default tag.
        case box
        /// A final class: nonmutating setter.
        case reference
        /// A struct whose Optional form is built from its attribute arguments alone (V-2): `init(help:) where Value == Bool?`.
        case flag
    }

    enum Projection {
        case none
        /// `var projectedValue: String` (get-only).
        case description
        /// `var projectedValue: Self { get set }`.
        case itself
        /// `private(set) var projectedValue: Int`: get-only to its users (SPEC Corrections, access of the setters).
        case privateSetCount
    }

    var name: String
    var shape: Shape
    var projection: Projection

    var hasSetterOnProjection: Bool { projection == .itself }

    /// The projection's type for wrapped type `value`, and a printable read of it.
    func projectionRead(_ name: String) -> MemberRead? {
        switch projection {
        case .none: return nil
        case .description, .privateSetCount: return MemberRead(path: "$" + name)
        case .itself: return shape == .reference ? MemberRead(path: "$\(name).wrappedValue") : MemberRead(path: "$\(name).tag")
        }
    }

    /// The Swift declaration.
    var source: String {
        var lines: [String] = ["@propertyWrapper"]
        switch shape {
        case .box:
            lines += [
                "struct \(name)<Value> {",
                "    private var stored: Value",
                "    var tag: String",
            ]
            if projection == .privateSetCount { lines.append("    private(set) var projectedValue = 0") }
            lines += [
                "",
                "    init(wrappedValue: Value, tag: String = \"box\") {",
                "        print(\"  [\(name)] init(wrappedValue: \\(wrappedValue), tag: \\(tag))\")",
                "        stored = wrappedValue",
                "        self.tag = tag",
                "    }",
                "",
                "    var wrappedValue: Value {",
                "        get {",
                "            print(\"  [\(name)] get \\(tag) -> \\(stored)\")",
                "            return stored",
                "        }",
                "        set {",
                "            print(\"  [\(name)] set \\(tag) \\(newValue)\")",
                "            stored = newValue",
            ]
            if projection == .privateSetCount { lines.append("            projectedValue += 1") }
            lines += ["        }", "    }"]
        case .reference:
            lines += [
                "final class \(name)<Value> {",
                "    private var stored: Value",
                "",
                "    init(wrappedValue: Value) {",
                "        print(\"  [\(name)] init(wrappedValue: \\(wrappedValue))\")",
                "        stored = wrappedValue",
                "    }",
                "",
                "    var wrappedValue: Value {",
                "        get {",
                "            print(\"  [\(name)] get -> \\(stored)\")",
                "            return stored",
                "        }",
                "        set {",
                "            print(\"  [\(name)] set \\(newValue)\")",
                "            stored = newValue",
                "        }",
                "    }",
            ]
        case .flag:
            lines += [
                "struct \(name)<Value> {",
                "    private var stored: Value",
                "    let help: String",
                "",
                "    init(wrappedValue: Value, help: String) {",
                "        print(\"  [\(name)] init(wrappedValue: \\(wrappedValue), help: \\(help))\")",
                "        stored = wrappedValue",
                "        self.help = help",
                "    }",
                "",
                "    init(help: String) where Value == Bool? {",
                "        print(\"  [\(name)] init(help: \\(help))\")",
                "        stored = nil",
                "        self.help = help",
                "    }",
                "",
                "    var wrappedValue: Value {",
                "        get {",
                "            print(\"  [\(name)] get \\(help) -> \\(stored)\")",
                "            return stored",
                "        }",
                "        set {",
                "            print(\"  [\(name)] set \\(help) \\(newValue)\")",
                "            stored = newValue",
                "        }",
                "    }",
            ]
        }
        switch projection {
        case .none, .privateSetCount:
            break
        case .description:
            let detail = shape == .reference ? "ref" : shape == .flag ? "\\(help)" : "\\(tag)"
            lines += ["", "    var projectedValue: String { \"\(detail)=\\(stored)\" }"]
        case .itself:
            lines += [
                "",
                "    var projectedValue: \(name)<Value> {",
                "        get { self }",
                shape == .reference ? "        set { stored = newValue.stored }" : "        set { self = newValue }",
                "    }",
            ]
        }
        lines.append("}")
        // A generic alias attributes may name the wrapper through.
        lines += ["", "typealias \(aliasName)<Value> = \(name)<Value>"]
        return lines.joined(separator: "\n")
    }

    /// The name of the wrapper's typealias (`source` declares it).
    var aliasName: String { name + "Alias" }
}

/// What the members of one type may refer to.
struct MemberSetting {
    var prefix: String
    var kind: TypeKind
    var wrappers: [DeclaredWrapper]
    /// The program's `ObservableObject` class, if it has one.
    var model: String?
    /// A `typealias` of `() -> Void` declared in the program.
    var handlerAlias: String
    /// The type's own static members an initializer may name unqualified.
    var staticNames: [String] = []
}
