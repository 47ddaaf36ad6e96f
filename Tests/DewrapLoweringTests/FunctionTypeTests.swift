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
        #expect(isFunction("@convention(c) (Int32) -> Int32"))
        #expect(isFunction("(() -> Void)"))
        #expect(isFunction("(Int) -> Int?"))
    }

    @Test func optionalsAndOtherTypesAreNot() {
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
        let source = Array("""
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
}
