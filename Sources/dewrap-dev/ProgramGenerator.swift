/// One generated program: Swift 6 declarations that use property wrappers,
/// and a driver function that builds every type through every init the
/// compiler gives it and the user's, and prints what it sees. Type names
/// start with the program's prefix (`P12_`), so that many programs can be
/// compiled as one executable.
struct GeneratedProgram {
    let index: Int
    /// The program's own seed (derived from the run's seed and the index).
    let seed: UInt64
    let prefix: String
    /// The file: declarations, then the driver.
    let source: String
    /// A second file of the program, when it has one: it calls functions of the first.
    let companion: String?
    /// `@MainActor func <driver>() async`.
    let driver: String
    /// SPEC Corrections, I-4: types whose written-out memberwise init (and `init()`) dewrap leaves isolated where
    /// the compiler's is `nonisolated`; with the memberwise init's labels, to find it among the signatures, and the
    /// type's isolation as `-print-ast` prints it.
    let isolatedByCorrection: [String: (labels: [String], isolation: String)]
    /// SPEC Oracle: memberwise parameters whose default `-print-ast` prints as the attribute (printed, real), by type.
    let defaultsPrintedAsAttribute: [String: [(printed: String, real: String)]]
}

/// Generates programs, deterministic per (seed, index).
struct ProgramGenerator {
    let seed: UInt64

    /// The seed of program `index`: the run's seed and the index mixed, so that one program can be made alone.
    func programSeed(_ index: Int) -> UInt64 {
        var mixer = Dice(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(index))
        return mixer.next()
    }

    func program(_ index: Int) -> GeneratedProgram {
        var builder = ProgramBuilder(prefix: "P\(index)_", dice: Dice(seed: programSeed(index)))
        return builder.build(index: index, seed: programSeed(index), runSeed: seed)
    }
}

/// The program being written.
private struct ProgramBuilder {
    let prefix: String
    var dice: Dice
    var sections: [String] = []
    var exercises: [String] = []
    var isolatedByCorrection: [String: (labels: [String], isolation: String)] = [:]
    var defaultsPrintedAsAttribute: [String: [(printed: String, real: String)]] = [:]
    var typeCount = 0

    init(prefix: String, dice: Dice) {
        self.prefix = prefix
        self.dice = dice
    }

    mutating func build(index: Int, seed: UInt64, runSeed: UInt64) -> GeneratedProgram {
        // The wrappers this program declares.
        var wrappers: [DeclaredWrapper] = []
        let projections: [DeclaredWrapper.Projection] = [.none, .description, .itself, .privateSetCount]
        if dice.chance(85) { wrappers.append(DeclaredWrapper(name: prefix + "Box", shape: .box, projection: dice.pick(projections))) }
        if dice.chance(50) {
            wrappers.append(DeclaredWrapper(name: prefix + "Ref", shape: .reference, projection: dice.pick([.none, .description, .itself])))
        }
        if dice.chance(15) { wrappers.append(DeclaredWrapper(name: prefix + "Flag", shape: .flag, projection: dice.pick([.none, .description]))) }
        for wrapper in wrappers { sections.append(wrapper.source) }
        let handlerAlias = prefix + "Handler"
        sections.append("typealias \(handlerAlias) = () -> Void")

        // An ObservableObject model, for @StateObject and @ObservedObject.
        var model: String?
        if dice.chance(55) {
            model = prefix + "Model"
            writeModel(named: model!)
        }
        let setting = MemberSetting(prefix: prefix, kind: .plainStruct, wrappers: wrappers, model: model, handlerAlias: handlerAlias)
        let count = 1 + dice.below(3)
        for _ in 0..<count {
            var kinds: [TypeKind] = [.plainStruct, .plainStruct, .view, .view, .mainActorStruct, .finalClass, .openClass, .actor]
            if dice.chance(25) { kinds += [.card, .mainActorClass] }
            writeType(dice.pick(kinds), setting: setting)
        }
        if dice.chance(4) { writeObservableActor() }
        var imports = "import SwiftUI\n"
        if dice.chance(12), let box = wrappers.first(where: { $0.shape == .box }) {
            imports = "import Foundation\n" + imports
            writeRecord(box: box)
        }

        // Last, so that the rest of a program is what the same seed gave before this was added.
        var companion: String?
        if dice.chance(40) { companion = writeWrappedFunctions(wrappers) }

        var text = "// Program \(index) of seed \(runSeed) (program seed \(seed)).\n" + imports + "\n"
        text += sections.joined(separator: "\n\n")
        let driver = prefix + "drive"
        text += "\n\n// MARK: - Driver\n\n@MainActor func \(driver)() async {\n"
        for exercise in exercises { text += "    await \(exercise)\n" }
        text += "}\n"
        return GeneratedProgram(
            index: index, seed: seed, prefix: prefix, source: text, companion: companion, driver: driver,
            isolatedByCorrection: isolatedByCorrection, defaultsPrintedAsAttribute: defaultsPrintedAsAttribute)
    }

