@testable import DewrapLowering
import DewrapSyntax
import Testing

/// The built-in catalog of SwiftUI's `EnvironmentValues` (SPEC Decision 5, revised) and its use for
/// `@Environment(\.key)` without a type annotation.
struct EnvironmentCatalogTests {
    /// Types the stand-in cannot declare, for it does not import Foundation.
    static let foundationTypes: Set<String> = ["CGFloat", "Locale", "Calendar", "TimeZone", "UndoManager", "AttributedString"]

    // MARK: - The catalog

    /// Every declaration in the catalog's text is read as a property with a type: none is dropped
    /// by a typo that the reader would skip, and every type is written as `typeText` writes it.
    @Test func everyDeclarationIsReadWithItsType() {
        var declared = 0
        for group in EnvironmentCatalog.declarations {
            let lines = group.text.split(separator: "\n").filter { $0.contains("var ") }
            declared += lines.count
            #expect(lines.allSatisfy { $0.hasPrefix("    public var ") && $0.hasSuffix(" { get }") }, "\(group.module ?? "SwiftUI")")
        }
        let names = EnvironmentCatalog.table.names
        #expect(names.count == declared)
        #expect(Set(names).count == names.count, "a name declared twice")
        let entries = EnvironmentCatalog.entries
        #expect(entries.count == declared)
        #expect(entries.count >= 150)
        for (name, entry) in entries {
            #expect(!entry.type.isEmpty && typeText(typeTokens(entry.type)) == entry.type, "\(name): \(entry.type)")
            #expect(environmentValueType(named: name) == entry.type)
        }
    }

    @Test func knownTypes() {
        #expect(environmentValueType(named: "dismiss") == "DismissAction")
        #expect(environmentValueType(named: "colorScheme") == "ColorScheme")
        #expect(environmentValueType(named: "openURL") == "OpenURLAction")
        #expect(environmentValueType(named: "modelContext") == "ModelContext")
        #expect(environmentValueType(named: "presentationMode") == "Binding<PresentationMode>")
        #expect(environmentValueType(named: "editMode") == "Binding<EditMode>?")
        #expect(environmentValueType(named: "horizontalSizeClass") == "UserInterfaceSizeClass?")
        #expect(environmentValueType(named: "locale") == "Locale")
        #expect(environmentValueType(named: "imageScale") == "Image.Scale")
        #expect(environmentValueType(named: "worldTrackingLimitations") == "Set<WorldTrackingLimitation>")
        #expect(environmentValueType(named: "managedObjectContext") == "NSManagedObjectContext")
        #expect(environmentValueType(named: "somethingUnknown") == nil)
        // Left out on purpose (see the catalog): an ambiguous name, a module not documented.
        #expect(environmentValueType(named: "realityKitScene") == nil)
        #expect(environmentValueType(named: "showSignificantUpdateAcknowledgment") == nil)
        #expect(EnvironmentCatalog.entries["modelContext"]?.module == "SwiftData")
        #expect(EnvironmentCatalog.entries["dismiss"]?.module == nil)
    }

    // MARK: - The stand-in

