/// Makes the members of generated types, one kind at a time, with what the
/// compiler makes of each (M-2…M-5 for the memberwise parameter, N-1/N-2 for
/// an init's assignment, A-2 for whether a change needs `mutating`).
struct MemberMaker {
    enum Kind: CaseIterable {
        case plainLet, plainLetWithValue, plainVar, plainVarWithValue, optionalVar, lazyVar, computed
        case closure, closureWithValue, optionalClosure, aliasClosure, sendableClosure, mainActorClosure
        case state, binding, stateObject, observedObject, environment, appStorage
        case box, reference, flag, composition, staticWrapped, staticPlain
    }

    var setting: MemberSetting

    /// The kinds a type of `kind` may hold in this program.
    func kinds() -> [Kind] {
        let type = setting.kind
        var kinds: [Kind] = [
            .plainLet, .plainLetWithValue, .plainVar, .plainVarWithValue, .optionalVar, .lazyVar, .computed,
            .state, .environment,
        ]
        // A generic type has no static stored properties.
        if type != .card { kinds.append(.staticPlain) }
        if type != .actor {
            // Closures are one choice among the others (one of six shapes is picked in `make`).
            kinds += [.closure, .binding, .appStorage]
        }
        if type.isStruct && type.isMainActor && setting.model != nil { kinds += [.stateObject, .observedObject] }
        if setting.wrappers.contains(where: { $0.shape == .box }) { kinds += [.box, .box] }
        if setting.wrappers.contains(where: { $0.shape == .reference }) { kinds += [.reference] }
        if setting.wrappers.contains(where: { $0.shape == .flag }) { kinds += [.flag] }
        if setting.wrappers.contains(where: { $0.shape == .box }) && setting.wrappers.contains(where: { $0.shape == .reference }) {
            kinds.append(.composition)
        }
        if type.isMainActor && type != .card && setting.wrappers.contains(where: { $0.shape != .flag }) { kinds.append(.staticWrapped) }
        return kinds
    }

    // MARK: - Choices shared by the kinds

    private func access(_ dice: inout Dice, publicAllowed: Bool) -> MemberAccess {
        switch dice.below(20) {
        case 0..<11: return .none
        case 11..<14: return .private
        case 14..<16: return .fileprivate
        case 16..<18: return .internal
        default: return publicAllowed ? .public : .none
        }
    }

    /// `private(set) ` now and then, where the access allows it.
    private func setterAccess(_ dice: inout Dice, _ access: MemberAccess) -> String {
        access != .private && dice.chance(15) ? "private(set) " : ""
    }

    /// Observers printing what they see (A-5), on a member of type `kind`.
    private func observers(_ dice: inout Dice, name: String) -> [String] {
        switch dice.below(3) {
        case 0: return ["    didSet { print(\"  \(name) didSet \\(String(describing: oldValue)) -> \\(String(describing: \(name)))\") }"]
        case 1: return ["    willSet { print(\"  \(name) willSet \\(String(describing: newValue))\") }"]
        default:
            return [
                "    willSet(next) { print(\"  \(name) willSet \\(String(describing: next))\") }",
                "    didSet { print(\"  \(name) didSet\") }",
            ]
        }
    }

    /// The declaration's first line and, with observers, its block.
    private func declaration(_ head: String, observers: [String]) -> [String] {
        observers.isEmpty ? [head] : [head + " {"] + observers + ["}"]
    }

    /// `kind` among the value kinds a member may hold; `Int?` only where it may be Optional.
    private func valueKind(_ dice: inout Dice, optional: Bool = true) -> ValueKind {
        optional ? dice.pick(ValueKind.allCases) : dice.pick([.int, .string, .bool, .ints])
    }

    // MARK: - Members