    // MARK: - Functions with wrapped parameters

    /// One or two functions with wrapped parameters (SPEC P-1, P-2, P-4's defaults) and a function calling
    /// them, which is in the program's second file half of the time (issue 21: a module's calls across files
    /// are rewritten with the function), sometimes with a use there that cannot be rewritten (the function is
    /// then left, with a warning). Returns that second file, if there is one.
    private mutating func writeWrappedFunctions(_ wrappers: [DeclaredWrapper]) -> String? {
        // A projection with a setter on a parameter crashes swiftc 6.3.1 (SIL verification).
        let wrappers = wrappers.filter { $0.projection != .itself }
        guard !wrappers.isEmpty else { return nil }
        let traced = "\(prefix)traced"
        var declarations = ["func \(traced)(_ value: Int) -> Int {\n    print(\"  evaluate \\(value)\")\n    return value\n}"]
        var calls: [String] = []
        var reference: String?
        for number in 1...(1 + dice.below(2)) {
            let name = "\(prefix)shown\(number)"
            // (label as written in the declaration, label at calls, value read, has a default)
            var parameters: [(declaration: String, label: String, read: String, hasDefault: Bool)] = []
            for position in 0..<(1 + dice.below(2)) {
                let wrapper = dice.pick(wrappers)
                let parameter = "level\(position)"
                var attribute = "@" + (wrapper.shape == .box && dice.chance(20) ? wrapper.aliasName : wrapper.name)
                switch wrapper.shape {
                case .box: if dice.chance(40) { attribute += "(tag: \"t\(position)\")" }
                case .flag: attribute += "(help: \"h\(position)\")"
                case .reference: break
                }
                let label = dice.pick([parameter, "_", "to\(position)"])
                let written = label == parameter ? parameter : "\(label) \(parameter)"
                let hasDefault = dice.chance(25)
                var read = "\\(\(parameter))"
                if let projection = wrapper.projectionRead(parameter) { read += " \\(\(projection.path))" }
                // A default or an argument with an effect shows when it is evaluated (SPEC Corrections, P-2).
                let defaultValue = dice.chance(50) ? "\(traced)(\(10 + position))" : "\(10 + position)"
                parameters.append(("\(attribute) \(written): Int" + (hasDefault ? " = \(defaultValue)" : ""), label, read, hasDefault))
            }
            let hasNote = dice.chance(50)
            let noteDefault = dice.chance(50)
            var signature = parameters.map(\.declaration)
            if hasNote { signature.append("note: String" + (noteDefault ? " = \"-\"" : "")) }
            let body = "\"\(name): " + parameters.map(\.read).joined(separator: " ") + (hasNote ? " \\(note)" : "") + "\""
            declarations.append("func \(name)(\(signature.joined(separator: ", "))) -> String {\n    \(body)\n}")
            for _ in 0..<(1 + dice.below(3)) {
                var arguments: [String] = []
                // An unlabeled argument left out would make the next one its (the compiler matches by position).
                for (position, parameter) in parameters.enumerated() where !parameter.hasDefault || parameter.label == "_" || dice.chance(50) {
                    let number = dice.below(30) - 5 + position
                    let value = dice.chance(40) ? "\(traced)(\(number))" : String(number)
                    arguments.append(parameter.label == "_" ? value : "\(parameter.label): \(value)")
                }
                if hasNote && (!noteDefault || dice.chance(50)) {
                    arguments.append(dice.chance(30) ? "note: String(\(traced)(\(calls.count)))" : "note: \"n\(calls.count)\"")
                }
                calls.append("\(name)(\(arguments.joined(separator: ", ")))")
            }
            if reference == nil && parameters.count == 1 && !hasNote && dice.chance(15) {
                // A local: a global of a function type is not concurrency-safe in Swift 6.
                reference = "    let shownAsValue: (Int) -> String = \(name)\n    print(shownAsValue(4))\n"
            }
        }
        sections += declarations
        let caller = "\(prefix)callShown"
        func function(withReference: Bool) -> String {
            "@MainActor func \(caller)() async {\n    print(\"-- wrapped parameters\")\n"
                + calls.map { "    print(\($0))\n" }.joined() + (withReference ? reference ?? "" : "") + "}"
        }
        exercises.append("\(caller)()")
        guard dice.chance(50) else {
            sections.append(function(withReference: false))
            return nil
        }
        // The use as a value only in the second file: there it leaves the function as written.
        return "// The second file of program \(prefix.dropLast()): calls of the first file's functions.\n\n"
            + function(withReference: true) + "\n"
    }

