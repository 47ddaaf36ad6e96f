@testable import DewrapLowering
import DewrapSyntax
import Testing

/// M-4 (SPEC Corrections): which written property types a memberwise parameter takes
/// `@escaping`, and which attributes are result builders.
struct FunctionTypeTests {
    /// Whether the type annotation of `var probe` in `declarations + probe` is a function type.
    private func isFunction(_ type: String, declarations: String = "") -> Bool {
        let source = Array((declarations + "\nstruct S { var probe: \(type) }\n").utf8)
        let context = SourceContext(bytes: source, tree: Parser.parse(source))
        var span: TokenSpan?
        context.tree.forEachItem { item in
            if case .variable(let variable) = item, context.text(variable.bindings[0].pattern) == "probe" {
                span = variable.bindings[0].type
            }
        }
        return span.map(context.isFunctionType) ?? false
    }

    @Test func functionTypesWithAndWithoutAttributes() {
        #expect(isFunction("() -> Void"))
        #expect(isFunction("(Int, String) async throws -> [Int]"))
        #expect(isFunction("@Sendable (Int) -> Void"))
        #expect(isFunction("@MainActor @Sendable () -> Void"))
        #expect(isFunction("@convention(thin) () -> Void"))
        #expect(isFunction("(() -> Void)"))
        #expect(isFunction("(Int) -> Int?"))
    }

    /// Not taken `@escaping` either (the compiler's init, `-print-ast`): optional function types, and
    /// C function pointers (`@convention(c)`; fixture lowering/AttributedFunctionTypes).
    @Test func optionalsAndOtherTypesAreNot() {
        #expect(!isFunction("@convention(c) (Int32) -> Int32"))
        #expect(!isFunction("(@convention(c) () -> Void)"))
        #expect(!isFunction("(() -> Void)?"))
        #expect(!isFunction("(() -> Void)!"))
        #expect(!isFunction("[() -> Void]"))
        #expect(!isFunction("(Int, () -> Void)"))
        #expect(!isFunction("Int"))
        #expect(!isFunction("Binding<() -> Void>"))
    }

    @Test func typealiasesOfThisFileAreFollowed() {
        let aliases = """
            typealias Handler = (String) -> Void
            typealias Wrapped = Handler
            typealias Generic<T> = (T) -> T
            typealias Count = Int
            typealias Loop = Loop
            """
        #expect(isFunction("Handler", declarations: aliases))
        #expect(isFunction("Wrapped", declarations: aliases))
        #expect(isFunction("Generic<Int>", declarations: aliases))
        #expect(!isFunction("Handler?", declarations: aliases))
        #expect(!isFunction("Count", declarations: aliases))
        #expect(!isFunction("Loop", declarations: aliases))
        // Unknown here (declared in another file): not guessed to be one.
        #expect(!isFunction("Action", declarations: aliases))
        // Two declarations of one name: which one is meant is unknown.
        #expect(!isFunction("Handler", declarations: aliases + "\nenum E { typealias Handler = Int }"))
    }

    @Test func resultBuilders() {
        let source = Array(
            """
            @resultBuilder enum LinesBuilder {}
            struct S {
                @ViewBuilder let a: () -> Int
                @LinesBuilder let b: () -> Int
                @Other let c: () -> Int
            }
            """.utf8)
        let context = SourceContext(bytes: source, tree: Parser.parse(source))
        var found: [String: Bool] = [:]
        context.tree.forEachItem { item in
            if case .variable(let variable) = item, let attribute = variable.prefix.attributes.first {
                found[context.text(variable.bindings[0].pattern)] = context.isResultBuilder(attribute)
            }
        }
        #expect(found == ["a": true, "b": true, "c": false])
    }

    /// SE-0434 as `-print-ast` shows the compiler's memberwise parameters in Swift 6 (checked with
    /// swiftc 6.3.1): `@Sendable` after the global actor, wherever a function type has one.
    @Test func globalActorFunctionTypesAreSendable() {
        #expect(sendableGlobalActorFunctions("@MainActor () -> Void") == "@MainActor @Sendable () -> Void")
        #expect(sendableGlobalActorFunctions("(@MainActor () -> Void)?") == "(@MainActor @Sendable () -> Void)?")
        #expect(sendableGlobalActorFunctions("[@MainActor () -> Void]") == "[@MainActor @Sendable () -> Void]")
        #expect(sendableGlobalActorFunctions("@MyActor (Int) -> Int") == "@MyActor @Sendable (Int) -> Int")
        #expect(sendableGlobalActorFunctions("@Sendable @MainActor () -> Void") == "@MainActor @Sendable () -> Void")
        #expect(sendableGlobalActorFunctions("@MainActor @Sendable () -> Void") == "@MainActor @Sendable () -> Void")
        #expect(sendableGlobalActorFunctions("() -> @MainActor () -> Void") == "() -> @MainActor @Sendable () -> Void")
        #expect(sendableGlobalActorFunctions("Binding<@MainActor () -> Void>") == "Binding<@MainActor @Sendable () -> Void>")
        #expect(sendableGlobalActorFunctions("@Sendable () -> Void") == "@Sendable () -> Void")
        #expect(sendableGlobalActorFunctions("@convention(c) (Int32) -> Int32") == "@convention(c) (Int32) -> Int32")
        #expect(sendableGlobalActorFunctions("Action") == "Action")
    }

    /// K-4: the Optional types synthesized `init(from:)` decodes with `decodeIfPresent`, and the type it names.
    @Test func optionalTypesForDecodeIfPresent() {
        #expect(optionalWrapped("Int?") == "Int")
        #expect(optionalWrapped("Int!") == "Int")
        #expect(optionalWrapped("Optional<String>") == "String")
        #expect(optionalWrapped("[String: Int]?") == "[String: Int]")
        #expect(optionalWrapped("Int??") == "Int?")
        #expect(optionalWrapped("(() -> Void)?") == "(() -> Void)")
        #expect(optionalWrapped("Int") == nil)
        #expect(optionalWrapped("[Int?]") == nil)
        #expect(optionalWrapped("() -> Int?") == nil)
        #expect(optionalWrapped("Result<Int?, Error>") == nil)
    }
}