    func make(_ kind: Kind, name: String, _ dice: inout Dice) -> Member {
        switch kind {
        case .plainLet, .plainLetWithValue, .plainVar, .plainVarWithValue, .optionalVar:
            return plain(kind, name: name, &dice)
        case .lazyVar: return lazy(name: name, &dice)
        case .computed: return computed(name: name, &dice)
        case .closure:
            let shape = dice.pick([Kind.closure, .closureWithValue, .optionalClosure, .aliasClosure, .sendableClosure, .mainActorClosure])
            return closure(shape, name: name, &dice)
        case .closureWithValue, .optionalClosure, .aliasClosure, .sendableClosure, .mainActorClosure:
            return closure(kind, name: name, &dice)
        case .state: return state(name: name, &dice)
        case .binding: return binding(name: name, &dice)
        case .stateObject: return stateObject(name: name, &dice)
        case .observedObject: return observedObject(name: name, &dice)
        case .environment: return environment(name: name, &dice)
        case .appStorage: return appStorage(name: name, &dice)
        case .box, .reference: return declared(kind == .box ? .box : .reference, name: name, &dice)
        case .flag: return flag(name: name, &dice)
        case .composition: return composition(name: name, &dice)
        case .staticWrapped: return staticWrapped(name: name, &dice)
        case .staticPlain: return staticPlain(name: name, &dice)
        }
    }

    private func plain(_ kind: Kind, name: String, _ dice: inout Dice) -> Member {
        let isLet = kind == .plainLet || kind == .plainLetWithValue
        let value = kind == .optionalVar ? ValueKind.optionalInt : valueKind(&dice)
        let hasValue = kind == .plainLetWithValue || kind == .plainVarWithValue
        let access = self.access(&dice, publicAllowed: true)
        let n = dice.below(90) + 2
        var initial = hasValue ? " = " + value.literal(n) : ""
        var namesStatic: String?
        // An initial value naming a static member unqualified (SPEC Corrections).
        if hasValue, value == .string, let label = setting.staticNames.first, dice.chance(30) {
            initial = " = " + label
            namesStatic = label
        }
        let annotation = !hasValue || !value.literalSaysType || namesStatic != nil || dice.chance(40) ? ": " + value.type : ""
        let observers = !isLet && setting.kind != .actor && dice.chance(10) ? self.observers(&dice, name: name) : []
        let setter = isLet ? "" : setterAccess(&dice, access)
        var member = Member(
            name: name,
            declaration: declaration(
                "\(access.keyword)\(setter)\(isLet ? "let" : "var") \(name)\(annotation)\(initial)", observers: observers))
        member.namesStatic = namesStatic
        member.isRequired = !hasValue && (isLet || value != .optionalInt)
        if !(isLet && hasValue) {
            let defaultValue = hasValue ? initial : !isLet && value == .optionalInt ? " = nil" : ""
            member.parameter = MemberwiseParameter(label: name, hasDefault: !defaultValue.isEmpty, argument: value.literal(n + 3))
            member.accessRank = access.rank
            member.initialize = { seed, k in "self.\(name) = \(value.value(from: seed, k))" }
        }
        member.reads = [MemberRead(path: name)]
        if !isLet { member.changes = [MemberChange(statement: value.change(name, n), isMutating: true)] }
        return member
    }

    private func lazy(name: String, _ dice: inout Dice) -> Member {
        let value = valueKind(&dice)
        let n = dice.below(90) + 2
        let access = self.access(&dice, publicAllowed: true)
        let head: String
        if value == .ints && dice.chance(30) {
            head = "\(access.keyword)lazy var \(name) = [Int]()"
        } else {
            let annotation = value.literalSaysType && dice.chance(50) ? "" : ": " + value.type
            head = "\(access.keyword)lazy var \(name)\(annotation) = \(value.literal(n))"
        }
        var member = Member(name: name, declaration: [head])
        member.parameter = MemberwiseParameter(label: name, hasDefault: true, argument: value.literal(n + 1))
        member.accessRank = access.rank
        member.reads = [MemberRead(path: name, isMutatingGetter: true)]
        member.changes = [MemberChange(statement: value.change(name, n), isMutating: true)]
        return member
    }

    private func computed(name: String, _ dice: inout Dice) -> Member {
        var member = Member(name: name, declaration: ["var \(name): String { \"computed \(dice.below(50))\" }"])
        member.isStoredInstance = false
        member.reads = [MemberRead(path: name)]
        return member
    }

