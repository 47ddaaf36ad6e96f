@testable import DewrapLowering
import Testing

/// Initial values whose type is read off the tokens (SPEC Decision 5): here a type whose name
/// does not start with a capital (IceCubesApp's `iOSTabs`), which `T(…)` reads as a construction
/// only where the file or the module declares that type and no function of that name.
struct TypeInferenceTests {
    /// The storage a `@State private var x = <value>` gets with `declarations` in the same file
    /// (or, with `otherFile`, in another file of the module), or nil when it is left as written.
    private func storageType(_ value: String, declarations: String = "", otherFile: String? = nil) -> String? {
        guard let storage = storage(value, declarations: declarations, otherFile: otherFile), storage.hasPrefix("State<") else { return nil }
        return String(storage.dropFirst("State<".count).dropLast())
    }

    /// The whole storage type (`State<Loadable<Int>>`), or nil when the property is left as written.
    private func storage(_ value: String, declarations: String = "", otherFile: String? = nil) -> String? {
        storage(of: "@State private var x = \(value)", declarations: declarations, otherFile: otherFile)
    }

    /// The storage type of `x`, declared by `member` in a type after `declarations` (and another file
    /// of the module, `otherFile`), or nil when it is left as written.
    private func storage(of member: String, declarations: String = "", otherFile: String? = nil) -> String? {
        let file = "import SwiftUI\n\(declarations)struct A {\n    \(member)\n}\n"
        var options = LoweringOptions()
        if let otherFile { options.module = ModuleSources([Array(file.utf8), Array(otherFile.utf8)]) }
        let result = lower(Array(file.utf8), fileName: "A.swift", options: options)
        let output = String(decoding: result.output, as: UTF8.self)
        guard result.diagnostics.isEmpty, let start = output.range(of: "private var _x: ") else { return nil }
        // To its initial value, or to the end of the line where the inits give it one.
        return String(output[start.upperBound...].prefix { $0 != "\n" }.split(separator: " = ").first ?? "")
    }

    /// A member declared with backticks is named without them (`PickedColor.default`, ControlRoom's
    /// `` static var `default`: PickedColor? ``); after `.`, a keyword is a member's name.
    @Test func membersDeclaredWithBackticks() {
        let color = "struct Color2 {\n    static var `default`: Color2? { nil }\n}\nenum Mode {\n    case `default`, `private`\n}\n"
        #expect(storage("Color2.default", declarations: color) == "State<Color2?>")
        #expect(storage("Mode.default", declarations: color) == "State<Mode>")
        #expect(storage("Mode.private", otherFile: color) == "State<Mode>")
        #expect(storage("Mode.self", declarations: color) == nil)
    }

    /// A case of a generic enum is read with its arguments written (Maccy's
    /// `AsyncViewState<Value>.loading`): they are the type's. Without them the compiler infers
    /// them (from a payload, or not at all), and a static member's type may name the parameters.
    @Test func casesOfAGenericEnum() {
        let loadable = "enum Loadable<T> {\n    case loading\n    case loaded(T)\n    static var empty: Loadable<T> { .loading }\n}\n"
        #expect(storage("Loadable<Int>.loading", declarations: loadable) == "State<Loadable<Int>>")
        #expect(storage("Loadable<[String: Int]>.loaded([:])", declarations: loadable) == "State<Loadable<[String: Int]>>")
        #expect(storage("Loadable<Int>.loading", otherFile: loadable) == "State<Loadable<Int>>")
        #expect(storage("Loadable.loaded(3)", declarations: loadable) == nil)
        #expect(storage("Loadable<Int>.loaded", declarations: loadable) == nil)
        #expect(storage("Loadable<Int>.empty", declarations: loadable) == nil)
        #expect(storage("Mode<Int>.a", declarations: "enum Mode {\n    case a\n}\n") == nil)
        #expect(storage("count < limit", declarations: "let count = 1\nlet limit = 2\n") == nil)
    }

    /// An implicit member passed for a wrapper's `Settings.Key<Value>` may be declared on the key's
    /// superclass, in an extension of a typealias of it (sindresorhus/Defaults' `@Default(.key)`): the
    /// subclass inherits it. Not where the member is the superclass's in no way, nor where two types
    /// of the key's name are declared.
    @Test func implicitMembersOfASuperclass() {
        let settings = """
            enum Settings {
                class AnyKey {}
                typealias Keys = AnyKey
                final class Key<Value>: AnyKey {
                    init(_ name: String, default: Value) {}
                }
            }
            extension Settings.Keys {
                static let volume = Key<Int>("volume", default: 3)
            }
            enum Other {
                static let loud = Settings.Key<Bool>("loud", default: true)
            }
            @propertyWrapper struct Setting<Value> {
                init(_ key: Settings.Key<Value>) {}
                var wrappedValue: Value { fatalError() }
            }

            """
        #expect(storage(of: "@Setting(.volume) var x", declarations: settings) == "Setting<Int>")
        #expect(storage(of: "@Setting(.loud) var x", declarations: settings) == nil)
        #expect(storage(of: "@Setting(.volume) var x", declarations: settings + "struct Key {}\n") == nil)
    }

