import DewrapSyntax
import Testing

/// A variable declaration's bindings are a range of the bindings table (one put
/// there straight, several gathered on the builder's stack while the bindings
/// inside them are parsed): `bindings` shows them all, in source order, and
/// none after an error.
struct PatternBindingsTests {
    /// The pattern text of each binding of the first declaration in `source`.
    static func patterns(_ source: String) -> [String]? {
        let bytes = Array(source.utf8)
        let tree = Parser.parse(bytes)
        guard case .variable(let variable) = tree.items.first else { return nil }
        return variable.bindings.map { binding in
            String(decoding: bytes[tree.tokens[binding.pattern.lower].start..<tree.tokens[binding.pattern.upper - 1].end], as: UTF8.self)
        }
    }

    @Test func oneBinding() {
        #expect(Self.patterns("var a: Int = 1") == ["a"])
    }

    @Test func severalBindingsInSourceOrder() {
        #expect(Self.patterns("let a = 0, (b, c) = (1, 2), _ = 3") == ["a", "(b, c)", "_"])
    }

    @Test func bindingsBeforeAnErrorStay() {
        #expect(Self.patterns("var a = 1, b, 2") == ["a", "b"])
    }

    @Test func noBindingAfterAnError() throws {
        let tree = Parser.parse(Array("let = 1".utf8))
        guard case .variable(let variable) = tree.items.first else {
            Issue.record("no variable declaration")
            return
        }
        #expect(variable.bindings.isEmpty)
        #expect(variable.bindings.count == 0)
        #expect(!tree.diagnostics.isEmpty)
    }

    @Test func nestedListsStayApart() throws {
        let source = "let a = { let x = 1, y = 2; return x + y }(), b = { let z = 3; return z }()"
        #expect(Self.patterns(source) == ["a", "b"])
        let bytes = Array(source.utf8)
        let tree = Parser.parse(bytes)
        var inner: [[String]] = []
        tree.forEachItem { item in
            guard case .variable(let variable) = item, variable.span.lower > 0 else { return }
            inner.append(variable.bindings.map { String(decoding: bytes[tree.tokens[$0.pattern.lower].range], as: UTF8.self) })
        }
        #expect(inner == [["x", "y"], ["z"]])
    }

    @Test func readByIndex() throws {
        let tree = Parser.parse(Array("var a = 1, b: Int".utf8))
        guard case .variable(let variable) = tree.items.first else {
            Issue.record("no variable declaration")
            return
        }
        #expect(variable.bindings.indices == 0..<2)
        #expect(variable.bindings[0].initializer != nil && variable.bindings[0].type == nil)
        #expect(variable.bindings[1].initializer == nil && variable.bindings[1].type != nil)
        #expect(variable.bindings.first?.name == variable.bindings[0].name)
    }
}