    // MARK: - Names

    private static let words = [
        "count", "title", "level", "items", "score", "label", "note", "limit", "total", "mode",
        "owner", "size", "step", "depth", "width", "color", "state", "token", "phase", "rank",
    ]

    private mutating func memberName(_ index: Int) -> String {
        dice.pick(Self.words) + String(index)
    }

    private mutating func typeName(_ base: String) -> String {
        typeCount += 1
        return prefix + base + String(typeCount)
    }

    // MARK: - Models

    /// `final class Model: ObservableObject` with `@Published` properties (A-6); sometimes its own inits
    /// (which dewrap leaves as written, with a warning), sometimes a subclass.
    private mutating func writeModel(named name: String) {
        var lines = [
            "final class \(name): ObservableObject {",
            "    @Published var title = \"model\"",
            "    @Published var count: Int = 0",
        ]
        if dice.chance(50) {
            lines.append("    @Published private(set) var history: [Int] = []")
        } else {
            lines.append("    var history: [Int] = []")
        }
        let pinned = dice.chance(15)
        if dice.chance(30) {
            lines.append("    @Published var flag: Bool = false {")
            lines.append("        didSet { print(\"  flag didSet \\(oldValue)\") }")
            lines.append("    }")
        }
        let initKind = dice.below(10)
        if pinned {
            // A subclass adds a published property; its key paths are rooted at the class that declares it (A-6).
            lines[0] = "class \(name): ObservableObject {"
            sections.append(
                """
                final class \(name)Pinned: \(name) {
                    @Published var pinned: Int? = nil

                    func pin() {
                        pinned = count
                        title += " (pinned)"
                    }

                    @MainActor static func \(prefix)exercisePinned() async {
                        print("-- \(name)Pinned")
                        let model = \(name)Pinned()
                        model.record()
                        model.pin()
                        print(model.summary(), String(describing: model.pinned), model.$pinned.values)
                    }
                }
                """)
            exercises.append("\(name)Pinned.\(prefix)exercisePinned()")
        }
        if initKind == 0 {
            lines += ["", "    init() {", "        title = \"made\"", "    }"]
        } else if initKind == 1 {
            lines += [
                "", "    init(title: String) {", "        self.title = title", "        count = 1", "    }",
                "", "    convenience init() {", "        self.init(title: \"convenient\")", "    }",
            ]
        }
        lines += [
            "",
            "    func record() {",
            "        count += 1",
            "        history.append(count)",
            "    }",
            "",
            "    func summary() -> String {",
            "        \"\\(title) \\(count) \\(history) \\($count.values) \\(self.$title.values)\"",
            "    }",
            "",
            "    @MainActor static func \(prefix)exercise() async {",
            "        print(\"-- \(name)\")",
            "        let model = \(name)()",
            "        model.record()",
            "        model.title = \"renamed\"",
            "        print(model.summary())",
            "        print(model[keyPath: \\\(name).title], model.$count.values)",
            "    }",
            "}",
        ]
        sections.append(lines.joined(separator: "\n"))
        exercises.append("\(name).\(prefix)exercise()")
    }

    /// `@Published` in an actor (SPEC Corrections, X-1: accepted by the compiler).
    private mutating func writeObservableActor() {
        let name = typeName("Feed")
        sections.append(
            """
            actor \(name): ObservableObject {
                @Published var items: [Int] = []

                func add(_ item: Int) -> String {
                    items.append(item)
                    return "\\(items) \\($items.values)"
                }

                @MainActor static func \(prefix)exercise() async {
                    print("-- \(name)")
                    let feed = \(name)()
                    print(await feed.add(1))
                    print(await feed.add(2))
                }
            }
            """)
        exercises.append("\(name).\(prefix)exercise()")
    }

