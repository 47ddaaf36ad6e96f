import DewrapSyntax
import Testing

/// A literal alone (`0`, `true`, `"text"`) is taken as the whole expression at once
/// only where nothing can continue it; anywhere else the expression goes on as usual.
struct LoneLiteralTests {
    /// A variable's source and the text of its initial value.
    static let initializers: [(source: String, initializer: String)] = [
        ("let a = 0\n@State var b = 1", "0"),
        ("let a = 1.5\nvar b = 1", "1.5"),
        ("let a = true\nfunc f() {}", "true"),
        ("let a = nil\n}", "nil"),
        ("let a = \"text\"\nlet b = 1", "\"text\""),
        ("let a = \"\"\n@Binding var b: Int", "\"\""),
        ("let a = 0, b = 1", "0"),
        ("let a = 0; let b = 1", "0"),
        // Continued: by an operator, a member, a call, a cast, a trailing closure, an interpolation.
        ("let a = 1 + 2", "1 + 2"),
        ("let a = \"x\"\n    .uppercased()", "\"x\"\n    .uppercased()"),
        ("let a = true(1)", "true(1)"),
        ("let a = nil as Int?", "nil as Int?"),
        ("let a = 0 is Int", "0 is Int"),
        ("let a = true { 1 }", "true { 1 }"),
        ("let a = \"v \\(x)\"\nlet b = 1", "\"v \\(x)\""),
        ("let a = 1 == 2 ? 3 : 4", "1 == 2 ? 3 : 4"),
    ]

    @Test(arguments: initializers.indices)
    func initialValueEndsWhereNothingContinuesIt(_ index: Int) throws {
        let (source, expected) = Self.initializers[index]
        let bytes = Array(source.utf8)
        for bodies in [BodyParsing.all, .skippingPlain] {
            let tree = Parser.parse(bytes, bodies: bodies)
            guard case .variable(let variable) = tree.items.first, let span = variable.bindings[0].initializer else {
                Issue.record("no initial value in \(source)")
                continue
            }
            let text = String(decoding: bytes[tree.tokens[span.lower].start..<tree.tokens[span.upper - 1].end], as: UTF8.self)
            #expect(text == expected, "\(source)")
        }
    }

    @Test func literalArgumentsLeaveTheCallWhole() {
        let bytes = Array("let e = Entry(title: \"a\", count: 0, done: false, $x)\nlet f = 1".utf8)
        let tree = Parser.parse(bytes)
        #expect(tree.items.count == 2)
        #expect(tree.dollarReferences.count == 1)
        #expect(tree.diagnostics.isEmpty)
    }
}
