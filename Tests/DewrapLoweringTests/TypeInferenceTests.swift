@testable import DewrapLowering
import Testing

/// Initial values whose type is read off the tokens (SPEC Decision 5): here a type whose name
/// does not start with a capital (IceCubesApp's `iOSTabs`), which `T(…)` reads as a construction
/// only where the file or the module declares that type and no function of that name.
struct TypeInferenceTests {
    /// The storage a `@State private var x = <value>` gets with `declarations` in the same file
    /// (or, with `otherFile`, in another file of the module), or nil when it is left as written.
    private func storageType(_ value: String, declarations: String = "", otherFile: String? = nil) -> String? {
        let file = "import SwiftUI\n\(declarations)struct A {\n    @State private var x = \(value)\n}\n"
        var options = LoweringOptions()
        if let otherFile { options.module = ModuleSources([Array(file.utf8), Array(otherFile.utf8)]) }
        let result = lower(Array(file.utf8), fileName: "A.swift", options: options)
        let output = String(decoding: result.output, as: UTF8.self)
        guard result.diagnostics.isEmpty, let range = output.range(of: "private var _x: State<") else { return nil }
        return String(output[range.upperBound...].prefix { $0 != ">" })
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