    /// A `Codable` struct with wrapped properties (K-1): the storage is encoded under the property's name,
    /// through the type's own `CodingKeys` (with or without raw values) or synthesized ones. The driver
    /// encodes (sorted keys), decodes, and decodes a document without keys (`keyNotFound`).
    private mutating func writeRecord(box: DeclaredWrapper) {
        let name = typeName("Record")
        sections.append(
            """
            extension \(box.name): Codable where Value: Codable {
                init(from decoder: Decoder) throws {
                    self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self), tag: "decoded")
                }

                func encode(to encoder: Encoder) throws {
                    var container = encoder.singleValueContainer()
                    try container.encode(stored)
                }
            }
            """)
        var members: [(declaration: String, name: String, argument: String)] = []
        for index in 0..<(2 + dice.below(3)) {
            let member = memberName(index)
            let n = dice.below(90) + 2
            switch dice.below(5) {
            case 0: members.append(("@\(box.name) var \(member): Int = \(n)", member, "\(n + 1)"))
            case 1: members.append(("@\(box.name) var \(member): String", member, "\"s\(n)\""))
            case 2: members.append(("@\(box.name) var \(member): Int?", member, "\(n)"))
            case 3: members.append(("var \(member): [Int] = [\(n)]", member, "[\(n + 1)]"))
            default: members.append(("let \(member): String", member, "\"l\(n)\""))
            }
        }
        var lines = ["struct \(name): Codable {"] + members.map { "    " + $0.declaration }
        switch dice.below(3) {
        case 0:
            break
        case 1:
            lines += ["", "    enum CodingKeys: String, CodingKey {"]
            for member in members {
                lines.append(dice.chance(40) ? "        case \(member.name) = \"\(member.name)Key\"" : "        case \(member.name)")
            }
            lines.append("    }")
        default:
            lines += ["", "    enum CodingKeys: CodingKey {"]
            lines += members.map { "        case \($0.name)" }
            lines.append("    }")
        }
        let summary = members.map { "\($0.name)=\\(String(describing: \($0.name)))" }.joined(separator: " ")
        let arguments = members.map { "\($0.name): \($0.argument)" }.joined(separator: ", ")
        lines += [
            "",
            "    func summary() -> String {",
            "        \"\(summary)\"",
            "    }",
            "",
            "    @MainActor static func \(prefix)exercise() async {",
            "        print(\"-- \(name)\")",
            "        let encoder = JSONEncoder()",
            "        encoder.outputFormatting = [.sortedKeys]",
            "        let value = \(name)(\(arguments))",
            "        let data = try! encoder.encode(value)",
            "        print(String(decoding: data, as: UTF8.self))",
            "        let decoded = try! JSONDecoder().decode(\(name).self, from: data)",
            "        print(decoded.summary())",
            "        do {",
            "            _ = try JSONDecoder().decode(\(name).self, from: Data(\"{}\".utf8))",
            "        } catch {",
            "            print(\"{} does not decode:\", error)",
            "        }",
            "    }",
            "}",
        ]
        sections.append(lines.joined(separator: "\n"))
        exercises.append("\(name).\(prefix)exercise()")
    }

    // MARK: - Types

    /// How a type is initialized.
    private enum InitStyle {
        /// The compiler's memberwise init (and `init()`), plus these inits in an extension.
        case memberwise(delegating: Bool, direct: Bool)
        /// Inits in the body, which suppress the memberwise init (M-1).
        case body(failable: Bool, delegating: Bool)
    }

