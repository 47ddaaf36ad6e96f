import DewrapTestSupport
import Testing

/// How the fixture tests and `bin/differential` read `-print-ast` init signatures.
struct InitializerSignatureTests {
    /// A parameter of function type: its `->` closes no bracket (found by `bin/differential`: the
    /// labels after it were lost, and the I-4 exception was not applied).
    @Test func labelsAfterAFunctionType() {
        #expect(InitializerSignatures.labels("internal init(step0: @escaping @Sendable () -> Void, score2: Model)") == ["step0", "score2"])
        #expect(InitializerSignatures.labels("init(a: [Int: String] = [:], b: (Int) -> Int, c: Set<Int>)") == ["a", "b", "c"])
        #expect(InitializerSignatures.labels("init()") == [])
    }

    @Test func keptIsolatedNeedsANonisolatedSignature() {
        #expect(
            InitializerSignatures.keptIsolated("nonisolated internal init(a: Int)", isolation: "@MainActor") == "@MainActor internal init(a: Int)")
        #expect(InitializerSignatures.keptIsolated("internal init(a: Int)") == nil)
    }
}