    private func closure(_ kind: Kind, name: String, _ dice: inout Dice) -> Member {
        let body = "{ print(\"  \(name) called\") }"
        let argument = "{ print(\"  \(name) given\") }"
        var head: String
        var call = "\(name)()"
        switch kind {
        case .closure: head = "let \(name): () -> Void"
        case .closureWithValue: head = "var \(name): () -> Void = \(body)"
        case .optionalClosure: head = "var \(name): (() -> Void)?"; call = "\(name)?()"
        case .aliasClosure: head = "let \(name): \(setting.handlerAlias)"
        case .sendableClosure: head = "let \(name): @Sendable () -> Void"
        default: head = "let \(name): @MainActor () -> Void"
        }
        let access = self.access(&dice, publicAllowed: kind != .aliasClosure)
        head = access.keyword + head
        var member = Member(name: name, declaration: [head])
        member.isRequired = kind != .closureWithValue && kind != .optionalClosure
        member.parameter = MemberwiseParameter(label: name, hasDefault: !member.isRequired, argument: argument)
        member.accessRank = access.rank
        member.initialize = { seed, _ in "self.\(name) = { print(\"  \(name) set in init \\(\(seed))\") }" }
        // Called by the driver (on the main actor), which a `@MainActor` closure needs.
        member.reads = [MemberRead(path: call, keyPathable: false)]
        return member
    }

    // MARK: - SwiftUI's wrappers (table T)

    private func state(name: String, _ dice: inout Dice) -> Member {
        let value = valueKind(&dice)
        let access = self.access(&dice, publicAllowed: true)
        let n = dice.below(90) + 2
        let hasValue = value == .optionalInt ? dice.chance(50) : dice.chance(80)
        let annotation = !hasValue || !value.literalSaysType || dice.chance(40) ? ": " + value.type : ""
        let observers = dice.chance(10) ? self.observers(&dice, name: name) : []
        let head = "@State \(access.keyword)\(setterAccess(&dice, access))var \(name)\(annotation)\(hasValue ? " = " + value.literal(n) : "")"
        var member = Member(name: name, declaration: declaration(head, observers: observers))
        let initialized = hasValue || value == .optionalInt
        member.isRequired = !initialized
        if !(access.isBelowInternal && initialized) {
            member.parameter = MemberwiseParameter(label: name, hasDefault: initialized, argument: value.literal(n + 1))
            member.accessRank = access.rank
        }
        member.initialize = { seed, k in "self.\(name) = \(value.value(from: seed, k))" }
        member.initializeStorage = { seed, k in "self._\(name) = State(wrappedValue: \(value.value(from: seed, k)))" }
        member.reads = [MemberRead(path: name)]
        member.projectionReads = [MemberRead(path: "$\(name).wrappedValue")]
        member.changes = [
            MemberChange(statement: value.change(name, n), isMutating: false),
            MemberChange(statement: value.change("$\(name).wrappedValue", n + 1), isMutating: false),
        ]
        member.buttonChange = value.change(name, n + 2)
        return member
    }

    /// A `Binding` built by the driver or an init: it prints what is set through it.
    static func bindingExpression(_ value: ValueKind, _ getter: String) -> String {
        "Binding<\(value.type)>(get: { \(getter) }, set: { print(\"  [bound] set \\(String(describing: $0))\") })"
    }

    private func binding(name: String, _ dice: inout Dice) -> Member {
        let value = valueKind(&dice)
        let access = self.access(&dice, publicAllowed: true)
        let n = dice.below(90) + 2
        var member = Member(name: name, declaration: ["@Binding \(access.keyword)var \(name): \(value.type)"])
        member.isRequired = true
        member.parameter = MemberwiseParameter(
            label: name, hasDefault: false,
            argument: Self.bindingExpression(value, value.literal(n)))
        member.accessRank = access.rank
        member.initialize = { seed, k in "self._\(name) = \(Self.bindingExpression(value, value.value(from: seed, k)))" }
        member.reads = [MemberRead(path: name)]
        member.projectionReads = [MemberRead(path: "$\(name).wrappedValue")]
        member.changes = [MemberChange(statement: value.change(name, n), isMutating: false)]
        member.buttonChange = value.change(name, n + 1)
        return member
    }