    private mutating func writeType(_ kind: TypeKind, setting programSetting: MemberSetting) {
        let base: String =
            switch kind {
            case .plainStruct: "Settings"
            case .view: "Row"
            case .mainActorStruct: "Panel"
            case .card: "Card"
            case .finalClass, .mainActorClass: "Session"
            case .openClass: "Base"
            case .actor: "Store"
            }
        let name = typeName(base)
        let reference = kind == .card ? name + "<Text>" : name
        var setting = programSetting
        setting.kind = kind

        // Members: a static `let` first (initial values may name it), then a mix.
        var members: [Member] = []
        var maker = MemberMaker(setting: setting)
        var memberIndex = 0
        if kind != .card && dice.chance(45) {
            let label = memberName(memberIndex)
            memberIndex += 1
            members.append(maker.make(.staticPlain, name: label, &dice))
            maker.setting.staticNames = [label]
        }
        let kinds = maker.kinds()
        let count = 2 + dice.below(6)
        var chosen: [String: MemberMaker.Kind] = [:]
        for _ in 0..<count {
            let name = memberName(memberIndex)
            memberIndex += 1
            let kind = dice.pick(kinds)
            chosen[name] = kind
            members.append(maker.make(kind, name: name, &dice))
        }
        if kind == .card {
            var content = Member(name: "content", declaration: ["@ViewBuilder let content: () -> Content"])
            content.isRequired = true
            content.parameter = MemberwiseParameter(
                label: "content", hasDefault: false, argument: "{ Text(\"content\") }",
                isBuilderContent: true)
            content.initialize = { seed, _ in "self.content = { Text(\"content \\(\(seed))\") }" }
            members.append(content)
        }

        let hasRequired = members.contains { $0.isStoredInstance && $0.isRequired }
        var style: InitStyle
        if kind.isStruct {
            if kind != .card && dice.chance(30) {
                style = .body(failable: dice.chance(40), delegating: dice.chance(40))
            } else {
                style = .memberwise(delegating: dice.chance(35), direct: dice.chance(30))
            }
        } else if hasRequired || dice.chance(50) {
            style = .body(failable: dice.chance(30), delegating: kind != .actor && dice.chance(40))
        } else {
            style = .memberwise(delegating: false, direct: false)
        }
        if case .memberwise = style, kind.isStruct {
            // Decision 3 and evaluation order: a lowering keeps an excluded property's initializer on its
            // declaration, so it runs before the included ones' (M-8 step 4 is not required). Traced
            // initializers of excluded properties come first, where the order is the same.
            let excluded = members.filter { $0.isStoredInstance && $0.parameter == nil && $0.declaration[0].hasPrefix("@") }
            members = excluded + members.filter { !($0.isStoredInstance && $0.parameter == nil && $0.declaration[0].hasPrefix("@")) }
        }

        let memberKinds = members.map { chosen[$0.name] ?? .staticPlain }
        // One member (rarely two) under `#if`, with an alternative in the inactive branch (M-9).
        var conditional: Set<Int> = []
        if dice.chance(20) {
            let candidates = members.indices.filter { members[$0].isStoredInstance && members[$0].name != "content" }
            if let first = candidates.first.map({ _ in dice.pick(candidates) }) {
                conditional.insert(first)
                if dice.chance(15), let second = candidates.first(where: { $0 != first }) { conditional.insert(second) }
            }
            for index in conditional.sorted() {
                // Mostly the same kind of member (another value, access, annotation); now and then another kind.
                var alternativeDice = Dice(seed: dice.next())
                let kind = dice.chance(85) ? memberKinds[index] : dice.pick(kinds)
                let alternative = maker.make(kind, name: members[index].name, &alternativeDice)
                members[index].inactiveAlternative = alternative.declaration
            }
        }

        let access: String =
            switch dice.below(10) {
            case 0: kind.isStruct && kind != .card ? "public " : ""
            case 1: "fileprivate "
            default: ""
            }
        var head = ""
        switch kind {
        case .plainStruct: head = "\(access)struct \(name)"
        case .view: head = "\(access)struct \(name): View"
        case .mainActorStruct: head = "@MainActor \(access)struct \(name)"
        case .card: head = "\(access)struct \(name)<Content: View>: View"
        case .finalClass: head = "\(access)final class \(name)"
        case .openClass: head = "\(access)class \(name)"
        case .mainActorClass: head = "@MainActor \(access)final class \(name)"
        case .actor: head = "\(access)actor \(name)"
        }
        var lines = [head + " {"]
        var index = 0
        while index < members.count {
            let member = members[index]
            if conditional.contains(index) {
                let activeFirst = dice.chance(50)
                lines.append(activeFirst ? "    #if !\(prefix)NEVER" : "    #if \(prefix)NEVER")
                let (first, second) =
                    activeFirst ? (member.declaration, member.inactiveAlternative!) : (member.inactiveAlternative!, member.declaration)
                lines += first.map { "    " + $0 }
                lines.append("    #else")
                lines += second.map { "    " + $0 }
                lines.append("    #endif")
            } else {
                lines += member.declaration.map { "    " + $0 }
            }
            index += 1
        }

        var userInits: [String] = [] // driver calls: the text after the type reference
        var extensionLines: [String] = []
        switch style {
        case .body(let failable, let delegating):
            lines.append("")
            lines += initializer("init(seed: Int)", members: members, kind: kind, failable: false).map { "    " + $0 }
            userInits.append("(seed: \(dice.below(9) + 1))")
            if failable {
                lines.append("")
                lines += initializer("init?(seed: Int, fails: Bool)", members: members, kind: kind, failable: true).map { "    " + $0 }
                userInits += ["(seed: \(dice.below(9) + 1), fails: true)", "(seed: \(dice.below(9) + 1), fails: false)"]
            }
            if delegating {
                lines.append("")
                lines.append(kind.isClass ? "    convenience init(twice seed: Int) {" : "    init(twice seed: Int) {")
                lines.append("        self.init(seed: seed * 2)")
                lines.append("        bump()")
                lines.append("    }")
                userInits.append("(twice: \(dice.below(9) + 1))")
            }
            if kind == .openClass && dice.chance(40) { writeSubclass(of: name, access: access, baseInit: "super.init(seed: seed)", setting: setting) }
        case .memberwise(let delegating, let direct):
            if kind.isStruct {
                if delegating {
                    if dice.chance(30) {
                        // Failable, delegating to the memberwise init on one path.
                        extensionLines += [
                            "    init?(copying seed: Int, fails: Bool) {",
                            "        guard !fails else { return nil }",
                            "        self.init(\(memberwiseArguments(members, all: dice.chance(50))))",
                            "        bump()",
                            "    }",
                        ]
                        userInits += ["(copying: \(dice.below(9) + 1), fails: true)", "(copying: \(dice.below(9) + 1), fails: false)"]
                    } else {
                        extensionLines += [
                            "    init(copying seed: Int) {",
                            "        self.init(\(memberwiseArguments(members, all: dice.chance(50))))",
                            "        bump()",
                            "    }",
                        ]
                        userInits.append("(copying: \(dice.below(9) + 1))")
                    }
                }
                if direct {
                    if !extensionLines.isEmpty { extensionLines.append("") }
                    extensionLines += initializer("init(direct seed: Int)", members: members, kind: kind, failable: false).map { "    " + $0 }
                    userInits.append("(direct: \(dice.below(9) + 1))")
                }
            } else if kind == .openClass && dice.chance(40) {
                writeSubclass(of: name, access: access, baseInit: "super.init()", setting: setting)
            }
        }

        lines +=
            [""]
            + methods(
                members, kind: kind, typeName: name, isPublic: access == "public ",
                localWrapper: setting.wrappers.first { $0.shape != .flag }
            ).map { "    " + $0 }
        lines.append("}")
        var text = lines.joined(separator: "\n")
        if !extensionLines.isEmpty {
            text += "\n\nextension \(name)\(kind == .card ? " where Content == Text" : "") {\n" + extensionLines.joined(separator: "\n") + "\n}"
        }

        // The driver: every init, every use.
        var constructions: [(label: String, call: String)] = []
        if case .memberwise = style {
            if kind.isStruct {
                recordSignatureExceptions(name, kind: kind, members: members)
                let parameters = members.filter { $0.isStoredInstance && $0.parameter != nil }
                constructions.append(("memberwise, all arguments", "\(reference)(\(memberwiseArguments(members, all: true)))"))
                if parameters.contains(where: { $0.parameter!.hasDefault }) && parameters.contains(where: { !$0.parameter!.hasDefault }) {
                    constructions.append(("memberwise, defaults", "\(reference)(\(memberwiseArguments(members, all: false)))"))
                }
                let isEverythingInitialized = !members.contains { $0.isStoredInstance && $0.isRequired }
                if isEverythingInitialized { constructions.append(("init()", "\(reference)()")) }
            } else {
                constructions.append(("init()", "\(reference)()"))
            }
        }
        for call in userInits { constructions.append(("init" + call, reference + call)) }
        text += "\n\n" + exerciseExtension(name: name, reference: reference, kind: kind, members: members, constructions: constructions)
        if kind == .card, case .memberwise = style, !members.contains(where: { $0.parameter != nil && $0.accessRank == 1 }) {
            // Several views in the trailing closure: the memberwise parameter carries `@ViewBuilder` (M-4).
            let others = memberwiseArguments(members.filter { $0.name != "content" }, all: false)
            let call = "\(name)(\(others)) {\n        Text(\"first\")\n        Text(\"second\")\n    }"
            text +=
                "\n\n@MainActor func \(prefix)built\(name)() async {\n    print(\"-- \(name) with a view builder\")\n"
                + "    let card = \(call)\n    print(SwiftUI.describe(card))\n}"
            exercises.append("\(prefix)built\(name)()")
        }
        sections.append(text)
    }