    /// `fixtures/standin/SwiftUI.swift` declares every catalog property (with the catalog's type)
    /// whose type needs no Foundation, and no property the catalog lacks: adding to one and not
    /// the other fails here. `locale` is the stand-in's `String` from before the catalog.
    @Test func standInDeclaresTheCatalogsProperties() throws {
        let source = try Fixtures.read("standin/SwiftUI", ".swift")
        let context = SourceContext(bytes: source, tree: Parser.parse(source))
        var standIn: [String: String] = [:]
        for member in environmentValuesMembers(in: context) {
            let name = context.text(member.name)
            #expect(standIn[name] == nil, "\(name) declared twice in the stand-in")
            standIn[name] = typeText(typeTokens(context.text(member.type)))
        }
        // The stored properties of the struct itself.
        for case .type(let type) in context.tree.items where type.kind == .struct && context.text(type.name) == "EnvironmentValues" {
            for case .variable(let variable) in type.members {
                guard let name = variable.bindings[0].name, let initializer = variable.bindings[0].initializer else { continue }
                standIn[context.text(name)] = context.inferredType(of: initializer)
            }
        }
        #expect(standIn["locale"] == "String" && standIn["isEnabled"] == "Bool")
        standIn["locale"] = nil

        let catalog = EnvironmentCatalog.entries.filter { Set(typeTokens($0.value.type)).isDisjoint(with: Self.foundationTypes) }
        let missing = Set(catalog.keys).subtracting(standIn.keys).sorted()
        let extra = Set(standIn.keys).subtracting(catalog.keys).sorted()
        #expect(missing.isEmpty, "in the catalog, not in the stand-in: \(missing)")
        #expect(extra.isEmpty, "in the stand-in, not in the catalog: \(extra)")
        for (name, type) in standIn where catalog[name] != nil {
            #expect(type == catalog[name]?.type, "\(name): stand-in \(type), catalog \(catalog[name]?.type ?? "")")
        }
        // The ones left out of the stand-in are exactly the Foundation-typed ones.
        #expect(EnvironmentCatalog.entries.count - catalog.count == 14)
    }

    // MARK: - Lowering with it

    private func lowered(_ source: String) -> (output: String, diagnostics: [Diagnostic]) {
        let result = lower(Array(source.utf8), fileName: "Test.swift")
        return (String(decoding: result.output, as: UTF8.self), result.diagnostics)
    }

    @Test func catalogTypeIsWritten() {
        let result = lowered(
            "import SwiftUI\nstruct A: View {\n    @Environment(\\.dismiss) private var dismiss\n    var body: some View { Text(\"\") }\n}\n")
        #expect(result.diagnostics.isEmpty)
        #expect(result.output.contains("private var _dismiss: Environment<DismissAction> = Environment(\\.dismiss)\n"))
        #expect(result.output.contains("private var dismiss: DismissAction {\n"))
    }