    private func stateObject(name: String, _ dice: inout Dice) -> Member {
        let model = setting.model!
        let access = self.access(&dice, publicAllowed: false)
        let annotation = dice.chance(40) ? ": " + model : ""
        var member = Member(name: name, declaration: ["@StateObject \(access.keyword)var \(name)\(annotation) = \(model)()"])
        if !access.isBelowInternal {
            member.parameter = MemberwiseParameter(label: name, hasDefault: true, argument: "\(model)()")
            member.accessRank = access.rank
        }
        member.initialize = { _, _ in "self._\(name) = StateObject(wrappedValue: \(model)())" }
        member.reads = [MemberRead(path: "\(name).title"), MemberRead(path: "\(name).count")]
        member.projectionReads = [MemberRead(path: "$\(name).title.wrappedValue")]
        member.changes = [MemberChange(statement: "\(name).count += 1", isMutating: false)]
        member.buttonChange = "\(name).record()"
        member.needsMainActor = true
        return member
    }

    private func observedObject(name: String, _ dice: inout Dice) -> Member {
        let model = setting.model!
        let access = self.access(&dice, publicAllowed: false)
        let hasValue = dice.chance(25)
        var member = Member(name: name, declaration: ["@ObservedObject \(access.keyword)var \(name): \(model)\(hasValue ? " = \(model)()" : "")"])
        member.isRequired = !hasValue
        if !(access.isBelowInternal && hasValue) {
            member.parameter = MemberwiseParameter(label: name, hasDefault: hasValue, argument: "\(model)()", keepsIsolation: true)
            member.accessRank = access.rank
        }
        member.initialize = { _, _ in "self.\(name) = \(model)()" }
        member.reads = [MemberRead(path: "\(name).title"), MemberRead(path: "\(name).count")]
        member.projectionReads = [MemberRead(path: "$\(name).count.wrappedValue")]
        member.changes = [MemberChange(statement: "\(name).count += 2", isMutating: false)]
        member.buttonChange = "\(name).record()"
        member.needsMainActor = true
        return member
    }

    private func environment(name: String, _ dice: inout Dice) -> Member {
        let access = self.access(&dice, publicAllowed: false)
        let (key, type, read): (String, String, String) =
            switch dice.below(20) {
            case 0..<9: ("\\.locale", "String", name)
            case 9..<19: ("\\.isEnabled", "Bool", name)
            default: ("\\.self", "EnvironmentValues", "\(name).locale")
            }
        // Without an annotation dewrap reads the type from its catalog of EnvironmentValues; the stand-in's
        // `locale` is a String where SwiftUI's (and the catalog's) is a Locale, so that one is always written.
        let annotation = dice.chance(80) || key == "\\.locale" ? ": " + type : ""
        var member = Member(name: name, declaration: ["@Environment(\(key)) \(access.keyword)var \(name)\(annotation)"])
        if !access.isBelowInternal {
            member.parameter = MemberwiseParameter(label: name, hasDefault: true, argument: "Environment(\(key))")
            member.accessRank = access.rank
        }
        member.initialize = { _, _ in "self._\(name) = Environment(\(key))" }
        member.reads = [MemberRead(path: read)]
        return member
    }

    private func appStorage(name: String, _ dice: inout Dice) -> Member {
        let value = valueKind(&dice, optional: false)
        let access = self.access(&dice, publicAllowed: true)
        let n = dice.below(90) + 2
        let key = "\"\(setting.prefix)\(name)\""
        let annotation = dice.chance(40) ? ": " + value.type : ""
        var member = Member(name: name, declaration: ["@AppStorage(\(key)) \(access.keyword)var \(name)\(annotation) = \(value.literal(n))"])
        if !access.isBelowInternal {
            member.parameter = MemberwiseParameter(
                label: name, hasDefault: true, argument: value.literal(n + 1),
                defaultPrintedAsAttribute: ("\(name): \(value.type) = AppStorage(\(key))", "\(name): \(value.type) = \(value.literal(n))"))
            member.accessRank = access.rank
        }
        member.initialize = { seed, k in "self.\(name) = \(value.value(from: seed, k))" }
        member.reads = [MemberRead(path: name)]
        member.projectionReads = [MemberRead(path: "$\(name).wrappedValue")]
        member.changes = [MemberChange(statement: value.change(name, n), isMutating: false)]
        member.buttonChange = value.change(name, n + 1)
        return member
    }