    /// `final class Sub: Base` with wrapped properties of its own and an init that calls `super.init`
    /// (N-2 before it): dewrap leaves it as written with a warning.
    private mutating func writeSubclass(of base: String, access: String, baseInit: String, setting: MemberSetting) {
        let name = typeName("Derived")
        var lines = ["\(access)final class \(name): \(base) {"]
        var own: [Member] = []
        if let box = setting.wrappers.first(where: { $0.shape == .box }) {
            lines.append("    @\(box.name) var extra: Int = 1")
            own.append(Member(name: "extra", declaration: []))
        }
        lines.append("    @State var shown = \"derived\"")
        lines += [
            "",
            "    init(derived seed: Int) {",
        ]
        if !own.isEmpty { lines.append("        self.extra = seed") }
        lines += [
            "        shown = \"early\"",
            "        \(baseInit)",
            "        shown += \"+late\"",
        ]
        if !own.isEmpty { lines.append("        extra += 1") }
        lines += [
            "    }",
            "",
            "    @MainActor static func \(prefix)exerciseDerived() async {",
            "        print(\"-- \(name)\")",
            "        let value = \(name)(derived: 3)",
            "        print(value.summary(), value.shown, value.$shown.wrappedValue\(own.isEmpty ? "" : ", value.extra"))",
            "        value.bump()",
            "        print(value.summary())",
            "    }",
            "}",
        ]
        sections.append(lines.joined(separator: "\n"))
        exercises.append("\(name).\(prefix)exerciseDerived()")
    }