    /// `Settings[.volume]` through the one static subscript of `Settings` (sindresorhus/Defaults'
    /// `Defaults[.key]`), declared in this file or another of the module, with the key declared in
    /// either. Not with two static subscripts, one taking a label, or one whose result does not
    /// follow from the key; not where a local of the type's name is what the name means.
    @Test func staticSubscripts() {
        let keys = """
            enum Settings {
                class AnyKey {}
                typealias Keys = AnyKey
                final class Key<Value>: AnyKey {
                    init(_ name: String, default: Value) {}
                }
            }
            extension Settings.Keys {
                static let volume = Key<Int>("volume", default: 3)
                static let names = Key<[String]>("names", default: [])
            }

            """
        func subscriptDeclaration(_ declaration: String) -> String {
            "extension Settings {\n    \(declaration) { fatalError() }\n}\n"
        }
        let plain = subscriptDeclaration("static subscript<Value>(key: Key<Value>) -> Value")
        #expect(storageType("Settings[.volume]", declarations: keys + plain) == "Int")
        #expect(storageType("Settings[.names]", declarations: keys + plain) == "[String]")
        #expect(storageType("Settings[.volume]", declarations: keys, otherFile: plain) == "Int")
        #expect(storageType("Settings[.volume]", declarations: plain, otherFile: keys) == "Int")
        #expect(
            storageType("Settings[.volume]", declarations: keys + subscriptDeclaration("static subscript<V>(_ key: Settings.Key<V>) -> V?")) == "Int?"
        )
        #expect(storageType("Settings[.missing]", declarations: keys + plain) == nil)
        #expect(storageType("Settings[.volume]", declarations: keys + plain + subscriptDeclaration("static subscript(name: String) -> Int")) == nil)
        #expect(
            storageType("Settings[.volume]", declarations: keys + subscriptDeclaration("static subscript<Value>(key key: Key<Value>) -> Value"))
                == nil)
        #expect(
            storageType("Settings[.volume]", declarations: keys + subscriptDeclaration("static subscript<Value>(key: Key<Value>) -> Int")) == "Int")
        #expect(
            storageType("Settings[.volume]", declarations: keys + subscriptDeclaration("static subscript<Value, Other>(key: Key<Value>) -> Other"))
                == nil)
        #expect(storageType("Settings[.volume]", declarations: keys + subscriptDeclaration("subscript<Value>(key: Key<Value>) -> Value")) == nil)
    }

    @Test func aLowercaseTypeOfTheFile() {
        let tabs = "final class iOSTabs {\n    static let shared = iOSTabs()\n}\n"
        #expect(storageType("iOSTabs()", declarations: tabs) == "iOSTabs")
        #expect(storageType("iOSTabs.shared", declarations: tabs) == "iOSTabs")
        #expect(storageType("iOSTabs.init()", declarations: tabs) == "iOSTabs")
    }

    @Test func aLowercaseTypeOfAnotherFile() {
        #expect(storageType("macOSTabs()", otherFile: "struct macOSTabs {}\n") == "macOSTabs")
        #expect(storageType("macOSTabs()", otherFile: "struct macOSTabs {}\nenum Other { struct macOSTabs {} }\n") == nil)
    }

    /// A call of a function is what a lowercase name usually is: no construction is read where
    /// there is no type of that name, or two types of it, or a function of that name (the call is
    /// the function's, its declared result type).
    @Test func aFunctionIsNotATypesConstruction() {
        #expect(storageType("tabs()") == nil)
        #expect(storageType("tabs()", declarations: "struct tabs {}\n", otherFile: "struct tabs {}\n") == nil)
        let function = "func tabs() -> Int { 0 }\nenum Screen {\n    struct tabs {}\n}\n"
        #expect(storageType("tabs()", declarations: function) == "Int")
        #expect(storageType("tabs()", otherFile: function) == "Int")
    }

    /// A member's initial value may name its type's static members without `Self.` (Apple's Food
    /// Truck sample: `static let all = [classic, cosmos]`): the type's own, not a global of that
    /// name; in this file or in another file of the module.
    @Test func staticMembersNamedWithoutSelf() {
        let donut = """
            struct Donut {
                static let classic = Donut()
                static let all = [classic, classic]
                static func make() -> Donut { classic }
                static let made = [make()]
            }
            let classic = 3

            """
        #expect(storageType("Donut.all", declarations: donut) == "[Donut]")
        #expect(storageType("Donut.made", declarations: donut) == "[Donut]")
        #expect(storageType("Donut.all", otherFile: donut) == "[Donut]")
        // Without the type's own member, the global.
        #expect(storageType("Box.size", declarations: "let side = 3\nstruct Box {\n    static let size = [side]\n}\n") == "[Int]")
        // A member of another type of that name is no help.
        #expect(
            storageType("Box.size", declarations: "enum Other {\n    static let side = 3\n}\nstruct Box {\n    static let size = [side]\n}\n") == nil)
    }
}