    // MARK: - Wrappers declared in the program

    private func declared(_ shape: DeclaredWrapper.Shape, name: String, _ dice: inout Dice) -> Member {
        let wrapper = dice.pick(setting.wrappers.filter { $0.shape == shape })
        let value = valueKind(&dice)
        let access = self.access(&dice, publicAllowed: false)
        let n = dice.below(90) + 2
        let hasValue = dice.chance(value == .optionalInt ? 50 : 75)
        // An attribute argument, now and then naming a static member unqualified (SPEC Corrections, `Self.`).
        var tag = shape == .box && hasValue && dice.chance(35) ? "\"t\(n)\"" : nil
        if tag != nil, let label = setting.staticNames.first, dice.chance(30) { tag = label }
        let annotation = !hasValue || !value.literalSaysType || dice.chance(40) ? ": " + value.type : ""
        let observers = setting.kind != .actor && dice.chance(12) ? self.observers(&dice, name: name) : []
        // Now and then through the wrapper's typealias (the compiler's storage type is then the alias).
        let attributeName = dice.chance(20) ? wrapper.aliasName : wrapper.name
        let attribute = "@\(attributeName)" + (tag.map { "(tag: \($0))" } ?? "")
        let head = "\(attribute) \(access.keyword)\(setterAccess(&dice, access))var \(name)\(annotation)\(hasValue ? " = " + value.literal(n) : "")"
        var member = Member(name: name, declaration: declaration(head, observers: observers))
        let initialized = hasValue || value == .optionalInt
        member.isRequired = !initialized
        if !(access.isBelowInternal && initialized) {
            member.parameter = MemberwiseParameter(
                label: name, hasDefault: initialized, argument: value.literal(n + 1),
                defaultPrintedAsAttribute: tag.map {
                    ("\(name): \(value.type) = \(attributeName)(tag: \($0))", "\(name): \(value.type) = \(value.literal(n))")
                })
            member.accessRank = access.rank
        }
        member.initialize = { seed, k in "self.\(name) = \(value.value(from: seed, k))" }
        // In an init body a static member needs `Self.` (the attribute may name it unqualified).
        let tagInBody = tag.map { $0.hasPrefix("\"") ? $0 : "Self." + $0 }
        member.initializeStorage = { seed, k in
            "self._\(name) = \(wrapper.name)(wrappedValue: \(value.value(from: seed, k))\(tagInBody.map { ", tag: \($0)" } ?? ""))"
        }
        member.reads = [MemberRead(path: name)]
        if let projection = wrapper.projectionRead(name) { member.projectionReads = [projection] }
        let isMutating = shape == .box
        member.changes = [MemberChange(statement: value.change(name, n), isMutating: isMutating)]
        if wrapper.projection == .itself {
            member.changes.append(
                shape == .box
                    ? MemberChange(statement: "$\(name).tag = \"retagged\"", isMutating: true)
                    : MemberChange(statement: value.change("$\(name).wrappedValue", n + 1), isMutating: false))
        }
        if !isMutating { member.buttonChange = value.change(name, n + 2) }
        return member
    }