    // MARK: - Inits

    /// A non-delegating init from `seed`: every required member set (some in branches), a few initialized
    /// wrapped ones set again while `self` is incomplete (N-2), then changes through the setters (N-3).
    private mutating func initializer(_ signature: String, members: [Member], kind: TypeKind, failable: Bool) -> [String] {
        var body: [String] = []
        if failable { body.append("if fails { return nil }") }
        let required = dice.shuffled(members.filter { $0.isStoredInstance && $0.isRequired })
        let others = members.filter { $0.isStoredInstance && !$0.isRequired && $0.initialize != nil }
        var early = others.filter { _ in dice.chance(30) }
        // Set again while incomplete only when something is still to be set after it.
        if required.isEmpty { early = [] }
        func initialize(_ member: Member, _ n: Int) -> String {
            (kind == .actor ? member.initializeStorage ?? member.initialize! : member.initialize!)("seed", n)
        }
        for member in early { body.append(initialize(member, dice.below(9))) }
        for member in required {
            if dice.chance(25) {
                body.append("if seed > \(dice.below(6)) {")
                body.append("    " + initialize(member, dice.below(9)))
                body.append("} else {")
                body.append("    " + initialize(member, dice.below(9) + 10))
                body.append("}")
            } else {
                body.append(initialize(member, dice.below(9)))
            }
        }
        // After `self` is complete: the setters (a derived class's super.init comes first).
        let changes = members.flatMap(\.changes).filter { _ in dice.chance(30) }
        if kind == .actor {
            // An actor's synchronous init may not touch isolated state once `self` is complete.
        } else {
            for change in changes {
                if change.statement.hasPrefix("Self.") { continue }
                body.append(change.statement)
            }
        }
        return [signature + " {"] + body.map { "    " + $0 } + ["}"]
    }

    /// Arguments for the memberwise init: every parameter, or only those without a default.
    private mutating func memberwiseArguments(_ members: [Member], all: Bool) -> String {
        members.compactMap { member -> String? in
            guard member.isStoredInstance, let parameter = member.parameter else { return nil }
            guard all || !parameter.hasDefault else { return nil }
            return "\(parameter.label): \(parameter.argument)"
        }.joined(separator: ", ")
    }

    /// The exceptions to comparing `-print-ast` signatures that this type's memberwise init has.
    private mutating func recordSignatureExceptions(_ name: String, kind: TypeKind, members: [Member]) {
        let parameters = members.filter { $0.isStoredInstance }.compactMap(\.parameter)
        if parameters.contains(where: \.keepsIsolation) {
            // Inferred from `View`, the isolation prints with `@preconcurrency`; written on the type, without.
            isolatedByCorrection[name] = (parameters.map(\.label), kind.isView ? "@MainActor @preconcurrency" : "@MainActor")
        }
        let printed = parameters.compactMap(\.defaultPrintedAsAttribute)
        if !printed.isEmpty { defaultsPrintedAsAttribute[name] = printed }
    }

    // MARK: - Uses

