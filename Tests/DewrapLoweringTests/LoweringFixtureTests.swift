import DewrapLowering
import DewrapTestSupport
import Foundation
import Testing

/// `fixtures/{examples,lowering}/<case>.swift` lowers to `<case>.expected.swift`
/// exactly, without diagnostics; the golden lowers to itself; and input and
/// golden both type-check against the SwiftUI stand-in. Rewrite goldens on
/// purpose with DEWRAP_UPDATE_FIXTURES=1, then compile-check and review them.
struct LoweringFixtureTests {
    static let cases = Fixtures.cases(in: ["examples", "lowering"])

    @Test func thereAreFixtures() {
        #expect(Self.cases.count >= 15)
    }

    @Test(arguments: cases)
    func lowersToGolden(_ name: String) throws {
        let input = try Fixtures.read(name, ".swift")
        let result = lower(input, fileName: name + ".swift")
        // A fixture that lowers part of its input says what it leaves in `<case>.diagnostics`.
        let expectedDiagnostics = (try? Fixtures.read(name, ".diagnostics")).map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(Fixtures.render(result.diagnostics, in: input) == expectedDiagnostics)
        if Fixtures.updating { try Data(result.output).write(to: Fixtures.url(name, ".expected.swift")) }
        let expected = try Fixtures.read(name, ".expected.swift")
        #expect(String(decoding: result.output, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        // Lossless: byte for byte, line endings included.
        #expect(result.output == expected)
    }

