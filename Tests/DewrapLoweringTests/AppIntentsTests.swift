import DewrapLowering
import Testing

/// A `$x` in the arguments of an App Intents attribute (`@IntentParameterDependency<Intent>(\.$x)`)
/// names the projection of the intent's `@Parameter`, which stays as written (RULES Decision 7):
/// it is never rewritten, and it is not a use of a lowered `x` of the file or the module.
struct AppIntentsTests {
    static let intent = """
        import AppIntents

        struct PerformAction: AppIntent {
            static let title: LocalizedStringResource = "Perform"
            @Parameter(title: "Server") var server: String
            func perform() async throws -> some IntentResult { .result() }
        }

        struct ActionQuery: EntityQuery {
            @IntentParameterDependency<PerformAction>(\\.$server)
            var intent
        }

        """

    /// The query alone: its intent is declared in another file of the module.
    static let query = """
        import AppIntents

        struct ActionQuery: EntityQuery {
            @IntentParameterDependency<PerformAction>(\\.$server)
            var intent
        }

        """

    static func warnings(_ result: LoweringResult) -> [String] {
        result.diagnostics.filter { $0.severity != .note }.map(\.message)
    }

    /// A lowered `server` of the same file: its `$server` is not the parameter's.
    @Test func aLoweredMemberOfTheSameNameIsLowered() {
        let source = Self.intent + "final class Model: ObservableObject {\n    @Published var server = \"\"\n}\n"
        let result = lower(Array(source.utf8), fileName: "Query.swift")
        let output = String(decoding: result.output, as: UTF8.self)
        #expect(Self.warnings(result).isEmpty, "\(Self.warnings(result))")
        #expect(output.contains("var _$server: Published<String>.Publisher"))
        #expect(output.contains("@IntentParameterDependency<PerformAction>(\\.$server)"))
    }

    /// `server` lowered in one file of the module and left in another: only a `$server` outside the
    /// attribute may name either.
    @Test func theModulesAmbiguityIsNotTheAttributes() {
        var options = LoweringOptions()
        options.moduleAmbiguous = ["server": AmbiguousProjection(loweredIn: "Model.swift", leftIn: "Intent.swift")]
        let quiet = lower(Array(Self.query.utf8), fileName: "Query.swift", options: options)
        #expect(Self.warnings(quiet).isEmpty, "\(Self.warnings(quiet))")
        let outside = lower(Array((Self.query + "func use(_ model: Model) { _ = model.$server }\n").utf8), fileName: "Query.swift", options: options)
        #expect(Self.warnings(outside).count == 1)
    }

    /// `server` lowered in the module and left nowhere: a `$server` elsewhere is rewritten, the attribute's is not.
    @Test func theModulesProjectionIsNotRewrittenThere() {
        var options = LoweringOptions()
        options.moduleProjections = ["server"]
        let source = Self.query + "func use(_ model: Model) { _ = model.$server }\n"
        let output = String(decoding: lower(Array(source.utf8), fileName: "Query.swift", options: options).output, as: UTF8.self)
        #expect(output.contains("@IntentParameterDependency<PerformAction>(\\.$server)"))
        #expect(output.contains("_ = model._$server"))
    }
}