    /// `summary()`, `bump()`, `compare(_:)` and a `View`'s `body`.
    private mutating func methods(
        _ members: [Member], kind: TypeKind, typeName: String, isPublic: Bool, localWrapper: DeclaredWrapper?
    ) -> [String] {
        var lines: [String] = []
        func show(_ member: Member, _ read: MemberRead, receiver: String?) -> String {
            let path = member.isStatic ? "Self." + read.path : (receiver.map { $0 + "." } ?? "") + read.path
            return "\(member.name)=\\(String(describing: \(path)))"
        }
        var parts: [String] = []
        for member in members {
            for read in member.reads + member.projectionReads where !read.isMutatingGetter && !read.path.hasSuffix("()") {
                parts.append(show(member, read, receiver: dice.chance(30) && !member.isStatic ? "self" : nil))
            }
        }
        lines += ["func summary() -> String {", "    \"\(parts.joined(separator: " "))\"", "}", ""]

        var changes: [String] = []
        for member in members {
            for read in member.reads where read.isMutatingGetter { changes.append("_ = \(read.path)") }
            for change in member.changes { changes.append(change.statement) }
        }
        lines.append((kind.isStruct ? "mutating " : "") + "func bump() {")
        lines += changes.map { "    " + $0 }
        // A wrapped local variable (P-6) now and then, with its projection when the wrapper has one.
        if let wrapper = localWrapper, dice.chance(20) {
            lines += ["    @\(wrapper.name) var scratch = \(dice.below(50))", "    scratch += 1"]
            let projection = wrapper.projectionRead("scratch").map { ", String(describing: \($0.path))" } ?? ""
            lines.append("    print(\"  scratch\", scratch\(projection))")
        }
        lines += ["}", ""]

        if kind != .actor {
            var otherParts: [String] = []
            for member in members where !member.isStatic {
                for read in member.reads + member.projectionReads where !read.isMutatingGetter && !read.path.hasSuffix("()") {
                    otherParts.append(show(member, read, receiver: "other"))
                }
            }
            let otherType = kind.isStruct ? "Self" : typeName
            lines += ["func compare(_ other: \(otherType)) -> String {", "    \"\(otherParts.joined(separator: " "))\"", "}"]
        }

        if kind.isView {
            let buttons = members.compactMap(\.buttonChange)
            lines += [
                "", (isPublic ? "public " : "") + "var body: some View {", "    VStack {",
                "        Text(summary())",
            ]
            if let button = buttons.first {
                lines += ["        Button(\"bump\") {", "            \(button)", "        }"]
            }
            if kind == .card { lines.append("        content()") }
            lines += ["    }", "}"]
        }
        return lines
    }

    /// `extension T { @MainActor static func <prefix>exercise() async }`: builds the type every way and uses
    /// each value: its summary, a bump, reads and projections from outside, key paths, closures, the view.
    private mutating func exerciseExtension(
        name: String, reference: String, kind: TypeKind, members: [Member], constructions: [(label: String, call: String)]
    ) -> String {
        let valueType = reference
        var use: [String] = []
        let isActor = kind == .actor
        let await_ = isActor ? "await " : ""
        use.append("print(\"-- \(name) \\(how)\")")
        use.append("print(\(await_)value.summary())")
        use.append("\(await_)value.bump()")
        use.append("print(\(await_)value.summary())")
        if !isActor {
            use.append("print(value.compare(value))")
            for member in members {
                for read in member.reads + member.projectionReads {
                    if read.path.hasSuffix("()") {
                        use.append("value.\(read.path)")
                        continue
                    }
                    let target = member.isStatic ? "\(reference).\(read.path)" : "value.\(read.path)"
                    if read.isMutatingGetter && !kind.isStruct { continue }
                    use.append("print(\"\(member.name):\", String(describing: \(target)))")
                    if read.keyPathable && !read.isMutatingGetter && !member.isStatic && dice.chance(40) {
                        use.append("print(\"\\\\.\(read.path):\", String(describing: value[keyPath: \\\(valueType).\(read.path)]))")
                    }
                }
            }
            if kind.isView {
                use.append("print(SwiftUI.describe(value))")
                if members.contains(where: { $0.buttonChange != nil }) {
                    use.append("SwiftUI.tap(value, \"bump\")")
                    use.append("print(SwiftUI.describe(value))")
                }
            }
        }
        let parameter = kind.isStruct ? "_ value: inout \(valueType)" : "_ value: \(valueType)"
        var lines = [
            "extension \(name)\(kind == .card ? " where Content == Text" : "") {",
            "    @MainActor static func \(prefix)use(\(parameter), _ how: String) async {",
        ]
        lines += use.map { "        " + $0 }
        lines += ["    }", "", "    @MainActor static func \(prefix)exercise() async {"]
        for (index, construction) in constructions.enumerated() {
            let binding = kind.isStruct ? "var" : "let"
            if construction.call.contains("fails:") {
                lines.append("        if \(binding) value\(index) = \(construction.call) {")
                lines.append(
                    "            await \(prefix)use(\(kind.isStruct ? "&" : "")value\(index), \"\(construction.label.replacingOccurrences(of: "\"", with: "\\\""))\")"
                )
                lines.append("        } else {")
                lines.append("            print(\"-- \(name) \(construction.label): nil\")")
                lines.append("        }")
            } else {
                lines.append("        \(binding) value\(index) = \(construction.call)")
                lines.append(
                    "        await \(prefix)use(\(kind.isStruct ? "&" : "")value\(index), \"\(construction.label.replacingOccurrences(of: "\"", with: "\\\""))\")"
                )
            }
        }
        lines += ["    }", "}"]
        exercises.append("\(reference).\(prefix)exercise()")
        return lines.joined(separator: "\n")
    }
}