    /// `@Environment(Model.self)` gives `Model`; an argument before `.self` that is no type
    /// (`A b`, two names; `A\0b`) gives none, so the property is left as written with a warning
    /// rather than given a type that does not parse (fuzzing found a second lowering then changed
    /// the file).
    @Test func onlyATypeBeforeSelfIsRead() {
        let model = lowered("import SwiftUI\nstruct A: View {\n    @Environment(Model.self) private var model\n}\n")
        #expect(model.output.contains("private var _model: Environment<Model>"))
        for argument in ["A b", "A\u{0}b", "A + b"] {
            let source = "import SwiftUI\nstruct A: View {\n    @Environment(\(argument).self) private var model\n}\n"
            let result = lowered(source)
            #expect(result.output == source, "\(argument)")
            #expect(
                result.diagnostics.map(\.message).last == "cannot lower 'model': its type cannot be read from the source; add a type annotation",
                "\(argument)")
        }
    }

    /// `\EnvironmentValues.name`, the key path with its root written, reads the same member.
    @Test func keyPathWithItsRoot() {
        let result = lowered("import SwiftUI\nstruct A {\n    @Environment(\\EnvironmentValues.isSearching) private var searching\n}\n")
        #expect(result.output.contains("private var _searching: Environment<Bool> = Environment(\\EnvironmentValues.isSearching)\n"))
    }

    /// `@Entry var name: T = …` and a computed property in the file's own extension; the file's
    /// declaration wins over the catalog's.
    @Test func theFilesOwnDeclarations() {
        let result = lowered(
            """
            import SwiftUI
            extension EnvironmentValues {
                @Entry var tint: Tint = .blue
                var colorScheme: Palette { Palette() }
            }
            struct A {
                @Environment(\\.tint) private var tint
                @Environment(\\.colorScheme) private var scheme
            }
            """)
        #expect(result.diagnostics.isEmpty)
        #expect(result.output.contains("private var _tint: Environment<Tint> = Environment(\\.tint)\n"))
        #expect(result.output.contains("private var _scheme: Environment<Palette> = Environment(\\.colorScheme)\n"))
    }

    /// An `@Entry` without a type has its literal's (Apple's `@Entry var anotherCustomValue = true`;
    /// element-x-ios' `@Entry var isInSidebar = false`); another value is not read, and a declaration
    /// of the member with a type decides (exyte/Chat's `@Entry var chatTheme = ChatTheme()` under
    /// `#if swift(>=6.0)`, `var chatTheme: ChatTheme { … }` under `#else`).
    @Test func entriesOfALiteral() {
        for (value, type) in [("false", "Bool"), ("2", "Int"), ("-2", "Int"), ("1.5", "Double"), ("\"a \\(1)\"", "String")] {
            let result = lowered(
                "import SwiftUI\nextension EnvironmentValues {\n    @Entry var accent = \(value)\n}\nstruct A {\n    @Environment(\\.accent) private var accent\n}\n"
            )
            #expect(result.diagnostics.isEmpty, "\(value)")
            #expect(result.output.contains("private var _accent: Environment<\(type)> = Environment(\\.accent)\n"), "\(value)")
        }
        for value in ["Accent()", "1 + 1", "[1]"] {
            let alone = lowered(
                "import SwiftUI\nextension EnvironmentValues {\n    @Entry var accent = \(value)\n}\nstruct A {\n    @Environment(\\.accent) private var accent\n}\n"
            )
            #expect(alone.diagnostics.count == 1, "\(value)")
        }
        let typedElsewhere = lowered(
            "import SwiftUI\nextension EnvironmentValues {\n#if swift(>=6.0)\n    @Entry var accent = Accent()\n#else\n    var accent: Accent { Accent() }\n#endif\n}\nstruct A {\n    @Environment(\\.accent) private var accent\n}\n"
        )
        #expect(typedElsewhere.diagnostics.isEmpty)
        #expect(typedElsewhere.output.contains("Environment<Accent>"))
    }

    /// `@Entry var name = T(…)` of a type `T` its file declares at the top level (anytype-swift's
    /// `@Entry var keyboardDismiss = KeyboardDismiss(window: nil)`): `T`, in its file and in the
    /// others of the module. Not a generic `T`, nor one with a failable init of that first label, in
    /// the file or in another (an extension); not a type declared in another file or nested.
    @Test func entriesOfAConstructionOfTheFilesType() {
        let use = "import SwiftUI\nstruct A {\n    @Environment(\\.accent) private var accent\n}\n"
        func entry(_ value: String, _ declarations: String) -> String {
            "import SwiftUI\n\(declarations)\nextension EnvironmentValues {\n    @Entry var accent = \(value)\n}\n"
        }
        let declared = entry("Accent(level: 1)", "struct Accent {\n    var level: Int\n}")
        for result in [Fixtures.lowered(declared + use, dependencies: []), Fixtures.lowered(use, module: [declared], dependencies: [])] {
            #expect(result.diagnostics.isEmpty)
            #expect(String(decoding: result.output, as: UTF8.self).contains("private var _accent: Environment<Accent> = Environment(\\.accent)\n"))
        }
        let failableElsewhere = "extension Accent {\n    init?(level: Int) { return nil }\n}\n"
        for (source, others) in [
            (entry("Accent(level: 1)", "struct Accent<Level> {\n    var level: Level\n}") + use, []),
            (entry("Accent(level: 1)", "struct Accent {\n    init?(level: Int) { return nil }\n}") + use, []),
            (use, [entry("Accent(level: 1)", "struct Accent {\n    var level: Int\n}"), failableElsewhere]),
            (entry("Accent(level: 1)", "enum Palette {\n    struct Accent {\n        var level: Int\n    }\n}") + use, []),
            (use, [entry("Accent(level: 1)", ""), "struct Accent {\n    var level: Int\n}\n"]),
        ] {
            let result = Fixtures.lowered(source, module: others, dependencies: [])
            #expect(result.diagnostics.count == 1, "\(source) \(others)")
            #expect(String(decoding: result.output, as: UTF8.self).contains("@Environment(\\.accent) private var accent\n"))
        }
    }

    /// Not read as a declaration of the member: a stored property without `@Entry` (not allowed
    /// in an extension), a static one, and an extension of another type.
    @Test func declarationsThatDoNotCount() {
        for declaration in ["var accent: Int = 1", "static var accent: Int { 1 }"] {
            let result = lowered(
                "import SwiftUI\nextension EnvironmentValues {\n    \(declaration)\n}\nstruct A {\n    @Environment(\\.accent) private var accent\n}\n"
            )
            #expect(result.diagnostics.count == 1, "\(declaration)")
        }
        let other = lowered(
            "import SwiftUI\nextension FocusedValues {\n    var accent: Int { 1 }\n}\nstruct A {\n    @Environment(\\.accent) private var accent\n}\n"
        )
        #expect(other.diagnostics.count == 1)
    }

    /// `@FocusedValue(\\.poster)` without a type (Swiftfin's): FocusedValue's init takes
    /// `KeyPath<FocusedValues, Value?>`, so the member's type is `Value` with a `?`. A member that
    /// is not optional, or a function type whose `?` is its result's, leaves it as written.
    @Test func focusedValuesMembers() {
        func source(_ type: String) -> String {
            "import SwiftUI\nextension FocusedValues {\n    var poster: \(type) { nil }\n}\nstruct A {\n    @FocusedValue(\\.poster) private var poster\n}\n"
        }
        let optional = lowered(source("Poster?"))
        #expect(optional.diagnostics.isEmpty)
        #expect(optional.output.contains("private var _poster: FocusedValue<Poster> = FocusedValue(\\.poster)\n"))
        #expect(optional.output.contains("private var poster: Poster? {\n"))
        let function = lowered(source("((Int) -> Int)?"))
        #expect(function.output.contains("private var _poster: FocusedValue<(Int) -> Int> = FocusedValue(\\.poster)\n"))
        // The wrapped value's `Value?` with the function type parenthesized.
        #expect(function.output.contains("private var poster: ((Int) -> Int)? {\n"))
        for type in ["Poster", "(Int) -> Int?", "Poster!"] {
            #expect(lowered(source(type)).diagnostics.count == 1, "\(type)")
        }
    }

    /// Two declarations of one name that disagree leave it uncertain (the catalog is not asked);
    /// two that agree (in `#if` branches) do not.
    @Test func disagreeingDeclarations() {
        func source(_ second: String) -> String {
            "import SwiftUI\nextension EnvironmentValues {\n#if os(iOS)\n    var dismiss: Int { 1 }\n#else\n    var dismiss: \(second) { 1 }\n#endif\n}\nstruct A {\n    @Environment(\\.dismiss) private var dismiss\n}\n"
        }
        let disagree = lowered(source("Double"))
        #expect(disagree.diagnostics.map(\.message) == ["cannot lower 'dismiss': its type cannot be read from the source; add a type annotation"])
        let agree = lowered(source("Int"))
        #expect(agree.diagnostics.isEmpty)
        #expect(agree.output.contains("Environment<Int>"))
    }

    /// A framework's type is written only in a file that imports the framework, where its name resolves.
    @Test func anotherFrameworksTypeNeedsItsImport() {
        let body = "struct A {\n    @Environment(\\.modelContext) private var context\n}\n"
        #expect(lowered("import SwiftUI\n" + body).diagnostics.count == 1)
        #expect(lowered("import SwiftUI\n#if canImport(SwiftData)\nimport SwiftData\n#endif\n" + body).diagnostics.count == 1)
        for imports in ["import SwiftData\n", "@preconcurrency import SwiftData\n", "import class SwiftData.ModelContext\n"] {
            let result = lowered("import SwiftUI\n" + imports + body)
            #expect(result.diagnostics.isEmpty, "\(imports)")
            #expect(result.output.contains("private var _context: Environment<ModelContext> = Environment(\\.modelContext)\n"))
        }
    }

    /// Only a key path of one member: not a chain, optional chaining or a subscript.
    @Test func onlyOneMember() {
        for keyPath in ["\\.font?.weight", "\\.colorScheme.hashValue", "\\.[0]", "\\.0", "\\Other.dismiss"] {
            let result = lowered("import SwiftUI\nstruct A {\n    @Environment(\(keyPath)) private var value\n}\n")
            #expect(result.diagnostics.count == 1, "\(keyPath)")
        }
    }
}