    @Test(arguments: cases)
    func goldenLowersToItself(_ name: String) throws {
        let expected = try Fixtures.read(name, ".expected.swift")
        let again = lower(expected, fileName: name + ".expected.swift")
        #expect(String(decoding: again.output, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    /// The written-out inits have the signature, access and isolation of the
    /// compiler's own (M-3…M-5, M-7, I-4), as `-print-ast` shows both.
    @Test(arguments: cases)
    func initializersMatchTheCompilers(_ name: String) {
        var original = Compiler.initializerSignatures(Fixtures.url(name, ".swift"))
        for signature in Self.isolatedByCorrection[name] ?? [] {
            let compilers = "nonisolated internal " + signature
            #expect(original.contains(compilers), "the compiler's init is no longer nonisolated: \(signature)")
            original = original.replacingOccurrences(of: compilers, with: InitializerSignatures.keptIsolated(compilers) ?? compilers)
        }
        for (printed, real) in Self.defaultsPrintedAsAttribute[name] ?? [] {
            #expect(original.contains(printed), "-print-ast no longer prints this default as the attribute: \(printed)")
            original = original.replacingOccurrences(of: printed, with: real)
        }
        // As multisets: `-print-ast` puts a synthesized `init(from:)` (K-1) before
        // the implicit memberwise init, but after a written-out one.
        func sorted(_ signatures: String) -> String {
            InitializerSignatures.sorted(signatures.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
                .joined(separator: "\n")
        }
        #expect(sorted(original) == sorted(Compiler.initializerSignatures(Fixtures.url(name, ".expected.swift"))))
    }

    /// SPEC Corrections, I-4: the compiler's memberwise init of a view with an
    /// `@ObservedObject` is `nonisolated`, but written out `nonisolated` it fails
    /// a real build ("sending 'list' risks causing data races"), so dewrap leaves
    /// it isolated. These are the only signatures allowed to differ, and only so.
    /// SPEC, Oracle: `-print-ast` prints the default of a memberwise parameter
    /// whose wrapper has attribute arguments as the attribute (`a: Int? =
    /// Tagged(tag: "a")`); the real default is the initial value (the driver
    /// runs it). Each such parameter, as printed and as it really is.
    static let defaultsPrintedAsAttribute: [String: [(String, String)]] = [
        "lowering/CodingKeysLeaveOut": [
            (#"verbose: Bool = Field(help: "say more")"#, "verbose: Bool = false")
        ],
        "lowering/WrapperAliases": [
            ("volume: Int = Percent(0...100)", "volume: Int = 150"),
            ("balance: Double = Bounded(0.0...1.0)", "balance: Double = 0.5"),
        ],
        "lowering/NilLiteralDefault": [
            (#"a: Int? = Tagged(tag: "a")"#, "a: Int? = nil"),
            (#"c: _OptionalNilComparisonType = Defaulted(help: "c")"#, "c: _OptionalNilComparisonType = nil"),
            (#"e: Int? = Tagged(tag: "e")"#, "e: Int? = 4"),
            ("g: _OptionalNilComparisonType = Parsed(transform: length)", "g: _OptionalNilComparisonType = nil"),
        ],
        "lowering/ProjectionInWrapperArguments": [
            (#"officers: Int = Link<Officer, String>(path: \Officer.$name)"#, "officers: Int = 1")
        ],
        "lowering/StaticMemberNames": [
            ("size: Int = Option(name: defaultLabel, transform: { convert($0) * 2 })", "size: Int = defaultSize"),
            ("title: String = Option(transform: shout)", #"title: String = "t""#),
            (#"name: String = Option(name: "n", transform: { $0 })"#, #"name: String = "v""#),
            (#"other: String = Option(transform: { make in make + "!" })"#, #"other: String = "o""#),
        ],
    ]

    static let isolatedByCorrection: [String: [String]] = [
        "lowering/ObservableModel": ["init(list: TaskList)"],
        // L-4: a property left as written has a type dewrap does not know, which may not be Sendable.
        "lowering/PartlyLowered": ["init(isOn: Binding<Bool>)"],
    ]

    /// SPEC I-2: `--swift-version 5` lowers these to `<case>.swift5.expected.swift`,
    /// which lowers to itself, type-checks in Swift 5 mode, and declares its types
    /// and methods with the isolation Swift 5 infers for the input (`-print-ast`).
    /// The written-out memberwise init stays isolated where the compiler's is
    /// `nonisolated` (SPEC I-2, I-4, L-4), so inits are not compared here.
    static let swift5Cases = ["lowering/InferredIsolation", "lowering/ObservableModel"]

    @Test(arguments: swift5Cases)
    func swift5LowersToItsGolden(_ name: String) throws {
        let input = try Fixtures.read(name, ".swift")
        let options = LoweringOptions(swiftVersion: .swift5)
        let result = lower(input, fileName: name + ".swift", options: options)
        #expect(Fixtures.render(result.diagnostics, in: input) == "")
        if Fixtures.updating { try Data(result.output).write(to: Fixtures.url(name, ".swift5.expected.swift")) }
        let expected = try Fixtures.read(name, ".swift5.expected.swift")
        #expect(String(decoding: result.output, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(lower(expected, fileName: name, options: options).output == expected)
        #expect(Compiler.typeCheck(Fixtures.url(name, ".swift5.expected.swift"), swiftVersion: "5") == "")
        let original = Compiler.typeAndMethodSignatures(Fixtures.url(name, ".swift"), swiftVersion: "5")
        #expect(original.contains("@MainActor"))
        #expect(original == Compiler.typeAndMethodSignatures(Fixtures.url(name, ".swift5.expected.swift"), swiftVersion: "5"))
        // In Swift 6 mode nothing is inferred, and the ordinary golden has no such attribute.
        #expect(
            Compiler.typeAndMethodSignatures(Fixtures.url(name, ".swift"), swiftVersion: "6")
                == Compiler.typeAndMethodSignatures(Fixtures.url(name, ".expected.swift"), swiftVersion: "6"))
    }

    /// I-2 with SwiftUI's object wrappers: their `wrappedValue` is
    /// `@preconcurrency @MainActor`, and so is the type Swift 5 infers (as
    /// `-print-ast` prints it: `@MainActor @preconcurrency internal struct Shelf`).
    @Test func swift5WritesTheObjectWrappersIsolation() {
        let source = "import SwiftUI\nstruct Shelf {\n    @ObservedObject var library: Library\n}\n"
        let five = String(
            decoding: lower(Array(source.utf8), fileName: "S.swift", options: LoweringOptions(swiftVersion: .swift5)).output, as: UTF8.self)
        #expect(five.contains("\n@preconcurrency @MainActor struct Shelf {\n"))
        let six = String(decoding: lower(Array(source.utf8), fileName: "S.swift").output, as: UTF8.self)
        #expect(six.contains("\nstruct Shelf {\n"))
    }

    @Test func typeCheckingCanFail() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dewrap-broken-\(UUID().uuidString).swift")
        try Data("import SwiftUI\nlet wrong: Binding<Int> = 3\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(Compiler.typeCheck(file).contains("error:"))
    }

    @Test(arguments: cases)
    func inputAndGoldenTypeCheck(_ name: String) {
        #expect(Compiler.typeCheck(Fixtures.url(name, ".swift")) == "")
        #expect(Compiler.typeCheck(Fixtures.url(name, ".expected.swift")) == "")
    }
}

/// `fixtures/errors/<case>.swift` gives exactly `<case>.diagnostics`; with an
/// error among them, the output is the input unchanged.
struct ErrorFixtureTests {
    static let cases = Fixtures.cases(in: ["errors"])

    @Test(arguments: cases)
    func diagnosticsMatchGolden(_ name: String) throws {
        let input = try Fixtures.read(name, ".swift")
        let result = lower(input, fileName: name + ".swift")
        let rendered = Fixtures.render(result.diagnostics, in: input)
        if Fixtures.updating { try Data(rendered.utf8).write(to: Fixtures.url(name, ".diagnostics")) }
        #expect(rendered == String(decoding: try Fixtures.read(name, ".diagnostics"), as: UTF8.self))
        if result.diagnostics.contains(where: { $0.severity == .error }) {
            #expect(result.output == input)
        }
    }

    @Test func strictTurnsWarningsIntoErrors() throws {
        let input = try Fixtures.read("errors/Unsupported", ".swift")
        let result = lower(input, fileName: "Unsupported.swift", options: LoweringOptions(strict: true))
        #expect(!result.diagnostics.isEmpty)
        #expect(result.diagnostics.allSatisfy { $0.severity != .warning })
        #expect(result.output == input)
    }
}
