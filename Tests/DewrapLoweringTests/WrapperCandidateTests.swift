@testable import DewrapLowering
import DewrapSyntax
import Testing

/// The shortcut that skips parsing files with nothing to lower must never
/// skip a file that has something.
struct WrapperCandidateTests {
    private func mayUse(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return mayUseWrappers(Lexer.lex(bytes).tokens, in: bytes)
    }

    @Test(arguments: [
        "State", "Binding", "StateObject", "ObservedObject", "EnvironmentObject", "Environment",
        "FocusState", "GestureState", "AppStorage", "SceneStorage", "Bindable", "Namespace",
        "ScaledMetric", "FocusedValue", "FetchRequest", "Query", "Published", "Option", "TwelveOrLess",
        "lowercaseWrapper", "SwiftUI",
    ])
    func anyOtherAttributeNameCounts(name: String) {
        #expect(mayUse("struct S { @\(name) var x = 0 }"))
        #expect(mayUse("func f(@\(name) x: Int) {}"))
    }

    @Test func compilerAttributesAloneDoNot() {
        #expect(
            !mayUse(
                """
                @available(macOS 14, *) @MainActor public final class C: @unchecked Sendable {
                    @inlinable @discardableResult func f(_ g: @escaping @Sendable () -> Void) -> Int { $0 }
                    @usableFromInline @_spi(X) internal var $notAWrapper: Int { 0 }
                }
                """))
    }

    /// The look at raw bytes before lexing says yes wherever the lexer-based check might.
    @Test(arguments: [
        ("struct S { @State var x = 0 }", true), ("@ State var x = 0", true), ("@`State` var x", true),
        ("@État var x", true), ("let mail = \"me@example.com\"", true),
        ("@available(*, deprecated) @inlinable func f() {}", false), ("no attributes at all", false), ("", false),
        ("// @MainActor in a comment", false), ("x @", true),
    ])
    func rawBytesCheck(text: String, expected: Bool) {
        #expect(mayHaveWrapperAttribute(Array(text.utf8)) == expected)
    }

    /// A file with nothing to lower comes back as it is, even when it does not parse.
    @Test func brokenCodeWithoutWrappersIsCopied() {
        let text = Array("@available(*, deprecated) struct S { func f( { ] \n".utf8)
        let result = lower(text, fileName: "x.swift")
        #expect(result.output == text)
        #expect(result.diagnostics.isEmpty)
    }

    /// A module's run lowers first the files that may declare a function with wrapped parameters:
    /// one it misses is refused, so the look at the bytes must find every such declaration.
    @Test(arguments: [
        "func f(@W x: Int) {}",
        "func f(a: Int, @W x: Int) {}",
        "func f(a: Int,\n        @W x: Int) {}",
        "func f(\n    // the level\n    @W x: Int) {}",
        "func f(a: Int, // the level\n    @W x: Int) {}",
        "func f(/* the level */ @W x: Int) {}",
    ])
    func wrappedParameterDeclarationsAreSeen(source: String) {
        #expect(mayDeclareWrappedParameter(Array(source.utf8)))
    }

    @Test func propertiesAndClosureAttributesAreNot() {
        #expect(
            !mayDeclareWrappedParameter(
                Array(
                    """
                    struct S {
                        @State var x = 0
                        @MainActor func f(_ g: @escaping () -> Void) { Task { @MainActor in g() } }
                    }
                    """.utf8)))
    }
}