    private func flag(name: String, _ dice: inout Dice) -> Member {
        let wrapper = dice.pick(setting.wrappers.filter { $0.shape == .flag })
        let access = self.access(&dice, publicAllowed: false)
        let n = dice.below(90) + 2
        let help = "\"h\(n)\""
        let attribute = "@\(wrapper.name)(help: \(help))"
        var member: Member
        switch dice.below(3) {
        case 0:
            // V-2: built from the attribute alone; the parameter has the wrapper's type.
            member = Member(name: name, declaration: ["\(attribute) \(access.keyword)var \(name): Bool?"])
            if !access.isBelowInternal {
                member.parameter = MemberwiseParameter(label: name, hasDefault: true, argument: "\(wrapper.name)(help: \"given\")")
            }
            member.initialize = { _, _ in "self._\(name) = \(wrapper.name)(help: \"init\")" }
            member.changes = [MemberChange(statement: "\(name) = \(name) == nil ? true : nil", isMutating: true)]
        case 1:
            member = Member(name: name, declaration: ["\(attribute) \(access.keyword)var \(name): Bool? = true"])
            if !access.isBelowInternal {
                member.parameter = MemberwiseParameter(
                    label: name, hasDefault: true, argument: "false",
                    defaultPrintedAsAttribute: ("\(name): Bool? = \(wrapper.name)(help: \(help))", "\(name): Bool? = true"))
            }
            member.initialize = { seed, _ in "self.\(name) = \(seed) > 0" }
            member.initializeStorage = { seed, _ in "self._\(name) = \(wrapper.name)(wrappedValue: \(seed) > 0, help: \(help))" }
            member.changes = [MemberChange(statement: "\(name) = \(name) == nil ? true : nil", isMutating: true)]
        default:
            member = Member(name: name, declaration: ["\(attribute) \(access.keyword)var \(name) = false"])
            if !access.isBelowInternal {
                member.parameter = MemberwiseParameter(
                    label: name, hasDefault: true, argument: "true",
                    defaultPrintedAsAttribute: ("\(name): Bool = \(wrapper.name)(help: \(help))", "\(name): Bool = false"))
            }
            member.initialize = { seed, _ in "self.\(name) = \(seed) > 1" }
            member.initializeStorage = { seed, _ in "self._\(name) = \(wrapper.name)(wrappedValue: \(seed) > 1, help: \(help))" }
            member.changes = [MemberChange(statement: "\(name).toggle()", isMutating: true)]
        }
        member.accessRank = access.rank
        member.reads = [MemberRead(path: name)]
        if let projection = wrapper.projectionRead(name) { member.projectionReads = [projection] }
        return member
    }

    private func composition(name: String, _ dice: inout Dice) -> Member {
        let outer = dice.pick(setting.wrappers.filter { $0.shape == .reference })
        let inner = dice.pick(setting.wrappers.filter { $0.shape == .box })
        let value = valueKind(&dice, optional: false)
        let n = dice.below(90) + 2
        let annotation = dice.chance(50) ? ": " + value.type : ""
        var member = Member(name: name, declaration: ["@\(outer.name) @\(inner.name) var \(name)\(annotation) = \(value.literal(n))"])
        member.parameter = MemberwiseParameter(label: name, hasDefault: true, argument: value.literal(n + 1))
        member.initialize = { seed, k in "self.\(name) = \(value.value(from: seed, k))" }
        member.initializeStorage = { seed, k in
            "self._\(name) = \(outer.name)(wrappedValue: \(inner.name)(wrappedValue: \(value.value(from: seed, k))))"
        }
        member.reads = [MemberRead(path: name)]
        if let projection = outer.projectionRead(name) { member.projectionReads = [projection] }
        // A-7: the outer class wrapper's setter is nonmutating.
        member.changes = [MemberChange(statement: value.change(name, n), isMutating: false)]
        member.buttonChange = value.change(name, n + 1)
        return member
    }

    private func staticWrapped(name: String, _ dice: inout Dice) -> Member {
        let wrapper = dice.pick(setting.wrappers.filter { $0.shape != .flag })
        let value = valueKind(&dice, optional: false)
        let n = dice.below(90) + 2
        let annotation = dice.chance(50) ? ": " + value.type : ""
        var member = Member(name: name, declaration: ["@\(wrapper.name) static var \(name)\(annotation) = \(value.literal(n))"])
        member.isStoredInstance = false
        member.isStatic = true
        member.reads = [MemberRead(path: name, keyPathable: false)]
        if let projection = wrapper.projectionRead(name) { member.projectionReads = [MemberRead(path: projection.path, keyPathable: false)] }
        member.changes = [MemberChange(statement: value.change("Self.\(name)", n), isMutating: false)]
        return member
    }

    private func staticPlain(name: String, _ dice: inout Dice) -> Member {
        var member = Member(name: name, declaration: ["static let \(name) = \"static \(dice.below(50))\""])
        member.isStoredInstance = false
        member.isStatic = true
        member.reads = [MemberRead(path: name, keyPathable: false)]
        return member
    }
}
