@testable import DewrapLowering
import DewrapSyntax
import Testing

/// The built-in catalog of SDK types' static members and cases (SPEC Decision 5, revised) and its
/// use for initial values such as `CGSize.zero`, `Color.red`, `Date.now` and `Angle.degrees(90)`.
struct SDKStaticMemberCatalogTests {
    typealias Key = SDKStaticMemberCatalog.Key

    // MARK: - The catalog

    /// Every declaration in the catalog's texts is read as a member with a type: none is dropped by
    /// a typo that the reader would skip, overloads of a function agree, each text declares the type
    /// it is listed under (once in the list), and every type is written as `typeText` writes it.
    @Test func everyDeclarationIsReadWithItsType() {
        var declared: Set<Key> = []
        var listed: Set<String> = []
        for declarations in SDKStaticMemberCatalog.declarations {
            let type = "\(declarations.type)"
            #expect(listed.insert(type).inserted, "\(type) listed twice")
            for line in declarations.text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if line.hasPrefix("extension ") || line.hasPrefix("public enum ") {
                    #expect(words[line.hasPrefix("extension ") ? 1 : 2] == type && line.hasSuffix(" {"), "\(line)")
                } else if line.hasPrefix("    case ") {
                    #expect(words.count == 2 && !line.contains("("), "\(line)")
                    declared.insert(Key(type: type, name: String(words[1]), isFunction: false))
                } else if line.hasPrefix("    public static ") {
                    let isFunction = words[2] == "func"
                    let name = words[3].prefix { $0 != ":" && $0 != "(" && $0 != "<" }
                    declared.insert(Key(type: type, name: String(name), isFunction: isFunction))
                } else {
                    #expect(line == "}" || line.hasPrefix("    //"), "not read: \(line)")
                }
            }
        }
        let entries = SDKStaticMemberCatalog.entries
        #expect(Set(entries.keys) == declared)
        #expect(entries.count >= 150)
        for (key, entry) in entries {
            #expect(entry.type != nil, "\(key.type).\(key.name): overloads disagree")
            guard let type = entry.type else { continue }
            #expect(typeText(typeTokens(type)) == type, "\(key.type).\(key.name): \(type)")
            // So far every member has the type it is a member of (`Self` read as that type).
            #expect(type == key.type, "\(key.type).\(key.name): \(type)")
        }
        // Each framework's modules, as documented in the catalog.
        #expect(SDKStaticMemberCatalog.Framework.swiftUI.modules == ["SwiftUI"])
        #expect(SDKStaticMemberCatalog.Framework.coreGraphics.modules == ["CoreGraphics", "Foundation", "SwiftUI", "UIKit", "AppKit"])
        #expect(SDKStaticMemberCatalog.Framework.foundation.modules == ["Foundation", "FoundationEssentials", "SwiftUI", "UIKit", "AppKit"])
        #expect(SDKStaticMemberCatalog.Framework.standardLibrary.modules.isEmpty)
    }

    private func entry(_ type: String, _ name: String, isFunction: Bool = false) -> String? {
        SDKStaticMemberCatalog.entries[Key(type: type, name: name, isFunction: isFunction)]?.type ?? nil
    }

    @Test func knownMembers() {
        #expect(entry("Color", "red") == "Color")
        #expect(entry("Color", "accentColor") == "Color")
        #expect(entry("EditMode", "inactive") == "EditMode")
        #expect(entry("CGSize", "zero") == "CGSize")
        #expect(entry("CGRect", "null") == "CGRect")
        #expect(entry("CGFloat", "pi") == "CGFloat")
        #expect(entry("Date", "now") == "Date")
        #expect(entry("Int", "max") == "Int")
        #expect(entry("Double", "zero") == "Double")
        #expect(entry("Font", "system", isFunction: true) == "Font")
        #expect(entry("Angle", "degrees", isFunction: true) == "Angle")
        #expect(entry("Animation", "spring") == "Animation")
        #expect(entry("Animation", "spring", isFunction: true) == "Animation")
        // Not declared: a member the SDK lacks, a property asked as a call and the other way round.
        #expect(entry("Color", "brandNew") == nil)
        #expect(entry("Color", "red", isFunction: true) == nil)
        #expect(entry("Angle", "degrees") == nil)
        // Left out on purpose (see the catalog): `default` is lexed as a keyword after a period.
        #expect(entry("Font", "default") == nil)
        #expect(entry("Animation", "default") == nil)
    }

    // MARK: - The stand-in

    /// `fixtures/standin/SwiftUI.swift` declares each SwiftUI member of the catalog with the
    /// catalog's type, and no other static member or case of those types: removing one from either
    /// fails here.
    @Test func standInDeclaresTheCatalogsSwiftUIMembers() throws {
        let source = try Fixtures.read("standin/SwiftUI", ".swift")
        let context = SourceContext(bytes: source, tree: Parser.parse(source))
        let swiftUI = SDKStaticMemberCatalog.entries.filter { $0.value.framework == .swiftUI }
        let types = Set(swiftUI.keys.map(\.type))
        var standIn: [Key: String] = [:]
        for case .type(let type) in context.tree.items where types.contains(context.text(type.name)) {
            let typeName = context.text(type.name)
            func add(_ name: Int, isFunction: Bool, _ memberType: String?) {
                let key = Key(type: typeName, name: context.text(name), isFunction: isFunction)
                #expect(standIn[key] == nil, "\(typeName).\(key.name) declared twice in the stand-in")
                standIn[key] = memberType ?? "?"
            }
            for item in type.members {
                switch item {
                case .other(let other) where other.kind == .enumCase:
                    for name in other.names { add(name, isFunction: false, typeName) }
                case .variable(let variable) where context.hasModifier(.static, in: variable.prefix):
                    let binding = variable.bindings[0]
                    guard let name = binding.name else { continue }
                    add(name, isFunction: false, binding.type.map(context.text) ?? binding.initializer.flatMap(context.inferredType(of:)))
                case .function(let function) where context.hasModifier(.static, in: function.prefix):
                    guard let name = function.name else { continue }
                    add(name, isFunction: true, function.returnType.map(context.text))
                default:
                    continue
                }
            }
        }
        let standInMembers = standIn
        let describe = { (keys: Set<Key>) in keys.map { "\($0.type).\($0.name)\($0.isFunction ? "()" : "")" }.sorted() }
        let missing = Set(swiftUI.keys).subtracting(standInMembers.keys)
        let extra = Set(standInMembers.keys).subtracting(swiftUI.keys)
        #expect(missing.isEmpty, "in the catalog, not in the stand-in: \(describe(missing))")
        #expect(extra.isEmpty, "in the stand-in, not in the catalog: \(describe(extra))")
        for (key, type) in standInMembers where swiftUI[key] != nil {
            #expect(type == swiftUI[key]?.type, "\(key.type).\(key.name): stand-in \(type), catalog \(swiftUI[key]?.type ?? "")")
        }
        #expect(types.count >= 20)
    }

    // MARK: - Lowering with it

    private func lowered(_ source: String) -> (output: String, diagnostics: [Diagnostic]) {
        let result = lower(Array(source.utf8), fileName: "Test.swift")
        return (String(decoding: result.output, as: UTF8.self), result.diagnostics)
    }

    /// The storage a `@State private var x = <value>` gets in a file starting with `header`, or nil
    /// when it is left as written (with the warning).
    private func storageType(_ value: String, header: String = "import SwiftUI\n", members: String = "") -> String? {
        let result = lowered(header + "struct A {\n    @State private var x = \(value)\n\(members)}\n")
        guard result.diagnostics.isEmpty else {
            #expect(result.diagnostics.map(\.message) == ["cannot lower 'x': its type cannot be read from the source; add a type annotation"])
            return nil
        }
        guard let range = result.output.range(of: "private var _x: State<") else { return "?" }
        return String(result.output[range.upperBound...].prefix { $0 != ">" })
    }

    @Test func catalogTypesAreWritten() {
        #expect(storageType("EditMode.inactive") == "EditMode")
        #expect(storageType("Color.red") == "Color")
        #expect(storageType("CGSize.zero") == "CGSize")
        #expect(storageType("CGFloat.pi") == "CGFloat")
        #expect(storageType("Date.now") == "Date")
        #expect(storageType("Int.max") == "Int")
        #expect(storageType("Angle.degrees(90)") == "Angle")
        #expect(storageType("Font.custom(\"Menlo\", size: 12)") == "Font")
        #expect(storageType("Animation.easeInOut") == "Animation")
        #expect(storageType("Animation.easeInOut(duration: 0.3)") == "Animation")
        // In an array literal, and as a static constant's value that an initial value names.
        #expect(storageType("[Color.red, Color.blue]") == "[Color]")
        #expect(storageType("A.brand", members: "    static let brand = Color.teal\n") == "Color")
        let extended = lowered(
            "import SwiftUI\nextension Color {\n    static let brand = Color.teal\n}\nstruct A {\n    @State private var x = Color.brand\n}\n")
        #expect(extended.diagnostics.isEmpty)
        #expect(extended.output.contains("private var _x: State<Color> = State(wrappedValue: Color.brand)\n"))
    }

    /// Not a member the catalog declares in that form: unknown, a property called, a function not
    /// called, a chain, a nested type, a backticked name, a module-qualified type.
    @Test func onlyWhatTheCatalogDeclares() {
        for value in [
            "Color.brandNew", "Color.red()", "Angle.degrees", "Color.red.opacity(0.5)", "Edge.Set.all",
            "Color.`red`", "SwiftUI.Color.red", "Animation.default", "Font.system(size: 12).bold()",
        ] {
            #expect(storageType(value) == nil, "\(value)")
        }
    }

    /// A framework's type is read only where the file imports a module that makes it visible, at its
    /// top level; the standard library's everywhere.
    @Test func imports() {
        #expect(storageType("Color.red", header: "") == nil)
        #expect(storageType("Color.red", header: "import Foundation\n") == nil)
        #expect(storageType("Color.red", header: "#if canImport(SwiftUI)\nimport SwiftUI\n#endif\n") == nil)
        #expect(storageType("Color.red", header: "import struct SwiftUI.Color\n") == "Color")
        #expect(storageType("CGSize.zero", header: "") == nil)
        #expect(storageType("CGSize.zero", header: "import CoreGraphics\n") == "CGSize")
        #expect(storageType("CGSize.zero", header: "import UIKit\n") == "CGSize")
        #expect(storageType("Date.now", header: "import Foundation\n") == "Date")
        #expect(storageType("Date.now", header: "import CoreGraphics\n") == nil)
        #expect(storageType("Int.max", header: "") == "Int")
        #expect(storageType("Double.pi", header: "") == "Double")
    }

    /// The catalog's types are Sendable value types whose members need no actor: a view whose stored
    /// properties have them gets `nonisolated` inits, as the compiler's are (I-3, I-4; -print-ast in
    /// fixture SDKInitialValues), whether the type is written or read from the catalog, and an
    /// extension in the file changes nothing. Where the file does not see the SDK's type (no import,
    /// a type of its own by that name), its conformance is not known: the inits stay isolated (L-4).
    @Test func sdkValueTypesAreSendable() {
        func isNonisolated(_ header: String, _ property: String) -> Bool {
            let result = lowered(header + "struct A: View {\n    \(property)\n    var body: some View { Text(\"\") }\n}\n")
            #expect(result.diagnostics.isEmpty, "\(property)")
            #expect(result.output.contains("init("), "\(property)")
            return result.output.contains("    nonisolated init(")
        }
        #expect(isNonisolated("import SwiftUI\n", "@State var color = Color.red"))
        #expect(isNonisolated("import SwiftUI\n", "@State var size: CGSize = CGSize(width: 1, height: 2)"))
        #expect(isNonisolated("import SwiftUI\n", "@State var modes: [EditMode] = [.active]"))
        #expect(isNonisolated("import SwiftUI\nextension Color {\n    static let brand = Color.teal\n}\n", "@State var color = Color.brand"))
        #expect(isNonisolated("import SwiftUI\nstruct E { var a: Int }\nextension E {}\n", "@State var e = E(a: 1)"))
        #expect(!isNonisolated("import SwiftUI\n", "@State var color: Palette = Palette()"))
        #expect(!isNonisolated("import SwiftUI\nfinal class Color {}\n", "@State var angle = Angle.zero\n    let color: Color"))
        #expect(!isNonisolated("import Foundation\n", "@State var color: Color = Color()"))
    }

    /// In a run that lowers a module's files together, another file's declarations count as the
    /// file's own do: a type or typealias of that name there is the module's (the catalog is not
    /// asked), and a member its extension declares decides that member. A generic parameter of
    /// another file names nothing here.
    @Test func theModulesOtherFiles() {
        func storage(_ value: String, otherFile: String) -> String? {
            var options = LoweringOptions()
            let file = "import SwiftUI\nstruct A {\n    @State private var x = \(value)\n}\n"
            options.module = ModuleSources([Array(file.utf8), Array(otherFile.utf8)])
            let result = lower(Array(file.utf8), fileName: "A.swift", options: options)
            let output = String(decoding: result.output, as: UTF8.self)
            guard result.diagnostics.isEmpty, let range = output.range(of: "private var _x: State<") else { return nil }
            return String(output[range.upperBound...].prefix { $0 != ">" })
        }
        #expect(storage("Color.red", otherFile: "import SwiftUI\nstruct Palette {}\n") == "Color")
        #expect(storage("Color.red", otherFile: "struct Color { static let red = make() }\n") == nil)
        #expect(storage("Color.red", otherFile: "typealias Color = Palette\n") == nil)
        #expect(storage("Color.red", otherFile: "enum Theme { struct Color {} }\n") == nil)
        #expect(storage("Color.red", otherFile: "struct Box<Color> {}\n") == "Color")
        #expect(storage("Color.brand", otherFile: "import SwiftUI\nextension Color {\n    static let brand = Color.teal\n}\n") == "Color")
        #expect(storage("Color.red", otherFile: "import SwiftUI\nextension Color {\n    static let red = make()\n}\n") == nil)
    }

    /// A name the file declares a type by, anywhere, is the file's: the catalog is not asked.
    @Test func theFilesOwnTypesShadowTheSDKs() {
        let shadows = [
            "struct Color {}\n",
            "enum Outer { struct Color {} }\n",
            "struct Box<T> { enum Color { case red } }\n",
            "typealias Color = Palette\n",
            "protocol Themed { associatedtype Color }\n",
            "struct Box<Color> {}\n",
            "func paint<Color>(_ color: Color) {}\n",
            "func paint() { struct Color {}; _ = Color() }\n",
        ]
        for shadow in shadows {
            #expect(storageType("Color.red", header: "import SwiftUI\n" + shadow) == nil, "\(shadow)")
        }
        // The file's own declarations still give it where they say it.
        #expect(storageType("Color.red", header: "import SwiftUI\nenum Color { case red }\n") == "Color")
        // An extension of the SDK's type is not a type of the file.
        #expect(storageType("Color.red", header: "import SwiftUI\nextension Color { func lighter() -> Color { self } }\n") == "Color")
        // The file's extension declaring the member decides it, certain or not.
        #expect(storageType("Color.red", header: "import SwiftUI\nextension Color { static let red = make() }\n") == nil)
        // A local of that name where the value is evaluated.
        let local = lowered("import SwiftUI\nfunc f(Color: Int) {\n    @State var x = Color.red\n}\n")
        #expect(local.diagnostics.count == 1)
    }
}
