import DewrapLowering
import Testing

/// An import inside a `#if` branch counts for the code of that branch (a file wrapped whole in
/// `#if os(iOS)`, its imports inside): where the branch is not compiled, neither is the code. Not
/// for the code of another branch, nor outside the `#if`.
struct ConditionalImportTests {
    static func lowered(_ source: String) -> (output: String, messages: [String]) {
        let result = lower(Array(source.utf8), fileName: "View.swift")
        return (String(decoding: result.output, as: UTF8.self), result.diagnostics.map(\.message))
    }

    static func wrapped(imports: String, _ body: String) -> String {
        "#if os(iOS)\nimport SwiftUI\n\(imports)\nstruct Card: View {\n    \(body)\n    var body: some View { Text(\"\") }\n}\n#endif\n"
    }

    @Test(arguments: [
        // The environment catalog's types of another framework, as its import makes them visible.
        ("import WidgetKit", "@Environment(\\.widgetFamily) private var family", "private var _family: Environment<WidgetFamily>"),
        // The SDK catalog's static members, as SwiftUI's import makes `Color` SwiftUI's.
        ("", "@State private var tint = Color.red", "private var _tint: State<Color>"),
    ])
    func anImportOfTheSameBranchCounts(_ imports: String, _ declaration: String, _ storage: String) {
        let (output, messages) = Self.lowered(Self.wrapped(imports: imports, declaration))
        #expect(messages.isEmpty, "\(messages)")
        #expect(output.contains(storage), "\(output)")
    }

    /// The import in the `#if` branch, the use in the `#else` branch: not seen.
    @Test func anImportOfAnotherBranchDoesNot() {
        let source = """
            import SwiftUI
            #if os(iOS)
            import WidgetKit
            #else
            struct Card: View {
                @Environment(\\.widgetFamily) private var family
                var body: some View { Text("") }
            }
            #endif

            """
        let (output, messages) = Self.lowered(source)
        #expect(output == source)
        #expect(messages == ["cannot lower 'family': its type cannot be read from the source; add a type annotation"])
    }

    /// App Intents' wrappers in a file wrapped in `#if`: still App Intents' (Decision 7).
    @Test func appIntentsImportedInABranch() {
        let source = """
            #if os(iOS)
            import AppIntents

            struct OpenIntent: AppIntent {
                static let title: LocalizedStringResource = "Open"
                @Parameter(title: "Server") var server: String
                func perform() async throws -> some IntentResult { .result() }
            }
            #endif

            """
        let (output, messages) = Self.lowered(source)
        #expect(output == source)
        #expect(messages == ["'@Parameter' is left as written: App Intents reads it from the source when the app is built (its metadata)"])
    }
}
